/*
 * joint_tieexcess.c - joint: tie_excess, the gain the search must show
 * beyond the tie test's allowance within a tick (docs/joint/shapes_late.md,
 * "tie_test=2 on the audits and the excess beyond the allowance (h288)").
 *
 * tie_test=2 (joint_quant.c) keeps the search when its gain over the start
 * is at least JOINT_QUANT_GAIN nats per move within a tick: the moves
 * across a tick, which the stamps support, are allowed no gain of their
 * own.  Read as a test, that compares the search's excess over the
 * allowance with zero: any excess, however small, keeps the search, so a
 * search whose moves across a tick gain 3.7 nats in all (async x1 1 ms
 * black box, seed 3: 216.8 nats against 111 x 1.92 = 213.1) is kept as
 * surely as one whose excess is 446 nats (heavytail x2 1 ms, seed 56).
 * tie_excess asks the excess to pass a likelihood-ratio test of its own:
 * at least tie_excess nats (5.414: half the 99.9 % point of chi-square
 * with one degree of freedom, 10.828 / 2), else the start is kept as
 * tie_test=1 keeps it.  0 (the default) is tie_test=2 as it was.
 */
#include "joint_int.h"

int joint_tieexcess_keep_start(size_t changed, size_t tied, double ll_start, double ll_search,
                               double excess)
{
    return joint_quant_keep_start(changed, tied, ll_start, ll_search) &&
           ll_search - ll_start < JOINT_QUANT_GAIN * (double)tied + excess;
}
