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

#include "joint_rules_late.h"
#include "joint_rules_ticks.h"

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
/* joint_repair.c: rounds r0.. (rest: round r0 from its closed solve's
 * refit on); sv_cut may pause the search after a round's refit */
int joint_repair_rounds_from(joint *s, int r0, int rest);

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
int joint_lser_serial_links(joint *s, unsigned char *ser);
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
 * the search's error.  joint_search_one / joint_search_choose (joint_choose.c):
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
/* joint_init_one_g (joint.c): one search's set-up and search (pord 1 holds
 * the order of answers; share: joint_select's choice shared with the other
 * search, or NULL; force: messages forced unpaired, or NULL); with mate and
 * gpar the pairs and parents given (then no search, one refit), warm: the
 * search from them.  *out owned by the caller (joint_close).  PB_OK or the
 * error (err filled).  joint_init_one: the same without mate, gpar, warm. */
int joint_init_one_g(joint **out, const pb_trace_view *v, const joint_params *params,
                     pb_error *err, int pord, joint_selshare *share,
                     const unsigned char *force, const uint32_t *mate, const uint32_t *gpar,
                     int warm);
int joint_init_one(joint **out, const pb_trace_view *v, const joint_params *params,
                   pb_error *err, int pord, joint_selshare *share, const unsigned char *force);
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

/* joint_unpbusy.c, unp_busy: unp_win=2's seed spans cut to the busy period
 * of the changed message's link in the first search (the connected part of
 * the union of its pairs' intervals holding time t).  joint_unpb_build:
 * PB_OK or PB_ENOMEM; joint_unpb_cut narrows [*a, *b] (which holds t) */
typedef struct joint_unpb joint_unpb;
int joint_unpb_build(const joint *f, joint_unpb **out);
void joint_unpb_cut(const joint_unpb *u, uint32_t link, pb_ns t, pb_ns *a, pb_ns *b);
void joint_unpb_free(joint_unpb *u);

/* joint_unpone.c, unp_whole_one: the whole second search of unpaired=1
 * with the first search f's free / held choice (joint_pwin_one), or as
 * before (joint_search_forced) where f made no such choice or kept
 * busy_partial's third search; *one: 1 when the choice was taken */
int joint_unpo_second(joint **out, const pb_trace_view *v, const joint_params *params,
                      const joint *f, const unsigned char *force, pb_error *err, int *one);
/* joint_cfshuf.c, conf_copy_shuffle: perm[q] (the request whose calls q
 * makes in the calibration's copy) dealt within each link's overlap
 * clusters, cpar[c] the copy's truth parent of pair c (both room for
 * npairs); counts into s->p.cfs_*.  PB_OK or PB_ENOMEM.
 * joint_cf_shuffle_meta: its metadata line where it is on */
int joint_cf_shuffle(joint *s, uint32_t seed, uint32_t *perm, uint32_t *cpar);
int joint_cf_shuffle_meta(const joint *s, pb_result *res);

/* joint_cfthin.c, conf_thin_own: the maps of the links without one of
 * their own (cls_off as joint_fit_maps; pts sorted by it), fitted on
 * their few copy rows; joint_cfthin_at: link l's at stated c (1: none,
 * or off).  PB_OK or PB_ENOMEM */
typedef struct joint_cfthin {
    int on;
    double *lo, *val;
    uint32_t *off;
} joint_cfthin;
int joint_cfthin_fit(joint *s, const joint_spt *pts, uint32_t np, uint32_t nl,
                     const uint32_t *cls_off, joint_cfthin *t);
double joint_cfthin_at(const joint_cfthin *t, uint32_t l, double c);
void joint_cfthin_free(joint_cfthin *t);
/* joint_rpchk.c, greedy_check: veto: 1 when moving call p to best does
 * not raise its two requests' walks (the move refused), 0 to make it (or
 * out of memory: as without the rule); free: NULL-safe; meta: its line
 * when on */
int joint_gchk_veto(joint *s, uint32_t p, uint32_t best);
void joint_gchk_free(joint *s);
int joint_gchk_meta(const joint *s, pb_result *res);
/* joint_rpcyc.c, greedy_cycle: round: as greedy round it of a solve
 * starts (PB_OK or PB_ENOMEM); stop: after round it, 1 when the parents
 * are those of two rounds before and rounds are left (the solution they
 * would leave set, *rc its PB_OK), else 0; free: NULL-safe; meta: its
 * line when it cut a solve */
int joint_gcyc_round(joint *s, int it);
int joint_gcyc_stop(joint *s, int it, int *rc);
void joint_gcyc_free(joint *s);
int joint_gcyc_meta(const joint *s, pb_result *res);
/* joint_heldlocal.c, held_local: the held search on the window around the
 * pairs in question of the free search a, merged with a's pairs elsewhere
 * into *out (NULL: not run, init_choose runs the whole held search); the
 * record in a->hloc.  joint_heldlocal_carry: the record to the search kept;
 * joint_heldlocal_meta: its line */
int joint_heldlocal_run(joint **out, joint *a, const pb_trace_view *v, const joint_params *ph,
                        pb_error *err, const unsigned char *force);
void joint_heldlocal_carry(joint *to, const joint *from);
int joint_heldlocal_meta(const joint *s, pb_result *res);
/* joint_thread.c: thread_soft's term muted (1) or back (0) in every
 * likelihood walk of s; returns 1 when the term weighs some service */
int joint_thread_mute(joint *s, int mute);

/* joint_thrpick.c, thread_soft_pick: the two searches' log-likelihoods l0
 * (free, held; b may be NULL) recomputed without the thread term where
 * it weighs a service (the record kept for the metadata); PB_OK */
int joint_thrpick_scores(joint *a, joint *b, double l0[2]);
int joint_thrpick_meta(const joint *s, pb_result *res);
/* thread_soft_pick=2: joint_init run with the term and, where it weighs
 * some service, again without it; the solution likelier under the model
 * without the term kept (joint_thrpick.c) */
int joint_thrpick_wanted(const joint_params *p);
int joint_thrpick_init(joint **out, const pb_trace_view *v, const joint_params *params,
                       pb_error *err);
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

/* joint_unpwin.c.  A window's search t (sub: message of t's trace ->
 * message of f's) merged with f's pairs and parents outside the window
 * in[] into mate / gpar (joint_unpmerge.c's encoding, room for f->v.n
 * each); from[0] += f's pairs kept, from[1] += t's.  Shared by unp_win's
 * window and held_local's (joint_heldlocal.c).  Never fails. */
void joint_unpw_given(const joint *f, const joint *t, const unsigned char *in,
                      const uint32_t *sub, uint32_t *mate, uint32_t *gpar, size_t *from);

/* joint_unpwin.c.  The window in[] (nwin of v's messages marked 1) as a
 * trace view of its own: *sv is v with msgs / obs / n the window's, in one
 * malloc'd block *block (the caller's to free; sv is valid while it lives),
 * *sub (malloc'd, the caller's to free) each window message's index in v.  Shared by unp_win's,
 * held_local's and bb_serial's windows.  Returns PB_OK, or PB_ENOMEM with
 * nothing allocated. */
int joint_window_view(const pb_trace_view *v, const unsigned char *in, size_t nwin,
                      pb_trace_view *sv, pb_msg **block, uint32_t **sub);

/* A solution's pairs and parents as a warm start (joint_heldwarm.c):
 * *mate (n + 1 entries: a message's mate in a's pairs, else JOINT_NONE)
 * and *gpar (a pair's first message: its parent's first message, or
 * JOINT_NONE for a root; JOINT_UNPM_SKIP for the rest), both malloc'd
 * and the caller's to free; *np pairs with both messages, *ng parents
 * set.  Used by held_warm and bb_serial_warm (joint_bbser.c).  PB_OK or
 * PB_ENOMEM (err set; nothing allocated). */
int joint_heldwarm_start(const joint *a, size_t n, uint32_t **mate, uint32_t **gpar,
                         size_t *np, size_t *ng, pb_error *err);
/* joint_heldwarm.c, held_warm: the held search started from the free
 * search a's pairs and parents (*out NULL: not run, the caller runs the
 * whole held search); apply: the given parents set after the start
 * (joint.c's set-up); carry, meta: its record and metadata line */
int joint_heldwarm_run(joint **out, joint *a, const pb_trace_view *v, const joint_params *ph,
                       pb_error *err, const unsigned char *force, joint_selshare *share);
int joint_heldwarm_apply(joint *s);
/* held_repair, held_swaps: the held search's rounds into pw (from p);
 * back: b's options as p gave them (metadata) */
void joint_heldwarm_rounds(joint_params *pw, const joint_params *p);
void joint_heldwarm_rounds_back(joint *b, const joint_params *p);
void joint_heldwarm_carry(joint *to, const joint *from);
int joint_heldwarm_meta(const joint *s, pb_result *res);
int joint_search_warm(joint **out, const pb_trace_view *v, const joint_params *params,
                      pb_error *err, joint_selshare *share, const uint32_t *mate,
                      const uint32_t *gpar);
/* joint_thrwarm.c, thread_soft_pick=5 (h217): the inference with the
 * term muted; where it weighs a service, one more search with the term
 * from that solution's pairs, kept.  PB_OK or the set-up's error */
int joint_thrwarm_init(joint **out, const pb_trace_view *v, const joint_params *params,
                       pb_error *err);
/* joint_thread.c: some pair made without a call id (thread_soft_pick=5) */
int joint_thread_free_any(const joint *s);
/* joint_rsmemo.c, rs_memo: 1 when the re-split of q1, q2 with these lists
 * is that of the pair's last one under the same model, which kept its
 * split (its counters added); else 0 (and *rcp PB_ENOMEM on no room).
 * joint_rsmemo_done(s, kept) after every re-split it did not leave out
 * (PB_OK or PB_ENOMEM); _free at the end; _meta its line.  Tests: _off
 * (the rule never fires), _verify (made anyway; _bad counts those that
 * moved a call) */
int joint_rsmemo_skip(joint *s, uint32_t q1, uint32_t q2, const uint32_t *set, uint32_t m,
                      uint32_t cur, const uint32_t *f1, uint32_t n1, const uint32_t *f2,
                      uint32_t n2, int *rcp);
int joint_rsmemo_done(joint *s, int kept);
void joint_rsmemo_free(joint *s);
int joint_rsmemo_meta(const joint *s, pb_result *res);
extern int joint_rsmemo_test_off;
extern int joint_rsmemo_test_verify;
extern size_t joint_rsmemo_test_bad;
/* joint_cfratio.c, conf_ratio_copy: the doubt ratio's copy side where the
 * result's confidences use a shuffled copy.  begin: set up (PB_OK or
 * PB_ENOMEM); plain_wanted: 1 when a copy without the shuffle is to be
 * made; row: a shuffled copy's row (mode 2); take_plain: the plain copy's
 * rows taken out of scal_stat (restored to before, nstat per link);
 * copy_side: link l's copy rows and summed doubt (unchanged when off);
 * end: freed; meta: its line */
int joint_cfr_begin(joint *s);
int joint_cfr_plain_wanted(const joint *s);
void joint_cfr_row(joint *s, uint32_t link, double stated, int unmoved);
void joint_cfr_take_plain(joint *s, const double *before, size_t nstat);
void joint_cfr_copy_side(const joint *s, uint32_t l, double *rows, double *doubt);
void joint_cfr_end(joint *s);
int joint_cfr_meta(const joint *s, pb_result *res);

/* thread_soft: may the term weigh visit q's walk (joint_thread.c; h225) */
int joint_thread_weighs(const joint *s, uint32_t q);

/* joint_memraw.c: joint_fit's raw-histogram memo, each key's filled bins only */
int joint_mr_begin(joint *s);
const double *joint_mr_row(const joint *s, uint32_t k);
double *joint_mr_put(joint *s, uint32_t k, size_t n);
size_t joint_mr_used(const joint *s); /* doubles the memo holds (tests) */

/* swap_level_memo (joint_xm.c): the exchanges' level values kept within a
 * pass of exchanges or a scoring of pair shares; begin (off: nothing),
 * touched: the requests an applied exchange changed, end (the tables kept
 * for the next pass, their entries dropped); get: 1 and *v when kept (the
 * counters the first scoring moved added again), put: kept with the
 * counters moved since `before` (joint_xm_counts) */
#define JOINT_XM_NCOUNT 10
int joint_xm_begin(joint *s);
void joint_xm_touched(joint *s, const uint32_t *q, uint32_t n);
void joint_xm_end(joint *s);
void joint_xm_free(joint *s); /* the tables, kept from pass to pass (joint_xwalk_free) */
void joint_xm_counts(const joint *s, size_t *c);
int joint_xm_get(joint *s, uint32_t x, uint32_t y, uint32_t kx, uint32_t ky, uint32_t own,
                 double *v);
int joint_xm_put(joint *s, uint32_t x, uint32_t y, uint32_t kx, uint32_t ky, uint32_t own,
                 double v, const size_t *before, int flip);
extern int joint_xm_test_nokid; /* tests: 1 the key without the exchanged calls, 2 without
                                   own (wrong on purpose) */
extern size_t joint_xm_test_hits; /* tests: values taken from the tables, all runs */
/* joint_ordjit.c, order_jitter: the stamp jitter of a link's m whole pairs
 * (the larger median absolute deviation of their call and return delays;
 * buf: m scratch stamps); joint_ordjit_tie: 1 when answers sent at rx and
 * ry are a near-tie under jitter j (order_cross's step only) */
pb_ns joint_ordjit_link(const joint *s, const uint32_t *pairs, uint32_t m, pb_ns *buf);
int joint_ordjit_tie(const joint *s, pb_ns j, pb_ns rx, pb_ns ry);
int joint_ordjit_first(const joint *s, const pb_ns *jit, double k, double *n, double *kk,
                       double *ties);
/* joint_order.c: order_jitter's near-ties counted at the last fit (metadata) */
double joint_rord_near_ties(const joint *s);

/* sv_lazy (joint_sv.c): the free search paused, the held one run, the free
 * one resumed only when the held one's lead is within reach */
int joint_sv_mark(joint *s);
int joint_sv_resume(joint *s); /* joint.c */
int joint_sv_held(joint *a, const pb_trace_view *v, const joint_params *ph,
                  const joint_params *params, pb_error *err, const unsigned char *force,
                  joint_selshare *share, joint **bout, int *early);
int joint_sv_meta(const joint *s, pb_result *res);
int joint_sv_held_wanted(joint *b, int wanted);
void joint_sv_first(joint *s);
int joint_heldskip_maybe(joint *a); /* joint_heldskip.c */
/* joint_cfmin.c, conf_ratio_min: the confidence as the lower of the
 * shuffled and the plain copy's maps (1), or the larger of the two doubt
 * ratios (2).  keep: 1 when the plain copy's rows are to be kept; fit:
 * its maps (PB_OK or PB_ENOMEM; nothing when off); at: link l's plain
 * map at c (1 when off); ratio: the ratio r or, mode 2, the larger of r
 * and the shuffled copy's (st: the link's scal_stat counters) */
typedef struct joint_cfmin {
    int on;
    uint32_t nl;
    double *lo, *val;
    uint32_t *off;
} joint_cfmin;
void joint_cfmin_init(joint_cfmin *m);
int joint_cfmin_keep(const joint *s);
int joint_cfmin_fit(const joint *s, joint_spt *pts, uint32_t np, joint_cfmin *m);
double joint_cfmin_at(const joint_cfmin *m, uint32_t l, double c);
double joint_cfmin_ratio(const joint *s, double r, const double *st);
void joint_cfmin_free(joint_cfmin *m);
int joint_cfmin_meta(const joint *s, pb_result *res);
/* unp_predict (joint_unplp.c): the first search s's two solutions re-scored
 * with force's pairs changed in place into rec (rec[0] 1 when measured;
 * rec[1] the first search's held - free log-likelihood, rec[2] the
 * re-scored one, rec[3] its pord_chosen).  PB_OK or the search's error.
 * joint_unplp_meta: the unp_predict= line */
int joint_unplp_predict(const joint *s, const pb_trace_view *v, const joint_params *params,
                        const unsigned char *force, pb_error *err, double rec[6]);
int joint_unplp_meta(const joint *s, pb_result *res);
/* rec with the second search t's choice into both searches' record */
void joint_unplp_second(joint *s, joint *t, double rec[6]);
/* joint_thrtest.c, thread_soft_pick=6 (h233): keep the term's solution s
 * (1) or the other t by the thread test's counts in each against the
 * delays' log-likelihoods ls, lt; joint_thread.c: the counts (answers,
 * misses, chance's) over the services w weighs, on s's pairing, and the
 * record the metadata prints */
int joint_thrtest_pick(joint *s, joint *t, double ls, double lt);
int joint_thread_count(joint *s, const joint *w, double out[3]);
void joint_thread_rt(joint *s, const double rt[5]);

/* joint_unpinh.c, unp_pcheck (h241): the second search's options from the
 * first search s's parallel_check_bb verdict (1 changed), restored after */
int joint_unpinh_params(const joint *s, const joint_params *params, joint_params *p2);
void joint_unpinh_after(joint *t, const joint_params *params, const joint_params *p2);
int joint_unpinh_meta(const joint *s, pb_result *res);

/* joint_pshare.c (h241): a holder with share's pairing only (moved), for
 * parallel_check_bb's gate search; NULL when there is none */
joint_selshare *joint_pshare_hand(joint_selshare *share);
/* joint_scopy.c, conf_copy_stage (h238): the calibration's copy made
 * small first.  joint_scopy_selfcal: joint_selfcal staged (the hook in
 * joint_confidence); joint_scopy_budget: the stage's window and
 * conf_copy_share's (pick_roots' hook; budget unchanged outside them); joint_scopy_check: whether
 * every real row's bin is settled (after the real rows are mapped; *rc
 * PB_ENOMEM when out of memory); joint_scopy_meta: its line */
int joint_scopy_selfcal(joint *s, const double *share, double *conf,
                        int (*shares)(joint *, double *));
size_t joint_scopy_budget(joint *s, size_t budget, size_t total, int floor_pairs);
void joint_scopy_check(joint *s, const joint_spt *pts, uint32_t np, const unsigned char *exr,
                       int *rc);
int joint_scopy_meta(const joint *s, pb_result *res);
/* joint_cfalike.c, conf_alike: flags: per pair of s, alike (its cheapest
 * other candidate within conf_alike_tie nats, or holding an alike call of
 * its link), into s->cfa_flag (joint_call_shares' end); row: copy s2's
 * row p2 (link l, right or not) counted into s; apply: real alike rows
 * capped at the copy's share right, down their trees; meta: metadata;
 * free: NULL-safe. */
int joint_cfa_flags(joint *s);
void joint_cfa_row(joint *s, const joint *s2, uint32_t p2, uint32_t l, int ok, double c);
int joint_cfa_apply(joint *s, double *conf);
int joint_cfa_meta(const joint *s, pb_result *res);
void joint_cfa_free(joint *s);
/* joint_tcache.c, tcache_delay (h240): 0; a unit test sets it (a kept
 * slot's delay read one bin off, on purpose) */
extern int joint_tcache_test_delay;

/* joint_cfast.c, cand_fast (h240): a service's requests (positions in
 * the order they began: in[0..n)) sorted once by (end, position), a
 * Fenwick tree of those begun; joint_cfast_pick: with the max-tree t of
 * joint_csweep.c over the same positions, the list's length in *got and,
 * when it is longer than kmax (returns 1), the positions joint_cand_ends
 * keeps of the full list (rot: the call's rank) in the order of open in
 * out[0..kmax); 0: the caller takes the list itself */
typedef struct joint_cf_ent {
    pb_ns e;
    uint32_t pos;
} joint_cf_ent;
typedef struct joint_cfast {
    joint_cf_ent *ord;
    const insort *in;
    uint32_t *rank, *fw, *mark, *tmp;
    uint32_t n, lg, cap, stamp;
} joint_cfast;
int joint_cfast_init(const joint *s, joint_cfast *f, const insort *in, uint32_t n);
void joint_cfast_begin(joint_cfast *f, uint32_t pos);
int joint_cfast_pick(const joint *s, const joint_ctree *t, joint_cfast *f, pb_ns w, pb_ns lw,
                     pb_ns cs, pb_ns rr, size_t kmax, size_t rot, uint32_t *out, size_t *got);
void joint_cfast_free(joint_cfast *f);
/* joint_cfast.c: 0; a unit test sets it (the end run's window one off) */
extern int joint_cfast_test_wrong;
/* thread_soft_pick=7 (joint_thrmove.c, h245): pick=6's test, then S kept
 * only when the calls it moves are at most thread_soft_moves times the
 * misses it mends; _ok the bare comparison (1: keep); _meta its line */
int joint_thrmove_pick(joint *s, joint *t, double ls, double lt);
int joint_thrmove_ok(double moved, double mended, double ratio);
int joint_thrmove_meta(const joint *s, pb_result *res);

/* unp_alt (joint_unpalt.c, h249): the first search s and its other free /
 * held solution u compared piece by piece and merged into *sp (u and the
 * one not output closed; rec: on, pieces, taken, output 1 first 2 other 3
 * merged); link_spans: each link's median first-search pair into w[0..nlinks];
 * meta: its line */
int joint_unpa_first(joint **sp, joint *u, const pb_trace_view *v, pb_error *err, double rec[4]);
int joint_unpa_link_spans(const joint *f, pb_ns *w);
int joint_unpa_meta(const joint *s, pb_result *res);
/* unp_alt=3: 1 when the default's window is over unp_win_max and the
 * cut's is not, 0 else, -1 out of memory; joint_unpwin.c: a window's size
 * (med: the cut's) */
int joint_unpa_gate(const joint *s, const unsigned char *force, const joint_params *params);
int joint_unpw_size(const joint *f, const unsigned char *force, int med, size_t *nwin);
/* joint_shed.c (h250): the search's scratch that every later use empties
 * first (the local search's table of pairs tried) freed before the output's
 * confidence; joint_shed_last: the bytes the last call freed (tests) */
void joint_shed_search(joint *s);
extern size_t joint_shed_last;
/* joint_shed.c: joint_fit's memo (hraw) freed after the output's confidence */
void joint_shed_memo(joint *s);
/* conf_copy_warm (joint_scwarm.c, h247): the calibration copy's search
 * from its own truth.  _params on the copy's options (sim_points);
 * _given in the copy's set-up (joint_init_one_g): its pairs and parents
 * from the real solution (p.scw_from), by message ids; _done after its
 * search; _free in close_one.  PB_OK or PB_ENOMEM */
void joint_scw_params(const joint *s, joint_params *p2);
int joint_scw_given(joint *s);
void joint_scw_done(joint *s);
void joint_scw_free(joint *s);
/* conf_copy_warm: a copy's record added to the real trace's (sim_points);
 * its metadata line (from joint_scopy_meta) */
void joint_scw_count(joint *s, const joint *s2);
int joint_scw_meta(const joint *s, pb_result *res);
/* late_trust's trust alone (joint_latetrust.c, h247): where the result's
 * confidences are computed again whatever late_trust decides, its pass
 * runs the copies and their per-link counts only (joint_selfcal with
 * share NULL, p.lt_only); _judged: a row whose link's trust it reads;
 * _only_rows: every such row escapes (so none is exempt); else
 * joint_selfcal returns JOINT_LT_FULL before any copy */
#define JOINT_LT_FULL 1
int joint_lt_judged(const joint *s, uint32_t p);
int joint_lt_only_rows(const joint *s, const double *esc);
/* joint_cfseries.c, conf_series: a call's share also counts the moves of a
 * series of calls of its link each shifted by one request.  init: the
 * context (NULL when off; *rc PB_OK or PB_ENOMEM); shares: for every call
 * whose share (1 / (1 + single[p] + chainw[p])) is conf_series_min or
 * more, adds the series' alternatives to chainw[p]; ll walks request q
 * with kids k[0..n) as joint_req_walk mode 0 (rll: every request's own);
 * meta: the metadata line; free: NULL-safe. */
typedef struct joint_cfs joint_cfs;
typedef int (*joint_cfs_ll)(joint *s, void *ctx, uint32_t q, const uint32_t *k, uint32_t n,
                            double *ll);
joint_cfs *joint_cfs_init(joint *s, int *rc);
int joint_cfs_shares(joint *s, joint_cfs *c, const double *rll, joint_cfs_ll ll, void *ctx,
                     const double *single, double *chainw);
int joint_cfs_meta(const joint *s, pb_result *res);
void joint_cfs_free(joint_cfs *c);

/* joint_cfse.c, conf_copy_se: the self-calibration map at a lower bound of
 * each block's share right (Wilson, conf_copy_se_z standard errors, a
 * request's rows counted as one).  fit: from the copy rows pts[0..np) (nl
 * links; sorted here), nothing when off; at: the bound's map of link l (or
 * all links) at stated share v, 1 when off; meta: the metadata line; free:
 * on a fitted or zeroed context. */
typedef struct joint_cfse {
    int on;
    uint32_t nl;
    double *lo, *val;
    uint32_t *off;
} joint_cfse;
int joint_cfse_fit(joint *s, joint_spt *pts, uint32_t np, uint32_t nl, joint_cfse *c);
double joint_cfse_at(const joint_cfse *c, uint32_t l, double v);
int joint_cfse_meta(const joint *s, pb_result *res);
void joint_cfse_free(joint_cfse *c);

/* joint_canon.c: nodes and labels numbered by first appearance in the
 * messages (shuffled rows read with --sort give the same numbering); *out
 * is v, or a copy in *msgs and *nodes (the caller frees them, NULL when v
 * was already in that numbering) */
int joint_canon_prepare(const pb_trace_view *v, pb_trace_view *out, pb_msg **msgs,
                        pb_strtab **nodes);

/* joint_conf.c: k[0..n) (by call time) without `out` and with `in`
 * (JOINT_NONE: none of either), by call time, into o; returns the length */
uint32_t joint_conf_edit_list(const joint *s, const uint32_t *k, uint32_t n, uint32_t out,
                              uint32_t in, uint32_t *o);

/* joint_busyheld.c, busy_links: the busy test's services found
 * serialising (st[.. + 6] == 1) re-tested link by link against
 * JOINT_PICK_SIMS copies of a (=1), or as a whole against copies of the
 * held solution b (=2); those not short withdrawn (sum[1] less their
 * changed pairs).  PB_OK or PB_ENOMEM */
int joint_busyheld(const joint *a, const joint *b, const pb_ns *win,
                   const unsigned char *serves, double *st, double *sum);

/* joint_pick.c: busy landings per link (calls[l], busy[l]) of s's pairs,
 * of the stamps scr/srs where given, or of the copy t made from s (pair
 * p's call and return have ids 2p+1, 2p+2); PB_OK or PB_ENOMEM */
int joint_pick_busy_of(const joint *s, const pb_trace *t, const pb_ns *scr, const pb_ns *srs,
                       const pb_ns *win, double *calls, double *busy);

/* joint_unpcopy.c, unp_copy: its value where p is a copy's (p->sel_from)
 * running unpaired=1, else 0 */
int joint_unpc_mode(const joint_params *p);

/* joint_unpcopy.c, unp_copy: the lossy copy s2 of s (NULL: none) counted in
 * s->unpc_rec (a hook in joint_selfcal.c's sim_points); the metadata line
 * where unp_copy is set */
void joint_unpc_count(joint *s, const joint *s2);
int joint_unpc_meta(const joint *s, pb_result *res);
/* joint_select.c (h262): joint_select's table (s->sel) is read-only once
 * made; a holder (select_share's, joint_fitfast.c) takes the same table
 * (joint_sel_hold returns it, counted) and lets it go with
 * joint_sel_release (the last one frees it).  NULL-safe. */
struct joint_sel *joint_sel_hold(struct joint_sel *t);
void joint_sel_release(struct joint_sel *t);
/* the bytes s's table holds (its entries and index; 0 without one), its
 * entries (*entries: the services with callers) and holders (*holders:
 * the searches and select_share's holder sharing it); a debug count for
 * tests/unit/test_joint_selshape.c */
size_t joint_select_bytes(const joint *s, uint32_t *entries, uint32_t *holders);
/* joint_bnbenv.c, bnb_env: per density key list and bin, the branch and
 * bound's step bound parts (T: the largest log density of the bin or the
 * one below, R: the largest term from the next bin up; joint_bnb.c fills
 * bin b when st[b] != ep); valid for one fit (gen) and bin count */
#define JOINT_BENV_KMAX 32
typedef struct joint_benv {
    uint32_t gen, nb, nk, bad, ep;
    uint32_t keys[JOINT_BENV_KMAX];
    uint32_t *st;
    double *T, *R;
} joint_benv;
struct joint_benvtab;
/* the list keys[0..nk) of fit gen with nb bins (found, or a slot made
 * anew), or NULL (too many keys, no room, or a NaN seen: bad) */
joint_benv *joint_benv_get(struct joint_benvtab **t, const uint32_t *keys, uint32_t nk,
                           uint32_t gen, uint32_t nb);
void joint_benv_free(struct joint_benvtab *t);
/* joint_lsconfirm.c, rs_confirm: joint_lscf_want gives 1 (and the record's
 * value and margin) when the pair's last kept re-split of this kind of
 * solve had fingerprint fp (joint_lsmg_fp) and a margin of at least
 * rs_confirm; joint_lscf_skip(s, v, v0, margin) with the current split's
 * value now gives 1 when the re-split is left out; joint_lscf_note after a
 * re-split that kept its split; joint_lscf_keep the pure test */
int joint_lscf_on(const joint *s);
uint64_t joint_lscf_fp_shared(const joint *s, uint32_t q1, uint32_t q2, const uint32_t *set,
                              uint32_t m, uint32_t cur);
int joint_lscf_want(const joint *s, uint32_t q1, uint32_t q2, uint64_t fp, double *v0,
                    double *margin);
int joint_lscf_keep(double margin, double v, double v0, double t);
int joint_lscf_skip(joint *s, double v, double v0, double margin);
int joint_lscf_note(joint *s, uint32_t q1, uint32_t q2, uint64_t fp, double v0, double margin);
void joint_lscf_free(joint *s);
int joint_lscf_meta(const joint *s, pb_result *res);
extern int joint_lscf_test_verify;
extern int joint_lscf_test_nodrift;

/* the declarations from conf_twin on (and every new rule's) */
#include "joint_rules_more.h"

#endif
