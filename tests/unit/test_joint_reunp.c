/* joint_reunp.c: without call ids, under loss, the re-pairing decides which
 * call keeps no return (docs/joint.md, "Which calls keep no return").
 *
 * A hand-worked link: a front end F serves 60 requests from X, one every
 * 1 ms.  Even requests make one call to a leaf C, odd ones four calls in a
 * row; each call leaves 0.1 ms after the input before it, C answers 1 ms
 * later (up to a factor exp(+-0.15)), and F answers 0.1 ms after its last
 * return.  So an even request lasts about 1.2 ms and an odd one about 4.5
 * ms: F answers X far out of arrival order (request 2k answers before
 * 2k - 1), and first in, first out pairs half of X>F wrong; the
 * re-pairing gets them right from the delays.  No call ids.  In request
 * LOSTR (odd, in the middle of the link) F's answer to X is lost.
 *
 * By hand: the alignment's in-order model of X>F's durations sees one
 * call too many and leaves one call without a return, but which one it
 * leaves is decided by durations that do not follow arrival order; every
 * call the re-pairing must pair then takes a return: the call of LOSTR,
 * which really lost its return, takes the return of a later odd request
 * at its latest possible end, and that one the next (a shift along the
 * odd requests).  The truth: LOSTR's call is the one without a return,
 * every other X>F pair right.  With reunp the call of LOSTR is the one
 * without a return and every X>F pair is right; the same trace without the
 * loss is paired the same with and without reunp (nothing runs: no half
 * pair). */
#include "pbtest.h"
#include "joint_int.h"
#include "joint_test.h"

#include <math.h>
#include <stdlib.h>

#define US(x) ((pb_ns)((x) * 1000.0))
#define NR 60    /* requests */
#define LOSTR 31 /* the request whose answer to X is lost */

static double jit(int k)
{
    double u = 0.618034 * k - floor(0.618034 * k) - 0.5;
    return exp(0.3 * u);
}

/* ids of request r's call from X and of its answer (0: lost) */
static uint64_t call_of[NR], ret_of[NR];

static pb_trace *make(int lose)
{
    pb_trace *t;
    if (pb_trace_new(&t) != PB_OK)
        return NULL;
    next_id = 1;
    int k = 0;
    for (int r = 0; r < NR; r++) {
        pb_ns now = US(3000.0 * r);
        call_of[r] = next_id;
        msg(t, now, "X", "F", PB_TYPE_CALL, PB_ID_NONE);
        for (int c = 0; c < (r % 2 ? 4 : 1); c++) {
            now += US(100.0 * jit(k++));
            msg(t, now, "F", "C", PB_TYPE_CALL, PB_ID_NONE);
            now += US(1000.0 * jit(k++));
            msg(t, now, "C", "F", PB_TYPE_RETURN, PB_ID_NONE);
        }
        now += US(100.0 * jit(k++));
        ret_of[r] = 0;
        if (lose && r == LOSTR)
            continue;
        ret_of[r] = next_id;
        msg(t, now, "F", "X", PB_TYPE_RETURN, PB_ID_NONE);
    }
    pb_trace_sort(t);
    return t;
}

static joint *solve(const pb_trace_view *v, int reunp)
{
    joint_params p = defaults();
    p.reunp = reunp;
    p.conf_selfcal = 0;
    joint *s = NULL;
    pb_error err;
    if (joint_init(&s, v, &p, &err) != PB_OK) {
        printf("FAIL joint_init: %s\n", err.msg);
        return NULL;
    }
    return s;
}

/* X>F pairs that are not the truth's; *half: the request whose call has
 * no return in s (-1: none, -2: more than one) */
static int wrong_pairs(const joint *s, const pb_trace_view *v, int *half)
{
    int wrong = 0;
    *half = -1;
    for (uint32_t i = 0; i < joint_npairs(s); i++) {
        uint32_t c = joint_pair_call(s, i), r = joint_pair_return(s, i);
        if (c == JOINT_NONE)
            continue;
        int q = -1;
        for (int x = 0; x < NR && q < 0; x++)
            if (v->msgs[c].id == call_of[x])
                q = x;
        if (q < 0)
            continue; /* a call of F to C */
        if (r == JOINT_NONE)
            *half = *half == -1 ? q : -2;
        else
            wrong += v->msgs[r].id != ret_of[q];
    }
    return wrong;
}

TEST(lost_return_in_a_link_out_of_arrival_order)
{
    pb_trace *t = make(1);
    CHECK(t != NULL);
    if (!t)
        return;
    pb_trace_view v = pb_trace_view_of(t);
    joint *s0 = solve(&v, 0), *s1 = solve(&v, 1);
    CHECK(s0 != NULL && s1 != NULL);
    if (s0 && s1) {
        int h0, h1;
        int w0 = wrong_pairs(s0, &v, &h0), w1 = wrong_pairs(s1, &v, &h1);
        printf("# without reunp: %d X>F pairs wrong, request %d left without a return; "
               "with: %d, request %d\n", w0, h0, w1, h1);
        /* the shift without it (by hand above) */
        CHECK(h0 != LOSTR);
        CHECK(w0 > 0);
        /* with it: the truth */
        CHECK_INT(h1, LOSTR);
        CHECK_INT(w1, 0);
    }
    joint_close(s0);
    joint_close(s1);
    pb_trace_close(t);
}

TEST(without_loss_nothing_changes)
{
    pb_trace *t = make(0);
    CHECK(t != NULL);
    if (!t)
        return;
    pb_trace_view v = pb_trace_view_of(t);
    joint *s0 = solve(&v, 0), *s1 = solve(&v, 1);
    CHECK(s0 != NULL && s1 != NULL);
    if (s0 && s1) {
        CHECK_INT(joint_test_pairs_differ(s0, s1), 0);
        int h;
        CHECK_INT(wrong_pairs(s1, &v, &h), 0);
        CHECK_INT(h, -1);
    }
    joint_close(s0);
    joint_close(s1);
    pb_trace_close(t);
}

int main(void)
{
    RUN(lost_return_in_a_link_out_of_arrival_order);
    RUN(without_loss_nothing_changes);
    return pbtest_exit();
}
