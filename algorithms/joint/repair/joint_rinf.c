/*
 * joint_rinf.c - joint without call ids: the re-pairing's exchange passes
 * skip the exchanges a call cannot take (`repair_inf_skip`; speed only,
 * the same results; docs/joint/speed_w18.md, "Speed, twentieth wave (h155)").
 *
 * repair_pairs (joint_repair.c) tries, per link, to exchange the returns
 * of each call C[i] with those of the next JOINT_SWAP_WINDOW calls C[j]
 * (by arrival on the callee's clock): alt = cost(C[i], k2) + cost(C[j],
 * k1), k1 / k2 their current returns, minus the order-of-answers term
 * (pair_order) against cur; the exchange is made when alt < cur - 1e-9.
 * On OnlineBoutique as a black box the second cost -- the later call
 * given the earlier call's return -- is infinite in 97 % of the exchanges
 * scored (the return was sent before that call arrived, or before one of
 * its own calls returned: joint_response_cost), and so is alt.  Then:
 *   - the first cost is not needed: alt = a + INFINITY is INFINITY for a
 *     finite or infinite a, NaN for a NaN or -INFINITY a; alt < x is false
 *     either way, so the exchange is rejected whatever a is;
 *   - the order-of-answers term (joint_rord_swap_delta) is finite (sums
 *     of log rho and log (1 - rho), rho in (0, 1)), so alt minus it stays
 *     infinite and the exchange is rejected; its bound
 *     (joint_ordbound_swap_skip) changes nothing when alt is infinite (its
 *     test is NaN: no skip, no count).
 * So the pair is rejected before either: the same exchanges, the same
 * pairs, the same counters.  The kept alt (joint_xcost) is INFINITY where
 * main's is INFINITY or NaN; it is only ever compared, with the same
 * outcome.  `-s repair_inf_skip=0` scores every exchange in full.
 */
#include "joint_int.h"

#include <math.h>

double joint_rinf_test_inexact = 0;

double joint_rinf_alt(joint *s, uint32_t c1, uint32_t c2, uint32_t k1, uint32_t k2,
                      const pb_ns *rsv, const pb_ns *rrv)
{
    if (!s->p.repair_inf_skip)
        return joint_response_cost(s, c1, rsv[k2], rrv[k2]) +
               joint_response_cost(s, c2, rsv[k1], rrv[k1]);
    const double b = joint_response_cost(s, c2, rsv[k1], rrv[k1]);
    if (b == INFINITY || (joint_rinf_test_inexact > 0 && b > joint_rinf_test_inexact))
        return INFINITY;
    /* the same two terms added in the same order as above */
    return joint_response_cost(s, c1, rsv[k2], rrv[k2]) + b;
}

int joint_rinf_reject(joint *s, double alt)
{
    if (!s->p.repair_inf_skip || alt != INFINITY)
        return 0;
    s->rinf_skipped++;
    return 1;
}
