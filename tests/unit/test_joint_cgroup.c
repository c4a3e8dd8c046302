/* joint's shared candidate lists (`cand_group`, joint_cgroup.c;
 * docs/joint/speed.md "Speed, twentieth wave (h163)") against every list
 * built in full and cut (cand_group=0), on random bare pairs whose calls
 * share their send and return stamps (a few ticks only): the same
 * candidates in the same order for every call, with max_candidates small
 * (the cut's windows over tie groups at both ends), the tree everywhere
 * or past 16, with and without slack, with ends opened.  The group's
 * counter must fire (calls that share a tick are there). */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_cands_test.h"

#include <stdlib.h>

#define NP 500

static joint *tick_pairs(gsl_rng *r, uint32_t nn, int opened, unsigned ticks)
{
    return joint_test_bare_pairs(r, NP, nn, opened, 1000000, joint_test_tick_stamps, &ticks);
}

static int one_case(unsigned long seed, pb_ns slack, int opened, uint32_t min, int kmax,
                    size_t *diff, size_t *grouped, size_t *capped)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (!r)
        return 0;
    gsl_rng_set(r, seed);
    joint *s = tick_pairs(r, 1 + (uint32_t)(seed % 3), opened, 3 + (unsigned)(seed % 5) * 4);
    gsl_rng_free(r);
    if (!s)
        return 0;
    s->p.slack = slack;
    s->p.max_cand = kmax;
    uint32_t save = joint_csweep_min;
    joint_csweep_min = min;
    size_t la = 0, lb = 0;
    s->p.cand_group = 0;
    uint32_t *a = joint_test_cands(s, &la);
    s->p.cand_group = 1;
    s->cgroup_calls = 0;
    uint32_t *b = joint_test_cands(s, &lb);
    joint_csweep_min = save;
    *grouped += s->cgroup_calls;
    *capped += s->capped_calls;
    int ok = a && b;
    if (ok && (la != lb || memcmp(a, b, la * sizeof *a)))
        (*diff)++;
    free(a);
    free(b);
    joint_test_drop_bare(s);
    return ok;
}

TEST(shared_lists_cut_as_the_full_lists)
{
    size_t diff = 0, grouped = 0, capped = 0, cases = 0;
    static const int ks[] = {1, 2, 3, 5, 8, 32};
    for (unsigned long seed = 1; seed <= 12; seed++)
        for (int opened = 0; opened < 2; opened++)
            for (pb_ns slack = 0; slack <= 1000000; slack += 1000000)
                for (uint32_t min = 0; min <= 16; min += 16)
                    for (size_t k = 0; k < sizeof ks / sizeof *ks; k++) {
                        CHECK(one_case(seed, slack, opened, min, ks[k], &diff, &grouped,
                                       &capped));
                        cases++;
                    }
    CHECK_INT(diff, 0);
    CHECK(grouped > 1000); /* the group's counter fired */
    CHECK(capped > grouped);
    printf("# cand_group: %zu cases, %zu calls cut from a group, %zu capped, %zu differ\n",
           cases, grouped, capped, diff);
}

int main(void)
{
    RUN(shared_lists_cut_as_the_full_lists);
    return pbtest_exit();
}
