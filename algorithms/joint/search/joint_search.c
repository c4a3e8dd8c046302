/*
 * joint_search.c - joint: reassignment rounds (greedy, or min-cost flow
 * through GLPK) and the exact re-split of the calls two competing requests
 * share (docs/joint/search.md, "The search", steps 2-3).
 */
#include "joint_int.h"
#include "joint_rs.h"
#include "pb_mem.h"
#include "pb_hash.h"
#include <glpk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE

/* ------------------------------------------------------------------ */
/* 4. min-cost flow reassignment of one outgoing link's calls */

typedef struct vdata {
    double rhs;
} vdata;

typedef struct adata {
    double low, cap, cost, x;
} adata;

/* cost of call p in request q, q's other current calls fixed */
static double edge_cost(joint *s, uint32_t p, uint32_t q)
{
    const jpair *pp = &s->pr[p], *qq = &s->pr[q];
    const kvec *k = &s->kids[q];
    if (pp->call == NONE)
        return 0; /* no call time: every request alike */
    pb_ns tt = qq->call == NONE ? INT64_MIN : qq->cr;
    uint32_t trig = 0;
    for (uint32_t i = 0; i < k->n; i++) {
        const jpair *c = &s->pr[k->a[i]];
        if (k->a[i] == p || c->ret == NONE || c->rr > pp->cs || c->rr < tt)
            continue;
        if (joint_par_skip(s, qq->link, c->link, pp->link))
            continue;
        if (c->rr > tt || (c->rr == tt && trig != 0)) {
            tt = c->rr;
            trig = 1 + c->link;
        }
    }
    uint32_t di = joint_key_get(s, qq->link, trig, pp->link);
    if (qq->call == NONE && trig == 0)
        return di == NONE ? -(s->bg - log(1e6)) : -s->kmean[di];
    return -logf_of(s, di, pp->cs - tt);
}

/* marginal cost of the c-th call of link l in a request of link e
 * (c >= 1), made convex */
static double slot_cost(const joint *s, uint32_t e, uint32_t l, uint32_t c, double prev)
{
    if (c > JOINT_KMAX)
        c = JOINT_KMAX;
    size_t base = s->cnt_off[e] + (size_t)s->link_local[l] * (JOINT_KMAX + 1);
    double v = -(s->cntlp[base + c] - s->cntlp[base + c - 1]);
    if (c == JOINT_KMAX)
        v = -(s->cntlp[base + c] - s->cntlp[base + 0]) / JOINT_KMAX;
    return v < prev ? prev : v;
}

static inline double to_units(double c)
{
    double u = nearbyint(c * JOINT_SCALE);
    if (u > JOINT_CMAX)
        u = JOINT_CMAX;
    if (u < -JOINT_CMAX)
        u = -JOINT_CMAX;
    return u;
}

static uint32_t uf_find(uint32_t *u, uint32_t x)
{
    while (u[x] != x) {
        u[x] = u[u[x]];
        x = u[x];
    }
    return x;
}

static int solve_component(joint *s, const uint32_t *ch, uint32_t nc,
                           const uint32_t *rq, uint32_t nr, uint32_t *loc, int *changed)
{
    if (nc == 1) {
        uint32_t p = ch[0], best = NONE;
        double bc = INFINITY;
        for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++) {
            uint32_t q = s->cand[j];
            double c = edge_cost(s, p, q) + slot_cost(s, s->pr[q].link, s->pr[p].link, 1, -INFINITY);
            if (c < bc) {
                bc = c;
                best = q;
            }
        }
        if (best != s->par[p]) {
            (*changed)++;
            return joint_set_parent(s, p, best);
        }
        return PB_OK;
    }
    glp_graph *G = glp_create_graph(sizeof(vdata), sizeof(adata));
    if (!G)
        return PB_ENOMEM;
    int nv = (int)(nc + nr + 1), sink = nv;
    glp_add_vertices(G, nv);
    for (int i = 1; i <= nv; i++) {
        vdata *vd = G->v[i]->data;
        vd->rhs = i <= (int)nc ? 1.0 : (i == sink ? -(double)nc : 0.0);
    }
    /* request slots */
    uint32_t l = s->pr[ch[0]].link;
    for (uint32_t j = 0; j < nr; j++) {
        uint32_t q = rq[j];
        uint32_t deg = 0; /* how many calls could come: at most nc */
        deg = nc < JOINT_KMAX ? nc : JOINT_KMAX;
        double prev = -INFINITY;
        for (uint32_t c = 1; c <= deg; c++) {
            double v = slot_cost(s, s->pr[q].link, l, c, prev);
            prev = v;
            glp_arc *a = glp_add_arc(G, (int)(nc + j + 1), sink);
            adata *ad = a->data;
            ad->low = 0;
            ad->cap = 1;
            ad->cost = to_units(v);
        }
        glp_arc *a = glp_add_arc(G, (int)(nc + j + 1), sink);
        adata *ad = a->data;
        ad->low = 0;
        ad->cap = nc;
        ad->cost = JOINT_CMAX;
    }
    for (uint32_t i = 0; i < nc; i++) {
        uint32_t p = ch[i];
        for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++) {
            uint32_t q = s->cand[j];
            glp_arc *a = glp_add_arc(G, (int)(i + 1), (int)(nc + loc[q] + 1));
            adata *ad = a->data;
            ad->low = 0;
            ad->cap = 1;
            ad->cost = to_units(edge_cost(s, p, q));
        }
    }
    double sol;
    int ret = glp_mincost_okalg(G, offsetof(vdata, rhs), offsetof(adata, low),
                                offsetof(adata, cap), offsetof(adata, cost), &sol,
                                offsetof(adata, x), -1);
    int rc = PB_OK;
    if (ret != 0) {
        s->flow_failures++;
    } else {
        s->flows++;
        for (uint32_t i = 0; i < nc && rc == PB_OK; i++) {
            uint32_t p = ch[i], to = s->par[p];
            for (glp_arc *a = G->v[i + 1]->out; a; a = a->t_next) {
                adata *ad = a->data;
                if (ad->x > 0.5) {
                    to = rq[a->head->i - (int)nc - 1];
                    break;
                }
            }
            if (to != s->par[p]) {
                (*changed)++;
                rc = joint_set_parent(s, p, to);
            }
        }
    }
    glp_delete_graph(G);
    return rc;
}

/* reassign the calls of link l */
static int match_link(joint *s, uint32_t l, const uint32_t *ch, uint32_t nc, int *changed)
{
    /* local numbering: children 0..nc-1, requests nc.. */
    uint32_t nr = 0;
    int rc = PB_OK;
    for (uint32_t i = 0; i < nc; i++) {
        uint32_t p = ch[i];
        for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++) {
            uint32_t q = s->cand[j];
            if (s->stamp[q] != s->epoch) {
                s->stamp[q] = s->epoch;
                s->loc[q] = nr;
                s->rqlist[nr++] = q;
            }
        }
    }
    uint32_t *u = s->uf;
    for (uint32_t i = 0; i < nc + nr; i++)
        u[i] = i;
    for (uint32_t i = 0; i < nc; i++) {
        uint32_t p = ch[i];
        for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++) {
            uint32_t a = uf_find(u, i), b = uf_find(u, nc + s->loc[s->cand[j]]);
            if (a != b)
                u[a < b ? b : a] = a < b ? a : b;
        }
    }
    /* group children and requests by component root (counting sort) */
    uint32_t *cc = s->comp_cnt; /* [nc + nr + 1] */
    memset(cc, 0, ((size_t)nc + nr + 1) * sizeof *cc);
    for (uint32_t i = 0; i < nc + nr; i++)
        cc[uf_find(u, i) + 1]++;
    for (uint32_t i = 0; i < nc + nr; i++)
        cc[i + 1] += cc[i];
    uint32_t *ord = s->comp_ord;
    for (uint32_t i = 0; i < nc + nr; i++)
        ord[cc[uf_find(u, i)]++] = i;
    /* cc[r] is now the end of root r's block; walk the blocks */
    uint32_t b0 = 0;
    for (uint32_t i = 0; i < nc + nr && rc == PB_OK; i++) {
        if (uf_find(u, i) != i)
            continue;
        uint32_t b1 = cc[i];
        uint32_t xc = 0, xr = 0;
        for (uint32_t t = b0; t < b1; t++) {
            uint32_t v = ord[t];
            if (v < nc)
                s->cbuf[xc++] = ch[v];
            else
                s->rbuf[xr++] = s->rqlist[v - nc];
        }
        for (uint32_t t = 0; t < xr; t++)
            s->loc2[s->rbuf[t]] = t;
        if (xc > s->largest)
            s->largest = xc;
        if (xc)
            rc = solve_component(s, s->cbuf, xc, s->rbuf, xr, s->loc2, changed);
        b0 = b1;
    }
    s->epoch++;
    (void)l;
    return rc;
}

/* the same, one call at a time: each call takes the candidate with the
 * least edge cost plus marginal slot cost, the others fixed */
static int greedy_round(joint *s, int *changed)
{
    int rc = PB_OK;
    joint_greedy_prep(s); /* greedy_cut (joint_greedy.c) */
    if ((rc = joint_greedy_round_start(s)) != PB_OK ||
        (rc = joint_gsort_round_start(s)) != PB_OK || /* greedy_sorted (joint_gsort.c) */
        (rc = joint_tcache_round_start(s)) != PB_OK || /* greedy_tcache (joint_tcache.c) */
        (rc = joint_lsg_round_start(s)) != PB_OK)     /* loss_serial_greedy (joint_lsgreedy.c) */
        return rc;
    const int lsg_on = joint_lser_greedy_on(s); /* else its cost is 0 (joint_lserial.c) */
    for (uint32_t p = 0; p < s->npairs && rc == PB_OK; p++) {
        uint32_t c0 = s->cand_off[p], c1 = s->cand_off[p + 1];
        if (c1 - c0 < 2)
            continue;
        if (s->lsw_only && !s->lsw_only[p])
            continue; /* loss_serial_win: outside the window (joint_lserwin.c) */
        if (s->uwl_open && joint_uwl_skip_call(s, p))
            continue; /* unp_wlocal=2: closed (joint_unpwlocal.c) */
        if (joint_greedy_unchanged(s, p))
            continue; /* it would choose as it did (joint_greedy.c) */
        uint32_t l = s->pr[p].link, best = NONE;
        double bc = INFINITY;
        joint_lsg_best lb = JOINT_LSG_BEST0;
        for (uint32_t j = c0; j < c1; j++) {
            uint32_t q = s->cand[j];
            if (s->p.greedy_cut) {
                /* the same number in one pass (joint_greedy.c), the
                 * trigger kept across refits (joint_tcache.c), the
                 * serial term's part kept per round (joint_lsgreedy.c) */
                const double t = joint_tcache_cost(s, p, j);
                if (!lsg_on) { /* t + 0: the same comparison */
                    if (t < bc) {
                        bc = t;
                        best = q;
                    }
                } else if (joint_lsg_offer(s, p, q, t, &lb)) {
                    best = q;
                }
                continue;
            }
            const kvec *k = &s->kids[q];
            uint32_t cnt = 0;
            for (uint32_t i = 0; i < k->n; i++)
                cnt += k->a[i] != p && s->pr[k->a[i]].link == l;
            uint32_t e = s->pr[q].link;
            size_t base = s->cnt_off[e] + (size_t)s->link_local[l] * (JOINT_KMAX + 1);
            uint32_t c = cnt + 1 > JOINT_KMAX ? JOINT_KMAX : cnt + 1;
            double v = edge_cost(s, p, q) - (s->cntlp[base + c] - s->cntlp[base + c - 1]) +
                       joint_lser_greedy(s, p, q); /* loss_serial_greedy (joint_lserial.c) */
            if (v < bc) {
                bc = v;
                best = q;
            }
        }
        joint_greedy_evaluated(s, p);
        if (best != NONE && best != s->par[p] && !joint_gdamp_veto(s, p, best)) {
            (*changed)++;
            joint_greedy_moved(s, s->par[p], best);
            joint_lsg_touch(s, s->par[p]);
            joint_lsg_touch(s, best);
            rc = joint_set_parent(s, p, best);
        }
    }
    joint_gsort_round_end(s);
    joint_lsg_round_end(s);
    return rc;
}

int joint_match_round(joint *s, int *changed)
{
    int rc = PB_OK;
    if (!s->use_flow)
        return greedy_round(s, changed);
    for (uint32_t l = 0; l < s->nlinks && rc == PB_OK; l++) {
        uint32_t nc = 0;
        for (uint32_t i = s->bylink_off[l]; i < s->bylink_off[l + 1]; i++) {
            uint32_t p = s->bylink[i];
            if (s->cand_off[p + 1] > s->cand_off[p])
                s->chbuf[nc++] = p;
        }
        if (nc)
            rc = match_link(s, l, s->chbuf, nc, changed);
    }
    return rc;
}

/* ------------------------------------------------------------------ */
/* 5. exact local search */

/* merge the kids of q that are not in the set (fixed) with the set members
 * chosen by mask bit value `side`, by call time, into out */
uint32_t joint_resplit_list(const joint *s, const uint32_t *fx, uint32_t nf,
                             const uint32_t *set, uint32_t m, uint32_t mask, uint32_t side,
                             uint32_t *out)
{
    uint32_t i = 0, j = 0, n = 0;
    for (;;) {
        while (j < m && ((mask >> j) & 1u) != side)
            j++;
        if (i >= nf && j >= m)
            break;
        if (j >= m || (i < nf && (s->pr[fx[i]].cs < s->pr[set[j]].cs ||
                                  (s->pr[fx[i]].cs == s->pr[set[j]].cs && fx[i] < set[j]))))
            out[n++] = fx[i++];
        else
            out[n++] = set[j++];
    }
    return n;
}

/* The re-split's two merged lists (speed only): side 0's fixed calls
 * merged with every shared call (all[0..), tag: the shared call's index
 * in set, or NONE), side 1's likewise (from all + half).  A split's list
 * is then the merged list without the shared calls of the other side:
 * joint_resplit_list's merge places each shared call before the first
 * fixed call after it whichever other shared calls are there, when the
 * shared calls are in order (checked; else the lists are merged for each
 * split). */
struct rsmerge {
    uint32_t *all, *tag, half, n[2], cap;
    /* per side: the place of each shared call in its merged list, the
     * fixed calls before each place (fcnt, half + 1 each) and in all */
    uint32_t pos[2][JOINT_RESPLIT_LOCAL], *fcnt, nfix[2], m;
    int ok;
    struct joint_rsb *rsb; /* rs_bound's cache (joint_rsbound.c) */
    /* rsx_stop (joint_rsx.c): per side, no call of its merged list with an
     * output is of another service than its request's (b: that service) */
    int pure[2]; /* -1: not found yet */
    uint32_t svc[2];
};
typedef struct rsmerge rsmerge;

static int by_call(const joint *s, uint32_t a, uint32_t b)
{
    return s->pr[a].cs < s->pr[b].cs || (s->pr[a].cs == s->pr[b].cs && a < b);
}

static int rsmerge_prep(joint *s, rsmerge *M, const uint32_t *f1, uint32_t n1,
                        const uint32_t *f2, uint32_t n2, const uint32_t *set, uint32_t m,
                        const uint32_t b[2])
{
    M->ok = 0;
    for (uint32_t t = 1; t < m; t++)
        if (!by_call(s, set[t - 1], set[t]))
            return PB_OK;
    uint32_t half = (n1 > n2 ? n1 : n2) + m + 1;
    if (2 * half > M->cap) {
        uint32_t nc = M->cap ? M->cap : 64;
        while (nc < 2 * half)
            nc *= 2;
        uint32_t *a = realloc(M->all, ((size_t)nc * 3 + 2) * sizeof *a);
        if (!a)
            return PB_ENOMEM;
        M->all = a;
        M->tag = a + nc;
        M->fcnt = a + 2 * (size_t)nc;
        M->cap = nc;
    }
    M->half = half;
    uint32_t all_mask = m ? (m >= 32 ? 0xffffffffu : (1u << m) - 1) : 0;
    for (uint32_t side = 0; side < 2; side++) {
        uint32_t *o = M->all + side * half, *tg = M->tag + side * half;
        uint32_t n = joint_resplit_list(s, side ? f2 : f1, side ? n2 : n1, set, m,
                                        side ? all_mask : 0, side, o);
        uint32_t *fc = M->fcnt + side * (half + 1), nf = 0;
        M->pure[side] = -1; /* found at rsx_bound's first use (rsmerge_pure) */
        M->svc[side] = b[side];
        for (uint32_t i = 0, j = 0; i < n; i++) {
            fc[i] = nf;
            if (j < m && o[i] == set[j]) {
                if (j < JOINT_RESPLIT_LOCAL)
                    M->pos[side][j] = i;
                tg[i] = j++;
            } else {
                tg[i] = NONE;
                nf++;
            }
        }
        fc[n] = nf;
        M->nfix[side] = nf;
        M->n[side] = n;
    }
    M->m = m;
    M->ok = 1;
    return PB_OK;
}

/* side's list of the split mask, into out; returns how many */
static uint32_t rsmerge_pick(const rsmerge *M, uint32_t mask, uint32_t side, uint32_t *out)
{
    const uint32_t *o = M->all + side * M->half, *tg = M->tag + side * M->half;
    uint32_t n = 0;
    for (uint32_t i = 0; i < M->n[side]; i++)
        if (tg[i] == NONE || ((mask >> tg[i]) & 1u) == side)
            out[n++] = o[i];
    return n;
}

/* side's list of the split mask when the record ref holds the list of
 * the split rmask (both of this merge): the lists agree before the first
 * shared call the two masks place differently and after the last one, so
 * the common prefix (*j0) and suffix (*cs) are counted from the masks and
 * copied from the record, and only the calls between are picked.  Into
 * out; returns how many */
static uint32_t rsmerge_pick_hint(const rsmerge *M, uint32_t mask, uint32_t rmask,
                                  uint32_t side, const joint_wrec *ref, uint32_t *out,
                                  uint32_t *j0p, uint32_t *csp)
{
    const uint32_t m = M->m, all = m >= 32 ? 0xffffffffu : (1u << m) - 1;
    const uint32_t d = (mask ^ rmask) & all, in = (side ? mask : ~mask) & all;
    const uint32_t *o = M->all + side * M->half, *tg = M->tag + side * M->half,
                   *fc = M->fcnt + side * (M->half + 1);
    const uint32_t tf = (uint32_t)__builtin_ctz(d), tl = 31u - (uint32_t)__builtin_clz(d);
    const uint32_t pf = M->pos[side][tf], pl = M->pos[side][tl];
    const uint32_t below = tf ? (1u << tf) - 1 : 0, above = all & ~((2u << tl) - 1);
    uint32_t j0 = fc[pf] + joint_bits32(in & below);
    uint32_t cs = (M->nfix[side] - fc[pl + 1]) + joint_bits32(in & above);
    memcpy(out, ref->k, (size_t)j0 * sizeof *out);
    uint32_t n = j0;
    for (uint32_t i = pf; i <= pl; i++)
        if (tg[i] == NONE || ((mask >> tg[i]) & 1u) == side)
            out[n++] = o[i];
    memcpy(out + n, ref->k + (ref->n - cs), (size_t)cs * sizeof *out);
    *j0p = j0;
    *csp = cs;
    return n + cs;
}

void joint_resplit_free(joint *s)
{
    if (s->rsm) {
        free(s->rsm->all);
        joint_rsb_free(s->rsm->rsb);
    }
    free(s->rsm);
    s->rsm = NULL;
    joint_rsmemo_free(s); /* rs_memo (joint_rsmemo.c) */
    joint_bnb_free(s);
}

/* score of one split of the shared calls set[0..m) (bit set: to q2): both
 * requests' log-likelihoods (and the order term); the kid lists in e1, e2.
 * With s->wresume each walk resumes from the record of the reference
 * split (the same numbers, joint_req_walk_resume) and is recorded;
 * keep_split makes it the reference */
static double split_ll(joint *s, uint32_t q1, uint32_t q2, const uint32_t *f1, uint32_t n1,
                       const uint32_t *f2, uint32_t n2, const uint32_t *set, uint32_t m,
                       uint32_t mask, uint32_t *e1, uint32_t *e2, int *rcp)
{
    const rsmerge *M = s->rsm;
    uint32_t a = M->ok ? rsmerge_pick(M, mask, 0, e1)
                       : joint_resplit_list(s, f1, n1, set, m, mask, 0, e1);
    uint32_t b = M->ok ? rsmerge_pick(M, mask, 1, e2)
                       : joint_resplit_list(s, f2, n2, set, m, mask, 1, e2);
    double l1 = 0, l2 = 0;
    if (!s->wresume) {
        /* the values of walks made earlier in this local search kept
         * (joint_vcache.c: the same bits) */
        if ((*rcp = joint_vcache_walk(s, q1, e1, a, &l1)) != PB_OK ||
            (*rcp = joint_vcache_walk(s, q2, e2, b, &l2)) != PB_OK)
            return -INFINITY;
    } else {
        joint_wrec *ref = s->wr + s->wref, *out = s->wr + (2 - s->wref);
        if ((*rcp = joint_req_walk_resume(s, q1, e1, a, &ref[0], &out[0], &l1)) != PB_OK ||
            (*rcp = joint_req_walk_resume(s, q2, e2, b, &ref[1], &out[1], &l2)) != PB_OK)
            return -INFINITY;
        /* the records' split, for the estimates' lists (rsmerge_pick_hint) */
        out[0].mask = out[1].mask = mask;
        out[0].has_mask = out[1].has_mask = M->ok && m <= JOINT_RESPLIT_LOCAL;
    }
    double v = l1 + l2;
    if (s->order_active)
        v += joint_order_ll(s, q1, e1, a, q2, e2, b);
    return v;
}

/* An estimate of split_ll's value of mask, from the reference records
 * (joint_req_walk_estimate: the same but for the rounding of the sums), or
 * +INFINITY when there are none.  The lists in e1, e2. */
static int side_est(joint *s, uint32_t q, const uint32_t *e, uint32_t n, const joint_wrec *ref,
                    int at, uint32_t p0, uint32_t c0, int memo, uint32_t mp, double *l)
{
    int h = 0, rc;
    if (memo && joint_lsmemo_get(s, q, mp, l))
        return PB_OK;
    rc = at ? joint_req_walk_estimate_at(s, q, e, n, ref, p0, c0, l, &h)
            : joint_req_walk_estimate(s, q, e, n, ref, l, &h);
    if (rc == PB_OK && memo)
        rc = joint_lsmemo_put(s, q, mp, *l);
    return rc;
}

/* rsx_stop: the side's pure flag, found once per re-split */
static int rsmerge_pure(const joint *s, rsmerge *M, uint32_t side)
{
    if (M->pure[side] < 0) {
        const uint32_t *o = M->all + side * M->half;
        M->pure[side] = 1;
        for (uint32_t i = 0; i < M->n[side]; i++) {
            const jpair *x = &s->pr[o[i]];
            if (x->call != NONE && s->link_src[x->link] != M->svc[side]) {
                M->pure[side] = 0;
                break;
            }
        }
    }
    return M->pure[side];
}

/* rs_xbound (joint_rsx.c): an exchange of two calls from the record's
 * split (mask differs from it in one call out of each side) bounded from
 * both sides' records: PB_OK and *u when the exchange is left out (it
 * would be: counted as its estimate), 1 when it is to be estimated, or an
 * error */
static int rsx_bound(joint *s, uint32_t q1, uint32_t q2, const uint32_t *set, uint32_t m,
                     uint32_t mask, uint32_t *e1, uint32_t *e2, double bound, double *u)
{
    const joint_wrec *ref = s->wr + s->wref;
    rsmerge *M = s->rsm;
    const uint32_t d = ref[0].mask ^ mask, to2 = d & mask, to1 = d & ~mask;
    if (!to2 || !to1 || (to2 & (to2 - 1)) || (to1 & (to1 - 1)))
        return 1;
    uint32_t t = 0, v = 0;
    while (t < m && !((to2 >> t) & 1u))
        t++;
    while (v < m && !((to1 >> v) & 1u))
        v++;
    if (t >= m || v >= m)
        return 1;
    /* set[t] leaves q1 for q2, set[v] leaves q2 for q1 */
    double u1 = 0, u2 = 0;
    if (!joint_rsx_swap(s, &M->rsb, q1, &ref[0], set[t], set[v], rsmerge_pure(s, M, 0), &u1) ||
        !joint_rsx_swap(s, &M->rsb, q2, &ref[1], set[v], set[t], rsmerge_pure(s, M, 1), &u2))
        return 1;
    joint_rsx_test_used++;
    const double w = u1 + u2;
    if (joint_rsx_test_check) { /* tests: the estimates it bounds */
        double l1 = 0, l2 = 0;
        uint32_t p1, c1, p2, c2;
        uint32_t a = rsmerge_pick_hint(M, mask, ref[0].mask, 0, &ref[0], e1, &p1, &c1);
        uint32_t b = rsmerge_pick_hint(M, mask, ref[1].mask, 1, &ref[1], e2, &p2, &c2);
        int rc = side_est(s, q1, e1, a, &ref[0], 1, p1, c1, 0, 0, &l1);
        if (rc == PB_OK)
            rc = side_est(s, q2, e2, b, &ref[1], 1, p2, c2, 0, 0, &l2);
        if (rc != PB_OK)
            return rc;
        joint_rsx_test_bad += l1 > u1 || l2 > u2;
        double g1 = u1 - l1, g2 = u2 - l2;
        if (g1 > joint_rsx_test_gap && ref[0].mx[ref[0].n] <= s->pr[q1].rs)
            joint_rsx_test_gap = g1;
        if (g2 > joint_rsx_test_gap && ref[1].mx[ref[1].n] <= s->pr[q2].rs)
            joint_rsx_test_gap = g2;
    }
    if (w + 2 * JOINT_PRUNE_TOL * (1.0 + fabs(w) + fabs(bound)) <= bound) {
        /* counted as the estimate: it would be left out, the order term
         * too (joint_rsx.c) */
        s->est_evals++;
        joint_rsx_test_skipped++;
        if (s->order_active)
            (void)joint_ordbound_est_skip(s, w, bound);
        *u = w;
        return PB_OK;
    }
    return 1;
}

/* tests: 1 the single move's leaving side's list made first, its place
 * found by a scan (as before rs_lazy_list) */
int joint_rs_test_eager = 0;

/* split_est with `resplit_memo` (joint_lsmemo.c): ms 0 or 1 when the split
 * is a single move of call mp out of q1 (0) or q2 (1) from the current
 * split, the reference being the current split; -1 otherwise */
static double split_est_m(joint *s, uint32_t q1, uint32_t q2, const uint32_t *f1, uint32_t n1,
                          const uint32_t *f2, uint32_t n2, const uint32_t *set, uint32_t m,
                          uint32_t mask, uint32_t *e1, uint32_t *e2, int *rcp, int ms,
                          uint32_t mp, double bound)
{
    const joint_wrec *ref = s->wr + s->wref;
    if (!ref[0].valid || !ref[1].valid || ref[0].q != q1 || ref[1].q != q2)
        return INFINITY;
    rsmerge *M = s->rsm;
    double l1 = 0, l2 = 0;
    /* rs_bound (joint_rsbound.c): a single move out of side ms from the
     * record's split, the side gaining mp bounded from its record first */
    const int g = ms >= 0 ? 1 - ms : -1;
    int bnd = g >= 0 && M->ok && ref[g].has_mask && !(s->p.ls_margin > 0) &&
              joint_prune_test_bias == 0 && joint_ordbound_test_slack == 0;
    if (bnd && joint_rs_test_eager) { /* tests: as before rs_lazy_list */
        uint32_t t = 0;
        while (t < m && set[t] != mp)
            t++;
        bnd = t < m && (ref[g].mask ^ mask) == (1u << t) && ((mask >> t) & 1u) == (uint32_t)g;
    } else if (bnd) {
        /* mp's place from the one bit the masks differ in (the shared
         * calls are distinct: the same test as finding mp in set) */
        const uint32_t d = ref[g].mask ^ mask;
        const uint32_t t = d ? (uint32_t)__builtin_ctz(d) : m;
        bnd = t < m && set[t] == mp && d == (1u << t) && ((mask >> t) & 1u) == (uint32_t)g;
    }
    if (ms < 0 && M->ok && ref[0].has_mask && ref[1].has_mask && ref[0].mask == ref[1].mask &&
        !(s->p.ls_margin > 0) && joint_prune_test_bias == 0 && joint_ordbound_test_slack == 0 &&
        (*rcp = rsx_bound(s, q1, q2, set, m, mask, e1, e2, bound, &l1)) != 1)
        return *rcp == PB_OK ? l1 : INFINITY; /* rs_xbound (joint_rsx.c): left out */
    *rcp = PB_OK;
    if (M->ok && ref[0].has_mask && ref[1].has_mask && ref[0].mask == ref[1].mask &&
        ref[0].mask != mask) {
        /* the lists from the record's, their common ends counted */
        uint32_t p1, c1, p2, c2;
        if (bnd) {
            /* the side left by mp first, as below; then the bound */
            double ub = 0, lm = 0;
            uint32_t *em = ms == 0 ? e1 : e2, pm = 0, cm = 0, am = 0;
            const uint32_t qm = ms == 0 ? q1 : q2;
            /* rs_lazy_list (speed only): the side's list is made only
             * when its estimate is not kept (resplit_memo) or the order
             * term reads it below; side_est's memo steps, in its order */
            int em_made = 0;
            if (joint_rs_test_eager) { /* tests: as before rs_lazy_list */
                am = rsmerge_pick_hint(M, mask, ref[ms].mask, (uint32_t)ms, &ref[ms], em, &pm, &cm);
                em_made = 1;
                if ((*rcp = side_est(s, qm, em, am, &ref[ms], 1, pm, cm, 1, mp, &lm)) != PB_OK)
                    return INFINITY;
            } else if (!joint_lsmemo_get(s, qm, mp, &lm)) {
                am = rsmerge_pick_hint(M, mask, ref[ms].mask, (uint32_t)ms, &ref[ms], em, &pm, &cm);
                em_made = 1;
                if ((*rcp = side_est(s, qm, em, am, &ref[ms], 1, pm, cm, 0, mp, &lm)) != PB_OK ||
                    (*rcp = joint_lsmemo_put(s, qm, mp, lm)) != PB_OK)
                    return INFINITY;
            }
            if (joint_rsb_add(s, &M->rsb, g ? q2 : q1, &ref[g], mp, rsmerge_pure(s, M, (uint32_t)g),
                              &ub)) {
                double u = lm + ub;
                if (joint_rsb_test_check) { /* tests: the estimate it bounds */
                    double lg = 0;
                    uint32_t *eg = g ? e2 : e1, pg, cg;
                    uint32_t ag = rsmerge_pick_hint(M, mask, ref[g].mask, (uint32_t)g, &ref[g],
                                                    eg, &pg, &cg);
                    if ((*rcp = side_est(s, g ? q2 : q1, eg, ag, &ref[g], 1, pg, cg, 0, mp,
                                         &lg)) != PB_OK)
                        return INFINITY;
                    joint_rsb_test_bad += lg > ub;
                }
                if (u + 2 * JOINT_PRUNE_TOL * (1.0 + fabs(u) + fabs(bound)) <= bound) {
                    /* counted as the estimate: it would be left out, the
                     * order term too (joint_rsbound.c) */
                    s->est_evals++;
                    joint_rsb_test_skipped++;
                    if (s->order_active)
                        (void)joint_ordbound_est_skip(s, u, bound);
                    return u;
                }
            }
            if (ms == 0)
                l1 = lm;
            else
                l2 = lm;
            uint32_t *eg = g ? e2 : e1, pg, cg;
            uint32_t ag = rsmerge_pick_hint(M, mask, ref[g].mask, (uint32_t)g, &ref[g], eg, &pg, &cg);
            if ((*rcp = side_est(s, g ? q2 : q1, eg, ag, &ref[g], 1, pg, cg, 0, mp, g ? &l2 : &l1)) !=
                PB_OK)
                return INFINITY;
            s->est_evals++;
            double v = l1 + l2;
            if (s->order_active && joint_ordbound_est_skip(s, v, bound))
                return v - joint_ordbound_est_shift();
            if (s->order_active) {
                if (!em_made)
                    am = rsmerge_pick_hint(M, mask, ref[ms].mask, (uint32_t)ms, &ref[ms], em, &pm,
                                           &cm);
                uint32_t a = ms == 0 ? am : ag, b = ms == 0 ? ag : am;
                v += joint_order_ll(s, q1, e1, a, q2, e2, b);
            }
            return v;
        }
        uint32_t a = rsmerge_pick_hint(M, mask, ref[0].mask, 0, &ref[0], e1, &p1, &c1);
        uint32_t b = rsmerge_pick_hint(M, mask, ref[1].mask, 1, &ref[1], e2, &p2, &c2);
        if ((*rcp = side_est(s, q1, e1, a, &ref[0], 1, p1, c1, ms == 0, mp, &l1)) != PB_OK ||
            (*rcp = side_est(s, q2, e2, b, &ref[1], 1, p2, c2, ms == 1, mp, &l2)) != PB_OK)
            return INFINITY;
        s->est_evals++;
        double v = l1 + l2;
        /* order_bound (joint_ordbound.c): the term only where it may matter */
        if (s->order_active && joint_ordbound_est_skip(s, v, bound))
            return v - joint_ordbound_est_shift();
        if (s->order_active)
            v += joint_order_ll(s, q1, e1, a, q2, e2, b);
        return v;
    }
    uint32_t a = M->ok ? rsmerge_pick(M, mask, 0, e1)
                       : joint_resplit_list(s, f1, n1, set, m, mask, 0, e1);
    uint32_t b = M->ok ? rsmerge_pick(M, mask, 1, e2)
                       : joint_resplit_list(s, f2, n2, set, m, mask, 1, e2);
    if ((*rcp = side_est(s, q1, e1, a, &ref[0], 0, 0, 0, ms == 0, mp, &l1)) != PB_OK ||
        (*rcp = side_est(s, q2, e2, b, &ref[1], 0, 0, 0, ms == 1, mp, &l2)) != PB_OK)
        return INFINITY;
    s->est_evals++;
    double v = l1 + l2;
    if (s->order_active && joint_ordbound_est_skip(s, v, bound))
        return v - joint_ordbound_est_shift();
    if (s->order_active)
        v += joint_order_ll(s, q1, e1, a, q2, e2, b);
    return v;
}

/* bound: the value the caller prunes the estimate against (joint_prunable;
 * the estimate is used for nothing else) */
static double split_est(joint *s, uint32_t q1, uint32_t q2, const uint32_t *f1, uint32_t n1,
                        const uint32_t *f2, uint32_t n2, const uint32_t *set, uint32_t m,
                        uint32_t mask, uint32_t *e1, uint32_t *e2, int *rcp, double bound)
{
    return split_est_m(s, q1, q2, f1, n1, f2, n2, set, m, mask, e1, e2, rcp, -1, 0, bound);
}

/* may a split whose estimate is est be left out, when only a value above
 * bound could matter?  The estimate differs from the exact value by the
 * rounding of two sums of at most a few hundred terms (relative 1e-13 of
 * their magnitude, which the values' magnitude bounds: the terms are
 * nearly all negative log densities); JOINT_PRUNE_TOL of it is far more */
double joint_prune_test_bias = 0;

int joint_prunable(joint *s, double est, double bound)
{
    est += joint_prune_test_bias;
    if (!(est + JOINT_PRUNE_TOL * (1.0 + fabs(est) + fabs(bound)) <= bound))
        return 0;
    s->est_pruned++;
    return 1;
}

/* the split split_ll scored last becomes the reference of the next */
static void keep_split(joint *s)
{
    s->wref = 2 - s->wref;
}

/* rs_next_link (speed only): nx[t] the next u > t whose shared call
 * set[u] is of set[t]'s link, m if none (m <= JOINT_RESPLIT_LOCAL): by the
 * last place of each link seen, from the end */
static void joint_rs_next_link(const joint *s, const uint32_t *set, uint32_t m, uint32_t *nx)
{
    uint32_t lk[JOINT_RESPLIT_LOCAL], at[JOINT_RESPLIT_LOCAL], nl = 0;
    for (uint32_t t = m; t-- > 0;) {
        const uint32_t l = s->pr[set[t]].link;
        uint32_t x = 0;
        while (x < nl && lk[x] != l)
            x++;
        if (x == nl) {
            lk[nl] = l;
            at[nl++] = m;
        }
        nx[t] = at[x];
        at[x] = t;
    }
}

/* Re-split the calls q1 and q2 compete for: every split of the first
 * JOINT_RESPLIT_MAX shared calls when the two requests are small (2^8
 * splits of at most JOINT_RESPLIT_BUDGET / 256 calls together: every
 * request of hotel and of the shape configs); for larger requests (a
 * front end that calls one endpoint ten times) a local search over up to
 * JOINT_RESPLIT_LOCAL shared calls instead: single moves, and exchanges of
 * two calls of one endpoint (each with the next three of that endpoint),
 * kept while the two requests become likelier (at most 4 sweeps).  Returns 1 if
 * changed. */
static int resplit(joint *s, uint32_t q1, uint32_t q2, int *rcp)
{
    const kvec *k1 = &s->kids[q1], *k2 = &s->kids[q2];
    uint32_t need = 2 * (k1->n + k2->n) + 4;
    if (need > s->rscap) {
        uint32_t nc = s->rscap ? s->rscap : 64;
        while (nc < need)
            nc *= 2;
        uint32_t *a = realloc(s->rsbuf, (size_t)nc * 3 * sizeof *a);
        if (!a) {
            *rcp = PB_ENOMEM;
            return 0;
        }
        s->rsbuf = a;
        s->rscap = nc;
    }
    if ((!s->wr && !(s->wr = calloc(4, sizeof *s->wr))) ||
        (!s->rsm && !(s->rsm = calloc(1, sizeof *s->rsm)))) {
        *rcp = PB_ENOMEM;
        return 0;
    }
    uint32_t *set = s->rsbuf, *f1 = set + s->rscap / 2, *f2 = set + s->rscap,
             *e1 = set + 2 * s->rscap, *e2 = e1 + s->rscap / 2 + 2;
    uint32_t m = 0, n1 = 0, n2 = 0, cur = 0;
    int capped = 0;
    int local = (size_t)(k1->n + k2->n + 2) << JOINT_RESPLIT_MAX > JOINT_RESPLIT_BUDGET;
    uint32_t mmax = local ? JOINT_RESPLIT_LOCAL : JOINT_RESPLIT_MAX;
    /* shared calls, by call time (merge of the two sorted lists) */
    uint32_t i = 0, j = 0;
    while (i < k1->n || j < k2->n) {
        int from1 = j >= k2->n || (i < k1->n && (s->pr[k1->a[i]].cs < s->pr[k2->a[j]].cs ||
                                                 (s->pr[k1->a[i]].cs == s->pr[k2->a[j]].cs &&
                                                  k1->a[i] < k2->a[j])));
        uint32_t p = from1 ? k1->a[i++] : k2->a[j++];
        uint32_t other = from1 ? q2 : q1;
        int shared = joint_has_cand(s, p, other);
        if (shared && m >= mmax)
            capped = 1;
        if (m < mmax && shared) {
            if (!from1)
                cur |= 1u << m;
            set[m++] = p;
        } else if (from1) {
            f1[n1++] = p;
        } else {
            f2[n2++] = p;
        }
    }
    s->resplit_capped += capped;
    if (m == 0)
        return 0;
    /* ls_margin (joint_lsmargin.c): left out when it kept this very split by
     * a wide margin before; alt: the largest value, estimate or bound of
     * another split looked at (the margin is the kept split's less it) */
    const int mg_on = s->p.ls_margin > 0 && !s->xfloor_on;
    const int cf_on = joint_lscf_on(s); /* rs_confirm (joint_lsconfirm.c) */
    uint64_t fp = 0;
    int mg_verify = 0, cf_verify = 0, cf_refused = 0;
    double alt = -INFINITY, vcur = -INFINITY;
    if (mg_on || (cf_on && s->p.rs_confirm_fp))
        fp = joint_lsmg_fp(s, q1, q2, set, m, cur, f1, n1, f2, n2);
    uint64_t cf_fp = cf_on && !s->p.rs_confirm_fp ? joint_lscf_fp_shared(s, q1, q2, set, m, cur)
                                                  : fp;
    if (mg_on) {
        if (joint_lsmg_skip(s, q1, q2, fp)) {
            if (!joint_lsmg_test_verify)
                return 0;
            mg_verify = 1; /* the test's check: made anyway, a change counted */
        }
    }
    /* rs_memo (joint_rsmemo.c): the pair's last re-split, the same inputs
     * and model, kept its split */
    if (joint_rsmemo_skip(s, q1, q2, set, m, cur, f1, n1, f2, n2, rcp) || *rcp != PB_OK)
        return 0;
    double best = -INFINITY;
    uint32_t bm = cur;
    /* no reference yet: the model or the times may have changed since */
    s->wr[0].valid = s->wr[1].valid = s->wr[2].valid = s->wr[3].valid = 0;
    const int prune = s->p.prune && k1->n + k2->n >= JOINT_PRUNE_N &&
                      ((size_t)(k1->n + k2->n) << m) >= JOINT_PRUNE_MIN;
    s->wresume = k1->n + k2->n >= JOINT_RESUME_MIN || prune;
    s->rsm->ok = 0; /* small requests: merged for each split, as cheap */
    const uint32_t svc[2] = {s->pr[q1].callee, s->pr[q2].callee};
    if (s->wresume && (*rcp = rsmerge_prep(s, s->rsm, f1, n1, f2, n2, set, m, svc)) != PB_OK)
        return 0;
    /* rs_confirm (joint_lsconfirm.c): confirmed before with these two
     * requests: the current split scored alone, left out when the model
     * moved it by less than its margin (less rs_confirm) */
    double cf_v0, cf_mg;
    if (cf_on && joint_lscf_want(s, q1, q2, cf_fp, &cf_v0, &cf_mg)) {
        double v = split_ll(s, q1, q2, f1, n1, f2, n2, set, m, cur, e1, e2, rcp);
        if (*rcp != PB_OK)
            return 0;
        keep_split(s);
        if (joint_lscf_skip(s, v, cf_v0, cf_mg)) {
            if (!joint_lscf_test_verify)
                return 0;
            cf_verify = 1; /* the test's check: made anyway, a change counted */
        } else {
            cf_refused = 1; /* made: the model moved the split's value too far */
        }
    }
    if (!local) {
        /* every split scored first, in the order of joint_gray_mask (each
         * walk resumed from the split before); then chosen in mask order
         * as always.  With `resplit_prune`, the current split first, and a split
         * whose estimate is below the best value so far (the current
         * split's bonus included) is left out (-INFINITY): it cannot be
         * chosen, being below a value that is */
        double val[1u << JOINT_RESPLIT_MAX], bsf = -INFINITY;
        /* by branch and bound when it can (joint_bnb.c: the same choice) */
        const int bnb = joint_bnb_usable(s, q1, q2, f1, n1, f2, n2, set, m);
        s->lsmg_alt = -INFINITY;
        if (bnb && (*rcp = joint_bnb_resplit(s, q1, q2, f1, n1, f2, n2, set, m, cur, val)) !=
                       PB_OK)
            return 0;
        if (bnb)
            alt = s->lsmg_alt;
        if (prune && !bnb) {
            val[cur] = split_ll(s, q1, q2, f1, n1, f2, n2, set, m, cur, e1, e2, rcp);
            if (*rcp != PB_OK)
                return 0;
            keep_split(s);
            bsf = val[cur] + 1e-9;
        }
        for (uint32_t y = 0; !bnb && y < (1u << m); y++) {
            uint32_t mask = joint_gray_mask(y, m);
            if (prune) {
                if (mask == cur)
                    continue;
                double e = split_est(s, q1, q2, f1, n1, f2, n2, set, m, mask, e1, e2, rcp, bsf);
                if (*rcp != PB_OK)
                    return 0;
                if (joint_prunable(s, e, bsf)) {
                    val[mask] = -INFINITY;
                    if (e > alt)
                        alt = e;
                    continue;
                }
            }
            val[mask] = split_ll(s, q1, q2, f1, n1, f2, n2, set, m, mask, e1, e2, rcp);
            if (*rcp != PB_OK)
                return 0;
            keep_split(s);
            if (val[mask] > bsf)
                bsf = val[mask];
        }
        for (uint32_t mask = 0; mask < (1u << m); mask++) {
            double v = val[mask];
            if (mask != cur && v > alt)
                alt = v;
            if (mask == cur) {
                vcur = v;
                v += 1e-9; /* keep the current split on ties */
            }
            if (v > best) {
                best = v;
                bm = mask;
            }
        }
    } else {
        s->resplit_local++;
        uint32_t nx[JOINT_RESPLIT_LOCAL]; /* rs_next_link (exchanges) */
        best = split_ll(s, q1, q2, f1, n1, f2, n2, set, m, cur, e1, e2, rcp);
        vcur = best;
        keep_split(s);
        for (int sweep = 0; sweep < 4 && *rcp == PB_OK; sweep++) {
            int better = 0;
            for (uint32_t t = 0; t < m && *rcp == PB_OK; t++) {
                uint32_t mask = bm ^ (1u << t);
                /* resplit_memo: a move out of a request of the current split */
                int ms = bm == cur && s->p.resplit_memo ? (int)((cur >> t) & 1u) : -1;
                if (prune) {
                    double e = split_est_m(s, q1, q2, f1, n1, f2, n2, set, m, mask, e1, e2, rcp,
                                           ms, set[t], best + 1e-9);
                    if (e > alt)
                        alt = e;
                    if (joint_prunable(s, e, best + 1e-9) || *rcp != PB_OK)
                        continue;
                }
                double v = split_ll(s, q1, q2, f1, n1, f2, n2, set, m, mask, e1, e2, rcp);
                if (v > alt)
                    alt = v;
                if (v > best + 1e-9) {
                    best = v;
                    bm = mask;
                    better = 1;
                    keep_split(s);
                }
            }
            /* exchanges: two calls of one endpoint (the counts stay), the
             * later among the next three shared calls of that endpoint
             * (rs_next_link: along nx, the next shared call of the same
             * endpoint: the same calls in the same order as the scan) */
            if (sweep == 0)
                joint_rs_next_link(s, set, m, nx);
            for (uint32_t t = 0; t < m && *rcp == PB_OK; t++)
                for (uint32_t u = nx[t], seen = 0; u < m && seen < 3 && *rcp == PB_OK; u = nx[u]) {
                    seen++;
                    if (((bm >> t) & 1u) == ((bm >> u) & 1u))
                        continue;
                    uint32_t mask = bm ^ (1u << t) ^ (1u << u);
                    if (prune) {
                        double e = split_est(s, q1, q2, f1, n1, f2, n2, set, m, mask, e1, e2,
                                             rcp, best + 1e-9);
                        if (e > alt)
                            alt = e;
                        if (joint_prunable(s, e, best + 1e-9) || *rcp != PB_OK)
                            continue;
                    }
                    double v = split_ll(s, q1, q2, f1, n1, f2, n2, set, m, mask, e1, e2, rcp);
                    if (v > alt)
                        alt = v;
                    if (v > best + 1e-9) {
                        best = v;
                        bm = mask;
                        better = 1;
                        keep_split(s);
                    }
                }
            if (!better)
                break;
        }
        if (*rcp != PB_OK)
            return 0;
    }
    if (bm == cur) {
        /* ls_margin: the kept split's margin */
        if (mg_on && !mg_verify && *rcp == PB_OK)
            *rcp = joint_lsmg_note(s, q1, q2, fp, vcur - alt);
        if (cf_on && !cf_verify && *rcp == PB_OK) /* rs_confirm */
            *rcp = joint_lscf_note(s, q1, q2, cf_fp, vcur, vcur - alt);
        if (*rcp == PB_OK)
            *rcp = joint_rsmemo_done(s, 1); /* rs_memo: kept */
        return 0;
    }
    s->lsmg_flips += mg_verify;
    s->lscf_flips += cf_verify; /* rs_confirm's tests */
    s->lscf_caught += cf_refused;
    if (*rcp == PB_OK)
        *rcp = joint_rsmemo_done(s, 0); /* rs_memo: moved */
    for (uint32_t t = 0; t < m && *rcp == PB_OK; t++) {
        uint32_t to = (bm >> t) & 1u ? q2 : q1;
        if (s->par[set[t]] != to) {
            *rcp = joint_set_parent(s, set[t], to);
            s->moves++;
        }
    }
    s->dirty[q1] = s->dirty[q2] = s->pass_id + 1;
    joint_lsdirty_marked(s, q1, q2); /* ls_dirty_solve=2 (joint_lsdirty.c) */
    joint_uwl_opened(s, q1, q2); /* unp_wlocal (joint_unpwlocal.c) */
    return 1;
}

int joint_local_search(joint *s, int *changed)
{
    int rc = joint_lsmemo_begin(s); /* resplit_memo (joint_lsmemo.c) */
    if (rc == PB_OK)
        rc = joint_wcache_begin(s); /* resplit_wcache (joint_wcache.c) */
    if (rc == PB_OK)
        rc = joint_vcache_begin(s); /* small walks' values (joint_vcache.c) */
    if (rc != PB_OK)
        return rc;
    s->seen.n = 0;
    if (s->seen.cap)
        for (size_t t = 0; t < s->seen.cap; t++)
            s->seen.v[t] = NONE;
    for (uint32_t p = 0; p < s->npairs && rc == PB_OK; p++) {
        if (s->cand_off[p + 1] - s->cand_off[p] < 2)
            continue;
        for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1] && rc == PB_OK; j++) {
            uint32_t q1 = s->par[p], q2 = s->cand[j];
            if (q1 == NONE || q2 == q1)
                continue;
            if (s->pass_id > 0 && s->dirty[q1] < s->pass_id && s->dirty[q2] < s->pass_id)
                continue;
            if (s->pass_id == 0 && s->rl_only && joint_resolve_skip(s, q1, q2))
                continue; /* resolve_local (joint_resolve.c) */
            if (s->uwl_open && joint_uwl_skip_pair(s, q1, q2))
                continue; /* unp_wlocal: two closed requests (joint_unpwlocal.c) */
            uint64_t key = q1 < q2 ? ((uint64_t)q1 << 32) | q2 : ((uint64_t)q2 << 32) | q1;
            if (joint_hmap_get(&s->seen, key) != NONE)
                continue;
            if ((rc = joint_hmap_put(&s->seen, key, 1)) != PB_OK)
                break;
            if (joint_lsopen_skip(s, q1, q2))
                continue; /* ls_open_fresh (joint_lsdirty.c): seen, as main */
            if (joint_rpinc_skip(s, q1, q2))
                continue; /* repair_incr (joint_rpinc.c): seen, unchanged */
            s->ls_later += s->pass_id > 0;
            if (resplit(s, q1, q2, &rc)) {
                (*changed)++;
                joint_rpinc_moved(s); /* tests: one it would have left out */
            }
        }
    }
    joint_wcache_end(s);
    joint_vcache_end(s);
    if (s->pass_id == 0)
        joint_resolve_end(s);
    s->pass_id++;
    return rc;
}

/* refit_skip_same: s->rounds_fresh says the model is a refit
 * (joint_fit(s, NULL)) of the present assignment, followed only by search
 * steps that moved nothing: a greedy round or a re-split pass with no
 * change reads the model and writes no part of it (its caches are keyed
 * by fit_gen).  A refit then would find every request reading what it
 * read at the last full refit (joint_ff_unchanged, the same test joint_fit
 * makes first) and take its unchanged path: the durations' sums made again
 * by the same additions in the same order, and fit_tail's terms (order
 * rates, call counts, late counts, sets of calls) from the same inputs --
 * the numbers already held.  So it is left out but for its fit_gen (the
 * caches keyed by it are recomputed as after a refit: the same values).
 * Where the test fails (a parallel flag changed at the last refit, so the
 * next refit can differ; a pair moved), the refit runs. */
int joint_refit(joint *s)
{
    int fresh = s->rounds_fresh;
    s->rounds_fresh = 0;
    if (fresh && s->p.refit_skip_same && s->p.fit_fast && joint_ff_unchanged(s)) {
        s->fit_gen++;
        s->refits_skipped++;
        return PB_OK;
    }
    return joint_fit(s, NULL);
}

int joint_solve_rounds(joint *s, int refit, int passes)
{
    int rc = PB_OK, changed = 1;
    s->rounds_fresh = 0;
    joint_greedy_solve_start(s); /* greedy_cut (joint_greedy.c) */
    /* resolve_local=2 (joint_resolve.c): after a pass of exchanges the
     * greedy rounds are left out, the search resumes from the solution */
    int iters = s->rl_only && s->p.resolve_local >= 2 ? 0 : s->p.iters;
    for (int it = 0; rc == PB_OK && it < iters && changed; it++) {
        changed = 0;
        if (refit && s->svp_skip)
            s->svp_skip = 0; /* sv_pre: refitted before the pause (joint_svpre.c) */
        else if (refit)
            rc = joint_refit(s);
        if (rc == PB_OK && refit && s->sv_mark)
            joint_sv_first(s); /* sv_lazy (joint_sv.c) */
        if (rc == PB_OK && refit && s->sv_mark && joint_svp_pause(s))
            return PB_OK; /* sv_pre: paused before the main solve moves anything */
        if (rc == PB_OK && refit)
            joint_quant_fitted(s); /* the tie test's start (joint_quant.c) */
        if (rc == PB_OK)
            rc = joint_gdamp_round(s, it); /* greedy_damp (joint_rpdamp.c) */
        if (rc == PB_OK)
            rc = joint_match_round(s, &changed);
        /* joint_refit: a round that moved nothing after a refit */
        s->rounds_fresh = refit && !changed;
        s->rounds++;
        s->changes += (size_t)changed;
        if (rc == PB_OK && joint_gdamp_stop(s, it))
            break; /* greedy_damp=2 (joint_rpdamp.c): the rounds cycle */
    }
    s->pass_id = 0;
    s->lsmg_kind = refit ? 1 : 2; /* ls_margin (joint_lsmargin.c) */
    joint_lsdirty_solve_start(s); /* ls_dirty_solve (joint_lsdirty.c) */
    if (rc == PB_OK) /* ls_open_fresh (joint_lsdirty.c) */
        rc = joint_lsopen_begin(s, refit);
    if (rc == PB_OK) /* repair_incr (joint_rpinc.c) */
        rc = joint_rpinc_begin(s, refit);
    for (int it = 0; rc == PB_OK && it < passes; it++) {
        changed = 0;
        if (refit)
            rc = joint_refit(s);
        joint_lsdirty_pass_start(s);
        if (rc == PB_OK)
            rc = joint_local_search(s, &changed);
        s->rounds_fresh = refit && !changed;
        s->lpasses++;
        if (!changed)
            break;
    }
    joint_lsopen_end(s);
    joint_rpinc_end(s);
    if (rc == PB_OK) /* repair_incr: the state this solve ended with */
        rc = joint_rpinc_after(s, refit);
    s->lsmg_kind = 0;
    if (rc != PB_OK)
        s->rounds_fresh = 0;
    return rc;
}
