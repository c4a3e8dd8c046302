/*
 * joint_thrwarm.c - thread_soft_pick=5 (h217): the receiving thread's term
 * (thread_soft, joint_thread.c) searched from the solution without it
 * (docs/joint/shapes.md "The term's search warm-started (h217)"; issue 28).
 *
 * Why.  thread_soft_pick=3 (joint_thrpick.c) runs the whole inference
 * with the term and again without it, and keeps the term's solution only
 * when the model without the term finds it likelier; that drops the pool
 * rows the term's search lost (at twice the pool's load it ends in another
 * local optimum, h209) but also most of the term's gains (seda, steal, the
 * mesh at 1 ms), where the delays alone prefer the worse pairing.  The
 * loss was in where the term's search started, not in the term.
 *
 * The rule.  The whole inference runs once with the term fitted but left
 * out of every walk (thread_soft_pick=-1's mute: the search without the
 * term, and the thread test that says which services the term weighs).
 * Where it weighs none (every trace without a thread column, and the
 * eBPF capture), or every pair was made by call id (the term is 0 on
 * such pairs), that solution is the output: one inference, nothing
 * else.  Where it weighs some, one more search runs with the term on,
 * started from the first one's pairs (joint_search_given with the pairs
 * given, the parents free; the same order model and parameters the first
 * kept), and its solution is kept.  Metadata thread_soft_check=warm_start
 * with both solutions' log-likelihoods without the term.
 */
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>

int joint_thrwarm_init(joint **out, const pb_trace_view *v, const joint_params *params,
                       pb_error *err)
{
    joint_params p0 = *params;
    p0.thread_soft_pick = -1; /* the term fitted, left out of the walks */
    joint *t = NULL, *w = NULL;
    *out = NULL;
    int rc = joint_init(&t, v, &p0, err);
    if (rc != PB_OK)
        return rc;
    if (!joint_thread_mute(t, 1) || !joint_thread_free_any(t)) {
        /* no service weighed, or every pair made by call id (the term 0
         * on every pair): the output as is */
        *out = t;
        return PB_OK;
    }
    size_t n = v->n;
    uint32_t *mate = malloc((n + 1) * sizeof *mate);
    if (!mate) {
        joint_close(t);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "joint: out of memory");
    }
    for (size_t i = 0; i < n; i++)
        mate[i] = JOINT_NONE;
    for (uint32_t q = 0; q < t->npairs; q++) {
        uint32_t c = t->pr[q].call, r = t->pr[q].ret;
        if (c != JOINT_NONE && r != JOINT_NONE) {
            mate[c] = r;
            mate[r] = c;
        }
    }
    joint_params pw = *params; /* the term on; the first's order model (held or free) */
    rc = joint_search_given(&w, v, &pw, err, t->pord_hold, mate, NULL);
    free(mate);
    if (rc != PB_OK) {
        joint_close(t);
        return rc;
    }
    joint_thread_mute(w, 1);
    double lw = joint_loglik(w), lt = joint_loglik(t);
    joint_thread_mute(w, 0);
    /* the first search's records (metadata) go with the output */
    w->p.thread_soft_pick = params->thread_soft_pick;
    w->pord_chosen = t->pord_chosen;
    memcpy(w->pord_ll, t->pord_ll, sizeof w->pord_ll);
    memcpy(w->pick_sum, t->pick_sum, sizeof w->pick_sum);
    memcpy(w->part_sum, t->part_sum, sizeof w->part_sum);
    w->ser_declined = t->ser_declined;
    memcpy(w->ser_free, t->ser_free, sizeof w->ser_free);
    joint_heldskip_carry(w, t);
    joint_heldlocal_carry(w, t);
    w->unp_rec = t->unp_rec;
    w->nunp_rec = t->nunp_rec;
    w->unp_changed = t->unp_changed;
    w->unp_rerun = t->unp_rerun;
    t->unp_rec = NULL;
    t->nunp_rec = 0;
    w->thrpick[3] = 5;
    w->thrpick[4] = lw;
    w->thrpick[5] = lt;
    w->thrpick[6] = 1;
    joint_close(t);
    *out = w;
    return PB_OK;
}
