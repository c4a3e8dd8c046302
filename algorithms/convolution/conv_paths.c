/*
 * conv_paths.c - the search of the convolution algorithm (seed 000, section
 * 5.2, Figure 6): FindPathsFromRoot, ProcessNode and FindCausedMessages,
 * with the filters of 5.2.3, and the spontaneous-sender test that picks
 * roots.  The graph grows in the cv_ctx of convolution.c (conv_int.h).
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "conv_int.h"
#include "pb_sort.h"

/* floor(a / b) for b > 0 */
static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
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
        pb_sort(dl, nd, sizeof *dl, cmp_delay);
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
    *idx = PB_PTREE_NONE; /* defined on every path (the error path too) */
    if (pb_grow32(&c->vx, sizeof *c->vx, &c->vxcap, c->nvx + 1, 64) != PB_OK)
        return oom(c);
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

int conv_find_paths_from_root(cv_ctx *c, uint32_t i)
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
int conv_is_spontaneous(cv_ctx *c, uint32_t j, int *yes, double *frac)
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
