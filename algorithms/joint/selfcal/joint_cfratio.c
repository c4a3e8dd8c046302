/*
 * joint_cfratio.c - joint: the doubt ratio of a shuffled calibration copy
 * measured where the shuffle did not make the copy doubt more
 * (conf_ratio_copy; docs/joint/confidence_late.md, "The doubt ratio
 * beside a shuffled copy (h221)"; issue 28).
 *
 * Why.  The self-calibration (joint_selfcal.c) lowers a real row stated c
 * to 1 - ratio (1 - map(c)), where the doubt ratio is the real rows' mean
 * doubt (1 - confidence) over the copy's rows' (per link, at least 1): how
 * much harder the real trace is than its copy.  conf_copy_shuffle
 * (joint_cfshuf.c) deals the calls of overlapping requests again, so the
 * copy's truth doubts the solution's split of an overlap; but the deal
 * also puts requests of other shapes side by side, which raises the
 * copy's stated doubt without its errors (OnlineBoutique 17:00 with call
 * ids: frontend>currencyservice copy doubt 0.0034 -> 0.0198, copy rows
 * right 270 of 282 -> 283 of 289), and the ratio that kept that set
 * calibrated (8.7 over all links) falls to 1.7.  The map wants the
 * shuffled copy (its errors); the ratio wants a copy whose doubt is the
 * solution's own.
 *
 * The rule (only where the result's confidences are computed with the
 * shuffle on: s->p.cft_final and conf_copy_shuffle):
 *   1: the copy side of the ratio (its rows and their summed doubt, per
 *      link and for all links) comes from a second copy made as without
 *      the shuffle (same seed); its rows feed no map and no siblings-cap
 *      test.  One more inference of the copy's window (conf_ratio_share:
 *      a smaller window), skipped where the deal moved no request (the
 *      shuffled copy is then a plain one).
 *   2: no second copy: the copy side of the ratio is the shuffled copy's
 *      rows whose truth parent the deal left alone (cpar == par: a
 *      request overlapping none of its link, or dealt its own calls).
 *   0: off (the shuffled copy's own rows, as conf_copy_shuffle alone).
 */
#include "joint_int.h"
#include "joint_rules.h"

#include <stdlib.h>
#include <string.h>

int joint_cfr_begin(joint *s)
{
    free(s->p.cfr_stat);
    s->p.cfr_stat = NULL;
    s->p.cfr_rows = 0;
    if (!s->p.conf_ratio_copy || !s->p.conf_copy_shuffle || !s->p.cft_final)
        return PB_OK;
    s->p.cfr_stat = calloc(2 * ((size_t)s->nlinks + 1), sizeof *s->p.cfr_stat);
    return s->p.cfr_stat ? PB_OK : PB_ENOMEM;
}

int joint_cfr_plain_wanted(const joint *s)
{
    /* a deal that moved no request made a plain copy already */
    return s->p.cfr_stat && s->p.conf_ratio_copy == 1 && s->p.cfs_moved > 0;
}

void joint_cfr_row(joint *s, uint32_t link, double stated, int unmoved)
{
    if (!s->p.cfr_stat || s->p.conf_ratio_copy != 2 || !unmoved)
        return;
    uint32_t nl = s->nlinks;
    for (int z = 0; z < 2; z++) {
        double *st = s->p.cfr_stat + 2 * (size_t)(z ? nl : link);
        st[0]++;
        st[1] += 1 - stated;
    }
    s->p.cfr_rows++;
}

void joint_cfr_take_plain(joint *s, const double *before, size_t nstat)
{
    uint32_t nl = s->nlinks;
    for (uint32_t l = 0; l <= nl; l++) {
        double *st = s->scal_stat + nstat * l;
        const double *b = before + nstat * l;
        s->p.cfr_stat[2 * (size_t)l] += st[0] - b[0];
        s->p.cfr_stat[2 * (size_t)l + 1] += st[4] - b[4];
    }
    s->p.cfr_rows += s->scal_stat[nstat * nl] - before[nstat * nl];
    memcpy(s->scal_stat, before, nstat * ((size_t)nl + 1) * sizeof *before);
}

void joint_cfr_copy_side(const joint *s, uint32_t l, double *rows, double *doubt)
{
    if (!s->p.cfr_stat || (s->p.conf_ratio_copy == 1 && !(s->p.cfs_moved > 0)))
        return;
    *rows = s->p.cfr_stat[2 * (size_t)l];
    *doubt = s->p.cfr_stat[2 * (size_t)l + 1];
}

void joint_cfr_end(joint *s)
{
    if (s->p.cfr_stat)
        s->p.cfr_used = s->p.conf_ratio_copy == 1 && !(s->p.cfs_moved > 0) ? 2 : 1;
    free(s->p.cfr_stat);
    s->p.cfr_stat = NULL;
}

int joint_cfr_meta(const joint *s, pb_result *res)
{
    if (!s->p.conf_ratio_copy || !s->p.conf_copy_shuffle || !s->p.conf_selfcal ||
        !s->p.cfr_used)
        return PB_OK;
    return pb_result_meta(res,
                          "conf_ratio_copy=%d copy_rows=%.0f ratio_all_links=%.3g (the doubt "
                          "ratio's copy side: %s)",
                          s->p.conf_ratio_copy, s->p.cfr_rows, s->p.cfr_ratio,
                          s->p.cfr_used == 2 ? "the deal moved no request: the shuffled copy's"
                          : s->p.conf_ratio_copy == 1 ? "a copy made without the shuffle"
                                                      : "the shuffled copy's rows the deal left "
                                                        "alone");
}
