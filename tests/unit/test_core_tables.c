/* Pattern table aggregation and ranking, option tables, result file,
 * array growth. */
#include "pbtest.h"
#include "pb_mem.h"
#include "pb_opt.h"
#include "pb_pattab.h"
#include "pb_result.h"
#include "pb_time.h"

#include <stddef.h>
#include <stdlib.h>

TEST(pattab_aggregates_by_position)
{
    pb_pattab *t;
    CHECK_INT(pb_pattab_init(&t), PB_OK);
    double n1[3] = {NAN, 0.2, 0.1}, e1[3] = {NAN, NAN, 0.05};
    double n2[3] = {NAN, 0.4, 0.3}, e2[3] = {NAN, NAN, 0.15};
    pb_pattern *p;
    CHECK_INT(pb_pattab_add(t, "A>B[C]", 3, 1.0, 1.0, n1, e1, &p), PB_OK);
    CHECK_INT(pb_pattab_add(t, "A>B[C]", 3, 1.0, 3.0, n2, e2, NULL), PB_OK);
    CHECK_INT(pb_pattab_add(t, "A>B[C]", 4, 1.0, 3.0, NULL, NULL, NULL), PB_EINVAL);
    CHECK_INT(pb_pattab_add(t, "A>D", 2, 0.5, NAN, NULL, NULL, NULL), PB_OK);
    CHECK_INT(pb_pattab_add(t, "A>D", 2, 0.75, NAN, NULL, NULL, NULL), PB_OK);
    CHECK_INT(pb_pattab_add(t, "A>D", 2, 0.25, NAN, NULL, NULL, NULL), PB_OK);
    CHECK_INT(pb_pattab_count(t), 2);
    CHECK_INT(p->count, 2);
    CHECK_NEAR(p->node_sum[1] / p->node_wsum[1], 0.3, 1e-12);
    CHECK_NEAR(p->edge_sum[2] / p->edge_wsum[2], 0.1, 1e-12);
    CHECK_NEAR(p->edge_wsum[1], 0, 0);
    CHECK_NEAR(p->latency_sum, 4.0, 1e-12);
    pb_pattern *d = pb_pattab_find(t, "A>D");
    CHECK(d != NULL);
    CHECK_INT(d->count, 3);
    CHECK_NEAR(d->score, 1.5, 1e-12);
    CHECK_NEAR(d->max_prob, 0.75, 1e-12);
    pb_pattab_rank(t, PB_RANK_COUNT);
    CHECK_STR(pb_pattab_get(t, 0)->text, "A>D");
    CHECK_INT(d->rank, 1);
    pb_pattab_rank(t, PB_RANK_SCORE);
    CHECK_STR(pb_pattab_get(t, 0)->text, "A>B[C]");
    pb_pattab_rank(t, PB_RANK_SCORE_PER_COUNT);
    CHECK_STR(pb_pattab_get(t, 0)->text, "A>B[C]");
    CHECK_STR(pb_pattab_by_index(t, 1)->text, "A>D");
    pb_pattab_close(t);
}

typedef struct params {
    int bins;
    double base;
    pb_ns window;
    int smooth;
    const char *root;
} params;

static const pb_option table[] = {
    {"bins", PB_OPT_INT, offsetof(params, bins), "340", 1, 100000, "histogram bins"},
    {"base", PB_OPT_DOUBLE, offsetof(params, base), "1.05", 1.0001, 10, "bin growth"},
    {"window", PB_OPT_DURATION, offsetof(params, window), "2s", 0, 3600, "window"},
    {"smooth", PB_OPT_BOOL, offsetof(params, smooth), "no", PB_OPT_NORANGE, "smoothing"},
    {"root", PB_OPT_STRING, offsetof(params, root), "", PB_OPT_NORANGE, "root node"},
    {NULL, PB_OPT_INT, 0, NULL, PB_OPT_NORANGE, NULL}};

TEST(options_defaults_set_validate)
{
    params p;
    pb_error err;
    CHECK_INT(pb_opt_defaults(table, &p, &err), PB_OK);
    CHECK_INT(p.bins, 340);
    CHECK_NEAR(p.base, 1.05, 0);
    CHECK_INT(p.window, 2000000000LL);
    CHECK_INT(p.smooth, 0);
    CHECK_INT(pb_opt_set_kv(table, &p, "window=30ms", &err), PB_OK);
    CHECK_INT(p.window, 30000000);
    CHECK_INT(pb_opt_set_kv(table, &p, "smooth=yes", &err), PB_OK);
    CHECK_INT(p.smooth, 1);
    CHECK_INT(pb_opt_set_kv(table, &p, "bins=0", &err), PB_EINVAL);
    CHECK(strstr(err.msg, "out of range") != NULL);
    CHECK_INT(pb_opt_set_kv(table, &p, "bins=12x", &err), PB_EINVAL);
    CHECK_INT(pb_opt_set_kv(table, &p, "binz=3", &err), PB_ENOENT);
    CHECK(strstr(err.msg, "bins") != NULL);
    CHECK_INT(pb_opt_set_kv(table, &p, "window", &err), PB_EINVAL);
    pb_strbuf s = {0};
    CHECK_INT(pb_opt_describe(table, &p, &s), PB_OK);
    CHECK_STR(pb_strbuf_str(&s), "bins=340 base=1.05 window=30ms smooth=1 root=");
    pb_strbuf_free(&s);
}

TEST(result_file_ranks_and_assigns)
{
    pb_result r;
    CHECK_INT(pb_result_init(&r, "test", "call"), PB_OK);
    pb_pattern *a, *b;
    pb_pattab_add(r.patterns, "A>B", 2, 1, 1.0, NULL, NULL, &a);
    pb_pattab_add(r.patterns, "A>B[C]", 3, 1, 2.0, NULL, NULL, &b);
    pb_pattab_add(r.patterns, "A>B[C]", 3, 1, 2.0, NULL, NULL, NULL);
    pb_result_assign(&r, 10, 1, a->index);
    pb_result_assign(&r, 11, 2, b->index);
    pb_result_meta(&r, "unmatched_calls=%d", 3);
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    const char *head[] = {"algo=test view=call"};
    CHECK_INT(pb_result_write(fp, &r, head, 1, 1, NULL), PB_OK);
    fclose(fp);
    CHECK_STR(buf,
              "# pathbench-result 1\n"
              "# algo=test view=call\n"
              "# unmatched_calls=3\n"
              "# table=patterns\n"
              "rank,pattern,count,score,max_prob,total_latency,mean_latency,node_latency,edge_delay\n"
              "1,\"A>B[C]\",2,2,1,4,2,;;,;;\n"
              "2,\"A>B\",1,1,1,1,1,;,;\n"
              "# table=assignment\n"
              "id,instance,rank\n"
              "10,1,2\n"
              "11,2,1\n"
                       "# end patterns=2 assignments=2\n");
    free(buf);
    pb_result_free(&r);
}

/* a metadata line longer than any fixed buffer is kept whole (a long
 * config's "trace: params:" line, which score compares with the trace's) */
TEST(result_meta_long_line_whole)
{
    pb_result r;
    CHECK_INT(pb_result_init(&r, "test", "path"), PB_OK);
    char v[3001];
    for (int i = 0; i < 3000; i++)
        v[i] = (char)('a' + i % 26);
    v[3000] = 0;
    CHECK_INT(pb_result_meta(&r, "short=%d", 1), PB_OK);
    CHECK_INT(pb_result_meta(&r, "trace: params: %s end", v), PB_OK);
    const char *m = pb_strbuf_str(&r.meta);
    CHECK(strlen(m) == strlen("short=1\ntrace: params: ") + 3000 + strlen(" end"));
    CHECK(!strncmp(m, "short=1\ntrace: params: abc", 26));
    CHECK(!strcmp(m + strlen(m) - 8, "ghij end"));
    pb_result_free(&r);
}

/* pb_grow: capacity doubles from `first` (or the old capacity) to the
 * first power-of-two multiple at or above need; contents are kept; a size
 * that would overflow is PB_ENOMEM and leaves array and capacity alone. */
TEST(grow_doubles_keeps_and_refuses_overflow)
{
    uint32_t *a = NULL;
    size_t cap = 0;
    CHECK_INT(pb_grow(&a, sizeof *a, &cap, 1, 16), PB_OK);
    CHECK_INT(cap, 16);
    for (uint32_t i = 0; i < 16; i++)
        a[i] = i * 7;
    CHECK_INT(pb_grow(&a, sizeof *a, &cap, 16, 16), PB_OK); /* fits: no change */
    CHECK_INT(cap, 16);
    CHECK_INT(pb_grow(&a, sizeof *a, &cap, 17, 16), PB_OK);
    CHECK_INT(cap, 32);
    CHECK_INT(pb_grow(&a, sizeof *a, &cap, 100, 16), PB_OK); /* 32 -> 64 -> 128 */
    CHECK_INT(cap, 128);
    CHECK_INT(a[15], 105);
    uint32_t *keep = a;
    CHECK_INT(pb_grow(&a, sizeof *a, &cap, SIZE_MAX / 2, 16), PB_ENOMEM);
    CHECK(a == keep);
    CHECK_INT(cap, 128);
    free(a);
    uint32_t *b = NULL, c32 = 0;
    CHECK_INT(pb_grow32(&b, sizeof *b, &c32, 5, 4), PB_OK);
    CHECK_INT(c32, 8);
    CHECK_INT(pb_grow32(&b, sizeof *b, &c32, UINT32_MAX, 4), PB_ENOMEM); /* 2^32 > 32 bits */
    CHECK_INT(c32, 8);
    free(b);
}

/* pb_grow_parallel: arrays sharing one capacity all reach the capacity
 * pb_grow gives and keep their contents (each with its own element size);
 * when one cannot grow, the capacity stays and every array stays usable. */
TEST(grow_parallel_shares_one_capacity)
{
    uint32_t *a = NULL;
    double *d = NULL;
    uint64_t *w = NULL; /* two entries a slot, as linking's sig */
    size_t cap = 0;
    void *const arrs[] = {&a, &d, &w};
    size_t sz[] = {sizeof *a, sizeof *d, 2 * sizeof *w};
    CHECK_INT(pb_grow_parallel(&cap, 3, 4, 3, arrs, sz), PB_OK);
    CHECK_INT(cap, 4);
    for (uint32_t i = 0; i < 4; i++) {
        a[i] = i + 1;
        d[i] = 0.5 * i;
        w[2 * i] = w[2 * i + 1] = 100 + i;
    }
    CHECK_INT(pb_grow_parallel(&cap, 4, 4, 3, arrs, sz), PB_OK); /* fits */
    CHECK_INT(cap, 4);
    CHECK_INT(pb_grow_parallel(&cap, 9, 4, 3, arrs, sz), PB_OK); /* 4 -> 8 -> 16 */
    CHECK_INT(cap, 16);
    a[15] = 7;
    d[15] = 7;
    w[31] = 7; /* the last element of each is there (ASan checks) */
    CHECK(a[3] == 4 && d[3] == 1.5 && w[6] == 103 && w[7] == 103);
    double *kd = d;
    sz[1] = SIZE_MAX / 16; /* 32 of d would overflow size_t */
    CHECK_INT(pb_grow_parallel(&cap, 32, 4, 3, arrs, sz), PB_ENOMEM);
    CHECK(d == kd); /* the array that cannot grow is as it was */
    CHECK_INT(cap, 16);
    CHECK(a[3] == 4 && a[15] == 7 && d[15] == 7 && w[31] == 7); /* all still valid */
    /* pb_grow is the one-array case: the same capacities */
    uint32_t *b = NULL;
    size_t cb = 0;
    CHECK_INT(pb_grow(&b, sizeof *b, &cb, 9, 4), PB_OK);
    CHECK_INT(cb, 16);
    free(a);
    free(d);
    free(w);
    free(b);
}

int main(void)
{
    RUN(pattab_aggregates_by_position);
    RUN(options_defaults_set_validate);
    RUN(result_file_ranks_and_assigns);
    RUN(result_meta_long_line_whole);
    RUN(grow_doubles_keeps_and_refuses_overflow);
    RUN(grow_parallel_shares_one_capacity);
    return pbtest_exit();
}
