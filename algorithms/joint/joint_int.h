/*
 * joint_int.h - the state of the joint algorithm, shared by joint.c (set-up
 * and driver), joint_cand.c, joint_model.c, joint_search.c, joint_repair.c
 * and joint_paths.c (the output); the rules' own files declare what they
 * offer in joint_rules.h, included at the end.  Not a public interface.
 */
#ifndef JOINT_INT_H
#define JOINT_INT_H

#include <stddef.h>
#include <stdint.h>
#include <math.h>

#include "joint.h"
#include "joint_align.h"

/* One link whose unpaired messages joint_unpaired.c weighed. */
typedef struct joint_unp_rec {
    uint32_t caller, callee, link;
    size_t calls, returns;
    size_t unpaired_calls0, unpaired_returns0; /* the first search's */
    size_t unpaired_calls, unpaired_returns;   /* the min-cost pairing's */
    size_t changed;          /* messages whose state changed (0: kept) */
    double cost_before, cost_after; /* nats */
    int failed;              /* the flow found no solution */
    double overtaken;        /* of two consecutive paired calls, the later answered
                                first (the link as the search left it) */
    double order_p;          /* p-value of "overtakes at most JOINT_ORDER_RHO0" */
    int in_order;            /* not refuted: the alignment's choice stays */
    double q, price;         /* the loss rate and the nats of an unpaired message */
    uint64_t *moved;         /* ids of the messages whose state the choice changed
                                (changed of them; allocated, or NULL), for the
                                metadata: what a second search must re-solve */
} joint_unp_rec;

/* One link that the nesting test looked at (joint_cand.c, joint_align.h). */
typedef struct joint_align_rec {
    uint32_t caller, callee;
    joint_align_info info;
    uint8_t callee_side;        /* 1: tested on the callee's idle starts */
} joint_align_rec;

#define JOINT_SCAL_NSTAT 8     /* self-calibration statistics per link: simulated calls,
                                  right, real shares lowered, own map, simulated doubt,
                                  real calls, real doubt, doubt ratio */
#define JOINT_CORR_NPAR 7      /* durations term, fit per key (cpar): mx, my, 1/sx, 1/sy,
                                  rho, -log(1 - rho^2) / 2, 2 (1 - rho^2) */
#define JOINT_DK_MAX (1u << 22) /* cells of the direct key tables (joint_dk_cell) */
#define JOINT_KMAX 15          /* call counts at or above this share a cell */
#define JOINT_MAX_LINKS (1u << 20)
#define JOINT_SCALE 1000.0     /* flow cost units per nat */
#define JOINT_CMAX 1e6         /* cost clip, units */
#define JOINT_RESPLIT_MAX 8   /* shared calls re-split exhaustively (2^n splits) */
#define JOINT_RESPLIT_BUDGET (256 * 20) /* exhaustive only while 2^8 x (calls of the two
                                           requests + 2) stays within this */
#define JOINT_WC_SLOTS 1024    /* resplit_wcache: records kept (request q in slot q mod it) */
#define JOINT_GS_SLOTS 4096    /* greedy_sorted: requests kept (q in slot q mod it) */
#define JOINT_GS_MIN 10        /* greedy_sorted: requests of at least this many calls */
#define JOINT_RESPLIT_LOCAL 24 /* shared calls of a local-search re-split */
#define JOINT_SWAP_WINDOW 8    /* later calls of a link tried for a return exchange */
#define JOINT_RESUME_MIN 16    /* a re-split's walks resume from recorded ones when the
                                  two requests have at least this many calls together
                                  (smaller: walked afresh, cheaper) */
#define JOINT_PRUNE_N 10       /* prune: only re-splits of two requests with at least
                                  this many calls together ... */
#define JOINT_PRUNE_MIN 64     /* ... and 2^(shared calls) x (their calls) at least this
                                  (below, walking every split afresh is as cheap as
                                  recording and estimating: instructions on hotel,
                                  multi-tier and OnlineBoutique, docs/joint.md) */
#define JOINT_PRUNE_TOL 1e-7  /* prune: a split's estimate may differ from its exact
                                  value by this times the magnitudes (joint_search.c) */
#define JOINT_FORBID (-1e4)    /* log-probability of a call the call graph forbids */
#define JOINT_SVC_ROUNDS 4 /* sv_cut: rounds whose log-likelihood the early run notes */
#define JOINT_RESTART_MARGIN 10.0 /* nats the second start's solution must gain to be kept */
#define JOINT_ORDER_RHO0 0.02  /* order=auto: the inversion rate tested against */
#define JOINT_ORDER_ALPHA 0.01 /* order=auto: level of the one-sided binomial test */
#define JOINT_FIFO_MIN 10     /* fifo test: least idle starts on a link */
#define JOINT_FIFO_BUSY 100   /* fifo test: least busy starts on a link */
#define JOINT_FIFO_KS 0.4     /* fifo test: distance of the busy and idle starts'
                                 service times (with its noise) below this */
#define JOINT_FIFO_KS2 0.3    /* fifo test: the same for the split by requests waiting */
#define JOINT_FIFO_MISMATCH 0.05 /* fifo test: a service with several callers answers
                                    them out of their order of calling at most this often */
#define JOINT_FIFO_AUC 0.15   /* fifo test: P(a busy start's is the shorter) within
                                 this of one half */
#define JOINT_SEL_MIN 2.0     /* signals per service: an alternative's held-out gain must
                                 exceed this many nats ... */
#define JOINT_SEL_Z 2.0       /* ... and this many standard errors of the summed gain ... */
#define JOINT_SEL_PER_REQ 0.01 /* ... and this many nats per held-out request */
#define JOINT_LATE_NGAPS 7     /* late calls: gaps after a response tried (joint_late.c) */
#define JOINT_LATE_WORK 3e6    /* late calls: orphan x request steps of the test per gap */
#define JOINT_LATE_ALPHA 0.01  /* late calls: level of the test (Bonferroni over the gaps) */
#define JOINT_LATE_NSTAT 16    /* late calls: statistics per service */
#define JOINT_LCH_NSTAT 3      /* late_chance=2: statistics per link (joint_lchance.c) */
#define JOINT_LA_ROUNDS 8      /* late calls: at most this many rounds placing the held
                                  orphans, until none moves (joint_lateattach.c) */
#define JOINT_LC_C 3           /* late calls: calls of a link per request counted up to this
                                  (joint_latecount.c) */
#define JOINT_PICK_SIMS 3      /* busy test: copies of the free solution */
#define JOINT_PICK_Z 3.29      /* busy test: a service serialises below -z (one-sided 0.0005) */
#define JOINT_PICK_MIN 20      /* busy test: calls a service needs to be tested */
#define JOINT_PICK_NSTAT 17    /* busy test: statistics per service (7-11: busy_space,
                                  12: busy_reentry withdrew the verdict, 13-16: busy_arr) */
#define JOINT_SPACE_Q 0.1      /* busy_space: short gaps, below this quantile of the trace's */
#define JOINT_SPACE_Z 3.29     /* busy_space: a service serialises below -z (one-sided 0.0005) */
#define JOINT_PICK_WIN 4       /* busy test: window, times a link's median first-in-first-out duration */
#define JOINT_PICK_SCAN 4096   /* busy test: messages looked back at most for the window */
#define JOINT_PICK_SEED 1000   /* busy test: its copies use conf_seed + this + 0, 1, ... */
#define JOINT_PICK_MORE 3      /* busy_more: copies' calls wanted, times the service's */
#define JOINT_PICK_MAXSIMS 12  /* busy_more: copies at most */
#define JOINT_UNP_QMIN 1e-4     /* unpaired: least loss rate its price assumes */
#define JOINT_UNCROSS_SPAN 8   /* uncross: calls a window moves at most (but heads and tails) */
#define JOINT_UNCROSS_WORK 64   /* uncross: moves estimated at most, per pair of the trace */
#define JOINT_REUNP_NEAR 32    /* reunp: full calls each side of a half call weighed */
#define JOINT_REUNP_WORK 256   /* reunp: greedy steps per call of a link at most */
#define JOINT_REUNP_SEED 2000  /* reunp=2: its copy uses conf_seed + this */
#define JOINT_REUNP_ALPHA 0.05 /* reunp=2: the sign test's level */
#define JOINT_UNPCK_SEED 3000  /* unpaired=3: its copy uses conf_seed + this */
#define JOINT_UNPP_LLR 1.9207   /* unp_pieces: nats a piece's second partition must win by
                                  (chi-square(1) 95 % / 2) */
#define JOINT_UNPP_SMALL 0.1   /* unp_pieces: largest piece taken, share of the messages */
#define JOINT_UNPM_SKIP (JOINT_NONE - 1) /* unp_pieces' merge: no parent given here */
#define JOINT_UNPW_MAX 0.5     /* unp_win: a window holding more of the messages runs the
                                  whole second search (joint_unpwin.c) */
#define JOINT_UNCROSS_ROUNDS 3  /* uncross: passes (each followed by the search) at most */
#define JOINT_RESTART_ONE 0.5  /* a ranked link is refuted when fewer of its service's requests
                                  make exactly one call of it */

/* One call pair.  cs: call sent (caller's clock); cr: call received
 * (callee's clock); rs: return sent (callee's clock); rr: return received
 * (caller's clock).  A missing receive time is taken from the send. */
/* A half pair (call or ret JOINT_NONE: the other message was lost) has
 * the missing end's times copied from the known one. */
/* joint_rowtie.c: per service, the test of the row order within a tick */
typedef struct joint_rowtie_stat {
    size_t calls;            /* calls with a candidate */
    size_t cut[2], fail[2];  /* of them, some put out by the rows; all ([0] both sides,
                                [1] the calls' side alone) */
    int late, used;          /* a late service (joint_late_row_sides): 0 not, 1 not
                                tested, 2 the calls' side alone, 3 both sides; the rows
                                used: 2 both sides, 1 the calls' side, 0 not */
} joint_rowtie_stat;
#define JOINT_ROWTIE_MIN 10 /* tie_rows: least calls whose candidates the rows cut */

/* pair_window (joint_pwin.c): the free/held choice made on a window */
typedef struct joint_pwin {
    int on;              /* pair_window asked for and pair_order=auto ran */
    int decision;        /* 0 both searches ran (fallback), 1 free, 2 held, 3 held
                            without learned parallel calls (the early run) */
    int window_kind;     /* the window's choice (same codes), 0 none */
    int full_kind;       /* pair_window_check: the whole trace's choice, 0 not run */
    const char *reason;  /* why decided or why not (static text) */
    uint32_t roots, wroots; /* requests (root calls) in the trace, in the window */
    size_t lo, hi;       /* the window: messages [lo, hi) */
    double d;            /* the window's log-likelihood held minus free (nats) */
} joint_pwin;

/* Field order (h157): the walks' fields first (cs, rr, call, ret, link:
 * bytes 0-27), so that with the 56-byte stride a pair's hot fields lie in
 * one cache line for 5 of the 8 offsets a pair can start at (2 of 8 in the
 * old order cs, cr, rs, rr, call, ret, caller, callee, link, whose hot
 * fields spanned bytes 0-51).  Same size; initialise by field name. */
typedef struct jpair {
    pb_ns cs, rr;
    uint32_t call, ret;     /* message indices */
    uint32_t link, caller;
    pb_ns cr, rs;
    uint32_t callee;
} jpair;

typedef struct kvec {
    uint32_t *a;
    uint32_t n, cap;
} kvec;

typedef struct hmap {
    uint64_t *k;
    uint32_t *v;            /* JOINT_NONE: empty */
    size_t n, cap;
} hmap;

struct joint {
    pb_trace_view v;
    joint_params p;
    uint32_t nnodes, npairs;
    jpair *pr;
    uint32_t *pair_of_msg;
    uint32_t *cand_off, *cand;
    size_t ncand, candcap;
    size_t capped_calls; /* calls whose candidates max_candidates cut */
    size_t csweep_calls; /* cand_sweep: calls whose candidates the tree found */
    size_t cgroup_calls; /* cand_group: calls cut from their group's list */
    /* -s callgraph=: names that are no node of the trace (the first one
     * and its line), lines whose CALLER SERVICE is no link of it */
    size_t cg_unknown, cg_nolink, cg_allowed;
    char cg_first[64];
    long cg_first_line;
    size_t capped_max;   /* the most candidates one of them had */
    /* the most over every pass of the candidates (joint_candends.c): an
     * earlier pass (returns re-paired, late calls) may cut where the last
     * does not */
    size_t capped_ever, capped_ever_max;
    /* calls that outlive their request (joint_late.c): per service, the
     * gap after a response within which a call without any enclosing
     * request may still belong to it (-1: the service did not pass the
     * test), or NULL (no service passed); per service the test's orphans,
     * orphans near a request, coverage, gap (ns) and p-value */
    pb_ns *late_gap;
    double *late_lshare; /* per link: the share of its calls that are
                            orphans (joint_latesend.c), or NULL */
    pb_ns *late_sgap;    /* per service: the send side of late_gap
                            (joint_latesend.c; = late_gap with late_split=0) */
    double *late_stat;
    size_t late_cands;   /* calls the widened test gave more candidates */
    size_t late_tied;    /* calls whose return ties every enclosing request's
                            end at coarse stamps (joint_latetie.c) */
    double late_tied_w;  /* ... the orphan weight they added to the shares */
    /* how many of a request's calls outlive it (joint_latecount.c): per
     * link, counts and log P(m | c) in cells of (JOINT_LC_C + 1)^2; lc_c
     * scratch (two per outgoing link); lc_base: the cells' index for
     * fit_fast's records (after the count cells); lc_on: the term is on */
    double *lc_cnt, *lc_lp;
    uint32_t *lc_c;
    size_t lc_base;
    int lc_on;
    /* the set of calls a request makes (joint_oset.c): os_ein per in link
     * (NULL: the term is off everywhere), os_svc per service (some in link
     * on); signature entries (os_n of os_cap): their count cells' base, in
     * link, counts (os_vals from os_voff), count in the assignment and
     * log-probability (the first os_nlp fitted); per in link the unseen
     * signature's log(prior / (N + prior)) and N; os_fbase: fit_fast's
     * record index of entry 0; os_meta: the test's lines */
    unsigned char *os_ein, *os_svc;
    hmap os_map;
    size_t *os_base, *os_voff, os_vn, os_vcap, os_fbase;
    uint32_t *os_e, os_n, os_cap, os_nlp, *os_c;
    unsigned char *os_vals;
    double *os_cnt, *os_lp, *os_unseen, *os_tot;
    double *os_bound;       /* per in link: the term's largest value (joint_bnb.c) */
    double *os_beta;        /* per in link: the concentration (prior) chosen */
    char **os_meta;
    uint32_t os_nmeta;
    /* orphans held as roots during the search, placed after it
     * (joint_lateattach.c): late_hold while held; la_held how many,
     * la_moved how many changed request in the later rounds */
    int late_hold;
    uint32_t la_held, la_moved, la_rooted, la_rounds;
    unsigned char *la_timer; /* per service: a late call's send may trigger a
                                later output (joint_lateattach.c), or NULL */
    /* late_trust (joint_latetrust.c): per pair, the posterior of the held
     * orphan's last placement (NAN: not held), or NULL; the confidences
     * computed for the decision (kept when it changed nothing), how many
     * placements it undid and kept */
    double *la_post, *lt_conf, *lt_trust; /* lt_trust: per link, the trust used */
    uint32_t lt_undone, lt_kept;
    int lt_done;
    uint32_t *par;          /* chosen parent, or JOINT_NONE */
    kvec *kids;             /* calls ascribed to each request, by call time */

    /* links */
    hmap linkmap;
    uint32_t nlinks, *link_src, *link_dst;
    uint32_t *out_off, *out_links, *link_local;
    uint32_t *bylink_off, *bylink;

    /* model */
    uint32_t nb;            /* density bins */
    double ibin;            /* 1 / bin (dbin_ln), or 0: not set */
    struct joint_logc *logc; /* logf_of's cache of log(delay) and its bin, or NULL */
    pb_ns tick;             /* the trace's timestamp resolution (pb_tick_detect) */
    int coarse;             /* many messages share a stamp (pb_tick_info.coarse_ties) */
    unsigned char *t0obs;   /* per pair: its delays are observed, not chosen (clean and
                               paired beyond doubt; joint_tick0.c), or NULL */
    double *t0c;            /* per density key: this fit's observed delays stamped zero
                               ticks, all observed delays (2 a key) */
    uint32_t t0c_cap;       /* keys t0c holds */
    int t0_nofast;          /* unused (fit_fast runs with the rule since issue 28's
                               whole-tick intervals) */
    uint32_t tiJ;           /* whole ticks 1..tiJ scored and fitted as intervals
                               (joint_tickivl.c); 0: off */
    uint32_t tiSpan;        /* the whole ticks that have bins of their own (at most
                               tick_ivl_max), whether the rule runs or not */
    double ti_ratio;        /* the gate's median observed duration in ticks (-1: none) */
    int ti_state;           /* 0 no whole ticks with bins of their own, 1 off, 2 on */
    uint32_t *tibin;        /* tibin[j] = dbin(j tick), j = 0..tiJ+1 */
    uint32_t *tis_off, *tis_b; /* the bins of [j, j+1) ticks: tis_b[tis_off[j] ..
                               tis_off[j+1] - 1] */
    double *tis_w, *tiw_w;  /* their share of the interval (the fit's spread) and of
                               their own log10 width inside it (the score's weight) */
    int t0fine;             /* coarse ties, yet the tick is fine against the observed
                               durations: the rule runs (joint_tick0.c) */
    double t0ratio;         /* median observed duration / tick (coarse ties; -1: none) */
    double t0need;          /* the ratio from which whole ticks share a density bin */
    double dmin;            /* least delay (ns) a density is evaluated at: 10 ns, or
                               half a tick when the stamps are coarser (a delay
                               stamped 0 lies anywhere in [0, tick)) */
    int quant_on;           /* coarse ties: the tie test runs (joint_quant.c) */
    pb_ns qtick;            /* the tie test's tick: the trace's, or the original one
                               of rows spread over their ticks (joint_subtick.c) */
    int quant_state;        /* 0 not decided, 2 search kept, 3 start kept */
    size_t quant_changed, quant_tied; /* calls moved from the start; of them within a tick */
    double quant_ll[2];     /* log-likelihoods of the start and the search, each refitted */
    int quant_ll_set;       /* quant_ll[0] is known */
    size_t tiecall_tied, tiecall_moved; /* joint_tiecall.c: calls in runs of equal send
                                           stamps the kept start ranked, and re-ranked */
    uint32_t *qpar;         /* the start's parents while the search runs, or NULL */
    void *qret;             /* the start's returns per pair (joint_quant.c), or NULL */
    uint32_t *qcross;       /* joint_tiecross.c: the search's parent of each call it moved
                               across a tick (NONE otherwise) while the start is made
                               again, or NULL */
    size_t cross_across, cross_put; /* such calls; of them given their parent back */
    int cross_done;         /* joint_tiecross_apply ran */
    int cross_kept;         /* the search's moves across a tick were kept */
    double cross_ll[2];     /* log-likelihoods of the start and with those moves, refitted */
    joint_rowtie_stat *rowtie_st; /* joint_rowtie.c: per service, or NULL (not run) */
    struct joint_thr *thr;  /* thread_bound (joint_thread.c): the per-service test, or NULL */
    size_t rowtie_dropped;  /* candidates the rows put out */
    int orph_on, orph_refuted; /* joint_tieorph.c: the sign test ran; it refuted the start */
    size_t orph_start_only, orph_search_only; /* calls with a parent in one solution only */
    double orph_p;          /* the sign test's one-sided probability */
    int tset_on, tset_refuted; /* joint_tieset.c: the sign test ran; it refuted the start */
    size_t tset_eps, tset_reqs; /* endpoints with an agreed modal set; their requests */
    size_t tset_start_off, tset_search_off; /* requests off that set in one solution only */
    double tset_p;          /* the sign test's one-sided probability */
    size_t tset_cross;      /* tie_sets=2: the start's calls given the search's parent
                               as tie_cross would (moved across a tick) */
    uint32_t *tset_spar;    /* tie_sets=3: the search's parents while the start is made
                               again and tie_cross runs, or NULL (joint_tieset.c) */
    void *tset_sret;        /* ... and its returns (joint_quant.c's form), or NULL */
    size_t tset_left;       /* tie_sets=3: calls whose parent still differs after tie_cross */
    int tset_after;         /* tie_sets=3: the test ran after tie_cross */
    size_t tset_missed; /* tie_sets=3: calls put back without their parent (warned) */
    size_t tset_comps, tset_taken; /* tie_sets=3: components where the two differ; of them
                               given the search's parents */
    size_t tset_ll_dropped; /* tie_sets_ll: components the set count took, dropped
                               by their own likelihood (joint_tieset.c) */
    struct joint_subtick *subtick; /* joint_subtick.c: the row-order check at coarse
                               stamps (owned; NULL where it did not run) */
    double bg;              /* log density of the background (per decade) */
    hmap keymap;            /* (in link, trigger, out) -> density */
    uint32_t nkeys;
    double *hist, *logf, *kstat; /* hist, logf: pools of rows by range (joint_mrow.h) */
    double *hraw;           /* the last fit's raw counts and sums: joint_memraw.c's pool */
    uint32_t hraw_cap, hraw_valid;
    uint32_t *hlo, *hhi;    /* per key: hist's filled bins lie in [hlo, hhi] (empty when
                               hlo > hhi); hist is zero elsewhere (speed only) */
    uint32_t *rlo, *rhi;    /* per key: the same of hraw's histogram */
    struct joint_mrow *hrow, *lrow; /* per key: hist's and logf's rows in those
                               pools (joint_mrow.h) */
    struct joint_mpool *mpool; /* the two pools' bookkeeping and scratch (joint_mrow.c) */
    uint32_t *cnt_off;      /* per in link: offset into cnt (cells x KMAX+1) */
    double *cnt, *cntlp;
    unsigned char *allowed; /* call graph: per (in link, out link) cell, or NULL */

    /* scratch */
    uint32_t *scratch, scratchcap, *edit, editcap, *ccount;
    uint32_t *stamp, epoch, *loc, *loc2, *rqlist, *uf, *comp_cnt, *comp_ord;
    uint32_t *cbuf, *rbuf, *chbuf;

    hmap seen;              /* request pairs re-split in this pass */
    struct joint_wrec *wr;  /* re-split: recorded walks of the reference split of
                               each side (wr[wref], wr[wref + 1]) and of the split
                               scored last (the other two) */
    int wref;               /* 0 or 2 */
    int wresume;            /* this re-split's walks resume (JOINT_RESUME_MIN) */
    struct rsmerge *rsm;    /* re-split: the merged lists of the two sides
                               (joint_search.c), or NULL */
    struct joint_bnb *bnb;  /* re-split by branch and bound (joint_bnb.c), or NULL */
    uint32_t fit_gen;       /* joint_fit's count (joint_bnb.c's cache is per fit) */
    int rounds_fresh;       /* joint_refit: the model is a refit of the present
                               assignment (the last joint_solve_rounds) */
    size_t refits_skipped;  /* joint_refit: refits left out (refit_skip_same) */
    size_t rinf_skipped;    /* re-pairing exchanges rejected unscored (repair_inf_skip) */
    struct joint_ff *ff;    /* fit_fast: the refit's fixed costs (joint_fitfast.c), or NULL */
    struct joint_selshare *selshare; /* select_share: joint_select's choice shared by the
                                        two searches (joint_fitfast.c; joint_init owns
                                        it), or NULL */
    int select_shared;      /* this search took the other search's choice */
    int select_real;        /* the self-calibration's copy took the real trace's
                               choice (selfcal_select, joint_select.c) */
    int scal_sel_real;      /* the self-calibration's copies that took it */
    int fflog;              /* fit_fast: the walk running is recorded (joint_ff_log) */
    size_t par_sweeps, par_adds; /* requests whose parallel calls were counted by the
                                    sweep; additions to the parallel counts (one per
                                    pair in par_pairs, per link pair in par_sweep) */
    uint32_t keycap;        /* keys the per-key arrays hold room for */
    uint32_t keyroom_set;   /* key_room: the room given at the search's start (0: none;
                               joint_keyroom.c) */
    int pairs_shared;       /* pairs_share: the pairing taken from the first search
                               (joint_pshare.c; on the kept solution of
                               pair_order=auto: the held search's) */
    size_t bnb_scored, bnb_cut; /* splits the branch and bound scored / left out */
    size_t bnb_rows_kept;       /* bnb_row_keep: bound rows kept across refits */
    int xfloor_on;          /* swap_floor: the re-split running is the top of an
                               exchange, only values above xfloor matter
                               (joint_xfloor.c) */
    double xfloor;
    struct joint_xwalk *xwalk; /* the top of an exchange walked from a record
                                  (joint_xwalk.c), or NULL */
    size_t xresumed;        /* swap_resume: exchanges whose walk resumed later than
                               the first middle step (joint_model.c xresume_at) */
    double *xmemo;          /* swap_memo: requests' own log-likelihoods within one
                               pass of exchanges (NaN: not yet; joint_xfloor.c) */
    int bnb_no_order;       /* the branch and bound scores without the order term (the
                               exchanges' re-split, joint_repair.c best_split) */
    int greedy_mono;        /* greedy_cut: every pair's return follows its call (this
                               round; joint_greedy_prep) */
    struct joint_gfrz *gfrz; /* greedy_cut: rounds under a frozen model (joint_greedy.c),
                                or NULL */
    struct joint_lsmemo *lsm; /* resplit_memo: the local search's single moves
                                 (joint_lsmemo.c), or NULL */
    size_t lsm_hits;        /* resplit_memo: estimates taken from it */
    size_t ordb_est, ordb_swap; /* order_bound: order terms left out (estimates,
                                   exchanges of returns; joint_ordbound.c) */
    uint64_t lsm_ls;        /* resplit_memo: local searches begun */
    struct joint_wcache *wc; /* resplit_wcache: the local search's fresh walks kept
                                (joint_wcache.c), or NULL */
    size_t wc_hits;         /* resplit_wcache: fresh walks taken from it */
    struct joint_vcache *vc; /* the local search's small walks' values kept
                                (joint_vcache.c), or NULL */
    size_t vc_hits;         /* joint_vcache.c: walks' values taken from it */
    size_t csync_walks, csync_hits; /* conf_sync: the shares' synced walks, and
                                       those that stopped early (joint_conf.c) */
    struct joint_llkeep *llk; /* conf_ll_keep: the confidence's walk of each request,
                                 kept for the output's log-likelihood (joint_llkeep.c),
                                 or NULL */
    double *ps_memo;        /* conf_pair_memo: each request's walk kept while
                               joint_pair_shares runs (NaN: not yet), else NULL */
    struct joint_tcache *tcache; /* greedy_tcache: trigger parts per candidate slot
                                    (joint_tcache.c) */
    struct joint_gsort *gs; /* greedy_sorted: large requests' returns sorted, per greedy
                               round (joint_gsort.c), or NULL */
    struct joint_lsg *lsg;  /* loss_serial_greedy's cost: candidates' calls per greedy
                               round (joint_lsgreedy.c), or NULL */
    size_t greedy_skipped;  /* greedy_cut: calls left as they were (frozen model) */
    size_t tcache_hits;     /* greedy_tcache: slots whose trigger was kept */
    uint32_t *rsbuf, rscap, *dirty, pass_id;
    unsigned char *rl_chg;  /* resolve_local: per request, changed since the last
                               search ended (joint_resolve.c), or NULL: not tracking */
    int rl_only;            /* resolve_local: the next first re-split pass visits only
                               pairs with a changed request */
    size_t rop_solves;      /* repair_open_passes: open-ended solves whose local-search
                               passes it capped (joint_repair.c) */
    size_t rl_skipped, rl_visited; /* resolve_local: pairs left out / visited by those
                                      first passes */
    /* parallel calls: per (in link, link L, output) key dkey(ein, 1 + L,
     * out), how often a call of L was sent before the output and returned
     * after it (overlap) or before it (serial); pflag: L's return is no
     * trigger of that output (learned: overlaps above `parallel`) */
    hmap parmap;
    /* direct tables of keymap and parmap (speed only): per in link ein,
     * (1 + outgoing links of its callee)^2 cells at dk_off[ein], indexed by
     * (trigger, output) local to the callee; JOINT_NONE: no key yet.  NULL
     * when the table would be too large (the maps alone answer then) */
    uint32_t *dk_off, *dk_key, *dk_par;
    uint32_t npar, parcap;
    double *pov, *pse;
    unsigned char *pflag;
    uint32_t npflag;        /* how many pflag are set (joint_fit; walk_lean) */
    int use_flow;
    int start_rank;         /* start=rank */
    int start_earliest;     /* start=earliest */
    const unsigned char *start_inner; /* recur_inner's second start: per service, its calls go
                                         to the open candidate that arrived last (joint_recur.c) */
    unsigned char *rank_link; /* per link: the rank start ranked its calls */
    int restart;            /* 0 not tried, 1 tried and rejected, 2 kept */
    /* recur_inner (joint_recur.c): services with a link to themselves;
     * 0 not tried, 1 tried and rejected, 2 kept; the log-likelihoods of
     * the first and the second solutions */
    uint32_t recur_svcs;
    uint32_t recur_cyc; /* recur_cycle (joint_rcycle.c): services marked through a cycle */
    uint32_t lch_links; /* late_chance (joint_lchance.c): links whose corrected share reached 1/2 */
    double *lch_stat;   /* late_chance=2: per link JOINT_LCH_NSTAT values (orphan weight, their
                           mean chance of enclosure, estimated late share; weight < 0: not
                           judged), NULL when it did not run (joint_lchance.c) */
    int recur_state;
    double recur_ll[2];
    double ll_first, ll_second; /* log-likelihoods of the two solutions */
    unsigned char *free_ret; /* pair made without a call id: its return may move */
    double *tickx;          /* tick_fifo: per node p-value, in question, overtaken, used
                               (joint_tickx.c); NULL when it did not run */
    uint32_t tickx_moved, tickx_kept; /* tick_fifo: calls moved, kept (no candidate) */
    uint32_t tickx_links, tickx_links_skipped; /* tick_fifo: links ranked, not */
    unsigned char *fifo_link; /* per link: served in arrival order (joint_fifo.c): its
                                 pairs made by time stay as they are, or NULL */
    double *fifo_svc;       /* per service: callers, returns compared, returns not to
                               the caller of the call of the same rank (joint_fifo.c) */
    double *fifo_stat;      /* per link, 10 each: the three comparisons' statistics
                               (joint_fifo.c) */
    struct joint_rord *rord; /* without call ids: the order of answers per link
                                (joint_order.c), or NULL */
    int pord_hold;          /* this search holds the order of answers (pair_order) */
    int ser_state;          /* parallel_check (joint_serial.c): 0 not run, 1 the search
                               with learned parallel calls kept, 2 the one without */
    uint32_t ser_flags;     /* parallel_check: learned parallel calls of the first search */
    uint32_t ser_shown;     /* parallel_check: of them, shown by the solution without */
    double ser_ll[2];       /* parallel_check: log-likelihoods, learned, without */
    int ser_bb;             /* parallel_check_bb (without call ids; joint_bbserial.c): 0 not
                               run, 1 ran, 2 skipped (every learned one held to
                               the end), 3 decided early (the held search ran
                               without them directly) */
    uint32_t ser_free[2];   /* parallel_check_bb=early: the free search's learned
                               parallel calls, at some refit and at its end */
    double ser_free_ll;     /* parallel_check_bb=early: the free search's
                               log-likelihood */
    uint32_t ser_declined;  /* parallel_check_bb_early declined: how many of the
                               free search's learned calls the held solution
                               without them shows (0: not declined) */
    uint32_t ser_end;       /* parallel_check_bb: learned parallel calls at the kept
                               search's end */
    unsigned char *pever;   /* parallel_check_bb: per parallel-call entry, learned at
                               some refit of this search (joint_bbserial.c) */
    uint32_t npever;        /* entries of pever */
    int pord_chosen;        /* pair_order=auto: 0 one search, 1 free kept, 2 held kept */
    joint_pwin pwin;        /* pair_window: the choice on a window (joint_pwin.c) */
    double pord_ll[4];      /* pair_order=auto: the two solutions' log-likelihoods (free,
                               held), then with the order terms (joint_order_score) */
    double *pord_stat;      /* per link (3 each): answers in question, overtaken, scored;
                               from joint_order_score, or NULL */
    double *pick_stat;      /* busy test (joint_pick.c), per service JOINT_PICK_NSTAT:
                               calls, busy, copies' calls, copies' busy, z, pairs
                               assigned differently, serialising; or NULL */
    unsigned char *hold_link; /* busy_partial: per link, the order held (NULL: all) */
    char *hold_own;         /* busy_partial: s->p.hold_svc's own copy */
    double part_sum[6];     /* busy_partial: ran (1), pairs assigned otherwise than
                               the free search, of them at serialising services,
                               the third search kept (1), requests changed, of
                               them mostly at serialising services
                               (joint_partial.c) */
    double thrmove[4];      /* thread_soft_pick=7 (joint_thrmove.c): 0 not run, 1 T kept,
                               2 S kept; calls moved; misses mended; the ratio used */
    double thrpick[7];      /* thread_soft_pick (joint_thrpick.c): 1 when the choice of
                               search was made without the thread term, then the free and
                               held ll with it; 1 when the search without the term ran
                               beside, the two solutions' ll without the term (with,
                               without), 1 when the one with the term was kept */
    double pick_sum[4];     /* busy test: pairs assigned differently, of them at
                               serialising services, held chosen by it (1), copies
                               drawn (0: JOINT_PICK_SIMS) */
    size_t ret_swaps, resplit_capped, resplit_local;
    size_t est_evals, est_pruned; /* prune: splits estimated, and left out */
    pb_ns *qend;            /* re-pairing: latest possible end of each request, or NULL */
    size_t repaired;
    double *kmean;          /* per density key: expected log density */
    pb_ns *hmax;            /* per link: longest whole request (callee's clock) */        /* returns moved by the re-pairing */
    double *ord_inv, *ord_keep; /* per link: log P(inverted), log P(in order) */
    uint32_t *ord_first;    /* joint_order_ll's scratch: per link, the second list's first
                               call (valid where ord_st2 holds that call's epoch) and
                               whether the first list's was seen (ord_st1 holds it) */
    uint32_t *ord_st1, *ord_st2, ord_ep;
    double *ord_n, *ord_k;  /* per link: pairs of first calls whose order was in
                               question, and how many of them were inverted */
    unsigned char *ord_on;  /* per link: the order term applies (order=auto: the
                               link passed the order test), or NULL (every link) */
    double *ord_p;          /* per link: p-value of the order test and the pairs in
                               question and inversions it saw (3 a link), or NULL */
    double *svc_ord;        /* order=auto, per service: p-value of the response-order
                               test, overlapping request pairs, overtakes (3 each) */
    int order_mode;         /* 0 off, 1 on (every link), 2 auto */
    int order_active;       /* the term is scored (and ord_inv, ord_keep fitted) */
    unsigned char *clean;   /* requests no ambiguous call could belong to */
    int corr_on;            /* score correlated durations of consecutive calls */
    hmap corrmap;           /* (in link, call link, next call link) -> index */
    uint32_t ncorr, *cdir;  /* cdir: direct key table (links^3), or NULL */
    uint32_t *cdir_spare;   /* pairs_share: a dropped cdir, every cell NONE again,
                               for the search's next joint_corr_init (joint_corr.c) */
    int corr_any;           /* some fitted correlation is not zero */
    unsigned char *sure;    /* per pair: paired beyond doubt (joint_corr.c) */
    pb_ns *cdur;            /* per pair: duration whose log10 is in cldur */
    double *cldur;
    double *cst, *cpar;     /* per index: sums (n, x, y, xx, yy, xy); fit (mx, my, 1/sx, 1/sy, rho,
                               -log(1 - rho^2) / 2, 2 (1 - rho^2)) */
    size_t nclean;
    /* learned signals per service (joint_select.c): kein, per in link, the
     * in link whose densities and parallel-call keys it uses (itself when
     * keyed by caller, the service's first in link when pooled over its
     * callers), or NULL (every link keyed); cnt_off0: the call-count
     * offsets before pooling (cnt_off then points pooled links at their
     * representative's cells); pool_nq: per representative, the requests of
     * every link pooled with it; sel: the choices and their held-out gains
     * per service; cnt_off_svc / corr_svc: per service, counts flat (the
     * count term scores 0) / durations scored, or NULL (all as before) */
    uint32_t *kein, *cnt_off0;
    double *pool_nq;
    struct joint_sel *sel;
    unsigned char *cnt_flat, *corr_svc;

    /* confidence (joint_calib.c, joint_selfcal.c): per link 4 statistics
     * each of the held-out shares and of the self-calibration, for the
     * metadata; NULL until joint_confidence */
    double *conf_stat, *scal_stat; /* scal_stat: JOINT_SCAL_NSTAT per link and one
                                      for all links (joint_selfcal.c) */
    double scal_sim;        /* simulated rows the self-calibration fitted */
    size_t scal_escaped;    /* simulated calls that left their request's interval */
    double sloss_p, sloss_d2, sloss_known; /* conf_sim_loss: loss rate per half, sum D^2, known lost halves */
    size_t sloss_dropped;   /* conf_sim_loss: halves the copy lost beyond the known */
    size_t sloss_unexempt;  /* conf_sim_loss: half pairs not right by construction */
    int sloss_sims;         /* conf_sim_loss: copies pooled where it fired */
    size_t anch_turned;     /* conf_anchor: copy rows the scorer's owner rule made wrong */
    size_t anch_roots;      /* conf_anchor: real roots without their call not right by construction */
    double sloss_pid, sloss_known_id; /* conf_sim_loss_ids: rate per half, lost halves, on id links */
    size_t sloss_trees;     /* conf_sim_loss_ids: real roots a doubted row of their tree unexempted */
    double sloss_lc_id, sloss_nid; /* conf_sim_loss_ids: lost calls (of sloss_known_id), pairs, id links */
    double sloss_copy[3];   /* the copies' own estimates summed: lost halves, lost calls, pairs */
    size_t sloss_zone;      /* conf_sim_loss_calls: copy rows left out of the fit */
    int scal_done;
    int scal_whole; /* conf_sim_whole: the calibration's copy was the whole trace */
    double scal_thin[2];    /* conf_sims_auto: real rows judged, rows in a doubted band
                               the first copy has too few rows to test */
    int scal_auto;          /* conf_sims_auto: copies pooled after the test (1 or 2) */
    size_t sblk_keys[3];    /* conf_sim_block: keys tested, passed, outputs drawn in blocks */
    size_t sib_lowered;     /* rows conf_siblings lowered (joint_calib.c) */
    size_t sib_exempt;      /* rows it left alone: right by construction */
    double sib_strength;    /* the cap's strength used, 0 or 1 (joint_sibstr.c) */
    double sib_cov[3];      /* the copy's coverage at 99 % precision without,
                               with the cap (sums over the copies), copies */
    double sib_dreal[3], sib_dsim[3]; /* doubt of the real rows, the copy's:
                                         rows, sum, sum of squares */
    double sib_z;           /* real doubt over the copy's, z */
    double sib_crows[4], sib_cright[4]; /* the copy's held-out rows (without
                               the cap) stated at 0.5, 0.9, 0.99, 0.999 or
                               more, and right among them */
    double sib_rrows[4];    /* the real rows (not right by construction) the
                               map states at those levels or more */
    const char *sib_reason; /* why the strength (joint_sibling_strength) */
    unsigned char *conf_exempt; /* per pair: right by construction (every pair up
                                   to the root one candidate, by call id, no
                                   orphans; joint_selfcal.c), NULL without it */

    /* counters */
    size_t halves_call, halves_ret;
    joint_align_stats align; /* pairing without call ids (joint_align.c) */
    joint_align_rec *align_rec; /* links whose first pairing failed the
                                   nesting test (joint_align.h) */
    size_t nalign_rec;
    size_t calls, returns, others, unmatched_calls, unmatched_returns, repeated;
    size_t ambiguous, nested, flows, flow_failures, largest, moves, swaps, changes;
    int rounds, lpasses;
    /* which messages stay unpaired (joint_unpaired.c): per message, 1 left
     * unpaired, 2 paired first in, first out with the rest of its link,
     * 0 as joint_find_pairs decides; NULL: nothing forced (only while the
     * search is set up).  unp_rec: the links weighed, for the metadata */
    const unsigned char *force_unp;
    joint_unp_rec *unp_rec;
    size_t nunp_rec, unp_changed;
    int unp_rerun;          /* 1: this search ran with the forced messages */
    /* crossed chains undone at a loss (joint_uncross.c): passes run,
     * exchanges kept, calls they moved, nats they gained */
    size_t uncross_rounds, uncross_exchanges, uncross_moved;
    double uncross_gain;
    size_t uncross_scored, uncross_capped; /* moves estimated; pairs the work cap left out */
    /* loss_serial (joint_lserial.c): on (half pairs, call ids), decided at
     * the first fit; per link log(1 - p), log p of an output sent while
     * an earlier call of its request is out; the counts; refits */
    int lser_on, lser_checked;
    int lser_bb; /* bb_serial: the term without call ids (joint_bbser.c) */
    int lser_bbck; /* bb_serial=7: the second inference is the term's (joint_bbser.c) */
    double *lser_lp, *lser_k;
    size_t lser_fits;
    /* loss_serial=3 without loss: per link the busy fractions summed (the
     * serial test's expected overlaps); links tested, priced at the last fit */
    double *lser_p0;
    size_t lser_tested, lser_serial;
    /* loss_serial=7 (joint_lserial.c): the check; 0 not run, 1 without,
     * 2 with; serial links of the first solution; the two solutions'
     * log-likelihoods without the term (without, with) */
    int lser_ck;
    size_t lser_ck_links;
    double lser_ck_ll[2];
    /* loss_serial=8: the check cross-fitted; the gain per half, the z */
    int lser_ck_x;
    double lser_ck_h[2], lser_ck_z;
    /* loss_serial=8's gate (joint_lser_wanted): 0 not decided, 1 the second
     * search ran, 2 skipped; requests holding a stacked call on a serial
     * link, requests with a call on one; the sign test over changed walks
     * (walks, of them likelier under the term's solution, its z) */
    int lser_gate;
    size_t lser_g_stacked, lser_g_req;
    size_t lser_ck_walks, lser_ck_wgain;
    double lser_ck_sz;
    /* loss_serial_win (joint_lserwin.c): the second search windowed; its
     * requests, moves, passes */
    int lsw_on, lsw_passes, lsw_rounds, lsw_cycle;
    size_t lsd_cleared;     /* ls_dirty_solve: solves whose stale marks were cleared */
    size_t ls_later;        /* pairs visited by the re-split passes after the first */
    unsigned char *lsd_old; /* ls_dirty_solve=2: per request, its mark is older than the
                               solve before (cleared at the next solve start) */
    unsigned char *lso_mark; /* ls_open_fresh: per request, changed by the passes of
                                the solve without refits that is running, or NULL */
    int lso_now;             /* ls_open_fresh: such a solve's passes are running */
    size_t lso_skipped;      /* ls_open_fresh: re-splits left out */
    struct joint_lsmg *lsmg; /* ls_margin (joint_lsmargin.c): per pair, the last kept
                                split's margin and fingerprint, or NULL */
    uint32_t lsmg_kind;      /* ls_margin: the kind of solve running (1 refits, 2 not) */
    size_t lsmg_skipped;     /* ls_margin: re-splits left out */
    double lsmg_alt;         /* ls_margin: the branch and bound's largest bound or value
                                of a split other than the current one */
    size_t lsmg_flips;       /* ls_margin, tests: re-splits it would leave out that moved */
    size_t lsw_win, lsw_moves, lsw_calls;
    unsigned char *lsw_only; /* the calls the greedy rounds may move, or NULL */
    /* uncross_check (joint_uxcheck.c): searches after a pass kept and
     * undone; the cross-fitted log-likelihoods before and after, summed */
    size_t uxc_kept, uxc_undone;
    double uxc_ll[2];
    size_t reunp_moved, reunp_capped; /* joint_reunp.c: half calls exchanged; not weighed */
    int reunp_ck;           /* reunp=2 (joint_reunpck.c): 0 not run, 1 without, 2 with */
    size_t reunp_ck_moved;  /* reunp=2: calls reunp exchanged on the copy */
    size_t reunp_ck_cnt[2]; /* reunp=2: copy's requests exact only with / only without */
    double unp_ll[2];       /* log-likelihoods of the first search and of the
                               search with the forced messages (when it ran) */
    struct joint *unp_first; /* unpaired=3: the first search, kept beside the second
                               until joint_init's check (joint_unpck.c) */
    int unpck;              /* unpaired=3 (joint_unpck.c): 0 not run, 1 without, 2 with */
    /* unp_pieces (joint_unppiece.c): ran; pieces, taken, messages; per
     * piece (output solution only) its LLR, size and whether taken */
    int unpp_on;
    uint32_t unpp_n, unpp_taken;
    size_t unpp_msgs;
    double *unpp_llr;
    uint32_t *unpp_size;
    unsigned char *unpp_tk;
    uint64_t *unpp_first;   /* per piece: the id of its first message */
    unsigned char *unpp_tmsg; /* unp_copy_taken: per message, 1 when in a taken piece
                                 (NULL: none taken); held by the output solution */
    unsigned char *unpp_sec; /* per message: in a taken piece, when some pieces but
                                not all are taken (the merge's input), or NULL */
    /* unp_pieces' merge (joint_unpmerge.c): while the merged solution is
     * set up, per message its mate (JOINT_NONE: none) and, for the first
     * message of a pair (its call, else its return), the first message of
     * its parent pair (JOINT_NONE: a root; JOINT_UNPM_SKIP: not a first
     * message); NULL otherwise.  unpm_on: this is the merged solution;
     * unpm_pairs: its pairs from the first search, from the second;
     * unpm_addcand: given parents added as candidates (no candidate of the
     * merged set-up) */
    const uint32_t *unpm_mate, *unpm_par;
    int unpm_on;
    size_t unpm_pairs[2], unpm_addcand;
    /* unp_win (joint_unpwin.c): 1 the second search ran on a window, 2 on
     * the whole trace (window too large); seeds (requests holding a changed
     * message), the window's messages, the second solution's pairs from
     * the first search and from the window's search */
    int unpw_on;
    size_t unpw_seeds, unpw_msgs, unpw_pairs[2];
    int unpck_copy;         /* unpaired=3: 0 the copy did not run (the likelihood said
                               no), 1 it ran */
    size_t unpck_changed;   /* unpaired=3: the copy's links whose choice changed */
    size_t unpck_cnt[2];    /* unpaired=3: copy's requests exact only with / only without */
    struct joint_rpinc *rpi; /* repair_incr (joint_rpinc.c): within the re-pairing rounds */
    size_t rpi_skipped, rpi_flips; /* repair_incr: re-splits left out; (tests) that moved */
    uint32_t *gd_prev[2];   /* greedy_damp (joint_rpdamp.c): parents one, two rounds back */
    size_t gd_n, gd_vetoed; /* greedy_damp: their room; moves refused */
    int gd_it;              /* greedy_damp: the solve's greedy round running */
    int sfast_start;        /* conf_copy_start (joint_simfast.c): 0 the copy ran its own
                               restart test, 1 the rank start alone, 2 start=earliest alone */
    int sfast_restart;      /* the calibration copy's own restart outcome (joint.c's
                               s->restart of the copy: 0 not tried, 1 rejected, 2 kept) */
    double hskip[5];        /* held_skip (joint_heldskip.c): decided, in question,
                               serialising services (-1 untested), skipped, learned
                               parallel calls */
    struct joint_rpchk *gchk; /* greedy_check (joint_rpchk.c): walks kept in a round */
    struct joint_rpcyc *gcyc; /* greedy_cycle (joint_rpcyc.c): the rounds' parents */
    double gd_ll;           /* greedy_damp 3-4: the likelihood as the round began */
    double hloc[7];         /* held_local (joint_heldlocal.c): 0 off, 1 window, 2 whole;
                               seeds, window messages, pairs free / window, reason, in question */
    const uint32_t *hwarm_par; /* held_warm (joint_heldwarm.c): the parents given (per
                               message, as unpm_par), only during the set-up */
    double hwarm[5];        /* held_warm: 0 off, 1 warm, 2 whole; pairs given, parents given,
                               parents set, reason */
    struct joint_rsm *rsmm; /* rs_memo (joint_rsmemo.c): kept re-splits by pair, or NULL */
    size_t rsm_skipped;     /* rs_memo: re-splits left out */
    size_t rsc[10];         /* rs_census (joint_rsmemo.c): re-splits, moved; the same inputs
                               and model, moved; only the model changed, moved; calls read
                               by the first two classes; re-splits of a solve's first pass,
                               moved */
    struct joint_xm *xm;    /* swap_level_memo (joint_xm.c): level values kept, or NULL */
    size_t xm_hits;         /* swap_level_memo: level values taken from it */
    int xm_on;              /* swap_level_memo: within a pass or a scoring (xm kept) */
    int sv_mark, sv_paused; /* sv_lazy (joint_sv.c): the main solve's mark; paused */
    double sv_ll_mid[2];    /* sv_lazy: log-likelihood at the mark (plain, thread term muted) */
    double sv_ll_pre[2];    /* sv_lazy: the free search's at its main solve's first refit */
    int sv_pre_done;        /* sv_lazy: sv_ll_pre taken */
    double sv_rec[10];      /* sv_lazy's record: 0 state (0 none, 1 early, 2 resumed,
                               3 resumed at once), 1 reason, 2 lead, 3 gain, 4 free mid,
                               5 held end, 6 held mid */
    unsigned char *cfa_flag; /* conf_alike (joint_cfalike.c): per pair, alike, or NULL */
    double *cfa_stat;       /* conf_alike: the copy's alike rows and right, per link and
                               all links (2 each), or NULL */
    struct joint_spt *cfa_pts; /* conf_alike=2: the copy's alike rows (stated, right) */
    uint32_t cfa_np, cfa_cap;
    uint32_t *scw_mate, *scw_par; /* conf_copy_warm (joint_scwarm.c): the copy's truth
                               pairs and parents by message, or NULL */
    double scw_rec[4];      /* conf_copy_warm: on a copy 1 given, its pairs given, parents
                               given, parents set; on the real trace their sums over its
                               copies (metadata) */
    size_t unpc_rec[4];     /* unp_copy (joint_unpcopy.c), on the real trace: its copies,
                               those whose unpaired choice changed messages, whose second
                               search ran on a window, whose window was over unp_win_max
                               (metadata) */
    struct joint_lscf *lscf; /* rs_confirm (joint_lsconfirm.c): per pair and kind of solve,
                               the last kept split's fingerprint, value and margin */
    size_t lscf_checked, lscf_left, lscf_flips, lscf_caught; /* rs_confirm: re-splits
                               whose current split was scored alone; left out; (tests)
                               left out but moved when made; made for the drift and moved */
    double *cftw_ps;        /* conf_twin=2: per pair, its pair share (joint_pair_shares), or
                               NULL */
    size_t cftw_rows[2];    /* conf_twin (joint_cftwin.c): answers whose trigger a twin
                               could hold, rows lowered */
    double *flifo;          /* fifo_lifo (joint_fifolifo.c): per link, 4 each: 0 none, 1 kept,
                               2 withdrawn; blocks tighter; the two spreads; or NULL */
    int unpm_partial;       /* conf_copy_warm_pairs (joint_scwarm.c): unpm_mate gives some
                               pairs only; joint_find_pairs pairs the other messages */
    unsigned char *sce_edge; /* conf_copy_margin (joint_scedge.c): per real pair, 1 when its
                               request is next to a cut of the copy's window, or NULL */
    size_t sce_rows;        /* conf_copy_margin: copy rows not counted (metadata) */
    struct joint_cevrow *cev_grp; /* conf_copy_events (joint_cfev.c): per copy row, its link,
                               copy, the root of the request it was put in, right or not */
    size_t cev_n, cev_cap;  /* conf_copy_events: cev_grp's rows, room */
    uint32_t cev_copy, cev_last; /* conf_copy_events: copies seen, last copy row seen + 1 */
    double cev_rec[4];      /* conf_copy_events: copy rows, wrong rows, requests (mode 1:
                               holding a wrong row; 2: per link), the all-links map's m
                               (metadata) */
    size_t cfem_rec[3];     /* conf_empty_twin (joint_cfempty.c): requests found empty against
                               their link, calls capped, rows lowered */
    struct joint *sve_w;    /* sv_early (joint_svearly.c): on the paused free search, the
                               early run made beside it, for init_choose, or NULL */
    double thrho[5];        /* thread_soft_heldout (joint_thrheld.c): 1 run; D in sample,
                               held out; 1 when the term's solution was kept; the rate
                               test's G (thread_soft_mendfirst) */
    double *thrho_link;     /* thread_soft_heldout: per link, T's held-out ll less S's, or NULL */
    unsigned char *unpwh_in; /* unp_where (joint_unpwhere.c): on the whole second search,
                               per message 1 in the default's window, or NULL */
    double unpwh[12];       /* unp_where's record (metadata), [0] 1 when made */
    double cev2_rec[3];     /* conf_copy_events_second (joint_cfev2.c): the result's rows (0:
                               not tested), rows at stake, 1 when a second copy was drawn */
    struct joint_cevrow *cev2_save; /* conf_copy_events_second: the first copy's event rows */
    size_t cev2_n;          /* conf_copy_events_second: cev2_save's rows */
    size_t par_ties;        /* par_tie (joint_partie.c): call pairs of the parallel-call
                               counts left out as tied in one tick */
    const struct joint_unpf *unpf; /* unp_freeze (joint_unpfreeze.c): the frozen pairs
                               and parents given to this search, or NULL */
    unsigned char *unpf_fz; /* unp_freeze: per pair 1 frozen, or NULL */
    size_t unpf_rec[4];     /* unp_freeze: pairs frozen, outside pairs not frozen (paired
                               across the border), parents not among the candidates */
    unsigned char *cev2a_agree; /* conf_copy_events_agree (joint_cfev2agree.c): per link and
                               all links, 1 when the second copy errs no more often, or NULL */
    double cev2a_rec[3];    /* conf_copy_events_agree: links that disagree, rows at stake
                               kept at the first fit's value, rows at stake pooled (metadata) */
    struct joint_spt *cfmu_pts; /* conf_copy_multi (joint_cfmulti.c): the copy's rows in a
                               request holding another call of their link */
    size_t cfmu_n, cfmu_cap; /* conf_copy_multi: cfmu_pts' rows, room */
    double cfmu_rec[3];     /* conf_copy_multi: copy rows, wrong copy rows, real rows lowered */
    double cev2a_sib[14];   /* conf_copy_events_agree=2: the siblings cap's copy record
                               (sib_cov, sib_dsim, sib_crows, sib_cright) after the first copy */
    double *cfmu_ratio;     /* conf_copy_multi=2: per link and all links, the multi rows' own
                               doubt ratio (at least 1), or NULL */
    int svc_r;              /* sv_cut (joint_svcut.c): 1 + the re-pairing round the search
                               paused after (its closed solve and refit), 0 none */
    double svc_ll[2][2];    /* sv_cut: log-likelihood (plain, thread term muted) after the
                               last two rounds' closed solves and refits */
    int svc_n;              /* sv_cut: rounds noted in svc_ll */
    double svc_hist[JOINT_SVC_ROUNDS][2]; /* sv_cut: on the early run made at a cut, its log-likelihood
                               after each round's closed solve and refit (the first
                               JOINT_SVC_ROUNDS) */
    int svc_nh;             /* sv_cut: rounds the early run made */
    double svc_rec[6];      /* sv_cut's record: 1 state (1 kept at the cut, 2 run on), round,
                               lead, gain, free at the cut, free a round before */
    double unpl_rec[6];     /* unp_lite (joint_unplite.c): 1 mode (0: not run), links with
                               unequal calls and returns, messages forced by the cheap
                               first search, 1 when the default's path ran after it */
    int ucert_win;          /* unp_cert=3: the windowed second search's own free / held
                               choice (1 free, 2 held; joint_unpwin.c) */
    double ucert_rec[12];   /* unp_cert (joint_unpcert.c): mode, the first search's verdict
                               and scores, the free search's statistics, kept */
    int simshape_on;        /* conf_sim_shape: set while a calibration copy is made */
    double simshape_rec[4]; /* conf_sim_shape: keys, keys used, draws shaped, plain (last copy) */
    int tsrch;              /* tie_sets_search (joint_tiesearch.c): 1 the start made and
                               judged by tie_sets though tie_test=2 keeps the search; 2 the
                               sets did not refute it, the search put back whole */
    double *cfer_m;         /* conf_ratio_events (joint_cfevratio.c): the events map's m per
                               link and all links, or NULL */
    double *cfer_r;         /* conf_ratio_events: the ratio in those units per link and all
                               links (at most the plain one), or NULL */
    double cfer_rec[4];     /* conf_ratio_events: links eased, rows eased, ratio and plain
                               ratio of all links */
    joint *uwb_other;       /* unp_wboth (joint_unpwboth.c): the first search's other free /
                               held solution, lent for the second search only (not owned) */
    double uwb_rec[4];      /* unp_wboth: 1 ran, the first search's kind, the second's
                               (1 free, 2 held), 1 when the other was paused at its mark */
    size_t lsu_links;       /* loss_serial_under: links the serial test called serial
                               only by the wider bound, at the gate's test */
    double lsu_ratio;       /* ... and the lowest overlap ratio (overlaps / chance's) of them */
    int tkc_rec[3];         /* tie_keep_choice: on, the chosen search held, run again at
                               tie_test=2 */
    double *ltl_pi;         /* late_tie_learn (joint_latelearn.c): per link the learned
                               chance that a tied call is late, or NULL */
    double *ltl_stat;       /* late_tie_learn: per link JOINT_LTL_NSTAT (tied, placed,
                               summed chance, net delay ns, returns, returns crossing) */
    double thrse[4];        /* thread_soft_starts_end (joint_thrsend.c): 0 not run, 1 the
                               solution before kept, 2 the starts' search kept; services
                               weighed by their starts; the starts' search's and the
                               solution before's ll without the term */
    unsigned char *thrse_svc; /* thread_soft_starts_end: the services it weighed (by node;
                               freed by joint_thread_free), or NULL */
    double bbw_rec[8];      /* bb_serial_warm (joint_bbser.c): warm (1), pairs given,
                               parents given, parents set; 2 (joint_bbwin.c): stacks,
                               seeds, window messages, 1 none stacked / 2 over the limit /
                               3 the window searched */
    double *lte_stat;       /* late_ends (joint_lateends.c): per link JOINT_LTE_NSTAT (calls or
                               -1, ends inside, chance's, share, the orphans' share, its se,
                               the network delay on spread rows) */
    unsigned char *uwl_open; /* unp_wlocal (joint_unpwlocal.c): per pair 1 open, or NULL */
    double uwl_rec[6];      /* unp_wlocal: 1 ran, pairs open at the start, at the end, of
                               pairs, re-split pairs skipped, greedy calls skipped */
    int svp_paused, svp_skip; /* sv_pre (joint_svpre.c): paused before the main solve;
                               the main solve's first refit made before the pause */
    double svp_rec[8];      /* sv_pre's record: state (1 loser left paused, 2 both run, 3
                               resumed to sv_lazy's mark), leader (1 free, 2 held), lead,
                               gain, free_pre, held_pre, leader's end */
    double bbs_rec[4];      /* bb_serial_seeds (joint_bbseeds.c): the first solution's
                               requests with a call on a serial link, those holding a
                               stacked call; the stacks left in the term's solution;
                               1 where bb_serial_removed refused it */
    size_t sibu_rec[3];     /* conf_sib_usual (joint_sibusual.c): links with a usual
                               trigger, rows out of that order, rows its term lowered */
    struct joint_cfkrow *cfk_rows; /* conf_kind_map (joint_cfkind.c): the copy rows, their
                               class (link, kind), copy, request and fate */
    size_t cfk_n, cfk_cap;  /* conf_kind_map: cfk_rows' rows, room */
    uint32_t cfk_copy;      /* conf_kind_map: copies seen */
    uint32_t *cfk_root2;    /* conf_kind_map: the current copy's request (root) per pair */
    unsigned char *cfk_kind2; /* conf_kind_map: the current copy's kind per pair */
    struct joint_cfkfit *cfk_fit; /* conf_kind_map: the class maps (joint_cfk_fit) */
    double cfk_rec[3];      /* conf_kind_map: classes with a map, rows lowered, raised */
};
#define JOINT_LTL_NSTAT 6
#define JOINT_LTE_NSTAT 7

/* the shared helpers (joint.c, joint_cand.c, joint_model.c,
 * joint_search.c, joint_repair.c, joint_paths.c): joint_shared.h */
#include "joint_mrow.h" /* hist and logf by range: their accessors */
#include "joint_shared.h"

/* the rules' functions (joint_fifo.c to joint_unpck.c) */
#include "joint_rules.h"

/* conf_ll_keep (joint_llkeep.c; speed only, the same results): the
 * confidence's own walk of every request, rll[0..npairs) (joint_req_walk
 * mode 0's values), kept with the fit count and a hash of the assignment
 * and pairs; joint_llkeep_loglik is joint_loglik, summing the kept values
 * in the same order when nothing changed since (the very same number),
 * else walking.  take: their sum kept (rll stays the caller's); PB_OK
 * or PB_ENOMEM (nothing kept then); free: NULL-safe. */
int joint_llkeep_take(joint *s, const double *rll);
double joint_llkeep_loglik(joint *s);
void joint_llkeep_free(joint *s);
extern int joint_llkeep_hits; /* tests: joint_llkeep_loglik's sums taken from the kept
                                 values */
extern int joint_llkeep_test_nocheck; /* tests: the kept values taken without the check
                                         (wrong on purpose) */
extern int joint_conf_test_wide_wrong; /* tests: conf_wide_skip never walks the wide
                                          chain (wrong on purpose) */

#endif
