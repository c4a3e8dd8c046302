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

int main(void)
{
    RUN(tie_counts_by_hand);
    RUN(tie_cross_marks_by_hand);
    return pbtest_exit();
}
