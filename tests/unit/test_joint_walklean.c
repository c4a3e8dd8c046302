/* walk_lean (joint_model.c walk_is_lean; docs/joint/speed_w21.md "Speed,
 * twenty-second wave (h177)"): a request's walk takes a second compiled
 * copy of its steps without the checks of the rules that cannot fire on
 * it (learned parallel calls, a late call's timer, a late response's gap,
 * open-ended requests).  The copy must be chosen only where those rules
 * are off; then it gives the same bits.
 *
 * On random traces (a service B with two callers, requests making 1 to 14
 * calls of C and D, some in parallel, some returns lost; black box and
 * with call ids; nanoseconds and whole milliseconds): every request's
 * log-likelihood is the same bits with walk_lean 0 and 1 on the solved
 * state, and the whole solution (its log-likelihood) too.  The selection
 * is checked: the cases include states with learned parallel calls (the
 * lean copy not chosen) and without (chosen); forcing the lean copy
 * everywhere (joint_walk_test_force, a wrong selection) changes the
 * values where parallel calls were learned.  And with a late response's
 * own trigger switched on for every service (late_gap, set by hand on the
 * solved state: the full steps are taken), both settings again give the
 * same bits (on these traces the rule changes no value: the late rules'
 * selection is checked on the real sets, docs/joint/speed.md). */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>

static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* case seed's trace solved with walk_lean = lean: the state (NULL on
 * failure), *tp the trace */
static joint *solved(int seed, int ids, int lean, pb_trace **tp)
{
    if (!(*tp = joint_test_case_trace((unsigned long)(131 * seed + ids), seed, ids, 120)))
        return NULL;
    pb_trace_view v = pb_trace_view_of(*tp);
    joint_params p = defaults();
    p.callids = ids;
    p.walk_lean = lean;
    return joint_test_init(&v, p);
}

static void done(joint *s, pb_trace *t)
{
    joint_close(s);
    pb_trace_close(t);
    joint_test_tick = 0;
}

/* requests whose log-likelihood bits differ between walk_lean 1 and 0 on
 * one state (-1 on failure) */
static long per_request(joint *s)
{
    long d = 0;
    for (uint32_t q = 0; q < joint_npairs(s); q++) {
        s->p.walk_lean = 1;
        double a = joint_req_ll(s, q);
        s->p.walk_lean = 0;
        double b = joint_req_ll(s, q);
        s->p.walk_lean = 1;
        d += !same_bits(a, b);
    }
    return d;
}

/* one case: *diff requests that differ (lean vs full), *whole 1 when the
 * two solutions' log-likelihoods differ, *par 1 when parallel calls were
 * learned; -1 on failure */
static int lean_case(int seed, int ids, long *diff, int *whole, int *par)
{
    pb_trace *t0 = NULL, *t1 = NULL;
    joint *s0 = solved(seed, ids, 0, &t0), *s1 = solved(seed, ids, 1, &t1);
    int rc = -1;
    if (s0 && s1) {
        *par = s1->npflag > 0;
        *whole = !same_bits(joint_loglik(s0), joint_loglik(s1));
        *diff = per_request(s1);
        rc = *diff < 0 ? -1 : 0;
    }
    done(s0, t0);
    done(s1, t1);
    return rc;
}

TEST(lean_walks_are_the_same_bits)
{
    int npar = 0, nlean = 0;
    for (int seed = 1; seed <= 8; seed++)
        for (int ids = 0; ids < 2; ids++) {
            long diff = 0;
            int whole = 0, par = 0;
            CHECK_INT(lean_case(seed, ids, &diff, &whole, &par), 0);
            CHECK_INT(diff, 0);
            CHECK_INT(whole, 0);
            npar += par;
            nlean += !par;
        }
    printf("# %d of 16 cases with learned parallel calls (full steps), %d without\n", npar,
           16 - npar);
    CHECK(npar > 0); /* the selection meets both states */
    CHECK(nlean > 0);
}

TEST(lean_walks_everywhere_differ)
{
    long bad = 0;
    for (int seed = 1; seed <= 8; seed++)
        for (int ids = 0; ids < 2; ids++) {
            pb_trace *t = NULL;
            joint *s = solved(seed, ids, 1, &t);
            CHECK(s != NULL);
            if (s && s->npflag) {
                joint_walk_test_force = 1;
                bad += per_request(s) > 0;
                joint_walk_test_force = 0;
            }
            done(s, t);
        }
    printf("# lean steps forced where parallel calls were learned: %ld cases differ\n", bad);
    CHECK(bad > 0);
}

TEST(late_gap_on_takes_the_full_steps)
{
    long bad = 0, changed = 0;
    for (int seed = 1; seed <= 8; seed++)
        for (int ids = 0; ids < 2; ids++) {
            pb_trace *t = NULL;
            joint *s = solved(seed, ids, 1, &t);
            CHECK(s != NULL);
            if (!s) {
                done(s, t);
                continue;
            }
            uint32_t n = joint_npairs(s);
            double *before = malloc(((size_t)n + 1) * sizeof *before);
            pb_ns *saved = s->late_gap, *g = malloc(((size_t)s->nnodes + 1) * sizeof *g);
            CHECK(before && g);
            if (before && g) {
                for (uint32_t q = 0; q < n; q++)
                    before[q] = joint_req_ll(s, q);
                for (uint32_t b = 0; b <= s->nnodes; b++)
                    g[b] = 1000000; /* every service: a late response's own trigger, 1 ms */
                s->late_gap = g;
                for (uint32_t q = 0; q < n; q++)
                    changed += !same_bits(before[q], joint_req_ll(s, q));
                bad += per_request(s);
                s->late_gap = saved;
            }
            free(before);
            free(g);
            done(s, t);
        }
    printf("# late_gap on: %ld request values changed by the rule, %ld differ lean/full\n",
           changed, bad);
    CHECK_INT(bad, 0);
}

int main(void)
{
    RUN(lean_walks_are_the_same_bits);
    RUN(lean_walks_everywhere_differ);
    RUN(late_gap_on_takes_the_full_steps);
    return pbtest_exit();
}
