/* joint's local search with single moves bounded before they are walked
 * (joint_rsbound.c, docs/joint/speed_late.md "Re-split moves bounded"):
 * on random traces (a service B with two callers, requests making 1 to 14
 * calls of C and D, some in parallel, some returns lost; black box and
 * with call ids; nanoseconds and whole milliseconds; the free and the held
 * search) whole searches without the bound and with it give every parent,
 * every pairing, the log-likelihood bit for bit and the same counts of
 * estimates and of splits left out; every bound made is at least the
 * estimate it stands for (the estimate made as well: joint_rsb_test_check)
 * and most single moves are left out by it.  The comparison can fail: with
 * every bound 30 nats too low on purpose (joint_rsb_test_bias) bounds fall
 * below their estimates and results differ. */
#include "pbtest.h"
#include "joint_int.h" /* before joint_test.h: its bound helpers read the counters */
#include "joint_test.h"
#include "joint_rs.h"

#include <stdlib.h>

#define US 1000LL

static pb_trace *case_trace(int seed, int held)
{
    return joint_test_seeded_trace((unsigned long)(900 * seed + held),
                                   seed % 3 == 0 ? 1000 * US : 0, seed == 4, 50, 1500, 14);
}

/* the bound under test: joint_rsb_test_* */
#define BOUND_OF() {&joint_rsb_test_off, &joint_rsb_test_skipped, &joint_rsb_test_used, \
                        &joint_rsb_test_bad, 0, 0, 0, 0}

/* solve without the bound, then with it; returns how many pairs differ
 * (-1: failure) */
static long compare(pb_trace *t, int seed, int held, int *llsame, void *vc)
{
    return joint_test_bound_compare(t, seed == 4, held ? "on" : "off", llsame, vc);
}

static const joint_test_cases cases = {4, {"free", "held"}, case_trace, compare};

/* the same traces with a thread column the answers do not follow (each
 * message on one of five threads, by its index): thread_soft (default
 * 0.5) weighs no service, so the bound is made as without the column
 * (h225: it was off wherever the column existed) */
static pb_trace *thread_trace(int seed, int held)
{
    pb_trace *t = case_trace(seed, held);
    if (!t)
        return NULL;
    for (size_t i = 0; i < t->n; i++)
        pb_trace_obs(t)[i].thread = 1 + (uint32_t)((i * 7919u + (size_t)seed) % 5u);
    t->columns |= PB_COL_THREAD;
    return t;
}

static const joint_test_cases thr_cases = {4, {"free", "held"}, thread_trace, compare};

TEST(bounded_moves_choose_the_same)
{
    joint_test_bound c = BOUND_OF();
    joint_rsb_test_check = 1;
    int bad = joint_test_differing(&cases, &c, 0);
    joint_rsb_test_check = 0;
    CHECK_INT(bad, 0);
    CHECK_INT(c.counts_differ, 0);
    printf("# %zu bounds made, %zu moves left out by them, %zu below their estimate\n", c.used,
           c.skipped, c.bad);
    CHECK(c.bad == 0);
    CHECK(c.used > 100);
    CHECK(c.skipped > c.used / 2);
}

TEST(bounded_with_an_unweighed_thread_column)
{
    joint_test_bound c = BOUND_OF();
    joint_rsb_test_check = 1;
    int bad = joint_test_differing(&thr_cases, &c, 0);
    joint_rsb_test_check = 0;
    CHECK_INT(bad, 0);
    CHECK_INT(c.counts_differ, 0);
    printf("# thread column: %zu bounds made, %zu moves left out by them, %zu below their "
           "estimate\n", c.used, c.skipped, c.bad);
    CHECK(c.bad == 0);
    CHECK(c.used > 100);
    CHECK(c.skipped > c.used / 2);
}

TEST(bounds_too_low_change_results)
{
    joint_test_bound c = BOUND_OF();
    joint_rsb_test_bias = -30;
    joint_rsb_test_check = 1;
    int bad = joint_test_differing(&cases, &c, 1);
    joint_rsb_test_check = 0;
    joint_rsb_test_bias = 0;
    printf("# with bounds 30 nats too low: %d of 8 cases differ, %zu bounds below their "
           "estimate\n", bad, c.bad);
    CHECK(bad > 0);
    CHECK(c.bad > 0);
}

/* rsb_stop (joint_rsbound.c): the bound's scan of the steps c may trigger
 * ends where the record's least trigger from a step on is above c's
 * return (no later step can take c as its trigger).  With and without the
 * stop: the same bounds made, to the bit (their sum), the same moves left
 * out, the same results, none below its estimate.  A stop that reads only
 * the step's own trigger (wrong, on purpose: a later step may still take
 * c) makes other bounds, and it is caught. */
static void stop_run(joint_test_bound *c, int nostop, int wrong, int *bad, double *sum)
{
    joint_rsb_test_nostop = nostop;
    joint_rsb_test_stopwrong = wrong;
    joint_rsb_test_check = 1;
    joint_rsb_test_sum = 0;
    *bad = joint_test_differing(&cases, c, wrong);
    *sum = joint_rsb_test_sum;
    joint_rsb_test_check = 0;
    joint_rsb_test_nostop = 0;
    joint_rsb_test_stopwrong = 0;
}

TEST(move_scan_stops_change_nothing)
{
    joint_test_bound a = BOUND_OF(), b = BOUND_OF();
    int bad_a = 0, bad_b = 0;
    double sum_a = 0, sum_b = 0;
    stop_run(&a, 1, 0, &bad_a, &sum_a);
    joint_rsb_test_stops = 0;
    stop_run(&b, 0, 0, &bad_b, &sum_b);
    printf("# without the stop: %zu bounds, %zu left out, sum %.17g; with it: %zu bounds, %zu "
           "left out, sum %.17g, %zu scans stopped early\n", a.used, a.skipped, sum_a, b.used,
           b.skipped, sum_b, joint_rsb_test_stops);
    CHECK_INT(bad_a, 0);
    CHECK_INT(bad_b, 0);
    CHECK(a.bad == 0 && b.bad == 0);
    CHECK(a.used == b.used);
    CHECK(a.skipped == b.skipped);
    CHECK(sum_a == sum_b);
    CHECK(joint_rsb_test_stops > 100);
}

TEST(a_wrong_move_scan_stop_is_caught)
{
    joint_test_bound a = BOUND_OF(), c = BOUND_OF();
    int bad_a = 0, bad = 0;
    double sum_a = 0, sum = 0;
    stop_run(&a, 1, 0, &bad_a, &sum_a);
    stop_run(&c, 0, 1, &bad, &sum);
    printf("# stop at the step's own trigger: %zu bounds below their estimate, sum %.17g "
           "against %.17g, %d of 8 cases differ\n", c.bad, sum, sum_a, bad);
    CHECK(c.bad > 0 || sum != sum_a);
}

/* rs_lazy_list (joint_search.c): the single move's leaving side's list
 * made only when its kept estimate (resplit_memo) is missing or the order
 * term reads it, and the moved call's place from the masks.  Made the
 * way before (joint_rs_test_eager) and this way: every parent, pairing,
 * log-likelihood and estimate counter the same, the same bounds made and
 * the same moves left out (none below its estimate). */
static size_t lz_cnt[3];
#define EAGER_OF() {&joint_rs_test_eager, &lz_cnt[0], &lz_cnt[1], &lz_cnt[2], 0, 0, 0, 0}

TEST(lazy_lists_change_nothing)
{
    joint_test_bound c = EAGER_OF();
    joint_rsb_test_used = 0;
    joint_rsb_test_stops = 0;
    int bad = joint_test_differing(&cases, &c, 0);
    printf("# lists made first against lazily: %d of 8 cases differ, %d with other counters "
           "(%zu bounds made in both)\n", bad, c.counts_differ, joint_rsb_test_used);
    CHECK_INT(bad, 0);
    CHECK_INT(c.counts_differ, 0);
    CHECK(joint_rsb_test_used > 100);
}

int main(void)
{
    RUN(bounded_moves_choose_the_same);
    RUN(bounded_with_an_unweighed_thread_column);
    RUN(bounds_too_low_change_results);
    RUN(move_scan_stops_change_nothing);
    RUN(a_wrong_move_scan_stop_is_caught);
    RUN(lazy_lists_change_nothing);
    return pbtest_exit();
}
