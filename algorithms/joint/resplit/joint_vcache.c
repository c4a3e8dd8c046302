/* The values of small requests' walks kept within one local search
 * (speed only, the same results; issue 28, "Speed, fifteenth wave" in
 * docs/joint/speed.md).
 *
 * The re-split of two small requests (joint_search.c, resplit: fewer than
 * JOINT_RESUME_MIN calls together, not pruned) scores every split of
 * their shared calls by walking both requests afresh (joint_req_walk,
 * mode 0).  A request takes part in the pair with each request among its
 * calls' candidates, so the same request comes back with the same list
 * (its current one; without a call it shares with several others; with a
 * call of another) in several pairs of one local search.  Within one
 * joint_local_search the model and the pairs' times are fixed (only kid
 * lists change, by joint_set_parent: the argument of joint_wcache.c), and
 * a walk's value depends on the request, its list, the times and the
 * model alone; so the value of a walk of request q with list k is kept
 * here with the local search it was made in, and a later walk of q with
 * the very same list (compared call by call) in the same local search
 * takes it: the same bits as the walk would make.  JOINT_VC_SLOTS slots,
 * (q, list) in the slot of its hash (a later walk takes the slot over).
 * Nothing outside a local search uses it. */
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>

#define JOINT_VC_SLOTS 4096 /* a power of two */

struct joint_vcache {
    uint64_t ls;   /* the local search running (0: none) */
    uint64_t next; /* local searches begun */
    struct vc_ent {
        uint64_t ls; /* the local search it was made in (0: none) */
        double ll;   /* the walk's value */
        uint32_t q, n;
        uint32_t k[JOINT_RESUME_MIN];
    } e[JOINT_VC_SLOTS];
};

int joint_vcache_test_off = 0;
int joint_vcache_test_stale = 0;

int joint_vcache_begin(joint *s)
{
    if (joint_vcache_test_off)
        return PB_OK;
    if (!s->vc)
        joint_bufshare_take(s); /* pairs_share: the free search's (joint_bufshare.c) */
    if (!s->vc && !(s->vc = calloc(1, sizeof *s->vc)))
        return PB_ENOMEM;
    /* the test's stale cache: one local search's values kept in the next
     * (after a refit) */
    if (!(joint_vcache_test_stale && s->vc->next))
        ++s->vc->next;
    s->vc->ls = s->vc->next;
    return PB_OK;
}

void joint_vcache_end(joint *s)
{
    if (s->vc)
        s->vc->ls = 0;
}

int joint_vcache_walk(joint *s, uint32_t q, const uint32_t *k, uint32_t n, double *ll)
{
    struct joint_vcache *c = s->vc;
    if (!c || !c->ls || n > JOINT_RESUME_MIN)
        return joint_req_walk(s, q, k, n, 0, ll);
    uint64_t h = 0x9e3779b97f4a7c15ull ^ ((uint64_t)q * 0xff51afd7ed558ccdull);
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ k[i]) * 0x100000001b3ull;
    struct vc_ent *x = &c->e[(h ^ (h >> 32)) & (JOINT_VC_SLOTS - 1)];
    if (x->ls == c->ls && x->q == q && x->n == n &&
        (!n || !memcmp(x->k, k, (size_t)n * sizeof *k))) {
        *ll = x->ll;
        s->vc_hits++;
        return PB_OK;
    }
    int rc = joint_req_walk(s, q, k, n, 0, ll);
    if (rc != PB_OK)
        return rc;
    x->ls = c->ls;
    x->ll = *ll;
    x->q = q;
    x->n = n;
    if (n)
        memcpy(x->k, k, (size_t)n * sizeof *k);
    return PB_OK;
}

void joint_vcache_free(joint *s)
{
    free(s->vc);
    s->vc = NULL;
}
