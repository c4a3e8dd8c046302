/*
 * joint_latetrust.c - joint: a held orphan's placement kept only when the
 * solution around it is trusted (`late_trust`; docs/joint/model.md,
 * "Calls that outlive their request", "The trust in a placement").
 *
 * The orphans held during the search (joint_lateattach.c) are put, each,
 * in the candidate request whose posterior among its candidates (the
 * softmax of the gains in likelihood) is above 1/2.  That posterior holds
 * every other call where the search put it: it is the chance the orphan
 * belongs to that request *if the rest of the solution is right*.  Where
 * the search is often wrong around it, so is the placement, whatever its
 * stated posterior: on retries after a timeout at twice the load with
 * millisecond stamps whose rows within a tick are in no event order
 * (experiments/joint_apps_retry.conf; counted against the truth,
 * evaluation only), 9 of 76 placements were right, 3 of 23 of those
 * stated above 0.9.
 *
 * The self-calibration (joint_selfcal.c) measures how often the same
 * inference is right on a copy of the trace with a known truth, per
 * link: its accuracy on the orphan's link is the trust in the solution
 * the placement stands on.  A placement is kept when posterior x trust
 * is above 1/2 (the chance it is right, counting a wrong surrounding as
 * a wrong placement, above the chance it is wrong): a call left a root
 * costs its own request, a call put wrong costs that one and the request
 * it lands in.  Undone placements leave their orphans roots; the model
 * is refitted.  Where the self-calibration does not run (conf_selfcal=0)
 * nothing changes.
 *
 * The confidences computed for the decision are kept and used for the
 * output when the decision undid nothing (the same solution, the same
 * seeded simulation: the same numbers); else they are computed again on
 * the new solution.
 */
#include "joint_int.h"

#include <math.h>
#include <stdlib.h>

#define NONE JOINT_NONE

double joint_lt_trust(const joint *s, uint32_t l)
{
    if (!s->scal_stat || !s->scal_done)
        return -1;
    const double *st = s->scal_stat + JOINT_SCAL_NSTAT * (size_t)l;
    if (!st[3]) /* no map of its own: the rows of all links */
        st = s->scal_stat + JOINT_SCAL_NSTAT * (size_t)s->nlinks;
    return st[0] > 0 ? st[1] / st[0] : -1;
}

/* keep a placement of posterior post when the solution around it is
 * trusted t (t < 0: no self-calibration, kept) */
int joint_lt_keep(double post, double t)
{
    return t < 0 || post * t > 0.5;
}

int joint_lt_apply(joint *s)
{
    int rc = PB_OK;
    s->lt_undone = s->lt_kept = 0;
    for (uint32_t p = 0; p < s->npairs && rc == PB_OK; p++) {
        if (isnan(s->la_post[p]) || s->par[p] == NONE)
            continue;
        if (joint_lt_keep(s->la_post[p], s->lt_trust[s->pr[p].link])) {
            s->lt_kept++;
            continue;
        }
        rc = joint_set_parent(s, p, NONE);
        s->lt_undone++;
    }
    if (rc == PB_OK && s->lt_undone) {
        free(s->lt_conf); /* another solution: computed again for the output */
        s->lt_conf = NULL;
        rc = joint_fit(s, NULL);
        if (rc == PB_OK)
            rc = joint_fit_order(s);
    }
    return rc;
}

int joint_lt_judged(const joint *s, uint32_t p)
{
    /* joint_lt_apply reads the trust of a placed row's link, joint_lt_meta
     * of a row placed above 1/2 */
    return s->la_post && !isnan(s->la_post[p]) && (s->par[p] != NONE || s->la_post[p] > 0.5);
}

/* the result's confidences computed again whatever this decides
 * (joint_cf_final_conf's test), and nothing of the real rows changes the
 * trust (conf_sims_auto: a copy more on their levels) */
static int lt_only_wanted(const joint *s)
{
    const joint_params *p = &s->p;
    return p->lt_trust_alone && p->conf_selfcal && !p->conf_sims_auto &&
           ((p->conf_copy_tick && p->subtick_tick > 1) || p->conf_copy_shuffle ||
            p->conf_thin_own);
}

int joint_lt_decide(joint *s)
{
    s->lt_undone = s->lt_kept = 0;
    s->lt_done = 0;
    free(s->lt_conf);
    s->lt_conf = NULL;
    if (!s->p.late_trust || !s->p.conf_selfcal || !s->la_post)
        return PB_OK;
    uint32_t n = s->npairs, placed = 0;
    for (uint32_t p = 0; p < n; p++)
        placed += !isnan(s->la_post[p]) && s->par[p] != NONE;
    if (!placed)
        return PB_OK;
    s->lt_conf = malloc(((size_t)n + 1) * sizeof *s->lt_conf);
    free(s->lt_trust);
    s->lt_trust = malloc(((size_t)s->nlinks + 1) * sizeof *s->lt_trust);
    if (!s->lt_conf || !s->lt_trust)
        return PB_ENOMEM;
    /* the trust alone where the result's confidences are computed again
     * anyway: the copies and their counts, not the real rows' shares */
    int only = lt_only_wanted(s);
    s->p.lt_only = only;
    int rc = joint_confidence(s, s->lt_conf);
    s->p.lt_only = 0;
    if (rc == JOINT_LT_FULL) {
        only = 0;
        rc = joint_confidence(s, s->lt_conf);
    }
    if (rc != PB_OK)
        return rc;
    s->lt_done = 1;
    for (uint32_t l = 0; l < s->nlinks; l++)
        s->lt_trust[l] = joint_lt_trust(s, l);
    rc = joint_lt_apply(s);
    if (only) { /* no confidences to keep: computed for the result */
        free(s->lt_conf);
        s->lt_conf = NULL;
    }
    return rc;
}

void joint_lt_meta(const joint *s, pb_result *res)
{
    if (!s->lt_done || !s->lt_trust || !s->la_post)
        return;
    /* per link with a held orphan placed: its trust, how many were
     * placed (posterior above 1/2) and how many of those undone */
    uint32_t nl = s->nlinks, *k = calloc(2 * ((size_t)nl + 1), sizeof *k);
    if (!k)
        return;
    for (uint32_t p = 0; p < s->npairs; p++)
        if (!isnan(s->la_post[p]) && s->la_post[p] > 0.5) {
            k[2 * s->pr[p].link]++;
            k[2 * s->pr[p].link + 1] += s->par[p] == NONE;
        }
    for (uint32_t l = 0; l < nl; l++)
        if (k[2 * l])
            pb_result_meta(res, "late_trust=%s>%s trust=%.4f placed=%u undone=%u",
                           pb_strtab_str(s->v.nodes, s->link_src[l]),
                           pb_strtab_str(s->v.nodes, s->link_dst[l]), s->lt_trust[l], k[2 * l],
                           k[2 * l + 1]);
    free(k);
}

void joint_lt_free(joint *s)
{
    free(s->la_post);
    free(s->lt_conf);
    free(s->lt_trust);
    s->lt_trust = NULL;
    s->la_post = NULL;
    s->lt_conf = NULL;
}
