/*
 * imp_events.c - events to messages (docs/importer.md, "Syscall captures").
 * From observed sends and receipts of whole messages (an eBPF probe that
 * parsed them: imp_ebpf.c) to the message trace.  pbcapture folders and
 * pcap files, whose byte streams need HTTP framing first, take the
 * parallel path of imp_capture*.c (docs/capture.md) by the same rules.
 *
 *  1. A message is one application request or response.  Its send (at the
 *     sender's socket) and its receipt (at the receiver's) meet on their
 *     flow (sender endpoint -> receiver endpoint of one TCP connection): by
 *     stream position (TCP sequence number) when both carry one, else by
 *     order.  A side that is not observed is either an uncaptured peer (its
 *     address belongs to no observed process: the load generator) or a
 *     lost event (counted: lost_at_sender / lost_at_receiver).
 *  2. On a connection the k-th request is answered by the k-th response
 *     (HTTP/1.1, pipelined or not): a call and its return.
 *  3. Nodes are processes (named by the address they serve on), or, for
 *     uncaptured peers, their IP address.  `thread` is the OS thread that
 *     received a message, `sthread` the one that sent it, `conn` the
 *     connection's 4-tuple.
 *  4. Truth: a request's path is its request id (the header, imp_ebpf.c);
 *     a response takes its request's.  The cause of a message sent by node
 *     x is the latest message of the same path that x received before
 *     sending it (on x's clock), else none.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "imp_int.h"

#define NONE UINT32_MAX

typedef struct emsg {
    uint32_t sev, rev;        /* send / receipt event, or NONE */
    uint32_t conn;            /* connection index */
    uint32_t flowpos;         /* order on its flow */
    uint8_t kind, fwd;        /* fwd: sent from the connection's lower endpoint */
    uint32_t ret;             /* requests: the response answering it, or NONE */
    uint32_t req;             /* responses: the request, or NONE */
    uint32_t src, dst;        /* nodes */
    pb_ns ts, recv_ts;
    uint64_t path;
    uint32_t out;             /* index in the output order */
} emsg;

typedef struct conn_key {
    uint64_t a, b;            /* endpoints (ip << 16 | port), a < b */
} conn_key;

static uint64_t endp(uint32_t ip, uint16_t port) { return ((uint64_t)ip << 16) | port; }

static const imp_event *g_ev; /* for qsort comparators (single-threaded) */

/* events by (connection, sender endpoint, send/recv, position) */
typedef struct ekey {
    uint64_t ca, cb, from;
    uint8_t send;
    uint8_t has_seq;
    uint32_t seq;
    pb_ns t;
    uint32_t ev;
} ekey;

static int cmp_ekey(const void *x, const void *y)
{
    const ekey *p = x, *q = y;
    if (p->ca != q->ca) return p->ca < q->ca ? -1 : 1;
    if (p->cb != q->cb) return p->cb < q->cb ? -1 : 1;
    if (p->from != q->from) return p->from < q->from ? -1 : 1;
    if (p->send != q->send) return p->send < q->send ? -1 : 1;
    if (p->t != q->t) return p->t < q->t ? -1 : 1;
    return p->ev < q->ev ? -1 : p->ev > q->ev;
}

typedef struct u64map { /* sorted (key, value) pairs */
    uint64_t *k;
    uint32_t *v;
    size_t n;
} u64map;

typedef struct kv {
    uint64_t k;
    uint32_t v;
} kv;

static int cmp_kv(const void *x, const void *y)
{
    const kv *p = x, *q = y;
    if (p->k != q->k) return p->k < q->k ? -1 : 1;
    return p->v < q->v ? -1 : p->v > q->v;
}

static int find_kv(const kv *a, size_t n, uint64_t k, uint32_t *v)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t m = lo + (hi - lo) / 2;
        if (a[m].k < k) lo = m + 1; else hi = m;
    }
    if (lo < n && a[lo].k == k) {
        *v = a[lo].v;
        return 1;
    }
    return 0;
}

/* index of process p in the sorted, distinct procs[0..n) (p is there) */
static size_t proc_index(const kv *procs, size_t n, uint64_t p)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t m = lo + (hi - lo) / 2;
        if (procs[m].k < p) lo = m + 1; else hi = m;
    }
    return lo;
}

static const emsg *g_m;

static int cmp_out(const void *x, const void *y)
{
    const emsg *p = &g_m[*(const uint32_t *)x], *q = &g_m[*(const uint32_t *)y];
    if (p->ts != q->ts) return p->ts < q->ts ? -1 : 1;
    if (p->recv_ts != q->recv_ts) return p->recv_ts < q->recv_ts ? -1 : 1;
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

/* receipts by (node, path, time, output index) for causes */
typedef struct rkey {
    uint32_t node;
    uint64_t path;
    pb_ns t;
    uint32_t out;
} rkey;

static int cmp_rkey(const void *x, const void *y)
{
    const rkey *p = x, *q = y;
    if (p->node != q->node) return p->node < q->node ? -1 : 1;
    if (p->path != q->path) return p->path < q->path ? -1 : 1;
    if (p->t != q->t) return p->t < q->t ? -1 : 1;
    return p->out < q->out ? -1 : p->out > q->out;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

static void ip_text(uint32_t ip, char *buf, size_t n)
{
    /* the capture stores addresses in host order: a.b.c.d = ip >> 24 ... */
    snprintf(buf, n, "%u.%u.%u.%u", ip >> 24, (ip >> 16) & 255, (ip >> 8) & 255, ip & 255);
}

const char *imp_events_summary(const imp_importer *im)
{
    return im->ev_summary.len ? pb_strbuf_str(&im->ev_summary) : NULL;
}

static const struct {
    const char *name, *help;
} evc_info[IMP_EVN] = {
    {"entries", "capture entries (request/response pairs seen at one socket)"},
    {"events", "sends and receipts of HTTP requests and responses"},
    {"skipped_dns", "DNS look-ups: not requests of the traced system, left out"},
    {"skipped_other", "entries of another protocol than HTTP/1 over TCP: left out"},
    {"messages", "messages written"},
    {"requests", "distinct request ids (path instances)"},
    {"calls", "requests (calls)"},
    {"returns", "responses (returns)"},
    {"uncaptured_sender", "messages from a peer whose address no observed "
                          "process has (a load generator): both timestamps "
                          "from the receipt, no sthread"},
    {"uncaptured_receiver", "messages to an unobserved peer: both timestamps "
                            "from the send, no thread"},
    {"lost_at_sender", "messages whose send the capture lost (the sender is "
                       "observed): both timestamps from the receipt, no sthread"},
    {"lost_at_receiver", "messages whose receipt the capture lost: both "
                         "timestamps from the send, no thread"},
    {"lost_calls", "calls seen at one end only although both ends are observed"},
    {"unanswered_calls", "requests no response answers: calls without return"},
    {"orphan_responses", "responses with no request before them on their "
                         "connection: left out"},
    {"no_request_id", "requests without the request-id header: in no path"},
    {"order_mismatch", "flows whose sends and receipts could only be met by "
                       "order and differ in number"},
    {"processes", "observed processes (nodes)"},
    {"threads", "OS threads seen"},
    {"connections", "TCP connections"},
};

int imp_events_finish(imp_importer *im, pb_trace **out, pb_error *err)
{
    const imp_event *ev = im->evs;
    const size_t ne = im->nev;
    pb_trace *t = im->trace;
    int rc = PB_ENOMEM;
    ekey *ek = malloc((ne + 1) * sizeof *ek);
    emsg *m = malloc((ne + 1) * sizeof *m);
    kv *ips = malloc((ne + 1) * sizeof *ips);       /* local ip -> proc */
    kv *eps = malloc((ne + 1) * sizeof *eps);       /* local endpoint -> proc */
    kv *procs = malloc((ne + 1) * sizeof *procs);   /* proc -> node */
    uint32_t *ord = malloc((ne + 1) * sizeof *ord);
    rkey *rk = malloc((ne + 1) * sizeof *rk);
    uint32_t *byout = malloc((ne + 1) * sizeof *byout);
    size_t nm = 0, nips = 0, neps = 0, nprocs = 0, nconn = 0;
    if (!ek || !m || !ips || !eps || !procs || !ord || !rk || !byout)
        goto out;
    if (!ne) {
        rc = pb_error_set(err, PB_EPARSE, im->nfiles ? im->files[0] : NULL, 0, 0,
                          "the capture holds no HTTP request or response; expected "
                          "at least one");
        goto out;
    }
    im->evc[IMP_EVC_EVENTS] = ne;
    /* observed addresses and endpoints */
    for (size_t i = 0; i < ne; i++) {
        ips[nips++] = (kv){ev[i].lip, ev[i].proc};
        eps[neps++] = (kv){endp(ev[i].lip, ev[i].lport), ev[i].proc};
        procs[nprocs++] = (kv){ev[i].proc, NONE};
    }
    qsort(ips, nips, sizeof *ips, cmp_kv);
    qsort(eps, neps, sizeof *eps, cmp_kv);
    qsort(procs, nprocs, sizeof *procs, cmp_kv);
    size_t w = 0;
    for (size_t i = 0; i < nprocs; i++)
        if (!w || procs[w - 1].k != procs[i].k)
            procs[w++] = procs[i];
    nprocs = w;
    im->evc[IMP_EVC_PROCESSES] = nprocs;
    /* threads: distinct labels */
    {
        uint8_t *seen = calloc(pb_strtab_count(t->names->labels) + 2, 1);
        if (!seen)
            goto out;
        size_t nt = 0;
        for (size_t i = 0; i < ne; i++)
            if (!seen[ev[i].thread]) {
                seen[ev[i].thread] = 1;
                nt++;
            }
        free(seen);
        im->evc[IMP_EVC_THREADS] = nt;
    }
    /* process names: the endpoint a process first received a request on */
    for (size_t i = 0; i < ne; i++) {
        const imp_event *e = &ev[i];
        size_t pi = proc_index(procs, nprocs, e->proc);
        if (procs[pi].v != NONE || e->send || e->kind != IMP_EV_REQUEST)
            continue;
        char nb[64], ib[32];
        ip_text(e->lip, ib, sizeof ib);
        int l = snprintf(nb, sizeof nb, "%s:%u", ib, e->lport);
        if (pb_strtab_intern(t->names->nodes, nb, (size_t)l, &procs[pi].v) != PB_OK)
            goto out;
    }
    for (size_t pi = 0; pi < nprocs; pi++)
        if (procs[pi].v == NONE) {
            char nb[64];
            int l = snprintf(nb, sizeof nb, "pid%llu", (unsigned long long)procs[pi].k);
            if (pb_strtab_intern(t->names->nodes, nb, (size_t)l, &procs[pi].v) != PB_OK)
                goto out;
        }

    /* 1. flows: sends and receipts meet */
    g_ev = ev;
    for (size_t i = 0; i < ne; i++) {
        const imp_event *e = &ev[i];
        uint64_t l = endp(e->lip, e->lport), r = endp(e->rip, e->rport);
        ek[i] = (ekey){l < r ? l : r, l < r ? r : l, e->send ? l : r, e->send,
                       e->has_seq, e->seq, e->t, (uint32_t)i};
    }
    qsort(ek, ne, sizeof *ek, cmp_ekey);
    for (size_t a = 0; a < ne;) {
        size_t b = a;
        while (b < ne && ek[b].ca == ek[a].ca && ek[b].cb == ek[a].cb && ek[b].from == ek[a].from)
            b++;
        if (a == 0 || ek[a].ca != ek[a - 1].ca || ek[a].cb != ek[a - 1].cb)
            nconn++;
        size_t s0 = a, s1 = a;
        while (s1 < b && ek[s1].send == 0)
            s1++;
        /* [a, s1) receipts, [s1, b) sends */
        size_t r0 = a, r1 = s1;
        s0 = s1;
        s1 = b;
        int seq_all = 1;
        for (size_t k = a; k < b; k++)
            seq_all &= ek[k].has_seq;
        size_t i = r0, j = s0;
        uint32_t pos = 0;
        if (!seq_all && (r1 - r0) && (s1 - s0) && r1 - r0 != s1 - s0)
            imp_ev_count(im, IMP_EVC_ORDER_MISMATCH, ev[ek[a].ev].file, ev[ek[a].ev].entry);
        /* by sequence: both lists sorted by time; a stream's positions grow
         * with time, so merging by seq keeps order */
        while (i < r1 || j < s1) {
            uint32_t se = NONE, re = NONE;
            if (seq_all) {
                if (j < s1 && (i >= r1 || ek[j].seq == ek[i].seq)) {
                    se = ek[j++].ev;
                    if (i < r1 && ev[se].seq == ek[i].seq)
                        re = ek[i++].ev;
                } else if (i < r1 && (j >= s1 || (int32_t)(ek[i].seq - ek[j].seq) < 0)) {
                    re = ek[i++].ev;
                } else {
                    se = ek[j++].ev;
                }
            } else {
                if (j < s1)
                    se = ek[j++].ev;
                if (i < r1)
                    re = ek[i++].ev;
            }
            const imp_event *x = se != NONE ? &ev[se] : &ev[re];
            emsg *q = &m[nm++];
            memset(q, 0, sizeof *q);
            q->sev = se;
            q->rev = re;
            q->conn = (uint32_t)nconn - 1;
            q->flowpos = pos++;
            q->kind = x->kind;
            uint64_t from = ek[a].from;
            q->fwd = from == ek[a].ca;
            q->ret = q->req = NONE;
            q->path = PB_ID_NONE;
            if (se != NONE && ev[se].rid != PB_ID_NONE)
                q->path = ev[se].rid;
            else if (re != NONE)
                q->path = ev[re].rid;
        }
        a = b;
    }
    im->evc[IMP_EVC_CONNECTIONS] = nconn;
    /* 2. on each connection the k-th request is answered by the k-th
     * response: messages are grouped by (connection, direction) already */
    for (size_t a = 0; a < nm;) {
        size_t b = a;
        while (b < nm && m[b].conn == m[a].conn)
            b++;
        /* requests of each direction, answered in order by the other's
         * responses */
        for (int dir = 0; dir < 2; dir++) {
            size_t qi = a, ri = a;
            for (;;) {
                while (qi < b && !(m[qi].fwd == dir && m[qi].kind == IMP_EV_REQUEST))
                    qi++;
                while (ri < b && !(m[ri].fwd != dir && m[ri].kind == IMP_EV_RESPONSE))
                    ri++;
                if (qi >= b || ri >= b)
                    break;
                m[qi].ret = (uint32_t)ri;
                m[ri].req = (uint32_t)qi;
                qi++;
                ri++;
            }
        }
        a = b;
    }
    /* 3. nodes, times, counts */
    for (size_t k = 0; k < nm; k++) {
        emsg *q = &m[k];
        const imp_event *s = q->sev != NONE ? &ev[q->sev] : NULL;
        const imp_event *r = q->rev != NONE ? &ev[q->rev] : NULL;
        const imp_event *x = s ? s : r;
        if (q->kind == IMP_EV_RESPONSE && q->req == NONE) {
            imp_ev_count(im, IMP_EVC_ORPHAN_RESPONSES, x->file, x->entry);
            q->kind = 255; /* dropped */
            continue;
        }
        uint32_t sip = s ? s->lip : r->rip, rip = r ? r->lip : s->rip;
        uint16_t sport = s ? s->lport : r->rport, rport = r ? r->lport : s->rport;
        uint32_t node[2];
        for (int side = 0; side < 2; side++) {
            const imp_event *own = side ? r : s;
            uint32_t ip = side ? rip : sip;
            uint16_t port = side ? rport : sport;
            uint32_t proc;
            if (own)
                proc = own->proc;
            else if (!find_kv(eps, neps, endp(ip, port), &proc) &&
                     !find_kv(ips, nips, ip, &proc))
                proc = NONE;
            if (proc != NONE) {
                node[side] = procs[proc_index(procs, nprocs, proc)].v;
                if (!own)
                    imp_ev_count(im, side ? IMP_EVC_LOST_AT_RECEIVER : IMP_EVC_LOST_AT_SENDER,
                                 x->file, x->entry);
            } else {
                char ib[32];
                ip_text(ip, ib, sizeof ib);
                if (pb_strtab_intern(t->names->nodes, ib, strlen(ib), &node[side]) != PB_OK)
                    goto out;
                imp_ev_count(im, side ? IMP_EVC_UNCAPTURED_RECEIVER : IMP_EVC_UNCAPTURED_SENDER,
                             x->file, x->entry);
            }
        }
        if (q->kind == IMP_EV_REQUEST && (!s || !r)) {
            uint32_t pr;
            int other_observed = !s ? find_kv(ips, nips, sip, &pr) : find_kv(ips, nips, rip, &pr);
            if (other_observed)
                imp_ev_count(im, IMP_EVC_LOST_CALLS, x->file, x->entry);
        }
        q->src = node[0];
        q->dst = node[1];
        q->ts = s ? s->t : r->t;
        q->recv_ts = r ? r->t : s->t;
        if (q->kind == IMP_EV_RESPONSE)
            q->path = m[q->req].path;
    }
    /* 4. output order, ids, truth */
    size_t no = 0;
    for (size_t k = 0; k < nm; k++)
        if (m[k].kind != 255)
            ord[no++] = (uint32_t)k;
    g_m = m;
    qsort(ord, no, sizeof *ord, cmp_out);
    for (size_t o = 0; o < no; o++) {
        m[ord[o]].out = (uint32_t)o;
        byout[o] = ord[o];
    }
    size_t nr = 0;
    for (size_t o = 0; o < no; o++) {
        const emsg *q = &m[byout[o]];
        if (q->path != PB_ID_NONE)
            rk[nr++] = (rkey){q->dst, q->path, q->recv_ts, (uint32_t)o};
    }
    qsort(rk, nr, sizeof *rk, cmp_rkey);
    /* request ids: distinct paths of calls */
    {
        uint64_t *paths = malloc((no + 1) * sizeof *paths);
        if (!paths)
            goto out;
        size_t np = 0;
        for (size_t o = 0; o < no; o++)
            if (m[byout[o]].path != PB_ID_NONE && m[byout[o]].kind == IMP_EV_REQUEST)
                paths[np++] = m[byout[o]].path;
        qsort(paths, np, sizeof *paths, cmp_u64);
        for (size_t i = 0; i < np; i++)
            im->evc[IMP_EVC_REQUESTS] += !i || paths[i] != paths[i - 1];
        free(paths);
    }
    char lb[200];
    for (size_t o = 0; o < no; o++) {
        const emsg *q = &m[byout[o]];
        const imp_event *s = q->sev != NONE ? &ev[q->sev] : NULL;
        const imp_event *r = q->rev != NONE ? &ev[q->rev] : NULL;
        const imp_event *x = s ? s : r;
        pb_msg msg;
        memset(&msg, 0, sizeof msg);
        msg.id = o + 1;
        msg.ts = q->ts;
        msg.recv_ts = q->recv_ts;
        msg.src = q->src;
        msg.dst = q->dst;
        msg.type = q->kind == IMP_EV_REQUEST ? PB_TYPE_CALL : PB_TYPE_RETURN;
        msg.thread = r ? r->thread : 0;
        msg.sthread = s ? s->thread : 0;
        msg.attr = x->attr;
        msg.size = x->size;
        msg.callid = PB_ID_NONE;
        /* the connection: its lower endpoint first */
        {
            uint32_t aip = s ? s->lip : r->rip, bip = r ? r->lip : s->rip;
            uint16_t ap = s ? s->lport : r->rport, bp = r ? r->lport : s->rport;
            if (endp(aip, ap) > endp(bip, bp)) {
                uint32_t ti = aip; aip = bip; bip = ti;
                uint16_t tp = ap; ap = bp; bp = tp;
            }
            char ia[32], ib[32];
            ip_text(aip, ia, sizeof ia);
            ip_text(bip, ib, sizeof ib);
            int l = snprintf(lb, sizeof lb, "%s:%u-%s:%u", ia, ap, ib, bp);
            if (pb_obs_label(t->names, lb, (size_t)l, &msg.conn) != PB_OK)
                goto out;
            if (im->opts.callid) {
                const emsg *cq = q->kind == IMP_EV_REQUEST ? q : &m[q->req];
                l = snprintf(lb, sizeof lb, "%s:%u-%s:%u#%u", ia, ap, ib, bp, cq->flowpos);
                if (pb_label_parse(t->names, lb, (size_t)l, &msg.callid) != PB_OK)
                    goto out;
            }
        }
        pb_truth tr = {q->path, PB_ID_NONE};
        if (q->kind == IMP_EV_REQUEST) {
            im->evc[IMP_EVC_CALLS]++;
            if (q->path == PB_ID_NONE)
                imp_ev_count(im, IMP_EVC_NO_REQUEST_ID, x->file, x->entry);
            if (q->ret == NONE)
                imp_ev_count(im, IMP_EVC_UNANSWERED, x->file, x->entry);
        } else {
            im->evc[IMP_EVC_RETURNS]++;
        }
        if (q->path != PB_ID_NONE) {
            /* the latest receipt of this path at the sender, before it */
            size_t lo = 0, hi = nr;
            rkey key = {q->src, q->path, q->ts, (uint32_t)o};
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (cmp_rkey(&rk[mid], &key) <= 0) lo = mid + 1; else hi = mid;
            }
            while (lo > 0 && rk[lo - 1].node == q->src && rk[lo - 1].path == q->path &&
                   rk[lo - 1].out >= o)
                lo--;
            if (lo > 0 && rk[lo - 1].node == q->src && rk[lo - 1].path == q->path)
                tr.cause = rk[lo - 1].out + 1;
        }
        if (pb_trace_append(t, &msg, &tr) != PB_OK)
            goto out;
    }
    im->evc[IMP_EVC_MESSAGES] = no;
    t->columns = PB_COL_ALL | PB_COL_THREAD | PB_COL_STHREAD | PB_COL_CONN | PB_COL_ATTR |
                 PB_COL_SIZE;
    if (!im->opts.callid)
        t->columns &= ~(unsigned)PB_COL_CALLID;
    /* metadata and summary */
    {
        pb_strbuf sb = {0};
        const char *hn = im->opts.request_id ? im->opts.request_id : "X-Request-Id";
        rc = pb_strbuf_printf(&sb, "generator=importtrace format=ebpf callid=%d "
                                   "request_id=%s", im->opts.callid ? 1 : 0, hn);
        if (rc == PB_OK)
            rc = pb_trace_add_meta(t, pb_strbuf_str(&sb));
        pb_strbuf_reset(&sb);
        if (rc == PB_OK)
            rc = pb_strbuf_puts(&sb, "importtrace");
        for (int c = 0; c < IMP_EVN && rc == PB_OK; c++)
            rc = pb_strbuf_printf(&sb, " %s=%zu", evc_info[c].name, im->evc[c]);
        if (rc == PB_OK)
            rc = pb_trace_add_meta(t, pb_strbuf_str(&sb));
        if (rc == PB_OK)
            rc = pb_trace_add_meta(t, "observed: thread sthread conn from the capture "
                                      "(OS thread ids at each send and receipt, TCP "
                                      "4-tuples); attr and size from the payload");
        pb_strbuf_free(&sb);
        if (rc == PB_OK && im->opts.thread)
            rc = pb_strbuf_puts(&im->ev_summary,
                                "--thread ignored: the capture observes its threads\n");
        for (int c = 0; c < IMP_EVN && rc == PB_OK; c++) {
            if (!im->evc[c])
                continue;
            rc = pb_strbuf_printf(&im->ev_summary, "%s=%zu: %s", evc_info[c].name,
                                  im->evc[c], evc_info[c].help);
            if (rc == PB_OK && im->ev_first[c] && c >= IMP_EVC_SKIPPED_DNS &&
                c != IMP_EVC_MESSAGES && c != IMP_EVC_REQUESTS && c != IMP_EVC_CALLS &&
                c != IMP_EVC_RETURNS && c < IMP_EVC_PROCESSES)
                rc = pb_strbuf_printf(&im->ev_summary, " (first: %s)", im->ev_first[c]);
            if (rc == PB_OK)
                rc = pb_strbuf_puts(&im->ev_summary, "\n");
        }
        if (rc != PB_OK)
            goto out;
    }
    if ((rc = pb_trace_sort(t)) != PB_OK)
        goto out;
    *out = t;
    im->trace = NULL;
    rc = PB_OK;
out:
    free(ek);
    free(m);
    free(ips);
    free(eps);
    free(procs);
    free(ord);
    free(rk);
    free(byout);
    if (rc == PB_ENOMEM)
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    if (rc != PB_OK)
        return rc;
    return PB_OK;
}
