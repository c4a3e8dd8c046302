/* How many calls outlive their request (joint_latecount.c), a late
 * call's send as a trigger and the held orphans (joint_lateattach.c;
 * docs/joint/model.md "Calls that outlive their request"), hand-worked. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint.h"
#include "joint_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MS 1000000LL
#define US 1000LL

/* 40 requests X -> B, one a second: B calls C 1 ms after the arrival, C
 * answers 7 ms later and B 20 us after that; in every fourth request the
 * return is stamped 10 us after B's answer (test_joint_late.c's reactive
 * front end: B passes the late-call test, each call gets its own
 * request).  Link B>C: every request makes one call (c = 1), 10 of the
 * 40 outlive it (m = 1): with alpha = 0.1, P(m = 1 | c = 1) =
 * (10 + 0.1) / (40 + 0.2) = 0.251244 and P(0 | 1) = 30.1 / 40.2 =
 * 0.748756; a late request's walk adds log 0.251244 = -1.381332 for it,
 * an in-time one log 0.748756 = -0.289342; with late_count=0 nothing. */
TEST(late_count_by_hand)
{
    pb_trace *t = late_front_trace();
    pb_trace_view v = pb_trace_view_of(t);
    pb_error err;
    for (int on = 0; on < 2; on++) {
        joint_params p = defaults();
        p.late_count = on;
        joint *s;
        CHECK_INT(joint_init(&s, &v, &p, &err), PB_OK);
        CHECK_INT(s->lc_on, on);
        uint32_t q0 = pair_at(s, t, 0, "X"), c0 = pair_at(s, t, 1 * MS, "B");
        uint32_t q1 = pair_at(s, t, 1000 * MS, "X"), c1 = pair_at(s, t, 1001 * MS, "B");
        CHECK(q0 != JOINT_NONE && c0 != JOINT_NONE && q1 != JOINT_NONE && c1 != JOINT_NONE);
        if (q0 == JOINT_NONE || c0 == JOINT_NONE || q1 == JOINT_NONE || c1 == JOINT_NONE) {
            joint_close(s);
            continue;
        }
        CHECK_INT(joint_pair_parent(s, c0), q0);
        CHECK_INT(joint_pair_parent(s, c1), q1);
        /* the term alone: request 0 (late) and 1 (in time) */
        double l0 = 0, l1 = 0;
        CHECK_INT(joint_lc_walk(s, q0, &c0, 1, 0, &l0), PB_OK);
        CHECK_INT(joint_lc_walk(s, q1, &c1, 1, 0, &l1), PB_OK);
        if (on) {
            CHECK_NEAR(l0, log(10.1 / 40.2), 1e-9);
            CHECK_NEAR(l1, log(30.1 / 40.2), 1e-9);
            CHECK_NEAR(l0, -1.381332, 1e-6);
            CHECK_NEAR(l1, -0.289342, 1e-6);
            /* the cells of c = 2 were never seen: 1/3 each */
            uint32_t l = s->pr[c0].link;
            size_t base = (size_t)l * (JOINT_LC_C + 1) * (JOINT_LC_C + 1);
            CHECK_NEAR(s->lc_lp[base + 2 * (JOINT_LC_C + 1) + 1], log(1.0 / 3), 1e-12);
            /* the request's likelihood holds the term: with B's call in
             * the late request the same list scores it */
            double with = joint_req_ll(s, q0);
            s->lc_on = 0;
            double without = joint_req_ll(s, q0);
            s->lc_on = 1;
            CHECK_NEAR(with - without, log(10.1 / 40.2), 1e-9);
        } else {
            CHECK_NEAR(l0, 0, 0);
            CHECK_NEAR(l1, 0, 0);
        }
        joint_close(s);
    }
    pb_trace_close(t);
}

/* B's request q (arrival 0) calls C at 1 ms (returned at 20 ms, after
 * B's answer at 8.5 ms: it outlives q) and again at 7 ms (returned at 8
 * ms); request r (arrival 1 s) calls C at 1001 ms (returned at 1002 ms)
 * and answers at 1003 ms.  joint_la_timer_of gives the latest send before
 * t of a call of the request that outlives it: at the retry (7 ms) and at
 * the answer (8.5 ms) the first call; at 1 ms (not sent before) and with
 * no call before it none; in r none. */
TEST(late_send_as_trigger_by_hand)
{
    pb_trace *t;
    pb_trace_new(&t);
    next_id = 1;
    msg(t, 0, "X", "B", PB_TYPE_CALL, 1);
    msg(t, 1 * MS, "B", "C", PB_TYPE_CALL, 2);
    msg(t, 7 * MS, "B", "C", PB_TYPE_CALL, 3);
    msg(t, 8 * MS, "C", "B", PB_TYPE_RETURN, 3);
    msg(t, 8 * MS + 500 * US, "B", "X", PB_TYPE_RETURN, 1);
    msg(t, 20 * MS, "C", "B", PB_TYPE_RETURN, 2);
    msg(t, 1000 * MS, "X", "B", PB_TYPE_CALL, 4);
    msg(t, 1001 * MS, "B", "C", PB_TYPE_CALL, 5);
    msg(t, 1002 * MS, "C", "B", PB_TYPE_RETURN, 5);
    msg(t, 1003 * MS, "B", "X", PB_TYPE_RETURN, 4);
    pb_trace_sort(t);
    pb_trace_view v = pb_trace_view_of(t);
    pb_error err;
    joint_params p = defaults();
    joint *s;
    CHECK_INT(joint_init(&s, &v, &p, &err), PB_OK);
    uint32_t q = pair_at(s, t, 0, "X"), a = pair_at(s, t, 1 * MS, "B"),
             b = pair_at(s, t, 7 * MS, "B"), r = pair_at(s, t, 1000 * MS, "X"),
             c = pair_at(s, t, 1001 * MS, "B");
    CHECK(q != JOINT_NONE && a != JOINT_NONE && b != JOINT_NONE && r != JOINT_NONE &&
          c != JOINT_NONE);
    if (q != JOINT_NONE && a != JOINT_NONE && b != JOINT_NONE && r != JOINT_NONE &&
        c != JOINT_NONE) {
        uint32_t k[2] = {a, b};
        CHECK_INT(joint_la_timer_of(s, q, k, 1, 7 * MS), a);
        CHECK_INT(joint_la_timer_of(s, q, k, 2, 8 * MS + 500 * US), a);
        CHECK_INT(joint_la_timer_of(s, q, k, 1, 1 * MS), JOINT_NONE);
        CHECK_INT(joint_la_timer_of(s, q, k, 0, 7 * MS), JOINT_NONE);
        CHECK_INT(joint_la_timer_of(s, r, &c, 1, 1003 * MS), JOINT_NONE);
        /* the retry alone outlives nothing */
        CHECK_INT(joint_la_timer_of(s, q, &b, 1, 8 * MS + 500 * US), JOINT_NONE);
    }
    joint_close(s);
    pb_trace_close(t);
}

int main(void)
{
    RUN(late_count_by_hand);
    RUN(late_send_as_trigger_by_hand);
    return pbtest_exit();
}
