/*
 * imp_ebpf.c - a syscall-level capture in the format of DeepTrace's eBPF
 * agent (SIGCOMM'25; docs/capture.md, "eBPF captures"):
 * `{"spans": [{"req": E, "resp": E}, ...]}`, each E one read or write of
 * one application message at a socket, with `tgid` (process), `pid` (OS
 * thread), `timestamp_ns`, `quintuple` (the observing side's address
 * first: src = local, dst = remote), `direction` (Ingress / Egress),
 * `protocol` (HTTP1, DNS, ...), `type` (Request / Response), `enter_seq`
 * and `exit_seq` (TCP sequence numbers around its bytes) and the raw
 * `payload`.
 *
 * What is eBPF-specific stays here: the JSON and its checks, DNS and other
 * protocols counted and left out, and the mapping of each event onto the
 * capture path's segments (imp_capture_int.h): the connection from the
 * 4-tuple and the message type, the sender or receiver view from the
 * direction, the thread from tgid / pid, the stream position from the
 * sequence numbers.  Everything after that -- HTTP framing, sender and
 * receiver views lined up, request k paired with response k, truth from
 * the request-id header, the counts -- is the one capture path
 * (imp_capture_http.c).  The pairing of req with resp at capture is not
 * used: events meet again by position on their connection, which is what
 * a library interposer or a packet capture can also give.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "imp_int.h"
#include "imp_capture_int.h"
#include "pb_strbuf.h"

void imp_ev_count(imp_importer *im, int c, uint32_t file, uint32_t entry)
{
    if (!im->evc[c]++ && !im->ev_first[c]) {
        char buf[512];
        snprintf(buf, sizeof buf, "%s: spans[%u]", im->files[file], entry);
        im->ev_first[c] = strdup(buf); /* NULL on failure: no place said */
    }
}

static int bad(imp_importer *im, pb_error *err, uint32_t file, size_t i,
               const char *side, const char *what)
{
    return imp_fail(im, err, PB_EPARSE, im->files[file], 0, 0, "spans[%zu]%s%s: %s",
                    i, *side ? "." : "", side, what);
}

/* integer member, non-negative and below 2^63 */
static int get_uint(const json_t *o, const char *k, uint64_t *out)
{
    json_t *v = json_object_get(o, k);
    if (!json_is_integer(v) || json_integer_value(v) < 0)
        return 0;
    *out = (uint64_t)json_integer_value(v);
    return 1;
}

static int one_event(imp_importer *im, const json_t *e, uint32_t file, size_t i,
                     const char *side, pb_error *err)
{
    if (!json_is_object(e))
        return bad(im, err, file, i, side, "expected an object");
    uint64_t tgid, pid, ts, sa, da, sp, dp, seq = 0;
    const json_t *q = json_object_get(e, "quintuple");
    if (!get_uint(e, "tgid", &tgid) || tgid > UINT32_MAX)
        return bad(im, err, file, i, side, "\"tgid\": expected a process id");
    /* a capture that records no threads (absent or null "pid") is read,
     * its messages without thread, and counted (no_thread) */
    const json_t *pv = json_object_get(e, "pid");
    int has_pid = pv && !json_is_null(pv);
    if (!has_pid)
        pid = 0;
    else if (!get_uint(e, "pid", &pid))
        return bad(im, err, file, i, side,
                   "\"pid\": expected a thread id (a non-negative integer), or "
                   "absent / null when the capture records no threads");
    if (!get_uint(e, "timestamp_ns", &ts) || ts > (uint64_t)INT64_MAX)
        return bad(im, err, file, i, side,
                   "\"timestamp_ns\": expected nanoseconds (a non-negative integer)");
    if (!json_is_object(q) || !get_uint(q, "src_addr", &sa) || sa > UINT32_MAX ||
        !get_uint(q, "dst_addr", &da) || da > UINT32_MAX ||
        !get_uint(q, "src_port", &sp) || sp > 65535 || !get_uint(q, "dst_port", &dp) ||
        dp > 65535)
        return bad(im, err, file, i, side,
                   "\"quintuple\": expected src_addr, dst_addr (IPv4 as integers), "
                   "src_port, dst_port");
    const char *dir = imp_json_str(e, "direction");
    const char *proto = imp_json_str(e, "protocol");
    const char *type = imp_json_str(e, "type");
    const char *l4 = imp_json_str(q, "l4_protocol");
    if (!dir || (strcmp(dir, "Ingress") && strcmp(dir, "Egress")))
        return bad(im, err, file, i, side, "\"direction\": expected Ingress or Egress");
    if (!proto)
        return bad(im, err, file, i, side, "\"protocol\": expected a string");
    if (!type || (strcmp(type, "Request") && strcmp(type, "Response")))
        return bad(im, err, file, i, side, "\"type\": expected Request or Response");
    if (strcmp(proto, "HTTP1") || (l4 && strcmp(l4, "IPPROTO_TCP"))) {
        if (!strcmp(side, "req"))
            imp_ev_count(im, !strcmp(proto, "DNS") ? IMP_EVC_SKIPPED_DNS
                                                   : IMP_EVC_SKIPPED_OTHER,
                         file, (uint32_t)i);
        return PB_OK;
    }
    json_t *pl = json_object_get(e, "payload");
    /* a payload written as something other than a string (an array of
     * byte values, a number, an object) was read as empty without a word:
     * the request's bytes lost, its pair counted as a response without a
     * request (unrequested); absent or null stays "nothing captured" */
    if (pl && !json_is_null(pl) && !json_is_string(pl))
        return bad(im, err, file, i, side,
                   json_is_array(pl) ? "\"payload\": an array; expected a string "
                                       "(the bytes captured, as one JSON string), or "
                                       "absent / null when none were"
                                     : "\"payload\": expected a string (the bytes "
                                       "captured), or absent / null when none were");
    const char *p = json_is_string(pl) ? json_string_value(pl) : "";
    size_t pn = json_is_string(pl) ? json_string_length(pl) : 0;
    if (pn > UINT32_MAX / 2)
        return bad(im, err, file, i, side, "\"payload\": longer than 2 GiB");
    if (!im->cap) {
        im->cap = malloc(sizeof *im->cap);
        if (!im->cap || cap_init(im->cap) != PB_OK)
            return imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    if (im->nev == im->capev) {
        size_t nc = im->capev ? 2 * im->capev : 1024;
        imp_event *ne = realloc(im->evs, nc * sizeof *ne);
        if (!ne)
            return imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
        im->evs = ne;
        im->capev = nc;
    }
    imp_event ev;
    memset(&ev, 0, sizeof ev);
    ev.proc = (uint32_t)tgid;
    ev.tid = has_pid ? (int64_t)(pid > INT64_MAX ? INT64_MAX : pid) : -1;
    im->cap->st.no_thread += !has_pid;
    ev.t = (pb_ns)ts;
    ev.lip = (uint32_t)sa;
    ev.rip = (uint32_t)da;
    ev.lport = (uint16_t)sp;
    ev.rport = (uint16_t)dp;
    ev.send = !strcmp(dir, "Egress");
    ev.request = !strcmp(type, "Request");
    ev.bytes = pn;
    uint64_t xseq = 0;
    /* a sequence number given but no 32-bit one (2^32 + 9, -9, "9") was
     * taken as absent without a word: the event placed by its time instead
     * of its bytes' place in the stream */
    static const char *const seqk[2] = {"enter_seq", "exit_seq"};
    for (int k = 0; k < 2; k++) {
        const json_t *sv = json_object_get(e, seqk[k]);
        uint64_t x;
        if (sv && !json_is_null(sv) && (!get_uint(e, seqk[k], &x) || x > UINT32_MAX)) {
            char msg[160];
            snprintf(msg, sizeof msg, "\"%s\": expected a TCP sequence number (an integer "
                                      "from 0 to 4294967295), or absent / null", seqk[k]);
            return bad(im, err, file, i, side, msg);
        }
    }
    if (get_uint(e, "enter_seq", &seq) && seq <= UINT32_MAX) {
        ev.has_seq = 1;
        ev.seq = (uint32_t)seq;
        /* the bytes the call moved, when the probe says: the payload may
         * be a prefix */
        if (get_uint(e, "exit_seq", &xseq) && xseq <= UINT32_MAX &&
            (uint32_t)((uint32_t)xseq - ev.seq) >= pn)
            ev.bytes = (uint32_t)((uint32_t)xseq - ev.seq);
    }
    /* the payload into the capture's byte arena; segments point at it */
    cap *c = im->cap;
    if (c->nbytes + pn > c->bytecap) {
        size_t nc = c->bytecap ? c->bytecap * 2 : 1 << 16;
        while (nc < c->nbytes + pn)
            nc *= 2;
        unsigned char *nb = realloc(c->bytes, nc);
        if (!nb)
            return imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
        c->bytes = nb;
        c->bytecap = nc;
    }
    ev.poff = c->nbytes;
    ev.plen = (uint32_t)pn;
    if (pn) {
        memcpy(c->bytes + c->nbytes, p, pn);
        c->nbytes += pn;
    }
    im->evs[im->nev++] = ev;
    return PB_OK;
}

int imp_ebpf_spans(imp_importer *im, json_t *spans, uint32_t file, pb_error *err)
{
    size_t n = json_array_size(spans);
    for (size_t i = 0; i < n; i++) {
        json_t *s = json_array_get(spans, i);
        if (!json_is_object(s))
            return bad(im, err, file, i, "", "expected an object with \"req\" and \"resp\"");
        imp_ev_count(im, IMP_EVC_ENTRIES, file, (uint32_t)i);
        json_t *rq = json_object_get(s, "req"), *rs = json_object_get(s, "resp");
        int rc = one_event(im, rq, file, i, "req", err);
        if (rc == PB_OK && rs && !json_is_null(rs))
            rc = one_event(im, rs, file, i, "resp", err);
        if (rc != PB_OK)
            return rc;
    }
    return PB_OK;
}

/* ------------------------------------------------------------------ */
/* events -> the capture path's segments */

void imp_events_free(imp_importer *im)
{
    free(im->evs);
    if (im->cap)
        cap_free(im->cap);
    free(im->cap);
}

const char *imp_events_summary(const imp_importer *im)
{
    return im->ev_summary.len ? pb_strbuf_str(&im->ev_summary) : NULL;
}

static void ip_text(uint32_t ip, char *buf, size_t n)
{
    /* the capture stores addresses in host order: a.b.c.d = ip >> 24 ... */
    snprintf(buf, n, "%u.%u.%u.%u", ip >> 24, (ip >> 16) & 255, (ip >> 8) & 255, ip & 255);
}

static int ep_of(cap *c, uint32_t ip, uint16_t port, uint32_t *out)
{
    char b[40], ib[32];
    ip_text(ip, ib, sizeof ib);
    int l = snprintf(b, sizeof b, "%s:%u", ib, port);
    return cap_ep(c, b, (size_t)l, out);
}

/* the address part of endpoint text "IP:PORT" */
static size_t ip_len(const char *ep)
{
    const char *colon = strrchr(ep, ':');
    return colon ? (size_t)(colon - ep) : strlen(ep);
}

static const struct {
    const char *name, *help;
} evc_info[IMP_EVN] = {
    {"entries", "capture entries (request/response pairs seen at one socket)"},
    {"skipped_dns", "DNS look-ups: not requests of the traced system, left out"},
    {"skipped_other", "entries of another protocol than HTTP/1 over TCP: left out"},
};

/* the summary: the reader's counts, then the capture path's */
static int summarize(imp_importer *im, const imp_capture_stats *st, const char *hn)
{
    pb_strbuf *sb = &im->ev_summary;
    int rc = PB_OK;
    if (im->opts.thread)
        rc = pb_strbuf_puts(sb, "--thread ignored: the capture observes its threads\n");
    for (int c = 0; c < IMP_EVN && rc == PB_OK; c++) {
        rc = pb_strbuf_printf(sb, "%s=%zu: %s", evc_info[c].name, im->evc[c], evc_info[c].help);
        if (rc == PB_OK && im->ev_first[c] && c != IMP_EVC_ENTRIES)
            rc = pb_strbuf_printf(sb, " (first: %s)", im->ev_first[c]);
        if (rc == PB_OK)
            rc = pb_strbuf_puts(sb, "\n");
    }
    const struct {
        const char *name;
        uint64_t v;
        const char *help;
    } cs[] = {
        {"events", st->events, "sends and receipts of HTTP messages given to the capture path"},
        {"connections", st->connections, "TCP connections"},
        {"processes", st->processes, "observed processes"},
        {"threads", st->threads, "OS threads among the messages written"},
        {"requests", st->requests, "HTTP requests (after lining up what each end saw)"},
        {"responses", st->responses, "HTTP responses"},
        {"pairs", st->pairs, "requests paired with their response"},
        {"messages", st->messages, "messages written"},
        {"paths", st->paths, "distinct request ids (path instances)"},
        {"uncaptured_sender", st->uncaptured_sender,
         "messages from a peer that is not observed (a load generator): both "
         "timestamps from the receipt, no sthread"},
        {"uncaptured_receiver", st->uncaptured_receiver,
         "messages to a peer that is not observed: no recv_ts, no thread"},
        {"lost_at_sender", st->lost_at_sender,
         "messages whose send the capture lost (the sender is observed): both "
         "timestamps from the receipt, no sthread"},
        {"lost_at_receiver", st->lost_at_receiver,
         "messages whose receipt the capture lost: no recv_ts, no thread"},
        {"lost_calls", st->lost_calls, "calls seen at one end only although both ends are observed"},
        {"gaps", st->gaps, "places where one end's stream lost whole messages "
                           "(TCP sequence numbers jump)"},
        {"repeated", st->repeated, "segments at a stream position their "
                                   "observer had read already (an entry "
                                   "captured twice, a retransmission): the "
                                   "bytes read again left out, the first "
                                   "reading kept"},
        {"unanswered", st->unanswered, "requests without a response: left out"},
        {"unrequested", st->unrequested, "responses without a request: left out"},
        {"no_request_id", st->no_request_id, "request/response pairs whose request has no "
                                             "request-id header: left out; header"},
        {"bad_request_id", st->bad_request_id, "of those, pairs whose traceparent names no "
                                               "trace (a trace id of other than 32 hex "
                                               "digits, or all zero)"},
        {"non_http", st->non_http, "connections whose bytes are not HTTP/1.1: left out"},
        {"truncated", st->truncated, "streams whose headers were not captured: rest left out"},
        {"cut", st->cut, "streams that end inside a message"},
        {"no_thread", st->no_thread, "events without a thread id (\"pid\" absent or "
                                     "null): their messages have no thread / sthread"},
        {"no_seq", st->no_seq, "streams (connection, direction) with events "
                               "without enter_seq: lined up by order, not by "
                               "sequence number, so a message lost at one end "
                               "there goes unseen (no gap counted) and shifts "
                               "the pairing of the later ones"},
    };
    for (size_t k = 0; k < sizeof cs / sizeof *cs && rc == PB_OK; k++)
        if (cs[k].v || k < 9)
            rc = pb_strbuf_printf(sb, "%s=%llu: %s%s%s\n", cs[k].name,
                                  (unsigned long long)cs[k].v, cs[k].help,
                                  strcmp(cs[k].name, "no_request_id") ? "" : " ",
                                  strcmp(cs[k].name, "no_request_id") ? "" : hn);
    return rc;
}

int imp_events_finish(imp_importer *im, pb_trace **out, pb_error *err)
{
    *out = NULL;
    size_t ne = im->nev;
    if (!ne)
        return pb_error_set(err, PB_EPARSE, im->nfiles ? im->files[0] : NULL, 0, 0,
                            "the capture holds no HTTP request or response; expected "
                            "at least one");
    cap *c = im->cap;
    const imp_event *ev = im->evs;
    const char *hn = im->opts.request_id ? im->opts.request_id : "X-Request-Id";
    imp_capture_opts copts = {hn, NULL, NULL};
    c->opts = &copts;
    c->st.ebpf = 1;
    c->st.events = ne;
    int rc = PB_OK;
    uint32_t *lep = malloc(ne * sizeof *lep), *rep = malloc(ne * sizeof *rep);
    uint32_t *conn = malloc(ne * sizeof *conn), *pidx = malloc(ne * sizeof *pidx);
    uint32_t *proc_of_ep = NULL, *base = NULL;
    uint8_t *seq_all = NULL;
    if (!lep || !rep || !conn || !pidx) {
        rc = PB_ENOMEM;
        goto out;
    }
    /* endpoints; processes named by the endpoint they first received a
     * request on (else pidTGID), as "NAME\tTGID" (name_of takes NAME) */
    for (size_t i = 0; i < ne && rc == PB_OK; i++) {
        if ((rc = ep_of(c, ev[i].lip, ev[i].lport, &lep[i])) == PB_OK)
            rc = ep_of(c, ev[i].rip, ev[i].rport, &rep[i]);
    }
    /* processes by tgid (tg: "TGID" -> index; tg_proc: its process + 1) */
    pb_strtab *tg = NULL;
    uint32_t *tgi = malloc(ne * sizeof *tgi), *tg_proc = NULL;
    if (!tgi || pb_strtab_init(&tg) != PB_OK)
        rc = PB_ENOMEM;
    for (size_t i = 0; i < ne && rc == PB_OK; i++) {
        char nb[24];
        int l = snprintf(nb, sizeof nb, "%lu", (unsigned long)ev[i].proc);
        rc = pb_strtab_intern(tg, nb, (size_t)l, &tgi[i]);
    }
    if (rc == PB_OK && !(tg_proc = calloc(pb_strtab_count(tg) + 1, sizeof *tg_proc)))
        rc = PB_ENOMEM;
    /* pass 0: receivers of requests, by that endpoint; pass 1: the rest */
    for (int pass = 0; pass < 2 && rc == PB_OK; pass++)
        for (size_t i = 0; i < ne && rc == PB_OK; i++) {
            if (tg_proc[tgi[i]] || (pass == 0 && (ev[i].send || !ev[i].request)))
                continue;
            char key[96];
            int l = pass == 0 ? snprintf(key, sizeof key, "%s\t%lu",
                                         pb_strtab_str(c->eps, lep[i]),
                                         (unsigned long)ev[i].proc)
                              : snprintf(key, sizeof key, "pid%lu\t%lu",
                                         (unsigned long)ev[i].proc, (unsigned long)ev[i].proc);
            uint32_t idx;
            if ((rc = pb_strtab_intern(c->procs, key, (size_t)l, &idx)) == PB_OK)
                tg_proc[tgi[i]] = idx + 1;
        }
    for (size_t i = 0; i < ne && rc == PB_OK; i++)
        pidx[i] = tg_proc[tgi[i]];
    pb_strtab_close(tg);
    free(tgi);
    free(tg_proc);
    if (rc != PB_OK)
        goto out;
    c->st.processes = pb_strtab_count(c->procs);
    /* connections: the client is the side that sends requests */
    for (size_t i = 0; i < ne && rc == PB_OK; i++) {
        int client_side = ev[i].send == ev[i].request;
        uint32_t cl = client_side ? lep[i] : rep[i], sv = client_side ? rep[i] : lep[i];
        rc = cap_conn(c, cl, sv, client_side ? 0 : 1, 0, &conn[i]);
        if (rc == PB_OK) {
            if (client_side)
                c->conns[conn[i]].client_proc = pidx[i];
            else
                c->conns[conn[i]].server_proc = pidx[i];
        }
    }
    if (rc != PB_OK)
        goto out;
    /* an end with no event of its own on the connection: the process
     * observed at its endpoint, else at its address (a lost event), or
     * none (an uncaptured peer: named by its address) */
    size_t neps = pb_strtab_count(c->eps);
    proc_of_ep = calloc(neps + 1, sizeof *proc_of_ep);
    base = calloc(2 * c->nconns + 1, sizeof *base);
    seq_all = malloc(2 * c->nconns + 1);
    if (!proc_of_ep || !base || !seq_all) {
        rc = PB_ENOMEM;
        goto out;
    }
    pb_strtab *ips = NULL; /* observed addresses -> ip_proc */
    uint32_t *ip_proc = calloc(neps + 1, sizeof *ip_proc);
    if (!ip_proc || pb_strtab_init(&ips) != PB_OK)
        rc = PB_ENOMEM;
    for (size_t i = 0; i < ne && rc == PB_OK; i++) {
        const char *e = pb_strtab_str(c->eps, lep[i]);
        uint32_t ii;
        if (!proc_of_ep[lep[i]])
            proc_of_ep[lep[i]] = pidx[i];
        if ((rc = pb_strtab_intern(ips, e, ip_len(e), &ii)) == PB_OK && !ip_proc[ii])
            ip_proc[ii] = pidx[i];
    }
    for (size_t k = 0; k < c->nconns && rc == PB_OK; k++) {
        cap_conn_t *cc = &c->conns[k];
        for (int side = 0; side < 2; side++) {
            uint32_t *pp = side ? &cc->server_proc : &cc->client_proc;
            uint32_t ep = side ? cc->server : cc->client, ii;
            const char *e = pb_strtab_str(c->eps, ep);
            if (!*pp)
                *pp = proc_of_ep[ep];
            if (!*pp && pb_strtab_find(ips, e, ip_len(e), &ii) == 1)
                *pp = ip_proc[ii];
        }
    }
    pb_strtab_close(ips);
    free(ip_proc);
    if (rc != PB_OK)
        goto out;
    /* stream positions: sequence numbers from the lowest of either view of
     * each (connection, direction), when every event there has one */
    memset(seq_all, 1, 2 * c->nconns + 1);
    uint8_t *has_base = calloc(2 * c->nconns + 1, 1);
    if (!has_base) {
        rc = PB_ENOMEM;
        goto out;
    }
    for (size_t i = 0; i < ne; i++) {
        size_t d = 2 * (size_t)conn[i] + (ev[i].request ? CAP_C2S : CAP_S2C);
        if (!ev[i].has_seq) {
            seq_all[d] = 0;
        } else if (!has_base[d] || (int32_t)(ev[i].seq - base[d]) < 0) {
            base[d] = ev[i].seq;
            has_base[d] = 1;
        }
    }
    /* the fallback is said: a stream without positions is lined up by
     * order, where a lost message goes unseen and shifts the rest */
    for (size_t d = 0; d < 2 * (size_t)c->nconns + 1; d++)
        c->st.no_seq += seq_all[d] == 0;
    free(has_base);
    for (size_t i = 0; i < ne && rc == PB_OK; i++) {
        cap_seg s;
        memset(&s, 0, sizeof s);
        size_t d = 2 * (size_t)conn[i] + (ev[i].request ? CAP_C2S : CAP_S2C);
        s.ts = ev[i].t;
        s.conn = conn[i];
        s.dir = (uint8_t)(ev[i].request ? CAP_C2S : CAP_S2C);
        s.view = (uint8_t)(ev[i].send ? CAP_SENDER : CAP_RECEIVER);
        s.kind = CAP_DATA;
        s.proc = pidx[i];
        s.tidnum = ev[i].tid;
        s.bytes = ev[i].bytes;
        s.plen = ev[i].plen;
        s.poff = ev[i].poff;
        if (seq_all[d])
            s.off = (uint64_t)(uint32_t)(ev[i].seq - base[d]) + 1;
        rc = cap_add_seg(c, &s, NULL); /* the payload is in the arena already */
    }
    if (rc != PB_OK)
        goto out;
    pb_trace *t = NULL;
    rc = cap_build(c, &t, err);
    if (rc != PB_OK) {
        c->opts = NULL;
        free(lep); free(rep); free(conn); free(pidx); free(proc_of_ep); free(base); free(seq_all);
        return rc;
    }
    /* call ids only when asked (--callid): the eBPF import's black-box
     * default */
    if (!im->opts.callid) {
        for (size_t i = 0; i < t->n; i++)
            t->msgs[i].callid = PB_ID_NONE;
        t->columns &= ~(unsigned)PB_COL_CALLID;
    }
    pb_strbuf sb = {0};
    rc = pb_strbuf_printf(&sb, "generator=importtrace format=ebpf callid=%d request_id=%s",
                          im->opts.callid ? 1 : 0, hn);
    if (rc == PB_OK)
        rc = pb_trace_add_meta(t, pb_strbuf_str(&sb));
    pb_strbuf_reset(&sb);
    if (rc == PB_OK)
        rc = pb_strbuf_puts(&sb, "importtrace");
    for (int k = 0; k < IMP_EVN && rc == PB_OK; k++)
        rc = pb_strbuf_printf(&sb, " %s=%zu", evc_info[k].name, im->evc[k]);
    if (rc == PB_OK)
        rc = pb_trace_add_meta(t, pb_strbuf_str(&sb));
    if (rc == PB_OK && (c->st.no_seq || c->st.no_thread)) {
        pb_strbuf_reset(&sb);
        rc = pb_strbuf_printf(&sb, "importtrace_fallback no_seq=%llu no_thread=%llu: "
                                   "streams lined up by order (events without "
                                   "enter_seq); events without thread id",
                              (unsigned long long)c->st.no_seq,
                              (unsigned long long)c->st.no_thread);
        if (rc == PB_OK)
            rc = pb_trace_add_meta(t, pb_strbuf_str(&sb));
    }
    pb_strbuf_free(&sb);
    if (rc == PB_OK)
        rc = summarize(im, &c->st, hn);
    if (rc != PB_OK) {
        pb_trace_close(t);
        goto out;
    }
    *out = t;
out:
    c->opts = NULL;
    free(lep);
    free(rep);
    free(conn);
    free(pidx);
    free(proc_of_ep);
    free(base);
    free(seq_all);
    if (rc == PB_ENOMEM)
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    return rc;
}
