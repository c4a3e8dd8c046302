/*
 * baseline_algos.c - the field's baselines as the TraceWeaver artifact
 * (SIGCOMM'24, github Sachin-A/TraceWeaver,
 * src/trace_reconstructor/ports/python/algorithms/) runs them:
 *
 *   fcfs     fcfs.py           i-th request gets the i-th call of every
 *                              endpoint
 *   arrival  arrival_order.py  FCFS on the first endpoint, then each
 *                              endpoint in the order in which the previous
 *                              one's calls completed
 *   vpath    vpath.py          one sweep over the node's events; an
 *                              outgoing call goes to the request in the
 *                              "latest incoming" register
 *   wap5tw   wap5.py           nearest earlier request within 4 mean
 *                              delays, every candidate examined used up
 *
 * Quirks of the artifact are reproduced by default and named in
 * docs/baselines.md; the clean variants are options.  Each run is
 * O(n log n) in the messages (the sorts), O(n) otherwise.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "pb_algo.h"
#include "precise.h"
#include "pb_sort.h"

typedef struct bl_params {
    int callids;
    const char *multi;       /* merge | skip */
    const char *order;       /* arrival: artifact | intended */
    const char *variant;     /* vpath: artifact | clean | paper */
    const char *view;        /* vpath paper: call | message */
    double window;           /* wap5tw: window in mean delays */
    int spontaneous;         /* wap5tw: the "Spontaneous" candidate */
    const char *mark;        /* wap5tw: examined | chosen */
    const char *pool;        /* wap5tw: callee | pair */
} bl_params;

#define OPT_CALLIDS                                                           \
    {"callids", PB_OPT_BOOL, offsetof(bl_params, callids), "1", PB_OPT_NORANGE, \
     "pair calls and returns by call id when the trace has them (else FIFO)"}
#define OPT_MULTI                                                             \
    {"multi_caller", PB_OPT_STRING, offsetof(bl_params, multi), "merge",       \
     PB_OPT_NORANGE,                                                           \
     "a node called by several nodes: merge (all its requests in one list) "   \
     "or skip (the artifact: assign nothing there)"}
#define OPT_END {NULL, PB_OPT_INT, 0, NULL, PB_OPT_NORANGE, NULL}

static const pb_option fcfs_options[] = {OPT_CALLIDS, OPT_MULTI, OPT_END};

static const pb_option arrival_options[] = {
    OPT_CALLIDS, OPT_MULTI,
    {"order", PB_OPT_STRING, offsetof(bl_params, order), "artifact", PB_OPT_NORANGE,
     "artifact: request i gets call argsort(completions)[i] of the next "
     "endpoint, as arrival_order.py indexes it (the inverse permutation); "
     "intended: the request whose call completed k-th gets the k-th call"},
    OPT_END};

static const pb_option vpath_options[] = {
    OPT_CALLIDS, OPT_MULTI,
    {"variant", PB_OPT_STRING, offsetof(bl_params, variant), "artifact",
     PB_OPT_NORANGE,
     "artifact: one 'latest incoming' register, set by a request's start and "
     "by the return of a call its thread made, cleared by any request's end "
     "(vpath.py); clean: every call goes to the request its thread serves; "
     "paper: Algorithm 1 of the paper (request intervals on the reply-sending "
     "thread, pairing by order on the connection; docs/precise.md)"},
    {"view", PB_OPT_STRING, offsetof(bl_params, view), "call", PB_OPT_NORANGE,
     "variant=paper only: call or message view (artifact and clean: call)"},
    OPT_END};

static const pb_option wap5tw_options[] = {
    OPT_CALLIDS, OPT_MULTI,
    {"window_delays", PB_OPT_DOUBLE, offsetof(bl_params, window), "4", 0, 1e9,
     "candidate requests started at most this many mean delays before the "
     "call (wap5.py: magic_delay 4)"},
    {"spontaneous", PB_OPT_BOOL, offsetof(bl_params, spontaneous), "1",
     PB_OPT_NORANGE,
     "a call with anything older than the window before it may be "
     "'Spontaneous' (no parent) at the density of the window's edge"},
    {"mark", PB_OPT_STRING, offsetof(bl_params, mark), "examined", PB_OPT_NORANGE,
     "examined: every candidate a call looks at is used up (wap5.py's "
     "already_picked); chosen: only the chosen one"},
    {"pool", PB_OPT_STRING, offsetof(bl_params, pool), "callee", PB_OPT_NORANGE,
     "delay samples pooled per callee name across callers, in the order "
     "nodes first call (wap5.py's distribution_values), or per (caller, "
     "callee) pair"},
    /* old name (one meaning per name: window is nesting's duration) */
    {"window", PB_OPT_ALIAS, 0, "window_delays", PB_OPT_NORANGE, NULL},
    OPT_END};

static int bad_choice(pb_error *err, const char *opt, const char *val,
                      const char *expected)
{
    return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                        "option %s: \"%s\"; expected %s", opt, val, expected);
}

/* Nodes a baseline looks at: they were called and make calls. */
static int node_skipped(const bl_table *t, const bl_params *p, uint32_t x,
                        size_t *skipped)
{
    if (t->ep_off[x + 1] == t->ep_off[x] || t->in_off[x + 1] == t->in_off[x])
        return 1;
    if (t->multi[x] && !strcmp(p->multi, "skip")) {
        (*skipped)++;
        return 1;
    }
    return 0;
}

static int check_multi(const bl_params *p, pb_error *err)
{
    if (strcmp(p->multi, "merge") && strcmp(p->multi, "skip"))
        return bad_choice(err, "multi_caller", p->multi, "merge or skip");
    return PB_OK;
}

typedef int (*bl_assign_fn)(const bl_table *t, const bl_params *p,
                            uint32_t *parent, pb_result *res, pb_error *err);

static int run_baseline(const pb_trace_view *v, const bl_params *p,
                        pb_result *res, pb_error *err, bl_assign_fn fn)
{
    int rc = check_multi(p, err);
    if (rc != PB_OK)
        return rc;
    bl_table t;
    if ((rc = bl_table_build(&t, v, p->callids, err)) != PB_OK)
        return rc;
    uint32_t *parent = malloc(((size_t)t.nrpc + 1) * sizeof *parent);
    if (!parent) {
        bl_table_free(&t);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    for (uint32_t i = 0; i < t.nrpc; i++)
        parent[i] = BL_NONE;
    rc = fn(&t, p, parent, res, err);
    if (rc == PB_OK)
        rc = bl_emit(&t, parent, res, err);
    if (rc == PB_OK && t.multi_nodes && !strcmp(p->multi, "merge"))
        rc = pb_result_meta(res, "multi_caller_merged=%zu", t.multi_nodes);
    free(parent);
    bl_table_free(&t);
    return rc;
}

static int skipped_meta(pb_result *res, size_t skipped)
{
    if (!skipped)
        return PB_OK;
    int rc = pb_result_meta(res, "multi_caller_skipped=%zu", skipped);
    if (rc == PB_OK)
        rc = pb_result_warn(res, "%zu nodes called by several nodes skipped "
                                 "(multi_caller=skip): their calls root their "
                                 "own instances", skipped);
    return rc;
}

/* ------------------------------------------------------------------ */
/* fcfs */

static int fcfs_assign(const bl_table *t, const bl_params *p, uint32_t *parent,
                       pb_result *res, pb_error *err)
{
    (void)err;
    size_t skipped = 0;
    for (uint32_t x = 0; x < t->nnodes; x++) {
        if (node_skipped(t, p, x, &skipped))
            continue;
        const uint32_t *in = t->in + t->in_off[x];
        uint32_t nin = t->in_off[x + 1] - t->in_off[x];
        for (uint32_t s = t->ep_off[x]; s < t->ep_off[x + 1]; s++) {
            const bl_ep *e = &t->ep[s];
            uint32_t m = nin < e->n ? nin : e->n;
            for (uint32_t k = 0; k < m; k++)
                parent[t->out[e->off + k]] = in[k];
        }
    }
    return skipped_meta(res, skipped);
}

static int fcfs_run(const pb_trace_view *v, const void *params, pb_result *res,
                    pb_error *err)
{
    return run_baseline(v, params, res, err, fcfs_assign);
}

/* ------------------------------------------------------------------ */
/* arrival order */

typedef struct endkey {
    pb_ns end;
    uint32_t pos;
} endkey;

static int cmp_endkey(const void *a, const void *b)
{
    const endkey *x = a, *y = b;
    if (x->end != y->end)
        return x->end < y->end ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

typedef struct epkey {
    pb_ns first;
    uint32_t slot;
} epkey;

static int cmp_epkey(const void *a, const void *b)
{
    const epkey *x = a, *y = b;
    if (x->first != y->first)
        return x->first < y->first ? -1 : 1;
    return x->slot < y->slot ? -1 : x->slot > y->slot;
}

static int arrival_assign(const bl_table *t, const bl_params *p,
                          uint32_t *parent, pb_result *res, pb_error *err)
{
    int intended;
    if (!strcmp(p->order, "artifact"))
        intended = 0;
    else if (!strcmp(p->order, "intended"))
        intended = 1;
    else
        return bad_choice(err, "order", p->order, "artifact or intended");
    size_t n = (size_t)t->nrpc + 1;
    uint32_t *prev = malloc(n * sizeof *prev), *cur = malloc(n * sizeof *cur);
    endkey *ord = malloc(n * sizeof *ord);
    epkey *eps = malloc(((size_t)t->nep + 1) * sizeof *eps);
    if (!prev || !cur || !ord || !eps) {
        free(prev);
        free(cur);
        free(ord);
        free(eps);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    size_t skipped = 0;
    for (uint32_t x = 0; x < t->nnodes; x++) {
        if (node_skipped(t, p, x, &skipped))
            continue;
        const uint32_t *in = t->in + t->in_off[x];
        uint32_t nin = t->in_off[x + 1] - t->in_off[x];
        /* endpoints by their first call's start (GetOutEpsInOrder) */
        uint32_t ne = 0;
        for (uint32_t s = t->ep_off[x]; s < t->ep_off[x + 1]; s++)
            eps[ne++] = (epkey){t->rpc[t->out[t->ep[s].off]].out_start, s};
        pb_sort(eps, ne, sizeof *eps, cmp_epkey);
        uint32_t np = 0;
        for (uint32_t i = 0; i < ne; i++) {
            const bl_ep *e = &t->ep[eps[i].slot];
            const uint32_t *ol = t->out + e->off;
            uint32_t nc;
            if (i == 0) {
                memcpy(cur, ol, (size_t)e->n * sizeof *cur);
                nc = e->n;
            } else {
                /* stable argsort of the previous list by completion */
                for (uint32_t k = 0; k < np; k++)
                    ord[k] = (endkey){prev[k] == BL_NONE ? INT64_MAX
                                                         : t->rpc[prev[k]].out_end,
                                      k};
                pb_sort(ord, np, sizeof *ord, cmp_endkey);
                if (!intended) {
                    /* out = cur_sorted[sort_order], sort_order as written */
                    nc = 0;
                    if (np <= e->n) {
                        for (uint32_t k = 0; k < np; k++)
                            cur[nc++] = ol[ord[k].pos];
                        for (uint32_t k = np; k < e->n; k++)
                            cur[nc++] = ol[k];
                    } else {
                        for (uint32_t k = 0; k < np; k++)
                            if (ord[k].pos < e->n)
                                cur[nc++] = ol[ord[k].pos];
                    }
                } else {
                    /* the request whose call completed k-th gets call k */
                    nc = np > e->n ? np : e->n;
                    for (uint32_t k = 0; k < nc; k++)
                        cur[k] = BL_NONE;
                    uint32_t m = np < e->n ? np : e->n;
                    for (uint32_t k = 0; k < m; k++)
                        cur[ord[k].pos] = ol[k];
                    for (uint32_t k = np; k < e->n; k++)
                        cur[k] = ol[k];
                }
            }
            uint32_t m = nin < nc ? nin : nc;
            for (uint32_t k = 0; k < m; k++)
                if (cur[k] != BL_NONE)
                    parent[cur[k]] = in[k];
            uint32_t *sw = prev;
            prev = cur;
            cur = sw;
            np = nc;
        }
    }
    free(prev);
    free(cur);
    free(ord);
    free(eps);
    return skipped_meta(res, skipped);
}

static int arrival_run(const pb_trace_view *v, const void *params,
                       pb_result *res, pb_error *err)
{
    return run_baseline(v, params, res, err, arrival_assign);
}

/* ------------------------------------------------------------------ */
/* vPath */

enum { EV_IN_START = 1, EV_OUT_START = 2, EV_OUT_END = 3, EV_IN_END = 4 };

typedef struct event {
    pb_ns t;
    uint32_t kind, seq, rpc;
} event;


static inline int ev_less(const event *x, const event *y)
{
    if (x->t != y->t)
        return x->t < y->t;
    if (x->kind != y->kind)
        return x->kind < y->kind;
    return x->seq < y->seq;
}

/* Stable bottom-up merge sort of ev[0..n) (tmp: n entries), inlined
 * comparisons: the event lists come in a few sorted runs, and qsort's
 * indirect calls cost a third of vpath's time. */
static void sort_events(event *ev, event *tmp, size_t n)
{
    /* runs of 16 by insertion sort */
    for (size_t a = 0; a < n; a += 16) {
        size_t b = a + 16 < n ? a + 16 : n;
        for (size_t i = a + 1; i < b; i++) {
            event x = ev[i];
            size_t j = i;
            while (j > a && ev_less(&x, &ev[j - 1])) {
                ev[j] = ev[j - 1];
                j--;
            }
            ev[j] = x;
        }
    }
    event *src = ev, *dst = tmp;
    for (size_t w = 16; w < n; w *= 2) {
        for (size_t a = 0; a < n; a += 2 * w) {
            size_t m = a + w < n ? a + w : n, b = a + 2 * w < n ? a + 2 * w : n;
            size_t i = a, j = m, k = a;
            if (m == b || !ev_less(&src[m], &src[m - 1])) {
                memcpy(dst + a, src + a, (b - a) * sizeof *src); /* in order */
                continue;
            }
            while (i < m && j < b)
                dst[k++] = ev_less(&src[j], &src[i]) ? src[j++] : src[i++];
            while (i < m)
                dst[k++] = src[i++];
            while (j < b)
                dst[k++] = src[j++];
        }
        event *sw = src;
        src = dst;
        dst = sw;
    }
    if (src != ev)
        memcpy(ev, src, n * sizeof *ev);
}

static int vpath_assign(const bl_table *t, const bl_params *p, uint32_t *parent,
                        pb_result *res, pb_error *err)
{
    int clean;
    if (!strcmp(p->variant, "artifact"))
        clean = 0;
    else if (!strcmp(p->variant, "clean"))
        clean = 1;
    else
        return bad_choice(err, "variant", p->variant, "artifact, clean or paper");
    const pb_obs *obs = t->v->obs;
    int has_thread = (t->v->columns & PB_COL_THREAD) != 0;
    uint32_t maxth = 0;
    for (size_t i = 0; has_thread && i < t->v->n; i++)
        if (pb_obs_thread(obs, i) > maxth)
            maxth = pb_obs_thread(obs, i);
    size_t n = (size_t)t->nrpc + 1;
    event *ev = malloc(2 * (2 * n) * sizeof *ev);
    event *evtmp = malloc(2 * (2 * n) * sizeof *evtmp);
    uint32_t *stack = malloc(n * sizeof *stack);
    uint8_t *ended = calloc(n, 1);
    uint32_t *thr_req = malloc(((size_t)maxth + 1) * sizeof *thr_req);
    uint32_t *thr_node = malloc(((size_t)maxth + 1) * sizeof *thr_node);
    if (!ev || !evtmp || !stack || !ended || !thr_req || !thr_node) {
        free(ev);
        free(evtmp);
        free(stack);
        free(ended);
        free(thr_req);
        free(thr_node);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    for (uint32_t i = 0; i <= maxth; i++)
        thr_node[i] = BL_NONE;
    size_t skipped = 0, by_thread = 0, guessed = 0, unknown_thread = 0,
           no_request = 0, overwrites = 0;
    for (uint32_t x = 0; x < t->nnodes; x++) {
        if (node_skipped(t, p, x, &skipped))
            continue;
        size_t ne = 0;
        uint32_t seq = 0;
        for (uint32_t k = t->in_off[x]; k < t->in_off[x + 1]; k++) {
            const bl_rpc *r = &t->rpc[t->in[k]];
            ev[ne++] = (event){r->in_start, EV_IN_START, seq++, t->in[k]};
            ev[ne++] = (event){r->in_end, EV_IN_END, seq++, t->in[k]};
        }
        for (uint32_t s = t->ep_off[x]; s < t->ep_off[x + 1]; s++)
            for (uint32_t k = 0; k < t->ep[s].n; k++) {
                uint32_t o = t->out[t->ep[s].off + k];
                const bl_rpc *r = &t->rpc[o];
                ev[ne++] = (event){r->out_start, EV_OUT_START, seq++, o};
                ev[ne++] = (event){r->out_end, EV_OUT_END, seq++, o};
            }
        sort_events(ev, evtmp, ne);
        uint32_t reg = BL_NONE, sp = 0;
        for (size_t i = 0; i < ne; i++) {
            const event *e = &ev[i];
            const bl_rpc *r = &t->rpc[e->rpc];
            uint32_t th = 0;
            switch (e->kind) {
            case EV_IN_START:
                reg = e->rpc;
                stack[sp++] = e->rpc;
                th = pb_obs_thread(obs, r->call);
                if (th) {
                    thr_req[th] = e->rpc;
                    thr_node[th] = x;
                }
                break;
            case EV_IN_END:
                if (!clean)
                    reg = BL_NONE;
                ended[e->rpc] = 1;
                break;
            case EV_OUT_START:
                if (clean) {
                    th = r->ret != BL_NONE ? pb_obs_thread(obs, r->ret) : 0;
                    uint32_t q = BL_NONE;
                    if (th && thr_node[th] == x) {
                        q = thr_req[th];
                        by_thread++;
                    } else {
                        while (sp && ended[stack[sp - 1]])
                            sp--;
                        q = sp ? stack[sp - 1] : BL_NONE;
                        guessed++;
                    }
                    parent[e->rpc] = q;
                    no_request += q == BL_NONE;
                } else {
                    parent[e->rpc] = reg;
                    no_request += reg == BL_NONE;
                }
                break;
            case EV_OUT_END:
                if (clean)
                    break;
                th = r->ret != BL_NONE ? pb_obs_thread(obs, r->ret) : 0;
                if (th) {
                    /* ReturnParent: the request that made the call */
                    if (thr_node[th] == x) {
                        reg = thr_req[th];
                        by_thread++;
                    } else {
                        unknown_thread++;
                    }
                } else {
                    while (sp && ended[stack[sp - 1]])
                        sp--;
                    reg = sp ? stack[sp - 1] : BL_NONE;
                    guessed++;
                }
                break;
            default:
                break;
            }
        }
    }
    /* overwrites: several calls to one endpoint given to one request */
    for (uint32_t x = 0; x < t->nnodes; x++)
        for (uint32_t s = t->ep_off[x]; s < t->ep_off[x + 1]; s++) {
            const bl_ep *e = &t->ep[s];
            for (uint32_t k = 0; k < e->n; k++)
                ended[t->out[e->off + k]] = 0;
            for (uint32_t k = 0; k < e->n; k++) {
                uint32_t q = parent[t->out[e->off + k]];
                if (q == BL_NONE)
                    continue;
                /* mark the request (an RPC index) once per endpoint */
                if (ended[q] == 2)
                    overwrites++;
                ended[q] = 2;
            }
            for (uint32_t k = 0; k < e->n; k++) {
                uint32_t q = parent[t->out[e->off + k]];
                if (q != BL_NONE)
                    ended[q] = 0;
            }
        }
    int rc = skipped_meta(res, skipped);
    if (rc == PB_OK)
        rc = pb_result_meta(res, "vpath_variant=%s thread_column=%d by_thread=%zu "
                                 "guessed_latest_active=%zu unknown_thread=%zu "
                                 "calls_without_request=%zu overwrites=%zu",
                            clean ? "clean" : "artifact", has_thread, by_thread,
                            guessed, unknown_thread, no_request, overwrites);
    if (rc == PB_OK && guessed)
        rc = pb_result_warn(res, "%s: %zu times the request that made a call was "
                                 "guessed as the latest-started incoming request "
                                 "still active (vPath knows it from the thread; "
                                 "importtrace --thread fills the column)",
                            has_thread ? "thread labels missing"
                                       : "the trace has no thread column",
                            guessed);
    free(ev);
    free(evtmp);
    free(stack);
    free(ended);
    free(thr_req);
    free(thr_node);
    return rc;
}

static int vpath_run(const pb_trace_view *v, const void *params, pb_result *res,
                     pb_error *err)
{
    const bl_params *p = params;
    if (!strcmp(p->variant, "paper"))
        return pr_vpath_paper(v, p->callids, p->view, res, err);
    if (strcmp(p->view, "call"))
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "option view: \"%s\" needs variant=paper; the %s "
                            "variant gives the call view only", p->view, p->variant);
    return run_baseline(v, params, res, err, vpath_assign);
}

/* ------------------------------------------------------------------ */
/* TraceWeaver's WAP5 variant */

/* Nearest unpicked index <= k (mark=chosen), with path halving; idx+1
 * stored so that 0 means "none left". */
static uint32_t uf_find(uint32_t *left, uint32_t k1)
{
    while (left[k1] != k1) {
        left[k1] = left[left[k1]];
        k1 = left[k1];
    }
    return k1;
}

static int wap5tw_assign(const bl_table *t, const bl_params *p,
                         uint32_t *parent, pb_result *res, pb_error *err)
{
    int chosen_only, per_pair;
    if (!strcmp(p->mark, "examined"))
        chosen_only = 0;
    else if (!strcmp(p->mark, "chosen"))
        chosen_only = 1;
    else
        return bad_choice(err, "mark", p->mark, "examined or chosen");
    if (!strcmp(p->pool, "callee"))
        per_pair = 0;
    else if (!strcmp(p->pool, "pair"))
        per_pair = 1;
    else
        return bad_choice(err, "pool", p->pool, "callee or pair");
    double *sum = calloc((size_t)t->nnodes + 1, sizeof *sum);
    size_t *cnt = calloc((size_t)t->nnodes + 1, sizeof *cnt);
    uint32_t *left = malloc(((size_t)t->nrpc + 2) * sizeof *left);
    if (!sum || !cnt || !left) {
        free(sum);
        free(cnt);
        free(left);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    size_t skipped = 0, spont = 0, none = 0, nosample = 0, assigned = 0;
    for (uint32_t oi = 0; oi < t->nnode_order; oi++) {
        uint32_t x = t->node_order[oi];
        if (node_skipped(t, p, x, &skipped))
            continue;
        const uint32_t *in = t->in + t->in_off[x];
        uint32_t nin = t->in_off[x + 1] - t->in_off[x];
        pb_ns large = INT64_MIN;
        for (uint32_t k = 0; k < nin; k++) {
            pb_ns d = t->rpc[in[k]].in_end - t->rpc[in[k]].in_start;
            if (d > large)
                large = d;
        }
        for (uint32_t s = t->ep_off[x]; s < t->ep_off[x + 1]; s++) {
            const bl_ep *e = &t->ep[s];
            const uint32_t *ol = t->out + e->off;
            uint32_t pk = per_pair ? t->nnodes : e->dst;
            if (per_pair)
                sum[pk] = 0, cnt[pk] = 0;
            /* BuildDistributions: gap to the nearest earlier request */
            uint32_t hi = 0;
            for (uint32_t k = 0; k < e->n; k++) {
                pb_ns sent = t->rpc[ol[k]].out_start;
                while (hi < nin && t->rpc[in[hi]].in_start <= sent)
                    hi++;
                if (hi && sent - t->rpc[in[hi - 1]].in_start <= large) {
                    sum[pk] += (double)(sent - t->rpc[in[hi - 1]].in_start);
                    cnt[pk]++;
                }
            }
            if (!cnt[pk]) {
                nosample += e->n;
                continue;
            }
            double mean = sum[pk] / (double)cnt[pk];
            double w = p->window * mean;
            pb_ns first = t->rpc[ol[0]].out_start;
            if (nin && t->rpc[in[0]].in_start < first)
                first = t->rpc[in[0]].in_start;
            /* ScoreParents */
            uint32_t lo = 0, prev_hi = 0;
            hi = 0;
            for (uint32_t k = 0; k <= nin; k++)
                left[k] = k; /* left[k+1] = k+1: index k unpicked */
            for (uint32_t k = 0; k < e->n; k++) {
                pb_ns sent = t->rpc[ol[k]].out_start;
                while (hi < nin && t->rpc[in[hi]].in_start <= sent)
                    hi++;
                while (lo < hi && (double)(sent - t->rpc[in[lo]].in_start) > w)
                    lo++;
                /* anything before this call (in the merged order) that is
                 * older than the window makes "Spontaneous" a candidate */
                int has_before = hi > 0 || k > 0;
                int sp_cand = p->spontaneous && has_before &&
                              (double)(sent - first) > w;
                uint32_t best = BL_NONE;
                if (!chosen_only) {
                    uint32_t from = lo > prev_hi ? lo : prev_hi;
                    if (from < hi) {
                        best = hi - 1;
                        pb_ns bs = t->rpc[in[best]].in_start;
                        while (best > from && t->rpc[in[best - 1]].in_start == bs)
                            best--;
                    }
                    if (hi > prev_hi)
                        prev_hi = hi;
                } else if (hi > lo) {
                    uint32_t f = uf_find(left, hi); /* f-1 is the index */
                    if (f > lo) {
                        best = f - 1;
                        pb_ns bs = t->rpc[in[best]].in_start;
                        for (;;) {
                            uint32_t g = best > lo ? uf_find(left, best) : 0;
                            if (g > lo && t->rpc[in[g - 1]].in_start == bs)
                                best = g - 1;
                            else
                                break;
                        }
                    }
                }
                double gap = best == BL_NONE
                                 ? INFINITY
                                 : (double)(sent - t->rpc[in[best]].in_start);
                if (best != BL_NONE && !(sp_cand && !(gap < w))) {
                    parent[ol[k]] = in[best];
                    assigned++;
                    if (chosen_only)
                        left[best + 1] = best;
                } else if (best != BL_NONE || sp_cand) {
                    spont++;
                } else {
                    none++;
                }
            }
        }
    }
    int rc = skipped_meta(res, skipped);
    if (rc == PB_OK)
        rc = pb_result_meta(res, "wap5tw_assigned=%zu spontaneous=%zu "
                                 "no_candidate=%zu no_delay_sample=%zu",
                            assigned, spont, none, nosample);
    if (rc == PB_OK && nosample)
        rc = pb_result_warn(res, "%zu calls left without a parent: their endpoint "
                                 "has no delay sample (no request started within "
                                 "the longest request before any of its calls)",
                            nosample);
    free(sum);
    free(cnt);
    free(left);
    return rc;
}

static int wap5tw_run(const pb_trace_view *v, const void *params,
                      pb_result *res, pb_error *err)
{
    return run_baseline(v, params, res, err, wap5tw_assign);
}

/* ------------------------------------------------------------------ */

const pb_algo pb_algo_fcfs = {
    "fcfs", "call",
    "baseline (TraceWeaver artifact): i-th request of a node gets the i-th "
    "call to each callee",
    fcfs_options, sizeof(bl_params), fcfs_run, NULL};

const pb_algo pb_algo_arrival = {
    "arrival", "call",
    "baseline (TraceWeaver artifact): FCFS on the first callee, then the "
    "previous callee's completion order",
    arrival_options, sizeof(bl_params), arrival_run, NULL};

const pb_algo pb_algo_vpath = {
    "vpath", "call",
    "baseline (TraceWeaver artifact's vPath): latest incoming request, "
    "restored by the thread column",
    vpath_options, sizeof(bl_params), vpath_run, NULL};

const pb_algo pb_algo_wap5tw = {
    "wap5tw", "call",
    "baseline (TraceWeaver artifact's WAP5 variant): nearest earlier "
    "request within 4 mean delays, candidates used up",
    wap5tw_options, sizeof(bl_params), wap5tw_run, NULL};
