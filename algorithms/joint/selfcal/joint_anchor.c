/*
 * joint_anchor.c - joint: the self-calibration's copy counts a row right
 * as the scorer does (`conf_anchor`; docs/joint/confidence.md, "The copy
 * scores a row as the scorer does"; issue 28, calibrated abstention).
 *
 * The scorer (metrics/score_split.c) counts a row right when its inferred
 * request's owner is its true request: the owner is the earliest true
 * request whose anchor the inferred request holds, the anchor being the
 * request's root message or, where that was lost, its first surviving
 * message.  The copy (joint_selfcal.c) counted a pair right when its
 * pairing and every parent up to its root were right, and a root whose
 * call was lost right by construction.  After a loss those differ: a root
 * return whose call was lost is right for the scorer only where its
 * request's first surviving message (a child's call) is in its tree;
 * where the children went to other requests it is wrong, and a tree that
 * takes a foreign request's anchor makes its own rows wrong (OnlineBoutique
 * 06:35 at 2 % loss with call ids: the 5 wrong rows of 3,332 stated 1).
 *
 * So with conf_anchor a copy row with a call id is right only where the
 * scorer's rule says so too (the old rule and the owner rule, taking the
 * solution as the copy's truth), and a root whose return has a call id
 * but whose call was lost is not right by construction, in the copy and
 * in the real trace.  (Without call ids conf_sim_loss already doubts the
 * half pairs; the rule there too cost calibrated coverage, see has_id.)  The anchor is the
 * pair whose present message is earliest (its call sent, else its return
 * sent) in the true request; requests are ordered by their anchors.
 */
#include "joint_int.h"

#include <stdint.h>
#include <stdlib.h>

/* the root of pair p's tree (par[] of s), memoised in r[] (NONE: not yet) */
static uint32_t root_of(const joint *s, uint32_t p, uint32_t *r)
{
    uint32_t q = p, hops = 0;
    while (r[q] == JOINT_NONE && s->par[q] != JOINT_NONE && hops++ <= s->npairs)
        q = s->par[q];
    uint32_t top = r[q] != JOINT_NONE ? r[q] : q;
    for (uint32_t x = p, h = 0; x != q && h <= s->npairs; x = s->par[x], h++)
        r[x] = top;
    r[q] = top;
    return top;
}

/* the earliest present message of copy pair p (its call sent, else its
 * return sent) */
static pb_ns first_stamp(const joint *s2, uint32_t p)
{
    const jpair *a = &s2->pr[p];
    return a->call != JOINT_NONE ? a->cs : a->rs;
}

/* has copy pair p a call id (either half)?  Only there: without call ids
 * conf_sim_loss (joint_calibloss.c) already makes a half pair the
 * pairing's guess, and the owner rule on top took away calibrated
 * coverage (held out, sniffer seed 3, black box: TrainTicket 09:00 at 0.9
 * 85.0 % of the messages at 99.94 % precision -> 0) */
static int has_id(const joint *s2, uint32_t p)
{
    const jpair *a = &s2->pr[p];
    uint32_t m = a->call != JOINT_NONE ? a->call : a->ret;
    return m != JOINT_NONE && s2->v.msgs[m].callid != PB_ID_NONE;
}

int joint_anchor_ok(const joint *s, const joint *s2, const uint32_t *real_of, unsigned char *ok2,
                    int owner_only, size_t *turned)
{
    uint32_t n = s->npairs, n2 = s2->npairs;
    uint32_t *rr = malloc(((size_t)n + 1) * sizeof *rr);
    uint32_t *cr = malloc(((size_t)n2 + 1) * sizeof *cr);
    uint32_t *anc = malloc(((size_t)n + 1) * sizeof *anc);   /* per true request (real root) */
    uint32_t *own = malloc(((size_t)n2 + 1) * sizeof *own);  /* per copy group (copy root) */
    if (!rr || !cr || !anc || !own) {
        free(rr);
        free(cr);
        free(anc);
        free(own);
        return PB_ENOMEM;
    }
    for (uint32_t i = 0; i < n; i++)
        rr[i] = anc[i] = JOINT_NONE;
    for (uint32_t p = 0; p < n2; p++)
        cr[p] = own[p] = JOINT_NONE;
    /* each true request's anchor: its root pair where the root's call is
     * in the copy, else its pair with the earliest present message */
    for (uint32_t p = 0; p < n2; p++) {
        uint32_t i = real_of[p];
        if (i == JOINT_NONE)
            continue;
        uint32_t t = root_of(s, i, rr), a = anc[t];
        int root_whole = i == t && s2->pr[p].call != JOINT_NONE;
        if (a == JOINT_NONE || root_whole ||
            (!(real_of[a] == t && s2->pr[a].call != JOINT_NONE) &&
             first_stamp(s2, p) < first_stamp(s2, a)))
            anc[t] = p;
    }
    /* each copy group's owner: the true request with the earliest anchor
     * in it */
    for (uint32_t t = 0; t < n; t++) {
        uint32_t a = anc[t];
        if (a == JOINT_NONE)
            continue;
        uint32_t g = root_of(s2, a, cr), o = own[g];
        if (o == JOINT_NONE || first_stamp(s2, a) < first_stamp(s2, anc[o]))
            own[g] = t;
    }
    size_t k = 0;
    for (uint32_t p = 0; p < n2; p++) {
        uint32_t i = real_of[p];
        if (i == JOINT_NONE || (!ok2[p] && !owner_only) || !has_id(s2, p))
            continue;
        unsigned char o = own[root_of(s2, p, cr)] == root_of(s, i, rr);
        k += o != ok2[p];
        ok2[p] = o;
    }
    *turned += k;
    free(rr);
    free(cr);
    free(anc);
    free(own);
    return PB_OK;
}

int joint_anchor_trees(const joint *s, unsigned char *ex, size_t *turned)
{
    uint32_t n = s->npairs;
    if (!s->p.conf_sim_loss_ids || !s->p.conf_anchor)
        return PB_OK;
    /* only where a request lost its root call: elsewhere every anchor is
     * a root, which heads its own tree */
    int lost_root = 0;
    for (uint32_t p = 0; p < n && !lost_root; p++)
        lost_root = s->par[p] == JOINT_NONE && s->pr[p].call == JOINT_NONE && has_id(s, p);
    if (!lost_root)
        return PB_OK;
    uint32_t *r = malloc(((size_t)n + 1) * sizeof *r);
    if (!r)
        return PB_ENOMEM;
    for (uint32_t p = 0; p < n; p++)
        r[p] = JOINT_NONE;
    size_t k = 0;
    for (uint32_t p = 0; p < n; p++) {
        if (ex[p])
            continue;
        uint32_t t = root_of(s, p, r);
        if (t != p && ex[t] && has_id(s, t)) {
            ex[t] = 0;
            k++;
        }
    }
    *turned += k;
    free(r);
    return PB_OK;
}
