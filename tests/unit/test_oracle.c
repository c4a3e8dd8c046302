/* The truth oracle: exactly the true patterns and assignment. */
#include "pbtest.h"
#include "pb_algo.h"
#include "tv.h"

#include <stdlib.h>

#define MS(x) ((pb_ns)((x) * 1000000LL))
#define N PB_ID_NONE

static pb_trace *rpc_trace(void)
{
    pb_trace *t;
    pb_trace_new(&t);
    pb_trace_add(t, 1, MS(0), MS(10), "A", "B", PB_TYPE_CALL, 1, 1, N);
    pb_trace_add(t, 2, MS(20), MS(25), "B", "C", PB_TYPE_CALL, 2, 1, 1);
    pb_trace_add(t, 3, MS(50), MS(55), "C", "B", PB_TYPE_RETURN, 2, 1, 2);
    pb_trace_add(t, 4, MS(80), MS(90), "B", "A", PB_TYPE_RETURN, 1, 1, 3);
    pb_trace_add(t, 5, MS(100), MS(110), "A", "B", PB_TYPE_CALL, 3, 2, N);
    pb_trace_add(t, 6, MS(120), MS(130), "B", "A", PB_TYPE_RETURN, 3, 2, 5);
    pb_trace_add(t, 7, MS(200), MS(210), "A", "B", PB_TYPE_CALL, 4, 3, N);
    pb_trace_add(t, 8, MS(220), MS(230), "B", "A", PB_TYPE_RETURN, 4, 3, 7);
    return t;
}

static int run(const pb_trace *t, const char *view, pb_result *res, pb_error *err)
{
    const pb_algo *a = pb_algo_find("truth");
    void *params = calloc(1, a->params_size);
    pb_opt_defaults(a->options, params, err);
    if (view && pb_opt_set(a->options, params, "view", view, err) != PB_OK) {
        free(params);
        return PB_EINVAL;
    }
    pb_result_init(res, a->name, a->view);
    int rc = a->run_truth(t, params, res, err);
    free(params);
    return rc;
}

TEST(oracle_call_view_by_default)
{
    pb_trace *t = rpc_trace();
    pb_result res;
    pb_error err;
    CHECK_INT(run(t, NULL, &res, &err), PB_OK);
    CHECK_STR(res.view, "call");
    CHECK_INT(pb_pattab_count(res.patterns), 2);
    pb_pattern *p = pb_pattab_find(res.patterns, "A>B");
    CHECK(p != NULL);
    if (p) {
        CHECK_INT(p->count, 2);
        CHECK_NEAR(p->latency_sum, 0.040, 1e-12);
    }
    p = pb_pattab_find(res.patterns, "A>B[C]");
    CHECK(p != NULL);
    if (p) {
        CHECK_INT(p->count, 1);
        CHECK_NEAR(p->node_sum[1] / p->node_wsum[1], 0.050, 1e-12);
    }
    /* every message, each in the instance of its path */
    CHECK_INT(res.nassign, 8);
    for (size_t i = 0; i < res.nassign; i++) {
        uint64_t id = res.assign[i].id;
        uint64_t want = id <= 4 ? 0 : id <= 6 ? 1 : 2;
        CHECK_INT(res.assign[i].instance, want);
        const pb_pattern *e = pb_pattab_by_index(res.patterns, res.assign[i].pattern);
        CHECK_STR(e->text, id <= 4 ? "A>B[C]" : "A>B");
    }
    pb_result_free(&res);
    pb_trace_close(t);
}

TEST(oracle_other_views)
{
    pb_trace *t = rpc_trace();
    pb_result res;
    pb_error err;
    CHECK_INT(run(t, "message", &res, &err), PB_OK);
    CHECK_STR(res.view, "message");
    CHECK(pb_pattab_find(res.patterns, "A>B[C[B[A]]]") != NULL);
    CHECK(pb_pattab_find(res.patterns, "A>B[A]") != NULL);
    CHECK_INT(res.nassign, 8);
    pb_result_free(&res);
    CHECK_INT(run(t, "path", &res, &err), PB_OK);
    CHECK_STR(res.view, "path");
    CHECK_INT(pb_pattab_count(res.patterns), 2);
    CHECK_INT(res.nassign, 0); /* chains hold no messages */
    pb_result_free(&res);
    pb_trace_close(t);
}

TEST(oracle_bad_view)
{
    pb_trace *t = rpc_trace();
    pb_result res;
    pb_error err;
    pb_error_clear(&err);
    CHECK_INT(run(t, "tree", &res, &err), PB_EINVAL);
    CHECK(strstr(err.msg, "expected call, message, path or auto") != NULL);
    pb_result_free(&res);
    pb_trace_close(t);
}

int main(void)
{
    RUN(oracle_call_view_by_default);
    RUN(oracle_other_views);
    RUN(oracle_bad_view);
    return pbtest_exit();
}
