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

int main(void)
{
    RUN(tie_counts_by_hand);
    return pbtest_exit();
}
