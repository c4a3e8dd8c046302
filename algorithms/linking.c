/* PLACEHOLDER: replaced by the linking implementation (issue tracker). */
#include "pb_algo.h"

static int linking_run(const pb_trace_view *trace, const void *params,
                       pb_result *res, pb_error *err)
{
    (void)trace;
    (void)params;
    (void)res;
    return pb_error_set(err, PB_ENOTIMPL, NULL, 0, 0,
                        "the linking algorithm is not implemented yet");
}

static const pb_option linking_options[] = {{NULL, PB_OPT_INT, 0, NULL, PB_OPT_NORANGE, NULL}};

const pb_algo pb_algo_linking = {
    "linking", "message", "message linking (WAP5, WWW'06 section 5.1)",
    linking_options, 1, linking_run, NULL};
