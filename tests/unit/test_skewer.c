/* Unit tests of the skewer library: clock arithmetic, specs, the streaming
 * re-sort, random clocks and offset estimation. */
#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <string.h>

#include "pbtest.h"
#include "pb_strtab.h"
#include "skew.h"

/* skew then de-skew gives every timestamp back for offsets and
 * non-negative drift; a slow clock is exact except where it repeats a ns */
TEST(test_skewer_clock_roundtrip)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 11);
    const int64_t drifts[] = {0, 1, 50 * SKEW_PPT_PER_PPM, 123456789,
                              SKEW_DRIFT_MAX, -50 * SKEW_PPT_PER_PPM,
                              -SKEW_DRIFT_MAX};
    const pb_ns offs[] = {0, 30000000, -30000000, 1, -7, 5000000000LL};
    const pb_ns refs[] = {0, 250000000000LL, -3};
    long bad = 0, slow_repeats = 0, slow_wrong = 0;
    for (size_t di = 0; di < sizeof drifts / sizeof *drifts; di++)
        for (size_t oi = 0; oi < sizeof offs / sizeof *offs; oi++)
            for (size_t ri = 0; ri < 3; ri++) {
                skew_clock c = {offs[oi], drifts[di]};
                for (int k = 0; k < 3000; k++) {
                    pb_ns t = (pb_ns)(gsl_rng_uniform(rng) * 4e18);
                    if (k % 3 == 0)
                        t = (pb_ns)gsl_rng_uniform_int(rng, 100000);
                    pb_ns y, back, y1;
                    CHECK_INT(skew_clock_apply(&c, refs[ri], t, &y), PB_OK);
                    CHECK_INT(skew_clock_invert(&c, refs[ri], y, &back), PB_OK);
                    if (drifts[di] >= 0) {
                        if (back != t)
                            bad++;
                    } else if (back != t) {
                        /* only where the clock repeats: C(t-1) == C(t) */
                        skew_clock_apply(&c, refs[ri], t - 1, &y1);
                        slow_repeats++;
                        if (y1 != y || back != t - 1)
                            slow_wrong++;
                    }
                }
            }
    CHECK_INT(bad, 0);
    CHECK_INT(slow_wrong, 0);
    CHECK(slow_repeats > 0); /* -10% drift repeats every 10 ns */
    gsl_rng_free(rng);
}

TEST(test_skewer_clock_values)
{
    skew_clock c = {30000000, 50 * SKEW_PPT_PER_PPM};
    pb_ns y;
    /* 1000 s after ref: +30 ms offset, +50 ms drift */
    CHECK_INT(skew_clock_apply(&c, 0, 1000 * PB_NS_PER_SEC, &y), PB_OK);
    CHECK_INT(y, 1000 * PB_NS_PER_SEC + 80000000);
    /* before ref the drift goes the other way */
    CHECK_INT(skew_clock_apply(&c, 2000 * PB_NS_PER_SEC, 1000 * PB_NS_PER_SEC, &y), PB_OK);
    CHECK_INT(y, 1000 * PB_NS_PER_SEC + 30000000 - 50000000);
    /* rounding half away from zero: 1 ppm over 500 ns = 0.0005 ns -> 0 */
    skew_clock d = {0, SKEW_PPT_PER_PPM};
    CHECK_INT(skew_clock_apply(&d, 0, 500, &y), PB_OK);
    CHECK_INT(y, 500);
    CHECK_INT(skew_clock_apply(&d, 0, 500000, &y), PB_OK);
    CHECK_INT(y, 500001); /* 0.5 ns rounds up */
    CHECK_INT(skew_clock_apply(&d, 0, -500000, &y), PB_OK);
    CHECK_INT(y, -500001);
    skew_clock big = {INT64_MAX / 2 + 1, 0};
    CHECK_INT(skew_clock_apply(&big, 0, INT64_MAX / 2 + 1, &y), PB_ERANGE);
}

TEST(test_skewer_drift_text)
{
    int64_t p;
    char buf[40];
    CHECK_INT(skew_drift_parse("+50ppm", &p), PB_OK);
    CHECK_INT(p, 50000000);
    CHECK_INT(skew_drift_parse("-3.25ppm", &p), PB_OK);
    CHECK_INT(p, -3250000);
    CHECK_INT(skew_drift_parse("800ppb", &p), PB_OK);
    CHECK_INT(p, 800000);
    CHECK_INT(skew_drift_parse("12", &p), PB_OK);
    CHECK_INT(p, 12000000);
    CHECK_INT(skew_drift_parse("0.000001ppm", &p), PB_OK);
    CHECK_INT(p, 1);
    CHECK_INT(skew_drift_parse("0.0000001ppm", &p), PB_EPARSE);
    CHECK_INT(skew_drift_parse("abc", &p), PB_EPARSE);
    CHECK_INT(skew_drift_parse("5ms", &p), PB_EPARSE);
    CHECK_INT(skew_drift_parse("", &p), PB_EPARSE);
    CHECK_INT(skew_drift_parse("+ppm", &p), PB_EPARSE);
    CHECK_INT(skew_drift_parse("100001ppm", &p), PB_ERANGE);
    CHECK_STR(skew_drift_format(-3250000, buf), "-3.25ppm");
    CHECK_STR(skew_drift_format(50000000, buf), "+50ppm");
    CHECK_STR(skew_drift_format(1, buf), "+0.000001ppm");
    CHECK_STR(skew_offset_format(30000000, buf), "+30ms");
    CHECK_STR(skew_offset_format(-1500000, buf), "-1.5ms");
}

TEST(test_skewer_spec_errors)
{
    skew_spec *s;
    pb_error err;
    CHECK_INT(skew_spec_init(&s), PB_OK);
    CHECK_INT(skew_spec_add(s, "WS2=+30ms,+50ppm", "--node", 0, &err), PB_OK);
    CHECK_INT(skew_spec_add(s, " AP1 = -1.5ms ", "--node", 0, &err), PB_OK);
    CHECK_INT(skew_spec_add(s, "WS2", "--node", 0, &err), PB_EPARSE);
    CHECK(strstr(err.msg, "NODE=OFFSET") != NULL);
    CHECK_STR(err.file, "--node");
    CHECK_INT(skew_spec_add(s, "X=+30xs", "--node", 0, &err), PB_EPARSE);
    CHECK(strstr(err.msg, "offset \"+30xs\"") != NULL);
    CHECK_INT(skew_spec_add(s, "X=+30ms,fast", "--node", 0, &err), PB_EPARSE);
    CHECK(strstr(err.msg, "drift \"fast\"") != NULL);
    CHECK_INT(skew_spec_add(s, "=5ms", "--node", 0, &err), PB_EPARSE);
    CHECK_INT(skew_spec_add(s, "WS2=1ms", "--node", 0, &err), PB_EDUP);
    CHECK_INT(skew_spec_add(s, "*=2ms", "--node", 0, &err), PB_OK);
    CHECK_INT(skew_spec_set_random(s, "normal:1ms", NULL, 1, &err), PB_EINVAL);
    CHECK_INT(skew_spec_count(s), 2);
    skew_clock c;
    CHECK_INT(skew_spec_clock(s, "AP1", &c), PB_OK);
    CHECK_INT(c.offset, -1500000);
    CHECK_INT(skew_spec_clock(s, "other", &c), PB_OK);
    CHECK_INT(c.offset, 2000000);
    pb_strbuf d = {0};
    skew_spec_describe(s, &d);
    CHECK_STR(pb_strbuf_str(&d),
              "WS2=+30ms,+50ppm AP1=-1.5ms *=+2ms ref=0s");
    pb_strbuf_free(&d);
    skew_spec_close(s);

    CHECK_INT(skew_spec_init(&s), PB_OK);
    CHECK_INT(skew_spec_set_random(s, "gauss:1ms", NULL, 1, &err), PB_EPARSE);
    CHECK_STR(err.file, "--random-offset");
    CHECK_INT(skew_spec_set_random(s, "normal:-1ms", NULL, 1, &err), PB_EPARSE);
    CHECK_INT(skew_spec_set_random(s, NULL, "uniform:xppm", 1, &err), PB_EPARSE);
    CHECK_STR(err.file, "--random-drift");
    skew_spec_close(s);
}

/* a node's random clock depends on (seed, name) only */
TEST(test_skewer_random_clocks)
{
    skew_spec *a, *b;
    pb_error err;
    skew_spec_init(&a);
    skew_spec_init(&b);
    CHECK_INT(skew_spec_set_random(a, "uniform:20ms", "normal:10ppm", 5, &err), PB_OK);
    CHECK_INT(skew_spec_set_random(b, "uniform:20ms", "normal:10ppm", 5, &err), PB_OK);
    skew_clock x1, x2, y1, y2, z;
    skew_spec_clock(a, "WS1", &x1);
    skew_spec_clock(a, "WS2", &y1);
    skew_spec_clock(b, "WS2", &y2); /* other order */
    skew_spec_clock(b, "WS1", &x2);
    CHECK_INT(x1.offset, x2.offset);
    CHECK_INT(x1.drift_ppt, x2.drift_ppt);
    CHECK_INT(y1.offset, y2.offset);
    CHECK(x1.offset != y1.offset);
    CHECK(x1.offset >= -20000000 && x1.offset <= 20000000);
    CHECK(x1.drift_ppt != 0);
    skew_spec_close(b);
    skew_spec_init(&b);
    skew_spec_set_random(b, "uniform:20ms", "normal:10ppm", 6, &err);
    skew_spec_clock(b, "WS1", &z);
    CHECK(z.offset != x1.offset);
    skew_spec_close(a);
    skew_spec_close(b);
}

static void add_msg(pb_names *nm, pb_msg *m, uint64_t id, pb_ns ts, pb_ns rts,
                    const char *src, const char *dst)
{
    memset(m, 0, sizeof *m);
    m->id = id;
    m->ts = ts;
    m->recv_ts = rts;
    m->callid = PB_ID_NONE;
    pb_strtab_intern(nm->nodes, src, strlen(src), &m->src);
    pb_strtab_intern(nm->nodes, dst, strlen(dst), &m->dst);
}

/* rows come out sorted by the new ts, held no longer than needed */
TEST(test_skewer_stream_resort)
{
    pb_names *nm;
    pb_names_init(&nm);
    skew_spec *s;
    pb_error err;
    skew_spec_init(&s);
    skew_spec_add(s, "B=+5ms", "--node", 0, &err);
    skew_spec_add(s, "Z=+1ms", "--node", 0, &err);
    skew_stream *st;
    CHECK_INT(skew_stream_init(&st, s, 0, nm, 0, 0, "t", &err), PB_OK);
    pb_msg m, o;
    pb_truth tr;
    /* B sends at 0 (-> 5 ms); A sends at 1, 2, ..., 9 ms */
    add_msg(nm, &m, 1, 0, PB_TS_NONE, "B", "A");
    CHECK_INT(skew_stream_push(st, &m, NULL, 2, &err), PB_OK);
    CHECK_INT(skew_stream_pop(st, &o, &tr), 0);
    pb_ns expect_order[10];
    size_t nout = 0;
    for (int k = 1; k < 10; k++) {
        add_msg(nm, &m, (uint64_t)k + 1, k * 1000000LL, PB_TS_NONE, "A", "B");
        CHECK_INT(skew_stream_push(st, &m, NULL, k + 2, &err), PB_OK);
        while (skew_stream_pop(st, &o, &tr) == 1)
            expect_order[nout++] = (pb_ns)o.id;
    }
    skew_stream_finish(st);
    while (skew_stream_pop(st, &o, &tr) == 1)
        expect_order[nout++] = (pb_ns)o.id;
    CHECK_INT(nout, 10);
    /* ids 2..5 (1..4 ms), then 1 (5 ms, B's clock) tied with 6 (5 ms) in
     * input order, then 7..10 */
    const pb_ns want[10] = {2, 3, 4, 5, 1, 6, 7, 8, 9, 10};
    for (size_t i = 0; i < 10; i++)
        CHECK_INT(expect_order[i], want[i]);
    skew_stats stats;
    skew_stream_stats(st, &stats);
    CHECK_INT(stats.messages, 10);
    CHECK_INT(stats.max_shift, 5000000);
    CHECK(stats.max_window <= 8);
    CHECK_STR(skew_stream_unseen(st, 0), "Z");
    CHECK(skew_stream_unseen(st, 1) == NULL);
    skew_stream_close(st);

    /* a window too small for the offsets is an error, not a mis-sort */
    CHECK_INT(skew_stream_init(&st, s, 0, nm, 3, 0, "t", &err), PB_OK);
    int rc = PB_OK;
    for (int k = 0; k < 10 && rc == PB_OK; k++) {
        add_msg(nm, &m, (uint64_t)k + 1, k * 100000LL, PB_TS_NONE, "A", "B");
        rc = skew_stream_push(st, &m, NULL, k + 2, &err);
        while (skew_stream_pop(st, &o, &tr) == 1)
            ;
    }
    CHECK_INT(rc, PB_EORDER);
    CHECK(strstr(err.msg, "re-sort window full") != NULL);
    CHECK_INT(err.line, 5);
    skew_stream_close(st);

    /* negative results are errors unless allowed */
    skew_spec_add(s, "N=-10ms", "--node", 0, &err);
    CHECK_INT(skew_stream_init(&st, s, 0, nm, 0, 0, "t", &err), PB_OK);
    add_msg(nm, &m, 1, 1000000, PB_TS_NONE, "N", "B");
    CHECK_INT(skew_stream_push(st, &m, NULL, 7, &err), PB_ERANGE);
    CHECK(strstr(err.msg, "negative") != NULL && strstr(err.msg, "node N") != NULL);
    CHECK_INT(err.line, 7);
    skew_stream_close(st);
    CHECK_INT(skew_stream_init(&st, s, 0, nm, 0, 1, "t", &err), PB_OK);
    CHECK_INT(skew_stream_push(st, &m, NULL, 7, &err), PB_OK);
    skew_stream_finish(st);
    CHECK_INT(skew_stream_pop(st, &o, &tr), 1);
    CHECK_INT(o.ts, -9000000);
    skew_stream_close(st);
    skew_spec_close(s);
    pb_names_close(nm);
}

/* Paxson's estimate recovers offsets exactly when the minimum delays are
 * symmetric */
TEST(test_skewer_estimate_known)
{
    pb_names *nm;
    pb_names_init(&nm);
    skew_estimate *e;
    CHECK_INT(skew_estimate_init(&e, nm), PB_OK);
    /* true offsets: A 0, B +2 ms, C -1.5 ms; true delays >= 300 us both
     * ways, extra queueing on some messages */
    const char *nodes[3] = {"A", "B", "C"};
    const pb_ns off[3] = {0, 2000000, -1500000};
    pb_msg m;
    uint64_t id = 1;
    for (int k = 0; k < 50; k++) {
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) {
                if (a == b || (a == 0 && b == 2) || (a == 2 && b == 0))
                    continue; /* A and C never talk: C is reached via B */
                pb_ns t = 1000000000LL + k * 10000000LL;
                pb_ns delay = 300000 + (k % 7) * 40000;
                add_msg(nm, &m, id++, t + off[a], t + delay + off[b], nodes[a], nodes[b]);
                CHECK_INT(skew_estimate_add(e, &m), PB_OK);
            }
    }
    add_msg(nm, &m, id++, 5, PB_TS_NONE, "A", "D"); /* untimed: ignored */
    skew_estimate_add(e, &m);
    uint32_t ia, ib, ic;
    pb_strtab_find(nm->nodes, "A", 1, &ia);
    pb_strtab_find(nm->nodes, "B", 1, &ib);
    pb_strtab_find(nm->nodes, "C", 1, &ic);
    pb_ns d;
    CHECK_INT(skew_estimate_pair(e, ia, ib, &d), 1);
    CHECK_INT(d, 2000000);
    CHECK_INT(skew_estimate_pair(e, ib, ic, &d), 1);
    CHECK_INT(d, -3500000);
    CHECK_INT(skew_estimate_pair(e, ia, ic, &d), 0);
    pb_strbuf out = {0};
    pb_error err;
    CHECK_INT(skew_estimate_write(e, "A", &out, &err), PB_OK);
    const char *txt = pb_strbuf_str(&out);
    CHECK(strstr(txt, "\nA=+0s\n") != NULL);
    CHECK(strstr(txt, "\nB=+2ms\n") != NULL);
    CHECK(strstr(txt, "\nC=-1.5ms\n") != NULL);
    CHECK(strstr(txt, "# D: no clock information") != NULL);
    /* what it writes is a spec that loads */
    char path[] = "/tmp/test_skewer_specXXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    FILE *fp = fdopen(fd, "w");
    fputs(txt, fp);
    fclose(fp);
    skew_spec *s;
    skew_spec_init(&s);
    CHECK_INT(skew_spec_load(s, path, &err), PB_OK);
    skew_clock c;
    skew_spec_clock(s, "C", &c);
    CHECK_INT(c.offset, -1500000);
    skew_spec_close(s);
    /* default reference: most timed messages (B talks to both) */
    pb_strbuf_reset(&out);
    CHECK_INT(skew_estimate_write(e, NULL, &out, &err), PB_OK);
    CHECK(strstr(pb_strbuf_str(&out), "\nB=+0s\n") != NULL);
    CHECK(strstr(pb_strbuf_str(&out), "\nA=-2ms\n") != NULL);
    CHECK_INT(skew_estimate_write(e, "nosuch", &out, &err), PB_ENOENT);
    CHECK(strstr(err.msg, "nosuch") != NULL);
    /* a bad spec file names file and line */
    fp = fopen(path, "w");
    fputs("# comment\nA=+1ms\n\nB=+1qs\n", fp);
    fclose(fp);
    skew_spec_init(&s);
    CHECK_INT(skew_spec_load(s, path, &err), PB_EPARSE);
    CHECK_STR(err.file, path);
    CHECK_INT(err.line, 4);
    skew_spec_close(s);
    remove(path);
    pb_strbuf_free(&out);
    skew_estimate_close(e);
    pb_names_close(nm);
}

int main(void)
{
    RUN(test_skewer_clock_roundtrip);
    RUN(test_skewer_clock_values);
    RUN(test_skewer_drift_text);
    RUN(test_skewer_spec_errors);
    RUN(test_skewer_random_clocks);
    RUN(test_skewer_stream_resort);
    RUN(test_skewer_estimate_known);
    return pbtest_exit();
}
