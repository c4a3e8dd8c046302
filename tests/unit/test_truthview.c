/* Truth views: call, message and path trees built from path/cause. */
#include "pbtest.h"
#include "tv.h"

#include <stdlib.h>

#define MS(x) ((pb_ns)((x) * 1000000LL))
#define N PB_ID_NONE

/* Two instances of A>B[C,D] in the call view; C and D run in parallel. */
static pb_trace *rpc_trace(void)
{
    pb_trace *t;
    pb_trace_new(&t);
    pb_trace_add(t, 1, MS(0), MS(10), "A", "B", PB_TYPE_CALL, 1, 1, N);
    pb_trace_add(t, 2, MS(20), MS(25), "B", "C", PB_TYPE_CALL, 2, 1, 1);
    pb_trace_add(t, 3, MS(30), MS(35), "B", "D", PB_TYPE_CALL, 3, 1, 1);
    pb_trace_add(t, 4, MS(50), MS(55), "C", "B", PB_TYPE_RETURN, 2, 1, 2);
    pb_trace_add(t, 5, MS(70), MS(75), "D", "B", PB_TYPE_RETURN, 3, 1, 3);
    pb_trace_add(t, 6, MS(80), MS(90), "B", "A", PB_TYPE_RETURN, 1, 1, 5);
    pb_trace_add(t, 7, MS(1000), MS(1010), "A", "B", PB_TYPE_CALL, 11, 2, N);
    pb_trace_add(t, 8, MS(1020), MS(1025), "B", "D", PB_TYPE_CALL, 13, 2, 7);
    pb_trace_add(t, 9, MS(1030), MS(1035), "B", "C", PB_TYPE_CALL, 12, 2, 7);
    pb_trace_add(t, 10, MS(1040), MS(1045), "D", "B", PB_TYPE_RETURN, 13, 2, 8);
    pb_trace_add(t, 11, MS(1060), MS(1065), "C", "B", PB_TYPE_RETURN, 12, 2, 9);
    pb_trace_add(t, 12, MS(1100), MS(1110), "B", "A", PB_TYPE_RETURN, 11, 2, 11);
    return t;
}

static const char *pat(const tv_truth *tv, size_t i)
{
    return pb_pattab_by_index(tv->patterns, tv->inst[i].pattern)->text;
}

static double nl(const tv_truth *tv, size_t i, size_t pos)
{
    return tv->node_lat[tv->inst[i].stat_off + pos];
}

static double ed(const tv_truth *tv, size_t i, size_t pos)
{
    return tv->edge_delay[tv->inst[i].stat_off + pos];
}

TEST(call_view_tree_and_stats)
{
    pb_trace *t = rpc_trace();
    tv_truth *tv;
    pb_error err;
    CHECK_INT(tv_build(t, TV_CALL, &tv, &err), PB_OK);
    CHECK_INT(tv->ninst, 2);
    CHECK_STR(pat(tv, 0), "A>B[C,D]");
    CHECK_STR(pat(tv, 1), "A>B[C,D]");
    CHECK_INT(pb_pattab_count(tv->patterns), 1);
    /* positions: A0 B1 C2 D3 */
    CHECK(isnan(nl(tv, 0, 0)));
    CHECK(isnan(ed(tv, 0, 0)));
    /* B: 80 ms minus the union [20,70] of its children = 30 ms */
    CHECK_NEAR(nl(tv, 0, 1), 0.030, 1e-12);
    CHECK(isnan(ed(tv, 0, 1)));
    CHECK_NEAR(nl(tv, 0, 2), 0.030, 1e-12);
    CHECK_NEAR(ed(tv, 0, 2), 0.020, 1e-12);
    CHECK_NEAR(nl(tv, 0, 3), 0.040, 1e-12);
    CHECK_NEAR(ed(tv, 0, 3), 0.030, 1e-12);
    /* second instance: 100 ms minus [20,60] */
    CHECK_NEAR(nl(tv, 1, 1), 0.060, 1e-12);
    CHECK_NEAR(nl(tv, 1, 2), 0.030, 1e-12); /* C */
    CHECK_NEAR(ed(tv, 1, 2), 0.030, 1e-12);
    CHECK_NEAR(nl(tv, 1, 3), 0.020, 1e-12); /* D */
    CHECK_NEAR(tv->inst[0].total, 0.080, 1e-12);
    CHECK_NEAR(tv->inst[1].total, 0.100, 1e-12);
    /* every call and return is held, ids ascending */
    CHECK_INT(tv->inst[0].nmsg, 6);
    for (size_t k = 0; k < 6; k++)
        CHECK_INT(tv->msg_ids[tv->inst[0].msg_off + k], k + 1);
    size_t inst;
    CHECK_INT(tv_lookup(tv, 12, &inst), 1);
    CHECK_INT(inst, 1);
    CHECK_INT(tv_lookup(tv, 99, &inst), 0);
    tv_close(tv);
    pb_trace_close(t);
}

TEST(message_view_tree_and_stats)
{
    pb_trace *t = rpc_trace();
    tv_truth *tv;
    pb_error err;
    CHECK_INT(tv_build(t, TV_MESSAGE, &tv, &err), PB_OK);
    CHECK_INT(tv->ninst, 2);
    /* the return to A is caused by the later child return (D's) */
    CHECK_STR(pat(tv, 0), "A>B[C[B],D[B[A]]]");
    CHECK_STR(pat(tv, 1), "A>B[C[B[A]],D[B]]");
    /* positions of instance 0: A0 B1 C2 B3 D4 B5 A6 */
    CHECK(isnan(nl(tv, 0, 0)));
    CHECK_NEAR(nl(tv, 0, 1), 0.020, 1e-12); /* latest child send 30 - recv 10 */
    CHECK_NEAR(ed(tv, 0, 1), 0.010, 1e-12);
    CHECK_NEAR(nl(tv, 0, 2), 0.025, 1e-12); /* C: 50 - 25 */
    CHECK(isnan(nl(tv, 0, 3)));              /* leaf */
    CHECK_NEAR(nl(tv, 0, 4), 0.035, 1e-12); /* D: 70 - 35 */
    CHECK_NEAR(nl(tv, 0, 5), 0.005, 1e-12); /* B: 80 - 75 */
    CHECK_NEAR(ed(tv, 0, 6), 0.010, 1e-12);
    CHECK_NEAR(tv->inst[0].total, 0.090, 1e-12);
    CHECK_INT(tv->inst[0].nmsg, 6);
    tv_close(tv);
    pb_trace_close(t);
}

TEST(path_view_chains)
{
    pb_trace *t = rpc_trace();
    tv_truth *tv;
    pb_error err;
    CHECK_INT(tv_build(t, TV_PATH, &tv, &err), PB_OK);
    CHECK_INT(tv->ninst, 4);
    CHECK_STR(pat(tv, 0), "A>B[C[B]]");
    CHECK_STR(pat(tv, 1), "A>B[D[B[A]]]");
    CHECK_NEAR(nl(tv, 1, 1), 0.030, 1e-12);  /* 30 - 0 */
    CHECK_NEAR(nl(tv, 1, 2), 0.040, 1e-12);  /* 70 - 30 */
    CHECK_NEAR(nl(tv, 1, 3), 0.010, 1e-12);  /* 80 - 70 */
    CHECK(isnan(nl(tv, 1, 4)));
    CHECK(isnan(ed(tv, 1, 2)));
    CHECK_NEAR(tv->inst[1].total, 0.080, 1e-12);
    CHECK_INT(tv->inst[1].nmsg, 0);
    size_t inst = 0;
    CHECK_INT(tv_lookup(tv, 3, &inst), 1);
    CHECK(inst == TV_NONE);
    tv_close(tv);
    pb_trace_close(t);
}

/* A calls B, then after B returned calls C: two call-view instances, one
 * message-view instance. */
TEST(sequential_top_level_calls)
{
    pb_trace *t;
    pb_trace_new(&t);
    pb_trace_add(t, 1, MS(0), PB_TS_NONE, "A", "B", PB_TYPE_CALL, N, 7, N);
    pb_trace_add(t, 2, MS(10), PB_TS_NONE, "B", "A", PB_TYPE_RETURN, N, 7, 1);
    pb_trace_add(t, 3, MS(20), PB_TS_NONE, "A", "C", PB_TYPE_CALL, N, 7, 2);
    pb_trace_add(t, 4, MS(35), PB_TS_NONE, "C", "A", PB_TYPE_RETURN, N, 7, 3);
    tv_truth *tv;
    pb_error err;
    CHECK_INT(tv_build(t, TV_CALL, &tv, &err), PB_OK);
    CHECK_INT(tv->ninst, 2);
    CHECK_STR(pat(tv, 0), "A>B");
    CHECK_STR(pat(tv, 1), "A>C");
    CHECK_NEAR(tv->inst[1].total, 0.015, 1e-12);
    CHECK_INT(tv->inst[1].nmsg, 2);
    tv_close(tv);
    CHECK_INT(tv_build(t, TV_MESSAGE, &tv, &err), PB_OK);
    CHECK_INT(tv->ninst, 1);
    CHECK_STR(pat(tv, 0), "A>B[A[C[A]]]");
    /* no recv_ts: total is the last send */
    CHECK_NEAR(tv->inst[0].total, 0.035, 1e-12);
    CHECK(isnan(nl(tv, 0, 1)));
    tv_close(tv);
    pb_trace_close(t);
}

/* Free-form messages are one-way calls in the call view; messages without
 * a path, and causes into another path, are left out. */
TEST(msgs_pathless_and_foreign_causes)
{
    pb_trace *t;
    pb_trace_new(&t);
    pb_trace_add(t, 1, MS(0), MS(1), "A", "B", PB_TYPE_MSG, N, 1, N);
    pb_trace_add(t, 2, MS(5), MS(6), "B", "C", PB_TYPE_MSG, N, 1, 1);
    pb_trace_add(t, 3, MS(6), MS(7), "X", "Y", PB_TYPE_MSG, N, N, N);
    pb_trace_add(t, 4, MS(9), MS(10), "C", "D", PB_TYPE_MSG, N, 2, 2);
    tv_truth *tv;
    pb_error err;
    CHECK_INT(tv_build(t, TV_CALL, &tv, &err), PB_OK);
    CHECK_INT(tv->ninst, 2);
    CHECK_STR(pat(tv, 0), "A>B[C]");
    CHECK(isnan(nl(tv, 0, 1)));            /* no return: no duration */
    CHECK_NEAR(ed(tv, 0, 2), 0.005, 1e-12);
    CHECK_STR(pat(tv, 1), "C>D");
    size_t inst = 0;
    CHECK_INT(tv_lookup(tv, 3, &inst), 1);
    CHECK(inst == TV_NONE);
    tv_close(tv);
    CHECK_INT(tv_build(t, TV_MESSAGE, &tv, &err), PB_OK);
    CHECK_INT(tv->ninst, 2);
    CHECK_STR(pat(tv, 0), "A>B[C]");
    CHECK_NEAR(nl(tv, 0, 1), 0.004, 1e-12); /* 5 - 1 */
    CHECK_INT(tv->nmsg_ids, 3);
    tv_close(tv);
    CHECK_INT(tv_default_view(t), TV_MESSAGE);
    pb_trace_close(t);
}

TEST(bad_truth_is_an_error)
{
    pb_trace *t;
    pb_error err;
    tv_truth *tv = (tv_truth *)1;
    /* a return whose causes reach no call */
    pb_trace_new(&t);
    pb_trace_add(t, 1, MS(0), PB_TS_NONE, "B", "A", PB_TYPE_RETURN, N, 1, N);
    CHECK_INT(tv_build(t, TV_CALL, &tv, &err), PB_EPARSE);
    CHECK(tv == NULL);
    CHECK(strstr(err.msg, "return 1") != NULL);
    /* the message view does not care */
    CHECK_INT(tv_build(t, TV_MESSAGE, &tv, &err), PB_OK);
    tv_close(tv);
    pb_trace_close(t);
    /* a return in the wrong direction */
    pb_trace_new(&t);
    pb_trace_add(t, 1, MS(0), PB_TS_NONE, "A", "B", PB_TYPE_CALL, N, 1, N);
    pb_trace_add(t, 2, MS(1), PB_TS_NONE, "B", "C", PB_TYPE_RETURN, N, 1, 1);
    CHECK_INT(tv_build(t, TV_CALL, &tv, &err), PB_EPARSE);
    CHECK(strstr(err.msg, "reverse") != NULL);
    pb_trace_close(t);
    /* two returns for one call; callids that disagree */
    pb_trace_new(&t);
    pb_trace_add(t, 1, MS(0), PB_TS_NONE, "A", "B", PB_TYPE_CALL, 5, 1, N);
    pb_trace_add(t, 2, MS(1), PB_TS_NONE, "B", "A", PB_TYPE_RETURN, 5, 1, 1);
    pb_trace_add(t, 3, MS(2), PB_TS_NONE, "B", "A", PB_TYPE_RETURN, 5, 1, 1);
    CHECK_INT(tv_build(t, TV_CALL, &tv, &err), PB_EPARSE);
    CHECK(strstr(err.msg, "two returns") != NULL);
    pb_trace_close(t);
    pb_trace_new(&t);
    pb_trace_add(t, 1, MS(0), PB_TS_NONE, "A", "B", PB_TYPE_CALL, 5, 1, N);
    pb_trace_add(t, 2, MS(1), PB_TS_NONE, "B", "A", PB_TYPE_RETURN, 6, 1, 1);
    CHECK_INT(tv_build(t, TV_CALL, &tv, &err), PB_EPARSE);
    CHECK(strstr(err.msg, "callid") != NULL);
    pb_trace_close(t);
    /* a cause cycle, a dangling cause, a duplicate id */
    pb_trace_new(&t);
    pb_trace_add(t, 1, MS(0), PB_TS_NONE, "A", "B", PB_TYPE_MSG, N, 1, 2);
    pb_trace_add(t, 2, MS(1), PB_TS_NONE, "B", "A", PB_TYPE_MSG, N, 1, 1);
    CHECK_INT(tv_build(t, TV_MESSAGE, &tv, &err), PB_EPARSE);
    CHECK(strstr(err.msg, "cycle") != NULL);
    pb_trace_add(t, 3, MS(2), PB_TS_NONE, "B", "A", PB_TYPE_MSG, N, 1, 42);
    CHECK_INT(tv_build(t, TV_MESSAGE, &tv, &err), PB_ENOENT);
    pb_trace_add(t, 3, MS(3), PB_TS_NONE, "B", "A", PB_TYPE_MSG, N, 1, N);
    CHECK_INT(tv_build(t, TV_MESSAGE, &tv, &err), PB_EDUP);
    pb_trace_close(t);
}

TEST(no_truth_is_an_error)
{
    pb_trace *t;
    pb_trace_new(&t);
    pb_trace_add(t, 1, MS(0), PB_TS_NONE, "A", "B", PB_TYPE_MSG, N, 1, N);
    pb_truth *keep = t->truth;
    t->truth = NULL;
    tv_truth *tv;
    pb_error err;
    CHECK_INT(tv_build(t, TV_MESSAGE, &tv, &err), PB_EINVAL);
    t->truth = keep;
    pb_trace_close(t);
}

TEST(view_names)
{
    tv_view v;
    CHECK_INT(tv_view_parse("path", &v), PB_OK);
    CHECK_INT(v, TV_PATH);
    CHECK_INT(tv_view_parse("any", &v), PB_EINVAL);
    CHECK_STR(tv_view_name(TV_CALL), "call");
    pb_trace *t = rpc_trace();
    CHECK_INT(tv_default_view(t), TV_CALL);
    pb_trace_close(t);
}

/* A>B[C[E],D] once, in the call view (ids 1-8), for the survivors' truth. */
static pb_trace *deep_trace(void)
{
    pb_trace *t;
    pb_trace_new(&t);
    pb_trace_add(t, 1, MS(0), MS(1), "A", "B", PB_TYPE_CALL, 1, 1, N);
    pb_trace_add(t, 2, MS(10), MS(11), "B", "C", PB_TYPE_CALL, 2, 1, 1);
    pb_trace_add(t, 3, MS(20), MS(21), "C", "E", PB_TYPE_CALL, 3, 1, 2);
    pb_trace_add(t, 4, MS(30), MS(31), "E", "C", PB_TYPE_RETURN, 3, 1, 3);
    pb_trace_add(t, 5, MS(40), MS(41), "C", "B", PB_TYPE_RETURN, 2, 1, 4);
    pb_trace_add(t, 6, MS(50), MS(51), "B", "D", PB_TYPE_CALL, 4, 1, 5);
    pb_trace_add(t, 7, MS(60), MS(61), "D", "B", PB_TYPE_RETURN, 4, 1, 6);
    pb_trace_add(t, 8, MS(70), MS(71), "B", "A", PB_TYPE_RETURN, 1, 1, 7);
    return t;
}

/* Build the survivors' truth of deep_trace with the messages whose ids
 * are listed in `lost` (0-terminated) gone. */
static tv_truth *kept_view(pb_trace *t, tv_view v, const uint64_t *lost)
{
    unsigned char kept[8];
    for (size_t i = 0; i < t->n; i++) {
        kept[i] = 1;
        for (const uint64_t *l = lost; *l; l++)
            if (t->msgs[i].id == *l)
                kept[i] = 0;
    }
    tv_truth *tv = NULL;
    pb_error err;
    if (tv_build_kept(t, v, kept, &tv, &err) != PB_OK)
        return NULL;
    return tv;
}

static void check_ids(const tv_truth *tv, size_t i, const uint64_t *want, size_t n)
{
    CHECK_INT(tv->inst[i].nmsg, n);
    for (size_t k = 0; k < n && k < tv->inst[i].nmsg; k++)
        CHECK_INT(tv->msg_ids[tv->inst[i].msg_off + k], want[k]);
}

TEST(survivors_truth_call_view)
{
    pb_trace *t = deep_trace();
    tv_truth *tv;
    pb_error err;
    size_t inst;
    /* nothing lost: the same as tv_build */
    const uint64_t none[] = {0};
    tv = kept_view(t, TV_CALL, none);
    CHECK(tv != NULL && tv->has_kept);
    CHECK_STR(pat(tv, 0), "A>B[C[E],D]");
    CHECK_INT(tv->inst[0].nlost, 0);
    CHECK_INT(tv->msg_lost, 0);
    CHECK_NEAR(tv->inst[0].total, 0.070, 1e-12);
    tv_close(tv);
    /* the call B>C lost, its return kept: the edge stays, the statistics go */
    const uint64_t l2[] = {2, 0};
    tv = kept_view(t, TV_CALL, l2);
    CHECK_INT(tv->ninst, 1);
    CHECK_STR(pat(tv, 0), "A>B[C[E],D]");
    const uint64_t w2[] = {1, 3, 4, 5, 6, 7, 8};
    check_ids(tv, 0, w2, 7);
    CHECK_INT(tv->inst[0].nlost, 1);
    CHECK_INT(tv->msg_lost, 1);
    CHECK(isnan(tv->inst[0].total));
    CHECK(isnan(nl(tv, 0, 1)));
    CHECK_INT(tv_lookup(tv, 2, &inst), 1);
    CHECK_INT(inst, TV_NONE);
    CHECK_INT(tv_lookup(tv, 3, &inst), 1);
    CHECK_INT(inst, 0);
    tv_close(tv);
    /* B>C and its return both lost: C>E hangs under B */
    const uint64_t l25[] = {2, 5, 0};
    tv = kept_view(t, TV_CALL, l25);
    CHECK_STR(pat(tv, 0), "A>B[D,E]");
    const uint64_t w25[] = {1, 3, 4, 6, 7, 8};
    check_ids(tv, 0, w25, 6);
    CHECK_INT(tv->inst[0].nlost, 2);
    tv_close(tv);
    /* the top-level call and its return lost: the root edge stays */
    const uint64_t l18[] = {1, 8, 0};
    tv = kept_view(t, TV_CALL, l18);
    CHECK_STR(pat(tv, 0), "A>B[C[E],D]");
    const uint64_t w18[] = {2, 3, 4, 5, 6, 7};
    check_ids(tv, 0, w18, 6);
    tv_close(tv);
    /* everything lost: no instance left */
    const uint64_t all[] = {1, 2, 3, 4, 5, 6, 7, 8, 0};
    tv = kept_view(t, TV_CALL, all);
    CHECK_INT(tv->ninst, 0);
    CHECK_INT(tv->inst_gone, 1);
    CHECK_INT(tv->msg_lost, 8);
    tv_close(tv);
    /* the path view has no survivors' truth */
    unsigned char k8[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    CHECK_INT(tv_build_kept(t, TV_PATH, k8, &tv, &err), PB_EINVAL);
    pb_trace_close(t);
}

TEST(survivors_truth_message_view)
{
    pb_trace *t = deep_trace();
    /* message view chain A>B[C[E[C[B[D[B[A]]]]]]]; losing B>C (id 2) hangs
     * C>E under A>B */
    const uint64_t l2[] = {2, 0};
    tv_truth *tv = kept_view(t, TV_MESSAGE, l2);
    CHECK(tv != NULL);
    CHECK_INT(tv->ninst, 1);
    CHECK_STR(pat(tv, 0), "A>B[E[C[B[D[B[A]]]]]]");
    CHECK_INT(tv->inst[0].nmsg, 7);
    CHECK_INT(tv->inst[0].nlost, 1);
    tv_close(tv);
    pb_trace_close(t);
}

int main(void)
{
    RUN(call_view_tree_and_stats);
    RUN(message_view_tree_and_stats);
    RUN(path_view_chains);
    RUN(sequential_top_level_calls);
    RUN(msgs_pathless_and_foreign_causes);
    RUN(bad_truth_is_an_error);
    RUN(no_truth_is_an_error);
    RUN(view_names);
    RUN(survivors_truth_call_view);
    RUN(survivors_truth_message_view);
    return pbtest_exit();
}
