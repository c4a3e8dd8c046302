/*
 * callview_paths.c - call-view path building shared by the nesting and
 * joint algorithms (callview_paths.h).
 */
#include "callview_paths.h"
#include "pb_mem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

int cvp_reserve(cvp_ctx *x, uint32_t n)
{
    if (n <= x->cap)
        return PB_OK;
    uint32_t nc = x->cap ? x->cap : 16;
    while (nc < n)
        nc *= 2;
    uint32_t **u[] = {&x->tpair, &x->order, &x->stack};
    for (size_t i = 0; i < 3; i++) {
        uint32_t *a = realloc(*u[i], (size_t)nc * sizeof *a);
        if (!a)
            return PB_ENOMEM;
        *u[i] = a;
    }
    double **d[] = {&x->own, &x->edge, &x->incl, &x->town};
    for (size_t i = 0; i < 4; i++) {
        double *a = realloc(*d[i], (size_t)nc * sizeof *a);
        if (!a)
            return PB_ENOMEM;
        *d[i] = a;
    }
    x->cap = nc;
    return PB_OK;
}

int cvp_begin(cvp_ctx *x, uint32_t caller, uint32_t callee, uint32_t root)
{
    pb_ptree *t = &x->tree;
    pb_ptree_reset(t);
    int rc;
    if ((rc = pb_ptree_add(t, PB_PTREE_NONE, caller, NULL)) != PB_OK ||
        (rc = pb_ptree_add(t, 0, callee, NULL)) != PB_OK || (rc = cvp_reserve(x, 2)) != PB_OK)
        return rc;
    x->tpair[0] = CVP_NONE;
    x->tpair[1] = root;
    x->sp = 0;
    x->stack[x->sp++] = 1;
    return PB_OK;
}

int cvp_next(cvp_ctx *x, uint32_t *tn, uint32_t *pair)
{
    if (!x->sp)
        return 0;
    *tn = x->stack[--x->sp];
    *pair = x->tpair[*tn];
    return 1;
}

int cvp_child(cvp_ctx *x, uint32_t tn, uint32_t callee, uint32_t pair)
{
    uint32_t ti;
    int rc;
    if ((rc = pb_ptree_add(&x->tree, tn, callee, &ti)) != PB_OK ||
        (rc = cvp_reserve(x, x->tree.n + 1)) != PB_OK)
        return rc;
    x->tpair[ti] = pair;
    x->stack[x->sp++] = ti;
    return PB_OK;
}

void cvp_cover_begin(cvp_cover *c, pb_ns a, pb_ns b)
{
    *c = (cvp_cover){a, b, 0, 0, 0, 0};
}

void cvp_cover_add(cvp_cover *c, pb_ns ka, pb_ns kb)
{
    if (ka < c->a)
        ka = c->a;
    if (kb > c->b)
        kb = c->b;
    if (kb <= ka)
        return;
    if (c->open && ka <= c->cur_b) {
        if (kb > c->cur_b)
            c->cur_b = kb;
    } else {
        c->covered += c->open ? c->cur_b - c->cur_a : 0;
        c->cur_a = ka;
        c->cur_b = kb;
        c->open = 1;
    }
}

pb_ns cvp_cover_total(const cvp_cover *c)
{
    return c->covered + (c->open ? c->cur_b - c->cur_a : 0);
}

int cvp_record(cvp_ctx *x, pb_result *res, const char *text, uint32_t *inst,
               pb_pattern **pat)
{
    uint32_t n = x->tree.n;
    x->own[x->order[0]] = x->edge[x->order[0]] = x->incl[x->order[0]] = NAN;
    for (uint32_t i = 1; i < n; i++)
        x->own[x->order[i]] = x->town[i];
    int rc = pb_pattab_add(res->patterns, text, n, 1.0, x->incl[x->order[1]], x->own, x->edge,
                           pat);
    if (rc != PB_OK)
        return rc;
    if (pb_grow(&x->inst_pat, sizeof *x->inst_pat, &x->instcap,
                x->ninst - x->inst_base + 1, 1024) != PB_OK)
        return PB_ENOMEM;
    x->inst_pat[x->ninst - x->inst_base] = (*pat)->index;
    x->ninst++;
    for (uint32_t i = 1; inst && i < n; i++)
        inst[x->tpair[i]] = (uint32_t)x->ninst;
    return PB_OK;
}

int cvp_assign(const cvp_ctx *x, pb_result *res, const pb_msg *msgs, size_t n,
               const uint32_t *pair_of_msg, const uint32_t *inst)
{
    int rc = PB_OK;
    for (size_t i = 0; i < n && rc == PB_OK; i++) {
        uint32_t q = pair_of_msg[i];
        if (q == CVP_NONE || !inst[q])
            continue;
        rc = pb_result_assign(res, msgs[i].id, inst[q], x->inst_pat[inst[q] - 1 - x->inst_base]);
    }
    return rc;
}

int cvp_assign_links(const cvp_ctx *x, pb_result *res, const pb_msg *msgs,
                     size_t n, const uint32_t *pair_of_msg, const uint32_t *inst,
                     const uint32_t *parent_msg, const double *conf)
{
    int rc = PB_OK;
    for (size_t i = 0; i < n && rc == PB_OK; i++) {
        uint32_t q = pair_of_msg[i];
        if (q == CVP_NONE || !inst[q])
            continue;
        uint32_t pm = parent_msg[i];
        rc = pb_result_assign_link(res, msgs[i].id, inst[q],
                                   x->inst_pat[inst[q] - 1 - x->inst_base],
                                   pm == CVP_NONE ? PB_NO_PARENT : msgs[pm].id,
                                   conf ? conf[q] : NAN);
    }
    return rc;
}

/* a return as a candidate cause: when it came back, then its row */
typedef struct cvp_back {
    pb_ns t;
    uint32_t row;
    uint32_t pair; /* the child pair the message belongs to */
} cvp_back;

static int cmp_back(const void *a, const void *b)
{
    const cvp_back *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

static int back_before(const cvp_back *k, pb_ns t, uint32_t row)
{
    return k->t < t || (k->t == t && k->row < row);
}

int cvp_causes(const pb_msg *msgs, size_t n, uint32_t npairs,
               const uint32_t *call, const uint32_t *ret, const uint32_t *parent,
               uint32_t *out_parent)
{
    for (size_t i = 0; i < n; i++)
        out_parent[i] = CVP_NONE;
    /* children of each pair, grouped: counting sort by parent */
    uint32_t *off = calloc((size_t)npairs + 2, sizeof *off);
    uint32_t *kids = malloc(((size_t)npairs + 1) * sizeof *kids);
    cvp_back *bk = malloc(((size_t)npairs + 1) * sizeof *bk);
    cvp_back *ck = malloc(((size_t)npairs + 1) * sizeof *ck);
    uint32_t *rank = malloc(((size_t)npairs + 1) * sizeof *rank); /* a child call's place */
    if (!off || !kids || !bk || !ck || !rank) {
        free(off);
        free(kids);
        free(bk);
        free(ck);
        free(rank);
        return PB_ENOMEM;
    }
    for (uint32_t q = 0; q < npairs; q++)
        if (parent[q] != CVP_NONE)
            off[parent[q] + 2]++;
    for (uint32_t p = 0; p < npairs; p++)
        off[p + 2] += off[p + 1];
    for (uint32_t q = 0; q < npairs; q++)
        if (parent[q] != CVP_NONE)
            kids[off[parent[q] + 1]++] = q;
    /* kids of p: kids[off[p] .. off[p + 1]) */
    for (uint32_t p = 0; p < npairs; p++) {
        /* a half pair (call or return CVP_NONE: the other message was
         * lost, joint keeps such pairs) has no message on that side */
        uint32_t k0 = off[p], k1 = off[p + 1], nb = 0, nc = 0;
        for (uint32_t j = k0; j < k1; j++) {
            uint32_t c = call[kids[j]], rt = ret[kids[j]];
            if (rt != CVP_NONE) {
                const pb_msg *r = &msgs[rt];
                bk[nb++] = (cvp_back){r->recv_ts != PB_TS_NONE ? r->recv_ts : r->ts, rt, kids[j]};
            }
            if (c != CVP_NONE)
                ck[nc++] = (cvp_back){msgs[c].ts, c, kids[j]};
        }
        if (nb > 1)
            pb_sort(bk, nb, sizeof *bk, cmp_back);
        if (nc > 1)
            pb_sort(ck, nc, sizeof *ck, cmp_back);
        for (uint32_t j = 0; j < nc; j++)
            rank[ck[j].pair] = j;
        /* each child's call: the latest return back before it, of a call
         * made before it (stamps rounded or skewed can put a call's own
         * return, or a later call's, "back" first: taken, the links made a
         * cycle -- a call caused by its own return).  The walk back passes
         * only such returns, each once per call after it that it ties */
        uint32_t m = 0;
        for (uint32_t j = 0; j < nc; j++) {
            while (m < nb && back_before(&bk[m], ck[j].t, ck[j].row))
                m++;
            uint32_t b = m;
            while (b > 0 && call[bk[b - 1].pair] != CVP_NONE && rank[bk[b - 1].pair] >= j)
                b--;
            out_parent[ck[j].row] = b ? bk[b - 1].row : call[p];
        }
        /* p's return: the latest child return back before it was sent */
        if (ret[p] == CVP_NONE)
            continue;
        const pb_msg *pr = &msgs[ret[p]];
        m = 0;
        while (m < nb && back_before(&bk[m], pr->ts, ret[p]))
            m++;
        out_parent[ret[p]] = m ? bk[m - 1].row : call[p];
    }
    free(off);
    free(kids);
    free(bk);
    free(ck);
    free(rank);
    return PB_OK;
}

void cvp_forget(cvp_ctx *x, size_t upto)
{
    if (upto <= x->inst_base || upto > x->ninst)
        return;
    size_t k = upto - x->inst_base;
    memmove(x->inst_pat, x->inst_pat + k, (x->ninst - upto) * sizeof *x->inst_pat);
    x->inst_base = upto;
}

void cvp_free(cvp_ctx *x)
{
    if (!x)
        return;
    pb_ptree_free(&x->tree);
    free(x->tpair);
    free(x->order);
    free(x->stack);
    free(x->own);
    free(x->edge);
    free(x->incl);
    free(x->town);
    pb_strbuf_free(&x->text);
    free(x->inst_pat);
    memset(x, 0, sizeof *x);
}

int cvp_meta_pairing(pb_result *res, size_t calls, size_t returns, size_t others,
                     size_t pairs, size_t unmatched_calls, size_t unmatched_returns,
                     size_t repeated)
{
    int rc = PB_OK;
    rc |= pb_result_meta(res, "calls=%zu", calls);
    rc |= pb_result_meta(res, "returns=%zu", returns);
    rc |= pb_result_meta(res, "other_messages=%zu", others);
    rc |= pb_result_meta(res, "call_pairs=%zu", pairs);
    rc |= pb_result_meta(res, "unmatched_calls=%zu", unmatched_calls);
    rc |= pb_result_meta(res, "unmatched_returns=%zu", unmatched_returns);
    rc |= pb_result_meta(res, "repeated_key_matches=%zu", repeated);
    return rc ? PB_ENOMEM : PB_OK;
}
