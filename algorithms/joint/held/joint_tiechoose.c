/*
 * joint_tiechoose.c - joint: tie_choose, the tie test's allowance carried into
 * the choice between the free and the held search (docs/joint/shapes_late.md,
 * "tie_test=2 on the audits and the excess beyond the allowance (h288)").
 *
 * Without call ids and pair_order=auto, init_choose (joint_choose.c) keeps
 * the likelier of the free and the held search, each under its own refit.
 * At whole-tick stamps each search made its own tie test (joint_quant.c).
 * Under tie_test=2 a search the old test (tie_test=1) would have put back,
 * because most of its moves stay within a tick, keeps its search, and its
 * log-likelihood keeps the gain of those moves, which the stamps cannot
 * support; the other search, whose test put its start back, has no such
 * gain.  The comparison then favours the tie-exploiting one (async x1 1 ms
 * black box, seed 3: the held search kept at -97,423.8 against the free
 * search's start at -97,529.6, one request fewer right).  tie_choose
 * counts such a search's log-likelihood less JOINT_QUANT_GAIN nats per move
 * within a tick, for the comparison only: the allowance the test grants
 * inside a search also holds between the two.  The metadata's
 * log-likelihoods stay as they were.
 */
#include "joint_int.h"

/* the allowance to take off s's log-likelihood in the comparison */
static double allowance(const joint *s)
{
    if (!s || s->quant_state != 2)
        return 0;
    if (!joint_quant_keep_start(s->quant_changed, s->quant_tied, s->quant_ll[0], s->quant_ll[1]))
        return 0; /* tie_test=1 kept this search too */
    return JOINT_QUANT_GAIN * (double)s->quant_tied;
}

void joint_tiechoose_adjust(const joint *a, const joint *b, double *l0a, double *l0b)
{
    if (!a || !a->p.tie_choose || a->p.tie_test != 2)
        return;
    *l0a -= allowance(a);
    if (b)
        *l0b -= allowance(b);
}
