/* joint's exchanges bounded by what they must gain (`swap_floor`,
 * joint_xfloor.c with joint_repair.c try_exchange / best_split,
 * docs/joint/audits.md "Speed on the application shapes"): on random black-box
 * traces (a service B with two callers, requests making 1 to 14 calls of C
 * and D, some in parallel, some returns lost; in nanoseconds and in whole
 * milliseconds; the free and the held search) whole searches with
 * swap_floor=0 and 1 give every parent, every pairing and the
 * log-likelihood bit for bit, and the floor leaves splits out.  The
 * comparison can fail: with the floor 20 nats too high on purpose
 * (joint_xfloor_test_bias) exchanges that gain are turned down and results
 * differ.  And `swap_memo` (a request's own log-likelihood kept within one
 * pass of exchanges): on/off the same; never cleared on purpose, results
 * differ. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#include <math.h>
#include <stdlib.h>

/* case (seed, held): joint_test_case_trace, black box */
static pb_trace *case_trace(int seed, int held)
{
    return joint_test_case_trace((unsigned long)(870 * seed + held), seed, 0, 100);
}

/* solve with swap_floor off and on (the held search when held); returns
 * how many pairs differ (-1: failure); *llsame: the same log-likelihood
 * bits; *left (a size_t) += splits the floor left out (the bound's and the
 * estimates' together) */
static long compare(pb_trace *t, int seed, int held, int *llsame, void *left)
{
    joint_params p[2];
    joint_test_params_two(p, 0, held ? "on" : "off");
    p[0].swap_floor = 0;
    p[1].swap_floor = 1;
    joint *s[2];
    long diff = joint_test_compare_two(t, p, s, llsame);
    if (diff < 0)
        return -1;
    size_t a = s[0]->bnb_cut + s[0]->est_pruned, b = s[1]->bnb_cut + s[1]->est_pruned;
    if (b > a)
        *(size_t *)left += b - a;
    joint_test_close_two(s);
    return diff;
}

static const joint_test_cases cases = {4, {"free", "held"}, case_trace, compare};

/* solve with swap_memo off and on; returns how many pairs differ */
static long compare_memo(pb_trace *t, int seed, int held, int *llsame, void *unused)
{
    joint_params p[2];
    joint_test_params_two(p, 0, held ? "on" : "off");
    p[0].swap_memo = 0;
    p[1].swap_memo = 1;
    joint *s[2];
    long diff = joint_test_compare_two(t, p, s, llsame);
    if (diff < 0)
        return -1;
    joint_test_close_two(s);
    return diff;
}

static const joint_test_cases memo_cases = {4, {"free", "held"}, case_trace, compare_memo};

static int differing_cases(size_t *left)
{
    return joint_test_differing(&cases, left, joint_xfloor_test_bias != 0);
}

TEST(exchanges_bounded_by_their_floor_choose_the_same)
{
    size_t left = 0;
    CHECK_INT(differing_cases(&left), 0);
    printf("# %zu more splits of the exchanges' top re-splits left out under the floor\n",
           left);
    CHECK(left > 100);
}

TEST(a_floor_too_high_changes_results)
{
    size_t left = 0;
    joint_xfloor_test_bias = 20;
    int bad = differing_cases(&left);
    joint_xfloor_test_bias = 0;
    printf("# with the floor 20 nats too high: %d of 8 cases differ\n", bad);
    CHECK(bad > 0);
}

/* the floor by hand: best + before - xsum + margin, lowered by
 * JOINT_PRUNE_TOL of the magnitudes; off (or not finite) is -INFINITY */
TEST(floor_by_hand)
{
    joint s;
    memset(&s, 0, sizeof s);
    s.p.swap_floor = 1;
    double f = joint_xfloor(&s, 1e-9, -30.0, -1000.0, 1.0);
    double want = 1e-9 - 1000.0 + 30.0 + 1.0;
    CHECK(f < want);
    CHECK(f > want - 1e-3);
    CHECK(joint_xfloor(&s, 1e-9, -30.0, -INFINITY, 0) == -INFINITY);
    CHECK(joint_xfloor(&s, 1e-9, NAN, -5.0, 0) == -INFINITY);
    s.p.swap_floor = 0;
    CHECK(joint_xfloor(&s, 1e-9, -30.0, -1000.0, 1.0) == -INFINITY);
}

/* swap_memo (joint_xfloor.c): the exchanges' "before" values kept within a
 * pass give the same searches; kept across applied exchanges (stale on
 * purpose) they do not */
TEST(exchanges_memo_chooses_the_same)
{
    CHECK_INT(joint_test_differing(&memo_cases, NULL, 0), 0);
}

TEST(a_stale_memo_changes_results)
{
    joint_xmemo_test_stale = 1;
    int bad = joint_test_differing(&memo_cases, NULL, 1);
    joint_xmemo_test_stale = 0;
    printf("# with the memo never cleared: %d of 8 cases differ\n", bad);
    CHECK(bad > 0);
}

int main(void)
{
    RUN(exchanges_bounded_by_their_floor_choose_the_same);
    RUN(a_floor_too_high_changes_results);
    RUN(floor_by_hand);
    RUN(exchanges_memo_chooses_the_same);
    RUN(a_stale_memo_changes_results);
    return pbtest_exit();
}
