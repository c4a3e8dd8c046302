/* joint's held search with its order terms left out where they cannot
 * change a decision (`order_bound`, joint_ordbound.c, docs/joint/speed_middle.md "Speed,
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

/* case (seed, mode): joint_test_case_trace, call ids with seed 5 */
static pb_trace *case_trace(int seed, int mode)
{
    return joint_test_case_trace((unsigned long)(9100 * seed + mode), seed, seed == 5, 40);
}

/* what the cases count: order terms left out */
struct counts {
    size_t est, swp;
};

/* solve with order_bound off and on (pair_order "on" or, mode 1,
 * "auto"); returns how many pairs differ (-1: failure); *llsame: the
 * same log-likelihood bits; the order terms left out added to the
 * struct counts at cnt */
static long compare(pb_trace *t, int seed, int mode, int *llsame, void *cnt)
{
    struct counts *c = cnt;
    joint_params p[2];
    joint_test_params_two(p, seed == 5, mode ? "auto" : "on");
    p[0].order_bound = 0;
    p[1].order_bound = 1;
    joint *s[2];
    long diff = joint_test_compare_two(t, p, s, llsame);
    if (diff < 0)
        return -1;
    c->est += s[1]->ordb_est;
    c->swp += s[1]->ordb_swap;
    if (s[0]->ordb_est || s[0]->ordb_swap)
        diff = -1;
    joint_test_close_two(s);
    return diff;
}

static const joint_test_cases cases = {6, {"held", "auto"}, case_trace, compare};

static int differing_cases(size_t *est, size_t *swp)
{
    struct counts c = {0, 0};
    int bad = joint_test_differing(&cases, &c,
                                   joint_ordbound_test_slack != 0 || joint_ordbound_test_noswap);
    *est += c.est;
    *swp += c.swp;
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

/* the cases that differ with a bound made wrong on purpose: estimates
 * left out slack nats above their bound, or (noswap) the exchanges' bound
 * of the wrong sign */
static int differing_with(double slack, int noswap)
{
    size_t est = 0, swp = 0;
    joint_ordbound_test_slack = slack;
    joint_ordbound_test_noswap = noswap;
    int bad = differing_cases(&est, &swp);
    joint_ordbound_test_slack = 0;
    joint_ordbound_test_noswap = 0;
    return bad;
}

TEST(estimate_bound_wrong_on_purpose_changes_results)
{
    int bad = differing_with(20, 0);
    printf("# with estimates left out 20 nats above their bound: %d of 12 cases differ\n", bad);
    CHECK(bad > 0);
}

TEST(exchange_bound_wrong_on_purpose_changes_results)
{
    int bad = differing_with(0, 1);
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
