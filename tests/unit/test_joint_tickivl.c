/* joint's whole-tick intervals (joint_tickivl.c, docs/joint/audits.md "Whole-tick
 * delays as intervals"), worked by hand on a small model: ticks of 2 us,
 * bins of 0.1 decades (110 bins from 10 ns; bin b holds log10 delays
 * [1 + 0.1 b, 1.1 + 0.1 b)), floor 0.1, at most 2 ticks.
 *
 *   0 ticks: clamped to half a tick, 1000 ns, log10 3     -> bin 20
 *   1 tick:  2000 ns, log10 3.30103                       -> bin 23
 *   2 ticks: 4000 ns, log10 3.60206                       -> bin 26
 *   3 ticks: 6000 ns, log10 3.77815                       -> bin 27
 *
 * so 0..3 ticks fall in bins of their own and both 1 and 2 ticks are
 * scored as intervals (J = 2).  [1, 2) ticks = [2000, 4000) ns covers bins
 * 23 (from 3.30103 to 3.4: 0.98970 of its log width; 511.89 of the
 * interval's 2000 ns: 0.255943), 24 (all; 650.39 ns: 0.325196), 25 (all;
 * 818.79 ns: 0.409397) and 26 (from 3.6 to 3.60206: 0.020600 of it; 18.93
 * ns: 0.009464); [2, 3) ticks covers 26 (0.979400) and 27 (to 3.77815:
 * 0.781513).
 *
 * Smoothed histogram: 3 in bin 24, 1 in bin 26 (tot 4).  Each bin's mass
 * is 0.9 hv / 4 + 0.1 / 110: bin 24 0.675909, bin 26 0.225909, others
 * 0.000909.  P_1 = 0.000909 * 0.98970 + 0.675909 + 0.000909 + 0.225909 *
 * 0.020600 = 0.682372; P_2 = 0.225909 * 0.979400 + 0.000909 * 0.781513 =
 * 0.221966.  A delay of k ticks scores ln(P_k ln 10 / tick) - the other
 * delays' units, the density of log10 delay per decade with the 1/(d ln
 * 10) Jacobian - so the bin of k ticks holds that plus ln(k tick):
 * ln(P_k ln 10 k): bin 23 ln(0.682372 * 2.302585) = 0.451852, bin 26
 * ln(0.221966 * 2.302585 * 2) = 0.021948. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#include <math.h>
#include <stdlib.h>

static joint *small_model(void)
{
    joint *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->p = defaults();
    s->p.bin = 0.1;
    s->p.floor = 0.1;
    s->p.tick_ivl = "on";
    s->p.tick_ivl_max = 2;
    s->nb = 110;
    s->tick = 2000;
    s->dmin = 1000;
    return s;
}

TEST(interval_scores_by_hand)
{
    joint *s = small_model();
    CHECK(s != NULL);
    if (!s)
        return;
    CHECK(joint_tickivl_setup(s) == PB_OK);
    CHECK_INT((int)s->tiJ, 2);
    if (s->tiJ == 2) {
        CHECK_INT((int)s->tibin[0], 20);
        CHECK_INT((int)s->tibin[1], 23);
        CHECK_INT((int)s->tibin[2], 26);
        CHECK_INT((int)s->tibin[3], 27);
        double hv[110] = {0}, lf[110];
        hv[24] = 3;
        hv[26] = 1;
        for (int b = 0; b < 110; b++)
            lf[b] = -1.0;
        double em = 0;
        joint_tickivl_fix(s, hv, 4, lf, &em, 0, 109);
        CHECK(fabs(lf[23] - 0.451852) < 1e-6);
        CHECK(fabs(lf[26] - 0.021948) < 1e-6);
        /* only those two bins change */
        int others = 0;
        for (int b = 0; b < 110; b++)
            others += b != 23 && b != 26 && lf[b] != -1.0;
        CHECK_INT(others, 0);
        /* the expected log density moves by each bin's old mass times the
         * change: exp(-1) 0.1 (0.451852 + 1) + exp(-1) 0.1 (0.021948 + 1) */
        CHECK(fabs(em - 0.036788 * (1.451852 + 1.021948)) < 1e-5);
        /* read only in [s0, s1]: bin 26 outside counts as +0 */
        double lf2[110];
        for (int b = 0; b < 110; b++)
            lf2[b] = -1.0;
        em = 0;
        joint_tickivl_fix(s, hv, 4, lf2, &em, 0, 25);
        /* P_1 without bin 26's 0.225 share: 0.682372 - 0.225 * 0.020600 */
        CHECK(fabs(lf2[23] - log((0.682372 - 0.225 * 0.020600) * M_LN10)) < 1e-5);
    }
    joint_tickivl_free(s);
    free(s);
}

TEST(a_delay_spreads_over_its_interval)
{
    joint *s = small_model();
    CHECK(s != NULL);
    if (!s)
        return;
    CHECK(joint_tickivl_setup(s) == PB_OK);
    uint32_t lo = 110, hi = 0;
    CHECK(joint_mrow_keys(s, 1) == PB_OK); /* key 0's row (joint_mrow.c) */
    joint_mrow_newkey(s, 0);
    s->hlo = &lo;
    s->hhi = &hi;
    if (s->tiJ == 2) {
        joint_tickivl_add(s, 0, 1);
        double hist[110];
        for (uint32_t b = 0; b < 110; b++)
            hist[b] = joint_hist_at(s, 0, b);
        CHECK(fabs(hist[23] - 0.255943) < 1e-6);
        CHECK(fabs(hist[24] - 0.325196) < 1e-6);
        CHECK(fabs(hist[25] - 0.409397) < 1e-6);
        CHECK(fabs(hist[26] - 0.009464) < 1e-6);
        CHECK(fabs(hist[23] + hist[24] + hist[25] + hist[26] - 1) < 1e-12);
        CHECK_INT((int)lo, 23);
        CHECK_INT((int)hi, 26);
    }
    free(s->hist);
    free(s->hrow);
    free(s->lrow);
    free(s->mpool);
    s->hist = NULL;
    s->hlo = s->hhi = NULL;
    joint_tickivl_free(s);
    free(s);
}

/* off where it must be: nanosecond stamps, tick_ivl=off, a tick whose
 * next whole ticks share a bin, and auto without coarse ties */
TEST(off_where_it_does_not_apply)
{
    joint *s = small_model();
    CHECK(s != NULL);
    if (!s)
        return;
    s->tick = 1;
    CHECK(joint_tickivl_setup(s) == PB_OK);
    CHECK_INT((int)s->tiJ, 0);
    CHECK_INT(s->ti_state, 0);
    s->tick = 2000;
    s->p.tick_ivl = "off";
    CHECK(joint_tickivl_setup(s) == PB_OK);
    CHECK_INT((int)s->tiJ, 0);
    s->p.tick_ivl = "auto";
    s->coarse = 0;
    CHECK(joint_tickivl_setup(s) == PB_OK);
    CHECK_INT((int)s->tiJ, 0);
    CHECK_INT(s->ti_state, 1);
    s->p.bin = 0.5; /* 1 and 2 ticks share a bin */
    s->p.tick_ivl = "on";
    CHECK(joint_tickivl_setup(s) == PB_OK);
    CHECK_INT((int)s->tiJ, 0);
    joint_tickivl_free(s);
    free(s);
}

int main(void)
{
    RUN(interval_scores_by_hand);
    RUN(a_delay_spreads_over_its_interval);
    RUN(off_where_it_does_not_apply);
    return pbtest_exit();
}
