/*
 * joint_bbser.c - joint without call ids: a request's calls one at a time
 * (bb_serial; docs/joint/accuracy_w36.md, "OnlineBoutique without call
 * ids: where the errors are (h304)"; issue 28).
 *
 * loss_serial's term (joint_lserial.c) prices an output sent while an
 * earlier call of its request is still out, per outgoing link, on the
 * links its serial test calls one at a time (3: at the rate learned from
 * the solution, at most 1/2; 4: as if none of the link's outputs
 * overlapped).  It was built for traces with call ids, where every pair
 * is fixed; without call ids the pairs move (the re-pairing and the
 * exchanges), and the term reads whichever pair a call has when a walk
 * is scored, as every other term does.
 *
 * Why: counted against the truth (evaluation only) on OnlineBoutique
 * 03:53 as a black box, the front end never has two calls of a request
 * out (each of its 5,008 inputs triggers at most one call), but the
 * search gives 112 inputs two calls and 4 three: where two requests'
 * returns arrive within microseconds, one request takes both next calls
 * and its neighbour's chain continues elsewhere.  The delay densities
 * score both alike (the latest input triggers either call after a few
 * microseconds); nothing in the walk says the request already had a
 * call out.  With the term (bb_serial=3) 9 such inputs are left and
 * exact accuracy goes 65.2 -> 71.0 %.
 *
 * Only where every pair is free of call ids' help somewhere (the trace
 * has free returns) and nothing was lost (a lossy trace has loss_serial's
 * own rules).  The term, its test and its metadata line (loss_serial=test
 * links_tested= links_priced=) are loss_serial's; this file only decides
 * whether it applies and says so (bb_serial=).
 */
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>

static int bbser_trace(const joint *s)
{
    return !(s->halves_call + s->halves_ret) && joint_any_free(s);
}

int joint_bbser_applies(const joint *s)
{
    return (s->p.bb_serial == 3 || s->p.bb_serial == 4) && bbser_trace(s);
}

/* bb_serial=7: the term only guides a second inference (bb_serial=3),
 * kept where the model without the term finds its solution likelier by
 * JOINT_RESTART_MARGIN nats (joint_lser_choose, loss_serial=7's rule; the
 * driver in joint.c).  Why: on the held-out application shapes the term's
 * searches land both ways (async s2 x1 1 ms 60.2 -> 56.0 %, cache s2 x2
 * 1 ms 38.3 -> 44.2 %), and the model without the term tells them apart
 * on every row measured: its log-likelihood of the term's solution less
 * main's, OB 17:00 +542.6, 03:53 +960.2, 06:35 +465.6 nats (up), async
 * -96.9, retry s3 x2 -107.4 (down), cache s2 x2 1 ms +740.5 (up); OB
 * 07:11 -40.2 (up 1.6 points: kept out).  The number of links the serial
 * test calls serial on the first solution, 0 when none (no second
 * inference), -1 without memory */
int joint_bbser_wanted(joint *s)
{
    if (s->p.bb_serial != 7 || !bbser_trace(s))
        return 0;
    unsigned char *ser = calloc((size_t)s->nlinks + 1, 1);
    int n = ser ? joint_lser_serial_links(s, ser) : -1;
    if (n > 0 && s->p.bb_serial_warm) { /* no call stacked: nothing for the term to move */
        unsigned char *st = calloc((size_t)s->npairs + 1, 1);
        size_t nout = 0;
        if (!st)
            n = -1;
        else if (joint_lser_stacks(s, ser, st, &nout) == 0) {
            s->bbw_rec[7] = 1; /* none stacked: no second inference */
            s->bbw_rec[4] = 0;
            s->bbw_rec[6] = 0;
            s->bbw_rec[1] = (double)n; /* the serial links, for the line */
            n = 0;
        }
        free(st);
    }
    free(ser);
    s->lser_bbck = n > 0;
    return n;
}

static int bbser_warm_meta(const joint *s, pb_result *res);

int joint_bbser_meta(const joint *s, pb_result *res)
{
    if (bbser_warm_meta(s, res) != PB_OK)
        return PB_ENOMEM;
    if (!s->lser_bb)
        return PB_OK;
    return pb_result_meta(res, "bb_serial=%d (loss_serial's term without call ids on the links "
                          "its test calls serial; the loss_serial=test line counts them)",
                          s->p.bb_serial);
}

/* the first message of pair q of o: its call, else its return */
/* bb_serial_warm: bb_serial=7's second inference (params pr, the term's)
 * set up on s's pairs, still free to be re-paired, and parents (as
 * held_warm gives the held search the free one's: joint_heldwarm.c), in
 * s's order choice, with bb_serial_repair re-pairing rounds and
 * bb_serial_swaps swap rounds; then the same check as from scratch.  Why:
 * from scratch it is a whole search more (OnlineBoutique as a black box:
 * about +50 % instructions); the term moves the stacked calls and the
 * requests around them, and the rest of the first solution is a start
 * the term does not dispute.  PB_OK or an error (err set) */
int joint_bbser_second(joint **out, joint *s, const pb_trace_view *v, const joint_params *pr,
                       pb_error *err)
{
    *out = NULL;
    if (pr->bb_serial_warm >= 2) { /* the window (joint_bbwin.c) */
        int rc = joint_bbwin_run(out, s, v, pr, err);
        if (rc != PB_OK || *out)
            return rc;
    }
    uint32_t *mate, *gpar;
    size_t np, ng;
    int rc0 = joint_heldwarm_start(s, v->n, &mate, &gpar, &np, &ng, err);
    if (rc0 != PB_OK)
        return rc0;
    joint_params pw = *pr;
    if (pr->bb_serial_repair >= 0)
        pw.repair = pr->bb_serial_repair;
    if (pr->bb_serial_swaps >= 0)
        pw.swap_rounds = pr->bb_serial_swaps;
    joint *t = NULL;
    int rc = joint_init_one_g(&t, v, &pw, err, s->pord_hold, NULL, NULL, mate, gpar, 1);
    free(mate);
    free(gpar);
    if (rc != PB_OK)
        return rc;
    t->p.repair = pr->repair;
    t->p.swap_rounds = pr->swap_rounds;
    memcpy(t->bbw_rec, s->bbw_rec, sizeof t->bbw_rec);
    t->bbw_rec[0] = 1;
    t->bbw_rec[1] = (double)np;
    t->bbw_rec[2] = (double)ng;
    t->bbw_rec[3] = t->hwarm[3]; /* parents set (joint_heldwarm_apply) */
    s->bbw_rec[0] = 1;
    s->bbw_rec[1] = (double)np;
    s->bbw_rec[2] = (double)ng;
    s->bbw_rec[3] = t->hwarm[3];
    *out = t;
    return PB_OK;
}

static int bbser_warm_meta(const joint *s, pb_result *res)
{
    if (s->bbw_rec[7] == 3 && s->p.bb_serial_seeds > 0) /* joint_bbseeds.c */
        return pb_result_meta(res, "bb_serial_warm=window stacks=%.0f seeds=%.0f window_msgs=%.0f "
                              "of_msgs=%zu limit=%g seeds_k=%d stacked_req=%.0f of_req=%.0f "
                              "stacks_after=%.0f%s", s->bbw_rec[4], s->bbw_rec[5], s->bbw_rec[6],
                              s->v.n, s->p.bb_serial_win_max, s->p.bb_serial_seeds,
                              s->bbs_rec[1], s->bbs_rec[0], s->bbs_rec[2],
                              s->bbs_rec[3] > 0 ? " refused=removed_under (bb_serial_removed: "
                                                  "the solution without the term kept)" : "");
    if (s->bbw_rec[7] == 3)
        return pb_result_meta(res, "bb_serial_warm=window stacks=%.0f seeds=%.0f window_msgs=%.0f "
                              "of_msgs=%zu limit=%g", s->bbw_rec[4], s->bbw_rec[5],
                              s->bbw_rec[6], s->v.n, s->p.bb_serial_win_max);
    if (s->bbw_rec[7] == 1 && s->bbw_rec[0] <= 0)
        return pb_result_meta(res, "bb_serial_warm=none reason=none_stacked serial_links=%.0f "
                              "(no second inference)", s->bbw_rec[1]);
    if (s->bbw_rec[7] == 2 && pb_result_meta(res, "bb_serial_warm=whole reason=window_over_max "
                                             "stacks=%.0f window_msgs=%.0f of_msgs=%zu limit=%g",
                                             s->bbw_rec[4], s->bbw_rec[6], s->v.n,
                                             s->p.bb_serial_win_max) != PB_OK)
        return PB_ENOMEM;
    if (s->bbw_rec[0] <= 0)
        return PB_OK;
    return pb_result_meta(res, "bb_serial_warm=warm pairs_given=%.0f parents_given=%.0f "
                          "parents_set=%.0f repair=%d swap_rounds=%d", s->bbw_rec[1],
                          s->bbw_rec[2], s->bbw_rec[3],
                          s->p.bb_serial_repair >= 0 ? s->p.bb_serial_repair : s->p.repair,
                          s->p.bb_serial_swaps >= 0 ? s->p.bb_serial_swaps : s->p.swap_rounds);
}
