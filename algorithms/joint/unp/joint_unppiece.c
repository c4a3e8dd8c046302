/*
 * joint_unppiece.c - the second search of `unpaired=1` decided piece by
 * piece (`-s unp_pieces=1`, default 0; docs/joint/loss.md, "Which messages
 * stay unpaired: pieces decided by a held-out likelihood", in joint).
 *
 * With unp_pieces=1 and unpaired=1 both searches are kept.  The messages
 * fall into groups closed under both solutions' top-level requests (union
 * of "same request in the first" and "same request in the second", as
 * experiments/unp_merge.awk); a group whose two partitions differ is a
 * piece.  The model is refitted (joint_fit with an `only` mask) on the
 * requests outside every piece -- the same in both solutions, so held out
 * from what it judges -- and each piece is scored in both solutions: the
 * sum of joint_req_ll over its requests plus, per message, log(u) when it
 * is left unpaired and log(1 - u) when paired (u: the share of unpaired
 * messages outside the pieces, at least JOINT_UNP_QMIN).  The second
 * solution's partition of a piece is taken when its log-likelihood ratio
 * exceeds JOINT_UNPP_LLR nats (chi-square(1) 95 % / 2) and the piece holds
 * at most JOINT_UNPP_SMALL of the messages (a giant piece leaves nothing
 * to fit on).
 *
 * The output: the second search when every piece is taken, the first
 * when none is, else the merged solution (joint_unpmerge.c: the first
 * search's pairs and parents outside the taken pieces, the second's
 * inside, one refit); metadata unp_pieces= lists every piece, its size,
 * its LLR and whether it was taken.
 */
#include "joint_int.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t joint_unp_root(const joint *s, uint32_t q)
{
    for (uint32_t k = 0; k <= s->npairs; k++) {
        uint32_t p = s->par[q];
        if (p == JOINT_NONE)
            return q;
        q = p;
    }
    return JOINT_NONE;
}

static uint32_t uf_find(uint32_t *up, uint32_t a)
{
    uint32_t r = a;
    while (up[r] != r)
        r = up[r];
    while (up[a] != r) {
        uint32_t t = up[a];
        up[a] = r;
        a = t;
    }
    return r;
}

static void uf_union(uint32_t *up, uint32_t a, uint32_t b)
{
    a = uf_find(up, a);
    b = uf_find(up, b);
    if (a != b)
        up[a] = b;
}

static int half_pair(const joint *s, uint32_t q)
{
    return s->pr[q].call == JOINT_NONE || s->pr[q].ret == JOINT_NONE;
}

/* the root of message m in s (JOINT_NONE: no pair or a cycle) */
static uint32_t msg_root(const joint *s, uint32_t m)
{
    uint32_t q = s->pair_of_msg[m];
    return q == JOINT_NONE ? JOINT_NONE : joint_unp_root(s, q);
}

/* the requests of s wholly outside every piece into only[]; the share of
 * their messages left unpaired into *u */
static void outside_mask(const joint *s, const uint32_t *pc, unsigned char *only, double *u)
{
    size_t msgs = 0, unp = 0;
    for (uint32_t q = 0; q < s->npairs; q++) {
        only[q] = 1;
        uint32_t e[2] = {s->pr[q].call, s->pr[q].ret};
        for (int i = 0; i < 2; i++)
            if (e[i] != JOINT_NONE && pc[e[i]] != JOINT_NONE)
                only[q] = 0;
        if (only[q]) {
            msgs += (e[0] != JOINT_NONE) + (e[1] != JOINT_NONE);
            unp += half_pair(s, q);
        }
    }
    double x = msgs ? (double)unp / (double)msgs : 0;
    *u = x < JOINT_UNP_QMIN ? JOINT_UNP_QMIN : x > 0.5 ? 0.5 : x;
}

/* each piece's score in s under the model fitted outside them: ll[k] */
static int score(joint *s, const uint32_t *pc, uint32_t np, double *ll)
{
    unsigned char *only = malloc(s->npairs ? s->npairs : 1);
    if (!only)
        return PB_ENOMEM;
    double u = 0;
    outside_mask(s, pc, only, &u);
    int rc = joint_fit(s, only);
    if (rc != PB_OK) {
        free(only);
        return rc;
    }
    for (uint32_t k = 0; k < np; k++)
        ll[k] = 0;
    for (uint32_t q = 0; q < s->npairs; q++) {
        if (only[q])
            continue;
        uint32_t m = s->pr[q].call != JOINT_NONE ? s->pr[q].call : s->pr[q].ret;
        uint32_t k = pc[m];
        ll[k] += joint_req_ll(s, q);
        if (half_pair(s, q))
            ll[k] += log(u);
        else
            ll[k] += 2 * log(1 - u);
    }
    free(only);
    return joint_fit(s, NULL);
}

int joint_unpp_take(joint *f, joint *s, int *take_second)
{
    *take_second = 0;
    size_t n = f->v.n;
    uint32_t *up = malloc((n ? n : 1) * sizeof *up);
    uint32_t *pc = malloc((n ? n : 1) * sizeof *pc);
    uint32_t *fa = malloc(((size_t)f->npairs + 1) * sizeof *fa);
    uint32_t *fb = malloc(((size_t)s->npairs + 1) * sizeof *fb);
    unsigned char *diff = calloc(n ? n : 1, 1);
    int rc = PB_ENOMEM;
    if (!up || !pc || !fa || !fb || !diff)
        goto out;
    for (size_t m = 0; m < n; m++)
        up[m] = (uint32_t)m;
    memset(fa, 0xff, ((size_t)f->npairs + 1) * sizeof *fa);
    memset(fb, 0xff, ((size_t)s->npairs + 1) * sizeof *fb);
    /* groups: same request in either solution */
    for (size_t m = 0; m < n; m++) {
        uint32_t ra = msg_root(f, (uint32_t)m), rb = msg_root(s, (uint32_t)m);
        if (ra != JOINT_NONE) {
            if (fa[ra] == JOINT_NONE)
                fa[ra] = (uint32_t)m;
            else
                uf_union(up, (uint32_t)m, fa[ra]);
        }
        if (rb != JOINT_NONE) {
            if (fb[rb] == JOINT_NONE)
                fb[rb] = (uint32_t)m;
            else
                uf_union(up, (uint32_t)m, fb[rb]);
        }
    }
    /* a group differs when a request of one solution meets two of the
     * other's, or a message has no request in one of them: with groups
     * closed under both, a group is one request in the first exactly when
     * it is one in the second unless they differ */
    for (size_t m = 0; m < n; m++) {
        uint32_t ra = msg_root(f, (uint32_t)m), rb = msg_root(s, (uint32_t)m);
        uint32_t g = uf_find(up, (uint32_t)m);
        if (ra == JOINT_NONE || rb == JOINT_NONE || fa[ra] == JOINT_NONE ||
            fb[rb] == JOINT_NONE) {
            diff[g] = 1;
            continue;
        }
        /* the first message of each request names it: both name the same
         * first message of the group when the partitions agree here */
        if (fa[ra] != fb[rb])
            diff[g] = 1;
    }
    /* pieces numbered by their first message (independent of pair order) */
    uint32_t np = 0;
    for (size_t m = 0; m < n; m++)
        pc[m] = JOINT_NONE;
    {
        uint32_t *num = fa; /* fa is done with; renumber per group root */
        if (f->npairs + 1 < n) {
            num = realloc(fa, n * sizeof *num);
            if (!num)
                goto out;
            fa = num;
        }
        for (size_t m = 0; m < n; m++)
            num[m] = JOINT_NONE;
        for (size_t m = 0; m < n; m++) {
            uint32_t g = uf_find(up, (uint32_t)m);
            if (!diff[g])
                continue;
            if (num[g] == JOINT_NONE)
                num[g] = np++;
            pc[m] = num[g];
        }
    }
    double *la = calloc(np ? np : 1, sizeof *la), *lb = calloc(np ? np : 1, sizeof *lb);
    uint32_t *sz = calloc(np ? np : 1, sizeof *sz);
    unsigned char *tk = calloc(np ? np : 1, 1);
    uint64_t *fid = calloc(np ? np : 1, sizeof *fid);
    if (!la || !lb || !sz || !tk || !fid) {
        free(la), free(lb), free(sz), free(tk), free(fid);
        goto out;
    }
    for (size_t m = 0; m < n; m++)
        if (pc[m] != JOINT_NONE && !sz[pc[m]]++)
            fid[pc[m]] = f->v.msgs[m].id;
    rc = np ? score(f, pc, np, la) : PB_OK;
    if (rc == PB_OK && np)
        rc = score(s, pc, np, lb);
    if (rc != PB_OK) {
        free(la), free(lb), free(sz), free(tk), free(fid);
        goto out;
    }
    uint32_t ntk = 0;
    for (uint32_t k = 0; k < np; k++) {
        lb[k] -= la[k]; /* the LLR, second minus first */
        tk[k] = lb[k] > JOINT_UNPP_LLR && (double)sz[k] <= JOINT_UNPP_SMALL * (double)n;
        ntk += tk[k];
    }
    free(la);
    ntk -= joint_unpwh_note(f, s, pc, np, tk, lb); /* unp_where (joint_unpwhere.c) */
    *take_second = np > 0 && ntk == np;
    joint *keep = *take_second ? s : f;
    joint *o[2] = {f, s};
    for (int i = 0; i < 2; i++) {
        joint_unpp_free(o[i]);
        o[i]->unpp_on = 1;
        o[i]->unpp_n = np;
        o[i]->unpp_taken = ntk;
        o[i]->unpp_msgs = n;
    }
    /* the piece arrays go with the solution that is output */
    /* some pieces taken, not all: which messages the merge takes from the
     * second search (joint_unpmerge.c) */
    if (ntk > 0 && ntk < np) {
        keep->unpp_sec = malloc(n ? n : 1);
        if (!keep->unpp_sec) {
            free(lb), free(sz), free(tk), free(fid);
            rc = PB_ENOMEM;
            goto out;
        }
        for (size_t m = 0; m < n; m++)
            keep->unpp_sec[m] = pc[m] != JOINT_NONE && tk[pc[m]];
    }
    /* unp_copy_taken: the messages of the taken pieces, for the
     * self-calibration copy's unpaired step (joint_unpaired.c) */
    if (ntk > 0) {
        keep->unpp_tmsg = malloc(n ? n : 1);
        if (!keep->unpp_tmsg) {
            free(lb), free(sz), free(tk), free(fid);
            rc = PB_ENOMEM;
            goto out;
        }
        for (size_t m = 0; m < n; m++)
            keep->unpp_tmsg[m] = pc[m] != JOINT_NONE && tk[pc[m]];
    }
    keep->unpp_llr = lb;
    keep->unpp_size = sz;
    keep->unpp_tk = tk;
    keep->unpp_first = fid;
    rc = PB_OK;
out:
    free(up);
    free(pc);
    free(fa);
    free(fb);
    free(diff);
    return rc;
}

void joint_unpp_free(joint *s)
{
    free(s->unpp_tmsg);
    s->unpp_tmsg = NULL;
    free(s->unpp_llr);
    free(s->unpp_size);
    free(s->unpp_tk);
    free(s->unpp_first);
    free(s->unpp_sec);
    s->unpp_sec = NULL;
    free(s->unpwh_in); /* unp_where (joint_unpwhere.c) */
    s->unpwh_in = NULL;
    s->unpp_first = NULL;
    s->unpp_llr = NULL;
    s->unpp_size = NULL;
    s->unpp_tk = NULL;
}

int joint_unpp_meta(const joint *s, pb_result *res)
{
    if (joint_unpc_meta(s, res) != PB_OK) /* unp_copy (joint_unpcopy.c) */
        return PB_ENOMEM;
    if (joint_unpr_meta(s, res) != PB_OK) /* unp_repair, unp_swaps (joint_unprounds.c) */
        return PB_ENOMEM;
    if (joint_unpwh_meta(s, res) != PB_OK) /* unp_where (joint_unpwhere.c) */
        return PB_ENOMEM;
    if (joint_unpl_meta(s, res) != PB_OK) /* unp_lite (joint_unplite.c) */
        return PB_ENOMEM;
    if (joint_ucert_meta(s, res) != PB_OK) /* unp_cert (joint_unpcert.c) */
        return PB_ENOMEM;
    if (joint_uwl_meta(s, res) != PB_OK) /* unp_wlocal (joint_unpwlocal.c) */
        return PB_ENOMEM;
    if (joint_unpwb_meta(s, res) != PB_OK) /* unp_wboth (joint_unpwboth.c) */
        return PB_ENOMEM;
    if (!s->unpp_on)
        return PB_OK;
    int rc = pb_result_meta(res, "unp_pieces=%u taken=%u of_msgs=%zu output=%s",
                            s->unpp_n, s->unpp_taken, s->unpp_msgs,
                            s->unpm_on > 0 ? "merged"
                            : s->unpp_n && s->unpp_taken == s->unpp_n ? "second" : "first");
    if (rc == PB_OK)
        rc = joint_unpm_meta(s, res);
    if (rc == PB_OK)
        rc = joint_unpw_meta(s, res); /* joint_unpwin.c */
    if (rc == PB_OK)
        rc = joint_unplp_meta(s, res); /* unp_predict (joint_unplp.c) */
    if (rc == PB_OK)
        rc = joint_unpinh_meta(s, res); /* unp_pcheck (joint_unpinh.c) */
    if (rc == PB_OK)
        rc = joint_unpa_meta(s, res); /* unp_alt (joint_unpalt.c) */
    for (uint32_t k = 0; rc == PB_OK && s->unpp_llr && k < s->unpp_n; k++)
        rc = pb_result_meta(res, "unp_piece=%u first=%llu msgs=%u llr=%.3f taken=%d", k,
                            (unsigned long long)s->unpp_first[k], s->unpp_size[k],
                            s->unpp_llr[k], s->unpp_tk[k]);
    return rc;
}
