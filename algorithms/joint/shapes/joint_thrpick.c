/*
 * joint_thrpick.c - thread_soft's term kept out of the choice between the
 * free and the held search (thread_soft_pick; docs/joint/shapes.md
 * "thread_soft's term out of the choice of search (h209)"; issue 28).
 *
 * Why.  thread_soft (joint_thread.c) adds the receiving thread to the
 * likelihood of pairs made without call ids.  Without call ids and
 * pair_order=auto two searches run (joint.c init_choose), and the one kept
 * is the likelier.  With the term in that comparison, the term decides
 * which search is kept as well as steering each: at a pool at twice its
 * load (experiments/joint_models_pool.conf x2 1 us, seed 1) the held
 * search was kept by 49.9 nats without the term and thrown away by 73.8
 * with it, the busy test then judged otherwise, and 14 of 797 requests
 * were lost (h200, h204).  The choice of search is a choice of the order
 * model (do answers keep their calls' order?), which the thread says
 * nothing about; the term's evidence is in each search's pairing already.
 *
 * The rule.  Where the term weighs some service (of either search), both
 * solutions' log-likelihoods are recomputed with the term left out (the
 * same walks, O(n)); the choice uses those (the order scores reported
 * beside them keep the term).  Metadata thread_soft_pick= with the two log-likelihoods with the
 * term, for the record.  Nothing changes where the term weighs no service.
 */
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>

int joint_thrpick_scores(joint *a, joint *b, double l0[2])
{
    a->thrpick[0] = 0;
    if (a->p.thread_soft_pick <= 0 || !(a->p.thread_soft > 0))
        return PB_OK; /* off, or thread_soft_pick=4's search without the term (muted) */
    int on = joint_thread_mute(a, 1);
    if (b)
        on |= joint_thread_mute(b, 1);
    if (on) {
        a->thrpick[1] = l0[0];
        a->thrpick[2] = l0[1];
        a->thrpick[0] = 1;
        l0[0] = joint_loglik(a);
        if (b)
            l0[1] = joint_loglik(b);
    }
    joint_thread_mute(a, 0);
    if (b)
        joint_thread_mute(b, 0);
    return PB_OK;
}

int joint_thrpick_wanted(const joint_params *p)
{
    return p->thread_soft_pick >= 2 && p->thread_soft > 0;
}

int joint_thrpick_init(joint **out, const pb_trace_view *v, const joint_params *params,
                       pb_error *err)
{
    if (params->thread_soft_pick == 5)
        return joint_thrwarm_init(out, v, params, err); /* joint_thrwarm.c (h217) */
    joint_params p1 = *params;
    p1.thread_soft_pick = 1; /* the inner runs: the choice of search without the term */
    joint *s = NULL, *t = NULL;
    *out = NULL;
    int rc = joint_init(&s, v, &p1, err);
    if (rc != PB_OK)
        return rc;
    s->p.thread_soft_pick = params->thread_soft_pick;
    int on = joint_thread_mute(s, 1);
    double ls = on ? joint_loglik(s) : 0;
    joint_thread_mute(s, 0);
    unsigned char *mask = NULL; /* thread_soft_starts_end (joint_thrsend.c) */
    rc = joint_thrse_mask(s, params, &mask);
    if (rc != PB_OK) {
        joint_close(s);
        return rc;
    }
    if (!on) {
        *out = s; /* nothing weighed: its ll is the one without the term */
        return joint_thrse_end(out, mask, v, params, mask ? joint_loglik(s) : 0, err);
    }
    joint_params p0 = p1;
    if (params->thread_soft_pick == 4 || params->thread_soft_pick >= 6)
        p0.thread_soft_pick = -1; /* the term fitted but left out of every walk */
    else
        p0.thread_soft = 0;
    rc = joint_init(&t, v, &p0, err);
    if (rc != PB_OK) {
        free(mask);
        joint_close(s);
        return rc;
    }
    joint_thread_mute(t, 1);
    double lt = joint_loglik(t);
    int with;
    if (params->thread_soft_pick >= 6) {
        with = params->thread_soft_pick == 7 ? joint_thrmove_pick(s, t, ls, lt) /* joint_thrmove.c (h245) */
                                             : joint_thrtest_pick(s, t, ls, lt); /* joint_thrtest.c (h233) */
        t->p.thread_soft_pick = params->thread_soft_pick;
    } else if (params->thread_soft_pick == 4) {
        /* both under the whole model, the term with each one's own fitted
         * rates: the term's solution kept unless the other is likelier by
         * more than JOINT_RESTART_MARGIN */
        joint_thread_mute(t, 0);
        ls = joint_loglik(s);
        lt = joint_loglik(t);
        t->p.thread_soft_pick = params->thread_soft_pick;
        with = !(lt > ls + JOINT_RESTART_MARGIN);
    } else {
        /* 2: the term's solution kept unless the model without the term
         * finds the other likelier by more than JOINT_RESTART_MARGIN; 3:
         * kept only when it is likelier by more than that */
        with = params->thread_soft_pick == 2 ? !(lt > ls + JOINT_RESTART_MARGIN)
                                             : ls > lt + JOINT_RESTART_MARGIN;
    }
    joint *keep = with ? s : t;
    joint_thrheld_carry(keep, s); /* thread_soft_heldout (joint_thrheld.c) */
    if (!with)
        memcpy(keep->thrpick, s->thrpick, 3 * sizeof *keep->thrpick);
    keep->thrpick[3] = params->thread_soft_pick;
    keep->thrpick[4] = ls;
    keep->thrpick[5] = lt;
    keep->thrpick[6] = with;
    joint_close(with ? t : s);
    *out = keep;
    return joint_thrse_end(out, mask, v, params, with ? ls : lt, err);
}

int joint_thrpick_meta(const joint *s, pb_result *res)
{
    int rc = joint_thrheld_meta(s, res); /* thread_soft_heldout (joint_thrheld.c) */
    if (s->thrpick[0])
        rc = pb_result_meta(res, "thread_soft_pick=on free_ll_with_term=%.1f "
                            "held_ll_with_term=%.1f",
                            s->thrpick[1], s->thrpick[2]);
    if (rc == PB_OK && s->thrpick[3])
        rc = pb_result_meta(res, "thread_soft_check=%s ll_with_term_search=%.1f "
                            "ll_without_term_search=%.1f kept=%s",
                            s->thrpick[3] == 5 ? "warm_start" : s->thrpick[3] == 4 ? "whole_model" : "without_term",
                            s->thrpick[4], s->thrpick[5],
                            s->thrpick[6] ? "with_term" : "without_term");
    if (rc == PB_OK)
        rc = joint_thrse_meta(s, res); /* thread_soft_starts_end (joint_thrsend.c) */
    return rc;
}
