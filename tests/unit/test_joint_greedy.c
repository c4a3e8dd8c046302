/* joint's greedy round in one pass and under a frozen model (`greedy_cut`,
 * joint_greedy.c, docs/joint/speed_middle.md "Speed, ninth wave"): on random traces (a
 * service B with
 * two callers, requests making 1 to 14 calls of C and D, some in
 * parallel, some returns lost; with call ids and as a black box, in
 * nanoseconds and in whole milliseconds) every cost of a call in a
 * candidate request is the same bits whether the trigger search stops at
 * the first call sent after it or scans every call, and whole searches
 * with greedy_cut=0 and 1 give every parent, every pairing and the
 * log-likelihood bit for bit.  The comparison can fail: with the stop
 * moved 2 ms earlier on purpose (joint_greedy_test_shift) costs and
 * results differ.  And the stop is not used when a return precedes its
 * call.  Black-box searches leave calls unevaluated in greedy rounds under
 * a frozen model (the re-pairing's solve with open ends), and leaving out
 * calls whose candidates changed (joint_greedy_test_stale) changes
 * results. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>

#define US 1000LL

static size_t greedy_skipped; /* calls left unevaluated, every case */

/* every (call, candidate) cost of the solved search s with the stop and
 * without: how many differ (bits); *n: how many compared */
static long costs_differ(joint *s, size_t *n)
{
    long d = 0;
    for (uint32_t p = 0; p < s->npairs; p++) {
        if (s->cand_off[p + 1] - s->cand_off[p] < 2)
            continue;
        for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++) {
            uint32_t q = s->cand[j];
            s->greedy_mono = 0;
            double a = joint_greedy_cost(s, p, q);
            s->greedy_mono = 1;
            double b = joint_greedy_cost(s, p, q);
            d += memcmp(&a, &b, sizeof a) != 0;
            (*n)++;
        }
    }
    return d;
}

/* solve the trace with greedy_cut off and on; returns how many pairs
 * differ (-1: failure); *llsame: the same log-likelihood bits; the
 * costs compared on the solved state added to the joint_test_costs at cnt */
static long compare(pb_trace *t, int seed, int ids, int *llsame, void *cnt)
{
    joint_test_costs *c = cnt;
    joint_params p[2];
    for (int i = 0; i < 2; i++) {
        p[i] = defaults();
        p[i].greedy_cut = i;
    }
    joint *s[2];
    long diff = joint_test_compare_two(t, p, s, llsame);
    if (diff < 0)
        return -1;
    CHECK(s[0]->greedy_skipped == 0);
    greedy_skipped += s[1]->greedy_skipped;
    joint_greedy_prep(s[1]);
    CHECK(s[1]->greedy_mono); /* every return follows its call here */
    c->cdiff += costs_differ(s[1], &c->ncost);
    joint_test_close_two(s);
    return diff;
}

/* case (seed, ids): joint_test_case_trace */
static pb_trace *case_trace(int seed, int ids)
{
    return joint_test_case_trace((unsigned long)(700 * seed + ids), seed, ids, 100);
}

static const joint_test_cases cases = {4, {"ids 0", "ids 1"}, case_trace, compare};

/* every case: returns the cases whose results differ */
static int differing_cases(joint_test_costs *c)
{
    return joint_test_differing(&cases, c,
                                joint_greedy_test_shift != 0 || joint_greedy_test_stale);
}

TEST(greedy_cut_chooses_what_the_full_scan_does)
{
    joint_test_costs c = {0, 0};
    CHECK_INT(differing_cases(&c), 0);
    CHECK_INT(c.cdiff, 0);
    CHECK(c.ncost > 1000);
    printf("# %zu costs compared, %ld differ; %zu calls left unevaluated (frozen model)\n",
           c.ncost, c.cdiff, greedy_skipped);
    CHECK(greedy_skipped > 100);
}

TEST(leaving_out_calls_whose_candidates_changed_changes_results)
{
    joint_test_costs c = {0, 0};
    joint_greedy_test_stale = 1;
    int bad = differing_cases(&c);
    joint_greedy_test_stale = 0;
    printf("# stale evaluations kept: %d of 8 cases differ\n", bad);
    CHECK(bad > 0);
}

TEST(a_stop_too_early_changes_results)
{
    joint_test_costs c = {0, 0};
    joint_greedy_test_shift = 2000 * US;
    int bad = differing_cases(&c);
    joint_greedy_test_shift = 0;
    printf("# stop 2 ms early: %d of 8 cases differ, %ld of %zu costs\n", bad, c.cdiff, c.ncost);
    CHECK(bad > 0);
    CHECK(c.cdiff > 0);
}

TEST(no_stop_when_a_return_precedes_its_call)
{
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, 701);
    pb_trace *t = random_fanout_trace(g, 1, 100, 300, 7);
    gsl_rng_free(g);
    CHECK(t != NULL);
    if (!t)
        return;
    pb_trace_view v = pb_trace_view_of(t);
    joint *s = NULL;
    pb_error err;
    joint_params p = defaults();
    CHECK_INT(joint_init(&s, &v, &p, &err), PB_OK);
    if (s) {
        joint_greedy_prep(s);
        CHECK(s->greedy_mono);
        uint32_t x = 0;
        while (x < s->npairs && (s->pr[x].ret == JOINT_NONE || s->pr[x].call == JOINT_NONE))
            x++;
        CHECK(x < s->npairs);
        if (x < s->npairs) {
            pb_ns keep = s->pr[x].rr;
            s->pr[x].rr = s->pr[x].cs - 1;
            joint_greedy_prep(s);
            CHECK(!s->greedy_mono);
            s->pr[x].rr = keep;
            s->p.greedy_cut = 0;
            joint_greedy_prep(s);
            CHECK(!s->greedy_mono); /* greedy_cut=0: never */
        }
        joint_close(s);
    }
    pb_trace_close(t);
}

int main(void)
{
    RUN(greedy_cut_chooses_what_the_full_scan_does);
    RUN(a_stop_too_early_changes_results);
    RUN(leaving_out_calls_whose_candidates_changed_changes_results);
    RUN(no_stop_when_a_return_precedes_its_call);
    return pbtest_exit();
}
