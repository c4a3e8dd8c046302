/*
 * joint_unpflow.c - unpaired's least-cost pairing of one piece of a link
 * by successive shortest paths (`-s unp_flow=1`; docs/joint/loss.md, "The
 * second search on a window").
 *
 * joint_unpaired.c prices each pair of a call and a return (integral
 * units) and each message left unpaired (skip), and solves the least-cost
 * pairing as a min-cost flow with GLPK's out-of-kilter method; h159's
 * instruction count found that flow to be half of all the instructions of
 * `unpaired=1 unp_pieces=1` (both the real trace and the self-calibration
 * copy), more than the second search itself.  The problem is a bipartite
 * matching of least cost where each message may stay unpaired: with gain
 * c(a, b) = v(a, b) - 2 skip per pair, the cost is skip x (calls +
 * returns) plus the sum of the pairs' gains.  Successive shortest paths
 * from the unpaired calls to the unpaired returns (Dijkstra on reduced
 * costs, potentials kept) add one pair at a time at the least cost; the
 * cost as a function of the number of pairs is convex, so it stops at the
 * first augmenting path that costs >= 0.  Same least cost as the
 * out-of-kilter method (checked on every draw of the notes by the cost
 * both report); where two pairings tie, either may come out.
 */
#include "joint_int.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE

typedef struct uf_h {
    double k;
    uint32_t v;
} uf_h;

static void hpush(uf_h *h, size_t *n, double k, uint32_t v)
{
    size_t i = (*n)++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (h[p].k < k || (h[p].k == k && h[p].v <= v))
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = (uf_h){k, v};
}

static uf_h hpop(uf_h *h, size_t *n)
{
    uf_h top = h[0], x = h[--(*n)];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        double mk = x.k;
        uint32_t mv = x.v;
        if (l < *n && (h[l].k < mk || (h[l].k == mk && h[l].v < mv))) {
            m = l;
            mk = h[l].k;
            mv = h[l].v;
        }
        if (r < *n && (h[r].k < mk || (h[r].k == mk && h[r].v < mv)))
            m = r;
        if (m == i)
            break;
        h[i] = h[m];
        i = m;
    }
    if (*n)
        h[i] = x;
    return top;
}

int joint_unpflow_solve(const uint32_t *ai, const uint32_t *bj, const double *v, size_t na,
                        uint32_t ncc, uint32_t nrc, double skip, unsigned char *unc,
                        unsigned char *unr, double *sol)
{
    uint32_t nv = ncc + nrc;
    uint32_t *off = calloc((size_t)ncc + 2, sizeof *off);
    uint32_t *adj = malloc((na + 1) * sizeof *adj);
    uint32_t *mc = malloc(((size_t)ncc + 1) * sizeof *mc), *mr = malloc(((size_t)nrc + 1) * sizeof *mr);
    double *mcost = malloc(((size_t)nrc + 1) * sizeof *mcost);
    double *pi = malloc(((size_t)nv + 1) * sizeof *pi), *d = malloc(((size_t)nv + 1) * sizeof *d);
    uint32_t *pred = malloc(((size_t)nv + 1) * sizeof *pred);
    unsigned char *done = malloc((size_t)nv + 1);
    uf_h *h = malloc((na + (size_t)nv + 1) * sizeof *h);
    if (!off || !adj || !mc || !mr || !mcost || !pi || !d || !pred || !done || !h) {
        free(off), free(adj), free(mc), free(mr), free(mcost);
        free(pi), free(d), free(pred), free(done), free(h);
        return PB_ENOMEM;
    }
    /* arcs by call, in their given order */
    for (size_t k = 0; k < na; k++)
        off[ai[k] + 1]++;
    for (uint32_t a = 0; a < ncc; a++)
        off[a + 1] += off[a];
    {
        uint32_t *fill = pred; /* scratch */
        memcpy(fill, off, (size_t)ncc * sizeof *fill);
        for (size_t k = 0; k < na; k++)
            adj[fill[ai[k]]++] = (uint32_t)k;
    }
    for (uint32_t a = 0; a < ncc; a++) {
        mc[a] = NONE;
        pi[a] = 0;
    }
    /* returns' potentials: the least gain into each (reduced costs >= 0) */
    for (uint32_t b = 0; b < nrc; b++) {
        mr[b] = NONE;
        pi[ncc + b] = 0;
    }
    for (size_t k = 0; k < na; k++) {
        double c = v[k] - 2 * skip;
        if (c < pi[ncc + bj[k]])
            pi[ncc + bj[k]] = c;
    }
    double pit = 0; /* the sink's potential */
    for (uint32_t b = 0; b < nrc; b++)
        if (pi[ncc + b] < pit)
            pit = pi[ncc + b];
    double gain = 0;
    for (;;) {
        size_t hn = 0;
        for (uint32_t x = 0; x < nv; x++) {
            d[x] = INFINITY;
            done[x] = 0;
            pred[x] = NONE;
        }
        for (uint32_t a = 0; a < ncc; a++)
            if (mc[a] == NONE) {
                d[a] = -pi[a];
                hpush(h, &hn, d[a], a);
            }
        double best = INFINITY; /* reduced distance to the sink */
        uint32_t bt = NONE;
        while (hn) {
            uf_h t = hpop(h, &hn);
            uint32_t x = t.v;
            if (done[x] || t.k > d[x])
                continue;
            if (t.k >= best)
                break;
            done[x] = 1;
            if (x < ncc) {
                for (uint32_t e = off[x]; e < off[x + 1]; e++) {
                    size_t k = adj[e];
                    uint32_t b = bj[k], y = ncc + b;
                    if (mc[x] == b)
                        continue; /* the pair itself: its reverse runs b -> x */
                    double nd = t.k + (v[k] - 2 * skip) + pi[x] - pi[y];
                    if (nd < d[y]) {
                        d[y] = nd;
                        pred[y] = (uint32_t)k;
                        hpush(h, &hn, nd, y);
                    }
                }
            } else {
                uint32_t b = x - ncc;
                if (mr[b] == NONE) {
                    double c = t.k + pi[x] - pit;
                    if (c < best) {
                        best = c;
                        bt = b;
                    }
                    continue;
                }
                uint32_t a = mr[b];
                double nd = t.k - (mcost[b] - 2 * skip) + pi[x] - pi[a];
                if (nd < d[a]) {
                    d[a] = nd;
                    pred[a] = x; /* from return x */
                    hpush(h, &hn, nd, a);
                }
            }
        }
        if (bt == NONE || best + pit >= 0)
            break; /* no pair more lowers the cost */
        gain += best + pit;
        /* potentials: settled nodes by their distance, the rest by the
         * sink's (reduced costs stay >= 0) */
        for (uint32_t x = 0; x < nv; x++)
            pi[x] += done[x] && d[x] < best ? d[x] : best;
        pit += best;
        /* the path, back from the return bt */
        uint32_t y = ncc + bt;
        for (;;) {
            size_t k = pred[y];
            uint32_t a = ai[k], b = y - ncc;
            uint32_t prev = mc[a]; /* a's former return, now free for the step before */
            mc[a] = b;
            mr[b] = a;
            mcost[b] = v[k];
            if (pred[a] == NONE)
                break; /* a was an unpaired call: the path's start */
            y = pred[a];
            (void)prev;
        }
    }
    *sol += skip * (double)(ncc + nrc) + gain;
    for (uint32_t a = 0; a < ncc; a++)
        unc[a] = mc[a] == NONE;
    for (uint32_t b = 0; b < nrc; b++)
        unr[b] = mr[b] == NONE;
    free(off), free(adj), free(mc), free(mr), free(mcost);
    free(pi), free(d), free(pred), free(done), free(h);
    return PB_OK;
}
