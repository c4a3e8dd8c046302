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
#define JOINT_LATE_NSTAT 11    /* late calls: statistics per service */
#define JOINT_LCH_NSTAT 3      /* late_chance=2: statistics per link (joint_lchance.c) */
#define JOINT_LA_ROUNDS 8      /* late calls: at most this many rounds placing the held
                                  orphans, until none moves (joint_lateattach.c) */
#define JOINT_LC_C 3           /* late calls: calls of a link per request counted up to this
                                  (joint_latecount.c) */
#define JOINT_PICK_SIMS 3      /* busy test: copies of the free solution */
#define JOINT_PICK_Z 3.29      /* busy test: a service serialises below -z (one-sided 0.0005) */
#define JOINT_PICK_MIN 20      /* busy test: calls a service needs to be tested */
#define JOINT_PICK_NSTAT 13    /* busy test: statistics per service (7-11: busy_space,
                                  12: busy_reentry withdrew the verdict) */
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
    double *hist, *logf, *kstat;
    double *hraw;           /* per key: the raw histogram and sums of the last fit */
    uint32_t hraw_cap, hraw_valid;
    uint32_t *hlo, *hhi;    /* per key: hist's filled bins lie in [hlo, hhi] (empty when
                               hlo > hhi); hist is zero elsewhere (speed only) */
    uint32_t *rlo, *rhi;    /* per key: the same of hraw's histogram */
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
};

/* ---- shared helpers (the state's files: joint.c, joint_cand.c,
 * joint_model.c, joint_search.c, joint_repair.c, joint_paths.c) ---- */

/* an event time and its pair, sorted by joint_cmp_insort (time, then pair) */
typedef struct insort {
    pb_ns t;
    uint32_t p;
} insort;

/* joint_xcost.c: the re-pairing's exchange passes' response costs kept
 * (speed only): cur[i] the cost of the link's i-th call with its current
 * return; alt[i * JOINT_SWAP_WINDOW + j - i - 1] the cost of exchanging
 * the returns of calls i and j (i < j <= i + JOINT_SWAP_WINDOW), valid
 * while gen[] of it is g.  Zero-initialised; joint_xcost_free frees it */
typedef struct joint_xcost {
    double *cur, *alt;
    uint32_t *gen, g, n, cap;
} joint_xcost;
/* joint_xcost.c: room for a link of nc calls (nc >= 2), every kept
 * exchange voided; cur[0..nc) is the caller's to fill.  PB_OK or
 * PB_ENOMEM (x unchanged but for what was grown) */
int joint_xcost_begin(joint_xcost *x, uint32_t nc);
/* joint_xcost.c: 1 and *alt the kept cost of exchanging calls i < j (j
 * at most JOINT_SWAP_WINDOW after i); 0 when none is kept */
int joint_xcost_get(const joint_xcost *x, uint32_t i, uint32_t j, double *alt);
/* joint_xcost.c: keep alt as the cost of exchanging calls i < j */
void joint_xcost_put(joint_xcost *x, uint32_t i, uint32_t j, double alt);
/* joint_xcost.c: call i's return changed: every kept exchange with it
 * voided (cur[i] is the caller's to update) */
void joint_xcost_changed(joint_xcost *x, uint32_t i);
/* joint_xcost.c: free what x holds and zero it (NULL-safe members) */
void joint_xcost_free(joint_xcost *x);
/* joint_xcost.c: 0; a unit test sets it (a change no longer voids the
 * kept exchanges, on purpose) */
extern int joint_xcost_test_stale;

/* Is request q among call p's candidate parents?  O(candidates of p).
 * Returns 1 or 0. */
static inline int joint_has_cand(const joint *s, uint32_t p, uint32_t q)
{
    for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++)
        if (s->cand[j] == q)
            return 1;
    return 0;
}

/* key k's smoothing bandwidth in bins (n > 0 delays): Silverman's rule
 * on the log-delays' spread (kstat: count, sum, sum of squares), at least
 * bw_min, at most 100; the density fit and fit_fast's range fit share it
 * so both give the same bits */
static inline double joint_key_bandwidth(const joint *s, uint32_t k, double n)
{
    double mean = s->kstat[3 * k + 1] / n;
    double var = s->kstat[3 * k + 2] / n - mean * mean;
    double sd = var > 0 ? sqrt(var) : 0;
    double bwb = 0.9 * sd * pow(n, -0.2) / s->p.bin;
    if (bwb < s->p.bw_min)
        bwb = s->p.bw_min;
    if (bwb > 100)
        bwb = 100;
    return bwb;
}

/* the log density of bins [b0, b1] of a key (hv: its histogram, raw or
 * smoothed, summing to tot; beta: the floor's share; pz, lz: an empty
 * bin's probability and log density) written to lf; returns em plus each
 * bin's p log p added in bin order (the density fit and fit_fast's range
 * fit share it so both give the same bits) */
static inline double joint_density_bins(const joint *s, const double *hv, double tot, double beta,
                                        uint32_t nb, double pz, double lz, size_t b0, size_t b1,
                                        double *lf, double em)
{
    for (size_t b = b0; b <= b1; b++) {
        if (hv[b] == 0) {
            em += pz * lz;
            lf[b] = lz;
            continue;
        }
        double pb = (1 - beta) * (tot > 0 ? hv[b] / tot : 0) + beta / nb;
        /* density of log10 delay per unit: per bin / bin width; the
         * 1/(d ln 10) Jacobian is applied by logf_of (ln 10 dropped: the
         * same for every alternative) */
        double l = log(pb / s->p.bin);
        em += pb * l;
        lf[b] = l;
    }
    return em;
}

static inline uint64_t dkey(uint32_t ein, uint32_t trig, uint32_t outl)
{
    return ((uint64_t)ein << 42) | ((uint64_t)trig << 21) | outl;
}

/* dbin of a delay whose clamped log10 is x (as dbin computes it) */
static inline uint32_t dbin_x(const joint *s, double x)
{
    double b = (x - 1.0) / s->p.bin;
    if (!(b > 0))
        return 0;
    if (b >= (double)(s->nb - 1))
        return s->nb - 1;
    return (uint32_t)b;
}

static inline uint32_t dbin(const joint *s, pb_ns d)
{
    double x = log10((double)d < s->dmin ? s->dmin : (double)d);
    double b = (x - 1.0) / s->p.bin;
    if (!(b > 0))
        return 0;
    if (b >= (double)(s->nb - 1))
        return s->nb - 1;
    return (uint32_t)b;
}

/* dbin from the natural log ld of the clamped delay dd, without a second
 * logarithm: ld / ln 10 differs from log10(dd) by a few units in the last
 * place, so away from a bin edge (by far more than that error) it gives
 * the same bin; near an edge dbin decides.  Same bins as dbin, always. */
static inline uint32_t dbin_ln(const joint *s, pb_ns d, double ld)
{
    if (!(s->ibin > 0))
        return dbin(s, d);
    double b = (ld * 0.43429448190325182765 - 1.0) * s->ibin;
    double eps = 1e-9 * (1.0 + fabs(b)), top = (double)(s->nb - 1);
    if (b < 1.0 - eps)
        return 0; /* bin 0 whether b is just below 1 or below 0 */
    if (b > top + eps)
        return s->nb - 1;
    if (b > top - eps)
        return dbin(s, d);
    uint32_t i = (uint32_t)b;
    double fr = b - (double)i;
    if (fr < eps || 1.0 - fr < eps)
        return dbin(s, d); /* near an edge: the exact rule decides */
    return i;
}

/* A direct-mapped cache of log(delay) and the delay's bin (speed only: the
 * same numbers as computing them): the walks of one request score the same
 * delays again and again. */
#define JOINT_LOGC_BITS 13
typedef struct joint_logc {
    pb_ns d[1u << JOINT_LOGC_BITS];
    double ld[1u << JOINT_LOGC_BITS];
    uint32_t bin[1u << JOINT_LOGC_BITS];
} joint_logc;

/* log density of delay d (ns) for density key k (JOINT_NONE: background) */
static inline __attribute__((always_inline)) double logf_of(const joint *s, uint32_t k, pb_ns d)
{
    joint_logc *c = s->logc;
    if (c) {
        uint32_t h = (uint32_t)(((uint64_t)d * 0x9E3779B97F4A7C15ull) >> (64 - JOINT_LOGC_BITS));
        if (c->d[h] != d) {
            c->d[h] = d;
            c->ld[h] = log((double)d < s->dmin ? s->dmin : (double)d);
            c->bin[h] = dbin_ln(s, d, c->ld[h]);
        }
        if (k == JOINT_NONE)
            return s->bg - c->ld[h];
        return s->logf[(size_t)k * s->nb + c->bin[h]] - c->ld[h];
    }
    double ld = log((double)d < s->dmin ? s->dmin : (double)d);
    if (k == JOINT_NONE)
        return s->bg - ld;
    return s->logf[(size_t)k * s->nb + dbin_ln(s, d, ld)] - ld;
}

/* the earliest time request q may have begun on its own clock: its
 * arrival; a request whose call was lost may have lasted as long as the
 * longest whole one of its link */
static inline pb_ns req_start(const joint *s, uint32_t q)
{
    const jpair *x = &s->pr[q];
    if (x->call == JOINT_NONE && x->ret != JOINT_NONE && s->p.halves)
        return x->rs - s->hmax[x->link];
    return x->cr;
}

/* the latest time request q may end on its own clock: its response; open
 * while returns are re-paired; a request whose response was lost may
 * last as long as the longest whole one of its link */
static inline pb_ns req_end(const joint *s, uint32_t q)
{
    const jpair *x = &s->pr[q];
    if (s->qend)
        return s->qend[q];
    if (x->ret == JOINT_NONE && x->call != JOINT_NONE && s->p.halves)
        return x->cr + s->hmax[x->link];
    return x->rs;
}

/* hash map: the value of key k, or JOINT_NONE */
uint32_t joint_hmap_get(const hmap *h, uint64_t k);

/* the in link whose density keys a request of in link ein uses: ein
 * itself, or its service's representative when the service's callers are
 * pooled (joint_select.c) */
static inline uint32_t joint_kin(const joint *s, uint32_t ein)
{
    return s->kein ? s->kein[ein] : ein;
}

/* the cell of (ein, trig, outl) in the direct tables (trig 0: arrival,
 * 1 + L: return of link L; outl: a link, or nlinks: the response), or
 * SIZE_MAX when there are none or the key is not one of ein's callee */
static inline size_t joint_dk_cell(const joint *s, uint32_t ein, uint32_t trig, uint32_t outl)
{
    if (!s->dk_off)
        return SIZE_MAX;
    ein = joint_kin(s, ein);
    uint32_t b = s->link_dst[ein], no = s->out_off[b + 1] - s->out_off[b], tl, ol;
    if (trig == 0)
        tl = 0;
    else if (s->link_src[trig - 1] == b)
        tl = 1 + s->link_local[trig - 1];
    else
        return SIZE_MAX;
    if (outl == s->nlinks)
        ol = no;
    else if (s->link_src[outl] == b)
        ol = s->link_local[outl];
    else
        return SIZE_MAX;
    return (size_t)s->dk_off[ein] + (size_t)tl * (no + 1) + ol;
}

/* is the return of link L no trigger of output outl in a request of link
 * ein (the two overlap: learned parallel calls)? */
static inline int joint_par_skip(const joint *s, uint32_t ein, uint32_t L, uint32_t outl)
{
    if (!s->npar)
        return 0;
    size_t c = joint_dk_cell(s, ein, 1 + L, outl);
    uint32_t h = c != SIZE_MAX ? s->dk_par[c]
                               : joint_hmap_get(&s->parmap, dkey(joint_kin(s, ein), 1 + L, outl));
    return h != JOINT_NONE && s->pflag[h];
}

/* the direct tables seen from a request of link ein and its output link
 * l (s->nlinks: the response): the request's service b, the columns of a
 * row no1, the row block dbase and l's column ol (JOINT_NONE when l has
 * none, and always without tables or learned parallel calls) */
typedef struct {
    uint32_t b, no1, ol;
    size_t dbase;
} joint_dk_row;

static inline joint_dk_row joint_dk_row_of(const joint *s, uint32_t ein, uint32_t l)
{
    joint_dk_row d = {0, 0, JOINT_NONE, 0};
    if (s->npar && s->dk_off) {
        const uint32_t kin = joint_kin(s, ein);
        d.b = s->link_dst[kin];
        d.no1 = s->out_off[d.b + 1] - s->out_off[d.b] + 1;
        d.dbase = s->dk_off[kin];
        d.ol = l == s->nlinks            ? d.no1 - 1
               : s->link_src[l] == d.b ? s->link_local[l]
                                         : JOINT_NONE;
    }
    return d;
}

/* joint_par_skip(s, ein, L, l) with the cell read from d (joint_dk_row_of
 * (s, ein, l)) when it has one */
static inline int joint_par_skip_row(const joint *s, const joint_dk_row *d, uint32_t ein,
                                     uint32_t L, uint32_t l)
{
    if (d->ol != JOINT_NONE && s->link_src[L] == d->b) {
        uint32_t h = s->dk_par[d->dbase + (size_t)(1 + s->link_local[L]) * d->no1 + d->ol];
        return h != JOINT_NONE && s->pflag[h];
    }
    return joint_par_skip(s, ein, L, l);
}

/* the density key of (ein, trig, outl), or JOINT_NONE */
static inline uint32_t joint_key_get(const joint *s, uint32_t ein, uint32_t trig, uint32_t outl)
{
    size_t c = joint_dk_cell(s, ein, trig, outl);
    return c != SIZE_MAX ? s->dk_key[c]
                         : joint_hmap_get(&s->keymap, dkey(joint_kin(s, ein), trig, outl));
}

/* joint_greedy_cost from joint_greedy_trig's parts under the current
 * densities: the same operations in the same order (the same bits) */
static inline double joint_greedy_tail(const joint *s, uint32_t p, uint32_t q, pb_ns tt,
                                       uint32_t trig, uint32_t cnt)
{
    const jpair *pp = &s->pr[p], *qq = &s->pr[q];
    const uint32_t l = pp->link, ein = qq->link;
    double ec = 0;
    if (pp->call != JOINT_NONE) {
        uint32_t di = joint_key_get(s, ein, trig, l);
        if (qq->call == JOINT_NONE && trig == 0)
            ec = di == JOINT_NONE ? -(s->bg - log(1e6)) : -s->kmean[di];
        else
            ec = -logf_of(s, di, pp->cs - tt);
    }
    size_t base = s->cnt_off[ein] + (size_t)s->link_local[l] * (JOINT_KMAX + 1);
    uint32_t c = cnt + 1 > JOINT_KMAX ? JOINT_KMAX : cnt + 1;
    return ec - (s->cntlp[base + c] - s->cntlp[base + c - 1]);
}

/* qsort comparator of insort: by time, then pair number */
int joint_cmp_insort(const void *x, const void *y);

/* hash map: set key k to v (grows the map).  PB_OK or PB_ENOMEM */
int joint_hmap_put(hmap *h, uint64_t k, uint32_t v);
/* make q (or JOINT_NONE) the parent of call p, updating the kid lists.
 * PB_OK or PB_ENOMEM */
int joint_set_parent(joint *s, uint32_t p, uint32_t q);

/* joint_idle.c.  The nesting test's idle starts (joint_align.h): per
 * service x < nn, on its own clock, the moments its count of open requests
 * (calls it received less answers it sent, never below zero; a call counts
 * before an answer at the same time) fell to zero at an answer it sent.  A
 * call open longer than 4 times the service's 90th percentile of
 * last-in-first-out durations counts as one whose answer was lost and is
 * dropped from the count (no idle start at that moment); an answer that
 * finds no open call (its call was lost) drops the idle starts of the 90th
 * percentile duration before it.  Both only at a service that shows a lost
 * message (an answer without an open call, or a call never answered);
 * elsewhere the plain count.  On PB_OK *idle
 * (ascending per service) and *off (nn + 2 entries; service x's starts are
 * (*idle)[(*off)[x] .. (*off)[x + 1])) are the caller's to free; on
 * PB_ENOMEM whatever of them is not NULL is the caller's to free too. */
int joint_idle_starts(const pb_msg *m, size_t n, uint32_t nn, pb_ns **idle, size_t **off);

/* joint_cand.c.  Pair calls with returns (fills s->pr, s->pair_of_msg);
 * PB_OK or PB_ENOMEM */
int joint_find_pairs(joint *s);
/* the links (caller, callee) of the pairs and the per-service tables;
 * PB_OK, PB_ENOMEM or PB_ERANGE-like failure when there are too many */
int joint_find_links(joint *s);
/* candidate parents of every call (s->cand_off, s->cand) from the current
 * request intervals; PB_OK or PB_ENOMEM */
int joint_find_candidates(joint *s);

/* joint_candends.c: keep kmax of the got candidates c (in the order of
 * open) when the cap cuts: half the latest-started, the rest the
 * earliest-ending of the others; ties at the last place of either end by
 * a window turned by rot (the call's rank).  c[0..kmax) on return, in
 * the order of open.  PB_OK, or PB_ENOMEM (c unchanged). */
int joint_cand_ends(const joint *s, uint32_t *c, size_t got, size_t kmax, size_t rot);

/* joint_model.c.  Walk request q with kids k[0..n): mode 0 sets *ll to its
 * log-likelihood, mode 1 adds its outputs to the densities and counts.
 * PB_OK or PB_ENOMEM */
int joint_req_walk(joint *s, uint32_t q, const uint32_t *k, uint32_t n, int mode,
                   double *ll);
/* A recorded walk (speed only): request q's kid list k[0..n), its sorted
 * returns and the state before each of its steps 0..n (the sum so far, the returns taken,
 * the latest output time seen), for joint_req_walk_resume.  valid: 0
 * until a walk is recorded; a record holds only while the model and the
 * pairs' times stay as they were (the caller drops it when they change) */
typedef struct joint_wrec {
    uint32_t *k, *rp, n, q, cap;
    uint32_t *r, nr;        /* its returns as the walk sorted them */
    double *sum;
    pb_ns *mx;
    double end;             /* the sum after the last step (before the counts and
                               the durations: walk_rest) */
    /* per step: its trigger as (time received, pair) of the return, (INT64_MIN, 0)
     * for the arrival, (INT64_MAX, NONE) for a step without an output; and the
     * least of these over the steps from it to the end (joint_prune.c) */
    pb_ns *tkr, *smr;
    uint32_t *tki, *smi;
    /* the terms after the steps (walk_rest), for the estimates: cp[0..n]
     * the durations term's partial sums (joint_corr_ll_rec), cnt[0..ncnt)
     * the list's calls per outgoing link of the service (cntcap: room) */
    double *cp, ct;         /* ct: the count term's value */
    uint32_t *cnt, ncnt, cntcap;
    uint32_t mask;          /* the re-split's split the list is (when has_mask) */
    int has_mask;
    int valid;
    /* conf_sync (joint_conf.c): with want_term set before the walk, term[i]
     * is the term step i added to the sum (0 when it added none); NULL and
     * unused otherwise (joint_wrec_room grows it only with want_term) */
    double *term;
    double *cterm;          /* ... and cterm[i] the durations term's term at call i */
    int want_term;
} joint_wrec;
/* make room in w for a list of n.  PB_OK or PB_ENOMEM */
int joint_wrec_room(joint_wrec *w, uint32_t n);
/* free w's arrays (NULL-safe on a zeroed record) */
void joint_wrec_free(joint_wrec *w);
/* mode 0 of joint_req_walk, the very same number, resumed from the
 * record ref (of the same request, or NULL) at the first step whose
 * inputs the change of list can touch; the walk is recorded in out (not
 * ref).  PB_OK or PB_ENOMEM */
int joint_req_walk_resume(joint *s, uint32_t q, const uint32_t *k, uint32_t n,
                          const joint_wrec *ref, joint_wrec *out, double *ll);
/* An estimate of mode 0 of joint_req_walk for list k[0..n) of request q
 * from the record ref (valid, of q): the walk resumed as
 * joint_req_walk_resume does, stopped at the first step from which the
 * record's remaining steps are provably the same terms (the same outputs,
 * the same latest output time, and every later trigger of the record a
 * return later than every return of a call in one list and not the
 * other), the record's sum of those steps added; the counts and the
 * durations (walk_rest) from the record's (walk_rest_est: O(calls
 * changed)).  Equal to the exact walk but for
 * the rounding of the sums (a few units in the last place of the terms'
 * magnitudes): for pruning only (joint_prune.c).  *synced: the walk
 * stopped early.  PB_OK or PB_ENOMEM */
int joint_req_walk_estimate(joint *s, uint32_t q, const uint32_t *k, uint32_t n,
                            const joint_wrec *ref, double *est, int *synced);
/* the same, told that k and the record's list agree on their first j0 and
 * their last cs calls (j0 + cs at most either length; fewer than they
 * agree on is right too, only slower).  PB_OK or PB_ENOMEM */
int joint_req_walk_estimate_at(joint *s, uint32_t q, const uint32_t *k, uint32_t n,
                               const joint_wrec *ref, uint32_t j0, uint32_t cs, double *est,
                               int *synced);
/* conf_sync (speed only, the same results; joint_conf.c): mode 0 of
 * joint_req_walk for list k[0..n) of request q, the very same number,
 * from the record ref (valid, of q, recorded with want_term): the walk
 * resumed and stopped where joint_req_walk_estimate stops, the record's
 * remaining terms then added one by one in its order (the same terms the
 * walk would add: see joint_req_walk_estimate), and what follows the
 * steps (counts, durations) computed in full.  Nothing is recorded.
 * *synced: the walk stopped early.  PB_OK or PB_ENOMEM */
int joint_req_walk_synced(joint *s, uint32_t q, const uint32_t *k, uint32_t n,
                          const joint_wrec *ref, double *ll, int *synced);
/* joint_req_walk_synced with the record's list agreeing with k on its
 * first j0 and last cs calls given; same_ids: the two lists are the same
 * calls and only the returns of k[j0] and k[n - 1 - cs] were exchanged
 * (joint_xwalk.c); rbuf (same_ids only, or NULL): a copy of ref->r,
 * used to walk and left as it was.  The same number as joint_req_walk.
 * PB_OK or PB_ENOMEM */
int joint_req_walk_synced_at(joint *s, uint32_t q, const uint32_t *k, uint32_t n,
                             const joint_wrec *ref, uint32_t j0, uint32_t cs, int same_ids,
                             uint32_t *rbuf, double *ll, int *synced);
/* joint_xwalk.c: request q's log-likelihood (joint_req_ll, the same
 * number; -INFINITY when one of its calls is outside its interval, as
 * joint_repair.c's level_value) with the returns of its calls a and b
 * exchanged (already, in s->pr) and nothing else changed since q's record
 * was made, walked from that record (made here, from q as it stood before
 * the exchange, when there is none for q).  *done 0: not done (q has
 * fewer than joint_xwalk_min calls, or a, b are not both q's calls): the
 * caller walks q afresh.  The caller drops the record (joint_xwalk_drop)
 * whenever q changes otherwise.  PB_OK or PB_ENOMEM */
int joint_xwalk_top(joint *s, uint32_t q, uint32_t a, uint32_t b, double *ll, int *done);
/* swap_tail_tree (joint_xtail.c): the sequential sum s0 + term[j] + ...
 * + term[e - 1] of record rf's terms (each added to the running sum in
 * order, rounded to nearest, as the walk adds them), bit for bit; from
 * rf's trees in O(log n) a change of binade once rf has added XT_WARM of
 * its lengths one by one (before: one by one).  x NULL: one by one */
typedef struct joint_xtail joint_xtail;
double joint_xtail_sum(joint_xtail *x, const joint_wrec *rf, uint32_t j, uint32_t e, double s0);
/* a tail summer with no trees (NULL: no memory) */
joint_xtail *joint_xtail_new(void);
/* drop its trees (the record changed) */
void joint_xtail_reset(joint_xtail *x);
/* free it (NULL-safe) */
void joint_xtail_free(joint_xtail *x);
/* tail sums made from trees (metadata swap_tail_sums) */
size_t joint_xtail_used(const joint_xtail *x);
/* the xwalk record's tail summer (joint_xwalk.c; NULL when none) */
joint_xtail *joint_xwalk_tail(joint *s);
/* joint_repair.c: exchange the returns of calls a and b (ret, rs, rr) */
void joint_swap_ret(joint *s, uint32_t a, uint32_t b);
/* drop the record if it is of one of q[0..n) (q NULL: in any case) */
void joint_xwalk_drop(joint *s, const uint32_t *q, uint32_t n);
/* free the record (joint_close) */
void joint_xwalk_free(joint *s);
/* exchanges scored from a record (metadata swap_top_resumed) */
size_t joint_xwalk_used(const joint *s);
/* the least calls a request needs for its record (64; a test hook) */
extern uint32_t joint_xwalk_min;
/* swap_resume (joint_model.c xresume_at): how many exchanges walked from a
 * record resumed later than at their first middle step (a count for the
 * tests; results are the same) */
size_t joint_xwalk_resumed(const joint *s);
/* test hook (joint_model.c): 1, joint_req_walk_synced skips the record's
 * last step term; 2, the durations term's last (joint_corr_ll_sync): a
 * wrong shortcut on purpose; 0 otherwise */
extern int joint_sync_test_drop;
/* walk_lean test hook (joint_model.c walk_is_lean): 1 takes the lean steps
 * whatever the state (a wrong selection), 0 the state's choice */
extern int joint_walk_test_force;
/* may a split whose estimate (joint_req_walk_estimate, summed) is est be
 * left out when only a value above bound matters?  Counts it
 * (joint_search.c) */
int joint_prunable(joint *s, double est, double bound);
/* added to every estimate before pruning (joint_search.c): 0; a unit test
 * sets it to show that a wrong estimate changes results (test hook only) */
extern double joint_prune_test_bias;
/* joint_bnb.c: may the exhaustive re-split of q1, q2 (fixed calls f1, f2,
 * shared calls set[0..m)) go by branch and bound (`resplit_bound`, no
 * durations term on either service, every list in call order)?  1 or 0 */
int joint_bnb_usable(const joint *s, uint32_t q1, uint32_t q2, const uint32_t *f1,
                     uint32_t n1, const uint32_t *f2, uint32_t n2, const uint32_t *set,
                     uint32_t m);
/* joint_bnb.c: val[mask] for every split of the exhaustive re-split: its
 * value (the same number as scoring it afresh), or -INFINITY for a split
 * an upper bound showed below a scored one's (so never chosen: the current
 * split cur counts with its 1e-9 bonus).  PB_OK or PB_ENOMEM */
int joint_bnb_resplit(joint *s, uint32_t q1, uint32_t q2, const uint32_t *f1, uint32_t n1,
                      const uint32_t *f2, uint32_t n2, const uint32_t *set, uint32_t m,
                      uint32_t cur, double *val);
/* joint_bnb.c: free s->bnb (NULL-safe) */
void joint_bnb_free(joint *s);
/* joint_greedy.c: before a greedy round: may the trigger search stop at
 * the first call sent after the call placed (greedy_cut, and every
 * pair's return follows its call) */
void joint_greedy_prep(joint *s);
/* joint_greedy.c: the greedy round's cost of giving call p to request q
 * (edge_cost minus the marginal count term of joint_search.c, the very
 * same number) */
double joint_greedy_cost(const joint *s, uint32_t p, uint32_t q);
/* joint_greedy.c: the parts of joint_greedy_cost that read q's kid list,
 * the pairs' times and the parallel flags but not the densities: the
 * trigger's time *tt and link code *trig (0: the arrival) and the count
 * *cnt of q's other calls on p's link */
void joint_greedy_trig(const joint *s, uint32_t p, uint32_t q, pb_ns *tt, uint32_t *trig,
                       uint32_t *cnt);
/* joint_greedy.c (greedy_cut): per request, the tick of the last change
 * of its kid list by the greedy rounds (NULL: none kept; valid until the
 * next joint_greedy_round_start); in *tick where the current tick is
 * kept (NULL: none), in *solves how many joint_solve_rounds have started */
const uint64_t *joint_greedy_ticks(const joint *s, const uint64_t **tick, uint64_t *solves);
/* joint_tcache.c (greedy_tcache): a greedy round starts, after
 * joint_greedy_round_start (the trigger parts kept from earlier rounds of
 * this joint_solve_rounds stay valid unless the parallel flags, the
 * caller pooling or the call order test changed).  PB_OK or PB_ENOMEM */
int joint_tcache_round_start(joint *s);
/* joint_tcache.c: joint_greedy_cost(s, p, s->cand[j]) (the same bits),
 * the trigger parts taken from the last evaluation of the slot when the
 * request's kid list has not changed since (joint_greedy_moved) */
double joint_tcache_cost(joint *s, uint32_t p, uint32_t j);
/* joint_tcache.c: 0; a unit test sets it (the kept parts used whatever
 * changed since, to show that the comparison can fail) */
extern int joint_tcache_test_stale;
/* joint_tcache.c: free s->tcache (NULL-safe) */
void joint_tcache_free(joint *s);
/* joint_greedy.c: 0; a unit test raises it (the trigger search then stops
 * that much too early) to show the comparison can fail */
extern pb_ns joint_greedy_test_shift;
/* joint_greedy.c: 0; a unit test sets it (every call evaluated under the
 * current model left as it is, whatever changed since) */
extern int joint_greedy_test_stale;
/* joint_greedy.c: a joint_solve_rounds starts (the greedy rounds before
 * it say nothing of its own) */
void joint_greedy_solve_start(joint *s);
/* joint_greedy.c: a greedy round starts; the evaluations of the rounds
 * before are void unless they ran in this joint_solve_rounds under this
 * fit.  PB_OK or PB_ENOMEM */
int joint_greedy_round_start(joint *s);
/* joint_greedy.c: 1 when call p was evaluated (under this model) after
 * the last change of every one of its candidates' kid lists: it would
 * choose as it did (counted in greedy_skipped) */
int joint_greedy_unchanged(joint *s, uint32_t p);
/* joint_greedy.c: call p was evaluated now */
void joint_greedy_evaluated(joint *s, uint32_t p);
/* joint_greedy.c: a call moved from request `from` to `to` (either may be
 * JOINT_NONE) */
void joint_greedy_moved(joint *s, uint32_t from, uint32_t to);
/* joint_greedy.c: free s->gfrz (NULL-safe) */
void joint_greedy_free(joint *s);
/* joint_lsdirty.c (ls_dirty_solve): a solve's re-split passes start
 * (the marks of earlier solves' passes cleared when the option is on) */
void joint_lsdirty_solve_start(joint *s);
/* joint_lsdirty.c: a re-split pass of joint_solve_rounds starts (the
 * test's deliberately wrong variant clears the marks here too) */
void joint_lsdirty_pass_start(joint *s);
/* joint_lsdirty.c: the metadata line (none with the option off); PB_OK or
 * pb_result_meta's error */
int joint_lsdirty_meta(const joint *s, pb_result *res);
/* joint_lsdirty.c: a kept re-split marked requests q1 and q2 */
void joint_lsdirty_marked(joint *s, uint32_t q1, uint32_t q2);
/* joint_lsdirty.c: free s->lsd_old and s->lso_mark (NULL-safe) */
void joint_lsdirty_free(joint *s);
/* joint_lsmargin.c (ls_margin): a fingerprint of what the re-split of q1 and
 * q2 reads of the two requests (their pairs, ends, calls, shared set) */
uint64_t joint_lsmg_fp(const joint *s, uint32_t q1, uint32_t q2, const uint32_t *set,
                       uint32_t m, uint32_t cur, const uint32_t *f1, uint32_t n1,
                       const uint32_t *f2, uint32_t n2);
/* joint_lsmargin.c (ls_margin): 1 when the re-split of q1 and q2 may be left
 * out (same fingerprint and kind of solve as a recorded kept split whose
 * margin is at least ls_margin), else 0 */
int joint_lsmg_skip(joint *s, uint32_t q1, uint32_t q2, uint64_t fp);
/* joint_lsmargin.c (ls_margin): record a kept split's margin (nats) for the
 * pair; PB_OK or PB_ENOMEM */
int joint_lsmg_note(joint *s, uint32_t q1, uint32_t q2, uint64_t fp, double margin);
/* joint_lsmargin.c, for tests only: the re-splits ls_margin would leave out
 * are made anyway and those that move a call counted (lsmg_flips) */
extern int joint_lsmg_test_verify;
/* joint_lsmargin.c: free s->lsmg (NULL-safe) */
void joint_lsmg_free(joint *s);
/* joint_lsmargin.c: the metadata line (only with the option on) */
int joint_lsmg_meta(const joint *s, pb_result *res);
/* joint_lsdirty.c (ls_open_fresh): the re-split passes of a solve start;
 * refit: the solve refits between them.  Without refits (and the option
 * on) the requests its passes change are recorded.  PB_OK, or PB_ENOMEM */
int joint_lsopen_begin(joint *s, int refit);
/* joint_lsdirty.c (ls_open_fresh): 1 when a later pass of a solve without
 * refits may leave out the re-split of q1 and q2 (neither changed by this
 * solve's passes: the first pass found their split under the same model),
 * else 0 */
int joint_lsopen_skip(joint *s, uint32_t q1, uint32_t q2);
/* joint_lsdirty.c (ls_open_fresh): the solve's passes ended */
void joint_lsopen_end(joint *s);
/* joint_lsdirty.c, for tests only: ls_open_fresh's skips in solves that
 * refit between their passes too (wrong: there the refit can change a
 * split) */
extern int joint_lsopen_test_refit;
/* joint_lsdirty.c, for tests only: also clear the marks at every later
 * pass (the later passes then visit nothing) */
extern int joint_lsdirty_test_every_pass;
/* joint_lsmemo.c (resplit_memo): a local search starts (earlier estimates
 * void); PB_ENOMEM or PB_OK */
int joint_lsmemo_begin(joint *s);
/* joint_lsmemo.c: request q's kid list changed */
void joint_lsmemo_touch(joint *s, uint32_t q);
/* joint_lsmemo.c: 1 and *v the estimate of request q without call p made
 * in this local search since q last changed, else 0 */
int joint_lsmemo_get(joint *s, uint32_t q, uint32_t p, double *v);
/* joint_lsmemo.c: keep v as the estimate of request q without call p;
 * PB_ENOMEM or PB_OK */
int joint_lsmemo_put(joint *s, uint32_t q, uint32_t p, double v);
/* joint_lsmemo.c: free s->lsm (NULL-safe) */
void joint_lsmemo_free(joint *s);
/* set bits of x (no libgcc call: the build has no popcnt instruction) */
static inline uint32_t joint_bits32(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

/* bits 0..m-1 of y in reverse order (bit m-1 becomes bit 0), m <= 32:
 * the value of the loop x |= ((y >> (m - 1 - t)) & 1) << t over t < m,
 * by swapping halves (test_joint_wcache.c compares the two) */
static inline uint32_t joint_rev_bits(uint32_t y, uint32_t m)
{
    if (m == 0)
        return 0;
    y = ((y >> 1) & 0x55555555u) | ((y & 0x55555555u) << 1);
    y = ((y >> 2) & 0x33333333u) | ((y & 0x33333333u) << 2);
    y = ((y >> 4) & 0x0f0f0f0fu) | ((y & 0x0f0f0f0fu) << 4);
    y = ((y >> 8) & 0x00ff00ffu) | ((y & 0x00ff00ffu) << 8);
    y = (y >> 16) | (y << 16);
    return y >> (32 - m);
}
/* joint_gsort.c (greedy_sorted): a greedy round starts (earlier entries
 * void; nothing kept or used unless the option and greedy_cut are on);
 * PB_ENOMEM or PB_OK */
int joint_gsort_round_start(joint *s);
/* joint_gsort.c: the greedy round ends (nothing used until the next) */
void joint_gsort_round_end(joint *s);
/* joint_gsort.c: request q's kid list changed */
void joint_gsort_touch(joint *s, uint32_t q);
/* joint_gsort.c: 1 and joint_greedy_trig's parts (the same numbers) from
 * q's sorted returns, in a greedy round when q has at least JOINT_GS_MIN
 * calls; else 0 (outputs untouched) */
int joint_gsort_trig(joint *s, uint32_t p, uint32_t q, pb_ns *tt, uint32_t *trig,
                     uint32_t *cnt);
/* joint_gsort.c: free s->gs (NULL-safe) */
void joint_gsort_free(joint *s);
/* joint_gsort.c: 0; a unit test sets it (one round's sorted returns kept
 * into the next and after changes) */
extern int joint_gsort_test_stale;
/* joint_vcache.c: a local search starts (earlier values void);
 * PB_ENOMEM or PB_OK */
int joint_vcache_begin(joint *s);
/* joint_vcache.c: the local search ends (nothing kept or used until the
 * next begins) */
void joint_vcache_end(joint *s);
/* joint_vcache.c: joint_req_walk(s, q, k, n, 0, ll), its value taken from
 * an earlier walk of q with the same list in this local search when one
 * is kept (the same bits), else walked and kept.  PB_ENOMEM or PB_OK */
int joint_vcache_walk(joint *s, uint32_t q, const uint32_t *k, uint32_t n, double *ll);
/* joint_vcache.c: free s->vc (NULL-safe) */
void joint_vcache_free(joint *s);
/* joint_corr.c (pairs_share): s->cdir given back with only its set cells
 * cleared, kept in s->cdir_spare for the next joint_corr_init of s (the
 * same links, so the same size); with pairs_share=0 freed.  s->cdir NULL
 * after */
void joint_corr_drop_dir(joint *s);
/* joint_corr.c: 0; a unit test sets it (a drop clears the set cells to 0,
 * not NONE, as a wrong clearing would) */
extern int joint_corr_test_fault;
/* joint_bufshare.c (pairs_share): s's vcache, wcache and gsort (what the
 * holder of s->selshare lacks) moved there when s's search is done; NULL
 * selshare or pairs_share=0: nothing */
void joint_bufshare_park(joint *s);
/* joint_bufshare.c: the caches s lacks taken from its selshare's holder
 * (each cache's begin calls it before allocating its own) */
void joint_bufshare_take(joint *s);
/* joint_bufshare.c: the holder h's caches and h freed (NULL-safe) */
void joint_bufshare_release(joint *h);
/* joint_bufshare.c: 0; a unit test sets _on, then counts caches taken
 * and cleared cdir tables reused (joint_corr.c) */
extern int joint_bufshare_test_on;
extern long joint_bufshare_test_taken, joint_bufshare_test_cdir;
/* joint_fitfast.c: the caches' holder slot of c (NULL when c is NULL) */
joint **joint_selshare_park(struct joint_selshare *c);
/* joint_vcache.c: 0; a unit test sets them (off: no value kept; stale:
 * the values of one local search kept into the next, on purpose) */
extern int joint_vcache_test_off, joint_vcache_test_stale;
/* joint_wcache.c (resplit_wcache): a local search starts (earlier records
 * void; nothing kept or used unless the option is on); PB_ENOMEM or PB_OK */
int joint_wcache_begin(joint *s);
/* joint_wcache.c: the local search ends (nothing kept or used until the
 * next begins) */
void joint_wcache_end(joint *s);
/* joint_wcache.c: *hit 1 and out, *ll the record and value of the fresh
 * walk of request q with the list k[0..n) made earlier in this local
 * search, else *hit 0 (out untouched).  PB_ENOMEM or PB_OK */
int joint_wcache_get(joint *s, uint32_t q, const uint32_t *k, uint32_t n, joint_wrec *out,
                     double *ll, int *hit);
/* joint_wcache.c: keep w (a fresh walk of request q, value ll) for this
 * local search, when one runs; PB_ENOMEM or PB_OK */
int joint_wcache_put(joint *s, uint32_t q, const joint_wrec *w, double ll);
/* joint_wcache.c: free s->wc (NULL-safe) */
void joint_wcache_free(joint *s);
/* joint_wcache.c: 0; a unit test sets it (the records of one local search
 * kept into the next, across the refit between them) */
extern int joint_wcache_test_stale;
/* joint_lsmemo.c: 0; a unit test sets it (the kept estimates made wrong
 * by this many nats) */
extern double joint_lsmemo_test_bias;
/* joint_lsmemo.c: 0; a unit test sets it (a change of a kid list no
 * longer voids the kept estimates) */
extern int joint_lsmemo_test_stale;
/* added to every bound (joint_bnb.c): 0; a unit test lowers it to show
 * that a bound below the true values changes results (test hook only) */
extern double joint_bnb_test_bias;
/* joint_bnb.c, for tests only: bnb_row_keep never keeps a row */
extern int joint_bnb_test_rowkeep;
/* swap_floor (joint_xfloor.c): the value the top re-split of an exchange
 * tried at depth D must exceed to matter (best gain so far, the top's
 * value before, the exchanged levels' change xsum, the depth's margin),
 * lowered by JOINT_PRUNE_TOL of the magnitudes; -INFINITY when off or not
 * finite */
double joint_xfloor(const joint *s, double best, double xsum, double before, double margin);
/* joint_xfloor's floor into s->xfloor, s->xfloor_on set when it is finite
 * (the caller clears xfloor_on after the re-split) */
void joint_xfloor_set(joint *s, double best, double xsum, double before, double margin);
/* under a floor, does a re-split of m shared calls go by the pruned (and
 * bounded) path whatever the requests' size (joint_xfloor.c)? */
int joint_xfloor_route(const joint *s, uint32_t m);
/* swap_memo (joint_xfloor.c): within one pass of exchanges, request q's
 * joint_req_ll kept from the first time; begin (PB_OK or PB_ENOMEM),
 * clear (every value), drop (after an exchange is applied), end */
int joint_xmemo_begin(joint *s);
void joint_xmemo_clear(joint *s);
/* The requests an exchange applied up to depth d touches (x[0..d], y[0..d]
 * the requests of its levels, JOINT_NONE left out, and the top two's
 * parents: a request's walk reads its own call and return, its kids and
 * theirs), into out (room for 2d + 4; repeats possible); their count.
 * O(d), not O(requests), so an exchange applied at every try stays
 * linear. */
uint32_t joint_xchg_touched(const joint *s, const uint32_t *x, const uint32_t *y, uint32_t d,
                            uint32_t *out);
/* after an exchange applied: the values of the n requests q[] it touched
 * (joint_xchg_touched) dropped */
void joint_xmemo_drop(joint *s, const uint32_t *q, uint32_t n);
void joint_xmemo_end(joint *s);
double joint_xmemo_ll(joint *s, uint32_t q);
/* tests only: the memo never cleared (stale values on purpose change results) */
extern int joint_xmemo_test_stale;
/* tests only: added to the floor (a floor too high on purpose changes results) */
extern double joint_xfloor_test_bias;
/* test hooks of bnb_step_keys (each step bound leaves out the latest return
 * received by its output) and bnb_count_masks (the calls placed before the
 * first free one not counted): both make bounds wrong on purpose; 0 in use */
extern int joint_bnb_test_keys, joint_bnb_test_masks;
/* the y-th split of m shared calls in the Gray code of the reversed
 * bits: each differs from the one before in one call, most often the
 * latest (bit m - 1), so that walks resumed from the one before resume
 * late */
static inline uint32_t joint_gray_mask(uint32_t y, uint32_t m)
{
    uint32_t g = y ^ (y >> 1), mask = 0;
    for (uint32_t t = 0; t < m; t++)
        mask |= ((g >> t) & 1u) << (m - 1 - t);
    return mask;
}
/* log-likelihood of request q with its current kids */
double joint_req_ll(joint *s, uint32_t q);
/* log-probability of the order of service of two requests' first calls
 * (0 when the order term is off or not in question) */
double joint_order_ll(const joint *cs, uint32_t q1, const uint32_t *k1, uint32_t n1,
                      uint32_t q2, const uint32_t *k2, uint32_t n2);
/* refit densities and counts from the current assignment (requests with
 * only[q] == 0 are skipped when only is not NULL).  PB_OK or PB_ENOMEM */
int joint_fit(joint *s, const unsigned char *only);
/* the order statistics (ord_n, ord_k, ord_inv, ord_keep) of every link from
 * the current assignment.  PB_OK or PB_ENOMEM */
int joint_fit_order(joint *s);

/* joint_search.c.  One reassignment round (greedy or flow); *changed
 * counts the calls that moved.  PB_OK or PB_ENOMEM */
int joint_match_round(joint *s, int *changed);
/* the kids of one side of a re-split (fixed kids fx[0..nf) merged with
 * the shared calls set[0..m) whose bit in mask equals side), sorted by call
 * time into out; returns how many */
uint32_t joint_resplit_list(const joint *s, const uint32_t *fx, uint32_t nf,
                            const uint32_t *set, uint32_t m, uint32_t mask, uint32_t side,
                            uint32_t *out);
/* free the re-split's merged lists (joint_close) */
void joint_resplit_free(joint *s);
/* passes of the exact re-split; *changed counts moves.  PB_OK or PB_ENOMEM */
int joint_local_search(joint *s, int *changed);
/* Steps 2-3 once: up to `iters` reassignment rounds (stopping when nothing
 * moves), then up to `passes` re-split passes (stopping likewise), the
 * model refitted before each when refit is set (else kept frozen).
 * PB_OK or PB_ENOMEM */
int joint_solve_rounds(joint *s, int refit, int passes);
/* joint_rinf.c (repair_inf_skip): the re-pairing's exchange of returns k1
 * (of call c1) and k2 (of c2, the later call of the two), its cost alt =
 * cost(c1, k2) + cost(c2, k1) as repair_pairs adds them, with the first
 * term left out where the second is infinite (the sum is then infinite
 * or NaN, and the exchange rejected either way); rsv / rrv are the
 * link's return times (sent, received).  Reads, never writes, the state */
double joint_rinf_alt(joint *s, uint32_t c1, uint32_t c2, uint32_t k1, uint32_t k2,
                      const pb_ns *rsv, const pb_ns *rrv);
/* 1 when the exchange with cost alt (joint_rinf_alt) is rejected without
 * the order-of-answers term (repair_inf_skip; counted in rinf_skipped) */
int joint_rinf_reject(joint *s, double alt);
/* test hook: > 0 also rejects exchanges whose second cost is above this
 * many nats (an inexact cut, to show the unit test catches one); 0 */
extern double joint_rinf_test_inexact;
/* joint_fit(s, NULL), left out (refit_skip_same, its fit_gen moved on)
 * where the last step was a joint_solve_rounds that ended with a refit and
 * a round or pass that moved nothing, and the refit would take its
 * unchanged path (joint_ff_unchanged): the model is that refit's.  Called
 * after joint_solve_rounds with only read-only steps between (any
 * joint_fit clears rounds_fresh, and so does this).  PB_OK or PB_ENOMEM */
int joint_refit(joint *s);

/* joint_corr.c.  The log-likelihood term of the durations of the
 * consecutive whole calls k[0..n) (sorted by call time) of a request on
 * incoming link ein (0 when the term is off or not fitted) */
double joint_corr_ll(const joint *s, uint32_t ein, const uint32_t *k, uint32_t n);
/* the same number, and cp[0..n]: cp[i] the sum of the terms of the calls
 * before k[i] (a walk record's, joint_req_walk_resume); with ct (not NULL)
 * ct[i] the term added at k[i], 0 when none (conf_sync) */
double joint_corr_ll_rec(const joint *s, uint32_t ein, const uint32_t *k, uint32_t n,
                         double *cp, double *ct);
/* conf_sync: joint_corr_ll of k[0..n), the very same number, from a record
 * of the list rk[0..rn) (its cp and ct: rcp, rct) that agrees with it on
 * its first j0 and its last cs calls */
double joint_corr_ll_sync(const joint *s, uint32_t ein, const uint32_t *k, uint32_t n,
                          uint32_t j0, uint32_t cs, uint32_t rn, const double *rcp,
                          const double *rct);
/* joint_corr_ll of k[0..n), up to the rounding of the sums, from a record
 * of the list rk[0..rn) (its cp: rcp) that agrees with it on its first j0
 * and its last cs calls (j0 + cs <= n, rn): O(calls in between), for the
 * re-split's estimates (joint_req_walk_estimate) */
/* the durations term's term of call b following call a in a request of
 * in link ein (0 when either is not whole or the key has no correlation):
 * the number joint_corr_ll adds for them (joint_bnb.c's bound) */
double joint_corr_term(const joint *s, uint32_t ein, uint32_t a, uint32_t b);
double joint_corr_ll_est(const joint *s, uint32_t ein, const uint32_t *k, uint32_t n,
                         uint32_t j0, uint32_t cs, uint32_t rn, const double *rcp);
/* add those calls' durations to the fit.  PB_OK or PB_ENOMEM */
int joint_corr_add(joint *s, uint32_t q, uint32_t ein, const uint32_t *k, uint32_t n);
/* mark the pairs beyond doubt (s->sure), whose requests the fit uses.
 * PB_OK or PB_ENOMEM */
int joint_corr_init(joint *s);
/* test hook: the durations term on, with a key for every two consecutive
 * whole calls of the current assignment, each correlated by rho (about
 * standardized log durations of mean 5 and deviation 0.5); until the next
 * fit.  PB_OK or PB_ENOMEM */
int joint_corr_force(joint *s, double rho);
/* clear the sums before a refit; fit from the sums after it */
void joint_corr_reset(joint *s);
void joint_corr_finish(joint *s);

/* Test hook (tests only, 0 otherwise): the self-calibration's copy takes
 * the real trace's choice with each service's counts flipped, so that a
 * test can show a wrong choice changes the copy's search. */
extern int joint_select_test_flip;

/* joint_select.c.  Which signals each service obeys, learned from the
 * trace by held-out likelihood (docs/joint/model.md, "Signals chosen per
 * service"): its delay densities and call counts keyed by caller or
 * pooled over its callers, its call counts scored or flat, the durations
 * of its consecutive calls scored or not.  Two folds over the requests
 * beyond doubt; sets s->kein, s->cnt_flat, s->corr_svc.  Runs before the
 * search.  PB_OK or PB_ENOMEM */
int joint_select(joint *s);
/* end of joint_fit: the count term of services whose counts are flat
 * scores 0 */
void joint_select_fit_hook(joint *s);

/* joint_fitfast.c (fit_fast: speed only, the same numbers).  The refit's
 * state for the nkeys keys (call before a refit's densities).  PB_OK or
 * PB_ENOMEM */
typedef struct joint_ff joint_ff;
int joint_ff_begin(joint *s);
/* key k's logf row and kmean from its raw histogram and sums, bit for bit
 * joint_fit's own loop, over the bins the smoothing reaches only; sm the
 * fit's smoothing workspace, y nb doubles of scratch.  PB_OK or
 * PB_EINVAL / PB_ENOMEM (the smoothing's) */
struct joint_smooth;
int joint_ff_density(joint *s, uint32_t k, struct joint_smooth *sm, double *y);
/* free the state (NULL-safe on s->ff) */
void joint_ff_free(joint *s);
/* a refit's start (before its walks; only: its part of the requests, or
 * NULL): joint_ff_begin, and the records made stale when the fit is
 * partial or the model was reset.  PB_OK or PB_ENOMEM */
int joint_ff_fit_start(joint *s, const unsigned char *only);
/* after the refit's pflag (full: a fit of every request): stale records
 * when a learned parallel call changed */
void joint_ff_pflag_seen(joint *s, int full);
/* at a full refit's start, after joint_ff_fit_start: 1 when the last refit
 * was full, in this epoch, recorded every request, with these keys, and
 * every request reads what it read then (nothing a walk adds can differ),
 * else 0 */
int joint_ff_unchanged(joint *s);
/* after a refit's order of service (full: of every request): its rates
 * are those of the assignment its records hold (when the refit recorded
 * every request) */
void joint_ff_order_done(joint *s, int full);
/* in a refit joint_ff_unchanged let skip: 1 when the order rates held
 * were fitted on the same assignment (its last full refit fitted them),
 * so they need not be fitted again */
int joint_ff_order_same(const joint *s);
/* the durations term's sums made again (joint_corr_reset, joint_corr_add
 * of every request as the walks add it), for a refit joint_ff_unchanged
 * let skip its walks.  PB_OK or PB_ENOMEM */
int joint_ff_corr_again(joint *s);
/* request q's part of a full refit: its recorded contributions added
 * again when it reads what it read then, else joint_req_walk (mode 1),
 * recorded.  PB_OK or PB_ENOMEM */
int joint_ff_walk(joint *s, uint32_t q);
/* the recording walk's contribution (kind 0 delay: key a, bin b, log10
 * delay x; 1 parallel count: entry a, overlap b; 2 count cell a) */
void joint_ff_log(joint *s, uint32_t kind, uint32_t a, uint32_t b, double x);
/* test hook (tests/unit/test_joint_fitfast.c): nonzero replays a record
 * of the same epoch and count of calls without comparing what it read:
 * the results must then differ */
extern int joint_ff_test_stale;
/* requests with at least this many calls count their parallel calls by a
 * sweep (joint_model.c par_sweep: O(n log n)) instead of pair by pair
 * (O(n^2)); the same counts.  A test hook: 0 sweeps every request */
extern uint32_t joint_par_sweep_min;
/* effort counters: requests replayed (or found unchanged) and walked by
 * the full refits, refits whose walks were all skipped */
void joint_ff_counts(const joint *s, size_t *replayed, size_t *walked, size_t *skipped);
/* joint_select's choice shared by joint_init's two searches
 * (select_share).  new: an empty holder (NULL: out of memory, nothing is
 * shared); free: NULL-safe. */
typedef struct joint_selshare joint_selshare;
joint_selshare *joint_selshare_new(void);
void joint_selshare_free(joint_selshare *c);
/* key_room (joint_keyroom.c): the per-key room the first search ended
 * with, kept for the later ones (NULL-safe: 0, nothing kept) */
uint32_t joint_selshare_keyroom(const joint_selshare *c);
void joint_selshare_set_keyroom(joint_selshare *c, uint32_t room);
/* joint_keyroom.c (key_room): the per-key arrays (and joint_fit's raw
 * copies) given room for cap keys at once, under fit_fast, when cap is
 * more than they hold; capacities only.  PB_OK or PB_ENOMEM */
int joint_keyroom_reserve(joint *s, uint32_t cap);
/* the room a new search starts with: the real trace's search's for the
 * self-calibration's copy (p.sel_from), else what share keeps (0: none) */
uint32_t joint_keyroom_hint(const joint *s, const joint_selshare *share);
/* joint_pshare.c (pairs_share): joint_find_pairs' result kept by the
 * first search without call ids for a later one of the same trace view
 * and options.  joint_pshare_find: in place of joint_find_pairs(s)
 * (s->pair_of_msg allocated), taking or leaving the pairing in share's
 * slot (share NULL or the option off: joint_find_pairs alone).  PB_OK,
 * PB_ENOMEM or joint_find_pairs' error.  free: NULL-safe */
typedef struct joint_pshare joint_pshare;
int joint_pshare_find(joint *s, joint_selshare *share);
void joint_pshare_free(joint_pshare *c);
/* share's slot for it (NULL when share is NULL) */
joint_pshare **joint_selshare_pairs(joint_selshare *c);
/* test hook (tests/unit/test_joint_keyroom.c): nonzero exchanges two
 * free returns of one link in a pairing taken, as a wrong copy would */
extern int joint_pshare_test_fault;
/* test hook (tests/unit/test_joint_keyroom.c): nonzero fills the room
 * joint_keyroom_reserve gives with 0xff bytes (NaN doubles), so that a
 * row read before it is written shows */
extern int joint_keyroom_test_poison;
/* ll_share (joint_llshare.c): l0[0], l0[1] = joint_loglik of a (the free
 * search) and b (the held one); lo[0], lo[1] their joint_order_score, each
 * from the l0 just computed (ll_share 1) or computed again (0): the same
 * bits.  PB_OK or PB_ENOMEM */
int joint_llshare_scores(joint *a, joint *b, double l0[2], double lo[2]);
/* test hook (tests/unit/test_joint_llshare.c): nonzero scores a from b's
 * log-likelihood, as a value taken from the wrong search would */
extern int joint_llshare_test_wrong;
/* At joint_select's start: h gets the fingerprint of its input (0 when
 * s->selshare is NULL or select_share off); when the holder has a choice
 * of the same fingerprint, s->sel, s->cnt_flat and s->corr_svc get copies
 * (sel_size bytes a service), *dens and *cnts the pooled services
 * (malloc'd, the caller frees them), *fits the joint_fit calls it took:
 * returns 1; 0 when not; -1 out of memory (nothing set). */
int joint_selshare_take(joint *s, size_t sel_size, uint64_t h[2], unsigned char **dens,
                        unsigned char **cnts, uint32_t *fits);
/* At joint_select's end: the holder (if any, and empty) keeps the choice
 * and the fingerprint h taken at the start.  PB_OK (a failed copy keeps
 * nothing) */
int joint_selshare_put(joint *s, size_t sel_size, const uint64_t h[2],
                       const unsigned char *dens, const unsigned char *cnts, uint32_t fits);
/* the requests of in link ein and of every link pooled with it */
double joint_select_link_requests(const joint *s, uint32_t ein);
/* the held-out requests joint_select's choices for service b rested on
 * (0 when it did not test b) */
double joint_select_heldout(const joint *s, uint32_t b);
/* the choices per service into the result metadata (sorted by name) */
void joint_select_meta(const joint *s, pb_result *res);
/* free the selection's state (joint_close) */
void joint_select_free(joint *s);

/* cand_sweep (joint_csweep.c): a max-tree over a service's requests in
 * the order they began, keyed by their ends, for joint_find_candidates */
typedef struct joint_ctree {
    pb_ns *mx;   /* 2 size entries: mx[1] the root, leaves from mx[size] */
    size_t cap;  /* entries allocated */
    uint32_t size;
} joint_ctree;
/* make t empty for n positions (every end absent); PB_OK or PB_ENOMEM */
int joint_csweep_init(joint_ctree *t, uint32_t n);
/* position pos (< the n of init) holds a request ending at end */
void joint_csweep_set(joint_ctree *t, uint32_t pos, pb_ns end);
/* the positions whose end e passes joint_find_candidates' two tests at a
 * call sent at cs and answered at rr (not e + w + lw < cs, and e + w >=
 * rr), in increasing order, into out (room for every position); returns
 * how many */
uint32_t joint_csweep_query(const joint_ctree *t, pb_ns w, pb_ns lw, pb_ns cs, pb_ns rr,
                            uint32_t *out);
void joint_csweep_free(joint_ctree *t);
/* the scan's list length above which a call's candidates come from the
 * tree (tests set it to 0 to use the tree everywhere) */
extern uint32_t joint_csweep_min;
/* tests only: the tree's second test one tick short (must be caught) */
extern int joint_csweep_test_wrong;

/* tests only (joint_model.c, swap_ties): the run r[p1, p2), sorted by
 * (rr, pair) with u's and v's rr exchanged, sorted by the current keys by
 * moving only u and v; *p1p, *p2p the positions touched.  1, or 0 (u or v
 * not where the old keys place them; r may be partly moved) */
int joint_ties_resort_test(const joint *s, uint32_t *r, uint32_t p1, uint32_t p2, uint32_t u,
                           uint32_t v, uint32_t *p1p, uint32_t *p2p);

/* repair_pick (joint_rpick.c): repair_pairs' greedy for one link, the
 * calls C[0..nc) by arrival, the returns' send / receipt times rsv, rrv in
 * order sent: to[call] = the return's index, the very same picks as the
 * scan of every open call (ans: pair_order's answered flags, or NULL).
 * PB_OK or PB_ENOMEM (nothing of s written) */
int joint_rpick_greedy(joint *s, const insort *C, uint32_t nc, const pb_ns *rsv,
                       const pb_ns *rrv, uint32_t *to, unsigned char *ans);

/* cand_group (joint_cgroup.c): calls of one caller in a row with the same
 * send and return receipt share their candidate list while the tree is
 * unchanged; the list is kept once and cut per call (the cut of
 * joint_cand_ends, the same result) */
typedef struct joint_cgroup {
    uint32_t *list;      /* the group's candidates in the order of open */
    size_t n, cap;
    uint32_t *ord, *inv; /* positions by (end, position); inv: position -> index */
    pb_ns *oe;           /* the ends in that order */
    size_t ocap;
    size_t lo, hi;       /* the latest-started half's tie group at its boundary */
    size_t kmax;
    uint32_t a;
    pb_ns cs, rr;
    uint64_t gen;        /* the tree's changes when the list was kept */
    int valid, prepped;
} joint_cgroup;
/* forget the group (its memory kept) */
void joint_cgroup_reset(joint_cgroup *g);
void joint_cgroup_free(joint_cgroup *g);
/* keep c[0..got) (got > kmax) as the group of caller a's calls sent at cs,
 * answered at rr, with the tree at change count gen; PB_OK or PB_ENOMEM */
int joint_cgroup_keep(joint_cgroup *g, const uint32_t *c, size_t got, uint32_t a, pb_ns cs,
                      pb_ns rr, uint64_t gen, size_t kmax);
/* 1 when a call (a, cs, rr) at tree change count gen has the group's list */
int joint_cgroup_hit(const joint_cgroup *g, uint32_t a, pb_ns cs, pb_ns rr, uint64_t gen,
                     size_t kmax);
/* the group's list cut to its kmax for a call of rank rot, into out (room
 * for kmax): what joint_cand_ends gives on the full list; PB_OK or
 * PB_ENOMEM */
int joint_cgroup_cut(const joint *s, joint_cgroup *g, size_t rot, uint32_t *out);

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
