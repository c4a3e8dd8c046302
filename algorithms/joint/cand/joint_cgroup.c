/*
 * joint_cgroup.c - joint: the capped candidate parents of calls that share
 * their candidate list, found once per group and cut per call in
 * O(k log k) (`cand_group`, default 1; speed only, the same candidates in
 * the same order; docs/joint/speed.md, "Speed, twentieth wave (h163)").
 *
 * Without call ids, N requests whose calls share one tick (h162: N
 * two-hop requests in one 1 ms tick) give N calls of one link with the
 * same send and the same receipt of the return; each has every one of the
 * N requests open at its caller as a candidate, and max_candidates cuts
 * each list to k (joint_candends.c).  The lists were built in full for
 * every call and then cut: quadratic in N, though only k of each survive.
 *
 * joint_find_candidates walks a caller's calls by send time; while it
 * uses the max-tree (joint_csweep.c) the tree changes only when a request
 * begins, i.e. between calls of different send times.  Calls of one
 * caller in a row with the same send and the same return receipt, none
 * of them a candidate of itself, therefore have the same list c; the cut
 * differs between them only by the call's rank (the window that spreads
 * ties).  The group keeps c once, with c's positions sorted by (end,
 * position), and cuts it for each rank as joint_cand_ends does on the
 * full list:
 *  (1) the latest-started half: the tie group at its boundary found once;
 *  (2) the earliest-ending of the others: walk the end order skipping the
 *      at most k/2 chosen in (1): the need-th has end te; every one before
 *      te's run is kept; te's run (positions in order) less the chosen
 *      gives the window, its j-th member found by stepping over the
 *      chosen ones (at most k/2) in end order.
 * The group's list is sorted once (O(n log n)) from its second call on, so
 * a call that shares nothing costs one copy of its list more than before.
 */
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

/* the group's list for sorting by (end, position) */
typedef struct epos {
    pb_ns e;
    uint32_t pos;
} epos;

static int cmp_epos(const void *x, const void *y)
{
    const epos *a = x, *b = y;
    if (a->e != b->e)
        return a->e < b->e ? -1 : 1;
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

void joint_cgroup_reset(joint_cgroup *g)
{
    g->valid = 0;
    g->prepped = 0;
    g->n = 0;
}

void joint_cgroup_free(joint_cgroup *g)
{
    free(g->list);
    free(g->ord);
    free(g->inv);
    free(g->oe);
    memset(g, 0, sizeof *g);
}

int joint_cgroup_keep(joint_cgroup *g, const uint32_t *c, size_t got, uint32_t a, pb_ns cs,
                      pb_ns rr, uint64_t gen, size_t kmax)
{
    joint_cgroup_reset(g);
    if (got > g->cap) {
        uint32_t *m = realloc(g->list, got * sizeof *m);
        if (!m)
            return PB_ENOMEM;
        g->list = m;
        g->cap = got;
        g->ocap = 0; /* the sorted arrays are grown on demand */
    }
    memcpy(g->list, c, got * sizeof *c);
    g->n = got;
    g->a = a;
    g->cs = cs;
    g->rr = rr;
    g->gen = gen;
    g->kmax = kmax;
    g->valid = 1;
    return PB_OK;
}

int joint_cgroup_hit(const joint_cgroup *g, uint32_t a, pb_ns cs, pb_ns rr, uint64_t gen,
                     size_t kmax)
{
    return g->valid && g->a == a && g->cs == cs && g->rr == rr && g->gen == gen &&
           g->kmax == kmax;
}

/* once per group: the end order and (1)'s tie group */
static int prep(const joint *s, joint_cgroup *g)
{
    size_t n = g->n, k = g->kmax;
    if (g->ocap < n) {
        uint32_t *o = realloc(g->ord, n * sizeof *o), *iv = NULL;
        pb_ns *oe = NULL;
        if (o)
            g->ord = o;
        iv = o ? realloc(g->inv, n * sizeof *iv) : NULL;
        if (iv)
            g->inv = iv;
        oe = iv ? realloc(g->oe, n * sizeof *oe) : NULL;
        if (!oe)
            return PB_ENOMEM;
        g->oe = oe;
        g->ocap = n;
    }
    epos *t = malloc(n * sizeof *t);
    if (!t)
        return PB_ENOMEM;
    for (size_t i = 0; i < n; i++)
        t[i] = (epos){req_end(s, g->list[i]), (uint32_t)i};
    pb_sort(t, n, sizeof *t, cmp_epos);
    for (size_t i = 0; i < n; i++) {
        g->ord[i] = t[i].pos;
        g->oe[i] = t[i].e;
        g->inv[t[i].pos] = (uint32_t)i;
    }
    free(t);
    size_t half = k - k / 2;
    pb_ns tk = req_start(s, g->list[n - half]);
    size_t lo = n - half, hi = n - half + 1;
    while (lo > 0 && req_start(s, g->list[lo - 1]) == tk)
        lo--;
    while (hi < n && req_start(s, g->list[hi]) == tk)
        hi++;
    g->lo = lo;
    g->hi = hi;
    g->prepped = 1;
    return PB_OK;
}

/* the first index of ord[from..n) whose end is above e (up) or not below
 * it (ends ascend) */
static size_t bound(const joint_cgroup *g, size_t from, pb_ns e, int up)
{
    size_t lo = from, hi = g->n;
    while (lo < hi) {
        size_t m = lo + (hi - lo) / 2;
        if (g->oe[m] < e || (up && g->oe[m] == e))
            lo = m + 1;
        else
            hi = m;
    }
    return lo;
}

int joint_cgroup_cut(const joint *s, joint_cgroup *g, size_t rot, uint32_t *out)
{
    if (!g->prepped) {
        int rc = prep(s, g);
        if (rc != PB_OK)
            return rc;
    }
    size_t n = g->n, k = g->kmax, half = k - k / 2;
    size_t lo = g->lo, hi = g->hi, g1 = hi - lo, need1 = half - (n - hi);
    size_t r1 = rot % g1;
    /* chosen in (1): positions lo + (rot + j) % g1 (j < need1) and [hi, n) */
#define CHOSEN(pos)                                                                                \
    ((pos) >= hi || ((pos) >= lo && ((pos) - lo + g1 - r1) % g1 < need1))
    uint32_t *pick = malloc((k + half) * sizeof *pick);
    if (!pick)
        return PB_ENOMEM;
    uint32_t *chi = pick + k; /* (1)'s chosen in te's run, by end index */
    size_t np = 0;
    for (size_t j = 0; j < need1; j++)
        pick[np++] = (uint32_t)(lo + (rot + j) % g1);
    for (size_t j = hi; j < n; j++)
        pick[np++] = (uint32_t)j;
    if (np < k) {
        size_t need = k - np, seen = 0, i = 0;
        for (; i < n; i++)
            if (!CHOSEN(g->ord[i]) && ++seen == need)
                break;
        pb_ns te = g->oe[i];
        size_t ra = bound(g, 0, te, 0), rb = bound(g, ra, te, 1);
        for (size_t j = 0; j < ra; j++)
            if (!CHOSEN(g->ord[j]))
                pick[np++] = g->ord[j];
        size_t nch = 0;
        for (size_t j = 0; j < np && j < half; j++) { /* pick[0..half): (1)'s */
            uint32_t x = g->inv[pick[j]];
            if (x >= ra && x < rb)
                chi[nch++] = x;
        }
        pb_sort(chi, nch, sizeof *chi, cmp_u32);
        size_t g2 = (rb - ra) - nch, left = k - np;
        for (size_t j = 0; j < left; j++) {
            size_t idx = ra + (rot + j) % g2; /* the ((rot+j)%g2)-th not chosen */
            for (size_t c = 0; c < nch; c++)
                if (chi[c] <= idx)
                    idx++;
            pick[np++] = g->ord[idx];
        }
    }
#undef CHOSEN
    pb_sort(pick, np, sizeof *pick, cmp_u32);
    for (size_t i = 0; i < np; i++)
        out[i] = g->list[pick[i]];
    free(pick);
    return PB_OK;
}
