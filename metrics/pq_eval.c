/*
 * pq_eval.c - evaluating a query over a trace under a request structure
 * (pq.h), and comparing two answers.
 *
 * Event e of message i is 2*i (its send) or 2*i+1 (its receipt).  With
 * parent links the events that happened before e lie on one chain (the
 * ancestors of e's message), so a join costs the depth of the chain and
 * First / MostRecent are the ends of the chain (causal order, not clock
 * order).  Without parent links they are the earlier events of e's request
 * by time.  Cost: O(events x product over Joins of the candidates each
 * keeps), as a relational join; a temporal filter keeps one (or N).
 */
#include "pq_int.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb_strbuf.h"
#include "pb_strtab.h"
#include "pb_sort.h"

typedef struct ctx {
    const pq_query *q;
    const pb_trace *t;
    const pq_causal *c;
    double *latency;       /* [n], NAN when unknown */
    /* approximation: events sorted by (request, time, event) */
    size_t *ev_sorted;     /* [nsorted] */
    size_t nsorted;
    size_t *ev_pos;        /* [2n]: position in ev_sorted, SIZE_MAX if none */
    /* candidates scratch, one per join depth */
    size_t *cand[PQ_MAXVARS];
    size_t ncand_cap[PQ_MAXVARS];
    size_t bind[PQ_MAXVARS];
    /* groups */
    pb_strtab *keys;
    double *acc;           /* [groups * nsels * 4]: count, sum, min, max */
    size_t acc_cap;        /* groups allocated */
    uint64_t tuples;
    pb_strbuf kb;
    int oom;
    uint64_t steps;        /* events looked at by the joins, for the cap */
    int over;              /* more than max_steps: stopped */
    uint64_t max_steps;
} ctx;

/* The most events the joins of one query may look at on one trace.  Each
 * Join without a temporal filter multiplies the work by the events before
 * the bound one (up to a request's size), so eight variables over long
 * requests could run for days; past this the answer is refused, never cut
 * short silently.  About 16 CPU s at this many (Train Ticket's truth,
 * four unfiltered Joins, 2 shared cores under load). */
#define PQ_MAX_STEPS ((uint64_t)2000000000)

static pb_ns ev_time_ns(const pb_trace *t, size_t e)
{
    const pb_msg *m = &t->msgs[e / 2];
    if (e % 2 && m->recv_ts != PB_TS_NONE)
        return m->recv_ts;
    return m->ts;
}

typedef struct val {
    int is_num;
    double num;
    const char *str;
    int is_int; /* a whole number held exactly in u (ids; digit literals) */
    uint64_t u;
} val;

static val ev_value(const ctx *x, size_t e, int field)
{
    const pb_trace *t = x->t;
    const pb_msg *m = &t->msgs[e / 2];
    int recv = (int)(e % 2);
    val v = {0, NAN, "", 0, 0};
    const char *s;
    switch (field) {
    case PQ_F_HOST:
        s = pb_strtab_str(t->names->nodes, recv ? m->dst : m->src);
        v.str = s ? s : "";
        break;
    case PQ_F_PEER:
        s = pb_strtab_str(t->names->nodes, recv ? m->src : m->dst);
        v.str = s ? s : "";
        break;
    case PQ_F_EVENT:
        v.str = recv ? "recv" : "send";
        break;
    case PQ_F_TYPE:
        v.str = pb_type_name(m->type);
        break;
    case PQ_F_ATTR:
        v.str = pb_thread_name(t->names, pb_obs_attr(t->obs, e / 2));
        break;
    case PQ_F_TIME:
        v.is_num = 1;
        v.num = pb_ns_to_sec(ev_time_ns(t, e));
        break;
    case PQ_F_LATENCY:
        v.is_num = 1;
        v.num = x->latency[e / 2];
        break;
    case PQ_F_SIZE:
        v.is_num = 1;
        v.num = pb_obs_size(t->obs, e / 2) == PB_SIZE_NONE ? NAN
                                                           : (double)pb_obs_size(t->obs, e / 2);
        break;
    case PQ_F_ID:
        v.is_num = 1;
        v.num = (double)m->id;
        v.is_int = 1; /* a double holds ids exactly only up to 2^53 */
        v.u = m->id;
        break;
    default:
        break;
    }
    return v;
}

static int cmp_op(int op, int c)
{
    switch (op) {
    case PQ_EQ: return c == 0;
    case PQ_NE: return c != 0;
    case PQ_LT: return c < 0;
    case PQ_LE: return c <= 0;
    case PQ_GT: return c > 0;
    default: return c >= 0;
    }
}

/* a op b; a missing number makes every comparison false */
static int test(val a, int op, val b, int prefix)
{
    if (a.is_num || b.is_num) {
        if (!a.is_num || !b.is_num || isnan(a.num) || isnan(b.num))
            return 0;
        if (a.is_int && b.is_int)
            return cmp_op(op, (a.u > b.u) - (a.u < b.u));
        if (a.is_int || b.is_int) {
            /* an id against a fraction or a number past 2^64: compared in
             * long double, which holds every uint64 on x86-64 */
            long double la = a.is_int ? (long double)a.u : (long double)a.num;
            long double lb = b.is_int ? (long double)b.u : (long double)b.num;
            return cmp_op(op, (la > lb) - (la < lb));
        }
        return cmp_op(op, (a.num > b.num) - (a.num < b.num));
    }
    if (prefix && (op == PQ_EQ || op == PQ_NE)) {
        int match = !strncmp(a.str, b.str, strlen(b.str));
        return op == PQ_EQ ? match : !match;
    }
    int c = strcmp(a.str, b.str);
    return cmp_op(op, (c > 0) - (c < 0));
}

static val lit_value(const pq_operand *o)
{
    val v = {o->is_num, o->num, o->str ? o->str : "", o->is_int, o->u};
    return v;
}

static int source_match(const ctx *x, const pq_var *v, size_t e)
{
    for (size_t s = 0; s < v->nsrc; s++) {
        const pq_source *src = &v->src[s];
        if (src->kind != PQ_ANY && (size_t)src->kind != e % 2)
            continue;
        int ok = 1;
        for (size_t f = 0; f < src->nf && ok; f++)
            ok = test(ev_value(x, e, src->f[f].l.field), src->f[f].op,
                      lit_value(&src->f[f].r), src->f[f].r.prefix);
        if (ok)
            return 1;
    }
    return 0;
}

static val operand_value(const ctx *x, const pq_operand *o)
{
    if (o->var >= 0)
        return ev_value(x, x->bind[o->var], o->field);
    return lit_value(o);
}

static int where_ok(const ctx *x)
{
    const pq_query *q = x->q;
    for (size_t i = 0; i < q->nconds; i++) {
        const pq_cond *c = &q->conds[i];
        int prefix = (c->r.var < 0 && c->r.prefix) || (c->l.var < 0 && c->l.prefix);
        val a = operand_value(x, &c->l), b = operand_value(x, &c->r);
        /* a prefix literal on the left: compare the other way round */
        if (c->l.var < 0 && c->l.prefix) {
            static const int flip[] = {PQ_EQ, PQ_NE, PQ_GT, PQ_GE, PQ_LT, PQ_LE};
            if (!test(b, flip[c->op], a, prefix))
                return 0;
        } else if (!test(a, c->op, b, prefix)) {
            return 0;
        }
    }
    return 1;
}

static void key_append(ctx *x, val v)
{
    char nb[PB_NUM_BUF];
    char ub[24];
    if (v.is_int)
        snprintf(ub, sizeof ub, "%" PRIu64, v.u); /* exact: ids past 2^53 stay apart */
    const char *s = v.is_int ? ub
                             : v.is_num ? (isnan(v.num) ? "" : pb_num_format(v.num, nb)) : v.str;
    if (x->kb.len && pb_strbuf_putc(&x->kb, '\x1f') != PB_OK)
        x->oom = 1;
    if (pb_strbuf_puts(&x->kb, s) != PB_OK)
        x->oom = 1;
}

static void emit(ctx *x)
{
    const pq_query *q = x->q;
    if (!where_ok(x))
        return;
    x->tuples++;
    pb_strbuf_reset(&x->kb);
    for (int g = 0; g < q->ngroups; g++)
        key_append(x, ev_value(x, x->bind[q->gvar[g]], q->gfield[g]));
    uint32_t gi;
    const char *k = x->kb.len ? pb_strbuf_str(&x->kb) : "";
    if (x->oom || pb_strtab_intern(x->keys, k, strlen(k), &gi) != PB_OK) {
        x->oom = 1;
        return;
    }
    size_t ns = q->nsels ? q->nsels : 1;
    if (gi >= x->acc_cap) {
        size_t nc = x->acc_cap ? x->acc_cap * 2 : 64;
        double *na = realloc(x->acc, nc * ns * 4 * sizeof *na);
        if (!na) {
            x->oom = 1;
            return;
        }
        for (size_t i = x->acc_cap * ns * 4; i < nc * ns * 4; i += 4) {
            na[i] = 0;
            na[i + 1] = 0;
            na[i + 2] = INFINITY;
            na[i + 3] = -INFINITY;
        }
        x->acc = na;
        x->acc_cap = nc;
    }
    for (size_t s = 0; s < q->nsels; s++) {
        const pq_sel *sel = &q->sels[s];
        if (!sel->agg)
            continue;
        double *a = &x->acc[(gi * ns + s) * 4];
        if (sel->agg == PQ_COUNT) {
            a[0] += 1;
            continue;
        }
        val v = ev_value(x, x->bind[sel->var], sel->field);
        if (!v.is_num || isnan(v.num))
            continue;
        a[0] += 1;
        a[1] += v.num;
        if (v.num < a[2])
            a[2] = v.num;
        if (v.num > a[3])
            a[3] = v.num;
    }
    if (q->implicit_count)
        x->acc[gi * ns * 4] += 1;
}

static int push_cand(ctx *x, int depth, size_t *n, size_t e)
{
    if (*n >= x->ncand_cap[depth]) {
        size_t nc = x->ncand_cap[depth] ? x->ncand_cap[depth] * 2 : 64;
        size_t *na = realloc(x->cand[depth], nc * sizeof *na);
        if (!na)
            return 0;
        x->cand[depth] = na;
        x->ncand_cap[depth] = nc;
    }
    x->cand[depth][(*n)++] = e;
    return 1;
}

/* Every event that happened before event e, in happened-before order
 * (earliest first), into x->cand[depth]; returns the count. */
static size_t before(ctx *x, int depth, size_t e)
{
    size_t n = 0;
    size_t i = e / 2;
    if (x->c->parent) {
        /* chain of ancestors, nearest first, then reversed */
        for (int64_t a = x->c->parent[i]; a >= 0; a = x->c->parent[a]) {
            if (!push_cand(x, depth, &n, 2 * (size_t)a + 1) ||
                !push_cand(x, depth, &n, 2 * (size_t)a)) {
                x->oom = 1;
                return 0;
            }
        }
        for (size_t l = 0, r = n ? n - 1 : 0; n && l < r; l++, r--) {
            size_t tmp = x->cand[depth][l];
            x->cand[depth][l] = x->cand[depth][r];
            x->cand[depth][r] = tmp;
        }
        if (e % 2 && !push_cand(x, depth, &n, e - 1))
            x->oom = 1;
        return n;
    }
    size_t pos = x->ev_pos[e];
    if (pos == SIZE_MAX)
        return 0;
    uint64_t req = x->c->request[i];
    pb_ns te = ev_time_ns(x->t, e);
    size_t lo = pos;
    while (lo > 0 && x->c->request[x->ev_sorted[lo - 1] / 2] == req)
        lo--;
    int own = 0;
    for (size_t p = lo; p < pos; p++) {
        size_t f = x->ev_sorted[p];
        if (ev_time_ns(x->t, f) >= te)
            break;
        if (e % 2 && f == e - 1)
            own = 1;
        if (!push_cand(x, depth, &n, f)) {
            x->oom = 1;
            return 0;
        }
    }
    if (e % 2 && !own && !push_cand(x, depth, &n, e - 1))
        x->oom = 1;
    return n;
}

static void join(ctx *x, int v)
{
    const pq_query *q = x->q;
    if (x->oom || x->over)
        return;
    if (++x->steps > x->max_steps) {
        x->over = 1;
        return;
    }
    if (v == q->nvars) {
        emit(x);
        return;
    }
    const pq_var *var = &q->vars[v];
    size_t n = before(x, v, x->bind[var->before]);
    x->steps += n;
    if (x->steps > x->max_steps) {
        x->over = 1;
        return;
    }
    /* keep the candidates that match the sources, in order */
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (source_match(x, var, x->cand[v][i]))
            x->cand[v][k++] = x->cand[v][i];
    size_t from = 0, to = k;
    switch (var->temporal) {
    case PQ_FIRST: to = k ? 1 : 0; break;
    case PQ_MOSTRECENT: from = k ? k - 1 : 0; break;
    case PQ_FIRSTN: to = k < (size_t)var->n ? k : (size_t)var->n; break;
    case PQ_MOSTRECENTN: from = k > (size_t)var->n ? k - (size_t)var->n : 0; break;
    default: break;
    }
    for (size_t i = from; i < to && !x->oom && !x->over; i++) {
        x->bind[v] = x->cand[v][i];
        join(x, v + 1);
    }
}

static const ctx *g_sort_ctx; /* qsort comparator only (single-threaded) */

static int cmp_ev(const void *a, const void *b)
{
    size_t ea = *(const size_t *)a, eb = *(const size_t *)b;
    const ctx *x = g_sort_ctx;
    uint64_t ra = x->c->request[ea / 2], rb = x->c->request[eb / 2];
    if (ra != rb)
        return ra < rb ? -1 : 1;
    pb_ns ta = ev_time_ns(x->t, ea), tb = ev_time_ns(x->t, eb);
    if (ta != tb)
        return ta < tb ? -1 : 1;
    return ea < eb ? -1 : ea > eb;
}

typedef struct cid { uint64_t callid; size_t i; } cid;

static int cmp_cid(const void *a, const void *b)
{
    const cid *x = a, *y = b;
    if (x->callid != y->callid)
        return x->callid < y->callid ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* a call's latency: its return's receipt minus its send (caller's clock) */
static int latencies(ctx *x)
{
    const pb_trace *t = x->t;
    x->latency = malloc((t->n ? t->n : 1) * sizeof *x->latency);
    if (!x->latency)
        return PB_ENOMEM;
    for (size_t i = 0; i < t->n; i++)
        x->latency[i] = NAN;
    size_t nc = 0;
    for (size_t i = 0; i < t->n; i++)
        nc += t->msgs[i].callid != PB_ID_NONE;
    if (!nc)
        return PB_OK;
    cid *cs = malloc(nc * sizeof *cs);
    if (!cs)
        return PB_ENOMEM;
    nc = 0;
    for (size_t i = 0; i < t->n; i++)
        if (t->msgs[i].callid != PB_ID_NONE)
            cs[nc++] = (cid){t->msgs[i].callid, i};
    pb_sort(cs, nc, sizeof *cs, cmp_cid);
    for (size_t a = 0; a < nc;) {
        size_t b = a;
        while (b < nc && cs[b].callid == cs[a].callid)
            b++;
        /* pair each call with the next return in the other direction */
        for (size_t k = a; k < b; k++) {
            const pb_msg *c = &t->msgs[cs[k].i];
            if (c->type != PB_TYPE_CALL)
                continue;
            for (size_t r = k + 1; r < b; r++) {
                const pb_msg *ret = &t->msgs[cs[r].i];
                if (ret->type == PB_TYPE_RETURN && ret->src == c->dst &&
                    ret->dst == c->src) {
                    pb_ns back = ret->recv_ts != PB_TS_NONE ? ret->recv_ts : ret->ts;
                    double l = pb_ns_to_sec(back - c->ts);
                    x->latency[cs[k].i] = l;
                    x->latency[cs[r].i] = l;
                    break;
                }
            }
        }
        a = b;
    }
    free(cs);
    return PB_OK;
}

/* parent links must be a forest: find a cycle in O(n) */
static int check_forest(const pb_trace *t, const pq_causal *c, pb_error *err)
{
    const int64_t *parent = c->parent;
    unsigned char *st = calloc(t->n ? t->n : 1, 1); /* 0 new, 1 on path, 2 done */
    if (!st)
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    int rc = PB_OK;
    for (size_t i = 0; i < t->n && rc == PB_OK; i++) {
        int64_t a = (int64_t)i;
        while (a >= 0 && st[a] == 0) {
            st[a] = 1;
            if (parent[a] >= (int64_t)t->n) {
                rc = pb_error_set(err, PB_EINVAL, c->file, c->line ? c->line[a] : 0, 0,
                                  "message %llu: parent index out of range",
                                  (unsigned long long)t->msgs[a].id);
                break;
            }
            a = parent[a];
        }
        if (rc == PB_OK && a >= 0 && st[a] == 1)
            rc = pb_error_set(err, PB_EINVAL, c->file, c->line ? c->line[a] : 0, 0,
                              "parent links form a cycle through message %llu; "
                              "expected each message's parent to precede it",
                              (unsigned long long)t->msgs[a].id);
        for (int64_t b = (int64_t)i; b >= 0 && st[b] == 1; b = parent[b])
            st[b] = 2;
    }
    free(st);
    return rc;
}

void pq_answer_close(pq_answer *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < a->ngroups * a->nkeys; i++)
        free(a->keys[i]);
    free(a->keys);
    free(a->vals);
    for (size_t i = 0; i < a->nkeys + a->nvals; i++)
        free(a->colnames[i]);
    free(a->colnames);
    free(a);
}

static const char *agg_name(int agg)
{
    switch (agg) {
    case PQ_COUNT: return "COUNT";
    case PQ_SUM: return "SUM";
    case PQ_AVG: return "AVERAGE";
    case PQ_MIN: return "MIN";
    default: return "MAX";
    }
}

static const pb_strtab *g_keys; /* qsort comparator only */

static int cmp_key(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return strcmp(pb_strtab_str(g_keys, x), pb_strtab_str(g_keys, y));
}

static int build_answer(ctx *x, pq_answer **out)
{
    const pq_query *q = x->q;
    pq_answer *a = calloc(1, sizeof *a);
    if (!a)
        return PB_ENOMEM;
    uint32_t ng = pb_strtab_count(x->keys);
    size_t ns = q->nsels ? q->nsels : 1;
    a->nkeys = (size_t)q->ngroups;
    a->nvals = 0;
    for (size_t s = 0; s < q->nsels; s++)
        a->nvals += q->sels[s].agg != PQ_NONE;
    if (q->implicit_count)
        a->nvals = 1;
    a->ngroups = ng;
    a->tuples = x->tuples;
    a->colnames = calloc(a->nkeys + a->nvals, sizeof *a->colnames);
    a->keys = calloc(ng * a->nkeys + 1, sizeof *a->keys);
    a->vals = calloc(ng * a->nvals + 1, sizeof *a->vals);
    uint32_t *order = malloc((ng + 1) * sizeof *order);
    if (!a->colnames || !a->keys || !a->vals || !order) {
        free(order);
        pq_answer_close(a);
        return PB_ENOMEM;
    }
    for (int g = 0; g < q->ngroups; g++) {
        pb_strbuf b = {0};
        pb_strbuf_printf(&b, "%s.%s", q->vars[q->gvar[g]].name,
                         pq_field_names[q->gfield[g]]);
        a->colnames[g] = pb_strbuf_take(&b);
    }
    size_t vc = a->nkeys;
    if (q->implicit_count) {
        a->colnames[vc++] = strdup("COUNT");
    } else {
        for (size_t s = 0; s < q->nsels; s++) {
            const pq_sel *sel = &q->sels[s];
            if (!sel->agg)
                continue;
            pb_strbuf b = {0};
            if (sel->agg == PQ_COUNT)
                pb_strbuf_puts(&b, "COUNT");
            else
                pb_strbuf_printf(&b, "%s(%s.%s)", agg_name(sel->agg),
                                 q->vars[sel->var].name, pq_field_names[sel->field]);
            a->colnames[vc++] = pb_strbuf_take(&b);
        }
    }
    for (size_t i = 0; i < a->nkeys + a->nvals; i++)
        if (!a->colnames[i]) {
            free(order);
            pq_answer_close(a);
            return PB_ENOMEM;
        }
    for (uint32_t g = 0; g < ng; g++)
        order[g] = g;
    g_keys = x->keys;
    pb_sort(order, ng, sizeof *order, cmp_key);
    for (uint32_t r = 0; r < ng; r++) {
        uint32_t g = order[r];
        /* split the key at \x1f */
        const char *k = pb_strtab_str(x->keys, g);
        for (size_t j = 0; j < a->nkeys; j++) {
            const char *e = strchr(k, '\x1f');
            size_t l = e ? (size_t)(e - k) : strlen(k);
            char *d = malloc(l + 1);
            if (!d) {
                free(order);
                pq_answer_close(a);
                return PB_ENOMEM;
            }
            memcpy(d, k, l);
            d[l] = 0;
            a->keys[r * a->nkeys + j] = d;
            k = e ? e + 1 : k + l;
        }
        size_t c = 0;
        for (size_t s = 0; s < ns; s++) {
            const double *acc = &x->acc[(g * ns + s) * 4];
            int agg = q->implicit_count ? (s == 0 ? PQ_COUNT : PQ_NONE)
                                        : q->sels[s].agg;
            if (agg == PQ_NONE)
                continue;
            double v;
            switch (agg) {
            case PQ_COUNT: v = acc[0]; break;
            case PQ_SUM: v = acc[1]; break;
            case PQ_AVG: v = acc[0] ? acc[1] / acc[0] : NAN; break;
            case PQ_MIN: v = acc[0] ? acc[2] : NAN; break;
            default: v = acc[0] ? acc[3] : NAN; break;
            }
            if (c < a->nvals)
                a->vals[r * a->nvals + c++] = v;
        }
    }
    free(order);
    *out = a;
    return PB_OK;
}

int pq_eval(const pq_query *q, const pb_trace *t, const pq_causal *c,
            pq_answer **out, pb_error *err)
{
    return pq_eval_max(q, t, c, PQ_MAX_STEPS, out, err);
}

int pq_eval_max(const pq_query *q, const pb_trace *t, const pq_causal *c,
                uint64_t max_steps, pq_answer **out, pb_error *err)
{
    *out = NULL;
    ctx x;
    memset(&x, 0, sizeof x);
    x.max_steps = max_steps;
    x.q = q;
    x.t = t;
    x.c = c;
    int rc = PB_OK;
    if (c->parent && (rc = check_forest(t, c, err)) != PB_OK)
        return rc;
    if ((rc = latencies(&x)) != PB_OK || (rc = pb_strtab_init(&x.keys)) != PB_OK)
        goto done;
    if (!c->parent) {
        x.ev_sorted = malloc((2 * t->n + 1) * sizeof *x.ev_sorted);
        x.ev_pos = malloc((2 * t->n + 1) * sizeof *x.ev_pos);
        if (!x.ev_sorted || !x.ev_pos) {
            rc = PB_ENOMEM;
            goto done;
        }
        for (size_t e = 0; e < 2 * t->n; e++) {
            x.ev_pos[e] = SIZE_MAX;
            if (c->request[e / 2] != PB_ID_NONE)
                x.ev_sorted[x.nsorted++] = e;
        }
        g_sort_ctx = &x;
        pb_sort(x.ev_sorted, x.nsorted, sizeof *x.ev_sorted, cmp_ev);
        for (size_t p = 0; p < x.nsorted; p++)
            x.ev_pos[x.ev_sorted[p]] = p;
    }
    for (size_t e = 0; e < 2 * t->n && !x.oom && !x.over; e++) {
        if (!source_match(&x, &q->vars[0], e))
            continue;
        x.bind[0] = e;
        join(&x, 1);
    }
    if (x.oom)
        rc = PB_ENOMEM;
    else if (x.over)
        rc = pb_error_set(err, PB_ERANGE, NULL, 0, 0,
                          "the query%s%s looks at more than %llu events in its "
                          "joins on this trace (%zu messages) and was stopped; "
                          "expected a query whose joins stay smaller: a "
                          "temporal filter (First, MostRecent, FirstN, "
                          "MostRecentN) bounds a Join",
                          *pq_name(q) ? " " : "", pq_name(q),
                          (unsigned long long)max_steps, t->n);
    if (rc == PB_OK)
        rc = build_answer(&x, out);
done:
    if (rc == PB_ENOMEM)
        pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    free(x.latency);
    free(x.ev_sorted);
    free(x.ev_pos);
    for (int v = 0; v < PQ_MAXVARS; v++)
        free(x.cand[v]);
    pb_strtab_close(x.keys);
    free(x.acc);
    pb_strbuf_free(&x.kb);
    return rc;
}

/* ---------------------------------------------------------------- */
/* comparing answers */

static int key_cmp(const pq_answer *a, size_t i, const pq_answer *b, size_t j)
{
    for (size_t k = 0; k < a->nkeys; k++) {
        int c = strcmp(a->keys[i * a->nkeys + k], b->keys[j * b->nkeys + k]);
        if (c)
            return c;
    }
    return 0;
}

static double val0(const pq_answer *a, size_t g)
{
    if (!a->nvals)
        return 0;
    double v = a->vals[g * a->nvals];
    return isnan(v) ? 0 : v;
}

static size_t top_group(const pq_answer *a)
{
    size_t best = SIZE_MAX;
    for (size_t g = 0; g < a->ngroups; g++)
        if (best == SIZE_MAX || val0(a, g) > val0(a, best))
            best = g; /* groups are sorted: ties keep the smallest key */
    return best;
}

void pq_compare(const pq_answer *a, const pq_answer *b, pq_diff *out)
{
    double sa = 0, sb = 0;
    for (size_t g = 0; g < a->ngroups; g++)
        sa += fabs(val0(a, g));
    for (size_t g = 0; g < b->ngroups; g++)
        sb += fabs(val0(b, g));
    double tv = 0, max_rel = 0;
    size_t i = 0, j = 0;
    /* both are sorted by key: merge */
    while (i < a->ngroups || j < b->ngroups) {
        int c = i == a->ngroups ? 1 : j == b->ngroups ? -1 : key_cmp(a, i, b, j);
        double va = c <= 0 ? val0(a, i) : 0, vb = c >= 0 ? val0(b, j) : 0;
        double pa = sa > 0 ? fabs(va) / sa : 0, pb = sb > 0 ? fabs(vb) / sb : 0;
        tv += fabs(pa - pb);
        double rel = va != 0 ? fabs(vb - va) / fabs(va) : (vb != 0 ? INFINITY : 0);
        if (rel > max_rel)
            max_rel = rel;
        if (c <= 0)
            i++;
        if (c >= 0)
            j++;
    }
    out->tv = 0.5 * tv;
    out->max_rel = max_rel;
    out->top_a = top_group(a);
    out->top_b = top_group(b);
    out->top_same = (out->top_a == SIZE_MAX && out->top_b == SIZE_MAX) ||
                    (out->top_a != SIZE_MAX && out->top_b != SIZE_MAX &&
                     !key_cmp(a, out->top_a, b, out->top_b));
}

int pq_answer_print_pair(FILE *fp, const pq_answer *a, const pq_answer *b)
{
    for (size_t k = 0; k < a->nkeys; k++)
        fprintf(fp, "%-16s ", a->colnames[k]);
    const char *vn = a->nvals ? a->colnames[a->nkeys] : "value";
    fprintf(fp, "%14s %14s  (%s)\n", "truth", "result", vn);
    size_t i = 0, j = 0;
    char n1[PB_NUM_BUF], n2[PB_NUM_BUF];
    while (i < a->ngroups || j < b->ngroups) {
        int c = i == a->ngroups ? 1 : j == b->ngroups ? -1 : key_cmp(a, i, b, j);
        const pq_answer *src = c <= 0 ? a : b;
        size_t g = c <= 0 ? i : j;
        for (size_t k = 0; k < a->nkeys; k++)
            fprintf(fp, "%-16s ", src->keys[g * src->nkeys + k]);
        fprintf(fp, "%14s %14s\n",
                c <= 0 && a->nvals ? pb_num_format(a->vals[i * a->nvals], n1) : "-",
                c >= 0 && b->nvals ? pb_num_format(b->vals[j * b->nvals], n2) : "-");
        if (c <= 0)
            i++;
        if (c >= 0)
            j++;
    }
    return ferror(fp) ? PB_EIO : PB_OK;
}
