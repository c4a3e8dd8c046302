/*
 * joint_unpone.c - unpaired=1's whole second search with the first
 * search's free / held choice (`-s unp_whole_one=1`; docs/joint/loss_late.md,
 * "The whole second search with the first search's choice (h211)").
 *
 * When unp_win's window holds over half the messages (or unp_win=0), the
 * second search runs on the whole trace with the forced messages, and
 * with pair_order=auto it runs both the free and the held search again
 * and keeps one by the same likelihood test as the first.  The two
 * searches differ by a few dozen messages' paired state out of thousands:
 * the first search's verdict (free, held, or held without learned
 * parallel calls: parallel_check_bb's early run) is taken for the second,
 * which then runs that search alone (joint_pwin_one, the path
 * pair_window takes when its window decided), with the parallel_check_bb
 * check after it as usual.  Where the first search kept busy_partial's
 * third search (held on some services only) or did not choose (call ids,
 * pair_order on/off) the second search runs as before.  unp_whole_one=2:
 * only where the first search kept the held search -- the forced
 * messages take out what the loss did to the order of answers, which is
 * what the held search pays for, so the second search's choice is not
 * expected to leave held; where the first kept the free search, the
 * second kept the held one on OnlineBoutique 03:53 at 2 and 5 % loss
 * (sniffer seed 1), so both run there.  The choice's
 * record (metadata pair_order=, pick=, held_skip=) is the first search's.
 * unp_whole_one=3 (h222): the choice the first search did NOT keep (free
 * where it kept held, held where it kept free), so that the pieces compare
 * the two kinds of search: the second search's own choice went that way on
 * OnlineBoutique 03:53 at 2 and 5 % (first free, second held) and on
 * hotel 100 seed 2 at 5 % (first held, second free), where the first
 * choice lost requests.
 */
#include "joint_int.h"
#include <string.h>

int joint_unpo_second(joint **out, const pb_trace_view *v, const joint_params *params,
                      const joint *f, const unsigned char *force, pb_error *err, int *one)
{
    *one = 0;
    const char *m = params->pair_order;
    int autom = !m || !strcmp(m, "auto");
    if (!autom || !f->pord_chosen || f->part_sum[3] != 0 ||
        (params->unp_whole_one == 2 && f->pord_chosen != 2))
        return joint_search_forced(out, v, params, err, force);
    joint_pwin pw = f->pwin;
    pw.decision = f->pord_chosen == 2 ? (f->ser_bb == 3 ? 3 : 2) : 1;
    if (params->unp_whole_one == 3) /* the other choice (h222) */
        pw.decision = f->pord_chosen == 2 ? 1 : 2;
    joint_params ph = *params;
    ph.order = "on";
    int rc = joint_pwin_one(out, v, params, &ph, &pw, err, force);
    if (rc != PB_OK)
        return rc;
    joint *s = *out;
    joint_unp_carry_first(s, f);
    *one = params->unp_whole_one == 3 ? 2 : 1;
    return PB_OK;
}

/* The second search s takes the first search f's window, the order tests'
 * and the picks' sums and held_skip's record, as the metadata reports
 * them once for the run (joint_unpone.c, joint_unpwarm.c). */
void joint_unp_carry_first(joint *s, const joint *f)
{
    s->pwin = f->pwin;
    for (int i = 0; i < 4; i++) {
        s->pord_ll[i] = f->pord_ll[i];
        s->pick_sum[i] = f->pick_sum[i];
    }
    for (int i = 0; i < 6; i++)
        s->part_sum[i] = f->part_sum[i];
    joint_heldskip_carry(s, f);
}
