/*
 * joint_latelearn.c - joint: late_tie_learn, a link's chance that a call
 * tied at its request's end outlives it, learned from the order of the
 * rows (docs/joint/shapes_w36.md, "A learned late chance per link for the
 * tied calls (h307)").
 *
 * The late-call rule widens a link of a late service whole (every call
 * gets the requests it was sent in, joint_latesend.c) when its estimated
 * late share is at least 1/2: the orphans (calls no request encloses),
 * each by the inverse of its chance of escaping the other requests
 * (late_chance, joint_lchance.c).  A call whose return is stamped in the
 * tick where all its candidates end (tied) may have returned before or
 * after its request's end.  At the trace's own coarse tick it counts
 * 1 / (k + 1) (k candidates; the return and the ends independent and
 * uniform in the tick, joint_latetie.c); on rows subtick spread over their
 * ticks it counts 0.  Neither is learned: models2's hedge at 1 ms with call
 * ids has the log link late at 0.82 (truth) with 20 % of its calls tied,
 * the kv link never late with 15 % tied.  Counting the tied log calls 0
 * leaves its share at 0.47-0.62 from seed to seed (s61 and s64 below 1/2:
 * 37 and 39 % exact); counting every tied call 1 / (k + 1)
 * (late_excess_ties=2) widens kv too.
 *
 * What the rows say (only on rows subtick spread, whose order it checked
 * to be the order of events).  A tied call whose return was received in
 * the tick it was sent has its return row in the same run of rows as its
 * candidates' responses.  The return outlives the request when it arrives
 * after the response is sent: when the gap g from the return's send to
 * the response is under the link's network delay d.  With j rows between
 * them and a run of n rows in the tick (rows at rate n per tick), g's
 * posterior under a flat prior is Gamma(j + 1, n / tick), so
 *     P(late) = P(g < d) = P(Poisson(n d / tick) >= j + 1),
 * and 1 where the response's row comes first.  d is learned per link from
 * its returns: with d under a tick and the send's phase in the tick
 * uniform, a return is received in a later tick than sent with chance
 * d / tick, so d = tick x that share.  The response is the latest of the
 * candidates' (the one the call must outlive to be an orphan).
 *
 * The rule (late_tie_learn=1): the link's late chance pi_l is the mean of
 * P(late) over its tied calls so placed (the posterior expected share of
 * its tied calls that are late), and every tied call of the link counts
 * pi_l in the late share (late_lshare, and late_chance's estimate, where
 * it is then weighed as an orphan by 1 / (1 - c)).  A link with fewer than
 * JOINT_LTL_MIN placed calls keeps the default's 0 (said in the metadata).
 * Only on spread rows and with late_split; elsewhere nothing changes.
 * Metadata late_tie_learn=SRC>DST tied= placed= late_chance= net_ns=.
 */
#include "joint_int.h"
#include <math.h>
#include <stdlib.h>

#define JOINT_LTL_MIN 5 /* placed tied calls a link needs for its chance to be learned */

/* the rows' original tick on spread rows, else 0 */
static pb_ns ltl_tick(const joint *s)
{
    if (!s->p.late_tie_learn || !s->p.late_split || !s->coarse || s->tick > 1 ||
        s->p.subtick_tick <= 1)
        return 0;
    return s->p.subtick_tick;
}

static pb_ns tk_of(pb_ns t, pb_ns tk)
{
    return t >= 0 ? t / tk : -((-t + tk - 1) / tk);
}

/* P(Poisson(lam) >= j + 1) */
static double pois_tail(double lam, uint32_t j)
{
    double term = exp(-lam), cdf = term;
    for (uint32_t x = 1; x <= j; x++) {
        term *= lam / x;
        cdf += term;
    }
    double p = 1 - cdf;
    return p < 0 ? 0 : p > 1 ? 1 : p;
}

/* tied at the original tick: every candidate ends in the return's tick */
static int ltl_tied(const joint *s, uint32_t q, pb_ns tk)
{
    const uint32_t c0 = s->cand_off[q], c1 = s->cand_off[q + 1];
    const jpair *x = &s->pr[q];
    if (c1 == c0 || x->call == JOINT_NONE || x->ret == JOINT_NONE)
        return 0;
    const pb_ns rt = tk_of(x->rr, tk);
    for (uint32_t j = c0; j < c1; j++)
        if (tk_of(req_end(s, s->cand[j]) + s->p.slack, tk) > rt)
            return 0;
    return 1;
}

/* the posterior chance that tied call q returned after its latest
 * candidate's response, or -1 where the rows do not place it */
static double ltl_place(const joint *s, uint32_t q, pb_ns tk, double d)
{
    const jpair *x = &s->pr[q];
    const pb_msg *m = s->v.msgs;
    const uint32_t r = x->ret;
    const pb_ns rt = tk_of(m[r].ts, tk);
    if (m[r].recv_ts == PB_TS_NONE || tk_of(m[r].recv_ts, tk) != rt)
        return -1; /* received in another tick: no row says where */
    uint32_t e = JOINT_NONE;
    for (uint32_t j = s->cand_off[q]; j < s->cand_off[q + 1]; j++) {
        uint32_t re = s->pr[s->cand[j]].ret;
        if (re == JOINT_NONE || tk_of(m[re].ts, tk) != rt)
            return -1;
        if (e == JOINT_NONE || re > e)
            e = re;
    }
    if (e == JOINT_NONE)
        return -1;
    if (e < r)
        return 1.0; /* the response's row first */
    size_t lo = r, hi = r; /* the run of rows in the tick */
    while (lo > 0 && tk_of(m[lo - 1].ts, tk) == rt)
        lo--;
    while (hi + 1 < s->v.n && tk_of(m[hi + 1].ts, tk) == rt)
        hi++;
    double rate = (double)(hi - lo + 1) / (double)tk;
    return pois_tail(rate * d, e - r - 1);
}

int joint_late_learn(joint *s)
{
    free(s->ltl_pi);
    free(s->ltl_stat);
    s->ltl_pi = NULL;
    s->ltl_stat = NULL;
    const pb_ns tk = ltl_tick(s);
    if (!tk)
        return PB_OK;
    const uint32_t nl = s->nlinks, n = s->npairs;
    s->ltl_pi = calloc((size_t)nl + 1, sizeof *s->ltl_pi);
    s->ltl_stat = calloc(JOINT_LTL_NSTAT * ((size_t)nl + 1), sizeof *s->ltl_stat);
    if (!s->ltl_pi || !s->ltl_stat) {
        free(s->ltl_pi);
        free(s->ltl_stat);
        s->ltl_pi = NULL;
        s->ltl_stat = NULL;
        return PB_ENOMEM;
    }
    /* the network delay of each link's returns: tick x the share received
     * in a later tick than sent (st[4] returns, st[5] crossing) */
    const pb_msg *m = s->v.msgs;
    for (uint32_t q = 0; q < n; q++) {
        const jpair *x = &s->pr[q];
        if (x->ret == JOINT_NONE || m[x->ret].recv_ts == PB_TS_NONE)
            continue;
        double *st = s->ltl_stat + JOINT_LTL_NSTAT * (size_t)x->link;
        st[4] += 1;
        st[5] += tk_of(m[x->ret].recv_ts, tk) != tk_of(m[x->ret].ts, tk);
    }
    for (uint32_t l = 0; l < nl; l++) {
        double *st = s->ltl_stat + JOINT_LTL_NSTAT * (size_t)l;
        st[3] = st[4] > 0 ? (double)tk * st[5] / st[4] : 0;
    }
    /* st[0] tied calls, st[1] placed, st[2] their summed chance */
    for (uint32_t q = 0; q < n; q++) {
        if (!ltl_tied(s, q, tk))
            continue;
        double *st = s->ltl_stat + JOINT_LTL_NSTAT * (size_t)s->pr[q].link;
        st[0] += 1;
        double p = ltl_place(s, q, tk, st[3]);
        if (p >= 0) {
            st[1] += 1;
            st[2] += p;
        }
    }
    for (uint32_t l = 0; l < nl; l++) {
        const double *st = s->ltl_stat + JOINT_LTL_NSTAT * (size_t)l;
        s->ltl_pi[l] = st[1] >= JOINT_LTL_MIN ? st[2] / st[1] : 0;
    }
    return PB_OK;
}

double joint_late_learn_weight(const joint *s, uint32_t q)
{
    const pb_ns tk = ltl_tick(s);
    if (!tk || !s->ltl_pi)
        return 0.0;
    return ltl_tied(s, q, tk) ? s->ltl_pi[s->pr[q].link] : 0.0;
}

void joint_late_learn_meta(const joint *s, pb_result *res)
{
    if (!s->ltl_pi || !s->ltl_stat || !s->late_gap)
        return;
    for (uint32_t l = 0; l < s->nlinks; l++) {
        const double *st = s->ltl_stat + JOINT_LTL_NSTAT * (size_t)l;
        if (s->late_gap[s->link_src[l]] < 0 || !(st[0] > 0))
            continue;
        pb_result_meta(res, "late_tie_learn=%s>%s tied=%.0f placed=%.0f late_chance=%.4f "
                            "net_ns=%.0f%s",
                       pb_strtab_str(s->v.nodes, s->link_src[l]),
                       pb_strtab_str(s->v.nodes, s->link_dst[l]), st[0], st[1], s->ltl_pi[l],
                       st[3], st[1] >= JOINT_LTL_MIN ? "" : " too_few_placed=0");
    }
}
