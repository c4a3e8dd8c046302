/*
 * joint_reentry.c - joint without call ids: the busy test's verdict at a
 * service its own requests re-enter (busy_reentry; docs/joint/shapes.md
 * "Unseen execution models, third round: the black box at load (h183)";
 * issue 28).
 *
 * Why.  The busy test (joint_pick.c) reads a service whose calls land on
 * a busy callee far less often than copies of the free solution predict
 * as one that *keeps its requests in order*, and then keeps the search
 * that holds the order of answers (the held search) over the likelier
 * free one.  A service its own requests re-enter -- a link to itself, or
 * a cycle of links through it such as a sidecar proxy and its application
 * (fe_px -> fe -> fe_px) -- cannot keep its requests in order: the outer
 * visit is answered only after the inner one, which arrived later, has
 * been answered (a service that did would wait on itself for ever).  Its
 * spaced sends are an event loop's, not a queue's, and the held search
 * pairs its answers as a queue would: in experiments/joint_models_mesh.conf
 * at twice the load (seed 1, 0.5 s, black box) fe_px is found serialising
 * (z = -4.06), the busy test keeps the held search 4,727 nats less likely
 * than the free one, which pairs 464 of fe_px's 1,301 answers to fe
 * right against the free search's 1,248: 17 % exact against 52 %.
 *
 * The rule.  Such a service is not counted as serialising by the busy
 * test (nor by busy_space): its changed pairs do not vote for the held
 * search.  Decided from the trace's links alone (the same marks as
 * recur_inner and recur_cycle); the metadata's busy_service= line says
 * reentered=yes where the verdict was withdrawn.  A trace without such a
 * service is untouched.
 */
#include "joint_int.h"
#include <stdlib.h>

unsigned char *joint_reentry_marks(const joint *s, int *err)
{
    *err = PB_OK;
    unsigned char *on = calloc((size_t)s->nnodes + 1, 1);
    if (!on) {
        *err = PB_ENOMEM;
        return NULL;
    }
    uint32_t n = 0;
    for (uint32_t e = 0; e < s->nlinks; e++)
        if (s->link_src[e] == s->link_dst[e]) {
            n += !on[s->link_src[e]];
            on[s->link_src[e]] = 1;
        }
    n += joint_rcycle_mark(s, on, err);
    if (*err != PB_OK || n == 0) {
        free(on);
        return NULL;
    }
    return on;
}
