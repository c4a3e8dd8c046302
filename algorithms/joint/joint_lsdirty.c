/*
 * joint_lsdirty.c - joint: the local search's later passes of a solve
 * visit only what this solve's passes changed (`ls_dirty_solve`; changes
 * results, off by default; issue 28, "Speed, twenty-first wave (h166)" in
 * docs/joint/speed.md).
 *
 * joint_local_search's pass k >= 1 visits a pair of requests only when one
 * of them carries a mark dirty[q] >= k, and a kept re-split marks both of
 * its requests pass_id + 1.  The marks are never cleared between solves
 * (joint_solve_rounds restarts pass_id at 0 and the re-pairing rounds run a
 * dozen solves), so a request a pass of any earlier solve changed stays
 * marked: on OnlineBoutique 17:00 as a black box the second pass visits
 * 440-1,290 pairs after a first pass that changed 0-55.  With the option
 * the marks are cleared as a solve's passes start, so the later passes
 * follow the changes of this solve's passes only, as the rule was meant
 * (pass 0 still visits every pair).  Not exact: a pair left out would
 * have been re-split under the refitted model.
 */
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>

int joint_lsdirty_test_every_pass = 0;

static void clear_marks(joint *s)
{
    memset(s->dirty, 0, ((size_t)s->npairs + 1) * sizeof *s->dirty);
}

void joint_lsdirty_solve_start(joint *s)
{
    if (!s->p.ls_dirty_solve || !s->dirty)
        return;
    s->lsd_cleared++;
    if (s->p.ls_dirty_solve == 1) {
        clear_marks(s);
        return;
    }
    /* 2: a mark older than the solve before goes; one of the solve before
     * becomes old (no room: as 1) */
    size_t n = (size_t)s->npairs + 1;
    if (!s->lsd_old && !(s->lsd_old = calloc(n, 1))) {
        clear_marks(s);
        return;
    }
    for (size_t q = 0; q < n; q++) {
        if (s->lsd_old[q])
            s->dirty[q] = 0;
        s->lsd_old[q] = s->dirty[q] != 0;
    }
}

void joint_lsdirty_marked(joint *s, uint32_t q1, uint32_t q2)
{
    if (s->lsd_old)
        s->lsd_old[q1] = s->lsd_old[q2] = 0;
}

void joint_lsdirty_free(joint *s)
{
    free(s->lsd_old);
    s->lsd_old = NULL;
}

void joint_lsdirty_pass_start(joint *s)
{
    /* wrong on purpose: this pass's own marks (pass_id) erased too */
    if (joint_lsdirty_test_every_pass && s->p.ls_dirty_solve && s->dirty && s->pass_id > 0)
        clear_marks(s);
}

int joint_lsdirty_meta(const joint *s, pb_result *res)
{
    if (!s->p.ls_dirty_solve)
        return PB_OK; /* off: no line (main's output) */
    return pb_result_meta(res, "ls_dirty_solve=%d solves=%zu later_pass_pairs=%zu",
                          s->p.ls_dirty_solve, s->lsd_cleared, s->ls_later);
}
