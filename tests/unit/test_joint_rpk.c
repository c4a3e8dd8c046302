/* the re-pairing greedy's order-term bound by class (joint_rpk.c,
 * joint_rpick.c's buckets; docs/joint/scale.md "The re-pairing greedy's
 * order-term bound"): on random black-box traces with the order of
 * answers on (pair_order on and auto) -- joint_test_case_trace's fan-outs
 * and overlap traces (n requests X -> B -> C all open at once, B's calls
 * answered first in last out, first in first out or at random, stamps in
 * nanoseconds or whole milliseconds) -- a whole solve with the buckets
 * always (repair_bucket=2) gives every parent, every pairing and the
 * log-likelihood bit for bit as the scan of every open call
 * (repair_bucket=0), and it scores fewer bucket calls than the same
 * buckets without the classes (joint_rpick_test_noclass).  The comparison
 * can fail: with every class bound raised 30 nats (joint_rpick_test_slack,
 * wrong on purpose) results differ. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#include <stdlib.h>

/* n requests X -> B, B calling C once each 20 us after the arrival; C's
 * answer after d (how 0: all after the last call, first in last out --
 * the overlap input; 1: d log-uniform over 0.1 to 100 ms, many open at
 * once and returns among the calls; 2: half of each), B's answer 30 us
 * after; stamps rounded to tick */
static pb_trace *overlap_trace(unsigned long seed, int n, int how, pb_ns tick)
{
    const pb_ns us = 1000;
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    pb_trace *t;
    if (!g || pb_trace_new(&t) != PB_OK) {
        gsl_rng_free(g);
        return NULL;
    }
    gsl_rng_set(g, seed);
    joint_test_tick = tick;
    next_id = 1;
    pb_ns t0 = 0, end = 0;
    for (int i = 0; i < n; i++) {
        t0 += 100 * us + (pb_ns)gsl_rng_uniform_int(g, 1000 * us);
        pb_ns d;
        if (how == 0 || (how == 2 && gsl_rng_uniform(g) < 0.5))
            d = 2 * (pb_ns)(n - i) * 1100 * us + (pb_ns)gsl_rng_uniform_int(g, 500 * us);
        else
            d = (pb_ns)(100.0 * us * exp(gsl_rng_uniform(g) * log(1000.0)));
        msg_rounded(t, t0, "X", "B", PB_TYPE_CALL, PB_ID_NONE);
        msg_rounded(t, t0 + 20 * us, "B", "C", PB_TYPE_CALL, PB_ID_NONE);
        msg_rounded(t, t0 + 20 * us + d, "C", "B", PB_TYPE_RETURN, PB_ID_NONE);
        msg_rounded(t, t0 + 50 * us + d, "B", "X", PB_TYPE_RETURN, PB_ID_NONE);
        if (t0 + 50 * us + d > end)
            end = t0 + 50 * us + d;
    }
    gsl_rng_free(g);
    pb_trace_sort(t);
    return t;
}

static pb_trace *case_trace(int seed, int k)
{
    if (seed <= 6)
        return joint_test_case_trace((unsigned long)(9300 * seed + k), seed, 0, 60);
    return overlap_trace((unsigned long)(77 * seed + k), 40 + 30 * (seed % 4), seed % 3,
                         seed % 2 ? 1000 * 1000 : 0);
}

struct counts {
    unsigned long cls, nocls;
};

/* solve with repair_bucket 0 and 2 (pair_order on, or auto for k = 1);
 * the buckets' scored calls with the classes and (a third solve) without */
static long compare(pb_trace *t, int seed, int k, int *llsame, void *ctx)
{
    struct counts *c = ctx;
    joint_params p[2];
    joint_test_params_two(p, 0, k ? "auto" : "on");
    p[0].repair_bucket = 0;
    p[1].repair_bucket = 2;
    joint *s[2];
    unsigned long before = joint_rpick_test_scored;
    long diff = joint_test_compare_two(t, p, s, llsame);
    if (diff < 0)
        return -1;
    c->cls += joint_rpick_test_scored - before;
    joint_test_close_two(s);
    pb_trace_view v = pb_trace_view_of(t);
    int keep = joint_rpick_test_noclass;
    joint_rpick_test_noclass = 1;
    before = joint_rpick_test_scored;
    joint *z = joint_test_init(&v, p[1]);
    joint_rpick_test_noclass = keep;
    if (!z)
        return -1;
    c->nocls += joint_rpick_test_scored - before;
    joint_close(z);
    return diff;
}

static const joint_test_cases cases = {14, {"pair_order=on", "pair_order=auto"}, case_trace,
                                       compare};

TEST(class_bound_picks_as_the_full_scan)
{
    struct counts c = {0, 0};
    CHECK_INT(joint_test_differing(&cases, &c, 0), 0);
    printf("# bucket calls scored: %lu with the classes, %lu without\n", c.cls, c.nocls);
    CHECK(c.nocls > 0);
    CHECK(c.cls < c.nocls);
}

TEST(class_bound_wrong_on_purpose_changes_results)
{
    struct counts c = {0, 0};
    joint_rpick_test_slack = 30;
    int bad = joint_test_differing(&cases, &c, 1);
    joint_rpick_test_slack = 0;
    printf("# with every class bound 30 nats too high: %d of 28 cases differ\n", bad);
    CHECK(bad > 0);
}

int main(void)
{
    RUN(class_bound_picks_as_the_full_scan);
    RUN(class_bound_wrong_on_purpose_changes_results);
    return pbtest_exit();
}
