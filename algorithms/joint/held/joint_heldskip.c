/*
 * joint_heldskip.c - joint without call ids: the held search decided
 * before it runs (`held_skip`; docs/joint/speed.md, "Speed, twenty-fourth
 * wave (h195)").
 *
 * With pair_order=auto init_choose (joint.c) runs a free search, then one
 * holding the order of answers and calls, and keeps the held one when the
 * model finds it likelier by more than JOINT_RESTART_MARGIN nats, or when
 * the busy test (joint_pick.c) finds that the pairs the two assign
 * differently lie mostly at services that serialise their work.  The held
 * search can only differ from the free one where some order is in
 * question: two consecutive calls of a link (arrival order at the callee)
 * both open at once, so that either answer could come first.  Where the
 * free solution leaves few such pairs the held search's order terms have
 * little to act on.
 *
 * The rule, computed from the free search alone: Q, the consecutive pairs
 * of calls in question summed over every link (the answers' order state
 * the held search would build, joint_rord_fit on the free solution; the
 * same count the output's pair_order_link lines report), and the busy
 * test's verdict on the free solution with its own copies (joint_pick with
 * the free search as both sides: no pair changed, so it decides nothing,
 * but it says which services serialise).  When Q <= held_skip, the free
 * search learned no parallel call (joint_serial_flags, nor one it learned
 * and dropped: joint_bbserial_ever) and no service serialises (by the busy
 * test, or by busy_space's spacing of sends) the held search is not run
 * and the free search is kept; its order-term score is still reported.
 * Otherwise init_choose runs as before.  Why the parallel calls: the two
 * searches part first at their parallel flags, and a learned parallel call
 * lets a search stack the burst of calls that follows one request's answer
 * onto another request still waiting (joint_pileup.conf): there the held
 * search re-pairs far more than the pairs in question (maketrace
 * joint_pileup seed 1, 0.3 s: 12 in question, 53 pairs changed, +25 nats).
 * Metadata: held_skip=skipped|ran in_question= limit= learned_parallel=
 * serialising=yes|no|untested.
 */
#include "joint_int.h"

#include <math.h>
#include <stdlib.h>

/* the consecutive pairs in question over every link of s's current
 * solution; -1 when out of memory (joint_unpcert.c's statistic too) */
double joint_heldskip_in_question(joint *s)
{
    int temp = !s->rord;
    if (temp && joint_rord_init(s) != PB_OK)
        return -1;
    joint_rord_fit(s);
    double q = 0;
    for (uint32_t l = 0; l < s->nlinks; l++) {
        double n, k;
        int on;
        joint_rord_stats(s, l, &n, &k, &on);
        q += n;
    }
    if (temp)
        joint_rord_free(s);
    return q;
}

/* services the busy test (or busy_space) finds serialising on a's own
 * copies; -1 when out of memory */
static int serialising(joint *a)
{
    if (!a->p.busy_test)
        return 0;
    double *st = NULL, sum[3] = {0, 0, 0};
    int held = 0;
    int keep_same = a->p.busy_skip_same;
    a->p.busy_skip_same = 0; /* the copies drawn: no pair differs */
    int rc = joint_pick(a, a, &st, sum, &held);
    a->p.busy_skip_same = keep_same;
    if (rc != PB_OK)
        return -1;
    int n = 0;
    for (uint32_t v = 0; v < a->nnodes; v++) {
        const double *x = st + JOINT_PICK_NSTAT * (size_t)v;
        n += x[6] > 0 || (a->p.busy_space && !a->coarse && x[11] < -JOINT_SPACE_Z);
    }
    free(st);
    return n;
}

int joint_heldskip_decide(joint *a)
{
    a->hskip[0] = 0;
    if (a->p.held_skip <= 0)
        return 0;
    double q = joint_heldskip_in_question(a);
    if (q < 0)
        return PB_ENOMEM;
    a->hskip[0] = 1; /* decided: the line is written */
    a->hskip[1] = q;
    a->hskip[2] = -1; /* serialising: not tested */
    a->hskip[4] = (double)joint_serial_flags(a) + joint_bbserial_ever(a);
    if (q > a->p.held_skip || a->hskip[4] > 0)
        return 0;
    int n = serialising(a);
    if (n < 0)
        return PB_ENOMEM;
    a->hskip[2] = n;
    if (n > 0)
        return 0;
    a->hskip[3] = 1; /* skipped */
    return 1;
}

/* sv_lazy (joint_sv.c): could joint_heldskip_decide skip the held search
 * on a as it stands (the count and the learned parallel calls only, not the
 * busy test's copies)?  1 yes, 0 no, < 0 out of memory */
int joint_heldskip_maybe(joint *a)
{
    if (a->p.held_skip <= 0)
        return 0;
    double q = joint_heldskip_in_question(a);
    if (q < 0)
        return PB_ENOMEM;
    return q <= a->p.held_skip && (double)joint_serial_flags(a) + joint_bbserial_ever(a) <= 0;
}

void joint_heldskip_carry(joint *to, const joint *from)
{
    for (int i = 0; i < 5; i++)
        to->hskip[i] = from->hskip[i];
}

int joint_heldskip_meta(const joint *s, pb_result *res)
{
    if (!s->hskip[0])
        return 0;
    if (s->hskip[3] > 0) /* the pair_order line, the held search's numbers left out */
        pb_result_meta(res, "pair_order=auto chosen=free held_search=skipped "
                            "log_likelihood_free=%.3f with_order_free=%.3f",
                       s->pord_ll[0], s->pord_ll[2]);
    pb_result_meta(res, "held_skip=%s in_question=%.0f limit=%g learned_parallel=%.0f "
                        "serialising=%s",
                   s->hskip[3] > 0 ? "skipped" : "ran", s->hskip[1], s->p.held_skip, s->hskip[4],
                   s->hskip[2] < 0 ? "untested" : s->hskip[2] > 0 ? "yes" : "no");
    return s->hskip[3] > 0;
}

int joint_heldskip_scores(joint *a, double l0[2], double lo[2])
{
    l0[0] = joint_loglik(a);
    l0[1] = lo[1] = NAN; /* no held search: never kept by the likelihood */
    return a->p.ll_share ? joint_order_score_at(a, l0[0], &lo[0]) : joint_order_score(a, &lo[0]);
}
