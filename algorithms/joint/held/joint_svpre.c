/*
 * joint_svpre.c - sv_pre: the free / held choice made before the losing
 * search's main solve (docs/joint/speed_w36.md, "Deciding before the main
 * solve (h314)").  Speed; changes results where its bet fails.
 *
 * Without call ids sv_lazy=3 (joint_sv.c) pauses the free search and the
 * held one after their main solve's first solve and refit (the mark); the
 * one that leads there runs on, and the other stays paused when the
 * leader's end is out of its reach.  So the losing search still runs its
 * main solve's first solve (5-6 % of an OnlineBoutique run, h298).  With
 * sv_pre=1 the free search pauses earlier: in its main solve's first round,
 * just after that solve's first refit (its log-likelihood noted there, as
 * sv_lazy's free_pre).  Where held_skip, a held option (held_local,
 * held_warm, held_repair, held_swaps) or parallel_check_bb's early run asks
 * for more of it, it runs on from there to sv_lazy's mark (the refit not
 * made again: the same steps as a search that never paused) and sv_lazy
 * decides as without the option.  Else the held search is made to the
 * same point (held_pre); the one that leads there runs to its end, and
 * the other stays paused when
 *   end - other_pre > 10 nats (JOINT_RESTART_MARGIN)
 *                     + sv_lazy_k * max(0, end - leader_pre),
 * plain and with the thread term muted (the leader's gain over its whole
 * main solve stands for what the other's main solve could gain: the bet);
 * a free leader also passes sv_lazy's held_skip and early-run tests on its
 * whole search.  Otherwise the other runs on from its pause too and
 * init_choose chooses as before.  A search left paused keeps its paused
 * state (its log-likelihood and counts in the metadata are its pre ones).
 * sv_pre=2 bounds it by the leader's change either way, |end - leader_pre|
 * (a leader whose main solve loses likelihood bounds nothing at 1), and
 * where the other is not left before its main solve it runs on to sv_lazy's
 * mark and is left there when the leader's end leads it by 10 nats plus
 * sv_lazy_k times the larger of that and the other's own change over its
 * first main solve (sv_pre=loser_at_mark; lead, gain: that test's).
 * sv_pre_k (> 0) replaces sv_lazy_k in the test before the main solve.
 * Metadata: sv_pre=loser_paused|both_run|to_mark leader=free|held lead=
 * gain= free_pre= held_pre= end=.
 */
#include "joint.h"
#include "pb_mem.h"
#include "joint_int.h"
#include "pb_algo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void joint_svp_arm(joint_params *pa)
{
    if (pa->sv_pre > 0 && pa->sv_pre < 10 && pa->sv_lazy == 13)
        pa->sv_pre += 10;
}

void joint_svp_disarm(joint *a)
{
    if (a->p.sv_pre >= 10)
        a->p.sv_pre -= 10; /* it never paused */
}

int joint_svp_pause(joint *s)
{
    if (s->p.sv_pre < 10 || !s->sv_pre_done || s->svp_skip)
        return 0;
    s->p.sv_pre -= 10;
    s->svp_paused = 1;
    s->sv_paused = 1;
    return 1;
}

static int oom(pb_error *err, int rc)
{
    return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
}

int joint_svp_held(joint *a, const pb_trace_view *v, const joint_params *ph,
                   const joint_params *params, pb_error *err, const unsigned char *force,
                   joint_selshare *share, joint **bout, int *early)
{
    int held_other = params->held_local > 0 || params->held_warm || params->held_repair >= 0 ||
                     params->held_swaps >= 0;
    int hs = joint_heldskip_maybe(a);
    if (hs < 0)
        return oom(err, PB_ENOMEM);
    memset(a->svp_rec, 0, sizeof a->svp_rec);
    a->svp_rec[4] = a->sv_ll_pre[0];
    if (params->sv_lazy != 3 || hs != 0 || held_other || joint_bbserial_early(a)) {
        a->svp_rec[0] = 3; /* sv_lazy decides, from its mark */
        int rc = joint_svp_resume_to(a, 1);
        return rc == PB_OK ? 1 : oom(err, rc);
    }
    joint_params phs = *ph; /* as joint_sv_held makes the held search */
    joint_heldwarm_rounds(&phs, params);
    phs.sv_lazy += 10;
    phs.sv_pre = params->sv_pre + 10;
    joint *b = NULL;
    int rc = joint_init_one(&b, v, &phs, err, 1, share, force);
    if (rc != PB_OK)
        return rc;
    if (b->p.sv_lazy >= 10)
        b->p.sv_lazy -= 10;
    joint_heldwarm_rounds_back(b, params);
    b->p.sv_lazy = params->sv_lazy;
    b->p.sv_pre = params->sv_pre;
    *bout = b;
    if (!b->svp_paused) { /* it never reached the point: both run, as before */
        if (b->sv_paused && (rc = joint_sv_resume(b)) != PB_OK) {
            joint_close(b);
            *bout = NULL;
            return oom(err, rc);
        }
        a->svp_rec[0] = 2;
        a->sv_rec[0] = 2;
        rc = joint_sv_resume(a);
        return rc == PB_OK ? PB_OK : oom(err, rc);
    }
    a->svp_rec[5] = b->sv_ll_pre[0];
    joint *L = a->sv_ll_pre[0] >= b->sv_ll_pre[0] ? a : b, *O = L == a ? b : a;
    double lp[2] = {L->sv_ll_pre[0], L->sv_ll_pre[1]}, le[2];
    if ((rc = joint_sv_resume(L)) != PB_OK) {
        joint_close(b);
        *bout = NULL;
        return oom(err, rc);
    }
    joint_sv_ll(L, le);
    double g0 = le[0] - lp[0], g1 = le[1] - lp[1];
    double lead0 = le[0] - O->sv_ll_pre[0], lead1 = le[1] - O->sv_ll_pre[1];
    double k = params->sv_pre_k > 0 ? params->sv_pre_k : params->sv_lazy_k;
    if (params->sv_pre == 2) { /* the leader's change either way bounds the other's */
        g0 = fabs(g0);
        g1 = fabs(g1);
    }
    int take = lead0 > JOINT_RESTART_MARGIN + k * (g0 > 0 ? g0 : 0) &&
               lead1 > JOINT_RESTART_MARGIN + k * (g1 > 0 ? g1 : 0);
    if (take && L == a) { /* sv_lazy's tests on the whole free search */
        int hs2 = joint_heldskip_maybe(a);
        if (hs2 < 0) {
            joint_close(b);
            *bout = NULL;
            return oom(err, PB_ENOMEM);
        }
        take = hs2 == 0 && !joint_bbserial_early(a);
    }
    a->svp_rec[1] = L == a ? 1 : 2;
    a->svp_rec[2] = lead0;
    a->svp_rec[3] = g0;
    a->svp_rec[6] = le[0];
    a->sv_rec[0] = 0; /* sv_lazy's line left out: this one speaks */
    if (take) {
        a->svp_rec[0] = 1;
        joint_heldskip_decide(a); /* its record, as sv_lazy's early keeps */
        *early = L == b ? 1 : 2;
        memcpy(b->svp_rec, a->svp_rec, sizeof b->svp_rec);
        return PB_OK;
    }
    a->svp_rec[0] = 2;
    if (params->sv_pre == 2 && (L != a || joint_heldskip_maybe(a) == 0) &&
        (L != a || !joint_bbserial_early(a))) { /* a second look at sv_lazy's mark */
        if ((rc = joint_svp_resume_to(O, 1)) != PB_OK) {
            joint_close(b);
            *bout = NULL;
            return oom(err, rc);
        }
        if (O->sv_paused) {
            double om[2];
            joint_sv_ll(O, om);
            double m0 = om[0] - O->sv_ll_pre[0], m1 = om[1] - O->sv_ll_pre[1];
            k = params->sv_lazy_k; /* sv_lazy's own test */
            m0 = m0 > g0 ? m0 : g0;
            m1 = m1 > g1 ? m1 : g1;
            if (le[0] - om[0] > JOINT_RESTART_MARGIN + k * (m0 > 0 ? m0 : 0) &&
                le[1] - om[1] > JOINT_RESTART_MARGIN + k * (m1 > 0 ? m1 : 0)) {
                a->svp_rec[0] = 4;
                a->svp_rec[2] = le[0] - om[0];
                a->svp_rec[3] = m0;
                joint_heldskip_decide(a);
                *early = L == b ? 1 : 2;
                memcpy(b->svp_rec, a->svp_rec, sizeof b->svp_rec);
                return PB_OK;
            }
        }
    }
    if (O->sv_paused && (rc = joint_sv_resume(O)) != PB_OK) {
        joint_close(b);
        *bout = NULL;
        return oom(err, rc);
    }
    memcpy(b->svp_rec, a->svp_rec, sizeof b->svp_rec);
    return PB_OK;
}

int joint_svp_meta(const joint *s, pb_result *res)
{
    if (!s->p.sv_pre || !s->svp_rec[0])
        return PB_OK;
    static const char *st[] = {"", "loser_paused", "both_run", "to_mark", "loser_at_mark"};
    int k = (int)s->svp_rec[0];
    if (k == 3)
        return pb_result_meta(res, "sv_pre=to_mark free_pre=%.3f", s->svp_rec[4]);
    return pb_result_meta(res, "sv_pre=%s leader=%s lead=%.3f gain=%.3f free_pre=%.3f "
                               "held_pre=%.3f end=%.3f",
                          st[k >= 1 && k <= 4 ? k : 0], s->svp_rec[1] == 2 ? "held" : "free",
                          s->svp_rec[2], s->svp_rec[3], s->svp_rec[4], s->svp_rec[5],
                          s->svp_rec[6]);
}
