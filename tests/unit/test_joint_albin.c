/* The alignment's duration bins by table (joint_albin.h, joint_align.c's
 * al_bin; docs/joint/loss_late.md "The loss rule's cost: where a lossy
 * input pays (h241)"): the table's bin of every duration is log10's,
 * floor(log10(d) / 0.05) clipped to the 280 bins (d < 1 in bin 0), so the
 * alignment is the same bit for bit.  Checked on every duration up to
 * 2 * 10^6 ns, three either side of every edge, the clipped ends, and two
 * million durations drawn log-uniform up to 10^15 ns; and on a
 * hand-worked lossy link: the dynamic program's pairs (the table walked
 * cell by cell) are the ones worked by hand. */
#include "pbtest.h"
#include "joint_align.h"
#include "joint_albin.h"
#include "pb_error.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* the definition the table replaces */
static int by_log10(pb_ns d)
{
    double x = log10(d < 1 ? 1.0 : (double)d) / 0.05;
    if (!(x > 0))
        return 0;
    return x >= JOINT_ALIGN_NB - 1 ? JOINT_ALIGN_NB - 1 : (int)x;
}

TEST(every_small_duration)
{
    int bad = 0;
    for (pb_ns d = -5; d <= 2000000; d++)
        bad += joint_align_bin(d) != by_log10(d);
    CHECK_INT(bad, 0);
}

TEST(either_side_of_every_edge)
{
    int bad = 0;
    for (int b = 0; b < JOINT_ALIGN_NB - 1; b++) {
        if (b > 0)
            CHECK(JOINT_ALBIN_EDGE[b] >= JOINT_ALBIN_EDGE[b - 1]);
        for (pb_ns k = -3; k <= 3; k++)
            bad += joint_align_bin(JOINT_ALBIN_EDGE[b] + k) != by_log10(JOINT_ALBIN_EDGE[b] + k);
    }
    CHECK_INT(bad, 0);
    CHECK_INT(joint_align_bin(INT64_MIN), 0);
    CHECK_INT(joint_align_bin(0), 0);
    CHECK_INT(joint_align_bin(1), 0);
    CHECK_INT(joint_align_bin((pb_ns)1e15), JOINT_ALIGN_NB - 1);
    CHECK_INT(joint_align_bin(INT64_MAX), JOINT_ALIGN_NB - 1);
}

TEST(random_durations)
{
    uint64_t x = 88172645463325252ULL; /* xorshift64, fixed seed */
    int bad = 0;
    for (int i = 0; i < 2000000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        double u = (double)(x >> 11) / 9007199254740992.0;
        pb_ns d = (pb_ns)exp(u * 34.5); /* up to 10^15 */
        bad += joint_align_bin(d) != by_log10(d);
    }
    CHECK_INT(bad, 0);
}

/* Hand-worked: ten requests 10 ms apart, each 3 ms long, on one link; the
 * 5th request's call (message 8) was lost, so its return (message 9) has
 * no call.  First in, first out would pair every later call with the
 * return before its own; the alignment (its window walked by the table)
 * pairs each call with its own return and leaves message 9 alone. */
TEST(lost_call_in_the_middle)
{
    pb_ns t[20];
    uint32_t msg[20];
    unsigned char call[20];
    size_t n = 0;
    for (int k = 0; k < 10; k++)
        for (int c = 0; c < 2; c++) {
            if (k == 4 && c == 0)
                continue;
            t[n] = (pb_ns)(k * 10000000 + (c ? 3000000 : 0));
            msg[n] = (uint32_t)(2 * k + c);
            call[n] = (unsigned char)!c;
            n++;
        }
    uint64_t pairs[20];
    size_t np = 0;
    joint_align_stats st = {0};
    CHECK_INT(joint_align_link(t, msg, call, n, 10000000, pairs, &np, &st), PB_OK);
    CHECK_INT(np, 9);
    for (size_t i = 0; i < np; i++) {
        CHECK((pairs[i] >> 32) % 2 == 0);
        CHECK_INT((int)(pairs[i] >> 32) + 1, (int)(uint32_t)pairs[i]);
    }
}

int main(void)
{
    RUN(every_small_duration);
    RUN(either_side_of_every_edge);
    RUN(random_durations);
    RUN(lost_call_in_the_middle);
    return pbtest_exit();
}
