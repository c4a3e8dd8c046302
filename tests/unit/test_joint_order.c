/* joint's order of answers without call ids (joint_order.c, -s
 * pair_order=1), by hand: A calls B four times, at 0, 100, 200 and 300 us;
 * B answers at 1000, 1050, 1300 and 1310 us; no call ids, so the pairs are
 * made by time (first in, first out).  The consecutive calls (0, 1), (1,
 * 2), (2, 3) each overlap (the later arrives before the earlier is
 * answered) and are answered in order: 3 in question, 0 overtaken, so
 * the rate is (0 + 1) / (3 + 2) = 0.2.  Exchanging the answers of calls 0
 * and 1 overtakes once: log 0.2 - log 0.8 = -log 4; exchanging those of 0
 * and 3 breaks two consecutive pairs (0, 1) and (2, 3): -2 log 4.  In the
 * re-pairing's greedy, giving the answer at 1000 us to call 1 while 0
 * waits overtakes 0 (log 0.2) and keeps call 2, which has arrived, behind
 * (log 0.8).  With pair_order=0 (the default) none of it exists and
 * every result is as before. */
#include "pbtest.h"
#include "joint.h"
#include "joint_int.h"
#include "joint_test.h"

#define US 1000LL

TEST(order_of_answers_by_hand)
{
    pb_trace *t = joint_test_four_calls();
    CHECK(t != NULL);
    if (!t)
        return;
    pb_trace_view v = pb_trace_view_of(t);
    pb_error err;
    joint *s;
    joint_params p = defaults();
    p.pair_order = "on";
    p.repair = 0; /* keep the time-ordered pairs */
    p.swap_rounds = 0;
    CHECK_INT(joint_init(&s, &v, &p, &err), PB_OK);
    CHECK(s->rord != NULL);
    CHECK_INT(joint_npairs(s), 4);
    CHECK_INT(joint_rord_fit(s), PB_OK);
    double n, k;
    int on;
    joint_rord_stats(s, 0, &n, &k, &on);
    CHECK_NEAR(n, 3, 0);
    CHECK_NEAR(k, 0, 0);
    CHECK_INT(on, 1);
    CHECK_NEAR(joint_rord_ll(s), 3 * log(0.8), 1e-12);
    CHECK_NEAR(joint_rord_swap_delta(s, 0, 1, NULL), -log(4.0), 1e-12);
    CHECK_NEAR(joint_rord_swap_delta(s, 1, 0, NULL), -log(4.0), 1e-12);
    CHECK_NEAR(joint_rord_swap_delta(s, 0, 3, NULL), -2 * log(4.0), 1e-12);
    unsigned char ans[4] = {0, 0, 0, 0};
    CHECK_NEAR(joint_rord_pick(s, 1, 1000 * US, ans), log(0.2) + log(0.8), 1e-12);
    CHECK_NEAR(joint_rord_pick(s, 0, 1000 * US, ans), log(0.8), 1e-12);
    ans[0] = 1; /* 0 answered: 1 overtakes nobody */
    CHECK_NEAR(joint_rord_pick(s, 1, 1050 * US, ans), log(0.8), 1e-12);
    joint_close(s);
    /* off: no state, and the re-pairing's hooks see none */
    p.pair_order = "off";
    CHECK_INT(joint_init(&s, &v, &p, &err), PB_OK);
    CHECK(s->rord == NULL);
    joint_close(s);
    pb_trace_close(t);
}

int main(void)
{
    RUN(order_of_answers_by_hand);
    return pbtest_exit();
}
