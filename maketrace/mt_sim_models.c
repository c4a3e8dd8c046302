/*
 * mt_sim_models.c - the events of the event-ordered maketrace engine
 * (mt_sim.c) under execution and connection models: a message sent and
 * received, a worker freed; pools, dispatchers, event loops and SEDA
 * stages (docs/maketrace.md "Execution models"), connections new, pooled,
 * pipelined and multiplexed.  Each event costs O(log events in flight)
 * (and O(log conns) on a pipelined or multiplexed link).
 */
#include "mt_sim_int.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- */
/* Events */

static void push_free(mt_sim *s, pb_ns t, uint32_t node, uint32_t stage, uint32_t id)
{
    ev e = {0};
    e.t = t;
    e.kind = EV_FREE;
    e.fnode = node;
    e.fstage = stage;
    e.fid = id;
    e.msg = -1;
    mts_ev_push(s, e);
}

static void process_input(mt_sim *s, const input *in, pb_ns t)
{
    switch (in->kind) {
    case IN_CALL:
        mts_start_job(s, &in->j, t, -1);
        break;
    case IN_RET:
        mts_resume(s, in->fr, in->msg, t);
        break;
    default:
        mts_start_msg(s, in->path, in->op, in->msg, t, s->cur_thr);
        break;
    }
}

/* Event-driven node x at time now: every free thread (lowest first) reads
 * up to `batch` queued inputs (1: event isolation, the next input only
 * after the current fragment's outputs are sent), all received at the
 * read, and runs their fragments one after the other; it is busy until
 * the last fragment's last send. */
static void event_dispatch(mt_sim *s, uint32_t x, pb_ns now)
{
    nstate *n = &s->ns[x];
    const mt_exec *e = &s->cfg->exec[x];
    while (n->qn && !s->oom) {
        int t = -1;
        for (int i = 0; i < e->threads; i++)
            if (!n->tbusy[i]) {
                t = i;
                break;
            }
        if (t < 0)
            return;
        n->tbusy[t] = 1;
        uint64_t thr = TH(TH_E, 0, (uint32_t)t);
        size_t k = n->qn < (size_t)e->batch ? n->qn : (size_t)e->batch;
        for (size_t i = 0; i < k; i++) {
            const input *in = &n->q[(n->qh + i) % n->qcap];
            smsg *m = &in->path->buf[in->kind == IN_CALL ? in->j.msg : in->msg];
            m->rthr = thr;
            if (now > m->recv)
                m->recv = now;
        }
        pb_ns tcur = mt_tadd(now, e->read_cost);
        for (size_t i = 0; i < k; i++) {
            input in = n->q[n->qh];
            n->qh = (n->qh + 1) % n->qcap;
            n->qn--;
            s->cur_thr = thr;
            s->frag_on = 1;
            s->frag_end = tcur;
            process_input(s, &in, tcur);
            s->frag_on = 0;
            tcur = s->frag_end;
            in.path->live--;
            mts_mark_done(s, in.path);
        }
        /* free 1 ns after the last send: the next read comes after it */
        push_free(s, mt_tadd(tcur, 1), x, 0, (uint32_t)t);
    }
}

/* An input for node x (with models) at time now.  Returns 1 when it was
 * handled here (event and SEDA nodes), 0 for the pool paths. */
static int model_input(mt_sim *s, uint32_t x, input *in, pb_ns now)
{
    const mt_exec *e = &s->cfg->exec[x];
    if (e->model == MT_EXEC_EVENT) {
        in->path->live++;
        mts_in_push(s, &s->ns[x], *in);
        event_dispatch(s, x, now);
        return 1;
    }
    if (e->model != MT_EXEC_SEDA)
        return 0;
    /* a fragment on the next stage's lowest free thread */
    uint32_t stage = 0;
    if (in->kind == IN_RET) {
        frame *jf = in->fr->job;
        stage = ++jf->frag;
        if (stage > (uint32_t)e->stages - 1)
            stage = (uint32_t)e->stages - 1;
    }
    uint32_t id = mts_id_take(s, &s->ns[x].sids[stage]);
    uint64_t thr = TH(TH_S, stage, id);
    s->cur_thr = thr;
    s->frag_on = 1;
    s->frag_end = now;
    in->path->buf[in->kind == IN_CALL ? in->j.msg : in->msg].rthr = thr;
    process_input(s, in, now);
    s->frag_on = 0;
    push_free(s, mt_tadd(s->frag_end, 1), x, stage + 1, id);
    return 1;
}

static void send_now(mt_sim *s, const ev *e);

/* the heap of a link's used connections, by (calls outstanding, number) */
static int conn_less(const lstate *l, uint32_t a, uint32_t b)
{
    return l->c[a].n != l->c[b].n ? l->c[a].n < l->c[b].n : a < b;
}

static void conn_put(lstate *l, uint32_t pos, uint32_t k)
{
    l->heap[pos] = k;
    l->c[k].hpos = pos;
}

/* connection k's count changed: restore the heap */
static void conn_fix(lstate *l, uint32_t k)
{
    uint32_t i = l->c[k].hpos;
    while (i && conn_less(l, k, l->heap[(i - 1) / 2])) {
        conn_put(l, i, l->heap[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
    for (;;) {
        uint32_t ch = 2 * i + 1;
        if (ch >= l->nheap)
            break;
        if (ch + 1 < l->nheap && conn_less(l, l->heap[ch + 1], l->heap[ch]))
            ch++;
        if (!conn_less(l, l->heap[ch], k))
            break;
        conn_put(l, i, l->heap[ch]);
        i = ch;
    }
    conn_put(l, i, k);
}

/* The connection of call e's message (models).  Returns 0 when the call
 * must wait for a free connection of a pool (it is sent later). */
static int conn_open(mt_sim *s, const ev *e)
{
    spath *p = e->path;
    smsg *m = &p->buf[e->msg];
    lstate *l = mts_ls(s, m->src, m->dst);
    if (!l)
        return 0;
    int cnt, model = mt_conn_of(s->cfg, m->src, m->dst, &cnt);
    if (m->type == PB_TYPE_MSG)
        model = MT_CONN_NEW;
    if (model == MT_CONN_NEW) {
        m->conn = ++l->next;
        return 1;
    }
    if (model == MT_CONN_POOL) {
        if (l->ids.inuse >= (uint32_t)cnt) {
            mts_wait_push(s, l, e);
            return 0;
        }
        m->conn = mts_id_take(s, &l->ids) + 1;
        return 1;
    }
    /* pipelined, multiplexed: the connection with the fewest calls
     * outstanding, lowest first.  Connections are used in number order
     * (an unused one has none outstanding and a number above every used
     * one), so the used ones are 0 .. nheap-1, kept in a heap by (calls
     * outstanding, number): its top, unless it has calls outstanding and
     * an unused connection is left.  The same choice as a scan of all
     * conns=K, in O(log K) a call instead of O(K). */
    if (!l->c)
        l->c = calloc((size_t)cnt, sizeof *l->c);
    if (!l->heap)
        l->heap = malloc((size_t)cnt * sizeof *l->heap);
    if (!l->c || !l->heap) {
        s->oom = 1;
        return 0;
    }
    uint32_t best;
    if (l->nheap && (l->c[l->heap[0]].n == 0 || l->nheap >= (uint32_t)cnt)) {
        best = l->heap[0];
    } else {
        best = l->nheap++;
        l->nc = (int)l->nheap;
        l->heap[best] = best;
        l->c[best].hpos = best;
    }
    m->conn = best + 1;
    if (model == MT_CONN_PIPELINED) {
        m->pseq = l->c[best].hseq + (uint32_t)l->c[best].n;
        mts_pend_push(s, &l->c[best], p, e->msg);
    } else {
        l->c[best].n++;
    }
    conn_fix(l, best);
    return 1;
}

/* Send a held-back message at the current time. */
static void send_late(mt_sim *s, ev *e)
{
    e->path->buf[e->msg].ts = s->now;
    e->t = s->now;
    send_now(s, e);
}

/* Reply e is ready to go (models).  Returns 0 when it waits behind the
 * replies to earlier calls on its pipelined connection. */
static int conn_reply(mt_sim *s, const ev *e)
{
    spath *p = e->path;
    smsg *m = &p->buf[e->msg];
    const smsg *c = &p->buf[m->pair];
    int cnt, model = mt_conn_of(s->cfg, c->src, c->dst, &cnt);
    m->conn = c->conn;
    if (model != MT_CONN_MUX && model != MT_CONN_PIPELINED)
        return 1;
    lstate *l = mts_ls(s, c->src, c->dst);
    if (!l)
        return 1;
    if (model == MT_CONN_MUX) {
        l->c[c->conn - 1].n--;
        conn_fix(l, c->conn - 1);
        return 1;
    }
    /* its call's place in the queue from its sequence number (a scan of
     * the queue cost the calls outstanding on the connection, for every
     * reply) */
    cstate *q = &l->c[c->conn - 1];
    size_t i = (uint32_t)(c->pseq - q->hseq);
    if (i < q->n) {
        pend *pe = &q->v[(q->h + i) % q->cap];
        if (pe->path == p && pe->call == m->pair) {
            if (i == 0)
                return 1;
            pe->ready = 1;
            pe->e = *e;
            return 0;
        }
    }
    return 1;
}

/* After the reply at the head of a pipelined connection is sent: the
 * replies that waited behind it go, in call order. */
static void conn_reply_sent(mt_sim *s, const ev *e)
{
    spath *p = e->path;
    const smsg *m = &p->buf[e->msg];
    const smsg *c = &p->buf[m->pair];
    int cnt;
    if (mt_conn_of(s->cfg, c->src, c->dst, &cnt) != MT_CONN_PIPELINED)
        return;
    lstate *l = mts_ls(s, c->src, c->dst);
    if (!l)
        return;
    uint32_t k = c->conn - 1;
    cstate *q = &l->c[k];
    if (!q->n || q->v[q->h].path != p || q->v[q->h].call != m->pair)
        return;
    q->h = (q->h + 1) % q->cap;
    q->n--;
    q->hseq++;
    conn_fix(l, k);
    while (q->n && q->v[q->h].ready && !s->oom) {
        ev x = q->v[q->h].e;
        q->h = (q->h + 1) % q->cap;
        q->n--;
        q->hseq++;
        conn_fix(l, k);
        send_late(s, &x); /* (send_now does not come back here) */
    }
}

/* A worker of bounded pool node x takes call j from the queue at time t;
 * with batch B > 1 its read takes up to B - 1 more queued calls, all
 * received now by that worker, which serves them one after the other. */
static void batch_read(mt_sim *s, job *j, uint32_t x, pb_ns t)
{
    const mt_exec *e = &s->cfg->exec[x];
    wqueue *q = &s->wq[x];
    nstate *n = &s->ns[x];
    if (e->model != MT_EXEC_POOL || e->batch <= 1 || !q->n)
        return;
    uint32_t w = mts_id_take(s, &n->ids);
    j->wid1 = w + 1;
    smsg *c0 = &j->path->buf[j->msg];
    c0->rthr = TH(TH_W, 0, w);
    if (t > c0->recv)
        c0->recv = t;
    if (w >= n->nbacklog) {
        uint32_t cap = n->nbacklog ? 2 * n->nbacklog : 8;
        while (cap <= w)
            cap *= 2;
        wqueue *nb = realloc(n->backlog, cap * sizeof *nb);
        if (!nb) {
            s->oom = 1;
            return;
        }
        memset(nb + n->nbacklog, 0, (cap - n->nbacklog) * sizeof *nb);
        n->backlog = nb;
        n->nbacklog = cap;
    }
    for (int k = 1; k < e->batch && q->n; k++) {
        job b = mts_wq_pop(q);
        b.wid1 = w + 1;
        smsg *c = &b.path->buf[b.msg];
        c->rthr = TH(TH_W, 0, w);
        if (t > c->recv)
            c->recv = t;
        mts_wq_push(s, &n->backlog[w], b);
    }
}

static void send_now(mt_sim *s, const ev *e)
{
    spath *p = e->path;
    smsg *m = &p->buf[e->msg];
    if (!s->cfg->tr[p->tr].interleave)
        m->recv = mt_tadd(m->ts, mt_net(s->rng, &s->cfg->s));
    mts_out_push(s, p, (uint32_t)e->msg);
    ev r = *e;
    r.kind = EV_RECV;
    r.t = m->recv;
    mts_ev_push(s, r); /* still in flight: live unchanged */
    wqueue *bl = NULL;
    uint32_t wid = 0;
    if (s->cfg->models && m->type == PB_TYPE_RETURN && TH_KIND(m->sthr) == TH_W) {
        nstate *n = &s->ns[m->src];
        wid = TH_ID(m->sthr);
        if (wid < n->nbacklog && n->backlog[wid].n)
            bl = &n->backlog[wid]; /* it goes on with a call it read before */
        else
            mts_id_give(s, &n->ids, wid); /* the worker is free */
    }
    if (e->held >= 0) {
        /* the return is sent: the worker serves the next call in line */
        wqueue *q = &s->wq[e->held];
        if (bl) {
            job j = mts_wq_pop(bl);
            mts_start_job(s, &j, e->t, e->held);
        } else if (q->n) {
            job j = mts_wq_pop(q);
            pb_ns t = e->t;
            if (s->cfg->models) {
                /* with threads: the worker reads the next call 1 ns after
                 * its send, so a trace's time order shows the two apart */
                t = mt_tadd(t, 1);
                batch_read(s, &j, (uint32_t)e->held, t);
            }
            mts_start_job(s, &j, t, e->held);
        } else {
            q->busy--;
        }
    }
}

static void on_send(mt_sim *s, const ev *e)
{
    if (s->cfg->models && !s->cfg->tr[e->path->tr].interleave) {
        uint8_t type = e->path->buf[e->msg].type;
        if (type == PB_TYPE_RETURN ? !conn_reply(s, e) : !conn_open(s, e))
            return; /* held back: still in flight */
    }
    send_now(s, e);
    if (s->cfg->models && !s->cfg->tr[e->path->tr].interleave &&
        e->path->buf[e->msg].type == PB_TYPE_RETURN)
        conn_reply_sent(s, e);
}

/* A return reached its caller (models): a pool connection is free again;
 * the caller's thread receives it, and may hand the continuation to
 * another worker. */
static void model_return(mt_sim *s, const ev *e, frame *f)
{
    spath *p = e->path;
    smsg *m = &p->buf[e->msg];
    const smsg *c = &p->buf[m->pair];
    int cnt;
    lstate *l;
    if (mt_conn_of(s->cfg, c->src, c->dst, &cnt) == MT_CONN_POOL &&
        (l = mts_ls(s, c->src, c->dst)) != NULL) {
        mts_id_give(s, &l->ids, c->conn - 1);
        if (l->wn) {
            ev w = l->wait[l->wh];
            l->wh = (l->wh + 1) % l->wcap;
            l->wn--;
            if (conn_open(s, &w))
                send_late(s, &w);
        }
    }
    frame *jf = f->job;
    m->rthr = jf->thr;
    s->cur_thr = jf->thr;
    if (jf->kind != F_CALL)
        return;
    const mt_exec *x = &s->cfg->exec[f->node];
    if ((x->model != MT_EXEC_POOL && x->model != MT_EXEC_DISPATCHER) || x->handoff <= 0)
        return;
    if (gsl_rng_uniform(s->rng) >= x->handoff)
        return;
    /* hand-off: the continuation runs on the lowest free other worker (none
     * free in a bounded pool: it stays) */
    idalloc *ids = &s->ns[f->node].ids;
    int k2 = s->cfg->workers ? s->cfg->workers[f->node] : 0;
    if (k2 && ids->inuse >= (uint32_t)k2)
        return;
    uint32_t nid = mts_id_take(s, ids);
    mts_id_give(s, ids, TH_ID(jf->thr));
    jf->thr = TH(TH_W, 0, nid);
    s->cur_thr = jf->thr;
}

static void on_recv(mt_sim *s, const ev *e)
{
    spath *p = e->path;
    smsg *m = &p->buf[e->msg];
    const mt_config *cfg = s->cfg;
    int models = cfg->models && !cfg->tr[p->tr].interleave;
    if (cfg->tr[p->tr].interleave) {
        /* nothing waits on an interleaving's messages */
    } else if (m->type == PB_TYPE_RETURN) {
        frame *f = e->fr;
        int done = 0;
        if (models) {
            model_return(s, e, f);
            if (f->job->kind != F_ROOT) {
                input in = {IN_RET, {0}, p, f, NULL, e->msg};
                done = model_input(s, f->node, &in, e->t);
            }
        }
        if (!done)
            mts_resume(s, f, e->msg, m->recv);
    } else if (m->type == PB_TYPE_MSG) {
        int done = 0;
        uint64_t thr = 0;
        if (models) {
            input in = {IN_MSG, {0}, p, NULL, e->op, e->msg};
            done = model_input(s, m->dst, &in, e->t);
            if (!done) /* pool: a thread of its own */
                m->rthr = thr = TH(TH_M, 0, s->ns[m->dst].mnext++);
        }
        if (!done)
            mts_start_msg(s, p, e->op, e->msg, m->recv, thr);
    } else {
        job j = {p, e->fr, e->op, e->msg, 1, 0};
        if (e->op->join >= 0) {
            uint32_t g = (uint32_t)e->op->join;
            j.block = ++p->jarr[g] == s->cfg->tr[p->tr].join_parts[g];
        }
        uint32_t dst = m->dst;
        int done = 0;
        if (models) {
            if (cfg->exec[dst].model == MT_EXEC_DISPATCHER)
                m->rthr = TH(TH_D, 0, 0);
            input in = {IN_CALL, j, p, NULL, NULL, e->msg};
            done = model_input(s, dst, &in, e->t);
        }
        int k = s->cfg->workers ? s->cfg->workers[dst] : 0;
        if (done) {
        } else if (!k) {
            mts_start_job(s, &j, m->recv, -1);
        } else if (s->wq[dst].busy < k) {
            s->wq[dst].busy++;
            mts_start_job(s, &j, m->recv, (int32_t)dst);
        } else {
            mts_wq_push(s, &s->wq[dst], j);
        }
    }
    p->live--;
    mts_mark_done(s, p);
}

static void on_free(mt_sim *s, const ev *e)
{
    nstate *n = &s->ns[e->fnode];
    if (e->fstage) {
        mts_id_give(s, &n->sids[e->fstage - 1], e->fid);
        return;
    }
    n->tbusy[e->fid] = 0;
    event_dispatch(s, e->fnode, e->t);
}

/* Process one event.  Returns 0 when there is none left. */
int mts_step(mt_sim *s)
{
    if (s->finished || s->nheap == 0) {
        if (!s->finished)
            mts_stop_all(s);
        return 0;
    }
    ev e = mts_ev_pop(s);
    if (s->cfg->s.duration > 0 && e.t > s->cfg->s.duration) {
        /* whatever is still open ends after the duration */
        mts_stop_all(s);
        return 0;
    }
    s->now = e.t;
    if (e.kind == EV_SEND)
        on_send(s, &e);
    else if (e.kind == EV_RECV)
        on_recv(s, &e);
    else
        on_free(s, &e);
    mts_drain_done(s);
    return 1;
}

