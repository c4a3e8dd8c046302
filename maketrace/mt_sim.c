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
 * The events under execution and connection models (workers, dispatchers,
 * event loops, stages, connections) are in mt_sim_models.c; the shared
 * state in mt_sim_int.h.
 */
#include "mt_sim_int.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


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

void mts_mark_done(mt_sim *s, spath *p)
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
    mts_mark_done(s, p);
}

static int ev_less(const ev *a, const ev *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

void mts_ev_push(mt_sim *s, ev e)
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

ev mts_ev_pop(mt_sim *s)
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

void mts_wq_push(mt_sim *s, wqueue *q, job j)
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

job mts_wq_pop(wqueue *q)
{
    job j = q->v[q->head];
    q->head = (q->head + 1) % q->cap;
    q->n--;
    return j;
}

void mts_out_push(mt_sim *s, spath *p, uint32_t idx)
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

/* ---------------------------------------------------------------- */
/* Model containers: ids handed out lowest first, queues */

uint32_t mts_id_take(mt_sim *s, idalloc *a)
{
    a->inuse++;
    if (!a->n)
        return a->next++;
    uint32_t top = a->h[0], x = a->h[--a->n];
    size_t i = 0, n = a->n;
    for (;;) {
        size_t l = 2 * i + 1;
        if (l >= n)
            break;
        size_t m = l + 1 < n && a->h[l + 1] < a->h[l] ? l + 1 : l;
        if (a->h[m] >= x)
            break;
        a->h[i] = a->h[m];
        i = m;
    }
    if (n)
        a->h[i] = x;
    (void)s;
    return top;
}

void mts_id_give(mt_sim *s, idalloc *a, uint32_t id)
{
    if (a->n == a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 16;
        uint32_t *nh = realloc(a->h, cap * sizeof *nh);
        if (!nh) {
            s->oom = 1;
            return;
        }
        a->h = nh;
        a->cap = cap;
    }
    a->inuse--;
    size_t i = a->n++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (a->h[up] <= id)
            break;
        a->h[i] = a->h[up];
        i = up;
    }
    a->h[i] = id;
}

void mts_in_push(mt_sim *s, nstate *n, input in)
{
    if (n->qn == n->qcap) {
        size_t cap = n->qcap ? 2 * n->qcap : 16;
        input *nv = malloc(cap * sizeof *nv);
        if (!nv) {
            s->oom = 1;
            return;
        }
        for (size_t i = 0; i < n->qn; i++)
            nv[i] = n->q[(n->qh + i) % n->qcap];
        free(n->q);
        n->q = nv;
        n->qh = 0;
        n->qcap = cap;
    }
    n->q[(n->qh + n->qn++) % n->qcap] = in;
}

void mts_wait_push(mt_sim *s, lstate *l, const ev *e)
{
    if (l->wn == l->wcap) {
        size_t cap = l->wcap ? 2 * l->wcap : 16;
        ev *nv = malloc(cap * sizeof *nv);
        if (!nv) {
            s->oom = 1;
            return;
        }
        for (size_t i = 0; i < l->wn; i++)
            nv[i] = l->wait[(l->wh + i) % l->wcap];
        free(l->wait);
        l->wait = nv;
        l->wh = 0;
        l->wcap = cap;
    }
    l->wait[(l->wh + l->wn++) % l->wcap] = *e;
}

void mts_pend_push(mt_sim *s, cstate *c, spath *p, int32_t call)
{
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 8;
        pend *nv = malloc(cap * sizeof *nv);
        if (!nv) {
            s->oom = 1;
            return;
        }
        for (size_t i = 0; i < c->n; i++)
            nv[i] = c->v[(c->h + i) % c->cap];
        free(c->v);
        c->v = nv;
        c->h = 0;
        c->cap = cap;
    }
    pend *e = &c->v[(c->h + c->n++) % c->cap];
    memset(e, 0, sizeof *e);
    e->path = p;
    e->call = call;
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
    m->sthr = s->cur_thr;
    if (s->frag_on && ts > s->frag_end)
        s->frag_end = ts;
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
    mts_ev_push(s, e);
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
    c->job = f->job;
    return c;
}

/* Delay d of a block whose served call's frame is jf (NULL, or not a
 * served call: as drawn) times that call's slowdown. */
static pb_ns slowed(const frame *jf, pb_ns d)
{
    if (!jf || jf->kind != F_CALL || jf->slow == 1.0 || jf->slow == 0)
        return d;
    double v = (double)d * jf->slow;
    return v >= (double)(INT64_MAX / 4) ? INT64_MAX / 4 : (pb_ns)v;
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
        pb_ns rts = mt_tadd(f->t, slowed(f, mt_sample(s->rng, &f->op->r)));
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
            pb_ns ts = mt_tadd(f->t, slowed(f->job, mt_sample(s->rng, &op->d)));
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
 * is sent) at time t.  With models the serving thread is chosen here:
 * pool and dispatcher nodes take their lowest free worker id; event and
 * SEDA nodes run it on the thread of the current fragment (s->cur_thr). */
void mts_start_job(mt_sim *s, const job *j, pb_ns t, int32_t held)
{
    spath *p = j->path;
    smsg *c = &p->buf[j->msg];
    uint64_t thr = s->cur_thr;
    if (s->cfg->models) {
        int model = s->cfg->exec[c->dst].model;
        if (model == MT_EXEC_POOL || model == MT_EXEC_DISPATCHER) {
            thr = TH(TH_W, 0, j->wid1 ? j->wid1 - 1 : mts_id_take(s, &s->ns[c->dst].ids));
            if (model == MT_EXEC_POOL && !j->wid1) {
                /* the worker reads the call when it takes it (a call
                 * read in a batch was received at the read) */
                c->rthr = thr;
                if (t > c->recv)
                    c->recv = t;
            }
        }
        s->cur_thr = thr;
    }
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
    f->job = f;
    f->thr = thr;
    /* a per-request slowdown at this service (`service NODE slow=S`):
     * drawn only where one is set, so other configs draw as before */
    f->slow = 1;
    if (s->cfg->slow && s->cfg->slow[f->node] > 0)
        f->slow = exp(gsl_ran_gaussian(s->rng, s->cfg->slow[f->node]));
    run(s, f);
}

/* A one-way message's block starts at time t on thread thr. */
void mts_start_msg(mt_sim *s, spath *p, const mt_op *op, int32_t msg, pb_ns t, uint64_t thr)
{
    if (!op->nkids)
        return;
    frame *f = frame_new(s, p, F_SEND);
    if (!f)
        return;
    f->ops = (const mt_op *const *)op->kids;
    f->nops = op->nkids;
    f->node = p->buf[msg].dst;
    f->t = t;
    f->crt = p->buf[msg].recv;
    f->cause = msg;
    f->job = f;
    f->thr = thr;
    s->cur_thr = thr;
    run(s, f);
}

/* Frame f (waiting for the return msg) goes on at time t. */
void mts_resume(mt_sim *s, frame *f, int32_t msg, pb_ns t)
{
    f->t = t;
    f->crt = f->path->buf[msg].recv;
    f->cause = msg;
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

/* The state of the calls src -> dst (models), made at the pair's first
 * call; NULL (s->oom set) when out of memory. */
lstate *mts_ls(mt_sim *s, uint32_t src, uint32_t dst)
{
    int added;
    uint32_t i = mt_u64map_put(&s->lsmap, (uint64_t)src << 32 | dst, (uint32_t)s->nls, &added);
    if (i == UINT32_MAX) {
        s->oom = 1;
        return NULL;
    }
    if (!added)
        return s->lsv[i];
    if (s->nls == s->lscap) {
        size_t nc = s->lscap ? 2 * s->lscap : 16;
        lstate **x = realloc(s->lsv, nc * sizeof *x);
        if (!x) {
            s->oom = 1;
            return NULL;
        }
        s->lsv = x;
        s->lscap = nc;
    }
    lstate *l = calloc(1, sizeof *l);
    if (!l) {
        s->oom = 1;
        return NULL;
    }
    s->lsv[s->nls++] = l;
    return l;
}

static void interleave(mt_sim *s, spath *p, const mt_tracelet *tr, pb_ns t)
{
    int32_t *last = s->lastrecv;
    for (size_t i = 0; i < tr->nslots; i++)
        last[i] = -1;
    for (uint32_t j = 0; j < tr->nil; j++) {
        const mt_iline *l = &tr->il[j];
        pb_ns ts = mt_tadd(t, mt_sample(s->rng, &l->d));
        int32_t cause = last[l->sslot];
        if (cause >= 0 && ts < p->buf[cause].recv)
            ts = p->buf[cause].recv;
        int32_t m = msg_new(s, p, ts, l->src, l->dst, l->type, l->label, cause, l->pair);
        if (m < 0)
            return;
        /* an interleaving's paths are each their own thread */
        p->buf[m].sthr = p->buf[m].rthr = TH(TH_X, l->label, p->inst);
        /* the receive time is drawn here, so later lines can wait for it */
        p->buf[m].recv = mt_tadd(ts, mt_net(s->rng, &s->cfg->s));
        last[l->dslot] = m;
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
            f->job = f;
            f->thr = TH(TH_C, 0, inst); /* the client loop's own thread */
            s->cur_thr = f->thr;
            run(s, f);
        }
        if (s->oom)
            return;
        p->live--;
        if (p->n > 0) {
            mts_mark_done(s, p); /* (not done: messages are in flight) */
            return;
        }
        /* a choose picked nothing: the client thinks again */
        path_free(s, p);
        after = t0;
    }
}

/* Drop every path not yet complete and end the simulation. */
void mts_stop_all(mt_sim *s)
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
        mts_stop_all(s);
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

void mts_drain_done(mt_sim *s)
{
    while (s->ndone && !s->oom) {
        spath *p = s->done[--s->ndone];
        p->queued_done = 0;
        if (p->live == 0 && !p->complete)
            path_done(s, p);
    }
}

/* ---------------------------------------------------------------- */
/* API */

/* The label of thread t of config node x (index + 1 in names->labels, 0
 * for none). */
static uint32_t thr_label(mt_sim *s, uint32_t x, uint64_t t)
{
    if (!t)
        return 0;
    char b[512];
    const char *nm = pb_strtab_str(s->cfg->nodes, x);
    uint32_t id = TH_ID(t), st = TH_STAGE(t);
    int n;
    switch (TH_KIND(t)) {
    case TH_W: n = snprintf(b, sizeof b, "%s:w%u", nm, id); break;
    case TH_D: n = snprintf(b, sizeof b, "%s:d", nm); break;
    case TH_E: n = snprintf(b, sizeof b, "%s:e%u", nm, id); break;
    case TH_S: n = snprintf(b, sizeof b, "%s:s%u.%u", nm, st, id); break;
    case TH_C: n = snprintf(b, sizeof b, "%s:c%u", nm, id); break;
    case TH_M: n = snprintf(b, sizeof b, "%s:m%u", nm, id); break;
    default: n = snprintf(b, sizeof b, "%s:x%u.%u", nm, id, st); break;
    }
    uint32_t out = 0;
    if (n < 0 || (size_t)n >= sizeof b || pb_obs_label(s->names, b, (size_t)n, &out) != PB_OK)
        s->oom = 1;
    return out;
}

static uint32_t conn_label(mt_sim *s, uint32_t a, uint32_t b2, uint32_t conn)
{
    if (!conn)
        return 0;
    char b[1024];
    int n = snprintf(b, sizeof b, "%s>%s:%u", pb_strtab_str(s->cfg->nodes, a),
                     pb_strtab_str(s->cfg->nodes, b2), conn - 1);
    uint32_t out = 0;
    if (n < 0 || (size_t)n >= sizeof b || pb_obs_label(s->names, b, (size_t)n, &out) != PB_OK)
        s->oom = 1;
    return out;
}

void mt_sim_set_names(mt_sim *s, pb_names *names) { s->names = names; }

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
        if (tr->interleave && tr->nslots > maxil)
            maxil = tr->nslots;
        if (tr->instances == 0 && tr->weight > 0 && s->pool) {
            tot += tr->weight;
            s->pool[s->npool] = (uint32_t)i;
            s->pool_cum[s->npool++] = tot;
        }
    }
    s->lastrecv = malloc((maxil ? maxil : 1) * sizeof *s->lastrecv);
    int bad = 0;
    if (c->models) {
        s->ns = calloc(nn ? nn : 1, sizeof *s->ns);
        bad = !s->ns;
        for (size_t x = 0; x < nn && !bad; x++) {
            const mt_exec *e = &c->exec[x];
            if (e->model == MT_EXEC_EVENT)
                bad = !(s->ns[x].tbusy = calloc((size_t)e->threads, 1));
            if (e->model == MT_EXEC_SEDA)
                bad = !(s->ns[x].sids = calloc((size_t)e->stages, sizeof *s->ns[x].sids));
        }
    }
    if (!s->wq || !s->pool || !s->pool_cum || !s->lastrecv || bad) {
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
    mts_drain_done(s);
    if (s->oom) {
        mt_sim_close(s);
        return PB_ENOMEM;
    }
    *out = s;
    return PB_OK;
}

int mt_sim_next(mt_sim *s, pb_msg *msg, pb_obs *obs, pb_truth *truth)
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
                    *obs = PB_OBS_NONE;
                    if (s->cfg->models && s->names) {
                        obs->thread = thr_label(s, m->dst, m->rthr);
                        obs->sthread = thr_label(s, m->src, m->sthr);
                        if (m->type == PB_TYPE_RETURN)
                            obs->conn = conn_label(s, m->dst, m->src, m->conn);
                        else
                            obs->conn = conn_label(s, m->src, m->dst, m->conn);
                    }
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
        if (!mts_step(s)) {
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
    if (s->ns)
        for (size_t i = 0; i < nn; i++) {
            nstate *n = &s->ns[i];
            free(n->ids.h);
            if (n->sids)
                for (int k = 0; k < s->cfg->exec[i].stages; k++)
                    free(n->sids[k].h);
            free(n->sids);
            free(n->tbusy);
            free(n->q);
            for (uint32_t k = 0; k < n->nbacklog; k++)
                free(n->backlog[k].v);
            free(n->backlog);
        }
    for (size_t i = 0; i < s->nls; i++) {
        lstate *l = s->lsv[i];
        free(l->ids.h);
        free(l->wait);
        if (l->c)
            for (int k = 0; k < l->nc; k++)
                free(l->c[k].v);
        free(l->c);
        free(l->heap);
        free(l);
    }
    free(s->lsv);
    mt_u64map_free(&s->lsmap);
    free(s->ns);
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
