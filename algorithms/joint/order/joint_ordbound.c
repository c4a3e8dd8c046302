/*
 * joint_ordbound.c - joint without call ids: the order terms of the held
 * search left out where they cannot change a decision (`order_bound`;
 * speed only, the same results; docs/joint/speed_middle.md, "Speed, eleventh wave").
 *
 * The held search (pair_order) scores two order terms the free search
 * does not: the order of first calls (joint_order_ll, added to every
 * split the local search scores or estimates) and the order of answers
 * (joint_rord_swap_delta, added to every exchange of two returns the
 * re-pairing tries).  Both are sums of logarithms of probabilities, so
 * they are bounded, and two of the decisions they enter are one-sided:
 *
 * - An estimate of a split only decides whether the split is scored in
 *   full (joint_prunable: left out when the estimate is below the bound by
 *   JOINT_PRUNE_TOL of the magnitudes).  The order of first calls is at
 *   most 0 (each term is log rho or log (1 - rho)), so when the estimate
 *   without it is already left out, with it it would be too: the term is
 *   not computed.  To be safe from rounding the test asks for twice the
 *   tolerance (joint_ordbound_est_skip); the estimate returned is then the
 *   one without the term, which joint_prunable leaves out as well.
 * - An exchange of the returns of two calls of one link (the re-pairing's
 *   exchange pass, repair_pairs in joint_repair.c) is made when its
 *   response costs minus the change of the order of answers are below the
 *   current ones by 1e-9.  The change is the difference of two sums of at
 *   most four terms each (the consecutive pairs next to the two calls),
 *   each term log rho, log (1 - rho) or 0 for the link, so it is at most
 *   4 |min(log rho, log (1 - rho))|.  When the exchange loses by more than
 *   that (with a margin of 1e-6 of the magnitudes, far above rounding),
 *   it cannot be made: the change is not computed.
 *
 * Every decision is the one made with the terms computed; the search's
 * parents, pairings and likelihoods are the same bits.  Counted in the
 * metadata (`order_bound_skipped=`).
 */
#include "joint_int.h"

#include <math.h>

double joint_ordbound_test_slack = 0;
int joint_ordbound_test_noswap = 0;

int joint_ordbound_est_skip(joint *s, double est, double bound)
{
    if (!s->p.order_bound)
        return 0;
    /* joint_prunable's test with twice its tolerance (2 t is exact) */
    double e = est + joint_prune_test_bias;
    double t = JOINT_PRUNE_TOL * (1.0 + fabs(e) + fabs(bound));
    if (!(e + 2 * t <= bound + joint_ordbound_test_slack))
        return 0;
    s->ordb_est++;
    return 1;
}

double joint_ordbound_est_shift(void)
{
    return joint_ordbound_test_slack;
}

int joint_ordbound_swap_skip(joint *s, uint32_t c1, uint32_t c2, double alt, double cur)
{
    if (!s->p.order_bound || !s->rord)
        return 0;
    double lo = 0;
    if (!joint_rord_link_min(s, c1, c2, &lo))
        return 1; /* the term is 0 there (joint_rord_swap_delta's own test) */
    double dmax = -4.0 * lo, mag = 1.0 + fabs(alt) + fabs(cur);
    if (joint_ordbound_test_noswap)
        dmax = -dmax; /* test hook: a bound of the wrong sign, on purpose */
    if (!(alt - dmax - 1e-6 * mag >= cur - 1e-9))
        return 0;
    s->ordb_swap++;
    return 1;
}
