/*
 * joint_unprounds.c - joint without call ids, under loss: the loss rule's
 * second search with fewer rounds (`unp_repair`, `unp_swaps`, default -1 =
 * the search's own; docs/joint/loss_late.md, "The loss rule's cost: a
 * cheaper second search inside the second search only (h268)").
 *
 * Where unpaired's choice (joint_unpaired.c) leaves other messages
 * unpaired than the first search did, the search runs again with those
 * messages forced (joint_unpw_second: on a window, or on the whole trace
 * when the window holds over unp_win_max of the messages).  That second
 * search is a full one: with pair_order=auto the free and the held search,
 * each its re-pairing rounds (repair) and its swap rounds (swap_rounds);
 * on OnlineBoutique 03:53 at 2 % loss it is 3.5 of 8.6 G instructions.
 * Its result only proposes: the pieces (joint_unppiece.c) take its
 * partition, piece by piece, where the whole trace's model finds it
 * likelier than the first search's.
 *
 * The rule: the whole second search (both of its searches; also in the
 * self-calibration's copies, which run the same code) runs unp_repair
 * re-pairing rounds and unp_swaps swap rounds (-1: the search's repair and
 * swap_rounds), as held_repair / held_swaps do for the held search
 * (joint_heldwarm.c).  The second search on a window (a sub-trace, cheap)
 * keeps its rounds: with fewer there too, OnlineBoutique 03:53 lost 2-5
 * requests on each window draw (h268).  The first search and every later
 * step are untouched; the second solution's options are set back after
 * it, so what reads them later (the copies' parameters) sees the caller's.
 * Metadata (where either is set): unp_rounds repair= swaps=.
 */
#include "joint_int.h"

int joint_unpr_params(joint_params *p2, const joint_params *params)
{
    if (params->unp_repair < 0 && params->unp_swaps < 0)
        return 0;
    if (params->unp_repair >= 0)
        p2->repair = params->unp_repair;
    if (params->unp_swaps >= 0)
        p2->swap_rounds = params->unp_swaps;
    return 1;
}

void joint_unpr_after(joint *t, const joint_params *params)
{
    if (params->unp_repair < 0 && params->unp_swaps < 0)
        return;
    t->p.repair = params->repair;
    t->p.swap_rounds = params->swap_rounds;
}

int joint_unpr_meta(const joint *s, pb_result *res)
{
    if (s->p.unp_repair < 0 && s->p.unp_swaps < 0)
        return PB_OK;
    return pb_result_meta(res, "unp_rounds repair=%d swaps=%d",
                          s->p.unp_repair >= 0 ? s->p.unp_repair : s->p.repair,
                          s->p.unp_swaps >= 0 ? s->p.unp_swaps : s->p.swap_rounds);
}
