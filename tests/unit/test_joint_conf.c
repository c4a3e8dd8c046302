/* joint's confidence (docs/joint.md, "Links and confidence"), worked by
 * hand: a call's share is 1 / (1 + sum exp d) over the alternatives in
 * which it is elsewhere (moves, exchanges, and the moves and exchanges of
 * the chains of calls it belongs to); an orphan's share is the rule of
 * succession over its link. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define US 1000LL
#define MS 1000000LL

/* One request from X into B at t0: B calls C after c, C answers after r;
 * with d >= 0, B then calls D d after C's return, D answers after r; B
 * answers a after its last return. */
static void request(pb_trace *t, pb_ns t0, pb_ns c, pb_ns r, pb_ns d, pb_ns a, uint64_t *cid)
{
    uint64_t x = (*cid)++, k = (*cid)++, k2 = (*cid)++;
    msg(t, t0, "X", "B", PB_TYPE_CALL, x);
    msg(t, t0 + c, "B", "C", PB_TYPE_CALL, k);
    msg(t, t0 + c + r, "C", "B", PB_TYPE_RETURN, k);
    pb_ns end = t0 + c + r;
    if (d >= 0) {
        msg(t, end + d, "B", "D", PB_TYPE_CALL, k2);
        msg(t, end + d + r, "D", "B", PB_TYPE_RETURN, k2);
        end += d + r;
    }
    msg(t, end + a, "B", "X", PB_TYPE_RETURN, x);
}

/* the confidences of every pair; *s and the trace stay open */
static double *confidences(pb_trace *t, joint **s)
{
    pb_trace_sort(t);
    pb_trace_view v = pb_trace_view_of(t);
    joint_params p = defaults();
    p.conf_selfcal = 0; /* the shares of the neighbourhood, worked by hand */
    pb_error err;
    if (joint_init(s, &v, &p, &err) != PB_OK) {
        printf("FAIL joint_init: %s\n", err.msg);
        return NULL;
    }
    double *conf = calloc(joint_npairs(*s) + 1, sizeof *conf);
    if (conf && joint_confidence(*s, conf) != PB_OK) {
        free(conf);
        conf = NULL;
    }
    return conf;
}

/* the pair whose call is the one sent at ts by src */
static uint32_t pair_at(const joint *s, const pb_trace *t, pb_ns ts, const char *src,
                        uint32_t after)
{
    uint32_t n;
    if (!pb_strtab_find(t->names->nodes, src, strlen(src), &n))
        return JOINT_NONE;
    for (uint32_t i = after; i < joint_npairs(s); i++) {
        if (joint_pair_call(s, i) == JOINT_NONE)
            continue;
        const pb_msg *m = &t->msgs[joint_pair_call(s, i)];
        if (m->ts == ts && m->src == n)
            return i;
    }
    return JOINT_NONE;
}

/* Forty requests alone (delays varied, each one call of C) teach the
 * model; then q1 and q2 arrive at the same instant and are alike to the
 * nanosecond: each calls C at T + 1 ms, both calls return at T + 2 ms,
 * both answer at T + 2.1 ms.  Each C call has the two requests as
 * candidates.  Its alternatives: the exchange with the other request's
 * call, which leaves every delay and count as it was (d = 0 exactly), and
 * the move to the other request, which gives one request two C calls and
 * the other none (every one of the 42 requests made one: count
 * log-probability 2 ln(0.1 / 43.6) - 2 ln(42.1 / 43.6) = -12.1 nats) and
 * an answer triggered by the arrival (a key never seen: the background
 * density, about 11 nats below the seen ones), so exp d < 1e-9.  Share =
 * 1 / (1 + 1 + exp d) = 0.5; the requests themselves are roots of the
 * client X (share 1), so each C call's confidence is 0.5. */
TEST(two_alike_requests_half_each)
{
    pb_trace *t;
    pb_trace_new(&t);
    next_id = 1;
    uint64_t cid = 1;
    for (int k = 0; k < 40; k++)
        request(t, (pb_ns)k * 100 * MS, (300 + 37 * (k % 7)) * US, (500 + 61 * (k % 5)) * US,
                -1, (100 + 13 * (k % 3)) * US, &cid);
    pb_ns T = 10000 * MS;
    request(t, T, 1 * MS, 1 * MS, -1, 100 * US, &cid);
    request(t, T, 1 * MS, 1 * MS, -1, 100 * US, &cid);
    joint *s = NULL;
    double *conf = confidences(t, &s);
    CHECK(conf != NULL);
    uint32_t c1 = s ? pair_at(s, t, T + 1 * MS, "B", 0) : JOINT_NONE;
    uint32_t c2 = c1 != JOINT_NONE ? pair_at(s, t, T + 1 * MS, "B", c1 + 1) : JOINT_NONE;
    CHECK(c1 != JOINT_NONE && c2 != JOINT_NONE);
    if (conf && c1 != JOINT_NONE && c2 != JOINT_NONE) {
        CHECK_INT(joint_pair_ncandidates(s, c1), 2);
        CHECK_NEAR(conf[c1], 0.5, 1e-6);
        CHECK_NEAR(conf[c2], 0.5, 1e-6);
        /* a taught request's call had one candidate: sure */
        uint32_t c0 = pair_at(s, t, 300 * US, "B", 0);
        CHECK(c0 != JOINT_NONE && conf[c0] == 1.0);
    }
    free(conf);
    joint_close(s);
    pb_trace_close(t);
}

/* As above, but every request calls C and then, once C has answered, D
 * (the chain arrival -> C, C's return -> D): q1 and q2 alike to the
 * nanosecond.  Four solutions are equally likely: as found, the C calls
 * exchanged, the D calls exchanged, both exchanged (the chains
 * exchanged).  For a C call the alternatives in which it is elsewhere are
 * the exchange of the C calls and the exchange of the chains (d = 0 each;
 * the moves below 1e-9): share 1 / (1 + 1 + 1) = 1/3.  For a D call: the
 * exchange of the D calls, and, passed down from its trigger (the C call
 * of its request), the exchange of the chains: 1/3 again.  (Counting
 * single moves and exchanges alone, as before the chains, gave 1/2 to
 * both, though the solution holds each call where it is in only half of
 * the four; the chains count one of those twice against the call, which
 * errs on the side of doubt.) */
TEST(crossed_chains_a_third_each)
{
    pb_trace *t;
    pb_trace_new(&t);
    next_id = 1;
    uint64_t cid = 1;
    for (int k = 0; k < 40; k++)
        request(t, (pb_ns)k * 100 * MS, (300 + 37 * (k % 7)) * US, (500 + 61 * (k % 5)) * US,
                (40 + 7 * (k % 4)) * US, (100 + 13 * (k % 3)) * US, &cid);
    pb_ns T = 10000 * MS;
    request(t, T, 1 * MS, 1 * MS, 50 * US, 100 * US, &cid);
    request(t, T, 1 * MS, 1 * MS, 50 * US, 100 * US, &cid);
    joint *s = NULL;
    double *conf = confidences(t, &s);
    CHECK(conf != NULL);
    pb_ns tc = T + 1 * MS, td = T + 2 * MS + 50 * US;
    uint32_t c1 = s ? pair_at(s, t, tc, "B", 0) : JOINT_NONE;
    uint32_t c2 = c1 != JOINT_NONE ? pair_at(s, t, tc, "B", c1 + 1) : JOINT_NONE;
    uint32_t d1 = s ? pair_at(s, t, td, "B", 0) : JOINT_NONE;
    uint32_t d2 = d1 != JOINT_NONE ? pair_at(s, t, td, "B", d1 + 1) : JOINT_NONE;
    CHECK(c1 != JOINT_NONE && c2 != JOINT_NONE && d1 != JOINT_NONE && d2 != JOINT_NONE);
    if (conf && c1 != JOINT_NONE && c2 != JOINT_NONE && d1 != JOINT_NONE &&
        d2 != JOINT_NONE) {
        CHECK_NEAR(conf[c1], 1.0 / 3, 1e-6);
        CHECK_NEAR(conf[c2], 1.0 / 3, 1e-6);
        CHECK_NEAR(conf[d1], 1.0 / 3, 1e-6);
        CHECK_NEAR(conf[d2], 1.0 / 3, 1e-6);
    }
    free(conf);
    joint_close(s);
    pb_trace_close(t);
}

/* Ten requests into B, each calling C once, and one call from B to C when
 * B serves no request (an orphan: no candidate, so no parent).  B serves
 * requests, so the orphan is a root only if its link starts requests of
 * its own: 1 orphan among 11 calls of B -> C, share (1 + 1) / (11 + 2) =
 * 2/13.  The requests' own calls (from the client X, which serves none)
 * stay at 1. */
TEST(orphan_by_the_rule_of_succession)
{
    pb_trace *t;
    pb_trace_new(&t);
    next_id = 1;
    uint64_t cid = 1;
    for (int k = 0; k < 10; k++)
        request(t, (pb_ns)k * 100 * MS, (300 + 37 * (k % 7)) * US, (500 + 61 * (k % 5)) * US,
                -1, (100 + 13 * (k % 3)) * US, &cid);
    pb_ns T = 5000 * MS;
    uint64_t k = cid++;
    msg(t, T, "B", "C", PB_TYPE_CALL, k);
    msg(t, T + 1 * MS, "C", "B", PB_TYPE_RETURN, k);
    joint *s = NULL;
    double *conf = confidences(t, &s);
    CHECK(conf != NULL);
    uint32_t o = s ? pair_at(s, t, T, "B", 0) : JOINT_NONE;
    uint32_t r = s ? pair_at(s, t, 0, "X", 0) : JOINT_NONE;
    CHECK(o != JOINT_NONE && r != JOINT_NONE);
    if (conf && o != JOINT_NONE && r != JOINT_NONE) {
        CHECK_INT(joint_pair_parent(s, o), JOINT_NONE);
        CHECK_NEAR(conf[o], 2.0 / 13, 1e-12);
        CHECK(conf[r] == 1.0);
    }
    free(conf);
    joint_close(s);
    pb_trace_close(t);
}

int main(void)
{
    RUN(two_alike_requests_half_each);
    RUN(crossed_chains_a_third_each);
    RUN(orphan_by_the_rule_of_succession);
    return pbtest_exit();
}
