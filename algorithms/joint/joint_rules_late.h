/*
 * joint_rules_late.h - the declarations of joint's late-call and
 * confidence rules (late calls, out sets, the shares, the self-calibration
 * and its copy).
 * Split from joint_rules.h (its length); included by it, after
 * joint_int.h.  Not a public interface.
 */
#ifndef JOINT_RULES_LATE_H
#define JOINT_RULES_LATE_H

#include "joint_int.h"

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
    return s->free_ret[p] && !(s->fifo_link && s->fifo_link[s->pr[p].link]) &&
           !(s->unpf_fz && s->unpf_fz[p]); /* unp_freeze (joint_unpfreeze.c) */
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
/* busy_copy_lean (joint_selfcal.c): copies of s's solution as
 * joint_selfcal_copy draws them, sharing one set-up (orphans' misses,
 * triggers, delays per key, the window's roots).  joint_simset_new: the
 * set-up into *out (freed by joint_simset_free; s must not change while it
 * lives).  joint_simset_draw: the copy drawn with seed, given as the stamps
 * its trace would hold, per pair p (n + 1 entries each, PB_TS_NONE where
 * the pair or that half is not in the copy): cr[p] the call's receive
 * (its send where the trace's call has no receive stamp), cs[p] the call's
 * send, rs[p] the return's send; sets s->scal_escaped as the copy would.
 * Both PB_OK or PB_ENOMEM */
typedef struct joint_simset joint_simset;
int joint_simset_new(joint *s, joint_simset **out);
int joint_simset_draw(joint_simset *z, uint32_t seed, pb_ns *cr, pb_ns *cs, pb_ns *rs);
void joint_simset_free(joint_simset *z);
/* joint_simulate.c, for joint_selfcal.c.  joint_sc_orphan_misses: per
 * service the rate at which its calls escape their request's interval and
 * its orphans' misses (the comment at its definition), into *esc (n
 * services, the caller's) and *moff, *early, *late (allocated, the caller
 * frees them).  joint_sc_simulate: the copy of s's solution drawn with
 * seed (at least floor_pairs pairs; drop, rest, block and cpar as
 * joint_selfcal passes them, NULL / 0 where unused) into *out (the caller
 * closes it).  Both PB_OK or PB_ENOMEM */
int joint_sc_orphan_misses(const joint *s, double *esc, uint32_t **moff, pb_ns **early,
                           pb_ns **late);
int joint_sc_simulate(joint *s, uint32_t seed, const double *esc, const uint32_t *moff,
                      const pb_ns *early, const pb_ns *late, int floor_pairs, const double *drop,
                      const unsigned char *rest, int block, uint32_t *cpar, pb_trace **out);

/* joint_calibasync.c (conf_sim_async): joint_sim_waits: 1 when the
 * self-calibration's copy sends request q's response no earlier than the
 * return of its call c (the solution's response came after that return,
 * a half of either pair is lost, or conf_sim_async=0), else 0 (c outlives
 * its parent, in the copy as in the solution).  joint_sim_outliving: how
 * many calls of the solution outlive their parent so (0 with
 * conf_sim_async=0). */
int joint_sim_waits(const joint *s, uint32_t q, uint32_t c);
/* joint_calibloss.c (conf_sim_loss).  joint_sim_loss_rates fills rate[l]
 * (nlinks entries, the caller's) with the probability that the
 * self-calibration's copy drops each half of link l (links paired without
 * call ids; the trace's loss rate read from the halves left unpaired away
 * from its ends) and rest[p] (npairs entries): bit 1 for the half pairs
 * away from the ends (the copy makes their lost half again), bit 4 for
 * the other half pairs of those links where some rate is above 0; a pair
 * with either bit is not right by construction; with conf_sim_loss_ids
 * also rate[l] of the links with call ids (their own pooled rate) and bit
 * 2 for their lost returns away from the ends (made whole in the copy,
 * still right by construction where they were), and with
 * conf_sim_loss_calls bits 2 | 8 for their lost calls away from the ends
 * (made whole in the copy too; bit 8 marks them for
 * joint_sim_orphan_zone); sets s->sloss_* (sloss_lc_id, sloss_nid: the
 * lost calls and pairs on links with ids).
 * Returns 1 when some rate is above 0, 0 when none (or
 * conf_sim_loss=0), -1 when out of memory.  joint_sim_restore fills, per
 * pair, the copy's network delays of its call (nc) and return (nr) and
 * its arrival when it is a root (arr): the solution's, but for a pair
 * with rest[p] its lost half's delay drawn (r, a gsl_rng) from a complete
 * pair of its link (rest NULL: none).  PB_OK or PB_ENOMEM.
 * joint_sim_drop: 1 when the copy drops half `half` (0 call, 1 return) of
 * pair p (one draw from r where the rate is above 0), else 0. */
int joint_sim_loss_rates(joint *s, double *rate, unsigned char *rest);
int joint_sim_restore(const joint *s, void *r, const unsigned char *rest, pb_ns *nc, pb_ns *nr,
                      pb_ns *arr);
int joint_sim_drop(const joint *s, void *r, const double *rate, const unsigned char *rest,
                   uint32_t p, int half);
size_t joint_sim_outliving(const joint *s);
/* joint_sim_orphan_zone (conf_sim_loss_calls): zone[p] (copy s2's npairs
 * entries) 1 for the copy rows whose truth is the solution's guess after
 * a call the trace lost (rest bit 8, made whole in the copy): rows whose
 * true parent is a pair into that call's service and which the copy
 * sends within the made-again call's interval there, and their true
 * subtrees; 0 elsewhere.  real_of[p]: the real pair copy pair p was made
 * from (>= s->npairs: none).  Adds the rows marked to *nzone.  PB_OK or
 * PB_ENOMEM. */
int joint_sim_orphan_zone(const joint *s, const joint *s2, const uint32_t *real_of,
                          const unsigned char *rest, unsigned char *zone, size_t *nzone);
/* joint_anchor.c (conf_anchor).  joint_anchor_ok clears ok2[p] (copy s2's
 * npairs entries) where the scorer would count copy pair p wrong, taking
 * s's solution as the copy's truth: its copy tree's owner (the true
 * request with the earliest anchor in it; the anchor is the root pair
 * where its call is present, else the pair with the earliest present
 * message) is not its true request.  real_of[p]: the real pair copy pair p
 * was made from (JOINT_NONE: none).  owner_only (conf_sim_loss_ids where
 * the copy loses halves with ids): ok2[p] of a row with a call id is the
 * owner rule alone, as the scorer counts it (a row under a wrong parent
 * of its own request is right; after a lost call its children can only
 * go to another pair).  Adds the rows changed to *turned.
 * PB_OK or PB_ENOMEM. */
int joint_anchor_ok(const joint *s, const joint *s2, const uint32_t *real_of, unsigned char *ok2,
                    int owner_only, size_t *turned);
/* joint_anchor_trees (conf_sim_loss_ids with conf_anchor): where some
 * request of s lost its root call (a root pair with a call id and no
 * call), clears ex[p] (npairs entries: right by construction, before
 * and_down) of every root with a call id whose tree holds a row that is
 * not: a request that lost its root call is anchored by its first
 * surviving message, which the search may have put in a neighbour's tree
 * (then that neighbour's rows are wrong for the scorer).  Adds the roots
 * cleared to *turned.  PB_OK or PB_ENOMEM. */
int joint_anchor_trees(const joint *s, unsigned char *ex, size_t *turned);
/* The parameters a copy of s's trace (made from s's solution) is inferred
 * with: s's own, without confidence, with the real trace's per-service
 * signals (sel_from), its chosen order of answers, no parallel checks
 * (the kept search's own parallel calls) and reunp as reunp=2 chose.
 * Fills *p2; never fails. */
void joint_copy_params(const joint *s, joint_params *p2);

#endif
