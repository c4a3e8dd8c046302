/* joint's greedy round from large requests' sorted returns
 * (`greedy_sorted`, joint_gsort.c, docs/joint.md "Speed, eleventh wave
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
 * failure); *llsame: the same log-likelihood bits; *cdiff, *ncost: the
 * costs compared on the solved state */
static long compare(pb_trace *t, int ids, int *llsame, long *cdiff, size_t *ncost)
{
    joint_params p[2];
    for (int i = 0; i < 2; i++) {
        p[i] = defaults();
        p[i].callids = ids;
        p[i].greedy_sorted = i;
    }
    joint *s[2];
    if (joint_test_solve_two(t, p, s))
        return -1;
    long diff = joint_test_pairs_differ(s[0], s[1]);
    *llsame = joint_test_ll_same(s[0], s[1]);
    if (s[0]->gs)
        diff = -1;
    long c = costs_differ(s[1], ncost);
    *cdiff += c < 0 ? 1000000 : c;
    joint_close(s[0]);
    joint_close(s[1]);
    return diff;
}

static int differing_cases(long *cdiff, size_t *ncost)
{
    int bad = 0;
    for (int seed = 1; seed <= 4; seed++)
        for (int ids = 0; ids < 2; ids++) {
            gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
            gsl_rng_set(g, (unsigned long)(720 * seed + ids));
            joint_test_tick = seed % 2 == 0 ? 1000 * US : 0;
            pb_trace *t = random_fanout_trace(g, ids, 50, 1500, 24);
            gsl_rng_free(g);
            if (!t)
                return -1;
            int llsame = 1;
            long d = compare(t, ids, &llsame, cdiff, ncost);
            if (d != 0 || !llsame) {
                if (!joint_gsort_test_stale)
                    printf("# seed %d ids %d: %ld pairs differ, log-likelihood %s\n", seed, ids,
                           d, llsame ? "same" : "differs");
                bad++;
            }
            pb_trace_close(t);
        }
    joint_test_tick = 0;
    return bad;
}

TEST(sorted_returns_give_the_scans_costs)
{
    long cdiff = 0;
    size_t ncost = 0;
    CHECK_INT(differing_cases(&cdiff, &ncost), 0);
    CHECK_INT(cdiff, 0);
    printf("# %zu costs from sorted returns, %ld differ from the scan\n", ncost, cdiff);
    CHECK(ncost > 1000);
}

TEST(sorted_returns_kept_after_changes_give_other_costs)
{
    long cdiff = 0;
    size_t ncost = 0;
    joint_gsort_test_stale = 1;
    int bad = differing_cases(&cdiff, &ncost);
    joint_gsort_test_stale = 0;
    printf("# kept after changes: %ld costs differ, %d of 8 searches differ\n", cdiff, bad);
    CHECK(cdiff > 0);
}

int main(void)
{
    RUN(sorted_returns_give_the_scans_costs);
    RUN(sorted_returns_kept_after_changes_give_other_costs);
    return pbtest_exit();
}
