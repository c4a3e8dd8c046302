#include "tv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pb_ptree.h"
#include "pb_strbuf.h"
#include "pb_mem.h"
#include "pb_sort.h"

#define NONE SIZE_MAX

typedef struct id_pair {
    uint64_t id;
    size_t idx;
} id_pair;

static int cmp_pair(const void *a, const void *b)
{
    const id_pair *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

typedef struct interval {
    pb_ns a, b;
} interval;

static int cmp_interval(const void *a, const void *b)
{
    const interval *x = a, *y = b;
    if (x->a != y->a)
        return x->a < y->a ? -1 : 1;
    return x->b < y->b ? -1 : x->b > y->b;
}

typedef struct dfs_item {
    size_t msg;
    uint32_t parent_tn;
    uint32_t depth;
} dfs_item;

typedef struct builder {
    const pb_trace *t;
    tv_truth *tv;
    pb_error *err;
    size_t n;
    id_pair *pairs;     /* sorted by id */
    size_t *pc;         /* cause index within the same path, or NONE */
    size_t *topo;       /* causes before effects */
    size_t *served;     /* call view: edge served by the sender, or NONE */
    size_t *ret;        /* call view: the return of a call, or NONE */
    size_t *ch_off, *ch;/* children (CSR): message or edge children */
    size_t *msg_inst;   /* instance of each message, or NONE */
    size_t *cparent;    /* with kept: tree parent after contraction */
    const unsigned char *kept; /* per message: survived (NULL: all did) */
    unsigned char *present;    /* with kept: the tree edge of a message
                                  has a surviving message */
    size_t *lost;       /* with kept: per instance root, messages lost */
    dfs_item *stack;
    size_t *chain;      /* path view: current root-to-node chain */
    /* per tree node of the instance being emitted */
    pb_ptree tree;
    size_t *tn_msg;
    uint32_t *order;
    double *nl, *ed;
    size_t tn_cap;
    interval *iv;
    size_t iv_cap;
    uint64_t *ids;
    size_t ids_cap;
    pb_strbuf text;
    size_t inst_cap, msg_cap, stat_cap;
} builder;

static const pb_msg *M(const builder *b, size_t i) { return &b->t->msgs[i]; }

/* message i survived (always so without a kept mask) */
#define KEPT(b, i) (!(b)->kept || (b)->kept[i])

static const char *node_name(const builder *b, uint32_t n)
{
    const char *s = pb_strtab_str(b->t->names->nodes, n);
    return s ? s : "?";
}

static int oom(builder *b)
{
    return pb_error_set(b->err, PB_ENOMEM, NULL, 0, 0, "out of memory");
}

static int find_index(const builder *b, uint64_t id, size_t *idx)
{
    size_t lo = 0, hi = b->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->pairs[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < b->n && b->pairs[lo].id == id) {
        *idx = b->pairs[lo].idx;
        return 1;
    }
    return 0;
}

/* Index messages by id, resolve causes, and order causes before effects. */
static int prepare(builder *b)
{
    const pb_trace *t = b->t;
    size_t n = b->n;
    b->pairs = malloc((n ? n : 1) * sizeof *b->pairs);
    b->pc = malloc((n ? n : 1) * sizeof *b->pc);
    b->topo = malloc((n ? n : 1) * sizeof *b->topo);
    b->msg_inst = malloc((n ? n : 1) * sizeof *b->msg_inst);
    b->stack = malloc((n ? n : 1) * sizeof *b->stack);
    unsigned char *state = calloc(n ? n : 1, 1);
    if (!b->pairs || !b->pc || !b->topo || !b->msg_inst || !b->stack || !state) {
        free(state);
        return oom(b);
    }
    for (size_t i = 0; i < n; i++) {
        b->pairs[i] = (id_pair){t->msgs[i].id, i};
        b->msg_inst[i] = NONE;
    }
    if (n)
        pb_sort(b->pairs, n, sizeof *b->pairs, cmp_pair);
    for (size_t i = 1; i < n; i++)
        if (b->pairs[i].id == b->pairs[i - 1].id) {
            free(state);
            return pb_error_set(b->err, PB_EDUP, t->source, 0, 0,
                                "duplicate message id %llu; expected unique ids",
                                (unsigned long long)b->pairs[i].id);
        }
    for (size_t i = 0; i < n; i++) {
        b->pc[i] = NONE;
        uint64_t cause = t->truth[i].cause;
        if (t->truth[i].path == PB_ID_NONE || cause == PB_ID_NONE)
            continue;
        size_t c;
        if (!find_index(b, cause, &c)) {
            free(state);
            return pb_error_set(b->err, PB_ENOENT, t->source, 0, 0,
                                "message %llu names a cause %llu that is not in "
                                "the trace", (unsigned long long)t->msgs[i].id,
                                (unsigned long long)cause);
        }
        /* a cause in another path would join two instances: ignore it */
        if (t->truth[c].path == t->truth[i].path)
            b->pc[i] = c;
    }
    size_t ntopo = 0;
    size_t *walk = malloc((n ? n : 1) * sizeof *walk);
    if (!walk) {
        free(state);
        return oom(b);
    }
    for (size_t i = 0; i < n; i++) {
        if (state[i])
            continue;
        size_t nw = 0, j = i;
        while (j != NONE && state[j] == 0) {
            state[j] = 1;
            walk[nw++] = j;
            j = b->pc[j];
        }
        if (j != NONE && state[j] == 1) {
            free(walk);
            free(state);
            return pb_error_set(b->err, PB_EPARSE, t->source, 0, 0,
                                "the causes of message %llu form a cycle; "
                                "expected each cause to be an earlier message",
                                (unsigned long long)t->msgs[j].id);
        }
        while (nw > 0) {
            size_t k = walk[--nw];
            state[k] = 2;
            b->topo[ntopo++] = k;
        }
    }
    free(walk);
    free(state);
    return PB_OK;
}

/* Children lists from a parent array; members with include[i] == 0 or
 * parent NONE are left out.  Children come in trace order. */
static int build_children(builder *b, const size_t *parent)
{
    size_t n = b->n;
    b->ch_off = calloc(n + 1, sizeof *b->ch_off);
    b->ch = malloc((n ? n : 1) * sizeof *b->ch);
    if (!b->ch_off || !b->ch)
        return oom(b);
    for (size_t i = 0; i < n; i++)
        if (parent[i] != NONE)
            b->ch_off[parent[i] + 1]++;
    for (size_t i = 0; i < n; i++)
        b->ch_off[i + 1] += b->ch_off[i];
    size_t *fill = malloc((n ? n : 1) * sizeof *fill);
    if (!fill)
        return oom(b);
    if (n)
        memcpy(fill, b->ch_off, n * sizeof *fill);
    for (size_t i = 0; i < n; i++)
        if (parent[i] != NONE)
            b->ch[fill[parent[i]]++] = i;
    free(fill);
    return PB_OK;
}

/* Call view: pair returns with calls by walking causes (see tv.h). */
static int resolve_calls(builder *b)
{
    const pb_trace *t = b->t;
    size_t n = b->n;
    b->served = malloc((n ? n : 1) * sizeof *b->served);
    b->ret = malloc((n ? n : 1) * sizeof *b->ret);
    if (!b->served || !b->ret)
        return oom(b);
    for (size_t i = 0; i < n; i++)
        b->served[i] = b->ret[i] = NONE;
    for (size_t k = 0; k < n; k++) {
        size_t i = b->topo[k];
        if (t->truth[i].path == PB_ID_NONE)
            continue;
        size_t c = b->pc[i];
        if (c == NONE)
            b->served[i] = NONE;
        else if (t->msgs[c].type == PB_TYPE_RETURN)
            /* c returned to i's sender from a child call: i's sender is
             * still serving what it served when it made that call */
            b->served[i] = b->served[b->served[c]];
        else
            b->served[i] = c;
        if (t->msgs[i].type != PB_TYPE_RETURN)
            continue;
        const pb_msg *r = &t->msgs[i];
        size_t a = b->served[i];
        if (a == NONE)
            return pb_error_set(b->err, PB_EPARSE, t->source, 0, 0,
                                "return %llu (%s>%s) answers no call: its causes "
                                "reach the start of path instance without a call "
                                "into %s", (unsigned long long)r->id,
                                node_name(b, r->src), node_name(b, r->dst),
                                node_name(b, r->src));
        const pb_msg *cm = &t->msgs[a];
        if (cm->type != PB_TYPE_CALL)
            return pb_error_set(b->err, PB_EPARSE, t->source, 0, 0,
                                "return %llu answers message %llu, which is not a "
                                "call; expected its causes to lead to a call",
                                (unsigned long long)r->id,
                                (unsigned long long)cm->id);
        if (cm->src != r->dst || cm->dst != r->src)
            return pb_error_set(b->err, PB_EPARSE, t->source, 0, 0,
                                "return %llu (%s>%s) answers call %llu (%s>%s) by "
                                "its causes; expected the reverse direction",
                                (unsigned long long)r->id, node_name(b, r->src),
                                node_name(b, r->dst), (unsigned long long)cm->id,
                                node_name(b, cm->src), node_name(b, cm->dst));
        if (cm->callid != PB_ID_NONE && r->callid != PB_ID_NONE &&
            cm->callid != r->callid)
            return pb_error_set(b->err, PB_EPARSE, t->source, 0, 0,
                                "return %llu answers call %llu by its causes but "
                                "their callids differ", (unsigned long long)r->id,
                                (unsigned long long)cm->id);
        if (b->ret[a] != NONE)
            return pb_error_set(b->err, PB_EPARSE, t->source, 0, 0,
                                "call %llu has two returns, %llu and %llu",
                                (unsigned long long)cm->id,
                                (unsigned long long)t->msgs[b->ret[a]].id,
                                (unsigned long long)r->id);
        b->ret[a] = i;
    }
    return PB_OK;
}

static int ensure_tn(builder *b, size_t n)
{
    void *const arrs[] = {&b->tn_msg, &b->order, &b->nl, &b->ed};
    const size_t sz[] = {sizeof *b->tn_msg, sizeof *b->order, sizeof *b->nl,
                         sizeof *b->ed};
    if (pb_grow_parallel(&b->tn_cap, n, 64, 4, arrs, sz) != PB_OK)
        return oom(b);
    return PB_OK;
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return PB_OK;
    size_t nc = *cap ? *cap : 256;
    while (nc < need)
        nc *= 2;
    void *q = realloc(*p, nc * elem);
    if (!q)
        return PB_ENOMEM;
    *p = q;
    *cap = nc;
    return PB_OK;
}

static int add_tn(builder *b, uint32_t parent, uint32_t name, size_t msg,
                  uint32_t *tn)
{
    if (ensure_tn(b, (size_t)b->tree.n + 1) != PB_OK)
        return PB_ENOMEM;
    if (pb_ptree_add(&b->tree, parent, name, tn) != PB_OK)
        return oom(b);
    b->tn_msg[*tn] = msg;
    return PB_OK;
}

static double sec(pb_ns d) { return pb_ns_to_sec(d); }

/* Node latency of a call-view edge e: its duration minus the union of its
 * child calls' intervals (clipped to its own). */
static double call_node_latency(builder *b, size_t e)
{
    const pb_msg *m = M(b, e);
    if (m->type != PB_TYPE_CALL || b->ret[e] == NONE)
        return NAN;
    /* with skewed clocks hi may precede lo: the (negative) value is kept,
     * as an algorithm on the same trace would see it */
    pb_ns lo = m->ts, hi = M(b, b->ret[e])->ts;
    size_t niv = 0;
    for (size_t j = b->ch_off[e]; j < b->ch_off[e + 1]; j++) {
        size_t k = b->ch[j];
        if (M(b, k)->type != PB_TYPE_CALL)
            continue; /* one-way messages take no time at the sender */
        if (b->ret[k] == NONE)
            return NAN;
        pb_ns a = M(b, k)->ts, z = M(b, b->ret[k])->ts;
        if (a < lo)
            a = lo;
        if (z > hi)
            z = hi;
        if (z > a)
            b->iv[niv++] = (interval){a, z};
    }
    if (niv)
        pb_sort(b->iv, niv, sizeof *b->iv, cmp_interval);
    pb_ns covered = 0, cur_a = 0, cur_b = 0;
    int open = 0;
    for (size_t j = 0; j < niv; j++) {
        if (open && b->iv[j].a <= cur_b) {
            if (b->iv[j].b > cur_b)
                cur_b = b->iv[j].b;
            continue;
        }
        if (open)
            covered += cur_b - cur_a;
        cur_a = b->iv[j].a;
        cur_b = b->iv[j].b;
        open = 1;
    }
    if (open)
        covered += cur_b - cur_a;
    return sec(hi - lo - covered);
}

/* Canonicalize the tree just built, fill the statistics, store the
 * instance.  root: message starting it; total: seconds; path: chain
 * length for the path view (0 otherwise). */
static int emit(builder *b, size_t root, size_t chain_len)
{
    tv_truth *tv = b->tv;
    const pb_trace *t = b->t;
    uint32_t nn = b->tree.n;
    pb_strbuf_reset(&b->text);
    int rc = pb_ptree_canonical(&b->tree, t->names->nodes, &b->text, b->order);
    if (rc != PB_OK)
        return rc == PB_ENOMEM ? oom(b)
                               : pb_error_set(b->err, rc, t->source, 0, 0,
                                              "internal: bad tree for message %llu",
                                              (unsigned long long)M(b, root)->id);
    for (uint32_t i = 0; i < nn; i++)
        b->nl[i] = b->ed[i] = NAN;
    double total = NAN;
    size_t nids = 0;
    size_t nlost = b->lost ? b->lost[root] : 0;
    if (tv->view == TV_CALL) {
        for (uint32_t i = 1; i < nn; i++) {
            size_t e = b->tn_msg[i];
            size_t p = b->tn_msg[b->tree.nodes[i].parent];
            uint32_t pos = b->order[i];
            b->nl[pos] = call_node_latency(b, e);
            if (p != NONE)
                b->ed[pos] = sec(M(b, e)->ts - M(b, p)->ts);
            if (grow((void **)&b->ids, &b->ids_cap, nids + 2, sizeof *b->ids) != PB_OK)
                return oom(b);
            if (KEPT(b, e))
                b->ids[nids++] = M(b, e)->id;
            if (b->ret[e] != NONE && KEPT(b, b->ret[e]))
                b->ids[nids++] = M(b, b->ret[e])->id;
        }
        if (M(b, root)->type == PB_TYPE_CALL && b->ret[root] != NONE)
            total = sec(M(b, b->ret[root])->ts - M(b, root)->ts);
    } else if (tv->view == TV_MESSAGE) {
        pb_ns last = M(b, root)->ts;
        for (uint32_t i = 1; i < nn; i++) {
            size_t e = b->tn_msg[i];
            const pb_msg *m = M(b, e);
            uint32_t pos = b->order[i];
            if (m->recv_ts != PB_TS_NONE) {
                b->ed[pos] = sec(m->recv_ts - m->ts);
                pb_ns latest = PB_TS_NONE;
                for (size_t j = b->ch_off[e]; j < b->ch_off[e + 1]; j++)
                    if (M(b, b->ch[j])->ts > latest)
                        latest = M(b, b->ch[j])->ts;
                if (latest != PB_TS_NONE)
                    b->nl[pos] = sec(latest - m->recv_ts);
            }
            pb_ns end = m->recv_ts != PB_TS_NONE ? m->recv_ts : m->ts;
            if (end > last)
                last = end;
            if (grow((void **)&b->ids, &b->ids_cap, nids + 1, sizeof *b->ids) != PB_OK)
                return oom(b);
            if (KEPT(b, e))
                b->ids[nids++] = m->id;
        }
        total = sec(last - M(b, root)->ts);
    } else {
        /* a chain: tree node i is entered by chain[i-1] */
        for (size_t i = 1; i < chain_len; i++)
            b->nl[i] = sec(M(b, b->chain[i])->ts - M(b, b->chain[i - 1])->ts);
        total = sec(M(b, b->chain[chain_len - 1])->ts - M(b, b->chain[0])->ts);
    }
    if (nids)
        pb_sort(b->ids, nids, sizeof *b->ids, cmp_u64);
    if (b->kept && nids == 0) {
        /* every message of the instance was lost: no survivor to find */
        tv->inst_gone++;
        return PB_OK;
    }
    if (nlost) {
        /* a damaged instance's statistics are not known */
        for (uint32_t i = 0; i < nn; i++)
            b->nl[i] = b->ed[i] = NAN;
        total = NAN;
    }

    pb_pattern *pat;
    rc = pb_pattab_add(tv->patterns, pb_strbuf_str(&b->text), nn, 1.0, total,
                       b->nl, b->ed, &pat);
    if (rc != PB_OK)
        return rc == PB_ENOMEM ? oom(b)
                               : pb_error_set(b->err, rc, NULL, 0, 0,
                                              "internal: pattern size mismatch");
    if (grow((void **)&tv->inst, &b->inst_cap, tv->ninst + 1, sizeof *tv->inst) != PB_OK ||
        grow((void **)&tv->msg_ids, &b->msg_cap, tv->nmsg_ids + nids, sizeof *tv->msg_ids) != PB_OK ||
        grow((void **)&tv->node_lat, &b->stat_cap, tv->nstat + nn, sizeof *tv->node_lat) != PB_OK)
        return oom(b);
    /* edge_delay shares node_lat's capacity */
    double *ed = realloc(tv->edge_delay, b->stat_cap * sizeof *ed);
    if (!ed)
        return oom(b);
    tv->edge_delay = ed;
    size_t ii = tv->ninst++;
    tv_instance *in = &tv->inst[ii];
    in->path = t->truth[root].path;
    in->root_id = M(b, root)->id;
    in->pattern = pat->index;
    in->nnodes = nn;
    in->msg_off = tv->nmsg_ids;
    in->nmsg = nids;
    in->stat_off = tv->nstat;
    in->total = total;
    in->nlost = nlost;
    if (nids)
        memcpy(tv->msg_ids + tv->nmsg_ids, b->ids, nids * sizeof *b->ids);
    tv->nmsg_ids += nids;
    memcpy(tv->node_lat + tv->nstat, b->nl, nn * sizeof *b->nl);
    memcpy(tv->edge_delay + tv->nstat, b->ed, nn * sizeof *b->ed);
    tv->nstat += nn;
    if (tv->view != TV_PATH)
        for (uint32_t i = 1; i < nn; i++) {
            size_t e = b->tn_msg[i];
            if (KEPT(b, e))
                b->msg_inst[e] = ii;
            if (tv->view == TV_CALL && b->ret[e] != NONE && KEPT(b, b->ret[e]))
                b->msg_inst[b->ret[e]] = ii;
        }
    return PB_OK;
}

/* Build the tree under root message/edge `root` (call and message views)
 * and emit it; in the path view, emit one chain per leaf instead. */
static int walk_instance(builder *b, size_t root)
{
    tv_view view = b->tv->view;
    int rc;
    if (view != TV_PATH) {
        pb_ptree_reset(&b->tree);
        uint32_t tn0;
        if ((rc = add_tn(b, PB_PTREE_NONE, M(b, root)->src, NONE, &tn0)) != PB_OK)
            return rc;
    }
    size_t sp = 0;
    b->stack[sp++] = (dfs_item){root, 0, 0};
    while (sp > 0) {
        dfs_item it = b->stack[--sp];
        size_t e = it.msg;
        size_t nch = b->ch_off[e + 1] - b->ch_off[e];
        uint32_t tn = 0;
        if (view == TV_PATH) {
            b->chain[it.depth] = e;
            if (nch == 0) {
                pb_ptree_reset(&b->tree);
                uint32_t prev;
                if ((rc = add_tn(b, PB_PTREE_NONE, M(b, root)->src, NONE, &prev)) != PB_OK)
                    return rc;
                for (uint32_t d = 0; d <= it.depth; d++)
                    if ((rc = add_tn(b, prev, M(b, b->chain[d])->dst, b->chain[d], &prev)) != PB_OK)
                        return rc;
                if ((rc = emit(b, root, (size_t)it.depth + 1)) != PB_OK)
                    return rc;
            }
        } else if ((rc = add_tn(b, it.parent_tn, M(b, e)->dst, e, &tn)) != PB_OK) {
            return rc;
        }
        /* reverse push keeps the children in trace order */
        for (size_t j = b->ch_off[e + 1]; j > b->ch_off[e]; j--)
            b->stack[sp++] = (dfs_item){b->ch[j - 1], tn, it.depth + 1};
    }
    if (view != TV_PATH)
        return emit(b, root, 0);
    return PB_OK;
}

/* Survivors' truth (tv_build_kept): a tree edge (call view: a call with
 * its return; message view: a message) is present when one of its
 * messages survived.  An edge with no survivor is contracted: its present
 * descendants hang under its nearest present ancestor (an instance's root
 * edge is always kept as the root, so an instance stays one tree).  Also
 * counts, per instance root, the messages lost. */
static int contract(builder *b, const size_t *parent)
{
    const pb_trace *t = b->t;
    size_t n = b->n;
    int call = b->tv->view == TV_CALL;
    b->present = calloc(n ? n : 1, 1);
    b->lost = calloc(n ? n : 1, sizeof *b->lost);
    b->cparent = malloc((n ? n : 1) * sizeof *b->cparent);
    size_t *cp = malloc((n ? n : 1) * sizeof *cp);
    size_t *root = malloc((n ? n : 1) * sizeof *root);
    if (!b->present || !b->lost || !b->cparent || !cp || !root) {
        free(cp);
        free(root);
        return oom(b);
    }
    for (size_t i = 0; i < n; i++) {
        b->present[i] = b->kept[i];
        if (call && t->msgs[i].type != PB_TYPE_RETURN && b->ret[i] != NONE &&
            b->kept[b->ret[i]])
            b->present[i] = 1;
    }
    /* causes before effects, and a tree parent is always a cause ancestor */
    for (size_t k = 0; k < n; k++) {
        size_t i = b->topo[k];
        size_t p = parent[i];
        root[i] = p == NONE ? i : root[p];
        if (p == NONE)
            cp[i] = NONE;
        else if (b->present[p] || parent[p] == NONE)
            cp[i] = p;
        else
            cp[i] = cp[p];
        b->cparent[i] = b->present[i] ? cp[i] : NONE;
    }
    for (size_t i = 0; i < n; i++) {
        if (t->truth[i].path == PB_ID_NONE || (call && t->msgs[i].type == PB_TYPE_RETURN))
            continue;
        /* a return is counted with its call (returns have no tree parent) */
        b->lost[root[i]] += !b->kept[i];
        b->tv->msg_lost += !b->kept[i];
        if (call && b->ret[i] != NONE) {
            b->lost[root[i]] += !b->kept[b->ret[i]];
            b->tv->msg_lost += !b->kept[b->ret[i]];
        }
    }
    free(cp);
    free(root);
    return PB_OK;
}

static int build(builder *b)
{
    const pb_trace *t = b->t;
    size_t n = b->n;
    int rc = prepare(b);
    if (rc != PB_OK)
        return rc;
    size_t *parent = b->pc;
    if (b->tv->view == TV_CALL) {
        if ((rc = resolve_calls(b)) != PB_OK)
            return rc;
        /* returns are folded into their calls' edges */
        for (size_t i = 0; i < n; i++)
            if (t->msgs[i].type == PB_TYPE_RETURN)
                b->served[i] = NONE;
        parent = b->served;
    }
    if (b->kept && (rc = contract(b, parent)) != PB_OK)
        return rc;
    if ((rc = build_children(b, b->kept ? b->cparent : parent)) != PB_OK)
        return rc;
    if (b->tv->view == TV_CALL) {
        /* room for the child intervals of the busiest call, up front */
        size_t maxch = 1;
        for (size_t i = 0; i < n; i++)
            if (b->ch_off[i + 1] - b->ch_off[i] > maxch)
                maxch = b->ch_off[i + 1] - b->ch_off[i];
        if (grow((void **)&b->iv, &b->iv_cap, maxch, sizeof *b->iv) != PB_OK)
            return oom(b);
    }
    if (b->tv->view == TV_PATH) {
        b->chain = malloc((n ? n : 1) * sizeof *b->chain);
        if (!b->chain)
            return oom(b);
    }
    for (size_t i = 0; i < n; i++) {
        if (t->truth[i].path == PB_ID_NONE)
            continue;
        int is_root;
        if (b->tv->view == TV_CALL)
            /* a top-level call made after an earlier one returned has a
             * cause but serves nothing: it starts an instance of its own */
            is_root = t->msgs[i].type != PB_TYPE_RETURN && b->served[i] == NONE;
        else
            is_root = b->pc[i] == NONE;
        if (is_root && (rc = walk_instance(b, i)) != PB_OK)
            return rc;
    }
    return PB_OK;
}

static void builder_free(builder *b)
{
    free(b->pairs);
    free(b->pc);
    free(b->topo);
    free(b->served);
    free(b->ret);
    free(b->ch_off);
    free(b->ch);
    free(b->msg_inst);
    free(b->present);
    free(b->lost);
    free(b->cparent);
    free(b->stack);
    free(b->chain);
    pb_ptree_free(&b->tree);
    free(b->tn_msg);
    free(b->order);
    free(b->nl);
    free(b->ed);
    free(b->iv);
    free(b->ids);
    pb_strbuf_free(&b->text);
}

int tv_build(const pb_trace *t, tv_view view, tv_truth **out, pb_error *err)
{
    return tv_build_kept(t, view, NULL, out, err);
}

int tv_build_kept(const pb_trace *t, tv_view view, const unsigned char *kept,
                  tv_truth **out, pb_error *err)
{
    *out = NULL;
    if (!t->truth)
        return pb_error_set(err, PB_EINVAL, t->source, 0, 0,
                            "the trace has no truth columns; expected a trace "
                            "with path and cause (an unperturbed maketrace "
                            "trace)");
    if (view != TV_CALL && view != TV_MESSAGE && view != TV_PATH)
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0, "unknown view %d", (int)view);
    if (kept && view == TV_PATH)
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "the path view has no survivors' truth; expected "
                            "the call or the message view");
    tv_truth *tv = calloc(1, sizeof *tv);
    if (!tv)
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    tv->view = view;
    tv->has_kept = kept != NULL;
    builder b;
    memset(&b, 0, sizeof b);
    b.kept = kept;
    b.t = t;
    b.tv = tv;
    b.err = err;
    b.n = t->n;
    int rc = pb_pattab_init(&tv->patterns);
    if (rc != PB_OK)
        rc = oom(&b);
    if (rc == PB_OK)
        rc = build(&b);
    if (rc == PB_OK) {
        tv->nlk = t->n;
        tv->lk_id = malloc((t->n ? t->n : 1) * sizeof *tv->lk_id);
        tv->lk_inst = malloc((t->n ? t->n : 1) * sizeof *tv->lk_inst);
        if (!tv->lk_id || !tv->lk_inst) {
            rc = oom(&b);
        } else {
            for (size_t i = 0; i < t->n; i++) {
                tv->lk_id[i] = b.pairs[i].id;
                tv->lk_inst[i] = b.msg_inst[b.pairs[i].idx];
            }
        }
    }
    builder_free(&b);
    if (rc != PB_OK) {
        tv_close(tv);
        return rc;
    }
    *out = tv;
    return PB_OK;
}

void tv_close(tv_truth *tv)
{
    if (!tv)
        return;
    free(tv->inst);
    free(tv->msg_ids);
    free(tv->node_lat);
    free(tv->edge_delay);
    pb_pattab_close(tv->patterns);
    free(tv->lk_id);
    free(tv->lk_inst);
    free(tv);
}

int tv_lookup(const tv_truth *tv, uint64_t id, size_t *inst)
{
    size_t lo = 0, hi = tv->nlk;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (tv->lk_id[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < tv->nlk && tv->lk_id[lo] == id) {
        if (inst)
            *inst = tv->lk_inst[lo];
        return 1;
    }
    return 0;
}

const char *tv_view_name(tv_view v)
{
    switch (v) {
    case TV_CALL: return "call";
    case TV_MESSAGE: return "message";
    case TV_PATH: return "path";
    }
    return "?";
}

int tv_view_parse(const char *s, tv_view *out)
{
    static const char *const names[] = {"call", "message", "path"};
    for (int i = 0; i < 3; i++)
        if (s && !strcmp(s, names[i])) {
            *out = (tv_view)i;
            return PB_OK;
        }
    return PB_EINVAL;
}

tv_view tv_default_view(const pb_trace *t)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->msgs[i].type == PB_TYPE_CALL || t->msgs[i].type == PB_TYPE_RETURN)
            return TV_CALL;
    return TV_MESSAGE;
}
