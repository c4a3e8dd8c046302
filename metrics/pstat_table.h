/*
 * pstat_table.h - the per-seed values of two sides (A the reference, B
 * the change) read from CSV files, paired by (point, metric, seed) and
 * summarised per (point, metric) with pstat.h.  The engine of `compare`.
 *
 * Input (one file per side): CSV with a header line, '#' comment lines
 * skipped, no quoting (a field with '"' is refused).  Columns by name:
 *   point   required  the experiment point (config, algorithm, settings)
 *   metric  required  what was measured (exact_accuracy, cpu_s, ...)
 *   seed    required  the replicate: the same seed on both sides is the
 *                     same trace (any text)
 *   value   required  a number; empty, "nan" or "-" = not measured (the
 *                     pair is left out and counted in `nmissing`)
 *   better  optional  higher, lower or none (default none)
 *   series, x optional  a curve and its abscissa (the HTML page draws
 *                     each series' means against x for both sides)
 * Other columns are ignored.  A (point, metric, seed) twice in one file is
 * an error (file and line given).  Names of any length are told apart
 * (points are keyed by their interned ids).  Values whose means,
 * differences or spreads overflow a double (near 1e308) are an error
 * naming the point and metric, never a NaN verdict.  Cost: linear in the
 * rows (a seed is found by look-up, not by a scan of its side).
 *
 * Tolerance of a row (what change is too small to report):
 *   resource metrics (name ending in "_s" or "_kb": CPU seconds, peak
 *   memory): tol = res_rel * |mean of A|;
 *   every other metric: tol = max(tol_min, tol_sd * sd of A over seeds).
 */
#ifndef PSTAT_TABLE_H
#define PSTAT_TABLE_H

#include <stddef.h>

#include "pb_error.h"
#include "pstat.h"

typedef struct pstat_opts {
    double level;      /* confidence level of the intervals (0.95) */
    double power;      /* detection probability of mdc (0.8) */
    double tol_sd;     /* tolerance in sds of A over seeds (0) */
    double tol_min;    /* tolerance floor (0) */
    double res_rel;    /* relative tolerance of resource metrics (0.05) */
    int boot_reps;     /* > 0: also a bootstrap interval (verdict from it) */
    unsigned long boot_seed;
} pstat_opts;

/* One (point, metric) row after pstat_table_compute. */
typedef struct pstat_row {
    const char *point, *metric, *series; /* series "" when not given */
    double x;          /* NAN when not given */
    pstat_dir dir;
    size_t na, nb;     /* seeds with a value on side A, side B */
    size_t nmissing;   /* seeds with a value on one side only */
    pstat_paired p;    /* over the paired seeds (p.n = 0: none) */
    double boot_lo, boot_hi; /* NAN without boot_reps */
    double tol;
    pstat_verdict verdict; /* meaningless when p.n == 0 */
} pstat_row;

typedef struct pstat_table pstat_table;

/* Defaults: level 0.95, power 0.8, tol_sd 0, tol_min 0, res_rel 0.05, no
 * bootstrap, boot_seed 1. */
void pstat_opts_default(pstat_opts *o);

/* An empty table.  Returns PB_OK or PB_ENOMEM. */
int pstat_table_init(pstat_table **out);

/* Free the table.  NULL-safe. */
void pstat_table_close(pstat_table *t);

/* Read one side (0 = A, 1 = B) from the CSV file at path.  Returns PB_OK,
 * PB_EIO (cannot read), PB_EPARSE (err names file, line, column and what
 * was expected), PB_EDUP (a seed twice), PB_ENOMEM. */
int pstat_table_read(pstat_table *t, int side, const char *path, pb_error *err);

/* Pair the seeds and summarise every row.  Returns PB_OK, PB_EINVAL (bad
 * options; err says which), PB_ENOMEM. */
int pstat_table_compute(pstat_table *t, const pstat_opts *o, pb_error *err);

/* 1 if metric is a resource measure (its name ends in "_s" or "_kb": CPU
 * seconds, peak memory), else 0. */
int pstat_is_resource(const char *metric);

/* Rows in first-seen order (side A's file first). */
size_t pstat_table_nrows(const pstat_table *t);
const pstat_row *pstat_table_row(const pstat_table *t, size_t i);

#endif
