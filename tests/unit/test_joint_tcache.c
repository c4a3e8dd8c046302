/* joint's greedy round with the trigger search kept per candidate slot
 * across the refits of one search (`greedy_tcache`, joint_tcache.c,
 * docs/joint/speed.md "Speed, sixteenth wave"): on random traces (a
 * service B with two callers, requests making 1 to 24 calls of C and D,
 * some in parallel, some returns lost; black box and with call ids;
 * nanoseconds and whole milliseconds) whole searches with greedy_tcache=0
 * and 1 give every parent, every pairing and the log-likelihood bit for
 * bit, and the kept parts are used.  The comparison can fail: when the
 * kept parts are used whatever changed since (joint_tcache_test_stale),
 * searches differ.  The default (2) keeps them on such small traces.
 * The same for the delay's log and bin kept per slot (`tcache_delay`,
 * docs/joint/speed_w29.md "The greedy's kept slots (h240)"): off and on
 * (greedy_tcache=1) give the same searches and the kept slots are used;
 * with a kept bin read one off (joint_tcache_test_delay) searches differ.
 * A slot made again whose delay is the one it held keeps its log and bin
 * (h277, docs/joint/speed_w29.md "Speed, thirty-third wave (h277)"): the
 * same searches as tcache_delay=0, with parts kept so; kept whatever the
 * delay (joint_tcache_test_dd=2), searches differ. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>

#define US 1000LL

extern int joint_tcache_test_dd;
extern unsigned long joint_tcache_dd_kept;

/* 1: compare tcache_delay off and on (greedy_tcache=1) rather than
 * greedy_tcache off and on */
static int delay_mode;

/* solve with greedy_tcache (or tcache_delay) off and on; returns how
 * many pairs differ (-1: failure); *llsame: the same log-likelihood bits;
 * the kept slots used added to the joint_test_costs at cnt (ncost) */
static long compare(pb_trace *t, int seed, int ids, int *llsame, void *cnt)
{
    joint_test_costs *c = cnt;
    joint_params p[2];
    joint_test_params_two(p, ids, NULL);
    p[0].greedy_tcache = !!delay_mode;
    p[1].greedy_tcache = 1;
    p[0].tcache_delay = !delay_mode;
    p[1].tcache_delay = 1;
    joint *s[2];
    long diff = joint_test_compare_two(t, p, s, llsame);
    if (diff < 0)
        return -1;
    if (!delay_mode && s[0]->tcache_hits) /* off: nothing kept */
        diff = -1;
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

TEST(kept_triggers_give_the_same_searches)
{
    joint_test_costs c = {0, 0};
    CHECK_INT(joint_test_differing(&cases, &c, 0), 0);
    printf("# %zu greedy costs from kept triggers\n", c.ncost);
    CHECK(c.ncost > 100);
}

TEST(kept_triggers_used_after_changes_give_other_searches)
{
    joint_test_costs c = {0, 0};
    joint_tcache_test_stale = 1;
    int bad = joint_test_differing(&cases, &c, 1);
    joint_tcache_test_stale = 0;
    printf("# kept whatever changed: %d of 8 searches differ\n", bad);
    CHECK(bad > 0);
}

/* the default, greedy_tcache=2, keeps the triggers where the trace has
 * few candidate slots (here a few hundred), as 1 does: the same searches,
 * slots used */
TEST(the_default_keeps_triggers_on_small_traces)
{
    joint_params p[2];
    joint_test_params_two(p, 0, NULL);
    CHECK_INT(p[0].greedy_tcache, 2);
    p[1].greedy_tcache = 1;
    pb_trace *t = case_trace(1, 0);
    CHECK(t != NULL);
    if (!t)
        return;
    joint *s[2];
    int llsame = 0;
    long d = joint_test_compare_two(t, p, s, &llsame);
    CHECK_INT((int)d, 0);
    if (d >= 0) {
        CHECK(llsame);
        CHECK(s[0]->tcache_hits > 0);
        CHECK(s[0]->tcache_hits == s[1]->tcache_hits);
        joint_test_close_two(s);
    }
    pb_trace_close(t);
    joint_test_tick = 0;
}

TEST(kept_delays_give_the_same_searches)
{
    joint_test_costs c = {0, 0};
    delay_mode = 1;
    CHECK_INT(joint_test_differing(&cases, &c, 0), 0);
    delay_mode = 0;
    printf("# %zu greedy costs from kept slots\n", c.ncost);
    CHECK(c.ncost > 100);
}

TEST(kept_delays_read_one_bin_off_give_other_searches)
{
    joint_test_costs c = {0, 0};
    delay_mode = 1;
    joint_tcache_test_delay = 1;
    int bad = joint_test_differing(&cases, &c, 1);
    joint_tcache_test_delay = 0;
    delay_mode = 0;
    printf("# a kept bin read one off: %d of 8 searches differ\n", bad);
    CHECK(bad > 0);
}

TEST(slot_delays_kept_give_the_same_searches)
{
    joint_test_costs c = {0, 0};
    delay_mode = 1;
    joint_tcache_dd_kept = 0;
    CHECK_INT(joint_test_differing(&cases, &c, 0), 0);
    unsigned long kept = joint_tcache_dd_kept;
    /* the same with every slot's parts made again */
    joint_tcache_test_dd = 1;
    joint_tcache_dd_kept = 0;
    CHECK_INT(joint_test_differing(&cases, &c, 0), 0);
    CHECK(joint_tcache_dd_kept == 0);
    joint_tcache_test_dd = 0;
    delay_mode = 0;
    printf("# %lu slots made again kept their delay's parts\n", kept);
    CHECK(kept > 100);
}

TEST(slot_delays_kept_whatever_the_delay_give_other_searches)
{
    joint_test_costs c = {0, 0};
    delay_mode = 1;
    joint_tcache_test_dd = 2;
    int bad = joint_test_differing(&cases, &c, 1);
    joint_tcache_test_dd = 0;
    delay_mode = 0;
    printf("# kept whatever the delay: %d of 8 searches differ\n", bad);
    CHECK(bad > 0);
}

/* the default keeps the delays */
TEST(the_default_keeps_delays)
{
    joint_params p[2];
    joint_test_params_two(p, 0, NULL);
    CHECK_INT(p[0].tcache_delay, 1);
}

int main(void)
{
    RUN(kept_triggers_give_the_same_searches);
    RUN(kept_triggers_used_after_changes_give_other_searches);
    RUN(the_default_keeps_triggers_on_small_traces);
    RUN(kept_delays_give_the_same_searches);
    RUN(kept_delays_read_one_bin_off_give_other_searches);
    RUN(the_default_keeps_delays);
    RUN(slot_delays_kept_give_the_same_searches);
    RUN(slot_delays_kept_whatever_the_delay_give_other_searches);
    return pbtest_exit();
}
