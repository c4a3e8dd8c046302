/*
 * joint.c - joint maximum-likelihood request reconstruction (docs/joint.md).
 *
 * Steps (each O(messages x requests in flight at a service), with small
 * per-request factors):
 *   1. pair calls with returns (by call id, else first-in first-out per
 *      caller and callee, as nesting does);
 *   2. per service, on its own clock, the candidate parents of a call it
 *      makes are the requests it serves whose interval contains the call
 *      and its return (one sweep per service);
 *   3. the model: in a request, each output (a call it makes, or its
 *      response) is triggered by the latest earlier input of the same
 *      request (its arrival, or the return of one of its calls); delay
 *      densities per (incoming endpoint, trigger, output), kernel-smoothed
 *      histograms of log delay (GSL); and per (incoming endpoint, outgoing
 *      endpoint) the distribution of how many such calls a request makes;
 *   4. start first come, first served per endpoint, then alternate:
 *      refit the model from the current assignment and reassign every
 *      call to its cheapest candidate, the others fixed (or, with
 *      matching=flow, a min-cost flow per endpoint through GLPK's
 *      out-of-kilter solver, with convex per-request slot costs);
 *   5. exact re-split: for every two requests competing for a call, try
 *      every split of the calls both could own (at most 2^8), keep the most
 *      likely (triggers, response delay and call counts of both);
 *   6. without call ids, exchange the returns of overlapping calls of one
 *      link (with a re-split of theirs and their parents' calls) when the
 *      likelihood rises, then recompute candidates and repeat 4-5.
 * Paths are then built from the chosen parents (joint_paths.c).
 * Files: this one (call-graph file, one search's set-up, the driver),
 * joint_choose.c (which searches run), joint_options.c
 * (the option table),
 * joint_cand.c (1-2), joint_model.c (3), joint_search.c (4-5),
 * joint_repair.c (6 and the re-pairing), joint_paths.c (output).
 */
#include "pb_files.h"
#include "joint.h"
#include "pb_mem.h"
#include "pb_hash.h"
#include "joint_int.h"
#include "pb_algo.h"
#include "pb_tick.h"

#include <glpk.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_filter.h>
#include <gsl/gsl_histogram.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

#define NONE JOINT_NONE

/* ------------------------------------------------------------------ */
/* small growable u64 -> u32 hash map (links, density keys) */

uint32_t joint_hmap_get(const hmap *h, uint64_t k)
{
    if (!h->cap)
        return NONE;
    size_t mask = h->cap - 1;
    for (size_t j = pb_mix64(k) & mask; h->v[j] != NONE; j = (j + 1) & mask)
        if (h->k[j] == k)
            return h->v[j];
    return NONE;
}

int joint_hmap_put(hmap *h, uint64_t k, uint32_t v)
{
    if ((h->n + 1) * 2 > h->cap) {
        size_t nc = h->cap ? h->cap * 2 : 64;
        uint64_t *nk = malloc(nc * sizeof *nk);
        uint32_t *nv = malloc(nc * sizeof *nv);
        if (!nk || !nv) {
            free(nk);
            free(nv);
            return PB_ENOMEM;
        }
        for (size_t j = 0; j < nc; j++)
            nv[j] = NONE;
        for (size_t i = 0; i < h->cap; i++) {
            if (h->v[i] == NONE)
                continue;
            size_t j = pb_mix64(h->k[i]) & (nc - 1);
            while (nv[j] != NONE)
                j = (j + 1) & (nc - 1);
            nk[j] = h->k[i];
            nv[j] = h->v[i];
        }
        free(h->k);
        free(h->v);
        h->k = nk;
        h->v = nv;
        h->cap = nc;
    }
    size_t mask = h->cap - 1, j = pb_mix64(k) & mask;
    while (h->v[j] != NONE && h->k[j] != k)
        j = (j + 1) & mask;
    if (h->v[j] == NONE)
        h->n++;
    h->k[j] = k;
    h->v[j] = v;
    return PB_OK;
}

static void hmap_free(hmap *h)
{
    free(h->k);
    free(h->v);
    memset(h, 0, sizeof *h);
}

/* ------------------------------------------------------------------ */
/* kid lists (calls ascribed to a request, sorted by call time) */

static int kv_insert(joint *s, uint32_t q, uint32_t p)
{
    kvec *k = &s->kids[q];
    if (pb_grow32(&k->a, sizeof *k->a, &k->cap, k->n + 1, 4) != PB_OK)
        return PB_ENOMEM;
    uint32_t i = k->n;
    while (i > 0 && (s->pr[k->a[i - 1]].cs > s->pr[p].cs ||
                     (s->pr[k->a[i - 1]].cs == s->pr[p].cs && k->a[i - 1] > p))) {
        k->a[i] = k->a[i - 1];
        i--;
    }
    k->a[i] = p;
    k->n++;
    return PB_OK;
}

static void kv_remove(joint *s, uint32_t q, uint32_t p)
{
    kvec *k = &s->kids[q];
    uint32_t i = 0;
    while (i < k->n && k->a[i] != p)
        i++;
    if (i == k->n)
        return;
    memmove(k->a + i, k->a + i + 1, (size_t)(k->n - i - 1) * sizeof *k->a);
    k->n--;
}

int joint_set_parent(joint *s, uint32_t p, uint32_t q)
{
    if (s->par[p] == q)
        return PB_OK;
    if (s->par[p] != NONE) {
        kv_remove(s, s->par[p], p);
        if (s->lsm) /* resplit_memo (joint_lsmemo.c) */
            joint_lsmemo_touch(s, s->par[p]);
        if (s->gs) /* greedy_sorted (joint_gsort.c) */
            joint_gsort_touch(s, s->par[p]);
    }
    if (q != NONE && s->lsm)
        joint_lsmemo_touch(s, q);
    if (s->rl_chg) /* resolve_local (joint_resolve.c) */
        joint_resolve_touch(s, s->par[p], q);
    if (q != NONE && s->gs)
        joint_gsort_touch(s, q);
    s->par[p] = q;
    return q == NONE ? PB_OK : kv_insert(s, q, p);
}

/* ------------------------------------------------------------------ */

/* the rank start: per service, its requests in arrival order (its own
 * clock); per outgoing endpoint that the service calls about once per
 * request (as many calls as requests, within 5 %), its calls in send order
 * (pair order); the i-th call goes to the i-th request when that request
 * is one of its candidates.  PB_OK or PB_ENOMEM */
static int rank_start(joint *s)
{
    uint32_t n = s->npairs;
    insort *rq = malloc(((size_t)n + 1) * sizeof *rq);
    uint32_t *off = calloc((size_t)s->nnodes + 2, sizeof *off);
    uint32_t *fill = calloc((size_t)s->nnodes + 1, sizeof *fill);
    uint32_t *lrank = NULL; /* a link's calls, tied ones re-ranked (joint_tiecall.c) */
    int rc = rq && off && fill ? PB_OK : PB_ENOMEM;
    for (uint32_t q = 0; rc == PB_OK && q < n; q++)
        off[s->pr[q].callee + 1]++;
    for (uint32_t a = 0; rc == PB_OK && a < s->nnodes; a++)
        off[a + 1] += off[a];
    for (uint32_t q = 0; rc == PB_OK && q < n; q++) {
        uint32_t a = s->pr[q].callee;
        rq[off[a] + fill[a]++] = (insort){req_start(s, q), q};
    }
    for (uint32_t a = 0; rc == PB_OK && a < s->nnodes; a++)
        if (off[a + 1] - off[a] > 1) {
            pb_sort(rq + off[a], off[a + 1] - off[a], sizeof *rq, joint_cmp_insort);
            rc = joint_quant_rank_ties(s, rq + off[a], off[a + 1] - off[a]); /* joint_quant.c */
        }
    for (uint32_t l = 0; rc == PB_OK && l < s->nlinks; l++) {
        uint32_t a = s->link_src[l], k = 0, nq = off[a + 1] - off[a];
        uint32_t nl = s->bylink_off[l + 1] - s->bylink_off[l];
        /* only an endpoint called about once per request of the service
         * (within 5 %): otherwise the ranks do not line up */
        if (nl < 0.95 * nq || nl > 1.05 * nq)
            continue;
        s->rank_link[l] = 1;
        /* calls sent in one tick ranked by their returns (joint_tiecall.c) */
        const uint32_t *lc = s->bylink + s->bylink_off[l];
        if (joint_tiecall_applies(s) && !joint_rowtie_used(s, a)) {
            if (!lrank && !(lrank = malloc(((size_t)n + 1) * sizeof *lrank)))
                rc = PB_ENOMEM;
            if (rc == PB_OK)
                rc = joint_tiecall_rank(s, lc, nl, lrank);
            lc = lrank;
        }
        for (uint32_t i = 0; i < nl && k < nq && rc == PB_OK; i++, k++) {
            uint32_t p = lc[i], q = rq[off[a] + k].p;
            for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++)
                if (s->cand[j] == q) {
                    rc = joint_set_parent(s, p, q);
                    break;
                }
        }
    }
    free(rq);
    free(off);
    free(fill);
    free(lrank);
    return rc;
}

static int start_assign(joint *s);
static int solve(joint *s);
static int order_auto(joint *s);
static int order_service_test(joint *s);
static int rank_refuted(joint *s);
static int second_start(joint *s);
static int solve_from(joint *s, int resumed);
static int finish_one(joint *s);

static int init_state(joint *s)
{
    uint32_t n = s->npairs;
    s->par = malloc(((size_t)n + 1) * sizeof *s->par);
    s->kids = calloc((size_t)n + 1, sizeof *s->kids);
    s->stamp = calloc((size_t)n + 1, sizeof *s->stamp);
    s->loc = malloc(((size_t)n + 1) * sizeof *s->loc);
    s->loc2 = malloc(((size_t)n + 1) * sizeof *s->loc2);
    s->rqlist = malloc(((size_t)n + 1) * sizeof *s->rqlist);
    s->uf = malloc(((size_t)2 * n + 2) * sizeof *s->uf);
    s->comp_cnt = malloc(((size_t)2 * n + 3) * sizeof *s->comp_cnt);
    s->comp_ord = malloc(((size_t)2 * n + 2) * sizeof *s->comp_ord);
    s->cbuf = malloc(((size_t)n + 1) * sizeof *s->cbuf);
    s->rbuf = malloc(((size_t)n + 1) * sizeof *s->rbuf);
    s->chbuf = malloc(((size_t)n + 1) * sizeof *s->chbuf);
    s->bylink = malloc(((size_t)n + 1) * sizeof *s->bylink);
    s->bylink_off = calloc((size_t)s->nlinks + 2, sizeof *s->bylink_off);
    uint32_t maxout = 1;
    for (uint32_t a = 0; a < s->nnodes; a++)
        if (s->out_off[a + 1] - s->out_off[a] > maxout)
            maxout = s->out_off[a + 1] - s->out_off[a];
    s->ccount = calloc(maxout, sizeof *s->ccount);
    s->dirty = calloc((size_t)n + 1, sizeof *s->dirty);
    s->ord_inv = calloc((size_t)s->nlinks + 1, sizeof *s->ord_inv);
    s->ord_keep = calloc((size_t)s->nlinks + 1, sizeof *s->ord_keep);
    s->ord_n = calloc((size_t)s->nlinks + 1, sizeof *s->ord_n);
    s->ord_k = calloc((size_t)s->nlinks + 1, sizeof *s->ord_k);
    s->ord_first = malloc(((size_t)s->nlinks + 1) * sizeof *s->ord_first);
    s->ord_st1 = calloc((size_t)s->nlinks + 1, sizeof *s->ord_st1);
    s->ord_st2 = calloc((size_t)s->nlinks + 1, sizeof *s->ord_st2);
    if (!s->ord_inv || !s->ord_keep || !s->ord_n || !s->ord_k || !s->ord_first ||
        !s->ord_st1 || !s->ord_st2)
        return PB_ENOMEM;
    if (!s->dirty)
        return PB_ENOMEM;
    if (!s->par || !s->kids || !s->stamp || !s->loc || !s->loc2 || !s->rqlist || !s->uf ||
        !s->comp_cnt || !s->comp_ord || !s->cbuf || !s->rbuf || !s->chbuf || !s->bylink ||
        !s->bylink_off || !s->ccount)
        return PB_ENOMEM;
    s->epoch = 1;
    for (uint32_t p = 0; p < n; p++)
        s->bylink_off[s->pr[p].link + 1]++;
    for (uint32_t l = 0; l < s->nlinks; l++)
        s->bylink_off[l + 1] += s->bylink_off[l];
    uint32_t *fill = calloc((size_t)s->nlinks + 1, sizeof *fill);
    if (!fill)
        return PB_ENOMEM;
    for (uint32_t p = 0; p < n; p++) {
        uint32_t l = s->pr[p].link;
        s->bylink[s->bylink_off[l] + fill[l]++] = p;
    }
    free(fill);
    /* clean requests: no ambiguous call could be theirs, so their calls are
     * known; the first fit uses them alone (when there are enough) */
    s->clean = malloc((size_t)n + 1);
    if (!s->clean)
        return PB_ENOMEM;
    memset(s->clean, 1, (size_t)n + 1);
    for (uint32_t p = 0; p < n; p++)
        if (s->cand_off[p + 1] - s->cand_off[p] > 1)
            for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++)
                s->clean[s->cand[j]] = 0;
    size_t nclean = 0;
    for (uint32_t q = 0; q < n; q++)
        nclean += s->clean[q];
    s->nclean = nclean;
    if (nclean < 50 || nclean * 20 < n) {
        free(s->clean);
        s->clean = NULL;
    }
    /* start: first come, first served per endpoint.  start=rank: the i-th
     * call of an endpoint goes to the i-th request the service received
     * (all its incoming endpoints, by arrival on its clock), when that
     * request is a candidate; every call still without a parent (and all
     * calls with start=local) goes to the open candidate request that
     * arrived first among those with the fewest calls of its endpoint so
     * far */
    s->rank_link = calloc((size_t)s->nlinks + 1, 1);
    if (!s->rank_link)
        return PB_ENOMEM;
    for (uint32_t p = 0; p < n; p++)
        s->par[p] = NONE;
    return start_assign(s);
}

/* the first assignment (start=rank, local or earliest) of every call
 * without a parent.  PB_OK or PB_ENOMEM */
static int start_assign(joint *s)
{
    uint32_t n = s->npairs;
    int rc = PB_OK;
    if (s->start_rank)
        rc = rank_start(s);
    /* each request's calls of one link counted once and then kept up
     * (only this loop gives it calls here): a request with thousands of
     * calls was counted again for each (O(n^2)); the same counts.
     * cl[q]: the link counted (NONE: none), cc[q] its count */
    uint32_t *cl = rc == PB_OK ? malloc(((size_t)n + 1) * 2 * sizeof *cl) : NULL, *cc = NULL;
    if (rc == PB_OK && !cl)
        rc = PB_ENOMEM;
    if (cl) {
        cc = cl + n + 1;
        for (uint32_t q = 0; q <= n; q++)
            cl[q] = NONE;
    }
    for (uint32_t p = 0; p < n && rc == PB_OK; p++) {
        if (s->par[p] != NONE)
            continue;
        uint32_t best = NONE, bc = UINT32_MAX, l = s->pr[p].link;
        if (s->start_inner && s->start_inner[s->link_src[l]]) {
            /* recur_inner (joint_recur.c): the innermost open visit */
            for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++) {
                uint32_t q = s->cand[j];
                if (best == NONE || s->pr[q].cr > s->pr[best].cr ||
                    (s->pr[q].cr == s->pr[best].cr && q > best))
                    best = q;
            }
            if (best != NONE)
                rc = joint_set_parent(s, p, best);
            continue;
        }
        for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++) {
            uint32_t q = s->cand[j], c = 0;
            const kvec *k = &s->kids[q];
            if (!s->start_earliest && cl[q] == l) {
                c = cc[q];
            } else if (!s->start_earliest) {
                for (uint32_t i = 0; i < k->n; i++)
                    c += s->pr[k->a[i]].link == l;
                cl[q] = l;
                cc[q] = c;
            }
            if (best == NONE || c < bc ||
                (c == bc && (s->pr[q].cr < s->pr[best].cr ||
                             (s->pr[q].cr == s->pr[best].cr && q < best)))) {
                best = q;
                bc = c;
            }
        }
        if (best != NONE) {
            rc = joint_set_parent(s, p, best);
            if (cl[best] == l)
                cc[best]++;
        }
    }
    free(cl);
    return rc;
}

/* The tie test kept the start (joint_quant.c, which put the start's
 * returns back and cleared every parent): the start made again, requests
 * tied at their arrival now ranked in the order of their responses
 * (joint_quant_rank_ties), and the model refitted.  PB_OK or PB_ENOMEM */
static int quant_start_again(joint *s)
{
    memset(s->dirty, 0, ((size_t)s->npairs + 1) * sizeof *s->dirty);
    int rc = start_assign(s);
    return rc == PB_OK ? joint_refit_moved(s) : rc;
}

int joint_init_one(joint **out, const pb_trace_view *v, const joint_params *params,
                   pb_error *err, int pord, joint_selshare *share, const unsigned char *force)
{
    return joint_init_one_g(out, v, params, err, pord, share, force, NULL, NULL, 0);
}

/* init_one; with mate and gpar (unp_pieces' merge, joint_unpmerge.c) the
 * pairs and parents given: the set-up, then no search, one refit; warm
 * (held_warm, joint_heldwarm.c): the search from them */
int joint_init_one_g(joint **out, const pb_trace_view *v, const joint_params *params,
                     pb_error *err, int pord, joint_selshare *share,
                     const unsigned char *force, const uint32_t *mate, const uint32_t *gpar,
                     int warm)
{
    *out = NULL;
    if (!(v->columns & PB_COL_TYPE))
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "joint: the trace has no type column; the algorithm needs "
                            "call/return marks");
    if (v->n >= UINT32_MAX / 2)
        return pb_error_set(err, PB_ERANGE, NULL, 0, 0,
                            "joint: more than 2^31 messages");
    joint *s = calloc(1, sizeof *s);
    if (!s)
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    s->v = *v;
    s->p = *params;
    if (params->hold_svc) { /* its own copy (joint_partial.c) */
        s->hold_own = malloc(strlen(params->hold_svc) + 1);
        if (!s->hold_own) {
            free(s);
            return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
        }
        strcpy(s->hold_own, params->hold_svc);
        s->p.hold_svc = s->hold_own;
    }
    s->pord_hold = pord;
    s->selshare = share;
    s->force_unp = force;
    s->unpm_mate = mate;
    s->unpm_par = warm ? NULL : gpar;
    s->hwarm_par = warm ? gpar : NULL; /* held_warm (joint_heldwarm.c) */
    joint_unpf_setup(s); /* unp_freeze: the frozen pairs given (joint_unpfreeze.c) */
    s->nnodes = (uint32_t)pb_strtab_count(v->nodes);
    s->nb = (uint32_t)ceil(11.0 / s->p.bin);
    if (s->nb < 2)
        s->nb = 2;
    s->bg = log(s->p.floor / s->nb / s->p.bin);
    {
        pb_tick_info ti;
        pb_tick_detect(v->msgs, v->n, &ti);
        s->tick = ti.tick;
        /* rows spread by subtick keep the coarse stamps' verdict: their
         * gaps below a tick are made by the spread, not by the service
         * (busy_space reads them) */
        s->coarse = ti.coarse_ties || params->subtick_tick > 0;
        s->dmin = ti.tick > 20 ? 0.5 * (double)ti.tick : 10.0;
        s->quant_on = ti.coarse_ties && params->tie_test;
        s->qtick = ti.tick;
        if (params->subtick_tick > 0 && joint_subtick_tie_applies(v, params)) {
            /* rows spread over their ticks (joint_subtick.c): the tie test
             * still judges moves at the original tick */
            s->qtick = params->subtick_tick;
            s->quant_on = params->tie_test;
        }
    }
    glp_term_out(GLP_OFF);
    if (!s->p.matching || !strcmp(s->p.matching, "greedy"))
        s->use_flow = 0;
    else if (!strcmp(s->p.matching, "flow"))
        s->use_flow = 1;
    else {
        pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                     "option matching: \"%s\"; expected greedy or flow", params->matching);
        free(s);
        return PB_EINVAL;
    }
    if (!s->p.start || !strcmp(s->p.start, "rank"))
        s->start_rank = 1;
    else if (!strcmp(s->p.start, "earliest"))
        s->start_earliest = 1;
    else if (strcmp(s->p.start, "local")) {
        pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                     "option start: \"%s\"; expected rank, local or earliest", params->start);
        free(s);
        return PB_EINVAL;
    }
    if (!s->p.order || !strcmp(s->p.order, "auto"))
        s->order_mode = 2;
    else if (!strcmp(s->p.order, "on") || !strcmp(s->p.order, "1"))
        s->order_mode = 1;
    else if (!strcmp(s->p.order, "off") || !strcmp(s->p.order, "0"))
        s->order_mode = 0;
    else {
        pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                     "option order: \"%s\"; expected auto, on or off", params->order);
        free(s);
        return PB_EINVAL;
    }
    s->order_active = s->order_mode == 1;
    if (s->p.callers && strcmp(s->p.callers, "auto") && strcmp(s->p.callers, "keyed") &&
        strcmp(s->p.callers, "pooled")) {
        pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                     "option callers: \"%s\"; expected auto, keyed or pooled", params->callers);
        free(s);
        return PB_EINVAL;
    }
    if (s->p.tick_ivl && strcmp(s->p.tick_ivl, "auto") && strcmp(s->p.tick_ivl, "on") &&
        strcmp(s->p.tick_ivl, "off")) {
        pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                     "option tick_ivl: \"%s\"; expected auto, on or off", params->tick_ivl);
        free(s);
        return PB_EINVAL;
    }
    if (s->p.out_sets && strcmp(s->p.out_sets, "auto") && strcmp(s->p.out_sets, "on") &&
        strcmp(s->p.out_sets, "off")) {
        pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                     "option out_sets: \"%s\"; expected auto, on or off", params->out_sets);
        free(s);
        return PB_EINVAL;
    }
    int rc = joint_tick0_setup(s); /* whole-tick delays (joint_tick0.c) */
    if (rc != PB_OK) {
        joint_close(s);
        return pb_error_set(err, rc, NULL, 0, 0, "out of memory");
    }
    s->pair_of_msg = malloc((v->n + 1) * sizeof *s->pair_of_msg);
    if (!s->pair_of_msg)
        rc = PB_ENOMEM;
    if (rc == PB_OK) /* conf_copy_warm: a calibration copy's truth (joint_scwarm.c) */
        rc = joint_scw_given(s);
    if (rc == PB_OK) /* pairs_share: or the first search's (joint_pshare.c) */
        rc = joint_pshare_find(s, share);
    if (rc == PB_OK)
        rc = joint_find_links(s);
    if (rc == PB_OK) /* key_room: the per-key arrays' room at once (joint_keyroom.c) */
        rc = joint_keyroom_reserve(s, joint_keyroom_hint(s, share));
    if (rc == PB_OK && s->p.callgraph && *s->p.callgraph) {
        rc = joint_read_callgraph(s, err);
        if (rc != PB_OK) {
            joint_close(s);
            return rc == PB_ENOMEM ? pb_error_set(err, rc, NULL, 0, 0, "out of memory") : rc;
        }
    }
    if (rc == PB_OK)
        rc = joint_find_candidates(s);
    if (rc == PB_OK)
        rc = joint_late_test(s);
    if (rc == PB_OK && s->late_gap) {
        joint_la_hold(s); /* orphans held during the search (joint_lateattach.c) */
        rc = joint_find_candidates(s);
    }
    if (rc == PB_OK)
        rc = joint_lc_setup(s); /* how many calls outlive their request (joint_latecount.c) */
    if (rc == PB_OK)
        rc = init_state(s);
    if (rc == PB_OK && s->hwarm_par) /* held_warm: the free parents (joint_heldwarm.c) */
        rc = joint_heldwarm_apply(s);
    if (rc == PB_OK)
        rc = joint_tick0_learn(s); /* zero-tick delays (joint_tick0.c) */
    if (rc == PB_OK && s->order_mode == 2)
        rc = order_service_test(s);
    if (rc == PB_OK)
        rc = joint_partial_setup(s); /* busy_partial's links (joint_partial.c) */
    if (rc == PB_OK)
        rc = joint_select(s);
    if (rc == PB_OK)
        rc = joint_os_select(s); /* the set of calls per endpoint (joint_oset.c) */
    if (rc == PB_OK && gpar && !warm) { /* unp_pieces' merge: no search (joint_unpmerge.c) */
        rc = joint_unpm_finish(s);
        s->unpm_mate = s->unpm_par = NULL;
        s->force_unp = NULL;
        if (rc != PB_OK) {
            joint_close(s);
            return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
        }
        *out = s;
        return PB_OK;
    }
    if (rc == PB_OK && s->p.uwl_chg) /* unp_wlocal's open requests (joint_unpwlocal.c) */
        rc = joint_uwl_setup(s);
    if (rc == PB_OK)
        rc = joint_quant_snapshot(s); /* the tie test (joint_quant.c) */
    if (rc == PB_OK)
        rc = joint_repair_rounds(s);
    if (rc == PB_OK && !s->svc_r) { /* sv_cut: paused in the rounds (joint_svcut.c) */
        s->sv_mark = s->p.sv_lazy > 0; /* sv_lazy: the main solve may pause (joint_sv.c) */
        rc = rc == PB_OK ? solve(s) : rc;
        s->sv_mark = 0;
    }
    if (rc == PB_OK && s->sv_paused) { /* sv_lazy: the rest when resumed */
        *out = s;
        return PB_OK;
    }
    rc = rc == PB_OK ? finish_one(s) : rc;
    if (rc != PB_OK) {
        joint_close(s);
        if (rc == PB_ERANGE)
            return pb_error_set(err, rc, NULL, 0, 0,
                                "joint: too many links or candidates for 32-bit indices");
        return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
    }
    s->force_unp = NULL;
    if (warm) /* held_warm: given for the set-up only */
        s->unpm_mate = s->hwarm_par = NULL;
    joint_scw_done(s); /* conf_copy_warm: the same (joint_scwarm.c) */
    *out = s;
    return PB_OK;
}

/* The search after its main solve: the second start, the later rules,
 * the last refits (joint_init_one_g's tail; sv_lazy resumes a paused
 * search here, joint_sv.c).  PB_OK, PB_ENOMEM or PB_ERANGE */
static int finish_one(joint *s)
{
    int rc = PB_OK;
    if (rc == PB_OK && s->p.restart && s->start_rank && rank_refuted(s))
        rc = second_start(s);
    if (rc == PB_OK)
        rc = joint_recur_run(s); /* recur_inner (joint_recur.c) */
    if (rc == PB_OK)
        rc = joint_uncross(s); /* crossings at a loss (joint_uncross.c) */
    if (rc == PB_OK)
        rc = joint_tieorder_run(s); /* order_cross (joint_tieorder.c) */
    if (rc == PB_OK)
        rc = joint_refit(s); /* refit_skip_same (joint_search.c) */
    if (rc == PB_OK)
        rc = joint_fit_order(s);
    if (rc == PB_OK && s->order_mode == 2)
        rc = order_auto(s);
    if (rc == PB_OK)
        rc = joint_quant_decide(s); /* the tie test (joint_quant.c) */
    if (rc == PB_OK && s->quant_state == 3)
        rc = quant_start_again(s);
    if (rc == PB_OK && s->quant_state == 3)
        rc = joint_tiecross_apply(s); /* tie_cross (joint_tiecross.c) */
    if (rc == PB_OK && s->tset_spar)
        rc = joint_tieset_after(s); /* tie_sets=3 (joint_tieset.c) */
    if (rc == PB_OK && s->late_hold) {
        rc = joint_la_attach(s); /* the held orphans placed (joint_lateattach.c) */
        if (rc == PB_OK)
            rc = joint_fit(s, NULL);
        if (rc == PB_OK)
            rc = joint_fit_order(s);
    }
    if (rc == PB_OK && joint_tickx_apply(s) != PB_OK) /* tick_fifo (joint_tickx.c) */
        rc = PB_ENOMEM;
    return rc;
}

/* sv_lazy (joint_sv.c): a search paused after its main solve's first
 * refit, run on to its end as it would have run at once */
int joint_sv_resume(joint *s)
{
    if (s->svc_r) /* sv_cut: paused in the re-pairing rounds */
        return joint_svc_resume(s, 0);
    if (s->svp_paused) /* sv_pre: paused before the main solve */
        return joint_svp_resume_to(s, 0);
    s->sv_paused = 0;
    int rc = solve_from(s, 1);
    rc = rc == PB_OK ? finish_one(s) : rc;
    s->force_unp = NULL;
    return rc;
}

/* the end of a resumed search (sv_pre's or sv_cut's): sv_lazy's raise
 * undone where it never paused, else left paused; finished when it ran to
 * its end */
static int resume_end(joint *s, int to_mark, int rc)
{
    if (to_mark && s->p.sv_lazy >= 10)
        s->p.sv_lazy -= 10; /* it never paused */
    if (rc == PB_OK && s->sv_paused)
        return PB_OK;
    rc = rc == PB_OK ? finish_one(s) : rc;
    s->force_unp = NULL;
    return rc;
}

/* sv_pre (joint_svpre.c): paused in the main solve's first round after
 * its refit; run on from there (the refit not made again), to sv_lazy's
 * mark (to_mark: paused there as init_choose's free search would be) or
 * to its end */
int joint_svp_resume_to(joint *s, int to_mark)
{
    s->svp_paused = 0;
    s->sv_paused = 0;
    s->svp_skip = 1;
    if (to_mark) {
        s->p.sv_lazy += 10;
        s->sv_mark = 1;
    }
    int rc = solve_from(s, 0);
    s->sv_mark = 0;
    s->svp_skip = 0;
    return resume_end(s, to_mark, rc);
}

int joint_svc_resume(joint *s, int to_mark)
{
    int r = s->svc_r - 1;
    s->svc_r = 0;
    s->sv_paused = 0;
    if (to_mark)
        s->p.sv_lazy += 10; /* as init_choose raised it: the mark may pause it */
    int rc = joint_repair_rounds_from(s, r, 1);
    if (rc == PB_OK) {
        s->sv_mark = s->p.sv_lazy > 0;
        rc = solve(s);
        s->sv_mark = 0;
    }
    return resume_end(s, to_mark, rc);
}

/* joint_init_search; then, with reunp=2 under loss, reunp checked on a
 * copy (joint_reunpck.c; its copy runs joint_init_search, not this); with
 * loss_serial=7 without loss, the serial term checked (joint_lserial.c) */
int joint_init(joint **out, const pb_trace_view *v, const joint_params *params,
               pb_error *err)
{
    if (joint_thrpick_wanted(params)) /* thread_soft_pick=2 (joint_thrpick.c) */
        return joint_thrpick_init(out, v, params, err);
    joint *s = NULL;
    unsigned char *force = NULL;
    int rc = joint_init_search(&s, v, params, err, &force);
    if (rc != PB_OK)
        return rc;
    /* unpaired=3: the second search kept only when the model finds its
     * requests likelier and a copy of the trace agrees (joint_unpck.c) */
    if (s->unp_first) {
        joint *f = s->unp_first;
        s->unp_first = NULL;
        int take = 0;
        joint *mg = NULL; /* unp_pieces' merged solution (joint_unpmerge.c) */
        rc = s->p.unp_pieces && s->p.unpaired == 1 ? joint_unpp_take(f, s, &take) : joint_unpck_take(f, s, &take);
        if (rc == PB_OK && s->p.unp_pieces && s->p.unpaired == 1 && !take)
            rc = joint_unpm_build(&mg, v, f, s, err);
        if (rc != PB_OK) {
            free(force);
            joint_close(f);
            joint_close(s);
            return rc == PB_ENOMEM ? pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory") : rc;
        }
        /* unp_win's record (joint_unpwin.c) goes with the output */
        joint *o = mg ? mg : take ? s : f;
        o->unpw_on = s->unpw_on;
        o->unpw_seeds = s->unpw_seeds;
        o->unpw_msgs = s->unpw_msgs;
        o->unpw_pairs[0] = s->unpw_pairs[0];
        o->unpw_pairs[1] = s->unpw_pairs[1];
        if (mg || (take && s->unpw_on == 1))
            joint_unpm_align_carry(o, f); /* h199: align_link lines (joint_unpmerge.c) */
        if (mg) {
            joint_close(f);
            joint_close(s);
            s = mg;
        } else if (take) {
            joint_close(f);
        } else {
            joint_unpck_revert(f, s);
            joint_close(s);
            s = f;
            free(force);
            force = NULL;
        }
    }
    /* reunp=2: reunp used when it helps on a copy of the solution
     * (joint_reunpck.c); then the same search runs again with it */
    if (s->p.reunp == 2 && joint_reunp_wanted(s)) {
        int use = 0;
        rc = joint_reunp_copytest(s, &use);
        joint *t = NULL;
        if (rc == PB_OK && use) {
            joint_params pr = s->p;
            pr.reunp = 1;
            rc = joint_init_one(&t, v, &pr, err, s->pord_hold, NULL, s->unp_rerun ? force : NULL);
            if (rc == PB_OK) {
                joint_reunp_adopt(t, s);
                joint_close(s);
                s = t;
            }
        }
        if (rc != PB_OK) {
            free(force);
            joint_close(s);
            return rc == PB_ENOMEM ? pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory")
                                   : rc;
        }
    }
    /* loss_serial=7|8 (joint_lserial.c): with call ids and no loss, where
     * the serial test calls a link serial, the same search again with the
     * term (4); kept when the model without the term finds it likelier
     * (7: in sample by 10 nats; 8, the default: cross-fitted) */
    int nser = joint_lser_wanted(s);
    if (nser > 0 && s->p.loss_serial == 8 && s->p.loss_serial_win && !s->lser_bbck) {
        /* loss_serial_win: from the first solution, the window only (joint_lserwin.c) */
        rc = joint_lserwin_run(s, nser);
        if (rc != PB_OK) {
            free(force);
            joint_close(s);
            return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
        }
        nser = 0;
    }
    if (nser != 0) {
        joint_params pr = s->p;
        if (s->lser_bbck) /* bb_serial=7 (joint_bbser.c): without call ids */
            pr.bb_serial = 3;
        else
            pr.loss_serial = 4;
        joint *t = NULL;
        if (nser > 0 && s->lser_bbck && s->p.bb_serial_warm && !(s->unp_rerun && force))
            rc = joint_bbser_second(&t, s, v, &pr, err); /* bb_serial_warm (joint_bbser.c) */
        else
            rc = nser < 0 ? PB_ENOMEM
                          : joint_init_one(&t, v, &pr, err, s->pord_hold, NULL,
                                           s->unp_rerun ? force : NULL);
        if (rc != PB_OK) {
            free(force);
            joint_close(s);
            return rc == PB_ENOMEM ? pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory")
                                   : rc;
        }
        if (s->lser_bbck && s->p.bb_serial_seeds > 0 && s->bbw_rec[7] == 3 &&
            joint_bbseeds_after(s, t) != PB_OK) { /* joint_bbseeds.c */
            joint_close(t);
            free(force);
            joint_close(s);
            return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "joint: out of memory");
        }
        joint *drop = t;
        int take = s->p.loss_serial == 8 && !s->lser_bbck ? joint_lser_choose_x(s, t, nser)
                                                          : joint_lser_choose(s, t, nser);
        if (s->lser_bbck && s->p.bb_serial_seeds > 0 && s->bbw_rec[7] == 3)
            take = joint_bbseeds_keep(s, t, take); /* bb_serial_removed (joint_bbseeds.c) */
        if (take < 0) {
            joint_close(t);
            free(force);
            joint_close(s);
            return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "joint: out of memory");
        }
        if (take) {
            drop = s;
            s = t;
        }
        joint_close(drop);
    }
    free(force);
    *out = s;
    return PB_OK;
}

/* steps 2-5 of the search from the current assignment.  PB_OK or
 * PB_ENOMEM */
static int solve(joint *s)
{
    return solve_from(s, 0);
}

/* solve; resumed (sv_lazy, joint_sv.c): from the first swap pass, the
 * first solve and refit made before the pause */
static int solve_from(joint *s, int resumed)
{
    int rc = PB_OK;
    for (int outer = 0; rc == PB_OK && outer <= s->p.swap_rounds; outer++) {
        size_t sw = 0;
        if (!resumed || outer) {
            rc = joint_solve_rounds(s, 1, s->p.passes);
            if (rc == PB_OK && s->svp_paused)
                return rc; /* sv_pre (joint_svpre.c) */
            if (rc != PB_OK || outer == s->p.swap_rounds)
                break;
            rc = joint_refit(s); /* refit_skip_same (joint_search.c) */
            if (rc == PB_OK && outer == 0 && s->sv_mark) {
                rc = joint_sv_mark(s); /* sv_lazy: the free search may pause here */
                if (rc != PB_OK || s->sv_paused)
                    return rc;
            }
        }
        if (rc == PB_OK)
            rc = joint_resolve_begin(s); /* resolve_local (joint_resolve.c) */
        if (rc == PB_OK)
            rc = joint_swap_pass(s, &sw);
        s->ret_swaps += sw;
        if (rc == PB_OK && sw == 0) {
            joint_resolve_end(s);
            /* joint_refit: refitted above, the pass exchanged nothing */
            s->rounds_fresh = 1;
            break;
        }
        if (rc == PB_OK)
            rc = joint_recandidate(s);
    }
    return rc;
}

/* Does the solution refute the rank start?  Only with every pair made by
 * call id (then the pairs and candidates are fixed and a second solve
 * depends on the assignment alone): some ranked endpoint is called exactly
 * once by fewer than JOINT_RESTART_ONE of the requests of its service (it
 * was ranked because it has about as many calls as the service has
 * requests; in children-0-2 half the requests call it twice and half
 * never, and the ranks give every request one call). */
static int rank_refuted(joint *s)
{
    uint32_t nl = s->nlinks;
    for (uint32_t p = 0; p < s->npairs; p++)
        if (s->free_ret[p])
            return 0;
    uint32_t *one = calloc((size_t)nl + 1, sizeof *one), *tot = calloc((size_t)nl + 1, sizeof *tot);
    uint32_t *cnt = calloc((size_t)nl + 1, sizeof *cnt);
    int refuted = 0;
    if (!one || !tot || !cnt) {
        free(one);
        free(tot);
        free(cnt);
        return 0; /* out of memory: no second start */
    }
    for (uint32_t q = 0; q < s->npairs; q++) {
        const kvec *k = &s->kids[q];
        for (uint32_t i = 0; i < k->n; i++)
            cnt[s->pr[k->a[i]].link]++;
        uint32_t a = s->pr[q].callee;
        for (uint32_t j = s->out_off[a]; j < s->out_off[a + 1]; j++) {
            uint32_t l = s->out_links[j];
            if (!s->rank_link[l])
                continue;
            tot[l]++;
            one[l] += cnt[l] == 1;
        }
        for (uint32_t i = 0; i < k->n; i++)
            cnt[s->pr[k->a[i]].link] = 0;
    }
    for (uint32_t l = 0; l < nl; l++)
        if (s->rank_link[l] && tot[l] && one[l] < JOINT_RESTART_ONE * tot[l])
            refuted = 1;
    free(one);
    free(tot);
    free(cnt);
    return refuted;
}

/* Solve again from start=earliest and keep the likelier solution (by
 * more than JOINT_RESTART_MARGIN nats, each under its own refit model);
 * the first is restored otherwise.  PB_OK or PB_ENOMEM */
static int second_start(joint *s)
{
    uint32_t n = s->npairs;
    int rc = joint_fit(s, NULL);
    if (rc != PB_OK)
        return rc;
    s->ll_first = joint_loglik(s);
    uint32_t *keep = malloc(((size_t)n + 1) * sizeof *keep);
    if (!keep)
        return PB_ENOMEM;
    memcpy(keep, s->par, (size_t)n * sizeof *keep);
    for (uint32_t p = 0; p < n && rc == PB_OK; p++)
        if (s->par[p] != NONE)
            rc = joint_set_parent(s, p, NONE);
    memset(s->dirty, 0, ((size_t)n + 1) * sizeof *s->dirty);
    s->start_rank = 0;
    s->start_earliest = 1;
    if (rc == PB_OK)
        rc = start_assign(s);
    if (rc == PB_OK)
        rc = solve(s);
    if (rc == PB_OK)
        rc = joint_fit(s, NULL);
    if (rc == PB_OK) {
        s->ll_second = joint_loglik(s);
        s->restart = 1;
        if (s->ll_second > s->ll_first + JOINT_RESTART_MARGIN)
            s->restart = 2;
        else
            for (uint32_t p = 0; p < n && rc == PB_OK; p++)
                if (s->par[p] != keep[p])
                    rc = joint_set_parent(s, p, keep[p]);
    }
    s->start_rank = 1;
    s->start_earliest = 0;
    free(keep);
    return rc;
}

int joint_solve_fresh(joint *s)
{
    int rc = PB_OK;
    for (uint32_t p = 0; p < s->npairs && rc == PB_OK; p++)
        if (s->par[p] != NONE)
            rc = joint_set_parent(s, p, NONE);
    memset(s->dirty, 0, ((size_t)s->npairs + 1) * sizeof *s->dirty);
    if (rc == PB_OK)
        rc = start_assign(s);
    return rc == PB_OK ? solve(s) : rc;
}

int joint_solve_more(joint *s)
{
    return solve(s);
}

/* order=auto, before the search: the response-order test per service
 * (docs/joint/search.md, "Order of service").  Of its requests paired by call id,
 * taken in arrival order, two consecutive ones that overlap (the second
 * arrives before the first is answered; ties at the tick say nothing) are
 * in question, and the second is answered first (overtakes) in k of n.
 * A service answers in arrival order when k is too small for a rate of
 * JOINT_ORDER_RHO0 (one-sided binomial test at level JOINT_ORDER_ALPHA);
 * then the term is on for its endpoints, with that service's overtaking
 * rate (joint_fit_order).  No assignment enters: only whole pairs.
 * PB_OK or PB_ENOMEM */
static int order_service_test(joint *s)
{
    uint32_t nn = s->nnodes;
    s->ord_on = calloc((size_t)s->nlinks + 1, 1);
    /* zeroed: the metadata reads it where order_auto never ran (unp_pieces'
     * merge, joint_search_given) */
    s->ord_p = calloc(((size_t)s->nlinks + 1) * 3, sizeof *s->ord_p);
    s->svc_ord = calloc(((size_t)nn + 1) * 3, sizeof *s->svc_ord);
    insort *rq = malloc(((size_t)s->npairs + 1) * sizeof *rq);
    uint32_t *off = calloc((size_t)nn + 2, sizeof *off), *fill = calloc((size_t)nn + 1, sizeof *fill);
    int rc = s->ord_on && s->ord_p && s->svc_ord && rq && off && fill ? PB_OK : PB_ENOMEM;
    /* per service, its whole requests paired by call id in arrival order:
     * of two consecutive ones that overlap, does the later answer first? */
    for (uint32_t q = 0; rc == PB_OK && q < s->npairs; q++)
        if (s->pr[q].call != NONE && s->pr[q].ret != NONE && !s->free_ret[q])
            off[s->pr[q].callee + 1]++;
    for (uint32_t a = 0; rc == PB_OK && a < nn; a++)
        off[a + 1] += off[a];
    for (uint32_t q = 0; rc == PB_OK && q < s->npairs; q++)
        if (s->pr[q].call != NONE && s->pr[q].ret != NONE && !s->free_ret[q]) {
            uint32_t a = s->pr[q].callee;
            rq[off[a] + fill[a]++] = (insort){s->pr[q].cr, q};
        }
    for (uint32_t a = 0; rc == PB_OK && a < nn; a++) {
        uint32_t n = off[a + 1] - off[a];
        if (n > 1)
            pb_sort(rq + off[a], n, sizeof *rq, joint_cmp_insort);
        double in = 0, ov = 0;
        for (uint32_t i = off[a] + 1; i < off[a + 1]; i++) {
            const jpair *x = &s->pr[rq[i - 1].p], *y = &s->pr[rq[i].p];
            if (y->cr >= x->rs || y->cr == x->cr || y->rs == x->rs)
                continue; /* no overlap, or a tie: not in question */
            in++;
            ov += y->rs < x->rs;
        }
        s->svc_ord[3 * a + 1] = in;
        s->svc_ord[3 * a + 2] = ov;
        s->svc_ord[3 * a] = in > 0 ? gsl_cdf_binomial_P((unsigned)ov, JOINT_ORDER_RHO0,
                                                          (unsigned)in) : 1.0;
    }
    free(rq);
    free(off);
    free(fill);
    if (rc != PB_OK)
        return rc;
    for (uint32_t l = 0; l < s->nlinks; l++)
        if (s->svc_ord[3 * s->link_src[l]] < JOINT_ORDER_ALPHA)
            s->ord_on[l] = s->order_active = 1;
    return PB_OK;
}

/* order=auto, after the solve: the order test per endpoint on the
 * solution found without the term (its first calls whose order was in
 * question are too rarely inverted for a rate of JOINT_ORDER_RHO0); when
 * it adds endpoints, the search resumes with the term on for them.
 * PB_OK or PB_ENOMEM */
static int order_auto(joint *s)
{
    int rc = PB_OK;
    int any = 0;
    for (uint32_t l = 0; l < s->nlinks; l++) {
        unsigned n = (unsigned)s->ord_n[l], k = (unsigned)s->ord_k[l];
        double pv = n ? gsl_cdf_binomial_P(k, JOINT_ORDER_RHO0, n) : 1.0;
        s->ord_p[3 * l] = pv;
        s->ord_p[3 * l + 1] = n;
        s->ord_p[3 * l + 2] = k;
        if (n > 0 && pv < JOINT_ORDER_ALPHA && !s->ord_on[l])
            s->ord_on[l] = any = 1;
    }
    if (!any)
        return PB_OK;
    s->order_active = 1;
    rc = joint_solve_rounds(s, 1, s->p.passes);
    if (rc == PB_OK)
        rc = joint_refit(s); /* refit_skip_same (joint_search.c) */
    return rc;
}

/* Frees one solution; the first search a copy kept (unp_first) is freed by
 * joint_close's loop, so no call here reaches itself (test_no_recursion). */
static void close_one(joint *s)
{
    joint_subtick_free(s->subtick);
    joint_llkeep_free(s); /* conf_ll_keep */
    joint_rpinc_free(s); /* repair_incr (joint_rpinc.c) */
    joint_gdamp_free(s); /* greedy_damp (joint_rpdamp.c) */
    joint_cfa_free(s); /* conf_alike (joint_cfalike.c) */
    free(s->cftw_ps); /* conf_twin=2 (joint_cftwin.c) */
    joint_cfev_reset(s); /* conf_copy_events (joint_cfev.c) */
    joint_scw_free(s); /* conf_copy_warm (joint_scwarm.c) */
    free(s->unpf_fz); /* unp_freeze (joint_unpfreeze.c) */
    free(s->uwl_open); /* unp_wlocal (joint_unpwlocal.c) */
    free(s->tickx);
    if (s->kids)
        for (uint32_t q = 0; q < s->npairs; q++)
            free(s->kids[q].a);
    void *f[] = {s->pr, s->pair_of_msg, s->cand_off, s->cand, s->par, s->kids,
                 s->link_src, s->link_dst, s->out_off, s->out_links, s->link_local,
                 s->cnt_off, s->cnt, s->cntlp, s->allowed, s->hist, s->logf, s->kstat,
                 s->hrow, s->lrow, s->mpool, /* joint_mrow.c */
                 s->scratch, s->edit, s->ccount, s->stamp, s->loc, s->loc2, s->rqlist,
                 s->uf, s->comp_cnt, s->comp_ord, s->cbuf, s->rbuf, s->chbuf,
                 s->bylink, s->bylink_off, s->rank_link, s->dk_off, s->dk_key, s->dk_par, s->logc,
                 s->conf_stat, s->scal_stat, s->conf_exempt};
    joint_unpaired_free(s->unp_rec, s->nunp_rec);
    joint_unpp_free(s);
    for (size_t i = 0; i < sizeof f / sizeof *f; i++)
        free(f[i]);
    hmap_free(&s->linkmap);
    hmap_free(&s->keymap);
    hmap_free(&s->parmap);
    free(s->rowtie_st);
    joint_thread_free(s);
    free(s->pov);
    joint_lser_free(s);
    free(s->pse);
    free(s->pflag);
    free(s->pever);
    hmap_free(&s->seen);
    if (s->wr)
        for (int i = 0; i < 4; i++)
            joint_wrec_free(&s->wr[i]);
    free(s->wr);
    joint_resplit_free(s);
    joint_xwalk_free(s); /* joint_xwalk.c */
    joint_ff_free(s);
    joint_greedy_free(s);
    joint_lsmemo_free(s);
    joint_wcache_free(s);
    joint_vcache_free(s);
    joint_gsort_free(s);
    joint_lsg_free(s); /* joint_lsgreedy.c */
    joint_tcache_free(s);
    hmap_free(&s->corrmap);
    free(s->cst);
    free(s->cpar);
    free(s->sure);
    free(s->cdur);
    free(s->cdir);
    free(s->cdir_spare);
    free(s->cldur);
    free(s->rsbuf);
    free(s->qend);
    free(s->hmax);
    free(s->kmean);
    free(s->free_ret);
    free(s->fifo_link);
    free(s->align_rec);
    joint_rord_free(s);
    free(s->pord_stat);
    free(s->pick_stat);
    free(s->qpar);
    free(s->qret);
    free(s->qcross);
    free(s->tset_spar);
    free(s->tset_sret);
    free(s->fifo_stat);
    free(s->flifo); /* fifo_lifo (joint_fifolifo.c) */
    joint_thrheld_free(s); /* thread_soft_heldout (joint_thrheld.c) */
    free(s->fifo_svc);
    free(s->late_gap);
    free(s->late_sgap);
    free(s->late_lshare);
    free(s->late_stat);
    free(s->lch_stat); /* late_chance (joint_lchance.c) */
    free(s->ltl_pi); /* late_tie_learn (joint_latelearn.c) */
    free(s->ltl_stat);
    free(s->lte_stat); /* late_ends (joint_lateends.c) */
    free(s->ord_first);
    free(s->ord_st1);
    free(s->ord_st2);
    free(s->ord_inv);
    free(s->ord_keep);
    free(s->ord_n);
    free(s->hraw);
    free(s->rlo);
    free(s->rhi);
    free(s->hlo);
    free(s->hhi);
    free(s->ord_k);
    free(s->ord_on);
    free(s->hold_link);
    free(s->hold_own);
    free(s->ord_p);
    free(s->svc_ord);
    free(s->clean);
    free(s->t0obs);
    free(s->t0c);
    joint_tickivl_free(s);
    free(s->dirty);
    joint_lsdirty_free(s); /* ls_dirty_solve=2 (joint_lsdirty.c) */
    free(s->rl_chg);
    joint_select_free(s);
    joint_lc_free(s);
    joint_os_free(s);
    free(s->la_timer);
    joint_lt_free(s);
    free(s);
}

void joint_close(joint *s)
{
    /* a copy's first search kept for a check it never runs (unp_first):
     * a chain freed in a loop, not by recursion */
    while (s) {
        joint *next = joint_sve_chain(s, s->unp_first); /* sv_early (joint_svearly.c) */
        s->unp_first = NULL;
        close_one(s);
        s = next;
    }
}

uint32_t joint_npairs(const joint *s) { return s->npairs; }
pb_ns joint_tick(const joint *s) { return s->tick; }
uint32_t joint_pair_call(const joint *s, uint32_t i) { return i < s->npairs ? s->pr[i].call : NONE; }
uint32_t joint_pair_return(const joint *s, uint32_t i) { return i < s->npairs ? s->pr[i].ret : NONE; }
uint32_t joint_pair_parent(const joint *s, uint32_t i) { return i < s->npairs ? s->par[i] : NONE; }

uint32_t joint_pair_ncandidates(const joint *s, uint32_t i)
{
    return i < s->npairs ? s->cand_off[i + 1] - s->cand_off[i] : 0;
}


static int joint_run(const pb_trace_view *trace, const void *params, pb_result *res,
                     pb_error *err)
{
    joint *s;
    const joint_params *p = params;
    if (joint_params_check(p, err) != PB_OK) /* every string option's word (joint_optcheck.c) */
        return PB_EINVAL;
    /* coarse stamps: the rows within a tick as the order of events
     * (joint_subtick.c) */
    joint_subtick *st = NULL;
    pb_msg *spread = NULL, *canon = NULL;
    pb_strtab *cnodes = NULL; /* nodes numbered by first appearance (joint_canon.c) */
    pb_trace_view cv;
    int rc = joint_canon_prepare(trace, &cv, &canon, &cnodes);
    if (rc == PB_OK) {
        trace = &cv;
        rc = joint_subtick_prepare(trace, p, &st, &spread);
    }
    if (rc != PB_OK) {
        free(canon);
        if (cnodes)
            pb_strtab_close(cnodes);
        return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
    }
    pb_trace_view sv = *trace;
    if (spread)
        sv.msgs = spread;
    joint_params ps = *p;
    if (spread) {
        ps.subtick_tick = st->tick;
        ps.subtick_partial = st->partial;
    }
    /* tick_fifo (joint_tickx.c): the rows shown out of event order (at
     * least JOINT_SUBTICK_MIN forward contradictions, which an order of
     * events never makes, beyond subtick_share of the backward ones), not
     * only too few ties to tell */
    ps.subtick_declined = st && !spread && st->fwd >= JOINT_SUBTICK_MIN &&
                          (double)st->fwd > p->subtick_share * (double)st->bwd;
    rc = joint_init(&s, &sv, &ps, err);
    if (rc == PB_OK) {
        s->subtick = st;
        rc = joint_paths(s, res, err);
        joint_close(s);
    } else
        joint_subtick_free(st);
    free(spread);
    free(canon);
    if (cnodes)
        pb_strtab_close(cnodes);
    return rc;
}

const pb_algo pb_algo_joint = {
    "joint", "call",
    "pathbench's joint reconstruction: calls ascribed to requests by a learned delay "
    "model, greedy or min-cost-flow rounds and an exact re-split of competing requests",
    joint_options, sizeof(joint_params), joint_run, NULL};
