/*
 * joint_order.c - joint without call ids: how much a link reorders its
 * answers (docs/joint/search.md, "Order of answers, without call ids").
 *
 * A link's pairing of calls and returns (made by time, then moved by the
 * re-pairing and the exchanges of joint_repair.c) is also scored by the
 * order of its answers on the callee's clock: of two consecutive calls
 * of the link by arrival (x, then y), y is answered first (an overtake:
 * y's return sent before x's) with a probability rho learned per link,
 * and kept in order with 1 - rho when the order was in question (y
 * arrived before x was answered; otherwise the two do not overlap and
 * there is nothing to score).  First in, first out is rho = 0; a pool of
 * workers overtakes now and then.  Each pairing's term is the sum over
 * the consecutive pairs of its link of log rho (overtaken) or log (1 -
 * rho) (kept, in question): an exchange of two returns changes only the
 * terms next to the two calls, O(1).
 */
#include "joint_int.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

#define NONE JOINT_NONE

struct joint_rord {
    uint32_t *pos;  /* per pair: its place in list */
    uint32_t *list; /* per link (at bylink_off), its whole pairs by arrival on the
                       callee's clock (cr, then pair number); NONE-padded */
    uint32_t *len;  /* per link: pairs in list */
    double *linv, *lkeep; /* per link: log rho, log (1 - rho); 0 when off */
    double *n, *k;  /* per link: consecutive pairs in question and overtaken, last fit */
    unsigned char *on; /* per link: the term is scored */
    pb_ns *jit;     /* per link: order_jitter's stamp jitter (joint_ordjit.c), last fit */
    double jk;      /* order_jitter while order_cross's step scores, else 0 */
    double ties;    /* near-ties left out at the last fit */
};

static int cmp_cr(const void *x, const void *y)
{
    const insort *a = x, *b = y;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return a->p < b->p ? -1 : a->p > b->p;
}

void joint_rord_free(joint *s)
{
    joint_rord *o = s->rord;
    if (!o)
        return;
    free(o->pos);
    free(o->list);
    free(o->len);
    free(o->linv);
    free(o->lkeep);
    free(o->n);
    free(o->k);
    free(o->on);
    free(o->jit);
    free(o);
    s->rord = NULL;
}

int joint_rord_init(joint *s)
{
    uint32_t n = s->npairs, nl = s->nlinks;
    joint_rord *o = calloc(1, sizeof *o);
    if (!o)
        return PB_ENOMEM;
    s->rord = o;
    o->pos = malloc(((size_t)n + 1) * sizeof *o->pos);
    o->list = malloc(((size_t)n + 1) * sizeof *o->list);
    o->len = calloc((size_t)nl + 1, sizeof *o->len);
    o->linv = calloc((size_t)nl + 1, sizeof *o->linv);
    o->lkeep = calloc((size_t)nl + 1, sizeof *o->lkeep);
    o->n = calloc((size_t)nl + 1, sizeof *o->n);
    o->k = calloc((size_t)nl + 1, sizeof *o->k);
    o->on = calloc((size_t)nl + 1, 1);
    o->jit = calloc((size_t)nl + 1, sizeof *o->jit);
    insort *e = malloc(((size_t)n + 1) * sizeof *e);
    if (!o->pos || !o->list || !o->len || !o->linv || !o->lkeep || !o->n || !o->k || !o->on ||
        !o->jit || !e) {
        free(e);
        joint_rord_free(s);
        return PB_ENOMEM;
    }
    for (uint32_t p = 0; p < n; p++)
        o->pos[p] = NONE;
    for (uint32_t l = 0; l < nl; l++) {
        uint32_t b0 = s->bylink_off[l], m = 0;
        for (uint32_t i = b0; i < s->bylink_off[l + 1]; i++) {
            uint32_t p = s->bylink[i];
            if (s->pr[p].call != NONE && s->pr[p].ret != NONE)
                e[m++] = (insort){s->pr[p].cr, p};
        }
        if (m > 1)
            pb_sort(e, m, sizeof *e, cmp_cr);
        for (uint32_t i = 0; i < m; i++) {
            o->list[b0 + i] = e[i].p;
            o->pos[e[i].p] = b0 + i;
        }
        o->len[l] = m;
    }
    free(e);
    return PB_OK;
}

/* the term of consecutive calls x (arrived first) and y answered at rx
 * and ry */
static inline double term(const joint_rord *o, uint32_t l, const jpair *y, pb_ns rx, pb_ns ry)
{
    if (o->jk > 0) { /* order_jitter: a near-tie is worth nothing (joint_ordjit.c) */
        pb_ns d = rx < ry ? ry - rx : rx - ry;
        if ((double)d <= o->jk * (double)o->jit[l])
            return 0.0;
    }
    if (ry < rx)
        return o->linv[l];
    return y->cr < rx ? o->lkeep[l] : 0.0;
}

int joint_rord_fit(joint *s)
{
    joint_rord *o = s->rord;
    if (!o)
        return PB_OK;
    pb_ns *jb = NULL;
    o->jk = s->p.ocx_on && s->p.order_jitter > 0 ? s->p.order_jitter : 0;
    o->ties = 0;
    if (o->jk > 0 && !(jb = malloc(((size_t)s->npairs + 1) * sizeof *jb)))
        return PB_ENOMEM;
    for (uint32_t l = 0; l < s->nlinks; l++) {
        uint32_t b0 = s->bylink_off[l], m = o->len[l];
        double n = 0, k = 0;
        o->jit[l] = jb ? joint_ordjit_link(s, o->list + b0, m, jb) : 0;
        int movable = 0;
        for (uint32_t i = 0; i < m; i++)
            movable |= joint_ret_movable(s, o->list[b0 + i]);
        for (uint32_t i = 1; i < m; i++) {
            const jpair *x = &s->pr[o->list[b0 + i - 1]], *y = &s->pr[o->list[b0 + i]];
            if (joint_tieorder_crossed(s, o->list[b0 + i - 1], o->list[b0 + i]))
                continue; /* order_cross: not in question */
            if (jb && joint_ordjit_tie(s, o->jit[l], x->rs, y->rs)) {
                o->ties++;
                continue; /* order_jitter: a near-tie */
            }
            if (y->rs < x->rs) {
                n++;
                k++;
            } else if (y->cr < x->rs) {
                n++;
            }
        }
        o->n[l] = n;
        o->k[l] = k;
        o->on[l] = movable && n > 0 && joint_partial_held(s, l);
        double rho = (k + 1) / (n + 2);
        o->linv[l] = o->on[l] ? log(rho) : 0.0;
        o->lkeep[l] = o->on[l] ? log1p(-rho) : 0.0;
    }
    free(jb);
    return PB_OK;
}

double joint_rord_near_ties(const joint *s)
{
    return s->rord ? s->rord->ties : 0;
}

/* the pair's neighbours in its link's arrival order (NONE: none) */
static inline uint32_t nb_pred(const joint *s, uint32_t p)
{
    const joint_rord *o = s->rord;
    uint32_t i = o->pos[p], l = s->pr[p].link;
    if (i == NONE || i == s->bylink_off[l] || joint_tieorder_crossed(s, o->list[i - 1], p))
        return NONE; /* order_cross (joint_tieorder.c) */
    return o->list[i - 1];
}

static inline uint32_t nb_succ(const joint *s, uint32_t p)
{
    const joint_rord *o = s->rord;
    uint32_t i = o->pos[p], l = s->pr[p].link;
    if (i == NONE || i + 1 >= s->bylink_off[l] + o->len[l] ||
        joint_tieorder_crossed(s, p, o->list[i + 1]))
        return NONE; /* order_cross (joint_tieorder.c) */
    return o->list[i + 1];
}

/* sums of the terms of the consecutive pairs (x, y) touching a or b (each
 * once): *v0 with the answer times rs(p) (s->pr[p].rs when rs is NULL),
 * *v1 with those of a and b exchanged; each sum in the order of the pairs
 * (both in one pass: the pairs are found once) */
static void around2(const joint *s, uint32_t a, uint32_t b, const pb_ns *rs, double *v0,
                    double *v1)
{
    const joint_rord *o = s->rord;
    uint32_t l = s->pr[a].link;
    uint32_t xs[4], ys[4], m = 0;
    uint32_t c[2] = {a, b};
    for (int t = 0; t < 2; t++) {
        uint32_t p = c[t], pr_ = nb_pred(s, p), su = nb_succ(s, p);
        if (pr_ != NONE) {
            xs[m] = pr_;
            ys[m++] = p;
        }
        if (su != NONE) {
            xs[m] = p;
            ys[m++] = su;
        }
    }
    pb_ns ra = rs ? rs[a] : s->pr[a].rs, rb = rs ? rs[b] : s->pr[b].rs;
    double w0 = 0, w1 = 0;
    for (uint32_t i = 0; i < m; i++) {
        int dup = 0;
        for (uint32_t j = 0; j < i; j++)
            dup |= xs[j] == xs[i] && ys[j] == ys[i];
        if (dup)
            continue;
        uint32_t x = xs[i], y = ys[i];
        pb_ns rx = rs ? rs[x] : s->pr[x].rs, ry = rs ? rs[y] : s->pr[y].rs;
        w0 += term(o, l, &s->pr[y], rx, ry);
        rx = x == a ? rb : x == b ? ra : rx;
        ry = y == a ? rb : y == b ? ra : ry;
        w1 += term(o, l, &s->pr[y], rx, ry);
    }
    *v0 = w0;
    *v1 = w1;
}

double joint_rord_swap_delta(const joint *s, uint32_t a, uint32_t b, const pb_ns *rs)
{
    const joint_rord *o = s->rord;
    if (!o || a == b || a == NONE || b == NONE || s->pr[a].link != s->pr[b].link ||
        !o->on[s->pr[a].link] || o->pos[a] == NONE || o->pos[b] == NONE)
        return 0;
    double v0, v1;
    around2(s, a, b, rs, &v0, &v1);
    return v1 - v0;
}

int joint_rord_link_min(const joint *s, uint32_t a, uint32_t b, double *lo)
{
    const joint_rord *o = s->rord;
    if (!o || a == b || a == NONE || b == NONE || s->pr[a].link != s->pr[b].link ||
        !o->on[s->pr[a].link] || o->pos[a] == NONE || o->pos[b] == NONE)
        return 0;
    uint32_t l = s->pr[a].link;
    *lo = o->linv[l] < o->lkeep[l] ? o->linv[l] : o->lkeep[l];
    return 1;
}

double joint_rord_pick_max(const joint *s, uint32_t l)
{
    const joint_rord *o = s->rord;
    if (!o || !o->on[l])
        return 0;
    double m = 0;
    if (o->linv[l] > m)
        m = o->linv[l];
    if (o->lkeep[l] > m)
        m = o->lkeep[l];
    return m + m;
}

double joint_rord_pick(const joint *s, uint32_t c, pb_ns t, const unsigned char *answered)
{
    const joint_rord *o = s->rord;
    uint32_t l = s->pr[c].link;
    if (!o || !o->on[l] || o->pos[c] == NONE)
        return 0;
    double v = 0;
    uint32_t x = nb_pred(s, c), y = nb_succ(s, c);
    if (x != NONE) {
        if (!joint_ret_movable(s, x)) /* its answer is fixed: scored here */
            v += term(o, l, &s->pr[c], s->pr[x].rs, t);
        else if (!answered[x])
            v += o->linv[l]; /* c overtakes x */
    }
    if (y != NONE) {
        if (!joint_ret_movable(s, y))
            v += term(o, l, &s->pr[y], t, s->pr[y].rs);
        else if (!answered[y])
            v += s->pr[y].cr < t ? o->lkeep[l] : 0.0; /* y will be answered later */
    }
    return v;
}

/* joint_rpick.c's class bound: call c's neighbours in its link's arrival
 * order (NONE: none) and the link's log rho, log (1 - rho); 0 (and
 * nothing set) when joint_rord_pick is 0 for c whatever t and answered */
int joint_rord_pick_parts(const joint *s, uint32_t c, uint32_t *pred, uint32_t *succ,
                          double *linv, double *lkeep)
{
    const joint_rord *o = s->rord;
    uint32_t l = s->pr[c].link;
    if (!o || !o->on[l] || o->pos[c] == NONE)
        return 0;
    *pred = nb_pred(s, c);
    *succ = nb_succ(s, c);
    *linv = o->linv[l];
    *lkeep = o->lkeep[l];
    return 1;
}

double joint_rord_ll(const joint *s)
{
    const joint_rord *o = s->rord;
    if (!o)
        return 0;
    double v = 0;
    for (uint32_t l = 0; l < s->nlinks; l++) {
        if (!o->on[l])
            continue;
        uint32_t b0 = s->bylink_off[l];
        for (uint32_t i = 1; i < o->len[l]; i++) {
            const jpair *x = &s->pr[o->list[b0 + i - 1]], *y = &s->pr[o->list[b0 + i]];
            if (!joint_tieorder_crossed(s, o->list[b0 + i - 1], o->list[b0 + i]))
                v += term(o, l, y, x->rs, y->rs); /* order_cross (joint_tieorder.c) */
        }
    }
    return v;
}

void joint_rord_stats(const joint *s, uint32_t l, double *n, double *k, int *on)
{
    const joint_rord *o = s->rord;
    if (s->pord_stat) {
        *n = s->pord_stat[3 * (size_t)l];
        *k = s->pord_stat[3 * (size_t)l + 1];
        *on = s->pord_stat[3 * (size_t)l + 2] > 0;
        return;
    }
    *n = o ? o->n[l] : 0;
    *k = o ? o->k[l] : 0;
    *on = o ? o->on[l] : 0;
}

int joint_any_free(const joint *s)
{
    for (uint32_t p = 0; p < s->npairs; p++)
        if (s->free_ret[p])
            return 1;
    return 0;
}

/* a Bernoulli's log-likelihood of k in n with its rate (k + 1) / (n + 2) */
static double bern(double n, double k)
{
    if (n <= 0)
        return 0;
    double r = (k + 1) / (n + 2);
    return k * log(r) + (n - k) * log1p(-r);
}

int joint_order_score(joint *s, double *ll)
{
    return joint_order_score_at(s, joint_loglik(s), ll);
}

/* order_jitter while order_cross's step scores: the first calls' term
 * counted with near-ties left out (joint_ordjit.c); 1 when done */
static int first_jit(joint *s, double *v)
{
    joint_rord *o = s->rord;
    if (!o || o->jk <= 0)
        return 0;
    double *n = malloc(((size_t)s->nlinks + 1) * 2 * sizeof *n);
    if (!n)
        return 0; /* the plain term (no memory for the recount) */
    double ties = 0;
    if (joint_ordjit_first(s, o->jit, o->jk, n, n + s->nlinks, &ties) != PB_OK) {
        free(n);
        return 0;
    }
    for (uint32_t l = 0; l < s->nlinks; l++)
        *v += bern(n[l], n[s->nlinks + l]);
    o->ties += ties;
    free(n);
    return 1;
}

int joint_order_score_at(joint *s, double v, double *ll)
{
    double v0 = v;
    for (uint32_t l = 0; l < s->nlinks; l++)
        v += bern(s->ord_n[l], s->ord_k[l]);
    /* the answers: a free search has no state for them; make it, score,
     * and drop it (its confidence and output stay those of the search) */
    int temp = !s->rord;
    if (temp && joint_rord_init(s) != PB_OK)
        return PB_ENOMEM;
    joint_rord_fit(s);
    free(s->pord_stat);
    s->pord_stat = malloc(((size_t)s->nlinks + 1) * 3 * sizeof *s->pord_stat);
    if (!s->pord_stat) {
        if (temp)
            joint_rord_free(s);
        return PB_ENOMEM;
    }
    if (first_jit(s, &v0)) /* order_jitter (joint_ordjit.c) */
        v = v0;
    const joint_rord *o = s->rord;
    for (uint32_t l = 0; l < s->nlinks; l++) {
        s->pord_stat[3 * (size_t)l] = o->n[l];
        s->pord_stat[3 * (size_t)l + 1] = o->k[l];
        s->pord_stat[3 * (size_t)l + 2] = o->on[l];
        if (o->on[l])
            v += bern(o->n[l], o->k[l]);
    }
    if (temp)
        joint_rord_free(s);
    *ll = v;
    return PB_OK;
}
