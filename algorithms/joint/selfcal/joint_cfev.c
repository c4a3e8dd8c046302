/*
 * joint_cfev.c - conf_copy_events: the self-calibration map with the copy's
 * rows counted in units of the rows that move together
 * (docs/joint/confidence_late.md, "Copy errors counted by the request (h269)").
 *
 * The map from stated share to share right is fitted on one simulated copy
 * (pool-adjacent-violators blocks, (right + 1) / (rows + 2): one wrong row
 * and one right row of prior).  But a copy's rows are not independent: a
 * search that moves a whole chain of calls into an overlapping request
 * makes every row of the chain wrong at once.  A copy then holds a few such
 * events or none, and which is the draw's luck: on OnlineBoutique 03:53
 * with call ids the copy at conf_seed 2 was right on 324 of 324 currency
 * calls, at seeds 1 and 3 on 315 of 333 and 301 of 314 (h260).  Where it was
 * right on every row, the prior's one wrong row is all the map has, 1 / 326,
 * and the doubt ratio scales that.
 *
 * So a block's rows are counted in units of m rows, and the prior is one
 * unit of each kind: a block of w rows, k right, is valued
 * (k / m + 1) / (w / m + 2) = (k + m) / (w + 2 m) -- or, with
 * conf_copy_events_z, the Wilson lower bound of that share from w / m + 2
 * samples.  m is
 *   - mode 1: the copy's wrong rows per request they were put in (over
 *     every link and copy; 1 where the copy made no error);
 *   - mode 2: per link, the link's copy rows per request holding one (the
 *     calls of one link in one request move together); for the all-links
 *     map the copy rows per link and request.
 * The map is made monotone again and every row is stated at most it, times
 * the doubt ratio, beside the plain map (joint_cfse.c's hook in the
 * self-calibration's row loop).  Confidences only.
 */
#include "joint_int.h"
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

void joint_cfev_row(joint *s, const joint *s2, uint32_t p2, uint32_t l, int ok)
{
    if (!s->p.conf_copy_events || s->p.cfr_plain)
        return;
    /* the rows of one copy come in rising order: a row not above the last
     * one starts another copy */
    if (s->cev_last && p2 + 1 <= s->cev_last)
        s->cev_copy++;
    s->cev_last = p2 + 1;
    uint32_t r = p2;
    for (uint32_t k = 0; k < s2->npairs && s2->par[r] != JOINT_NONE; k++)
        r = s2->par[r];
    if (s->cev_n == s->cev_cap) {
        size_t nc = s->cev_cap ? 2 * s->cev_cap : 1024;
        joint_cevrow *g = realloc(s->cev_grp, nc * sizeof *g);
        if (!g)
            return; /* no memory: the row uncounted */
        s->cev_grp = g;
        s->cev_cap = nc;
    }
    s->cev_grp[s->cev_n++] = (joint_cevrow){l, s->cev_copy, r, (unsigned char)(ok != 0)};
}

/* by link, copy, root */
static int row_cmp(const void *a, const void *b)
{
    const joint_cevrow *x = a, *y = b;
    if (x->l != y->l)
        return x->l < y->l ? -1 : 1;
    if (x->copy != y->copy)
        return x->copy < y->copy ? -1 : 1;
    return x->root < y->root ? -1 : x->root > y->root;
}

/* by copy, root (mode 1: the requests holding a wrong row) */
static int req_cmp(const void *a, const void *b)
{
    const joint_cevrow *x = a, *y = b;
    if (x->copy != y->copy)
        return x->copy < y->copy ? -1 : 1;
    return x->root < y->root ? -1 : x->root > y->root;
}

int joint_cfev_m(joint *s, uint32_t nl, double *m)
{
    for (uint32_t l = 0; l <= nl; l++)
        m[l] = 1;
    size_t n = s->cev_n, wrong = 0, groups = 0;
    double rows = (double)n, all = 1;
    joint_cevrow *g = s->cev_grp;
    if (n && s->p.conf_copy_events == 1) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (!g[i].ok)
                g[k++] = g[i];
        wrong = k;
        pb_sort(g, k, sizeof *g, req_cmp);
        for (size_t i = 0; i < k; i++)
            groups += !i || req_cmp(&g[i], &g[i - 1]);
        all = groups ? (double)wrong / (double)groups : 1;
        for (uint32_t l = 0; l <= nl; l++)
            m[l] = all;
    } else if (n) {
        pb_sort(g, n, sizeof *g, row_cmp);
        for (size_t i = 0; i < n;) {
            size_t j = i, grp = 0;
            for (; j < n && g[j].l == g[i].l; j++) {
                grp += j == i || row_cmp(&g[j], &g[j - 1]);
                wrong += !g[j].ok;
            }
            if (g[i].l < nl && grp)
                m[g[i].l] = (double)(j - i) / (double)grp;
            groups += grp;
            i = j;
        }
        all = groups ? rows / (double)groups : 1;
        m[nl] = all;
    }
    for (uint32_t l = 0; l <= nl; l++)
        if (m[l] < 1)
            m[l] = 1;
    s->cev_rec[0] = rows;
    s->cev_rec[1] = (double)wrong;
    s->cev_rec[2] = (double)groups;
    s->cev_rec[3] = all < 1 ? 1 : all;
    joint_cfev_reset(s);
    return PB_OK;
}

void joint_cfev_reset(joint *s)
{
    free(s->cev_grp);
    s->cev_grp = NULL;
    s->cev_n = s->cev_cap = 0;
    s->cev_copy = s->cev_last = 0;
}

int joint_cfev_meta(const joint *s, pb_result *res)
{
    if (!s->p.conf_copy_events || !s->scal_done)
        return PB_OK;
    return pb_result_meta(res, "conf_copy_events=%d z=%g copy_rows=%.0f wrong_rows=%.0f "
                          "groups=%.0f m=%.3f rows_lowered=%zu (the calibration map with the "
                          "copy's rows counted in units of m: 1 its wrong rows per request "
                          "holding one, 2 per link its rows per request holding one; m here: "
                          "the all-links map's)",
                          s->p.conf_copy_events, s->p.conf_copy_events_z, s->cev_rec[0],
                          s->cev_rec[1], s->cev_rec[2], s->cev_rec[3], s->p.cse_lowered);
}
