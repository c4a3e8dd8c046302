/* swap_tail_tree (joint_xtail.c; docs/joint/speed.md "Wide requests: the
 * exchange's tail"): the record's remaining terms added from the
 * per-binade trees must be the very double the walk gets adding them one
 * by one in order, for any start value and any first term.  Random
 * records of log-density-like terms (negative and positive, zeros, a
 * few large), and records of small dyadic terms under large start values
 * (every term a tie at the start's spacing: round-to-even decides, which
 * the trees must leave to the one-by-one step), sums that cross many
 * binades and change sign. */
#include "pbtest.h"
#include "joint_int.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double plain(const double *t, uint32_t j, uint32_t e, double s0)
{
    for (uint32_t z = j; z < e; z++)
        s0 += t[z];
    return s0;
}

static long run_cases(gsl_rng *g, int kind, long *treed)
{
    const uint32_t n = 200 + (uint32_t)gsl_rng_uniform_int(g, 1800);
    joint_wrec rf;
    memset(&rf, 0, sizeof rf);
    rf.n = n;
    rf.term = malloc(((size_t)n + 1) * sizeof *rf.term);
    for (uint32_t i = 0; i <= n; i++) {
        double u = gsl_rng_uniform(g);
        if (kind == 0) /* log densities: mostly negative, some positive */
            rf.term[i] = u < 0.05 ? 0 : u < 0.07 ? -700 * gsl_rng_uniform(g)
                                              : gsl_ran_gaussian(g, 4.0) - 3.0;
        else if (kind == 1) /* dyadic: ties at a large start's spacing */
            rf.term[i] = ldexp((double)((int)gsl_rng_uniform_int(g, 7) - 3), -1 - (int)gsl_rng_uniform_int(g, 3));
        else /* around zero: the sum changes sign and binade often */
            rf.term[i] = gsl_ran_gaussian(g, 1e-3) * (u < 0.5 ? 1 : 1e6);
    }
    joint_xtail *x = joint_xtail_new();
    long bad = 0;
    for (int q = 0; q < 400; q++) {
        uint32_t j = (uint32_t)gsl_rng_uniform_int(g, n + 1);
        double s0;
        if (kind == 1)
            s0 = -ldexp(1.0 + gsl_rng_uniform(g), 50 + (int)gsl_rng_uniform_int(g, 6));
        else if (kind == 2)
            s0 = gsl_ran_gaussian(g, 10.0);
        else
            s0 = -gsl_rng_uniform(g) * 30000;
        double a = joint_xtail_sum(x, &rf, j, n + 1, s0), b = plain(rf.term, j, n + 1, s0);
        if (memcmp(&a, &b, sizeof a) != 0)
            bad++;
    }
    *treed += (long)joint_xtail_used(x);
    joint_xtail_free(x);
    free(rf.term);
    return bad;
}

TEST(tree_sum_equals_sequential)
{
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, 190);
    long bad = 0, treed = 0;
    for (int r = 0; r < 60; r++)
        bad += run_cases(g, r % 3, &treed);
    gsl_rng_free(g);
    CHECK_INT(bad, 0);
    CHECK(treed > 10000); /* most sums did go through the trees */
}

int main(void)
{
    RUN(tree_sum_equals_sequential);
    return pbtest_exit();
}
