/*
 * borderpatrol.c - BorderPatrol's path rules (Koskinen and Jannotti,
 * EuroSys'08, 5.5) on a message trace; `infer --algo borderpatrol`,
 * docs/precise.md.
 *
 * Scanning forward in time, each execution context (a thread of a node,
 * `-s context=thread`, read from `thread` at a receipt and `sthread` at a
 * send; or the whole node, `context=node`: a single-process event-driven
 * server) carries a designation, the request it is computing for:
 *
 *  1. when a context receives a message associated with request r, a
 *     fragment initiates computation for r (the designation becomes r);
 *  2. when a fragment computing r sends a message, that message is
 *     associated with r.
 *
 * A return takes its call's request through the witness (3.1): the call
 * it answers, found by its call id or by its position on its connection
 * (calls and returns paired as vpath's paper variant pairs them).  A call
 * from a node that receives no calls (a user), or from a context that has
 * received nothing yet, starts a request of its own.  A return received
 * by such a node ends its request there (it does not designate anything).
 *
 * The cause of each message is the message whose receipt set its sender's
 * designation (what immediacy, 2.2, says); a return whose sender's
 * designation disagrees with its witness takes its call as cause and is
 * counted (witness_repairs) and flagged.  Every receipt before a send of
 * the same time is applied first.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "pb_algo.h"
#include "pb_hash.h"
#include "precise.h"

typedef struct bp_params {
    const char *context;  /* thread | node */
    const char *view;     /* call | message */
    int callids;
} bp_params;

static const pb_option bp_options[] = {
    {"context", PB_OPT_STRING, offsetof(bp_params, context), "thread", PB_OPT_NORANGE,
     "execution context that carries a designation: thread (a node's thread: "
     "`thread` at a receipt, `sthread` at a send) or node (one context per "
     "node: a single-process event-driven server)"},
    {"view", PB_OPT_STRING, offsetof(bp_params, view), "call", PB_OPT_NORANGE,
     "call or message view"},
    {"callids", PB_OPT_BOOL, offsetof(bp_params, callids), "1", PB_OPT_NORANGE,
     "witness by call id when the trace has no conn column (else first in "
     "first out per caller and callee)"},
    {NULL, PB_OPT_INT, 0, NULL, PB_OPT_NORANGE, NULL}};

/* context -> designation (message index), open addressing */
typedef struct ctx_tab {
    uint64_t *key;   /* UINT64_MAX: empty */
    uint32_t *val;
    size_t cap, n;
} ctx_tab;

static uint32_t *ctx_slot(ctx_tab *t, uint64_t k)
{
    if ((t->n + 1) * 2 > t->cap) {
        size_t nc = t->cap ? 2 * t->cap : 256;
        uint64_t *nk = malloc(nc * sizeof *nk);
        uint32_t *nv = malloc(nc * sizeof *nv);
        if (!nk || !nv) {
            free(nk);
            free(nv);
            return NULL;
        }
        for (size_t i = 0; i < nc; i++)
            nk[i] = UINT64_MAX;
        for (size_t i = 0; i < t->cap; i++) {
            if (t->key[i] == UINT64_MAX)
                continue;
            size_t j = pb_mix64(t->key[i]) & (nc - 1);
            while (nk[j] != UINT64_MAX)
                j = (j + 1) & (nc - 1);
            nk[j] = t->key[i];
            nv[j] = t->val[i];
        }
        free(t->key);
        free(t->val);
        t->key = nk;
        t->val = nv;
        t->cap = nc;
    }
    size_t j = pb_mix64(k) & (t->cap - 1);
    while (t->key[j] != UINT64_MAX && t->key[j] != k)
        j = (j + 1) & (t->cap - 1);
    if (t->key[j] == UINT64_MAX) {
        t->key[j] = k;
        t->val[j] = PR_NONE;
        t->n++;
    }
    return &t->val[j];
}

/* pending receipts, min-heap by (time, message index) */
typedef struct rcpt {
    pb_ns t;
    uint32_t msg;
} rcpt;

static int rc_less(const rcpt *a, const rcpt *b)
{
    return a->t != b->t ? a->t < b->t : a->msg < b->msg;
}

static void rc_push(rcpt *h, size_t *n, rcpt e)
{
    size_t i = (*n)++;
    while (i) {
        size_t p = (i - 1) / 2;
        if (!rc_less(&e, &h[p]))
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = e;
}

static void rc_pop(rcpt *h, size_t *n)
{
    rcpt e = h[--(*n)];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && rc_less(&h[c + 1], &h[c]))
            c++;
        if (!rc_less(&h[c], &e))
            break;
        h[i] = h[c];
        i = c;
    }
    if (*n)
        h[i] = e;
}

static int bp_run(const pb_trace_view *v, const void *params, pb_result *res,
                  pb_error *err)
{
    const bp_params *p = params;
    int by_thread;
    if (!strcmp(p->context, "thread"))
        by_thread = 1;
    else if (!strcmp(p->context, "node"))
        by_thread = 0;
    else
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "option context: \"%s\"; expected thread or node",
                            p->context);
    tv_view view;
    int rc = pr_view_parse(p->view, &view, err);
    if (rc != PB_OK)
        return rc;
    const int has_conn = (v->columns & PB_COL_CONN) != 0;
    const int has_cid = p->callids && (v->columns & PB_COL_CALLID) != 0;
    const int has_th = (v->columns & PB_COL_THREAD) != 0;
    const int has_st = (v->columns & PB_COL_STHREAD) != 0;
    bl_key key = has_conn ? BL_KEY_CONN : has_cid ? BL_KEY_CALLID : BL_KEY_NONE;
    bl_table t;
    if ((rc = bl_table_build_keyed(&t, v, key, err)) != PB_OK)
        return rc;
    const pb_msg *M = v->msgs;
    const size_t n = v->n;
    uint32_t *rpc_of = malloc((n + 1) * sizeof *rpc_of);   /* message -> RPC */
    uint32_t *under = malloc((n + 1) * sizeof *under);     /* RPC a message was sent under */
    uint64_t *inst = malloc((n + 1) * sizeof *inst);
    uint32_t *cause = malloc((n + 1) * sizeof *cause);
    uint8_t *flag = calloc(n + 1, 1);
    uint8_t *receives = calloc((size_t)t.nnodes + 1, 1);
    rcpt *heap = malloc((n + 1) * sizeof *heap);
    ctx_tab ct = {0};
    size_t hn = 0, roots = 0, undesignated = 0, repairs = 0, unpaired = 0,
           node_fallback = 0, late_receipts = 0, others = 0;
    if (!rpc_of || !under || !inst || !cause || !flag || !receives || !heap) {
        rc = pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        rpc_of[i] = PR_NONE;
        under[i] = PR_NONE;
        inst[i] = PB_ID_NONE;
        cause[i] = PR_NONE;
    }
    for (uint32_t k = 0; k < t.nrpc; k++) {
        rpc_of[t.rpc[k].call] = k;
        if (t.rpc[k].ret != BL_NONE)
            rpc_of[t.rpc[k].ret] = k;
        receives[t.rpc[k].dst] = 1;
    }
    for (size_t i = 0; i <= n; i++) {
        /* receipts up to this send (all of them at the end) */
        while (hn && (i == n || heap[0].t <= M[i].ts)) {
            uint32_t r = heap[0].msg;
            rc_pop(heap, &hn);
            const pb_msg *m = &M[r];
            if (inst[r] == PB_ID_NONE)
                continue;
            if (m->type == PB_TYPE_RETURN && !receives[m->dst])
                continue; /* the request left through a user */
            uint32_t th = by_thread ? m->thread : 0;
            if (by_thread && !th)
                node_fallback++;
            uint32_t *d = ctx_slot(&ct, ((uint64_t)m->dst << 32) | th);
            if (!d)
                goto nomem;
            *d = r;
        }
        if (i == n)
            break;
        const pb_msg *m = &M[i];
        uint32_t k = rpc_of[i];
        if (m->type != PB_TYPE_CALL && m->type != PB_TYPE_RETURN)
            others++;
        if (m->type == PB_TYPE_RETURN && k == PR_NONE) {
            unpaired++;
            continue; /* answers no call: in no instance */
        }
        uint32_t th = by_thread ? (has_st ? m->sthread : 0) : 0;
        if (by_thread && !th)
            node_fallback++;
        uint32_t *dp = ctx_slot(&ct, ((uint64_t)m->src << 32) | th);
        if (!dp)
            goto nomem;
        uint32_t d = *dp;
        /* the RPC a receipt d makes its context serve */
        uint32_t dserves = PR_NONE;
        if (d != PR_NONE) {
            uint32_t dk = rpc_of[d];
            dserves = M[d].type == PB_TYPE_CALL ? dk
                      : dk != PR_NONE             ? under[t.rpc[dk].call]
                                                  : under[d];
        }
        if (m->type == PB_TYPE_RETURN) {
            /* the witness: the call it answers */
            uint32_t c = t.rpc[k].call;
            inst[i] = inst[c];
            under[i] = k;
            if (d != PR_NONE && dserves == k) {
                cause[i] = d;
            } else {
                cause[i] = c;
                if (inst[c] != PB_ID_NONE) {
                    repairs++;
                    flag[i] = 1;
                }
            }
        } else if (!receives[m->src] || d == PR_NONE) {
            inst[i] = i;
            roots++;
            if (receives[m->src])
                undesignated++;
        } else {
            inst[i] = inst[d];
            cause[i] = d;
            under[i] = dserves;
        }
        pb_ns rt = m->recv_ts != PB_TS_NONE ? m->recv_ts : m->ts;
        if (rt < m->ts)
            late_receipts++;
        rc_push(heap, &hn, (rcpt){rt, (uint32_t)i});
    }
    rc = pr_emit(v, inst, cause, flag, view, res, err);
    if (rc != PB_OK)
        goto out;
    rc = pb_result_meta(res, "borderpatrol_context=%s witness=%s rpcs=%u calls=%zu "
                             "returns=%zu other_messages=%zu unpaired_returns=%zu "
                             "requests_started=%zu undesignated_sends=%zu "
                             "witness_repairs=%zu context_fallbacks=%zu "
                             "receipts_before_send=%zu",
                        by_thread ? "thread" : "node",
                        key == BL_KEY_CONN ? "conn" : key == BL_KEY_CALLID ? "callid" : "fifo",
                        t.nrpc, t.calls, t.returns, others, unpaired, roots, undesignated,
                        repairs, node_fallback, late_receipts);
    if (rc == PB_OK && key != BL_KEY_CONN)
        rc = pb_result_warn(res, "the trace has no conn column: a return finds its "
                                 "call %s", key == BL_KEY_CALLID
                                                ? "by call id"
                                                : "first in first out per (caller, "
                                                  "callee), a guess where calls overlap");
    if (rc == PB_OK && by_thread && (!has_th || !has_st))
        rc = pb_result_warn(res, "the trace has no %s column: context=thread falls back "
                                 "to one context per node there",
                            !has_th && !has_st ? "thread or sthread"
                            : !has_th          ? "thread"
                                               : "sthread");
    else if (rc == PB_OK && node_fallback)
        rc = pb_result_warn(res, "%zu receipts or sends have no thread label: taken "
                                 "as the node's", node_fallback);
    if (rc == PB_OK && repairs)
        rc = pb_result_warn(res, "%zu returns were sent by a context designated for "
                                 "another request (immediacy failed there, e.g. "
                                 "batched reads): each took its call's request from the "
                                 "witness; flagged", repairs);
    if (rc == PB_OK && undesignated)
        rc = pb_result_warn(res, "%zu messages were sent by a context that had received "
                                 "nothing: each starts an instance of its own",
                            undesignated);
    if (rc == PB_OK && unpaired)
        rc = pb_result_warn(res, "%zu returns answer no call: left out", unpaired);
    if (rc == PB_OK && late_receipts)
        rc = pb_result_warn(res, "%zu messages are received before they are sent "
                                 "(clock skew): their receipts were applied at the send",
                            late_receipts);
    goto out;
nomem:
    rc = pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
out:
    free(rpc_of);
    free(under);
    free(inst);
    free(cause);
    free(flag);
    free(receives);
    free(heap);
    free(ct.key);
    free(ct.val);
    bl_table_free(&t);
    return rc;
}

const pb_algo pb_algo_borderpatrol = {
    "borderpatrol", "call",
    "precise (BorderPatrol, EuroSys'08 5.5): a context's sends belong to the "
    "request of its latest receipt; returns follow their call (witness)",
    bp_options, sizeof(bp_params), bp_run, NULL};
