/*
 * pb_tick.h - the timestamp resolution ("tick") of a trace, and how many
 * messages share their timestamp with a neighbour.
 *
 * Real traces are often stamped in whole microseconds or milliseconds.  At
 * a coarse tick a cause and its effect can carry the same ts, and only the
 * order of the rows says which came first.  infer reports the tick of every
 * trace in the result metadata and warns when ties are common.
 */
#ifndef PB_TICK_H
#define PB_TICK_H

#include <stddef.h>

#include "pb_time.h"
#include "pb_trace.h"

/* Share of tied messages above which infer warns (when the tick is coarser
 * than 1 ns): 1 %. */
#define PB_TICK_TIED_WARN 0.01

typedef struct pb_tick_info {
    pb_ns tick;       /* largest power of ten, 1 ns .. 1 s, dividing every
                         ts and recv_ts (1 s also when all are multiples of
                         a coarser unit; 0 for an empty trace) */
    size_t n;         /* messages looked at */
    size_t tied;      /* messages whose ts equals the ts of the row before
                         or after it (file order) */
    int coarse_ties;  /* tick > 1 ns and tied > PB_TICK_TIED_WARN * n */
} pb_tick_info;

/* Detect the tick of msgs[0..n) (in file order) and count the tied
 * messages.  Reads only ts and recv_ts; never fails.  out is filled. */
void pb_tick_detect(const pb_msg *msgs, size_t n, pb_tick_info *out);

/* The same computed one message at a time (a streaming reader): init,
 * add every message in file order, finish.  pb_tick_detect is this over
 * an array. */
typedef struct pb_tick_acc {
    pb_tick_info info;   /* tick and n so far; tied without the last row's
                            pending tie */
    pb_ns prev_ts;       /* ts of the row before */
    int prev_tied;       /* the row before is already counted as tied */
} pb_tick_acc;

void pb_tick_acc_init(pb_tick_acc *a);
void pb_tick_acc_add(pb_tick_acc *a, const pb_msg *m);
/* The result for the messages added so far (a may take more after). */
void pb_tick_acc_result(const pb_tick_acc *a, pb_tick_info *out);

/* Write a tick as a duration with a unit ("1ms", "10us", "1ns", "1s"; "0"
 * for 0) into buf (at least PB_TICK_BUF bytes).  Returns buf. */
#define PB_TICK_BUF 32
char *pb_tick_format(pb_ns tick, char *buf);

#endif
