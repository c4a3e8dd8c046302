/*
 * nesting_paths.c - step 4 of the nesting algorithm (seed 000, Figure 4,
 * FindCallPaths): call paths from the chosen parents, aggregated into
 * call-view patterns, the assignment table, the Figure 8 dot text and the
 * text report; and the path state the sliding window keeps across windows
 * (nesting_int.h).  Split from nesting.c along this seam.
 */
#include "nesting.h"
#include "pb_mem.h"
#include "pb_hash.h"
#include "nesting_int.h"
#include "callview_paths.h"
#include "pb_ptree.h"
#include "pb_strbuf.h"
#include "pb_strtab.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

#define cmsg nesting_cmsg
#define rmsg nesting_rmsg

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* ------------------------------------------------------------------ */
/* Step 4: call paths and patterns */

/* Per-pattern statistics pb_pattab does not keep: Figure 8's node label is
 * the inclusive latency (the whole call), and the report shows ranges. */
typedef struct pstat {
    double *incl_sum, *own_min, *own_max, *edge_min, *edge_max;
} pstat;

/* Canonical text and positions of one raw tree shape (the sequence of
 * (name, parent) in insertion order).  Most instances repeat a shape seen
 * before, so this skips pb_ptree_canonical for them. */
typedef struct memo {
    uint64_t hash;
    uint32_t n;       /* tree nodes; 0 = empty slot */
    uint32_t *sig;    /* [2n] name, parent; then [n] order; one block */
    char *text;
} memo;

#define MEMO_MAX (1u << 20)

typedef struct pathctx {
    cvp_ctx c;                   /* the tree, positions and instances */
    uint32_t *sig;               /* [2n] (name, parent) of the tree, for the memo */
    size_t sigcap;
    uint32_t kidcap;
    uint64_t *kids;              /* (call index << 32 | pair) */
    memo *memo;
    size_t memocap, nmemo;
    pstat *ps;
    uint32_t pscap;
} pathctx;

static int pstat_get(pathctx *x, const pb_pattern *pat, pstat **out)
{
    uint32_t i = pat->index;
    if (i >= x->pscap) {
        uint32_t nc = x->pscap ? x->pscap : 64;
        while (nc <= i)
            nc *= 2;
        pstat *a = realloc(x->ps, (size_t)nc * sizeof *a);
        if (!a)
            return PB_ENOMEM;
        memset(a + x->pscap, 0, (size_t)(nc - x->pscap) * sizeof *a);
        x->ps = a;
        x->pscap = nc;
    }
    pstat *p = &x->ps[i];
    if (!p->incl_sum) {
        uint32_t n = pat->nnodes;
        double *blk = malloc((size_t)n * 5 * sizeof *blk);
        if (!blk)
            return PB_ENOMEM;
        p->incl_sum = blk;
        p->own_min = blk + n;
        p->own_max = blk + 2 * n;
        p->edge_min = blk + 3 * n;
        p->edge_max = blk + 4 * n;
        for (uint32_t k = 0; k < n; k++) {
            p->incl_sum[k] = 0;
            p->own_min[k] = p->edge_min[k] = INFINITY;
            p->own_max[k] = p->edge_max[k] = -INFINITY;
        }
    }
    *out = p;
    return PB_OK;
}

/* Canonical text (into *text) and positions (into x->c.order) of the tree
 * in x->c.tree, through the memo. */
static int canonical(nesting *s, pathctx *x, const char **text)
{
    const pb_ptree *t = &x->c.tree;
    uint32_t n = t->n;
    if (pb_grow(&x->sig, sizeof *x->sig, &x->sigcap, (size_t)2 * n, 32) != PB_OK)
        return PB_ENOMEM;
    uint64_t h = 1469598103934665603ULL;
    for (uint32_t i = 0; i < n; i++) {
        x->sig[2 * i] = t->nodes[i].name;
        x->sig[2 * i + 1] = t->nodes[i].parent;
        h = pb_mix64(h ^ (((uint64_t)t->nodes[i].name << 32) | t->nodes[i].parent));
    }
    size_t j = 0;
    if (x->memocap) {
        size_t mask = x->memocap - 1;
        for (j = h & mask; x->memo[j].n; j = (j + 1) & mask) {
            memo *m = &x->memo[j];
            if (m->hash == h && m->n == n &&
                !memcmp(m->sig, x->sig, (size_t)2 * n * sizeof *x->sig)) {
                memcpy(x->c.order, m->sig + 2 * n, (size_t)n * sizeof *x->c.order);
                *text = m->text;
                return PB_OK;
            }
        }
    }
    pb_strbuf_reset(&x->c.text);
    int rc = pb_ptree_canonical(t, s->v.nodes, &x->c.text, x->c.order);
    if (rc != PB_OK)
        return rc;
    *text = pb_strbuf_str(&x->c.text);
    if (x->nmemo >= MEMO_MAX)
        return PB_OK;
    if ((x->nmemo + 1) * 2 > x->memocap) {
        size_t ncap = x->memocap ? x->memocap * 2 : 1024;
        memo *nm = calloc(ncap, sizeof *nm);
        if (!nm)
            return PB_ENOMEM;
        for (size_t i = 0; i < x->memocap; i++) {
            if (!x->memo[i].n)
                continue;
            size_t k = x->memo[i].hash & (ncap - 1);
            while (nm[k].n)
                k = (k + 1) & (ncap - 1);
            nm[k] = x->memo[i];
        }
        free(x->memo);
        x->memo = nm;
        x->memocap = ncap;
        for (j = h & (ncap - 1); x->memo[j].n; j = (j + 1) & (ncap - 1))
            ;
    }
    uint32_t *blk = malloc((size_t)3 * n * sizeof *blk);
    size_t tl = x->c.text.len;
    char *tx = malloc(tl + 1);
    if (!blk || !tx) {
        free(blk);
        free(tx);
        return PB_ENOMEM;
    }
    memcpy(blk, x->sig, (size_t)2 * n * sizeof *blk);
    memcpy(blk + 2 * n, x->c.order, (size_t)n * sizeof *blk);
    memcpy(tx, *text, tl + 1);
    x->memo[j] = (memo){h, n, blk, tx};
    x->nmemo++;
    return PB_OK;
}

static void pctx_free(pathctx *x0);

static int one_path(nesting *s, pathctx *x, uint32_t root, pb_result *res,
                    uint32_t *instance_of_pair)
{
    cvp_ctx *c = &x->c;
    int rc;
    const pb_msg *rootm = cmsg(s, root);
    if ((rc = cvp_begin(c, rootm->src, rootm->dst, root)) != PB_OK)
        return rc;
    uint32_t tn, p;
    while (cvp_next(c, &tn, &p)) {
        /* children in call order, so repeated identical children take
         * canonical positions in time order (as the truth views do) */
        uint32_t nk = 0;
        for (uint32_t k = s->first_child[p]; k != NONE; k = s->next_sib[k]) {
            if (pb_grow32(&x->kids, sizeof *x->kids, &x->kidcap, nk + 1, 16) != PB_OK)
                return PB_ENOMEM;
            x->kids[nk++] = ((uint64_t)s->call[k] << 32) | k;
        }
        if (nk > 1)
            pb_sort(x->kids, nk, sizeof *x->kids, cmp_u64);
        /* own time: the call's duration minus the union of its children's
         * calls, each clipped to this call (a skew window lets a child
         * stick out); the children come sorted by start */
        const pb_ns a = cmsg(s, p)->ts, b = rmsg(s, p)->ts;
        cvp_cover cov;
        cvp_cover_begin(&cov, a, b);
        for (uint32_t j = 0; j < nk; j++) {
            uint32_t k = (uint32_t)x->kids[j];
            const pb_msg *km = cmsg(s, k);
            if ((rc = cvp_child(c, tn, km->dst, k)) != PB_OK)
                return rc;
            cvp_cover_add(&cov, km->ts, rmsg(s, k)->ts);
        }
        c->town[tn] = pb_ns_to_sec(b - a - cvp_cover_total(&cov));
    }
    const char *text;
    if ((rc = canonical(s, x, &text)) != PB_OK)
        return rc;
    uint32_t n = c->tree.n;
    for (uint32_t i = 1; i < n; i++) {
        uint32_t q = c->tpair[i], pos = c->order[i];
        c->incl[pos] = pb_ns_to_sec(rmsg(s, q)->ts - cmsg(s, q)->ts);
        c->edge[pos] = q == root ? NAN
                                 : pb_ns_to_sec(cmsg(s, q)->ts - cmsg(s, s->parent[q])->ts);
    }
    pb_pattern *pat;
    if ((rc = cvp_record(c, res, text, instance_of_pair, &pat)) != PB_OK)
        return rc;
    pstat *ps;
    if ((rc = pstat_get(x, pat, &ps)) != PB_OK)
        return rc;
    for (uint32_t pos = 1; pos < n; pos++) {
        ps->incl_sum[pos] += c->incl[pos];
        if (c->own[pos] < ps->own_min[pos])
            ps->own_min[pos] = c->own[pos];
        if (c->own[pos] > ps->own_max[pos])
            ps->own_max[pos] = c->own[pos];
        if (!isnan(c->edge[pos])) {
            if (c->edge[pos] < ps->edge_min[pos])
                ps->edge_min[pos] = c->edge[pos];
            if (c->edge[pos] > ps->edge_max[pos])
                ps->edge_max[pos] = c->edge[pos];
        }
    }
    return PB_OK;
}

static void fmt_time(double sec, char *buf, size_t n)
{
    if (isnan(sec))
        snprintf(buf, n, "?");
    else if (fabs(sec) >= 1.0)
        snprintf(buf, n, "%.3gs", sec);
    else if (fabs(sec) >= 1e-3 || sec == 0)
        snprintf(buf, n, "%.3gms", sec * 1e3);
    else
        snprintf(buf, n, "%.3gus", sec * 1e6);
}

static int dot_escaped(pb_strbuf *b, const char *s)
{
    int rc = PB_OK;
    for (; *s && rc == PB_OK; s++) {
        if (*s == '"' || *s == '\\')
            rc = pb_strbuf_putc(b, '\\');
        if (rc == PB_OK)
            rc = pb_strbuf_putc(b, *s);
    }
    return rc;
}

static double mean_of(const double *sum, const double *w, uint32_t i)
{
    return w[i] > 0 ? sum[i] / w[i] : NAN;
}

static double sd_of(const double *sum, const double *sumsq, const double *w,
                    uint32_t i)
{
    if (!(w[i] > 1))
        return NAN;
    double m = sum[i] / w[i], v = sumsq[i] / w[i] - m * m;
    return v > 0 ? sqrt(v * w[i] / (w[i] - 1)) : 0.0;
}

/* Figure 8: one cluster per pattern; a node shows its name and the mean
 * latency of the whole call (node and children), an edge the mean delay
 * from the parent's entry, the first edge the instance count and the total
 * latency.  Also the text report with distributions. */
#define REPORT_INDENT 16

static int draw(nesting *s, pathctx *x, pb_result *res)
{
    pb_strtab *names = NULL;
    pb_ptree t = {0};
    pb_error perr;
    uint32_t *depth_of = NULL, depth_cap = 0;
    int rc = pb_strtab_init(&names);
    if (rc != PB_OK)
        return rc;
    pb_strbuf *d = &res->dot, *r = &res->report;
    size_t np = pb_pattab_count(res->patterns);
    size_t top = s->p.top > 0 && (size_t)s->p.top < np ? (size_t)s->p.top : np;
    pb_strbuf_puts(d, "digraph nesting {\n  node [shape=ellipse];\n");
    pb_strbuf_printf(r, "nesting algorithm: %zu patterns; top %zu\n", np, top);
    char b1[32], b2[32], b3[32], b4[32], b5[32], b6[32], b7[32];
    for (size_t i = 0; i < top && rc == PB_OK; i++) {
        const pb_pattern *pat = pb_pattab_get(res->patterns, i);
        const pstat *ps = &x->ps[pat->index];
        if ((rc = pb_ptree_parse(pat->text, strlen(pat->text), names, &t, &perr)) != PB_OK)
            break;
        if (t.n > depth_cap) {
            uint32_t *a = realloc(depth_of, (size_t)t.n * sizeof *a);
            if (!a) {
                rc = PB_ENOMEM;
                break;
            }
            depth_of = a;
            depth_cap = t.n;
        }
        pb_strbuf_printf(d, "  subgraph cluster_%u {\n    label=\"#%u ", pat->rank, pat->rank);
        dot_escaped(d, pat->text);
        pb_strbuf_puts(d, "\";\n");
        fmt_time(pat->latency_sum, b1, sizeof b1);
        fmt_time(pat->latency_sum / (double)pat->count, b2, sizeof b2);
        pb_strbuf_printf(r, "\n#%u %s\n  count %llu, total latency %s, mean %s\n", pat->rank,
                         pat->text, (unsigned long long)pat->count, b1, b2);
        pb_strbuf_printf(r, "  %-24s %-34s %-34s %s\n", "node",
                         "latency: mean sd [min, max]",
                         "call delay: mean sd [min, max]", "whole call");
        for (uint32_t k = 0; k < t.n && k < pat->nnodes; k++) {
            const char *nm = pb_strtab_str(names, t.nodes[k].name);
            pb_strbuf_printf(d, "    p%u_%u [label=\"", pat->rank, k);
            dot_escaped(d, nm);
            /* parse gives pre-order: a parent precedes its children */
            uint32_t depth = k ? depth_of[t.nodes[k].parent] + 1 : 0;
            depth_of[k] = depth;
            if (k == 0) {
                pb_strbuf_puts(d, "\"];\n");
                pb_strbuf_printf(r, "  %s\n", nm);
                continue;
            }
            fmt_time(ps->incl_sum[k] / (double)pat->count, b1, sizeof b1);
            pb_strbuf_printf(d, "\\n%s\"];\n", b1);
            uint32_t par = t.nodes[k].parent;
            pb_strbuf_printf(d, "    p%u_%u -> p%u_%u [label=\"", pat->rank, par, pat->rank, k);
            if (k == 1)
                pb_strbuf_printf(d, "count %llu\\ntotal %s", (unsigned long long)pat->count,
                                 (fmt_time(pat->latency_sum, b2, sizeof b2), b2));
            else
                pb_strbuf_printf(d, "%s", (fmt_time(mean_of(pat->edge_sum, pat->edge_wsum, k),
                                                    b2, sizeof b2), b2));
            pb_strbuf_puts(d, "\"];\n");
            fmt_time(mean_of(pat->node_sum, pat->node_wsum, k), b2, sizeof b2);
            fmt_time(sd_of(pat->node_sum, pat->node_sumsq, pat->node_wsum, k), b3, sizeof b3);
            fmt_time(ps->own_min[k], b4, sizeof b4);
            fmt_time(ps->own_max[k], b5, sizeof b5);
            char lat[160], del[160];
            snprintf(lat, sizeof lat, "%s %s [%s, %s]", b2, b3, b4, b5);
            if (k == 1) {
                snprintf(del, sizeof del, "-");
            } else {
                fmt_time(mean_of(pat->edge_sum, pat->edge_wsum, k), b2, sizeof b2);
                fmt_time(sd_of(pat->edge_sum, pat->edge_sumsq, pat->edge_wsum, k), b3, sizeof b3);
                fmt_time(ps->edge_min[k], b6, sizeof b6);
                fmt_time(ps->edge_max[k], b7, sizeof b7);
                snprintf(del, sizeof del, "%s %s [%s, %s]", b2, b3, b6, b7);
            }
            /* indentation shows depth up to REPORT_INDENT levels; deeper
             * rows name their depth instead (a deep chain would otherwise
             * cost O(depth^2) bytes of spaces) */
            uint32_t ind = depth < REPORT_INDENT ? depth : REPORT_INDENT;
            char deep[24] = "";
            if (depth > REPORT_INDENT)
                snprintf(deep, sizeof deep, "(depth %u) ", depth);
            pb_strbuf_printf(r, "  %*s%s%-*s %-34s %-34s %s\n", (int)(2 * ind), "", deep,
                             (int)(24 > 2 * ind ? 24 - 2 * ind : 1), nm, lat, del, b1);
        }
        pb_strbuf_puts(d, "  }\n");
    }
    if (rc == PB_OK)
        rc = pb_strbuf_puts(d, "}\n");
    pb_ptree_free(&t);
    pb_strtab_close(names);
    free(depth_of);
    return rc;
}

/* conf[q]: the product of the shares (nesting_int.h) of q and its
 * ancestors: how sure the scoreboard is of every choice that puts q in its
 * path.  Walks each chain up to the first pair already done. */
static int nesting_path_conf(const nesting *s, const double *share, double *conf)
{
    uint32_t *stack = malloc(((size_t)s->npairs + 1) * sizeof *stack);
    unsigned char *done = calloc((size_t)s->npairs + 1, 1);
    if (!stack || !done) {
        free(stack);
        free(done);
        return PB_ENOMEM;
    }
    for (uint32_t q = 0; q < s->npairs; q++) {
        uint32_t n = 0, j = q;
        while (j != NONE && !done[j]) {
            stack[n++] = j;
            j = s->parent[j];
        }
        double up = j == NONE ? 1.0 : conf[j];
        while (n) {
            j = stack[--n];
            conf[j] = up = share ? up * share[j] : up;
            done[j] = 1;
        }
    }
    free(stack);
    free(done);
    return PB_OK;
}

int nesting_paths(nesting *s, pb_result *res, pb_error *err)
{
    pathctx x;
    memset(&x, 0, sizeof x);
    /* the candidate lists are not needed any more: give the memory back
     * before the result grows */
    free(s->cand);
    s->cand = NULL;
    s->candcap = 0;
    /* instance of each pair, only for the assignment table */
    uint32_t *inst = NULL;
    int rc = PB_OK;
    if (!res->skip_assign && !(inst = calloc((size_t)s->npairs + 1, sizeof *inst)))
        rc = PB_ENOMEM;
    size_t roots = 0;
    for (uint32_t r = 0; r < s->npairs && rc == PB_OK; r++) {
        if (s->parent[r] != NONE)
            continue;
        roots++;
        rc = one_path(s, &x, r, res, inst);
    }
    /* the children lists and the candidate offsets are done with once the
     * paths are walked (the causes, the confidences and the map read only
     * call, ret and parent): 12 MB back on a 2 M-message trace before the
     * assignment table's arrays are made */
    free(s->cand_off);
    free(s->first_child);
    free(s->next_sib);
    s->cand_off = s->first_child = s->next_sib = NULL;
    /* the links of the assignment table: each message's cause and each
     * pair's confidence (the product of the shares from its root down) */
    uint32_t *pmsg = NULL;
    double *conf = NULL;
    if (rc == PB_OK && inst) {
        pmsg = malloc((s->v.n ? s->v.n : 1) * sizeof *pmsg);
        /* the confidences in place of the shares (each share is read
         * once, before its pair's confidence is written): 8 MB less on a
         * 2 M-message trace; the pair accessors are done with here */
        conf = s->share ? s->share : malloc(((size_t)s->npairs + 1) * sizeof *conf);
        const double *share = s->share;
        s->share = NULL;
        if (!pmsg || !conf)
            rc = PB_ENOMEM;
        if (rc == PB_OK)
            rc = cvp_causes(s->v.msgs, s->v.n, s->npairs, s->call, s->ret, s->parent,
                            pmsg);
        if (rc == PB_OK)
            rc = nesting_path_conf(s, share, conf);
        /* the message-to-pair map init gave back after its sweep */
        if (rc == PB_OK && !s->pair_of_msg) {
            if (!(s->pair_of_msg = malloc((s->v.n ? s->v.n : 1) * sizeof *s->pair_of_msg)))
                rc = PB_ENOMEM;
            for (size_t i = 0; rc == PB_OK && i < s->v.n; i++)
                s->pair_of_msg[i] = NONE;
            for (uint32_t q = 0; rc == PB_OK && q < s->npairs; q++)
                s->pair_of_msg[s->call[q]] = s->pair_of_msg[s->ret[q]] = q;
        }
    }
    /* the pair links are not needed any more either (draw and the
     * counters below use none): give them back before the assignment
     * table grows (24 MB on a 2M-message trace; the pair accessors say
     * NESTING_NONE from here on) */
    free(s->cand_off);
    free(s->parent);
    free(s->first_child);
    free(s->next_sib);
    free(s->call);
    free(s->ret);
    s->cand_off = s->parent = s->first_child = s->next_sib = s->call = s->ret = NULL;
    /* the assignment table in trace order, so it diffs well */
    if (rc == PB_OK && inst) {
        res->min_confidence = s->p.min_confidence;
        rc = cvp_assign_links(&x.c, res, s->v.msgs, s->v.n, s->pair_of_msg, inst, pmsg,
                              conf);
    }
    free(pmsg);
    free(conf);
    if (rc == PB_OK)
        rc = nesting_meta_abstained(res, s->p.min_confidence);
    if (rc == PB_OK) {
        cvp_meta_pairing(res, s->calls, s->returns, s->others, s->npairs,
                         s->unmatched_calls, s->unmatched_returns, s->repeated);
        nesting_meta_counts(res, s->no_callid, s->same_tick_cands, s->ncand,
                            s->with_cands, s->nhist);
        pb_result_meta(res, "cycles_broken=%zu", s->cycles);
        pb_result_meta(res, "paths=%zu", roots);
        rc = pb_result_meta(res, "patterns=%zu", pb_pattab_count(res->patterns));
    }
    if (rc == PB_OK && s->capped)
        rc = nesting_warn_capped(res, s->capped, s->capped_max, s->p.max_cand);
    if (rc == PB_OK && s->no_callid)
        rc = nesting_warn_no_callid(res, s->no_callid, s->calls,
                                    (s->v.columns & PB_COL_CALLID) != 0, s->repeated);
    if (rc == PB_OK) {
        pb_pattab_rank(res->patterns, res->rank_by);
        rc = draw(s, &x, res);
    }
    free(inst);
    pctx_free(&x);
    if (rc != PB_OK)
        return pb_error_set(err, rc, NULL, 0, 0, "nesting: out of memory building call paths");
    return PB_OK;
}

static void pctx_free(pathctx *x0)
{
    cvp_free(&x0->c);
    free(x0->sig);
    free(x0->kids);
    for (size_t i = 0; i < x0->memocap; i++) {
        free(x0->memo[i].sig);
        free(x0->memo[i].text);
    }
    free(x0->memo);
    for (uint32_t i = 0; i < x0->pscap; i++)
        free(x0->ps[i].incl_sum);
    free(x0->ps);
}

struct nesting_pctx {
    pathctx x;
};

int nesting_pctx_new(nesting_pctx **out)
{
    *out = calloc(1, sizeof **out);
    return *out ? PB_OK : PB_ENOMEM;
}

int nesting_seg_paths(nesting *s, nesting_pctx *pc, pb_result *res,
                      uint32_t *inst_of_msg, uint64_t *pid_of_msg,
                      double *conf_of_msg, size_t *roots)
{
    uint32_t *inst = NULL, *pmsg = NULL;
    double *conf = NULL;
    int rc = PB_OK;
    if (inst_of_msg && (!(inst = calloc((size_t)s->npairs + 1, sizeof *inst)) ||
                        !(pmsg = malloc((s->v.n ? s->v.n : 1) * sizeof *pmsg)) ||
                        !(conf = malloc(((size_t)s->npairs + 1) * sizeof *conf))))
        rc = PB_ENOMEM;
    for (uint32_t r = 0; r < s->npairs && rc == PB_OK; r++) {
        if (s->parent[r] != NONE || s->ret[r] < s->own_lo || s->ret[r] >= s->own_hi)
            continue;
        (*roots)++;
        rc = one_path(s, &pc->x, r, res, inst);
    }
    if (rc == PB_OK && inst)
        rc = cvp_causes(s->v.msgs, s->v.n, s->npairs, s->call, s->ret, s->parent, pmsg);
    if (rc == PB_OK && inst)
        rc = nesting_path_conf(s, s->share, conf);
    for (uint32_t q = 0; rc == PB_OK && inst && q < s->npairs; q++)
        if (inst[q]) {
            uint32_t m[2] = {s->call[q], s->ret[q]};
            for (int k = 0; k < 2; k++) {
                inst_of_msg[m[k]] = inst[q];
                pid_of_msg[m[k]] = pmsg[m[k]] == NONE ? PB_NO_PARENT
                                                      : s->v.msgs[pmsg[m[k]]].id;
                conf_of_msg[m[k]] = conf[q];
            }
        }
    free(inst);
    free(pmsg);
    free(conf);
    return rc;
}

uint32_t nesting_pctx_pattern(const nesting_pctx *pc, uint32_t instance)
{
    const cvp_ctx *c = &pc->x.c;
    return instance > c->inst_base && instance <= c->ninst ? c->inst_pat[instance - 1 - c->inst_base]
                                                           : NONE;
}

void nesting_pctx_forget(nesting_pctx *pc, size_t upto) { cvp_forget(&pc->x.c, upto); }

size_t nesting_pctx_instances(const nesting_pctx *pc) { return pc->x.c.ninst; }

int nesting_pctx_finish(nesting_pctx *pc, const nesting_params *params, pb_result *res)
{
    int rc = PB_OK;
    if (pc && res) {
        nesting tmp;
        memset(&tmp, 0, sizeof tmp);
        tmp.p = *params;
        pb_pattab_rank(res->patterns, res->rank_by);
        rc = draw(&tmp, &pc->x, res);
    }
    if (pc)
        pctx_free(&pc->x);
    free(pc);
    return rc;
}

int nesting_meta_abstained(pb_result *res, double min_confidence)
{
    if (!(min_confidence > 0))
        return PB_OK;
    char nb[PB_NUM_BUF];
    return pb_result_meta(res, "min_confidence=%s abstained=%zu",
                          pb_num_format(min_confidence, nb), res->nabstain);
}

int nesting_meta_counts(pb_result *res, size_t no_callid, size_t same_tick,
                        size_t cands, size_t with_cands, unsigned nhist)
{
    int rc = PB_OK;
    rc |= pb_result_meta(res, "calls_without_callid=%zu", no_callid);
    rc |= pb_result_meta(res, "same_tick_candidates=%zu", same_tick);
    rc |= pb_result_meta(res, "candidate_nestings=%zu", cands);
    rc |= pb_result_meta(res, "nested_pairs=%zu", with_cands);
    rc |= pb_result_meta(res, "mean_parallelism=%.3f",
                         with_cands ? (double)cands / (double)with_cands : 0.0);
    rc |= pb_result_meta(res, "histograms=%u", nhist);
    return rc ? PB_ENOMEM : PB_OK;
}

int nesting_warn_capped(pb_result *res, size_t capped, size_t capped_max, int max_cand)
{
    if (pb_result_meta(res, "capped_calls=%zu", capped) != PB_OK)
        return PB_ENOMEM;
    return pb_result_warn(res, "%zu calls had more than max_candidates=%d candidate "
                               "parents (up to %zu calls open at their sender); only "
                               "the %d sent last were considered; raise the cap with "
                               "-s max_candidates=N",
                          capped, max_cand, capped_max, max_cand);
}

int nesting_warn_no_callid(pb_result *res, size_t no_callid, size_t calls,
                           int has_column, size_t repeated)
{
    return pb_result_warn(res, "callids=1, but %zu of %zu calls have no call id%s: "
                               "those are paired with returns first-in first-out "
                               "(5.1.1.1); %zu returns matched while another call of "
                               "the same sender and receiver was open "
                               "(repeated_key_matches), where FIFO may pair wrongly. "
                               "Give -s callids=0 to ask for FIFO pairing.",
                          no_callid, calls,
                          has_column ? "" : " (the trace has no callid column)", repeated);
}
