/*
 * mt_gen.c - the maketrace generator: instances of tracelets, each looping
 * think -> path -> think, merged by a heap into one timestamp-ordered
 * stream.
 *
 * Each instance materializes only its current path (all delays drawn when
 * the path starts), so memory is O(instances x path length) whatever the
 * trace length.  A path's next instance starts after the previous one has
 * completely ended, so every message an instance will ever produce is later
 * than the ones it holds, and the heap merge emits in timestamp order.
 */
#include "mt_internal.h"
#include "mt_label.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct gmsg {
    pb_ns ts, recv;
    uint64_t gid;        /* output id, once written */
    uint64_t callid;     /* CALL: its callid, once written */
    uint32_t src, dst;   /* pb node indices */
    int32_t cause;       /* index in the path buffer, or -1 */
    int32_t pair;        /* RETURN: index of its call */
    uint32_t label;      /* path label (interleave), else 0 */
    uint8_t type;
} gmsg;

typedef struct inst {
    uint32_t home;       /* dedicated tracelet, or UINT32_MAX for the pool */
    uint32_t tr;         /* tracelet of the current path */
    gmsg *buf;
    uint32_t *order;     /* buf indices sorted by (ts, index) */
    uint32_t n, cap, next;
    uint64_t *pathid;    /* per label: output path id, 0 until first written */
    uint32_t nlabels, labcap;
    pb_ns end;           /* when the current path ends */
} inst;

/* A heap entry caches its instance's next timestamp: comparing through the
 * instance's buffers costs cache misses with many instances. */
typedef struct hent {
    pb_ns key;
    uint32_t idx;
} hent;

struct mt_gen {
    const mt_config *cfg;
    gsl_rng *rng;
    uint32_t *nodemap;   /* config node -> pb node */
    inst *in;
    size_t nin;
    hent *heap;
    size_t nheap;
    uint64_t next_id, next_callid, next_path;
    uint64_t committed;
    int stop_new;
    mt_tracelet_stats *stats;
    uint32_t *pool;      /* tracelet indices of the shared pool */
    double *pool_cum;
    uint32_t npool;
    uint32_t *open;      /* per pb node: calls into it not yet returned */
    uint32_t nopen;
    double par_sum;      /* sum over nested calls of open[caller] */
    uint64_t par_n;
    int32_t *lastrecv;   /* interleave scratch: [label][node] -> buf index */
    size_t lastrecv_n;
    int oom;
    mt_sim *sim;         /* the event-ordered engine, for workers and joins */
    pb_names *names;     /* borrowed: for label lines */
    gsl_rng *label_rng;  /* sizes of label lines: a stream of their own */
    mt_acct acct;        /* its counts */
};

typedef struct state {
    pb_ns t;        /* the current node's clock in this thread of the path */
    int32_t cause;  /* last message it received, or -1 */
    pb_ns crt;      /* when that message was received */
} state;

/* Times saturate here instead of overflowing: absurd configs (huge waits in
 * long paths) then give paths past any duration limit, never UB. */
#define MT_TIME_MAX (INT64_MAX / 4)

static pb_ns tadd(pb_ns a, pb_ns b)
{
    return a > MT_TIME_MAX - b ? MT_TIME_MAX : a + b;
}

pb_ns mt_tadd(pb_ns a, pb_ns b) { return tadd(a, b); }

pb_ns mt_sample(gsl_rng *rng, const mt_delay *d)
{
    if (d->sd == 0)
        return d->mean;
    double x = (double)d->mean + gsl_ran_gaussian_ziggurat(rng, (double)d->sd);
    return x <= 0 ? 0 : x >= (double)MT_TIME_MAX ? MT_TIME_MAX : (pb_ns)llround(x);
}

pb_ns mt_net(gsl_rng *rng, const mt_settings *s)
{
    if (s->net_sd == 0)
        return s->net_delay;
    double x = (double)s->net_delay + gsl_ran_gaussian_ziggurat(rng, (double)s->net_sd);
    return x <= 0 ? 0 : x >= (double)MT_TIME_MAX ? MT_TIME_MAX : (pb_ns)llround(x);
}

uint32_t mt_pick_index(gsl_rng *rng, const double *cum, uint32_t n)
{
    if (n == 1)
        return 0;
    double u = gsl_rng_uniform(rng) * cum[n - 1];
    uint32_t i = 0;
    while (i + 1 < n && !(u < cum[i]))
        i++;
    return i;
}

static pb_ns sample(mt_gen *g, const mt_delay *d) { return mt_sample(g->rng, d); }
static pb_ns net(mt_gen *g) { return mt_net(g->rng, &g->cfg->s); }
static uint32_t pick_index(mt_gen *g, const double *cum, uint32_t n)
{
    return mt_pick_index(g->rng, cum, n);
}

static uint32_t pick(mt_gen *g, const mt_nodes *nd)
{
    return nd->node[pick_index(g, nd->cum, nd->n)];
}

static int32_t emit(mt_gen *g, inst *in, pb_ns ts, uint32_t src, uint32_t dst,
                    int type, uint32_t label, int32_t cause, int32_t pair)
{
    if (in->n == in->cap) {
        uint32_t cap = in->cap ? 2 * in->cap : 16;
        gmsg *nb = realloc(in->buf, cap * sizeof *nb);
        if (!nb) {
            g->oom = 1;
            return -1;
        }
        in->buf = nb;
        uint32_t *no = realloc(in->order, cap * sizeof *no);
        if (!no) {
            g->oom = 1;
            return -1;
        }
        in->order = no;
        in->cap = cap;
    }
    gmsg *m = &in->buf[in->n];
    m->ts = ts;
    m->recv = tadd(ts, net(g));
    m->src = g->nodemap[src];
    m->dst = g->nodemap[dst];
    m->type = (uint8_t)type;
    m->label = label;
    m->cause = cause;
    m->pair = pair;
    m->gid = 0;
    m->callid = 0;
    return (int32_t)in->n++;
}

static void run(mt_gen *g, inst *in, const mt_op *op, uint32_t node, state *s)
{
    if (g->oom)
        return;
    switch (op->kind) {
    case MT_OP_CALL: {
        uint32_t dst = pick(g, &op->to);
        pb_ns ts = tadd(s->t, sample(g, &op->d));
        int32_t m = emit(g, in, ts, node, dst, PB_TYPE_CALL, 0, s->cause, -1);
        if (m < 0)
            return;
        state c = {in->buf[m].recv, m, in->buf[m].recv};
        for (uint32_t i = 0; i < op->nkids; i++)
            run(g, in, op->kids[i], dst, &c);
        pb_ns rts = tadd(c.t, sample(g, &op->r));
        int32_t r = emit(g, in, rts, dst, node, PB_TYPE_RETURN, 0, c.cause, m);
        if (r < 0)
            return;
        if (op->async) {
            /* fire and forget: the caller went on at the send, its cause
             * unchanged; the return arrives whenever it does */
            s->t = ts;
            return;
        }
        s->t = s->crt = in->buf[r].recv;
        s->cause = r;
        return;
    }
    case MT_OP_SEND: {
        uint32_t dst = pick(g, &op->to);
        pb_ns ts = tadd(s->t, sample(g, &op->d));
        int32_t m = emit(g, in, ts, node, dst, PB_TYPE_MSG, 0, s->cause, -1);
        if (m < 0)
            return;
        state c = {in->buf[m].recv, m, in->buf[m].recv};
        for (uint32_t i = 0; i < op->nkids; i++)
            run(g, in, op->kids[i], dst, &c);
        /* one-way: the sender goes on at once, its cause unchanged */
        s->t = ts;
        return;
    }
    case MT_OP_SEQ:
        for (uint32_t i = 0; i < op->nkids; i++)
            run(g, in, op->kids[i], node, s);
        return;
    case MT_OP_PAR: {
        /* Branches start together; the join waits for all of them and is
         * caused by the latest message received among them. */
        state start = *s, best = *s;
        pb_ns maxt = s->t;
        int changed = 0;
        for (uint32_t i = 0; i < op->nkids; i++) {
            state b = start;
            run(g, in, op->kids[i], node, &b);
            if (b.t > maxt)
                maxt = b.t;
            if (b.cause != start.cause && (!changed || b.crt >= best.crt)) {
                best = b;
                changed = 1;
            }
        }
        s->t = maxt;
        s->cause = best.cause;
        s->crt = best.crt;
        return;
    }
    case MT_OP_CHOOSE:
        run(g, in, op->kids[pick_index(g, op->kcum, op->nkids)], node, s);
        return;
    case MT_OP_WAIT:
        if (op->wait_node < 0 || (uint32_t)op->wait_node == node)
            s->t = tadd(s->t, op->wait);
        return;
    }
}

static void run_interleave(mt_gen *g, inst *in, const mt_tracelet *tr, pb_ns t)
{
    int32_t *last = g->lastrecv;
    for (size_t i = 0; i < tr->nslots; i++)
        last[i] = -1;
    for (uint32_t j = 0; j < tr->nil; j++) {
        const mt_iline *l = &tr->il[j];
        pb_ns ts = tadd(t, sample(g, &l->d));
        int32_t cause = last[l->sslot];
        /* never send before the cause has arrived */
        if (cause >= 0 && ts < in->buf[cause].recv)
            ts = in->buf[cause].recv;
        int32_t m = emit(g, in, ts, l->src, l->dst, l->type, l->label, cause, l->pair);
        if (m < 0)
            return;
        last[l->dslot] = m;
        t = ts;
    }
}

/* Insertion sort of the path's messages by (ts, generation index): paths
 * are short and nearly sorted already, and the generation index keeps each
 * cause before its effects when timestamps tie. */
static void sort_path(inst *in)
{
    for (uint32_t i = 0; i < in->n; i++) {
        uint32_t x = in->order[i] = i;
        pb_ns tx = in->buf[x].ts;
        uint32_t j = i;
        while (j > 0 && in->buf[in->order[j - 1]].ts > tx) {
            in->order[j] = in->order[j - 1];
            j--;
        }
        in->order[j] = x;
    }
}

/* Make the instance's next path, starting after `after`.  Returns 1, or 0
 * when the instance is finished (a length limit), or PB_ENOMEM. */
static int next_path(mt_gen *g, inst *in, pb_ns after)
{
    const mt_config *c = g->cfg;
    for (;;) {
        if (g->stop_new)
            return 0;
        uint32_t ti = in->home != UINT32_MAX
                          ? in->home
                          : g->pool[pick_index(g, g->pool_cum, g->npool)];
        const mt_tracelet *tr = &c->tr[ti];
        pb_ns think = tr->think_lo;
        if (tr->think_hi > tr->think_lo)
            think += (pb_ns)llround(gsl_rng_uniform(g->rng) * (double)(tr->think_hi - tr->think_lo));
        pb_ns t0 = tadd(after, think);
        if (c->s.duration > 0 && t0 >= c->s.duration)
            return 0;
        in->n = 0;
        in->tr = ti;
        if (tr->interleave) {
            run_interleave(g, in, tr, t0);
        } else {
            state s = {t0, -1, 0};
            uint32_t root = pick(g, &tr->root);
            run(g, in, tr->body, root, &s);
        }
        if (g->oom)
            return PB_ENOMEM;
        if (in->n == 0) {
            /* a choose picked nothing: the client thinks again */
            after = t0;
            continue;
        }
        pb_ns end = 0, first = INT64_MAX;
        for (uint32_t i = 0; i < in->n; i++) {
            if (in->buf[i].recv > end)
                end = in->buf[i].recv;
            if (in->buf[i].ts < first)
                first = in->buf[i].ts;
        }
        if (c->s.duration > 0 && end > c->s.duration)
            return 0;
        if (c->s.messages > 0 && g->committed + in->n > (uint64_t)c->s.messages) {
            g->stop_new = 1;
            return 0;
        }
        g->committed += in->n;
        mt_tracelet_stats *st = &g->stats[ti];
        st->paths++;
        st->messages += in->n;
        st->busy_sum += pb_ns_to_sec(end - first);
        st->think_sum += pb_ns_to_sec(think);
        uint32_t nl = tr->interleave ? tr->nlabels : 1;
        if (nl > in->labcap) {
            uint64_t *np = realloc(in->pathid, nl * sizeof *np);
            if (!np)
                return PB_ENOMEM;
            in->pathid = np;
            in->labcap = nl;
        }
        memset(in->pathid, 0, nl * sizeof *in->pathid);
        in->nlabels = nl;
        sort_path(in);
        in->next = 0;
        in->end = end;
        return 1;
    }
}

static pb_ns key(const mt_gen *g, uint32_t i)
{
    const inst *in = &g->in[i];
    return in->buf[in->order[in->next]].ts;
}

static int heap_less(hent a, hent b)
{
    return a.key < b.key || (a.key == b.key && a.idx < b.idx);
}

static void sift_down(mt_gen *g, size_t i)
{
    size_t n = g->nheap;
    hent x = g->heap[i];
    for (;;) {
        size_t l = 2 * i + 1;
        if (l >= n)
            break;
        size_t m = l;
        if (l + 1 < n && heap_less(g->heap[l + 1], g->heap[l]))
            m = l + 1;
        if (!heap_less(g->heap[m], x))
            break;
        g->heap[i] = g->heap[m];
        i = m;
    }
    g->heap[i] = x;
}

int mt_gen_init(mt_gen **out, const mt_config *c, pb_names *names, pb_error *err)
{
    *out = NULL;
    const mt_settings *s = &c->s;
    if (s->duration == 0 && s->messages == 0)
        return pb_error_set(err, PB_EINVAL, c->file, 0, 0,
                            "no length limit; expected duration = TIME or messages = N "
                            "(in the config or with -D)");
    if (s->messages == 0)
        for (size_t i = 0; i < c->ntr; i++)
            if (!c->tr[i].advances && (c->tr[i].instances > 0 || c->tr[i].weight > 0))
                return pb_error_set(err, PB_EINVAL, c->file, c->tr[i].line, 0,
                                    "tracelet %s takes no time (every delay, wait and think "
                                    "time is 0), so a duration limit is never reached; "
                                    "expected some positive delay or think time, or a "
                                    "messages limit", c->tr[i].name);
    mt_gen *g = calloc(1, sizeof *g);
    if (!g)
        return pb_error_set(err, PB_ENOMEM, c->file, 0, 0, "out of memory");
    g->cfg = c;
    size_t nn = pb_strtab_count(c->nodes);
    g->nodemap = calloc(nn ? nn : 1, sizeof *g->nodemap);
    g->stats = calloc(c->ntr, sizeof *g->stats);
    g->pool = calloc(c->ntr, sizeof *g->pool);
    g->pool_cum = calloc(c->ntr, sizeof *g->pool_cum);
    g->rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!g->nodemap || !g->stats || !g->pool || !g->pool_cum || !g->rng)
        goto oom;
    gsl_rng_set(g->rng, (unsigned long)s->seed);
    g->names = names;
    if (c->nlabels) {
        /* sizes: a stream of their own, so labels change no delay */
        if (!(g->label_rng = gsl_rng_alloc(gsl_rng_mt19937)))
            goto oom;
        gsl_rng_set(g->label_rng, (unsigned long)s->seed ^ 0x5a17e5UL);
    }
    for (uint32_t i = 0; i < nn; i++) {
        const char *name = pb_strtab_str(c->nodes, i);
        if (pb_strtab_intern(names->nodes, name, strlen(name), &g->nodemap[i]) != PB_OK)
            goto oom;
    }
    for (uint32_t i = 0; i < nn; i++)
        if (g->nodemap[i] + 1 > g->nopen)
            g->nopen = g->nodemap[i] + 1;
    g->open = calloc(g->nopen ? g->nopen : 1, sizeof *g->open);
    if (!g->open)
        goto oom;
    if (c->event_engine) {
        g->acct.open = g->open;
        g->acct.stats = g->stats;
        if (mt_sim_init(&g->sim, c, g->rng, g->nodemap, &g->acct) != PB_OK)
            goto oom;
        mt_sim_set_names(g->sim, names);
        *out = g;
        return PB_OK;
    }
    double tot = 0;
    size_t maxil = 0;
    for (size_t i = 0; i < c->ntr; i++) {
        const mt_tracelet *tr = &c->tr[i];
        if (tr->interleave && tr->nslots > maxil)
            maxil = tr->nslots;
        if (tr->instances == 0 && tr->weight > 0) {
            tot += tr->weight;
            g->pool[g->npool] = (uint32_t)i;
            g->pool_cum[g->npool++] = tot;
        }
    }
    if (maxil) {
        g->lastrecv = malloc(maxil * sizeof *g->lastrecv);
        if (!g->lastrecv)
            goto oom;
    }
    size_t nin = g->npool ? (size_t)s->instances : 0;
    for (size_t i = 0; i < c->ntr; i++)
        nin += (size_t)c->tr[i].instances;
    g->in = calloc(nin ? nin : 1, sizeof *g->in);
    g->heap = calloc(nin ? nin : 1, sizeof *g->heap);
    if (!g->in || !g->heap)
        goto oom;
    size_t k = 0;
    if (g->npool)
        for (int j = 0; j < s->instances; j++)
            g->in[k++].home = UINT32_MAX;
    for (size_t i = 0; i < c->ntr; i++)
        for (int j = 0; j < c->tr[i].instances; j++)
            g->in[k++].home = (uint32_t)i;
    g->nin = nin;
    for (size_t i = 0; i < nin; i++) {
        int rc = next_path(g, &g->in[i], 0);
        if (rc < 0)
            goto oom;
        if (rc == 1) {
            g->heap[g->nheap].idx = (uint32_t)i;
            g->heap[g->nheap++].key = key(g, (uint32_t)i);
        }
    }
    for (size_t i = g->nheap / 2; i-- > 0;)
        sift_down(g, i);
    *out = g;
    return PB_OK;
oom:
    mt_gen_close(g);
    return pb_error_set(err, PB_ENOMEM, c->file, 0, 0, "out of memory");
}

static int gen_next(mt_gen *g, pb_msg *msg, pb_obs *obs, pb_truth *truth);

int mt_gen_next(mt_gen *g, pb_msg *msg, pb_truth *truth)
{
    return mt_gen_next_obs(g, msg, NULL, truth);
}

int mt_gen_next_obs(mt_gen *g, pb_msg *msg, pb_obs *obs, pb_truth *truth)
{
    pb_obs own;
    if (!obs)
        obs = &own;
    int r = gen_next(g, msg, obs, truth);
    /* a time that reached the saturation point is not a time: refuse the
     * trace rather than write rows that all share one clamped stamp */
    if (r == 1 && (msg->ts >= MT_TIME_MAX || msg->recv_ts >= MT_TIME_MAX))
        return PB_ERANGE;
    if (r == 1 && g->cfg->nlabels &&
        mt_label_apply(g->cfg, g->label_rng, g->names, msg, obs) != PB_OK)
        return PB_ENOMEM;
    return r;
}

static int gen_next(mt_gen *g, pb_msg *msg, pb_obs *obs, pb_truth *truth)
{
    if (g->sim)
        return mt_sim_next(g->sim, msg, obs, truth);
    *obs = PB_OBS_NONE;
    if (g->nheap == 0)
        return 0;
    uint32_t i = g->heap[0].idx;
    inst *in = &g->in[i];
    gmsg *m = &in->buf[in->order[in->next]];
    m->gid = g->next_id++;
    msg->id = m->gid;
    msg->ts = m->ts;
    msg->recv_ts = m->recv;
    msg->src = m->src;
    msg->dst = m->dst;
    msg->type = m->type;
    if (m->type == PB_TYPE_CALL) {
        msg->callid = m->callid = ++g->next_callid;
        if (g->open[m->src]) {
            g->par_sum += g->open[m->src];
            g->par_n++;
        }
        g->open[m->dst]++;
    } else if (m->type == PB_TYPE_RETURN) {
        msg->callid = in->buf[m->pair].callid;
        g->open[m->src]--;
    } else
        msg->callid = PB_ID_NONE;
    if (truth) {
        if (!in->pathid[m->label])
            in->pathid[m->label] = ++g->next_path;
        truth->path = in->pathid[m->label];
        truth->cause = m->cause >= 0 ? in->buf[m->cause].gid : PB_ID_NONE;
    } else if (!in->pathid[m->label]) {
        in->pathid[m->label] = ++g->next_path;
    }
    if (++in->next == in->n) {
        int rc = next_path(g, in, in->end);
        if (rc < 0)
            return rc;
        if (rc == 0) {
            g->heap[0] = g->heap[--g->nheap];
            if (g->nheap)
                sift_down(g, 0);
            return 1;
        }
    }
    g->heap[0].key = key(g, i);
    sift_down(g, 0);
    return 1;
}

const mt_tracelet_stats *mt_gen_stats(const mt_gen *g, size_t i)
{
    return &g->stats[i];
}

double mt_gen_parallelism(const mt_gen *g, uint64_t *ncalls)
{
    double sum = g->sim ? g->acct.par_sum : g->par_sum;
    uint64_t n = g->sim ? g->acct.par_n : g->par_n;
    if (ncalls)
        *ncalls = n;
    return n ? sum / (double)n : 0.0;
}

void mt_gen_close(mt_gen *g)
{
    if (!g)
        return;
    mt_sim_close(g->sim);
    if (g->label_rng)
        gsl_rng_free(g->label_rng);
    free(g->open);
    for (size_t i = 0; i < g->nin; i++) {
        free(g->in[i].buf);
        free(g->in[i].order);
        free(g->in[i].pathid);
    }
    free(g->in);
    free(g->heap);
    free(g->nodemap);
    free(g->stats);
    free(g->pool);
    free(g->pool_cum);
    free(g->lastrecv);
    if (g->rng)
        gsl_rng_free(g->rng);
    free(g);
}

int mt_generate(const mt_config *cfg, const char *config_name, pb_writer *w,
                pb_names *names, mt_gen **gen_out, pb_trace *keep, pb_error *err)
{
    if (gen_out)
        *gen_out = NULL;
    pb_strbuf b = {0};
    int rc = pb_strbuf_printf(&b, "generator=maketrace config=%s seed=%d",
                              config_name ? config_name : cfg->file, cfg->s.seed);
    if (rc == PB_OK)
        rc = pb_writer_meta(w, pb_strbuf_str(&b));
    pb_strbuf_reset(&b);
    if (rc == PB_OK)
        rc = pb_strbuf_puts(&b, "params: ");
    if (rc == PB_OK)
        rc = mt_config_describe(cfg, &b);
    if (rc == PB_OK)
        rc = pb_writer_meta(w, pb_strbuf_str(&b));
    pb_strbuf_free(&b);
    if (rc != PB_OK)
        return pb_error_set(err, rc, cfg->file, 0, 0, "cannot add metadata: %s", pb_strerror(rc));
    mt_gen *g;
    if ((rc = mt_gen_init(&g, cfg, names, err)) != PB_OK)
        return rc;
    pb_msg m;
    pb_obs o;
    pb_truth t;
    int r;
    while ((r = mt_gen_next_obs(g, &m, &o, &t)) == 1) {
        if (pb_writer_write_obs(w, &m, &o, &t) != PB_OK) {
            mt_gen_close(g);
            return pb_error_set(err, PB_EIO, NULL, 0, 0, "write error");
        }
        if (keep && pb_trace_append_obs(keep, &m, &o, &t) != PB_OK) {
            mt_gen_close(g);
            return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
        }
    }
    if (r == PB_ERANGE) {
        mt_gen_close(g);
        return pb_error_set(err, r, cfg->file, 0, 0,
                            "a message's time reaches %.0fs (the most a generated time can be: "
                            "delays, waits and think times add up past it); expected delays "
                            "that keep every path below it (or a duration limit)",
                            pb_ns_to_sec(MT_TIME_MAX));
    }
    if (r < 0) {
        mt_gen_close(g);
        return pb_error_set(err, r, cfg->file, 0, 0, "generation failed: %s", pb_strerror(r));
    }
    if (gen_out)
        *gen_out = g;
    else
        mt_gen_close(g);
    return PB_OK;
}
