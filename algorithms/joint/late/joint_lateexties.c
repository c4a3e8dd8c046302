/*
 * joint_lateexties.c - joint: late_excess_ties, the late-call test's excess
 * (whether a late service's every call gets the widened candidates) counted
 * with the calls tied at their request's end at coarse stamps
 * (docs/joint/shapes_w36.md, "The excess with the calls tied at the end
 * (h301)").
 *
 * A service that passes the late-call test (joint_late.c) gives every one
 * of its calls the widened candidates (widen=all, joint_latesend.c) when
 * the excess, the share of the test's near orphans that chance does not
 * explain, (k - m) / k, is at least 1/2.  An orphan is a call no request
 * encloses.  At nanosecond stamps that is what it says.  At whole-tick
 * stamps a call whose return is stamped in the tick of its request's end
 * is enclosed (end >= return) whatever came first, and half such ties hide
 * a return after the response.  The late-call rule already counts a call
 * by the probability that no request encloses it where it asks, per link,
 * whether most calls are orphans (late_tie_share, joint_latetie.c: a call
 * whose k candidates all end in its return's tick is an orphan with
 * probability 1 / (k + 1)); the excess did not: its orphans were the
 * untied ones alone.  Which calls the ticks take out of the count is not
 * chance: they are the calls that return soonest after an end, the short
 * ones sent last (on models2 hedge x1, a fire-and-forget log call, sent
 * just before the frontend answers and returning 0.1 ms later, whose
 * chance of coming near an end is 0.94: its near orphans are chance).  At
 * 1 ms stamps fewer of them are orphans than at ns (hedge seed 55: 204
 * orphans against 325), the excess is over-stated (0.53 at 1 ms, 0.36 at
 * ns) and straddles 1/2 from seed to seed (0.42-0.55): every index and kv
 * call of the frontend is widened at seeds 55, 60 and 61 (31-34 % exact
 * with call ids against 79-84 % at the others).
 *
 * The rule (late_excess_ties=1): the excess counts the tied calls as the
 * link rule does, each call by its probability w of being an orphan, with
 * its chance of coming near an end as any orphan's (its duration's share
 * of the time line at the test's gap): k + sum w [near], m + sum w p, the
 * chance count's variance + sum w p (1 - p).  The test itself (its
 * p-value, its gap) is unchanged.  Where the stamps are not coarse no call
 * is tied (w is 0 or 1): the excess is as before, byte for byte.
 * Metadata: late_excess_ties=SERVICE tied= tied_near= tied_chance=
 * excess_untied= excess= (late_stat[12] to [15]).
 *
 * late_excess_ties=2 also counts the tied calls in the per-link share on
 * rows subtick spread over their ticks (joint_late_tie_weight, where the
 * trace's own tick is 1 ns): hedge seed 61's log link (every call late)
 * 0.47 -> 1.00 and the row 37 -> 80 %, but the never-late kv link reaches
 * 0.51-0.55 and is widened whole (dev seed 2 81.5 -> 79.6 %): measured,
 * not proposed.
 */
#include "joint_int.h"

/* the tick ties are judged at: the trace's, or where subtick spread the
 * rows over their ticks (1 ns left), the tick they were stamped in */
static pb_ns ties_tick(const joint *s)
{
    if (!s->coarse)
        return 0;
    return s->tick > 1 ? s->tick : s->p.subtick_tick;
}

/* a call's chance of being an orphan: 0 where a candidate ends in a later
 * tick than its return, else 1 / (k + 1) with k candidates, all ending in
 * its return's tick (joint_late_tie_weight's rule, in whole ticks also on
 * spread rows: a return received in another tick than it was sent keeps
 * its whole-tick stamp there, so a response spread after it in that tick
 * says nothing about which came first) */
static double tie_weight(const joint *s, uint32_t p, pb_ns tk)
{
    const uint32_t c0 = s->cand_off[p], c1 = s->cand_off[p + 1];
    const jpair *x = &s->pr[p];
    const pb_ns rt = x->rr / tk;
    uint32_t k = 0;
    for (uint32_t j = c0; j < c1; j++) {
        pb_ns qe = req_end(s, s->cand[j]) + s->p.slack;
        if (qe / tk > rt)
            return 0.0; /* surely enclosed */
        k++;
    }
    return k ? 1.0 / (double)(k + 1) : 0.0;
}

double joint_late_ties_weight(const joint *s, uint32_t p)
{
    const pb_ns tk = ties_tick(s);
    if (tk <= 1 || s->pr[p].call == JOINT_NONE || s->pr[p].ret == JOINT_NONE)
        return 0.0;
    return tie_weight(s, p, tk);
}

/* The sums of the tied calls of service a at gap g: iv, ni the service's
 * own requests (start, end pairs, sorted by start), pmx the prefix maxima
 * of their ends, [t0, t1] its time line; every step-th tied call (the
 * test's own thinning).  Adds to *k (near), *m (chance), *v (variance) and
 * returns the weight of the calls counted. */
double joint_late_ties_sums(const joint *s, uint32_t a, const pb_ns *iv, uint32_t ni,
                            const pb_ns *pmx, pb_ns t0, pb_ns t1, pb_ns g, uint32_t step,
                            double *k, double *m, double *v)
{
    const pb_ns tk = ties_tick(s);
    if (!s->p.late_excess_ties || tk <= 1 || ni == 0 || t1 <= t0)
        return 0;
    const double span = (double)(t1 - t0);
    double wsum = 0;
    uint32_t seen = 0;
    for (uint32_t q = 0; q < s->npairs; q++) {
        const jpair *x = &s->pr[q];
        if (x->caller != a || x->call == JOINT_NONE || x->ret == JOINT_NONE ||
            s->cand_off[q + 1] == s->cand_off[q])
            continue;
        double w = tie_weight(s, q, tk);
        if (!(w > 0 && w < 1))
            continue;
        if (seen++ % step)
            continue;
        /* the latest end of a request begun by its send */
        uint32_t lo = 0, hi = ni;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (iv[2 * mid] <= x->cs)
                lo = mid + 1;
            else
                hi = mid;
        }
        int near = lo > 0 && x->rr - pmx[lo - 1] <= g;
        pb_ns d = x->rr > x->cs ? x->rr - x->cs : 0;
        /* its chance: the share of the time line in the union of
         * [start, end + g - d] (as the test's) */
        double cov = joint_late_cover(iv, ni, g - d, t0, t1);
        double p = cov / span;
        p = p < 0 ? 0 : p > 1 ? 1 : p;
        *k += w * near;
        *m += w * p;
        *v += w * p * (1 - p);
        wsum += w;
    }
    return wsum;
}

void joint_late_ties_meta(const joint *s, pb_result *res)
{
    if (!s->p.late_excess_ties || !s->late_stat || !s->late_gap || !s->p.late_split)
        return;
    for (uint32_t a = 0; a < s->nnodes; a++) {
        const double *st = s->late_stat + JOINT_LATE_NSTAT * (size_t)a;
        if (st[0] > 0 && s->late_gap[a] >= 0 && st[12] > 0)
            pb_result_meta(res, "late_excess_ties=%s tied=%.1f tied_near=%.1f tied_chance=%.1f "
                           "excess_untied=%.3f excess=%.3f widen=%s",
                           pb_strtab_str(s->v.nodes, a), st[12], st[13], st[14], st[15], st[6],
                           st[7] > 0 ? "all" : "orphans");
    }
}
