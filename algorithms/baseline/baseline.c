/*
 * baseline.c - the call table and the instance builder shared by the
 * field's baselines (baseline.h).  O(n log n) in the messages.
 */
#include "baseline.h"
#include "callview_paths.h"
#include "pb_hash.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pb_ptree.h"
#include "pb_strbuf.h"
#include "pb_sort.h"

/* ------------------------------------------------------------------ */
/* Pairing: (caller, callee, callid) -> FIFO of open calls */

typedef struct pkey {
    uint64_t callid;
    uint32_t src, dst;   /* src == BL_NONE: empty slot */
    uint32_t head, tail; /* open calls: RPC indices, chained in next[] */
    uint32_t rhead, rtail; /* returns seen before any open call (a clock
                              running fast at the callee): message indices,
                              chained in rnext[] */
} pkey;

static inline size_t phash(uint32_t src, uint32_t dst, uint64_t cid)
{
    return (size_t)pb_mix64((cid * 0x9E3779B97F4A7C15ULL) ^ (((uint64_t)src << 32) | dst));
}

/* Open addressing with backward-shift deletion: a key leaves the table
 * when nothing of it is pending, so its size follows the calls open at
 * once (with call ids every RPC has its own key), not the trace length. */
typedef struct ptab {
    pkey *e;
    size_t cap, n;   /* cap a power of two */
} ptab;

static size_t pslot(const ptab *t, uint32_t src, uint32_t dst, uint64_t cid,
                    int *found)
{
    size_t mask = t->cap - 1, j = phash(src, dst, cid) & mask;
    while (t->e[j].src != BL_NONE) {
        if (t->e[j].src == src && t->e[j].dst == dst && t->e[j].callid == cid) {
            *found = 1;
            return j;
        }
        j = (j + 1) & mask;
    }
    *found = 0;
    return j;
}

/* Room for one more key.  Returns PB_OK or PB_ENOMEM. */
static int preserve(ptab *t)
{
    if ((t->n + 1) * 2 <= t->cap)
        return PB_OK;
    size_t nc = t->cap ? 2 * t->cap : 1024;
    pkey *ne = malloc(nc * sizeof *ne);
    if (!ne)
        return PB_ENOMEM;
    for (size_t j = 0; j < nc; j++)
        ne[j].src = BL_NONE;
    for (size_t i = 0; i < t->cap; i++) {
        if (t->e[i].src == BL_NONE)
            continue;
        size_t j = phash(t->e[i].src, t->e[i].dst, t->e[i].callid) & (nc - 1);
        while (ne[j].src != BL_NONE)
            j = (j + 1) & (nc - 1);
        ne[j] = t->e[i];
    }
    free(t->e);
    t->e = ne;
    t->cap = nc;
    return PB_OK;
}

static void pdelete(ptab *t, size_t i)
{
    size_t mask = t->cap - 1, j = i;
    for (;;) {
        j = (j + 1) & mask;
        if (t->e[j].src == BL_NONE)
            break;
        size_t k = phash(t->e[j].src, t->e[j].dst, t->e[j].callid) & mask;
        if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
            continue;
        t->e[i] = t->e[j];
        i = j;
    }
    t->e[i].src = BL_NONE;
    t->n--;
}

/* sort key of a span list */
typedef struct skey {
    pb_ns a, b;
    uint32_t seq, rpc;
} skey;

static int cmp_skey(const void *x, const void *y)
{
    const skey *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    if (p->b != q->b)
        return p->b < q->b ? -1 : 1;
    return p->seq < q->seq ? -1 : p->seq > q->seq;
}

/* Sort idx[0..n) (RPC indices) by the in (which == 0) or out span. */
static void sort_spans(const bl_rpc *rpc, uint32_t *idx, uint32_t n, int which,
                       skey *tmp)
{
    int sorted = 1;
    for (uint32_t i = 0; i < n; i++) {
        const bl_rpc *r = &rpc[idx[i]];
        tmp[i] = which == 0 ? (skey){r->in_start, r->in_end, r->call, idx[i]}
                            : (skey){r->out_start, r->out_end, r->call, idx[i]};
        if (i && sorted && cmp_skey(&tmp[i - 1], &tmp[i]) > 0)
            sorted = 0;
    }
    if (sorted)
        return;
    pb_sort(tmp, n, sizeof *tmp, cmp_skey);
    for (uint32_t i = 0; i < n; i++)
        idx[i] = tmp[i].rpc;
}

static void set_return(bl_rpc *r, uint32_t i, const pb_msg *m)
{
    r->ret = i;
    r->in_end = m->ts;
    r->out_end = m->recv_ts != PB_TS_NONE ? m->recv_ts : m->ts;
}

void bl_table_free(bl_table *t)
{
    if (!t)
        return;
    free(t->rpc);
    free(t->in);
    free(t->in_off);
    free(t->ep);
    free(t->ep_off);
    free(t->out);
    free(t->multi);
    free(t->node_order);
    free(t->busy);
    memset(t, 0, sizeof *t);
}

int bl_table_build(bl_table *t, const pb_trace_view *v, int callids,
                   pb_error *err)
{
    return bl_table_build_keyed(t, v, callids ? BL_KEY_CALLID : BL_KEY_NONE, err);
}

/* The pairing key of message m: its connection (marked by bit 62, so that
 * it never equals a call id), else its call id, else none; with
 * callid_first, its call id where it has one, else its connection. */
static uint64_t pair_key(const pb_msg *m, uint32_t conn, int use_conn, int use_callid,
                         int callid_first)
{
    if (callid_first && use_callid && m->callid != PB_ID_NONE)
        return m->callid;
    if (use_conn && conn)
        return (1ULL << 62) | conn;
    return use_callid ? m->callid : PB_ID_NONE;
}

int bl_table_build_keyed(bl_table *t, const pb_trace_view *v, bl_key key,
                         pb_error *err)
{
    memset(t, 0, sizeof *t);
    t->v = v;
    t->nnodes = (uint32_t)pb_strtab_count(v->nodes);
    const uint32_t nn = t->nnodes;
    int callids = key >= BL_KEY_CALLID && (v->columns & PB_COL_CALLID);
    int conns = key >= BL_KEY_CONN && (v->columns & PB_COL_CONN);
    int callid_first = key == BL_KEY_CALLID_CONN;
    for (size_t i = 0; i < v->n; i++) {
        if (v->msgs[i].type == PB_TYPE_CALL)
            t->calls++;
        else if (v->msgs[i].type == PB_TYPE_RETURN)
            t->returns++;
        else
            t->others++;
    }
    if (t->calls >= BL_NONE)
        return pb_error_set(err, PB_ERANGE, NULL, 0, 0,
                            "%zu calls; expected fewer than 2^32", t->calls);
    ptab h = {0};
    uint32_t *next = malloc((t->calls + 1) * sizeof *next);
    uint32_t *rnext = malloc((v->n + 1) * sizeof *rnext);
    t->rpc = malloc((t->calls + 1) * sizeof *t->rpc);
    t->in = malloc((t->calls + 1) * sizeof *t->in);
    t->out = malloc((t->calls + 1) * sizeof *t->out);
    t->in_off = calloc((size_t)nn + 1, sizeof *t->in_off);
    t->ep_off = calloc((size_t)nn + 1, sizeof *t->ep_off);
    t->multi = calloc(nn ? nn : 1, 1);
    t->busy = calloc(t->calls + 1, 1);
    uint32_t *caller = malloc((nn ? nn : 1) * sizeof *caller);
    uint32_t *ep_of = malloc((t->calls + 1) * sizeof *ep_of);
    skey *tmp = malloc((t->calls + 1) * sizeof *tmp);
    int rc = PB_ENOMEM;
    if (preserve(&h) != PB_OK || !next || !rnext || !t->rpc || !t->in || !t->out || !t->in_off ||
        !t->ep_off || !t->multi || !t->busy || !caller || !ep_of || !tmp)
        goto out;

    /* 1. pair */
    for (size_t i = 0; i < v->n; i++) {
        const pb_msg *m = &v->msgs[i];
        uint64_t cid = pair_key(m, pb_obs_conn(v->obs, i), conns, callids, callid_first);
        int found;
        if (m->type == PB_TYPE_CALL) {
            if (preserve(&h) != PB_OK)
                goto out;
            uint32_t k = t->nrpc++;
            bl_rpc *r = &t->rpc[k];
            r->call = (uint32_t)i;
            r->ret = BL_NONE;
            r->src = m->src;
            r->dst = m->dst;
            r->out_start = m->ts;
            r->in_start = m->recv_ts != PB_TS_NONE ? m->recv_ts : m->ts;
            r->in_end = r->in_start;
            r->out_end = r->out_start;
            next[k] = BL_NONE;
            size_t j = pslot(&h, m->src, m->dst, cid, &found);
            pkey *e = &h.e[j];
            /* On a connection, a waiting return that the caller received
             * before it sent this call (both times on the caller's clock,
             * so no skew can make that) cannot be its answer: it answers
             * a call the capture lost.  Pairing it by order anyway shifts
             * every later call of a persistent connection onto the return
             * of the call before it; it is left out instead
             * (lost_call_returns, counted with the unpaired returns). */
            while (found && (cid >> 62) == 1 && e->rhead != BL_NONE &&
                   v->msgs[e->rhead].recv_ts != PB_TS_NONE && m->ts != PB_TS_NONE &&
                   v->msgs[e->rhead].recv_ts < m->ts) {
                e->rhead = rnext[e->rhead];
                t->lost_call_returns++;
            }
            if (found && e->rhead != BL_NONE) {
                /* its return came first */
                uint32_t ri = e->rhead;
                e->rhead = rnext[ri];
                set_return(r, ri, &v->msgs[ri]);
                t->early_returns++;
                if (e->rhead == BL_NONE && e->head == BL_NONE)
                    pdelete(&h, j);
            } else if (!found) {
                *e = (pkey){cid, m->src, m->dst, k, k, BL_NONE, BL_NONE};
                h.n++;
            } else if (e->head == BL_NONE) {
                e->head = e->tail = k;
            } else {
                /* another call of this key is still open */
                t->busy[k] = t->busy[e->tail] = 1;
                t->busy_calls++;
                next[e->tail] = k;
                e->tail = k;
            }
        } else if (m->type == PB_TYPE_RETURN) {
            if (preserve(&h) != PB_OK)
                goto out;
            size_t j = pslot(&h, m->dst, m->src, cid, &found);
            pkey *e = &h.e[j];
            if (!found) {
                *e = (pkey){cid, m->dst, m->src, BL_NONE, BL_NONE, BL_NONE, BL_NONE};
                h.n++;
            }
            if (e->head == BL_NONE) {
                /* no open call: wait for the next one */
                rnext[i] = BL_NONE;
                if (e->rhead == BL_NONE)
                    e->rhead = (uint32_t)i;
                else
                    rnext[e->rtail] = (uint32_t)i;
                e->rtail = (uint32_t)i;
                continue;
            }
            uint32_t k = e->head;
            if ((cid >> 62) == 1 && m->recv_ts != PB_TS_NONE &&
                v->msgs[t->rpc[k].call].ts != PB_TS_NONE &&
                m->recv_ts < v->msgs[t->rpc[k].call].ts) {
                /* received by the caller before it sent the oldest open
                 * call of the connection (the callee's clock ahead put it
                 * after that call in the trace): it answers a lost call,
                 * as above */
                t->lost_call_returns++;
                continue;
            }
            e->head = next[k];
            set_return(&t->rpc[k], (uint32_t)i, m);
            if (e->head == BL_NONE && e->rhead == BL_NONE)
                pdelete(&h, j);
        }
    }
    for (uint32_t k = 0; k < t->nrpc; k++)
        t->unpaired_calls += t->rpc[k].ret == BL_NONE;
    for (size_t j = 0; j < h.cap; j++)
        for (uint32_t ri = h.e[j].src != BL_NONE ? h.e[j].rhead : BL_NONE; ri != BL_NONE;
             ri = rnext[ri])
            t->unpaired_returns++;
    t->unpaired_returns += t->lost_call_returns;
    free(h.e);
    h = (ptab){0};
    free(rnext);
    rnext = NULL;

    /* 2. incoming lists, callers */
    for (uint32_t x = 0; x < nn; x++)
        caller[x] = BL_NONE;
    for (uint32_t k = 0; k < t->nrpc; k++) {
        const bl_rpc *r = &t->rpc[k];
        t->in_off[r->dst + 1]++;
        if (caller[r->dst] == BL_NONE)
            caller[r->dst] = r->src;
        else if (caller[r->dst] != r->src)
            t->multi[r->dst] = 1;
    }
    for (uint32_t x = 0; x < nn; x++)
        t->in_off[x + 1] += t->in_off[x];
    for (uint32_t x = 0; x < nn; x++)
        caller[x] = t->in_off[x];
    for (uint32_t k = 0; k < t->nrpc; k++)
        t->in[caller[t->rpc[k].dst]++] = k;
    for (uint32_t x = 0; x < nn; x++)
        sort_spans(t->rpc, t->in + t->in_off[x], t->in_off[x + 1] - t->in_off[x],
                   0, tmp);

    /* 3. endpoints, numbered by first call; then grouped by node */
    uint32_t nep = 0;
    for (uint32_t k = 0; k < t->nrpc; k++) {
        const bl_rpc *r = &t->rpc[k];
        int found;
        if (preserve(&h) != PB_OK)
            goto out;
        size_t j = pslot(&h, r->src, r->dst, 0, &found);
        if (!found) {
            h.e[j] = (pkey){0, r->src, r->dst, nep, 0, 0, 0};
            h.n++;
            nep++;
        }
        ep_of[k] = h.e[j].head;
        h.e[j].tail++; /* its number of calls */
    }
    t->nep = nep;
    t->ep = malloc((nep ? nep : 1) * sizeof *t->ep);
    bl_ep *byid = malloc((nep ? nep : 1) * sizeof *byid);
    uint32_t *slot = malloc((nep ? nep : 1) * sizeof *slot);
    t->node_order = malloc((nn ? nn : 1) * sizeof *t->node_order);
    if (!t->ep || !byid || !slot || !t->node_order) {
        free(byid);
        free(slot);
        goto out;
    }
    for (size_t j = 0; j < h.cap; j++)
        if (h.e[j].src != BL_NONE)
            byid[h.e[j].head] = (bl_ep){h.e[j].src, h.e[j].dst, 0, h.e[j].tail};
    for (uint32_t e = 0; e < nep; e++)
        t->ep_off[byid[e].node + 1]++;
    for (uint32_t x = 0; x < nn; x++)
        t->ep_off[x + 1] += t->ep_off[x];
    for (uint32_t x = 0; x < nn; x++)
        caller[x] = t->ep_off[x];
    /* endpoint ids follow first calls, so each node's come in that order;
     * nodes in the order of their first call */
    t->nnode_order = 0;
    for (uint32_t e = 0; e < nep; e++) {
        uint32_t x = byid[e].node;
        if (caller[x] == t->ep_off[x])
            t->node_order[t->nnode_order++] = x;
        slot[e] = caller[x]++;
        t->ep[slot[e]] = byid[e];
    }
    uint32_t off = 0;
    for (uint32_t s = 0; s < nep; s++) {
        t->ep[s].off = off;
        off += t->ep[s].n;
        t->ep[s].n = 0;
    }
    for (uint32_t k = 0; k < t->nrpc; k++) {
        bl_ep *e = &t->ep[slot[ep_of[k]]];
        t->out[e->off + e->n++] = k;
    }
    for (uint32_t s = 0; s < nep; s++)
        sort_spans(t->rpc, t->out + t->ep[s].off, t->ep[s].n, 1, tmp);
    for (uint32_t x = 0; x < nn; x++)
        t->multi_nodes += t->multi[x] && t->ep_off[x + 1] > t->ep_off[x];
    free(byid);
    free(slot);
    rc = PB_OK;
out:
    free(h.e);
    free(next);
    free(rnext);
    free(caller);
    free(ep_of);
    free(tmp);
    if (rc != PB_OK) {
        bl_table_free(t);
        return pb_error_set(err, rc, NULL, 0, 0, "out of memory");
    }
    return PB_OK;
}

/* ------------------------------------------------------------------ */
/* Instances */

/* memo: tree signature -> canonical text and positions */
typedef struct memo {
    uint64_t hash;
    uint32_t n;       /* 0: empty slot */
    uint32_t *sig;    /* 2n: (name, parent) per tree node */
    char *text;
} memo;

#define MEMO_MAX 65536

int bl_emit(const bl_table *t, uint32_t *parent, pb_result *res,
            pb_error *err)
{
    const pb_trace_view *v = t->v;
    const uint32_t n = t->nrpc;
    int rc = PB_ENOMEM;
    uint8_t *state = calloc(n ? n : 1, 1);
    uint32_t *walk = malloc(((size_t)n + 2) * sizeof *walk);
    uint32_t *first = malloc((n ? n : 1) * sizeof *first);
    uint32_t *sib = malloc((n ? n : 1) * sizeof *sib);
    uint32_t *trpc = malloc(((size_t)n + 2) * sizeof *trpc);
    uint32_t *sig = malloc(((size_t)n + 2) * 2 * sizeof *sig);
    pb_ptree tree = {0};
    pb_strbuf text = {0};
    memo *mt = NULL;
    size_t mcap = 0, nmemo = 0;
    size_t cycles = 0, instances = 0;
    uint32_t *pmsg = NULL;
    if (!state || !walk || !first || !sib || !trpc || !sig)
        goto out;

    /* cut parent cycles */
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
            cycles++;
        }
        while (nw)
            state[walk[--nw]] = 2;
    }
    /* each message's parent (the trace's cause, as nesting gives it) */
    if (!res->skip_assign) {
        uint32_t *cm = calloc((size_t)n + 1, sizeof *cm);
        uint32_t *rm = calloc((size_t)n + 1, sizeof *rm);
        pmsg = malloc((v->n ? v->n : 1) * sizeof *pmsg);
        if (!cm || !rm || !pmsg) {
            free(cm);
            free(rm);
            goto out;
        }
        for (uint32_t i = 0; i < n; i++) {
            cm[i] = t->rpc[i].call;
            rm[i] = t->rpc[i].ret;
        }
        rc = cvp_causes(v->msgs, v->n, n, cm, rm, parent, pmsg);
        free(cm);
        free(rm);
        if (rc != PB_OK)
            goto out;
        rc = PB_ENOMEM;
    }
    /* children in call order */
    for (uint32_t i = 0; i < n; i++)
        first[i] = sib[i] = BL_NONE;
    for (uint32_t i = n; i-- > 0;)
        if (parent[i] != BL_NONE) {
            sib[i] = first[parent[i]];
            first[parent[i]] = i;
        }

    for (uint32_t root = 0; root < n; root++) {
        if (parent[root] != BL_NONE)
            continue;
        /* the tree, pre-order by call order; walk[] is the stack */
        pb_ptree_reset(&tree);
        const bl_rpc *rr = &t->rpc[root];
        if ((rc = pb_ptree_add(&tree, PB_PTREE_NONE, rr->src, NULL)) != PB_OK ||
            (rc = pb_ptree_add(&tree, 0, rr->dst, NULL)) != PB_OK)
            goto out;
        trpc[0] = BL_NONE;
        trpc[1] = root;
        uint32_t sp = 0;
        walk[sp++] = 1;
        while (sp) {
            uint32_t tn = walk[--sp];
            uint32_t p = trpc[tn];
            /* push children in reverse so they are added in call order */
            uint32_t base = sp;
            for (uint32_t k = first[p]; k != BL_NONE; k = sib[k]) {
                uint32_t ti;
                if ((rc = pb_ptree_add(&tree, tn, t->rpc[k].dst, &ti)) != PB_OK)
                    goto out;
                trpc[ti] = k;
                walk[sp++] = ti;
            }
            for (uint32_t a = base, b = sp; a + 1 < b; a++, b--) {
                uint32_t s = walk[a];
                walk[a] = walk[b - 1];
                walk[b - 1] = s;
            }
        }
        /* canonical text, through the memo */
        uint32_t tnn = tree.n;
        uint64_t hsh = 1469598103934665603ULL;
        for (uint32_t i = 0; i < tnn; i++) {
            sig[2 * i] = tree.nodes[i].name;
            sig[2 * i + 1] = tree.nodes[i].parent;
            hsh = pb_mix64(hsh ^ (((uint64_t)tree.nodes[i].name << 32) |
                               tree.nodes[i].parent));
        }
        const char *tx = NULL;
        size_t slotj = 0;
        if (mcap) {
            for (slotj = hsh & (mcap - 1); mt[slotj].n; slotj = (slotj + 1) & (mcap - 1))
                if (mt[slotj].hash == hsh && mt[slotj].n == tnn &&
                    !memcmp(mt[slotj].sig, sig, (size_t)2 * tnn * sizeof *sig)) {
                    tx = mt[slotj].text;
                    break;
                }
        }
        if (!tx) {
            pb_strbuf_reset(&text);
            if ((rc = pb_ptree_canonical(&tree, v->nodes, &text, NULL)) != PB_OK)
                goto out;
            tx = pb_strbuf_str(&text);
            if (nmemo < MEMO_MAX) {
                if ((nmemo + 1) * 2 > mcap) {
                    size_t nc = mcap ? 2 * mcap : 256;
                    memo *nm = calloc(nc, sizeof *nm);
                    if (!nm)
                        goto nomem;
                    for (size_t a = 0; a < mcap; a++) {
                        if (!mt[a].n)
                            continue;
                        size_t b = mt[a].hash & (nc - 1);
                        while (nm[b].n)
                            b = (b + 1) & (nc - 1);
                        nm[b] = mt[a];
                    }
                    free(mt);
                    mt = nm;
                    mcap = nc;
                }
                for (slotj = hsh & (mcap - 1); mt[slotj].n; slotj = (slotj + 1) & (mcap - 1))
                    ;
                uint32_t *cs = malloc((size_t)2 * tnn * sizeof *cs);
                char *ct = malloc(text.len + 1);
                if (!cs || !ct) {
                    free(cs);
                    free(ct);
                    goto nomem;
                }
                memcpy(cs, sig, (size_t)2 * tnn * sizeof *cs);
                memcpy(ct, tx, text.len + 1);
                mt[slotj] = (memo){hsh, tnn, cs, ct};
                nmemo++;
            }
        }
        double total = rr->ret != BL_NONE
                           ? pb_ns_to_sec(v->msgs[rr->ret].ts - v->msgs[rr->call].ts)
                           : NAN;
        pb_pattern *pat;
        if ((rc = pb_pattab_add(res->patterns, tx, tnn, 1.0, total, NULL, NULL,
                                &pat)) != PB_OK)
            goto out;
        if (!res->skip_assign) {
            for (uint32_t i = 1; i < tnn; i++) {
                const bl_rpc *r = &t->rpc[trpc[i]];
                uint32_t m2[2] = {r->call, r->ret};
                for (int k = 0; k < 2; k++) {
                    if (m2[k] == BL_NONE)
                        continue;
                    uint32_t pm = pmsg[m2[k]];
                    if ((rc = pb_result_assign_link(res, v->msgs[m2[k]].id, instances,
                                                    pat->index,
                                                    pm == CVP_NONE ? PB_NO_PARENT
                                                                   : v->msgs[pm].id,
                                                    NAN)) != PB_OK)
                        goto out;
                }
            }
        }
        instances++;
    }
    rc = pb_result_meta(res, "rpcs=%u calls=%zu returns=%zu other_messages=%zu "
                             "unpaired_calls=%zu unpaired_returns=%zu early_returns=%zu "
                             "multi_caller_nodes=%zu cycles_cut=%zu instances=%zu",
                        n, t->calls, t->returns, t->others, t->unpaired_calls,
                        t->unpaired_returns, t->early_returns, t->multi_nodes, cycles, instances);
    if (rc == PB_OK && t->others)
        rc = pb_result_warn(res, "%zu messages are neither call nor return: "
                                 "left out (the baselines look at RPCs only)",
                            t->others);
    if (rc == PB_OK && t->unpaired_returns)
        rc = pb_result_warn(res, "%zu returns answer no open call: left out of "
                                 "every instance", t->unpaired_returns);
    if (rc == PB_OK && t->unpaired_calls)
        rc = pb_result_warn(res, "%zu calls have no return: each taken as a span "
                                 "that ends where it starts", t->unpaired_calls);
    if (rc == PB_OK && cycles)
        rc = pb_result_warn(res, "%zu parent cycles cut (each at the call where "
                                 "it was found, which then roots an instance)",
                            cycles);
    if (rc != PB_OK)
        goto out;
    rc = PB_OK;
    goto out;
nomem:
    rc = PB_ENOMEM;
out:
    for (size_t a = 0; a < mcap; a++) {
        free(mt[a].sig);
        free(mt[a].text);
    }
    free(mt);
    pb_ptree_free(&tree);
    pb_strbuf_free(&text);
    free(state);
    free(walk);
    free(first);
    free(sib);
    free(trpc);
    free(sig);
    free(pmsg);
    if (rc != PB_OK)
        return pb_error_set(err, rc, NULL, 0, 0, "out of memory");
    return PB_OK;
}
