/*
 * joint_sibstr.c - joint: whether the siblings cap applies, learned per
 * trace from the self-calibration's copy (docs/joint/confidence.md, "The siblings
 * cap, decided per trace").
 *
 * The siblings cap (conf_siblings, joint_calib.c) lowers a row to the
 * least confidence of the calls its request makes on the same link, of
 * its trigger's call and of its parent.  It is an allowance for errors
 * the copy does not make (requests released together or piled up behind
 * a fault; the copy's delays are independent draws), and it also ranks
 * errors the copy does make.  It is left off only when the copy can show
 * that neither holds on this trace:
 *
 *   1. the copy is like the real trace: the real rows' mean doubt
 *      (1 - stated confidence before the map, rows right by construction
 *      left out) and the copy's agree, two-sided z test (|z| <=
 *      JOINT_SIBSTR_Z).  z > 1.96: the real trace doubts more, errors the
 *      copy lacks (real_doubts_more); z < -1.96: the copy doubts more, it
 *      does not reproduce the trace either (copy_doubts_more).
 *   2. the copy vouches for every level the real rows reach: its request
 *      trees dealt into two halves, each half's rows mapped by the maps
 *      fitted to the other (held out), without the cap; at each of 0.5,
 *      0.9, 0.99, 0.999 that some real row (not right by construction)
 *      reaches after the map, the lower end of the 95 % Wilson interval of
 *      the share right among the copy's rows at that level is at least
 *      the level (else copy_cannot_vouch).
 *   3. the cap costs the copy's coverage at 99 % precision (the held-out
 *      rows, with and without the cap) more than 1 - 0.99 of its rows
 *      (else copy_coverage_kept).
 *
 * All three: the cap is off (copy_coverage_lost, strength 0) and every
 * row keeps its own confidence.  Otherwise it applies in full (1).
 */
#include "joint_int.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

typedef struct sp {
    double c;
    unsigned char ok;
} sp;

static int cmp_sp(const void *a, const void *b)
{
    double x = ((const sp *)a)->c, y = ((const sp *)b)->c;
    return x < y ? -1 : x > y;
}

static double cov_tmp(const double *c, const unsigned char *ok, const unsigned char *skip,
                      uint32_t n, double prec, sp *tmp)
{
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++)
        if (!skip || !skip[i])
            tmp[m++] = (sp){c[i], ok[i]};
    if (!m)
        return 1.0;
    pb_sort(tmp, m, sizeof *tmp, cmp_sp);
    /* from the surest down, one stated value at a time */
    double right = 0, best = 0;
    for (uint32_t i = m; i > 0;) {
        uint32_t j = i;
        while (j > 0 && tmp[j - 1].c == tmp[i - 1].c) {
            right += tmp[j - 1].ok != 0;
            j--;
        }
        double kept = (double)(m - j);
        if (right >= prec * kept)
            best = kept / m;
        i = j;
    }
    return best;
}

double joint_sibstr_coverage(const double *c, const unsigned char *ok,
                             const unsigned char *skip, uint32_t n, double prec)
{
    sp *tmp = malloc(((size_t)n + 1) * sizeof *tmp);
    double a = tmp ? cov_tmp(c, ok, skip, n, prec, tmp) : NAN;
    free(tmp);
    return a;
}

int joint_sibstr_copy(joint *s, joint *s2, const double *cf2, const double *m2,
                      const unsigned char *ok2, const unsigned char *ex2)
{
    uint32_t n = s2->npairs;
    double *cc = malloc(((size_t)n + 1) * sizeof *cc);
    sp *tmp = malloc(((size_t)n + 1) * sizeof *tmp);
    int rc = cc && tmp ? PB_OK : PB_ENOMEM;
    if (rc == PB_OK) {
        memcpy(cc, m2, (size_t)n * sizeof *cc);
        /* the copy's rows right by construction are left alone, as the
         * real trace's are; the copy has no self-calibration, so the cap
         * is applied in full there */
        unsigned char *keep = s2->conf_exempt;
        s2->conf_exempt = (unsigned char *)ex2;
        rc = joint_sibling_cap(s2, cc);
        s2->conf_exempt = keep;
    }
    if (rc == PB_OK) {
        s->sib_cov[0] += cov_tmp(m2, ok2, ex2, n, JOINT_SIBSTR_PREC, tmp);
        s->sib_cov[1] += cov_tmp(cc, ok2, ex2, n, JOINT_SIBSTR_PREC, tmp);
        s->sib_cov[2]++;
        joint_sibstr_levels(m2, ok2, ex2, n, s->sib_crows, s->sib_cright);
        for (uint32_t p = 0; p < n; p++)
            if (!ex2[p]) {
                double d = 1 - cf2[p];
                s->sib_dsim[0]++;
                s->sib_dsim[1] += d;
                s->sib_dsim[2] += d * d;
            }
    }
    free(cc);
    free(tmp);
    return rc;
}

void joint_sibstr_real(joint *s, const double *conf, const unsigned char *exr)
{
    for (uint32_t p = 0; p < s->npairs; p++)
        if (!exr[p]) {
            double d = 1 - conf[p];
            s->sib_dreal[0]++;
            s->sib_dreal[1] += d;
            s->sib_dreal[2] += d * d;
        }
}

double joint_sibstr_z(const double *real, const double *sim)
{
    if (!(real[0] > 1) || !(sim[0] > 1))
        return 0;
    double mr = real[1] / real[0], ms = sim[1] / sim[0];
    double vr = (real[2] - real[0] * mr * mr) / (real[0] - 1);
    double vs = (sim[2] - sim[0] * ms * ms) / (sim[0] - 1);
    double se = sqrt(fmax(vr, 0) / real[0] + fmax(vs, 0) / sim[0]);
    if (!(se > 0))
        return mr > ms ? INFINITY : 0;
    return (mr - ms) / se;
}

const double joint_sibstr_level[JOINT_SIBSTR_NLEV] = {0.5, 0.9, 0.99, 0.999};

void joint_sibstr_levels(const double *c, const unsigned char *ok, const unsigned char *skip,
                         uint32_t n, double *rows, double *right)
{
    for (uint32_t i = 0; i < n; i++) {
        if (skip && skip[i])
            continue;
        for (int k = 0; k < JOINT_SIBSTR_NLEV; k++)
            if (c[i] >= joint_sibstr_level[k]) {
                rows[k]++;
                if (right)
                    right[k] += ok[i] != 0;
            }
    }
}

int joint_sibstr_vouched(const double *real_rows, const double *copy_rows,
                         const double *copy_right)
{
    for (int k = 0; k < JOINT_SIBSTR_NLEV; k++) {
        if (!(real_rows[k] > 0))
            continue;
        if (!(joint_sibstr_wilson(copy_right[k], copy_rows[k]) >= joint_sibstr_level[k]))
            return 0;
    }
    return 1;
}

double joint_sibstr_wilson(double right, double rows)
{
    if (!(rows > 0))
        return 0;
    const double z = JOINT_SIBSTR_Z;
    double p = right / rows, z2 = z * z / rows;
    return (p + z2 / 2 - z * sqrt(p * (1 - p) / rows + z2 / (4 * rows))) / (1 + z2);
}

double joint_sibling_strength(joint *s)
{
    s->sib_reason = "fixed";
    s->sib_z = 0;
    if (!s->p.conf_sib_learn || !s->scal_done || !(s->sib_cov[2] > 0))
        return 1.0; /* not learned (or no copy): the full cap */
    s->sib_z = joint_sibstr_z(s->sib_dreal, s->sib_dsim);
    if (s->sib_z > JOINT_SIBSTR_Z) {
        s->sib_reason = "real_doubts_more";
        return 1.0;
    }
    if (s->sib_z < -JOINT_SIBSTR_Z) {
        s->sib_reason = "copy_doubts_more";
        return 1.0;
    }
    if (!joint_sibstr_vouched(s->sib_rrows, s->sib_crows, s->sib_cright)) {
        s->sib_reason = "copy_cannot_vouch";
        return 1.0;
    }
    if (s->sib_cov[1] >= s->sib_cov[0] - (1 - JOINT_SIBSTR_PREC) * s->sib_cov[2]) {
        s->sib_reason = "copy_coverage_kept";
        return 1.0;
    }
    s->sib_reason = "copy_coverage_lost";
    return 0.0;
}

double joint_sibling_shrink(double own, double capped, double lambda)
{
    if (!(capped < own))
        return own;
    if (lambda >= 1)
        return capped;
    if (!(lambda > 0))
        return own;
    return own - lambda * (own - capped);
}
