/* joint's bounded re-split with its bounds' set-up made cheaper
 * (`bnb_step_keys`, `bnb_count_masks`, joint_bnb.c, docs/joint/speed_middle.md "Speed,
 * twelfth wave: the search"): on random traces (a service B with two
 * callers, requests making 1 to 14 calls of C and D, some in parallel,
 * some returns lost; with call ids and as a black box, in nanoseconds and
 * in whole milliseconds) whole searches with each shortcut off and on give
 * every parent, every pairing and the log-likelihood bit for bit, with the
 * branch and bound cutting subtrees.  The comparisons can fail: with each
 * shortcut made wrong on purpose (joint_bnb_test_keys: every step bound
 * leaves out the latest return received by its output; joint_bnb_test_masks:
 * a touched link's calls placed before the first free one not counted),
 * bounds are wrong and results differ. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>

/* case (seed, ids): joint_test_case_trace */
static pb_trace *case_trace(int seed, int ids)
{
    return joint_test_case_trace((unsigned long)(820 * seed + ids), seed, ids, 100);
}

/* what a comparison switches (0: bnb_step_keys, 1: bnb_count_masks) and
 * what it counts */
struct ctx {
    int which;
    size_t scored, cut;
    int no_late; /* late_attach and late_timer off on both sides */
};

/* solve with the shortcut off and on; returns how many pairs differ (-1:
 * failure); *llsame: the same log-likelihood bits */
static long compare(pb_trace *t, int seed, int ids, int *llsame, void *cv)
{
    struct ctx *c = cv;
    joint_params p[2];
    joint_test_params_two(p, ids, NULL);
    for (int i = 0; i < 2; i++) {
        if (c->which == 0)
            p[i].bnb_step_keys = i;
        else
            p[i].bnb_count_masks = i;
        if (c->no_late)
            p[i].late_attach = 0, p[i].late_timer = 0;
    }
    joint *s[2];
    long diff = joint_test_compare_two(t, p, s, llsame);
    if (diff < 0)
        return -1;
    c->scored += s[1]->bnb_scored;
    c->cut += s[1]->bnb_cut;
    joint_test_close_two(s);
    return diff;
}

static const joint_test_cases cases = {4, {"ids 0", "ids 1"}, case_trace, compare};

static int differing_cases(struct ctx *c)
{
    return joint_test_differing(&cases, c, joint_bnb_test_keys || joint_bnb_test_masks);
}

TEST(step_bounds_from_sorted_returns_choose_the_same)
{
    struct ctx c = {0, 0, 0, 0};
    CHECK_INT(differing_cases(&c), 0);
    printf("# bnb_step_keys: %zu splits scored, %zu left out by the bound\n", c.scored, c.cut);
    CHECK(c.cut > 1000);
}

TEST(count_bounds_from_masks_choose_the_same)
{
    struct ctx c = {1, 0, 0, 0};
    CHECK_INT(differing_cases(&c), 0);
    c.no_late = 1;
    CHECK_INT(differing_cases(&c), 0);
    printf("# bnb_count_masks: %zu splits scored, %zu left out by the bound\n", c.scored,
           c.cut);
    CHECK(c.cut > 1000);
}

TEST(step_bounds_made_wrong_change_results)
{
    struct ctx c = {0, 0, 0, 0};
    joint_bnb_test_keys = 1;
    int bad = differing_cases(&c);
    joint_bnb_test_keys = 0;
    printf("# step bounds without the latest return: %d of 8 cases differ\n", bad);
    CHECK(bad > 0);
}

/* these traces lose returns, so late_timer (joint_lateattach.c) turns the
 * branch and bound off at their late services and the wrong count bound
 * decides nothing there: it is shown with late_attach and late_timer off,
 * where the bound is used */
TEST(count_bounds_made_wrong_change_results)
{
    struct ctx c = {1, 0, 0, 1};
    joint_bnb_test_masks = 1;
    int bad = differing_cases(&c);
    joint_bnb_test_masks = 0;
    printf("# count bounds without the placed calls: %d of 8 cases differ\n", bad);
    CHECK(bad > 0);
}

int main(void)
{
    RUN(step_bounds_from_sorted_returns_choose_the_same);
    RUN(count_bounds_from_masks_choose_the_same);
    RUN(step_bounds_made_wrong_change_results);
    RUN(count_bounds_made_wrong_change_results);
    return pbtest_exit();
}
