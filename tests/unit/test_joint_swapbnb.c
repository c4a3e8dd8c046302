/* joint's exchanges' re-split by branch and bound (`swap_bound`,
 * joint_repair.c best_split with joint_bnb.c, docs/joint/speed_middle.md "Speed, ninth
 * wave"): on random black-box traces (a service B with two callers,
 * requests making 1 to 14 calls of C and D, some in parallel, some returns
 * lost; in nanoseconds and in whole milliseconds; the free and the held
 * search) whole searches with swap_bound=0 and 1 give every parent, every
 * pairing and the log-likelihood bit for bit, and the bound leaves splits
 * out.  The comparison can fail: with the bound made 20 nats too low on
 * purpose (joint_bnb_test_bias) results differ. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#include <stdlib.h>

/* case (seed, held): joint_test_case_trace, black box */
static pb_trace *case_trace(int seed, int held)
{
    return joint_test_case_trace((unsigned long)(900 * seed + held), seed, 0, 100);
}

/* solve with swap_bound off and on (the held search when held; the
 * re-split's own bound on in both, so only the exchanges' differs);
 * returns how many pairs differ (-1: failure); *llsame: the same
 * log-likelihood bits; *cut (a size_t) += splits the bound left out */
static long compare(pb_trace *t, int seed, int held, int *llsame, void *cut)
{
    joint_params p[2];
    joint_test_params_two(p, 0, held ? "on" : "off");
    p[0].swap_bound = 0;
    p[1].swap_bound = 1;
    joint *s[2];
    long diff = joint_test_compare_two(t, p, s, llsame);
    if (diff < 0)
        return -1;
    *(size_t *)cut += s[1]->bnb_cut - s[0]->bnb_cut;
    joint_test_close_two(s);
    return diff;
}

static const joint_test_cases cases = {4, {"free", "held"}, case_trace, compare};

static int differing_cases(size_t *cut)
{
    return joint_test_differing(&cases, cut, joint_bnb_test_bias != 0);
}

TEST(exchanges_resplit_by_bound_chooses_the_same)
{
    size_t cut = 0;
    CHECK_INT(differing_cases(&cut), 0);
    printf("# %zu splits of the exchanges' re-split left out by the bound\n", cut);
    CHECK(cut > 100);
}

TEST(a_bound_too_low_in_the_exchanges_changes_results)
{
    size_t cut = 0;
    joint_bnb_test_bias = -20;
    int bad = differing_cases(&cut);
    joint_bnb_test_bias = 0;
    printf("# with bounds 20 nats too low: %d of 8 cases differ\n", bad);
    CHECK(bad > 0);
}

int main(void)
{
    RUN(exchanges_resplit_by_bound_chooses_the_same);
    RUN(a_bound_too_low_in_the_exchanges_changes_results);
    return pbtest_exit();
}
