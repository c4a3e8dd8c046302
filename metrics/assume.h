/*
 * assume.h - the assumption meters of the two precise tracers (issue 23):
 * how far a trace with truth keeps the premise under which each is exact.
 * They say *why* a trace is hard for a method, as Project 5's parallelism
 * does for nesting.  Computed from the truth and the observable columns,
 * so they work on generated and on imported traces alike
 * (docs/metrics.md "Assumption meters").
 *
 * - immediacy (BorderPatrol, seed 002, 2.2 and 5.5): the share of sent
 *   messages whose true cause is the latest message received by the
 *   sender's context, the context being the sending thread (`sthread`;
 *   receipts are matched by the receiving thread, `thread`).  Over the
 *   messages that have a cause and a known sender thread.
 * - thread pattern (vPath, seed 003, 2.2 and 2.3): the share of visits (a
 *   call served, with its reply in the trace) whose nested calls and reply
 *   are sent by one thread, and on which that thread sends nothing of
 *   another visit between the call's receipt and the reply -- the premise
 *   of vPath's rule "every message the reply's thread sends in the request
 *   interval belongs to the request".  `one_thread` drops the second
 *   clause (the assumption as 2.2 words it).
 */
#ifndef ASSUME_H
#define ASSUME_H

#include <stddef.h>

#include "pb_error.h"
#include "pb_trace.h"

typedef struct assume_meters {
    double immediacy;      /* NaN: the trace lacks truth, thread or sthread */
    size_t imm_n, imm_ok;  /* messages measured, of them immediate */
    double thread_pattern; /* NaN: lacks truth or sthread, or no visit */
    double one_thread;
    size_t tp_n, tp_ok, ot_ok; /* visits measured, keeping the pattern,
                                  sent by one thread */
} assume_meters;

/* Compute the meters of trace t (its truth and its thread / sthread
 * columns; t is not changed).  A meter the trace cannot give is NaN with
 * count 0.  Returns PB_OK or PB_ENOMEM (err filled). */
int assume_compute(const pb_trace *t, assume_meters *out, pb_error *err);

#endif
