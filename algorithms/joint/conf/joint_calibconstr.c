/*
 * joint_calibconstr.c - joint: a late service's calls are never right by
 * construction (conf_late_construct; docs/joint/confidence_mid.md, "Rows
 * right by construction and calls that outlive their request (h191)";
 * issue 28).
 *
 * Why.  The self-calibration exempts a row whose share is 1 with one
 * candidate, its pair and its parent's made by call id, and its caller's
 * calls never escaping their request (no orphan of the caller in the
 * solution): no other request can hold it, so it is right and stated 1
 * (joint_selfcal.c, by_construction).  On experiments/joint_apps_retry.conf
 * with call ids the frontend's asynchronous `pay` retries outlive their
 * request: the late-call test passes for fe (joint_late.c) and late_attach
 * places every orphan, so the solution has none left and fe's calls count
 * as unable to escape.  A retry whose return falls inside the next
 * request's interval has that request as its one candidate and is stated
 * 1 -- and is wrong (seed 11: [0.999, 1] 2,080 rows, 98.85 % right, 24
 * of them fe>pay).
 *
 * The rule.  A service whose late-call test passed (late_gap >= 0) is one
 * whose calls leave their request's interval, as its orphans show before
 * late_attach places them: its rows are not right by construction; they
 * go through the copy's map like every other row (the copy, whose
 * outliving calls conf_sim_async keeps, makes the same error at its rate).
 */
#include "joint_int.h"
#include "joint_rules.h"

int joint_late_construct(const joint *s, uint32_t a)
{
    return s->p.conf_late_construct && s->late_gap && a < s->nnodes && s->late_gap[a] >= 0;
}

size_t joint_late_construct_count(const joint *s)
{
    size_t n = 0;
    for (uint32_t a = 0; a < s->nnodes; a++)
        n += (size_t)joint_late_construct(s, a);
    return n;
}
