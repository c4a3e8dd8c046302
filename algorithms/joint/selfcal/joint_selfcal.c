/*
 * joint_selfcal.c - joint: self-calibration of the confidence
 * (docs/joint/confidence.md, "Allowances for model error").
 *
 * A call's share (joint_conf.c) is a posterior over a neighbourhood of the
 * solution under the fitted model.  It misses what lies outside the
 * neighbourhood (three requests whose calls crossed, a search that stopped
 * short) and cannot see how the search and the pairing behave on this
 * trace's structure and load.  So the trace is made again with a known
 * truth, and the same inference is run on it:
 *
 *   - every request of the solution keeps its calls (the same tree), its
 *     root keeps its real arrival, every pair keeps its real network
 *     delays (call sent -> received, return sent -> received) and its
 *     lost halves; every output's delay from its trigger (the model's:
 *     the arrival or the latest return of the request, learned parallel
 *     siblings skipped) is drawn, with replacement, from the delays the
 *     solution has under the same key (incoming endpoint, trigger,
 *     output); a response is sent no earlier than its request's last
 *     return (conf_sim_async: of the returns the solution's response
 *     waited for, joint_calibasync.c); stamps are cut to the trace's tick.  Draws come from a
 *     seeded GSL generator (conf_seed): same trace, same numbers.
 *     Only the trees of a window of the trace's time around its middle
 *     root: conf_sim_share of the pairs, at least conf_sim_pairs, at most
 *     JOINT_SELFCAL_PAIRS (the load kept, the cost bounded).
 *   - escapes: a service with orphans (calls no request of it contains)
 *     shows that its calls can leave their request's interval; in the
 *     simulation each of its calls does so at its orphan rate, by the
 *     miss of one of its orphans (orphan_misses).
 *   - joint is run on that trace with the same options (call ids where
 *     the real pairs had them; without them only the search pair_order=auto
 *     kept on the real trace) and its confidences computed as for the
 *     real trace; a simulated pair is right when its inferred parent is
 *     its parent in the simulation (and, without call ids, its return its
 *     own), a row when its pair and every pair above it are.
 *   - per link of the row's call, pool-adjacent-violators fits a monotone
 *     map from stated confidence to the fraction of rows right, each
 *     block's value taken as (right + 1) / (rows + 2) and made monotone
 *     downwards; the top block must hold a wrong row (pooled with the one
 *     below while it holds none); a link with fewer than JOINT_SELFCAL_MIN
 *     rows uses the map of all links together.
 *   - the doubt ratio: the real rows' mean doubt (1 - confidence) over the
 *     simulated rows', per link (at least 1): how much harder the real
 *     trace is than its simulation.  A real row's confidence c becomes
 *     min(c, 1 - ratio (1 - map(c))) (map(c): the value of the last block
 *     whose least stated confidence is at most c).
 *   - a row whose every pair up to its root has one candidate (a share of
 *     1), was paired by call id and is a call of a service without
 *     orphans is left alone, in the fit and in the trace: there each simulated
 *     parent is the only candidate, so the simulation cannot be wrong and
 *     says nothing about it.
 *
 * The cost is a second inference, on a window of the trace (a quarter of
 * it by default).
 */
#include "joint_int.h"

#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

#define NONE JOINT_NONE
#define JOINT_SELFCAL_THIN 30  /* conf_sims_auto: copy rows a band of stated confidence needs */
#define JOINT_SELFCAL_LOSS2 10 /* conf_sim_loss: lost halves from which two copies are pooled */

/* do service a's calls leave their request's interval?  Its orphans in
 * the solution (esc), or (conf_late_construct) the late-call test passed
 * for it: late_attach may have placed every orphan, leaving none, while
 * a call a neighbour's request encloses may still be one that outlived
 * its own (joint_calibconstr.c) */
static int escapes_of(const joint *s, uint32_t a, const double *esc)
{
    return esc[a] > 0 || joint_late_construct(s, a);
}

/* is pair p's share of 1 right by construction in a simulation?  (its
 * pair and its parent's were made by call id, and nothing was doubted:
 * then the simulated parent is the only candidate, and so the truth) */
static int by_construction(const joint *s, uint32_t p, double share, int escapes,
                           const unsigned char *rest)
{
    if (share < 1 || s->free_ret[p] || escapes)
        return 0;
    /* conf_sim_loss: a half pair away from the trace's ends on a link
     * without call ids is the pairing's guess of where the loss was
     * (joint_calibloss.c), not a construction */
    if (rest && (rest[p] & 5))
        return 0;
    /* conf_anchor: a root that lost its call is right for the scorer only
     * where its request's first surviving message is in its tree, which
     * the search decided (joint_anchor.c) */
    if (s->p.conf_anchor && s->par[p] == NONE && s->pr[p].call == NONE &&
        s->v.msgs[s->pr[p].ret].callid != PB_ID_NONE)
        return 0;
    /* a share of exactly 1 with several candidates is a rounding (every
     * alternative 37 nats or more worse), not a construction */
    if (s->par[p] != NONE && s->cand_off[p + 1] - s->cand_off[p] > 1)
        return 0;
    return s->par[p] == NONE || !s->free_ret[s->par[p]];
}

/* conf_sib_learn on one copy s2 (stated confidences cf2, right rows
 * ok2, rows right by construction ex2, each row's link lk2): the copy's
 * request trees dealt into two halves (every other root, in pair order),
 * the self-calibration's maps fitted to each half (ratio 1) and applied
 * to the rows of the other (held out: a map fitted to the rows it is
 * judged on favours them), then joint_sibstr_copy compares the copy's
 * coverage with and without the cap and checks its calibration without
 * it.  PB_OK or PB_ENOMEM */
static int copy_cap_test(joint *s, joint *s2, const double *cf2, const unsigned char *ok2,
                         const unsigned char *ex2, const uint32_t *lk2)
{
    uint32_t n2 = s2->npairs, nl = s->nlinks;
    joint_spt *q = malloc(((size_t)n2 + 1) * sizeof *q);
    double *lo = malloc(2 * ((size_t)n2 + 1) * sizeof *lo);
    double *val = malloc(2 * ((size_t)n2 + 1) * sizeof *val);
    double *w = malloc(((size_t)n2 + 1) * sizeof *w), *kk = malloc(((size_t)n2 + 1) * sizeof *kk);
    uint32_t *cls_off = malloc(2 * ((size_t)nl + 2) * sizeof *cls_off);
    double *m2 = malloc(((size_t)n2 + 1) * sizeof *m2);
    uint32_t *ord = malloc(((size_t)n2 + 1) * sizeof *ord);
    unsigned char *half = malloc((size_t)n2 + 1);
    int rc = q && lo && val && w && kk && cls_off && m2 && ord && half ? PB_OK : PB_ENOMEM;
    uint32_t roots = 0;
    for (uint32_t p = 0; rc == PB_OK && p < n2; p++)
        ord[p] = s2->par[p] == NONE ? roots++ : NONE;
    for (uint32_t p = 0; rc == PB_OK && p < n2; p++) {
        uint32_t j = p, steps = 0;
        while (s2->par[j] != NONE && steps++ < n2)
            j = s2->par[j];
        half[p] = ord[j] == NONE ? 0 : (unsigned char)(ord[j] & 1);
        m2[p] = cf2[p];
    }
    for (int h = 0; rc == PB_OK && h < 2; h++) {
        uint32_t nq = 0;
        for (uint32_t p = 0; p < n2; p++)
            if (!ex2[p] && half[p] == h)
                q[nq++] = (joint_spt){cf2[p], lk2[p], ok2[p]};
        if (!nq)
            continue;
        joint_fit_maps(q, nq, nl, lo, val, w, kk, cls_off, &rc);
        for (uint32_t p = 0; rc == PB_OK && p < n2; p++) {
            if (ex2[p] || half[p] == h)
                continue;
            uint32_t l = lk2[p], a = cls_off[2 * l], z = cls_off[2 * l + 1];
            if (z == a) {
                a = cls_off[2 * nl];
                z = cls_off[2 * nl + 1];
            }
            double v = joint_map_at(lo + a, val + a, z - a, cf2[p]);
            if (s->p.conf_order)
                v = joint_conf_order(v, cf2[p]);
            if (v < m2[p])
                m2[p] = v;
        }
    }
    if (rc == PB_OK)
        rc = joint_sibstr_copy(s, s2, cf2, m2, ok2, ex2);
    free(q);
    free(lo);
    free(val);
    free(w);
    free(kk);
    free(cls_off);
    free(m2);
    free(ord);
    free(half);
    return rc;
}

/* conf_sims_auto: the band of stated confidence c ([0.5, 0.8), [0.8,
 * 0.9), [0.9, 0.95), [0.95, 0.99): 0..3), -1 outside them */
static int band_of(double c)
{
    return c < 0.5 || c >= 0.99 ? -1 : c < 0.8 ? 0 : c < 0.9 ? 1 : c < 0.95 ? 2 : 3;
}

/* conf_sims_auto (docs/joint/confidence.md, "Calibration, twenty-second
 * wave"): can the copy's rows pts[0..np) test the levels the real rows
 * are stated at?  A real row not right by construction (exr) stated in a
 * doubted band (band_of) takes the map of its link where the link has
 * JOINT_SELFCAL_MIN copy rows, else the map of all links; where that
 * class holds fewer than JOINT_SELFCAL_THIN copy rows in the row's band
 * the map's value there is pooled from other levels (pool-adjacent-
 * violators joins a handful of rows to the block above), so the copy's
 * draw, not the trace, decides the row's confidence: the row is thin.
 * s->scal_thin: real rows judged, thin rows.  PB_OK or PB_ENOMEM */
static int sims_thin(joint *s, const joint_spt *pts, uint32_t np, const double *conf,
                     const unsigned char *exr)
{
    uint32_t n = s->npairs, nl = s->nlinks;
    uint32_t *cnt = calloc(4 * ((size_t)nl + 1), sizeof *cnt);
    uint32_t *lrows = calloc((size_t)nl + 1, sizeof *lrows);
    if (!cnt || !lrows) {
        free(cnt);
        free(lrows);
        return PB_ENOMEM;
    }
    for (uint32_t i = 0; i < np; i++) {
        int b = band_of(pts[i].c);
        lrows[pts[i].cls]++;
        if (b >= 0) {
            cnt[4 * (size_t)pts[i].cls + (size_t)b]++;
            cnt[4 * (size_t)nl + (size_t)b]++;
        }
    }
    double rows = 0, thin = 0;
    for (uint32_t p = 0; p < n; p++) {
        if (exr[p])
            continue;
        rows++;
        int b = band_of(conf[p]);
        if (b < 0)
            continue;
        uint32_t l = s->pr[p].link;
        if (lrows[l] < joint_scz_min(s)) /* conf_copy_share_z (joint_scz.c) */
            l = nl;
        thin += cnt[4 * (size_t)l + (size_t)b] < JOINT_SELFCAL_THIN;
    }
    s->scal_thin[0] = rows;
    s->scal_thin[1] = thin;
    free(cnt);
    free(lrows);
    return PB_OK;
}

/* one simulation (seed): its rows' stated confidences and whether each
 * is right appended to *pts (*np of *cap), its statistics added to
 * s->scal_stat.  PB_OK or PB_ENOMEM */
static int sim_points(joint *s, uint32_t seed, const double *esc, const uint32_t *moff,
                      const pb_ns *early, const pb_ns *late, const double *drop,
                      const unsigned char *rest, int (*shares)(joint *, double *), joint_spt **pts,
                      uint32_t *np, size_t *cap, int block)
{
    pb_trace *t = NULL;
    /* conf_copy_pairs: the calibration's own copy may be smaller than the
     * other copies (whose window the busy test's verdict rests on) */
    int floor_pairs = s->p.conf_copy_pairs > 0 ? s->p.conf_copy_pairs : s->p.conf_sim_pairs;
    /* conf_sim_whole: a small trace is copied whole (docs/joint/confidence.md,
     * "The copy as large as a small trace") */
    if (s->p.conf_sim_whole > 0 && s->npairs <= (uint32_t)s->p.conf_sim_whole &&
        floor_pairs < (int)s->npairs) {
        floor_pairs = (int)s->npairs;
        s->scal_whole = 1;
    }
    /* conf_copy_shuffle: only the copy of the confidences the result
     * carries (joint_cfshuf.c); cpar its truth */
    uint32_t *cpar = s->p.conf_copy_shuffle && s->p.cft_final
                         ? malloc(((size_t)s->npairs + 1) * sizeof *cpar)
                         : NULL;
    int rc = s->p.conf_copy_shuffle && s->p.cft_final && !cpar ? PB_ENOMEM : PB_OK;
    if (rc == PB_OK) {
        s->simshape_on = 1; /* conf_sim_shape: a calibration copy (joint_simshape.c) */
        rc = joint_sc_simulate(s, seed, esc, moff, early, late, floor_pairs, drop, rest, block, cpar, &t);
        s->simshape_on = 0;
    }
    const uint32_t *tpar = cpar ? cpar : s->par; /* the copy's truth parents */
    joint *s2 = NULL;
    double *sh2 = NULL;
    pb_msg *spc = NULL; /* conf_copy_tick: the copy's spread rows (joint_cftick.c) */
    if (rc == PB_OK) {
        joint_params p2;
        joint_copy_params(s, &p2);
        joint_simfast_params(s, &p2); /* conf_copy_repair .. (joint_simfast.c) */
        joint_scw_params(s, &p2); /* conf_copy_warm (joint_scwarm.c) */
        pb_error err;
        rc = joint_cf_copy_init(s, t, &p2, &s2, &spc, &err); /* conf_copy_tick (joint_cftick.c) */
        if (rc != PB_OK && rc != PB_ENOMEM)
            rc = PB_ENOMEM; /* cannot fail on a trace it made; say so as memory */
        if (rc == PB_OK)
            s->sfast_restart = s2->restart; /* conf_copy_start (joint_simfast.c) */
        if (rc == PB_OK)
            joint_scw_count(s, s2); /* conf_copy_warm (joint_scwarm.c) */
        joint_unpc_count(s, rc == PB_OK && rest ? s2 : NULL); /* unp_copy (joint_unpcopy.c) */
    }
    if (rc == PB_OK) {
        sh2 = malloc(((size_t)s2->npairs + 1) * sizeof *sh2);
        rc = sh2 ? PB_OK : PB_ENOMEM;
    }
    if (rc == PB_OK && *np + (size_t)s2->npairs + 1 > *cap) {
        size_t nc = *np + (size_t)s2->npairs + 1;
        joint_spt *g = realloc(*pts, nc * sizeof *g);
        if (g) {
            *pts = g;
            *cap = nc;
        } else {
            rc = PB_ENOMEM;
        }
    }
    if (rc == PB_OK) {
        s->scal_sel_real += s2->select_real;
        rc = shares(s2, sh2);
    }
    /* rows: each pair's confidence (the product) and whether it and every
     * pair above it is right, and exempt */
    uint32_t n2 = s2 ? s2->npairs : 0;
    double *cf2 = NULL;
    unsigned char *ok2 = NULL, *ex2 = NULL, *rest2 = NULL;
    /* conf_sim_loss: the copy's half pairs away from its ends are its
     * pairing's guesses too (joint_calibloss.c) */
    if (rc == PB_OK && rest) {
        double *rt2 = malloc(((size_t)s2->nlinks + 1) * sizeof *rt2);
        rest2 = malloc((size_t)n2 + 1);
        if (!rt2 || !rest2 || joint_sim_loss_rates(s2, rt2, rest2) < 0)
            rc = PB_ENOMEM;
        free(rt2);
        /* the copy's own loss, by the same estimator (metadata) */
        s->sloss_copy[0] += s2->sloss_known_id;
        s->sloss_copy[1] += s2->sloss_lc_id;
        s->sloss_copy[2] += s2->sloss_nid;
    }
    if (rc == PB_OK) {
        cf2 = malloc(((size_t)n2 + 1) * sizeof *cf2);
        ok2 = malloc((size_t)n2 + 1);
        ex2 = malloc((size_t)n2 + 1);
        rc = cf2 && ok2 && ex2 ? PB_OK : PB_ENOMEM;
        if (rc == PB_OK)
            rc = joint_conf_product(s2, sh2, cf2);
        for (uint32_t p = 0; rc == PB_OK && p < n2; p++) {
            const jpair *a = &s2->pr[p];
            uint32_t q2 = s2->par[p];
            uint64_t ic = a->call != NONE ? s2->v.msgs[a->call].id : PB_ID_NONE;
            uint64_t ir = a->ret != NONE ? s2->v.msgs[a->ret].id : PB_ID_NONE;
            uint32_t i = (uint32_t)(((ic != PB_ID_NONE ? ic : ir) - 1) / 2);
            ex2[p] = (unsigned char)by_construction(s2, p, sh2[p],
                                                    escapes_of(s, s->pr[i].caller, esc), rest2);
            int ok = ic == PB_ID_NONE || ir == PB_ID_NONE || (ic - 1) / 2 == (ir - 1) / 2;
            if (q2 == NONE) {
                ok = ok && tpar[i] == NONE;
            } else {
                const jpair *b = &s2->pr[q2];
                uint64_t jc = b->call != NONE ? s2->v.msgs[b->call].id : s2->v.msgs[b->ret].id;
                ok = ok && tpar[i] == (uint32_t)((jc - 1) / 2);
            }
            ok2[p] = (unsigned char)ok;
        }
        if (rc == PB_OK)
            rc = joint_and_down(s2, ok2);
        /* conf_sim_loss_ids: a root whose tree holds a doubted row
         * (joint_anchor.c) */
        size_t tt2 = 0;
        if (rc == PB_OK)
            rc = joint_anchor_trees(s2, ex2, &tt2);
        if (rc == PB_OK)
            rc = joint_and_down(s2, ex2);
        /* conf_anchor: and right for the scorer (joint_anchor.c) */
        if (rc == PB_OK && s->p.conf_anchor) {
            uint32_t *ro = malloc(((size_t)n2 + 1) * sizeof *ro);
            for (uint32_t p = 0; ro && p < n2; p++) {
                const jpair *a = &s2->pr[p];
                uint64_t ic = a->call != NONE ? s2->v.msgs[a->call].id : PB_ID_NONE;
                uint64_t ir = a->ret != NONE ? s2->v.msgs[a->ret].id : PB_ID_NONE;
                ro[p] = (uint32_t)(((ic != PB_ID_NONE ? ic : ir) - 1) / 2);
            }
            /* the copy's true requests are cpar's trees (conf_copy_shuffle):
             * joint_anchor_ok reads them from s->par, restored at once */
            uint32_t *spar = s->par;
            s->par = (uint32_t *)tpar;
            rc = ro ? joint_anchor_ok(s, s2, ro, ok2, s->p.conf_sim_loss_ids && s->sloss_pid > 0,
                                      &s->anch_turned)
                    : PB_ENOMEM;
            s->par = spar;
            free(ro);
        }
    }
    /* the simulated rows: stated confidence and right or not, by link */
    uint32_t nl = s->nlinks;
    uint32_t *lk2 = NULL;
    if (rc == PB_OK && s->p.conf_siblings && s->p.conf_sib_learn && !s->p.cfr_plain) {
        lk2 = malloc(((size_t)n2 + 1) * sizeof *lk2);
        if (!lk2)
            rc = PB_ENOMEM;
    }
    /* conf_sim_loss_calls: the rows near a call the trace lost, left out
     * of the fit and of the cap's test as the rows right by construction
     * are (joint_calibloss.c) */
    if (rc == PB_OK && rest && s->p.conf_sim_loss_calls && s->sloss_lc_id > 0) {
        uint32_t *ro = malloc(((size_t)n2 + 1) * sizeof *ro);
        unsigned char *zone = malloc((size_t)n2 + 1);
        for (uint32_t p = 0; ro && p < n2; p++) {
            const jpair *a = &s2->pr[p];
            uint64_t ic = a->call != NONE ? s2->v.msgs[a->call].id : PB_ID_NONE;
            uint64_t ir = a->ret != NONE ? s2->v.msgs[a->ret].id : PB_ID_NONE;
            ro[p] = (uint32_t)(((ic != PB_ID_NONE ? ic : ir) - 1) / 2);
        }
        rc = ro && zone ? joint_sim_orphan_zone(s, s2, ro, rest, zone, &s->sloss_zone)
                        : PB_ENOMEM;
        for (uint32_t p = 0; rc == PB_OK && p < n2; p++)
            ex2[p] |= zone[p];
        free(ro);
        free(zone);
    }
    if (rc == PB_OK)
        joint_cfk_copy(s, s2); /* conf_kind_map (joint_cfkind.c) */
    for (uint32_t p = 0; rc == PB_OK && p < n2; p++) {
        const jpair *a = &s2->pr[p];
        uint64_t ic = a->call != NONE ? s2->v.msgs[a->call].id : PB_ID_NONE;
        uint64_t ir = a->ret != NONE ? s2->v.msgs[a->ret].id : PB_ID_NONE;
        uint32_t i = (uint32_t)(((ic != PB_ID_NONE ? ic : ir) - 1) / 2);
        if (!ex2[p] && joint_sce_skip(s, i)) /* conf_copy_margin: not counted, nor in the */
            ex2[p] = 1;                       /* cap's test (joint_scedge.c) */
        if (ex2[p])
            continue;
        int ok = ok2[p];
        double stated = cf2[p];
        for (int z = 0; z < 2; z++) { /* the call's link, all links */
            double *st = s->scal_stat + JOINT_SCAL_NSTAT * (size_t)(z ? nl : s->pr[i].link);
            st[0]++;
            st[1] += ok;
            st[4] += 1 - stated;
        }
        (*pts)[(*np)++] = (joint_spt){stated, s->pr[i].link, (unsigned char)ok};
        joint_cfr_row(s, s->pr[i].link, stated, tpar[i] == s->par[i]); /* conf_ratio_copy=2 */
        joint_cfa_row(s, s2, p, s->pr[i].link, ok, stated); /* conf_alike (joint_cfalike.c) */
        joint_cfk_row(s, p, s->pr[i].link, ok, stated); /* conf_kind_map (joint_cfkind.c) */
        if (lk2)
            lk2[p] = s->pr[i].link;
    }
    /* conf_sib_learn: does the cap raise the copy's coverage
     * (joint_sibstr.c) */
    if (rc == PB_OK && lk2)
        rc = copy_cap_test(s, s2, cf2, ok2, ex2, lk2);
    free(lk2);
    free(cf2);
    free(ok2);
    free(ex2);
    free(rest2);
    free(sh2);
    joint_sce_free(s); /* conf_copy_margin (joint_scedge.c) */
    joint_close(s2);
    free(spc);
    free(cpar);
    pb_trace_close(t);
    return rc;
}


int joint_lt_only_rows(const joint *s, const double *esc)
{
    /* every link whose trust is read holds a real row that is not right
     * by construction whatever its share (by_construction's own tests: an
     * escape, a return paired freely, a parent among several candidates),
     * so the link takes a map of its own wherever it has one */
    uint32_t nl = s->nlinks;
    unsigned char *k = calloc((size_t)nl + 1, 1);
    if (!k)
        return 0;
    for (uint32_t p = 0; p < s->npairs; p++)
        if (escapes_of(s, s->pr[p].caller, esc) || s->free_ret[p] ||
            (s->par[p] != NONE && s->cand_off[p + 1] - s->cand_off[p] > 1))
            k[s->pr[p].link] |= 1;
    int ok = 1;
    for (uint32_t p = 0; p < s->npairs && ok; p++)
        ok = !joint_lt_judged(s, p) || k[s->pr[p].link];
    free(k);
    return ok;
}

int joint_selfcal(joint *s, const double *share, double *conf,
                  int (*shares)(joint *, double *))
{
    uint32_t n = s->npairs;
    free(s->scal_stat);
    s->scal_stat = calloc(JOINT_SCAL_NSTAT * ((size_t)s->nlinks + 1), sizeof *s->scal_stat);
    if (!s->scal_stat)
        return PB_ENOMEM;
    memset(s->sib_cov, 0, sizeof s->sib_cov);
    memset(s->sib_dreal, 0, sizeof s->sib_dreal);
    memset(s->sib_dsim, 0, sizeof s->sib_dsim);
    memset(s->sib_crows, 0, sizeof s->sib_crows);
    memset(s->sib_cright, 0, sizeof s->sib_cright);
    joint_cfmu_reset(s); /* conf_copy_multi (joint_cfmulti.c) */
    joint_cfk_reset(s); /* conf_kind_map (joint_cfkind.c) */
    memset(s->cfmu_rec, 0, sizeof s->cfmu_rec);
    if (!n)
        return PB_OK;
    if (joint_cfr_begin(s) != PB_OK) /* conf_ratio_copy (joint_cfratio.c) */
        return PB_ENOMEM;
    double *esc = malloc(((size_t)s->nnodes + 1) * sizeof *esc);
    uint32_t *moff = NULL;
    pb_ns *early = NULL, *late = NULL;
    int rc = esc ? joint_sc_orphan_misses(s, esc, &moff, &early, &late) : PB_ENOMEM;
    /* late_trust's trust alone (share NULL; joint_latetrust.c): only where
     * every placement it judges is a row no construction exempts */
    if (rc == PB_OK && !share && !joint_lt_only_rows(s, esc)) {
        joint_cfr_end(s);
        free(esc);
        free(moff);
        free(early);
        free(late);
        return JOINT_LT_FULL;
    }
    joint_spt *pts = NULL;
    uint32_t np = 0, nl = s->nlinks;
    size_t cap = 0;
    joint_cfmin cfm; /* conf_ratio_min (joint_cfmin.c) */
    joint_cfmin_init(&cfm);
    s->p.cfm_lowered = 0;
    /* conf_sim_loss: the loss the solution did not notice (joint_calibloss.c) */
    double *drop = rc == PB_OK ? malloc(((size_t)nl + 1) * sizeof *drop) : NULL;
    unsigned char *rest = rc == PB_OK ? malloc((size_t)n + 1) : NULL;
    s->sloss_dropped = 0;
    s->sloss_copy[0] = s->sloss_copy[1] = s->sloss_copy[2] = 0;
    s->sloss_zone = 0;
    s->anch_turned = s->anch_roots = 0;
    if (rc == PB_OK && (!drop || !rest))
        rc = PB_ENOMEM;
    int lossy = rc == PB_OK ? joint_sim_loss_rates(s, drop, rest) : 0;
    if (lossy < 0)
        rc = PB_ENOMEM;
    /* several simulations pooled (conf_sims), seeds conf_seed, + 1, ...;
     * where the copy loses halves at random places and the trace shows at
     * least JOINT_SELFCAL_LOSS2 lost halves, at least two: one draw of
     * where the losses fall moves the copy's accuracy too much (eBPF at 2 %
     * loss as a black box, 43 halves: rows the fit left at 0.5 or more 142
     * with seed 1, 1,087 with seed 2, 938 pooled; joint_calibloss.c).
     * With a few halves where they fall moves little and a second copy
     * adds only its own noise (eBPF with skewed clocks, 2 halves left
     * unpaired: every row below 0.5 with two copies, 69 % of the messages
     * kept at 0.5 with one, 92 % right) */
    int nsims = s->p.conf_sims;
    if (lossy > 0 && nsims < 2 && s->sloss_known >= JOINT_SELFCAL_LOSS2)
        nsims = 2;
    /* conf_sim_loss_ids: the same with call ids (TrainTicket 10:45 at 2 %
     * loss: the rows wrong at 0.99 are one request's subtree of 17 after
     * one lost call; whether a copy's draw makes such a subtree moves its
     * map at 1 from 0.987 to 0.996 between seeds) */
    if (lossy > 0 && nsims < 2 && s->sloss_known_id >= JOINT_SELFCAL_LOSS2)
        nsims = 2;
    s->sloss_sims = lossy > 0 ? nsims : 0;
    /* conf_sim_block_pool: one copy more, its delays drawn in blocks
     * (joint_simblock.c), pooled with the independent ones */
    int pool = s->p.conf_sim_block > 0 && s->p.conf_sim_block_pool;
    s->sblk_keys[2] = 0;
    s->p.scw_share = share; /* conf_copy_warm_min (joint_scwarm.c) */
    for (int r = 0; rc == PB_OK && r < nsims + pool; r++)
        rc = sim_points(s, (uint32_t)s->p.conf_seed + (uint32_t)r, esc, moff, early, late,
                        lossy > 0 ? drop : NULL, lossy > 0 ? rest : NULL, shares, &pts, &np,
                        &cap, !pool || r == nsims);
    /* conf_ratio_copy=1 (joint_cfratio.c): a copy without the shuffle for
     * the doubt ratio's copy side only (no map, no cap test, its counters
     * out of the metadata) */
    if (rc == PB_OK && joint_cfr_plain_wanted(s)) {
        size_t ns = JOINT_SCAL_NSTAT * ((size_t)nl + 1);
        double *before = malloc(ns * sizeof *before);
        joint_spt *pp = NULL;
        uint32_t npp = 0;
        size_t capp = 0;
        rc = before ? PB_OK : PB_ENOMEM;
        if (rc == PB_OK) {
            memcpy(before, s->scal_stat, ns * sizeof *before);
            int sf = s->sfast_restart, sr = s->scal_sel_real, ct = s->p.cft_copies,
                cs = s->p.cft_spread;
            size_t se = s->scal_escaped, at = s->anch_turned, sz = s->sloss_zone, sk[3];
            double sl[3];
            memcpy(sk, s->sblk_keys, sizeof sk);
            memcpy(sl, s->sloss_copy, sizeof sl);
            s->p.cfr_plain = 1;
            s->p.conf_copy_shuffle = 0;
            /* conf_ratio_share: a smaller window for this copy */
            double ssh = s->p.conf_sim_share;
            int scp = s->p.conf_copy_pairs, ssp = s->p.conf_sim_pairs;
            s->p.conf_sim_share *= s->p.conf_ratio_share;
            s->p.conf_copy_pairs =
                (int)((scp > 0 ? scp : ssp) * s->p.conf_ratio_share + 0.5);
            if (s->p.conf_copy_pairs < 1)
                s->p.conf_copy_pairs = 1;
            rc = sim_points(s, (uint32_t)s->p.conf_seed, esc, moff, early, late,
                            lossy > 0 ? drop : NULL, lossy > 0 ? rest : NULL, shares, &pp, &npp,
                            &capp, !pool);
            s->p.conf_sim_share = ssh;
            s->p.conf_copy_pairs = scp;
            s->p.conf_copy_shuffle = 1;
            s->p.cfr_plain = 0;
            if (rc == PB_OK)
                joint_cfr_take_plain(s, before, JOINT_SCAL_NSTAT);
            if (rc == PB_OK)
                rc = joint_cfmin_fit(s, pp, npp, &cfm); /* conf_ratio_min=1 */
            s->sfast_restart = sf;
            s->scal_sel_real = sr;
            s->p.cft_copies = ct;
            s->p.cft_spread = cs;
            s->scal_escaped = se;
            s->anch_turned = at;
            s->sloss_zone = sz;
            memcpy(s->sblk_keys, sk, sizeof sk);
            memcpy(s->sloss_copy, sl, sizeof sl);
        }
        free(before);
        free(pp);
    }
    s->p.scw_share = NULL;
    /* the real rows exempt where every pair up to the root is */
    unsigned char *exr = rc == PB_OK && share ? malloc((size_t)n + 1) : NULL;
    if (rc == PB_OK && share && !exr)
        rc = PB_ENOMEM;
    for (uint32_t p = 0; rc == PB_OK && share && p < n; p++) {
        exr[p] = (unsigned char)by_construction(s, p, share[p],
                                                escapes_of(s, s->pr[p].caller, esc),
                                                lossy > 0 ? rest : NULL);
        /* conf_anchor: the roots it took out (metadata) */
        s->anch_roots += s->p.conf_anchor && s->par[p] == NONE && s->pr[p].call == NONE &&
                         s->v.msgs[s->pr[p].ret].callid != PB_ID_NONE;
    }
    s->sloss_trees = 0;
    if (rc == PB_OK && share)
        rc = joint_anchor_trees(s, exr, &s->sloss_trees);
    if (rc == PB_OK && share)
        rc = joint_and_down(s, exr);
    /* kept for the siblings cap (joint_calib.c): a row right by
     * construction is not lowered there either */
    if (share) {
        free(s->conf_exempt);
        s->conf_exempt = rc == PB_OK ? malloc((size_t)n + 1) : NULL;
        if (s->conf_exempt)
            memcpy(s->conf_exempt, exr, (size_t)n);
    }
    /* the real trace's doubt against the simulation's, per link and for
     * all links: how much harder the real trace is than its simulation */
    for (uint32_t p = 0; rc == PB_OK && share && p < n; p++) {
        if (exr[p])
            continue;
        for (int z = 0; z < 2; z++) {
            double *st = s->scal_stat + JOINT_SCAL_NSTAT * (size_t)(z ? nl : s->pr[p].link);
            st[5]++;
            st[6] += 1 - conf[p];
        }
    }
    /* conf_sims_auto: one copy more where the first one cannot test the
     * levels the real rows are stated at (sims_thin) */
    s->scal_auto = nsims + pool;
    s->scal_thin[0] = s->scal_thin[1] = 0;
    if (rc == PB_OK && share && s->p.conf_sims_auto && nsims == 1 && !pool) {
        rc = sims_thin(s, pts, np, conf, exr);
        if (rc == PB_OK && s->scal_thin[0] > 0 &&
            s->scal_thin[1] >= s->p.conf_sims_thin * s->scal_thin[0]) {
            rc = sim_points(s, (uint32_t)s->p.conf_seed + 1, esc, moff, early, late,
                            lossy > 0 ? drop : NULL, lossy > 0 ? rest : NULL, shares, &pts, &np,
                            &cap, 1);
            s->scal_auto = 2;
        }
    }
    /* conf_copy_events_second (joint_cfev2.c): the rows as they stand, for
     * a second fit with one copy more */
    double *conf0 = NULL, *first = NULL;
    unsigned char *stk = NULL;
    if (rc == PB_OK && share)
        rc = joint_cfev2_begin(s, conf, n, s->scal_auto, &conf0, &stk);
    int pass = 0;
fit_again:; /* conf_copy_events_second: once more, with the second copy pooled */
    double *lo = NULL, *val = NULL, *w = NULL, *kk = NULL;
    uint32_t *cls_off = NULL;
    if (rc == PB_OK) {
        lo = malloc(2 * ((size_t)np + 1) * sizeof *lo);
        val = malloc(2 * ((size_t)np + 1) * sizeof *val);
        w = malloc(((size_t)np + 1) * sizeof *w);
        kk = malloc(((size_t)np + 1) * sizeof *kk);
        cls_off = malloc(2 * ((size_t)nl + 2) * sizeof *cls_off);
        rc = lo && val && w && kk && cls_off ? PB_OK : PB_ENOMEM;
    }
    if (rc == PB_OK)
        joint_fit_maps_min(pts, np, nl, lo, val, w, kk, cls_off, joint_scz_min(s), &rc);
    if (rc == PB_OK && share && !pass)
        joint_sibstr_real(s, conf, exr);
    for (uint32_t l = 0; rc == PB_OK && l <= nl; l++) {
        double *st = s->scal_stat + JOINT_SCAL_NSTAT * (size_t)l;
        double crows = st[0], cdoubt = st[4];
        joint_cfr_copy_side(s, l, &crows, &cdoubt); /* conf_ratio_copy (joint_cfratio.c) */
        double r = ((st[6] + 1) / (st[5] + 1)) / ((cdoubt + 1) / (crows + 1));
        double r2 = joint_cfmin_ratio(s, r, st); /* conf_ratio_min=2 */
        s->p.cfm_lowered += r2 > r && r2 > 1;
        r = r2;
        st[7] = r > 1 ? r : 1;
        if (l == nl && s->p.cfr_stat)
            s->p.cfr_ratio = st[7];
    }
    /* conf_thin_own: a thin link's own map too (joint_cfthin.c) */
    joint_cfthin thin;
    memset(&thin, 0, sizeof thin);
    s->p.cfn_lowered = 0;
    if (rc == PB_OK)
        rc = joint_cfthin_fit(s, pts, np, nl, cls_off, &thin);
    joint_cfthin mu; /* conf_copy_multi (joint_cfmulti.c) */
    memset(&mu, 0, sizeof mu);
    if (rc == PB_OK)
        rc = joint_cfmu_fit(s, nl, share ? conf : NULL, exr, &mu);
    joint_cfse cse; /* conf_copy_se (joint_cfse.c) */
    memset(&cse, 0, sizeof cse);
    if (rc == PB_OK && !pass)
        rc = joint_cfev2_save(s); /* conf_copy_events_second (joint_cfev2.c) */
    if (rc == PB_OK)
        rc = joint_cfse_fit(s, pts, np, nl, &cse);
    if (rc == PB_OK && share && np) /* conf_ratio_events (joint_cfevratio.c) */
        rc = joint_cfer_fit(s, pts, np, conf, exr, n, nl);
    if (rc == PB_OK && share && np) /* conf_kind_map (joint_cfkind.c) */
        rc = joint_cfk_fit(s, conf, exr);
    /* late_trust's trust alone: a map of its own wherever the link has one
     * (the rows it judges are not exempt: joint_lt_only_rows) */
    for (uint32_t l = 0; rc == PB_OK && !share && np && l < nl; l++)
        if (cls_off[2 * l + 1] != cls_off[2 * l])
            s->scal_stat[JOINT_SCAL_NSTAT * (size_t)l + 3] = 1;
    for (uint32_t p = 0; rc == PB_OK && share && np && p < n; p++) {
        if (exr[p])
            continue;
        uint32_t l = s->pr[p].link, a = cls_off[2 * l], z = cls_off[2 * l + 1];
        double *st = s->scal_stat + JOINT_SCAL_NSTAT * (size_t)l, r;
        if (z == a) {
            a = cls_off[2 * nl];
            z = cls_off[2 * nl + 1];
            r = s->scal_stat[JOINT_SCAL_NSTAT * (size_t)nl + 7];
        } else {
            st[3] = 1; /* a map of its own */
            r = st[7];
        }
        double e = (1 - joint_map_at(lo + a, val + a, z - a, conf[p])) * r;
        double eo = (1 - joint_cfthin_at(&thin, l, conf[p])) * r; /* conf_thin_own */
        if (eo > e) {
            e = eo;
            s->p.cfn_lowered++;
        }
        double eu = joint_cfmu_at(s, &mu, p, conf[p], r); /* conf_copy_multi */
        if (eu > e) {
            e = eu;
            s->cfmu_rec[2]++;
        }
        double em = (1 - joint_cfmin_at(&cfm, l, conf[p])) * r; /* conf_ratio_min=1 */
        if (em > e) {
            e = em;
            s->p.cfm_lowered++;
        }
        double es = (1 - joint_cfse_at(&cse, l, conf[p])) *
                    joint_cfer_r(s, &cse, l, r); /* conf_copy_se; conf_ratio_events */
        es = joint_cfk_err(s, p, conf[p], es); /* conf_kind_map (joint_cfkind.c) */
        joint_cfev2_row(s, stk, p, conf[p], e, es); /* conf_copy_events_second (joint_cfev2.c) */
        if (es > e) {
            e = es;
            s->p.cse_lowered++;
        }
        double v = e < 1 ? 1 - e : 0;
        if (s->p.conf_order)
            v = joint_conf_order(v, conf[p]);
        if (v < conf[p]) {
            conf[p] = v;
            st[2]++;
        }
    }
    /* conf_copy_events_second (joint_cfev2.c): one copy more, pooled, and
     * the maps fitted again on the rows as they were */
    if (rc == PB_OK && share && !pass && joint_cfev2_again(s, conf, conf0, n, &first)) {
        joint_cfthin_free(&thin);
        joint_cfmu_free(&mu);
        joint_cfse_free(&cse);
        free(lo);
        free(val);
        free(w);
        free(kk);
        free(cls_off);
        /* conf_copy_events_second_share: the second copy a share f of the
         * first's pairs (joint_cfev2small.c) */
        double ssh2 = s->p.conf_sim_share;
        int scp2 = s->p.conf_copy_pairs;
        joint_cfev2s_shrink(s);
        rc = sim_points(s, (uint32_t)s->p.conf_seed + 1, esc, moff, early, late,
                        lossy > 0 ? drop : NULL, lossy > 0 ? rest : NULL, shares, &pts, &np,
                        &cap, 1);
        s->p.conf_sim_share = ssh2;
        s->p.conf_copy_pairs = scp2;
        if (rc == PB_OK)
            rc = joint_cfev2_merge(s);
        pass = 1;
        goto fit_again;
    }
    if (rc == PB_OK && pass) {
        joint_cfev2_keep(conf, first, stk, n); /* conf_copy_events_second: not at stake */
        joint_cfev2a_keep(s, conf, first, stk, n); /* conf_copy_events_agree (joint_cfev2agree.c) */
    }
    free(conf0);
    free(first);
    free(stk);
    joint_cfev2_end(s);
    free(drop);
    free(moff);
    free(early);
    free(late);
    if (rc == PB_OK && share && s->p.scp_state) /* conf_copy_stage (joint_scopy.c) */
        joint_scopy_check(s, pts, np, exr, &rc);
    if (rc == PB_OK) {
        s->scal_sim = (double)np;
        s->scal_done = 1;
    }
    joint_cfthin_free(&thin);
    joint_cfmu_free(&mu);
    joint_cfmu_reset(s); /* conf_copy_multi: the copy rows are needed no more */
    joint_cfk_reset(s); /* conf_kind_map: nor these */
    joint_cfse_free(&cse);
    joint_cfer_free(s); /* conf_ratio_events */
    joint_cfmin_free(&cfm);
    joint_cfr_end(s);
    free(lo);
    free(val);
    free(w);
    free(kk);
    free(cls_off);
    free(pts);
    free(esc);
    free(exr);
    free(rest);
    return rc;
}

