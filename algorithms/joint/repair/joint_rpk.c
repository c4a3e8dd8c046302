/*
 * joint_rpk.c - the re-pairing greedy's bound of the order of answers'
 * term by class (joint_rpick.c's buckets; no option, exact: the very same
 * pick; docs/joint/scale.md "The re-pairing greedy's order-term bound").
 *
 * With the order of answers on (pair_order), a candidate's value is its
 * response cost less joint_rord_pick: the terms of its two neighbours in
 * its link's arrival order, each 0, log rho or log (1 - rho) -- a cost
 * of 0, -log rho or -log (1 - rho) each (the penalty, never below 0).
 * The buckets stopped a bin at the first call whose bare cost was above
 * the best so far; the best includes its own penalty, so every call of a
 * bin whose bare cost was below it was scored (on the overlap input, the
 * first-in-last-out greedy: all but one open call pay -log (1 - rho), the
 * bin's scan ran through them all).  Here each present call carries a
 * class: for each neighbour, the least penalty it can have at any later
 * return time t' >= t while the answered flags stay as they are (a
 * neighbour whose return is fixed: its piecewise-constant term in t' at
 * t and at its breakpoints; an unanswered movable one: -log rho before,
 * -log (1 - rho) once it arrived before t'; an answered one: 0).  A
 * class's bound is the sum of its two least penalties, a lower bound of
 * the call's penalty until a neighbour is answered (the greedy then
 * classes it again) -- and a class may only rise with t (its `next`
 * breakpoint: classed again then, for a tighter bound only).  The bins
 * are scanned class by class, each stopping at the first call whose cost
 * plus its class's bound is above the best (the same 1e-9 margin).
 */
#include "joint_int.h"
#include <stdint.h>

#define NONE JOINT_NONE

int joint_rpick_test_noclass = 0;
unsigned long joint_rpick_test_scored = 0;
double joint_rpick_test_slack = 0;

int joint_rpk_init(const joint *s, const insort *C, uint32_t nc, rpk *k)
{
    k->on = 0;
    if (!s->rord || joint_rpick_test_noclass)
        return 0;
    for (uint32_t i = 0; i < nc && !k->on; i++) {
        uint32_t x, y;
        k->on = joint_rord_pick_parts(s, C[i].p, &x, &y, &k->pv[1], &k->pv[2]);
    }
    if (!k->on)
        return 0;
    k->pv[0] = 0.0;
    k->pv[1] = -k->pv[1];
    k->pv[2] = -k->pv[2];
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            k->lbq[3 * a + b] = k->pv[a] + k->pv[b] + joint_rpick_test_slack;
    return 1;
}

static unsigned lesser(const rpk *k, unsigned a, unsigned b)
{
    return k->pv[b] < k->pv[a] ? b : a;
}

static void soon(pb_ns *next, pb_ns at, pb_ns t)
{
    if (at > t && at < *next)
        *next = at;
}

unsigned joint_rpk_class(const joint *s, const rpk *k, uint32_t c, pb_ns t,
                         const unsigned char *ans, pb_ns *next)
{
    uint32_t x, y;
    double li, lk;
    *next = INT64_MAX;
    if (!joint_rord_pick_parts(s, c, &x, &y, &li, &lk))
        return 0;
    unsigned pp = 0, sp = 0;
    if (x != NONE) {
        const jpair *px = &s->pr[x];
        if (!joint_ret_movable(s, x)) { /* term(c, x.rs, t'): t' < x.rs overtakes */
            unsigned after = s->pr[c].cr < px->rs ? 2 : 0;
            pp = t < px->rs ? lesser(k, 1, after) : after;
            soon(next, px->rs, t);
        } else if (!ans[x]) {
            pp = 1;
        }
    }
    if (y != NONE) {
        const jpair *py = &s->pr[y];
        if (!joint_ret_movable(s, y)) { /* term(y, t', y.rs) */
            pb_ns at[3] = {t, py->cr + 1, py->rs + 1};
            for (int j = 0; j < 3; j++) {
                if (j && at[j] <= t)
                    continue;
                unsigned v = py->rs < at[j] ? 1 : py->cr < at[j] ? 2 : 0;
                sp = j ? lesser(k, sp, v) : v;
            }
            soon(next, py->cr + 1, t);
            soon(next, py->rs + 1, t);
        } else if (!ans[y]) {
            sp = py->cr < t ? 2 : lesser(k, 0, 2);
            soon(next, py->cr + 1, t);
        }
    }
    return 3 * pp + sp;
}
