/*
 * joint_svcut.c - joint: parallel_check_bb's early run decided at a
 * re-pairing round (`sv_cut`, default 0; docs/joint/speed_w34.md,
 * "Deciding the early run at a re-pairing round (h285)").
 *
 * With sv_lazy and sv_early=1 (joint_svearly.c), where the free search of
 * init_choose has dropped a parallel call it learned at an earlier refit,
 * the early run (the held search with parallel=1) is made when the free
 * search pauses at its main solve's mark, and kept at once when its lead
 * is out of the free search's reach.  Then nothing of the free search is
 * output: its re-pairing rounds' second half and its main solve (on
 * OnlineBoutique 07:11 without call ids 9 % of the run) only set the
 * number the lead is taken against.
 *
 * With sv_cut=1 the free search pauses earlier: after the closed solve and
 * refit of a re-pairing round from the second on, where the early run is
 * due already there.  The early run is made then and kept at once when
 *   - it takes (joint_bbserial_early_take on the paused free search: none
 *     of the parallel calls learned so far shows on the run), and
 *   - its lead over the paused free search passes 10 nats plus sv_lazy_k
 *     times the larger of the run's own gain from the same round's closed
 *     solve to its end and the free search's change (either sign) over its
 *     last re-pairing round, plain and with the thread term muted.
 * That is the bet: what the free search may still gain from the cut to its
 * end is taken to be no more than either.  Measured (h285, the round-2
 * closed solve to the mark): 17:00 free 1,520 over its last round then
 * 691; 06:35 1,150 then 790; 03:53 2,100 then 335; 07:11 583 then 75 (the
 * early run 135 from the round); hotel 100 loss2 187 then 1,747 (the early
 * run 1,329: the first term alone failed there).
 * Otherwise the run is dropped and the free search runs on to its mark and
 * pauses there as before (sv_early makes its run again there: one made at
 * the round and used at the mark changed hotel 100 with 2 % loss -- the
 * early run reads choices the whole free search has shared by then).
 * Metadata `sv_cut=kept_at_round|run_on round= lead= gain= free_cut=
 * free_before=`.
 */
#include "joint_int.h"

#include <math.h>
#include <string.h>

int joint_svc_test_kept = 0, joint_svc_test_made = 0; /* tests: early runs kept at a round, made there */

int joint_svc_round(joint *s, int r)
{
    /* the early run made at a cut (sv_lazy raised by 20, parallel=1): its
     * log-likelihood after each round, for the gain test */
    if (s->p.sv_cut && s->p.sv_lazy >= 20 && s->p.parallel >= 1 && s->pord_hold) {
        if (r < JOINT_SVC_ROUNDS)
            joint_sv_ll(s, s->svc_hist[r]);
        s->svc_nh = r + 1;
        return 0;
    }
    /* the free search of init_choose only: sv_lazy raised by 10, no pair
     * order held (the held search made with sv_lazy=2|3 is raised too) */
    if (!s->p.sv_cut || s->p.sv_early != 1 || s->p.sv_lazy < 10 || s->p.sv_lazy >= 20 ||
        s->pord_hold)
        return 0;
    /* the early run can be due only once a parallel call was learned: the
     * log-likelihoods are taken from then on, in consecutive rounds */
    if (s->p.parallel >= 1 || !s->p.parallel_check_bb || !s->p.parallel_check_bb_early ||
        s->p.parallel_check_bb_all || !joint_bbserial_ever(s)) {
        s->svc_n = 0;
        return 0;
    }
    s->svc_ll[0][0] = s->svc_ll[1][0]; /* the round before, and this one */
    s->svc_ll[0][1] = s->svc_ll[1][1];
    joint_sv_ll(s, s->svc_ll[1]);
    s->svc_n++;
    if (r < 1 || s->svc_n < 2 || !joint_bbserial_early(s))
        return 0;
    s->svc_r = r + 1;
    s->sv_paused = 1;
    s->p.sv_lazy -= 10;
    return 1;
}

int joint_svc_keeps(double k, int take, const double a_prev[2], const double a_cut[2],
                    const double w_round[2], const double w_end[2], double *lead, double *gain)
{
    /* what the free search may still gain from the cut to its end: as much
     * as the early run gained from the same round's closed solve to its
     * end, or as much as the free search's last round changed it (either
     * sign) */
    return joint_sv_race_keeps(JOINT_SVR_ROUND, k, take, a_prev, a_cut, w_round, w_end, lead,
                               gain);
}

/* the race itself: joint_svearly.c's joint_sv_race (JOINT_SVR_ROUND) */

int joint_svc_meta(const joint *s, pb_result *res)
{
    if (!s->p.sv_cut || !s->svc_rec[0])
        return PB_OK;
    return pb_result_meta(res, "sv_cut=%s round=%d lead=%.3f gain=%.3f free_cut=%.3f free_before=%.3f",
                          s->svc_rec[0] == 1 ? "kept_at_round" : "run_on", (int)s->svc_rec[1] + 1,
                          s->svc_rec[2], s->svc_rec[3], s->svc_rec[4], s->svc_rec[5]);
}
