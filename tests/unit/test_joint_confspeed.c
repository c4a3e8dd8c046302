/* The confidence's speed shortcuts (docs/joint/speed_middle.md "Speed, twelfth
 * wave"), each the same bits on and off, each shown to matter by a wrong
 * version of it that changes results.
 *
 * conf_sync: the confidence's walks of the alternatives stopped where the recorded
 * walk's remaining steps are provably the same terms, those terms then
 * added one by one (`conf_sync`, joint_conf.c + joint_req_walk_synced in
 * joint_model.c, docs/joint/speed_middle.md "Speed, twelfth wave"): on random traces
 * (a service B with two callers, requests making 1 to 14 calls of C and
 * D, some in parallel, some returns lost; black box and with call ids;
 * nanoseconds and whole milliseconds) every call's share and every
 * confidence (self-calibration and siblings cap included) is the same bits
 * with conf_sync=0 and 1, on one solved state, and walks did stop early.
 * The comparison can fail: with the record's last step term, or its
 * durations term's last term, left out on purpose (joint_sync_test_drop)
 * the shares differ.  And the whole
 * inference (joint_init + joint_confidence) with the option off and on:
 * the same parents, pairings and confidences.
 *
 * conf_pair_memo: without call ids the pairing's shares
 * (joint_pair_shares) walk each request as it stands once; on the same
 * random black-box traces every pairing share is the same bits with the
 * option off and on.  The comparison can fail: with the kept walks used
 * also for a request whose returns an exchange swapped
 * (joint_psmemo_test_wrong), the shares differ. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#include <gsl/gsl_rng.h>
#include <stdlib.h>

#define US 1000LL

/* case seed: 50 requests of up to 14 calls (even seeds) or 120 of up to
 * 7, 1 ms stamps every third seed; call ids when ids */
static pb_trace *case_trace(int seed, int ids)
{
    return joint_test_case_trace((unsigned long)(810 * seed + ids), seed, ids, 120);
}

/* requests into B from X (call ids when ids), 8 ms apart but every fourth
 * 20-40 us after the one before; each calls C, D, C, D and C, each after
 * the return of the one before; the five durations share a factor drawn
 * per request (0.3 to 3), so the durations term is fitted and used as a
 * black box.  The trace, or NULL when out of memory */
static pb_trace *corr_trace(int seed, int ids)
{
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    pb_trace *t = NULL;
    if (!g || pb_trace_new(&t) != PB_OK) {
        if (g)
            gsl_rng_free(g);
        return NULL;
    }
    gsl_rng_set(g, (unsigned long)(4100 + seed));
    next_id = 1;
    uint64_t cid = 1;
    pb_ns t0 = 0;
    for (int q = 0; q < 240; q++) {
        t0 += q % 4 == 1 ? 20 * US + (pb_ns)gsl_rng_uniform_int(g, 20 * US) : 8000 * US;
        double f = 0.3 + 2.7 * gsl_rng_uniform(g);
        uint64_t x = cid++;
        msg(t, t0, "X", "B", PB_TYPE_CALL, ids ? x : PB_ID_NONE);
        pb_ns now = t0 + 30 * US + (pb_ns)gsl_rng_uniform_int(g, 20 * US);
        const char *to[5] = {"C", "D", "C", "D", "C"};
        const double base[5] = {300, 500, 200, 400, 250};
        for (int c = 0; c < 5; c++) {
            uint64_t k = cid++;
            pb_ns d = (pb_ns)(f * base[c] * US * (0.9 + 0.2 * gsl_rng_uniform(g)));
            msg(t, now, "B", to[c], PB_TYPE_CALL, ids ? k : PB_ID_NONE);
            msg(t, now + d, to[c], "B", PB_TYPE_RETURN, ids ? k : PB_ID_NONE);
            now += d + 10 * US + (pb_ns)gsl_rng_uniform_int(g, 10 * US);
        }
        msg(t, now + 20 * US, "B", "X", PB_TYPE_RETURN, ids ? x : PB_ID_NONE);
    }
    pb_trace_sort(t);
    gsl_rng_free(g);
    return t;
}

/* bits of a[0..n) and b[0..n) that differ (values compared as bits) */
static long bits_differ(const double *a, const double *b, uint32_t n)
{
    long d = 0;
    for (uint32_t i = 0; i < n; i++)
        d += memcmp(&a[i], &b[i], sizeof a[i]) != 0;
    return d;
}

/* one solved state, its shares with conf_sync 0 and 1: values that
 * differ (-1 on failure); *walks, *hits += the synced walks and those
 * that stopped early */
static long shares_differ(pb_trace *t, int ids, size_t *walks, size_t *hits)
{
    pb_trace_view v = pb_trace_view_of(t);
    pb_error err;
    joint_params p = defaults();
    p.callids = ids;
    joint *s = NULL;
    if (joint_init(&s, &v, &p, &err) != PB_OK) {
        printf("FAIL joint_init: %s\n", err.msg);
        return -1;
    }
    uint32_t n = joint_npairs(s);
    double *a = malloc(((size_t)n + 1) * sizeof *a), *b = malloc(((size_t)n + 1) * sizeof *b);
    long d = -1;
    if (a && b) {
        s->p.conf_sync = 0;
        int rc = joint_call_shares(s, a);
        size_t w0 = s->csync_walks;
        s->p.conf_sync = 1;
        if (rc == PB_OK)
            rc = joint_call_shares(s, b);
        if (rc == PB_OK && w0 == 0) {
            d = bits_differ(a, b, n);
            *walks += s->csync_walks;
            *hits += s->csync_hits;
        }
    }
    free(a);
    free(b);
    joint_close(s);
    return d;
}

static int differing(size_t *walks, size_t *hits, int quiet)
{
    int bad = 0;
    *walks = *hits = 0;
    for (int seed = 1; seed <= 7; seed++)
        for (int ids = 0; ids < 2; ids++) {
            /* seed 7: the durations term's traces */
            pb_trace *t = seed == 7 ? corr_trace(seed, ids) : case_trace(seed, ids);
            if (!t)
                return -1;
            long d = shares_differ(t, ids, walks, hits);
            if (d != 0) {
                if (!quiet)
                    printf("# seed %d ids %d: %ld shares differ\n", seed, ids, d);
                bad++;
            }
            pb_trace_close(t);
        }
    joint_test_tick = 0;
    return bad;
}

TEST(synced_walks_give_the_same_shares)
{
    size_t walks = 0, hits = 0;
    CHECK_INT(differing(&walks, &hits, 0), 0);
    printf("# %zu synced walks, %zu stopped early\n", walks, hits);
    CHECK(walks > 0);
    CHECK(hits > 0);
}

TEST(synced_walks_wrong_on_purpose_differ)
{
    size_t walks = 0, hits = 0;
    joint_sync_test_drop = 1;
    int bad = differing(&walks, &hits, 1);
    joint_sync_test_drop = 2;
    int badc = differing(&walks, &hits, 1);
    joint_sync_test_drop = 0;
    printf("# last step term dropped: %d of 14 cases differ; last durations term: %d\n", bad,
           badc);
    CHECK(bad > 0);
    CHECK(badc > 0);
}

/* the whole inference with conf_sync and conf_pair_memo off and on: the
 * same parents and pairings, every confidence the same bits */
TEST(conf_sync_whole_inference_the_same)
{
    for (int seed = 1; seed <= 4; seed++)
        for (int ids = 0; ids < 2; ids++) {
            pb_trace *t = case_trace(seed + 10, ids);
            CHECK(t != NULL);
            if (!t)
                return;
            joint_params p[2];
            joint_test_params_two(p, ids, NULL);
            p[0].conf_sync = p[0].conf_pair_memo = 0;
            p[1].conf_sync = p[1].conf_pair_memo = 1;
            joint *s[2];
            if (joint_test_solve_two(t, p, s) == 0) {
                CHECK_INT(joint_test_pairs_differ(s[0], s[1]), 0);
                uint32_t n = joint_npairs(s[0]);
                double *c0 = malloc(((size_t)n + 1) * sizeof *c0);
                double *c1 = malloc(((size_t)n + 1) * sizeof *c1);
                CHECK(c0 && c1);
                if (c0 && c1) {
                    CHECK(joint_confidence(s[0], c0) == PB_OK);
                    CHECK(joint_confidence(s[1], c1) == PB_OK);
                    CHECK_INT(bits_differ(c0, c1, n), 0);
                    CHECK_INT(s[0]->csync_walks, 0);
                    CHECK(s[1]->csync_walks > 0);
                }
                free(c0);
                free(c1);
                joint_test_close_two(s);
            } else {
                CHECK(0);
            }
            pb_trace_close(t);
        }
    joint_test_tick = 0;
}

/* one solved black-box state, its pairing shares with conf_pair_memo 0
 * and 1: values that differ (-1 on failure) */
static long pair_shares_differ(pb_trace *t)
{
    pb_trace_view v = pb_trace_view_of(t);
    pb_error err;
    joint_params p = defaults();
    p.callids = 0;
    joint *s = NULL;
    if (joint_init(&s, &v, &p, &err) != PB_OK) {
        printf("FAIL joint_init: %s\n", err.msg);
        return -1;
    }
    uint32_t n = joint_npairs(s);
    double *a = malloc(((size_t)n + 1) * sizeof *a), *b = malloc(((size_t)n + 1) * sizeof *b);
    long d = -1;
    if (a && b) {
        s->p.conf_pair_memo = 0;
        int rc = joint_pair_shares(s, a);
        s->p.conf_pair_memo = 1;
        if (rc == PB_OK)
            rc = joint_pair_shares(s, b);
        if (rc == PB_OK && !s->ps_memo)
            d = bits_differ(a, b, n);
    }
    free(a);
    free(b);
    joint_close(s);
    return d;
}

static int pair_differing(int quiet)
{
    int bad = 0;
    for (int seed = 1; seed <= 6; seed++) {
        pb_trace *t = case_trace(seed, 0);
        if (!t)
            return -1;
        long d = pair_shares_differ(t);
        if (d != 0) {
            if (!quiet)
                printf("# seed %d: %ld pairing shares differ\n", seed, d);
            bad++;
        }
        pb_trace_close(t);
    }
    joint_test_tick = 0;
    return bad;
}

TEST(pair_memo_gives_the_same_shares)
{
    CHECK_INT(pair_differing(0), 0);
}

TEST(pair_memo_wrong_on_purpose_differs)
{
    joint_psmemo_test_wrong = 1;
    int bad = pair_differing(1);
    joint_psmemo_test_wrong = 0;
    printf("# memo used on swapped returns: %d of 6 cases differ\n", bad);
    CHECK(bad > 0);
}

int main(void)
{
    RUN(synced_walks_give_the_same_shares);
    RUN(synced_walks_wrong_on_purpose_differ);
    RUN(conf_sync_whole_inference_the_same);
    RUN(pair_memo_gives_the_same_shares);
    RUN(pair_memo_wrong_on_purpose_differs);
    return pbtest_exit();
}
