#include "pb_tick.h"

#include <stdio.h>

/* largest power of ten <= 1 s dividing t (t != 0) */
static pb_ns pow10_dividing(pb_ns t, pb_ns limit)
{
    pb_ns p = 1;
    while (p < limit && t % (p * 10) == 0)
        p *= 10;
    return p;
}

void pb_tick_acc_init(pb_tick_acc *a)
{
    a->info.n = 0;
    a->info.tied = 0;
    a->info.coarse_ties = 0;
    a->info.tick = PB_NS_PER_SEC;
    a->prev_ts = 0;
    a->prev_tied = 0;
}

void pb_tick_acc_add(pb_tick_acc *a, const pb_msg *m)
{
    pb_tick_info *t = &a->info;
    if (t->tick > 1 && m->ts % t->tick)
        t->tick = pow10_dividing(m->ts, t->tick);
    if (t->tick > 1 && m->recv_ts != PB_TS_NONE && m->recv_ts % t->tick)
        t->tick = pow10_dividing(m->recv_ts, t->tick);
    /* a row is tied when its ts equals the row before's or after's: count
     * both rows of an equal neighbour pair, each once */
    int tied = 0;
    if (t->n > 0 && m->ts == a->prev_ts) {
        t->tied += 1 + !a->prev_tied;
        tied = 1;
    }
    a->prev_ts = m->ts;
    a->prev_tied = tied;
    t->n++;
}

void pb_tick_acc_result(const pb_tick_acc *a, pb_tick_info *out)
{
    *out = a->info;
    if (!out->n)
        out->tick = 0;
    out->coarse_ties = out->tick > 1 &&
                       (double)out->tied > PB_TICK_TIED_WARN * (double)out->n;
}

void pb_tick_detect(const pb_msg *msgs, size_t n, pb_tick_info *out)
{
    pb_tick_acc a;
    pb_tick_acc_init(&a);
    for (size_t i = 0; i < n; i++)
        pb_tick_acc_add(&a, &msgs[i]);
    pb_tick_acc_result(&a, out);
}

char *pb_tick_format(pb_ns tick, char *buf)
{
    static const struct {
        pb_ns unit;
        const char *name;
    } units[] = {{PB_NS_PER_SEC, "s"}, {1000000, "ms"}, {1000, "us"}, {1, "ns"}};
    if (tick <= 0) {
        snprintf(buf, PB_TICK_BUF, "0");
        return buf;
    }
    for (size_t k = 0; k < 4; k++)
        if (tick % units[k].unit == 0) {
            snprintf(buf, PB_TICK_BUF, "%lld%s", (long long)(tick / units[k].unit),
                     units[k].name);
            return buf;
        }
    return buf;
}
