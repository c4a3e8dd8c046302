/* joint's fixed costs of a refit (`fit_fast`, `select_share`,
 * joint_fitfast.c, docs/joint/speed_middle.md "Speed, ninth wave: fixed costs"): on
 * random traces (a service B with two callers, requests making 1 to 14
 * calls of C and D, some in parallel, some returns lost; with call ids and
 * as a black box, in nanoseconds and in whole milliseconds) the search
 * with both on chooses exactly what it chooses with both off: every
 * parent, every pairing of calls and returns, the log-likelihood and every
 * density row, bit for bit.  The comparison can fail: replaying a
 * request's recorded walk without checking what it read
 * (joint_ff_test_stale, a test hook) changes the results.  The select
 * choice is shared only for the same input: the fingerprint of another
 * trace differs. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>

#define US 1000LL

/* solve the trace with fit_fast and select_share off and on; returns how
 * many pairs differ (-1: failure), plus 1 when the log-likelihoods or any
 * density row differ in a bit; *replayed: walks replayed with them on */
/* tick_ivl of both solves (NULL: the default) */
static const char *ff_tick_ivl;
/* solves in which the zero-tick rule and the whole-tick intervals ran */
static int ff_tick0_runs, ff_ivl_runs;

static long compare(pb_trace *t, size_t *replayed)
{
    joint_params p[2];
    for (int i = 0; i < 2; i++) {
        p[i] = defaults();
        p[i].fit_fast = i;
        p[i].select_share = i;
        if (ff_tick_ivl)
            p[i].tick_ivl = ff_tick_ivl;
    }
    joint *s[2];
    if (joint_test_solve_two(t, p, s))
        return -1;
    long diff = joint_test_pairs_differ(s[0], s[1]);
    if (!joint_test_ll_same(s[0], s[1]))
        diff++;
    /* the densities of the last refit, bit for bit */
    if (s[0]->nkeys != s[1]->nkeys)
        diff++;
    else if (s[0]->nkeys &&
             (!joint_mrow_lf_same(s[0], s[1]) ||
              memcmp(s[0]->kmean, s[1]->kmean, (size_t)s[0]->nkeys * sizeof(double))))
        diff++;
    ff_tick0_runs += s[1]->t0obs != NULL;
    ff_ivl_runs += s[1]->tiJ > 0;
    size_t rw = 0, ww = 0, sk = 0;
    joint_ff_counts(s[0], &rw, &ww, &sk);
    CHECK(rw == 0 && ww == 0 && sk == 0);
    joint_ff_counts(s[1], &rw, &ww, &sk);
    *replayed += rw;
    joint_close(s[0]);
    joint_close(s[1]);
    return diff;
}

/* every case: returns the cases whose results differ */
static int differing_cases(size_t *replayed)
{
    int bad = 0;
    for (int seed = 1; seed <= 4; seed++)
        for (int ids = 0; ids < 2; ids++) {
            pb_trace *t = joint_test_case_trace((unsigned long)(700 * seed + ids), seed, ids, 120);
            if (!t)
                return -1;
            long d = compare(t, replayed);
            if (d != 0) {
                if (!joint_ff_test_stale)
                    printf("# seed %d ids %d: %ld differences\n", seed, ids, d);
                bad++;
            }
            pb_trace_close(t);
        }
    joint_test_tick = 0;
    return bad;
}

TEST(fit_fast_and_select_share_choose_the_same)
{
    size_t replayed = 0;
    CHECK_INT(differing_cases(&replayed), 0);
    printf("# %zu refit walks replayed\n", replayed);
    CHECK(replayed > 1000);
}

TEST(replaying_without_checking_the_calls_changes_results)
{
    size_t replayed = 0;
    joint_ff_test_stale = 1;
    int bad = differing_cases(&replayed);
    joint_ff_test_stale = 0;
    printf("# stale replays: %d of 8 cases differ\n", bad);
    CHECK(bad > 0);
}

/* with the whole-tick rules running (joint_tick0.c, joint_tickivl.c):
 * stamps rounded down to 1 us (few ties: the zero-tick rule) and to 1 ms
 * with tick_ivl=on (the intervals and the zero-tick rule); the replayed
 * walks count the observed zero-tick delays and spread whole-tick delays
 * as the walks do, the ranged densities write the rules' bins */
TEST(fit_fast_with_the_whole_tick_rules)
{
    size_t replayed = 0;
    int bad = 0;
    ff_tick_ivl = "on";
    ff_tick0_runs = ff_ivl_runs = 0;
    for (int seed = 1; seed <= 4; seed++)
        for (int ids = 0; ids < 2; ids++) {
            gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
            CHECK(g != NULL);
            if (!g)
                break;
            gsl_rng_set(g, (unsigned long)(900 * seed + ids));
            joint_test_tick = seed % 2 ? 1000 : 1000 * 1000;
            pb_trace *t = random_fanout_trace(g, ids, seed % 2 ? 80 : 50, seed % 2 ? 300 : 1500,
                                              seed % 2 ? 7 : 14);
            gsl_rng_free(g);
            CHECK(t != NULL);
            if (!t)
                break;
            long d = compare(t, &replayed);
            if (d != 0) {
                printf("# tick %s seed %d ids %d: %ld differences\n", seed % 2 ? "1us" : "1ms",
                       seed, ids, d);
                bad++;
            }
            pb_trace_close(t);
        }
    joint_test_tick = 0;
    ff_tick_ivl = NULL;
    printf("# %zu refit walks replayed; zero-tick rule in %d, intervals in %d of 8 cases\n",
           replayed, ff_tick0_runs, ff_ivl_runs);
    CHECK_INT(bad, 0);
    CHECK(ff_tick0_runs >= 4);
    CHECK(ff_ivl_runs >= 4);
    CHECK(replayed > 1000);
}

/* the select choice is taken only by the same input */
TEST(select_share_only_for_the_same_input)
{
    pb_trace *t[3];
    for (int i = 0; i < 3; i++) {
        gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
        gsl_rng_set(g, (unsigned long)(i == 2 ? 91 : 90)); /* 0 and 1: the same trace */
        t[i] = random_fanout_trace(g, 0, 60, 500, 6);
        gsl_rng_free(g);
        CHECK(t[i] != NULL);
        if (!t[i])
            return;
    }
    joint *s[3] = {NULL, NULL, NULL};
    pb_error err;
    for (int i = 0; i < 3; i++) {
        pb_trace_view v = pb_trace_view_of(t[i]);
        joint_params p = defaults();
        p.pair_order = "off";
        CHECK(joint_init(&s[i], &v, &p, &err) == PB_OK);
    }
    joint_selshare *c = joint_selshare_new();
    CHECK(c != NULL);
    if (c && s[0] && s[1] && s[2]) {
        uint64_t h[2];
        unsigned char *d = NULL, *k = NULL;
        uint32_t fits = 0;
        s[0]->selshare = c;
        /* an empty holder gives nothing */
        CHECK_INT(joint_selshare_take(s[0], sizeof(int), h, &d, &k, &fits), 0);
        unsigned char *dens = calloc(s[0]->nnodes + 1, 1), *cnts = calloc(s[0]->nnodes + 1, 1);
        /* the holder keeps s[0]'s own table, counted (h262: not a copy) */
        CHECK(joint_selshare_put(s[0], sizeof(int), h, dens, cnts, 4) == PB_OK);
        s[0]->selshare = NULL;
        /* the other trace: not taken */
        s[2]->selshare = c;
        CHECK_INT(joint_selshare_take(s[2], sizeof(int), h, &d, &k, &fits), 0);
        s[2]->selshare = NULL;
        /* the same trace solved again: taken (its signals replaced by the
         * holder's: copies of the flags, the one table) */
        s[1]->selshare = c;
        struct joint_sel *sel1 = s[1]->sel;
        unsigned char *cf1 = s[1]->cnt_flat, *cs1 = s[1]->corr_svc;
        int got = joint_selshare_take(s[1], sizeof(int), h, &d, &k, &fits);
        s[1]->selshare = NULL;
        CHECK_INT(got, 1);
        CHECK_INT((int)fits, 4);
        if (got == 1) {
            CHECK(s[1]->sel == s[0]->sel);
            joint_sel_release(s[1]->sel);
            free(s[1]->cnt_flat);
            free(s[1]->corr_svc);
        }
        s[1]->sel = sel1;
        s[1]->cnt_flat = cf1;
        s[1]->corr_svc = cs1;
        free(d);
        free(k);
        free(dens);
        free(cnts);
    }
    joint_selshare_free(c);
    for (int i = 0; i < 3; i++) {
        joint_close(s[i]);
        pb_trace_close(t[i]);
    }
}

int main(void)
{
    RUN(fit_fast_and_select_share_choose_the_same);
    RUN(replaying_without_checking_the_calls_changes_results);
    RUN(fit_fast_with_the_whole_tick_rules);
    RUN(select_share_only_for_the_same_input);
    return pbtest_exit();
}
