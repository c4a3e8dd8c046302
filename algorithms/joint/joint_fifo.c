/*
 * joint_fifo.c - joint without call ids: which links serve first in, first
 * out, decided from the times of their calls and returns alone (no pair
 * made by call id enters), per link (docs/joint.md, "Served in arrival
 * order, without call ids").
 *
 * The test.  On one link, with its calls ordered by arrival and its
 * returns by departure (both on the callee's clock) and paired in that
 * order, the k-th request's service time if the callee is one worker
 * serving in arrival order is S_k = r_k - max(c_k, r_(k-1)): from its
 * arrival, or from the previous departure when it had to wait.  A
 * one-worker first-in-first-out server's service time does not depend on
 * whether the request waited, so the S_k of requests that arrived while
 * the previous one was in service (busy starts, c_k < r_(k-1)) and of
 * those that found it idle (idle starts) come from the same distribution.
 * Where requests are served in parallel (and may overtake each other) a
 * busy start's S_k is only the gap between two departures of overlapping
 * requests, far shorter than a service time.  So: a one-sided
 * Mann-Whitney test of "busy starts' S shorter than idle starts'" (normal
 * approximation with mid-ranks for ties, ticks tie often); a link is
 * served in arrival order when that test does not reject at the 1 % level
 * (JOINT_ORDER_ALPHA) with at least JOINT_FIFO_MIN busy and idle starts,
 * and the probability that a busy start's S is the shorter (the AUC, 0.5
 * under the hypothesis) is below JOINT_FIFO_AUC.  The pairing of a link
 * that passes is kept fixed: the re-pairing and the return exchanges
 * leave it alone (joint_ret_movable).
 */
#include "joint_int.h"
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct sval {
    double v;
    int busy;
} sval;

static int cmp_sval(const void *x, const void *y)
{
    const sval *a = x, *b = y;
    return a->v < b->v ? -1 : a->v > b->v ? 1 : a->busy - b->busy;
}

static const joint *cmp_s; /* cmp_arrival's pairs (qsort has no context) */

/* by call arrival, then return departure, then pair number */
static int cmp_arrival(const void *x, const void *y)
{
    const insort *a = x, *b = y;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    pb_ns ra = cmp_s->pr[a->p].rs, rb = cmp_s->pr[b->p].rs;
    if (ra != rb)
        return ra < rb ? -1 : 1;
    return a->p < b->p ? -1 : a->p > b->p;
}

int joint_fifo_test(joint *s)
{
    uint32_t nl = s->nlinks;
    s->fifo_link = calloc((size_t)nl + 1, 1);
    s->fifo_stat = calloc(5 * ((size_t)nl + 1), sizeof *s->fifo_stat);
    if (!s->fifo_link || !s->fifo_stat)
        return PB_ENOMEM;
    if (!s->p.fifo)
        return PB_OK;
    uint32_t most = 0;
    for (uint32_t l = 0; l < nl; l++) {
        uint32_t n = s->bylink_off[l + 1] - s->bylink_off[l];
        if (n > most)
            most = n;
    }
    insort *C = malloc(((size_t)most + 1) * sizeof *C);
    sval *S = malloc(((size_t)most + 1) * sizeof *S);
    if (!C || !S) {
        free(C);
        free(S);
        return PB_ENOMEM;
    }
    cmp_s = s;
    for (uint32_t l = 0; l < nl; l++) {
        double *st = s->fifo_stat + 5 * (size_t)l;
        st[0] = st[3] = st[4] = NAN; /* p-value; busy starts; idle starts; AUC; its bound */
        uint32_t nc = 0;
        for (uint32_t i = s->bylink_off[l]; i < s->bylink_off[l + 1]; i++) {
            uint32_t p = s->bylink[i];
            if (!s->free_ret[p])
                continue; /* whole pairs made by time only */
            C[nc++] = (insort){s->pr[p].cr, p};
        }
        if (nc < 2 * JOINT_FIFO_MIN)
            continue;
        qsort(C, nc, sizeof *C, cmp_arrival);
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
            S[ns++] = (sval){(double)(b->rs - start), busy};
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
        /* Mann-Whitney with mid-ranks: U = rank sum of the busy starts
         * minus nb(nb+1)/2 counts (busy, idle) pairs where busy is larger */
        qsort(S, ns, sizeof *S, cmp_sval);
        double rsum = 0, tie = 0, cb = 0, ks = 0;
        for (uint32_t i = 0; i < ns;) {
            uint32_t j = i;
            while (j < ns && S[j].v == S[i].v)
                j++;
            double mid = 0.5 * ((double)i + 1 + (double)j);
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
        double fb = nb, fi = ni, N = fb + fi;
        double U = rsum - fb * (fb + 1) / 2; /* pairs with the busy start the longer */
        double auc = 1.0 - U / (fb * fi);    /* P(busy start's S is the shorter) */
        double var = fb * fi / 12.0 * ((N + 1) - tie / (N * (N - 1)));
        double z = var > 0 ? (fb * fi / 2 - U) / sqrt(var) : 0;
        /* the distance between the two distributions with its sampling
         * noise (the Kolmogorov-Smirnov 5 % critical value) */
        double ksup = ks + 1.36 * sqrt(N / (fb * fi));
        st[0] = gsl_cdf_ugaussian_Q(z);
        st[3] = auc;
        st[4] = ksup;
        s->fifo_link[l] = ksup < JOINT_FIFO_KS && fabs(auc - 0.5) < JOINT_FIFO_AUC;
    }
    free(C);
    free(S);
    return PB_OK;
}
