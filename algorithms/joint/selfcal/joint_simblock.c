/*
 * joint_simblock.c - joint: the calibration copy draws a service's delays
 * in blocks of time where the trace shows them correlated in time
 * (`conf_sim_block`, docs/joint/confidence.md, "The copy keeps delays
 * correlated in time").
 *
 * The self-calibration copy (joint_selfcal.c) draws every output's delay
 * from its trigger independently, with replacement, from the solution's
 * delays of the same key (incoming endpoint, trigger, output).  Where a
 * service stalls (a garbage collection, a worker held by a slow request),
 * the requests it serves at once all wait longer together: their delays
 * are correlated in time, and two requests arriving a millisecond apart
 * with medium delays each are what the search exchanges for a typical
 * plus a tail delay (hotel load 100 with call ids, h152).  Independent
 * draws almost never put two such delays side by side, so the copy never
 * makes that exchange and its map cannot lower those rows.
 *
 * Rule: per key, the solution's delays in the time order of their outputs
 * are tested for correlation in time (lag-1 rank autocorrelation, Spearman
 * with tied ranks averaged; the key is correlated when rho sqrt(n) >= 3,
 * one-sided, n >= JOINT_SIMBLK_MIN).  For a correlated key the copy's
 * output of rank i takes the delay of rank (i + o_b) mod n, o_b a random
 * offset per block b = i / K of K consecutive outputs (a circular block
 * bootstrap: neighbours in time keep neighbours' delays, moved to another
 * place of the trace, so a stall meets other arrivals than its own).  A
 * key that does not pass keeps the independent draw, so where no key
 * passes the copy is the one before, byte for byte.
 */
#include "joint_int.h"
#include "pb_sort.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE
#define JOINT_SIMBLK_MIN 30   /* delays a key needs for the test */
#define JOINT_SIMBLK_Z 3.0    /* rho sqrt(n) from which a key is correlated */

static uint64_t mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

typedef struct tsort {
    pb_ns t;     /* the output's time */
    pb_ns d;     /* its delay */
    uint32_t o;  /* owner: 2 c (call c) or 2 q + 1 (q's response) */
    uint32_t k;  /* key */
} tsort;

static int cmp_kt(const void *a, const void *b)
{
    const tsort *x = a, *y = b;
    if (x->k != y->k)
        return x->k < y->k ? -1 : 1;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->o < y->o ? -1 : x->o > y->o;
}

typedef struct vr {
    pb_ns d;
    uint32_t i;
} vr;

static int cmp_vr(const void *a, const void *b)
{
    const vr *x = a, *y = b;
    if (x->d != y->d)
        return x->d < y->d ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* lag-1 Spearman autocorrelation of d[0..n) (ties: mean ranks); v and r
 * scratch of n.  0 when the ranks do not vary */
double joint_simblk_rho(const pb_ns *d, uint32_t n, void *scratch, double *r)
{
    vr *v = scratch;
    if (n < 3)
        return 0.0;
    for (uint32_t i = 0; i < n; i++)
        v[i] = (vr){d[i], i};
    pb_sort(v, n, sizeof *v, cmp_vr);
    for (uint32_t i = 0; i < n;) {
        uint32_t j = i;
        while (j + 1 < n && v[j + 1].d == v[i].d)
            j++;
        double m = 0.5 * ((double)i + (double)j);
        for (uint32_t k = i; k <= j; k++)
            r[v[k].i] = m;
        i = j + 1;
    }
    double ma = 0, mb = 0;
    for (uint32_t i = 0; i + 1 < n; i++) {
        ma += r[i];
        mb += r[i + 1];
    }
    ma /= (double)(n - 1);
    mb /= (double)(n - 1);
    double sab = 0, saa = 0, sbb = 0;
    for (uint32_t i = 0; i + 1 < n; i++) {
        double a = r[i] - ma, b = r[i + 1] - mb;
        sab += a * b;
        saa += a * a;
        sbb += b * b;
    }
    return saa > 0 && sbb > 0 ? sab / sqrt(saa * sbb) : 0.0;
}

int joint_simblk_build(joint_simblk *b, const joint *s, uint32_t nk, size_t n,
                       const uint32_t *ki, const pb_ns *dv, const pb_ns *tv,
                       const uint32_t *own, uint32_t K, uint32_t seed)
{
    memset(b, 0, sizeof *b);
    b->K = K ? K : 1;
    b->seed = seed;
    b->nk = nk;
    size_t np = (size_t)s->npairs + 1;
    tsort *e = malloc((n + 1) * sizeof *e);
    b->off = calloc((size_t)nk + 1, sizeof *b->off);
    b->dl = malloc((n + 1) * sizeof *b->dl);
    b->on = calloc((size_t)nk + 1, 1);
    b->rank = malloc(2 * np * sizeof *b->rank);
    b->key = malloc(2 * np * sizeof *b->key);
    vr *v = malloc((n + 1) * sizeof *v);
    double *r = malloc((n + 1) * sizeof *r);
    int rc = e && b->off && b->dl && b->on && b->rank && b->key && v && r ? PB_OK : PB_ENOMEM;
    if (rc == PB_OK) {
        for (size_t i = 0; i < 2 * np; i++)
            b->rank[i] = b->key[i] = NONE;
        for (size_t i = 0; i < n; i++)
            e[i] = (tsort){tv[i], dv[i], own[i], ki[i]};
        pb_sort(e, n, sizeof *e, cmp_kt);
        for (size_t i = 0; i < n; i++) {
            b->off[e[i].k + 1]++;
            b->dl[i] = e[i].d;
        }
        for (uint32_t k = 0; k < nk; k++)
            b->off[k + 1] += b->off[k];
        for (size_t i = 0; i < n; i++) {
            b->rank[e[i].o] = (uint32_t)(i - b->off[e[i].k]);
            b->key[e[i].o] = e[i].k;
        }
        /* the test, per key: correlated in time where the trace shows it */
        for (uint32_t k = 0; k < nk; k++) {
            uint32_t m = b->off[k + 1] - b->off[k];
            if (m < JOINT_SIMBLK_MIN)
                continue;
            b->keys_tested++;
            double rho = joint_simblk_rho(b->dl + b->off[k], m, v, r);
            if (rho * sqrt((double)m) >= JOINT_SIMBLK_Z) {
                b->on[k] = 1;
                b->keys_on++;
            }
        }
    }
    free(e);
    free(v);
    free(r);
    if (rc != PB_OK)
        joint_simblk_free(b);
    return rc;
}

int joint_simblk_draw(joint_simblk *b, uint32_t owner, uint32_t key, pb_ns *d)
{
    if (!b || !b->on || b->key[owner] != key || !b->on[key])
        return 0;
    uint32_t n = b->off[key + 1] - b->off[key], i = b->rank[owner];
    uint64_t h = mix64(mix64(((uint64_t)b->seed << 32) ^ key) ^ (uint64_t)(i / b->K));
    *d = b->dl[b->off[key] + (uint32_t)(((uint64_t)i + h % n) % n)];
    b->draws++;
    return 1;
}

void joint_simblk_free(joint_simblk *b)
{
    free(b->off);
    free(b->dl);
    free(b->on);
    free(b->rank);
    free(b->key);
    b->off = b->rank = b->key = NULL;
    b->dl = NULL;
    b->on = NULL;
}
