/* joint's resumed walks (joint_req_walk_resume, the re-split's speed-up):
 * a walk resumed from the record of another kid list of the same request
 * gives the very same log-likelihood, bit for bit, as a fresh
 * joint_req_walk, after random moves of calls in and out of the list,
 * from records several moves old, and from records of other requests
 * (which must be ignored).  On a random trace of two callers of B, each
 * request making one to seven calls of C and D (some overlapping, some
 * returns lost), with call ids and as a black box, and in whole
 * milliseconds. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>

#define US 1000LL

static int by_call(const joint *s, uint32_t a, uint32_t b)
{
    return s->pr[a].cs < s->pr[b].cs || (s->pr[a].cs == s->pr[b].cs && a < b);
}

/* the members of pool[0..np) whose in[] is set, by call time (as the
 * re-split's lists) */
static uint32_t list_of(const joint *s, const uint32_t *pool, uint32_t np,
                        const unsigned char *in, uint32_t *out)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < np; i++) {
        if (!in[i])
            continue;
        uint32_t j = n++;
        while (j > 0 && by_call(s, pool[i], out[j - 1])) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = pool[i];
    }
    return n;
}

/* random moves for every request of B: returns the mismatches.  est 0:
 * resumed walks against fresh ones (bit for bit); 1: estimates
 * (joint_req_walk_estimate) from the record left against fresh walks,
 * within 1e-9 of their magnitude, *synced counting those that stopped
 * early; 2: the same from a record whose least later triggers are
 * falsified (every later trigger said to be later than any change: a
 * wrong stop rule), which must give mismatches; 3: the estimates with the
 * durations term forced on (every key of it correlated, corr_force), 4
 * and 5: the same from a record whose durations partial sums (4) or call
 * counts (5) are falsified, which must give mismatches */
static int corr_force;

static long walk_mismatches(int ids, pb_ns round, int est, long *walks, long *synced)
{
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, ids ? 11 : 12);
    joint_test_tick = round;
    pb_trace *t = random_fanout_trace(g, ids, 400, 300, 7);
    pb_trace_view v = pb_trace_view_of(t);
    joint_params p;
    pb_error err;
    memset(&p, 0, sizeof p);
    if (pb_opt_defaults(joint_options, &p, &err) != PB_OK)
        printf("FAIL defaults: %s\n", err.msg);
    joint *s = NULL;
    long bad = 0;
    *walks = 0;
    if (joint_init(&s, &v, &p, &err) != PB_OK) {
        printf("FAIL joint_init: %s\n", err.msg);
        gsl_rng_free(g);
        pb_trace_close(t);
        return -1;
    }
    if (est >= 3) {
        /* every two consecutive calls' durations correlated (rho 0.6),
         * whatever the fit found (it finds none on this trace) */
        if (joint_corr_force(s, 0.6) != PB_OK)
            printf("FAIL: joint_corr_force\n");
        free(s->corr_svc);
        s->corr_svc = NULL;
        corr_force = s->corr_any;
    }
    joint_wrec w[2];
    memset(w, 0, sizeof w);
    uint32_t pool[64], list[64], np;
    unsigned char in[64];
    uint32_t prevq = JOINT_NONE;
    for (uint32_t q = 0; q < s->npairs; q++) {
        /* B's requests: the calls of q and of the next two requests of B */
        if (s->pr[q].call == JOINT_NONE || s->out_off[s->pr[q].callee + 1] == s->out_off[s->pr[q].callee])
            continue;
        np = 0;
        for (uint32_t r = q, seen = 0; r < s->npairs && seen < 3; r++) {
            if (s->pr[r].callee != s->pr[q].callee)
                continue;
            seen++;
            for (uint32_t i = 0; i < s->kids[r].n && np < 64; i++)
                pool[np++] = s->kids[r].a[i];
        }
        if (!np)
            continue;
        for (uint32_t i = 0; i < np; i++)
            in[i] = gsl_rng_uniform(g) < 0.5;
        /* now and then the record left is another request's */
        if (prevq == JOINT_NONE || gsl_rng_uniform(g) < 0.7)
            w[0].valid = 0;
        for (int mv = 0; mv < 40; mv++) {
            int nt = 1 + (int)gsl_rng_uniform_int(g, 2);
            for (int x = 0; x < nt; x++)
                in[gsl_rng_uniform_int(g, np)] ^= 1;
            uint32_t n = list_of(s, pool, np, in, list);
            double fresh = 0, res = 0;
            if (est && w[0].valid && w[0].q == q) {
                double e = 0;
                int hit = 0;
                if (est == 2)
                    for (uint32_t i = 0; i <= w[0].n; i++) {
                        w[0].smr[i] = INT64_MAX;
                        w[0].smi[i] = JOINT_NONE;
                    }
                if (est == 4)
                    for (uint32_t i = 0; i <= w[0].n; i++)
                        w[0].cp[i] += 0.25 * i;
                if (est == 5)
                    for (uint32_t j = 0; j < w[0].ncnt; j++)
                        w[0].cnt[j] += 1;
                if (joint_req_walk(s, q, list, n, 0, &fresh) != PB_OK ||
                    joint_req_walk_estimate(s, q, list, n, &w[0], &e, &hit) != PB_OK) {
                    bad++;
                    break;
                }
                (*walks)++;
                *synced += hit;
                if (!(fabs(e - fresh) <= 1e-9 * (1 + fabs(fresh)))) {
                    if (bad < 3 && (est == 1 || est == 3))
                        printf("# request %u, %u calls: fresh %.17g, estimate %.17g\n", q, n,
                               fresh, e);
                    bad++;
                }
            }
            if (joint_req_walk(s, q, list, n, 0, &fresh) != PB_OK ||
                joint_req_walk_resume(s, q, list, n, &w[0], &w[1], &res) != PB_OK) {
                bad++;
                break;
            }
            *walks += !est;
            if (!est && memcmp(&fresh, &res, sizeof fresh)) {
                if (bad < 3)
                    printf("# request %u, %u calls: fresh %.17g, resumed %.17g\n", q, n, fresh,
                           res);
                bad++;
            }
            /* the new record becomes the reference half of the time: the
             * others resume from records several moves old */
            if (gsl_rng_uniform(g) < 0.5) {
                joint_wrec tmp = w[0];
                w[0] = w[1];
                w[1] = tmp;
            }
        }
        prevq = q;
    }
    joint_wrec_free(&w[0]);
    joint_wrec_free(&w[1]);
    joint_close(s);
    pb_trace_close(t);
    gsl_rng_free(g);
    return bad;
}

TEST(resumed_walk_equals_fresh_walk_with_call_ids)
{
    long walks = 0, synced = 0;
    CHECK_INT(walk_mismatches(1, 0, 0, &walks, &synced), 0);
    CHECK(walks > 5000);
}

TEST(resumed_walk_equals_fresh_walk_black_box)
{
    long walks = 0, synced = 0;
    CHECK_INT(walk_mismatches(0, 0, 0, &walks, &synced), 0);
    CHECK(walks > 5000);
}

/* the re-split's pruning (joint_req_walk_estimate): an estimate from a
 * record equals the fresh walk but for rounding, and stops early in many
 * cases; with a wrong stop rule (the record's later triggers falsified)
 * the same comparison finds mismatches */
TEST(estimated_walk_equals_fresh_walk)
{
    for (int ids = 0; ids < 2; ids++)
        for (int ms = 0; ms < 2; ms++) {
            long walks = 0, synced = 0;
            CHECK_INT(walk_mismatches(ids, ms ? 1000 * US : 0, 1, &walks, &synced), 0);
            printf("# ids=%d ms=%d: %ld estimates, %ld stopped early\n", ids, ms, walks, synced);
            CHECK(walks > 1000);
            CHECK(synced > walks / 10);
            CHECK(synced < walks);
        }
}

/* the estimates' terms after the steps come from the record: the call
 * counts by the changed links, the durations term from the record's
 * partial sums (joint_corr_ll_est).  With that term forced on (the random
 * trace's fit leaves it at zero) the estimates still equal the fresh
 * walks but for rounding; from records whose partial sums or counts are
 * falsified they do not */
TEST(estimated_walk_with_durations_term_equals_fresh_walk)
{
    for (int ids = 0; ids < 2; ids++)
        for (int ms = 0; ms < 2; ms++) {
            long walks = 0, synced = 0;
            corr_force = 0;
            CHECK_INT(walk_mismatches(ids, ms ? 1000 * US : 0, 3, &walks, &synced), 0);
            printf("# ids=%d ms=%d: %ld estimates with the durations term\n", ids, ms, walks);
            CHECK(corr_force);
            CHECK(walks > 1000);
        }
    for (int ids = 0; ids < 2; ids++)
        for (int est = 4; est <= 5; est++) {
            long walks = 0, synced = 0;
            long bad = walk_mismatches(ids, 0, est, &walks, &synced);
            printf("# ids=%d, record's %s falsified: %ld of %ld estimates wrong\n", ids,
                   est == 4 ? "durations sums" : "counts", bad, walks);
            CHECK(bad > 10);
        }
}

TEST(estimated_walk_with_a_wrong_stop_rule_fails)
{
    for (int ids = 0; ids < 2; ids++) {
        long walks = 0, synced = 0;
        long bad = walk_mismatches(ids, 0, 2, &walks, &synced);
        printf("# ids=%d: %ld of %ld estimates wrong\n", ids, bad, walks);
        CHECK(bad > 10);
    }
}

/* stamps in whole milliseconds: calls that return in the millisecond they
 * were sent, at the instant of other outputs (a return received at an
 * output's time is taken before it: the resume must start before) */
TEST(resumed_walk_equals_fresh_walk_millisecond_stamps)
{
    long walks = 0, synced = 0;
    CHECK_INT(walk_mismatches(1, 1000 * US, 0, &walks, &synced), 0);
    CHECK(walks > 5000);
}

int main(void)
{
    RUN(resumed_walk_equals_fresh_walk_with_call_ids);
    RUN(resumed_walk_equals_fresh_walk_black_box);
    RUN(resumed_walk_equals_fresh_walk_millisecond_stamps);
    RUN(estimated_walk_equals_fresh_walk);
    RUN(estimated_walk_with_durations_term_equals_fresh_walk);
    RUN(estimated_walk_with_a_wrong_stop_rule_fails);
    return pbtest_exit();
}
