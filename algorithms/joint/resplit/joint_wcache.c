/*
 * joint_wcache.c - joint: the walk of a request's current kid list kept
 * across the pairs of one local search (`resplit_wcache`; speed only, the
 * same results; issue 28, "Speed, eleventh wave (local search)" in
 * docs/joint.md).
 *
 * Every re-split of two large requests in the local search (joint_search.c,
 * resplit: the moves and exchanges, and the bounded splits of joint_bnb.c)
 * starts by walking both requests afresh, recording, at their current
 * split: the reference from which every later split is resumed or
 * estimated.  A request takes part in the pair with each request among
 * its calls' candidates, and nearly every re-split keeps the current
 * split, so the same request is walked afresh with the same kid list again
 * and again within one local search.  Within one joint_local_search the
 * model (densities, counts, parallel flags, durations term, late-response
 * gaps) and the pairs' times are fixed (only kid lists change, by
 * joint_set_parent), and a walk's record and value depend on the request,
 * its list, the times and the model alone; so the record of a fresh walk
 * of request q is kept here with the local search it was made in, and a
 * later fresh walk of q in the same local search with the very same list
 * (compared call by call) takes a copy of it: the same bits as the walk
 * would make.  Nothing outside joint_local_search uses it (the exchanges'
 * re-splits run between refits).  The records are kept in JOINT_WC_SLOTS
 * slots, request q in slot q mod JOINT_WC_SLOTS (a later request takes the
 * slot over): the memory stays a few megabytes on any trace (one record
 * per request was 500 MB on the 2 M-message multi-tier trace), and the
 * local search visits the pairs in call order, so the requests it comes
 * back to are recent ones.
 */
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>

struct joint_wcache {
    uint64_t ls;           /* the local search running (0: none) */
    uint64_t next;         /* local searches begun */
    struct wc_ent {
        uint64_t ls;       /* the local search it was made in (0: none) */
        double ll;         /* the walk's value */
        joint_wrec w;      /* its record (w.q: its request) */
    } e[JOINT_WC_SLOTS];
};

int joint_wcache_test_stale = 0;

int joint_wcache_begin(joint *s)
{
    if (!s->p.resplit_wcache)
        return PB_OK;
    if (!s->wc)
        joint_bufshare_take(s); /* pairs_share: the free search's (joint_bufshare.c) */
    if (!s->wc && !(s->wc = calloc(1, sizeof *s->wc)))
        return PB_ENOMEM;
    /* the test's stale cache: one local search's records kept in the next
     * (after a refit) */
    if (!(joint_wcache_test_stale && s->wc->next))
        ++s->wc->next;
    s->wc->ls = s->wc->next;
    return PB_OK;
}

void joint_wcache_end(joint *s)
{
    if (s->wc)
        s->wc->ls = 0;
}

/* copy the record a (its list of n calls) into b; PB_OK or PB_ENOMEM */
static int wrec_copy(joint_wrec *b, const joint_wrec *a)
{
    uint32_t n = a->n;
    if (joint_wrec_room(b, n) != PB_OK)
        return PB_ENOMEM;
    if (a->ncnt > b->cntcap) {
        uint32_t *x = realloc(b->cnt, (size_t)a->ncnt * sizeof *x);
        if (!x)
            return PB_ENOMEM;
        b->cnt = x;
        b->cntcap = a->ncnt;
    }
    size_t n1 = (size_t)n + 1;
    memcpy(b->sum, a->sum, n1 * sizeof *b->sum);
    memcpy(b->mx, a->mx, n1 * sizeof *b->mx);
    memcpy(b->rp, a->rp, n1 * sizeof *b->rp);
    memcpy(b->tkr, a->tkr, n1 * sizeof *b->tkr);
    memcpy(b->tki, a->tki, n1 * sizeof *b->tki);
    memcpy(b->smr, a->smr, n1 * sizeof *b->smr);
    memcpy(b->smi, a->smi, n1 * sizeof *b->smi);
    memcpy(b->cp, a->cp, n1 * sizeof *b->cp);
    memcpy(b->k, a->k, (size_t)n * sizeof *b->k);
    memcpy(b->r, a->r, (size_t)a->nr * sizeof *b->r);
    if (a->ncnt)
        memcpy(b->cnt, a->cnt, (size_t)a->ncnt * sizeof *b->cnt);
    b->ncnt = a->ncnt;
    b->ct = a->ct;
    b->end = a->end;
    b->nr = a->nr;
    b->n = n;
    b->q = a->q;
    b->mask = 0;
    b->has_mask = 0;
    b->valid = 1;
    return PB_OK;
}

int joint_wcache_get(joint *s, uint32_t q, const uint32_t *k, uint32_t n, joint_wrec *out,
                     double *ll, int *hit)
{
    *hit = 0;
    const struct joint_wcache *c = s->wc;
    if (!c || !c->ls)
        return PB_OK;
    const struct wc_ent *x = &c->e[q % JOINT_WC_SLOTS];
    if (x->ls != c->ls || x->w.n != n || x->w.q != q ||
        (n && memcmp(x->w.k, k, (size_t)n * sizeof *k) != 0))
        return PB_OK;
    int rc = wrec_copy(out, &x->w);
    if (rc != PB_OK)
        return rc;
    *ll = x->ll;
    *hit = 1;
    s->wc_hits++;
    return PB_OK;
}

int joint_wcache_put(joint *s, uint32_t q, const joint_wrec *w, double ll)
{
    struct joint_wcache *c = s->wc;
    if (!c || !c->ls)
        return PB_OK;
    struct wc_ent *x = &c->e[q % JOINT_WC_SLOTS];
    x->ls = 0; /* not valid until copied in full */
    int rc = wrec_copy(&x->w, w);
    if (rc != PB_OK)
        return rc;
    x->ll = ll;
    x->ls = c->ls;
    return PB_OK;
}

void joint_wcache_free(joint *s)
{
    struct joint_wcache *c = s->wc;
    if (!c)
        return;
    for (uint32_t i = 0; i < JOINT_WC_SLOTS; i++)
        joint_wrec_free(&c->e[i].w);
    free(c);
    s->wc = NULL;
}
