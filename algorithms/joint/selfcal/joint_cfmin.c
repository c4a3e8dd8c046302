/*
 * joint_cfmin.c - joint: the confidence as the lower of two estimates
 * that err different ways (conf_ratio_min; docs/joint/confidence_late.md,
 * "The lower of the plain and the shuffled map (h232)"; issue 28).
 *
 * Why.  With conf_copy_shuffle=1 and conf_ratio_copy=1 the
 * self-calibration makes two copies of the trace's window: the shuffled
 * one (its calls of overlapping requests dealt again) gives the map
 * (stated -> share right), the plain one the doubt ratio's copy side.
 * The plain copy's own map (the one the defaults use) is
 * over-confident where the solution's split of overlaps is what goes
 * wrong (held-out retry s12, shortlong s13 with ns stamps, [0.99,0.999));
 * the shuffled copy's map is over-confident where the deal makes the
 * copy's rows of a link easier than the real ones, e.g. OnlineBoutique
 * 06:35 with call ids, [0.9,0.95) under conf_ratio_copy=1 (see the docs
 * section for the rows).  Each map is the calibrated one where the other
 * errs, so the row's confidence is the lower of the two.
 *
 * The rule (only with conf_copy_shuffle=1, conf_ratio_copy=1 and a deal
 * that moved a request, so that a plain copy is made):
 *   1: the plain copy's rows (which fed only the ratio) fit maps too
 *      (joint_fit_maps: all links and each link with enough rows); a row
 *      is stated at most 1 - r (1 - plain map(c)) beside the shuffled
 *      map's 1 - r (1 - map(c)), r the same doubt ratio;
 *   2: the doubt ratio is the larger of the plain copy's and the shuffled
 *      copy's (per link and for all links; h221's "Left");
 *   0: off.
 * Confidences only: the assignment is never touched.
 */
#include "joint_int.h"
#include "joint_rules.h"

#include <stdlib.h>
#include <string.h>

void joint_cfmin_init(joint_cfmin *m)
{
    memset(m, 0, sizeof *m);
}

int joint_cfmin_keep(const joint *s)
{
    return s->p.conf_ratio_min == 1;
}

int joint_cfmin_fit(const joint *s, joint_spt *pts, uint32_t np, joint_cfmin *m)
{
    if (s->p.conf_ratio_min != 1 || !pts || !np)
        return PB_OK;
    uint32_t nl = s->nlinks;
    m->lo = malloc(2 * ((size_t)np + 1) * sizeof *m->lo);
    m->val = malloc(2 * ((size_t)np + 1) * sizeof *m->val);
    double *w = malloc(((size_t)np + 1) * sizeof *w);
    double *kk = malloc(((size_t)np + 1) * sizeof *kk);
    m->off = malloc(2 * ((size_t)nl + 2) * sizeof *m->off);
    int rc = m->lo && m->val && w && kk && m->off ? PB_OK : PB_ENOMEM;
    if (rc == PB_OK)
        joint_fit_maps_min(pts, np, nl, m->lo, m->val, w, kk, m->off, joint_scz_min(s), &rc);
    free(w);
    free(kk);
    m->nl = nl;
    m->on = rc == PB_OK;
    return rc;
}

double joint_cfmin_at(const joint_cfmin *m, uint32_t l, double c)
{
    if (!m->on)
        return 1;
    uint32_t a = m->off[2 * l], z = m->off[2 * l + 1];
    if (z == a) {
        a = m->off[2 * m->nl];
        z = m->off[2 * m->nl + 1];
    }
    return joint_map_at(m->lo + a, m->val + a, z - a, c);
}

double joint_cfmin_ratio(const joint *s, double r, const double *st)
{
    /* mode 2: the shuffled copy's own ratio beside the plain one (st: the
     * link's counters; st[0], st[4] the shuffled copy's rows and doubt,
     * st[5], st[6] the real rows' and doubt) */
    if (s->p.conf_ratio_min != 2 || !s->p.cfr_stat)
        return r;
    double rs = ((st[6] + 1) / (st[5] + 1)) / ((st[4] + 1) / (st[0] + 1));
    return rs > r ? rs : r;
}

void joint_cfmin_free(joint_cfmin *m)
{
    free(m->lo);
    free(m->val);
    free(m->off);
    memset(m, 0, sizeof *m);
}

int joint_cfmin_meta(const joint *s, pb_result *res)
{
    if (!s->p.conf_ratio_min || !s->p.cfr_used)
        return PB_OK;
    return pb_result_meta(res,
                          "conf_ratio_min=%d lowered=%zu (%s)", s->p.conf_ratio_min,
                          s->p.cfm_lowered,
                          s->p.conf_ratio_min == 1
                              ? "rows the plain copy's map stated lower than the shuffled one's"
                              : "links whose shuffled copy's ratio was the larger");
}
