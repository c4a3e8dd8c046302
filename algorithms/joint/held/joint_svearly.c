/*
 * joint_svearly.c - sv_early: parallel_check_bb's early run raced against
 * the paused free search (docs/joint/speed_w29.md, "Which solves decide the
 * output (h266)").  Speed; changes results only where a bet fails.
 *
 * Without call ids and pair_order=auto, sv_lazy (joint_sv.c) pauses the
 * free search after its main solve's first solve and refit and races the
 * held search against it.  Where parallel_check_bb's early run is due at
 * the pause (the free search has dropped a parallel call it learned at an
 * earlier refit: joint_bbserial.c), sv_lazy resumes the free search at
 * once, runs it to its end (two more solves with their swap passes), and
 * only then runs the early run (the held search with parallel=1), which is
 * kept when it shows none of the parallel calls the free search learned
 * (joint_bbserial_early_take), and then chosen against the free search by
 * the likelihood.  On OnlineBoutique 07:11 as a black box the free
 * search's swap rounds are 315 M instructions (9 % of the run) and the
 * early run leads the free search by 3,014 nats.
 *
 * With sv_early=1 the early run is made while the free search is paused,
 * its log-likelihood noted at its own mark (its main solve's first solve
 * and refit, as sv_lazy=1's held search notes it) and at its end.  It is
 * kept at once, the free search left paused, when
 * - it takes: none of the parallel calls the paused free search learned at
 *   some refit shows on its solution (the test of joint_bbserial_early_take
 *   on the calls learned so far: a call learned first in the swap rounds
 *   is not asked about: the first bet), and
 * - its lead over the paused free search is out of reach of the free
 *   search's swap rounds by sv_lazy's rule: end - free_mid > 10 nats
 *   (JOINT_RESTART_MARGIN) + sv_lazy_k * max(0, its own gain over its swap
 *   rounds, the free search's gain over its first main solve), plain and
 *   with the thread term muted (the second bet, sv_lazy's).
 * Otherwise the free search resumes, and init_choose goes on as without
 * the option, taking this run instead of making it again (the take test
 * made again on the whole free search).  sv_early=2 makes the run beside
 * the paused search and always resumes: a check that this order of work
 * changes nothing (the same rows as 0 on the 20 real inputs).
 * Metadata: sv_lazy=early_run_kept_early | free_resumed_early_run lead=
 * gain= k= free_pre= free_mid= held_mid= held_end= (held: the early run).
 */
#include "joint.h"
#include "pb_mem.h"
#include "joint_int.h"
#include "pb_algo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int joint_sve_test_kept = 0, joint_sve_test_made = 0;

int joint_sv_leads(double k, int take, const double a_pre[2], const double a_mid[2],
                   const double w_mid[2], const double w_end[2], int abs_gain, double *lead,
                   double *gain)
{
    /* what the free search's swap rounds may still bring: as much as the
     * early run's own swap rounds brought, or as its own first main solve */
    double g[2], l[2];
    for (int i = 0; i < 2; i++) {
        double gw = w_end[i] - w_mid[i], ga = a_mid[i] - a_pre[i];
        ga = abs_gain ? fabs(ga) : ga;
        g[i] = gw > ga ? gw : ga;
        g[i] = g[i] > 0 ? g[i] : 0;
        l[i] = w_end[i] - a_mid[i];
    }
    *lead = l[0];
    *gain = g[0];
    return take && l[0] > JOINT_RESTART_MARGIN + k * g[0] &&
           l[1] > JOINT_RESTART_MARGIN + k * g[1];
}

int joint_sve_keeps(double k, int take, const double a_pre[2], const double a_mid[2],
                    const double w_mid[2], const double w_end[2], double *lead, double *gain)
{
    return joint_sv_race_keeps(JOINT_SVR_MARK, k, take, a_pre, a_mid, w_mid, w_end, lead, gain);
}

int joint_sv_race_keeps(int at, double k, int take, const double a_pre[2], const double a_mid[2],
                        const double w_mid[2], const double w_end[2], double *lead, double *gain)
{
    /* at a round the free search's last change counts either way (a
     * search that lost nats over its last round may gain them back) */
    return joint_sv_leads(k, take, a_pre, a_mid, w_mid, w_end, at == JOINT_SVR_ROUND, lead, gain);
}

/* sv_early's and sv_cut's race (the one skeleton of both): the early run
 * made beside the paused free search a, kept at once (*bout, *early = 1)
 * when it takes and its lead is out of the free search's reach; else its
 * marks undone and a run on.  at: JOINT_SVR_MARK (sv_early: a paused at
 * its main solve's mark; the record is sv_lazy's sv_rec, the run handed to
 * init_choose on a->sve_w) or JOINT_SVR_ROUND (sv_cut: a paused after a
 * re-pairing round's closed solve; the record is svc_rec, and sv_rec as
 * sv_early's keep writes it where kept; the run dropped, a run on to its
 * mark) */
int joint_sv_race(joint *a, const pb_trace_view *v, const joint_params *ph,
                  const joint_params *params, pb_error *err, const unsigned char *force,
                  joint_selshare *share, int at, joint **bout, int *early)
{
    *bout = NULL;
    *early = 0;
    int cut = at == JOINT_SVR_ROUND;
    if (!cut) {
        joint_sv_ll(a, a->sv_ll_mid); /* a as it paused */
        a->sv_rec[4] = a->sv_ll_mid[0];
        a->sv_rec[8] = a->sv_ll_pre[0];
    }
    /* the early run as init_choose makes it, its log-likelihood noted at
     * its mark (sv_lazy raised by 20: noted, no pause) and, with sv_cut,
     * after each re-pairing round (joint_svc_round) */
    joint_params pw = *ph;
    pw.parallel = 1;
    pw.sv_lazy += 20;
    /* pairs_share: the paused search's caches for the run, as init_choose
     * parks them before it; a takes the run's back when it resumes (speed
     * only: every entry is stamped with the search that made it) */
    joint_bufshare_park(a);
    joint *w = NULL;
    int rc = joint_init_one(&w, v, &pw, err, 1, share, force);
    if (rc != PB_OK)
        return rc;
    int marked = w->p.sv_lazy < 20;
    if (w->p.sv_lazy >= 20)
        w->p.sv_lazy -= 20; /* it never reached the mark */
    joint_bufshare_park(w); /* pairs_share: for the held search, as init_choose */
    w->selshare = NULL;
    if (cut)
        joint_svc_test_made++;
    else
        joint_sve_test_made++;
    /* the take test on the paused free search; its marks on w undone
     * when w is not kept here (init_choose tests the whole free search) */
    int sb = w->ser_bb;
    uint32_t sf0 = w->ser_free[0], sf1 = w->ser_free[1];
    double sfl = w->ser_free_ll, sl1 = w->ser_ll[1];
    uint32_t shown = 0;
    int take = joint_bbserial_early_take(a, w, &shown);
    if (take < 0) {
        joint_close(w);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "joint: out of memory");
    }
    double le[2];
    joint_sv_ll(w, le);
    /* the free search before (a_pre) and at (a_mid) the pause; the run at
     * the same point: its mark, or (sv_cut) the round the free search
     * paused after (it may have ended its rounds before: then no keep) */
    const double *ap = cut ? a->svc_ll[0] : a->sv_ll_pre, *am = cut ? a->svc_ll[1] : a->sv_ll_mid;
    int rr = a->svc_r - 1, have = cut ? rr < JOINT_SVC_ROUNDS && w->svc_nh > rr : a->sv_pre_done;
    const double *wp = cut ? (have ? w->svc_hist[rr] : le) : (marked ? w->sv_ll_mid : le);
    double wm[2] = {wp[0], wp[1]};
    double lead = 0, gain = 0;
    int keep = joint_sv_race_keeps(at, params->sv_lazy_k, take == 1 && marked && have, ap, am, wm,
                                   le, &lead, &gain);
    if (cut) {
        a->svc_rec[1] = a->svc_r - 1;
        a->svc_rec[2] = lead;
        a->svc_rec[3] = gain;
        a->svc_rec[4] = am[0];
        a->svc_rec[5] = ap[0];
    }
    if (keep && cut) { /* sv_lazy's record as sv_early's keep writes it, the cut as the mark */
        a->svc_rec[0] = 1;
        a->sv_ll_mid[0] = am[0];
        a->sv_ll_mid[1] = am[1];
        a->sv_rec[4] = am[0];
        a->sv_rec[8] = ap[0];
    }
    if (keep || !cut) {
        a->sv_rec[2] = lead;
        a->sv_rec[3] = gain;
        a->sv_rec[5] = le[0];
        a->sv_rec[6] = marked ? w->sv_ll_mid[0] : le[0];
        a->sv_rec[7] = 0;
    }
    if (keep && (cut || params->sv_early == 1)) {
        a->sv_rec[0] = 6;
        joint_heldskip_decide(a); /* its record, on the paused free search */
        if (cut) {
            joint_svc_test_kept++;
            memcpy(w->svc_rec, a->svc_rec, sizeof w->svc_rec);
        } else {
            joint_sve_test_kept++;
        }
        *bout = w;
        *early = 1;
        return PB_OK;
    }
    /* not kept: its marks undone, the free search run on */
    w->ser_bb = sb;
    w->ser_free[0] = sf0;
    w->ser_free[1] = sf1;
    w->ser_free_ll = sfl;
    w->ser_ll[1] = sl1;
    if (cut) {
        a->svc_rec[0] = 2;
        memcpy(w->svc_rec, a->svc_rec, sizeof w->svc_rec);
        rc = joint_svc_resume(a, 1); /* to its mark */
    } else {
        a->sv_rec[0] = 7;
        rc = joint_sv_resume(a);
    }
    if (rc != PB_OK) {
        joint_close(w);
        return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
    }
    /* sv_early: the run handed to init_choose; sv_cut: not handed on (one
     * made at the mark, as sv_early makes it, reads what the whole free
     * search has set by then: the shared choices; made at the round and
     * used at the mark it changed hotel 100 loss2) */
    if (cut)
        joint_close(w);
    else
        a->sve_w = w;
    return PB_OK;
}

joint *joint_sve_take(joint *a)
{
    joint *w = a->sve_w;
    a->sve_w = NULL;
    return w;
}

joint *joint_sve_chain(joint *s, joint *next)
{
    joint *w = s->sve_w;
    if (!w)
        return next;
    s->sve_w = NULL;
    joint *e = w;
    while (e->unp_first)
        e = e->unp_first;
    e->unp_first = next;
    return w;
}
