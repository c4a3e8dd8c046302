/* joint's ll_share (joint_llshare.c; docs/joint/speed_w21.md, "Speed,
 * twenty-first wave (h167)"): without call ids the free and the held
 * search are each scored twice, by their log-likelihood (the choice) and
 * with the order terms (reported); the second score now starts from the
 * first's sum instead of walking every request again.  The same numbers:
 * on random fan-out black-box traces (1 ms stamps every third seed,
 * larger requests on even seeds) and on the hand-made X>F>C trace (F calls
 * C once or four times per request), the solution with the option on and
 * off pairs every message alike, assigns every parent alike, has the same
 * log-likelihood and the same four reported scores (pord_ll: the two
 * searches' log-likelihoods and their scores with the order terms) to the
 * bit.  A score started from the wrong sum (the other search's: the test's
 * fault, as a value taken from the wrong search or step would be) is
 * seen. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

/* how many of the cases differ with ll_share off and on; *held: cases
 * where both searches ran (a held score reported) */
static int cases(int *held, int quiet)
{
    int bad = 0;
    *held = 0;
    for (int seed = 1; seed <= 9; seed++) {
        pb_trace *t;
        if (seed <= 8) {
            t = joint_test_case_trace((unsigned long)(7919 * seed), seed, 0, 30);
        } else { /* the hand-made trace */
            uint64_t call_of[12], ret_of[12];
            t = joint_test_xfc_trace(12, NULL, NULL, call_of, ret_of);
        }
        if (!t)
            return -1;
        joint_params p[2];
        joint_test_params_two(p, 0, NULL);
        p[0].ll_share = 0;
        p[1].ll_share = 1;
        joint *s[2];
        int llsame = 0;
        long d = joint_test_compare_two(t, p, s, &llsame);
        if (d < 0) {
            pb_trace_close(t);
            return -1;
        }
        int same = !memcmp(s[0]->pord_ll, s[1]->pord_ll, sizeof s[0]->pord_ll);
        if ((d || !llsame || !same) && !quiet)
            printf("# seed %d: %ld pairs differ, log-likelihood %s, scores %s\n", seed, d,
                   llsame ? "same" : "differs", same ? "same" : "differ");
        bad += d || !llsame || !same;
        *held += s[1]->pord_ll[3] != 0;
        joint_test_close_two(s);
        pb_trace_close(t);
    }
    joint_test_tick = 0;
    return bad;
}

TEST(scores_from_the_same_sums)
{
    int held = 0;
    int bad = cases(&held, 0);
    printf("# 9 black-box cases (8 random, 1 hand-made), both searches scored in %d, %d differ\n",
           held, bad);
    CHECK_INT(bad, 0);
    CHECK_INT(held, 9); /* not vacuous: the held search ran and was scored */
}

TEST(wrong_sum_shows)
{
    int held = 0;
    joint_llshare_test_wrong = 1;
    int bad = cases(&held, 1);
    joint_llshare_test_wrong = 0;
    printf("# with the free search scored from the held one's sum: %d of 9 differ\n", bad);
    CHECK(bad > 0);
}

TEST(default_on)
{
    joint_params p = defaults();
    CHECK_INT(p.ll_share, 1);
}

int main(void)
{
    RUN(scores_from_the_same_sums);
    RUN(wrong_sum_shows);
    RUN(default_on);
    return pbtest_exit();
}
