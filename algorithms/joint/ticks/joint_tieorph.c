/*
 * joint_tieorph.c - joint: the tie test does not keep a start that leaves
 * calls without a parent the search found them (docs/joint/ticks.md, "The tie
 * test: whole-tick stamps", "Calls the start leaves without a parent").
 *
 * The tie test (joint_quant.c) keeps the start when most of the calls the
 * search moved went to a request that arrived within a tick of their start
 * parent's: a trade the stamps cannot support, so the start (arrival
 * order, as first come, first served) is as good on the stamps and the
 * search's gain is taken to be the refitted whole-tick densities sharpening
 * themselves.  That argument is about calls that have a parent in both.
 * A call the start leaves without any parent (no candidate under the
 * start's pairing of returns, or none the rank start could give it) while
 * the search gives it one is not a trade within a tick: every call a
 * service sends is sent for some request it serves, so a call of a service
 * that is itself called and left without a parent is a defect of the start
 * the stamps do show (without call ids the start's pairing of the returns
 * of the link into that service closed the request too early).
 *
 * The criterion, a sign test over the calls whose parent the two solutions
 * disagree on having: o = calls with no parent in the start and one in the
 * search, r = calls with a parent in the start and none in the search.
 * When o > r and the one-sided binomial probability of o or more of o + r
 * at one half is below JOINT_TIEORPH_P (0.05, the 95 % level the tie test's
 * 1.92 nats comes from), and the search is likelier than the start (each
 * under its own refit: the gain the tie test discounts; a search that is
 * not likelier has nothing the test took from it), the start is refuted
 * and the search is kept.
 * Nothing else changes: where the tie test keeps the search, or the stamps
 * are not coarse, the rule does not run.  Metadata (only when the tie test
 * would keep the start): tie_orphans=on start_only=o search_only=r p=
 * kept=search|start.
 */
#include "joint_int.h"
#include <gsl/gsl_cdf.h>
#include <stdlib.h>

#define NONE JOINT_NONE

void joint_tieorph_count(const uint32_t *start, const uint32_t *now, const unsigned char *skip,
                         uint32_t n, size_t *start_only, size_t *search_only)
{
    size_t o = 0, r = 0;
    for (uint32_t p = 0; p < n; p++) {
        if (skip && skip[p])
            continue;
        if (start[p] == NONE && now[p] != NONE)
            o++;
        else if (start[p] != NONE && now[p] == NONE)
            r++;
    }
    *start_only = o;
    *search_only = r;
}

double joint_tieorph_p(size_t start_only, size_t search_only)
{
    if (start_only == 0)
        return 1.0;
    /* P(X >= o), X ~ Binomial(o + r, 1/2) */
    return gsl_cdf_binomial_Q((unsigned)(start_only - 1), 0.5,
                              (unsigned)(start_only + search_only));
}

int joint_tieorph_refutes(size_t start_only, size_t search_only)
{
    return start_only > search_only &&
           joint_tieorph_p(start_only, search_only) < JOINT_TIEORPH_P;
}

int joint_tieorph_keeps_search(size_t start_only, size_t search_only, double ll_start,
                               double ll_search)
{
    return ll_search > ll_start && joint_tieorph_refutes(start_only, search_only);
}

int joint_tieorph_decide(joint *s)
{
    if (!s->p.tie_orphans || !s->qpar)
        return 0;
    uint32_t n = s->npairs;
    /* only pairs with a call message (a half pair of a lost call has no parent to
     * speak of) */
    unsigned char *skip = malloc((size_t)n + 1);
    if (!skip)
        return -1;
    for (uint32_t p = 0; p < n; p++)
        skip[p] = s->pr[p].call == NONE;
    size_t o = 0, r = 0;
    joint_tieorph_count(s->qpar, s->par, skip, n, &o, &r);
    free(skip);
    s->orph_on = 1;
    s->orph_start_only = o;
    s->orph_search_only = r;
    s->orph_p = joint_tieorph_p(o, r);
    /* only a search the model finds likelier than the start: the tie test
     * discounts that gain; a search that is not likelier has nothing to defend */
    s->orph_refuted = joint_roworph_refutes(joint_roworph_applies(s), o, r, s->quant_ll[0],
                                            s->quant_ll[1]); /* joint_roworph.c */
    return s->orph_refuted;
}

int joint_tieorph_meta(const joint *s, pb_result *res)
{
    if (!s->orph_on)
        return PB_OK;
    return pb_result_meta(res, "tie_orphans=on start_only=%zu search_only=%zu p=%.3g kept=%s",
                          s->orph_start_only, s->orph_search_only, s->orph_p,
                          s->orph_refuted ? "search" : "start");
}
