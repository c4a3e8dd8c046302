/* joint's pruned re-split (`resplit_prune`, docs/joint/search.md "The search", step 3):
 * on random traces (a service B with two callers, requests making 1 to 14
 * calls of C and D, some in parallel, some returns lost; with call ids and
 * as a black box, in nanoseconds and in whole milliseconds) the search
 * with pruning chooses exactly what the search without it chooses: every
 * parent, every pairing of calls and returns and the log-likelihood, bit
 * for bit.  Large requests take the local search, small ones every split.
 * The comparison can fail: with the estimates made too low on purpose
 * (joint_prune_test_bias, a test hook) the pruning leaves out splits that
 * win, and the results differ. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>

#define US 1000LL

/* solve the trace with prune off and on; returns how many pairs differ
 * in parent or return (-1: failure); *llsame: the log-likelihoods are the
 * same bits; *est counts the estimates made and *pruned those left out */
static long compare(pb_trace *t, int *llsame, size_t *est, size_t *pruned, size_t *local)
{
    joint_params p[2];
    for (int i = 0; i < 2; i++) {
        p[i] = defaults();
        p[i].prune = i;
    }
    joint *s[2];
    if (joint_test_solve_two(t, p, s))
        return -1;
    long diff = joint_test_pairs_differ(s[0], s[1]);
    *llsame = joint_test_ll_same(s[0], s[1]);
    *est += s[1]->est_evals;
    *pruned += s[1]->est_pruned;
    *local += s[1]->resplit_local;
    joint_close(s[0]);
    joint_close(s[1]);
    return diff;
}

/* every case: returns the cases whose results differ */
static int differing_cases(size_t *est, size_t *pruned, size_t *local)
{
    int bad = 0;
    for (int seed = 1; seed <= 4; seed++)
        for (int ids = 0; ids < 2; ids++) {
            pb_trace *t = joint_test_case_trace((unsigned long)(100 * seed + ids), seed, ids, 100);
            if (!t)
                return -1;
            int llsame = 0;
            long d = compare(t, &llsame, est, pruned, local);
            if (d != 0 || !llsame) {
                if (joint_prune_test_bias == 0)
                    printf("# seed %d ids %d: %ld pairs differ, log-likelihood %s\n", seed, ids,
                           d, llsame ? "same" : "differs");
                bad++;
            }
            pb_trace_close(t);
        }
    return bad;
}

TEST(pruned_resplit_chooses_what_the_full_one_does)
{
    size_t est = 0, pruned = 0, local = 0;
    CHECK_INT(differing_cases(&est, &pruned, &local), 0);
    printf("# %zu splits estimated, %zu pruned; %zu local-search re-splits\n", est, pruned,
           local);
    CHECK(pruned > 1000);
    CHECK(pruned < est);
    CHECK(local > 0);
}

TEST(pruning_with_wrong_estimates_changes_results)
{
    size_t est = 0, pruned = 0, local = 0;
    joint_prune_test_bias = -20; /* every estimate 20 nats too low */
    int bad = differing_cases(&est, &pruned, &local);
    joint_prune_test_bias = 0;
    printf("# with estimates 20 nats too low: %d of 8 cases differ\n", bad);
    CHECK(bad > 0);
}

int main(void)
{
    RUN(pruned_resplit_chooses_what_the_full_one_does);
    RUN(pruning_with_wrong_estimates_changes_results);
    return pbtest_exit();
}
