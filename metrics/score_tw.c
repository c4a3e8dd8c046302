/*
 * score_tw.c - TraceWeaver's end-to-end accuracy (`tw_accuracy`), counted
 * as the artifact's GetGroundTruth and AccuracyEndToEnd (helpers/utils.py
 * of github Sachin-A/TraceWeaver) count it, on any trace and any result
 * that ascribes messages to instances.  Definitions: docs/metrics.md.
 *
 * Everything is sorted tables and binary search: O(n log n) in the
 * messages, no per-node quadratic scans.
 */
#include "score.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

#define NOIDX UINT32_MAX
#define NOINST UINT64_MAX

typedef struct idrow {
    uint64_t id;
    uint32_t idx;
} idrow;

/* (key, src, dst) -> message index: key is an instance id (predicted) or
 * a path label (true) */
typedef struct krow {
    uint64_t key;
    uint32_t src, dst;
    uint32_t idx;
} krow;

typedef struct prow {
    uint64_t path;
    int ok;
} prow;

static int cmp_idrow(const void *a, const void *b)
{
    const idrow *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

static int cmp_krow(const void *a, const void *b)
{
    const krow *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    if (x->dst != y->dst)
        return x->dst < y->dst ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int cmp_prow(const void *a, const void *b)
{
    const prow *x = a, *y = b;
    return x->path < y->path ? -1 : x->path > y->path;
}

static int cmp_pair(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* First row of (key, src, dst) in the sorted table, or SIZE_MAX. */
static size_t kfind(const krow *k, size_t n, uint64_t key, uint32_t src,
                    uint32_t dst)
{
    size_t lo = 0, hi = n;
    krow probe = {key, src, dst, 0};
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_krow(&k[mid], &probe) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < n && k[lo].key == key && k[lo].src == src && k[lo].dst == dst)
        return lo;
    return SIZE_MAX;
}

int score_tw_compute(score_report *rep, const pb_trace *t,
                     const score_result *r, pb_error *err)
{
    rep->tw_accuracy = NAN;
    rep->tw_requests = rep->tw_right = rep->tw_nodes = rep->tw_skipped_nodes = 0;
    if (!t->truth || !(t->columns & PB_COL_PATH))
        return pb_error_set(err, PB_EINVAL, t->source, 0, 0,
                            "no path column; expected the trace with truth "
                            "columns the result is scored against");
    if (!r->has_assign)
        return PB_OK;
    const size_t n = t->n;
    const uint32_t nn = pb_strtab_count(t->names->nodes);
    int rc = PB_ENOMEM;
    idrow *ids = malloc((n ? n : 1) * sizeof *ids);
    uint64_t *inst = malloc((n ? n : 1) * sizeof *inst);
    uint32_t *caller = malloc((nn ? nn : 1) * sizeof *caller);
    unsigned char *flags = calloc(nn ? nn : 1, 1);
    krow *pred = malloc((n ? n : 1) * sizeof *pred);
    krow *truth = malloc((n ? n : 1) * sizeof *truth);
    uint64_t *eps = malloc((n ? n : 1) * sizeof *eps);
    prow *req = malloc((n ? n : 1) * sizeof *req);
    uint32_t *ep_off = calloc((size_t)nn + 1, sizeof *ep_off);
    if (!ids || !inst || !caller || !flags || !pred || !truth || !eps || !req ||
        !ep_off)
        goto out;
    enum { F_MULTI = 1, F_OUT = 2, F_SCORED = 4, F_CALLED = 8 };

    /* message id -> index, and the inferred instance of each message */
    for (size_t i = 0; i < n; i++) {
        ids[i] = (idrow){t->msgs[i].id, (uint32_t)i};
        inst[i] = NOINST;
    }
    pb_sort(ids, n, sizeof *ids, cmp_idrow);
    uint64_t m = rep->opts.min_instances > 1 ? rep->opts.min_instances : 1;
    for (size_t a = 0; a < r->nassign; a++) {
        const score_assign *as = &r->assign[a];
        if (r->pats[as->pattern].count < m)
            continue; /* pattern dropped by -m: as if not ascribed */
        idrow probe = {as->id, 0};
        const idrow *hit = pb_search(&probe, ids, n, sizeof *ids, cmp_idrow);
        if (!hit) {
            rc = pb_error_set(err, PB_ENOENT, r->file, as->line, 0,
                              "message id %llu is not in the truth trace; "
                              "expected the ids of the trace the result was "
                              "inferred from", (unsigned long long)as->id);
            goto out;
        }
        inst[hit->idx] = as->instance;
    }

    /* callers and callees of each node (calls only) */
    size_t neps = 0;
    for (uint32_t v = 0; v < nn; v++)
        caller[v] = NOIDX;
    for (size_t i = 0; i < n; i++) {
        const pb_msg *g = &t->msgs[i];
        if (g->type != PB_TYPE_CALL)
            continue;
        flags[g->src] |= F_OUT;
        if (!(flags[g->dst] & F_CALLED)) {
            flags[g->dst] |= F_CALLED;
            caller[g->dst] = g->src;
        } else if (caller[g->dst] != g->src) {
            flags[g->dst] |= F_MULTI;
        }
        eps[neps++] = ((uint64_t)g->src << 32) | g->dst;
    }
    for (uint32_t v = 0; v < nn; v++) {
        if ((flags[v] & (F_OUT | F_CALLED)) != (F_OUT | F_CALLED))
            continue;
        if (flags[v] & F_MULTI) {
            rep->tw_skipped_nodes++;
        } else {
            flags[v] |= F_SCORED;
            rep->tw_nodes++;
        }
    }
    /* endpoints of each node: distinct callees, in node-index order */
    pb_sort(eps, neps, sizeof *eps, cmp_pair);
    size_t ne = 0;
    for (size_t i = 0; i < neps; i++)
        if (!ne || eps[i] != eps[ne - 1])
            eps[ne++] = eps[i];
    for (size_t i = 0; i < ne; i++)
        ep_off[(eps[i] >> 32) + 1]++;
    for (uint32_t v = 0; v < nn; v++)
        ep_off[v + 1] += ep_off[v];

    /* outgoing calls of scored nodes, by inferred instance and by path */
    size_t np = 0, nt = 0;
    for (size_t i = 0; i < n; i++) {
        const pb_msg *g = &t->msgs[i];
        if (g->type != PB_TYPE_CALL || !(flags[g->src] & F_SCORED))
            continue;
        if (inst[i] != NOINST)
            pred[np++] = (krow){inst[i], g->src, g->dst, (uint32_t)i};
        if (t->truth[i].path != PB_ID_NONE)
            truth[nt++] = (krow){t->truth[i].path, g->src, g->dst, (uint32_t)i};
    }
    pb_sort(pred, np, sizeof *pred, cmp_krow);
    pb_sort(truth, nt, sizeof *truth, cmp_krow);

    /* every incoming call of a scored node: each endpoint's entry */
    size_t nr = 0;
    for (size_t i = 0; i < n; i++) {
        const pb_msg *g = &t->msgs[i];
        uint64_t path = t->truth[i].path;
        if (g->type != PB_TYPE_CALL || !(flags[g->dst] & F_SCORED) ||
            path == PB_ID_NONE)
            continue;
        uint32_t v = g->dst;
        int ok = 1;
        for (uint32_t e = ep_off[v]; ok && e < ep_off[v + 1]; e++) {
            uint32_t dst = (uint32_t)eps[e];
            /* the artifact's truth: the first call of the same trace */
            size_t k = kfind(truth, nt, path, v, dst);
            uint32_t want = k == SIZE_MAX ? NOIDX : truth[k].idx;
            /* its prediction: the last call ascribed to the instance */
            uint32_t got = NOIDX;
            if (inst[i] != NOINST) {
                k = kfind(pred, np, inst[i], v, dst);
                if (k != SIZE_MAX) {
                    while (k + 1 < np && pred[k + 1].key == inst[i] &&
                           pred[k + 1].src == v && pred[k + 1].dst == dst)
                        k++;
                    got = pred[k].idx;
                }
            }
            ok = got == want;
        }
        req[nr++] = (prow){path, ok};
    }
    pb_sort(req, nr, sizeof *req, cmp_prow);
    for (size_t i = 0; i < nr;) {
        size_t j = i;
        int ok = 1;
        for (; j < nr && req[j].path == req[i].path; j++)
            ok &= req[j].ok;
        rep->tw_requests++;
        rep->tw_right += (size_t)ok;
        i = j;
    }
    if (rep->tw_requests)
        rep->tw_accuracy = (double)rep->tw_right / (double)rep->tw_requests;
    rc = PB_OK;
out:
    if (rc == PB_ENOMEM)
        pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    free(ids);
    free(inst);
    free(caller);
    free(flags);
    free(pred);
    free(truth);
    free(eps);
    free(req);
    free(ep_off);
    return rc;
}
