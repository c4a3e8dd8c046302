/*
 * cvp_causes (algorithms/callview_paths.c): each message's cause, from the
 * chosen parents, when stamps put a return "back" before calls made
 * earlier than it: rounded or skewed clocks (the eBPF capture rounded to
 * 1 ms, a lossy TrainTicket minute).  Before, a call took its own return
 * (or a later sibling's) as its cause, and the links made a cycle that
 * `score` and `score --query` refuse.  Hand-worked cases.
 */
#include "pbtest.h"
#include "callview_paths.h"

#define N CVP_NONE

/* root pair q0 (client -> P), kids q1 (P -> A) and q2 (P -> B); times in
 * ns; ra, rb: when a's and b's returns came back (P's clock) */
static void run(pb_ns ra, pb_ns rb, uint32_t out[6])
{
    pb_msg m[6];
    memset(m, 0, sizeof m);
    pb_ns ts[6] = {0, 10, 12, 20, 22, 30};
    for (int i = 0; i < 6; i++) {
        m[i].id = (uint64_t)i + 1;
        m[i].ts = ts[i];
        m[i].recv_ts = ts[i];
    }
    m[2].recv_ts = ra;
    m[4].recv_ts = rb;
    uint32_t call[3] = {0, 1, 3}, ret[3] = {5, 2, 4}, par[3] = {N, 0, 0};
    CHECK_INT(cvp_causes(m, 6, 3, call, ret, par, out), PB_OK);
}

TEST(returns_in_order)
{
    uint32_t o[6];
    run(12, 22, o);
    CHECK_INT(o[0], N);
    CHECK_INT(o[1], 0); /* a's call: the root's call */
    CHECK_INT(o[2], 1); /* a's return: a's call */
    CHECK_INT(o[3], 2); /* b's call: a's return, back at 12 < 20 */
    CHECK_INT(o[4], 3);
    CHECK_INT(o[5], 4); /* the root's return: b's return, the latest */
}

TEST(own_return_back_first_is_no_cause)
{
    uint32_t o[6];
    run(9, 22, o); /* a's return stamped back at 9, before its call at 10 */
    CHECK_INT(o[1], 0); /* not 2: a call caused by its own return */
    CHECK_INT(o[2], 1);
    CHECK_INT(o[3], 2); /* b's call: a's return still (a's call was first) */
    CHECK_INT(o[5], 4);
}

TEST(later_siblings_return_is_no_cause)
{
    uint32_t o[6];
    run(12, 8, o); /* b's return stamped back at 8, before a's call at 10 */
    CHECK_INT(o[1], 0); /* not 4: b's call was made after a's */
    CHECK_INT(o[3], 2); /* nor b's own: a's return */
    CHECK_INT(o[4], 3);
    CHECK_INT(o[5], 2); /* the root's return: the latest back (12) */
}

int main(void)
{
    RUN(returns_in_order);
    RUN(own_return_back_first_is_no_cause);
    RUN(later_siblings_return_is_no_cause);
    return pbtest_exit();
}
