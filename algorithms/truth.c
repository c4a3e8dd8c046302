/*
 * truth.c - the oracle: the true path instances of a trace, taken from its
 * truth columns (path, cause) and rendered in one view by the truth views
 * (metrics/tv.h).  Scoring its result against the same trace must give a
 * perfect score; that checks the scorer and the views together.
 */
#include <stddef.h>
#include <string.h>

#include "pb_algo.h"
#include "tv.h"

typedef struct truth_params {
    const char *view;
} truth_params;

static const pb_option truth_options[] = {
    {"view", PB_OPT_STRING, offsetof(truth_params, view), "auto", PB_OPT_NORANGE,
     "view of the true paths: call, message, path, or auto (call when the "
     "trace has call/return messages, else message)"},
    {NULL, PB_OPT_INT, 0, NULL, PB_OPT_NORANGE, NULL}};

static int truth_run_truth(const pb_trace *trace, const void *params,
                           pb_result *res, pb_error *err)
{
    const truth_params *p = params;
    tv_view view;
    if (!p->view || !strcmp(p->view, "auto"))
        view = tv_default_view(trace);
    else if (tv_view_parse(p->view, &view) != PB_OK)
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "option view: unknown view \"%s\"; expected call, "
                            "message, path or auto", p->view);
    tv_truth *tv;
    int rc = tv_build(trace, view, &tv, err);
    if (rc != PB_OK)
        return rc;
    res->view = tv_view_name(view);
    for (size_t i = 0; i < tv->ninst && rc == PB_OK; i++) {
        const tv_instance *in = &tv->inst[i];
        const pb_pattern *tp = pb_pattab_by_index(tv->patterns, in->pattern);
        pb_pattern *e;
        rc = pb_pattab_add(res->patterns, tp->text, in->nnodes, 1.0, in->total,
                           tv->node_lat + in->stat_off,
                           tv->edge_delay + in->stat_off, &e);
        for (size_t k = 0; k < in->nmsg && rc == PB_OK; k++)
            rc = pb_result_assign(res, tv->msg_ids[in->msg_off + k], i, e->index);
    }
    if (rc == PB_OK)
        rc = pb_result_meta(res, "truth_instances=%zu truth_patterns=%zu",
                            tv->ninst, pb_pattab_count(tv->patterns));
    tv_close(tv);
    if (rc != PB_OK)
        return pb_error_set(err, rc, NULL, 0, 0, "out of memory");
    return PB_OK;
}

const pb_algo pb_algo_truth = {
    "truth", "any", "oracle: the true paths from the truth columns",
    truth_options, sizeof(truth_params), NULL, truth_run_truth};
