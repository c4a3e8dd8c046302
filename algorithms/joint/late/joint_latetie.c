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
    /* late_tie_learn: on spread rows, the link's learned late chance
     * (joint_latelearn.c) */
    if (s->p.late_tie_share && s->ltl_pi && s->coarse && s->tick <= 1)
        return joint_late_learn_weight(s, p);
    /* late_excess_ties=2: also on rows subtick spread over their ticks
     * (joint_lateexties.c) */
    if (s->p.late_tie_share && s->p.late_excess_ties >= 2 && s->coarse && s->tick <= 1)
        return joint_late_ties_weight(s, p);
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

/*
 * Rows within a tick at a late service (late_rows; docs/joint/ticks_rows.md,
 * "Late calls on rows in event order").  tie_rows (joint_rowtie.c) reads
 * the rows of a tick as the order of events on two sides: a request that
 * arrived in a later row than a call cannot be its parent (the calls'
 * side), nor one answered in an earlier row than the call's return (the
 * returns' side).  A service that passed the late-call test was not
 * tested at all, and its calls lost the rows' evidence on both sides: on
 * experiments/joint_apps_retry.conf x2 at 1 ms with subtick=off, fe's
 * 4,127 calls kept 1,774 candidates the rows put out, and joint fell 15
 * points under late_calls=0 (which tests fe and uses its rows).
 *
 * The calls' side holds for a late call as for any (it is still sent
 * after its request arrived).  The returns' side is what a late call
 * breaks, so it may judge only candidates that must enclose the call: at
 * a service whose orphans are held for placement after the search
 * (joint_lateattach.c) and none of whose links is a late link, every
 * call searched keeps only the requests that enclose it (the send gap
 * aside), as at a service that passed nothing, and the rows judge that
 * enclosure within a tick as they do there (a call tied with its true
 * request's response in a later row is an orphan at the rows'
 * resolution, and a call the rows would leave with none keeps all of its
 * own).  Where calls are widened (widen=all, a late link, or late_attach
 * off) the returns' side would cut the widened candidates: the calls'
 * side alone.
 */
int joint_late_row_held(const joint *s, uint32_t a)
{
    if (!s->late_gap || s->late_gap[a] < 0 || !s->p.late_attach || !s->p.late_split ||
        s->late_stat[JOINT_LATE_NSTAT * (size_t)a + 7] > 0)
        return 0;
    for (uint32_t l = 0; s->late_lshare && l < s->nlinks; l++)
        if (s->link_src[l] == a && s->late_lshare[l] >= 0.5)
            return 0;
    return 1;
}

int joint_late_row_sides(const joint *s, uint32_t a)
{
    if (!s->late_gap || s->late_gap[a] < 0)
        return 3;
    if (!s->p.late_rows)
        return 0;
    /* both sides while the orphans are held (the search), the calls' side
     * once they are given their widened candidates (joint_la_attach) */
    return s->late_hold && joint_late_row_held(s, a) ? 2 : 1;
}

int joint_late_row_used(const joint *s, const joint_rowtie_stat *st, uint32_t a)
{
    if (st[a].late < 2)
        return 0;
    /* a late service's own test is weak: in event order its late calls
     * fail the returns' side too, and a busy front service leaves almost
     * no call without a candidate on the calls' side whatever the order
     * (fe of the retries x2 at 1 ms: 2 of 1,022 in event order, 3 of
     * 1,113 with every tick shuffled).  So its rows are used only where no
     * other service whose rows were tested refutes them */
    for (uint32_t b = 0; b < s->nnodes; b++)
        if (!st[b].late && !st[b].used &&
            (st[b].cut[0] >= JOINT_ROWTIE_MIN || st[b].cut[1] >= JOINT_ROWTIE_MIN))
            return 0;
    const double f = s->p.tie_rows_fail;
    if (st[a].late == 3 && joint_rowtie_decide(st[a].cut[0], st[a].fail[0], f))
        return 2;
    return joint_rowtie_decide(st[a].cut[1], st[a].fail[1], f) ? 1 : 0;
}
