/*
 * imp_capture_hdr.c - an HTTP/1 message's header fields (docs/capture.md):
 * a field's value (several lines joined), the request id it carries, and
 * the body's length as Content-Length, Transfer-Encoding and a chunk's
 * size line give it.  Split from imp_capture_http.c (its framing) when
 * round 25 of the hostile inputs grew it past 1,500 lines.
 */
#include "imp_capture_int.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* a header's value (trimmed) into out, or 0 when absent.  A field given
 * on several lines is one list, its values joined by ", " in order (RFC
 * 9110 5.3); before, the first line alone was read: "Transfer-Encoding:
 * gzip" then "Transfer-Encoding: chunked" was not chunked (the body read
 * to the connection's close, every later response on it swallowed), two
 * Content-Length lines of different values took the first, two
 * traceparent headers the first.  *differ (when not NULL): 1 when two of
 * the lines hold different values; *first_len: the first one's length in
 * out. */
int cap_hdr_get2(const char *h, size_t n, const char *name, char *out, size_t on,
                  int *differ, size_t *first_len)
{
    size_t nl = strlen(name), ol = 0;
    int found = 0;
    const char *v0 = NULL;
    size_t v0l = 0;
    if (differ)
        *differ = 0;
    const char *p = memchr(h, '\n', n);
    while (p && (size_t)(p - h) + 1 < n) {
        const char *line = p + 1;
        const char *e = memchr(line, '\n', n - (size_t)(line - h));
        size_t ll = e ? (size_t)(e - line) : n - (size_t)(line - h);
        if (ll > nl && line[nl] == ':' && !strncasecmp(line, name, nl)) {
            const char *v = line + nl + 1;
            size_t vl = ll - nl - 1;
            while (vl && (*v == ' ' || *v == '\t'))
                v++, vl--;
            while (vl && (v[vl - 1] == '\r' || v[vl - 1] == ' ' || v[vl - 1] == '\t'))
                vl--;
            if (!found) {
                v0 = v;
                v0l = vl;
                if (first_len)
                    *first_len = vl < on - 1 ? vl : on - 1;
            } else if (differ && (vl != v0l || memcmp(v, v0, vl))) {
                *differ = 1;
            }
            if (found && ol + 2 < on) {
                memcpy(out + ol, ", ", 2);
                ol += 2;
            }
            size_t c = vl < on - 1 - ol ? vl : on - 1 - ol;
            memcpy(out + ol, v, c);
            ol += c;
            found = 1;
        }
        p = e;
    }
    if (found)
        out[ol] = 0;
    return found;
}

int cap_hdr_get(const char *h, size_t n, const char *name, char *out, size_t on)
{
    return cap_hdr_get2(h, n, name, out, on, NULL, NULL);
}

int cap_request_id(const cap *c, pb_trace *t, const char *v, size_t vl, uint32_t *out,
                   uint8_t *bad)
{
    *out = 0;
    const char *hn = c->opts->header ? c->opts->header : "traceparent";
    if (!strcasecmp(hn, "traceparent")) {
        /* version-traceid-parentid-flags: the trace id is the request.  W3C
         * Trace Context: a trace id of other than 32 hex digits, or of all
         * zeros, is invalid and the header is ignored.  Before, such an id
         * was taken as it was: every request sent with the all-zero id (a
         * tracer that was off, a proxy's placeholder) became one request,
         * the later ones "caused" by the earlier ones, without a word.  Now
         * the pair is left out as one without the header, counted
         * (bad_request_id) and said.  Capital hex digits (not W3C's, but
         * the same id) are read as small ones, so one request stays one. */
        const char *d1 = memchr(v, '-', vl);
        const char *d2 = d1 ? memchr(d1 + 1, '-', vl - (size_t)(d1 + 1 - v)) : NULL;
        if (!d2)
            return PB_OK;
        vl = (size_t)(d2 - d1 - 1);
        v = d1 + 1;
        char low[32];
        int zero = 1;
        for (size_t i = 0; i < vl && i < 32; i++) {
            unsigned char ch = (unsigned char)v[i];
            if (!isxdigit(ch))
                zero = 2;
            low[i] = (char)tolower(ch);
            if (ch != '0' && zero == 1)
                zero = 0;
        }
        if (vl != 32 || zero) {
            *bad = 1;
            return PB_OK;
        }
        return pb_obs_label(t->names, low, 32, out);
    }
    return vl ? pb_obs_label(t->names, v, vl, out) : PB_OK;
}

/* 1 when the comma-separated list s holds the token tok, case ignored
 * (RFC 9110 7.3: transfer codings are case-insensitive) */
int cap_hdr_has_token(const char *s, const char *tok)
{
    size_t tl = strlen(tok);
    while (*s) {
        while (*s == ' ' || *s == '\t' || *s == ',')
            s++;
        size_t n = strcspn(s, ",;");
        size_t m = n;
        while (m && (s[m - 1] == ' ' || s[m - 1] == '\t'))
            m--;
        if (m == tl && !strncasecmp(s, tok, tl))
            return 1;
        s += n;
        if (*s == ';')
            s += strcspn(s, ",");
    }
    return 0;
}

/* A Content-Length value: 1*DIGIT, or a list of one such value repeated
 * (RFC 9110 8.6: "42, 42" may be read as 42).  Returns 1 and *len, 0 when
 * it is no length (a sign, "-1", other characters, values that differ, past
 * 2^62). */
int cap_hdr_content_length(const char *v, uint64_t *len)
{
    int have = 0;
    while (*v) {
        while (*v == ' ' || *v == '\t')
            v++;
        if (*v < '0' || *v > '9')
            return 0;
        uint64_t x = 0;
        while (*v >= '0' && *v <= '9') {
            if (x > (UINT64_C(1) << 62) / 10)
                return 0;
            x = x * 10 + (uint64_t)(*v++ - '0');
        }
        while (*v == ' ' || *v == '\t')
            v++;
        if (have && x != *len)
            return 0;
        *len = x;
        have = 1;
        if (*v == ',')
            v++;
        else if (*v)
            return 0;
    }
    return have;
}

/* A chunk-size line (RFC 9112 7.1: 1*HEXDIG, then chunk extensions after
 * ";", then the line end; blanks around allowed).  Returns 1 and *sz, 0
 * when it is no size.  Before, strtoull read it: a sign was taken ("-3"
 * as 2^64 - 3, whose length plus its CRLF wrapped around: the rest of the
 * stream one chunk, every later response on the connection swallowed
 * without a word; "-2" a chunk of no bytes), and a size past 64 bits was
 * cut to 2^64 - 1. */
int cap_hdr_chunk_size(const char *v, uint64_t *sz)
{
    while (*v == ' ' || *v == '\t')
        v++;
    uint64_t x = 0;
    int nd = 0;
    for (; isxdigit((unsigned char)*v); v++, nd++) {
        if (x > (UINT64_C(1) << 62) / 16)
            return 0;
        x = x * 16 + (uint64_t)(isdigit((unsigned char)*v) ? *v - '0'
                                                         : tolower((unsigned char)*v) - 'a' + 10);
    }
    while (*v == ' ' || *v == '\t')
        v++;
    if (!nd || (*v != ';' && *v != '\r' && *v != '\n'))
        return 0;
    *sz = x;
    return 1;
}
