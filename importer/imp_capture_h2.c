/*
 * imp_capture_h2.c - HTTP/2 (and gRPC over it) in captures (docs/capture.md,
 * "HTTP/2 and gRPC").  A connection whose client stream starts with the
 * connection preface (prior knowledge, as gRPC speaks it) is framed here
 * instead of as HTTP/1.1: each view of each direction (the sender's writes,
 * the receiver's reads, the wire) is cut into frames by their 9-byte
 * headers; header blocks (HEADERS, CONTINUATION, PUSH_PROMISE) go through
 * one nghttp2 HPACK inflater per view and direction, in stream order.  A
 * message is a request (client to server) or response (server to client)
 * on one stream: its header block, DATA up to END_STREAM, trailers.
 *
 * Lining up and pairing reuse the HTTP/1.1 machinery (imp_capture_http.c),
 * which pairs request k with response k on a connection and lines views up
 * by k: requests are numbered in the order they end on the client stream
 * (the same order in every view, which sees the same bytes), and a
 * response gets the number of the request on its stream id.  Views only
 * ever lose a tail (a capture gap in a header block or frame header stops
 * the view: HPACK state cannot be rebuilt), so the numbers agree.
 */
#include "imp_capture_int.h"

#include <nghttp2/nghttp2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pb_strbuf.h"

static const char PREFACE[] = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
#define PREFACE_LEN 24

enum { F_DATA = 0, F_HEADERS = 1, F_RST = 3, F_SETTINGS = 4, F_PUSH = 5, F_CONT = 9 };
enum { FL_END_STREAM = 0x1, FL_END_HEADERS = 0x4, FL_PADDED = 0x8, FL_PRIORITY = 0x20 };
enum { PH_PREFACE, PH_HEAD, PH_PAYLOAD, PH_DEAD };
/* stream states in one view */
enum { ST_IDLE, ST_HEAD, ST_BODY, ST_TRAILER };

#define H2_DEFAULT_FRAME 16384u     /* SETTINGS_MAX_FRAME_SIZE's initial value */
#define H2_LARGEST_FRAME 16777215u  /* its largest allowed value */
#define H2_TABLE_MAX (1u << 20)     /* dynamic table size updates allowed */
#define NOTES_MAX 20
#define DONE UINT32_MAX             /* stream map: ended, reset or ignored */
#define NONE UINT32_MAX             /* no stream record */

/* ------------------------------------------------------------------ */
/* stream id -> value, open addressing (ids are never 0) */

typedef struct h2map {
    uint32_t *key, *val;
    size_t cap, n;
} h2map;

static size_t slot(const h2map *m, uint32_t key)
{
    size_t i = (size_t)(key * 2654435761u) & (m->cap - 1);
    while (m->key[i] && m->key[i] != key)
        i = (i + 1) & (m->cap - 1);
    return i;
}

static int map_get(const h2map *m, uint32_t key, uint32_t *val)
{
    if (!m->cap)
        return 0;
    size_t i = slot(m, key);
    if (!m->key[i])
        return 0;
    *val = m->val[i];
    return 1;
}

static int map_put(h2map *m, uint32_t key, uint32_t val)
{
    if (2 * (m->n + 1) > m->cap) {
        h2map g = {0};
        g.cap = m->cap ? 2 * m->cap : 64;
        g.key = calloc(g.cap, sizeof *g.key);
        g.val = malloc(g.cap * sizeof *g.val);
        if (!g.key || !g.val) {
            free(g.key);
            free(g.val);
            return PB_ENOMEM;
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->key[i]) {
                size_t j = slot(&g, m->key[i]);
                g.key[j] = m->key[i];
                g.val[j] = m->val[i];
            }
        g.n = m->n;
        free(m->key);
        free(m->val);
        *m = g;
    }
    size_t i = slot(m, key);
    if (!m->key[i])
        m->n++;
    m->key[i] = key;
    m->val[i] = val;
    return PB_OK;
}

static void map_free(h2map *m)
{
    free(m->key);
    free(m->val);
    memset(m, 0, sizeof *m);
}

/* ------------------------------------------------------------------ */
/* notes */

int cap_note(cap *c, uint32_t conn, const char *fmt, ...)
{
    c->notes_all++;
    if (c->nnotes >= NOTES_MAX)
        return PB_OK;
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const cap_conn_t *cc = &c->conns[conn];
    pb_strbuf b = {0};
    char inst[24] = "";
    if (cc->inst > 1)
        snprintf(inst, sizeof inst, "#%u", cc->inst);
    char **nn = realloc(c->notes, (c->nnotes + 1) * sizeof *nn);
    if (!nn)
        return PB_ENOMEM;
    c->notes = nn;
    if (pb_strbuf_printf(&b, "%s: connection %s>%s%s: %s",
                         cc->path ? cc->path : "the captures",
                         pb_strtab_str(c->eps, cc->client), pb_strtab_str(c->eps, cc->server),
                         inst, what) != PB_OK) {
        pb_strbuf_free(&b);
        return PB_ENOMEM;
    }
    c->notes[c->nnotes++] = pb_strbuf_take(&b);
    return PB_OK;
}

int cap_notes_meta(const cap *c, pb_trace *t)
{
    pb_strbuf b = {0};
    int rc = PB_OK;
    for (size_t i = 0; i < c->nnotes && rc == PB_OK; i++) {
        pb_strbuf_reset(&b);
        rc = pb_strbuf_printf(&b, "capture: note %s", c->notes[i]);
        if (rc == PB_OK)
            rc = pb_trace_add_meta(t, pb_strbuf_str(&b));
    }
    if (rc == PB_OK && c->notes_all > c->nnotes) {
        pb_strbuf_reset(&b);
        rc = pb_strbuf_printf(&b, "capture: note and %llu more irregularities like these",
                              (unsigned long long)(c->notes_all - c->nnotes));
        if (rc == PB_OK)
            rc = pb_trace_add_meta(t, pb_strbuf_str(&b));
    }
    pb_strbuf_free(&b);
    return rc == PB_OK ? PB_OK : PB_ENOMEM;
}

/* ------------------------------------------------------------------ */
/* detection and the peers' settings */

/* the first bytes of the view that starts at s[0] (of s[0..n)) into out
 * (up to want); stops at bytes that were not captured */
static size_t first_bytes(const cap *c, const cap_seg *s, size_t n, unsigned char *out,
                          size_t want)
{
    size_t got = 0;
    for (size_t i = 0; i < n && s[i].dir == s[0].dir && s[i].view == s[0].view && got < want;
         i++) {
        if (s[i].kind == CAP_END)
            break;
        size_t t = s[i].plen < want - got ? s[i].plen : want - got;
        if (t)
            memcpy(out + got, c->bytes + s[i].poff, t);
        got += t;
        if (s[i].bytes > s[i].plen)
            break;
    }
    return got;
}

/* the index in s[0..n) where the next view (or direction) starts */
static size_t next_view(const cap_seg *s, size_t n, size_t i)
{
    size_t e = i;
    while (e < n && s[e].dir == s[i].dir && s[e].view == s[i].view)
        e++;
    return e;
}

int cap_h2_detect(const cap *c, const cap_seg *s, size_t n)
{
    /* any view of the client's stream that captured the whole preface */
    for (size_t i = 0; i < n && s[i].dir == CAP_C2S; i = next_view(s, n, i)) {
        unsigned char b[PREFACE_LEN];
        if (first_bytes(c, s + i, n - i, b, sizeof b) == PREFACE_LEN &&
            !memcmp(b, PREFACE, PREFACE_LEN))
            return 1;
    }
    return 0;
}

/* SETTINGS_MAX_FRAME_SIZE from the first SETTINGS frame of direction dir
 * (a peer's first frame is its SETTINGS), in any view that captured it:
 * the largest frame the other direction may send.  A later change is not
 * followed. */
static uint32_t peer_max_frame(const cap *c, const cap_seg *s, size_t n, int dir)
{
    uint32_t mx = H2_DEFAULT_FRAME;
    size_t skip = dir == CAP_C2S ? PREFACE_LEN : 0;
    for (size_t i = 0; i < n; i = next_view(s, n, i)) {
        if (s[i].dir != dir)
            continue;
        unsigned char b[PREFACE_LEN + 9 + 6 * 32];
        size_t got = first_bytes(c, s + i, n - i, b, sizeof b);
        if (got < skip + 9 || b[skip + 3] != F_SETTINGS)
            continue;
        size_t len = (size_t)b[skip] << 16 | (size_t)b[skip + 1] << 8 | b[skip + 2];
        const unsigned char *p = b + skip + 9;
        if (len > got - skip - 9)
            len = got - skip - 9;
        for (size_t o = 0; o + 6 <= len; o += 6) {
            uint32_t id = (uint32_t)p[o] << 8 | p[o + 1];
            uint32_t v = (uint32_t)p[o + 2] << 24 | (uint32_t)p[o + 3] << 16 |
                         (uint32_t)p[o + 4] << 8 | p[o + 5];
            if (id == 5 && v > mx && v <= H2_LARGEST_FRAME)
                mx = v;
        }
    }
    return mx;
}

/* ------------------------------------------------------------------ */
/* one view of one direction */

typedef struct h2str {      /* an open stream of this view */
    uint32_t sid;
    int state;              /* ST_* */
    hmsg m;
    char path[128];
    char grpc[12];          /* grpc-status, "" none */
} h2str;

typedef struct h2v {
    cap *c;
    pb_trace *t;
    int (*push)(void *ctx, const hmsg *m);
    void *ctx;
    h2map *reqk;            /* the connection's request stream ids -> k */
    uint32_t nreq;          /* requests of the connection (client views) */
    uint32_t conn;
    uint8_t dir, view;
    uint32_t k;             /* requests ended / responses without request */
    uint32_t maxframe;
    nghttp2_hd_inflater *inf;
    int phase;              /* PH_* */
    size_t pre;             /* preface bytes seen */
    unsigned char fh[9];
    size_t fhl;
    uint32_t flen, fsid, frem;
    uint8_t ftype, fflags;
    pb_ns fts, lts;         /* stamps: the frame's first byte, the latest */
    int64_t ftid, ltid;
    uint32_t proc;
    int padknown;           /* DATA: its pad length byte was read */
    uint32_t dpad;
    unsigned char *buf;     /* a header-bearing frame's payload */
    size_t blen, bcap;
    uint32_t cont;          /* stream whose header block continues, 0 none */
    uint32_t blk;           /* the block's stream record, NONE: decode only */
    int blk_end;            /* the block's HEADERS had END_STREAM */
    h2map streams;          /* sid -> record index, or DONE */
    h2str *rec;
    size_t nrec, reccap;
    uint32_t *freel;
    size_t nfree;
} h2v;

/* "a DATA frame", "a frame of type 0x0a" */
static void frame_name(uint8_t t, char *buf, size_t n)
{
    static const char *const nm[] = {"DATA", "HEADERS", "PRIORITY", "RST_STREAM", "SETTINGS",
                                     "PUSH_PROMISE", "PING", "GOAWAY", "WINDOW_UPDATE",
                                     "CONTINUATION"};
    if (t < sizeof nm / sizeof *nm)
        snprintf(buf, n, "a %s frame", nm[t]);
    else
        snprintf(buf, n, "a frame of type 0x%02x", t);
}

/* the view in words, for notes */
static void view_name(const h2v *v, char *buf, size_t n)
{
    static const char *const d[] = {"client to server", "server to client"};
    static const char *const w[] = {"as written", "as read", "on the wire"};
    snprintf(buf, n, "%s, %s", d[v->dir & 1], w[v->view < 3 ? v->view : 2]);
}

/* give the view up: a malformed frame or header block */
static int bad(h2v *v, const char *what)
{
    char vn[64];
    view_name(v, vn, sizeof vn);
    v->c->st.malformed++;
    v->phase = PH_DEAD;
    return cap_note(v->c, v->conn, "HTTP/2 (%s): %s; the rest of this stream is left out",
                    vn, what);
}

/* give the view up: bytes of a frame header or header block not captured */
static int gap(h2v *v)
{
    char vn[64];
    view_name(v, vn, sizeof vn);
    const char *where = v->phase == PH_PAYLOAD || v->cont ? "header block" :
                        v->phase == PH_PREFACE ? "connection preface" : "frame header";
    v->c->st.truncated++;
    v->phase = PH_DEAD;
    return cap_note(v->c, v->conn, "HTTP/2 (%s): bytes of a %s were not captured (a capture "
                    "gap or the payload cap); later header blocks cannot be decoded, the rest "
                    "of this stream is left out", vn, where);
}

static int rec_new(h2v *v, uint32_t sid, uint32_t *out)
{
    uint32_t i;
    if (v->nfree) {
        i = v->freel[--v->nfree];
    } else {
        if (v->nrec == v->reccap) {
            size_t nc = v->reccap ? 2 * v->reccap : 16;
            h2str *nr = realloc(v->rec, nc * sizeof *nr);
            uint32_t *nf = realloc(v->freel, nc * sizeof *nf);
            if (nr)
                v->rec = nr;
            if (nf)
                v->freel = nf;
            if (!nr || !nf)
                return PB_ENOMEM;
            v->reccap = nc;
        }
        i = (uint32_t)v->nrec++;
    }
    h2str *r = &v->rec[i];
    memset(r, 0, sizeof *r);
    r->sid = sid;
    r->m.conn = v->conn;
    r->m.dir = v->dir;
    r->m.view = v->view;
    r->m.sid = sid;
    r->m.proc = v->proc;
    *out = i;
    return map_put(&v->streams, sid, i);
}

/* the stream is over in this view: its record is reused */
static int rec_done(h2v *v, uint32_t i)
{
    v->freel[v->nfree++] = i;
    return map_put(&v->streams, v->rec[i].sid, DONE);
}

/* a message ended (END_STREAM): number it and hand it on */
static int finish(h2v *v, uint32_t i)
{
    h2str *r = &v->rec[i];
    hmsg m = r->m;
    char attr[200];
    if (v->dir == CAP_C2S) {
        m.request = 1;
        m.k = v->k++;
        if (map_put(v->reqk, r->sid, m.k) != PB_OK)
            return PB_ENOMEM;
        size_t pl = strcspn(r->path, "?");
        snprintf(attr, sizeof attr, "%s%s%.*s", m.method, m.method[0] ? " " : "",
                 (int)(pl > 120 ? 120 : pl), r->path);
    } else {
        uint32_t k;
        m.request = 0;
        m.k = map_get(v->reqk, r->sid, &k) ? k : v->nreq + v->k++;
        if (r->grpc[0])
            snprintf(attr, sizeof attr, "%d grpc-status=%s", m.status, r->grpc);
        else
            snprintf(attr, sizeof attr, "%d", m.status);
    }
    if (pb_obs_label(v->t->names, attr, strlen(attr), &m.attr) != PB_OK)
        return PB_ENOMEM;
    int rc = v->push(v->ctx, &m);
    if (rc != PB_OK)
        return rc;
    return rec_done(v, i);
}

static int name_is(const nghttp2_nv *nv, const char *s)
{
    size_t l = strlen(s);
    return nv->namelen == l && !strncasecmp((const char *)nv->name, s, l);
}

static void copy_val(char *out, size_t on, const nghttp2_nv *nv)
{
    size_t l = nv->valuelen < on - 1 ? nv->valuelen : on - 1;
    memcpy(out, nv->value, l);
    out[l] = 0;
}

/* one decoded header field of the block in progress */
static int field(h2v *v, const nghttp2_nv *nv)
{
    if (v->blk == NONE)
        return PB_OK;
    h2str *r = &v->rec[v->blk];
    const char *hn = v->c->opts->header ? v->c->opts->header : "traceparent";
    if (name_is(nv, ":method")) {
        copy_val(r->m.method, sizeof r->m.method, nv);
    } else if (name_is(nv, ":path")) {
        copy_val(r->path, sizeof r->path, nv);
    } else if (name_is(nv, ":status")) {
        char st[8];
        copy_val(st, sizeof st, nv);
        r->m.status = atoi(st);
    } else if (name_is(nv, "grpc-status")) {
        copy_val(r->grpc, sizeof r->grpc, nv);
    } else if (v->dir == CAP_C2S && !r->m.reqid && name_is(nv, hn)) {
        return cap_request_id(v->c, v->t, (const char *)nv->value, nv->valuelen, &r->m.reqid,
                              &r->m.bad_id);
    }
    return PB_OK;
}

/* feed a header block fragment to the view's HPACK decoder; 1: HPACK error */
static int inflate(h2v *v, const unsigned char *in, size_t inlen, int final)
{
    for (;;) {
        nghttp2_nv nv;
        int fl = 0;
        ssize_t rv = nghttp2_hd_inflate_hd2(v->inf, &nv, &fl, in, inlen, final);
        if (rv == NGHTTP2_ERR_NOMEM)
            return PB_ENOMEM;
        if (rv < 0)
            return 1;
        in += rv;
        inlen -= (size_t)rv;
        if ((fl & NGHTTP2_HD_INFLATE_EMIT) && field(v, &nv) != PB_OK)
            return PB_ENOMEM;
        if (fl & NGHTTP2_HD_INFLATE_FINAL) {
            nghttp2_hd_inflate_end_headers(v->inf);
            return PB_OK;
        }
        if (!(fl & NGHTTP2_HD_INFLATE_EMIT)) /* all input taken, or no progress */
            return inlen ? 1 : PB_OK;
    }
}

/* the header block of the stream in v->blk is complete */
static int block_done(h2v *v)
{
    v->cont = 0;
    if (v->blk == NONE)
        return PB_OK;
    uint32_t i = v->blk;
    h2str *r = &v->rec[i];
    if (r->state == ST_HEAD) {
        r->m.last = v->lts;
        r->m.tid_last = v->ltid;
        if (v->dir == CAP_S2C && r->m.status >= 100 && r->m.status < 200) {
            /* an interim answer: the final one comes in the next block */
            r->state = ST_IDLE;
            return v->blk_end ? rec_done(v, i) : PB_OK;
        }
    }
    r->state = ST_BODY;
    return v->blk_end ? finish(v, i) : PB_OK;
}

/* a header block fragment of HEADERS / PUSH_PROMISE / CONTINUATION */
static int fragment(h2v *v, const unsigned char *p, size_t n)
{
    static const unsigned char empty[1];
    if (!n)
        p = empty; /* an empty fragment of an empty frame: no buffer */
    int end = (v->fflags & FL_END_HEADERS) != 0;
    int rc = inflate(v, p, n, end);
    if (rc == 1)
        return bad(v, "an HPACK error in a header block");
    if (rc != PB_OK)
        return rc;
    if (!end) {
        v->cont = v->fsid;
        return PB_OK;
    }
    return block_done(v);
}

/* strip PADDED and, for HEADERS, PRIORITY fields (PUSH_PROMISE: the
 * promised stream id) off the buffered payload; 0 when they do not fit */
static int unpad(h2v *v, size_t fixed, size_t *off, size_t *len)
{
    size_t o = 0, pad = 0;
    if (v->fflags & FL_PADDED) {
        if (v->blen < 1)
            return 0;
        pad = v->buf[0];
        o = 1;
    }
    o += fixed;
    if (o + pad > v->blen)
        return 0;
    *off = o;
    *len = v->blen - o - pad;
    return 1;
}

/* a whole frame has been read */
static int frame_done(h2v *v)
{
    uint32_t sid = v->fsid, ri = NONE, got;
    int known = sid && map_get(&v->streams, sid, &got);
    if (known && got != DONE)
        ri = got;
    size_t off, len;
    switch (v->ftype) {
    case F_DATA: {
        if (!sid)
            return bad(v, "DATA on stream 0");
        uint32_t extra = (v->fflags & FL_PADDED) ? 1 + v->dpad : 0;
        if (extra > v->flen)
            return bad(v, "DATA padding longer than its frame");
        if (ri == NONE || v->rec[ri].state != ST_BODY)
            return PB_OK; /* no message open on it here */
        v->rec[ri].m.size += v->flen - extra;
        return (v->fflags & FL_END_STREAM) ? finish(v, ri) : PB_OK;
    }
    case F_HEADERS: {
        if (!sid)
            return bad(v, "HEADERS on stream 0");
        if (!unpad(v, (v->fflags & FL_PRIORITY) ? 5 : 0, &off, &len))
            return bad(v, "HEADERS padding longer than its frame");
        if (!known) {
            int rc = rec_new(v, sid, &ri);
            if (rc != PB_OK)
                return rc;
        }
        v->blk = ri;
        v->blk_end = (v->fflags & FL_END_STREAM) != 0;
        if (ri != NONE) {
            h2str *r = &v->rec[ri];
            if (r->state == ST_IDLE) {
                r->state = ST_HEAD;
                r->m.first = v->fts;
                r->m.tid_first = v->ftid;
                r->m.status = 0;
            } else {
                r->state = ST_TRAILER;
            }
        }
        return fragment(v, len ? v->buf + off : NULL, len);
    }
    case F_PUSH:
        /* a promise (server push): decoded for the HPACK state only; the
         * pushed response has no request and is counted as such */
        if (!sid)
            return bad(v, "PUSH_PROMISE on stream 0");
        if (!unpad(v, 4, &off, &len))
            return bad(v, "PUSH_PROMISE padding longer than its frame");
        v->blk = NONE;
        v->blk_end = 0;
        return fragment(v, len ? v->buf + off : NULL, len);
    case F_CONT:
        if (!v->cont)
            return bad(v, "CONTINUATION without a header block open");
        return fragment(v, v->buf, v->blen); /* no padding, no fixed fields */
    case F_RST:
        if (!sid)
            return bad(v, "RST_STREAM on stream 0");
        if (ri != NONE) {
            if (v->rec[ri].state != ST_IDLE)
                v->c->st.cut++; /* a message cut by the reset */
            return rec_done(v, ri);
        }
        return known ? PB_OK : map_put(&v->streams, sid, DONE);
    default:
        /* SETTINGS, PING, WINDOW_UPDATE, GOAWAY, PRIORITY, extensions */
        return PB_OK;
    }
}

/* the 9-byte frame header is complete */
static int head_done(h2v *v)
{
    const unsigned char *h = v->fh;
    v->flen = (uint32_t)h[0] << 16 | (uint32_t)h[1] << 8 | h[2];
    v->ftype = h[3];
    v->fflags = h[4];
    v->fsid = ((uint32_t)h[5] << 24 | (uint32_t)h[6] << 16 | (uint32_t)h[7] << 8 | h[8]) &
              0x7fffffffu;
    v->fhl = 0;
    v->blen = 0;
    v->padknown = 0;
    v->dpad = 0;
    char what[160], fn[40];
    frame_name(v->ftype, fn, sizeof fn);
    if (v->flen > v->maxframe) {
        snprintf(what, sizeof what, "%s of %u bytes, over the peer's "
                 "SETTINGS_MAX_FRAME_SIZE (%u)", fn, v->flen, v->maxframe);
        return bad(v, what);
    }
    if (v->cont && (v->ftype != F_CONT || v->fsid != v->cont)) {
        snprintf(what, sizeof what, "%s on stream %u inside the header block of "
                 "stream %u (expected CONTINUATION)", fn, v->fsid, v->cont);
        return bad(v, what);
    }
    v->frem = v->flen;
    v->phase = PH_PAYLOAD;
    if (v->ftype == F_HEADERS || v->ftype == F_PUSH || v->ftype == F_CONT) {
        if (v->flen > v->bcap) {
            unsigned char *nb = realloc(v->buf, v->flen);
            if (!nb)
                return PB_ENOMEM;
            v->buf = nb;
            v->bcap = v->flen;
        }
    }
    if (!v->flen) {
        v->phase = PH_HEAD;
        return frame_done(v);
    }
    return PB_OK;
}

/* bytes p[0..n) of segment s, then hole bytes moved but not captured */
static int feed(h2v *v, const cap_seg *s, const unsigned char *p, size_t n, uint64_t hole)
{
    v->lts = s->ts;
    v->ltid = s->tidnum;
    int rc = PB_OK;
    while ((n || hole) && v->phase != PH_DEAD && rc == PB_OK) {
        switch (v->phase) {
        case PH_PREFACE: {
            if (!n)
                return gap(v);
            size_t t = n < PREFACE_LEN - v->pre ? n : PREFACE_LEN - v->pre;
            if (memcmp(p, PREFACE + v->pre, t))
                return bad(v, "no HTTP/2 connection preface");
            v->pre += t;
            p += t;
            n -= t;
            if (v->pre == PREFACE_LEN)
                v->phase = PH_HEAD;
            break;
        }
        case PH_HEAD: {
            if (!n)
                return gap(v);
            if (!v->fhl) {
                v->fts = s->ts;
                v->ftid = s->tidnum;
            }
            size_t t = n < 9 - v->fhl ? n : 9 - v->fhl;
            memcpy(v->fh + v->fhl, p, t);
            v->fhl += t;
            p += t;
            n -= t;
            if (v->fhl == 9)
                rc = head_done(v);
            break;
        }
        case PH_PAYLOAD: {
            int hdr = v->ftype == F_HEADERS || v->ftype == F_PUSH || v->ftype == F_CONT;
            if (hdr) {
                if (!n)
                    return gap(v);
                size_t t = n < v->frem ? n : v->frem;
                memcpy(v->buf + v->blen, p, t);
                v->blen += t;
                p += t;
                n -= t;
                v->frem -= (uint32_t)t;
            } else {
                if (v->ftype == F_DATA && (v->fflags & FL_PADDED) && !v->padknown) {
                    v->padknown = 1; /* lost in a gap: taken as 0 */
                    v->dpad = n ? p[0] : 0;
                }
                size_t t = n < v->frem ? n : v->frem;
                p += t;
                n -= t;
                v->frem -= (uint32_t)t;
                if (!n && v->frem && hole) {
                    uint64_t h = hole < v->frem ? hole : v->frem;
                    hole -= h;
                    v->frem -= (uint32_t)h;
                }
            }
            if (!v->frem) {
                v->phase = PH_HEAD;
                rc = frame_done(v);
            }
            break;
        }
        default:
            return PB_OK;
        }
    }
    return rc;
}

/* frame one view s[0..n) of one direction */
static int frame_view(h2v *v, const cap_seg *s, size_t n)
{
    int rc = PB_OK;
    static const unsigned char none[1];
    for (size_t i = 0; i < n && rc == PB_OK && v->phase != PH_DEAD; i++) {
        if (s[i].kind == CAP_END)
            break;
        const unsigned char *pl = s[i].plen ? v->c->bytes + s[i].poff : none;
        v->proc = s[i].proc;
        rc = feed(v, &s[i], pl, s[i].plen, s[i].bytes - s[i].plen);
    }
    if (rc == PB_OK && v->phase != PH_DEAD) {
        /* messages still open when the stream ended: cut (a message
         * begun in an unfinished frame too) */
        uint64_t open = 0;
        for (size_t q = 0; q < v->streams.cap; q++)
            if (v->streams.key[q] && v->streams.val[q] != DONE &&
                v->rec[v->streams.val[q]].state != ST_IDLE)
                open++;
        int midframe = v->fhl || v->phase == PH_PAYLOAD;
        if (!open && midframe && (v->fhl || v->ftype == F_HEADERS || v->ftype == F_CONT))
            open = 1;
        v->c->st.cut += open;
        if (open) {
            char vn[64];
            view_name(v, vn, sizeof vn);
            rc = cap_note(v->c, v->conn, "HTTP/2 (%s): the stream ends inside %s (%llu "
                          "message%s cut)", vn, midframe ? "a frame" : "a message",
                          (unsigned long long)open, open > 1 ? "s" : "");
        }
    }
    return rc;
}

int cap_h2_conn(cap *c, pb_trace *t, const cap_seg *s, size_t n,
                int (*push)(void *ctx, const hmsg *m), void *ctx)
{
    h2map reqk = {0};
    uint32_t nreq = 0;
    /* a direction's frames are bounded by what its receiver advertised */
    uint32_t maxf[2] = {peer_max_frame(c, s, n, CAP_S2C), peer_max_frame(c, s, n, CAP_C2S)};
    int rc = PB_OK;
    for (size_t a = 0; a < n && rc == PB_OK;) {
        size_t e = next_view(s, n, a);
        h2v v = {.c = c, .t = t, .push = push, .ctx = ctx, .reqk = &reqk, .nreq = nreq,
                 .conn = s[a].conn, .dir = s[a].dir, .view = s[a].view,
                 .maxframe = maxf[s[a].dir & 1],
                 .phase = s[a].dir == CAP_C2S ? PH_PREFACE : PH_HEAD, .blk = NONE};
        if (nghttp2_hd_inflate_new(&v.inf) != 0 ||
            nghttp2_hd_inflate_change_table_size(v.inf, H2_TABLE_MAX) != 0)
            rc = PB_ENOMEM;
        if (rc == PB_OK)
            rc = frame_view(&v, &s[a], e - a);
        if (v.dir == CAP_C2S && v.k > nreq)
            nreq = v.k;
        nghttp2_hd_inflate_del(v.inf);
        map_free(&v.streams);
        free(v.rec);
        free(v.freel);
        free(v.buf);
        a = e;
    }
    map_free(&reqk);
    return rc;
}
