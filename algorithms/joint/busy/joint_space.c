/*
 * joint_space.c - joint without call ids: the busy test's second
 * statistic, the spacing of a service's own sends (`busy_space`,
 * docs/joint/search.md, "The busy test", "Spacing of sends").
 *
 * A service that serialises its work (an event loop of one thread, a lock,
 * a scheduler with few threads) runs one fragment at a time, and each of
 * its sends (the calls it makes, the answers it returns) ends a fragment:
 * two sends of it rarely fall closer together than a fragment lasts.
 * Delays drawn independently (the model, and the busy test's copies of the
 * free solution) put a service's sends where their triggers and draws
 * fall, so close pairs are as frequent as chance makes them.  Per service
 * v, over the gaps between its consecutive sends (v's own clock, needing
 * no pairing): w is the JOINT_SPACE_Q quantile of the trace's gaps, B the
 * trace's gaps below w (of N), MB the copies' gaps below w (of M), and z
 * = joint_pick_z(N, B, M, MB).  Where the copies' share of short gaps is
 * far above the trace's (z < -JOINT_SPACE_Z), v's sends repel each other:
 * v serialises.  A w of 0 is no test, and joint_pick runs none where many
 * messages share a stamp (coarse ties: a gap of no tick says nothing of
 * the spacing below a tick, and the copies' whole-tick draws bias it).
 * joint_pick uses it only where the busy test and the likelihood both
 * keep the free search, and prints its lines only where it changes that.
 *
 * The busy test's first statistic (calls landing on a busy callee) looks
 * at v's callees and misses where v's delays are heavy-tailed and
 * correlated within a request (experiments/joint_slow.conf: its z between
 * -3.3 and -0.2 on 5 seeds of 12); the spacing of v's own sends is what
 * the queue makes directly.
 */
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

#define NONE JOINT_NONE

typedef struct jsend {
    uint32_t v;
    pb_ns t;
} jsend;

static int cmp_send(const void *a, const void *b)
{
    const jsend *x = a, *y = b;
    if (x->v != y->v)
        return x->v < y->v ? -1 : 1;
    return x->t < y->t ? -1 : x->t > y->t;
}

static int cmp_ns(const void *x, const void *y)
{
    pb_ns a = *(const pb_ns *)x, b = *(const pb_ns *)y;
    return a < b ? -1 : a > b;
}

/* the sends of s's trace (t NULL) or of the copy t made from s (pair p's
 * call and return have ids 2p+1, 2p+2), sorted by node then time, in
 * *out (the caller frees it), *n of them.  PB_OK or PB_ENOMEM */
static int sends_of(const joint *s, const pb_trace *t, jsend **out, size_t *n)
{
    uint32_t np = s->npairs;
    jsend *e = malloc((2 * (size_t)np + 1) * sizeof *e);
    *out = NULL;
    *n = 0;
    if (!e)
        return PB_ENOMEM;
    size_t m = 0;
    if (!t) {
        for (uint32_t p = 0; p < np; p++) {
            const jpair *x = &s->pr[p];
            if (x->call != NONE && x->cs != PB_TS_NONE)
                e[m++] = (jsend){x->caller, x->cs};
            if (x->ret != NONE && x->rs != PB_TS_NONE)
                e[m++] = (jsend){x->callee, x->rs};
        }
    } else {
        pb_trace_view v = pb_trace_view_of(t);
        for (size_t i = 0; i < v.n; i++) {
            uint64_t id = v.msgs[i].id;
            if (id == 0 || (id - 1) / 2 >= np || v.msgs[i].ts == PB_TS_NONE)
                continue;
            const jpair *x = &s->pr[(id - 1) / 2];
            e[m++] = (jsend){id % 2 ? x->caller : x->callee, v.msgs[i].ts};
        }
    }
    pb_sort(e, m, sizeof *e, cmp_send);
    *out = e;
    *n = m;
    return PB_OK;
}

int joint_space_count(size_t m, const uint32_t *v, const pb_ns *t, const unsigned char *serves,
                      pb_ns *w, int set_w, double *gaps, double *shortg)
{
    pb_ns *g = set_w ? malloc((m + 1) * sizeof *g) : NULL;
    if (set_w && !g)
        return PB_ENOMEM;
    for (size_t i = 0; i < m;) {
        size_t j = i;
        while (j < m && v[j] == v[i])
            j++;
        uint32_t x = v[i];
        if (set_w) {
            size_t k = 0;
            for (size_t q = i + 1; q < j; q++)
                g[k++] = t[q] - t[q - 1];
            w[x] = 0;
            if (serves[x] && k >= JOINT_PICK_MIN) {
                pb_sort(g, k, sizeof *g, cmp_ns);
                w[x] = g[(size_t)(JOINT_SPACE_Q * (double)k)];
            }
        }
        if (w[x] > 0)
            for (size_t q = i + 1; q < j; q++) {
                gaps[x]++;
                shortg[x] += t[q] - t[q - 1] < w[x];
            }
        i = j;
    }
    free(g);
    return PB_OK;
}

/* joint_space_of's count from the sends e[0..m) (sorted here, freed) */
static int space_count(jsend *e, size_t m, int set_w, const unsigned char *serves, pb_ns *w,
                       double *gaps, double *shortg)
{
    uint32_t *v = malloc((m + 1) * sizeof *v);
    pb_ns *ts = malloc((m + 1) * sizeof *ts);
    int rc = v && ts ? PB_OK : PB_ENOMEM;
    for (size_t i = 0; rc == PB_OK && i < m; i++) {
        v[i] = e[i].v;
        ts[i] = e[i].t;
    }
    if (rc == PB_OK)
        rc = joint_space_count(m, v, ts, serves, w, set_w, gaps, shortg);
    free(e);
    free(v);
    free(ts);
    return rc;
}

int joint_space_of(const joint *s, const pb_trace *t, const unsigned char *serves, pb_ns *w,
                   double *gaps, double *shortg)
{
    jsend *e = NULL;
    size_t m = 0;
    int rc = sends_of(s, t, &e, &m);
    return rc == PB_OK ? space_count(e, m, !t, serves, w, gaps, shortg) : rc;
}

int joint_space_of_stamps(const joint *s, const pb_ns *cs, const pb_ns *rs,
                          const unsigned char *serves, pb_ns *w, double *gaps, double *shortg)
{
    uint32_t np = s->npairs;
    jsend *e = malloc((2 * (size_t)np + 1) * sizeof *e);
    if (!e)
        return PB_ENOMEM;
    size_t m = 0;
    for (uint32_t p = 0; p < np; p++) {
        if (cs[p] != PB_TS_NONE)
            e[m++] = (jsend){s->pr[p].caller, cs[p]};
        if (rs[p] != PB_TS_NONE)
            e[m++] = (jsend){s->pr[p].callee, rs[p]};
    }
    pb_sort(e, m, sizeof *e, cmp_send);
    return space_count(e, m, 0, serves, w, gaps, shortg);
}
