/*
 * joint_cfev.c - conf_copy_events: the self-calibration map with the copy's
 * rows counted in units of its errors' clusters (docs/joint/confidence_late.md,
 * "Copy errors counted by the request (h269)").
 *
 * The map from stated share to share right is fitted on one simulated copy
 * (pool-adjacent-violators blocks, (right + 1) / (rows + 2): one wrong row
 * and one right row of prior).  But a copy's errors are not independent
 * rows: a search that moves a whole chain of calls into an overlapping
 * request makes every row of the chain wrong at once.  A copy then holds a
 * few such events, and whether it holds two or none is the draw's luck: on
 * OnlineBoutique 03:53 with call ids the copy at conf_seed 2 was right on
 * 324 of 324 currency calls, at seeds 1 and 3 on 315 of 333 and 301 of 314
 * (h260).  Where it was right on every row, the prior's one wrong row is all
 * the map has, 1 / 326, and the doubt ratio scales that.
 *
 * So the block's rows are counted in units of m, the copy's wrong rows per
 * request they were put in (the design effect of rows that move together;
 * pooled over every link and copy; 1 where the copy made no error), and the
 * prior is one event of each kind: a block of w rows, k right, is valued
 * (k / m + 1) / (w / m + 2) = (k + m) / (w + 2 m) -- or, with
 * conf_copy_events_z, the Wilson lower bound of that share from w / m + 2
 * samples.  The map is made monotone again and every row is stated at most
 * it, times the doubt ratio, beside the plain map (joint_cfse.c's hook in
 * the self-calibration's row loop).  Where the copy saw errors the blocks
 * barely move; where a link's copy rows were all right, its top block's
 * doubt grows m times.  Confidences only.
 */
#include "joint_int.h"
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

void joint_cfev_row(joint *s, const joint *s2, uint32_t p2, int ok)
{
    if (!s->p.conf_copy_events || s->p.cfr_plain)
        return;
    /* the rows of one copy come in rising order: a row not above the last
     * one starts another copy */
    if (s->cev_last && p2 + 1 <= s->cev_last)
        s->cev_copy++;
    s->cev_last = p2 + 1;
    s->cev_rows++;
    if (ok)
        return;
    uint32_t r = p2;
    for (uint32_t k = 0; k < s2->npairs && s2->par[r] != JOINT_NONE; k++)
        r = s2->par[r];
    if (s->cev_n == s->cev_cap) {
        size_t nc = s->cev_cap ? 2 * s->cev_cap : 64;
        uint64_t *g = realloc(s->cev_grp, nc * sizeof *g);
        if (!g)
            return; /* no memory: the row uncounted (m only lower) */
        s->cev_grp = g;
        s->cev_cap = nc;
    }
    s->cev_grp[s->cev_n++] = (uint64_t)s->cev_copy << 32 | r;
}

static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

double joint_cfev_m(joint *s)
{
    size_t groups = 0;
    if (s->cev_n) {
        pb_sort(s->cev_grp, s->cev_n, sizeof *s->cev_grp, u64_cmp);
        for (size_t i = 0; i < s->cev_n; i++)
            groups += !i || s->cev_grp[i] != s->cev_grp[i - 1];
    }
    double m = groups ? (double)s->cev_n / (double)groups : 1;
    s->cev_rec[0] = s->cev_rows;
    s->cev_rec[1] = (double)s->cev_n;
    s->cev_rec[2] = (double)groups;
    s->cev_rec[3] = m;
    joint_cfev_reset(s);
    return m < 1 ? 1 : m;
}

void joint_cfev_reset(joint *s)
{
    free(s->cev_grp);
    s->cev_grp = NULL;
    s->cev_n = s->cev_cap = 0;
    s->cev_copy = s->cev_last = 0;
    s->cev_rows = 0;
}

int joint_cfev_meta(const joint *s, pb_result *res)
{
    if (!s->p.conf_copy_events || !s->scal_done)
        return PB_OK;
    return pb_result_meta(res, "conf_copy_events=%d z=%g copy_rows=%.0f wrong_rows=%.0f "
                          "wrong_requests=%.0f m=%.3f rows_lowered=%zu (the calibration map "
                          "with the copy's rows counted in units of m, its wrong rows per "
                          "request holding one)",
                          s->p.conf_copy_events, s->p.conf_copy_events_z, s->cev_rec[0],
                          s->cev_rec[1], s->cev_rec[2], s->cev_rec[3], s->p.cse_lowered);
}
