/* joint_busywin.c: the busy test's window least by a monotone queue gives
 * the counts of the scan back (joint_pick_test_scan = 1), on random links:
 * whole-tick stamps with ties (a return and a call at one instant), calls
 * left open (a window reaching the link's first event), windows from 0 to
 * beyond the trace, and links with more than JOINT_PICK_SCAN events in a
 * window (where the scan's cap binds, and where it stops exactly at the
 * link's first event).  Seeded (a fixed LCG): deterministic. */
#include "pbtest.h"
#include "joint.h"
#include "joint_int.h"
#include "joint_test.h"

#include <stdlib.h>

static uint64_t rs_state = 88172645463325252ULL;
static uint32_t rnd(uint32_t n)
{
    rs_state = rs_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)((rs_state >> 33) % n);
}

/* one random trace of np pairs on nl links; counts by queue and by scan */
static int one(uint32_t np, uint32_t nl, pb_ns span, pb_ns dmax, pb_ns wmax, int *differ)
{
    uint32_t *lk = malloc(np * sizeof *lk);
    pb_ns *cr = malloc(np * sizeof *cr), *rs = malloc(np * sizeof *rs), *win = malloc(nl * sizeof *win);
    double *c1 = malloc(nl * sizeof *c1), *b1 = malloc(nl * sizeof *b1);
    double *c2 = malloc(nl * sizeof *c2), *b2 = malloc(nl * sizeof *b2);
    if (!lk || !cr || !rs || !win || !c1 || !b1 || !c2 || !b2)
        return -1;
    for (uint32_t p = 0; p < np; p++) {
        lk[p] = rnd(nl + 1); /* nl: a link out of range, left out */
        cr[p] = rnd(8) == 0 ? PB_TS_NONE : (pb_ns)rnd((uint32_t)span);
        rs[p] = rnd(10) == 0 ? PB_TS_NONE
                             : (cr[p] == PB_TS_NONE ? 0 : cr[p]) + (pb_ns)rnd((uint32_t)dmax + 1);
    }
    for (uint32_t l = 0; l < nl; l++)
        win[l] = (pb_ns)rnd((uint32_t)wmax + 1);
    int rc = 0;
    joint_pick_test_scan = 0;
    rc |= joint_pick_busy(nl, lk, cr, rs, np, win, c1, b1);
    joint_pick_test_scan = 1;
    rc |= joint_pick_busy(nl, lk, cr, rs, np, win, c2, b2);
    joint_pick_test_scan = 0;
    for (uint32_t l = 0; l < nl; l++)
        *differ += c1[l] != c2[l] || b1[l] != b2[l];
    free(lk);
    free(cr);
    free(rs);
    free(win);
    free(c1);
    free(b1);
    free(c2);
    free(b2);
    return rc;
}

TEST(busywin_queue_equals_scan)
{
    int differ = 0;
    for (int r = 0; r < 300; r++) {
        uint32_t np = 1 + rnd(400), nl = 1 + rnd(4);
        pb_ns span = 1 + rnd(r % 3 == 0 ? 20 : 5000), dmax = rnd(r % 2 ? 50 : 3000);
        CHECK_INT(one(np, nl, span, dmax, rnd(3) ? span : 3 * span, &differ), 0);
    }
    CHECK_INT(differ, 0);
}

/* one link with every call open at once (the overlap input's shape) and a
 * window over the whole trace: more than JOINT_PICK_SCAN events back, so
 * the scan's cap decides; sizes around the cap's edge */
TEST(busywin_beyond_the_cap)
{
    int differ = 0;
    const uint32_t sizes[] = {JOINT_PICK_SCAN / 2 - 1, JOINT_PICK_SCAN / 2, JOINT_PICK_SCAN / 2 + 1,
                              JOINT_PICK_SCAN / 2 + 3, 3 * JOINT_PICK_SCAN};
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
        uint32_t np = sizes[z];
        uint32_t *lk = calloc(np, sizeof *lk);
        pb_ns *cr = malloc(np * sizeof *cr), *rs = malloc(np * sizeof *rs);
        double c1, b1, c2, b2;
        CHECK(lk && cr && rs);
        for (uint32_t p = 0; p < np; p++) {
            cr[p] = 2 * (pb_ns)p;
            rs[p] = 4 * (pb_ns)np - 2 * (pb_ns)p + (pb_ns)rnd(3); /* first in, last out */
        }
        /* a window under the trace's length: the least is in it, not at 0 */
        for (int w = 0; w < 3; w++) {
            pb_ns win = w == 0 ? 8 * (pb_ns)np : w == 1 ? (pb_ns)np : 5;
            joint_pick_test_scan = 0;
            CHECK_INT(joint_pick_busy(1, lk, cr, rs, np, &win, &c1, &b1), PB_OK);
            joint_pick_test_scan = 1;
            CHECK_INT(joint_pick_busy(1, lk, cr, rs, np, &win, &c2, &b2), PB_OK);
            joint_pick_test_scan = 0;
            differ += c1 != c2 || b1 != b2;
        }
        free(lk);
        free(cr);
        free(rs);
    }
    CHECK_INT(differ, 0);
}

/* a call open all along and short calls one after another under it:
 * every short call finds one open, and the least since the window's start
 * is 0 (before the long call) only more than JOINT_PICK_SCAN events back,
 * so the scan's cap decides whether it lands busy (it does not); without
 * the cap all 3,000 would */
TEST(busywin_cap_decides)
{
    const uint32_t np = 3001;
    uint32_t *lk = calloc(np, sizeof *lk);
    pb_ns *cr = malloc(np * sizeof *cr), *rs = malloc(np * sizeof *rs);
    double c1, b1, c2, b2;
    CHECK(lk && cr && rs);
    cr[0] = 0;
    rs[0] = 100000;
    for (uint32_t p = 1; p < np; p++) {
        cr[p] = 10 * (pb_ns)p;
        rs[p] = cr[p] + 2;
    }
    pb_ns win = 1000000;
    joint_pick_test_scan = 0;
    CHECK_INT(joint_pick_busy(1, lk, cr, rs, np, &win, &c1, &b1), PB_OK);
    joint_pick_test_scan = 1;
    CHECK_INT(joint_pick_busy(1, lk, cr, rs, np, &win, &c2, &b2), PB_OK);
    joint_pick_test_scan = 0;
    CHECK_NEAR(c1, c2, 0);
    CHECK_NEAR(b1, b2, 0);
    CHECK(b1 < 3000);
    free(lk);
    free(cr);
    free(rs);
}

int main(void)
{
    RUN(busywin_cap_decides);
    RUN(busywin_queue_equals_scan);
    RUN(busywin_beyond_the_cap);
    return pbtest_exit();
}
