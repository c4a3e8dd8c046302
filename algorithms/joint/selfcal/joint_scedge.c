/*
 * joint_scedge.c - joint: the calibration copy's rows near its window's
 * cuts searched but not counted (`conf_copy_margin`, default 0: off;
 * docs/joint/confidence_late.md, "The copy's window: how its error rates
 * converge, and its cut edges (h267)").
 *
 * Where the trace holds more pairs than the copy's budget, the
 * self-calibration (joint_selfcal.c, pick_roots) copies a window of
 * requests around the trace's middle.  The requests next to a cut the
 * window makes (not the trace's own first or last requests) have
 * neighbours on one side only: fewer overlapping requests, so the copy's
 * search is right more often there than in the trace.  Measured (h267):
 * a smaller window states every link's error rate lower than the
 * whole-trace copy does on the application shapes (apps async s3, 1 ms,
 * black box: -9.0 points at 500 pairs, -2.7 at 1,000, -2.3 at the
 * default 2,000).
 *
 * The rule: the copy's requests (trees of the real solution) are ordered
 * by their root's arrival; the first conf_copy_margin share of the copy's
 * pairs (whole requests) after a cut at the window's start, and the last
 * share before a cut at its end, are searched as always but their rows
 * are not counted in the calibration's statistics (the maps, the link's
 * rows).  A side that is the trace's own end is not cut and keeps its
 * rows.  Only the result's calibration copy (scp_cal), as conf_copy_share.
 * Confidences only.
 */
#include "joint_int.h"

#include <stdlib.h>
#include "pb_sort.h"

#define NONE JOINT_NONE

int joint_sce_mark(joint *s, const unsigned char *pick)
{
    free(s->sce_edge);
    s->sce_edge = NULL;
    double mg = s->p.conf_copy_margin;
    uint32_t n = s->npairs;
    if (!(mg > 0) || !s->p.scp_cal || !pick || n == 0)
        return PB_OK;
    uint32_t *root = malloc(((size_t)n + 1) * sizeof *root);
    uint32_t *size = calloc((size_t)n + 1, sizeof *size);
    insort *r = malloc(((size_t)n + 1) * sizeof *r);
    unsigned char *cut = calloc((size_t)n + 1, 1);
    if (!root || !size || !r || !cut) {
        free(root);
        free(size);
        free(r);
        free(cut);
        return PB_ENOMEM;
    }
    for (uint32_t q = 0; q < n; q++) {
        uint32_t j = q, st = 0;
        while (s->par[j] != NONE && st++ < n)
            j = s->par[j];
        root[q] = s->par[j] == NONE ? j : NONE;
        if (root[q] != NONE)
            size[j]++;
    }
    /* every root by arrival; the window's first and last picked ones */
    uint32_t nr = 0;
    for (uint32_t q = 0; q < n; q++)
        if (s->par[q] == NONE)
            r[nr++] = (insort){s->pr[q].cr, q};
    pb_sort(r, nr, sizeof *r, joint_cmp_insort);
    uint32_t a = nr, z = 0;
    size_t got = 0;
    for (uint32_t i = 0; i < nr; i++)
        if (pick[r[i].p]) {
            if (a == nr)
                a = i;
            z = i + 1;
            got += size[r[i].p];
        }
    size_t want = (size_t)(mg * (double)got), drop = 0;
    if (a < nr && a > 0) /* a cut at the window's start */
        for (size_t i = a, acc = 0; i < z && acc < want; i++)
            if (pick[r[i].p]) {
                acc += size[r[i].p];
                cut[r[i].p] = 1;
            }
    if (a < nr && z < nr) /* a cut at its end */
        for (size_t i = z, acc = 0; i > a && acc < want; i--)
            if (pick[r[i - 1].p]) {
                acc += size[r[i - 1].p];
                cut[r[i - 1].p] = 1;
            }
    for (uint32_t q = 0; q < nr; q++)
        drop += cut[r[q].p] ? size[r[q].p] : 0;
    if (drop > 0) {
        s->sce_edge = calloc((size_t)n + 1, 1);
        if (!s->sce_edge) {
            free(root);
            free(size);
            free(r);
            free(cut);
            return PB_ENOMEM;
        }
        for (uint32_t q = 0; q < n; q++)
            s->sce_edge[q] = root[q] != NONE && cut[root[q]];
    }
    free(root);
    free(size);
    free(r);
    free(cut);
    return PB_OK;
}

int joint_sce_skip(joint *s, uint32_t i)
{
    if (!s->sce_edge || !s->sce_edge[i])
        return 0;
    s->sce_rows++;
    return 1;
}

void joint_sce_free(joint *s)
{
    free(s->sce_edge);
    s->sce_edge = NULL;
}

int joint_sce_meta(const joint *s, pb_result *res)
{
    if (!(s->p.conf_copy_margin > 0))
        return PB_OK;
    return pb_result_meta(res, "conf_copy_margin=%g copy_rows_uncounted=%zu (the calibration copy's "
                          "rows next to its window's cuts, searched and not counted)",
                          s->p.conf_copy_margin, s->sce_rows);
}
