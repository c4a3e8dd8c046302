/*
 * joint_cfthin.c - joint: a link too thin for a map of its own is stated
 * no surer than its own copy rows, however few, say (conf_thin_own;
 * docs/joint/confidence_late.md, "The copy's truth shuffled among
 * overlapping requests (h212)"; issue 28).
 *
 * Why.  The self-calibration (joint_selfcal.c) fits a map from stated
 * confidence to the share of copy rows right per link, and a link with
 * fewer than JOINT_SELFCAL_MIN copy rows uses the map of all links.  That
 * map is the busy links' (the short requests' calls, nearly all right);
 * a thin link's own rows may be wrong far more often at the same stated
 * confidence: experiments/joint_apps_shortlong.conf seed 1 at 1 ms with
 * call ids, api>agg and agg>db (the long requests' calls of their kind)
 * 26 of 35 and 28 of 39 copy rows right, their real rows mapped as the
 * short requests' are: [0.99, 0.999) 28 rows, 85.7 % right (46 rows,
 * 91.3 % on main).  Their copy rows are stated lower than their real
 * rows (mean doubt 0.15 against 0.02), so the all-links map, read at the
 * real rows' stated confidence, never sees the link's own errors.
 *
 * The rule.  Each link without a map of its own gets one anyway, fitted
 * as every map is (pool-adjacent-violators, each block (right + 1) /
 * (rows + 2), the top block holding a wrong row): with few rows its
 * blocks are few and pulled towards 1/2.  Its real rows take the lower of
 * the two maps (the doubt ratio applied to both).  A thin link whose copy
 * rows are all right keeps the all-links map up to (rows + 1) / (rows + 2).
 * Only in the confidences the result carries (joint_cf_final_conf), never
 * in those late_trust decides with: every assignment is unchanged.
 */
#include "joint_int.h"
#include "joint_rules.h"

#include <stdlib.h>
#include <string.h>

void joint_cfthin_free(joint_cfthin *t)
{
    free(t->lo);
    free(t->val);
    free(t->off);
    memset(t, 0, sizeof *t);
}

int joint_cfthin_fit(joint *s, const joint_spt *pts, uint32_t np, uint32_t nl,
                     const uint32_t *cls_off, joint_cfthin *t)
{
    memset(t, 0, sizeof *t);
    s->p.cfn_links = 0;
    if (!s->p.conf_thin_own || !s->p.cft_final || !np)
        return PB_OK;
    t->lo = malloc(((size_t)np + 1) * sizeof *t->lo);
    t->val = malloc(((size_t)np + 1) * sizeof *t->val);
    t->off = calloc(2 * ((size_t)nl + 1), sizeof *t->off);
    double *w = malloc(((size_t)np + 1) * sizeof *w), *k = malloc(((size_t)np + 1) * sizeof *k);
    if (!t->lo || !t->val || !t->off || !w || !k) {
        free(w);
        free(k);
        joint_cfthin_free(t);
        return PB_ENOMEM;
    }
    /* pts: sorted by class (link), then stated share (joint_fit_maps) */
    uint32_t used = 0;
    for (uint32_t i = 0; i < np;) {
        uint32_t j = i, l = pts[i].cls;
        while (j < np && pts[j].cls == l)
            j++;
        if (l < nl && cls_off[2 * l + 1] == cls_off[2 * l]) {
            uint32_t b = joint_pav_fit(pts + i, j - i, t->lo + used, t->val + used, w, k);
            t->off[2 * l] = used;
            t->off[2 * l + 1] = used + b;
            used += b;
            s->p.cfn_links++;
        }
        i = j;
    }
    t->on = 1;
    free(w);
    free(k);
    return PB_OK;
}

double joint_cfthin_at(const joint_cfthin *t, uint32_t l, double c)
{
    if (!t->on || t->off[2 * l + 1] == t->off[2 * l])
        return 1;
    uint32_t a = t->off[2 * l];
    return joint_map_at(t->lo + a, t->val + a, t->off[2 * l + 1] - a, c);
}
