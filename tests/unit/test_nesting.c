/* The nesting algorithm: Figures 2/3 and 5 of seed 000 worked by hand, the
 * FIFO pairing of 5.1.1.1 (with the failure it describes), the child
 * penalties and tie-breaking, the skew window, smoothing, and the
 * properties (renaming nodes, noise messages) on a generated trace. */
#include "pbtest.h"
#include "nesting.h"
#include "pb_algo.h"
#include "pb_ptree.h"

#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include "pb_sort.h"

#define MS 1000000LL

static nesting_params defaults(void)
{
    nesting_params p;
    pb_error err;
    if (nesting_params_defaults(&p, &err) != PB_OK)
        printf("FAIL defaults: %s\n", err.msg);
    return p;
}

static void add(pb_trace *t, uint64_t id, pb_ns ts, const char *src,
                const char *dst, pb_msg_type type, uint64_t callid)
{
    if (pb_trace_add(t, id, ts, PB_TS_NONE, src, dst, type, callid, PB_ID_NONE,
                     PB_ID_NONE) != PB_OK)
        printf("FAIL add: out of memory\n");
}

static uint32_t node(const pb_trace *t, const char *name)
{
    uint32_t i = UINT32_MAX;
    pb_strtab_find(t->names->nodes, name, strlen(name), &i);
    return i;
}

/* Run the whole algorithm; returns the status. */
static int run(const pb_trace *t, const nesting_params *p, pb_result *res)
{
    pb_error err;
    pb_trace_view v = pb_trace_view_of(t);
    pb_result_init(res, "nesting", "call");
    int rc = pb_algo_nesting.run(&v, p, res, &err);
    if (rc != PB_OK)
        printf("# run: %s\n", err.msg);
    return rc;
}

/* "key=value" from the result metadata, or -1. */
static long meta(const pb_result *res, const char *key)
{
    const char *s = pb_strbuf_str(&res->meta);
    size_t kl = strlen(key);
    while (*s) {
        if (!strncmp(s, key, kl) && s[kl] == '=')
            return atol(s + kl + 1);
        const char *nl = strchr(s, '\n');
        if (!nl)
            break;
        s = nl + 1;
    }
    return -1;
}

/* Figures 2 and 3: A calls B; B calls C, then D; message numbers are the
 * timestamps (seconds). */
TEST(figure3_single_path)
{
    pb_trace *t;
    pb_trace_new(&t);
    add(t, 1, 1 * PB_NS_PER_SEC, "A", "B", PB_TYPE_CALL, 1);
    add(t, 3, 3 * PB_NS_PER_SEC, "B", "C", PB_TYPE_CALL, 2);
    add(t, 5, 5 * PB_NS_PER_SEC, "C", "B", PB_TYPE_RETURN, 2);
    add(t, 7, 7 * PB_NS_PER_SEC, "B", "D", PB_TYPE_CALL, 3);
    add(t, 9, 9 * PB_NS_PER_SEC, "D", "B", PB_TYPE_RETURN, 3);
    add(t, 11, 11 * PB_NS_PER_SEC, "B", "A", PB_TYPE_RETURN, 1);
    nesting_params p = defaults();
    pb_result res;
    CHECK_INT(run(t, &p, &res), PB_OK);
    CHECK_INT(pb_pattab_count(res.patterns), 1);
    pb_pattern *e = pb_pattab_get(res.patterns, 0);
    CHECK_STR(e->text, "A>B[C,D]");
    CHECK_INT(e->count, 1);
    CHECK_NEAR(e->latency_sum, 10.0, 1e-12);
    /* positions A0 B1 C2 D3; B's own time is 10 - (5-3) - (9-7) */
    CHECK(isnan(e->node_sum[0]) || e->node_wsum[0] == 0);
    CHECK_NEAR(e->node_sum[1], 6.0, 1e-12);
    CHECK_NEAR(e->node_sum[2], 2.0, 1e-12);
    CHECK_NEAR(e->node_sum[3], 2.0, 1e-12);
    CHECK_INT(e->edge_wsum[1], 0); /* the root call has no call delay */
    CHECK_NEAR(e->edge_sum[2], 2.0, 1e-12);
    CHECK_NEAR(e->edge_sum[3], 6.0, 1e-12);
    CHECK_INT(res.nassign, 6);
    for (size_t i = 0; i < res.nassign; i++)
        CHECK_INT(res.assign[i].instance, 1);
    /* parents as the trace's cause: the call to D was sent after C's
     * return came back (5 <= 7), the return to A after D's; one candidate
     * everywhere, so confidence 1 */
    static const uint64_t want_parent[][2] = {{1, PB_NO_PARENT}, {3, 1}, {5, 3},
                                              {7, 5}, {9, 7}, {11, 9}};
    CHECK(res.has_parent && res.has_conf && res.parent && res.conf);
    for (size_t i = 0; res.parent && i < res.nassign && i < 6; i++) {
        CHECK_INT(res.assign[i].id, want_parent[i][0]);
        CHECK(res.parent[i] == want_parent[i][1]);
        CHECK_NEAR(res.conf[i], 1, 0);
    }
    CHECK_INT(meta(&res, "call_pairs"), 3);
    CHECK_INT(meta(&res, "paths"), 1);
    CHECK(strstr(pb_strbuf_str(&res.dot), "label=\"B\\n10s\"") != NULL);
    CHECK(strstr(pb_strbuf_str(&res.dot), "label=\"count 1\\ntotal 10s\"") != NULL);
    CHECK(strstr(pb_strbuf_str(&res.dot), "-> p1_3 [label=\"6s\"]") != NULL);
    pb_result_free(&res);
    pb_trace_close(t);
}

/* Parents of parallel children: B calls C and, before C returns, D; the
 * call to D was caused by the call into B (nothing came back yet), B's
 * return by the later of the two returns. */
TEST(parents_of_parallel_children)
{
    pb_trace *t;
    pb_trace_new(&t);
    add(t, 1, 1 * PB_NS_PER_SEC, "A", "B", PB_TYPE_CALL, 1);
    add(t, 3, 3 * PB_NS_PER_SEC, "B", "C", PB_TYPE_CALL, 2);
    add(t, 4, 4 * PB_NS_PER_SEC, "B", "D", PB_TYPE_CALL, 3);
    add(t, 6, 6 * PB_NS_PER_SEC, "C", "B", PB_TYPE_RETURN, 2);
    add(t, 8, 8 * PB_NS_PER_SEC, "D", "B", PB_TYPE_RETURN, 3);
    add(t, 10, 10 * PB_NS_PER_SEC, "B", "A", PB_TYPE_RETURN, 1);
    nesting_params p = defaults();
    pb_result res;
    CHECK_INT(run(t, &p, &res), PB_OK);
    static const uint64_t want[][2] = {{1, PB_NO_PARENT}, {3, 1}, {4, 1},
                                       {6, 3}, {8, 4}, {10, 8}};
    CHECK_INT(res.nassign, 6);
    for (size_t i = 0; res.parent && i < res.nassign && i < 6; i++) {
        CHECK_INT(res.assign[i].id, want[i][0]);
        if (res.parent[i] != want[i][1])
            PBT_FAIL("message %llu: parent %llu, expected %llu",
                     (unsigned long long)want[i][0], (unsigned long long)res.parent[i],
                     (unsigned long long)want[i][1]);
    }
    CHECK(res.parent != NULL);
    pb_result_free(&res);
    pb_trace_close(t);
}

/* Figure 5: two A->B calls (t1 < t2), two B->C calls (t3 < t4), each B->C
 * nested in both A->B calls.  The medium delay t3-t1 = t4-t2 occurs twice,
 * the long and the short once: the peak is at the medium delay and each
 * child goes to its own parent. */
TEST(figure5_scoreboard_peak)
{
    pb_trace *t;
    pb_trace_new(&t);
    add(t, 1, 0 * MS, "A", "B", PB_TYPE_CALL, 1);
    add(t, 2, 100 * MS, "A", "B", PB_TYPE_CALL, 2);
    add(t, 3, 300 * MS, "B", "C", PB_TYPE_CALL, 3);
    add(t, 4, 350 * MS, "C", "B", PB_TYPE_RETURN, 3);
    add(t, 5, 400 * MS, "B", "C", PB_TYPE_CALL, 4);
    add(t, 6, 450 * MS, "C", "B", PB_TYPE_RETURN, 4);
    add(t, 7, 500 * MS, "B", "A", PB_TYPE_RETURN, 1);
    add(t, 8, 600 * MS, "B", "A", PB_TYPE_RETURN, 2);
    nesting_params p = defaults();
    p.x = 0; /* the scoreboard alone decides */
    pb_trace_view v = pb_trace_view_of(t);
    nesting *s;
    pb_error err;
    CHECK_INT(nesting_init(&s, &v, &p, &err), PB_OK);
    uint32_t A = node(t, "A"), B = node(t, "B"), C = node(t, "C");
    CHECK_NEAR(nesting_scoreboard(s, A, B, C, 300 * MS), 1.0, 1e-12);
    CHECK_NEAR(nesting_scoreboard(s, A, B, C, 200 * MS), 0.5, 1e-12);
    CHECK_NEAR(nesting_scoreboard(s, A, B, C, 400 * MS), 0.5, 1e-12);
    CHECK_NEAR(nesting_scoreboard(s, A, B, C, 250 * MS), 0.0, 1e-12);
    CHECK_NEAR(nesting_scoreboard(s, B, C, A, 300 * MS), 0.0, 1e-12);
    /* pairs in return order: c1, c2, P1, P2 */
    CHECK_INT(nesting_npairs(s), 4);
    CHECK_INT(nesting_pair_ncandidates(s, 0), 2);
    CHECK_INT(nesting_pair_ncandidates(s, 1), 2);
    CHECK_INT(nesting_pair_ncandidates(s, 2), 0);
    CHECK_INT(nesting_pair_parent(s, 0), 2);
    CHECK_INT(nesting_pair_parent(s, 1), 3);
    CHECK_INT(nesting_pair_parent(s, 2), NESTING_NONE);
    pb_result res;
    pb_result_init(&res, "nesting", "call");
    CHECK_INT(nesting_paths(s, &res, &err), PB_OK);
    CHECK_INT(pb_pattab_count(res.patterns), 1);
    pb_pattern *e = pb_pattab_find(res.patterns, "A>B[C]");
    CHECK(e != NULL);
    if (e) {
        CHECK_INT(e->count, 2);
        CHECK_NEAR(e->edge_sum[2] / e->edge_wsum[2], 0.3, 1e-12);
    }
    CHECK_INT(meta(&res, "candidate_nestings"), 4);
    /* instances: message -> instance agrees with the chosen parents */
    uint64_t inst_of[9] = {0};
    for (size_t i = 0; i < res.nassign; i++)
        inst_of[res.assign[i].id] = res.assign[i].instance;
    CHECK(inst_of[1] == inst_of[3] && inst_of[3] == inst_of[4] && inst_of[1] == inst_of[7]);
    CHECK(inst_of[2] == inst_of[5] && inst_of[5] == inst_of[6] && inst_of[2] == inst_of[8]);
    CHECK(inst_of[1] != inst_of[2]);
    pb_result_free(&res);
    nesting_close(s);
    pb_trace_close(t);
}

/* Histogram bins: log_1.05 from 1 ms; shorter delays in bin 0, longer
 * ones than the last edge in the last bin. */
TEST(bins)
{
    pb_trace *t;
    pb_trace_new(&t);
    add(t, 1, 0, "A", "B", PB_TYPE_CALL, 1);
    add(t, 2, 1, "B", "A", PB_TYPE_RETURN, 1);
    nesting_params p = defaults();
    pb_trace_view v = pb_trace_view_of(t);
    nesting *s;
    pb_error err;
    CHECK_INT(nesting_init(&s, &v, &p, &err), PB_OK);
    CHECK_INT(nesting_bin(s, -5 * MS), 0);
    CHECK_INT(nesting_bin(s, 0), 0);
    CHECK_INT(nesting_bin(s, 1 * MS), 0);
    CHECK_INT(nesting_bin(s, 1 * MS + 40000), 0);   /* 1.04 ms */
    CHECK_INT(nesting_bin(s, 1 * MS + 60000), 1);   /* 1.06 ms */
    CHECK_INT(nesting_bin(s, 1000 * MS), 141);      /* log_1.05(1000) = 141.6 */
    CHECK_INT(nesting_bin(s, 7200LL * PB_NS_PER_SEC), 323);
    CHECK_INT(nesting_bin(s, 100000LL * PB_NS_PER_SEC), 339);
    nesting_close(s);
    pb_trace_close(t);
}

/* 5.1.1.1: without call ids each return takes the earliest unmatched call;
 * right when paths keep their order, wrong when a later call returns first:
 * true pairs (i,j), (k,l) with i < k, j > l become (i,l), (k,j). */
TEST(fifo_pairing)
{
    for (int variant = 0; variant < 3; variant++) {
        pb_trace *t;
        pb_trace_new(&t);
        uint64_t none = PB_ID_NONE;
        /* i=1, k=2, l=3 (return of k), j=4 (return of i) */
        add(t, 1, 1 * MS, "A", "B", PB_TYPE_CALL, variant == 0 ? none : 10);
        add(t, 2, 2 * MS, "A", "B", PB_TYPE_CALL, variant == 0 ? none : 20);
        add(t, 3, 3 * MS, "B", "A", PB_TYPE_RETURN, variant == 0 ? none : 20);
        add(t, 4, 4 * MS, "B", "A", PB_TYPE_RETURN, variant == 0 ? none : 10);
        nesting_params p = defaults();
        if (variant == 2)
            p.callids = 0; /* ids present but ignored */
        pb_trace_view v = pb_trace_view_of(t);
        nesting *s;
        pb_error err;
        CHECK_INT(nesting_init(&s, &v, &p, &err), PB_OK);
        CHECK_INT(nesting_npairs(s), 2);
        if (variant == 1) { /* call ids: right */
            CHECK_INT(nesting_pair_call(s, 0), 1);
            CHECK_INT(nesting_pair_return(s, 0), 2);
            CHECK_INT(nesting_pair_call(s, 1), 0);
            CHECK_INT(nesting_pair_return(s, 1), 3);
        } else { /* FIFO: (i,l) and (k,j) */
            CHECK_INT(nesting_pair_call(s, 0), 0);
            CHECK_INT(nesting_pair_return(s, 0), 2);
            CHECK_INT(nesting_pair_call(s, 1), 1);
            CHECK_INT(nesting_pair_return(s, 1), 3);
        }
        nesting_close(s);
        pb_trace_close(t);
    }
}

/* FIFO is right when no path overtakes another, and a repeated call id is
 * a FIFO key like a missing one. */
TEST(fifo_in_order_and_repeated_ids)
{
    pb_trace *t;
    pb_trace_new(&t);
    add(t, 1, 1 * MS, "A", "B", PB_TYPE_CALL, 7);
    add(t, 2, 2 * MS, "A", "B", PB_TYPE_CALL, 7);
    add(t, 3, 3 * MS, "B", "A", PB_TYPE_RETURN, 7);
    add(t, 4, 4 * MS, "B", "A", PB_TYPE_RETURN, 7);
    add(t, 5, 5 * MS, "A", "B", PB_TYPE_CALL, 7);
    add(t, 6, 6 * MS, "B", "A", PB_TYPE_RETURN, 7);
    nesting_params p = defaults();
    pb_result res;
    CHECK_INT(run(t, &p, &res), PB_OK);
    CHECK_INT(meta(&res, "call_pairs"), 3);
    CHECK_INT(meta(&res, "repeated_key_matches"), 1);
    pb_pattern *e = pb_pattab_find(res.patterns, "A>B");
    CHECK(e && e->count == 3);
    CHECK_NEAR(e ? e->latency_sum : 0, 0.005, 1e-12); /* 2 + 2 + 1 ms */
    pb_result_free(&res);
    pb_trace_close(t);
}

/* Unmatched calls and returns are discarded and counted, and change
 * nothing else; free-form messages are counted and ignored. */
TEST(unmatched_discarded)
{
    pb_trace *t;
    pb_trace_new(&t);
    add(t, 1, 1 * MS, "A", "B", PB_TYPE_CALL, 1);
    add(t, 2, 2 * MS, "X", "B", PB_TYPE_CALL, 99);    /* never returns */
    add(t, 3, 3 * MS, "B", "C", PB_TYPE_CALL, 2);
    add(t, 4, 4 * MS, "C", "B", PB_TYPE_RETURN, 2);
    add(t, 5, 5 * MS, "C", "B", PB_TYPE_RETURN, 98);  /* no call */
    add(t, 6, 6 * MS, "B", "D", PB_TYPE_MSG, PB_ID_NONE);
    add(t, 7, 7 * MS, "B", "A", PB_TYPE_RETURN, 1);
    nesting_params p = defaults();
    pb_result res;
    CHECK_INT(run(t, &p, &res), PB_OK);
    CHECK_INT(meta(&res, "unmatched_calls"), 1);
    CHECK_INT(meta(&res, "unmatched_returns"), 1);
    CHECK_INT(meta(&res, "other_messages"), 1);
    CHECK_INT(meta(&res, "candidate_nestings"), 1);
    CHECK_INT(pb_pattab_count(res.patterns), 1);
    CHECK(pb_pattab_find(res.patterns, "A>B[C]") != NULL);
    CHECK_INT(res.nassign, 4); /* only messages of call pairs are ascribed */
    pb_result_free(&res);
    pb_trace_close(t);
}

/* Two parents P1 (0 ms) and P2 (100 ms) into B; two overlapping B->C
 * children at 150 and 160 ms.  All four delays fall in different bins, so
 * every candidate scores 0.5: the first child goes to the earliest parent
 * (tie), and the second follows the penalties. */
static void penalty_case(double x, double y, double z, uint32_t want_parent_c2)
{
    pb_trace *t;
    pb_trace_new(&t);
    add(t, 1, 0 * MS, "A", "B", PB_TYPE_CALL, 1);
    add(t, 2, 100 * MS, "A", "B", PB_TYPE_CALL, 2);
    add(t, 3, 150 * MS, "B", "C", PB_TYPE_CALL, 3);
    add(t, 4, 160 * MS, "B", "C", PB_TYPE_CALL, 4);
    add(t, 5, 200 * MS, "C", "B", PB_TYPE_RETURN, 3);
    add(t, 6, 210 * MS, "C", "B", PB_TYPE_RETURN, 4);
    add(t, 7, 300 * MS, "B", "A", PB_TYPE_RETURN, 1);
    add(t, 8, 310 * MS, "B", "A", PB_TYPE_RETURN, 2);
    nesting_params p = defaults();
    p.x = x;
    p.y = y;
    p.z = z;
    pb_trace_view v = pb_trace_view_of(t);
    nesting *s;
    pb_error err;
    CHECK_INT(nesting_init(&s, &v, &p, &err), PB_OK);
    CHECK_INT(nesting_pair_parent(s, 0), 2);            /* tie: earliest */
    CHECK_INT(nesting_pair_parent(s, 1), want_parent_c2);
    nesting_close(s);
    pb_trace_close(t);
}

TEST(penalties_and_ties)
{
    penalty_case(0, 0, 0, 2);   /* no penalty: tie again, earliest parent */
    penalty_case(2, 0, 0, 3);   /* overlapping child */
    penalty_case(0, 1, 0, 3);   /* same destination */
    penalty_case(0, 0, 1, 3);   /* any child */
}

/* B's clock runs 5 ms slow: its call to C seems to precede A's call to B.
 * Without a skew window the B->C call roots its own path; a 10 ms window
 * nests it again. */
TEST(skew_window)
{
    pb_trace *t;
    pb_trace_new(&t);
    add(t, 1, 10 * MS, "B", "C", PB_TYPE_CALL, 2);
    add(t, 2, 12 * MS, "A", "B", PB_TYPE_CALL, 1);
    add(t, 3, 20 * MS, "C", "B", PB_TYPE_RETURN, 2);
    add(t, 4, 30 * MS, "B", "A", PB_TYPE_RETURN, 1);
    nesting_params p = defaults();
    pb_result res;
    CHECK_INT(run(t, &p, &res), PB_OK);
    CHECK(pb_pattab_find(res.patterns, "B>C") != NULL);
    CHECK(pb_pattab_find(res.patterns, "A>B") != NULL);
    pb_result_free(&res);
    p.skew_window = 10 * MS;
    CHECK_INT(run(t, &p, &res), PB_OK);
    CHECK_INT(pb_pattab_count(res.patterns), 1);
    pb_pattern *e = pb_pattab_find(res.patterns, "A>B[C]");
    CHECK(e != NULL);
    if (e) {
        CHECK_NEAR(e->edge_sum[2], -0.002, 1e-12);
        CHECK_NEAR(e->node_sum[1], 0.010, 1e-12); /* child clipped to B's call */
    }
    pb_result_free(&res);
    pb_trace_close(t);
}

/* A's clock runs 8 ms fast: its call to B is stamped after B's return.
 * Without a skew window both are unmatched; a 10 ms window pairs them. */
TEST(skew_return_before_call)
{
    pb_trace *t;
    pb_trace_new(&t);
    add(t, 1, 10 * MS, "B", "A", PB_TYPE_RETURN, 1);
    add(t, 2, 14 * MS, "A", "B", PB_TYPE_CALL, 1);
    add(t, 3, 20 * MS, "A", "B", PB_TYPE_CALL, 2);
    add(t, 4, 30 * MS, "B", "A", PB_TYPE_RETURN, 2);
    add(t, 5, 40 * MS, "B", "A", PB_TYPE_RETURN, 3);  /* too early for 3 */
    add(t, 6, 55 * MS, "A", "B", PB_TYPE_CALL, 3);
    nesting_params p = defaults();
    pb_result res;
    CHECK_INT(run(t, &p, &res), PB_OK);
    CHECK_INT(meta(&res, "call_pairs"), 1);
    CHECK_INT(meta(&res, "unmatched_returns"), 2);
    pb_result_free(&res);
    p.skew_window = 10 * MS;
    pb_trace_view v = pb_trace_view_of(t);
    nesting *s;
    pb_error err;
    CHECK_INT(nesting_init(&s, &v, &p, &err), PB_OK);
    CHECK_INT(nesting_npairs(s), 2);
    /* numbered by return: (call 14 ms, return 10 ms) first */
    CHECK_INT(nesting_pair_call(s, 0), 1);
    CHECK_INT(nesting_pair_return(s, 0), 0);
    CHECK_INT(nesting_pair_call(s, 1), 2);
    CHECK_INT(nesting_pair_return(s, 1), 3);
    pb_result_init(&res, "nesting", "call");
    CHECK_INT(nesting_paths(s, &res, &err), PB_OK);
    CHECK_INT(meta(&res, "unmatched_returns"), 1);
    CHECK_INT(meta(&res, "unmatched_calls"), 1);
    pb_pattern *e = pb_pattab_find(res.patterns, "A>B");
    CHECK(e && e->count == 2);
    CHECK_NEAR(e ? e->latency_sum : 0, 0.006, 1e-12); /* -4 ms + 10 ms */
    pb_result_free(&res);
    nesting_close(s);
    pb_trace_close(t);
}

/* Mutual candidates under a skew window (A->B and B->A within the window
 * of each other) must not loop: the cycle is opened at the earliest call. */
TEST(skew_cycle_broken)
{
    pb_trace *t;
    pb_trace_new(&t);
    add(t, 1, 10 * MS, "A", "B", PB_TYPE_CALL, 1);
    add(t, 2, 11 * MS, "B", "A", PB_TYPE_CALL, 2);
    add(t, 3, 20 * MS, "A", "B", PB_TYPE_RETURN, 2);
    add(t, 4, 21 * MS, "B", "A", PB_TYPE_RETURN, 1);
    nesting_params p = defaults();
    p.skew_window = 5 * MS;
    pb_result res;
    CHECK_INT(run(t, &p, &res), PB_OK);
    CHECK_INT(meta(&res, "paths"), 1);
    CHECK_INT(res.nassign, 4);
    pb_result_free(&res);
    pb_trace_close(t);
}

/* Smoothing spreads a peak over neighbouring bins and keeps its mass. */
TEST(smoothing)
{
    pb_trace *t;
    pb_trace_new(&t);
    add(t, 1, 0, "A", "B", PB_TYPE_CALL, 1);
    add(t, 2, 100 * MS, "B", "C", PB_TYPE_CALL, 2);
    add(t, 3, 110 * MS, "C", "B", PB_TYPE_RETURN, 2);
    add(t, 4, 200 * MS, "B", "A", PB_TYPE_RETURN, 1);
    nesting_params p = defaults();
    p.smooth = 1;
    p.smooth_width = 2;
    pb_trace_view v = pb_trace_view_of(t);
    nesting *s;
    pb_error err;
    CHECK_INT(nesting_init(&s, &v, &p, &err), PB_OK);
    uint32_t A = node(t, "A"), B = node(t, "B"), C = node(t, "C");
    double peak = nesting_scoreboard(s, A, B, C, 100 * MS);
    double near = nesting_scoreboard(s, A, B, C, 105 * MS);  /* next bin */
    double far = nesting_scoreboard(s, A, B, C, 200 * MS);
    CHECK(peak < 1.0 && peak > 0.1);
    CHECK(near > 0 && near < peak);
    CHECK_NEAR(far, 0.0, 1e-9);
    double sum = 0;
    for (int b = 0; b < p.bins; b++) {
        /* a delay inside bin b: its lower edge times 1.02 */
        pb_ns d = (pb_ns)(1e6 * pow(1.05, b) * 1.02);
        sum += nesting_scoreboard(s, A, B, C, d);
    }
    CHECK_NEAR(sum, 1.0, 1e-9);
    nesting_close(s);
    pb_trace_close(t);
}

TEST(bad_input)
{
    pb_trace *t;
    pb_trace_new(&t);
    add(t, 1, 0, "A", "B", PB_TYPE_MSG, PB_ID_NONE);
    nesting_params p = defaults();
    pb_result res;
    CHECK_INT(run(t, &p, &res), PB_EINVAL);
    pb_result_free(&res);
    pb_trace_view v = pb_trace_view_of(t);
    nesting *s = NULL;
    pb_error err;
    p.base = 1.0;
    CHECK_INT(nesting_init(&s, &v, &p, &err), PB_EINVAL);
    CHECK(s == NULL);
    pb_trace_close(t);
    /* an empty trace is no error: no patterns */
    pb_trace_new(&t);
    p = defaults();
    CHECK_INT(run(t, &p, &res), PB_OK);
    CHECK_INT(pb_pattab_count(res.patterns), 0);
    pb_result_free(&res);
    pb_trace_close(t);
    nesting_close(NULL);
}

/* ------------------------------------------------------------------ */
/* Properties on a generated multi-path trace */

typedef struct gen_msg {
    pb_ns ts;
    int src, dst;
    pb_msg_type type;
    uint64_t callid;
} gen_msg;

static int cmp_gen(const void *a, const void *b)
{
    const gen_msg *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->callid < y->callid ? -1 : x->callid > y->callid;
}

/* Clients 0..2 call 3; 3 calls 4, and sometimes 5 then 6 (nested). */
static size_t generate(gen_msg *m, size_t cap, unsigned long seed)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    size_t n = 0;
    uint64_t cid = 1;
    for (int c = 0; c < 3; c++) {
        pb_ns t = (pb_ns)(gsl_rng_uniform(r) * 50 * MS);
        while (n + 8 <= cap) {
            pb_ns t0 = t;
            uint64_t top = cid++;
            m[n++] = (gen_msg){t0, c, 3, PB_TYPE_CALL, top};
            pb_ns u = t0 + 5 * MS + (pb_ns)(gsl_rng_uniform(r) * 2 * MS);
            uint64_t k = cid++;
            m[n++] = (gen_msg){u, 3, 4, PB_TYPE_CALL, k};
            u += 10 * MS + (pb_ns)(gsl_rng_uniform(r) * 3 * MS);
            m[n++] = (gen_msg){u, 4, 3, PB_TYPE_RETURN, k};
            if (gsl_rng_uniform(r) < 0.5) {
                u += 3 * MS;
                uint64_t k2 = cid++, k3 = cid++;
                m[n++] = (gen_msg){u, 3, 5, PB_TYPE_CALL, k2};
                m[n++] = (gen_msg){u + 2 * MS, 5, 6, PB_TYPE_CALL, k3};
                m[n++] = (gen_msg){u + 9 * MS, 6, 5, PB_TYPE_RETURN, k3};
                u += 12 * MS;
                m[n++] = (gen_msg){u, 5, 3, PB_TYPE_RETURN, k2};
            }
            u += 4 * MS;
            m[n++] = (gen_msg){u, 3, c, PB_TYPE_RETURN, top};
            t = u + 20 * MS + (pb_ns)(gsl_rng_uniform(r) * 100 * MS);
            if (t > 20LL * PB_NS_PER_SEC)
                break;
        }
    }
    gsl_rng_free(r);
    pb_sort(m, n, sizeof *m, cmp_gen);
    return n;
}

static const char *names_a[] = {"c0", "c1", "c2", "ws", "db", "auth", "ldap"};
static const char *names_b[] = {"zz", "yy", "xx", "Q", "P", "O", "N"};

static pb_trace *build(const gen_msg *m, size_t n, const char *const *names,
                       size_t noise)
{
    pb_trace *t;
    pb_trace_new(&t);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 7);
    size_t next_noise = noise ? n / (noise + 1) : n + 1, added = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == next_noise && added < noise) {
            /* an unmatched call or return on real nodes, fresh call id */
            int a = (int)gsl_rng_uniform_int(r, 7), b = (int)gsl_rng_uniform_int(r, 7);
            add(t, 1000000 + added, m[i].ts, names[a], names[b],
                added % 2 ? PB_TYPE_RETURN : PB_TYPE_CALL, 5000000 + added);
            added++;
            next_noise += n / (noise + 1);
        }
        add(t, i + 1, m[i].ts, names[m[i].src], names[m[i].dst], m[i].type, m[i].callid);
    }
    gsl_rng_free(r);
    return t;
}

/* Pattern text with names mapped from one set to the other, canonical. */
static void rename_pattern(const char *text, const char *const *from,
                           const char *const *to, pb_strbuf *out)
{
    pb_strtab *names;
    pb_strtab_init(&names);
    pb_ptree t = {0}, u = {0};
    pb_error err;
    pb_ptree_parse(text, strlen(text), names, &t, &err);
    pb_strtab *names2;
    pb_strtab_init(&names2);
    for (uint32_t i = 0; i < t.n; i++) {
        const char *nm = pb_strtab_str(names, t.nodes[i].name);
        uint32_t k = 0, idx;
        while (k < 7 && strcmp(from[k], nm))
            k++;
        pb_strtab_intern(names2, k < 7 ? to[k] : nm, strlen(k < 7 ? to[k] : nm), &idx);
        pb_ptree_add(&u, t.nodes[i].parent, idx, NULL);
    }
    pb_strbuf_reset(out);
    pb_ptree_canonical(&u, names2, out, NULL);
    pb_ptree_free(&t);
    pb_ptree_free(&u);
    pb_strtab_close(names);
    pb_strtab_close(names2);
}

TEST(properties_rename_and_noise)
{
    size_t cap = 20000;
    gen_msg *m = malloc(cap * sizeof *m);
    size_t n = generate(m, cap, 42);
    CHECK(n > 1000);
    pb_trace *ta = build(m, n, names_a, 0);
    pb_trace *tb = build(m, n, names_b, 0);
    pb_trace *tn = build(m, n, names_a, 40);
    nesting_params p = defaults();
    pb_result ra, rb, rn;
    CHECK_INT(run(ta, &p, &ra), PB_OK);
    CHECK_INT(run(tb, &p, &rb), PB_OK);
    CHECK_INT(run(tn, &p, &rn), PB_OK);
    /* the generated paths overlap, so this is no trivial case */
    CHECK(meta(&ra, "candidate_nestings") > meta(&ra, "nested_pairs"));
    CHECK(pb_pattab_count(ra.patterns) >= 2);
    CHECK_INT(pb_pattab_count(rb.patterns), pb_pattab_count(ra.patterns));
    CHECK_INT(pb_pattab_count(rn.patterns), pb_pattab_count(ra.patterns));
    CHECK_INT(meta(&rn, "unmatched_calls") + meta(&rn, "unmatched_returns"), 40);
    pb_strbuf s = {0};
    for (size_t i = 0; i < pb_pattab_count(ra.patterns); i++) {
        const pb_pattern *e = pb_pattab_get(ra.patterns, i);
        rename_pattern(e->text, names_a, names_b, &s);
        const pb_pattern *eb = pb_pattab_find(rb.patterns, pb_strbuf_str(&s));
        const pb_pattern *en = pb_pattab_find(rn.patterns, e->text);
        CHECK(eb && eb->count == e->count);
        CHECK(en && en->count == e->count);
        if (eb)
            CHECK_NEAR(eb->latency_sum, e->latency_sum, 1e-9);
    }
    pb_strbuf_free(&s);
    pb_result_free(&ra);
    pb_result_free(&rb);
    pb_result_free(&rn);
    pb_trace_close(ta);
    pb_trace_close(tb);
    pb_trace_close(tn);
    free(m);
}

/* Equal timestamps (issue 13): A calls B and B calls C in the same
 * millisecond; the file puts A->B first.  With same_tick (default) A->B is
 * B->C's parent; with same_tick=0 (Figure 4's "called strictly earlier")
 * B->C roots a path of its own. */
TEST(same_tick_parent)
{
    pb_trace *t;
    pb_trace_new(&t);
    add(t, 1, 1 * MS, "A", "B", PB_TYPE_CALL, 1);
    add(t, 2, 1 * MS, "B", "C", PB_TYPE_CALL, 2);
    add(t, 3, 2 * MS, "C", "B", PB_TYPE_RETURN, 2);
    add(t, 4, 2 * MS, "B", "A", PB_TYPE_RETURN, 1);
    nesting_params p = defaults();
    pb_result res;
    CHECK_INT(run(t, &p, &res), PB_OK);
    CHECK(pb_pattab_find(res.patterns, "A>B[C]") != NULL);
    CHECK_INT(meta(&res, "paths"), 1);
    CHECK_INT(meta(&res, "same_tick_candidates"), 1);
    pb_result_free(&res);
    p.same_tick = 0;
    CHECK_INT(run(t, &p, &res), PB_OK);
    CHECK(pb_pattab_find(res.patterns, "A>B[C]") == NULL);
    CHECK_INT(meta(&res, "paths"), 2);
    pb_result_free(&res);
    /* the file order decides: B->C written first is no child of A->B */
    pb_trace *u;
    pb_trace_new(&u);
    add(u, 2, 1 * MS, "B", "C", PB_TYPE_CALL, 2);
    add(u, 1, 1 * MS, "A", "B", PB_TYPE_CALL, 1);
    add(u, 3, 2 * MS, "C", "B", PB_TYPE_RETURN, 2);
    add(u, 4, 2 * MS, "B", "A", PB_TYPE_RETURN, 1);
    p.same_tick = 1;
    CHECK_INT(run(u, &p, &res), PB_OK);
    CHECK_INT(meta(&res, "paths"), 2);
    pb_result_free(&res);
    pb_trace_close(u);
    pb_trace_close(t);
}

int main(void)
{
    RUN(figure3_single_path);
    RUN(parents_of_parallel_children);
    RUN(figure5_scoreboard_peak);
    RUN(bins);
    RUN(fifo_pairing);
    RUN(fifo_in_order_and_repeated_ids);
    RUN(unmatched_discarded);
    RUN(penalties_and_ties);
    RUN(skew_window);
    RUN(skew_return_before_call);
    RUN(skew_cycle_broken);
    RUN(smoothing);
    RUN(bad_input);
    RUN(properties_rename_and_noise);
    RUN(same_tick_parent);
    return pbtest_exit();
}
