/*
 * joint_rules.h - the functions of joint's rules, one file each (late
 * calls, confidence and the self-calibration, the free/held choice, coarse
 * stamps, the order of service, re-pairing and loss): what each file
 * offers the others.  Included at the end of joint_int.h (the state it
 * reads); include that one.  Not a public interface.
 */
#ifndef JOINT_RULES_H
#define JOINT_RULES_H

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
/* joint_pav.c (split from joint_selfcal.c): the maps' pieces the copy's
 * self-calibration shares.  JOINT_SELFCAL_MIN: the rows a link needs for a
 * map of its own. */
#define JOINT_SELFCAL_MIN 100
/* one point of the fit: a stated share, its class (link), whether right */
typedef struct joint_spt {
    double c;
    uint32_t cls;
    unsigned char ok;
} joint_spt;
/* pb_sort order of joint_spt: by class, then stated share, then ok */
int joint_spt_cmp(const void *a, const void *b);
/* pool-adjacent-violators over p[0..n) (sorted by joint_spt_cmp, one
 * class): the blocks into lo/val (room for n + 1), w and k scratch (n + 1);
 * returns the number of blocks */
uint32_t joint_pav_fit(const joint_spt *p, uint32_t n, double *lo, double *val, double *w,
                       double *k);
/* value at c of the b blocks lo/val (joint_pav_at without the empty case) */
double joint_map_at(const double *lo, const double *val, uint32_t b, double c);
/* v[p] = v[p] && v[parent of p] down every request tree.  PB_OK or
 * PB_ENOMEM */
int joint_and_down(const joint *s, unsigned char *v);
/* the self-calibration's maps of pts[0..np) (sorted here): all links
 * together (class nl) and each link with JOINT_SELFCAL_MIN rows or more;
 * cls_off[2 l], [2 l + 1] link l's blocks in lo/val.  *rc = PB_ENOMEM when
 * out of memory (else unchanged) */
void joint_fit_maps(joint_spt *pts, uint32_t np, uint32_t nl, double *lo, double *val,
                    double *w, double *kk, uint32_t *cls_off, int *rc);
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
/* repair_bucket (joint_rpick.c): an upper bound of joint_rord_pick on link
 * l whatever the call, t and answered flags (0 when the term is off) */
double joint_rord_pick_max(const joint *s, uint32_t l);
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
/* joint_order_score with v = joint_loglik(s) already computed on s as it
 * stands (ll_share, joint_llshare.c): the same *ll bits.  PB_OK or
 * PB_ENOMEM */
int joint_order_score_at(joint *s, double v, double *ll);

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
/* the same with the flow's solver: 0 GLPK's out-of-kilter
 * (joint_unpaired_link's), 1 successive shortest paths (unp_flow=1,
 * joint_unpflow.c); zone > 0 (unp_flow=2): only the messages within
 * zone steps of the arc graph from the current pairing's unpaired ones
 * are paired again, the current pairs outside stay (*after counts them).
 * joint_unpflow_solve: one piece's least-cost pairing,
 * calls 0..ncc, returns 0..nrc, arcs (ai[k], bj[k]) at v[k] units, skip
 * units per message left unpaired; unc / unr: 1 per message left
 * unpaired; the least cost added to *sol.  PB_OK or PB_ENOMEM */
int joint_unpflow_solve(const uint32_t *ai, const uint32_t *bj, const double *v, size_t na,
                        uint32_t ncc, uint32_t nrc, double skip, unsigned char *unc,
                        unsigned char *unr, double *sol);
int joint_unpaired_link_s(const pb_ns *ct, uint32_t nc, const pb_ns *rt, uint32_t nr,
                          const uint32_t *cur, pb_ns early, double price, unsigned char *un_c,
                          unsigned char *un_r, double *before, double *after, int solver,
                          int zone);
/* joint_unpaired_link_s with unp_flow_span's cut of the zone (span > 0: the
 * zone kept within span calls / returns of its seeds; 0 = the zone
 * whole) and, with seedok (calls 0..nc, returns nc..; NULL = all), only
 * the unpaired messages it marks seeding the zone (unp_copy_taken: the
 * others keep their state).  PB_OK, PB_ENOMEM or PB_ERANGE */
int joint_unpaired_link_z(const pb_ns *ct, uint32_t nc, const pb_ns *rt, uint32_t nr,
                          const uint32_t *cur, pb_ns early, double price, unsigned char *un_c,
                          unsigned char *un_r, double *before, double *after, int solver,
                          int zone, int span, const unsigned char *seedok);
int joint_unpaired_choose(const joint *s, unsigned char **force, joint_unp_rec **recs,
                          size_t *nrecs, size_t *changed);
/* joint_unppiece.c: the top-level request (root pair) of pair q under
 * s's parents; JOINT_NONE in a cycle (more steps than npairs).  Used by
 * the pieces and by unp_win's window (joint_unpwin.c) */
uint32_t joint_unp_root(const joint *s, uint32_t q);
/* joint_unpaired.c: frees recs[0..n) (their moved ids) and recs; NULL is
 * fine */
void joint_unpaired_free(joint_unp_rec *recs, size_t n);

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
/* joint_lserial.c, loss_serial=7.  joint_lser_wanted: how many links of
 * s's solution the serial test calls serial when the check applies
 * (loss_serial=7, every pair by call id, no half pair), else 0; -1 out of
 * memory.  joint_lser_choose: s the term-free search, t the same search
 * at loss_serial=4; 1 when t's solution is likelier than s's under the
 * model without the term by more than JOINT_RESTART_MARGIN nats (then t
 * takes s's records of the choices before); the one kept records the
 * check (nser, both likelihoods) for its metadata */
int joint_lser_wanted(joint *s);
/* joint_lserial.c: joint_loglik for a choice between two whole solutions
 * (the tie test, tie_cross): without the serial term where it only guides
 * the search (loss_serial=3|4 without loss, the second search of 7|8),
 * else joint_loglik itself */
double joint_lser_choice_ll(joint *s);
int joint_lser_choose(joint *s, joint *t, int nser);
/* joint_lserial.c, loss_serial=8: as joint_lser_choose, but s's and t's
 * solutions (both without the term) compared cross-fitted (joint_ux_*:
 * halves by s's top-level requests; each half scored under the model
 * fitted to the other half of the same solution); t kept when it is
 * likelier on both halves and the paired z over s's top-level requests
 * of the per-request gains exceeds JOINT_LSER_XZ.  Both end refitted to
 * their whole solution.  1 t kept, 0 s kept, -1 out of memory */
int joint_lser_choose_x(joint *s, joint *t, int nser);
/* joint_lserial.c, loss_serial_win: as joint_lser_choose_x, one solution
 * searched in place: s holds the term's solution (term on), par0 the
 * first (term-free) one.  Kept: s holds the term's solution refitted with
 * the term; not: par0, refitted without it (the caller drops the term).
 * Both record the check in s.  1 kept, 0 not, -1 out of memory.
 * joint_lser_serial_links: ser[l] = 1 for the links of s's solution the
 * serial test calls serial; their number, -1 out of memory.
 * joint_lser_stacks: st[p] = 1 for each call on a serial link sent while
 * an earlier call of its request is out; their number (*nout: the calls
 * on serial links with an earlier call) */
int joint_lser_choose_w(joint *s, const uint32_t *par0, int nser);
int joint_lser_serial_links(const joint *s, unsigned char *ser);
size_t joint_lser_stacks(const joint *s, const unsigned char *ser, unsigned char *st,
                         size_t *nout);
/* joint_lserwin.c, loss_serial_win: loss_serial=8's second search from
 * s's solution, re-splitting only the window of the stacked calls with
 * the term on, then joint_lser_choose_w; s ends with the solution kept
 * (metadata loss_serial_window=).  PB_OK or PB_ENOMEM */
int joint_lserwin_run(joint *s, int nser);
/* joint_lserial.c, loss_serial_greedy: the term's change (as a cost, in
 * nats) when call p joins request q's calls, for the greedy round; 0
 * unless the term is on and the option set */
double joint_lser_greedy(const joint *s, uint32_t p, uint32_t q);
/* joint_lserial.c: 1 when joint_lser_greedy can be non-zero (the term on,
 * the option set and, at 2, the serial test pricing links), else 0 */
int joint_lser_greedy_on(const joint *s);
/* joint_lsgreedy.c: the same cost from each candidate's calls kept per
 * greedy round (speed only, the same choice).  joint_lsg_round_start /
 * _end bracket a greedy round (PB_OK or PB_ENOMEM; nothing kept is used
 * outside one); joint_lsg_touch(s, q): q's calls changed
 * (joint_set_parent in the round); joint_lsg_offer: candidate q of call p
 * at trigger-and-count cost t against the best so far *b (start
 * JOINT_LSG_BEST0): 1 and *b updated when t + joint_lser_greedy(s, p, q)
 * < b's cost, exactly as that comparison decides (close costs are
 * computed by joint_lser_greedy); joint_lsg_free frees s->lsg */
typedef struct joint_lsg_best {
    double bc, bt, be; /* cost, its trigger part, a bound on its error (0: exact) */
    uint32_t bq;       /* the candidate, or JOINT_NONE */
} joint_lsg_best;
#define JOINT_LSG_BEST0 {INFINITY, 0, 0, JOINT_NONE}
int joint_lsg_round_start(joint *s);
void joint_lsg_round_end(joint *s);
void joint_lsg_touch(joint *s, uint32_t q);
int joint_lsg_offer(joint *s, uint32_t p, uint32_t q, double t, joint_lsg_best *b);
void joint_lsg_free(joint *s);
/* joint_uxcheck.c.  The current solution (after the search that follows
 * a pass of uncross) against before[] (a parent per pair: the solution the
 * search started from) by a cross-fitted likelihood over two halves of the
 * requests; the current one kept only when likelier by more than
 * JOINT_RESTART_MARGIN, else before[] set again; ends with the model
 * refitted to the solution kept.  PB_OK or PB_ENOMEM */
int joint_uxcheck(joint *s, const uint32_t *before);
/* joint_uxcheck.c: s's solution set to par (a parent per pair; only the
 * calls whose parent differs move).  PB_OK or PB_ENOMEM */
int joint_ux_set_all(joint *s, const uint32_t *par);
/* joint_uxcheck.c, the cross-fitting shared with loss_serial=8.
 * joint_ux_halves: half[q] (0/1) of every pair by its top-level request
 * under par (alternately in the roots' pair order; a cycle is half 0);
 * tmp (room for npairs) is scratch; grp (NULL: not wanted) gets each
 * pair's top-level request's ordinal (JOINT_NONE in a cycle).
 * joint_ux_heldout: each half's pairs scored (joint_req_ll) under the
 * model fitted to the other half of s's current solution, summed into
 * *ll, each pair's value into per[q] when per is not NULL; only (room for
 * npairs) is scratch; leaves s fitted to half 0.  PB_OK or PB_ENOMEM */
void joint_ux_halves(const joint *s, const uint32_t *par, unsigned char *half, uint32_t *tmp,
                     uint32_t *grp);
int joint_ux_heldout(joint *s, const unsigned char *half, unsigned char *only, double *ll,
                     double *per);

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

/* joint_unppiece.c (unp_pieces=1 with unpaired=1): the first search f and
 * the second s; pieces (message groups closed under both solutions'
 * requests whose partitions differ) scored under a model refitted outside
 * every piece; a piece taken when its LLR > JOINT_UNPP_LLR and it holds at
 * most JOINT_UNPP_SMALL of the messages.  *take_second = 1 when every
 * piece is taken (the partial merge is not built).  Both refitted to their
 * whole solution on return; the piece arrays owned by the one to output.
 * PB_OK or PB_ENOMEM.  joint_unpp_free: the arrays; joint_unpp_meta: the
 * metadata lines (unp_pieces=, unp_piece=) */
int joint_unpp_take(joint *f, joint *s, int *take_second);
void joint_unpp_free(joint *s);
int joint_unpp_meta(const joint *s, pb_result *res);
/* joint_unpmerge.c (unp_pieces' merge).  joint_unpm_build: when
 * joint_unpp_take took some pieces but not all (f->unpp_sec set), *out the
 * merged solution (new, the caller's to close; f and s stay the caller's:
 * the piece record moves from f, the unpaired step's from s): f's pairs
 * and parents outside the taken pieces, s's inside, set up with s's
 * parameters and refitted once, no search; *out NULL otherwise (or when a
 * pair crossed a piece border: f->unpm_on = -1, the first search stays).
 * PB_OK, PB_ENOMEM or the set-up's error (err filled).
 * joint_unpm_finish (init_one with the pairs and parents given): the
 * parents set (added as candidates where missing), one refit; PB_OK or
 * PB_ENOMEM.  joint_unpm_meta: the unp_merge= line (nothing when no merge
 * was tried).  joint_search_given (joint.c): the set-up with mate and
 * gpar given (joint_int.h, unpm_mate) */
int joint_unpm_build(joint **out, const pb_trace_view *v, joint *f, joint *s, pb_error *err);
int joint_unpm_finish(joint *s);
int joint_unpm_meta(const joint *s, pb_result *res);
int joint_search_given(joint **out, const pb_trace_view *v, const joint_params *params,
                       pb_error *err, int pord, const uint32_t *mate, const uint32_t *gpar);
/* joint_unpwin.c (unp_win=1).  joint_unpw_second: the second search of
 * unpaired=1 on a window around the messages whose state force changed
 * (f: the first search, the caller's); *out the second solution on the
 * whole trace (new, the caller's to close): f's pairs and parents outside
 * the window, the window's own search's inside, set up with f's
 * parameters and refitted once; the whole second search when the window
 * holds over JOINT_UNPW_MAX of the messages.  PB_OK, PB_ENOMEM or the
 * search's error (err filled).  joint_unpw_meta: the unp_win= line
 * (nothing when it did not run).  joint_search_forced (joint.c): the
 * search (pair_order's choice) with the forced messages */
int joint_unpw_second(joint **out, const pb_trace_view *v, const joint_params *params,
                      joint *f, const unsigned char *force, pb_error *err);
int joint_unpw_meta(const joint *s, pb_result *res);
int joint_search_forced(joint **out, const pb_trace_view *v, const joint_params *params,
                        pb_error *err, const unsigned char *force);
/* joint_reunpck.c: the reunp=2 line of the metadata (nothing when the
 * check did not run).  PB_OK or PB_ENOMEM */
int joint_reunp_meta(const joint *s, pb_result *res);

/* joint_tickx.c (tick_fifo): joint_tickx_apply, after the search, with
 * call ids at coarse stamps: per service the tick-order test of its
 * requests (s->tickx: p-value, in question, overtaken, used per node; owned by
 * s, freed by joint_close) and, where it passes, each outgoing link's
 * calls given to its requests in tick order; refits when a call moved.
 * Nothing when tick_fifo is 0 or the trace is not coarse.  PB_OK or
 * PB_ENOMEM.  joint_tickx_meta: the tick_fifo lines (none when it did not
 * run).  PB_OK or PB_ENOMEM */
int joint_tickx_apply(joint *s);
int joint_tickx_meta(const joint *s, pb_result *res);
/* joint_tickx_order: joint_tickx_apply without the refit (the unit tests
 * call it on a state set by hand); s->tickx_moved, tickx_kept the calls
 * moved and kept.  joint_tickx_test: the tick-order test of service a's
 * whole requests, *n in question, *k overtaken; its p-value (1 when none
 * is in question or out of memory) */
int joint_tickx_order(joint *s);
/* joint_tickx_service: service a's links made tick-ordered (no test, no
 * refit; adds to s->tickx_moved, tickx_kept, tickx_links,
 * tickx_links_skipped).  PB_OK or PB_ENOMEM */
int joint_tickx_service(joint *s, uint32_t a);
double joint_tickx_test(const joint *s, uint32_t a, double *n, double *k);

/* joint_simblock.c (conf_sim_block): the calibration copy's delays drawn in
 * blocks of time for the keys whose delays the trace shows correlated in
 * time.  A joint_simblk holds, per key, the solution's delays in the time
 * order of their outputs, whether the key passed the test, and per output
 * (owner 2 c for call c, 2 q + 1 for q's response) its key and rank. */
typedef struct joint_simblk {
    uint32_t nk, K, seed;
    uint32_t *off;          /* per key: its delays are dl[off[k] .. off[k + 1]) */
    pb_ns *dl;              /* delays, per key in time order */
    unsigned char *on;      /* per key: 1 when drawn in blocks */
    uint32_t *rank, *key;   /* per owner: its rank in its key, its key (NONE) */
    size_t keys_tested, keys_on, draws;
} joint_simblk;
/* joint_simblk_build: b filled from the n collected outputs (key ki[i],
 * delay dv[i], output time tv[i], owner own[i]) of s's solution; K outputs
 * a block, seed the copy's.  b owns its arrays (joint_simblk_free).  PB_OK
 * or PB_ENOMEM (b then empty) */
int joint_simblk_build(joint_simblk *b, const joint *s, uint32_t nk, size_t n,
                       const uint32_t *ki, const pb_ns *dv, const pb_ns *tv,
                       const uint32_t *own, uint32_t K, uint32_t seed);
/* joint_simblk_draw: 1 and *d the block draw for the output `owner` under
 * key `key` when that key passed the test and is the owner's collected
 * key; 0 otherwise (the caller draws as before).  b may be NULL */
int joint_simblk_draw(joint_simblk *b, uint32_t owner, uint32_t key, pb_ns *d);
void joint_simblk_free(joint_simblk *b);
/* joint_simblk_rho: the lag-1 rank autocorrelation of d[0..n) (ties:
 * mean ranks); scratch of n (pb_ns, uint32_t) pairs and r of n doubles,
 * the caller's.  0 when n < 3 or the ranks do not vary */
double joint_simblk_rho(const pb_ns *d, uint32_t n, void *scratch, double *r);
/* joint_recur.c, recur_inner: after the search, where a service calls
 * itself, a second search whose first assignment puts each of its calls
 * on the innermost open visit, kept when its log-likelihood is higher by
 * JOINT_RESTART_MARGIN; s ends with the solution kept and the model
 * fitted to it.  PB_OK or PB_ENOMEM */
int joint_recur_run(joint *s);
/* joint_callgraph.c: reads the call-graph file s->p.callgraph (lines
 * "CALLER SERVICE CALLEE...") into the links joint may use; names not in
 * the trace are counted for one warning.  PB_OK, or an error with *err
 * set (the file, its line) */
int joint_read_callgraph(joint *s, pb_error *err);
/* joint_rcycle.c, recur_cycle: sets on[a] for every service a (not already
 * set, no self link needed) with a link a -> b from which a is reachable
 * again over the links: a service re-entered through a cycle of two or
 * more services (a sidecar proxy and its application).  on has nnodes + 1
 * entries, the caller's.  Returns how many it set; *err PB_OK or
 * PB_ENOMEM (then nothing is to be trusted) */
uint32_t joint_rcycle_mark(const joint *s, unsigned char *on, int *err);
/* joint_reentry.c, busy_reentry: per service (nnodes + 1 entries, the
 * caller frees them) 1 where its own requests re-enter it: a link to
 * itself or a cycle of links through it (joint_rcycle_mark).  NULL when
 * there is none, or with *err PB_ENOMEM when out of memory; *err PB_OK
 * otherwise */
unsigned char *joint_reentry_marks(const joint *s, int *err);
/* joint.c: every parent cleared, the first assignment made again and the
 * search run (as second_start does); joint_solve_more: the search run from
 * the current assignment.  PB_OK or PB_ENOMEM */
int joint_solve_fresh(joint *s);
int joint_solve_more(joint *s);

/* joint_lchance.c, late_chance: after the late-call test, per link of a
 * late service, its orphan share (late_lshare, lcalls[l] its calls)
 * replaced, where larger, by an estimate of the share of its calls that
 * outlive their request: late_chance=2 each orphan weighted by 1 / (1 -
 * its own chance of being enclosed by a request of the sender were it
 * placed at random; s->lch_stat, owned by s), =1 the share divided by
 * that chance's complement for the link's calls (s->lch_links: the
 * links it lifted to 1/2 or more).  PB_OK or PB_ENOMEM */
int joint_late_chance(joint *s, const uint32_t *lcalls);

/* conf_sim_late (joint_simlate.c): in the self-calibration's copy, the
 * real trace's late-call decision replaces the copy's own.  1: taken
 * (*any: a service is late), 0: not applicable */
int joint_sim_late_take(joint *s, int *any);

/* conf_sim_late (joint_simlate.c): whether the real trace r calls for it:
 * 1 yes, 2 declined (the late services' orphans no more than r's half
 * pairs, conf_sim_late_halves), 0 no link widened whole.  The optional
 * outputs (NULL: not wanted): late services with a link widened whole,
 * those links, their orphan calls, r's half pairs */
int joint_sim_late_applies(const joint *r, size_t *nlate, size_t *nwhole, double *orphans,
                           size_t *halves);

/* conf_late_construct (joint_calibconstr.c): 1 when service a's late-call
 * test passed and the option is on (its calls can outlive their request,
 * so none of its rows is right by construction), else 0 */
int joint_late_construct(const joint *s, uint32_t a);
/* conf_late_construct: how many services joint_late_construct holds for */
size_t joint_late_construct_count(const joint *s);
/* joint_thread.c, thread_bound: after the candidates are found (every pass), at a
 * service whose visits the test found bound to a thread (on this or an earlier
 * pass's pairing: answers received on no open visit's thread, against chance),
 * a call keeps the candidate visits on its answer's thread (all where none is).
 * PB_OK or PB_ENOMEM.  joint_thread_meta: the metadata lines (and the warning);
 * joint_thread_free: s->thr released (NULL-safe). */
int joint_thread_apply(joint *s);
int joint_thread_meta(const joint *s, pb_result *res);
void joint_thread_free(joint *s);
/* joint_thread.c, thread_soft: the thread term of request q with the kids
 * k[0..n) (<= 0; 0 when off or nothing is known), added by the likelihood
 * walk (joint_model.c walk_rest, walk_rest_est) */
double joint_thread_ll(const joint *s, uint32_t q, const uint32_t *k, uint32_t n);
/* thread_soft: call p's own term under request q (the sum joint_thread_ll
 * makes is the sum of these over the kids); joint_bnb.c adds it to each
 * call's bound (exact per call, <= 0: the bounds stay admissible) */
double joint_thread_kid(const joint *s, uint32_t q, uint32_t p);

/* joint_rpinc.c, repair_incr: a re-pairing round after the first re-splits
 * in its solves' first pass only pairs of requests changed since the round
 * before's solve of the same kind (refitting 0, open-ended 1).  start: set
 * up (PB_OK or PB_ENOMEM; nothing when off); free: NULL-safe; kind: the
 * solve about to run (-1 outside); snap: keep the state it ended with;
 * begin: as its passes start, the marks; skip: 1 to leave out the first
 * pass's re-split of q1 and q2; moved (tests): the re-split it would have
 * left out moved a call; end: the passes are over; meta: the line. */
typedef struct joint_rpinc joint_rpinc;
int joint_rpinc_start(joint *s);
void joint_rpinc_free(joint *s);
void joint_rpinc_kind(joint *s, int kind);
int joint_rpinc_after(joint *s, int refit);
void joint_rpinc_rounds_end(joint *s);
int joint_rpinc_begin(joint *s, int refit);
int joint_rpinc_skip(joint *s, uint32_t q1, uint32_t q2);
void joint_rpinc_moved(joint *s);
void joint_rpinc_end(joint *s);
int joint_rpinc_meta(const joint *s, pb_result *res);
extern int joint_rpinc_test_check; /* tests: re-split anyway (rpi_flips counts moves) */

/* joint_rpdamp.c, greedy_damp: round: as greedy round it of a solve starts
 * (PB_OK or PB_ENOMEM); veto: 1 when call p's move to best puts it back
 * where it was two rounds before; free: NULL-safe; meta: the line. */
int joint_gdamp_round(joint *s, int it);
int joint_gdamp_veto(joint *s, uint32_t p, uint32_t best);
int joint_gdamp_stop(joint *s, int it);
void joint_gdamp_free(joint *s);
int joint_gdamp_meta(const joint *s, pb_result *res);


/* joint_busywin.c: the busy test's window least by a monotone queue (the
 * scan's window exactly); joint_pick_test_scan = 1 scans back as before */
extern int joint_pick_test_scan;
long joint_busywin_least(pb_ns t, pb_ns w, uint32_t i, uint32_t first, uint32_t *lo,
                         const pb_ns *t0, size_t stride, const long *val, const uint32_t *dq,
                         uint32_t *dh, uint32_t dt);

/* joint_simfast.c, conf_copy_repair / conf_copy_swaps / conf_copy_passes: the
 * self-calibration's own copy's search parameters p2 (joint_copy_params' already)
 * made cheaper as the options ask; the real search's s is read only */
void joint_simfast_params(joint *s, joint_params *p2);
/* joint_simfast.c: the metadata line (only where an option fired).  PB_OK or
 * PB_ENOMEM */
int joint_simfast_meta(const joint *s, pb_result *res);

/* conf_late_hidden (joint_cfhidden.c): on the confidences the result carries
 * (after joint_confidence; late_trust never reads them), the rows right by
 * construction on a late link that a request of the sender other than their
 * parent could have left behind, stated at most 1 - (H + 1) / (N + 2), and
 * the rows below them at most their parent's; metadata into res (may be NULL).
 * PB_OK or PB_ENOMEM */
int joint_cf_hidden(const joint *s, double *conf, pb_result *res);

/* conf_copy_tick (joint_cftick.c): the self-calibration's copy t inferred (*s2,
 * options p2, which it may change): where the real trace s was spread over its
 * ticks, t is cut to that tick in the order of its events and spread as joint_run
 * spreads (*spread: the spread rows, freed by the caller after joint_close(*s2));
 * else joint_init on t as it is.  Counts its copies in s->p.cft_copies and
 * cft_spread (metadata).  joint_init's return code */
int joint_cf_copy_init(joint *s, pb_trace *t, joint_params *p2, joint **s2,
                       pb_msg **spread, pb_error *err);

/* conf_copy_tick: the confidences the result carries into conf (npairs + 1):
 * late_trust's where it computed them and conf_copy_tick would not apply, else
 * joint_confidence with the copy cut to the trace's tick.  PB_OK or PB_ENOMEM */
int joint_cf_final_conf(joint *s, double *conf);

/* joint_unpmerge.c (h199): the first search f's alignment records moved to
 * the output o when o was set up from given pairs (the merge, a windowed
 * second search); metadata only */
void joint_unpm_align_carry(joint *o, joint *f);
/* joint_rpick.c (repair_pick_class): joint_rord_pick's pieces for call c
 * (joint_order.c): its neighbours (NONE: none), log rho, log (1 - rho);
 * 0 when the term is 0 for c whatever t and answered */
int joint_rord_pick_parts(const joint *s, uint32_t c, uint32_t *pred, uint32_t *succ,
                          double *linv, double *lkeep);
/* joint_rpk.c: the re-pairing greedy's order-term bound by class.  pv:
 * the penalties 0, -log rho, -log (1 - rho); lbq[3 a + b] = pv[a] + pv[b] */
#define RPK_NCLS 9
typedef struct rpk {
    int on;
    double pv[3], lbq[RPK_NCLS];
} rpk;
/* on (1) when some call of C[0..nc) has the order term */
int joint_rpk_init(const joint *s, const insort *C, uint32_t nc, rpk *k);
/* call c's class at return time t: its bound holds at every t' >= t
 * until a neighbour of c is answered; *next: from then it may rise
 * (INT64_MAX: never) */
unsigned joint_rpk_class(const joint *s, const rpk *k, uint32_t c, pb_ns t,
                         const unsigned char *ans, pb_ns *next);
extern int joint_rpick_test_noclass;          /* tests: 1 scans without the classes */
extern unsigned long joint_rpick_test_scored; /* tests: bucket calls scored */
extern double joint_rpick_test_slack; /* tests: nats added to every class bound (wrong) */

/* joint_heldskip.c, held_skip: before the held search (init_choose), whether
 * the free search a decides the choice alone: 1 skip the held search, 0 run
 * it, PB_ENOMEM.  joint_heldskip_scores: the free search's scores when
 * skipped (l0[1], lo[1] NAN); joint_heldskip_carry: the decision's record
 * copied to the search kept instead; joint_heldskip_meta: its lines, 1 when
 * they replace the pair_order line */
int joint_heldskip_decide(joint *a);
int joint_heldskip_scores(joint *a, double l0[2], double lo[2]);
void joint_heldskip_carry(joint *to, const joint *from);
int joint_heldskip_meta(const joint *s, pb_result *res);

/* joint_tieorder.c, order_cross: 1 when consecutive calls x (read first by
 * the callee) and y of one link crossed (y sent first) and the option is
 * on: the pair is not in question for the order of answers' term */
int joint_tieorder_crossed(const joint *s, uint32_t x, uint32_t y);
/* joint_tieorder.c, order_cross: after the search, each crossing's other
 * pairing with the two parents' calls exchanged, kept when the whole model
 * with the order terms gains more than uncross_min nats (PB_OK or
 * PB_ENOMEM); its metadata line */
int joint_tieorder_run(joint *s);
int joint_tieorder_meta(const joint *s, pb_result *res);

#endif
