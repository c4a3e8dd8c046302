/*
 * joint_lsmargin.c - joint: a re-split that found its two requests' split
 * best by a wide margin is not made again while the two requests stay as
 * they were (`ls_margin`; changes results where it fires, off by default;
 * issue 28, "Speed, twenty-third wave (h194)" in docs/joint/speed.md).
 *
 * The local search (joint_search.c, joint_local_search) re-splits every
 * pair of requests that share a possible call in the first pass of every
 * solve, and more in the later passes; on OnlineBoutique as a black box
 * about 28,000 re-splits per run, of which under 2 % move a call.  Between
 * two solves the model is refitted, but only from the few calls the
 * search moved, so a pair whose every other split was far less likely
 * than its own stays so.  With `ls_margin` = T (nats, > 0) a re-split that
 * keeps its split records, per pair of requests, the margin: the value of
 * the kept split less the largest value (or upper bound, or estimate) of
 * any other split it looked at; and a fingerprint of everything the
 * re-split reads of the two requests (their own pairs, the end the
 * re-pairing gives them, each of their calls' times, returns and links,
 * and which calls they share).  A later re-split of the same pair in the
 * same search, of the same kind of solve (with or without refits), with
 * the same fingerprint and a recorded margin of at least T is left out.
 * Not exact: the model it would read has been refitted since.
 */
#include "joint_int.h"

#include <stdlib.h>

struct joint_lsmg {
    hmap idx[3];  /* per kind of solve (lsmg_kind): pair key -> entry */
    struct lsmg_ent {
        uint64_t fp;
        double margin;
        uint32_t kind;
    } *e;
    uint32_t n, cap;
};

int joint_lsmg_test_verify = 0;

/* a cheap 64-bit running hash (a multiply and a shift a word): the
 * fingerprint is compared for equality only */
uint64_t joint_ls_mix(uint64_t h, uint64_t x)
{
    h = (h ^ x) * 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 29);
}
#define mix joint_ls_mix

/* a call of the two requests: its index fixes its link, its send and its
 * receipt; what the re-pairing may change is its return */
uint64_t joint_ls_mix_call(const joint *s, uint64_t h, uint32_t p)
{
    const jpair *x = &s->pr[p];
    h = mix(h, ((uint64_t)p << 32) | x->ret);
    h = mix(h, (uint64_t)x->rs);
    return mix(h, (uint64_t)x->rr);
}
#define mix_pair joint_ls_mix_call

uint64_t joint_lsmg_fp(const joint *s, uint32_t q1, uint32_t q2, const uint32_t *set,
                       uint32_t m, uint32_t cur, const uint32_t *f1, uint32_t n1,
                       const uint32_t *f2, uint32_t n2)
{
    uint64_t h = mix_pair(s, 0x1234567ull, q1);
    h = mix_pair(s, h, q2);
    if (s->qend) {
        h = mix(h, (uint64_t)s->qend[q1]);
        h = mix(h, (uint64_t)s->qend[q2]);
    }
    h = mix(h, ((uint64_t)m << 32) | cur);
    for (uint32_t i = 0; i < m; i++)
        h = mix_pair(s, h, set[i]);
    h = mix(h, n1);
    for (uint32_t i = 0; i < n1; i++)
        h = mix_pair(s, h, f1[i]);
    h = mix(h, n2);
    for (uint32_t i = 0; i < n2; i++)
        h = mix_pair(s, h, f2[i]);
    return h;
}

void joint_ls_index_free(hmap *idx, int n)
{
    for (int k = 0; k < n; k++) {
        free(idx[k].k);
        free(idx[k].v);
    }
}

uint64_t joint_ls_pair_key(uint32_t q1, uint32_t q2)
{
    return q1 < q2 ? ((uint64_t)q1 << 32) | q2 : ((uint64_t)q2 << 32) | q1;
}
#define pkey joint_ls_pair_key

int joint_ls_slot(hmap *h, uint64_t k, void **e, uint32_t *n, uint32_t *cap, size_t esz,
                  uint32_t *out)
{
    uint32_t i = joint_hmap_get(h, k);
    if (i == JOINT_NONE) {
        if (*n == *cap) {
            uint32_t nc = *cap ? 2 * *cap : 256;
            void *a = realloc(*e, (size_t)nc * esz);
            if (!a)
                return PB_ENOMEM;
            *e = a;
            *cap = nc;
        }
        i = (*n)++;
        int rc = joint_hmap_put(h, k, i);
        if (rc != PB_OK)
            return rc;
    }
    *out = i;
    return PB_OK;
}

int joint_lsmg_skip(joint *s, uint32_t q1, uint32_t q2, uint64_t fp)
{
    const struct joint_lsmg *g = s->lsmg;
    if (!g || s->p.ls_margin <= 0 || s->xfloor_on)
        return 0;
    uint32_t i = joint_hmap_get(&g->idx[s->lsmg_kind], pkey(q1, q2));
    if (i == JOINT_NONE)
        return 0;
    const struct lsmg_ent *e = &g->e[i];
    if (e->fp != fp || e->kind != s->lsmg_kind || !(e->margin >= s->p.ls_margin))
        return 0;
    s->lsmg_skipped++;
    return 1;
}

int joint_lsmg_note(joint *s, uint32_t q1, uint32_t q2, uint64_t fp, double margin)
{
    if (s->p.ls_margin <= 0 || s->xfloor_on)
        return PB_OK;
    if (!s->lsmg && !(s->lsmg = calloc(1, sizeof *s->lsmg)))
        return PB_ENOMEM;
    struct joint_lsmg *g = s->lsmg;
    uint32_t i;
    void *e = g->e;
    int rc = joint_ls_slot(&g->idx[s->lsmg_kind], pkey(q1, q2), &e, &g->n, &g->cap,
                           sizeof *g->e, &i);
    g->e = e;
    if (rc != PB_OK)
        return rc;
    g->e[i] = (struct lsmg_ent){fp, margin, s->lsmg_kind};
    return PB_OK;
}

void joint_lsmg_free(joint *s)
{
    if (!s->lsmg)
        return;
    joint_ls_index_free(s->lsmg->idx, 3);
    free(s->lsmg->e);
    free(s->lsmg);
    s->lsmg = NULL;
}

int joint_lsmg_meta(const joint *s, pb_result *res)
{
    if (s->p.ls_margin <= 0)
        return PB_OK;
    if (joint_lsmg_test_verify)
        return pb_result_meta(res, "ls_margin=%g resplits_left_out=%zu moved_if_made=%zu",
                              s->p.ls_margin, s->lsmg_skipped, s->lsmg_flips);
    return pb_result_meta(res, "ls_margin=%g resplits_left_out=%zu", s->p.ls_margin,
                          s->lsmg_skipped);
}
