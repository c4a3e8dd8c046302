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
 * The rule.  The orphan share a link would show if a fraction f of its
 * calls outlived their requests is f (1 - c), c the chance that some
 * request of the sender encloses an interval of the call's length placed
 * at random; so f = share / (1 - c).  c is measured on the trace: each of
 * the link's calls' [send, return] lengths placed at JOINT_LCH_POS fixed
 * positions spread over the trace (a low-discrepancy sequence:
 * deterministic), enclosed when a request of the sender started at or
 * before it and ended at or after its end.  The corrected share replaces
 * late_lshare where it is larger (only for links with at least
 * JOINT_LCH_MIN orphans and c below JOINT_LCH_CMAX, beyond which the
 * share says too little).  Nothing changes where no service passes the
 * late-call test.
 */
#include "joint_int.h"
#include "pb_sort.h"
#include <stdlib.h>

#define NONE JOINT_NONE
#define JOINT_LCH_POS 16     /* positions per call */
#define JOINT_LCH_MIN 5      /* orphans a link needs for its share to be corrected */
#define JOINT_LCH_CMAX 0.95  /* chance of enclosure beyond which nothing is corrected */

typedef struct {
    pb_ns st, en;
} lch_iv;

static int cmp_iv(const void *x, const void *y)
{
    const lch_iv *a = x, *b = y;
    return a->st < b->st ? -1 : a->st > b->st ? 1 : a->en < b->en ? -1 : a->en > b->en;
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

int joint_late_chance(joint *s, const uint32_t *lcalls)
{
    s->lch_links = 0;
    if (!s->p.late_chance || !s->late_lshare)
        return PB_OK;
    uint32_t n = s->npairs, nn = s->nnodes, nl = s->nlinks;
    pb_ns t0 = 0, t1 = 0;
    int have = 0;
    for (uint32_t q = 0; q < n; q++) {
        const jpair *x = &s->pr[q];
        if (x->call == NONE || x->ret == NONE)
            continue;
        if (!have || x->cs < t0)
            t0 = x->cs;
        if (!have || x->rr > t1)
            t1 = x->rr;
        have = 1;
    }
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
    unsigned char *on = calloc((size_t)nl + 1, 1);
    int rc = tried && hit && on ? PB_OK : PB_ENOMEM;
    for (uint32_t l = 0; rc == PB_OK && l < nl; l++) {
        uint32_t a = s->link_src[l];
        double share = s->late_lshare[l];
        on[l] = s->late_gap && s->late_gap[a] >= 0 && lcalls[l] &&
                share * lcalls[l] >= JOINT_LCH_MIN && share < 0.5;
    }
    for (uint32_t q = 0; rc == PB_OK && q < n; q++) {
        const jpair *x = &s->pr[q];
        uint32_t l = x->link, a = s->link_src[l];
        if (!on[l] || x->call == NONE || x->ret == NONE)
            continue;
        pb_ns d = x->rr - x->cs;
        for (int j = 1; j <= JOINT_LCH_POS; j++) {
            /* the golden-ratio sequence, started at the call */
            double u = (double)(x->cs - t0) / span + 0.6180339887498949 * j;
            u -= (double)(long long)u;
            pb_ns p0 = t0 + (pb_ns)(u * span);
            hit[l] += enclosed(iv + off[a], mx + off[a], off[a + 1] - off[a], p0, p0 + d);
            tried[l]++;
        }
    }
    for (uint32_t l = 0; rc == PB_OK && l < nl; l++) {
        if (!on[l] || tried[l] <= 0)
            continue;
        double c = hit[l] / tried[l], share = s->late_lshare[l];
        if (c >= JOINT_LCH_CMAX)
            continue;
        double f = share / (1 - c);
        if (f > share) {
            s->late_lshare[l] = f > 1 ? 1 : f;
            s->lch_links += f >= 0.5;
        }
    }
    free(tried);
    free(hit);
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
