/*
 * imp_jaeger.c - one Jaeger trace object ({"traceID", "spans",
 * "processes"}, an element of the query API's "data" array or a document of
 * its own) into spans.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "imp_int.h"

/* The parent of span js of trace tid (its own "traceID", or the trace
 * object's): the first CHILD_OF reference to a span of the same trace,
 * else the first FOLLOWS_FROM one, else "parentSpanID".  A reference whose
 * "traceID" names another trace (a batch job's span pointing at the request
 * that queued it) is never a parent: its span id was looked up in the
 * span's own trace and linked to whatever span there had the same id (or
 * counted a missing parent) without a word.  Jaeger's own model
 * (Span.ParentSpanID) skips such references too; here each is counted
 * (cross_trace_ref), said even with -q and kept in the metadata. */
static int jaeger_parent(imp_importer *im, json_t *js, const char *fname,
                         const char *where, const char *tid,
                         const char **parent, pb_error *err)
{
    *parent = NULL;
    json_t *refs = json_object_get(js, "references");
    if (refs && !json_is_null(refs)) {
        if (!json_is_array(refs))
            return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                        "%s.references: expected an array", where);
        const char *follows = NULL;
        char tb[40], rb[40];
        const char *own = tid ? imp_hex_id(tid, tb, sizeof tb, 1) : NULL;
        size_t n = json_array_size(refs);
        for (size_t i = 0; i < n; i++) {
            json_t *ref = json_array_get(refs, i);
            const char *id = imp_json_str(ref, "spanID");
            if (!json_is_object(ref) || !id)
                return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                            "%s.references[%zu]: expected an object with a "
                            "string \"spanID\"",
                            where, i);
            json_t *rt = json_object_get(ref, "traceID");
            if (rt && !json_is_null(rt)) {
                const char *rtid = json_string_value(rt);
                if (!rtid || !*rtid)
                    return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                                    "%s.references[%zu]: \"traceID\" is %s; expected "
                                    "a non-empty string (the trace of the span "
                                    "referred to) or no such key",
                                    where, i, rtid ? "empty" : "not a string");
                if (own && strcmp(imp_hex_id(rtid, rb, sizeof rb, 1), own)) {
                    char rw[160];
                    snprintf(rw, sizeof rw, "%.100s.references[%zu]", where, i);
                    imp_count_at(im, IMP_C_CROSS_TRACE_REF, fname, rw);
                    continue;
                }
            }
            const char *type = imp_json_str(ref, "refType");
            if (type && !strcmp(type, "FOLLOWS_FROM")) {
                if (!follows)
                    follows = id;
            } else if (!*parent) {
                *parent = id;
            }
        }
        if (n > 1)
            imp_count_at(im, IMP_C_SEVERAL_REFS, fname, where);
        if (!*parent && follows) {
            *parent = follows;
            imp_count_at(im, IMP_C_FOLLOWS_FROM, fname, where);
        }
    }
    if (!*parent) {
        const char *p = imp_json_str(js, "parentSpanID");
        if (p && *p && strcmp(p, "0"))
            *parent = p;
    }
    return PB_OK;
}

int imp_jaeger_trace(imp_importer *im, json_t *t, uint32_t file,
                     uint32_t tk, pb_error *err)
{
    const char *fname = im->files[file];
    char where[96], tw[32];
    if (tk == IMP_NONE)
        snprintf(tw, sizeof tw, "(top level)");
    else
        snprintf(tw, sizeof tw, "data[%u]", tk);
    if (!json_is_object(t))
        return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                    "%s: expected a trace object with \"spans\"", tw);
    json_t *spans = json_object_get(t, "spans");
    if (!json_is_array(spans))
        return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                    "%s: expected \"spans\" to be an array", tw);
    json_t *procs = json_object_get(t, "processes");
    if (procs && !json_is_null(procs) && !json_is_object(procs))
        return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                    "%s.processes: expected an object", tw);
    if (json_is_object(procs)) {
        /* several processes of one service: count each extra one (a name
         * already in the table; a table, not a pairwise comparison: a
         * trace may list tens of thousands of processes) */
        pb_strtab *seen = NULL;
        if (pb_strtab_init(&seen) != PB_OK)
            return imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
        const char *key;
        json_t *p;
        json_object_foreach(procs, key, p) {
            const char *name = imp_json_str(p, "serviceName");
            if (!json_is_object(p) || !name || !*name) {
                pb_strtab_close(seen);
                return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                            "%s.processes.%s: expected an object with a "
                            "non-empty string \"serviceName\"",
                            tw, key);
            }
            uint32_t before = pb_strtab_count(seen), idx;
            if (pb_strtab_intern(seen, name, strlen(name), &idx) != PB_OK) {
                pb_strtab_close(seen);
                return imp_fail(im, err, PB_ENOMEM, NULL, 0, 0,
                                "out of memory");
            }
            if (pb_strtab_count(seen) == before) {
                char pw[64];
                snprintf(pw, sizeof pw, "%s.processes", tw);
                imp_count_at(im, IMP_C_MULTI_PROCESS, fname, pw);
            }
        }
        pb_strtab_close(seen);
    }
    const char *tid = imp_json_str(t, "traceID");
    size_t n = json_array_size(spans);
    for (size_t j = 0; j < n; j++) {
        json_t *js = json_array_get(spans, j);
        imp_span *s = imp_new_span(im);
        if (!s)
            return imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
        s->file = file;
        s->pos_a = tk;
        s->pos_b = (uint32_t)j;
        imp_span_where(s, where, sizeof where);
        if (!json_is_object(js))
            return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                        "%s: expected a span object", where);
        imp_raw_span r;
        memset(&r, 0, sizeof r);
        r.trace_id = imp_json_str(js, "traceID");
        if (!r.trace_id)
            r.trace_id = tid;
        r.span_id = imp_json_str(js, "spanID");
        const char *pid = imp_json_str(js, "processID");
        json_t *proc = NULL;
        if (pid) {
            proc = json_is_object(procs) ? json_object_get(procs, pid) : NULL;
            if (!proc)
                return imp_fail(im, err, PB_ENOENT, fname, 0, 0,
                            "%s: names process \"%s\", which is not in "
                            "%s.processes; expected one of its keys",
                            where, pid, tw);
        } else {
            proc = json_object_get(js, "process");
            if (!json_is_object(proc))
                return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                            "%s: expected a string \"processID\" or a "
                            "\"process\" object",
                            where);
        }
        r.service = imp_json_str(proc, "serviceName");
        json_t *tags = json_object_get(js, "tags");
        if (tags && !json_is_null(tags) && !json_is_array(tags))
            return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                        "%s.tags: expected an array", where);
        const char *kind = NULL;
        size_t kind_i = SIZE_MAX, peer_i = SIZE_MAX;
        for (size_t i = 0; i < json_array_size(tags); i++) {
            json_t *tag = json_array_get(tags, i);
            const char *key = imp_json_str(tag, "key");
            if (!key)
                continue;
            /* a tag read here given twice with two values took the last
             * without a word (span.kind "client", then "server": a client
             * span read as a server span inside its own service); the same
             * value twice is one value */
            int is_kind = !strcmp(key, "span.kind");
            if (is_kind || !strcmp(key, "peer.service")) {
                size_t *fi = is_kind ? &kind_i : &peer_i;
                const char *v0 = is_kind ? kind : r.peer, *v1 = imp_json_str(tag, "value");
                if (*fi != SIZE_MAX && !(v0 && v1 && !strcmp(v0, v1)) && v0 != v1)
                    return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                                    "%s.tags[%zu]: tag \"%s\" given a second time with "
                                    "another value (tags[%zu] %s%s%s, then %s%s%s); "
                                    "expected the key once in a span's tags",
                                    where, i, key, *fi, v0 ? "\"" : "",
                                    v0 ? v0 : "not a string", v0 ? "\"" : "",
                                    v1 ? "\"" : "", v1 ? v1 : "not a string",
                                    v1 ? "\"" : "");
                if (*fi == SIZE_MAX)
                    *fi = i;
            }
            if (is_kind) {
                kind = imp_json_str(tag, "value");
                if (!kind || !imp_kind_known(kind))
                    return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                                    "%s: tag \"span.kind\" %s%s%s: expected "
                                    "client, server, producer or consumer, or "
                                    "no such tag for a local span",
                                    where, kind ? "\"" : "",
                                    kind ? kind : "not a string", kind ? "\"" : "");
            }
            else if (!strcmp(key, "peer.service"))
                r.peer = imp_json_str(tag, "value");
        }
        /* no peer.service: the callee named by the other tags that name it
         * (imp_peer_keys; before, every such callee was node "unknown"),
         * each read once as peer.service is */
        for (size_t q = 0; imp_peer_keys[q] && !(r.peer && *r.peer); q++) {
            size_t first = SIZE_MAX;
            for (size_t i = 0; i < json_array_size(tags); i++) {
                json_t *tag = json_array_get(tags, i);
                const char *key = imp_json_str(tag, "key");
                if (!key || strcmp(key, imp_peer_keys[q]))
                    continue;
                const char *v = imp_json_str(tag, "value");
                if (first == SIZE_MAX) {
                    first = i;
                    r.peer = v;
                } else if (v != r.peer && !(v && r.peer && !strcmp(v, r.peer))) {
                    return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                                    "%s.tags[%zu]: tag \"%s\" given a second time with "
                                    "another value (tags[%zu] %s%s%s, then %s%s%s); "
                                    "expected the key once in a span's tags",
                                    where, i, key, first, r.peer ? "\"" : "",
                                    r.peer ? r.peer : "not a string", r.peer ? "\"" : "",
                                    v ? "\"" : "", v ? v : "not a string", v ? "\"" : "");
                }
            }
        }
        r.kind = imp_kind_of(kind);
        r.untagged = kind == NULL;
        if (jaeger_parent(im, js, fname, where, r.trace_id, &r.parent_id, err) != PB_OK)
            return err ? err->code : PB_EPARSE;
        r.start = json_object_get(js, "startTime");
        r.duration = json_object_get(js, "duration");
        int rc = imp_store_span(im, s, &r, err);
        if (rc != PB_OK)
            return rc;
    }
    return PB_OK;
}
