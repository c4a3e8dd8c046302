/* joint's open-ended solve leaves out the later passes' re-splits of
 * requests it has not changed (`ls_open_fresh`, joint_lsdirty.c,
 * docs/joint/speed_w21.md "Speed, twenty-second wave (h179)"; speed only, the
 * same results).  On the random traces of joint_test.h (a service B with
 * two callers, 1 to 14 calls per request, parallel calls, lost returns; ns
 * and 1 ms stamps; the free and the held search), with call ids and as a
 * black box: every pair's parent and the log-likelihood's bits are the
 * same with the option and without, and as a black box (re-pairing rounds,
 * so open-ended solves) re-splits are left out.  Made wrong on purpose
 * (the skips in the solves that refit between passes too:
 * joint_lsopen_test_refit), the results change: the refit between passes
 * is what the skip must not cross. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

static pb_trace *ids_trace(int seed, int held)
{
    return joint_test_case_trace((unsigned long)(1179 * seed + held), seed, 1, 100);
}

static pb_trace *bb_trace(int seed, int held)
{
    return joint_test_case_trace((unsigned long)(1179 * seed + held), seed, 0, 100);
}

typedef struct {
    int ids;
    size_t later[2], skipped[2];
} lsostat;

static long compare_onoff(pb_trace *t, int seed, int held, int *llsame, void *ctx)
{
    lsostat *st = ctx;
    joint_params p[2];
    joint_test_params_two(p, st->ids, st->ids ? NULL : held ? "on" : "off");
    p[0].ls_open_fresh = 0;
    p[1].ls_open_fresh = 1;
    joint *s[2];
    long diff = joint_test_compare_two(t, p, s, llsame);
    if (diff < 0)
        return -1;
    for (int i = 0; i < 2; i++) {
        st->later[i] += s[i]->ls_later;
        st->skipped[i] += s[i]->lso_skipped;
    }
    joint_test_close_two(s);
    return diff;
}

static void onoff(int ids)
{
    lsostat st = {ids, {0, 0}, {0, 0}};
    const joint_test_cases c = {4, {"free", "held"}, ids ? ids_trace : bb_trace, compare_onoff};
    CHECK_INT(joint_test_differing(&c, &st, 0), 0);
    printf("# ls_open_fresh, %s: later-pass re-splits %zu -> %zu, left out %zu\n",
           ids ? "call ids" : "black box", st.later[0], st.later[1], st.skipped[1]);
    CHECK_INT((long)st.skipped[0], 0);
    CHECK(st.later[1] <= st.later[0]);
    if (!ids) /* the re-pairing rounds' open-ended solves */
        CHECK(st.skipped[1] > 0);
}

TEST(call_ids_same_results)
{
    onoff(1);
}

TEST(black_box_same_results_fewer_resplits)
{
    onoff(0);
}

TEST(default_on)
{
    CHECK_INT(defaults().ls_open_fresh, 1);
}

/* the option with its skips in every solve, refits included */
static long compare_refit(pb_trace *t, int seed, int held, int *llsame, void *ctx)
{
    size_t *skipped = ctx;
    joint_params p[2];
    joint_test_params_two(p, 0, held ? "on" : "off");
    p[0].ls_open_fresh = p[1].ls_open_fresh = 1;
    pb_trace_view v = pb_trace_view_of(t);
    pb_error err;
    joint *s[2] = {NULL, NULL};
    for (int i = 0; i < 2; i++) {
        joint_lsopen_test_refit = i;
        int rc = joint_init(&s[i], &v, &p[i], &err);
        joint_lsopen_test_refit = 0;
        if (rc != PB_OK) {
            joint_close(s[0]);
            return -1;
        }
    }
    skipped[0] += s[0]->lso_skipped;
    skipped[1] += s[1]->lso_skipped;
    *llsame = joint_test_ll_same(s[0], s[1]);
    long diff = joint_test_pairs_differ(s[0], s[1]);
    joint_test_close_two(s);
    return diff;
}

TEST(wrong_across_refits_differs)
{
    size_t skipped[2] = {0, 0};
    const joint_test_cases c = {4, {"free", "held"}, bb_trace, compare_refit};
    int bad = joint_test_differing(&c, skipped, 1);
    printf("# skips across refits too: %d of 8 cases differ; re-splits left out %zu -> %zu\n",
           bad, skipped[0], skipped[1]);
    CHECK(skipped[1] > skipped[0]);
    CHECK(bad > 0);
}

int main(void)
{
    RUN(call_ids_same_results);
    RUN(black_box_same_results_fewer_resplits);
    RUN(default_on);
    RUN(wrong_across_refits_differs);
    return pbtest_exit();
}
