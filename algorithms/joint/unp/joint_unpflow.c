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

/* the least of the two heaps' tops (work w, sources q), popped: 0 when
 * both are empty.  from_q: it came from q */
static int pop2(uf_h *w, size_t *nw, uf_h *q, size_t *nq, uf_h *out, int *from_q)
{
    if (!*nw && !*nq)
        return 0;
    if (*nq && (!*nw || q[0].k < w[0].k || (q[0].k == w[0].k && q[0].v < w[0].v))) {
        *out = hpop(q, nq);
        *from_q = 1;
    } else {
        *out = hpop(w, nw);
        *from_q = 0;
    }
    return 1;
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
    double *P = malloc(((size_t)nv + 1) * sizeof *P), *d = malloc(((size_t)nv + 1) * sizeof *d);
    uint32_t *pred = malloc(((size_t)nv + 1) * sizeof *pred);
    uint32_t *touched = malloc(((size_t)nv + 1) * sizeof *touched);
    unsigned char *done = calloc((size_t)nv + 1, 1);
    uf_h *h = malloc((na + (size_t)nv + 1) * sizeof *h);
    uf_h *q = malloc((2 * (size_t)nv + 1) * sizeof *q);
    uint32_t *back = malloc(((size_t)nv + 1) * sizeof *back);
    if (!off || !adj || !mc || !mr || !mcost || !P || !d || !pred || !touched || !done || !h ||
        !q || !back) {
        free(off), free(adj), free(mc), free(mr), free(mcost), free(back);
        free(P), free(d), free(pred), free(touched), free(done), free(h), free(q);
        return PB_ENOMEM;
    }
    /* arcs by call, in their given order */
    for (size_t k = 0; k < na; k++)
        off[ai[k] + 1]++;
    for (uint32_t a = 0; a < ncc; a++)
        off[a + 1] += off[a];
    memcpy(pred, off, (size_t)ncc * sizeof *pred); /* scratch: fill positions */
    for (size_t k = 0; k < na; k++)
        adj[pred[ai[k]]++] = (uint32_t)k;
    /* potentials (the true ones less a common shift that the unsettled
     * nodes share, so only settled nodes change): calls 0, a return the
     * least gain into it, the sink the least of those (reduced costs >= 0) */
    for (uint32_t x = 0; x < nv; x++) {
        P[x] = 0;
        d[x] = INFINITY;
        pred[x] = NONE;
    }
    for (uint32_t a = 0; a < ncc; a++)
        mc[a] = NONE;
    for (uint32_t b = 0; b < nrc; b++)
        mr[b] = NONE;
    for (size_t k = 0; k < na; k++) {
        double c = v[k] - 2 * skip;
        if (c < P[ncc + bj[k]])
            P[ncc + bj[k]] = c;
    }
    double Pt = 0;
    for (uint32_t b = 0; b < nrc; b++)
        if (P[ncc + b] < Pt)
            Pt = P[ncc + b];
    /* the unpaired calls, keyed by -P (entries checked when popped) */
    size_t nq = 0;
    for (uint32_t a = 0; a < ncc; a++)
        hpush(q, &nq, -P[a], a);
    double gain = 0;
    for (;;) {
        size_t hn = 0, nt = 0, nb = 0;
        double bestk = INFINITY; /* least key of a path to the sink */
        uint32_t bt = NONE;
        uf_h t;
        int fq = 0;
        while (pop2(h, &hn, q, &nq, &t, &fq)) {
            uint32_t x = t.v;
            if (fq) {
                if (mc[x] != NONE || t.k != -P[x])
                    continue; /* stale: paired, or its potential moved */
                back[nb++] = x; /* pushed back after this round */
                if (t.k >= bestk)
                    break;
                if (done[x] || t.k >= d[x])
                    continue;
                if (d[x] == INFINITY)
                    touched[nt++] = x;
                d[x] = t.k;
                pred[x] = NONE;
            } else if (done[x] || t.k > d[x]) {
                continue;
            }
            if (t.k >= bestk)
                break;
            done[x] = 1;
            if (x < ncc) {
                for (uint32_t e = off[x]; e < off[x + 1]; e++) {
                    size_t k = adj[e];
                    uint32_t b = bj[k], y = ncc + b;
                    if (mc[x] == b)
                        continue; /* the pair itself: its reverse runs b -> x */
                    double nd = t.k + (v[k] - 2 * skip) + P[x] - P[y];
                    if (nd < d[y]) {
                        if (d[y] == INFINITY)
                            touched[nt++] = y;
                        d[y] = nd;
                        pred[y] = (uint32_t)k;
                        hpush(h, &hn, nd, y);
                    }
                }
            } else {
                uint32_t b = x - ncc;
                if (mr[b] == NONE) {
                    double c = t.k + P[x] - Pt;
                    if (c < bestk) {
                        bestk = c;
                        bt = b;
                    }
                    continue;
                }
                uint32_t a = mr[b];
                double nd = t.k - (mcost[b] - 2 * skip) + P[x] - P[a];
                if (nd < d[a]) {
                    if (d[a] == INFINITY)
                        touched[nt++] = a;
                    d[a] = nd;
                    pred[a] = x; /* from return x */
                    hpush(h, &hn, nd, a);
                }
            }
        }
        int go = bt != NONE && bestk + Pt < 0;
        if (go) {
            gain += bestk + Pt;
            /* potentials: settled nodes move by their distance less the
             * sink's; the others by the sink's, which is the shift */
            for (size_t i = 0; i < nt; i++) {
                uint32_t x = touched[i];
                if (done[x] && d[x] < bestk)
                    P[x] += d[x] - bestk;
            }
            /* the path, back from the return bt */
            uint32_t y = ncc + bt;
            for (;;) {
                size_t k = pred[y];
                uint32_t a = ai[k], b = y - ncc;
                mc[a] = b;
                mr[b] = a;
                mcost[b] = v[k];
                if (pred[a] == NONE)
                    break; /* a was an unpaired call: the path's start */
                y = pred[a];
            }
        }
        for (size_t i = 0; i < nt; i++) {
            uint32_t x = touched[i];
            d[x] = INFINITY;
            done[x] = 0;
            pred[x] = NONE;
        }
        if (!go)
            break; /* no pair more lowers the cost */
        /* the popped sources back, at their potentials now; rebuilt when
         * stale entries pile up */
        for (size_t i = 0; i < nb; i++)
            if (mc[back[i]] == NONE)
                hpush(q, &nq, -P[back[i]], back[i]);
        if (nq > 2 * (size_t)nv - 2) {
            nq = 0;
            for (uint32_t a = 0; a < ncc; a++)
                if (mc[a] == NONE)
                    hpush(q, &nq, -P[a], a);
        }
    }
    *sol += skip * (double)(ncc + nrc) + gain;
    for (uint32_t a = 0; a < ncc; a++)
        unc[a] = mc[a] == NONE;
    for (uint32_t b = 0; b < nrc; b++)
        unr[b] = mr[b] == NONE;
    free(off), free(adj), free(mc), free(mr), free(mcost), free(back);
    free(P), free(d), free(pred), free(touched), free(done), free(h), free(q);
    return PB_OK;
}
