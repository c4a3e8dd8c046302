/* joint's local search with the fresh walks of a request's current kid
 * list kept across pairs of requests (`resplit_wcache`, joint_wcache.c,
 * docs/joint.md "Speed, eleventh wave (local search)"): on random traces
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

/* solve with resplit_wcache off and on; returns how many pairs differ
 * (-1: failure); *llsame: the same log-likelihood bits; *hits: walks
 * taken from the cache */
static long compare(pb_trace *t, int ids, const char *po, int *llsame, size_t *hits)
{
    joint_params p[2];
    for (int i = 0; i < 2; i++) {
        p[i] = defaults();
        p[i].callids = ids;
        p[i].pair_order = po;
        p[i].resplit_wcache = i;
    }
    joint *s[2];
    if (joint_test_solve_two(t, p, s))
        return -1;
    long diff = joint_test_pairs_differ(s[0], s[1]);
    *llsame = joint_test_ll_same(s[0], s[1]);
    *hits += s[1]->wc_hits;
    if (s[0]->wc_hits)
        diff = -1;
    joint_close(s[0]);
    joint_close(s[1]);
    return diff;
}

static int differing_cases(size_t *hits)
{
    int bad = 0;
    for (int seed = 1; seed <= 4; seed++)
        for (int held = 0; held < 2; held++) {
            gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
            gsl_rng_set(g, (unsigned long)(710 * seed + held));
            joint_test_tick = seed % 3 == 0 ? 1000 * US : 0;
            int ids = seed == 4;
            pb_trace *t = random_fanout_trace(g, ids, 50, 1500, 14);
            gsl_rng_free(g);
            if (!t)
                return -1;
            int llsame = 1;
            long d = compare(t, ids, held ? "on" : "off", &llsame, hits);
            if (d != 0 || !llsame) {
                if (!joint_wcache_test_stale)
                    printf("# seed %d %s: %ld pairs differ, log-likelihood %s\n", seed,
                           held ? "held" : "free", d, llsame ? "same" : "differs");
                bad++;
            }
            pb_trace_close(t);
        }
    joint_test_tick = 0;
    return bad;
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
