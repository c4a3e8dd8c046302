/*
 * joint_llshare.c - joint without call ids: the two searches' scores with
 * the order terms start from the log-likelihoods just computed
 * (`ll_share`, default 1; speed only, the same numbers; docs/joint/speed_w21.md
 * "Speed, twenty-first wave (h167)").
 *
 * With pair_order=auto init_choose (joint.c) keeps the free or the held
 * search by their log-likelihoods (joint_loglik, one walk of every
 * request), then reports each one's score with the order terms
 * (joint_order_score), whose first step is joint_loglik of the same
 * search again: four walks of every request where two give the numbers
 * (TrainTicket 09:00 as a black box: 1.27 M of 135.6 M instructions).
 *
 * Why exact: joint_loglik(a) is a sum over requests in a fixed order of
 * joint_req_ll, a function of a's pairs, parents and fitted model; between
 * the two calls only joint_loglik(b) runs, on another search (its own
 * pairs, model and caches: the caches the two searches shared by
 * pairs_share were handed from a to b before, and a lookup only takes an
 * entry stamped by the walk running).  So the second call adds the same
 * terms in the same order: the same bits.  `ll_share=0` computes it again.
 */
#include "joint_int.h"

int joint_llshare_test_wrong = 0;

int joint_llshare_scores(joint *a, joint *b, double l0[2], double lo[2])
{
    l0[0] = joint_loglik(a);
    l0[1] = joint_loglik(b);
    if (!a->p.ll_share) {
        int rc = joint_order_score(a, &lo[0]);
        return rc == PB_OK ? joint_order_score(b, &lo[1]) : rc;
    }
    /* the test's fault: a's score from b's log-likelihood, as a value
     * taken from the wrong search (or the wrong step) would be */
    double base_a = joint_llshare_test_wrong ? l0[1] : l0[0];
    int rc = joint_order_score_at(a, base_a, &lo[0]);
    return rc == PB_OK ? joint_order_score_at(b, l0[1], &lo[1]) : rc;
}
