/* joint's pruned re-split (`resplit_prune`, docs/joint.md "The search", step 3):
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
    pb_trace_view v = pb_trace_view_of(t);
    joint *s[2] = {NULL, NULL};
    pb_error err;
    for (int i = 0; i < 2; i++) {
        joint_params p = defaults();
        p.prune = i;
        if (joint_init(&s[i], &v, &p, &err) != PB_OK) {
            printf("FAIL joint_init: %s\n", err.msg);
            joint_close(s[0]);
            return -1;
        }
    }
    long diff = joint_test_pairs_differ(s[0], s[1]);
    double l0 = joint_loglik(s[0]), l1 = joint_loglik(s[1]);
    *llsame = !memcmp(&l0, &l1, sizeof l0);
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
            gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
            gsl_rng_set(g, (unsigned long)(100 * seed + ids));
            joint_test_tick = seed % 3 == 0 ? 1000 * US : 0;
            /* small requests (every split) and large ones (local search) */
            int big = seed % 2 == 0;
            pb_trace *t = random_fanout_trace(g, ids, big ? 50 : 100, big ? 1500 : 300, big ? 14 : 7);
            gsl_rng_free(g);
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
