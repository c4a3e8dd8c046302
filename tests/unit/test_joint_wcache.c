/* joint's local search with the fresh walks of a request's current kid
 * list kept across pairs of requests (`resplit_wcache`, joint_wcache.c,
 * docs/joint/speed_middle.md "Speed, eleventh wave (local search)"): on random traces
 * (a service B with two callers, requests making 1 to 14 calls of C and D,
 * some in parallel, some returns lost; black box and with call ids;
 * nanoseconds and whole milliseconds; the free and the held search) whole
 * searches with resplit_wcache=0 and 1 give every parent, every pairing
 * and the log-likelihood bit for bit, and walks are taken from the cache.
 * The comparison can fail: when the records of one local search are kept
 * into the next, across the refit between them (joint_wcache_test_stale),
 * results differ.  Also joint_rev_bits (the bounded splits' order) against
 * the loop it replaced, on every value of up to 16 bits and 70,000 of
 * 17-32 bits. */
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
    return joint_test_seeded_trace((unsigned long)(710 * seed + held),
                                   seed % 3 == 0 ? 1000 * US : 0, seed == 4, 50, 1500, 14);
}

/* solve with resplit_wcache off and on (the held search when held);
 * returns how many pairs differ (-1: failure); *llsame: the same
 * log-likelihood bits; *hits (a size_t) += walks taken from the cache */
static long compare(pb_trace *t, int seed, int held, int *llsame, void *hits)
{
    joint_params p[2];
    joint_test_params_two(p, seed == 4, held ? "on" : "off");
    p[0].resplit_wcache = 0;
    p[1].resplit_wcache = 1;
    joint *s[2];
    long diff = joint_test_compare_two(t, p, s, llsame);
    if (diff < 0)
        return -1;
    *(size_t *)hits += s[1]->wc_hits;
    if (s[0]->wc_hits)
        diff = -1;
    joint_test_close_two(s);
    return diff;
}

static const joint_test_cases cases = {4, {"free", "held"}, case_trace, compare};

static int differing_cases(size_t *hits)
{
    return joint_test_differing(&cases, hits, joint_wcache_test_stale);
}

TEST(kept_walks_choose_the_same)
{
    size_t hits = 0;
    CHECK_INT(differing_cases(&hits), 0);
    printf("# %zu fresh walks taken from the cache\n", hits);
    CHECK(hits > 100);
}

TEST(walks_kept_across_refits_change_results)
{
    size_t hits = 0;
    joint_wcache_test_stale = 1;
    int bad = differing_cases(&hits);
    joint_wcache_test_stale = 0;
    printf("# with walks kept across refits: %d of 8 cases differ\n", bad);
    CHECK(bad > 0);
}

/* joint_rev_bits (joint_bnb.c's order of splits) is the loop it replaced */
TEST(reversed_bits_as_the_loop)
{
    long bad = 0;
    for (uint32_t m = 0; m <= 32; m++) {
        uint32_t lim = m <= 16 ? (m ? 1u << m : 1u) : 70000u;
        for (uint32_t i = 0; i < lim; i++) {
            uint32_t y = m <= 16 ? i : i * 2654435761u;
            uint32_t x = 0;
            for (uint32_t t = 0; t < m; t++)
                x |= ((y >> (m - 1 - t)) & 1u) << t;
            bad += joint_rev_bits(y, m) != x;
        }
    }
    CHECK_INT(bad, 0);
}

int main(void)
{
    RUN(reversed_bits_as_the_loop);
    RUN(kept_walks_choose_the_same);
    RUN(walks_kept_across_refits_change_results);
    return pbtest_exit();
}
