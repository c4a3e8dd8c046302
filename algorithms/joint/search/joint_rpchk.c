/*
 * joint_rpchk.c - greedy_check (changes results; off): a greedy round's
 * move of a call is made only when it raises the likelihood of the two
 * requests it changes (docs/joint/speed_late.md, "Re-pairing rounds that
 * settle (h207)").
 *
 * Why.  The greedy rounds move each call to the candidate of least cost,
 * the others fixed; the cost is the call's own delay and count terms and
 * leaves out what the move does to its siblings (their triggers, the
 * durations between consecutive calls).  So a round can lower the
 * likelihood and the next undo it: on OnlineBoutique as a black box the
 * rounds of every solve run to their limit, a third to four fifths of a
 * round's moves putting a call back where it was two rounds before.
 *
 * The rule.  When the greedy picks a candidate other than the call's
 * parent, the move is tried: both requests (the old parent and the new)
 * are walked as they are and with the call moved (joint_req_ll, under the
 * round's model), and the move is kept only when the sum rises (by more
 * than 1e-9 nats); else the call stays.  A request's walk is kept within a
 * round until its calls change.  Each kept move then raises the
 * likelihood under the round's model, so the rounds of a solve without
 * refits cannot cycle.
 */
#include "joint_int.h"
#include <math.h>
#include <stdlib.h>

struct joint_rpchk {
    double *ll;       /* per request: its walk this round (NaN: not walked) */
    uint32_t n;
    size_t tried, refused;
    int rounds, lsw_rounds;    /* the round the walks are of: the greedy rounds */
    uint64_t fit;              /* counted after each (joint_solve_rounds, loss_serial_win), */
};                             /* the model's fit */

/* the walks kept void when a new round (or model) began since */
static int round_check(joint *s)
{
    struct joint_rpchk *c = s->gchk;
    if (c && c->n >= s->npairs && c->rounds == s->rounds && c->lsw_rounds == s->lsw_rounds &&
        c->fit == (uint64_t)s->fit_gen)
        return PB_OK;
    if (!c && !(c = s->gchk = calloc(1, sizeof *c)))
        return PB_ENOMEM;
    if (c->n < s->npairs) {
        double *a = realloc(c->ll, ((size_t)s->npairs + 1) * sizeof *a);
        if (!a)
            return PB_ENOMEM;
        c->ll = a;
        c->n = s->npairs;
    }
    for (uint32_t q = 0; q < s->npairs; q++)
        c->ll[q] = NAN;
    c->rounds = s->rounds;
    c->lsw_rounds = s->lsw_rounds;
    c->fit = (uint64_t)s->fit_gen;
    return PB_OK;
}

static double walk(joint *s, uint32_t q)
{
    struct joint_rpchk *c = s->gchk;
    if (q == JOINT_NONE)
        return 0;
    if (isnan(c->ll[q]))
        c->ll[q] = joint_req_ll(s, q);
    return c->ll[q];
}

int joint_gchk_veto(joint *s, uint32_t p, uint32_t best)
{
    if (!s->p.greedy_check || round_check(s) != PB_OK)
        return 0;
    struct joint_rpchk *c = s->gchk;
    uint32_t old = s->par[p];
    double before = walk(s, old) + walk(s, best);
    if (joint_set_parent(s, p, best) != PB_OK)
        return 1;
    double lo = old != JOINT_NONE ? joint_req_ll(s, old) : 0;
    double lb = joint_req_ll(s, best);
    if (joint_set_parent(s, p, old) != PB_OK)
        return 1;
    c->tried++;
    if (!(lo + lb > before + 1e-9)) {
        c->refused++;
        return 1;
    }
    /* the greedy makes the move next: the two walks as they will be */
    if (old != JOINT_NONE)
        c->ll[old] = lo;
    c->ll[best] = lb;
    return 0;
}

void joint_gchk_free(joint *s)
{
    if (!s->gchk)
        return;
    free(s->gchk->ll);
    free(s->gchk);
    s->gchk = NULL;
}

int joint_gchk_meta(const joint *s, pb_result *res)
{
    if (!s->p.greedy_check)
        return PB_OK;
    const struct joint_rpchk *c = s->gchk;
    return pb_result_meta(res, "greedy_check=%d moves_tried=%zu moves_refused=%zu",
                          s->p.greedy_check, c ? c->tried : 0, c ? c->refused : 0);
}
