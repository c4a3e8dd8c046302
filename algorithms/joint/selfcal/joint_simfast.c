/*
 * joint_simfast.c - joint: the self-calibration's copy searched more
 * cheaply (docs/joint/confidence_late.md, "The copy's search made
 * cheaper (h196)").
 *
 * The self-calibration (joint_selfcal.c) makes the trace again from the
 * solution with a known truth and runs the same search on it, to learn how
 * often each stated confidence is right.  That search is a second
 * inference on its window (10-39 % of a run on the real sets).
 *
 *   - conf_copy_start (default 1): the copy searches once.  With call ids
 *     the real search may solve a second time from start=earliest when
 *     its solution refutes the rank start (restart, joint.c); the copy
 *     ran that test and second search again.  Now it starts as the real
 *     search kept (rank, or earliest where the second start was kept)
 *     with restart off, as joint_copy_params takes the other choices of
 *     the real search (pair_order, parallel, reunp, unpaired ...).  On
 *     every real set the copy's own test had chosen the same: the same
 *     confidences, 7-8 % fewer instructions on TrainTicket with call ids.
 *   - conf_copy_repair, conf_copy_swaps, conf_copy_passes (default -1,
 *     off): bounds on the copy's re-pairing rounds, exchange rounds and
 *     re-split passes.  Measured: a copy that pairs worse than the real
 *     search lowers the maps (coverage lost on the eBPF capture), so off.
 *
 * Only the copy's search reads them, so the output's paths are the same;
 * its confidences may change.
 */
#include "joint_int.h"

#include <string.h>

void joint_simfast_params(joint *s, joint_params *p2)
{
    const joint_params *p = &s->p;
    if (p->conf_copy_repair >= 0 && p2->repair > p->conf_copy_repair)
        p2->repair = p->conf_copy_repair;
    if (p->conf_copy_swaps >= 0 && p2->swap_rounds > p->conf_copy_swaps)
        p2->swap_rounds = p->conf_copy_swaps;
    if (p->conf_copy_passes >= 0 && p2->passes > p->conf_copy_passes)
        p2->passes = p->conf_copy_passes;
    /* conf_copy_start: the start the real search kept (s->restart: 0 the
     * rank start not refuted, 1 the second start tried and rejected, 2
     * kept), as joint_copy_params takes pair_order's choice */
    s->sfast_start = 0;
    if (p->conf_copy_start && p2->restart && (!p2->start || !strcmp(p2->start, "rank"))) {
        p2->restart = 0;
        s->sfast_start = 1;
        if (s->restart == 2) {
            p2->start = "earliest";
            s->sfast_start = 2;
        }
    }
}

int joint_simfast_meta(const joint *s, pb_result *res)
{
    const joint_params *p = &s->p;
    int rc = PB_OK;
    if (!s->scal_done)
        return PB_OK;
    /* said where the real search tried a second start (with
     * conf_copy_start=0 too: what the copy's own test did) */
    if (s->restart)
        rc = pb_result_meta(res, "conf_copy_start=%d copy_start=%s real_second_start=%s "
                            "copy_second_start=%s",
                            p->conf_copy_start,
                            s->sfast_start == 2 ? "earliest" : s->sfast_start ? "rank" : "own_test",
                            s->restart == 2 ? "kept" : "rejected",
                            s->sfast_restart == 2   ? "kept"
                            : s->sfast_restart == 1 ? "rejected"
                                                    : "none");
    if (rc == PB_OK && (p->conf_copy_repair >= 0 || p->conf_copy_swaps >= 0 ||
                        p->conf_copy_passes >= 0))
        rc = pb_result_meta(res, "conf_copy_repair=%d conf_copy_swaps=%d conf_copy_passes=%d "
                            "(the calibration copy's search bounded)",
                            p->conf_copy_repair, p->conf_copy_swaps, p->conf_copy_passes);
    return rc;
}
