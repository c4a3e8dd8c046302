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
 */
#include "joint_int.h"

int joint_unpc_mode(const joint_params *p)
{
    return p->sel_from && p->unpaired == 1 ? p->unp_copy : 0;
}
