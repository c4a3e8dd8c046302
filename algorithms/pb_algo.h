/*
 * pb_algo.h - the interface every inference algorithm implements, and the
 * registry `infer --algo NAME` looks names up in.
 *
 * An algorithm sees only a pb_trace_view (no truth columns).  It fills a
 * pb_result: patterns (in its view's canonical text), optionally the
 * instance each message was ascribed to, metadata counters, dot text and a
 * human-readable report.  It never prints and never exits.
 */
#ifndef PB_ALGO_H
#define PB_ALGO_H

#include <stddef.h>

#include "pb_error.h"
#include "pb_opt.h"
#include "pb_result.h"
#include "pb_trace.h"

typedef struct pb_algo {
    const char *name;      /* "nesting", "convolution", "linking", "truth" */
    const char *view;      /* "call", "path", "message", or "any" */
    const char *summary;   /* one line for --help */
    const pb_option *options; /* parameters, with the papers' defaults */
    size_t params_size;    /* size of the params struct options point into */

    /* Run on a truth-free view.  params: a struct of params_size bytes set
     * from `options`.  res: initialized by the caller with this algorithm's
     * name and view.  Returns PB_OK or an error (err filled). */
    int (*run)(const pb_trace_view *trace, const void *params, pb_result *res,
               pb_error *err);

    /* Only the oracle: run with the truth.  NULL for real algorithms. */
    int (*run_truth)(const pb_trace *trace, const void *params, pb_result *res,
                     pb_error *err);
} pb_algo;

/* The registered algorithms, NULL-terminated. */
const pb_algo *const *pb_algo_list(void);

/* Look an algorithm up by name; NULL if none. */
const pb_algo *pb_algo_find(const char *name);

/* Each algorithm's descriptor, defined in its own source file. */
extern const pb_algo pb_algo_nesting;
extern const pb_algo pb_algo_convolution;
extern const pb_algo pb_algo_linking;
extern const pb_algo pb_algo_truth;
extern const pb_algo pb_algo_joint;
/* the field's baselines (baseline_algos.c, docs/baselines.md) */
extern const pb_algo pb_algo_fcfs;
extern const pb_algo pb_algo_arrival;
extern const pb_algo pb_algo_vpath;
extern const pb_algo pb_algo_wap5tw;
/* the precise tracers (algorithms/precise/, docs/precise.md) */
extern const pb_algo pb_algo_borderpatrol;

#endif
