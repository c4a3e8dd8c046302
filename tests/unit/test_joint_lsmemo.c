/* joint's local search with the estimates of single moves kept across
 * pairs of requests (`resplit_memo`, joint_lsmemo.c, docs/joint/speed_middle.md "Speed,
 * tenth wave"): on random traces (a service B with two callers, requests
 * making 1 to 14 calls of C and D, some in parallel, some returns lost;
 * black box and with call ids; nanoseconds and whole milliseconds; the
 * free and the held search) whole searches with resplit_memo=0 and 1 give
 * every parent, every pairing and the log-likelihood bit for bit, and
 * estimates are taken from the memo.  The comparison can fail: with the
 * kept estimates made 20 nats too low on purpose (joint_lsmemo_test_bias)
 * results differ, and so do they when a change of a request's calls no
 * longer voids its kept estimates (joint_lsmemo_test_stale). */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>

#define US 1000LL

/* case (seed, held): 50 requests of up to 14 calls, 1 ms stamps every
 * third seed, call ids with seed 4 */
static pb_trace *case_trace(int seed, int held)
{
    return joint_test_seeded_trace((unsigned long)(700 * seed + held),
                                   seed % 3 == 0 ? 1000 * US : 0, seed == 4, 50, 1500, 14);
}

/* solve with resplit_memo off and on (the held search when held); returns
 * how many pairs differ (-1: failure); *llsame: the same log-likelihood
 * bits; *hits (a size_t) += estimates taken from the memo */
static long compare(pb_trace *t, int seed, int held, int *llsame, void *hits)
{
    joint_params p[2];
    joint_test_params_two(p, seed == 4, held ? "on" : "off");
    p[0].resplit_memo = 0;
    p[1].resplit_memo = 1;
    joint *s[2];
    long diff = joint_test_compare_two(t, p, s, llsame);
    if (diff < 0)
        return -1;
    *(size_t *)hits += s[1]->lsm_hits;
    if (s[0]->lsm_hits)
        diff = -1;
    joint_test_close_two(s);
    return diff;
}

static const joint_test_cases cases = {4, {"free", "held"}, case_trace, compare};

static int differing_cases(size_t *hits)
{
    return joint_test_differing(&cases, hits,
                                joint_lsmemo_test_bias != 0 || joint_lsmemo_test_stale);
}

TEST(kept_move_estimates_choose_the_same)
{
    size_t hits = 0;
    CHECK_INT(differing_cases(&hits), 0);
    printf("# %zu estimates of single moves taken from the memo\n", hits);
    CHECK(hits > 100);
}

TEST(kept_estimates_too_low_change_results)
{
    size_t hits = 0;
    joint_lsmemo_test_bias = -20;
    int bad = differing_cases(&hits);
    joint_lsmemo_test_bias = 0;
    printf("# with kept estimates 20 nats too low: %d of 8 cases differ\n", bad);
    CHECK(bad > 0);
}

TEST(kept_estimates_of_changed_requests_change_results)
{
    size_t hits = 0;
    joint_lsmemo_test_stale = 1;
    int bad = differing_cases(&hits);
    joint_lsmemo_test_stale = 0;
    printf("# with kept estimates not voided by changes: %d of 8 cases differ\n", bad);
    CHECK(bad > 0);
}

int main(void)
{
    RUN(kept_move_estimates_choose_the_same);
    RUN(kept_estimates_too_low_change_results);
    RUN(kept_estimates_of_changed_requests_change_results);
    return pbtest_exit();
}
