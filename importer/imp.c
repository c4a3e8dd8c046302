/*
 * imp.c - Jaeger / Zipkin v2 JSON to a message trace with truth.
 *
 * Spans are read into a flat array (parsing keeps no JSON after a document
 * is done), then imp_finish resolves parents, turns every service-crossing
 * edge of the span tree into an RPC, derives causes and writes the merged
 * trace.  The rules for irregular data are in docs/importer.md; each rule
 * that fires bumps a counter so nothing is changed or dropped silently.
 */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "imp.h"
#include "pb_strtab.h"

#define NONE UINT32_MAX
/* microseconds that still fit in int64 nanoseconds */
#define US_MAX (INT64_MAX / 1000)

enum { K_INTERNAL = 0, K_CLIENT = 1, K_SERVER = 2 };

typedef struct span {
    uint32_t trace;  /* index in im->traceids */
    uint32_t sid;    /* index in im->sids */
    uint32_t psid;   /* parent's span id, or NONE */
    uint32_t svc;    /* node index */
    uint32_t peer;   /* node of peer.service / remoteEndpoint, or NONE */
    uint32_t file;   /* index in im->files */
    uint32_t pos_a;  /* data[pos_a] (Jaeger) or [pos_a] (nested Zipkin); NONE */
    uint32_t pos_b;  /* .spans[pos_b] or [pos_b] */
    uint8_t kind;
    uint8_t zipkin;
    uint8_t has_ref; /* named a parent (even if it is missing) */
    pb_ns start, end;
} span;

struct imp_importer {
    imp_opts opts;
    int failed, finished;
    unsigned formats_seen; /* bit 1 jaeger, bit 2 zipkin */
    pb_trace *trace;       /* the output; nodes and labels intern here */
    pb_strtab *sids, *traceids;
    char **files;
    size_t nfiles, capfiles;
    span *spans;
    size_t nspans, capspans;
    imp_stats st;
    uint32_t node_client, node_unknown;
};

static const struct {
    const char *name, *help;
} counters[IMP_NCOUNTERS] = {
    {"files", "JSON documents read"},
    {"traces", "distinct trace ids"},
    {"spans", "spans read"},
    {"rpcs", "RPCs made into a call and a return"},
    {"messages", "messages written"},
    {"requests", "path instances: requests entering from node client (call "
                 "and return derived from the root span alone)"},
    {"server_only", "server spans without a client span: call and return "
                    "derived from the server span alone (both timestamps on "
                    "the server's clock)"},
    {"client_only", "client spans whose callee left no span: callee named by "
                    "peer.service / remoteEndpoint, else node unknown; both "
                    "timestamps from the client span"},
    {"callee_not_server", "spans under a client span of another service that "
                          "are not server spans: taken as the server side"},
    {"multi_callee", "client spans with more than one callee span: each "
                     "callee is its own RPC sharing the client's timestamps"},
    {"missing_parent", "spans whose parent is not in the trace: root of a "
                       "path of their own (TRACEID:SPANID) entered from node "
                       "client"},
    {"parent_cycle", "parent references forming a cycle: broken at one span, "
                     "which becomes a root like a missing parent"},
    {"extra_root", "spans without parent beyond the first (earliest) of their "
                   "trace: root of a path of their own (TRACEID:SPANID)"},
    {"clock_call", "server span starting before its client span (call "
                   "received before it was sent): kept as recorded"},
    {"clock_return", "server span ending after its client span (return "
                     "received before it was sent): kept as recorded"},
    {"intra_rpc", "client-to-server RPCs inside one service: collapsed, no "
                  "message (the callee's work counts as the caller's)"},
    {"internal_span", "non-client spans whose parent is in the same service: "
                      "collapsed into the enclosing server span"},
    {"multi_process", "services with several processes in one trace: merged "
                      "into one node"},
    {"negative_duration", "negative durations: taken as 0"},
    {"missing_duration", "spans without a duration: taken as 0"},
    {"duplicate_span", "spans repeating a (trace, span id) already seen "
                       "(not a shared client/server pair): kept, but "
                       "children attach to the first"},
    {"shared_span", "client and server span sharing one span id (Zipkin "
                    "shared spans): server taken as the client's child"},
    {"follows_from", "parents taken from a FOLLOWS_FROM reference (no "
                     "CHILD_OF)"},
    {"several_refs", "spans with more than one reference: the first CHILD_OF "
                     "(else the first) is the parent"},
    {"early_child", "child RPCs issued before their parent span started: "
                    "caused by the call into the parent"},
    {"late_child", "child RPCs finishing after their parent span ended: not "
                   "a cause of the parent's return"},
    {"skipped_files", "folder entries not ending in .json (or not regular "
                      "files): not read"},
};

const char *imp_counter_name(int c)
{
    return c >= 0 && c < IMP_NCOUNTERS ? counters[c].name : "?";
}

const char *imp_counter_help(int c)
{
    return c >= 0 && c < IMP_NCOUNTERS ? counters[c].help : "?";
}

void imp_opts_default(imp_opts *opts)
{
    memset(opts, 0, sizeof *opts);
    opts->format = IMP_FORMAT_AUTO;
}

int imp_init(imp_importer **out, const imp_opts *opts, pb_error *err)
{
    *out = NULL;
    imp_importer *im = calloc(1, sizeof *im);
    if (!im)
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    if (opts)
        im->opts = *opts;
    else
        imp_opts_default(&im->opts);
    if (pb_trace_new(&im->trace) != PB_OK || pb_strtab_init(&im->sids) != PB_OK ||
        pb_strtab_init(&im->traceids) != PB_OK ||
        pb_strtab_intern(im->trace->names->nodes, "client", 6, &im->node_client) !=
            PB_OK) {
        imp_close(im);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    im->node_unknown = NONE;
    *out = im;
    return PB_OK;
}

void imp_close(imp_importer *im)
{
    if (!im)
        return;
    pb_trace_close(im->trace);
    pb_strtab_close(im->sids);
    pb_strtab_close(im->traceids);
    for (size_t i = 0; i < im->nfiles; i++)
        free(im->files[i]);
    free(im->files);
    free(im->spans);
    for (int c = 0; c < IMP_NCOUNTERS; c++)
        free(im->st.first[c]);
    free(im);
}

const imp_stats *imp_get_stats(const imp_importer *im) { return &im->st; }

/* ------------------------------------------------------------------ */
/* errors and counters */

static int fail(imp_importer *im, pb_error *err, int code, const char *file,
                long line, long col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;

static int fail(imp_importer *im, pb_error *err, int code, const char *file,
                long line, long col, const char *fmt, ...)
{
    char buf[PB_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    im->failed = 1;
    return pb_error_set(err, code, file, line, col, "%s", buf);
}

/* Where a span sits in its document, for messages: "data[0].spans[3]". */
static void span_where(const span *s, char *buf, size_t n)
{
    if (s->zipkin) {
        if (s->pos_a == NONE)
            snprintf(buf, n, "[%u]", s->pos_b);
        else
            snprintf(buf, n, "[%u][%u]", s->pos_a, s->pos_b);
    } else if (s->pos_a == NONE) {
        snprintf(buf, n, "spans[%u]", s->pos_b);
    } else {
        snprintf(buf, n, "data[%u].spans[%u]", s->pos_a, s->pos_b);
    }
}

/* Count one occurrence; the first one's place is kept for the summary.
 * Out of memory for the place only loses the place. */
static void count_at(imp_importer *im, int c, const char *file,
                     const char *where)
{
    im->st.count[c]++;
    if (im->st.first[c] || !file)
        return;
    pb_strbuf b = {0};
    if (pb_strbuf_printf(&b, "%s%s%s", file, where ? ": " : "",
                         where ? where : "") == PB_OK)
        im->st.first[c] = pb_strbuf_take(&b);
    pb_strbuf_free(&b);
}

static void count_span(imp_importer *im, int c, const span *s)
{
    char where[64];
    span_where(s, where, sizeof where);
    count_at(im, c, im->files[s->file], where);
}

/* ------------------------------------------------------------------ */
/* reading */

static int add_file_name(imp_importer *im, const char *name, uint32_t *idx)
{
    if (im->nfiles == im->capfiles) {
        size_t nc = im->capfiles ? im->capfiles * 2 : 16;
        char **nf = realloc(im->files, nc * sizeof *nf);
        if (!nf)
            return PB_ENOMEM;
        im->files = nf;
        im->capfiles = nc;
    }
    if (im->nfiles >= NONE)
        return PB_ERANGE;
    char *copy = strdup(name);
    if (!copy)
        return PB_ENOMEM;
    *idx = (uint32_t)im->nfiles;
    im->files[im->nfiles++] = copy;
    return PB_OK;
}

static span *new_span(imp_importer *im)
{
    if (im->nspans == im->capspans) {
        size_t nc = im->capspans ? im->capspans * 2 : 1024;
        span *ns = realloc(im->spans, nc * sizeof *ns);
        if (!ns)
            return NULL;
        im->spans = ns;
        im->capspans = nc;
    }
    if (im->nspans >= NONE - 1)
        return NULL;
    span *s = &im->spans[im->nspans];
    memset(s, 0, sizeof *s);
    s->psid = s->peer = s->pos_a = NONE;
    return s;
}

/* A JSON number of microseconds that is a whole number.  Returns 1 and
 * *out, or 0. */
static int json_us(const json_t *v, int64_t *out)
{
    if (json_is_integer(v)) {
        *out = (int64_t)json_integer_value(v);
        return 1;
    }
    if (json_is_real(v)) {
        double d = json_real_value(v);
        if (!isfinite(d) || d != floor(d) || d > 9.0e18 || d < -9.0e18)
            return 0;
        *out = (int64_t)d;
        return 1;
    }
    return 0;
}

static const char *json_str(const json_t *obj, const char *key)
{
    return json_string_value(json_object_get(obj, key));
}

/* What a span holds once its format is stripped off. */
typedef struct raw_span {
    const char *trace_id, *span_id, *parent_id; /* parent may be NULL */
    const char *service, *peer;                 /* peer may be NULL */
    int kind;
    json_t *start, *duration; /* duration may be NULL */
} raw_span;

static int kind_of(const char *k)
{
    if (!k)
        return K_INTERNAL;
    if (!strcasecmp(k, "client") || !strcasecmp(k, "producer"))
        return K_CLIENT;
    if (!strcasecmp(k, "server") || !strcasecmp(k, "consumer"))
        return K_SERVER;
    return K_INTERNAL;
}

/* Check and store one span.  s is the slot from new_span with its place
 * already set (used in messages). */
static int store_span(imp_importer *im, span *s, const raw_span *r,
                      pb_error *err)
{
    char where[64];
    span_where(s, where, sizeof where);
    const char *fname = im->files[s->file];
    const char *idkey = s->zipkin ? "id" : "spanID";
    if (!r->trace_id || !*r->trace_id)
        return fail(im, err, PB_EPARSE, fname, 0, 0,
                    "%s: expected a non-empty string \"%s\"", where,
                    s->zipkin ? "traceId" : "traceID");
    if (!r->span_id || !*r->span_id)
        return fail(im, err, PB_EPARSE, fname, 0, 0,
                    "%s: expected a non-empty string \"%s\"", where, idkey);
    if (!r->service || !*r->service)
        return fail(im, err, PB_EPARSE, fname, 0, 0,
                    "%s: expected a non-empty service name (%s)", where,
                    s->zipkin ? "localEndpoint.serviceName"
                              : "processes[processID].serviceName");
    int64_t start, dur = 0;
    const char *tskey = s->zipkin ? "timestamp" : "startTime";
    if (!r->start || !json_us(r->start, &start))
        return fail(im, err, PB_EPARSE, fname, 0, 0,
                    "%s: expected \"%s\" as a whole number of microseconds",
                    where, tskey);
    if (start < 0 || start > US_MAX)
        return fail(im, err, PB_ERANGE, fname, 0, 0,
                    "%s: \"%s\" %lld is out of range; expected microseconds "
                    "since the epoch, 0 to %lld",
                    where, tskey, (long long)start, (long long)US_MAX);
    if (!r->duration || json_is_null(r->duration)) {
        count_at(im, IMP_C_MISSING_DURATION, fname, where);
    } else if (!json_us(r->duration, &dur)) {
        return fail(im, err, PB_EPARSE, fname, 0, 0,
                    "%s: expected \"duration\" as a whole number of "
                    "microseconds",
                    where);
    } else if (dur < 0) {
        count_at(im, IMP_C_NEGATIVE_DURATION, fname, where);
        dur = 0;
    }
    if (dur > US_MAX - start)
        return fail(im, err, PB_ERANGE, fname, 0, 0,
                    "%s: start + duration (%lld + %lld us) does not fit in "
                    "64-bit nanoseconds",
                    where, (long long)start, (long long)dur);
    pb_names *names = im->trace->names;
    if (pb_strtab_intern(im->traceids, r->trace_id, strlen(r->trace_id),
                         &s->trace) != PB_OK ||
        pb_strtab_intern(im->sids, r->span_id, strlen(r->span_id), &s->sid) !=
            PB_OK ||
        (r->parent_id && *r->parent_id &&
         pb_strtab_intern(im->sids, r->parent_id, strlen(r->parent_id),
                          &s->psid) != PB_OK) ||
        pb_strtab_intern(names->nodes, r->service, strlen(r->service),
                         &s->svc) != PB_OK ||
        (r->peer && *r->peer &&
         pb_strtab_intern(names->nodes, r->peer, strlen(r->peer), &s->peer) !=
             PB_OK))
        return fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    s->has_ref = r->parent_id && *r->parent_id;
    s->kind = (uint8_t)r->kind;
    s->start = start * 1000;
    s->end = (start + dur) * 1000;
    im->nspans++;
    im->st.count[IMP_C_SPANS]++;
    return PB_OK;
}

/* Jaeger: the parent from "references" (first CHILD_OF, else first
 * FOLLOWS_FROM) or the older "parentSpanID". */
static int jaeger_parent(imp_importer *im, json_t *js, const char *fname,
                         const char *where, const char **parent,
                         pb_error *err)
{
    *parent = NULL;
    json_t *refs = json_object_get(js, "references");
    if (refs && !json_is_null(refs)) {
        if (!json_is_array(refs))
            return fail(im, err, PB_EPARSE, fname, 0, 0,
                        "%s.references: expected an array", where);
        const char *follows = NULL;
        size_t n = json_array_size(refs);
        for (size_t i = 0; i < n; i++) {
            json_t *ref = json_array_get(refs, i);
            const char *id = json_str(ref, "spanID");
            if (!json_is_object(ref) || !id)
                return fail(im, err, PB_EPARSE, fname, 0, 0,
                            "%s.references[%zu]: expected an object with a "
                            "string \"spanID\"",
                            where, i);
            const char *type = json_str(ref, "refType");
            if (type && !strcmp(type, "FOLLOWS_FROM")) {
                if (!follows)
                    follows = id;
            } else if (!*parent) {
                *parent = id;
            }
        }
        if (n > 1)
            count_at(im, IMP_C_SEVERAL_REFS, fname, where);
        if (!*parent && follows) {
            *parent = follows;
            count_at(im, IMP_C_FOLLOWS_FROM, fname, where);
        }
    }
    if (!*parent) {
        const char *p = json_str(js, "parentSpanID");
        if (p && *p && strcmp(p, "0"))
            *parent = p;
    }
    return PB_OK;
}

static int jaeger_trace(imp_importer *im, json_t *t, uint32_t file,
                        uint32_t tk, pb_error *err)
{
    const char *fname = im->files[file];
    char where[64], tw[32];
    if (tk == NONE)
        snprintf(tw, sizeof tw, "(top level)");
    else
        snprintf(tw, sizeof tw, "data[%u]", tk);
    if (!json_is_object(t))
        return fail(im, err, PB_EPARSE, fname, 0, 0,
                    "%s: expected a trace object with \"spans\"", tw);
    json_t *spans = json_object_get(t, "spans");
    if (!json_is_array(spans))
        return fail(im, err, PB_EPARSE, fname, 0, 0,
                    "%s: expected \"spans\" to be an array", tw);
    json_t *procs = json_object_get(t, "processes");
    if (procs && !json_is_null(procs) && !json_is_object(procs))
        return fail(im, err, PB_EPARSE, fname, 0, 0,
                    "%s.processes: expected an object", tw);
    if (json_is_object(procs)) {
        /* several processes of one service: count each extra one */
        size_t np = json_object_size(procs), k = 0;
        const char **svc = calloc(np ? np : 1, sizeof *svc);
        if (!svc)
            return fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
        const char *key;
        json_t *p;
        json_object_foreach(procs, key, p) {
            const char *name = json_str(p, "serviceName");
            if (!json_is_object(p) || !name || !*name) {
                free(svc);
                return fail(im, err, PB_EPARSE, fname, 0, 0,
                            "%s.processes.%s: expected an object with a "
                            "non-empty string \"serviceName\"",
                            tw, key);
            }
            svc[k++] = name;
        }
        for (size_t i = 0; i < k; i++)
            for (size_t j = 0; j < i; j++)
                if (!strcmp(svc[i], svc[j])) {
                    char pw[64];
                    snprintf(pw, sizeof pw, "%s.processes", tw);
                    count_at(im, IMP_C_MULTI_PROCESS, fname, pw);
                    break;
                }
        free(svc);
    }
    const char *tid = json_str(t, "traceID");
    size_t n = json_array_size(spans);
    for (size_t j = 0; j < n; j++) {
        json_t *js = json_array_get(spans, j);
        span *s = new_span(im);
        if (!s)
            return fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
        s->file = file;
        s->pos_a = tk;
        s->pos_b = (uint32_t)j;
        span_where(s, where, sizeof where);
        if (!json_is_object(js))
            return fail(im, err, PB_EPARSE, fname, 0, 0,
                        "%s: expected a span object", where);
        raw_span r;
        memset(&r, 0, sizeof r);
        r.trace_id = json_str(js, "traceID");
        if (!r.trace_id)
            r.trace_id = tid;
        r.span_id = json_str(js, "spanID");
        const char *pid = json_str(js, "processID");
        json_t *proc = NULL;
        if (pid) {
            proc = json_is_object(procs) ? json_object_get(procs, pid) : NULL;
            if (!proc)
                return fail(im, err, PB_ENOENT, fname, 0, 0,
                            "%s: names process \"%s\", which is not in "
                            "%s.processes; expected one of its keys",
                            where, pid, tw);
        } else {
            proc = json_object_get(js, "process");
            if (!json_is_object(proc))
                return fail(im, err, PB_EPARSE, fname, 0, 0,
                            "%s: expected a string \"processID\" or a "
                            "\"process\" object",
                            where);
        }
        r.service = json_str(proc, "serviceName");
        json_t *tags = json_object_get(js, "tags");
        if (tags && !json_is_null(tags) && !json_is_array(tags))
            return fail(im, err, PB_EPARSE, fname, 0, 0,
                        "%s.tags: expected an array", where);
        const char *kind = NULL;
        for (size_t i = 0; i < json_array_size(tags); i++) {
            json_t *tag = json_array_get(tags, i);
            const char *key = json_str(tag, "key");
            if (!key)
                continue;
            if (!strcmp(key, "span.kind"))
                kind = json_str(tag, "value");
            else if (!strcmp(key, "peer.service"))
                r.peer = json_str(tag, "value");
        }
        r.kind = kind_of(kind);
        if (jaeger_parent(im, js, fname, where, &r.parent_id, err) != PB_OK)
            return err ? err->code : PB_EPARSE;
        r.start = json_object_get(js, "startTime");
        r.duration = json_object_get(js, "duration");
        int rc = store_span(im, s, &r, err);
        if (rc != PB_OK)
            return rc;
    }
    return PB_OK;
}

static int jaeger_doc(imp_importer *im, json_t *root, uint32_t file,
                      pb_error *err)
{
    const char *fname = im->files[file];
    json_t *data = json_object_get(root, "data");
    if (data) {
        if (!json_is_array(data))
            return fail(im, err, PB_EPARSE, fname, 0, 0,
                        "\"data\": expected an array of traces");
        size_t n = json_array_size(data);
        for (size_t i = 0; i < n; i++) {
            int rc = jaeger_trace(im, json_array_get(data, i), file,
                                  (uint32_t)i, err);
            if (rc != PB_OK)
                return rc;
        }
        return PB_OK;
    }
    if (json_object_get(root, "spans"))
        return jaeger_trace(im, root, file, NONE, err);
    return fail(im, err, PB_EPARSE, fname, 0, 0,
                "expected a Jaeger document: an object with \"data\" (the "
                "query API's list of traces) or a trace with \"spans\"");
}

static int zipkin_span(imp_importer *im, json_t *js, uint32_t file,
                       uint32_t a, uint32_t b, pb_error *err)
{
    span *s = new_span(im);
    if (!s)
        return fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    s->file = file;
    s->zipkin = 1;
    s->pos_a = a;
    s->pos_b = b;
    char where[64];
    span_where(s, where, sizeof where);
    const char *fname = im->files[file];
    if (!json_is_object(js))
        return fail(im, err, PB_EPARSE, fname, 0, 0,
                    "%s: expected a span object", where);
    raw_span r;
    memset(&r, 0, sizeof r);
    r.trace_id = json_str(js, "traceId");
    r.span_id = json_str(js, "id");
    r.parent_id = json_str(js, "parentId");
    json_t *le = json_object_get(js, "localEndpoint");
    if (!json_is_object(le))
        return fail(im, err, PB_EPARSE, fname, 0, 0,
                    "%s: expected a \"localEndpoint\" object with "
                    "\"serviceName\"",
                    where);
    r.service = json_str(le, "serviceName");
    r.peer = json_str(json_object_get(js, "remoteEndpoint"), "serviceName");
    r.kind = kind_of(json_str(js, "kind"));
    r.start = json_object_get(js, "timestamp");
    r.duration = json_object_get(js, "duration");
    return store_span(im, s, &r, err);
}

static int zipkin_doc(imp_importer *im, json_t *root, uint32_t file,
                      pb_error *err)
{
    const char *fname = im->files[file];
    if (!json_is_array(root))
        return fail(im, err, PB_EPARSE, fname, 0, 0,
                    "expected a Zipkin v2 document: an array of spans (or "
                    "of arrays of spans)");
    size_t n = json_array_size(root);
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(root, i);
        int rc = PB_OK;
        if (json_is_array(e)) {
            size_t m = json_array_size(e);
            for (size_t j = 0; j < m && rc == PB_OK; j++)
                rc = zipkin_span(im, json_array_get(e, j), file, (uint32_t)i,
                                 (uint32_t)j, err);
        } else {
            rc = zipkin_span(im, e, file, NONE, (uint32_t)i, err);
        }
        if (rc != PB_OK)
            return rc;
    }
    return PB_OK;
}

static int add_doc(imp_importer *im, json_t *root, uint32_t file,
                   pb_error *err)
{
    im->st.count[IMP_C_FILES]++;
    imp_format f = im->opts.format;
    if (f == IMP_FORMAT_AUTO)
        f = json_is_array(root) ? IMP_FORMAT_ZIPKIN : IMP_FORMAT_JAEGER;
    if (f == IMP_FORMAT_JAEGER && !json_is_object(root))
        return fail(im, err, PB_EPARSE, im->files[file], 0, 0,
                    "expected a Jaeger document: an object with \"data\" "
                    "(the query API's list of traces)");
    im->formats_seen |= f == IMP_FORMAT_JAEGER ? 1u : 2u;
    return f == IMP_FORMAT_JAEGER ? jaeger_doc(im, root, file, err)
                                  : zipkin_doc(im, root, file, err);
}

static int json_fail(imp_importer *im, pb_error *err, const char *name,
                     const json_error_t *je)
{
    int code = json_error_code(je) == json_error_cannot_open_file ? PB_EIO
                                                                  : PB_EPARSE;
    return fail(im, err, code, name, je->line > 0 ? je->line : 0,
                je->column > 0 ? je->column : 0, "%s; expected valid JSON",
                je->text);
}

int imp_add_buffer(imp_importer *im, const char *data, size_t len,
                   const char *name, pb_error *err)
{
    if (im->failed || im->finished)
        return pb_error_set(err, PB_ESTATE, name, 0, 0,
                            "importer already failed or finished");
    uint32_t file;
    int rc = add_file_name(im, name ? name : "(buffer)", &file);
    if (rc != PB_OK)
        return fail(im, err, rc, NULL, 0, 0, "out of memory");
    json_error_t je;
    json_t *root = json_loadb(data, len, 0, &je);
    if (!root)
        return json_fail(im, err, im->files[file], &je);
    rc = add_doc(im, root, file, err);
    json_decref(root);
    return rc;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int add_one_file(imp_importer *im, const char *path, pb_error *err)
{
    uint32_t file;
    int rc = add_file_name(im, strcmp(path, "-") ? path : "(stdin)", &file);
    if (rc != PB_OK)
        return fail(im, err, rc, NULL, 0, 0, "out of memory");
    json_error_t je;
    json_t *root = strcmp(path, "-") ? json_load_file(path, 0, &je)
                                     : json_loadf(stdin, 0, &je);
    if (!root)
        return json_fail(im, err, im->files[file], &je);
    rc = add_doc(im, root, file, err);
    json_decref(root);
    return rc;
}

static int add_dir(imp_importer *im, const char *path, pb_error *err)
{
    DIR *d = opendir(path);
    if (!d)
        return fail(im, err, PB_EIO, path, 0, 0, "cannot open folder: %s",
                    strerror(errno));
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = PB_OK;
    struct dirent *e;
    pb_strbuf full = {0};
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        size_t l = strlen(e->d_name);
        pb_strbuf_reset(&full);
        size_t pl = strlen(path);
        if (pb_strbuf_printf(&full, "%s%s%s", path,
                             pl && path[pl - 1] == '/' ? "" : "/",
                             e->d_name) != PB_OK) {
            rc = PB_ENOMEM;
            break;
        }
        struct stat sb;
        if (l <= 5 || strcmp(e->d_name + l - 5, ".json") ||
            stat(pb_strbuf_str(&full), &sb) || !S_ISREG(sb.st_mode)) {
            count_at(im, IMP_C_SKIPPED_FILES, pb_strbuf_str(&full), NULL);
            continue;
        }
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 64;
            char **nn = realloc(names, nc * sizeof *nn);
            if (!nn) {
                rc = PB_ENOMEM;
                break;
            }
            names = nn;
            cap = nc;
        }
        if (!(names[n] = pb_strbuf_take(&full))) {
            rc = PB_ENOMEM;
            break;
        }
        n++;
    }
    closedir(d);
    pb_strbuf_free(&full);
    if (rc != PB_OK)
        rc = fail(im, err, rc, NULL, 0, 0, "out of memory");
    else if (!n)
        rc = fail(im, err, PB_EIO, path, 0, 0,
                  "folder holds no *.json files; expected Jaeger or Zipkin "
                  "JSON files");
    if (names)
        qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n && rc == PB_OK; i++)
        rc = add_one_file(im, names[i], err);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return rc;
}

int imp_add_path(imp_importer *im, const char *path, pb_error *err)
{
    if (im->failed || im->finished)
        return pb_error_set(err, PB_ESTATE, path, 0, 0,
                            "importer already failed or finished");
    struct stat sb;
    if (strcmp(path, "-") && !stat(path, &sb) && S_ISDIR(sb.st_mode))
        return add_dir(im, path, err);
    return add_one_file(im, path, err);
}

/* ------------------------------------------------------------------ */
/* building the trace */

typedef struct rpc {
    uint32_t caller_ctx; /* span index of the caller's context, or NONE */
    uint32_t callee_ctx; /* span index the call enters, or NONE */
    uint32_t label_span; /* span whose id names the RPC (callid) */
    uint32_t src, dst;
    uint64_t path;
    pb_ns call_ts, call_recv, ret_ts, ret_recv;
} rpc;

typedef struct builder {
    imp_importer *im;
    span *sp;
    size_t n;
    uint32_t *parent;  /* span -> parent span, NONE for roots */
    uint32_t *byid;    /* spans sorted by (trace, sid, position) */
    uint32_t *child;   /* CSR children, sorted by (start, position) */
    size_t *cstart;    /* n + 1 */
    uint32_t *ctx;     /* span -> context span */
    uint32_t *in_rpc;  /* context span -> the RPC entering it, else NONE */
    uint64_t *path;    /* span -> path label */
    rpc *rpcs;
    size_t nrpc, caprpc;
} builder;

static const span *g_sp; /* for qsort comparators only (single-threaded) */

static int cmp_byid(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    const span *s = &g_sp[x], *t = &g_sp[y];
    if (s->trace != t->trace)
        return s->trace < t->trace ? -1 : 1;
    if (s->sid != t->sid)
        return s->sid < t->sid ? -1 : 1;
    return x < y ? -1 : x > y;
}

static int cmp_bystart(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    const span *s = &g_sp[x], *t = &g_sp[y];
    if (s->trace != t->trace)
        return s->trace < t->trace ? -1 : 1;
    if (s->start != t->start)
        return s->start < t->start ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* First position in byid of (trace, sid), or NONE. */
static uint32_t find_group(const builder *b, uint32_t trace, uint32_t sid)
{
    size_t lo = 0, hi = b->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const span *s = &b->sp[b->byid[mid]];
        if (s->trace < trace || (s->trace == trace && s->sid < sid))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < b->n && b->sp[b->byid[lo]].trace == trace &&
        b->sp[b->byid[lo]].sid == sid)
        return (uint32_t)lo;
    return NONE;
}

static size_t group_end(const builder *b, size_t g)
{
    size_t e = g + 1;
    while (e < b->n && b->sp[b->byid[e]].trace == b->sp[b->byid[g]].trace &&
           b->sp[b->byid[e]].sid == b->sp[b->byid[g]].sid)
        e++;
    return e;
}

/* Parents: the span a reference names (its server span if the id is a
 * shared client/server pair, else the first with that id); a server span
 * sharing its id with a client span is that client's child. */
static void resolve_parents(builder *b)
{
    imp_importer *im = b->im;
    for (size_t g = 0; g < b->n;) {
        size_t e = group_end(b, g);
        if (e - g > 1) {
            size_t nc = 0, ns = 0;
            for (size_t k = g; k < e; k++) {
                nc += b->sp[b->byid[k]].kind == K_CLIENT;
                ns += b->sp[b->byid[k]].kind == K_SERVER;
            }
            if (e - g == 2 && nc == 1 && ns == 1)
                count_span(im, IMP_C_SHARED_SPAN, &b->sp[b->byid[g + 1]]);
            else
                for (size_t k = g + 1; k < e; k++)
                    count_span(im, IMP_C_DUPLICATE_SPAN, &b->sp[b->byid[k]]);
        }
        g = e;
    }
    for (size_t i = 0; i < b->n; i++) {
        const span *s = &b->sp[i];
        b->parent[i] = NONE;
        if (s->kind == K_SERVER) {
            uint32_t g = find_group(b, s->trace, s->sid);
            size_t e = group_end(b, g);
            if (e - g == 2) {
                uint32_t o = b->byid[g] == i ? b->byid[g + 1] : b->byid[g];
                if (b->sp[o].kind == K_CLIENT) {
                    b->parent[i] = o;
                    continue;
                }
            }
        }
        if (s->psid == NONE)
            continue;
        uint32_t g = find_group(b, s->trace, s->psid);
        if (g == NONE) {
            count_span(im, IMP_C_MISSING_PARENT, s);
            continue;
        }
        size_t e = group_end(b, g);
        uint32_t p = b->byid[g];
        if (e - g == 2 && b->sp[b->byid[g + 1]].kind == K_SERVER &&
            b->sp[p].kind == K_CLIENT)
            p = b->byid[g + 1];
        b->parent[i] = p;
    }
}

/* Break parent cycles (a span that is its own ancestor). */
static int break_cycles(builder *b)
{
    uint8_t *state = calloc(b->n ? b->n : 1, 1); /* 0 new, 1 on path, 2 done */
    uint32_t *stack = malloc((b->n ? b->n : 1) * sizeof *stack);
    if (!state || !stack) {
        free(state);
        free(stack);
        return PB_ENOMEM;
    }
    for (size_t i = 0; i < b->n; i++) {
        size_t top = 0;
        uint32_t x = (uint32_t)i;
        while (x != NONE && state[x] == 0) {
            state[x] = 1;
            stack[top++] = x;
            x = b->parent[x];
        }
        if (x != NONE && state[x] == 1) {
            /* x is on the current path: cut its parent link */
            count_span(b->im, IMP_C_PARENT_CYCLE, &b->sp[x]);
            b->parent[x] = NONE;
        }
        while (top)
            state[stack[--top]] = 2;
    }
    free(state);
    free(stack);
    return PB_OK;
}

static int build_children(builder *b)
{
    b->cstart = calloc(b->n + 1, sizeof *b->cstart);
    b->child = malloc((b->n ? b->n : 1) * sizeof *b->child);
    uint32_t *order = malloc((b->n ? b->n : 1) * sizeof *order);
    if (!b->cstart || !b->child || !order) {
        free(order);
        return PB_ENOMEM;
    }
    for (size_t i = 0; i < b->n; i++)
        order[i] = (uint32_t)i;
    g_sp = b->sp;
    qsort(order, b->n, sizeof *order, cmp_bystart);
    for (size_t i = 0; i < b->n; i++)
        if (b->parent[i] != NONE)
            b->cstart[b->parent[i] + 1]++;
    for (size_t i = 0; i < b->n; i++)
        b->cstart[i + 1] += b->cstart[i];
    size_t *fill = malloc((b->n ? b->n : 1) * sizeof *fill);
    if (!fill) {
        free(order);
        return PB_ENOMEM;
    }
    memcpy(fill, b->cstart, b->n * sizeof *fill);
    for (size_t k = 0; k < b->n; k++) {
        uint32_t i = order[k];
        if (b->parent[i] != NONE)
            b->child[fill[b->parent[i]]++] = i;
    }
    free(fill);
    free(order);
    return PB_OK;
}

static rpc *new_rpc(builder *b)
{
    if (b->nrpc == b->caprpc) {
        size_t nc = b->caprpc ? b->caprpc * 2 : 1024;
        rpc *nr = realloc(b->rpcs, nc * sizeof *nr);
        if (!nr)
            return NULL;
        b->rpcs = nr;
        b->caprpc = nc;
    }
    rpc *r = &b->rpcs[b->nrpc++];
    memset(r, 0, sizeof *r);
    return r;
}

static int label_of(builder *b, uint32_t trace, uint32_t sid, uint64_t *out)
{
    imp_importer *im = b->im;
    pb_strbuf s = {0};
    int rc = pb_strbuf_puts(&s, pb_strtab_str(im->traceids, trace));
    if (rc == PB_OK && sid != NONE)
        rc = pb_strbuf_printf(&s, ":%s", pb_strtab_str(im->sids, sid));
    if (rc == PB_OK)
        rc = pb_label_parse(im->trace->names, pb_strbuf_str(&s), s.len, out);
    pb_strbuf_free(&s);
    return rc;
}

/* Walk every tree from its root in (trace, start) order: contexts, paths and
 * the RPCs of service-crossing edges.  Returns the pre-order in *pre. */
static int make_rpcs(builder *b, uint32_t *pre)
{
    imp_importer *im = b->im;
    span *sp = b->sp;
    uint32_t *roots = malloc((b->n ? b->n : 1) * sizeof *roots);
    uint32_t *stack = malloc((b->n ? b->n : 1) * sizeof *stack);
    uint8_t *trace_has_main = calloc(pb_strtab_count(im->traceids) + 1, 1);
    uint8_t *has_callee = calloc(b->n ? b->n : 1, 1);
    int rc = PB_OK;
    size_t nroots = 0, npre = 0;
    if (!roots || !stack || !trace_has_main || !has_callee) {
        rc = PB_ENOMEM;
        goto out;
    }
    for (size_t i = 0; i < b->n; i++)
        if (b->parent[i] == NONE)
            roots[nroots++] = (uint32_t)i;
    g_sp = sp;
    qsort(roots, nroots, sizeof *roots, cmp_bystart);
    for (size_t k = 0; k < nroots; k++) {
        uint32_t x = roots[k];
        /* the earliest root that named no parent carries the trace id */
        int main_root = !sp[x].has_ref && !trace_has_main[sp[x].trace];
        if (main_root)
            trace_has_main[sp[x].trace] = 1;
        else if (!sp[x].has_ref)
            count_span(im, IMP_C_EXTRA_ROOT, &sp[x]);
        if ((rc = label_of(b, sp[x].trace, main_root ? NONE : sp[x].sid,
                           &b->path[x])) != PB_OK)
            goto out;
        size_t top = 0;
        stack[top++] = x;
        while (top) {
            x = stack[--top];
            pre[npre++] = x;
            uint32_t p = b->parent[x];
            if (p != NONE)
                b->path[x] = b->path[p];
            if (p == NONE || sp[x].svc != sp[p].svc) {
                b->ctx[x] = x;
                rpc *r = new_rpc(b);
                if (!r) {
                    rc = PB_ENOMEM;
                    goto out;
                }
                b->in_rpc[x] = (uint32_t)(b->nrpc - 1);
                r->callee_ctx = x;
                r->label_span = x;
                r->dst = sp[x].svc;
                r->path = b->path[x];
                r->call_recv = sp[x].start;
                r->ret_ts = sp[x].end;
                if (p == NONE) {
                    im->st.count[IMP_C_REQUESTS]++;
                    r->caller_ctx = NONE;
                    r->src = im->node_client;
                    r->call_ts = sp[x].start;
                    r->ret_recv = sp[x].end;
                } else {
                    r->caller_ctx = b->ctx[p];
                    r->src = sp[p].svc;
                    if (sp[p].kind == K_CLIENT) {
                        r->call_ts = sp[p].start;
                        r->ret_recv = sp[p].end;
                        if (sp[x].kind != K_SERVER)
                            count_span(im, IMP_C_CALLEE_NOT_SERVER, &sp[x]);
                        if (has_callee[p])
                            count_span(im, IMP_C_MULTI_CALLEE, &sp[x]);
                        has_callee[p] = 1;
                        if (sp[x].start < sp[p].start)
                            count_span(im, IMP_C_CLOCK_CALL, &sp[x]);
                        if (sp[x].end > sp[p].end)
                            count_span(im, IMP_C_CLOCK_RETURN, &sp[x]);
                    } else {
                        count_span(im, IMP_C_SERVER_ONLY, &sp[x]);
                        r->call_ts = sp[x].start;
                        r->ret_recv = sp[x].end;
                    }
                }
            } else {
                b->ctx[x] = b->ctx[p];
                if (sp[x].kind == K_SERVER && sp[p].kind == K_CLIENT) {
                    count_span(im, IMP_C_INTRA_RPC, &sp[x]);
                    has_callee[p] = 1;
                } else if (sp[x].kind != K_CLIENT) {
                    count_span(im, IMP_C_INTERNAL_SPAN, &sp[x]);
                }
            }
            /* push children in reverse so they pop in start order */
            for (size_t c = b->cstart[x + 1]; c > b->cstart[x]; c--)
                stack[top++] = b->child[c - 1];
        }
    }
    /* A client span is answered when it has a callee, or a client span of
     * its own service below it (nested client instrumentation) answers
     * for it.  Children come after parents in pre-order, so walk it
     * backwards. */
    for (size_t k = npre; k-- > 0;) {
        uint32_t x = pre[k], p = b->parent[x];
        if (p != NONE && sp[p].svc == sp[x].svc &&
            (sp[x].kind == K_CLIENT || has_callee[x]))
            has_callee[p] = 1;
    }
    for (size_t k = 0; k < npre; k++) {
        uint32_t x = pre[k];
        if (sp[x].kind != K_CLIENT || has_callee[x])
            continue;
        count_span(im, IMP_C_CLIENT_ONLY, &sp[x]);
        if (sp[x].peer == NONE && im->node_unknown == NONE &&
            pb_strtab_intern(im->trace->names->nodes, "unknown", 7,
                             &im->node_unknown) != PB_OK) {
            rc = PB_ENOMEM;
            goto out;
        }
        rpc *r = new_rpc(b);
        if (!r) {
            rc = PB_ENOMEM;
            goto out;
        }
        r->caller_ctx = b->ctx[x];
        r->callee_ctx = NONE;
        r->label_span = x;
        r->src = sp[x].svc;
        r->dst = sp[x].peer != NONE ? sp[x].peer : im->node_unknown;
        r->path = b->path[x];
        r->call_ts = r->call_recv = sp[x].start;
        r->ret_ts = r->ret_recv = sp[x].end;
    }
out:
    free(roots);
    free(stack);
    free(trace_has_main);
    free(has_callee);
    return rc;
}

static const rpc *g_rpcs;

/* Children of one context in the order they were issued (caller's clock). */
static int cmp_issue(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    const rpc *r = &g_rpcs[x], *s = &g_rpcs[y];
    if (r->caller_ctx != s->caller_ctx)
        return r->caller_ctx < s->caller_ctx ? -1 : 1;
    if (r->call_ts != s->call_ts)
        return r->call_ts < s->call_ts ? -1 : 1;
    if (r->ret_recv != s->ret_recv)
        return r->ret_recv < s->ret_recv ? -1 : 1;
    return x < y ? -1 : x > y;
}

typedef struct msgkey {
    pb_ns ts;
    size_t idx;
} msgkey;

static int cmp_msgkey(const void *a, const void *b)
{
    const msgkey *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Causes, as message indices (2r = call of RPC r, 2r+1 = its return):
 * a child call is caused by the latest message its caller received before
 * issuing it (the call into the caller, or an earlier child's return);
 * a return by the latest message received before replying.  Ties go to the
 * later sibling.  Times compared are all on the caller's own clock. */
/* Outstanding children of one context: a min-heap of positions in the
 * issue order, keyed by (time the return came back, position), so that the
 * children that are back by a given time come off in O(log n) each. */
typedef struct outheap {
    size_t *pos;
    size_t n;
    const rpc *rpcs;
    const uint32_t *ord;
} outheap;

static int oh_less(const outheap *h, size_t a, size_t b)
{
    pb_ns x = h->rpcs[h->ord[a]].ret_recv, y = h->rpcs[h->ord[b]].ret_recv;
    return x < y || (x == y && a < b);
}

static void oh_push(outheap *h, size_t p)
{
    size_t i = h->n++;
    h->pos[i] = p;
    while (i > 0 && oh_less(h, h->pos[i], h->pos[(i - 1) / 2])) {
        size_t t = h->pos[i];
        h->pos[i] = h->pos[(i - 1) / 2];
        h->pos[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
}

static size_t oh_pop(outheap *h)
{
    size_t top = h->pos[0], i = 0;
    h->pos[0] = h->pos[--h->n];
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < h->n && oh_less(h, h->pos[l], h->pos[m]))
            m = l;
        if (l + 1 < h->n && oh_less(h, h->pos[l + 1], h->pos[m]))
            m = l + 1;
        if (m == i)
            break;
        size_t t = h->pos[i];
        h->pos[i] = h->pos[m];
        h->pos[m] = t;
        i = m;
    }
    return top;
}

static int make_causes(builder *b, size_t *cause)
{
    imp_importer *im = b->im;
    size_t nr = b->nrpc;
    uint32_t *ord = malloc((nr ? nr : 1) * sizeof *ord);
    outheap h = {malloc((nr ? nr : 1) * sizeof *h.pos), 0, b->rpcs, ord};
    if (!ord || !h.pos) {
        free(ord);
        free(h.pos);
        return PB_ENOMEM;
    }
    for (size_t r = 0; r < nr; r++) {
        ord[r] = (uint32_t)r;
        cause[2 * r] = SIZE_MAX;
        cause[2 * r + 1] = 2 * r; /* no children: the call itself */
    }
    g_rpcs = b->rpcs;
    qsort(ord, nr, sizeof *ord, cmp_issue);
    for (size_t g = 0; g < nr;) {
        uint32_t X = b->rpcs[ord[g]].caller_ctx;
        size_t e = g + 1;
        while (e < nr && b->rpcs[ord[e]].caller_ctx == X)
            e++;
        if (X == NONE) {
            g = e;
            continue;
        }
        size_t in = b->in_rpc[X];
        pb_ns xstart = b->sp[X].start, xend = b->sp[X].end;
        /* Children in issue order; a child is a candidate cause of a later
         * sibling's call once its return is back (ret_recv <= call_ts),
         * and stays one, since issue times only grow.  Best = latest back,
         * ties to the later position. */
        size_t best = 2 * in, best_pos = 0;
        pb_ns best_t = xstart;
        int have_pos = 0;
        h.n = 0;
        for (size_t k = g; k < e; k++) {
            const rpc *r = &b->rpcs[ord[k]];
            while (h.n && b->rpcs[ord[h.pos[0]]].ret_recv <= r->call_ts) {
                size_t j = oh_pop(&h);
                pb_ns t = b->rpcs[ord[j]].ret_recv;
                if (t > best_t || (t == best_t && (!have_pos || j > best_pos))) {
                    best = 2 * (size_t)ord[j] + 1;
                    best_t = t;
                    best_pos = j;
                    have_pos = 1;
                }
            }
            cause[2 * (size_t)ord[k]] = best;
            oh_push(&h, k);
            if (r->call_ts < xstart)
                count_span(im, IMP_C_EARLY_CHILD, &b->sp[r->label_span]);
        }
        /* the return from X */
        best = 2 * in;
        best_t = xstart;
        for (size_t j = g; j < e; j++) {
            const rpc *q = &b->rpcs[ord[j]];
            if (q->ret_recv > xend) {
                count_span(im, IMP_C_LATE_CHILD, &b->sp[q->label_span]);
            } else if (q->ret_recv >= best_t) {
                best = 2 * (size_t)ord[j] + 1;
                best_t = q->ret_recv;
            }
        }
        cause[2 * in + 1] = best;
        g = e;
    }
    free(ord);
    free(h.pos);
    return PB_OK;
}

static int write_trace(builder *b, const size_t *cause)
{
    imp_importer *im = b->im;
    size_t nm = 2 * b->nrpc;
    msgkey *key = malloc((nm ? nm : 1) * sizeof *key);
    uint64_t *id = malloc((nm ? nm : 1) * sizeof *id);
    int rc = PB_OK;
    if (!key || !id) {
        rc = PB_ENOMEM;
        goto out;
    }
    for (size_t m = 0; m < nm; m++) {
        const rpc *r = &b->rpcs[m / 2];
        key[m].ts = m % 2 ? r->ret_ts : r->call_ts;
        key[m].idx = m;
    }
    qsort(key, nm, sizeof *key, cmp_msgkey);
    for (size_t k = 0; k < nm; k++)
        id[key[k].idx] = k + 1;
    for (size_t k = 0; k < nm && rc == PB_OK; k++) {
        size_t m = key[k].idx;
        const rpc *r = &b->rpcs[m / 2];
        pb_msg msg;
        memset(&msg, 0, sizeof msg);
        msg.id = k + 1;
        msg.callid = PB_ID_NONE;
        if (im->opts.callid &&
            (rc = label_of(b, b->sp[r->label_span].trace,
                           b->sp[r->label_span].sid, &msg.callid)) != PB_OK)
            break;
        uint32_t th = m % 2 == 0 ? r->callee_ctx : r->caller_ctx;
        uint64_t tl;
        if (im->opts.thread && th != NONE) {
            if ((rc = label_of(b, b->sp[th].trace, b->sp[th].sid, &tl)) != PB_OK)
                break;
            msg.thread = (uint32_t)(tl & ~PB_LABEL_STRING) + 1;
        }
        if (m % 2 == 0) {
            msg.type = PB_TYPE_CALL;
            msg.src = r->src;
            msg.dst = r->dst;
            msg.ts = r->call_ts;
            msg.recv_ts = r->call_recv;
        } else {
            msg.type = PB_TYPE_RETURN;
            msg.src = r->dst;
            msg.dst = r->src;
            msg.ts = r->ret_ts;
            msg.recv_ts = r->ret_recv;
        }
        pb_truth tr = {r->path,
                       cause[m] == SIZE_MAX ? PB_ID_NONE : id[cause[m]]};
        rc = pb_trace_append(im->trace, &msg, &tr);
    }
    im->st.count[IMP_C_MESSAGES] = nm;
out:
    free(key);
    free(id);
    return rc;
}

static int write_meta(imp_importer *im)
{
    pb_strbuf s = {0};
    const char *fmt = im->formats_seen == 1   ? "jaeger"
                      : im->formats_seen == 2 ? "zipkin"
                                              : "jaeger+zipkin";
    int rc = pb_strbuf_printf(&s, "generator=importtrace format=%s callid=%d",
                              fmt, im->opts.callid ? 1 : 0);
    if (rc == PB_OK)
        rc = pb_trace_add_meta(im->trace, pb_strbuf_str(&s));
    pb_strbuf_reset(&s);
    if (rc == PB_OK)
        rc = pb_strbuf_puts(&s, "importtrace");
    for (int c = 0; c < IMP_NCOUNTERS && rc == PB_OK; c++)
        rc = pb_strbuf_printf(&s, " %s=%zu", counters[c].name,
                              im->st.count[c]);
    if (rc == PB_OK)
        rc = pb_trace_add_meta(im->trace, pb_strbuf_str(&s));
    pb_strbuf_free(&s);
    return rc;
}

int imp_finish(imp_importer *im, pb_trace **out, pb_error *err)
{
    *out = NULL;
    if (im->failed || im->finished)
        return pb_error_set(err, PB_ESTATE, NULL, 0, 0,
                            "importer already failed or finished");
    im->finished = 1;
    if (!im->nspans)
        return pb_error_set(err, PB_EPARSE, im->nfiles ? im->files[0] : NULL,
                            0, 0,
                            "the input holds no spans; expected at least one "
                            "Jaeger or Zipkin span");
    builder b;
    memset(&b, 0, sizeof b);
    b.im = im;
    b.sp = im->spans;
    b.n = im->nspans;
    size_t n = b.n;
    int rc = PB_ENOMEM;
    uint32_t *pre = malloc(n * sizeof *pre);
    size_t *cause = NULL;
    b.parent = malloc(n * sizeof *b.parent);
    b.byid = malloc(n * sizeof *b.byid);
    b.ctx = malloc(n * sizeof *b.ctx);
    b.in_rpc = malloc(n * sizeof *b.in_rpc);
    b.path = malloc(n * sizeof *b.path);
    if (!pre || !b.parent || !b.byid || !b.ctx || !b.in_rpc || !b.path)
        goto out;
    for (size_t i = 0; i < n; i++) {
        b.byid[i] = (uint32_t)i;
        b.in_rpc[i] = NONE;
    }
    g_sp = b.sp;
    qsort(b.byid, n, sizeof *b.byid, cmp_byid);
    im->st.count[IMP_C_TRACES] = pb_strtab_count(im->traceids);
    resolve_parents(&b);
    if ((rc = break_cycles(&b)) != PB_OK || (rc = build_children(&b)) != PB_OK ||
        (rc = make_rpcs(&b, pre)) != PB_OK)
        goto out;
    im->st.count[IMP_C_RPCS] = b.nrpc;
    rc = PB_ENOMEM;
    if (!(cause = malloc((2 * b.nrpc + 1) * sizeof *cause)))
        goto out;
    if ((rc = make_causes(&b, cause)) != PB_OK ||
        (rc = write_trace(&b, cause)) != PB_OK || (rc = write_meta(im)) != PB_OK)
        goto out;
    im->trace->columns = PB_COL_ID | PB_COL_TS | PB_COL_RECV_TS | PB_COL_SRC |
                         PB_COL_DST | PB_COL_TYPE | PB_COL_PATH | PB_COL_CAUSE |
                         (im->opts.callid ? PB_COL_CALLID : 0) |
                         (im->opts.thread ? PB_COL_THREAD : 0);
    *out = im->trace;
    im->trace = NULL;
out:
    free(pre);
    free(cause);
    free(b.parent);
    free(b.byid);
    free(b.child);
    free(b.cstart);
    free(b.ctx);
    free(b.in_rpc);
    free(b.path);
    free(b.rpcs);
    if (rc != PB_OK)
        return pb_error_set(err, rc, NULL, 0, 0, "%s", pb_strerror(rc));
    return PB_OK;
}

int imp_stats_summary(const imp_stats *st, pb_strbuf *out)
{
    int rc = pb_strbuf_printf(
        out, "%zu files, %zu traces, %zu spans -> %zu requests, %zu RPCs, "
             "%zu messages\n",
        st->count[IMP_C_FILES], st->count[IMP_C_TRACES],
        st->count[IMP_C_SPANS], st->count[IMP_C_REQUESTS],
        st->count[IMP_C_RPCS], st->count[IMP_C_MESSAGES]);
    for (int c = IMP_C_SERVER_ONLY; c < IMP_NCOUNTERS && rc == PB_OK; c++) {
        if (!st->count[c])
            continue;
        rc = pb_strbuf_printf(out, "%zu %s: %s", st->count[c],
                              counters[c].name, counters[c].help);
        if (rc == PB_OK && st->first[c])
            rc = pb_strbuf_printf(out, " (first: %s)", st->first[c]);
        if (rc == PB_OK)
            rc = pb_strbuf_putc(out, '\n');
    }
    return rc;
}
