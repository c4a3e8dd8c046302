/*
 * joint_rpcyc.c - greedy_cycle (speed only, the same solution): a
 * solve's greedy rounds that put every parent back where it was two
 * rounds before are not run on; the solution the rounds left would
 * leave is taken at once (docs/joint/speed_late.md, "Re-pairing rounds
 * that settle (h207)").
 *
 * Why exact.  A greedy round of joint_solve_rounds is a function of the
 * assignment: with refits, the model is fitted to the assignment first
 * (joint_refit), then each call goes to its cheapest candidate in call
 * order (the greedy's caches give the same numbers); without refits the
 * model is fixed.  So when the parents after round it are those after
 * round it - 2, round it + 1 gives those after round it - 1, round it + 2
 * those after round it again, and so on: the R rounds left end on the
 * solution after round it - 1 when R is odd, on the current one when it
 * is even.  That is set (each move counted as the greedy counts it) and
 * the rounds stop; the model the local search starts from is refitted to
 * the same assignment (joint_solve_rounds refits before each pass), and
 * the open-ended solve has no refit at all.  Off under greedy_damp (its
 * vetoes read the rounds before).  loss_serial_win's rounds do
 * the same (joint_lserwin.c).  The work counters (matching_rounds and
 * matching_changes count the rounds as if run; fits and walks do not).
 */
#include "joint_int.h"
#include <stdlib.h>
#include <string.h>

struct joint_rpcyc {
    uint32_t *prev[2]; /* parents before this round, before the round before */
    uint32_t n;
    int it;            /* the round these are of; -1: none */
    size_t jumps, rounds_left;
};

int joint_gcyc_round(joint *s, int it)
{
    if (!s->p.greedy_cycle)
        return PB_OK;
    struct joint_rpcyc *c = s->gcyc;
    if (!c && !(c = s->gcyc = calloc(1, sizeof *c)))
        return PB_ENOMEM;
    if (c->n < s->npairs || !c->prev[0]) { /* no pairs: still arrays (memcpy of 0) */
        for (int i = 0; i < 2; i++) {
            uint32_t *a = realloc(c->prev[i], ((size_t)s->npairs + 1) * sizeof *a);
            if (!a)
                return PB_ENOMEM;
            c->prev[i] = a;
        }
        c->n = s->npairs;
        c->it = -1;
    }
    if (it == 0 || c->it != it - 1) {
        c->it = -1; /* a new solve: nothing before */
        memcpy(c->prev[0], s->par, (size_t)s->npairs * sizeof *s->par);
        c->it = it;
        return PB_OK;
    }
    uint32_t *t = c->prev[1];
    c->prev[1] = c->prev[0];
    c->prev[0] = t;
    memcpy(c->prev[0], s->par, (size_t)s->npairs * sizeof *s->par);
    c->it = it;
    return PB_OK;
}

int joint_gcyc_stop(joint *s, int it, int *rc)
{
    struct joint_rpcyc *c = s->gcyc;
    *rc = PB_OK;
    if (!s->p.greedy_cycle || s->p.greedy_damp || !c || c->it != it || it < 1 || c->n < s->npairs)
        return 0;
    int left = s->p.iters - 1 - it; /* the rounds joint_solve_rounds has left */
    if (left <= 0)
        return 0;
    const uint32_t *a = c->prev[0], *b = c->prev[1];
    uint32_t d = 0;
    for (uint32_t p = 0; p < s->npairs; p++) {
        if (s->par[p] != b[p])
            return 0; /* not back where it was two rounds before */
        d += s->par[p] != a[p];
    }
    if (d == 0)
        return 0; /* nothing moved: the rounds stop anyway */
    if (left % 2) { /* the rounds left end on the solution before this round */
        /* first out of every request, then in: each kid list then grows
         * only to its length in that solution, which it held (its room is
         * never given back), so no insertion allocates and none can fail */
        for (uint32_t p = 0; p < s->npairs && *rc == PB_OK; p++)
            if (s->par[p] != a[p]) {
                joint_greedy_moved(s, s->par[p], a[p]);
                *rc = joint_set_parent(s, p, JOINT_NONE);
            }
        for (uint32_t p = 0; p < s->npairs && *rc == PB_OK; p++)
            if (s->par[p] != a[p])
                *rc = joint_set_parent(s, p, a[p]);
    }
    /* counted as the rounds left would count: each moves the same d calls */
    s->rounds += left;
    s->changes += (size_t)left * d;
    c->jumps++;
    c->rounds_left += (size_t)left;
    c->it = -1;
    return 1;
}

void joint_gcyc_free(joint *s)
{
    if (!s->gcyc)
        return;
    free(s->gcyc->prev[0]);
    free(s->gcyc->prev[1]);
    free(s->gcyc);
    s->gcyc = NULL;
}

int joint_gcyc_meta(const joint *s, pb_result *res)
{
    const struct joint_rpcyc *c = s->gcyc;
    if (!s->p.greedy_cycle || !c || !c->jumps)
        return PB_OK;
    return pb_result_meta(res, "greedy_cycle=%d solves_cut=%zu rounds_left_out=%zu",
                          s->p.greedy_cycle, c->jumps, c->rounds_left);
}
