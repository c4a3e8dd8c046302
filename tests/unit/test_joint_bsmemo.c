/* joint's bounded re-split with its step bounds kept per model
 * (bnb_step_memo, joint_bsmemo.c, docs/joint/speed_w29.md "The re-split's
 * step bounds kept (h246)"): on random traces (a service B with two
 * callers, requests making 1 to 14 calls of C and D, some in parallel,
 * some returns lost; with call ids and as a black box, in nanoseconds and
 * in whole milliseconds) whole searches with the table off and on give
 * every parent, every pairing, the log-likelihood and the branch and
 * bound's counters (splits scored, cut, rows kept) bit for bit; every
 * kept value used is, to the bit, the bound computed anew (check mode);
 * values are used.  The comparison can fail: with the least delay left
 * out of the table's key on purpose (joint_bsm_test_wrong), kept values
 * differ from the bounds they stand for, and it is caught. */
#include "pbtest.h"
#include "joint_int.h" /* before joint_test.h: its helpers read the counters */
#include "joint_test.h"
#include "joint_rs.h"

#include <stdlib.h>

static pb_trace *case_trace(int seed, int ids)
{
    return joint_test_case_trace((unsigned long)(830 * seed + ids), seed, ids, 100);
}

struct ctx {
    size_t counts_differ;
};

/* solve with the table off, then on; returns how many pairs differ (-1:
 * failure) */
static long compare(pb_trace *t, int seed, int ids, int *llsame, void *cv)
{
    struct ctx *c = cv;
    joint_params p[2];
    joint_test_params_two(p, ids, NULL);
    pb_trace_view v = pb_trace_view_of(t);
    joint *s[2] = {NULL, NULL};
    for (int i = 0; i < 2; i++) {
        joint_bsm_test_off = i == 0;
        s[i] = joint_test_init(&v, p[i]);
        joint_bsm_test_off = 0;
        if (!s[i]) {
            joint_close(s[0]);
            return -1;
        }
    }
    (void)seed;
    *llsame = joint_test_ll_same(s[0], s[1]);
    long diff = joint_test_pairs_differ(s[0], s[1]);
    if (s[0]->bnb_scored != s[1]->bnb_scored || s[0]->bnb_cut != s[1]->bnb_cut ||
        s[0]->bnb_rows_kept != s[1]->bnb_rows_kept || s[0]->est_evals != s[1]->est_evals ||
        s[0]->est_pruned != s[1]->est_pruned)
        c->counts_differ++;
    joint_test_close_two(s);
    return diff;
}

static const joint_test_cases cases = {4, {"ids 0", "ids 1"}, case_trace, compare};

TEST(kept_step_bounds_choose_the_same)
{
    struct ctx c = {0};
    joint_bsm_test_hits = 0;
    joint_bsm_test_bad = 0;
    joint_bsm_test_check = 1;
    int bad = joint_test_differing(&cases, &c, 0);
    joint_bsm_test_check = 0;
    printf("# %zu kept bounds used, %zu differing from the bound, %zu cases with other "
           "counters\n", joint_bsm_test_hits, joint_bsm_test_bad, c.counts_differ);
    CHECK_INT(bad, 0);
    CHECK(c.counts_differ == 0);
    CHECK(joint_bsm_test_bad == 0);
    CHECK(joint_bsm_test_hits > 100);
}

TEST(kept_bounds_without_their_delay_are_caught)
{
    struct ctx c = {0};
    joint_bsm_test_hits = 0;
    joint_bsm_test_bad = 0;
    joint_bsm_test_check = 1;
    joint_bsm_test_wrong = 1;
    int bad = joint_test_differing(&cases, &c, 1);
    joint_bsm_test_wrong = 0;
    joint_bsm_test_check = 0;
    printf("# least delay left out: %zu kept bounds used, %zu differing from the bound, %d of 8 "
           "cases differ, %zu with other counters\n", joint_bsm_test_hits, joint_bsm_test_bad,
           bad, c.counts_differ);
    CHECK(joint_bsm_test_bad > 0);
}

int main(void)
{
    RUN(kept_step_bounds_choose_the_same);
    RUN(kept_bounds_without_their_delay_are_caught);
    return pbtest_exit();
}
