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

/* The bounded splits (joint_bnb.c, `bnb_estimate`; speed only, the same
 * results).  A split the branch and bound cannot cut is scored in full:
 * two walks resumed from the split scored last, recorded, to the end of
 * each list.  Before that, it is estimated from the same two records
 * (joint_req_walk_estimate: the walk from the first difference to the
 * point from which the record's remaining steps are provably the same,
 * the value up to rounding; the order term by its bound 0 when
 * resplit_order_bound is on) and left out (-INFINITY) when joint_prunable
 * finds the estimate below the best value so far: it could not be chosen,
 * being below a value that is, exactly as the pruned re-split leaves such
 * splits out.  The records stay those of the split scored last. */
double joint_bnb_est_test_bias = 0;

int joint_bnb_est_cut(joint *s, uint32_t q1, uint32_t q2, const uint32_t *f1, uint32_t n1,
                      const uint32_t *f2, uint32_t n2, const uint32_t *set, uint32_t m,
                      uint32_t mask, const joint_wrec *r1, const joint_wrec *r2, uint32_t *e1,
                      uint32_t *e2, double bsf, int *cut)
{
    *cut = 0;
    if (!s->p.bnb_estimate || !r1->valid || !r2->valid || r1->q != q1 || r2->q != q2)
        return PB_OK;
    uint32_t a = joint_resplit_list(s, f1, n1, set, m, mask, 0, e1);
    uint32_t b = joint_resplit_list(s, f2, n2, set, m, mask, 1, e2);
    double l1 = 0, l2 = 0;
    int h, rc;
    if ((rc = joint_req_walk_estimate(s, q1, e1, a, r1, &l1, &h)) != PB_OK ||
        (rc = joint_req_walk_estimate(s, q2, e2, b, r2, &l2, &h)) != PB_OK)
        return rc;
    s->est_evals++;
    double v = l1 + l2 + joint_bnb_est_test_bias;
    if (s->order_active && !s->bnb_no_order)
        v += joint_est_order(s, q1, e1, a, q2, e2, b);
    *cut = joint_prunable(s, v, bsf);
    return PB_OK;
}
