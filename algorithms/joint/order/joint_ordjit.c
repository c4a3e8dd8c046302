/*
 * joint_ordjit.c - joint without call ids: near-ties in the order of
 * answers (option order_jitter; docs/joint/loss_late.md, "Near-ties in
 * the order of answers (h230)").
 *
 * order_cross's step (joint_tieorder.c) scores each move by the whole
 * model with the order terms (joint_order.c): of two consecutive calls of
 * a link by the callee's reads, the later one answered first is an
 * overtake.  When the two answers leave the callee within the stamps'
 * noise, which of them is "first" is a coin, yet the term charges it as
 * a full event (log rho against log (1 - rho)).  With order_jitter = k >
 * 0, while the step scores, a pair whose answers are sent within k times
 * the link's stamp jitter is a near-tie: not in question, neither charged
 * nor counted in the link's rate.  The jitter is learned from the trace:
 * the larger of the median absolute deviations of the link's call delays
 * (cr - cs) and of its return delays (rr - rs) over its whole pairs (a
 * spread, so a clock offset between the two nodes does not enter).
 */
#include "joint_int.h"
#include <stdlib.h>
#include "pb_sort.h"

static int cmp_ns(const void *a, const void *b)
{
    pb_ns x = *(const pb_ns *)a, y = *(const pb_ns *)b;
    return x < y ? -1 : x > y;
}

static pb_ns mad(pb_ns *v, uint32_t m)
{
    pb_sort(v, m, sizeof *v, cmp_ns);
    pb_ns med = v[m / 2];
    for (uint32_t i = 0; i < m; i++)
        v[i] = v[i] < med ? med - v[i] : v[i] - med;
    pb_sort(v, m, sizeof *v, cmp_ns);
    return v[m / 2];
}

pb_ns joint_ordjit_link(const joint *s, const uint32_t *pairs, uint32_t m, pb_ns *buf)
{
    if (m < 2)
        return 0;
    for (uint32_t i = 0; i < m; i++)
        buf[i] = s->pr[pairs[i]].cr - s->pr[pairs[i]].cs;
    pb_ns a = mad(buf, m);
    for (uint32_t i = 0; i < m; i++)
        buf[i] = s->pr[pairs[i]].rr - s->pr[pairs[i]].rs;
    pb_ns b = mad(buf, m);
    return a > b ? a : b;
}

int joint_ordjit_tie(const joint *s, pb_ns j, pb_ns rx, pb_ns ry)
{
    if (!s->p.ocx_on || s->p.order_jitter <= 0)
        return 0;
    pb_ns d = rx < ry ? ry - rx : rx - ry;
    return (double)d <= s->p.order_jitter * (double)j;
}

/* The order of service's first calls (joint_modelfit.c's joint_fit_order)
 * counted again with near-ties left out: per link, two requests whose
 * first calls of the link were triggered one after the other and are in
 * question (the second trigger before the first call's send) count only
 * when the two calls' sends differ by more than k times the link's
 * jitter jit[l].  n[l], kk[l]: in question and overtaken; *ties: left
 * out.  The first call and its trigger are joint_fit_order's. */
typedef struct ojent {
    pb_ns trig;
    uint32_t q, first;
} ojent;

static int cmp_oj(const void *x, const void *y)
{
    const ojent *a = x, *b = y;
    if (a->trig != b->trig)
        return a->trig < b->trig ? -1 : 1;
    return a->q < b->q ? -1 : a->q > b->q;
}

static uint32_t oj_first(const joint *s, const uint32_t *k, uint32_t n, uint32_t l)
{
    for (uint32_t i = 0; i < n; i++)
        if (s->pr[k[i]].link == l && s->pr[k[i]].call != JOINT_NONE)
            return k[i];
    return JOINT_NONE;
}

static pb_ns oj_trig(const joint *s, uint32_t q, const uint32_t *k, uint32_t n, uint32_t p)
{
    pb_ns tt = s->pr[q].cr, cs = s->pr[p].cs;
    for (uint32_t i = 0; i < n; i++) {
        const jpair *c = &s->pr[k[i]];
        if (k[i] != p && c->ret != JOINT_NONE && c->rr <= cs && c->rr > tt)
            tt = c->rr;
    }
    return tt;
}

int joint_ordjit_first(const joint *s, const pb_ns *jit, double k, double *n, double *kk,
                       double *ties)
{
    ojent *e = malloc(((size_t)s->npairs + 1) * sizeof *e);
    if (!e)
        return PB_ENOMEM;
    for (uint32_t l = 0; l < s->nlinks; l++) {
        uint32_t m = 0;
        for (uint32_t i = s->bylink_off[l]; i < s->bylink_off[l + 1]; i++) {
            uint32_t p = s->bylink[i], q = s->par[p];
            if (q == JOINT_NONE || s->pr[p].call == JOINT_NONE)
                continue;
            if (oj_first(s, s->kids[q].a, s->kids[q].n, l) != p)
                continue;
            e[m++] = (ojent){oj_trig(s, q, s->kids[q].a, s->kids[q].n, p), q, p};
        }
        if (m > 1)
            pb_sort(e, m, sizeof *e, cmp_oj);
        double tot = 0, inv = 0;
        for (uint32_t i = 1; i < m; i++) {
            if (e[i].trig > s->pr[e[i - 1].first].cs)
                continue;
            pb_ns a = s->pr[e[i].first].cs, b = s->pr[e[i - 1].first].cs;
            pb_ns d = a < b ? b - a : a - b;
            if ((double)d <= k * (double)jit[l]) {
                (*ties)++;
                continue; /* a near-tie: neither order charged */
            }
            tot++;
            inv += a < b;
        }
        n[l] = tot;
        kk[l] = inv;
    }
    free(e);
    return PB_OK;
}
