/*
 * imp_zipkin.c - one Zipkin span (an element of a span list, or of one
 * trace's list in the /api/v2/traces or /api/v1/traces answer): v2, or v1
 * (no localEndpoint; its sides in annotations, as Zipkin's own
 * V1SpanConverter reads them).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "imp_int.h"

/* One side of a Zipkin v1 span: the annotation that opens it (cs, sr, ms,
 * mr) and the one that closes it (cr, ss), each with an endpoint. */
typedef struct {
    json_t *open, *close; /* annotation objects, or NULL */
    size_t open_i, close_i; /* their places in "annotations" */
} v1_side;

static const char *v1_service(const json_t *ann)
{
    return imp_json_str(json_object_get(ann, "endpoint"), "serviceName");
}

/* The serviceName of the binary annotation KEY's endpoint ("ca", "sa",
 * "ma": the other end's address; "lc": a local span's), or NULL. */
static const char *v1_binary(json_t *js, const char *key)
{
    json_t *ba = json_object_get(js, "binaryAnnotations");
    size_t i;
    json_t *e;
    json_array_foreach(ba, i, e)
    {
        const char *k = imp_json_str(e, "key");
        if (k && !strcmp(k, key))
            return v1_service(e);
    }
    return NULL;
}

/* A span slot at Zipkin position [a][b] (a = IMP_NONE: [b]), its place in
 * where (for messages); NULL when out of memory. */
static imp_span *zipkin_slot(imp_importer *im, uint32_t file, uint32_t a,
                             uint32_t b, char *where, size_t n)
{
    imp_span *s = imp_new_span(im);
    if (!s)
        return NULL;
    s->file = file;
    s->src = IMP_SRC_ZIPKIN;
    s->pos_a = a;
    s->pos_b = b;
    imp_span_where(s, where, n);
    return s;
}

/* A span that Zipkin calls incomplete: no "timestamp" (absent or null;
 * Zipkin v2 allows it: a span reported in two parts, its start by one
 * report and its end by another, or flushed before it started).  It is
 * stored as a fragment (no_start: start 0, end its duration) that
 * imp_merge_fragments joins to the span of the same trace, id, service
 * and kind that has a timestamp, as Zipkin's UI merges such parts; one
 * with no such partner has no place in time and is not read, counted
 * with its file and position (no_timestamp, said even with -q) -- never
 * the whole import refused, nor a span dropped in silence.  r->start must
 * be absent or null; a bad id, service or duration is refused as for any
 * span. */
static int store_fragment(imp_importer *im, imp_span *s, imp_raw_span r,
                          pb_error *err)
{
    json_t *zero = json_integer(0), *dur = NULL;
    if (!zero)
        return imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    int has_dur = r.duration && !json_is_null(r.duration);
    if (!has_dur)
        r.duration = dur = json_integer(0);
    r.start = zero;
    int rc = r.duration ? imp_store_span(im, s, &r, err)
                        : imp_fail(im, err, PB_ENOMEM, NULL, 0, 0,
                                   "out of memory");
    json_decref(zero);
    json_decref(dur);
    if (rc == PB_OK) {
        s->no_start = 1;
        s->no_dur = !has_dur;
    }
    return rc;
}

/* absent, null, or 0, which Zipkin's own model takes as absent (its
 * span builder and JSON writer treat a 0 timestamp as unset): read as the
 * epoch, such a span's messages came 56 years before their request */
static int no_timestamp(const json_t *start)
{
    return !start || json_is_null(start) ||
           (json_is_integer(start) && json_integer_value(start) == 0);
}

/* Store one side as a span: service, peer, kind, start = the opening
 * annotation's timestamp (ts0 without one: a local span), end = the
 * closing one's; without it the span's duration dur0 (passed only for a
 * span with one side), else missing (counted). */
static int v1_store(imp_importer *im, uint32_t file, uint32_t a, uint32_t b,
                    imp_raw_span r, json_t *open, json_t *close,
                    json_t *ts0, json_t *dur0, pb_error *err)
{
    char where[96];
    imp_span *s = zipkin_slot(im, file, a, b, where, sizeof where);
    if (!s)
        return imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    r.start = open ? json_object_get(open, "timestamp") : ts0;
    r.duration = dur0;
    if (!open && no_timestamp(r.start))
        return store_fragment(im, s, r, err);
    json_t *d = NULL;
    if (open && close) {
        int64_t t0, t1;
        if (!imp_json_us(r.start, &t0) ||
            !imp_json_us(json_object_get(close, "timestamp"), &t1))
            return imp_fail(im, err, PB_EPARSE, im->files[file], 0, 0,
                            "%s: expected the annotations' \"timestamp\" as "
                            "a whole number of microseconds (Zipkin v1)",
                            where);
        /* t1 - t0 must fit; the start is checked against the trace's
         * range by imp_store_span, the end through start + duration */
        if ((t1 > 0 && t0 < t1 - INT64_MAX) || (t1 < 0 && t0 > t1 - INT64_MIN))
            return imp_fail(im, err, PB_ERANGE, im->files[file], 0, 0,
                            "%s: annotation timestamps %lld and %lld are out "
                            "of range; expected microseconds since the epoch",
                            where, (long long)t0, (long long)t1);
        d = json_integer(t1 - t0);
        if (!d)
            return imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
        r.duration = d;
    }
    int rc = imp_store_span(im, s, &r, err);
    json_decref(d);
    return rc;
}

/* A Zipkin v1 span: a client side (cs .. cr, or ms), a server side
 * (sr .. ss, or mr), both (one RPC: a shared client/server pair, the
 * server the client's child), or neither (a local span: the service of
 * the "lc" binary annotation, else of any annotation's endpoint). */
static int v1_span(imp_importer *im, json_t *js, uint32_t file, uint32_t a,
                   uint32_t b, imp_raw_span r, const char *where,
                   pb_error *err)
{
    const char *fname = im->files[file];
    v1_side cl = {0}, sv = {0};
    json_t *anns = json_object_get(js, "annotations");
    if (anns && !json_is_array(anns) && !json_is_null(anns))
        return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                        "%s: expected \"annotations\" as an array (Zipkin v1)",
                        where);
    const char *any = NULL;
    size_t i;
    json_t *e;
    /* the address annotations read (v1_binary: "lc", "sa", "ca", "ma")
     * given twice on two services: the first was taken without a word,
     * the span's peer or local service the other's; the same service
     * twice is one */
    static const char *const addr[4] = {"lc", "sa", "ca", "ma"};
    size_t first_at[4] = {SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX};
    json_t *ba = json_object_get(js, "binaryAnnotations");
    json_array_foreach(ba, i, e)
    {
        const char *k = imp_json_str(e, "key");
        int w = 0;
        while (w < 4 && (!k || strcmp(k, addr[w])))
            w++;
        if (w == 4)
            continue;
        if (first_at[w] == SIZE_MAX) {
            first_at[w] = i;
            continue;
        }
        const char *s0 = v1_service(json_array_get(ba, first_at[w])), *s1 = v1_service(e);
        if (!(s0 == s1 || (s0 && s1 && !strcmp(s0, s1))))
            return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                            "%s: binaryAnnotations[%zu] \"%s\" on endpoint %s%s%s, "
                            "but binaryAnnotations[%zu] \"%s\" on %s%s%s; expected "
                            "the key once (Zipkin v1)",
                            where, i, k, s1 ? "\"" : "", s1 ? s1 : "without a service",
                            s1 ? "\"" : "", first_at[w], k, s0 ? "\"" : "",
                            s0 ? s0 : "none", s0 ? "\"" : "");
    }
    json_array_foreach(anns, i, e)
    {
        const char *v = imp_json_str(e, "value");
        if (!json_is_object(e) || !v)
            return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                            "%s: annotations[%zu]: expected an object with "
                            "\"value\" and \"timestamp\" (Zipkin v1)",
                            where, i);
        int open = !strcmp(v, "cs") || !strcmp(v, "ms") ||
                   !strcmp(v, "sr") || !strcmp(v, "mr");
        v1_side *side = !strcmp(v, "cs") || !strcmp(v, "ms") ||
                                !strcmp(v, "cr") ? &cl
                        : open || !strcmp(v, "ss") ? &sv
                                                   : NULL;
        json_t **slot = side ? (open ? &side->open : &side->close) : NULL;
        if (slot && !*slot) {
            *slot = e;
            *(open ? &side->open_i : &side->close_i) = i;
        }
        if (!any)
            any = v1_service(e);
        /* one side of an RPC is one process: an end of it on another
         * endpoint than the side's first annotation (ss of a server whose
         * sr is on another service; a second sr elsewhere) would lend its
         * time to the wrong service.  Zipkin's converter splits such a
         * span; a side with one end only would be guessed, so refused. */
        json_t *first = side ? (side->open ? side->open : side->close) : NULL;
        const char *s0 = first ? v1_service(first) : NULL, *s1 = v1_service(e);
        if (first && first != e && s0 && s1 && strcmp(s0, s1))
            return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                            "%s: annotations[%zu] \"%s\" on endpoint \"%s\", "
                            "but annotations[%zu] \"%s\" of the same side on "
                            "\"%s\"; expected the %s side's annotations on "
                            "one endpoint (Zipkin v1)",
                            where, i, v, s1,
                            side->open ? side->open_i : side->close_i,
                            imp_json_str(first, "value"), s0,
                            side == &cl ? "client" : "server");
    }
    json_t *ts0 = json_object_get(js, "timestamp");
    json_t *dur0 = json_object_get(js, "duration");
    if (!cl.open && !sv.open) {
        /* a local span, or one whose opening annotation was not kept */
        json_t *op = cl.close ? cl.close : sv.close;
        r.service = v1_binary(js, "lc");
        if (!r.service)
            r.service = op ? v1_service(op) : any;
        if (!r.service)
            r.service = v1_binary(js, "sa");
        if (!r.service || !*r.service)
            return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                            "%s: expected a \"localEndpoint\" object with "
                            "\"serviceName\" (Zipkin v2), or annotations "
                            "whose endpoint has a \"serviceName\" (Zipkin v1)",
                            where);
        r.kind = IMP_K_INTERNAL;
        r.untagged = 1;
        return v1_store(im, file, a, b, r, NULL, NULL, ts0, dur0, err);
    }
    /* the client side first, then the server side: a shared pair */
    const v1_side *side[2] = {&cl, &sv}, *other[2] = {&sv, &cl};
    for (int k = 0; k < 2; k++) {
        if (!side[k]->open)
            continue;
        imp_raw_span x = r;
        x.service = v1_service(side[k]->open);
        x.peer = other[k]->open ? v1_service(other[k]->open)
                                : v1_binary(js, k ? "ca" : "sa");
        if (!x.peer && !k)
            x.peer = v1_binary(js, "ma");
        x.kind = k ? IMP_K_SERVER : IMP_K_CLIENT;
        x.untagged = 0;
        if (!x.service || !*x.service)
            return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                            "%s: expected the endpoint of annotation \"%s\" "
                            "with a \"serviceName\" (Zipkin v1)",
                            where, imp_json_str(side[k]->open, "value"));
        int rc = v1_store(im, file, a, b, x, side[k]->open, side[k]->close,
                          NULL, other[k]->open ? NULL : dur0, err);
        if (rc != PB_OK)
            return rc;
    }
    return PB_OK;
}

int imp_zipkin_span(imp_importer *im, json_t *js, uint32_t file, uint32_t a,
                    uint32_t b, pb_error *err)
{
    char where[96];
    imp_span *s = zipkin_slot(im, file, a, b, where, sizeof where);
    if (!s)
        return imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    const char *fname = im->files[file];
    if (!json_is_object(js))
        return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                    "%s: expected a span object", where);
    imp_raw_span r;
    memset(&r, 0, sizeof r);
    r.trace_id = imp_json_str(js, "traceId");
    r.span_id = imp_json_str(js, "id");
    json_t *pv = json_object_get(js, "parentId");
    if (pv && !json_is_null(pv) && !json_is_string(pv))
        return imp_fail(im, err, PB_EPARSE, im->files[file], 0, 0,
                        "%s: expected \"parentId\" as a string (absent for a "
                        "root span)", where);
    r.parent_id = imp_json_str(js, "parentId");
    json_t *le = json_object_get(js, "localEndpoint");
    if (!le && (json_object_get(js, "annotations") ||
                json_object_get(js, "binaryAnnotations"))) {
        /* Zipkin v1 (the slot is not committed: v1_span takes it again) */
        return v1_span(im, js, file, a, b, r, where, err);
    }
    if (!json_is_object(le))
        return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                    "%s: expected a \"localEndpoint\" object with "
                    "\"serviceName\"",
                    where);
    r.service = imp_json_str(le, "serviceName");
    json_t *re = json_object_get(js, "remoteEndpoint");
    r.peer = imp_json_str(re, "serviceName");
    /* a remote endpoint without a service name (an OpenTelemetry exporter
     * without peer.service): named by its address (before, every such
     * callee was node "unknown") */
    if (!r.peer || !*r.peer)
        r.peer = imp_json_str(re, "ipv4");
    if (!r.peer || !*r.peer)
        r.peer = imp_json_str(re, "ipv6");
    const char *kind = imp_json_str(js, "kind");
    json_t *kv = json_object_get(js, "kind");
    if ((kv && !json_is_null(kv) && !kind) || !imp_kind_known(kind))
        return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                        "%s: \"kind\" %s%s%s: expected CLIENT, SERVER, PRODUCER "
                        "or CONSUMER, or no \"kind\" for a local span",
                        where, kind ? "\"" : "", kind ? kind : "not a string",
                        kind ? "\"" : "");
    r.kind = imp_kind_of(kind);
    r.untagged = kind == NULL;
    r.start = json_object_get(js, "timestamp");
    r.duration = json_object_get(js, "duration");
    if (no_timestamp(r.start))
        return store_fragment(im, s, r, err);
    return imp_store_span(im, s, &r, err);
}
