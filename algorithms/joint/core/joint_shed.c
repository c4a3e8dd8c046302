/*
 * joint_shed.c - joint: the search's scratch let go before the output
 * (docs/joint/scale.md, "Peak memory: the search's scratch let go (h250)").
 *
 * joint_paths runs the confidence (self-calibration copy included) while
 * the search's whole state is alive; on the 2 M-message multi-tier row
 * that is where the peak falls.  Part of that state is scratch whose
 * contents no later step reads:
 *
 *   - s->seen, the local search's table of the pairs of requests tried in
 *     a pass (joint_search.c): every pass empties it before its first
 *     look-up, so a later pass (the confidence may resume a search) finds
 *     the same empty table whether it was kept or made afresh.  Its room
 *     grows with the pairs tried (4 M slots, 50 MB on the 2 M row).
 *
 *   - s->hraw, joint_fit's memo of each key's raw counts (joint_memraw.c),
 *     once the confidence is over (joint_shed_memo): no fit follows on
 *     the output's path, and a fit that found the memo empty (hraw_valid
 *     0, as after joint_select's reset) computes every key afresh, the
 *     same numbers (fit_fast's and the memo's own exactness).  12.8 MB on
 *     200 k pairs of nodes that share nothing, where the peak is the
 *     output's metadata written while the state is alive.
 *
 * Exact: only what is emptied before its next read is freed; a later use
 * grows it again from nothing.  No option.
 */
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>

size_t joint_shed_last = 0; /* tests: bytes freed by the last call */

void joint_shed_search(joint *s)
{
    joint_shed_last = s->seen.cap * (sizeof *s->seen.k + sizeof *s->seen.v);
    free(s->seen.k);
    free(s->seen.v);
    memset(&s->seen, 0, sizeof s->seen);
}

void joint_shed_memo(joint *s)
{
    free(s->hraw);
    s->hraw = NULL;
    s->hraw_valid = 0;
}
