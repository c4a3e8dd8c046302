/* joint without call ids: the top of an exchange of returns walked from a
 * record (joint_xwalk.c, docs/joint/speed.md "Speed, eighteenth wave"):
 * on random black-box traces with requests of up to 200 calls (30 % of
 * them alongside the one before, some returns lost; in nanoseconds and in
 * whole milliseconds, where returns tie), scoring every exchange's top
 * request afresh (joint_xwalk_min UINT32_MAX, a test hook) and from the
 * record for every request (joint_xwalk_min 0) or for the large ones
 * (64, the default) gives the same search: every parent and return and
 * the log-likelihood, bit for bit; and the record was used. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#include <stdlib.h>

/* solve t afresh and from the record (xmin); differences (-1: failure);
 * *used: exchanges scored from a record */
static long compare(pb_trace *t, uint32_t xmin, size_t *used)
{
    pb_trace_view v = pb_trace_view_of(t);
    joint_params p = defaults();
    p.callids = 0;
    joint *s[2];
    joint_xwalk_min = UINT32_MAX;
    s[0] = joint_test_init(&v, p);
    joint_xwalk_min = xmin;
    s[1] = joint_test_init(&v, p);
    joint_xwalk_min = 64;
    if (!s[0] || !s[1]) {
        joint_close(s[0]);
        joint_close(s[1]);
        return -1;
    }
    long diff = joint_test_pairs_differ(s[0], s[1]);
    diff += !joint_test_ll_same(s[0], s[1]);
    CHECK(joint_xwalk_used(s[0]) == 0);
    *used += joint_xwalk_used(s[1]);
    joint_close(s[0]);
    joint_close(s[1]);
    return diff;
}

TEST(the_record_scores_what_a_fresh_walk_scores)
{
    size_t used[2] = {0, 0};
    int bad = 0, cases = 0;
    const uint32_t xmin[2] = {0, 64};
    for (int seed = 1; seed <= 6; seed++)
        for (int w = 0; w < 2; w++) {
            /* 5 requests of up to 200 calls 2 ms apart (they overlap);
             * every other seed in whole milliseconds */
            pb_trace *t = joint_test_seeded_trace((unsigned long)(1360 * seed + w),
                                                  seed % 2 ? 0 : 1000 * 1000, 0, 5, 2000, 200);
            CHECK(t != NULL);
            if (!t)
                break;
            long d = compare(t, xmin[w], &used[w]);
            cases++;
            if (d != 0) {
                printf("# seed %d xwalk_min %u: %ld differences\n", seed, xmin[w], d);
                bad++;
            }
            pb_trace_close(t);
        }
    joint_test_tick = 0;
    printf("# %zu exchanges scored from a record (min 0), %zu (min 64) in %d cases\n", used[0],
           used[1], cases);
    CHECK_INT(bad, 0);
    CHECK(used[0] > 100);
    CHECK(used[1] > 100);
}

int main(void)
{
    RUN(the_record_scores_what_a_fresh_walk_scores);
    return pbtest_exit();
}
