/*
 * vpath_paper.c - vPath as its paper defines it (Tak et al., USENIX
 * ATC'09, 2.3 and Algorithm 1 of 3.3); `infer --algo vpath -s
 * variant=paper`, docs/precise.md.
 *
 *  1. Requests and replies are paired by order on their connection (the
 *     `conn` column): the k-th call on a connection is answered by the
 *     k-th return on it.  Without `conn`, by call id, else first in first
 *     out per (caller, callee); the rule used is said.
 *  2. The request interval of a request X served by node x runs from the
 *     receipt of X to the send of X's reply, on the thread that sends the
 *     reply (a dispatcher thread may receive X: vPath allows it, 2.2).
 *  3. Every call x's thread T sends inside one of T's intervals belongs to
 *     that interval's request.  A call from a node that receives none is a
 *     user request (the root of a path).
 *
 * What the paper leaves open, decided here and documented: a send inside
 * several intervals of its thread goes to the one the thread replies to
 * first (a thread serves one request at a time, so that is the one it is
 * still serving), and is a violation; a send outside every interval of
 * its thread (from a node that receives calls) roots an instance of its
 * own and is a violation; two calls outstanding on one connection, and a
 * call whose return is received by another thread than the one that sent
 * it (a hand-off of the continuation), are violations.  Each violation
 * flags the instances it touches (pr_emit), so that vPath is never
 * silently wrong: a request it gets wrong lies in a flagged instance.
 */
#include "precise.h"

#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "pb_sort.h"

/* an interval or a send, on one thread of one node */
typedef struct item {
    uint64_t thread;  /* (node << 32) | label */
    pb_ns t;          /* interval start (receipt) or send time */
    pb_ns end;        /* interval end (reply send); sends: unused */
    uint32_t rpc;
    uint8_t kind;     /* 0 interval, 1 dispatch window (the receiving
                         thread of a request another thread replies to),
                         2 send (assign), 3 probe (flag only) */
} item;

static int cmp_item(const void *a, const void *b)
{
    const item *x = a, *y = b;
    if (x->thread != y->thread)
        return x->thread < y->thread ? -1 : 1;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    /* an interval opening at the time of a send contains it */
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return x->rpc < y->rpc ? -1 : x->rpc > y->rpc;
}

/* min-heap of open intervals by (end, start desc, rpc) */
typedef struct hent {
    pb_ns end, start;
    uint32_t rpc;
    uint64_t epoch;     /* flag-all count when pushed (not an order key) */
} hent;

static int hless(const hent *a, const hent *b)
{
    if (a->end != b->end)
        return a->end < b->end;
    if (a->start != b->start)
        return a->start > b->start;
    return a->rpc < b->rpc;
}

static void hpush(hent *h, size_t *n, hent e)
{
    size_t i = (*n)++;
    while (i) {
        size_t p = (i - 1) / 2;
        if (!hless(&e, &h[p]))
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = e;
}

static void hpop(hent *h, size_t *n)
{
    hent e = h[--(*n)];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && hless(&h[c + 1], &h[c]))
            c++;
        if (!hless(&h[c], &e))
            break;
        h[i] = h[c];
        i = c;
    }
    if (*n)
        h[i] = e;
}

/* returns of children, by (receipt time, call order) */
typedef struct rent {
    pb_ns t;
    uint32_t msg;
} rent;

static int rless(const rent *a, const rent *b)
{
    if (a->t != b->t)
        return a->t < b->t;
    return a->msg < b->msg;
}

static void rpush(rent *h, size_t *n, rent e)
{
    size_t i = (*n)++;
    while (i) {
        size_t p = (i - 1) / 2;
        if (!rless(&e, &h[p]))
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = e;
}

static void rpop(rent *h, size_t *n)
{
    rent e = h[--(*n)];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && rless(&h[c + 1], &h[c]))
            c++;
        if (!rless(&h[c], &e))
            break;
        h[i] = h[c];
        i = c;
    }
    if (*n)
        h[i] = e;
}

/* children of an RPC sorted by (call time, call index) */
typedef struct ckey {
    pb_ns t;
    uint32_t call, rpc;
} ckey;

static int cmp_ckey(const void *a, const void *b)
{
    const ckey *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->call < y->call ? -1 : x->call > y->call;
}

typedef struct vp_count {
    size_t intervals, open_requests, user_requests, sends, by_interval;
    size_t two_intervals, send_outside, conn_busy, handoff, no_thread;
    size_t reply_from_receipt, send_from_return, cycles, dispatcher_sends;
} vp_count;

int pr_vpath_paper(const pb_trace_view *v, int callids, const char *view_s,
                   pb_result *res, pb_error *err)
{
    tv_view view;
    int rc = pr_view_parse(view_s, &view, err);
    if (rc != PB_OK)
        return rc;
    const int has_conn = (v->columns & PB_COL_CONN) != 0;
    const int has_cid = callids && (v->columns & PB_COL_CALLID) != 0;
    const int has_st = (v->columns & PB_COL_STHREAD) != 0;
    const int has_th = (v->columns & PB_COL_THREAD) != 0;
    bl_key key = has_conn ? BL_KEY_CONN : has_cid ? BL_KEY_CALLID : BL_KEY_NONE;
    bl_table t;
    if ((rc = bl_table_build_keyed(&t, v, key, err)) != PB_OK)
        return rc;
    const pb_msg *M = v->msgs;
    const pb_obs *O = v->obs;
    const uint32_t n = t.nrpc;
    vp_count c;
    memset(&c, 0, sizeof c);
    item *it = malloc(((size_t)4 * n + v->n + 1) * sizeof *it);
    hent *heap = malloc(((size_t)n + 1) * sizeof *heap);
    hent *sheap = malloc(((size_t)n + 1) * sizeof *sheap);
    uint32_t *parent = malloc(((size_t)n + 1) * sizeof *parent);
    uint8_t *rflag = calloc((size_t)n + 1, 1);   /* request (incoming RPC) flagged */
    uint8_t *cflag = calloc((size_t)n + 1, 1);   /* call flagged */
    uint8_t *outside = calloc((size_t)n + 1, 1); /* call sent outside every interval */
    uint8_t *receives = calloc((size_t)t.nnodes + 1, 1);
    uint64_t *inst = malloc((v->n + 1) * sizeof *inst);
    uint32_t *cause = malloc((v->n + 1) * sizeof *cause);
    uint8_t *mflag = calloc(v->n + 1, 1);
    uint8_t *state = calloc((size_t)n + 1, 1);
    uint32_t *walk = malloc(((size_t)n + 1) * sizeof *walk);
    uint32_t *ch_off = calloc((size_t)n + 2, sizeof *ch_off);
    ckey *ch = malloc(((size_t)n + 1) * sizeof *ch);
    rent *rh = malloc(((size_t)n + 1) * sizeof *rh);
    if (!it || !heap || !sheap || !parent || !rflag || !cflag || !outside || !receives || !inst || !cause ||
        !mflag || !state || !walk || !ch_off || !ch || !rh) {
        rc = pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
        goto out;
    }
    for (uint32_t k = 0; k < n; k++) {
        parent[k] = BL_NONE;
        receives[t.rpc[k].dst] = 1;
    }

    /* 1. intervals, sends and probes, per thread */
    size_t ni = 0;
    for (uint32_t k = 0; k < n; k++) {
        const bl_rpc *r = &t.rpc[k];
        if (r->ret != BL_NONE) {
            /* the thread that sends the reply */
            uint32_t th = has_st ? pb_obs_sthread(O, r->ret) : 0;
            if (!th && has_th && pb_obs_thread(O, r->call)) {
                th = pb_obs_thread(O, r->call);
                c.reply_from_receipt++;
            }
            if (th) {
                it[ni++] = (item){((uint64_t)r->dst << 32) | th, r->in_start, r->in_end,
                                  k, 0};
                c.intervals++;
                /* received by another thread (a dispatcher, 2.2): a call
                 * that thread sends meanwhile may be this request's */
                if (has_th && pb_obs_thread(O, r->call) && pb_obs_thread(O, r->call) != th)
                    it[ni++] = (item){((uint64_t)r->dst << 32) | pb_obs_thread(O, r->call), r->in_start,
                                      r->in_end, k, 1};
            } else {
                c.no_thread++;
                rflag[k] = 1;
            }
        } else if (receives[r->dst]) {
            c.open_requests++;
            rflag[k] = 1;
        }
        if (t.busy[k]) {
            /* two calls outstanding on one connection: the order may pair
             * a request with another's reply */
            c.conn_busy++;
            rflag[k] = cflag[k] = 1;
        }
        if (!receives[r->src])
            continue; /* a user request */
        uint32_t st = has_st ? pb_obs_sthread(O, r->call) : 0;
        if (!st && has_th && r->ret != BL_NONE && pb_obs_thread(O, r->ret)) {
            st = pb_obs_thread(O, r->ret);
            c.send_from_return++;
        }
        if (!st) {
            c.no_thread++;
            cflag[k] = 1;
            continue;
        }
        it[ni++] = (item){((uint64_t)r->src << 32) | st, r->out_start, 0, k, 2};
        c.sends++;
        /* the thread that receives the return should be the sender */
        if (r->ret != BL_NONE && has_st && has_th && pb_obs_sthread(O, r->call) && pb_obs_thread(O, r->ret) &&
            pb_obs_thread(O, r->ret) != pb_obs_sthread(O, r->call)) {
            c.handoff++;
            cflag[k] = 1;
            it[ni++] = (item){((uint64_t)r->src << 32) | pb_obs_thread(O, r->ret), r->out_end, 0,
                              k, 3};
        }
    }
    /* a return that answers no call (its call was lost): the request its
     * receiving thread was serving misses a message; flag it */
    {
        uint8_t *paired = calloc(v->n + 1, 1);
        if (!paired) {
            rc = pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
            goto out;
        }
        for (uint32_t k = 0; k < n; k++)
            if (t.rpc[k].ret != BL_NONE)
                paired[t.rpc[k].ret] = 1;
        for (size_t i = 0; i < v->n; i++) {
            const pb_msg *m = &M[i];
            if (m->type != PB_TYPE_RETURN || paired[i] || !has_th || !pb_obs_thread(O, i))
                continue;
            it[ni++] = (item){((uint64_t)m->dst << 32) | pb_obs_thread(O, i),
                              m->recv_ts != PB_TS_NONE ? m->recv_ts : m->ts, 0, 0, 3};
        }
        free(paired);
    }
    pb_sort(it, ni, sizeof *it, cmp_item);
    uint64_t fh = 0, fs = 0;
    for (size_t a = 0; a < ni;) {
        size_t b = a, hn = 0, sn = 0;
        while (b < ni && it[b].thread == it[a].thread)
            b++;
        for (size_t i = a; i < b; i++) {
            const item *e = &it[i];
            /* "flag every open interval" is a count (fh, fs), and an
             * interval is flagged when it leaves its heap if the count
             * rose while it was in: the same flags as marking every heap
             * entry each time, without the O(open) pass per send (a
             * thread holding K requests and sending K calls was K^2) */
            while (hn && heap[0].end < e->t) {
                if (heap[0].epoch < fh)
                    rflag[heap[0].rpc] = 1;
                hpop(heap, &hn);
            }
            while (sn && sheap[0].end < e->t) {
                if (sheap[0].epoch < fs)
                    rflag[sheap[0].rpc] = 1;
                hpop(sheap, &sn);
            }
            if (e->kind == 0) {
                /* opening while the thread holds another open interval */
                if (hn)
                    c.two_intervals++;
                hpush(heap, &hn, (hent){e->end, e->t, e->rpc, fh});
                continue;
            }
            if (e->kind == 1) {
                hpush(sheap, &sn, (hent){e->end, e->t, e->rpc, fs});
                continue;
            }
            if (e->kind == 3) {
                fh++;
                continue;
            }
            if (sn) {
                /* sent by the thread that received a request another
                 * thread replies to, while that request was open */
                c.dispatcher_sends++;
                cflag[e->rpc] = 1;
                fs++;
            }
            if (hn == 0) {
                c.send_outside++;
                cflag[e->rpc] = 1;
                outside[e->rpc] = 1;
                continue;
            }
            parent[e->rpc] = heap[0].rpc;
            c.by_interval++;
            if (hn > 1) {
                cflag[e->rpc] = 1;
                fh++;
            }
        }
        for (size_t h = 0; h < hn; h++)
            if (heap[h].epoch < fh)
                rflag[heap[h].rpc] = 1;
        for (size_t h = 0; h < sn; h++)
            if (sheap[h].epoch < fs)
                rflag[sheap[h].rpc] = 1;
        a = b;
    }

    /* 1b. A call sent outside every interval belongs to some request its
     * node was serving then (it roots no user request: the node receives
     * calls), and that request is missing it.  Its own thread cannot say
     * which (a pool that hands a request's continuation to another worker
     * after a return: the worker that continues may hold another
     * request's interval, or none), so every request open at the node at
     * that send is flagged; without this, a request whose call went to a
     * worker serving another request was wrong with no flag.  Per node,
     * intervals from receipt to reply, with the same epoch count as
     * above. */
    if (c.send_outside) {
        size_t nj = 0;
        for (uint32_t k = 0; k < n; k++) {
            const bl_rpc *r = &t.rpc[k];
            if (r->ret != BL_NONE)
                it[nj++] = (item){(uint64_t)r->dst << 32, r->in_start, r->in_end, k, 0};
            if (outside[k])
                it[nj++] = (item){(uint64_t)r->src << 32, r->out_start, 0, k, 2};
        }
        pb_sort(it, nj, sizeof *it, cmp_item);
        uint64_t fo = 0;
        for (size_t a = 0; a < nj;) {
            size_t b = a, hn = 0;
            while (b < nj && it[b].thread == it[a].thread)
                b++;
            for (size_t i = a; i < b; i++) {
                const item *e = &it[i];
                while (hn && heap[0].end < e->t) {
                    if (heap[0].epoch < fo)
                        rflag[heap[0].rpc] = 1;
                    hpop(heap, &hn);
                }
                if (e->kind == 0)
                    hpush(heap, &hn, (hent){e->end, e->t, e->rpc, fo});
                else
                    fo++;
            }
            for (size_t h = 0; h < hn; h++)
                if (heap[h].epoch < fo)
                    rflag[heap[h].rpc] = 1;
            a = b;
        }
    }

    /* 2. cut parent cycles (clock skew can make one) */
    for (uint32_t i = 0; i < n; i++) {
        if (state[i])
            continue;
        uint32_t nw = 0, j = i;
        while (j != BL_NONE && state[j] == 0) {
            state[j] = 1;
            walk[nw++] = j;
            j = parent[j];
        }
        if (j != BL_NONE && state[j] == 1) {
            parent[j] = BL_NONE;
            cflag[j] = 1;
            c.cycles++;
        }
        while (nw)
            state[walk[--nw]] = 2;
    }

    /* 3. instance of every RPC: its root's index */
    for (size_t i = 0; i < v->n; i++) {
        inst[i] = PB_ID_NONE;
        cause[i] = PR_NONE;
    }
    memset(state, 0, (size_t)n + 1);
    uint32_t *root = ch_off; /* borrowed until step 4: root of each RPC */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t nw = 0, j = i;
        while (!state[j] && parent[j] != BL_NONE) {
            walk[nw++] = j;
            j = parent[j];
        }
        uint32_t r0 = state[j] ? root[j] : j;
        if (!state[j]) {
            root[j] = r0;
            state[j] = 1;
        }
        while (nw) {
            uint32_t w = walk[--nw];
            root[w] = r0;
            state[w] = 1;
        }
    }
    for (uint32_t k = 0; k < n; k++) {
        const bl_rpc *r = &t.rpc[k];
        inst[r->call] = root[k];
        if (r->ret != BL_NONE)
            inst[r->ret] = root[k];
        if (parent[k] == BL_NONE && receives[r->src] && !cflag[k])
            cflag[k] = 1; /* orphaned (e.g. its parent's interval is unknown) */
        if (parent[k] == BL_NONE && !receives[r->src])
            c.user_requests++;
        if (cflag[k])
            mflag[r->call] = 1;
        if (rflag[k])
            mflag[r->call] = 1;
    }

    /* 4. causes: the latest message the sender received for the request
     * it served before sending */
    memset(ch_off, 0, ((size_t)n + 2) * sizeof *ch_off);
    for (uint32_t k = 0; k < n; k++)
        if (parent[k] != BL_NONE)
            ch_off[parent[k] + 2]++;
    for (uint32_t k = 0; k <= n; k++)
        ch_off[k + 1] += ch_off[k];
    for (uint32_t k = 0; k < n; k++)
        if (parent[k] != BL_NONE)
            ch[ch_off[parent[k] + 1]++] =
                (ckey){t.rpc[k].out_start, t.rpc[k].call, k};
    for (uint32_t p = 0; p < n; p++) {
        const bl_rpc *pr = &t.rpc[p];
        ckey *cs = ch + ch_off[p];
        uint32_t nc = ch_off[p + 1] - ch_off[p];
        pb_sort(cs, nc, sizeof *cs, cmp_ckey);
        size_t rn = 0;
        pb_ns best_t = pr->in_start;
        uint32_t best = pr->call;
        for (uint32_t i = 0; i <= nc; i++) {
            pb_ns s = i < nc ? cs[i].t : pr->in_end;
            while (rn && rh[0].t <= s) {
                if (rh[0].t >= best_t) {
                    best_t = rh[0].t;
                    best = rh[0].msg;
                }
                rpop(rh, &rn);
            }
            if (i == nc)
                break;
            const bl_rpc *kr = &t.rpc[cs[i].rpc];
            cause[kr->call] = best;
            if (kr->ret != BL_NONE)
                rpush(rh, &rn, (rent){kr->out_end, kr->ret});
        }
        if (pr->ret != BL_NONE)
            cause[pr->ret] = best;
    }

    rc = pr_emit(v, inst, cause, mflag, view, res, err);
    if (rc != PB_OK)
        goto out;
    const char *pairing = key == BL_KEY_CONN ? "conn" : key == BL_KEY_CALLID ? "callid" : "fifo";
    rc = pb_result_meta(res, "vpath_variant=paper pairing=%s rpcs=%u calls=%zu returns=%zu "
                             "other_messages=%zu unpaired_calls=%zu unpaired_returns=%zu "
                             "early_returns=%zu user_requests=%zu intervals=%zu "
                             "sends=%zu by_interval=%zu reply_thread_from_receipt=%zu "
                             "send_thread_from_return=%zu no_thread=%zu open_requests=%zu "
                             "cycles_cut=%zu",
                        pairing, n, t.calls, t.returns, t.others, t.unpaired_calls,
                        t.unpaired_returns, t.early_returns, c.user_requests,
                        c.intervals, c.sends, c.by_interval, c.reply_from_receipt,
                        c.send_from_return, c.no_thread, c.open_requests, c.cycles);
    if (rc == PB_OK)
        rc = pb_result_meta(res, "violation_two_intervals=%zu violation_send_outside=%zu "
                                 "violation_conn_busy=%zu violation_handoff=%zu "
                                 "violation_dispatcher_send=%zu",
                            c.two_intervals, c.send_outside, c.conn_busy, c.handoff,
                            c.dispatcher_sends);
    /* fallbacks, then violations, on stderr */
    if (rc == PB_OK && key != BL_KEY_CONN)
        rc = pb_result_warn(res, "the trace has no conn column: calls and returns "
                                 "paired %s instead of by order on their connection",
                            key == BL_KEY_CALLID ? "by call id"
                                                 : "first in first out per (caller, "
                                                   "callee)");
    if (rc == PB_OK && !has_st)
        rc = pb_result_warn(res, "the trace has no sthread column: %s",
                            has_th ? "a reply is taken as sent by the thread that "
                                     "received the request (no dispatcher), and a call "
                                     "as sent by the thread that receives its return"
                                   : "and no thread column either: no request interval "
                                     "can be placed on a thread");
    if (rc == PB_OK && c.no_thread)
        rc = pb_result_warn(res, "%zu requests or calls have no thread label: their "
                                 "instances are flagged", c.no_thread);
    if (rc == PB_OK && c.two_intervals)
        rc = pb_result_warn(res, "assumption violated %zu times: a thread held two open "
                                 "request intervals (an event loop, a hand-off, or a "
                                 "request queued for a busy worker); a call sent while "
                                 "its thread held several went to the one it replied to "
                                 "first, and their instances are flagged",
                            c.two_intervals);
    if (rc == PB_OK && c.send_outside)
        rc = pb_result_warn(res, "assumption violated %zu times: a thread sent a call "
                                 "while holding no request interval; each roots a "
                                 "flagged instance of its own, and every request open at its "
                                 "node then is flagged (it is one of theirs)", c.send_outside);
    /* the pairing key names what the two calls share: a connection only
     * where the trace has one (the warning said "on one connection
     * (pipelined or multiplexed)" of a trace without a conn column) */
    if (rc == PB_OK && c.conn_busy)
        rc = pb_result_warn(res, "assumption violated %zu times: two calls outstanding %s, "
                                 "where pairing by order may be wrong; flagged", c.conn_busy,
                            key == BL_KEY_CONN
                                ? "on one connection (pipelined or multiplexed)"
                            : key == BL_KEY_CALLID
                                ? "between one caller and callee under one call id "
                                  "(none counts as one)"
                                : "between one caller and callee (paired first in first "
                                  "out: the trace has no conn column)");
    if (rc == PB_OK && c.handoff)
        rc = pb_result_warn(res, "assumption violated %zu times: a call's return was "
                                 "received by another thread than the one that sent it "
                                 "(its continuation was handed off); flagged", c.handoff);
    if (rc == PB_OK && c.dispatcher_sends)
        rc = pb_result_warn(res, "assumption violated %zu times: a thread that received a "
                                 "request another thread replied to sent a call while "
                                 "that request was open (the call may be that request's: "
                                 "a dispatcher only dispatches, 2.2); flagged",
                            c.dispatcher_sends);
    if (rc == PB_OK && t.unpaired_returns)
        rc = pb_result_warn(res, "%zu returns answer no call (lost calls?): left out; "
                                 "the requests their receivers were serving are flagged",
                            t.unpaired_returns);
    if (rc == PB_OK && c.open_requests)
        rc = pb_result_warn(res, "%zu requests were never replied to: no interval, "
                                 "flagged", c.open_requests);
    if (rc == PB_OK && c.cycles)
        rc = pb_result_warn(res, "%zu parent cycles cut (clock skew)", c.cycles);
    if (rc == PB_OK && t.others)
        rc = pb_result_warn(res, "%zu one-way messages (type msg) left out: the paper "
                                 "variant follows requests and replies only "
                                 "(docs/precise.md; borderpatrol follows them)",
                            t.others);
out:
    free(it);
    free(heap);
    free(sheap);
    free(parent);
    free(rflag);
    free(cflag);
    free(outside);
    free(receives);
    free(inst);
    free(cause);
    free(mflag);
    free(state);
    free(walk);
    free(ch_off);
    free(ch);
    free(rh);
    bl_table_free(&t);
    return rc;
}
