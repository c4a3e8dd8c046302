/* tie_sets_search (joint_tiesearch.c) and late_widen_z (joint_latewiden.c),
 * docs/joint/shapes_late.md "tie_sets whichever search the tie test keeps
 * (h294)" and "widen=all with the chance count's error (h294)".
 *
 * tie_sets_search, hand-worked on the two rows that decided it (their
 * tie_test= metadata at the defaults):
 * - heavytail x2 1 ms black box, seed 56: 1,901 moves, 990 within a tick,
 *   gain 2,346.589: tie_test=1 keeps the start (< 1.9207 x 1,901 =
 *   3,651.3), tie_test=2 the search (>= 1.9207 x 990 = 1,901.5).  The sets
 *   do not refute the start (start_off 0, search_off 65): the search is put
 *   back whole.
 * - dispatch x2 1 ms black box, seed 1: 5,893 moves, 3,179 within a tick,
 *   gain 9,438.463: tie_test=1 keeps the start (< 11,318.7), tie_test=2 the
 *   search (>= 6,105.9).  The sets refute the start (555 against 254): the
 *   mixture stands.
 * Only with tie_test=2 and tie_sets=3; a test both keep or both drop is not
 * touched.
 *
 * late_widen_z: the excess (k - m) / k and its bound (k - m - z sqrt v) / k.
 * - TrainTicket's gateway: 6 near orphans, chance 0.18 each: m = 1.08, v =
 *   6 x 0.18 x 0.82 = 0.8856, sd 0.94106; excess 0.82, bound at z = 1.645
 *   (4.92 - 1.54805) / 6 = 0.56199: widen=all kept.
 * - hedge x1 1 ms with ids, seed 60: 157 near of 198 orphans at mean chance
 *   0.3956: m = 78.329, excess 0.50109; with v = 198 x 0.3956 x 0.6044 =
 *   47.34 (every orphan at the mean chance: the largest v for that mean),
 *   sd 6.8805, bound (157 - 78.329 - 11.318) / 157 = 0.42900: orphans.
 *   Even with v = 0 the bound is the excess itself (0.50109: all), so the
 *   error is what decides it.
 * - z = 0 (the default) is the excess at 1/2, as before. */
#include "pbtest.h"
#include "joint_int.h"
#include "joint_rules.h"
#include <math.h>
#include <stdlib.h>

static joint *with(int tie_test, int tie_sets, int on)
{
    joint *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->p.tie_test = tie_test;
    s->p.tie_sets = tie_sets;
    s->p.tie_sets_search = on;
    return s;
}

static void the_start_is_made_where_only_tie_test_1_keeps_it(void)
{
    const double h0 = -225854.041, h1 = -223507.452, d0 = -355417.443, d1 = -345978.980;
    CHECK_INT(joint_quant_keep_start(1901, 990, h0, h1), 1);
    CHECK_INT(joint_tieexcess_keep_start(1901, 990, h0, h1, 0), 0);
    CHECK_INT(joint_quant_keep_start(5893, 3179, d0, d1), 1);
    CHECK_INT(joint_tieexcess_keep_start(5893, 3179, d0, d1, 0), 0);
    joint *s = with(2, 3, 1);
    CHECK(s != NULL);
    if (!s)
        return;
    CHECK_INT(joint_tiesearch_keep(s, 0, 1), 1);
    CHECK_INT(s->tsrch, 1);
    /* both keep the start, or both the search: nothing changes */
    s->tsrch = 0;
    CHECK_INT(joint_tiesearch_keep(s, 1, 1), 1);
    CHECK_INT(joint_tiesearch_keep(s, 0, 0), 0);
    CHECK_INT(s->tsrch, 0);
    /* off, tie_test=1, or tie_sets not deferred: tie_test's own verdict */
    s->p.tie_sets_search = 0;
    CHECK_INT(joint_tiesearch_keep(s, 0, 1), 0);
    s->p.tie_sets_search = 1;
    s->p.tie_test = 1;
    CHECK_INT(joint_tiesearch_keep(s, 0, 1), 0);
    s->p.tie_test = 2;
    s->p.tie_sets = 2;
    CHECK_INT(joint_tiesearch_keep(s, 0, 1), 0);
    CHECK_INT(s->tsrch, 0);
    /* refuted (the mixture) or never made: nothing put back */
    s->tsrch = 1;
    CHECK_INT(joint_tiesearch_after(s, 1), PB_OK);
    CHECK_INT(s->tsrch, 1);
    CHECK_INT(joint_tiesearch_after(s, 0), PB_OK); /* no saved search */
    CHECK_INT(s->tsrch, 1);
    free(s);
}

static void the_bound(void)
{
    double sd = sqrt(0.8856);
    CHECK(fabs(joint_late_excess(6, 6, 0.18) - 0.82) < 1e-12);
    CHECK(fabs(joint_late_widen_low(6, 1.08, 0.8856, 1.645) - (4.92 - 1.645 * sd) / 6) < 1e-12);
    CHECK(joint_late_widen_low(6, 1.08, 0.8856, 1.645) >= 0.5);
    double m = 198 * 0.3956, v = 198 * 0.3956 * 0.6044;
    CHECK(fabs(joint_late_excess(157, 198, 0.3956) - (157 - m) / 157) < 1e-12);
    CHECK(joint_late_excess(157, 198, 0.3956) >= 0.5);
    CHECK(fabs(joint_late_widen_low(157, m, v, 1.645) - 0.42900) < 1e-4);
    CHECK(joint_late_widen_low(157, m, 0, 1.645) >= 0.5);
    /* z = 0: the excess */
    CHECK(fabs(joint_late_widen_low(157, m, v, 0) - joint_late_excess(157, 198, 0.3956)) < 1e-12);
    /* no near orphans, or chance beyond them: 0 */
    CHECK(joint_late_widen_low(0, 1, 1, 1.645) == 0);
    CHECK(joint_late_widen_low(5, 9, 1, 1.645) == 0);
}

static void the_verdict_and_its_record(void)
{
    joint *s = calloc(1, sizeof *s);
    double *st = calloc(2 * JOINT_LATE_NSTAT, sizeof *st);
    CHECK(s && st);
    if (!s || !st) {
        free(s);
        free(st);
        return;
    }
    s->late_stat = st;
    double m = 198 * 0.3956, v = 198 * 0.3956 * 0.6044, ex = (157 - m) / 157;
    /* the default: the excess alone, widen=all at seed 60 */
    CHECK_INT(joint_late_widen(s, 1, 157, 198, 0.3956, v, ex), 1);
    CHECK(st[JOINT_LATE_NSTAT + 11] == ex);
    s->p.late_widen_z = 1.645;
    CHECK_INT(joint_late_widen(s, 1, 157, 198, 0.3956, v, ex), 0);
    CHECK(fabs(st[JOINT_LATE_NSTAT + 11] - 0.42900) < 1e-4);
    /* the gateway keeps widen=all */
    CHECK_INT(joint_late_widen(s, 0, 6, 6, 0.18, 0.8856, 0.82), 1);
    free(st);
    free(s);
}

int main(void)
{
    RUN(the_start_is_made_where_only_tie_test_1_keeps_it);
    RUN(the_bound);
    RUN(the_verdict_and_its_record);
    return pbtest_exit();
}
