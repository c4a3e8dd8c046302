/* Trace reading and writing: round trip, labels, P5 format, time parsing. */
#include "pbtest.h"
#include "pb_strbuf.h"
#include "pb_trace.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static FILE *mem(const char *s)
{
    return fmemopen((void *)s, strlen(s), "r");
}

TEST(seconds_parse_and_format)
{
    pb_ns t;
    char b[PB_SECONDS_BUF];
    CHECK_INT(pb_seconds_parse("1.5", 3, &t), PB_OK);
    CHECK_INT(t, 1500000000);
    CHECK_INT(pb_seconds_parse("0.0000000015", 12, &t), PB_OK);
    CHECK_INT(t, 2);
    CHECK_INT(pb_seconds_parse("-.25", 4, &t), PB_OK);
    CHECK_INT(t, -250000000);
    CHECK_INT(pb_seconds_parse("1e3", 3, &t), PB_EPARSE);
    CHECK_INT(pb_seconds_parse("nan", 3, &t), PB_EPARSE);
    CHECK_INT(pb_seconds_parse("inf", 3, &t), PB_EPARSE);
    CHECK_INT(pb_seconds_parse(".", 1, &t), PB_EPARSE);
    CHECK_INT(pb_seconds_parse("99999999999", 11, &t), PB_ERANGE);
    pb_seconds_format(12000000500LL, b);
    CHECK_STR(b, "12.000000500");
    pb_seconds_format(-30000000, b);
    CHECK_STR(b, "-0.030000000");
    CHECK_INT(pb_duration_parse("+30ms", &t), PB_OK);
    CHECK_INT(t, 30000000);
    CHECK_INT(pb_duration_parse("250us", &t), PB_OK);
    CHECK_INT(t, 250000);
    CHECK_INT(pb_duration_parse("2s", &t), PB_OK);
    CHECK_INT(t, 2000000000);
    CHECK_INT(pb_duration_parse("3 parsecs", &t), PB_EPARSE);
    /* a bare number has no unit: refused, except zero */
    CHECK_INT(pb_duration_parse("2", &t), PB_EPARSE);
    CHECK_INT(pb_duration_parse("0.03", &t), PB_EPARSE);
    CHECK_INT(pb_duration_parse("30", &t), PB_EPARSE);
    t = 5;
    CHECK_INT(pb_duration_parse("0", &t), PB_OK);
    CHECK_INT(t, 0);
    CHECK_INT(pb_duration_parse("-0.0", &t), PB_OK);
    CHECK_INT(t, 0);
    CHECK_INT(pb_duration_parse("2min", &t), PB_OK);
    CHECK_INT(t, 120000000000LL);
}

/* the unit form of a duration: shortest, exact, read back to the ns */
TEST(duration_format_round_trip)
{
    char b[PB_DURATION_BUF];
    CHECK_STR(pb_duration_format(30000000, b), "30ms");
    CHECK_STR(pb_duration_format(1500000000, b), "1.5s");
    CHECK_STR(pb_duration_format(-2000000000, b), "-2s");
    CHECK_STR(pb_duration_format(0, b), "0s");
    CHECK_STR(pb_duration_format(7, b), "7ns");
    CHECK_STR(pb_duration_format(250000, b), "250us");
    CHECK_STR(pb_duration_format(1000001, b), "1.000001ms");
    CHECK_STR(pb_duration_format(12000000500LL, b), "12.0000005s");
    CHECK_STR(pb_duration_format(INT64_MIN + 1, b), "-9223372036.854775807s");
    const pb_ns cases[] = {1, 999, 1000, 123456789, 86400000000000LL, -42424242,
                           9000000000000000000LL};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pb_ns back = 0;
        CHECK_INT(pb_duration_parse(pb_duration_format(cases[i], b), &back), PB_OK);
        CHECK_INT(back, cases[i]);
    }
}

/* numbers in metadata and help: the shortest text that reads back exactly */
TEST(number_shortest_form)
{
    char b[PB_NUM_BUF];
    CHECK_STR(pb_num_format(0.15, b), "0.15");
    CHECK_STR(pb_num_format(0.1 + 0.2, b), "0.30000000000000004");
    CHECK_STR(pb_num_format(2147483647.0, b), "2147483647");
    CHECK_STR(pb_num_format(100, b), "100");
    CHECK_STR(pb_num_format(1e-9, b), "1e-09");
    CHECK_STR(pb_num_format(1e15, b), "1e+15");
    CHECK_STR(pb_num_format(-2.5, b), "-2.5");
    const double cases[] = {1.0 / 3, 4.0 / 9, 1e300, 6.02214076e23, 1.05, -0.0};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        CHECK(strtod(pb_num_format(cases[i], b), NULL) == cases[i]);
}

static const char *sample =
    "# generator=test seed=1\n"
    "id,ts,recv_ts,src,dst,type,callid,path,cause\n"
    "1,0.000000000,0.000100000,A,B,call,7,p1,\n"
    "2,0.001000000,,B,\"C,1\",call,x-9,p1,1\n"
    "3,0.002000000,0.002000000,\"C,1\",B,return,x-9,p1,2\n"
    "4,0.003000000,0.003100000,B,A,return,7,p1,3\n";

TEST(round_trip_bytes)
{
    FILE *in = mem(sample);
    pb_reader *r;
    pb_error err;
    CHECK_INT(pb_reader_open_fp(&r, in, "sample", NULL, NULL, &err), PB_OK);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    pb_writer *w;
    CHECK_INT(pb_writer_open(&w, out, "out", pb_reader_columns(r),
                             pb_reader_names(r), &err), PB_OK);
    for (size_t i = 0; i < pb_reader_meta_count(r); i++)
        pb_writer_meta(w, pb_reader_meta(r, i));
    pb_msg m;
    pb_truth t;
    int rc;
    while ((rc = pb_reader_next(r, &m, &t, &err)) == 1)
        pb_writer_write(w, &m, &t);
    CHECK_INT(rc, 0);
    CHECK_INT(pb_writer_close(w, &err), PB_OK);
    fclose(out);
    CHECK_STR(buf, sample);
    free(buf);
    pb_reader_close(r);
    fclose(in);
}

/* The observable columns (thread, sthread, conn, attr, size): read into
 * pb_msg, written back byte for byte, a label shared across columns keeps
 * one meaning per column, and a bad size is refused with its field. */
static const char obs_sample[] =
    "id,ts,recv_ts,src,dst,type,callid,path,cause,thread,sthread,conn,attr,size\n"
    "1,1.000000000,1.000100000,A,B,call,7,p1,,w1,t0,c1,GET /x,120\n"
    "2,1.000200000,1.000300000,B,A,return,7,p1,1,t0,w1,c1,,0\n"
    "3,1.000400000,,A,B,call,8,p2,,,,\"c,2\",q,\n";

TEST(observed_columns)
{
    FILE *in = mem(obs_sample);
    pb_reader *r;
    pb_error err;
    CHECK_INT(pb_reader_open_fp(&r, in, "obs", NULL, NULL, &err), PB_OK);
    CHECK_INT(pb_reader_columns(r) & PB_COL_OBSERVED, PB_COL_OBSERVED);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    pb_writer *w;
    CHECK_INT(pb_writer_open(&w, out, "out", pb_reader_columns(r),
                             pb_reader_names(r), &err), PB_OK);
    pb_msg ms[3];
    pb_obs m[3];
    pb_truth t;
    for (int i = 0; i < 3; i++) {
        CHECK_INT(pb_reader_next_obs(r, &ms[i], &m[i], &t, &err), 1);
        pb_writer_write_obs(w, &ms[i], &m[i], &t);
    }
    const pb_names *nm = pb_reader_names(r);
    CHECK_STR(pb_thread_name(nm, m[0].thread), "w1");
    CHECK_STR(pb_thread_name(nm, m[0].sthread), "t0");
    CHECK_INT(m[0].conn, m[1].conn);
    CHECK_INT(m[0].thread, m[1].sthread);
    CHECK_STR(pb_thread_name(nm, m[0].attr), "GET /x");
    CHECK_INT(m[0].size, 120);
    CHECK_INT(m[1].size, 0);
    CHECK_INT(m[1].attr, 0);
    CHECK_INT(m[2].size, PB_SIZE_NONE);
    CHECK_INT(m[2].thread, 0);
    CHECK_STR(pb_thread_name(nm, m[2].conn), "c,2");
    CHECK_INT(pb_writer_close(w, &err), PB_OK);
    fclose(out);
    CHECK_STR(buf, obs_sample);
    free(buf);
    pb_reader_close(r);
    fclose(in);

    static const char bad[] = "ts,src,dst,size\n1,A,B,12x\n";
    in = mem(bad);
    CHECK_INT(pb_reader_open_fp(&r, in, "bad", NULL, NULL, &err), PB_OK);
    pb_msg mm;
    CHECK_INT(pb_reader_next(r, &mm, NULL, &err), PB_EPARSE);
    CHECK_INT(err.line, 2);
    CHECK_INT(err.column, 4);
    CHECK(strstr(err.msg, "size") != NULL);
    pb_reader_close(r);
    fclose(in);
}

TEST(labels_and_missing_recv)
{
    FILE *in = mem(sample);
    pb_reader *r;
    pb_error err;
    CHECK_INT(pb_reader_open_fp(&r, in, "sample", NULL, NULL, &err), PB_OK);
    pb_msg m;
    pb_truth t;
    CHECK_INT(pb_reader_next(r, &m, &t, &err), 1);
    CHECK_INT(m.callid, 7);
    CHECK_INT(m.type, PB_TYPE_CALL);
    CHECK(t.path & PB_LABEL_STRING);
    CHECK_INT(t.cause, PB_ID_NONE);
    CHECK_INT(pb_reader_next(r, &m, &t, &err), 1);
    CHECK(m.recv_ts == PB_TS_NONE);
    CHECK_INT(t.cause, 1);
    CHECK_STR(pb_strtab_str(pb_reader_names(r)->nodes, m.dst), "C,1");
    pb_reader_close(r);
    fclose(in);
}

TEST(p5_format)
{
    const char *p5 = "timestamp\toperation\tsender\trcvr\tID\n"
                     "1047680084.482205\tCALL_SENT\tnodeA\tnodeB\tid37\n"
                     "1047680084.483575\tRET_SENT\tnodeB\tnodeA\tid37\n";
    FILE *in = mem(p5);
    pb_reader *r;
    pb_error err;
    CHECK_INT(pb_reader_open_fp(&r, in, "p5", NULL, NULL, &err), PB_OK);
    pb_msg a, b;
    CHECK_INT(pb_reader_next(r, &a, NULL, &err), 1);
    CHECK_INT(pb_reader_next(r, &b, NULL, &err), 1);
    CHECK_INT(pb_reader_next(r, &b, NULL, &err), 0);
    CHECK_INT(a.ts, 1047680084482205000LL);
    CHECK_INT(a.type, PB_TYPE_CALL);
    CHECK_INT(b.type, PB_TYPE_RETURN);
    CHECK_INT(a.callid, b.callid);
    CHECK_INT(a.src, b.dst);
    CHECK_INT(a.id, 1);
    CHECK_INT(b.id, 2);
    pb_reader_close(r);
    fclose(in);
}

TEST(quoted_newline_and_spaces)
{
    /* a node name with a newline and a quote goes through libcsv; the rows
     * around it through the plain splitter; both must agree */
    const char *text = "id,ts,src,dst\n"
                       "1, 0.5 ,A,B\n"
                       "2,0.6,\"multi\nline \"\"x\"\"\",B\n"
                       "3,0.7,B,C\r\n";
    FILE *in = mem(text);
    pb_reader *r;
    pb_error err;
    CHECK_INT(pb_reader_open_fp(&r, in, "q", NULL, NULL, &err), PB_OK);
    pb_msg m;
    CHECK_INT(pb_reader_next(r, &m, NULL, &err), 1);
    CHECK_INT(m.ts, 500000000);
    CHECK_INT(pb_reader_next(r, &m, NULL, &err), 1);
    CHECK_STR(pb_strtab_str(pb_reader_names(r)->nodes, m.src), "multi\nline \"x\"");
    CHECK_INT(pb_reader_line(r), 4);
    CHECK_INT(pb_reader_next(r, &m, NULL, &err), 1);
    CHECK_STR(pb_strtab_str(pb_reader_names(r)->nodes, m.dst), "C");
    CHECK_INT(pb_reader_line(r), 5);
    CHECK_INT(pb_reader_next(r, &m, NULL, &err), 0);
    pb_reader_close(r);
    fclose(in);
}

TEST(plain_rows_read_in_place)
{
    /* plain data lines are parsed where they lie in the line (no copy of
     * their fields): each field by its own length, names and errors show
     * that field alone, an ignored column and spaces are skipped, and a
     * quoted row between plain ones still goes through libcsv */
    const char *text = "id,ts,src,zz,dst\n"
                       "1,0.25,AB,ignored,C \n"
                       "2,0.5,\"Q,R\",x,C\n"
                       "3, 0.75 ,C,y,AB\n"
                       "4,0.8x,A,z,B\n";
    FILE *in = mem(text);
    pb_reader_opts o;
    pb_reader_opts_default(&o);
    o.ignore_unknown_columns = 1;
    pb_reader *r;
    pb_error err;
    CHECK_INT(pb_reader_open_fp(&r, in, "p", NULL, &o, &err), PB_OK);
    const pb_strtab *nodes = pb_reader_names(r)->nodes;
    pb_msg m;
    CHECK_INT(pb_reader_next(r, &m, NULL, &err), 1);
    CHECK_INT(m.ts, 250000000);
    CHECK_STR(pb_strtab_str(nodes, m.src), "AB");
    CHECK_STR(pb_strtab_str(nodes, m.dst), "C");
    CHECK_INT(pb_reader_next(r, &m, NULL, &err), 1);
    CHECK_STR(pb_strtab_str(nodes, m.src), "Q,R");
    CHECK_INT(pb_reader_next(r, &m, NULL, &err), 1);
    CHECK_INT(m.ts, 750000000);
    CHECK_STR(pb_strtab_str(nodes, m.dst), "AB");
    CHECK(pb_reader_next(r, &m, NULL, &err) < 0);
    CHECK(strstr(err.msg, "got \"0.8x\"") != NULL);
    pb_reader_close(r);
    fclose(in);
}

TEST(unordered_ids_and_causes)
{
    const char *text = "id,ts,src,dst,path,cause\n"
                       "50,0.1,A,B,1,\n"
                       "7,0.2,B,C,1,50\n"
                       "90,0.3,C,B,1,7\n"
                       "8,0.4,B,A,1,90\n";
    FILE *in = mem(text);
    pb_reader *r;
    pb_error err;
    CHECK_INT(pb_reader_open_fp(&r, in, "u", NULL, NULL, &err), PB_OK);
    pb_msg m;
    pb_truth t;
    int rc, n = 0;
    while ((rc = pb_reader_next(r, &m, &t, &err)) == 1)
        n++;
    CHECK_INT(rc, 0);
    CHECK_INT(n, 4);
    CHECK_INT(t.cause, 90);
    pb_reader_close(r);
    fclose(in);
}

int main(void)
{
    RUN(quoted_newline_and_spaces);
    RUN(unordered_ids_and_causes);
    RUN(plain_rows_read_in_place);
    RUN(seconds_parse_and_format);
    RUN(duration_format_round_trip);
    RUN(number_shortest_form);
    RUN(round_trip_bytes);
    RUN(observed_columns);
    RUN(labels_and_missing_recv);
    RUN(p5_format);
    return pbtest_exit();
}
