/* PLACEHOLDER: replaced by the truth oracle (metrics issue). */
#include "pb_algo.h"

static int truth_run_truth(const pb_trace *trace, const void *params,
                           pb_result *res, pb_error *err)
{
    (void)trace;
    (void)params;
    (void)res;
    return pb_error_set(err, PB_ENOTIMPL, NULL, 0, 0,
                        "the truth oracle is not implemented yet");
}

static const pb_option truth_options[] = {{NULL, PB_OPT_INT, 0, NULL, PB_OPT_NORANGE, NULL}};

const pb_algo pb_algo_truth = {
    "truth", "any", "oracle: the true paths from the truth columns",
    truth_options, 1, NULL, truth_run_truth};
