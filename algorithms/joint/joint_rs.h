/*
 * joint_rs.h - joint: the re-split's speed helpers (speed only, the same
 * results): the set bits of a mask of at most 8 bits by table (the same
 * count as joint_bits32: joint_bnb.c's masks of at most JOINT_RESPLIT_MAX
 * shared calls), and the single move's bound (joint_rsbound.c).  Included
 * after joint_int.h.
 */
#ifndef JOINT_RS_H
#define JOINT_RS_H

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

/* joint_rsbound.c (speed only): an upper bound of the estimate of
 * request q's list in the record ref (of q, valid) with call c added (c
 * not in it): 1 and *ub, or 0 (no bound: estimate it).  *R the bound's
 * per-key cache (made at the first use; joint_rsb_free frees it) */
struct joint_rsb;
int joint_rsb_add(joint *s, struct joint_rsb **R, uint32_t q, const joint_wrec *ref, uint32_t c,
                  int pure, double *ub);
void joint_rsb_free(struct joint_rsb *R);
extern int joint_rsb_test_off, joint_rsb_test_check;
extern size_t joint_rsb_test_bad, joint_rsb_test_used, joint_rsb_test_skipped;
extern double joint_rsb_test_bias;
/* rsb_stop (joint_rsbound.c): the scan of the steps c may trigger ends
 * where the record's least trigger from there on is above c's return
 * (joint_rsb_test_nostop: 1 every step scanned; stops counted) */
extern int joint_rsb_test_nostop, joint_rsb_test_stopwrong;
extern size_t joint_rsb_test_stops;
extern double joint_rsb_test_sum;

/* joint_rsbound.c: the largest term of the column of output ol (local
 * index; nout: the response) of request q's direct table at any trigger
 * and delay (the keys' means too when q's call was lost): 1 and *w, or 0
 * (none: no room, or a NaN).  Needs s->dk_off */
int joint_rsb_colmax(joint *s, struct joint_rsb **R, uint32_t q, uint32_t ol, double *w);

/* joint_rsx.c (speed only): an upper bound of the estimate of request q's
 * list in the record ref (of q, valid) with call co (in it) taken out and
 * call ci (not in it, of co's link) put in, for an exchange of the
 * re-split: 1 and *ub, or 0 (no bound: estimate it).  pure: no call of
 * the list with an output is of another service than q's (rsx_stop) */
int joint_rsx_swap(joint *s, struct joint_rsb **R, uint32_t q, const joint_wrec *ref, uint32_t co,
                   uint32_t ci, int pure, double *ub);
extern int joint_rsx_test_off, joint_rsx_test_check;
extern size_t joint_rsx_test_bad, joint_rsx_test_used, joint_rsx_test_skipped;
extern double joint_rsx_test_bias, joint_rsx_test_gap;

/* joint_rsx.c (rsx_stop, speed only): 1 when no step of the record ref
 * from step i to the end (the response: n) has co's return (ro: co
 * returns, at ror) as its trigger nor a trigger ci's return (ri: at rir)
 * is later than (so none of those steps' triggers changes in the
 * exchange), from the least trigger from step i on */
int joint_rsx_stop(const joint_wrec *ref, uint32_t i, int ro, pb_ns ror, uint32_t co, int ri,
                   pb_ns rir, uint32_t ci);
extern int joint_rsx_test_nostop, joint_rsx_test_stopwrong;
extern size_t joint_rsx_test_stops;

/* joint_search.c (rs_lazy_list, speed only): 1 the single move's leaving
 * side's list made before its kept estimate is looked up, and the moved
 * call found by a scan (tests: the way before) */
extern int joint_rs_test_eager;

/* joint_model.c: walk_is_lean's answer for request q (the walk takes the
 * lean steps) */
int joint_walk_lean(const joint *s, uint32_t q);

#endif
