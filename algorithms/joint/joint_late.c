/*
 * joint_late.c - joint: calls that outlive the request they belong to
 * (docs/joint.md, "Calls that outlive their request").
 *
 * The candidate test wants a call inside its parent's interval on the
 * caller's clock: sent after the request arrived, its return received
 * before the response left.  Real services break it two ways: a reactive
 * front end stamps its response a few microseconds before the return it
 * waited for (TrainTicket's gateway), and a service sends work on after
 * it has answered (TrainTicket's food service calls delivery up to 2 ms
 * after its response).  Such a call has no candidate and becomes a root,
 * and its request loses it.
 *
 * Which services do that is learned per service from the calls without a
 * candidate (orphans): under the null hypothesis that they start requests
 * of their own, their send times are unrelated to the service's requests,
 * so the share of them sent while some request of the service was open
 * (or at most g after its response) is the share c(g) of the service's
 * time line covered by [arrival, response + g].  A one-sided binomial
 * test (k of n orphans inside, against c(g)) over the gaps
 * g in {0, 1 us, 10 us, ..., 1 s} (the least p-value, Bonferroni over the
 * 8 gaps at the 1 % level) decides; a service that passes gives each of
 * its orphans the requests it was sent in, or sent at most g after, as
 * candidates (the model chooses among them as among any).  A call that
 * has a candidate under the strict test keeps exactly its candidates.
 */
#include "joint_int.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE

/* the gaps tried after a response: 0, then 1 us .. 1 s by decades */
static const pb_ns late_gaps[JOINT_LATE_NGAPS] = {0,       1000,     10000,     100000,
                                                  1000000, 10000000, 100000000, 1000000000};

typedef struct ivl {
    pb_ns a, b;
} ivl;

static int cmp_ivl(const void *x, const void *y)
{
    const ivl *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    return p->b < q->b ? -1 : p->b > q->b;
}

static int cmp_ns(const void *x, const void *y)
{
    pb_ns a = *(const pb_ns *)x, b = *(const pb_ns *)y;
    return a < b ? -1 : a > b;
}

/* P(X >= k) for X ~ Bin(n, c) */
static double binom_upper(double k, double c, double n)
{
    if (k <= 0)
        return 1.0;
    if (c >= 1)
        return 1.0;
    if (c <= 0)
        return 0.0;
    return gsl_cdf_binomial_Q((unsigned)(k - 1), c, (unsigned)n);
}

/* Each pair's latest possible end for the test: its response where it
 * was paired by call id; where it was paired by time (its return may
 * move: joint_ret_movable), the end of its busy period on its link (the
 * first return after which every call that arrived on the link has been
 * answered), the latest return the re-pairing could give it.  A call
 * that lies outside every request only because the pairing by time
 * ended a request too early is no evidence of calls outliving their
 * request.  PB_OK or PB_ENOMEM */
typedef struct lev {
    pb_ns t;
    int d;          /* +1 arrival, -1 return */
    uint32_t q;
} lev;

static int cmp_lev(const void *x, const void *y)
{
    const lev *a = x, *b = y;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    if (a->d != b->d)
        return a->d > b->d ? -1 : 1; /* arrivals first: the period goes on */
    return a->q < b->q ? -1 : a->q > b->q;
}

static int latest_ends(const joint *s, pb_ns *oend)
{
    uint32_t n = s->npairs, nl = s->nlinks;
    for (uint32_t q = 0; q < n; q++)
        oend[q] = req_end(s, q);
    uint32_t *off = calloc((size_t)nl + 2, sizeof *off);
    lev *ev = malloc(2 * ((size_t)n + 1) * sizeof *ev);
    uint32_t *by = malloc(((size_t)n + 1) * sizeof *by), *per = malloc(((size_t)n + 1) * sizeof *per);
    int rc = off && ev && by && per ? PB_OK : PB_ENOMEM;
    if (rc == PB_OK) {
        for (uint32_t q = 0; q < n; q++)
            off[s->pr[q].link + 2]++;
        for (uint32_t l = 0; l < nl; l++)
            off[l + 2] += off[l + 1];
        for (uint32_t q = 0; q < n; q++)
            by[off[s->pr[q].link + 1]++] = q;
        for (uint32_t l = 0; l < nl; l++) {
            size_t ne = 0;
            int any = 0;
            for (uint32_t i = off[l]; i < off[l + 1]; i++) {
                uint32_t q = by[i];
                const jpair *x = &s->pr[q];
                if (x->call == NONE || x->ret == NONE)
                    continue;
                any |= s->free_ret[q];
                ev[ne++] = (lev){x->cr, 1, q};
                ev[ne++] = (lev){x->rs, -1, q};
            }
            if (!any)
                continue;
            qsort(ev, ne, sizeof *ev, cmp_lev);
            long open = 0;
            uint32_t np = 0;
            for (size_t i = 0; i < ne; i++) {
                if (ev[i].d > 0) {
                    open++;
                    per[np++] = ev[i].q;
                    continue;
                }
                if (--open > 0)
                    continue;
                for (uint32_t j = 0; j < np; j++)
                    if (s->free_ret[per[j]] && ev[i].t > oend[per[j]])
                        oend[per[j]] = ev[i].t;
                np = 0;
            }
        }
    }
    free(off);
    free(ev);
    free(by);
    free(per);
    return rc;
}

int joint_late_test(joint *s)
{
    uint32_t nn = s->nnodes, n = s->npairs;
    free(s->late_gap);
    free(s->late_stat);
    s->late_gap = NULL;
    s->late_stat = NULL;
    if (!s->p.late_calls)
        return PB_OK;
    s->late_gap = malloc(((size_t)nn + 1) * sizeof *s->late_gap);
    s->late_stat = calloc(JOINT_LATE_NSTAT * ((size_t)nn + 1), sizeof *s->late_stat);
    uint32_t *nin = calloc((size_t)nn + 1, sizeof *nin), *norph = calloc((size_t)nn + 1, sizeof *norph);
    ivl *iv = malloc(((size_t)n + 1) * sizeof *iv);
    pb_ns *ot = malloc(((size_t)n + 1) * sizeof *ot);
    pb_ns *oend = malloc(((size_t)n + 1) * sizeof *oend);
    int rc = s->late_gap && s->late_stat && nin && norph && iv && ot && oend ? PB_OK : PB_ENOMEM;
    if (rc == PB_OK)
        rc = latest_ends(s, oend);
    if (rc != PB_OK)
        goto done;
    for (uint32_t a = 0; a < nn; a++)
        s->late_gap[a] = -1;
    for (uint32_t q = 0; q < n; q++) {
        nin[s->pr[q].callee]++;
        if (s->pr[q].call != NONE && s->cand_off[q + 1] == s->cand_off[q])
            norph[s->pr[q].caller]++;
    }
    int any = 0;
    for (uint32_t a = 0; a < nn; a++) {
        if (!nin[a] || !norph[a])
            continue;
        /* the service's requests and its orphans' send times; its time
         * line: from the first to the last of them and of its calls */
        uint32_t ni = 0, no = 0;
        pb_ns t0 = INT64_MAX, t1 = INT64_MIN;
        for (uint32_t q = 0; q < n; q++) {
            const jpair *x = &s->pr[q];
            if (x->callee == a) {
                iv[ni++] = (ivl){req_start(s, q), req_end(s, q)};
                if (iv[ni - 1].a < t0)
                    t0 = iv[ni - 1].a;
                if (iv[ni - 1].b > t1)
                    t1 = iv[ni - 1].b;
            }
            if (x->caller == a && x->call != NONE) {
                if (x->cs < t0)
                    t0 = x->cs;
                if (x->cs > t1)
                    t1 = x->cs;
                if (s->cand_off[q + 1] == s->cand_off[q])
                    ot[no++] = x->cs;
            }
        }
        qsort(iv, ni, sizeof *iv, cmp_ivl);
        /* an orphan counts only when no request of the service that began
         * before it was sent can end after its return, even with its
         * latest possible end (latest_ends): the requests by start, the
         * latest end among the first i of them */
        {
            uint32_t m = 0;
            for (uint32_t q = 0; q < n; q++)
                if (s->pr[q].callee == a)
                    iv[m++] = (ivl){req_start(s, q), oend[q]};
            qsort(iv, m, sizeof *iv, cmp_ivl);
            for (uint32_t i = 1; i < m; i++)
                if (iv[i].b < iv[i - 1].b)
                    iv[i].b = iv[i - 1].b;
            uint32_t kept = 0;
            for (uint32_t q = 0, j = 0; q < n && j < no; q++) {
                const jpair *x = &s->pr[q];
                if (x->caller != a || x->call == NONE || s->cand_off[q + 1] != s->cand_off[q])
                    continue;
                j++;
                /* the last request that began by x->cs */
                uint32_t lo = 0, hi = m;
                while (lo < hi) {
                    uint32_t mid = lo + (hi - lo) / 2;
                    if (iv[mid].a <= x->cs)
                        lo = mid + 1;
                    else
                        hi = mid;
                }
                if (lo == 0 || iv[lo - 1].b < x->rr)
                    ot[kept++] = x->cs;
            }
            no = kept;
            /* back to the requests' own intervals for the coverage */
            ni = 0;
            for (uint32_t q = 0; q < n; q++)
                if (s->pr[q].callee == a)
                    iv[ni++] = (ivl){req_start(s, q), req_end(s, q)};
            qsort(iv, ni, sizeof *iv, cmp_ivl);
        }
        qsort(ot, no, sizeof *ot, cmp_ns);
        double span = (double)(t1 - t0);
        double best = 2, bk = 0, bc = 0;
        pb_ns bg = 0;
        for (int gi = 0; gi < JOINT_LATE_NGAPS && span > 0; gi++) {
            pb_ns g = late_gaps[gi];
            /* the union of [arrival, response + g], clipped to the time
             * line, and the orphans inside it (both walked in order) */
            double cov = 0;
            uint32_t k = 0, oi = 0;
            for (uint32_t i = 0; i < ni;) {
                pb_ns lo = iv[i].a, hi = iv[i].b + g;
                for (i++; i < ni && iv[i].a <= hi; i++)
                    if (iv[i].b + g > hi)
                        hi = iv[i].b + g;
                while (oi < no && ot[oi] < lo)
                    oi++;
                while (oi < no && ot[oi] <= hi) {
                    oi++;
                    k++;
                }
                pb_ns cl = lo < t0 ? t0 : lo, ch = hi > t1 ? t1 : hi;
                if (ch > cl)
                    cov += (double)(ch - cl);
            }
            double c = cov / span, pv = binom_upper(k, c, no);
            if (pv < best) {
                best = pv;
                bg = g;
                bk = k;
                bc = c;
            }
        }
        double *st = s->late_stat + JOINT_LATE_NSTAT * (size_t)a;
        st[0] = no;
        st[1] = bk;
        st[2] = bc;
        st[3] = (double)bg;
        st[4] = best > 1 ? 1 : best;
        if (best < JOINT_LATE_ALPHA / JOINT_LATE_NGAPS) {
            s->late_gap[a] = bg;
            any = 1;
        }
    }
    if (!any) {
        /* nothing widened: the candidates stay as they are */
        free(s->late_gap);
        s->late_gap = NULL;
    }
done:
    free(oend);
    free(nin);
    free(norph);
    free(iv);
    free(ot);
    return rc;
}
