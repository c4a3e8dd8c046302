/*
 * joint_tiecross.c - joint: when the tie test keeps the start, keep the
 * search's moves the stamps support (docs/joint/ticks.md, "The tie test:
 * whole-tick stamps", "Moves across a tick").
 *
 * The tie test (joint_quant.c) judges the search as a whole: when most of
 * the calls it moved went to a request that arrived within one tick of the
 * start parent's (a move the stamps cannot support), the start is made
 * again.  The other moved calls went to a request a tick or more away from
 * the start parent's: those are moves the stamps can tell, and putting the
 * start back undoes them too.  With tie_cross on, after the start is made
 * again, every call the search had moved across a tick gets the search's
 * parent back (when that request is still one of its candidates), and the
 * model is refitted.  Those moves are kept only when the result is likelier
 * than the start made again (each under its own refit) by more than
 * JOINT_RESTART_MARGIN nats, the margin the second start must clear; else
 * the start stays.  The per-call criterion is the tie test's own count (a
 * tick between the two parents' arrivals); no new constant.  Metadata
 * tie_cross=on moved_across_tick=N restored=M log_likelihood_start=
 * log_likelihood_cross= gain_per_restored= kept=cross|start.
 */
#include "joint_int.h"
#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE

size_t joint_tiecross_mark(const uint32_t *start, const uint32_t *now, const pb_ns *arr,
                           uint32_t n, pb_ns tick, uint32_t *out)
{
    size_t across = 0;
    for (uint32_t p = 0; p < n; p++) {
        uint32_t a = start[p], b = now[p];
        out[p] = NONE;
        if (a == b || a == NONE || b == NONE || arr[a] == INT64_MIN || arr[b] == INT64_MIN)
            continue;
        if ((arr[a] > arr[b] ? arr[a] - arr[b] : arr[b] - arr[a]) > tick) {
            out[p] = b;
            across++;
        }
    }
    return across;
}

int joint_tiecross_save(joint *s)
{
    if (!s->p.tie_cross || s->qcross || !s->qpar)
        return PB_OK;
    uint32_t n = s->npairs;
    s->qcross = malloc(((size_t)n + 1) * sizeof *s->qcross);
    pb_ns *arr = malloc(((size_t)n + 1) * sizeof *arr);
    if (!s->qcross || !arr) {
        free(s->qcross);
        free(arr);
        s->qcross = NULL;
        return PB_ENOMEM;
    }
    /* arrivals as the tie test counts them (joint_quant_decide) */
    for (uint32_t q = 0; q < n; q++)
        arr[q] = s->pr[q].call == NONE ? INT64_MIN : s->pr[q].cr;
    s->cross_across = joint_tiecross_mark(s->qpar, s->par, arr, n, s->qtick, s->qcross);
    free(arr);
    return PB_OK;
}

/* refit after parents changed (as quant_start_again in joint.c) */
int joint_refit_moved(joint *s)
{
    int rc = joint_fit(s, NULL);
    if (rc == PB_OK)
        rc = joint_fit_order(s);
    if (rc == PB_OK && s->rord)
        rc = joint_rord_fit(s);
    return rc;
}

int joint_tiecross_apply(joint *s)
{
    if (!s->qcross)
        return PB_OK;
    uint32_t n = s->npairs;
    int rc = PB_OK;
    size_t put = 0;
    uint32_t *back = malloc(((size_t)n + 1) * sizeof *back);
    if (!back)
        rc = PB_ENOMEM;
    s->cross_ll[0] = joint_lser_choice_ll(s); /* the start made again, refitted */
    s->cross_ll[1] = s->cross_ll[0];
    for (uint32_t p = 0; p < n && rc == PB_OK; p++) {
        uint32_t b = s->qcross[p];
        back[p] = s->par[p];
        if (b == NONE || s->par[p] == b)
            continue;
        for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++)
            if (s->cand[j] == b) {
                rc = joint_set_parent(s, p, b);
                put++;
                break;
            }
    }
    free(s->qcross);
    s->qcross = NULL;
    s->cross_put = put;
    s->cross_done = 1;
    if (rc == PB_OK && put) {
        rc = joint_refit_moved(s);
        if (rc == PB_OK)
            s->cross_ll[1] = joint_lser_choice_ll(s);
        /* likelier than the start by more than the second start's margin, or the
         * start stays */
        if (rc == PB_OK && !joint_tiecross_keep(put, s->cross_ll[0], s->cross_ll[1])) {
            for (uint32_t p = 0; p < n && rc == PB_OK; p++)
                if (s->par[p] != back[p])
                    rc = joint_set_parent(s, p, back[p]);
            if (rc == PB_OK)
                rc = joint_refit_moved(s);
            s->cross_kept = 0;
        } else {
            s->cross_kept = 1;
        }
    }
    free(back);
    return rc;
}

int joint_tiecross_keep(size_t put, double ll_start, double ll_cross)
{
    return put > 0 && ll_cross - ll_start > JOINT_RESTART_MARGIN;
}

int joint_tiecross_meta(const joint *s, pb_result *res)
{
    if (!s->cross_done)
        return PB_OK;
    return pb_result_meta(res, "tie_cross=on moved_across_tick=%zu restored=%zu "
                          "log_likelihood_start=%.3f log_likelihood_cross=%.3f "
                          "gain_per_restored=%.3f kept=%s",
                          s->cross_across, s->cross_put, s->cross_ll[0], s->cross_ll[1],
                          s->cross_put ? (s->cross_ll[1] - s->cross_ll[0]) /
                                             (double)s->cross_put : 0.0,
                          s->cross_kept ? "cross" : "start");
}
