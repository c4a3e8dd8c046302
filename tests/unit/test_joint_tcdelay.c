/* joint's greedy round with the delay's log and bin kept per candidate
 * slot (`tcache_delay`, joint_tcache.c, docs/joint/speed_w29.md "The
 * greedy's kept slots (h240)"): on random traces (a service B with two
 * callers, requests making 1 to 24 calls of C and D, some in parallel,
 * some returns lost; black box and with call ids; nanoseconds and whole
 * milliseconds) whole searches with tcache_delay=0 and 1 (greedy_tcache=1)
 * give every parent, every pairing and the log-likelihood bit for bit,
 * and the kept slots are used.  The comparison can fail: when a kept
 * slot's bin is read one off (joint_tcache_test_delay), searches differ. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>

#define US 1000LL

/* solve with tcache_delay off and on; returns how many pairs differ (-1:
 * failure); *llsame: the same log-likelihood bits; the kept slots used
 * added to the joint_test_costs at cnt (ncost) */
static long compare(pb_trace *t, int seed, int ids, int *llsame, void *cnt)
{
    joint_test_costs *c = cnt;
    joint_params p[2];
    joint_test_params_two(p, ids, NULL);
    p[0].greedy_tcache = p[1].greedy_tcache = 1;
    p[0].tcache_delay = 0;
    p[1].tcache_delay = 1;
    joint *s[2];
    long diff = joint_test_compare_two(t, p, s, llsame);
    if (diff < 0)
        return -1;
    c->ncost += s[1]->tcache_hits;
    joint_test_close_two(s);
    return diff;
}

/* case (seed, ids): 50 requests of up to 24 calls, 1 ms stamps with even
 * seeds */
static pb_trace *case_trace(int seed, int ids)
{
    return joint_test_seeded_trace((unsigned long)(830 * seed + ids),
                                   seed % 2 == 0 ? 1000 * US : 0, ids, 50, 1500, 24);
}

static const joint_test_cases cases = {4, {"ids 0", "ids 1"}, case_trace, compare};

TEST(kept_delays_give_the_same_searches)
{
    joint_test_costs c = {0, 0};
    CHECK_INT(joint_test_differing(&cases, &c, 0), 0);
    printf("# %zu greedy costs from kept slots\n", c.ncost);
    CHECK(c.ncost > 100);
}

TEST(kept_delays_read_one_bin_off_give_other_searches)
{
    joint_test_costs c = {0, 0};
    joint_tcache_test_delay = 1;
    int bad = joint_test_differing(&cases, &c, 1);
    joint_tcache_test_delay = 0;
    printf("# a kept bin read one off: %d of 8 searches differ\n", bad);
    CHECK(bad > 0);
}

/* the default keeps them */
TEST(the_default_keeps_delays)
{
    joint_params p[2];
    joint_test_params_two(p, 0, NULL);
    CHECK_INT(p[0].tcache_delay, 1);
}

int main(void)
{
    RUN(kept_delays_give_the_same_searches);
    RUN(kept_delays_read_one_bin_off_give_other_searches);
    RUN(the_default_keeps_delays);
    return pbtest_exit();
}
