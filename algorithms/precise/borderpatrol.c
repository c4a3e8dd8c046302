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
 * it answers, found by its call id (an RPC nonce) or, without one, by its
 * position on its connection.  A call
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
#include "pb_sort.h"

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
     "witness by call id when the trace has one (else by position on the "
     "connection, else first in first out per caller and callee)"},
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

/* a receipt or a send at a node, on that node's clock */
typedef struct bev {
    uint32_t node;
    pb_ns t;
    uint32_t send; /* 0 receipt, 1 send */
    uint32_t cls;  /* order at equal times: 0 a receipt (first), 1 a send
                      or a receipt with no flight time (in row order) */
    uint32_t msg;
} bev;

static int cmp_bev(const void *x, const void *y)
{
    const bev *p = x, *q = y;
    if (p->node != q->node) return p->node < q->node ? -1 : 1;
    if (p->t != q->t) return p->t < q->t ? -1 : 1;
    if (p->cls != q->cls) return p->cls < q->cls ? -1 : 1;
    return p->msg < q->msg ? -1 : p->msg > q->msg;
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
    int thread_cols_missing = by_thread && (!has_th || !has_st);
    if (thread_cols_missing)
        by_thread = 0;
    /* the witness: a call id (an RPC nonce) where the protocol has one,
     * else the position on the connection (HTTP/1.1) */
    bl_key key = has_cid ? BL_KEY_CALLID_CONN : has_conn ? BL_KEY_CONN : BL_KEY_NONE;
    bl_table t;
    if ((rc = bl_table_build_keyed(&t, v, key, err)) != PB_OK)
        return rc;
    const pb_msg *M = v->msgs;
    const pb_obs *O = v->obs;
    const size_t n = v->n;
    uint32_t *rpc_of = malloc((n + 1) * sizeof *rpc_of);   /* message -> RPC */
    uint32_t *under = malloc((n + 1) * sizeof *under);     /* the call or message its
                                                              sender served */
    uint64_t *inst = malloc((n + 1) * sizeof *inst);
    uint32_t *cause = malloc((n + 1) * sizeof *cause);
    uint8_t *flag = calloc(n + 1, 1);
    uint8_t *receives = calloc((size_t)t.nnodes + 1, 1);
    bev *ev = malloc((2 * n + 1) * sizeof *ev);
    uint32_t *desig = malloc((n + 1) * sizeof *desig);
    uint32_t *walk = malloc((n + 1) * sizeof *walk);
    uint8_t *state = calloc(n + 1, 1);
    ctx_tab ct = {0};
    size_t roots = 0, undesignated = 0, repairs = 0, unpaired = 0, node_fallback = 0,
           late_receipts = 0, others = 0, cycles = 0;
    if (!rpc_of || !under || !inst || !cause || !flag || !receives || !ev || !desig ||
        !walk || !state) {
        rc = pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        rpc_of[i] = PR_NONE;
        under[i] = PR_NONE;
        inst[i] = PB_ID_NONE;
        cause[i] = PR_NONE;
        desig[i] = PR_NONE;
    }
    for (uint32_t k = 0; k < t.nrpc; k++) {
        rpc_of[t.rpc[k].call] = k;
        if (t.rpc[k].ret != BL_NONE)
            rpc_of[t.rpc[k].ret] = k;
    }
    /* users: nodes that receive no call and no free-form message */
    for (size_t i = 0; i < n; i++)
        if (M[i].type != PB_TYPE_RETURN)
            receives[M[i].dst] = 1;
    /* 1. each node on its own clock: receipts set the designation of
     * their context, sends record it (receipts first at equal times) */
    size_t nev = 0;
    for (size_t i = 0; i < n; i++) {
        const pb_msg *m = &M[i];
        if (m->type != PB_TYPE_CALL && m->type != PB_TYPE_RETURN)
            others++; /* free-form: a one-way call without return */
        if (m->type == PB_TYPE_RETURN && rpc_of[i] == PR_NONE) {
            unpaired++;
            continue; /* answers no call: in no instance */
        }
        ev[nev++] = (bev){m->src, m->ts, 1, 1, (uint32_t)i};
        pb_ns rt = m->recv_ts != PB_TS_NONE ? m->recv_ts : m->ts;
        if (rt < m->ts)
            late_receipts++;
        /* a return received by a user ends its request there */
        if (m->type != PB_TYPE_RETURN || receives[m->dst]) {
            /* A message received at the instant it was sent (no flight
             * time: a simulation without delays, or a coarse clock) ranks
             * with the sends of that instant in row order: rows are in
             * send order, causes first, so it is received before what it
             * caused and after what was sent before it.  "Receipt first"
             * put the returns of a fan-out, all at one instant, before
             * the calls they answer: every request lost its calls. */
            uint32_t cls = m->recv_ts != PB_TS_NONE && m->recv_ts == m->ts;
            ev[nev++] = (bev){m->dst, rt, 0, cls, (uint32_t)i};
        }
    }
    pb_sort(ev, nev, sizeof *ev, cmp_bev);
    for (size_t e = 0; e < nev; e++) {
        const pb_msg *m = &M[ev[e].msg];
        uint32_t th = 0;
        if (by_thread) {
            th = ev[e].send ? pb_obs_sthread(O, ev[e].msg) : pb_obs_thread(O, ev[e].msg);
            if (!th && receives[ev[e].node])
                node_fallback++;
        }
        uint32_t *d = ctx_slot(&ct, ((uint64_t)ev[e].node << 32) | th);
        if (!d)
            goto nomem;
        if (ev[e].send)
            desig[ev[e].msg] = receives[m->src] ? *d : PR_NONE;
        else
            *d = ev[e].msg;
    }
    /* 2. a call (or free-form message) belongs to the request of its
     * designation d (DEP: d itself, or through a return the call it
     * answers), and its sender serves what d made it serve (SERVED: the
     * call or message d, or through a return what its call was sent
     * under); resolved along the chain of deps, each node's decisions made
     * on its own clock */
#define DEP(d) (M[d].type != PB_TYPE_RETURN ? (d) : t.rpc[rpc_of[d]].call)
#define SERVED(d) (M[d].type != PB_TYPE_RETURN ? (d) : under[t.rpc[rpc_of[d]].call])
    for (size_t i = 0; i < n; i++) {
        if (M[i].type == PB_TYPE_RETURN || state[i])
            continue;
        size_t nw = 0;
        uint32_t j = (uint32_t)i;
        while (j != PR_NONE && !state[j]) {
            state[j] = 1;
            walk[nw++] = j;
            uint32_t d = desig[j];
            j = d == PR_NONE ? PR_NONE : DEP(d);
        }
        if (j != PR_NONE && state[j] == 1) {
            /* a cycle (clock skew): cut where it closed */
            desig[j] = PR_NONE;
            cycles++;
        }
        while (nw) {
            uint32_t c = walk[--nw];
            uint32_t d = desig[c];
            if (d == PR_NONE) {
                inst[c] = c;
                roots++;
                if (receives[M[c].src])
                    undesignated++;
            } else {
                inst[c] = inst[DEP(d)];
                cause[c] = d;
                under[c] = SERVED(d);
            }
            state[c] = 2;
        }
    }
    /* 3. a return takes its call's request through the witness */
    for (uint32_t k = 0; k < t.nrpc; k++) {
        uint32_t r = t.rpc[k].ret, c = t.rpc[k].call;
        if (r == BL_NONE)
            continue;
        inst[r] = inst[c];
        uint32_t d = desig[r];
        if (d != PR_NONE && SERVED(d) == c) {
            cause[r] = d;
        } else {
            cause[r] = c;
            repairs++;
            flag[r] = 1;
        }
    }
#undef DEP
#undef SERVED
    rc = pr_emit(v, inst, cause, flag, view, res, err);
    if (rc != PB_OK)
        goto out;
    rc = pb_result_meta(res, "borderpatrol_context=%s witness=%s rpcs=%u calls=%zu "
                             "returns=%zu other_messages=%zu unpaired_returns=%zu "
                             "requests_started=%zu undesignated_sends=%zu "
                             "witness_repairs=%zu context_fallbacks=%zu "
                             "receipts_before_send=%zu cycles_cut=%zu",
                        by_thread ? "thread" : "node",
                        key == BL_KEY_CONN          ? "conn"
                        : key == BL_KEY_CALLID_CONN ? (has_conn ? "callid,conn" : "callid")
                                                    : "fifo",
                        t.nrpc, t.calls, t.returns, others, unpaired, roots, undesignated,
                        repairs, node_fallback, late_receipts, cycles);
    if (rc == PB_OK && key == BL_KEY_NONE)
        rc = pb_result_warn(res, "the trace has no call id and no conn column: a "
                                 "return finds its call first in first out per (caller, "
                                 "callee), a guess where calls overlap");
    if (rc == PB_OK && thread_cols_missing)
        rc = pb_result_warn(res, "the trace has no %s column: context=thread falls back "
                                 "to one context per node",
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
    if (rc == PB_OK && cycles)
        rc = pb_result_warn(res, "%zu designation cycles cut (clock skew): each "
                                 "where it closed, which then starts an instance",
                            cycles);
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
    free(ev);
    free(desig);
    free(walk);
    free(state);
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
