/*
 * joint_tiesearch.c - joint: tie_sets_search, the set test asked whichever
 * search the tie test keeps (docs/joint/shapes_late.md, "tie_sets whichever
 * search the tie test keeps (h294)").
 *
 * tie_test=2 (joint_quant.c, joint_tieexcess.c) keeps the search where its
 * gain over the start passes the tie test's allowance counted on the moves
 * within a tick alone, where tie_test=1 keeps the start.  Keeping the
 * search whole then skips tie_sets (joint_tieset.c), which only runs where
 * the start is kept: the start is made again, mended by tie_cross, and the
 * calls where it and the search differ are split into components that each
 * take the search only where their own requests come onto their set in the
 * search.  On dispatch x2 at 1 ms as a black box (dev seeds 1-3) that
 * mixture is 22-26 % exact, the search alone 8-10 %, the start alone 2 %:
 * tie_test=2 lost the mixture, not the start.  On heavytail x2 at 1 ms
 * (held-out seed 56) the sets do not refute the start (start_off 0 against
 * search_off 65) and the start, fcfs's pairing, is worth 2.5 % against the
 * search's 18.6 %.
 *
 * The rule (tie_sets_search=1, with tie_test=2 and tie_sets=3): where
 * tie_test=1 would keep the start and tie_test=2 keeps the search, the tie
 * test goes tie_test=1's way (the start made again, tie_cross, tie_sets
 * deferred to after it); then, where the set test refutes the start, its
 * mixture stands (tie_test=1's result, byte for byte); where it does not,
 * the saved search is put back whole (parents and pairing of returns) and
 * refitted: tie_test=2's verdict.  The set evidence, where there is any,
 * judges the components; the allowance within a tick judges the rest.
 * Nowhere else does anything change.  Metadata: tie_sets_search=on
 * put_back=search|mixture|search_by_tie_orphans (tie_orphans refuted the
 * start first: the search whole, as tie_test=2) missed=.
 */
#include "joint_int.h"

#define NONE JOINT_NONE

int joint_tiesearch_keep(joint *s, int keep, int keep1)
{
    if (keep || !keep1 || !s->p.tie_sets_search || s->p.tie_test != 2 || s->p.tie_sets != 3)
        return keep;
    s->tsrch = 1;
    return 1;
}

int joint_tiesearch_after(joint *s, int refuted)
{
    if (s->tsrch != 1 || refuted || !s->tset_spar)
        return PB_OK;
    uint32_t n = s->npairs;
    int rc = joint_quant_put_returns(s, s->tset_sret); /* every parent cleared first */
    size_t missed = 0;
    for (uint32_t p = 0; p < n && rc == PB_OK; p++)
        rc = joint_tieset_put_parent(s, p, s->tset_spar[p], &missed);
    s->tset_missed += missed; /* warned with the result (joint_paths.c) */
    if (rc == PB_OK)
        rc = joint_refit_moved(s);
    s->tsrch = 2;
    s->quant_state = 2; /* the tie test's verdict: the search */
    return rc;
}

int joint_tiesearch_meta(const joint *s, pb_result *res)
{
    if (!s->tsrch)
        return PB_OK;
    return pb_result_meta(res, "tie_sets_search=on put_back=%s missed=%zu",
                          s->tsrch == 2        ? "search"
                          : s->tset_refuted ? "mixture"
                                            : "search_by_tie_orphans",
                          s->tset_missed);
}
