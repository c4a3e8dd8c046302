/* joint's conf_series (joint_cfseries.c; docs/joint/confidence_late.md,
 * "A series of calls shifted by one request (h248)"), worked by hand: a
 * retry-like series of calls each put one request late, where moving any
 * one call back costs two requests their count, and moving the whole
 * series back costs nothing.  The single-call move says sure; the series
 * says a coin toss. */
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

/* Six requests X -> B, request i arriving at i ms; B calls C 1.2 ms after
 * the arrival (after request i + 1 arrived), C answers 100 us later and
 * B 100 us after that (request i is over at i ms + 1.4 ms, before request
 * i + 2 arrives).  So C call i may be request i's or request i + 1's (the
 * only requests open), and the last one only request 5's. */
static pb_trace *six(void)
{
    pb_trace *t;
    if (pb_trace_new(&t) != PB_OK)
        return NULL;
    next_id = 1;
    uint64_t cid = 1;
    for (int i = 0; i < 6; i++) {
        pb_ns t0 = (pb_ns)i * MS;
        uint64_t x = cid++, k = cid++;
        msg(t, t0, "X", "B", PB_TYPE_CALL, x);
        msg(t, t0 + 1200 * US, "B", "C", PB_TYPE_CALL, k);
        msg(t, t0 + 1300 * US, "C", "B", PB_TYPE_RETURN, k);
        msg(t, t0 + 1400 * US, "B", "X", PB_TYPE_RETURN, x);
    }
    pb_trace_sort(t);
    return t;
}

/* The hand model (the walk conf_series is given): a request's
 * log-likelihood is its count term alone, 0 when it holds a number of C
 * calls it may hold and -10 nats per call away from that; every request
 * holds one, but request 1 may hold none or one (as a retry's first
 * request may lack its receipt) and request 4 one or two.  Every call
 * fits every request it may be in (alike). */
typedef struct hand {
    uint32_t q1, q4;
} hand;

static double hand_ll(const hand *h, uint32_t q, uint32_t n)
{
    uint32_t lo = 1, hi = 1;
    if (q == h->q1)
        lo = 0;
    if (q == h->q4)
        hi = 2;
    return n < lo ? -10.0 * (lo - n) : n > hi ? -10.0 * (n - hi) : 0;
}

static int hand_walk(joint *s, void *ctx, uint32_t q, const uint32_t *k, uint32_t n,
                     double *ll)
{
    (void)s;
    (void)k;
    *ll = hand_ll(ctx, q, n);
    return PB_OK;
}

/* The series: C calls 1, 2, 3 put in requests 2, 3, 4 (request 1 holds
 * none, request 4 calls 3 and 4; every request's count is one it may
 * hold: the state's log-likelihood is 0).  Call 2 (in request 3, its own
 * request 2 the other candidate):
 *   - the plain move to request 2: request 2 holds two (-10), request 3
 *     none (-10): e^-20, so the share without series is 1 / (1 + e^-20);
 *   - forward: request 3 takes call 3 from request 4 (0; request 4 keeps
 *     one, 0): fwd = (-10, 0);
 *   - backward: request 2 gives call 1 to request 1 (request 2 holds call
 *     2 alone, 0; request 1 holds one, 0): back = (-10, 0);
 *   - the series adds (e^-10 + 1)^2 - e^-20: the share is
 *     1 / (1 + (e^-10 + 1)^2), just under one half. */
TEST(series_doubts_what_the_single_move_is_sure_of)
{
    pb_trace *t = six();
    CHECK(t != NULL);
    if (!t)
        return;
    pb_trace_view v = pb_trace_view_of(t);
    joint_params p = defaults();
    CHECK_INT(p.conf_series, 0);
    p.conf_selfcal = 0;
    pb_error err;
    joint *s = NULL;
    CHECK(joint_init(&s, &v, &p, &err) == PB_OK);
    uint32_t q[6], c[6];
    int ok = s != NULL;
    for (int i = 0; ok && i < 6; i++) {
        q[i] = pair_at(s, t, (pb_ns)i * MS, "X");
        c[i] = pair_at(s, t, (pb_ns)i * MS + 1200 * US, "B");
        ok = q[i] != JOINT_NONE && c[i] != JOINT_NONE;
    }
    CHECK(ok);
    if (ok) {
        for (int i = 0; i < 5; i++)
            CHECK_INT(joint_pair_ncandidates(s, c[i]), 2);
        CHECK_INT(joint_pair_ncandidates(s, c[5]), 1);
        for (int i = 0; i < 6; i++)
            CHECK(joint_set_parent(s, c[i], q[i]) == PB_OK);
        for (int i = 1; i <= 3; i++)
            CHECK(joint_set_parent(s, c[i], q[i + 1]) == PB_OK);
        hand h = {q[1], q[4]};
        uint32_t n = joint_npairs(s);
        double *rll = calloc(n + 1, sizeof *rll), *single = calloc(n + 1, sizeof *single),
               *chainw = calloc(n + 1, sizeof *chainw);
        CHECK(rll && single && chainw);
        if (rll && single && chainw) {
            for (uint32_t r = 0; r < n; r++)
                rll[r] = hand_ll(&h, r, s->kids[r].n);
            for (int i = 0; i < 6; i++)
                CHECK(rll[q[i]] == 0);
            single[c[2]] = exp(-20.0); /* the plain move, as joint_call_shares counts it */
            double before = 1.0 / (1.0 + single[c[2]] + chainw[c[2]]);
            CHECK(before > 0.999999);
            for (int mode = 1; mode <= 2; mode++) {
                chainw[c[2]] = 0;
                s->p.conf_series = mode;
                int rc = PB_OK;
                joint_cfs *cfs = joint_cfs_init(s, &rc);
                CHECK(rc == PB_OK && cfs != NULL);
                if (cfs)
                    CHECK(joint_cfs_shares(s, cfs, rll, hand_walk, &h, single, chainw) == PB_OK);
                joint_cfs_free(cfs);
                double e = exp(-10.0);
                CHECK_NEAR(chainw[c[2]], (e + 1) * (e + 1) - exp(-20.0), 1e-12);
                double after = 1.0 / (1.0 + single[c[2]] + chainw[c[2]]);
                CHECK_NEAR(after, 1.0 / (1.0 + (e + 1) * (e + 1)), 1e-12);
                CHECK(after < 0.5);
            }
            /* a cap of walks too small for the series: nothing added */
            chainw[c[2]] = 0;
            s->p.conf_series = 1;
            s->p.conf_series_walks = 1;
            int rc = PB_OK;
            joint_cfs *cfs = joint_cfs_init(s, &rc);
            if (cfs)
                CHECK(joint_cfs_shares(s, cfs, rll, hand_walk, &h, single, chainw) == PB_OK);
            joint_cfs_free(cfs);
            CHECK(chainw[c[2]] == 0);
            s->p.conf_series_walks = 100;
            s->p.conf_series = 0;
            /* off: no context, nothing added */
            cfs = joint_cfs_init(s, &rc);
            CHECK(rc == PB_OK && cfs == NULL);
        }
        free(rll);
        free(single);
        free(chainw);
    }
    joint_close(s);
    pb_trace_close(t);
}

/* Through joint_confidence on the same shifted series with the fitted
 * model: turning conf_series on never raises a confidence (it only adds
 * alternatives), and the assignment is untouched. */
TEST(series_only_lowers)
{
    pb_trace *t = six();
    CHECK(t != NULL);
    if (!t)
        return;
    pb_trace_view v = pb_trace_view_of(t);
    joint_params p = defaults();
    p.conf_selfcal = 0;
    pb_error err;
    joint *s = NULL;
    CHECK(joint_init(&s, &v, &p, &err) == PB_OK);
    if (s) {
        uint32_t n = joint_npairs(s);
        double *c0 = calloc(n + 1, sizeof *c0), *c1 = calloc(n + 1, sizeof *c1);
        uint32_t *par = calloc(n + 1, sizeof *par);
        CHECK(c0 && c1 && par);
        if (c0 && c1 && par) {
            CHECK(joint_confidence(s, c0) == PB_OK);
            for (uint32_t i = 0; i < n; i++)
                par[i] = joint_pair_parent(s, i);
            s->p.conf_series = 2;
            CHECK(joint_confidence(s, c1) == PB_OK);
            for (uint32_t i = 0; i < n; i++) {
                CHECK(c1[i] <= c0[i] + 1e-12);
                CHECK(joint_pair_parent(s, i) == par[i]);
            }
        }
        free(c0);
        free(c1);
        free(par);
    }
    joint_close(s);
    pb_trace_close(t);
}

int main(void)
{
    RUN(series_doubts_what_the_single_move_is_sure_of);
    RUN(series_only_lowers);
    return pbtest_exit();
}
