/*
 * convolution.c - the convolution algorithm of Project 5 (seed 000, section
 * 5.2, Figure 6), with a correlation bounded to lags 0..L (conv_xcorr.h).
 *
 * FindPathsFromRoot / ProcessNode / FindCausedMessages as in Figure 6; the
 * output graph is a tree of vertices (a node may appear several times).
 * Children of one vertex that go to the same node are merged into one edge
 * carrying every delay found for it, ordered by declining frequency
 * (Figure 9), and the recursion continues with the union of their
 * messages.  The output is the graph (report, dot) and its root-to-leaf
 * chains as path-view patterns.  No message is ascribed to an instance.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "conv_xcorr.h"
#include "pb_algo.h"
#include "pb_ptree.h"
#include "pb_strbuf.h"
#include "pb_tick.h"

typedef struct conv_params {
    pb_ns mu;               /* 0 = automatic */
    double N, S;
    const char *v;
    const char *root;
    int min_count;
    int max_depth;
    int filter_count, filter_depth, filter_cycle, filter_negative,
        filter_chance;
    int cycle_repeats;
    int spike_passes;
    const char *lag_bound;
    const char *mode;
    const char *match;
    int sparse;
    int fft_size;
    double spont_frac;
    const char *root_rule;
    int max_vertices;
} conv_params;

/* Lag bound found automatically is never below this many quanta: a spike
 * needs enough lags around it for mean and deviation to mean something
 * (a lone spike among W lags stands sqrt(W - 1) deviations high). */
#define CONV_AUTO_FLOOR 256
/* Lags per level of the automatic lag-bound search. */
#define CONV_AUTO_LAGS 256
/* Above level 0, a spike counts only this many quanta from zero or more, so
 * that the bound it gives is at most 50% above its delay. */
#define CONV_AUTO_MINLAG 4
/* Hard limit on path length whatever the filters say, so that switching
 * every filter off cannot recurse without end. */
#define CONV_HARD_DEPTH 256

typedef struct ixlist {
    size_t *ix; /* message indices, in time order */
    size_t n, cap;
} ixlist;

typedef struct cv_delay {
    int64_t lag;     /* quanta */
    uint64_t count;  /* messages matched at this delay */
} cv_delay;

typedef struct cv_vertex {
    uint32_t node;
    uint32_t parent;       /* PB_PTREE_NONE for a root */
    uint32_t first_child, last_child, next_sibling;
    uint32_t depth;        /* edges from the root */
    uint64_t count;        /* messages on the edge into this vertex */
    cv_delay *delays;      /* by declining count; none on a root's edges */
    uint32_t ndelays;
} cv_vertex;

/* One destination found by FindCausedMessages. */
typedef struct cv_group {
    uint32_t dst;
    ixlist msgs;
    cv_delay *delays;
    uint32_t ndelays;
} cv_group;

typedef struct cv_ctx {
    const pb_trace_view *tv;
    const conv_params *p;
    pb_error *err;
    pb_ns t0, mu, v;
    int v_auto;            /* v=spike: match over each spike's width */
    int64_t S, L, lo, hi;
    const char *lag_source;
    uint32_t nnodes;
    int64_t *bin;          /* quantum of each message */
    ixlist *out, *in;      /* per node */
    conv_signal *outsig;   /* per node, built on first use */
    double *outmax;        /* per node: largest value of its out signal */
    unsigned char *outsig_ok;
    conv_xcorr *xc;
    double *C;
    conv_spike *spikes;
    size_t spike_cap;
    int64_t *binbuf;
    size_t binbuf_cap;
    conv_signal s1;
    uint64_t *dcount;      /* per node scratch, kept zero */
    cv_vertex *vx;
    uint32_t nvx, vxcap;
    int truncated;
    uint64_t vertex_capped;  /* edges not added: max_vertices reached */
    uint64_t hard_depth;     /* paths stopped at CONV_HARD_DEPTH edges */
    uint64_t chance_dropped, count_dropped, cycle_dropped, depth_stopped;
    uint64_t pair_matches;  /* FindCausedMessages calls matched by pairs */
    uint64_t spikes_pruned;  /* spikes that could not reach min_count */
} cv_ctx;

/* ------------------------------------------------------------------ */

static int ix_push(ixlist *l, size_t i)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        size_t *p = realloc(l->ix, cap * sizeof *p);
        if (!p)
            return PB_ENOMEM;
        l->ix = p;
        l->cap = cap;
    }
    l->ix[l->n++] = i;
    return PB_OK;
}

static void ix_free(ixlist *l)
{
    free(l->ix);
    l->ix = NULL;
    l->n = l->cap = 0;
}

/* floor(a / b) for b > 0 */
static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

static int oom(cv_ctx *c)
{
    return pb_error_set(c->err, PB_ENOMEM, NULL, 0, 0,
                        "convolution: out of memory");
}

static const char *node_name(const cv_ctx *c, uint32_t node)
{
    const char *s = pb_strtab_str(c->tv->nodes, node);
    return s ? s : "?";
}

/* Signal of a list of messages (in time order). */
static int signal_of(cv_ctx *c, const ixlist *l, conv_signal *s)
{
    if (l->n > c->binbuf_cap) {
        int64_t *b = realloc(c->binbuf, l->n * sizeof *b);
        if (!b)
            return oom(c);
        c->binbuf = b;
        c->binbuf_cap = l->n;
    }
    for (size_t i = 0; i < l->n; i++)
        c->binbuf[i] = c->bin[l->ix[i]];
    if (conv_signal_from_bins(s, c->binbuf, l->n) != PB_OK)
        return oom(c);
    return PB_OK;
}

static int out_signal(cv_ctx *c, uint32_t j, const conv_signal **s)
{
    if (!c->outsig_ok[j]) {
        int rc = signal_of(c, &c->out[j], &c->outsig[j]);
        if (rc)
            return rc;
        double mx = 0;
        for (size_t i = 0; i < c->outsig[j].n; i++)
            if (c->outsig[j].val[i] > mx)
                mx = c->outsig[j].val[i];
        c->outmax[j] = mx;
        c->outsig_ok[j] = 1;
    }
    *s = &c->outsig[j];
    return PB_OK;
}

/* Correlate the signal of V with everything j sends; spikes into
 * c->spikes.  Returns the number of spikes kept, or a negative status. */
static long correlate(cv_ctx *c, const ixlist *V, uint32_t j)
{
    const conv_signal *s2;
    int rc = signal_of(c, V, &c->s1);
    if (!rc)
        rc = out_signal(c, j, &s2);
    if (rc)
        return rc;
    if (conv_xcorr_run(c->xc, &c->s1, s2, c->C) != PB_OK)
        return pb_error_set(c->err, PB_EINVAL, NULL, 0, 0,
                            "convolution: internal error, signal outside the trace");
    size_t W = conv_xcorr_width(c->xc);
    size_t n = conv_find_spikes_clipped(c->C, W, c->lo, c->p->N, c->p->S,
                                        c->p->spike_passes, c->spikes, c->spike_cap);
    if (n > c->spike_cap) {
        conv_spike *sp = realloc(c->spikes, n * sizeof *sp);
        if (!sp)
            return oom(c);
        c->spikes = sp;
        c->spike_cap = n;
        conv_find_spikes_clipped(c->C, W, c->lo, c->p->N, c->p->S,
                                 c->p->spike_passes, c->spikes, n);
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!(c->p->filter_negative && c->spikes[i].lag < 0))
            c->spikes[k++] = c->spikes[i];
    return (long)k;
}

/* The delays a spike stands for, as a window [wlo, whi]: its delay d +/- v
 * (line 22 of Figure 6); with v=spike, from one quantum before the first lag
 * of the spike's run above S standard deviations to one quantum after its
 * last, so a broad spike (a delay that varies) takes in the messages of its
 * whole width and a sharp one gets d +/- mu. */
static void spike_window(const cv_ctx *c, const conv_spike *s, pb_ns *wlo,
                         pb_ns *whi)
{
    if (c->v_auto) {
        *wlo = (s->first - 1) * c->mu;
        *whi = (s->last + 1) * c->mu;
    } else {
        *wlo = s->lag * c->mu - c->v;
        *whi = s->lag * c->mu + c->v;
    }
}

/* Time covered by the union of the windows [t + wlo, t + whi], t in V: what
 * the chance estimate needs. */
static pb_ns cover_of(const cv_ctx *c, const ixlist *V, pb_ns wlo, pb_ns whi)
{
    const pb_msg *m = c->tv->msgs;
    pb_ns cover = 0, end = INT64_MIN;
    for (size_t i = 0; i < V->n; i++) {
        pb_ns a = m[V->ix[i]].ts + wlo, b = m[V->ix[i]].ts + whi;
        if (a < end)
            a = end;
        if (b > a)
            cover += b - a;
        if (b > end)
            end = b;
    }
    return cover;
}

/* Line 22 of Figure 6 for every spike: which messages z of Z (all that j
 * sends) follow some message of V by a delay inside spike s's window.
 * Pass 0 counts them per (spike, destination slot); pass 1 marks those of a
 * kept (spike, destination) pair.  Two ways, same answer: per spike, one
 * merge of V and Z (cost spikes x (|V| + |Z|)); or per pair of messages
 * whose delay is inside the spikes' range (cost: those pairs), which wins
 * when a fine quantum brings many spikes. */
typedef struct cv_match {
    const cv_ctx *c;
    const ixlist *V, *Z;
    long ns;
    pb_ns *wlo, *whi;       /* per spike; wlo increasing */
    size_t ndst;
    uint64_t *cnt;          /* [ns * ndst] */
    unsigned char *keep;    /* [ns * ndst] */
    unsigned char *mark;    /* [Z->n] */
    size_t *last;           /* [ns]: z + 1 of the last z counted */
    int by_pairs;
} cv_match;

static void match_act(cv_match *mm, int pass, long s, size_t z)
{
    size_t slot = mm->c->dcount[mm->c->tv->msgs[mm->Z->ix[z]].dst];
    size_t i = (size_t)s * mm->ndst + slot;
    if (pass == 0)
        mm->cnt[i]++;
    else if (mm->keep[i])
        mm->mark[z] = 1;
}

static void match_run(cv_match *mm, int pass)
{
    const pb_msg *m = mm->c->tv->msgs;
    const ixlist *V = mm->V, *Z = mm->Z;
    if (!mm->by_pairs) {
        for (long s = 0; s < mm->ns; s++) {
            if (pass == 1) {
                int any = 0;
                for (size_t k = 0; k < mm->ndst; k++)
                    any |= mm->keep[(size_t)s * mm->ndst + k];
                if (!any)
                    continue;
            }
            size_t p = 0;
            for (size_t z = 0; z < Z->n; z++) {
                pb_ns tz = m[Z->ix[z]].ts;
                while (p < V->n && m[V->ix[p]].ts + mm->whi[s] < tz)
                    p++;
                if (p < V->n && m[V->ix[p]].ts + mm->wlo[s] <= tz)
                    match_act(mm, pass, s, z);
            }
        }
        return;
    }
    pb_ns wmin = mm->wlo[0], wmax = mm->whi[0], width = 0;
    for (long s = 0; s < mm->ns; s++) {
        if (mm->whi[s] > wmax)
            wmax = mm->whi[s];
        if (mm->whi[s] - mm->wlo[s] > width)
            width = mm->whi[s] - mm->wlo[s];
        mm->last[s] = 0;
    }
    size_t p = 0;
    for (size_t z = 0; z < Z->n; z++) {
        pb_ns tz = m[Z->ix[z]].ts;
        while (p < V->n && m[V->ix[p]].ts + wmax < tz)
            p++;
        for (size_t q = p; q < V->n && m[V->ix[q]].ts + wmin <= tz; q++) {
            pb_ns d = tz - m[V->ix[q]].ts;
            /* the last spike whose window starts at or before d */
            long lo = 0, hi = mm->ns;
            while (lo < hi) {
                long mid = (lo + hi) / 2;
                if (mm->wlo[mid] <= d)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            for (long s = lo - 1; s >= 0 && mm->wlo[s] >= d - width; s--)
                if (d <= mm->whi[s] && mm->last[s] != z + 1) {
                    mm->last[s] = z + 1;
                    match_act(mm, pass, s, z);
                }
        }
    }
}

static void groups_free(cv_group *g, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        ix_free(&g[i].msgs);
        free(g[i].delays);
    }
    free(g);
}

static int cmp_delay(const void *x, const void *y)
{
    const cv_delay *a = x, *b = y;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return (a->lag > b->lag) - (a->lag < b->lag);
}

/* FindCausedMessages(V, T_j), grouped by destination: *out gets *nout
 * groups, each with its messages (time order) and its delays by declining
 * frequency.  A (delay, destination) pair is dropped when it carries fewer
 * than min_count messages (filter_count) or, with filter_chance, when its
 * count is within N standard deviations of what chance coincidences give.
 * Caller frees with groups_free. */
static int find_caused(cv_ctx *c, const ixlist *V, uint32_t j, cv_group **out,
                       size_t *nout)
{
    *out = NULL;
    *nout = 0;
    const ixlist *Z = &c->out[j];
    if (V->n == 0 || Z->n == 0)
        return PB_OK;
    long ns = correlate(c, V, j);
    if (ns < 0)
        return (int)ns;
    if (ns == 0)
        return PB_OK;
    const pb_msg *m = c->tv->msgs;
    cv_match mm;
    memset(&mm, 0, sizeof mm);
    uint32_t *dsts = NULL;
    size_t ndst = 0;
    cv_group *g = NULL;
    int rc = PB_OK;
    uint64_t *njk = NULL;
    mm.mark = calloc(Z->n, 1);
    mm.wlo = malloc((size_t)ns * sizeof *mm.wlo);
    mm.whi = malloc((size_t)ns * sizeof *mm.whi);
    mm.last = malloc((size_t)ns * sizeof *mm.last);
    if (!mm.mark || !mm.wlo || !mm.whi || !mm.last) {
        rc = oom(c);
        goto done;
    }
    /* destinations of j, in a fixed order */
    for (size_t z = 0; z < Z->n; z++) {
        uint32_t d = m[Z->ix[z]].dst;
        if (c->dcount[d] == 0) {
            uint32_t *nd = realloc(dsts, (ndst + 1) * sizeof *nd);
            if (!nd) {
                rc = oom(c);
                goto done;
            }
            dsts = nd;
            dsts[ndst++] = d;
        }
        c->dcount[d]++;
    }
    /* dcount holds n_jk, the messages j sends to each k: remember it, then
     * reuse dcount to map node -> slot */
    njk = calloc(ndst, sizeof *njk);
    mm.cnt = calloc((size_t)ns * ndst, sizeof *mm.cnt);
    mm.keep = calloc((size_t)ns * ndst, 1);
    if (!njk || !mm.cnt || !mm.keep) {
        rc = oom(c);
        goto done;
    }
    for (size_t k = 0; k < ndst; k++) {
        njk[k] = c->dcount[dsts[k]];
        c->dcount[dsts[k]] = k;
    }
    mm.c = c;
    mm.V = V;
    mm.Z = Z;
    mm.ns = ns;
    mm.ndst = ndst;
    /* A spike that cannot reach min_count messages is dropped before any
     * matching.  A message z matched at delays in [wlo, whi] sits at a lag
     * l in [floor(wlo/mu), ceil(whi/mu)] from its partner, and the z at lag
     * l number at most sum_t [a(t) > 0] b(t+l)^2 <= bmax C(l) (a >= 1 where
     * nonzero, b <= bmax), so bmax times the sum of C over those lags
     * bounds the count.  At a fine quantum this removes most noise spikes,
     * whose C is a few coincidences. */
    if (c->p->filter_count) {
        long kept = 0;
        for (long s = 0; s < ns; s++) {
            pb_ns a, b;
            spike_window(c, &c->spikes[s], &a, &b);
            int64_t l0 = floor_div(a, c->mu), l1 = -floor_div(-b, c->mu);
            int prune = 0;
            if (l0 >= c->lo && l1 <= c->hi) {
                double sum = 0;
                for (int64_t l = l0; l <= l1; l++)
                    sum += c->C[l - c->lo];
                prune = sum * c->outmax[j] * (1 + 1e-9) + 1e-6 < (double)c->p->min_count;
            }
            if (prune)
                c->spikes_pruned++;
            else
                c->spikes[kept++] = c->spikes[s];
        }
        ns = kept;
        mm.ns = ns;
        if (ns == 0)
            goto done;
    }
    pb_ns range_lo = INT64_MAX, range_hi = INT64_MIN;
    for (long s = 0; s < ns; s++) {
        spike_window(c, &c->spikes[s], &mm.wlo[s], &mm.whi[s]);
        if (mm.wlo[s] < range_lo)
            range_lo = mm.wlo[s];
        if (mm.whi[s] > range_hi)
            range_hi = mm.whi[s];
    }
    double span = (double)c->S * (double)c->mu;
    const char *how = c->p->match ? c->p->match : "auto";
    if (!strcmp(how, "spike")) {
        mm.by_pairs = 0;
    } else if (!strcmp(how, "pairs")) {
        mm.by_pairs = 1;
    } else {
        /* expected pairs if the messages were spread evenly, each costing
         * a short binary search, against one merge per spike */
        double pairs = (double)V->n * (double)Z->n *
                       (double)(range_hi - range_lo + 1) / span;
        double per_spike = (double)ns * (double)(V->n + Z->n);
        mm.by_pairs = pairs * (1 + log2((double)ns + 1)) < per_spike;
    }
    if (mm.by_pairs)
        c->pair_matches++;
    match_run(&mm, 0);
    for (long s = 0; s < ns; s++) {
        pb_ns cover = -1;
        for (size_t k = 0; k < ndst; k++) {
            uint64_t n = mm.cnt[(size_t)s * ndst + k];
            if (!n)
                continue;
            /* a delay must carry min_count messages to a destination by
             * itself: otherwise the union over many small noise spikes
             * (sparse signals at a fine quantum have many) passes */
            int ok = 1;
            if (c->p->filter_count && n < (uint64_t)c->p->min_count) {
                ok = 0;
                c->count_dropped++;
            } else if (c->p->filter_chance) {
                if (cover < 0)
                    cover = cover_of(c, V, mm.wlo[s], mm.whi[s]);
                double e = (double)njk[k] * (double)cover / span;
                ok = (double)n > e + c->p->N * sqrt(e);
                if (!ok)
                    c->chance_dropped++;
            }
            mm.keep[(size_t)s * ndst + k] = (unsigned char)ok;
        }
    }
    /* the union over spikes of the kept matches, per destination */
    match_run(&mm, 1);
    g = calloc(ndst, sizeof *g);
    if (!g) {
        rc = oom(c);
        goto done;
    }
    for (size_t k = 0; k < ndst; k++)
        g[k].dst = dsts[k];
    for (size_t z = 0; z < Z->n; z++)
        if (mm.mark[z] && ix_push(&g[c->dcount[m[Z->ix[z]].dst]].msgs, Z->ix[z])) {
            rc = oom(c);
            goto done;
        }
    size_t ng = 0;
    for (size_t k = 0; k < ndst; k++) {
        if (g[k].msgs.n == 0)
            continue;
        cv_delay *dl = calloc((size_t)ns, sizeof *dl);
        if (!dl) {
            rc = oom(c);
            goto done;
        }
        uint32_t nd = 0;
        for (long s = 0; s < ns; s++)
            if (mm.keep[(size_t)s * ndst + k]) {
                dl[nd].lag = c->spikes[s].lag;
                dl[nd].count = mm.cnt[(size_t)s * ndst + k];
                nd++;
            }
        qsort(dl, nd, sizeof *dl, cmp_delay);
        cv_group t = g[k];
        t.delays = dl;
        t.ndelays = nd;
        g[k] = g[ng];
        g[ng++] = t;
    }
    for (size_t k = ng; k < ndst; k++)
        ix_free(&g[k].msgs);
    *out = g;
    *nout = ng;
    g = NULL;
done:
    for (size_t k = 0; k < ndst; k++)
        c->dcount[dsts[k]] = 0;
    if (g)
        groups_free(g, ndst);
    free(dsts);
    free(njk);
    free(mm.cnt);
    free(mm.keep);
    free(mm.mark);
    free(mm.wlo);
    free(mm.whi);
    free(mm.last);
    return rc;
}

/* ------------------------------------------------------------------ */
/* The output graph */

static int add_vertex(cv_ctx *c, uint32_t parent, uint32_t node, uint64_t count,
                      cv_delay *delays, uint32_t ndelays, uint32_t *idx)
{
    if (c->nvx == c->vxcap) {
        uint32_t cap = c->vxcap ? 2 * c->vxcap : 64;
        cv_vertex *v = realloc(c->vx, (size_t)cap * sizeof *v);
        if (!v)
            return oom(c);
        c->vx = v;
        c->vxcap = cap;
    }
    uint32_t i = c->nvx++;
    cv_vertex *x = &c->vx[i];
    x->node = node;
    x->parent = parent;
    x->first_child = x->last_child = x->next_sibling = PB_PTREE_NONE;
    x->depth = parent == PB_PTREE_NONE ? 0 : c->vx[parent].depth + 1;
    x->count = count;
    x->delays = delays;
    x->ndelays = ndelays;
    if (parent != PB_PTREE_NONE) {
        cv_vertex *pv = &c->vx[parent];
        if (pv->last_child == PB_PTREE_NONE)
            pv->first_child = i;
        else
            c->vx[pv->last_child].next_sibling = i;
        pv->last_child = i;
    }
    *idx = i;
    return PB_OK;
}

/* Remove the last vertex again (a root that found nothing). */
static void drop_last_root(cv_ctx *c)
{
    c->nvx--;
}

/* Does the path to vertex x already use edge j -> k at delay `lag`? */
static int is_cycle(const cv_ctx *c, uint32_t x, uint32_t j, uint32_t k,
                    int64_t lag)
{
    int seen = 0;
    for (uint32_t u = x; c->vx[u].parent != PB_PTREE_NONE; u = c->vx[u].parent) {
        const cv_vertex *a = &c->vx[u];
        if (a->node != k || c->vx[a->parent].node != j || !a->ndelays)
            continue;
        int64_t dl = a->delays[0].lag - lag;
        if ((dl < 0 ? -dl : dl) * c->mu <= c->v && ++seen >= c->p->cycle_repeats)
            return 1;
    }
    return 0;
}

static int cmp_group_name(const void *x, const void *y, const cv_ctx *c)
{
    const cv_group *a = x, *b = y;
    return strcmp(node_name(c, a->dst), node_name(c, b->dst));
}

/* qsort has no context argument: sort small arrays by insertion */
static void sort_groups(cv_group *g, size_t n, const cv_ctx *c)
{
    for (size_t i = 1; i < n; i++) {
        cv_group t = g[i];
        size_t k = i;
        while (k > 0 && cmp_group_name(&g[k - 1], &t, c) > 0) {
            g[k] = g[k - 1];
            k--;
        }
        g[k] = t;
    }
}

static int process_node(cv_ctx *c, uint32_t j, uint32_t x, const ixlist *V)
{
    uint32_t depth = c->vx[x].depth;
    if (c->p->filter_depth && depth >= (uint32_t)c->p->max_depth) {
        if (c->out[j].n)
            c->depth_stopped++;
        return PB_OK;
    }
    if (depth >= CONV_HARD_DEPTH || c->nvx >= (uint32_t)c->p->max_vertices) {
        c->truncated = 1;
        if (depth >= CONV_HARD_DEPTH)
            c->hard_depth++;
        else
            c->vertex_capped++;
        return PB_OK;
    }
    cv_group *g;
    size_t ng;
    int rc = find_caused(c, V, j, &g, &ng);
    if (rc)
        return rc;
    sort_groups(g, ng, c);
    for (size_t i = 0; i < ng && !rc; i++) {
        uint64_t count = g[i].msgs.n;
        if (c->p->filter_count && count < (uint64_t)c->p->min_count) {
            c->count_dropped++;
            continue;
        }
        if (c->p->filter_cycle && is_cycle(c, x, j, g[i].dst, g[i].delays[0].lag)) {
            c->cycle_dropped++;
            continue;
        }
        if (c->nvx >= (uint32_t)c->p->max_vertices) {
            c->truncated = 1;
            c->vertex_capped += ng - i;
            break;
        }
        uint32_t y;
        rc = add_vertex(c, x, g[i].dst, count, g[i].delays, g[i].ndelays, &y);
        if (rc)
            break;
        g[i].delays = NULL; /* the vertex owns them now */
        rc = process_node(c, g[i].dst, y, &g[i].msgs);
        ix_free(&g[i].msgs); /* done with this subtree: free early */
    }
    groups_free(g, ng);
    return rc;
}

static int find_paths_from_root(cv_ctx *c, uint32_t i)
{
    const ixlist *T = &c->out[i];
    if (!T->n)
        return PB_OK;
    uint32_t x;
    int rc = add_vertex(c, PB_PTREE_NONE, i, 0, NULL, 0, &x);
    if (rc)
        return rc;
    /* split T_i by destination, destinations in name order */
    const pb_msg *m = c->tv->msgs;
    cv_group *g = NULL;
    size_t ng = 0;
    for (size_t z = 0; z < T->n; z++) {
        uint32_t d = m[T->ix[z]].dst;
        if (!c->dcount[d]) {
            cv_group *ng2 = realloc(g, (ng + 1) * sizeof *g);
            if (!ng2) {
                rc = oom(c);
                break;
            }
            g = ng2;
            memset(&g[ng], 0, sizeof *g);
            g[ng].dst = d;
            c->dcount[d] = ++ng;
        }
        if (ix_push(&g[c->dcount[d] - 1].msgs, T->ix[z])) {
            rc = oom(c);
            break;
        }
    }
    for (size_t k = 0; k < ng; k++)
        c->dcount[g[k].dst] = 0;
    if (!rc)
        sort_groups(g, ng, c);
    for (size_t k = 0; k < ng && !rc; k++) {
        if (c->p->filter_count && g[k].msgs.n < (uint64_t)c->p->min_count) {
            c->count_dropped++;
            continue;
        }
        if (c->nvx >= (uint32_t)c->p->max_vertices) {
            c->truncated = 1;
            c->vertex_capped += ng - k;
            break;
        }
        uint32_t y;
        rc = add_vertex(c, x, g[k].dst, g[k].msgs.n, NULL, 0, &y);
        if (!rc)
            rc = process_node(c, g[k].dst, y, &g[k].msgs);
        ix_free(&g[k].msgs);
    }
    groups_free(g, ng);
    if (!rc && c->vx[x].first_child == PB_PTREE_NONE && x == c->nvx - 1)
        drop_last_root(c);
    return rc;
}

/* A node sends spontaneously when it receives nothing, or when at least
 * spont_frac of what it sends is not explained by any spike of the
 * correlation of everything it receives with everything it sends.  *frac
 * gets the unexplained fraction (-1 for a node that sends nothing). */
static int is_spontaneous(cv_ctx *c, uint32_t j, int *yes, double *frac)
{
    *yes = 0;
    *frac = -1;
    if (!c->out[j].n)
        return PB_OK;
    if (!c->in[j].n) {
        *yes = 1;
        *frac = 1;
        return PB_OK;
    }
    cv_group *g;
    size_t ng;
    int rc = find_caused(c, &c->in[j], j, &g, &ng);
    if (rc)
        return rc;
    size_t explained = 0;
    for (size_t k = 0; k < ng; k++)
        explained += g[k].msgs.n;
    groups_free(g, ng);
    double unexplained = 1.0 - (double)explained / (double)c->out[j].n;
    *yes = unexplained >= c->p->spont_frac;
    *frac = unexplained;
    return PB_OK;
}

/* ------------------------------------------------------------------ */
/* Lag bound */

/* The automatic lag bound: a search over scales.  Level k looks at the
 * trace in quanta of 2^k mu and correlates, for every node, everything it
 * receives with everything it sends over CONV_AUTO_LAGS lags, so level k
 * sees delays up to CONV_AUTO_LAGS 2^k mu.  A spike in the lower half of
 * level k's window lies where level k - 1 already looked more finely, so
 * only level 0 and the upper halves count.  The bound is the largest delay
 * any counted spike shows plus two of its quanta (for the binning), never
 * below CONV_AUTO_FLOOR quanta.  Levels stop when the window reaches a
 * quarter of the trace. */
static int auto_lag_bound(cv_ctx *c, int64_t *L)
{
    int64_t best = CONV_AUTO_FLOOR;
    int64_t *bins = NULL;
    size_t bcap = 0;
    conv_signal a = {0}, b = {0};
    conv_spike sp[CONV_AUTO_LAGS];
    double C[CONV_AUTO_LAGS];
    int rc = PB_OK;
    for (int64_t f = 1; !rc; f *= 2) {
        int64_t Sk = (c->S + f - 1) / f;
        if (f > 1 && CONV_AUTO_LAGS * 4 > Sk)
            break;
        conv_xcorr_cfg cfg = {0, CONV_AUTO_LAGS - 1, Sk, CONV_BLOCKED, 1, 0};
        conv_xcorr *xc = NULL;
        rc = conv_xcorr_init(&xc, &cfg, c->err);
        for (uint32_t j = 0; j < c->nnodes && !rc; j++) {
            const ixlist *l[2] = {&c->in[j], &c->out[j]};
            conv_signal *s[2] = {&a, &b};
            if (!l[0]->n || !l[1]->n)
                continue;
            for (int h = 0; h < 2 && !rc; h++) {
                if (l[h]->n > bcap) {
                    int64_t *nb = realloc(bins, l[h]->n * sizeof *nb);
                    if (!nb) {
                        rc = oom(c);
                        break;
                    }
                    bins = nb;
                    bcap = l[h]->n;
                }
                for (size_t i = 0; i < l[h]->n; i++)
                    bins[i] = c->bin[l[h]->ix[i]] / f;
                if (conv_signal_from_bins(s[h], bins, l[h]->n))
                    rc = oom(c);
            }
            if (rc || conv_xcorr_run(xc, &a, &b, C))
                break;
            size_t n = conv_find_spikes(C, CONV_AUTO_LAGS, 0, c->p->N, c->p->S, sp,
                                        CONV_AUTO_LAGS);
            for (size_t i = 0; i < n && i < CONV_AUTO_LAGS; i++)
                if ((f == 1 || sp[i].lag >= CONV_AUTO_MINLAG) &&
                    (sp[i].lag + 2) * f > best)
                    best = (sp[i].lag + 2) * f;
        }
        conv_xcorr_close(xc);
        if (f > c->S)
            break;
    }
    conv_signal_free(&a);
    conv_signal_free(&b);
    free(bins);
    if (!rc)
        *L = best;
    return rc;
}

/* ------------------------------------------------------------------ */
/* Output */

static void fmt_delay(const cv_ctx *c, int64_t lag, char *buf)
{
    pb_seconds_format(lag * c->mu, buf);
}

static double mean_delay(const cv_ctx *c, const cv_vertex *x)
{
    double s = 0, w = 0;
    for (uint32_t i = 0; i < x->ndelays; i++) {
        s += (double)x->delays[i].lag * (double)x->delays[i].count;
        w += (double)x->delays[i].count;
    }
    return w > 0 ? pb_ns_to_sec(c->mu) * s / w : NAN;
}

static int report_edge(pb_strbuf *r, const cv_ctx *c, uint32_t y)
{
    const cv_vertex *x = &c->vx[y];
    int rc = 0;
    for (uint32_t d = 1; d < x->depth; d++)
        rc |= pb_strbuf_puts(r, "  ");
    rc |= pb_strbuf_printf(r, "%s -> %s  count=%llu", node_name(c, c->vx[x->parent].node),
                           node_name(c, x->node), (unsigned long long)x->count);
    if (x->ndelays) {
        rc |= pb_strbuf_puts(r, "  delays=");
        for (uint32_t i = 0; i < x->ndelays; i++) {
            char b[PB_SECONDS_BUF];
            fmt_delay(c, x->delays[i].lag, b);
            rc |= pb_strbuf_printf(r, "%s%s(%llu)", i ? "," : "", b,
                                   (unsigned long long)x->delays[i].count);
        }
    }
    rc |= pb_strbuf_putc(r, '\n');
    return rc;
}

static int dot_string(pb_strbuf *d, const char *s)
{
    int rc = pb_strbuf_putc(d, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            rc |= pb_strbuf_putc(d, '\\');
        rc |= pb_strbuf_putc(d, *s);
    }
    return rc | pb_strbuf_putc(d, '"');
}

/* Report (Figure 9 as text), dot, and the root-to-leaf chains. */
static int emit(cv_ctx *c, pb_result *res)
{
    pb_strbuf *r = &res->report, *d = &res->dot;
    int rc = 0;
    char mub[PB_SECONDS_BUF], lb[PB_SECONDS_BUF];
    pb_seconds_format(c->mu, mub);
    pb_seconds_format(c->L * c->mu, lb);
    rc |= pb_strbuf_printf(r, "# convolution graph: mu=%s s, lag bound %lld quanta = %s s (%s), "
                              "mode=%s, %u vertices%s\n",
                           mub, (long long)c->L, lb, c->lag_source, c->p->mode, c->nvx,
                           c->truncated ? " (truncated)" : "");
    rc |= pb_strbuf_puts(r, "# each line: SRC -> DST  count=MESSAGES  delays=SECONDS(MESSAGES),... "
                            "by declining frequency\n");
    rc |= pb_strbuf_puts(d, "digraph convolution {\n  node [shape=ellipse];\n");
    for (uint32_t i = 0; i < c->nvx && !rc; i++) {
        const cv_vertex *x = &c->vx[i];
        rc |= pb_strbuf_printf(d, "  v%u [label=", i);
        rc |= dot_string(d, node_name(c, x->node));
        rc |= pb_strbuf_puts(d, "];\n");
        if (x->parent == PB_PTREE_NONE) {
            rc |= pb_strbuf_printf(r, "root %s\n", node_name(c, x->node));
            continue;
        }
        rc |= report_edge(r, c, i);
        rc |= pb_strbuf_printf(d, "  v%u -> v%u [label=\"%llu", x->parent, i,
                               (unsigned long long)x->count);
        for (uint32_t k = 0; k < x->ndelays; k++) {
            char b[PB_SECONDS_BUF];
            fmt_delay(c, x->delays[k].lag, b);
            rc |= pb_strbuf_printf(d, "\\n%s s", b);
        }
        rc |= pb_strbuf_puts(d, "\"];\n");
    }
    rc |= pb_strbuf_puts(d, "}\n");
    if (rc)
        return oom(c);

    /* root-to-leaf chains */
    pb_ptree t = {0};
    pb_strbuf text = {0};
    uint32_t *chain = malloc(((size_t)CONV_HARD_DEPTH + 2) * sizeof *chain);
    uint32_t *order = malloc(((size_t)CONV_HARD_DEPTH + 2) * sizeof *order);
    double *lat = malloc(((size_t)CONV_HARD_DEPTH + 2) * sizeof *lat);
    double *pos = malloc(((size_t)CONV_HARD_DEPTH + 2) * sizeof *pos);
    if (!chain || !order || !lat || !pos)
        rc = PB_ENOMEM;
    uint64_t npaths = 0;
    for (uint32_t i = 0; i < c->nvx && !rc; i++) {
        const cv_vertex *leaf = &c->vx[i];
        if (leaf->parent == PB_PTREE_NONE || leaf->first_child != PB_PTREE_NONE)
            continue;
        uint32_t n = 0;
        for (uint32_t u = i; u != PB_PTREE_NONE; u = c->vx[u].parent)
            chain[n++] = u;
        for (uint32_t a = 0, b = n - 1; a < b; a++, b--) {
            uint32_t tmp = chain[a];
            chain[a] = chain[b];
            chain[b] = tmp;
        }
        pb_ptree_reset(&t);
        uint32_t prev = PB_PTREE_NONE;
        for (uint32_t k = 0; k < n && !rc; k++)
            rc = pb_ptree_add(&t, prev, c->vx[chain[k]].node, &prev);
        pb_strbuf_reset(&text);
        if (!rc)
            rc = pb_ptree_canonical(&t, c->tv->nodes, &text, order);
        if (rc)
            break;
        /* node latency of chain node k: the delay before it sends the
         * next message of the chain (the spike delays of the next edge,
         * weighted by their counts); unknown at the root and the leaf */
        double total = 0;
        for (uint32_t k = 0; k < n; k++) {
            double l = k + 1 < n ? mean_delay(c, &c->vx[chain[k + 1]]) : NAN;
            lat[k] = l;
            if (!isnan(l))
                total += l;
        }
        for (uint32_t k = 0; k < n; k++)
            pos[order[k]] = lat[k];
        /* count instances of equal weight and equal statistics: one add of
         * weight `count` gives the same sums as `count` adds of weight 1 */
        pb_pattern *e;
        double w = (double)leaf->count;
        rc = pb_pattab_add(res->patterns, pb_strbuf_str(&text), n, w, total, pos,
                           NULL, &e);
        if (rc)
            break;
        e->count += leaf->count - 1;
        e->max_prob = 1;
        npaths++;
    }
    pb_ptree_free(&t);
    pb_strbuf_free(&text);
    free(chain);
    free(order);
    free(lat);
    free(pos);
    if (rc == PB_ENOMEM)
        return oom(c);
    if (rc)
        return pb_error_set(c->err, rc, NULL, 0, 0,
                            "convolution: internal error building path patterns");
    return pb_result_meta(res, "paths=%llu", (unsigned long long)npaths) ? oom(c) : PB_OK;
}

/* ------------------------------------------------------------------ */

static int parse_params(cv_ctx *c, const conv_params *p, int64_t *user_L,
                        int *full, conv_mode *mode)
{
    pb_error *err = c->err;
    if (p->S > p->N)
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "option S (%g) must not exceed N (%g): the valley "
                            "between spikes lies below the spike threshold", p->S, p->N);
    if (!p->v || !strcmp(p->v, "auto")) {
        c->v = c->mu;
    } else if (!strcmp(p->v, "spike")) {
        c->v = c->mu;
        c->v_auto = 1;
    } else if (pb_duration_parse(p->v, &c->v) != PB_OK || c->v < 0) {
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "option v: expected \"auto\", \"spike\" or a duration >= 0 such as "
                            "10ms, got \"%s\"", p->v);
    }
    *user_L = -1;
    *full = 0;
    if (!p->lag_bound || !strcmp(p->lag_bound, "auto")) {
    } else if (!strcmp(p->lag_bound, "full")) {
        *full = 1;
    } else {
        pb_ns d;
        if (pb_duration_parse(p->lag_bound, &d) != PB_OK || d <= 0)
            return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                                "option lag_bound: expected \"auto\", \"full\" or a "
                                "positive duration such as 2s, got \"%s\"", p->lag_bound);
        *user_L = (d + c->mu - 1) / c->mu;
    }
    if (p->match && strcmp(p->match, "auto") && strcmp(p->match, "spike") &&
        strcmp(p->match, "pairs"))
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "option match: expected \"auto\", \"spike\" or \"pairs\", "
                            "got \"%s\"", p->match);
    if (p->root_rule && strcmp(p->root_rule, "auto") && strcmp(p->root_rule, "senders") &&
        strcmp(p->root_rule, "spontaneous"))
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "option root_rule: expected \"auto\", \"senders\" or "
                            "\"spontaneous\", got \"%s\"", p->root_rule);
    if (!p->mode || !strcmp(p->mode, "blocked"))
        *mode = CONV_BLOCKED;
    else if (!strcmp(p->mode, "exact"))
        *mode = CONV_EXACT;
    else
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "option mode: expected \"blocked\" or \"exact\", got \"%s\"",
                            p->mode);
    return PB_OK;
}

static void ctx_free(cv_ctx *c)
{
    for (uint32_t j = 0; c->out && j < c->nnodes; j++) {
        ix_free(&c->out[j]);
        ix_free(&c->in[j]);
        conv_signal_free(&c->outsig[j]);
    }
    free(c->out);
    free(c->in);
    free(c->outsig);
    free(c->outsig_ok);
    free(c->outmax);
    free(c->bin);
    free(c->dcount);
    conv_xcorr_close(c->xc);
    free(c->C);
    free(c->spikes);
    free(c->binbuf);
    conv_signal_free(&c->s1);
    for (uint32_t i = 0; i < c->nvx; i++)
        free(c->vx[i].delays);
    free(c->vx);
}

static int cmp_ts_idx(const void *x, const void *y, const pb_msg *m)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    if (m[a].ts != m[b].ts)
        return m[a].ts < m[b].ts ? -1 : 1;
    return (a > b) - (a < b);
}

/* merge sort of message indices by (ts, index); only used when the view
 * is not already in time order */
static void sort_by_ts(size_t *ix, size_t *tmp, size_t n, const pb_msg *m)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    sort_by_ts(ix, tmp, h, m);
    sort_by_ts(ix + h, tmp, n - h, m);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = cmp_ts_idx(&ix[i], &ix[j], m) <= 0 ? ix[i++] : ix[j++];
    while (i < h)
        tmp[k++] = ix[i++];
    while (j < n)
        tmp[k++] = ix[j++];
    memcpy(ix, tmp, n * sizeof *ix);
}

/* Round down to 1, 2 or 5 times a power of ten (ns); at least 1. */
static pb_ns round_125(pb_ns x)
{
    pb_ns p = 1;
    while (p <= x / 10)
        p *= 10;
    if (x >= 5 * p)
        return 5 * p;
    if (x >= 2 * p)
        return 2 * p;
    return p;
}

static int cmp_ns(const void *a, const void *b)
{
    pb_ns x = *(const pb_ns *)a, y = *(const pb_ns *)b;
    return x < y ? -1 : x > y;
}

/* mu from the trace's own time scale (docs/convolution.md "Choosing mu"):
 * the median delay from a node's latest arrival to each message it sends
 * (one hop of a request), eight times it (typical requests are 15-20
 * such hops), rounded down to 1-2-5, at most the paper's 10 ms; never below the trace's tick,
 * and never so small
 * that the trace spans more than CONV_AUTO_MAX_QUANTA quanta.  why gets
 * the reasoning in words.  Returns PB_OK or PB_ENOMEM. */
#define CONV_AUTO_MAX_QUANTA (INT64_C(1) << 24)
#define CONV_DEFAULT_MU 10000000 /* 10 ms: the paper's Table 1 value */
static int auto_mu(const pb_trace_view *tv, pb_ns *mu, pb_strbuf *why)
{
    uint32_t nn = pb_strtab_count(tv->nodes);
    const pb_msg *m = tv->msgs;
    for (size_t i = 0; i < tv->n; i++) {
        if (m[i].src >= nn)
            nn = m[i].src + 1;
        if (m[i].dst >= nn)
            nn = m[i].dst + 1;
    }
    pb_ns *last = malloc((nn ? nn : 1) * sizeof *last);
    pb_ns *gap = malloc((tv->n ? tv->n : 1) * sizeof *gap);
    if (!last || !gap) {
        free(last);
        free(gap);
        return PB_ENOMEM;
    }
    for (uint32_t j = 0; j < nn; j++)
        last[j] = PB_TS_NONE;
    size_t ng = 0;
    pb_ns t0 = tv->n ? m[0].ts : 0, t1 = t0;
    for (size_t i = 0; i < tv->n; i++) {
        if (m[i].ts < t0)
            t0 = m[i].ts;
        if (m[i].ts > t1)
            t1 = m[i].ts;
        pb_ns a = last[m[i].src];
        if (a != PB_TS_NONE && m[i].ts >= a)
            gap[ng++] = m[i].ts - a;
        if (last[m[i].dst] == PB_TS_NONE || m[i].ts > last[m[i].dst])
            last[m[i].dst] = m[i].ts;
    }
    pb_tick_info tk;
    pb_tick_detect(m, tv->n, &tk);
    char a[PB_SECONDS_BUF], b[PB_SECONDS_BUF], tb[PB_TICK_BUF];
    int rc = PB_OK;
    if (ng == 0) {
        *mu = CONV_DEFAULT_MU;
        rc = pb_strbuf_printf(why, "no node both receives and sends, so the trace "
                                   "shows no delay to scale mu by; mu = the paper's "
                                   "10 ms");
    } else {
        qsort(gap, ng, sizeof *gap, cmp_ns);
        pb_ns med = gap[ng / 2];
        pb_ns q = round_125(8 * med);
        pb_seconds_format(med, a);
        pb_seconds_format(q, b);
        rc = pb_strbuf_printf(why, "median delay from a node's latest arrival to "
                                   "its next send %s s over %zu sends (one hop); "
                                   "eight hops, rounded down to 1-2-5, stay below a "
                                   "typical request (15-20 hops in the hotel and "
                                   "multi-tier traces): %s s", a, ng, b);
        if (q > CONV_DEFAULT_MU) {
            q = CONV_DEFAULT_MU;
            rc |= pb_strbuf_printf(why, "; capped at the paper's 10 ms");
        }
        if (tk.tick > q) {
            q = tk.tick;
            rc |= pb_strbuf_printf(why, "; raised to the trace's tick %s",
                                   pb_tick_format(tk.tick, tb));
        }
        pb_ns span = t1 - t0;
        if (span / q > CONV_AUTO_MAX_QUANTA) {
            pb_ns need = span / CONV_AUTO_MAX_QUANTA + 1, r = round_125(need);
            q = r < need ? round_125(need * 2 + 1) : r;
            while (span / q > CONV_AUTO_MAX_QUANTA)
                q *= 2;
            pb_seconds_format(q, b);
            rc |= pb_strbuf_printf(why, "; raised to %s s so that the trace spans at "
                                        "most 2^24 quanta", b);
        }
        *mu = q;
    }
    rc |= pb_strbuf_printf(why, "; give -s mu=10ms for the paper's Table 1 setting");
    free(last);
    free(gap);
    return rc ? PB_ENOMEM : PB_OK;
}

/* Every cap or stop that changed the graph, as a warning for stderr with
 * the option that moves it. */
static int cap_warnings(cv_ctx *c, pb_result *res)
{
    int rc = PB_OK;
    if (c->vertex_capped)
        rc |= pb_result_warn(res, "the graph reached max_vertices=%d vertices and was "
                                  "cut there: %llu edges were not followed, so paths "
                                  "are missing (raise -s max_vertices=N, or prune with "
                                  "a larger -s min_count=N, now %d, or a larger mu)",
                             c->p->max_vertices, (unsigned long long)c->vertex_capped,
                             c->p->min_count);
    if (c->hard_depth)
        rc |= pb_result_warn(res, "%llu paths stopped at the hard limit of %d edges "
                                  "(filter_depth is off; give -s filter_depth=1)",
                             (unsigned long long)c->hard_depth, CONV_HARD_DEPTH);
    if (c->depth_stopped)
        rc |= pb_result_warn(res, "%llu paths stopped at max_depth=%d edges (the "
                                  "depth filter of 5.2.3; raise -s max_depth=N, at "
                                  "most %d, or give -s filter_depth=0)",
                             (unsigned long long)c->depth_stopped, c->p->max_depth,
                             CONV_HARD_DEPTH);
    return rc ? oom(c) : PB_OK;
}

static int convolution_run(const pb_trace_view *tv, const void *params,
                           pb_result *res, pb_error *err)
{
    const conv_params *p = params;
    cv_ctx c;
    memset(&c, 0, sizeof c);
    c.tv = tv;
    c.p = p;
    c.err = err;
    pb_strbuf mu_why = {0};
    int mu_auto = p->mu <= 0;
    int rc;
    c.mu = p->mu;
    if (mu_auto && (rc = auto_mu(tv, &c.mu, &mu_why)) != PB_OK) {
        pb_strbuf_free(&mu_why);
        return oom(&c);
    }
    if (mu_auto) {
        char mb[PB_SECONDS_BUF];
        pb_seconds_format(c.mu, mb);
        rc = pb_result_meta(res, "mu_source=auto mu_auto=%s mu_why: %s", mb,
                            pb_strbuf_str(&mu_why));
        pb_strbuf_free(&mu_why);
        if (rc)
            return oom(&c);
    } else if (pb_result_meta(res, "mu_source=user")) {
        return oom(&c);
    }
    int64_t user_L = -1;
    int full = 0;
    conv_mode mode = CONV_BLOCKED;
    rc = parse_params(&c, p, &user_L, &full, &mode);
    if (rc)
        return rc;
    res->rank_by = PB_RANK_COUNT;
    if (tv->n == 0) {
        pb_strbuf_puts(&res->report, "# convolution graph: empty trace\n");
        pb_strbuf_puts(&res->dot, "digraph convolution {\n}\n");
        return PB_OK;
    }
    c.nnodes = pb_strtab_count(tv->nodes);
    const pb_msg *m = tv->msgs;
    size_t *ord = malloc(tv->n * sizeof *ord);
    c.bin = malloc(tv->n * sizeof *c.bin);
    c.out = calloc(c.nnodes ? c.nnodes : 1, sizeof *c.out);
    c.in = calloc(c.nnodes ? c.nnodes : 1, sizeof *c.in);
    c.outsig = calloc(c.nnodes ? c.nnodes : 1, sizeof *c.outsig);
    c.outsig_ok = calloc(c.nnodes ? c.nnodes : 1, 1);
    c.outmax = calloc(c.nnodes ? c.nnodes : 1, sizeof *c.outmax);
    c.dcount = calloc(c.nnodes ? c.nnodes : 1, sizeof *c.dcount);
    if (!ord || !c.bin || !c.out || !c.in || !c.outsig || !c.outsig_ok || !c.outmax || !c.dcount) {
        free(ord);
        rc = oom(&c);
        goto done;
    }
    int sorted = 1;
    pb_ns t0 = m[0].ts, t1 = m[0].ts;
    for (size_t i = 0; i < tv->n; i++) {
        ord[i] = i;
        if (i && m[i].ts < m[i - 1].ts)
            sorted = 0;
        if (m[i].ts < t0)
            t0 = m[i].ts;
        if (m[i].ts > t1)
            t1 = m[i].ts;
        if (m[i].src >= c.nnodes || m[i].dst >= c.nnodes) {
            free(ord);
            rc = pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                              "convolution: message %zu names a node outside the "
                              "trace's node table", i);
            goto done;
        }
    }
    if (!sorted) {
        size_t *tmp = malloc(tv->n * sizeof *tmp);
        if (!tmp) {
            free(ord);
            rc = oom(&c);
            goto done;
        }
        sort_by_ts(ord, tmp, tv->n, m);
        free(tmp);
    }
    c.t0 = t0;
    /* (t1 - t0) can overflow int64 only for absurd timestamps */
    if (t1 - t0 < 0 || (t1 - t0) / c.mu >= INT64_MAX / 4) {
        free(ord);
        rc = pb_error_set(err, PB_ERANGE, NULL, 0, 0,
                          "convolution: the trace spans too many quanta; raise mu");
        goto done;
    }
    c.S = (t1 - t0) / c.mu + 1;
    if (mode == CONV_EXACT && c.S > CONV_FFT_MAX / 2) {
        free(ord);
        rc = pb_error_set(err, PB_ERANGE, NULL, 0, 0,
                          "convolution: exact mode needs an FFT of 2 x %lld quanta, more "
                          "than the limit of %lld: use mode=blocked or a larger mu",
                          (long long)c.S, (long long)CONV_FFT_MAX);
        goto done;
    }
    for (size_t k = 0; k < tv->n; k++) {
        size_t i = ord[k];
        c.bin[i] = (m[i].ts - t0) / c.mu;
        if (ix_push(&c.out[m[i].src], i) || ix_push(&c.in[m[i].dst], i)) {
            free(ord);
            rc = oom(&c);
            goto done;
        }
    }
    free(ord);

    /* the lag bound */
    if (full) {
        c.L = c.S - 1 > 0 ? c.S - 1 : 1;
        c.lag_source = "full";
    } else if (user_L > 0) {
        c.L = user_L;
        c.lag_source = "user";
    } else {
        rc = auto_lag_bound(&c, &c.L);
        if (rc)
            goto done;
        c.lag_source = "auto";
    }
    /* lags past the trace's length hold nothing and would only dilute the
     * spike statistics */
    if (c.L > c.S - 1)
        c.L = c.S - 1 > 0 ? c.S - 1 : 1;
    c.hi = c.L;
    c.lo = p->filter_negative ? 0 : -c.L;
    conv_xcorr_cfg cfg = {c.lo, c.hi, c.S, mode, p->sparse, p->fft_size};
    rc = conv_xcorr_init(&c.xc, &cfg, err);
    if (rc)
        goto done;
    c.C = malloc(conv_xcorr_width(c.xc) * sizeof *c.C);
    if (!c.C) {
        rc = oom(&c);
        goto done;
    }

    /* roots */
    pb_strbuf roots = {0};
    const char *root_rule = "given";
    if (p->root && *p->root) {
        uint32_t r;
        if (!pb_strtab_find(tv->nodes, p->root, strlen(p->root), &r) ||
            (!c.out[r].n && !c.in[r].n)) {
            rc = pb_error_set(err, PB_ENOENT, NULL, 0, 0,
                              "option root: node \"%s\" does not occur in the trace",
                              p->root);
            goto done;
        }
        pb_strbuf_puts(&roots, p->root);
        rc = find_paths_from_root(&c, r);
    } else {
        /* decide every root first, so the decision does not depend on
         * the graph built so far, then grow from each in name order */
        uint32_t *rl = malloc((c.nnodes ? c.nnodes : 1) * sizeof *rl);
        uint32_t nr = 0;
        if (!rl) {
            rc = oom(&c);
            goto done;
        }
        /* when no node qualifies (strictly periodic traffic can explain
         * everything), the least explained sender is the root */
        uint32_t best = UINT32_MAX;
        double best_frac = -1;
        /* Root rule.  On a message trace (no call or return: mail relays,
         * the e-mail trace of 7.5.7) a path starts where a message enters
         * the system, at a node that only sends; a relay that both receives
         * and sends is never a root, however little of its output the
         * correlation explains (at small quanta it explains little, and
         * relays as roots give frequent false paths such as MX>MBOX).  On
         * RPC traces clients receive their returns, so the spontaneous
         * rule applies.  Either way, if no node qualifies the least
         * explained sender is the root.  root_rule=senders|spontaneous
         * forces one rule (auto: by the kind of trace). */
        int msg_trace = 1;
        if (p->root_rule && !strcmp(p->root_rule, "senders"))
            msg_trace = 1;
        else if (p->root_rule && !strcmp(p->root_rule, "spontaneous"))
            msg_trace = 0;
        else
            for (size_t k = 0; k < tv->n && msg_trace; k++)
                msg_trace = tv->msgs[k].type != PB_TYPE_CALL &&
                            tv->msgs[k].type != PB_TYPE_RETURN;
        root_rule = msg_trace ? "senders" : "spontaneous";
        for (uint32_t j = 0; j < c.nnodes && !rc; j++) {
            int yes;
            double frac;
            rc = is_spontaneous(&c, j, &yes, &frac);
            if (msg_trace && c.in[j].n)
                yes = 0;
            if (!rc && yes)
                rl[nr++] = j;
            if (!rc && frac >= 0 &&
                (frac > best_frac ||
                 (frac == best_frac &&
                  strcmp(node_name(&c, j), node_name(&c, best)) < 0))) {
                best = j;
                best_frac = frac;
            }
        }
        if (!rc && nr == 0 && best != UINT32_MAX)
            rl[nr++] = best;
        for (uint32_t a = 1; a < nr; a++)
            for (uint32_t b = a; b > 0 && strcmp(node_name(&c, rl[b - 1]),
                                                 node_name(&c, rl[b])) > 0; b--) {
                uint32_t t = rl[b];
                rl[b] = rl[b - 1];
                rl[b - 1] = t;
            }
        for (uint32_t a = 0; a < nr && !rc; a++) {
            pb_strbuf_printf(&roots, "%s%s", a ? "," : "", node_name(&c, rl[a]));
            rc = find_paths_from_root(&c, rl[a]);
        }
        free(rl);
    }
    if (rc) {
        pb_strbuf_free(&roots);
        goto done;
    }
    const conv_xcorr_stats *st = conv_xcorr_get_stats(c.xc);
    char mub[PB_SECONDS_BUF], lb[PB_SECONDS_BUF], vb[PB_SECONDS_BUF];
    pb_seconds_format(c.mu, mub);
    pb_seconds_format(c.L * c.mu, lb);
    pb_seconds_format(c.v, vb);
    if (pb_result_meta(res, "mu=%s quanta=%lld lag_bound=%lld lag_bound_s=%s lag_source=%s "
                            "v=%s mode=%s fft_size=%lld",
                       mub, (long long)c.S, (long long)c.L, lb, c.lag_source, vb,
                       mode == CONV_EXACT ? "exact" : "blocked",
                       (long long)conv_xcorr_fft_size(c.xc)) ||
        pb_result_meta(res, "roots=%s root_rule=%s", pb_strbuf_str(&roots), root_rule) ||
        pb_result_meta(res, "vertices=%u truncated=%d correlations=%llu fft_blocks=%llu "
                            "direct_blocks=%llu skipped_blocks=%llu pair_matches=%llu",
                       c.nvx, c.truncated, (unsigned long long)st->calls,
                       (unsigned long long)st->fft_blocks,
                       (unsigned long long)st->direct_blocks,
                       (unsigned long long)st->skipped_blocks,
                       (unsigned long long)c.pair_matches) ||
        pb_result_meta(res, "dropped_count=%llu dropped_chance=%llu dropped_cycle=%llu "
                            "stopped_depth=%llu pruned_spikes=%llu",
                       (unsigned long long)c.count_dropped,
                       (unsigned long long)c.chance_dropped,
                       (unsigned long long)c.cycle_dropped,
                       (unsigned long long)c.depth_stopped,
                       (unsigned long long)c.spikes_pruned)) {
        pb_strbuf_free(&roots);
        rc = oom(&c);
        goto done;
    }
    pb_strbuf_free(&roots);
    rc = cap_warnings(&c, res);
    if (!rc)
        rc = emit(&c, res);
done:
    ctx_free(&c);
    return rc;
}

static const pb_option convolution_options[] = {
    {"mu", PB_OPT_DURATION, offsetof(conv_params, mu), "0", 0, 1e9,
     "time quantum mu (5.2.1); 0 = automatic: 8 median hop delays, at most 10ms "
     "(docs/convolution.md); Table 1 used 10ms"},
    {"N", PB_OPT_DOUBLE, offsetof(conv_params, N), "4", 0, 1e6,
     "a spike peaks at least N standard deviations above the mean (5.2)"},
    {"S", PB_OPT_DOUBLE, offsetof(conv_params, S), "3", 0, 1e6,
     "spikes are separated by a point below S standard deviations (5.2), S <= N"},
    {"spike_passes", PB_OPT_INT, offsetof(conv_params, spike_passes), "1", 1, 10,
     "spike test passes; above 1, mean and sd again without the spikes found"},
    {"v", PB_OPT_STRING, offsetof(conv_params, v), "auto", PB_OPT_NORANGE,
     "delay tolerance v (5.2.2): a duration; auto = mu; spike = each spike's width"},
    {"root", PB_OPT_STRING, offsetof(conv_params, root), "", PB_OPT_NORANGE,
     "root node of FindPathsFromRoot; empty = chosen by root_rule"},
    {"root_rule", PB_OPT_STRING, offsetof(conv_params, root_rule), "auto", PB_OPT_NORANGE,
     "without root: senders (nodes that only send), spontaneous (spont_frac of what "
     "a node sends unexplained), or auto (senders on message traces, else spontaneous)"},
    {"spont_frac", PB_OPT_DOUBLE, offsetof(conv_params, spont_frac), "0.25", 0, 1,
     "root_rule=spontaneous: a node is a root if this fraction of what it sends is unexplained"},
    {"min_count", PB_OPT_INT, offsetof(conv_params, min_count), "10", 1, 2e9,
     "filter_count: edges, and delays of an edge, with fewer messages are dropped (5.2.3)"},
    {"filter_count", PB_OPT_BOOL, offsetof(conv_params, filter_count), "1", PB_OPT_NORANGE,
     "drop low-frequency paths: edges below min_count messages (5.2.3)"},
    {"max_depth", PB_OPT_INT, offsetof(conv_params, max_depth), "16", 1, CONV_HARD_DEPTH,
     "filter_depth: paths stop after this many edges (5.2.3)"},
    {"filter_depth", PB_OPT_BOOL, offsetof(conv_params, filter_depth), "1", PB_OPT_NORANGE,
     "stop paths at max_depth edges (5.2.3); off, paths run to 256 edges and "
     "the cost is up to max_vertices x 256 nodes of pattern text (every "
     "filter off: ~30 s and ~1 GB on a few thousand messages)"},
    {"filter_cycle", PB_OPT_BOOL, offsetof(conv_params, filter_cycle), "1", PB_OPT_NORANGE,
     "do not follow an edge again at the same delay (within v) on one path (5.2.3)"},
    {"cycle_repeats", PB_OPT_INT, offsetof(conv_params, cycle_repeats), "1", 1, CONV_HARD_DEPTH,
     "filter_cycle: times an edge may recur at the same delay on one path"},
    {"filter_negative", PB_OPT_BOOL, offsetof(conv_params, filter_negative), "1", PB_OPT_NORANGE,
     "ignore spikes at negative delays (5.2.3); off: lags -L..L"},
    {"filter_chance", PB_OPT_BOOL, offsetof(conv_params, filter_chance), "1", PB_OPT_NORANGE,
     "drop a destination whose matches are within N sd of chance coincidences"},
    {"lag_bound", PB_OPT_STRING, offsetof(conv_params, lag_bound), "auto", PB_OPT_NORANGE,
     "largest causal delay L: a duration, auto (found from the trace) or full"},
    {"mode", PB_OPT_STRING, offsetof(conv_params, mode), "blocked", PB_OPT_NORANGE,
     "blocked (overlap-add, time S log L) or exact (whole-signal FFT, S log S)"},
    {"match", PB_OPT_STRING, offsetof(conv_params, match), "auto", PB_OPT_NORANGE,
     "FindCausedMessages by spike (merge per spike), pairs, or auto (cheaper one)"},
    {"sparse", PB_OPT_BOOL, offsetof(conv_params, sparse), "1", PB_OPT_NORANGE,
     "blocked mode: sum sparse blocks directly instead of by FFT"},
    {"fft_size", PB_OPT_INT, offsetof(conv_params, fft_size), "0", 0, (double)CONV_FFT_MAX,
     "blocked mode: FFT size per block; 0 = smallest power of two >= 2(L+1)"},
    {"max_vertices", PB_OPT_INT, offsetof(conv_params, max_vertices), "100000", 1, 1e8,
     "stop growing the graph at this many vertices (then truncated=1 and a warning)"},
    {NULL, PB_OPT_INT, 0, NULL, PB_OPT_NORANGE, NULL}};

const pb_algo pb_algo_convolution = {
    "convolution", "path", "convolution algorithm (Project 5, SOSP'03 section 5.2)",
    convolution_options, sizeof(conv_params), convolution_run, NULL};
