/* set_accuracy and tw_accuracy (TraceWeaver's end-to-end measure) on a
 * hand-made trace, with every number worked by hand (docs/metrics.md). */
#include "pbtest.h"
#include "score.h"
#include "tv.h"

#include <stdlib.h>

#define MS(x) ((pb_ns)((x) * 1000000LL))
#define N PB_ID_NONE
#define C PB_TYPE_CALL
#define R PB_TYPE_RETURN

/* Client C calls A.  A is called by C only and calls B, D, X: scored,
 * endpoints {B, D, X}.  B is called by A only and calls X: scored,
 * endpoint {X}.  X is called by B and by A and calls Y: skipped.
 *   path 1: A calls B then D
 *   path 2: A calls B only
 *   path 3: A calls B (B calls X), then X (X calls Y) */
static pb_trace *make_trace(void)
{
    pb_trace *t;
    if (pb_trace_new(&t) != PB_OK)
        return NULL;
    t->columns = PB_COL_ALL;
    struct { int id; double ts; const char *s, *d; int type, path, cause; } m[] = {
        {1, 0, "C", "A", C, 1, 0},   {2, 1, "A", "B", C, 1, 1},
        {3, 2, "B", "A", R, 1, 2},   {4, 3, "A", "D", C, 1, 3},
        {5, 4, "D", "A", R, 1, 4},   {6, 5, "A", "C", R, 1, 5},
        {7, 10, "C", "A", C, 2, 0},  {8, 11, "A", "B", C, 2, 7},
        {9, 12, "B", "A", R, 2, 8},  {10, 13, "A", "C", R, 2, 9},
        {11, 20, "C", "A", C, 3, 0}, {12, 21, "A", "B", C, 3, 11},
        {13, 22, "B", "X", C, 3, 12}, {14, 23, "X", "B", R, 3, 13},
        {15, 24, "B", "A", R, 3, 14}, {16, 25, "A", "X", C, 3, 15},
        {17, 25.5, "X", "Y", C, 3, 16}, {18, 25.7, "Y", "X", R, 3, 17},
        {19, 26, "X", "A", R, 3, 18}, {20, 27, "A", "C", R, 3, 19},
    };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        if (pb_trace_add(t, (uint64_t)m[i].id, MS(m[i].ts), MS(m[i].ts), m[i].s,
                         m[i].d, m[i].type, N, (uint64_t)m[i].path,
                         m[i].cause ? (uint64_t)m[i].cause : N) != PB_OK) {
            pb_trace_close(t);
            return NULL;
        }
    return t;
}

/* Score an assignment given as instance numbers of messages 1..20 (0 =
 * not ascribed). */
static score_report *score_inst(pb_trace *t, const int inst[20], tv_truth **tvp,
                                score_result **resp)
{
    char buf[4096];
    int len = snprintf(buf, sizeof buf,
                       "# pathbench-result 1\n# algo=hand view=call\n"
                       "# table=patterns\n"
                       "rank,pattern,count,score,max_prob,total_latency,"
                       "mean_latency,node_latency,edge_delay\n"
                       "1,C>A,9,9,1,,,,\n# table=assignment\nid,instance,rank\n");
    int nassign = 0;
    for (int i = 0; i < 20; i++)
        if (inst[i]) {
            len += snprintf(buf + len, sizeof buf - (size_t)len, "%d,%d,1\n",
                            i + 1, inst[i]);
            nassign++;
        }
    len += snprintf(buf + len, sizeof buf - (size_t)len,
                    "# end patterns=1 assignments=%d\n", nassign);
    FILE *fp = fmemopen(buf, (size_t)len, "r");
    pb_error err;
    pb_error_clear(&err);
    *resp = NULL;
    *tvp = NULL;
    score_report *rep = NULL;
    score_opts o;
    score_opts_default(&o);
    if (score_result_read_fp(fp, "hand", resp, &err) != PB_OK ||
        tv_build(t, TV_CALL, tvp, &err) != PB_OK ||
        score_compute(*tvp, *resp, &o, &rep, &err) != PB_OK ||
        score_tw_compute(rep, t, *resp, &err) != PB_OK)
        printf("# %s\n", err.msg);
    fclose(fp);
    return rep;
}

static void check_case(const int inst[20], size_t set_right, size_t tw_right,
                       int line)
{
    pb_trace *t = make_trace();
    tv_truth *tv;
    score_result *res;
    score_report *rep = score_inst(t, inst, &tv, &res);
    CHECK(rep != NULL);
    if (rep) {
        if (rep->instances_set != set_right || rep->tw_right != tw_right)
            printf("# case at line %d\n", line);
        CHECK_INT(rep->instances_set, set_right);
        CHECK_NEAR(rep->set_accuracy, (double)set_right / 3.0, 1e-12);
        CHECK_INT(rep->tw_nodes, 2);
        CHECK_INT(rep->tw_skipped_nodes, 1);
        CHECK_INT(rep->tw_requests, 3);
        CHECK_INT(rep->tw_right, tw_right);
        CHECK_NEAR(rep->tw_accuracy, (double)tw_right / 3.0, 1e-12);
    }
    score_report_close(rep);
    score_result_close(res);
    tv_close(tv);
    pb_trace_close(t);
}

TEST(oracle_all_right)
{
    int inst[20] = {1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3};
    check_case(inst, 3, 3, __LINE__);
}

/* A return in the wrong instance: both message sets are wrong, but no
 * call moved, so every entry is right. */
TEST(return_moved_set_only)
{
    int inst[20] = {1, 1, 2, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3};
    check_case(inst, 1, 3, __LINE__);
}

/* Path 3's call A->X (and all below it) joins path 1: path 1's entry for
 * endpoint X becomes message 16 (truth: none), path 3's none (truth: 16).
 * X is skipped, so what happens below it does not count by itself. */
TEST(call_moved)
{
    int inst[20] = {1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 1, 1, 1, 1, 3};
    check_case(inst, 1, 1, __LINE__);
}

/* Only X's own call X->Y moves to path 2: X is skipped (two callers), so
 * tw does not see it; the message sets of paths 2 and 3 are wrong. */
TEST(skipped_node_not_scored)
{
    int inst[20] = {1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 2, 2, 3, 3};
    check_case(inst, 1, 3, __LINE__);
}

/* Path 2's call A->B (message 8, with its return) also ascribed to
 * path 1's instance: path 1's entry for B is the latest of {2, 8} = 8,
 * wrong; path 2's is none, wrong; B's incoming call 8 (path 2) has entry
 * none for X in instance 1, as in truth.  Path 3 right. */
TEST(two_calls_latest_counts)
{
    int inst[20] = {1, 1, 1, 1, 1, 1, 2, 1, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3};
    check_case(inst, 1, 1, __LINE__);
}

/* Path 2 not ascribed at all: its entries are none, its true entry for
 * B at A is 8, so it is wrong (and its message set too); paths 1 and 3
 * right. */
TEST(unascribed_calls_are_none)
{
    int inst[20] = {1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3};
    check_case(inst, 2, 2, __LINE__);
}

int main(void)
{
    RUN(oracle_all_right);
    RUN(return_moved_set_only);
    RUN(call_moved);
    RUN(skipped_node_not_scored);
    RUN(two_calls_latest_counts);
    RUN(unascribed_calls_are_none);
    return pbtest_exit();
}
