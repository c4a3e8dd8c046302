/*
 * bench_convolution - cost of the convolution algorithm's correlation
 * (conv_xcorr) over the number of quanta S and the lag bound L: the
 * analogue of Figure 23 of seed 000.  Dense random signals (half the quanta
 * hold 1-3 messages) and sparse=0, so every block goes through FFTW and the
 * blocked time should grow as S log L; the exact (whole-signal) mode grows
 * as S log S.  CPU seconds; a table on stdout.  Never fails.
 *
 *   bench_convolution [quick]
 */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "conv_xcorr.h"

static void fill(gsl_rng *r, int64_t S, conv_signal *s)
{
    conv_signal_reset(s);
    for (int64_t t = 0; t < S; t++)
        if (gsl_rng_uniform(r) < 0.5)
            conv_signal_push(s, t, sqrt((double)(1 + gsl_rng_uniform_int(r, 3))));
}

/* CPU seconds per correlation, or -1 if it could not run */
static double time_one(const conv_signal *a, const conv_signal *b, int64_t S,
                       int64_t L, conv_mode mode, int64_t *fft)
{
    conv_xcorr_cfg cfg = {0, L, S, mode, 0, 0};
    conv_xcorr *x = NULL;
    pb_error err;
    if (conv_xcorr_init(&x, &cfg, &err) != PB_OK)
        return -1;
    *fft = conv_xcorr_fft_size(x);
    double *C = malloc((size_t)(L + 1) * sizeof *C);
    int reps = 0;
    clock_t t0 = clock(), t1;
    do {
        conv_xcorr_run(x, a, b, C);
        reps++;
        t1 = clock();
    } while ((double)(t1 - t0) / CLOCKS_PER_SEC < 0.2 && reps < 1000);
    free(C);
    conv_xcorr_close(x);
    return (double)(t1 - t0) / CLOCKS_PER_SEC / reps;
}

int main(int argc, char **argv)
{
    int quick = argc > 1 && !strcmp(argv[1], "quick");
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 1);
    conv_signal a = {0}, b = {0};
    int64_t smax = quick ? (1 << 20) : (1 << 24);
    int64_t L = 1023;

    printf("correlation time over S at fixed L = %lld (blocked, every block by FFT)\n",
           (long long)L);
    printf("%10s %8s %12s %14s %12s %14s\n", "S", "fft", "blocked_s",
           "ns/(S log2 L)", "exact_s", "ns/(S log2 S)");
    for (int64_t S = 1 << 16; S <= smax; S *= 4) {
        fill(r, S, &a);
        fill(r, S, &b);
        int64_t fb = 0, fe = 0;
        double tb = time_one(&a, &b, S, L, CONV_BLOCKED, &fb);
        double te = S <= (1 << 22) ? time_one(&a, &b, S, L, CONV_EXACT, &fe) : -1;
        printf("%10lld %8lld %12.4f %14.3f ", (long long)S, (long long)fb, tb,
               tb * 1e9 / ((double)S * log2((double)L + 1)));
        if (te >= 0)
            printf("%12.4f %14.3f\n", te, te * 1e9 / ((double)S * log2((double)S)));
        else
            printf("%12s %14s\n", "-", "-");
        fflush(stdout);
    }

    int64_t S = quick ? (1 << 18) : (1 << 22);
    fill(r, S, &a);
    fill(r, S, &b);
    printf("\ncorrelation time over L at fixed S = %lld (blocked, every block by FFT)\n",
           (long long)S);
    printf("%10s %8s %12s %14s\n", "L", "fft", "blocked_s", "ns/(S log2 L)");
    for (int64_t l = 64; l <= (quick ? 4096 : 65536); l *= 4) {
        int64_t fb = 0;
        double tb = time_one(&a, &b, S, l - 1, CONV_BLOCKED, &fb);
        printf("%10lld %8lld %12.4f %14.3f\n", (long long)(l - 1), (long long)fb, tb,
               tb * 1e9 / ((double)S * log2((double)l)));
        fflush(stdout);
    }
    conv_signal_free(&a);
    conv_signal_free(&b);
    gsl_rng_free(r);
    return 0;
}
