/* joint's conf_empty_twin (joint_cfempty.c; docs/joint/confidence_late.md,
 * "Copy errors counted by the request (h269)"), worked by hand: twenty
 * requests X -> A, one each 10 ms, each A making two calls to B; and one
 * request X -> A (E) that makes none, open from 100.5 ms to 104.5 ms over
 * request 10's two B calls (101 and 103 ms).  A's requests nearly all make
 * calls (1 of 21 without, 4.8 %), so E is out of place, and request 10's
 * two calls could be E's (which two requests' calls are whose, no share
 * prices): they are stated at most the cap.  The other requests' calls
 * are left; with a rate below 1 / 21, off, or where request 10 holds one B
 * call only, nothing changes. */
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

static pb_trace *trace(int two)
{
    pb_trace *t;
    if (pb_trace_new(&t) != PB_OK)
        return NULL;
    next_id = 1;
    uint64_t cid = 1;
    for (int r = 0; r < 20; r++) {
        pb_ns o = (pb_ns)r * 10 * MS;
        uint64_t x = cid++, b1 = cid++, b2 = cid++;
        msg(t, o, "X", "A", PB_TYPE_CALL, x);
        msg(t, o + 1 * MS, "A", "B", PB_TYPE_CALL, b1);
        msg(t, o + 2 * MS, "B", "A", PB_TYPE_RETURN, b1);
        if (two || r != 10) {
            msg(t, o + 3 * MS, "A", "B", PB_TYPE_CALL, b2);
            msg(t, o + 4 * MS, "B", "A", PB_TYPE_RETURN, b2);
        }
        msg(t, o + 5 * MS, "A", "X", PB_TYPE_RETURN, x);
    }
    uint64_t e = cid++;
    msg(t, 100 * MS + 500 * US, "X", "A", PB_TYPE_CALL, e);
    msg(t, 104 * MS + 500 * US, "A", "X", PB_TYPE_RETURN, e);
    pb_trace_sort(t);
    return t;
}

/* every pair 0.99, then conf_empty_twin (on, rate); c[] the result; b[0..2)
 * request 10's B calls, o a B call of request 3 */
static int run(int two, int on, double rate, double *c, uint32_t cap, uint32_t b[2],
               uint32_t *o, size_t rec[3])
{
    pb_trace *t = trace(two);
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
        b[0] = pair_at(s, t, 101 * MS, "A");
        b[1] = pair_at(s, t, 103 * MS, "A");
        *o = pair_at(s, t, 31 * MS, "A");
        for (uint32_t i = 0; i < n; i++)
            c[i] = 0.99;
        s->p.conf_empty_twin = on;
        s->p.conf_empty_twin_rate = rate;
        rc = joint_cfem_apply(s, c);
        memcpy(rec, s->cfem_rec, sizeof s->cfem_rec);
    } else if (rc == PB_OK) {
        rc = -3;
    }
    joint_close(s);
    pb_trace_close(t);
    return rc;
}

TEST(empty_twin_caps_the_calls_it_could_hold)
{
    double c[128];
    uint32_t b[2], o;
    size_t rec[3];
    CHECK_INT(run(1, 1, 0.05, c, 128, b, &o, rec), PB_OK);
    CHECK(b[0] != JOINT_NONE && b[1] != JOINT_NONE && o != JOINT_NONE);
    if (b[0] == JOINT_NONE || b[1] == JOINT_NONE || o == JOINT_NONE)
        return;
    CHECK_NEAR(c[b[0]], 0.5, 1e-12);
    CHECK_NEAR(c[b[1]], 0.5, 1e-12);
    CHECK_NEAR(c[o], 0.99, 1e-12); /* E is no candidate of request 3's calls */
    CHECK_INT((int)rec[0], 1);     /* one request out of place */
    CHECK_INT((int)rec[1], 2);     /* two calls capped */
    CHECK_INT((int)rec[2], 2);
}

TEST(empty_twin_left_alone)
{
    double c[128];
    uint32_t b[2], o;
    size_t rec[3];
    /* 1 of 21 requests without a call is more than a rate of 0.04 */
    CHECK_INT(run(1, 1, 0.04, c, 128, b, &o, rec), PB_OK);
    if (b[0] != JOINT_NONE)
        CHECK_NEAR(c[b[0]], 0.99, 1e-12);
    CHECK_INT((int)rec[0], 0);
    /* off */
    CHECK_INT(run(1, 0, 0.05, c, 128, b, &o, rec), PB_OK);
    if (b[0] != JOINT_NONE)
        CHECK_NEAR(c[b[0]], 0.99, 1e-12);
    CHECK_INT((int)rec[1], 0);
    /* request 10 holds one B call: nothing of it to give away */
    CHECK_INT(run(0, 1, 0.05, c, 128, b, &o, rec), PB_OK);
    CHECK(b[0] != JOINT_NONE);
    if (b[0] != JOINT_NONE)
        CHECK_NEAR(c[b[0]], 0.99, 1e-12);
    CHECK_INT((int)rec[0], 1);
    CHECK_INT((int)rec[1], 0);
}

int main(void)
{
    RUN(empty_twin_caps_the_calls_it_could_hold);
    RUN(empty_twin_left_alone);
    return pbtest_exit();
}
