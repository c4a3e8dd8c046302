/*
 * joint_recur.c - joint: a service that calls itself (recursion), keyed
 * by caller, searched a second time with its callers pooled (recur_pool;
 * docs/joint/shapes.md "Unseen execution models"; issue 28).
 *
 * Why.  A service S with a link S -> S has two callers at least (its
 * outside caller and itself), so callers=auto may key its delay densities
 * and call counts by caller: the outermost visit (called from outside) and
 * the inner ones (called by S) are separate models.  The choice is made
 * on the first assignment, before the search, and the first assignment of
 * a recursive request puts every call that is made once per request (the
 * deepest level's lookup, say) on the outermost visit: it is a candidate
 * (every inner visit lies inside it), it is the earliest open one, and the
 * rank start's counts match (one such call per outside request).  Keyed,
 * the models then learn "the outermost visit makes that call, the inner
 * ones never do", and every single move back is scored as a count never
 * seen: a self-consistent basin (maketrace experiments/
 * joint_models_recur.conf, with call ids: 30.5 % exact from every start,
 * 97.4 % with the levels renamed as three services).
 *
 * The rule.  Where such a service is left keyed, solve again from the
 * start with its callers pooled (every level of the recursion one model:
 * a visit that calls S again rarely makes the deepest call too), then put
 * the keyed model back, refit it on that solution and go on searching
 * from there; keep the second solution when its keyed log-likelihood
 * beats the first's by JOINT_RESTART_MARGIN nats (both under the model
 * the rest of the run uses, so the criterion is the search's own), else
 * put the first back.  The trace decides: whether a service calls itself,
 * how callers=auto keyed it, and which solution is likelier.  Nothing
 * runs, and the output is byte for byte as before, where no service has a
 * link to itself.
 */
#include "joint_int.h"
#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE

int joint_recur_run(joint *s)
{
    uint32_t n = s->npairs, nn = s->nnodes;
    s->recur_svcs = s->recur_keyed = 0;
    s->recur_state = 0;
    s->recur_ll[0] = s->recur_ll[1] = 0;
    unsigned char *on = NULL;
    for (uint32_t e = 0; e < s->nlinks; e++) {
        uint32_t b = s->link_src[e];
        if (b != s->link_dst[e])
            continue;
        if (!on && !(on = calloc((size_t)nn + 1, 1)))
            return PB_ENOMEM;
        if (on[b])
            continue;
        on[b] = 1;
        s->recur_svcs++;
        if (joint_select_keyed(s, b))
            s->recur_keyed++;
        else
            on[b] = 0;
    }
    if (!on || !s->p.recur_pool || !s->recur_keyed) {
        free(on);
        return PB_OK;
    }
    uint32_t *keep = malloc(((size_t)n + 1) * sizeof *keep);
    int rc = keep ? joint_fit(s, NULL) : PB_ENOMEM;
    if (rc == PB_OK) {
        s->recur_ll[0] = joint_loglik(s);
        memcpy(keep, s->par, (size_t)n * sizeof *keep);
        rc = joint_select_pool(s, on, 1);
    }
    if (rc == PB_OK)
        rc = joint_fit(s, NULL);
    s->rounds_fresh = 0;
    if (rc == PB_OK)
        rc = joint_solve_fresh(s);
    /* the keyed model back, fitted to the pooled search's solution */
    if (rc == PB_OK)
        rc = joint_select_pool(s, on, 0);
    if (rc == PB_OK)
        rc = joint_fit(s, NULL);
    s->rounds_fresh = 0;
    if (rc == PB_OK)
        rc = joint_solve_more(s);
    if (rc == PB_OK)
        rc = joint_fit(s, NULL);
    if (rc == PB_OK) {
        s->recur_ll[1] = joint_loglik(s);
        s->recur_state = 1;
        if (s->recur_ll[1] > s->recur_ll[0] + JOINT_RESTART_MARGIN) {
            s->recur_state = 2;
        } else {
            for (uint32_t p = 0; p < n && rc == PB_OK; p++)
                if (s->par[p] != keep[p])
                    rc = joint_set_parent(s, p, keep[p]);
            if (rc == PB_OK)
                rc = joint_fit(s, NULL);
        }
    }
    s->rounds_fresh = 0;
    free(keep);
    free(on);
    return rc;
}
