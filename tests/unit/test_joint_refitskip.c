/* joint's refit_skip_same (joint_search.c joint_refit; docs/joint/speed_w18.md,
 * "Speed, nineteenth wave (h154)"): a refit of the assignment the model
 * was just refitted on, the search between having moved nothing, is left
 * out where joint_fit would take its unchanged path.  The same result:
 * on random fan-out traces without call ids (1 ms stamps every third
 * seed, larger requests on even seeds) the solution with the option
 * on and off pairs every message alike, assigns every parent alike and
 * has the same log-likelihood to the bit; the skip fires (it is no
 * vacuous test) and never with the option off. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

TEST(skipped_refits_change_nothing)
{
    size_t skipped[2] = {0, 0};
    long bad = 0;
    int cases = 0;
    for (int seed = 1; seed <= 8; seed++)
        for (int ids = 0; ids < 2; ids++) {
            pb_trace *t = joint_test_case_trace((unsigned long)(7919 * seed + ids), seed, ids, 40);
            CHECK(t != NULL);
            if (!t)
                continue;
            joint_params p[2];
            joint_test_params_two(p, ids, NULL);
            p[0].refit_skip_same = 0;
            p[1].refit_skip_same = 1;
            joint *s[2];
            int llsame = 0;
            long d = joint_test_compare_two(t, p, s, &llsame);
            CHECK(d >= 0);
            if (d >= 0) {
                bad += d + !llsame;
                skipped[0] += s[0]->refits_skipped;
                skipped[1] += s[1]->refits_skipped;
                cases++;
                joint_test_close_two(s);
            }
            pb_trace_close(t);
        }
    joint_test_tick = 0;
    printf("# %d cases, %zu refits left out (%zu with the option off), %ld differ\n", cases,
           skipped[1], skipped[0], bad);
    CHECK_INT(cases, 16);
    CHECK(skipped[1] > 10);
    CHECK_INT((int)skipped[0], 0);
    CHECK_INT((int)bad, 0);
}

int main(void)
{
    RUN(skipped_refits_change_nothing);
    return pbtest_exit();
}
