/*
 * imp_capture_http.c - from segments to a trace (docs/capture.md): each
 * directional stream, as each observer saw it, is framed into HTTP/1.1
 * messages; the views of one stream are lined up by position (the k-th
 * message its sender wrote is the k-th its receiver read); requests and
 * responses are paired by order on their connection; the request id
 * header gives the truth's path, and a message's cause is the latest
 * message of the same request its sender had received when it sent.
 */
#include "imp_capture_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pb_strbuf.h"
#include "pb_sort.h"

#define HDR_MAX (64 * 1024)

typedef struct framer {
    int state;            /* 0 header, 1 body by length, 2 chunk size line,
                             3 chunk data, 4 trailer, 5 until close, 6 dead */
    char *hdr;
    size_t hlen;
    uint64_t rem;
    hmsg cur;
    int have_cur;
    uint64_t pos;         /* stream offset of the segment being fed */
    const unsigned char *seg_p0; /* its first payload byte */
    int seg_has_off;
    int pre;              /* cur answers a request sent before the capture */
    int may_switch;       /* requests: the last one asked to switch protocols
                             (CONNECT, an Upgrade header) */
    int switch_now;       /* responses: cur switches protocols (101, a 2xx
                             answer to CONNECT): nothing after it is HTTP */
} framer;

typedef struct build {
    cap *c;
    pb_trace *t;
    hmsg *m;
    size_t nm, mcap;
    size_t *methods;      /* per request k of the current connection: its
                             message's index in m (SIZE_MAX: none); an
                             index, as m moves when it grows */
    size_t nmethods;
    /* a packet capture that joined the connection open (no SYN seen):
     * its responses starting before pre_until (the first captured
     * request's first byte) answer requests sent before the capture */
    int has_pre;
    pb_ns pre_until;
} build;

static int push_msg(build *b, const hmsg *h)
{
    if (b->nm == b->mcap) {
        size_t nc = b->mcap ? b->mcap * 2 : 256;
        hmsg *nn = realloc(b->m, nc * sizeof *nn);
        if (!nn)
            return PB_ENOMEM;
        b->m = nn;
        b->mcap = nc;
    }
    b->m[b->nm++] = *h;
    return PB_OK;
}

static int push_cb(void *b, const hmsg *h) { return push_msg(b, h); }

static int cmp_seg(const void *a, const void *b)
{
    const cap_seg *x = a, *y = b;
    if (x->conn != y->conn)
        return x->conn < y->conn ? -1 : 1;
    if (x->dir != y->dir)
        return x->dir - y->dir;
    if (x->view != y->view)
        return x->view - y->view;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* Parse the header in f->hdr[0..hl) into f->cur; set the body state.
 * Returns 0 when it is not HTTP/1.x. */
static int parse_head(build *b, framer *f, size_t hl, const char *req_method)
{
    const char *h = f->hdr;
    hmsg *m = &f->cur;
    const char *sp = memchr(h, ' ', hl);
    if (!sp)
        return 0;
    char val[512];
    char attr[160] = "";
    if (hl > 8 && !memcmp(h, "HTTP/1.", 7)) {
        m->request = 0;
        m->status = atoi(sp + 1);
        if (m->status < 100 || m->status > 999)
            return 0;
        snprintf(attr, sizeof attr, "%d", m->status);
    } else {
        size_t ml = (size_t)(sp - h);
        if (!ml || ml >= sizeof m->method)
            return 0;
        for (size_t i = 0; i < ml; i++)
            if (!isupper((unsigned char)h[i]))
                return 0;
        /* the line's end: CRLF, or a bare LF (RFC 9112 2.2 lets a
         * recipient read one as a line end; before, a message whose lines
         * end so was not HTTP, its whole connection left out) */
        const char *eol = memchr(h, '\n', hl);
        if (eol && eol > h && eol[-1] == '\r')
            eol--;
        if (!eol || eol - h < 14 || memcmp(eol - 9, " HTTP/1.", 8))
            return 0;
        m->request = 1;
        memcpy(m->method, h, ml);
        m->method[ml] = 0;
        /* attr: the method and the path without its query */
        const char *tg = sp + 1, *te = eol - 9;
        const char *q = memchr(tg, '?', (size_t)(te - tg));
        size_t tl = (size_t)((q ? q : te) - tg);
        snprintf(attr, sizeof attr, "%s %.*s", m->method, (int)(tl > 120 ? 120 : tl), tg);
    }
    if (pb_obs_label(b->t->names, attr, strlen(attr), &m->attr) != PB_OK)
        return -1;
    m->reqid = 0;
    if (m->request) {
        const char *hn = b->c->opts->header ? b->c->opts->header : "traceparent";
        int differ = 0;
        size_t vl0 = 0;
        if (cap_hdr_get2(h, hl, hn, val, sizeof val, &differ, &vl0)) {
            /* the request-id header given twice: one value twice is that
             * value; two values name two requests, and which one this is
             * cannot be told (W3C Trace Context's test suite treats two
             * traceparent headers as none): left out as a pair without
             * the header, counted and said (hmsg.bad_id 2) */
            if (differ)
                m->bad_id = 2;
            else if (cap_request_id(b->c, b->t, val, vl0, &m->reqid, &m->bad_id) != PB_OK)
                return -1;
        }
    }
    /* the body */
    /* the framing fields, read as RFC 9110/9112 write them.  Before, a
     * transfer coding in capitals ("Chunked", which servers send) was not
     * seen: the body was read to the connection's close, and every later
     * response on it swallowed (said as requests unanswered); and a
     * Content-Length of "-1" or past 64 bits was read by strtoull as a
     * huge length, the rest of the stream one message's body.  Now the
     * coding is matched as a token, case ignored, and a Content-Length
     * that is no length leaves the connection out as not HTTP, said in a
     * note naming it */
    int chunked = cap_hdr_get(h, hl, "transfer-encoding", val, sizeof val) &&
                  cap_hdr_has_token(val, "chunked");
    uint64_t len = 0;
    int has_len = !chunked && cap_hdr_get(h, hl, "content-length", val, sizeof val);
    if (has_len && !cap_hdr_content_length(val, &len)) {
        if (cap_note(b->c, m->conn, "an HTTP/1 %s whose Content-Length is no length "
                     "(\"%.40s\"): this connection is left out (counted as a stream "
                     "not HTTP)", m->request ? "request" : "response", val) != PB_OK)
            return -1;
        return 0;
    }
    /* a protocol switch: a 101 response, or a 2xx answer to CONNECT (RFC
     * 9110 9.3.6, 15.2.2: the connection is a tunnel, or speaks the new
     * protocol, right after the header's empty line; a length field in
     * it is ignored).  It is the request's answer; nothing after it on
     * the connection is HTTP/1 (feed stops there).  A request that asks
     * for one marks the request stream (framer.may_switch). */
    f->switch_now = !m->request && (m->status == 101 ||
                                    (m->status >= 200 && m->status < 300 && req_method &&
                                     !strcmp(req_method, "CONNECT")));
    if (m->request) {
        char up[8];
        f->may_switch = !strcmp(m->method, "CONNECT") ||
                        cap_hdr_get(h, hl, "upgrade", up, sizeof up);
    }
    int no_body = !m->request && ((m->status >= 100 && m->status < 200) || m->status == 204 ||
                                  m->status == 304 || f->switch_now ||
                                  (req_method && !strcmp(req_method, "HEAD")));
    if (no_body)
        f->state = 0, f->rem = 0;
    else if (chunked)
        f->state = 2;
    else if (has_len)
        f->state = len ? 1 : 0, f->rem = len;
    else if (m->request)
        f->state = 0, f->rem = 0;
    else
        f->state = 5; /* a response ending at close */
    return 1;
}

/* 1 when the payload p[0..n) of a segment of direction dir starts an
 * HTTP/1 message: a request line (an upper-case method, a space, the
 * target, " HTTP/1.D" and CR) or a status line ("HTTP/1.D DDD"). */
static int msg_start(const unsigned char *p, size_t n, int dir)
{
    if (dir == CAP_S2C)
        return n >= 12 && !memcmp(p, "HTTP/1.", 7) && isdigit(p[7]) && p[8] == ' ' &&
               isdigit(p[9]) && isdigit(p[10]) && isdigit(p[11]);
    size_t i = 0;
    while (i < n && i < 12 && isupper(p[i]))
        i++;
    if (!i || i >= n || p[i] != ' ')
        return 0;
    const unsigned char *cr = memchr(p, '\n', n);
    if (cr && cr > p && cr[-1] == '\r')
        cr--;
    return cr && cr - p >= (ptrdiff_t)i + 10 && !memcmp(cr - 9, " HTTP/1.", 8) &&
           isdigit(cr[-1]);
}

static int finish(build *b, framer *f, pb_ns ts, int64_t tid)
{
    f->cur.last = ts;
    f->cur.tid_last = tid;
    f->have_cur = 0;
    /* interim responses (1xx but 101, a switch's answer) are not the
     * answer, and take no place of their stream (feed gave it back) */
    if (!f->cur.request && f->cur.status >= 100 && f->cur.status < 200 && f->cur.status != 101)
        return PB_OK;
    if (f->pre) { /* the answer to a request the capture never saw */
        f->pre = 0;
        if (!b->c->pre_answers++)
            b->c->pre_first = f->cur.first;
        b->c->st.unrequested++;
        return PB_OK;
    }
    return push_msg(b, &f->cur);
}

/* feed captured bytes p[0..n) of segment s; hole: bytes moved but not seen */
static int feed(build *b, framer *f, const cap_seg *s, const unsigned char *p, size_t n,
                uint64_t hole, uint32_t *k)
{
    int rc;
    while ((n || hole) && f->state != 6) {
        switch (f->state) {
        case 0: { /* header */
            if (!n) {
                /* header bytes we did not see: the stream cannot be followed */
                if (hole) {
                    b->c->st.truncated++;
                    f->state = 6;
                }
                return PB_OK;
            }
            if (!f->hlen) {
                memset(&f->cur, 0, sizeof f->cur);
                f->cur.conn = s->conn;
                f->cur.dir = s->dir;
                f->cur.view = s->view;
                /* a response begun before the first request the capture
                 * holds on a connection it joined open: the answer to a
                 * request sent before the capture (HTTP/1 answers in
                 * order, never before its request).  Before, it took the
                 * first captured request's place, and every pair of the
                 * connection after it was shifted by one (a response
                 * paired with the request after its own, stamped before
                 * it; said only as "responses before their requests") */
                f->pre = b->has_pre && f->cur.dir == CAP_S2C && s->ts < b->pre_until;
                f->cur.k = f->pre ? UINT32_MAX : (*k)++;
                f->cur.first = s->ts;
                f->cur.tid_first = s->tidnum;
                f->cur.proc = s->proc;
                f->cur.off = f->pos + (uint64_t)(p - f->seg_p0);
                f->cur.has_off = f->seg_has_off;
                f->have_cur = 1;
            }
            /* append up to the end of the header */
            size_t take = n;
            if (f->hlen + take > HDR_MAX) {
                /* a header that began like HTTP (a space in its first 16
                 * bytes) but runs past HDR_MAX: left out with its
                 * connection as a stream not HTTP, and said (a note naming
                 * the connection, a count said even with -q); before,
                 * only counted as "not HTTP" */
                const unsigned char *h0 = f->hlen ? (const unsigned char *)f->hdr : p;
                size_t h0n = f->hlen ? f->hlen : n;
                if (h0n >= 8 && memchr(h0, ' ', h0n < 16 ? h0n : 16)) {
                    size_t l = 0;
                    while (l < 60 && l < h0n && h0[l] >= 0x20 && h0[l] < 0x7f)
                        l++;
                    if (!b->c->hdr_over++)
                        b->c->hdr_over_first = s->ts;
                    if (cap_note(b->c, s->conn, "an HTTP/1 header longer than %d KiB "
                                 "(starting \"%.*s\"): this connection is left out "
                                 "(counted as a stream not HTTP)", HDR_MAX / 1024,
                                 (int)l, (const char *)h0) != PB_OK)
                        return PB_ENOMEM;
                }
                b->c->st.non_http++;
                f->state = 6;
                return PB_OK;
            }
            memcpy(f->hdr + f->hlen, p, take);
            /* the header ends at an empty line: CRLF CRLF, or with bare
             * LFs (RFC 9112 2.2) LF LF or LF CRLF; before, only CRLF CRLF
             * ended one, so a message written with bare LFs never ended
             * and its connection's messages were lost */
            size_t from = f->hlen >= 2 ? f->hlen - 2 : 0;
            f->hlen += take;
            size_t end = 0;
            int lf_end = 0;
            for (size_t i = from; i + 1 < f->hlen; i++) {
                if (f->hdr[i] != '\n')
                    continue;
                if (f->hdr[i + 1] == '\n') {
                    end = i + 2;
                    lf_end = 1;
                    break;
                }
                if (i + 2 < f->hlen && f->hdr[i + 1] == '\r' && f->hdr[i + 2] == '\n') {
                    end = i + 3;
                    break;
                }
            }
            if (!end) {
                n = 0;
                if (hole) {
                    b->c->st.truncated++;
                    f->state = 6;
                }
                /* a stream that does not start like HTTP is not HTTP */
                if (f->hlen >= 8 && !memchr(f->hdr, ' ', f->hlen < 16 ? f->hlen : 16)) {
                    if (f->may_switch && f->cur.dir == CAP_C2S)
                        b->c->switch_req_cut++;
                    else
                        b->c->st.non_http++;
                    f->state = 6;
                }
                return PB_OK;
            }
            const char *meth = NULL;
            if (!f->cur.request && f->cur.dir == CAP_S2C && f->cur.k < b->nmethods &&
                b->methods[f->cur.k] != SIZE_MAX)
                meth = b->m[b->methods[f->cur.k]].method;
            int asked = f->may_switch;
            int ok = parse_head(b, f, end, meth);
            if (ok < 0)
                return PB_ENOMEM;
            if (!ok) {
                /* after a request that asked to switch protocols, bytes
                 * not HTTP are the new protocol's: the stream stops there
                 * (its messages before kept; the response stream says
                 * whether the switch was made).  Before, the whole
                 * connection was left out as not HTTP. */
                if (asked && f->cur.dir == CAP_C2S)
                    b->c->switch_req_cut++;
                else
                    b->c->st.non_http++;
                f->state = 6;
                return PB_OK;
            }
            {
                const char *lf = memchr(f->hdr, '\n', end);
                if ((lf_end || (lf && (lf == f->hdr || lf[-1] != '\r'))) && !b->c->bare_lf++)
                    b->c->bare_lf_first = f->cur.first;
            }
            /* an interim response (1xx but 101) takes no place among its
             * stream's messages: the answer after it has its request's.
             * Before, each one took a place, so every later pair of its
             * connection was shifted by one (a response paired with the
             * request after its own; Expect: 100-continue, 103 Early
             * Hints) and said only as "responses before their requests" */
            if (!f->cur.request && f->cur.status >= 100 && f->cur.status < 200 &&
                f->cur.status != 101 && !f->pre)
                (*k)--;
            f->cur.size = end;
            /* bytes after the header in this segment go on */
            size_t used = take - (f->hlen - end);
            p += used;
            n -= used;
            f->hlen = 0;
            int sw = f->switch_now;
            if (f->state == 0 && (rc = finish(b, f, s->ts, s->tidnum)) != PB_OK)
                return rc;
            if (sw) { /* the connection speaks another protocol from here */
                if (!b->c->switch_101 && !b->c->switch_connect)
                    b->c->switch_first = f->cur.first;
                if (f->cur.status == 101)
                    b->c->switch_101++;
                else
                    b->c->switch_connect++;
                f->switch_now = 0;
                f->state = 6;
                return PB_OK;
            }
            break;
        }
        case 1: /* body of known length */
        case 3: { /* chunk data and its CRLF */
            /* chunk data ended by a bare LF (RFC 9112 2.2) */
            if (f->state == 3 && f->rem == 2 && n && *p == '\n') {
                p++;
                n--;
                f->cur.size++;
                f->rem = 0;
                f->state = 2;
                break;
            }
            uint64_t lim = f->state == 3 && f->rem > 2 ? f->rem - 2 : f->rem;
            uint64_t t = n < lim ? n : lim;
            p += t;
            n -= (size_t)t;
            f->rem -= t;
            f->cur.size += t;
            if (f->rem && hole && !n) {
                uint64_t h = hole < f->rem ? hole : f->rem;
                hole -= h;
                f->rem -= h;
                f->cur.size += h;
            }
            if (!f->rem) {
                if (f->state == 3) {
                    f->state = 2;
                } else {
                    f->state = 0;
                    if ((rc = finish(b, f, s->ts, s->tidnum)) != PB_OK)
                        return rc;
                }
            }
            break;
        }
        case 2: /* chunk size line */
        case 4: { /* trailer lines, up to an empty one */
            if (!n) {
                b->c->st.truncated++;
                f->state = 6;
                return PB_OK;
            }
            const unsigned char *nl = memchr(p, '\n', n);
            size_t take = nl ? (size_t)(nl - p) + 1 : n;
            if (f->hlen + take > 4096) {
                b->c->st.non_http++;
                f->state = 6;
                return PB_OK;
            }
            memcpy(f->hdr + f->hlen, p, take);
            f->hlen += take;
            p += take;
            n -= take;
            f->cur.size += take;
            if (!nl)
                break;
            if (f->state == 2) {
                f->hdr[f->hlen] = 0;
                uint64_t sz;
                if (!cap_hdr_chunk_size(f->hdr, &sz)) {
                    /* no size: the connection is left out, said in a note
                     * naming it and the line (as a Content-Length that is
                     * no length, round 23) */
                    size_t l = strcspn(f->hdr, "\r\n");
                    if (cap_note(b->c, s->conn, "an HTTP/1 %s whose chunk size is no size "
                                 "(\"%.*s\"): this connection is left out (counted as a "
                                 "stream not HTTP)", f->cur.request ? "request" : "response",
                                 (int)(l > 40 ? 40 : l), f->hdr) != PB_OK)
                        return PB_ENOMEM;
                    b->c->st.non_http++;
                    f->state = 6;
                    return PB_OK;
                }
                f->hlen = 0;
                if (sz == 0) {
                    f->state = 4;
                } else {
                    f->state = 3;
                    f->rem = sz + 2;
                }
            } else {
                int empty = f->hlen <= 2;
                f->hlen = 0;
                if (empty) {
                    f->state = 0;
                    if ((rc = finish(b, f, s->ts, s->tidnum)) != PB_OK)
                        return rc;
                }
            }
            break;
        }
        case 5: /* until the connection closes */
            f->cur.size += n + hole;
            n = 0;
            hole = 0;
            f->cur.last = s->ts;
            f->cur.tid_last = s->tidnum;
            break;
        default:
            return PB_OK;
        }
    }
    return PB_OK;
}

/* frame one stream s[0..n) (one conn, dir, view) */
static int frame(build *b, const cap_seg *s, size_t n, framer *f)
{
    memset(f->hdr, 0, 1);
    f->state = 0;
    f->pre = 0;
    f->may_switch = 0;
    f->switch_now = 0;
    f->hlen = 0;
    f->have_cur = 0;
    f->pos = 0;
    uint32_t k = 0;
    int rc = PB_OK;
    for (size_t i = 0; i < n && rc == PB_OK; i++) {
        if (s[i].kind == CAP_END) {
            if (f->state == 5 && f->have_cur) {
                rc = finish(b, f, f->cur.last, f->cur.tid_last);
                f->state = 0;
            }
            break;
        }
        static const unsigned char none[1];
        const unsigned char *pl = s[i].plen ? b->c->bytes + s[i].poff : none;
        if (s[i].off && s[i].off - 1 < f->pos) {
            /* a position this view has read already: an entry captured
             * twice, a retransmission.  Bytes wholly read are left out
             * (the first reading kept); before, they were framed again
             * and the later copy silently took the first one's place. */
            b->c->st.repeated++;
            if (s[i].off - 1 + s[i].bytes <= f->pos)
                continue;
        }
        if (s[i].off) {
            /* the source's own stream position: a jump at a message
             * boundary is whole messages this view lost; inside a message,
             * the rest of the stream cannot be followed */
            if (s[i].off - 1 > f->pos && (f->state != 0 || f->hlen)) {
                b->c->st.truncated++;
                f->state = 6;
                break;
            }
            if (s[i].off - 1 > f->pos)
                b->c->st.gaps++;
            f->pos = s[i].off - 1;
        }
        f->seg_p0 = pl;
        f->seg_has_off = s[i].off != 0;
        rc = feed(b, f, &s[i], pl, s[i].plen, s[i].bytes - s[i].plen, &k);
        f->pos += s[i].bytes;
        if (f->state == 6)
            break;
    }
    if (rc == PB_OK && f->state == 5 && f->have_cur)
        rc = finish(b, f, f->cur.last, f->cur.tid_last);
    else if (rc == PB_OK && f->state == 0 && f->hlen && f->may_switch && n &&
             s[0].dir == CAP_C2S)
        b->c->switch_req_cut++; /* the new protocol's bytes, no header end */
    else if (rc == PB_OK && f->state != 6 && (f->state != 0 || f->hlen))
        b->c->st.cut++;
    return rc;
}

/* ---------------------------------------------------------------- */

typedef struct lmsg {       /* one message, its views merged */
    uint32_t conn, k;
    int dir;
    const hmsg *snd, *rcv, *wire;
} lmsg;

static const hmsg *pick(const hmsg *a, const hmsg *b) { return a ? a : b; }

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* the messages m[0..n) of one (conn, dir), every view: when they carry
 * the source's stream offsets, k becomes the rank of a message's offset
 * among the distinct offsets of all views, *maxk their number */
static int rank_by_offset(hmsg *m, size_t n, uint32_t *maxk)
{
    int any = 0;
    for (size_t q = 0; q < n; q++)
        any |= m[q].has_off;
    if (!any)
        return PB_OK;
    uint64_t *o = malloc((n + 1) * sizeof *o);
    if (!o)
        return PB_ENOMEM;
    for (size_t q = 0; q < n; q++)
        o[q] = m[q].off;
    pb_sort(o, n, sizeof *o, cmp_u64);
    size_t d = 0;
    for (size_t q = 0; q < n; q++)
        if (!d || o[q] != o[d - 1])
            o[d++] = o[q];
    for (size_t q = 0; q < n; q++) {
        size_t lo = 0, hi = d;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (o[mid] < m[q].off) lo = mid + 1; else hi = mid;
        }
        m[q].k = (uint32_t)lo;
    }
    *maxk = (uint32_t)d;
    free(o);
    return PB_OK;
}

/* the distinct values of a[0..n) (sorted in place) */
static uint64_t distinct(uint64_t *a, size_t n)
{
    if (n)
        pb_sort(a, n, sizeof *a, cmp_u64);
    uint64_t d = 0;
    for (size_t i = 0; i < n; i++)
        d += !i || a[i] != a[i - 1];
    return d;
}

/* a message one observer did not see: lost by the capture where the other
 * end is observed (cproc / sproc: the connection's observing processes),
 * else an uncaptured peer.  Packets (one wire view) have no sides. */
static void count_one_sided(imp_capture_stats *st, const lmsg *x, int ret,
                            uint32_t cproc, uint32_t sproc)
{
    if (x->wire)
        return;
    uint32_t from = ret ? sproc : cproc, to = ret ? cproc : sproc;
    int lost = 0;
    if (!x->snd) {
        lost |= from != 0;
        from ? st->lost_at_sender++ : st->uncaptured_sender++;
    }
    if (!x->rcv) {
        lost |= to != 0;
        to ? st->lost_at_receiver++ : st->uncaptured_receiver++;
    }
    if (!ret && lost)
        st->lost_calls++;
}

static const char *name_of(cap *c, uint32_t proc, uint32_t ep, char *buf, size_t n)
{
    const char *e = pb_strtab_str(c->eps, ep);
    /* a rename names the endpoint, its address, or the process */
    const char *pn = NULL;
    char pbuf[256] = "";
    if (proc) {
        const char *key = pb_strtab_str(c->procs, proc - 1);
        const char *tab = strchr(key, '\t');
        snprintf(pbuf, sizeof pbuf, "%.*s", (int)(tab ? tab - key : (long)strlen(key)), key);
        pn = pbuf;
    }
    char ip[128];
    const char *colon = strrchr(e, ':');
    snprintf(ip, sizeof ip, "%.*s", (int)(colon ? colon - e : (long)strlen(e)), e);
    if (ip[0] == '[') {
        memmove(ip, ip + 1, strlen(ip));
        char *br = strchr(ip, ']');
        if (br)
            *br = 0;
    }
    for (const char *const *r = c->opts->names; r && *r; r++) {
        const char *eq = strchr(*r, '=');
        if (!eq)
            continue;
        size_t kl = (size_t)(eq - *r);
        if ((strlen(e) == kl && !strncmp(*r, e, kl)) ||
            (strlen(ip) == kl && !strncmp(*r, ip, kl)) ||
            (pn && strlen(pn) == kl && !strncmp(*r, pn, kl))) {
            snprintf(buf, n, "%s", eq + 1);
            return buf;
        }
    }
    snprintf(buf, n, "%s", pn ? pn : ip);
    return buf;
}


typedef struct ev { pb_ns t; int recv; size_t i; } ev;

static int cmp_ev(const void *a, const void *b)
{
    const ev *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    if (x->recv != y->recv)
        return y->recv - x->recv; /* receipts first at one instant */
    return x->i < y->i ? -1 : x->i > y->i;
}

/* cause: the latest message of the same request its sender had received
 * when it sent (one clock per host: the sender's own receipts).  A
 * response's cause is further held to its own request: the request, or
 * the latest response to a call made on its behalf (so that where one
 * service serves two calls of one request at once, as a fan-in does, each
 * answer descends from the call it answers).  A call is made on behalf of
 * the request its cause descends from. */
static int causes(pb_trace *t, pb_error *err)
{
    size_t n = t->n;
    ev *e = malloc((2 * n + 1) * sizeof *e);
    int64_t *owner = malloc((n + 1) * sizeof *owner);   /* call -> request served */
    int64_t *desc = malloc((n + 1) * sizeof *desc);     /* request -> latest receipt of its own */
    int64_t *call_of = malloc((n + 1) * sizeof *call_of); /* return -> its call */
    pb_strtab *keys = NULL, *cids = NULL;
    int64_t *latest = NULL, *cidcall = NULL;
    size_t lcap = 0;
    int rc = PB_OK;
    if (!e || !owner || !desc || !call_of || pb_strtab_init(&keys) != PB_OK ||
        pb_strtab_init(&cids) != PB_OK || !(cidcall = malloc((n + 1) * sizeof *cidcall))) {
        rc = PB_ENOMEM;
        goto done;
    }
    char key[64];
    for (size_t i = 0; i < n; i++) {
        owner[i] = desc[i] = call_of[i] = -1;
        int l = snprintf(key, sizeof key, "%llu", (unsigned long long)t->msgs[i].callid);
        uint32_t ci;
        if (pb_strtab_intern(cids, key, (size_t)l, &ci) != PB_OK) {
            rc = PB_ENOMEM;
            goto done;
        }
        if (t->msgs[i].type == PB_TYPE_CALL)
            cidcall[ci] = (int64_t)i;
    }
    for (size_t i = 0; i < n; i++) {
        if (t->msgs[i].type != PB_TYPE_RETURN)
            continue;
        int l = snprintf(key, sizeof key, "%llu", (unsigned long long)t->msgs[i].callid);
        uint32_t ci;
        if (pb_strtab_find(cids, key, (size_t)l, &ci) == 1)
            call_of[i] = cidcall[ci];
    }
    size_t ne = 0;
    for (size_t i = 0; i < n; i++) {
        e[ne++] = (ev){t->msgs[i].ts, 0, i};
        pb_ns r = t->msgs[i].recv_ts != PB_TS_NONE ? t->msgs[i].recv_ts : t->msgs[i].ts;
        e[ne++] = (ev){r, 1, i};
    }
    pb_sort(e, ne, sizeof *e, cmp_ev);
    for (size_t j = 0; j < ne && rc == PB_OK; j++) {
        size_t i = e[j].i;
        const pb_msg *m = &t->msgs[i];
        uint32_t node = e[j].recv ? m->dst : m->src;
        int l = snprintf(key, sizeof key, "%u:%llu", node,
                         (unsigned long long)t->truth[i].path);
        uint32_t ki;
        if (pb_strtab_intern(keys, key, (size_t)l, &ki) != PB_OK) {
            rc = PB_ENOMEM;
            break;
        }
        if (ki >= lcap) {
            size_t nc = lcap ? lcap * 2 : 256;
            while (nc <= ki)
                nc *= 2;
            int64_t *nl = realloc(latest, nc * sizeof *nl);
            if (!nl) {
                rc = PB_ENOMEM;
                break;
            }
            for (size_t q = lcap; q < nc; q++)
                nl[q] = -1;
            latest = nl;
            lcap = nc;
        }
        int64_t cause = -1;
        if (e[j].recv) {
            latest[ki] = (int64_t)i;
            if (m->type == PB_TYPE_CALL) {
                desc[i] = (int64_t)i;
            } else if (m->type == PB_TYPE_RETURN && call_of[i] >= 0 && owner[call_of[i]] >= 0) {
                desc[owner[call_of[i]]] = (int64_t)i;
            }
            continue;
        }
        if (m->type == PB_TYPE_RETURN && call_of[i] >= 0 && desc[call_of[i]] >= 0) {
            cause = desc[call_of[i]];
        } else {
            cause = latest[ki];
        }
        if (m->type == PB_TYPE_CALL && cause >= 0) {
            const pb_msg *cm = &t->msgs[cause];
            if (cm->type == PB_TYPE_CALL)
                owner[i] = cause;
            else if (cm->type == PB_TYPE_RETURN && call_of[cause] >= 0)
                owner[i] = owner[call_of[cause]];
        }
        t->truth[i].cause = cause >= 0 ? t->msgs[cause].id : PB_ID_NONE;
    }
done:
    free(e);
    free(owner);
    free(desc);
    free(call_of);
    free(latest);
    free(cidcall);
    pb_strtab_close(keys);
    pb_strtab_close(cids);
    if (rc != PB_OK)
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    return PB_OK;
}

/* the thread column's text: "PID/TID" of the observing process's thread;
 * *out 0 when the capture has no thread (packets) */
static int thread_label(const cap *c, pb_trace *t, uint32_t proc, int64_t tid, uint32_t *out)
{
    *out = 0;
    if (tid < 0 || !proc)
        return PB_OK;
    const char *key = pb_strtab_str(c->procs, proc - 1);
    const char *tab = key ? strchr(key, '\t') : NULL;
    long pid = tab ? strtol(tab + 1, NULL, 10) : 0;
    char th[64];
    int tl = snprintf(th, sizeof th, "%ld/%lld", pid, (long long)tid);
    return pb_obs_label(t->names, th, (size_t)tl, out);
}

static int port_ok(const cap *c, uint32_t server)
{
    if (!c->opts->ports)
        return 1;
    long p = cap_port(pb_strtab_str(c->eps, server));
    for (const uint16_t *q = c->opts->ports; *q; q++)
        if (p == *q)
            return 1;
    return 0;
}

int cap_build(cap *c, pb_trace **out, pb_error *err)
{
    build b;
    memset(&b, 0, sizeof b);
    b.c = c;
    framer f;
    memset(&f, 0, sizeof f);
    f.hdr = malloc(HDR_MAX + 8);
    int rc = pb_trace_new(&b.t);
    if (rc != PB_OK || !f.hdr) {
        free(f.hdr);
        pb_trace_close(b.t);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    if (c->nsegs) /* segs is NULL without segments: qsort may not take it */
        pb_sort(c->segs, c->nsegs, sizeof *c->segs, cmp_seg);
    c->st.connections = c->nconns;
    /* frame: per connection, requests first (responses to HEAD have no body) */
    size_t *methods = NULL;
    size_t mcap = 0;
    for (size_t a = 0; a < c->nsegs && rc == PB_OK;) {
        uint32_t conn = c->segs[a].conn;
        size_t z = a;
        while (z < c->nsegs && c->segs[z].conn == conn)
            z++;
        if (!port_ok(c, c->conns[conn].server)) {
            c->st.filtered++;
            a = z;
            continue;
        }
        if (cap_h2_detect(c, &c->segs[a], z - a)) {
            c->st.http2++;
            rc = cap_h2_conn(c, b.t, &c->segs[a], z - a, push_cb, &b);
            a = z;
            continue;
        }
        b.nmethods = 0;
        size_t first_req = b.nm;
        for (size_t s = a; s < z && rc == PB_OK;) {
            size_t e = s;
            while (e < z && c->segs[e].dir == c->segs[s].dir && c->segs[e].view == c->segs[s].view)
                e++;
            if (c->segs[s].dir == CAP_S2C && !b.nmethods && b.nm > first_req) {
                /* the methods of this connection's requests, by position */
                size_t cnt = 0;
                for (size_t q = first_req; q < b.nm; q++)
                    if (b.m[q].request && b.m[q].k + 1 > cnt)
                        cnt = b.m[q].k + 1;
                if (cnt > mcap) {
                    size_t *nm = realloc(methods, cnt * sizeof *nm);
                    if (!nm) {
                        rc = PB_ENOMEM;
                        break;
                    }
                    methods = nm;
                    mcap = cnt;
                }
                for (size_t q = 0; q < cnt; q++)
                    methods[q] = SIZE_MAX;
                for (size_t q = first_req; q < b.nm; q++)
                    if (b.m[q].request)
                        methods[b.m[q].k] = q;
                b.methods = methods;
                b.nmethods = cnt;
            }
            /* a capture that joined the connection open may begin inside
             * a message (a long body, a slow answer): its stream is read
             * from the first segment that starts a message, the bytes
             * before it skipped and said.  Before, the message's tail
             * was read as a header, and the whole connection left out as
             * not HTTP (on a keep-alive connection, every later request).
             * A stream where no segment starts one is framed as before */
            if (c->segs[s].view == CAP_WIRE && c->conns[conn].role_guess) {
                size_t j = s;
                while (j < e && !(c->segs[j].kind == CAP_DATA &&
                                  c->segs[j].plen == c->segs[j].bytes &&
                                  msg_start(c->bytes + c->segs[j].poff, c->segs[j].plen,
                                            c->segs[j].dir)))
                    j++;
                if (j < e && j > s) {
                    if (!c->joined_streams++)
                        c->joined_first = c->segs[s].ts;
                    for (; s < j; s++)
                        c->joined_bytes += c->segs[s].bytes;
                }
            }
            /* a capture that joined the connection open: when its
             * responses start, the first request it holds */
            b.has_pre = 0;
            if (c->segs[s].dir == CAP_S2C && c->segs[s].view == CAP_WIRE &&
                c->conns[conn].role_guess)
                for (size_t q = first_req; q < b.nm; q++)
                    if (b.m[q].request && b.m[q].view == CAP_WIRE &&
                        (!b.has_pre || b.m[q].first < b.pre_until)) {
                        b.has_pre = 1;
                        b.pre_until = b.m[q].first;
                    }
            uint64_t bad = c->st.non_http;
            rc = frame(&b, &c->segs[s], e - s, &f);
            s = e;
            if (c->st.non_http != bad) {
                /* not HTTP: the whole connection is left out */
                b.nm = first_req;
                break;
            }
        }
        a = z;
    }
    free(f.hdr);
    if (rc != PB_OK) {
        free(methods);
        free(b.m);
        pb_trace_close(b.t);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    /* line the views up: per (conn, dir), message k of each view.  b.m is
     * in (conn, dir, view, k) order already. */
    /* slots per (conn, dir): its largest k + 1 (HTTP/2 numbers leave
     * holes), or its messages (ranks by offset never exceed them) */
    size_t nl = 0, nslots = 1;
    for (size_t i = 0, gmax = 0, cnt = 0; i < b.nm; i++) {
        if (b.m[i].k + 1 > gmax)
            gmax = b.m[i].k + 1;
        cnt++;
        if (i + 1 == b.nm || b.m[i + 1].conn != b.m[i].conn || b.m[i + 1].dir != b.m[i].dir) {
            nslots += gmax > cnt ? gmax : cnt;
            gmax = cnt = 0;
        }
    }
    lmsg *L = calloc(nslots, sizeof *L);
    if (!L)
        rc = PB_ENOMEM;
    for (size_t i = 0; i < b.nm && rc == PB_OK;) {
        size_t j = i;
        while (j < b.nm && b.m[j].conn == b.m[i].conn && b.m[j].dir == b.m[i].dir)
            j++;
        uint32_t maxk = 0;
        for (size_t q = i; q < j; q++)
            if (b.m[q].k + 1 > maxk)
                maxk = b.m[q].k + 1;
        /* where the source gives stream positions, a message's place is
         * the rank of its offset among the views' (a view may have lost
         * some); else its position in its view */
        if (rc == PB_OK && (rc = rank_by_offset(&b.m[i], j - i, &maxk)) != PB_OK)
            break;
        size_t base = nl;
        for (uint32_t k = 0; k < maxk; k++) {
            L[nl].conn = b.m[i].conn;
            L[nl].dir = b.m[i].dir;
            L[nl].k = k;
            nl++;
        }
        for (size_t q = i; q < j; q++) {
            lmsg *x = &L[base + b.m[q].k];
            if (b.m[q].view == CAP_SENDER)
                x->snd = &b.m[q];
            else if (b.m[q].view == CAP_RECEIVER)
                x->rcv = &b.m[q];
            else
                x->wire = &b.m[q];
        }
        i = j;
    }
    /* pair: per connection, request k with response k */
    pb_trace *t = b.t;
    char nbuf[300], lbuf[300];
    uint32_t conn_label = 0;
    uint64_t next_id = 1;
    for (size_t i = 0; i < nl && rc == PB_OK;) {
        uint32_t conn = L[i].conn;
        size_t j = i;
        while (j < nl && L[j].conn == conn)
            j++;
        /* requests i..r, responses r..j */
        size_t r = i;
        while (r < j && L[r].dir == CAP_C2S)
            r++;
        size_t nreq = r - i, nres = j - r;
        const cap_conn_t *cc = &c->conns[conn];
        const char *cl = pb_strtab_str(c->eps, cc->client), *sv = pb_strtab_str(c->eps, cc->server);
        int ll = cc->inst > 1 ? snprintf(lbuf, sizeof lbuf, "%s>%s#%u", cl, sv, cc->inst)
                              : snprintf(lbuf, sizeof lbuf, "%s>%s", cl, sv);
        if (pb_obs_label(t->names, lbuf, (size_t)ll, &conn_label) != PB_OK) {
            rc = PB_ENOMEM;
            break;
        }
        uint32_t cnode, snode;
        char sbuf[300];
        name_of(c, cc->client_proc, cc->client, nbuf, sizeof nbuf);
        name_of(c, cc->server_proc, cc->server, sbuf, sizeof sbuf);
        if (pb_strtab_intern(t->names->nodes, nbuf, strlen(nbuf), &cnode) != PB_OK ||
            pb_strtab_intern(t->names->nodes, sbuf, strlen(sbuf), &snode) != PB_OK) {
            rc = PB_ENOMEM;
            break;
        }
        c->st.requests += nreq;
        for (size_t q = r; q < j; q++) /* HTTP/2: a slot per request, filled or not */
            c->st.responses += L[q].snd || L[q].rcv || L[q].wire;
        size_t np = nreq < nres ? nreq : nres;
        c->st.unanswered += nreq - np;
        c->st.unrequested += nres - np;
        for (size_t k = 0; k < np && rc == PB_OK; k++) {
            const lmsg *q = &L[i + k], *s = &L[r + k];
            const hmsg *qh = pick(q->snd, pick(q->rcv, q->wire));
            const hmsg *sh = pick(s->snd, pick(s->rcv, s->wire));
            if (!qh || !sh || !qh->request || sh->request) {
                c->st.unanswered++;
                continue;
            }
            c->st.pairs++;
            if (!qh->reqid) {
                c->st.no_request_id++;
                if (qh->bad_id == 2) {
                    if (!c->id_twice++)
                        snprintf(c->id_twice_first, sizeof c->id_twice_first, "%s",
                                 pb_thread_name(t->names, qh->attr));
                } else if (qh->bad_id && !c->st.bad_request_id++)
                    snprintf(c->bad_id_first, sizeof c->bad_id_first, "%s",
                             pb_thread_name(t->names, qh->attr));
                continue;
            }
            pb_ns call_ts = 0;
            for (int w = 0; w < 2 && rc == PB_OK; w++) {
                const lmsg *x = w ? s : q;
                const hmsg *h = w ? sh : qh;
                pb_msg m;
                pb_obs o = PB_OBS_NONE;
                memset(&m, 0, sizeof m);
                m.id = next_id++;
                m.type = w ? PB_TYPE_RETURN : PB_TYPE_CALL;
                m.src = w ? snode : cnode;
                m.dst = w ? cnode : snode;
                o.conn = conn_label;
                o.attr = h->attr;
                o.size = h->size < PB_SIZE_NONE ? (uint32_t)h->size : PB_SIZE_NONE - 1;
                if (x->snd) {
                    m.ts = x->snd->first;
                    if (thread_label(c, t, x->snd->proc, x->snd->tid_first, &o.sthread) != PB_OK)
                        rc = PB_ENOMEM;
                } else {
                    m.ts = x->rcv ? x->rcv->last : x->wire->first;
                    c->st.one_sided++;
                }
                if (!x->snd || !x->rcv)
                    count_one_sided(&c->st, x, w, cc->client_proc, cc->server_proc);
                /* the sender wrote one byte count, the receiver read
                 * another (events the capture lost or took twice on one
                 * side, or something between them that rewrote the
                 * message): the message's size is the sender's, as
                 * before, but no longer without a word */
                if (x->snd && x->rcv) {
                    c->both_views++;
                    if (x->snd->size != x->rcv->size && !c->size_diff++)
                        snprintf(c->size_first, sizeof c->size_first,
                                 "%s %zu on %.300s: %llu bytes written, %llu read",
                                 w ? "response" : "request", k + 1, lbuf,
                                 (unsigned long long)x->snd->size,
                                 (unsigned long long)x->rcv->size);
                }
                m.recv_ts = PB_TS_NONE;
                if (x->rcv) {
                    m.recv_ts = x->rcv->last;
                    if (thread_label(c, t, x->rcv->proc, x->rcv->tid_last, &o.thread) != PB_OK)
                        rc = PB_ENOMEM;
                } else if (x->snd && !x->wire) {
                    c->st.one_sided++;
                }
                /* one clock (a packet capture): a response stamped
                 * before its request cannot be; counted and said */
                if (!w)
                    call_ts = m.ts;
                else if (c->st.pcap && m.ts < call_ts)
                    c->back_pairs++;
                char cid[340];
                int cl2 = snprintf(cid, sizeof cid, "%.300s/%zu", lbuf,
                                   qh->sid ? (size_t)qh->sid : k + 1);
                if (rc == PB_OK && pb_label_parse(t->names, cid, (size_t)cl2, &m.callid) != PB_OK)
                    rc = PB_ENOMEM;
                const char *rid = pb_thread_name(t->names, qh->reqid);
                pb_truth tr = {PB_ID_NONE, PB_ID_NONE};
                if (rc == PB_OK && pb_label_parse(t->names, rid, strlen(rid), &tr.path) != PB_OK)
                    rc = PB_ENOMEM;
                if (rc == PB_OK)
                    rc = pb_trace_append_obs(t, &m, &o, &tr);
            }
        }
        i = j;
    }
    free(L);
    free(methods);
    free(b.m);
    if (rc != PB_OK) {
        pb_trace_close(t);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    if (!t->n) {
        pb_trace_close(t);
        char bad[160] = "";
        if (c->st.bad_request_id)
            snprintf(bad, sizeof bad, "; %llu pairs whose traceparent names no trace (a "
                     "trace id of other than 32 hex digits, or all zero)",
                     (unsigned long long)c->st.bad_request_id);
        /* a packet file that ended in an error is the likelier reason:
         * say it here, since the warning that says it elsewhere goes with
         * a trace, and there is none */
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "no request with a %s header was found (%llu HTTP requests, "
                            "%llu streams not HTTP, %llu HTTP/2 streams malformed%s%s%s%s%s%s%s); "
                            "expected requests carrying it (--request-header names "
                            "another)",
                            c->opts->header ? c->opts->header : "traceparent",
                            (unsigned long long)c->st.requests,
                            (unsigned long long)c->st.non_http,
                            (unsigned long long)c->st.malformed,
                            c->pcap_error ? "; the packet capture ends in an error: " : "",
                            c->pcap_error ? c->pcap_msg : "",
                            c->frag4 || c->frag6 ? "; fragments of TCP packets could not "
                                                   "be put back together: first in " : "",
                            c->frag4 || c->frag6 ? c->frag_msg : "", bad,
                            c->nnotes ? "; first note: " : "",
                            c->nnotes ? c->notes[0] : "");
    }
    /* time order (ties by id: the order of pairing), ids 1.. in it */
    if (pb_trace_sort(t) != PB_OK) {
        pb_trace_close(t);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    for (size_t i = 0; i < t->n; i++)
        t->msgs[i].id = i + 1;
    if ((rc = causes(t, err)) != PB_OK) {
        pb_trace_close(t);
        return rc;
    }
    /* what was written: messages, requests (distinct ids), threads */
    {
        uint64_t *a = malloc((2 * t->n + 1) * sizeof *a);
        if (!a) {
            pb_trace_close(t);
            return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
        }
        size_t na = 0;
        for (size_t i = 0; i < t->n; i++)
            a[na++] = t->truth[i].path;
        c->st.messages = t->n;
        c->st.paths = distinct(a, na);
        na = 0;
        for (size_t i = 0; i < t->n; i++) {
            if (pb_obs_thread(t->obs, i))
                a[na++] = pb_obs_thread(t->obs, i);
            if (pb_obs_sthread(t->obs, i))
                a[na++] = pb_obs_sthread(t->obs, i);
        }
        c->st.threads = distinct(a, na);
        free(a);
    }
    t->columns = PB_COL_ALL | PB_COL_CONN | PB_COL_ATTR | PB_COL_SIZE;
    if (!c->st.pcap)
        t->columns |= PB_COL_THREAD | PB_COL_STHREAD;
    pb_strbuf mb = {0};
    if (c->st.ebpf)
        pb_strbuf_printf(&mb, "capture: source=ebpf clock=timestamp_ns (the probe's kernel "
                              "clock: one clock per host; the capture does not say which "
                              "host each process ran on) threads=observed processes=%llu",
                         (unsigned long long)c->st.processes);
    else if (c->st.pcap)
        pb_strbuf_printf(&mb, "capture: source=pcap clock=capture-point (one stamp per "
                              "message: its first packet) threads=none");
    else
        pb_strbuf_printf(&mb, "capture: source=pbcapture clock=CLOCK_REALTIME (one clock "
                              "per host; every process on it reads the same) "
                              "threads=observed processes=%llu",
                         (unsigned long long)c->st.processes);
    pb_trace_add_meta(t, pb_strbuf_str(&mb));
    pb_strbuf_reset(&mb);
    pb_strbuf_printf(&mb, "capture: truth=%s header (request id; never shown to "
                          "algorithms) events=%llu segments=%llu connections=%llu "
                          "requests=%llu responses=%llu pairs=%llu unanswered=%llu "
                          "unrequested=%llu no_request_id=%llu non_http=%llu truncated=%llu "
                          "cut=%llu filtered=%llu one_sided=%llu lost_at_sender=%llu "
                          "lost_at_receiver=%llu uncaptured_sender=%llu "
                          "uncaptured_receiver=%llu lost_calls=%llu gaps=%llu messages=%llu "
                          "paths=%llu threads=%llu http2=%llu malformed=%llu",
                     c->opts->header ? c->opts->header : "traceparent",
                     (unsigned long long)c->st.events, (unsigned long long)c->st.segments,
                     (unsigned long long)c->st.connections, (unsigned long long)c->st.requests,
                     (unsigned long long)c->st.responses, (unsigned long long)c->st.pairs,
                     (unsigned long long)c->st.unanswered, (unsigned long long)c->st.unrequested,
                     (unsigned long long)c->st.no_request_id, (unsigned long long)c->st.non_http,
                     (unsigned long long)c->st.truncated, (unsigned long long)c->st.cut,
                     (unsigned long long)c->st.filtered, (unsigned long long)c->st.one_sided,
                     (unsigned long long)c->st.lost_at_sender,
                     (unsigned long long)c->st.lost_at_receiver,
                     (unsigned long long)c->st.uncaptured_sender,
                     (unsigned long long)c->st.uncaptured_receiver,
                     (unsigned long long)c->st.lost_calls, (unsigned long long)c->st.gaps,
                     (unsigned long long)c->st.messages, (unsigned long long)c->st.paths,
                     (unsigned long long)c->st.threads,
                     (unsigned long long)c->st.http2, (unsigned long long)c->st.malformed);
    if (c->st.repeated) /* only when met: other imports stay as they were */
        pb_strbuf_printf(&mb, " repeated=%llu", (unsigned long long)c->st.repeated);
    pb_trace_add_meta(t, pb_strbuf_str(&mb));
    if (cap_notes_meta(c, t) != PB_OK) {
        pb_strbuf_free(&mb);
        pb_trace_close(t);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    if (c->snap_cut) { /* only when met: other imports stay as they were */
        pb_strbuf_reset(&mb);
        pb_strbuf_printf(&mb, "capture: snaplen %s: %llu of %llu packets were longer than "
                              "the snapshot length and were cut (first: packet %ld); %llu "
                              "bytes of payload were not captured (message sizes and times "
                              "kept from the IP lengths; a message whose headers were cut is "
                              "left out: streams whose headers were not captured, cut inside "
                              "a message); capture again with a larger -s (tcpdump -s 0)",
                         c->snap_msg, (unsigned long long)c->snap_cut,
                         (unsigned long long)c->snap_pkts, c->snap_first,
                         (unsigned long long)c->snap_lost);
        pb_trace_add_meta(t, pb_strbuf_str(&mb));
    }
    if (c->subns_cut) { /* only when met: other imports stay as they were */
        pb_strbuf_reset(&mb);
        pb_strbuf_printf(&mb, "capture: subns %s: %llu of %llu packets were stamped "
                              "finer than a nanosecond, and the part below it was cut "
                              "(first: packet %ld): trace times are whole nanoseconds, so "
                              "packets within one nanosecond keep their capture order",
                         c->subns_msg, (unsigned long long)c->subns_cut,
                         (unsigned long long)c->snap_pkts, c->subns_first);
        pb_trace_add_meta(t, pb_strbuf_str(&mb));
    }
    if (c->reordered_segs) { /* only when met: other imports stay as they were */
        pb_strbuf_reset(&mb);
        pb_strbuf_printf(&mb, "capture: reordered %s: %llu TCP segments were stamped before "
                              "bytes that come before them in their stream (a capture on "
                              "several queues or interfaces): each was read after those "
                              "bytes, at their time",
                         c->reorder_msg, (unsigned long long)c->reordered_segs);
        pb_trace_add_meta(t, pb_strbuf_str(&mb));
    }
    if (c->evtwice) { /* only when met */
        pb_strbuf_reset(&mb);
        pb_strbuf_printf(&mb, "capture: events-twice: %llu pbcapture event files held the "
                              "lines of an event file read before (the same file or folder "
                              "given twice, or a copy; first: %s): read once",
                         (unsigned long long)c->evtwice, c->evtwice_msg);
        pb_trace_add_meta(t, pb_strbuf_str(&mb));
    }
    if (c->order_moved) { /* only when met */
        pb_strbuf_reset(&mb);
        pb_strbuf_printf(&mb, "capture: file-order: %zu of the %zu packet capture files "
                              "were given out of the order of their first packets' "
                              "stamps (first: %s; a rotated capture's names sort cap10 "
                              "before cap2): read in that order",
                         c->order_moved, c->order_n, c->order_msg);
        pb_trace_add_meta(t, pb_strbuf_str(&mb));
    }
    if (c->cont_conns || c->again_conns) { /* only when met */
        pb_strbuf_reset(&mb);
        pb_strbuf_printf(&mb, "capture: files: %llu TCP connections went on from one file "
                              "into the next (a rotated capture; first in %s): read as "
                              "one; %llu were met again with their own SYN in a later "
                              "file (both ends captured, or one capture given twice; "
                              "first in %s): read once, at the first file's stamps",
                         (unsigned long long)c->cont_conns,
                         c->cont_conns ? c->cont_msg : "-",
                         (unsigned long long)c->again_conns,
                         c->again_conns ? c->again_msg : "-");
        pb_trace_add_meta(t, pb_strbuf_str(&mb));
    }
    if (c->tunnel_pkts) { /* only when met: other imports stay as they were */
        static const char *const kn[] = {"", "IP in IP", "GRE", "VXLAN", "Geneve"};
        char kinds[64] = "";
        for (unsigned i = 1; i < 5; i++)
            if (c->tunnel_kinds & (1u << i))
                snprintf(kinds + strlen(kinds), sizeof kinds - strlen(kinds), "%s%s",
                         kinds[0] ? ", " : "", kn[i]);
        pb_strbuf_reset(&mb);
        pb_strbuf_printf(&mb, "capture: tunnels %s: %llu packets were read inside a tunnel "
                              "(%s; first: packet %ld): each as the packet it carries, its "
                              "nodes named by the inner addresses",
                         c->tunnel_msg, (unsigned long long)c->tunnel_pkts, kinds,
                         c->tunnel_first);
        pb_trace_add_meta(t, pb_strbuf_str(&mb));
    }
    if (c->joined_streams) { /* only when met: other imports stay as they were */
        char at[PB_SECONDS_BUF];
        pb_seconds_format(c->joined_first, at);
        pb_strbuf_reset(&mb);
        pb_strbuf_printf(&mb, "capture: joined-inside: %llu streams of connections the capture "
                              "joined open began inside a message (first: at %s s): their "
                              "first %llu bytes in all, up to the first segment that starts "
                              "an HTTP/1 message, were skipped",
                         (unsigned long long)c->joined_streams, at,
                         (unsigned long long)c->joined_bytes);
        pb_trace_add_meta(t, pb_strbuf_str(&mb));
    }
    if (c->pre_answers) { /* only when met: other imports stay as they were */
        char at[PB_SECONDS_BUF];
        pb_seconds_format(c->pre_first, at);
        pb_strbuf_reset(&mb);
        pb_strbuf_printf(&mb, "capture: joined-answered: %llu HTTP/1 responses on connections the "
                              "capture joined open began before the first request it holds "
                              "on them (first: at %s s): answers to requests sent before the "
                              "capture began, left out (counted unrequested); the pairs after "
                              "them kept in step",
                         (unsigned long long)c->pre_answers, at);
        pb_trace_add_meta(t, pb_strbuf_str(&mb));
    }
    if (c->switch_101 || c->switch_connect || c->switch_req_cut) { /* only when met */
        char at[PB_SECONDS_BUF] = "-";
        if (c->switch_101 || c->switch_connect)
            pb_seconds_format(c->switch_first, at);
        pb_strbuf_reset(&mb);
        pb_strbuf_printf(&mb, "capture: switched: %llu HTTP/1 connections switched protocols "
                              "(%llu by a 101 response, %llu by a 2xx answer to CONNECT; "
                              "first at %s s) and %llu request streams held bytes not HTTP "
                              "after a request asking to switch: each such answer paired "
                              "with its request, the bytes after the switch not read (before, "
                              "the whole connection was left out as not HTTP)",
                         (unsigned long long)(c->switch_101 + c->switch_connect),
                         (unsigned long long)c->switch_101,
                         (unsigned long long)c->switch_connect, at,
                         (unsigned long long)c->switch_req_cut);
        pb_trace_add_meta(t, pb_strbuf_str(&mb));
    }
    if (c->bare_lf) { /* only when met: other imports stay as they were */
        char at[PB_SECONDS_BUF];
        pb_seconds_format(c->bare_lf_first, at);
        pb_strbuf_reset(&mb);
        pb_strbuf_printf(&mb, "capture: bare-lf: %llu HTTP/1 messages ended their lines with a "
                              "bare LF, not CRLF (first at %s s): read as line ends (RFC 9112 "
                              "2.2; before, such a message never ended and its connection's "
                              "messages were lost)",
                         (unsigned long long)c->bare_lf, at);
        pb_trace_add_meta(t, pb_strbuf_str(&mb));
    }
    if (c->id_twice) { /* only when met: other imports stay as they were */
        pb_strbuf_reset(&mb);
        pb_strbuf_printf(&mb, "capture: request-id-twice: %llu request/response pairs whose "
                              "request carried the request-id header (%s) on two lines with "
                              "different values (first: \"%s\"): left out as pairs without "
                              "the header (which value is the request's cannot be told; "
                              "before, the first line's was taken)",
                         (unsigned long long)c->id_twice,
                         c->opts->header ? c->opts->header : "traceparent",
                         c->id_twice_first);
        pb_trace_add_meta(t, pb_strbuf_str(&mb));
    }
    if (c->st.bad_request_id) { /* only when met: other imports stay as they were */
        pb_strbuf_reset(&mb);
        pb_strbuf_printf(&mb, "capture: traceparent: %llu request/response pairs whose "
                              "traceparent header names no trace (a trace id of other "
                              "than 32 hex digits, or all zero; first: \"%s\"): left out "
                              "as pairs without the header (W3C Trace Context ignores such "
                              "a header)",
                         (unsigned long long)c->st.bad_request_id, c->bad_id_first);
        pb_trace_add_meta(t, pb_strbuf_str(&mb));
    }
    if (c->hdr_over) { /* only when met: other imports stay as they were */
        pb_strbuf_reset(&mb);
        char at[PB_SECONDS_BUF];
        pb_seconds_format(c->hdr_over_first, at);
        pb_strbuf_printf(&mb, "capture: headers: %llu HTTP/1 headers longer than %d KiB "
                              "(first at %s s): their connections are left out "
                              "(counted as streams not HTTP; the notes name them)",
                         (unsigned long long)c->hdr_over, HDR_MAX / 1024, at);
        pb_trace_add_meta(t, pb_strbuf_str(&mb));
    }
    if (c->frag4 || c->frag6) { /* only when met: other imports stay as they were */
        pb_strbuf_reset(&mb);
        pb_strbuf_printf(&mb, "capture: fragments %s: %llu IPv4 and %llu IPv6 fragments of "
                              "TCP packets could not be put back together (first: packet "
                              "%ld; a fragment cut by the snapshot length or invalid, a "
                              "datagram whose parts did not all come); their bytes are gaps "
                              "of their streams (a message cut by one is left out); %llu "
                              "IPv4 and IPv6 datagrams were put back together",
                         c->frag_msg, (unsigned long long)c->frag4,
                         (unsigned long long)c->frag6, c->frag_first,
                         (unsigned long long)c->frag_joined);
        pb_trace_add_meta(t, pb_strbuf_str(&mb));
    }
    if (c->back_pkts || c->back_pairs) { /* only when met */
        pb_strbuf_reset(&mb);
        char by[PB_SECONDS_BUF];
        pb_seconds_format(c->back_max, by);
        pb_strbuf_printf(&mb, "capture: backward %s: %llu of %llu packets were stamped "
                              "before the packet before them (first: packet %ld; %s s "
                              "back at most) and %llu responses before their requests: "
                              "the capture's clock stepped back or files were merged out "
                              "of time order; messages keep their stamps (sort the capture "
                              "by time, e.g. reordercap, or capture again)",
                         c->back_pkts ? c->back_msg : "(packets in order)",
                         (unsigned long long)c->back_pkts,
                         (unsigned long long)c->snap_pkts, c->back_first, by,
                         (unsigned long long)c->back_pairs);
        pb_trace_add_meta(t, pb_strbuf_str(&mb));
    }
    if (c->evback) { /* only when met */
        pb_strbuf_reset(&mb);
        char by[PB_SECONDS_BUF];
        pb_seconds_format(c->evback_max, by);
        pb_strbuf_printf(&mb, "capture: backward %s: %llu of %llu events were stamped "
                              "before the event before them in their file (first: line "
                              "%ld; %s s back at most): the thread's clock stepped back; "
                              "messages keep their stamps, so their order and the links "
                              "across that step may be wrong (capture again, or with a "
                              "clock that does not step)",
                         c->evback_msg, (unsigned long long)c->evback,
                         (unsigned long long)c->st.events, c->evback_first, by);
        pb_trace_add_meta(t, pb_strbuf_str(&mb));
    }
    if (c->tso || c->tso_small) { /* only when met */
        pb_strbuf_reset(&mb);
        pb_strbuf_printf(&mb, "capture: tso %s: %llu TCP packets had an IP length field "
                              "of 0 (TCP segmentation offload on the capturing host: the "
                              "network card fills it in) and were read at their frame's "
                              "length (first: packet %ld); %llu such Ethernet frames of 60 "
                              "bytes, the minimum (padding may hide their length), were "
                              "skipped (capture with offload off, ethtool -K IF tso off gso "
                              "off, for exact lengths)",
                         c->tso_msg, (unsigned long long)c->tso, c->tso_first,
                         (unsigned long long)c->tso_small);
        pb_trace_add_meta(t, pb_strbuf_str(&mb));
    }
    if (c->size_diff) { /* only when met: other imports stay as they were */
        pb_strbuf_reset(&mb);
        pb_strbuf_printf(&mb, "capture: sizes: %llu of %llu messages seen by both their "
                              "sender and their receiver were written with one byte count "
                              "and read with another (first: %s); their size column holds "
                              "the sender's count (events one side lost or recorded twice, "
                              "or a proxy between them that rewrote the message)",
                         (unsigned long long)c->size_diff,
                         (unsigned long long)c->both_views, c->size_first);
        pb_trace_add_meta(t, pb_strbuf_str(&mb));
    }
    if (c->pcap_error) {
        pb_strbuf_reset(&mb);
        pb_strbuf_printf(&mb, "capture: cut-short %s", c->pcap_msg);
        pb_trace_add_meta(t, pb_strbuf_str(&mb));
    }
    pb_strbuf_free(&mb);
    *out = t;
    return PB_OK;
}
