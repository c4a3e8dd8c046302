/* The local search's single moves remembered across pairs of requests
 * (`resplit_memo`; speed only, the same results; issue 28, "Speed, tenth
 * wave" in docs/joint.md).
 *
 * In the local search of two large requests (joint_search.c, resplit), a
 * single move of a shared call p from its request q to the other one is
 * estimated as the sum of two walk estimates: q without p, and the other
 * request with p.  While the search still stands at the current split
 * (no move kept yet), q's list without p is q's kid list minus p, whatever
 * the other request is; and p is shared with every request among its
 * candidates, so the same estimate of q without p comes back in the pair
 * of q with each of them.  It is kept here per call, with the local search
 * it was made in (the model and the times are fixed within one) and the
 * tick of the change that made it; a change of q's kid list (a kept
 * re-split moves calls: joint_set_parent) voids it.  An estimate only
 * decides whether a split is scored in full (joint_prunable: it must be
 * below the bound by JOINT_PRUNE_TOL of the magnitudes, far more than the
 * rounding by which two estimates of one list from two records of that
 * list can differ), and every split that may win is still scored, so the
 * choice is the same bit for bit. */
#include "joint_int.h"

#include <stdlib.h>

struct joint_lsmemo {
    uint64_t ls;   /* the local search (s->lsm_ls) */
    uint64_t tick; /* changes of kid lists so far */
    uint32_t n;    /* calls = requests (pairs) */
    uint64_t *qt;  /* per request: the tick of its last change */
    struct lsm_ent {
        uint64_t ls, tick;
        uint32_t q;
        double v;
    } *e; /* per call p: the estimate of its request without it */
};

double joint_lsmemo_test_bias = 0;
int joint_lsmemo_test_stale = 0;

/* the memo, made at the first estimate kept (one block: most traces never
 * keep one) */
static int lsm_alloc(joint *s)
{
    size_t n = (size_t)s->npairs + 1;
    struct joint_lsmemo *m = calloc(1, sizeof *m + n * (sizeof *m->e + sizeof *m->qt));
    if (!m)
        return PB_ENOMEM;
    m->n = s->npairs;
    m->e = (struct lsm_ent *)(m + 1);
    m->qt = (uint64_t *)(m->e + n);
    m->ls = s->lsm_ls;
    s->lsm = m;
    return PB_OK;
}

int joint_lsmemo_begin(joint *s)
{
    s->lsm_ls++;
    if (s->lsm)
        s->lsm->ls = s->lsm_ls;
    return PB_OK;
}

void joint_lsmemo_touch(joint *s, uint32_t q)
{
    struct joint_lsmemo *m = s->lsm;
    if (m && q < m->n && !joint_lsmemo_test_stale)
        m->qt[q] = ++m->tick;
}

int joint_lsmemo_get(joint *s, uint32_t q, uint32_t p, double *v)
{
    const struct joint_lsmemo *m = s->lsm;
    if (!m || !s->p.resplit_memo || p >= m->n || q >= m->n)
        return 0;
    const struct lsm_ent *e = &m->e[p];
    if (e->ls != m->ls || e->q != q || m->qt[q] > e->tick || e->ls == 0)
        return 0;
    *v = e->v + joint_lsmemo_test_bias;
    s->lsm_hits++;
    return 1;
}

int joint_lsmemo_put(joint *s, uint32_t q, uint32_t p, double v)
{
    if (!s->p.resplit_memo)
        return PB_OK;
    if (!s->lsm && lsm_alloc(s) != PB_OK)
        return PB_ENOMEM;
    struct joint_lsmemo *m = s->lsm;
    if (p >= m->n || q >= m->n)
        return PB_OK;
    m->e[p] = (struct lsm_ent){m->ls, m->tick, q, v};
    return PB_OK;
}

void joint_lsmemo_free(joint *s)
{
    free(s->lsm);
    s->lsm = NULL;
}
