/*
 * joint_lchance.c - joint: a link's share of calls that outlive their
 * request, corrected for the requests that enclose them by chance
 * (late_chance; docs/joint/shapes.md "Unseen execution models"; issue 28).
 *
 * Why.  late_split widens the candidates of a late service's calls only
 * for the calls no request encloses (orphans), unless at least half of a
 * link's calls are orphans (late_lshare >= 1/2: then every call of the
 * link).  Under load a call that outlives its own request is usually
 * enclosed by another request of the service that overlaps it, so it is
 * no orphan, its own request is no candidate, and the search gives it to
 * the other one: two requests wrong.  maketrace
 * experiments/joint_models_hedge.conf (a fire-and-forget `log` sent
 * 0.3 ms before the frontend answers, returning ~0.1 ms after; the
 * frontend busy 87 % of the time): every `log` call outlives its request,
 * 29 % of them are orphans, joint with call ids 14.8 % exact (late_split=0
 * 77.8 %).
 *
 * The rule (late_chance=2, the default).  Each orphan is judged by its
 * own enclosure: were a call of its length placed at random on the
 * trace, some request of the sender would enclose it with chance c (its
 * [send, return] length at JOINT_LCH_OPOS positions of a low-discrepancy
 * sequence: deterministic; enclosed when a request of the sender started
 * at or before it and ended at or after its end).  A call that outlives
 * its request becomes an orphan with chance 1 - c, so each orphan stands
 * for 1 / (1 - c) late calls (a Horvitz-Thompson estimate; at coarse
 * stamps an orphan counts by its tie weight, joint_latetie.c) and the
 * link's late share is their sum over its calls.  It replaces late_lshare
 * where larger (links with at least JOINT_LCH_MIN orphans; c capped at
 * JOINT_LCH_CMAX, so the share is a lower bound where the sender is
 * almost always busy).  On `hedge` s1 the `log` orphans' own c is 0.84,
 * share 0.17 -> 1: widened whole.
 *
 * Why not the link's calls' c (late_chance=1, the rule first built):
 * experiments/joint_apps_retry.conf x2, the frontend busy 99.8 %: its
 * orphans are timed-out `pay` attempts, long calls that a request
 * rarely encloses (own c 0.21), while the link's calls are mostly short
 * ones that one nearly always does (c 0.86); dividing the orphan share
 * by 1 - 0.86 took fe>pay from 0.08 to 0.59 and widened all of it (6-15
 * points lost with call ids).  The own-c estimate is 0.10 there.
 * Nothing changes where no service passes the late-call test.
 */
#include "joint_int.h"
#include "pb_sort.h"
#include <stdlib.h>

#define NONE JOINT_NONE
#define JOINT_LCH_POS 16     /* positions per call (late_chance=1) */
#define JOINT_LCH_OPOS 64    /* positions per orphan (late_chance=2) */
#define JOINT_LCH_MIN 5      /* orphans a link needs for its share to be corrected */
#define JOINT_LCH_CMAX 0.95  /* chance of enclosure beyond which nothing is corrected (1),
                                the cap of an orphan's own chance (2) */

typedef struct {
    pb_ns st, en;
} lch_iv;

static int cmp_iv(const void *x, const void *y)
{
    const lch_iv *a = x, *b = y;
    return a->st < b->st ? -1 : a->st > b->st ? 1 : a->en < b->en ? -1 : a->en > b->en;
}

/* the j-th of a call's positions: the golden-ratio sequence over the
 * time line [t0, t0 + span], started at its send cs */
static pb_ns lch_pos(pb_ns t0, double span, pb_ns cs, int j)
{
    double u = (double)(cs - t0) / span + 0.6180339887498949 * j;
    u -= (double)(long long)u;
    return t0 + (pb_ns)(u * span);
}

/* is [t0, t1] enclosed by one of the n intervals iv (sorted by start,
 * mx[i] the largest end among iv[0..i])? */
static int enclosed(const lch_iv *iv, const pb_ns *mx, uint32_t n, pb_ns t0, pb_ns t1)
{
    uint32_t lo = 0, hi = n; /* the first start after t0 */
    while (lo < hi) {
        uint32_t m = lo + (hi - lo) / 2;
        if (iv[m].st <= t0)
            lo = m + 1;
        else
            hi = m;
    }
    return lo > 0 && mx[lo - 1] >= t1;
}

int joint_pairs_span(const joint *s, pb_ns *t0, pb_ns *t1)
{
    int have = 0;
    for (uint32_t q = 0; q < s->npairs; q++) {
        const jpair *x = &s->pr[q];
        if (x->call == NONE || x->ret == NONE)
            continue;
        if (!have || x->cs < *t0)
            *t0 = x->cs;
        if (!have || x->rr > *t1)
            *t1 = x->rr;
        have = 1;
    }
    return have;
}

int joint_late_chance(joint *s, const uint32_t *lcalls)
{
    s->lch_links = 0;
    free(s->lch_stat);
    s->lch_stat = NULL;
    if (!s->p.late_chance || !s->late_lshare)
        return PB_OK;
    uint32_t n = s->npairs, nn = s->nnodes, nl = s->nlinks;
    pb_ns t0 = 0, t1 = 0;
    int have = joint_pairs_span(s, &t0, &t1);
    if (!have || t1 <= t0)
        return PB_OK;
    uint32_t *off = calloc((size_t)nn + 2, sizeof *off);
    lch_iv *iv = malloc(((size_t)n + 1) * sizeof *iv);
    pb_ns *mx = malloc(((size_t)n + 1) * sizeof *mx);
    if (!off || !iv || !mx) {
        free(off);
        free(iv);
        free(mx);
        return PB_ENOMEM;
    }
    /* each service's requests (whole pairs) by start */
    for (uint32_t q = 0; q < n; q++)
        if (s->pr[q].call != NONE && s->pr[q].ret != NONE)
            off[s->pr[q].callee + 2]++;
    for (uint32_t b = 0; b < nn; b++)
        off[b + 2] += off[b + 1];
    for (uint32_t q = 0; q < n; q++)
        if (s->pr[q].call != NONE && s->pr[q].ret != NONE)
            iv[off[s->pr[q].callee + 1]++] = (lch_iv){req_start(s, q), req_end(s, q)};
    for (uint32_t b = 0; b < nn; b++) {
        uint32_t a0 = off[b], a1 = off[b + 1];
        if (a1 - a0 > 1)
            pb_sort(iv + a0, a1 - a0, sizeof *iv, cmp_iv);
        for (uint32_t i = a0; i < a1; i++)
            mx[i] = i > a0 && mx[i - 1] > iv[i].en ? mx[i - 1] : iv[i].en;
    }
    double span = (double)(t1 - t0);
    /* the links whose share is corrected, then their calls in one pass */
    double *tried = calloc((size_t)nl + 1, sizeof *tried), *hit = calloc((size_t)nl + 1, sizeof *hit);
    double *cown = calloc((size_t)nl + 1, sizeof *cown);
    unsigned char *on = calloc((size_t)nl + 1, 1);
    const int own = s->p.late_chance == 2;
    if (own)
        s->lch_stat = malloc(JOINT_LCH_NSTAT * ((size_t)nl + 1) * sizeof *s->lch_stat);
    int rc = tried && hit && on && cown && (!own || s->lch_stat) ? PB_OK : PB_ENOMEM;
    for (uint32_t l = 0; rc == PB_OK && l < nl; l++) {
        uint32_t a = s->link_src[l];
        double share = s->late_lshare[l];
        on[l] = s->late_gap && s->late_gap[a] >= 0 && lcalls[l] &&
                share * lcalls[l] >= JOINT_LCH_MIN && share < 0.5;
        if (own)
            s->lch_stat[JOINT_LCH_NSTAT * (size_t)l] = -1;
    }
    for (uint32_t q = 0; rc == PB_OK && q < n; q++) {
        const jpair *x = &s->pr[q];
        uint32_t l = x->link, a = s->link_src[l];
        if (!on[l] || x->call == NONE || x->ret == NONE)
            continue;
        pb_ns d = x->rr - x->cs;
        if (own) {
            /* late_chance=2: only the orphans, each weighted by the
             * inverse of its own chance of being missed */
            double wq = joint_late_tie_weight(s, q); /* joint_latetie.c */
            if (!(wq > 0))
                continue;
            double h = 0;
            for (int j = 1; j <= JOINT_LCH_OPOS; j++)
                h += enclosed(iv + off[a], mx + off[a], off[a + 1] - off[a],
                              lch_pos(t0, span, x->cs, j), lch_pos(t0, span, x->cs, j) + d);
            double c = h / JOINT_LCH_OPOS;
            hit[l] += wq / (1 - (c < JOINT_LCH_CMAX ? c : JOINT_LCH_CMAX));
            tried[l] += wq;
            cown[l] += wq * c;
            continue;
        }
        for (int j = 1; j <= JOINT_LCH_POS; j++) {
            pb_ns p0 = lch_pos(t0, span, x->cs, j);
            hit[l] += enclosed(iv + off[a], mx + off[a], off[a + 1] - off[a], p0, p0 + d);
            tried[l]++;
        }
    }
    for (uint32_t l = 0; rc == PB_OK && l < nl; l++) {
        if (!on[l] || tried[l] <= 0)
            continue;
        double share = s->late_lshare[l], f;
        if (own) {
            /* hit: the orphans' weights summed (Horvitz-Thompson), the
             * estimated number of the link's calls that outlive their
             * request */
            f = hit[l] / lcalls[l];
            double *st = s->lch_stat + JOINT_LCH_NSTAT * (size_t)l;
            st[0] = tried[l];
            st[1] = cown[l] / tried[l];
            st[2] = f > 1 ? 1 : f;
        } else {
            double c = hit[l] / tried[l];
            if (c >= JOINT_LCH_CMAX)
                continue;
            f = share / (1 - c);
        }
        if (f > share) {
            s->late_lshare[l] = f > 1 ? 1 : f;
            s->lch_links += f >= 0.5;
        }
    }
    free(tried);
    free(hit);
    free(cown);
    free(on);
    if (rc != PB_OK) {
        free(off);
        free(iv);
        free(mx);
        return rc;
    }
    free(off);
    free(iv);
    free(mx);
    return PB_OK;
}
