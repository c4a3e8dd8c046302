/*
 * joint_csweep.c - joint: the candidate parents of a call found by a
 * query over the requests already begun, not by a scan of every open one
 * (`cand_sweep`, default 1; speed only, the same candidates in the same
 * order; docs/joint/speed.md, "Speed, twentieth wave").
 *
 * joint_find_candidates walks a service's calls by call time and keeps
 * the service's requests begun so far in a list (in the order they
 * began); each call scans the list, drops the requests over before it
 * (end + slack + late gap < the call's send) and takes the others that
 * end after its return (end + slack >= the return's receipt).  In one
 * very deep request (experiments/joint_deep.sh: every call sent before
 * any return) nothing is ever dropped and few are taken: every call
 * scans every request of its service begun before it, quadratic in the
 * request's depth.
 *
 * Both tests are thresholds on the request's end, and the drop test's
 * threshold (the call's send) only grows along the walk, so the list at
 * a call is exactly the requests begun so far that pass the drop test at
 * this call, and the call's candidates are those that pass both tests, in
 * the order they began.  A max-tree over the requests in that order (by
 * their ends) reports them without visiting the others: O((k + 1) log n)
 * for k candidates.  The list itself is kept as before (compacted every
 * so many calls, amortised) so that a short list is scanned again.
 */
#include "joint_int.h"

#include <stdint.h>
#include <stdlib.h>

#define EMPTY INT64_MIN

int joint_csweep_test_wrong = 0;
uint32_t joint_csweep_min = 64;

int joint_csweep_init(joint_ctree *t, uint32_t n)
{
    uint32_t size = 1;
    while (size < n)
        size *= 2;
    if (2 * (size_t)size > t->cap) {
        pb_ns *m = realloc(t->mx, 2 * (size_t)size * sizeof *m);
        if (!m)
            return PB_ENOMEM;
        t->mx = m;
        t->cap = 2 * (size_t)size;
    }
    t->size = size;
    for (size_t i = 0; i < 2 * (size_t)size; i++)
        t->mx[i] = EMPTY;
    return PB_OK;
}

void joint_csweep_set(joint_ctree *t, uint32_t pos, pb_ns end)
{
    size_t i = (size_t)t->size + pos;
    t->mx[i] = end;
    for (i /= 2; i >= 1; i /= 2) {
        pb_ns v = t->mx[2 * i] > t->mx[2 * i + 1] ? t->mx[2 * i] : t->mx[2 * i + 1];
        if (t->mx[i] == v)
            break; /* the maxima above are unchanged */
        t->mx[i] = v;
    }
}

/* the two tests of joint_find_candidates' scan, as it makes them; both
 * hold for a subtree's largest end if they hold for any end in it */
static inline int passes(pb_ns e, pb_ns w, pb_ns lw, pb_ns cs, pb_ns rr)
{
    if (e == EMPTY)
        return 0;
    if (joint_csweep_test_wrong) /* the test's wrong tree: one tick short */
        return !(e + w + lw < cs) && e + w > rr;
    return !(e + w + lw < cs) && e + w >= rr;
}

uint32_t joint_csweep_query(const joint_ctree *t, pb_ns w, pb_ns lw, pb_ns cs, pb_ns rr,
                            uint32_t *out)
{
    /* depth-first, left to right: positions in order */
    uint32_t stack[64], ns = 0, n = 0;
    if (!passes(t->mx[1], w, lw, cs, rr))
        return 0;
    stack[ns++] = 1;
    while (ns) {
        uint32_t i = stack[--ns];
        if (i >= t->size) {
            out[n++] = i - t->size;
            continue;
        }
        /* the right child below the left: the left comes out first */
        if (passes(t->mx[2 * i + 1], w, lw, cs, rr))
            stack[ns++] = 2 * i + 1;
        if (passes(t->mx[2 * i], w, lw, cs, rr))
            stack[ns++] = 2 * i;
    }
    return n;
}

void joint_csweep_free(joint_ctree *t)
{
    free(t->mx);
    t->mx = NULL;
    t->cap = 0;
    t->size = 0;
}
