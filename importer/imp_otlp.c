/*
 * imp_otlp.c - one OpenTelemetry resourceSpans element (OTLP/JSON, as the
 * Collector's file exporter, the OTLP/HTTP JSON encoding and Jaeger v2
 * write it) into spans.
 *
 *   {"resource": {"attributes": [{"key": "service.name",
 *                                 "value": {"stringValue": "frontend"}}]},
 *    "scopeSpans": [{"scope": {...}, "spans": [
 *        {"traceId": "5b8e...", "spanId": "eee1...", "parentSpanId": "",
 *         "kind": 2, "startTimeUnixNano": "1544712660000000000",
 *         "endTimeUnixNano": "1544712661000000000", "attributes": [...]}]}]}
 *
 * Kinds are integers (0 unspecified, 1 internal, 2 server, 3 client,
 * 4 producer, 5 consumer) or their SPAN_KIND_* names.  Times are
 * nanoseconds, as strings of digits (the JSON mapping of fixed64) or
 * numbers.  Hex ids are lower-cased, and a 32-digit trace id whose first
 * 16 digits are 0 is shortened to its last 16 (as Jaeger prints a 64-bit
 * trace id), so a Jaeger trace converted to OTLP keeps its path labels.
 * "instrumentationLibrarySpans" (OTLP before 0.15) is read as scopeSpans,
 * also beside an empty or null "scopeSpans".
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "imp_int.h"

/* Two attribute values the same: both absent or both the same string */
static int same_str(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

/* A member of an OTLP object under its JSON name (lowerCamelCase) or its
 * proto field name (snake_case: protobuf's JSON mapping has parsers take
 * both, and protojson / MessageToJson(preserving_proto_field_name) write
 * the latter).  Only the first was looked for: a span's "parent_span_id"
 * was never read, so every span under it became a root of its own request
 * (counted extra_root, the cause never said), "start_time_unix_nano" made
 * the span untimed.  *twice: set when both are given with different values. */
static json_t *oget(const json_t *o, const char *camel, const char *snake, int *twice)
{
    json_t *a = json_object_get(o, camel), *b = json_object_get(o, snake);
    if (a && b && !json_equal(a, b))
        *twice = 1;
    return a ? a : b;
}

/* The string under oget's names, or NULL */
static const char *ostr(const json_t *o, const char *camel, const char *snake, int *twice)
{
    return json_string_value(oget(o, camel, snake, twice));
}

/* The error of oget's *twice: both names given, with two values. */
static int otwice(imp_importer *im, pb_error *err, const char *fname, const char *where,
                  const char *camel, const char *snake)
{
    return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                    "%s: \"%s\" and \"%s\" (its proto field name) both given, with "
                    "different values; expected one of the two spellings",
                    where, camel, snake);
}

/* The string value of attribute `key` in an OTLP attribute list.  The
 * key given twice with two values (an SDK's resource merged with a
 * detector's, a list built by appending) took the first without a word:
 * a service's spans went to another; *i2 is then the second's index (the
 * same value twice is one value), else SIZE_MAX. */
static const char *attr_str(const json_t *attrs, const char *key, size_t *i2)
{
    size_t n = json_array_size(attrs);
    const char *v = NULL;
    int found = 0;
    *i2 = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        const json_t *a = json_array_get(attrs, i);
        const char *k = imp_json_str(a, "key");
        if (!k || strcmp(k, key))
            continue;
        int tw = 0;
        const char *x = ostr(json_object_get(a, "value"), "stringValue", "string_value", &tw);
        if (!found) {
            v = x;
            found = 1;
        } else if (!same_str(v, x)) {
            *i2 = i;
            break;
        }
    }
    return v;
}

/* The error of attr_str's *i2: both values named. */
static int attr_twice(imp_importer *im, pb_error *err, const char *fname, const char *where,
                      const json_t *attrs, const char *key, const char *v1, size_t i2)
{
    int tw = 0;
    const char *v2 = ostr(json_object_get(json_array_get(attrs, i2), "value"),
                          "stringValue", "string_value", &tw);
    return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                    "%s[%zu]: attribute \"%s\" given a second time with another "
                    "value (%s%s%s, then %s%s%s); expected the key once in an "
                    "attribute list",
                    where, i2, key, v1 ? "\"" : "", v1 ? v1 : "not a string",
                    v1 ? "\"" : "", v2 ? "\"" : "", v2 ? v2 : "not a string",
                    v2 ? "\"" : "");
}

/* The value of one base64 digit, or -1. */
static int b64_digit(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '+' || c == '-' ? 62 : c == '/' || c == '_' ? 63 : -1;
}

/* An id in base64 -- protobuf's generic JSON mapping of bytes, which
 * grpc-gateway answers (Jaeger 1.x's api_v3) and protojson dumps of OTLP
 * write instead of OTLP/JSON's hex -- written into buf as lower-case hex.
 * Only the exact shapes of a 16-byte trace id ("...==", 24 characters) and
 * an 8-byte span id ("...=", 12 characters) are taken: hex never holds
 * '=', so no hex id is read so.  Returns 1 when decoded. */
static int b64_hex(const char *id, size_t l, char *buf, size_t n)
{
    size_t bytes = l == 24 && !strcmp(id + 22, "==") ? 16
                   : l == 12 && id[11] == '=' && id[10] != '=' ? 8 : 0;
    if (!bytes || 2 * bytes >= n)
        return 0;
    static const char hex[] = "0123456789abcdef";
    unsigned acc = 0;
    int bits = 0;
    size_t w = 0;
    for (size_t i = 0; i < l && id[i] != '='; i++) {
        int d = b64_digit(id[i]);
        if (d < 0)
            return 0;
        acc = (acc << 6 | (unsigned)d) & 0xffffu;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            unsigned byte = (acc >> bits) & 0xffu;
            if (w + 2 >= n)
                return 0;
            buf[w++] = hex[byte >> 4];
            buf[w++] = hex[byte & 15];
        }
    }
    if (w != 2 * bytes || (acc & ((1u << bits) - 1)))
        return 0; /* not the canonical encoding of that many bytes */
    buf[w] = 0;
    return 1;
}

/* A trace or span id in base64 (b64_hex) turned into hex, so a trace
 * keeps the label its hex export gives it; imp_store_span then writes
 * every hex id in one spelling (imp_hex_id: lower case, padded, a zero
 * high half of a trace id dropped).  Returns the id to use (buf or id). */
static const char *norm_id(const char *id, char *buf, size_t n, int trace)
{
    (void)trace;
    if (!id)
        return NULL;
    size_t l = strlen(id);
    if (!l || l >= n)
        return id;
    return b64_hex(id, l, buf, n) ? buf : id;
}

static int kind_of_otlp(const json_t *k, int *kind, int *untagged)
{
    *untagged = 0;
    *kind = IMP_K_INTERNAL;
    if (!k || json_is_null(k)) {
        *untagged = 1;
        return 1;
    }
    json_int_t v = -1;
    if (json_is_integer(k)) {
        v = json_integer_value(k);
    } else if (json_is_string(k)) {
        static const char *const names[] = {
            "SPAN_KIND_UNSPECIFIED", "SPAN_KIND_INTERNAL", "SPAN_KIND_SERVER",
            "SPAN_KIND_CLIENT", "SPAN_KIND_PRODUCER", "SPAN_KIND_CONSUMER"};
        for (int i = 0; i < 6; i++)
            if (!strcmp(json_string_value(k), names[i]))
                v = i;
    }
    switch (v) {
    case 0: *untagged = 1; return 1;
    case 1: return 1;
    case 2: case 5: *kind = IMP_K_SERVER; return 1;
    case 3: case 4: *kind = IMP_K_CLIENT; return 1;
    default: return 0;
    }
}

/* Nanoseconds as a string of digits or a non-negative integer. */
static int ns_of(const json_t *v, int64_t *out)
{
    return imp_json_whole(v, 0, 0, PB_TS_MAX, out);
}

int imp_otlp_resource(imp_importer *im, json_t *rs, uint32_t file,
                      uint32_t ri, pb_error *err)
{
    const char *fname = im->files[file];
    if (!json_is_object(rs))
        return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                        "resourceSpans[%u]: expected an object with "
                        "\"scopeSpans\"",
                        ri);
    json_t *attrs = json_object_get(json_object_get(rs, "resource"),
                                    "attributes");
    size_t i2;
    const char *service = attr_str(attrs, "service.name", &i2);
    if (i2 != SIZE_MAX) {
        char w[64];
        snprintf(w, sizeof w, "resourceSpans[%u].resource.attributes", ri);
        return attr_twice(im, err, fname, w, attrs, "service.name", service, i2);
    }
    int tw = 0;
    json_t *ss = oget(rs, "scopeSpans", "scope_spans", &tw);
    if (tw) {
        char w[64];
        snprintf(w, sizeof w, "resourceSpans[%u]", ri);
        return otwice(im, err, fname, w, "scopeSpans", "scope_spans");
    }
    /* the old field when the new one is absent, null or empty: an encoder
     * that writes empty repeated fields gives "scopeSpans": [] beside the
     * spans in "instrumentationLibrarySpans" (OTLP 0.15-0.19: receivers
     * use the old field when the new one is not set) */
    if (!ss || json_is_null(ss) ||
        (json_is_array(ss) && json_array_size(ss) == 0)) {
        json_t *old = oget(rs, "instrumentationLibrarySpans",
                           "instrumentation_library_spans", &tw);
        if (old)
            ss = old;
    }
    if (!ss || json_is_null(ss))
        return PB_OK;
    if (!json_is_array(ss))
        return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                        "resourceSpans[%u].scopeSpans: expected an array", ri);
    for (size_t j = 0; j < json_array_size(ss); j++) {
        json_t *spans = json_object_get(json_array_get(ss, j), "spans");
        if (!spans || json_is_null(spans))
            continue;
        if (!json_is_array(spans))
            return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                            "resourceSpans[%u].scopeSpans[%zu].spans: "
                            "expected an array",
                            ri, j);
        for (size_t k = 0; k < json_array_size(spans); k++) {
            json_t *js = json_array_get(spans, k);
            imp_span *s = imp_new_span(im);
            if (!s)
                return imp_fail(im, err, PB_ENOMEM, NULL, 0, 0,
                                "out of memory");
            s->file = file;
            s->src = IMP_SRC_OTLP;
            s->pos_a = ri;
            s->pos_b = (uint32_t)j;
            s->pos_c = (uint32_t)k;
            char where[96];
            imp_span_where(s, where, sizeof where);
            if (!json_is_object(js))
                return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                                "%s: expected a span object", where);
            char tb[72], sb[72], pb[72];
            imp_raw_span r;
            memset(&r, 0, sizeof r);
            r.service = service;
            static const char *const names[][2] = {
                {"traceId", "trace_id"}, {"spanId", "span_id"},
                {"parentSpanId", "parent_span_id"},
                {"startTimeUnixNano", "start_time_unix_nano"},
                {"endTimeUnixNano", "end_time_unix_nano"}};
            for (size_t q = 0; q < sizeof names / sizeof *names; q++) {
                tw = 0;
                oget(js, names[q][0], names[q][1], &tw);
                if (tw)
                    return otwice(im, err, fname, where, names[q][0], names[q][1]);
            }
            r.trace_id = norm_id(ostr(js, "traceId", "trace_id", &tw), tb, sizeof tb, 1);
            r.span_id = norm_id(ostr(js, "spanId", "span_id", &tw), sb, sizeof sb, 0);
            json_t *pv = oget(js, "parentSpanId", "parent_span_id", &tw);
            if (pv && !json_is_null(pv) && !json_is_string(pv))
                /* read as "no parent", it would split a request in two */
                return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                                "%s: expected \"parentSpanId\" as a string "
                                "(hex or base64; \"\" or absent for a root "
                                "span)", where);
            r.parent_id = norm_id(json_string_value(pv), pb, sizeof pb, 0);
            json_t *sa = json_object_get(js, "attributes");
            r.peer = attr_str(sa, "peer.service", &i2);
            if (i2 != SIZE_MAX) {
                char w[128];
                snprintf(w, sizeof w, "%s.attributes", where);
                return attr_twice(im, err, fname, w, sa, "peer.service", r.peer, i2);
            }
            /* no peer.service: the callee named by the other attributes
             * that name it (imp_peer_keys; before, node "unknown") */
            for (size_t q = 0; imp_peer_keys[q] && !(r.peer && *r.peer); q++) {
                r.peer = attr_str(sa, imp_peer_keys[q], &i2);
                if (i2 != SIZE_MAX) {
                    char w[128];
                    snprintf(w, sizeof w, "%s.attributes", where);
                    return attr_twice(im, err, fname, w, sa, imp_peer_keys[q], r.peer, i2);
                }
            }
            if (!kind_of_otlp(json_object_get(js, "kind"), &r.kind,
                              &r.untagged))
                return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                                "%s: expected \"kind\" as an integer 0 to 5 "
                                "or a SPAN_KIND_* name",
                                where);
            r.ns = 1;
            /* proto3 leaves an unset start out of its JSON, or writes 0
             * (an exporter that writes defaults): a span with no place in
             * time.  Absent, it refused the whole import; 0 was read as
             * the epoch, 1970, so its messages came 56 years before the
             * rest of their request.  Such a span is a fragment, as a
             * Zipkin span without "timestamp": merged into a timed span of
             * the same trace, id and service, else not read and counted
             * no_timestamp, said even with -q. */
            json_t *st = oget(js, "startTimeUnixNano", "start_time_unix_nano", &tw);
            int64_t st0 = -1;
            if (!st || json_is_null(st) || (ns_of(st, &st0) && st0 == 0)) {
                r.start_ns = 0;
                r.end_ns = 0;
                r.has_end = 1;
                int rc = imp_store_span(im, s, &r, err);
                if (rc != PB_OK)
                    return rc;
                s->no_start = 1;
                s->no_dur = 1;
                continue;
            }
            if (!ns_of(st, &r.start_ns))
                return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                                "%s: expected \"startTimeUnixNano\" as "
                                "nanoseconds since the epoch (a string of "
                                "digits or a non-negative integer, at most "
                                "9223372035999999999)",
                                where);
            json_t *e = oget(js, "endTimeUnixNano", "end_time_unix_nano", &tw);
            if (e && !json_is_null(e)) {
                if (!ns_of(e, &r.end_ns))
                    return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                                    "%s: expected \"endTimeUnixNano\" as "
                                    "nanoseconds since the epoch (a string "
                                    "of digits or a non-negative integer)",
                                    where);
                r.has_end = 1;
            }
            int rc = imp_store_span(im, s, &r, err);
            if (rc != PB_OK)
                return rc;
        }
    }
    return PB_OK;
}
