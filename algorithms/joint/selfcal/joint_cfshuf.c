/*
 * joint_cfshuf.c - joint: the calibration's copy doubts how the solution
 * split the calls of requests that overlapped (conf_copy_shuffle;
 * docs/joint/confidence_late.md, "The copy's truth shuffled among
 * overlapping requests (h212)"; issue 28).
 *
 * Why.  The self-calibration (joint_selfcal.c) makes the trace again with
 * the solution as its truth and measures how often the same inference is
 * right on it.  Where the search errs systematically -- overlapping long
 * requests whose chains of calls it rotates or merges (one request given
 * two requests' calls, the other none) -- the solution is the search's
 * own preferred split of that overlap: the copy, made from it, hands the
 * search the answer it tends to give anyway, and the copy is right far
 * more often than the real trace (experiments/joint_apps_shortlong.conf
 * seed 3 at 1 ms with call ids: rows of the long requests 85 % right in
 * the copy, 50 % in the real trace at the same stated confidences; the
 * result's [0.8, 0.9) bin 230 rows, 60.9 % right).  The same, milder, on
 * OnlineBoutique 06:35 rounded to 10 ms with call ids: rows stated
 * [0.9, 0.99) 86-93 % right, and the copy's map moved by its seed.
 *
 * The rule.  In the copy of the confidences the result carries (only:
 * the copies that decide rules and the one late_trust reads are
 * untouched, so every assignment is the search's), the requests of each
 * link (pairs with both halves) are taken in order of arrival and cut
 * into overlap clusters: a request joins the cluster while it arrives
 * before the latest response of the cluster so far (both on the callee's
 * clock).  Within each cluster the requests' lists of calls are dealt
 * again at random (Fisher-Yates, a generator of its own seeded from
 * conf_seed): request q makes, in the copy, the calls (and their
 * subtrees) of request perm[q], at its own arrival.  A request that
 * overlaps no other of its link keeps its own calls; so does every
 * request of a trace whose requests never overlap.  The copy's truth is
 * then the solution's calls and delays but not its split of an overlap:
 * the split the real search made is as doubtful in the copy as in the
 * trace.  The copy's truth parent of pair c is perm^-1(par[c]) (cpar).
 */
#include "joint_int.h"
#include "joint_rules.h"
#include "pb_sort.h"

#include <gsl/gsl_rng.h>
#include <stdlib.h>

#define NONE JOINT_NONE

int joint_cf_shuffle(joint *s, uint32_t seed, uint32_t *perm, uint32_t *cpar)
{
    uint32_t n = s->npairs;
    insort *r = malloc(((size_t)n + 1) * sizeof *r);
    uint32_t *inv = malloc(((size_t)n + 1) * sizeof *inv);
    uint32_t *lo = calloc((size_t)s->nlinks + 2, sizeof *lo);
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    if (!r || !inv || !lo || !g) {
        free(r);
        free(inv);
        free(lo);
        if (g)
            gsl_rng_free(g);
        return PB_ENOMEM;
    }
    gsl_rng_set(g, seed ^ 0x2f6b5a1dU);
    for (uint32_t q = 0; q < n; q++)
        perm[q] = q;
    /* the requests of each link, by arrival: r[lo[l] .. lo[l + 1]) */
    for (uint32_t q = 0; q < n; q++)
        if (s->pr[q].call != NONE && s->pr[q].ret != NONE && s->pr[q].link < s->nlinks)
            lo[s->pr[q].link + 2]++;
    for (uint32_t l = 0; l <= s->nlinks; l++)
        lo[l + 1] += lo[l];
    for (uint32_t q = 0; q < n; q++)
        if (s->pr[q].call != NONE && s->pr[q].ret != NONE && s->pr[q].link < s->nlinks)
            r[lo[s->pr[q].link + 1]++] = (insort){s->pr[q].cr, q};
    size_t moved = 0, clusters = 0;
    for (uint32_t l = 0; l < s->nlinks; l++) {
        uint32_t b = lo[l], e = lo[l + 1];
        if (e - b > 1)
            pb_sort(r + b, e - b, sizeof *r, joint_cmp_insort);
        for (uint32_t a = b; a < e;) {
            uint32_t z = a + 1;
            pb_ns end = s->pr[r[a].p].rs;
            while (z < e && r[z].t < end) {
                if (s->pr[r[z].p].rs > end)
                    end = s->pr[r[z].p].rs;
                z++;
            }
            if (z - a > 1) {
                clusters++;
                /* the i-th to arrive takes the calls of the pair dealt
                 * to place i: perm over r[a .. z), Fisher-Yates */
                for (uint32_t i = a; i < z; i++)
                    inv[i - a] = r[i].p;
                for (uint32_t i = z - a - 1; i > 0; i--) {
                    uint32_t j = (uint32_t)gsl_rng_uniform_int(g, (unsigned long)i + 1);
                    uint32_t t = inv[i];
                    inv[i] = inv[j];
                    inv[j] = t;
                }
                for (uint32_t i = a; i < z; i++) {
                    perm[r[i].p] = inv[i - a];
                    moved += inv[i - a] != r[i].p;
                }
            }
            a = z;
        }
    }
    /* the copy's truth: c is called by the request that took its
     * parent's calls */
    for (uint32_t q = 0; q < n; q++)
        inv[perm[q]] = q;
    for (uint32_t c = 0; c < n; c++)
        cpar[c] = s->par[c] == NONE ? NONE : inv[s->par[c]];
    s->p.cfs_copies++;
    s->p.cfs_clusters += clusters;
    s->p.cfs_moved += moved;
    gsl_rng_free(g);
    free(r);
    free(inv);
    free(lo);
    return PB_OK;
}

int joint_cf_shuffle_meta(const joint *s, pb_result *res)
{
    if (!s->p.conf_copy_shuffle || !s->p.conf_selfcal)
        return PB_OK;
    return pb_result_meta(res,
                          "conf_copy_shuffle=1 copies=%d overlap_clusters=%.0f "
                          "requests_dealt_other_calls=%.0f (the calibration's copy: the calls "
                          "of overlapping requests of a link dealt again among them)",
                          s->p.cfs_copies, s->p.cfs_clusters, s->p.cfs_moved);
}
