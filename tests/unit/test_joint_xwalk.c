/* joint without call ids: the top of an exchange of returns walked from a
 * record (joint_xwalk.c, docs/joint/speed.md "Speed, eighteenth wave"):
 * on random black-box traces with requests of up to 200 calls (30 % of
 * them alongside the one before, some returns lost; in nanoseconds and in
 * whole milliseconds, where returns tie), scoring every exchange's top
 * request afresh (joint_xwalk_min UINT32_MAX, a test hook) and from the
 * record for every request (joint_xwalk_min 0) or for the large ones
 * (64, the default) gives the same search: every parent and return and
 * the log-likelihood, bit for bit; and the record was used. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static size_t joint_xwalk_resumed_sum; /* swap_resume fired (resumed later) */

/* solve t afresh and from the record (xmin); differences (-1: failure);
 * *used: exchanges scored from a record */
static long compare(pb_trace *t, uint32_t xmin, size_t *used)
{
    pb_trace_view v = pb_trace_view_of(t);
    joint_params p = defaults();
    p.callids = 0;
    joint *s[2];
    joint_xwalk_min = UINT32_MAX;
    s[0] = joint_test_init(&v, p);
    joint_xwalk_min = xmin;
    s[1] = joint_test_init(&v, p);
    joint_xwalk_min = 64;
    if (!s[0] || !s[1]) {
        joint_close(s[0]);
        joint_close(s[1]);
        return -1;
    }
    long diff = joint_test_pairs_differ(s[0], s[1]);
    diff += !joint_test_ll_same(s[0], s[1]);
    CHECK(joint_xwalk_used(s[0]) == 0);
    *used += joint_xwalk_used(s[1]);
    joint_xwalk_resumed_sum += joint_xwalk_resumed(s[1]);
    joint_close(s[0]);
    joint_close(s[1]);
    return diff;
}

TEST(the_record_scores_what_a_fresh_walk_scores)
{
    size_t used[2] = {0, 0};
    int bad = 0, cases = 0;
    const uint32_t xmin[2] = {0, 64};
    for (int seed = 1; seed <= 6; seed++)
        for (int w = 0; w < 2; w++) {
            /* 5 requests of up to 200 calls 2 ms apart (they overlap);
             * every other seed in whole milliseconds */
            pb_trace *t = joint_test_seeded_trace((unsigned long)(1360 * seed + w),
                                                  seed % 2 ? 0 : 1000 * 1000, 0, 5, 2000, 200);
            CHECK(t != NULL);
            if (!t)
                break;
            long d = compare(t, xmin[w], &used[w]);
            cases++;
            if (d != 0) {
                printf("# seed %d xwalk_min %u: %ld differences\n", seed, xmin[w], d);
                bad++;
            }
            pb_trace_close(t);
        }
    joint_test_tick = 0;
    printf("# %zu exchanges scored from a record (min 0), %zu (min 64) in %d cases\n", used[0],
           used[1], cases);
    CHECK_INT(bad, 0);
    CHECK(used[0] > 100);
    CHECK(used[1] > 100);
    printf("# %zu of them resumed after their first middle step (swap_resume)\n",
           joint_xwalk_resumed_sum);
    CHECK(joint_xwalk_resumed_sum > 100);
}

/* every exchange of two calls' returns in a large request, of any two
 * links (the search's exchanges are of calls of one link, where only the
 * response's step can score differently; here the calls of C and D trade
 * returns, so every step from the earlier return on can), scored from the
 * record (swap_resume: the walk resumed at the first step that could take
 * either return; and with swap_resume 0) and by a fresh walk of the
 * request: the same number, bit for bit */
TEST(every_exchange_in_a_request_scores_as_a_fresh_walk)
{
    long bad = 0, tried = 0, finite = 0;
    size_t resumed = 0;
    for (int seed = 1; seed <= 4; seed++)
        for (int on = 0; on < 2; on++) {
            pb_trace *t = joint_test_seeded_trace((unsigned long)(1440 + seed),
                                                  seed % 2 ? 0 : 1000 * 1000, 0, 5, 2000, 200);
            CHECK(t != NULL);
            if (!t)
                break;
            pb_trace_view v = pb_trace_view_of(t);
            joint_params p = defaults();
            p.callids = 0;
            p.swap_resume = on;
            joint *s = joint_test_init(&v, p);
            CHECK(s != NULL);
            if (!s) {
                pb_trace_close(t);
                break;
            }
            joint_xwalk_drop(s, NULL, 0);
            for (uint32_t q = 0; q < s->npairs; q++) {
                const uint32_t n = s->kids[q].n, *k = s->kids[q].a;
                if (n < joint_xwalk_min)
                    continue;
                for (uint32_t i = 0; i < n; i++)
                    for (uint32_t j = i + 1; j < n && j <= i + 12; j++) {
                        uint32_t a = k[i], b = k[j];
                        if (s->pr[a].ret == JOINT_NONE || s->pr[b].ret == JOINT_NONE)
                            continue;
                        double x = 0;
                        int done = 0;
                        joint_swap_ret(s, a, b);
                        int rc = joint_xwalk_top(s, q, a, b, &x, &done);
                        double f = joint_req_ll(s, q);
                        joint_swap_ret(s, a, b);
                        CHECK_INT(rc, PB_OK);
                        if (!done)
                            continue;
                        tried++;
                        if (x == -INFINITY) /* a call outside q (h136's test) */
                            continue;
                        finite++;
                        bad += memcmp(&x, &f, sizeof x) != 0;
                    }
            }
            joint_xwalk_drop(s, NULL, 0);
            resumed += joint_xwalk_resumed(s);
            joint_close(s);
            pb_trace_close(t);
        }
    joint_test_tick = 0;
    printf("# %ld exchanges tried, %ld scored, %ld differ; %zu resumed late\n", tried, finite,
           bad, resumed);
    CHECK(finite > 1000);
    CHECK(resumed > 100);
    CHECK_INT(bad, 0);
}

int main(void)
{
    RUN(the_record_scores_what_a_fresh_walk_scores);
    RUN(every_exchange_in_a_request_scores_as_a_fresh_walk);
    return pbtest_exit();
}
