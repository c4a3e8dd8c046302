/* The message record and its side array of observed columns (pb_obs):
 * the record's size, the array made only for a trace that has the
 * columns, kept with its messages through sorting, appending and copying. */
#include "pbtest.h"
#include "pb_trace.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* write s to a temporary file in $TMPDIR (else the system's P_tmpdir);
 * returns its path (static buffer) */
static const char *tmpfile_of(const char *s)
{
    static char path[4096];
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/pbtest_obs_XXXXXX", dir && *dir ? dir : P_tmpdir);
    int fd = mkstemp(path);
    if (fd < 0)
        return NULL;
    FILE *fp = fdopen(fd, "w");
    if (!fp)
        return NULL;
    fputs(s, fp);
    fclose(fp);
    return path;
}

static pb_trace *load(const char *csv, int unsorted)
{
    const char *p = tmpfile_of(csv);
    if (!p)
        return NULL;
    pb_reader_opts o;
    pb_reader_opts_default(&o);
    o.allow_unsorted = unsorted;
    pb_trace *t = NULL;
    pb_error err;
    if (pb_trace_load(p, &o, 1, &t, &err) != PB_OK)
        t = NULL;
    remove(p);
    return t;
}

static char *write_all(const pb_trace *t)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    pb_error err;
    if (!out || pb_trace_write(t, out, 0, &err) != PB_OK) {
        if (out)
            fclose(out);
        free(buf);
        return NULL;
    }
    fclose(out);
    return buf;
}

/* 64 bytes a message on main (the five uint32 inside pb_msg): reading
 * a trace cost 65 B/msg against the goal of 64 */
TEST(record_size)
{
    CHECK_INT(sizeof(pb_msg), 48);
    CHECK_INT(sizeof(pb_obs), 20);
}

static const char plain[] =
    "id,ts,recv_ts,src,dst,type,callid,path,cause\n"
    "1,1.000000000,1.100000000,C,A,call,7,1,\n"
    "2,2.000000000,2.100000000,A,C,return,7,1,1\n";

static const char with_obs[] =
    "id,ts,recv_ts,src,dst,type,callid,path,cause,thread,sthread,conn,attr,size\n"
    "1,1.000000000,1.100000000,C,A,call,7,1,,w1,t0,c1,GET /x,120\n"
    "2,2.000000000,2.100000000,A,C,return,7,1,1,t0,w1,c1,,\n";

static const char empty_obs[] =
    "id,ts,recv_ts,src,dst,type,callid,path,cause,thread,sthread,conn,attr,size\n"
    "1,1.000000000,1.100000000,C,A,call,7,1,,,,,,\n"
    "2,2.000000000,2.100000000,A,C,return,7,1,1,,,,,\n";

TEST(side_array_only_when_present)
{
    pb_trace *a = load(plain, 0), *b = load(with_obs, 0), *c = load(empty_obs, 0);
    CHECK(a && b && c);
    if (!a || !b || !c)
        goto out;
    /* no column: no array; accessors give the unknown values */
    CHECK(a->obs == NULL);
    pb_trace_view va = pb_trace_view_of(a);
    CHECK(va.obs == NULL);
    CHECK_INT(pb_obs_thread(va.obs, 1), 0);
    CHECK_INT(pb_obs_size(va.obs, 0), PB_SIZE_NONE);
    /* the columns, every field empty: still no array */
    CHECK(c->obs == NULL);
    CHECK_INT(c->columns & PB_COL_OBSERVED, PB_COL_OBSERVED);
    /* the columns with values */
    CHECK(b->obs != NULL);
    pb_trace_view vb = pb_trace_view_of(b);
    CHECK(vb.obs == b->obs);
    CHECK_STR(pb_thread_name(b->names, pb_obs_thread(vb.obs, 0)), "w1");
    CHECK_INT(pb_obs_thread(vb.obs, 0), pb_obs_sthread(vb.obs, 1));
    CHECK_INT(pb_obs_conn(vb.obs, 0), pb_obs_conn(vb.obs, 1));
    CHECK_STR(pb_thread_name(b->names, pb_obs_attr(vb.obs, 0)), "GET /x");
    CHECK_INT(pb_obs_size(vb.obs, 0), 120);
    CHECK_INT(pb_obs_size(vb.obs, 1), PB_SIZE_NONE);
    /* the messages are the same with and without the columns */
    CHECK_INT(a->n, b->n);
    for (size_t i = 0; i < a->n && i < b->n; i++)
        CHECK(!memcmp(&a->msgs[i], &b->msgs[i], sizeof(pb_msg)));
    /* written back: the same text */
    char *wb = write_all(b), *wc = write_all(c), *wa = write_all(a);
    CHECK_STR(wb ? wb : "", with_obs);
    CHECK_STR(wc ? wc : "", empty_obs);
    CHECK_STR(wa ? wa : "", plain);
    free(wa);
    free(wb);
    free(wc);
out:
    pb_trace_close(a);
    pb_trace_close(b);
    pb_trace_close(c);
}

/* re-sorting moves the observed columns with their messages */
TEST(sort_keeps_obs_with_messages)
{
    static const char shuffled[] =
        "id,ts,recv_ts,src,dst,type,callid,path,cause,thread,size\n"
        "3,3.0,3.1,A,C,return,8,2,2,r3,30\n"
        "1,1.000000000,1.100000000,C,A,call,7,1,,r1,10\n"
        "2,2.000000000,2.100000000,C,A,call,8,2,,r2,20\n"
        "4,4.0,4.1,A,C,return,7,1,1,,40\n";
    pb_trace *t = load(shuffled, 1);
    CHECK(t != NULL);
    if (!t)
        return;
    CHECK(t->obs != NULL);
    for (size_t i = 0; i < t->n; i++) {
        CHECK_INT(t->msgs[i].id, i + 1);
        CHECK_INT(pb_obs_size(t->obs, i), 10 * (i + 1));
        char want[8];
        snprintf(want, sizeof want, i == 3 ? "" : "r%zu", i + 1);
        CHECK_STR(pb_thread_name(t->names, pb_obs_thread(t->obs, i)), want);
    }
    pb_trace_close(t);
}

/* the array is made at the first known value; earlier messages unknown */
TEST(append_makes_array_lazily)
{
    pb_trace *t;
    CHECK_INT(pb_trace_new(&t), PB_OK);
    for (int i = 0; i < 3000; i++)
        CHECK_INT(pb_trace_add(t, (uint64_t)i + 1, i, PB_TS_NONE, "A", "B",
                               PB_TYPE_MSG, PB_ID_NONE, PB_ID_NONE, PB_ID_NONE), PB_OK);
    CHECK(t->obs == NULL);
    pb_msg m = t->msgs[0];
    pb_obs none = PB_OBS_NONE;
    CHECK_INT(pb_trace_append_obs(t, &m, &none, NULL), PB_OK);
    CHECK(t->obs == NULL);
    pb_obs o = PB_OBS_NONE;
    o.conn = 1u << 30; /* ids are not truncated */
    CHECK_INT(pb_trace_append_obs(t, &m, &o, NULL), PB_OK);
    CHECK(t->obs != NULL);
    CHECK_INT(pb_obs_conn(t->obs, 3000), 0);
    CHECK_INT(pb_obs_size(t->obs, 3000), PB_SIZE_NONE);
    CHECK_INT(pb_obs_conn(t->obs, 3001), 1u << 30);
    /* growing past the first block keeps every value */
    for (int i = 0; i < 5000; i++) {
        o.conn = (uint32_t)i + 7;
        CHECK_INT(pb_trace_append_obs(t, &m, &o, NULL), PB_OK);
    }
    CHECK_INT(pb_obs_conn(t->obs, 3001), 1u << 30);
    CHECK_INT(pb_obs_conn(t->obs, 3002 + 4999), 4999 + 7);
    CHECK_INT(pb_obs_size(t->obs, 0), PB_SIZE_NONE);
    pb_trace_close(t);
    /* pb_trace_obs on an empty trace */
    CHECK_INT(pb_trace_new(&t), PB_OK);
    CHECK(pb_trace_obs(t) != NULL);
    CHECK_INT(pb_trace_add(t, 1, 0, PB_TS_NONE, "A", "B", PB_TYPE_MSG, PB_ID_NONE,
                           PB_ID_NONE, PB_ID_NONE), PB_OK);
    CHECK_INT(pb_obs_size(t->obs, 0), PB_SIZE_NONE);
    pb_trace_close(t);
}

/* a copy of a view's messages carries the columns when the view has them */
TEST(view_copy)
{
    pb_trace *b = load(with_obs, 0), *a = load(plain, 0);
    CHECK(a && b);
    if (!a || !b)
        goto out;
    pb_trace_view v = pb_trace_view_of(b), w = pb_trace_view_of(a);
    pb_obs *o, *o2;
    pb_msg *m = pb_msgs_alloc(1, v.obs != NULL, &o), *m2 = pb_msgs_alloc(0, w.obs != NULL, &o2);
    CHECK(m && o && m2 && !o2);
    if (m && o) {
        pb_view_copy(m, o, 0, &v, 1);
        CHECK_INT(m[0].id, 2);
        CHECK_INT(o[0].thread, v.obs[1].thread);
        CHECK_INT(o[0].size, PB_SIZE_NONE);
    }
    if (m2) {
        pb_view_copy(m2, o2, 0, &w, 1);
        CHECK_INT(m2[0].id, 2);
    }
    free(m);
    free(m2);
out:
    pb_trace_close(a);
    pb_trace_close(b);
}

int main(void)
{
    RUN(record_size);
    RUN(side_array_only_when_present);
    RUN(sort_keeps_obs_with_messages);
    RUN(append_makes_array_lazily);
    RUN(view_copy);
    return pbtest_exit();
}
