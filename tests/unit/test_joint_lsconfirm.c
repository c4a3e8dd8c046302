/* rs_confirm (joint_lsconfirm.c, docs/joint/speed_w29.md "Fewer re-splits
 * (h256)"; changes results where it fires, off by default): a re-split
 * that confirmed its split by a margin is left out while its two requests
 * stay the same and the refitted model moved the current split's value by
 * at most the margin less rs_confirm.
 *
 * 1. The test itself, by hand: a split confirmed by 5 nats whose value
 *    the model then moved by 4 must be re-split at rs_confirm = 3 (5 - 4 <
 *    3), whichever way the value moved; moved by 1 it is left out.
 * 2. A model change that moves the split is not skipped: on the random
 *    traces of joint_test.h as black boxes (free and held search), the
 *    re-splits the drift test sent back to be made (the record's
 *    fingerprint and margin would have let them out) include some that
 *    moved a call, and with the drift not read (wrong on purpose:
 *    joint_lscf_test_nodrift) a re-split left out would have moved a call
 *    when made (joint_lscf_test_verify makes them anyway and counts).
 * 3. On and off agree within a stated tolerance (the rule is not a
 *    bound): on the same traces the rule leaves re-splits out, at most one
 *    in a hundred of them would have moved a call when made (the check
 *    mode makes them: 2 of 3,454), and the solutions are those of
 *    rs_confirm = 0 in at least half the cases, the rest no worse than a
 *    hundredth of a nat per pair on average and a tenth in any case. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#include <math.h>
#include <stdlib.h>

TEST(drift_beyond_the_margin_is_resplit)
{
    /* confirmed at v0 = -100 by a margin of 5; rs_confirm 3 */
    CHECK_INT(joint_lscf_keep(5, -104, -100, 3), 0); /* 4 down: made */
    CHECK_INT(joint_lscf_keep(5, -96, -100, 3), 0);  /* 4 up: made */
    CHECK_INT(joint_lscf_keep(5, -101, -100, 3), 1); /* 1: left out */
    CHECK_INT(joint_lscf_keep(5, -100, -100, 3), 1);
    CHECK_INT(joint_lscf_keep(2.5, -100, -100, 3), 0); /* margin below */
    CHECK_INT(joint_lscf_keep(INFINITY, -100, -100, 3), 1);
    CHECK_INT(joint_lscf_keep(5, NAN, -100, 3), 0); /* no value: made */
}

static pb_trace *bb_trace(int seed, int held)
{
    return joint_test_case_trace((unsigned long)(2256 * seed + held), seed, 0, 100);
}

typedef struct {
    double t;
    int nodrift, verify;
    size_t checked, left, flips, caught, cases_same, npairs;
    double dsum, worst;
} cfstat;

static long compare_onoff(pb_trace *t, int seed, int held, int *llsame, void *ctx)
{
    cfstat *st = ctx;
    joint_params p[2];
    joint_test_params_two(p, 0, held ? "on" : "off");
    p[0].rs_confirm = 0;
    p[1].rs_confirm = st->t;
    pb_trace_view v = pb_trace_view_of(t);
    joint *s[2] = {NULL, NULL};
    for (int i = 0; i < 2; i++) {
        joint_lscf_test_nodrift = i && st->nodrift;
        joint_lscf_test_verify = i && st->verify;
        s[i] = joint_test_init(&v, p[i]);
        joint_lscf_test_nodrift = joint_lscf_test_verify = 0;
        if (!s[i]) {
            joint_close(s[0]);
            return -1;
        }
    }
    CHECK_INT((long)s[0]->lscf_checked, 0);
    st->checked += s[1]->lscf_checked;
    st->left += s[1]->lscf_left;
    st->flips += s[1]->lscf_flips;
    st->caught += s[1]->lscf_caught;
    *llsame = joint_test_ll_same(s[0], s[1]);
    long diff = joint_test_pairs_differ(s[0], s[1]);
    double d = joint_loglik(s[1]) - joint_loglik(s[0]);
    st->dsum += d;
    st->npairs += joint_npairs(s[0]);
    d /= (double)joint_npairs(s[0]);
    if (d < st->worst)
        st->worst = d;
    st->cases_same += diff == 0 && *llsame;
    joint_test_close_two(s);
    *llsame = 1;
    return 0; /* counted here */
}

static cfstat run(double t, int nodrift, int verify)
{
    cfstat st = {t, nodrift, verify, 0, 0, 0, 0, 0, 0, 0, INFINITY};
    const joint_test_cases c = {4, {"free", "held"}, bb_trace, compare_onoff};
    CHECK_INT(joint_test_differing(&c, &st, 1), 0);
    printf("# rs_confirm=%g%s%s: %zu checked, %zu left out, %zu of them moved when made, %zu "
           "made for the drift moved; %zu of 8 cases the same as off, log-likelihood %.4f "
           "nats per pair (worst case %.4f)\n",
           t, nodrift ? " (drift not read)" : "", verify ? " (check mode)" : "", st.checked,
           st.left, st.flips, st.caught, st.cases_same, st.dsum / (double)st.npairs, st.worst);
    return st;
}

TEST(a_model_change_that_moves_the_split_is_not_skipped)
{
    /* with the drift read: some re-splits it sent back moved a call */
    cfstat a = run(1, 0, 1);
    CHECK(a.caught > 0);
    /* without it (wrong on purpose), a skipped re-split would have moved */
    cfstat b = run(1, 1, 1);
    CHECK(b.flips > 0);
    CHECK(b.left > a.left);
}

TEST(on_and_off_agree)
{
    cfstat a = run(3, 0, 1);
    CHECK(a.left > 0);
    /* not a bound: a few left out would move a call (2 of 3,454 here); at
     * most one in a hundred */
    CHECK(a.flips * 100 <= a.left);
    cfstat b = run(3, 0, 0);
    CHECK(b.left > 0);
    CHECK(b.cases_same >= 4);
    CHECK(b.dsum / (double)b.npairs > -0.01);
    CHECK(b.worst > -0.1);
}

int main(void)
{
    RUN(drift_beyond_the_margin_is_resplit);
    RUN(a_model_change_that_moves_the_split_is_not_skipped);
    RUN(on_and_off_agree);
    return pbtest_exit();
}
