/*
 * joint_uncross.c - a lost message's crossing undone (docs/joint/shapes.md,
 * "Robustness", "Loss with call ids: crossed chains").
 *
 * When a call is lost, its half pair (joint_cand.c) stands at its return's
 * time, after the calls its request's competitors made meanwhile; when a
 * response is lost, its request stays open for as long as the longest one
 * of its link.  Either way the start and the greedy rounds can give one
 * request's call to a neighbour that was waiting for the same endpoint,
 * and from there every later call of the two follows its trigger into the
 * other request: the two requests' chains cross at the loss.  Undoing it
 * takes moving every call after the crossing at once, which neither the
 * greedy rounds (one call) nor the re-split's local search (one call, or an
 * exchange of two) can do.
 *
 * So, only when the trace lost messages (half pairs) and every pair was
 * made by call id, after the search: for every request a half pair
 * touches (the half pair's own request and its parent) and every request
 * competing with it for one of its calls, the two requests' calls merged
 * by send time, and every window of them -- every head, every tail, and
 * every window of at most JOINT_UNCROSS_SPAN calls that move -- with
 * three movers: the calls of both in it exchanged, only the first's moved
 * to the second, only the second's to the first (each moved call only to
 * a request that is one of its candidates).  Each move is scored by the
 * two requests' walks under the fitted model and the order term (an
 * estimate from the walks as they are first, joint_req_walk_estimate; the
 * full walks only when it can beat the best); the best move that makes
 * the two likelier by more than uncross_min nats is kept.  After a pass
 * that changed something the search runs again from there
 * (joint_solve_rounds) and the next pass looks only at pairs of requests
 * that changed, at most JOINT_UNCROSS_ROUNDS passes; at most
 * JOINT_UNCROSS_WORK moves scored per call pair of the trace (the pairs
 * left are counted, and said).  Without a half pair, or without call ids,
 * nothing runs, so those traces are untouched.
 */
#include "joint_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE

static int before(const joint *s, uint32_t a, uint32_t b)
{
    return s->pr[a].cs < s->pr[b].cs || (s->pr[a].cs == s->pr[b].cs && a < b);
}

/* scratch of one pass */
typedef struct ux {
    uint32_t *all;     /* the two requests' calls merged by call time */
    unsigned char *of; /* 0: of q1, 1: of q2 */
    uint32_t *e1, *e2; /* the two lists scored */
    uint32_t cap;
    joint_wrec rec[2]; /* the two requests' walks as they are (the estimates' reference) */
} ux;

static int ux_room(ux *u, uint32_t n)
{
    if (n <= u->cap)
        return PB_OK;
    uint32_t c = u->cap ? u->cap : 64;
    while (c < n)
        c *= 2;
    uint32_t *a = realloc(u->all, (size_t)c * sizeof *a);
    if (!a)
        return PB_ENOMEM;
    u->all = a;
    unsigned char *o = realloc(u->of, c);
    if (!o)
        return PB_ENOMEM;
    u->of = o;
    a = realloc(u->e1, (size_t)c * sizeof *a);
    if (!a)
        return PB_ENOMEM;
    u->e1 = a;
    a = realloc(u->e2, (size_t)c * sizeof *a);
    if (!a)
        return PB_ENOMEM;
    u->e2 = a;
    u->cap = c;
    return PB_OK;
}

/* The lists of a move of the calls all[0..m) of q1 (of[i] 0) and q2 (of[i]
 * 1): the calls sent in the window [c1, c2) (merged order) of the sides
 * in `who` (bit 0: q1's, bit 1: q2's) change request.  A tail is the
 * window [c, m), a head [0, c). */
static inline int ux_moved(uint32_t i, uint32_t c1, uint32_t c2, int who, unsigned char of)
{
    return i >= c1 && i < c2 && ((who >> of) & 1);
}

/* the two requests' value (walks and order term) after the move of
 * window [c1, c2) by `who`; with est, an estimate from the records of the
 * lists as they are (joint_req_walk_estimate: the same but for the
 * rounding, O(calls changed) when the walks meet again) */
static double ux_value(joint *s, ux *u, uint32_t q1, uint32_t q2, uint32_t m, uint32_t c1,
                       uint32_t c2, int who, int est, int *rc)
{
    uint32_t n1 = 0, n2 = 0;
    for (uint32_t i = 0; i < m; i++) {
        int side = u->of[i] ^ ux_moved(i, c1, c2, who, u->of[i]);
        if (side == 0)
            u->e1[n1++] = u->all[i];
        else
            u->e2[n2++] = u->all[i];
    }
    double l1 = 0, l2 = 0;
    int h1 = 0, h2 = 0;
    if (est) {
        if ((*rc = joint_req_walk_estimate(s, q1, u->e1, n1, &u->rec[0], &l1, &h1)) != PB_OK ||
            (*rc = joint_req_walk_estimate(s, q2, u->e2, n2, &u->rec[1], &l2, &h2)) != PB_OK)
            return INFINITY;
    } else if ((*rc = joint_req_walk(s, q1, u->e1, n1, 0, &l1)) != PB_OK ||
               (*rc = joint_req_walk(s, q2, u->e2, n2, 0, &l2)) != PB_OK) {
        return -INFINITY;
    }
    double val = l1 + l2;
    if (s->order_active)
        val += joint_order_ll(s, q1, u->e1, n1, q2, u->e2, n2);
    return val;
}

/* the best move so far: its value, window and mover (0: none) */
typedef struct ux_best {
    double v;
    uint32_t c1, c2;
    int who;
} ux_best;

/* score the move of window [c1, c2) by `who` (an estimate first: scored
 * only when it can beat the best) and keep it when it does.  PB_OK or
 * PB_ENOMEM */
static int ux_try(joint *s, ux *u, uint32_t q1, uint32_t q2, uint32_t m, uint32_t c1, uint32_t c2,
                  int who, ux_best *b)
{
    int rc = PB_OK;
    s->uncross_scored++;
    double v = ux_value(s, u, q1, q2, m, c1, c2, who, 1, &rc);
    /* left out when the estimate cannot beat the best (joint_prunable's
     * tolerance; its count is the re-split's) */
    if (rc != PB_OK || v + JOINT_PRUNE_TOL * (1.0 + fabs(v) + fabs(b->v)) <= b->v)
        return rc;
    v = ux_value(s, u, q1, q2, m, c1, c2, who, 0, &rc);
    if (rc == PB_OK && v > b->v) {
        b->v = v;
        b->c1 = c1;
        b->c2 = c2;
        b->who = who;
    }
    return rc;
}

/* the best move of q1's and q2's calls; applied when it gains more than
 * uncross_min nats.  *changed set then.  PB_OK or PB_ENOMEM */
static int ux_pair(joint *s, ux *u, uint32_t q1, uint32_t q2, int *changed)
{
    const kvec *k1 = &s->kids[q1], *k2 = &s->kids[q2];
    uint32_t m = k1->n + k2->n;
    if (s->uncross_scored >= (size_t)JOINT_UNCROSS_WORK * s->npairs) {
        s->uncross_capped++; /* the work cap (said on stderr) */
        return PB_OK;
    }
    if (m < 2 || ux_room(u, m) != PB_OK)
        return m < 2 ? PB_OK : PB_ENOMEM;
    uint32_t i = 0, j = 0, n = 0;
    while (i < k1->n || j < k2->n) {
        int from1 = j >= k2->n || (i < k1->n && before(s, k1->a[i], k2->a[j]));
        u->all[n] = from1 ? k1->a[i++] : k2->a[j++];
        u->of[n++] = (unsigned char)!from1;
    }
    int rc = PB_OK;
    double l1 = 0, l2 = 0;
    if ((rc = joint_req_walk_resume(s, q1, k1->a, k1->n, NULL, &u->rec[0], &l1)) != PB_OK ||
        (rc = joint_req_walk_resume(s, q2, k2->a, k2->n, NULL, &u->rec[1], &l2)) != PB_OK)
        return rc;
    double cur = l1 + l2;
    if (s->order_active)
        cur += joint_order_ll(s, q1, k1->a, k1->n, q2, k2->a, k2->n);
    double best = cur + s->p.uncross_min;
    /* windows [c1, c2): every tail (c2 = m) and head (from the first call
     * that moves), and every window of at most JOINT_UNCROSS_SPAN calls
     * that move; each of the three movers (both sides exchanged, q1's
     * calls, q2's calls) grows its window until a call that would move may
     * not (its new request is no candidate of it) */
    ux_best B = {best, 0, 0, 0};
    for (int who = 1; who <= 3 && rc == PB_OK; who++) {
        uint32_t first = 0;
        while (first < m && !ux_moved(first, first, first + 1, who, u->of[first]))
            first++;
        for (uint32_t c1 = first; c1 < m && rc == PB_OK; c1++) {
            if (!ux_moved(c1, c1, c1 + 1, who, u->of[c1]))
                continue; /* the same windows as from the next call that moves */
            uint32_t span = 0, c2;
            for (c2 = c1 + 1; c2 <= m && rc == PB_OK; c2++) {
                uint32_t a = c2 - 1; /* the call the window adds */
                if (!ux_moved(a, c1, c2, who, u->of[a]))
                    continue; /* the same lists as before */
                if (!joint_has_cand(s, u->all[a], u->of[a] ? q1 : q2))
                    break;
                if (++span > JOINT_UNCROSS_SPAN && c1 > first)
                    break;
                rc = ux_try(s, u, q1, q2, m, c1, c2, who, &B);
            }
            if (span > JOINT_UNCROSS_SPAN && c1 > first && c2 < m && rc == PB_OK) {
                /* past the span only the tail from c1 is scored */
                uint32_t t = c2 - 1;
                while (t < m && (!ux_moved(t, c1, m, who, u->of[t]) ||
                                 joint_has_cand(s, u->all[t], u->of[t] ? q1 : q2)))
                    t++;
                if (t == m)
                    rc = ux_try(s, u, q1, q2, m, c1, m, who, &B);
            }
        }
    }
    best = B.v;
    uint32_t b1 = B.c1, b2 = B.c2;
    int bw = B.who;
    if (rc != PB_OK || !bw)
        return rc;
    for (uint32_t t = 0; t < m && rc == PB_OK; t++) {
        if (!ux_moved(t, b1, b2, bw, u->of[t]))
            continue;
        rc = joint_set_parent(s, u->all[t], u->of[t] ? q1 : q2);
        s->uncross_moved++;
    }
    s->uncross_gain += best - cur;
    s->uncross_exchanges++;
    *changed = 1;
    return rc;
}

/* mark request q (when it is one) as touched */
static void touch(const joint *s, unsigned char *mark, uint32_t q)
{
    if (q != NONE && q < s->npairs)
        mark[q] = 1;
}

/* one pass over the touched requests and their competitors.  PB_OK or
 * PB_ENOMEM */
static int ux_pass(joint *s, const unsigned char *mark, const unsigned char *dirty, ux *u,
                   hmap *seen, int *changed)
{
    int rc = PB_OK;
    seen->n = 0;
    if (seen->cap)
        for (size_t t = 0; t < seen->cap; t++)
            seen->v[t] = NONE;
    for (uint32_t q = 0; q < s->npairs && rc == PB_OK; q++) {
        if (!mark[q])
            continue;
        /* competitors: the other candidates of q's calls (q's list is
         * read afresh after each exchange) */
        for (uint32_t i = 0; i < s->kids[q].n && rc == PB_OK; i++) {
            uint32_t p = s->kids[q].a[i];
            for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1] && rc == PB_OK; j++) {
                uint32_t b = s->cand[j];
                if (b == q || (dirty && !dirty[q] && !dirty[b]))
                    continue; /* (after the first pass) neither changed since */
                uint64_t key = q < b ? ((uint64_t)q << 32) | b : ((uint64_t)b << 32) | q;
                if (joint_hmap_get(seen, key) != NONE)
                    continue;
                if ((rc = joint_hmap_put(seen, key, 1)) != PB_OK)
                    break;
                rc = ux_pair(s, u, q, b, changed);
                if (i >= s->kids[q].n)
                    break;
            }
        }
    }
    return rc;
}

int joint_uncross(joint *s)
{
    /* with call ids only: without them the halves are the alignment's guess
     * and the re-pairing moves returns (measured there: mixed; docs) */
    if (!s->p.uncross || !(s->halves_call + s->halves_ret) || joint_any_free(s))
        return PB_OK;
    unsigned char *mark = calloc((size_t)s->npairs + 1, 1);
    if (!mark)
        return PB_ENOMEM;
    for (uint32_t h = 0; h < s->npairs; h++) {
        if (s->pr[h].call != NONE && s->pr[h].ret != NONE)
            continue;
        touch(s, mark, h);
        touch(s, mark, s->par[h]);
    }
    ux u = {0};
    hmap seen = {0};
    uint32_t *prev = malloc(((size_t)s->npairs + 1) * sizeof *prev);
    unsigned char *dirty = calloc((size_t)s->npairs + 1, 1);
    /* the solution before each pass's search, for uncross_check */
    uint32_t *orig = s->p.uncross_check ? malloc(((size_t)s->npairs + 1) * sizeof *orig) : NULL;
    int rc = prev && dirty && (orig || !s->p.uncross_check) ? PB_OK : PB_ENOMEM;
    for (int round = 0; round < JOINT_UNCROSS_ROUNDS && rc == PB_OK; round++) {
        int changed = 0;
        memcpy(prev, s->par, (size_t)s->npairs * sizeof *prev);
        rc = joint_fit(s, NULL);
        if (rc == PB_OK)
            rc = ux_pass(s, mark, round ? dirty : NULL, &u, &seen, &changed);
        s->uncross_rounds++;
        if (rc != PB_OK || !changed)
            break;
        /* uncross_check: the search's changes kept only when a held-out
         * likelihood prefers them (joint_uxcheck.c) */
        if (orig)
            memcpy(orig, s->par, (size_t)s->npairs * sizeof *orig);
        rc = joint_solve_rounds(s, 1, s->p.passes);
        if (rc == PB_OK && orig)
            rc = joint_uxcheck(s, orig);
        /* the requests whose calls changed in this pass or the search
         * after it: the next pass looks only at pairs with one of them */
        memset(dirty, 0, (size_t)s->npairs + 1);
        for (uint32_t p = 0; p < s->npairs; p++)
            if (s->par[p] != prev[p]) {
                if (prev[p] != NONE)
                    dirty[prev[p]] = 1;
                if (s->par[p] != NONE)
                    dirty[s->par[p]] = 1;
            }
    }
    free(orig);
    free(prev);
    free(dirty);
    free(mark);
    free(u.all);
    free(u.of);
    free(u.e1);
    free(u.e2);
    joint_wrec_free(&u.rec[0]);
    joint_wrec_free(&u.rec[1]);
    free(seen.k);
    free(seen.v);
    return rc;
}
