/*
 * joint_unpck.c - which messages stay unpaired, checked by the likelihood
 * of the requests they leave (`-s unpaired=3`; docs/joint/shapes.md,
 * "Which messages stay unpaired, checked by the likelihood"; issue 28,
 * "Robust to loss" without call ids).
 *
 * On a link that answers far out of arrival order the in-order alignment
 * (joint_align.c) gets the count of messages that lost their partner
 * wrong, not only the choice (client>frontend of
 * experiments/joint_loss_order.conf: 44 truly unpaired, 20 left unpaired,
 * 1 of them truly), so nothing that only trades one half call for another
 * (reunp) can fix it.  unpaired=1 (joint_unpaired.c) chooses the set
 * afresh on such links, count included, calls and returns alike: a
 * min-cost pairing by the link's re-paired durations with each unpaired
 * message priced by the trace's loss rate, then a second search with the
 * chosen messages forced unpaired, so the requests are searched again
 * around them.  It helps the order class and costs OnlineBoutique; the
 * durations alone cannot tell the two apart.  The requests can: the
 * choice is right when the requests the second search builds around it
 * are likelier under the model.
 *
 * With unpaired=3 the first search, the priced choice and the second
 * search run as with unpaired=1; the second search is kept when
 * joint_loglik of its solution (under its own refit) beats the first
 * search's by more than JOINT_RESTART_MARGIN nats (the rule every other
 * choice between two whole searches uses: free / held, parallel flags).
 * Otherwise the first search stays, and the links' choices are reported
 * as declined.  Metadata: unpaired_check=loglik first=LL priced=LL
 * chosen=with|without, and on each weighed link's unpaired_link line
 * chosen=priced (used), priced_declined, first, first_in_order or
 * first_flow_failed.  Cost: unpaired=1's (the second search, where some
 * link's choice changed).  Without loss no message is unpaired: nothing
 * runs.
 */
#include "joint_int.h"

int joint_unpck_take(joint *s, joint *t)
{
    double l0 = joint_loglik(s), l1 = joint_loglik(t);
    int take = l1 > l0 + JOINT_RESTART_MARGIN;
    s->unp_ll[0] = t->unp_ll[0] = l0;
    s->unp_ll[1] = t->unp_ll[1] = l1;
    s->unpck = t->unpck = take ? 2 : 1;
    return take;
}

void joint_unpck_adopt(joint *b, const joint *a)
{
    b->unpck = a->unpck;
    b->unp_ll[0] = a->unp_ll[0];
    b->unp_ll[1] = a->unp_ll[1];
}

int joint_unpck_meta(const joint *s, pb_result *res)
{
    if (!s->unpck)
        return PB_OK;
    return pb_result_meta(res, "unpaired_check=loglik first=%.1f priced=%.1f chosen=%s",
                          s->unp_ll[0], s->unp_ll[1], s->unpck == 2 ? "with" : "without");
}
