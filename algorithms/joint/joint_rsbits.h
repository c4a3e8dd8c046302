/*
 * joint_rsbits.h - joint: the set bits of a mask of at most 8 bits by
 * table (speed only, the same count as joint_bits32: joint_bnb.c's masks
 * of at most JOINT_RESPLIT_MAX shared calls).
 */
#ifndef JOINT_RSBITS_H
#define JOINT_RSBITS_H

#include <stdint.h>

#define JOINT_RS_B2(n) n, n + 1, n + 1, n + 2
#define JOINT_RS_B4(n) JOINT_RS_B2(n), JOINT_RS_B2(n + 1), JOINT_RS_B2(n + 1), JOINT_RS_B2(n + 2)
#define JOINT_RS_B6(n) JOINT_RS_B4(n), JOINT_RS_B4(n + 1), JOINT_RS_B4(n + 1), JOINT_RS_B4(n + 2)
static const unsigned char joint_rs_pop8[256] = {JOINT_RS_B6(0), JOINT_RS_B6(1), JOINT_RS_B6(1),
                                                 JOINT_RS_B6(2)};
#undef JOINT_RS_B6
#undef JOINT_RS_B4
#undef JOINT_RS_B2

/* set bits of x, x < 256 */
static inline uint32_t joint_rs_bits8(uint32_t x)
{
    return joint_rs_pop8[x & 0xffu];
}

#endif
