/*
 * imp_export.h - inferred path instances back out as Jaeger JSON, for the
 * tools users already have (the Jaeger UI's "Upload JSON"), and so that
 * importing the export gives the trace back (docs/importer.md, "Exporting
 * inferred paths").
 *
 * Each instance of a result's assignment table becomes one Jaeger trace:
 * one RPC per call paired with its return, a client span in the caller's
 * service and a server span in the callee's (service = node, times from
 * the messages, microseconds), the client span a child of the server span
 * of the call that was open at the caller when it was sent.  See
 * imp_export_jaeger for the rules.
 */
#ifndef IMP_EXPORT_H
#define IMP_EXPORT_H

#include <stddef.h>
#include <stdio.h>

#include "pb_error.h"
#include "pb_result.h"
#include "pb_trace.h"

typedef struct imp_export_stats {
    size_t instances;  /* Jaeger traces written */
    size_t spans;      /* spans written */
    size_t rpcs;       /* calls paired with a return */
    size_t one_way;    /* messages without a partner (type msg, a call with
                          no return, a return with no call): a producer and
                          a consumer span of zero duration */
    size_t multi_root; /* instances with more than one RPC without a parent
                          (each such RPC roots a span tree of the trace) */
    size_t no_open_parent; /* RPCs whose caller had no call open when it
                              was sent: child of the caller's latest call */
    size_t cycles_cut; /* parent choices that closed a loop: undone (the
                          RPC becomes a root) */
    size_t rounded;    /* timestamps that were not whole microseconds:
                          rounded down */
    size_t negative;   /* spans ending before they start (clocks): duration
                          0 */
    size_t unassigned; /* trace messages in no instance: not written */
} imp_export_stats;

/* Write every instance of res (its assignment table) over trace t as one
 * Jaeger query-API document {"data":[trace, ...]} to fp.  Instances are
 * written in order of their first message; trace k (from 1) gets the id
 * %016x of k, span ids count from 1 within the document.
 *
 * Pairing: a return C->B goes with the earliest unpaired call B->C of the
 * same instance sent before it (with the same callid when the trace has
 * call ids).  Parent: the RPC's client span is a child of the server span
 * of the latest earlier call into the caller that was still open (received
 * at or before this call was sent, its return sent at or after this RPC's
 * return came back); else of the latest earlier call into the caller; else
 * it is a root.  A root RPC from the node "client" whose call and return
 * each have ts == recv_ts is written as its server span alone (what
 * importtrace makes of a server root span).  The root span carries the
 * tags pathbench.instance and pathbench.pattern.
 *
 * st (may be NULL) receives the counts.  Returns PB_OK, PB_EINVAL (the
 * result ascribes no messages: convolution, or --no-assign; or a message
 * id not in the trace), PB_EIO (write error), PB_ENOMEM. */
int imp_export_jaeger(FILE *fp, const pb_trace *t, const pb_result *res,
                      imp_export_stats *st, pb_error *err);

#endif
