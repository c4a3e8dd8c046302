/*
 * mt_sim.c - the event-ordered maketrace engine, for configs with services
 * of K workers (`service NODE workers=K`) or joins (`call C join=NAME`).
 *
 * A worker couples paths in time (a call waits for the calls that arrived
 * before it), so paths cannot be drawn whole at their start as mt_gen.c
 * does.  Here every loop advances together: one heap of events ordered by
 * (time, creation order) -- a message being sent, a message being
 * received -- and, per path, threads of execution (frames) that run the
 * tracelet's statements until they must wait for a return or for the
 * branches of a par.  Delays are drawn when a thread reaches them, so the
 * draws follow the event order: deterministic for a seed, but not the
 * draws of mt_gen.c (configs without workers or joins keep that engine and
 * its output, byte for byte).
 *
 * Output: messages in the order they are sent (the event order, so by
 * send time, and a cause always before its effects), each path's held back
 * until the path is complete (only whole paths are written, and a path cut
 * by a length limit is dropped).  Memory: the paths and events in flight,
 * the calls waiting for a worker, and the messages sent since the oldest
 * incomplete path began.  Each event costs O(log events in flight).
 */
#include "mt_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct smsg {
    pb_ns ts, recv;
    uint64_t gid, callid;
    uint32_t src, dst;   /* config node indices */
    int32_t cause, pair; /* indices in the path's buffer, or -1 */
    uint32_t label;
    uint8_t type;
} smsg;

typedef struct spath {
    struct spath *prev, *next;  /* all paths alive (not yet freed) */
    uint32_t tr;
    uint32_t inst;
    smsg *buf;
    uint32_t n, cap;
    uint32_t emitted;     /* messages written or skipped */
    uint64_t *pathid;     /* per label */
    uint32_t nlabels;
    uint32_t *jarr;       /* per join group: parts arrived so far */
    int64_t live;         /* frames alive + messages in flight */
    int complete, dropped, queued_done;
    pb_ns t0, first, end, think;
} spath;

enum { F_ROOT, F_SEQ, F_BRANCH, F_CALL, F_SEND };

typedef struct frame {
    spath *path;
    struct frame *up;     /* SEQ, BRANCH: the parent; CALL: the caller */
    const mt_op *const *ops;
    const mt_op *op;      /* CALL: the call (its ret delay) */
    uint32_t nops, i;
    uint32_t node;
    int kind;
    pb_ns t;              /* this thread's clock */
    int32_t cause;        /* last message it received, or -1 */
    pb_ns crt;            /* when that message was received */
    int32_t callmsg;      /* CALL: the call being served */
    int32_t held;         /* CALL: node whose worker it holds, or -1 */
    uint32_t branch;      /* BRANCH: index among the par's branches */
    /* while suspended at a par: */
    uint32_t par_left, par_best;
    pb_ns par_maxt, par_crt;
    int32_t par_cause, par_start;
    int par_changed;
} frame;

enum { EV_SEND, EV_RECV };

typedef struct ev {
    pb_ns t;
    uint64_t seq;
    spath *path;
    frame *fr;            /* CALL send/recv: the caller; RETURN: the caller to resume */
    const mt_op *op;      /* CALL, MSG: the statement (its block) */
    int32_t msg;
    int32_t held;         /* RETURN: the worker it releases (node), or -1 */
    uint8_t kind;
} ev;

/* A call waiting for (or given) a worker. */
typedef struct job {
    spath *path;
    frame *caller;
    const mt_op *op;
    int32_t msg;
    int block;            /* run the block (not a join's earlier part) */
} job;

typedef struct wqueue {
    job *v;
    size_t head, n, cap;
    int busy;
} wqueue;

typedef struct outref {
    spath *path;
    uint32_t idx;
} outref;

struct mt_sim {
    const mt_config *cfg;
    gsl_rng *rng;
    const uint32_t *nodemap;
    mt_acct *acct;
    ev *heap;
    size_t nheap, heapcap;
    uint64_t seq;
    wqueue *wq;           /* per config node */
    outref *out;          /* ring of sent messages, in send order */
    size_t ohead, on, ocap;
    spath *paths;         /* list of paths alive */
    spath **done;         /* paths whose live count reached 0 */
    size_t ndone, donecap;
    frame *freef;         /* free list of frames */
    void **chunks;        /* frame chunks, freed at close */
    size_t nchunks, chunkcap;
    uint32_t *pool;
    double *pool_cum;
    uint32_t npool;
    uint64_t committed;
    int stop, finished, oom;
    int32_t *lastrecv;    /* interleave scratch */
};

/* ---------------------------------------------------------------- */
/* Small containers */

static frame *frame_new(mt_sim *s, spath *p, int kind)
{
    if (!s->freef) {
        if (s->nchunks == s->chunkcap) {
            size_t cap = s->chunkcap ? 2 * s->chunkcap : 16;
            void **nc = realloc(s->chunks, cap * sizeof *nc);
            if (!nc) {
                s->oom = 1;
                return NULL;
            }
            s->chunks = nc;
            s->chunkcap = cap;
        }
        frame *c = malloc(256 * sizeof *c);
        if (!c) {
            s->oom = 1;
            return NULL;
        }
        s->chunks[s->nchunks++] = c;
        for (int i = 0; i < 256; i++) {
            c[i].up = s->freef;
            s->freef = &c[i];
        }
    }
    frame *f = s->freef;
    s->freef = f->up;
    memset(f, 0, sizeof *f);
    f->path = p;
    f->kind = kind;
    f->held = -1;
    f->callmsg = -1;
    p->live++;
    return f;
}

static void mark_done(mt_sim *s, spath *p)
{
    if (p->live || p->queued_done)
        return;
    if (s->ndone == s->donecap) {
        size_t cap = s->donecap ? 2 * s->donecap : 16;
        spath **nd = realloc(s->done, cap * sizeof *nd);
        if (!nd) {
            s->oom = 1;
            return;
        }
        s->done = nd;
        s->donecap = cap;
    }
    p->queued_done = 1;
    s->done[s->ndone++] = p;
}

static void frame_free(mt_sim *s, frame *f)
{
    spath *p = f->path;
    f->up = s->freef;
    s->freef = f;
    p->live--;
    mark_done(s, p);
}

static int ev_less(const ev *a, const ev *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void ev_push(mt_sim *s, ev e)
{
    if (s->nheap == s->heapcap) {
        size_t cap = s->heapcap ? 2 * s->heapcap : 256;
        ev *nh = realloc(s->heap, cap * sizeof *nh);
        if (!nh) {
            s->oom = 1;
            return;
        }
        s->heap = nh;
        s->heapcap = cap;
    }
    e.seq = s->seq++;
    size_t i = s->nheap++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (!ev_less(&e, &s->heap[up]))
            break;
        s->heap[i] = s->heap[up];
        i = up;
    }
    s->heap[i] = e;
}

static ev ev_pop(mt_sim *s)
{
    ev top = s->heap[0];
    ev x = s->heap[--s->nheap];
    size_t n = s->nheap, i = 0;
    for (;;) {
        size_t l = 2 * i + 1;
        if (l >= n)
            break;
        size_t m = l;
        if (l + 1 < n && ev_less(&s->heap[l + 1], &s->heap[l]))
            m = l + 1;
        if (!ev_less(&s->heap[m], &x))
            break;
        s->heap[i] = s->heap[m];
        i = m;
    }
    if (n)
        s->heap[i] = x;
    return top;
}

static void wq_push(mt_sim *s, wqueue *q, job j)
{
    if (q->n == q->cap) {
        size_t cap = q->cap ? 2 * q->cap : 16;
        job *nv = malloc(cap * sizeof *nv);
        if (!nv) {
            s->oom = 1;
            return;
        }
        for (size_t i = 0; i < q->n; i++)
            nv[i] = q->v[(q->head + i) % q->cap];
        free(q->v);
        q->v = nv;
        q->head = 0;
        q->cap = cap;
    }
    q->v[(q->head + q->n++) % q->cap] = j;
}

static job wq_pop(wqueue *q)
{
    job j = q->v[q->head];
    q->head = (q->head + 1) % q->cap;
    q->n--;
    return j;
}

static void out_push(mt_sim *s, spath *p, uint32_t idx)
{
    if (s->on == s->ocap) {
        size_t cap = s->ocap ? 2 * s->ocap : 1024;
        outref *nv = malloc(cap * sizeof *nv);
        if (!nv) {
            s->oom = 1;
            return;
        }
        for (size_t i = 0; i < s->on; i++)
            nv[i] = s->out[(s->ohead + i) % s->ocap];
        free(s->out);
        s->out = nv;
        s->ohead = 0;
        s->ocap = cap;
    }
    s->out[(s->ohead + s->on++) % s->ocap] = (outref){p, idx};
}

/* A new message of path p, sent at ts (its receive time is drawn when it
 * is sent).  Returns its index or -1 (out of memory). */
static int32_t msg_new(mt_sim *s, spath *p, pb_ns ts, uint32_t src, uint32_t dst, int type,
                       uint32_t label, int32_t cause, int32_t pair)
{
    if (p->n == p->cap) {
        uint32_t cap = p->cap ? 2 * p->cap : 16;
        smsg *nb = realloc(p->buf, cap * sizeof *nb);
        if (!nb) {
            s->oom = 1;
            return -1;
        }
        p->buf = nb;
        p->cap = cap;
    }
    smsg *m = &p->buf[p->n];
    memset(m, 0, sizeof *m);
    m->ts = ts;
    m->recv = ts;
    m->src = src;
    m->dst = dst;
    m->type = (uint8_t)type;
    m->label = label;
    m->cause = cause;
    m->pair = pair;
    return (int32_t)p->n++;
}

/* Schedule the sending of message m (its frame / statement for later). */
static void send_at(mt_sim *s, spath *p, int32_t m, frame *fr, const mt_op *op, int32_t held)
{
    ev e = {0};
    e.t = p->buf[m].ts;
    e.path = p;
    e.fr = fr;
    e.op = op;
    e.msg = m;
    e.held = held;
    e.kind = EV_SEND;
    p->live++;
    ev_push(s, e);
}

/* ---------------------------------------------------------------- */
/* Threads */

static void run(mt_sim *s, frame *f);

static frame *child(mt_sim *s, frame *f, int kind, const mt_op *const *ops, uint32_t nops)
{
    frame *c = frame_new(s, f->path, kind);
    if (!c)
        return NULL;
    c->up = f;
    c->ops = ops;
    c->nops = nops;
    c->node = f->node;
    c->t = f->t;
    c->cause = f->cause;
    c->crt = f->crt;
    return c;
}

/* A finished frame hands its state on; returns the frame to continue
 * (NULL: none now). */
static frame *finish(mt_sim *s, frame *f)
{
    frame *up = f->up;
    switch (f->kind) {
    case F_SEQ:
        up->t = f->t;
        up->cause = f->cause;
        up->crt = f->crt;
        frame_free(s, f);
        return up;
    case F_BRANCH:
        if (f->t > up->par_maxt)
            up->par_maxt = f->t;
        /* the latest-received message among the branches (ties: the later
         * branch), as mt_gen.c's par */
        if (f->cause != up->par_start &&
            (!up->par_changed || f->crt > up->par_crt ||
             (f->crt == up->par_crt && f->branch > up->par_best))) {
            up->par_cause = f->cause;
            up->par_crt = f->crt;
            up->par_best = f->branch;
            up->par_changed = 1;
        }
        frame_free(s, f);
        if (--up->par_left)
            return NULL;
        up->t = up->par_maxt;
        if (up->par_changed) {
            up->cause = up->par_cause;
            up->crt = up->par_crt;
        }
        return up;
    case F_CALL: {
        /* the block is done: the return goes after its delay */
        spath *p = f->path;
        pb_ns rts = mt_tadd(f->t, mt_sample(s->rng, &f->op->r));
        int32_t m = msg_new(s, p, rts, f->node, p->buf[f->callmsg].src, PB_TYPE_RETURN, 0,
                            f->cause, f->callmsg);
        if (m >= 0)
            send_at(s, p, m, up, NULL, f->held);
        frame_free(s, f);
        return NULL;
    }
    default: /* F_ROOT, F_SEND */
        frame_free(s, f);
        return NULL;
    }
}

/* Run frame f until it waits or ends; then whatever its end lets go on. */
static void run(mt_sim *s, frame *f)
{
    while (f && !s->oom) {
        if (f->i == f->nops) {
            f = finish(s, f);
            continue;
        }
        const mt_op *op = f->ops[f->i++];
        spath *p = f->path;
        switch (op->kind) {
        case MT_OP_CALL:
        case MT_OP_SEND: {
            uint32_t dst = op->to.node[mt_pick_index(s->rng, op->to.cum, op->to.n)];
            pb_ns ts = mt_tadd(f->t, mt_sample(s->rng, &op->d));
            int call = op->kind == MT_OP_CALL;
            int32_t m = msg_new(s, p, ts, f->node, dst, call ? PB_TYPE_CALL : PB_TYPE_MSG, 0,
                                f->cause, -1);
            if (m < 0)
                return;
            send_at(s, p, m, call ? f : NULL, op, -1);
            if (call)
                return; /* resumed by the return's receipt */
            f->t = ts;  /* one-way: go on from the send time */
            break;
        }
        case MT_OP_SEQ:
            f = child(s, f, F_SEQ, (const mt_op *const *)op->kids, op->nkids);
            break;
        case MT_OP_CHOOSE: {
            const mt_op *b = op->kids[mt_pick_index(s->rng, op->kcum, op->nkids)];
            f = child(s, f, F_SEQ, (const mt_op *const *)b->kids, b->nkids);
            break;
        }
        case MT_OP_WAIT:
            if (op->wait_node < 0 || (uint32_t)op->wait_node == f->node)
                f->t = mt_tadd(f->t, op->wait);
            break;
        case MT_OP_PAR:
            f->par_left = op->nkids + 1; /* +1: none may resume f while we spawn */
            f->par_maxt = f->t;
            f->par_start = f->cause;
            f->par_changed = 0;
            for (uint32_t k = 0; k < op->nkids; k++) {
                frame *b = child(s, f, F_BRANCH, (const mt_op *const *)&op->kids[k], 1);
                if (!b)
                    return;
                b->branch = k;
                run(s, b);
            }
            if (--f->par_left)
                return; /* resumed by the last branch to end */
            f->t = f->par_maxt;
            if (f->par_changed) {
                f->cause = f->par_cause;
                f->crt = f->par_crt;
            }
            break;
        }
    }
}

/* A call's block starts (or, for a join's earlier part, only its return
 * is sent) at time t. */
static void start_job(mt_sim *s, const job *j, pb_ns t, int32_t held)
{
    spath *p = j->path;
    const smsg *c = &p->buf[j->msg];
    if (!j->block) {
        pb_ns rts = mt_tadd(t, mt_sample(s->rng, &j->op->r));
        int32_t m = msg_new(s, p, rts, c->dst, c->src, PB_TYPE_RETURN, 0, j->msg, j->msg);
        if (m >= 0)
            send_at(s, p, m, j->caller, NULL, held);
        return;
    }
    frame *f = frame_new(s, p, F_CALL);
    if (!f)
        return;
    f->up = j->caller;
    f->op = j->op;
    f->ops = (const mt_op *const *)j->op->kids;
    f->nops = j->op->nkids;
    f->node = c->dst;
    f->t = t;
    f->cause = j->msg;
    f->crt = c->recv;
    f->callmsg = j->msg;
    f->held = held;
    run(s, f);
}

/* ---------------------------------------------------------------- */
/* Paths and loops */

static spath *path_new(mt_sim *s, uint32_t inst, uint32_t tr)
{
    spath *p = calloc(1, sizeof *p);
    if (!p) {
        s->oom = 1;
        return NULL;
    }
    const mt_tracelet *t = &s->cfg->tr[tr];
    p->inst = inst;
    p->tr = tr;
    p->nlabels = t->interleave ? t->nlabels : 1;
    p->pathid = calloc(p->nlabels, sizeof *p->pathid);
    if (t->njoins)
        p->jarr = calloc(t->njoins, sizeof *p->jarr);
    if (!p->pathid || (t->njoins && !p->jarr)) {
        free(p->pathid);
        free(p->jarr);
        free(p);
        s->oom = 1;
        return NULL;
    }
    p->next = s->paths;
    if (s->paths)
        s->paths->prev = p;
    s->paths = p;
    return p;
}

static void path_free(mt_sim *s, spath *p)
{
    if (p->prev)
        p->prev->next = p->next;
    else
        s->paths = p->next;
    if (p->next)
        p->next->prev = p->prev;
    free(p->buf);
    free(p->pathid);
    free(p->jarr);
    free(p);
}

static void interleave(mt_sim *s, spath *p, const mt_tracelet *tr, pb_ns t)
{
    size_t nn = pb_strtab_count(s->cfg->nodes);
    int32_t *last = s->lastrecv;
    for (size_t i = 0; i < (size_t)tr->nlabels * nn; i++)
        last[i] = -1;
    for (uint32_t j = 0; j < tr->nil; j++) {
        const mt_iline *l = &tr->il[j];
        pb_ns ts = mt_tadd(t, mt_sample(s->rng, &l->d));
        int32_t cause = last[l->label * nn + l->src];
        if (cause >= 0 && ts < p->buf[cause].recv)
            ts = p->buf[cause].recv;
        int32_t m = msg_new(s, p, ts, l->src, l->dst, l->type, l->label, cause, l->pair);
        if (m < 0)
            return;
        /* the receive time is drawn here, so later lines can wait for it */
        p->buf[m].recv = mt_tadd(ts, mt_net(s->rng, &s->cfg->s));
        last[l->label * nn + l->dst] = m;
        send_at(s, p, m, NULL, NULL, -1);
        t = ts;
    }
}

/* Loop `inst` (home: its tracelet or UINT32_MAX for the pool) starts its
 * next path after time `after`. */
static void next_path(mt_sim *s, uint32_t inst, uint32_t home, pb_ns after)
{
    const mt_config *c = s->cfg;
    for (;;) {
        if (s->stop || s->oom)
            return;
        uint32_t ti = home != UINT32_MAX ? home
                                         : s->pool[mt_pick_index(s->rng, s->pool_cum, s->npool)];
        const mt_tracelet *tr = &c->tr[ti];
        pb_ns think = tr->think_lo;
        if (tr->think_hi > tr->think_lo)
            think += (pb_ns)llround(gsl_rng_uniform(s->rng) * (double)(tr->think_hi - tr->think_lo));
        pb_ns t0 = mt_tadd(after, think);
        if (c->s.duration > 0 && t0 >= c->s.duration)
            return;
        spath *p = path_new(s, inst, ti);
        if (!p)
            return;
        p->t0 = t0;
        p->think = think;
        p->live++; /* held while the path is being started */
        if (tr->interleave) {
            interleave(s, p, tr, t0);
        } else {
            frame *f = frame_new(s, p, F_ROOT);
            if (!f)
                return;
            f->ops = (const mt_op *const *)tr->body->kids;
            f->nops = tr->body->nkids;
            f->node = tr->root.node[mt_pick_index(s->rng, tr->root.cum, tr->root.n)];
            f->t = t0;
            f->cause = -1;
            run(s, f);
        }
        if (s->oom)
            return;
        p->live--;
        if (p->n > 0) {
            mark_done(s, p); /* (not done: messages are in flight) */
            return;
        }
        /* a choose picked nothing: the client thinks again */
        path_free(s, p);
        after = t0;
    }
}

/* Drop every path not yet complete and end the simulation. */
static void stop_all(mt_sim *s)
{
    s->finished = 1;
    for (spath *p = s->paths; p; p = p->next)
        if (!p->complete)
            p->dropped = 1;
}

/* Path p has nothing left in flight: keep it (whole) or drop it, and let
 * its loop go on. */
static void path_done(mt_sim *s, spath *p)
{
    const mt_config *c = s->cfg;
    p->complete = 1;
    pb_ns end = 0, first = INT64_MAX;
    for (uint32_t i = 0; i < p->n; i++) {
        if (p->buf[i].recv > end)
            end = p->buf[i].recv;
        if (p->buf[i].ts < first)
            first = p->buf[i].ts;
    }
    p->end = end;
    p->first = first;
    if (p->dropped)
        return;
    if (c->s.duration > 0 && end > c->s.duration) {
        p->dropped = 1; /* its loop stops, as in mt_gen.c */
        return;
    }
    if (c->s.messages > 0 && s->committed + p->n > (uint64_t)c->s.messages) {
        p->dropped = 1;
        s->stop = 1;
        stop_all(s);
        return;
    }
    s->committed += p->n;
    mt_tracelet_stats *st = &s->acct->stats[p->tr];
    st->paths++;
    st->messages += p->n;
    st->busy_sum += pb_ns_to_sec(end - first);
    st->think_sum += pb_ns_to_sec(p->think);
    const mt_tracelet *tr = &c->tr[p->tr];
    next_path(s, p->inst, tr->instances > 0 ? p->tr : UINT32_MAX, end);
}

static void drain_done(mt_sim *s)
{
    while (s->ndone && !s->oom) {
        spath *p = s->done[--s->ndone];
        p->queued_done = 0;
        if (p->live == 0 && !p->complete)
            path_done(s, p);
    }
}

/* ---------------------------------------------------------------- */
/* Events */

static void on_send(mt_sim *s, const ev *e)
{
    spath *p = e->path;
    smsg *m = &p->buf[e->msg];
    if (!s->cfg->tr[p->tr].interleave)
        m->recv = mt_tadd(m->ts, mt_net(s->rng, &s->cfg->s));
    out_push(s, p, (uint32_t)e->msg);
    ev r = *e;
    r.kind = EV_RECV;
    r.t = m->recv;
    ev_push(s, r); /* still in flight: live unchanged */
    if (e->held >= 0) {
        /* the return is sent: the worker serves the next call in line */
        wqueue *q = &s->wq[e->held];
        if (q->n) {
            job j = wq_pop(q);
            start_job(s, &j, e->t, e->held);
        } else {
            q->busy--;
        }
    }
}

static void on_recv(mt_sim *s, const ev *e)
{
    spath *p = e->path;
    const smsg *m = &p->buf[e->msg];
    if (s->cfg->tr[p->tr].interleave) {
        /* nothing waits on an interleaving's messages */
    } else if (m->type == PB_TYPE_RETURN) {
        frame *f = e->fr;
        f->t = f->crt = m->recv;
        f->cause = e->msg;
        run(s, f);
    } else if (m->type == PB_TYPE_MSG) {
        if (e->op->nkids) {
            frame *f = frame_new(s, p, F_SEND);
            if (f) {
                f->ops = (const mt_op *const *)e->op->kids;
                f->nops = e->op->nkids;
                f->node = m->dst;
                f->t = f->crt = m->recv;
                f->cause = e->msg;
                run(s, f);
            }
        }
    } else {
        job j = {p, e->fr, e->op, e->msg, 1};
        if (e->op->join >= 0) {
            uint32_t g = (uint32_t)e->op->join;
            j.block = ++p->jarr[g] == s->cfg->tr[p->tr].join_parts[g];
        }
        uint32_t dst = m->dst;
        int k = s->cfg->workers ? s->cfg->workers[dst] : 0;
        if (!k) {
            start_job(s, &j, m->recv, -1);
        } else if (s->wq[dst].busy < k) {
            s->wq[dst].busy++;
            start_job(s, &j, m->recv, (int32_t)dst);
        } else {
            wq_push(s, &s->wq[dst], j);
        }
    }
    p->live--;
    mark_done(s, p);
}

/* Process one event.  Returns 0 when there is none left. */
static int step(mt_sim *s)
{
    if (s->finished || s->nheap == 0) {
        if (!s->finished)
            stop_all(s);
        return 0;
    }
    ev e = ev_pop(s);
    if (s->cfg->s.duration > 0 && e.t > s->cfg->s.duration) {
        /* whatever is still open ends after the duration */
        stop_all(s);
        return 0;
    }
    if (e.kind == EV_SEND)
        on_send(s, &e);
    else
        on_recv(s, &e);
    drain_done(s);
    return 1;
}

/* ---------------------------------------------------------------- */
/* API */

int mt_sim_init(mt_sim **out, const mt_config *c, gsl_rng *rng, const uint32_t *nodemap,
                mt_acct *acct)
{
    *out = NULL;
    mt_sim *s = calloc(1, sizeof *s);
    if (!s)
        return PB_ENOMEM;
    s->cfg = c;
    s->rng = rng;
    s->nodemap = nodemap;
    s->acct = acct;
    size_t nn = pb_strtab_count(c->nodes);
    s->wq = calloc(nn ? nn : 1, sizeof *s->wq);
    s->pool = calloc(c->ntr ? c->ntr : 1, sizeof *s->pool);
    s->pool_cum = calloc(c->ntr ? c->ntr : 1, sizeof *s->pool_cum);
    size_t maxil = 0;
    double tot = 0;
    for (size_t i = 0; i < c->ntr; i++) {
        const mt_tracelet *tr = &c->tr[i];
        if (tr->interleave && (size_t)tr->nlabels * nn > maxil)
            maxil = (size_t)tr->nlabels * nn;
        if (tr->instances == 0 && tr->weight > 0 && s->pool) {
            tot += tr->weight;
            s->pool[s->npool] = (uint32_t)i;
            s->pool_cum[s->npool++] = tot;
        }
    }
    s->lastrecv = malloc((maxil ? maxil : 1) * sizeof *s->lastrecv);
    if (!s->wq || !s->pool || !s->pool_cum || !s->lastrecv) {
        mt_sim_close(s);
        return PB_ENOMEM;
    }
    /* the loops in mt_gen.c's order: the pool's, then each tracelet's */
    uint32_t k = 0;
    if (s->npool)
        for (int j = 0; j < c->s.instances; j++)
            next_path(s, k++, UINT32_MAX, 0);
    for (size_t i = 0; i < c->ntr; i++)
        for (int j = 0; j < c->tr[i].instances; j++)
            next_path(s, k++, (uint32_t)i, 0);
    drain_done(s);
    if (s->oom) {
        mt_sim_close(s);
        return PB_ENOMEM;
    }
    *out = s;
    return PB_OK;
}

int mt_sim_next(mt_sim *s, pb_msg *msg, pb_truth *truth)
{
    for (;;) {
        if (s->oom)
            return PB_ENOMEM;
        if (s->on) {
            outref r = s->out[s->ohead];
            spath *p = r.path;
            if (p->dropped || p->complete) {
                s->ohead = (s->ohead + 1) % s->ocap;
                s->on--;
                p->emitted++;
                int keep = !p->dropped;
                smsg *m = &p->buf[r.idx];
                if (keep) {
                    mt_acct *a = s->acct;
                    m->gid = a->next_id++;
                    msg->id = m->gid;
                    msg->ts = m->ts;
                    msg->recv_ts = m->recv;
                    msg->src = s->nodemap[m->src];
                    msg->dst = s->nodemap[m->dst];
                    msg->type = m->type;
                    if (m->type == PB_TYPE_CALL) {
                        msg->callid = m->callid = ++a->next_callid;
                        if (a->open[msg->src]) {
                            a->par_sum += a->open[msg->src];
                            a->par_n++;
                        }
                        a->open[msg->dst]++;
                    } else if (m->type == PB_TYPE_RETURN) {
                        msg->callid = p->buf[m->pair].callid;
                        a->open[msg->src]--;
                    } else {
                        msg->callid = PB_ID_NONE;
                    }
                    if (!p->pathid[m->label])
                        p->pathid[m->label] = ++a->next_path;
                    if (truth) {
                        truth->path = p->pathid[m->label];
                        truth->cause = m->cause >= 0 ? p->buf[m->cause].gid : PB_ID_NONE;
                    }
                }
                if (p->emitted == p->n && (p->complete || s->finished))
                    path_free(s, p);
                if (keep)
                    return 1;
                continue;
            }
        }
        if (!step(s)) {
            if (s->on)
                continue; /* every open path is dropped now */
            return s->oom ? PB_ENOMEM : 0;
        }
    }
}

void mt_sim_close(mt_sim *s)
{
    if (!s)
        return;
    while (s->paths)
        path_free(s, s->paths);
    size_t nn = pb_strtab_count(s->cfg->nodes);
    if (s->wq)
        for (size_t i = 0; i < nn; i++)
            free(s->wq[i].v);
    free(s->wq);
    free(s->heap);
    free(s->out);
    free(s->done);
    for (size_t i = 0; i < s->nchunks; i++)
        free(s->chunks[i]);
    free(s->chunks);
    free(s->pool);
    free(s->pool_cum);
    free(s->lastrecv);
    free(s);
}
