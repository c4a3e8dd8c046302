/* swap_level_memo (joint_xm.c; docs/joint/scale.md "A level's value kept
 * (h235)"): the exchanges' level values kept within a pass of exchanges
 * and the pair shares' scoring, keyed by the two requests, whether their
 * own returns are exchanged and which two of their calls have theirs
 * exchanged.  On black-box traces -- deep chains (one request of n nested
 * calls over 8 services, every call sent before any return: the
 * experiments' joint_deep chain, and one with random durations) and
 * joint_test_case_trace's fan-outs -- a solve with the memo (1: hits under
 * the same floor only; 2: under any floor that cannot change the choice)
 * gives every parent, every pairing, the log-likelihood and every
 * confidence bit for bit as the solve without it (0), and takes values
 * from the tables.  The comparison can fail: with the key's exchanged
 * calls, or whether the own returns are exchanged, left out
 * (joint_xm_test_nokid, wrong on purpose) results differ (or a solve fails). */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>

/* one request of n nested calls, span i on service svc(i % 8 + 1), sent
 * 1 us apart (in ns: us), all answered after the last send, the deepest
 * first; jitter 0: the awk's durations (4n + 100 - 2i us), else each
 * return moved by up to jitter us at random (the order of returns kept) */
static pb_trace *chain_trace(unsigned long seed, int n, int jitter)
{
    const pb_ns us = 1000;
    static const char *svc[9] = {"client", "svc1", "svc2", "svc3", "svc4",
                                 "svc5",   "svc6", "svc7", "svc8"};
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    pb_trace *t;
    if (!g || pb_trace_new(&t) != PB_OK) {
        gsl_rng_free(g);
        return NULL;
    }
    gsl_rng_set(g, seed);
    joint_test_tick = 0;
    next_id = 1;
    for (int i = 0; i < n; i++) {
        const char *from = i ? svc[(i - 1) % 8 + 1] : svc[0], *to = svc[i % 8 + 1];
        pb_ns st = (1000000 + (pb_ns)i) * us;
        pb_ns du = (4 * (pb_ns)n + 100 - 2 * (pb_ns)i) * us;
        if (jitter)
            du += (pb_ns)gsl_rng_uniform_int(g, (unsigned long)jitter) * 10;
        msg_rounded(t, st, from, to, PB_TYPE_CALL, PB_ID_NONE);
        msg_rounded(t, st + du, to, from, PB_TYPE_RETURN, PB_ID_NONE);
    }
    gsl_rng_free(g);
    pb_trace_sort(t);
    return t;
}

static pb_trace *case_trace(int seed, int k)
{
    if (seed <= 4)
        return chain_trace((unsigned long)(31 * seed + k), 40 + 20 * seed, k ? 90 : 0);
    return joint_test_case_trace((unsigned long)(8100 * seed + k), seed, 0, 60);
}

static int mode_b = 1; /* the memo's mode of the second solve */

/* confidences of two solves, bit for bit (1 same) */
static int conf_same(joint *a, joint *b)
{
    uint32_t n = joint_npairs(a);
    double *ca = malloc((n + 1) * sizeof *ca), *cb = malloc((n + 1) * sizeof *cb);
    int same = ca && cb && joint_confidence(a, ca) == PB_OK && joint_confidence(b, cb) == PB_OK &&
               memcmp(ca, cb, n * sizeof *ca) == 0;
    free(ca);
    free(cb);
    return same;
}

/* the wrong key on purpose may also make a solve fail (an exchange kept
 * by a wrong value turns out infeasible when applied): a failure counts
 * as a difference there, without the FAIL line joint_test_init prints */
static long compare_wrong(pb_trace *t, const joint_params p[2], int *llsame)
{
    pb_trace_view v = pb_trace_view_of(t);
    joint *s[2] = {NULL, NULL};
    pb_error err;
    long diff = 1;
    if (joint_init(&s[0], &v, &p[0], &err) == PB_OK &&
        joint_init(&s[1], &v, &p[1], &err) == PB_OK) {
        *llsame = joint_test_ll_same(s[0], s[1]);
        diff = joint_test_pairs_differ(s[0], s[1]);
        if (diff == 0 && *llsame && !conf_same(s[0], s[1]))
            diff = 1;
    }
    if (s[0])
        joint_close(s[0]);
    if (s[1])
        joint_close(s[1]);
    return diff;
}

static long compare(pb_trace *t, int seed, int k, int *llsame, void *ctx)
{
    joint_params p[2];
    joint_test_params_two(p, 0, NULL);
    p[0].swap_level_memo = 0;
    p[1].swap_level_memo = mode_b;
    if (joint_xm_test_nokid)
        return compare_wrong(t, p, llsame);
    joint *s[2];
    long diff = joint_test_compare_two(t, p, s, llsame);
    if (diff < 0)
        return -1;
    if (diff == 0 && *llsame && !conf_same(s[0], s[1]))
        diff = 1;
    joint_test_close_two(s);
    return diff;
}

static const joint_test_cases cases = {10, {"k=0", "k=1"}, case_trace, compare};

TEST(level_memo_same_results)
{
    for (mode_b = 1; mode_b <= 2; mode_b++) {
        size_t before = joint_xm_test_hits;
        CHECK_INT(joint_test_differing(&cases, NULL, 0), 0);
        printf("# swap_level_memo=%d: %zu level values taken from the tables\n", mode_b,
               joint_xm_test_hits - before);
        CHECK(joint_xm_test_hits > before);
    }
    mode_b = 1;
}

TEST(level_memo_key_without_a_field_changes_results)
{
    static const char *what[3] = {"", "the exchanged calls", "whether the own returns are exchanged"};
    for (int f = 1; f <= 2; f++) {
        joint_xm_test_nokid = f;
        mode_b = 2;
        int bad = joint_test_differing(&cases, NULL, 1);
        joint_xm_test_nokid = 0;
        mode_b = 1;
        printf("# with the key's %s left out: %d of 20 cases differ\n", what[f], bad);
        CHECK(bad > 0);
    }
}

int main(void)
{
    RUN(level_memo_same_results);
    RUN(level_memo_key_without_a_field_changes_results);
    return pbtest_exit();
}
