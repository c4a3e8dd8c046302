/*
 * assume.c - the assumption meters (assume.h): immediacy and the thread
 * pattern, from a trace's truth and its thread / sthread columns.
 *
 * Cost: O(n log n) sorts, plus, for the thread pattern, the sends of the
 * reply's thread inside each visit's interval (small unless one thread
 * serves many visits at once, as an event loop does).
 */
#include "assume.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

typedef struct kv {
    uint64_t k;
    uint64_t t;   /* a time or a second key */
    size_t i;
} kv;

static int kv_cmp(const void *a, const void *b)
{
    const kv *x = a, *y = b;
    if (x->k != y->k)
        return x->k < y->k ? -1 : 1;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* Index of the first entry of v[0..n) with key k and t >= tmin, or n. */
static size_t kv_lower(const kv *v, size_t n, uint64_t k, uint64_t tmin)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid].k < k || (v[mid].k == k && v[mid].t < tmin))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* ts as an order-preserving unsigned key */
static uint64_t tkey(pb_ns t) { return (uint64_t)t ^ (1ULL << 63); }

static uint64_t ctx(uint32_t node, uint32_t thread)
{
    return ((uint64_t)node << 32) | thread;
}

typedef struct ev {
    uint64_t t;
    int send;     /* 0 receipt, 1 send */
    size_t i;
} tev;

static int ev_cmp(const void *a, const void *b)
{
    const tev *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    /* one instant: in trace order (a cause is written before its
     * effects), a message's receipt after its send */
    if (x->i != y->i)
        return x->i < y->i ? -1 : 1;
    return x->send - y->send;
}

static int immediacy(const pb_trace *t, const kv *byid, assume_meters *o)
{
    size_t n = t->n, ne = 0, nk = 0;
    tev *e = malloc((2 * n + 1) * sizeof *e);
    uint64_t *keys = malloc((2 * n + 1) * sizeof *keys);
    size_t *last = NULL;
    if (!e || !keys)
        goto oom;
    for (size_t i = 0; i < n; i++) {
        const pb_msg *m = &t->msgs[i];
        if (pb_obs_thread(t->obs, i) && m->recv_ts != PB_TS_NONE) {
            e[ne++] = (tev){tkey(m->recv_ts), 0, i};
            keys[nk++] = ctx(m->dst, pb_obs_thread(t->obs, i));
        }
        if (pb_obs_sthread(t->obs, i) && t->truth[i].cause != PB_ID_NONE)
            e[ne++] = (tev){tkey(m->ts), 1, i};
    }
    pb_sort(e, ne, sizeof *e, ev_cmp);
    /* the contexts, sorted and unique */
    {
        kv *kk = malloc((nk + 1) * sizeof *kk);
        if (!kk)
            goto oom;
        for (size_t a = 0; a < nk; a++)
            kk[a] = (kv){keys[a], 0, 0};
        pb_sort(kk, nk, sizeof *kk, kv_cmp);
        size_t u = 0;
        for (size_t a = 0; a < nk; a++)
            if (!u || kk[a].k != keys[u - 1])
                keys[u++] = kk[a].k;
        nk = u;
        free(kk);
    }
    last = malloc((nk + 1) * sizeof *last);
    if (!last)
        goto oom;
    for (size_t a = 0; a < nk; a++)
        last[a] = SIZE_MAX;
    for (size_t a = 0; a < ne; a++) {
        const pb_msg *m = &t->msgs[e[a].i];
        uint64_t k = e[a].send ? ctx(m->src, pb_obs_sthread(t->obs, e[a].i))
                               : ctx(m->dst, pb_obs_thread(t->obs, e[a].i));
        size_t lo = 0, hi = nk;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (keys[mid] < k)
                lo = mid + 1;
            else
                hi = mid;
        }
        int found = lo < nk && keys[lo] == k;
        if (!e[a].send) {
            last[lo] = e[a].i;
            continue;
        }
        o->imm_n++;
        if (found && last[lo] != SIZE_MAX && t->msgs[last[lo]].id == t->truth[e[a].i].cause)
            o->imm_ok++;
    }
    (void)byid;
    free(e);
    free(keys);
    free(last);
    o->immediacy = o->imm_n ? (double)o->imm_ok / (double)o->imm_n : NAN;
    return PB_OK;
oom:
    free(e);
    free(keys);
    free(last);
    return PB_ENOMEM;
}

/* Index of the message with id `id`, or SIZE_MAX. */
static size_t find_id(const kv *byid, size_t n, uint64_t id)
{
    size_t p = kv_lower(byid, n, id, 0);
    return p < n && byid[p].k == id ? byid[p].i : SIZE_MAX;
}

static int thread_pattern(const pb_trace *t, const kv *byid, assume_meters *o)
{
    size_t n = t->n;
    /* calls and returns by callid: t = 0 call, 1 return */
    kv *bycall = malloc((n + 1) * sizeof *bycall);
    kv *sends = malloc((n + 1) * sizeof *sends);
    size_t *visit = malloc((n + 1) * sizeof *visit);
    size_t *stack = malloc((n + 1) * sizeof *stack);
    size_t *ret = malloc((n + 1) * sizeof *ret);
    size_t nc = 0, ns = 0;
    int rc = PB_ENOMEM;
    if (!bycall || !sends || !visit || !stack || !ret)
        goto out;
    for (size_t i = 0; i < n; i++) {
        const pb_msg *m = &t->msgs[i];
        if (m->callid != PB_ID_NONE && m->type != PB_TYPE_MSG)
            bycall[nc++] = (kv){m->callid, m->type == PB_TYPE_RETURN, i};
        if (pb_obs_sthread(t->obs, i))
            sends[ns++] = (kv){ctx(m->src, pb_obs_sthread(t->obs, i)), tkey(m->ts), i};
    }
    pb_sort(bycall, nc, sizeof *bycall, kv_cmp);
    pb_sort(sends, ns, sizeof *sends, kv_cmp);
    /* per call: its return (same callid, reverse direction), or SIZE_MAX;
     * per return: its call */
    for (size_t i = 0; i < n; i++)
        ret[i] = SIZE_MAX;
    for (size_t a = 0; a < nc; a++) {
        if (bycall[a].t)
            continue;
        size_t c = bycall[a].i;
        for (size_t b = a + 1; b < nc && bycall[b].k == bycall[a].k; b++) {
            size_t r = bycall[b].i;
            if (bycall[b].t && t->msgs[r].src == t->msgs[c].dst &&
                t->msgs[r].dst == t->msgs[c].src && ret[r] == SIZE_MAX) {
                ret[c] = r;
                ret[r] = c;
                break;
            }
        }
    }
    /* visit of every message: the call received by its sender that it
     * serves (SIZE_MAX: none); computed along cause chains with a memo */
    const size_t UNK = SIZE_MAX - 1;
    for (size_t i = 0; i < n; i++)
        visit[i] = UNK;
    for (size_t i0 = 0; i0 < n; i0++) {
        size_t top = 0, i = i0, v = SIZE_MAX;
        while (visit[i] == UNK) {
            stack[top++] = i;
            size_t x = t->truth[i].cause == PB_ID_NONE ? SIZE_MAX
                                                         : find_id(byid, n, t->truth[i].cause);
            if (x == SIZE_MAX || t->msgs[x].type == PB_TYPE_MSG) {
                v = SIZE_MAX;
                goto known;
            }
            if (t->msgs[x].type == PB_TYPE_CALL) {
                v = x;
                goto known;
            }
            /* a return: the visit of the call it answers (sent by i's
             * sender) */
            if (ret[x] == SIZE_MAX) {
                v = SIZE_MAX;
                goto known;
            }
            i = ret[x];
            if (top > n) { /* a cause cycle: bad truth */
                v = SIZE_MAX;
                goto known;
            }
        }
        v = visit[i];
    known:
        while (top)
            visit[stack[--top]] = v;
    }
    /* a visit is split when one of its calls leaves on another thread
     * than its reply (stack[] is free now: 1 = split) */
    for (size_t i = 0; i < n; i++)
        stack[i] = 0;
    for (size_t i = 0; i < n; i++) {
        size_t v = visit[i];
        if (v >= n || ret[v] == SIZE_MAX || t->msgs[i].type != PB_TYPE_CALL)
            continue;
        if (pb_obs_sthread(t->obs, i) != pb_obs_sthread(t->obs, ret[v]))
            stack[v] = 1;
    }
    for (size_t c = 0; c < n; c++) {
        const pb_msg *cm = &t->msgs[c];
        if (cm->type != PB_TYPE_CALL || ret[c] == SIZE_MAX)
            continue;
        const pb_msg *rm = &t->msgs[ret[c]];
        if (!pb_obs_sthread(t->obs, ret[c]))
            continue;
        o->tp_n++;
        int one = !stack[c], excl = 1;
        uint64_t k = ctx(cm->dst, pb_obs_sthread(t->obs, ret[c]));
        pb_ns a = cm->recv_ts != PB_TS_NONE ? cm->recv_ts : cm->ts;
        for (size_t p = kv_lower(sends, ns, k, tkey(a)); p < ns && excl; p++) {
            if (sends[p].k != k || sends[p].t > tkey(rm->ts))
                break;
            if (visit[sends[p].i] != c)
                excl = 0;
        }
        o->ot_ok += one;
        o->tp_ok += one && excl;
    }
    o->thread_pattern = o->tp_n ? (double)o->tp_ok / (double)o->tp_n : NAN;
    o->one_thread = o->tp_n ? (double)o->ot_ok / (double)o->tp_n : NAN;
    rc = PB_OK;
out:
    free(bycall);
    free(sends);
    free(visit);
    free(stack);
    free(ret);
    return rc;
}

int assume_compute(const pb_trace *t, assume_meters *out, pb_error *err)
{
    memset(out, 0, sizeof *out);
    out->immediacy = out->thread_pattern = out->one_thread = NAN;
    if (!t->truth || !(t->columns & PB_COL_STHREAD) || t->n == 0)
        return PB_OK;
    kv *byid = malloc(t->n * sizeof *byid);
    if (!byid)
        return pb_error_set(err, PB_ENOMEM, t->source, 0, 0, "out of memory");
    for (size_t i = 0; i < t->n; i++)
        byid[i] = (kv){t->msgs[i].id, 0, i};
    pb_sort(byid, t->n, sizeof *byid, kv_cmp);
    int rc = PB_OK;
    if (t->columns & PB_COL_THREAD)
        rc = immediacy(t, byid, out);
    if (rc == PB_OK)
        rc = thread_pattern(t, byid, out);
    free(byid);
    if (rc != PB_OK)
        return pb_error_set(err, rc, t->source, 0, 0, "out of memory");
    return PB_OK;
}
