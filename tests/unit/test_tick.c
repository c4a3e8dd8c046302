/* The timestamp tick (core/pb_tick): resolution and ties worked by hand. */
#include "pbtest.h"
#include "pb_tick.h"

static pb_msg M(pb_ns ts, pb_ns recv)
{
    pb_msg m;
    memset(&m, 0, sizeof m);
    m.ts = ts;
    m.recv_ts = recv;
    return m;
}

TEST(tick_by_hand)
{
    /* every ts a whole millisecond, one recv_ts at 10 us: tick 10 us */
    pb_msg a[4] = {M(1000000, PB_TS_NONE), M(2000000, 2010000),
                   M(2000000, PB_TS_NONE), M(5000000, 5000000)};
    pb_tick_info t;
    pb_tick_detect(a, 4, &t);
    CHECK_INT(t.tick, 10000);
    CHECK_INT(t.tied, 2); /* rows 2 and 3 */
    CHECK_INT(t.coarse_ties, 1); /* 50 % > 1 % at a tick above 1 ns */
    char b[PB_TICK_BUF];
    CHECK(!strcmp(pb_tick_format(t.tick, b), "10us"));
    CHECK(!strcmp(pb_tick_format(1000000, b), "1ms"));
    CHECK(!strcmp(pb_tick_format(PB_NS_PER_SEC, b), "1s"));
    CHECK(!strcmp(pb_tick_format(1, b), "1ns"));
    /* nanosecond stamps: ties do not count as coarse */
    a[1].recv_ts = 2000000 + 7;
    pb_tick_detect(a, 4, &t);
    CHECK_INT(t.tick, 1);
    CHECK_INT(t.coarse_ties, 0);
    /* whole seconds (and zero, and negative times) */
    pb_msg s[3] = {M(0, PB_TS_NONE), M(-3 * PB_NS_PER_SEC, PB_TS_NONE),
                   M(40 * PB_NS_PER_SEC, 41 * PB_NS_PER_SEC)};
    pb_tick_detect(s, 3, &t);
    CHECK_INT(t.tick, PB_NS_PER_SEC);
    CHECK_INT(t.tied, 0);
    pb_tick_detect(s, 0, &t);
    CHECK_INT(t.tick, 0);
    CHECK_INT(t.tied, 0);
    CHECK_INT(t.coarse_ties, 0);
}

TEST(ties_threshold)
{
    /* 200 rows at distinct ms, then 1 tie (2 rows of 202 = 0.99 %): quiet;
     * a second tie (4 of 204 = 1.96 %): flagged */
    pb_msg m[204];
    for (int i = 0; i < 204; i++)
        m[i] = M((pb_ns)i * 1000000, PB_TS_NONE);
    m[201].ts = m[200].ts;
    pb_tick_info t;
    pb_tick_detect(m, 202, &t);
    CHECK_INT(t.tied, 2);
    CHECK_INT(t.coarse_ties, 0);
    m[203].ts = m[202].ts;
    pb_tick_detect(m, 204, &t);
    CHECK_INT(t.tied, 4);
    CHECK_INT(t.coarse_ties, 1);
}

/* The streaming accumulator (sliding-window nesting reads the trace once
 * and cannot look at the next row) against the two-loop definition, on
 * runs of equal stamps of every length, with the result read part way. */
static void naive(const pb_msg *m, size_t n, size_t *tied)
{
    *tied = 0;
    for (size_t i = 0; i < n; i++)
        if ((i > 0 && m[i - 1].ts == m[i].ts) || (i + 1 < n && m[i + 1].ts == m[i].ts))
            (*tied)++;
}

TEST(tick_streaming)
{
    pb_msg m[300];
    unsigned x = 12345;
    pb_ns ts = 5000;
    for (int i = 0; i < 300; i++) {
        x = x * 1103515245u + 12345u;
        if ((x >> 16) % 3) /* two in three rows move on; runs of 1, 2, 3, ... */
            ts += 1000 * (pb_ns)(1 + (x >> 20) % 5);
        m[i] = M(ts, PB_TS_NONE);
    }
    pb_tick_acc a;
    pb_tick_acc_init(&a);
    for (size_t n = 0; n <= 300; n++) {
        pb_tick_info t, d;
        size_t tied;
        pb_tick_acc_result(&a, &t);
        pb_tick_detect(m, n, &d);
        naive(m, n, &tied);
        CHECK_INT(t.tied, tied);
        CHECK_INT(t.tick, d.tick);
        CHECK_INT(t.coarse_ties, d.coarse_ties);
        CHECK_INT(t.n, n);
        if (n < 300)
            pb_tick_acc_add(&a, &m[n]);
    }
    pb_tick_info t;
    pb_tick_acc_result(&a, &t);
    CHECK_INT(t.tick, 1000);
    CHECK(t.tied > 50);
}

int main(void)
{
    RUN(tick_by_hand);
    RUN(ties_threshold);
    RUN(tick_streaming);
    return pbtest_exit();
}
