/*
 * test_importtrace - the importer library on documents in memory: RPC
 * timestamps, causes across siblings, error codes and places, counters,
 * and the state after an error.
 */
#include <stdlib.h>
#include <string.h>

#include "imp.h"
#include "imp_export.h"
#include "pb_pattab.h"
#include "pbtest.h"

/* Import one document; returns the status of add (or finish). */
static int import(const char *json, const imp_opts *opts, pb_trace **out,
                  imp_stats *st, pb_error *err)
{
    imp_importer *im = NULL;
    *out = NULL;
    int rc = imp_init(&im, opts, err);
    if (rc == PB_OK)
        rc = imp_add_buffer(im, json, strlen(json), "doc.json", err);
    if (rc == PB_OK)
        rc = imp_finish(im, out, err);
    if (st && im)
        *st = *imp_get_stats(im);
    if (st) {
        memset(st->first, 0, sizeof st->first); /* freed with im */
        st->sources = NULL;
    }
    imp_close(im);
    return rc;
}

static const pb_msg *find(const pb_trace *t, const char *src, const char *dst,
                          int type, size_t *idx)
{
    for (size_t i = 0; i < t->n; i++) {
        const pb_msg *m = &t->msgs[i];
        if (m->type == type &&
            !strcmp(pb_strtab_str(t->names->nodes, m->src), src) &&
            !strcmp(pb_strtab_str(t->names->nodes, m->dst), dst)) {
            if (idx)
                *idx = i;
            return m;
        }
    }
    return NULL;
}

#define SPAN(id, parent, kind, proc, start, dur)                              \
    "{\"spanID\":\"" id "\",\"references\":[{\"refType\":\"CHILD_OF\","       \
    "\"spanID\":\"" parent "\"}],\"tags\":[{\"key\":\"span.kind\","           \
    "\"value\":\"" kind "\"}],\"processID\":\"" proc "\",\"startTime\":"      \
    start ",\"duration\":" dur "}"

/* A calls B, then B calls C twice in parallel and once after both. */
static const char *fanout =
    "{\"data\":[{\"traceID\":\"t1\",\"processes\":{\"a\":{\"serviceName\":"
    "\"A\"},\"b\":{\"serviceName\":\"B\"},\"c\":{\"serviceName\":\"C\"}},"
    "\"spans\":["
    "{\"spanID\":\"r\",\"tags\":[{\"key\":\"span.kind\",\"value\":\"server\"}],"
    "\"processID\":\"a\",\"startTime\":100,\"duration\":1000},"
    SPAN("ac", "r", "client", "a", "110", "900") ","
    SPAN("bs", "ac", "server", "b", "120", "800") ","
    SPAN("c1", "bs", "client", "b", "130", "100") ","
    SPAN("c1s", "c1", "server", "c", "140", "80") ","
    SPAN("c2", "bs", "client", "b", "135", "200") ","
    SPAN("c2s", "c2", "server", "c", "145", "150") ","
    SPAN("c3", "bs", "client", "b", "400", "50") ","
    SPAN("c3s", "c3", "server", "c", "410", "30")
    "]}]}";

TEST(importtrace_rpc_timestamps)
{
    pb_trace *t;
    imp_stats st;
    pb_error err;
    CHECK_INT(import(fanout, NULL, &t, &st, &err), PB_OK);
    if (!t)
        return;
    CHECK_INT(t->n, 10);
    CHECK_INT(st.count[IMP_C_RPCS], 5);
    const pb_msg *m = find(t, "A", "B", PB_TYPE_CALL, NULL);
    CHECK(m != NULL);
    if (m) {
        CHECK_INT(m->ts, 110000);       /* client span start, ns */
        CHECK_INT(m->recv_ts, 120000);  /* server span start */
    }
    m = find(t, "B", "A", PB_TYPE_RETURN, NULL);
    CHECK(m != NULL);
    if (m) {
        CHECK_INT(m->ts, 920000);       /* server span end */
        CHECK_INT(m->recv_ts, 1010000); /* client span end */
    }
    m = find(t, "client", "A", PB_TYPE_CALL, NULL);
    CHECK(m != NULL);
    if (m)
        CHECK_INT(m->recv_ts, 100000);
    for (size_t i = 1; i < t->n; i++)
        CHECK(t->msgs[i - 1].ts <= t->msgs[i].ts);
    for (size_t i = 0; i < t->n; i++)
        CHECK_INT(t->msgs[i].id, i + 1);
    pb_trace_close(t);
}

/* The cause of each message, by (src, dst, type, ts in us). */
static uint64_t cause_of(const pb_trace *t, const char *src, const char *dst,
                         int type, long ts_us)
{
    for (size_t i = 0; i < t->n; i++) {
        const pb_msg *m = &t->msgs[i];
        if (m->type == type && m->ts == ts_us * 1000 &&
            !strcmp(pb_strtab_str(t->names->nodes, m->src), src) &&
            !strcmp(pb_strtab_str(t->names->nodes, m->dst), dst))
            return t->truth[i].cause;
    }
    return 0;
}

static uint64_t id_of(const pb_trace *t, const char *src, const char *dst,
                      int type, long ts_us)
{
    for (size_t i = 0; i < t->n; i++) {
        const pb_msg *m = &t->msgs[i];
        if (m->type == type && m->ts == ts_us * 1000 &&
            !strcmp(pb_strtab_str(t->names->nodes, m->src), src) &&
            !strcmp(pb_strtab_str(t->names->nodes, m->dst), dst))
            return m->id;
    }
    return 0;
}

TEST(importtrace_causes_parallel_children)
{
    pb_trace *t;
    pb_error err;
    CHECK_INT(import(fanout, NULL, &t, NULL, &err), PB_OK);
    if (!t)
        return;
    uint64_t call_ab = id_of(t, "A", "B", PB_TYPE_CALL, 110);
    /* both parallel calls were issued before any child returned */
    CHECK_INT(cause_of(t, "B", "C", PB_TYPE_CALL, 130), call_ab);
    CHECK_INT(cause_of(t, "B", "C", PB_TYPE_CALL, 135), call_ab);
    /* the third call: the join of both, i.e. the later return (c2, at 335) */
    uint64_t ret2 = id_of(t, "C", "B", PB_TYPE_RETURN, 295);
    CHECK(ret2 != 0);
    CHECK_INT(cause_of(t, "B", "C", PB_TYPE_CALL, 400), ret2);
    /* B's return: after the last child's return */
    CHECK_INT(cause_of(t, "B", "A", PB_TYPE_RETURN, 920),
              id_of(t, "C", "B", PB_TYPE_RETURN, 440));
    /* a leaf's return is caused by its call */
    CHECK_INT(cause_of(t, "C", "B", PB_TYPE_RETURN, 220),
              id_of(t, "B", "C", PB_TYPE_CALL, 130));
    CHECK_INT(cause_of(t, "client", "A", PB_TYPE_CALL, 100), PB_ID_NONE);
    char buf[64];
    pb_label_format(t->names, t->truth[0].path, buf, sizeof buf);
    CHECK_STR(buf, "t1");
    pb_trace_close(t);
}

TEST(importtrace_errors)
{
    pb_trace *t;
    pb_error err;
    pb_error_clear(&err);
    CHECK_INT(import("{\"data\": [\n  {\"spans\": ]", NULL, &t, NULL, &err),
              PB_EPARSE);
    CHECK_STR(err.file, "doc.json");
    CHECK_INT(err.line, 2);
    CHECK(err.column > 0);
    CHECK(t == NULL);
    CHECK_INT(import("{\"data\":[{\"traceID\":\"t\",\"processes\":{},\"spans\":"
                     "[{\"spanID\":\"s\",\"processID\":\"p\",\"startTime\":1,"
                     "\"duration\":1}]}]}",
                     NULL, &t, NULL, &err),
              PB_ENOENT);
    CHECK(strstr(err.msg, "data[0].spans[0]") != NULL);
    CHECK(strstr(err.msg, "\"p\"") != NULL);
    CHECK_INT(import("[1]", NULL, &t, NULL, &err), PB_EPARSE);
    CHECK(strstr(err.msg, "[0]: expected a span object") != NULL);
    CHECK_INT(import("{\"data\":[{\"traceID\":\"t\",\"processes\":{\"p\":{"
                     "\"serviceName\":\"a\"}},\"spans\":[{\"spanID\":\"s\","
                     "\"processID\":\"p\",\"startTime\":9223372036854775,"
                     "\"duration\":1000}]}]}",
                     NULL, &t, NULL, &err),
              PB_ERANGE);
    imp_opts o;
    imp_opts_default(&o);
    o.format = IMP_FORMAT_JAEGER;
    CHECK_INT(import("[]", &o, &t, NULL, &err), PB_EPARSE);
}

TEST(importtrace_state_after_error)
{
    imp_importer *im;
    pb_error err;
    CHECK_INT(imp_init(&im, NULL, &err), PB_OK);
    CHECK_INT(imp_add_buffer(im, "{", 1, "x", &err), PB_EPARSE);
    CHECK_INT(imp_add_buffer(im, fanout, strlen(fanout), "y", &err), PB_ESTATE);
    pb_trace *t;
    CHECK_INT(imp_finish(im, &t, &err), PB_ESTATE);
    imp_close(im);
    imp_close(NULL);
}

TEST(importtrace_negative_duration_counted)
{
    pb_trace *t;
    imp_stats st;
    pb_error err;
    CHECK_INT(import("[{\"traceId\":\"t\",\"id\":\"a\",\"kind\":\"SERVER\","
                     "\"timestamp\":5,\"duration\":-3,\"localEndpoint\":{"
                     "\"serviceName\":\"s\"}},{\"traceId\":\"t\",\"id\":\"b\","
                     "\"parentId\":\"a\",\"timestamp\":6,\"localEndpoint\":{"
                     "\"serviceName\":\"s\"}}]",
                     NULL, &t, &st, &err),
              PB_OK);
    CHECK_INT(st.count[IMP_C_NEGATIVE_DURATION], 1);
    CHECK_INT(st.count[IMP_C_MISSING_DURATION], 1);
    CHECK_INT(st.count[IMP_C_INTERNAL_SPAN], 1);
    if (t) {
        CHECK_INT(t->n, 2);
        CHECK_INT(t->msgs[0].ts, 5000);
        CHECK_INT(t->msgs[1].ts, 5000); /* end = start when negative */
    }
    pb_trace_close(t);
}

/* Other shapes of the formats: a bare Jaeger trace object with inline
 * processes and parentSpanID; Zipkin as an array of per-trace arrays. */
TEST(importtrace_format_shapes)
{
    pb_trace *t;
    imp_stats st;
    pb_error err;
    CHECK_INT(import("{\"traceID\":\"t\",\"spans\":["
                     "{\"spanID\":\"a\",\"process\":{\"serviceName\":\"A\"},"
                     "\"startTime\":10,\"duration\":50},"
                     "{\"spanID\":\"b\",\"parentSpanID\":\"a\",\"process\":{"
                     "\"serviceName\":\"B\"},\"startTime\":20,\"duration\":5}]}",
                     NULL, &t, &st, &err),
              PB_OK);
    /* A's root span (no kind) calls B (no kind): derived from B's span
     * alone, counted as an RPC between spans without kind tags */
    CHECK_INT(st.count[IMP_C_NO_KIND_RPC], 1);
    CHECK_INT(st.count[IMP_C_SERVER_ONLY], 0);
    CHECK_INT(st.count[IMP_C_RPCS], 2);
    if (t) {
        const pb_msg *m = find(t, "A", "B", PB_TYPE_CALL, NULL);
        CHECK(m != NULL);
        if (m) {
            CHECK_INT(m->ts, 20000);
            CHECK_INT(m->recv_ts, 20000);
        }
    }
    pb_trace_close(t);
    CHECK_INT(import("[[{\"traceId\":\"x\",\"id\":\"1\",\"kind\":\"SERVER\","
                     "\"timestamp\":1,\"duration\":9,\"localEndpoint\":{"
                     "\"serviceName\":\"S\"}}],[{\"traceId\":\"y\",\"id\":\"1\","
                     "\"kind\":\"CLIENT\",\"timestamp\":2,\"duration\":3,"
                     "\"localEndpoint\":{\"serviceName\":\"S\"},"
                     "\"remoteEndpoint\":{\"serviceName\":\"db\"}}]]",
                     NULL, &t, &st, &err),
              PB_OK);
    CHECK_INT(st.count[IMP_C_TRACES], 2);
    CHECK_INT(st.count[IMP_C_CLIENT_ONLY], 1);
    /* y's root is a client span: S is the spontaneous sender, no node
     * client enters it */
    CHECK_INT(st.count[IMP_C_CLIENT_ROOT], 1);
    CHECK_INT(st.count[IMP_C_RPCS], 2);
    if (t) {
        CHECK(find(t, "client", "S", PB_TYPE_CALL, NULL) != NULL); /* x */
        CHECK_INT(t->n, 4);
        CHECK(find(t, "S", "db", PB_TYPE_CALL, NULL) != NULL);
        CHECK(find(t, "db", "S", PB_TYPE_RETURN, NULL) != NULL);
    }
    pb_trace_close(t);
    CHECK_INT(import("[[{\"traceId\":\"x\",\"id\":\"1\",\"timestamp\":1,"
                     "\"localEndpoint\":{\"serviceName\":\"S\"}}], 5]",
                     NULL, &t, NULL, &err),
              PB_EPARSE);
    CHECK(strstr(err.msg, "[1]: expected a span object") != NULL);
}


/* OTLP/JSON: integer and named kinds, nanosecond times kept exactly, hex
 * ids lower-cased and a 32-digit trace id with a zero high half shortened
 * to 16 digits; two request objects on two lines. */
TEST(importtrace_otlp)
{
    pb_trace *t;
    imp_stats st;
    pb_error err;
    const char *doc =
        "{\"resourceSpans\":[{\"resource\":{\"attributes\":[{\"key\":"
        "\"service.name\",\"value\":{\"stringValue\":\"A\"}}]},\"scopeSpans\":"
        "[{\"spans\":[{\"traceId\":\"0000000000000000ABCDEF0123456789\","
        "\"spanId\":\"01\",\"kind\":2,\"startTimeUnixNano\":\"1000000001\","
        "\"endTimeUnixNano\":\"1000000901\"},{\"traceId\":"
        "\"0000000000000000abcdef0123456789\",\"spanId\":\"02\","
        "\"parentSpanId\":\"01\",\"kind\":\"SPAN_KIND_CLIENT\","
        "\"startTimeUnixNano\":1000000101,\"endTimeUnixNano\":\"1000000801\"}]"
        "}]}]}\n"
        "{\"resourceSpans\":[{\"resource\":{\"attributes\":[{\"key\":"
        "\"service.name\",\"value\":{\"stringValue\":\"B\"}}]},\"scopeSpans\":"
        "[{\"spans\":[{\"traceId\":\"abcdef0123456789\",\"spanId\":\"03\","
        "\"parentSpanId\":\"02\",\"kind\":2,\"startTimeUnixNano\":\"1000000201\","
        "\"endTimeUnixNano\":\"1000000701\"}]}]}]}\n";
    CHECK_INT(import(doc, NULL, &t, &st, &err), PB_OK);
    CHECK_INT(st.count[IMP_C_TRACES], 1);
    CHECK_INT(st.count[IMP_C_RPCS], 2);
    if (t) {
        size_t i;
        const pb_msg *m = find(t, "A", "B", PB_TYPE_CALL, &i);
        CHECK(m != NULL);
        if (m) {
            CHECK_INT(m->ts, 1000000101);
            CHECK_INT(m->recv_ts, 1000000201);
            char buf[64];
            pb_label_format(t->names, t->truth[i].path, buf, sizeof buf);
            CHECK_STR(buf, "abcdef0123456789");
        }
        m = find(t, "B", "A", PB_TYPE_RETURN, NULL);
        CHECK(m != NULL);
        if (m) {
            CHECK_INT(m->ts, 1000000701);
            CHECK_INT(m->recv_ts, 1000000801);
        }
    }
    pb_trace_close(t);
    /* forced formats refuse the other shapes */
    imp_opts o;
    imp_opts_default(&o);
    o.format = IMP_FORMAT_JAEGER;
    CHECK_INT(import(doc, &o, &t, NULL, &err), PB_EPARSE);
    CHECK(strstr(err.msg, "expected a Jaeger document") != NULL);
    o.format = IMP_FORMAT_OTLP;
    CHECK_INT(import("{\"data\":[]}", &o, &t, NULL, &err), PB_EPARSE);
    CHECK(strstr(err.msg, "expected an OTLP document") != NULL);
}

/* The streaming scanner: a byte-order mark is skipped, an error inside the
 * third element of "data" is placed in the whole buffer, and a missing
 * comma between elements is named. */
TEST(importtrace_scanner)
{
    pb_trace *t;
    pb_error err;
#define TR "{\"traceID\":\"t%d\",\"processes\":{\"p\":{\"serviceName\":" \
           "\"A\"}},\"spans\":[{\"spanID\":\"s\",\"startTime\":1," \
           "\"duration\":1,\"processID\":\"p\"}]}"
    char doc[1024];
    snprintf(doc, sizeof doc, "\xEF\xBB\xBF{\"total\": 3, \"data\": [\n");
    for (int i = 0; i < 2; i++) {
        size_t l = strlen(doc);
        snprintf(doc + l, sizeof doc - l, TR, i);
        strcat(doc, ",\n");
    }
    strcat(doc, "  {\"traceID\": \"x\", \"spans\": [}]}\n");
    CHECK_INT(import(doc, NULL, &t, NULL, &err), PB_EPARSE);
    CHECK_INT(err.line, 4);
    CHECK_INT(err.column, 30); /* the "}" */
    doc[strlen(doc) - 35] = 0; /* cut before ",\n" and the bad element */
    strcat(doc, "]}");
    CHECK_INT(import(doc, NULL, &t, NULL, &err), PB_OK);
    CHECK(t && t->n == 4);
    pb_trace_close(t);
    CHECK_INT(import("{\"data\":[{\"traceID\":\"t\",\"spans\":[]} {}]}", NULL, &t,
                     NULL, &err),
              PB_EPARSE);
    CHECK(strstr(err.msg, "expected ',' or ']'") != NULL);
    CHECK_INT(err.column, 37); /* the second "{" */
}

/* A client-kind root span making two parallel calls: the root service is
 * the spontaneous sender; the second call is caused by the first. */
TEST(importtrace_client_root_fanout)
{
    pb_trace *t;
    imp_stats st;
    pb_error err;
    CHECK_INT(import("[{\"traceId\":\"t\",\"id\":\"r\",\"kind\":\"CLIENT\","
                     "\"timestamp\":10,\"duration\":90,\"localEndpoint\":{"
                     "\"serviceName\":\"gen\"}},"
                     "{\"traceId\":\"t\",\"id\":\"a\",\"parentId\":\"r\","
                     "\"kind\":\"SERVER\",\"timestamp\":20,\"duration\":10,"
                     "\"localEndpoint\":{\"serviceName\":\"A\"}},"
                     "{\"traceId\":\"t\",\"id\":\"b\",\"parentId\":\"r\","
                     "\"kind\":\"SERVER\",\"timestamp\":20,\"duration\":30,"
                     "\"localEndpoint\":{\"serviceName\":\"B\"}}]",
                     NULL, &t, &st, &err),
              PB_OK);
    CHECK_INT(st.count[IMP_C_CLIENT_ROOT], 1);
    CHECK_INT(st.count[IMP_C_ROOT_FANOUT], 1);
    CHECK_INT(st.count[IMP_C_REQUESTS], 1);
    CHECK_INT(st.count[IMP_C_RPCS], 2); /* no RPC from node client */
    if (t) {
        size_t ia, ib;
        const pb_msg *a = find(t, "gen", "A", PB_TYPE_CALL, &ia);
        const pb_msg *b = find(t, "gen", "B", PB_TYPE_CALL, &ib);
        CHECK(a && b);
        if (a && b) {
            CHECK(t->truth[ia].cause == PB_ID_NONE);
            CHECK_INT(t->truth[ib].cause, a->id);
        }
    }
    pb_trace_close(t);
}

/* Export: a hand-made trace (client -> A -> B, A -> C after B returned)
 * and a result putting all of it in one instance give the spans below:
 * A's server span alone at the root (the call from client has ts ==
 * recv_ts), client/server pairs for A->B and A->C, both children of A's
 * server span; importing the export gives the trace back. */
TEST(importtrace_export_jaeger)
{
    pb_trace *t;
    CHECK_INT(pb_trace_new(&t), PB_OK);
    CHECK_INT(pb_trace_add(t, 1, 1000, 1000, "client", "A", PB_TYPE_CALL,
                           PB_ID_NONE, 7, PB_ID_NONE), PB_OK);
    CHECK_INT(pb_trace_add(t, 2, 2000, 3000, "A", "B", PB_TYPE_CALL,
                           PB_ID_NONE, 7, 1), PB_OK);
    CHECK_INT(pb_trace_add(t, 3, 4000, 5000, "B", "A", PB_TYPE_RETURN,
                           PB_ID_NONE, 7, 2), PB_OK);
    CHECK_INT(pb_trace_add(t, 4, 6000, 7000, "A", "C", PB_TYPE_CALL,
                           PB_ID_NONE, 7, 3), PB_OK);
    CHECK_INT(pb_trace_add(t, 5, 8000, 9000, "C", "A", PB_TYPE_RETURN,
                           PB_ID_NONE, 7, 4), PB_OK);
    CHECK_INT(pb_trace_add(t, 6, 10000, 10000, "A", "client", PB_TYPE_RETURN,
                           PB_ID_NONE, 7, 5), PB_OK);
    pb_result res;
    CHECK_INT(pb_result_init(&res, "truth", "call"), PB_OK);
    pb_pattern *pat = NULL;
    CHECK_INT(pb_pattab_add(res.patterns, "client>A[B,C]", 4, 1, 0, NULL, NULL,
                            &pat), PB_OK);
    pb_error err;
    imp_export_stats st;
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    CHECK(fp != NULL);
    if (!fp || !pat)
        return;
    /* nothing ascribed: an error */
    CHECK_INT(imp_export_jaeger(fp, t, &res, &st, &err), PB_EINVAL);
    for (uint64_t id = 1; id <= 6; id++)
        CHECK_INT(pb_result_assign(&res, id, 3, pat->index), PB_OK);
    CHECK_INT(imp_export_jaeger(fp, t, &res, &st, &err), PB_OK);
    fclose(fp);
    CHECK_INT(st.instances, 1);
    CHECK_INT(st.spans, 5);
    CHECK_INT(st.rpcs, 3);
    CHECK_INT(st.rounded, 0);
    /* span 1: A's server span; 2/3: A->B client (child of 1) and server */
    CHECK(strstr(buf, "\"spanID\":\"0000000000000001\",\"flags\":1,"
                      "\"operationName\":\"client -> A\",\"references\":[],"
                      "\"startTime\":1,\"duration\":9") != NULL);
    CHECK(strstr(buf, "\"spanID\":\"0000000000000002\",\"flags\":1,"
                      "\"operationName\":\"A -> B\",\"references\":[{"
                      "\"refType\":\"CHILD_OF\",\"traceID\":\"0000000000000001\","
                      "\"spanID\":\"0000000000000001\"}],\"startTime\":2,"
                      "\"duration\":3") != NULL);
    CHECK(strstr(buf, "\"spanID\":\"0000000000000005\",\"flags\":1,"
                      "\"operationName\":\"A -> C\",\"references\":[{"
                      "\"refType\":\"CHILD_OF\",\"traceID\":\"0000000000000001\","
                      "\"spanID\":\"0000000000000004\"}],\"startTime\":7,"
                      "\"duration\":1") != NULL);
    CHECK(strstr(buf, "\"value\":\"client>A[B,C]\"") != NULL);
    pb_trace *back = NULL;
    if (buf) {
        /* the round trip: the first rows' times, nodes and causes again */
        CHECK_INT(import(buf, NULL, &back, NULL, &err), PB_OK);
        CHECK(back && back->n == 6);
        for (size_t i = 0; back && i < 6 && i < back->n; i++) {
            CHECK_INT(back->msgs[i].ts, t->msgs[i].ts);
            CHECK_INT(back->msgs[i].recv_ts, t->msgs[i].recv_ts);
            CHECK_INT(back->msgs[i].type, t->msgs[i].type);
            CHECK_INT(back->truth[i].cause, t->truth[i].cause);
        }
    }
    pb_trace_close(back);
    free(buf);
    pb_result_free(&res);
    pb_trace_close(t);
}

int main(void)
{
    RUN(importtrace_rpc_timestamps);
    RUN(importtrace_causes_parallel_children);
    RUN(importtrace_errors);
    RUN(importtrace_state_after_error);
    RUN(importtrace_negative_duration_counted);
    RUN(importtrace_format_shapes);
    RUN(importtrace_otlp);
    RUN(importtrace_scanner);
    RUN(importtrace_client_root_fanout);
    RUN(importtrace_export_jaeger);
    return pbtest_exit();
}
