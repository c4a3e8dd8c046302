/* joint_smooth_gaussian against gsl_filter_gaussian (GSL_FILTER_END_PADZERO,
 * order 0), bit for bit: random sparse and dense histograms (counts and
 * arbitrary finite values), several window lengths and widths, filled bins
 * at both ends, one bin, every bin, windows wider than the histogram. */
#include "pbtest.h"
#include "joint_smooth.h"

#include <gsl/gsl_filter.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_vector.h>
#include <stdlib.h>

#define NMAX 600

/* GSL's output for x[0..n) */
static void gsl_ref(double alpha, size_t K, const double *x, double *y, size_t n)
{
    gsl_vector *vx = gsl_vector_alloc(n), *vy = gsl_vector_alloc(n);
    gsl_filter_gaussian_workspace *ws = gsl_filter_gaussian_alloc(K);
    if (!vx || !vy || !ws) {
        printf("FAIL gsl_ref: out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < n; i++)
        gsl_vector_set(vx, i, x[i]);
    gsl_filter_gaussian(GSL_FILTER_END_PADZERO, alpha, 0, vx, vy, ws);
    for (size_t i = 0; i < n; i++)
        y[i] = gsl_vector_get(vy, i);
    gsl_filter_gaussian_free(ws);
    gsl_vector_free(vx);
    gsl_vector_free(vy);
}

/* compare one case; returns 1 when every output has the same bits */
static int same(joint_smooth *w, double alpha, size_t K, const double *x, size_t n,
                const char *what)
{
    double y[NMAX], r[NMAX];
    for (size_t i = 0; i < n; i++)
        y[i] = -1; /* every output must be written */
    if (joint_smooth_gaussian(w, alpha, K, x, y, n) != PB_OK) {
        printf("FAIL %s: n=%zu K=%zu alpha=%.17g refused\n", what, n, K, alpha);
        return 0;
    }
    gsl_ref(alpha, K, x, r, n);
    if (memcmp(y, r, n * sizeof *y)) {
        size_t i = 0;
        while (!memcmp(&y[i], &r[i], sizeof *y))
            i++;
        printf("FAIL %s: n=%zu K=%zu alpha=%.17g: bin %zu %.17g, GSL %.17g\n", what, n, K,
               alpha, i, y[i], r[i]);
        return 0;
    }
    return 1;
}

/* fill x[0..n) with about a fraction `dens` of nonzero bins: whole counts
 * (kind 0), arbitrary positive values (1), or values of both signs and
 * very different sizes (2) */
static void fill(gsl_rng *g, double *x, size_t n, double dens, int kind)
{
    for (size_t i = 0; i < n; i++) {
        x[i] = 0;
        if (gsl_rng_uniform(g) >= dens)
            continue;
        if (kind == 0)
            x[i] = 1 + gsl_rng_uniform_int(g, 40);
        else if (kind == 1)
            x[i] = gsl_rng_uniform_pos(g) * 1000;
        else
            x[i] = (gsl_rng_uniform(g) < 0.5 ? -1 : 1) * gsl_rng_uniform_pos(g) *
                   pow(10, (double)gsl_rng_uniform_int(g, 40) - 20);
    }
}

TEST(random_histograms)
{
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, 28);
    joint_smooth *w = NULL;
    CHECK(joint_smooth_init(NMAX, 2 * NMAX + 1, &w) == PB_OK);
    const size_t ns[] = {1, 2, 3, 7, 40, 550, NMAX};
    const double dens[] = {0, 0.002, 0.01, 0.05, 0.2, 0.6, 1};
    const double bws[] = {0.3, 0.5, 1, 2.5, 7.3, 40, 100};
    int bad = 0, cases = 0;
    for (size_t a = 0; a < sizeof ns / sizeof *ns; a++)
        for (size_t d = 0; d < sizeof dens / sizeof *dens; d++)
            for (size_t b = 0; b < sizeof bws / sizeof *bws; b++)
                for (int kind = 0; kind < 3; kind++) {
                    size_t n = ns[a];
                    double x[NMAX];
                    fill(g, x, n, dens[d], kind);
                    /* joint's window: 3 widths each side, at most 2n - 1 */
                    size_t K = 2 * (size_t)ceil(3 * bws[b]) + 1;
                    if (K > 2 * n - 1)
                        K = 2 * n - 1;
                    double alpha = (double)(K - 1) / (2 * bws[b]);
                    if (K == 1)
                        alpha = 1;
                    bad += !same(w, alpha, K, x, n, "random_histograms");
                    /* another width with the same window, and an even K */
                    bad += !same(w, 0.5 + 4 * gsl_rng_uniform(g), K, x, n, "random_histograms");
                    bad += !same(w, 3, K + 1, x, n, "random_histograms");
                    cases += 3;
                }
    CHECK_INT(bad, 0);
    CHECK(cases > 1000);
    joint_smooth_close(w);
    gsl_rng_free(g);
}

TEST(edges_and_extremes)
{
    joint_smooth *w = NULL;
    CHECK(joint_smooth_init(NMAX, 2 * NMAX + 1, &w) == PB_OK);
    const size_t n = 550;
    const size_t Ks[] = {1, 3, 5, 21, 61, 601, 1099, 1101};
    int bad = 0;
    for (size_t k = 0; k < sizeof Ks / sizeof *Ks; k++) {
        double x[NMAX];
        double alpha = Ks[k] == 1 ? 1 : 3;
        memset(x, 0, sizeof x);
        bad += !same(w, alpha, Ks[k], x, n, "all_empty");
        x[0] = 3;
        bad += !same(w, alpha, Ks[k], x, n, "first_bin");
        x[n - 1] = 5;
        bad += !same(w, alpha, Ks[k], x, n, "both_ends");
        x[0] = 0;
        bad += !same(w, alpha, Ks[k], x, n, "last_bin");
        x[n - 1] = 0;
        x[n / 2] = 1;
        bad += !same(w, alpha, Ks[k], x, n, "middle_bin");
        for (size_t i = 0; i < n; i++)
            x[i] = 1 + (double)(i % 7);
        bad += !same(w, alpha, Ks[k], x, n, "every_bin");
        x[3] = 1e-300; /* products that underflow */
        x[4] = 1e300;
        bad += !same(w, alpha, Ks[k], x, n, "huge_and_tiny");
    }
    double one = 2;
    bad += !same(w, 3, 1, &one, 1, "one_bin_K1");
    bad += !same(w, 3, 3, &one, 1, "one_bin_K3");
    bad += !same(w, 0.01, 1201, &one, 1, "one_bin_wide");
    CHECK_INT(bad, 0);
    joint_smooth_close(w);
}

/* the comparison can fail: summing each window in the other order gives
 * other bits on dense data */
TEST(order_matters)
{
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, 7);
    const size_t n = 550, K = 61, H = K / 2;
    double x[NMAX], r[NMAX], kern[61];
    fill(g, x, n, 1, 1);
    gsl_ref(3, K, x, r, n);
    gsl_vector_view kv = gsl_vector_view_array(kern, K);
    gsl_filter_gaussian_kernel(3, 0, 1, &kv.vector);
    size_t differ = 0;
    for (size_t i = 0; i < n; i++) {
        double s = 0;
        for (size_t m = K; m-- > 0;) {
            size_t j = i + m; /* j - H is the input bin */
            if (j >= H && j - H < n)
                s += x[j - H] * kern[K - 1 - m];
        }
        differ += memcmp(&s, &r[i], sizeof s) != 0;
    }
    CHECK(differ > 0);
    gsl_rng_free(g);
}

TEST(refusals)
{
    joint_smooth *w = NULL;
    double x[4] = {1, 0, 0, 1}, y[4] = {7, 7, 7, 7};
    CHECK(joint_smooth_init(0, 3, &w) == PB_EINVAL && !w);
    CHECK(joint_smooth_init(4, 0, &w) == PB_EINVAL && !w);
    CHECK(joint_smooth_init(4, 5, &w) == PB_OK && w);
    CHECK(joint_smooth_gaussian(w, 0, 3, x, y, 4) == PB_EINVAL);
    CHECK(joint_smooth_gaussian(w, NAN, 3, x, y, 4) == PB_EINVAL);
    CHECK(joint_smooth_gaussian(w, 1, 7, x, y, 4) == PB_EINVAL);
    CHECK(joint_smooth_gaussian(w, 1, 3, x, y, 5) == PB_EINVAL);
    CHECK(joint_smooth_gaussian(w, 1, 3, x, y, 0) == PB_EINVAL);
    CHECK(y[0] == 7 && y[3] == 7);
    CHECK(joint_smooth_gaussian(w, 1, 5, x, y, 4) == PB_OK);
    joint_smooth_close(w);
    joint_smooth_close(NULL);
}

int main(void)
{
    RUN(random_histograms);
    RUN(edges_and_extremes);
    RUN(order_matters);
    RUN(refusals);
    return pbtest_exit();
}
