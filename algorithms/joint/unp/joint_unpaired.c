/*
 * joint_unpaired.c - without call ids, under loss: which calls and returns
 * of a re-paired link stay unpaired (`unpaired`, default 0; docs/joint/loss.md,
 * "Which messages stay unpaired").
 *
 * The in-order alignment (joint_align.c) decides which messages of a link
 * with lost messages stay unpaired, and the re-pairing (step 4) never
 * revisits that choice: a half pair is not movable.  On a link whose
 * callee serves in parallel the time-ordered pairs the alignment weighs
 * are mostly wrong, so its choice is close to arbitrary there.  After a
 * first search, the links that showed loss (the first search left
 * messages unpaired), that were paired without call ids and that the
 * re-pairing re-pairs (not kept in arrival order by the fifo test; with
 * unpaired=1 only those that also overtake more often than
 * JOINT_ORDER_RHO0) are paired once more by the alignment's likelihood
 * without its order: a pair costs -log p(duration) under the histogram of
 * the link's re-paired pairs (the alignment's bins, smoothing and floor);
 * a message left unpaired costs -log(q / (1 - q)) nats, its partner lost
 * (probability q) against present, with q the share of the trace's calls
 * and returns the first search left unpaired; the pairing of least total
 * cost is a min-cost flow.  When it leaves other messages unpaired than
 * the first search did, the search runs again with those messages
 * unpaired (joint_find_pairs pairs the rest of the link in order, and the
 * re-pairing re-pairs them).  The alignment's own fixed price (10 nats)
 * was tried first: it pairs nearly everything and left fewer of the truly
 * unpaired messages unpaired than the alignment did (docs/joint.md).
 */
#include "joint_int.h"

#include <glpk.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

#define NONE JOINT_NONE
#define UP_SCALE 1000.0  /* flow cost units per nat */
#define UP_WMAX 256      /* calls a return may pair with, at most */
#define UP_WMIN 16       /* ... at least (as the alignment's window) */

typedef struct up_vdata {
    double rhs;
} up_vdata;

typedef struct up_adata {
    double low, cap, cost, x;
} up_adata;

typedef struct up_ev {
    pb_ns t;
    uint32_t msg, pair;
} up_ev;

static int up_cmp(const void *a, const void *b)
{
    const up_ev *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->msg < y->msg ? -1 : x->msg > y->msg;
}

static double up_units(double nats)
{
    return nearbyint(nats * UP_SCALE);
}

static glp_arc *up_arc(glp_graph *G, int from, int to, double cap, double cost)
{
    glp_arc *a = glp_add_arc(G, from, to);
    up_adata *d = a->data;
    d->low = 0;
    d->cap = cap;
    d->cost = cost;
    d->x = 0;
    return a;
}

/* is link l paired without call ids, showing loss, and re-paired? */
static int up_link_eligible(const joint *s, uint32_t l, size_t *halves, size_t *full)
{
    const pb_msg *m = s->v.msgs;
    *halves = *full = 0;
    if (s->fifo_link && s->fifo_link[l])
        return 0;
    for (uint32_t i = s->bylink_off[l]; i < s->bylink_off[l + 1]; i++) {
        const jpair *x = &s->pr[s->bylink[i]];
        if (x->call != NONE && x->ret != NONE) {
            if (!s->free_ret[s->bylink[i]])
                return 0; /* paired by call id */
            (*full)++;
            continue;
        }
        uint32_t msg = x->call != NONE ? x->call : x->ret;
        if (s->p.callids && m[msg].callid != PB_ID_NONE)
            return 0;
        (*halves)++;
    }
    return *halves > 0 && *full >= 2;
}

/* one arc of the pairing: call i with return j at v units */
typedef struct up_a {
    uint32_t i, j;
    double v;
} up_a;

static uint32_t up_find(uint32_t *par, uint32_t x)
{
    while (par[x] != x) {
        par[x] = par[par[x]];
        x = par[x];
    }
    return x;
}

/* up_solve by joint_unpflow.c's successive shortest paths */
static int up_solve_ssp(const up_a *A, size_t na, const uint32_t *ci, uint32_t ncc,
                        const uint32_t *rj, uint32_t nrc, const uint32_t *loc, uint32_t nc,
                        double skip, unsigned char *un_c, unsigned char *un_r, double *sol)
{
    uint32_t *ia = malloc((na + 1) * sizeof *ia), *jb = malloc((na + 1) * sizeof *jb);
    double *v = malloc((na + 1) * sizeof *v);
    unsigned char *uc = malloc((size_t)ncc + 1), *ur = malloc((size_t)nrc + 1);
    int rc = ia && jb && v && uc && ur ? PB_OK : PB_ENOMEM;
    for (size_t k = 0; rc == PB_OK && k < na; k++) {
        ia[k] = loc[A[k].i];
        jb[k] = loc[nc + A[k].j];
        v[k] = A[k].v;
    }
    if (rc == PB_OK)
        rc = joint_unpflow_solve(ia, jb, v, na, ncc, nrc, skip, uc, ur, sol);
    for (uint32_t a = 0; rc == PB_OK && a < ncc; a++)
        un_c[ci[a]] = uc[a];
    for (uint32_t b = 0; rc == PB_OK && b < nrc; b++)
        un_r[rj[b]] = ur[b];
    free(ia);
    free(jb);
    free(v);
    free(uc);
    free(ur);
    return rc;
}

/* the least-cost pairing of one component: its calls ci[0..ncc), its
 * returns rj[0..nrc) (link indices), its arcs A[0..na) (link indices;
 * loc maps a call i to its local vertex i + 1 and a return j to ncc + its
 * local index + 1); marks un_c / un_r and adds its cost to *sol.  PB_OK,
 * PB_ENOMEM or PB_ERANGE */
static int up_solve(const up_a *A, size_t na, const uint32_t *ci, uint32_t ncc,
                    const uint32_t *rj, uint32_t nrc, const uint32_t *loc, uint32_t nc,
                    double skip, unsigned char *un_c, unsigned char *un_r, double *sol,
                    int solver)
{
    if (solver == 1) /* unp_flow=1: successive shortest paths (joint_unpflow.c) */
        return up_solve_ssp(A, na, ci, ncc, rj, nrc, loc, nc, skip, un_c, un_r, sol);
    glp_graph *G = glp_create_graph(sizeof(up_vdata), sizeof(up_adata));
    if (!G)
        return PB_ENOMEM;
    int Ln = (int)(ncc + nrc + 1), Dn = (int)(ncc + nrc + 2);
    glp_add_vertices(G, (int)(ncc + nrc + 2));
    for (uint32_t a = 0; a < ncc; a++)
        ((up_vdata *)G->v[a + 1]->data)->rhs = 1;
    for (uint32_t b = 0; b < nrc; b++)
        ((up_vdata *)G->v[ncc + b + 1]->data)->rhs = -1;
    ((up_vdata *)G->v[Ln]->data)->rhs = nrc;
    ((up_vdata *)G->v[Dn]->data)->rhs = -(double)ncc;
    /* the arcs in the order of the whole link's graph (return by return) */
    size_t k = 0;
    for (uint32_t b = 0; b < nrc; b++) {
        while (k < na && A[k].j == rj[b]) {
            up_arc(G, (int)(loc[A[k].i] + 1), (int)(ncc + loc[nc + A[k].j] + 1), 1, A[k].v);
            k++;
        }
        up_arc(G, Ln, (int)(ncc + b + 1), 1, skip);
    }
    for (uint32_t a = 0; a < ncc; a++)
        up_arc(G, (int)(a + 1), Dn, 1, skip);
    up_arc(G, Ln, Dn, nrc, 0);
    double x = 0;
    int ret = glp_mincost_okalg(G, offsetof(up_vdata, rhs), offsetof(up_adata, low),
                                offsetof(up_adata, cap), offsetof(up_adata, cost), &x,
                                offsetof(up_adata, x), -1);
    if (ret != 0) {
        glp_delete_graph(G);
        return PB_ERANGE;
    }
    *sol += x;
    for (uint32_t a = 0; a < ncc; a++) {
        un_c[ci[a]] = 0;
        for (glp_arc *e = G->v[a + 1]->out; e; e = e->t_next)
            if (e->head->i == Dn && ((up_adata *)e->data)->x > 0.5)
                un_c[ci[a]] = 1;
    }
    for (uint32_t b = 0; b < nrc; b++)
        un_r[rj[b]] = 0;
    for (glp_arc *e = G->v[Ln]->out; e; e = e->t_next)
        if (e->head->i != Dn && ((up_adata *)e->data)->x > 0.5)
            un_r[rj[e->head->i - (int)ncc - 1]] = 1;
    glp_delete_graph(G);
    return PB_OK;
}

/* the places within span of place x among n into the difference array d */
static void span_mark(int32_t *d, uint32_t x, uint32_t span, uint32_t n)
{
    uint32_t a = x > span ? x - span : 0;
    uint32_t b = x < n && span < n - x - 1 ? x + span + 1 : n;
    d[a]++;
    d[b]--;
}

/* unp_flow_span: the zone kept only on the time spans around its seeds
 * (dep[v] == 0: the unpaired messages and the pairs dearer than two
 * unpaired ones): a call within `span` calls of a seed's place in the
 * link's calls (a return's place: the calls sent up to it), a return
 * within `span` returns of a seed's place in the returns (a call's
 * place: the returns received before it).  On a busy link the arc
 * graph's steps reach the whole link within unp_flow_hops (hotel 100:
 * 959 of 979 calls in one piece) and the flow's cost grows as the square
 * of its piece; a lost message moves the least-cost pairing near it in
 * time.  in[] is cut in place (before the closure under the current
 * pairs).  PB_OK or PB_ENOMEM */
static int up_span(uint32_t nc, uint32_t nr, const pb_ns *ct, const pb_ns *rt, const int *dep,
                   int span, unsigned char *in)
{
    int32_t *dc = calloc((size_t)nc + 2, sizeof *dc), *dr = calloc((size_t)nr + 2, sizeof *dr);
    if (!dc || !dr) {
        free(dc), free(dr);
        return PB_ENOMEM;
    }
    /* difference arrays over the calls' and the returns' places */
    for (uint32_t i = 0, j = 0; i < nc; i++) { /* call i: place i; j returns before it */
        while (j < nr && rt[j] < ct[i])
            j++;
        if (dep[i] != 0)
            continue;
        span_mark(dc, i, (uint32_t)span, nc);
        span_mark(dr, j, (uint32_t)span, nr);
    }
    for (uint32_t j = 0, i = 0; j < nr; j++) { /* return j: place j; i calls up to it */
        while (i < nc && ct[i] <= rt[j])
            i++;
        if (dep[nc + j] != 0)
            continue;
        span_mark(dr, j, (uint32_t)span, nr);
        span_mark(dc, i, (uint32_t)span, nc);
    }
    int32_t run = 0;
    for (uint32_t i = 0; i < nc; i++) {
        run += dc[i];
        if (run <= 0)
            in[i] = 0;
    }
    run = 0;
    for (uint32_t j = 0; j < nr; j++) {
        run += dr[j];
        if (run <= 0)
            in[nc + j] = 0;
    }
    free(dc), free(dr);
    return PB_OK;
}

/* unp_flow=2's zone (docs/joint/loss.md, "The flow from the first
 * search's pairs"): the messages within `hops` steps of the arc graph
 * (a call and a return joined by an arc A) from the current pairing's
 * unpaired messages, closed under the current pairs.  Outside it the
 * first search's pairs stay: a lost message changes the least-cost
 * pairing near it, and a pair far from every unpaired message is the
 * current one in most least-cost pairings.  A current pair dearer than
 * two unpaired messages seeds the zone too (no least-cost pairing holds
 * it).  in[v] (calls 0..nc, returns
 * nc..): 1 in the zone.  PB_OK or PB_ENOMEM */
static int up_zone(const up_a *A, size_t na, uint32_t nc, uint32_t nr, const uint32_t *cur,
                   double skip, int hops, unsigned char *in, const pb_ns *ct, const pb_ns *rt,
                   int span, const unsigned char *ok)
{
    uint32_t nv = nc + nr;
    uint32_t *off = calloc((size_t)nv + 2, sizeof *off), *adj = malloc((2 * na + 1) * sizeof *adj);
    uint32_t *q = malloc(((size_t)nv + 1) * sizeof *q), *mate = malloc(((size_t)nv + 1) * sizeof *mate);
    int *dep = malloc(((size_t)nv + 1) * sizeof *dep);
    if (!off || !adj || !q || !mate || !dep) {
        free(off), free(adj), free(q), free(mate), free(dep);
        return PB_ENOMEM;
    }
    for (size_t k = 0; k < na; k++) {
        off[A[k].i + 2]++;
        off[nc + A[k].j + 2]++;
    }
    for (uint32_t v = 0; v < nv; v++)
        off[v + 2] += off[v + 1];
    for (size_t k = 0; k < na; k++) {
        adj[off[A[k].i + 1]++] = nc + A[k].j;
        adj[off[nc + A[k].j + 1]++] = A[k].i;
    }
    /* off[v]..off[v + 1]: v's neighbours */
    for (uint32_t v = 0; v < nv; v++) {
        mate[v] = NONE;
        dep[v] = -1;
        in[v] = 0;
    }
    for (uint32_t j = 0; j < nr; j++)
        if (cur[j] != NONE) {
            mate[nc + j] = cur[j];
            mate[cur[j]] = nc + j;
        }
    size_t h = 0, t = 0;
    for (uint32_t v = 0; v < nv; v++)
        if (mate[v] == NONE && (!ok || ok[v])) {
            dep[v] = 0;
            q[t++] = v;
        }
    /* a current pair dearer than leaving both unpaired is in no
     * least-cost pairing: it seeds the zone as an unpaired message does */
    for (size_t k = 0; k < na; k++)
        if (A[k].v > 2 * skip && cur[A[k].j] == A[k].i && dep[A[k].i] < 0 &&
            (!ok || ok[A[k].i] || ok[nc + A[k].j])) {
            dep[A[k].i] = dep[nc + A[k].j] = 0;
            q[t++] = A[k].i;
            q[t++] = nc + A[k].j;
        }
    while (h < t) {
        uint32_t v = q[h++];
        in[v] = 1;
        if (dep[v] >= hops)
            continue;
        for (uint32_t e = off[v]; e < off[v + 1]; e++) {
            uint32_t w = adj[e];
            if (dep[w] < 0) {
                dep[w] = dep[v] + 1;
                q[t++] = w;
            }
        }
    }
    if (span > 0 && up_span(nc, nr, ct, rt, dep, span, in) != PB_OK) {
        free(off), free(adj), free(q), free(mate), free(dep);
        return PB_ENOMEM;
    }
    for (uint32_t v = 0; v < nv; v++) /* closed under the current pairs */
        if (in[v] && mate[v] != NONE)
            in[mate[v]] = 1;
    free(off), free(adj), free(q), free(mate), free(dep);
    return PB_OK;
}

int joint_unpaired_link(const pb_ns *ct, uint32_t nc, const pb_ns *rt, uint32_t nr,
                        const uint32_t *cur, pb_ns early, double price, unsigned char *un_c,
                        unsigned char *un_r, double *before, double *after)
{
    return joint_unpaired_link_s(ct, nc, rt, nr, cur, early, price, un_c, un_r, before, after,
                                 0, 0);
}

int joint_unpaired_link_s(const pb_ns *ct, uint32_t nc, const pb_ns *rt, uint32_t nr,
                          const uint32_t *cur, pb_ns early, double price, unsigned char *un_c,
                          unsigned char *un_r, double *before, double *after, int solver,
                          int zone)
{
    return joint_unpaired_link_z(ct, nc, rt, nr, cur, early, price, un_c, un_r, before, after,
                                 solver, zone, 0, NULL);
}

int joint_unpaired_link_z(const pb_ns *ct, uint32_t nc, const pb_ns *rt, uint32_t nr,
                          const uint32_t *cur, pb_ns early, double price, unsigned char *un_c,
                          unsigned char *un_r, double *before, double *after, int solver,
                          int zone, int span, const unsigned char *seedok)
{
    double h[JOINT_ALIGN_NB], cost[JOINT_ALIGN_NB];
    memset(h, 0, sizeof h);
    for (uint32_t j = 0; j < nr; j++)
        if (cur[j] != NONE && rt[j] >= ct[cur[j]])
            h[joint_align_bin(rt[j] - ct[cur[j]])] += 1;
    joint_align_cost(h, cost);
    /* the window: twice the longest queue of calls not yet answered (by
     * counts) plus UP_WMIN, at most UP_WMAX */
    size_t maxq = 0;
    for (uint32_t j = 0, c = 0; j < nr; j++) {
        while (c < nc && ct[c] <= rt[j])
            c++;
        size_t q = c > j ? c - j : 0;
        if (q > maxq)
            maxq = q;
    }
    size_t K = 2 * maxq + UP_WMIN;
    if (K > UP_WMAX)
        K = UP_WMAX;
    const double skip = up_units(price);
    uint32_t nv = nc + nr;
    up_a *A = malloc(((size_t)nr * (K + 1) + 1) * sizeof *A);
    uint32_t *par = malloc(((size_t)nv + 1) * sizeof *par);
    uint32_t *loc = malloc(((size_t)nv + 1) * sizeof *loc);
    uint32_t *cnt = malloc(((size_t)nv + 2) * sizeof *cnt);
    uint32_t *mem = malloc(((size_t)nv + 1) * sizeof *mem);
    uint32_t *aoff = malloc(((size_t)nv + 2) * sizeof *aoff);
    up_a *AS = malloc(((size_t)nr * (K + 1) + 1) * sizeof *AS);
    unsigned char *inz = NULL; /* unp_flow=2's zone */
    unsigned char *cpaired = NULL; /* with the zone: per call, paired now */
    int rc = PB_OK;
    if (!A || !par || !loc || !cnt || !mem || !aoff || !AS) {
        rc = PB_ENOMEM;
        goto out;
    }
    for (uint32_t v = 0; v < nv; v++)
        par[v] = v;
    double b = 0;
    size_t paired0 = 0, na = 0;
    for (uint32_t j = 0, c = 0; j < nr; j++) {
        while (c < nc && ct[c] <= rt[j] + early)
            c++;
        uint32_t lo = c > K ? (uint32_t)(c - K) : 0;
        for (uint32_t i = lo; i < c; i++) {
            pb_ns d = rt[j] - ct[i];
            double v = up_units(cost[joint_align_bin(d < 1 ? 1 : d)]);
            /* a pair dearer than leaving both its messages unpaired is in
             * no least-cost pairing: left out, the link falls apart into
             * small independent pieces (the same least cost) */
            if (v <= 2 * skip || i == cur[j])
                A[na++] = (up_a){i, j, v};
        }
        if (cur[j] != NONE) {
            pb_ns d = rt[j] - ct[cur[j]];
            double v = up_units(cost[joint_align_bin(d < 1 ? 1 : d)]);
            b += v;
            paired0++;
            if (cur[j] < lo || cur[j] >= c) /* the current pair, out of the window */
                A[na++] = (up_a){cur[j], j, v};
        }
    }
    b += skip * (double)(nc + nr - 2 * paired0);
    *before = *after = b / UP_SCALE;
    /* unp_flow=2: only the zone around the unpaired messages is paired
     * again; the current pairs outside it stay, at their cost */
    double sol = 0;
    if (zone > 0) {
        inz = malloc((size_t)nv + 1);
        if (!inz || up_zone(A, na, nc, nr, cur, skip, zone, inz, ct, rt, span, seedok) != PB_OK) {
            free(inz);
            rc = PB_ENOMEM;
            goto out;
        }
        size_t w = 0;
        for (size_t k = 0; k < na; k++)
            if (inz[A[k].i] && inz[nc + A[k].j])
                A[w++] = A[k];
        na = w;
        for (uint32_t j = 0; j < nr; j++)
            if (!inz[nc + j] && cur[j] != NONE) {
                pb_ns d = rt[j] - ct[cur[j]];
                sol += up_units(cost[joint_align_bin(d < 1 ? 1 : d)]);
            }
        /* a message left unpaired outside the zone (only where seedok
         * kept it out) stays unpaired, at its price */
        cpaired = calloc((size_t)nc + 1, 1); /* calls paired now */
        if (!cpaired) {
            rc = PB_ENOMEM;
            goto out;
        }
        for (uint32_t j = 0; j < nr; j++)
            if (cur[j] != NONE)
                cpaired[cur[j]] = 1;
        for (uint32_t i = 0; i < nc; i++)
            if (!inz[i] && !cpaired[i])
                sol += skip;
        for (uint32_t j = 0; j < nr; j++)
            if (!inz[nc + j] && cur[j] == NONE)
                sol += skip;
    }
    for (size_t k = 0; k < na; k++) {
        uint32_t x = up_find(par, A[k].i), y = up_find(par, nc + A[k].j);
        if (x != y)
            par[x > y ? x : y] = x > y ? y : x;
    }
    /* the pieces: members (calls then returns, each in link order) and
     * arcs (in the whole graph's order) grouped by root */
    for (uint32_t v = 0; v < nv; v++)
        par[v] = up_find(par, v);
    memset(cnt, 0, ((size_t)nv + 2) * sizeof *cnt);
    for (uint32_t v = 0; v < nv; v++)
        cnt[par[v] + 1]++;
    for (uint32_t v = 0; v < nv; v++)
        cnt[v + 1] += cnt[v];
    memcpy(aoff, cnt, ((size_t)nv + 1) * sizeof *aoff);
    for (uint32_t v = 0; v < nv; v++) {
        uint32_t r = par[v];
        mem[cnt[r]++] = v;
    }
    /* cnt[r] is now the end of r's members, aoff[r] their start */
    uint32_t *ac = loc; /* reused below: first the arcs' counts by root */
    memset(ac, 0, ((size_t)nv + 1) * sizeof *ac);
    for (size_t k = 0; k < na; k++)
        ac[par[A[k].i]]++;
    {
        size_t o = 0;
        for (uint32_t v = 0; v < nv; v++) {
            size_t t = ac[v];
            ac[v] = (uint32_t)o;
            o += t;
        }
        for (size_t k = 0; k < na; k++)
            AS[ac[par[A[k].i]]++] = A[k];
    }
    /* ac[r] is now the end of r's arcs; their start is the previous
     * root's end (roots in order) */
    size_t astart = 0;
    uint32_t *ends = malloc(((size_t)nv + 1) * sizeof *ends);
    if (!ends) {
        rc = PB_ENOMEM;
        goto out;
    }
    memcpy(ends, ac, (size_t)nv * sizeof *ends);
    for (uint32_t r = 0; r < nv && rc == PB_OK; r++) {
        if (par[r] != r)
            continue;
        if (inz && !inz[r]) { /* outside the zone: its current pair (or none) stays */
            if (r < nc)
                un_c[r] = cpaired && !cpaired[r];
            else
                un_r[r - nc] = cur[r - nc] == NONE;
            continue;
        }
        uint32_t m0 = aoff[r], m1 = cnt[r];
        size_t aend = ends[r];
        uint32_t ncc = 0;
        while (m0 + ncc < m1 && mem[m0 + ncc] < nc)
            ncc++;
        uint32_t nrc = m1 - m0 - ncc;
        if (aend == astart) { /* alone: left unpaired */
            for (uint32_t a = m0; a < m1; a++) {
                if (mem[a] < nc)
                    un_c[mem[a]] = 1;
                else
                    un_r[mem[a] - nc] = 1;
                sol += skip;
            }
            continue;
        }
        for (uint32_t a = 0; a < ncc; a++)
            loc[mem[m0 + a]] = a;
        for (uint32_t a = 0; a < nrc; a++) {
            loc[mem[m0 + ncc + a]] = a;
            mem[m0 + ncc + a] -= nc;
        }
        rc = up_solve(AS + astart, aend - astart, mem + m0, ncc, mem + m0 + ncc, nrc, loc, nc,
                      skip, un_c, un_r, &sol, solver > 1 ? 1 : solver);
        astart = aend;
    }
    free(ends);
    if (rc == PB_OK)
        *after = sol / UP_SCALE;
out:
    free(inz);
    free(cpaired);
    free(A);
    free(AS);
    free(par);
    free(loc);
    free(cnt);
    free(mem);
    free(aoff);
    return rc;
}

/* unp_copy_taken: in the self-calibration's copy (p.sel_from: the real
 * trace's output solution) of a trace whose rule ran with its pieces
 * (unpaired=1 unp_pieces=1 unp_flow=2), only the copy's messages made
 * from a pair of the real output with a message in a taken piece
 * (joint_unppiece.c's unpp_tmsg; the copy's message ids are 2p + 1 and
 * 2p + 2 for the real pair p, joint_selfcal.c's simulate) seed the flow's
 * zone; elsewhere the copy keeps its first search's pairs, as the real
 * output did.  The copy re-ran the whole rule (h182: +0.35 G of hotel
 * 100's 5.99 G instructions).  1: the gate applies to s */
static int up_gated(const joint *s)
{
    return s->p.sel_from && s->p.unp_copy_taken && s->p.unpaired == 1 && s->p.unp_pieces &&
           s->p.unp_flow == 2;
}

/* the copy's message msg may seed the zone (up_gated) */
static unsigned char up_seed_ok(const joint *s, uint32_t msg)
{
    const joint *r = s->p.sel_from;
    uint64_t id = s->v.msgs[msg].id;
    if (!r->unpp_tmsg || id == 0 || (id - 1) / 2 >= r->npairs)
        return 0;
    const jpair *q = &r->pr[(id - 1) / 2];
    return (q->call != NONE && r->unpp_tmsg[q->call]) || (q->ret != NONE && r->unpp_tmsg[q->ret]);
}

/* one link of the search: the min-cost pairing of its messages; marks
 * force[msg] when it leaves other messages unpaired than the search did.
 * *rec is filled.  PB_OK or PB_ENOMEM */
static int up_link(const joint *s, uint32_t l, double price, unsigned char *force,
                   joint_unp_rec *rec)
{
    uint32_t n = s->bylink_off[l + 1] - s->bylink_off[l];
    up_ev *C = malloc(((size_t)n + 1) * sizeof *C), *R = malloc(((size_t)n + 1) * sizeof *R);
    pb_ns *ct = malloc(((size_t)n + 1) * sizeof *ct), *rt = malloc(((size_t)n + 1) * sizeof *rt);
    uint32_t *cur = malloc(((size_t)n + 1) * sizeof *cur);
    uint32_t *rank = malloc(((size_t)s->npairs + 1) * sizeof *rank);
    unsigned char *uc = malloc((size_t)n + 1), *ur = malloc((size_t)n + 1);
    int rc = PB_OK;
    if (!C || !R || !ct || !rt || !cur || !rank || !uc || !ur) {
        rc = PB_ENOMEM;
        goto out;
    }
    uint32_t nc = 0, nr = 0, uc0 = 0, ur0 = 0;
    for (uint32_t i = s->bylink_off[l]; i < s->bylink_off[l + 1]; i++) {
        uint32_t p = s->bylink[i];
        const jpair *x = &s->pr[p];
        if (x->call != NONE)
            C[nc++] = (up_ev){x->cr, x->call, p};
        if (x->ret != NONE)
            R[nr++] = (up_ev){x->rs, x->ret, p};
        uc0 += x->ret == NONE;
        ur0 += x->call == NONE;
    }
    pb_sort(C, nc, sizeof *C, up_cmp);
    pb_sort(R, nr, sizeof *R, up_cmp);
    for (uint32_t i = 0; i < nc; i++) {
        ct[i] = C[i].t;
        rank[C[i].pair] = i;
    }
    for (uint32_t j = 0; j < nr; j++) {
        rt[j] = R[j].t;
        cur[j] = s->pr[R[j].pair].call != NONE ? rank[R[j].pair] : NONE;
    }
    /* how far the re-paired link is from time order: of two consecutive
     * paired calls, the later answered first */
    {
        uint32_t prev = NONE;
        size_t inv = 0, pairs = 0;
        pb_ns *ans = malloc(((size_t)nc + 1) * sizeof *ans);
        if (!ans) {
            rc = PB_ENOMEM;
            goto out;
        }
        for (uint32_t i = 0; i < nc; i++)
            ans[i] = PB_TS_NONE;
        for (uint32_t j = 0; j < nr; j++)
            if (cur[j] != NONE)
                ans[cur[j]] = rt[j];
        for (uint32_t i = 0; i < nc; i++) {
            if (ans[i] == PB_TS_NONE)
                continue;
            if (prev != NONE) {
                pairs++;
                inv += ans[i] < ans[prev];
            }
            prev = i;
        }
        free(ans);
        rec->overtaken = pairs ? (double)inv / (double)pairs : 0;
        /* the alignment's order holds unless the link overtakes more often
         * than JOINT_ORDER_RHO0 (one-sided binomial test at level
         * JOINT_ORDER_ALPHA, as the order test of `order`): then its choice
         * stays */
        rec->order_p = inv > 0 ? gsl_cdf_binomial_Q((unsigned)(inv - 1), JOINT_ORDER_RHO0,
                                                    (unsigned)pairs)
                               : 1.0;
        rec->in_order = !(rec->order_p < JOINT_ORDER_ALPHA);
    }
    rec->link = l;
    rec->calls = nc;
    rec->returns = nr;
    rec->unpaired_calls = rec->unpaired_calls0 = uc0;
    rec->unpaired_returns = rec->unpaired_returns0 = ur0;
    if (rec->in_order && (s->p.unpaired == 1 || s->p.unpaired == 3))
        goto out;
    double before = 0, after = 0;
    unsigned char *ok = NULL; /* unp_copy_taken: the messages that may seed the zone */
    if (up_gated(s)) {
        ok = malloc((size_t)nc + nr + 1);
        if (!ok) {
            rc = PB_ENOMEM;
            goto out;
        }
        size_t nok = 0;
        for (uint32_t i = 0; i < nc; i++)
            nok += ok[i] = up_seed_ok(s, C[i].msg);
        for (uint32_t j = 0; j < nr; j++)
            nok += ok[nc + j] = up_seed_ok(s, R[j].msg);
        if (!nok) { /* nothing of the real trace's taken pieces here */
            free(ok);
            goto out;
        }
    }
    rc = joint_unpaired_link_z(ct, nc, rt, nr, cur, s->p.early, price, uc, ur, &before,
                               &after, s->p.unp_flow, s->p.unp_flow == 2 ? s->p.unp_flow_hops : 0,
                               s->p.unp_flow == 2 ? s->p.unp_flow_span : 0, ok);
    free(ok);
    rec->cost_before = before;
    rec->cost_after = after;
    if (rc == PB_ERANGE) {
        rec->failed = 1;
        rc = PB_OK;
        goto out;
    }
    if (rc != PB_OK)
        goto out;
    size_t nuc = 0, nur = 0, diff = 0;
    for (uint32_t i = 0; i < nc; i++) {
        nuc += uc[i];
        diff += (size_t)(uc[i] != (s->pr[C[i].pair].ret == NONE));
    }
    for (uint32_t j = 0; j < nr; j++) {
        nur += ur[j];
        diff += (size_t)(ur[j] != (s->pr[R[j].pair].call == NONE));
    }
    rec->unpaired_calls = nuc;
    rec->unpaired_returns = nur;
    /* only a strictly cheaper pairing changes the choice (ties keep the
     * alignment's) */
    if (diff == 0 || !(after < before))
        goto out;
    rec->changed = diff;
    /* the ids of the changed messages, for the metadata (a local second
     * search, docs/joint/loss.md "... the second search made local,
     * measured") */
    rec->moved = malloc(diff * sizeof *rec->moved);
    if (!rec->moved) {
        rc = PB_ENOMEM;
        goto out;
    }
    size_t nm = 0;
    for (uint32_t i = 0; i < nc; i++)
        if (uc[i] != (s->pr[C[i].pair].ret == NONE))
            rec->moved[nm++] = s->v.msgs[C[i].msg].id;
    for (uint32_t j = 0; j < nr; j++)
        if (ur[j] != (s->pr[R[j].pair].call == NONE))
            rec->moved[nm++] = s->v.msgs[R[j].msg].id;
    /* the unpaired messages (1) and the rest of the link (2: paired first
     * in, first out), so a link that leaves nothing unpaired is known too */
    for (uint32_t i = 0; i < nc; i++)
        force[C[i].msg] = uc[i] ? 1 : 2;
    for (uint32_t j = 0; j < nr; j++)
        force[R[j].msg] = ur[j] ? 1 : 2;
out:
    free(C);
    free(R);
    free(ct);
    free(rt);
    free(cur);
    free(rank);
    free(uc);
    free(ur);
    return rc;
}

int joint_unpaired_choose(const joint *s, unsigned char **force, joint_unp_rec **recs,
                          size_t *nrecs, size_t *changed)
{
    *force = NULL;
    *recs = NULL;
    *nrecs = 0;
    *changed = 0;
    if (!s->p.unpaired || !joint_any_free(s) || !(s->halves_call + s->halves_ret))
        return PB_OK;
    unsigned char *f = calloc(s->v.n + 1, 1);
    if (!f)
        return PB_ENOMEM;
    /* the price of an unpaired message: its partner lost (probability q)
     * against present (1 - q), with q the share of the trace's calls and
     * returns the first search left unpaired */
    double q = (double)(s->halves_call + s->halves_ret) / (double)(s->calls + s->returns);
    if (q < JOINT_UNP_QMIN)
        q = JOINT_UNP_QMIN;
    if (q > 0.5)
        q = 0.5;
    double price = -log(q / (1 - q));
    joint_unp_rec *r = NULL;
    size_t nr = 0;
    int rc = PB_OK;
    for (uint32_t l = 0; l < s->nlinks && rc == PB_OK; l++) {
        size_t halves, full;
        if (!up_link_eligible(s, l, &halves, &full))
            continue;
        joint_unp_rec *t = realloc(r, (nr + 1) * sizeof *r);
        if (!t) {
            rc = PB_ENOMEM;
            break;
        }
        r = t;
        memset(&r[nr], 0, sizeof r[nr]);
        r[nr].caller = s->link_src[l];
        r[nr].callee = s->link_dst[l];
        r[nr].price = price;
        r[nr].q = q;
        rc = up_link(s, l, price, f, &r[nr]);
        if (r[nr].changed)
            (*changed)++;
        nr++;
    }
    if (rc != PB_OK) {
        free(f);
        joint_unpaired_free(r, nr);
        return rc;
    }
    *recs = r;
    *nrecs = nr;
    if (*changed && joint_unpc_mode(&s->p) != 3) /* unp_copy=3: none in a copy (joint_unpcopy.c) */
        *force = f;
    else
        free(f);
    return PB_OK;
}

void joint_unpaired_free(joint_unp_rec *recs, size_t n)
{
    for (size_t i = 0; recs && i < n; i++)
        free(recs[i].moved);
    free(recs);
}
