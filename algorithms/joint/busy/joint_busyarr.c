/*
 * joint_busyarr.c - busy_arr: the busy test's verdict read at the trace's
 * own arrivals with the copies' own durations (docs/joint/shapes_late.md,
 * "The busy test fooled by a solution's smeared durations (h270)").
 *
 * The busy test (joint_pick.c) finds a service serialising when its calls
 * land busy at their callees less often in the trace than in copies drawn
 * from the free solution.  A call's chance to land busy depends on two
 * things: how the caller spaces its calls (what the test is after) and how
 * long the callee keeps calls open (the solution's durations).  Where the
 * solution pairs a link with a short/long mix wrongly (shortlong's 2 ms
 * lookups and 150 ms reports, heavytail's 0.5 / 5 / 50 ms database) its
 * durations are smeared into the middle (fe>api of shortlong x2 s56: the
 * free solution's q75 22 ms against the truth's 1.1 ms), calls in the
 * copies stay open across the window more often, and the copies land busy
 * more often whatever the caller's spacing: a deficit with no
 * serialisation behind it.
 *
 * The check: per copy, the trace's own call arrivals at each callee (the
 * receive stamps of the link's whole pairs, no pairing needed) each given
 * a duration drawn from that copy's durations on the link (gsl mt19937,
 * seed the copy's); their busy landings against the copy's own.  The two
 * differ only in the arrivals, so the deficit left is the caller's
 * spacing.  A service keeps the verdict only when that deficit too is
 * below -JOINT_PICK_Z (z of two shares, one-sided 0.0005); else it is
 * withdrawn (its changed pairs vote for nothing).  The same whether the
 * copies are stamps (busy_copy_lean, the default) or traces.
 *
 * busy_arr=2 (h280, the default; docs/joint/shapes_late.md "Which verdicts
 * busy_arr asks about (h280)"): the check asks only about a service the
 * held search rewrites most of -- its changed pairs (a parent or call
 * changed at it as the caller, a return at it as the callee, as the test
 * counts them) more than half its calls tested.  A service that keeps its
 * requests in order is in order in the free solution but for a few
 * bursts' exchanges: the held search mends those and leaves the rest
 * (event and mixed pools: 1 to 17 % of a service's calls).  Where it must
 * rewrite most of a service's calls, the free solution has that service's
 * answers overtaking wholesale, the signature of a short/long mix
 * (shortlong's fe 104 %, heavytail's api 82-84 %), and there the
 * deficit may be the smeared durations' own; elsewhere the verdict stands
 * as the busy test gives it, and the counts are not drawn at all.
 */
#include "joint_int.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>

#define NONE JOINT_NONE

int joint_busyarr_add(const joint *s, const pb_ns *ccr, const pb_ns *crs, const pb_ns *win,
                      uint32_t seed, double *calls, double *busy)
{
    uint32_t np = s->npairs, nl = s->nlinks;
    uint32_t *lk = malloc(((size_t)np + 1) * sizeof *lk);
    pb_ns *cr = malloc(((size_t)np + 1) * sizeof *cr), *rs = malloc(((size_t)np + 1) * sizeof *rs);
    pb_ns *d = malloc(((size_t)np + 1) * sizeof *d);
    double *tn = calloc((size_t)nl + 1, sizeof *tn), *tb = calloc((size_t)nl + 1, sizeof *tb);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    int rc = lk && cr && rs && d && tn && tb && r ? PB_OK : PB_ENOMEM;
    if (rc == PB_OK)
        gsl_rng_set(r, seed);
    for (uint32_t p = 0; rc == PB_OK && p < np; p++) {
        lk[p] = nl; /* on no link: not counted */
        cr[p] = rs[p] = PB_TS_NONE;
    }
    for (uint32_t l = 0; rc == PB_OK && l < nl; l++) {
        uint32_t m = 0; /* the copy's durations on link l */
        for (uint32_t i = s->bylink_off[l]; i < s->bylink_off[l + 1]; i++) {
            uint32_t p = s->bylink[i];
            if (ccr[p] != PB_TS_NONE && crs[p] != PB_TS_NONE)
                d[m++] = crs[p] - ccr[p];
        }
        for (uint32_t i = s->bylink_off[l]; i < s->bylink_off[l + 1]; i++) {
            uint32_t p = s->bylink[i];
            const jpair *x = &s->pr[p];
            lk[p] = l;
            cr[p] = rs[p] = PB_TS_NONE;
            if (!m || x->call == NONE || x->ret == NONE)
                continue;
            cr[p] = x->cr;
            rs[p] = x->cr + d[gsl_rng_uniform_int(r, m)];
        }
    }
    if (rc == PB_OK)
        rc = joint_pick_busy(nl, lk, cr, rs, np, win, tn, tb);
    for (uint32_t l = 0; rc == PB_OK && l < nl; l++) {
        calls[s->link_src[l]] += tn[l];
        busy[s->link_src[l]] += tb[l];
    }
    gsl_rng_free(r);
    free(lk);
    free(cr);
    free(rs);
    free(d);
    free(tn);
    free(tb);
    return rc;
}

int joint_busyarr_add_trace(const joint *s, const pb_trace *t, const pb_ns *win, uint32_t seed,
                            double *calls, double *busy)
{
    uint32_t np = s->npairs;
    pb_ns *cr = malloc(((size_t)np + 1) * sizeof *cr), *rs = malloc(((size_t)np + 1) * sizeof *rs);
    int rc = cr && rs ? PB_OK : PB_ENOMEM;
    for (uint32_t p = 0; rc == PB_OK && p < np; p++)
        cr[p] = rs[p] = PB_TS_NONE;
    if (rc == PB_OK) { /* as joint_pick_busy_of reads a copy */
        joint_pick_copy_stamps(t, np, cr, rs);
        rc = joint_busyarr_add(s, cr, rs, win, seed, calls, busy);
    }
    free(cr);
    free(rs);
    return rc;
}

int joint_busyarr_asks(int mode, double calls, double changed)
{
    return mode == 1 || (mode == 2 && calls > 0 && 2 * changed > calls);
}

double joint_busyarr_z(double n1, double b1, double n2, double b2)
{
    if (n1 <= 0 || n2 <= 0)
        return 0;
    double p1 = b1 / n1, p2 = b2 / n2, p = (b1 + b2) / (n1 + n2);
    if (p <= 0 || p >= 1)
        return 0;
    return (p1 - p2) / sqrt(p * (1 - p) * (1 / n1 + 1 / n2));
}
