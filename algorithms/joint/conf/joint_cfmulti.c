/*
 * joint_cfmulti.c - conf_copy_multi: the rows of a request that holds two
 * or more calls of their link stated no surer than the copy's rows of that
 * kind say (docs/joint/confidence_w34.md, "Calls of a link that comes
 * several times in its request (h287)").
 *
 * Why.  The self-calibration maps stated share to share right per link,
 * pooling every copy row of the link.  Where a link is called once by most
 * requests and several times by a few long ones (experiments/
 * joint_apps_shortlong.conf: `lookup` calls `db` once, the rare `report`
 * three times, 10-30 ms apart), the map is the single calls', and the
 * long requests' calls -- those a search rotates among overlapping long
 * requests -- are stated as they are: shortlong s13 ns with call ids,
 * [0.99, 0.999) 72 rows 75 % right (OVER), every row of it in a request
 * holding two or more calls of its link (or two `agg` calls: two reports
 * merged).  The copy sees the difference: api>db rows in a copy request
 * holding one db call 531, 1.5 % wrong; holding several 115, 21.7 % wrong
 * (the real trace: 558 rows 1.8 % wrong against 116 rows about half wrong).
 *
 * The rule.  A row is *multi* when the request it was put in holds at least
 * one other call of its link (in the copy: the copy's search's request).
 * Per link, a map fitted on its multi copy rows alone (pool-adjacent-
 * violators, blocks (right + 1) / (rows + 2), as every map; a link without
 * multi copy rows takes all links' multi rows' map); every real multi row
 * is stated at most that map, times the doubt ratio, beside the other maps.
 * Confidences only.
 */
#include "joint_int.h"
#include "joint_rules.h"
#include "pb_sort.h"

#include <stdlib.h>
#include <string.h>

/* whether pair p of s sits in a request holding another call of its link */
static int multi(const joint *s, uint32_t p)
{
    uint32_t q = s->par ? s->par[p] : JOINT_NONE;
    if (q == JOINT_NONE || !s->kids)
        return 0;
    const kvec *k = &s->kids[q];
    uint32_t l = s->pr[p].link, c = 0;
    for (uint32_t i = 0; i < k->n; i++)
        c += s->pr[k->a[i]].link == l;
    return c >= 2;
}

void joint_cfmu_reset(joint *s)
{
    free(s->cfmu_ratio);
    s->cfmu_ratio = NULL;
    free(s->cfmu_pts);
    s->cfmu_pts = NULL;
    s->cfmu_n = s->cfmu_cap = 0;
}

void joint_cfmu_row(joint *s, const joint *s2, uint32_t p2, uint32_t l, int ok, double c)
{
    if (!s->p.conf_copy_multi || s->p.cfr_plain || !multi(s2, p2))
        return;
    if (s->cfmu_n == s->cfmu_cap) {
        size_t nc = s->cfmu_cap ? 2 * s->cfmu_cap : 256;
        joint_spt *g = realloc(s->cfmu_pts, nc * sizeof *g);
        if (!g)
            return; /* no memory: the row uncounted */
        s->cfmu_pts = g;
        s->cfmu_cap = nc;
    }
    s->cfmu_pts[s->cfmu_n++] = (joint_spt){c, l, (unsigned char)(ok != 0)};
    s->cfmu_rec[0]++;
    s->cfmu_rec[1] += !ok;
}

void joint_cfmu_free(joint_cfthin *t)
{
    joint_cfthin_free(t);
}

int joint_cfmu_fit(joint *s, uint32_t nl, const double *conf, const unsigned char *exr,
                   joint_cfthin *t)
{
    memset(t, 0, sizeof *t);
    size_t np = s->cfmu_n;
    free(s->cfmu_ratio);
    s->cfmu_ratio = NULL;
    if (!s->p.conf_copy_multi || !np)
        return PB_OK;
    /* the multi rows' own doubt ratio, per link and all links: the real
     * multi rows' mean doubt against the copy's, as the link's ratio is
     * (JOINT_SCAL_NSTAT's st[6] / st[5] against st[4] / st[0]) */
    double *d = calloc(4 * ((size_t)nl + 1), sizeof *d);
    s->cfmu_ratio = malloc(((size_t)nl + 1) * sizeof *s->cfmu_ratio);
    if (!d || !s->cfmu_ratio) {
        free(d);
        free(s->cfmu_ratio);
        s->cfmu_ratio = NULL;
        return PB_ENOMEM;
    }
    for (size_t i = 0; i < np; i++)
        for (int z = 0; z < 2; z++) {
            double *x = d + 4 * (size_t)(z || s->cfmu_pts[i].cls >= nl ? nl : s->cfmu_pts[i].cls);
            x[0]++;
            x[1] += 1 - s->cfmu_pts[i].c;
        }
    for (uint32_t p = 0; conf && p < s->npairs; p++) {
        if ((exr && exr[p]) || !multi(s, p))
            continue;
        for (int z = 0; z < 2; z++) {
            double *x = d + 4 * (size_t)(z || s->pr[p].link >= nl ? nl : s->pr[p].link);
            x[2]++;
            x[3] += 1 - conf[p];
        }
    }
    for (uint32_t l = 0; l <= nl; l++) {
        const double *x = d + 4 * (size_t)l;
        if (!(x[0] > 0))
            x = d + 4 * (size_t)nl;
        double r = ((x[3] + 1) / (x[2] + 1)) / ((x[1] + 1) / (x[0] + 1));
        s->cfmu_ratio[l] = r > 1 ? r : 1;
    }
    free(d);
    joint_spt *pts = s->cfmu_pts, *all = malloc((np + 1) * sizeof *all);
    t->lo = malloc(2 * (np + 1) * sizeof *t->lo);
    t->val = malloc(2 * (np + 1) * sizeof *t->val);
    t->off = calloc(2 * ((size_t)nl + 1), sizeof *t->off);
    double *w = malloc((np + 1) * sizeof *w), *k = malloc((np + 1) * sizeof *k);
    if (!all || !t->lo || !t->val || !t->off || !w || !k) {
        free(all);
        free(w);
        free(k);
        joint_cfthin_free(t);
        return PB_ENOMEM;
    }
    for (size_t i = 0; i < np; i++) {
        all[i] = pts[i];
        all[i].cls = 0;
    }
    pb_sort(pts, np, sizeof *pts, joint_spt_cmp); /* by link, then share */
    pb_sort(all, np, sizeof *all, joint_spt_cmp);
    uint32_t used = 0;
    for (size_t i = 0; i < np;) {
        size_t j = i;
        uint32_t l = pts[i].cls;
        while (j < np && pts[j].cls == l)
            j++;
        if (l < nl) {
            uint32_t b = joint_pav_fit(pts + i, (uint32_t)(j - i), t->lo + used, t->val + used, w, k);
            t->off[2 * l] = used;
            t->off[2 * l + 1] = used + b;
            used += b;
        }
        i = j;
    }
    uint32_t b = joint_pav_fit(all, (uint32_t)np, t->lo + used, t->val + used, w, k);
    t->off[2 * nl] = used;
    t->off[2 * nl + 1] = used + b;
    t->on = 1;
    free(all);
    free(w);
    free(k);
    return PB_OK;
}

double joint_cfmu_at(const joint *s, const joint_cfthin *t, uint32_t p, double c, double r)
{
    if (!t->on || !multi(s, p))
        return 0;
    uint32_t l = s->pr[p].link < s->nlinks ? s->pr[p].link : s->nlinks;
    if (t->off[2 * l + 1] == t->off[2 * l])
        l = s->nlinks;
    uint32_t a = t->off[2 * l];
    if (t->off[2 * l + 1] == a)
        return 0;
    double rm = s->p.conf_copy_multi == 2 && s->cfmu_ratio && s->cfmu_ratio[l] > r
                    ? s->cfmu_ratio[l] : r;
    return (1 - joint_map_at(t->lo + a, t->val + a, t->off[2 * l + 1] - a, c)) * rm;
}

int joint_cfmu_meta(const joint *s, pb_result *res)
{
    if (!s->p.conf_copy_multi || !s->scal_done)
        return PB_OK;
    return pb_result_meta(res, "conf_copy_multi=%d copy_rows=%.0f copy_wrong=%.0f "
                          "rows_lowered=%.0f (rows of a request holding another call of "
                          "their link stated at most the map of the copy's rows of that kind)",
                          s->p.conf_copy_multi, s->cfmu_rec[0], s->cfmu_rec[1],
                          s->cfmu_rec[2]);
}
