/*
 * imp_export.c - inferred instances as Jaeger JSON (imp_export.h).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "imp_export.h"
#include "pb_pattab.h"
#include "pb_sort.h"

#define NO UINT32_MAX

typedef struct xrpc {
    uint32_t call, ret; /* trace positions; ret NO when one-way */
    uint32_t parent;    /* index of the parent xrpc in the instance, or NO */
    uint64_t cspan, sspan; /* span ids (cspan 0: no client span) */
} xrpc;

typedef struct ent {
    uint32_t inst, pos, pattern;
} ent;

static int cmp_ent(const void *a, const void *b)
{
    const ent *x = a, *y = b;
    if (x->inst != y->inst)
        return x->inst < y->inst ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static const pb_msg *g_msgs;

static int cmp_pos_by_id(const void *a, const void *b)
{
    uint64_t x = g_msgs[*(const uint32_t *)a].id;
    uint64_t y = g_msgs[*(const uint32_t *)b].id;
    return x < y ? -1 : x > y;
}

/* Pairing key of a message: (caller, callee, callid), then the time on
 * the caller's clock (a call's ts, a return's recv_ts), calls first. */
typedef struct pkey {
    uint32_t a, b;
    uint64_t callid;
    pb_ns t;
    uint32_t ret, pos;
} pkey;

static int cmp_pkey(const void *x, const void *y)
{
    const pkey *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    if (p->b != q->b)
        return p->b < q->b ? -1 : 1;
    if (p->callid != q->callid)
        return p->callid < q->callid ? -1 : 1;
    if (p->t != q->t)
        return p->t < q->t ? -1 : 1;
    if (p->ret != q->ret)
        return p->ret < q->ret ? -1 : 1;
    return p->pos < q->pos ? -1 : p->pos > q->pos;
}

/* RPCs by callee, then time of receipt (callee's clock), then position of
 * the call. */
typedef struct rkey {
    uint32_t dst;
    pb_ns recv;
    uint32_t pos, rpc;
} rkey;

static int cmp_rkey(const void *x, const void *y)
{
    const rkey *p = x, *q = y;
    if (p->dst != q->dst)
        return p->dst < q->dst ? -1 : 1;
    if (p->recv != q->recv)
        return p->recv < q->recv ? -1 : 1;
    return p->pos < q->pos ? -1 : p->pos > q->pos;
}

static pb_ns recv_of(const pb_msg *x)
{
    return x->recv_ts != PB_TS_NONE ? x->recv_ts : x->ts;
}

static void put_str(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(fp, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(fp, "\\u%04x", *p);
        else
            fputc(*p, fp);
    }
    fputc('"', fp);
}

static int64_t us_of(pb_ns t, imp_export_stats *st)
{
    if (t % 1000)
        st->rounded++;
    int64_t u = t / 1000;
    if (t < 0 && t % 1000)
        u--; /* floor */
    return u;
}

/* The operation name "SRC -> DST", escaped. */
static void put_op(FILE *fp, const char *src, const char *dst)
{
    fputc('"', fp);
    for (int k = 0; k < 2; k++) {
        for (const unsigned char *p = (const unsigned char *)(k ? dst : src);
             *p; p++) {
            if (*p == '"' || *p == '\\')
                fprintf(fp, "\\%c", *p);
            else if (*p < 0x20)
                fprintf(fp, "\\u%04x", *p);
            else
                fputc(*p, fp);
        }
        if (!k)
            fputs(" -> ", fp);
    }
    fputc('"', fp);
}

typedef struct span_out {
    uint64_t trace, id, parent; /* parent 0: none */
    const char *src, *dst, *kind;
    uint32_t proc;
    pb_ns start, end;
    int root;            /* tag the instance and its pattern */
    uint32_t inst;
    const char *pattern; /* may be NULL */
} span_out;

static void put_span(FILE *fp, int first, const span_out *o,
                     imp_export_stats *st)
{
    int64_t s = us_of(o->start, st), e = us_of(o->end, st);
    if (e < s) {
        st->negative++;
        e = s;
    }
    fprintf(fp, "%s\n{\"traceID\":\"%016" PRIx64 "\",\"spanID\":\"%016" PRIx64
                "\",\"flags\":1,\"operationName\":",
            first ? "" : ",", o->trace, o->id);
    put_op(fp, o->src, o->dst);
    fputs(",\"references\":[", fp);
    if (o->parent)
        fprintf(fp, "{\"refType\":\"CHILD_OF\",\"traceID\":\"%016" PRIx64
                    "\",\"spanID\":\"%016" PRIx64 "\"}",
                o->trace, o->parent);
    fprintf(fp, "],\"startTime\":%" PRId64 ",\"duration\":%" PRId64
                ",\"tags\":[{\"key\":\"span.kind\",\"type\":\"string\","
                "\"value\":\"%s\"}",
            s, e - s, o->kind);
    if (o->root) {
        fprintf(fp, ",{\"key\":\"pathbench.instance\",\"type\":\"int64\","
                    "\"value\":%u}",
                o->inst);
        if (o->pattern) {
            fputs(",{\"key\":\"pathbench.pattern\",\"type\":\"string\","
                  "\"value\":",
                  fp);
            put_str(fp, o->pattern);
            fputc('}', fp);
        }
    }
    fprintf(fp, "],\"logs\":[],\"processID\":\"p%u\",\"warnings\":null}",
            o->proc + 1);
    st->spans++;
}

/* One instance: the messages at positions pos[0..k) (trace order). */
static int write_instance(FILE *fp, const pb_trace *t, const uint32_t *pos,
                          size_t k, uint64_t trace_no, uint32_t inst,
                          const char *pattern, uint32_t client_node,
                          int first_trace, uint32_t *procs,
                          imp_export_stats *st)
{
    const pb_msg *m = t->msgs;
    int use_callid = (t->columns & PB_COL_CALLID) != 0;
    xrpc *rp = malloc((k ? k : 1) * sizeof *rp);
    pkey *pk = malloc((k ? k : 1) * sizeof *pk);
    uint32_t *used = malloc((2 * k + 1) * sizeof *used); /* nodes in order */
    uint32_t *order = malloc((k ? k : 1) * sizeof *order);
    int rc = PB_ENOMEM;
    if (!rp || !pk || !used || !order)
        goto out;
    /* pair calls and returns: per (caller, callee, callid), FIFO */
    size_t np = 0;
    for (size_t i = 0; i < k; i++) {
        const pb_msg *x = &m[pos[i]];
        if (x->type == PB_TYPE_MSG)
            continue;
        int ret = x->type == PB_TYPE_RETURN;
        pk[np++] = (pkey){ret ? x->dst : x->src, ret ? x->src : x->dst,
                          use_callid ? x->callid : 0,
                          ret ? recv_of(x) : x->ts, (uint32_t)ret,
                          (uint32_t)i};
    }
    pb_sort(pk, np, sizeof *pk, cmp_pkey);
    size_t nr = 0;
    uint32_t *ret_of = order; /* reuse: return index paired with call i */
    for (size_t i = 0; i < k; i++)
        ret_of[i] = NO;
    uint8_t *is_paired_ret = calloc(k ? k : 1, 1);
    if (!is_paired_ret)
        goto out;
    for (size_t g = 0; g < np;) {
        size_t e = g + 1;
        while (e < np && pk[e].a == pk[g].a && pk[e].b == pk[g].b &&
               pk[e].callid == pk[g].callid)
            e++;
        /* FIFO: calls queue up, each return takes the oldest */
        size_t head = g, tail = g; /* queue of call entries in pk[g..e) */
        uint32_t *q = malloc((e - g) * sizeof *q);
        if (!q) {
            free(is_paired_ret);
            goto out;
        }
        for (size_t j = g; j < e; j++) {
            uint32_t p = pk[j].pos;
            if (!pk[j].ret) {
                q[tail++ - g] = p;
            } else if (head < tail) {
                ret_of[q[head++ - g]] = p;
                is_paired_ret[p] = 1;
            }
        }
        free(q);
        g = e;
    }
    /* RPCs in order of their first message */
    for (size_t i = 0; i < k; i++) {
        const pb_msg *x = &m[pos[i]];
        if (x->type == PB_TYPE_RETURN && is_paired_ret[i])
            continue;
        xrpc *r = &rp[nr];
        r->call = (uint32_t)i;
        r->ret = x->type == PB_TYPE_CALL ? ret_of[i] : NO;
        r->parent = NO;
        if (r->ret != NO)
            st->rpcs++;
        else
            st->one_way++;
        nr++;
    }
    free(is_paired_ret);
    /* parents, all on the caller's clock: the latest call into the caller
     * received before it sent this one (at equal times, one written
     * earlier) that was still open (its return sent after this RPC's came
     * back; at equal times, written later) */
    rkey *into = malloc((nr ? nr : 1) * sizeof *into);
    if (!into)
        goto out;
    for (size_t j = 0; j < nr; j++) {
        const pb_msg *c = &m[pos[rp[j].call]];
        into[j] = (rkey){c->dst, recv_of(c), rp[j].call, (uint32_t)j};
    }
    pb_sort(into, nr, sizeof *into, cmp_rkey);
    for (size_t j = 0; j < nr; j++) {
        xrpc *r = &rp[j];
        const pb_msg *c = &m[pos[r->call]];
        pb_ns back = r->ret != NO ? recv_of(&m[pos[r->ret]]) : c->ts;
        uint32_t back_pos = r->ret != NO ? r->ret : r->call;
        /* last entry (dst, recv, pos) before (c->src, c->ts, r->call) */
        size_t lo = 0, hi = nr;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            const rkey *q = &into[mid];
            int before = q->dst < c->src ||
                         (q->dst == c->src &&
                          (q->recv < c->ts ||
                           (q->recv == c->ts && q->pos < r->call)));
            if (before)
                lo = mid + 1;
            else
                hi = mid;
        }
        uint32_t any = NO;
        for (size_t i = lo; i-- > 0 && into[i].dst == c->src;) {
            const xrpc *q = &rp[into[i].rpc];
            if (into[i].rpc == j)
                continue;
            if (any == NO)
                any = into[i].rpc;
            if (q->ret == NO)
                continue;
            const pb_msg *qr = &m[pos[q->ret]];
            if (qr->ts > back || (qr->ts == back && q->ret > back_pos)) {
                r->parent = into[i].rpc;
                break;
            }
        }
        if (r->parent == NO && any == NO && lo < nr && into[lo].dst == c->src &&
            into[lo].rpc != j)
            any = into[lo].rpc; /* only calls received later: the first */
        if (r->parent == NO && any != NO) {
            r->parent = any;
            st->no_open_parent++;
        }
    }
    free(into);
    /* a parent chain must not loop (times of several clocks at equal
     * ticks): cut a loop at the RPC where it closes */
    uint8_t *state = calloc(nr ? nr : 1, 1);
    if (!state)
        goto out;
    for (size_t j = 0; j < nr; j++) {
        uint32_t x = (uint32_t)j;
        while (x != NO && state[x] == 0) {
            state[x] = 1;
            x = rp[x].parent;
        }
        if (x != NO && state[x] == 1) {
            rp[x].parent = NO;
            st->cycles_cut++;
        }
        for (x = (uint32_t)j; x != NO && state[x] == 1; x = rp[x].parent)
            state[x] = 2;
    }
    free(state);
    size_t roots = 0;
    for (size_t j = 0; j < nr; j++)
        roots += rp[j].parent == NO;
    if (roots > 1)
        st->multi_root++;
    /* processes: one per node, in order of first use */
    uint32_t nproc = 0;
    for (size_t j = 0; j < nr; j++) {
        const pb_msg *c = &m[pos[rp[j].call]];
        if (!procs[c->src]) {
            procs[c->src] = ++nproc;
            used[nproc - 1] = c->src;
        }
        if (!procs[c->dst]) {
            procs[c->dst] = ++nproc;
            used[nproc - 1] = c->dst;
        }
    }
    fprintf(fp, "%s\n{\"traceID\":\"%016" PRIx64 "\",\"spans\":[",
            first_trace ? "" : ",", trace_no);
    /* span ids first: a child may be written before its parent (its call
     * can come first in ts order when clocks disagree) */
    uint64_t next_id = 1;
    for (size_t j = 0; j < nr; j++) {
        xrpc *r = &rp[j];
        const pb_msg *c = &m[pos[r->call]];
        const pb_msg *rt = r->ret != NO ? &m[pos[r->ret]] : NULL;
        int server_only = r->parent == NO && c->src == client_node &&
                          c->ts == recv_of(c) && (!rt || rt->ts == recv_of(rt));
        r->cspan = server_only ? 0 : next_id++;
        r->sspan = next_id++;
    }
    int first = 1;
    for (size_t j = 0; j < nr; j++) {
        xrpc *r = &rp[j];
        const pb_msg *c = &m[pos[r->call]];
        const pb_msg *rt = r->ret != NO ? &m[pos[r->ret]] : NULL;
        const char *src = pb_strtab_str(t->names->nodes, c->src);
        const char *dst = pb_strtab_str(t->names->nodes, c->dst);
        pb_ns crecv = c->recv_ts != PB_TS_NONE ? c->recv_ts : c->ts;
        pb_ns rrecv = rt ? (rt->recv_ts != PB_TS_NONE ? rt->recv_ts : rt->ts)
                         : c->ts;
        uint64_t parent = r->parent != NO ? rp[r->parent].sspan : 0;
        int one_way = rt == NULL;
        span_out cs = {trace_no, r->cspan, parent, src, dst,
                       one_way ? "producer" : "client", procs[c->src] - 1,
                       c->ts, rrecv, r->parent == NO, inst, pattern};
        span_out ss = {trace_no, r->sspan, r->cspan, src, dst,
                       one_way ? "consumer" : "server", procs[c->dst] - 1,
                       crecv, rt ? rt->ts : crecv, 0, inst, pattern};
        if (!r->cspan) { /* a root entered from node client: server alone */
            ss.parent = 0;
            ss.root = 1;
        } else {
            put_span(fp, first, &cs, st);
            first = 0;
        }
        put_span(fp, first, &ss, st);
        first = 0;
    }
    fputs("],\"processes\":{", fp);
    for (uint32_t p = 1; p <= nproc; p++) {
        fprintf(fp, "%s\"p%u\":{\"serviceName\":", p > 1 ? "," : "", p);
        put_str(fp, pb_strtab_str(t->names->nodes, used[p - 1]));
        fputs(",\"tags\":[]}", fp);
        procs[used[p - 1]] = 0; /* clean for the next instance */
    }
    fputs("},\"warnings\":null}", fp);
    st->instances++;
    rc = PB_OK;
out:
    free(rp);
    free(pk);
    free(used);
    free(order);
    return rc;
}

typedef struct inst_range {
    size_t from, to; /* in the sorted entries */
} inst_range;

static const ent *g_ents;

static int cmp_range(const void *a, const void *b)
{
    uint32_t x = g_ents[((const inst_range *)a)->from].pos;
    uint32_t y = g_ents[((const inst_range *)b)->from].pos;
    return x < y ? -1 : x > y;
}

/* The node requests come from (written as server spans alone, what the
 * importer makes of a server root span): "client", unless a call (or a
 * one-way message) enters
 * it (then "client" is a service, and the importer named the outside the
 * first of client.outside, client.outside2, ... no service held: that
 * one, the first of them that is a node no call enters); NO when none,
 * NO - 1 when out of memory.  Before, the node "client" was the outside
 * even when it was a service: its root RPCs lost their client spans and
 * read back as requests from outside. */
static uint32_t outside_node(const pb_trace *t)
{
    uint32_t client = NO;
    if (!pb_strtab_find(t->names->nodes, "client", 6, &client))
        return NO;
    size_t nn = pb_strtab_count(t->names->nodes);
    uint8_t *entered = calloc(nn ? nn : 1, 1);
    if (!entered)
        return NO - 1;
    for (size_t i = 0; i < t->n; i++)
        if (t->msgs[i].type != PB_TYPE_RETURN && t->msgs[i].dst < nn)
            entered[t->msgs[i].dst] = 1;
    uint32_t out = client;
    if (entered[client]) {
        out = NO;
        char name[40];
        for (unsigned k = 1; k <= nn + 1; k++) {
            uint32_t id;
            snprintf(name, sizeof name, k == 1 ? "client.outside" : "client.outside%u", k);
            if (!pb_strtab_find(t->names->nodes, name, strlen(name), &id))
                break; /* the importer took the first name no node held */
            if (!entered[id]) {
                out = id;
                break;
            }
        }
    }
    free(entered);
    return out;
}

int imp_export_jaeger(FILE *fp, const pb_trace *t, const pb_result *res,
                      imp_export_stats *st_out, pb_error *err)
{
    imp_export_stats st;
    memset(&st, 0, sizeof st);
    if (st_out) /* defined on every path (the error paths too) */
        *st_out = st;
    if (!res->nassign)
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "the result ascribes no messages to instances "
                            "(convolution gives patterns only; or "
                            "--no-assign); expected an assignment table to "
                            "export");
    if (t->n >= NO)
        return pb_error_set(err, PB_ERANGE, NULL, 0, 0,
                            "trace too large to export");
    size_t n = t->n, na = res->nassign;
    uint32_t *byid = malloc((n ? n : 1) * sizeof *byid);
    ent *e = malloc(na * sizeof *e);
    inst_range *rg = NULL;
    uint32_t *pos = NULL;
    uint32_t *procs = calloc(pb_strtab_count(t->names->nodes) + 1,
                             sizeof *procs);
    int rc = PB_ENOMEM;
    if (!byid || !e || !procs)
        goto out;
    for (size_t i = 0; i < n; i++)
        byid[i] = (uint32_t)i;
    g_msgs = t->msgs;
    pb_sort(byid, n, sizeof *byid, cmp_pos_by_id);
    for (size_t i = 0; i < na; i++) {
        uint64_t id = res->assign[i].id;
        size_t lo = 0, hi = n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (t->msgs[byid[mid]].id < id)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == n || t->msgs[byid[lo]].id != id) {
            rc = pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                              "the result ascribes message %" PRIu64
                              ", which is not in the trace; expected the "
                              "trace the result was inferred from",
                              id);
            goto out;
        }
        e[i] = (ent){res->assign[i].instance, byid[lo], res->assign[i].pattern};
    }
    pb_sort(e, na, sizeof *e, cmp_ent);
    size_t nin = 0;
    for (size_t i = 0; i < na; i++)
        nin += !i || e[i].inst != e[i - 1].inst;
    rg = malloc(nin * sizeof *rg);
    pos = malloc(na * sizeof *pos);
    if (!rg || !pos)
        goto out;
    nin = 0;
    for (size_t i = 0; i < na; i++) {
        if (!i || e[i].inst != e[i - 1].inst)
            rg[nin++] = (inst_range){i, i};
        rg[nin - 1].to = i + 1;
    }
    g_ents = e;
    pb_sort(rg, nin, sizeof *rg, cmp_range);
    uint32_t client_node = outside_node(t);
    if (client_node == NO - 1) {
        rc = PB_ENOMEM;
        goto out;
    }
    st.unassigned = n > na ? n - na : 0;
    fputs("{\"data\":[", fp);
    rc = PB_OK;
    for (size_t k = 0; k < nin && rc == PB_OK; k++) {
        size_t len = rg[k].to - rg[k].from;
        for (size_t i = 0; i < len; i++)
            pos[i] = e[rg[k].from + i].pos;
        uint32_t inst = e[rg[k].from].inst;
        const pb_pattern *pat =
            pb_pattab_by_index(res->patterns, e[rg[k].from].pattern);
        rc = write_instance(fp, t, pos, len, (uint64_t)k + 1, inst,
                            pat ? pat->text : NULL, client_node, k == 0,
                            procs, &st);
    }
    if (rc == PB_OK) {
        fputs("\n],\"total\":0,\"limit\":0,\"offset\":0,\"errors\":null}\n", fp);
        if (ferror(fp))
            rc = pb_error_set(err, PB_EIO, NULL, 0, 0, "cannot write");
    } else {
        pb_error_set(err, rc, NULL, 0, 0, "%s", pb_strerror(rc));
    }
out:
    if (rc == PB_ENOMEM)
        pb_error_set(err, rc, NULL, 0, 0, "out of memory");
    free(byid);
    free(e);
    free(procs);
    free(rg);
    free(pos);
    if (st_out)
        *st_out = st;
    return rc;
}
