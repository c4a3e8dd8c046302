/*
 * joint_cfempty.c - conf_empty_twin: the calls an empty request could hold
 * (docs/joint/confidence_late.md, "Copy errors counted by the request (h269)").
 *
 * Where two long requests of one link overlap, the search can give one of
 * them both requests' calls and leave the other with none (held-out
 * shortlong seed 13 with call ids: nine `api` requests holding two reports'
 * calls, `client>fe[api[agg[db],agg[db],db,db,db,db,db]]`, and two `api`
 * requests with no call; 72 rows stated 0.996, 75 % right).  A call's share
 * prices its move, its exchange and its chain's move to another request, but
 * not the split of two requests' interleaved calls: moved one at a time, or
 * as a chain of triggers, every alternative breaks both requests' shapes.
 * The trace shows the sign, though: a request of a link whose requests
 * nearly all make calls holds none.
 *
 * The rule: per link, the share of its requests without a call (over the
 * links whose requests make calls at all); a request without a call on a
 * link where that share is at most conf_empty_twin_rate is *out of place*.
 * Every call p whose request q0 holds at least two calls of p's link, and
 * one of whose candidates is an out-of-place request of q0's link, is stated
 * at most conf_empty_twin_cap (which of the two requests each such call is
 * is a coin toss as far as the model can tell), and the rows below a capped
 * row at most it, after every other cap.  Rows right by construction are
 * left.  Confidences only.  Metadata `conf_empty_twin=1 empty_requests=
 * calls_capped= rows_lowered=`.
 */
#include "joint_int.h"
#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE

int joint_cfem_apply(joint *s, double *conf)
{
    memset(s->cfem_rec, 0, sizeof s->cfem_rec);
    uint32_t n = s->npairs, nl = s->nlinks;
    if (!s->p.conf_empty_twin || !n)
        return PB_OK;
    size_t *cnt = calloc(2 * ((size_t)nl + 1), sizeof *cnt);
    /* emp: out of place; low: 1 capped or below a capped row, 2 and lowered */
    unsigned char *emp = calloc((size_t)n + 1, 1), *low = calloc((size_t)n + 1, 1);
    if (!cnt || !emp || !low) {
        free(cnt);
        free(emp);
        free(low);
        return PB_ENOMEM;
    }
    /* per link: its requests, and those without a call */
    for (uint32_t q = 0; q < n; q++) {
        uint32_t l = s->pr[q].link;
        if (l >= nl)
            continue;
        cnt[2 * l]++;
        cnt[2 * l + 1] += s->kids[q].n == 0;
    }
    for (uint32_t q = 0; q < n; q++) {
        uint32_t l = s->pr[q].link;
        if (l >= nl || s->kids[q].n || cnt[2 * l + 1] >= cnt[2 * l])
            continue;
        if ((double)cnt[2 * l + 1] <= s->p.conf_empty_twin_rate * (double)cnt[2 * l]) {
            emp[q] = 1;
            s->cfem_rec[0]++;
        }
    }
    const double capv = s->p.conf_empty_twin_cap;
    for (uint32_t p = 0; s->cfem_rec[0] && p < n; p++) {
        uint32_t q0 = s->par[p];
        if (q0 == NONE || (s->conf_exempt && s->conf_exempt[p]))
            continue;
        /* q0 holds two or more calls of p's link */
        const kvec *k = &s->kids[q0];
        uint32_t same = 0;
        for (uint32_t i = 0; i < k->n && same < 2; i++)
            same += s->pr[k->a[i]].link == s->pr[p].link;
        if (same < 2)
            continue;
        int hit = 0;
        for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1] && !hit; j++) {
            uint32_t q = s->cand[j];
            hit = q != q0 && q < n && emp[q] && s->pr[q].link == s->pr[q0].link;
        }
        if (!hit)
            continue;
        s->cfem_rec[1]++;
        low[p] = 1;
        if (conf[p] > capv) {
            conf[p] = capv;
            low[p] = 2;
        }
    }
    /* the rows below a capped row at most it, to a fixed point */
    for (int changed = s->cfem_rec[1] > 0; changed;) {
        changed = 0;
        for (uint32_t j = 0; j < n; j++) {
            uint32_t q = s->par[j];
            if (q == NONE || !low[q] || (s->conf_exempt && s->conf_exempt[j]))
                continue;
            if (!low[j]) {
                low[j] = 1;
                changed = 1;
            }
            if (conf[q] < conf[j]) {
                conf[j] = conf[q];
                low[j] = 2;
                changed = 1;
            }
        }
    }
    for (uint32_t j = 0; j < n; j++)
        s->cfem_rec[2] += low[j] == 2;
    free(cnt);
    free(emp);
    free(low);
    return PB_OK;
}

int joint_cfem_meta(const joint *s, pb_result *res)
{
    if (!s->p.conf_empty_twin)
        return PB_OK;
    return pb_result_meta(res, "conf_empty_twin=1 rate=%g cap=%g empty_requests=%zu "
                          "calls_capped=%zu rows_lowered=%zu (the calls a request of their "
                          "link without any call could hold, where nearly every request of "
                          "that link makes calls)",
                          s->p.conf_empty_twin_rate, s->p.conf_empty_twin_cap, s->cfem_rec[0],
                          s->cfem_rec[1], s->cfem_rec[2]);
}
