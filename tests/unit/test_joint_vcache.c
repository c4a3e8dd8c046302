/* joint's local search with the values of small requests' walks kept
 * within it (joint_vcache.c, docs/joint/speed.md "Speed, fifteenth
 * wave"): on random traces (a service B with two callers, requests
 * making 1 to 7 calls of C and D, some in parallel, some returns lost;
 * black box and with call ids; nanoseconds and whole milliseconds; the
 * free and the held search) whole searches with the kept values and
 * without them (joint_vcache_test_off) give every parent, every pairing
 * and the log-likelihood bit for bit, and values are taken from the
 * cache.  The comparison can fail: with the values of one local search
 * kept into the next, across the refit between them
 * (joint_vcache_test_stale), results differ. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>

/* case (seed, held): 60 small requests 0.3 ms apart, 1 ms stamps every
 * third seed, call ids with seed 4 */
static pb_trace *case_trace(int seed, int held)
{
    return joint_test_seeded_trace((unsigned long)(530 * seed + held),
                                   seed % 3 == 0 ? 1000 * 1000 : 0, seed == 4, 60, 300, 7);
}

/* solve without and with the kept values (the held search when held);
 * returns how many pairs differ (-1: failure); *llsame: the same
 * log-likelihood bits; *hits (a size_t) += values taken from the cache */
static long compare(pb_trace *t, int seed, int held, int *llsame, void *hits)
{
    joint_params p;
    joint_params p2[2];
    joint_test_params_two(p2, seed == 4, held ? "on" : "off");
    p = p2[0];
    pb_trace_view v = pb_trace_view_of(t);
    pb_error err;
    joint *s[2] = {NULL, NULL};
    for (int i = 0; i < 2; i++) {
        joint_params pi = p;
        int off = joint_vcache_test_off;
        joint_vcache_test_off = i == 0;
        int rc = joint_init(&s[i], &v, &pi, &err);
        joint_vcache_test_off = off;
        if (rc != PB_OK) {
            printf("FAIL joint_init: %s\n", err.msg);
            joint_close(s[0]);
            return -1;
        }
    }
    *llsame = joint_test_ll_same(s[0], s[1]);
    long diff = joint_test_pairs_differ(s[0], s[1]);
    *(size_t *)hits += s[1]->vc_hits;
    if (s[0]->vc_hits)
        diff = -1;
    joint_test_close_two(s);
    return diff;
}

static const joint_test_cases cases = {4, {"free", "held"}, case_trace, compare};

TEST(kept_values_choose_the_same)
{
    size_t hits = 0;
    CHECK_INT(joint_test_differing(&cases, &hits, 0), 0);
    printf("# %zu walks' values taken from the cache\n", hits);
    CHECK(hits > 100);
}

TEST(values_kept_across_refits_change_results)
{
    size_t hits = 0;
    joint_vcache_test_stale = 1;
    int bad = joint_test_differing(&cases, &hits, 1);
    joint_vcache_test_stale = 0;
    printf("# with values kept across refits: %d of 8 cases differ\n", bad);
    CHECK(bad > 0);
}

int main(void)
{
    RUN(kept_values_choose_the_same);
    RUN(values_kept_across_refits_change_results);
    return pbtest_exit();
}
