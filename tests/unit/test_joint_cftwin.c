/* joint's conf_twin (joint_cftwin.c; docs/joint/confidence_late.md,
 * "Twin requests crossed at their answers (h260)"), worked by hand: two
 * requests X -> T run in lockstep 50 us apart; each T calls B, each B
 * calls P, B answers after P returns, and T then calls S.  Without call
 * ids the two T -> B requests are twins (one link, movable answers), and
 * each P call could be either B's.  The rows each T sent after its B
 * answered (its S call and the S answer) are stated at most the
 * confidence of the P call that triggered that answer; the T -> B rows
 * themselves, the P rows and everything before them are left alone.  With
 * conf_twin=2 the cap is the T -> B pair's confidence times the least pair
 * share on the way to the answer.  Off, or with call ids (no answer
 * movable), nothing changes. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint.h"
#include "joint_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define US 1000LL

/* request r (0, 1) starts 50 us x r after 0 */
static pb_trace *twins(int ids)
{
    pb_trace *t;
    if (pb_trace_new(&t) != PB_OK)
        return NULL;
    next_id = 1;
    uint64_t cid = 1;
    for (int r = 0; r < 2; r++) {
        pb_ns o = (pb_ns)r * 50 * US;
        uint64_t x = cid++, b = cid++, p = cid++, sv = cid++;
        if (!ids)
            x = b = p = sv = PB_ID_NONE;
        msg(t, o + 0, "X", "T", PB_TYPE_CALL, x);
        msg(t, o + 100 * US, "T", "B", PB_TYPE_CALL, b);
        msg(t, o + 500 * US, "B", "P", PB_TYPE_CALL, p);
        msg(t, o + 1000 * US, "P", "B", PB_TYPE_RETURN, p);
        msg(t, o + 1100 * US, "B", "T", PB_TYPE_RETURN, b);
        msg(t, o + 1200 * US, "T", "S", PB_TYPE_CALL, sv);
        msg(t, o + 1500 * US, "S", "T", PB_TYPE_RETURN, sv);
        msg(t, o + 1600 * US, "T", "X", PB_TYPE_RETURN, x);
    }
    pb_trace_sort(t);
    return t;
}

/* the hand confidences: every pair 0.99 but request r's P call (doubt
 * h); conf_twin applied with `on`; the result into c */
static int run(int ids, int on, double h, uint32_t *pp, uint32_t *ps, uint32_t *pb,
               double *c, uint32_t cap)
{
    pb_trace *t = twins(ids);
    if (!t)
        return -1;
    pb_trace_view v = pb_trace_view_of(t);
    joint_params p = defaults();
    p.conf_selfcal = 0;
    pb_error err;
    joint *s = NULL;
    int rc = joint_init(&s, &v, &p, &err);
    uint32_t n = s ? joint_npairs(s) : 0;
    if (rc == PB_OK && n <= cap) {
        for (int r = 0; r < 2; r++) {
            pb_ns o = (pb_ns)r * 50 * US;
            pp[r] = pair_at(s, t, o + 500 * US, "B");
            ps[r] = pair_at(s, t, o + 1200 * US, "T");
            pb[r] = pair_at(s, t, o + 100 * US, "T");
        }
        for (uint32_t i = 0; i < n; i++)
            c[i] = 0.99;
        for (int r = 0; r < 2; r++)
            if (pp[r] != JOINT_NONE)
                c[pp[r]] = h;
        s->p.conf_twin = on;
        if (on == 2) { /* the pair shares by hand: every pair sure but the P calls' (h) */
            free(s->cftw_ps);
            s->cftw_ps = malloc(((size_t)n + 1) * sizeof *s->cftw_ps);
            for (uint32_t i = 0; s->cftw_ps && i < n; i++)
                s->cftw_ps[i] = 1;
            for (int r = 0; s->cftw_ps && r < 2; r++)
                if (pp[r] != JOINT_NONE)
                    s->cftw_ps[pp[r]] = h;
            for (uint32_t i = 0; i < n; i++)
                c[i] = 0.99;
        }
        rc = joint_cftw_apply(s, c);
        /* every P call has both B requests for candidates, without ids */
        for (int r = 0; r < 2 && !ids; r++)
            if (pp[r] != JOINT_NONE && joint_pair_ncandidates(s, pp[r]) != 2)
                rc = -2;
    } else if (rc == PB_OK) {
        rc = -3;
    }
    joint_close(s);
    pb_trace_close(t);
    return rc;
}

TEST(twin_answers_cap_what_follows)
{
    uint32_t pp[2], ps[2], pb[2];
    double c[32];
    CHECK_INT(run(0, 1, 0.55, pp, ps, pb, c, 32), PB_OK);
    for (int r = 0; r < 2; r++) {
        CHECK(pp[r] != JOINT_NONE && ps[r] != JOINT_NONE && pb[r] != JOINT_NONE);
        if (pp[r] == JOINT_NONE || ps[r] == JOINT_NONE || pb[r] == JOINT_NONE)
            return;
        CHECK_NEAR(c[ps[r]], 0.55, 1e-12); /* S call after the answer: the P call's */
        CHECK_NEAR(c[pb[r]], 0.99, 1e-12); /* the T -> B pair itself: left */
        CHECK_NEAR(c[pp[r]], 0.55, 1e-12);
    }
    /* a sure P call: nothing lowered */
    CHECK_INT(run(0, 1, 0.99, pp, ps, pb, c, 32), PB_OK);
    for (int r = 0; r < 2; r++)
        CHECK_NEAR(c[ps[r]], 0.99, 1e-12);
}

/* mode 2: the cap is the T -> B pair's confidence times the least pair
 * share on the way to its answer (the P pair's, 0.6): 0.99 x 0.6 */
TEST(mode2_pair_shares_on_the_way)
{
    uint32_t pp[2], ps[2], pb[2];
    double c[32];
    CHECK_INT(run(0, 2, 0.6, pp, ps, pb, c, 32), PB_OK);
    for (int r = 0; r < 2; r++) {
        CHECK(ps[r] != JOINT_NONE && pb[r] != JOINT_NONE);
        if (ps[r] == JOINT_NONE || pb[r] == JOINT_NONE)
            return;
        CHECK_NEAR(c[ps[r]], 0.99 * 0.6, 1e-12);
        CHECK_NEAR(c[pb[r]], 0.99, 1e-12);
        CHECK_NEAR(c[pp[r]], 0.99, 1e-12); /* the P rows themselves: left */
    }
    /* sure pair shares: nothing lowered */
    CHECK_INT(run(0, 2, 1.0, pp, ps, pb, c, 32), PB_OK);
    for (int r = 0; r < 2; r++)
        CHECK_NEAR(c[ps[r]], 0.99, 1e-12);
}

TEST(off_or_call_ids_change_nothing)
{
    uint32_t pp[2], ps[2], pb[2];
    double c[32];
    CHECK_INT(run(0, 0, 0.55, pp, ps, pb, c, 32), PB_OK);
    for (int r = 0; r < 2; r++)
        if (ps[r] != JOINT_NONE)
            CHECK_NEAR(c[ps[r]], 0.99, 1e-12);
    CHECK_INT(run(1, 1, 0.55, pp, ps, pb, c, 32), PB_OK);
    for (int r = 0; r < 2; r++) {
        CHECK(ps[r] != JOINT_NONE);
        if (ps[r] != JOINT_NONE)
            CHECK_NEAR(c[ps[r]], 0.99, 1e-12);
    }
}

int main(void)
{
    RUN(twin_answers_cap_what_follows);
    RUN(mode2_pair_shares_on_the_way);
    RUN(off_or_call_ids_change_nothing);
    return pbtest_exit();
}
