/*
 * joint_unpwboth.c - joint without call ids, under loss: the loss rule's
 * whole second search as two warm searches, the free one from the first
 * search's free solution and the held one from its held solution, chosen
 * again as the first search chose (`unp_wboth`, default 0 = off;
 * docs/joint/loss_w36.md, "The loss rule's cost: both second searches
 * warm (h311)").
 *
 * Where unpaired's window holds over unp_win_max of the messages the
 * second search runs on the whole trace from scratch, the free and the
 * held search each from the first-come start.  unp_warm=1 (h268) made it
 * one warm search of the first search's kind, which cannot make the free /
 * held flip the whole second search makes on OnlineBoutique 03:53.  Here
 * the first search's other solution (the one it did not keep; where
 * sv_lazy paused it, its state at the mark) is kept beside the first
 * (joint_choose.c's `other`), and each of the two second searches starts
 * from its own kind's solution (joint_unpwarm_start: the pairs of links
 * without a changed message, on changed links the messages that stay
 * paired first in, first out, every call at its first-search parent
 * where that is a candidate), then runs its own rounds (unp_repair /
 * unp_swaps, joint_unprounds.c, apply to both).  The choice is the
 * likelihood's with JOINT_RESTART_MARGIN, tie_choose's adjustment and
 * the busy test (joint_pick), as init_choose_g makes it; busy_partial's
 * third search and the learned parallel calls' checks are not run.
 * Where the first search has no other solution (pair_window decided,
 * held_skip skipped the held search, busy_partial's third search kept)
 * the default's second search runs.  Metadata: unp_win=whole ...
 * search=warm_both.
 */
#include "joint_int.h"
#include <stdlib.h>
#include <string.h>

/* one warm search of kind pord from solution f */
static int uwb_one(joint **out, const pb_trace_view *v, const joint_params *params,
                   const joint *f, const unsigned char *force, int pord, pb_error *err)
{
    size_t n = v->n;
    uint32_t *mate = malloc((n + 1) * sizeof *mate), *gpar = malloc((n + 1) * sizeof *gpar);
    int rc = mate && gpar ? joint_unpwarm_start(f, force, mate, gpar) : PB_ENOMEM;
    if (rc != PB_OK) {
        free(mate);
        free(gpar);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "joint: out of memory");
    }
    joint_params pw = *params;
    if (pord)
        pw.order = "on";
    unsigned char *chg = NULL; /* unp_wlocal (joint_unpwlocal.c) */
    if (params->unp_wlocal > 0) {
        if (!(chg = malloc(n + 1))) {
            free(mate);
            free(gpar);
            return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "joint: out of memory");
        }
        chg[n] = (unsigned char)params->unp_wlocal; /* the mode, in the last byte */
        if (joint_uwl_changed(f, force, chg) != PB_OK) {
            free(mate);
            free(gpar);
            free(chg);
            return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "joint: out of memory");
        }
        pw.uwl_chg = chg;
    }
    rc = joint_init_one_g(out, v, &pw, err, pord, NULL, NULL, mate, gpar, 1);
    free(mate);
    free(gpar);
    if (rc == PB_OK) {
        (*out)->p.order = params->order;
        joint_uwl_done(*out);
        (*out)->p.uwl_chg = NULL;
    }
    free(chg);
    return rc;
}

int joint_unpwb_second(joint **out, const pb_trace_view *v, const joint_params *params,
                       const joint *f, const unsigned char *force, pb_error *err, int *done)
{
    *out = NULL;
    *done = 0;
    const joint *o = f->uwb_other;
    if (params->unp_wboth <= 0 || !o || o->pord_hold == f->pord_hold || f->part_sum[3] != 0)
        return PB_OK;
    const joint *ff = f->pord_hold ? o : f, *fh = f->pord_hold ? f : o;
    joint *a = NULL, *b = NULL;
    int rc = uwb_one(&a, v, params, ff, force, 0, err);
    if (rc == PB_OK)
        rc = uwb_one(&b, v, params, fh, force, 1, err);
    if (rc != PB_OK) {
        joint_close(a);
        return rc;
    }
    double l0[2] = {0, 0}, lo[2] = {0, 0};
    rc = joint_llshare_scores(a, b, l0, lo);
    double c0a = l0[0], c0b = l0[1];
    joint_tiechoose_adjust(a, b, &c0a, &c0b);
    joint *keep = c0b > c0a + JOINT_RESTART_MARGIN ? b : a;
    double *pst = NULL, psum[3] = {0, 0, 0};
    int pick_held = keep == b;
    if (rc == PB_OK && params->busy_test) {
        rc = joint_pick(a, b, &pst, psum, &pick_held);
        if (rc == PB_OK && pick_held)
            keep = b;
    }
    if (rc != PB_OK) {
        free(pst);
        joint_close(a);
        joint_close(b);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "joint: out of memory");
    }
    joint_close(keep == a ? b : a);
    keep->pord_chosen = keep == b ? 2 : 1;
    keep->pord_ll[0] = l0[0];
    keep->pord_ll[1] = l0[1];
    keep->pord_ll[2] = lo[0];
    keep->pord_ll[3] = lo[1];
    free(keep->pick_stat);
    keep->pick_stat = pst;
    keep->pick_sum[0] = psum[0];
    keep->pick_sum[1] = psum[1];
    keep->pick_sum[2] = pick_held;
    keep->pick_sum[3] = psum[2];
    keep->uwb_rec[0] = 1;
    keep->uwb_rec[1] = f->pord_hold ? 2 : 1;
    keep->uwb_rec[2] = keep->pord_chosen;
    keep->uwb_rec[3] = o->sv_paused;
    *out = keep;
    *done = 1;
    return PB_OK;
}

int joint_unpwb_meta(const joint *s, pb_result *res)
{
    if (s->uwb_rec[0] == 0)
        return PB_OK;
    return pb_result_meta(res, "unp_wboth first=%s second=%s other_paused=%d",
                          s->uwb_rec[1] == 2 ? "held" : "free",
                          s->uwb_rec[2] == 2 ? "held" : "free", (int)s->uwb_rec[3]);
}
