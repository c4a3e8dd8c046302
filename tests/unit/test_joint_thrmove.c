/* thread_soft_pick=7's comparison (joint_thrmove.c, docs/joint/shapes_late.md
 * "The term's moves against the misses it mends (h245)"), by hand.
 *
 * The term's solution S, kept by the thread test alone, is kept only when
 * the calls whose parent differs from the other solution T are at most R
 * times the misses S mends (T's misses less S's).
 *
 *   pool x2 1 ms, seed 1:  77 calls moved, 7 mended, R 6:  77 > 42   -> T
 *   seda x1 ns, seed 1:    42 moved, 19 mended, R 6:       42 <= 114 -> S
 *   the edge:              42 moved,  7 mended, R 6:       42 <= 42  -> S
 *                          43 moved,  7 mended, R 6:       43 > 42   -> T
 *   S mends nothing (0 or fewer misses mended): T whatever the moves
 *   moved < 0 (the count ran out of memory): T
 */
#include "pbtest.h"
#include "joint_int.h"
#include "joint_rules.h"

TEST(moves_against_mended_by_hand)
{
    CHECK(joint_thrmove_ok(77, 7, 6) == 0);
    CHECK(joint_thrmove_ok(42, 19, 6) == 1);
    CHECK(joint_thrmove_ok(42, 7, 6) == 1);
    CHECK(joint_thrmove_ok(43, 7, 6) == 0);
    CHECK(joint_thrmove_ok(0, 0, 6) == 0);
    CHECK(joint_thrmove_ok(5, -2, 6) == 0);
    CHECK(joint_thrmove_ok(-1, 7, 6) == 0);
    CHECK(joint_thrmove_ok(0, 1, 6) == 1);
}

int main(void)
{
    RUN(moves_against_mended_by_hand);
    return pbtest_exit();
}
