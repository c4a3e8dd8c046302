/* joint's re-split by branch and bound (`resplit_bound`, joint_bnb.c,
 * docs/joint/speed.md "Speed, eighth wave"): on random traces (a service B with
 * two callers, requests making 1 to 14 calls of C and D, some in parallel,
 * some returns lost; with call ids and as a black box, in nanoseconds and
 * in whole milliseconds) the search with the bound chooses exactly what
 * the search scoring every split chooses: every parent, every pairing of
 * calls and returns and the log-likelihood, bit for bit; also with the
 * durations term forced on (its bound included).  The comparison can
 * fail: with the bound made too low on purpose (joint_bnb_test_bias, a
 * test hook) subtrees holding the winner are cut and the results differ. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>

#define US 1000LL

/* solve the trace with the bound off and on; returns how many pairs
 * differ (-1: failure); *llsame: the log-likelihoods are the same bits;
 * *scored, *cut: the bound's splits scored and left out */
static long compare(pb_trace *t, int *llsame, size_t *scored, size_t *cut)
{
    joint_params p[2];
    for (int i = 0; i < 2; i++) {
        p[i] = defaults();
        p[i].bound = i;
    }
    joint *s[2];
    long diff = joint_test_compare_two(t, p, s, llsame);
    if (diff < 0)
        return -1;
    *scored += s[1]->bnb_scored;
    *cut += s[1]->bnb_cut;
    CHECK(s[0]->bnb_scored == 0 && s[0]->bnb_cut == 0);
    joint_test_close_two(s);
    return diff;
}

/* the same from one solved state with the durations term forced on
 * (rho 0.6 for every two consecutive calls): one more pass of the local
 * search with the bound off and on, no refit */
static long compare_forced(pb_trace *t, size_t *scored, size_t *cut)
{
    joint_params p[2];
    for (int i = 0; i < 2; i++) {
        p[i] = defaults();
        p[i].bound = 0;
        p[i].pair_order = "off";
    }
    joint *s[2];
    if (joint_test_solve_two(t, p, s))
        return -1;
    for (int i = 0; i < 2; i++) {
        if (joint_corr_force(s[i], 0.6) != PB_OK)
            printf("FAIL: joint_corr_force\n");
        free(s[i]->corr_svc);
        s[i]->corr_svc = NULL;
        s[i]->pass_id = 0; /* every pair of requests re-split */
    }
    CHECK(s[0]->corr_any);
    s[1]->p.bound = 1;
    long diff = 0;
    for (int i = 0; i < 2; i++) {
        int changed = 0;
        if (joint_local_search(s[i], &changed) != PB_OK) {
            printf("FAIL joint_local_search\n");
            diff = -1;
        }
    }
    if (diff == 0)
        diff = joint_test_pairs_differ(s[0], s[1]);
    *scored += s[1]->bnb_scored;
    *cut += s[1]->bnb_cut;
    joint_close(s[0]);
    joint_close(s[1]);
    return diff;
}

/* case (seed, ids): joint_test_case_trace */
static pb_trace *case_trace(int seed, int ids)
{
    return joint_test_case_trace((unsigned long)(300 * seed + ids), seed, ids, 100);
}

/* what the cases count, and which comparison they make */
struct counts {
    size_t *scored, *cut;
    int forced;
};

static long compare_case(pb_trace *t, int seed, int ids, int *llsame, void *cnt)
{
    struct counts *c = cnt;
    return c->forced ? compare_forced(t, c->scored, c->cut)
                     : compare(t, llsame, c->scored, c->cut);
}

static const joint_test_cases cases = {4, {"ids 0", "ids 1"}, case_trace, compare_case};

/* every case: returns the cases whose results differ */
static int differing_cases(size_t *scored, size_t *cut, int forced)
{
    struct counts c = {scored, cut, forced};
    return joint_test_differing(&cases, &c, joint_bnb_test_bias != 0);
}

TEST(bounded_resplit_chooses_what_scoring_every_split_does)
{
    size_t scored = 0, cut = 0;
    CHECK_INT(differing_cases(&scored, &cut, 0), 0);
    printf("# %zu splits scored, %zu left out by the bound\n", scored, cut);
    CHECK(cut > 1000);
    CHECK(scored > 0);
}

TEST(bounded_resplit_with_the_durations_term_chooses_the_same)
{
    size_t scored = 0, cut = 0;
    CHECK_INT(differing_cases(&scored, &cut, 1), 0);
    printf("# durations term forced on: %zu splits scored, %zu left out\n", scored, cut);
    CHECK(cut > 100);
}

TEST(a_bound_below_the_true_values_changes_results)
{
    size_t scored = 0, cut = 0;
    joint_bnb_test_bias = -20; /* every bound 20 nats too low */
    int bad = differing_cases(&scored, &cut, 0);
    int bad2 = differing_cases(&scored, &cut, 1);
    joint_bnb_test_bias = 0;
    printf("# with bounds 20 nats too low: %d and %d of 8 cases differ\n", bad, bad2);
    CHECK(bad > 0);
    CHECK(bad2 > 0);
}

int main(void)
{
    RUN(bounded_resplit_chooses_what_scoring_every_split_does);
    RUN(bounded_resplit_with_the_durations_term_chooses_the_same);
    RUN(a_bound_below_the_true_values_changes_results);
    return pbtest_exit();
}
