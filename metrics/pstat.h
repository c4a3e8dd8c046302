/*
 * pstat.h - paired statistics for comparing two builds (or a build and a
 * baseline) on the same points and seeds: the engine of `compare` and of
 * `make regress` (docs/experiments.md, "Comparing two builds").
 *
 * For one point and metric, side A (the reference) and side B (the
 * change) were run on the same n traces (seeds), giving values a[i] and
 * b[i].  The differences d[i] = b[i] - a[i] are summarised by
 *   - their mean and a Student t interval at the given level:
 *       mean(d) +- t(1 - (1 - level) / 2, n - 1) * sd(d) / sqrt(n)
 *     with sd the sample standard deviation (n - 1 divisor) and the
 *     quantile from GSL (gsl_cdf_tdist_Pinv);
 *   - the sign count: how many d[i] are > 0, < 0 and == 0;
 *   - the smallest detectable change (mdc): the true mean difference the
 *     run finds (interval clear of 0) with probability `power`:
 *       (t(1 - (1 - level) / 2, n - 1) + t(power, n - 1)) * s / sqrt(n)
 *     where s = sd(d); when every d[i] is the same (sd(d) = 0, as for a
 *     rebuild of deterministic programs) s = sqrt(2) * sd(a), the spread an
 *     unpaired comparison of the two sides would see, so a no-op still
 *     says how small a change these seeds could show.
 *   - optionally a seeded percentile bootstrap interval of mean(d)
 *     (pstat_bootstrap), for differences far from normal.
 *
 * The verdict (pstat_verdict_of) orients the interval by the metric's
 * direction (higher or lower is better) and compares it with a tolerance
 * tol >= 0 (a change smaller than tol is not worth reporting):
 *   worse       the whole interval is beyond -tol (the bad side)
 *   better      the whole interval is beyond +tol (the good side)
 *   undecided   tol > 0 and the interval straddles -tol or +tol: the data
 *               cannot tell whether the change passes the tolerance; also
 *               n < 2 with a non-zero difference (no interval)
 *   same        the interval holds 0: no detectable change at these seeds
 *               (read with mdc)
 *   within      the interval is clear of 0 but inside [-tol, +tol]: a
 *               real but small change
 *   changed     a metric with no direction whose interval is clear of 0
 *               and beyond tol
 * With tol = 0 the verdict is better, worse or same.
 */
#ifndef PSTAT_H
#define PSTAT_H

#include <stddef.h>

#include "pb_error.h"

/* Which way a metric improves. */
typedef enum pstat_dir {
    PSTAT_LOWER = -1,  /* lower is better (error rates, CPU time) */
    PSTAT_NONE = 0,    /* no direction: any change is a change */
    PSTAT_HIGHER = 1   /* higher is better (accuracy) */
} pstat_dir;

typedef enum pstat_verdict {
    PSTAT_SAME = 0,
    PSTAT_WITHIN,
    PSTAT_BETTER,
    PSTAT_WORSE,
    PSTAT_UNDECIDED,
    PSTAT_CHANGED
} pstat_verdict;

/* The summary of n paired values (see the top of this file). */
typedef struct pstat_paired {
    size_t n;             /* pairs */
    double mean_a, mean_b;
    double sd_a, sd_b;    /* sample sd of each side over the seeds (0 if n < 2) */
    double mean;          /* mean of d = b - a */
    double sd;            /* sample sd of d (0 if n < 2) */
    double tq;            /* the t quantile used (NAN if n < 2) */
    double lo, hi;        /* the interval of mean(d) (= mean if n < 2) */
    double mdc;           /* smallest detectable change (NAN if n < 2) */
    size_t npos, nneg, nzero; /* sign count of d */
} pstat_paired;

/* Summarise the pairs (a[i], b[i]), i < n, at confidence `level` (0.5 ..
 * 0.9999, e.g. 0.95) and detection probability `power` (0.5 .. 0.9999,
 * e.g. 0.8) into *out.  Returns PB_OK, PB_EINVAL (n = 0, a level or power
 * out of range, a value that is not finite; err says which). */
int pstat_paired_t(const double *a, const double *b, size_t n, double level,
                   double power, pstat_paired *out, pb_error *err);

/* A seeded percentile bootstrap interval of mean(b - a): `reps`
 * resamples of the n differences (GSL mt19937 seeded with `seed`), the
 * (1 - level) / 2 and (1 + level) / 2 quantiles of their means
 * (gsl_stats_quantile_from_sorted_data).  Same input and seed = the same
 * interval.  Returns PB_OK, PB_EINVAL (n = 0, reps < 10, bad level),
 * PB_ENOMEM. */
int pstat_bootstrap(const double *a, const double *b, size_t n, double level,
                    size_t reps, unsigned long seed, double *lo, double *hi,
                    pb_error *err);

/* The verdict of p for a metric of direction dir with tolerance tol >= 0
 * (rules at the top of this file). */
pstat_verdict pstat_verdict_of(const pstat_paired *p, pstat_dir dir,
                               double tol);

/* Which side of 0 the interval of p lies on, oriented by dir (positive =
 * good): 1 wholly on the good side, -1 wholly on the bad side, 0 holding 0
 * (or dir PSTAT_NONE).  An undecided verdict on side -1 is a degradation
 * the seeds detect but cannot yet place against the tolerance. */
int pstat_side(const pstat_paired *p, pstat_dir dir);

/* The verdict's name as the tables print it: "same" is printed as
 * "no detectable change", and so on.  Never NULL. */
const char *pstat_verdict_name(pstat_verdict v);

/* A short word for CSV output: same, within, better, worse, undecided,
 * changed.  Never NULL. */
const char *pstat_verdict_word(pstat_verdict v);

/* Parse "higher", "lower" or "none" (also "" = none).  Returns 1 and sets
 * *dir, or 0 for anything else. */
int pstat_dir_parse(const char *s, pstat_dir *dir);

#endif
