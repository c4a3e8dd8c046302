/* joint's busy test, its second statistic: the spacing of a service's own
 * sends (busy_space, joint_space.c), by hand.
 *
 * Node 1 (a service) sends 21 messages whose 20 gaps are 1, 2, ..., 20 ns
 * (in a shuffled order): the 0.1 quantile is the gap of rank floor(0.1 *
 * 20) = 2 of the sorted ones, 3 ns, and the gaps below it are 1 and 2: 20
 * gaps, 2 short.  Node 0 is not a service (a client): never tested.  Node
 * 2 has 10 sends (9 gaps, fewer than JOINT_PICK_MIN): not tested.  Node 3
 * sends 25 messages in one tick (every gap 0): the quantile is 0, a
 * tick-wide w is no test.  A copy (w kept) where node 1 sends 11 messages
 * with gaps 1, 1, 1, 1, 1, 5, 5, 5, 5, 5: 10 gaps, 5 below 3 ns.  Then z =
 * (2 - 20 0.5) / sqrt(20 0.25 (1 + 20 / 10)) = -8 / sqrt(15) = -2.07. */
#include "pbtest.h"
#include "joint.h"
#include "joint_int.h"

#include <math.h>

TEST(busy_space_by_hand)
{
    enum { M = 21 + 21 + 10 + 25 };
    uint32_t v[M];
    pb_ns t[M];
    const pb_ns g1[20] = {7, 3, 20, 1, 12, 5, 2, 18, 9, 4, 15, 6, 11, 8, 19, 10, 14, 13, 17, 16};
    size_t m = 0;
    for (int i = 0; i < 21; i++, m++) { /* node 0, a client */
        v[m] = 0;
        t[m] = 1000 * (pb_ns)i;
    }
    pb_ns at = 5000;
    for (int i = 0; i < 21; i++, m++) {
        v[m] = 1;
        t[m] = at;
        if (i < 20)
            at += g1[i];
    }
    for (int i = 0; i < 10; i++, m++) {
        v[m] = 2;
        t[m] = 100 * (pb_ns)i;
    }
    for (int i = 0; i < 25; i++, m++) {
        v[m] = 3;
        t[m] = 7000;
    }
    const unsigned char serves[4] = {0, 1, 1, 1};
    pb_ns w[4] = {9, 9, 9, 9};
    double gaps[4] = {0}, sh[4] = {0};
    CHECK_INT(joint_space_count(m, v, t, serves, w, 1, gaps, sh), PB_OK);
    CHECK(w[0] == 0 && w[1] == 3 && w[2] == 0 && w[3] == 0);
    CHECK_NEAR(gaps[0], 0, 0);
    CHECK_NEAR(gaps[1], 20, 0);
    CHECK_NEAR(sh[1], 2, 0);
    CHECK_NEAR(gaps[2] + gaps[3] + sh[2] + sh[3], 0, 0);
    /* the copy: w as the trace set it */
    uint32_t cv[11];
    pb_ns ct[11];
    const pb_ns cg[10] = {1, 1, 1, 1, 1, 5, 5, 5, 5, 5};
    at = 0;
    for (int i = 0; i < 11; i++) {
        cv[i] = 1;
        ct[i] = at;
        if (i < 10)
            at += cg[i];
    }
    double cgaps[4] = {0}, csh[4] = {0};
    CHECK_INT(joint_space_count(11, cv, ct, serves, w, 0, cgaps, csh), PB_OK);
    CHECK(w[1] == 3);
    CHECK_NEAR(cgaps[1], 10, 0);
    CHECK_NEAR(csh[1], 5, 0);
    double z = joint_pick_z(gaps[1], sh[1], cgaps[1], csh[1]);
    CHECK_NEAR(z, -8 / sqrt(15.0), 1e-12);
    CHECK(z > -JOINT_SPACE_Z); /* not enough to serialise */
    /* ten times the trace and the copies: -8 sqrt(10) / sqrt(15) = -6.5 */
    CHECK(joint_pick_z(200, 20, 100, 50) < -JOINT_SPACE_Z);
}

int main(void)
{
    RUN(busy_space_by_hand);
    return pbtest_exit();
}
