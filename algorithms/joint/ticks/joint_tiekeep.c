/*
 * joint_tiekeep.c - tie_keep_choice: with tie_test=2, the free / held
 * choice made as at tie_test=1, and only the chosen search's verdict
 * tie_test=2's (off by default; h312, docs/joint/shapes_w36.md
 * "tie_test=2 and the free / held choice: the choice made as the default's
 * (h312)").
 *
 * tie_test=2 (joint_quant.c) lets a search keep its gain where its moves
 * within a tick gain less than 1.92 nats each but the whole gain is over
 * 1.92 nats per move within a tick.  Without call ids pair_order=auto runs
 * two searches and keeps the likelier (joint_choose.c); there a verdict
 * tie_test=2 alone flipped changes which search wins.  Async s55 x1 1 ms
 * black box (held out): at the default the free search's test keeps its
 * start (-98,103.5; 194 moves, 135 within a tick, 1.814 nats a move) and
 * the held search (kept by both tests, 2.060 a move) wins by 280 nats;
 * at tie_test=2 the free search is kept whole and beats the held one by
 * 18-30 nats, and 14 requests change, 8 right only under the held search
 * and 6 only under the free one (every difference a swap within one 1 ms
 * tick: api>store, api>client, api>logger of two requests in the same
 * tick), so 549 -> 547 exact.  Those nats are the ties' own gain, which
 * tie_test=2 allows within a search but which is no evidence between two.
 * So: the choice is made exactly as at tie_test=1 (init_choose at
 * tie_test=1: the default's output), then, where the chosen search's
 * verdict at tie_test=2 differs (its start kept at 1, the search at 2),
 * that search alone runs again at tie_test=2 (the same pairing, order
 * held or not, learned parallel calls, held services) and is the output.
 * Elsewhere the output is the default's, byte for byte but the params.
 */
#include "joint_int.h"

const joint_params *joint_tiekeep_params(const joint_params *p, joint_params *p1)
{
    if (!p->tie_keep_choice || p->tie_test != 2)
        return p;
    *p1 = *p;
    p1->tie_test = 1;
    return p1;
}

int joint_tiekeep_after(joint **out, const pb_trace_view *v, const joint_params *params,
                        pb_error *err, const unsigned char *force)
{
    joint *d = *out;
    if (!d)
        return PB_OK;
    d->p.tie_test = params->tie_test; /* the caller's options (metadata) */
    d->tkc_rec[0] = 1;
    d->tkc_rec[1] = d->pord_hold;
    if (d->quant_state != 3)
        return PB_OK; /* no tie test ran, or the search kept: as at tie_test=2 */
    /* the start kept at tie_test=1; tie_test=2's verdict from the same numbers */
    if (joint_tieexcess_keep_start(d->quant_changed, d->quant_tied, d->quant_ll[0],
                                   d->quant_ll[1], params->tie_excess))
        return PB_OK; /* tie_test=2's verdict is the default's */
    joint_params pr = d->p; /* the chosen search's own options, tie_test=2 */
    pr.tie_test = params->tie_test;
    joint *t = NULL;
    int rc = joint_search_one(&t, v, &pr, err, d->pord_hold, force);
    if (rc != PB_OK)
        return rc;
    t->p.pair_order = params->pair_order;
    t->tkc_rec[0] = 1;
    t->tkc_rec[1] = d->pord_hold;
    t->tkc_rec[2] = 1;
    joint_close(d);
    *out = t;
    return PB_OK;
}

int joint_tiekeep_meta(const joint *s, pb_result *res)
{
    if (!s->tkc_rec[0])
        return PB_OK;
    return pb_result_meta(res, "tie_keep_choice=1 chosen=%s rerun=%d",
                          s->tkc_rec[1] ? "held" : "free", s->tkc_rec[2]);
}
