/*
 * joint_busywin.c - joint: the busy test's window by a monotone queue
 * (speed only, the same counts; docs/joint/scale.md, "The busy test's
 * window").
 *
 * joint_pick_busy (joint_pick.c) asks, for each call received on a link,
 * the least number of the link's calls open at any event since win[l]
 * before it (at most JOINT_PICK_SCAN events back).  It scanned back event
 * by event: O(events in the window) a call, so O(n^2) where a link keeps
 * many calls open for long (the overlap input: every call open at once, a
 * window that spans the trace; x2.6 a doubling up to 4,096 events, then
 * 4,096 a call).  The events of a link are sorted by time, so the window's
 * first event only moves forward: a pointer, and the least of val over the
 * window is the head of a queue of indices whose values increase (each
 * index enters and leaves once): O(1) amortised a call.  The window is the
 * scan's exactly: events j in [max(j*, c), i], j* the first index whose
 * previous event is at or after t - win (the link's first event if none),
 * c the scan's cap (i - JOINT_PICK_SCAN + 1, or the link's first event when
 * that is where the cap stops) -- the same least, so the same counts.
 */
#include "joint_int.h"

int joint_pick_test_scan = 0;

long joint_busywin_least(pb_ns t, pb_ns w, uint32_t i, uint32_t first, uint32_t *lo,
                         const pb_ns *t0, size_t stride, const long *val, const uint32_t *dq,
                         uint32_t *dh, uint32_t dt)
{
    const pb_ns from = t - w; /* the scan's expression */
    uint32_t j = *lo < first ? first : *lo;
    while (j < i && *(const pb_ns *)(const void *)((const char *)t0 + (size_t)j * stride) < from)
        j++;
    *lo = j; /* j*: events before it are older than the window */
    uint32_t low = j;
    if (i - first > JOINT_PICK_SCAN && i - JOINT_PICK_SCAN + 1 > low)
        low = i - JOINT_PICK_SCAN + 1; /* the scan's cap */
    while (*dh < dt && dq[*dh] < low)
        (*dh)++;
    return val[dq[*dh]];
}
