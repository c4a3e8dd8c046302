/* joint_pav.c: the self-calibration's monotone maps (isotonic regression by
 * pool-adjacent-violators over stated shares and whether each row was right),
 * and the folds of shares and flags down the request trees
 * (docs/joint/confidence.md).  Split from joint_selfcal.c along its seam: the
 * copy makes the rows, these fit and apply the maps. */
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

#define NONE JOINT_NONE


int joint_spt_cmp(const void *a, const void *b)
{
    const joint_spt *x = a, *y = b;
    if (x->cls != y->cls)
        return x->cls < y->cls ? -1 : 1;
    return x->c < y->c ? -1 : x->c > y->c ? 1 : (int)x->ok - (int)y->ok;
}

/* pool-adjacent-violators over p[0..n) (sorted by stated share): blocks
 * (least stated share, value) into lo[], val[]; returns how many.  A
 * block's value is (right + 1) / (rows + 2), made monotone downwards. */
uint32_t joint_pav_fit(const joint_spt *p, uint32_t n, double *lo, double *val, double *w, double *k)
{
    uint32_t b = 0;
    for (uint32_t i = 0; i < n;) {
        /* the rows of one stated share start one block */
        uint32_t j = i;
        lo[b] = p[i].c;
        w[b] = k[b] = 0;
        for (; j < n && (j == i || p[j].c == p[i].c); j++) { /* j == i: a NaN still moves on */
            w[b]++;
            k[b] += p[j].ok;
        }
        b++;
        i = j;
        while (b > 1 && k[b - 2] / w[b - 2] >= k[b - 1] / w[b - 1]) {
            /* the later block is no better: pool */
            k[b - 2] += k[b - 1];
            w[b - 2] += w[b - 1];
            b--;
        }
    }
    /* the top block must hold a wrong row (when any block does): the
     * simulation's errors just below it are pooled into it, because where
     * in the top shares a simulation puts its errors does not carry over
     * to the real trace (docs/joint/confidence.md, "Allowances for model error") */
    while (b > 1 && k[b - 1] >= w[b - 1]) {
        k[b - 2] += k[b - 1];
        w[b - 2] += w[b - 1];
        b--;
    }
    for (uint32_t j = 0; j < b; j++)
        val[j] = (k[j] + 1) / (w[j] + 2);
    for (uint32_t j = b; j-- > 1;)
        if (val[j - 1] > val[j])
            val[j - 1] = val[j];
    return b;
}

/* the map's value at stated share c (blocks lo[0..b) ascending) */
double joint_map_at(const double *lo, const double *val, uint32_t b, double c)
{
    uint32_t a = 0, z = b;
    while (z - a > 1) { /* the last block with lo <= c */
        uint32_t mid = (a + z) / 2;
        if (lo[mid] <= c)
            a = mid;
        else
            z = mid;
    }
    return val[a];
}

uint32_t joint_pav_map(const double *c, const unsigned char *ok, uint32_t n, double *lo,
                       double *val)
{
    joint_spt *p = malloc(((size_t)n + 1) * sizeof *p);
    double *w = malloc(((size_t)n + 1) * sizeof *w), *k = malloc(((size_t)n + 1) * sizeof *k);
    uint32_t b = 0;
    if (p && w && k) {
        for (uint32_t i = 0; i < n; i++)
            p[i] = (joint_spt){c[i], 0, ok[i]};
        pb_sort(p, n, sizeof *p, joint_spt_cmp);
        b = joint_pav_fit(p, n, lo, val, w, k);
    }
    free(p);
    free(w);
    free(k);
    return b;
}

double joint_pav_at(const double *lo, const double *val, uint32_t b, double c)
{
    return b ? joint_map_at(lo, val, b, c) : 1.0;
}

/* One walk from every root down serves both folds below: with conf,
 * conf[p] = the product of share[] from p's root down to p; with v (conf
 * NULL), v[p] = v[p] && v[parent of p].  A cycle stops the walk up.
 * PB_OK or PB_ENOMEM */
static int walk_down(const joint *s, const double *share, double *conf, unsigned char *v)
{
    uint32_t n = s->npairs;
    uint32_t *stack = malloc(((size_t)n + 1) * sizeof *stack);
    unsigned char *done = calloc((size_t)n + 1, 1);
    if (!stack || !done) {
        free(stack);
        free(done);
        return PB_ENOMEM;
    }
    for (uint32_t q = 0; q < n; q++) {
        uint32_t m = 0, j = q;
        while (j != NONE && !done[j]) {
            stack[m++] = j;
            done[j] = 1;
            j = s->par[j];
        }
        /* done 1: on this climb, 2: set.  A climb that meets itself is a
         * cycle of parents (a copy's, uncut): entered as from a root, not
         * from a value not yet set (found by tests/fuzz/joint_optfuzz.sh) */
        const int cyc = j != NONE && done[j] == 1;
        if (conf) {
            double up = j == NONE || cyc ? 1.0 : conf[j];
            while (m) {
                j = stack[--m];
                conf[j] = up = up * share[j];
                done[j] = 2;
            }
        } else {
            unsigned char up = j == NONE || cyc ? 1 : v[j];
            while (m) {
                j = stack[--m];
                v[j] = up = up && v[j];
                done[j] = 2;
            }
        }
    }
    free(stack);
    free(done);
    return PB_OK;
}

/* conf[p]: the product of share[] from p's root down to p.  PB_OK or
 * PB_ENOMEM */
int joint_conf_product(const joint *s, const double *share, double *conf)
{
    return walk_down(s, share, conf, NULL);
}

/* v[p] = v[p] && v[parent of p], from the root down.  PB_OK or PB_ENOMEM */
int joint_and_down(const joint *s, unsigned char *v)
{
    return walk_down(s, NULL, NULL, v);
}

/* the self-calibration's maps of the rows pts[0..np) (sorted here): all
 * links together (class nl) and each link with at least
 * JOINT_SELFCAL_MIN rows; cls_off[2 l], [2 l + 1]: the blocks of link l
 * in lo/val, or none (equal).  lo, val: room for 2 np + 2 blocks; w, kk:
 * np + 1; cls_off: 2 nl + 4.  *rc: PB_ENOMEM when out of memory */
void joint_fit_maps(joint_spt *pts, uint32_t np, uint32_t nl, double *lo, double *val, double *w,
                     double *kk, uint32_t *cls_off, int *rc)
{
    joint_fit_maps_min(pts, np, nl, lo, val, w, kk, cls_off, JOINT_SELFCAL_MIN, rc);
}

/* joint_fit_maps with a link's own map from min rows (conf_copy_share_z:
 * joint_scz_min) */
void joint_fit_maps_min(joint_spt *pts, uint32_t np, uint32_t nl, double *lo, double *val,
                        double *w, double *kk, uint32_t *cls_off, uint32_t min, int *rc)
{
    /* all links together first (class nl), then each link with enough
     * rows; cls_off[2 l], [2 l + 1]: its blocks in lo/val, or none */
    pb_sort(pts, np, sizeof *pts, joint_spt_cmp);
    joint_spt *all = malloc(((size_t)np + 1) * sizeof *all);
    if (!all) {
        *rc = PB_ENOMEM;
    } else {
        memcpy(all, pts, np * sizeof *all);
        for (uint32_t i = 0; i < np; i++)
            all[i].cls = 0;
        pb_sort(all, np, sizeof *all, joint_spt_cmp);
        uint32_t nb = joint_pav_fit(all, np, lo, val, w, kk), used = nb;
        for (uint32_t l = 0; l <= nl; l++)
            cls_off[2 * l] = cls_off[2 * l + 1] = 0;
        cls_off[2 * nl] = 0;
        cls_off[2 * nl + 1] = nb;
        free(all);
        for (uint32_t i = 0; i < np;) {
            uint32_t j = i;
            while (j < np && pts[j].cls == pts[i].cls)
                j++;
            if (j - i >= min) {
                uint32_t b = joint_pav_fit(pts + i, j - i, lo + used, val + used, w, kk);
                cls_off[2 * pts[i].cls] = used;
                cls_off[2 * pts[i].cls + 1] = used + b;
                used += b;
            }
            i = j;
        }
    }
}

