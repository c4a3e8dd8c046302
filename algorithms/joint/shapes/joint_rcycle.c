/*
 * joint_rcycle.c - joint: services re-entered through a cycle of links
 * (recur_cycle; docs/joint/shapes.md "Unseen execution models, third
 * round"; issue 28).
 *
 * Why.  recur_inner (joint_recur.c) runs its second search where a
 * service calls itself.  A service mesh re-enters a service the same way
 * through another one: the caller's sidecar proxy forwards a request into
 * its application, which calls out through the same proxy (links
 * fe_px -> fe and fe -> fe_px), so a call the proxy sends has both the
 * outer visit (from the client) and the inner one (from its application)
 * open as candidates, the outer containing the inner: the basin
 * joint_recur.c describes.  experiments/joint_models_mesh.conf with call
 * ids: 4.8 % exact (set accuracy 91 %), below nesting (32 %) and wap5tw
 * (36 %).
 *
 * The rule.  A service whose link graph has a cycle through it (a link
 * A -> B with A reachable again from B, over two or more services) is
 * treated as one that calls itself: its calls get the innermost-visit
 * start of recur_inner's second search, whose solution is kept only when
 * its log-likelihood is higher by JOINT_RESTART_MARGIN.  The trace
 * decides (its links; then the likelihood).  No cycle, nothing marked.
 */
#include "joint_int.h"
#include <stdlib.h>

uint32_t joint_rcycle_mark(const joint *s, unsigned char *on, int *err)
{
    uint32_t nn = s->nnodes + 1, nl = s->nlinks, added = 0;
    *err = PB_OK; /* nn: node ids 0..nnodes, as joint_recur.c sizes its array */
    if (nl == 0)
        return 0;
    /* links by source (CSR), then a search from each link's callee */
    uint32_t *off = calloc((size_t)nn + 2, sizeof *off);
    uint32_t *adj = malloc(((size_t)nl + 1) * sizeof *adj);
    uint32_t *stack = malloc(((size_t)nn + 1) * sizeof *stack);
    uint32_t *seen = calloc((size_t)nn + 1, sizeof *seen);
    if (!off || !adj || !stack || !seen) {
        *err = PB_ENOMEM;
        goto out;
    }
    for (uint32_t e = 0; e < nl; e++)
        off[s->link_src[e] + 1]++;
    for (uint32_t b = 0; b < nn; b++)
        off[b + 1] += off[b];
    for (uint32_t e = 0; e < nl; e++) /* off[b] advances to b's end */
        adj[off[s->link_src[e]]++] = s->link_dst[e];
    for (uint32_t b = nn; b > 0; b--) /* and back to its start */
        off[b] = off[b - 1];
    off[0] = 0;
    for (uint32_t e = 0; e < nl; e++) {
        uint32_t a = s->link_src[e], d = s->link_dst[e];
        if (a == d || on[a])
            continue; /* a self link is recur_inner's own case */
        /* seen[] holds the link's number + 1: no clearing between links */
        uint32_t top = 0, mark = e + 1;
        int found = 0;
        stack[top++] = d;
        seen[d] = mark;
        while (top && !found) {
            uint32_t v = stack[--top];
            for (uint32_t j = off[v]; j < off[v + 1]; j++) {
                uint32_t w = adj[j];
                if (w == a) {
                    found = 1;
                    break;
                }
                if (seen[w] != mark) {
                    seen[w] = mark;
                    stack[top++] = w;
                }
            }
        }
        if (found) {
            on[a] = 1;
            added++;
        }
    }
out:
    free(off);
    free(adj);
    free(stack);
    free(seen);
    return added;
}
