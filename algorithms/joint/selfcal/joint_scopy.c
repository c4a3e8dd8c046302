/*
 * joint_scopy.c - joint: the self-calibration's copy made small first
 * (conf_copy_stage; docs/joint/speed_w29.md, "The calibration copy made
 * small first (h238)").
 *
 * The self-calibration (joint_selfcal.c) searches a copy of the trace (a
 * window of a quarter of its pairs, at least conf_sim_pairs = 2,000) to
 * learn how often each stated confidence is right; that search is 12-30 %
 * of a run.  Its statistic (per link, a monotone map from stated
 * confidence to the share of rows right; the doubt ratio) needs rows only
 * where a real row's reported level depends on it.
 *
 *   - stage 1: the whole calibration runs with a copy whose window holds
 *     conf_copy_stage_share of the pairs the default copy would hold
 *     (joint_scopy_budget, a hook in pick_roots).
 *   - the check (joint_scopy_check, after the real rows are mapped): a
 *     real row (not right by construction) is settled when the full copy
 *     could not plausibly move it to another reliability bin (edges 0.5,
 *     0.8, 0.9, 0.95, 0.99, 0.999): its map block's value v moved by
 *     +-conf_copy_stage_z standard errors of the difference between the
 *     stage's estimate and the full copy's (sqrt(v (1 - v) / rows) x
 *     sqrt(1 - share)) gives the same bin after the doubt ratio, the
 *     order step and the cap at its own stated confidence.  A link below
 *     JOINT_SELFCAL_MIN copy rows that the full copy would give a map of
 *     its own is bounded by both maps (all links', and its own fitted on
 *     the stage's rows).
 *   - every real row settled (at most conf_copy_stage_tol of them not):
 *     the stage's confidences are kept.  Else the calibration runs again
 *     as the default (the same confidences as conf_copy_stage=0, the
 *     stage's instructions lost).
 *
 * Confidences only: the paths, the links and every other column are the
 * search's.  Only the calibration of the result's confidences
 * (cft_final) is staged; late_trust's and the busy test's copies are
 * the default's.  conf_copy_stage=2 (a check): the stage always runs and
 * the default always follows (the default's output but this line).
 * conf_copy_share (0: conf_sim_share): the result's calibration copy
 * holds this share of the pairs, its floor (conf_copy_pairs or
 * conf_sim_pairs) scaled by conf_copy_share / conf_sim_share; never more
 * than the default; the busy test's and late_trust's copies as before.
 * conf_copy_stage=3 (a measurement): no stage; the same check on the
 * default copy with its own standard error (how many real rows' bins the
 * default copy's noise leaves open); the default's output but this line.
 */
#include "joint_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

/* the reliability bins (experiments/joint_calib.sh: edges 0.5, 0.8, 0.9,
 * 0.95, 0.99, 0.999), or with lv the levels its tables report (0.5, 0.9,
 * 0.99) */
static int bin_of(double c, int lv)
{
    static const double e6[] = {0.5, 0.8, 0.9, 0.95, 0.99, 0.999}, e3[] = {0.5, 0.9, 0.99};
    const double *e = lv ? e3 : e6;
    int ne = lv ? 3 : 6, b = 0;
    while (b < ne && c >= e[b])
        b++;
    return b;
}

size_t joint_scopy_budget(joint *s, size_t budget, size_t total, int floor_pairs)
{
    joint_params *p = &s->p;
    /* conf_copy_share: the result's calibration copy a smaller share of the
     * pairs, its floor scaled alike (conf_copy_share / conf_sim_share of
     * it); the budget only lowered.  conf_copy_pairs, which every
     * calibration's copy reads (late_trust's too), is left alone */
    if (p->scp_cal && p->conf_copy_share > 0) {
        size_t full0 = total < budget ? total : budget; /* conf_copy_share_z (joint_scz.c) */
        double want = p->conf_copy_share * (double)total;
        double fl = (double)floor_pairs * p->conf_copy_share /
                    (p->conf_sim_share > 0 ? p->conf_sim_share : 1);
        if (want < fl)
            want = fl;
        if (want < (double)budget)
            budget = (size_t)want;
        joint_scz_note(s, full0, total < budget ? total : budget);
        joint_sczfpc_note(s, full0, total < budget ? total : budget, total); /* joint_sczfpc.c */
    }
    if (p->scp_state != 1)
        return budget;
    size_t full = total < budget ? total : budget;
    size_t b = (size_t)(p->conf_copy_stage_share * (double)full + 0.5);
    if (b < 1)
        b = 1;
    p->scp_pairs[0] += (double)full;
    p->scp_pairs[1] += (double)b;
    return b;
}

/* one class's blocks: lo, val, rows (w) */
typedef struct sc_map {
    double *lo, *val, *w;
    uint32_t b;
} sc_map;

static int fit_class(const joint_spt *q, uint32_t n, sc_map *m, double *kk)
{
    m->lo = malloc(((size_t)n + 1) * sizeof *m->lo);
    m->val = malloc(((size_t)n + 1) * sizeof *m->val);
    m->w = malloc(((size_t)n + 1) * sizeof *m->w);
    if (!m->lo || !m->val || !m->w)
        return PB_ENOMEM;
    m->b = n ? joint_pav_fit(q, n, m->lo, m->val, m->w, kk) : 0;
    return PB_OK;
}

static uint32_t block_of(const sc_map *m, double c)
{
    uint32_t a = 0, z = m->b;
    while (z - a > 1) {
        uint32_t mid = (a + z) / 2;
        if (m->lo[mid] <= c)
            a = mid;
        else
            z = mid;
    }
    return a;
}

/* the lowest and highest value the full copy's map may plausibly take
 * for stated c in map m */
static void bounds(const joint *s, const sc_map *m, double c, double *lo, double *hi)
{
    if (!m->b) {
        *lo = 0;
        *hi = 1;
        return;
    }
    uint32_t i = block_of(m, c);
    double v = m->val[i], n = m->w[i];
    /* stage 1: the difference between the stage's estimate and the full
     * copy's; 3: the default copy's own standard error */
    double f = s->p.scp_state == 1 ? s->p.conf_copy_stage_share : 1;
    double h = s->p.conf_copy_stage_z * sqrt(v * (1 - v) / (n + 2)) * sqrt(f < 1 ? 1 - f : 1);
    /* a block of n rows all right reads (n + 1) / (n + 2): what the full
     * copy's larger block would read is in reach too */
    double k = v * (n + 2) - 1, nf = n / (f > 0 ? f : 1);
    if (k < 0)
        k = 0;
    double vf = ((n > 0 ? k / n : v) * nf + 1) / (nf + 2);
    double a = v - h, z = v + h;
    if (vf > z)
        z = vf;
    if (vf < a)
        a = vf;
    *lo = a < 0 ? 0 : a;
    *hi = z > 1 ? 1 : z;
}

static double final_conf(const joint *s, double v, double c, double r)
{
    if (s->p.conf_order)
        v = joint_conf_order(v, c);
    double e = (1 - v) * r, f = e < 1 ? 1 - e : 0;
    return f < c ? f : c;
}

void joint_scopy_check(joint *s, const joint_spt *pts, uint32_t np, const unsigned char *exr,
                       int *rc)
{
    joint_params *p = &s->p;
    uint32_t n = s->npairs, nl = s->nlinks;
    const double *c0 = p->scp_c0;
    joint_spt *q = malloc(((size_t)np + 1) * sizeof *q), *qa = malloc(((size_t)np + 1) * sizeof *qa);
    double *kk = malloc(((size_t)np + 1) * sizeof *kk);
    sc_map *m = calloc((size_t)nl + 1, sizeof *m);
    uint32_t *off = calloc((size_t)nl + 2, sizeof *off);
    if (!q || !qa || !kk || !m || !off || !c0)
        *rc = PB_ENOMEM;
    if (*rc == PB_OK) {
        memcpy(q, pts, np * sizeof *q);
        pb_sort(q, np, sizeof *q, joint_spt_cmp);
        memcpy(qa, q, np * sizeof *qa);
        for (uint32_t i = 0; i < np; i++)
            qa[i].cls = 0;
        pb_sort(qa, np, sizeof *qa, joint_spt_cmp);
        for (uint32_t i = 0; i < np; i++)
            off[q[i].cls + 1]++;
        for (uint32_t l = 0; l <= nl; l++)
            off[l + 1] += off[l];
        *rc = fit_class(qa, np, &m[nl], kk);
    }
    for (uint32_t l = 0; *rc == PB_OK && l < nl; l++)
        *rc = fit_class(q + off[l], off[l + 1] - off[l], &m[l], kk);
    double rows = 0, unset = 0, unset3 = 0;
    const double *sa = s->scal_stat + JOINT_SCAL_NSTAT * (size_t)nl;
    for (uint32_t x = 0; *rc == PB_OK && x < n; x++) {
        if (exr[x])
            continue;
        rows++;
        uint32_t l = s->pr[x].link, nr = off[l + 1] - off[l];
        double c = c0[x], lo, hi, r, rlo, rhi;
        if (nr >= JOINT_SELFCAL_MIN) { /* a map of its own */
            r = s->scal_stat[JOINT_SCAL_NSTAT * (size_t)l + 7];
            bounds(s, &m[l], c, &lo, &hi);
            rlo = rhi = r;
        } else {
            r = sa[7];
            bounds(s, &m[nl], c, &lo, &hi);
            rlo = rhi = r;
            /* the full copy would give it a map of its own (stage 1) */
            if (p->scp_state == 1 && nr > 0 &&
                (double)nr >= p->conf_copy_stage_share * JOINT_SELFCAL_MIN) {
                double l2, h2, r2 = s->scal_stat[JOINT_SCAL_NSTAT * (size_t)l + 7];
                bounds(s, &m[l], c, &l2, &h2);
                lo = l2 < lo ? l2 : lo;
                hi = h2 > hi ? h2 : hi;
                rlo = r2 < r ? r2 : r;
                rhi = r2 > r ? r2 : r;
            }
        }
        /* the lowest confidence: the lowest value with the larger ratio */
        double flo = final_conf(s, lo, c, rhi), fhi = final_conf(s, hi, c, rlo);
        unset += bin_of(flo, 0) != bin_of(fhi, 0);
        unset3 += bin_of(flo, 1) != bin_of(fhi, 1);
    }
    p->scp_rows[0] = rows;
    p->scp_rows[1] = unset;
    p->scp_rows[2] = unset3;
    for (uint32_t l = 0; m && l <= nl; l++) {
        free(m[l].lo);
        free(m[l].val);
        free(m[l].w);
    }
    free(m);
    free(off);
    free(q);
    free(qa);
    free(kk);
}

int joint_scopy_selfcal(joint *s, const double *share, double *conf,
                        int (*shares)(joint *, double *))
{
    joint_params *p = &s->p;
    p->scp_state = 0;
    p->scp_result = 0;
    p->scp_pairs[0] = p->scp_pairs[1] = 0;
    p->scp_rows[0] = p->scp_rows[1] = 0;
    p->scp_rows[2] = 0;
    p->scz_f = 1; /* conf_copy_share_z (joint_scz.c) */
    p->sczfpc_r = -1; /* conf_copy_share_fpc (joint_sczfpc.c) */
    p->sczfpc_nd = 0;
    if (!p->conf_copy_stage || !p->cft_final || !s->npairs) {
        p->scp_cal = p->cft_final; /* conf_copy_share: the result's calibration only */
        int rc0 = joint_selfcal(s, share, conf, shares);
        p->scp_cal = 0;
        return rc0;
    }
    p->scp_cal = 1;
    if (p->conf_copy_stage == 3) { /* the default copy's own noise, measured */
        double *c3 = malloc(((size_t)s->npairs + 1) * sizeof *c3);
        if (!c3)
            return PB_ENOMEM;
        memcpy(c3, conf, ((size_t)s->npairs + 1) * sizeof *c3);
        p->scp_c0 = c3;
        p->scp_state = 3;
        int rc3 = joint_selfcal(s, share, conf, shares);
        p->scp_state = 0;
        p->scp_c0 = NULL;
        p->scp_result = 3;
        p->scp_cal = 0;
        free(c3);
        return rc3;
    }
    size_t n1 = (size_t)s->npairs + 1;
    double *c0 = malloc(n1 * sizeof *c0);
    if (!c0)
        return PB_ENOMEM;
    memcpy(c0, conf, n1 * sizeof *c0);
    /* what the calibration adds to rather than sets */
    int sr = s->scal_sel_real, ct = p->cft_copies, cs = p->cft_spread, sw = s->scal_whole;
    p->scp_c0 = c0;
    p->scp_state = 1;
    int rc = joint_selfcal(s, share, conf, shares);
    p->scp_state = 0;
    p->scp_c0 = NULL;
    int keep = rc == PB_OK && p->conf_copy_stage == 1 &&
               p->scp_rows[1] <= p->conf_copy_stage_tol * p->scp_rows[0];
    if (rc == PB_OK && !keep) {
        memcpy(conf, c0, n1 * sizeof *c0);
        s->scal_sel_real = sr;
        p->cft_copies = ct;
        p->cft_spread = cs;
        s->scal_whole = sw;
        rc = joint_selfcal(s, share, conf, shares);
    }
    p->scp_result = keep ? 1 : 2;
    p->scp_cal = 0;
    free(c0);
    return rc;
}

int joint_scopy_meta(const joint *s, pb_result *res)
{
    const joint_params *p = &s->p;
    if (joint_scw_meta(s, res) != PB_OK) /* conf_copy_warm (joint_scwarm.c) */
        return PB_ENOMEM;
    if (joint_sce_meta(s, res) != PB_OK) /* conf_copy_margin (joint_scedge.c) */
        return PB_ENOMEM;
    if (joint_scz_meta(s, res) != PB_OK) /* conf_copy_share_z (joint_scz.c) */
        return PB_ENOMEM;
    if (!p->conf_copy_stage || !p->scp_result)
        return PB_OK;
    if (p->scp_result == 3)
        return pb_result_meta(res, "conf_copy_stage=3 rows=%.0f rows_unsettled=%.0f "
                              "rows_unsettled_levels=%.0f z=%g (measurement: the default "
                              "copy's rows whose reliability bin, or level 0.5 / 0.9 / 0.99, "
                              "a move of their map block by z standard errors changes)",
                              p->scp_rows[0], p->scp_rows[1], p->scp_rows[2],
                              p->conf_copy_stage_z);
    return pb_result_meta(res, "conf_copy_stage=%d stage_share=%g stage_pairs=%.0f "
                          "full_pairs=%.0f rows=%.0f rows_unsettled=%.0f "
                          "rows_unsettled_levels=%.0f kept=%s",
                          p->conf_copy_stage, p->conf_copy_stage_share, p->scp_pairs[1],
                          p->scp_pairs[0], p->scp_rows[0], p->scp_rows[1], p->scp_rows[2],
                          p->scp_result == 1 ? "stage (every real row's bin settled)"
                                             : "default copy (a row's bin not settled)");
}
