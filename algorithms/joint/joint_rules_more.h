/*
 * joint_rules_more.h - the declarations of joint's rules from conf_twin on
 * (the thirtieth wave and after: fifo_lifo, the second search's rounds,
 * busy_arr, the copies' events maps, unp_where, sv_cut and what came
 * with them).  Split from joint_rules.h (its length) and included at its
 * end, so every type joint_rules.h declares is known here.  New rules'
 * declarations are appended at the end of this file.  Not a public
 * interface.
 */
#ifndef JOINT_RULES_MORE_H
#define JOINT_RULES_MORE_H

/* joint_cftwin.c, conf_twin: after every cap, the rows a request's answer
 * triggered in its caller (and below and after them) stated at most the
 * confidence of the call that triggered the answer, where a twin of the
 * request (same link, movable answer) is one of that call's candidates;
 * meta.  PB_OK or PB_ENOMEM */
int joint_cftw_apply(joint *s, double *conf);
int joint_cftw_keep(joint *s, const double *ps);
int joint_cftw_meta(const joint *s, pb_result *res);
/* joint_fifolifo.c, fifo_lifo: each link the fifo test passed checked
 * against a pool whose answers overtake (last-in-first-out durations
 * tighter than one worker's service times); s->fifo_link[l] cleared
 * where so.  PB_OK or PB_ENOMEM */
int joint_fifolifo_all(joint *s);
/* joint_fifolifo.c: link l's fifo verdict withdrawn by fifo_lifo */
int joint_fifolifo_withdrawn(const joint *s, uint32_t l);
/* joint_fifolifo.c: one fifo_lifo= line per link it looked at */
void joint_fifolifo_meta(const joint *s, pb_result *res);
/* joint_unprounds.c, unp_repair / unp_swaps: the whole second search's
 * rounds into p2 (from params); 1 when either is set */
int joint_unpr_params(joint_params *p2, const joint_params *params);
/* joint_unprounds.c: the second solution t's repair / swap_rounds set
 * back to the caller's */
void joint_unpr_after(joint *t, const joint_params *params);
/* joint_unprounds.c: the unp_rounds line where either option is set */
int joint_unpr_meta(const joint *s, pb_result *res);
/* joint_unpwarm.c, unp_warm: the whole second search as one search of the
 * first search f's kind, started from f's pairs and parents (force: the
 * messages left unpaired / paired); *done 0 where it does not apply (then
 * *out NULL).  PB_OK or the error (err filled) */
int joint_unpwarm_second(joint **out, const pb_trace_view *v, const joint_params *params,
                         const joint *f, const unsigned char *force, pb_error *err, int *done);

/* joint_scedge.c, conf_copy_margin (h267): after pick_roots, the real
 * pairs whose request is next to a cut of the copy's window (s->sce_edge;
 * PB_OK or PB_ENOMEM); _skip: whether real pair i's copy row is left out
 * of the counts (counted); _free; _meta */
int joint_sce_mark(joint *s, const unsigned char *pick);
int joint_sce_skip(joint *s, uint32_t i);
void joint_sce_free(joint *s);
int joint_sce_meta(const joint *s, pb_result *res);
/* joint_busyarr.c, busy_arr: the busy landings of the trace's own whole
 * pairs' arrivals, each given a duration drawn (seed) from the copy's
 * (stamps ccr, crs) on its link, added per caller service to calls, busy.
 * PB_OK or PB_ENOMEM */
int joint_busyarr_add(const joint *s, const pb_ns *ccr, const pb_ns *crs, const pb_ns *win,
                      uint32_t seed, double *calls, double *busy);
/* joint_busyarr.c: the same of a copy made as a trace t (busy_copy_lean=0) */
int joint_busyarr_add_trace(const joint *s, const pb_trace *t, const pb_ns *win, uint32_t seed,
                            double *calls, double *busy);
/* joint_busyarr.c: does busy_arr mode (1 every verdict, 2 where the held
 * search rewrites most of the service) check a service with calls tested
 * and changed pairs?  1 or 0 */
int joint_busyarr_asks(int mode, double calls, double changed);
/* joint_busyarr.c: z of share b1 / n1 against b2 / n2 (pooled) */
double joint_busyarr_z(double n1, double b1, double n2, double b2);

/* joint_cfev.c, conf_copy_events: the self-calibration map with the copy's
 * rows counted in units of m, its wrong rows per request holding one.
 * row: one copy row p2 of copy s2 (link l, right or not), from the copy's
 * row loop; m: m[0..nl] the design effect per link (m[nl]: the all-links
 * map's) over the rows seen since the last call (at least 1), and the rows
 * forgotten (PB_OK or PB_ENOMEM, m all 1 then); reset: forget them (close);
 * meta: the metadata line. */
typedef struct joint_cevrow {
    uint32_t l, copy, root;
    unsigned char ok;
} joint_cevrow;
void joint_cfev_row(joint *s, const joint *s2, uint32_t p2, uint32_t l, int ok);
int joint_cfev_m(joint *s, uint32_t nl, double *m);
void joint_cfev_reset(joint *s);
int joint_cfev_meta(const joint *s, pb_result *res);
/* joint_cfempty.c, conf_empty_twin: the calls a request out of place
 * without any call could hold capped, and the rows below them (after every
 * other cap); PB_OK or PB_ENOMEM; meta: the metadata line. */
int joint_cfem_apply(joint *s, double *conf);
int joint_cfem_meta(const joint *s, pb_result *res);

/* sv_early and sv_cut (joint_svearly.c's joint_sv_race, one skeleton):
 * with sv_lazy, parallel_check_bb's early run made beside the paused free
 * search a (*early 1: kept, *bout the run); else a run on: at
 * JOINT_SVR_MARK (sv_early, a paused at its main solve's mark) to its end,
 * the run left on a->sve_w for init_choose; at JOINT_SVR_ROUND (sv_cut, a
 * paused after a re-pairing round) to its mark, the run dropped.  PB_OK or
 * an error (set in err) */
enum { JOINT_SVR_MARK = 0, JOINT_SVR_ROUND = 1 };
int joint_sv_race(joint *a, const pb_trace_view *v, const joint_params *ph,
                  const joint_params *params, pb_error *err, const unsigned char *force,
                  joint_selshare *share, int at, joint **bout, int *early);
/* the race's keep test (joint_sv_leads): at JOINT_SVR_ROUND the free
 * search's last change counts by its absolute value (sv_cut), at
 * JOINT_SVR_MARK as it is (sv_early) */
int joint_sv_race_keeps(int at, double k, int take, const double a_pre[2], const double a_mid[2],
                        const double w_mid[2], const double w_end[2], double *lead, double *gain);
/* sv_early's rule: 1 when the early run (its log-likelihood at its mark
 * and end, plain and with the thread term muted) is kept over the paused
 * free search (at its main solve's first refit and at the pause): take,
 * and the lead over a_mid above JOINT_RESTART_MARGIN + k * the larger of
 * the two gains (at least 0), in both; *lead and *gain the plain ones */
/* joint_sv.c: the log-likelihood, plain (out[0]) and with the thread term
 * muted where thread_soft_pick would (out[1]) */
void joint_sv_ll(joint *s, double out[2]);
/* joint_svearly.c: sv_early's and sv_cut's keep test: true when take and
 * the early run's lead over the paused free search (w_end - a_mid) is
 * beyond JOINT_RESTART_MARGIN + k times what the free search may still
 * gain (the larger of the early run's own gain w_end - w_mid and the free
 * search's last change a_mid - a_pre, its absolute value with abs_gain),
 * plain and thread-muted; *lead and *gain the plain ones */
int joint_sv_leads(double k, int take, const double a_pre[2], const double a_mid[2],
                   const double w_mid[2], const double w_end[2], int abs_gain, double *lead,
                   double *gain);
int joint_sve_keeps(double k, int take, const double a_pre[2], const double a_mid[2],
                    const double w_mid[2], const double w_end[2], double *lead, double *gain);
/* init_choose's early run: the one sv_early made (taken off a), or NULL */
joint *joint_sve_take(joint *a);
/* joint_close's chain: an early run s still holds goes before next (freed
 * in joint_close's loop, not by recursion) */
joint *joint_sve_chain(joint *s, joint *next);
/* tests: sv_early's early keeps, and runs made beside a paused free search */
extern int joint_sve_test_kept, joint_sve_test_made;

/* joint_thrheld.c, thread_soft_heldout (h274): _d: *d (the rate test's
 * in-sample D, T's ll less S's without the term) replaced by the
 * cross-fitted difference (s the term's solution, unmuted; t the other,
 * muted; both refitted to all their pairs after); PB_OK, PB_ENOMEM or
 * PB_EINVAL (*d unchanged).  _carry: the record to the solution kept;
 * _free; _meta */
int joint_thrheld_d(joint *s, joint *t, double *d);
void joint_thrheld_carry(joint *keep, joint *from);
void joint_thrheld_free(joint *s);
int joint_thrheld_meta(const joint *s, pb_result *res);

/* joint_pick.c: a copy made as a trace, pair p's call received and return
 * sent stamps into cr[p], rs[p] (ids 2p+1, 2p+2; others left out) */
void joint_pick_copy_stamps(const pb_trace *t, uint32_t np, pb_ns *cr, pb_ns *rs);
/* joint_unpone.c: the second search s takes the first search f's window,
 * sums and held_skip record */
void joint_unp_carry_first(joint *s, const joint *f);
/* joint_unpwhere.c (unp_where): where the whole second search's pieces
 * lie against the window by candidate requests.  joint_unpwh_note (in
 * joint_unpp_take): f, s the first and second search, pc per message its
 * piece or JOINT_NONE, tk / llr per piece; the record into f and s; with
 * unp_where=2 the taken pieces outside the window are not taken (tk
 * cleared): their count returned.  joint_unpwh_meta: its line */
uint32_t joint_unpwh_note(joint *f, joint *s, const uint32_t *pc, uint32_t np,
                          unsigned char *tk, const double *llr);
int joint_unpwh_meta(const joint *s, pb_result *res);

/* joint_cfev2.c, conf_copy_events_second (h279): a second calibration copy
 * where the events map alone takes at least that share of the rows below
 * 0.9, 0.95 or 0.99.  begin: with one copy drawn, *conf0 the rows as they
 * stand (else NULL); row: one real row's stated share c, its error without
 * the events map e and the events map's es (stk[p] set at stake); save:
 * the first copy's event rows kept (before joint_cfse_fit forgets them);
 * again: 1 (the first fit's rows kept in *first, the rows put back from conf0) where
 * a second copy is due; keep (after the second fit): every row not at
 * stake back to the first fit's value; merge: the first copy's
 * event rows pooled with the second's; end: forget them; meta: the
 * metadata line.  PB_OK or PB_ENOMEM */
int joint_cfev2_begin(joint *s, const double *conf, uint32_t n, int copies, double **conf0,
                      unsigned char **stk);
void joint_cfev2_row(joint *s, unsigned char *stk, uint32_t p, double c, double e, double es);
void joint_cfev2_keep(double *conf, const double *first, const unsigned char *stk, uint32_t n);
int joint_cfev2_save(joint *s);
int joint_cfev2_again(joint *s, double *conf, const double *conf0, uint32_t n, double **first);
int joint_cfev2_merge(joint *s);
void joint_cfev2_end(joint *s);
int joint_cfev2_meta(const joint *s, pb_result *res);
/* par_tie (joint_partie.c): the tick within which a return and a send are
 * tied for the parallel-call counts (0: the rule is off here), and whether
 * times a and b lie in one such tick */
pb_ns joint_partie_tick(const joint *s);
int joint_partie_same(pb_ns a, pb_ns b, pb_ns tick);
int joint_partie_meta(const joint *s, pb_result *res);
/* unp_freeze (joint_unpfreeze.c): second: the whole second search with the
 * requests outside the window (in[]: per message 1 inside) frozen as f has
 * them, into *out (its record in unpw_*; PB_OK or an error set in err);
 * setup (joint.c's set-up, before the pairing): the frozen pairs given when
 * params->unp_frz is this trace's; cands (the end of joint_find_candidates):
 * each frozen call's parent its only candidate, its return not movable.
 * PB_OK or PB_ENOMEM */
int joint_unpf_second(joint **out, const pb_trace_view *v, const joint_params *params,
                      joint *f, const unsigned char *force, const unsigned char *in,
                      size_t nseed, pb_error *err);
void joint_unpf_setup(joint *s);
int joint_unpf_cands(joint *s);
/* conf_copy_events_agree (joint_cfev2agree.c, h287): links, per link whether
 * the two copies agree (the second copy's share of wrong rows at most the
 * first's), from the first copy's saved event rows and the second's, before
 * joint_cfev2_merge pools them; keep: a row at stake of a link that does not
 * agree back to the first fit's value; end: forget; meta: the metadata line */
int joint_cfev2a_links(joint *s);
void joint_cfev2a_keep(joint *s, double *conf, const double *first, const unsigned char *stk,
                       uint32_t n);
void joint_cfev2a_end(joint *s);
/* conf_copy_events_agree=2: the siblings cap's copy record saved before the
 * second copy is drawn (restore 0) and put back after it (restore 1) */
void joint_cfev2a_sib(joint *s, int restore);
int joint_cfev2a_meta(const joint *s, pb_result *res);
/* conf_copy_multi (joint_cfmulti.c, h287): reset: forget the copy rows
 * (each self-calibration starts and ends so; the record stays); row: copy row p2 of s2 (link l, right
 * or not, stated c) counted when its request holds another call of its
 * link; fit: per link (and all links, index nl) the map of those rows
 * (joint_cfthin's shape; free with joint_cfmu_free); at: real pair p's
 * value at stated c (1: not such a row, or no map); meta: metadata */
void joint_cfmu_reset(joint *s);
void joint_cfmu_row(joint *s, const joint *s2, uint32_t p2, uint32_t l, int ok, double c);
int joint_cfmu_fit(joint *s, uint32_t nl, const double *conf, const unsigned char *exr,
                   joint_cfthin *t);
void joint_cfmu_free(joint_cfthin *t);
double joint_cfmu_at(const joint *s, const joint_cfthin *t, uint32_t p, double c, double r);
int joint_cfmu_meta(const joint *s, pb_result *res);
/* tie_excess (joint_tieexcess.c), tie_test=2's rule (h280): as
 * joint_quant_keep_start, and the search's gain also under JOINT_QUANT_GAIN
 * nats a move within a tick (tied) plus excess nats: 1 keep the start, 0 the
 * search (excess 0: tie_test=2 as h280 built it) */
int joint_tieexcess_keep_start(size_t changed, size_t tied, double ll_start, double ll_search,
                               double excess);
/* tie_choose (joint_tiechoose.c): the free and held searches' log-likelihoods
 * *l0a, *l0b (b may be NULL) less JOINT_QUANT_GAIN a move within a tick where
 * the search's tie test kept a search tie_test=1 would have put back; for
 * init_choose's comparison only; nothing unless tie_choose and tie_test=2 */
void joint_tiechoose_adjust(const joint *a, const joint *b, double *l0a, double *l0b);
/* conf_copy_share_z (joint_scz.c): joint_scz_note records the share f of
 * the pairs the result's calibration copy holds against the default copy
 * (full pairs, got kept; from joint_scopy_budget); joint_scz_z the events
 * map's z given conf_copy_events_z (max of it and k (1 - sqrt f));
 * joint_scz_meta its line */
void joint_scz_note(joint *s, size_t full, size_t got);
double joint_scz_z(const joint *s, double z);
int joint_scz_meta(const joint *s, pb_result *res);
/* conf_copy_share_z: the copy rows a link needs for a map of its own,
 * JOINT_SELFCAL_MIN scaled by f (the default copy would hold 1 / f as
 * many); joint_fit_maps with that threshold (joint_pav.c) */
uint32_t joint_scz_min(const joint *s);
void joint_fit_maps_min(joint_spt *pts, uint32_t np, uint32_t nl, double *lo, double *val,
                        double *w, double *kk, uint32_t *cls_off, uint32_t min, int *rc);
/* sv_cut (joint_svcut.c): the free search of init_choose, where
 * parallel_check_bb's early run is due, paused after a later re-pairing
 * round's closed solve and refit; 1 when it paused there (round r) */
int joint_svc_round(joint *s, int r);
/* sv_cut: the lead and gain test (tests) */
int joint_svc_keeps(double k, int take, const double a_prev[2], const double a_cut[2],
                    const double w_round[2], const double w_end[2], double *lead, double *gain);
int joint_svc_meta(const joint *s, pb_result *res);
extern int joint_svc_test_kept, joint_svc_test_made;
/* joint.c: a search paused by sv_cut run on: to_mark 1, to its main
 * solve's mark (paused there when sv_lazy would pause it), 0 to its end */
int joint_svc_resume(joint *s, int to_mark);
/* tie_sets_search (joint_tiesearch.c): joint_tiesearch_keep, in the tie test
 * (joint_quant.c): keep as tie_test=2 decided it, or 1 with s->tsrch set where
 * the option is on and only tie_test=1 (keep1) would keep the start.
 * joint_tiesearch_after (joint_tieset_after): where the sets did not refute
 * that start, the saved search put back whole and
 * refitted (PB_OK or PB_ENOMEM).  joint_tiesearch_meta: its line where it ran */
int joint_tiesearch_keep(joint *s, int keep, int keep1);
int joint_tiesearch_after(joint *s, int refuted);
int joint_tiesearch_meta(const joint *s, pb_result *res);
/* late_widen_z (joint_latewiden.c): widen=all for late service a (joint_late.c)
 * from its near orphans, their count n, mean chance, the chance count's
 * variance and the excess; records the bound in late_stat[11].
 * joint_late_widen_low: (near - m - z sqrt var) / near, at least 0 */
double joint_late_widen_low(double near, double m, double var, double z);
int joint_late_widen(joint *s, uint32_t a, double near, double n, double chance, double var,
                     double excess);
void joint_late_widen_meta(const joint *s, pb_result *res);

/* unp_lite (joint_unplite.c): with unpaired=1, where a link (caller,
 * callee) holds unequal calls and returns without call ids
 * (joint_unpl_unequal: their count, -1 out of memory), a cheap first search
 * decides the forced messages and the forced search alone is the output.
 * joint_unpl_run: *out that search (the caller's path skipped), or NULL
 * (the default's path; rec says why).  joint_unpl_meta: its line */
long joint_unpl_unequal(const pb_trace_view *v, const joint_params *p);
int joint_unpl_run(joint **out, const pb_trace_view *v, const joint_params *params,
                   pb_error *err, unsigned char **force_out, double rec[6], double crec[12]);
int joint_unpl_meta(const joint *s, pb_result *res);
/* conf_sim_shape (joint_simshape.c; confidences only): the calibration
 * copy's delays also filed by the request's number of calls (size), a draw
 * taking the (key, size) delays where they number at least minn.  add: one
 * delay of key id (joint_simulate.c's) in a request of that size; finish:
 * the lists made, each tested against its key's (poff, pdl: the key lists,
 * as joint_simulate.c's off and dl; NULL: no test); draw: 1 and *out where (key, size) holds minn delays or
 * more, else 0 (rng: the copy's gsl_rng); free: NULL-safe, zeroes *z */
typedef struct joint_simshape {
    hmap map;
    uint32_t *off, *ki, *kid; /* kid: each (key, size)'s key */
    pb_ns *dl, *dv;
    unsigned char *on;        /* per (key, size): drawn from */
    size_t n, cap, kcap, minn, keys, keys_on, draws, draws_plain;
    double ks;                /* conf_sim_shape_ks (0: no test) */
} joint_simshape;
uint32_t joint_simshape_size(const joint *s, uint32_t q);
int joint_simshape_add(joint_simshape *z, uint32_t id, uint32_t size, pb_ns d);
int joint_simshape_finish(joint_simshape *z, const uint32_t *poff, const pb_ns *pdl);
int joint_simshape_draw(joint_simshape *z, uint32_t id, uint32_t size, void *rng, pb_ns *out);
void joint_simshape_free(joint_simshape *z);
int joint_simshape_meta(const joint *s, pb_result *res);

/* conf_copy_events_second_share (joint_cfev2small.c): conf_sim_share and
 * conf_copy_pairs taken f times for conf_copy_events_second's copy (the
 * caller saves and restores them) */
void joint_cfev2s_shrink(joint *s);
/* thread_soft_z (joint_thrbar.c): is a service with rate m (the least over
 * the passes) and z (the most Poisson sds its misses fell under chance's
 * over the passes) weighed by the bar from the evidence (over thread_soft
 * only); its metadata line (only for a service on by that bar alone) */
int joint_thrbar_on(const joint *s, double m, double z, double zs);
int joint_thrbar_meta(const joint *s, pb_result *res, const char *svc, double m, double z,
                      double zs);

/* conf_copy_share_fpc (joint_sczfpc.c): joint_sczfpc_note records, per
 * result's calibration copy made smaller (full pairs the default copy
 * would hold, got kept, total the trace's), the ratio r of the two copies'
 * sampling standard errors about the trace; joint_sczfpc_z conf_copy_share_z's
 * z for k and f (k (1 - r), or k (1 - sqrt f) when off); its metadata line */
void joint_sczfpc_note(joint *s, size_t full, size_t got, size_t total);
double joint_sczfpc_z(const joint *s, double k, double f);
int joint_sczfpc_meta(const joint *s, pb_result *res);

/* late_excess_ties (joint_lateexties.c): the tied calls' sums for the
 * late-call test's excess at service a and gap g (iv: ni (start, end)
 * pairs sorted by start; pmx: their ends' prefix maxima; [t0, t1] the time
 * line; every step-th call); adds to *k (near), *m (chance), *v (its
 * variance), returns their weight; its metadata line */
double joint_late_ties_sums(const joint *s, uint32_t a, const pb_ns *iv, uint32_t ni,
                            const pb_ns *pmx, pb_ns t0, pb_ns t1, pb_ns g, uint32_t step,
                            double *k, double *m, double *v);
void joint_late_ties_meta(const joint *s, pb_result *res);
/* late_excess_ties=2: a call's chance of being an orphan on rows subtick
 * spread (in whole ticks of the original stamps; 0 where not coarse) */
double joint_late_ties_weight(const joint *s, uint32_t p);
/* joint_late.c: the length of [t0, t1] the union of [start, end + ext] over
 * iv's ni (start, end) pairs (sorted by start) covers */
double joint_late_cover(const pb_ns *iv, uint32_t ni, pb_ns ext, pb_ns t0, pb_ns t1);
/* conf_ratio_events (joint_cfevratio.c): keep_m keeps the events map's m per
 * link and all links (from joint_cfse_fit); fit computes per link and all
 * links the doubt ratio in those units from the copy rows pts[0..np) and
 * the real rows' stated conf[0..n) (exr: exempt), at most the plain ratio;
 * r the ratio the events map's error at link l is multiplied by (r: the
 * plain one the row loop uses); free forgets both; meta its line */
void joint_cfer_keep_m(joint *s, const double *mev, uint32_t nl);
int joint_cfer_fit(joint *s, const joint_spt *pts, uint32_t np, const double *conf,
                   const unsigned char *exr, uint32_t n, uint32_t nl);
double joint_cfer_r(joint *s, const joint_cfse *c, uint32_t l, double r);
void joint_cfer_free(joint *s);
int joint_cfer_meta(const joint *s, pb_result *res);
/* thread_soft_starts (joint_thrstart.c): is a service with rate m (the least
 * over the passes) and zs (the most sds its visits' starts kept off open
 * visits' threads under chance's) weighed by the starts alone (over
 * thread_soft only; level: thread_soft_starts, or 0 for a service
 * thread_soft_starts_end's search leaves out); the term's rate for it (thread_soft where so, else m);
 * its metadata line (services measured over thread_soft) */
int joint_thrstart_on(const joint *s, double level, double m, double zs);
double joint_thrstart_rate(const joint *s, double level, double m, double zs);
int joint_thrstart_meta(const joint *s, pb_result *res, const char *svc, double level, double m,
                        double zs);
/* bb_serial (joint_bbser.c): does loss_serial's term apply without call ids
 * (bb_serial >= 3, free returns, no half pair); its metadata line */
int joint_bbser_applies(const joint *s);
/* bb_serial=7 (joint_bbser.c): the serial links of the first solution
 * (0: no second inference; -1 without memory); sets lser_bbck when > 0 */
int joint_bbser_wanted(joint *s);
int joint_bbser_meta(const joint *s, pb_result *res);
/* bb_serial_warm (joint_bbser.c): bb_serial=7's second inference (params
 * pr) from s's pairs and parents; *out the new search.  PB_OK or an error */
int joint_bbser_second(joint **out, joint *s, const pb_trace_view *v, const joint_params *pr,
                       pb_error *err);
/* bb_serial_warm=2 (joint_bbwin.c): the term's search on the window of s's
 * stacked calls, merged with s elsewhere; *out NULL where not run (none
 * stacked, the window over bb_serial_win_max).  PB_OK or an error */
int joint_bbwin_run(joint **out, joint *s, const pb_trace_view *v, const joint_params *pr,
                    pb_error *err);

/* bb_serial_seeds (joint_bbseeds.c): seed[root[c]] = 1 for stacked call
 * p's bb_serial_seeds best candidates c outside its own request (root:
 * the first solution's top-level request of each pair), ranked idle at
 * p's send first, then by their latest event before it */
void joint_bbseeds_near(const joint *f, uint32_t p, const uint32_t *root, unsigned char *seed);
/* bb_serial_seeds: the first solution's requests with a call on a serial
 * link (ser) and those holding a stacked call (st) into f->bbs_rec; mark
 * is scratch of npairs + 1 */
void joint_bbseeds_count(joint *f, const unsigned char *ser, const unsigned char *st,
                         const uint32_t *root, unsigned char *mark);
/* bb_serial_seeds: the stacks left in the term's solution t on the links
 * s's test calls serial, into both records.  PB_OK or PB_ENOMEM */
int joint_bbseeds_after(joint *s, joint *t);
/* bb_serial_removed (joint_bbseeds.c): take (the check's choice, 1 for
 * t) kept only where t left at most 1 - bb_serial_removed of s's stacks;
 * the choice, 0 where refused (s's check record then says so) */
int joint_bbseeds_keep(joint *s, joint *t, int take);
/* unp_cert (joint_unpcert.c): joint_ucert_stats, a free solution's
 * statistics (pairs in question, learned parallel calls, log-likelihood,
 * with the order terms, their cost per pair in question, services
 * serialising); joint_ucert_measure, unp_cert=1's record of the default's
 * first search s beside a free search alone; joint_ucert_held, unp_cert=2's
 * rule on unp_lite's free search f (1: the held search could win, the
 * default's path runs; 0: f kept; < 0 out of memory); joint_ucert_second,
 * unp_cert=3's check after the second search t (where t kept the held
 * solution, the held search alone against f by likelihood; *again 1: the
 * default's path); joint_ucert_meta, its line */
int joint_ucert_stats(joint *f, double st[6]);
int joint_ucert_measure(const joint *s, const pb_trace_view *v, const joint_params *params,
                       pb_error *err, double rec[12]);
int joint_ucert_held(joint *f, const unsigned char *force, double rec[12]);
int joint_ucert_second(joint *f, const joint *t, const pb_trace_view *v,
                       const joint_params *params, pb_error *err, double rec[12], int *again);
int joint_ucert_meta(const joint *s, pb_result *res);

/* joint_cfse.c: the Wilson score interval's lower bound of a share of k
 * in n at z standard errors (0 when n <= 0; never below 0).  Shared by the
 * copy's standard errors and conf_kind_map's classes (joint_cfkind.c). */
double joint_wilson_lo(double k, double n, double z);

/* joint_lchance.c: the span of s's whole pairs, from the earliest call's
 * send (*t0) to the latest return's receipt (*t1); 1 when s has a whole
 * pair, else 0 with *t0 / *t1 untouched.  Shared by late_chance's and
 * late_ends' chance positions. */
int joint_pairs_span(const joint *s, pb_ns *t0, pb_ns *t1);

/* joint_unpwarm.c: 1 when link l of f has a message the loss rule forced
 * unpaired (force[], per message), else 0.  Shared by unp_warm's start and
 * unp_wlocal's changed links. */
int joint_unp_link_forced(const joint *f, const unsigned char *force, uint32_t l);

/* joint_unpwarm.c: the warm start (joint_unpmerge.c's mate / gpar
 * encoding) from solution f and the forced messages; PB_OK or PB_ENOMEM.
 * joint_unpwboth.c (unp_wboth): the whole second search as two warm
 * searches from f and f->uwb_other (*done 0: not applicable, the
 * default's runs); joint_unpwb_meta, its line */
int joint_unpwarm_start(const joint *f, const unsigned char *force, uint32_t *mate,
                        uint32_t *gpar);
int joint_unpwb_second(joint **out, const pb_trace_view *v, const joint_params *params,
                       const joint *f, const unsigned char *force, pb_error *err, int *done);
int joint_unpwb_meta(const joint *s, pb_result *res);
/* thread_soft_starts_end (joint_thrsend.c): joint_thrse_mask, from the
 * term's search s at its end, the services left unweighed whose starts kept
 * off by at least the level (*mask NULL where none, the option off or
 * thread_soft_pick under 6; PB_OK or PB_ENOMEM); joint_thrse_end, where
 * mask is set, one more search weighing those services by their starts,
 * kept over *out (the solution chosen, lk its ll without the term) where
 * thread_soft_pick's check prefers it (takes mask; on an error *out is
 * closed and NULL); joint_thrse_meta, its line.  joint_thread_svc: per
 * service whether the term weighs it, its rate and its starts' sds;
 * joint_thread_rt_get: thread_soft_pick=6's record */
int joint_thrse_mask(const joint *s, const joint_params *params, unsigned char **mask);
int joint_thrse_end(joint **out, unsigned char *mask, const pb_trace_view *v,
                    const joint_params *params, double lk, pb_error *err);
int joint_thrse_meta(const joint *s, pb_result *res);
int joint_thread_svc(const joint *s, uint32_t a, double out[3]);
void joint_thread_rt_get(const joint *s, double rt[5]);

/* joint_heldskip.c: the consecutive pairs in question over every link of
 * s's current solution (the order's statistic); -1 when out of memory */
double joint_heldskip_in_question(joint *s);

/* loss_serial_under (joint_lserunder.c): the serial test's bound on a
 * link's overlapping outputs as a share of chance's count (1/4 by
 * default; the option's value where larger); joint_lserunder_note, at the
 * gate's test, records a link serial only by the wider bound (ratio its
 * overlaps / chance's); joint_lserunder_meta, its line */
double joint_lserunder_bound(const joint *s);
void joint_lserunder_note(joint *s, double ratio);
int joint_lserunder_meta(const joint *s, pb_result *res);

/* tie_keep_choice (joint_tiekeep.c): joint_tiekeep_params, the options the
 * choice runs with (p itself when off; else p1, p at tie_test=1);
 * joint_tiekeep_after, on the chosen search *out: where tie_test=2's
 * verdict differs from the default's, the same search again at tie_test=2
 * (*out replaced); joint_tiekeep_meta, its line */
const joint_params *joint_tiekeep_params(const joint_params *p, joint_params *p1);
int joint_tiekeep_after(joint **out, const pb_trace_view *v, const joint_params *params,
                        pb_error *err, const unsigned char *force);
int joint_tiekeep_meta(const joint *s, pb_result *res);
/* late_tie_learn (joint_latelearn.c): joint_late_learn, each link's learned
 * late chance of its tied calls (s->ltl_pi; PB_OK or PB_ENOMEM);
 * joint_late_learn_weight, a call's weight in its link's late share (the
 * chance where tied in whole original ticks, else 0); its metadata lines */
int joint_late_learn(joint *s);
double joint_late_learn_weight(const joint *s, uint32_t q);
void joint_late_learn_meta(const joint *s, pb_result *res);
/* unp_wlocal (joint_unpwlocal.c): joint_uwl_changed, per message of f 1
 * on a link with a forced message (chg: f->v.n + 1 bytes); joint_uwl_setup,
 * a warm search's open requests from params.uwl_chg (PB_OK or PB_ENOMEM);
 * joint_uwl_skip_pair / joint_uwl_skip_call, a pair of requests the local
 * search leaves out, a call the greedy rounds leave (s->uwl_open set);
 * joint_uwl_opened, a kept re-split's requests opened; joint_uwl_done,
 * the marks freed after the search; joint_uwl_meta, its line */
int joint_uwl_changed(const joint *f, const unsigned char *force, unsigned char *chg);
int joint_uwl_setup(joint *s);
int joint_uwl_skip_pair(joint *s, uint32_t q1, uint32_t q2);
int joint_uwl_skip_call(joint *s, uint32_t p);
void joint_uwl_opened(joint *s, uint32_t q1, uint32_t q2);
void joint_uwl_done(joint *s);
int joint_uwl_meta(const joint *s, pb_result *res);

/* late_ends (joint_lateends.c): joint_late_ends, after late_chance, the
 * share of a late link whose orphans' own enclosure chance is at the cap
 * from its sender's request ends inside its calls (s->late_lshare raised
 * where larger; s->lte_stat; PB_OK or PB_ENOMEM); its metadata lines */
int joint_late_ends(joint *s, const uint32_t *lcalls);
void joint_late_ends_meta(const joint *s, pb_result *res);

/* sv_pre (joint_svpre.c): joint_svp_arm, the free search's options in
 * init_choose (may pause before its main solve); joint_svp_disarm, after
 * it is made; joint_svp_pause, in the main solve's first round after its
 * refit: 1 when the search pauses there; joint_svp_held, joint_sv_held's
 * first step on a free search paused there (1: resumed to sv_lazy's mark,
 * go on as before; else PB_OK or an error, *bout and *early as
 * joint_sv_held's); joint_svp_resume_to (joint.c), the paused search run
 * on from its main solve's first refit, to sv_lazy's mark (to_mark) or to
 * its end; joint_svp_meta, its line */
void joint_svp_arm(joint_params *pa);
void joint_svp_disarm(joint *a);
int joint_svp_pause(joint *s);
int joint_svp_held(joint *a, const pb_trace_view *v, const joint_params *ph,
                   const joint_params *params, pb_error *err, const unsigned char *force,
                   joint_selshare *share, joint **bout, int *early);
int joint_svp_resume_to(joint *s, int to_mark);
int joint_svp_meta(const joint *s, pb_result *res);

/* conf_sib_usual (joint_sibusual.c): joint_sibu_usual, per row (usual, by
 * pair) the usual trigger link of its link where the row was not triggered
 * by it and its request holds a call on it, else NONE (trig: the rows'
 * triggers, joint_conf_triggers; PB_OK or PB_ENOMEM); joint_sibu_cap, the
 * least confidence of row j's request's calls on link tl; joint_sibu_meta,
 * its line */
#define JOINT_SIBU_MIN_ROWS 20
int joint_sibu_usual(joint *s, const uint32_t *trig, uint32_t *usual);
double joint_sibu_cap(const joint *s, uint32_t j, uint32_t tl, const double *conf);
int joint_sibu_meta(const joint *s, pb_result *res);

/* thread_bound_starts (joint_busythr.c): joint_busythr_bind, 1 where a
 * service thread_bound's test leaves untested (chance's misses under
 * thread_expect) is bound by its answers' misses and its starts' sds;
 * joint_busythr_meta, its line */
int joint_busythr_bind(const joint *s, size_t n, size_t miss, double expect, double zs,
                       size_t nmin);
int joint_busythr_meta(const joint *s, pb_result *res, const char *svc, size_t n, size_t miss,
                       double expect, double zs, int bound);
pb_ns joint_busythr_tick(const joint *s);

/* conf_kind_map (joint_cfkind.c, h317): reset, forget the copy rows and
 * maps; copy, the kinds of a new copy's pairs; row, one copy row (pair p2
 * of the current copy, link l); fit, the class maps on the real rows' conf
 * (exr: exempt); err, the events error es of real pair p stated c as the
 * class map makes it; free, the maps; meta, its metadata line */
void joint_cfk_reset(joint *s);
void joint_cfk_copy(joint *s, const joint *s2);
void joint_cfk_row(joint *s, uint32_t p2, uint32_t l, int ok, double c);
int joint_cfk_fit(joint *s, const double *conf, const unsigned char *exr);
double joint_cfk_err(joint *s, uint32_t p, double c, double es);
void joint_cfk_free(joint *s);
int joint_cfk_meta(const joint *s, pb_result *res);

#endif
