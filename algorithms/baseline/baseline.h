/*
 * baseline.h - what the field's baselines (fcfs, arrival, vpath, wap5tw;
 * docs/baselines.md) share: one call table built once per run, and the
 * step that turns "this outgoing call was made while serving that
 * incoming request" into call-view path instances.
 *
 * Every baseline looks at one node (service) at a time: its incoming
 * calls (the requests it served) and its outgoing calls grouped by callee
 * (the "endpoints").  Calls are paired with their returns as nesting
 * pairs them: by (caller, callee, callid) first-in first-out, so without
 * call ids by (caller, callee) FIFO; a return seen before any open call
 * (the callee's clock runs fast) waits for the next call.  Span times as the TraceWeaver
 * artifact sees them, all on the node's own clock:
 *   incoming (server span)  start = the call's recv_ts, end = its return's ts
 *   outgoing (client span)  start = the call's ts, end = its return's recv_ts
 * (a missing recv_ts falls back to the ts; a call without return ends
 * where it starts).
 */
#ifndef BASELINE_H
#define BASELINE_H

#include <stddef.h>
#include <stdint.h>

#include "pb_error.h"
#include "pb_result.h"
#include "pb_trace.h"

#define BL_NONE UINT32_MAX

/* One RPC: a call and (when paired) its return. */
typedef struct bl_rpc {
    uint32_t call, ret;      /* message indices in the view; ret BL_NONE */
    uint32_t src, dst;       /* caller, callee */
    pb_ns in_start, in_end;  /* the callee's (server) span */
    pb_ns out_start, out_end;/* the caller's (client) span */
} bl_rpc;

/* One endpoint: the calls of one node to one callee. */
typedef struct bl_ep {
    uint32_t node, dst;
    uint32_t off, n;         /* its RPCs: out[off .. off+n) */
} bl_ep;

typedef struct bl_table {
    const pb_trace_view *v;
    bl_rpc *rpc;             /* in the order of their calls */
    uint32_t nrpc;
    uint32_t nnodes;
    /* incoming RPCs of node x: in[in_off[x] .. in_off[x+1]), sorted by
     * (start, end, call order) as the artifact sorts its partitions */
    uint32_t *in, *in_off;
    /* endpoints of node x: ep[ep_off[x] .. ep_off[x+1]), in the order of
     * their first call; each endpoint's RPCs sorted by (start, end, call) */
    bl_ep *ep;
    uint32_t *ep_off, nep;
    uint32_t *out;
    uint8_t *multi;          /* [nnodes] called by more than one node */
    uint32_t *node_order;    /* nodes with endpoints, by their first call */
    uint32_t nnode_order;
    size_t calls, returns, others, unpaired_calls, unpaired_returns;
    size_t early_returns;    /* returns earlier in the trace than their call
                                (clock skew), paired with the next call of
                                their (caller, callee, callid) */
    size_t lost_call_returns; /* returns on a connection received by the
                                caller before it sent the next call there:
                                their call was lost; left out, counted in
                                unpaired_returns too */
    size_t multi_nodes;      /* nodes with endpoints and several callers */
    uint8_t *busy;           /* [nrpc] 1: the call was made while another
                                call of its key was still open, or another
                                was made while it was (bl_table_build_keyed
                                with BL_KEY_CONN: two outstanding calls on
                                one connection) */
    size_t busy_calls;       /* calls made while one of their key was open */
} bl_table;

/* How calls are paired with their returns: by (caller, callee) first in
 * first out, also keyed by call id, or also keyed by connection (the
 * `conn` column; a message without one falls back to its call id), or by
 * call id where a message has one and else by connection. */
typedef enum bl_key {
    BL_KEY_NONE = 0,
    BL_KEY_CALLID = 1,
    BL_KEY_CONN = 2,
    BL_KEY_CALLID_CONN = 3
} bl_key;

/* Build the table of view v (borrowed; must outlive t).  callids: pair by
 * call id when the trace has them.  Returns PB_OK or PB_ENOMEM (err
 * filled). */
int bl_table_build(bl_table *t, const pb_trace_view *v, int callids,
                   pb_error *err);

/* The same with the pairing key chosen (bl_key; BL_KEY_CALLID without the
 * callid column and BL_KEY_CONN without the conn column fall back to the
 * key below them).  bl_table_build(t, v, c, err) is
 * bl_table_build_keyed(t, v, c ? BL_KEY_CALLID : BL_KEY_NONE, err). */
int bl_table_build_keyed(bl_table *t, const pb_trace_view *v, bl_key key,
                         pb_error *err);

/* Free what the table owns.  NULL-safe on a zeroed table. */
void bl_table_free(bl_table *t);

/* Turn parent links into instances: parent[i] is the RPC (an incoming
 * call of rpc[i].src) that RPC i was made while serving, or BL_NONE.
 * Every RPC without a parent roots one call-view instance; its pattern
 * and the messages of all its RPCs go into res.  A parent cycle (possible
 * when an algorithm maps by rank only) is cut at the RPC where it is
 * found: counted in the metadata and warned about.  parent is modified
 * only to cut cycles.  Also writes the table's counters to the metadata
 * and warns about unpaired messages.  Returns PB_OK or an error. */
int bl_emit(const bl_table *t, uint32_t *parent, pb_result *res,
            pb_error *err);

#endif
