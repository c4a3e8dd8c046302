/* joint's later re-split passes of a solve follow only that solve's
 * changes (`ls_dirty_solve`, joint_lsdirty.c, docs/joint/speed_w21.md "Speed,
 * twenty-first wave (h166)"; changes results: a budget).  On the random
 * traces of joint_test.h (a service B with two callers, 1 to 14 calls per
 * request, parallel calls, lost returns; ns and 1 ms stamps; the free and
 * the held search), with call ids and as a black box: the passes after
 * the first visit fewer pairs with the option than without as a black box
 * (the marks of earlier solves are what it drops; with call ids these
 * cases have one solve per search and nothing changes), and the solutions are as likely as
 * the full passes' within a stated tolerance.  Made wrong on purpose (the
 * marks cleared at every later pass too, so those passes visit nothing:
 * joint_lsdirty_test_every_pass), the results change: the later passes
 * still do work under the option. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#include <math.h>
#include <stdlib.h>

static pb_trace *ids_trace(int seed, int held)
{
    return joint_test_case_trace((unsigned long)(1166 * seed + held), seed, 1, 100);
}

static pb_trace *bb_trace(int seed, int held)
{
    return joint_test_case_trace((unsigned long)(1166 * seed + held), seed, 0, 100);
}

typedef struct {
    int ids, level; /* ls_dirty_solve compared with 0 */
    size_t later_off, later_on, cleared;
    double worst; /* least (ll on - ll off) / pairs over the cases */
    double dsum;  /* sum of (ll on - ll off) */
    size_t npairs;
    int nsame;
} lsdstat;

static long compare_onoff(pb_trace *t, int seed, int held, int *llsame, void *ctx)
{
    lsdstat *st = ctx;
    joint_params p[2];
    joint_test_params_two(p, st->ids, st->ids ? NULL : held ? "on" : "off");
    p[0].ls_dirty_solve = 0;
    p[1].ls_dirty_solve = st->level;
    joint *s[2];
    long diff = joint_test_compare_two(t, p, s, llsame);
    if (diff < 0)
        return -1;
    st->later_off += s[0]->ls_later;
    st->later_on += s[1]->ls_later;
    st->cleared += s[1]->lsd_cleared;
    CHECK_INT((long)s[0]->lsd_cleared, 0);
    double d = (joint_loglik(s[1]) - joint_loglik(s[0])) / (double)joint_npairs(s[0]);
    printf("# seed %d %s: %ld pairs differ, log-likelihood %.3f -> %.3f (%u pairs), later-pass "
           "pairs %zu -> %zu\n",
           seed, held ? "held" : "free", diff, joint_loglik(s[0]), joint_loglik(s[1]),
           joint_npairs(s[0]), s[0]->ls_later, s[1]->ls_later);
    *llsame = 1;
    st->dsum += joint_loglik(s[1]) - joint_loglik(s[0]);
    st->npairs += joint_npairs(s[0]);
    if (d < st->worst)
        st->worst = d;
    st->nsame += diff == 0;
    joint_test_close_two(s);
    return 0; /* counted here, not as a differing case */
}

static size_t onoff(int ids, int level)
{
    lsdstat st = {ids, level, 0, 0, 0, INFINITY, 0, 0, 0};
    const joint_test_cases c = {4, {"free", "held"}, ids ? ids_trace : bb_trace, compare_onoff};
    CHECK_INT(joint_test_differing(&c, &st, 0), 0);
    double mean = st.dsum / (double)st.npairs;
    printf("# ls_dirty_solve=%d, %s: later-pass pairs %zu -> %zu, %zu solves cleared; %d of 8 cases the same; "
           "log-likelihood change %.4f nats per pair over the cases, worst case %.4f\n",
           level, ids ? "call ids" : "black box", st.later_off, st.later_on, st.cleared, st.nsame,
           mean, st.worst);
    CHECK(st.cleared > 0);
    /* with call ids these cases run one solve with passes per search
     * (nothing to drop); as a black box the re-pairing rounds run many */
    if (ids)
        CHECK(st.later_on <= st.later_off);
    else
        CHECK(st.later_on < st.later_off);
    /* the stated tolerance (a local search from another path lands on
     * another local optimum, either side): over the cases at most a
     * hundredth of a nat per pair below the full passes, no case a tenth */
    CHECK(mean > -0.01);
    CHECK(st.worst > -0.1);
    return st.later_on;
}

TEST(call_ids_fewer_later_pairs_same_likelihood)
{
    onoff(1, 1);
    onoff(1, 2);
}

/* level 2 keeps the solve before's marks too: between 1 and 0 */
TEST(black_box_fewer_later_pairs_same_likelihood)
{
    size_t one = onoff(0, 1), two = onoff(0, 2);
    CHECK(one < two);
}

/* ls_dirty_solve=1 against itself with the marks cleared at every pass */
static long compare_every(pb_trace *t, int seed, int held, int *llsame, void *ctx)
{
    size_t *later = ctx;
    joint_params p[2];
    joint_test_params_two(p, 0, held ? "on" : "off");
    p[0].ls_dirty_solve = p[1].ls_dirty_solve = 1;
    pb_trace_view v = pb_trace_view_of(t);
    pb_error err;
    joint *s[2] = {NULL, NULL};
    for (int i = 0; i < 2; i++) {
        joint_lsdirty_test_every_pass = i;
        int rc = joint_init(&s[i], &v, &p[i], &err);
        joint_lsdirty_test_every_pass = 0;
        if (rc != PB_OK) {
            joint_close(s[0]);
            return -1;
        }
    }
    later[0] += s[0]->ls_later;
    later[1] += s[1]->ls_later;
    *llsame = joint_test_ll_same(s[0], s[1]);
    long diff = joint_test_pairs_differ(s[0], s[1]);
    joint_test_close_two(s);
    return diff;
}

TEST(later_passes_still_work)
{
    size_t later[2] = {0, 0};
    const joint_test_cases c = {4, {"free", "held"}, bb_trace, compare_every};
    int bad = joint_test_differing(&c, later, 1);
    printf("# marks cleared at every pass: %d of 8 cases differ; later-pass pairs %zu -> %zu\n",
           bad, later[0], later[1]);
    CHECK_INT((long)later[1], 0);
    CHECK(later[0] > 0);
    CHECK(bad > 0);
}

int main(void)
{
    RUN(call_ids_fewer_later_pairs_same_likelihood);
    RUN(black_box_fewer_later_pairs_same_likelihood);
    RUN(later_passes_still_work);
    return pbtest_exit();
}
