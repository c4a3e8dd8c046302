/*
 * joint_align.h - pairing the calls and returns of one link without call
 * ids when messages may have been lost (docs/joint/shapes.md "Robustness"): the
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
    size_t nest_tested;  /* links whose first pairing had pairs spanning an
                            idle moment of the caller (the nesting test) */
    size_t nest_realigned; /* of those, links paired again */
    size_t fifo_start_kept; /* align_starts=2: links where the alignment from
                               first in, first out's durations was cheaper */
} joint_align_stats;

/* The nesting test's input for one link: when did its caller serve no
 * request?  ta[e]: event e's time on the caller's clock (a call's send
 * time, a return's receive time); idle[0..nidle): the caller's idle
 * starts, ascending (the moments its count of open requests fell to
 * zero); pen: nats for a pair whose call was sent before, and whose
 * return arrived after, one of them (0 turns the test off). */
typedef struct joint_align_nest {
    const pb_ns *ta;
    const pb_ns *idle;
    size_t nidle;
    double pen;
    int fifo_start; /* align_starts=2: also align from first in, first out's durations */
} joint_align_nest;

/* What the nesting test found on one link. */
typedef struct joint_align_info {
    size_t calls, returns;
    size_t cross_first;  /* pairs of the first pairing (first in, first out,
                            or the alignment) that span an idle start, or
                            whose return precedes its call */
    size_t cross_nest;   /* the same for the nesting-aware alignment */
    size_t cross_kept;   /* the same for the pairing kept */
    double cost_first, cost_nest; /* their costs, nats (0 if not tested) */
    int realigned;       /* 1: the nesting-aware alignment was kept */
} joint_align_info;

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

/* joint_align_link with the nesting test (nest may be NULL: the same as
 * joint_align_link).  After the pairing above (first in, first out when
 * the link has as many calls as returns), the pairs that span an idle
 * moment of the caller are counted; when there are any, the link is
 * aligned again with nest->pen nats for each such pair (from the
 * durations of the pairs that span none, refitted once), and that
 * alignment is kept when its cost (durations under the histogram of its
 * own pairs, unpaired messages, and the nesting term) is lower.  Where no
 * pair spans one, the result is that of joint_align_link, byte for byte.
 * info (may be NULL) is filled for the link.  Returns PB_OK or
 * PB_ENOMEM. */
int joint_align_link_nest(const pb_ns *ev_t, const uint32_t *ev_msg,
                          const unsigned char *ev_call, size_t n, pb_ns early,
                          const joint_align_nest *nest, uint64_t *pairs, size_t *np,
                          joint_align_stats *st, joint_align_info *info);

/* The alignment's terms, for other pairings weighed by the same likelihood
 * (joint_unpaired.c): the nats for a message left unpaired, the number of
 * duration bins, a duration's bin, and -log p(bin) from bin counts h
 * (smoothed, with the uniform floor). */
#define JOINT_ALIGN_SKIP 10.0
#define JOINT_ALIGN_NB 280
int joint_align_bin(pb_ns d);
void joint_align_cost(const double *h, double *cost);

#endif
