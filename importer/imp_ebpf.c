/*
 * imp_ebpf.c - a syscall-level capture in the format of DeepTrace's eBPF
 * agent (SIGCOMM'25; docs/importer.md, "Syscall captures") taken apart
 * into events (imp_int.h): `{"spans": [{"req": E, "resp": E}, ...]}`, each
 * E one read or write of one application message at a socket, with
 * `tgid` (process), `pid` (OS thread), `timestamp_ns`, `quintuple` (the
 * observing side's address first: src = local, dst = remote), `direction`
 * (Ingress / Egress), `protocol` (HTTP1, DNS, ...), `type` (Request /
 * Response), `enter_seq` (TCP sequence number of its first byte) and the
 * raw `payload`.  The pairing of req with resp at capture is not used:
 * events meet again by order on their connection (imp_events.c), which is
 * what a library interposer or a packet capture can also give.
 *
 * Only HTTP/1 over TCP is a request or response here; DNS and any other
 * protocol are counted and left out.  The request id header (the truth)
 * is read from a request's payload and kept in the event's rid, which
 * only the truth columns receive.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "imp_int.h"

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

/* The value of header `name` (case ignored) in an HTTP/1 head, or NULL;
 * *len its length (spaces around it trimmed). */
static const char *header(const char *p, size_t n, const char *name, size_t *len)
{
    size_t nl = strlen(name);
    const char *end = p + n;
    /* skip the request line */
    const char *q = memchr(p, '\n', n);
    while (q && q + 1 < end) {
        q++;
        if (*q == '\r' || *q == '\n')
            break; /* end of the head */
        const char *eol = memchr(q, '\n', (size_t)(end - q));
        const char *le = eol ? eol : end;
        if ((size_t)(le - q) > nl && q[nl] == ':' && !strncasecmp(q, name, nl)) {
            const char *v = q + nl + 1;
            while (v < le && (*v == ' ' || *v == '\t'))
                v++;
            const char *ve = le;
            while (ve > v && (ve[-1] == '\r' || ve[-1] == ' ' || ve[-1] == '\t'))
                ve--;
            *len = (size_t)(ve - v);
            return v;
        }
        q = eol;
    }
    return NULL;
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
    if (!get_uint(e, "pid", &pid))
        return bad(im, err, file, i, side, "\"pid\": expected a thread id");
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
    const char *p = json_is_string(pl) ? json_string_value(pl) : "";
    size_t pn = json_is_string(pl) ? json_string_length(pl) : 0;
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
    ev.t = (pb_ns)ts;
    ev.lip = (uint32_t)sa;
    ev.rip = (uint32_t)da;
    ev.lport = (uint16_t)sp;
    ev.rport = (uint16_t)dp;
    ev.send = !strcmp(dir, "Egress");
    ev.kind = !strcmp(type, "Request") ? IMP_EV_REQUEST : IMP_EV_RESPONSE;
    ev.rid = PB_ID_NONE;
    ev.size = pn > UINT32_MAX - 1 ? UINT32_MAX - 1 : (uint32_t)pn;
    ev.file = file;
    ev.entry = (uint32_t)i;
    if (get_uint(e, "enter_seq", &seq) && seq <= UINT32_MAX) {
        ev.has_seq = 1;
        ev.seq = (uint32_t)seq;
    }
    pb_names *names = im->trace->names;
    char buf[64];
    int bl = snprintf(buf, sizeof buf, "%llu", (unsigned long long)pid);
    if (pb_obs_label(names, buf, (size_t)bl, &ev.thread) != PB_OK)
        return imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    /* what a protocol-aware observer sees: "GET /path" or the status */
    const char *eol = memchr(p, '\r', pn);
    size_t ll = eol ? (size_t)(eol - p) : pn;
    const char *a = p;
    size_t al = 0;
    if (ev.kind == IMP_EV_REQUEST) {
        const char *h = ll > 9 ? strstr(p, " HTTP/") : NULL;
        al = h && h < p + ll ? (size_t)(h - p) : ll;
    } else if (ll > 9 && !strncmp(p, "HTTP/", 5)) {
        a = p + 9;
        al = ll - 9 < 3 ? ll - 9 : 3;
    }
    if (al > 200)
        al = 200;
    if (al && pb_obs_label(names, a, al, &ev.attr) != PB_OK)
        return imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    if (ev.kind == IMP_EV_REQUEST) {
        const char *hn = im->opts.request_id ? im->opts.request_id : "X-Request-Id";
        size_t vl = 0;
        const char *v = header(p, pn, hn, &vl);
        if (v && !strcasecmp(hn, "traceparent")) {
            /* version-traceid-parentid-flags: the trace id names the path */
            const char *d1 = memchr(v, '-', vl);
            const char *d2 = d1 ? memchr(d1 + 1, '-', (size_t)(v + vl - d1 - 1)) : NULL;
            if (d1 && d2) {
                vl = (size_t)(d2 - d1 - 1);
                v = d1 + 1;
            } else {
                v = NULL;
            }
        }
        if (v && vl && pb_label_parse(names, v, vl, &ev.rid) != PB_OK)
            return imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
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
