/* The convolution algorithm: correlation (blocked = exact = naive), spikes,
 * FindCausedMessages on hand-built traces, the 5.2.3 filters, errors. */
#include "pbtest.h"
#include "conv_xcorr.h"
#include "pb_algo.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>

/* ------------------------------------------------------------------ */
/* correlation */

/* random sparse signal over [0, S): each quantum holds a message with
 * probability dens, 1-3 messages */
static void random_signal(gsl_rng *r, int64_t S, double dens, conv_signal *s)
{
    conv_signal_reset(s);
    for (int64_t t = 0; t < S; t++)
        if (gsl_rng_uniform(r) < dens)
            conv_signal_push(s, t, sqrt((double)(1 + gsl_rng_uniform_int(r, 3))));
}

static void naive(const conv_signal *a, const conv_signal *b, int64_t S,
                  int64_t lo, int64_t hi, double *C)
{
    double *da = calloc((size_t)S, sizeof *da), *db = calloc((size_t)S, sizeof *db);
    for (size_t i = 0; i < a->n; i++)
        da[a->bin[i]] = a->val[i];
    for (size_t i = 0; i < b->n; i++)
        db[b->bin[i]] = b->val[i];
    for (int64_t d = lo; d <= hi; d++) {
        double s = 0;
        for (int64_t t = 0; t < S; t++)
            if (t + d >= 0 && t + d < S)
                s += da[t] * db[t + d];
        C[d - lo] = s;
    }
    free(da);
    free(db);
}

static int run_xcorr(const conv_signal *a, const conv_signal *b, int64_t S,
                     int64_t lo, int64_t hi, conv_mode mode, int sparse,
                     int64_t fft, double *C)
{
    conv_xcorr_cfg cfg = {lo, hi, S, mode, sparse, fft};
    conv_xcorr *x = NULL;
    pb_error err;
    int rc = conv_xcorr_init(&x, &cfg, &err);
    if (rc == PB_OK)
        rc = conv_xcorr_run(x, a, b, C);
    conv_xcorr_close(x);
    return rc;
}

TEST(shift_by_7_gives_one_spike_at_7)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 7);
    const int64_t S = 3000;
    conv_signal s1 = {0}, s2 = {0};
    random_signal(r, S - 7, 0.05, &s1);
    for (size_t i = 0; i < s1.n; i++)
        conv_signal_push(&s2, s1.bin[i] + 7, s1.val[i]);
    struct {
        int64_t lo, hi;
        conv_mode mode;
        int sparse;
        int64_t fft;
    } cases[] = {
        {0, 100, CONV_EXACT, 0, 0},  {0, 100, CONV_BLOCKED, 0, 0},
        {0, 100, CONV_BLOCKED, 1, 0}, {0, 100, CONV_BLOCKED, 0, 102},
        {-100, 100, CONV_EXACT, 0, 0}, {-100, 100, CONV_BLOCKED, 0, 0},
        {-100, 100, CONV_BLOCKED, 1, 0}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        size_t W = (size_t)(cases[k].hi - cases[k].lo + 1);
        double *C = malloc(W * sizeof *C);
        CHECK_INT(run_xcorr(&s1, &s2, S, cases[k].lo, cases[k].hi, cases[k].mode,
                            cases[k].sparse, cases[k].fft, C), PB_OK);
        conv_spike sp[8];
        size_t n = conv_find_spikes(C, W, cases[k].lo, 4, 3, sp, 8);
        if (n != 1 || sp[0].lag != 7)
            PBT_FAIL("case %zu: %zu spikes, first at %lld", k, n,
                     n ? (long long)sp[0].lag : -1LL);
        free(C);
    }
    conv_signal_free(&s1);
    conv_signal_free(&s2);
    gsl_rng_free(r);
}

TEST(blocked_equals_exact_and_naive)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 42);
    const double dens[] = {0.002, 0.05, 0.5, 1.0};
    const int64_t win[][2] = {{0, 50}, {-30, 30}, {0, 0}, {5, 200}, {-199, 199}};
    const int64_t Ss[] = {200, 2500};
    double worst = 0;
    for (size_t si = 0; si < 2; si++)
        for (size_t di = 0; di < 4; di++)
            for (size_t wi = 0; wi < 5; wi++) {
                int64_t S = Ss[si], lo = win[wi][0], hi = win[wi][1];
                size_t W = (size_t)(hi - lo + 1);
                conv_signal a = {0}, b = {0};
                random_signal(r, S, dens[di], &a);
                random_signal(r, S, dens[(di + 1) % 4], &b);
                double *ref = malloc(W * sizeof *ref), *C = malloc(W * sizeof *C);
                naive(&a, &b, S, lo, hi, ref);
                const int64_t ffts[] = {0, (int64_t)W + 1, 3 * (int64_t)W + 17};
                for (int mode = 0; mode < 2; mode++)
                    for (int sparse = 0; sparse < 2; sparse++)
                        for (size_t fi = 0; fi < 3; fi++) {
                            if (mode == CONV_EXACT && (sparse || fi))
                                continue;
                            CHECK_INT(run_xcorr(&a, &b, S, lo, hi, (conv_mode)mode,
                                                sparse, ffts[fi], C), PB_OK);
                            for (size_t k = 0; k < W; k++) {
                                double e = fabs(C[k] - ref[k]);
                                if (e > worst)
                                    worst = e;
                            }
                        }
                free(ref);
                free(C);
                conv_signal_free(&a);
                conv_signal_free(&b);
            }
    /* values are rounded to multiples of 2^-20 */
    CHECK(worst <= 2e-6);
    gsl_rng_free(r);
}

/* One exact-mode correlator used for many pairs, the second signals
 * repeating, changing in place and outnumbering what it keeps (at most 64
 * spectra): every result must still be the naive correlation. */
TEST(exact_mode_kept_spectra_never_go_stale)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 99);
    const int64_t S = 300, lo = -40, hi = 40;
    const size_t W = (size_t)(hi - lo + 1), NB = 80;
    conv_signal a = {0}, bs[80] = {{0}};
    for (size_t i = 0; i < NB; i++)
        random_signal(r, S, 0.05, &bs[i]);
    conv_xcorr_cfg cfg = {lo, hi, S, CONV_EXACT, 0, 0};
    conv_xcorr *x = NULL;
    pb_error err;
    CHECK_INT(conv_xcorr_init(&x, &cfg, &err), PB_OK);
    double *ref = malloc(W * sizeof *ref), *C = malloc(W * sizeof *C);
    double worst = 0;
    for (int round = 0; round < 400; round++) {
        random_signal(r, S, 0.1, &a);
        conv_signal *b = &bs[gsl_rng_uniform_int(r, round < 200 ? 8 : NB)];
        if (round % 50 == 49) /* same buffer, new content */
            random_signal(r, S, 0.05, b);
        CHECK_INT(conv_xcorr_run(x, &a, b, C), PB_OK);
        naive(&a, b, S, lo, hi, ref);
        for (size_t k = 0; k < W; k++)
            if (fabs(C[k] - ref[k]) > worst)
                worst = fabs(C[k] - ref[k]);
    }
    CHECK(worst <= 2e-6);
    /* the first 200 rounds draw from 8 signals: most transforms are kept */
    CHECK(conv_xcorr_get_stats(x)->spectra_reused >= 150);
    free(ref);
    free(C);
    conv_xcorr_close(x);
    conv_signal_free(&a);
    for (size_t i = 0; i < NB; i++)
        conv_signal_free(&bs[i]);
    gsl_rng_free(r);
}

TEST(empty_and_disjoint_signals_correlate_to_zero)
{
    conv_signal a = {0}, b = {0};
    conv_signal_push(&a, 10, 1);
    conv_signal_push(&b, 900, 1);
    double C[21];
    for (int mode = 0; mode < 2; mode++) {
        CHECK_INT(run_xcorr(&a, &b, 1000, -10, 10, (conv_mode)mode, 0, 0, C), PB_OK);
        for (int k = 0; k < 21; k++)
            CHECK(C[k] == 0.0);
        CHECK_INT(conv_find_spikes(C, 21, -10, 4, 3, NULL, 0), 0);
    }
    conv_signal e = {0};
    CHECK_INT(run_xcorr(&e, &b, 1000, 0, 10, CONV_BLOCKED, 1, 0, C), PB_OK);
    CHECK(C[0] == 0.0);
    conv_signal_free(&a);
    conv_signal_free(&b);
}

TEST(signal_bins_hold_sqrt_counts)
{
    conv_signal s = {0};
    int64_t bins[] = {0, 0, 0, 0, 3, 3, 7};
    CHECK_INT(conv_signal_from_bins(&s, bins, 7), PB_OK);
    CHECK_INT(s.n, 3);
    CHECK_INT(s.bin[1], 3);
    CHECK_NEAR(s.val[0], 2.0, 1e-12);
    CHECK_NEAR(s.val[1], sqrt(2.0), 1e-12);
    CHECK_NEAR(s.val[2], 1.0, 1e-12);
    int64_t bad[] = {3, 1};
    CHECK_INT(conv_signal_from_bins(&s, bad, 2), PB_EINVAL);
    int64_t neg[] = {-1};
    CHECK_INT(conv_signal_from_bins(&s, neg, 1), PB_EINVAL);
    conv_signal_reset(&s);
    CHECK_INT(conv_signal_push(&s, 5, 1), PB_OK);
    CHECK_INT(conv_signal_push(&s, 5, 1), PB_EINVAL);
    CHECK_INT(conv_signal_push(&s, 6, 0), PB_EINVAL);
    conv_signal_free(&s);
    conv_signal_free(NULL);
}

TEST(xcorr_rejects_bad_configurations)
{
    conv_xcorr *x = NULL;
    pb_error err;
    conv_xcorr_cfg lohi = {5, 4, 100, CONV_BLOCKED, 0, 0};
    CHECK_INT(conv_xcorr_init(&x, &lohi, &err), PB_EINVAL);
    CHECK(x == NULL);
    conv_xcorr_cfg huge = {0, 10, CONV_FFT_MAX, CONV_EXACT, 0, 0};
    CHECK_INT(conv_xcorr_init(&x, &huge, &err), PB_ERANGE);
    CHECK(strstr(err.msg, "blocked") != NULL);
    conv_xcorr_cfg wide = {0, CONV_FFT_MAX, 100, CONV_BLOCKED, 0, 0};
    CHECK_INT(conv_xcorr_init(&x, &wide, &err), PB_ERANGE);
    conv_xcorr_cfg small = {0, 10, 100, CONV_BLOCKED, 0, 11};
    CHECK_INT(conv_xcorr_init(&x, &small, &err), PB_EINVAL);
    conv_xcorr_cfg none = {0, 10, 0, CONV_BLOCKED, 0, 0};
    CHECK_INT(conv_xcorr_init(&x, &none, &err), PB_EINVAL);
    /* a signal outside [0, S) is refused, not read out of bounds */
    conv_xcorr_cfg ok = {0, 10, 100, CONV_BLOCKED, 0, 0};
    CHECK_INT(conv_xcorr_init(&x, &ok, &err), PB_OK);
    conv_signal a = {0};
    conv_signal_push(&a, 100, 1);
    double C[11];
    CHECK_INT(conv_xcorr_run(x, &a, &a, C), PB_EINVAL);
    conv_signal_free(&a);
    conv_xcorr_close(x);
    conv_xcorr_close(NULL);
}

TEST(spikes_need_a_valley_between_them)
{
    double C[100] = {0};
    conv_spike sp[4];
    /* two peaks with zeros between: two spikes */
    C[10] = 10;
    C[30] = 9;
    CHECK_INT(conv_find_spikes(C, 100, -5, 4, 3, sp, 4), 2);
    CHECK_INT(sp[0].lag, 5);
    CHECK_INT(sp[1].lag, 25);
    CHECK_INT(sp[0].first, 5);
    CHECK_INT(sp[0].last, 5);
    /* a ridge that never dips below S sd: one spike at its largest point */
    double D[100] = {0};
    D[10] = 10;
    D[11] = 8;
    D[12] = 9;
    D[13] = 8;
    D[14] = 10.5;
    CHECK_INT(conv_find_spikes(D, 100, 0, 4, 3, sp, 4), 1);
    CHECK_INT(sp[0].lag, 14);
    CHECK_INT(sp[0].first, 10);
    CHECK_INT(sp[0].last, 14);
    CHECK_NEAR(sp[0].value, 10.5, 0);
    /* constant: no spike; too few lags for 4 sd: none either */
    double E[50];
    for (int i = 0; i < 50; i++)
        E[i] = 3;
    CHECK_INT(conv_find_spikes(E, 50, 0, 4, 3, sp, 4), 0);
    double F[10] = {0, 0, 0, 5, 0, 0, 0, 0, 0, 0};
    CHECK_INT(conv_find_spikes(F, 10, 0, 4, 3, sp, 4), 0);
    /* the count is returned even when out is too small */
    CHECK_INT(conv_find_spikes(C, 100, 0, 4, 3, sp, 1), 2);
    /* a small spike beside a large one shows only once the large one is
     * left out of mean and deviation (sigma clipping) */
    double G[200] = {0};
    for (int i = 0; i < 200; i++)
        G[i] = 1 + (i % 3);
    G[50] = 1000;
    G[120] = 20;
    CHECK_INT(conv_find_spikes(G, 200, 0, 4, 3, sp, 4), 1);
    CHECK_INT(conv_find_spikes_clipped(G, 200, 0, 4, 3, 1, sp, 4), 1);
    CHECK_INT(conv_find_spikes_clipped(G, 200, 0, 4, 3, 3, sp, 4), 2);
    CHECK_INT(sp[0].lag, 50);
    CHECK_INT(sp[1].lag, 120);
}

/* ------------------------------------------------------------------ */
/* the algorithm on hand-built traces */

static void *conv_params_new(const char *const *sets)
{
    void *p = calloc(1, pb_algo_convolution.params_size);
    pb_error err;
    if (pb_opt_defaults(pb_algo_convolution.options, p, &err) != PB_OK)
        PBT_FAIL("defaults: %s", err.msg);
    for (; sets && *sets; sets++)
        if (pb_opt_set_kv(pb_algo_convolution.options, p, *sets, &err) != PB_OK)
            PBT_FAIL("set %s: %s", *sets, err.msg);
    return p;
}

static int run_conv(pb_trace *t, const char *const *sets, pb_result *res,
                    pb_error *err)
{
    void *p = conv_params_new(sets);
    pb_result_init(res, "convolution", "path");
    pb_trace_view v = pb_trace_view_of(t);
    int rc = pb_algo_convolution.run(&v, p, res, err);
    free(p);
    return rc;
}

static uint64_t g_id;

static void add(pb_trace *t, double ts, const char *s, const char *d)
{
    pb_trace_add(t, g_id++, pb_sec_to_ns(ts), PB_TS_NONE, s, d, PB_TYPE_MSG,
                 PB_ID_NONE, PB_ID_NONE, PB_ID_NONE);
}

/* n requests A>B>C>B>A, Poisson arrivals (mean gap 100 ms), delays 20, 30
 * and 5 ms with +-0.5 ms jitter */
static pb_trace *chain_trace(int n, unsigned long seed)
{
    pb_trace *t;
    pb_trace_new(&t);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    double at = 0;
    g_id = 1;
    for (int i = 0; i < n; i++) {
        at += gsl_ran_exponential(r, 0.1);
        double s = at;
        add(t, s, "A", "B");
        s += 0.020 + gsl_ran_flat(r, -5e-4, 5e-4);
        add(t, s, "B", "C");
        s += 0.030 + gsl_ran_flat(r, -5e-4, 5e-4);
        add(t, s, "C", "B");
        s += 0.005 + gsl_ran_flat(r, -5e-4, 5e-4);
        add(t, s, "B", "A");
    }
    gsl_rng_free(r);
    pb_trace_sort(t);
    return t;
}

static double node_lat(const pb_pattern *p, uint32_t k)
{
    return p->node_wsum[k] > 0 ? p->node_sum[k] / p->node_wsum[k] : NAN;
}

static uint32_t longest_chain(const pb_result *res)
{
    uint32_t m = 0;
    for (size_t i = 0; i < pb_pattab_count(res->patterns); i++) {
        uint32_t e = pb_pattab_get(res->patterns, i)->nnodes - 1;
        if (e > m)
            m = e;
    }
    return m;
}

TEST(chain_found_with_delays_and_counts)
{
    pb_trace *t = chain_trace(500, 3);
    pb_result res;
    pb_error err;
    const char *sets[] = {"mu=5ms", NULL};
    CHECK_INT(run_conv(t, sets, &res, &err), PB_OK);
    pb_pattern *p = pb_pattab_find(res.patterns, "A>B[C[B[A]]]");
    CHECK(p != NULL);
    if (p) {
        CHECK_INT(p->count, 500);
        CHECK_NEAR(p->score, 500, 0);
        CHECK_NEAR(node_lat(p, 1), 0.020, 0.005);   /* B before C */
        CHECK_NEAR(node_lat(p, 2), 0.030, 0.005);   /* C before B */
        CHECK_NEAR(node_lat(p, 3), 0.005, 0.005);   /* B before A */
        CHECK(isnan(node_lat(p, 0)) && isnan(node_lat(p, 4)));
        CHECK_NEAR(p->latency_sum / p->score, 0.055, 0.015);
    }
    /* the derived path of 5.3.1: A>B>C>B>A also gives A>B>A */
    CHECK(pb_pattab_find(res.patterns, "A>B[A]") != NULL);
    CHECK_INT(pb_pattab_count(res.patterns), 2);
    CHECK_INT(res.nassign, 0);
    const char *rep = pb_strbuf_str(&res.report);
    CHECK(strstr(rep, "root A\n") != NULL);
    CHECK(strstr(rep, "\n  B -> C  count=500  delays=0.020000000(500)\n") != NULL);
    CHECK(strstr(rep, "\n    C -> B  count=500  delays=0.030000000(500)\n") != NULL);
    const char *dot = pb_strbuf_str(&res.dot);
    CHECK(strncmp(dot, "digraph", 7) == 0);
    CHECK(strstr(dot, "[label=\"500\\n0.020000000 s\"]") != NULL);
    /* the same with an explicit root, in exact mode, and lag bound */
    pb_result r2;
    const char *sets2[] = {"mu=5ms", "root=A", "mode=exact", "lag_bound=1s", NULL};
    CHECK_INT(run_conv(t, sets2, &r2, &err), PB_OK);
    p = pb_pattab_find(r2.patterns, "A>B[C[B[A]]]");
    CHECK(p != NULL && p->count == 500);
    pb_result_free(&r2);
    /* a root in the middle of the chain */
    const char *sets3[] = {"mu=5ms", "root=C", NULL};
    CHECK_INT(run_conv(t, sets3, &r2, &err), PB_OK);
    p = pb_pattab_find(r2.patterns, "C>B[A]");
    CHECK(p != NULL && p->count == 500);
    CHECK_INT(pb_pattab_count(r2.patterns), 1);
    pb_result_free(&r2);
    pb_result_free(&res);
    pb_trace_close(t);
}

TEST(modes_and_matching_methods_give_the_same_result)
{
    pb_trace *t = chain_trace(300, 11);
    const char *modes[][4] = {{"mode=exact", NULL},
                              {"mode=blocked", "sparse=0", NULL},
                              {"mode=blocked", "sparse=1", NULL},
                              {"match=spike", NULL},
                              {"match=pairs", NULL}};
    pb_strbuf out[5] = {{0}};
    for (int k = 0; k < 5; k++) {
        pb_result res;
        pb_error err;
        CHECK_INT(run_conv(t, modes[k], &res, &err), PB_OK);
        pb_pattab_rank(res.patterns, PB_RANK_COUNT);
        for (size_t i = 0; i < pb_pattab_count(res.patterns); i++) {
            pb_pattern *p = pb_pattab_get(res.patterns, i);
            pb_strbuf_printf(&out[k], "%s %llu %.9f\n", p->text,
                             (unsigned long long)p->count, p->latency_sum);
        }
        pb_result_free(&res);
    }
    CHECK(out[0].len > 0);
    for (int k = 1; k < 5; k++)
        CHECK_STR(pb_strbuf_str(&out[0]), pb_strbuf_str(&out[k]));
    for (int k = 0; k < 5; k++)
        pb_strbuf_free(&out[k]);
    pb_trace_close(t);
}

TEST(negative_delay_filter)
{
    /* B sends to C 30 ms before it hears from A: no cause, an apparent
     * delay of -30 ms */
    pb_trace *t;
    pb_trace_new(&t);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 5);
    double at = 1;
    g_id = 1;
    for (int i = 0; i < 300; i++) {
        at += 0.05 + gsl_ran_exponential(r, 0.1);
        add(t, at - 0.030, "B", "C");
        add(t, at, "A", "B");
    }
    gsl_rng_free(r);
    pb_trace_sort(t);
    pb_result res;
    pb_error err;
    const char *on[] = {"root=A", NULL};
    CHECK_INT(run_conv(t, on, &res, &err), PB_OK);
    CHECK(pb_pattab_find(res.patterns, "A>B[C]") == NULL);
    CHECK(pb_pattab_find(res.patterns, "A>B") != NULL);
    pb_result_free(&res);
    const char *off[] = {"root=A", "filter_negative=0", NULL};
    CHECK_INT(run_conv(t, off, &res, &err), PB_OK);
    pb_pattern *p = pb_pattab_find(res.patterns, "A>B[C]");
    CHECK(p != NULL);
    if (p)
        CHECK_NEAR(node_lat(p, 1), -0.030, 0.010);
    CHECK(strstr(pb_strbuf_str(&res.report), "delays=-0.030000000(300)") != NULL);
    pb_result_free(&res);
    pb_trace_close(t);
}

/* sessions of ping-pong between A and B, 20 ms each way */
static pb_trace *pingpong_trace(void)
{
    pb_trace *t;
    pb_trace_new(&t);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 9);
    double at = 0;
    g_id = 1;
    for (int i = 0; i < 200; i++) {
        at += 1.0 + gsl_ran_exponential(r, 0.5);
        for (int k = 0; k < 12; k++)
            add(t, at + 0.020 * k + gsl_ran_flat(r, -2e-4, 2e-4),
                k % 2 ? "B" : "A", k % 2 ? "A" : "B");
    }
    gsl_rng_free(r);
    pb_trace_sort(t);
    return t;
}

TEST(cycle_and_depth_filters)
{
    pb_trace *t = pingpong_trace();
    pb_result res;
    pb_error err;
    /* same edge at the same delay is not followed again: A>B>A>B stops */
    const char *cyc[] = {"root=A", "filter_depth=0", NULL};
    CHECK_INT(run_conv(t, cyc, &res, &err), PB_OK);
    CHECK(pb_pattab_find(res.patterns, "A>B[A[B]]") != NULL);
    CHECK(longest_chain(&res) <= 6);
    CHECK(strstr(pb_strbuf_str(&res.meta), "truncated=0") != NULL);
    pb_result_free(&res);
    /* without it, the depth filter cuts the ping-pong at max_depth */
    const char *dep[] = {"root=A", "filter_cycle=0", "max_depth=8", NULL};
    CHECK_INT(run_conv(t, dep, &res, &err), PB_OK);
    CHECK_INT(longest_chain(&res), 8);
    CHECK(pb_pattab_find(res.patterns, "A>B[A[B[A[B[A[B[A]]]]]]]") != NULL);
    pb_result_free(&res);
    /* with neither, the sessions end the chain at 12 edges here; the vertex
     * limit ends any graph */
    const char *none[] = {"root=A", "filter_cycle=0", "filter_depth=0", NULL, NULL};
    CHECK_INT(run_conv(t, none, &res, &err), PB_OK);
    CHECK_INT(longest_chain(&res), 12);
    pb_result_free(&res);
    /* cycle_repeats=2: the same edge at the same delay may come back once */
    const char *rep2[] = {"root=A", "filter_depth=0", "cycle_repeats=2", NULL};
    CHECK_INT(run_conv(t, rep2, &res, &err), PB_OK);
    CHECK_INT(longest_chain(&res), 5);
    pb_result_free(&res);
    none[3] = "max_vertices=5";
    CHECK_INT(run_conv(t, none, &res, &err), PB_OK);
    CHECK(strstr(pb_strbuf_str(&res.meta), "truncated=1") != NULL);
    pb_result_free(&res);
    pb_trace_close(t);
}

TEST(min_count_filter)
{
    pb_trace *t = chain_trace(200, 4);
    for (int i = 0; i < 5; i++)
        add(t, 0.5 + i * 3.1, "A", "D");
    pb_trace_sort(t);
    pb_result res;
    pb_error err;
    CHECK_INT(run_conv(t, NULL, &res, &err), PB_OK);
    CHECK(pb_pattab_find(res.patterns, "A>D") == NULL);
    pb_result_free(&res);
    const char *off[] = {"filter_count=0", NULL};
    CHECK_INT(run_conv(t, off, &res, &err), PB_OK);
    pb_pattern *p = pb_pattab_find(res.patterns, "A>D");
    CHECK(p != NULL && p->count == 5);
    pb_result_free(&res);
    const char *hi[] = {"min_count=201", NULL};
    CHECK_INT(run_conv(t, hi, &res, &err), PB_OK);
    CHECK_INT(pb_pattab_count(res.patterns), 0);
    pb_result_free(&res);
    pb_trace_close(t);
}

TEST(bad_parameters_get_clear_errors)
{
    pb_trace *t = chain_trace(50, 1);
    struct {
        const char *set;
        int code;
        const char *says;
    } cases[] = {
        {"S=5", PB_EINVAL, "must not exceed N"},
        {"v=fast", PB_EINVAL, "option v"},
        {"v=-3ms", PB_EINVAL, "option v"},
        {"lag_bound=never", PB_EINVAL, "option lag_bound"},
        {"lag_bound=0", PB_EINVAL, "option lag_bound"},
        {"mode=fastest", PB_EINVAL, "option mode"},
        {"root=Z", PB_ENOENT, "\"Z\""},
        {"fft_size=3", PB_EINVAL, "FFT size"},
        {"match=fast", PB_EINVAL, "option match"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        pb_result res;
        pb_error err;
        pb_error_clear(&err);
        const char *sets[] = {cases[k].set, NULL};
        int rc = run_conv(t, sets, &res, &err);
        if (rc != cases[k].code || !strstr(err.msg, cases[k].says))
            PBT_FAIL("%s: rc %d, message \"%s\"", cases[k].set, rc, err.msg);
        pb_result_free(&res);
    }
    /* out-of-range values are refused by the option table */
    void *p = conv_params_new(NULL);
    pb_error err;
    CHECK_INT(pb_opt_set_kv(pb_algo_convolution.options, p, "mu=-1ms", &err), PB_EINVAL);
    CHECK_INT(pb_opt_set_kv(pb_algo_convolution.options, p, "min_count=0", &err), PB_EINVAL);
    CHECK_INT(pb_opt_set_kv(pb_algo_convolution.options, p, "N=-1", &err), PB_EINVAL);
    free(p);
    pb_trace_close(t);
}

TEST(tiny_traces)
{
    pb_trace *t;
    pb_trace_new(&t);
    pb_result res;
    pb_error err;
    CHECK_INT(run_conv(t, NULL, &res, &err), PB_OK);
    CHECK_INT(pb_pattab_count(res.patterns), 0);
    pb_result_free(&res);
    /* one message; all at one instant; a self-loop */
    g_id = 1;
    add(t, 5, "A", "B");
    const char *keep[] = {"filter_count=0", NULL};
    CHECK_INT(run_conv(t, keep, &res, &err), PB_OK);
    CHECK(pb_pattab_find(res.patterns, "A>B") != NULL);
    pb_result_free(&res);
    for (int i = 0; i < 20; i++)
        add(t, 5, "B", i % 2 ? "B" : "A");
    CHECK_INT(run_conv(t, keep, &res, &err), PB_OK);
    pb_result_free(&res);
    const char *ex[] = {"filter_count=0", "mode=exact", "lag_bound=full", NULL};
    CHECK_INT(run_conv(t, ex, &res, &err), PB_OK);
    pb_result_free(&res);
    pb_trace_close(t);
}

int main(void)
{
    RUN(shift_by_7_gives_one_spike_at_7);
    RUN(blocked_equals_exact_and_naive);
    RUN(exact_mode_kept_spectra_never_go_stale);
    RUN(empty_and_disjoint_signals_correlate_to_zero);
    RUN(signal_bins_hold_sqrt_counts);
    RUN(xcorr_rejects_bad_configurations);
    RUN(spikes_need_a_valley_between_them);
    RUN(chain_found_with_delays_and_counts);
    RUN(modes_and_matching_methods_give_the_same_result);
    RUN(negative_delay_filter);
    RUN(cycle_and_depth_filters);
    RUN(min_count_filter);
    RUN(bad_parameters_get_clear_errors);
    RUN(tiny_traces);
    return pbtest_exit();
}
