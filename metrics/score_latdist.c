/*
 * score_latdist.c - vPath's Figure 11 as a measure: the distribution of
 * per-request end-to-end latency that a user would read off the inferred
 * paths, against the truth's (docs/metrics.md "End-to-end latency
 * distribution").
 *
 * A request's latency is its last receipt (or send, when no receipt was
 * observed) minus its first send, over the messages of a true path
 * instance (`path`) or of an inferred instance (the assignment table).
 * The measure is the Kolmogorov-Smirnov distance between the two empirical
 * distributions: the largest gap between their cumulative shares (0: the
 * same distribution; 1: disjoint).
 */
#include "score.h"

#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

typedef struct span { uint64_t key; pb_ns lo, hi; } span;

static int cmp_key(const void *a, const void *b)
{
    uint64_t x = ((const span *)a)->key, y = ((const span *)b)->key;
    return x < y ? -1 : x > y;
}

/* latencies (seconds) of the groups of spans with equal keys, in *out */
static int group_latencies(span *s, size_t n, double **out, size_t *nout)
{
    pb_sort(s, n, sizeof *s, cmp_key);
    double *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return PB_ENOMEM;
    size_t k = 0;
    for (size_t a = 0; a < n;) {
        pb_ns lo = s[a].lo, hi = s[a].hi;
        size_t b = a + 1;
        for (; b < n && s[b].key == s[a].key; b++) {
            if (s[b].lo < lo)
                lo = s[b].lo;
            if (s[b].hi > hi)
                hi = s[b].hi;
        }
        v[k++] = pb_ns_to_sec(hi - lo);
        a = b;
    }
    gsl_sort(v, 1, k);
    *out = v;
    *nout = k;
    return PB_OK;
}

double score_ks_distance(const double *a, size_t na, const double *b, size_t nb)
{
    if (!na || !nb)
        return NAN;
    size_t i = 0, j = 0;
    double d = 0;
    while (i < na || j < nb) {
        double x = i < na && (j == nb || a[i] <= b[j]) ? a[i] : b[j];
        while (i < na && a[i] <= x)
            i++;
        while (j < nb && b[j] <= x)
            j++;
        double g = fabs((double)i / (double)na - (double)j / (double)nb);
        if (g > d)
            d = g;
    }
    return d;
}

typedef struct id_idx { uint64_t id; size_t i; } id_idx;

static int cmp_id(const void *a, const void *b)
{
    uint64_t x = ((const id_idx *)a)->id, y = ((const id_idx *)b)->id;
    return x < y ? -1 : x > y;
}

int score_latency_compute(score_report *rep, const pb_trace *t,
                          const score_result *r, pb_error *err)
{
    rep->latency_ks = NAN;
    rep->latency_true_median = rep->latency_inferred_median = NAN;
    if (!r->has_assign || !r->nassign || !t->truth || !t->n)
        return PB_OK;
    size_t n = t->n;
    span *st = malloc(n * sizeof *st), *sr = malloc(r->nassign * sizeof *sr);
    id_idx *ids = malloc(n * sizeof *ids);
    double *lt = NULL, *lr = NULL;
    size_t nt = 0, nr = 0, ns = 0;
    int rc = PB_OK;
    if (!st || !sr || !ids) {
        rc = PB_ENOMEM;
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        const pb_msg *m = &t->msgs[i];
        pb_ns hi = m->recv_ts != PB_TS_NONE ? m->recv_ts : m->ts;
        if (t->truth[i].path != PB_ID_NONE)
            st[ns++] = (span){t->truth[i].path, m->ts, hi};
        ids[i] = (id_idx){m->id, i};
    }
    pb_sort(ids, n, sizeof *ids, cmp_id);
    size_t nsr = 0;
    for (size_t a = 0; a < r->nassign; a++) {
        id_idx key = {r->assign[a].id, 0};
        id_idx *f = pb_search(&key, ids, n, sizeof *ids, cmp_id);
        if (!f)
            continue; /* score_compute refuses unknown ids before */
        const pb_msg *m = &t->msgs[f->i];
        pb_ns hi = m->recv_ts != PB_TS_NONE ? m->recv_ts : m->ts;
        sr[nsr++] = (span){r->assign[a].instance, m->ts, hi};
    }
    if ((rc = group_latencies(st, ns, &lt, &nt)) != PB_OK ||
        (rc = group_latencies(sr, nsr, &lr, &nr)) != PB_OK)
        goto done;
    rep->latency_ks = score_ks_distance(lt, nt, lr, nr);
    if (nt)
        rep->latency_true_median = lt[(nt - 1) / 2];
    if (nr)
        rep->latency_inferred_median = lr[(nr - 1) / 2];
done:
    if (rc == PB_ENOMEM)
        pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    free(st);
    free(sr);
    free(ids);
    free(lt);
    free(lr);
    return rc;
}
