/* joint's sv_early / sv_cut race (joint_svearly.c's joint_sv_race, the one
 * skeleton of both; docs/joint/speed_w34.md, "The losing search (h291)").
 *
 * By hand, the keep test by where the free search paused: at a re-pairing
 * round (JOINT_SVR_ROUND, sv_cut) the free search's last change counts by
 * its absolute value, at its main solve's mark (JOINT_SVR_MARK, sv_early)
 * as it is.  OnlineBoutique 07:11's numbers (the free search lost 583 nats
 * over its last round) keep the run either way, with gains 583.0 and
 * 134.6; a lead of 300 nats over a free search that lost 187.1 is kept at
 * the mark (10 < 300) but not at a round (10 + 2 * 187.1 = 384.2 > 300).
 * On random black-box traces the race at both points: sv_cut=1 against 0
 * and sv_early=1 against 2 (which always resumes) -- wherever nothing was
 * kept early, the very same solution. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>

TEST(keep_by_the_pause_point_by_hand)
{
    double lead = 0, gain = 0;
    const double a_prev[2] = {-79183.769, -79183.769}, a_cut[2] = {-79766.742, -79766.742};
    const double w_round[2] = {-76725.739, -76725.739}, w_end[2] = {-76591.137, -76591.137};
    CHECK_INT(joint_sv_race_keeps(JOINT_SVR_ROUND, 2, 1, a_prev, a_cut, w_round, w_end, &lead,
                                  &gain),
              1);
    CHECK(lead > 3175.6 && lead < 3175.61);
    CHECK(gain > 582.97 && gain < 582.98); /* |a_cut - a_prev| */
    CHECK_INT(joint_sv_race_keeps(JOINT_SVR_MARK, 2, 1, a_prev, a_cut, w_round, w_end, &lead,
                                  &gain),
              1);
    CHECK(gain > 134.60 && gain < 134.61); /* the run's own gain: the loss counts 0 */
    /* a free search that lost 187.1 nats, a run 300 ahead with no gain of its own */
    const double b_prev[2] = {-139891.502, -139891.502}, b_cut[2] = {-140078.602, -140078.602};
    const double v_mid[2] = {-139778.602, -139778.602}, v_end[2] = {-139778.602, -139778.602};
    CHECK_INT(joint_sv_race_keeps(JOINT_SVR_ROUND, 2, 1, b_prev, b_cut, v_mid, v_end, &lead, &gain),
              0);
    CHECK(gain > 187.09 && gain < 187.11);
    CHECK_INT(joint_sv_race_keeps(JOINT_SVR_MARK, 2, 1, b_prev, b_cut, v_mid, v_end, &lead, &gain),
              1);
    CHECK(gain == 0);
    CHECK(lead > 299.99 && lead < 300.01);
    /* not taken: never */
    CHECK_INT(joint_sv_race_keeps(JOINT_SVR_MARK, 2, 0, b_prev, b_cut, v_mid, v_end, &lead, &gain),
              0);
    /* the old names are the two points */
    CHECK_INT(joint_svc_keeps(2, 1, b_prev, b_cut, v_mid, v_end, &lead, &gain), 0);
    CHECK_INT(joint_sve_keeps(2, 1, b_prev, b_cut, v_mid, v_end, &lead, &gain), 1);
}

/* one option's two values on 16 random black boxes: the differing rows
 * where the race kept nothing early (counted by *made, *kept) */
static long race_pair(const char *opt, int v0, int v1, int *made, int *kept, int *llbad)
{
    long differ = 0;
    for (int seed = 1; seed <= 16; seed++) {
        pb_trace *t = joint_test_case_trace(6600 + (unsigned long)seed, seed, 0, 40);
        CHECK(t != NULL);
        if (!t)
            continue;
        joint_params p[2];
        joint_test_params_two(p, 0, NULL);
        if (!strcmp(opt, "sv_cut")) {
            p[0].sv_cut = v0;
            p[1].sv_cut = v1;
        } else {
            p[0].sv_early = v0;
            p[1].sv_early = v1;
        }
        joint *s[2];
        int m0 = joint_svc_test_made + joint_sve_test_made;
        int k0 = joint_svc_test_kept + joint_sve_test_kept, llsame = 0;
        long d = joint_test_compare_two(t, p, s, &llsame);
        CHECK(d >= 0);
        if (d >= 0) {
            int k = joint_svc_test_kept + joint_sve_test_kept - k0;
            *made += joint_svc_test_made + joint_sve_test_made - m0;
            *kept += k;
            if (!k) {
                differ += d;
                *llbad += !llsame;
            }
            joint_test_close_two(s);
        }
        pb_trace_close(t);
    }
    joint_test_tick = 0;
    return differ;
}

TEST(race_at_both_points_the_same_where_not_kept)
{
    int made = 0, kept = 0, llbad = 0;
    long d = race_pair("sv_cut", 0, 1, &made, &kept, &llbad);
    printf("  sv_cut 0/1: runs made %d, kept early %d\n", made, kept);
    CHECK_INT((int)d, 0);
    CHECK_INT(llbad, 0);
    int made2 = 0, kept2 = 0;
    d = race_pair("sv_early", 2, 1, &made2, &kept2, &llbad);
    printf("  sv_early 2/1: runs made %d, kept early %d\n", made2, kept2);
    CHECK_INT((int)d, 0);
    CHECK_INT(llbad, 0);
    CHECK(made > 0 && made2 > 0); /* the class is met at both points */
}

int main(void)
{
    RUN(keep_by_the_pause_point_by_hand);
    RUN(race_at_both_points_the_same_where_not_kept);
    return pbtest_exit();
}
