/* joint's tie test (joint_quant.c), by hand.  Six calls, requests 0..3
 * arriving at 0, 1000, 1000 and 3000 us on a 1 ms tick (request 4 has no
 * arrival: its call was lost).  Start parents 0, 0, 1, 2, 3, NONE; after
 * the search 1, 0, 2, 3, 4, 1:
 *   call 0: 0 -> 1, arrivals 0 and 1000: one tick apart, unresolved;
 *   call 1: unchanged (not counted);
 *   call 2: 1 -> 2, both at 1000: tied, unresolved;
 *   call 3: 2 -> 3, 1000 and 3000: two ticks apart, resolved;
 *   call 4: 3 -> 4, request 4 has no arrival: resolved (no stamp says
 *           otherwise);
 *   call 5: NONE -> 1: resolved (no start parent).
 * So 5 moved, 2 within a tick: the search is kept (2 * 2 <= 5).  With a
 * tick of 2 ms call 3 is unresolved too: 3 of 5, the start is kept.  With
 * no tick (0) only the tie of call 2 counts. */
#include "pbtest.h"
#include "joint.h"
#include "joint_int.h"

TEST(tie_counts_by_hand)
{
    const uint32_t N = JOINT_NONE;
    const uint32_t start[6] = {0, 0, 1, 2, 3, N};
    const uint32_t now[6] = {1, 0, 2, 3, 4, 1};
    const pb_ns arr[5] = {0, 1000000, 1000000, 3000000, INT64_MIN};
    size_t moved = 0, tied = 0;
    joint_quant_count(start, now, arr, 6, 1000000, &moved, &tied);
    CHECK_INT((int)moved, 5);
    CHECK_INT((int)tied, 2);
    CHECK(!(2 * tied > moved)); /* the search is kept */
    joint_quant_count(start, now, arr, 6, 2000000, &moved, &tied);
    CHECK_INT((int)moved, 5);
    CHECK_INT((int)tied, 3);
    CHECK(2 * tied > moved); /* the start is kept */
    joint_quant_count(start, now, arr, 6, 0, &moved, &tied);
    CHECK_INT((int)tied, 1);
    /* nothing moved: nothing counted */
    joint_quant_count(start, start, arr, 6, 1000000, &moved, &tied);
    CHECK_INT((int)moved, 0);
    CHECK_INT((int)tied, 0);
}

/* tie_cross (joint_tiecross.c): the calls moved across a tick, by hand on the
 * example above.  tick 1 ms: call 0 (0 -> 1, arrivals 0 and 1 ms) and call 2
 * (1 -> 2, both at 1 ms) stay within a tick; call 3 (2 -> 3, 1 ms and 3 ms)
 * crosses; call 4 (to request 4, no arrival) and call 5 (from none) are
 * neither.  tick 2 ms: call 3 is within a tick too.  tick 0: call 0 crosses. */
static void tie_cross_marks_by_hand(void)
{
    const uint32_t N = JOINT_NONE;
    const uint32_t start[6] = {0, 0, 1, 2, 3, N};
    const uint32_t now[6] = {1, 0, 2, 3, 4, 1};
    const pb_ns arr[5] = {0, 1000000, 1000000, 3000000, INT64_MIN};
    uint32_t out[6];
    CHECK_INT((int)joint_tiecross_mark(start, now, arr, 6, 1000000, out), 1);
    const uint32_t want1[6] = {N, N, N, 3, N, N};
    for (int i = 0; i < 6; i++)
        CHECK_INT((int)out[i], (int)want1[i]);
    CHECK_INT((int)joint_tiecross_mark(start, now, arr, 6, 2000000, out), 0);
    for (int i = 0; i < 6; i++)
        CHECK_INT((int)out[i], (int)N);
    CHECK_INT((int)joint_tiecross_mark(start, now, arr, 6, 0, out), 2);
    const uint32_t want0[6] = {1, N, N, 3, N, N};
    for (int i = 0; i < 6; i++)
        CHECK_INT((int)out[i], (int)want0[i]);
    /* nothing moved: nothing marked */
    CHECK_INT((int)joint_tiecross_mark(start, start, arr, 6, 0, out), 0);
    /* kept only when likelier by more than the 10-nat margin */
    CHECK(joint_tiecross_keep(5, -100.0, -89.0));
    CHECK(!joint_tiecross_keep(5, -100.0, -90.0));
    CHECK(!joint_tiecross_keep(5, -100.0, -107.0));
    CHECK(!joint_tiecross_keep(0, -100.0, -50.0));
}

/* tie_orphans (joint_tieorph.c): calls with a parent in only one of start and
 * search, by hand.  Eight calls; start parents N, N, 0, 1, N, 2, N, 3 and
 * search parents 4, 5, 0, N, N, 6, 7, 3:
 *   calls 0, 1, 6: none in the start, one in the search (start_only 3);
 *   call 3: one in the start, none in the search (search_only 1);
 *   call 4: none in either; calls 2, 7 unchanged; call 5 moved between two
 *   parents (the tie test's business, not this one's).
 * Skipping call 6 (a half pair) leaves start_only 2.
 * The sign test, P(X >= o) for X ~ Binomial(o + r, 1/2):
 *   o 5, r 0: 1/32 = 0.03125 < 0.05, refuted;
 *   o 4, r 0: 1/16 = 0.0625, not;
 *   o 7, r 1: (1 + 8) / 256 = 0.03515625, refuted;
 *   o 6, r 1: (1 + 7) / 128 = 0.0625, not;
 *   o 3, r 3 and o 0: not (the start leaves no more calls without one). */
TEST(tie_orphans_by_hand)
{
    const uint32_t N = JOINT_NONE;
    const uint32_t start[8] = {N, N, 0, 1, N, 2, N, 3};
    const uint32_t now[8] = {4, 5, 0, N, N, 6, 7, 3};
    size_t o = 0, r = 0;
    joint_tieorph_count(start, now, NULL, 8, &o, &r);
    CHECK_INT((int)o, 3);
    CHECK_INT((int)r, 1);
    const unsigned char skip[8] = {0, 0, 0, 0, 0, 0, 1, 0};
    joint_tieorph_count(start, now, skip, 8, &o, &r);
    CHECK_INT((int)o, 2);
    CHECK_INT((int)r, 1);
    CHECK_NEAR(joint_tieorph_p(5, 0), 1.0 / 32, 1e-12);
    CHECK(joint_tieorph_refutes(5, 0));
    CHECK_NEAR(joint_tieorph_p(4, 0), 1.0 / 16, 1e-12);
    CHECK(!joint_tieorph_refutes(4, 0));
    CHECK_NEAR(joint_tieorph_p(7, 1), 9.0 / 256, 1e-12);
    CHECK(joint_tieorph_refutes(7, 1));
    CHECK_NEAR(joint_tieorph_p(6, 1), 8.0 / 128, 1e-12);
    CHECK(!joint_tieorph_refutes(6, 1));
    CHECK(!joint_tieorph_refutes(3, 3));
    CHECK_NEAR(joint_tieorph_p(0, 4), 1.0, 0);
    CHECK(!joint_tieorph_refutes(0, 4));
    /* the search is kept only when it is also likelier than the start */
    CHECK(joint_tieorph_keeps_search(5, 0, -100.0, -99.0));
    CHECK(!joint_tieorph_keeps_search(5, 0, -100.0, -100.0));
    CHECK(!joint_tieorph_keeps_search(5, 0, -100.0, -150.0));
    CHECK(!joint_tieorph_keeps_search(4, 0, -100.0, -50.0));
    /* the same start and search: nothing */
    joint_tieorph_count(start, start, NULL, 8, &o, &r);
    CHECK_INT((int)(o + r), 0);
}

int main(void)
{
    RUN(tie_counts_by_hand);
    RUN(tie_cross_marks_by_hand);
    RUN(tie_orphans_by_hand);
    return pbtest_exit();
}
