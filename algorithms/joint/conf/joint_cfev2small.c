/*
 * joint_cfev2small.c - conf_copy_events_second_share: the second copy of
 * conf_copy_events_second made smaller (docs/joint/confidence_w34.md,
 * "A smaller second copy (conf_copy_events_second_share, h296)").
 *
 * Why.  conf_copy_events_second draws one more calibration copy where the
 * events map alone decides a share of the rows; on OnlineBoutique 07:11
 * with call ids that costs +27 % of the run's instructions (h279), the
 * second copy as large as the first.  The second copy only has to tell a
 * lucky first draw from a link right by structure (with
 * conf_copy_events_agree: whether it errs on the link no more often than
 * the first), so a copy of a share f of the first's pairs may do.
 *
 * The rule.  While the second copy is made, the calibration copy's share
 * of the trace (conf_sim_share) and its least pairs (conf_copy_pairs, or
 * conf_sim_pairs where that is 0) are taken f times (at least one pair),
 * then put back.  f = 1 (the default): as before.  Confidences only.
 */
#include "joint_int.h"

void joint_cfev2s_shrink(joint *s)
{
    double f = s->p.conf_copy_events_second_share;
    if (!(f > 0) || !(f < 1))
        return;
    int floor_pairs = s->p.conf_copy_pairs > 0 ? s->p.conf_copy_pairs : s->p.conf_sim_pairs;
    int fp = (int)(f * floor_pairs + 0.5);
    s->p.conf_sim_share *= f;
    s->p.conf_copy_pairs = fp > 0 ? fp : 1;
}
