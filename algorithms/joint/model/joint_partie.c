/*
 * joint_partie.c - joint: ties in one tick in the learned parallel-call
 * counts (option par_tie; docs/joint/model.md, "Ties in one tick in the
 * parallel-call counts (h283)"; issue 28).
 *
 * The parallel-call term (joint_model.c par_pairs and par_sweep) counts,
 * for two calls c, o of one request with c sent first, c's return after
 * o's send as an overlap and anything else as a separate pair; a link
 * pair whose overlap share reaches the parallel bar is learned as called
 * in parallel.  At whole-millisecond stamps a hedged or fanned-out call
 * often returns in the same tick as the next call is sent: the stamps are
 * then equal and the pair counts as separate though the order inside the
 * tick is unknown.  On the models audit's hedge system, seed 60, 1 ms,
 * 98.7 % of the stamps are tied and no parallel pair is learned (h281).
 *
 * The rule (par_tie=1): at coarse stamps (the trace's tick above 1 ns with
 * more than 1 % tied stamps, as joint.c reads it; the original tick where
 * subtick spread the rows), a pair whose return and send lie in one tick
 * (floor(t / tick) equal) counts as neither.  Pairs a tick or more apart
 * count as before.  Off (0, the default) the counts are main's.
 */
#include "joint_rules.h"
#include <stdio.h>

pb_ns joint_partie_tick(const joint *s)
{
    if (!s->p.par_tie || !s->coarse)
        return 0;
    /* rows spread by subtick (joint_subtick.c): the original tick */
    pb_ns t = s->p.subtick_tick > 0 ? s->p.subtick_tick : s->tick;
    return t > 1 ? t : 0;
}

static pb_ns fdiv(pb_ns a, pb_ns t)
{
    pb_ns q = a / t;
    return (a % t != 0 && a < 0) ? q - 1 : q;
}

int joint_partie_same(pb_ns a, pb_ns b, pb_ns tick)
{
    return fdiv(a, tick) == fdiv(b, tick);
}

int joint_partie_meta(const joint *s, pb_result *res)
{
    if (!s->p.par_tie)
        return PB_OK;
    return pb_result_meta(res, "par_tie_pairs=%zu par_tie_tick=%lld", s->par_ties,
                          (long long)joint_partie_tick(s));
}
