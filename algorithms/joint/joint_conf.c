/*
 * joint_conf.c - joint: how sure the solution is of each call's request
 * (docs/joint.md, "Confidence").  A call's share is its chosen request's
 * posterior among its candidates with every other call where the search
 * left it: for each other candidate q', the likelier of moving the call
 * there and of exchanging it with a call of q' to the same endpoint that
 * could be q0's (the counts stay) changes the log-likelihood of the two
 * requests by d(q'), and the share is 1 / (1 + sum exp d(q')).  A pair's confidence is the product of the
 * shares from its root down to it (the row is right only when every call
 * on the way up is).  Without call ids a pair's share is also multiplied
 * by how sure the pairing of its call and return is (joint_pair_shares:
 * the exchanges of its return with an overlapping call's, upwards).
 */
#include "joint_int.h"
#include <math.h>
#include <stdlib.h>

#define NONE JOINT_NONE

static int in_cands(const joint *s, uint32_t p, uint32_t q)
{
    for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++)
        if (s->cand[j] == q)
            return 1;
    return 0;
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
        if (!placed && (s->pr[in].cs < s->pr[k[i]].cs ||
                        (s->pr[in].cs == s->pr[k[i]].cs && in < k[i]))) {
            o[m++] = in;
            placed = 1;
        }
        o[m++] = k[i];
    }
    if (!placed)
        o[m++] = in;
    return m;
}

int joint_confidence(joint *s, double *conf)
{
    uint32_t n = s->npairs, maxk = 1;
    for (uint32_t q = 0; q < n; q++)
        if (s->kids[q].n + 1 > maxk)
            maxk = s->kids[q].n + 1;
    uint32_t *buf = malloc((size_t)maxk * 4 * sizeof *buf);
    double *share = malloc(((size_t)n + 1) * sizeof *share);
    uint32_t *stack = malloc(((size_t)n + 1) * sizeof *stack);
    unsigned char *done = calloc((size_t)n + 1, 1);
    double *rll = malloc(((size_t)n + 1) * sizeof *rll); /* each request's own */
    int rc = buf && share && stack && done && rll ? PB_OK : PB_ENOMEM;
    for (uint32_t q = 0; rc == PB_OK && q < n; q++)
        rc = joint_req_walk(s, q, s->kids[q].a, s->kids[q].n, 0, &rll[q]);
    uint32_t *without = buf, *with = buf + maxk, *x0 = buf + 2 * (size_t)maxk,
             *x1 = buf + 3 * (size_t)maxk;
    for (uint32_t p = 0; rc == PB_OK && p < n; p++) {
        uint32_t q0 = s->par[p];
        share[p] = 1.0;
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
        double sum = 1.0;
        for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1] && rc == PB_OK; j++) {
            uint32_t q = s->cand[j];
            if (q == q0)
                continue;
            /* q with p, by call time */
            const kvec *k = &s->kids[q];
            uint32_t m = 0, i = 0;
            for (; i < k->n && (s->pr[k->a[i]].cs < s->pr[p].cs ||
                                (s->pr[k->a[i]].cs == s->pr[p].cs && k->a[i] < p));
                 i++)
                with[m++] = k->a[i];
            with[m++] = p;
            for (; i < k->n; i++)
                with[m++] = k->a[i];
            double l1 = rll[q], l1w = 0;
            if ((rc = joint_req_walk(s, q, with, m, 0, &l1w)) != PB_OK)
                break;
            double d = (l0w + l1w) - (l0 + l1);
            /* exchanges: p to q, a call r of q on p's endpoint to q0 */
            for (uint32_t t = 0; t < k->n && rc == PB_OK; t++) {
                uint32_t r = k->a[t];
                if (s->pr[r].link != s->pr[p].link || !in_cands(s, r, q0))
                    continue;
                uint32_t a = swap_list(s, k0->a, k0->n, p, r, x0);
                uint32_t b = swap_list(s, k->a, k->n, r, p, x1);
                double la = 0, lb = 0;
                if ((rc = joint_req_walk(s, q0, x0, a, 0, &la)) != PB_OK ||
                    (rc = joint_req_walk(s, q, x1, b, 0, &lb)) != PB_OK)
                    break;
                if (la + lb - (l0 + l1) > d)
                    d = la + lb - (l0 + l1);
            }
            sum += d > 700 ? INFINITY : exp(d);
        }
        share[p] = 1.0 / sum;
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
    free(done);
    return rc;
}
