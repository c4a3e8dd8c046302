/*
 * joint_uxcheck.c - the search after each pass of uncross checked by a
 * held-out likelihood (docs/joint/loss.md, "Loss with call ids: uncross's
 * search checked held out").
 *
 * After a pass of uncross (joint_uncross.c) that moved something, the
 * search runs again from there (joint_solve_rounds): greedy rounds and
 * re-splits over every request, each change kept when the model fitted to
 * the current solution finds it likelier.  Where that model is wrong in a
 * way the solution reinforces (a fault minute whose requests pile up: the
 * recommendation service of OnlineBoutique 07:11 calls productcatalog in
 * the order its requests arrived, but the search's solution has a third
 * of those pairs the other way round, so no order term is learned, and
 * every extra search swaps more of them), the search's in-sample gains
 * are the model's, not the trace's.
 *
 * So with uncross_check=1 the solution after that search (S1) is compared
 * with the solution it started from (S0) by a cross-fitted likelihood: the
 * requests are dealt into two halves by their top-level request in S0
 * (alternately in pair order; the same halves for both solutions), and
 * each half's requests are scored (joint_req_ll) under the model fitted to
 * the other half of the same solution.  S1 is kept only when likelier so
 * by more than JOINT_RESTART_MARGIN nats (the margin of every other choice
 * between two solutions); otherwise S0 comes back: uncross's own moves
 * stay, the search's changes go.  Metadata: uncross_check=on
 * uncross_search_kept= uncross_search_undone= uncross_heldout_before=
 * uncross_heldout_after= (summed over the passes).
 */
#include "joint_int.h"

#include <stdlib.h>

#define NONE JOINT_NONE

void joint_ux_halves(const joint *s, const uint32_t *par, unsigned char *half, uint32_t *tmp,
                     uint32_t *grp)
{
    uint32_t n = s->npairs, roots = 0;
    for (uint32_t q = 0; q < n; q++)
        tmp[q] = par[q] == NONE ? roots++ : NONE;
    for (uint32_t q = 0; q < n; q++) {
        uint32_t j = q, steps = 0;
        while (par[j] != NONE && steps++ < n)
            j = par[j];
        half[q] = tmp[j] == NONE ? 0 : (unsigned char)(tmp[j] & 1);
        if (grp)
            grp[q] = tmp[j];
    }
}

int joint_ux_heldout(joint *s, const unsigned char *half, unsigned char *only, double *ll,
                     double *per)
{
    double t = 0;
    for (int h = 0; h < 2; h++) {
        for (uint32_t q = 0; q < s->npairs; q++)
            only[q] = half[q] != h;
        int rc = joint_fit(s, only);
        if (rc != PB_OK)
            return rc;
        for (uint32_t q = 0; q < s->npairs; q++)
            if (half[q] == h) {
                double v = joint_req_ll(s, q);
                t += v;
                if (per)
                    per[q] = v;
            }
    }
    *ll = t;
    return PB_OK;
}

/* the solution par set (only the calls whose parent differs move); also
 * loss_serial_win's check (joint_lserial.c) */
int joint_ux_set_all(joint *s, const uint32_t *par)
{
    int rc = PB_OK;
    for (uint32_t p = 0; p < s->npairs && rc == PB_OK; p++)
        if (s->par[p] != par[p])
            rc = joint_set_parent(s, p, par[p]);
    return rc;
}

int joint_uxcheck(joint *s, const uint32_t *before)
{
    uint32_t n = s->npairs;
    int same = 1;
    for (uint32_t p = 0; p < n && same; p++)
        same = s->par[p] == before[p];
    if (same)
        return PB_OK;
    unsigned char *half = malloc((size_t)n + 1), *only = malloc((size_t)n + 1);
    uint32_t *tmp = malloc(((size_t)n + 1) * sizeof *tmp);
    uint32_t *after = malloc(((size_t)n + 1) * sizeof *after);
    int rc = half && only && tmp && after ? PB_OK : PB_ENOMEM;
    double l1 = 0, l0 = 0;
    if (rc == PB_OK) {
        for (uint32_t p = 0; p < n; p++)
            after[p] = s->par[p];
        joint_ux_halves(s, before, half, tmp, NULL);
        rc = joint_ux_heldout(s, half, only, &l1, NULL);
    }
    if (rc == PB_OK)
        rc = joint_ux_set_all(s, before);
    if (rc == PB_OK)
        rc = joint_ux_heldout(s, half, only, &l0, NULL);
    int keep = rc == PB_OK && l1 > l0 + JOINT_RESTART_MARGIN;
    if (rc == PB_OK && keep)
        rc = joint_ux_set_all(s, after);
    if (rc == PB_OK)
        rc = joint_fit(s, NULL);
    if (rc == PB_OK) {
        s->uxc_kept += keep;
        s->uxc_undone += !keep;
        s->uxc_ll[0] += l0;
        s->uxc_ll[1] += l1;
    }
    free(half);
    free(only);
    free(tmp);
    free(after);
    return rc;
}
