/*
 * joint_lsfast.c - joint: the local search's estimates without the order
 * term (`resplit_order_bound`; speed only, the same results; issue 28,
 * "Speed, eleventh wave (local search)" in docs/joint.md).
 *
 * A split's estimate (joint_search.c, split_est_m) only decides whether
 * the split is scored in full: joint_prunable leaves it out when the
 * estimate lies below the best value so far by more than JOINT_PRUNE_TOL
 * of the magnitudes.  That is sound for any estimate that is no lower than
 * the exact value but for rounding: then the exact value is below the
 * bound too, and the split could not have been chosen.  The order-of-
 * service term (joint_order_ll) adds, per link, log rho or log (1 - rho)
 * with 0 < rho < 1: never above 0.  So the two walks' estimates without it
 * are such an estimate, and the term (a scan of both lists and a search for
 * each first call's trigger: about a tenth of an estimate of two
 * 27-call requests) is left out; a split it alone would have pruned is
 * scored in full instead, which decides as before.  Every split that is
 * scored is scored with the term (split_ll).
 */
#include "joint_int.h"

double joint_est_order_test_bias = 0;

double joint_est_order(joint *s, uint32_t q1, const uint32_t *k1, uint32_t n1, uint32_t q2,
                       const uint32_t *k2, uint32_t n2)
{
    if (s->p.resplit_order_bound)
        return joint_est_order_test_bias; /* the term's bound 0: every term is a
                                             log-probability (the test lowers it) */
    return joint_order_ll(s, q1, k1, n1, q2, k2, n2);
}
