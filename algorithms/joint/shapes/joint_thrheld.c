/*
 * joint_thrheld.c - thread_soft_heldout (h274; docs/joint/shapes_late.md
 * "The rate test's delays scored held out (h274)"; issue 28).
 *
 * Why.  thread_soft_pick=6/7's rate test (joint_thrtest.c) keeps the
 * receiving thread's term's solution S over the other solution T (the term
 * fitted, muted) when the thread's evidence G outweighs the delays' D =
 * l(T) - l(S), both under the model without the term, each fitted to its
 * own solution.  But T is the search's maximiser of exactly that
 * likelihood: D is measured in sample, on the pairs and the model the
 * search chose together to make it large (keepalive x2 ns seed 57: D 1,712
 * nats against G ~1,490, and T is 38 points less accurate; h273).
 *
 * The rule.  With thread_soft_heldout=1 D is cross-fitted: the top-level
 * requests are dealt into two halves (alternately in the order of their
 * first message, the same halves in both solutions), each half's pairs are
 * scored (joint_req_ll, the term muted) under the model fitted to the
 * other half of the same solution (joint_ux_heldout, joint_uxcheck.c), and
 * D = H(T) - H(S) replaces the in-sample difference; each solution is then
 * refitted to all of itself.  Metadata thread_soft_heldout= with both D
 * and, per link, the held-out difference where it is over 1 nat.  O(n)
 * (two fits per solution).
 */
#include "joint_int.h"

#include <stdlib.h>

/* half[q]: the parity of the ordinal of q's top-level request, requests
 * ordered by the smallest message of their root pair; 0 in a cycle */
static int halves(const joint *s, unsigned char *half, uint32_t *tmp)
{
    uint32_t n = s->npairs;
    size_t nm = s->v.n;
    uint32_t *rank = malloc((nm + 1) * sizeof *rank);
    if (!rank)
        return PB_ENOMEM;
    for (size_t i = 0; i < nm; i++)
        rank[i] = JOINT_NONE;
    for (uint32_t q = 0; q < n; q++) {
        if (s->par[q] != JOINT_NONE)
            continue;
        uint32_t m = s->pr[q].call;
        if (m == JOINT_NONE || (s->pr[q].ret != JOINT_NONE && s->pr[q].ret < m))
            m = s->pr[q].ret;
        if (m != JOINT_NONE && m < nm)
            rank[m] = q;
    }
    uint32_t k = 0;
    for (uint32_t q = 0; q < n; q++)
        tmp[q] = JOINT_NONE;
    for (size_t i = 0; i < nm; i++)
        if (rank[i] != JOINT_NONE)
            tmp[rank[i]] = k++;
    free(rank);
    for (uint32_t q = 0; q < n; q++) {
        uint32_t j = q, steps = 0;
        while (s->par[j] != JOINT_NONE && steps++ < n)
            j = s->par[j];
        half[q] = tmp[j] == JOINT_NONE ? 0 : (unsigned char)(tmp[j] & 1);
    }
    return PB_OK;
}

/* s's held-out log-likelihood without the term (per link into per[], nl
 * long, added); s refitted to all its pairs after, muted as was says */
static int heldout(joint *s, double *ll, double *per, int was)
{
    uint32_t n = s->npairs;
    unsigned char *half = malloc((size_t)n + 1), *only = malloc((size_t)n + 1);
    uint32_t *tmp = malloc(((size_t)n + 1) * sizeof *tmp);
    double *pq = malloc(((size_t)n + 1) * sizeof *pq);
    int rc = half && only && tmp && pq ? PB_OK : PB_ENOMEM;
    joint_thread_mute(s, 1);
    if (rc == PB_OK)
        rc = halves(s, half, tmp);
    if (rc == PB_OK)
        rc = joint_ux_heldout(s, half, only, ll, pq);
    if (rc == PB_OK)
        for (uint32_t q = 0; q < n; q++)
            if (s->pr[q].link < s->nlinks)
                per[s->pr[q].link] += pq[q];
    joint_thread_mute(s, was);
    int rc2 = joint_fit(s, NULL);
    free(half);
    free(only);
    free(tmp);
    free(pq);
    return rc != PB_OK ? rc : rc2;
}

int joint_thrheld_d(joint *s, joint *t, double *d)
{
    if (s->nlinks != t->nlinks)
        return PB_EINVAL;
    uint32_t nl = s->nlinks;
    double *per = calloc(2 * (size_t)nl + 1, sizeof *per);
    if (!per)
        return PB_ENOMEM;
    double hs = 0, ht = 0;
    int rc = heldout(s, &hs, per, 0);
    if (rc == PB_OK)
        rc = heldout(t, &ht, per + nl, 1);
    if (rc != PB_OK) {
        free(per);
        return rc;
    }
    for (uint32_t e = 0; e < nl; e++)
        per[e] = per[nl + e] - per[e]; /* T less S, per link */
    free(s->thrho_link);
    s->thrho_link = per;
    s->thrho[0] = 1;
    s->thrho[1] = *d; /* in sample */
    s->thrho[2] = ht - hs;
    *d = ht - hs;
    return PB_OK;
}

/* the record goes with whichever solution is kept */
void joint_thrheld_carry(joint *keep, joint *from)
{
    if (keep == from)
        return;
    for (int i = 0; i < 5; i++)
        keep->thrho[i] = from->thrho[i];
    free(keep->thrho_link);
    keep->thrho_link = from->thrho_link;
    from->thrho_link = NULL;
}

void joint_thrheld_free(joint *s)
{
    free(s->thrho_link);
    s->thrho_link = NULL;
}

int joint_thrheld_meta(const joint *s, pb_result *res)
{
    if (!(s->thrho[0] > 0))
        return PB_OK;
    int rc = pb_result_meta(res, "thread_soft_heldout=on delays_in_sample=%.1f delays_heldout=%.1f "
                            "rate_test=%s", s->thrho[1], s->thrho[2],
                            s->thrho[3] > 0 ? "with_term" : "without_term");
    for (uint32_t e = 0; s->thrho_link && e < s->nlinks && rc == PB_OK; e++)
        if (s->thrho_link[e] > 1 || s->thrho_link[e] < -1)
            rc = pb_result_meta(res, "thread_soft_heldout_link=%s>%s delays_heldout=%.1f",
                                pb_strtab_str(s->v.nodes, s->link_src[e]),
                                pb_strtab_str(s->v.nodes, s->link_dst[e]), s->thrho_link[e]);
    return rc;
}
