/*
 * joint_rsmemo.c - joint: a re-split whose inputs and whose model are
 * those of the same pair's last re-split, which kept its split, is not
 * made again (`rs_memo`; speed only, the same choices; issue 28, "Speed,
 * twenty-sixth wave (h218)" in docs/joint/speed_late.md).
 *
 * A re-split of requests q1, q2 (joint_search.c, resplit) is a function of
 * what it reads: the two requests' own pairs (their call and response,
 * the end the re-pairing gives them), their calls (index, link, send,
 * return, receipt, which of them are shared and which are not), and the
 * model for their two incoming links: the densities and means of every
 * key of the links' direct tables, the parallel-call flags of those cells,
 * the call-count log-probabilities, the durations term's fit, the order
 * terms of the callee's outgoing links, and a few run-wide values (the
 * background, whether any call is parallel, the late-response gap of the
 * two services).  The refits between passes and solves change the model,
 * but on OnlineBoutique nearly always in one link only (the front end's):
 * a re-split of two requests of another link that reads what it read last
 * time finds what it found, and when that was "keep the split" (nothing
 * written but the counters) it is left out and its counters are added as
 * they were.  Everything read is compared in full: the model by a 64-bit
 * hash of its bytes per link, made once per pass (the model is fixed
 * within a pass), the inputs by a 64-bit hash; a collision (about 2^-64
 * a comparison) is the only way to differ.  Not used where the walk reads
 * more than that: late counts, the set of calls, loss_serial, thread_soft,
 * late-call timers, no direct key tables, ls_margin, swap_floor, or the
 * test hooks that move estimates.  The work counters that depend on the
 * caches other re-splits leave (resplit_memo_hits, resplit_wcache_hits)
 * are replayed as recorded, so they may differ from a run without the
 * rule; every other line is the same.
 */
#include "joint_int.h"
#include "joint_rules.h"

#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE

enum { RSM_NCNT = 10 };

struct rsm_ent {
    uint64_t fp, mh;
    size_t d[RSM_NCNT];
};

struct joint_rsm {
    hmap idx; /* ordered pair key -> entry */
    struct rsm_ent *e;
    uint32_t n, cap;
    uint64_t *lh;     /* per link: the model hash of this pass */
    uint64_t *lstamp; /* per link: the pass it was made in */
    uint32_t nl;
    uint64_t glob, gstamp;
    /* the re-split running: its entry's place and the counters before */
    uint64_t cur_fp, cur_mh, cur_key;
    size_t before[RSM_NCNT];
    int armed;
};

static inline uint64_t mix(uint64_t h, uint64_t x)
{
    h = (h ^ x) * 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 29);
}

static uint64_t mix_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x;
        memcpy(&x, c + i, 8);
        h = mix(h, x);
    }
    uint64_t x = 0;
    if (i < n) {
        memcpy(&x, c + i, n - i);
        h = mix(h, x ^ 0xa5a5u);
    }
    return h;
}

/* a pair's every field (not its bytes: no padding read) */
static uint64_t mix_pair(uint64_t h, const jpair *x)
{
    h = mix(h, (uint64_t)x->cs);
    h = mix(h, (uint64_t)x->rr);
    h = mix(h, ((uint64_t)x->call << 32) | x->ret);
    h = mix(h, ((uint64_t)x->link << 32) | x->caller);
    h = mix(h, (uint64_t)x->cr);
    h = mix(h, (uint64_t)x->rs);
    return mix(h, x->callee);
}

static size_t *cnt_field(joint *s, int i)
{
    switch (i) {
    case 0: return &s->est_evals;
    case 1: return &s->est_pruned;
    case 2: return &s->resplit_local;
    case 3: return &s->ordb_est;
    case 4: return &s->ordb_swap;
    case 5: return &s->bnb_scored;
    case 6: return &s->bnb_cut;
    case 7: return &s->bnb_rows_kept;
    case 8: return &s->lsm_hits;
    default: return &s->wc_hits;
    }
}

/* may the rule run at all (the walk reads only what the hashes cover) */
static int rsm_usable(const joint *s)
{
    return s->p.rs_memo && s->dk_off && !s->lc_on && !s->os_ein && !s->lser_on &&
           !(s->p.thread_soft > 0 && s->thr) && !s->la_timer && !(s->p.ls_margin > 0) &&
           !s->xfloor_on && joint_prune_test_bias == 0 && joint_ordbound_test_slack == 0 &&
           joint_rsmemo_test_off == 0;
}

int joint_rsmemo_test_off = 0;
int joint_rsmemo_test_verify = 0;
size_t joint_rsmemo_test_bad = 0;

/* the run-wide values a walk reads.  Not the count of keys or of
 * parallel-call keys: a walk of a request reads its keys and parallel
 * flags through its link's direct tables only (every output and trigger
 * is a call of the request's own service, or its response), and
 * link_hash covers every cell of them (a key or flag made since changes
 * its cell) */
static uint64_t glob_hash(const joint *s)
{
    uint64_t h = 0x51ed27u;
    h = mix_bytes(h, &s->bg, sizeof s->bg);
    h = mix(h, s->npflag);
    h = mix(h, s->qend != NULL);
    h = mix(h, (uint64_t)s->order_active);
    h = mix(h, (uint64_t)s->corr_on);
    h = mix(h, (uint64_t)s->corr_any);
    h = mix(h, s->nlinks);
    return h;
}

/* the model one request of link e reads */
static uint64_t link_hash(const joint *s, uint32_t e)
{
    const uint32_t b = s->link_dst[e], no = s->out_off[b + 1] - s->out_off[b], no1 = no + 1;
    const uint32_t ek = joint_kin(s, e);
    uint64_t h = mix(0x7f4a7c15u, ((uint64_t)e << 32) | ek);
    const size_t base = s->dk_off[ek];
    for (size_t c = 0; c < (size_t)no1 * no1; c++) {
        const uint32_t di = s->dk_key[base + c], hp = s->dk_par[base + c];
        h = mix(h, ((uint64_t)di << 32) | hp);
        if (di != NONE) {
            h = mix_bytes(h, s->logf + (size_t)di * s->nb, s->nb * sizeof *s->logf);
            h = mix_bytes(h, &s->kmean[di], sizeof *s->kmean);
        }
        if (hp != NONE)
            h = mix(h, s->pflag[hp]);
    }
    h = mix(h, s->cnt_off[e]);
    h = mix_bytes(h, s->cntlp + s->cnt_off[e], (size_t)no * (JOINT_KMAX + 1) * sizeof *s->cntlp);
    if (s->late_gap)
        h = mix(h, (uint64_t)s->late_gap[b]);
    if (s->corr_svc)
        h = mix(h, s->corr_svc[b]);
    if (s->corr_on) {
        /* the durations term of (e, l1, l2), l1 and l2 outgoing links of b */
        for (uint32_t x = 0; x < no; x++)
            for (uint32_t y = 0; y < no; y++) {
                const uint32_t l1 = s->out_links[s->out_off[b] + x],
                               l2 = s->out_links[s->out_off[b] + y];
                uint32_t c = s->cdir ? s->cdir[((size_t)e * s->nlinks + l1) * s->nlinks + l2]
                                     : joint_hmap_get(&s->corrmap, dkey(e, l1, l2));
                h = mix(h, c);
                if (c != NONE)
                    h = mix_bytes(h, s->cpar + (size_t)c * 7, 7 * sizeof *s->cpar);
            }
    }
    if (s->order_active) {
        for (uint32_t x = 0; x < no; x++) {
            const uint32_t l = s->out_links[s->out_off[b] + x];
            h = mix(h, s->ord_on ? s->ord_on[l] : 2);
            if (s->ord_keep)
                h = mix_bytes(h, &s->ord_keep[l], sizeof *s->ord_keep);
            if (s->ord_inv)
                h = mix_bytes(h, &s->ord_inv[l], sizeof *s->ord_inv);
        }
    }
    return h;
}

static int rsm_alloc(joint *s)
{
    struct joint_rsm *m = calloc(1, sizeof *m);
    if (!m)
        return PB_ENOMEM;
    m->nl = s->nlinks;
    m->lh = calloc((size_t)m->nl + 1, sizeof *m->lh);
    m->lstamp = calloc((size_t)m->nl + 1, sizeof *m->lstamp);
    if (!m->lh || !m->lstamp) {
        free(m->lh);
        free(m->lstamp);
        free(m);
        return PB_ENOMEM;
    }
    s->rsmm = m;
    return PB_OK;
}

static uint64_t model_of(joint *s, struct joint_rsm *m, uint32_t e)
{
    /* s->lsm_ls: the local search running (one model for the pass) */
    if (m->lstamp[e] != s->lsm_ls) {
        m->lh[e] = link_hash(s, e);
        m->lstamp[e] = s->lsm_ls;
    }
    return m->lh[e];
}

static uint64_t inputs_of(const joint *s, uint32_t q1, uint32_t q2, const uint32_t *set,
                          uint32_t m, uint32_t cur, const uint32_t *f1, uint32_t n1,
                          const uint32_t *f2, uint32_t n2)
{
    uint64_t h = 0x2545f491u;
    const uint32_t qs[2] = {q1, q2};
    for (int i = 0; i < 2; i++) {
        h = mix_pair(h, &s->pr[qs[i]]);
        if (s->qend)
            h = mix(h, (uint64_t)s->qend[qs[i]]);
    }
    h = mix(h, ((uint64_t)m << 32) | cur);
    const uint32_t *ls[3] = {set, f1, f2};
    const uint32_t ns[3] = {m, n1, n2};
    for (int t = 0; t < 3; t++) {
        h = mix(h, ns[t]);
        for (uint32_t i = 0; i < ns[t]; i++) {
            h = mix(h, ls[t][i]);
            h = mix_pair(h, &s->pr[ls[t][i]]);
            if (s->corr_on && s->sure)
                h = mix(h, s->sure[ls[t][i]]);
            if (s->corr_on && s->cdur)
                h = mix(h, (uint64_t)s->cdur[ls[t][i]]);
        }
    }
    return h;
}

int joint_rsmemo_skip(joint *s, uint32_t q1, uint32_t q2, const uint32_t *set, uint32_t m,
                      uint32_t cur, const uint32_t *f1, uint32_t n1, const uint32_t *f2,
                      uint32_t n2, int *rcp)
{
    if (s->rsmm)
        s->rsmm->armed = 0;
    if (!rsm_usable(s))
        return 0;
    if (!s->rsmm && (*rcp = rsm_alloc(s)) != PB_OK)
        return 0;
    struct joint_rsm *M = s->rsmm;
    if (M->nl != s->nlinks)
        return 0;
    if (M->gstamp != s->lsm_ls) {
        M->glob = glob_hash(s);
        M->gstamp = s->lsm_ls;
    }
    uint64_t mh = mix(mix(M->glob, model_of(s, M, s->pr[q1].link)), model_of(s, M, s->pr[q2].link));
    uint64_t fp = inputs_of(s, q1, q2, set, m, cur, f1, n1, f2, n2);
    uint64_t key = ((uint64_t)q1 << 32) | q2;
    uint32_t i = joint_hmap_get(&M->idx, key);
    if (i != NONE && M->e[i].fp == fp && M->e[i].mh == mh) {
        if (!joint_rsmemo_test_verify) {
            for (int c = 0; c < RSM_NCNT; c++)
                *cnt_field(s, c) += M->e[i].d[c];
            s->rsm_skipped++;
            return 1;
        }
        s->rsm_skipped++;
        M->armed = 2; /* tests: made anyway, a move counted as wrong */
    } else {
        M->armed = 1;
    }
    M->cur_fp = fp;
    M->cur_mh = mh;
    M->cur_key = key;
    for (int c = 0; c < RSM_NCNT; c++)
        M->before[c] = *cnt_field(s, c);
    return 0;
}

int joint_rsmemo_done(joint *s, int kept)
{
    struct joint_rsm *M = s->rsmm;
    if (!M || !M->armed)
        return PB_OK;
    int armed = M->armed;
    M->armed = 0;
    if (armed == 2) {
        joint_rsmemo_test_bad += !kept;
        return PB_OK;
    }
    uint32_t i = joint_hmap_get(&M->idx, M->cur_key);
    if (!kept) {
        if (i != NONE)
            M->e[i].fp = M->e[i].mh = 0; /* void */
        return PB_OK;
    }
    if (i == NONE) {
        if (M->n == M->cap) {
            uint32_t nc = M->cap ? 2 * M->cap : 256;
            struct rsm_ent *a = realloc(M->e, (size_t)nc * sizeof *a);
            if (!a)
                return PB_ENOMEM;
            M->e = a;
            M->cap = nc;
        }
        i = M->n++;
        int rc = joint_hmap_put(&M->idx, M->cur_key, i);
        if (rc != PB_OK) {
            M->n--;
            return rc;
        }
    }
    M->e[i].fp = M->cur_fp;
    M->e[i].mh = M->cur_mh;
    for (int c = 0; c < RSM_NCNT; c++)
        M->e[i].d[c] = *cnt_field(s, c) - M->before[c];
    return PB_OK;
}

void joint_rsmemo_free(joint *s)
{
    struct joint_rsm *M = s->rsmm;
    if (!M)
        return;
    free(M->idx.k);
    free(M->idx.v);
    free(M->e);
    free(M->lh);
    free(M->lstamp);
    free(M);
    s->rsmm = NULL;
}

int joint_rsmemo_meta(const joint *s, pb_result *res)
{
    if (!s->rsm_skipped) /* a line only where it left some out */
        return PB_OK;
    return pb_result_meta(res, "rs_memo=%d resplits_left_out=%zu", s->p.rs_memo, s->rsm_skipped);
}
