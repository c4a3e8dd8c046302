/*
 * joint_xwalk.c - joint without call ids: the top of an exchange of
 * returns walked from a record (speed only, the very same numbers;
 * docs/joint/speed.md, "Speed, eighteenth wave").
 *
 * An exchange of returns between two calls a, b of one link whose
 * parents are one request q (try_exchange, joint_repair.c: a request
 * with thousands of calls of one link, a fan-out) scores q as it would
 * stand with a's and b's returns exchanged: a fresh walk of q was O(n)
 * per exchange tried, O(n^2) a pass (n = 20,000 calls: 22.5 s).  Here q's
 * walk in its current state is recorded once with every step's term
 * (joint_req_walk_resume with want_term, as conf_sync records), and the
 * exchange's walk is joint_req_walk_synced_at from it: resumed at the
 * first step whose inputs the exchange can touch (a step whose latest
 * output time is before both returns has taken neither), stopped at the
 * first step after the later of a and b where the record's remaining
 * steps are provably the same terms (joint_req_walk_estimate's
 * argument: the same outputs, every trigger later than both returns),
 * the record's remaining terms then added one by one in its order (the
 * same additions as the fresh walk: the same sum, bit for bit), and the
 * counts and durations (walk_rest) with the durations' record.  What is
 * left linear per exchange is the list of returns copied, the counts
 * loop and the floating-point additions of the terms (a few instructions
 * a call instead of a walk step's ~270).
 *
 * The record stays right while q is untouched: it lives within one pass
 * of exchanges (joint_swap_pass with swap_memo, joint_pair_shares: the
 * model is fixed there and nothing but an applied exchange changes a
 * request; joint_xfloor.c's swap_memo rests on the same) and is dropped
 * when an exchange applied touches q and at the pass's end.
 */
#include "joint_int.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE

/* requests with fewer calls are walked fresh (the record's set-up costs
 * more than it saves); a test hook, not an option: results are the same */
uint32_t joint_xwalk_min = 64;

struct joint_xwalk {
    joint_wrec rec;  /* q's walk in its current state, with the terms */
    uint32_t *r, rcap; /* a copy of rec.r each exchange's walk sorts in
                          place and puts back (not copied for each) */
    uint32_t q;      /* NONE: no record */
    uint32_t nout;   /* q's calls outside q's interval (level_value's test) */
    joint_xtail *tail; /* swap_tail_tree: rec's trees (joint_xtail.c) */
    size_t used;     /* exchanges scored from a record */
};

void joint_xwalk_drop(joint *s, const uint32_t *q, uint32_t n)
{
    struct joint_xwalk *x = s->xwalk;
    if (!x || x->q == NONE)
        return;
    if (!q) {
        x->q = NONE;
        return;
    }
    for (uint32_t i = 0; i < n; i++)
        if (q[i] == x->q)
            x->q = NONE;
}

void joint_xwalk_free(joint *s)
{
    joint_xm_free(s); /* swap_level_memo's tables (joint_xm.c) */
    if (!s->xwalk)
        return;
    joint_wrec_free(&s->xwalk->rec);
    free(s->xwalk->r);
    joint_xtail_free(s->xwalk->tail);
    free(s->xwalk);
    s->xwalk = NULL;
}

size_t joint_xwalk_used(const joint *s)
{
    return s->xwalk ? s->xwalk->used : 0;
}

joint_xtail *joint_xwalk_tail(joint *s)
{
    return s->xwalk ? s->xwalk->tail : NULL;
}

size_t joint_xwalk_resumed(const joint *s)
{
    return s->xresumed;
}

/* a call's return inside request q's interval (joint_repair.c's inside) */
static inline int inside_rr(const joint *s, uint32_t k, pb_ns rr, uint32_t q)
{
    return s->pr[k].cs + s->p.slack >= s->pr[q].cr && rr <= s->pr[q].rs + s->p.slack;
}

/* the position of call p in the list k[0..n) (a request's calls, sorted
 * by (time sent, pair): joint.c kv_insert), or NONE */
static uint32_t kid_pos(const joint *s, const uint32_t *k, uint32_t n, uint32_t p)
{
    const pb_ns t = s->pr[p].cs;
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t m = lo + (hi - lo) / 2;
        pb_ns tm = s->pr[k[m]].cs;
        if (tm < t || (tm == t && k[m] < p))
            lo = m + 1;
        else
            hi = m;
    }
    if (lo < n && k[lo] == p)
        return lo;
    for (uint32_t i = 0; i < n; i++) /* not in that order: found by a scan */
        if (k[i] == p)
            return i;
    return NONE;
}

int joint_xwalk_top(joint *s, uint32_t q, uint32_t a, uint32_t b, double *ll, int *done)
{
    *done = 0;
    *ll = 0;
    if (q == NONE || a == b || s->par[a] != q || s->par[b] != q ||
        s->kids[q].n < joint_xwalk_min)
        return PB_OK;
    if (!s->xwalk) {
        s->xwalk = calloc(1, sizeof *s->xwalk);
        if (!s->xwalk)
            return PB_ENOMEM;
        s->xwalk->q = NONE;
        s->xwalk->rec.want_term = 1;
        s->xwalk->tail = joint_xtail_new();
        if (!s->xwalk->tail) {
            free(s->xwalk);
            s->xwalk = NULL;
            return PB_ENOMEM;
        }
    }
    struct joint_xwalk *x = s->xwalk;
    const uint32_t *k = s->kids[q].a, n = s->kids[q].n;
    int rc;
    if (x->q != q) {
        /* record q as it stands: a's and b's returns back for the walk */
        joint_swap_ret(s, a, b);
        double v = 0;
        x->rec.valid = 0;
        rc = joint_req_walk_resume(s, q, k, n, NULL, &x->rec, &v);
        x->nout = 0;
        for (uint32_t i = 0; i < n; i++)
            x->nout += !inside_rr(s, k[i], s->pr[k[i]].rr, q);
        joint_swap_ret(s, a, b);
        if (rc == PB_OK && x->rec.nr > x->rcap) {
            uint32_t *nb = realloc(x->r, (size_t)x->rec.nr * sizeof *nb);
            if (!nb)
                rc = PB_ENOMEM;
            else
                x->r = nb, x->rcap = x->rec.nr;
        }
        if (rc != PB_OK)
            return rc;
        if (x->rec.nr)
            memcpy(x->r, x->rec.r, (size_t)x->rec.nr * sizeof *x->r);
        joint_xtail_reset(x->tail); /* a new record: its own trees */
        x->q = q;
    }
    /* level_value's test (every call inside q): only a's and b's changed */
    uint32_t out = x->nout - !inside_rr(s, a, s->pr[b].rr, q) - !inside_rr(s, b, s->pr[a].rr, q) +
                   !inside_rr(s, a, s->pr[a].rr, q) + !inside_rr(s, b, s->pr[b].rr, q);
    *done = 1;
    x->used++;
    if (out) {
        *ll = -INFINITY;
        return PB_OK;
    }
    /* the middles: the calls from the first of a, b to the last (the same
     * calls in the record and now; only a's and b's returns differ) */
    uint32_t ia = kid_pos(s, k, n, a), ib = kid_pos(s, k, n, b);
    if (ia == NONE || ib == NONE) { /* cannot happen: both are q's calls */
        *done = 0;
        x->used--;
        return PB_OK;
    }
    uint32_t j0 = ia < ib ? ia : ib, cs = n - 1 - (ia < ib ? ib : ia);
    int hit = 0;
    return joint_req_walk_synced_at(s, q, k, n, &x->rec, j0, cs, 1, x->r, ll, &hit);
}
