/*
 * conv_mu.c - the convolution algorithm's automatic time quantum mu
 * (docs/convolution.md "Choosing mu").
 */
#include "conv_mu.h"

#include <stdlib.h>

#include "pb_tick.h"
#include "pb_sort.h"

/* Round down to 1, 2 or 5 times a power of ten (ns); at least 1. */
static pb_ns round_125(pb_ns x)
{
    pb_ns p = 1;
    while (p <= x / 10)
        p *= 10;
    if (x >= 5 * p)
        return 5 * p;
    if (x >= 2 * p)
        return 2 * p;
    return p;
}

static int cmp_ns(const void *a, const void *b)
{
    pb_ns x = *(const pb_ns *)a, y = *(const pb_ns *)b;
    return x < y ? -1 : x > y;
}

int conv_auto_mu(const pb_trace_view *tv, pb_ns *mu, pb_strbuf *why)
{
    uint32_t nn = pb_strtab_count(tv->nodes);
    const pb_msg *m = tv->msgs;
    for (size_t i = 0; i < tv->n; i++) {
        if (m[i].src >= nn)
            nn = m[i].src + 1;
        if (m[i].dst >= nn)
            nn = m[i].dst + 1;
    }
    pb_ns *last = malloc((nn ? nn : 1) * sizeof *last);
    pb_ns *gap = malloc((tv->n ? tv->n : 1) * sizeof *gap);
    if (!last || !gap) {
        free(last);
        free(gap);
        return PB_ENOMEM;
    }
    for (uint32_t j = 0; j < nn; j++)
        last[j] = PB_TS_NONE;
    size_t ng = 0;
    pb_ns t0 = tv->n ? m[0].ts : 0, t1 = t0;
    for (size_t i = 0; i < tv->n; i++) {
        if (m[i].ts < t0)
            t0 = m[i].ts;
        if (m[i].ts > t1)
            t1 = m[i].ts;
        pb_ns a = last[m[i].src];
        if (a != PB_TS_NONE && m[i].ts >= a)
            gap[ng++] = m[i].ts - a;
        if (last[m[i].dst] == PB_TS_NONE || m[i].ts > last[m[i].dst])
            last[m[i].dst] = m[i].ts;
    }
    pb_tick_info tk;
    pb_tick_detect(m, tv->n, &tk);
    char a[PB_SECONDS_BUF], b[PB_SECONDS_BUF], tb[PB_TICK_BUF];
    int rc = PB_OK;
    if (ng == 0) {
        *mu = CONV_DEFAULT_MU;
        rc = pb_strbuf_printf(why, "no node both receives and sends, so the trace "
                                   "shows no delay to scale mu by; mu = the paper's "
                                   "10 ms");
    } else {
        pb_sort(gap, ng, sizeof *gap, cmp_ns);
        pb_ns med = gap[ng / 2];
        pb_ns q = round_125(8 * med);
        pb_seconds_format(med, a);
        pb_seconds_format(q, b);
        rc = pb_strbuf_printf(why, "median delay from a node's latest arrival to "
                                   "its next send %s s over %zu sends (one hop); "
                                   "eight hops, rounded down to 1-2-5, stay below a "
                                   "typical request (15-20 hops in the hotel and "
                                   "multi-tier traces): %s s", a, ng, b);
        if (q > CONV_DEFAULT_MU) {
            q = CONV_DEFAULT_MU;
            rc |= pb_strbuf_printf(why, "; capped at the paper's 10 ms");
        }
        if (tk.tick > q) {
            q = tk.tick;
            rc |= pb_strbuf_printf(why, "; raised to the trace's tick %s",
                                   pb_tick_format(tk.tick, tb));
        }
        pb_ns span = t1 - t0;
        if (span / q > CONV_AUTO_MAX_QUANTA) {
            pb_ns need = span / CONV_AUTO_MAX_QUANTA + 1, r = round_125(need);
            q = r < need ? round_125(need * 2 + 1) : r;
            while (span / q > CONV_AUTO_MAX_QUANTA)
                q *= 2;
            pb_seconds_format(q, b);
            rc |= pb_strbuf_printf(why, "; raised to %s s so that the trace spans at "
                                        "most 2^24 quanta", b);
        }
        *mu = q;
    }
    rc |= pb_strbuf_printf(why, "; give -s mu=10ms for the paper's Table 1 setting");
    free(last);
    free(gap);
    return rc ? PB_ENOMEM : PB_OK;
}

