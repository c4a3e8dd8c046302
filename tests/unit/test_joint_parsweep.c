/* joint's parallel-call counts by a sweep (joint_model.c par_sweep,
 * docs/joint/speed.md "Speed, seventeenth wave: a request's many calls"):
 * on random traces (a service B with two callers, requests making 1 to 14
 * calls of C and D, 30 % of them alongside the one before, some returns
 * lost; with call ids and as a black box, in nanoseconds and in whole
 * milliseconds) counting every request by the sweep (joint_par_sweep_min
 * 0, a test hook) and every request pair by pair gives the same search:
 * every parent and return, the log-likelihood, every density row and
 * every parallel-call count and flag, bit for bit, the counts' cells in
 * the same order. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#include <stdlib.h>

/* solve t pair by pair and by the sweep; differences (-1: failure);
 * *swept: requests the sweep counted */
static long compare(pb_trace *t, size_t *swept)
{
    pb_trace_view v = pb_trace_view_of(t);
    joint_params p = defaults();
    joint *s[2];
    joint_par_sweep_min = UINT32_MAX;
    s[0] = joint_test_init(&v, p);
    joint_par_sweep_min = 0;
    s[1] = joint_test_init(&v, p);
    joint_par_sweep_min = 64;
    if (!s[0] || !s[1]) {
        joint_close(s[0]);
        joint_close(s[1]);
        return -1;
    }
    long diff = joint_test_pairs_differ(s[0], s[1]);
    diff += !joint_test_ll_same(s[0], s[1]);
    if (s[0]->nkeys != s[1]->nkeys)
        diff++;
    else if (s[0]->nkeys &&
             (!joint_mrow_lf_same(s[0], s[1]) ||
              memcmp(s[0]->kmean, s[1]->kmean, (size_t)s[0]->nkeys * sizeof(double))))
        diff++;
    if (s[0]->npar != s[1]->npar)
        diff++;
    else if (s[0]->npar &&
             (memcmp(s[0]->pov, s[1]->pov, s[0]->npar * sizeof(double)) ||
              memcmp(s[0]->pse, s[1]->pse, s[0]->npar * sizeof(double)) ||
              memcmp(s[0]->pflag, s[1]->pflag, s[0]->npar)))
        diff++;
    CHECK(s[0]->par_sweeps == 0);
    *swept += s[1]->par_sweeps;
    joint_close(s[0]);
    joint_close(s[1]);
    return diff;
}

TEST(the_sweep_counts_what_the_pairs_count)
{
    size_t swept = 0;
    int bad = 0, cases = 0;
    for (int seed = 1; seed <= 6; seed++)
        for (int ids = 0; ids < 2; ids++) {
            pb_trace *t = joint_test_case_trace((unsigned long)(1310 * seed + ids), seed, ids, 120);
            CHECK(t != NULL);
            if (!t)
                break;
            long d = compare(t, &swept);
            cases++;
            if (d != 0) {
                printf("# seed %d ids %d: %ld differences\n", seed, ids, d);
                bad++;
            }
            pb_trace_close(t);
        }
    joint_test_tick = 0;
    printf("# %zu requests swept in %d cases\n", swept, cases);
    CHECK_INT(bad, 0);
    CHECK(swept > 1000);
}

int main(void)
{
    RUN(the_sweep_counts_what_the_pairs_count);
    return pbtest_exit();
}
