/*
 * imp.c - the importer object: options, counters, errors, and storing one
 * span once a format reader has taken it apart (imp_jaeger.c, imp_zipkin.c,
 * imp_otlp.c).  Spans go into a flat array; imp_finish (imp_build.c) turns
 * them into the trace.  The rules for irregular data are in
 * docs/importer.md; each rule that fires bumps a counter so nothing is
 * changed or dropped silently.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "imp_int.h"
#include "pb_mem.h"

/* The time-unit check (docs/importer.md, "Time units").  A plausible wall
 * clock for a trace: 1.2e18 ns (2008-01-10) up to 2e18 ns (2033-05-18).
 * Narrower than all of int64 on purpose: the round stamps of synthetic
 * inputs (1e9, 2e9, 3e9, 4e9 ns = 1-4 s) fall outside every band. */
#define IMP_EPOCH_LO 1200000000000000000LL
#define IMP_EPOCH_HI 2000000000000000000LL

static const struct {
    const char *name, *help;
} counters[IMP_NCOUNTERS] = {
    {"files", "JSON documents read"},
    {"traces", "distinct trace ids"},
    {"spans", "spans read"},
    {"rpcs", "RPCs made into a call and a return"},
    {"messages", "messages written"},
    {"requests", "path instances: one per root span (see client_root)"},
    {"server_only", "server spans under a non-client span of another "
                    "service (no client span recorded): call and return "
                    "derived from the server span alone (both timestamps on "
                    "the server's clock)"},
    {"client_only", "client spans whose callee left no span: callee named by "
                    "peer.service / remoteEndpoint's serviceName, else by "
                    "server.address, net.peer.name, peer.hostname or an "
                    "address (remoteEndpoint's, network.peer.address, "
                    "net.peer.ip, peer.ipv4/6), else node unknown; both "
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
    {"client_root", "client-kind root spans: their service is the "
                    "spontaneous sender of the request (no node client)"},
    {"root_fanout", "calls a spontaneous sender issued before any of its "
                    "calls came back, beyond the first: caused by its first "
                    "call (a path has one first message)"},
    {"no_kind_rpc", "spans with neither client nor server kind (no "
                    "span.kind tag, Zipkin kind or OTLP kind) under a span of "
                    "another service: an RPC from the "
                    "parent's service, call and return derived from the "
                    "child span alone (both timestamps on its clock)"},
    {"skipped_files", "folder and archive entries that are not JSON or CSV "
                      "files (plain or compressed), archives or folders: not "
                      "read"},
    {"kind_client", "span CSV without kind: spans in their parent's service "
                    "whose only child runs in another service, taken as the "
                    "client side of an RPC (that child its server side)"},
    {"kind_two_services", "span CSV without kind: spans with children in two "
                          "or more services (the kind rule does not apply): "
                          "each child in another service is an RPC derived "
                          "from the child span alone (no_kind_rpc)"},
    {"kind_other", "span CSV without kind: other spans with a child in "
                   "another service that the kind rule does not cover (several "
                   "children all in one other service, or the span is a root "
                   "or itself entered from another service): each such child "
                   "is an RPC derived from the child span alone (no_kind_rpc)"},
    {"repeated_span", "spans read twice (the same trace, span id, parent, "
                      "service, kind, operation and times as one read "
                      "before: one trace in two files or overlapping "
                      "exports): the copy dropped"},
    {"no_timestamp", "spans without a start time (Zipkin \"timestamp\" "
                     "absent or 0: incomplete spans, which Zipkin allows; OTLP "
                     "\"startTimeUnixNano\" absent or 0, proto3's unset) and "
                     "no fragment of the same id, service and kind that has "
                     "one: not read, so their children count as "
                     "missing_parent; said even with -q"},
    {"zipkin_fragment", "Zipkin span fragments without \"timestamp\" merged "
                        "into the span of the same trace, id, service and "
                        "kind that has one (as Zipkin's UI merges them): "
                        "their duration fills a missing one"},
    {"cross_trace_ref", "Jaeger references naming another trace (\"traceID\" "
                        "not the span's): not taken as a parent, as Jaeger's "
                        "model skips them (the span's parent is its next "
                        "reference to its own trace, else it is a root); said "
                        "even with -q"},
    {"replaced_member", "archive members named as an earlier member (an "
                        "archive appended to with tar -r or -u; a zip listing "
                        "a name twice; \"./a.json\" after \"a.json\"): each "
                        "replaces the earlier one, as unpacking it does (the "
                        "earlier copy not read); said even with -q"},
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
    if (im->opts.csv_map) {
        int rc = imp_csv_map_parse(im->opts.csv_map, &im->csv, err);
        if (rc != PB_OK) {
            free(im);
            return rc;
        }
    }
    if (pb_trace_new(&im->trace) != PB_OK || pb_strtab_init(&im->sids) != PB_OK ||
        pb_strtab_init(&im->rawids) != PB_OK ||
        pb_strtab_init(&im->traceids) != PB_OK ||
        pb_strtab_intern(im->trace->names->nodes, "client", 6, &im->node_client) !=
            PB_OK) {
        imp_csv_map_free(im->csv);
        im->csv = NULL;
        imp_close(im);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    im->node_unknown = IMP_NONE;
    *out = im;
    return PB_OK;
}

void imp_close(imp_importer *im)
{
    if (!im)
        return;
    pb_trace_close(im->trace);
    pb_strtab_close(im->sids);
    pb_strtab_close(im->rawids);
    free(im->tshow);
    free(im->sshow);
    pb_strtab_close(im->traceids);
    for (size_t i = 0; i < im->nfiles; i++)
        free(im->files[i]);
    free(im->files);
    free(im->spans);
    imp_events_free(im);
    for (int c = 0; c < IMP_EVN; c++)
        free(im->ev_first[c]);
    pb_strbuf_free(&im->ev_summary);
    for (int c = 0; c < IMP_NCOUNTERS; c++)
        free(im->st.first[c]);
    pb_strbuf_free(&im->sources);
    imp_csv_map_free(im->csv);
    pb_strtab_close(im->pods);
    pb_strtab_close(im->podsvcs);
    free(im->pod_svc);
    pb_strbuf_free(&im->podtext);
    pb_strbuf_free(&im->unit_warn);
    pb_strbuf_free(&im->client_warn);
    pb_strbuf_free(&im->unit_meta);
    pb_strbuf_free(&im->answer_warn);
    free(im);
}

const imp_stats *imp_get_stats(const imp_importer *im)
{
    /* the sources text may have moved since the last call */
    imp_importer *w = (imp_importer *)im;
    w->st.sources = im->sources.len ? pb_strbuf_str(&im->sources) : NULL;
    w->st.answer_warning =
        im->answer_warn.len ? pb_strbuf_str(&im->answer_warn) : NULL;
    /* pod names -> services, one line per service, services in order of
     * their node index, pods in order first seen */
    pb_strbuf_reset(&w->podtext);
    size_t np = im->pods ? pb_strtab_count(im->pods) : 0;
    const pb_strtab *nodes = im->podsvcs;
    size_t nn = nodes ? pb_strtab_count(nodes) : 0;
    int ok = 1;
    for (size_t v = 0; v < nn && np && ok; v++) {
        int first = 1;
        for (size_t k = 0; k < np && ok; k++) {
            if (im->pod_svc[k] != v)
                continue;
            ok = (first ? pb_strbuf_printf(&w->podtext, "%s <-",
                                           pb_strtab_str(nodes, (uint32_t)v))
                        : PB_OK) == PB_OK &&
                 pb_strbuf_printf(&w->podtext, " %s",
                                  pb_strtab_str(im->pods, (uint32_t)k)) == PB_OK;
            first = 0;
        }
        if (!first && ok)
            ok = pb_strbuf_putc(&w->podtext, '\n') == PB_OK;
    }
    w->st.pods = ok && w->podtext.len ? pb_strbuf_str(&w->podtext) : NULL;
    return &im->st;
}

/* ------------------------------------------------------------------ */
/* errors and counters */


int imp_fail(imp_importer *im, pb_error *err, int code, const char *file,
             long line, long col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    /* pb_error_vset quotes long fields short (issue 16.14) */
    int rc = pb_error_vset(err, code, file, line, col, fmt, ap);
    va_end(ap);
    im->failed = 1;
    return rc;
}

/* Where a span sits in its document, for messages: "data[0].spans[3]". */
void imp_span_where(const imp_span *s, char *buf, size_t n)
{
    if (s->src == IMP_SRC_CSV) {
        snprintf(buf, n, "line %u", s->pos_a);
    } else if (s->src == IMP_SRC_OTLP) {
        snprintf(buf, n, "resourceSpans[%u].scopeSpans[%u].spans[%u]",
                 s->pos_a, s->pos_b, s->pos_c);
    } else if (s->src == IMP_SRC_ZIPKIN) {
        if (s->pos_a == IMP_NONE)
            snprintf(buf, n, "[%u]", s->pos_b);
        else
            snprintf(buf, n, "[%u][%u]", s->pos_a, s->pos_b);
    } else if (s->pos_a == IMP_NONE) {
        snprintf(buf, n, "spans[%u]", s->pos_b);
    } else {
        snprintf(buf, n, "data[%u].spans[%u]", s->pos_a, s->pos_b);
    }
}

/* Count one occurrence; the first one's place is kept for the summary.
 * Out of memory for the place only loses the place. */
void imp_count_at(imp_importer *im, int c, const char *file,
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

void imp_count_span(imp_importer *im, int c, const imp_span *s)
{
    char where[96];
    imp_span_where(s, where, sizeof where);
    imp_count_at(im, c, im->files[s->file], where);
}

/* ------------------------------------------------------------------ */
/* reading */

int imp_add_file_name(imp_importer *im, const char *name, uint32_t *idx)
{
    if (pb_grow(&im->files, sizeof *im->files, &im->capfiles, im->nfiles + 1, 16) != PB_OK)
        return PB_ENOMEM;
    if (im->nfiles >= IMP_NONE)
        return PB_ERANGE;
    char *copy = strdup(name);
    if (!copy)
        return PB_ENOMEM;
    *idx = (uint32_t)im->nfiles;
    im->files[im->nfiles++] = copy;
    return PB_OK;
}

imp_span *imp_new_span(imp_importer *im)
{
    if (pb_grow(&im->spans, sizeof *im->spans, &im->capspans, im->nspans + 1, 1024) != PB_OK)
        return NULL;
    if (im->nspans >= IMP_NONE - 1)
        return NULL;
    imp_span *s = &im->spans[im->nspans];
    memset(s, 0, sizeof *s);
    s->psid = s->peer = s->pos_a = s->pos_c = s->rawsid = IMP_NONE;
    return s;
}

/* The spelling a label shows of a hex id (as OTLP ids always were): lower
 * case, a 32-digit trace id with a zero high half cut to its last 16
 * digits, leading zeros otherwise as written.  Not hex: id itself. */
static const char *hex_show(const char *id, char *buf, size_t n, int trace)
{
    size_t l = id ? strlen(id) : 0;
    if (!l || l > 32 || n < 33)
        return id;
    for (size_t i = 0; i < l; i++) {
        if (!isxdigit((unsigned char)id[i]))
            return id;
        buf[i] = (char)tolower((unsigned char)id[i]);
    }
    buf[l] = 0;
    if (trace && l == 32 && !strncmp(buf, "0000000000000000", 16))
        memmove(buf, buf + 16, 17);
    return buf;
}

const char *imp_hex_id(const char *id, char *buf, size_t n, int trace)
{
    if (!id || n < 33)
        return id;
    size_t l = strlen(id);
    if (!l || l > 32)
        return id;
    for (size_t i = 0; i < l; i++)
        if (!isxdigit((unsigned char)id[i]))
            return id;
    size_t w = l <= 16 ? 16 : trace ? 32 : l; /* a long span id: not padded */
    size_t pad = w - l;
    memset(buf, '0', pad);
    for (size_t i = 0; i < l; i++)
        buf[pad + i] = (char)tolower((unsigned char)id[i]);
    buf[w] = 0;
    if (trace && w == 32 && !strncmp(buf, "0000000000000000", 16))
        memmove(buf, buf + 16, 17);
    return buf;
}

int imp_json_whole(const json_t *v, int reals, int64_t lo, int64_t hi, int64_t *out)
{
    int64_t x;
    if (json_is_integer(v)) {
        x = (int64_t)json_integer_value(v);
    } else if (json_is_real(v)) {
        double d = json_real_value(v);
        if (!reals || !isfinite(d) || d != floor(d) || d > 9.0e18 || d < -9.0e18)
            return 0;
        x = (int64_t)d;
    } else {
        /* protobuf's JSON mapping writes a 64-bit integer as a string of
         * decimal digits ("timestamp": "1000"): read alike, digits and an
         * optional '-' only (no blanks, '+', exponent or hex) */
        const char *p = json_string_value(v);
        if (!p)
            return 0;
        int neg = *p == '-';
        p += neg;
        if (!*p)
            return 0;
        uint64_t u = 0, top = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
        for (; *p; p++) {
            if (*p < '0' || *p > '9')
                return 0;
            unsigned d = (unsigned)(*p - '0');
            if (u > (top - d) / 10)
                return 0;
            u = u * 10 + d;
        }
        x = neg ? (u == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)u) : (int64_t)u;
    }
    if (x < lo || x > hi)
        return 0;
    *out = x;
    return 1;
}

int imp_json_us(const json_t *v, int64_t *out)
{
    return imp_json_whole(v, 1, INT64_MIN, INT64_MAX, out);
}

/* A client span whose callee left no span (a database, a cache, a service
 * outside the tracing) names it by peer.service, which instrumentation
 * sets only when configured to.  Without it every such callee was one
 * node, "unknown" (a redis and a mongodb one service); OpenTelemetry's
 * own attributes name the host (server.address, and net.peer.name before
 * semantic conventions 1.21), OpenTracing's peer.hostname, then the
 * address (network.peer.address, net.peer.ip, peer.ipv4, peer.ipv6). */
const char *const imp_peer_keys[] = {
    "server.address", "net.peer.name", "peer.hostname", "network.peer.address",
    "net.peer.ip", "peer.ipv4", "peer.ipv6", NULL};

const char *imp_json_str(const json_t *obj, const char *key)
{
    return json_string_value(json_object_get(obj, key));
}

/* A span kind a format may write: OpenTelemetry's and Zipkin's names
 * (any case, with or without SPAN_KIND_), or none.  Anything else -- a
 * typo ("SERVR"), another vocabulary -- was taken as a local span without
 * a word, and its RPC lost or mis-sided. */
int imp_kind_known(const char *k)
{
    static const char *const names[] = {"client", "server", "producer",
                                        "consumer", "internal", "unspecified"};
    if (!k)
        return 1;
    if (!strncasecmp(k, "SPAN_KIND_", 10))
        k += 10;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcasecmp(k, names[i]))
            return 1;
    return 0;
}

int imp_kind_of(const char *k)
{
    if (!k)
        return IMP_K_INTERNAL;
    if (!strcasecmp(k, "client") || !strcasecmp(k, "producer"))
        return IMP_K_CLIENT;
    if (!strcasecmp(k, "server") || !strcasecmp(k, "consumer"))
        return IMP_K_SERVER;
    return IMP_K_INTERNAL;
}

/* Key names per format, for messages. */
static const struct {
    const char *trace, *span, *service, *start;
} keys[4] = {
    {"traceID", "spanID", "processes[processID].serviceName", "startTime"},
    {"traceId", "id", "localEndpoint.serviceName", "timestamp"},
    {"traceId", "spanId", "resource attribute service.name",
     "startTimeUnixNano"},
    {"trace id column", "span id column", "service column", "start column"},
};

const char *imp_id_show(const imp_importer *im, int trace, uint32_t i)
{
    const pb_strtab *t = trace ? im->traceids : im->sids;
    const uint32_t *show = trace ? im->tshow : im->sshow;
    return show && show[i] != IMP_NONE ? pb_strtab_str(im->rawids, show[i])
                                       : pb_strtab_str(t, i);
}

/* Intern the canonical id canon in t (*idx); a new id remembers raw, its
 * spelling as first read, in *show (imp_id_show). */
static int intern_id(imp_importer *im, pb_strtab *t, uint32_t **show, size_t *cap,
                     const char *canon, const char *raw, uint32_t *idx)
{
    uint32_t before = pb_strtab_count(t);
    if (pb_strtab_intern(t, canon, strlen(canon), idx) != PB_OK)
        return PB_ENOMEM;
    if (*idx != before)
        return PB_OK;
    if (pb_grow(show, sizeof **show, cap, (size_t)*idx + 1, 1024) != PB_OK)
        return PB_ENOMEM;
    (*show)[*idx] = IMP_NONE;
    if (strcmp(canon, raw) &&
        pb_strtab_intern(im->rawids, raw, strlen(raw), &(*show)[*idx]) != PB_OK)
        return PB_ENOMEM;
    return PB_OK;
}

/* Check and store one span.  s is the slot from imp_new_span with its
 * place already set (used in messages). */
int imp_store_span(imp_importer *im, imp_span *s, const imp_raw_span *r,
                   pb_error *err)
{
    char where[96];
    imp_span_where(s, where, sizeof where);
    const char *fname = im->files[s->file];
    int f = s->src < 4 ? s->src : 0;
    if (!r->trace_id || !*r->trace_id)
        return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                        "%s: expected a non-empty string \"%s\"", where,
                        keys[f].trace);
    if (!r->span_id || !*r->span_id)
        return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                        "%s: expected a non-empty string \"%s\"", where,
                        keys[f].span);
    if (!r->service || !*r->service)
        return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                        "%s: expected a non-empty service name (%s)", where,
                        keys[f].service);
    pb_ns start_ns, end_ns;
    if (r->ns) {
        /* OTLP: nanoseconds, checked by the caller */
        start_ns = r->start_ns;
        end_ns = r->end_ns;
        if (!r->has_end) {
            imp_count_at(im, IMP_C_MISSING_DURATION, fname, where);
            s->no_dur = 1;
            end_ns = start_ns;
        } else if (end_ns < start_ns) {
            imp_count_at(im, IMP_C_NEGATIVE_DURATION, fname, where);
            end_ns = start_ns;
        }
    } else {
        int64_t start, dur = 0;
        const char *tskey = keys[f].start;
        if (!r->start || !imp_json_us(r->start, &start))
            return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                            "%s: expected \"%s\" as a whole number of "
                            "microseconds",
                            where, tskey);
        if (start < 0 || start > IMP_US_MAX)
            return imp_fail(im, err, PB_ERANGE, fname, 0, 0,
                            "%s: \"%s\" %lld is out of range; expected "
                            "microseconds since the epoch, 0 to %lld%s",
                            where, tskey, (long long)start,
                            (long long)IMP_US_MAX,
                            start / 1000 >= IMP_EPOCH_LO / 1000 &&
                                    start / 1000 < IMP_EPOCH_HI
                                ? " (it looks like nanoseconds since the "
                                  "epoch: convert the file's times to "
                                  "microseconds)"
                                : "");
        if (!r->duration || json_is_null(r->duration)) {
            imp_count_at(im, IMP_C_MISSING_DURATION, fname, where);
            s->no_dur = 1;
        } else if (!imp_json_us(r->duration, &dur)) {
            return imp_fail(im, err, PB_EPARSE, fname, 0, 0,
                            "%s: expected \"duration\" as a whole number of "
                            "microseconds",
                            where);
        } else if (dur < 0) {
            imp_count_at(im, IMP_C_NEGATIVE_DURATION, fname, where);
            dur = 0;
        }
        if (dur > IMP_US_MAX - start)
            return imp_fail(im, err, PB_ERANGE, fname, 0, 0,
                            "%s: start + duration (%lld + %lld us) is past "
                            "the largest timestamp a trace holds "
                            "(9223372035.999999 s)",
                            where, (long long)start, (long long)dur);
        start_ns = start * 1000;
        end_ns = (start + dur) * 1000;
    }
    pb_names *names = im->trace->names;
    /* hex ids in one spelling (imp_hex_id); the span id as written is
     * kept when it differs, so that two spans whose different ids become
     * one are refused at imp_finish, not merged (imp_build.c) */
    char tb[40], sb[40], pb[40], tw[40], sw[40], pw[40];
    const char *raw_sid = r->span_id, *raw_tid = r->trace_id, *raw_pid = r->parent_id;
    imp_raw_span nr = *r;
    if (s->src != IMP_SRC_CSV) {
        raw_tid = hex_show(r->trace_id, tw, sizeof tw, 1);
        raw_pid = hex_show(r->parent_id, pw, sizeof pw, 0);
        nr.trace_id = imp_hex_id(r->trace_id, tb, sizeof tb, 1);
        nr.span_id = imp_hex_id(r->span_id, sb, sizeof sb, 0);
        if (r->parent_id && *r->parent_id)
            nr.parent_id = imp_hex_id(r->parent_id, pb, sizeof pb, 0);
        r = &nr;
        if (strcmp(raw_sid, r->span_id) &&
            pb_strtab_intern(im->rawids, raw_sid, strlen(raw_sid), &s->rawsid) != PB_OK)
            return imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
        raw_sid = hex_show(raw_sid, sw, sizeof sw, 0);
    }
    if (intern_id(im, im->traceids, &im->tshow, &im->captshow, r->trace_id, raw_tid,
                  &s->trace) != PB_OK ||
        intern_id(im, im->sids, &im->sshow, &im->capsshow, r->span_id, raw_sid,
                  &s->sid) != PB_OK ||
        (r->parent_id && *r->parent_id &&
         intern_id(im, im->sids, &im->sshow, &im->capsshow, r->parent_id, raw_pid,
                   &s->psid) != PB_OK) ||
        pb_strtab_intern(names->nodes, r->service, strlen(r->service),
                         &s->svc) != PB_OK ||
        (r->peer && *r->peer &&
         pb_strtab_intern(names->nodes, r->peer, strlen(r->peer), &s->peer) !=
             PB_OK))
        return imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    if (r->operation && *r->operation &&
        pb_obs_label(names, r->operation, strlen(r->operation), &s->op) !=
            PB_OK)
        return imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    s->has_ref = r->parent_id && *r->parent_id;
    s->kind = (uint8_t)r->kind;
    s->untagged = r->untagged != 0;
    s->start = start_ns;
    s->end = end_ns;
    im->nspans++;
    im->st.count[IMP_C_SPANS]++;
    return PB_OK;
}

int imp_add_buffer(imp_importer *im, const char *data, size_t len,
                   const char *name, pb_error *err)
{
    if (im->failed || im->finished)
        return pb_error_set(err, PB_ESTATE, name, 0, 0,
                            "importer already failed or finished");
    uint32_t file;
    int rc = imp_add_file_name(im, name ? name : "(buffer)", &file);
    if (rc != PB_OK)
        return imp_fail(im, err, rc, NULL, 0, 0, "out of memory");
    return imp_parse_buffer(im, data, len, file, err);
}

int imp_stats_summary(const imp_stats *st, pb_strbuf *out)
{
    int rc = pb_strbuf_printf(
        out, "%zu files, %zu traces, %zu spans -> %zu requests, %zu RPCs, "
             "%zu messages\n",
        st->count[IMP_C_FILES], st->count[IMP_C_TRACES],
        st->count[IMP_C_SPANS], st->count[IMP_C_REQUESTS],
        st->count[IMP_C_RPCS], st->count[IMP_C_MESSAGES]);
    if (rc == PB_OK && st->sources)
        rc = pb_strbuf_puts(out, st->sources);
    if (rc == PB_OK && st->pods) {
        rc = pb_strbuf_puts(out, "pod names -> services (ReplicaSet and pod "
                                 "hash suffixes removed):\n");
        const char *p = st->pods;
        while (rc == PB_OK && *p) {
            size_t l = strcspn(p, "\n");
            rc = pb_strbuf_printf(out, "  %.*s\n", (int)l, p);
            p += l + (p[l] == '\n');
        }
    }
    const size_t *n = st->count;
    if (rc == PB_OK && n[IMP_C_KIND_CLIENT] + n[IMP_C_KIND_TWO_SERVICES] +
                               n[IMP_C_KIND_OTHER] > 0)
        rc = pb_strbuf_printf(
            out,
            "kind rule (spans without kind): %zu spans taken as the client "
            "side of an RPC; not covered: %zu internal spans (internal_span), "
            "%zu with children in two services (kind_two_services), %zu "
            "other (kind_other), %zu missing parents (missing_parent), %zu "
            "clock violations (server span outside its client span: "
            "clock_call %zu, clock_return %zu)\n",
            n[IMP_C_KIND_CLIENT], n[IMP_C_INTERNAL_SPAN],
            n[IMP_C_KIND_TWO_SERVICES], n[IMP_C_KIND_OTHER],
            n[IMP_C_MISSING_PARENT], n[IMP_C_CLOCK_CALL] + n[IMP_C_CLOCK_RETURN],
            n[IMP_C_CLOCK_CALL], n[IMP_C_CLOCK_RETURN]);
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



static const char *unit_name(int64_t ns_per_unit, int longname)
{
    switch (ns_per_unit) {
    case 1: return longname ? "nanoseconds" : "ns";
    case 1000: return longname ? "microseconds" : "us";
    case 1000000: return longname ? "milliseconds" : "ms";
    default: return longname ? "seconds" : "s";
    }
}

/* the calendar year of ns after the epoch (to a day or so) */
static int year_of(double ns)
{
    return (int)(1970.0 + ns / (365.2425 * 86400e9));
}

/* The verdict on one file (or one capture): start times lo..hi (ns, as
 * read, cnt of them) of field fld, which format fmt gives in units of u
 * ns.  Appends the warning (first suspect only) and the metadata. */
static int check_one(imp_importer *im, const char *fname, const char *fld,
                     const char *fmt, int64_t u, int64_t lo, int64_t hi,
                     size_t cnt, int csv, size_t *suspects)
{
    if (!cnt || lo <= 0)
        return PB_OK;
    int64_t k = 0;
    for (int64_t F = 1000; u * F <= 1000000000; F *= 1000)
        if (lo >= IMP_EPOCH_LO / F && hi < IMP_EPOCH_HI / F) {
            k = F;
            break;
        }
    if (!k || (*suspects)++)
        return PB_OK; /* one warning: the first file; the rest counted */
    const char *exp = unit_name(u, 0), *looks = unit_name(u * k, 0);
    int rc = pb_strbuf_printf(
        &im->unit_warn,
        "%s: the start times (\"%s\", %zu %s, %lld to %lld) read as "
        "%s, the unit %s names, fall in the years %d-%d; read as "
        "%s they would be the years %d-%d: the file's times look "
        "like %s since the epoch, %lldx coarser than %s, so every time "
        "and duration is %lldx too small.  Nothing was rescaled (the "
        "times were read as %s); ",
        fname, fld, cnt, csv >= 0 ? "spans" : "events", (long long)(lo / u),
        (long long)(hi / u), unit_name(u, 1), fmt, year_of((double)lo),
        year_of((double)hi), unit_name(u * k, 1), year_of((double)lo * (double)k),
        year_of((double)hi * (double)k), unit_name(u * k, 1), (long long)k,
        unit_name(u, 1), (long long)k, unit_name(u, 1));
    if (rc == PB_OK && csv > 0) {
        rc = pb_strbuf_printf(&im->unit_warn, "to read them as %s say ",
                              unit_name(u * k, 1));
        if (rc == PB_OK)
            rc = imp_csv_suggest_map(im, looks, &im->unit_warn);
    } else if (rc == PB_OK) {
        rc = pb_strbuf_printf(&im->unit_warn,
                              "%s has no unit option: convert the file's "
                              "times to %s",
                              fmt, unit_name(u, 1));
    }
    if (rc == PB_OK)
        rc = pb_strbuf_puts(&im->unit_meta, " time_unit_suspect=");
    for (const char *p = fld; *p && rc == PB_OK; p++)
        rc = pb_strbuf_printf(&im->unit_meta, "%c",
                              *p == ' ' || *p == '=' ? '_' : *p);
    if (rc == PB_OK)
        rc = pb_strbuf_printf(&im->unit_meta, ":%s->%s", exp, looks);
    return rc;
}

int imp_check_units(imp_importer *im)
{
    static const char *const fmtname[4] = {"Jaeger", "Zipkin", "OTLP",
                                           "the span CSV"};
    static const char *const field[3] = {"startTime", "timestamp",
                                         "startTimeUnixNano"};
    static const int64_t fmtunit[3] = {1000, 1000, 1};
    size_t nf = im->nfiles, suspects = 0;
    if (!nf || !im->nspans)
        return PB_OK;
    int64_t *lo = malloc(nf * sizeof *lo), *hi = malloc(nf * sizeof *hi);
    size_t *cnt = calloc(nf, sizeof *cnt);
    uint8_t *src = calloc(nf, 1);
    int rc = PB_OK;
    if (!lo || !hi || !cnt || !src) {
        rc = PB_ENOMEM;
        goto out;
    }
    for (size_t i = 0; i < im->nspans; i++) {
        const imp_span *s = &im->spans[i];
        if (s->file >= nf)
            continue;
        if (!cnt[s->file] || s->start < lo[s->file])
            lo[s->file] = s->start;
        if (!cnt[s->file] || s->start > hi[s->file])
            hi[s->file] = s->start;
        cnt[s->file]++;
        src[s->file] = s->src;
    }
    for (size_t f = 0; f < nf && rc == PB_OK; f++) {
        int sc = src[f];
        if (!cnt[f] || (sc == IMP_SRC_CSV && im->csv_unit_given))
            continue; /* a unit the user said is never second-guessed */
        int64_t u = sc == IMP_SRC_CSV ? im->csv_unit : fmtunit[sc];
        const char *fld = sc == IMP_SRC_CSV ? im->csv_start_col : field[sc];
        rc = check_one(im, im->files[f], fld ? fld : "start", fmtname[sc], u,
                       lo[f], hi[f], cnt[f], sc == IMP_SRC_CSV, &suspects);
    }
    /* a syscall capture (timestamp_ns) is not checked: eBPF stamps come
     * from the kernel's boot-time clock (bpf_ktime_get_ns), so any value
     * is an honest nanosecond count (DeepTrace's: 2.4e15 ns = 28 days up) */
    if (rc == PB_OK && suspects) {
        if (suspects > 1)
            rc = pb_strbuf_printf(&im->unit_warn,
                                  " (and %zu more files alike)", suspects - 1);
        if (rc == PB_OK)
            rc = pb_strbuf_printf(&im->unit_meta, " time_unit_suspect_files=%zu",
                                  suspects);
        if (rc == PB_OK)
            im->st.time_unit_warning = pb_strbuf_str(&im->unit_warn);
    }
out:
    free(lo);
    free(hi);
    free(cnt);
    free(src);
    return rc;
}
