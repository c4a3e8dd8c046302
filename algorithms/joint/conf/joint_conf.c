/*
 * joint_conf.c - joint: how sure the solution is of each call's request
 * (docs/joint/confidence.md, "Links and confidence").
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
 * Without call ids a pair's share is also multiplied by how sure the
 * pairing of its call and return is (joint_pair_shares: the exchanges of
 * its return with an overlapping call's, upwards).  The confidence of a
 * pair (the product of the shares from its root down, after the
 * allowances for model error) is joint_calib.c's.
 */
#include "joint_int.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE

/* is call x before call y (call time, then pair number)? */
static int before(const joint *s, uint32_t x, uint32_t y)
{
    return s->pr[x].cs < s->pr[y].cs || (s->pr[x].cs == s->pr[y].cs && x < y);
}

/* o = k[0..n) (by call time) without `out` (JOINT_NONE: none) and with
 * `in` (JOINT_NONE: none), by call time; returns the length (joint_rules.h;
 * the confidence's swaps and conf_series' shifted runs share it) */
uint32_t joint_conf_edit_list(const joint *s, const uint32_t *k, uint32_t n, uint32_t out,
                              uint32_t in, uint32_t *o)
{
    uint32_t m = 0;
    int placed = in == NONE;
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
 * call c with a parent.  trig2[c]: the return before that one when it
 * explains the call's delay about as well (its log density at most
 * JOINT_CONF_TIE nats below the trigger's: two returns a few microseconds
 * apart), else NONE.  tmp: room for the largest request's calls. */
#define JOINT_CONF_TIE 3.0
void joint_conf_triggers(joint *s, uint32_t *trig, uint32_t *trig2, uint32_t *tmp)
{
    for (uint32_t c = 0; c < s->npairs; c++)
        trig[c] = trig2[c] = NONE;
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
            uint32_t tg = NONE, t2 = NONE;
            for (uint32_t j = rp; j-- > 0;)
                if (tmp[j] != c && !joint_par_skip(s, qq->link, s->pr[tmp[j]].link,
                                                   s->pr[c].link)) {
                    if (tg == NONE) {
                        tg = tmp[j];
                    } else {
                        t2 = tmp[j];
                        break;
                    }
                }
            if (tg != NONE && s->pr[tg].rr < arr)
                tg = t2 = NONE;
            if (t2 != NONE && s->pr[t2].rr < arr)
                t2 = NONE;
            if (t2 != NONE) {
                uint32_t ol = s->pr[c].link;
                double f1 = logf_of(s, joint_key_get(s, qq->link, 1 + s->pr[tg].link, ol),
                                    t - s->pr[tg].rr);
                double f2 = logf_of(s, joint_key_get(s, qq->link, 1 + s->pr[t2].link, ol),
                                    t - s->pr[t2].rr);
                if (f2 < f1 - JOINT_CONF_TIE)
                    t2 = NONE;
            }
            trig[c] = tg;
            trig2[c] = t2;
        }
    }
}

/* p's chain in its request (calls k[0..n) by call time): p, and every
 * later call whose trigger (or, with trig2, its near-tied runner-up) is in
 * the chain; into o (by call time), marked mark[c] = stamp; returns its
 * length */
static uint32_t chain_of(const joint *s, const uint32_t *k, uint32_t n, uint32_t p,
                         const uint32_t *trig, const uint32_t *trig2, uint32_t *mark,
                         uint32_t stamp, uint32_t *o)
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
        if ((trig[c] != NONE && mark[trig[c]] == stamp) ||
            (trig2 && trig2[c] != NONE && mark[trig2[c]] == stamp)) {
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
        if (!joint_has_cand(s, a[i], q))
            return 0;
    return 1;
}

/* The log-likelihood of two requests after an exchange, kept for the
 * other call of the exchange (speed only): the exchange of p in q0 with r
 * in q, seen from r, is the same two lists, so the same two walks and the
 * same sum.  Stored by the call processed first, found by the other. */
typedef struct xcache {
    hmap map;
    double *v;
    size_t n, cap;
    int on;                 /* pair numbers fit the key */
} xcache;

static uint64_t xkey(int variant, uint32_t a, uint32_t b)
{
    uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
    return ((uint64_t)variant << 62) | ((uint64_t)lo << 31) | hi;
}

/* the sum of exchange `variant` of p and r, if r computed it (r < p) */
static int xc_get(const xcache *c, int variant, uint32_t p, uint32_t r, double *v)
{
    if (!c->on || r > p)
        return 0;
    uint32_t i = joint_hmap_get(&c->map, xkey(variant, p, r));
    if (i == NONE)
        return 0;
    *v = c->v[i];
    return 1;
}

/* keep it for r when r comes later; PB_OK or PB_ENOMEM */
static int xc_put(xcache *c, int variant, uint32_t p, uint32_t r, double v)
{
    if (!c->on || r < p)
        return PB_OK;
    if (c->n == c->cap) {
        size_t nc = c->cap ? 2 * c->cap : 1024;
        double *a = realloc(c->v, nc * sizeof *a);
        if (!a)
            return PB_ENOMEM;
        c->v = a;
        c->cap = nc;
    }
    c->v[c->n] = v;
    return joint_hmap_put(&c->map, xkey(variant, p, r), (uint32_t)c->n++);
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

/* The walks of the alternatives (speed only): each alternative changes a
 * request's list in a few calls, so for a request of JOINT_RESUME_MIN
 * calls or more its own walk is recorded once and every alternative's
 * walk resumes from the record (joint_req_walk_resume: the very same
 * number; the model does not change while the shares are computed).
 * With conf_sync (speed only, the same results; docs/joint/speed_middle.md "Speed,
 * twelfth wave") the record also keeps each step's term, for every
 * request of JOINT_CONF_SYNC_MIN calls or more, and an alternative's walk
 * goes by joint_req_walk_synced: resumed as before, stopped at the first
 * step from which the record's steps are provably the same terms, and
 * those added one by one (the very same number, and nothing recorded).
 * idx[q]: q's record in rec, or NONE. */
#define JOINT_CONF_SYNC_MIN 4 /* instructions of the shares on OnlineBoutique 07:11 and
                                  hotel load 100 as black boxes: least from 2-4 calls on
                                  07:11 (644 M; 650 M from 8), from 4-8 on hotel (111 M;
                                  118 M from 2) */
typedef struct cwalk {
    uint32_t *idx;
    joint_wrec *rec, tmp;
    uint32_t nrec;
    int sync;               /* conf_sync */
} cwalk;

/* request q's log-likelihood with kids k[0..n), as joint_req_walk mode 0 */
static int cwalk_ll(joint *s, cwalk *w, uint32_t q, const uint32_t *k, uint32_t n, double *ll)
{
    if (w->idx && w->idx[q] != NONE) {
        int hit = 0;
        if (w->sync) {
            int rc = joint_req_walk_synced(s, q, k, n, &w->rec[w->idx[q]], ll, &hit);
            s->csync_walks++;
            s->csync_hits += hit != 0;
            return rc;
        }
        return joint_req_walk_resume(s, q, k, n, &w->rec[w->idx[q]], &w->tmp, ll);
    }
    return joint_req_walk(s, q, k, n, 0, ll);
}

/* every request's own log-likelihood into rll, recording the long ones'
 * walks; PB_OK or PB_ENOMEM */
static int cwalk_init(joint *s, cwalk *w, double *rll)
{
    uint32_t n = s->npairs;
    memset(w, 0, sizeof *w);
    w->sync = s->p.conf_sync;
    const uint32_t min = w->sync ? JOINT_CONF_SYNC_MIN : JOINT_RESUME_MIN;
    /* with conf_sync only the requests an alternative walks are recorded:
     * the request of a call with several candidates, and each candidate
     * (the others' own walks are plain: the same number) */
    unsigned char *touch = NULL;
    if (w->sync) {
        touch = calloc((size_t)n + 1, 1);
        if (!touch)
            return PB_ENOMEM;
        for (uint32_t p = 0; p < n; p++) {
            if (s->par[p] == NONE || s->cand_off[p + 1] - s->cand_off[p] < 2)
                continue;
            touch[s->par[p]] = 1;
            for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++)
                touch[s->cand[j]] = 1;
        }
    }
#define CWALK_REC(q) (s->kids[q].n >= min && (!touch || touch[q]))
    for (uint32_t q = 0; q < n; q++)
        w->nrec += CWALK_REC(q);
    if (w->nrec) {
        w->idx = malloc(((size_t)n + 1) * sizeof *w->idx);
        w->rec = calloc(w->nrec, sizeof *w->rec);
        if (!w->idx || !w->rec) {
            free(touch);
            return PB_ENOMEM;
        }
    }
    uint32_t m = 0;
    int rc = PB_OK;
    for (uint32_t q = 0; q < n && rc == PB_OK; q++) {
        const kvec *k = &s->kids[q];
        if (CWALK_REC(q)) {
            w->idx[q] = m;
            w->rec[m].want_term = w->sync;
            rc = joint_req_walk_resume(s, q, k->a, k->n, NULL, &w->rec[m++], &rll[q]);
        } else {
            if (w->idx)
                w->idx[q] = NONE;
            rc = joint_req_walk(s, q, k->a, k->n, 0, &rll[q]);
        }
    }
#undef CWALK_REC
    free(touch);
    return rc;
}

/* NULL-safe on a zeroed or part-filled context */
static void cwalk_free(cwalk *w)
{
    for (uint32_t i = 0; w->rec && i < w->nrec; i++)
        joint_wrec_free(&w->rec[i]);
    joint_wrec_free(&w->tmp);
    free(w->rec);
    free(w->idx);
    memset(w, 0, sizeof *w);
}

/* The alternatives that move p's chain c0[0..n0) (marked sp in mark; l0c:
 * the log-likelihood of q0 without it) to q: the move, and the exchange
 * with the chain of each call r of q to p's endpoint that could be q0's
 * (chains of one call each are the exchange, counted already).  Adds
 * exp(d) of each to *csum.  tw: the runner-up triggers for wide chains,
 * or NULL.  Returns PB_OK or PB_ENOMEM. */
static int chain_alts(joint *s, uint32_t p, uint32_t q0, uint32_t q, const uint32_t *c0,
                      uint32_t n0, uint32_t sp, double l0c, double l00, double l1,
                      const uint32_t *trig, const uint32_t *tw, uint32_t *mark,
                      uint32_t *stamp, uint32_t *with, uint32_t *x0, uint32_t *x1,
                      uint32_t *c1, double *csum, xcache *xc, cwalk *w)
{
    int variant = tw ? 2 : 1;
    const kvec *k0 = &s->kids[q0], *k = &s->kids[q];
    int rc = PB_OK;
    double la = 0, lb = 0;
    int c0_fits = all_in_cands(s, c0 + 1, n0 - 1, q);
    if (n0 > 1 && c0_fits) {
        uint32_t m = merge_list(s, k->a, k->n, mark, sp, c0, n0, with);
        if ((rc = cwalk_ll(s, w, q, with, m, &lb)) != PB_OK)
            return rc;
        *csum = add_exp(*csum, (l0c + lb) - (l00 + l1));
    }
    if (!c0_fits)
        return PB_OK;
    for (uint32_t t = 0; t < k->n; t++) {
        uint32_t r = k->a[t];
        if (s->pr[r].link != s->pr[p].link || !joint_has_cand(s, r, q0))
            continue;
        uint32_t sr = ++*stamp;
        uint32_t n1 = chain_of(s, k->a, k->n, r, trig, tw, mark, sr, c1);
        if ((n0 == 1 && n1 == 1) || !all_in_cands(s, c1 + 1, n1 - 1, q0))
            continue;
        double v;
        if (!xc_get(xc, variant, p, r, &v)) {
            uint32_t a = merge_list(s, k0->a, k0->n, mark, sp, c1, n1, x0);
            uint32_t b = merge_list(s, k->a, k->n, mark, sr, c0, n0, x1);
            if ((rc = cwalk_ll(s, w, q0, x0, a, &la)) != PB_OK ||
                (rc = cwalk_ll(s, w, q, x1, b, &lb)) != PB_OK)
                return rc;
            v = la + lb;
            if ((rc = xc_put(xc, variant, p, r, v)) != PB_OK)
                return rc;
        }
        *csum = add_exp(*csum, v - (l00 + l1));
    }
    return PB_OK;
}

/* conf_series (joint_cfseries.c) walks requests as the alternatives here do */
static int cfs_walk(joint *s, void *ctx, uint32_t q, const uint32_t *k, uint32_t n, double *ll)
{
    return cwalk_ll(s, ctx, q, k, n, ll);
}

int joint_conf_test_wide_wrong = 0;

/* the chain of p in q0 (trig2: wide, or NULL) into c0, marked with a new
 * stamp (*sp), and the log-likelihood of q0 without it (*l0c; l0w when
 * the chain is p alone, or when it holds no more than `upto` calls: its
 * caller scores no alternative of it then, conf_wide_skip) */
static int chain_setup(joint *s, uint32_t p, uint32_t q0, const uint32_t *trig,
                       const uint32_t *trig2, uint32_t *mark, uint32_t *stamp, uint32_t *sp,
                       uint32_t *c0, uint32_t *n0, uint32_t upto, double l0w, double *l0c,
                       uint32_t *x0, cwalk *w)
{
    const kvec *k0 = &s->kids[q0];
    *sp = ++*stamp;
    *n0 = chain_of(s, k0->a, k0->n, p, trig, trig2, mark, *sp, c0);
    *l0c = l0w;
    if (*n0 > 1 && *n0 > upto) {
        uint32_t a = merge_list(s, k0->a, k0->n, mark, *sp, NULL, 0, x0);
        return cwalk_ll(s, w, q0, x0, a, l0c);
    }
    return PB_OK;
}

/* chainw summed, for every call, over the calls on its ways up the
 * triggers and near-tied runner-up triggers (each ancestor once), within
 * each request; requests of more than JOINT_CONF_DAG calls follow the
 * triggers alone (a tree, walked once) */
#define JOINT_CONF_DAG 4096
static int sum_down(joint *s, const uint32_t *trig, const uint32_t *trig2, double *chainw)
{
    uint32_t n = s->npairs, maxk = 1;
    for (uint32_t q = 0; q < n; q++)
        if (s->kids[q].n > maxk && s->kids[q].n <= JOINT_CONF_DAG)
            maxk = s->kids[q].n;
    size_t W = ((size_t)maxk + 63) / 64;
    uint64_t *anc = malloc((size_t)maxk * W * sizeof *anc);
    uint32_t *pos = calloc((size_t)n + 1, sizeof *pos);
    double *acc = malloc(((size_t)maxk + 1) * sizeof *acc);
    if (!anc || !pos || !acc) {
        free(anc);
        free(pos);
        free(acc);
        return PB_ENOMEM;
    }
    for (uint32_t q = 0; q < n; q++) {
        const kvec *k = &s->kids[q];
        if (!k->n)
            continue;
        if (k->n > JOINT_CONF_DAG) {
            /* by call time a trigger comes before its call */
            for (uint32_t i = 0; i < k->n; i++) {
                uint32_t c = k->a[i];
                if (trig[c] != NONE)
                    chainw[c] += chainw[trig[c]];
            }
            continue;
        }
        size_t w = ((size_t)k->n + 63) / 64;
        for (uint32_t i = 0; i < k->n; i++)
            pos[k->a[i]] = i;
        for (uint32_t i = 0; i < k->n; i++) {
            uint32_t c = k->a[i];
            uint64_t *a = anc + (size_t)i * w;
            memset(a, 0, w * sizeof *a);
            a[i / 64] |= 1ull << (i % 64);
            uint32_t t2[2] = {trig[c], trig2[c]};
            for (int z = 0; z < 2; z++)
                if (t2[z] != NONE && s->par[t2[z]] == q) {
                    /* only a trigger listed before its call has its row
                     * filled; pairs made first in, first out across a lost
                     * message can have a return before their call, and so
                     * a "trigger" called after the call it triggers: no
                     * edge then */
                    uint32_t pz = pos[t2[z]];
                    if (pz >= i || k->a[pz] != t2[z])
                        continue;
                    const uint64_t *b = anc + (size_t)pz * w;
                    for (size_t j = 0; j < w; j++)
                        a[j] |= b[j];
                }
            double v = 0;
            for (size_t j = 0; j < w; j++)
                for (uint64_t x = a[j]; x; x &= x - 1)
                    v += chainw[k->a[j * 64 + (size_t)__builtin_ctzll(x)]];
            acc[i] = v;
        }
        for (uint32_t i = 0; i < k->n; i++)
            chainw[k->a[i]] = acc[i];
    }
    free(anc);
    free(pos);
    free(acc);
    return PB_OK;
}

int joint_call_shares(joint *s, double *share)
{
    uint32_t n = s->npairs, maxk = 1;
    for (uint32_t q = 0; q < n; q++)
        if (s->kids[q].n + 1 > maxk)
            maxk = s->kids[q].n + 1;
    /* without, with: one request's list; x0, x1: two requests' lists after
     * an exchange of chains (up to both); c0, c1: two chains */
    uint32_t *buf = malloc((size_t)maxk * 8 * sizeof *buf);
    uint32_t *trig = malloc(((size_t)n + 1) * sizeof *trig);
    uint32_t *trig2 = malloc(((size_t)n + 1) * sizeof *trig2);
    uint32_t *mark = calloc((size_t)n + 1, sizeof *mark);
    double *rll = malloc(((size_t)n + 1) * sizeof *rll); /* each request's own */
    double *chainw = calloc((size_t)n + 1, sizeof *chainw);
    int rc = buf && trig && trig2 && mark && rll && chainw ? PB_OK : PB_ENOMEM;
    uint32_t *without = buf, *with = buf + maxk, *x0 = buf + 2 * (size_t)maxk,
             *x1 = buf + 4 * (size_t)maxk, *c0 = buf + 6 * (size_t)maxk,
             *c1 = buf + 7 * (size_t)maxk;
    uint32_t stamp = 0;
    xcache xc;
    memset(&xc, 0, sizeof xc);
    xc.on = n < (1u << 31);
    if (rc == PB_OK)
        joint_conf_triggers(s, trig, trig2, x0);
    cwalk wk, *w = &wk;
    memset(w, 0, sizeof *w);
    if (rc == PB_OK)
        rc = cwalk_init(s, w, rll);
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
        if ((rc = cwalk_ll(s, w, q0, without, nw, &l0w)) != PB_OK)
            break;
        /* p's chain in q0 (strict triggers), and q0 without it */
        uint32_t sp = 0, n0 = 0;
        double l0c = l0w;
        if ((rc = chain_setup(s, p, q0, trig, NULL, mark, &stamp, &sp, c0, &n0, 0, l0w, &l0c,
                              x0, w)) != PB_OK)
            break;
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
            if ((rc = cwalk_ll(s, w, q, with, m, &l1w)) != PB_OK)
                break;
            sum = add_exp(sum, (l0w + l1w) - (l0 + l1));
            /* exchanges: p to q, a call r of q on p's endpoint to q0 */
            for (uint32_t t = 0; t < k->n && rc == PB_OK; t++) {
                uint32_t r = k->a[t];
                if (s->pr[r].link != s->pr[p].link || !joint_has_cand(s, r, q0))
                    continue;
                double v;
                if (!xc_get(&xc, 0, p, r, &v)) {
                    uint32_t a = joint_conf_edit_list(s, k0->a, k0->n, p, r, x0);
                    uint32_t b = joint_conf_edit_list(s, k->a, k->n, r, p, x1);
                    if ((rc = cwalk_ll(s, w, q0, x0, a, &la)) != PB_OK ||
                        (rc = cwalk_ll(s, w, q, x1, b, &lb)) != PB_OK)
                        break;
                    v = la + lb;
                    if ((rc = xc_put(&xc, 0, p, r, v)) != PB_OK)
                        break;
                }
                sum = add_exp(sum, v - (l0 + l1));
            }
            if (rc == PB_OK)
                rc = chain_alts(s, p, q0, q, c0, n0, sp, l0c, l0, l1, trig, NULL, mark,
                                &stamp, with, x0, x1, c1, &csum, &xc, w);
        }
        /* the wide chain (near-tied runner-up triggers too), when it holds
         * more calls (it holds the strict one: with no more calls it is the
         * strict one, whose alternatives are counted, and q0 without it is
         * not walked with conf_wide_skip) */
        uint32_t nwide = 0;
        if (rc == PB_OK &&
            (rc = chain_setup(s, p, q0, trig, trig2, mark, &stamp, &sp, c0, &nwide,
                              !s->p.conf_wide_skip ? 0
                              : joint_conf_test_wide_wrong ? UINT32_MAX : n0,
                              l0w, &l0c, x0, w)) != PB_OK)
            break;
        for (uint32_t j = s->cand_off[p]; nwide > n0 && j < s->cand_off[p + 1] && rc == PB_OK;
             j++) {
            uint32_t q = s->cand[j];
            if (q != q0)
                rc = chain_alts(s, p, q0, q, c0, nwide, sp, l0c, l0, rll[q], trig, trig2,
                                mark, &stamp, with, x0, x1, c1, &csum, &xc, w);
        }
        share[p] = sum - 1.0; /* the single alternatives, for now */
        chainw[p] = csum;
    }
    /* every call a chain moves leaves with it: a call's alternatives are
     * its own and the chain alternatives of each call on its ways up the
     * triggers */
    if (rc == PB_OK)
        rc = sum_down(s, trig, trig2, chainw);
    if (rc == PB_OK && s->p.conf_series) { /* conf_series (joint_cfseries.c) */
        joint_cfs *cfs = joint_cfs_init(s, &rc);
        if (rc == PB_OK)
            rc = joint_cfs_shares(s, cfs, rll, cfs_walk, w, share, chainw);
        joint_cfs_free(cfs);
    }
    for (uint32_t p = 0; rc == PB_OK && p < n; p++)
        share[p] = s->par[p] == NONE ? 1.0 : 1.0 / (1.0 + share[p] + chainw[p]);
    if (rc == PB_OK)
        rc = orphan_shares(s, share);
    if (rc == PB_OK)
        rc = joint_cfa_flags(s); /* conf_alike (joint_cfalike.c) */
    /* without call ids, how sure the pairing of its call and return is */
    double *ps = rc == PB_OK ? malloc(((size_t)n + 1) * sizeof *ps) : NULL;
    if (rc == PB_OK && !ps)
        rc = PB_ENOMEM;
    if (rc == PB_OK)
        rc = joint_pair_shares(s, ps);
    if (rc == PB_OK)
        rc = joint_cftw_keep(s, ps); /* conf_twin=2 (joint_cftwin.c) */
    for (uint32_t p = 0; rc == PB_OK && p < n; p++)
        share[p] *= ps[p];
    free(ps);
    cwalk_free(w);
    free(buf);
    /* conf_ll_keep: every request's own walk summed for the output's
     * log-likelihood (joint_llkeep.c) */
    if (rc == PB_OK)
        rc = joint_llkeep_take(s, rll);
    free(rll);
    free(trig);
    free(trig2);
    free(xc.map.k);
    free(xc.map.v);
    free(xc.v);
    free(chainw);
    free(mark);
    return rc;
}
