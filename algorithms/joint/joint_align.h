/*
 * joint_align.h - pairing the calls and returns of one link without call
 * ids when messages may have been lost (docs/joint.md "Robustness"): the
 * most likely in-order alignment, instead of first in, first out.
 */
#ifndef JOINT_ALIGN_H
#define JOINT_ALIGN_H

#include <stddef.h>
#include <stdint.h>

#include "pb_time.h"

/* Statistics of joint_align_link, summed over calls. */
typedef struct joint_align_stats {
    size_t links;        /* groups aligned */
    size_t skipped;      /* calls and returns left unpaired */
    size_t ambiguous;    /* returns that found more than one open call */
    size_t fifo_kept;    /* links where first in, first out explained the
                            durations better than the alignment */
    size_t window_cut;   /* returns whose first-in-first-out call was out of
                            the window of candidate calls */
} joint_align_stats;

/* Pair the calls and returns of one link (one caller, one callee, no call
 * ids).  ev_t[0..n): event times on the callee's clock (a call's receive
 * time, a return's send time), non-decreasing; ev_msg: message indices;
 * ev_call: 1 for a call, 0 for a return.  A return may pair with a call
 * at most `early` ns after it.  Pairs keep the order of calls and returns
 * (the i-th paired call goes with the i-th paired return, as first in,
 * first out), but a call or a return may stay unpaired (its partner lost):
 * the alignment maximizes the likelihood of the durations under a density
 * learned from the link itself (log-duration histogram, refitted once),
 * each unpaired message costing a fixed penalty.  Appends each pair as
 * (call index << 32 | return index) to pairs[*np ...] (room for n/2 more)
 * and advances *np.  st (may be NULL) is added to.  Returns PB_OK or
 * PB_ENOMEM. */
int joint_align_link(const pb_ns *ev_t, const uint32_t *ev_msg,
                     const unsigned char *ev_call, size_t n, pb_ns early,
                     uint64_t *pairs, size_t *np, joint_align_stats *st);

#endif
