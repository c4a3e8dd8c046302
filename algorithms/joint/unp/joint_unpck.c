/*
 * joint_unpck.c - which messages stay unpaired, checked by the requests
 * they leave (`-s unpaired=3`; docs/joint/loss.md, "Which messages stay
 * unpaired, checked"; issue 28, "Robust to loss" without call ids).
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
 * durations alone cannot tell (test_joint_unpck.c works a link where
 * they prefer the wrong count by hand).
 *
 * With unpaired=3 the first search, the priced choice and the second
 * search run as with unpaired=1, and the second search is kept only when
 * two checks agree:
 *  1. the model: joint_loglik of its solution (under its own refit) beats
 *     the first search's by more than JOINT_RESTART_MARGIN nats (the rule
 *     of every other choice between two whole searches).  Alone it took
 *     the choice on OnlineBoutique 07:11, where it costs 12-17 intact
 *     requests of 87-107 (the model family there prefers wrong requests,
 *     as uncross_check found);
 *  2. a copy with a known truth: a copy of the trace made from the first
 *     search's solution (joint_selfcal_copy over the whole trace, seed
 *     conf_seed + JOINT_UNPCK_SEED) that then loses each call and return
 *     afresh at the share of the solution's messages left without a
 *     partner (joint_copy_drop, as reunp=2's copy: the alignment must
 *     count loss as on the real trace), searched with unpaired=0 and 1;
 *     over the solution's top-level requests, b come out exact only with
 *     the choice and c only without; the choice changed a link there and
 *     b > c by the one-sided sign test at JOINT_REUNP_ALPHA (5 %).  Run
 *     only when 1. said yes (two searches of the copy).
 * Otherwise the first search stays and the links' choices are reported
 * as declined.  Metadata: unpaired_check=loglik first=LL priced=LL
 * [copy changed_in_copy=N right_only_with=B right_only_without=C]
 * chosen=with|without, and on each weighed link's unpaired_link line
 * chosen=priced (used), priced_declined, first, first_in_order or
 * first_flow_failed.  Without loss no message is unpaired: nothing runs.
 */
#include "joint_int.h"


static void unpaired_variant(joint_params *p, int v) { p->unpaired = v; }

/* check 2: the copy.  *use = 1 when the choice helps there */
static int uc_copy(joint *s, int *use)
{
    *use = 0;
    size_t m1 = 0, ch1 = 0, cnt[2] = {0, 0};
    int rc = joint_copy_ab(s, (unsigned long)s->p.conf_seed + JOINT_UNPCK_SEED,
                           unpaired_variant, &m1, &ch1, cnt);
    if (rc == PB_OK) {
        s->unpck_copy = 1;
        s->unpck_changed = ch1;
        s->unpck_cnt[0] = cnt[0];
        s->unpck_cnt[1] = cnt[1];
        *use = ch1 > 0 && joint_reunp_signtest(cnt[0], cnt[1]);
    }
    return rc;
}

int joint_unpck_take(joint *s, joint *t, int *take)
{
    double l0 = joint_loglik(s), l1 = joint_loglik(t);
    int rc = PB_OK;
    *take = l1 > l0 + JOINT_RESTART_MARGIN;
    s->unp_ll[0] = l0;
    s->unp_ll[1] = l1;
    if (*take)
        rc = uc_copy(s, take);
    s->unpck = *take ? 2 : 1;
    joint_unpck_adopt(t, s);
    return rc;
}

void joint_unpck_revert(joint *f, joint *t)
{
    joint_unpck_adopt(f, t);
    f->unp_rec = t->unp_rec;
    f->nunp_rec = t->nunp_rec;
    f->unp_changed = t->unp_changed;
    f->unp_rerun = 0;
    t->unp_rec = NULL;
    t->nunp_rec = 0;
}

void joint_unpck_adopt(joint *b, const joint *a)
{
    b->unpck = a->unpck;
    b->unp_ll[0] = a->unp_ll[0];
    b->unp_ll[1] = a->unp_ll[1];
    b->unpck_copy = a->unpck_copy;
    b->unpck_changed = a->unpck_changed;
    b->unpck_cnt[0] = a->unpck_cnt[0];
    b->unpck_cnt[1] = a->unpck_cnt[1];
}

int joint_unpck_meta(const joint *s, pb_result *res)
{
    if (!s->unpck)
        return PB_OK;
    if (!s->unpck_copy)
        return pb_result_meta(res, "unpaired_check=loglik first=%.1f priced=%.1f chosen=%s",
                              s->unp_ll[0], s->unp_ll[1], s->unpck == 2 ? "with" : "without");
    return pb_result_meta(res,
                          "unpaired_check=loglik first=%.1f priced=%.1f copy changed_in_copy=%zu "
                          "right_only_with=%zu right_only_without=%zu chosen=%s",
                          s->unp_ll[0], s->unp_ll[1], s->unpck_changed, s->unpck_cnt[0],
                          s->unpck_cnt[1], s->unpck == 2 ? "with" : "without");
}
