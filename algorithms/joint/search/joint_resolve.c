/*
 * joint_resolve.c - joint: the search after an exchange of returns visits
 * only what changed (`resolve_local`, docs/joint/speed.md "Speed, thirteenth
 * wave").
 *
 * The search's outer loop (joint.c, solve) runs the greedy rounds and the
 * local search, refits, tries exchanges of returns (step 5), and, when an
 * exchange was applied, runs the greedy rounds and the local search again
 * (up to swap_rounds times).  The local search's first pass re-splits
 * every pair of requests that share a possible call; its later passes
 * only pairs with a request changed in the pass before (dirty[]).  After
 * a pass of exchanges most requests are as the previous search left
 * them, and that search's last pass found no re-split of them that gains:
 * what differs is only the model, refitted to the few exchanged pairs.
 *
 * With resolve_local=1 that first pass too visits only pairs of which one
 * request changed since the previous search ended: a request whose
 * return or calls an exchange changed (the levels an exchange applied
 * touches, as swap_memo drops them), a request that gained or lost a call
 * in the greedy rounds that follow, or in that pass itself (so a change
 * spreads to its neighbours within the pass, as a work list).  With
 * resolve_local=2 the greedy rounds (which re-assign every call from the
 * model alone, undoing much of what the local search had found, for it to
 * find again) are left out as well: the search resumes from the solution
 * as it stands.  A request whose candidate calls changed (re-candidated
 * after the exchanges) had its interval changed, so it is among those; a
 * call whose parent left its candidates was given another by the
 * re-candidating, which marks both.  What is left out: a pair
 * of unchanged requests that the refitted model would now split
 * otherwise.  So the results can change (the refit moves every density a
 * little); the search does less work.  Off by default (0): measured on
 * the real sets it kept every accuracy, but on held-out application
 * shapes it lost (retry at 1 ms as a black box -3.7 points; docs/joint/speed.md
 * "Speed, thirteenth wave").  Metadata: resolve_local=L
 * visited=N skipped=M (pairs of those first passes; no line when no such
 * pass ran, as with call ids, where no return is exchanged).
 */
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>

int joint_resolve_test_forget = 0;

int joint_resolve_begin(joint *s)
{
    if (!s->p.resolve_local)
        return PB_OK;
    if (!s->rl_chg) {
        s->rl_chg = malloc((size_t)s->npairs + 1);
        if (!s->rl_chg)
            return PB_ENOMEM;
    }
    memset(s->rl_chg, 0, (size_t)s->npairs + 1);
    s->rl_only = 1;
    return PB_OK;
}

void joint_resolve_touch(joint *s, uint32_t a, uint32_t b)
{
    if (!s->rl_only || joint_resolve_test_forget >= 2)
        return;
    if (a < s->npairs)
        s->rl_chg[a] = 1;
    if (b < s->npairs)
        s->rl_chg[b] = 1;
}

void joint_resolve_swapped(joint *s, const uint32_t *q, uint32_t n)
{
    if (!s->rl_only || joint_resolve_test_forget)
        return;
    for (uint32_t i = 0; i < n; i++)
        s->rl_chg[q[i]] = 1;
}

int joint_resolve_skip(joint *s, uint32_t q1, uint32_t q2)
{
    if (!s->rl_only)
        return 0;
    if (s->rl_chg[q1] || s->rl_chg[q2]) {
        s->rl_visited++;
        return 0;
    }
    s->rl_skipped++;
    return 1;
}

void joint_resolve_end(joint *s)
{
    s->rl_only = 0;
}

int joint_resolve_meta(const joint *s, pb_result *res)
{
    if (!s->p.resolve_local || s->rl_visited + s->rl_skipped == 0)
        return PB_OK; /* nothing left out: no line (with call ids, no exchange) */
    return pb_result_meta(res, "resolve_local=%d visited=%zu skipped=%zu", s->p.resolve_local,
                          s->rl_visited, s->rl_skipped);
}
