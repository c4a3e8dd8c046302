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

void pb_tick_detect(const pb_msg *msgs, size_t n, pb_tick_info *out)
{
    out->n = n;
    out->tied = 0;
    out->coarse_ties = 0;
    out->tick = n ? PB_NS_PER_SEC : 0;
    for (size_t i = 0; i < n && out->tick > 1; i++) {
        if (msgs[i].ts % out->tick)
            out->tick = pow10_dividing(msgs[i].ts, out->tick);
        pb_ns r = msgs[i].recv_ts;
        if (r != PB_TS_NONE && r % out->tick)
            out->tick = pow10_dividing(r, out->tick);
    }
    for (size_t i = 0; i < n; i++)
        if ((i > 0 && msgs[i - 1].ts == msgs[i].ts) ||
            (i + 1 < n && msgs[i + 1].ts == msgs[i].ts))
            out->tied++;
    out->coarse_ties = out->tick > 1 &&
                       (double)out->tied > PB_TICK_TIED_WARN * (double)n;
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
