/*
 * conv_mu.h - the time quantum mu of the convolution algorithm, chosen from
 * the trace when the user gives none.
 */
#ifndef CONV_MU_H
#define CONV_MU_H

#include "pb_strbuf.h"
#include "pb_trace.h"

#define CONV_AUTO_MAX_QUANTA (INT64_C(1) << 24)
#define CONV_DEFAULT_MU 10000000 /* 10 ms: the paper's Table 1 value */

/* mu from the trace's own time scale (docs/convolution.md "Choosing mu"):
 * the median delay from a node's latest arrival to each message it sends
 * (one hop of a request), times eight (typical requests are 15-20 such
 * hops), rounded down to 1-2-5, at most the paper's 10 ms; never below the
 * trace's tick, and never so small that the trace spans more than
 * CONV_AUTO_MAX_QUANTA quanta.  *mu gets the quantum; the reasoning in
 * words is appended to why.  tv is only read.  Returns PB_OK or
 * PB_ENOMEM. */
int conv_auto_mu(const pb_trace_view *tv, pb_ns *mu, pb_strbuf *why);

#endif
