/* joint_uncross.c: a lost message's crossing undone (docs/joint/loss.md, "Loss
 * with call ids: crossed chains").  A hand-worked link with repeated
 * calls: a front end F serves 80 requests from X in pairs, A then B 30 us
 * later, every 10 ms; each request calls C four times in a row (each call
 * 0.1 ms after the input before it, each answered 1 ms later, up to a
 * factor exp(+-0.15)) and answers 0.1 ms after its last return.  With call
 * ids.  In pair LOSTP, A's second call message is lost (its return is
 * kept: a half pair).
 *
 * By hand: crossed at the loss (A keeps its first call and takes B's
 * second to fourth, B takes A's half pair and A's third and fourth), every
 * delay at the crossing is 30 us off a 0.1 ms one: B's second call 0.13 ms
 * after A's first return, A's response 0.07 ms after B's last return, B's
 * response 0.13 ms after A's last return; all three outside the factor
 * exp(+-0.15) (0.086 to 0.116 ms) every other delay keeps, so the crossed
 * state is less likely, and the one move that undoes it is the exchange of
 * the two tails from the lost call on: 3 + 3 calls. */
#include "pbtest.h"
#include "joint_int.h"
#include "joint_test.h"

#include <math.h>
#include <stdlib.h>

#define US(x) ((pb_ns)((x) * 1000.0))
#define NP 40    /* pairs of requests */
#define NC 4     /* calls of C per request */
#define LOSTP 20 /* the pair whose A lost its second call */

/* ids of request r's (r = 2 pair + 0 for A, 1 for B) root call and its
 * calls' call messages (0: lost) */
static uint64_t root_id[2 * NP], call_id[2 * NP][NC];

static pb_trace *make(int lose)
{
    pb_trace *t;
    if (pb_trace_new(&t) != PB_OK)
        return NULL;
    next_id = 1;
    uint64_t cid = 1;
    int k = 0;
    for (int p = 0; p < NP; p++)
        for (int side = 0; side < 2; side++) {
            int r = 2 * p + side;
            pb_ns now = US(10000.0 * p + 30.0 * side);
            uint64_t x = cid++;
            root_id[r] = next_id;
            msg(t, now, "X", "F", PB_TYPE_CALL, x);
            for (int c = 0; c < NC; c++) {
                now += US(100.0 * joint_test_jit(k++));
                uint64_t y = cid++;
                call_id[r][c] = next_id;
                if (lose && p == LOSTP && side == 0 && c == 1)
                    call_id[r][c] = 0; /* lost: no message */
                else
                    msg(t, now, "F", "C", PB_TYPE_CALL, y);
                now += US(1000.0 * joint_test_jit(k++));
                msg(t, now, "C", "F", PB_TYPE_RETURN, y);
            }
            now += US(100.0 * joint_test_jit(k++));
            msg(t, now, "F", "X", PB_TYPE_RETURN, x);
        }
    pb_trace_sort(t);
    return t;
}

/* the pair whose call (or, when its call was lost, return) message has
 * id `id` in solution s (JOINT_NONE: none) */
static uint32_t pair_of_id(const joint *s, const pb_trace_view *v, uint64_t id)
{
    for (uint32_t i = 0; i < joint_npairs(s); i++) {
        uint32_t m = joint_pair_call(s, i);
        if (m == JOINT_NONE)
            m = joint_pair_return(s, i);
        if (m != JOINT_NONE && v->msgs[m].id == id)
            return i;
    }
    return JOINT_NONE;
}

/* the half pair of the lost call: its return's id is the call's id + 1 of
 * the message order above (call, then return) */
static uint32_t half_pair(const joint *s)
{
    for (uint32_t i = 0; i < joint_npairs(s); i++)
        if (joint_pair_call(s, i) == JOINT_NONE)
            return i;
    return JOINT_NONE;
}

/* pairs of the C calls of request r (the lost one: the half pair) */
static void calls_of(const joint *s, const pb_trace_view *v, int r, uint32_t *out)
{
    for (int c = 0; c < NC; c++)
        out[c] = call_id[r][c] ? pair_of_id(s, v, call_id[r][c]) : half_pair(s);
}

/* put every call of C in its own request */
static void set_truth(joint *s, const pb_trace_view *v)
{
    for (int r = 0; r < 2 * NP; r++) {
        uint32_t q = pair_of_id(s, v, root_id[r]), c[NC];
        calls_of(s, v, r, c);
        for (int i = 0; i < NC; i++)
            CHECK(joint_set_parent(s, c[i], q) == PB_OK);
    }
}

/* how many calls of C are not in their own request */
static int wrong_calls(const joint *s, const pb_trace_view *v)
{
    int wrong = 0;
    for (int r = 0; r < 2 * NP; r++) {
        uint32_t q = pair_of_id(s, v, root_id[r]), c[NC];
        calls_of(s, v, r, c);
        for (int i = 0; i < NC; i++)
            wrong += c[i] == JOINT_NONE || joint_pair_parent(s, c[i]) != q;
    }
    return wrong;
}

static joint *solve(pb_trace *t, const pb_trace_view *v, int uncross)
{
    joint_params p = defaults();
    p.uncross = uncross;
    p.conf_selfcal = 0;
    (void)t;
    return joint_test_init(v, p);
}

/* with the move, every call in its own request (without it, one is not:
 * crossed_tails_are_exchanged_back) */
TEST(lost_call_in_the_middle_of_a_link)
{
    pb_trace *t = make(1);
    CHECK(t != NULL);
    if (!t)
        return;
    pb_trace_view v = pb_trace_view_of(t);
    joint *s = solve(t, &v, 1);
    CHECK(s != NULL);
    if (s) {
        CHECK_INT(joint_npairs(s), 2 * NP * (NC + 1));
        CHECK(half_pair(s) != JOINT_NONE);
        /* every call in its own request, the half pair in A's */
        CHECK_INT(wrong_calls(s, &v), 0);
        CHECK_INT(joint_pair_parent(s, half_pair(s)),
                  pair_of_id(s, &v, root_id[2 * LOSTP]));
        joint_close(s);
    }
    pb_trace_close(t);
}

TEST(crossed_tails_are_exchanged_back)
{
    pb_trace *t = make(1);
    CHECK(t != NULL);
    if (!t)
        return;
    pb_trace_view v = pb_trace_view_of(t);
    joint *s = solve(t, &v, 0);
    CHECK(s != NULL);
    if (!s) {
        pb_trace_close(t);
        return;
    }
    /* without the move the search leaves one call out of its request (the
     * half pair with B); from the truth, by hand: */
    CHECK_INT(wrong_calls(s, &v), 1);
    set_truth(s, &v);
    CHECK_INT(wrong_calls(s, &v), 0);
    /* cross the two chains at the loss, by hand */
    uint32_t qa = pair_of_id(s, &v, root_id[2 * LOSTP]);
    uint32_t qb = pair_of_id(s, &v, root_id[2 * LOSTP + 1]), ca[NC], cb[NC];
    calls_of(s, &v, 2 * LOSTP, ca);
    calls_of(s, &v, 2 * LOSTP + 1, cb);
    CHECK(joint_fit(s, NULL) == PB_OK);
    double before = joint_loglik(s);
    for (int c = 1; c < NC; c++) {
        CHECK(joint_set_parent(s, ca[c], qb) == PB_OK);
        CHECK(joint_set_parent(s, cb[c], qa) == PB_OK);
    }
    CHECK_INT(wrong_calls(s, &v), 2 * (NC - 1));
    /* less likely under the same model (the three delays by hand above) */
    CHECK(joint_loglik(s) < before);
    /* the move: one exchange of the two tails, 3 + 3 calls, and back to
     * the truth */
    s->p.uncross = 1;
    CHECK(joint_uncross(s) == PB_OK);
    CHECK_INT(s->uncross_exchanges, 1);
    CHECK_INT(s->uncross_moved, 2 * (NC - 1));
    CHECK(s->uncross_gain > 0);
    CHECK_INT(wrong_calls(s, &v), 0);
    joint_close(s);
    pb_trace_close(t);
}

TEST(without_loss_nothing_runs)
{
    pb_trace *t = make(0);
    CHECK(t != NULL);
    if (!t)
        return;
    pb_trace_view v = pb_trace_view_of(t);
    joint *a = solve(t, &v, 0), *b = solve(t, &v, 1);
    CHECK(a && b);
    if (a && b) {
        CHECK_INT(b->uncross_rounds, 0);
        CHECK_INT(joint_test_pairs_differ(a, b), 0);
        CHECK(joint_test_ll_same(a, b));
        CHECK_INT(wrong_calls(b, &v), 0);
    }
    joint_close(a);
    joint_close(b);
    pb_trace_close(t);
}

int main(void)
{
    RUN(lost_call_in_the_middle_of_a_link);
    RUN(crossed_tails_are_exchanged_back);
    RUN(without_loss_nothing_runs);
    return pbtest_exit();
}
