/*
 * joint_fifo.c - joint without call ids: which links answer first in,
 * first out, decided from the times of their calls and returns alone (no
 * pair made by call id enters), per link (docs/joint/search.md, "Served in
 * arrival order, without call ids").
 *
 * On one link, with its calls ordered by arrival c_k and paired in that
 * order with returns d_k (first in, first out, or the in-order alignment
 * around a lost message; both on the callee's clock), the k-th request's
 * service time if the callee is one worker serving in arrival order is
 * S_k = d_k - max(c_k, d_(k-1)): from its arrival, or from the previous
 * answer when it had to wait.  A one-worker server's service time does
 * not depend on the state it found, so three comparisons of two samples
 * must each find them alike (Mann-Whitney AUC within JOINT_FIFO_AUC of
 * one half, Kolmogorov-Smirnov distance plus its 5 % critical value below
 * a bound):
 *   1. S of busy starts (c_k < d_(k-1)) against idle starts: where
 *      requests are served in parallel a busy start's S is only the gap
 *      between two answers (at least JOINT_FIFO_BUSY busy and
 *      JOINT_FIFO_MIN idle starts; bound JOINT_FIFO_KS);
 *   2. S of starts with more requests in the link than the median against
 *      the others (parallel service speeds up with them; bound
 *      JOINT_FIFO_KS2; only when both halves have JOINT_FIFO_BUSY);
 *   3. the number of calls the callee sent in each service interval
 *      [start, d_k), busy against idle starts (one worker: the calls of
 *      that request alone; bound JOINT_FIFO_KS).
 * A link that passes keeps its time-ordered pairs: the re-pairing and the
 * return exchanges leave them alone (joint_ret_movable).
 */
#include "joint_int.h"
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

#define NONE JOINT_NONE

typedef struct sval {
    double v;
    pb_ns start; /* service start (orders the starts) */
    int busy;
} sval;

static int cmp_sval(const void *x, const void *y)
{
    const sval *a = x, *b = y;
    return a->v < b->v ? -1 : a->v > b->v ? 1 : a->busy - b->busy;
}

/* two samples S[0..n) (busy 1 and 0): the one-sided Mann-Whitney p-value
 * of "the busy ones shorter", *auc = P(a busy one is the shorter) and
 * *ksup the Kolmogorov-Smirnov distance plus its 5 % critical value.
 * Sorts S by value. */
static double compare(sval *S, uint32_t ns, double *auc, double *ksup)
{
    double nb = 0;
    for (uint32_t i = 0; i < ns; i++)
        nb += S[i].busy;
    double ni = ns - nb;
    pb_sort(S, ns, sizeof *S, cmp_sval);
    double rsum = 0, tie = 0, cb = 0, ks = 0;
    for (uint32_t i = 0; i < ns;) {
        uint32_t j = i;
        while (j < ns && S[j].v == S[i].v)
            j++;
        double mid = 0.5 * ((double)i + 1 + (double)j); /* mid-rank of ties */
        for (uint32_t t = i; t < j; t++)
            if (S[t].busy) {
                rsum += mid;
                cb++;
            }
        double tt = (double)(j - i);
        tie += tt * tt * tt - tt;
        /* the two empirical distribution functions after this value */
        double d = fabs(cb / nb - ((double)j - cb) / ni);
        if (d > ks)
            ks = d;
        i = j;
    }
    double N = nb + ni;
    double U = rsum - nb * (nb + 1) / 2; /* pairs with the busy one the longer */
    *auc = 1.0 - U / (nb * ni);
    double var = nb * ni / 12.0 * ((N + 1) - tie / (N * (N - 1)));
    double z = var > 0 ? (nb * ni / 2 - U) / sqrt(var) : 0;
    *ksup = ks + 1.36 * sqrt(N / (nb * ni));
    return gsl_cdf_ugaussian_Q(z);
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

/* the median of v[0..n) (sorts v) */
static uint32_t median_u32(uint32_t *v, uint32_t n)
{
    pb_sort(v, n, sizeof *v, cmp_u32);
    return v[n / 2];
}

static int cmp_ns(const void *x, const void *y)
{
    pb_ns a = *(const pb_ns *)x, b = *(const pb_ns *)y;
    return a < b ? -1 : a > b;
}

/* how many of v[0..n) (sorted) are below t */
static uint32_t lower_ns(const pb_ns *v, uint32_t n, pb_ns t)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (v[mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* a call of the link: arrival, its return's departure, pair */
typedef struct arrival {
    pb_ns t, rs;
    uint32_t p;
} arrival;

/* by time, then pair number (the caller in rs does not order) */
static int cmp_time_only(const void *x, const void *y)
{
    const arrival *a = x, *b = y;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return a->p < b->p ? -1 : a->p > b->p;
}

/* by call arrival, then return departure, then pair number */
static int cmp_arrival(const void *x, const void *y)
{
    const arrival *a = x, *b = y;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    if (a->rs != b->rs)
        return a->rs < b->rs ? -1 : 1;
    return a->p < b->p ? -1 : a->p > b->p;
}

/* Per service with several callers: the callers of its calls in order
 * of arrival against the addressees of its returns in order of departure
 * (both on its clock, the pairs made by time).  A one-worker server that
 * answers in arrival order answers the callers in the order they called;
 * a server that lets requests overtake answers callers out of that
 * order.  Fills s->fifo_svc (callers, positions compared, mismatches).
 * PB_OK or PB_ENOMEM. */
static int service_order(joint *s)
{
    uint32_t nn = s->nnodes, np = s->npairs;
    s->fifo_svc = calloc(3 * ((size_t)nn + 1), sizeof *s->fifo_svc);
    uint32_t *off = calloc((size_t)nn + 2, sizeof *off);
    arrival *c = malloc(((size_t)np + 1) * sizeof *c), *r = malloc(((size_t)np + 1) * sizeof *r);
    int rc = s->fifo_svc && off && c && r ? PB_OK : PB_ENOMEM;
    if (rc == PB_OK) {
        for (uint32_t p = 0; p < np; p++)
            if (s->free_ret[p])
                off[s->pr[p].callee + 2]++;
        for (uint32_t a = 0; a < nn; a++)
            off[a + 2] += off[a + 1];
        for (uint32_t p = 0; p < np; p++)
            if (s->free_ret[p]) {
                uint32_t at = off[s->pr[p].callee + 1]++;
                /* the caller rides in rs's place: sorted by time, then it */
                c[at] = (arrival){s->pr[p].cr, s->pr[p].caller, p};
                r[at] = (arrival){s->pr[p].rs, s->pr[p].caller, p};
            }
        for (uint32_t a = 0; a < nn; a++) {
            uint32_t n = off[a + 1] - off[a];
            double *sv = s->fifo_svc + 3 * (size_t)a;
            if (n < 2)
                continue;
            arrival *ca = c + off[a], *ra = r + off[a];
            uint32_t callers = 0;
            for (uint32_t i = 0; i < n; i++) { /* distinct callers (few) */
                uint32_t j = 0;
                while (j < i && ca[j].rs != ca[i].rs)
                    j++;
                callers += j == i;
                if (callers > 1)
                    break;
            }
            sv[0] = callers;
            if (callers < 2)
                continue;
            pb_sort(ca, n, sizeof *ca, cmp_time_only);
            pb_sort(ra, n, sizeof *ra, cmp_time_only);
            double bad = 0;
            for (uint32_t i = 0; i < n; i++)
                bad += ca[i].rs != ra[i].rs;
            sv[1] = n;
            sv[2] = bad;
        }
    }
    free(off);
    free(c);
    free(r);
    return rc;
}

int joint_fifo_test(joint *s)
{
    uint32_t nl = s->nlinks;
    s->fifo_link = calloc((size_t)nl + 1, 1);
    s->fifo_stat = calloc(10 * ((size_t)nl + 1), sizeof *s->fifo_stat);
    if (!s->fifo_link || !s->fifo_stat)
        return PB_ENOMEM;
    if (!s->p.fifo)
        return PB_OK;
    if (service_order(s) != PB_OK)
        return PB_ENOMEM;
    uint32_t most = 0;
    for (uint32_t l = 0; l < nl; l++) {
        uint32_t n = s->bylink_off[l + 1] - s->bylink_off[l];
        if (n > most)
            most = n;
    }
    arrival *C = malloc(((size_t)most + 1) * sizeof *C);
    sval *S = malloc(((size_t)most + 1) * sizeof *S), *T = malloc(((size_t)most + 1) * sizeof *T);
    uint32_t *R = malloc(((size_t)most + 1) * sizeof *R), *S2 = malloc(((size_t)most + 1) * sizeof *S2);
    /* every service's calls by send time (its own clock): cs[coff[a] ..
     * coff[a + 1]) */
    uint32_t nn = s->nnodes;
    uint32_t *coff = calloc((size_t)nn + 2, sizeof *coff);
    pb_ns *cs = malloc(((size_t)s->npairs + 1) * sizeof *cs);
    if (coff && cs) {
        for (uint32_t p = 0; p < s->npairs; p++)
            if (s->pr[p].call != NONE)
                coff[s->pr[p].caller + 2]++;
        for (uint32_t a = 0; a < nn; a++)
            coff[a + 2] += coff[a + 1];
        for (uint32_t p = 0; p < s->npairs; p++)
            if (s->pr[p].call != NONE)
                cs[coff[s->pr[p].caller + 1]++] = s->pr[p].cs;
        for (uint32_t a = 0; a < nn; a++)
            pb_sort(cs + coff[a], coff[a + 1] - coff[a], sizeof *cs, cmp_ns);
    }
    if (!C || !S || !T || !R || !S2 || !cs || !coff) {
        free(coff);
        free(cs);
        free(C);
        free(S);
        free(T);
        free(R);
        free(S2);
        return PB_ENOMEM;
    }
    for (uint32_t l = 0; l < nl; l++) {
        double *st = s->fifo_stat + 10 * (size_t)l;
        /* p-value of 1; busy and idle starts; AUC and distance bound of 1;
         * median waiting, AUC and bound of 2; AUC and bound of 3 */
        st[0] = st[3] = st[4] = st[5] = st[6] = st[7] = st[8] = st[9] = NAN;
        uint32_t nc = 0, halves = 0;
        for (uint32_t i = s->bylink_off[l]; i < s->bylink_off[l + 1]; i++) {
            uint32_t p = s->bylink[i];
            halves += s->pr[p].call == NONE || s->pr[p].ret == NONE;
            if (!s->free_ret[p])
                continue; /* whole pairs made by time only */
            C[nc++] = (arrival){s->pr[p].cr, s->pr[p].rs, p};
        }
        /* a message of the link was lost and first in, first out paired
         * the rest (align=0): every pair after it may be shifted by one,
         * which makes busy and idle starts look alike */
        if (halves && !s->p.align) {
            st[0] = -2;
            continue;
        }
        if (nc < 2 * JOINT_FIFO_MIN)
            continue;
        pb_sort(C, nc, sizeof *C, cmp_arrival);
        /* the pairs must be in order on the callee's clock (first in,
         * first out, or the in-order alignment around a lost message) */
        uint32_t ns = 0, nb = 0, in_order = 1;
        for (uint32_t k = 1; k < nc && in_order; k++) {
            const jpair *a = &s->pr[C[k - 1].p], *b = &s->pr[C[k].p];
            if (b->rs < a->rs) {
                in_order = 0;
                break;
            }
            pb_ns start = b->cr > a->rs ? b->cr : a->rs;
            int busy = b->cr < a->rs;
            S[ns++] = (sval){(double)(b->rs - start), start, busy};
            nb += busy;
        }
        if (!in_order) {
            st[0] = -1; /* not in order */
            continue;
        }
        uint32_t ni = ns - nb;
        st[1] = nb;
        st[2] = ni;
        if (nb < JOINT_FIFO_BUSY || ni < JOINT_FIFO_MIN)
            continue;
        double a1, k1, a2 = 0.5, k2 = 0;
        memcpy(T, S, (size_t)ns * sizeof *T);
        st[0] = compare(T, ns, &a1, &k1);
        st[3] = a1;
        st[4] = k1;
        /* the second split: by how many requests were in the link at the
         * start (above the median or not; a one-worker server's service
         * time does not depend on it either, parallel service speeds up
         * with it) */
        uint32_t *nq = R, med = 0, hi = 0;
        for (uint32_t k = 1, a = 0; k < nc; k++) {
            pb_ns t0 = S[k - 1].start;
            while (a < nc && s->pr[C[a].p].cr <= t0)
                a++;
            nq[k - 1] = a > k ? a - k : 1;
        }
        for (uint32_t k = 0; k < ns; k++)
            S2[k] = nq[k];
        med = median_u32(S2, ns);
        for (uint32_t k = 0; k < ns; k++) {
            S[k].busy = nq[k] > med;
            hi += S[k].busy;
        }
        st[5] = med;
        if (hi >= JOINT_FIFO_BUSY && ns - hi >= JOINT_FIFO_BUSY)
            compare(S, ns, &a2, &k2);
        st[6] = a2;
        st[7] = k2;
        /* the third: how many calls the callee made in each service
         * interval [start, departure) (one worker: the calls of that
         * request alone, whether it waited or not; parallel service: a
         * busy start's interval is a gap between two departures) */
        double a3 = 0.5, k3 = 0;
        uint32_t b = s->link_dst[l], no = coff[b + 1] - coff[b];
        const pb_ns *cb = cs + coff[b];
        if (no > 0) {
            for (uint32_t k = 0; k < ns; k++) {
                const jpair *a = &s->pr[C[k].p], *bb = &s->pr[C[k + 1].p];
                pb_ns t0 = bb->cr > a->rs ? bb->cr : a->rs;
                uint32_t n1 = lower_ns(cb, no, t0), n2 = lower_ns(cb, no, bb->rs);
                T[k] = (sval){(double)(n2 - n1), t0, bb->cr < a->rs};
            }
            compare(T, ns, &a3, &k3);
        }
        st[8] = a3;
        st[9] = k3;
        const double *sv = s->fifo_svc + 3 * (size_t)b;
        s->fifo_link[l] = !(sv[1] > 0 && sv[2] > JOINT_FIFO_MISMATCH * sv[1]) &&
                          k3 < JOINT_FIFO_KS && fabs(a3 - 0.5) < JOINT_FIFO_AUC &&
                          k1 < JOINT_FIFO_KS && fabs(a1 - 0.5) < JOINT_FIFO_AUC &&
                          k2 < JOINT_FIFO_KS2 && fabs(a2 - 0.5) < JOINT_FIFO_AUC;
    }
    free(C);
    free(S);
    free(T);
    free(R);
    free(S2);
    free(cs);
    free(coff);
    return joint_fifolifo_all(s); /* fifo_lifo (joint_fifolifo.c) */
}
