/* joint's capped candidate lists taken from the two ends directly
 * (`cand_fast`, joint_cfast.c; docs/joint/scale.md "The overlap input's
 * growth: the candidate lists (h240)") against every list built in full
 * and cut (cand_fast=0), on random bare pairs: whole 1 ms ticks from a
 * short range (ties at both ends of the cut) and nanosecond stamps with
 * many requests open at once (lists far longer than the cap), with
 * max_candidates small, the tree everywhere or past 16, with and without
 * slack, with ends opened, cand_group on and off: the same candidates in
 * the same order for every call, and the same count of capped calls and
 * longest list.  The comparison can fail: with the end run's window
 * turned one too far (joint_cfast_test_wrong) lists differ. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_cands_test.h"

#include <stdlib.h>

#define NP 500

/* nanoseconds: long requests, many open at once */
static void ns_stamps(gsl_rng *r, jpair *x, void *arg)
{
    (void)arg;
    x->cs = (pb_ns)gsl_rng_uniform_int(r, 1000000000);
    x->cr = x->cs + (pb_ns)gsl_rng_uniform_int(r, 1000);
    x->rs = x->cr + (pb_ns)gsl_rng_uniform_int(r, 600000000);
    x->rr = x->rs + (pb_ns)gsl_rng_uniform_int(r, 1000);
}

static joint *rand_pairs(gsl_rng *r, uint32_t nn, int opened, unsigned ticks, int ns)
{
    return joint_test_bare_pairs(r, NP, nn, opened, 1000000,
                                 ns ? ns_stamps : joint_test_tick_stamps, &ticks);
}

static int one_case(unsigned long seed, int ns, pb_ns slack, int opened, uint32_t min, int kmax,
                    int group, size_t *diff)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (!r)
        return 0;
    gsl_rng_set(r, seed);
    joint *s = rand_pairs(r, 1 + (uint32_t)(seed % 3), opened, 3 + (unsigned)(seed % 5) * 4, ns);
    gsl_rng_free(r);
    if (!s)
        return 0;
    s->p.slack = slack;
    s->p.max_cand = kmax;
    s->p.cand_group = group;
    uint32_t save = joint_csweep_min;
    joint_csweep_min = min;
    size_t la = 0, lb = 0;
    s->p.cand_fast = 0;
    uint32_t *a = joint_test_cands(s, &la);
    size_t ca = s->capped_calls, ma = s->capped_max;
    s->p.cand_fast = 1;
    uint32_t *b = joint_test_cands(s, &lb);
    joint_csweep_min = save;
    int ok = a && b;
    if (ok && (la != lb || memcmp(a, b, la * sizeof *a) || ca != s->capped_calls ||
               ma != s->capped_max))
        (*diff)++;
    free(a);
    free(b);
    joint_test_drop_bare(s);
    return ok;
}

static size_t all_cases(size_t *cases)
{
    size_t diff = 0;
    static const int ks[] = {1, 2, 3, 5, 8, 32};
    for (unsigned long seed = 1; seed <= 8; seed++)
        for (int ns = 0; ns < 2; ns++)
            for (int opened = 0; opened < 2; opened++)
                for (pb_ns slack = 0; slack <= 1000000; slack += 1000000)
                    for (uint32_t min = 0; min <= 16; min += 16)
                        for (int group = 0; group < 2; group++)
                            for (size_t k = 0; k < sizeof ks / sizeof *ks; k++) {
                                CHECK(one_case(seed, ns, slack, opened, min, ks[k], group,
                                               &diff));
                                (*cases)++;
                            }
    return diff;
}

TEST(lists_from_the_ends_as_the_full_lists_cut)
{
    size_t cases = 0, diff = all_cases(&cases);
    CHECK_INT(diff, 0);
    printf("# cand_fast: %zu cases, %zu differ\n", cases, diff);
}

TEST(a_window_one_off_gives_other_lists)
{
    size_t cases = 0;
    joint_cfast_test_wrong = 1;
    size_t diff = all_cases(&cases);
    joint_cfast_test_wrong = 0;
    printf("# cand_fast's end window one off: %zu of %zu cases differ\n", diff, cases);
    CHECK(diff > 0);
}

TEST(the_default_takes_them_from_the_ends)
{
    joint_params p = defaults();
    CHECK_INT(p.cand_fast, 1);
}

int main(void)
{
    RUN(lists_from_the_ends_as_the_full_lists_cut);
    RUN(a_window_one_off_gives_other_lists);
    RUN(the_default_takes_them_from_the_ends);
    return pbtest_exit();
}
