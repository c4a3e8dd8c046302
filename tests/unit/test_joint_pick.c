/* joint's busy test (joint_pick.c), by hand.  Link 0: calls received at
 * 0, 10, 30, 60, 65 and 80 us and answered at 50, 20, 40, 70, 80 and 90
 * us.  Walking the link's clock: 0 lands idle (nothing open), 10 busy (0
 * open), 30 busy (0 still open), 60 idle (all answered by 50), 65 busy (60
 * open), 80 idle: at one instant the return (of 65, at 80) comes first.
 * So 6 calls, 3 busy.  Link 1: one whole pair (idle) and one without its
 * return (not counted).  The statistic needs no pairing: exchanging the
 * answers among the calls gives the same counts.  z for 10 busy of 100
 * calls against 90 of 300 predicted (pi = 0.3): (10 - 30) / sqrt(100 0.3
 * 0.7 (1 + 100 / 300)) = -20 / sqrt(28). */
#include "pbtest.h"
#include "joint.h"
#include "joint_int.h"
#include "joint_test.h"

#include <math.h>

TEST(busy_landings_by_hand)
{
    const uint32_t lk[8] = {0, 0, 0, 0, 0, 0, 1, 1};
    const pb_ns cr[8] = {0, 10, 30, 60, 65, 80, 5, 6};
    const pb_ns rs[8] = {50, 20, 40, 70, 80, 90, 7, PB_TS_NONE};
    double calls[2], busy[2];
    CHECK_INT(joint_pick_busy(2, lk, cr, rs, 8, NULL, calls, busy), PB_OK);
    CHECK_NEAR(calls[0], 6, 0);
    CHECK_NEAR(busy[0], 3, 0);
    CHECK_NEAR(calls[1], 1, 0);
    CHECK_NEAR(busy[1], 0, 0);
    /* the same calls and answers, paired otherwise: the same counts */
    const pb_ns rs2[8] = {20, 50, 40, 80, 70, 90, 7, PB_TS_NONE};
    CHECK_INT(joint_pick_busy(2, lk, cr, rs2, 8, NULL, calls, busy), PB_OK);
    CHECK_NEAR(calls[0], 6, 0);
    CHECK_NEAR(busy[0], 3, 0);
}

/* A call left open long (0 to 1000 us) with calls at 10, 100, 200 and 203
 * us answered at 20, 110, 205 and 210.  Without a window every later call
 * lands busy (4 of 5).  With a window of 50 us a call counts only when more
 * are open than at the least in the 50 us before it: 10 (the call at 0
 * opened within it) and 203 (200 is open) are busy, 100 and 200 find only
 * the long call open, as it was all through their window: 2 of 5. */
TEST(busy_window_by_hand)
{
    const uint32_t lk[5] = {0, 0, 0, 0, 0};
    const pb_ns cr[5] = {0, 10, 100, 200, 203};
    const pb_ns rs[5] = {1000, 20, 110, 205, 210};
    const pb_ns win[1] = {50};
    double calls[1], busy[1];
    CHECK_INT(joint_pick_busy(1, lk, cr, rs, 5, NULL, calls, busy), PB_OK);
    CHECK_NEAR(calls[0], 5, 0);
    CHECK_NEAR(busy[0], 4, 0);
    CHECK_INT(joint_pick_busy(1, lk, cr, rs, 5, win, calls, busy), PB_OK);
    CHECK_NEAR(calls[0], 5, 0);
    CHECK_NEAR(busy[0], 2, 0);
}

TEST(busy_z_by_hand)
{
    /* 300 predicted calls, 90 busy: pi = 0.3, variance 100 0.21 (1 + 1/3) = 28 */
    CHECK_NEAR(joint_pick_z(100, 10, 300, 90), -20 / sqrt(28.0), 1e-12);
    CHECK_NEAR(joint_pick_z(100, 30, 300, 90), 0, 1e-12);
    CHECK_NEAR(joint_pick_z(0, 0, 300, 90), 0, 0);  /* nothing to test */
    CHECK_NEAR(joint_pick_z(50, 0, 300, 0), 0, 0);  /* no share predicted */
    CHECK_NEAR(joint_pick_z(50, 0, 0, 0), 0, 0);    /* no copy */
}

TEST(busy_more_by_hand)
{
    /* 1000 calls, 100 busy; copies 1000 calls, 150 busy: pi = 0.15,
     * n pi (1 - pi) = 127.5, z = -50 / sqrt(255) = -3.13 (does not pass),
     * exact pi: -50 / sqrt(127.5) = -4.43 (would pass), m = n < 3 n: more */
    CHECK_NEAR(joint_pick_z(1000, 100, 1000, 150), -50 / sqrt(255.0), 1e-12);
    CHECK(joint_pick_want_more(1000, 100, 1000, 150));
    /* copies already 3 n: no more (z = -50 / sqrt(127.5 (4/3)) = -3.83
     * passes anyway; with 130 busy -20 / sqrt(170) = -1.53, exact -1.77:
     * neither way) */
    CHECK(!joint_pick_want_more(1000, 100, 3000, 450));
    CHECK(!joint_pick_want_more(1000, 130, 1000, 150));
    /* passes with the first copies: -100 / sqrt(255) = -6.3 */
    CHECK(!joint_pick_want_more(1000, 50, 1000, 150));
    /* the spread does not matter: exact pi, -35 / sqrt(127.5) = -3.10 */
    CHECK(!joint_pick_want_more(1000, 115, 1000, 150));
    /* too few calls to be tested, no share predicted, no copy */
    CHECK(!joint_pick_want_more(19, 0, 19, 10));
    CHECK(!joint_pick_want_more(1000, 0, 1000, 0));
    CHECK(!joint_pick_want_more(1000, 0, 0, 0));
}

int main(void)
{
    RUN(busy_landings_by_hand);
    RUN(busy_window_by_hand);
    RUN(busy_z_by_hand);
    RUN(busy_more_by_hand);
    return pbtest_exit();
}
