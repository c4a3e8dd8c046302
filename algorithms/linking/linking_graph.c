/*
 * linking_graph.c - steps 1 and 2 of WAP5 message linking: average causal
 * delays per node pair and the weighted possible parents of every message,
 * inverted into possible children (Figures 5-8).
 *
 * Everything is a sweep over the ts-sorted trace.  Arrivals into each node
 * are kept in one compact array per node sorted by recv_ts (the trace is
 * sorted by ts, so they are nearly sorted already and an insertion sort
 * does it), and a per-node pointer slides forward as the sweep advances,
 * so the candidates of a message are the arrivals just behind the pointer.
 */
#include "linking.h"
#include "pb_mem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

/* ------------------------------------------------------------------ */
/* node pair -> dense id */

typedef struct pairmap {
    uint64_t *keys; /* UINT64_MAX = empty */
    uint32_t *vals;
    size_t cap;     /* power of two */
    size_t n;
} pairmap;

static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static int pairmap_init(pairmap *m, size_t cap)
{
    m->cap = cap;
    m->n = 0;
    m->keys = malloc(cap * sizeof *m->keys);
    m->vals = malloc(cap * sizeof *m->vals);
    if (!m->keys || !m->vals)
        return PB_ENOMEM;
    memset(m->keys, 0xff, cap * sizeof *m->keys);
    return PB_OK;
}

static void pairmap_free(pairmap *m)
{
    free(m->keys);
    free(m->vals);
}

/* Index of key's slot (holding key, or empty). */
static size_t pairmap_slot(const pairmap *m, uint64_t key)
{
    size_t j = (size_t)mix64(key) & (m->cap - 1);
    while (m->keys[j] != UINT64_MAX && m->keys[j] != key)
        j = (j + 1) & (m->cap - 1);
    return j;
}

static int pairmap_grow(pairmap *m)
{
    pairmap nm;
    if (pairmap_init(&nm, m->cap * 2) != PB_OK) {
        pairmap_free(&nm);
        return PB_ENOMEM;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (m->keys[i] == UINT64_MAX)
            continue;
        size_t j = pairmap_slot(&nm, m->keys[i]);
        nm.keys[j] = m->keys[i];
        nm.vals[j] = m->vals[i];
    }
    nm.n = m->n;
    pairmap_free(m);
    *m = nm;
    return PB_OK;
}

static uint64_t pair_key(uint32_t src, uint32_t dst)
{
    return (uint64_t)src << 32 | dst;
}

/* Pair id of key, or UINT32_MAX. */
static uint32_t pairmap_get(const pairmap *m, uint64_t key)
{
    size_t j = pairmap_slot(m, key);
    return m->keys[j] == key ? m->vals[j] : UINT32_MAX;
}

/* ------------------------------------------------------------------ */

typedef struct arrival {
    pb_ns t;       /* recv_ts, on the receiver's clock */
    uint32_t idx;  /* message index */
} arrival;

static int cmp_arrival(const void *a, const void *b)
{
    const arrival *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Sort one node's arrivals by (recv_ts, index).  Network delays vary, so
 * the ts-ordered fill is only nearly sorted; insertion sort is linear then,
 * and a bounded number of moves falls back to qsort for odd inputs. */
static void sort_arrivals(arrival *a, size_t n)
{
    size_t moves = 0, limit = 16 * n + 64;
    for (size_t i = 1; i < n; i++) {
        arrival v = a[i];
        size_t j = i;
        while (j > 0 && cmp_arrival(&a[j - 1], &v) > 0) {
            a[j] = a[j - 1];
            j--;
            if (++moves > limit) {
                a[j] = v;
                pb_sort(a, n, sizeof *a, cmp_arrival);
                return;
            }
        }
        a[j] = v;
    }
}

void link_graph_close(link_graph *g)
{
    if (!g)
        return;
    free(g->p_spont);
    free(g->argmax);
    free(g->child_off);
    free(g->child);
    free(g->child_p);
    free(g->pair_src);
    free(g->pair_dst);
    free(g->pair_d);
    free(g->pair_dn);
    free(g->pair_netn);
    free(g->pair_netsum);
    free(g->pair_netmin);
    free(g);
}

/* Figure 8: turn parent lists into child lists, keeping probabilities.
 * Children of a message come out in message (ts) order. */
static int invert(link_graph *g, const uint32_t *off, const uint32_t *par,
                  const float *p)
{
    size_t n = g->n, nl = off[n];
    g->nlinks = nl;
    g->child_off = calloc(n + 1, sizeof *g->child_off);
    g->child = malloc((nl ? nl : 1) * sizeof *g->child);
    g->child_p = malloc((nl ? nl : 1) * sizeof *g->child_p);
    uint32_t *pos = malloc((n ? n : 1) * sizeof *pos);
    if (!g->child_off || !g->child || !g->child_p || !pos) {
        free(pos);
        return PB_ENOMEM;
    }
    for (size_t l = 0; l < nl; l++)
        g->child_off[par[l] + 1]++;
    for (size_t i = 0; i < n; i++)
        g->child_off[i + 1] += g->child_off[i];
    memcpy(pos, g->child_off, n * sizeof *pos);
    for (size_t c = 0; c < n; c++)
        for (uint32_t l = off[c]; l < off[c + 1]; l++) {
            uint32_t q = pos[par[l]]++;
            g->child[q] = (uint32_t)c;
            g->child_p[q] = p[l];
        }
    free(pos);
    return PB_OK;
}

/* The most likely cause among parents (in list order) and spontaneity;
 * ties go to the earlier parent, and a parent beats spontaneity. */
static uint32_t pick_argmax(const uint32_t *par, const float *p, uint32_t n,
                            float p_spont)
{
    uint32_t best = LINK_SPONT;
    float bp = p_spont;
    for (uint32_t i = n; i-- > 0;)
        if (p[i] >= bp) {
            bp = p[i];
            best = par[i];
        }
    return best;
}

static link_graph *graph_alloc(size_t n)
{
    link_graph *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->n = n;
    g->p_spont = malloc((n ? n : 1) * sizeof *g->p_spont);
    g->argmax = malloc((n ? n : 1) * sizeof *g->argmax);
    if (!g->p_spont || !g->argmax) {
        link_graph_close(g);
        return NULL;
    }
    return g;
}

int link_graph_from_parents(size_t n, const uint32_t *par_off,
                            const uint32_t *par, const float *par_p,
                            const float *p_spont, link_graph **out,
                            pb_error *err)
{
    *out = NULL;
    if (n >= UINT32_MAX)
        return pb_error_set(err, PB_ERANGE, NULL, 0, 0, "too many messages");
    for (size_t i = 0; i < n; i++)
        for (uint32_t l = par_off[i]; l < par_off[i + 1]; l++)
            if (par[l] >= n || par[l] == i)
                return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                                    "message %zu: parent %u is not another "
                                    "message", i, par[l]);
    link_graph *g = graph_alloc(n);
    if (!g)
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    for (size_t i = 0; i < n; i++) {
        g->p_spont[i] = p_spont[i];
        g->argmax[i] = pick_argmax(par + par_off[i], par_p + par_off[i],
                                   par_off[i + 1] - par_off[i], p_spont[i]);
    }
    if (invert(g, par_off, par, par_p) != PB_OK) {
        link_graph_close(g);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    *out = g;
    return PB_OK;
}

double link_graph_prob(const link_graph *g, uint32_t parent, uint32_t child)
{
    if (!g || parent >= g->n)
        return 0;
    for (uint32_t l = g->child_off[parent]; l < g->child_off[parent + 1]; l++)
        if (g->child[l] == child)
            return g->child_p[l];
    return 0;
}

double link_graph_delay(const link_graph *g, uint32_t src, uint32_t dst)
{
    for (size_t i = 0; g && i < g->npairs; i++)
        if (g->pair_src[i] == src && g->pair_dst[i] == dst)
            return g->pair_d[i];
    return NAN;
}

/* ------------------------------------------------------------------ */
/* the sweep */

typedef struct cand {
    uint32_t idx;
    pb_ns delay;
} cand;

typedef struct sweep {
    const pb_msg *m;
    size_t n;
    uint32_t nnodes;
    pairmap pairs;
    uint32_t *pair_of;   /* [n] pair id of each message */
    /* arrivals with recv_ts, per receiving node, sorted by recv_ts */
    uint32_t *aoff;      /* [nnodes+1] */
    arrival *arr;
    uint32_t *ahi;       /* [nnodes] sliding pointer: first arrival > now */
    /* messages without recv_ts, per pair, in ts order (5.1, nil stamps) */
    uint32_t *noff;      /* [npairs+1] */
    uint32_t *nil;
    cand *buf;           /* candidates of the current message */
    size_t bufcap;
} sweep;

static void sweep_free(sweep *s)
{
    pairmap_free(&s->pairs);
    free(s->pair_of);
    free(s->aoff);
    free(s->arr);
    free(s->ahi);
    free(s->noff);
    free(s->nil);
    free(s->buf);
}

static int sweep_init(sweep *s, const pb_trace_view *v, link_graph *g)
{
    const pb_msg *m = v->msgs;
    size_t n = v->n;
    s->m = m;
    s->n = n;
    uint32_t nn = 0;
    for (size_t i = 0; i < n; i++) {
        if (m[i].src >= nn)
            nn = m[i].src + 1;
        if (m[i].dst >= nn)
            nn = m[i].dst + 1;
    }
    s->nnodes = nn;
    if (pairmap_init(&s->pairs, 1024) != PB_OK)
        return PB_ENOMEM;
    s->pair_of = malloc((n ? n : 1) * sizeof *s->pair_of);
    s->aoff = calloc((size_t)nn + 1, sizeof *s->aoff);
    s->ahi = calloc((size_t)nn + 1, sizeof *s->ahi);
    if (!s->pair_of || !s->aoff || !s->ahi)
        return PB_ENOMEM;
    size_t narr = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t key = pair_key(m[i].src, m[i].dst);
        size_t j = pairmap_slot(&s->pairs, key);
        if (s->pairs.keys[j] != key) {
            if ((s->pairs.n + 1) * 2 > s->pairs.cap) {
                if (pairmap_grow(&s->pairs) != PB_OK)
                    return PB_ENOMEM;
                j = pairmap_slot(&s->pairs, key);
            }
            s->pairs.keys[j] = key;
            s->pairs.vals[j] = (uint32_t)s->pairs.n++;
        }
        s->pair_of[i] = s->pairs.vals[j];
        if (m[i].recv_ts != PB_TS_NONE) {
            s->aoff[m[i].dst + 1]++;
            narr++;
        }
    }
    size_t np = s->pairs.n;
    g->npairs = np;
    g->pair_src = malloc((np ? np : 1) * sizeof *g->pair_src);
    g->pair_dst = malloc((np ? np : 1) * sizeof *g->pair_dst);
    g->pair_d = malloc((np ? np : 1) * sizeof *g->pair_d);
    g->pair_dn = calloc(np ? np : 1, sizeof *g->pair_dn);
    g->pair_netn = calloc(np ? np : 1, sizeof *g->pair_netn);
    g->pair_netsum = calloc(np ? np : 1, sizeof *g->pair_netsum);
    g->pair_netmin = malloc((np ? np : 1) * sizeof *g->pair_netmin);
    s->noff = calloc(np + 1, sizeof *s->noff);
    if (!g->pair_src || !g->pair_dst || !g->pair_d || !g->pair_dn ||
        !g->pair_netn || !g->pair_netsum || !g->pair_netmin || !s->noff)
        return PB_ENOMEM;
    for (size_t i = 0; i < s->pairs.cap; i++) {
        if (s->pairs.keys[i] == UINT64_MAX)
            continue;
        uint32_t id = s->pairs.vals[i];
        g->pair_src[id] = (uint32_t)(s->pairs.keys[i] >> 32);
        g->pair_dst[id] = (uint32_t)(s->pairs.keys[i] & 0xffffffffu);
        g->pair_d[id] = NAN;
        g->pair_netmin[id] = NAN;
    }
    for (uint32_t b = 0; b < nn; b++)
        s->aoff[b + 1] += s->aoff[b];
    s->arr = malloc((narr ? narr : 1) * sizeof *s->arr);
    if (!s->arr)
        return PB_ENOMEM;
    size_t nnil = n - narr;
    s->nil = malloc((nnil ? nnil : 1) * sizeof *s->nil);
    if (!s->nil)
        return PB_ENOMEM;
    /* ahi doubles as the fill cursor here, then is reset */
    memcpy(s->ahi, s->aoff, ((size_t)nn + 1) * sizeof *s->ahi);
    for (size_t i = 0; i < n; i++) {
        if (m[i].recv_ts != PB_TS_NONE) {
            arrival *a = &s->arr[s->ahi[m[i].dst]++];
            a->t = m[i].recv_ts;
            a->idx = (uint32_t)i;
            uint32_t pid = s->pair_of[i];
            double lat = pb_ns_to_sec(m[i].recv_ts - m[i].ts);
            g->pair_netn[pid]++;
            g->pair_netsum[pid] += lat;
            if (isnan(g->pair_netmin[pid]) || lat < g->pair_netmin[pid])
                g->pair_netmin[pid] = lat;
        } else {
            s->noff[s->pair_of[i] + 1]++;
        }
    }
    for (size_t p = 0; p < np; p++)
        s->noff[p + 1] += s->noff[p];
    uint32_t *cur = malloc((np ? np : 1) * sizeof *cur);
    if (!cur)
        return PB_ENOMEM;
    memcpy(cur, s->noff, np * sizeof *cur);
    for (size_t i = 0; i < n; i++)
        if (m[i].recv_ts == PB_TS_NONE)
            s->nil[cur[s->pair_of[i]]++] = (uint32_t)i;
    free(cur);
    g->nnil = nnil;
    for (uint32_t b = 0; b < nn; b++)
        sort_arrivals(s->arr + s->aoff[b], s->aoff[b + 1] - s->aoff[b]);
    memcpy(s->ahi, s->aoff, (size_t)nn * sizeof *s->ahi);
    return PB_OK;
}

static void sweep_rewind(sweep *s)
{
    memcpy(s->ahi, s->aoff, (size_t)s->nnodes * sizeof *s->ahi);
}

static int buf_push(sweep *s, size_t *len, uint32_t idx, pb_ns delay)
{
    if (pb_grow(&s->buf, sizeof *s->buf, &s->bufcap, *len + 1, 64) != PB_OK)
        return PB_ENOMEM;
    s->buf[*len].idx = idx;
    s->buf[*len].delay = delay;
    (*len)++;
    return PB_OK;
}

/* Candidate parents of message i with delay <= horizon, at most `cap` of
 * them, latest first, into s->buf; *len receives the count.
 *   - arrivals into i's sender with recv_ts <= i.ts (the sender's clock);
 *   - 5.1, nil stamps: a message P = X->B with no recv_ts may cause only
 *     B->X, timed on X's clock: delay = i.recv_ts - P.ts.
 * Call in ts order of i: the per-node pointers only move forward. */
static int candidates(sweep *s, size_t i, pb_ns horizon, size_t cap,
                      size_t *len)
{
    const pb_msg *mi = &s->m[i];
    uint32_t b = mi->src;
    *len = 0;
    uint32_t hi = s->ahi[b], end = s->aoff[b + 1];
    while (hi < end && s->arr[hi].t <= mi->ts)
        hi++;
    s->ahi[b] = hi;
    for (uint32_t j = hi; j-- > s->aoff[b] && *len < cap;) {
        pb_ns d = mi->ts - s->arr[j].t;
        if (d > horizon)
            break;
        if (s->arr[j].idx == i)
            continue;
        if (buf_push(s, len, s->arr[j].idx, d) != PB_OK)
            return PB_ENOMEM;
    }
    if (mi->recv_ts == PB_TS_NONE || s->noff[s->pairs.n] == 0)
        return PB_OK;
    uint32_t back = pairmap_get(&s->pairs, pair_key(mi->dst, mi->src));
    if (back == UINT32_MAX || s->noff[back] == s->noff[back + 1])
        return PB_OK;
    /* last nil message of X->B with ts <= i.recv_ts */
    uint32_t lo = s->noff[back], h = s->noff[back + 1];
    while (lo < h) {
        uint32_t mid = lo + (h - lo) / 2;
        if (s->m[s->nil[mid]].ts <= mi->recv_ts)
            lo = mid + 1;
        else
            h = mid;
    }
    size_t first_nil = *len, added = 0;
    for (uint32_t j = lo; j-- > s->noff[back] && added < cap;) {
        pb_ns d = mi->recv_ts - s->m[s->nil[j]].ts;
        if (d > horizon)
            break;
        if (buf_push(s, len, s->nil[j], d) != PB_OK)
            return PB_ENOMEM;
        added++;
    }
    if (first_nil > 0 && added > 0) {
        /* merge both kinds by delay (stable), keep the `cap` nearest */
        for (size_t a = 1; a < *len; a++) {
            cand v = s->buf[a];
            size_t c = a;
            while (c > 0 && s->buf[c - 1].delay > v.delay) {
                s->buf[c] = s->buf[c - 1];
                c--;
            }
            s->buf[c] = v;
        }
        if (*len > cap)
            *len = cap;
    }
    return PB_OK;
}

int link_node_flags(const pb_trace_view *v, const char *list, const char *opt,
                    uint8_t **out, pb_error *err)
{
    uint32_t nn = pb_strtab_count(v->nodes);
    for (size_t i = 0; i < v->n; i++) {
        if (v->msgs[i].src >= nn)
            nn = v->msgs[i].src + 1;
        if (v->msgs[i].dst >= nn)
            nn = v->msgs[i].dst + 1;
    }
    uint8_t *flag = calloc(nn ? nn : 1, 1);
    if (!flag)
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    for (const char *s = list; s && *s;) {
        const char *e = strchr(s, ',');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        uint32_t id;
        if (!pb_strtab_find(v->nodes, s, len, &id)) {
            free(flag);
            return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                                "linking: %s: no node \"%.*s\" in the "
                                "trace; expected comma-separated node names",
                                opt, (int)len, s);
        }
        flag[id] = 1;
        s += len + (e ? 1 : 0);
    }
    *out = flag;
    return PB_OK;
}

int link_graph_build(const pb_trace_view *v, const link_params *p,
                     link_graph **out, pb_error *err)
{
    *out = NULL;
    size_t n = v->n;
    if (n >= UINT32_MAX)
        return pb_error_set(err, PB_ERANGE, NULL, 0, 0,
                            "linking: %zu messages is more than it can index "
                            "(2^32-2)", n);
    if (p->x <= 0 || p->y < 0 || p->max_parents < 1 || p->dmin <= 0 ||
        !(p->prune > 0 && p->prune < 1))
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "linking: need x > 0, y >= 0, max_parents >= 1, "
                            "dmin > 0 and 0 < prune < 1");
    uint8_t *entry = NULL;
    if (p->entry && *p->entry) {
        int erc = link_node_flags(v, p->entry, "entry", &entry, err);
        if (erc != PB_OK)
            return erc;
    }
    link_graph *g = graph_alloc(n);
    sweep s;
    memset(&s, 0, sizeof s);
    int rc = PB_ENOMEM;
    if (!g)
        goto fail;
    if ((rc = sweep_init(&s, v, g)) != PB_OK)
        goto fail;

    /* Step 1: d = mean delay from the latest arrival within x. */
    size_t len;
    for (size_t i = 0; i < n; i++) {
        if (entry && entry[v->msgs[i].src])
            continue; /* an entry node's messages have no cause */
        if ((rc = candidates(&s, i, p->x, 1, &len)) != PB_OK)
            goto fail;
        if (len) {
            uint32_t pid = s.pair_of[i];
            if (g->pair_dn[pid]++ == 0)
                g->pair_d[pid] = 0;
            g->pair_d[pid] += pb_ns_to_sec(s.buf[0].delay);
        }
    }
    double dmin = pb_ns_to_sec(p->dmin);
    for (size_t q = 0; q < g->npairs; q++)
        if (g->pair_dn[q]) {
            g->pair_d[q] /= (double)g->pair_dn[q];
            if (g->pair_d[q] < dmin)
                g->pair_d[q] = dmin;
        }

    /* Step 2: weights exp(-lambda delay), spontaneous at y d, normalized.
     * Candidates lighter than prune * spont weight are not enumerated:
     * delay > d (y + ln(1/prune)).  Two identical sweeps: the first counts
     * the links each parent will hold, the second fills the child lists
     * in place, so no intermediate parent lists are kept. */
    double prune_ln = -log(p->prune);
    g->child_off = calloc(n + 1, sizeof *g->child_off);
    if (!g->child_off) {
        rc = PB_ENOMEM;
        goto fail;
    }
    double *w = NULL;
    size_t wcap = 0;
    uint32_t *pos = NULL;
    for (int pass = 0; pass < 2; pass++) {
        sweep_rewind(&s);
        for (size_t i = 0; i < n; i++) {
            double d = g->pair_d[s.pair_of[i]];
            len = 0;
            if (entry && entry[v->msgs[i].src]) {
                if (pass == 0)
                    g->nentry++;
            } else if (!isnan(d)) {
                double hz = d * (p->y + prune_ln);
                pb_ns horizon = hz < pb_ns_to_sec(p->x) ? pb_sec_to_ns(hz) : p->x;
                if ((rc = candidates(&s, i, horizon, (size_t)p->max_parents, &len)) != PB_OK)
                    goto fail_w;
            }
            if (!len) {
                if (pass == 0) {
                    g->p_spont[i] = 1;
                    g->argmax[i] = LINK_SPONT;
                    g->nspont_only++;
                }
                continue;
            }
            if (len > wcap) {
                double *nw = realloc(w, len * 2 * sizeof *nw);
                if (!nw) {
                    rc = PB_ENOMEM;
                    goto fail_w;
                }
                w = nw;
                wcap = len * 2;
            }
            double ws = exp(-p->y), sum = ws;
            for (size_t c = 0; c < len; c++) {
                w[c] = exp(-pb_ns_to_sec(s.buf[c].delay) / d);
                sum += w[c];
            }
            uint32_t best = LINK_SPONT;
            double bw = ws;
            for (size_t c = len; c-- > 0;)
                if (w[c] >= bw) { /* ties: the latest candidate, then a parent */
                    bw = w[c];
                    best = s.buf[c].idx;
                }
            if (pass == 0) {
                g->p_spont[i] = (float)(ws / sum);
                g->argmax[i] = best;
            }
            for (size_t c = 0; c < len; c++) {
                float pc = (float)(w[c] / sum);
                uint32_t par = s.buf[c].idx;
                /* links below min_link are left out of the lists (their
                 * factor 1-p is ~1); the most likely cause never is */
                if (pc < p->min_link && par != best)
                    continue;
                if (pass == 0) {
                    if (g->child_off[par + 1]++ == UINT32_MAX - 1 ||
                        ++g->nlinks >= UINT32_MAX) {
                        rc = PB_ERANGE;
                        goto fail_w;
                    }
                } else {
                    uint32_t q = pos[par]++;
                    g->child[q] = (uint32_t)i;
                    g->child_p[q] = pc;
                }
            }
        }
        if (pass == 0) {
            for (size_t i = 0; i < n; i++)
                g->child_off[i + 1] += g->child_off[i];
            size_t nl = g->nlinks ? g->nlinks : 1;
            g->child = malloc(nl * sizeof *g->child);
            g->child_p = malloc(nl * sizeof *g->child_p);
            pos = malloc((n ? n : 1) * sizeof *pos);
            if (!g->child || !g->child_p || !pos) {
                rc = PB_ENOMEM;
                goto fail_w;
            }
            memcpy(pos, g->child_off, n * sizeof *pos);
        }
    }
    free(w);
    free(pos);
    sweep_free(&s);
    free(entry);
    *out = g;
    return PB_OK;
fail_w:
    free(w);
    free(pos);
fail:
    sweep_free(&s);
    free(entry);
    link_graph_close(g);
    if (rc == PB_ERANGE)
        return pb_error_set(err, rc, NULL, 0, 0,
                            "linking: more than 2^32 candidate links; lower "
                            "max_parents or x");
    return pb_error_set(err, PB_ENOMEM, NULL, 0, 0,
                        "linking: out of memory building the link graph");
}
