/*
 * joint_thrtest.c - thread_soft_pick=6 (h233; docs/joint/shapes_late.md
 * "The receiving thread's term kept by a test of the thread itself";
 * issue 28).
 *
 * Why.  thread_soft_pick=3 (joint_thrpick.c) keeps the term's solution only
 * when the model without the term finds it likelier by more than 10 nats.
 * Where the term is right (seda, work stealing, the mesh at 1 ms) its
 * solution is 8-132 nats less likely under the delays alone and still the
 * more accurate: the delays cannot see what the thread says.
 *
 * The rule.  Both inferences run as for pick=3 (the second with the term
 * fitted and muted, as pick=4's).  In each final solution the thread test
 * (joint_thread.c) counts again, over the services the term weighs, the
 * answers n, the misses k (an answer on no open visit's thread) and
 * chance's misses e.  The thread's evidence for the term's solution is the
 * binomial log-likelihood ratio of the two counts, each at its own fitted
 * miss rate k/n (G = ll(kS, nS) - ll(kT, nT)); the delays' evidence against
 * it is D = l_without(T) - l_without(S).  The term's solution is kept when
 * G > D + JOINT_RESTART_MARGIN.  Metadata thread_soft_rate_test= with the
 * counts.
 */
#include "joint_int.h"

#include <math.h>

static double binll(double k, double n)
{
    if (n <= 0)
        return 0;
    double p = k / n, l = 0;
    if (k > 0)
        l += k * log(p);
    if (n - k > 0)
        l += (n - k) * log1p(-p);
    return l;
}

/* s: the term's solution, t: the other (term fitted, muted); 1: keep s */
int joint_thrtest_pick(joint *s, joint *t, double ls, double lt)
{
    double cs[3], ct[3];
    if (joint_thread_count(s, s, cs) != PB_OK || joint_thread_count(t, s, ct) != PB_OK)
        return ls > lt + JOINT_RESTART_MARGIN; /* out of memory: pick=3's check */
    double g = binll(cs[1], cs[0]) - binll(ct[1], ct[0]), d = lt - ls;
    if (s->p.thread_soft_heldout > 0 && joint_thrheld_d(s, t, &d) != PB_OK)
        d = lt - ls; /* out of memory: in sample (joint_thrheld.c) */
    int with = g > d + JOINT_RESTART_MARGIN;
    s->thrho[3] = with;
    s->thrho[4] = g; /* thread_soft_mendfirst (joint_thrmove.c) */
    double rt[5] = {with ? 2 : 1, cs[1], cs[2], ct[1], ct[2]};
    joint_thread_rt(s, rt);
    joint_thread_rt(t, rt);
    return with;
}
