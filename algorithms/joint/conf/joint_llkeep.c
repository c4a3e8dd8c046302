/*
 * joint_llkeep.c - joint: the output's log-likelihood from the
 * confidence's walks (conf_ll_keep; speed only, the same results; issue
 * 28, "Speed, twenty-first wave (h169)" in docs/joint/speed.md).
 *
 * The output's metadata reports the solution's log-likelihood
 * (joint_loglik: every request walked, mode 0, the values summed in
 * request order).  Just before, the confidence (joint_call_shares) walked
 * every request once under the same model for its own share arithmetic
 * (rll).  A walk's value is a function of the model, the request's pair,
 * its list of calls and their pairs' times alone, so when no refit came
 * between (joint_fit counts itself in fit_gen) and the assignment and the
 * pairs are the ones the confidence saw (a hash of par, every pair's
 * messages, times and link, every request's list in its order), the kept
 * values summed in the same order are the very same number (summed when
 * the confidence ends; only the sum is kept).  Anything
 * else walks every request as before.  On the 200k-message multi-tier row
 * the walks were 1.1 % of the run.
 */
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>

struct joint_llkeep {
    double sum;      /* joint_loglik's sum of the walks, in its order */
    uint32_t n;      /* npairs then */
    uint32_t gen;    /* fit_gen then */
    uint64_t hash;   /* assign_hash then */
};

int joint_llkeep_hits = 0;
int joint_llkeep_test_nocheck = 0;

static inline uint64_t mix(uint64_t h, uint64_t x)
{
    h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0x100000001b3ull;
}

/* what a walk reads besides the model: the assignment (each request's
 * list in its order), each pair's messages, times and links, and whether
 * ends are open (re-pairing) */
static uint64_t assign_hash(const joint *s)
{
    uint64_t h = mix(0xcbf29ce484222325ull, s->npairs);
    h = mix(h, s->qend != NULL);
    h = mix(h, s->nkeys);
    h = mix(h, s->npar);
    for (uint32_t p = 0; p < s->npairs; p++) {
        const jpair *x = &s->pr[p];
        h = mix(h, s->par[p]);
        h = mix(h, (uint64_t)x->cs);
        h = mix(h, (uint64_t)x->rr);
        h = mix(h, (uint64_t)x->cr);
        h = mix(h, (uint64_t)x->rs);
        h = mix(h, ((uint64_t)x->call << 32) | x->ret);
        h = mix(h, ((uint64_t)x->link << 32) | x->callee);
        const kvec *k = &s->kids[p];
        h = mix(h, k->n);
        for (uint32_t i = 0; i < k->n; i++)
            h = mix(h, k->a[i]);
    }
    return h;
}

int joint_llkeep_take(joint *s, const double *rll)
{
    if (!s->p.conf_ll_keep)
        return PB_OK;
    struct joint_llkeep *k = s->llk;
    if (!k && !(k = s->llk = calloc(1, sizeof *k)))
        return PB_ENOMEM;
    /* the sum only (joint_loglik's, term by term in its order): no array
     * kept past the confidence, so no memory at the output's peak */
    double t = 0;
    for (uint32_t q = 0; q < s->npairs; q++)
        t += rll[q];
    k->sum = t;
    k->n = s->npairs;
    k->gen = s->fit_gen;
    k->hash = assign_hash(s);
    return PB_OK;
}

double joint_llkeep_loglik(joint *s)
{
    struct joint_llkeep *k = s->llk;
    if (!s->p.conf_ll_keep || !k || k->n != s->npairs ||
        (!joint_llkeep_test_nocheck && (k->gen != s->fit_gen || k->hash != assign_hash(s))))
        return joint_loglik(s);
    joint_llkeep_hits++;
    return k->sum;
}

void joint_llkeep_free(joint *s)
{
    free(s->llk);
    s->llk = NULL;
}
