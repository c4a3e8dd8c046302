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
    if (s->lso_now) /* ls_open_fresh: changed by this solve's passes */
        s->lso_mark[q1] = s->lso_mark[q2] = 1;
    if (s->lsd_old)
        s->lsd_old[q1] = s->lsd_old[q2] = 0;
}

void joint_lsdirty_free(joint *s)
{
    free(s->lsd_old);
    s->lsd_old = NULL;
    free(s->lso_mark);
    s->lso_mark = NULL;
    joint_lsmg_free(s); /* ls_margin (joint_lsmargin.c) */
    joint_lscf_free(s); /* rs_confirm (joint_lsconfirm.c) */
}

/* ls_open_fresh (default 1, the same results; "Speed, twenty-second wave
 * (h179)").  A solve that does not refit between its re-split passes (the
 * re-pairing rounds' open-ended solve, joint_repair.c) holds one model
 * from its first pass to its last.  Its first pass re-splits every pair of
 * requests that share a possible call; a request no pass of this solve has
 * changed was re-split there against each of its partners and is the same
 * since, under the same model, so a later pass that visits it with a
 * partner also unchanged re-splits the same two requests under the same
 * densities again and finds what the first pass found: no gain.  Main
 * visits such pairs whenever a request carries an earlier solve's mark
 * (never cleared, h166).  Here a later pass of such a solve still takes
 * the pair where main would (so it is marked seen in that pass at the
 * same place: a pair is visited once per pass, at its first occurrence)
 * but leaves out the re-split when neither request was changed by this
 * solve's passes.  The marks themselves are main's, so every later solve
 * reads what it would.  A solve that refits keeps its visits: there the
 * refit can change a split (ls_dirty_solve's budget).  The premise, a
 * re-split's outcome depends on its two requests and the model alone, is
 * checked by tests/unit/test_joint_lsdirty.c and by the real sets'
 * outputs against the option off. */
int joint_lsopen_test_refit = 0;

int joint_lsopen_begin(joint *s, int refit)
{
    s->lso_now = 0;
    /* the test's deliberately wrong variant: solves that refit too */
    if ((refit && !joint_lsopen_test_refit) || !s->p.ls_open_fresh || !s->dirty)
        return PB_OK;
    size_t n = (size_t)s->npairs + 1;
    free(s->lso_mark); /* sized for this solve's requests */
    if (!(s->lso_mark = calloc(n, 1)))
        return PB_ENOMEM;
    s->lso_now = 1;
    return PB_OK;
}

int joint_lsopen_skip(joint *s, uint32_t q1, uint32_t q2)
{
    if (!s->lso_now || s->pass_id == 0 || s->rl_only || s->lso_mark[q1] || s->lso_mark[q2])
        return 0;
    s->lso_skipped++;
    return 1;
}

void joint_lsopen_end(joint *s)
{
    s->lso_now = 0;
    free(s->lso_mark);
    s->lso_mark = NULL;
}

void joint_lsdirty_pass_start(joint *s)
{
    /* wrong on purpose: this pass's own marks (pass_id) erased too */
    if (joint_lsdirty_test_every_pass && s->p.ls_dirty_solve && s->dirty && s->pass_id > 0)
        clear_marks(s);
}

int joint_lsdirty_meta(const joint *s, pb_result *res)
{
    /* ls_open_fresh: the kept search's re-splits left out (a line only
     * where some were: the output is otherwise main's) */
    if (s->lso_skipped) {
        int rc = pb_result_meta(res, "ls_open_fresh=%d resplits_left_out=%zu",
                                s->p.ls_open_fresh, s->lso_skipped);
        if (rc != PB_OK)
            return rc;
    }
    int rc0 = joint_lsmg_meta(s, res); /* ls_margin (joint_lsmargin.c) */
    if (rc0 == PB_OK)
        rc0 = joint_lscf_meta(s, res); /* rs_confirm (joint_lsconfirm.c) */
    if (rc0 == PB_OK)
        rc0 = joint_rsmemo_meta(s, res); /* rs_memo (joint_rsmemo.c) */
    /* bnb_row_keep (joint_bnb.c): a line only where some row was kept */
    if (rc0 == PB_OK && s->bnb_rows_kept)
        rc0 = pb_result_meta(res, "bnb_row_keep=%d rows_kept=%zu", s->p.bnb_row_keep,
                             s->bnb_rows_kept);
    if (rc0 != PB_OK)
        return rc0;
    if (!s->p.ls_dirty_solve)
        return PB_OK; /* off: no line (main's output) */
    return pb_result_meta(res, "ls_dirty_solve=%d solves=%zu later_pass_pairs=%zu",
                          s->p.ls_dirty_solve, s->lsd_cleared, s->ls_later);
}
