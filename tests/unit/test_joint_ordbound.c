/* joint's held search with its order terms left out where they cannot
 * change a decision (`order_bound`, joint_ordbound.c, docs/joint.md "Speed,
 * eleventh wave"): on random traces (joint_test_case_trace: a service B
 * with two callers, requests making up to 7 or 14 calls of C and D, some
 * in parallel, some returns lost; black box and with call ids;
 * nanoseconds and whole milliseconds; the held search and pair_order=auto)
 * whole searches with order_bound=0 and 1 give every parent, every pairing
 * and the log-likelihood bit for bit, and order terms are left out (of
 * estimates, and of exchanges of returns).  The comparison can fail: with
 * either shortcut made wrong on purpose (joint_ordbound_test_slack: an
 * estimate left out up to 20 nats above its bound; joint_ordbound_test_noswap:
 * an exchange skipped with the bound of the order of answers' change taken
 * with the wrong sign) results differ. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#include <stdlib.h>

/* solve with order_bound off and on; returns how many pairs differ (-1:
 * failure); *llsame: the same log-likelihood bits; *est, *swp: order terms
 * left out */
static long compare(pb_trace *t, int ids, const char *po, int *llsame, size_t *est,
                    size_t *swp)
{
    joint_params p[2];
    for (int i = 0; i < 2; i++) {
        p[i] = defaults();
        p[i].callids = ids;
        p[i].pair_order = po;
        p[i].order_bound = i;
    }
    joint *s[2];
    if (joint_test_solve_two(t, p, s))
        return -1;
    long diff = joint_test_pairs_differ(s[0], s[1]);
    *llsame = joint_test_ll_same(s[0], s[1]);
    *est += s[1]->ordb_est;
    *swp += s[1]->ordb_swap;
    if (s[0]->ordb_est || s[0]->ordb_swap)
        diff = -1;
    joint_close(s[0]);
    joint_close(s[1]);
    return diff;
}

static int differing_cases(size_t *est, size_t *swp)
{
    int bad = 0;
    for (int seed = 1; seed <= 6; seed++)
        for (int mode = 0; mode < 2; mode++) {
            int ids = seed == 5;
            pb_trace *t = joint_test_case_trace((unsigned long)(9100 * seed + mode), seed, ids, 40);
            if (!t)
                return -1;
            int llsame = 1;
            long d = compare(t, ids, mode ? "auto" : "on", &llsame, est, swp);
            if (d != 0 || !llsame) {
                if (joint_ordbound_test_slack == 0 && !joint_ordbound_test_noswap)
                    printf("# seed %d %s: %ld pairs differ, log-likelihood %s\n", seed,
                           mode ? "auto" : "held", d, llsame ? "same" : "differs");
                bad++;
            }
            pb_trace_close(t);
        }
    joint_test_tick = 0;
    return bad;
}

TEST(order_terms_left_out_choose_the_same)
{
    size_t est = 0, swp = 0;
    CHECK_INT(differing_cases(&est, &swp), 0);
    printf("# order terms left out: %zu estimates, %zu exchanges of returns\n", est, swp);
    CHECK(est > 1000);
    CHECK(swp > 0);
}

TEST(estimate_bound_wrong_on_purpose_changes_results)
{
    size_t est = 0, swp = 0;
    joint_ordbound_test_slack = 20;
    int bad = differing_cases(&est, &swp);
    joint_ordbound_test_slack = 0;
    printf("# with estimates left out 20 nats above their bound: %d of 12 cases differ\n", bad);
    CHECK(bad > 0);
}

TEST(exchange_bound_wrong_on_purpose_changes_results)
{
    size_t est = 0, swp = 0;
    joint_ordbound_test_noswap = 1;
    int bad = differing_cases(&est, &swp);
    joint_ordbound_test_noswap = 0;
    printf("# with the exchanges' bound of the wrong sign: %d of 12 cases differ\n", bad);
    CHECK(bad > 0);
}

int main(void)
{
    RUN(order_terms_left_out_choose_the_same);
    RUN(estimate_bound_wrong_on_purpose_changes_results);
    RUN(exchange_bound_wrong_on_purpose_changes_results);
    return pbtest_exit();
}
