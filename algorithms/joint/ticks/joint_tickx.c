/*
 * joint_tickx.c - joint at whole-tick stamps: a service that serves in
 * tick order keeps the order of its requests' calls (`tick_fifo`;
 * docs/joint/ticks_rows.md, "A service in tick order: its calls in tick order").
 *
 * At whole-tick stamps whose rows within a tick are not in event order
 * (subtick declines), the delay densities see ticks only, and the model
 * refitted on the search's own assignment rewards concentrating delays
 * on zero ticks: the search gives request A (arrived in tick 69) the call
 * of tick 71 and request B (arrived in tick 70) the call of tick 70,
 * delays 2 and 0 for the truth's 1 and 1.  That is a crossing: A arrived
 * in an earlier tick than B and its call was sent in a later tick.  A
 * service that serves in arrival order (one worker, or a pool whose
 * delays are short against the tick) cannot make one; only an order of
 * the tied rows is unknown, and every tick-monotone assignment is
 * first-come-first-served for some order of them.
 *
 * Decided from the trace, per service, with call ids (the requests'
 * intervals need no assignment): its requests by arrival tick; request y
 * is in question when a request that arrived in a strictly earlier tick
 * is answered no earlier than y's arrival tick, and overtakes when such a
 * request is answered in a strictly later tick than y.  One trial per
 * request; the service is in tick order when the overtakes are too few
 * for a rate of JOINT_ORDER_RHO0 (one-sided binomial, JOINT_ORDER_ALPHA),
 * the response-order test of service_order at the tick.
 *
 * Applied after the search, only where the subtick test looked at the
 * rows and spread none (rows it spreads carry an order the search uses),
 * per link of such a service called once per request (as many calls as
 * whole requests): the requests by (arrival tick, answer tick), the calls
 * by (send tick, return tick), ties by pair (the rows: nothing in the
 * trace tells tied ones apart; the search's own choices there were worse
 * than the rows'), the i-th call to the i-th request.  A request that
 * encloses the call at the tick takes it also when max_candidates cut it
 * from the call's list; a call whose request does not stays (counted,
 * said on stderr).  The model is refitted when a call moved.
 */
#include "joint_int.h"

#include <gsl/gsl_cdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb_sort.h"

#define NONE JOINT_NONE

static inline pb_ns tick_of(const joint *s, pb_ns t)
{
    pb_ns k = t / s->tick;
    return (t % s->tick && t < 0) ? k - 1 : k;
}

typedef struct tx {
    pb_ns a, b; /* sort keys */
    uint32_t q, p;
} tx;

static int cmp_tx(const void *x, const void *y)
{
    const tx *u = x, *v = y;
    if (u->a != v->a)
        return u->a < v->a ? -1 : 1;
    if (u->b != v->b)
        return u->b < v->b ? -1 : 1;
    return u->q < v->q ? -1 : u->q > v->q;
}

/* request q encloses call p at the tick: arrived no later than p's send
 * tick, answered no earlier than p's return tick (a candidate list cut at
 * max_candidates may leave such a request out) */
static int encloses(const joint *s, uint32_t q, uint32_t p)
{
    return tick_of(s, s->pr[q].cr) <= tick_of(s, s->pr[p].cs) &&
           tick_of(s, s->pr[p].rr) <= tick_of(s, s->pr[q].rs);
}

/* service a's whole requests (paired by call id) into e by (arrival
 * tick, answer tick, pair); their count */
static uint32_t requests_by_tick(const joint *s, uint32_t a, tx *e)
{
    uint32_t m = 0;
    for (uint32_t q = 0; q < s->npairs; q++)
        if (s->pr[q].callee == a && s->pr[q].call != NONE && s->pr[q].ret != NONE)
            e[m++] = (tx){tick_of(s, s->pr[q].cr), tick_of(s, s->pr[q].rs), q, q};
    if (m > 1)
        pb_sort(e, m, sizeof *e, cmp_tx);
    return m;
}

/* the tick-order test of service a: *n in question, *k overtaken; its
 * p-value (1 when nothing is in question) */
static double svc_test(const joint *s, uint32_t a, tx *e, double *n, double *k)
{
    uint32_t m = requests_by_tick(s, a, e);
    double in = 0, ov = 0;
    pb_ns maxr = INT64_MIN, cur = INT64_MIN, maxr_cur = INT64_MIN;
    for (uint32_t i = 0; i < m; i++) {
        if (e[i].a != cur) { /* a new arrival tick: the earlier ones' latest answer */
            if (maxr_cur > maxr)
                maxr = maxr_cur;
            cur = e[i].a;
            maxr_cur = INT64_MIN;
        }
        if (maxr != INT64_MIN && maxr >= e[i].a) {
            in++;
            ov += maxr > e[i].b;
        }
        if (e[i].b > maxr_cur)
            maxr_cur = e[i].b;
    }
    *n = in;
    *k = ov;
    return in > 0 ? gsl_cdf_binomial_P((unsigned)ov, JOINT_ORDER_RHO0, (unsigned)in) : 1.0;
}

/* service a's links in tick order (e, c: scratch of npairs + 1): its
 * requests (whole pairs) by (arrival tick, answer tick, pair), each link's
 * calls by (send tick, return tick, pair), the i-th call to the i-th
 * request; only a link called once per request (otherwise the ranks do
 * not line up: counted in tickx_links_skipped).  PB_OK or PB_ENOMEM */
static int service_order(joint *s, uint32_t a, tx *e, tx *c)
{
    int rc = PB_OK;
    uint32_t m = requests_by_tick(s, a, e);
    for (uint32_t l = 0; l < s->nlinks && rc == PB_OK; l++) {
        if (s->link_src[l] != a)
            continue;
        /* the link's calls by (send tick, return tick, pair); only a
         * link called once per request: otherwise the ranks do not
         * line up (counted) */
        uint32_t k = 0, bad = 0;
        for (uint32_t i = s->bylink_off[l]; i < s->bylink_off[l + 1]; i++) {
            uint32_t p = s->bylink[i];
            if (s->pr[p].call == NONE || s->pr[p].ret == NONE) {
                bad = 1;
                break;
            }
            if (k < m)
                c[k] = (tx){tick_of(s, s->pr[p].cs), tick_of(s, s->pr[p].rr), p, p};
            k++;
        }
        if (bad || k != m) {
            s->tickx_links_skipped++;
            continue;
        }
        if (k > 1)
            pb_sort(c, k, sizeof *c, cmp_tx);
        s->tickx_links++;
        for (uint32_t i = 0; i < k && rc == PB_OK; i++) {
            uint32_t p = c[i].p, q = e[i].q;
            if (s->par[p] == q)
                continue;
            if (!joint_has_cand(s, p, q) && !encloses(s, q, p)) {
                s->tickx_kept++;
                continue;
            }
            rc = joint_set_parent(s, p, q);
            s->tickx_moved++;
        }
    }
    return rc;
}

int joint_tickx_service(joint *s, uint32_t a)
{
    tx *e = malloc(((size_t)s->npairs + 1) * sizeof *e);
    tx *c = malloc(((size_t)s->npairs + 1) * sizeof *c);
    int rc = e && c ? service_order(s, a, e, c) : PB_ENOMEM;
    free(e);
    free(c);
    return rc;
}

double joint_tickx_test(const joint *s, uint32_t a, double *n, double *k)
{
    tx *e = malloc(((size_t)s->npairs + 1) * sizeof *e);
    if (!e) {
        *n = *k = 0;
        return 1.0;
    }
    double pv = svc_test(s, a, e, n, k);
    free(e);
    return pv;
}

int joint_tickx_order(joint *s)
{
    /* only where the subtick test looked at the rows and spread none: rows
     * it spreads carry an order the search uses (there the rows decide
     * within a tick, and joint is above fcfs), and rows of a trace it did
     * not look at (subtick=off) may be in event order */
    if (!s->p.tick_fifo || !s->p.subtick_declined || !s->coarse || s->tick <= 1 ||
        (s->free_ret && joint_any_free(s)))
        return PB_OK;
    uint32_t n = s->npairs;
    tx *e = malloc(((size_t)n + 1) * sizeof *e), *c = malloc(((size_t)n + 1) * sizeof *c);
    s->tickx = calloc(((size_t)s->nnodes + 1) * 4, sizeof *s->tickx);
    if (!e || !c || !s->tickx) {
        free(e);
        free(c);
        return PB_ENOMEM;
    }
    int rc = PB_OK;
    s->tickx_moved = s->tickx_kept = 0;
    for (uint32_t a = 0; a < s->nnodes && rc == PB_OK; a++) {
        double in = 0, ov = 0;
        double pv = svc_test(s, a, e, &in, &ov);
        int on = in > 0 && pv < JOINT_ORDER_ALPHA;
        s->tickx[4 * a] = pv;
        s->tickx[4 * a + 1] = in;
        s->tickx[4 * a + 2] = ov;
        s->tickx[4 * a + 3] = on;
        if (!on)
            continue;
        rc = service_order(s, a, e, c);
    }
    free(e);
    free(c);
    return rc;
}

int joint_tickx_apply(joint *s)
{
    int rc = joint_tickx_order(s);
    /* the model refitted on the calls moved (the confidence and the
     * metadata read it) */
    if (rc == PB_OK && s->tickx_moved)
        rc = joint_fit(s, NULL);
    if (rc == PB_OK && s->tickx_moved)
        rc = joint_fit_order(s);
    return rc;
}

int joint_tickx_meta(const joint *s, pb_result *res)
{
    if (!s->tickx)
        return PB_OK;
    int rc = PB_OK;
    for (uint32_t a = 0; a < s->nnodes && rc == PB_OK; a++)
        if (s->tickx[4 * a + 1] > 0)
            rc = pb_result_meta(res, "tick_fifo_service=%s in_question=%.0f overtaken=%.0f "
                                "test_p=%.3g fifo=%s used=%s", pb_strtab_str(s->v.nodes, a),
                                s->tickx[4 * a + 1], s->tickx[4 * a + 2], s->tickx[4 * a],
                                s->tickx[4 * a] < JOINT_ORDER_ALPHA ? "yes" : "no",
                                s->tickx[4 * a + 3] ? "yes" : "no");
    if (rc == PB_OK)
        rc = pb_result_meta(res, "tick_fifo=on links=%u links_skipped=%u moved=%u "
                            "kept_no_candidate=%u", s->tickx_links, s->tickx_links_skipped,
                            s->tickx_moved, s->tickx_kept);
    return rc;
}
