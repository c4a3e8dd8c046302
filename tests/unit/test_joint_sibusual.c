/* conf_sib_usual (algorithms/joint/conf/joint_sibusual.c; docs/joint/confidence_w36.md,
 * "The retry s18 cell: rows out of their usual order (h316)"), worked by hand. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint.h"
#include "joint_int.h"

#include <stdlib.h>

#define US 1000LL
#define MS 1000000LL

/* One request from X into B at t0.  In order: B calls C g after the
 * arrival, C answers 200 us later, B calls D g after that return, D
 * answers 300 us later, B answers 100 us after.  Out of order: B calls D
 * 30 us after the arrival and C 60 us after it (D sent before any return
 * of C).  Out of order 2: B calls E 20 us after the arrival (E answers
 * 100 us later) and D 30 us after it, and no C.  Call ids throughout. */
static void request_cd(pb_trace *t, pb_ns t0, pb_ns g, int out_of_order, uint64_t *cid)
{
    uint64_t x = (*cid)++, c = (*cid)++, d = (*cid)++;
    msg(t, t0, "X", "B", PB_TYPE_CALL, x);
    if (!out_of_order) {
        msg(t, t0 + g, "B", "C", PB_TYPE_CALL, c);
        msg(t, t0 + g + 200 * US, "C", "B", PB_TYPE_RETURN, c);
        msg(t, t0 + 2 * g + 200 * US, "B", "D", PB_TYPE_CALL, d);
        msg(t, t0 + 2 * g + 500 * US, "D", "B", PB_TYPE_RETURN, d);
        msg(t, t0 + 2 * g + 600 * US, "B", "X", PB_TYPE_RETURN, x);
    } else if (out_of_order == 2) {
        msg(t, t0 + 20 * US, "B", "E", PB_TYPE_CALL, c);
        msg(t, t0 + 30 * US, "B", "D", PB_TYPE_CALL, d);
        msg(t, t0 + 120 * US, "E", "B", PB_TYPE_RETURN, c);
        msg(t, t0 + 330 * US, "D", "B", PB_TYPE_RETURN, d);
        msg(t, t0 + 430 * US, "B", "X", PB_TYPE_RETURN, x);
    } else {
        msg(t, t0 + 30 * US, "B", "D", PB_TYPE_CALL, d);
        msg(t, t0 + 60 * US, "B", "C", PB_TYPE_CALL, c);
        msg(t, t0 + 260 * US, "C", "B", PB_TYPE_RETURN, c);
        msg(t, t0 + 330 * US, "D", "B", PB_TYPE_RETURN, d);
        msg(t, t0 + 430 * US, "B", "X", PB_TYPE_RETURN, x);
    }
}

/* 24 requests 100 ms apart (g 50, 57, 64 us in turn), requests 7 and 11
 * out of order, request 15 out of order without C (2 above); every row
 * stated 1 but the C calls of requests 3 (in order) and 7 (out of order),
 * stated 0.5 and 0.4, and request 15's E call, 0.6.  B > D's rows: 21
 * triggered by a return of B > C (21/24 >= 1/2, 24 >= 20 rows: B > C is
 * its usual trigger), 3 by the arrival; B > C's: all by the arrival (no
 * usual trigger).  Request 15's D stays 1 but at conf_sib_usual=2, where
 * it is held by its request's other call (E, 0.6): three rows out of
 * order and two lowered by the rule there.  The cap alone: request 3's D at 0.5 (its trigger),
 * request 7's D stays 1 (its trigger is the arrival), 1 row lowered.  With
 * conf_sib_usual: request 7's D at 0.4 (its request's least sure call on
 * B > C; own confidence 1, so conf_order's step is 0), request 11's D
 * stays 1 (its C is stated 1); one usual link, two rows out of order, one
 * lowered by the rule, two by the cap in all (conf_sib_usual=1).  Fails on main (no such
 * option: request 7's D stays 1). */
static void run(int usual, double *d3, double *d7, double *d11, double *d15, size_t rec[3],
                size_t *low)
{
    pb_trace *t;
    pb_trace_new(&t);
    next_id = 1;
    uint64_t cid = 1;
    for (int k = 0; k < 24; k++)
        request_cd(t, (pb_ns)k * 100 * MS, (50 + 7 * (k % 3)) * US, k == 15 ? 2 : k == 7 || k == 11, &cid);
    pb_trace_sort(t);
    pb_trace_view v = pb_trace_view_of(t);
    joint_params p = defaults();
    p.conf_sib_usual = usual;
    pb_error err;
    joint *s = NULL;
    CHECK(joint_init(&s, &v, &p, &err) == PB_OK);
    uint32_t n = s ? joint_npairs(s) : 0;
    double *conf = malloc(((size_t)n + 1) * sizeof *conf);
    CHECK(conf != NULL);
    pb_ns g3 = 50 * US, g7 = 57 * US;
    uint32_t c3 = s ? pair_at(s, t, 300 * MS + g3, "B") : JOINT_NONE;
    uint32_t dd3 = s ? pair_at(s, t, 300 * MS + 2 * g3 + 200 * US, "B") : JOINT_NONE;
    uint32_t c7 = s ? pair_at(s, t, 700 * MS + 60 * US, "B") : JOINT_NONE;
    uint32_t dd7 = s ? pair_at(s, t, 700 * MS + 30 * US, "B") : JOINT_NONE;
    uint32_t dd11 = s ? pair_at(s, t, 1100 * MS + 30 * US, "B") : JOINT_NONE;
    uint32_t e15 = s ? pair_at(s, t, 1500 * MS + 20 * US, "B") : JOINT_NONE;
    uint32_t dd15 = s ? pair_at(s, t, 1500 * MS + 30 * US, "B") : JOINT_NONE;
    (void)g7;
    int ok = c3 != JOINT_NONE && dd3 != JOINT_NONE && c7 != JOINT_NONE && dd7 != JOINT_NONE &&
             dd11 != JOINT_NONE && e15 != JOINT_NONE && dd15 != JOINT_NONE;
    CHECK(ok);
    *d3 = *d7 = *d11 = *d15 = -1;
    if (s && conf && ok) {
        for (uint32_t i = 0; i < n; i++)
            conf[i] = 1.0;
        conf[c3] = 0.5;
        conf[c7] = 0.4;
        conf[e15] = 0.6;
        CHECK(joint_sibling_cap(s, conf) == PB_OK);
        *d3 = conf[dd3];
        *d7 = conf[dd7];
        *d11 = conf[dd11];
        *d15 = conf[dd15];
        for (int i = 0; i < 3; i++)
            rec[i] = s->sibu_rec[i];
        *low = s->sib_lowered;
    }
    free(conf);
    joint_close(s);
    pb_trace_close(t);
}

TEST(sib_usual_by_hand)
{
    double d3, d7, d11, d15;
    size_t rec[3] = {9, 9, 9}, low = 0;
    run(0, &d3, &d7, &d11, &d15, rec, &low);
    CHECK_NEAR(d3, 0.5, 1e-15);
    CHECK(d7 == 1.0);
    CHECK(d11 == 1.0);
    CHECK(d15 == 1.0);
    CHECK_INT(rec[0] + rec[1] + rec[2], 0);
    CHECK_INT(low, 1);
    run(1, &d3, &d7, &d11, &d15, rec, &low);
    CHECK_NEAR(d3, 0.5, 1e-15);
    CHECK_NEAR(d7, 0.4, 1e-15);
    CHECK(d11 == 1.0);
    CHECK(d15 == 1.0);
    CHECK_INT(rec[0], 1);
    CHECK_INT(rec[1], 2);
    CHECK_INT(rec[2], 1);
    CHECK_INT(low, 2);
    run(2, &d3, &d7, &d11, &d15, rec, &low);
    CHECK_NEAR(d7, 0.4, 1e-15);
    CHECK(d11 == 1.0);
    CHECK_NEAR(d15, 0.6, 1e-15);
    CHECK_INT(rec[0], 1);
    CHECK_INT(rec[1], 3);
    CHECK_INT(rec[2], 2);
    CHECK_INT(low, 3);
}

int main(void)
{
    RUN(sib_usual_by_hand);
    return pbtest_exit();
}
