/*
 * joint_scwarm.c - joint: the self-calibration's copy searched from its
 * own truth (`conf_copy_warm`, default 0: off; docs/joint/speed_w29.md,
 * "The copy searched from its own truth (h247)").
 *
 * The self-calibration (joint_selfcal.c, sim_points) makes the trace
 * again from the solution, with a known truth (every copy message's id is
 * 2p + 1 for the call, 2p + 2 for the return of the real pair p, and p's
 * parent in the solution is its parent in the copy), and runs the whole
 * search on it: 78-83 % of the copy's instructions, 12-27 % of a run on
 * OnlineBoutique.  What the copy is read for is how often the search is
 * right at each stated confidence, per link.
 *
 * The rule: the copy's search is set up on its truth's pairs and parents
 * (given to the set-up as held_warm gives the free solution to the held
 * search: joint_find_pairs takes the pairs, joint_heldwarm_apply sets
 * every call whose true parent is one of its candidates), then
 *   1: runs as always (its re-pairing and swap rounds);
 *   2: with no re-pairing round and no swap round: the local moves only.
 * A copy started from its truth skips the start's errors (a first-come
 * pairing, a greedy first solve) that the real search had to undo; what
 * it keeps is where the model itself prefers another answer.  So it is
 * expected to be right more often than the real trace: kinder maps.
 * conf_copy_warm_min / conf_copy_warm_free (h258; docs/joint/confidence_late.md,
 * "The copy warm only where the search was sure (h258)"): only the rows
 * whose real row's share before calibration (p.scw_share, handed over by
 * joint_selfcal) is at least the minimum, and / or whose real pair was
 * paired freely, are given their parent; no pair is given then, so the
 * copy pairs first come as the real search did and makes its errors on
 * the rows the real search was unsure of.  Measured, left off: at
 * conf_copy_warm=2 calibrated on the real sets (seeds 1-2) but far
 * under-confident (its first-come pairing left unrepaired).
 * Never under conf_copy_shuffle's copy (its truth is another), never with
 * forced unpaired messages (their pairs are the search's choice).
 * Confidences only: every assignment of the output is the real search's.
 */
#include "joint_int.h"

#include <stdlib.h>

#define NONE JOINT_NONE

void joint_scw_params(const joint *s, joint_params *p2)
{
    p2->scw_from = NULL;
    p2->scw_share = NULL;
    if (s->p.conf_copy_warm <= 0 || (s->p.conf_copy_shuffle && s->p.cft_final))
        return;
    /* conf_copy_warm_min: without the real rows' shares (late_trust's
     * trust alone) nothing is given, and the copy searches as always */
    if (s->p.conf_copy_warm_min > 0 && !s->p.scw_share)
        return;
    /* conf_copy_warm_free: nothing to give where every pair has its ids */
    if (s->p.conf_copy_warm_free) {
        uint32_t nf = 0;
        for (uint32_t p = 0; p < s->npairs && !nf; p++)
            nf = s->free_ret && s->free_ret[p];
        if (!nf)
            return;
    }
    p2->scw_from = s;
    if (s->p.conf_copy_warm == 2) {
        p2->repair = 0;
        p2->swap_rounds = 0;
    }
}

/* the copy message of id, or NONE */
static uint32_t by_id(const uint32_t *idx, uint64_t nid, uint64_t id)
{
    return id >= 1 && id < nid ? idx[id] : NONE;
}

int joint_scw_given(joint *s)
{
    const joint *r = s->p.scw_from;
    /* consumed here: the searches and copies this search makes in turn
     * (s->p) are not set up on it */
    s->p.scw_from = NULL;
    if (!r || s->force_unp || s->unpm_mate || s->hwarm_par)
        return PB_OK;
    size_t n = s->v.n;
    uint64_t nid = 2 * (uint64_t)r->npairs + 3;
    uint32_t *idx = malloc(nid * sizeof *idx);
    s->scw_mate = malloc((n + 1) * sizeof *s->scw_mate);
    s->scw_par = malloc((n + 1) * sizeof *s->scw_par);
    if (!idx || !s->scw_mate || !s->scw_par) {
        free(idx);
        return PB_ENOMEM;
    }
    for (uint64_t i = 0; i < nid; i++)
        idx[i] = NONE;
    for (size_t i = 0; i < n; i++) {
        s->scw_mate[i] = NONE;
        s->scw_par[i] = JOINT_UNPM_SKIP;
        uint64_t id = s->v.msgs[i].id;
        if (id < 1 || id >= nid) { /* not a copy of r: nothing given */
            free(idx);
            joint_scw_free(s);
            return PB_OK;
        }
        idx[id] = (uint32_t)i;
    }
    /* conf_copy_warm_min: only where the real search was sure (its
     * row's share before calibration); no pairs given then, so the copy
     * pairs as the real search did, first come (joint_find_pairs) */
    double wmin = r->p.conf_copy_warm_min;
    const double *rsh = wmin > 0 ? r->p.scw_share : NULL;
    for (uint32_t p = 0; p < r->npairs; p++) {
        uint32_t c = by_id(idx, nid, 2 * (uint64_t)p + 1), t = by_id(idx, nid, 2 * (uint64_t)p + 2);
        uint32_t m = c != NONE ? c : t;
        if (m == NONE)
            continue;
        if (wmin > 0 && (!rsh || !(rsh[p] >= wmin)))
            continue;
        if (r->p.conf_copy_warm_free && !(r->free_ret && r->free_ret[p]))
            continue;
        /* conf_copy_warm_pairs (h267): under _min / _free the rows given
         * their parent get their pair too; the rest pair as always */
        int pairs_too = (wmin <= 0 && !r->p.conf_copy_warm_free) || r->p.conf_copy_warm_pairs;
        if (pairs_too && c != NONE && t != NONE && s->v.msgs[c].type == PB_TYPE_CALL &&
            s->v.msgs[t].type == PB_TYPE_RETURN) {
            s->scw_mate[c] = t;
            s->scw_mate[t] = c;
        }
        uint32_t q = r->par[p];
        if (r->p.conf_copy_warm_pairs == 2) /* the pair alone, no parent */
            continue;
        if (q == NONE) {
            s->scw_par[m] = NONE;
        } else {
            uint32_t qc = by_id(idx, nid, 2 * (uint64_t)q + 1);
            uint32_t qm = qc != NONE ? qc : by_id(idx, nid, 2 * (uint64_t)q + 2);
            s->scw_par[m] = qm != NONE ? qm : JOINT_UNPM_SKIP;
        }
    }
    free(idx);
    s->scw_rec[0] = 1;
    for (size_t i = 0; i < n; i++) {
        s->scw_rec[1] += s->v.msgs[i].type == PB_TYPE_CALL && s->scw_mate[i] != NONE;
        s->scw_rec[2] += s->scw_par[i] != NONE && s->scw_par[i] != JOINT_UNPM_SKIP;
    }
    if (wmin <= 0 && !r->p.conf_copy_warm_free) {
        s->unpm_mate = s->scw_mate;
    } else if (r->p.conf_copy_warm_pairs && s->scw_rec[1] > 0) {
        s->unpm_mate = s->scw_mate; /* some pairs only (joint_find_pairs) */
        s->unpm_partial = 1;
    }
    s->hwarm_par = s->scw_par;
    return PB_OK;
}

void joint_scw_done(joint *s)
{
    if (!s->scw_mate)
        return;
    if (s->unpm_mate == s->scw_mate)
        s->unpm_mate = NULL;
    s->unpm_partial = 0;
    if (s->hwarm_par == s->scw_par)
        s->hwarm_par = NULL;
    joint_scw_free(s);
}

void joint_scw_free(joint *s)
{
    free(s->scw_mate);
    free(s->scw_par);
    s->scw_mate = s->scw_par = NULL;
}

void joint_scw_count(joint *s, const joint *s2)
{
    if (!s2 || !s2->scw_rec[0])
        return;
    s->scw_rec[0]++;
    s->scw_rec[1] += s2->scw_rec[1];
    s->scw_rec[2] += s2->scw_rec[2];
    s->scw_rec[3] += s2->hwarm[3]; /* set by joint_heldwarm_apply */
}

int joint_scw_meta(const joint *s, pb_result *res)
{
    if (s->p.conf_copy_warm <= 0)
        return PB_OK;
    return pb_result_meta(res, "conf_copy_warm=%d conf_copy_warm_min=%g conf_copy_warm_free=%d copies_warm=%.0f "
                          "pairs_given=%.0f parents_given=%.0f parents_set=%.0f "
                          "conf_copy_warm_pairs=%d (the "
                          "calibration copies' searches from their own truth)",
                          s->p.conf_copy_warm, s->p.conf_copy_warm_min, s->p.conf_copy_warm_free,
                          s->scw_rec[0],
                          s->scw_rec[1], s->scw_rec[2], s->scw_rec[3], s->p.conf_copy_warm_pairs);
}
