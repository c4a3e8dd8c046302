/*
 * joint_candends.c - joint: which candidate parents a call keeps when
 * more requests enclose it than `max_candidates` (docs/joint/model.md, "The
 * model": candidates on one clock; "The candidate cap at both ends",
 * issue 28).
 *
 * The cap kept the latest-started enclosing requests.  That is the
 * tightest fit at the request's start (a call its arrival triggered),
 * but a call made just before a request's response (the burst after a
 * slow service's answer) or at a service serving in arrival order (the
 * request served is the one that waited longest) has its parent at the
 * other end: the earliest-ending enclosing request, which under a pile-up
 * is also the earliest-started.  The candidate test (the request's
 * interval encloses the call's) is symmetric in time; the cap with
 * `cand_ends` (default 1) is too: half the places go to the
 * latest-started, the rest to the earliest-ending of the others.  Among
 * requests tied at the last place taken from either end, a window that
 * turns with the call's rank, as before, so that ties spread over the
 * calls.  Only calls with more than `max_candidates` candidates change;
 * every other trace runs byte for byte as before.
 */
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

/* max-heap of pb_ns: sift the top down */
static void sift(pb_ns *h, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && h[l] > h[m])
            m = l;
        if (r < n && h[r] > h[m])
            m = r;
        if (m == i)
            return;
        pb_ns t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

static int cmp_pos(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

int joint_cand_ends(const joint *s, uint32_t *c, size_t got, size_t kmax, size_t rot)
{
    if (got <= kmax || kmax == 0)
        return PB_OK;
    pb_ns *heap = malloc(kmax * sizeof *heap);
    uint32_t *pick = malloc(kmax * sizeof *pick);
    uint32_t *grp = malloc(got * sizeof *grp);
    uint32_t *old = malloc(got * sizeof *old);
    unsigned char *chosen = calloc(got, 1);
    int rc = PB_OK;
    if (!heap || !pick || !grp || !old || !chosen) {
        rc = PB_ENOMEM;
        goto done;
    }
    size_t np = 0;
    /* (1) the latest-started half (c is in the order of open: by start,
     * then pair index); ties at the last place: a window turned by rot */
    {
        size_t half = kmax - kmax / 2;
        pb_ns tk = req_start(s, c[got - half]);
        size_t lo = got - half, hi = got - half + 1;
        while (lo > 0 && req_start(s, c[lo - 1]) == tk)
            lo--;
        while (hi < got && req_start(s, c[hi]) == tk)
            hi++;
        size_t g = hi - lo, need = half - (got - hi);
        for (size_t j = 0; j < need; j++)
            pick[np++] = (uint32_t)(lo + (rot + j) % g);
        for (size_t j = hi; j < got; j++)
            pick[np++] = (uint32_t)j;
        for (size_t j = 0; j < np; j++)
            chosen[pick[j]] = 1;
    }
    /* (2) the earliest-ending of the others: the need-th smallest end by
     * a bounded heap, every one before it, and among those tied at it a
     * window (in the order of open) turned by rot */
    if (np < kmax) {
        size_t need = kmax - np, nh = 0;
        for (size_t i = 0; i < got; i++) {
            if (chosen[i])
                continue;
            pb_ns e = req_end(s, c[i]);
            if (nh < need) {
                size_t j = nh++;
                heap[j] = e;
                while (j > 0 && heap[(j - 1) / 2] < heap[j]) { /* sift up */
                    pb_ns t = heap[j];
                    heap[j] = heap[(j - 1) / 2];
                    heap[(j - 1) / 2] = t;
                    j = (j - 1) / 2;
                }
            } else if (e < heap[0]) {
                heap[0] = e;
                sift(heap, nh, 0);
            }
        }
        pb_ns te = heap[0];
        size_t g = 0;
        for (size_t i = 0; i < got; i++) {
            if (chosen[i])
                continue;
            pb_ns e = req_end(s, c[i]);
            if (e < te)
                pick[np++] = (uint32_t)i;
            else if (e == te)
                grp[g++] = (uint32_t)i;
        }
        size_t left = kmax - np;
        for (size_t j = 0; j < left; j++)
            pick[np++] = grp[(rot + j) % g];
    }
    /* back in the order of open */
    pb_sort(pick, np, sizeof *pick, cmp_pos);
    memcpy(old, c, got * sizeof *old);
    for (size_t i = 0; i < np; i++)
        c[i] = old[pick[i]];
done:
    free(heap);
    free(pick);
    free(grp);
    free(old);
    free(chosen);
    return rc;
}
