/* joint's local search with exchanges bounded before they are walked
 * (joint_rsx.c, docs/joint/speed_late.md "Exchanges bounded from the
 * record"): on random traces (a service B with two callers, requests
 * making 1 to 14 calls of C and D, some in parallel, some returns lost;
 * black box and with call ids; nanoseconds and whole milliseconds; the
 * free and the held search) whole searches without the bound and with it
 * give every parent, every pairing, the log-likelihood bit for bit and the
 * same counts of estimates and of splits left out; every bound made is at
 * least the estimates it stands for (both made as well:
 * joint_rsx_test_check), and where no late response is bounded the bound
 * is the estimate up to rounding (it is exact there); many exchanges are
 * left out by it.  The comparison can fail: with every bound 30 nats too
 * low on purpose (joint_rsx_test_bias) bounds fall below their estimates
 * and results differ; with the durations term forced on (rho 0.6) a
 * wrong durations part is caught too. */
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

/* the bound under test: joint_rsx_test_* */
#define BOUND_OF() {&joint_rsx_test_off, &joint_rsx_test_skipped, &joint_rsx_test_used, \
                        &joint_rsx_test_bad, 0, 0, 0, 0}

/* solve without the bound, then with it; returns how many pairs differ
 * (-1: failure) */
static long compare(pb_trace *t, int seed, int held, int *llsame, void *vc)
{
    return joint_test_bound_compare(t, seed == 4, held ? "on" : "off", llsame, vc);
}

static const joint_test_cases cases = {4, {"free", "held"}, case_trace, compare};

TEST(bounded_exchanges_choose_the_same)
{
    joint_test_bound c = BOUND_OF();
    joint_rsx_test_check = 1;
    joint_rsx_test_gap = 0;
    int bad = joint_test_differing(&cases, &c, 0);
    joint_rsx_test_check = 0;
    CHECK_INT(bad, 0);
    CHECK_INT(c.counts_differ, 0);
    printf("# %zu bounds made, %zu exchanges left out by them, %zu below their estimate, "
           "largest excess without a late response %.3g nats\n", c.used, c.skipped, c.bad,
           joint_rsx_test_gap);
    CHECK(c.bad == 0);
    CHECK(c.used > 100);
    CHECK(c.skipped > c.used / 4);
    CHECK(joint_rsx_test_gap < 1e-6);
}

/* from one solved state with the durations term forced on (rho 0.6 for
 * every two consecutive calls, as test_joint_bnb): one more pass of the
 * local search without the bound and with it (the durations part of the
 * bound: the random traces above learn no correlation) */
static long compare_forced(pb_trace *t, int seed, int held, int *llsame, void *vc)
{
    joint_test_bound *c = vc;
    joint_params p[2];
    joint_test_params_two(p, seed == 4, held ? "on" : "off");
    joint *s[2];
    if (joint_test_solve_two(t, p, s))
        return -1;
    long diff = 0;
    for (int i = 0; i < 2; i++) {
        if (joint_corr_force(s[i], 0.6) != PB_OK)
            diff = -1;
        free(s[i]->corr_svc);
        s[i]->corr_svc = NULL;
        s[i]->pass_id = 0; /* every pair of requests re-split */
    }
    if (!s[0]->corr_any)
        diff = -1;
    for (int i = 0; i < 2 && diff == 0; i++) {
        int changed = 0;
        size_t snap[3];
        joint_test_bound_begin(c, i == 1, snap);
        if (joint_local_search(s[i], &changed) != PB_OK)
            diff = -1;
        joint_test_bound_end(c, i == 1, snap);
    }
    if (diff == 0)
        diff = joint_test_pairs_differ(s[0], s[1]);
    if (s[0]->est_evals != s[1]->est_evals || s[0]->est_pruned != s[1]->est_pruned)
        c->counts_differ++;
    *llsame = 1;
    joint_close(s[0]);
    joint_close(s[1]);
    return diff;
}

static const joint_test_cases forced_cases = {4, {"free", "held"}, case_trace, compare_forced};

TEST(bounded_exchanges_with_the_durations_term)
{
    joint_test_bound c = BOUND_OF();
    joint_rsx_test_check = 1;
    joint_rsx_test_gap = 0;
    int bad = joint_test_differing(&forced_cases, &c, 0);
    joint_rsx_test_check = 0;
    CHECK_INT(bad, 0);
    CHECK_INT(c.counts_differ, 0);
    printf("# durations term forced: %zu bounds made, %zu exchanges left out, %zu below their "
           "estimate, largest excess without a late response %.3g nats\n", c.used, c.skipped,
           c.bad, joint_rsx_test_gap);
    CHECK(c.bad == 0);
    CHECK(c.used > 100);
    CHECK(joint_rsx_test_gap < 1e-6);
}

TEST(exchange_bounds_too_low_change_results)
{
    joint_test_bound c = BOUND_OF();
    joint_rsx_test_bias = -30;
    joint_rsx_test_check = 1;
    int bad = joint_test_differing(&cases, &c, 1);
    joint_rsx_test_check = 0;
    joint_rsx_test_bias = 0;
    printf("# with bounds 30 nats too low: %d of 8 cases differ, %zu bounds below their "
           "estimate\n", bad, c.bad);
    CHECK(bad > 0);
    CHECK(c.bad > 0);
}

/* rsx_stop (joint_rsx.c): the bound's scan of the steps ends where the
 * record's least trigger from a step on shows that no later step's
 * trigger changes.  With and without the stop: the same bounds made, the
 * same exchanges left out, the same results; with check, none below its
 * estimate and within rounding of it.  A stop blind to ci's return (wrong,
 * on purpose) leaves out steps ci triggers: bounds fall below their
 * estimates or away from them, and it is caught. */
static void stop_run(joint_test_bound *c, int nostop, int wrong, int *bad)
{
    joint_rsx_test_nostop = nostop;
    joint_rsx_test_stopwrong = wrong;
    joint_rsx_test_check = 1;
    joint_rsx_test_gap = 0;
    *bad = joint_test_differing(&cases, c, wrong);
    joint_rsx_test_check = 0;
    joint_rsx_test_nostop = 0;
    joint_rsx_test_stopwrong = 0;
}

TEST(exchange_scan_stops_change_nothing)
{
    joint_test_bound a = BOUND_OF(), b = BOUND_OF();
    int bad_a = 0, bad_b = 0;
    stop_run(&a, 1, 0, &bad_a);
    const double gap_a = joint_rsx_test_gap;
    joint_rsx_test_stops = 0;
    stop_run(&b, 0, 0, &bad_b);
    const double gap_b = joint_rsx_test_gap;
    printf("# without the stop: %zu bounds, %zu left out, gap %.3g; with it: %zu bounds, %zu "
           "left out, gap %.3g, %zu scans stopped early\n", a.used, a.skipped, gap_a, b.used,
           b.skipped, gap_b, joint_rsx_test_stops);
    CHECK_INT(bad_a, 0);
    CHECK_INT(bad_b, 0);
    CHECK(a.bad == 0 && b.bad == 0);
    CHECK(a.used == b.used);
    CHECK(a.skipped == b.skipped);
    CHECK(gap_b < 1e-6);
    CHECK(joint_rsx_test_stops > 100);
}

TEST(a_wrong_scan_stop_is_caught)
{
    joint_test_bound c = BOUND_OF();
    int bad = 0;
    stop_run(&c, 0, 1, &bad);
    printf("# stop blind to ci: %zu bounds below their estimate, largest excess %.3g nats, %d "
           "of 8 cases differ\n", c.bad, joint_rsx_test_gap, bad);
    CHECK(c.bad > 0 || joint_rsx_test_gap > 1e-6);
}

/* rsx_open (joint_rsx.c): the bound is made for a request whose walk is
 * not lean only because re-pairing leaves requests open-ended (qend),
 * reading its open end as the walk does.  Without it (those requests
 * estimated, as before) and with it: the same results and counts; with
 * check, no bound below its estimate and none away from it but by
 * rounding, and many such bounds made.  With those requests' bounds 30
 * nats too low (wrong, on purpose) bounds fall below their estimates and
 * it is caught. */
extern int joint_rsx_test_noopen;
extern size_t joint_rsx_test_open, joint_rsx_test_openmade;
extern double joint_rsx_test_openbias;

static void open_run(joint_test_bound *c, double bias, int *bad)
{
    joint_rsx_test_openbias = bias;
    joint_rsx_test_check = 1;
    joint_rsx_test_gap = 0;
    joint_rsx_test_open = joint_rsx_test_openmade = 0;
    *bad = joint_test_differing(&cases, c, bias != 0);
    joint_rsx_test_check = 0;
    joint_rsx_test_openbias = 0;
}

#define OPEN_OF() {&joint_rsx_test_noopen, &joint_rsx_test_skipped, &joint_rsx_test_used, \
                       &joint_rsx_test_bad, 0, 0, 0, 0}

TEST(open_ended_requests_bounded_change_nothing)
{
    joint_test_bound c = OPEN_OF();
    int bad = 0;
    open_run(&c, 0, &bad);
    printf("# rsx_open: %zu look-ups, %zu bounds of open-ended re-pairing's requests; in "
           "all %zu bounds, %zu exchanges left out, %zu below their estimate, gap %.3g\n",
           joint_rsx_test_open, joint_rsx_test_openmade, c.used, c.skipped, c.bad,
           joint_rsx_test_gap);
    CHECK_INT(bad, 0);
    CHECK_INT(c.counts_differ, 0);
    CHECK(c.bad == 0);
    CHECK(joint_rsx_test_openmade > 100);
    CHECK(joint_rsx_test_gap < 1e-6);
}

TEST(a_wrong_open_ended_bound_is_caught)
{
    joint_test_bound c = OPEN_OF();
    int bad = 0;
    open_run(&c, -30, &bad);
    printf("# open-ended requests' bounds 30 nats too low: %zu bounds below their estimate, "
           "%d of 8 cases differ\n", c.bad, bad);
    CHECK(c.bad > 0);
}

int main(void)
{
    RUN(bounded_exchanges_choose_the_same);
    RUN(bounded_exchanges_with_the_durations_term);
    RUN(exchange_bounds_too_low_change_results);
    RUN(exchange_scan_stops_change_nothing);
    RUN(a_wrong_scan_stop_is_caught);
    RUN(open_ended_requests_bounded_change_nothing);
    RUN(a_wrong_open_ended_bound_is_caught);
    return pbtest_exit();
}
