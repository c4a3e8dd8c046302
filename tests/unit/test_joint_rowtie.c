/* joint's rows within a tick (tie_rows, joint_rowtie.c), by hand.
 *
 * The criterion: the rows are used at a service when at least
 * JOINT_ROWTIE_MIN (10) of its calls have a candidate the rows put out and
 * at most tie_rows_fail (0.01) of those would be left with none.
 *
 * A trace: service A, 12 ticks of 10 ms; in each, all stamped at the tick,
 * two requests X -> A (a1, a2), each calling B once (c1, c2), written in
 * the order of events: a1, c1, c1's return, a1's answer, a2, c2, c2's
 * return, a2's answer.  By the stamps both requests are candidates of
 * both calls; by the rows c1 was sent before a2 arrived and c2 returned
 * after a1 was answered, so each call has one candidate, its own request
 * (24 calls cut, none left without: used).  With tie_rows=0 each keeps
 * two.  Written with both calls first (c1, c2, a1, a2, then the returns
 * and answers): no request was open by the rows when either call was
 * sent, every cut call would be left with none, and the rows are not used
 * (two candidates each).  Unrounded stamps (1 us apart): no test. */
#include "pbtest.h"
#include "joint.h"
#include "joint_int.h"
#include "joint_test.h"

TEST(rowtie_decide_by_hand)
{
    CHECK(joint_rowtie_decide(10, 0, 0.01));
    CHECK(!joint_rowtie_decide(9, 0, 0.01)); /* too few calls the rows decide */
    CHECK(joint_rowtie_decide(100, 1, 0.01));
    CHECK(!joint_rowtie_decide(100, 2, 0.01));
    CHECK(joint_rowtie_decide(200, 2, 0.01));
    CHECK(!joint_rowtie_decide(200, 2, 0.0));
    CHECK(joint_rowtie_decide(200, 0, 0.0));
}

/* mode 0: rows in the order of events; 1: both calls first; step: the
 * stamps of one tick's rows step apart by this (0: all at the tick) */
static pb_trace *two_per_tick(int mode, pb_ns step)
{
    const pb_ns tick = 10000000;
    pb_trace *t;
    pb_trace_new(&t);
    next_id = 1;
    uint64_t cid = 1;
    for (int k = 0; k < 12; k++) {
        pb_ns t0 = (pb_ns)k * tick, d = 0;
        uint64_t a1 = cid++, c1 = cid++, a2 = cid++, c2 = cid++;
        if (mode == 0) {
            msg(t, t0 + d, "X", "A", PB_TYPE_CALL, a1); d += step;
            msg(t, t0 + d, "A", "B", PB_TYPE_CALL, c1); d += step;
            msg(t, t0 + d, "B", "A", PB_TYPE_RETURN, c1); d += step;
            msg(t, t0 + d, "A", "X", PB_TYPE_RETURN, a1); d += step;
            msg(t, t0 + d, "X", "A", PB_TYPE_CALL, a2); d += step;
            msg(t, t0 + d, "A", "B", PB_TYPE_CALL, c2); d += step;
            msg(t, t0 + d, "B", "A", PB_TYPE_RETURN, c2); d += step;
            msg(t, t0 + d, "A", "X", PB_TYPE_RETURN, a2);
        } else {
            msg(t, t0, "A", "B", PB_TYPE_CALL, c1);
            msg(t, t0, "A", "B", PB_TYPE_CALL, c2);
            msg(t, t0, "X", "A", PB_TYPE_CALL, a1);
            msg(t, t0, "X", "A", PB_TYPE_CALL, a2);
            msg(t, t0, "B", "A", PB_TYPE_RETURN, c1);
            msg(t, t0, "B", "A", PB_TYPE_RETURN, c2);
            msg(t, t0, "A", "X", PB_TYPE_RETURN, a1);
            msg(t, t0, "A", "X", PB_TYPE_RETURN, a2);
        }
    }
    return t;
}

/* over the pairs A -> B: how many have n candidates; and (by call id: the
 * request's is the call's less one) how many have their own request as
 * parent */
static void count(const joint *s, const pb_trace *t, uint32_t n, int *with_n, int *right)
{
    uint32_t a, b;
    *with_n = *right = 0;
    if (!pb_strtab_find(t->names->nodes, "A", 1, &a) || !pb_strtab_find(t->names->nodes, "B", 1, &b))
        return;
    for (uint32_t i = 0; i < joint_npairs(s); i++) {
        const pb_msg *m = &t->msgs[joint_pair_call(s, i)];
        if (m->src != a || m->dst != b)
            continue;
        *with_n += joint_pair_ncandidates(s, i) == n;
        uint32_t q = joint_pair_parent(s, i);
        *right += q != JOINT_NONE && t->msgs[joint_pair_call(s, q)].callid + 1 == m->callid;
    }
}

static void solve(pb_trace *t, int on, uint32_t n, int want_n, int want_right)
{
    joint_params p = defaults();
    p.tie_rows = on;
    pb_trace_view v = pb_trace_view_of(t);
    joint *s = NULL;
    pb_error err;
    CHECK_INT(joint_init(&s, &v, &p, &err), PB_OK);
    if (!s)
        return;
    int with_n = 0, right = 0;
    count(s, t, n, &with_n, &right);
    CHECK_INT(with_n, want_n);
    if (want_right >= 0)
        CHECK_INT(right, want_right);
    joint_close(s);
}

TEST(rowtie_by_hand)
{
    pb_trace *t = two_per_tick(0, 0);
    solve(t, 1, 1, 24, 24); /* the rows: one candidate each, its own request */
    solve(t, 0, 2, 24, -1); /* without: two each */
    pb_trace_close(t);
    t = two_per_tick(1, 0);
    solve(t, 1, 2, 24, -1); /* rows out of order of events: not used */
    pb_trace_close(t);
    t = two_per_tick(0, 1000);
    solve(t, 1, 1, 24, 24); /* unrounded: the stamps tell, nothing to do */
    pb_trace_close(t);
}

int main(void)
{
    RUN(rowtie_decide_by_hand);
    RUN(rowtie_by_hand);
    return pbtest_exit();
}
