/* joint's re-split estimates with the order term's bound 0 in place of the
 * term (`resplit_order_bound`, joint_lsfast.c, docs/joint.md "Speed,
 * eleventh wave (local search)"): on random traces (a service B with two
 * callers, requests making 1 to 14 calls of C and D, some in parallel,
 * some returns lost; black box and with call ids; nanoseconds and whole
 * milliseconds; the free and the held search; the order term on and
 * automatic) whole searches with resplit_order_bound=0 and 1 give every
 * parent, every pairing and the log-likelihood bit for bit, with splits
 * estimated.  The comparison can fail: with a bound 20 nats too low
 * (joint_est_order_test_bias, no longer above the term) results differ. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>

#define US 1000LL

/* solve with resplit_order_bound off and on; returns how many pairs
 * differ (-1: failure); *llsame: the same log-likelihood bits; *est:
 * splits estimated */
static long compare(pb_trace *t, int ids, const char *po, const char *order, int *llsame,
                    size_t *est)
{
    joint_params p[2];
    for (int i = 0; i < 2; i++) {
        p[i] = defaults();
        p[i].callids = ids;
        p[i].pair_order = po;
        p[i].order = order;
        p[i].resplit_order_bound = i;
    }
    joint *s[2];
    if (joint_test_solve_two(t, p, s))
        return -1;
    long diff = joint_test_pairs_differ(s[0], s[1]);
    *llsame = joint_test_ll_same(s[0], s[1]);
    *est += s[1]->est_evals;
    joint_close(s[0]);
    joint_close(s[1]);
    return diff;
}

static int differing_cases(size_t *est)
{
    int bad = 0;
    for (int seed = 1; seed <= 4; seed++)
        for (int held = 0; held < 2; held++) {
            gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
            gsl_rng_set(g, (unsigned long)(730 * seed + held));
            joint_test_tick = seed % 3 == 0 ? 1000 * US : 0;
            int ids = seed == 4;
            pb_trace *t = random_fanout_trace(g, ids, 50, 1500, 14);
            gsl_rng_free(g);
            if (!t)
                return -1;
            int llsame = 1;
            long d = compare(t, ids, held ? "on" : "off", seed % 2 ? "on" : "auto", &llsame, est);
            if (d != 0 || !llsame) {
                if (joint_est_order_test_bias == 0)
                    printf("# seed %d %s: %ld pairs differ, log-likelihood %s\n", seed,
                           held ? "held" : "free", d, llsame ? "same" : "differs");
                bad++;
            }
            pb_trace_close(t);
        }
    joint_test_tick = 0;
    return bad;
}

TEST(order_bound_in_estimates_chooses_the_same)
{
    size_t est = 0;
    CHECK_INT(differing_cases(&est), 0);
    printf("# %zu splits estimated\n", est);
    CHECK(est > 1000);
}

TEST(a_bound_below_the_term_changes_results)
{
    size_t est = 0;
    joint_est_order_test_bias = -20;
    int bad = differing_cases(&est);
    joint_est_order_test_bias = 0;
    printf("# with the bound 20 nats too low: %d of 8 cases differ\n", bad);
    CHECK(bad > 0);
}

int main(void)
{
    RUN(order_bound_in_estimates_chooses_the_same);
    RUN(a_bound_below_the_term_changes_results);
    return pbtest_exit();
}
