/* joint_cands_test.h - what the candidate-list unit tests share (csweep,
 * cgroup, cfast): random bare pairs; a bare joint (pairs, ends and candidates only, made by the test)
 * asked for its candidate lists, and freed. */
#ifndef JOINT_CANDS_TEST_H
#define JOINT_CANDS_TEST_H

#include "joint_int.h"

#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <string.h>

/* stamps of one pair: fills x's cs, cr, rs, rr from r (arg: the test's) */
typedef void (*joint_test_stamps_fn)(gsl_rng *r, jpair *x, void *arg);

/* A bare joint of np pairs among nn nodes (default parameters; caller and
 * callee uniform, link caller * nn + callee), each pair's stamps drawn by
 * stamps right after its ends; when opened, the request's end qend is the
 * return's send, qlate later for 30 % of them.  The caller frees it with
 * joint_test_drop_bare.  NULL when out of memory. */
static inline joint *joint_test_bare_pairs(gsl_rng *r, uint32_t np, uint32_t nn, int opened,
                                           pb_ns qlate, joint_test_stamps_fn stamps, void *arg)
{
    joint *s = calloc(1, sizeof *s);
    jpair *pr = calloc(np, sizeof *pr);
    pb_ns *qe = opened ? calloc(np, sizeof *qe) : NULL;
    if (!s || !pr || (opened && !qe)) {
        free(s);
        free(pr);
        free(qe);
        return NULL;
    }
    s->p = defaults();
    s->pr = pr;
    s->npairs = np;
    s->nnodes = nn;
    s->qend = qe;
    for (uint32_t i = 0; i < np; i++) {
        jpair *x = &pr[i];
        x->call = x->ret = i;
        x->caller = (uint32_t)gsl_rng_uniform_int(r, nn);
        x->callee = (uint32_t)gsl_rng_uniform_int(r, nn);
        x->link = x->caller * nn + x->callee;
        stamps(r, x, arg);
        if (qe)
            qe[i] = x->rs + (gsl_rng_uniform(r) < 0.3 ? qlate : 0);
    }
    return s;
}

/* whole ticks of 1 ms from a short range of *(unsigned *)ticks: sends and
 * returns tie (cgroup's and cfast's pairs) */
static inline void joint_test_tick_stamps(gsl_rng *r, jpair *x, void *ticks)
{
    unsigned t = *(unsigned *)ticks;
    x->cs = (pb_ns)gsl_rng_uniform_int(r, t) * 1000000;
    x->cr = x->cs;
    x->rs = x->cr + (pb_ns)gsl_rng_uniform_int(r, 1 + t / 2) * 1000000;
    x->rr = x->rs + (pb_ns)gsl_rng_uniform_int(r, 2) * 1000000;
}

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
