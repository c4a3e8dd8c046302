/* PLACEHOLDER: replaced by the convolution implementation (issue tracker). */
#include "pb_algo.h"

static int convolution_run(const pb_trace_view *trace, const void *params,
                       pb_result *res, pb_error *err)
{
    (void)trace;
    (void)params;
    (void)res;
    return pb_error_set(err, PB_ENOTIMPL, NULL, 0, 0,
                        "the convolution algorithm is not implemented yet");
}

static const pb_option convolution_options[] = {{NULL, PB_OPT_INT, 0, NULL, PB_OPT_NORANGE, NULL}};

const pb_algo pb_algo_convolution = {
    "convolution", "path", "convolution algorithm (Project 5, SOSP'03 section 5.2)",
    convolution_options, 1, convolution_run, NULL};
