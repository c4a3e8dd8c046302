/* joint's density fit (joint_fit) clears and compares each key's
 * histogram over its filled bins only and keeps the raw counts in hist
 * (speed only): after random moves of calls between their candidate
 * parents, each refit gives the very same densities, bit for bit (every
 * log density and expected log density), as a fit from a state whose
 * histograms were cleared in full and whose cached densities were
 * forgotten.  Counter-test: with the filled ranges shrunk on purpose
 * (stale counts left in hist), the same comparison finds differences.  On
 * random traces of two callers of B, with call ids and as a black box, at
 * nanosecond and millisecond stamps. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>

/* the full fit: every histogram cleared, no cached density, from the
 * learned parallel calls the fit before started from (pf[0..np); a fit
 * relearns them, and they choose the triggers its walks count) */
static int full_fit(joint *s, const unsigned char *pf, uint32_t np)
{
    for (uint32_t h = 0; h < s->npar; h++)
        s->pflag[h] = h < np ? pf[h] : 0;
    for (uint32_t k = 0; k < s->nkeys; k++) {
        s->hlo[k] = 0;
        s->hhi[k] = s->nb - 1;
    }
    s->hraw_valid = 0;
    return joint_fit(s, NULL);
}

/* random moves and refits; returns the refits whose densities differ from
 * the full fit's (-1 on failure).  wrong: shrink every filled range to its
 * first bin before each refit (a wrong clear) */
static long fit_mismatches(int ids, pb_ns round, int wrong, long *fits)
{
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, ids ? 21 : 22);
    joint_test_tick = round;
    pb_trace *t = random_fanout_trace(g, ids, 300, 300, 6);
    pb_trace_view v = pb_trace_view_of(t);
    joint_params p = defaults();
    pb_error err;
    joint *s = NULL;
    long bad = 0;
    *fits = 0;
    if (!t || joint_init(&s, &v, &p, &err) != PB_OK) {
        printf("FAIL joint_init\n");
        gsl_rng_free(g);
        pb_trace_close(t);
        return -1;
    }
    double *lf = NULL, *km = NULL;
    for (int round_ = 0; round_ < 12 && bad >= 0; round_++) {
        /* move a tenth of the calls with several candidates */
        for (uint32_t c = 0; c < s->npairs; c++) {
            uint32_t n = s->cand_off[c + 1] - s->cand_off[c];
            if (n < 2 || gsl_rng_uniform(g) >= 0.1)
                continue;
            uint32_t q = s->cand[s->cand_off[c] + gsl_rng_uniform_int(g, n)];
            if (joint_set_parent(s, c, q) != PB_OK) {
                bad = -1;
                break;
            }
        }
        if (wrong)
            for (uint32_t k = 0; k < s->nkeys; k++)
                if (s->hlo[k] < s->hhi[k])
                    s->hhi[k] = s->hlo[k];
        uint32_t np = s->npar;
        unsigned char *pf = malloc((size_t)np + 1);
        if (pf && np)
            memcpy(pf, s->pflag, np);
        if (bad < 0 || !pf || joint_fit(s, NULL) != PB_OK) {
            free(pf);
            bad = -1;
            break;
        }
        size_t nl = (size_t)s->nkeys * s->nb;
        free(lf);
        free(km);
        lf = malloc((nl + 1) * sizeof *lf);
        km = malloc(((size_t)s->nkeys + 1) * sizeof *km);
        if (!lf || !km) {
            free(pf);
            bad = -1;
            break;
        }
        joint_mrow_lf_rows(s, lf);
        memcpy(km, s->kmean, (size_t)s->nkeys * sizeof *km);
        uint32_t nk = s->nkeys;
        int rc = full_fit(s, pf, np);
        free(pf);
        if (rc != PB_OK) {
            bad = -1;
            break;
        }
        (*fits)++;
        if (s->nkeys != nk || joint_mrow_lf_diff(s, 0, nk, lf) ||
            memcmp(km, s->kmean, (size_t)nk * sizeof *km)) {
            if (!wrong && s->nkeys == nk)
                for (uint32_t k = 0; k < nk; k++)
                    if (joint_mrow_lf_diff(s, k, k + 1, lf + (size_t)k * s->nb) ||
                        km[k] != s->kmean[k]) {
                        printf("# ids=%d round=%d: key %u of %u differs (n %g, kmean %.17g / %.17g)\n",
                               ids, round_, k, nk, s->kstat[3 * k], km[k], s->kmean[k]);
                        break;
                    }
            bad++;
        }
    }
    free(lf);
    free(km);
    joint_close(s);
    pb_trace_close(t);
    gsl_rng_free(g);
    return bad;
}

TEST(sparse_fit_equals_full_fit)
{
    for (int ids = 0; ids < 2; ids++)
        for (int ms = 0; ms < 2; ms++) {
            long fits = 0;
            CHECK_INT(fit_mismatches(ids, ms ? 1000000 : 0, 0, &fits), 0);
            CHECK(fits == 12);
        }
}

TEST(sparse_fit_with_a_wrong_clear_fails)
{
    for (int ids = 0; ids < 2; ids++) {
        long fits = 0;
        long bad = fit_mismatches(ids, 0, 1, &fits);
        printf("# ids=%d: %ld of %ld refits differ\n", ids, bad, fits);
        CHECK(bad > 6);
    }
}

int main(void)
{
    RUN(sparse_fit_equals_full_fit);
    RUN(sparse_fit_with_a_wrong_clear_fails);
    return pbtest_exit();
}
