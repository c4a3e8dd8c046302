/* joint's greedy round from large requests' sorted returns
 * (`greedy_sorted`, joint_gsort.c, docs/joint/speed_middle.md "Speed, eleventh wave
 * (local search)"): on random traces (a service B with two callers,
 * requests making 1 to 24 calls of C and D, some in parallel, some returns
 * lost; black box and with call ids; nanoseconds and whole milliseconds)
 * every cost of a call in a candidate request of JOINT_GS_MIN calls or
 * more is the same bits as the scan's, also after calls are moved within
 * the round, and whole searches with greedy_sorted=0 and 1 give every
 * parent, every pairing and the log-likelihood bit for bit.  The
 * comparison can fail: when the sorted returns are kept after changes of
 * the request's calls (joint_gsort_test_stale) costs differ. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <string.h>

#define US 1000LL

/* every (call, candidate) cost in one round of the solved search s, from
 * the sorted returns and from the scan, moving every third call to
 * another candidate after its costs: how many differ (bits); *n: how many
 * came from the sorted returns */
static long costs_differ(joint *s, size_t *n)
{
    long d = 0;
    joint_greedy_prep(s);
    if (joint_gsort_round_start(s) != PB_OK)
        return -1;
    for (uint32_t p = 0; p < s->npairs; p++) {
        uint32_t c0 = s->cand_off[p], c1 = s->cand_off[p + 1];
        if (c1 - c0 < 2)
            continue;
        for (uint32_t j = c0; j < c1; j++) {
            uint32_t q = s->cand[j];
            double a = joint_greedy_cost(s, p, q);
            struct joint_gsort *g = s->gs;
            s->gs = NULL;
            double b = joint_greedy_cost(s, p, q);
            s->gs = g;
            d += memcmp(&a, &b, sizeof a) != 0;
            *n += s->kids[q].n >= JOINT_GS_MIN;
        }
        if (p % 3 == 0) {
            uint32_t to = s->cand[c0 + p % (c1 - c0)];
            if (to != s->par[p] && joint_set_parent(s, p, to) != PB_OK)
                return -1;
        }
    }
    joint_gsort_round_end(s);
    return d;
}

/* solve with greedy_sorted off and on; returns how many pairs differ (-1:
 * failure); *llsame: the same log-likelihood bits; the costs compared on
 * the solved state added to the joint_test_costs at cnt */
static long compare(pb_trace *t, int seed, int ids, int *llsame, void *cnt)
{
    joint_test_costs *c = cnt;
    joint_params p[2];
    joint_test_params_two(p, ids, NULL);
    p[0].greedy_sorted = 0;
    p[1].greedy_sorted = 1;
    joint *s[2];
    long diff = joint_test_compare_two(t, p, s, llsame);
    if (diff < 0)
        return -1;
    if (s[0]->gs)
        diff = -1;
    long cd = costs_differ(s[1], &c->ncost);
    c->cdiff += cd < 0 ? 1000000 : cd;
    joint_test_close_two(s);
    return diff;
}

/* case (seed, ids): 50 requests of up to 24 calls, 1 ms stamps with even
 * seeds */
static pb_trace *case_trace(int seed, int ids)
{
    return joint_test_seeded_trace((unsigned long)(720 * seed + ids),
                                   seed % 2 == 0 ? 1000 * US : 0, ids, 50, 1500, 24);
}

static const joint_test_cases cases = {4, {"ids 0", "ids 1"}, case_trace, compare};

static int differing_cases(joint_test_costs *c)
{
    return joint_test_differing(&cases, c, joint_gsort_test_stale);
}

TEST(sorted_returns_give_the_scans_costs)
{
    joint_test_costs c = {0, 0};
    CHECK_INT(differing_cases(&c), 0);
    CHECK_INT(c.cdiff, 0);
    printf("# %zu costs from sorted returns, %ld differ from the scan\n", c.ncost, c.cdiff);
    CHECK(c.ncost > 1000);
}

TEST(sorted_returns_kept_after_changes_give_other_costs)
{
    joint_test_costs c = {0, 0};
    joint_gsort_test_stale = 1;
    int bad = differing_cases(&c);
    joint_gsort_test_stale = 0;
    printf("# kept after changes: %ld costs differ, %d of 8 searches differ\n", c.cdiff, bad);
    CHECK(c.cdiff > 0);
}

int main(void)
{
    RUN(sorted_returns_give_the_scans_costs);
    RUN(sorted_returns_kept_after_changes_give_other_costs);
    return pbtest_exit();
}
