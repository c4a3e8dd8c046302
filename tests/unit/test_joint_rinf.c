/* joint's repair_inf_skip (joint_rinf.c; docs/joint/speed_w18.md, "Speed,
 * twentieth wave (h155)"): the re-pairing's exchange passes reject an
 * exchange whose later call cannot take the earlier call's return
 * (infinite cost) without the other cost and the order-of-answers term.
 * The same result: on random fan-out traces without call ids (1 ms stamps
 * every third seed, larger requests on even seeds; pair_order auto and on,
 * so the order-of-answers term is scored where the searches keep it) the
 * solution with the option on and off pairs every message alike, assigns
 * every parent alike and has the same log-likelihood to the bit; the cut
 * fires (no vacuous test) and never with the option off.  And the test can
 * fail: rejecting also exchanges whose second cost is merely high (a cut
 * made inexact on purpose, joint_rinf_test_inexact) changes solutions. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

/* the cases: on / off, solved; pairs or log-likelihoods that differ are
 * counted in *bad, the cuts made (on, off) in skipped[] */
static int run_cases(long *bad, size_t skipped[2])
{
    int cases = 0;
    *bad = 0;
    skipped[0] = skipped[1] = 0;
    for (int seed = 1; seed <= 8; seed++)
        for (int po = 0; po < 2; po++) {
            pb_trace *t = joint_test_case_trace((unsigned long)(6151 * seed + po), seed, 0, 40);
            CHECK(t != NULL);
            if (!t)
                continue;
            joint_params p[2];
            joint_test_params_two(p, 0, po ? "on" : NULL);
            p[0].repair_inf_skip = 0;
            p[1].repair_inf_skip = 1;
            joint *s[2];
            int llsame = 0;
            long d = joint_test_compare_two(t, p, s, &llsame);
            CHECK(d >= 0);
            if (d >= 0) {
                *bad += d + !llsame;
                skipped[0] += s[0]->rinf_skipped;
                skipped[1] += s[1]->rinf_skipped;
                cases++;
                joint_test_close_two(s);
            }
            pb_trace_close(t);
        }
    joint_test_tick = 0;
    return cases;
}

TEST(rejected_exchanges_change_nothing)
{
    long bad = 0;
    size_t skipped[2];
    int cases = run_cases(&bad, skipped);
    printf("# %d cases, %zu exchanges rejected unscored (%zu with the option off), %ld differ\n",
           cases, skipped[1], skipped[0], bad);
    CHECK_INT(cases, 16);
    CHECK(skipped[1] > 100);
    CHECK_INT((int)skipped[0], 0);
    CHECK_INT((int)bad, 0);
}

TEST(an_inexact_cut_is_caught)
{
    long bad = 0;
    size_t skipped[2];
    joint_rinf_test_inexact = 2.0; /* also reject where the cost is above 2 nats */
    int cases = run_cases(&bad, skipped);
    joint_rinf_test_inexact = 0;
    printf("# inexact on purpose: %d cases, %ld pairs or likelihoods differ\n", cases, bad);
    CHECK_INT(cases, 16);
    CHECK(bad > 0);
}

int main(void)
{
    RUN(rejected_exchanges_change_nothing);
    RUN(an_inexact_cut_is_caught);
    return pbtest_exit();
}
