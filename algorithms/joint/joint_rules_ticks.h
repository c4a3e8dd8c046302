/*
 * joint_rules_ticks.h - the declarations of joint's busy test,
 * partial hold and coarse-stamp rules (subtick, tick zero, tick intervals,
 * quantised delays, ties).
 * Split from joint_rules.h (its length); included by it, after
 * joint_int.h.  Not a public interface.
 */
#ifndef JOINT_RULES_TICKS_H
#define JOINT_RULES_TICKS_H

#include "joint_int.h"

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
/* joint_space_of over a copy given as stamps (busy_copy_lean,
 * joint_simset_draw): pair p's call sent at cs[p] and its return at rs[p]
 * (PB_TS_NONE: not in the copy).  PB_OK or PB_ENOMEM */
int joint_space_of_stamps(const joint *s, const pb_ns *cs, const pb_ns *rs,
                          const unsigned char *serves, pb_ns *w, double *gaps, double *shortg);

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
/* joint_tiecross.c: the model refitted after parents changed (joint_fit, the order
 * terms, the response order where on), as the start made again is; PB_OK or
 * PB_ENOMEM.  Also tie_sets=3's, when it puts the search back (joint_tieset.c). */
int joint_refit_moved(joint *s);
/* joint_quant.c: a copy of every pair's return (message, stamps), the form the tie
 * test saves the start's in.  joint_quant_returns_alloc: room for n pairs (malloc;
 * the caller frees), NULL when out of memory; joint_quant_copy_returns: the current
 * returns into it; joint_quant_return_of: pair p's return message (NONE: lost);
 * joint_quant_pick_return: pair p's entry of from into out;
 * joint_quant_put_returns: those returns put back, every parent cleared first, and
 * the candidates found again where a return moved; PB_OK or PB_ENOMEM. */
void *joint_quant_returns_alloc(uint32_t n);
void joint_quant_copy_returns(const joint *s, void *out);
uint32_t joint_quant_return_of(const void *saved, uint32_t p);
void joint_quant_pick_return(void *out, uint32_t p, const void *from);
int joint_quant_put_returns(joint *s, const void *saved);
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
/* joint_tieset_weighs (tie_sets=2): 1 when start_off > search_off and the one-sided
 * sign test's p is below level / moved (the level shared among the moves the tie test
 * weighed, moved = its count of calls whose parent differs), else 0. */
int joint_tieset_weighs(size_t start_off, size_t search_off, double level, size_t moved);
int joint_tieset_decide(joint *s, const unsigned char *start_lost);
/* tie_sets=3: the set test decided after tie_cross.  joint_tieset_defer (in the tie
 * test, where it would keep the start): the search saved whole, its parents and its
 * pairing of returns (owned by s until joint_tieset_after or joint_close); PB_OK or
 * PB_ENOMEM.  joint_tieset_after (joint.c, after tie_cross): the sign test of
 * joint_tieset_count with the start as tie_cross left it against the saved search,
 * at tie_sets_p / the tie test's moved calls (joint_tieset_weighs); when it refutes,
 * the search is put back (returns, candidates, parents, refit) and the tie test's
 * verdict becomes "search"; the saved copy freed either way.  PB_OK or PB_ENOMEM. */
int joint_tieset_defer(joint *s);
int joint_tieset_after(joint *s);
/* joint_tieset_put_parent: pair p given parent b (NONE: left without), the
 * put-back of a saved search or a mixture (joint_tieset.c, joint_tiesearch.c);
 * a parent no longer among p's candidates is left without and counted in
 * *missed.  PB_OK or joint_set_parent's error */
int joint_tieset_put_parent(joint *s, uint32_t p, uint32_t b, size_t *missed);
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
/* joint_cand.c: after a rule compacted the candidate lists in place (cand_off[npairs]
 * set): ncand, ambiguous and nested counted again */
void joint_cand_recount(joint *s);
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

#endif
