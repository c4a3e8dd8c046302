/*
 * joint_calib.c - joint: the confidence of each pair, with allowances for
 * the model being wrong (docs/joint/confidence.md, "Links and confidence",
 * "Allowances for model error").
 *
 * A call's share (joint_conf.c) is its request's posterior among the
 * solution's neighbours under the model fitted to the whole solution, the
 * call's own request included.  That model has seen the delays it is
 * asked to judge, so it is sure of them; and it assumes itself right.
 * Two allowances, each learned from the trace alone:
 *
 *   - held out (conf_heldout, off by default: it measured no effect on the
 *     real sets): the request trees are dealt into two halves
 *     (every other root, in pair order: no randomness); the model is
 *     refitted to each half and every call's share is computed again under
 *     the model of the half its request is not in.  A call keeps the
 *     smaller of the two shares.  A delay that only its own request made
 *     likely (a density key filled by the solution itself, sparse keys of
 *     rare request types) loses its weight; what the other half confirms
 *     keeps it.  The model is refitted to the whole solution afterwards,
 *     so the search's state is as it was (every assignment is unchanged).
 *   - self-calibration (conf_selfcal, joint_selfcal.c): the trace made
 *     again from the solution with a known truth, the same inference run on
 *     it, and each link's map from stated row confidence to the fraction
 *     of rows right (pool-adjacent-violators), scaled by how much more the
 *     real trace doubts than the simulated one, applied to the real rows.
 *
 * A pair's confidence is the product of the shares from its root down to
 * it (the row is right only when every call on the way up is), then
 * lowered by the self-calibration.
 */
#include "joint_int.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE

/* half[q] (0 or 1) for every request: its tree's root, every other root
 * in pair order.  tmp: room for npairs + 1. */
static void deal_halves(const joint *s, unsigned char *half, uint32_t *tmp)
{
    uint32_t n = s->npairs, roots = 0;
    for (uint32_t q = 0; q < n; q++)
        tmp[q] = NONE;
    for (uint32_t q = 0; q < n; q++)
        if (s->par[q] == NONE)
            tmp[q] = roots++;
    for (uint32_t q = 0; q < n; q++) {
        /* up to the root (a cycle, cut later by the output, stops after
         * n steps and counts as half 0) */
        uint32_t j = q, steps = 0;
        while (s->par[j] != NONE && steps++ < n)
            j = s->par[j];
        half[q] = tmp[j] == NONE ? 0 : (unsigned char)(tmp[j] & 1);
    }
}

/* the held-out shares into ho (calls whose request is in half h get the
 * share under the model fitted to the other half); the model refitted to
 * the whole solution at the end.  PB_OK or PB_ENOMEM */
static int heldout_shares(joint *s, double *ho)
{
    uint32_t n = s->npairs;
    unsigned char *half = malloc((size_t)n + 1), *only = malloc((size_t)n + 1);
    uint32_t *tmp = malloc(((size_t)n + 1) * sizeof *tmp);
    double *sh = malloc(((size_t)n + 1) * sizeof *sh);
    int rc = half && only && tmp && sh ? PB_OK : PB_ENOMEM;
    if (rc == PB_OK)
        deal_halves(s, half, tmp);
    for (uint32_t p = 0; p < n; p++)
        ho[p] = 1.0;
    for (int h = 0; h < 2 && rc == PB_OK; h++) {
        for (uint32_t q = 0; q < n; q++)
            only[q] = half[q] != h;
        rc = joint_fit(s, only);
        if (rc == PB_OK)
            rc = joint_call_shares(s, sh);
        for (uint32_t p = 0; rc == PB_OK && p < n; p++)
            if (s->par[p] != NONE && half[s->par[p]] == h)
                ho[p] = sh[p];
    }
    /* the model of the whole solution again (the same numbers: a fit is a
     * function of the assignment) */
    int rc2 = joint_fit(s, NULL);
    free(half);
    free(only);
    free(tmp);
    free(sh);
    return rc != PB_OK ? rc : rc2;
}

/* each call's share: under the whole solution's model, and with
 * conf_heldout the smaller of that and the held-out share; the per-link
 * statistics of the held-out share into s->conf_stat.  PB_OK or
 * PB_ENOMEM */
static int raw_shares(joint *s, double *share)
{
    uint32_t n = s->npairs;
    int rc = joint_call_shares(s, share);
    /* per link of the call: calls with a parent, their in-sample share
     * summed, the share kept summed, calls the held-out share lowered (by
     * more than 1e-3) */
    free(s->conf_stat);
    s->conf_stat = rc == PB_OK ? calloc(4 * ((size_t)s->nlinks + 1), sizeof *s->conf_stat)
                               : NULL;
    if (rc == PB_OK && !s->conf_stat)
        rc = PB_ENOMEM;
    for (uint32_t p = 0; rc == PB_OK && p < n; p++)
        if (s->par[p] != NONE) {
            double *st = s->conf_stat + 4 * (size_t)s->pr[p].link;
            st[0]++;
            st[1] += share[p];
            st[2] += share[p];
        }
    if (rc == PB_OK && s->p.conf_heldout && n > 0) {
        double *ho = malloc(((size_t)n + 1) * sizeof *ho);
        rc = ho ? heldout_shares(s, ho) : PB_ENOMEM;
        for (uint32_t p = 0; rc == PB_OK && p < n; p++) {
            if (s->par[p] == NONE)
                continue;
            double *st = s->conf_stat + 4 * (size_t)s->pr[p].link;
            if (ho[p] < share[p]) {
                st[2] += ho[p] - share[p];
                st[3] += ho[p] < share[p] - 1e-3;
                share[p] = ho[p];
            }
        }
        free(ho);
    }
    return rc;
}

/* v - step x g(c), at least 0 (joint_conf_order) */
static double order_step(double v, double c, double step)
{
    double d = 1 - c, g;
    if (!(d > 1e-6))
        g = 0;
    else if (d >= 1)
        g = 1;
    else
        g = 1 - fmin(1, -log10(d) / 6);
    v -= step * g;
    return v > 0 ? v : 0;
}

/* conf_siblings (docs/joint/confidence.md, "Allowances for model error"): each row
 * no surer than the least sure call its request makes on the same link
 * (sib: per pair, that least confidence), than the call whose return
 * triggered it (trig, the model's trigger) and than its parent's row.  A
 * request that holds a call of doubtful ownership may hold another
 * request's chain of calls whose every call looks sure: three or more
 * requests whose chains crossed, or a whole tail of calls put in the
 * wrong request, which no neighbour of the shares reaches; a call placed
 * after a doubtful return is as doubtful as that return's call.  PB_OK or
 * PB_ENOMEM */
int joint_sibling_cap(joint *s, double *conf)
{
    uint32_t n = s->npairs;
    double *sib = malloc(((size_t)n + 1) * sizeof *sib);
    unsigned char *done = calloc((size_t)n + 1, 1);
    uint32_t maxk = 1;
    for (uint32_t q = 0; q < n; q++)
        if (s->kids[q].n + 1 > maxk)
            maxk = s->kids[q].n + 1;
    uint32_t *trig = malloc(((size_t)n + 1) * sizeof *trig);
    uint32_t *trig2 = malloc(((size_t)n + 1) * sizeof *trig2);
    uint32_t *tmp = malloc((size_t)maxk * sizeof *tmp);
    double *minl = malloc(((size_t)s->nlinks + 1) * sizeof *minl);
    double *own = malloc(((size_t)n + 1) * sizeof *own);
    int rc = sib && done && trig && trig2 && tmp && minl && own ? PB_OK : PB_ENOMEM;
    if (rc == PB_OK)
        memcpy(own, conf, (size_t)n * sizeof *own);
    if (rc == PB_OK)
        joint_conf_triggers(s, trig, trig2, tmp);
    /* conf_sib_usual (joint_sibusual.c): per row out of its link's usual
     * order, that usual trigger link (trig2 is not read below: reused) */
    if (rc == PB_OK)
        rc = joint_sibu_usual(s, trig, trig2);
    for (uint32_t l = 0; rc == PB_OK && l <= s->nlinks; l++)
        minl[l] = 2.0;
    /* per request, the least confidence of its calls of each link */
    for (uint32_t q = 0; rc == PB_OK && q < n; q++) {
        const kvec *k = &s->kids[q];
        for (uint32_t i = 0; i < k->n; i++) {
            uint32_t l = s->pr[k->a[i]].link;
            if (conf[k->a[i]] < minl[l])
                minl[l] = conf[k->a[i]];
        }
        for (uint32_t i = 0; i < k->n; i++)
            sib[k->a[i]] = minl[s->pr[k->a[i]].link];
        for (uint32_t i = 0; i < k->n; i++)
            minl[s->pr[k->a[i]].link] = 2.0;
    }
    /* to a fixed point (values only fall, each to one already present;
     * pairs are in time order, so one or two passes do) */
    size_t low = 0;
    for (int changed = rc == PB_OK; changed;) {
        changed = 0;
        for (uint32_t j = 0; j < n; j++) {
            uint32_t q = s->par[j];
            /* roots, and rows right by construction (one candidate on
             * every pair up to the root: no other request can hold them) */
            if (q == NONE || (s->conf_exempt && s->conf_exempt[j]))
                continue;
            double c = conf[j];
            if (sib[j] < c)
                c = sib[j];
            if (conf[q] < c)
                c = conf[q];
            if (trig[j] != NONE && conf[trig[j]] < c)
                c = conf[trig[j]];
            if (trig2[j] != NONE) {
                double u = joint_sibu_cap(s, j, trig2[j], conf);
                if (u < c)
                    c = u;
            }
            if (c < conf[j]) {
                if (!done[j]) {
                    done[j] = 1;
                    low++;
                }
                conf[j] = c;
                changed = 1;
            }
        }
    }
    /* conf_sib_usual: the rows its term alone holds lower */
    for (uint32_t j = 0; rc == PB_OK && j < n; j++)
        if (trig2[j] != NONE && done[j]) {
            uint32_t q = s->par[j];
            double c = own[j] < sib[j] ? own[j] : sib[j];
            if (conf[q] < c)
                c = conf[q];
            if (trig[j] != NONE && conf[trig[j]] < c)
                c = conf[trig[j]];
            s->sibu_rec[2] += conf[j] < c;
        }
    /* conf_sib_learn: whether the cap applies, learned from the copy
     * (joint_sibstr.c); off, every row keeps its own confidence */
    memset(s->sib_rrows, 0, sizeof s->sib_rrows);
    for (uint32_t j = 0; rc == PB_OK && j < n; j++)
        if (s->par[j] != NONE && !(s->conf_exempt && s->conf_exempt[j]))
            joint_sibstr_levels(own + j, NULL, NULL, 1, s->sib_rrows, NULL);
    double lam = joint_sibling_strength(s);
    /* conf_copy_shuffle (joint_cfshuf.c): a copy whose requests were
     * dealt other requests' calls cannot show that the real trace's
     * requests need no cap (its trees are not the solution's): kept */
    if (lam < 1 && s->p.cft_final && s->p.cfs_moved > 0) {
        lam = 1;
        s->sib_reason = "copy_shuffled";
    }
    s->sib_strength = lam;
    for (uint32_t j = 0; rc == PB_OK && lam < 1 && j < n; j++)
        if (done[j]) {
            conf[j] = joint_sibling_shrink(own[j], conf[j], lam);
            if (!(conf[j] < own[j])) {
                done[j] = 0;
                low--;
            }
        }
    /* conf_order: the rows the cap set to one value keep the order of
     * their own confidences (docs/joint/confidence.md, "Rows keep their order") */
    for (uint32_t j = 0; rc == PB_OK && lam >= 1 && s->p.conf_order && j < n; j++)
        if (done[j])
            conf[j] = order_step(conf[j], own[j], JOINT_CONF_SIB_STEP);
    s->sib_lowered = low;
    s->sib_exempt = 0;
    for (uint32_t j = 0; rc == PB_OK && s->conf_exempt && j < n; j++)
        s->sib_exempt += s->par[j] != NONE && s->conf_exempt[j];
    free(own);
    free(minl);
    free(trig);
    free(trig2);
    free(tmp);
    free(sib);
    free(done);
    return rc;
}

int joint_confidence(joint *s, double *conf)
{
    if (s->p.lt_only) /* late_trust's trust alone (joint_latetrust.c) */
        return joint_selfcal(s, NULL, NULL, raw_shares);
    uint32_t n = s->npairs;
    double *share = malloc(((size_t)n + 1) * sizeof *share);
    int rc = share ? PB_OK : PB_ENOMEM;
    if (rc == PB_OK)
        rc = raw_shares(s, share);
    if (rc == PB_OK)
        rc = joint_conf_product(s, share, conf);
    s->p.cft_copies = s->p.cft_spread = 0; /* conf_copy_tick's counts (joint_cftick.c) */
    s->p.cfs_copies = 0; /* conf_copy_shuffle's (joint_cfshuf.c) */
    s->p.cfs_clusters = s->p.cfs_moved = 0;
    s->p.cfr_used = 0; /* conf_ratio_copy's (joint_cfratio.c) */
    s->p.cfr_rows = s->p.cfr_ratio = 0;
    if (rc == PB_OK && s->p.conf_selfcal)
        rc = joint_scopy_selfcal(s, share, conf, raw_shares); /* conf_copy_stage (joint_scopy.c) */
    if (rc == PB_OK)
        rc = joint_cfa_apply(s, conf); /* conf_alike (joint_cfalike.c) */
    if (rc == PB_OK && s->p.conf_siblings)
        rc = joint_sibling_cap(s, conf);
    if (rc == PB_OK)
        rc = joint_cftw_apply(s, conf); /* conf_twin (joint_cftwin.c) */
    if (rc == PB_OK)
        rc = joint_cfem_apply(s, conf); /* conf_empty_twin (joint_cfempty.c) */
    free(share);
    return rc;
}

double joint_conf_order(double v, double c)
{
    return order_step(v, c, JOINT_CONF_ORDER_STEP);
}

int joint_calib_meta(const joint *s, pb_result *res)
{
    int rc = pb_result_meta(res, "conf_heldout=%d conf_selfcal=%d conf_seed=%d conf_sims=%d "
                            "conf_siblings=%d lowered_siblings=%zu siblings_by_construction=%zu "
                            "selfcal_rows=%.0f selfcal_escaped=%zu doubt_ratio_all_links=%.3f "
                            "conf_order=%d conf_sib_learn=%d siblings_strength=%.0f "
                            "siblings_reason=%s siblings_doubt_z=%.2f siblings_copy_cov=%.4f "
                            "siblings_copy_cov_capped=%.4f siblings_vouch=%.0f/%.0f/%.0f,%.0f/%.0f/%.0f,"
                            "%.0f/%.0f/%.0f,%.0f/%.0f/%.0f",
                            s->p.conf_heldout, s->p.conf_selfcal, s->p.conf_seed, s->p.conf_sims,
                            s->p.conf_siblings, s->sib_lowered, s->sib_exempt,
                            s->scal_done ? s->scal_sim : 0.0, s->scal_escaped,
                            s->scal_done ? s->scal_stat[JOINT_SCAL_NSTAT * (size_t)s->nlinks + 7]
                                         : 1.0,
                            s->p.conf_order, s->p.conf_sib_learn,
                            s->p.conf_siblings ? s->sib_strength : 0.0,
                            !s->p.conf_siblings ? "off" : s->sib_reason ? s->sib_reason : "none",
                            s->sib_z, s->sib_cov[2] > 0 ? s->sib_cov[0] / s->sib_cov[2] : 0.0,
                            s->sib_cov[2] > 0 ? s->sib_cov[1] / s->sib_cov[2] : 0.0,
                            s->sib_rrows[0], s->sib_cright[0], s->sib_crows[0], s->sib_rrows[1],
                            s->sib_cright[1], s->sib_crows[1], s->sib_rrows[2], s->sib_cright[2],
                            s->sib_crows[2], s->sib_rrows[3], s->sib_cright[3], s->sib_crows[3]);
    /* conf_sim_async (joint_calibasync.c): said only where it changed the copy */
    size_t outl = s->scal_done ? joint_sim_outliving(s) : 0;
    if (rc == PB_OK && outl)
        rc = pb_result_meta(res, "conf_sim_async=1 outliving_calls=%zu", outl);
    /* conf_sim_late (joint_simlate.c): said where the real trace has a late service */
    size_t nlate = 0, nwhole = 0, nhalf = 0;
    double norph = 0;
    int took = s->scal_done && s->p.conf_sim_late
        ? joint_sim_late_applies(s, &nlate, &nwhole, &norph, &nhalf) : 0;
    if (rc == PB_OK && took)
        rc = pb_result_meta(res, "conf_sim_late=1 late_services=%zu links_widened_whole=%zu "
                            "orphan_calls=%.0f half_pairs=%zu (%s)", nlate, nwhole, norph, nhalf,
                            took == 1 ? "the copy takes the real trace's late-call decision and "
                                        "widened links"
                                      : "no more orphans than half pairs: loss may explain "
                                        "them, the copy tests its own window");
    /* conf_late_construct (joint_calibconstr.c): said where it holds */
    size_t nlc = s->scal_done ? joint_late_construct_count(s) : 0;
    if (rc == PB_OK && nlc)
        rc = pb_result_meta(res, "conf_late_construct=1 services=%zu (their calls can outlive "
                            "their request: no row of theirs right by construction)", nlc);
    /* conf_copy_tick (joint_cftick.c): said where the trace was spread */
    if (rc == PB_OK && s->scal_done && s->p.cft_copies)
        rc = pb_result_meta(res, "conf_copy_tick=1 tick_ns=%lld copies=%d copies_spread=%d "
                            "(the calibration's copy cut to the trace's tick in event order, "
                            "spread as the trace was)",
                            (long long)s->p.subtick_tick, s->p.cft_copies, s->p.cft_spread);
    if (rc == PB_OK && s->scal_done) /* conf_copy_shuffle (joint_cfshuf.c) */
        rc = joint_cf_shuffle_meta(s, res);
    if (rc == PB_OK && s->scal_done) /* conf_ratio_copy (joint_cfratio.c) */
        rc = joint_cfr_meta(s, res);
    if (rc == PB_OK)
        rc = joint_cfmin_meta(s, res); /* conf_ratio_min (joint_cfmin.c) */
    if (rc == PB_OK)
        rc = joint_cfa_meta(s, res); /* conf_alike (joint_cfalike.c) */
    if (rc == PB_OK)
        rc = joint_cfs_meta(s, res); /* conf_series (joint_cfseries.c) */
    if (rc == PB_OK)
        rc = joint_cfse_meta(s, res); /* conf_copy_se (joint_cfse.c) */
    if (rc == PB_OK)
        rc = joint_cfev_meta(s, res); /* conf_copy_events (joint_cfev.c) */
    if (rc == PB_OK)
        rc = joint_cfer_meta(s, res); /* conf_ratio_events (joint_cfevratio.c) */
    if (rc == PB_OK)
        rc = joint_cfev2_meta(s, res); /* conf_copy_events_second (joint_cfev2.c) */
    if (rc == PB_OK)
        rc = joint_cfev2a_meta(s, res); /* conf_copy_events_agree (joint_cfev2agree.c) */
    if (rc == PB_OK)
        rc = joint_cfmu_meta(s, res); /* conf_copy_multi (joint_cfmulti.c) */
    if (rc == PB_OK)
        rc = joint_cfk_meta(s, res); /* conf_kind_map (joint_cfkind.c) */
    if (rc == PB_OK)
        rc = joint_simshape_meta(s, res); /* conf_sim_shape (joint_simshape.c) */
    if (rc == PB_OK)
        rc = joint_cfem_meta(s, res); /* conf_empty_twin (joint_cfempty.c) */
    if (rc == PB_OK)
        rc = joint_cftw_meta(s, res); /* conf_twin (joint_cftwin.c) */
    if (rc == PB_OK)
        rc = joint_sibu_meta(s, res); /* conf_sib_usual (joint_sibusual.c) */
    if (rc == PB_OK && s->scal_done && s->p.conf_thin_own && s->p.cfn_links)
        rc = pb_result_meta(res, "conf_thin_own=1 thin_links=%d rows_lowered=%d (links without "
                            "a map of their own: stated at most their own few copy rows' map "
                            "too)",
                            s->p.cfn_links, s->p.cfn_lowered);
    /* conf_sims_auto (joint_selfcal.c): said wherever asked for */
    if (rc == PB_OK && s->scal_done && s->p.conf_sims_auto)
        rc = pb_result_meta(res, "conf_sims_auto=1 copies=%d rows=%.0f thin_rows=%.0f "
                            "thin_share=%.4f conf_sims_thin=%g (%s)",
                            s->scal_auto, s->scal_thin[0], s->scal_thin[1],
                            s->scal_thin[0] > 0 ? s->scal_thin[1] / s->scal_thin[0] : 0.0,
                            s->p.conf_sims_thin,
                            s->scal_thin[0] <= 0 ? "not tested: copies fixed or no row"
                            : s->scal_auto > 1 ? "the first copy cannot test the real rows' "
                                                 "levels: a second copy"
                                               : "the first copy tests the real rows' levels");
    /* conf_sim_whole (joint_selfcal.c): said only where it fired */
    if (rc == PB_OK && s->scal_done && s->scal_whole)
        rc = pb_result_meta(res, "conf_sim_whole=%d copy_pairs=%u (the trace copied whole)",
                            s->p.conf_sim_whole, s->npairs);
    /* conf_sim_block (joint_simblock.c): said wherever it was asked for */
    if (rc == PB_OK && s->scal_done && s->p.conf_sim_block > 0)
        rc = pb_result_meta(res, "conf_sim_block=%d keys_tested=%zu keys_correlated=%zu "
                            "block_draws=%zu (lag-1 rank autocorrelation rho sqrt(n) >= 3)",
                            s->p.conf_sim_block, s->sblk_keys[0], s->sblk_keys[1],
                            s->sblk_keys[2]);
    /* conf_sim_loss (joint_calibloss.c): said only where it fired */
    if (rc == PB_OK && s->scal_done && (s->sloss_p > 0 || s->sloss_unexempt))
        rc = pb_result_meta(res, "conf_sim_loss=1 loss_rate_est=%.5f imbalance_d2=%.0f "
                            "lost_halves_known=%.0f copy_dropped=%zu not_by_construction=%zu "
                            "copies=%d",
                            s->sloss_p, s->sloss_d2, s->sloss_known, s->sloss_dropped,
                            s->sloss_unexempt, s->sloss_sims);
    /* conf_sim_loss_ids (joint_calibloss.c, joint_anchor.c): where it fired */
    if (rc == PB_OK && s->scal_done && (s->sloss_pid > 0 || s->sloss_trees))
        rc = pb_result_meta(res, "conf_sim_loss_ids=1 loss_rate_ids=%.5f lost_halves_ids=%.0f "
                            "copy_dropped=%zu roots_tree_doubted=%zu call_rate_ids=%.5f "
                            "copy_loss_rate_ids=%.5f copy_call_rate_ids=%.5f "
                            "conf_sim_loss_calls=%d rows_left_out=%zu",
                            s->sloss_pid, s->sloss_known_id, s->sloss_dropped, s->sloss_trees,
                            s->sloss_nid > 0 ? s->sloss_lc_id / s->sloss_nid : 0,
                            s->sloss_copy[2] > 0 ? s->sloss_copy[0] / (2 * s->sloss_copy[2]) : 0,
                            s->sloss_copy[2] > 0 ? s->sloss_copy[1] / s->sloss_copy[2] : 0,
                            s->p.conf_sim_loss_calls, s->sloss_zone);
    if (rc == PB_OK) /* conf_copy_start, conf_copy_repair .. (joint_simfast.c) */
        rc = joint_simfast_meta(s, res);
    if (rc == PB_OK) /* conf_copy_stage (joint_scopy.c) */
        rc = joint_scopy_meta(s, res);
    /* conf_anchor (joint_anchor.c): said only where it changed a row */
    if (rc == PB_OK && s->scal_done && (s->anch_turned || s->anch_roots))
        rc = pb_result_meta(res, "conf_anchor=1 copy_rows_owner_wrong=%zu "
                            "roots_without_call_not_by_construction=%zu",
                            s->anch_turned, s->anch_roots);
    for (uint32_t l = 0; rc == PB_OK && s->conf_stat && l < s->nlinks; l++) {
        const double *st = s->conf_stat + 4 * (size_t)l;
        const double *sc = s->scal_stat ? s->scal_stat + JOINT_SCAL_NSTAT * (size_t)l : NULL;
        if (!st[0] && !(sc && sc[0]))
            continue;
        rc = pb_result_meta(res,
                            "conf_link=%s>%s calls=%.0f mean_share=%.4f "
                            "mean_share_heldout=%.4f lowered_heldout=%.0f "
                            "selfcal_calls=%.0f selfcal_right=%.0f selfcal_map=%s "
                            "doubt_real=%.4f doubt_sim=%.4f doubt_ratio=%.3f "
                            "lowered_selfcal=%.0f",
                            pb_strtab_str(s->v.nodes, s->link_src[l]),
                            pb_strtab_str(s->v.nodes, s->link_dst[l]), st[0],
                            st[0] ? st[1] / st[0] : 1.0, st[0] ? st[2] / st[0] : 1.0, st[3],
                            sc ? sc[0] : 0.0, sc ? sc[1] : 0.0,
                            !sc ? "none" : sc[3] ? "link" : "all_links",
                            sc && sc[5] ? sc[6] / sc[5] : 0.0, sc && sc[0] ? sc[4] / sc[0] : 0.0,
                            sc ? sc[7] : 1.0, sc ? sc[2] : 0.0);
    }
    return rc;
}
