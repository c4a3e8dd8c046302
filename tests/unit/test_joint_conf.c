/* joint's confidence (docs/joint/confidence.md, "Links and confidence"), worked by
 * hand: a call's share is 1 / (1 + sum exp d) over the alternatives in
 * which it is elsewhere (moves, exchanges, and the moves and exchanges of
 * the chains of calls it belongs to); an orphan's share is the rule of
 * succession over its link. */
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

/* the confidences of every pair (selfcal: with the self-calibration);
 * *s and the trace stay open */
static double *confidences_sc(pb_trace *t, joint **s, int selfcal)
{
    pb_trace_sort(t);
    pb_trace_view v = pb_trace_view_of(t);
    joint_params p = defaults();
    p.conf_selfcal = selfcal;
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

/* the shares of the neighbourhood alone, worked by hand */
static double *confidences(pb_trace *t, joint **s)
{
    return confidences_sc(t, s, 0);
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
    uint32_t c1 = s ? pair_at_from(s, t, T + 1 * MS, "B", 0) : JOINT_NONE;
    uint32_t c2 = c1 != JOINT_NONE ? pair_at_from(s, t, T + 1 * MS, "B", c1 + 1) : JOINT_NONE;
    CHECK(c1 != JOINT_NONE && c2 != JOINT_NONE);
    if (conf && c1 != JOINT_NONE && c2 != JOINT_NONE) {
        CHECK_INT(joint_pair_ncandidates(s, c1), 2);
        CHECK_NEAR(conf[c1], 0.5, 1e-6);
        CHECK_NEAR(conf[c2], 0.5, 1e-6);
        /* a taught request's call had one candidate: sure */
        uint32_t c0 = pair_at_from(s, t, 300 * US, "B", 0);
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
    uint32_t c1 = s ? pair_at_from(s, t, tc, "B", 0) : JOINT_NONE;
    uint32_t c2 = c1 != JOINT_NONE ? pair_at_from(s, t, tc, "B", c1 + 1) : JOINT_NONE;
    uint32_t d1 = s ? pair_at_from(s, t, td, "B", 0) : JOINT_NONE;
    uint32_t d2 = d1 != JOINT_NONE ? pair_at_from(s, t, td, "B", d1 + 1) : JOINT_NONE;
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
    uint32_t o = s ? pair_at_from(s, t, T, "B", 0) : JOINT_NONE;
    uint32_t r = s ? pair_at_from(s, t, 0, "X", 0) : JOINT_NONE;
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

/* Three requests alike to the nanosecond (as in two_alike_requests_half_each,
 * a third arriving at the same instant): each C call has two exchanges
 * that change nothing (d = 0) and two moves below 1e-9, so its share is
 * 1 / (1 + 1 + 1) = 1/3 (the truth: each call is in its request in a third
 * of the six equally likely ways to deal them).  The self-calibration may
 * only lower a share: at most 1/3 with it. */
TEST(three_alike_requests_a_third_each)
{
    for (int sc = 0; sc < 2; sc++) {
        pb_trace *t;
        pb_trace_new(&t);
        next_id = 1;
        uint64_t cid = 1;
        for (int k = 0; k < 40; k++)
            request(t, (pb_ns)k * 100 * MS, (300 + 37 * (k % 7)) * US,
                    (500 + 61 * (k % 5)) * US, -1, (100 + 13 * (k % 3)) * US, &cid);
        pb_ns T = 10000 * MS;
        for (int k = 0; k < 3; k++)
            request(t, T, 1 * MS, 1 * MS, -1, 100 * US, &cid);
        joint *s = NULL;
        double *conf = confidences_sc(t, &s, sc);
        CHECK(conf != NULL);
        uint32_t c = s ? pair_at_from(s, t, T + 1 * MS, "B", 0) : JOINT_NONE;
        for (int k = 0; k < 3 && conf; k++) {
            CHECK(c != JOINT_NONE);
            if (c == JOINT_NONE)
                break;
            CHECK_INT(joint_pair_ncandidates(s, c), 3);
            if (sc)
                CHECK(conf[c] <= 1.0 / 3 + 1e-12);
            else
                CHECK_NEAR(conf[c], 1.0 / 3, 1e-6);
            c = pair_at_from(s, t, T + 1 * MS, "B", c + 1);
        }
        free(conf);
        joint_close(s);
        pb_trace_close(t);
    }
}

/* The self-calibration's map, by hand: stated shares and right (1) or
 * wrong (0): 0.2:0, 0.2:1, 0.5:1, 0.6:0, 0.9:1 three times, 0.95:0.
 * Pool-adjacent-violators: {0.2: 1 of 2} then {0.5: 1 of 1}; {0.6: 0 of
 * 1} violates it and pools to {0.5-0.6: 1 of 2} (1/2), which ties the
 * first and pools with it (ties pool too): {0.2-0.6: 2 of 4}.  {0.9: 3 of
 * 3}, then {0.95: 0 of 1} violates it: {0.9-0.95: 3 of 4}.  Values
 * (right + 1) / (rows + 2): 3/6 = 1/2 and 4/6 = 2/3.  Stated 0.95 -> 2/3,
 * 0.7 -> 1/2, 0.1 (below every block) -> 1/2. */
TEST(pav_map_by_hand)
{
    double c[] = {0.9, 0.2, 0.6, 0.95, 0.5, 0.9, 0.2, 0.9};
    unsigned char ok[] = {1, 0, 0, 0, 1, 1, 1, 1};
    double lo[8], val[8];
    uint32_t b = joint_pav_map(c, ok, 8, lo, val);
    CHECK_INT(b, 2);
    if (b == 2) {
        CHECK_NEAR(lo[0], 0.2, 1e-15);
        CHECK_NEAR(lo[1], 0.9, 1e-15);
        CHECK_NEAR(val[0], 0.5, 1e-15);
        CHECK_NEAR(val[1], 2.0 / 3, 1e-15);
        CHECK_NEAR(joint_pav_at(lo, val, b, 0.95), 2.0 / 3, 1e-15);
        CHECK_NEAR(joint_pav_at(lo, val, b, 0.7), 0.5, 1e-15);
        CHECK_NEAR(joint_pav_at(lo, val, b, 0.1), 0.5, 1e-15);
    }
    /* the top block must hold a wrong row: {0.3: 19 of 20} and {0.8: 1 of
     * 1} (no violation, but nothing wrong at the top) are pooled, {0.3-0.8:
     * 20 of 21} -> 21/23.  (Before that rule: two blocks, 20/22 and 2/3,
     * the first lowered to 2/3.) */
    double c2[21];
    unsigned char ok2[21];
    for (int i = 0; i < 20; i++) {
        c2[i] = 0.3;
        ok2[i] = i > 0;
    }
    c2[20] = 0.8;
    ok2[20] = 1;
    double lo2[21], val2[21];
    b = joint_pav_map(c2, ok2, 21, lo2, val2);
    CHECK_INT(b, 1);
    if (b == 1)
        CHECK_NEAR(val2[0], 21.0 / 23, 1e-15);
    /* {0.5: 8 of 10} and {0.99: 50 of 50}: without the rule the top block
     * would say 51/52 = 0.981 for every share of 0.99 or more, though the
     * simulation's only errors lie just below; pooled: {0.5-0.99: 58 of
     * 60} -> 59/62 = 0.952 */
    double c4[60];
    unsigned char ok4[60];
    for (int i = 0; i < 60; i++) {
        c4[i] = i < 10 ? 0.5 : 0.99;
        ok4[i] = i >= 2;
    }
    double lo4[60], val4[60];
    b = joint_pav_map(c4, ok4, 60, lo4, val4);
    CHECK_INT(b, 1);
    if (b == 1)
        CHECK_NEAR(joint_pav_at(lo4, val4, b, 0.999), 59.0 / 62, 1e-15);
    /* {0.4: 0 of 1} then {0.7: 2 of 2}: values 1/3 and 3/4, already
     * monotone; {0.9: 4 of 5} pools with {0.7} (1 >= 0.8): {0.7-0.9: 6 of
     * 7} -> 7/9 */
    double c3[] = {0.4, 0.7, 0.7, 0.9, 0.9, 0.9, 0.9, 0.9};
    unsigned char ok3[] = {0, 1, 1, 1, 1, 1, 1, 0};
    b = joint_pav_map(c3, ok3, 8, lo, val);
    CHECK_INT(b, 2);
    if (b == 2) {
        CHECK_NEAR(val[0], 1.0 / 3, 1e-15);
        CHECK_NEAR(val[1], 7.0 / 9, 1e-15);
    }
}

/* conf_order by hand (joint_conf_order): a block's value v = 0.93 for rows
 * stated 1, 1 - 1e-7, 0.99, 0.9 and 0: g(c) = 1 - min(1, -log10(1 - c) /
 * 6) is 0, 0, 1 - 2/6, 1 - 1/6 and 1, so the rows get 0.93, 0.93,
 * 0.93 - 0.667e-4, 0.93 - 0.833e-4 and 0.9299: the order of their stated
 * confidences, none more than 1e-4 below the block, distinct at the six
 * decimals the writer prints; a value below the step stays at least 0 */
TEST(conf_order_by_hand)
{
    CHECK_NEAR(joint_conf_order(0.93, 1.0), 0.93, 1e-15);
    CHECK_NEAR(joint_conf_order(0.93, 1 - 1e-7), 0.93, 1e-15);
    CHECK_NEAR(joint_conf_order(0.93, 0.99), 0.93 - 1e-4 * (4.0 / 6), 1e-12);
    CHECK_NEAR(joint_conf_order(0.93, 0.9), 0.93 - 1e-4 * (5.0 / 6), 1e-12);
    CHECK_NEAR(joint_conf_order(0.93, 0.0), 0.93 - 1e-4, 1e-12);
    CHECK_NEAR(joint_conf_order(5e-5, 0.5), 0.0, 1e-15);
    double cs[] = {0.0, 0.5, 0.9, 0.99, 0.999, 0.9999, 0.99999, 1.0};
    for (int i = 1; i < 8; i++) {
        double a = round(joint_conf_order(0.93, cs[i - 1]) * 1e6);
        double b = round(joint_conf_order(0.93, cs[i]) * 1e6);
        CHECK(a < b);
    }
}

/* One request from X into B at t0: B calls C (which calls E inside), then
 * C again g after its return (C calling E again), then D g after that
 * return; B answers 100 us after its last return.  Call ids throughout. */
static void request_cced(pb_trace *t, pb_ns t0, pb_ns g, uint64_t *cid)
{
    uint64_t x = (*cid)++;
    msg(t, t0, "X", "B", PB_TYPE_CALL, x);
    pb_ns at = t0 + g;
    for (int i = 0; i < 2; i++) {
        uint64_t c = (*cid)++, e = (*cid)++;
        msg(t, at, "B", "C", PB_TYPE_CALL, c);
        msg(t, at + 20 * US, "C", "E", PB_TYPE_CALL, e);
        msg(t, at + 120 * US, "E", "C", PB_TYPE_RETURN, e);
        msg(t, at + 200 * US, "C", "B", PB_TYPE_RETURN, c);
        at += 200 * US + g;
    }
    uint64_t d = (*cid)++;
    msg(t, at, "B", "D", PB_TYPE_CALL, d);
    msg(t, at + 300 * US, "D", "B", PB_TYPE_RETURN, d);
    msg(t, at + 400 * US, "B", "X", PB_TYPE_RETURN, x);
}

/* The siblings-cap trace: 20 requests of request_cced (g 50, 57, 64 us in
 * turn), solved with the defaults (and conf_order on when asked); conf
 * holds a row per pair.  The caller frees conf and closes s and t. */
static void sibling_trace(int conf_order, pb_trace **tp, joint **sp, double **confp,
                          uint32_t *np)
{
    pb_trace *t;
    pb_trace_new(&t);
    next_id = 1;
    uint64_t cid = 1;
    for (int k = 0; k < 20; k++)
        request_cced(t, (pb_ns)k * 100 * MS, (50 + 7 * (k % 3)) * US, &cid);
    pb_trace_sort(t);
    pb_trace_view v = pb_trace_view_of(t);
    joint_params p = defaults();
    if (conf_order)
        p.conf_order = 1;
    pb_error err;
    joint *s = NULL;
    CHECK(joint_init(&s, &v, &p, &err) == PB_OK);
    uint32_t n = s ? joint_npairs(s) : 0;
    double *conf = malloc(((size_t)n + 1) * sizeof *conf);
    CHECK(conf != NULL);
    *tp = t;
    *sp = s;
    *confp = conf;
    *np = n;
}

/* conf_siblings by hand (joint_sibling_cap): twenty requests of the shape
 * above, 100 ms apart; every row stated 1 but the first C call of the
 * sixth request, stated 0.3.  After the cap: its E call (the parent's
 * row), the second C call (a call of the same link in the same request),
 * that call's E, and the D call (triggered by the second C's return) are
 * at 0.3; the sixth request's own row (a root) and every row of the other
 * requests stay at 1: four rows lowered, five below 1 in all.  Fails
 * without the cap (every row but one at 1). */
TEST(sibling_cap_by_hand)
{
    pb_trace *t;
    joint *s;
    double *conf;
    uint32_t n;
    sibling_trace(0, &t, &s, &conf, &n);
    pb_ns t5 = 500 * MS, g5 = (50 + 7 * (5 % 3)) * US;
    uint32_t c1 = s ? pair_at_from(s, t, t5 + g5, "B", 0) : JOINT_NONE;
    uint32_t e1 = s ? pair_at_from(s, t, t5 + g5 + 20 * US, "C", 0) : JOINT_NONE;
    pb_ns t2 = t5 + g5 + 200 * US + g5;
    uint32_t c2 = s ? pair_at_from(s, t, t2, "B", 0) : JOINT_NONE;
    uint32_t e2 = s ? pair_at_from(s, t, t2 + 20 * US, "C", 0) : JOINT_NONE;
    uint32_t d = s ? pair_at_from(s, t, t2 + 200 * US + g5, "B", 0) : JOINT_NONE;
    uint32_t r = s ? pair_at_from(s, t, t5, "X", 0) : JOINT_NONE;
    uint32_t other = s ? pair_at_from(s, t, 600 * MS + 50 * US, "B", 0) : JOINT_NONE;
    CHECK(c1 != JOINT_NONE && e1 != JOINT_NONE && c2 != JOINT_NONE && e2 != JOINT_NONE &&
          d != JOINT_NONE && r != JOINT_NONE && other != JOINT_NONE);
    if (s && conf && c1 != JOINT_NONE && e1 != JOINT_NONE && c2 != JOINT_NONE &&
        e2 != JOINT_NONE && d != JOINT_NONE && r != JOINT_NONE && other != JOINT_NONE) {
        for (uint32_t i = 0; i < n; i++)
            conf[i] = 1.0;
        conf[c1] = 0.3;
        CHECK(joint_sibling_cap(s, conf) == PB_OK);
        CHECK_NEAR(conf[c1], 0.3, 1e-15);
        CHECK_NEAR(conf[e1], 0.3, 1e-15);
        CHECK_NEAR(conf[c2], 0.3, 1e-15);
        CHECK_NEAR(conf[e2], 0.3, 1e-15);
        CHECK_NEAR(conf[d], 0.3, 1e-15);
        CHECK(conf[r] == 1.0);
        CHECK(conf[other] == 1.0);
        uint32_t low = 0;
        for (uint32_t i = 0; i < n; i++)
            low += conf[i] < 1.0;
        CHECK_INT(low, 5);
        CHECK_INT(s->sib_lowered, 4);
    }
    free(conf);
    joint_close(s);
    pb_trace_close(t);
}

/* the siblings cap leaves a row right by construction alone (one
 * candidate on every pair up to its root: no other request can hold it)
 * and, with conf_order, keeps the rows it sets to one value in the order
 * of their own confidences: v - 1e-5 x g(own), g as in conf_order_by_hand.
 * The request of sibling_cap_by_hand: C1 stated 0.3, E1 0.9, C2 0.99, E2
 * 1, D 1 and marked right by construction.  By hand: E1 0.3 - 1e-5 x 5/6,
 * C2 0.3 - 1e-5 x 2/3, E2 0.3 (g(1) = 0), D stays 1.  The old cap gave
 * 0.3 to all four (D included), one value in no order. */
TEST(sibling_cap_exempt_and_order_by_hand)
{
    pb_trace *t;
    joint *s;
    double *conf;
    uint32_t n;
    sibling_trace(1, &t, &s, &conf, &n);
    pb_ns t5 = 500 * MS, g5 = (50 + 7 * (5 % 3)) * US;
    uint32_t c1 = s ? pair_at_from(s, t, t5 + g5, "B", 0) : JOINT_NONE;
    uint32_t e1 = s ? pair_at_from(s, t, t5 + g5 + 20 * US, "C", 0) : JOINT_NONE;
    pb_ns t2 = t5 + g5 + 200 * US + g5;
    uint32_t c2 = s ? pair_at_from(s, t, t2, "B", 0) : JOINT_NONE;
    uint32_t e2 = s ? pair_at_from(s, t, t2 + 20 * US, "C", 0) : JOINT_NONE;
    uint32_t d = s ? pair_at_from(s, t, t2 + 200 * US + g5, "B", 0) : JOINT_NONE;
    CHECK(c1 != JOINT_NONE && e1 != JOINT_NONE && c2 != JOINT_NONE && e2 != JOINT_NONE &&
          d != JOINT_NONE);
    if (s && conf && c1 != JOINT_NONE && e1 != JOINT_NONE && c2 != JOINT_NONE &&
        e2 != JOINT_NONE && d != JOINT_NONE) {
        for (uint32_t i = 0; i < n; i++)
            conf[i] = 1.0;
        conf[c1] = 0.3;
        conf[e1] = 0.9;
        conf[c2] = 0.99;
        s->conf_exempt = calloc((size_t)n + 1, 1);
        CHECK(s->conf_exempt != NULL);
        if (s->conf_exempt)
            s->conf_exempt[d] = 1;
        CHECK(joint_sibling_cap(s, conf) == PB_OK);
        CHECK_NEAR(conf[c1], 0.3, 1e-15);
        CHECK_NEAR(conf[e1], 0.3 - 1e-5 * 5.0 / 6.0, 1e-12);
        CHECK_NEAR(conf[c2], 0.3 - 1e-5 * 2.0 / 3.0, 1e-12);
        CHECK_NEAR(conf[e2], 0.3, 1e-15);
        CHECK(conf[d] == 1.0);
        CHECK(conf[e2] > conf[c2] && conf[c2] > conf[e1]);
        CHECK_INT(s->sib_lowered, 3);
    }
    free(conf);
    joint_close(s);
    pb_trace_close(t);
}

/* conf_sib_learn (joint_sibstr.c), by hand.
 * Coverage at precision 0.99 of stated 0.9, 0.9, 0.8, 0.7, 0.6 with the
 * 0.7 row wrong: the top two kept 2/2, with 0.8 3/3 (0.6 of the rows),
 * with 0.7 3/4 < 0.99: 0.6.  At precision 0.75: 3/4 at 0.7 (0.8), 4/5 at
 * 0.6 (1.0).  The wrong row skipped: 1.  One wrong row alone: 0.
 * z of real doubts {0.2, 0.4} against the copy's {0.1, 0.1, 0.1, 0.3}:
 * means 0.3 and 0.15, variances 0.02 and 0.01, se = sqrt(0.02/2 + 0.01/4)
 * = 0.111803, z = 1.341641 (within 1.96: the copy is like the trace).
 * Ten of each: variances 0.2/19 and 0.3/39, se = sqrt(0.010526/20 +
 * 0.0076923/40) = 0.026807, z = 5.5955: real_doubts_more; the two
 * swapped, -5.5955: copy_doubts_more.
 * Wilson lower bound (z = 1.96) of 686 right of 688: p = 0.997093,
 * (p + 1.96^2/(2n) - 1.96 sqrt(p(1-p)/n + 1.96^2/(4n^2))) / (1 + 1.96^2/n)
 * = 0.989463 < 0.99: a copy with those rows at 0.99 cannot vouch for real
 * rows at 0.99, it can at 0.5 and 0.9; 10000 of 10000: 1/(1 + 3.8416e-4)
 * = 0.999616, it vouches up to 0.999.
 * The copy's coverage 0.90 without the cap and 0.885 with it: more than
 * 1 - 0.99 lost, the cap is off (copy_coverage_lost), and
 * joint_sibling_cap then leaves every row of sibling_cap_by_hand's
 * request as it was; 0.8905: kept, the cap on.  Without conf_sib_learn:
 * always on (fixed). */
TEST(sibling_strength_by_hand)
{
    double c[5] = {0.9, 0.9, 0.8, 0.7, 0.6};
    unsigned char ok[5] = {1, 1, 1, 0, 1}, skip[5] = {0, 0, 0, 1, 0};
    CHECK_NEAR(joint_sibstr_coverage(c, ok, NULL, 5, 0.99), 0.6, 1e-15);
    CHECK_NEAR(joint_sibstr_coverage(c, ok, NULL, 5, 0.75), 1.0, 1e-15);
    CHECK_NEAR(joint_sibstr_coverage(c, ok, skip, 5, 0.99), 1.0, 1e-15);
    CHECK_NEAR(joint_sibstr_coverage(c + 3, ok + 3, NULL, 1, 0.99), 0.0, 1e-15);
    double real[3] = {2, 0.6, 0.2}, sim[3] = {4, 0.6, 0.12};
    CHECK_NEAR(joint_sibstr_z(real, sim), 1.341641, 1e-6);
    double real10[3] = {20, 6, 2}, sim10[3] = {40, 6, 1.2};
    CHECK_NEAR(joint_sibstr_z(real10, sim10), 5.5955, 1e-4);
    CHECK_NEAR(joint_sibstr_z(sim10, real10), -5.5955, 1e-4);
    CHECK_NEAR(joint_sibstr_wilson(686, 688), 0.989463, 1e-6);
    CHECK_NEAR(joint_sibstr_wilson(10000, 10000), 0.999616, 1e-6);
    double rr[4] = {5, 5, 5, 0}, cr[4] = {688, 688, 688, 0}, ck[4] = {686, 686, 686, 0};
    CHECK(joint_sibstr_vouched(rr, cr, ck) == 0);
    rr[2] = 0;
    CHECK(joint_sibstr_vouched(rr, cr, ck) == 1);
    CHECK_NEAR(joint_sibling_shrink(0.9, 0.3, 0), 0.9, 1e-15);
    CHECK_NEAR(joint_sibling_shrink(0.9, 0.3, 1), 0.3, 1e-15);

    pb_trace *t;
    joint *s;
    double *conf;
    uint32_t n;
    sibling_trace(0, &t, &s, &conf, &n);
    pb_ns t5 = 500 * MS, g5 = (50 + 7 * (5 % 3)) * US;
    uint32_t c1 = s ? pair_at_from(s, t, t5 + g5, "B", 0) : JOINT_NONE;
    uint32_t e1 = s ? pair_at_from(s, t, t5 + g5 + 20 * US, "C", 0) : JOINT_NONE;
    CHECK(c1 != JOINT_NONE && e1 != JOINT_NONE);
    if (s && conf && c1 != JOINT_NONE && e1 != JOINT_NONE) {
        s->scal_done = 1;
        s->p.conf_sib_learn = 1;
        s->sib_cov[0] = 0.90;
        s->sib_cov[1] = 0.885;
        s->sib_cov[2] = 1;
        memcpy(s->sib_dreal, real, sizeof real);
        memcpy(s->sib_dsim, sim, sizeof sim);
        for (int k = 0; k < 4; k++) {
            s->sib_crows[k] = 10000;
            s->sib_cright[k] = 10000;
            s->sib_rrows[k] = 5;
        }
        CHECK(joint_sibling_strength(s) == 0.0);
        CHECK(strcmp(s->sib_reason, "copy_coverage_lost") == 0);
        CHECK_NEAR(s->sib_z, 1.341641, 1e-6);
        for (uint32_t i = 0; i < n; i++)
            conf[i] = 1.0;
        conf[c1] = 0.3;
        CHECK(joint_sibling_cap(s, conf) == PB_OK);
        CHECK_NEAR(conf[c1], 0.3, 1e-15);
        CHECK(conf[e1] == 1.0); /* the full cap gives 0.3 (sibling_cap_by_hand) */
        CHECK_INT(s->sib_lowered, 0);
        s->sib_cov[1] = 0.8905;
        CHECK(joint_sibling_strength(s) == 1.0);
        CHECK(strcmp(s->sib_reason, "copy_coverage_kept") == 0);
        s->sib_cov[1] = 0.885;
        memcpy(s->sib_dreal, real10, sizeof real10);
        memcpy(s->sib_dsim, sim10, sizeof sim10);
        CHECK(joint_sibling_strength(s) == 1.0);
        CHECK(strcmp(s->sib_reason, "real_doubts_more") == 0);
        CHECK(joint_sibling_cap(s, conf) == PB_OK);
        CHECK_NEAR(conf[e1], 0.3, 1e-15);
        memcpy(s->sib_dreal, sim10, sizeof sim10);
        memcpy(s->sib_dsim, real10, sizeof real10);
        CHECK(joint_sibling_strength(s) == 1.0);
        CHECK(strcmp(s->sib_reason, "copy_doubts_more") == 0);
        memcpy(s->sib_dreal, real, sizeof real);
        memcpy(s->sib_dsim, sim, sizeof sim);
        s->sib_cright[2] = 9900; /* 0.99 exactly: its lower bound is below */
        CHECK(joint_sibling_strength(s) == 1.0);
        CHECK(strcmp(s->sib_reason, "copy_cannot_vouch") == 0);
        s->p.conf_sib_learn = 0;
        CHECK(joint_sibling_strength(s) == 1.0);
        CHECK(strcmp(s->sib_reason, "fixed") == 0);
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
    RUN(three_alike_requests_a_third_each);
    RUN(pav_map_by_hand);
    RUN(sibling_cap_by_hand);
    RUN(sibling_cap_exempt_and_order_by_hand);
    RUN(conf_order_by_hand);
    RUN(sibling_strength_by_hand);
    return pbtest_exit();
}
