/* tie_excess (joint_tieexcess.c, docs/joint/shapes_late.md "tie_test=2 on the
 * audits and the excess beyond the allowance (h288)").  Hand-worked on the
 * two rows that decided it (their tie_test= metadata at the defaults):
 * - async x1 1 ms black box, seed 3: 152 moves, 111 within a tick, gain
 *   -97399.506 - -97616.273 = 216.767 nats.  tie_test=1 keeps the start
 *   (216.767 < 1.9207 x 152 = 291.9, 111 > 76); tie_test=2 (tie_excess 0)
 *   keeps the search (216.767 >= 1.9207 x 111 = 213.198), and it is 0.3
 *   points worse; tie_excess 5.414 keeps the start (216.767 < 218.612).
 * - heavytail x2 1 ms black box, seed 56: 1,901 moves, 990 within a tick,
 *   gain 2346.589: the search under both (2346.589 >= 1901.49 + 5.414).
 * Edges: a gain exactly at the bar keeps the search; nothing moved keeps
 * the search (nothing to put back); a test that keeps the search at
 * tie_test=1 keeps it whatever tie_excess.
 * tie_choose (joint_tiechoose.c), the same row with tie_excess 5.414: the
 * free search keeps its start (pair_order's log_likelihood_free
 * -97,529.575); the held search keeps its search (113 moves, 74 within a
 * tick, -97,616.273 -> -97,423.794: tie_test=1 would have put it back), so
 * the held search wins by 105.8 nats and the row loses a request.  Less
 * 74 x 1.9207 = 142.1 nats it is -97,565.926: the free search is kept. */
#include "pbtest.h"
#include "joint_int.h"
#include "joint_rules.h"
#include <math.h>
#include <stdlib.h>

static void the_async_row_keeps_its_start_with_the_excess_test(void)
{
    const double l0 = -97616.273, l1 = -97399.506;
    CHECK_INT(joint_quant_keep_start(152, 111, l0, l1), 1);
    CHECK_INT(joint_tieexcess_keep_start(152, 111, l0, l1, 0), 0);
    CHECK_INT(joint_tieexcess_keep_start(152, 111, l0, l1, 5.414), 1);
    /* the excess over 111 x 1.9207 is 3.569 nats: a bar of 3.5 keeps the search */
    CHECK_INT(joint_tieexcess_keep_start(152, 111, l0, l1, 3.5), 0);
    CHECK_INT(joint_tieexcess_keep_start(152, 111, l0, l1, 3.6), 1);
}

static void the_heavytail_row_keeps_its_search(void)
{
    const double l0 = -225854.041, l1 = -223507.452;
    CHECK_INT(joint_quant_keep_start(1901, 990, l0, l1), 1);
    CHECK_INT(joint_tieexcess_keep_start(1901, 990, l0, l1, 0), 0);
    CHECK_INT(joint_tieexcess_keep_start(1901, 990, l0, l1, 5.414), 0);
    CHECK_INT(joint_tieexcess_keep_start(1901, 990, l0, l1, 444), 0);
    CHECK_INT(joint_tieexcess_keep_start(1901, 990, l0, l1, 446), 1);
}

static void edges(void)
{
    /* 20 moves, 12 within a tick: tie_test=1's bar 38.414, the allowance
     * within a tick 23.0484; + 4 = 27.0484 */
    CHECK_INT(joint_tieexcess_keep_start(20, 12, 0, 27.0484, 4), 0);
    CHECK_INT(joint_tieexcess_keep_start(20, 12, 0, 27.0483, 4), 1);
    CHECK_INT(joint_tieexcess_keep_start(0, 0, 0, 0, 5.414), 0);
    /* half or fewer within a tick: tie_test=1 keeps the search, so does this */
    CHECK_INT(joint_tieexcess_keep_start(10, 5, 0, 1, 5.414), 0);
    /* a gain of 1.9207 a move or more: the same */
    CHECK_INT(joint_tieexcess_keep_start(10, 8, 0, 19.207, 1000), 0);
}

static joint *solved(int state, size_t changed, size_t tied, double l0, double l1)
{
    joint *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->p.tie_test = 2;
    s->p.tie_choose = 1;
    s->quant_state = state;
    s->quant_changed = changed;
    s->quant_tied = tied;
    s->quant_ll[0] = l0;
    s->quant_ll[1] = l1;
    return s;
}

static void tie_choose_keeps_the_free_search_on_the_async_row(void)
{
    joint *a = solved(3, 152, 111, -97616.273, -97399.506);
    joint *b = solved(2, 113, 74, -97616.273, -97423.794);
    CHECK(a && b);
    if (!a || !b) {
        free(a);
        free(b);
        return;
    }
    double la = -97529.575, lb = -97423.794;
    joint_tiechoose_adjust(a, b, &la, &lb);
    CHECK(la == -97529.575);
    CHECK(fabs(lb - (-97423.794 - 1.9207 * 74)) < 1e-9);
    CHECK(la > lb); /* the free search kept */
    /* off (the default), or under tie_test=1: nothing changes */
    la = -97529.575, lb = -97423.794;
    a->p.tie_choose = 0;
    joint_tiechoose_adjust(a, b, &la, &lb);
    CHECK(la == -97529.575 && lb == -97423.794);
    a->p.tie_choose = 1;
    a->p.tie_test = 1;
    joint_tiechoose_adjust(a, b, &la, &lb);
    CHECK(la == -97529.575 && lb == -97423.794);
    /* a search tie_test=1 kept too (gain at least 1.9207 a move) is not touched */
    a->p.tie_test = 2;
    b->quant_ll[1] = -97616.273 + 1.9207 * 113 + 1;
    lb = -97000;
    joint_tiechoose_adjust(a, b, &la, &lb);
    CHECK(lb == -97000);
    /* no held search */
    la = -1;
    joint_tiechoose_adjust(a, NULL, &la, &lb);
    CHECK(la == -1);
    free(a);
    free(b);
}

int main(void)
{
    RUN(tie_choose_keeps_the_free_search_on_the_async_row);
    RUN(the_async_row_keeps_its_start_with_the_excess_test);
    RUN(the_heavytail_row_keeps_its_search);
    RUN(edges);
    return pbtest_exit();
}
