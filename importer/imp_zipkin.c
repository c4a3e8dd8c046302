/*
 * imp_zipkin.c - one Zipkin v2 span (an element of a span list, or of one
 * trace's list in the /api/v2/traces answer).
 */
#include <stdio.h>
#include <string.h>

#include "imp_int.h"

int imp_zipkin_span(imp_importer *im, json_t *js, uint32_t file, uint32_t a,
                    uint32_t b, pb_error *err)
{
    imp_span *s = imp_new_span(im);
    if (!s)
        return imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    s->file = file;
    s->src = IMP_SRC_ZIPKIN;
    s->pos_a = a;
    s->pos_b = b;
    char where[96];
    imp_span_where(s, where, sizeof where);
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
    if (!json_is_object(le))
        return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                    "%s: expected a \"localEndpoint\" object with "
                    "\"serviceName\"",
                    where);
    r.service = imp_json_str(le, "serviceName");
    r.peer = imp_json_str(json_object_get(js, "remoteEndpoint"), "serviceName");
    const char *kind = imp_json_str(js, "kind");
    r.kind = imp_kind_of(kind);
    r.untagged = kind == NULL;
    r.start = json_object_get(js, "timestamp");
    r.duration = json_object_get(js, "duration");
    return imp_store_span(im, s, &r, err);
}
