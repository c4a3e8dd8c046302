/*
 * joint_cfalike.c - joint: a call that fits another request as well as its
 * own is stated no surer than the copy tells such calls apart
 * (conf_alike; docs/joint/confidence_late.md, "Calls alike in two
 * requests (h242)"; issue 28).
 *
 * Why.  A call's share (joint_conf.c) weighs the solution against its
 * neighbours: the call moved, exchanged, its chain moved.  Where the
 * call's own delay fits its request and another candidate about equally
 * (a retried payment's last reply and a new request's arrival a few tenths
 * of a millisecond apart, both plausible triggers of the receipt call),
 * the margin comes from the rest of the two requests: their shapes and
 * counts under a model fitted to the solution itself.  When the solution
 * shifted a whole series of such calls by one request (request A's
 * receipt put in B, B's in C), every single move leaves a request without
 * its call, and the share sees only those moves: the margin is the
 * solution agreeing with itself
 * (experiments/joint_apps_retry.conf seed 12, ns stamps, call ids: three
 * requests' fe>receipt rows stated 0.9939 and wrong; the receipt's own
 * delay 0.32 nats better in its wrong request than in its right one).
 *
 * The class.  Call p in request q0 is alike when the other candidate q'
 * its own delay fits best (the log density of the delay from its trigger
 * there, as the greedy step scores it, counts left out: those are the
 * rest of the request, which the share weighs) fits it less than
 * conf_alike_tie nats worse than q0; and, to a fixed point, when
 * q' holds a call of p's link that is alike (the next call of a shifted
 * series: its right request is taken by an alike call).  The same test
 * on the self-calibration's copy (joint_call_shares runs there too); the
 * copy's alike rows right, (right + 1) / (rows + 2), per link with
 * JOINT_CFA_MIN alike copy rows or more, else over all links, is how often
 * the inference tells such calls apart.  A real alike row is stated at
 * most that, and every row below it in its tree at most its parent's (the
 * cap follows the tree as the product does).  A copy without alike rows
 * caps nothing.  Only confidences: every assignment is unchanged.
 * conf_alike=2 (tried, does not help): the class's own map (pool-adjacent-
 * violators over the alike copy rows by stated share) instead of one
 * value; the copy's alike rows stated 0.99 were right, so retry seed 12
 * and shortlong seed 13 stay over-confident.
 */
#include "joint_int.h"
#include "joint_rules.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pb_sort.h"

#define NONE JOINT_NONE
#define JOINT_CFA_MIN 30 /* alike copy rows a link needs for a cap of its own */

void joint_cfa_free(joint *s)
{
    free(s->cfa_flag);
    free(s->cfa_stat);
    free(s->cfa_pts);
    s->cfa_flag = NULL;
    s->cfa_stat = NULL;
    s->cfa_pts = NULL;
    s->cfa_np = s->cfa_cap = 0;
}

/* the log density of call p's own delay were it in request q: from its
 * trigger there (joint_greedy_trig: the latest return of q's calls before
 * it, else q's arrival), as joint_greedy_tail scores it without the count
 * term; 0 for a call without its call message */
static double own_fit(const joint *s, uint32_t p, uint32_t q)
{
    const jpair *pp = &s->pr[p], *qq = &s->pr[q];
    if (pp->call == NONE)
        return 0;
    pb_ns tt;
    uint32_t trig, cnt;
    joint_greedy_trig(s, p, q, &tt, &trig, &cnt);
    uint32_t di = joint_key_get(s, qq->link, trig, pp->link);
    if (qq->call == NONE && trig == 0)
        return di == NONE ? s->bg - log(1e6) : s->kmean[di];
    return logf_of(s, di, pp->cs - tt);
}

int joint_cfa_flags(joint *s)
{
    uint32_t n = s->npairs;
    free(s->cfa_flag);
    s->cfa_flag = NULL;
    if (!s->p.conf_alike || !n)
        return PB_OK;
    unsigned char *f = calloc((size_t)n + 1, 1);
    uint32_t *alt = malloc(((size_t)n + 1) * sizeof *alt);
    if (!f || !alt) {
        free(f);
        free(alt);
        return PB_ENOMEM;
    }
    for (uint32_t p = 0; p < n; p++) {
        uint32_t q0 = s->par[p];
        alt[p] = NONE;
        if (q0 == NONE || s->cand_off[p + 1] - s->cand_off[p] < 2)
            continue;
        double c0 = -own_fit(s, p, q0), best = INFINITY;
        for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++) {
            uint32_t q = s->cand[j];
            if (q == q0)
                continue;
            double c = -own_fit(s, p, q);
            if (c < best) {
                best = c;
                alt[p] = q;
            }
        }
        f[p] = alt[p] != NONE && best - c0 < s->p.conf_alike_tie;
    }
    /* a shifted series: the cheapest other request holds an alike call of
     * p's link */
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t p = 0; p < n; p++) {
            if (f[p] || alt[p] == NONE)
                continue;
            const kvec *k = &s->kids[alt[p]];
            for (uint32_t i = 0; i < k->n; i++)
                if (f[k->a[i]] && s->pr[k->a[i]].link == s->pr[p].link) {
                    f[p] = 1;
                    changed = 1;
                    break;
                }
        }
    }
    free(alt);
    s->cfa_flag = f;
    return PB_OK;
}

void joint_cfa_row(joint *s, const joint *s2, uint32_t p2, uint32_t l, int ok, double c)
{
    joint_cfev_row(s, s2, p2, l, ok); /* conf_copy_events (joint_cfev.c) */
    joint_cfmu_row(s, s2, p2, l, ok, c); /* conf_copy_multi (joint_cfmulti.c) */
    if (!s->p.conf_alike || s->p.cfr_plain || !s2->cfa_flag || !s2->cfa_flag[p2])
        return;
    if (!s->cfa_stat) {
        s->cfa_stat = calloc(2 * ((size_t)s->nlinks + 1), sizeof *s->cfa_stat);
        if (!s->cfa_stat)
            return; /* no memory: no cap (the copy's rows uncounted) */
    }
    for (int z = 0; z < 2; z++) {
        double *st = s->cfa_stat + 2 * (size_t)(z ? s->nlinks : l);
        st[0]++;
        st[1] += ok != 0;
    }
    if (s->p.conf_alike == 2) { /* the class's map: every alike copy row */
        if (s->cfa_np == s->cfa_cap) {
            uint32_t nc = s->cfa_cap ? 2 * s->cfa_cap : 256;
            joint_spt *a = realloc(s->cfa_pts, (size_t)nc * sizeof *a);
            if (!a)
                return;
            s->cfa_pts = a;
            s->cfa_cap = nc;
        }
        s->cfa_pts[s->cfa_np++] = (joint_spt){c, 0, (unsigned char)(ok != 0)};
    }
}

int joint_cfa_apply(joint *s, double *conf)
{
    uint32_t n = s->npairs, nl = s->nlinks;
    s->p.cfa_real = s->p.cfa_capped = 0;
    s->p.cfa_copy[0] = s->p.cfa_copy[1] = 0;
    if (!s->p.conf_alike || !s->cfa_flag) {
        free(s->cfa_stat);
        s->cfa_stat = NULL;
        return PB_OK;
    }
    const double *all = s->cfa_stat ? s->cfa_stat + 2 * (size_t)nl : NULL;
    if (all) {
        s->p.cfa_copy[0] = all[0];
        s->p.cfa_copy[1] = all[1];
    }
    unsigned char *mk = calloc((size_t)n + 1, 1);
    if (!mk)
        return PB_ENOMEM;
    /* conf_alike=2: the map of the alike copy rows (one class) */
    uint32_t nb = 0, m = s->cfa_np;
    double *lo = NULL, *val = NULL;
    if (s->p.conf_alike == 2 && m) {
        lo = malloc(((size_t)m + 1) * sizeof *lo);
        val = malloc(((size_t)m + 1) * sizeof *val);
        double *w = malloc(((size_t)m + 1) * sizeof *w), *k = malloc(((size_t)m + 1) * sizeof *k);
        if (!lo || !val || !w || !k) {
            free(lo);
            free(val);
            free(w);
            free(k);
            free(mk);
            return PB_ENOMEM;
        }
        pb_sort(s->cfa_pts, m, sizeof *s->cfa_pts, joint_spt_cmp);
        nb = joint_pav_fit(s->cfa_pts, m, lo, val, w, k);
        free(w);
        free(k);
    }
    for (uint32_t p = 0; p < n; p++) {
        if (!s->cfa_flag[p] || s->par[p] == NONE || (s->conf_exempt && s->conf_exempt[p]))
            continue;
        s->p.cfa_real++;
        if (!all || all[0] <= 0)
            continue; /* the copy has no alike call: nothing measured */
        const double *st = s->cfa_stat + 2 * (size_t)s->pr[p].link;
        if (st[0] < JOINT_CFA_MIN)
            st = all;
        double cap = (st[1] + 1) / (st[0] + 2);
        if (s->p.conf_alike == 2)
            cap = nb ? joint_map_at(lo, val, nb, conf[p]) : 1;
        if (conf[p] > cap) {
            conf[p] = cap;
            mk[p] = 1;
            s->p.cfa_capped++;
        }
    }
    /* down the trees: pairs are in call order, a parent before its calls
     * but for lost messages (two passes) */
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t p = 0; p < n; p++) {
            uint32_t q = s->par[p];
            if (q != NONE && mk[q] && conf[p] > conf[q] &&
                !(s->conf_exempt && s->conf_exempt[p])) {
                conf[p] = conf[q];
                s->p.cfa_capped += !mk[p];
                mk[p] = 1;
            }
        }
    free(mk);
    free(lo);
    free(val);
    free(s->cfa_stat);
    s->cfa_stat = NULL;
    free(s->cfa_pts);
    s->cfa_pts = NULL;
    s->cfa_np = s->cfa_cap = 0;
    return PB_OK;
}

int joint_cfa_meta(const joint *s, pb_result *res)
{
    if (!s->p.conf_alike || !s->scal_done)
        return PB_OK;
    return pb_result_meta(res, "conf_alike=%d tie=%g real_alike=%zu copy_alike=%.0f "
                          "copy_alike_right=%.0f rows_capped=%zu (calls that fit another "
                          "request as well as their own: stated at most the copy's share of "
                          "such calls right)",
                          s->p.conf_alike, s->p.conf_alike_tie, s->p.cfa_real, s->p.cfa_copy[0],
                          s->p.cfa_copy[1], s->p.cfa_capped);
}
