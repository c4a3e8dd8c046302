/*
 * score_int.h - what the pieces of the scorer share (internal to
 * metrics/; the public interface is score.h).
 */
#ifndef SCORE_INT_H
#define SCORE_INT_H

#include "score.h"

/* The failure split, the precision-coverage curve and the abstention
 * count (docs/metrics.md "The failure split"): fills rep->req_*, msgs_*,
 * correct_rate .. misstitched_rate, has_conf, coverage_p99/p999, cov.
 * kept_pat[p] is 1 when r->pats[p] survives -m.  Returns PB_OK, PB_ENOENT
 * (an abstained message the truth lacks; err names file and line),
 * PB_ENOMEM. */
int score_split(score_report *rep, const tv_truth *tv, const score_result *r,
                const int *kept_pat, pb_error *err);

/* The 95 % bootstrap interval of k / n over n requests, k of them right,
 * into rep->exact_ci_low / high (NAN when n is 0 or reps is 0): the
 * percentile interval of reps replicates (rep->opts.ci_reps, seed
 * rep->opts.ci_seed).  Returns PB_OK or PB_ENOMEM. */
int score_boot_ci(score_report *rep, size_t k, size_t n);

#endif
