/*
 * joint_unpcopy.c - joint without call ids, under loss: the loss rule's
 * second search inside a copy of the trace (`unp_copy`, default 0 = off;
 * docs/joint/loss_late.md, "The loss rule's cost: the copies' second
 * search (h259)").
 *
 * A copy (joint_copy_params: the self-calibration's copies, reunp's
 * check; p.sel_from set) is a trace simulated from the real output that
 * loses halves at the trace's rate (conf_sim_loss, joint_calibloss.c), so
 * its search runs the loss rule too: unpaired's choice, and where it
 * changes messages the second search, on a window of the requests around
 * them or, where that window holds over unp_win_max of the messages, on
 * the whole copy (OnlineBoutique 03:53 at 5 % loss: both copies, 3.2 G of
 * 11.8 G instructions).  The copy's rows only measure how often the real
 * search is right; the assignment is the real search's.
 *
 * unp_copy=1: in a copy the second search runs on its window at any size
 * (never the whole copy).  2: on unp_alt=2's local window (each changed
 * message's own pair widened by its link's median pair), at any size.
 * 3: no second search in a copy (the copy keeps its first search, as with
 * unpaired=0, after unpaired's choice, whose record stays).  Confidences
 * only: the real trace's search is untouched, so the assignment rows are
 * the same (checked with cmp); the copy's rows, and so the map, move.
 * Metadata (where unp_copy is set): unp_copy=N copies= changed= window=
 * over_max= (the self-calibration's lossy copies; those whose unpaired
 * choice changed messages; whose second search ran on a window; whose
 * window held over unp_win_max of the copy's messages, where the default
 * searches the whole copy).  One hook in joint_selfcal.c (sim_points: joint_unpc_count).
 */
#include "joint_int.h"

int joint_unpc_mode(const joint_params *p)
{
    return p->sel_from && p->unpaired == 1 ? p->unp_copy : 0;
}

void joint_unpc_count(joint *s, const joint *s2)
{
    if (!s2 || s->p.cfr_plain)
        return; /* not a lossy copy, or conf_ratio_copy's plain one (its counters left out) */
    s->unpc_rec[0]++;
    s->unpc_rec[1] += s2->unp_changed > 0;
    s->unpc_rec[2] += s2->unpw_on == 1;
    s->unpc_rec[3] += s2->unpw_on >= 2 ||
                      (s2->unpw_on == 1 && (double)s2->unpw_msgs > s2->p.unp_win_max * (double)s2->v.n);
}

int joint_unpc_meta(const joint *s, pb_result *res)
{
    if (!s->p.unp_copy)
        return PB_OK;
    return pb_result_meta(res, "unp_copy=%d copies=%zu changed=%zu window=%zu over_max=%zu",
                          s->p.unp_copy, s->unpc_rec[0], s->unpc_rec[1], s->unpc_rec[2],
                          s->unpc_rec[3]);
}
