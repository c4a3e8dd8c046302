/*
 * test_pstat.c - the paired statistics of compare and make regress
 * (metrics/pstat.h) against numbers worked by hand with a printed table
 * of Student's t (t(0.975, 4) = 2.7764451, t(0.8, 4) = 0.9409646,
 * t(0.975, 2) = 4.3026527, t(0.8, 2) = 1.0606602, t(0.975, 3) = 3.1824463).
 */
#include <math.h>

#include "pbtest.h"
#include "pstat.h"

/* five seeds, B better by 0.03 0.02 0.02 0.04 0.01:
 * mean 0.024; sd sqrt((36 + 16 + 16 + 256 + 196) e-6 / 4) = 0.0114018;
 * se = 0.0114018 / sqrt 5 = 0.00509902; half-width 2.7764451 se =
 * 0.0141571: [0.0098429, 0.0381571]; mdc (2.7764451 + 0.9409646) se =
 * 0.0189551 */
static const double A5[] = {0.50, 0.52, 0.48, 0.51, 0.49};
static const double B5[] = {0.53, 0.54, 0.50, 0.55, 0.50};

TEST(paired_t_hand_worked)
{
    pstat_paired p;
    pb_error err;
    CHECK_INT(pstat_paired_t(A5, B5, 5, 0.95, 0.8, &p, &err), PB_OK);
    CHECK_INT(p.n, 5);
    CHECK_NEAR(p.mean, 0.024, 1e-12);
    CHECK_NEAR(p.sd, 0.0114017543, 1e-9);
    CHECK_NEAR(p.tq, 2.7764451, 1e-6);
    CHECK_NEAR(p.lo, 0.0098429, 1e-6);
    CHECK_NEAR(p.hi, 0.0381571, 1e-6);
    CHECK_NEAR(p.mdc, 0.0189551, 1e-6);
    CHECK_NEAR(p.mean_a, 0.50, 1e-12);
    CHECK_NEAR(p.mean_b, 0.524, 1e-12);
    CHECK_INT(p.npos, 5);
    CHECK_INT(p.nneg, 0);
    CHECK_INT(p.nzero, 0);
}

TEST(verdicts_hand_worked)
{
    pstat_paired p;
    pb_error err;
    CHECK_INT(pstat_paired_t(A5, B5, 5, 0.95, 0.8, &p, &err), PB_OK);
    /* accuracy: higher is better; an error rate: lower is better */
    CHECK_INT(pstat_verdict_of(&p, PSTAT_HIGHER, 0), PSTAT_BETTER);
    CHECK_INT(pstat_verdict_of(&p, PSTAT_LOWER, 0), PSTAT_WORSE);
    CHECK_INT(pstat_verdict_of(&p, PSTAT_NONE, 0), PSTAT_CHANGED);
    /* tolerance 0.005: the interval [0.0098, 0.0382] is past it */
    CHECK_INT(pstat_verdict_of(&p, PSTAT_HIGHER, 0.005), PSTAT_BETTER);
    CHECK_INT(pstat_verdict_of(&p, PSTAT_LOWER, 0.005), PSTAT_WORSE);
    /* tolerance 0.01: the interval straddles it: undecided */
    CHECK_INT(pstat_verdict_of(&p, PSTAT_HIGHER, 0.01), PSTAT_UNDECIDED);
    CHECK_INT(pstat_verdict_of(&p, PSTAT_LOWER, 0.01), PSTAT_UNDECIDED);
    /* ... but wholly on one side of 0: detected, size unsure */
    CHECK_INT(pstat_side(&p, PSTAT_HIGHER), 1);
    CHECK_INT(pstat_side(&p, PSTAT_LOWER), -1);
    CHECK_INT(pstat_side(&p, PSTAT_NONE), 0);
    /* tolerance 0.05: inside it and clear of 0: a small real change */
    CHECK_INT(pstat_verdict_of(&p, PSTAT_HIGHER, 0.05), PSTAT_WITHIN);
    CHECK_STR(pstat_verdict_name(PSTAT_UNDECIDED), "undecided");
    CHECK_STR(pstat_verdict_name(PSTAT_SAME), "no detectable change");
    CHECK_STR(pstat_verdict_word(PSTAT_WORSE), "worse");
}

/* a change in both directions: d = 0.01 -0.01 0.02 -0.02, mean 0,
 * sd sqrt(10e-4 / 3) = 0.0182574, half-width 3.1824463 * 0.0182574 / 2 =
 * 0.0290518 */
TEST(both_ways_is_no_detectable_change)
{
    const double a[] = {0.5, 0.5, 0.5, 0.5};
    const double b[] = {0.51, 0.49, 0.52, 0.48};
    pstat_paired p;
    pb_error err;
    CHECK_INT(pstat_paired_t(a, b, 4, 0.95, 0.8, &p, &err), PB_OK);
    CHECK_NEAR(p.mean, 0, 1e-12);
    CHECK_NEAR(p.hi, 0.0290518, 1e-6);
    CHECK_NEAR(p.lo, -0.0290518, 1e-6);
    CHECK_INT(p.npos, 2);
    CHECK_INT(p.nneg, 2);
    CHECK_INT(pstat_verdict_of(&p, PSTAT_HIGHER, 0), PSTAT_SAME);
    /* a tolerance inside the interval: cannot tell */
    CHECK_INT(pstat_verdict_of(&p, PSTAT_HIGHER, 0.005), PSTAT_UNDECIDED);
    CHECK_INT(pstat_side(&p, PSTAT_HIGHER), 0);
    CHECK_INT(pstat_verdict_of(&p, PSTAT_HIGHER, 0.04), PSTAT_SAME);
}

/* a no-op: every difference 0.  The interval is [0, 0]; mdc from the
 * spread of A (1 2 3: sd 1) as an unpaired comparison:
 * (4.3026527 + 1.0606602) * sqrt 2 * 1 / sqrt 3 = 4.3791266 */
TEST(noop_and_its_detectable_change)
{
    const double a[] = {1, 2, 3};
    pstat_paired p;
    pb_error err;
    CHECK_INT(pstat_paired_t(a, a, 3, 0.95, 0.8, &p, &err), PB_OK);
    CHECK(p.lo == 0 && p.hi == 0);
    CHECK_INT(p.nzero, 3);
    CHECK_NEAR(p.mdc, 4.3791266, 1e-6);
    CHECK_INT(pstat_verdict_of(&p, PSTAT_HIGHER, 0), PSTAT_SAME);
    CHECK_INT(pstat_verdict_of(&p, PSTAT_LOWER, 0.1), PSTAT_SAME);
}

TEST(one_seed_cannot_decide)
{
    const double a[] = {0.5}, b[] = {0.6};
    pstat_paired p;
    pb_error err;
    CHECK_INT(pstat_paired_t(a, b, 1, 0.95, 0.8, &p, &err), PB_OK);
    CHECK(isnan(p.mdc));
    CHECK_INT(pstat_verdict_of(&p, PSTAT_HIGHER, 0), PSTAT_UNDECIDED);
    CHECK_INT(pstat_paired_t(a, a, 1, 0.95, 0.8, &p, &err), PB_OK);
    CHECK_INT(pstat_verdict_of(&p, PSTAT_HIGHER, 0), PSTAT_SAME);
}

TEST(bad_input_is_refused)
{
    const double a[] = {0.5, NAN}, b[] = {0.6, 0.7};
    pstat_paired p;
    pb_error err;
    CHECK_INT(pstat_paired_t(a, b, 0, 0.95, 0.8, &p, &err), PB_EINVAL);
    CHECK_INT(pstat_paired_t(a, b, 2, 0.95, 0.8, &p, &err), PB_EINVAL);
    CHECK(strstr(err.msg, "finite") != NULL);
    CHECK_INT(pstat_paired_t(b, b, 2, 1.5, 0.8, &p, &err), PB_EINVAL);
    pstat_dir d;
    CHECK(pstat_dir_parse("lower", &d) && d == PSTAT_LOWER);
    CHECK(!pstat_dir_parse("up", &d));
}

/* bootstrap of d = {0, 1}: resample means are 0, 0.5 and 1 with
 * probabilities 1/4, 1/2, 1/4, so the 5 % and 95 % quantiles of 2,000
 * resamples are 0 and 1; equal differences give a point; the same seed
 * gives the same interval */
TEST(bootstrap_hand_worked)
{
    const double a[] = {0, 0}, b[] = {0, 1};
    double lo, hi, lo2, hi2;
    pb_error err;
    CHECK_INT(pstat_bootstrap(a, b, 2, 0.9, 2000, 7, &lo, &hi, &err), PB_OK);
    CHECK_NEAR(lo, 0, 1e-12);
    CHECK_NEAR(hi, 1, 1e-12);
    CHECK_INT(pstat_bootstrap(A5, B5, 5, 0.95, 2000, 7, &lo, &hi, &err), PB_OK);
    CHECK_INT(pstat_bootstrap(A5, B5, 5, 0.95, 2000, 7, &lo2, &hi2, &err), PB_OK);
    CHECK(lo == lo2 && hi == hi2);
    /* inside the range of the five differences, around the mean 0.024 */
    CHECK(lo >= 0.01 && lo < 0.024 && hi > 0.024 && hi <= 0.04);
    const double c[] = {1, 1, 1};
    const double e[] = {1.5, 1.5, 1.5};
    CHECK_INT(pstat_bootstrap(c, e, 3, 0.95, 100, 1, &lo, &hi, &err), PB_OK);
    CHECK_NEAR(lo, 0.5, 1e-12);
    CHECK_NEAR(hi, 0.5, 1e-12);
    CHECK_INT(pstat_bootstrap(c, e, 3, 0.95, 5, 1, &lo, &hi, &err), PB_EINVAL);
}

int main(void)
{
    RUN(paired_t_hand_worked);
    RUN(verdicts_hand_worked);
    RUN(both_ways_is_no_detectable_change);
    RUN(noop_and_its_detectable_change);
    RUN(one_seed_cannot_decide);
    RUN(bad_input_is_refused);
    RUN(bootstrap_hand_worked);
    return pbtest_exit();
}
