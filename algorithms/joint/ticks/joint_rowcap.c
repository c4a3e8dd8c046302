/*
 * joint_rowcap.c - joint: the candidate cap (max_candidates) counted on
 * the candidates the rows leave (tie_rows_wide; docs/joint/ticks_rows.md, "Rows
 * within a tick").
 *
 * max_candidates keeps the latest-started requests enclosing a call.  At a
 * coarse tick those latest are mostly requests that arrived in the call's
 * own tick, which the rows (joint_rowtie.c) then put out as arrived after
 * the call; cut first and cut again, a call of a queue (a pool whose
 * requests wait, first come, first served) keeps neither its true parent,
 * the oldest waiting request, nor the requests the rows deny, and the rows'
 * test counts the call as left without a candidate.  So where tie_rows may
 * run (coarse ties), the candidates are collected up to tie_rows_wide x
 * max_candidates, the rows judge those, and then each list is cut to
 * max_candidates by the same rule (joint_cand_cap: cand_ends' both ends,
 * joint_candends.c, or the latest-started).  Without coarse ties,
 * or with tie_rows=0 or tie_rows_wide=1, nothing changes.
 */
#include "joint_int.h"
#include <stdlib.h>
#include <string.h>

size_t joint_rowcap_wide(const joint *s, size_t kmax)
{
    if (!s->coarse || !s->p.tie_rows || s->p.tie_rows_wide <= 1)
        return kmax;
    return kmax * (size_t)s->p.tie_rows_wide;
}

int joint_rowcap_apply(joint *s, const uint32_t *crank, size_t kmax)
{
    uint32_t n = s->npairs, w = 0;
    size_t amb = 0, nest = 0;
    int rc = PB_OK;
    for (uint32_t p = 0; p < n && rc == PB_OK; p++) {
        uint32_t j0 = s->cand_off[p], j1 = s->cand_off[p + 1];
        size_t got = j1 - j0;
        s->cand_off[p] = w;
        memmove(s->cand + w, s->cand + j0, got * sizeof *s->cand);
        if (got > kmax) {
            rc = joint_cand_cap(s, s->cand + w, got, kmax, crank[p]);
            s->capped_calls++;
            if (got > s->capped_max)
                s->capped_max = got;
            got = kmax;
        }
        w += (uint32_t)got;
        amb += got > 1;
        nest += got > 0;
    }
    if (rc != PB_OK)
        return rc;
    s->cand_off[n] = w;
    s->ncand = w;
    s->ambiguous = amb;
    s->nested = nest;
    if (s->capped_calls > s->capped_ever)
        s->capped_ever = s->capped_calls;
    if (s->capped_max > s->capped_ever_max)
        s->capped_ever_max = s->capped_max;
    return PB_OK;
}
