/* joint's tie_orphans_rows rule (joint_roworph.c), by hand.
 *
 * The criterion: where the rows were spread by subtick, tie_orphans refutes
 * the start by its sign test alone (5 calls without a parent in the start
 * and none in the search: p = 1/32 < 0.05), whether or not the search is
 * likelier; elsewhere the search must also be likelier (joint_tieorph.c).
 *
 * The gate, on hand-made 10 ms ticks: 30 ticks, each with two requests
 * X>A whose handling interleaves in one tick, rows in the order of events:
 *   X>A call (r1), A>B call (r1's), X>A call (r2), B>A return (r1's),
 *   A>X return (r1), A>B call (r2's), B>A return (r2's), A>X return (r2).
 * Every stamp of a tick is the same, so only the rows say which return
 * answers which call.  Read backwards each tick contradicts the order of
 * events (a return before any call of its link), so subtick's check passes
 * (forward 0, backward at least 20) and the rows are spread: the rule
 * applies.  The same ticks with their rows reversed: the check declines,
 * nothing is spread and the rule does not apply (the power check); with
 * tie_orphans_rows=0 it never applies. */
#include "pbtest.h"
#include "joint.h"
#include "joint_int.h"
#include "joint_test.h"

#include <stdlib.h>

static const pb_ns TICK = 10000000; /* 10 ms */

typedef struct row {
    const char *src, *dst;
    pb_msg_type type;
} row;

static const row TICK_ROWS[8] = {
    {"X", "A", PB_TYPE_CALL},   {"A", "B", PB_TYPE_CALL},   {"X", "A", PB_TYPE_CALL},
    {"B", "A", PB_TYPE_RETURN}, {"A", "X", PB_TYPE_RETURN}, {"A", "B", PB_TYPE_CALL},
    {"B", "A", PB_TYPE_RETURN}, {"A", "X", PB_TYPE_RETURN},
};

/* 30 ticks of TICK_ROWS, forwards or each tick reversed */
static pb_trace *ticks_trace(int reversed)
{
    pb_trace *t;
    pb_trace_new(&t);
    next_id = 1;
    for (int k = 1; k <= 30; k++)
        for (int i = 0; i < 8; i++) {
            const row *r = &TICK_ROWS[reversed ? 7 - i : i];
            msg(t, (pb_ns)k * TICK, r->src, r->dst, r->type, PB_ID_NONE);
        }
    return t;
}

/* solve t as joint_run does (subtick first); returns whether the rule
 * applies to the solution, -1 on failure */
static int applies_on(pb_trace *t, int rule)
{
    pb_trace_view v = pb_trace_view_of(t);
    joint_params p = defaults();
    p.tie_orphans_rows = rule;
    joint_subtick *st = NULL;
    pb_msg *spread = NULL;
    if (joint_subtick_prepare(&v, &p, &st, &spread) != PB_OK)
        return -1;
    pb_trace_view sv = v;
    if (spread) {
        sv.msgs = spread;
        p.subtick_tick = st->tick;
    }
    joint *s = NULL;
    pb_error err;
    int rc = joint_init(&s, &sv, &p, &err);
    int out = rc == PB_OK ? joint_roworph_applies(s) : -1;
    if (rc == PB_OK)
        joint_close(s);
    joint_subtick_free(st);
    free(spread);
    return out;
}

TEST(roworph_criterion_by_hand)
{
    /* on spread rows: the sign test alone */
    CHECK(joint_roworph_refutes(1, 5, 0, -100.0, -150.0)); /* search less likely */
    CHECK(joint_roworph_refutes(1, 5, 0, -100.0, -99.0));
    CHECK(!joint_roworph_refutes(1, 4, 0, -100.0, -50.0)); /* p = 1/16 */
    CHECK(joint_roworph_refutes(1, 7, 1, -100.0, -150.0)); /* p = 9/256 */
    CHECK(!joint_roworph_refutes(1, 6, 1, -100.0, -50.0)); /* p = 8/128 */
    CHECK(!joint_roworph_refutes(1, 0, 4, -100.0, -50.0));
    /* elsewhere as tie_orphans: the search must also be likelier */
    CHECK(!joint_roworph_refutes(0, 5, 0, -100.0, -150.0));
    CHECK(!joint_roworph_refutes(0, 5, 0, -100.0, -100.0));
    CHECK(joint_roworph_refutes(0, 5, 0, -100.0, -99.0));
}

TEST(roworph_gate_on_ticks)
{
    pb_trace *t = ticks_trace(0);
    CHECK_INT(applies_on(t, 1), 1);
    CHECK_INT(applies_on(t, 0), 0);
    pb_trace_close(t);
    t = ticks_trace(1);
    CHECK_INT(applies_on(t, 1), 0); /* rows of no order: subtick declines */
    pb_trace_close(t);
}

int main(void)
{
    RUN(roworph_criterion_by_hand);
    RUN(roworph_gate_on_ticks);
    return pbtest_exit();
}
