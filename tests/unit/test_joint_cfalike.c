/* joint's conf_alike (joint_cfalike.c; docs/joint/confidence_late.md,
 * "Calls alike in two requests (h242)"), worked by hand: a call whose own
 * delay fits another candidate request within conf_alike_tie nats is
 * alike and is stated at most the copy's share of alike rows right; a
 * call that only its own request explains is not, and keeps its
 * confidence. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint.h"
#include "joint_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define US 1000LL
#define MS 1000000LL

/* One request from X into B at t0: B calls C after c, C answers after r,
 * B answers a after C's return. */
static void request(pb_trace *t, pb_ns t0, pb_ns c, pb_ns r, pb_ns a, uint64_t *cid)
{
    uint64_t x = (*cid)++, k = (*cid)++;
    msg(t, t0, "X", "B", PB_TYPE_CALL, x);
    msg(t, t0 + c, "B", "C", PB_TYPE_CALL, k);
    msg(t, t0 + c + r, "C", "B", PB_TYPE_RETURN, k);
    msg(t, t0 + c + r + a, "B", "X", PB_TYPE_RETURN, x);
}

/* forty requests alone teach the model: B calls C 300-522 us after the
 * arrival, C answers after 500-744 us, B 100-126 us after that */
static void teach(pb_trace *t, uint64_t *cid)
{
    for (int k = 0; k < 40; k++)
        request(t, (pb_ns)k * 100 * MS, (300 + 37 * (k % 7)) * US, (500 + 61 * (k % 5)) * US,
                (100 + 13 * (k % 3)) * US, cid);
}

/* joint on t with conf_alike on and no copy (the cap's share is set by
 * hand below); the confidences into *conf */
static joint *open_alike(pb_trace *t, double **conf)
{
    pb_trace_sort(t);
    pb_trace_view v = pb_trace_view_of(t);
    joint_params p = defaults();
    p.conf_selfcal = 0;
    p.conf_alike = 1;
    pb_error err;
    joint *s = NULL;
    *conf = NULL;
    if (joint_init(&s, &v, &p, &err) != PB_OK) {
        printf("FAIL joint_init: %s\n", err.msg);
        return NULL;
    }
    *conf = calloc(joint_npairs(s) + 1, sizeof **conf);
    if (*conf && joint_confidence(s, *conf) != PB_OK) {
        free(*conf);
        *conf = NULL;
    }
    return s;
}

/* the copy's alike rows by hand: 8 rows, 6 right, over all links (no link
 * has JOINT_CFA_MIN): the cap is (6 + 1) / (8 + 2) = 0.7 */
static void copy_rows_by_hand(joint *s)
{
    free(s->cfa_stat);
    s->cfa_stat = calloc(2 * ((size_t)s->nlinks + 1), sizeof *s->cfa_stat);
    if (s->cfa_stat) {
        s->cfa_stat[2 * (size_t)s->nlinks] = 8;
        s->cfa_stat[2 * (size_t)s->nlinks + 1] = 6;
        s->cfa_stat[2 * (size_t)s->pr[0].link] = 8; /* a link under the minimum */
        s->cfa_stat[2 * (size_t)s->pr[0].link + 1] = 8;
    }
}

/* Two attempts alike: q1 arrives at T, q2 20 us later, and each calls C
 * 400 us after its own arrival (both inside the taught 300-522 us, the
 * log densities of 400 and 420, or of 380 and 400 us, within one nat):
 * each C call is alike (its delay from the other request's arrival fits as
 * well).  Stated 0.95 by hand, capped at 0.7 (8 copy rows, 6 right); a
 * taught request's call (one candidate) is not alike. */
TEST(alike_attempts_capped)
{
    pb_trace *t;
    pb_trace_new(&t);
    next_id = 1;
    uint64_t cid = 1;
    teach(t, &cid);
    pb_ns T = 10000 * MS;
    request(t, T, 400 * US, 600 * US, 110 * US, &cid);
    request(t, T + 20 * US, 400 * US, 650 * US, 110 * US, &cid);
    double *conf = NULL;
    joint *s = open_alike(t, &conf);
    CHECK(s != NULL && conf != NULL && s->cfa_flag != NULL);
    uint32_t c1 = s ? pair_at(s, t, T + 400 * US, "B") : JOINT_NONE;
    uint32_t c2 = s ? pair_at(s, t, T + 420 * US, "B") : JOINT_NONE;
    uint32_t c0 = s ? pair_at(s, t, 300 * US, "B") : JOINT_NONE;
    CHECK(c1 != JOINT_NONE && c2 != JOINT_NONE && c0 != JOINT_NONE);
    if (s && conf && s->cfa_flag && c1 != JOINT_NONE && c2 != JOINT_NONE && c0 != JOINT_NONE) {
        CHECK_INT(joint_pair_ncandidates(s, c1), 2);
        CHECK_INT(s->cfa_flag[c1], 1);
        CHECK_INT(s->cfa_flag[c2], 1);
        CHECK_INT(s->cfa_flag[c0], 0);
        conf[c1] = conf[c2] = 0.95;
        conf[c0] = 1.0;
        copy_rows_by_hand(s);
        CHECK(joint_cfa_apply(s, conf) == PB_OK);
        CHECK_NEAR(conf[c1], 0.7, 1e-12);
        CHECK_NEAR(conf[c2], 0.7, 1e-12);
        CHECK(conf[c0] == 1.0);
        CHECK(s->p.cfa_capped >= 2);
        CHECK(s->cfa_stat == NULL); /* used up: the next confidence counts its own copy */
    }
    free(conf);
    joint_close(s);
    pb_trace_close(t);
}

/* Two attempts told apart: q2 arrives 3 ms before q1 and answers late
 * (5 ms after its C call returned), so it is open when q1's C call is
 * sent and is that call's second candidate; but from q2 the call would
 * come 2.5 ms after q2's own C return (no taught delay near it: the
 * background density, many nats below the taught 400 us from q1's
 * arrival).  Not alike: stated 0.95 by hand, the same copy rows, still
 * 0.95. */
TEST(distinguishable_attempts_not_capped)
{
    pb_trace *t;
    pb_trace_new(&t);
    next_id = 1;
    uint64_t cid = 1;
    teach(t, &cid);
    pb_ns T = 10000 * MS;
    request(t, T - 3 * MS, 400 * US, 500 * US, 5 * MS, &cid);
    request(t, T, 400 * US, 600 * US, 110 * US, &cid);
    double *conf = NULL;
    joint *s = open_alike(t, &conf);
    CHECK(s != NULL && conf != NULL && s->cfa_flag != NULL);
    uint32_t c1 = s ? pair_at(s, t, T + 400 * US, "B") : JOINT_NONE;
    CHECK(c1 != JOINT_NONE);
    if (s && conf && s->cfa_flag && c1 != JOINT_NONE) {
        CHECK_INT(joint_pair_ncandidates(s, c1), 2);
        CHECK_INT(s->cfa_flag[c1], 0);
        conf[c1] = 0.95;
        copy_rows_by_hand(s);
        CHECK(joint_cfa_apply(s, conf) == PB_OK);
        CHECK(conf[c1] == 0.95);
    }
    free(conf);
    joint_close(s);
    pb_trace_close(t);
}

/* Off (the default): no flags, nothing capped */
TEST(off_no_flags)
{
    pb_trace *t;
    pb_trace_new(&t);
    next_id = 1;
    uint64_t cid = 1;
    teach(t, &cid);
    pb_trace_sort(t);
    pb_trace_view v = pb_trace_view_of(t);
    joint_params p = defaults();
    CHECK_INT(p.conf_alike, 0);
    p.conf_selfcal = 0;
    pb_error err;
    joint *s = NULL;
    CHECK(joint_init(&s, &v, &p, &err) == PB_OK);
    double *conf = s ? calloc(joint_npairs(s) + 1, sizeof *conf) : NULL;
    if (conf) {
        CHECK(joint_confidence(s, conf) == PB_OK);
        CHECK(s->cfa_flag == NULL);
    }
    free(conf);
    joint_close(s);
    pb_trace_close(t);
}

int main(void)
{
    RUN(alike_attempts_capped);
    RUN(distinguishable_attempts_not_capped);
    RUN(off_no_flags);
    return pbtest_exit();
}
