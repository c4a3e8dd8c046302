/* order_jitter (joint_ordjit.c) by hand: A calls B four times, sent at 0,
 * 100, 200 and 300 us and read by B 10, 20, 30 and 100 us later (at 10,
 * 120, 230 and 400 us); B answers at 1000, 1050, 1300 and 1310 us, read
 * by A at once.  The link's call delays 10, 20, 30, 100 us have the
 * median 30 and the absolute deviations 20, 10, 0, 70: median absolute
 * deviation 20 us; the return delays are all 0 (deviation 0): the link's
 * jitter is 20 us.  The consecutive calls (0, 1), (1, 2), (2, 3) each
 * overlap and are answered in order.  With order_jitter=1 while
 * order_cross's step scores: the answers of (2, 3) are 10 us apart, a
 * near-tie: not in question (n = 2, k = 0); exchanged (3 answered at 1300,
 * 2 at 1310) the two cross by 10 us < 20 and still cost nothing (n = 2,
 * k = 0).  The answers of (0, 1) are 50 us apart: exchanged, the
 * overtake is charged (k = 1).  Without the option (or outside the step)
 * every pair counts: the (2, 3) crossing is an overtake (n = 3, k = 1). */
#include "pbtest.h"
#include "joint.h"
#include "joint_int.h"
#include "joint_test.h"

#define US 1000LL

static void counts(joint *s, double *n, double *k)
{
    int on;
    CHECK_INT(joint_rord_fit(s), PB_OK);
    joint_rord_stats(s, 0, n, k, &on);
    CHECK_INT(on, 1);
}

TEST(near_ties_cost_nothing)
{
    pb_trace *t = joint_test_four_calls();
    CHECK(t != NULL);
    if (!t)
        return;
    pb_trace_view v = pb_trace_view_of(t);
    pb_error err;
    joint *s;
    joint_params p = defaults();
    CHECK_NEAR(p.order_jitter, 0, 0); /* off by default */
    p.pair_order = "on";
    p.repair = 0;
    p.swap_rounds = 0;
    CHECK_INT(joint_init(&s, &v, &p, &err), PB_OK);
    CHECK(s->rord != NULL);
    CHECK_INT(joint_npairs(s), 4);
    const pb_ns dl[4] = {10, 20, 30, 100};
    uint32_t q[4];
    for (uint32_t i = 0; i < 4; i++) {
        q[i] = i;
        s->pr[i].cr = s->pr[i].cs + dl[i] * US; /* B's reads: the same order */
    }
    pb_ns buf[4];
    CHECK_INT((int)joint_ordjit_link(s, q, 4, buf), (int)(20 * US));
    double n, k;
    /* off: every pair in question, answered in order */
    counts(s, &n, &k);
    CHECK_NEAR(n, 3, 0);
    CHECK_NEAR(k, 0, 0);
    CHECK_INT(joint_ordjit_tie(s, 20 * US, 1300 * US, 1310 * US), 0); /* not in the step */
    /* the step with order_jitter=1 */
    s->p.ocx_on = 1;
    s->p.order_jitter = 1;
    CHECK_INT(joint_ordjit_tie(s, 20 * US, 1300 * US, 1310 * US), 1);
    CHECK_INT(joint_ordjit_tie(s, 20 * US, 1000 * US, 1050 * US), 0);
    counts(s, &n, &k);
    CHECK_NEAR(n, 2, 0);
    CHECK_NEAR(k, 0, 0);
    CHECK_NEAR(joint_rord_near_ties(s), 1, 0);
    /* the answers of 2 and 3 crossed by 10 us (< 20): still nothing */
    pb_ns r2 = s->pr[2].rs, r3 = s->pr[3].rs;
    s->pr[2].rs = r3;
    s->pr[3].rs = r2;
    counts(s, &n, &k);
    CHECK_NEAR(n, 2, 0);
    CHECK_NEAR(k, 0, 0);
    /* ... and by more than the jitter: 0 and 1 crossed by 50 us, charged */
    pb_ns r0 = s->pr[0].rs, r1 = s->pr[1].rs;
    s->pr[0].rs = r1;
    s->pr[1].rs = r0;
    counts(s, &n, &k);
    CHECK_NEAR(n, 2, 0);
    CHECK_NEAR(k, 1, 0);
    /* outside the step (order_cross's scoring over) the 10 us crossing is an
     * overtake again */
    s->p.ocx_on = 0;
    s->pr[0].rs = r0;
    s->pr[1].rs = r1;
    counts(s, &n, &k);
    CHECK_NEAR(n, 3, 0);
    CHECK_NEAR(k, 1, 0);
    joint_close(s);
    pb_trace_close(t);
}

int main(void)
{
    RUN(near_ties_cost_nothing);
    return pbtest_exit();
}
