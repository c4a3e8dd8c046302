/*
 * joint_cfse.c - conf_copy_se: the self-calibration map taken at a lower
 * bound of each block's share right, from the copy's own noise
 * (docs/joint/confidence_late.md, "The copy's own noise: a lower bound per
 * block (h248)").
 *
 * The map from stated share to share right is fitted on one simulated
 * copy (pool-adjacent-violators blocks, joint_pav.c), and which copy is
 * drawn (conf_seed) moves it: at conf_seed=2 OnlineBoutique 03:53 with
 * call ids states 6,492 rows 0.97 and 91.6 % are right (h238).  A block of
 * w copy rows, k right, is a sample of about w / m requests (m: the
 * trace's rows per request; the rows of a request share their fate), so
 * its share right is known to about sqrt(p (1 - p) m / w).  With
 * conf_copy_se on, every row is also stated at most the Wilson lower bound
 * at conf_copy_se_z standard errors of its block (the all-links map and
 * each link's own, as the map itself; monotone again from the top), times
 * the doubt ratio as the map is.  Confidences only.
 */
#include "joint_int.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

double joint_wilson_lo(double k, double n, double z)
{
    if (n <= 0)
        return 0;
    double p = k / n, z2 = z * z;
    double c = p + z2 / (2 * n), r = z * sqrt(p * (1 - p) / n + z2 / (4 * n * n));
    double v = (c - r) / (1 + z2 / n);
    return v < 0 ? 0 : v;
}

/* one class's blocks from pts[0..n) (sorted, one class) into lo/val;
 * returns the number.  The map's blocks (joint_pav_fit), each valued at
 * its lower bound; where a block's bound is above the next one's the two
 * are pooled (more rows, a tighter bound) until the bounds ascend, as the
 * map's own blocks were pooled */
static uint32_t fit_one(const joint_spt *pts, uint32_t n, double m, double z, double *lo,
                        double *val, double *w, double *k, int ev)
{
    /* ev (conf_copy_events): the prior's right and wrong row are one unit
     * of m rows each, (k / m + 1) / (w / m + 2); else one row each */
    const double a = ev ? 1 : 1 / m, a2 = 2 * a;
    uint32_t b0 = joint_pav_fit(pts, n, lo, val, w, k), b = 0;
    for (uint32_t j = 0; j < b0; j++) {
        lo[b] = lo[j];
        w[b] = w[j];
        k[b] = k[j];
        val[b] = joint_wilson_lo(k[b] / m + a, w[b] / m + a2, z);
        b++;
        while (b > 1 && val[b - 2] > val[b - 1]) {
            w[b - 2] += w[b - 1];
            k[b - 2] += k[b - 1];
            b--;
            val[b - 1] = joint_wilson_lo(k[b - 1] / m + a, w[b - 1] / m + a2, z);
        }
    }
    return b;
}

void joint_cfse_free(joint_cfse *c)
{
    free(c->lo);
    free(c->val);
    free(c->off);
    memset(c, 0, sizeof *c);
}

int joint_cfse_fit(joint *s, joint_spt *pts, uint32_t np, uint32_t nl, joint_cfse *c)
{
    memset(c, 0, sizeof *c);
    s->p.cse_lowered = 0;
    /* conf_copy_events (joint_cfev.c): m per link (mev[nl]: all links), the
     * copy rows seen forgotten */
    double *mev = malloc(((size_t)nl + 1) * sizeof *mev);
    if (!mev)
        return PB_ENOMEM;
    int rc = joint_cfev_m(s, nl, mev);
    if (rc == PB_OK && s->p.conf_copy_events)
        joint_cfer_keep_m(s, mev, nl); /* conf_ratio_events (joint_cfevratio.c) */
    if (rc != PB_OK || (!s->p.conf_copy_se && !s->p.conf_copy_events) || !np) {
        free(mev);
        return rc;
    }
    /* rows per request: pairs per root of the real trace */
    uint32_t roots = 0;
    for (uint32_t p = 0; p < s->npairs; p++)
        roots += s->par[p] == JOINT_NONE;
    double m = roots ? (double)s->npairs / roots : 1;
    if (m < 1 || s->p.conf_copy_se == 2)
        m = 1; /* 2: every row its own sample */
    const int ev = !s->p.conf_copy_se;
    c->lo = malloc(2 * ((size_t)np + 1) * sizeof *c->lo);
    c->val = malloc(2 * ((size_t)np + 1) * sizeof *c->val);
    c->off = calloc(2 * ((size_t)nl + 1), sizeof *c->off);
    double *w = malloc(((size_t)np + 1) * sizeof *w), *k = malloc(((size_t)np + 1) * sizeof *k);
    joint_spt *all = malloc(((size_t)np + 1) * sizeof *all);
    if (!c->lo || !c->val || !c->off || !w || !k || !all) {
        free(w);
        free(k);
        free(all);
        free(mev);
        joint_cfse_free(c);
        return PB_ENOMEM;
    }
    c->on = 1;
    c->nl = nl;
    double z = s->p.conf_copy_se ? s->p.conf_copy_se_z
                                 : joint_scz_z(s, s->p.conf_copy_events_z); /* joint_scz.c */
    pb_sort(pts, np, sizeof *pts, joint_spt_cmp);
    memcpy(all, pts, np * sizeof *all);
    for (uint32_t i = 0; i < np; i++)
        all[i].cls = 0;
    pb_sort(all, np, sizeof *all, joint_spt_cmp);
    uint32_t used = fit_one(all, np, ev ? mev[nl] : m, z, c->lo, c->val, w, k, ev);
    c->off[2 * nl] = 0;
    c->off[2 * nl + 1] = used;
    free(all);
    for (uint32_t i = 0; i < np;) {
        uint32_t j = i;
        while (j < np && pts[j].cls == pts[i].cls)
            j++;
        if (j - i >= joint_scz_min(s) && pts[i].cls < nl) {
            uint32_t b = fit_one(pts + i, j - i, ev ? mev[pts[i].cls] : m, z, c->lo + used,
                                 c->val + used, w, k, ev);
            c->off[2 * pts[i].cls] = used;
            c->off[2 * pts[i].cls + 1] = used + b;
            used += b;
        }
        i = j;
    }
    free(w);
    free(k);
    free(mev);
    return PB_OK;
}

double joint_cfse_at(const joint_cfse *c, uint32_t l, double v)
{
    if (!c->on)
        return 1.0;
    uint32_t a = c->off[2 * l], z = c->off[2 * l + 1];
    if (z == a) {
        a = c->off[2 * c->nl];
        z = c->off[2 * c->nl + 1];
    }
    if (z == a)
        return 1.0;
    return joint_map_at(c->lo + a, c->val + a, z - a, v);
}

int joint_cfse_meta(const joint *s, pb_result *res)
{
    if (!s->p.conf_copy_se || !s->scal_done)
        return PB_OK;
    return pb_result_meta(res, "conf_copy_se=%d z=%g rows_lowered=%zu (the calibration map at "
                          "a lower bound of each block's share right, the copy's rows of one "
                          "request counted as one)",
                          s->p.conf_copy_se, s->p.conf_copy_se_z, s->p.cse_lowered);
}
