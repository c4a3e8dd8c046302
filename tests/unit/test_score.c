/* The scorer: result reading, pattern / instance / message levels, top-N
 * with ties and tolerance, latency errors, bad input. */
#include "pbtest.h"
#include "pb_algo.h"
#include "score.h"
#include "tv.h"

#include <stdlib.h>

#define MS(x) ((pb_ns)((x) * 1000000LL))
#define N PB_ID_NONE

static score_result *read_raw(const char *text, const char *name, int *rc,
                              pb_error *err)
{
    FILE *fp = fmemopen((void *)text, strlen(text), "r");
    score_result *r = NULL;
    pb_error_clear(err);
    *rc = score_result_read_fp(fp, name, &r, err);
    fclose(fp);
    return r;
}

/* The hand-written results below leave out the end line: add it, with the
 * row counts of the two tables (one row per line), unless there is one. */
static score_result *read_str(const char *text, const char *name, int *rc,
                              pb_error *err)
{
    if (strncmp(text, "# pathbench-result", 18) || strstr(text, "\n# end "))
        return read_raw(text, name, rc, err);
    size_t np = 0, na = 0;
    int state = 0; /* 1, 3: header next; 2, 4: rows */
    for (const char *l = text; *l;) {
        size_t len = strcspn(l, "\n");
        if (!strncmp(l, "# table=patterns", 16))
            state = 1;
        else if (!strncmp(l, "# table=assignment", 18))
            state = 3;
        else if (len && l[0] != '#') {
            if (state == 1 || state == 3)
                state++;
            else if (state == 2)
                np++;
            else if (state == 4)
                na++;
        }
        l += len + (l[len] == '\n');
    }
    char *full = NULL;
    size_t flen = 0;
    FILE *fp = open_memstream(&full, &flen);
    fprintf(fp, "%s# end patterns=%zu assignments=%zu\n", text, np, na);
    fclose(fp);
    score_result *r = read_raw(full, name, rc, err);
    free(full);
    return r;
}


static score_report *score_files(const char *trace, const char *result,
                                 const score_opts *o, tv_truth **tvp,
                                 score_result **resp, pb_trace **tp)
{
    pb_error err;
    pb_reader_opts ro;
    pb_reader_opts_default(&ro);
    *tp = NULL;
    *tvp = NULL;
    *resp = NULL;
    if (pb_trace_load(trace, &ro, 1, tp, &err) != PB_OK ||
        score_result_read(result, resp, &err) != PB_OK) {
        printf("# %s\n", err.msg);
        return NULL;
    }
    tv_view v;
    if (tv_view_parse((*resp)->view, &v) != PB_OK ||
        tv_build(*tp, v, tvp, &err) != PB_OK)
        return NULL;
    score_report *rep = NULL;
    if (score_compute(*tvp, *resp, o, &rep, &err) != PB_OK)
        printf("# %s\n", err.msg);
    return rep;
}

/* Seed 000, 7.5.1: true A>B>C>D twice; inferred one A>B>C>D, one A>B and
 * one C>D. */
TEST(paper_example_751)
{
    score_opts o;
    score_opts_default(&o);
    tv_truth *tv;
    score_result *res;
    pb_trace *t;
    score_report *rep = score_files("tests/data/score/p751.csv",
                                    "tests/data/score/p751.result", &o, &tv,
                                    &res, &t);
    CHECK(rep != NULL);
    if (rep) {
        CHECK_STR(rep->view, "message");
        CHECK_INT(rep->true_patterns, 1);
        CHECK_INT(rep->inferred_patterns, 3);
        CHECK_INT(rep->pattern_fn, 0);
        CHECK_INT(rep->pattern_fp, 2);
        CHECK_INT(rep->true_instances, 2);
        CHECK_INT(rep->inferred_instances, 3);
        CHECK_INT(rep->instance_fn, 1);
        CHECK_INT(rep->instance_fp, 2);
        CHECK_NEAR(rep->instance_fn_rate, 0.5, 1e-12);
        CHECK_NEAR(rep->instance_fp_rate, 2.0 / 3.0, 1e-12);
        CHECK(rep->has_messages);
        CHECK_INT(rep->messages, 6);
        CHECK_INT(rep->messages_wrong, 3);
        CHECK_NEAR(rep->message_error_rate, 0.5, 1e-12);
        CHECK_INT(rep->instances_exact, 1);
        CHECK_NEAR(rep->exact_accuracy, 0.5, 1e-12);
        CHECK_INT(rep->latency_nodes, 2);
        CHECK_NEAR(rep->latency_error_max, 0, 1e-9);
    }
    score_report_close(rep);
    /* ignoring patterns with fewer than 2 instances drops all three */
    o.min_instances = 2;
    pb_error err;
    CHECK_INT(score_compute(tv, res, &o, &rep, &err), PB_OK);
    CHECK_INT(rep->inferred_patterns, 0);
    CHECK_INT(rep->dropped_patterns, 3);
    CHECK_INT(rep->pattern_fn, 1);
    CHECK_INT(rep->instance_fn, 2);
    CHECK_INT(rep->messages_wrong, 6);
    CHECK(isnan(rep->instance_fp_rate));
    score_report_close(rep);
    tv_close(tv);
    score_result_close(res);
    pb_trace_close(t);
}

/* One single-message instance per count: pattern A>X for each name. */
static pb_trace *counted_trace(const char *const *names, const int *counts,
                               size_t n)
{
    pb_trace *t;
    pb_trace_new(&t);
    uint64_t id = 1;
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < counts[i]; k++, id++)
            pb_trace_add(t, id, MS(id), PB_TS_NONE, "A", names[i], PB_TYPE_MSG,
                         N, id, N);
    return t;
}

static const char *const topn_result =
    "# pathbench-result 1\n"
    "# algo=hand view=message\n"
    "# table=patterns\n"
    "rank,pattern,count,score\n"
    "1,A>B,10,10\n"
    "2,A>C,8,8\n"
    "3,A>E,6,6\n"
    "4,A>X,6,6\n"
    "5,A>D,4,20\n"
    "6,A>F,1,1\n";

TEST(topn_ties_and_tolerance)
{
    /* true: B 10, C 9, D 5, E 5 (tie: D ranks first by text), F 1 */
    static const char *const names[] = {"B", "C", "D", "E", "F"};
    static const int counts[] = {10, 9, 5, 5, 1};
    pb_trace *t = counted_trace(names, counts, 5);
    tv_truth *tv;
    pb_error err;
    CHECK_INT(tv_build(t, TV_MESSAGE, &tv, &err), PB_OK);
    int rc;
    score_result *res = read_str(topn_result, "topn", &rc, &err);
    CHECK_INT(rc, PB_OK);
    score_opts o;
    score_opts_default(&o);
    score_report *rep;
    CHECK_INT(score_compute(tv, res, &o, &rep, &err), PB_OK);
    size_t m, mt;
    /* inferred by count: B10 C8 E6 X6 (tie: E first by text) D4 F1 */
    score_topn(rep, 1, 0, &m, &mt);
    CHECK_INT(m, 0);
    score_topn(rep, 2, 0, &m, &mt);
    CHECK_INT(m, 0);
    /* N=3: true {B,C,D}, inferred {B,C,E}: D (4) misses the 3rd (6) */
    score_topn(rep, 3, 2, &m, &mt);
    CHECK_INT(m, 1);
    CHECK_INT(mt, 1);
    score_topn(rep, 3, 33, &m, &mt);   /* 4 < 0.67 * 6 */
    CHECK_INT(mt, 1);
    score_topn(rep, 3, 34, &m, &mt);   /* 4 >= 0.66 * 6 */
    CHECK_INT(mt, 0);
    /* N=4: true {B,C,D,E}, inferred {B,C,E,X}: D again */
    score_topn(rep, 4, 0, &m, &mt);
    CHECK_INT(m, 1);
    /* N=5: F (1) misses the 5th (D, 4) */
    score_topn(rep, 5, 2, &m, &mt);
    CHECK_INT(m, 1);
    CHECK_INT(mt, 1);
    score_topn(rep, 5, 75, &m, &mt);
    CHECK_INT(mt, 0);
    /* N=6 and beyond: every true pattern is in */
    score_topn(rep, 6, 0, &m, &mt);
    CHECK_INT(m, 0);
    score_topn(rep, 50, 0, &m, &mt);
    CHECK_INT(m, 0);
    CHECK_INT(rep->pattern_fp, 1);
    CHECK_INT(rep->instances_matched, 10 + 8 + 4 + 5 + 1);
    /* the curve, one call for every N */
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    o.tol[0] = 2;
    o.tol[1] = 34;
    o.ntol = 2;
    rep->opts = o;
    score_write_curve(fp, rep);
    fclose(fp);
    CHECK_STR(buf, "n,missing,fn_rate,missing_t2,fn_rate_t2,missing_t34,fn_rate_t34\n"
                   "1,0,0,0,0,0,0\n"
                   "2,0,0,0,0,0,0\n"
                   "3,1,0.333333,1,0.333333,0,0\n"
                   "4,1,0.25,1,0.25,0,0\n"
                   "5,1,0.2,1,0.2,1,0.2\n");
    free(buf);
    score_report_close(rep);

    /* the reading: D's true count 5 against the 3rd inferred, 6 */
    o.tol_true_count = 1;
    CHECK_INT(score_compute(tv, res, &o, &rep, &err), PB_OK);
    score_topn(rep, 3, 10, &m, &mt);
    CHECK_INT(mt, 1);   /* |5 - 6| > 0.6 */
    score_topn(rep, 3, 17, &m, &mt);
    CHECK_INT(mt, 0);   /* |5 - 6| <= 1.02 */
    score_report_close(rep);

    /* ranked by score, D (score 20) comes first and pushes B out of top 1 */
    o.tol_true_count = 0;
    o.rank_by = SCORE_RANK_SCORE;
    CHECK_INT(score_compute(tv, res, &o, &rep, &err), PB_OK);
    score_topn(rep, 1, 49, &m, &mt);
    CHECK_INT(m, 1);
    CHECK_INT(mt, 1);   /* 10 < 0.51 * 20 */
    score_topn(rep, 1, 50, &m, &mt);
    CHECK_INT(mt, 0);
    score_report_close(rep);
    score_result_close(res);
    tv_close(tv);
    pb_trace_close(t);
}

TEST(topn_pattern_never_inferred_is_never_forgiven)
{
    static const char *const names[] = {"B", "C"};
    static const int counts[] = {10, 9};
    pb_trace *t = counted_trace(names, counts, 2);
    tv_truth *tv;
    pb_error err;
    CHECK_INT(tv_build(t, TV_MESSAGE, &tv, &err), PB_OK);
    int rc;
    score_result *res = read_str("# pathbench-result 1\n# algo=h view=message\n"
                                 "# table=patterns\nrank,pattern,count\n"
                                 "1,A>B,10\n2,A>Y,9\n3,A>Z,9\n",
                                 "x", &rc, &err);
    CHECK_INT(rc, PB_OK);
    score_opts o;
    score_opts_default(&o);
    score_report *rep;
    CHECK_INT(score_compute(tv, res, &o, &rep, &err), PB_OK);
    size_t m, mt;
    score_topn(rep, 2, 100, &m, &mt);
    CHECK_INT(m, 1);
    CHECK_INT(mt, 1);
    CHECK_INT(rep->pattern_fn, 1);
    CHECK_INT(rep->pattern_fp, 2);
    score_report_close(rep);
    score_result_close(res);
    tv_close(tv);
    pb_trace_close(t);
}

/* The oracle's own result, written and read back, with one assignment row
 * removed. */
TEST(oracle_perfect_and_one_message_removed)
{
    pb_reader_opts ro;
    pb_reader_opts_default(&ro);
    pb_trace *t;
    pb_error err;
    CHECK_INT(pb_trace_load("tests/data/score/rpc.csv", &ro, 1, &t, &err), PB_OK);
    const pb_algo *a = pb_algo_find("truth");
    void *params = calloc(1, a->params_size);
    pb_opt_defaults(a->options, params, &err);
    pb_result res;
    pb_result_init(&res, a->name, a->view);
    CHECK_INT(a->run_truth(t, params, &res, &err), PB_OK);
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    const char *head[] = {"algo=truth view=call trace=rpc.csv"};
    CHECK_INT(pb_result_write(fp, &res, head, 1, 1, &err), PB_OK);
    fclose(fp);
    tv_truth *tv;
    CHECK_INT(tv_build(t, TV_CALL, &tv, &err), PB_OK);
    int rc;
    score_result *sr = read_str(buf, "oracle", &rc, &err);
    CHECK_INT(rc, PB_OK);
    score_opts o;
    score_opts_default(&o);
    score_report *rep;
    CHECK_INT(score_compute(tv, sr, &o, &rep, &err), PB_OK);
    CHECK_INT(rep->pattern_fp + rep->pattern_fn, 0);
    CHECK_INT(rep->instance_fp + rep->instance_fn, 0);
    CHECK_INT(rep->messages_wrong, 0);
    CHECK_NEAR(rep->exact_accuracy, 1.0, 0);
    CHECK(rep->latency_error_max < 1e-6);
    score_report_close(rep);
    score_result_close(sr);
    /* drop message 3 from its instance: all six of that instance go wrong
     * (the oracle's rows carry a parent: "3,0,1,PARENT") */
    CHECK(strstr(buf, "id,instance,rank,parent\n") != NULL);
    char *row = strstr(buf, "\n3,0,1,");
    CHECK(row != NULL);
    if (row) {
        char *next = strchr(row + 1, '\n');
        memmove(row + 1, next + 1, strlen(next + 1) + 1);
        /* the end line still counts 12 assignments: a cut file */
        sr = read_str(buf, "oracle-minus-3", &rc, &err);
        CHECK_INT(rc, PB_EPARSE);
        CHECK(sr == NULL && strstr(err.msg, "12 assignments") != NULL);
        char *end = strstr(buf, "assignments=12\n");
        CHECK(end != NULL);
        if (end)
            memcpy(end, "assignments=11\n", 15);
        sr = read_str(buf, "oracle-minus-3", &rc, &err);
        CHECK_INT(rc, PB_OK);
        CHECK_INT(score_compute(tv, sr, &o, &rep, &err), PB_OK);
        CHECK_INT(rep->pattern_fp + rep->pattern_fn, 0);
        CHECK_INT(rep->messages_wrong, 6);
        CHECK_NEAR(rep->message_error_rate, 0.5, 1e-12);
        CHECK_NEAR(rep->exact_accuracy, 0.5, 1e-12);
        score_report_close(rep);
        score_result_close(sr);
    }
    free(buf);
    tv_close(tv);
    pb_result_free(&res);
    free(params);
    pb_trace_close(t);
}

TEST(latency_relative_error)
{
    pb_reader_opts ro;
    pb_reader_opts_default(&ro);
    pb_trace *t;
    pb_error err;
    CHECK_INT(pb_trace_load("tests/data/score/p751.csv", &ro, 1, &t, &err), PB_OK);
    tv_truth *tv;
    CHECK_INT(tv_build(t, TV_MESSAGE, &tv, &err), PB_OK);
    int rc;
    /* true node latencies: B 0.009, C 0.009; given B 0.0099 (+10%) */
    score_result *r = read_str("# pathbench-result 1\n# algo=h view=message\n"
                               "# table=patterns\nrank,pattern,count,node_latency\n"
                               "1,A>B[C[D]],2,;0.0099;0.009;\n"
                               "2,A>B,1,;1.2e-309\n", "lat", &rc, &err);
    CHECK_INT(rc, PB_OK);
    score_opts o;
    score_opts_default(&o);
    score_report *rep;
    CHECK_INT(score_compute(tv, r, &o, &rep, &err), PB_OK);
    CHECK_INT(rep->latency_nodes, 2);
    CHECK_NEAR(rep->latency_error_max, 0.1, 1e-9);
    CHECK_NEAR(rep->latency_error_median, 0.05, 1e-9);
    CHECK(!rep->has_messages);   /* no assignment table */
    CHECK(isnan(rep->message_error_rate));
    score_report_close(rep);
    score_result_close(r);
    tv_close(tv);
    pb_trace_close(t);
}

TEST(reader_canonicalizes_and_moves_positions)
{
    pb_error err;
    int rc;
    score_result *r = read_str("# pathbench-result 1\n"
                               "# algo=nesting view=call trace=t.csv\n"
                               "# params: view=message\n"
                               "# table=patterns\n"
                               "pattern,count,rank,node_latency,edge_delay\n"
                               "\"A>B[D,C]\",3,1,;1;2;3,;;4;5\n",
                               "canon", &rc, &err);
    CHECK_INT(rc, PB_OK);
    if (!r)
        return;
    CHECK_STR(r->algo, "nesting");
    CHECK_STR(r->view, "call");
    CHECK_STR(r->trace, "t.csv");
    CHECK_INT(r->npats, 1);
    CHECK_STR(r->pats[0].text, "A>B[C,D]");
    CHECK(isnan(r->pats[0].node_lat[0]));
    CHECK_NEAR(r->pats[0].node_lat[1], 1, 0);
    CHECK_NEAR(r->pats[0].node_lat[2], 3, 0);  /* C */
    CHECK_NEAR(r->pats[0].node_lat[3], 2, 0);  /* D */
    CHECK_NEAR(r->pats[0].edge_delay[2], 5, 0);
    CHECK_INT(r->has_assign, 0);
    score_result_close(r);
}

TEST(bad_input_names_file_and_line)
{
    pb_error err;
    int rc;
    score_result *r;
    /* a malformed pattern: line and character */
    r = read_str("# pathbench-result 1\n# algo=h view=message\n# table=patterns\n"
                 "rank,pattern,count\n1,A>B,1\n2,A>B[C,1\n", "bad.csv", &rc, &err);
    CHECK_INT(rc, PB_EPARSE);
    CHECK(r == NULL);
    CHECK_STR(err.file, "bad.csv");
    CHECK_INT(err.line, 6);
    CHECK(strstr(err.msg, "character") != NULL);
    /* a message id the truth trace lacks */
    pb_reader_opts ro;
    pb_reader_opts_default(&ro);
    pb_trace *t;
    CHECK_INT(pb_trace_load("tests/data/score/p751.csv", &ro, 1, &t, &err), PB_OK);
    tv_truth *tv;
    CHECK_INT(tv_build(t, TV_MESSAGE, &tv, &err), PB_OK);
    r = read_str("# pathbench-result 1\n# algo=h view=message\n# table=patterns\n"
                 "rank,pattern,count\n1,A>B,2\n# table=assignment\n"
                 "id,instance,rank\n1,5,1\n99,6,1\n", "ids.csv", &rc, &err);
    CHECK_INT(rc, PB_OK);
    if (!r)
        return;
    score_opts o;
    score_opts_default(&o);
    score_report *rep = NULL;
    pb_error_clear(&err);
    CHECK_INT(score_compute(tv, r, &o, &rep, &err), PB_ENOENT);
    CHECK(rep == NULL);
    CHECK_STR(err.file, "ids.csv");
    CHECK_INT(err.line, 9);
    CHECK(strstr(err.msg, "99") != NULL);
    score_result_close(r);
    tv_close(tv);
    pb_trace_close(t);

    static const struct {
        const char *text;
        long line;
        const char *what;
    } cases[] = {
        {"pathbench-result 1\n", 1, "pathbench-result"},
        {"# pathbench-result 1\n# table=patterns\nrank,pattern,count\n"
         "1,A>B,1\n2,A>B,2\n", 5, "twice"},
        {"# pathbench-result 1\n# table=patterns\nrank,pattern,count\n"
         "1,A>B,1\n1,A>C,2\n", 5, "rank 1"},
        {"# pathbench-result 1\n# table=patterns\nrank,pattern,count\n"
         "1,A>B\n", 4, "fields"},
        {"# pathbench-result 1\n# table=patterns\nrank,pattern\n", 3, "count"},
        {"# pathbench-result 1\n# table=patterns\nrank,pattern,count\n"
         "1,A>B,x\n", 4, "count"},
        {"# pathbench-result 1\n# table=patterns\nrank,pattern,count,node_latency\n"
         "1,A>B,1,1;2;3\n", 4, "more than 2"},
        {"# pathbench-result 1\n# table=patterns\nrank,pattern,count\n"
         "1,A>B,1\n2,A>C,1\n# table=assignment\nid,instance,rank\n"
         "1,1,1\n2,1,2\n", 9, "rank 1 on line 8"},
        {"# pathbench-result 1\n# table=patterns\nrank,pattern,count\n"
         "1,A>B,1\n# table=assignment\nid,instance,rank\n1,1,7\n", 7,
         "names no row"},
        {"# pathbench-result 1\n# table=patterns\nrank,pattern,count\n"
         "1,\"A>B,1\n", 4, "never ends"},
        {"# pathbench-result 1\n# table=patterns\nrank,pattern,count\n"
         "1,A,1\n", 4, "character"},
        {"# pathbench-result 1\nrank,pattern,count\n", 2, "table="},
        {"", 0, "empty"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        r = read_str(cases[i].text, "case", &rc, &err);
        if (rc == PB_OK || r != NULL) {
            PBT_FAIL("case %zu accepted", i);
            score_result_close(r);
            continue;
        }
        if (err.line != cases[i].line || !strstr(err.msg, cases[i].what))
            PBT_FAIL("case %zu: line %ld \"%s\"; expected line %ld and \"%s\"",
                     i, err.line, err.msg, cases[i].line, cases[i].what);
    }
}

TEST(csv_row_format)
{
    pb_reader_opts ro;
    pb_reader_opts_default(&ro);
    score_opts o;
    score_opts_default(&o);
    tv_truth *tv;
    score_result *res;
    pb_trace *t;
    score_report *rep = score_files("tests/data/score/p751.csv",
                                    "tests/data/score/p751.result", &o, &tv,
                                    &res, &t);
    CHECK(rep != NULL);
    if (!rep)
        return;
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    score_write_header(fp, rep);
    score_write_row(fp, rep);
    fclose(fp);
    /* the contract's columns, in order, at the start */
    CHECK(!strncmp(buf, "algo,view,true_patterns,inferred_patterns,pattern_fp,"
                        "pattern_fn,true_instances,inferred_instances,instance_fp,"
                        "instance_fn,instance_fp_rate,instance_fn_rate,"
                        "message_error_rate,exact_accuracy,set_accuracy,tw_accuracy,"
                        "latency_error_median,",
                   200));
    char *row = strchr(buf, '\n') + 1;
    CHECK(!strncmp(row, "handmade,message,1,3,2,0,2,3,2,1,0.666667,0.5,0.5,0.5,", 54));
    /* as many fields in the row as in the header */
    size_t nh = 0, nr = 0;
    for (char *c = buf; c < row; c++)
        nh += *c == ',';
    for (char *c = row; *c; c++)
        nr += *c == ',';
    CHECK_INT(nh, nr);
    free(buf);
    score_report_close(rep);
    tv_close(tv);
    score_result_close(res);
    pb_trace_close(t);
}

/* Issue 16.9: a result file cut anywhere (in either table, or before its
 * end line) is refused; only the whole file (with or without its last
 * newline) is read. */
TEST(every_cut_of_a_result_is_refused)
{
    FILE *fp = fopen("tests/data/score/p751.result", "r");
    CHECK(fp != NULL);
    if (!fp)
        return;
    char text[4096];
    size_t len = fread(text, 1, sizeof text - 1, fp);
    fclose(fp);
    text[len] = 0;
    int rc;
    pb_error err;
    score_result *r = read_raw(text, "whole", &rc, &err);
    CHECK_INT(rc, PB_OK);
    score_result_close(r);
    size_t refused = 0;
    for (size_t k = 0; k + 1 < len; k++) {
        char cut[4096];
        memcpy(cut, text, k);
        cut[k] = 0;
        r = read_raw(cut, "cut", &rc, &err);
        if (rc == PB_OK) {
            PBT_FAIL("a cut after %zu of %zu bytes was accepted", k, len);
            score_result_close(r);
            break;
        }
        refused++;
    }
    CHECK_INT(refused, len - 1);
    /* a cut right after a patterns row, and in the assignment table:
     * named by the end line */
    r = read_raw("# pathbench-result 1\n# algo=h view=message\n# table=patterns\n"
                 "rank,pattern,count\n1,A>B,1\n", "cut", &rc, &err);
    CHECK_INT(rc, PB_EPARSE);
    CHECK(strstr(err.msg, "no end line") != NULL);
}

TEST(end_line_counts_and_place)
{
    static const struct {
        const char *text;
        long line;
        const char *what;
    } cases[] = {
        {"# pathbench-result 1\n# table=patterns\nrank,pattern,count\n"
         "1,A>B,1\n2,A>C,1\n# end patterns=1 assignments=0\n", 6, "counts 1 patterns"},
        {"# pathbench-result 1\n# table=patterns\nrank,pattern,count\n"
         "1,A>B,1\n# table=assignment\nid,instance,rank\n1,1,1\n2,1,1\n"
         "# end patterns=1 assignments=3\n", 9, "3 assignments"},
        {"# pathbench-result 1\n# table=patterns\nrank,pattern,count\n"
         "1,A>B,1\n# end patterns=1 assignments=0\n2,A>C,1\n", 6, "after the end"},
        {"# pathbench-result 1\n# table=patterns\nrank,pattern,count\n"
         "1,A>B,1\n# end patterns=1\n", 5, "malformed end"},
        /* one message in two instances (issue 16.11) */
        {"# pathbench-result 1\n# table=patterns\nrank,pattern,count\n"
         "1,A>B,1\n2,A>C,1\n# table=assignment\nid,instance,rank\n"
         "7,1,1\n8,2,2\n7,2,2\n# end patterns=2 assignments=3\n", 10,
         "message 7 is ascribed to instance 2 here and to instance 1 on line 8"},
        /* more instances than the pattern's count */
        {"# pathbench-result 1\n# table=patterns\nrank,pattern,count\n"
         "1,A>B,1\n# table=assignment\nid,instance,rank\n"
         "7,1,1\n8,2,1\n# end patterns=1 assignments=2\n", 4,
         "count 1 but 2 instances"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc;
        pb_error err;
        score_result *r = read_raw(cases[i].text, "case", &rc, &err);
        if (rc == PB_OK || r != NULL) {
            PBT_FAIL("case %zu accepted", i);
            score_result_close(r);
            continue;
        }
        if (err.line != cases[i].line || !strstr(err.msg, cases[i].what))
            PBT_FAIL("case %zu: line %ld \"%s\"; expected line %ld and \"%s\"",
                     i, err.line, err.msg, cases[i].line, cases[i].what);
    }
}

/* Issue 16.10: a result carries the fingerprint of its trace; another
 * trace is refused, a thinned copy is accepted when the sniffer says so. */
TEST(fingerprint_ties_result_to_trace)
{
    static const char *const names[] = {"B", "C"};
    static const int counts[] = {3, 2};
    pb_trace *t = counted_trace(names, counts, 2);
    pb_trace_add_meta(t, "generator=maketrace config=x.conf seed=7");
    pb_fingerprint fp;
    pb_fingerprint_of(t->msgs, t->n, t->names->nodes, &fp);
    char line[96], text[1024];
    pb_fingerprint_format(&fp, line, sizeof line);
    static const char *const body = "# table=patterns\nrank,pattern,count\n"
                                    "1,A>B,3\n2,A>C,2\n";
    int rc;
    pb_error err;
    /* the same trace */
    snprintf(text, sizeof text, "# pathbench-result 1\n# algo=h view=message\n"
             "# %s\n# trace: generator=maketrace config=x.conf seed=7\n%s", line, body);
    score_result *r = read_str(text, "same", &rc, &err);
    CHECK_INT(rc, PB_OK);
    CHECK(r && r->has_fp);
    CHECK_INT(score_check_trace(r, t, "t.csv", &err), PB_OK);
    score_result_close(r);
    /* another seed */
    snprintf(text, sizeof text, "# pathbench-result 1\n# algo=h view=message\n"
             "# %s\n# trace: generator=maketrace config=x.conf seed=8\n%s", line, body);
    r = read_str(text, "seed8", &rc, &err);
    CHECK_INT(rc, PB_OK);
    CHECK_INT(score_check_trace(r, t, "t.csv", &err), PB_EINVAL);
    CHECK(strstr(err.msg, "seed=8") && strstr(err.msg, "seed=7"));
    score_result_close(r);
    /* another trace with as many messages: the ids differ */
    snprintf(text, sizeof text, "# pathbench-result 1\n# algo=h view=message\n"
             "# fingerprint: messages=5 ids=%016llx\n%s",
             (unsigned long long)(fp.ids + 1), body);
    r = read_str(text, "ids", &rc, &err);
    CHECK_INT(rc, PB_OK);
    CHECK_INT(score_check_trace(r, t, "t.csv", &err), PB_EINVAL);
    CHECK(strstr(err.msg, "5 messages") != NULL);
    score_result_close(r);
    /* 4 messages: refused, unless a sniffer line took 5 to 4 */
    snprintf(text, sizeof text, "# pathbench-result 1\n# algo=h view=message\n"
             "# fingerprint: messages=4 ids=0123456789abcdef\n%s", body);
    r = read_str(text, "fewer", &rc, &err);
    CHECK_INT(score_check_trace(r, t, "t.csv", &err), PB_EINVAL);
    score_result_close(r);
    snprintf(text, sizeof text, "# pathbench-result 1\n# algo=h view=message\n"
             "# fingerprint: messages=4 ids=0123456789abcdef\n"
             "# trace: sniffer: messages=5 kept=4 dropped=1\n%s", body);
    r = read_str(text, "sniffed", &rc, &err);
    CHECK_INT(score_check_trace(r, t, "t.csv", &err), PB_OK);
    score_result_close(r);
    /* a sniffer line with other counts does not excuse it */
    snprintf(text, sizeof text, "# pathbench-result 1\n# algo=h view=message\n"
             "# fingerprint: messages=4 ids=0123456789abcdef\n"
             "# trace: sniffer: messages=9 kept=4 dropped=5\n%s", body);
    r = read_str(text, "sniffed9", &rc, &err);
    CHECK_INT(score_check_trace(r, t, "t.csv", &err), PB_EINVAL);
    score_result_close(r);
    /* a malformed fingerprint line is an error of the file */
    r = read_str("# pathbench-result 1\n# fingerprint: messages=x\n"
                 "# table=patterns\nrank,pattern,count\n1,A>B,1\n", "badfp", &rc, &err);
    CHECK_INT(rc, PB_EPARSE);
    CHECK_INT(err.line, 2);
    pb_trace_close(t);
}

/* Issue 16.14: a long field is quoted short, and the message still ends
 * with what was expected. */
TEST(long_fields_quoted_short)
{
    char text[8192];
    char big[5001];
    memset(big, 'x', 5000);
    big[5000] = 0;
    snprintf(text, sizeof text, "# pathbench-result 1\n# table=patterns\n"
             "rank,pattern,count\n1,A>B,%s\n", big);
    int rc;
    pb_error err;
    score_result *r = read_str(text, "long", &rc, &err);
    CHECK_INT(rc, PB_EPARSE);
    CHECK(r == NULL);
    CHECK(strlen(err.msg) < 200);
    CHECK(strstr(err.msg, "expected an integer >= 0") != NULL);
    snprintf(text, sizeof text, "# pathbench-result 1\n# table=patterns\n"
             "rank,pattern,count\n1,A>B[%s,1\n", big);
    r = read_str(text, "longpat", &rc, &err);
    CHECK_INT(rc, PB_EPARSE);
    CHECK(strstr(err.msg, "expected") != NULL);
    CHECK(strlen(err.msg) < 300);
}

int main(void)
{
    RUN(paper_example_751);
    RUN(topn_ties_and_tolerance);
    RUN(topn_pattern_never_inferred_is_never_forgiven);
    RUN(oracle_perfect_and_one_message_removed);
    RUN(latency_relative_error);
    RUN(reader_canonicalizes_and_moves_positions);
    RUN(bad_input_names_file_and_line);
    RUN(csv_row_format);
    RUN(every_cut_of_a_result_is_refused);
    RUN(end_line_counts_and_place);
    RUN(fingerprint_ties_result_to_trace);
    RUN(long_fields_quoted_short);
    return pbtest_exit();
}
