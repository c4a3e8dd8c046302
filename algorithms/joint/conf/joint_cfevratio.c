/*
 * joint_cfevratio.c - conf_ratio_events: the doubt ratio that multiplies the
 * events map's error counted in the events map's own units
 * (docs/joint/confidence_w36.md, "The events map's doubt ratio in its own
 * units (h300)").
 *
 * The events map (conf_copy_events=2, joint_cfev.c) counts a link's copy
 * rows in units of m, the link's copy rows per request holding one, and
 * takes one unit of m rows as its prior's wrong row: a link whose w copy
 * rows were all right is valued 1 - m / (w + 2 m) (less at the Wilson
 * bound of conf_copy_share_z).  The doubt ratio it is multiplied by,
 *   r = ((d_real + 1) / (n_real + 1)) / ((d_copy + 1) / (n_copy + 1)),
 * counts rows and takes one row as its prior's doubt.  Where the copy
 * doubted nothing (d_copy about 0), r is about n_copy times the real
 * doubt, and the row's error r m / (w + 2 m) about m times the real
 * doubt, however large the copy: on OnlineBoutique 07:11 with call ids
 * (conf_seed 1) frontend > productcatalogservice has m = 4.75 and a real
 * doubt of 0.035, so its rows, 99.6 % right, are stated 0.54 (Wilson) and
 * the siblings cap takes the frontend's other calls there too.
 *
 * The rule.  With conf_ratio_events=1 the events map's error is multiplied
 * by the ratio counted in the same units on both sides,
 *   r_ev = ((d_real / m + 1) / (n_real / m + 1)) / ((d_copy / m + 1) / (n_copy / m + 1)),
 * at least 1 and never above the plain ratio (the rule only eases it);
 * m the link's (the all-links map's where the events map uses that one).
 * conf_ratio_events_band = b > 0: only the rows stated at least b count,
 * on both sides (the doubt of rows the trace itself states below b is
 * theirs).  conf_ratio_events=2: the ratio is eased (to 1) only where the
 * units ratio is below 1 -- the real rows counted doubted less than the
 * copy's -- and is the plain one elsewhere.  Every other map keeps the plain
 * ratio.  Confidences only.
 */
#include "joint_int.h"
#include <stdlib.h>
#include <string.h>

void joint_cfer_free(joint *s)
{
    free(s->cfer_m);
    free(s->cfer_r);
    s->cfer_m = s->cfer_r = NULL;
}

void joint_cfer_keep_m(joint *s, const double *mev, uint32_t nl)
{
    if (!s->p.conf_ratio_events || s->p.conf_copy_se)
        return;
    free(s->cfer_m);
    s->cfer_m = malloc(((size_t)nl + 1) * sizeof *s->cfer_m);
    if (s->cfer_m) /* no memory: the plain ratio (joint_cfer_r) */
        memcpy(s->cfer_m, mev, ((size_t)nl + 1) * sizeof *mev);
}

int joint_cfer_fit(joint *s, const joint_spt *pts, uint32_t np, const double *conf,
                   const unsigned char *exr, uint32_t n, uint32_t nl)
{
    free(s->cfer_r);
    s->cfer_r = NULL;
    if (!s->p.conf_ratio_events || !s->cfer_m)
        return PB_OK;
    /* per link and all links: real rows, real doubt, copy rows, copy doubt */
    double *t = calloc(4 * ((size_t)nl + 1), sizeof *t);
    s->cfer_r = malloc(((size_t)nl + 1) * sizeof *s->cfer_r);
    if (!t || !s->cfer_r) {
        free(t);
        free(s->cfer_r);
        s->cfer_r = NULL;
        return PB_ENOMEM;
    }
    const double b = s->p.conf_ratio_events_band;
    s->cfer_rec[0] = s->cfer_rec[1] = 0;
    for (uint32_t p = 0; p < n; p++) {
        if (exr[p] || conf[p] < b)
            continue;
        for (int z = 0; z < 2; z++) {
            double *u = t + 4 * (size_t)(z ? nl : s->pr[p].link);
            u[0]++;
            u[1] += 1 - conf[p];
        }
    }
    for (uint32_t i = 0; i < np; i++) {
        if (pts[i].c < b)
            continue;
        for (int z = 0; z < 2; z++) {
            double *u = t + 4 * (size_t)(z || pts[i].cls >= nl ? nl : pts[i].cls);
            u[2]++;
            u[3] += 1 - pts[i].c;
        }
    }
    for (uint32_t l = 0; l <= nl; l++) {
        const double *u = t + 4 * (size_t)l;
        double m = s->cfer_m[l] >= 1 ? s->cfer_m[l] : 1;
        double real = (u[1] / m + 1) / (u[0] / m + 1), copy = (u[3] / m + 1) / (u[2] / m + 1);
        double r = real / copy, r0 = s->scal_stat[JOINT_SCAL_NSTAT * (size_t)l + 7];
        /* mode 2: eased to 1 only where the real rows counted doubt less
         * than the copy's, else the plain ratio */
        if (s->p.conf_ratio_events == 2)
            r = r < 1 ? 1 : r0;
        if (r < 1)
            r = 1;
        s->cfer_r[l] = r < r0 ? r : r0;
        if (r < r0 && l < nl)
            s->cfer_rec[0]++;
    }
    s->cfer_rec[2] = s->cfer_r[nl];
    s->cfer_rec[3] = s->scal_stat[JOINT_SCAL_NSTAT * (size_t)nl + 7];
    free(t);
    return PB_OK;
}

double joint_cfer_r(joint *s, const joint_cfse *c, uint32_t l, double r)
{
    if (!s->cfer_r || !c->on)
        return r;
    int own = l < c->nl && c->off[2 * l + 1] != c->off[2 * l]; /* joint_cfse_at's map */
    double v = s->cfer_r[own ? l : c->nl];
    if (v < r) {
        s->cfer_rec[1]++;
        return v;
    }
    return r;
}

int joint_cfer_meta(const joint *s, pb_result *res)
{
    if (!s->p.conf_ratio_events || !s->scal_done)
        return PB_OK;
    return pb_result_meta(res, "conf_ratio_events=%d band=%g links_eased=%.0f rows_eased=%.0f "
                          "ratio_all_links=%.3f plain_ratio_all_links=%.3f (the events map's "
                          "error times the doubt ratio counted in its units of m rows on both "
                          "sides, never above the plain ratio)",
                          s->p.conf_ratio_events, s->p.conf_ratio_events_band, s->cfer_rec[0],
                          s->cfer_rec[1], s->cfer_rec[2], s->cfer_rec[3]);
}
