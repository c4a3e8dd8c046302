/*
 * joint_simshape.c - conf_sim_shape: the calibration copy draws a delay
 * from the solution's delays of the same key *in requests of the same
 * size* (docs/joint/confidence_w34.md, "The copy's delays drawn by the
 * request's size (conf_sim_shape, h296)").
 *
 * Why.  The copy (joint_simulate.c) draws every output's delay from its
 * trigger from the solution's delays under the key (incoming endpoint,
 * trigger's link or the arrival, output).  Where two kinds of request of
 * one endpoint share a key, the draw mixes them: in
 * experiments/joint_apps_shortlong.conf the `lookup` (nine in ten) calls
 * `db` at once on arrival and answers 0.4 ms after its return, the rare
 * `report` calls `db` 5 ms after arrival and answers 10 ms after its last
 * call's return.  Both are the key (api, arrival, db) and (api, db's
 * return, response), so the copy's reports mostly call their first `db`
 * at once and answer at once: shorter, overlapping fewer neighbours, and
 * their calls easier to place than the trace's.  The calibration maps
 * then learn that calls of a long request are as sure as a lookup's (the
 * over-confident cells of held-out shortlong s13-s15: every row a call of
 * a request holding several calls of its link).
 *
 * The rule.  The request's size is its number of calls in the solution
 * (at most 63; more counts as 63).  Each delay is also filed under (key,
 * size), and a draw for an output of a request of that size takes the
 * (key, size) delays where they number at least conf_sim_shape, else the
 * key's as before; with conf_sim_shape_ks = c > 0, only where the (key,
 * size) delays differ from the key's by the two-sample Kolmogorov-Smirnov
 * test (D > c sqrt((n + m) / (n m)); 1.95: at 0.1 %), so sizes whose
 * delays are the key's keep the key's fuller list.  Only the calibration copies (joint_selfcal.c's
 * sim_points); the copies other rules decide by (busy, pick, loss) are
 * made as before, so assignments do not move.  Confidences only.
 */
#include "joint_int.h"
#include "pb_sort.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SHAPE_MAX 63u

uint32_t joint_simshape_size(const joint *s, uint32_t q)
{
    uint32_t n = s->kids ? s->kids[q].n : 0;
    return n < SHAPE_MAX ? n : SHAPE_MAX;
}

static uint64_t skey2(uint32_t id, uint32_t size)
{
    return ((uint64_t)id << 6) | size;
}

int joint_simshape_add(joint_simshape *z, uint32_t id, uint32_t size, pb_ns d)
{
    if (z->n == z->cap) {
        size_t nc = z->cap ? 2 * z->cap : 1024;
        uint32_t *a = realloc(z->ki, nc * sizeof *a);
        if (!a)
            return PB_ENOMEM;
        z->ki = a;
        pb_ns *b = realloc(z->dv, nc * sizeof *b);
        if (!b)
            return PB_ENOMEM;
        z->dv = b;
        z->cap = nc;
    }
    uint64_t k = skey2(id, size);
    uint32_t i = joint_hmap_get(&z->map, k);
    if (i == JOINT_NONE) {
        i = (uint32_t)z->map.n;
        if (i >= z->kcap) {
            size_t nc = z->kcap ? 2 * z->kcap : 64;
            uint32_t *g = realloc(z->kid, nc * sizeof *g);
            if (!g)
                return PB_ENOMEM;
            z->kid = g;
            z->kcap = nc;
        }
        z->kid[i] = id;
        int rc = joint_hmap_put(&z->map, k, i);
        if (rc != PB_OK)
            return rc;
    }
    z->ki[z->n] = i;
    z->dv[z->n++] = d;
    return PB_OK;
}

static int cmp_ns(const void *a, const void *b)
{
    pb_ns x = *(const pb_ns *)a, y = *(const pb_ns *)b;
    return (x > y) - (x < y);
}

/* the two-sample Kolmogorov-Smirnov statistic of sorted a[0..n), b[0..m) */
static double ks_d(const pb_ns *a, size_t n, const pb_ns *b, size_t m)
{
    size_t i = 0, j = 0;
    double d = 0;
    while (i < n && j < m) {
        pb_ns v = a[i] < b[j] ? a[i] : b[j];
        while (i < n && a[i] == v)
            i++;
        while (j < m && b[j] == v)
            j++;
        double e = (double)i / (double)n - (double)j / (double)m;
        if (e < 0)
            e = -e;
        if (e > d)
            d = e;
    }
    return d;
}

int joint_simshape_finish(joint_simshape *z, const uint32_t *poff, const pb_ns *pdl)
{
    size_t nk = z->map.n;
    z->off = calloc(nk + 2, sizeof *z->off);
    z->dl = malloc((z->n + 1) * sizeof *z->dl);
    if (!z->off || !z->dl)
        return PB_ENOMEM;
    for (size_t i = 0; i < z->n; i++)
        z->off[z->ki[i] + 2]++;
    for (size_t j = 2; j < nk + 2; j++)
        z->off[j] += z->off[j - 1];
    for (size_t i = 0; i < z->n; i++) /* stable: each key's delays in walk order */
        z->dl[z->off[z->ki[i] + 1]++] = z->dv[i];
    free(z->ki);
    free(z->dv);
    z->ki = NULL;
    z->dv = NULL;
    /* a (key, size) list is used where it holds minn delays or more and,
     * with ks > 0, where it differs from its key's whole list by the
     * two-sample Kolmogorov-Smirnov test (D > ks sqrt((n + m) / (n m))) */
    z->on = calloc(nk + 1, 1);
    if (!z->on)
        return PB_ENOMEM;
    pb_ns *a = NULL, *b = NULL;
    size_t room = 0;
    for (size_t j = 0; j < nk; j++) {
        size_t n = z->off[j + 1] - z->off[j];
        if (n < z->minn)
            continue;
        if (z->ks > 0 && poff && pdl) {
            uint32_t id = z->kid[j];
            size_t m = poff[id + 1] - poff[id];
            if (m > room || n > room) {
                size_t r = m > n ? m : n;
                pb_ns *x = realloc(a, r * sizeof *x);
                if (x)
                    a = x;
                pb_ns *y = x ? realloc(b, r * sizeof *y) : NULL;
                if (y)
                    b = y;
                if (!x || !y) {
                    free(a);
                    free(b);
                    return PB_ENOMEM;
                }
                room = r;
            }
            memcpy(a, z->dl + z->off[j], n * sizeof *a);
            memcpy(b, pdl + poff[id], m * sizeof *b);
            pb_sort(a, n, sizeof *a, cmp_ns);
            pb_sort(b, m, sizeof *b, cmp_ns);
            double crit = z->ks * sqrt((double)(n + m) / ((double)n * (double)m));
            if (!(ks_d(a, n, b, m) > crit))
                continue;
        }
        z->on[j] = 1;
        z->keys_on++;
    }
    free(a);
    free(b);
    z->keys = nk;
    return PB_OK;
}

int joint_simshape_draw(joint_simshape *z, uint32_t id, uint32_t size, void *rng, pb_ns *out)
{
    if (!z->off)
        return 0;
    uint32_t i = joint_hmap_get(&z->map, skey2(id, size));
    if (i == JOINT_NONE)
        return 0;
    size_t n = z->off[i + 1] - z->off[i];
    if (!z->on[i]) {
        z->draws_plain++;
        return 0;
    }
    *out = z->dl[z->off[i] + gsl_rng_uniform_int((gsl_rng *)rng, (unsigned long)n)];
    z->draws++;
    return 1;
}

void joint_simshape_free(joint_simshape *z)
{
    free(z->map.k);
    free(z->map.v);
    free(z->off);
    free(z->dl);
    free(z->ki);
    free(z->dv);
    free(z->kid);
    free(z->on);
    memset(z, 0, sizeof *z);
}

int joint_simshape_meta(const joint *s, pb_result *res)
{
    if (s->p.conf_sim_shape <= 0 || !s->scal_done)
        return PB_OK;
    return pb_result_meta(res, "conf_sim_shape=%d ks=%g keys=%.0f keys_used=%.0f draws_shaped=%.0f "
                          "draws_plain=%.0f (the calibration copy's delays drawn from requests "
                          "of the same number of calls where that key holds enough)",
                          s->p.conf_sim_shape, s->p.conf_sim_shape_ks, s->simshape_rec[0], s->simshape_rec[1],
                          s->simshape_rec[2], s->simshape_rec[3]);
}
