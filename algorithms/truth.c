/*
 * truth.c - the oracle: the true path instances of a trace, taken from its
 * truth columns (path, cause) and rendered in one view by the truth views
 * (metrics/tv.h).  Scoring its result against the same trace must give a
 * perfect score; that checks the scorer and the views together.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "pb_algo.h"
#include "tv.h"
#include "pb_sort.h"

typedef struct truth_params {
    const char *view;
} truth_params;

static const pb_option truth_options[] = {
    {"view", PB_OPT_STRING, offsetof(truth_params, view), "auto", PB_OPT_NORANGE,
     "view of the true paths: call, message, path, or auto (call when the "
     "trace has call/return messages, else message)"},
    {NULL, PB_OPT_INT, 0, NULL, PB_OPT_NORANGE, NULL}};

typedef struct id_ix {
    uint64_t id;
    size_t i;
} id_ix;

static int cmp_id_ix(const void *a, const void *b)
{
    const id_ix *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

static size_t find_ix(const id_ix *v, size_t n, uint64_t id)
{
    id_ix probe = {id, 0};
    const id_ix *hit = pb_search(&probe, v, n, sizeof *v, cmp_id_ix);
    return hit ? hit->i : SIZE_MAX;
}

/* The true parent of message id: its cause when in the same path, else
 * none (as score's link accuracy counts it). */
static uint64_t true_parent(const pb_trace *t, const id_ix *ix, uint64_t id)
{
    size_t i = find_ix(ix, t->n, id);
    if (i == SIZE_MAX || t->truth[i].cause == PB_ID_NONE)
        return PB_NO_PARENT;
    size_t c = find_ix(ix, t->n, t->truth[i].cause);
    return c != SIZE_MAX && t->truth[c].path == t->truth[i].path ? t->truth[i].cause
                                                                  : PB_NO_PARENT;
}

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
    id_ix *ix = malloc((trace->n ? trace->n : 1) * sizeof *ix);
    if (!ix) {
        tv_close(tv);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    for (size_t i = 0; i < trace->n; i++)
        ix[i] = (id_ix){trace->msgs[i].id, i};
    pb_sort(ix, trace->n, sizeof *ix, cmp_id_ix);
    for (size_t i = 0; i < tv->ninst && rc == PB_OK; i++) {
        const tv_instance *in = &tv->inst[i];
        const pb_pattern *tp = pb_pattab_by_index(tv->patterns, in->pattern);
        pb_pattern *e;
        rc = pb_pattab_add(res->patterns, tp->text, in->nnodes, 1.0, in->total,
                           tv->node_lat + in->stat_off,
                           tv->edge_delay + in->stat_off, &e);
        for (size_t k = 0; k < in->nmsg && rc == PB_OK; k++) {
            uint64_t id = tv->msg_ids[in->msg_off + k];
            rc = pb_result_assign_link(res, id, i, e->index, true_parent(trace, ix, id),
                                       NAN);
        }
    }
    free(ix);
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
