/* Signals chosen per service by held-out likelihood (joint_select.c,
 * docs/joint/model.md "Signals chosen per service"), on hand-built traces whose
 * answer is known: a service B with four callers X1..X4; every request
 * alone in time (so beyond doubt), B calling C and answering.
 *
 * - Callers alike: every caller's delays come from one distribution, 25
 *   requests each.  Keyed by caller, each fold's density of a caller
 *   rests on 12-13 delays; pooled, on 50; held out, the pooled densities
 *   are likelier (a kernel estimate from four times the data), and
 *   so are the pooled counts (every request calls C once: the pseudo-count
 *   weighs (12 + 0.1) / (12 + 1.6) = 0.89 keyed against (50 + 0.1) /
 *   (50 + 1.6) = 0.97 pooled, 0.09 nats per request): B pools both.
 * - Callers that differ: X_i's call to C leaves after a median of 0.1,
 *   1, 10 or 100 ms: the pooled density spreads over four decades, each
 *   held-out delay is about ln 4 = 1.4 nats less likely pooled: keyed
 *   (densities and counts are one choice: the counts, alike, go along).
 * - Counts that differ: X1's requests call C twice, the others' once; the
 *   pooled count distribution gives X1's requests P(2) = 1/4 instead of
 *   about 0.9, more than the delays (alike) gain pooled: keyed.
 * Each expectation fails with any fixed choice (always keyed, always
 * pooled). */
#include "pbtest.h"
#include "joint_test.h"
#include "joint.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>

#define MS 1000000LL

/* request k of caller X<i>: arrival at t0, B calls C (ncall times, one
 * after the other's return), C answers after 0.5 ms, B answers d2 after
 * the last return */
static void request(pb_trace *t, pb_ns t0, int i, pb_ns d1, pb_ns d2, int ncall,
                    uint64_t *cid)
{
    char x[8];
    snprintf(x, sizeof x, "X%d", i);
    uint64_t a = (*cid)++;
    msg(t, t0, x, "B", PB_TYPE_CALL, a);
    pb_ns now = t0;
    for (int c = 0; c < ncall; c++) {
        uint64_t k = (*cid)++;
        now += d1;
        msg(t, now, "B", "C", PB_TYPE_CALL, k);
        now += MS / 2;
        msg(t, now, "C", "B", PB_TYPE_RETURN, k);
    }
    msg(t, now + d2, "B", x, PB_TYPE_RETURN, a);
}

/* kind 0: alike; 1: delays differ by caller; 2: counts differ by caller */
static pb_trace *four_callers(int kind)
{
    pb_trace *t;
    pb_trace_new(&t);
    next_id = 1;
    uint64_t cid = 1;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 7);
    static const double med[4] = {0.1, 1, 10, 100};
    for (int k = 0; k < 100; k++) {
        int i = k % 4;
        double m1 = kind == 1 ? med[i] : 1.0;
        pb_ns d1 = (pb_ns)(m1 * MS * exp(gsl_ran_gaussian(r, 0.3)));
        pb_ns d2 = (pb_ns)(0.3 * MS * exp(gsl_ran_gaussian(r, 0.3)));
        request(t, (pb_ns)k * 1000 * MS, i + 1, d1, d2, kind == 2 && i == 0 ? 2 : 1, &cid);
    }
    gsl_rng_free(r);
    pb_trace_sort(t);
    return t;
}

static void signals_of(int kind, int out[4], double gain[4])
{
    pb_trace *t = four_callers(kind);
    pb_trace_view v = pb_trace_view_of(t);
    joint_params p = defaults();
    pb_error err;
    joint *s;
    out[0] = out[1] = out[2] = out[3] = -1;
    CHECK_INT(joint_init(&s, &v, &p, &err), PB_OK);
    CHECK_INT(joint_signals(s, "B", out, gain), PB_OK);
    int o2[4];
    double g2[4];
    CHECK_INT(joint_signals(s, "no-such-service", o2, g2), PB_EINVAL);
    joint_close(s);
    pb_trace_close(t);
}

TEST(callers_alike_are_pooled)
{
    int o[4];
    double g[4];
    signals_of(0, o, g);
    CHECK_INT(o[0], 1);  /* delays pooled */
    CHECK_INT(o[1], 1);  /* counts pooled */
    CHECK_INT(o[2], 1);  /* counts scored */
    CHECK_INT(o[3], 0);  /* durations: call ids, off */
    CHECK(g[0] > 2);
    CHECK(g[1] > 2);
    CHECK(g[2] > 100);   /* one call each: far likelier than flat counts */
}

TEST(callers_that_differ_stay_keyed)
{
    int o[4];
    double g[4];
    signals_of(1, o, g);
    CHECK_INT(o[0], 0);  /* delays keyed */
    CHECK(g[0] < -50);   /* about ln 4 per held-out request */
    CHECK_INT(o[1], 0);  /* the counts go with the delays */
    CHECK(g[1] > 0);     /* although alike */
}

TEST(counts_that_differ_stay_keyed)
{
    int o[4];
    double g[4];
    signals_of(2, o, g);
    CHECK_INT(o[0], 0);  /* keyed: the counts' loss outweighs the delays' gain */
    CHECK_INT(o[1], 0);
    CHECK(g[1] < -10);
    CHECK(g[0] + g[1] < 0);
    CHECK_INT(o[2], 1);
}

/* pooled on request (callers=pooled) and never pooled with callers=keyed */
TEST(callers_option_forces)
{
    pb_trace *t = four_callers(1);
    pb_trace_view v = pb_trace_view_of(t);
    joint_params p = defaults();
    pb_error err;
    joint *s;
    int o[4];
    double g[4];
    p.callers = "pooled";
    CHECK_INT(joint_init(&s, &v, &p, &err), PB_OK);
    CHECK_INT(joint_signals(s, "B", o, g), PB_OK);
    CHECK_INT(o[0], 1);
    CHECK_INT(o[1], 1);
    joint_close(s);
    t = (pb_trace_close(t), four_callers(0));
    v = pb_trace_view_of(t);
    p.callers = "keyed";
    CHECK_INT(joint_init(&s, &v, &p, &err), PB_OK);
    CHECK_INT(joint_signals(s, "B", o, g), PB_OK);
    CHECK_INT(o[0], 0);
    CHECK_INT(o[1], 0);
    joint_close(s);
    p.callers = "sometimes";
    CHECK_INT(joint_init(&s, &v, &p, &err), PB_EINVAL);
    pb_trace_close(t);
}

int main(void)
{
    RUN(callers_alike_are_pooled);
    RUN(callers_that_differ_stay_keyed);
    RUN(counts_that_differ_stay_keyed);
    RUN(callers_option_forces);
    return pbtest_exit();
}
