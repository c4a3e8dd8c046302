/*
 * joint_lateends.c - joint: late_ends, a late link's share of calls that
 * outlive their request counted from the requests that end during its
 * calls, where the orphans cannot say it (docs/joint/shapes_w36.md, "The
 * late share from the ends inside the calls (h318)").
 *
 * Why.  late_chance (joint_lchance.c) estimates a link's late share from
 * its orphans (calls no request of the sender encloses), each counted
 * 1 / (1 - c), c its own chance of being enclosed by some request were it
 * placed at random.  When the sender is busy nearly all the time, c is
 * near 1 and is capped at 0.95 (JOINT_LCH_CMAX), so the estimate is a
 * lower bound; the orphans are then a handful of calls and the share
 * stays far under 1/2.  models2's hedge x2 at 1 ms with call ids
 * (experiments/joint_models_hedge.conf, twice the load; the frontend
 * busy 99 %): 80 % of the `log` calls outlive their request (the ns
 * truth), 12 weighted orphans remain, own c 0.988, share 0.11, and the
 * link is not widened whole (16 % exact).
 *
 * The estimate.  A call that outlives its request saw that request end
 * while it was out: between its send cs and its return rr.  Any call
 * also sees, by chance, the ends of the sender's other requests.  So the
 * number of the sender's request ends strictly inside (cs, rr), summed
 * over the link's calls, is the number of late calls plus the chance
 * count, and the chance count is measured as late_chance measures
 * enclosure: the call's [send, return] length placed at JOINT_LCH_OPOS
 * positions of the golden-ratio sequence over the trace, the ends inside
 * counted.  The late share is (ends inside - chance) / calls.  Unlike
 * the orphans' estimate it does not divide by 1 - c: every call counts
 * once, the busier the sender the larger the chance count but not its
 * weight.  An end stamped equal to cs or rr counts 1/2 (no such ties at
 * ns; on rows subtick spread the stamps are the spread ones).
 *
 * The rule (late_ends=1).  Only on the links late_chance judged whose
 * orphans' mean own enclosure chance is at the cap (the estimate a lower
 * bound) and whose share stays under 1/2: the share becomes the ends'
 * estimate where larger, so the link is widened whole when that is at
 * least 1/2 (the link rule's own threshold).  Elsewhere nothing changes.
 * No constant of its own.  Metadata `late_ends=SRC>DST calls= ends_inside=
 * chance= share= se= orphan_share= net_ns= widen=`.
 */
#include "joint_int.h"
#include "pb_sort.h"
#include <math.h>
#include <stdlib.h>

#define LTE_OPOS 64      /* positions per call: late_chance's JOINT_LCH_OPOS */
#define LTE_CMAX 0.95    /* late_chance's JOINT_LCH_CMAX: own c at the cap */

static int cmp_ns(const void *x, const void *y)
{
    const pb_ns a = *(const pb_ns *)x, b = *(const pb_ns *)y;
    return a < b ? -1 : a > b;
}

/* the first index of e[0..n) with e[i] >= t (strict: > t) */
static uint32_t lte_lb(const pb_ns *e, uint32_t n, pb_ns t, int strict)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t m = lo + (hi - lo) / 2;
        if (strict ? e[m] <= t : e[m] < t)
            lo = m + 1;
        else
            hi = m;
    }
    return lo;
}

/* the ends in (t0, t1), an end at t0 or t1 counted 1/2 */
static double lte_inside(const pb_ns *e, uint32_t n, pb_ns t0, pb_ns t1)
{
    if (t1 < t0)
        return 0;
    uint32_t a0 = lte_lb(e, n, t0, 0), a1 = lte_lb(e, n, t0, 1);
    uint32_t b0 = lte_lb(e, n, t1, 0), b1 = lte_lb(e, n, t1, 1);
    if (t1 == t0)
        return 0.5 * (double)(a1 - a0);
    return (double)(b0 - a1) + 0.5 * (double)((a1 - a0) + (b1 - b0));
}

static pb_ns lte_tk(pb_ns t, pb_ns tk)
{
    return t >= 0 ? t / tk : -((-t + tk - 1) / tk);
}

/* on rows subtick spread, the rows' original tick, else 0 */
static pb_ns lte_tick(const joint *s)
{
    return s->coarse && s->tick <= 1 && s->p.subtick_tick > 1 ? s->p.subtick_tick : 0;
}

/* the return's receipt: on spread rows a return received in the tick it
 * was sent sits at its send's position (recv_ts moved with ts): it was
 * received the link's network delay dn later; one received in a later
 * tick sits at that tick's start, received within dn of it (its send's
 * phase uniform): dn / 2 later.  Elsewhere its own stamp. */
static pb_ns lte_rr(const joint *s, const jpair *x, pb_ns tk, double dn)
{
    if (!tk)
        return x->rr;
    const pb_msg *m = &s->v.msgs[x->ret];
    if (m->recv_ts == PB_TS_NONE)
        return x->rr;
    int same = lte_tk(m->recv_ts, tk) == lte_tk(m->ts, tk);
    return x->rr + (pb_ns)(same ? dn : dn / 2);
}

static pb_ns lte_pos(pb_ns t0, double span, pb_ns cs, int j)
{
    double u = (double)(cs - t0) / span + 0.6180339887498949 * j;
    u -= (double)(long long)u;
    return t0 + (pb_ns)(u * span);
}

int joint_late_ends(joint *s, const uint32_t *lcalls)
{
    free(s->lte_stat);
    s->lte_stat = NULL;
    if (!s->p.late_ends || !s->lch_stat || !s->late_lshare || !s->late_gap)
        return PB_OK;
    uint32_t n = s->npairs, nn = s->nnodes, nl = s->nlinks;
    unsigned char *on = calloc((size_t)nl + 1, 1);
    unsigned char *son = calloc((size_t)nn + 1, 1);
    if (!on || !son) {
        free(on);
        free(son);
        return PB_ENOMEM;
    }
    int any = 0;
    for (uint32_t l = 0; l < nl; l++) {
        const double *st = s->lch_stat + JOINT_LCH_NSTAT * (size_t)l;
        on[l] = st[0] > 0 && st[1] >= LTE_CMAX && s->late_lshare[l] < 0.5 && lcalls[l];
        if (on[l]) {
            son[s->link_src[l]] = 1;
            any = 1;
        }
    }
    if (!any) {
        free(on);
        free(son);
        return PB_OK;
    }
    pb_ns t0 = 0, t1 = 0;
    int have = joint_pairs_span(s, &t0, &t1);
    uint32_t *off = calloc((size_t)nn + 2, sizeof *off);
    pb_ns *ends = malloc(((size_t)n + 1) * sizeof *ends);
    double *acc = calloc(4 * ((size_t)nl + 1), sizeof *acc);
    s->lte_stat = malloc(JOINT_LTE_NSTAT * ((size_t)nl + 1) * sizeof *s->lte_stat);
    double *dn = calloc(2 * ((size_t)nl + 1), sizeof *dn);
    if (!off || !ends || !acc || !s->lte_stat || !dn || !have || t1 <= t0) {
        int rc = off && ends && acc && s->lte_stat && dn ? PB_OK : PB_ENOMEM;
        free(on);
        free(son);
        free(off);
        free(ends);
        free(acc);
        free(dn);
        free(s->lte_stat);
        s->lte_stat = NULL;
        return rc;
    }
    /* each judged sender's request ends (whole pairs), sorted */
    for (uint32_t q = 0; q < n; q++)
        if (s->pr[q].call != JOINT_NONE && s->pr[q].ret != JOINT_NONE && son[s->pr[q].callee])
            off[s->pr[q].callee + 2]++;
    for (uint32_t b = 0; b < nn; b++)
        off[b + 2] += off[b + 1];
    for (uint32_t q = 0; q < n; q++)
        if (s->pr[q].call != JOINT_NONE && s->pr[q].ret != JOINT_NONE && son[s->pr[q].callee])
            ends[off[s->pr[q].callee + 1]++] = req_end(s, q);
    for (uint32_t b = 0; b < nn; b++)
        if (off[b + 1] - off[b] > 1)
            pb_sort(ends + off[b], off[b + 1] - off[b], sizeof *ends, cmp_ns);
    double span = (double)(t1 - t0);
    /* on spread rows, each judged link's network delay: tick x the share
     * of its returns received in a later tick than sent (late_tie_learn's
     * estimate, joint_latelearn.c) */
    const pb_ns tk = lte_tick(s);
    for (uint32_t q = 0; tk && q < n; q++) {
        const jpair *x = &s->pr[q];
        if (!on[x->link] || x->ret == JOINT_NONE || s->v.msgs[x->ret].recv_ts == PB_TS_NONE)
            continue;
        const pb_msg *m = &s->v.msgs[x->ret];
        dn[2 * (size_t)x->link] += 1;
        dn[2 * (size_t)x->link + 1] += lte_tk(m->recv_ts, tk) != lte_tk(m->ts, tk);
    }
    for (uint32_t l = 0; l < nl; l++)
        dn[2 * (size_t)l] = dn[2 * (size_t)l] > 0
                                ? (double)tk * dn[2 * (size_t)l + 1] / dn[2 * (size_t)l]
                                : 0;
    /* per judged link: calls, ends inside, chance, the sum of squares of
     * each call's excess (its standard error) */
    for (uint32_t q = 0; q < n; q++) {
        const jpair *x = &s->pr[q];
        uint32_t l = x->link, a = s->link_src[l];
        if (!on[l] || x->call == JOINT_NONE || x->ret == JOINT_NONE)
            continue;
        const pb_ns *e = ends + off[a];
        uint32_t ne = off[a + 1] - off[a];
        pb_ns rr = lte_rr(s, x, tk, dn[2 * (size_t)l]), d = rr - x->cs;
        double in = lte_inside(e, ne, x->cs, rr), ch = 0;
        for (int j = 1; j <= LTE_OPOS; j++) {
            pb_ns p0 = lte_pos(t0, span, x->cs, j);
            ch += lte_inside(e, ne, p0, p0 + d);
        }
        ch /= LTE_OPOS;
        double *c = acc + 4 * (size_t)l;
        c[0] += 1;
        c[1] += in;
        c[2] += ch;
        c[3] += (in - ch) * (in - ch);
    }
    for (uint32_t l = 0; l < nl; l++) {
        double *st = s->lte_stat + JOINT_LTE_NSTAT * (size_t)l;
        st[0] = -1;
        const double *c = acc + 4 * (size_t)l;
        if (!on[l] || !(c[0] > 0))
            continue;
        double f = (c[1] - c[2]) / c[0];
        st[0] = c[0];
        st[1] = c[1];
        st[2] = c[2];
        st[3] = f;
        st[4] = s->late_lshare[l];
        st[6] = dn[2 * (size_t)l];
        double v = c[3] / c[0] - f * f;
        st[5] = v > 0 ? sqrt(v / c[0]) : 0;
        if (f > s->late_lshare[l]) {
            s->late_lshare[l] = f > 1 ? 1 : f;
            /* late_chance's line and count follow the share used */
            s->lch_stat[JOINT_LCH_NSTAT * (size_t)l + 2] = s->late_lshare[l];
            s->lch_links += s->late_lshare[l] >= 0.5;
        }
    }
    free(on);
    free(son);
    free(off);
    free(ends);
    free(acc);
    free(dn);
    return PB_OK;
}

void joint_late_ends_meta(const joint *s, pb_result *res)
{
    if (!s->lte_stat || !s->late_lshare)
        return;
    for (uint32_t l = 0; l < s->nlinks; l++) {
        const double *st = s->lte_stat + JOINT_LTE_NSTAT * (size_t)l;
        if (!(st[0] > 0))
            continue;
        pb_result_meta(res, "late_ends=%s>%s calls=%.0f ends_inside=%.1f chance=%.1f share=%.4f "
                            "se=%.4f orphan_share=%.4f net_ns=%.0f widen=%s",
                       pb_strtab_str(s->v.nodes, s->link_src[l]),
                       pb_strtab_str(s->v.nodes, s->link_dst[l]), st[0], st[1], st[2], st[3],
                       st[5], st[4], st[6], s->late_lshare[l] >= 0.5 ? "all" : "orphans");
    }
}
