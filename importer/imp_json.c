/*
 * imp_json.c - one input buffer of JSON, parsed from memory.
 *
 * A buffer holds one or more top-level JSON values (one document, or one
 * document per line as the OpenTelemetry Collector's file exporter writes).
 * The big arrays are not parsed whole: a small scanner walks the top level
 * (the keys of a document object, the elements of "data", "resourceSpans"
 * or a Zipkin list) and hands each element to jansson (json_loadb with
 * JSON_DISABLE_EOF_CHECK), so only one trace's JSON tree is in memory at a
 * time, beside the input buffer itself.  Syntax errors carry the line and
 * column in the whole buffer.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "imp_int.h"

enum { EL_JAEGER, EL_ZIPKIN, EL_OTLP };

typedef struct scan {
    imp_importer *im;
    const char *buf;
    size_t len, pos;
    uint32_t file;
    pb_error *err;
    long line0, col0; /* white space dropped before buf[0] */
    size_t nul_at;    /* the first \u0000 escape parsed since reset, or NO_NUL */
} scan;

#define NO_NUL ((size_t)-1)

static void line_col(const scan *s, size_t off, long *line, long *col)
{
    if (off > s->len)
        off = s->len;
    long l = 1;
    size_t ls = 0;
    int nl = 0;
    for (size_t i = 0; i < off; i++)
        if (s->buf[i] == '\n') {
            l++;
            ls = i + 1;
            nl = 1;
        }
    *line = l + s->line0;
    *col = (long)(off - ls) + 1 + (nl ? 0 : s->col0);
}

static int syntax(scan *s, size_t off, const char *what)
{
    long line, col;
    line_col(s, off, &line, &col);
    const char *found = off >= s->len ? "end of input" : NULL;
    char c = off < s->len ? s->buf[off] : 0;
    if (found)
        return imp_fail(s->im, s->err, PB_EPARSE, s->im->files[s->file], line,
                        col, "%s at end of input", what);
    if (c >= 0x20 && c < 0x7f)
        return imp_fail(s->im, s->err, PB_EPARSE, s->im->files[s->file], line,
                        col, "%s, found '%c'", what, c);
    return imp_fail(s->im, s->err, PB_EPARSE, s->im->files[s->file], line, col,
                    "%s, found byte 0x%02x", what, (unsigned)(unsigned char)c);
}

static void skip_ws(scan *s)
{
    while (s->pos < s->len && (s->buf[s->pos] == ' ' || s->buf[s->pos] == '\t' ||
                               s->buf[s->pos] == '\n' || s->buf[s->pos] == '\r'))
        s->pos++;
}

/* One JSON value at s->pos (jansson); s->pos moves past it. */
static int parse_value(scan *s, json_t **out)
{
    json_error_t je;
    /* a key given twice in one object: jansson would keep the last value
     * and drop the first without a word (a second "spans" array loses the
     * first one's spans), so it is refused where it stands */
    json_t *v = json_loadb(s->buf + s->pos, s->len - s->pos,
                           JSON_DECODE_ANY | JSON_DISABLE_EOF_CHECK | JSON_ALLOW_NUL |
                               JSON_REJECT_DUPLICATES, &je);
    if (!v) {
        size_t off = s->pos + (je.position > 0 ? (size_t)je.position - 1 : 0);
        long line, col;
        line_col(s, off, &line, &col);
        if (json_error_code(&je) == json_error_duplicate_key)
            return imp_fail(s->im, s->err, PB_EPARSE, s->im->files[s->file], line,
                            col, "%s; expected each key once in an object (the "
                            "first value would be lost)", je.text);
        /* valid JSON whose integer does not fit jansson's 64 bits (a
         * duration of 18446744073709551615): not a syntax error */
        if (json_error_code(&je) == json_error_numeric_overflow)
            return imp_fail(s->im, s->err, PB_EPARSE, s->im->files[s->file], line,
                            col, "%s; expected integers from -9223372036854775808 "
                            "to 9223372036854775807 (a time or id past 64 bits)",
                            je.text);
        return imp_fail(s->im, s->err, PB_EPARSE, s->im->files[s->file], line,
                        col, "%s; expected valid JSON", je.text);
    }
    size_t from = s->pos;
    s->pos += je.position > 0 ? (size_t)je.position : 0;
    /* a NUL escape (\u0000, allowed for eBPF payloads): its place kept,
     * so that an id or name holding one is found (nul_check); one scan
     * of the text, found only where written */
    for (const char *p = s->buf + from, *e = s->buf + s->pos;
         s->nul_at == NO_NUL && (p = memchr(p, '\\', (size_t)(e - p))) != NULL;) {
        size_t k = 1;
        while (p + k < e && p[k] == '\\')
            k++;
        if (k % 2 && e - (p + k - 1) >= 6 && !memcmp(p + k - 1, "\\u0000", 6))
            s->nul_at = (size_t)(p + k - 1 - s->buf);
        p += k;
    }
    *out = v;
    return PB_OK;
}

/* Whether a string under key (of an object obj) is an id or a name the
 * span readers use: ids (keys ending in "id"), service and operation
 * names, kinds, reference types, tag and attribute keys, the values of
 * the tags read (span.kind, service.name, peer.service, Zipkin v1's
 * lc/ca/sa/ma) and Zipkin v1 annotations' values (cs, sr, ...). */
static int used_key(const json_t *obj, const char *key)
{
    static const char *const names[] = {"serviceName", "operationName", "name",
                                        "kind", "refType", "key"};
    size_t n = strlen(key);
    if (n >= 2 && (key[n - 2] == 'i' || key[n - 2] == 'I') &&
        (key[n - 1] == 'd' || key[n - 1] == 'D'))
        return 1;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(key, names[i]))
            return 1;
    if (!strcmp(key, "value") && json_object_get(obj, "endpoint"))
        return 1;
    return 0;
}

static int tag_read(const char *k)
{
    static const char *const tags[] = {"span.kind", "service.name", "peer.service",
                                       "lc", "ca", "sa", "ma"};
    for (size_t i = 0; k && i < sizeof tags / sizeof *tags; i++)
        if (!strcmp(k, tags[i]))
            return 1;
    return 0;
}

/* The first string in v (reached under key; all: every string counts, as
 * inside a tag that is read) that holds a NUL character and is an id or a
 * name; its key (or "value") in *key, NULL when none. */
static const json_t *nul_find(const json_t *v, const json_t *obj, const char *key,
                              int all, const char **where)
{
    if (json_is_string(v)) {
        if (strlen(json_string_value(v)) != json_string_length(v) &&
            (all || (obj && used_key(obj, key)))) {
            *where = key ? key : "value";
            return v;
        }
        return NULL;
    }
    const json_t *hit = NULL;
    if (json_is_object(v)) {
        int tag = tag_read(json_string_value(json_object_get(v, "key")));
        const char *k;
        json_t *x;
        json_object_foreach((json_t *)v, k, x)
        {
            if ((hit = nul_find(x, v, k, all || (tag && strcmp(k, "key")), where)))
                return hit;
        }
    } else if (json_is_array(v)) {
        size_t i;
        json_t *x;
        json_array_foreach(v, i, x)
        {
            if ((hit = nul_find(x, NULL, key, all, where)))
                return hit;
        }
    }
    return NULL;
}

/* A span element e after a \u0000 escape was parsed: an id or a name
 * holding a NUL character would be cut there by every reader (C strings):
 * two ids equal before it merged, the rest of a name lost.  Refused at the
 * first escape's line and column.  Payloads (eBPF captures) are not
 * checked here. */
static int nul_check(scan *s, const json_t *e)
{
    size_t at = s->nul_at;
    s->nul_at = NO_NUL;
    if (at == NO_NUL)
        return PB_OK;
    const char *key = NULL;
    const json_t *hit = nul_find(e, NULL, NULL, 0, &key);
    if (!hit)
        return PB_OK;
    long line, col;
    line_col(s, at, &line, &col);
    return imp_fail(s->im, s->err, PB_EPARSE, s->im->files[s->file], line, col,
                    "\"%s\" holds a NUL character (\\u0000) after \"%.40s\"; "
                    "expected ids and names without NUL characters (cut there, "
                    "two ids alike before it would be one)",
                    key, json_string_value(hit));
}

static int element(scan *s, int kind, json_t *e, size_t idx)
{
    imp_importer *im = s->im;
    if (kind == EL_JAEGER)
        return imp_jaeger_trace(im, e, s->file, (uint32_t)idx, s->err);
    if (kind == EL_OTLP)
        return imp_otlp_resource(im, e, s->file, (uint32_t)idx, s->err);
    if (!json_is_array(e))
        return imp_zipkin_span(im, e, s->file, IMP_NONE, (uint32_t)idx, s->err);
    size_t m = json_array_size(e);
    for (size_t j = 0; j < m; j++) {
        int rc = imp_zipkin_span(im, json_array_get(e, j), s->file,
                                 (uint32_t)idx, (uint32_t)j, s->err);
        if (rc != PB_OK)
            return rc;
    }
    return PB_OK;
}

/* The array at s->pos, one element at a time. */
static int stream_array(scan *s, int kind)
{
    s->pos++; /* '[' */
    skip_ws(s);
    if (s->pos < s->len && s->buf[s->pos] == ']') {
        s->pos++;
        return PB_OK;
    }
    for (size_t idx = 0;; idx++) {
        if (idx >= IMP_NONE)
            return imp_fail(s->im, s->err, PB_ERANGE, s->im->files[s->file],
                            0, 0, "more than %u array elements", IMP_NONE - 1);
        json_t *e = NULL;
        size_t at = s->pos;
        s->nul_at = NO_NUL;
        int rc = parse_value(s, &e);
        if (rc != PB_OK)
            return rc;
        rc = nul_check(s, e);
        if (rc == PB_OK)
            rc = element(s, kind, e, idx);
        json_decref(e);
        if (rc != PB_OK) {
            /* a span's error names its element; the line where the
             * element starts says which line of a JSON-lines file */
            if (s->err && !s->err->line && s->err->file[0])
                line_col(s, at, &s->err->line, &s->err->column);
            return rc;
        }
        skip_ws(s);
        if (s->pos < s->len && s->buf[s->pos] == ',') {
            s->pos++;
            skip_ws(s);
            continue;
        }
        if (s->pos < s->len && s->buf[s->pos] == ']') {
            s->pos++;
            return PB_OK;
        }
        return syntax(s, s->pos, "expected ',' or ']' after an array element");
    }
}

static const char *const want_any =
    "expected a Jaeger document (an object with \"data\", the query API's "
    "list of traces, or a trace with \"spans\"), an OTLP document (an "
    "object with \"resourceSpans\", or Jaeger api_v3's {\"result\": "
    "{\"resourceSpans\": ...}}) or a Zipkin array of spans (v2 or v1)";
static const char *const want_jaeger =
    "expected a Jaeger document: an object with \"data\" (the query API's "
    "list of traces) or a trace with \"spans\"";
static const char *const want_zipkin =
    "expected a Zipkin v2 document: an array of spans (or of arrays of "
    "spans; v1 spans too)";
static const char *const want_otlp =
    "expected an OTLP document: an object with \"resourceSpans\"";

static const char *want(imp_format f)
{
    return f == IMP_FORMAT_JAEGER   ? want_jaeger
           : f == IMP_FORMAT_ZIPKIN ? want_zipkin
           : f == IMP_FORMAT_OTLP   ? want_otlp
           : f == IMP_FORMAT_EBPF   ? "expected a syscall capture: an object with "
                                      "\"spans\", an array of {\"req\": ..., "
                                      "\"resp\": ...}"
                                    : want_any;
}

/* The resourceSpans of a Jaeger api_v3 chunk {"result": {"resourceSpans":
 * [...]}}, or NULL. */
static json_t *v3_result(json_t *doc)
{
    json_t *rs = json_object_get(json_object_get(doc, "result"), "resourceSpans");
    return json_is_array(rs) ? rs : NULL;
}

/* The object at s->pos: "data" and "resourceSpans" arrays streamed, every
 * other key kept; a document that streamed nothing is handled whole. */
static int scan_object(scan *s)
{
    json_t *rs;
    imp_importer *im = s->im;
    imp_format f = im->opts.format;
    const char *fname = im->files[s->file];
    json_t *rest = json_object();
    if (!rest)
        return imp_fail(im, s->err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    int streamed = 0, rc = PB_OK;
    s->pos++; /* '{' */
    skip_ws(s);
    if (s->pos < s->len && s->buf[s->pos] == '}') {
        s->pos++;
    } else {
        for (;;) {
            if (s->pos >= s->len || s->buf[s->pos] != '"') {
                rc = syntax(s, s->pos, "expected a key (a string) in an object");
                break;
            }
            json_t *k = NULL;
            size_t kat = s->pos;
            if ((rc = parse_value(s, &k)) != PB_OK)
                break;
            skip_ws(s);
            if (s->pos >= s->len || s->buf[s->pos] != ':') {
                json_decref(k);
                rc = syntax(s, s->pos, "expected ':' after an object key");
                break;
            }
            s->pos++;
            skip_ws(s);
            const char *key = json_string_value(k);
            int arr = s->pos < s->len && s->buf[s->pos] == '[';
            if (arr && !strcmp(key, "data") &&
                (f == IMP_FORMAT_AUTO || f == IMP_FORMAT_JAEGER)) {
                im->formats_seen |= 1u;
                streamed = 1;
                rc = stream_array(s, EL_JAEGER);
            } else if (arr && (!strcmp(key, "resourceSpans") ||
                               !strcmp(key, "resource_spans")) && /* proto name */
                       (f == IMP_FORMAT_AUTO || f == IMP_FORMAT_OTLP)) {
                im->formats_seen |= 4u;
                streamed = 1;
                rc = stream_array(s, EL_OTLP);
            } else if (json_object_get(rest, key)) {
                /* as parse_value: a key twice would drop its first value */
                long line, col;
                line_col(s, kat, &line, &col);
                rc = imp_fail(im, s->err, PB_EPARSE, fname, line, col,
                              "duplicate object key \"%s\"; expected each key "
                              "once in an object (the first value would be "
                              "lost)", key);
            } else {
                json_t *v = NULL;
                rc = parse_value(s, &v);
                if (rc == PB_OK && json_object_set_new(rest, key, v) != 0)
                    rc = imp_fail(im, s->err, PB_ENOMEM, NULL, 0, 0,
                                  "out of memory");
            }
            json_decref(k);
            if (rc != PB_OK)
                break;
            skip_ws(s);
            if (s->pos < s->len && s->buf[s->pos] == ',') {
                s->pos++;
                skip_ws(s);
                continue;
            }
            if (s->pos < s->len && s->buf[s->pos] == '}') {
                s->pos++;
                break;
            }
            rc = syntax(s, s->pos, "expected ',' or '}' in an object");
            break;
        }
    }
    json_t *errs = json_object_get(rest, "errors");
    if (rc == PB_OK && streamed && json_array_size(errs) > 0 &&
        !im->answer_warn.len) {
        /* a partial answer: its traces are read, and what is missing is
         * said (not an error: the traces there are whole); the first such
         * document only */
        json_t *e = json_array_get(errs, 0);
        const char *msg = imp_json_str(e, "msg");
        if (pb_strbuf_printf(&im->answer_warn,
                             "%s: the query answer holds %zu errors beside "
                             "its traces (first: %lld: %s): traces the query "
                             "could not fetch are missing",
                             fname,
                             json_array_size(errs),
                             (long long)json_integer_value(
                                 json_object_get(e, "code")),
                             msg ? msg : "no message") != PB_OK)
            rc = imp_fail(im, s->err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    if (rc == PB_OK && !streamed) {
        if (f == IMP_FORMAT_ZIPKIN) {
            rc = imp_fail(im, s->err, PB_EPARSE, fname, 0, 0, "%s", want_zipkin);
        } else if (f != IMP_FORMAT_OTLP && f != IMP_FORMAT_JAEGER &&
                   json_is_array(json_object_get(rest, "spans")) &&
                   (f == IMP_FORMAT_EBPF ||
                    json_object_get(json_array_get(json_object_get(rest, "spans"), 0),
                                    "req"))) {
            im->formats_seen |= 8u;
            rc = imp_ebpf_spans(im, json_object_get(rest, "spans"), s->file, s->err);
        } else if (f == IMP_FORMAT_EBPF) {
            rc = imp_fail(im, s->err, PB_EPARSE, fname, 0, 0,
                          "expected a syscall capture: an object with \"spans\", an "
                          "array of {\"req\": ..., \"resp\": ...}");
        } else if (f != IMP_FORMAT_JAEGER && (rs = v3_result(rest)) != NULL) {
            /* Jaeger v2's api_v3 over HTTP (grpc-gateway): each chunk
             * {"result": {"resourceSpans": [...]}}, one per line */
            im->formats_seen |= 4u;
            rc = nul_check(s, rs);
            for (size_t i = 0; rc == PB_OK && i < json_array_size(rs); i++)
                rc = imp_otlp_resource(im, json_array_get(rs, i), s->file,
                                       (uint32_t)i, s->err);
        } else if (json_array_size(json_object_get(rest, "errors")) > 0 ||
                   json_is_object(json_object_get(rest, "error"))) {
            /* a query answer that failed, saved as a file: say why */
            json_t *e = json_array_get(json_object_get(rest, "errors"), 0);
            if (!e)
                e = json_object_get(rest, "error");
            const char *msg = imp_json_str(e, "msg");
            if (!msg)
                msg = imp_json_str(e, "message");
            json_t *code = json_object_get(e, "code");
            if (!code)
                code = json_object_get(e, "httpCode");
            rc = imp_fail(im, s->err, PB_EPARSE, fname, 0, 0,
                          "the document is a query answer that failed (error "
                          "%lld: %s), not traces; expected a successful answer "
                          "holding traces",
                          (long long)json_integer_value(code),
                          msg ? msg : "no message");
        } else if (json_object_get(rest, "data") && f != IMP_FORMAT_OTLP) {
            rc = imp_fail(im, s->err, PB_EPARSE, fname, 0, 0,
                          "\"data\": expected an array of traces");
        } else if ((json_object_get(rest, "resourceSpans") ||
                    json_object_get(rest, "resource_spans")) &&
                   f != IMP_FORMAT_JAEGER) {
            rc = imp_fail(im, s->err, PB_EPARSE, fname, 0, 0,
                          "\"resourceSpans\": expected an array");
        } else if (json_object_get(rest, "spans") && f != IMP_FORMAT_OTLP) {
            im->formats_seen |= 1u;
            rc = imp_jaeger_trace(im, rest, s->file, IMP_NONE, s->err);
        } else {
            rc = imp_fail(im, s->err, PB_EPARSE, fname, 0, 0, "%s", want(f));
        }
    }
    json_decref(rest);
    return rc;
}

int imp_parse_buffer(imp_importer *im, const char *data, size_t len,
                     uint32_t file, pb_error *err)
{
    return imp_parse_buffer_at(im, data, len, file, 0, 0, err);
}

int imp_parse_buffer_at(imp_importer *im, const char *data, size_t len,
                        uint32_t file, long line0, long col0, pb_error *err)
{
    if (im->opts.format == IMP_FORMAT_CSV ||
        (im->opts.format == IMP_FORMAT_AUTO &&
         (imp_csv_sniff(data, len) ||
          (im->files[file] && strstr(im->files[file], ".csv") &&
           imp_csv_text(data, len)))))
        return imp_csv_buffer(im, data, len, file, line0, err);
    scan s = {im, data, len, 0, file, err, line0, col0, NO_NUL};
    im->st.count[IMP_C_FILES]++;
    if (len >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3))
        s.pos = 3; /* a UTF-8 byte-order mark */
    /* a NUL byte is never JSON (inside a string it is written \u0000):
     * refused at its own line and column.  jansson reports one a byte or
     * more away ("near end of file"), and after a number, true, false or
     * null it skips it and reads on ([1<NUL>] read as [1]) */
    const char *z = s.pos < len ? memchr(data + s.pos, 0, len - s.pos) : NULL;
    if (z) {
        long zl, zc;
        line_col(&s, (size_t)(z - data), &zl, &zc);
        return imp_fail(im, err, PB_EPARSE, im->files[file], zl, zc,
                        "a NUL byte; expected JSON text (a NUL character inside a "
                        "string is written \\u0000)");
    }
    size_t ndocs = 0;
    for (;;) {
        skip_ws(&s);
        if (s.pos >= len)
            break;
        char c = data[s.pos];
        size_t doc_at = s.pos;
        int rc;
        if (c == '{') {
            rc = scan_object(&s);
        } else if (c == '[') {
            if (im->opts.format != IMP_FORMAT_AUTO &&
                im->opts.format != IMP_FORMAT_ZIPKIN)
                return imp_fail(im, err, PB_EPARSE, im->files[file], 0, 0,
                                "%s", want(im->opts.format));
            im->formats_seen |= 2u;
            rc = stream_array(&s, EL_ZIPKIN);
        } else {
            size_t at = s.pos;
            json_t *v = NULL;
            if ((rc = parse_value(&s, &v)) != PB_OK)
                return rc;
            json_decref(v);
            return syntax(&s, at, want(im->opts.format));
        }
        if (rc != PB_OK) {
            /* the line of the document (one per line in JSON lines) */
            if (err && !err->line && err->file[0])
                line_col(&s, doc_at, &err->line, &err->column);
            return rc;
        }
        ndocs++;
    }
    if (!ndocs)
        return imp_fail(im, err, PB_EPARSE, im->files[file], 0, 0,
                        "the input is empty; %s",
                        im->opts.format == IMP_FORMAT_AUTO && im->files[file] &&
                                strstr(im->files[file], ".csv")
                            ? "expected a CSV header and span rows (a file named "
                              "*.csv) or a JSON document"
                            : want(im->opts.format));
    return PB_OK;
}
