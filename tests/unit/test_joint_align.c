/* joint_align_link: pairing calls and returns without call ids when
 * messages were lost (docs/joint/shapes.md "Robustness").  Hand-worked links
 * where first in, first out goes wrong and the in-order alignment is
 * right, and links without loss where the two agree. */
#include "pbtest.h"
#include "joint_align.h"
#include "pb_error.h"

#include <stdlib.h>

#define MS(x) ((pb_ns)((x) * 1000000.0))
#define NR 40

typedef struct link {
    pb_ns t[2 * NR];
    uint32_t msg[2 * NR];
    unsigned char call[2 * NR];
    size_t n;
} link;

/* Request k (k = 0..NR-1): call message 2k at `start(k)`, return message
 * 2k+1 `dur(k)` later; those in lost[] (0-terminated list of message
 * numbers + 1) are left out.  Events sorted by time. */
static void make(link *l, double gap, double (*dur)(int), const int *lost)
{
    struct { pb_ns t; uint32_t m; unsigned char c; } ev[2 * NR];
    size_t n = 0;
    for (int k = 0; k < NR; k++)
        for (int c = 0; c < 2; c++) {
            uint32_t m = (uint32_t)(2 * k + c);
            int gone = 0;
            for (const int *x = lost; *x; x++)
                gone |= *x == (int)m + 1;
            if (gone)
                continue;
            ev[n].t = MS(k * gap + (c ? dur(k) : 0));
            ev[n].m = m;
            ev[n].c = (unsigned char)!c;
            n++;
        }
    /* insertion sort by time (then message) */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && (ev[j].t < ev[j - 1].t ||
                                     (ev[j].t == ev[j - 1].t && ev[j].m < ev[j - 1].m)); j--) {
            __typeof__(ev[0]) x = ev[j];
            ev[j] = ev[j - 1];
            ev[j - 1] = x;
        }
    for (size_t i = 0; i < n; i++) {
        l->t[i] = ev[i].t;
        l->msg[i] = ev[i].m;
        l->call[i] = ev[i].c;
    }
    l->n = n;
}

/* durations about 3 ms, a little different each time */
static double dur3(int k) { return 3.0 + 0.1 * (k % 5); }
/* durations about 25 ms: with a gap of 10 ms, three requests overlap */
static double dur25(int k) { return 25.0 + 0.5 * (k % 3); }
/* 4 ms and 13 ms in turn: every odd request overlaps the next one */
static double dur_alt(int k) { return k % 2 ? 13.0 + 0.1 * (k % 3) : 4.0 + 0.1 * (k % 3); }

/* pair of each return message (its call's message), or -1 */
static void align(const link *l, int *call_of, joint_align_stats *st)
{
    uint64_t pairs[2 * NR];
    size_t np = 0;
    for (int m = 0; m < 2 * NR; m++)
        call_of[m] = -1;
    CHECK_INT(joint_align_link(l->t, l->msg, l->call, l->n, MS(10), pairs, &np, st), PB_OK);
    for (size_t i = 0; i < np; i++)
        call_of[(uint32_t)pairs[i]] = (int)(pairs[i] >> 32);
}

TEST(no_loss_is_first_in_first_out)
{
    static const int none[] = {0};
    link l;
    int call_of[2 * NR];
    joint_align_stats st = {0};
    /* one at a time, and three in flight on the link */
    make(&l, 10, dur3, none);
    align(&l, call_of, &st);
    for (int k = 0; k < NR; k++)
        CHECK_INT(call_of[2 * k + 1], 2 * k);
    make(&l, 10, dur25, none);
    align(&l, call_of, &st);
    for (int k = 0; k < NR; k++)
        CHECK_INT(call_of[2 * k + 1], 2 * k);
    CHECK_INT(st.skipped, 0);
    CHECK_INT(st.links, 2);
    CHECK_INT(st.fifo_kept, 2); /* as many calls as returns */
}

TEST(lost_return_does_not_shift)
{
    /* the return of request 5 (message 11) lost: first in, first out
     * would pair request 6's return with request 5's call, and so on to
     * the end; the alignment leaves call 10 alone */
    static const int lost[] = {12, 0};
    link l;
    int call_of[2 * NR];
    joint_align_stats st = {0};
    make(&l, 10, dur3, lost);
    align(&l, call_of, &st);
    for (int k = 0; k < NR; k++)
        if (k != 5)
            CHECK_INT(call_of[2 * k + 1], 2 * k);
    CHECK_INT(st.skipped, 1);
    CHECK_INT(st.fifo_kept, 0);
    /* the lost return of a short request (4) where odd requests (13 ms)
     * overlap the next */
    static const int lost4[] = {10, 0};
    make(&l, 10, dur_alt, lost4);
    align(&l, call_of, &st);
    for (int k = 0; k < NR; k++)
        if (k != 4)
            CHECK_INT(call_of[2 * k + 1], 2 * k);
}

TEST(lost_call_does_not_shift)
{
    /* the call of request 7 (message 14) lost, where it overlaps request
     * 8: first in, first out gives its return request 8's call; the
     * alignment leaves the return alone */
    static const int lost[] = {15, 0};
    link l;
    int call_of[2 * NR];
    joint_align_stats st = {0};
    make(&l, 10, dur_alt, lost);
    align(&l, call_of, &st);
    for (int k = 0; k < NR; k++)
        CHECK_INT(call_of[2 * k + 1], k == 7 ? -1 : 2 * k);
    CHECK_INT(st.skipped, 1);
}

TEST(several_losses)
{
    /* returns of 3 and 20 and the call of 30 lost, and request 12 lost
     * whole: every other request keeps its own pair.  (Where durations
     * have two modes and requests overlap, a lost return can leave two
     * alignments about as likely; docs/joint/shapes.md "Robustness".) */
    static const int lost[] = {8, 42, 61, 25, 26, 0};
    link l;
    int call_of[2 * NR];
    joint_align_stats st = {0};
    make(&l, 10, dur3, lost);
    align(&l, call_of, &st);
    for (int k = 0; k < NR; k++)
        if (k != 3 && k != 20 && k != 30 && k != 12)
            CHECK_INT(call_of[2 * k + 1], 2 * k);
    CHECK_INT(call_of[2 * 30 + 1], -1);
    CHECK_INT(st.skipped, 3);
}

TEST(only_calls_or_only_returns)
{
    link l;
    l.n = 3;
    for (size_t i = 0; i < 3; i++) {
        l.t[i] = MS(i);
        l.msg[i] = (uint32_t)i;
        l.call[i] = 1;
    }
    uint64_t pairs[4];
    size_t np = 0;
    joint_align_stats st = {0};
    CHECK_INT(joint_align_link(l.t, l.msg, l.call, l.n, 0, pairs, &np, &st), PB_OK);
    CHECK_INT(np, 0);
    CHECK_INT(st.skipped, 3);
}

/* A link with one lost return (request 10's) and, later, one lost call
 * (request 20's): as many calls as returns, so first in, first out pairs
 * request k's return with request k-1's call for k = 11..20.  The caller
 * serves request k in [10k - 1, 10k + 5] ms and nothing else, so it is
 * idle from 10k + 5 ms: each of those ten shifted pairs spans an idle
 * start (request k-1's at 10(k-1) + 5 ms), the true pairs none.  By hand:
 * first in, first out costs ten crossings (80 nats at align_nest=8) plus
 * its durations; leaving call 10 and return 20 unpaired costs 2 x 10
 * nats, and every other pair is then a 3.0-3.4 ms duration like the
 * rest: the alignment is kept, and every pair is right. */
TEST(nesting_test_cuts_equal_losses)
{
    static const int lost[] = {22, 41, 0}; /* return message 21, call message 40 */
    link l;
    int call_of[2 * NR];
    make(&l, 10, dur3, lost);
    pb_ns idle[NR];
    for (int k = 0; k < NR; k++)
        idle[k] = MS(10 * k + 5);
    /* without the test: first in, first out, shifted from request 11 to 20 */
    joint_align_stats st = {0};
    align(&l, call_of, &st);
    CHECK_INT(st.fifo_kept, 1);
    for (int k = 11; k <= 20; k++)
        CHECK_INT(call_of[2 * k + 1], 2 * (k - 1));
    /* with it */
    uint64_t pairs[2 * NR];
    size_t np = 0;
    joint_align_nest nest = {l.t, idle, NR, 8.0, 0};
    joint_align_info info;
    joint_align_stats st2 = {0};
    CHECK_INT(joint_align_link_nest(l.t, l.msg, l.call, l.n, MS(10), &nest, pairs, &np, &st2,
                                    &info),
              PB_OK);
    for (int m = 0; m < 2 * NR; m++)
        call_of[m] = -1;
    for (size_t i = 0; i < np; i++)
        call_of[(uint32_t)pairs[i]] = (int)(pairs[i] >> 32);
    CHECK_INT(info.calls, NR - 1);
    CHECK_INT(info.returns, NR - 1);
    CHECK_INT(info.cross_first, 10);
    CHECK_INT(info.cross_nest, 0);
    CHECK_INT(info.cross_kept, 0);
    CHECK_INT(info.realigned, 1);
    CHECK_INT(st2.nest_tested, 1);
    CHECK_INT(st2.nest_realigned, 1);
    CHECK_INT(np, NR - 2);
    for (int k = 0; k < NR; k++)
        if (k != 10 && k != 20)
            CHECK_INT(call_of[2 * k + 1], 2 * k);
    CHECK_INT(call_of[41], -1); /* request 20's return: its call was lost */
    CHECK(info.cost_nest < info.cost_first);
    /* no loss: no pair spans an idle start, and the result is first in,
     * first out, the same as without the test */
    static const int none[] = {0};
    make(&l, 10, dur3, none);
    np = 0;
    nest.ta = l.t;
    CHECK_INT(joint_align_link_nest(l.t, l.msg, l.call, l.n, MS(10), &nest, pairs, &np, &st2,
                                    &info),
              PB_OK);
    CHECK_INT(info.cross_first, 0);
    CHECK_INT(info.realigned, 0);
    CHECK_INT(np, NR);
    for (size_t i = 0; i < np; i++)
        CHECK_INT((int)(pairs[i] >> 32) + 1, (int)(uint32_t)pairs[i]);
}

int main(void)
{
    RUN(nesting_test_cuts_equal_losses);
    RUN(no_loss_is_first_in_first_out);
    RUN(lost_return_does_not_shift);
    RUN(lost_call_does_not_shift);
    RUN(several_losses);
    RUN(only_calls_or_only_returns);
    return pbtest_exit();
}
