/*
 * joint_lsgreedy.c - the serial term's greedy cost (joint_lser_greedy,
 * loss_serial_greedy) of a call in a candidate request from the request's
 * calls kept per greedy round with their prefix maxima of return times
 * (speed only, the same output; docs/joint/loss.md, "The greedy cost kept
 * per round").
 *
 * joint_lser_greedy walks all of request q's calls for every candidate q
 * of every call p: the term of q's calls with p among them less the term
 * without it, O(calls of q).  Only a few terms differ: p's own overlap
 * (from the latest return of q's calls sent up to p's call time), and the
 * overlaps of q's later calls sent before p's return while no earlier call
 * of q had returned after them.  Within one greedy round the pairs' times
 * and the model are fixed and only kid lists change (joint_set_parent,
 * which greedy_round reports here), so this keeps, per round, each
 * candidate's calls (call time, return time, link) in kid-list order with
 * the latest return before each, and sums only the terms that differ:
 * O(log calls + calls sent during p).
 *
 * The sum of the differences is not the same floating-point number as the
 * difference of the two sums, so the round's choice is made with a bound:
 * each fast cost carries a bound on its distance from joint_lser_greedy's
 * bits (from the largest |log rate| and the number of terms: the classic
 * bound of a recursive sum), and where two candidates' costs are closer
 * than their bounds both are computed by joint_lser_greedy and compared as
 * before.  So the candidate chosen is the one the scan chooses, always
 * (ties to the first, as before).  Requests are kept in JOINT_GS_SLOTS
 * slots (q mod it), as greedy_sorted's; requests of fewer than
 * JOINT_LSG_MIN calls keep the scan (cheaper there); where the term is off
 * greedy_round does not come here (the scan's 0).
 */
#include "joint_int.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE
#define JOINT_LSG_MIN 8 /* requests of fewer calls: the scan */

struct lsg_ent {
    uint64_t round; /* the round it was made in (0: void) */
    uint32_t q, n, cap;
    double eb;      /* the bound on a cost's distance from the scan's bits */
    pb_ns *cs, *rr, *mx; /* [n] call time, return time (INT64_MIN: none); [n + 1]
                            the latest return before each */
    uint32_t *id, *lk;   /* [n] the pair, its link */
};

struct joint_lsg {
    uint64_t round, next; /* the round running (0: none), rounds begun */
    double lmax;          /* the largest |log rate| of this round (NaN: not usable) */
    struct lsg_ent e[JOINT_GS_SLOTS];
};

int joint_lsg_round_start(joint *s)
{
    if (!joint_lser_greedy_on(s) || !s->lser_lp)
        return PB_OK; /* the scan's early 0 (or nothing kept) */
    if (!s->lsg && !(s->lsg = calloc(1, sizeof *s->lsg)))
        return PB_ENOMEM;
    struct joint_lsg *g = s->lsg;
    g->round = ++g->next;
    double m = 0;
    for (uint32_t i = 0; i < 2 * s->nlinks; i++) {
        double a = fabs(s->lser_lp[i]);
        m = a > m ? a : m;
    }
    g->lmax = isfinite(m) ? m : NAN;
    if (isnan(g->lmax))
        g->round = 0; /* no bound: the scan */
    return PB_OK;
}

void joint_lsg_round_end(joint *s)
{
    if (s->lsg)
        s->lsg->round = 0;
}

void joint_lsg_touch(joint *s, uint32_t q)
{
    struct joint_lsg *g = s->lsg;
    if (g && q != NONE && g->e[q % JOINT_GS_SLOTS].q == q)
        g->e[q % JOINT_GS_SLOTS].round = 0;
}

/* q's entry made for this round in slot x; NULL when memory ran out (then
 * the scan decides).  Out of line: the cost's path stays small */
static __attribute__((noinline)) struct lsg_ent *make(joint *s, struct joint_lsg *g,
                                                      struct lsg_ent *x, uint32_t q)
{
    x->round = 0;
    const kvec *k = &s->kids[q];
    if (k->n + 1 > x->cap) {
        uint32_t nc = x->cap ? x->cap : 16;
        while (nc < k->n + 1)
            nc *= 2;
        free(x->cs);
        free(x->id);
        x->cs = malloc((size_t)nc * 3 * sizeof *x->cs);
        x->id = malloc((size_t)nc * 2 * sizeof *x->id);
        if (!x->cs || !x->id) {
            free(x->cs);
            free(x->id);
            x->cs = NULL;
            x->id = NULL;
            x->cap = 0;
            return NULL;
        }
        x->rr = x->cs + nc;
        x->mx = x->cs + 2 * (size_t)nc;
        x->lk = x->id + nc;
        x->cap = nc;
    }
    uint32_t n = 0;
    pb_ns m = INT64_MIN;
    for (uint32_t i = 0; i < k->n; i++) {
        const jpair *o = &s->pr[k->a[i]];
        if (o->call == NONE)
            continue; /* as the scan: no term, no return counted */
        x->cs[n] = o->cs;
        x->rr[n] = o->ret != NONE ? o->rr : INT64_MIN;
        x->mx[n] = m;
        x->id[n] = k->a[i];
        x->lk[n] = o->link;
        if (x->rr[n] > m)
            m = x->rr[n];
        n++;
    }
    x->mx[n] = m;
    x->n = n;
    /* the bound: the scan's two recursive sums of at most n + 1 terms of
     * size at most lmax (each off by at most (n + 1) u their absolute sum)
     * and their difference; here at most n + 2 terms, each a difference
     * of two, summing to at most 2 (n + 2) lmax; doubled */
    const double u = DBL_EPSILON / 2, N = (double)k->n + 2;
    x->eb = 8 * u * g->lmax * (4 * N * N + 2 * N);
    x->q = q;
    x->round = g->round;
    return x;
}

/* joint_lser_greedy(s, p, q) from q's entry, *err a bound on the distance
 * from its bits; *err < 0 when not known here (then call the scan) */
static double lsg_fast(joint *s, uint32_t p, uint32_t q, double *err)
{
    const jpair *pp = &s->pr[p];
    struct joint_lsg *g = s->lsg;
    *err = -1;
    if (!g || !g->round || s->kids[q].n < JOINT_LSG_MIN)
        return 0; /* the scan (cheap on a small request) */
    *err = 0;
    if (pp->call == NONE)
        return 0; /* the scan's own 0 */
    *err = -1;
    struct lsg_ent *x = &g->e[q % JOINT_GS_SLOTS];
    if (!(x->round == g->round && x->q == q) && !(x = make(s, g, x, q)))
        return 0;
    const pb_ns pcs = pp->cs, prr = pp->ret != NONE ? pp->rr : INT64_MIN;
    /* p goes before the first call sent after it: lo */
    uint32_t lo = 0, hi = x->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (x->cs[mid] <= pcs)
            lo = mid + 1;
        else
            hi = mid;
    }
    pb_ns mo; /* the latest return before p's place, p not counted */
    if (s->par[p] == q) {
        uint32_t i = lo;
        while (i > 0 && x->id[i - 1] != p && x->cs[i - 1] == pcs)
            i--;
        if (i == 0 || x->id[i - 1] != p)
            return 0; /* not found: the scan */
        mo = x->mx[i - 1];
        for (; i < lo; i++)
            mo = x->rr[i] > mo ? x->rr[i] : mo;
    } else {
        mo = x->mx[lo];
    }
    const double *lp = s->lser_lp;
    double d = 0; /* with less without */
    if (mo != INT64_MIN)
        d += lp[2 * pp->link + (mo > pcs)];
    pb_ns mw = prr > mo ? prr : mo;
    for (uint32_t i = lo; i < x->n && mw != mo; i++) {
        const pb_ns c = x->cs[i];
        if (mo != INT64_MIN && c >= prr)
            break; /* from here on the same terms with p and without */
        const uint32_t l = x->lk[i];
        const int ow = mw > c;
        if (mo == INT64_MIN)
            d += lp[2 * l + ow];
        else if (ow != (mo > c))
            d += lp[2 * l + ow] - lp[2 * l + (mo > c)];
        if (x->rr[i] > mw)
            mw = x->rr[i];
        if (x->rr[i] > mo)
            mo = x->rr[i];
    }
    *err = x->eb;
    return -d;
}

int joint_lsg_offer(joint *s, uint32_t p, uint32_t q, double t, joint_lsg_best *b)
{
    if (b->be == 0 && (!s->lsg || !s->lsg->round || s->kids[q].n < JOINT_LSG_MIN)) {
        /* the scan, against an exact best: the comparison as it was */
        const double v = t + joint_lser_greedy(s, p, q);
        if (!(v < b->bc))
            return 0;
        b->bc = v;
        b->bt = t;
        b->bq = q;
        return 1;
    }
    double e, d = lsg_fast(s, p, q, &e);
    if (e < 0) {
        d = joint_lser_greedy(s, p, q);
        e = 0;
    }
    double v = t + d;
    if (!isfinite(t))
        e = 0; /* t + either bits: the same infinity or NaN */
    else if (e > 0)
        e = e * (1 + 8 * DBL_EPSILON) + 4 * DBL_EPSILON * (fabs(v) + e);
    if (e > 0 || b->be > 0) {
        const double tol = 2 * (e + b->be);
        if (v < b->bc - tol)
            goto take;
        if (v > b->bc + tol)
            return 0;
        /* too close to tell: both as the scan computes them */
        if (b->be > 0) {
            b->bc = b->bt + joint_lser_greedy(s, p, b->bq);
            b->be = 0;
        }
        if (e > 0) {
            v = t + joint_lser_greedy(s, p, q);
            e = 0;
        }
    }
    if (!(v < b->bc))
        return 0;
take:
    b->bc = v;
    b->bt = t;
    b->be = e;
    b->bq = q;
    return 1;
}

void joint_lsg_free(joint *s)
{
    struct joint_lsg *g = s->lsg;
    if (!g)
        return;
    for (uint32_t i = 0; i < JOINT_GS_SLOTS; i++) {
        free(g->e[i].cs);
        free(g->e[i].id);
    }
    free(g);
    s->lsg = NULL;
}
