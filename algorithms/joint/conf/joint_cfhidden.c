/*
 * joint_cfhidden.c - joint: calls that outlive their request hidden inside
 * another request are not right by construction (conf_late_hidden;
 * docs/joint/confidence_late.md, "Outliving calls hidden in a neighbour
 * request (h201)"; issue 28).
 *
 * Why.  The self-calibration leaves a row alone when every pair up to its
 * root has one candidate, was paired by call id and its caller has no
 * orphans (joint_selfcal.c, by_construction): no other request could hold
 * it.  At a late service (its calls can outlive their request: the
 * late-call test passed, joint_late.c) whose orphans late_attach placed,
 * the solution has no orphan left, yet a call that outlived its own
 * request and whose [send, return] another request of the caller encloses
 * is no orphan: its own request is no candidate (the link is widened for
 * orphans only), the enclosing one is its only candidate, and it is
 * stated 1 -- and wrong.  experiments/joint_apps_retry.conf with call ids
 * (asynchronous `pay` attempts timed out by the frontend), seed 11:
 * [0.999, 1] 2,080 rows, 98.85 % right, the 24 wrong rows 12 fe>pay
 * calls and their returns.  The copy cannot see it: its rows there are
 * exempt as well.
 *
 * How many such calls there are is measured on the trace already:
 * late_chance=2 (joint_lchance.c) weighs each orphan of a link by the
 * inverse of its chance of being missed, 1 / (1 - c) with c its own chance
 * of enclosure by some request of the sender, so the late calls the
 * orphans stand for number hit = late_share x calls, and those hidden
 * (enclosed by a request not their own) H = hit - orphans.
 *
 * The rule.  On a link judged by late_chance=2 (its sender late, not
 * widened whole), the exempt pairs that could be such a call -- sent
 * while another request of the sender (not its parent) was open, that
 * request ending before the call's return -- number N; each is stated at
 * most 1 - (H + 1) / (N + 2) (the hidden calls all taken to be among
 * them: a hidden call enclosed by several requests has rivals in its share
 * and goes through the copy's map, whose copy keeps outliving calls,
 * conf_sim_async), and every row below it at most its parent's.
 * Confidences only: every instance and parent is unchanged.  Applied to
 * the confidences the result carries (after late_trust read its own), so
 * no placement can depend on it.
 */
#include "joint_int.h"
#include "joint_rules.h"
#include "pb_sort.h"
#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE

typedef struct {
    pb_ns en, st;
    uint32_t q;
} cfh_iv;

static int cmp_en(const void *x, const void *y)
{
    const cfh_iv *a = x, *b = y;
    return a->en < b->en ? -1 : a->en > b->en ? 1 : a->q < b->q ? -1 : a->q > b->q;
}

int joint_cf_hidden(const joint *s, double *conf, pb_result *res)
{
    uint32_t nlinks_on = 0;
    size_t nrows = 0, nbelow = 0;
    uint32_t n = s->npairs, nn = s->nnodes, nl = s->nlinks;
    if (!s->p.conf_late_hidden || !s->lch_stat || !s->late_gap || !s->late_lshare ||
        !s->conf_exempt || !n)
        return PB_OK;
    double *cap = malloc(((size_t)nl + 1) * sizeof *cap);
    uint32_t *lc = calloc((size_t)nl + 1, sizeof *lc), *cnt = calloc((size_t)nl + 1, sizeof *cnt);
    double *hid = malloc(((size_t)nl + 1) * sizeof *hid);
    unsigned char *on = calloc((size_t)nl + 1, 1), *amb = calloc((size_t)n + 1, 1);
    uint32_t *off = calloc((size_t)nn + 2, sizeof *off);
    cfh_iv *iv = malloc(((size_t)n + 1) * sizeof *iv);
    int rc = cap && lc && cnt && hid && on && amb && off && iv ? PB_OK : PB_ENOMEM;
    /* the links judged by late_chance=2, and their hidden late calls */
    for (uint32_t q = 0; rc == PB_OK && q < n; q++)
        if (s->pr[q].call != NONE)
            lc[s->pr[q].link]++;
    int any = 0;
    for (uint32_t l = 0; rc == PB_OK && l < nl; l++) {
        const double *st = s->lch_stat + JOINT_LCH_NSTAT * (size_t)l;
        uint32_t a = s->link_src[l];
        if (!(st[0] > 0) || s->late_gap[a] < 0 || s->late_lshare[l] >= 0.5 || !(st[2] < 1))
            continue;
        double h = st[2] * lc[l] - st[0];
        hid[l] = h > 0 ? h : 0;
        on[l] = 1;
        any = 1;
    }
    if (rc != PB_OK || !any)
        goto done;
    /* each sender's requests (whole pairs) by end */
    for (uint32_t q = 0; q < n; q++)
        if (s->pr[q].call != NONE && s->pr[q].ret != NONE)
            off[s->pr[q].callee + 2]++;
    for (uint32_t b = 0; b < nn; b++)
        off[b + 2] += off[b + 1];
    for (uint32_t q = 0; q < n; q++)
        if (s->pr[q].call != NONE && s->pr[q].ret != NONE)
            iv[off[s->pr[q].callee + 1]++] = (cfh_iv){req_end(s, q), req_start(s, q), q};
    for (uint32_t b = 0; b < nn; b++)
        if (off[b + 1] - off[b] > 1)
            pb_sort(iv + off[b], off[b + 1] - off[b], sizeof *iv, cmp_en);
    /* the exempt pairs of those links that a request of the sender other
     * than their parent, open at their send and ended before their
     * return, could have left behind */
    for (uint32_t p = 0; p < n; p++) {
        const jpair *x = &s->pr[p];
        if (!on[x->link] || !s->conf_exempt[p] || s->par[p] == NONE || x->call == NONE ||
            x->ret == NONE)
            continue;
        uint32_t a = x->caller, lo = off[a], hi = off[a + 1];
        while (lo < hi) { /* the first request ending at or after the send */
            uint32_t m = lo + (hi - lo) / 2;
            if (iv[m].en < x->cs)
                lo = m + 1;
            else
                hi = m;
        }
        for (uint32_t i = lo; i < off[a + 1] && iv[i].en < x->rr; i++)
            if (iv[i].st <= x->cs && iv[i].q != s->par[p]) {
                amb[p] = 1;
                cnt[x->link]++;
                break;
            }
    }
    for (uint32_t l = 0; l < nl; l++)
        if (on[l] && cnt[l]) {
            cap[l] = 1 - (hid[l] + 1) / ((double)cnt[l] + 2);
            if (cap[l] < 0)
                cap[l] = 0;
            nlinks_on++;
        }
    /* the cap, then every row below a capped one at most its parent's
     * (pairs are in time order, a parent before its calls: to a fixed
     * point all the same) */
    for (uint32_t p = 0; p < n; p++)
        if (amb[p]) {
            amb[p] = 2;
            if (conf[p] > cap[s->pr[p].link]) {
                conf[p] = cap[s->pr[p].link];
                nrows++;
            }
        }
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t p = 0; p < n; p++) {
            uint32_t q = s->par[p];
            if (q == NONE || !amb[q] || amb[p])
                continue;
            amb[p] = 1;
            changed = 1;
            if (conf[p] > conf[q]) {
                conf[p] = conf[q];
                nbelow++;
            }
        }
    }
    /* metadata: each link judged, then the totals */
    for (uint32_t l = 0; rc == PB_OK && res && l < nl; l++)
        if (on[l] && cnt[l])
            rc = pb_result_meta(res, "conf_late_hidden_link=%s>%s hidden_late_calls=%.1f "
                                     "exempt_calls_open_to_it=%u stated_at_most=%.4f",
                                pb_strtab_str(s->v.nodes, s->link_src[l]),
                                pb_strtab_str(s->v.nodes, s->link_dst[l]), hid[l], cnt[l],
                                cap[l]);
    if (rc == PB_OK && res && nlinks_on)
        rc = pb_result_meta(res, "conf_late_hidden=1 links=%u rows_capped=%zu rows_below=%zu "
                                 "(calls that outlive their request may hide in another: "
                                 "not right by construction)",
                            nlinks_on, nrows, nbelow);
done:
    free(cap);
    free(lc);
    free(cnt);
    free(hid);
    free(on);
    free(amb);
    free(off);
    free(iv);
    return rc;
}
