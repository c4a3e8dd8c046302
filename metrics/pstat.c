/*
 * pstat.c - paired t intervals, a seeded bootstrap and the verdict rules
 * of pstat.h.
 */
#include "pstat.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

/* sample mean and sd (n - 1 divisor; 0 when n < 2) of x[i] */
static void mean_sd(const double *x, size_t n, double *mean, double *sd)
{
    double m = 0, ss = 0;
    for (size_t i = 0; i < n; i++)
        m += x[i];
    m /= (double)n;
    for (size_t i = 0; i < n; i++)
        ss += (x[i] - m) * (x[i] - m);
    *mean = m;
    *sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0.0;
}

/* b - a, or 0 when the two differ by no more than the rounding of a
 * double computation of them (16 units in the last place of the larger):
 * two builds that sum one metric in another order, or a value read back
 * from its 17-digit print, differ by an ulp or two on every seed; with
 * zero spread that constant difference was an interval [-5.6e-17,
 * -5.6e-17] excluding 0 and the row WORSE (exit 1) */
static double pair_diff(double a, double b)
{
    double d = b - a;
    return fabs(d) <= 16 * DBL_EPSILON * fmax(fabs(a), fabs(b)) ? 0.0 : d;
}

int pstat_paired_t(const double *a, const double *b, size_t n, double level,
                   double power, pstat_paired *out, pb_error *err)
{
    memset(out, 0, sizeof *out);
    if (n == 0)
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "paired statistics of no pairs; expected at least one");
    if (!(level >= 0.5 && level <= 0.9999))
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "confidence level %g; expected 0.5 .. 0.9999", level);
    if (!(power >= 0.5 && power <= 0.9999))
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "power %g; expected 0.5 .. 0.9999", power);
    double *d = malloc(n * sizeof *d);
    if (!d)
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(a[i]) || !isfinite(b[i])) {
            free(d);
            return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                                "pair %zu is (%g, %g); expected finite values", i + 1,
                                a[i], b[i]);
        }
        d[i] = pair_diff(a[i], b[i]);
        if (d[i] > 0)
            out->npos++;
        else if (d[i] < 0)
            out->nneg++;
        else
            out->nzero++;
    }
    out->n = n;
    mean_sd(a, n, &out->mean_a, &out->sd_a);
    mean_sd(b, n, &out->mean_b, &out->sd_b);
    mean_sd(d, n, &out->mean, &out->sd);
    free(d);
    /* finite values whose differences or sums overflow a double (near
     * 1e308) gave a NaN mean and a verdict on it ("changed within
     * tolerance"); they are refused like a non-finite value */
    if (!isfinite(out->mean) || !isfinite(out->sd) || !isfinite(out->mean_a) ||
        !isfinite(out->sd_a) || !isfinite(out->mean_b) || !isfinite(out->sd_b))
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "the means, differences or spreads of %zu pairs "
                            "overflow a double; expected values far below "
                            "1e308 in magnitude", n);
    if (n < 2) {
        out->tq = NAN;
        out->lo = out->hi = out->mean;
        out->mdc = NAN;
        return PB_OK;
    }
    double df = (double)(n - 1);
    out->tq = gsl_cdf_tdist_Pinv(1.0 - (1.0 - level) / 2.0, df);
    double se = out->sd / sqrt((double)n);
    out->lo = out->mean - out->tq * se;
    out->hi = out->mean + out->tq * se;
    /* rounding leaves sd(d) ~1e-16 where every difference is the same */
    double s = out->sd > 1e-12 * (fabs(out->mean_a) + fabs(out->mean_b)) ? out->sd
                                                                      : sqrt(2.0) * out->sd_a;
    out->mdc = (out->tq + gsl_cdf_tdist_Pinv(power, df)) * s / sqrt((double)n);
    return PB_OK;
}

int pstat_bootstrap(const double *a, const double *b, size_t n, double level,
                    size_t reps, unsigned long seed, double *lo, double *hi,
                    pb_error *err)
{
    if (n == 0 || reps < 10)
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "bootstrap of %zu pairs, %zu resamples; expected at "
                            "least 1 pair and 10 resamples", n, reps);
    if (!(level >= 0.5 && level <= 0.9999))
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "confidence level %g; expected 0.5 .. 0.9999", level);
    double *means = malloc(reps * sizeof *means);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!means || !rng) {
        free(means);
        if (rng)
            gsl_rng_free(rng);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    gsl_rng_set(rng, seed);
    for (size_t r = 0; r < reps; r++) {
        double s = 0;
        for (size_t i = 0; i < n; i++) {
            size_t j = (size_t)gsl_rng_uniform_int(rng, (unsigned long)n);
            s += pair_diff(a[j], b[j]);
        }
        means[r] = s / (double)n;
    }
    gsl_sort(means, 1, reps);
    *lo = gsl_stats_quantile_from_sorted_data(means, 1, reps, (1.0 - level) / 2.0);
    *hi = gsl_stats_quantile_from_sorted_data(means, 1, reps, (1.0 + level) / 2.0);
    gsl_rng_free(rng);
    free(means);
    return PB_OK;
}

pstat_verdict pstat_verdict_of(const pstat_paired *p, pstat_dir dir, double tol)
{
    if (tol < 0)
        tol = 0;
    if (p->n < 2 && p->mean != 0)
        return PSTAT_UNDECIDED;
    /* the interval oriented so that positive is good */
    double lo = p->lo, hi = p->hi;
    if (dir == PSTAT_LOWER) {
        lo = -p->hi;
        hi = -p->lo;
    }
    if (dir != PSTAT_NONE) {
        if (hi < -tol)
            return PSTAT_WORSE;
        if (lo > tol)
            return PSTAT_BETTER;
    } else if (hi < -tol || lo > tol) {
        return PSTAT_CHANGED;
    }
    if (tol > 0 && (lo < -tol || hi > tol))
        return PSTAT_UNDECIDED;
    if (lo <= 0 && hi >= 0)
        return PSTAT_SAME;
    return PSTAT_WITHIN;
}

int pstat_side(const pstat_paired *p, pstat_dir dir)
{
    if (dir == PSTAT_NONE || p->n < 2)
        return 0;
    double lo = dir == PSTAT_LOWER ? -p->hi : p->lo;
    double hi = dir == PSTAT_LOWER ? -p->lo : p->hi;
    return lo > 0 ? 1 : hi < 0 ? -1 : 0;
}

const char *pstat_verdict_name(pstat_verdict v)
{
    switch (v) {
    case PSTAT_SAME: return "no detectable change";
    case PSTAT_WITHIN: return "changed within tolerance";
    case PSTAT_BETTER: return "BETTER";
    case PSTAT_WORSE: return "WORSE";
    case PSTAT_UNDECIDED: return "undecided";
    case PSTAT_CHANGED: return "CHANGED";
    }
    return "?";
}

const char *pstat_verdict_word(pstat_verdict v)
{
    switch (v) {
    case PSTAT_SAME: return "same";
    case PSTAT_WITHIN: return "within";
    case PSTAT_BETTER: return "better";
    case PSTAT_WORSE: return "worse";
    case PSTAT_UNDECIDED: return "undecided";
    case PSTAT_CHANGED: return "changed";
    }
    return "?";
}

int pstat_dir_parse(const char *s, pstat_dir *dir)
{
    if (!strcmp(s, "higher"))
        *dir = PSTAT_HIGHER;
    else if (!strcmp(s, "lower"))
        *dir = PSTAT_LOWER;
    else if (!strcmp(s, "none") || !*s)
        *dir = PSTAT_NONE;
    else
        return 0;
    return 1;
}
