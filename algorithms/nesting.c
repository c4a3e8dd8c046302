/* PLACEHOLDER: replaced by the nesting implementation (issue tracker). */
#include "pb_algo.h"

static int nesting_run(const pb_trace_view *trace, const void *params,
                       pb_result *res, pb_error *err)
{
    (void)trace;
    (void)params;
    (void)res;
    return pb_error_set(err, PB_ENOTIMPL, NULL, 0, 0,
                        "the nesting algorithm is not implemented yet");
}

static const pb_option nesting_options[] = {{NULL, PB_OPT_INT, 0, NULL, PB_OPT_NORANGE, NULL}};

const pb_algo pb_algo_nesting = {
    "nesting", "call", "nesting algorithm (Project 5, SOSP'03 section 5.1)",
    nesting_options, 1, nesting_run, NULL};
