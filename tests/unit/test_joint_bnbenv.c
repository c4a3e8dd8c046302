/* joint's bounded re-split with its step bounds read from envelopes
 * (bnb_env, joint_bnbenv.c; docs/joint/speed_w29.md "The swap passes'
 * branch and bound"): on random traces (a service B with two callers,
 * requests making 1 to 14 calls of C and D, some in parallel, some
 * returns lost; with call ids and as a black box, in nanoseconds and in
 * whole milliseconds) whole searches without the envelopes and with them
 * give every parent, every pairing, the log-likelihood bit for bit and the
 * same work counts, with the branch and bound cutting subtrees; every
 * step bound read from an envelope is the keys' loop's value bit for bit
 * (both made: joint_bnb_test_envcheck).  The comparison can fail: with the
 * bin below the delay's left out of the envelope (wrong, on purpose)
 * bounds differ from the loop's and it is caught. */
#include "pbtest.h"
#include "joint_int.h" /* before joint_test.h: its bound helpers read the counters */
#include "joint_test.h"

#include <stdlib.h>

extern int joint_bnb_test_noenv, joint_bnb_test_envcheck, joint_bnb_test_envwrong;
extern size_t joint_bnb_test_envhits, joint_bnb_test_envbad;

static size_t unused;

/* case (seed, ids): joint_test_case_trace */
static pb_trace *case_trace(int seed, int ids)
{
    return joint_test_case_trace((unsigned long)(830 * seed + ids), seed, ids, 100);
}

/* solve without the envelopes, then with them; returns how many pairs
 * differ (-1: failure) */
static long compare(pb_trace *t, int seed, int ids, int *llsame, void *vc)
{
    return joint_test_bound_compare(t, ids, "off", llsame, vc);
}

static const joint_test_cases cases = {4, {"ids 0", "ids 1"}, case_trace, compare};

#define ENV_OF() {&joint_bnb_test_noenv, &unused, &joint_bnb_test_envhits, \
                      &joint_bnb_test_envbad, 0, 0, 0, 0}

TEST(step_bounds_from_envelopes_choose_the_same)
{
    joint_test_bound c = ENV_OF();
    joint_bnb_test_envcheck = 1;
    int bad = joint_test_differing(&cases, &c, 0);
    joint_bnb_test_envcheck = 0;
    printf("# bnb_env: %zu step bounds from envelopes, %zu not the loop's bits\n", c.used,
           c.bad);
    CHECK_INT(bad, 0);
    CHECK_INT(c.counts_differ, 0);
    CHECK(c.bad == 0);
    CHECK(c.used > 1000);
}

TEST(a_wrong_envelope_is_caught)
{
    joint_test_bound c = ENV_OF();
    joint_bnb_test_envcheck = 1;
    joint_bnb_test_envwrong = 1;
    int bad = joint_test_differing(&cases, &c, 1);
    joint_bnb_test_envwrong = 0;
    joint_bnb_test_envcheck = 0;
    printf("# envelopes without the bin below: %zu of %zu step bounds not the loop's bits, "
           "%d of 8 cases differ\n", c.bad, c.used, bad);
    CHECK(c.bad > 0);
}

int main(void)
{
    RUN(step_bounds_from_envelopes_choose_the_same);
    RUN(a_wrong_envelope_is_caught);
    return pbtest_exit();
}
