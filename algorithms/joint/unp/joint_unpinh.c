/*
 * joint_unpinh.c - unpaired=1's second search takes the first search's
 * verdict on its learned parallel calls (`unp_pcheck`, default 0 = off;
 * docs/joint/loss_late.md, "The loss rule's cost: where a lossy input
 * pays, and the second search's parallel checks (h241)").
 *
 * Without call ids a lossy trace learns parallel calls that the loss
 * made (a call whose return was lost looks open beside its siblings) and
 * drops them at a later refit: parallel_check_bb (joint_bbserial.c) then
 * runs its early run (the held search without learned parallel calls)
 * and its gate (the kept search again without them), two searches more
 * than the lossless trace's two.  unpaired=1 (joint_unpaired.c) runs the
 * whole choice again with the forced messages (joint_choose.c's
 * joint_init_search): the same trace but for those messages, so the same
 * calls are learned and dropped and the same two searches run again,
 * mostly to the same verdict (hotel 100 at 2 % loss: the learned call
 * ties the search without it to the nat in the first search).
 *
 * With unp_pcheck=1 the second search runs no parallel check: it takes
 * the first search's verdict.  The first search kept a search without
 * learned parallel calls (the early run or the gate chose it): the second
 * runs with parallel=1 (none learned, no check).  Else (the learned calls
 * kept, or none dropped, or none learned): the second runs with
 * parallel_check_bb=0 (its calls learned as they come, kept).  The kept
 * solution's options are restored after it (the self-calibration's copy
 * runs as before).  Changes results where the second search's own check
 * would have decided otherwise.  Metadata: unp_pcheck=inherited
 * first=without|learned.
 */
#include "joint_int.h"

#include <string.h>

/* the second search's options into *p2 (a copy of params); 1 when the
 * rule changed them */
int joint_unpinh_params(const joint *s, const joint_params *params, joint_params *p2)
{
    *p2 = *params;
    if (params->unp_pcheck <= 0 || !params->parallel_check_bb || params->parallel >= 1)
        return 0;
    if (s->p.parallel >= 1) /* the first search kept a search without them */
        p2->parallel = 1;
    else
        p2->parallel_check_bb = 0;
    return 1;
}

/* after the second search t: the caller's options back (what the kept
 * solution's copies read), the record for the metadata */
void joint_unpinh_after(joint *t, const joint_params *params, const joint_params *p2)
{
    if (params->unp_pcheck <= 0 || !params->parallel_check_bb || params->parallel >= 1)
        return;
    t->p.parallel_check_bb = params->parallel_check_bb;
    t->p.unp_pcheck_rec = p2->parallel >= 1 ? 2 : 1;
}

int joint_unpinh_meta(const joint *s, pb_result *res)
{
    if (s->p.unp_pcheck_rec <= 0)
        return PB_OK;
    return pb_result_meta(res, "unp_pcheck=inherited first=%s",
                          s->p.unp_pcheck_rec == 2 ? "without" : "learned");
}
