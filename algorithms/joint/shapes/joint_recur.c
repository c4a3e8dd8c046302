/*
 * joint_recur.c - joint: a service that calls itself (recursion), searched
 * a second time from its calls on their innermost open visits
 * (recur_inner; docs/joint/shapes.md "Unseen execution models"; issue 28).
 *
 * Why.  Where a service S calls S, every call S sends during a nested
 * visit has the outer visits as candidates too (each contains the nested
 * one), and the starts joint has put such calls on the outermost visit:
 * start=earliest by definition (the earliest open candidate), start=rank
 * when the call is made once per outside request (the deepest level's
 * lookup: its i-th call goes to the i-th outer visit), start=local as
 * often.  The model refitted from that start learns "the outermost visit
 * makes that call, the inner ones never do" (keyed by caller, the outer
 * and the inner visits are separate models), and every move back is a
 * count never seen: a self-consistent basin.  maketrace
 * experiments/joint_models_recur.conf with call ids: 30.5 % exact from
 * every start, 97.4 % with the levels renamed as three services.
 *
 * The rule.  Where the trace holds a link from a service to itself, solve
 * again from a first assignment that puts each call that service sends on
 * its innermost open visit (the latest-arrived candidate: a synchronous
 * visit waiting for its nested call sends nothing meanwhile), every other
 * call as start=local does; keep the second solution when its log-likelihood
 * (under its own refit, as second_start compares) beats the first's by
 * JOINT_RESTART_MARGIN nats, else put the first back.  The trace decides
 * where it runs (a self link) and which solution is kept.  Nothing runs,
 * and the output is byte for byte as before, where no service has a link
 * to itself.  Tried and left out: the second search with the service's
 * callers pooled instead (every level one model; 30.5 -> 93.2 % on the
 * config above, but no gain where the outer visit's own calls differ from
 * the inner's, recur3 in the docs).
 */
#include "joint_int.h"
#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE

int joint_recur_run(joint *s)
{
    uint32_t n = s->npairs, nn = s->nnodes;
    s->recur_svcs = 0;
    s->recur_state = 0;
    s->recur_ll[0] = s->recur_ll[1] = 0;
    unsigned char *on = NULL;
    for (uint32_t e = 0; e < s->nlinks; e++) {
        uint32_t b = s->link_src[e];
        if (b != s->link_dst[e])
            continue;
        if (!on && !(on = calloc((size_t)nn + 1, 1)))
            return PB_ENOMEM;
        s->recur_svcs += !on[b];
        on[b] = 1;
    }
    s->recur_cyc = 0;
    if (s->p.recur_cycle) { /* recur_cycle (joint_rcycle.c): re-entered through a cycle */
        int err = PB_OK;
        unsigned char *c = on ? on : calloc((size_t)nn + 1, 1);
        if (!c)
            return PB_ENOMEM;
        s->recur_cyc = joint_rcycle_mark(s, c, &err);
        if (err != PB_OK || (!on && !s->recur_cyc)) {
            if (c != on)
                free(c);
            if (err != PB_OK) {
                free(on);
                return err;
            }
        } else {
            on = c;
        }
    }
    if (!on || !s->p.recur_inner) {
        free(on);
        return PB_OK;
    }
    uint32_t *keep = malloc(((size_t)n + 1) * sizeof *keep);
    int rc = keep ? joint_fit(s, NULL) : PB_ENOMEM;
    if (rc == PB_OK) {
        s->recur_ll[0] = joint_loglik(s);
        memcpy(keep, s->par, (size_t)n * sizeof *keep);
    }
    int sr = s->start_rank, se = s->start_earliest;
    s->start_inner = on;
    s->start_rank = s->start_earliest = 0;
    if (rc == PB_OK)
        rc = joint_solve_fresh(s);
    s->start_inner = NULL;
    s->start_rank = sr;
    s->start_earliest = se;
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
