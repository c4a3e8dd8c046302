/*
 * joint_int.h - the state of the joint algorithm, shared by joint.c (set-up
 * and driver), joint_cand.c, joint_model.c, joint_search.c, joint_repair.c
 * and joint_paths.c (the output).  Not a public
 * interface.
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
#define JOINT_LA_ROUNDS 8      /* late calls: at most this many rounds placing the held
                                  orphans, until none moves (joint_lateattach.c) */
#define JOINT_LC_C 3           /* late calls: calls of a link per request counted up to this
                                  (joint_latecount.c) */
#define JOINT_PICK_SIMS 3      /* busy test: copies of the free solution */
#define JOINT_PICK_Z 3.29      /* busy test: a service serialises below -z (one-sided 0.0005) */
#define JOINT_PICK_MIN 20      /* busy test: calls a service needs to be tested */
#define JOINT_PICK_NSTAT 12    /* busy test: statistics per service (7-11: busy_space) */
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

typedef struct jpair {
    pb_ns cs, cr, rs, rr;
    uint32_t call, ret;     /* message indices */
    uint32_t caller, callee, link;
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
    size_t rowtie_dropped;  /* candidates the rows put out */
    int orph_on, orph_refuted; /* joint_tieorph.c: the sign test ran; it refuted the start */
    size_t orph_start_only, orph_search_only; /* calls with a parent in one solution only */
    double orph_p;          /* the sign test's one-sided probability */
    int tset_on, tset_refuted; /* joint_tieset.c: the sign test ran; it refuted the start */
    size_t tset_eps, tset_reqs; /* endpoints with an agreed modal set; their requests */
    size_t tset_start_off, tset_search_off; /* requests off that set in one solution only */
    double tset_p;          /* the sign test's one-sided probability */
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
    struct joint_ff *ff;    /* fit_fast: the refit's fixed costs (joint_fitfast.c), or NULL */
    struct joint_selshare *selshare; /* select_share: joint_select's choice shared by the
                                        two searches (joint_fitfast.c; joint_init owns
                                        it), or NULL */
    int select_shared;      /* this search took the other search's choice */
    int select_real;        /* the self-calibration's copy took the real trace's
                               choice (selfcal_select, joint_select.c) */
    int scal_sel_real;      /* the self-calibration's copies that took it */
    int fflog;              /* fit_fast: the walk running is recorded (joint_ff_log) */
    uint32_t keycap;        /* keys the per-key arrays hold room for */
    size_t bnb_scored, bnb_cut; /* splits the branch and bound scored / left out */
    int xfloor_on;          /* swap_floor: the re-split running is the top of an
                               exchange, only values above xfloor matter
                               (joint_xfloor.c) */
    double xfloor;
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
    double *ps_memo;        /* conf_pair_memo: each request's walk kept while
                               joint_pair_shares runs (NaN: not yet), else NULL */
    struct joint_tcache *tcache; /* greedy_tcache: trigger parts per candidate slot
                                    (joint_tcache.c) */
    struct joint_gsort *gs; /* greedy_sorted: large requests' returns sorted, per greedy
                               round (joint_gsort.c), or NULL */
    size_t greedy_skipped;  /* greedy_cut: calls left as they were (frozen model) */
    size_t tcache_hits;     /* greedy_tcache: slots whose trigger was kept */
    uint32_t *rsbuf, rscap, *dirty, pass_id;
    unsigned char *rl_chg;  /* resolve_local: per request, changed since the last
                               search ended (joint_resolve.c), or NULL: not tracking */
    int rl_only;            /* resolve_local: the next first re-split pass visits only
                               pairs with a changed request */
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
    int use_flow;
    int start_rank;         /* start=rank */
    int start_earliest;     /* start=earliest */
    unsigned char *rank_link; /* per link: the rank start ranked its calls */
    int restart;            /* 0 not tried, 1 tried and rejected, 2 kept */
    double ll_first, ll_second; /* log-likelihoods of the two solutions */
    unsigned char *free_ret; /* pair made without a call id: its return may move */
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
    int scal_done;
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
/* test hook (joint_model.c): 1, joint_req_walk_synced skips the record's
 * last step term; 2, the durations term's last (joint_corr_ll_sync): a
 * wrong shortcut on purpose; 0 otherwise */
extern int joint_sync_test_drop;
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
/* effort counters: requests replayed (or found unchanged) and walked by
 * the full refits, refits whose walks were all skipped */
void joint_ff_counts(const joint *s, size_t *replayed, size_t *walked, size_t *skipped);
/* joint_select's choice shared by joint_init's two searches
 * (select_share).  new: an empty holder (NULL: out of memory, nothing is
 * shared); free: NULL-safe. */
typedef struct joint_selshare joint_selshare;
joint_selshare *joint_selshare_new(void);
void joint_selshare_free(joint_selshare *c);
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

/* joint_fifo.c.  Per link, whether its calls are answered first in,
 * first out, from the times of its pairs made without call ids (the
 * busy-start test; fills s->fifo_link, s->fifo_stat).  PB_OK or PB_ENOMEM */
int joint_fifo_test(joint *s);

/* joint_late.c.  Per service, from the calls without a candidate under
 * the strict test (s->cand_off of the first joint_find_candidates),
 * whether they were sent inside (or just after) the service's requests
 * far more often than chance: fills s->late_gap and s->late_stat.
 * PB_OK or PB_ENOMEM */
int joint_late_test(joint *s);
/* The trigger of the response (sent at t) of a request of service b
 * whose returns, sorted by time received, are r[0..nr): the latest
 * return received by t; at a service that passed the test (gap g), the
 * latest return received by t + g of a call sent by t (the response was
 * stamped before the return it waited for), when that is later.  A call
 * sent after the response never triggers it.  JOINT_NONE: the arrival. */
uint32_t joint_late_resp_trigger(const joint *s, uint32_t b, const uint32_t *r, uint32_t nr,
                                 pb_ns t);
/* joint_latesend.c.  The send gap of a service that passed the late-call
 * test at gap g: among the orphans j < n with stretch sig[j] <= g, the
 * largest send lag lag[j] (how far after the latest end of a request that
 * began before it the call was sent; 0 inside one), rounded up to one of
 * gaps[0..ngaps) (ascending) and at most g; 0 when that lag is 0. */
pb_ns joint_late_send_gap(const pb_ns *lag, const pb_ns *sig, uint32_t n, pb_ns g,
                          const pb_ns *gaps, int ngaps);
/* joint_latesend.c.  Whether a request open when a call was sent (sent
 * at cs, returned at rr) that ends at qe (slack included) is a candidate
 * of the call at a service that passed the late-call test with gap lg and
 * send gap ls; `strict`: the call's candidates under the strict test.
 * Without late_split: qe + lg >= cs.  With it, for an orphan (strict ==
 * 0) or at a service whose return side is relaxed for every call (all):
 * qe + ls >= cs; for another call, a strict candidate (qe >= rr) or one
 * that ended before the send, at most ls before.  1 or 0 */
int joint_late_cand(const joint *s, size_t strict, pb_ns qe, pb_ns cs, pb_ns rr, pb_ns lg,
                    pb_ns ls, int all);
/* joint_latesend.c.  The share of the test's near orphans (near of n,
 * each near a request end by chance with mean probability chance) that
 * chance does not explain: (near - n * chance) / near, 0 when near is 0.
 * At 1/2 or more a near orphan is more likely a late call than chance,
 * and late_split relaxes the return side for every call of the service
 * (all = 1), else only for its orphans. */
double joint_late_excess(double near, double n, double chance);

/* joint_latetie.c.  joint_late_tie_weight: the probability that no request
 * encloses call pair p, for the per-link orphan share (late_lshare): 1
 * without a strict candidate, 0 when one ends strictly after its return;
 * at coarse stamps (s->coarse, late_tie_share) 1 / (k + 1) when all its k
 * candidates end in its return's tick.  Needs the strict candidates. */
double joint_late_tie_weight(const joint *s, uint32_t p);

/* joint_latetie.c.  joint_late_row_sides: which sides of the row order
 * tie_rows may test at service a: 3 where a is not a late service (no
 * late_gap: both, as before); where it passed the late-call test, 0 (not
 * tested) with late_rows off, else 2 (both) where its calls keep only
 * their enclosing requests in the search (its orphans held, no late
 * link) while they are held (s->late_hold), 1 (the calls' side alone)
 * where some call of it is widened or after the held orphans got their
 * candidates.  Pure.  joint_late_row_held: 1 when a is such a service
 * (passed, its orphans held, no late link), else 0.  Pure. */
int joint_late_row_sides(const joint *s, uint32_t a);
int joint_late_row_held(const joint *s, uint32_t a);
/* joint_latetie.c.  joint_late_row_used: tie_rows' verdict at a late
 * service a (st[a].late > 0; the other services' verdicts already in st):
 * 0 where late_rows is off or another service's rows were tested and
 * failed, else its own test on the sides it may use (2 both, 1 the
 * calls' side; 0 where it fails).  Pure. */
int joint_late_row_used(const joint *s, const joint_rowtie_stat *st, uint32_t a);

/* joint_latecount.c.  How many of a request's calls of a link outlive it
 * (return received after its response), given how many it makes, at
 * services that passed the late-call test.  joint_lc_setup: the tables
 * (nothing when late_count is 0 or no service passed), after the
 * late-call test; PB_OK or PB_ENOMEM.  joint_lc_free: frees them.
 * joint_lc_reset: the counts to zero (a refit from scratch), and the
 * log-probabilities when lp (the model reset of joint_select.c).
 * joint_lc_walk: request q with calls k[0..n): mode 0 adds its
 * log-probability to *sum, mode 1 adds it to the counts (and fit_fast's
 * record); PB_OK.  joint_lc_replay: a recorded count cell a (>= lc_base)
 * added again.  joint_lc_fit: the log-probabilities from the counts.
 * joint_lc_meta: one late_count= line per link of a passing service. */
/* joint_lateattach.c.  joint_la_hold: sets s->late_hold when late_attach
 * and late_split are on and a service passed the late-call test with
 * widen=orphans (before the candidates are made again); returns it.
 * joint_la_attach: after the search, the held orphans get their
 * candidates and are placed, each in its best candidate by the gain in
 * likelihood, JOINT_LA_ROUNDS times with a refit before each; clears
 * late_hold.  PB_OK or PB_ENOMEM. */
int joint_la_hold(joint *s);
/* joint_lateattach.c.  A call's send as the trigger of a later output
 * (`late_timer`): at a service of s->la_timer, among the calls k[0..i) of
 * request q (sorted by call time) sent before t, the latest one sent that
 * outlives q (its return after q's response), or JOINT_NONE.  The caller
 * uses it when it was sent after the output's trigger. */
uint32_t joint_la_timer_of(const joint *s, uint32_t q, const uint32_t *k, uint32_t i, pb_ns t);
/* joint_lateattach.c.  May a late call's send trigger an output of
 * request q with the calls k[0..n) or k2[0..n2)?  1 when q's service is
 * one of s->la_timer, q's end is fixed and some call of either list
 * outlives q (returns after its response); else 0 (the walks of both
 * lists take their triggers from returns only). */
int joint_la_timer_may(const joint *s, uint32_t q, const uint32_t *k, uint32_t n,
                       const uint32_t *k2, uint32_t n2);
int joint_la_attach(joint *s);
/* joint_latetrust.c (`late_trust`).  joint_lt_decide: before the output,
 * where held orphans were placed (s->la_post) and the self-calibration
 * runs: the confidences are computed (kept in s->lt_conf), and each
 * placement is undone (the orphan left a root) unless its posterior times
 * the self-calibration's accuracy on its link (the trust in the solution
 * around it) is above 1/2; then the model is refitted.  PB_OK or
 * PB_ENOMEM.  joint_lt_trust: that accuracy for link l (the pooled one
 * where the link has fewer than JOINT_SELFCAL_MIN simulated rows), in
 * [0, 1], or -1 without a self-calibration.  joint_lt_meta: the metadata
 * line.  joint_lt_free: frees la_post and lt_conf. */
int joint_lt_decide(joint *s);
/* joint_lt_keep: 1 when a placement of posterior post is kept under
 * trust t (t < 0: none, kept): post x t above 1/2.  joint_lt_apply: the
 * rule on every placed held orphan (s->la_post not NAN, a parent) with
 * the trust s->lt_trust[] of its link; undone ones become roots, then
 * the model is refitted; counts in lt_kept / lt_undone.  PB_OK or
 * PB_ENOMEM. */
int joint_lt_keep(double post, double t);
int joint_lt_apply(joint *s);
double joint_lt_trust(const joint *s, uint32_t l);
void joint_lt_meta(const joint *s, pb_result *res);
void joint_lt_free(joint *s);
int joint_lc_setup(joint *s);
void joint_lc_free(joint *s);
void joint_lc_reset(joint *s, int lp);
int joint_lc_walk(joint *s, uint32_t q, const uint32_t *k, uint32_t n, int mode, double *sum);
void joint_lc_replay(joint *s, uint32_t a);
void joint_lc_fit(joint *s);
void joint_lc_meta(const joint *s, pb_result *res);

/* joint_oset.c (out_sets): the set of calls a request makes, scored as one
 * signature per incoming endpoint where a held-out test chose it.
 * joint_os_select: the test (after joint_select, on the first assignment);
 * leaves s->os_ein NULL where no endpoint is on; PB_OK or PB_ENOMEM.
 * joint_os_walk: the term of a request of in link ein with counts
 * c[0..no) per outgoing link into *v (mode 1 also counts it, creating
 * its entry, and records it for fit_fast); PB_OK or PB_ENOMEM.
 * joint_os_replay: a recorded entry (>= os_fbase) counted again.
 * joint_os_reset: the counts to zero (a refit from scratch).  joint_os_fit:
 * the log-probabilities from the counts (after the per-link ones).
 * joint_os_meta: the out_sets= lines.  joint_os_free: frees it all. */
int joint_os_select(joint *s);
int joint_os_walk(joint *s, uint32_t ein, const uint32_t *c, uint32_t no, int mode, double *v);
void joint_os_replay(joint *s, uint32_t a);
void joint_os_reset(joint *s);
void joint_os_fit(joint *s);
void joint_os_meta(const joint *s, pb_result *res);
void joint_os_free(joint *s);

/* may the re-pairing and the exchanges move pair p's return?  (made
 * without a call id, on a link not found to serve in arrival order) */
static inline int joint_ret_movable(const joint *s, uint32_t p)
{
    return s->free_ret[p] && !(s->fifo_link && s->fifo_link[s->pr[p].link]);
}

/* joint_conf.c.  share[0..npairs): each call's share of its candidates
 * under the current model (moves, exchanges, chains; orphans by the rule
 * of succession; without call ids times the pair share); 1 for a root.
 * PB_OK or PB_ENOMEM */
int joint_call_shares(joint *s, double *share);
/* the trigger of every call with a parent as the model scores it (trig;
 * JOINT_NONE: its request's arrival) and a near-tied runner-up (trig2, or
 * JOINT_NONE); tmp: room for the largest request's calls */
void joint_conf_triggers(joint *s, uint32_t *trig, uint32_t *trig2, uint32_t *tmp);
/* joint_calib.c.  The confidence's metadata (allowances learned per link
 * and service).  PB_OK or an error of pb_result_meta */
int joint_calib_meta(const joint *s, pb_result *res);
/* joint_selfcal.c.  Lower each row's confidence conf[p] (the product of
 * the shares share[] from its root down) to the fraction right that rows
 * stated like it had on a trace made again from the solution (the same
 * inference run on it, its shares computed by `shares`), scaled by how
 * much more the real trace doubts than that one.  PB_OK or PB_ENOMEM */
int joint_selfcal(joint *s, const double *share, double *conf,
                  int (*shares)(joint *, double *));
/* joint_calib.c (conf_siblings).  Lower each row's confidence conf[p] to
 * the least of its own, its parent's row's, that of the call whose return
 * triggered it (joint_conf_triggers) and that of every call its request
 * makes on the same link, to a fixed point; roots are left as they are;
 * the rows lowered counted in s->sib_lowered.  PB_OK or PB_ENOMEM */
int joint_sibling_cap(joint *s, double *conf);
/* joint_calib.c (conf_order).  The value v a map gives a row stated c,
 * lowered by at most JOINT_CONF_ORDER_STEP so that the rows of one block of
 * the map keep the order of their stated confidences:
 * v - step x g(c), g(c) = 1 - min(1, -log10(1 - c) / 6) (1 at c = 0, 0 at
 * c >= 1 - 1e-6), at least 0 */
#define JOINT_CONF_ORDER_STEP 1e-4
/* conf_order under the siblings cap: a row the cap lowers to v gets
 * v - JOINT_CONF_SIB_STEP x g(c), c its confidence before the cap, so the
 * rows the cap sets to one value keep their own order (a tenth of the map's
 * step: 10 steps at the six decimals the writer prints, so the cap values
 * of one block of the map, up to 1e-4 apart, keep their order) */
#define JOINT_CONF_SIB_STEP 1e-5
double joint_conf_order(double v, double c);
/* joint_sibstr.c (conf_sib_learn).  Whether the siblings cap applies:
 * 0 only when the real and the copy's mean doubt agree (|z| <=
 * JOINT_SIBSTR_Z), the copy vouches for every level the real rows reach
 * (joint_sibstr_vouched) and the cap costs the copy's coverage at
 * JOINT_SIBSTR_PREC precision more than 1 - JOINT_SIBSTR_PREC of its rows;
 * else 1; 1 without conf_sib_learn or without a self-calibration.  Sets
 * s->sib_z and s->sib_reason */
double joint_sibling_strength(joint *s);
#define JOINT_SIBSTR_Z 1.96
/* the copy's part (called by the self-calibration per copy s2, its
 * stated confidences cf2, right rows ok2, rows right by construction
 * ex2): its coverage without and with the cap and the copy's doubt added to
 * s->sib_cov, s->sib_dsim.  PB_OK or PB_ENOMEM */
int joint_sibstr_copy(joint *s, joint *s2, const double *cf2, const double *m2,
                      const unsigned char *ok2, const unsigned char *ex2);
/* the real rows' doubt (conf before the map; exr: rows right by
 * construction, skipped) added to s->sib_dreal */
void joint_sibstr_real(joint *s, const double *conf, const unsigned char *exr);
/* the levels at which the copy must vouch for the real rows: 0.5, 0.9,
 * 0.99, 0.999 */
#define JOINT_SIBSTR_NLEV 4
extern const double joint_sibstr_level[JOINT_SIBSTR_NLEV];
/* rows[k] += the rows not skipped stated c[] >= joint_sibstr_level[k],
 * right[k] (when not NULL) += those of them right (ok[]) */
void joint_sibstr_levels(const double *c, const unsigned char *ok, const unsigned char *skip,
                         uint32_t n, double *rows, double *right);
/* 1 when at every level some real row reaches (real_rows[k] > 0) the
 * lower end of the Wilson interval (joint_sibstr_wilson) of the share
 * right among the copy's rows at that level is at least the level; else 0
 * (few rows cannot vouch: all of n right gives about n / (n + 3.84)) */
int joint_sibstr_vouched(const double *real_rows, const double *copy_rows,
                         const double *copy_right);
/* the lower end of the two-sided 95 % Wilson score interval (z =
 * JOINT_SIBSTR_Z) of right / rows; 0 without rows */
double joint_sibstr_wilson(double right, double rows);
/* one-sided z of mean(real) - mean(sim) from (rows, sum, sum of squares);
 * 0 with fewer than two rows on a side */
double joint_sibstr_z(const double *real, const double *sim);
/* the coverage at precision prec of the rows not skipped (skip NULL:
 * all): the largest share of them that a threshold on c[] keeps (the
 * surest first, rows of one value together) with at least prec of the
 * kept right (ok[]); 0 when no threshold does, 1 when no row is counted;
 * NAN when out of memory */
double joint_sibstr_coverage(const double *c, const unsigned char *ok,
                             const unsigned char *skip, uint32_t n, double prec);
/* the precision at which the copy's coverage is compared (the scorer's
 * coverage_p99) */
#define JOINT_SIBSTR_PREC 0.99
double joint_sibling_shrink(double own, double capped, double lambda);
/* conf[p] = the product of share[] from p's root down to p.  PB_OK or
 * PB_ENOMEM */
int joint_conf_product(const joint *s, const double *share, double *conf);
/* The self-calibration's copy of the trace made from s's solution (its
 * truth known: pair p's call and return get ids 2p + 1 and 2p + 2; delays
 * drawn with seed), into *out (the caller closes it).  PB_OK or
 * PB_ENOMEM */
int joint_selfcal_copy(joint *s, uint32_t seed, pb_trace **out);

/* joint_calibasync.c (conf_sim_async): joint_sim_waits: 1 when the
 * self-calibration's copy sends request q's response no earlier than the
 * return of its call c (the solution's response came after that return,
 * a half of either pair is lost, or conf_sim_async=0), else 0 (c outlives
 * its parent, in the copy as in the solution).  joint_sim_outliving: how
 * many calls of the solution outlive their parent so (0 with
 * conf_sim_async=0). */
int joint_sim_waits(const joint *s, uint32_t q, uint32_t c);
size_t joint_sim_outliving(const joint *s);
/* The parameters a copy of s's trace (made from s's solution) is inferred
 * with: s's own, without confidence, with the real trace's per-service
 * signals (sel_from), its chosen order of answers, no parallel checks
 * (the kept search's own parallel calls) and reunp as reunp=2 chose.
 * Fills *p2; never fails. */
void joint_copy_params(const joint *s, joint_params *p2);
/* joint_pick.c.  Per link of lk[0..np) (pair p on link lk[p], call received
 * cr[p], return sent rs[p], PB_TS_NONE: not whole), calls[l] received and
 * busy[l] of them received while more calls of the link were open than
 * at the least in the win[l] before (0 before its first message; win
 * NULL: ever, so busy means another call open).  From the counts of
 * calls received and returns sent alone: no pairing.  PB_OK or
 * PB_ENOMEM */
int joint_pick_busy(uint32_t nl, const uint32_t *lk, const pb_ns *cr, const pb_ns *rs,
                    uint32_t np, const pb_ns *win, double *calls, double *busy);
/* b busy of n calls against mb of m predicted: (b - n pi) / sqrt(n pi (1 -
 * pi) (1 + n / m)) with pi = mb / m (a two-sample z); 0 when undefined */
double joint_pick_z(double n, double b, double m, double mb);
/* The busy test of the free solution a against copies of it, and the
 * pairs the held solution b assigns differently: *stat (per service
 * JOINT_PICK_NSTAT, the caller frees it), sum[0] pairs assigned
 * differently, sum[1] of them at serialising services, sum[2] the copies
 * drawn beyond JOINT_PICK_SIMS (busy_more), *held whether
 * those are more than half.  On input *held says whether the likelihood
 * keeps b already: only where it does not, services serialising by the
 * spacing of their sends (busy_space, joint_space.c) count too.  PB_OK or
 * PB_ENOMEM */
int joint_pick(joint *a, const joint *b, double **stat, double *sum, int *held);
/* joint_busymore.c.  Does a service with n calls, b of them busy, against
 * mb busy of m calls of the copies, want more copies: tested (n at least
 * JOINT_PICK_MIN), not serialising by joint_pick_z (z >= -JOINT_PICK_Z),
 * serialising were pi = mb / m exact ((b - n pi) / sqrt(n pi (1 - pi)) <
 * -JOINT_PICK_Z), and m below JOINT_PICK_MORE n.  1 or 0 */
int joint_pick_want_more(double n, double b, double m, double mb);
/* joint_partial.c.  With s->p.hold_svc: s->hold_link (the links whose
 * caller or callee is named there) and, with order=on, s->ord_on the
 * same.  PB_OK or PB_ENOMEM */
int joint_partial_setup(joint *s);
/* Is the order held on link l (no hold_svc: every link).  1 or 0 */
int joint_partial_held(const joint *s, uint32_t l);
/* The names (separated by '\n', the caller frees them) of a's services
 * the busy test's pst finds serialising and where the free and held
 * searches differ; NULL when none (or out of memory) */
char *joint_partial_names(const joint *a, const double *pst);
/* joint_subtick.c: row m of a run of k rows in one tick: its offset in
 * the tick (odd ns, increasing, at most tick - 1 where there is room);
 * *prev, the offset of row m - 1 (-1 before the first), is updated.
 * Shared by the whole-trace and the per-service spread (joint_subsvc.c) */
pb_ns joint_subtick_offset(size_t m, size_t k, pb_ns tick, pb_ns *prev);
/* The pairs c assigns otherwise than a, sum[0], of them at services pst
 * finds serialising, sum[1] (as joint_pick counts them); with
 * a->p.busy_partial_vote the requests of a with a changed pair, sum[2],
 * of them those whose changed ends are mostly at serialising services,
 * sum[3] (sum has 4 entries).  1 when the vote keeps c: by the one-sided
 * sign test, over the ends (busy_partial_vote=0, at JOINT_REUNP_ALPHA),
 * the requests (1, at JOINT_REUNP_ALPHA) or either (2, each at half of
 * it); else 0 */
int joint_partial_vote(const joint *a, const joint *c, const double *pst, double *sum);
/* busy_partial= metadata line where the third search ran.  PB_OK or an
 * error of pb_result_meta */
int joint_partial_meta(const joint *s, pb_result *res);
/* busy_test= and busy_service= metadata lines.  PB_OK or an error of
 * pb_result_meta */
int joint_pick_meta(const joint *s, pb_result *res);
/* joint_space.c.  The spacing of the sends of m[0..m) (node v[i] at
 * t[i], sorted by node then time): with set_w, w[x] becomes the
 * JOINT_SPACE_Q quantile of the gaps between node x's consecutive sends (0:
 * not tested: serves[x] 0, fewer than JOINT_PICK_MIN gaps, or the quantile
 * 0); then for every node x with w[x] above 0 its gaps are added to
 * gaps[x], those below w[x] to shortg[x].  PB_OK or PB_ENOMEM */
int joint_space_count(size_t m, const uint32_t *v, const pb_ns *t, const unsigned char *serves,
                      pb_ns *w, int set_w, double *gaps, double *shortg);
/* joint_space_count over the sends (calls made on the caller's clock,
 * returns sent on the callee's) of s's own pairs (t NULL: sets w) or of
 * the copy t made from s (pair p's call and return ids 2p+1, 2p+2).
 * PB_OK or PB_ENOMEM */
int joint_space_of(const joint *s, const pb_trace *t, const unsigned char *serves, pb_ns *w,
                   double *gaps, double *shortg);

/* joint_tick0.c: at whole-tick stamps (s->tick > 20 ns, s->p.tick0) a
 * delay stamped zero ticks scores the fitted mass below one tick per tick
 * (docs/joint/audits.md, "Execution models").  joint_tick0_fix sets bin dbin(0) of
 * key k's log densities lf (smoothed histogram hv summing to tot, read only
 * in [s0, s1] and +0 outside) to that value, the mass at most the observed
 * delays' zero-tick share, and adds the change to that key's expected log
 * density *em; then the whole-tick intervals (joint_tickivl_fix).
 * joint_tick0_reach gives the bins it may write ([lo, hi]; lo > hi: none).
 * joint_tick0_meta writes the tick0= metadata line (nothing when off); PB_OK
 * or the writer's status. */
void joint_tick0_fix(const joint *s, uint32_t k, const double *hv, double tot, double *lf,
                     double *em, size_t s0, size_t s1);
void joint_tick0_reach(const joint *s, size_t *lo, size_t *hi);
int joint_tick0_meta(const joint *s, pb_result *res);
/* joint_tick0_learn marks the pairs whose delays are observed, not chosen:
 * clean (no ambiguous call could be theirs) and paired beyond doubt (by
 * call id, or alone on their link from their call to their return);
 * nothing when off, at fine stamps or without clean requests.  PB_OK or
 * PB_ENOMEM.  joint_tick0_reset clears the counts before a fit's walks;
 * joint_tick0_count adds one delay of pair q with key di in bin bn to them
 * when q is observed; PB_OK or PB_ENOMEM. */
int joint_tick0_learn(joint *s);
/* joint_tick0_setup: the whole-tick intervals' tables (joint_tickivl_setup)
 * before any fit.  PB_OK or PB_ENOMEM */
int joint_tick0_setup(joint *s);
void joint_tick0_reset(joint *s);
int joint_tick0_count(joint *s, uint32_t q, uint32_t di, uint32_t bn);

/* joint_tickivl.c: delays of 1..tiJ whole ticks as the intervals
 * [k, k+1) ticks (docs/joint/audits.md, "Whole-tick delays as intervals").
 * joint_tickivl_setup decides (tick_ivl=auto: coarse ties) and builds the
 * tables; PB_OK or PB_ENOMEM (joint_tickivl_free frees them, NULL-safe).
 * joint_tickivl_add adds one delay of j ticks (1 <= j <= tiJ) to key di's
 * histogram, spread over the bins of its interval.  joint_tickivl_fix sets
 * the bins of 1..tiJ ticks of a key's log densities lf to the interval
 * masses of hv (read in [s0, s1], +0 outside) and adds the change to *em;
 * joint_tickivl_reach: the bins it writes.  joint_tickivl_meta writes the
 * tick_ivl= metadata line; PB_OK or the writer's status. */
int joint_tickivl_setup(joint *s);
void joint_tickivl_free(joint *s);
/* joint_tickivl_gate: tick_ivl=auto at coarse ties, once the observed
 * requests are known (joint_tick0_learn, before the first fit): on when
 * their median duration (s->t0ratio) is at least tick_ivl_from ticks, else
 * the tables are freed */
void joint_tickivl_gate(joint *s);
void joint_tickivl_add(joint *s, uint32_t di, uint32_t j);
void joint_tickivl_fix(const joint *s, const double *hv, double tot, double *lf, double *em,
                       size_t s0, size_t s1);
void joint_tickivl_reach(const joint *s, size_t *lo, size_t *hi);
int joint_tickivl_meta(const joint *s, pb_result *res);

/* joint_quant.c: the tie test at coarse stamps (docs/joint/ticks.md, "The tie test:
 * whole-tick stamps").  joint_quant_snapshot keeps the start's parents
 * and returns when s->quant_on; PB_OK or PB_ENOMEM.  joint_quant_decide counts the
 * calls the search moved and, of them, those moved to a request with the
 * same arrival stamp as their start parent, and puts the start back when
 * those are more than half; PB_OK or PB_ENOMEM.  joint_quant_count is its
 * count over parents start[0..n), now[0..n) with arrival stamps arr
 * (INT64_MIN: none) into *changed and *tied.  joint_quant_meta writes the
 * tie_test= metadata line (nothing when the test is off); PB_OK or the
 * writer's status. */
/* the least log-likelihood gain per moved call for the tie test to keep
 * the search: half the 95 % point of chi-square with one degree of freedom
 * (3.841 / 2), as if each move were a likelihood-ratio test of its own */
#define JOINT_QUANT_GAIN 1.9207
/* the tie test's rule: changed calls moved, tied of them within a tick,
 * log-likelihoods of the start and the search (each refitted): 1 keep the
 * start, 0 the search */
int joint_quant_keep_start(size_t changed, size_t tied, double ll_start, double ll_search);
int joint_quant_snapshot(joint *s);
/* joint_quant.c: called after every refit of the search (joint_search.c);
 * the first one is the start's: its log-likelihood is kept (read only) */
void joint_quant_fitted(joint *s);
int joint_quant_decide(joint *s);
void joint_quant_count(const uint32_t *start, const uint32_t *now, const pb_ns *arr,
                       uint32_t n, pb_ns tick, size_t *changed, size_t *tied);
int joint_quant_meta(const joint *s, pb_result *res);
/* joint_quant.c: when the tie test kept the start (made again), requests rq[0..n) of one
 * service sorted by arrival (joint_cmp_insort) are put, within each run of
 * equal arrival stamps, in the order of their responses (then pair): of
 * two requests that arrived in the same tick, the one answered first is
 * taken to have come first (first come, first served's order).  Nothing
 * when the test is off.  PB_OK or PB_ENOMEM */
int joint_quant_rank_ties(const joint *s, insort *rq, uint32_t n);
/* joint_tiecross.c (tie_cross): joint_tiecross_save, when the tie test keeps the start
 * (before its parents are cleared), records the search's parent of every call it moved
 * to a request whose arrival is more than a tick from the start parent's; PB_OK or
 * PB_ENOMEM.  joint_tiecross_apply, after the start is made again, gives those calls
 * their search parent back (when still a candidate) and refits; PB_OK or PB_ENOMEM.
 * joint_tiecross_meta writes the metadata line when apply ran. */
int joint_tiecross_save(joint *s);
/* joint_tiecross.c: the criterion alone.  For pairs 0..n-1 with start parents start[] and
 * search parents now[] (JOINT_NONE: none), requests' arrivals arr[] (INT64_MIN: none),
 * out[p] = now[p] when the call moved between two requests whose arrivals are more than
 * tick apart, else JOINT_NONE; returns how many such calls. */
/* joint_tiecross.c: keep the put > 0 moves across a tick when they raise the
 * log-likelihood (each under its refit) by more than JOINT_RESTART_MARGIN nats; 1 keep. */
int joint_tiecross_keep(size_t put, double ll_start, double ll_cross);
size_t joint_tiecross_mark(const uint32_t *start, const uint32_t *now, const pb_ns *arr,
                           uint32_t n, pb_ns tick, uint32_t *out);
int joint_tiecross_apply(joint *s);
int joint_tiecross_meta(const joint *s, pb_result *res);
/* joint_tieorph.c (tie_orphans): when the tie test would keep the start, a sign test
 * over the calls that have a parent in only one of start and search; below
 * JOINT_TIEORPH_P (one-sided, more calls without a parent in the start) the start is
 * refuted and the search kept.  joint_tieorph_count counts, over pairs 0..n-1 not
 * skipped (skip may be NULL), calls with no parent in start[] and one in now[]
 * (*start_only) and calls with one in start[] and none in now[] (*search_only).
 * joint_tieorph_p:
 * P(X >= start_only), X ~ Binomial(start_only + search_only, 1/2) (1 when start_only
 * is 0).  joint_tieorph_refutes: start_only > search_only and that p below
 * JOINT_TIEORPH_P.  joint_tieorph_decide (s->qpar set, the search's parents in s->par,
 * s->quant_ll the start's and the search's log-likelihoods): 1 when the start is
 * refuted (the sign test and the search likelier), 0 when not (or tie_orphans off),
 * -1 out of memory.
 * joint_tieorph_meta: the tie_orphans= line when the test ran. */
#define JOINT_TIEORPH_P 0.05
void joint_tieorph_count(const uint32_t *start, const uint32_t *now, const unsigned char *skip,
                         uint32_t n, size_t *start_only, size_t *search_only);
double joint_tieorph_p(size_t start_only, size_t search_only);
int joint_tieorph_refutes(size_t start_only, size_t search_only);
/* joint_tieorph.c: the decision alone: refuted and ll_search > ll_start; 1 keep the
 * search */
int joint_tieorph_keeps_search(size_t start_only, size_t search_only, double ll_start,
                               double ll_search);
int joint_tieorph_decide(joint *s);
int joint_tieorph_meta(const joint *s, pb_result *res);
/* joint_roworph.c (tie_orphans_rows): joint_roworph_applies: 1 when tie_orphans_rows is
 * on and the rows of every service were spread by subtick (found in the order of
 * events; not a partial spread).
 * joint_roworph_refutes: where it applies (applies != 0), joint_tieorph_refutes alone;
 * else joint_tieorph_keeps_search (the sign test and the search likelier).
 * joint_roworph_decided: 1 when the rule applied and refuted a start the search was
 * not likelier than (the decision the rule alone made; the self-calibration's copy
 * runs the rule only then).
 * joint_roworph_meta: the tie_orphans_rows= line where tie_orphans ran and the rule
 * applies. */
/* joint_tieset.c (tie_sets): when the tie test would keep the start and tie_orphans
 * did not refute it, a sign test over requests (pairs with a call and a return in
 * both solutions, use[q] != 0): per incoming link the modal set of calls (counts per
 * outgoing link of the service, calls with a call message) of each solution, used
 * where the two agree and each gives it to more than half of the link's requests.
 * joint_tieset_count: over start[] and now[] (parents), the endpoints used, their
 * requests, those off the mode in the start only (start_off) and in the search only
 * (search_off); PB_OK or PB_ENOMEM.  joint_tieset_decide (s->qpar the start's parents,
 * s->par the search's, start_lost[p] the start lost p's return): 1 when the start
 * is refuted (start_off > search_off, one-sided binomial below JOINT_TIEORPH_P),
 * 0 when not (or tie_sets off), -1 out of memory; records the counts for
 * joint_tieset_meta (the tie_sets= line where the test ran). */
int joint_tieset_count(const joint *s, const uint32_t *start, const uint32_t *now,
                       const unsigned char *use, size_t *used_eps, size_t *reqs,
                       size_t *start_off, size_t *search_off);
int joint_tieset_decide(joint *s, const unsigned char *start_lost);
int joint_tieset_meta(const joint *s, pb_result *res);
int joint_roworph_applies(const joint *s);
int joint_roworph_refutes(int applies, size_t start_only, size_t search_only, double ll_start,
                          double ll_search);
int joint_roworph_decided(const joint *s);
int joint_roworph_meta(const joint *s, pb_result *res);
/* joint_rowtie.c (tie_rows): at coarse stamps, after the candidates are found, per
 * service the test of the row order as the order of events within a tick; where it
 * passes, the candidates the rows put out are dropped.  PB_OK or PB_ENOMEM.
 * joint_rowtie_decide: the criterion alone (cut calls, of them left with none, the
 * allowed share): 1 use the rows.  joint_rowtie_meta: the metadata lines. */
int joint_rowtie_apply(joint *s);
int joint_rowtie_decide(size_t cut, size_t fail, double share);
/* joint_rowtie.c: 1 when the rows are used at service a (their order then ranks its
 * calls tied at send in the start, not their returns: joint.c) */
int joint_rowtie_used(const joint *s, uint32_t a);
int joint_rowtie_meta(const joint *s, pb_result *res);
/* joint_cand.c: cut the candidates c[0..got) of one call (in order of request
 * start) to kmax: with cand_ends both ends (joint_cand_ends), else the kmax
 * latest-started, ties at the edge in a window turned by the call's rank
 * among its caller's calls.  PB_OK or PB_ENOMEM */
int joint_cand_cap(joint *s, uint32_t *c, size_t got, size_t kmax, size_t rank);
/* joint_rowcap.c (tie_rows_wide): how many candidates a call collects before
 * the rows judge them (kmax unless tie_rows may run); joint_rowcap_apply: after
 * the rows, each list cut to kmax (crank: each call's rank for
 * joint_cand_cap).  PB_OK or PB_ENOMEM */
size_t joint_rowcap_wide(const joint *s, size_t kmax);
int joint_rowcap_apply(joint *s, const uint32_t *crank, size_t kmax);
/* joint_tiecall.c: when the tie test kept the start (and tie_calls), the
 * calls in[0..n) of one link in pair order are copied to out[0..n) with
 * each run of equal send stamps put in the order of their returns'
 * receipt (a lost return last; then pair): of two calls sent in the same
 * tick, the one answered first is taken to have been sent first.  Without
 * the kept start a plain copy.  Counts the calls of the runs and the ones
 * that changed place (s->tiecall_*).  PB_OK or PB_ENOMEM.
 * joint_tiecall_applies: whether it reorders anything in s.
 * joint_tiecall_meta: the tie_calls= metadata line (only when it applies);
 * PB_OK or the writer's status. */
int joint_tiecall_applies(const joint *s);
int joint_tiecall_rank(joint *s, const uint32_t *in, uint32_t n, uint32_t *out);
int joint_tiecall_meta(const joint *s, pb_result *res);
/* joint_subtick.c (subtick): at coarse stamps, the order of the rows within a
 * tick checked as the order of events and, where it is, the runs of equal ts
 * spread over the tick in row order (docs/joint/ticks.md, "Positions within a tick").
 * joint_subtick_test counts, over every run of rows with one ts, the links
 * with a return before any open call while a call of the link follows in the
 * run, and the services (that receive calls) sending a call with no request
 * open while a call to them follows in the run, read forwards (fwd) and
 * backwards (bwd), each once per run, per service in svc_fwd / svc_bwd (the
 * callee for links); st zeroed by the caller but tick and mode; PB_OK or
 * PB_ENOMEM (st's arrays then may be partly set: joint_subtick_free).
 * joint_subtick_passes: bwd >= JOINT_SUBTICK_MIN and fwd <= share * bwd.
 * joint_subtick_spread: a copy of msgs[0..n) (*out, the caller frees) with
 * each run of k rows of one ts t at t + (2m + 1) tick / 2k, odd ns, strictly
 * increasing; a recv_ts equal to the ts moves with it, any other stays (the
 * start of its tick).  joint_subtick_prepare: the mode (p->subtick), the
 * tick and the test; *stp (NULL: the stamps are not coarse or subtick=off)
 * and *spread (NULL: not spread).  joint_subtick_meta: the subtick= lines. */
#define JOINT_SUBTICK_MIN 20
typedef struct joint_subtick {
    pb_ns tick;
    int mode;               /* 0 auto, 1 on */
    int spread;             /* the stamps were spread */
    int partial;            /* only the rows of some services were (joint_subsvc.c) */
    size_t runs, fwd, bwd;  /* runs of tied rows; contradictions forwards, backwards */
    uint32_t nnodes;
    size_t *svc_fwd, *svc_bwd;
    /* joint_subsvc.c: each contradiction by the two services whose rows it
     * sets against each other (a << 32 | b, a <= b; dir 1 fwd, 2 bwd) */
    uint64_t *pk;
    unsigned char *pd;
    size_t np, pcap;
    unsigned char *svc_how; /* per node: 0 sends no row, 1 spread (own
                               evidence), 2 spread (pooled), 3 not spread (its
                               own counts), 4 not spread (pooled), 5 not
                               spread (blamed: subtick_blame) */
    size_t *svc_f, *svc_b;  /* per node, against the services kept */
    size_t pool_fwd, pool_bwd; /* over the services kept */
    uint32_t nsend, nspread;   /* services sending rows; whose rows are spread */
    int blame;                 /* subtick_blame (set before joint_subsvc_decide) */
    uint32_t nblamed;          /* services put out by it */
} joint_subtick;
int joint_subtick_test(const pb_trace_view *v, joint_subtick *st);
int joint_subtick_passes(double fwd, double bwd, double share);
int joint_subtick_spread(const pb_msg *msgs, size_t n, pb_ns tick, pb_msg **out);
int joint_subtick_prepare(const pb_trace_view *v, const joint_params *p, joint_subtick **stp,
                          pb_msg **spread);
void joint_subtick_free(joint_subtick *st);
/* joint_subtick_tie_applies: on rows spread by subtick, whether the tie
 * test still judges at the original tick (subtick_tie): 1 where at most
 * half of the calls carry a call id (their returns are paired by the
 * spread positions) or subtick_tie_ids is set (with subtick_tie_links:
 * where some link has at most half of its calls with one); 0 where
 * subtick_tie is off or most calls are paired by id. */
int joint_subtick_tie_applies(const pb_trace_view *v, const joint_params *p);
int joint_subtick_meta(const joint *s, pb_result *res);
/* joint_subsvc.c (subtick per service): which services' rows are the order
 * of events (docs/joint/ticks.md, "Per service").  joint_subsvc_note records
 * one contradiction between the rows of services a and b (UINT32_MAX: a
 * alone) read forwards (dir 1) or backwards (2); PB_OK or PB_ENOMEM.
 * joint_subsvc_decide: the services whose rows are taken in order: the one
 * whose forward contradictions with the services still kept exceed share x
 * max(backward, JOINT_SUBTICK_MIN) by most is put out, again until none
 * does; a service kept with at least JOINT_SUBTICK_MIN backward counts is
 * spread on its own evidence, one with fewer on the pooled counts of the
 * services kept (joint_subtick_passes); sets st->svc_how, svc_f, svc_b,
 * pool_*, nsend, nspread; PB_OK or PB_ENOMEM.
 * joint_subsvc_spread: a copy of msgs[0..n) (*out, the caller frees) where
 * the rows of services spread (svc_how 1 or 2) are spread as
 * joint_subtick_spread spreads them and every other row of a run is sent
 * as late in its tick as the tick allows (after the spread rows, calls
 * before returns) and received as early (its start), sorted again by ts;
 * PB_OK or PB_ENOMEM.  joint_subsvc_meta: the subtick_service= lines. */
int joint_subsvc_note(joint_subtick *st, uint32_t a, uint32_t b, int dir);
int joint_subsvc_decide(joint_subtick *st, const pb_trace_view *v, double share);
int joint_subsvc_spread(const joint_subtick *st, const pb_msg *msgs, size_t n, pb_msg **out);
void joint_subsvc_free(joint_subtick *st);
int joint_subsvc_meta(const joint *s, pb_result *res);
/* joint_subsvc_links_unpaired: the links (caller > callee) of v with at
 * most half of their calls carrying a call id (their returns are paired by
 * the stamps, on spread rows by the spread positions); *nlinks (may be
 * NULL) the links with calls.
 * joint_subsvc_tie_mask: on rows spread by subtick where the tie test runs
 * with call ids on some links and not on others (subtick_tie_links,
 * p.callids, not subtick_tie_ids), *out = a copy of s->par in which every call whose
 * move touches no link paired by the stamps (its own, its start parent's,
 * its parent's) has its start parent, so that the tie test counts only the
 * moves on links paired by position; *out NULL where nothing is masked.
 * PB_OK or PB_ENOMEM. */
size_t joint_subsvc_links_unpaired(const pb_trace_view *v, size_t *nlinks);
int joint_subsvc_tie_mask(const joint *s, uint32_t **out);
/* The self-calibration's monotone map (tests): pool-adjacent-violators
 * over the stated shares c[0..n) and whether each was right (rows of one
 * stated share in one block), each block's value (right + 1) / (rows + 2)
 * made monotone downwards; its blocks (least stated share, value) into
 * lo[], val[] (room for n each); returns how many (0 when out of memory) */
uint32_t joint_pav_map(const double *c, const unsigned char *ok, uint32_t n, double *lo,
                       double *val);
/* the map's value at stated share c: the last block whose least stated
 * share is at most c (the first block below them all; 1 without blocks) */
double joint_pav_at(const double *lo, const double *val, uint32_t b, double c);
/* joint_order.c (docs/joint/search.md, "Order of answers, without call ids").
 * Each link's whole pairs in arrival order on the callee's clock (calls'
 * arrivals never move).  PB_OK or PB_ENOMEM */
typedef struct joint_rord joint_rord;
int joint_rord_init(joint *s);
/* free it (NULL-safe) */
void joint_rord_free(joint *s);
/* per link, the overtaking rate of its consecutive calls from the current
 * pairs ((k + 1) / (n + 2)), and whether the term is scored.  PB_OK */
int joint_rord_fit(joint *s);
/* change of the order term when pairs a and b (one link) exchange returns;
 * rs: every pair's answer time (NULL: the pairs' own rs) */
double joint_rord_swap_delta(const joint *s, uint32_t a, uint32_t b, const pb_ns *rs);
/* joint_order.c: 1 and *lo = the smaller of log rho and log (1 - rho) of
 * the link of a and b when joint_rord_swap_delta(s, a, b, ...) may be
 * nonzero; 0 when it is 0 (no state, one of them not in the link's list,
 * two links, the term off) */
int joint_rord_link_min(const joint *s, uint32_t a, uint32_t b, double *lo);
/* joint_ordbound.c (`order_bound`, speed only, the same results): 1 when
 * a split estimate est is left out below bound without the order of
 * first calls (it is at most 0, so with it too; counted), else 0 */
int joint_ordbound_est_skip(joint *s, double est, double bound);
/* 0; a test hook's shift of the estimate when its order term is left out
 * (a bound wrong on purpose) */
double joint_ordbound_est_shift(void);
/* joint_ordbound.c: 1 when the re-pairing's exchange of the returns of
 * c1 and c2 (response costs alt against cur) cannot be made whatever the
 * change of the order of answers (joint_rord_swap_delta is then not
 * needed: it is 0, or bounded; counted), else 0 */
int joint_ordbound_swap_skip(joint *s, uint32_t c1, uint32_t c2, double alt, double cur);
/* test hooks (joint_ordbound.c), 0: above 0 estimates are left out up to
 * that many nats above the bound and shifted down by it; nonzero
 * (noswap) exchanges are skipped with the bound of the order of answers'
 * change taken with the wrong sign (each a shortcut made wrong on
 * purpose) */
extern double joint_ordbound_test_slack;
extern int joint_ordbound_test_noswap;
/* re-pairing's greedy: the order term of giving call c the return sent at
 * t, its link's movable neighbours answered[] or not yet */
double joint_rord_pick(const joint *s, uint32_t c, pb_ns t, const unsigned char *answered);
/* the whole order term of the current pairs */
double joint_rord_ll(const joint *s);
/* link l's answers when the solution was scored (joint_order_score), else
 * the last fit: consecutive pairs in question, overtaken, scored */
void joint_rord_stats(const joint *s, uint32_t l, double *n, double *k, int *on);
/* joint_serial.c (`parallel_check`): the number of learned parallel
 * calls (pflag set) of the current fit */
uint32_t joint_serial_flags(const joint *s);
/* joint_serial.c: which of a (the search as it was, with learned
 * parallel calls) and b (the same search with parallel=1) to keep, in
 * *keep: b when none of a's learned parallel calls passes a's test on b's
 * solution and b's log-likelihood beats a's by more than
 * JOINT_RESTART_MARGIN, else a; records the choice in the one kept (the
 * caller closes the other).  PB_OK or PB_ENOMEM */
int joint_serial_pick(joint *a, joint *b, joint **keep);
/* joint_serial.c: joint_serial_pick with the parallel calls to test given
 * (flag, one byte per entry of a's parallel-call map, a->npar of them) */
int joint_serial_pick_by(joint *a, joint *b, const unsigned char *flag, joint **keep);
/* joint_serial.c: the metadata line parallel_check= (when it ran).
 * PB_OK or an error of pb_result_meta */
int joint_serial_meta(const joint *s, pb_result *res);
/* joint_bbserial.c (`parallel_check_bb`): does the kept search without
 * call ids call for a search without learned parallel calls (the option
 * on, parallel < 1, at least one learned parallel call)? */
int joint_bbserial_wanted(joint *s);
/* joint_bbserial.c: joint_serial_pick for the black box (a the kept
 * search, b the same kind of search with parallel=1); the free/held
 * record of a goes with the one kept.  PB_OK or PB_ENOMEM */
int joint_bbserial_pick(joint *a, joint *b, joint **keep);
/* joint_bbserial.c: after a refit, remember which parallel calls were
 * learned (pever).  PB_OK or PB_ENOMEM */
int joint_bbserial_note(joint *s);
/* joint_bbserial.c: the metadata line parallel_check_bb= (when it ran).
 * PB_OK or an error of pb_result_meta */
int joint_bbserial_meta(const joint *s, pb_result *res);
/* joint_serial.c: how many of a's parallel calls marked in flag (a->npar
 * bytes) the solution of b shows (the learning test of joint_fit on b's
 * pairs); -1 out of memory */
long joint_serial_shown(const joint *a, const unsigned char *flag, const joint *b);
/* joint_bbserial.c (`parallel_check_bb_early`): should the held search run
 * without learned parallel calls directly (a the free search: it dropped
 * a parallel call it learned at some refit)? */
int joint_bbserial_early(const joint *a);
/* joint_bbserial.c: a the free search, w the held search run with
 * parallel=1 (joint_bbserial_early): is w the held search to use?  1 when
 * w's solution shows none of a's learned parallel calls (the record goes
 * into w), 0 when it shows one (the held search runs as before, w is its
 * check; *shown gets how many), -1 out of memory */
int joint_bbserial_early_take(joint *a, joint *w, uint32_t *shown);
/* joint_bbserial.c: the metadata line parallel_check_bb_early=declined
 * (when it was).  PB_OK or an error of pb_result_meta */
int joint_bbserial_declined_meta(const joint *s, pb_result *res);
/* joint_bbserial.c: how many parallel calls were learned at some refit */
uint32_t joint_bbserial_ever(const joint *s);
/* does some pair have a return made without a call id? */
int joint_any_free(const joint *s);
/* *ll: the solution's log-likelihood under the model with the order
 * terms: joint_loglik plus, per link, the order of its first calls
 * (ord_n, ord_k of joint_fit_order) and of its answers, each a Bernoulli
 * with its rate (k + 1) / (n + 2) fitted on this solution; keeps the
 * answers' statistics per link (pord_stat).  PB_OK or PB_ENOMEM */
int joint_order_score(joint *s, double *ll);

/* joint_repair.c.  share[0..npairs): for each pair made without a call
 * id, 1 / (1 + sum over the exchanges of its return with an overlapping
 * call's of the link (the exchanges upwards, try_exchange, evaluated and
 * undone) of exp(gain)); 1 for the others.  PB_OK or PB_ENOMEM */
int joint_pair_shares(joint *s, double *share);
/* test hook (joint_repair.c): when set, conf_pair_memo's kept walks are
 * also used for a request whose returns an exchange has swapped (a wrong
 * shortcut on purpose); 0 otherwise */
extern int joint_psmemo_test_wrong;
/* One pass of return exchanges; *swaps counts them.
 * PB_OK or PB_ENOMEM */
int joint_swap_pass(joint *s, size_t *swaps);
/* recompute candidates after pairs or ends changed.  PB_OK or PB_ENOMEM */
int joint_recandidate(joint *s);
/* the re-pairing rounds without call ids (step 4).  PB_OK or PB_ENOMEM */
int joint_repair_rounds(joint *s);

/* joint_unpaired.c.  After a search without call ids: per link that lost
 * messages, was paired without call ids and is re-paired, the min-cost
 * pairing of its calls and returns (durations under the histogram of its
 * current pairs, a price per unpaired message from the loss rate).  *force:
 * per message 1 (unpaired) or 2 (the rest of a changed link), allocated,
 * or NULL when no link changed; *recs (allocated) / *nrecs: every link
 * weighed; *changed: links whose unpaired messages changed.  PB_OK or
 * PB_ENOMEM */
/* One link: calls at ct[0..nc), returns at rt[0..nr), both ascending on
 * the callee's clock; cur[j]: the call return j is paired with now, or
 * JOINT_NONE.  The pairing of least cost, where a pair costs -log p(its
 * duration) under the histogram of the current pairs' durations (the
 * alignment's bins and smoothing) and an unpaired message `price`
 * nats; a return may pair with one of the last calls
 * before it (a window as the alignment's) or up to `early` after it, or
 * with its current call.  un_c / un_r: 1 for each message it leaves
 * unpaired; *before / *after: the costs of the current and of that
 * pairing, nats.  PB_OK, PB_ENOMEM, or PB_ERANGE when the flow failed. */
int joint_unpaired_link(const pb_ns *ct, uint32_t nc, const pb_ns *rt, uint32_t nr,
                        const uint32_t *cur, pb_ns early, double price, unsigned char *un_c,
                        unsigned char *un_r, double *before, double *after);
int joint_unpaired_choose(const joint *s, unsigned char **force, joint_unp_rec **recs,
                          size_t *nrecs, size_t *changed);

/* joint_uncross.c.  When the trace lost messages (half pairs), after the
 * search: for every request a half pair touches and every request
 * competing with it for a call, the tail and head exchanges of their
 * calls (all calls sent from, or before, one moment change request) are
 * scored, and the best that gains more than uncross_min nats is kept; the
 * search runs again after a pass that changed something.  Nothing
 * without half pairs or with uncross=0.  PB_OK or PB_ENOMEM */
int joint_uncross(joint *s);
/* joint_lserial.c (loss_serial).  joint_lser_fit: at each refit (before
 * anything else of joint_fit), the rate per link of outputs sent while an
 * earlier call of their request is out, over the requests walked (only:
 * as joint_fit's); decides at its first call whether the term is used
 * (s->lser_on: the option, half pairs, every pair by call id).  PB_OK or
 * PB_ENOMEM.  joint_lser_ll: the term of a request whose calls are
 * k[0..n) (sorted by call time); 0 unless lser_on.  joint_lser_meta:
 * the metadata line (when on).  joint_lser_free: frees the arrays. */
int joint_lser_fit(joint *s, const unsigned char *only);
double joint_lser_ll(const joint *s, const uint32_t *k, uint32_t n);
int joint_lser_meta(const joint *s, pb_result *res);
void joint_lser_free(joint *s);
/* joint_uxcheck.c.  The current solution (after the search that follows
 * a pass of uncross) against before[] (a parent per pair: the solution the
 * search started from) by a cross-fitted likelihood over two halves of the
 * requests; the current one kept only when likelier by more than
 * JOINT_RESTART_MARGIN, else before[] set again; ends with the model
 * refitted to the solution kept.  PB_OK or PB_ENOMEM */
int joint_uxcheck(joint *s, const uint32_t *before);

/* joint_resolve.c (resolve_local).  joint_resolve_begin: before a pass of
 * exchanges of returns in the search's outer loop, start recording which
 * requests change (rl_chg cleared, rl_only set: the next local search's
 * first pass visits only pairs with a changed request).  PB_OK or
 * PB_ENOMEM.  joint_resolve_touch: requests a and b (JOINT_NONE: none)
 * changed.  joint_resolve_swapped: an exchange applied touched the n
 * requests q[] (joint_xchg_touched).  joint_resolve_skip: 1 when
 * the local search's pass pass_id leaves the pair q1, q2 out.
 * joint_resolve_end: a local search's first pass is over (stop recording;
 * later passes go by dirty[] as before).  joint_resolve_meta: the metadata
 * line.  Nothing happens with resolve_local=0. */
int joint_resolve_begin(joint *s);
void joint_resolve_touch(joint *s, uint32_t a, uint32_t b);
void joint_resolve_swapped(joint *s, const uint32_t *q, uint32_t n);
int joint_resolve_skip(joint *s, uint32_t q1, uint32_t q2);
void joint_resolve_end(joint *s);
int joint_resolve_meta(const joint *s, pb_result *res);

/* joint_pwin.c (pair_window; docs/joint/speed.md "Speed, fourteenth wave").
 * joint_pwin_cut: the window of about `want` requests (root calls: calls
 * from a node that receives none) cut at quiet points (no request open)
 * around the middle of v; fills w (lo, hi, roots, wroots, reason "cut" when
 * there is one, else why not: window_off, no_requests, trace_small,
 * no_quiet_point).  PB_OK or PB_ENOMEM.  joint_pwin_kind: the choice that
 * pair_order=auto's result k shows (1 free, 2 held, 3 held by
 * parallel_check_bb's early run; 0 one search).  joint_pwin_judge: from
 * the window's kept search wk, whether its choice is firm for the whole
 * trace (w->decision its kind) or not (0, w->reason why).
 * joint_pwin_meta: the metadata line pair_window=. */
int joint_pwin_cut(const pb_trace_view *v, uint32_t want, joint_pwin *w);
int joint_pwin_kind(const joint *k);
void joint_pwin_judge(const joint *wk, joint_pwin *w);
int joint_pwin_meta(const joint *s, pb_result *res);
/* joint_pwin_window: the window cut (pw->on set), both searches and the
 * choice run on it (pair_window off there), judged into pw.  PB_OK or the
 * search's error (err filled).  joint_pwin_one: the search pw->decision
 * chose, alone on v (params the free search's, ph the held one's), then
 * parallel_check_bb as after two searches; *out the kept search.  PB_OK or
 * the search's error.  joint_search_one / joint_search_choose (joint.c):
 * one search (pord: holding the order of answers), or pair_order's whole
 * choice; PB_OK or the search's error. */
int joint_pwin_window(const pb_trace_view *v, const joint_params *params, joint_pwin *pw,
                      pb_error *err);
int joint_pwin_one(joint **out, const pb_trace_view *v, const joint_params *params,
                   const joint_params *ph, const joint_pwin *pw, pb_error *err,
                   const unsigned char *force);
int joint_search_one(joint **out, const pb_trace_view *v, const joint_params *params,
                     pb_error *err, int pord, const unsigned char *force);
int joint_search_choose(joint **out, const pb_trace_view *v, const joint_params *params,
                        pb_error *err);
/* tests only: 1 makes joint_resolve_swapped forget the requests an
 * exchange changed, 2 every change (joint_resolve_touch too): the faults
 * its test must catch */
extern int joint_resolve_test_forget;

/* joint_repair.c: the re-pairing's cost of return (sent at t on the
 * callee's clock, received at rr) as the response of free pair c with its
 * current calls; INFINITY when it cannot be */
double joint_response_cost(joint *s, uint32_t c, pb_ns t, pb_ns rr);
/* joint_response_cost, but with relaxed != 0 a call of c returning after
 * t is passed over instead of ruling the return out (joint_reunp.c) */
double joint_response_cost_relaxed(joint *s, uint32_t c, pb_ns t, pb_ns rr, int relaxed);

/* joint_reunp.c.  Before the re-pairing's greedy on link l (its full free
 * calls C[0..nc) sorted by receipt, its returns sent at rsv / received at
 * rrv in send order): each half call of the link is weighed against the
 * full calls near it; where the greedy pairing with the two exchanged
 * costs more than uncross_min nats less, the half call joins C and the
 * full call leaves it (demoted[0..*ndemoted): pairs to be left without a
 * return).  C keeps nc entries, re-sorted.  PB_OK or PB_ENOMEM */
int joint_reunp_link(joint *s, uint32_t l, insort *C, uint32_t nc, const pb_ns *rsv,
                     const pb_ns *rrv, uint32_t *demoted, uint32_t *ndemoted);
/* joint_reunpck.c (reunp=2, checked).  1 when s (a search run without
 * reunp) has a half call reunp would weigh: a free link without call ids,
 * not kept in arrival order, whose callee calls on */
int joint_reunp_wanted(const joint *s);
/* joint.c: joint_init without the reunp=2 check (the search, and the
 * unpaired step); *force_out, when not NULL, gets the messages the
 * unpaired step forced (or NULL; the caller frees it).  As joint_init */
int joint_init_search(joint **out, const pb_trace_view *v, const joint_params *params,
                      pb_error *err, unsigned char **force_out);
/* reunp=2: a copy of s (joint_selfcal_copy: its solution as the truth,
 * its lost halves kept, seed conf_seed + JOINT_REUNP_SEED) that then loses
 * each call and return at s's share of unpaired messages, inferred with
 * reunp=0 and 1; *use = 1 when reunp moved a call there and more of s's
 * top-level requests came out exact only with it than only without, by
 * the one-sided sign test at JOINT_REUNP_ALPHA (joint_reunp_signtest).
 * Records the counts in s.  PB_OK or PB_ENOMEM */
int joint_reunp_copytest(joint *s, int *use);
/* joint_reunpck.c, shared by the copy checks (reunp=2, unpaired=3): the
 * search (joint_init_search, parameters p2, no check of its own) run on
 * v2, a copy of s made by joint_selfcal_copy (s's solution as the truth,
 * its top-level requests the copy's); ok[q] per top-level request q of s:
 * 0 not in the copy, 1 exact (every pair of it with its parent right and,
 * without call ids, its return its own), 2 not.  *moved and *unp_changed:
 * the copy's search's reunp_moved and unp_changed.  PB_OK or PB_ENOMEM */
int joint_copy_exact(joint *s, const pb_trace_view *v2, const joint_params *p2,
                     unsigned char *ok, size_t *moved, size_t *unp_changed);
/* joint_reunpck.c, the copy check of reunp=2 and unpaired=3: a copy of s
 * (joint_selfcal_copy, seed (uint32_t)seed, the whole trace up to its
 * cap) that loses messages afresh (joint_copy_drop, seed + 1), inferred
 * by joint_copy_exact with s's parameters set by variant(p, 0) and then
 * variant(p, 1).  *moved and *changed: the second run's reunp_moved and
 * unp_changed; cnt[0] / cnt[1]: s's top-level requests exact only with
 * variant 1 / only with variant 0.  PB_OK or PB_ENOMEM (then nothing is
 * filled) */
int joint_copy_ab(joint *s, unsigned long seed, void (*variant)(joint_params *, int),
                  size_t *moved, size_t *changed, size_t cnt[2]);
/* joint_reunpck.c: drop each call and return of t (a copy of s) with
 * probability q = the share of s's calls and returns left without a
 * partner (a GSL generator seeded with seed).  PB_OK or PB_ENOMEM */
int joint_copy_drop(const joint *s, pb_trace *t, unsigned long seed);
/* 1 when b pairs right only one way against c right only the other is
 * more than chance: P(Bin(b + c, 1/2) >= b) < JOINT_REUNP_ALPHA, b > c */
int joint_reunp_signtest(size_t b, size_t c);
/* b (the same search rerun with reunp=1) takes a's records of the choices
 * before it (pair_order, busy test, parallel checks, unpaired, this check) */
void joint_reunp_adopt(joint *b, joint *a);
/* joint_unpck.c (unpaired=3): the first search s and the search t run
 * with the priced choice's messages forced unpaired; 1 when t's requests
 * are likelier than s's (joint_loglik, each under its own refit) by more
 * than JOINT_RESTART_MARGIN nats and, on a copy of s's solution that
 * loses messages afresh (seed conf_seed + JOINT_UNPCK_SEED), more of s's
 * top-level requests come out exact only with unpaired=1 than only with
 * unpaired=0 (joint_reunp_signtest).  Records both in t and s.  PB_OK or
 * PB_ENOMEM */
int joint_unpck_take(joint *s, joint *t, int *take);
/* b (the search rerun with the forced messages) takes a's check record */
void joint_unpck_adopt(joint *b, const joint *a);
/* the check declined: f (the first search, kept) takes the unpaired
 * step's records from t (the second search, dropped) */
void joint_unpck_revert(joint *f, joint *t);
/* the unpaired=3 line of the metadata (nothing when the check did not
 * run).  PB_OK or PB_ENOMEM */
int joint_unpck_meta(const joint *s, pb_result *res);
/* joint_reunpck.c: the reunp=2 line of the metadata (nothing when the
 * check did not run).  PB_OK or PB_ENOMEM */
int joint_reunp_meta(const joint *s, pb_result *res);

#endif
