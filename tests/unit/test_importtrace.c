/*
 * test_importtrace - the importer library on documents in memory: RPC
 * timestamps, causes across siblings, error codes and places, counters,
 * and the state after an error.
 */
#include <stdlib.h>
#include <string.h>

#include "imp.h"
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
    if (st)
        memset(st->first, 0, sizeof st->first); /* freed with im */
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

int main(void)
{
    RUN(importtrace_rpc_timestamps);
    RUN(importtrace_causes_parallel_children);
    RUN(importtrace_errors);
    RUN(importtrace_state_after_error);
    RUN(importtrace_negative_duration_counted);
    RUN(importtrace_format_shapes);
    return pbtest_exit();
}
