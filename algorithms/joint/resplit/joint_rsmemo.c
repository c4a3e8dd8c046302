/*
 * joint_rsmemo.c - joint: a re-split whose inputs and whose model are
 * those of the same pair's last re-split, which kept its split, is not
 * made again (`rs_memo`; speed only, the same choices; off by default: on
 * OnlineBoutique it costs more than it saves; issue 28, "Speed,
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
 * caches other re-splits leave (resplit_memo_hits, resplit_wcache_hits,
 * bnb_row_keep's rows_kept) are replayed as recorded, so they may differ
 * from a run without the rule; every other line is the same.
 *
 * rs_census (a measurement, the same choices; docs/joint/speed_w29.md,
 * "Which re-splits repeat (h275)"): the same records and hashes, but no
 * re-split is left out; each is counted by what changed since the same
 * pair's last re-split that kept its split -- nothing (the re-splits
 * rs_memo leaves out), only the model of one of its two links, or its
 * inputs (or no such re-split) -- and whether it moved a call.  Those rs_memo
 * leaves out must never move (its check); the others say how much of a
 * pass re-scores an unchanged pair under a refitted model.
 */
#include "joint_int.h"
#include "joint_rules.h"

#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE

enum { RSM_NCNT = 10 };

struct rsm_ent {
    uint64_t fp, v1, v2;
    size_t d[RSM_NCNT];
};

typedef struct rsm_buf {
    unsigned char *b;
    size_t n, cap;
} rsm_buf;

struct joint_rsm {
    hmap idx[2]; /* ordered pair key -> entry, without / with open ends
                    (s->qend: the re-pairing's open-ended solves) */
    struct rsm_ent *e;
    uint32_t n, cap;
    /* per link: the model's bytes as last seen (snap), their version (a
     * count of changes: never reused), the local search it was checked
     * in and the one it last changed in */
    rsm_buf *snap, tmp;
    uint64_t *ver, *lstamp, *chg, *pchg; /* pchg: the change before */
    uint32_t nl;
    /* the re-split running: its entry's place and the counters before */
    uint64_t cur_fp, cur_v1, cur_v2, cur_key;
    int cur_q, cur_cls; /* rs_census: 1 nothing changed, 2 only the model, 0 else */
    size_t before[RSM_NCNT];
    int armed;
};

static inline uint64_t mix(uint64_t h, uint64_t x)
{
    h = (h ^ x) * 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 29);
}

/* a call of the two requests (as ls_margin's fingerprint): its index fixes
 * its link, its send and its receipt; what the re-pairing may change is
 * its return (which, when sent and received) */
static inline uint64_t mix_pair(uint64_t h, uint32_t p, const jpair *x, uint32_t sure)
{
    h = mix(h, ((uint64_t)p << 33) | ((uint64_t)sure << 32) | x->ret);
    /* the return's two times in one word (a 64-bit fingerprint either way) */
    return mix(h, (uint64_t)x->rr ^ (((uint64_t)x->rs << 32) | ((uint64_t)x->rs >> 32)));
}

static inline __attribute__((always_inline)) size_t *cnt_field(joint *s, int i)
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
    return (s->p.rs_memo || s->p.rs_census) && s->dk_off && !s->lc_on && !s->os_ein && !s->lser_on &&
           !(s->p.thread_soft > 0 && s->thr) && !s->la_timer && !(s->p.ls_margin > 0) && !(s->p.rs_confirm > 0) &&
           !s->xfloor_on && joint_prune_test_bias == 0 && joint_ordbound_test_slack == 0 &&
           joint_rsmemo_test_off == 0;
}

int joint_rsmemo_test_off = 0;
int joint_rsmemo_test_verify = 0;
size_t joint_rsmemo_test_bad = 0;

/* a growable byte buffer (rsm_buf) */
static int put(rsm_buf *w, const void *p, size_t n)
{
    if (w->n + n > w->cap) {
        size_t nc = w->cap ? w->cap : 4096;
        while (nc < w->n + n)
            nc *= 2;
        unsigned char *a = realloc(w->b, nc);
        if (!a)
            return PB_ENOMEM;
        w->b = a;
        w->cap = nc;
    }
    memcpy(w->b + w->n, p, n);
    w->n += n;
    return PB_OK;
}

static int put32(rsm_buf *w, uint32_t x)
{
    return put(w, &x, sizeof x);
}

/* the model one request of link e reads, as bytes into w (the run-wide
 * values first).  Not the count of keys or of parallel-call keys: a walk
 * of a request reads its keys and parallel flags through its link's
 * direct tables only (every output and trigger is a call of the request's
 * own service, or its response), and every cell of them is here (a key
 * or flag made since changes its cell) */
static int link_bytes(const joint *s, uint32_t e, rsm_buf *w)
{
    const uint32_t b = s->link_dst[e], no = s->out_off[b + 1] - s->out_off[b], no1 = no + 1;
    const uint32_t ek = joint_kin(s, e);
    int rc = PB_OK;
    w->n = 0;
    rc |= put(w, &s->bg, sizeof s->bg);
    rc |= put32(w, s->npflag);
    rc |= put32(w, (uint32_t)s->order_active);
    rc |= put32(w, (uint32_t)s->corr_on);
    rc |= put32(w, (uint32_t)s->corr_any);
    rc |= put32(w, ek);
    const size_t base = s->dk_off[ek];
    for (size_t c = 0; c < (size_t)no1 * no1; c++) {
        const uint32_t di = s->dk_key[base + c], hp = s->dk_par[base + c];
        rc |= put32(w, di);
        rc |= put32(w, hp);
        if (di != NONE) {
            rc |= put(w, joint_lf_dense(s, di), s->nb * sizeof *s->logf);
            rc |= put(w, &s->kmean[di], sizeof *s->kmean);
        }
        if (hp != NONE)
            rc |= put(w, &s->pflag[hp], sizeof *s->pflag);
    }
    rc |= put32(w, s->cnt_off[e]);
    rc |= put(w, s->cntlp + s->cnt_off[e], (size_t)no * (JOINT_KMAX + 1) * sizeof *s->cntlp);
    if (s->late_gap)
        rc |= put(w, &s->late_gap[b], sizeof *s->late_gap);
    if (s->corr_svc)
        rc |= put(w, &s->corr_svc[b], sizeof *s->corr_svc);
    if (s->corr_on) {
        /* the durations term of (e, l1, l2), l1 and l2 outgoing links of b */
        for (uint32_t x = 0; x < no; x++)
            for (uint32_t y = 0; y < no; y++) {
                const uint32_t l1 = s->out_links[s->out_off[b] + x],
                               l2 = s->out_links[s->out_off[b] + y];
                uint32_t c = s->cdir ? s->cdir[((size_t)e * s->nlinks + l1) * s->nlinks + l2]
                                     : joint_hmap_get(&s->corrmap, dkey(e, l1, l2));
                rc |= put32(w, c);
                if (c != NONE)
                    rc |= put(w, s->cpar + (size_t)c * 7, 7 * sizeof *s->cpar);
            }
    }
    if (s->order_active) {
        for (uint32_t x = 0; x < no; x++) {
            const uint32_t l = s->out_links[s->out_off[b] + x];
            rc |= put32(w, s->ord_on ? s->ord_on[l] : 2);
            if (s->ord_keep)
                rc |= put(w, &s->ord_keep[l], sizeof *s->ord_keep);
            if (s->ord_inv)
                rc |= put(w, &s->ord_inv[l], sizeof *s->ord_inv);
        }
    }
    return rc ? PB_ENOMEM : PB_OK;
}

static int rsm_alloc(joint *s)
{
    struct joint_rsm *m = calloc(1, sizeof *m);
    if (!m)
        return PB_ENOMEM;
    size_t n = (size_t)s->nlinks + 1;
    m->nl = s->nlinks;
    m->snap = calloc(n, sizeof *m->snap);
    m->ver = calloc(n, sizeof *m->ver);
    m->lstamp = calloc(n, sizeof *m->lstamp);
    m->chg = calloc(n, sizeof *m->chg);
    m->pchg = calloc(n, sizeof *m->pchg);
    s->rsmm = m;
    return m->snap && m->ver && m->lstamp && m->chg && m->pchg ? PB_OK : PB_ENOMEM;
}

/* link e's model version in this local search (s->lsm_ls: the model is
 * fixed within one), its bytes compared in full with the last seen */
static int model_of(joint *s, struct joint_rsm *m, uint32_t e, uint64_t *v)
{
    if (m->lstamp[e] != s->lsm_ls) {
        int rc = link_bytes(s, e, &m->tmp);
        if (rc != PB_OK)
            return rc;
        rsm_buf *o = &m->snap[e];
        if (!m->ver[e] || o->n != m->tmp.n || memcmp(o->b, m->tmp.b, o->n)) {
            rsm_buf t = *o;
            *o = m->tmp;
            m->tmp = t;
            m->ver[e]++;
            m->pchg[e] = m->chg[e];
            m->chg[e] = s->lsm_ls;
        }
        m->lstamp[e] = s->lsm_ls;
    }
    *v = m->ver[e];
    return PB_OK;
}

static uint64_t inputs_of(const joint *s, uint32_t q1, uint32_t q2, const uint32_t *set,
                          uint32_t m, uint32_t cur, const uint32_t *f1, uint32_t n1,
                          const uint32_t *f2, uint32_t n2)
{
    uint64_t h = 0x2545f491u;
    const uint32_t qs[2] = {q1, q2};
    for (int i = 0; i < 2; i++) {
        h = mix_pair(h, qs[i], &s->pr[qs[i]], 0);
        if (s->qend)
            h = mix(h, (uint64_t)s->qend[qs[i]]);
    }
    h = mix(h, ((uint64_t)m << 32) | cur);
    const unsigned char *sure = s->corr_on ? s->sure : NULL;
    const uint32_t *ls[3] = {set, f1, f2};
    const uint32_t ns[3] = {m, n1, n2};
    for (int t = 0; t < 3; t++) {
        h = mix(h, ns[t]);
        for (uint32_t i = 0; i < ns[t]; i++) {
            /* with the durations term, whether the call is paired beyond
             * doubt (set as a search starts); its duration is the
             * pair's times' (joint_corr.c's cdur is a cache of it) */
            const uint32_t p = ls[t][i];
            h = mix_pair(h, p, &s->pr[p], sure ? sure[p] : 0);
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
    uint64_t v1, v2;
    const uint32_t e1 = s->pr[q1].link, e2 = s->pr[q2].link;
    if ((*rcp = model_of(s, M, e1, &v1)) != PB_OK || (*rcp = model_of(s, M, e2, &v2)) != PB_OK)
        return 0;
    const uint64_t key = ((uint64_t)q1 << 32) | q2;
    const int qe = s->qend != NULL;
    const uint32_t i = joint_hmap_get(&M->idx[qe], key);
    const int may_hit = i != NONE && M->e[i].v1 == v1 && M->e[i].v2 == v2;
    const uint64_t fp = inputs_of(s, q1, q2, set, m, cur, f1, n1, f2, n2);
    int cls = 0;
    if (s->p.rs_census) { /* counted, made anyway */
        cls = i == NONE || M->e[i].fp != fp ? 0 : may_hit ? 1 : 2;
        s->rsc[0]++;
        s->rsc[8] += s->pass_id == 0;
        if (cls) {
            s->rsc[2 * cls]++;
            s->rsc[5 + cls] += (size_t)n1 + n2 + m;
        }
    }
    M->cur_cls = cls;
    if (may_hit && M->e[i].fp == fp && !s->p.rs_census) {
        s->rsm_skipped++;
        if (!joint_rsmemo_test_verify) {
            for (int c = 0; c < RSM_NCNT; c++)
                *cnt_field(s, c) += M->e[i].d[c];
            return 1;
        }
        M->armed = 2; /* tests: made anyway, a move counted as wrong */
    } else {
        M->armed = 1;
    }
    M->cur_fp = fp;
    M->cur_v1 = v1;
    M->cur_v2 = v2;
    M->cur_key = key;
    M->cur_q = qe;
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
    if (s->p.rs_census && !kept) { /* rs_census: a move, by its class */
        s->rsc[1]++;
        s->rsc[9] += s->pass_id == 0;
        if (M->cur_cls)
            s->rsc[2 * M->cur_cls + 1]++;
    }
    if (armed == 2) {
        joint_rsmemo_test_bad += !kept;
        return PB_OK;
    }
    if (!kept) /* the entry (if any) is another input's: still right */
        return PB_OK;
    hmap *idx = &M->idx[M->cur_q];
    uint32_t i = joint_hmap_get(idx, M->cur_key);
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
        int rc = joint_hmap_put(idx, M->cur_key, i);
        if (rc != PB_OK) {
            M->n--;
            return rc;
        }
    }
    M->e[i].fp = M->cur_fp;
    M->e[i].v1 = M->cur_v1;
    M->e[i].v2 = M->cur_v2;
    for (int c = 0; c < RSM_NCNT; c++)
        M->e[i].d[c] = *cnt_field(s, c) - M->before[c];
    return PB_OK;
}

void joint_rsmemo_free(joint *s)
{
    struct joint_rsm *M = s->rsmm;
    if (!M)
        return;
    for (int t = 0; t < 2; t++) {
        free(M->idx[t].k);
        free(M->idx[t].v);
    }
    free(M->e);
    if (M->snap)
        for (uint32_t e = 0; e <= M->nl; e++)
            free(M->snap[e].b);
    free(M->snap);
    free(M->tmp.b);
    free(M->ver);
    free(M->lstamp);
    free(M->chg);
    free(M->pchg);
    free(M);
    s->rsmm = NULL;
}

int joint_rsmemo_meta(const joint *s, pb_result *res)
{
    if (s->p.rs_census) {
        int rc = pb_result_meta(res,
                                "rs_census=1 resplits=%zu moved=%zu same_inputs_same_model=%zu "
                                "moved=%zu same_inputs_model_changed=%zu moved=%zu "
                                "calls_same_model=%zu calls_model_changed=%zu "
                                "first_pass=%zu moved=%zu",
                                s->rsc[0], s->rsc[1], s->rsc[2], s->rsc[3], s->rsc[4],
                                s->rsc[5], s->rsc[6], s->rsc[7], s->rsc[8], s->rsc[9]);
        if (rc != PB_OK)
            return rc;
    }
    if (!s->rsm_skipped) /* a line only where it left some out */
        return PB_OK;
    return pb_result_meta(res, "rs_memo=%d resplits_left_out=%zu", s->p.rs_memo, s->rsm_skipped);
}
