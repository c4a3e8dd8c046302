/*
 * joint_sv.c - sv_lazy: fewer solves without call ids (docs/joint/speed_late.md,
 * "Fewer solves: a search paused (h229)").
 *
 * With pair_order=auto a black box runs two searches, the free one and the
 * held one, and keeps the likelier (init_choose, joint_choose.c).  Each
 * search's main solve runs up to swap_rounds + 1 solves with a pass of
 * return exchanges between them (the swap rounds).  Here the free search
 * is refitted and its log-likelihood noted before its main solve
 * (free_pre), and it pauses after the main solve's first solve and refit
 * (free_mid).  The held search then runs in full, its log-likelihood noted
 * at the same point (held_mid) and at its end (held_end).  What the free
 * search's swap rounds could still gain is bounded from this trace by
 * g = max(0, held_end - held_mid, free_mid - free_pre): the held search's
 * gain over its own swap rounds, and the free search's over its first main
 * solve.  When held_end - free_mid > JOINT_RESTART_MARGIN + sv_lazy_k * g,
 * the held solution is kept and the free search's swap rounds never run.
 * Otherwise the free search resumes where it paused (joint.c's
 * joint_sv_resume: the same steps as a search that never paused) and the
 * choice is made as before.
 *
 * sv_lazy=3 also the other way round: the held search pauses at the same
 * point; where the free one leads there, the free one runs on and the held
 * one stays paused when free_end - held_mid > JOINT_RESTART_MARGIN +
 * sv_lazy_k * max(0, free_end - free_mid); it is resumed (and the choice
 * made again) when the busy test would keep it, or busy_partial would
 * look at it.
 *
 * Log-likelihoods are compared plainly and with the thread term muted (as
 * joint_thrpick.c compares them); an early keep needs both.  A bet: a
 * search's swap rounds may gain more than the bound.  Where it holds, the
 * rows are main's; the metadata of the search left paused (its
 * log-likelihood, the busy test's counts, held_skip's count) is its
 * paused state's.  sv_lazy=2 pauses both and always resumes: a check that
 * resuming is exact (the same output on the 20 real inputs).
 */
#include "joint.h"
#include "pb_mem.h"
#include "joint_int.h"
#include "pb_algo.h"

#include <stdlib.h>
#include <string.h>

void joint_sv_ll(joint *s, double out[2])
{
    out[0] = joint_loglik(s);
    out[1] = out[0];
    if (s->p.thread_soft_pick > 0 && s->p.thread_soft > 0) {
        if (joint_thread_mute(s, 1))
            out[1] = joint_loglik(s);
        joint_thread_mute(s, 0);
    }
}

/* The free search's main solve (init_choose's, sv_lazy raised by 10), its
 * first refit made (joint_search.c's joint_solve_rounds): its
 * log-likelihood noted once, before the solve moves anything */
void joint_sv_first(joint *s)
{
    if (s->p.sv_lazy >= 10 && s->p.sv_lazy < 20 && !s->sv_pre_done) {
        joint_sv_ll(s, s->sv_ll_pre);
        s->sv_pre_done = 1;
    }
}

/* At the main solve's first refit (joint.c's solve_from, sv_mark set):
 * the free search of init_choose (sv_lazy raised by 10 there) and, with
 * sv_lazy=2|3, the held one made here pause (their log-likelihoods taken
 * in joint_sv_held, where they are needed); sv_lazy=1's held search (raised
 * by 20) notes its log-likelihood and runs on */
int joint_sv_mark(joint *s)
{
    if (s->p.sv_lazy >= 20) {
        s->p.sv_lazy -= 20;
        joint_sv_ll(s, s->sv_ll_mid);
    } else if (s->p.sv_lazy >= 10) {
        s->p.sv_lazy -= 10;
        s->sv_paused = 1;
    }
    return PB_OK;
}

/* init_choose's free search a, paused or not: when paused, the held search
 * made here (*bout) and kept at once (*early = 1) when its lead is out of
 * the free search's reach; else a resumed (then *bout is the held search
 * init_choose would make, or NULL when a's held_skip or early parallel
 * run, decided on the paused a, ask for the order of init_choose) */
int joint_sv_held(joint *a, const pb_trace_view *v, const joint_params *ph,
                  const joint_params *params, pb_error *err, const unsigned char *force,
                  joint_selshare *share, joint **bout, int *early)
{
    *bout = NULL;
    *early = 0;
    int held_other = params->held_local > 0 || params->held_warm || params->held_repair >= 0 ||
                     params->held_swaps >= 0;
    if (a->sv_paused && a->svc_r) { /* sv_cut: paused in its re-pairing rounds (joint_svcut.c) */
        int rc = held_other ? joint_svc_resume(a, 1)
                            : joint_sv_race(a, v, ph, params, err, force, share, JOINT_SVR_ROUND,
                                            bout, early);
        if (held_other && rc != PB_OK)
            rc = pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
        if (rc != PB_OK || *early)
            return rc;
    }
    if (!a->sv_paused)
        return PB_OK;
    if (a->svp_paused) { /* sv_pre: paused before its main solve (joint_svpre.c) */
        int rp = joint_svp_held(a, v, ph, params, err, force, share, bout, early);
        if (rp != 1)
            return rp;
        if (!a->sv_paused)
            return PB_OK;
    }
    int hs = joint_heldskip_maybe(a); /* decided on the whole free search, as before */
    if (hs == 0 && !held_other && params->sv_early && joint_bbserial_early(a))
        return joint_sv_race(a, v, ph, params, err, force, share, JOINT_SVR_MARK, bout,
                             early); /* sv_early (joint_svearly.c) */
    if (hs != 0 || held_other || joint_bbserial_early(a)) {
        a->sv_rec[0] = 3;
        a->sv_rec[1] = hs != 0 ? 1 : held_other ? 2 : 3;
        int rc = hs < 0 ? PB_ENOMEM : joint_sv_resume(a);
        return rc == PB_OK ? PB_OK : pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
    }
    joint_sv_ll(a, a->sv_ll_mid); /* a as it paused */
    a->sv_rec[4] = a->sv_ll_mid[0];
    a->sv_rec[8] = a->sv_ll_pre[0];
    joint_params phs = *ph; /* as init_choose makes the held search */
    joint_heldwarm_rounds(&phs, params);
    phs.sv_lazy += params->sv_lazy >= 2 ? 10 : 20; /* 2|3: the held search pauses too */
    joint *b = NULL;
    int rc = joint_init_one(&b, v, &phs, err, 1, share, force);
    if (rc != PB_OK)
        return rc;
    if (b->p.sv_lazy >= 10)
        b->p.sv_lazy -= b->p.sv_lazy >= 20 ? 20 : 10; /* it never reached the mark */
    if (b->sv_paused)
        joint_sv_ll(b, b->sv_ll_mid);
    joint_heldwarm_rounds_back(b, params);
    b->p.sv_lazy = params->sv_lazy;
    double k = params->sv_lazy_k;
    if (b->sv_paused && params->sv_lazy == 3 && a->sv_ll_mid[0] >= b->sv_ll_mid[0]) {
        /* the free search leads at the pause: it runs on, and the held
         * one stays paused when the free one's lead is out of reach */
        double fm[2] = {a->sv_ll_mid[0], a->sv_ll_mid[1]}, fe[2];
        rc = joint_sv_resume(a);
        if (rc != PB_OK) {
            joint_close(b);
            return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
        }
        joint_sv_ll(a, fe);
        double g0 = fe[0] - fm[0], g1 = fe[1] - fm[1];
        double lead0 = fe[0] - b->sv_ll_mid[0], lead1 = fe[1] - b->sv_ll_mid[1];
        a->sv_rec[2] = lead0;
        a->sv_rec[3] = g0;
        a->sv_rec[5] = fe[0];
        a->sv_rec[6] = b->sv_ll_mid[0];
        a->sv_rec[7] = 1; /* the free search led */
        int hs2 = joint_heldskip_maybe(a);
        if (hs2 == 0 && !joint_bbserial_early(a) &&
            lead0 > JOINT_RESTART_MARGIN + k * (g0 > 0 ? g0 : 0) &&
            lead1 > JOINT_RESTART_MARGIN + k * (g1 > 0 ? g1 : 0)) {
            a->sv_rec[0] = 4;
            joint_heldskip_decide(a); /* its record (the count over the limit: no copies) */
            *bout = b;
            *early = 2;
            return PB_OK;
        }
        a->sv_rec[0] = 2;
        rc = hs2 < 0 ? PB_ENOMEM : joint_sv_resume(b);
        if (rc != PB_OK) {
            joint_close(b);
            return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
        }
        *bout = b;
        return PB_OK;
    }
    if (b->sv_paused && (rc = joint_sv_resume(b)) != PB_OK) {
        joint_close(b);
        return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
    }
    double le[2];
    joint_sv_ll(b, le);
    double g0 = le[0] - b->sv_ll_mid[0], g1 = le[1] - b->sv_ll_mid[1];
    double lead0 = le[0] - a->sv_ll_mid[0], lead1 = le[1] - a->sv_ll_mid[1];
    /* the free search's own gain over its first main solve: its swap
     * rounds may gain as much again, whatever the held one's gained */
    double m0 = a->sv_ll_mid[0] - a->sv_ll_pre[0], m1 = a->sv_ll_mid[1] - a->sv_ll_pre[1];
    g0 = g0 > m0 ? g0 : m0;
    g1 = g1 > m1 ? g1 : m1;
    int take = (params->sv_lazy == 1 || params->sv_lazy == 3) &&
               lead0 > JOINT_RESTART_MARGIN + k * (g0 > 0 ? g0 : 0) &&
               lead1 > JOINT_RESTART_MARGIN + k * (g1 > 0 ? g1 : 0);
    a->sv_rec[2] = lead0;
    a->sv_rec[3] = g0;
    a->sv_rec[5] = le[0];
    a->sv_rec[6] = b->sv_ll_mid[0];
    *bout = b;
    if (take) {
        a->sv_rec[0] = 1;
        joint_heldskip_decide(a); /* its record, on the paused free search */
        *early = 1;
        return PB_OK;
    }
    a->sv_rec[0] = 2;
    rc = joint_sv_resume(a);
    if (rc != PB_OK) {
        joint_close(b);
        *bout = NULL;
        return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
    }
    return PB_OK;
}

/* sv_lazy=3, the free search kept early: the held search still paused
 * when the busy test (or busy_partial's names) would take it further:
 * resumed, and init_choose chooses again.  1 resumed, 0 not, < 0 error */
int joint_sv_held_wanted(joint *b, int wanted)
{
    if (!b || !b->sv_paused || !wanted)
        return 0;
    int rc = joint_sv_resume(b);
    return rc == PB_OK ? 1 : -1;
}

int joint_sv_meta(const joint *s, pb_result *res)
{
    if (!s->p.sv_lazy || !s->sv_rec[0])
        return PB_OK;
    static const char *st[] = {"", "held_kept_early", "free_resumed", "free_resumed_at_once",
                               "free_kept_early", "free_kept_held_resumed",
                               "early_run_kept_early", "free_resumed_early_run"}; /* 6, 7: sv_early */
    static const char *why[] = {"", "held_skip", "held_options", "early_parallel_run"};
    int k = (int)s->sv_rec[0];
    if (k == 3)
        return pb_result_meta(res, "sv_lazy=%s reason=%s", st[3],
                              why[(int)s->sv_rec[1] >= 1 && (int)s->sv_rec[1] <= 3 ? (int)s->sv_rec[1] : 0]);
    if (s->sv_rec[7]) /* the free search led at the pause */
        return pb_result_meta(res, "sv_lazy=%s lead=%.3f gain=%.3f k=%g free_pre=%.3f free_mid=%.3f "
                                   "free_end=%.3f held_mid=%.3f",
                              st[k >= 1 && k <= 7 ? k : 0], s->sv_rec[2], s->sv_rec[3],
                              s->p.sv_lazy_k, s->sv_rec[8], s->sv_rec[4], s->sv_rec[5],
                              s->sv_rec[6]);
    return pb_result_meta(res, "sv_lazy=%s lead=%.3f gain=%.3f k=%g free_pre=%.3f free_mid=%.3f "
                               "held_mid=%.3f held_end=%.3f",
                          st[k >= 1 && k <= 7 ? k : 0], s->sv_rec[2], s->sv_rec[3], s->p.sv_lazy_k,
                          s->sv_rec[8], s->sv_rec[4], s->sv_rec[6], s->sv_rec[5]);
}
