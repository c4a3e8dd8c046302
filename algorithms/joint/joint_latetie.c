/*
 * joint_latetie.c - joint: which calls no request encloses, at stamps
 * coarser than the delays (docs/joint/model.md, "Calls that outlive their
 * request", "Ties at the response's stamp").
 *
 * The late-call rule asks, per link of a service that passed the test
 * (joint_late.c), whether most of the link's calls are orphans (no
 * request of the caller encloses them: late_lshare), and if so gives
 * every call of the link the requests it was sent in (joint_latesend.c,
 * `late_link=`) instead of holding its orphans for placement after the
 * search (joint_lateattach.c).  The candidate test counts a request as
 * enclosing a call when its response is stamped no earlier than the
 * call's return (end >= return).  At nanosecond stamps an equal stamp is
 * a real zero delay; at whole-millisecond stamps it is a tie, and half
 * the ties hide a return that came after the response.  The share of
 * orphans then depends on the stamps, not on the service: the logger
 * link of experiments/joint_apps_async.conf at twice the load (every
 * one of its calls returns after its request's response) is 79 %
 * orphans at nanosecond stamps and 44 % at 1 ms, so the link is no
 * longer a late link at 1 ms and its orphans are held (docs/joint.md).
 *
 * The same criterion at every resolution: the share counts each call by
 * the probability that no request encloses it.  A call some request
 * ends strictly after (end > return) has probability 0; a call without
 * a candidate 1; at coarse stamps (infer's coarse_ties=1) a call whose k
 * candidates all end in the tick of its return: with the true return
 * and the k true ends independent and uniform within that tick, the
 * probability that the return comes after all k ends is
 * integral_0^1 u^k du = 1 / (k + 1).  Without coarse ties an equal stamp
 * stays inside (the rule before, byte for byte).
 */
#include "joint_int.h"

double joint_late_tie_weight(const joint *s, uint32_t p)
{
    const uint32_t c0 = s->cand_off[p], c1 = s->cand_off[p + 1];
    if (c1 == c0)
        return 1.0;
    if (!s->p.late_tie_share || !s->coarse || s->tick <= 1)
        return 0.0;
    const jpair *x = &s->pr[p];
    if (x->call == JOINT_NONE || x->ret == JOINT_NONE)
        return 0.0;
    const pb_ns w = s->p.slack;
    uint32_t k = 0;
    for (uint32_t j = c0; j < c1; j++) {
        pb_ns qe = req_end(s, s->cand[j]) + w;
        if (qe > x->rr)
            return 0.0; /* surely enclosed */
        k++;
    }
    return 1.0 / (double)(k + 1);
}
