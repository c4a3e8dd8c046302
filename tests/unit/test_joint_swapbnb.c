/* joint's exchanges' re-split by branch and bound (`swap_bound`,
 * joint_repair.c best_split with joint_bnb.c, docs/joint.md "Speed, ninth
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

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>

#define US 1000LL

/* solve with swap_bound off and on (pair_order po; the re-split's own
 * bound on in both, so only the exchanges' differs);
 * returns how many pairs differ (-1: failure); *llsame: the same
 * log-likelihood bits; *cut: splits the bound left out */
static long compare(pb_trace *t, const char *po, int *llsame, size_t *cut)
{
    joint_params p[2];
    for (int i = 0; i < 2; i++) {
        p[i] = defaults();
        p[i].callids = 0;
        p[i].pair_order = po;
        p[i].swap_bound = i;
    }
    joint *s[2];
    if (joint_test_solve_two(t, p, s))
        return -1;
    long diff = joint_test_pairs_differ(s[0], s[1]);
    *llsame = joint_test_ll_same(s[0], s[1]);
    *cut += s[1]->bnb_cut - s[0]->bnb_cut;
    joint_close(s[0]);
    joint_close(s[1]);
    return diff;
}

static int differing_cases(size_t *cut)
{
    int bad = 0;
    for (int seed = 1; seed <= 4; seed++)
        for (int held = 0; held < 2; held++) {
            pb_trace *t = joint_test_case_trace((unsigned long)(900 * seed + held), seed, 0, 100);
            if (!t)
                return -1;
            int llsame = 1;
            long d = compare(t, held ? "on" : "off", &llsame, cut);
            if (d != 0 || !llsame) {
                if (joint_bnb_test_bias == 0)
                    printf("# seed %d %s: %ld pairs differ, log-likelihood %s\n", seed,
                           held ? "held" : "free", d, llsame ? "same" : "differs");
                bad++;
            }
            pb_trace_close(t);
        }
    joint_test_tick = 0;
    return bad;
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
