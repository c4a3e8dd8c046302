/*
 * joint_cfkind.c - conf_kind_map: the events map per kind of request, the
 * kind the trace itself shows (docs/joint/confidence_w36.md, "A map per
 * kind of request (h317)").
 *
 * Why.  The self-calibration maps (joint_selfcal.c, the events map of
 * joint_cfev.c / joint_cfse.c) pool every copy row of a link.  Where a link
 * is called by two kinds of request -- experiments/joint_apps_shortlong.conf:
 * nine `lookup`s of three calls for one `report` of seven, both calling
 * api > db -- the link's map is the lookups' and the reports' calls are
 * stated as the lookups' are: shortlong s16 1 ms with call ids, api > db of
 * reports 127 rows stated 0.963, 62 % right (h306).
 *
 * The rule.  A row's kind is the size of the request the search put it in
 * (its pairs; in the copy, the copy's search's request, never the truth),
 * in bins of powers of two: 1, 2, 3-4, 5-8, 9-16, ... (JOINT_CFK_KINDS).
 * Per (link, kind) with at least conf_kind_map_min copy rows (0: the
 * maps' own minimum), the events map of that class alone: blocks of the
 * class's copy rows counted in units of m, the class's copy rows per copy
 * request holding one, valued at the Wilson bound the events map takes
 * (conf_copy_events_z, conf_copy_share_z), times the class's own doubt
 * ratio, (d_real + 1) / (d_copy n_real / n_copy + 1) (the copy's doubt
 * scaled to the real class's rows, one row's doubt the prior on both
 * sides: a class both clean has ratio 1 however few its real rows, and a
 * copy that doubts nothing gives d_real + 1 however large it is), at least
 * 1, eased to 1 where the ratio counted in units of m is below 1
 * (conf_ratio_events=2's rule, its band).  Every real row of the class is
 * also stated at most that map (beside the other maps: it only lowers).
 * A class with fewer copy rows, and each link's largest kind (most copy
 * rows: the pooled maps are its own, and its class map would be theirs
 * with more noise -- shortlong s57 1 ms, the lookups' calls 0.951 -> 0.942,
 * coverage at 0.95 84.1 -> 34.7 %), and a class whose copy rows are wrong
 * no more often than its link's largest kind's (its bound on a few
 * requests would only be noise: TrainTicket 10:45 with call ids, coverage
 * at 0.95 99.8 -> 76.8 %): the pooled maps alone (the fallback).
 * conf_kind_map=2: the class map also replaces the pooled events map
 * where the class has a map (rows may rise).  Confidences only.
 */
#include "joint_int.h"
#include "joint_rules.h"
#include "pb_sort.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define JOINT_CFK_KINDS 16

typedef struct joint_cfkrow {
    double c;
    uint32_t cls, copy, root;
    unsigned char ok;
} joint_cfkrow;

/* the kind of a request of n pairs: ceil(log2 n), capped */
static uint32_t kind_of_size(uint32_t n)
{
    uint32_t k = 0;
    while (k + 1 < JOINT_CFK_KINDS && (1u << k) < n)
        k++;
    return k;
}

/* root[p] and kind[p] of every pair of s (its request: the tree of par) */
static int kinds(const joint *s, uint32_t *root, unsigned char *kind)
{
    uint32_t n = s->npairs;
    uint32_t *cnt = calloc((size_t)n + 1, sizeof *cnt);
    if (!cnt)
        return PB_ENOMEM;
    for (uint32_t p = 0; p < n; p++)
        root[p] = JOINT_NONE;
    for (uint32_t p = 0; p < n; p++) {
        uint32_t q = p, k = 0;
        while (root[q] == JOINT_NONE && s->par[q] != JOINT_NONE && k++ < n)
            q = s->par[q];
        uint32_t r = root[q] != JOINT_NONE ? root[q] : q;
        for (uint32_t x = p, j = 0; root[x] == JOINT_NONE && j <= k; j++) {
            root[x] = r;
            if (s->par[x] == JOINT_NONE)
                break;
            x = s->par[x];
        }
        root[p] = r;
    }
    for (uint32_t p = 0; p < n; p++)
        cnt[root[p]]++;
    for (uint32_t p = 0; p < n; p++)
        kind[p] = (unsigned char)kind_of_size(cnt[root[p]]);
    free(cnt);
    return PB_OK;
}

void joint_cfk_reset(joint *s)
{
    free(s->cfk_rows);
    free(s->cfk_root2);
    free(s->cfk_kind2);
    free(s->cfk_fit);
    s->cfk_rows = NULL;
    s->cfk_root2 = NULL;
    s->cfk_kind2 = NULL;
    s->cfk_fit = NULL;
    s->cfk_n = s->cfk_cap = 0;
    s->cfk_copy = 0;
}

void joint_cfk_copy(joint *s, const joint *s2)
{
    if (!s->p.conf_kind_map || s->p.cfr_plain)
        return;
    free(s->cfk_root2);
    free(s->cfk_kind2);
    s->cfk_root2 = malloc(((size_t)s2->npairs + 1) * sizeof *s->cfk_root2);
    s->cfk_kind2 = malloc((size_t)s2->npairs + 1);
    if (!s->cfk_root2 || !s->cfk_kind2 || kinds(s2, s->cfk_root2, s->cfk_kind2) != PB_OK) {
        free(s->cfk_root2);
        free(s->cfk_kind2);
        s->cfk_root2 = NULL; /* no memory: this copy's rows uncounted */
        s->cfk_kind2 = NULL;
    }
    s->cfk_copy++;
}

void joint_cfk_row(joint *s, uint32_t p2, uint32_t l, int ok, double c)
{
    if (!s->p.conf_kind_map || s->p.cfr_plain || !s->cfk_kind2)
        return;
    if (s->cfk_n == s->cfk_cap) {
        size_t nc = s->cfk_cap ? 2 * s->cfk_cap : 1024;
        joint_cfkrow *g = realloc(s->cfk_rows, nc * sizeof *g);
        if (!g)
            return; /* no memory: the row uncounted */
        s->cfk_rows = g;
        s->cfk_cap = nc;
    }
    s->cfk_rows[s->cfk_n++] = (joint_cfkrow){c, l * JOINT_CFK_KINDS + s->cfk_kind2[p2],
                                             s->cfk_copy, s->cfk_root2[p2], (unsigned char)(ok != 0)};
}

static int grp_cmp(const void *a, const void *b)
{
    const joint_cfkrow *x = a, *y = b;
    if (x->cls != y->cls)
        return x->cls < y->cls ? -1 : 1;
    if (x->copy != y->copy)
        return x->copy < y->copy ? -1 : 1;
    return x->root < y->root ? -1 : x->root > y->root;
}

/* per class: offset of its blocks in lo/val, their number, m, ratio */
typedef struct joint_cfkcls {
    uint32_t a, b;
    double m, r;
} joint_cfkcls;

typedef struct joint_cfkfit joint_cfkfit;
struct joint_cfkfit {
    uint32_t ncls, nreal;
    joint_cfkcls *cls;
    double *lo, *val;
    uint32_t *root;
    unsigned char *kind;
};

void joint_cfk_free(joint *s)
{
    joint_cfkfit *f = s->cfk_fit;
    if (!f)
        return;
    free(f->cls);
    free(f->lo);
    free(f->val);
    free(f->root);
    free(f->kind);
    free(f);
    s->cfk_fit = NULL;
}

int joint_cfk_fit(joint *s, const double *conf, const unsigned char *exr)
{
    joint_cfk_free(s);
    s->cfk_rec[0] = s->cfk_rec[1] = s->cfk_rec[2] = 0;
    size_t n = s->cfk_n;
    if (!s->p.conf_kind_map || !n || !conf)
        return PB_OK;
    uint32_t nl = s->nlinks, ncls = nl * JOINT_CFK_KINDS, np = s->npairs;
    joint_cfkfit *f = calloc(1, sizeof *f);
    if (!f)
        return PB_ENOMEM;
    s->cfk_fit = f;
    f->ncls = ncls;
    f->cls = calloc((size_t)ncls + 1, sizeof *f->cls);
    f->lo = malloc((n + 1) * sizeof *f->lo);
    f->val = malloc((n + 1) * sizeof *f->val);
    f->root = malloc(((size_t)np + 1) * sizeof *f->root);
    f->kind = malloc((size_t)np + 1);
    double *t = calloc(4 * ((size_t)ncls + 1), sizeof *t); /* real rows, doubt; in band */
    double *w = malloc((n + 1) * sizeof *w), *k = malloc((n + 1) * sizeof *k);
    joint_spt *pts = malloc((n + 1) * sizeof *pts);
    int rc = f->cls && f->lo && f->val && f->root && f->kind && t && w && k && pts ? PB_OK
                                                                                    : PB_ENOMEM;
    if (rc == PB_OK)
        rc = kinds(s, f->root, f->kind);
    const double band = s->p.conf_ratio_events_band;
    for (uint32_t p = 0; rc == PB_OK && p < np; p++) {
        if (exr[p] || s->pr[p].link >= nl)
            continue;
        double *u = t + 4 * ((size_t)s->pr[p].link * JOINT_CFK_KINDS + f->kind[p]);
        u[0]++;
        u[1] += 1 - conf[p];
        if (conf[p] >= band) {
            u[2]++;
            u[3] += 1 - conf[p];
        }
    }
    joint_cfkrow *g = s->cfk_rows;
    if (rc == PB_OK)
        pb_sort(g, n, sizeof *g, grp_cmp);
    const uint32_t min = s->p.conf_kind_map_min > 0 ? (uint32_t)s->p.conf_kind_map_min
                                                     : joint_scz_min(s);
    const double z = joint_scz_z(s, s->p.conf_copy_events_z);
    /* each link's largest kind (most copy rows) is the pooled maps' own:
     * it keeps them (its class map would only be the pool's, noisier) */
    uint32_t *major = rc == PB_OK ? malloc(((size_t)nl + 1) * sizeof *major) : NULL;
    size_t *most = rc == PB_OK ? calloc((size_t)nl + 1, sizeof *most) : NULL;
    double *mrate = rc == PB_OK ? calloc((size_t)nl + 1, sizeof *mrate) : NULL;
    if (rc == PB_OK && (!major || !most || !mrate))
        rc = PB_ENOMEM;
    for (uint32_t l = 0; rc == PB_OK && l < nl; l++)
        major[l] = JOINT_NONE;
    for (size_t i = 0; rc == PB_OK && i < n;) {
        size_t j = i, bad = 0;
        for (; j < n && g[j].cls == g[i].cls; j++)
            bad += !g[j].ok;
        uint32_t l = g[i].cls / JOINT_CFK_KINDS;
        if (l < nl && j - i > most[l]) {
            most[l] = j - i;
            major[l] = g[i].cls;
            mrate[l] = (double)bad / (double)(j - i);
        }
        i = j;
    }
    uint32_t used = 0;
    for (size_t i = 0; rc == PB_OK && i < n;) {
        size_t j = i, grp = 0, bad = 0;
        double d = 0, rb = 0, db = 0;
        for (; j < n && g[j].cls == g[i].cls; j++) {
            grp += j == i || grp_cmp(&g[j], &g[j - 1]);
            bad += !g[j].ok;
            d += 1 - g[j].c;
            if (g[j].c >= band) {
                rb++;
                db += 1 - g[j].c;
            }
        }
        uint32_t c = g[i].cls;
        /* the class is its own only where its copy rows are wrong more
         * often than its link's largest kind's */
        if (c >= ncls || j - i < min || c == major[c / JOINT_CFK_KINDS] ||
            (double)bad / (double)(j - i) <= mrate[c / JOINT_CFK_KINDS]) {
            i = j;
            continue;
        }
        double m = grp ? (double)(j - i) / (double)grp : 1;
        if (m < 1)
            m = 1;
        const double *u = t + 4 * (size_t)c;
        /* the copy's doubt scaled to the real class's rows, one row's doubt
         * the prior on both sides: both clean, 1; the copy clean, the real
         * doubt + 1 however large the copy */
        double nc = (double)(j - i), r = u[0] > 0 ? (u[1] + 1) / (d * u[0] / nc + 1) : 1;
        double ru = ((u[3] / m + 1) / (u[2] / m + 1)) / ((db / m + 1) / (rb / m + 1));
        if (s->p.conf_ratio_events == 2 && ru < 1)
            r = 1; /* conf_ratio_events=2's rule, in the class */
        if (r < 1)
            r = 1;
        uint32_t nn = (uint32_t)(j - i);
        for (uint32_t x = 0; x < nn; x++)
            pts[x] = (joint_spt){g[i + x].c, 0, g[i + x].ok};
        pb_sort(pts, nn, sizeof *pts, joint_spt_cmp);
        /* the events map's blocks (joint_cfse.c's fit_one, units of m) */
        uint32_t b0 = joint_pav_fit(pts, nn, f->lo + used, f->val + used, w, k), b = 0;
        double *lo = f->lo + used, *val = f->val + used;
        for (uint32_t y = 0; y < b0; y++) {
            lo[b] = lo[y];
            w[b] = w[y];
            k[b] = k[y];
            val[b] = joint_wilson_lo(k[b] / m + 1, w[b] / m + 2, z);
            b++;
            while (b > 1 && val[b - 2] > val[b - 1]) {
                w[b - 2] += w[b - 1];
                k[b - 2] += k[b - 1];
                b--;
                val[b - 1] = joint_wilson_lo(k[b - 1] / m + 1, w[b - 1] / m + 2, z);
            }
        }
        f->cls[c] = (joint_cfkcls){used, used + b, m, r};
        used += b;
        s->cfk_rec[0]++;
        i = j;
    }
    free(major);
    free(most);
    free(mrate);
    free(t);
    free(w);
    free(k);
    free(pts);
    if (rc != PB_OK)
        joint_cfk_free(s);
    return rc;
}

double joint_cfk_err(joint *s, uint32_t p, double c, double es)
{
    const joint_cfkfit *f = s->cfk_fit;
    if (!f || s->pr[p].link >= s->nlinks)
        return es;
    const joint_cfkcls *k = &f->cls[(size_t)s->pr[p].link * JOINT_CFK_KINDS + f->kind[p]];
    if (k->b == k->a)
        return es; /* too few copy rows of the class: the pooled maps */
    double e = (1 - joint_map_at(f->lo + k->a, f->val + k->a, k->b - k->a, c)) * k->r;
    if (e > es) {
        s->cfk_rec[1]++;
        return e;
    }
    if (s->p.conf_kind_map == 2 && e < es) {
        s->cfk_rec[2]++;
        return e;
    }
    return es;
}

int joint_cfk_meta(const joint *s, pb_result *res)
{
    if (!s->p.conf_kind_map || !s->scal_done)
        return PB_OK;
    return pb_result_meta(res, "conf_kind_map=%d classes=%.0f rows_lowered=%.0f rows_raised=%.0f "
                          "(the events map per link and kind of request, the kind the "
                          "request's size in pairs, powers of two)",
                          s->p.conf_kind_map, s->cfk_rec[0], s->cfk_rec[1], s->cfk_rec[2]);
}
