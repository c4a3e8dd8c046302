/* joint's exchanges bounded where the fit learned parallel calls (rsx_par,
 * joint_rsx.c; docs/joint/speed_w29.md "The swap passes' branch and
 * bound"): the bound's new triggers pass over the returns of a step's
 * parallel siblings as the walk does.  On random traces (a service B with
 * two callers, requests making 1 to 14 calls of C and D, some in
 * parallel, some returns lost; with call ids and as a black box, in
 * nanoseconds and in whole milliseconds; cases with and without learned
 * parallel calls) whole searches without those bounds (as before) and
 * with them give every parent, every pairing, the log-likelihood bit for
 * bit and the same work counts; every bound made is at least its
 * estimate and, where no late response is bounded, within its rounding
 * margin of it.
 * The comparison can fail: with the siblings' returns not passed over
 * (wrong, on purpose) bounds move away from their estimates and it is
 * caught. */
#include "pbtest.h"
#include "joint_int.h" /* before joint_test.h: its bound helpers read the counters */
#include "joint_test.h"
#include "joint_rs.h"

#include <stdlib.h>

extern int joint_rsx_test_nopar, joint_rsx_test_parwrong;
extern size_t joint_rsx_test_parmade;

/* case (seed, ids): joint_test_case_trace (test_joint_walklean's, where
 * some cases learn parallel calls) */
static pb_trace *case_trace(int seed, int ids)
{
    return joint_test_case_trace((unsigned long)(131 * seed + ids), seed, ids, 120);
}

static long compare(pb_trace *t, int seed, int ids, int *llsame, void *vc)
{
    return joint_test_bound_compare(t, ids, "off", llsame, vc);
}

static const joint_test_cases cases = {8, {"ids 0", "ids 1"}, case_trace, compare};

#define PAR_OF() {&joint_rsx_test_nopar, &joint_rsx_test_skipped, &joint_rsx_test_used, \
                      &joint_rsx_test_bad, 0, 0, 0, 0}

static void par_run(joint_test_bound *c, int wrong, int *bad)
{
    joint_rsx_test_parwrong = wrong;
    joint_rsx_test_check = 1;
    joint_rsx_test_gap = 0;
    joint_rsx_test_parmade = 0;
    *bad = joint_test_differing(&cases, c, wrong);
    joint_rsx_test_check = 0;
    joint_rsx_test_parwrong = 0;
}

TEST(exchanges_bounded_past_parallel_siblings_choose_the_same)
{
    joint_test_bound c = PAR_OF();
    int bad = 0;
    par_run(&c, 0, &bad);
    printf("# rsx_par: %zu bounds where parallel calls are learned; in all %zu bounds, %zu "
           "exchanges left out, %zu below their estimate, gap %.3g\n", joint_rsx_test_parmade,
           c.used, c.skipped, c.bad, joint_rsx_test_gap);
    CHECK_INT(bad, 0);
    CHECK_INT(c.counts_differ, 0);
    CHECK(c.bad == 0);
    CHECK(joint_rsx_test_parmade > 100);
    /* the bound's margin is 1e-9 of the magnitudes, here up to a few
     * thousand nats (the bounds of lean walks alone on these cases: 1.83e-6) */
    CHECK(joint_rsx_test_gap < 1e-5);
}

TEST(siblings_not_passed_over_are_caught)
{
    joint_test_bound c = PAR_OF();
    int bad = 0;
    par_run(&c, 1, &bad);
    printf("# siblings' returns taken as triggers: %zu bounds below their estimate, largest "
           "excess %.3g nats, %d of 16 cases differ\n", c.bad, joint_rsx_test_gap, bad);
    CHECK(c.bad > 0 || joint_rsx_test_gap > 1e-5);
}

int main(void)
{
    RUN(exchanges_bounded_past_parallel_siblings_choose_the_same);
    RUN(siblings_not_passed_over_are_caught);
    return pbtest_exit();
}
