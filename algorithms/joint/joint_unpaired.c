/*
 * joint_unpaired.c - without call ids, under loss: which calls and returns
 * of a re-paired link stay unpaired (`unpaired`; docs/joint.md,
 * "Robustness", "Which messages stay unpaired").
 *
 * The in-order alignment (joint_align.c) decides which messages of a link
 * with lost messages stay unpaired, and the re-pairing (step 4) never
 * revisits that choice: a half pair is not movable.  On a link whose
 * callee serves in parallel the time-ordered pairs the alignment weighs
 * are mostly wrong, so its choice of the unpaired messages is close to
 * arbitrary there.  After a first search, the links that showed loss (the
 * alignment left messages unpaired), that were paired without call ids and
 * that the re-pairing re-pairs (not kept in arrival order by the fifo
 * test) are paired once more by the alignment's own likelihood without its
 * order constraint: a pair costs -log p(duration) under the histogram of
 * the link's re-paired pairs (the alignment's bins, smoothing and floor),
 * a message left unpaired costs the alignment's price (JOINT_ALIGN_SKIP
 * nats), and the pairing of least total cost is a min-cost flow.  When it
 * leaves other messages unpaired than the first search did, the search is
 * run again with those messages unpaired (joint_find_pairs pairs the rest
 * of the link first in, first out, and the re-pairing re-pairs them).
 */
#include "joint_int.h"

#include <glpk.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

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

/* one link: the min-cost pairing; marks force[msg] for the messages it
 * leaves unpaired when they differ from the current half pairs.  *rec is
 * filled.  PB_OK or PB_ENOMEM */
static int up_link(const joint *s, uint32_t l, unsigned char *force, joint_unp_rec *rec)
{
    uint32_t n = s->bylink_off[l + 1] - s->bylink_off[l];
    up_ev *C = malloc(((size_t)n + 1) * sizeof *C), *R = malloc(((size_t)n + 1) * sizeof *R);
    uint32_t *cidx = malloc(((size_t)s->v.n + 1) * sizeof *cidx); /* unused when NULL */
    double h[JOINT_ALIGN_NB], cost[JOINT_ALIGN_NB];
    int rc = PB_OK;
    glp_graph *G = NULL;
    if (!C || !R || !cidx) {
        rc = PB_ENOMEM;
        goto out;
    }
    memset(h, 0, sizeof h);
    uint32_t nc = 0, nr = 0, uc0 = 0, ur0 = 0;
    for (uint32_t i = s->bylink_off[l]; i < s->bylink_off[l + 1]; i++) {
        uint32_t p = s->bylink[i];
        const jpair *x = &s->pr[p];
        if (x->call != NONE)
            C[nc++] = (up_ev){x->cr, x->call, p};
        if (x->ret != NONE)
            R[nr++] = (up_ev){x->rs, x->ret, p};
        if (x->call != NONE && x->ret != NONE && x->rs >= x->cr)
            h[joint_align_bin(x->rs - x->cr)] += 1;
        uc0 += x->ret == NONE;
        ur0 += x->call == NONE;
    }
    qsort(C, nc, sizeof *C, up_cmp);
    qsort(R, nr, sizeof *R, up_cmp);
    joint_align_cost(h, cost);
    /* the window: twice the longest queue of calls not yet answered (by
     * counts) plus UP_WMIN, at most UP_WMAX */
    size_t maxq = 0;
    for (uint32_t j = 0, c = 0; j < nr; j++) {
        while (c < nc && C[c].t <= R[j].t)
            c++;
        size_t q = c > j ? c - j : 0;
        if (q > maxq)
            maxq = q;
    }
    size_t K = 2 * maxq + UP_WMIN;
    if (K > UP_WMAX)
        K = UP_WMAX;
    const double skip = up_units(JOINT_ALIGN_SKIP);
    G = glp_create_graph(sizeof(up_vdata), sizeof(up_adata));
    if (!G) {
        rc = PB_ENOMEM;
        goto out;
    }
    int Ln = (int)(nc + nr + 1), Dn = (int)(nc + nr + 2);
    glp_add_vertices(G, (int)(nc + nr + 2));
    for (uint32_t i = 0; i < nc; i++)
        ((up_vdata *)G->v[i + 1]->data)->rhs = 1;
    for (uint32_t j = 0; j < nr; j++)
        ((up_vdata *)G->v[nc + j + 1]->data)->rhs = -1;
    ((up_vdata *)G->v[Ln]->data)->rhs = nr;
    ((up_vdata *)G->v[Dn]->data)->rhs = -(double)nc;
    for (uint32_t i = 0; i < nc; i++)
        cidx[C[i].msg] = i;
    double before = 0;
    size_t paired0 = 0;
    for (uint32_t j = 0, c = 0; j < nr; j++) {
        while (c < nc && C[c].t <= R[j].t + s->p.early)
            c++;
        uint32_t lo = c > K ? (uint32_t)(c - K) : 0, cur = NONE;
        const jpair *x = &s->pr[R[j].pair];
        if (x->call != NONE)
            cur = cidx[x->call];
        for (uint32_t i = lo; i < c; i++) {
            pb_ns d = R[j].t - C[i].t;
            up_arc(G, (int)(i + 1), (int)(nc + j + 1), 1,
                   up_units(cost[joint_align_bin(d < 1 ? 1 : d)]));
        }
        if (cur != NONE) {
            pb_ns d = R[j].t - C[cur].t;
            double v = up_units(cost[joint_align_bin(d < 1 ? 1 : d)]);
            before += v;
            paired0++;
            if (cur < lo || cur >= c) /* the current pair, out of the window */
                up_arc(G, (int)(cur + 1), (int)(nc + j + 1), 1, v);
        }
        up_arc(G, Ln, (int)(nc + j + 1), 1, skip);
    }
    for (uint32_t i = 0; i < nc; i++)
        up_arc(G, (int)(i + 1), Dn, 1, skip);
    up_arc(G, Ln, Dn, nr, 0);
    before += skip * (double)(nc + nr - 2 * paired0);
    double sol = 0;
    int ret = glp_mincost_okalg(G, offsetof(up_vdata, rhs), offsetof(up_adata, low),
                                offsetof(up_adata, cap), offsetof(up_adata, cost), &sol,
                                offsetof(up_adata, x), -1);
    rec->link = l;
    rec->calls = nc;
    rec->returns = nr;
    rec->unpaired_calls0 = uc0;
    rec->unpaired_returns0 = ur0;
    rec->cost_before = before / UP_SCALE;
    rec->cost_after = before / UP_SCALE;
    rec->unpaired_calls = uc0;
    rec->unpaired_returns = ur0;
    rec->changed = 0;
    rec->failed = ret != 0;
    if (ret != 0)
        goto out;
    rec->cost_after = sol / UP_SCALE;
    /* the messages it leaves unpaired, and whether they differ */
    size_t uc = 0, ur = 0, diff = 0;
    for (uint32_t i = 0; i < nc; i++) {
        int un = 0;
        for (glp_arc *a = G->v[i + 1]->out; a; a = a->t_next)
            if (a->head->i == Dn && ((up_adata *)a->data)->x > 0.5)
                un = 1;
        uc += (size_t)un;
        diff += (size_t)(un != (s->pr[C[i].pair].ret == NONE));
    }
    for (glp_arc *a = G->v[Ln]->out; a; a = a->t_next) {
        if (a->head->i == Dn)
            continue;
        uint32_t j = (uint32_t)(a->head->i - (int)nc - 1);
        int un = ((up_adata *)a->data)->x > 0.5;
        ur += (size_t)un;
        diff += (size_t)(un != (s->pr[R[j].pair].call == NONE));
    }
    rec->unpaired_calls = uc;
    rec->unpaired_returns = ur;
    /* only a strictly cheaper pairing changes the choice (ties keep the
     * alignment's) */
    if (diff == 0 || !(sol < before))
        goto out;
    rec->changed = diff;
    for (uint32_t i = 0; i < nc; i++)
        for (glp_arc *a = G->v[i + 1]->out; a; a = a->t_next)
            if (a->head->i == Dn && ((up_adata *)a->data)->x > 0.5)
                force[C[i].msg] = 1;
    for (glp_arc *a = G->v[Ln]->out; a; a = a->t_next)
        if (a->head->i != Dn && ((up_adata *)a->data)->x > 0.5)
            force[R[a->head->i - (int)nc - 1].msg] = 1;
    /* the link's other messages are marked as well (2: paired first in,
     * first out), so a link that leaves nothing unpaired is still known */
    for (uint32_t i = 0; i < nc; i++)
        if (!force[C[i].msg])
            force[C[i].msg] = 2;
    for (uint32_t j = 0; j < nr; j++)
        if (!force[R[j].msg])
            force[R[j].msg] = 2;
out:
    if (G)
        glp_delete_graph(G);
    free(C);
    free(R);
    free(cidx);
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
        rc = up_link(s, l, f, &r[nr]);
        if (r[nr].changed)
            (*changed)++;
        nr++;
    }
    if (rc != PB_OK) {
        free(f);
        free(r);
        return rc;
    }
    *recs = r;
    *nrecs = nr;
    if (*changed)
        *force = f;
    else
        free(f);
    return PB_OK;
}
