/* joint_idle_starts: the moments a service served no request, for the
 * nesting test of the pairing without call ids (docs/joint/shapes.md
 * "Robustness").  Hand-worked services: without loss an idle start at every
 * answer that leaves no call open; a lost answer must not hide the later
 * idle starts (a call open far longer than the service's requests is taken
 * as one whose answer was lost); a lost call makes no idle start. */
#include "pbtest.h"
#include "joint_int.h"

#include <stdlib.h>

#define MS(x) ((pb_ns)((x) * 1000000.0))
#define NQ 8

/* node 0 (the client) calls node 1 at 20k ms, k = 0..NQ-1; node 1 answers
 * 10 ms later.  Message 2k is request k's call, 2k+1 its answer; the ones
 * in lost[] (message number + 1, 0-terminated) are left out.  Two more
 * requests overlap at the end: calls at 200 and 205 ms, answers at 210 and
 * 220 ms (one idle start, at 220 ms). */
static size_t make(pb_msg *m, const int *lost)
{
    size_t n = 0;
    for (int x = 0; x < 2 * NQ + 4; x++) {
        int skip = 0;
        for (const int *l = lost; *l; l++)
            skip |= *l == x + 1;
        if (skip)
            continue;
        static const double tail[4] = {200, 210, 205, 220};
        int call = x % 2 == 0;
        double t = x < 2 * NQ ? 20.0 * (x / 2) + (call ? 0 : 10) : tail[x - 2 * NQ];
        m[n] = (pb_msg){0};
        m[n].id = (uint64_t)x;
        m[n].ts = m[n].recv_ts = MS(t);
        m[n].callid = PB_ID_NONE;
        m[n].src = call ? 0 : 1;
        m[n].dst = call ? 1 : 0;
        m[n].type = call ? PB_TYPE_CALL : PB_TYPE_RETURN;
        n++;
    }
    return n;
}

/* run joint_idle_starts on the trace without the messages in lost[] and
 * compare node 1's idle starts with want[0..nw) (ms) */
static void check(const int *lost, const double *want, size_t nw)
{
    pb_msg m[2 * NQ + 4];
    size_t n = make(m, lost);
    pb_ns *idle = NULL;
    size_t *off = NULL;
    CHECK_INT(joint_idle_starts(m, n, 2, &idle, &off), PB_OK);
    CHECK_INT(off[0], 0);
    CHECK_INT(off[1], 0); /* the client receives no call: never idle */
    CHECK_INT(off[2] - off[1], nw);
    for (size_t i = 0; i < nw && i < off[2] - off[1]; i++)
        CHECK_INT(idle[off[1] + i], MS(want[i]));
    free(idle);
    free(off);
}

TEST(no_loss_every_answer_that_leaves_no_call_open)
{
    static const int none[] = {0};
    static const double want[] = {10, 30, 50, 70, 90, 110, 130, 150, 220};
    check(none, want, sizeof want / sizeof *want);
}

/* request 1's answer (message 3) lost: the count stays one too high from
 * 20 ms on, so a plain count sees no idle start after 10 ms.  A call is
 * left open at the end, so the service shows a lost message.  Its
 * last-in-first-out durations: 10 ms (requests 0, 2..7), 5 ms (205 -> 210)
 * and 20 ms (200 -> 220); their 90th percentile (the 9th of 9, sorted) is
 * 20 ms, so a call open longer than 4 x 20 = 80 ms is taken as unanswered:
 * request 1's call (20 ms) is dropped before the answer at 110 ms, and the
 * idle starts come back from there */
TEST(lost_answer_does_not_hide_later_idle_starts)
{
    static const int lost[] = {4, 0};
    static const double want[] = {10, 110, 130, 150, 220};
    check(lost, want, sizeof want / sizeof *want);
}

/* request 1's call (message 2) lost: its answer at 30 ms finds no open
 * call (the count stays at zero, no idle start) */
TEST(lost_call_makes_no_idle_start)
{
    static const int lost[] = {3, 0};
    static const double want[] = {10, 50, 70, 90, 110, 130, 150, 220};
    check(lost, want, sizeof want / sizeof *want);
}

/* a lost call makes the count one too low while its request is open: a
 * second request answered meanwhile leaves the count at zero, an idle start
 * that is none.  Its answer then finds no open call: the idle starts of
 * the service's 90th-percentile duration before it are dropped.  Node 1:
 * the lost call at 300 ms (answer 310 ms), another request 302 -> 305 ms
 * (no idle start at 305 ms) */
TEST(answer_without_call_drops_the_idle_starts_it_spans)
{
    pb_msg m[2 * NQ + 8];
    static const int none[] = {0};
    size_t n = make(m, none);
    static const struct { double t; int call; } extra[] = {{302, 1}, {305, 0}, {310, 0}};
    for (size_t i = 0; i < 3; i++) {
        m[n] = (pb_msg){0};
        m[n].id = 100 + i;
        m[n].ts = m[n].recv_ts = MS(extra[i].t);
        m[n].callid = PB_ID_NONE;
        m[n].src = extra[i].call ? 0 : 1;
        m[n].dst = extra[i].call ? 1 : 0;
        m[n].type = extra[i].call ? PB_TYPE_CALL : PB_TYPE_RETURN;
        n++;
    }
    pb_ns *idle = NULL;
    size_t *off = NULL;
    CHECK_INT(joint_idle_starts(m, n, 2, &idle, &off), PB_OK);
    /* durations 10 ms x 8, 5, 20 and 3 ms: the 90th percentile (the 10th
     * of 11, sorted) is 10 ms, so the idle starts after 300 ms are dropped */
    static const double want[] = {10, 30, 50, 70, 90, 110, 130, 150, 220};
    size_t nw = sizeof want / sizeof *want;
    CHECK_INT(off[2] - off[1], nw);
    for (size_t i = 0; i < nw && i < off[2] - off[1]; i++)
        CHECK_INT(idle[off[1] + i], MS(want[i]));
    free(idle);
    free(off);
}

/* no message lost, one request far longer than the rest (0 -> 300 ms;
 * twelve short ones, 20k + 5 -> 20k + 15 ms, inside it; the 90th
 * percentile of the durations is 10 ms): no answer misses its call and no
 * call is left open, so the plain count holds and the long request is
 * never taken as unanswered (past 40 ms): one idle start, at 300 ms */
TEST(no_sign_of_loss_keeps_the_plain_count)
{
    pb_msg m[2 * 12 + 2];
    size_t n = 0;
    for (int x = 0; x < 2 * 12 + 2; x++) {
        int call = x % 2 == 0;
        double t = x < 2 ? (call ? 0 : 300) : 20.0 * (x / 2 - 1) + (call ? 5 : 15);
        m[n] = (pb_msg){0};
        m[n].id = (uint64_t)x;
        m[n].ts = m[n].recv_ts = MS(t);
        m[n].callid = PB_ID_NONE;
        m[n].src = call ? 0 : 1;
        m[n].dst = call ? 1 : 0;
        m[n].type = call ? PB_TYPE_CALL : PB_TYPE_RETURN;
        n++;
    }
    pb_ns *idle = NULL;
    size_t *off = NULL;
    CHECK_INT(joint_idle_starts(m, n, 2, &idle, &off), PB_OK);
    CHECK_INT(off[2] - off[1], 1);
    if (off[2] - off[1] == 1)
        CHECK_INT(idle[off[1]], MS(300));
    free(idle);
    free(off);
}

int main(void)
{
    RUN(no_loss_every_answer_that_leaves_no_call_open);
    RUN(lost_answer_does_not_hide_later_idle_starts);
    RUN(lost_call_makes_no_idle_start);
    RUN(answer_without_call_drops_the_idle_starts_it_spans);
    RUN(no_sign_of_loss_keeps_the_plain_count);
    return pbtest_exit();
}
