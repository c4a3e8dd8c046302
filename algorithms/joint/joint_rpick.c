/*
 * joint_rpick.c - the re-pairing's greedy pick without scoring every open
 * call (`repair_pick`, default 1; speed only, the very same pick;
 * docs/joint/speed.md, "Speed, twenty-first wave (h168)").
 *
 * repair_pairs (joint_repair.c) gives the returns of a link to its calls
 * in the order the returns were sent: to the first open call (in call
 * order) whose latest possible end (s->qend) is this return; else to the
 * open call with the least response cost (joint_response_cost, less the
 * order of answers' term with pair_order), the first in call order among
 * equals; else, when no cost is finite, to the first open call.  Scoring
 * every open call for every return is quadratic when many calls are open
 * at once: one very deep request, where every call is sent before any
 * return (N = 8,000 spans: ~1,000 open calls a link).
 *
 * Both tests are thresholds in the return's time t, and t only grows
 * along the loop; nothing the loop reads changes within a link (s->pr,
 * s->qend and the kids are written after it):
 *  - a call is at its last chance from the first return with t >= qend:
 *    from then on until taken.  A heap by qend brings calls to a heap by
 *    call order, whose least untaken call is the first pick.
 *  - a call's cost is INFINITY while t + slack < its arrival (cr) or one
 *    of its calls returns after t + slack (joint_response_cost's first two
 *    tests on the call's side), i.e. while t + slack < E, E the latest of
 *    cr and its calls' returns.  An infinite cost is never the least
 *    (v < best fails for INFINITY and NaN alike), so only calls with
 *    t + slack >= E can be picked by cost; a heap by E brings them to a
 *    list kept in call order, scored in that order (the same values in the
 *    same order as the full scan restricted to them: the same pick).
 * The fallback is the first untaken open call (a pointer).  In the deep
 * request only the calls whose own calls have all returned are scored:
 * O(log n) a return instead of O(open calls).  Where every open call can
 * take every return the list is all of them and the cost is the scan's.
 */
#include "joint_int.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE

typedef struct hent {
    pb_ns key;
    uint32_t i; /* position in C */
} hent;

static int hless(const hent *a, const hent *b)
{
    return a->key < b->key || (a->key == b->key && a->i < b->i);
}

static void hpush(hent *h, uint32_t *n, hent e)
{
    uint32_t j = (*n)++;
    while (j > 0) {
        uint32_t p = (j - 1) / 2;
        if (!hless(&e, &h[p]))
            break;
        h[j] = h[p];
        j = p;
    }
    h[j] = e;
}

static hent hpop(hent *h, uint32_t *n)
{
    hent top = h[0], e = h[--*n];
    uint32_t j = 0, m = *n;
    for (;;) {
        uint32_t c = 2 * j + 1;
        if (c >= m)
            break;
        if (c + 1 < m && hless(&h[c + 1], &h[c]))
            c++;
        if (!hless(&h[c], &e))
            break;
        h[j] = h[c];
        j = c;
    }
    if (m)
        h[j] = e;
    return top;
}

/* first position in the sorted a[0..n) holding x or more */
static uint32_t lower(const uint32_t *a, uint32_t n, uint32_t x)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t m = lo + (hi - lo) / 2;
        if (a[m] < x)
            lo = m + 1;
        else
            hi = m;
    }
    return lo;
}

int joint_rpick_greedy(joint *s, const insort *C, uint32_t nc, const pb_ns *rsv,
                       const pb_ns *rrv, uint32_t *to, unsigned char *ans)
{
    const pb_ns w = s->p.slack;
    hent *hq = malloc(((size_t)nc + 1) * sizeof *hq);  /* open, by qend */
    hent *hd = malloc(((size_t)nc + 1) * sizeof *hd);  /* at their last chance */
    hent *he = malloc(((size_t)nc + 1) * sizeof *he);  /* open, by E */
    uint32_t *el = malloc(((size_t)nc + 1) * sizeof *el); /* scored, call order */
    pb_ns *E = malloc(((size_t)nc + 1) * sizeof *E);
    unsigned char *taken = calloc((size_t)nc + 1, 1);
    int rc = PB_OK;
    if (!hq || !hd || !he || !el || !E || !taken) {
        rc = PB_ENOMEM;
        goto done;
    }
    for (uint32_t i = 0; i < nc; i++) {
        uint32_t c = C[i].p;
        pb_ns e = s->pr[c].cr;
        const kvec *k = &s->kids[c];
        for (uint32_t j = 0; j < k->n; j++) {
            const jpair *x = &s->pr[k->a[j]];
            if (x->ret != NONE && x->rr > e)
                e = x->rr;
        }
        E[i] = e;
    }
    uint32_t nq = 0, nd = 0, ne = 0, nel = 0, ci = 0, nopen = 0, first = 0;
    for (uint32_t k = 0; k < nc; k++) {
        pb_ns t = rsv[k];
        while (ci < nc && (C[ci].t <= t || nopen == 0)) {
            /* opened (the second test: a return stamped before its call) */
            hpush(hq, &nq, (hent){s->qend[C[ci].p], ci});
            hpush(he, &ne, (hent){E[ci], ci});
            ci++;
            nopen++;
        }
        while (nq && hq[0].key <= t) {
            hent x = hpop(hq, &nq);
            hpush(hd, &nd, (hent){0, x.i});
        }
        while (ne && he[0].key <= t + w) {
            hent x = hpop(he, &ne);
            if (taken[x.i])
                continue;
            uint32_t at = lower(el, nel, x.i);
            memmove(el + at + 1, el + at, (size_t)(nel - at) * sizeof *el);
            el[at] = x.i;
            nel++;
        }
        while (nd && taken[hd[0].i])
            (void)hpop(hd, &nd);
        uint32_t pick = NONE;
        if (nd) {
            pick = hd[0].i; /* its last chance */
        } else {
            double best = INFINITY;
            for (uint32_t j = 0; j < nel; j++) {
                uint32_t c = C[el[j]].p;
                double v = joint_response_cost(s, c, t, rrv[k]);
                if (ans)
                    v -= joint_rord_pick(s, c, t, ans);
                if (v < best) {
                    best = v;
                    pick = el[j];
                }
            }
        }
        if (pick == NONE) {
            while (taken[first])
                first++;
            pick = first;
        }
        uint32_t c = C[pick].p;
        to[c] = k;
        if (ans)
            ans[c] = 1;
        taken[pick] = 1;
        nopen--;
        uint32_t at = lower(el, nel, pick);
        if (at < nel && el[at] == pick) {
            memmove(el + at, el + at + 1, (size_t)(nel - at - 1) * sizeof *el);
            nel--;
        }
    }
done:
    free(hq);
    free(hd);
    free(he);
    free(el);
    free(E);
    free(taken);
    return rc;
}
