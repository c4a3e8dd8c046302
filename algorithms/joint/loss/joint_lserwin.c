/*
 * joint_lserwin.c - loss_serial=8's second search, windowed
 * (loss_serial_win; docs/joint/loss.md, "The second search windowed").
 *
 * loss_serial=8 (joint_lserial.c) runs, where its gate passes, a second
 * search of the whole trace with the serial term (loss_serial=4) from
 * scratch, and keeps it when a cross-fitted likelihood without the term
 * prefers it.  The term prices only the stacked calls (a call on a link
 * the serial test calls serial, sent while an earlier call of its request
 * is out), so what it can change is near them: the request holding the
 * stack and the requests that could hold the stacked call instead.  The
 * whole second search cost OnlineBoutique 03:53 with call ids +58 %
 * instructions for a solution it did not keep.
 *
 * With loss_serial_win (1, the default; 2) the second search starts from
 * the first solution instead, with the term on (loss_serial=4: a serial
 * link's stack priced as if none of its calls overlapped), and searches
 * only the window: the requests that hold a stacked call and the
 * candidate parents of each stacked call.  Greedy rounds move only the
 * calls whose parent or a candidate is in the window (the others fixed),
 * then passes of exact re-splits of the pairs of requests with one in the
 * window or changed by the rounds, each round and pass after a refit, up
 * to loss_serial_win_mult times the search's own iters and passes.  2:
 * the window grows after each round (the current stacks, the requests the
 * round changed; measured, no gain).  The term prices the search as in
 * the whole second search (a serial link's stack as if none of its calls
 * overlapped); the check is the same (joint_lser_choose_w: the two
 * solutions cross-fitted without the term, both halves and the units' z
 * or the sign test over the changed walks).  Not kept: the first solution
 * set back, refitted, as the whole second search's check leaves it.
 */
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE

/* the window: w[q] |= 1 for each stacked call's parent and candidate
 * parents (st: joint_lser_stacks).  The number of requests in it */
static size_t lsw_window(const joint *s, const unsigned char *st, unsigned char *w)
{
    uint32_t n = s->npairs;
    for (uint32_t p = 0; p < n; p++) {
        if (!st[p])
            continue;
        if (s->par[p] != NONE)
            w[s->par[p]] |= 1;
        for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++)
            w[s->cand[j]] |= 1;
    }
    size_t k = 0;
    for (uint32_t q = 0; q < n; q++)
        k += w[q] != 0;
    return k;
}

/* the calls the greedy rounds may move: those whose parent or a candidate
 * is in the window.  Their number */
static size_t lsw_movable(const joint *s, const unsigned char *w, unsigned char *mv)
{
    size_t nc = 0;
    for (uint32_t p = 0; p < s->npairs; p++) {
        int in = s->par[p] != NONE && w[s->par[p]];
        for (uint32_t j = s->cand_off[p]; !in && j < s->cand_off[p + 1]; j++)
            in = w[s->cand[j]];
        mv[p] = (unsigned char)in;
        nc += (size_t)in;
    }
    return nc;
}

/* the term on (loss_serial=4), then the search's two steps on the window:
 * greedy rounds (refit, each call of the window to its best candidate,
 * the others fixed) moving only the calls whose parent or a candidate is
 * in the window, then passes of exact re-splits of the pairs of requests
 * with one in the window or changed since (refit before each), as the
 * search's own steps (joint_solve_rounds) */
static int lsw_search(joint *s, const unsigned char *ser, unsigned char *w,
                      const uint32_t *par0)
{
    uint32_t n = s->npairs;
    unsigned char *mv = calloc((size_t)n + 1, 1), *st = malloc((size_t)n + 1);
    uint32_t *prev = malloc(((size_t)n + 1) * sizeof *prev);
    uint32_t *prev2 = malloc(((size_t)n + 1) * sizeof *prev2);
    if (!mv || !st || !prev || !prev2) {
        free(mv);
        free(st);
        free(prev);
        free(prev2);
        return PB_ENOMEM;
    }
    s->p.loss_serial = 4;
    s->lser_checked = 0;
    size_t m0 = s->moves;
    int rc = PB_OK, changed = 1;
    s->lsw_only = mv;
    /* the rounds below are a search of their own for the greedy rounds'
     * caches: the kid lists and return times changed since the last
     * joint_solve_rounds (re-splits, exchanges), which greedy_tcache's
     * slots do not see (joint_tcache.c) */
    joint_greedy_solve_start(s);
    const int mult = s->p.loss_serial_win_mult;
    for (int it = 0; rc == PB_OK && it < mult * s->p.iters && changed; it++) {
        if (it > 0 && s->p.loss_serial_win >= 2) {
            /* 2: the window grows with the search: the stacks of the
             * current solution, the requests the round before changed */
            size_t nout = 0;
            joint_lser_stacks(s, ser, st, &nout);
            for (uint32_t p = 0; p < n; p++)
                if (s->par[p] != prev[p]) {
                    if (s->par[p] != NONE)
                        w[s->par[p]] |= 1;
                    if (prev[p] != NONE)
                        w[prev[p]] |= 1;
                }
            s->lsw_win = lsw_window(s, st, w);
        }
        s->lsw_calls = lsw_movable(s, w, mv);
        if (it > 0)
            memcpy(prev2, prev, (size_t)n * sizeof *prev2);
        memcpy(prev, s->par, (size_t)n * sizeof *prev);
        changed = 0;
        rc = joint_fit(s, NULL); /* joint_lser_fit: the term's rates, on */
        if (rc == PB_OK)
            rc = joint_match_round(s, &changed);
        s->lsw_rounds++;
        s->lsw_moves += (size_t)changed;
        /* a round that put back what the round before moved (the greedy
         * rounds' two-cycle: each call's best candidate depends on where
         * its neighbours sit, and both move): the rounds left would only
         * alternate the two solutions (each round is a function of the
         * solution: refit, then each call to its best candidate), so the
         * one the last round would leave is taken now -- the same
         * solution as running them all, without their cost */
        if (it > 0 && changed && s->p.loss_serial_win == 1 &&
            !memcmp(prev2, s->par, (size_t)n * sizeof *prev2)) {
            s->lsw_cycle = it + 1;
            if ((mult * s->p.iters - 1 - it) % 2)
                rc = joint_ux_set_all(s, prev);
            break;
        }
    }
    s->lsw_only = NULL;
    free(mv);
    free(st);
    free(prev);
    free(prev2);
    /* re-splits: pairs of requests with one in the window or changed by
     * the rounds (pass_id 1, dirty 1) */
    s->pass_id = 1;
    for (uint32_t q = 0; q < n; q++)
        s->dirty[q] = w[q] ? 1 : 0;
    for (uint32_t p = 0; p < n; p++)
        if (s->par[p] != par0[p]) {
            if (s->par[p] != NONE)
                s->dirty[s->par[p]] = 1;
            if (par0[p] != NONE)
                s->dirty[par0[p]] = 1;
        }
    for (int it = 0; rc == PB_OK && it < mult * s->p.passes; it++) {
        changed = 0;
        rc = joint_fit(s, NULL);
        if (rc == PB_OK)
            rc = joint_local_search(s, &changed);
        s->lsw_passes++;
        if (!changed)
            break;
    }
    s->pass_id = 0;
    s->lsw_moves += s->moves - m0;
    return rc;
}

int joint_lserwin_run(joint *s, int nser)
{
    uint32_t n = s->npairs;
    unsigned char *ser = calloc((size_t)s->nlinks + 1, 1);
    unsigned char *st = malloc((size_t)n + 1), *w = malloc((size_t)n + 1);
    uint32_t *par0 = malloc(((size_t)n + 1) * sizeof *par0);
    int rc = ser && st && w && par0 ? PB_OK : PB_ENOMEM, take = 0;
    int lp = s->p.loss_serial, lc = s->lser_checked;
    if (rc == PB_OK && joint_lser_serial_links(s, ser) < 0)
        rc = PB_ENOMEM;
    if (rc == PB_OK) {
        size_t nout = 0;
        joint_lser_stacks(s, ser, st, &nout);
        memset(w, 0, (size_t)n + 1);
        s->lsw_win = lsw_window(s, st, w);
        memcpy(par0, s->par, (size_t)n * sizeof *par0);
        s->lsw_on = 1;
        rc = lsw_search(s, ser, w, par0);
    }
    if (rc == PB_OK) {
        take = joint_lser_choose_w(s, par0, nser);
        rc = take < 0 ? PB_ENOMEM : PB_OK;
    }
    if (rc == PB_OK && !take) { /* as before the second search: the term off */
        joint_lser_free(s);
        s->lser_on = 0;
        s->lser_checked = lc;
        s->p.loss_serial = lp;
    }
    /* kept: the term stays on at 4, as the whole second search's solution
     * (the self-calibration's copy then searches with it, as there) */
    free(ser);
    free(st);
    free(w);
    free(par0);
    return rc;
}
