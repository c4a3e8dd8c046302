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
 */
#include "joint.h"
#include "pb_mem.h"
#include "pb_hash.h"
#include "joint_int.h"
#include "joint_align.h"
#include "pb_algo.h"

#include <glpk.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_filter.h>
#include <gsl/gsl_histogram.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE

const pb_option joint_options[] = {
    {"iters", PB_OPT_INT, offsetof(joint_params, iters), "4", 0, 1000,
     "rounds of refit + reassignment (greedy or flow; stops early when nothing changes)"},
    {"passes", PB_OPT_INT, offsetof(joint_params, passes), "4", 0, 1000,
     "passes of the exact re-split of the calls two competing requests share"},
    {"bin", PB_OPT_DOUBLE, offsetof(joint_params, bin), "0.02", 0.001, 1,
     "width of the delay-density bins, in decades of delay (log10 seconds)"},
    {"bw_min", PB_OPT_DOUBLE, offsetof(joint_params, bw_min), "1.5", 0, 1000,
     "least standard deviation of the density kernel, in bins"},
    {"floor", PB_OPT_DOUBLE, offsetof(joint_params, floor), "0.001", 1e-12, 0.5,
     "weight of the uniform background mixed into every delay density"},
    {"alpha", PB_OPT_DOUBLE, offsetof(joint_params, alpha), "0.1", 1e-9, 100,
     "pseudo-count added to every call count of the call-count model"},
    {"slack", PB_OPT_DURATION, offsetof(joint_params, slack), "0", 0, 1e6,
     "tolerance of the containment test (a call inside its parent's interval, one clock)"},
    {"early", PB_OPT_DURATION, offsetof(joint_params, early), "10ms", 0, 1e6,
     "a return may be stamped this much before its call (clock offsets) and still pair with it"},
    {"matching", PB_OPT_STRING, offsetof(joint_params, matching), "greedy", PB_OPT_NORANGE,
     "reassignment rounds: greedy (each call to its best request, others fixed) or flow "
     "(min-cost flow per endpoint, GLPK out-of-kilter)"},
    {"halves", PB_OPT_BOOL, offsetof(joint_params, halves), "1", PB_OPT_NORANGE,
     "keep a call whose return is missing (or a return whose call is missing) as a half pair"},
    {"swap_rounds", PB_OPT_INT, offsetof(joint_params, swap_rounds), "2", 0, 100,
     "rounds of exchanging returns between calls of one link paired without call ids"},
    {"repair", PB_OPT_INT, offsetof(joint_params, repair), "2", 0, 100,
     "rounds of re-pairing returns without call ids: the calls are re-split with open-ended "
     "requests, then each return goes to the call whose request it can end"},
    {"order", PB_OPT_BOOL, offsetof(joint_params, order), "0", PB_OPT_NORANGE,
     "use the order of service: two overlapping requests' first calls of an endpoint "
     "follow their arrival order with a learned probability (in the re-split)"},
    {"callids", PB_OPT_BOOL, offsetof(joint_params, callids), "1", PB_OPT_NORANGE,
     "pair calls and returns by call id; 0 ignores call ids (first in, first out)"},
    {"align", PB_OPT_BOOL, offsetof(joint_params, align), "1", PB_OPT_NORANGE,
     "without call ids, pair a link's calls and returns by the most likely in-order "
     "alignment that may leave a message unpaired (its partner lost); 0: first in, first out"},
    {"callgraph", PB_OPT_STRING, offsetof(joint_params, callgraph), "", PB_OPT_NORANGE,
     "file of allowed calls, lines 'CALLER SERVICE CALLEE...'; empty = learn from the trace"},
    {"top", PB_OPT_INT, offsetof(joint_params, top), "20", 0, 1e9,
     "patterns shown in the text report; 0 = all"},
    {NULL, PB_OPT_INT, 0, NULL, PB_OPT_NORANGE, NULL}};

/* ------------------------------------------------------------------ */
/* small growable u64 -> u32 hash map (links, density keys) */

static uint32_t hmap_get(const hmap *h, uint64_t k)
{
    if (!h->cap)
        return NONE;
    size_t mask = h->cap - 1;
    for (size_t j = pb_mix64(k) & mask; h->v[j] != NONE; j = (j + 1) & mask)
        if (h->k[j] == k)
            return h->v[j];
    return NONE;
}

static int hmap_put(hmap *h, uint64_t k, uint32_t v)
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

static int set_parent(joint *s, uint32_t p, uint32_t q)
{
    if (s->par[p] == q)
        return PB_OK;
    if (s->par[p] != NONE)
        kv_remove(s, s->par[p], p);
    s->par[p] = q;
    return q == NONE ? PB_OK : kv_insert(s, q, p);
}

/* ------------------------------------------------------------------ */
/* 1. pairs */

typedef struct pkey {
    uint32_t caller, callee;
    uint64_t cid;
    pb_ns t;       /* on the callee's clock where known */
    uint32_t msg;
} pkey;

static int cmp_pkey(const void *x, const void *y)
{
    const pkey *a = x, *b = y;
    if (a->caller != b->caller)
        return a->caller < b->caller ? -1 : 1;
    if (a->callee != b->callee)
        return a->callee < b->callee ? -1 : 1;
    if (a->cid != b->cid)
        return a->cid < b->cid ? -1 : 1;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return a->msg < b->msg ? -1 : a->msg > b->msg;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

static int find_pairs(joint *s)
{
    const pb_msg *m = s->v.msgs;
    size_t nk = 0;
    for (size_t i = 0; i < s->v.n; i++) {
        s->pair_of_msg[i] = NONE;
        if (m[i].type == PB_TYPE_CALL)
            s->calls++;
        else if (m[i].type == PB_TYPE_RETURN)
            s->returns++;
        else
            s->others++;
    }
    pkey *k = malloc((s->calls + s->returns + 1) * sizeof *k);
    if (!k)
        return PB_ENOMEM;
    for (size_t i = 0; i < s->v.n; i++) {
        uint64_t cid = s->p.callids ? m[i].callid : PB_ID_NONE;
        /* order calls and returns on the callee's clock: a call by its
         * receive time, a return by its send time */
        if (m[i].type == PB_TYPE_CALL)
            k[nk++] = (pkey){m[i].src, m[i].dst, cid,
                             m[i].recv_ts != PB_TS_NONE ? m[i].recv_ts : m[i].ts, (uint32_t)i};
        else if (m[i].type == PB_TYPE_RETURN)
            k[nk++] = (pkey){m[i].dst, m[i].src, cid, m[i].ts, (uint32_t)i};
    }
    qsort(k, nk, sizeof *k, cmp_pkey);
    /* per key, in callee-clock order: a return takes the earliest open call */
    uint64_t *pairs = malloc((nk + 1) * sizeof *pairs);
    uint32_t *queue = malloc((nk + 1) * sizeof *queue);
    if (!pairs || !queue) {
        free(k);
        free(pairs);
        free(queue);
        return PB_ENOMEM;
    }
    size_t np = 0;
    uint32_t *early = malloc((nk + 1) * sizeof *early);
    if (!early) {
        free(k);
        free(pairs);
        free(queue);
        return PB_ENOMEM;
    }
    const pb_ns w = s->p.early;
    /* without call ids: the most likely in-order alignment (joint_align.c) */
    pb_ns *al_t = NULL;
    uint32_t *al_m = NULL;
    unsigned char *al_c = NULL;
    if (s->p.align) {
        al_t = malloc((nk + 1) * sizeof *al_t);
        al_m = malloc((nk + 1) * sizeof *al_m);
        al_c = malloc(nk + 1);
    }
    for (size_t i = 0; i < nk;) {
        size_t j = i;
        while (j < nk && k[j].caller == k[i].caller && k[j].callee == k[i].callee &&
               k[j].cid == k[i].cid)
            j++;
        if (s->p.align && k[i].cid == PB_ID_NONE) {
            int arc = al_t && al_m && al_c ? PB_OK : PB_ENOMEM;
            size_t np0 = np;
            for (size_t t = i; arc == PB_OK && t < j; t++) {
                al_t[t - i] = k[t].t;
                al_m[t - i] = k[t].msg;
                al_c[t - i] = m[k[t].msg].type == PB_TYPE_CALL;
            }
            size_t amb0 = s->align.ambiguous;
            if (arc == PB_OK)
                arc = joint_align_link(al_t, al_m, al_c, j - i, w, pairs, &np, &s->align);
            if (arc != PB_OK) {
                free(al_t);
                free(al_m);
                free(al_c);
                free(early);
                free(k);
                free(pairs);
                free(queue);
                return arc;
            }
            for (size_t q = np0; q < np; q++)
                s->pair_of_msg[pairs[q] >> 32] = s->pair_of_msg[(uint32_t)pairs[q]] = 0;
            s->repeated += s->align.ambiguous - amb0;
            i = j;
            continue;
        }
        size_t qh = 0, qt = 0, eh = 0, et = 0;
        for (size_t t = i; t < j; t++) {
            const pb_msg *x = &m[k[t].msg];
            if (x->type == PB_TYPE_CALL) {
                /* a return sent before its call (a callee clock behind the
                 * caller's) waits up to `early` for it */
                while (eh < et && m[early[eh]].ts < k[t].t - w)
                    eh++;
                if (eh < et) {
                    s->pair_of_msg[k[t].msg] = s->pair_of_msg[early[eh]] = 0;
                    pairs[np++] = ((uint64_t)k[t].msg << 32) | early[eh++];
                }
                else
                    queue[qt++] = k[t].msg;
            } else if (qh < qt) {
                if (qt - qh > 1)
                    s->repeated++;
                s->pair_of_msg[k[t].msg] = s->pair_of_msg[queue[qh]] = 0;
                pairs[np++] = ((uint64_t)queue[qh++] << 32) | k[t].msg;
            } else if (w > 0) {
                early[et++] = k[t].msg;
            }
        }
        i = j;
    }
    free(al_t);
    free(al_m);
    free(al_c);
    free(early);
    free(k);
    free(queue);
    size_t full = np;
    /* a call whose return was lost, or a return whose call was lost, is
     * kept as a half pair: its known end stands for both */
    for (size_t i = 0; s->p.halves && i < s->v.n; i++)
        if ((m[i].type == PB_TYPE_CALL || m[i].type == PB_TYPE_RETURN) &&
            s->pair_of_msg[i] == NONE)
            pairs[np++] = ((uint64_t)i << 32) | NONE;
    qsort(pairs, np, sizeof *pairs, cmp_u64);
    s->pr = calloc(np + 1, sizeof *s->pr);
    if (!s->pr) {
        free(pairs);
        return PB_ENOMEM;
    }
    for (size_t i = 0; i < s->v.n; i++)
        s->pair_of_msg[i] = NONE;
    for (size_t i = 0; i < np; i++) {
        uint32_t c = (uint32_t)(pairs[i] >> 32), r = (uint32_t)pairs[i];
        jpair *p = &s->pr[i];
        if (r == NONE && m[c].type == PB_TYPE_RETURN) {
            r = c;
            c = NONE;
        }
        p->call = c;
        p->ret = r;
        if (c != NONE) {
            p->caller = m[c].src;
            p->callee = m[c].dst;
            p->cs = m[c].ts;
            p->cr = m[c].recv_ts != PB_TS_NONE ? m[c].recv_ts : m[c].ts;
            s->pair_of_msg[c] = (uint32_t)i;
        }
        if (r != NONE) {
            p->caller = m[r].dst;
            p->callee = m[r].src;
            p->rs = m[r].ts;
            p->rr = m[r].recv_ts != PB_TS_NONE ? m[r].recv_ts : m[r].ts;
            s->pair_of_msg[r] = (uint32_t)i;
        }
        if (c == NONE) {
            p->cs = p->rr;
            p->cr = p->rs;
            s->halves_ret++;
        } else if (r == NONE) {
            p->rr = p->cs;
            p->rs = p->cr;
            s->halves_call++;
        }
    }
    free(pairs);
    s->npairs = (uint32_t)np;
    s->free_ret = calloc(np + 1, 1);
    if (!s->free_ret)
        return PB_ENOMEM;
    for (size_t i = 0; i < np; i++) {
        const jpair *p = &s->pr[i];
        s->free_ret[i] = p->call != NONE && p->ret != NONE &&
                         (!s->p.callids || m[p->call].callid == PB_ID_NONE ||
                          m[p->ret].callid == PB_ID_NONE);
    }
    s->unmatched_calls = s->calls - full;
    s->unmatched_returns = s->returns - full;
    return PB_OK;
}

/* links (caller, callee) and each node's outgoing links */
static int find_links(joint *s)
{
    int rc = PB_OK;
    for (uint32_t i = 0; i < s->npairs && rc == PB_OK; i++) {
        uint64_t key = ((uint64_t)s->pr[i].caller << 32) | s->pr[i].callee;
        uint32_t l = hmap_get(&s->linkmap, key);
        if (l == NONE) {
            l = s->nlinks++;
            if (l >= JOINT_MAX_LINKS)
                return PB_ERANGE;
            rc = hmap_put(&s->linkmap, key, l);
            if (rc != PB_OK)
                return rc;
            uint32_t *a = realloc(s->link_src, (size_t)s->nlinks * sizeof *a);
            if (!a)
                return PB_ENOMEM;
            s->link_src = a;
            a = realloc(s->link_dst, (size_t)s->nlinks * sizeof *a);
            if (!a)
                return PB_ENOMEM;
            s->link_dst = a;
            s->link_src[l] = s->pr[i].caller;
            s->link_dst[l] = s->pr[i].callee;
        }
        s->pr[i].link = l;
    }
    s->out_off = calloc((size_t)s->nnodes + 1, sizeof *s->out_off);
    s->out_links = malloc(((size_t)s->nlinks + 1) * sizeof *s->out_links);
    s->link_local = malloc(((size_t)s->nlinks + 1) * sizeof *s->link_local);
    if (!s->out_off || !s->out_links || !s->link_local)
        return PB_ENOMEM;
    for (uint32_t l = 0; l < s->nlinks; l++)
        s->out_off[s->link_src[l] + 1]++;
    for (uint32_t a = 0; a < s->nnodes; a++)
        s->out_off[a + 1] += s->out_off[a];
    uint32_t *fill = calloc((size_t)s->nnodes + 1, sizeof *fill);
    if (!fill)
        return PB_ENOMEM;
    for (uint32_t l = 0; l < s->nlinks; l++) {
        uint32_t a = s->link_src[l];
        s->link_local[l] = fill[a];
        s->out_links[s->out_off[a] + fill[a]++] = l;
    }
    free(fill);
    /* call-count table: per incoming link e, per outgoing link of its
     * callee, counts 0..JOINT_KMAX */
    s->cnt_off = malloc(((size_t)s->nlinks + 1) * sizeof *s->cnt_off);
    if (!s->cnt_off)
        return PB_ENOMEM;
    size_t tot = 0;
    for (uint32_t e = 0; e < s->nlinks; e++) {
        s->cnt_off[e] = (uint32_t)tot;
        uint32_t b = s->link_dst[e];
        tot += (size_t)(s->out_off[b + 1] - s->out_off[b]) * (JOINT_KMAX + 1);
    }
    s->cnt_off[s->nlinks] = (uint32_t)tot;
    s->cnt = calloc(tot + 1, sizeof *s->cnt);
    s->cntlp = calloc(tot + 1, sizeof *s->cntlp);
    s->allowed = NULL;
    /* per link, the longest request seen whole (callee's clock): how long
     * a request whose response was lost may have lasted */
    s->hmax = calloc((size_t)s->nlinks + 1, sizeof *s->hmax);
    if (!s->hmax)
        return PB_ENOMEM;
    for (uint32_t i = 0; i < s->npairs; i++) {
        const jpair *p = &s->pr[i];
        if (p->call != NONE && p->ret != NONE && p->rs - p->cr > s->hmax[p->link])
            s->hmax[p->link] = p->rs - p->cr;
    }
    return s->cnt && s->cntlp ? PB_OK : PB_ENOMEM;
}

/* the earliest time request q may have begun on its own clock: its
 * arrival; a request whose call was lost may have lasted as long as the
 * longest whole one of its link */
static inline pb_ns req_start(const joint *s, uint32_t q)
{
    const jpair *x = &s->pr[q];
    if (x->call == NONE && x->ret != NONE && s->p.halves)
        return x->rs - s->hmax[x->link];
    return x->cr;
}

/* the latest time request q may end on its own clock: its response; open
 * while returns are re-paired; a request whose response was lost may
 * last as long as the longest whole one of its link */
static inline pb_ns req_end(const joint *s, uint32_t q)
{
    const jpair *x = &s->pr[q];
    if (s->qend)
        return s->qend[q];
    if (x->ret == NONE && x->call != NONE && s->p.halves)
        return x->cr + s->hmax[x->link];
    return x->rs;
}

/* ------------------------------------------------------------------ */
/* 2. candidates */


typedef struct insort {
    pb_ns t;
    uint32_t p;
} insort;

static int cmp_insort(const void *x, const void *y)
{
    const insort *a = x, *b = y;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return a->p < b->p ? -1 : a->p > b->p;
}

static int add_cand(joint *s, uint32_t q)
{
    if (pb_grow(&s->cand, sizeof *s->cand, &s->candcap, s->ncand + 1, 4096) != PB_OK)
        return PB_ENOMEM;
    s->cand[s->ncand++] = q;
    return PB_OK;
}

static int find_candidates(joint *s)
{
    uint32_t n = s->npairs, nn = s->nnodes;
    s->ncand = 0;
    s->ambiguous = s->nested = 0;
    free(s->cand_off);
    s->cand_off = NULL;
    uint32_t *in_off = calloc((size_t)nn + 2, sizeof *in_off);
    uint32_t *out_off = calloc((size_t)nn + 2, sizeof *out_off);
    insort *in = malloc(((size_t)n + 1) * sizeof *in);
    uint32_t *out = malloc(((size_t)n + 1) * sizeof *out);
    uint32_t *open = malloc(((size_t)n + 1) * sizeof *open);
    uint32_t *start = malloc(((size_t)n + 1) * sizeof *start);
    uint32_t *cnt = malloc(((size_t)n + 1) * sizeof *cnt);
    int rc = PB_OK;
    if (!in_off || !out_off || !in || !out || !open || !start || !cnt) {
        rc = PB_ENOMEM;
        goto done;
    }
    for (uint32_t i = 0; i < n; i++) {
        in_off[s->pr[i].callee + 1]++;
        out_off[s->pr[i].caller + 1]++;
    }
    for (uint32_t a = 0; a < nn; a++) {
        in_off[a + 1] += in_off[a];
        out_off[a + 1] += out_off[a];
    }
    {
        uint32_t *fi = calloc((size_t)nn + 1, sizeof *fi), *fo = calloc((size_t)nn + 1, sizeof *fo);
        if (!fi || !fo) {
            free(fi);
            free(fo);
            rc = PB_ENOMEM;
            goto done;
        }
        for (uint32_t i = 0; i < n; i++) {
            uint32_t b = s->pr[i].callee, a = s->pr[i].caller;
            in[in_off[b] + fi[b]++] = (insort){req_start(s, i), i};
            out[out_off[a] + fo[a]++] = i;
        }
        free(fi);
        free(fo);
    }
    /* each caller's calls by call time (half pairs that lost their call
     * are numbered by their return) */
    for (uint32_t a = 0; a < nn; a++) {
        uint32_t o0 = out_off[a], o1 = out_off[a + 1];
        int sorted = 1;
        for (uint32_t o = o0 + 1; o < o1 && sorted; o++)
            sorted = s->pr[out[o - 1]].cs < s->pr[out[o]].cs ||
                     (s->pr[out[o - 1]].cs == s->pr[out[o]].cs && out[o - 1] < out[o]);
        if (sorted)
            continue;
        insort *tmp = malloc((size_t)(o1 - o0) * sizeof *tmp);
        if (!tmp) {
            rc = PB_ENOMEM;
            goto done;
        }
        for (uint32_t o = o0; o < o1; o++)
            tmp[o - o0] = (insort){s->pr[out[o]].cs, out[o]};
        qsort(tmp, o1 - o0, sizeof *tmp, cmp_insort);
        for (uint32_t o = o0; o < o1; o++)
            out[o] = tmp[o - o0].p;
        free(tmp);
    }
    const pb_ns w = s->p.slack;
    for (uint32_t a = 0; a < nn && rc == PB_OK; a++) {
        uint32_t i0 = in_off[a], i1 = in_off[a + 1];
        if (i1 - i0 > 1)
            qsort(in + i0, i1 - i0, sizeof *in, cmp_insort);
        uint32_t ip = i0, nopen = 0;
        for (uint32_t o = out_off[a]; o < out_off[a + 1] && rc == PB_OK; o++) {
            uint32_t p = out[o];
            const jpair *pp = &s->pr[p];
            while (ip < i1 && in[ip].t - w <= pp->cs)
                open[nopen++] = in[ip++].p;
            uint32_t keep = 0;
            start[p] = (uint32_t)s->ncand;
            for (uint32_t j = 0; j < nopen; j++) {
                uint32_t q = open[j];
                pb_ns qe = req_end(s, q);
                if (qe + w < pp->cs)
                    continue; /* over before this call: never again */
                open[keep++] = q;
                if (q != p && qe + w >= pp->rr)
                    rc = add_cand(s, q);
            }
            nopen = keep;
            cnt[p] = (uint32_t)(s->ncand - start[p]);
        }
    }
    if (rc != PB_OK)
        goto done;
    if (s->ncand >= UINT32_MAX) {
        rc = PB_ERANGE;
        goto done;
    }
    /* pairs out of order of their callers: lay the lists out by pair */
    s->cand_off = malloc(((size_t)n + 1) * sizeof *s->cand_off);
    uint32_t *c2 = malloc((s->ncand + 1) * sizeof *c2);
    if (!s->cand_off || !c2) {
        free(c2);
        rc = PB_ENOMEM;
        goto done;
    }
    uint32_t off = 0;
    for (uint32_t p = 0; p < n; p++) {
        s->cand_off[p] = off;
        if (cnt[p])
            memcpy(c2 + off, s->cand + start[p], (size_t)cnt[p] * sizeof *c2);
        off += cnt[p];
        if (cnt[p] > 1)
            s->ambiguous++;
        if (cnt[p] > 0)
            s->nested++;
    }
    s->cand_off[n] = off;
    free(s->cand);
    s->cand = c2;
    s->candcap = s->ncand;
done:
    free(in_off);
    free(out_off);
    free(in);
    free(out);
    free(open);
    free(start);
    free(cnt);
    return rc;
}

/* ------------------------------------------------------------------ */
/* 3. the model */

static inline uint64_t dkey(uint32_t ein, uint32_t trig, uint32_t outl)
{
    return ((uint64_t)ein << 42) | ((uint64_t)trig << 21) | outl;
}

static inline uint32_t dbin(const joint *s, pb_ns d)
{
    double x = log10(d < 10 ? 10.0 : (double)d);
    double b = (x - 1.0) / s->p.bin;
    if (!(b > 0))
        return 0;
    if (b >= (double)(s->nb - 1))
        return s->nb - 1;
    return (uint32_t)b;
}

/* log density of delay d (ns) for density key k (NONE: background) */
static inline double logf_of(const joint *s, uint32_t k, pb_ns d)
{
    double ld = log(d < 10 ? 10.0 : (double)d);
    if (k == NONE)
        return s->bg - ld;
    return s->logf[(size_t)k * s->nb + dbin(s, d)] - ld;
}

/* The events of request q with the kids in k[0..n) (sorted by call time):
 * for every output, its trigger and delay.  mode 0: return the
 * log-likelihood; mode 1: add every output to the density histograms
 * (creating keys) and the call counts to the count table. */
static int req_walk(joint *s, uint32_t q, const uint32_t *k, uint32_t n, int mode,
                    double *ll)
{
    const jpair *qq = &s->pr[q];
    uint32_t ein = qq->link, b = qq->callee;
    if (ll)
        *ll = 0;
    /* its call was lost: no arrival; an output the arrival triggered
     * scores the expected log density of its key (and is not learned) */
    int noarr = qq->call == NONE;
    pb_ns arr = noarr ? INT64_MIN : qq->cr;
    /* returns sorted by return time (insertion sort: n is small) */
    if (n > s->scratchcap) {
        uint32_t nc = s->scratchcap ? s->scratchcap : 16;
        while (nc < n)
            nc *= 2;
        uint32_t *a = realloc(s->scratch, (size_t)nc * sizeof *a);
        if (!a)
            return PB_ENOMEM;
        s->scratch = a;
        s->scratchcap = nc;
    }
    uint32_t *r = s->scratch, nr = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (s->pr[k[i]].ret == NONE)
            continue; /* its return was lost: no input */
        uint32_t j = nr++;
        while (j > 0 && (s->pr[r[j - 1]].rr > s->pr[k[i]].rr ||
                         (s->pr[r[j - 1]].rr == s->pr[k[i]].rr && r[j - 1] > k[i]))) {
            r[j] = r[j - 1];
            j--;
        }
        r[j] = k[i];
    }
    double sum = 0;
    uint32_t rp = 0;        /* returns taken so far */
    uint32_t last = NONE, prev = NONE; /* latest two returns taken */
    /* open-ended (re-pairing): the response is not known yet */
    int open_end = (s->qend && s->free_ret[q]) || qq->ret == NONE;
    for (uint32_t i = 0; i <= n; i++) {
        if (i == n && open_end)
            break;
        if (i < n && s->pr[k[i]].call == NONE)
            continue; /* its call was lost: no output */
        pb_ns t = i < n ? s->pr[k[i]].cs : qq->rs;
        uint32_t self = i < n ? k[i] : NONE;
        while (rp < nr && s->pr[r[rp]].rr <= t) {
            prev = last;
            last = r[rp++];
        }
        uint32_t tg = last == self ? prev : last;
        pb_ns tt = tg == NONE ? arr : s->pr[tg].rr;
        if (tg != NONE && tt < arr)
            tt = arr, tg = NONE;
        uint32_t trig = tg == NONE ? 0 : 1 + s->pr[tg].link;
        uint32_t outl = i < n ? s->pr[k[i]].link : s->nlinks;
        pb_ns d = t - tt;
        uint64_t key = dkey(ein, trig, outl);
        uint32_t di = hmap_get(&s->keymap, key);
        if (noarr && tg == NONE) {
            if (mode == 0)
                sum += di == NONE ? s->bg - log(1e6) : s->kmean[di];
        } else if (mode == 0) {
            sum += logf_of(s, di, d);
        } else {
            if (di == NONE) {
                di = s->nkeys;
                size_t nc = (size_t)(s->nkeys + 1) * s->nb;
                double *h = realloc(s->hist, nc * sizeof *h);
                if (!h)
                    return PB_ENOMEM;
                s->hist = h;
                memset(h + (size_t)di * s->nb, 0, s->nb * sizeof *h);
                double *lf = realloc(s->logf, nc * sizeof *lf);
                if (!lf)
                    return PB_ENOMEM;
                s->logf = lf;
                double *km = realloc(s->kmean, (size_t)(s->nkeys + 1) * sizeof *km);
                if (!km)
                    return PB_ENOMEM;
                s->kmean = km;
                km[di] = s->bg - log(1e6);
                double *st = realloc(s->kstat, (size_t)(s->nkeys + 1) * 3 * sizeof *st);
                if (!st)
                    return PB_ENOMEM;
                s->kstat = st;
                st[3 * di] = st[3 * di + 1] = st[3 * di + 2] = 0;
                s->nkeys++;
                int rc = hmap_put(&s->keymap, key, di);
                if (rc != PB_OK)
                    return rc;
            }
            s->hist[(size_t)di * s->nb + dbin(s, d)] += 1.0;
            double x = log10(d < 10 ? 10.0 : (double)d);
            s->kstat[3 * di] += 1;
            s->kstat[3 * di + 1] += x;
            s->kstat[3 * di + 2] += x * x;
        }
    }
    /* call counts per outgoing link of this service */
    uint32_t no = s->out_off[b + 1] - s->out_off[b];
    if (no) {
        uint32_t *c = s->ccount;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t l = s->pr[k[i]].link;
            if (s->link_src[l] == b)
                c[s->link_local[l]]++;
        }
        size_t base = s->cnt_off[ein];
        for (uint32_t j = 0; j < no; j++) {
            uint32_t cj = c[j] > JOINT_KMAX ? JOINT_KMAX : c[j];
            if (mode == 0)
                sum += s->cntlp[base + (size_t)j * (JOINT_KMAX + 1) + cj];
            else
                s->cnt[base + (size_t)j * (JOINT_KMAX + 1) + cj] += 1.0;
            c[j] = 0;
        }
    }
    if (ll)
        *ll = sum;
    return PB_OK;
}

static double req_ll(joint *s, uint32_t q)
{
    double ll = 0;
    if (req_walk(s, q, s->kids[q].a, s->kids[q].n, 0, &ll) != PB_OK)
        return -INFINITY;
    return ll;
}

/* Refit every density and the call-count model from the assignment. */
/* first call of link l among the calls k[0..n) (sorted by call time), or
 * NONE */
static uint32_t first_of(const joint *s, const uint32_t *k, uint32_t n, uint32_t l)
{
    for (uint32_t i = 0; i < n; i++)
        if (s->pr[k[i]].link == l && s->pr[k[i]].call != NONE)
            return k[i];
    return NONE;
}

/* time of the input that triggered call p in request q whose calls are
 * k[0..n): the latest return of another of them received before p was
 * sent, else q's arrival */
static pb_ns trig_time(const joint *s, uint32_t q, const uint32_t *k, uint32_t n, uint32_t p)
{
    pb_ns tt = s->pr[q].cr, cs = s->pr[p].cs;
    for (uint32_t i = 0; i < n; i++) {
        const jpair *c = &s->pr[k[i]];
        if (k[i] != p && c->ret != NONE && c->rr <= cs && c->rr > tt)
            tt = c->rr;
    }
    return tt;
}

typedef struct ordent {
    pb_ns trig;
    uint32_t q, first;
} ordent;

static int cmp_ordent(const void *x, const void *y)
{
    const ordent *a = x, *b = y;
    if (a->trig != b->trig)
        return a->trig < b->trig ? -1 : 1;
    return a->q < b->q ? -1 : a->q > b->q;
}

/* Order of service: per outgoing link, how often two requests whose first
 * calls of that link were triggered one after the other (by arrivals or
 * returns) make those calls in the other order.  log rho (inverted) and
 * log (1 - rho) per link. */
static int fit_order(joint *s)
{
    ordent *e = malloc(((size_t)s->npairs + 1) * sizeof *e);
    if (!e)
        return PB_ENOMEM;
    for (uint32_t l = 0; l < s->nlinks; l++) {
        uint32_t n = 0;
        for (uint32_t i = s->bylink_off[l]; i < s->bylink_off[l + 1]; i++) {
            uint32_t p = s->bylink[i], q = s->par[p];
            if (q == NONE || s->pr[p].call == NONE)
                continue;
            if (first_of(s, s->kids[q].a, s->kids[q].n, l) != p)
                continue;
            e[n++] = (ordent){trig_time(s, q, s->kids[q].a, s->kids[q].n, p), q, p};
        }
        if (n > 1)
            qsort(e, n, sizeof *e, cmp_ordent);
        double inv = 0, tot = 0;
        for (uint32_t i = 1; i < n; i++) {
            /* only where the order is a question: the second trigger came
             * before the first call was sent */
            if (e[i].trig > s->pr[e[i - 1].first].cs)
                continue;
            tot++;
            inv += s->pr[e[i].first].cs < s->pr[e[i - 1].first].cs;
        }
        double rho = (inv + 1) / (tot + 2);
        s->ord_inv[l] = log(rho);
        s->ord_keep[l] = log(1 - rho);
    }
    free(e);
    return PB_OK;
}

/* log-probability of the order of the first calls of every link made by
 * two requests, given the order of their triggers */
static double order_ll(const joint *s, uint32_t q1, const uint32_t *k1, uint32_t n1,
                       uint32_t q2, const uint32_t *k2, uint32_t n2)
{
    double v = 0;
    for (uint32_t i = 0; i < n1; i++) {
        uint32_t l = s->pr[k1[i]].link;
        uint32_t f1 = first_of(s, k1, n1, l);
        if (f1 != k1[i])
            continue;
        uint32_t f2 = first_of(s, k2, n2, l);
        if (f2 == NONE)
            continue;
        pb_ns t1 = trig_time(s, q1, k1, n1, f1), t2 = trig_time(s, q2, k2, n2, f2);
        if (t1 == t2)
            continue;
        /* the order matters only when both triggers came before both calls */
        pb_ns c1 = s->pr[f1].cs, c2 = s->pr[f2].cs;
        if ((t1 < t2 ? t2 : t1) > (c1 < c2 ? c1 : c2))
            continue;
        int b = c1 < c2 || (c1 == c2 && f1 < f2);
        v += b == (t1 < t2) ? s->ord_keep[l] : s->ord_inv[l];
    }
    return v;
}

static int fit(joint *s, const unsigned char *only)
{
    for (uint32_t k = 0; k < s->nkeys; k++) {
        memset(s->hist + (size_t)k * s->nb, 0, s->nb * sizeof *s->hist);
        s->kstat[3 * k] = s->kstat[3 * k + 1] = s->kstat[3 * k + 2] = 0;
    }
    memset(s->cnt, 0, (size_t)s->cnt_off[s->nlinks] * sizeof *s->cnt);
    for (uint32_t q = 0; q < s->npairs; q++) {
        if (only && !only[q])
            continue;
        int rc = req_walk(s, q, s->kids[q].a, s->kids[q].n, 1, NULL);
        if (rc != PB_OK)
            return rc;
    }
    /* densities: histogram (GSL) smoothed by a Gaussian kernel whose width
     * follows Silverman's rule on the log delays, mixed with a uniform
     * background */
    const uint32_t nb = s->nb;
    gsl_vector *x = gsl_vector_alloc(nb), *y = gsl_vector_alloc(nb);
    if (!x || !y) {
        gsl_vector_free(x);
        gsl_vector_free(y);
        return PB_ENOMEM;
    }
    const double beta = s->p.floor;
    for (uint32_t k = 0; k < s->nkeys; k++) {
        double *h = s->hist + (size_t)k * nb, *lf = s->logf + (size_t)k * nb;
        double n = s->kstat[3 * k];
        if (n <= 0) {
            for (uint32_t b = 0; b < nb; b++)
                lf[b] = s->bg;
            s->kmean[k] = s->bg - log(1e6);
            continue;
        }
        double mean = s->kstat[3 * k + 1] / n;
        double var = s->kstat[3 * k + 2] / n - mean * mean;
        double sd = var > 0 ? sqrt(var) : 0;
        double bwb = 0.9 * sd * pow(n, -0.2) / s->p.bin;
        if (bwb < s->p.bw_min)
            bwb = s->p.bw_min;
        if (bwb > 100)
            bwb = 100;
        double tot = 0;
        for (uint32_t b = 0; b < nb; b++)
            tot += h[b];
        if (bwb > 0.05) {
            size_t K = 2 * (size_t)ceil(3 * bwb) + 1;
            if (K > 2 * (size_t)nb - 1)
                K = 2 * (size_t)nb - 1;
            gsl_filter_gaussian_workspace *ws = gsl_filter_gaussian_alloc(K);
            if (!ws) {
                gsl_vector_free(x);
                gsl_vector_free(y);
                return PB_ENOMEM;
            }
            for (uint32_t b = 0; b < nb; b++)
                gsl_vector_set(x, b, h[b]);
            gsl_filter_gaussian(GSL_FILTER_END_PADZERO, (double)(K - 1) / (2 * bwb), 0, x, y, ws);
            gsl_filter_gaussian_free(ws);
            double t2 = 0;
            for (uint32_t b = 0; b < nb; b++) {
                double v = gsl_vector_get(y, b);
                h[b] = v > 0 ? v : 0;
                t2 += h[b];
            }
            tot = t2;
        }
        double em = 0;
        for (uint32_t b = 0; b < nb; b++) {
            double pb = (1 - beta) * (tot > 0 ? h[b] / tot : 0) + beta / nb;
            em += pb * log(pb / s->p.bin);
            /* density of log10 delay per unit: per bin / bin width; the
             * 1/(d ln 10) Jacobian is applied by logf_of (ln 10 dropped:
             * the same for every alternative) */
            lf[b] = log(pb / s->p.bin);
        }
        s->kmean[k] = em - mean * M_LN10;
    }
    gsl_vector_free(x);
    gsl_vector_free(y);
    if (s->p.order) {
        int rc = fit_order(s);
        if (rc != PB_OK)
            return rc;
    }
    /* call counts: P(k) = (n_k + alpha) / (N + alpha (K+1)) */
    const double al = s->p.alpha;
    for (uint32_t e = 0; e < s->nlinks; e++) {
        uint32_t b = s->link_dst[e];
        uint32_t no = s->out_off[b + 1] - s->out_off[b];
        for (uint32_t j = 0; j < no; j++) {
            size_t base = s->cnt_off[e] + (size_t)j * (JOINT_KMAX + 1);
            double N = 0;
            for (int c = 0; c <= JOINT_KMAX; c++)
                N += s->cnt[base + c];
            int ok = !s->allowed || s->allowed[s->cnt_off[e] / (JOINT_KMAX + 1) + j];
            for (int c = 0; c <= JOINT_KMAX; c++) {
                double v = (s->cnt[base + c] + al) / (N + al * (JOINT_KMAX + 1));
                s->cntlp[base + c] = (!ok && c > 0) ? JOINT_FORBID : log(v);
            }
        }
    }
    return PB_OK;
}

double joint_loglik(const joint *cs)
{
    joint *s = (joint *)cs;
    double t = 0;
    for (uint32_t q = 0; q < s->npairs; q++)
        t += req_ll(s, q);
    return t;
}

/* ------------------------------------------------------------------ */
/* 4. min-cost flow reassignment of one outgoing link's calls */

typedef struct vdata {
    double rhs;
} vdata;

typedef struct adata {
    double low, cap, cost, x;
} adata;

/* cost of call p in request q, q's other current calls fixed */
static double edge_cost(joint *s, uint32_t p, uint32_t q)
{
    const jpair *pp = &s->pr[p], *qq = &s->pr[q];
    const kvec *k = &s->kids[q];
    if (pp->call == NONE)
        return 0; /* no call time: every request alike */
    pb_ns tt = qq->call == NONE ? INT64_MIN : qq->cr;
    uint32_t trig = 0;
    for (uint32_t i = 0; i < k->n; i++) {
        const jpair *c = &s->pr[k->a[i]];
        if (k->a[i] == p || c->ret == NONE || c->rr > pp->cs || c->rr < tt)
            continue;
        if (c->rr > tt || (c->rr == tt && trig != 0)) {
            tt = c->rr;
            trig = 1 + c->link;
        }
    }
    uint32_t di = hmap_get(&s->keymap, dkey(qq->link, trig, pp->link));
    if (qq->call == NONE && trig == 0)
        return di == NONE ? -(s->bg - log(1e6)) : -s->kmean[di];
    return -logf_of(s, di, pp->cs - tt);
}

/* marginal cost of the c-th call of link l in a request of link e
 * (c >= 1), made convex */
static double slot_cost(const joint *s, uint32_t e, uint32_t l, uint32_t c, double prev)
{
    if (c > JOINT_KMAX)
        c = JOINT_KMAX;
    size_t base = s->cnt_off[e] + (size_t)s->link_local[l] * (JOINT_KMAX + 1);
    double v = -(s->cntlp[base + c] - s->cntlp[base + c - 1]);
    if (c == JOINT_KMAX)
        v = -(s->cntlp[base + c] - s->cntlp[base + 0]) / JOINT_KMAX;
    return v < prev ? prev : v;
}

static inline double to_units(double c)
{
    double u = nearbyint(c * JOINT_SCALE);
    if (u > JOINT_CMAX)
        u = JOINT_CMAX;
    if (u < -JOINT_CMAX)
        u = -JOINT_CMAX;
    return u;
}

static uint32_t uf_find(uint32_t *u, uint32_t x)
{
    while (u[x] != x) {
        u[x] = u[u[x]];
        x = u[x];
    }
    return x;
}

static int solve_component(joint *s, const uint32_t *ch, uint32_t nc,
                           const uint32_t *rq, uint32_t nr, uint32_t *loc, int *changed)
{
    if (nc == 1) {
        uint32_t p = ch[0], best = NONE;
        double bc = INFINITY;
        for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++) {
            uint32_t q = s->cand[j];
            double c = edge_cost(s, p, q) + slot_cost(s, s->pr[q].link, s->pr[p].link, 1, -INFINITY);
            if (c < bc) {
                bc = c;
                best = q;
            }
        }
        if (best != s->par[p]) {
            (*changed)++;
            return set_parent(s, p, best);
        }
        return PB_OK;
    }
    glp_graph *G = glp_create_graph(sizeof(vdata), sizeof(adata));
    if (!G)
        return PB_ENOMEM;
    int nv = (int)(nc + nr + 1), sink = nv;
    glp_add_vertices(G, nv);
    for (int i = 1; i <= nv; i++) {
        vdata *vd = G->v[i]->data;
        vd->rhs = i <= (int)nc ? 1.0 : (i == sink ? -(double)nc : 0.0);
    }
    /* request slots */
    uint32_t l = s->pr[ch[0]].link;
    for (uint32_t j = 0; j < nr; j++) {
        uint32_t q = rq[j];
        uint32_t deg = 0; /* how many calls could come: at most nc */
        deg = nc < JOINT_KMAX ? nc : JOINT_KMAX;
        double prev = -INFINITY;
        for (uint32_t c = 1; c <= deg; c++) {
            double v = slot_cost(s, s->pr[q].link, l, c, prev);
            prev = v;
            glp_arc *a = glp_add_arc(G, (int)(nc + j + 1), sink);
            adata *ad = a->data;
            ad->low = 0;
            ad->cap = 1;
            ad->cost = to_units(v);
        }
        glp_arc *a = glp_add_arc(G, (int)(nc + j + 1), sink);
        adata *ad = a->data;
        ad->low = 0;
        ad->cap = nc;
        ad->cost = JOINT_CMAX;
    }
    for (uint32_t i = 0; i < nc; i++) {
        uint32_t p = ch[i];
        for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++) {
            uint32_t q = s->cand[j];
            glp_arc *a = glp_add_arc(G, (int)(i + 1), (int)(nc + loc[q] + 1));
            adata *ad = a->data;
            ad->low = 0;
            ad->cap = 1;
            ad->cost = to_units(edge_cost(s, p, q));
        }
    }
    double sol;
    int ret = glp_mincost_okalg(G, offsetof(vdata, rhs), offsetof(adata, low),
                                offsetof(adata, cap), offsetof(adata, cost), &sol,
                                offsetof(adata, x), -1);
    int rc = PB_OK;
    if (ret != 0) {
        s->flow_failures++;
    } else {
        s->flows++;
        for (uint32_t i = 0; i < nc && rc == PB_OK; i++) {
            uint32_t p = ch[i], to = s->par[p];
            for (glp_arc *a = G->v[i + 1]->out; a; a = a->t_next) {
                adata *ad = a->data;
                if (ad->x > 0.5) {
                    to = rq[a->head->i - (int)nc - 1];
                    break;
                }
            }
            if (to != s->par[p]) {
                (*changed)++;
                rc = set_parent(s, p, to);
            }
        }
    }
    glp_delete_graph(G);
    return rc;
}

/* reassign the calls of link l */
static int match_link(joint *s, uint32_t l, const uint32_t *ch, uint32_t nc, int *changed)
{
    /* local numbering: children 0..nc-1, requests nc.. */
    uint32_t nr = 0;
    int rc = PB_OK;
    for (uint32_t i = 0; i < nc; i++) {
        uint32_t p = ch[i];
        for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++) {
            uint32_t q = s->cand[j];
            if (s->stamp[q] != s->epoch) {
                s->stamp[q] = s->epoch;
                s->loc[q] = nr;
                s->rqlist[nr++] = q;
            }
        }
    }
    uint32_t *u = s->uf;
    for (uint32_t i = 0; i < nc + nr; i++)
        u[i] = i;
    for (uint32_t i = 0; i < nc; i++) {
        uint32_t p = ch[i];
        for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++) {
            uint32_t a = uf_find(u, i), b = uf_find(u, nc + s->loc[s->cand[j]]);
            if (a != b)
                u[a < b ? b : a] = a < b ? a : b;
        }
    }
    /* group children and requests by component root (counting sort) */
    uint32_t *cc = s->comp_cnt; /* [nc + nr + 1] */
    memset(cc, 0, ((size_t)nc + nr + 1) * sizeof *cc);
    for (uint32_t i = 0; i < nc + nr; i++)
        cc[uf_find(u, i) + 1]++;
    for (uint32_t i = 0; i < nc + nr; i++)
        cc[i + 1] += cc[i];
    uint32_t *ord = s->comp_ord;
    for (uint32_t i = 0; i < nc + nr; i++)
        ord[cc[uf_find(u, i)]++] = i;
    /* cc[r] is now the end of root r's block; walk the blocks */
    uint32_t b0 = 0;
    for (uint32_t i = 0; i < nc + nr && rc == PB_OK; i++) {
        if (uf_find(u, i) != i)
            continue;
        uint32_t b1 = cc[i];
        uint32_t xc = 0, xr = 0;
        for (uint32_t t = b0; t < b1; t++) {
            uint32_t v = ord[t];
            if (v < nc)
                s->cbuf[xc++] = ch[v];
            else
                s->rbuf[xr++] = s->rqlist[v - nc];
        }
        for (uint32_t t = 0; t < xr; t++)
            s->loc2[s->rbuf[t]] = t;
        if (xc > s->largest)
            s->largest = xc;
        if (xc)
            rc = solve_component(s, s->cbuf, xc, s->rbuf, xr, s->loc2, changed);
        b0 = b1;
    }
    s->epoch++;
    (void)l;
    return rc;
}

/* the same, one call at a time: each call takes the candidate with the
 * least edge cost plus marginal slot cost, the others fixed */
static int greedy_round(joint *s, int *changed)
{
    int rc = PB_OK;
    for (uint32_t p = 0; p < s->npairs && rc == PB_OK; p++) {
        uint32_t c0 = s->cand_off[p], c1 = s->cand_off[p + 1];
        if (c1 - c0 < 2)
            continue;
        uint32_t l = s->pr[p].link, best = NONE;
        double bc = INFINITY;
        for (uint32_t j = c0; j < c1; j++) {
            uint32_t q = s->cand[j];
            const kvec *k = &s->kids[q];
            uint32_t cnt = 0;
            for (uint32_t i = 0; i < k->n; i++)
                cnt += k->a[i] != p && s->pr[k->a[i]].link == l;
            uint32_t e = s->pr[q].link;
            size_t base = s->cnt_off[e] + (size_t)s->link_local[l] * (JOINT_KMAX + 1);
            uint32_t c = cnt + 1 > JOINT_KMAX ? JOINT_KMAX : cnt + 1;
            double v = edge_cost(s, p, q) - (s->cntlp[base + c] - s->cntlp[base + c - 1]);
            if (v < bc) {
                bc = v;
                best = q;
            }
        }
        if (best != NONE && best != s->par[p]) {
            (*changed)++;
            rc = set_parent(s, p, best);
        }
    }
    return rc;
}

static int match_round(joint *s, int *changed)
{
    int rc = PB_OK;
    if (!s->use_flow)
        return greedy_round(s, changed);
    for (uint32_t l = 0; l < s->nlinks && rc == PB_OK; l++) {
        uint32_t nc = 0;
        for (uint32_t i = s->bylink_off[l]; i < s->bylink_off[l + 1]; i++) {
            uint32_t p = s->bylink[i];
            if (s->cand_off[p + 1] > s->cand_off[p])
                s->chbuf[nc++] = p;
        }
        if (nc)
            rc = match_link(s, l, s->chbuf, nc, changed);
    }
    return rc;
}

/* ------------------------------------------------------------------ */
/* 5. exact local search */

static int has_cand(const joint *s, uint32_t p, uint32_t q)
{
    for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++)
        if (s->cand[j] == q)
            return 1;
    return 0;
}

/* merge the kids of q that are not in the set (fixed) with the set members
 * chosen by mask bit value `side`, by call time, into out */
static uint32_t resplit_list(const joint *s, const uint32_t *fx, uint32_t nf,
                             const uint32_t *set, uint32_t m, uint32_t mask, uint32_t side,
                             uint32_t *out)
{
    uint32_t i = 0, j = 0, n = 0;
    for (;;) {
        while (j < m && ((mask >> j) & 1u) != side)
            j++;
        if (i >= nf && j >= m)
            break;
        if (j >= m || (i < nf && (s->pr[fx[i]].cs < s->pr[set[j]].cs ||
                                  (s->pr[fx[i]].cs == s->pr[set[j]].cs && fx[i] < set[j]))))
            out[n++] = fx[i++];
        else
            out[n++] = set[j++];
    }
    return n;
}

/* Re-split the calls q1 and q2 compete for (every split when there are at
 * most JOINT_RESPLIT_MAX, else moves and swaps); returns 1 if changed. */
static int resplit(joint *s, uint32_t q1, uint32_t q2, int *rcp)
{
    const kvec *k1 = &s->kids[q1], *k2 = &s->kids[q2];
    uint32_t need = 2 * (k1->n + k2->n) + 4;
    if (need > s->rscap) {
        uint32_t nc = s->rscap ? s->rscap : 64;
        while (nc < need)
            nc *= 2;
        uint32_t *a = realloc(s->rsbuf, (size_t)nc * 3 * sizeof *a);
        if (!a) {
            *rcp = PB_ENOMEM;
            return 0;
        }
        s->rsbuf = a;
        s->rscap = nc;
    }
    uint32_t *set = s->rsbuf, *f1 = set + s->rscap / 2, *f2 = set + s->rscap,
             *e1 = set + 2 * s->rscap, *e2 = e1 + s->rscap / 2 + 2;
    uint32_t m = 0, n1 = 0, n2 = 0, cur = 0;
    int capped = 0;
    /* shared calls, by call time (merge of the two sorted lists) */
    uint32_t i = 0, j = 0;
    while (i < k1->n || j < k2->n) {
        int from1 = j >= k2->n || (i < k1->n && (s->pr[k1->a[i]].cs < s->pr[k2->a[j]].cs ||
                                                 (s->pr[k1->a[i]].cs == s->pr[k2->a[j]].cs &&
                                                  k1->a[i] < k2->a[j])));
        uint32_t p = from1 ? k1->a[i++] : k2->a[j++];
        uint32_t other = from1 ? q2 : q1;
        int shared = has_cand(s, p, other);
        if (shared && m >= JOINT_RESPLIT_MAX)
            capped = 1;
        if (m < JOINT_RESPLIT_MAX && shared) {
            if (!from1)
                cur |= 1u << m;
            set[m++] = p;
        } else if (from1) {
            f1[n1++] = p;
        } else {
            f2[n2++] = p;
        }
    }
    s->resplit_capped += capped;
    if (m == 0)
        return 0;
    double best = -INFINITY;
    uint32_t bm = cur;
    for (uint32_t mask = 0; mask < (1u << m); mask++) {
        uint32_t a = resplit_list(s, f1, n1, set, m, mask, 0, e1);
        uint32_t b = resplit_list(s, f2, n2, set, m, mask, 1, e2);
        double l1 = 0, l2 = 0;
        if ((*rcp = req_walk(s, q1, e1, a, 0, &l1)) != PB_OK ||
            (*rcp = req_walk(s, q2, e2, b, 0, &l2)) != PB_OK)
            return 0;
        double v = l1 + l2;
        if (s->p.order)
            v += order_ll(s, q1, e1, a, q2, e2, b);
        if (mask == cur)
            v += 1e-9; /* keep the current split on ties */
        if (v > best) {
            best = v;
            bm = mask;
        }
    }
    if (bm == cur)
        return 0;
    for (uint32_t t = 0; t < m && *rcp == PB_OK; t++) {
        uint32_t to = (bm >> t) & 1u ? q2 : q1;
        if (s->par[set[t]] != to) {
            *rcp = set_parent(s, set[t], to);
            s->moves++;
        }
    }
    s->dirty[q1] = s->dirty[q2] = s->pass_id + 1;
    return 1;
}

static int local_search(joint *s, int *changed)
{
    int rc = PB_OK;
    s->seen.n = 0;
    if (s->seen.cap)
        for (size_t t = 0; t < s->seen.cap; t++)
            s->seen.v[t] = NONE;
    for (uint32_t p = 0; p < s->npairs && rc == PB_OK; p++) {
        if (s->cand_off[p + 1] - s->cand_off[p] < 2)
            continue;
        for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1] && rc == PB_OK; j++) {
            uint32_t q1 = s->par[p], q2 = s->cand[j];
            if (q1 == NONE || q2 == q1)
                continue;
            if (s->pass_id > 0 && s->dirty[q1] < s->pass_id && s->dirty[q2] < s->pass_id)
                continue;
            uint64_t key = q1 < q2 ? ((uint64_t)q1 << 32) | q2 : ((uint64_t)q2 << 32) | q1;
            if (hmap_get(&s->seen, key) != NONE)
                continue;
            if ((rc = hmap_put(&s->seen, key, 1)) != PB_OK)
                break;
            if (resplit(s, q1, q2, &rc))
                (*changed)++;
        }
    }
    s->pass_id++;
    return rc;
}

/* ------------------------------------------------------------------ */
/* 6. without call ids: which return answers which call */

static void swap_ret(joint *s, uint32_t a, uint32_t b)
{
    jpair *x = &s->pr[a], *y = &s->pr[b];
    uint32_t r = x->ret;
    pb_ns rs = x->rs, rr = x->rr;
    x->ret = y->ret;
    x->rs = y->rs;
    x->rr = y->rr;
    y->ret = r;
    y->rs = rs;
    y->rr = rr;
}

/* is pair a (as it is now) inside its parent, and well formed */
static int fits_parent(const joint *s, uint32_t a)
{
    const jpair *x = &s->pr[a];
    if (x->rs < x->cr || x->rr < x->cs)
        return 0;
    uint32_t q = s->par[a];
    return q == NONE || x->rr <= s->pr[q].rs + s->p.slack;
}

static inline int inside(const joint *s, uint32_t k, uint32_t a)
{
    return s->pr[k].cs + s->p.slack >= s->pr[a].cr && s->pr[k].rr <= s->pr[a].rs + s->p.slack;
}

/* best split of the kids of a and b between them (returns exchanged
 * already); -INFINITY when some kid fits neither or too many fit both.
 * The split is left in *mask over s->rsbuf's shared list. */
static double best_split(joint *s, uint32_t a, uint32_t b, uint32_t *set, uint32_t *m,
                         uint32_t *fa, uint32_t *na, uint32_t *fb, uint32_t *nb,
                         uint32_t *e1, uint32_t *e2, uint32_t *mask)
{
    const kvec *ka = &s->kids[a], *kb = &s->kids[b];
    *m = *na = *nb = 0;
    uint32_t i = 0, j = 0;
    while (i < ka->n || j < kb->n) {
        int from1 = j >= kb->n || (i < ka->n && (s->pr[ka->a[i]].cs < s->pr[kb->a[j]].cs ||
                                                 (s->pr[ka->a[i]].cs == s->pr[kb->a[j]].cs &&
                                                  ka->a[i] < kb->a[j])));
        uint32_t k = from1 ? ka->a[i++] : kb->a[j++];
        int ia = inside(s, k, a), ib = inside(s, k, b);
        if (ia && ib) {
            if (*m >= JOINT_RESPLIT_MAX) {
                s->resplit_capped++;
                return -INFINITY;
            }
            set[(*m)++] = k;
        } else if (ia) {
            fa[(*na)++] = k;
        } else if (ib) {
            fb[(*nb)++] = k;
        } else {
            return -INFINITY;
        }
    }
    double best = -INFINITY;
    for (uint32_t x = 0; x < (1u << *m); x++) {
        uint32_t n1 = resplit_list(s, fa, *na, set, *m, x, 0, e1);
        uint32_t n2 = resplit_list(s, fb, *nb, set, *m, x, 1, e2);
        double l1 = 0, l2 = 0;
        if (req_walk(s, a, e1, n1, 0, &l1) != PB_OK || req_walk(s, b, e2, n2, 0, &l2) != PB_OK)
            return -INFINITY;
        if (l1 + l2 > best) {
            best = l1 + l2;
            *mask = x;
        }
    }
    return best;
}

/* Returns were paired first in, first out on each link.  Try exchanging
 * the returns of two overlapping calls of one link, re-splitting the calls
 * the two make between them, when both still fit their parents and the
 * four requests touched (the two calls as requests, their parents) become
 * more likely. */
static int swap_pass(joint *s, size_t *swaps)
{
    for (uint32_t l = 0; l < s->nlinks; l++) {
        uint32_t b0 = s->bylink_off[l], b1 = s->bylink_off[l + 1];
        for (uint32_t i = b0; i < b1; i++) {
            uint32_t a = s->bylink[i];
            if (!s->free_ret[a])
                continue;
            for (uint32_t j = i + 1; j < b1 && j < i + 1 + JOINT_SWAP_WINDOW; j++) {
                uint32_t b = s->bylink[j];
                if (!s->free_ret[b])
                    continue;
                if (s->pr[b].cr > s->pr[a].rs)
                    break; /* later calls do not overlap this one */
                uint32_t pa = s->par[a], pb = s->par[b];
                uint32_t need = 4 * (s->kids[a].n + s->kids[b].n) + 8;
                if (pa != NONE && pb != NONE && pa != pb)
                    need += 4 * (s->kids[pa].n + s->kids[pb].n);
                if (need > s->rscap) {
                    uint32_t nc = s->rscap ? s->rscap : 64;
                    while (nc < need)
                        nc *= 2;
                    uint32_t *buf = realloc(s->rsbuf, (size_t)nc * 3 * sizeof *buf);
                    if (!buf)
                        return PB_ENOMEM;
                    s->rsbuf = buf;
                    s->rscap = nc;
                }
                /* ten lists of rscap*3/10 >= need/4 entries each */
                uint32_t q = s->rscap * 3 / 10, *set = s->rsbuf, *fa = set + q, *fb = fa + q,
                         *e1 = fb + q, *e2 = e1 + q, *set2 = e2 + q, *ga = set2 + q,
                         *gb = ga + q, *h1 = gb + q, *h2 = h1 + q;
                uint32_t m = 0, na = 0, nb = 0, mask = 0, m2 = 0, na2 = 0, nb2 = 0, mask2 = 0;
                int split_parents = pa != NONE && pb != NONE && pa != pb;
                double before = req_ll(s, a) + req_ll(s, b) + (pa != NONE ? req_ll(s, pa) : 0) +
                                (pb != NONE && pb != pa ? req_ll(s, pb) : 0);
                swap_ret(s, a, b);
                double after = -INFINITY;
                if (s->pr[a].rs >= s->pr[a].cr && s->pr[a].rr >= s->pr[a].cs &&
                    s->pr[b].rs >= s->pr[b].cr && s->pr[b].rr >= s->pr[b].cs) {
                    after = best_split(s, a, b, set, &m, fa, &na, fb, &nb, e1, e2, &mask);
                    if (after > -INFINITY && split_parents)
                        after += best_split(s, pa, pb, set2, &m2, ga, &na2, gb, &nb2, h1, h2,
                                            &mask2);
                    else if (after > -INFINITY)
                        after += (fits_parent(s, a) && fits_parent(s, b))
                                     ? (pa != NONE ? req_ll(s, pa) : 0) +
                                           (pb != NONE && pb != pa ? req_ll(s, pb) : 0)
                                     : -INFINITY;
                }
                if (!(after > before + 1e-9)) {
                    swap_ret(s, a, b);
                    continue;
                }
                int rc = PB_OK;
                for (uint32_t t = 0; t < na && rc == PB_OK; t++)
                    rc = set_parent(s, fa[t], a);
                for (uint32_t t = 0; t < nb && rc == PB_OK; t++)
                    rc = set_parent(s, fb[t], b);
                for (uint32_t t = 0; t < m && rc == PB_OK; t++)
                    rc = set_parent(s, set[t], (mask >> t) & 1u ? b : a);
                for (uint32_t t = 0; split_parents && t < na2 && rc == PB_OK; t++)
                    rc = set_parent(s, ga[t], pa);
                for (uint32_t t = 0; split_parents && t < nb2 && rc == PB_OK; t++)
                    rc = set_parent(s, gb[t], pb);
                for (uint32_t t = 0; split_parents && t < m2 && rc == PB_OK; t++)
                    rc = set_parent(s, set2[t], (mask2 >> t) & 1u ? pb : pa);
                if (rc != PB_OK)
                    return rc;
                s->pair_of_msg[s->pr[a].ret] = a;
                s->pair_of_msg[s->pr[b].ret] = b;
                (*swaps)++;
            }
        }
    }
    return PB_OK;
}

/* after returns moved: new candidate lists; a parent that no longer
 * contains its call gives it up to the first candidate that does */
static int recandidate(joint *s)
{
    int rc = find_candidates(s);
    for (uint32_t p = 0; p < s->npairs && rc == PB_OK; p++) {
        uint32_t q = s->par[p], keep = NONE;
        for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++)
            if (s->cand[j] == q)
                keep = q;
        if (keep == NONE && s->cand_off[p + 1] > s->cand_off[p])
            keep = s->cand[s->cand_off[p]];
        rc = set_parent(s, p, keep);
    }
    return rc;
}

/* ------------------------------------------------------------------ */
/* 7. without call ids: re-pairing with open-ended requests
 *
 * A pair (call A->B, return B->A) is a request served by B.  Choosing
 * which return answers a call is choosing which of B's requests a response
 * belongs to, so the returns are re-paired the way calls are assigned:
 * first the calls are re-split with every request of a free pair left
 * open-ended (its interval may reach the latest return of its link it
 * could have, and its response is left out of the likelihood), then each
 * return of the link, in order on B's clock, goes to the open call whose
 * request it can end (all that request's calls returned before it) with
 * the most likely response delay from that request's latest input. */

/* the free pairs of link l: calls by arrival (C) and returns by send time
 * (R), both on the callee's clock; returns the count */
static uint32_t link_events(const joint *s, uint32_t l, insort *C, insort *R)
{
    uint32_t nc = 0;
    for (uint32_t i = s->bylink_off[l]; i < s->bylink_off[l + 1]; i++) {
        uint32_t p = s->bylink[i];
        if (!s->free_ret[p])
            continue;
        C[nc] = (insort){s->pr[p].cr, p};
        R[nc] = (insort){s->pr[p].rs, p};
        nc++;
    }
    if (nc > 1) {
        qsort(C, nc, sizeof *C, cmp_insort);
        qsort(R, nc, sizeof *R, cmp_insort);
    }
    return nc;
}

/* every free pair's latest possible end: the return that closes its busy
 * period on the callee's clock (every call that arrived by then has been
 * answered), at most JOINT_SWAP_WINDOW returns after its current one */
static int loose_ends(joint *s)
{
    uint32_t n = s->npairs;
    pb_ns *qe = malloc(((size_t)n + 1) * sizeof *qe);
    if (qe)
        for (uint32_t p = 0; p < n; p++)
            qe[p] = req_end(s, p);
    s->qend = qe;
    insort *C = malloc(((size_t)n + 1) * sizeof *C), *R = malloc(((size_t)n + 1) * sizeof *R);
    uint32_t *pos = malloc(((size_t)n + 1) * sizeof *pos);
    uint32_t *nxt = malloc(((size_t)n + 1) * sizeof *nxt);
    int rc = PB_OK;
    if (!s->qend || !C || !R || !pos || !nxt) {
        rc = PB_ENOMEM;
        goto done;
    }
    for (uint32_t l = 0; l < s->nlinks; l++) {
        uint32_t nc = link_events(s, l, C, R);
        if (nc < 2)
            continue;
        for (uint32_t k = 0; k < nc; k++)
            pos[R[k].p] = k;
        uint32_t i = 0;
        for (uint32_t k = 0; k < nc; k++) {
            while (i < nc && C[i].t <= R[k].t)
                i++;
            nxt[k] = i <= k + 1; /* busy period over after return k */
        }
        uint32_t last = nc - 1;
        for (uint32_t k = nc; k-- > 0;) {
            if (nxt[k])
                last = k;
            nxt[k] = last;
        }
        uint32_t j = 0;
        for (i = 0; i < nc; i++) {
            while (j < nc && R[j].t < C[i].t)
                j++;
            if (j >= nc)
                break;
            uint32_t p = C[i].p, e = nxt[j], cap = pos[p] + JOINT_SWAP_WINDOW;
            if (cap > nc - 1)
                cap = nc - 1;
            if (e > cap)
                e = cap;
            if (R[e].t > s->qend[p])
                s->qend[p] = R[e].t;
        }
    }
done:
    free(C);
    free(R);
    free(pos);
    free(nxt);
    return rc;
}

/* cost of return k (sent at t on the callee's clock, received at rr) as
 * the response of free pair c with its current calls; INFINITY when it
 * cannot be (a call of c returns after it, or it arrives before c left) */
static double response_cost(joint *s, uint32_t c, pb_ns t, pb_ns rr)
{
    const jpair *cc = &s->pr[c];
    const pb_ns w = s->p.slack;
    if (rr + w < cc->cs || t + w < cc->cr)
        return INFINITY;
    const kvec *k = &s->kids[c];
    pb_ns tt = cc->cr;
    uint32_t trig = 0;
    for (uint32_t i = 0; i < k->n; i++) {
        const jpair *x = &s->pr[k->a[i]];
        if (x->ret == NONE)
            continue;
        if (x->rr > t + w)
            return INFINITY;
        if (x->rr >= tt && x->rr <= t) {
            tt = x->rr;
            trig = 1 + x->link;
        }
    }
    uint32_t di = hmap_get(&s->keymap, dkey(cc->link, trig, s->nlinks));
    return -logf_of(s, di, t - tt);
}

/* give every return of each link to a call, in order of the returns on
 * the callee's clock: a call whose latest possible end this return is
 * takes it; else the open call with the least response cost; when none
 * can take it, the earliest open call (first in, first out) */
static int repair_pairs(joint *s, size_t *moved)
{
    uint32_t n = s->npairs;
    insort *C = malloc(((size_t)n + 1) * sizeof *C), *R = malloc(((size_t)n + 1) * sizeof *R);
    uint32_t *open = malloc(((size_t)n + 1) * sizeof *open);
    uint32_t *to = malloc(((size_t)n + 1) * sizeof *to);
    uint32_t *rm = malloc(((size_t)n + 1) * sizeof *rm);
    pb_ns *rsv = malloc(((size_t)n + 1) * sizeof *rsv), *rrv = malloc(((size_t)n + 1) * sizeof *rrv);
    uint32_t *ord = NULL;
    int rc = PB_OK;
    if (!C || !R || !open || !to || !rm || !rsv || !rrv) {
        rc = PB_ENOMEM;
        goto done;
    }
    /* links bottom up: a link after every link out of its callee (so a
     * request's calls are re-paired before its response); cycles and
     * more than 4096 links: in link order */
    ord = malloc(((size_t)s->nlinks + 1) * sizeof *ord);
    unsigned char *done = calloc((size_t)s->nlinks + 1, 1);
    if (!ord || !done) {
        free(ord);
        free(done);
        rc = PB_ENOMEM;
        goto done;
    }
    uint32_t no = 0;
    for (int progress = 1; progress && s->nlinks <= 4096 && no < s->nlinks;) {
        progress = 0;
        for (uint32_t l = 0; l < s->nlinks; l++) {
            if (done[l])
                continue;
            uint32_t b = s->link_dst[l], ok = 1;
            for (uint32_t o = s->out_off[b]; o < s->out_off[b + 1] && ok; o++)
                ok = done[s->out_links[o]] || s->out_links[o] == l;
            if (ok) {
                done[l] = 1;
                ord[no++] = l;
                progress = 1;
            }
        }
    }
    for (uint32_t l = 0; l < s->nlinks; l++)
        if (!done[l])
            ord[no++] = l;
    free(done);
    for (uint32_t li = 0; li < s->nlinks; li++) {
        uint32_t l = ord[li];
        uint32_t nc = link_events(s, l, C, R);
        if (nc < 2)
            continue;
        for (uint32_t k = 0; k < nc; k++) {
            const jpair *x = &s->pr[R[k].p];
            rm[k] = x->ret;
            rsv[k] = x->rs;
            rrv[k] = x->rr;
        }
        uint32_t ci = 0, nopen = 0;
        for (uint32_t k = 0; k < nc; k++) {
            pb_ns t = rsv[k];
            while (ci < nc && C[ci].t <= t)
                open[nopen++] = C[ci++].p;
            if (nopen == 0)
                open[nopen++] = C[ci++].p; /* a return stamped before its call */
            uint32_t pick = NONE;
            for (uint32_t j = 0; j < nopen && pick == NONE; j++)
                if (s->qend[open[j]] <= t)
                    pick = j; /* its last chance */
            if (pick == NONE) {
                double best = INFINITY;
                for (uint32_t j = 0; j < nopen; j++) {
                    double v = response_cost(s, open[j], t, rrv[k]);
                    if (v < best) {
                        best = v;
                        pick = j;
                    }
                }
            }
            if (pick == NONE)
                pick = 0;
            to[open[pick]] = k;
            memmove(open + pick, open + pick + 1, (size_t)(nopen - pick - 1) * sizeof *open);
            nopen--;
        }
        /* then exchange the returns of two nearby calls while that makes
         * both responses more likely together */
        for (int pass = 0; pass < 4; pass++) {
            size_t ex = 0;
            for (uint32_t i = 0; i < nc; i++)
                for (uint32_t j = i + 1; j < nc && j <= i + JOINT_SWAP_WINDOW; j++) {
                    uint32_t c1 = C[i].p, c2 = C[j].p, k1 = to[c1], k2 = to[c2];
                    double cur = response_cost(s, c1, rsv[k1], rrv[k1]) +
                                 response_cost(s, c2, rsv[k2], rrv[k2]);
                    double alt = response_cost(s, c1, rsv[k2], rrv[k2]) +
                                 response_cost(s, c2, rsv[k1], rrv[k1]);
                    if (alt < cur - 1e-9) {
                        to[c1] = k2;
                        to[c2] = k1;
                        ex++;
                    }
                }
            if (!ex)
                break;
        }
        for (uint32_t i = 0; i < nc; i++) {
            uint32_t c = C[i].p, k = to[c];
            jpair *x = &s->pr[c];
            if (x->ret != rm[k])
                (*moved)++;
            x->ret = rm[k];
            x->rs = rsv[k];
            x->rr = rrv[k];
            s->pair_of_msg[rm[k]] = c;
        }
    }
done:
    free(ord);
    free(C);
    free(R);
    free(open);
    free(to);
    free(rm);
    free(rsv);
    free(rrv);
    return rc;
}

/* match rounds and local-search passes; refit: refit the model before
 * each (not while requests are open-ended: their responses are unknown) */
static int solve(joint *s, int refit)
{
    int rc = PB_OK, changed = 1;
    for (int it = 0; rc == PB_OK && it < s->p.iters && changed; it++) {
        changed = 0;
        if (refit)
            rc = fit(s, NULL);
        if (rc == PB_OK)
            rc = match_round(s, &changed);
        s->rounds++;
        s->changes += (size_t)changed;
    }
    s->pass_id = 0;
    int passes = refit || s->p.passes < 2 ? s->p.passes : 2;
    for (int it = 0; rc == PB_OK && it < passes; it++) {
        changed = 0;
        if (refit)
            rc = fit(s, NULL);
        if (rc == PB_OK)
            rc = local_search(s, &changed);
        s->lpasses++;
        if (!changed)
            break;
    }
    return rc;
}

/* the re-pairing rounds (`repair`), each: solve, fit, open the ends,
 * re-split, re-pair, close the ends */
static int repair_rounds(joint *s)
{
    size_t nfree = 0;
    for (uint32_t p = 0; p < s->npairs; p++)
        nfree += s->free_ret[p];
    if (!nfree || s->p.repair <= 0)
        return PB_OK;
    int rc = PB_OK;
    for (int r = 0; rc == PB_OK && r < s->p.repair; r++) {
        size_t moved = 0;
        rc = solve(s, 1);
        if (rc == PB_OK)
            rc = fit(s, NULL);
        if (rc == PB_OK)
            rc = loose_ends(s);
        if (rc == PB_OK)
            rc = recandidate(s);
        if (rc == PB_OK)
            rc = solve(s, 0);
        if (rc == PB_OK)
            rc = repair_pairs(s, &moved);
        free(s->qend);
        s->qend = NULL;
        if (rc == PB_OK)
            rc = recandidate(s);
        s->repaired += moved;
        if (!moved)
            break;
    }
    return rc;
}

/* ------------------------------------------------------------------ */
/* call graph file: lines "CALLER SERVICE CALLEE..." */

static int read_callgraph(joint *s, pb_error *err)
{
    const char *path = s->p.callgraph;
    FILE *f = fopen(path, "r");
    if (!f)
        return pb_error_set(err, PB_EIO, path, 0, 0, "cannot open the call-graph file");
    size_t ncells = s->cnt_off[s->nlinks] / (JOINT_KMAX + 1);
    s->allowed = calloc(ncells + 1, 1);
    if (!s->allowed) {
        fclose(f);
        return PB_ENOMEM;
    }
    char line[4096];
    long ln = 0;
    int rc = PB_OK;
    while (rc == PB_OK && fgets(line, sizeof line, f)) {
        ln++;
        char *h = strchr(line, '#');
        if (h)
            *h = 0;
        char *save = NULL, *tok[256];
        int nt = 0;
        for (char *t = strtok_r(line, " \t\r\n", &save); t && nt < 256;
             t = strtok_r(NULL, " \t\r\n", &save))
            tok[nt++] = t;
        if (nt == 0)
            continue;
        if (nt < 2) {
            rc = pb_error_set(err, PB_EPARSE, path, ln, 1,
                              "a line 'CALLER SERVICE CALLEE...' (at least caller and service)");
            break;
        }
        uint32_t a, b;
        if (!pb_strtab_find(s->v.nodes, tok[0], strlen(tok[0]), &a) ||
            !pb_strtab_find(s->v.nodes, tok[1], strlen(tok[1]), &b))
            continue; /* nodes absent from the trace: nothing to allow */
        uint32_t e = hmap_get(&s->linkmap, ((uint64_t)a << 32) | b);
        if (e == NONE)
            continue;
        for (int i = 2; i < nt; i++) {
            uint32_t c;
            if (!pb_strtab_find(s->v.nodes, tok[i], strlen(tok[i]), &c))
                continue;
            uint32_t l = hmap_get(&s->linkmap, ((uint64_t)b << 32) | c);
            if (l == NONE)
                continue;
            s->allowed[s->cnt_off[e] / (JOINT_KMAX + 1) + s->link_local[l]] = 1;
        }
    }
    if (rc == PB_OK && ferror(f))
        rc = pb_error_set(err, PB_EIO, path, ln, 0, "read error");
    fclose(f);
    return rc;
}

/* ------------------------------------------------------------------ */

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
    if (!s->ord_inv || !s->ord_keep)
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
    /* start: first come, first served per endpoint: every call goes to the
     * open candidate request that arrived first among those with the
     * fewest calls of its endpoint so far */
    int rc = PB_OK;
    for (uint32_t p = 0; p < n; p++)
        s->par[p] = NONE;
    for (uint32_t p = 0; p < n && rc == PB_OK; p++) {
        uint32_t best = NONE, bc = UINT32_MAX, l = s->pr[p].link;
        for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++) {
            uint32_t q = s->cand[j], c = 0;
            const kvec *k = &s->kids[q];
            for (uint32_t i = 0; i < k->n; i++)
                c += s->pr[k->a[i]].link == l;
            if (best == NONE || c < bc ||
                (c == bc && (s->pr[q].cr < s->pr[best].cr ||
                             (s->pr[q].cr == s->pr[best].cr && q < best)))) {
                best = q;
                bc = c;
            }
        }
        if (best != NONE)
            rc = set_parent(s, p, best);
    }
    return rc;
}

int joint_init(joint **out, const pb_trace_view *v, const joint_params *params,
               pb_error *err)
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
    s->nnodes = (uint32_t)pb_strtab_count(v->nodes);
    s->nb = (uint32_t)ceil(11.0 / s->p.bin);
    if (s->nb < 2)
        s->nb = 2;
    s->bg = log(s->p.floor / s->nb / s->p.bin);
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
    int rc = PB_OK;
    s->pair_of_msg = malloc((v->n + 1) * sizeof *s->pair_of_msg);
    if (!s->pair_of_msg)
        rc = PB_ENOMEM;
    if (rc == PB_OK)
        rc = find_pairs(s);
    if (rc == PB_OK)
        rc = find_links(s);
    if (rc == PB_OK && s->p.callgraph && *s->p.callgraph) {
        rc = read_callgraph(s, err);
        if (rc != PB_OK) {
            joint_close(s);
            return rc == PB_ENOMEM ? pb_error_set(err, rc, NULL, 0, 0, "out of memory") : rc;
        }
    }
    if (rc == PB_OK)
        rc = find_candidates(s);
    if (rc == PB_OK)
        rc = init_state(s);
    if (rc == PB_OK)
        rc = repair_rounds(s);
    for (int outer = 0; rc == PB_OK && outer <= s->p.swap_rounds; outer++) {
        int changed = 1;
        for (int it = 0; rc == PB_OK && it < s->p.iters && changed; it++) {
            changed = 0;
            rc = fit(s, NULL);
            if (rc == PB_OK)
                rc = match_round(s, &changed);
            s->rounds++;
            s->changes += (size_t)changed;
        }
        s->pass_id = 0;
        for (int it = 0; rc == PB_OK && it < s->p.passes; it++) {
            changed = 0;
            rc = fit(s, NULL);
            if (rc == PB_OK)
                rc = local_search(s, &changed);
            s->lpasses++;
            if (!changed)
                break;
        }
        if (rc != PB_OK || outer == s->p.swap_rounds)
            break;
        size_t sw = 0;
        rc = fit(s, NULL);
        if (rc == PB_OK)
            rc = swap_pass(s, &sw);
        s->ret_swaps += sw;
        if (rc == PB_OK && sw == 0)
            break;
        if (rc == PB_OK)
            rc = recandidate(s);
    }
    if (rc == PB_OK)
        rc = fit(s, NULL);
    if (rc != PB_OK) {
        joint_close(s);
        if (rc == PB_ERANGE)
            return pb_error_set(err, rc, NULL, 0, 0,
                                "joint: too many links or candidates for 32-bit indices");
        return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
    }
    *out = s;
    return PB_OK;
}

void joint_close(joint *s)
{
    if (!s)
        return;
    if (s->kids)
        for (uint32_t q = 0; q < s->npairs; q++)
            free(s->kids[q].a);
    void *f[] = {s->pr, s->pair_of_msg, s->cand_off, s->cand, s->par, s->kids,
                 s->link_src, s->link_dst, s->out_off, s->out_links, s->link_local,
                 s->cnt_off, s->cnt, s->cntlp, s->allowed, s->hist, s->logf, s->kstat,
                 s->scratch, s->edit, s->ccount, s->stamp, s->loc, s->loc2, s->rqlist,
                 s->uf, s->comp_cnt, s->comp_ord, s->cbuf, s->rbuf, s->chbuf,
                 s->bylink, s->bylink_off};
    for (size_t i = 0; i < sizeof f / sizeof *f; i++)
        free(f[i]);
    hmap_free(&s->linkmap);
    hmap_free(&s->keymap);
    hmap_free(&s->seen);
    free(s->rsbuf);
    free(s->qend);
    free(s->hmax);
    free(s->kmean);
    free(s->free_ret);
    free(s->ord_inv);
    free(s->ord_keep);
    free(s->clean);
    free(s->dirty);
    free(s);
}

uint32_t joint_npairs(const joint *s) { return s->npairs; }
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
    int rc = joint_init(&s, trace, params, err);
    if (rc != PB_OK)
        return rc;
    rc = joint_paths(s, res, err);
    joint_close(s);
    return rc;
}

const pb_algo pb_algo_joint = {
    "joint", "call",
    "pathbench's joint reconstruction: calls ascribed to requests by a learned delay "
    "model, greedy or min-cost-flow rounds and an exact re-split of competing requests",
    joint_options, sizeof(joint_params), joint_run, NULL};
