/*
 * imp_build.c - imp_finish: resolve parents, turn every service-crossing
 * edge of the span trees into an RPC (a call and a return), derive causes,
 * and write the merged trace sorted by time, causes first within one
 * timestamp (docs/importer.md, "What a span tree becomes").
 */
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>
#include <stdio.h>

#include "imp_int.h"
#include "pb_mem.h"
#include "pb_sort.h"

typedef struct rpc {
    uint32_t caller_ctx; /* span index of the caller's context, or IMP_NONE */
    uint32_t callee_ctx; /* span index the call enters, or IMP_NONE */
    uint32_t label_span; /* span whose id names the RPC (callid) */
    uint32_t src, dst;
    uint32_t op; /* operation label + 1, or 0 */
    uint64_t path;
    pb_ns call_ts, call_recv, ret_ts, ret_recv;
} rpc;

typedef struct builder {
    imp_importer *im;
    imp_span *sp;
    size_t n;
    uint32_t *parent;  /* span -> parent span, IMP_NONE for roots */
    uint32_t *byid;    /* spans sorted by (trace, sid, position) */
    uint32_t *child;   /* CSR children, sorted by (start, position) */
    size_t *cstart;    /* n + 1 */
    uint32_t *ctx;     /* span -> context span */
    uint32_t *in_rpc;  /* context span -> the RPC entering it, else IMP_NONE */
    uint64_t *path;    /* span -> path label */
    rpc *rpcs;
    size_t nrpc, caprpc;
} builder;

static const imp_span *g_sp; /* for qsort comparators only (single-threaded) */

static int cmp_byid(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    const imp_span *s = &g_sp[x], *t = &g_sp[y];
    if (s->trace != t->trace)
        return s->trace < t->trace ? -1 : 1;
    if (s->sid != t->sid)
        return s->sid < t->sid ? -1 : 1;
    return x < y ? -1 : x > y;
}

static int cmp_bystart(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    const imp_span *s = &g_sp[x], *t = &g_sp[y];
    if (s->trace != t->trace)
        return s->trace < t->trace ? -1 : 1;
    if (s->start != t->start)
        return s->start < t->start ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* Requests in order of their root span's start, then trace id (text), then
 * input order: the output does not depend on the order of the files. */
static const imp_importer *g_tids;

static int cmp_root(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    const imp_span *s = &g_sp[x], *t = &g_sp[y];
    if (s->start != t->start)
        return s->start < t->start ? -1 : 1;
    if (s->trace != t->trace) {
        int c = strcmp(imp_id_show(g_tids, 1, s->trace),
                       imp_id_show(g_tids, 1, t->trace));
        if (c)
            return c;
    }
    return x < y ? -1 : x > y;
}

/* Every recorded field of a span, then input position: exact copies of a
 * span (the same trace read from two files, overlapping exports) become
 * neighbours, the first read first. */
#define PB_CMP_FIELD(f)                                                     \
    if (s->f != t->f)                                                       \
        return s->f < t->f ? -1 : 1;

/* The recorded fields of two spans compared, in one list for the sort
 * and the test of a copy (two lists could drift apart). */
static int cmp_fields(const imp_span *s, const imp_span *t)
{
    PB_CMP_FIELD(trace)
    PB_CMP_FIELD(sid)
    PB_CMP_FIELD(psid)
    PB_CMP_FIELD(svc)
    PB_CMP_FIELD(peer)
    PB_CMP_FIELD(op)
    PB_CMP_FIELD(kind)
    PB_CMP_FIELD(untagged)
    PB_CMP_FIELD(has_ref)
    PB_CMP_FIELD(start)
    PB_CMP_FIELD(end)
    return 0;
}

static int cmp_copy(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    int c = cmp_fields(&g_sp[x], &g_sp[y]);
    if (c)
        return c;
    return x < y ? -1 : x > y;
}

static int same_span(const imp_span *s, const imp_span *t)
{
    return cmp_fields(s, t) == 0;
}

/* Drop the exact copies of a span read before (counter repeated_span):
 * one sort, O(n log n) whatever the input.  The spans kept stay in input
 * order.  order is scratch of n entries. */
static void drop_copies(imp_importer *im, uint32_t *order)
{
    size_t n = im->nspans;
    imp_span *sp = im->spans;
    for (size_t i = 0; i < n; i++)
        order[i] = (uint32_t)i;
    g_sp = sp;
    pb_sort(order, n, sizeof *order, cmp_copy);
    size_t dropped = 0;
    uint32_t kept = n ? order[0] : 0;
    for (size_t k = 1; k < n; k++) {
        if (!same_span(&sp[order[k]], &sp[kept])) {
            kept = order[k];
            continue;
        }
        imp_count_span(im, IMP_C_REPEATED_SPAN, &sp[order[k]]);
        sp[order[k]].kind = UINT8_MAX; /* marked: dropped below */
        dropped++;
    }
    if (!dropped)
        return;
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        if (sp[i].kind != UINT8_MAX)
            sp[w++] = sp[i];
    im->nspans = w;
}

/* Fragments by trace, span id, service; timed spans before fragments;
 * then input order. */
static int cmp_frag(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    const imp_span *s = &g_sp[x], *t = &g_sp[y];
    PB_CMP_FIELD(trace)
    PB_CMP_FIELD(sid)
    PB_CMP_FIELD(svc)
    PB_CMP_FIELD(no_start)
    return x < y ? -1 : x > y;
}

/* Zipkin fragments without timestamp (imp_zipkin.c store_fragment): each
 * is merged into the timed span of its trace, id and service -- of its
 * kind, else the first when one of the two has none -- whose missing
 * duration its own
 * fills (zipkin_fragment), as Zipkin's UI merges the parts of one span;
 * one without such a span is dropped and counted no_timestamp (with the
 * first one's place in input order).  One sort: O(n log n).  Returns
 * PB_OK or PB_ENOMEM. */
static int merge_fragments(imp_importer *im)
{
    size_t n = im->nspans, nfrag = 0, filled = 0;
    imp_span *sp = im->spans;
    for (size_t i = 0; i < n; i++)
        nfrag += sp[i].no_start;
    if (!nfrag)
        return PB_OK;
    uint32_t *order = malloc(n * sizeof *order);
    uint8_t *fate = calloc(n, 1); /* 1 merged, 2 not read */
    if (!order || !fate) {
        free(order);
        free(fate);
        return PB_ENOMEM;
    }
    for (size_t i = 0; i < n; i++)
        order[i] = (uint32_t)i;
    g_sp = sp;
    pb_sort(order, n, sizeof *order, cmp_frag);
    for (size_t g = 0; g < n;) {
        size_t e = g + 1;
        const imp_span *h = &sp[order[g]];
        while (e < n && sp[order[e]].trace == h->trace &&
               sp[order[e]].sid == h->sid && sp[order[e]].svc == h->svc)
            e++;
        for (size_t k = g; k < e; k++) {
            imp_span *f = &sp[order[k]];
            if (!f->no_start)
                continue;
            imp_span *t = NULL; /* the timed span it belongs to */
            for (size_t j = g; j < e && !sp[order[j]].no_start; j++) {
                imp_span *c = &sp[order[j]];
                if (c->kind == f->kind && c->untagged == f->untagged) {
                    t = c; /* the same kind: the best partner */
                    break;
                }
                if (!t && (c->untagged || f->untagged))
                    t = c; /* one says no kind: the first timed one */
            }
            fate[order[k]] = t ? 1 : 2;
            if (t && t->no_dur && !f->no_dur &&
                f->end <= PB_TS_MAX - t->start) {
                t->end = t->start + f->end;
                t->no_dur = 0;
                filled++;
            }
        }
        g = e;
    }
    if (filled) { /* recounted in input order: the first one named right */
        im->st.count[IMP_C_MISSING_DURATION] = 0;
        free(im->st.first[IMP_C_MISSING_DURATION]);
        im->st.first[IMP_C_MISSING_DURATION] = NULL;
    }
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        if (fate[i])
            imp_count_span(im, fate[i] == 1 ? IMP_C_ZIPKIN_FRAGMENT
                                            : IMP_C_NO_TIMESTAMP, &sp[i]);
        else if (filled && sp[i].no_dur)
            imp_count_span(im, IMP_C_MISSING_DURATION, &sp[i]);
        if (!fate[i])
            sp[w++] = sp[i];
    }
    im->st.count[IMP_C_SPANS] -= n - w;
    im->nspans = w;
    free(order);
    free(fate);
    return PB_OK;
}

/* First position in byid of (trace, sid), or IMP_NONE. */
static uint32_t find_group(const builder *b, uint32_t trace, uint32_t sid)
{
    size_t lo = 0, hi = b->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const imp_span *s = &b->sp[b->byid[mid]];
        if (s->trace < trace || (s->trace == trace && s->sid < sid))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < b->n && b->sp[b->byid[lo]].trace == trace &&
        b->sp[b->byid[lo]].sid == sid)
        return (uint32_t)lo;
    return IMP_NONE;
}

static size_t group_end(const builder *b, size_t g)
{
    size_t e = g + 1;
    while (e < b->n && b->sp[b->byid[e]].trace == b->sp[b->byid[g]].trace &&
           b->sp[b->byid[e]].sid == b->sp[b->byid[g]].sid)
        e++;
    return e;
}

/* 1 when the group at g has exactly two spans (a shared client/server
 * pair can only be that), looking at three at most: resolve_parents asks
 * it per span, and a full group_end there was quadratic in the spans
 * that share one id (40,000 duplicates of one id: 10 s to import, 0.65 s
 * for 10,000). */
static int group_is_pair(const builder *b, size_t g)
{
    const imp_span *h = &b->sp[b->byid[g]];
    size_t e = g + 1;
    while (e < b->n && e < g + 3 && b->sp[b->byid[e]].trace == h->trace &&
           b->sp[b->byid[e]].sid == h->sid)
        e++;
    return e - g == 2;
}

/* 1 for the invalid span id of W3C trace context and OpenTelemetry, all
 * zero bytes: in hex ("0000000000000000") or in base64, which protobuf's
 * generic JSON mapping writes for bytes ("AAAAAAAAAAA=").  Some exporters
 * write it as a root span's parent instead of leaving the field empty. */
static int null_id(const char *id)
{
    if (!id || !*id)
        return 0;
    size_t n = strlen(id), i = 0;
    if (strspn(id, "0") == n)
        return 1;
    while (i < n && id[i] == 'A')
        i++;
    size_t pad = n - i;
    return i >= 2 && pad <= 2 && strspn(id + i, "=") == pad && n % 4 == 0;
}

/* Two spans whose span ids were written differently but are one hex
 * number (imp_hex_id: "ABC" and "0abc") in one trace, and are neither
 * copies (drop_copies merged those: the same span from two exporters) nor
 * a shared client/server pair: refused, naming both, rather than merged
 * into one id.  Groups of byid are (trace, sid) runs. */
static int check_respelled(builder *b, pb_error *err)
{
    imp_importer *im = b->im;
    for (size_t g = 0; g < b->n;) {
        size_t e = group_end(b, g);
        const imp_span *h = &b->sp[b->byid[g]];
        for (size_t k = g + 1; k < e; k++) {
            const imp_span *t = &b->sp[b->byid[k]];
            if (t->rawsid == h->rawsid)
                continue;
            if (e - g == 2 && ((h->kind == IMP_K_CLIENT && t->kind == IMP_K_SERVER) ||
                               (h->kind == IMP_K_SERVER && t->kind == IMP_K_CLIENT)))
                continue;
            char w1[96], w2[96];
            imp_span_where(h, w1, sizeof w1);
            imp_span_where(t, w2, sizeof w2);
            const char *sid = pb_strtab_str(im->sids, h->sid); /* canonical */
            const char *r1 = h->rawsid == IMP_NONE ? sid : pb_strtab_str(im->rawids, h->rawsid);
            const char *r2 = t->rawsid == IMP_NONE ? sid : pb_strtab_str(im->rawids, t->rawsid);
            return pb_error_set(err, PB_EPARSE, im->files[t->file], 0, 0,
                                "%s: span id \"%s\" is the hex number of span id "
                                "\"%s\" (%s%s%s) in trace %s, but the two spans "
                                "differ; expected one id per span (hex ids are "
                                "read without case or leading zeros)",
                                w2, r2, r1, h->file != t->file ? im->files[h->file] : "",
                                h->file != t->file ? ": " : "", w1,
                                imp_id_show(im, 1, h->trace));
        }
        g = e;
    }
    return PB_OK;
}

/* Parents: the span a reference names (its server span if the id is a
 * shared client/server pair, else the first with that id); a server span
 * sharing its id with a client span is that client's child. */
static void resolve_parents(builder *b)
{
    imp_importer *im = b->im;
    for (size_t g = 0; g < b->n;) {
        size_t e = group_end(b, g);
        if (e - g > 1) {
            size_t nc = 0, ns = 0;
            for (size_t k = g; k < e; k++) {
                nc += b->sp[b->byid[k]].kind == IMP_K_CLIENT;
                ns += b->sp[b->byid[k]].kind == IMP_K_SERVER;
            }
            if (e - g == 2 && nc == 1 && ns == 1)
                imp_count_span(im, IMP_C_SHARED_SPAN, &b->sp[b->byid[g + 1]]);
            else
                for (size_t k = g + 1; k < e; k++)
                    imp_count_span(im, IMP_C_DUPLICATE_SPAN, &b->sp[b->byid[k]]);
        }
        g = e;
    }
    for (size_t i = 0; i < b->n; i++) {
        const imp_span *s = &b->sp[i];
        b->parent[i] = IMP_NONE;
        if (s->kind == IMP_K_SERVER) {
            uint32_t g = find_group(b, s->trace, s->sid);
            if (group_is_pair(b, g)) {
                uint32_t o = b->byid[g] == i ? b->byid[g + 1] : b->byid[g];
                if (b->sp[o].kind == IMP_K_CLIENT) {
                    b->parent[i] = o;
                    continue;
                }
            }
        }
        if (s->psid == IMP_NONE)
            continue;
        uint32_t g = find_group(b, s->trace, s->psid);
        if (g == IMP_NONE && null_id(pb_strtab_str(im->sids, s->psid))) {
            /* the invalid (all-zero) span id names no parent: a root, as
             * if the field were empty (exporters write it so) */
            b->sp[i].has_ref = 0;
            continue;
        }
        if (g == IMP_NONE) {
            imp_count_span(im, IMP_C_MISSING_PARENT, s);
            continue;
        }
        uint32_t p = b->byid[g];
        if (group_is_pair(b, g) && b->sp[b->byid[g + 1]].kind == IMP_K_SERVER &&
            b->sp[p].kind == IMP_K_CLIENT)
            p = b->byid[g + 1];
        b->parent[i] = p;
    }
}

/* Break parent cycles (a span that is its own ancestor). */
static int break_cycles(builder *b)
{
    uint8_t *state = calloc(b->n ? b->n : 1, 1); /* 0 new, 1 on path, 2 done */
    uint32_t *stack = malloc((b->n ? b->n : 1) * sizeof *stack);
    if (!state || !stack) {
        free(state);
        free(stack);
        return PB_ENOMEM;
    }
    for (size_t i = 0; i < b->n; i++) {
        size_t top = 0;
        uint32_t x = (uint32_t)i;
        while (x != IMP_NONE && state[x] == 0) {
            state[x] = 1;
            stack[top++] = x;
            x = b->parent[x];
        }
        if (x != IMP_NONE && state[x] == 1) {
            /* x is on the current path: cut its parent link */
            imp_count_span(b->im, IMP_C_PARENT_CYCLE, &b->sp[x]);
            b->parent[x] = IMP_NONE;
        }
        while (top)
            state[stack[--top]] = 2;
    }
    free(state);
    free(stack);
    return PB_OK;
}

static int build_children(builder *b)
{
    b->cstart = calloc(b->n + 1, sizeof *b->cstart);
    b->child = malloc((b->n ? b->n : 1) * sizeof *b->child);
    uint32_t *order = malloc((b->n ? b->n : 1) * sizeof *order);
    if (!b->cstart || !b->child || !order) {
        free(order);
        return PB_ENOMEM;
    }
    for (size_t i = 0; i < b->n; i++)
        order[i] = (uint32_t)i;
    g_sp = b->sp;
    pb_sort(order, b->n, sizeof *order, cmp_bystart);
    for (size_t i = 0; i < b->n; i++)
        if (b->parent[i] != IMP_NONE)
            b->cstart[b->parent[i] + 1]++;
    for (size_t i = 0; i < b->n; i++)
        b->cstart[i + 1] += b->cstart[i];
    size_t *fill = malloc((b->n ? b->n : 1) * sizeof *fill);
    if (!fill) {
        free(order);
        return PB_ENOMEM;
    }
    memcpy(fill, b->cstart, b->n * sizeof *fill);
    for (size_t k = 0; k < b->n; k++) {
        uint32_t i = order[k];
        if (b->parent[i] != IMP_NONE)
            b->child[fill[b->parent[i]]++] = i;
    }
    free(fill);
    free(order);
    return PB_OK;
}

/* The kind rule for spans without kind (span CSV): a span in its parent's
 * service whose only child runs in another service is the client side of
 * an RPC, that child its server side.  Every other span with a child in
 * another service is counted (kind_two_services, kind_other); its remote
 * children become RPCs derived from the child alone (no_kind_rpc). */
static void kind_rule(builder *b)
{
    imp_span *sp = b->sp;
    for (size_t i = 0; i < b->n; i++) {
        imp_span *s = &sp[i];
        if (s->src != IMP_SRC_CSV || !s->untagged)
            continue;
        size_t c0 = b->cstart[i], c1 = b->cstart[i + 1];
        int remote = 0, two = 0;
        for (size_t c = c0; c < c1; c++) {
            remote += sp[b->child[c]].svc != s->svc;
            two |= sp[b->child[c]].svc != sp[b->child[c0]].svc;
        }
        if (!remote)
            continue;
        uint32_t p = b->parent[i];
        if (c1 - c0 == 1 && p != IMP_NONE && sp[p].svc == s->svc) {
            imp_span *ch = &sp[b->child[c0]];
            s->kind = IMP_K_CLIENT;
            if (ch->untagged)
                ch->kind = IMP_K_SERVER;
            imp_count_span(b->im, IMP_C_KIND_CLIENT, s);
        } else {
            imp_count_span(b->im, two ? IMP_C_KIND_TWO_SERVICES
                                      : IMP_C_KIND_OTHER, s);
        }
    }
}

static rpc *new_rpc(builder *b)
{
    if (pb_grow(&b->rpcs, sizeof *b->rpcs, &b->caprpc, b->nrpc + 1, 1024) != PB_OK)
        return NULL;
    rpc *r = &b->rpcs[b->nrpc++];
    memset(r, 0, sizeof *r);
    return r;
}

static int label_of(builder *b, uint32_t trace, uint32_t sid, uint64_t *out)
{
    imp_importer *im = b->im;
    pb_strbuf s = {0};
    int rc = pb_strbuf_puts(&s, imp_id_show(im, 1, trace));
    if (rc == PB_OK && sid != IMP_NONE)
        rc = pb_strbuf_printf(&s, ":%s", imp_id_show(im, 0, sid));
    if (rc == PB_OK)
        rc = pb_label_parse(im->trace->names, pb_strbuf_str(&s), s.len, out);
    pb_strbuf_free(&s);
    return rc;
}

/* Walk every tree from its root in (trace, start) order: contexts, paths and
 * the RPCs of service-crossing edges.  Returns the pre-order in *pre. */
static int make_rpcs(builder *b, uint32_t *pre)
{
    imp_importer *im = b->im;
    imp_span *sp = b->sp;
    uint32_t *roots = malloc((b->n ? b->n : 1) * sizeof *roots);
    uint32_t *stack = malloc((b->n ? b->n : 1) * sizeof *stack);
    uint8_t *trace_has_main = calloc(pb_strtab_count(im->traceids) + 1, 1);
    uint8_t *has_callee = calloc(b->n ? b->n : 1, 1);
    int rc = PB_OK;
    size_t nroots = 0, npre = 0;
    if (!roots || !stack || !trace_has_main || !has_callee) {
        rc = PB_ENOMEM;
        goto out;
    }
    for (size_t i = 0; i < b->n; i++)
        if (b->parent[i] == IMP_NONE)
            roots[nroots++] = (uint32_t)i;
    g_sp = sp;
    g_tids = im;
    pb_sort(roots, nroots, sizeof *roots, cmp_root);
    for (size_t k = 0; k < nroots; k++) {
        uint32_t x = roots[k];
        /* the earliest root that named no parent carries the trace id */
        int main_root = !sp[x].has_ref && !trace_has_main[sp[x].trace];
        if (main_root)
            trace_has_main[sp[x].trace] = 1;
        else if (!sp[x].has_ref)
            imp_count_span(im, IMP_C_EXTRA_ROOT, &sp[x]);
        if ((rc = label_of(b, sp[x].trace, main_root ? IMP_NONE : sp[x].sid,
                           &b->path[x])) != PB_OK)
            goto out;
        size_t top = 0;
        stack[top++] = x;
        while (top) {
            x = stack[--top];
            pre[npre++] = x;
            uint32_t p = b->parent[x];
            if (p != IMP_NONE)
                b->path[x] = b->path[p];
            if (p == IMP_NONE && sp[x].kind == IMP_K_CLIENT) {
                /* a client-kind root: the client side of its service's
                 * first call; that service is the spontaneous sender and
                 * no RPC enters it */
                im->st.count[IMP_C_REQUESTS]++;
                imp_count_span(im, IMP_C_CLIENT_ROOT, &sp[x]);
                b->ctx[x] = x;
            } else if (p == IMP_NONE || sp[x].svc != sp[p].svc) {
                b->ctx[x] = x;
                rpc *r = new_rpc(b);
                if (!r) {
                    rc = PB_ENOMEM;
                    goto out;
                }
                b->in_rpc[x] = (uint32_t)(b->nrpc - 1);
                r->callee_ctx = x;
                r->label_span = x;
                r->dst = sp[x].svc;
                r->path = b->path[x];
                r->call_recv = sp[x].start;
                r->ret_ts = sp[x].end;
                r->op = p != IMP_NONE && sp[p].kind == IMP_K_CLIENT && sp[p].op
                            ? sp[p].op
                            : sp[x].op;
                if (p == IMP_NONE) {
                    im->st.count[IMP_C_REQUESTS]++;
                    r->caller_ctx = IMP_NONE;
                    r->src = im->node_client;
                    r->call_ts = sp[x].start;
                    r->ret_recv = sp[x].end;
                } else {
                    r->caller_ctx = b->ctx[p];
                    r->src = sp[p].svc;
                    if (sp[p].kind == IMP_K_CLIENT) {
                        r->call_ts = sp[p].start;
                        r->ret_recv = sp[p].end;
                        if (sp[x].kind != IMP_K_SERVER)
                            imp_count_span(im, IMP_C_CALLEE_NOT_SERVER, &sp[x]);
                        if (has_callee[p])
                            imp_count_span(im, IMP_C_MULTI_CALLEE, &sp[x]);
                        has_callee[p] = 1;
                        if (sp[x].start < sp[p].start)
                            imp_count_span(im, IMP_C_CLOCK_CALL, &sp[x]);
                        if (sp[x].end > sp[p].end)
                            imp_count_span(im, IMP_C_CLOCK_RETURN, &sp[x]);
                    } else {
                        imp_count_span(im, sp[x].kind == IMP_K_SERVER
                                               ? IMP_C_SERVER_ONLY
                                               : IMP_C_NO_KIND_RPC,
                                       &sp[x]);
                        r->call_ts = sp[x].start;
                        r->ret_recv = sp[x].end;
                    }
                }
            } else {
                b->ctx[x] = b->ctx[p];
                if (sp[x].kind == IMP_K_SERVER && sp[p].kind == IMP_K_CLIENT) {
                    imp_count_span(im, IMP_C_INTRA_RPC, &sp[x]);
                    has_callee[p] = 1;
                } else if (sp[x].kind != IMP_K_CLIENT) {
                    imp_count_span(im, IMP_C_INTERNAL_SPAN, &sp[x]);
                }
            }
            /* push children in reverse so they pop in start order */
            for (size_t c = b->cstart[x + 1]; c > b->cstart[x]; c--)
                stack[top++] = b->child[c - 1];
        }
    }
    /* A client span is answered when it has a callee, or a client span of
     * its own service below it (nested client instrumentation) answers
     * for it.  Children come after parents in pre-order, so walk it
     * backwards. */
    for (size_t k = npre; k-- > 0;) {
        uint32_t x = pre[k], p = b->parent[x];
        if (p != IMP_NONE && sp[p].svc == sp[x].svc &&
            (sp[x].kind == IMP_K_CLIENT || has_callee[x]))
            has_callee[p] = 1;
    }
    for (size_t k = 0; k < npre; k++) {
        uint32_t x = pre[k];
        if (sp[x].kind != IMP_K_CLIENT || has_callee[x])
            continue;
        imp_count_span(im, IMP_C_CLIENT_ONLY, &sp[x]);
        if (sp[x].peer == IMP_NONE && im->node_unknown == IMP_NONE &&
            pb_strtab_intern(im->trace->names->nodes, "unknown", 7,
                             &im->node_unknown) != PB_OK) {
            rc = PB_ENOMEM;
            goto out;
        }
        rpc *r = new_rpc(b);
        if (!r) {
            rc = PB_ENOMEM;
            goto out;
        }
        r->caller_ctx = b->ctx[x];
        r->callee_ctx = IMP_NONE;
        r->label_span = x;
        r->src = sp[x].svc;
        r->dst = sp[x].peer != IMP_NONE ? sp[x].peer : im->node_unknown;
        r->path = b->path[x];
        r->op = sp[x].op;
        r->call_ts = r->call_recv = sp[x].start;
        r->ret_ts = r->ret_recv = sp[x].end;
    }
out:
    free(roots);
    free(stack);
    free(trace_has_main);
    free(has_callee);
    return rc;
}

static const rpc *g_rpcs;

/* Children of one context in the order they were issued (caller's clock). */
static int cmp_issue(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    const rpc *r = &g_rpcs[x], *s = &g_rpcs[y];
    if (r->caller_ctx != s->caller_ctx)
        return r->caller_ctx < s->caller_ctx ? -1 : 1;
    if (r->call_ts != s->call_ts)
        return r->call_ts < s->call_ts ? -1 : 1;
    if (r->ret_recv != s->ret_recv)
        return r->ret_recv < s->ret_recv ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* Output order: ts, then causal depth within that ts (how many causes in a
 * row share the ts: a cause always sorts before its effect), then message
 * index (requests in root order, each request's RPCs depth-first). */
typedef struct msgkey {
    pb_ns ts;
    uint32_t depth;
    size_t idx;
} msgkey;

static int cmp_msgkey(const void *a, const void *b)
{
    const msgkey *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    if (x->depth != y->depth)
        return x->depth < y->depth ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static pb_ns msg_ts(const rpc *rpcs, size_t m)
{
    return m % 2 ? rpcs[m / 2].ret_ts : rpcs[m / 2].call_ts;
}

/* depth[m] = 0 when m's cause has another ts (or none), else the cause's
 * depth + 1.  Iterative (a chain of causes may be as long as the trace). */
static int causal_depths(const builder *b, const size_t *cause, uint32_t *depth,
                         size_t nm)
{
    size_t *stack = malloc((nm ? nm : 1) * sizeof *stack);
    if (!stack)
        return PB_ENOMEM;
    for (size_t m = 0; m < nm; m++)
        depth[m] = UINT32_MAX; /* not yet known */
    for (size_t m0 = 0; m0 < nm; m0++) {
        size_t top = 0, m = m0;
        while (depth[m] == UINT32_MAX) {
            size_t c = cause[m];
            if (c == SIZE_MAX || msg_ts(b->rpcs, c) != msg_ts(b->rpcs, m)) {
                depth[m] = 0;
                break;
            }
            depth[m] = UINT32_MAX - 1; /* on the stack: guards a cycle */
            stack[top++] = m;
            m = c;
        }
        uint32_t d = depth[m] >= UINT32_MAX - 1 ? 0 : depth[m];
        while (top) {
            m = stack[--top];
            d = d < UINT32_MAX - 2 ? d + 1 : d;
            depth[m] = d;
        }
    }
    free(stack);
    return PB_OK;
}

/* Causes, as message indices (2r = call of RPC r, 2r+1 = its return):
 * a child call is caused by the latest message its caller received before
 * issuing it (the call into the caller, or an earlier child's return);
 * a return by the latest message received before replying.  Ties go to the
 * later sibling.  Times compared are all on the caller's own clock. */
/* A binary min-heap of uint32_t items under an order of the caller's
 * (less(ctx, x, y): x comes off before y); the array holds n items. */
typedef struct uheap {
    uint32_t *a;
    size_t n;
    int (*less)(const void *ctx, uint32_t x, uint32_t y);
    const void *ctx;
} uheap;

static void uh_push(uheap *h, uint32_t x)
{
    size_t i = h->n++;
    h->a[i] = x;
    while (i > 0 && h->less(h->ctx, h->a[i], h->a[(i - 1) / 2])) {
        uint32_t t = h->a[i];
        h->a[i] = h->a[(i - 1) / 2];
        h->a[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
}

static uint32_t uh_pop(uheap *h)
{
    uint32_t top = h->a[0];
    size_t i = 0;
    h->a[0] = h->a[--h->n];
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < h->n && h->less(h->ctx, h->a[l], h->a[m]))
            m = l;
        if (l + 1 < h->n && h->less(h->ctx, h->a[l + 1], h->a[m]))
            m = l + 1;
        if (m == i)
            break;
        uint32_t t = h->a[i];
        h->a[i] = h->a[m];
        h->a[m] = t;
        i = m;
    }
    return top;
}

/* Outstanding children of one context: a min-heap of positions in the
 * issue order, keyed by (time the return came back, position), so that the
 * children that are back by a given time come off in O(log n) each. */
typedef struct outkey {
    const rpc *rpcs;
    const uint32_t *ord;
} outkey;

static int oh_less(const void *ctx, uint32_t a, uint32_t b)
{
    const outkey *o = ctx;
    pb_ns x = o->rpcs[o->ord[a]].ret_recv, y = o->rpcs[o->ord[b]].ret_recv;
    return x < y || (x == y && a < b);
}

static int make_causes(builder *b, size_t *cause)
{
    imp_importer *im = b->im;
    size_t nr = b->nrpc;
    uint32_t *ord = malloc((nr ? nr : 1) * sizeof *ord);
    outkey ok = {b->rpcs, ord};
    uheap h = {malloc((nr ? nr : 1) * sizeof *h.a), 0, oh_less, &ok};
    if (!ord || !h.a) {
        free(ord);
        free(h.a);
        return PB_ENOMEM;
    }
    for (size_t r = 0; r < nr; r++) {
        ord[r] = (uint32_t)r;
        cause[2 * r] = SIZE_MAX;
        cause[2 * r + 1] = 2 * r; /* no children: the call itself */
    }
    g_rpcs = b->rpcs;
    pb_sort(ord, nr, sizeof *ord, cmp_issue);
    for (size_t g = 0; g < nr;) {
        uint32_t X = b->rpcs[ord[g]].caller_ctx;
        size_t e = g + 1;
        while (e < nr && b->rpcs[ord[e]].caller_ctx == X)
            e++;
        if (X == IMP_NONE) {
            g = e;
            continue;
        }
        size_t in = b->in_rpc[X]; /* IMP_NONE: a spontaneous sender */
        pb_ns xstart = b->sp[X].start, xend = b->sp[X].end;
        /* Children in issue order; a child is a candidate cause of a later
         * sibling's call once its return is back (ret_recv <= call_ts),
         * and stays one, since issue times only grow.  Best = latest back,
         * ties to the later position. */
        size_t best = in != IMP_NONE ? 2 * in : SIZE_MAX, best_pos = 0;
        pb_ns best_t = xstart;
        int have_pos = 0;
        h.n = 0;
        for (size_t k = g; k < e; k++) {
            const rpc *r = &b->rpcs[ord[k]];
            while (h.n && b->rpcs[ord[h.a[0]]].ret_recv <= r->call_ts) {
                size_t j = uh_pop(&h);
                pb_ns t = b->rpcs[ord[j]].ret_recv;
                if (t > best_t || (t == best_t && (!have_pos || j > best_pos))) {
                    best = 2 * (size_t)ord[j] + 1;
                    best_t = t;
                    best_pos = j;
                    have_pos = 1;
                }
            }
            if (best == SIZE_MAX && k > g) {
                /* a spontaneous sender's parallel calls: all but the
                 * first are caused by the first */
                cause[2 * (size_t)ord[k]] = 2 * (size_t)ord[g];
                imp_count_span(im, IMP_C_ROOT_FANOUT, &b->sp[r->label_span]);
            } else {
                cause[2 * (size_t)ord[k]] = best;
            }
            uh_push(&h, (uint32_t)k); /* a position in ord: fits */
            if (r->call_ts < xstart)
                imp_count_span(im, IMP_C_EARLY_CHILD, &b->sp[r->label_span]);
        }
        if (in == IMP_NONE) { /* nothing returns from a spontaneous sender */
            g = e;
            continue;
        }
        /* the return from X */
        best = 2 * in;
        best_t = xstart;
        for (size_t j = g; j < e; j++) {
            const rpc *q = &b->rpcs[ord[j]];
            if (q->ret_recv > xend) {
                imp_count_span(im, IMP_C_LATE_CHILD, &b->sp[q->label_span]);
            } else if (q->ret_recv >= best_t) {
                best = 2 * (size_t)ord[j] + 1;
                best_t = q->ret_recv;
            }
        }
        cause[2 * in + 1] = best;
        g = e;
    }
    free(ord);
    free(h.a);
    return PB_OK;
}

/* IMP_THREAD_POOL: the worker of every context span (a visit), the
 * lowest free id of its service over the span's lifetime.  worker[span]
 * for context spans, IMP_NONE elsewhere. */
typedef struct wkey {
    uint32_t svc;
    pb_ns start, end;
    uint32_t span;
} wkey;

static int cmp_wkey(const void *x, const void *y)
{
    const wkey *p = x, *q = y;
    if (p->svc != q->svc) return p->svc < q->svc ? -1 : 1;
    if (p->start != q->start) return p->start < q->start ? -1 : 1;
    if (p->end != q->end) return p->end < q->end ? -1 : 1;
    return p->span < q->span ? -1 : p->span > q->span;
}

/* orders of worker ids: by the end of their visit, then id (busy); by id
 * (idle) */
static int busy_less(const void *ctx, uint32_t a, uint32_t b)
{
    const pb_ns *end = ctx;
    return end[a] != end[b] ? end[a] < end[b] : a < b;
}

static int id_less(const void *ctx, uint32_t a, uint32_t b)
{
    (void)ctx;
    return a < b;
}

static int pool_workers(builder *b, uint32_t *worker)
{
    size_t n = b->n, nk = 0;
    wkey *k = malloc((n ? n : 1) * sizeof *k);
    pb_ns *busy_end = malloc((n ? n : 1) * sizeof *busy_end); /* by worker id */
    uheap busy = {malloc((n ? n : 1) * sizeof *busy.a), 0, busy_less, busy_end};
    uheap idle = {malloc((n ? n : 1) * sizeof *idle.a), 0, id_less, NULL};
    if (!k || !busy_end || !busy.a || !idle.a) {
        free(k);
        free(busy_end);
        free(busy.a);
        free(idle.a);
        return PB_ENOMEM;
    }
    for (size_t i = 0; i < n; i++)
        worker[i] = IMP_NONE;
    for (size_t r = 0; r < b->nrpc; r++) {
        uint32_t c[2] = {b->rpcs[r].caller_ctx, b->rpcs[r].callee_ctx};
        for (int j = 0; j < 2; j++)
            if (c[j] != IMP_NONE && worker[c[j]] == IMP_NONE) {
                worker[c[j]] = 0;
                k[nk++] = (wkey){b->sp[c[j]].svc, b->sp[c[j]].start, b->sp[c[j]].end, c[j]};
            }
    }
    pb_sort(k, nk, sizeof *k, cmp_wkey);
    /* per service: the lowest worker whose visit ended by this start.
     * Starts rise within a service, so a worker whose visit ended by one
     * start is free at every later one: it moves from the busy heap (by
     * end) to the idle heap (by id) once.  A linear scan over the workers
     * was quadratic where a service holds thousands of visits at once */
    uint32_t nw = 0;
    for (size_t i = 0; i < nk; i++) {
        if (i == 0 || k[i].svc != k[i - 1].svc)
            nw = 0, busy.n = 0, idle.n = 0;
        while (busy.n && busy_end[busy.a[0]] <= k[i].start)
            uh_push(&idle, uh_pop(&busy));
        uint32_t w = idle.n ? uh_pop(&idle) : nw++;
        busy_end[w] = k[i].end;
        uh_push(&busy, w);
        worker[k[i].span] = w;
    }
    free(k);
    free(busy_end);
    free(busy.a);
    free(idle.a);
    return PB_OK;
}

static int write_trace(builder *b, const size_t *cause)
{
    imp_importer *im = b->im;
    const int mode = im->opts.thread;
    uint32_t *worker = NULL;
    gsl_rng *rng = NULL;
    uint32_t loop_label = 0;
    size_t nm = 2 * b->nrpc;
    msgkey *key = malloc((nm ? nm : 1) * sizeof *key);
    uint64_t *id = malloc((nm ? nm : 1) * sizeof *id);
    int rc = PB_OK;
    if (!key || !id) {
        rc = PB_ENOMEM;
        goto out;
    }
    /* the depths go in id's memory, which is filled only after the sort */
    if ((rc = causal_depths(b, cause, (uint32_t *)id, nm)) != PB_OK)
        goto out;
    for (size_t m = 0; m < nm; m++) {
        key[m].ts = msg_ts(b->rpcs, m);
        key[m].depth = ((const uint32_t *)id)[m];
        key[m].idx = m;
    }
    pb_sort(key, nm, sizeof *key, cmp_msgkey);
    for (size_t k = 0; k < nm; k++)
        id[key[k].idx] = k + 1;
    if (mode == IMP_THREAD_POOL) {
        if (!(worker = malloc((b->n ? b->n : 1) * sizeof *worker)) ||
            (rc = pool_workers(b, worker)) != PB_OK) {
            rc = PB_ENOMEM;
            goto out;
        }
    } else if (mode == IMP_THREAD_RANDOM) {
        if (!(rng = gsl_rng_alloc(gsl_rng_mt19937))) {
            rc = PB_ENOMEM;
            goto out;
        }
        gsl_rng_set(rng, im->opts.seed);
    } else if (mode == IMP_THREAD_LOOP &&
               (rc = pb_obs_label(im->trace->names, "loop", 4, &loop_label)) != PB_OK) {
        goto out;
    }
    for (size_t k = 0; k < nm && rc == PB_OK; k++) {
        size_t m = key[k].idx;
        const rpc *r = &b->rpcs[m / 2];
        pb_msg msg;
        pb_obs ob = PB_OBS_NONE;
        memset(&msg, 0, sizeof msg);
        msg.id = k + 1;
        msg.callid = PB_ID_NONE;
        if (im->opts.attr)
            ob.attr = r->op;
        if (im->opts.callid &&
            (rc = label_of(b, b->sp[r->label_span].trace,
                           b->sp[r->label_span].sid, &msg.callid)) != PB_OK)
            break;
        uint32_t th = m % 2 == 0 ? r->callee_ctx : r->caller_ctx;
        uint32_t sth = m % 2 == 0 ? r->caller_ctx : r->callee_ctx;
        uint64_t tl;
        if (mode == IMP_THREAD_ORACLE && th != IMP_NONE) {
            if ((rc = label_of(b, b->sp[th].trace, b->sp[th].sid, &tl)) != PB_OK)
                break;
            ob.thread = (uint32_t)(tl & ~PB_LABEL_STRING) + 1;
        } else if (mode == IMP_THREAD_LOOP) {
            ob.thread = ob.sthread = loop_label;
        } else if (mode == IMP_THREAD_POOL || mode == IMP_THREAD_RANDOM) {
            uint32_t ctx[2] = {th, sth}, *dst[2] = {&ob.thread, &ob.sthread};
            for (int j = 0; j < 2 && rc == PB_OK; j++) {
                unsigned long w;
                if (mode == IMP_THREAD_POOL) {
                    if (ctx[j] == IMP_NONE)
                        continue;
                    w = worker[ctx[j]];
                } else {
                    w = gsl_rng_uniform_int(rng, im->opts.threads ? im->opts.threads : 1);
                }
                char lb[32];
                int l = snprintf(lb, sizeof lb, "%c%lu", mode == IMP_THREAD_POOL ? 'w' : 't', w);
                rc = pb_obs_label(im->trace->names, lb, (size_t)l, dst[j]);
            }
            if (rc != PB_OK)
                break;
        }
        if (m % 2 == 0) {
            msg.type = PB_TYPE_CALL;
            msg.src = r->src;
            msg.dst = r->dst;
            msg.ts = r->call_ts;
            msg.recv_ts = r->call_recv;
        } else {
            msg.type = PB_TYPE_RETURN;
            msg.src = r->dst;
            msg.dst = r->src;
            msg.ts = r->ret_ts;
            msg.recv_ts = r->ret_recv;
        }
        pb_truth tr = {r->path,
                       cause[m] == SIZE_MAX ? PB_ID_NONE : id[cause[m]]};
        rc = pb_trace_append_obs(im->trace, &msg, &ob, &tr);
    }
    im->st.count[IMP_C_MESSAGES] = nm;
out:
    free(worker);
    if (rng)
        gsl_rng_free(rng);
    free(key);
    free(id);
    return rc;
}

static int write_meta(imp_importer *im)
{
    pb_strbuf s = {0};
    static const char *const fmts[] = {"jaeger", "zipkin", "otlp", "ebpf", "csv"};
    int rc = pb_strbuf_puts(&s, "generator=importtrace format=");
    for (int f = 0, k = 0; f < 5 && rc == PB_OK; f++)
        if (im->formats_seen & (1u << f))
            rc = pb_strbuf_printf(&s, "%s%s", k++ ? "+" : "", fmts[f]);
    if (rc == PB_OK)
        rc = pb_strbuf_printf(&s, " callid=%d", im->opts.callid ? 1 : 0);
    if (rc == PB_OK)
        rc = pb_trace_add_meta(im->trace, pb_strbuf_str(&s));
    pb_strbuf_reset(&s);
    if (rc == PB_OK)
        rc = pb_strbuf_puts(&s, "importtrace");
    for (int c = 0; c < IMP_NCOUNTERS && rc == PB_OK; c++)
        if (c < IMP_C_REPLACED_MEMBER || im->st.count[c])
            rc = pb_strbuf_printf(&s, " %s=%zu", imp_counter_name(c),
                                  im->st.count[c]);
    if (rc == PB_OK && im->unit_meta.len)
        rc = pb_strbuf_puts(&s, pb_strbuf_str(&im->unit_meta));
    if (rc == PB_OK)
        rc = pb_trace_add_meta(im->trace, pb_strbuf_str(&s));
    /* columns made up rather than observed are named (docs/formats.md) */
    static const char *const emu[] = {
        NULL,
        "emulated=thread model=oracle: the span each message enters at its "
        "receiver (TRACEID:SPANID), one label per visit, never reused: the "
        "truth's own identity",
        "emulated=thread,sthread model=pool: each visit takes the lowest free "
        "worker id of its service for its span's lifetime",
        "emulated=thread,sthread model=loop: one event-loop thread per service",
        "emulated=thread,sthread model=random"};
    int mode = im->opts.thread;
    if (rc == PB_OK && mode > 0 && mode <= IMP_THREAD_RANDOM) {
        pb_strbuf_reset(&s);
        rc = pb_strbuf_puts(&s, emu[mode]);
        if (rc == PB_OK && mode == IMP_THREAD_RANDOM)
            rc = pb_strbuf_printf(&s, " threads=%u seed=%lu: each receipt and send "
                                      "on a thread of its service drawn at random",
                                  im->opts.threads, im->opts.seed);
        if (rc == PB_OK)
            rc = pb_trace_add_meta(im->trace, pb_strbuf_str(&s));
    }
    /* span CSV: which pod names became which services */
    size_t np = im->pods ? pb_strtab_count(im->pods) : 0;
    if (rc == PB_OK && np) {
        pb_strbuf_reset(&s);
        rc = pb_strbuf_puts(&s, "importtrace_pods");
        for (size_t k = 0; k < np && rc == PB_OK; k++)
            rc = pb_strbuf_printf(&s, " %s=%s",
                                  pb_strtab_str(im->pods, (uint32_t)k),
                                  pb_strtab_str(im->podsvcs, im->pod_svc[k]));
        if (rc == PB_OK)
            rc = pb_trace_add_meta(im->trace, pb_strbuf_str(&s));
    }
    pb_strbuf_free(&s);
    return rc;
}

/* The node requests come from renamed (see imp_finish): RPCs from outside
 * (no caller span) that came from node "client" now come from a fresh node;
 * the first RPC into the service "client" is rpc index `first`, named in
 * the warning.  Returns PB_OK or PB_ENOMEM. */
static int rename_outside(imp_importer *im, builder *b, size_t first)
{
    char name[40];
    uint32_t id, outside;
    /* no request from outside at all (every root a client-kind span, as
     * the exporter writes a renamed outside node's): nothing to rename.
     * Before, a node client.outside2 was made for none, and said */
    size_t from_outside = 0;
    for (size_t i = 0; i < b->nrpc && !from_outside; i++)
        from_outside = b->rpcs[i].caller_ctx == IMP_NONE && b->rpcs[i].src == im->node_client;
    if (!from_outside)
        return PB_OK;
    for (unsigned k = 1;; k++) {
        snprintf(name, sizeof name, k == 1 ? "client.outside" : "client.outside%u",
                 k);
        if (!pb_strtab_find(im->trace->names->nodes, name, strlen(name), &id))
            break; /* ends: the table holds finitely many names */
    }
    if (pb_strtab_intern(im->trace->names->nodes, name, strlen(name), &outside) !=
        PB_OK)
        return PB_ENOMEM;
    size_t moved = 0;
    for (size_t i = 0; i < b->nrpc; i++)
        if (b->rpcs[i].caller_ctx == IMP_NONE && b->rpcs[i].src == im->node_client) {
            b->rpcs[i].src = outside;
            moved++;
        }
    char w[96];
    imp_span_where(&b->sp[b->rpcs[first].callee_ctx], w, sizeof w);
    if (pb_strbuf_printf(&im->client_warn,
                         "%s: %s: a span of service \"client\" entered by an RPC; "
                         "\"client\" is also the node requests come from, so "
                         "requests now come from node \"%s\" (%zu RPCs) and "
                         "\"client\" is the service",
                         im->files[b->sp[b->rpcs[first].callee_ctx].file], w,
                         name, moved) != PB_OK)
        return PB_ENOMEM;
    im->st.client_warning = pb_strbuf_str(&im->client_warn);
    return PB_OK;
}

int imp_finish(imp_importer *im, pb_trace **out, pb_error *err)
{
    *out = NULL;
    if (im->failed || im->finished)
        return pb_error_set(err, PB_ESTATE, NULL, 0, 0,
                            "importer already failed or finished");
    if (im->nev || (im->formats_seen & 8u)) {
        if (im->nspans)
            return pb_error_set(err, PB_EPARSE, NULL, 0, 0,
                                "the input mixes spans and a syscall capture; "
                                "expected one kind");
        im->finished = 1;
        return imp_events_finish(im, out, err);
    }
    im->finished = 1;
    if (merge_fragments(im) != PB_OK)
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    if (!im->nspans && im->st.count[IMP_C_NO_TIMESTAMP])
        return pb_error_set(err, PB_EPARSE, im->nfiles ? im->files[0] : NULL,
                            0, 0, "the input holds no span with a start time: "
                            "%zu %s (first: %s), none with one",
                            im->st.count[IMP_C_NO_TIMESTAMP],
                            (im->formats_seen & (1u << IMP_SRC_OTLP))
                                ? "spans without a start time (Zipkin \"timestamp\" absent or 0, "
                                  "OTLP \"startTimeUnixNano\" absent or 0)"
                                : "Zipkin spans without \"timestamp\"",
                            im->st.first[IMP_C_NO_TIMESTAMP]
                                ? im->st.first[IMP_C_NO_TIMESTAMP] : "?");
    if (!im->nspans)
        return pb_error_set(err, PB_EPARSE, im->nfiles ? im->files[0] : NULL,
                            0, 0, "%s", im->formats_seen == 16u
                            ? "the span table holds no span rows; expected at "
                              "least one row after the header"
                            : "the input holds no spans; expected at least one "
                              "Jaeger, Zipkin or OTLP span");
    builder b;
    memset(&b, 0, sizeof b);
    b.im = im;
    b.sp = im->spans;
    b.n = im->nspans;
    size_t n = b.n;
    int rc = PB_ENOMEM;
    uint32_t *pre = malloc(n * sizeof *pre);
    size_t *cause = NULL;
    b.parent = malloc(n * sizeof *b.parent);
    b.byid = malloc(n * sizeof *b.byid);
    b.ctx = malloc(n * sizeof *b.ctx);
    b.in_rpc = malloc(n * sizeof *b.in_rpc);
    b.path = malloc(n * sizeof *b.path);
    if (!pre || !b.parent || !b.byid || !b.ctx || !b.in_rpc || !b.path)
        goto out;
    drop_copies(im, b.byid);
    b.n = n = im->nspans;
    for (size_t i = 0; i < n; i++) {
        b.byid[i] = (uint32_t)i;
        b.in_rpc[i] = IMP_NONE;
    }
    g_sp = b.sp;
    pb_sort(b.byid, n, sizeof *b.byid, cmp_byid);
    im->st.count[IMP_C_TRACES] = pb_strtab_count(im->traceids);
    if (check_respelled(&b, err) != PB_OK) {
        rc = -1;
        goto out;
    }
    resolve_parents(&b);
    if ((rc = break_cycles(&b)) != PB_OK || (rc = build_children(&b)) != PB_OK ||
        (kind_rule(&b), (rc = make_rpcs(&b, pre)) != PB_OK))
        goto out;
    im->st.count[IMP_C_RPCS] = b.nrpc;
    /* a service named "client" that RPCs enter: "client" is also the name
     * of the node requests come from (the spontaneous sender); one node for
     * both would read the service's calls as new requests and a request
     * entering it as a cycle, so the outside node takes another name (the
     * first of client.outside, client.outside2, ... no service holds) and
     * importtrace says so */
    for (size_t i = 0; i < b.nrpc; i++)
        if (b.rpcs[i].dst == im->node_client) {
            rc = rename_outside(im, &b, i);
            if (rc != PB_OK)
                goto out;
            break;
        }
    if ((rc = imp_check_units(im)) != PB_OK)
        goto out;
    rc = PB_ENOMEM;
    if (!(cause = malloc((2 * b.nrpc + 1) * sizeof *cause)))
        goto out;
    if ((rc = make_causes(&b, cause)) != PB_OK ||
        (rc = write_trace(&b, cause)) != PB_OK || (rc = write_meta(im)) != PB_OK)
        goto out;
    im->trace->columns = PB_COL_ID | PB_COL_TS | PB_COL_RECV_TS | PB_COL_SRC |
                         PB_COL_DST | PB_COL_TYPE | PB_COL_PATH | PB_COL_CAUSE |
                         (im->opts.callid ? PB_COL_CALLID : 0) |
                         (im->opts.thread ? PB_COL_THREAD : 0) |
                         (im->opts.thread >= IMP_THREAD_POOL ? PB_COL_STHREAD : 0) |
                         (im->opts.attr ? PB_COL_ATTR : 0);
    *out = im->trace;
    im->trace = NULL;
out:
    free(pre);
    free(cause);
    free(b.parent);
    free(b.byid);
    free(b.child);
    free(b.cstart);
    free(b.ctx);
    free(b.in_rpc);
    free(b.path);
    free(b.rpcs);
    if (rc == -1)
        return err->code; /* err filled */
    if (rc != PB_OK)
        return pb_error_set(err, rc, NULL, 0, 0, "%s", pb_strerror(rc));
    return PB_OK;
}

