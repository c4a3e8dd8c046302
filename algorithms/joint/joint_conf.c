/*
 * joint_conf.c - joint: how sure the solution is of each call's request
 * (docs/joint.md, "Links and confidence").
 *
 * A call's share is its chosen request's posterior under the model among
 * the current solution and its neighbours in which the call is elsewhere,
 * every other call where the search left it: for each other candidate q'
 * of call p (now in q0),
 *   - the move of p to q';
 *   - each exchange of p with a call r of q' to the same endpoint that
 *     could be q0's;
 *   - the move of p's chain to q' (p and the calls of q0 its return
 *     triggered, and the calls their returns triggered, ...: two requests
 *     of one kind whose chains of calls crossed at p);
 *   - each exchange of p's chain with r's chain in q'.
 * Each changes the log-likelihood of q0 and q' by some d, and the share is
 * 1 / (1 + sum exp d) over all of them (a chain of one call is the move or
 * the exchange already counted, and is not counted twice).
 *
 * A call the search left without a parent although its caller serves
 * requests (an orphan: no request of the caller contained it) is a root
 * only if its link starts requests of its own; its share is the rule of
 * succession over its link, (orphans + 1) / (calls + 2).
 *
 * A pair's confidence is the product of the shares from its root down to
 * it (the row is right only when every call on the way up is).  Without
 * call ids a pair's share is also multiplied by how sure the pairing of
 * its call and return is (joint_pair_shares: the exchanges of its return
 * with an overlapping call's, upwards).
 */
#include "joint_int.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE

static int in_cands(const joint *s, uint32_t p, uint32_t q)
{
    for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++)
        if (s->cand[j] == q)
            return 1;
    return 0;
}

/* is call x before call y (call time, then pair number)? */
static int before(const joint *s, uint32_t x, uint32_t y)
{
    return s->pr[x].cs < s->pr[y].cs || (s->pr[x].cs == s->pr[y].cs && x < y);
}

/* the calls k[0..n) (by call time) with `out` replaced by `in`, by call
 * time, into o; returns how many */
static uint32_t swap_list(const joint *s, const uint32_t *k, uint32_t n, uint32_t out,
                          uint32_t in, uint32_t *o)
{
    uint32_t m = 0, placed = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (k[i] == out)
            continue;
        if (!placed && before(s, in, k[i])) {
            o[m++] = in;
            placed = 1;
        }
        o[m++] = k[i];
    }
    if (!placed)
        o[m++] = in;
    return m;
}

/* o = (k[0..n) without the calls marked `drop`) merged with add[0..na),
 * both by call time; returns the length */
static uint32_t merge_list(const joint *s, const uint32_t *k, uint32_t n,
                           const uint32_t *mark, uint32_t drop, const uint32_t *add,
                           uint32_t na, uint32_t *o)
{
    uint32_t m = 0, i = 0, j = 0;
    while (i < n || j < na) {
        if (i < n && mark[k[i]] == drop) {
            i++;
            continue;
        }
        if (j >= na || (i < n && before(s, k[i], add[j])))
            o[m++] = k[i++];
        else
            o[m++] = add[j++];
    }
    return m;
}

/* The trigger of every call in its request as the model scores it
 * (joint_req_walk): the latest return of another call of the request
 * received before it was sent, not of a learned parallel sibling, and not
 * before the request's arrival; NONE: the arrival.  trig[c] for every
 * call c with a parent.  tmp: room for the largest request's calls. */
static void find_triggers(joint *s, uint32_t *trig, uint32_t *tmp)
{
    for (uint32_t c = 0; c < s->npairs; c++)
        trig[c] = NONE;
    for (uint32_t q = 0; q < s->npairs; q++) {
        const kvec *k = &s->kids[q];
        if (!k->n)
            continue;
        /* returns by (receive time, pair number) */
        uint32_t nr = 0;
        for (uint32_t i = 0; i < k->n; i++) {
            uint32_t x = k->a[i];
            if (s->pr[x].ret == NONE)
                continue;
            uint32_t j = nr++;
            while (j > 0 && (s->pr[tmp[j - 1]].rr > s->pr[x].rr ||
                             (s->pr[tmp[j - 1]].rr == s->pr[x].rr && tmp[j - 1] > x))) {
                tmp[j] = tmp[j - 1];
                j--;
            }
            tmp[j] = x;
        }
        const jpair *qq = &s->pr[q];
        pb_ns arr = qq->call == NONE ? INT64_MIN : qq->cr;
        uint32_t rp = 0;
        for (uint32_t i = 0; i < k->n; i++) {
            uint32_t c = k->a[i];
            if (s->pr[c].call == NONE)
                continue;
            pb_ns t = s->pr[c].cs;
            while (rp < nr && s->pr[tmp[rp]].rr <= t)
                rp++;
            uint32_t tg = NONE;
            for (uint32_t j = rp; j-- > 0;)
                if (tmp[j] != c && !joint_par_skip(s, qq->link, s->pr[tmp[j]].link,
                                                   s->pr[c].link)) {
                    tg = tmp[j];
                    break;
                }
            if (tg != NONE && s->pr[tg].rr < arr)
                tg = NONE;
            trig[c] = tg;
        }
    }
}

/* p's chain in its request (calls k[0..n) by call time): p, and every
 * later call whose trigger is in the chain; into o (by call time), marked
 * mark[c] = stamp; returns its length */
static uint32_t chain_of(const joint *s, const uint32_t *k, uint32_t n, uint32_t p,
                         const uint32_t *trig, uint32_t *mark, uint32_t stamp, uint32_t *o)
{
    uint32_t m = 0, i = 0;
    while (i < n && k[i] != p)
        i++;
    if (i == n)
        return 0;
    o[m++] = p;
    mark[p] = stamp;
    for (i++; i < n; i++) {
        uint32_t c = k[i];
        if (trig[c] != NONE && mark[trig[c]] == stamp) {
            o[m++] = c;
            mark[c] = stamp;
        }
    }
    return m;
}

/* may every call of a[0..n) belong to request q? */
static int all_in_cands(const joint *s, const uint32_t *a, uint32_t n, uint32_t q)
{
    for (uint32_t i = 0; i < n; i++)
        if (!in_cands(s, a[i], q))
            return 0;
    return 1;
}

static double add_exp(double sum, double d)
{
    return sum + (d > 700 ? INFINITY : exp(d));
}

/* orphans: a call without a parent whose caller serves requests; its
 * share is (orphans of its link + 1) / (calls of its link + 2) */
static int orphan_shares(const joint *s, double *share)
{
    unsigned char *serves = calloc((size_t)s->nnodes + 1, 1);
    double *nl = calloc(2 * ((size_t)s->nlinks + 1), sizeof *nl);
    if (!serves || !nl) {
        free(serves);
        free(nl);
        return PB_ENOMEM;
    }
    for (uint32_t l = 0; l < s->nlinks; l++)
        serves[s->link_dst[l]] = 1;
    for (uint32_t p = 0; p < s->npairs; p++) {
        uint32_t l = s->pr[p].link;
        nl[2 * l]++;
        nl[2 * l + 1] += s->par[p] == NONE;
    }
    for (uint32_t p = 0; p < s->npairs; p++) {
        uint32_t l = s->pr[p].link;
        if (s->par[p] == NONE && serves[s->pr[p].caller])
            share[p] = (nl[2 * l + 1] + 1) / (nl[2 * l] + 2);
    }
    free(serves);
    free(nl);
    return PB_OK;
}

int joint_confidence(joint *s, double *conf)
{
    uint32_t n = s->npairs, maxk = 1;
    for (uint32_t q = 0; q < n; q++)
        if (s->kids[q].n + 1 > maxk)
            maxk = s->kids[q].n + 1;
    /* without, with: one request's list; x0, x1: two requests' lists after
     * an exchange of chains (up to both); c0, c1: two chains */
    uint32_t *buf = malloc((size_t)maxk * 8 * sizeof *buf);
    double *share = malloc(((size_t)n + 1) * sizeof *share);
    uint32_t *stack = malloc(((size_t)n + 1) * sizeof *stack);
    uint32_t *trig = malloc(((size_t)n + 1) * sizeof *trig);
    uint32_t *mark = calloc((size_t)n + 1, sizeof *mark);
    unsigned char *done = calloc((size_t)n + 1, 1);
    double *rll = malloc(((size_t)n + 1) * sizeof *rll); /* each request's own */
    double *chainw = calloc((size_t)n + 1, sizeof *chainw);
    int rc = buf && share && stack && trig && mark && done && rll && chainw ? PB_OK
                                                                            : PB_ENOMEM;
    uint32_t *without = buf, *with = buf + maxk, *x0 = buf + 2 * (size_t)maxk,
             *x1 = buf + 4 * (size_t)maxk, *c0 = buf + 6 * (size_t)maxk,
             *c1 = buf + 7 * (size_t)maxk;
    uint32_t stamp = 0;
    if (rc == PB_OK)
        find_triggers(s, trig, x0);
    for (uint32_t q = 0; rc == PB_OK && q < n; q++)
        rc = joint_req_walk(s, q, s->kids[q].a, s->kids[q].n, 0, &rll[q]);
    for (uint32_t p = 0; rc == PB_OK && p < n; p++) {
        uint32_t q0 = s->par[p];
        share[p] = 0;
        if (q0 == NONE || s->cand_off[p + 1] - s->cand_off[p] < 2)
            continue;
        /* q0 without p */
        const kvec *k0 = &s->kids[q0];
        uint32_t nw = 0;
        for (uint32_t i = 0; i < k0->n; i++)
            if (k0->a[i] != p)
                without[nw++] = k0->a[i];
        double l0 = rll[q0], l0w = 0;
        if ((rc = joint_req_walk(s, q0, without, nw, 0, &l0w)) != PB_OK)
            break;
        /* p's chain in q0, and q0 without it */
        uint32_t sp = ++stamp;
        uint32_t n0 = chain_of(s, k0->a, k0->n, p, trig, mark, sp, c0);
        double l0c = l0w;
        if (n0 > 1) {
            uint32_t a = merge_list(s, k0->a, k0->n, mark, sp, NULL, 0, x0);
            if ((rc = joint_req_walk(s, q0, x0, a, 0, &l0c)) != PB_OK)
                break;
        }
        double sum = 1.0; /* the current state, then each alternative */
        double csum = 0;  /* the alternatives that move p's chain (p's and its
                             chain's share) */
        for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1] && rc == PB_OK; j++) {
            uint32_t q = s->cand[j];
            if (q == q0)
                continue;
            const kvec *k = &s->kids[q];
            double l1 = rll[q], l1w = 0, la = 0, lb = 0;
            /* the move: q with p, by call time */
            uint32_t m = merge_list(s, k->a, k->n, mark, sp, &p, 1, with);
            if ((rc = joint_req_walk(s, q, with, m, 0, &l1w)) != PB_OK)
                break;
            sum = add_exp(sum, (l0w + l1w) - (l0 + l1));
            /* the move of p's chain */
            if (n0 > 1 && all_in_cands(s, c0 + 1, n0 - 1, q)) {
                m = merge_list(s, k->a, k->n, mark, sp, c0, n0, with);
                if ((rc = joint_req_walk(s, q, with, m, 0, &lb)) != PB_OK)
                    break;
                csum = add_exp(csum, (l0c + lb) - (l0 + l1));
            }
            /* exchanges: p (or its chain) to q, a call r of q on p's
             * endpoint (or its chain) to q0 */
            for (uint32_t t = 0; t < k->n && rc == PB_OK; t++) {
                uint32_t r = k->a[t];
                if (s->pr[r].link != s->pr[p].link || !in_cands(s, r, q0))
                    continue;
                uint32_t a = swap_list(s, k0->a, k0->n, p, r, x0);
                uint32_t b = swap_list(s, k->a, k->n, r, p, x1);
                if ((rc = joint_req_walk(s, q0, x0, a, 0, &la)) != PB_OK ||
                    (rc = joint_req_walk(s, q, x1, b, 0, &lb)) != PB_OK)
                    break;
                sum = add_exp(sum, la + lb - (l0 + l1));
                uint32_t sr = ++stamp;
                uint32_t n1 = chain_of(s, k->a, k->n, r, trig, mark, sr, c1);
                if ((n0 == 1 && n1 == 1) || !all_in_cands(s, c0 + 1, n0 - 1, q) ||
                    !all_in_cands(s, c1 + 1, n1 - 1, q0))
                    continue;
                a = merge_list(s, k0->a, k0->n, mark, sp, c1, n1, x0);
                b = merge_list(s, k->a, k->n, mark, sr, c0, n0, x1);
                if ((rc = joint_req_walk(s, q0, x0, a, 0, &la)) != PB_OK ||
                    (rc = joint_req_walk(s, q, x1, b, 0, &lb)) != PB_OK)
                    break;
                csum = add_exp(csum, la + lb - (l0 + l1));
            }
        }
        share[p] = sum - 1.0; /* the single alternatives, for now */
        chainw[p] = csum;
    }
    /* every call a chain moves leaves with it: a call's alternatives are
     * its own and the chain alternatives of each call on its way up the
     * triggers (chainw summed down the trigger tree, each walked once) */
    for (uint32_t p = 0; rc == PB_OK && p < n; p++) {
        uint32_t m = 0, j = p;
        while (j != NONE && !done[j]) {
            stack[m++] = j;
            done[j] = 1;
            j = trig[j];
        }
        double up = j == NONE ? 0.0 : chainw[j];
        while (m) {
            j = stack[--m];
            chainw[j] = up = up + chainw[j];
        }
    }
    for (uint32_t p = 0; rc == PB_OK && p < n; p++)
        share[p] = s->par[p] == NONE ? 1.0 : 1.0 / (1.0 + share[p] + chainw[p]);
    if (rc == PB_OK) {
        memset(done, 0, (size_t)n + 1);
        rc = orphan_shares(s, share);
    }
    /* without call ids, how sure the pairing of its call and return is */
    double *ps = rc == PB_OK ? malloc(((size_t)n + 1) * sizeof *ps) : NULL;
    if (rc == PB_OK && !ps)
        rc = PB_ENOMEM;
    if (rc == PB_OK)
        rc = joint_pair_shares(s, ps);
    for (uint32_t p = 0; rc == PB_OK && p < n; p++)
        share[p] *= ps[p];
    free(ps);
    /* the product from the root down, each chain walked once */
    for (uint32_t q = 0; rc == PB_OK && q < n; q++) {
        uint32_t m = 0, j = q;
        while (j != NONE && !done[j]) {
            stack[m++] = j;
            done[j] = 1; /* a cycle (cut later by the output) stops here */
            j = s->par[j];
        }
        double up = j == NONE ? 1.0 : conf[j];
        while (m) {
            j = stack[--m];
            conf[j] = up = up * share[j];
        }
    }
    free(buf);
    free(rll);
    free(share);
    free(stack);
    free(trig);
    free(chainw);
    free(mark);
    free(done);
    return rc;
}
