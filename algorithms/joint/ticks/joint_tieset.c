/*
 * joint_tieset.c - joint: the tie test does not keep a start that breaks
 * the set of calls requests make where the search keeps it (tie_sets;
 * docs/joint/ticks.md, "The set of calls a request makes, in the tie
 * test"; issue 28).
 *
 * The tie test (joint_quant.c) keeps the start when most of the calls the
 * search moved stay within a tick of their start parent's arrival, and
 * tie_orphans (joint_tieorph.c) refutes that start when it leaves calls
 * without any parent.  At whole-tick stamps far coarser than the services
 * (the pool and dispatch models at 10 ms, twice their load, as a black
 * box) every call has a parent in both solutions, so tie_orphans has
 * nothing to count, and the start's damage is elsewhere: the repeated
 * calls of a request (two calls to profile, three to db) that fall in one
 * tick go to the wrong requests, and a request is left with one or three
 * profile calls where its endpoint's requests make two.  That too is a
 * fact of the trace, not of the densities the tie test discounts: the
 * requests of one incoming endpoint make, most of them, one set of calls.
 *
 * The criterion, a sign test over requests, beside tie_orphans's over
 * calls.  A request is a pair with a call message and a return in both
 * solutions (a request whose return is lost has no extent of its own, so
 * its set is a guess of either); its set is its counts of calls (pairs
 * with a call message: a half pair of a lost call is no call it made) per
 * outgoing link of its service.  Per incoming endpoint (the in link, as
 * out_sets's, joint_oset.c), the modal set of each solution; the endpoint
 * is used only when the two solutions have the same modal set and each
 * gives it to more than half of the endpoint's requests (a mode taken from
 * the search alone would favour the search; a mode of a minority is no
 * "set the requests make").  o = requests of used endpoints off the mode in
 * the start and on it in the search, r = the reverse.  A request with a
 * truly lost or repeated call is off the mode in both (not counted), and a
 * solution that brings it onto the mode by moving a call takes the call
 * from, or gives it to, another request of the link, which then leaves
 * the mode: one o and one r, nothing in the test's direction.  The start
 * is refuted (the search kept) when o > r and the one-sided P(X >= o), X ~
 * Binomial(o + r, 1/2), is below JOINT_TIEORPH_P (0.05).  Where the two
 * solutions give every request the same set (o = r = 0: where the tie test
 * was found right to keep the start, joint_pool.conf and seda at 1 ms)
 * nothing changes.  Runs only where the tie test would keep the start and
 * tie_orphans did not refute it.  Metadata: tie_sets=on endpoints= requests=
 * start_off=o search_off=r p= kept=search|start.
 *
 * tie_sets=1 (the above alone) also refutes starts the tie test is right to
 * keep: joint_ticks with 2 workers at 1 ms with call ids, 10 requests off the
 * set in the start and none in the search (p = 0.001) outweighed 587 moves
 * (88.2 -> 72.7 %).  tie_sets=2 weighs the set evidence against the moves:
 * the tie test treats each moved call as a test of its own (1.92 nats each),
 * so a refutation of all of them must hold at the family level, the sign
 * test's p below tie_sets_p / moved (Bonferroni over the moves); and the
 * requests a call moved across a tick came from or went to are not counted
 * (tie_cross, joint_tiecross.c, gives such calls the search's parent back).
 * Tried first and dropped: a likelihood ratio, the sets' log-likelihood
 * (each solution under its own set frequencies) added to the search's gain
 * against the tie test's bar: it fired on dispatch and event x1 at 1 ms with
 * ids, where the start is right, and missed dispatch x2 (docs/joint/ticks.md).
 * Metadata (tie_sets=2): ... p= moved= level= crossed= kept=.
 *
 * tie_sets=3 (the default): =2 judged the start before tie_cross mended it
 * (dispatch x1 seed 11, 1 ms, ids: the search put back, 31.4 % against
 * tie_cross's 33.6).  Here the tie test, where it would keep the start,
 * saves the search whole (parents and pairing of returns,
 * joint_tieset_defer) and lets the start be made again and mended; then
 * (joint_tieset_after) the same sign test at =2's level, against the start
 * as tie_cross left it.  When it refutes, the search is not put back whole:
 * the calls where the two solutions differ fall into components closed
 * under both (a call with its parent in each, a pair with the pair holding
 * its return in the other), each free to take either solution without
 * touching another; a component takes the search's parents and returns
 * where its own requests come onto their set in the search more often than
 * they leave it (o > r within it), else it stays as tie_cross left it (the
 * tie test's verdict).  The set test refutes the start as a whole; it does
 * not say every move of the search is right, and the moves that bring no
 * request onto its set are the tie test's to judge.  Metadata:
 * tie_sets=on after=tie_cross ... moved= left= level= components= taken=.
 *
 * tie_sets_split (h149): each pair is two nodes of the components, as a
 * call (its parent, its return) and as a request (the calls it holds, where
 * its set is counted), joined only where its return differs.  One node per
 * pair joined the requests the search moves whole one level up (each keeps
 * its set: no count speaks for the move, and on dispatch x2 most are
 * wrong) with the moves among their calls' calls that bring requests onto
 * their set; split, the first stay as tie_cross left them.  Metadata
 * split=on.  tie_sets_ll (off): a component also needs the search to be
 * likelier on its requests (tie_sets_ll_bar x 1.92 nats per moved call):
 * it finds the components that cost links but drops those that win
 * requests (docs/joint/ticks.md).  Metadata ll=on ll_bar= ll_dropped=.
 */
#include "joint_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"
#include <math.h>

#define NONE JOINT_NONE

/* (endpoint, signature hash, request) for grouping the sets of one solution */
typedef struct tskey {
    uint32_t ein;
    uint32_t q;
    uint64_t h;
} tskey;

static int cmp_tskey(const void *x, const void *y)
{
    const tskey *a = x, *b = y;
    if (a->ein != b->ein)
        return a->ein < b->ein ? -1 : 1;
    if (a->h != b->h)
        return a->h < b->h ? -1 : 1;
    return a->q < b->q ? -1 : a->q > b->q;
}

static uint64_t set_hash(const uint32_t *c, uint32_t no)
{
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (uint32_t j = 0; j < no; j++) {
        h = (h ^ c[j]) * 0x100000001b3ull;
        h ^= h >> 29;
    }
    return h;
}

/* per endpoint, the request holding that solution's modal set (NONE: no
 * strict mode, or held by half the endpoint's requests or fewer) */
static void modes(tskey *k, size_t nk, uint32_t nlinks, uint32_t *mode)
{
    for (uint32_t l = 0; l < nlinks; l++)
        mode[l] = NONE;
    pb_sort(k, nk, sizeof *k, cmp_tskey);
    for (size_t i = 0; i < nk;) {
        size_t j = i, best = 0, tie = 0;
        uint32_t rep = NONE;
        while (j < nk && k[j].ein == k[i].ein) {
            size_t g = j;
            while (g < nk && k[g].ein == k[j].ein && k[g].h == k[j].h)
                g++;
            if (g - j > best) {
                best = g - j;
                rep = k[j].q;
                tie = 0;
            } else if (g - j == best)
                tie = 1;
            j = g;
        }
        if (!tie && 2 * best > j - i)
            mode[k[i].ein] = rep;
        i = j;
    }
}

/* joint_tieset_count, and per request (flag, n entries, or NULL) 0 when not
 * counted, else 1 + (on the agreed mode in start) + 2 * (on it in now) */
static int count_sets(const joint *s, const uint32_t *start, const uint32_t *now,
                      const unsigned char *use, size_t *used_eps, size_t *reqs,
                      size_t *start_off, size_t *search_off, unsigned char *flag)
{
    uint32_t n = s->npairs, nl = s->nlinks;
    *used_eps = *reqs = *start_off = *search_off = 0;
    size_t *off = malloc(((size_t)n + 1) * sizeof *off);
    uint32_t *mode[2] = {malloc(((size_t)nl + 1) * sizeof(uint32_t)),
                         malloc(((size_t)nl + 1) * sizeof(uint32_t))};
    tskey *k = malloc(((size_t)n + 1) * sizeof *k);
    uint64_t *h[2] = {malloc(((size_t)n + 1) * sizeof(uint64_t)),
                      malloc(((size_t)n + 1) * sizeof(uint64_t))};
    uint32_t *cnt[2] = {NULL, NULL};
    int rc = PB_ENOMEM;
    if (!off || !mode[0] || !mode[1] || !k || !h[0] || !h[1])
        goto out;
    if (flag)
        memset(flag, 0, n);
    /* each request's count cells: one per outgoing link of its service */
    size_t tot = 0;
    for (uint32_t q = 0; q < n; q++) {
        off[q] = tot;
        uint32_t b = s->pr[q].callee;
        if (use[q])
            tot += s->out_off[b + 1] - s->out_off[b];
    }
    off[n] = tot;
    cnt[0] = calloc(tot + 1, sizeof(uint32_t));
    cnt[1] = calloc(tot + 1, sizeof(uint32_t));
    if (!cnt[0] || !cnt[1])
        goto out;
    for (int v = 0; v < 2; v++) {
        const uint32_t *par = v ? now : start;
        for (uint32_t p = 0; p < n; p++) {
            uint32_t a = par[p];
            if (s->pr[p].call == NONE || a == NONE || !use[a])
                continue;
            uint32_t l = s->pr[p].link;
            if (s->link_src[l] == s->pr[a].callee)
                cnt[v][off[a] + s->link_local[l]]++;
        }
        size_t nk = 0;
        for (uint32_t q = 0; q < n; q++) {
            if (!use[q] || off[q + 1] == off[q])
                continue;
            h[v][q] = set_hash(cnt[v] + off[q], (uint32_t)(off[q + 1] - off[q]));
            k[nk++] = (tskey){s->pr[q].link, q, h[v][q]};
        }
        modes(k, nk, nl, mode[v]);
    }
    for (uint32_t q = 0; q < n; q++) {
        uint32_t e = s->pr[q].link;
        if (!use[q] || off[q + 1] == off[q] || mode[0][e] == NONE || mode[1][e] == NONE)
            continue;
        size_t w = (off[q + 1] - off[q]) * sizeof(uint32_t);
        const uint32_t *m0 = cnt[0] + off[mode[0][e]], *m1 = cnt[1] + off[mode[1][e]];
        if (memcmp(m0, m1, w))
            continue; /* the two solutions' modes differ: no agreed set */
        (*reqs)++;
        int on0 = !memcmp(cnt[0] + off[q], m0, w), on1 = !memcmp(cnt[1] + off[q], m0, w);
        if (flag)
            flag[q] = (unsigned char)(1 + on0 + 2 * on1);
        *start_off += !on0 && on1;
        *search_off += on0 && !on1;
    }
    for (uint32_t l = 0; l < nl; l++)
        if (mode[0][l] != NONE && mode[1][l] != NONE &&
            !memcmp(cnt[0] + off[mode[0][l]], cnt[1] + off[mode[1][l]],
                    (off[mode[0][l] + 1] - off[mode[0][l]]) * sizeof(uint32_t)))
            (*used_eps)++;
    rc = PB_OK;
out:
    free(off);
    free(mode[0]);
    free(mode[1]);
    free(k);
    free(h[0]);
    free(h[1]);
    free(cnt[0]);
    free(cnt[1]);
    return rc;
}

int joint_tieset_count(const joint *s, const uint32_t *start, const uint32_t *now,
                       const unsigned char *use, size_t *used_eps, size_t *reqs,
                       size_t *start_off, size_t *search_off)
{
    return count_sets(s, start, now, use, used_eps, reqs, start_off, search_off, NULL);
}

int joint_tieset_weighs(size_t start_off, size_t search_off, double level, size_t moved)
{
    /* the level shared among the moves the tie test weighed: each moved call is
     * a test of its own there (1.92 nats each), and a few requests off their set
     * speak for a few moves, not for every move of the search */
    double per = level / (double)(moved ? moved : 1);
    return start_off > search_off && joint_tieorph_p(start_off, search_off) < per;
}

int joint_tieset_decide(joint *s, const unsigned char *start_lost)
{
    if (!s->p.tie_sets || !s->qpar)
        return 0;
    uint32_t n = s->npairs;
    unsigned char *use = malloc((size_t)n + 1);
    uint32_t *st = NULL;
    if (!use)
        return -1;
    /* a request: a call message and a return in both solutions */
    for (uint32_t q = 0; q < n; q++)
        use[q] = s->pr[q].call != NONE && s->pr[q].ret != NONE && !start_lost[q];
    if (s->p.tie_sets == 2 && s->p.tie_cross) {
        /* the requests a call the search moved across a tick came from or went to
         * are left to tie_cross (joint_tiecross.c), which gives such calls the
         * search's parent back: their sets are not the tie test's to answer for */
        st = malloc(((size_t)n + 1) * sizeof *st);
        pb_ns *arr = calloc((size_t)n + 1, sizeof *arr);
        if (!st || !arr) {
            free(st);
            free(arr);
            free(use);
            return -1;
        }
        for (uint32_t q = 0; q < n; q++)
            arr[q] = s->pr[q].call == NONE ? INT64_MIN : s->pr[q].cr;
        s->tset_cross = joint_tiecross_mark(s->qpar, s->par, arr, n, s->qtick, st);
        free(arr);
        for (uint32_t p = 0; p < n; p++)
            if (st[p] != NONE)
                use[st[p]] = use[s->qpar[p]] = 0;
    }
    int rc = joint_tieset_count(s, s->qpar, s->par, use, &s->tset_eps, &s->tset_reqs,
                                &s->tset_start_off, &s->tset_search_off);
    free(use);
    free(st);
    if (rc != PB_OK)
        return -1;
    s->tset_on = 1;
    s->tset_p = joint_tieorph_p(s->tset_start_off, s->tset_search_off);
    if (s->p.tie_sets == 1) /* h119's sign test alone */
        s->tset_refuted = joint_tieorph_refutes(s->tset_start_off, s->tset_search_off);
    else
        s->tset_refuted = joint_tieset_weighs(s->tset_start_off, s->tset_search_off,
                                              s->p.tie_sets_p, s->quant_changed);
    return s->tset_refuted;
}

int joint_tieset_defer(joint *s)
{
    if (s->tset_spar)
        return PB_OK;
    uint32_t n = s->npairs;
    s->tset_spar = malloc(((size_t)n + 1) * sizeof *s->tset_spar);
    s->tset_sret = joint_quant_returns_alloc(n);
    if (!s->tset_spar || !s->tset_sret) {
        free(s->tset_spar);
        free(s->tset_sret);
        s->tset_spar = NULL;
        s->tset_sret = NULL;
        return PB_ENOMEM;
    }
    memcpy(s->tset_spar, s->par, (size_t)n * sizeof *s->tset_spar);
    joint_quant_copy_returns(s, s->tset_sret);
    return PB_OK;
}

static uint32_t uf_find(uint32_t *up, uint32_t x)
{
    while (up[x] != x) {
        up[x] = up[up[x]];
        x = up[x];
    }
    return x;
}

static void uf_join(uint32_t *up, uint32_t a, uint32_t b)
{
    a = uf_find(up, a);
    b = uf_find(up, b);
    if (a != b)
        up[a < b ? b : a] = a < b ? a : b;
}

/* the pairs where the start (as tie_cross left it: s->par and the current
 * returns) and the saved search differ, in components closed under both
 * solutions (a call joined to its parent in each; a pair joined to the pair
 * holding its return message in the other): each component can take either
 * solution's parents and returns without touching another.  up[] the
 * union-find over 2n nodes: node p is pair p as a call (its parent, its
 * return), node po + p pair p as a request (the calls it holds); po = 0
 * (tie_sets_split off: one node per pair, as h135 built it) or n
 * (tie_sets_split: the two roles joined only where the pair's return
 * differs, so that a request moved whole above does not carry the moves
 * among its calls' own calls with it).  PB_OK or PB_ENOMEM */
static int components(const joint *s, uint32_t *up, uint32_t po)
{
    uint32_t n = s->npairs;
    const uint32_t *spar = s->tset_spar;
    uint32_t nm = s->v.n;
    uint32_t *own[2] = {malloc(((size_t)nm + 1) * sizeof(uint32_t)),
                        malloc(((size_t)nm + 1) * sizeof(uint32_t))};
    if (!own[0] || !own[1]) {
        free(own[0]);
        free(own[1]);
        return PB_ENOMEM;
    }
    for (uint32_t m = 0; m < nm; m++)
        own[0][m] = own[1][m] = NONE;
    for (uint32_t x = 0; x < 2 * n; x++)
        up[x] = x;
    for (uint32_t p = 0; p < n; p++) {
        uint32_t r0 = s->pr[p].ret, r1 = joint_quant_return_of(s->tset_sret, p);
        if (r0 != NONE)
            own[0][r0] = p;
        if (r1 != NONE)
            own[1][r1] = p;
    }
    for (uint32_t p = 0; p < n; p++) {
        uint32_t a = s->par[p], b = spar[p];
        if (a != b) {
            if (a != NONE)
                uf_join(up, p, po + a);
            if (b != NONE)
                uf_join(up, p, po + b);
        }
        uint32_t r0 = s->pr[p].ret, r1 = joint_quant_return_of(s->tset_sret, p);
        if (r0 != r1) {
            /* a return moved changes the pair's extent: both its roles */
            uf_join(up, p, po + p);
            if (r0 != NONE && own[1][r0] != NONE)
                uf_join(up, p, own[1][r0]);
            if (r1 != NONE && own[0][r1] != NONE)
                uf_join(up, p, own[0][r1]);
        }
    }
    free(own[0]);
    free(own[1]);
    return PB_OK;
}

/* every pair to the search's parent and return where its component's take[]
 * is set, else to the start's (spar0 and cret: the start as tie_cross left
 * it).  A parent no longer a candidate (none expected: the candidates are
 * those of the returns put back) is left without and counted in *missed */
static int apply_mix(joint *s, uint32_t *up, const unsigned char *take, const uint32_t *spar0,
                     const void *cret, void *mret, size_t *missed)
{
    uint32_t n = s->npairs;
    for (uint32_t p = 0; p < n; p++)
        joint_quant_pick_return(mret, p, take[uf_find(up, p)] ? s->tset_sret : cret);
    int rc = joint_quant_put_returns(s, mret);
    *missed = 0;
    for (uint32_t p = 0; p < n && rc == PB_OK; p++)
        rc = joint_tieset_put_parent(s, p, take[uf_find(up, p)] ? s->tset_spar[p] : spar0[p],
                                     missed);
    return rc;
}

int joint_tieset_put_parent(joint *s, uint32_t p, uint32_t b, size_t *missed)
{
    if (b == NONE)
        return PB_OK;
    uint32_t j = s->cand_off[p];
    while (j < s->cand_off[p + 1] && s->cand[j] != b)
        j++;
    if (j == s->cand_off[p + 1]) {
        (*missed)++;
        return PB_OK;
    }
    return joint_set_parent(s, p, b);
}

/* tie_sets_ll: per component root, the log-likelihood of the requests it
 * holds under the present assignment and model (joint_req_ll of each member
 * and of each member's parent outside it: a return put back changes its
 * caller's request too), added into ll[] */
static void comp_ll(joint *s, uint32_t *up, uint32_t po, const unsigned char *diff, double *ll)
{
    uint32_t n = s->npairs;
    for (uint32_t q = 0; q < n; q++) {
        uint32_t c = uf_find(up, po + q);
        if (!diff[c])
            continue;
        double l = joint_req_ll(s, q);
        uint32_t a = s->par[q];
        if (a != NONE && uf_find(up, po + a) != c)
            l += joint_req_ll(s, a);
        if (l > -INFINITY)
            ll[c] += l;
    }
}

/* the search's parents and returns put back on the components whose requests
 * it brings onto their set more often than it takes them off (o > r, flag[] of
 * count_sets); with tie_sets_ll, only where the search is also likelier on the
 * component by the tie test's bar per moved call (the component's own test:
 * the set evidence refutes the start as a whole, the moves are still each the
 * tie test's to weigh); the rest as tie_cross left them; the model refitted */
static int put_search_back(joint *s, const unsigned char *flag)
{
    uint32_t n = s->npairs, po = s->p.tie_sets_split ? n : 0;
    size_t nn = 2 * (size_t)n + 1; /* union-find nodes: components() */
    uint32_t *up = malloc(nn * sizeof *up);
    long *bal = calloc(nn, sizeof *bal);
    uint32_t *spar0 = malloc(((size_t)n + 1) * sizeof *spar0);
    size_t *mv = calloc(nn, sizeof *mv);
    unsigned char *take = calloc(nn, 1), *diff = calloc(nn, 1);
    double *ll0 = NULL, *ll1 = NULL;
    void *mret = joint_quant_returns_alloc(n), *cret = joint_quant_returns_alloc(n);
    int rc = PB_ENOMEM;
    if (!up || !bal || !spar0 || !mv || !take || !diff || !mret || !cret)
        goto out;
    rc = components(s, up, po);
    if (rc != PB_OK)
        goto out;
    /* a request's set is its calls': counted at its node as a request */
    for (uint32_t q = 0; q < n; q++)
        if (flag[q] == 3) /* on in the search only */
            bal[uf_find(up, po + q)]++;
        else if (flag[q] == 2) /* on in the start only */
            bal[uf_find(up, po + q)]--;
    joint_quant_copy_returns(s, cret);
    memcpy(spar0, s->par, (size_t)n * sizeof *spar0);
    s->tset_comps = s->tset_taken = s->tset_ll_dropped = 0;
    for (uint32_t p = 0; p < n; p++) {
        uint32_t c = uf_find(up, p);
        int pd = s->par[p] != s->tset_spar[p];
        if (pd || s->pr[p].ret != joint_quant_return_of(s->tset_sret, p)) {
            if (!diff[c]) {
                s->tset_comps++;
                take[c] = bal[c] > 0;
            }
            diff[c] = 1;
        }
        mv[c] += (size_t)pd;
    }
    size_t missed = 0;
    if (s->p.tie_sets_ll) {
        /* each component's likelihood in the start and with every component
         * the search's (the components touch no common pair; a parent outside
         * its component is the only term another component can move) */
        ll0 = calloc(nn, sizeof *ll0);
        ll1 = calloc(nn, sizeof *ll1);
        unsigned char *all = malloc(nn);
        rc = PB_ENOMEM;
        if (!ll0 || !ll1 || !all) {
            free(all);
            goto out;
        }
        comp_ll(s, up, po, diff, ll0);
        memset(all, 1, nn);
        rc = apply_mix(s, up, all, spar0, cret, mret, &missed);
        free(all);
        if (rc != PB_OK)
            goto out;
        comp_ll(s, up, po, diff, ll1);
        for (size_t c = 0; c < nn; c++)
            if (take[c] && diff[c] &&
                !(ll1[c] - ll0[c] >= JOINT_QUANT_GAIN * (double)mv[c] * s->p.tie_sets_ll_bar)) {
                take[c] = 0;
                s->tset_ll_dropped++;
            }
    }
    for (size_t c = 0; c < nn; c++)
        s->tset_taken += diff[c] && take[c];
    rc = apply_mix(s, up, take, spar0, cret, mret, &missed);
    s->tset_missed = missed; /* warned with the result (joint_paths.c) */
    if (rc == PB_OK)
        rc = joint_refit_moved(s);
out:
    free(up);
    free(bal);
    free(spar0);
    free(mv);
    free(take);
    free(diff);
    free(ll0);
    free(ll1);
    free(mret);
    free(cret);
    return rc;
}

int joint_tieset_after(joint *s)
{
    uint32_t *spar = s->tset_spar;
    if (!spar)
        return PB_OK;
    uint32_t n = s->npairs;
    int rc = PB_ENOMEM;
    unsigned char *use = calloc((size_t)n + 1, 1), *flag = calloc((size_t)n + 1, 1);
    if (use && flag) {
        /* a request: a call message and a return in both solutions (the start's
         * returns are the current ones) */
        for (uint32_t q = 0; q < n; q++)
            use[q] = s->pr[q].call != NONE && s->pr[q].ret != NONE &&
                     joint_quant_return_of(s->tset_sret, q) != NONE;
        rc = count_sets(s, s->par, spar, use, &s->tset_eps, &s->tset_reqs,
                        &s->tset_start_off, &s->tset_search_off, flag);
    }
    if (rc == PB_OK) {
        s->tset_left = 0;
        for (uint32_t p = 0; p < n; p++)
            s->tset_left += s->par[p] != spar[p];
        s->tset_on = s->tset_after = 1;
        s->tset_p = joint_tieorph_p(s->tset_start_off, s->tset_search_off);
        s->tset_refuted = joint_tieset_weighs(s->tset_start_off, s->tset_search_off,
                                              s->p.tie_sets_p, s->quant_changed);
        if (s->tset_refuted) {
            rc = put_search_back(s, flag);
            s->quant_state = 2; /* the tie test's verdict: the search, where the sets say */
        }
    }
    if (rc == PB_OK) /* tie_sets_search: not refuted, tie_test=2's search put back */
        rc = joint_tiesearch_after(s, s->tset_refuted);
    free(use);
    free(flag);
    free(s->tset_spar);
    free(s->tset_sret);
    s->tset_spar = NULL;
    s->tset_sret = NULL;
    return rc;
}

int joint_tieset_meta(const joint *s, pb_result *res)
{
    if (!s->tset_on)
        return PB_OK;
    if (s->p.tie_sets == 1)
        return pb_result_meta(res, "tie_sets=on endpoints=%zu requests=%zu start_off=%zu "
                              "search_off=%zu p=%.3g kept=%s",
                              s->tset_eps, s->tset_reqs, s->tset_start_off,
                              s->tset_search_off, s->tset_p,
                              s->tset_refuted ? "search" : "start");
    char ll_note[96] = "";
    if (s->tset_refuted) /* how the components were made and what their likelihood dropped */
        snprintf(ll_note, sizeof ll_note, "%s", s->p.tie_sets_split ? " split=on" : "");
    if (s->p.tie_sets_ll && s->tset_refuted)
        snprintf(ll_note + strlen(ll_note), sizeof ll_note - strlen(ll_note),
                 " ll=on ll_bar=%g ll_dropped=%zu", s->p.tie_sets_ll_bar, s->tset_ll_dropped);
    if (s->tset_after) /* tie_sets=3: against the start as tie_cross left it */
        return pb_result_meta(res, "tie_sets=on after=tie_cross endpoints=%zu requests=%zu "
                              "start_off=%zu search_off=%zu p=%.3g moved=%zu left=%zu "
                              "level=%.3g components=%zu taken=%zu%s kept=%s",
                              s->tset_eps, s->tset_reqs, s->tset_start_off,
                              s->tset_search_off, s->tset_p, s->quant_changed, s->tset_left,
                              s->p.tie_sets_p /
                                  (double)(s->quant_changed ? s->quant_changed : 1),
                              s->tset_comps, s->tset_taken, ll_note,
                              s->tset_refuted ? "search" : "start");
    return pb_result_meta(res, "tie_sets=on endpoints=%zu requests=%zu start_off=%zu "
                          "search_off=%zu p=%.3g moved=%zu level=%.3g crossed=%zu kept=%s",
                          s->tset_eps, s->tset_reqs, s->tset_start_off, s->tset_search_off,
                          s->tset_p, s->quant_changed,
                          s->p.tie_sets_p / (double)(s->quant_changed ? s->quant_changed : 1),
                          s->tset_cross, s->tset_refuted ? "search" : "start");
}
