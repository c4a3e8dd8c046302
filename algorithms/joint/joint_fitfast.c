/*
 * joint_fitfast.c - joint: the fixed costs of a refit (issue 28, goal
 * "fast everywhere"; docs/joint.md, "Speed, ninth wave: fixed costs").
 * Speed only, the same results: every number joint_fit makes with
 * `fit_fast=1` is bit for bit the one it makes with `fit_fast=0`.
 *
 * A refit recomputes the density of every key whose raw histogram changed
 * (joint_model.c): the histogram smoothed over all nb = 550 bins, clipped,
 * summed, and each bin's log density and its share of the expected log
 * density taken in bin order.  On a deep trace of few requests (a
 * TrainTicket minute: 63 requests, 143 keys, 65 refits) most of a key's
 * 550 bins are out of reach of its few delays, and those bins only ever
 * hold the background: lz = log(pz / bin), pz = floor / nb.  Here a key's
 * density is computed over the bins its smoothed histogram reaches (the
 * filled range widened by the kernel's half window,
 * joint_smooth_gaussian_range); outside them
 *
 *   - the smoothed histogram is +0, so the clip leaves it +0 and the sum
 *     of the bins is the same (s + (+0) = s; the sum starts at +0);
 *   - the log density is lz: a key's row is written only where it may
 *     differ from lz (the bins the row's last density reached, kept per
 *     key in flo/fhi; a row never written here counts as reaching every
 *     bin);
 *   - the expected log density adds pz * lz once per bin, in bin order:
 *     before the first reached bin that prefix is z[first], tabulated once
 *     by the same additions from 0; after the last reached bin the
 *     additions are made one by one as before (a sum of equal terms is
 *     not their count times the term in floating point).
 */
#include "joint_int.h"
#include "joint_smooth.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct joint_ff {
    uint32_t cap;      /* keys flo/fhi hold */
    uint32_t known;    /* keys whose row's reach is recorded (the others: every bin) */
    uint32_t *flo, *fhi; /* per key: its logf row differs from lz only in [flo, fhi]
                            (flo > fhi: nowhere) */
    double pz, lz;     /* an empty bin's probability and log density */
    double *z;         /* z[j]: pz * lz added j times from 0, in order (nb + 1) */
};

void joint_ff_free(joint *s)
{
    if (!s->ff)
        return;
    free(s->ff->flo);
    free(s->ff->fhi);
    free(s->ff->z);
    free(s->ff);
    s->ff = NULL;
}

int joint_ff_begin(joint *s)
{
    const uint32_t nb = s->nb;
    if (!s->ff) {
        joint_ff *f = calloc(1, sizeof *f);
        if (!f)
            return PB_ENOMEM;
        s->ff = f;
        f->z = malloc(((size_t)nb + 1) * sizeof *f->z);
        if (!f->z)
            return PB_ENOMEM;
        const double beta = s->p.floor;
        /* the same expressions as joint_fit's */
        const double pz = (1 - beta) * 0.0 + beta / nb, lz = log(pz / s->p.bin);
        f->pz = pz;
        f->lz = lz;
        double em = 0;
        f->z[0] = em;
        for (uint32_t b = 0; b < nb; b++) {
            em += pz * lz;
            f->z[b + 1] = em;
        }
    }
    joint_ff *f = s->ff;
    if (s->nkeys > f->cap) {
        uint32_t nc = f->cap ? f->cap : 64;
        while (nc < s->nkeys)
            nc *= 2;
        uint32_t *a = realloc(f->flo, (size_t)nc * sizeof *a);
        if (!a)
            return PB_ENOMEM;
        f->flo = a;
        a = realloc(f->fhi, (size_t)nc * sizeof *a);
        if (!a)
            return PB_ENOMEM;
        f->fhi = a;
        f->cap = nc;
    }
    /* after joint_select's model reset (no key kept: hraw_valid 0) the
     * keys were made again and their rows re-allocated from one row up
     * (realloc kept only the first rows): no row's reach is known */
    if (s->hraw_valid == 0)
        f->known = 0;
    /* keys never fitted here: their rows may differ from lz anywhere */
    for (uint32_t k = f->known; k < s->nkeys; k++) {
        f->flo[k] = 0;
        f->fhi[k] = nb - 1;
    }
    if (s->nkeys > f->known)
        f->known = s->nkeys;
    return PB_OK;
}

/* row k: lz on the bins it last reached outside [a, b] (a > b: every
 * bin it reached); it now reaches [a, b] */
static void ff_reach(joint *s, uint32_t k, uint32_t a, uint32_t b)
{
    joint_ff *f = s->ff;
    double *lf = s->logf + (size_t)k * s->nb;
    for (uint32_t i = f->flo[k]; i <= f->fhi[k] && f->flo[k] <= f->fhi[k]; i++)
        if (a > b || i < a || i > b)
            lf[i] = f->lz;
    f->flo[k] = a;
    f->fhi[k] = b;
}

int joint_ff_density(joint *s, uint32_t k, joint_smooth *sm, double *y)
{
    joint_ff *f = s->ff;
    const uint32_t nb = s->nb;
    const double *h = s->hist + (size_t)k * nb;
    double *lf = s->logf + (size_t)k * nb;
    const uint32_t lo = s->hlo[k], hi = s->hhi[k];
    const size_t w = lo <= hi ? (size_t)(hi - lo + 1) : 0;
    const double beta = s->p.floor;
    double n = s->kstat[3 * k];
    if (n <= 0) {
        for (uint32_t b = 0; b < nb; b++)
            lf[b] = s->bg;
        s->kmean[k] = s->bg - log(1e6);
        f->flo[k] = 0;
        f->fhi[k] = nb - 1;
        return PB_OK;
    }
    double mean = s->kstat[3 * k + 1] / n;
    double var = s->kstat[3 * k + 2] / n - mean * mean;
    double sd = var > 0 ? sqrt(var) : 0;
    double bwb = 0.9 * sd * pow(n, -0.2) / s->p.bin;
    if (bwb < s->p.bw_min)
        bwb = s->p.bw_min;
    if (bwb > 100)
        bwb = 100;
    const double *hv = h;
    double tot = 0;
    for (uint32_t b = lo; b <= hi && w; b++)
        tot += h[b];
    /* hv is +0 outside [s0, s1] (s0 > s1: everywhere) */
    size_t s0 = w ? lo : 1, s1 = w ? hi : 0;
    if (bwb > 0.05) {
        size_t K = 2 * (size_t)ceil(3 * bwb) + 1;
        if (K > 2 * (size_t)nb - 1)
            K = 2 * (size_t)nb - 1;
        if (w) {
            int rc = joint_smooth_gaussian_range(sm, (double)(K - 1) / (2 * bwb), K, h, lo, hi,
                                                 y, nb, &s0, &s1);
            if (rc != PB_OK)
                return rc;
        }
        double t2 = 0;
        for (size_t b = s0; b <= s1 && s0 <= s1; b++) {
            double v = y[b];
            y[b] = v > 0 ? v : 0;
            t2 += y[b];
        }
        tot = t2;
        hv = y;
    }
    const double pz = f->pz, lz = f->lz;
    if (s0 > s1) {
        ff_reach(s, k, 1, 0);
        s->kmean[k] = f->z[nb] - mean * M_LN10;
        return PB_OK;
    }
    ff_reach(s, k, (uint32_t)s0, (uint32_t)s1);
    double em = f->z[s0];
    for (size_t b = s0; b <= s1; b++) {
        if (hv[b] == 0) {
            em += pz * lz;
            lf[b] = lz;
            continue;
        }
        double pb = (1 - beta) * (tot > 0 ? hv[b] / tot : 0) + beta / nb;
        double l = log(pb / s->p.bin);
        em += pb * l;
        lf[b] = l;
    }
    for (size_t b = s1 + 1; b < nb; b++)
        em += pz * lz;
    s->kmean[k] = em - mean * M_LN10;
    return PB_OK;
}
