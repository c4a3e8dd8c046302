/*
 * nesting.c - the nesting algorithm of Project 5 (seed 000, 5.1, Figure 4).
 *
 * Passes over the trace (all O(messages x per-node parallelism)):
 *   1. pair calls with returns through a hash table of FIFO queues keyed by
 *      (sender, receiver, callid); a missing or repeated callid falls back
 *      to "earliest unmatched call" (5.1.1.1);
 *   2. sweep the matched pairs in return order keeping, per node, the set
 *      of open calls into it in sending order (oset, nesting_int.h); the
 *      candidate parents of a pair are the open calls into its caller made
 *      earlier, a prefix of that set, of which the max_candidates sent
 *      last are read from its end (O(log n + kept) a pair, however many
 *      are open); each candidate adds 1/|parents| to the scoreboard
 *      histogram of its (A, B, C) triple;
 *   3. optionally smooth the histograms, then choose every pair's parent
 *      (scoreboard value times the three child penalties, ties to the
 *      earliest parent; nesting_choose.c);
 *   4. every pair without candidates roots a call path; paths are
 *      aggregated into call-view patterns (nesting_paths.c).
 * The state is struct nesting in nesting_int.h; the sliding window
 * (nesting_window.c) runs steps 1-3 per window through nesting_init_seg.
 *
 * Only matched pairs take part from step 2 on, so unmatched noise messages
 * change neither candidates nor weights.
 */
#include "nesting.h"
#include "pb_mem.h"
#include "pb_hash.h"
#include "nesting_int.h"
#include "pb_algo.h"
#include "pb_ptree.h"
#include "pb_strbuf.h"
#include "pb_strtab.h"

#include <stddef.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_filter.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

#define cmsg nesting_cmsg
#define rmsg nesting_rmsg
/* the scoreboard's limit (hist_bins x 8 bytes per triple) */
#define NESTING_SB_MAX_BYTES (2048.0 * 1048576.0)

const pb_option nesting_options[] = {
    {"hist_base", PB_OPT_DOUBLE, offsetof(nesting_params, base), "1.05", 1.0001, 100,
     "scoreboard bins grow by this ratio: bin = log_base(delay/lowest) (5.1.1.2: 1.05)"},
    {"hist_bins", PB_OPT_INT, offsetof(nesting_params, bins), "340", 1, 100000,
     "number of scoreboard bins; longer delays share the last (5.1.1.2: 340); memory: 8 bytes x bins per (caller, callee, child) triple"},
    {"hist_lowest", PB_OPT_DURATION, offsetof(nesting_params, lowest), "1ms", 1e-9, 1e6,
     "lowest delay told apart; shorter delays share the first bin (5.1.1.2: 1 msec)"},
    {"x", PB_OPT_DOUBLE, offsetof(nesting_params, x), "2", 0, 100,
     "overlapping-child penalty exponent: score * (1+c_overlap)^-x (5.1.1.3)"},
    {"y", PB_OPT_DOUBLE, offsetof(nesting_params, y), "0", 0, 100,
     "same-child penalty exponent: score * (1+c_same)^-y (5.1.1.3)"},
    {"z", PB_OPT_DOUBLE, offsetof(nesting_params, z), "0", 0, 100,
     "generic-child penalty exponent: score * (1+c_any)^-z (5.1.1.3)"},
    {"skew_window", PB_OPT_DURATION, offsetof(nesting_params, skew_window), "0", 0, 1e6,
     "skew window: tolerance added to the timestamp comparisons of nesting (7.5.6)"},
    {"smooth", PB_OPT_BOOL, offsetof(nesting_params, smooth), "0", PB_OPT_NORANGE,
     "convolve each scoreboard histogram with a Gaussian (5.1.1.2, 7.5.6)"},
    {"smooth_width", PB_OPT_DOUBLE, offsetof(nesting_params, smooth_width), "2", 0.01, 100,
     "standard deviation of the smoothing Gaussian, in bins; cost: 6 x width per non-zero bin"},
    {"callids", PB_OPT_BOOL, offsetof(nesting_params, callids), "1", PB_OPT_NORANGE,
     "pair calls and returns by call id; 0 ignores call ids (FIFO of 5.1.1.1)"},
    {"top", PB_OPT_INT, offsetof(nesting_params, top), "20", 0, 1e9,
     "patterns drawn in the dot output and the text report; 0 = all"},
    {"same_tick", PB_OPT_BOOL, offsetof(nesting_params, same_tick), "1", PB_OPT_NORANGE,
     "skew_window 0: a call with the child's ts, earlier in the file, is a candidate "
     "parent (0: strictly earlier only, Figure 4)"},
    {"max_candidates", PB_OPT_INT, offsetof(nesting_params, max_cand), "1024", 1, 1e9,
     "candidate parents one call may have (the calls open at its sender when "
     "it was sent): the latest-sent kept; a cap on memory for deep chains "
     "through few nodes; a warning says when it cut"},
    {"window", PB_OPT_DURATION, offsetof(nesting_params, window), "0", 0, 1e6,
     "sliding-window nesting (docs/nesting.md): cut the trace into windows of this "
     "length; equals whole-trace nesting when longer than the longest call; 0 = off"},
    {"min_confidence", PB_OPT_DOUBLE, offsetof(nesting_params, min_confidence), "0", 0, 1,
     "abstain on (leave unattached) every call pair whose confidence is below this: "
     "the product, from its path's root down to it, of each chosen parent's share of "
     "its candidates' scores (docs/nesting.md); 0 = attach all"},
    {NULL, PB_OPT_INT, 0, NULL, PB_OPT_NORANGE, NULL}};


/* ------------------------------------------------------------------ */
/* Step 1: call pairs */

typedef struct qkey {
    uint64_t callid;
    uint32_t src, dst;    /* src == NONE: empty slot */
    uint32_t head, tail;  /* queue of open calls (pool nodes) */
} qkey;

typedef struct qtab {
    qkey *e;
    size_t cap, n;        /* cap a power of two */
    uint32_t *qmsg, *qnext; /* pool: message index, next node */
    pb_ns *qts;             /* pool: the call's ts (keep_ts only) */
    uint32_t qcap, qfree, qused;
    int keep_ts;            /* the streaming pairer: no message array to
                               look times up in */
} qtab;

static inline size_t qhash(uint32_t src, uint32_t dst, uint64_t callid)
{
    return (size_t)pb_mix64((callid * 0x9E3779B97F4A7C15ULL) ^
                         (((uint64_t)src << 32) | dst));
}

static size_t qfind(const qtab *t, uint32_t src, uint32_t dst, uint64_t callid,
                    int *found)
{
    size_t mask = t->cap - 1, j = qhash(src, dst, callid) & mask;
    while (t->e[j].src != NONE) {
        if (t->e[j].src == src && t->e[j].dst == dst && t->e[j].callid == callid) {
            *found = 1;
            return j;
        }
        j = (j + 1) & mask;
    }
    *found = 0;
    return j;
}

static int qgrow(qtab *t)
{
    size_t ncap = t->cap ? t->cap * 2 : 1024;
    qkey *ne = malloc(ncap * sizeof *ne);
    if (!ne)
        return PB_ENOMEM;
    for (size_t i = 0; i < ncap; i++)
        ne[i].src = NONE;
    for (size_t i = 0; i < t->cap; i++) {
        if (t->e[i].src == NONE)
            continue;
        size_t j = qhash(t->e[i].src, t->e[i].dst, t->e[i].callid) & (ncap - 1);
        while (ne[j].src != NONE)
            j = (j + 1) & (ncap - 1);
        ne[j] = t->e[i];
    }
    free(t->e);
    t->e = ne;
    t->cap = ncap;
    return PB_OK;
}

/* Linear-probing delete by backward shift, so the table never fills up
 * with tombstones: its size follows the calls open at once, not the trace
 * length. */
static void qdelete(qtab *t, size_t i)
{
    size_t mask = t->cap - 1, j = i;
    for (;;) {
        j = (j + 1) & mask;
        if (t->e[j].src == NONE)
            break;
        size_t k = qhash(t->e[j].src, t->e[j].dst, t->e[j].callid) & mask;
        if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
            continue;
        t->e[i] = t->e[j];
        i = j;
    }
    t->e[i].src = NONE;
    t->n--;
}

static int qnode(qtab *t, uint32_t msg, pb_ns ts, uint32_t *out)
{
    if (t->qfree == NONE) {
        if (t->qused == t->qcap) {
            uint32_t nc = t->qcap ? t->qcap * 2 : 1024;
            uint32_t *a = realloc(t->qmsg, (size_t)nc * sizeof *a);
            if (!a)
                return PB_ENOMEM;
            t->qmsg = a;
            a = realloc(t->qnext, (size_t)nc * sizeof *a);
            if (!a)
                return PB_ENOMEM;
            t->qnext = a;
            if (t->keep_ts) {
                pb_ns *b = realloc(t->qts, (size_t)nc * sizeof *b);
                if (!b)
                    return PB_ENOMEM;
                t->qts = b;
            }
            t->qcap = nc;
        }
        *out = t->qused++;
    } else {
        *out = t->qfree;
        t->qfree = t->qnext[*out];
    }
    t->qmsg[*out] = msg;
    t->qnext[*out] = NONE;
    if (t->keep_ts)
        t->qts[*out] = ts;
    return PB_OK;
}

static int add_pair(nesting *s, uint32_t c, uint32_t r)
{
    if (s->npairs == s->paircap) {
        uint32_t nc = s->paircap ? s->paircap * 2 : 1024;
        uint32_t *a = realloc(s->call, (size_t)nc * sizeof *a);
        if (!a)
            return PB_ENOMEM;
        s->call = a;
        a = realloc(s->ret, (size_t)nc * sizeof *a);
        if (!a)
            return PB_ENOMEM;
        s->ret = a;
        s->paircap = nc;
    }
    s->pair_of_msg[c] = s->pair_of_msg[r] = s->npairs;
    s->call[s->npairs] = c;
    s->ret[s->npairs] = r;
    s->npairs++;
    return PB_OK;
}

/* Append message msg to the queue of key (src, dst, cid). */
static int qpush(qtab *t, uint32_t src, uint32_t dst, uint64_t cid, uint32_t msg,
                 pb_ns ts)
{
    int rc, found;
    if ((t->n + 1) * 2 > t->cap && (rc = qgrow(t)) != PB_OK)
        return rc;
    size_t j = qfind(t, src, dst, cid, &found);
    uint32_t q;
    if ((rc = qnode(t, msg, ts, &q)) != PB_OK)
        return rc;
    if (!found) {
        t->e[j] = (qkey){cid, src, dst, q, q};
        t->n++;
    } else {
        t->qnext[t->e[j].tail] = q;
        t->e[j].tail = q;
    }
    return PB_OK;
}

/* Take the earliest message of key (src, dst, cid) whose timestamp is at
 * least `min_ts` (earlier ones are dropped: expired).  Returns the message
 * index or NONE; *more is set when another one stays queued. */
static uint32_t qpop(qtab *t, const pb_msg *msgs, uint32_t src, uint32_t dst,
                     uint64_t cid, pb_ns min_ts, int *more)
{
    int found;
    size_t j = qfind(t, src, dst, cid, &found);
    *more = 0;
    if (!found)
        return NONE;
    uint32_t out = NONE;
    while (out == NONE && t->e[j].head != NONE) {
        uint32_t q = t->e[j].head;
        uint32_t m = t->qmsg[q];
        t->e[j].head = t->qnext[q];
        t->qnext[q] = t->qfree;
        t->qfree = q;
        if (msgs[m].ts >= min_ts)
            out = m;
    }
    if (t->e[j].head == NONE)
        qdelete(t, j);
    else
        *more = 1;
    return out;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* Pairs are numbered in the order of their returns; pairs made when a call
 * came after its (skewed) return were appended out of that order. */
static int sort_pairs(nesting *s)
{
    uint64_t *k = malloc(((size_t)s->npairs + 1) * sizeof *k);
    if (!k)
        return PB_ENOMEM;
    for (uint32_t i = 0; i < s->npairs; i++)
        k[i] = ((uint64_t)s->ret[i] << 32) | s->call[i];
    pb_sort(k, s->npairs, sizeof *k, cmp_u64);
    for (uint32_t i = 0; i < s->npairs; i++) {
        s->ret[i] = (uint32_t)(k[i] >> 32);
        s->call[i] = (uint32_t)k[i];
        s->pair_of_msg[s->ret[i]] = s->pair_of_msg[s->call[i]] = i;
    }
    free(k);
    return PB_OK;
}

static int find_pairs(nesting *s)
{
    /* open calls, and (with a skew window) returns seen before their call:
     * a clock running fast at the caller can put the call after the
     * return; such a return waits up to the window for its call */
    qtab t = {0}, early = {0};
    t.qfree = early.qfree = NONE;
    const pb_ns w = s->p.skew_window;
    int rc = qgrow(&t), late = 0;
    if (rc == PB_OK && w > 0)
        rc = qgrow(&early);
    for (size_t i = 0; rc == PB_OK && i < s->v.n; i++) {
        const pb_msg *m = &s->v.msgs[i];
        s->pair_of_msg[i] = NONE;
        uint64_t cid = s->p.callids ? m->callid : PB_ID_NONE;
        int more;
        if (m->type == PB_TYPE_CALL) {
            s->calls++;
            if (s->p.callids && m->callid == PB_ID_NONE)
                s->no_callid++;
            uint32_t r = NONE;
            if (w > 0 && early.n)
                r = qpop(&early, s->v.msgs, m->src, m->dst, cid, m->ts - w, &more);
            if (r != NONE) {
                rc = add_pair(s, (uint32_t)i, r);
                late = 1;
            } else {
                rc = qpush(&t, m->src, m->dst, cid, (uint32_t)i, m->ts);
            }
        } else if (m->type == PB_TYPE_RETURN) {
            s->returns++;
            uint32_t c = qpop(&t, s->v.msgs, m->dst, m->src, cid, INT64_MIN, &more);
            if (c != NONE) {
                s->repeated += more;
                rc = add_pair(s, c, (uint32_t)i);
            } else if (w > 0) {
                rc = qpush(&early, m->dst, m->src, cid, (uint32_t)i, m->ts);
            }
        } else {
            s->others++;
        }
    }
    if (rc == PB_OK && late)
        rc = sort_pairs(s);
    s->unmatched_calls = s->calls - s->npairs;
    s->unmatched_returns = s->returns - s->npairs;
    free(t.e);
    free(t.qmsg);
    free(t.qnext);
    free(early.e);
    free(early.qmsg);
    free(early.qnext);
    return rc;
}

/* Step 1 of a window segment: the pairs are given (rcall, made by the
 * streaming pairer below over the whole trace), so a segment pairs its
 * messages as the whole trace does, FIFO included. */
static int given_pairs(nesting *s, const uint32_t *rcall)
{
    int rc = PB_OK;
    for (size_t i = 0; rc == PB_OK && i < s->v.n; i++) {
        const pb_msg *m = &s->v.msgs[i];
        s->pair_of_msg[i] = NONE;
        if (m->type == PB_TYPE_CALL) {
            s->calls++;
        } else if (m->type == PB_TYPE_RETURN) {
            s->returns++;
            if (rcall[i] != NONE && rcall[i] < i && s->v.msgs[rcall[i]].type == PB_TYPE_CALL)
                rc = add_pair(s, rcall[i], (uint32_t)i);
        } else {
            s->others++;
        }
    }
    s->unmatched_calls = s->calls - s->npairs;
    s->unmatched_returns = s->returns - s->npairs;
    return rc;
}

struct nesting_pairer {
    qtab t;
    int callids;
    pb_ns horizon, next_gc;
    int started;
    size_t expired;
};

int nesting_pairer_new(nesting_pairer **out, int callids, pb_ns horizon)
{
    nesting_pairer *p = calloc(1, sizeof *p);
    *out = NULL;
    if (!p)
        return PB_ENOMEM;
    p->t.qfree = NONE;
    p->t.keep_ts = 1;
    p->callids = callids;
    p->horizon = horizon;
    if (qgrow(&p->t) != PB_OK) {
        free(p);
        return PB_ENOMEM;
    }
    *out = p;
    return PB_OK;
}

void nesting_pairer_close(nesting_pairer *p)
{
    if (!p)
        return;
    free(p->t.e);
    free(p->t.qmsg);
    free(p->t.qnext);
    free(p->t.qts);
    free(p);
}

size_t nesting_pairer_expired(const nesting_pairer *p) { return p->expired; }

/* Drop every queued call sent before `limit` (no later return may take
 * it): the table then holds the calls of the last horizon only. */
static void pairer_gc(nesting_pairer *p, pb_ns limit)
{
    qtab *t = &p->t;
    for (size_t i = 0; i < t->cap;) {
        qkey *e = &t->e[i];
        if (e->src == NONE) {
            i++;
            continue;
        }
        while (e->head != NONE && t->qts[e->head] < limit) {
            uint32_t q = e->head;
            e->head = t->qnext[q];
            t->qnext[q] = t->qfree;
            t->qfree = q;
            p->expired++;
        }
        if (e->head == NONE)
            qdelete(t, i); /* slot i may now hold a later key: look again */
        else
            i++;
    }
}

int nesting_pairer_add(nesting_pairer *p, const pb_msg *m, uint32_t g,
                       uint32_t *call, int *more)
{
    qtab *t = &p->t;
    const uint64_t cid = p->callids ? m->callid : PB_ID_NONE;
    /* min_ts: the earliest call a return may take (saturated) */
    const pb_ns min_ts = m->ts < INT64_MIN + p->horizon ? INT64_MIN : m->ts - p->horizon;
    *call = NONE;
    *more = 0;
    if (!p->started || m->ts >= p->next_gc) {
        if (p->started)
            pairer_gc(p, min_ts);
        p->started = 1;
        p->next_gc = m->ts > INT64_MAX - p->horizon ? INT64_MAX : m->ts + p->horizon;
    }
    if (m->type == PB_TYPE_CALL)
        return qpush(t, m->src, m->dst, cid, g, m->ts);
    if (m->type != PB_TYPE_RETURN)
        return PB_OK;
    int found;
    size_t j = qfind(t, m->dst, m->src, cid, &found);
    if (!found)
        return PB_OK;
    while (*call == NONE && t->e[j].head != NONE) {
        uint32_t q = t->e[j].head;
        t->e[j].head = t->qnext[q];
        t->qnext[q] = t->qfree;
        t->qfree = q;
        if (t->qts[q] >= min_ts)
            *call = t->qmsg[q];
        else
            p->expired++;
    }
    if (t->e[j].head == NONE)
        qdelete(t, j);
    else
        *more = 1;
    return PB_OK;
}

/* ------------------------------------------------------------------ */
/* The scoreboard */

uint32_t nesting_bin(const nesting *s, pb_ns delta)
{
    if (delta <= s->p.lowest)
        return 0;
    double b = (log((double)delta) - s->log_lowest) * s->inv_log_base;
    if (!(b < (double)(s->p.bins - 1)))
        return (uint32_t)s->p.bins - 1;
    return (uint32_t)b;
}

static inline size_t sbhash(uint32_t a, uint32_t b, uint32_t c)
{
    return (size_t)pb_mix64(((uint64_t)a << 40) ^ ((uint64_t)b << 20) ^ c ^
                         ((uint64_t)c << 52));
}

/* The histogram of (a, b, c), created when `create`; NONE when absent. */
uint32_t nesting_sb_find(nesting *s, uint32_t a, uint32_t b, uint32_t c,
                         int create, int *rc)
{
    size_t mask = s->sbcap - 1, j = sbhash(a, b, c) & mask;
    while (s->sbt[j].a != NONE) {
        if (s->sbt[j].a == a && s->sbt[j].b == b && s->sbt[j].c == c)
            return s->sbt[j].h;
        j = (j + 1) & mask;
    }
    if (!create)
        return NONE;
    size_t bins = (size_t)s->p.bins;
    if (s->nhist == s->histcap) {
        uint32_t nc = s->histcap ? s->histcap * 2 : 16;
        if ((double)nc * (double)bins * sizeof *s->sb > NESTING_SB_MAX_BYTES) {
            /* one histogram per (a, b, c) triple: at most one per call
             * pair, so O(m) histograms, but each is hist_bins long */
            nc = (uint32_t)(NESTING_SB_MAX_BYTES / ((double)bins * sizeof *s->sb));
            if (nc <= s->nhist) {
                *rc = PB_ERANGE;
                return NONE;
            }
        }
        double *nsb = realloc(s->sb, (size_t)nc * bins * sizeof *nsb);
        if (!nsb) {
            *rc = PB_ENOMEM;
            return NONE;
        }
        s->sb = nsb;
        s->histcap = nc;
    }
    if ((size_t)(s->nhist + 1) * 2 > s->sbcap) {
        size_t ncap = s->sbcap * 2;
        sbkey *nt = malloc(ncap * sizeof *nt);
        if (!nt) {
            *rc = PB_ENOMEM;
            return NONE;
        }
        for (size_t i = 0; i < ncap; i++)
            nt[i].a = NONE;
        for (size_t i = 0; i < s->sbcap; i++) {
            if (s->sbt[i].a == NONE)
                continue;
            size_t k = sbhash(s->sbt[i].a, s->sbt[i].b, s->sbt[i].c) & (ncap - 1);
            while (nt[k].a != NONE)
                k = (k + 1) & (ncap - 1);
            nt[k] = s->sbt[i];
        }
        free(s->sbt);
        s->sbt = nt;
        s->sbcap = ncap;
        mask = ncap - 1;
        j = sbhash(a, b, c) & mask;
        while (s->sbt[j].a != NONE)
            j = (j + 1) & mask;
    }
    uint32_t h = s->nhist++;
    memset(s->sb + (size_t)h * bins, 0, bins * sizeof *s->sb);
    s->sbt[j] = (sbkey){a, b, c, h};
    return h;
}

double nesting_scoreboard(const nesting *s, uint32_t a, uint32_t b, uint32_t c,
                          pb_ns delta)
{
    int rc = PB_OK;
    uint32_t h = nesting_sb_find((nesting *)s, a, b, c, 0, &rc);
    if (h == NONE)
        return 0.0;
    return s->sb[(size_t)h * (size_t)s->p.bins + nesting_bin(s, delta)];
}

/* Gaussian smoothing of every histogram, with zero padding at both ends
 * (GSL's kernel, as gsl_filter_gaussian with GSL_FILTER_END_PADZERO).  Only
 * the non-zero bins are spread, so the cost is (non-zero bins) x (kernel
 * width) + bins per histogram, not bins x kernel width: at most O(m x p)
 * non-zero bins exist, one per candidate nesting. */
static int smooth(nesting *s, pb_error *err)
{
    size_t bins = (size_t)s->p.bins;
    double sigma = s->p.smooth_width;
    size_t half = (size_t)ceil(3.0 * sigma);
    if (half > bins)
        half = bins;
    size_t k = 2 * half + 1;
    /* GSL's kernel is exp(-x^2 / (2 sigma^2)) with sigma = (K-1)/(2 alpha) */
    double alpha = (double)(k - 1) / (2.0 * sigma);
    gsl_vector *kern = gsl_vector_alloc(k);
    double *out = malloc(bins * sizeof *out);
    if (!kern || !out) {
        gsl_vector_free(kern);
        free(out);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory smoothing the scoreboard");
    }
    if (gsl_filter_gaussian_kernel(alpha, 0, 1, kern) != GSL_SUCCESS) {
        gsl_vector_free(kern);
        free(out);
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "smoothing the scoreboard failed (smooth_width=%g)", sigma);
    }
    const double *g = kern->data;
    for (uint32_t h = 0; h < s->nhist; h++) {
        double *x = s->sb + (size_t)h * bins;
        memset(out, 0, bins * sizeof *out);
        for (size_t t = 0; t < bins; t++) {
            double v = x[t];
            if (v == 0)
                continue;
            /* out[i] += g[j] x[t] for i = t + half - j inside [0, bins) */
            size_t j0 = t + half >= bins ? t + half - (bins - 1) : 0;
            size_t j1 = t + half < k - 1 ? t + half : k - 1;
            for (size_t j = j0; j <= j1; j++)
                out[t + half - j] += g[j * kern->stride] * v;
        }
        memcpy(x, out, bins * sizeof *out);
    }
    gsl_vector_free(kern);
    free(out);
    return PB_OK;
}

/* ------------------------------------------------------------------ */
/* Step 2: candidate parents and scoring */

/* The last live slot of o at or before slot i (0: none), halving the
 * paths of dead slots on the way. */
static uint32_t oset_find(oset *o, uint32_t i)
{
    oent *a = o->a;
    while (a[i].up != i) {
        a[i].up = a[a[i].up].up;
        i = a[i].up;
    }
    return i;
}

/* Live slots among 1..i. */
static uint32_t oset_count(const oset *o, uint32_t i)
{
    uint32_t c = 0;
    for (; i > 0; i &= i - 1)
        c += o->a[i].fw;
    return c;
}

/* Append the call of pair q (message g, sent at ts): calls enter in the
 * order they were sent.  opos[q] gets its slot.  PB_OK or PB_ENOMEM. */
static int oset_push(oset *o, pb_ns ts, uint32_t q, uint32_t g, uint32_t *opos)
{
    if (o->n == UINT32_MAX - 1 ||
        pb_grow32(&o->a, sizeof *o->a, &o->cap, o->n + 2, 8) != PB_OK)
        return PB_ENOMEM;
    if (o->n == 0)
        o->a[0] = (oent){0, NONE, NONE, 0, 0}; /* the sentinel: live, empty */
    uint32_t i = ++o->n, f = 1;
    /* the Fenwick node of slot i covers slots i - lowbit(i) + 1 .. i */
    for (uint32_t j = i - 1; j > i - (i & (0u - i)); j &= j - 1)
        f += o->a[j].fw;
    o->a[i] = (oent){ts, q, g, i, f};
    o->live++;
    opos[q] = i;
    return PB_OK;
}

/* Close the call of pair q (its slot opos[q]; 0: never opened, nothing to
 * do).  O(log n) amortized: trailing dead slots are dropped, and the array
 * is compacted once the dead outnumber the live. */
static void oset_remove(oset *o, uint32_t q, uint32_t *opos)
{
    uint32_t p = opos[q];
    if (!p || p > o->n || o->a[p].pair != q)
        return;
    opos[q] = 0;
    o->a[p].pair = NONE;
    o->a[p].up = p - 1;
    for (uint32_t j = p; j <= o->n; j += j & (0u - j))
        o->a[j].fw--;
    o->live--;
    while (o->n > 0 && o->a[o->n].pair == NONE)
        o->n--;
    if (o->n - o->live <= o->live + 64)
        return;
    uint32_t m = 0;
    for (uint32_t i = 1; i <= o->n; i++) {
        if (o->a[i].pair == NONE)
            continue;
        o->a[++m] = o->a[i];
        o->a[m].up = m;
        o->a[m].fw = 1;
        opos[o->a[m].pair] = m;
    }
    o->n = m;
    for (uint32_t i = 1; i <= m; i++) {
        uint32_t j = i + (i & (0u - i));
        if (j <= m)
            o->a[j].fw += o->a[i].fw;
    }
}

/* Slots 1..b of o are the open calls sent before the child (call message
 * g, sent at ts lim - w): call_ts < lim, or, with tie_ok, also sent at lim
 * but earlier in the file -- on a trace in time order that is "message
 * index < g", and either way a prefix, since slots are in sending order. */
static uint32_t oset_before(const oset *o, pb_ns lim, int tie_ok, uint32_t g)
{
    uint32_t lo = 0, hi = o->n; /* slots 1..lo qualify, hi+1.. do not */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        const oent *e = &o->a[mid];
        if (tie_ok ? e->msg < g : e->call_ts < lim)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static int cand_push(nesting *s, uint32_t q)
{
    if (pb_grow(&s->cand, sizeof *s->cand, &s->candcap, s->ncand + 1, 4096) != PB_OK)
        return PB_ENOMEM;
    s->cand[s->ncand++] = q;
    return PB_OK;
}

/* Keep, of the n candidates at c (distinct pairs), the k whose calls were
 * sent last (largest message index: the trace is in time order), in their
 * order.  O(n): a quickselect on a copy of the keys.  Returns PB_OK or
 * PB_ENOMEM. */
static int cut_candidates(nesting *s, uint32_t *c, size_t n, size_t k)
{
    if (pb_grow(&s->selbuf, sizeof *s->selbuf, &s->selcap, n, 1024) != PB_OK)
        return PB_ENOMEM;
    uint32_t *a = s->selbuf;
    for (size_t i = 0; i < n; i++)
        a[i] = s->call[c[i]];
    /* the (n - k)-th smallest key: the least one kept (quickselect,
     * three-way partition) */
    ptrdiff_t want = (ptrdiff_t)(n - k), lo = 0, hi = (ptrdiff_t)n - 1;
    while (lo < hi) {
        uint32_t pv = a[lo + (hi - lo) / 2];
        ptrdiff_t lt = lo, i = lo, gt = hi;
        while (i <= gt) {
            uint32_t t = a[i];
            if (t < pv) {
                a[i++] = a[lt];
                a[lt++] = t;
            } else if (t > pv) {
                a[i] = a[gt];
                a[gt--] = t;
            } else {
                i++;
            }
        }
        if (want < lt)
            hi = lt - 1;
        else if (want > gt)
            lo = gt + 1;
        else
            break;
    }
    uint32_t least = a[want];
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (s->call[c[i]] >= least)
            c[m++] = c[i];
    return PB_OK;
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

/* (*map)[2q], (*map)[2q + 1]: the ranks of pair q's caller and callee among
 * the distinct nodes the pairs' calls name (*n of them).  O(p log p) for p
 * pairs, whatever the size of the node table.  PB_OK or PB_ENOMEM. */
static int node_ranks(const nesting *s, uint32_t **map, uint32_t *n)
{
    size_t np = 2 * (size_t)s->npairs;
    uint32_t *ids = malloc((np ? np : 1) * sizeof *ids);
    uint32_t *m = malloc((np ? np : 1) * sizeof *m);
    if (!ids || !m) {
        free(ids);
        free(m);
        return PB_ENOMEM;
    }
    for (uint32_t q = 0; q < s->npairs; q++) {
        ids[2 * (size_t)q] = cmsg(s, q)->src;
        ids[2 * (size_t)q + 1] = cmsg(s, q)->dst;
    }
    pb_sort(ids, np, sizeof *ids, cmp_u32);
    size_t k = 0;
    for (size_t i = 0; i < np; i++)
        if (!k || ids[i] != ids[k - 1])
            ids[k++] = ids[i];
    for (uint32_t q = 0; q < s->npairs; q++)
        for (int e = 0; e < 2; e++) {
            uint32_t x = e ? cmsg(s, q)->dst : cmsg(s, q)->src;
            size_t lo = 0, hi = k;
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (ids[mid] < x)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            m[2 * (size_t)q + (size_t)e] = (uint32_t)lo;
        }
    free(ids);
    *map = m;
    *n = (uint32_t)k;
    return PB_OK;
}

static int sweep(nesting *s, pb_error *err)
{
    const pb_msg *msgs = s->v.msgs;
    const pb_ns w = s->p.skew_window;
    const size_t bins = (size_t)s->p.bins;
    /* the open calls into each node: open[node], or, when the node table
     * is much larger than the view (a window segment of a trace naming
     * many nodes), open[rank of the node among those the pairs name]
     * (nodemap), so that a segment costs O(its pairs), not O(nodes) */
    uint32_t nslots = s->nnodes, *nodemap = NULL;
    int rc = PB_OK;
    if (s->nnodes > 2 * (size_t)s->npairs + 64)
        rc = node_ranks(s, &nodemap, &nslots);
    oset *open = rc == PB_OK ? calloc(nslots ? nslots : 1, sizeof *open) : NULL;
    uint32_t *opos = calloc(s->npairs ? s->npairs : 1, sizeof *opos);
    if (!open || !opos) {
        free(open);
        free(opos);
        free(nodemap);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
#define CALLEE(q) (nodemap ? nodemap[2 * (size_t)(q) + 1] : cmsg(s, q)->dst)
#define CALLER(q) (nodemap ? nodemap[2 * (size_t)(q)] : cmsg(s, q)->src)
    /* rows in time order (as every trace reader gives them): the
     * candidates are a prefix of the open set; a view built by hand out of
     * order is scanned whole, as before */
    int sorted = 1;
    for (size_t i = 1; i < s->v.n && sorted; i++)
        sorted = msgs[i].ts >= msgs[i - 1].ts;
    s->sorted = sorted;
    int sb_full = 0;    /* the scoreboard reached NESTING_SB_MAX_BYTES */
    size_t ai = 0;      /* next message to consider adding */
    uint32_t ri = 0;    /* next pair to consider removing */
    s->cand_off[0] = 0;
    for (uint32_t c = 0; c < s->npairs && rc == PB_OK; c++) {
        const pb_msg *cm = cmsg(s, c), *rm = rmsg(s, c);
        /* calls made before this return (within w after it, with a skew
         * window) enter the open set of their callee */
        for (; ai < s->v.n; ai++) {
            const pb_msg *m = &msgs[ai];
            if (w == 0 ? ai >= s->ret[c] : m->ts - w > rm->ts)
                break;
            uint32_t q = s->pair_of_msg[ai];
            if (q == NONE || m->type != PB_TYPE_CALL)
                continue;
            if ((rc = oset_push(&open[CALLEE(q)], m->ts, q, (uint32_t)ai, opos)) != PB_OK)
                break;
        }
        /* calls that returned before this one (more than w before it) are
         * closed; returns come in pair order */
        for (; rc == PB_OK && ri < c; ri++) {
            if (w > 0 && rmsg(s, ri)->ts + w > rm->ts)
                break;
            oset_remove(&open[CALLEE(ri)], ri, opos);
        }
        if (rc != PB_OK)
            break;
        oset *o = &open[CALLER(c)];
        const pb_ns lim = cm->ts + w;
        const uint32_t g = s->call[c];
        /* without a window, a call stamped at the child's own tick is a
         * candidate when the file puts it first (coarse timestamps) */
        const int tie_ok = w == 0 && s->p.same_tick;
        const size_t kmax = s->p.max_cand > 0 ? (size_t)s->p.max_cand : 1024;
        size_t start = s->ncand, st = 0, got = 0, want = SIZE_MAX;
        uint32_t b = o->n;
        if (sorted) {
            b = oset_before(o, lim, tie_ok, g);
            /* the child itself is open there only when it calls its own
             * sender (and then only in the prefix with a skew window) */
            got = oset_count(o, b) - (cm->dst == cm->src && opos[c] && opos[c] <= b);
            want = got < kmax ? got : kmax;
        }
        /* from the last sent backwards: the kept candidates are the
         * max_candidates sent last, so the walk stops there */
        for (uint32_t k = b ? oset_find(o, b) : 0; k > 0 && s->ncand - start < want;
             k = oset_find(o, k - 1)) {
            const oent *e = &o->a[k];
            if (e->pair == c)
                continue;
            int tie = tie_ok && e->call_ts == lim;
            if (!sorted && !(e->call_ts < lim || (tie && e->msg < g)))
                continue;
            st += tie;
            if ((rc = cand_push(s, e->pair)) != PB_OK)
                break;
        }
        if (rc != PB_OK)
            break;
        if (!sorted) {
            got = s->ncand - start;
            if (got > kmax) {
                if ((rc = cut_candidates(s, s->cand + start, got, kmax)) != PB_OK)
                    break;
                /* the same-tick count of those kept */
                st = 0;
                for (size_t k = start; k < start + kmax && tie_ok; k++)
                    st += cmsg(s, s->cand[k])->ts == lim;
                s->ncand = start + kmax;
            }
        }
        /* in sending order (the order does not change any result: the
         * scoreboard adds the same weight for each, the choice and its
         * share do not depend on it) */
        for (size_t i = start, j = s->ncand; i + 1 < j; i++, j--) {
            uint32_t x = s->cand[i];
            s->cand[i] = s->cand[j - 1];
            s->cand[j - 1] = x;
        }
        if (s->ncand > UINT32_MAX) {
            rc = pb_error_set(err, PB_ERANGE, NULL, 0, 0,
                              "more than 2^32 candidate nestings: trace too large "
                              "or too parallel");
            break;
        }
        s->cand_off[c + 1] = (uint32_t)s->ncand;
        size_t nc = s->ncand - start;
        s->same_tick_cands += st;
        if (!nc || s->seg_mode == 2 || s->ret[c] < s->own_lo || s->ret[c] >= s->own_hi)
            continue;
        s->with_cands++;
        s->own_cands += nc;
        if (got > kmax) {
            s->capped++;
            if (got > s->capped_max)
                s->capped_max = got;
        }
        s->own_same_tick += st;
        double wt = 1.0 / (double)nc;
        uint32_t last_a = NONE, h = NONE;
        for (size_t k = start; k < s->ncand; k++) {
            const pb_msg *pm = cmsg(s, s->cand[k]);
            if (pm->src != last_a) {
                h = nesting_sb_find(s, pm->src, cm->src, cm->dst, 1, &rc);
                if (h == NONE) {
                    sb_full = rc == PB_ERANGE;
                    break;
                }
                last_a = pm->src;
            }
            s->sb[(size_t)h * bins + nesting_bin(s, cm->ts - pm->ts)] += wt;
        }
    }
#undef CALLEE
#undef CALLER
    for (uint32_t i = 0; i < nslots; i++)
        free(open[i].a);
    free(open);
    free(opos);
    free(nodemap);
    free(s->selbuf);
    s->selbuf = NULL;
    s->selcap = 0;
    if (rc == PB_ENOMEM)
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory listing candidate nestings");
    if (rc == PB_ERANGE && sb_full)
        return pb_error_set(err, PB_ERANGE, NULL, 0, 0,
                            "nesting: the scoreboard would pass %.0f MB (%u histograms "
                            "of %zu bins, one per (caller, callee, child) triple); "
                            "expected fewer bins: lower hist_bins",
                            NESTING_SB_MAX_BYTES / 1048576.0, s->nhist, bins);
    return rc;
}

/* ------------------------------------------------------------------ */
/* init / close / accessors */

void nesting_close(nesting *s)
{
    if (!s)
        return;
    free(s->call);
    free(s->ret);
    free(s->pair_of_msg);
    free(s->cand_off);
    free(s->cand);
    free(s->selbuf);
    free(s->parent);
    free(s->share);
    free(s->first_child);
    free(s->next_sib);
    free(s->sbt);
    free(s->sb);
    free(s);
}

/* Move the scoreboard from src to dst (dst's own is freed). */
static void sb_move(nesting *dst, nesting *src)
{
    free(dst->sbt);
    free(dst->sb);
    dst->sbt = src->sbt;
    dst->sb = src->sb;
    dst->sbcap = src->sbcap;
    dst->nhist = src->nhist;
    dst->histcap = src->histcap;
    src->sbt = NULL;
    src->sb = NULL;
    src->sbcap = 0;
    src->nhist = src->histcap = 0;
}

static int init_any(nesting **out, const pb_trace_view *v, const nesting_params *params,
                    const nesting_seg *seg, int keep_share, pb_error *err);

int nesting_init(nesting **out, const pb_trace_view *v,
                 const nesting_params *params, pb_error *err)
{
    return init_any(out, v, params, NULL, 1, err);
}

int nesting_init_seg(nesting **out, const pb_trace_view *v,
                     const nesting_params *params, const nesting_seg *seg,
                     pb_error *err)
{
    return init_any(out, v, params, seg, 1, err);
}

/* nesting_init_seg; keep_share = 0: no shares (nesting_pair_share says 1),
 * which only the assignment table's confidences read.  Memory (README
 * speed rows, docs/nesting.md "Memory"): the arrays of a step are made
 * when it starts, and the whole trace's message-to-pair map, which only
 * pairing, the sweep and the assignment table read, is given back after
 * the sweep and made again by nesting_paths when the table is asked
 * for. */
static int init_any(nesting **out, const pb_trace_view *v, const nesting_params *params,
                    const nesting_seg *seg, int keep_share, pb_error *err)
{
    *out = NULL;
    if (!(params->base > 1.0) || params->bins < 1 || params->lowest <= 0 ||
        params->skew_window < 0 || !(params->smooth_width > 0) ||
        !(params->x >= 0) || !(params->y >= 0) || !(params->z >= 0))
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "nesting: invalid parameters (need hist_base > 1, "
                            "hist_bins >= 1, hist_lowest > 0, skew_window >= 0, "
                            "smooth_width > 0, x, y, z >= 0)");
    if (!v->nodes || (v->n && !v->msgs))
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "nesting: the trace view has no messages or node names");
    if (v->n >= UINT32_MAX)
        return pb_error_set(err, PB_ERANGE, NULL, 0, 0,
                            "nesting: %zu messages; at most %u are supported",
                            v->n, UINT32_MAX - 1);
    nesting *s = calloc(1, sizeof *s);
    if (!s)
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    s->v = *v;
    s->p = *params;
    s->own_hi = UINT32_MAX;
    if (seg) {
        s->own_lo = seg->own_lo;
        s->own_hi = seg->own_hi;
        s->fpar = seg->fpar;
        s->fshare = seg->fshare;
        s->seg_mode = seg->mode;
    }
    s->nnodes = v->nodes ? pb_strtab_count(v->nodes) : 0;
    for (size_t i = 0; i < v->n; i++) {
        /* a view built by hand could name nodes outside its table */
        if (v->msgs[i].src >= s->nnodes)
            s->nnodes = v->msgs[i].src + 1;
        if (v->msgs[i].dst >= s->nnodes)
            s->nnodes = v->msgs[i].dst + 1;
    }
    for (uint32_t c = 0; c < PEN_TAB; c++) {
        s->pen[0][c] = pow(1.0 + c, -params->x);
        s->pen[1][c] = pow(1.0 + c, -params->y);
        s->pen[2][c] = pow(1.0 + c, -params->z);
    }
    s->log_lowest = log((double)params->lowest);
    s->inv_log_base = 1.0 / log(params->base);
    s->sbcap = 64;
    s->sbt = malloc(s->sbcap * sizeof *s->sbt);
    s->pair_of_msg = malloc((v->n ? v->n : 1) * sizeof *s->pair_of_msg);
    int rc = PB_ENOMEM;
    if (!s->sbt || !s->pair_of_msg)
        goto fail;
    for (size_t i = 0; i < s->sbcap; i++)
        s->sbt[i].a = NONE;
    if ((rc = seg && seg->rcall ? given_pairs(s, seg->rcall) : find_pairs(s)) != PB_OK)
        goto fail;
    /* (a window segment may hold one-way messages only: the window driver
     * checks the whole trace) */
    if (!seg && v->n > 0 && s->calls + s->returns == 0) {
        nesting_close(s);
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "nesting: the trace has no call or return messages; "
                            "the nesting algorithm needs RPC call/return marks "
                            "(the type column)");
    }
    size_t np = (size_t)s->npairs + 1;
    s->cand_off = malloc(np * sizeof *s->cand_off);
    rc = PB_ENOMEM;
    if (!s->cand_off)
        goto fail;
    if (seg)
        sb_move(s, seg->sb);
    rc = sweep(s, err);
    if (seg)
        sb_move(seg->sb, s);
    if (rc != PB_OK) {
        nesting_close(s);
        return rc;
    }
    if (!seg) {
        free(s->pair_of_msg);
        s->pair_of_msg = NULL;
    }
    s->parent = malloc(np * sizeof *s->parent);
    s->first_child = malloc(np * sizeof *s->first_child);
    s->next_sib = malloc(np * sizeof *s->next_sib);
    if (keep_share)
        s->share = malloc(np * sizeof *s->share);
    rc = PB_ENOMEM;
    if (!s->parent || !s->first_child || !s->next_sib || (keep_share && !s->share))
        goto fail;
    for (size_t i = 0; keep_share && i < np; i++)
        s->share[i] = 1.0;
    if (seg && seg->mode == 1) {
        *out = s;
        return PB_OK;
    }
    if (seg) {
        sb_move(s, seg->sb);
        rc = nesting_choose(s);
        sb_move(seg->sb, s);
        if (rc != PB_OK)
            goto fail;
        *out = s;
        return PB_OK;
    }
    if (s->p.smooth && (rc = smooth(s, err)) != PB_OK) {
        nesting_close(s);
        return rc;
    }
    if ((rc = nesting_choose(s)) != PB_OK)
        goto fail;
    if (s->p.skew_window > 0 && (rc = nesting_break_cycles(s)) != PB_OK)
        goto fail;
    *out = s;
    return PB_OK;
fail:
    nesting_close(s);
    return pb_error_set(err, rc, NULL, 0, 0, "nesting: out of memory");
}

uint32_t nesting_npairs(const nesting *s) { return s->npairs; }
uint32_t nesting_pair_call(const nesting *s, uint32_t i) { return i < s->npairs && s->call ? s->call[i] : NONE; }
uint32_t nesting_pair_return(const nesting *s, uint32_t i) { return i < s->npairs && s->ret ? s->ret[i] : NONE; }
double nesting_pair_share(const nesting *s, uint32_t i)
{
    return i < s->npairs && s->share ? s->share[i] : 1.0;
}

uint32_t nesting_pair_parent(const nesting *s, uint32_t i) { return i < s->npairs && s->parent ? s->parent[i] : NONE; }

uint32_t nesting_pair_ncandidates(const nesting *s, uint32_t i)
{
    return i < s->npairs && s->cand_off ? s->cand_off[i + 1] - s->cand_off[i] : 0;
}

uint32_t nesting_pair_candidate(const nesting *s, uint32_t i, uint32_t k)
{
    if (k >= nesting_pair_ncandidates(s, i) || !s->cand)
        return NONE;
    return s->cand[s->cand_off[i] + k];
}

/* ------------------------------------------------------------------ */
/* Sliding-window pieces (nesting_int.h) */

int nesting_sb_new(nesting **out, const nesting_params *params)
{
    nesting *s = calloc(1, sizeof *s);
    *out = NULL;
    if (!s)
        return PB_ENOMEM;
    s->p = *params;
    s->log_lowest = log((double)params->lowest);
    s->inv_log_base = 1.0 / log(params->base);
    s->sbcap = 64;
    s->sbt = malloc(s->sbcap * sizeof *s->sbt);
    if (!s->sbt) {
        free(s);
        return PB_ENOMEM;
    }
    for (size_t i = 0; i < s->sbcap; i++)
        s->sbt[i].a = NONE;
    *out = s;
    return PB_OK;
}

int nesting_sb_smooth(nesting *sb, pb_error *err)
{
    return sb->p.smooth ? smooth(sb, err) : PB_OK;
}

uint32_t nesting_sb_nhist(const nesting *sb) { return sb->nhist; }

void nesting_seg_counts(const nesting *s, nesting_seg_counts_t *c)
{
    c->with_cands = s->with_cands;
    c->cands = s->own_cands;
    c->same_tick_cands = s->own_same_tick;
    c->capped = s->capped;
    c->capped_max = s->capped_max;
}

/* ------------------------------------------------------------------ */

static int nesting_run(const pb_trace_view *trace, const void *params,
                       pb_result *res, pb_error *err)
{
    if (((const nesting_params *)params)->window > 0)
        return nesting_window_run(trace, params, res, NULL, err);
    nesting *s;
    int rc = init_any(&s, trace, params, NULL, !res->skip_assign, err);
    if (rc != PB_OK)
        return rc;
    rc = nesting_paths(s, res, err);
    nesting_close(s);
    return rc;
}

int nesting_params_defaults(nesting_params *p, pb_error *err)
{
    memset(p, 0, sizeof *p);
    return pb_opt_defaults(nesting_options, p, err);
}

const pb_algo pb_algo_nesting = {
    "nesting", "call",
    "nesting algorithm (Project 5, SOSP'03 5.1): call pairs nested by a delay scoreboard",
    nesting_options, sizeof(nesting_params), nesting_run, NULL};
