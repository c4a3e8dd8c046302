/* joint_cands_test.h - what the candidate-list unit tests share (csweep,
 * cgroup): a bare joint (pairs, ends and candidates only, made by the test)
 * asked for its candidate lists, and freed. */
#ifndef JOINT_CANDS_TEST_H
#define JOINT_CANDS_TEST_H

#include "joint_int.h"

#include <stdlib.h>
#include <string.h>

/* the candidates of every pair of s, offsets then lists, in one array of
 * *len entries (the caller frees it); NULL when the search or memory fails */
static inline uint32_t *joint_test_cands(joint *s, size_t *len)
{
    if (joint_find_candidates(s) != PB_OK)
        return NULL;
    *len = s->npairs + 1 + s->cand_off[s->npairs];
    uint32_t *v = malloc(*len * sizeof *v);
    if (!v)
        return NULL;
    memcpy(v, s->cand_off, (s->npairs + 1) * sizeof *v);
    memcpy(v + s->npairs + 1, s->cand, s->cand_off[s->npairs] * sizeof *v);
    return v;
}

/* frees a bare joint made by a test (its pairs, ends, candidates); NULL is
 * ignored */
static inline void joint_test_drop_bare(joint *s)
{
    if (!s)
        return;
    free(s->pr);
    free(s->qend);
    free(s->cand);
    free(s->cand_off);
    free(s);
}

#endif
