/* Two exact cuts of the confidence's walks (docs/joint/speed_w21.md "Speed,
 * twenty-first wave (h169)"), each the same bits on and off, each shown
 * to matter by a wrong version that changes results.
 *
 * conf_ll_keep (joint_llkeep.c): the output's log-likelihood sums the
 * walks the confidence made of every request.  On random traces (a
 * service B with two callers, requests making 1 to 14 calls of C and D,
 * some in parallel, some returns lost; black box and with call ids;
 * nanoseconds and whole milliseconds) joint_llkeep_loglik right after
 * the confidence is joint_loglik's bits, taken from the kept values; after
 * a refit on half the requests it walks again and is joint_loglik's bits
 * again.  The check can fail: taking the kept values without it
 * (joint_llkeep_test_nocheck) after that refit gives other numbers.
 *
 * conf_wide_skip (joint_conf.c): a call's request is walked without its
 * wide chain only when that chain holds more calls than the strict one;
 * every share is the same bits with the option off and on.  Never walking
 * it (joint_conf_test_wide_wrong) changes shares. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>

static pb_trace *case_trace(int seed, int ids)
{
    return joint_test_case_trace((unsigned long)(977 * seed + ids), seed, ids, 120);
}

static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* a case's state and trace closed */
static void done(joint *s, pb_trace *t)
{
    joint_close(s);
    pb_trace_close(t);
    joint_test_tick = 0;
}

/* case seed's trace (*tp; NULL when out of memory) solved with the
 * defaults and callids = ids: the state, or NULL */
static joint *solved(int seed, int ids, pb_trace **tp)
{
    if (!(*tp = case_trace(seed, ids)))
        return NULL;
    pb_trace_view v = pb_trace_view_of(*tp);
    joint_params p = defaults();
    p.callids = ids;
    return joint_test_init(&v, p);
}

/* one case: 0 when kept == fresh right after the confidence and after a
 * half refit (*hits += sums taken from the kept values); 1 when they
 * differ; -1 on failure */
static int ll_case(int seed, int ids, int *hits)
{
    pb_trace *t = NULL;
    joint *s = solved(seed, ids, &t);
    if (!t)
        return -1;
    int bad = -1;
    uint32_t n = s ? joint_npairs(s) : 0;
    double *c = malloc(((size_t)n + 1) * sizeof *c);
    unsigned char *half = malloc((size_t)n + 1);
    if (s && c && half && joint_confidence(s, c) == PB_OK) {
        int h0 = joint_llkeep_hits;
        double kept = joint_llkeep_loglik(s), fresh = joint_loglik(s);
        *hits += joint_llkeep_hits - h0;
        bad = !same_bits(kept, fresh);
        for (uint32_t q = 0; q < n; q++)
            half[q] = q % 2;
        if (joint_fit(s, half) == PB_OK) {
            kept = joint_llkeep_loglik(s);
            fresh = joint_loglik(s);
            bad |= !same_bits(kept, fresh);
        } else {
            bad = -1;
        }
    }
    free(c);
    free(half);
    done(s, t);
    return bad;
}

TEST(kept_loglik_is_the_same_bits)
{
    int hits = 0, bad = 0;
    for (int seed = 1; seed <= 6; seed++)
        for (int ids = 0; ids < 2; ids++) {
            int r = ll_case(seed, ids, &hits);
            CHECK(r >= 0);
            if (r)
                printf("# seed %d ids %d: the log-likelihoods differ\n", seed, ids);
            bad += r != 0;
        }
    CHECK_INT(bad, 0);
    printf("# %d of 12 sums taken from the kept walks\n", hits);
    CHECK_INT(hits, 12);
}

TEST(kept_loglik_without_its_check_differs)
{
    int hits = 0, bad = 0;
    joint_llkeep_test_nocheck = 1;
    for (int seed = 1; seed <= 6; seed++)
        for (int ids = 0; ids < 2; ids++)
            bad += ll_case(seed, ids, &hits) == 1;
    joint_llkeep_test_nocheck = 0;
    printf("# without the check: %d of 12 cases differ\n", bad);
    CHECK(bad > 0);
}

/* shares with conf_wide_skip 0 and 1 on one solved state: values whose
 * bits differ (-1 on failure) */
static long wide_case(int seed, int ids)
{
    pb_trace *t = NULL;
    joint *s = solved(seed + 20, ids, &t);
    if (!t)
        return -1;
    long d = -1;
    uint32_t n = s ? joint_npairs(s) : 0;
    double *a = malloc(((size_t)n + 1) * sizeof *a), *b = malloc(((size_t)n + 1) * sizeof *b);
    if (s && a && b) {
        s->p.conf_wide_skip = 0;
        int rc = joint_call_shares(s, a);
        s->p.conf_wide_skip = 1;
        if (rc == PB_OK && joint_call_shares(s, b) == PB_OK) {
            d = 0;
            for (uint32_t i = 0; i < n; i++)
                d += !same_bits(a[i], b[i]);
        }
    }
    free(a);
    free(b);
    done(s, t);
    return d;
}

TEST(wide_skip_gives_the_same_shares)
{
    for (int seed = 1; seed <= 6; seed++)
        for (int ids = 0; ids < 2; ids++)
            CHECK_INT(wide_case(seed, ids), 0);
}

TEST(wide_skip_wrong_on_purpose_differs)
{
    int bad = 0;
    joint_conf_test_wide_wrong = 1;
    for (int seed = 1; seed <= 6; seed++)
        for (int ids = 0; ids < 2; ids++)
            bad += wide_case(seed, ids) != 0;
    joint_conf_test_wide_wrong = 0;
    printf("# wide chain never walked: %d of 12 cases differ\n", bad);
    CHECK(bad > 0);
}

int main(void)
{
    RUN(kept_loglik_is_the_same_bits);
    RUN(kept_loglik_without_its_check_differs);
    RUN(wide_skip_gives_the_same_shares);
    RUN(wide_skip_wrong_on_purpose_differs);
    return pbtest_exit();
}
