/*
 * joint_cand.c - joint: pairing calls with returns, the links (caller,
 * callee), and the candidate parents of every call (docs/joint/model.md, "The
 * model": candidates on one clock; pairing calls with returns).
 */
#include "joint_int.h"
#include "pb_mem.h"
#include "pb_hash.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

#define NONE JOINT_NONE

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

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

static int cmp_pkey_t(const void *x, const void *y)
{
    const pkey *a = x, *b = y;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return a->msg < b->msg ? -1 : a->msg > b->msg;
}

static inline uint64_t pkey_hash(const pkey *a)
{
    return pb_mix64(a->cid ^ pb_mix64(((uint64_t)a->caller << 32) | a->callee));
}

/* Group k[0..n) by (caller, callee, call id), each group in (time,
 * message) order, the groups in the order of their first message: the
 * same groups, each in the same order, as sorting by cmp_pkey, in linear
 * time but for the sorts inside the groups (with call ids, two messages
 * each).  Which group comes first does not matter to the pairing: each
 * is paired alone.  PB_OK or PB_ENOMEM (k is then unchanged). */
static int group_pkeys(pkey *k, size_t n)
{
    if (n < 2)
        return PB_OK;
    size_t cap = 64;
    while (cap < 2 * n)
        cap *= 2;
    uint32_t *tab = malloc(cap * sizeof *tab);     /* a group's first entry */
    uint32_t *gid = malloc(n * sizeof *gid);
    uint32_t *off = calloc(n + 1, sizeof *off);
    pkey *out = malloc(n * sizeof *out);
    int rc = tab && gid && off && out ? PB_OK : PB_ENOMEM;
    if (rc == PB_OK) {
        for (size_t j = 0; j < cap; j++)
            tab[j] = NONE;
        uint32_t ng = 0;
        for (size_t i = 0; i < n; i++) {
            size_t j = pkey_hash(&k[i]) & (cap - 1);
            for (;; j = (j + 1) & (cap - 1)) {
                if (tab[j] == NONE) {
                    tab[j] = (uint32_t)i;
                    gid[i] = ng++;
                    break;
                }
                const pkey *r = &k[tab[j]];
                if (r->caller == k[i].caller && r->callee == k[i].callee && r->cid == k[i].cid) {
                    gid[i] = gid[tab[j]];
                    break;
                }
            }
            off[gid[i] + 1]++;
        }
        for (uint32_t g = 0; g < ng; g++)
            off[g + 1] += off[g];
        for (size_t i = 0; i < n; i++)
            out[off[gid[i]]++] = k[i]; /* stable; off[g] ends at group g's end */
        for (uint32_t g = ng; g-- > 0;)
            off[g + 1] = off[g];
        off[0] = 0;
        for (uint32_t g = 0; g < ng; g++) {
            pkey *a = out + off[g];
            size_t m = off[g + 1] - off[g];
            if (m <= 8) {
                for (size_t i = 1; i < m; i++) /* insertion sort */
                    for (size_t t = i; t > 0 && cmp_pkey_t(&a[t - 1], &a[t]) > 0; t--) {
                        pkey x = a[t];
                        a[t] = a[t - 1];
                        a[t - 1] = x;
                    }
            } else {
                pb_sort(a, m, sizeof *a, cmp_pkey_t);
            }
        }
        memcpy(k, out, n * sizeof *k);
    }
    free(tab);
    free(gid);
    free(off);
    free(out);
    return rc;
}

/* Sort the pairs (call << 32 | return, or message << 32 | NONE for a half
 * pair) by their high half, which no two pairs share (a message is in one
 * pair at most): placed by message index in linear time; the order of
 * sorting them as numbers.  Falls back to qsort if two shared it. */
static void sort_pairs(uint64_t *pairs, size_t np, size_t nmsg)
{
    uint64_t *slot = np > 1 ? malloc((nmsg + 1) * sizeof *slot) : NULL;
    unsigned char *used = np > 1 ? calloc(nmsg + 1, 1) : NULL;
    int ok = slot && used;
    for (size_t i = 0; ok && i < np; i++) {
        size_t h = (size_t)(pairs[i] >> 32);
        if (h > nmsg || used[h])
            ok = 0;
        else {
            used[h] = 1;
            slot[h] = pairs[i];
        }
    }
    if (ok) {
        size_t m = 0;
        for (size_t h = 0; h <= nmsg; h++)
            if (used[h])
                pairs[m++] = slot[h];
    } else if (np > 1) {
        pb_sort(pairs, np, sizeof *pairs, cmp_u64);
    }
    free(slot);
    free(used);
}

static int set_pairs(joint *s, uint64_t *pairs, size_t np);

int joint_find_pairs(joint *s)
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
    uint64_t *gp = NULL;
    size_t ng = 0;
    if (s->unpm_mate) { /* unp_pieces' merge: the pairs given (joint_unpmerge.c) */
        gp = malloc((s->calls + s->returns + 1) * sizeof *gp);
        if (!gp)
            return PB_ENOMEM;
        for (size_t i = 0; i < s->v.n; i++) {
            uint32_t r = s->unpm_mate[i];
            if (m[i].type == PB_TYPE_CALL && r != NONE) {
                s->pair_of_msg[i] = s->pair_of_msg[r] = 0;
                gp[ng++] = ((uint64_t)i << 32) | r;
            }
        }
        /* conf_copy_warm_pairs: only some pairs given, the rest paired below (joint_scwarm.c) */
        if (!s->unpm_partial)
            return set_pairs(s, gp, ng);
    }
    pkey *k = malloc((s->calls + s->returns + 1) * sizeof *k);
    if (!k) {
        free(gp);
        return PB_ENOMEM;
    }
    for (size_t i = 0; i < s->v.n; i++) {
        if (s->pair_of_msg[i] != NONE) /* given (conf_copy_warm_pairs) */
            continue;
        uint64_t cid = s->p.callids ? m[i].callid : PB_ID_NONE;
        /* order calls and returns on the callee's clock: a call by its
         * receive time, a return by its send time */
        if (m[i].type == PB_TYPE_CALL)
            k[nk++] = (pkey){m[i].src, m[i].dst, cid,
                             m[i].recv_ts != PB_TS_NONE ? m[i].recv_ts : m[i].ts, (uint32_t)i};
        else if (m[i].type == PB_TYPE_RETURN)
            k[nk++] = (pkey){m[i].dst, m[i].src, cid, m[i].ts, (uint32_t)i};
    }
    if (group_pkeys(k, nk) != PB_OK)
        pb_sort(k, nk, sizeof *k, cmp_pkey); /* no memory for the grouping */
    /* per key, in callee-clock order: a return takes the earliest open call */
    uint64_t *pairs = malloc((nk + ng + 1) * sizeof *pairs);
    uint32_t *queue = malloc((nk + 1) * sizeof *queue);
    if (!pairs || !queue) {
        free(k);
        free(pairs);
        free(queue);
        free(gp);
        return PB_ENOMEM;
    }
    size_t np = 0;
    for (size_t g = 0; g < ng; g++) /* conf_copy_warm_pairs: the pairs given */
        pairs[np++] = gp[g];
    free(gp);
    uint32_t *early = malloc((nk + 1) * sizeof *early);
    if (!early) {
        free(k);
        free(pairs);
        free(queue);
        return PB_ENOMEM;
    }
    const pb_ns w = s->p.early;
    /* without call ids: the most likely in-order alignment (joint_align.c) */
    pb_ns *al_t = NULL, *al_a = NULL, *idle = NULL;
    size_t *idle_off = NULL;
    uint32_t *al_m = NULL;
    unsigned char *al_c = NULL;
    int nest_ok = 0;
    if (s->p.align) {
        al_t = malloc((nk + 1) * sizeof *al_t);
        al_a = malloc((nk + 1) * sizeof *al_a);
        al_m = malloc((nk + 1) * sizeof *al_m);
        al_c = malloc(nk + 1);
        /* the nesting test needs the services' idle starts, only when some
         * link has no call ids */
        int any = 0;
        for (size_t t = 0; t < nk && !any; t++)
            any = k[t].cid == PB_ID_NONE;
        if (any && s->p.align_nest > 0 &&
            joint_idle_starts(m, s->v.n, s->nnodes, &idle, &idle_off) == PB_OK)
            nest_ok = 1;
    }
    for (size_t i = 0; i < nk;) {
        size_t j = i;
        while (j < nk && k[j].caller == k[i].caller && k[j].callee == k[i].callee &&
               k[j].cid == k[i].cid)
            j++;
        if (s->p.align && k[i].cid == PB_ID_NONE) {
            int arc = al_t && al_a && al_m && al_c ? PB_OK : PB_ENOMEM;
            size_t np0 = np, amb0 = s->align.ambiguous, ne = 0;
            /* joint_unpaired.c chose the link's unpaired messages: they
             * stay out, the rest is paired in order (no nesting test) */
            int forced = 0;
            for (size_t t = i; s->force_unp && t < j && !forced; t++)
                forced = s->force_unp[k[t].msg] != 0;
            for (size_t t = i; arc == PB_OK && t < j; t++) {
                const pb_msg *x = &m[k[t].msg];
                if (forced && s->force_unp[k[t].msg] == 1)
                    continue;
                al_t[ne] = k[t].t;
                al_m[ne] = k[t].msg;
                al_c[ne] = x->type == PB_TYPE_CALL;
                /* on the caller's clock: a call's send, a return's receipt */
                al_a[ne++] = x->type == PB_TYPE_CALL || x->recv_ts == PB_TS_NONE ? x->ts
                                                                                 : x->recv_ts;
            }
            joint_align_nest nest = {0};
            nest.fifo_start = s->p.align_starts == 2;
            joint_align_info info;
            int callee_side = 0;
            if (nest_ok && !forced && k[i].caller < s->nnodes) {
                nest.ta = al_a;
                nest.idle = idle + idle_off[k[i].caller];
                nest.nidle = idle_off[k[i].caller + 1] - idle_off[k[i].caller];
                nest.pen = s->p.align_nest;
                /* a caller that never serves a request (a client) has no
                 * idle starts: test the pairs on the callee's clock
                 * instead, where no pair may span a moment the callee
                 * served no request (joint_align.h) */
                if (nest.nidle == 0 && k[i].callee < s->nnodes &&
                    idle_off[k[i].callee + 1] > idle_off[k[i].callee]) {
                    nest.ta = al_t;
                    nest.idle = idle + idle_off[k[i].callee];
                    nest.nidle = idle_off[k[i].callee + 1] - idle_off[k[i].callee];
                    callee_side = 1;
                }
            }
            if (arc == PB_OK)
                arc = joint_align_link_nest(al_t, al_m, al_c, ne, w, &nest, pairs, &np,
                                            &s->align, &info);
            s->align.skipped += (j - i) - ne;
            if (arc == PB_OK && info.cross_first > 0) {
                joint_align_rec *r = realloc(s->align_rec, (s->nalign_rec + 1) * sizeof *r);
                if (!r)
                    arc = PB_ENOMEM;
                else {
                    s->align_rec = r;
                    r[s->nalign_rec].caller = k[i].caller;
                    r[s->nalign_rec].callee = k[i].callee;
                    r[s->nalign_rec].callee_side = (uint8_t)callee_side;
                    r[s->nalign_rec++].info = info;
                }
            }
            if (arc != PB_OK) {
                free(al_a);
                free(idle);
                free(idle_off);
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
    free(al_a);
    free(idle);
    free(idle_off);
    free(al_m);
    free(al_c);
    free(early);
    free(k);
    free(queue);
    return set_pairs(s, pairs, np);
}

/* The pair table from pairs[0..np) (call << 32 | return, full pairs, their
 * messages' pair_of_msg set to 0): the other calls and returns kept as
 * half pairs (halves), sorted, s->pr, pair_of_msg, free_ret and the
 * counts set; pairs freed.  PB_OK or PB_ENOMEM */
static int set_pairs(joint *s, uint64_t *pairs, size_t np)
{
    const pb_msg *m = s->v.msgs;
    size_t full = np;
    /* a call whose return was lost, or a return whose call was lost, is
     * kept as a half pair: its known end stands for both */
    for (size_t i = 0; s->p.halves && i < s->v.n; i++)
        if ((m[i].type == PB_TYPE_CALL || m[i].type == PB_TYPE_RETURN) &&
            s->pair_of_msg[i] == NONE)
            pairs[np++] = ((uint64_t)i << 32) | NONE;
    sort_pairs(pairs, np, s->v.n);
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
int joint_find_links(joint *s)
{
    int rc = PB_OK;
    for (uint32_t i = 0; i < s->npairs && rc == PB_OK; i++) {
        uint64_t key = ((uint64_t)s->pr[i].caller << 32) | s->pr[i].callee;
        uint32_t l = joint_hmap_get(&s->linkmap, key);
        if (l == NONE) {
            l = s->nlinks++;
            if (l >= JOINT_MAX_LINKS)
                return PB_ERANGE;
            rc = joint_hmap_put(&s->linkmap, key, l);
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
    s->ibin = s->p.bin > 0 ? 1.0 / s->p.bin : 0;
    /* logf_of's cache, every entry the delay INT64_MIN with its own values
     * (without the cache logf_of computes directly) */
    s->logc = malloc(sizeof *s->logc);
    if (s->logc) {
        double ld0 = log(s->dmin);
        uint32_t b0 = dbin(s, INT64_MIN);
        for (size_t i = 0; i < (1u << JOINT_LOGC_BITS); i++) {
            s->logc->d[i] = INT64_MIN;
            s->logc->ld[i] = ld0;
            s->logc->bin[i] = b0;
        }
    }
    /* direct tables of the density and parallel-call keys (joint_dk_cell):
     * (1 + outgoing links of the callee)^2 cells per in link, while they
     * stay within JOINT_DK_MAX cells (the hash maps answer beyond) */
    size_t dtot = 0;
    for (uint32_t e = 0; e < s->nlinks && dtot <= JOINT_DK_MAX; e++) {
        uint32_t b = s->link_dst[e];
        size_t no1 = (size_t)(s->out_off[b + 1] - s->out_off[b]) + 1;
        dtot += no1 * no1;
    }
    if (dtot <= JOINT_DK_MAX) {
        s->dk_off = malloc(((size_t)s->nlinks + 1) * sizeof *s->dk_off);
        s->dk_key = malloc((dtot + 1) * sizeof *s->dk_key);
        s->dk_par = malloc((dtot + 1) * sizeof *s->dk_par);
        if (!s->dk_off || !s->dk_key || !s->dk_par)
            return PB_ENOMEM;
        dtot = 0;
        for (uint32_t e = 0; e < s->nlinks; e++) {
            uint32_t b = s->link_dst[e];
            size_t no1 = (size_t)(s->out_off[b + 1] - s->out_off[b]) + 1;
            s->dk_off[e] = (uint32_t)dtot;
            dtot += no1 * no1;
        }
        for (size_t i = 0; i <= dtot; i++)
            s->dk_key[i] = s->dk_par[i] = NONE;
    }
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

/* ------------------------------------------------------------------ */
/* 2. candidates */



int joint_cmp_insort(const void *x, const void *y)
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

int joint_cand_cap(joint *s, uint32_t *c, size_t got, size_t kmax, size_t rank)
{
    if (s->p.cand_ends) /* both ends: joint_candends.c */
        return joint_cand_ends(s, c, got, kmax, rank);
    /* the latest-started enclosing requests are kept (c is in order of
     * request start); among requests tied at the start of the last one
     * kept, a window that turns with the call's rank, so that ties spread
     * over the calls */
    pb_ns tk = req_start(s, c[got - kmax]);
    size_t lo = got - kmax, hi = got - kmax + 1;
    while (lo > 0 && req_start(s, c[lo - 1]) == tk)
        lo--;
    while (hi < got && req_start(s, c[hi]) == tk)
        hi++;
    size_t g = hi - lo, need = kmax - (got - hi);
    size_t rot = rank % g;
    uint32_t *pick = malloc(kmax * sizeof *pick);
    if (!pick)
        return PB_ENOMEM;
    size_t np = 0;
    for (size_t j = 0; j < need; j++)
        pick[np++] = c[lo + (rot + j) % g];
    /* back in the order of open (ties: by pair index) */
    pb_sort(pick, np, sizeof *pick, cmp_u32);
    for (size_t j = hi; j < got; j++)
        pick[np++] = c[j];
    memcpy(c, pick, kmax * sizeof *c);
    free(pick);
    return PB_OK;
}

void joint_cand_recount(joint *s)
{
    uint32_t n = s->npairs;
    size_t amb = 0, nest = 0;
    for (uint32_t p = 0; p < n; p++) {
        uint32_t got = s->cand_off[p + 1] - s->cand_off[p];
        amb += got > 1;
        nest += got > 0;
    }
    s->ncand = s->cand_off[n];
    s->ambiguous = amb;
    s->nested = nest;
}

/* cand_fast: the service's structure made (its begun requests [0, ip)
 * marked); PB_OK or PB_ENOMEM */
static int cfast_ready(const joint *s, joint_cfast *cf, const insort *in, uint32_t n, uint32_t ip,
                       int *ready)
{
    int rc = joint_cfast_init(s, cf, in, n);
    if (rc != PB_OK)
        return rc;
    for (uint32_t i = 0; i < ip; i++)
        joint_cfast_begin(cf, i);
    *ready = 1;
    return PB_OK;
}

int joint_find_candidates(joint *s)
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
    uint32_t *cpos = malloc(((size_t)n + 1) * sizeof *cpos); /* cand_sweep's answers */
    joint_ctree ct = {0};
    joint_cgroup cg = {0}; /* cand_group (joint_cgroup.c) */
    joint_cfast cf = {0};  /* cand_fast (joint_cfast.c) */
    uint64_t tgen = 0;     /* the tree's changes */
    uint32_t *crank = NULL; /* each call's rank among its caller's (tie_rows_wide) */
    int rc = PB_OK;
    if (!in_off || !out_off || !in || !out || !open || !start || !cnt || !cpos) {
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
        pb_sort(tmp, o1 - o0, sizeof *tmp, joint_cmp_insort);
        for (uint32_t o = o0; o < o1; o++)
            out[o] = tmp[o - o0].p;
        free(tmp);
    }
    const pb_ns w = s->p.slack;
    const size_t kmax = s->p.max_cand > 0 ? (size_t)s->p.max_cand : 256;
    /* tie_rows: collected wider, the rows cut them, then capped at kmax
     * (joint_rowcap.c) */
    const size_t kpre = joint_rowcap_wide(s, kmax);
    if (kpre > kmax && !(crank = malloc(((size_t)n + 1) * sizeof *crank))) {
        rc = PB_ENOMEM;
        goto done;
    }
    s->capped_calls = s->capped_max = 0;
    s->late_cands = 0;
    for (uint32_t a = 0; a < nn && rc == PB_OK; a++) {
        uint32_t i0 = in_off[a], i1 = in_off[a + 1];
        if (i1 - i0 > 1)
            pb_sort(in + i0, i1 - i0, sizeof *in, joint_cmp_insort);
        uint32_t ip = i0, nopen = 0;
        /* calls that outlive their request (joint_late.c): a service that
         * passed the test keeps requests open this long after their end */
        const pb_ns lg = s->late_gap && s->late_gap[a] >= 0 ? s->late_gap[a] : -1;
        const pb_ns lw = lg > 0 ? lg : 0;
        /* the send side (joint_latesend.c) */
        const pb_ns ls = lg >= 0 && s->late_sgap ? s->late_sgap[a] : lg;
        const int lall = lg >= 0 && s->late_stat[JOINT_LATE_NSTAT * (size_t)a + 7] > 0;
        /* cand_sweep (joint_csweep.c): the tree once the list is long;
         * since: calls served by it since the list was last compacted */
        int tree = 0;
        uint32_t since = 0;
        /* cand_fast (joint_cfast.c): made for the service once a list was
         * more than twice the cap long (the last call's list) */
        int cf_ready = 0;
        size_t last_got = 0;
        joint_cgroup_reset(&cg);
        for (uint32_t o = out_off[a]; o < out_off[a + 1] && rc == PB_OK; o++) {
            uint32_t p = out[o];
            const jpair *pp = &s->pr[p];
            while (ip < i1 && in[ip].t - w <= pp->cs) {
                if (tree) {
                    joint_csweep_set(&ct, ip - i0, req_end(s, in[ip].p));
                    if (cf_ready)
                        joint_cfast_begin(&cf, ip - i0);
                    tgen++;
                }
                open[nopen++] = in[ip++].p;
            }
            uint32_t keep = 0;
            start[p] = (uint32_t)s->ncand;
            int grouped = 0; /* cand_group: cut from the group's list */
            int fasted = 0;  /* cand_fast: the kept ones taken directly */
            size_t fgot = 0;
            if (s->p.cand_sweep && lg < 0 && nopen > joint_csweep_min) {
                if (!tree) { /* every request begun so far, dropped or not */
                    if ((rc = joint_csweep_init(&ct, i1 - i0)) != PB_OK)
                        break;
                    for (uint32_t i = i0; i < ip; i++)
                        joint_csweep_set(&ct, i - i0, req_end(s, in[i].p));
                    tree = 1;
                    tgen++;
                }
                /* a call of a service calling itself may be a candidate of
                 * the calls before it: never grouped */
                if (s->p.cand_group && s->p.cand_ends && pp->callee != a &&
                    joint_cgroup_hit(&cg, a, pp->cs, pp->rr, tgen, kpre)) {
                    /* the same list as the group's first call: cut it */
                    if (pb_grow(&s->cand, sizeof *s->cand, &s->candcap, s->ncand + kpre, 4096) !=
                            PB_OK ||
                        (rc = joint_cgroup_cut(s, &cg, o - out_off[a], s->cand + s->ncand)) !=
                            PB_OK) {
                        rc = rc != PB_OK ? rc : PB_ENOMEM;
                        break;
                    }
                    s->ncand += kpre;
                    grouped = 1;
                    s->cgroup_calls++;
                } else if (s->p.cand_fast && s->p.cand_ends && kpre > 0 && pp->callee != a &&
                           last_got > 2 * kpre &&
                           (cf_ready || (rc = cfast_ready(s, &cf, in + i0, i1 - i0, ip - i0,
                                                          &cf_ready)) == PB_OK) &&
                           !(o + 1 < out_off[a + 1] && s->pr[out[o + 1]].cs == pp->cs &&
                             s->pr[out[o + 1]].rr == pp->rr) &&
                           pb_grow(&s->cand, sizeof *s->cand, &s->candcap, s->ncand + kpre, 4096) ==
                               PB_OK &&
                           joint_cfast_pick(s, &ct, &cf, w, lw, pp->cs, pp->rr, kpre, o - out_off[a],
                                            cpos, &fgot)) {
                    /* cand_fast: the cap's picks of a list too long, from its
                     * two ends (the next call differs, so no group is lost) */
                    for (size_t j = 0; j < kpre; j++)
                        s->cand[s->ncand++] = in[i0 + cpos[j]].p;
                    joint_cgroup_reset(&cg);
                    fasted = 1;
                } else {
                    uint32_t nq = joint_csweep_query(&ct, w, lw, pp->cs, pp->rr, cpos);
                    int self = 0;
                    for (uint32_t j = 0; j < nq && rc == PB_OK; j++) {
                        if (in[i0 + cpos[j]].p != p)
                            rc = add_cand(s, in[i0 + cpos[j]].p);
                        else
                            self = 1;
                    }
                    joint_cgroup_reset(&cg);
                    /* a list worth keeping: cut, no call its own candidate */
                    if (rc == PB_OK && s->p.cand_group && s->p.cand_ends && !self && pp->callee != a &&
                        s->ncand - start[p] > kpre && kpre > 0)
                        rc = joint_cgroup_keep(&cg, s->cand + start[p], s->ncand - start[p], a,
                                               pp->cs, pp->rr, tgen, kpre);
                }
                s->csweep_calls++;
                if (++since >= nopen / 4) { /* the scan's drops, amortised */
                    for (uint32_t j = 0; j < nopen; j++)
                        if (!(req_end(s, open[j]) + w + lw < pp->cs))
                            open[keep++] = open[j];
                    nopen = keep;
                    since = 0;
                }
            } else {
                for (uint32_t j = 0; j < nopen; j++) {
                    uint32_t q = open[j];
                    pb_ns qe = req_end(s, q);
                    if (qe + w + lw < pp->cs)
                        continue; /* over before this call: never again */
                    open[keep++] = q;
                    if (q != p && qe + w >= pp->rr)
                        rc = add_cand(s, q);
                }
                nopen = keep;
            }
            if (lg >= 0 && pp->call != NONE) {
                /* a service whose calls outlive their requests: every
                 * request the call was sent in, or sent at most the
                 * service's gap after, in the order of open (the strict
                 * candidates are among them) */
                size_t strict = s->ncand - start[p];
                s->ncand = start[p];
                for (uint32_t j = 0; j < nopen && rc == PB_OK; j++)
                    if (open[j] != p &&
                        joint_late_cand(s, strict, req_end(s, open[j]) + w, pp->cs, pp->rr, lg, ls,
                                        lall || (s->late_lshare && s->late_lshare[pp->link] >= 0.5)))
                        rc = add_cand(s, open[j]);
                s->late_cands += s->ncand - start[p] > strict;
            }
            size_t got = grouped ? cg.n : fasted ? fgot : s->ncand - start[p];
            last_got = got;
            if (crank)
                crank[p] = o - out_off[a];
            if (grouped || fasted) {
                if (kpre == kmax)
                    s->capped_calls++;
                if (got > s->capped_max)
                    s->capped_max = got;
            } else if (got > kpre) {
                rc = joint_cand_cap(s, s->cand + start[p], got, kpre, o - out_off[a]);
                if (rc != PB_OK)
                    break;
                s->ncand = start[p] + kpre;
                if (kpre == kmax)
                    s->capped_calls++;
                if (got > s->capped_max)
                    s->capped_max = got;
            }
            cnt[p] = (uint32_t)(s->ncand - start[p]);
        }
    }
    if (s->capped_calls > s->capped_ever)
        s->capped_ever = s->capped_calls;
    if (s->capped_max > s->capped_ever_max)
        s->capped_ever_max = s->capped_max;
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
    rc = joint_rowtie_apply(s); /* tie_rows (joint_rowtie.c) */
    if (rc == PB_OK && crank)
        rc = joint_rowcap_apply(s, crank, kmax); /* joint_rowcap.c */
    if (rc == PB_OK)
        rc = joint_thread_apply(s); /* thread_bound (joint_thread.c) */
    if (rc == PB_OK && s->unpf)
        rc = joint_unpf_cands(s); /* unp_freeze: the frozen calls' parents (joint_unpfreeze.c) */
done:
    free(crank);
    free(in_off);
    free(out_off);
    free(in);
    free(out);
    free(open);
    free(start);
    free(cnt);
    free(cpos);
    joint_csweep_free(&ct);
    joint_cgroup_free(&cg);
    joint_cfast_free(&cf);
    return rc;
}
