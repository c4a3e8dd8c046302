/*
 * joint_tickivl.c - joint: delays of 1 to 20 whole ticks scored and fitted
 * as the intervals they stand for (docs/joint/audits.md, "Whole-tick delays as
 * intervals").
 *
 * When the stamps are whole ticks (pb_tick_info.tick > 20 ns) a delay is a
 * difference of two whole-tick stamps: a delay stamped k ticks stands for
 * a true delay somewhere near k ticks, not at the point k * tick.  The
 * densities are histograms of log10 delay in bins of `bin` decades; from
 * one tick up to J ticks (J about 1 / (10^bin - 1) = 21 at 0.02 decades)
 * every whole tick has a density bin of its own, with empty bins between,
 * so the smoothed histogram is a row of spikes whose height at a spike's
 * centre depends on the kernel's width against the spike's spacing (wide
 * at one tick, narrow at twenty), not on how many delays it holds: read as
 * point densities they favour the shortest delays many times over the
 * longer ones (joint_models.sh at 1 ms on sub-millisecond services: joint
 * 0.8-7.8 points below nesting or FCFS on 12 rows).  Here, as the zero-tick
 * rule (joint_tick0.c) does for 0:
 *
 * - fit: an observed delay of k ticks (1 <= k <= J) adds its unit of mass
 *   spread over the bins of [k, k+1) ticks, each bin's share of that
 *   interval (uniform in the delay, the interval-censored histogram);
 * - score: a delay of k ticks scores P_k / tick (in the units of every
 *   other delay: lf = ln(P_k ln 10 k) at the bin of k ticks), P_k the
 *   fitted density's mass over [k, k+1) ticks (each bin's mass times the
 *   share of its log10 width inside the interval).
 *
 * [k, k+1) for every k (and [0, 1) for 0, joint_tick0.c): the intervals
 * tile the delays, the scores of all k sum to one, and the mass the fit
 * spreads over an interval is the mass the score reads back from it.  Only
 * the bins of 1..J ticks change, and only whole-tick delays fall in them.
 * Beyond J consecutive whole ticks share a bin and the histogram is smooth.
 *
 * When (tick_ivl=auto): at whole-tick stamps with many ties (pb_tick_info.
 * coarse_ties = 1: over 1 % of the messages share a stamp, so the delays are
 * a few ticks) and J >= 1.  Metadata tick_ivl=on|off tick_ivl_ticks=J.
 */
#include "joint_int.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

void joint_tickivl_free(joint *s)
{
    free(s->tibin);
    free(s->tis_off);
    free(s->tis_b);
    free(s->tis_w);
    free(s->tiw_w);
    s->tibin = s->tis_off = s->tis_b = NULL;
    s->tis_w = s->tiw_w = NULL;
    s->tiJ = 0;
}

/* J: the most whole ticks (at most tick_ivl_max) such that 0, 1, ..., J+1
 * ticks fall in bins of their own */
static uint32_t tickivl_span(const joint *s)
{
    const pb_ns t = s->tick;
    uint32_t J = 0;
    for (uint32_t j = 1; j <= (uint32_t)s->p.tick_ivl_max; j++) {
        if (dbin(s, (pb_ns)(j - 1) * t) >= dbin(s, (pb_ns)j * t) ||
            dbin(s, (pb_ns)j * t) >= dbin(s, (pb_ns)(j + 1) * t) ||
            dbin(s, (pb_ns)(j + 1) * t) >= s->nb - 1)
            break;
        J = j;
    }
    return J;
}

int joint_tickivl_setup(joint *s)
{
    joint_tickivl_free(s);
    s->ti_state = 0;
    s->tiSpan = 0;
    s->ti_ratio = -1;
    const char *mode = s->p.tick_ivl ? s->p.tick_ivl : "auto";
    if (s->tick <= 20 || s->p.tick_ivl_max <= 0 || !strcmp(mode, "off"))
        return PB_OK;
    uint32_t J = tickivl_span(s);
    s->tiSpan = J;
    if (J == 0)
        return PB_OK;
    s->ti_state = 1; /* whole ticks with bins of their own, off */
    /* auto: the tables now, the decision at joint_tickivl_gate (before the
     * first fit) */
    int on = !strcmp(mode, "on") || (s->coarse && s->p.tick0);
    if (!on)
        return PB_OK;
    const pb_ns t = s->tick;
    const double bw = s->p.bin;
    s->tibin = malloc(((size_t)J + 2) * sizeof *s->tibin);
    s->tis_off = malloc(((size_t)J + 2) * sizeof *s->tis_off);
    if (!s->tibin || !s->tis_off)
        return PB_ENOMEM;
    for (uint32_t j = 0; j <= J + 1; j++)
        s->tibin[j] = dbin(s, (pb_ns)j * t);
    /* the bins of [j, j+1) ticks: tibin[j] .. dbin((j+1) t - 1) */
    size_t ne = 0;
    s->tis_off[0] = 0;
    s->tis_off[1] = 0;
    for (uint32_t j = 1; j <= J; j++) {
        ne += dbin(s, (pb_ns)(j + 1) * t - 1) - s->tibin[j] + 1;
        s->tis_off[j + 1] = (uint32_t)ne;
    }
    s->tis_b = malloc((ne + 1) * sizeof *s->tis_b);
    s->tis_w = malloc((ne + 1) * sizeof *s->tis_w);
    s->tiw_w = malloc((ne + 1) * sizeof *s->tiw_w);
    if (!s->tis_b || !s->tis_w || !s->tiw_w)
        return PB_ENOMEM;
    for (uint32_t j = 1; j <= J; j++) {
        const double a = (double)j * (double)t, z = (double)(j + 1) * (double)t;
        const double la = log10(a), lz = log10(z);
        uint32_t e = s->tis_off[j];
        for (uint32_t b = s->tibin[j]; e < s->tis_off[j + 1]; b++, e++) {
            /* bin b holds log10 delays [1 + b bw, 1 + (b+1) bw) */
            double xl = 1.0 + b * bw, xh = 1.0 + (b + 1) * bw;
            double dl = pow(10.0, xl), dh = pow(10.0, xh);
            double lo = dl > a ? dl : a, hi = dh < z ? dh : z;
            double llo = xl > la ? xl : la, lhi = xh < lz ? xh : lz;
            s->tis_b[e] = b;
            s->tis_w[e] = hi > lo ? (hi - lo) / (double)t : 0;
            s->tiw_w[e] = lhi > llo ? (lhi - llo) / bw : 0;
        }
    }
    s->tiSpan = J;
    if (!strcmp(mode, "on")) {
        s->tiJ = J;
        s->ti_state = 2;
    }
    return PB_OK;
}

void joint_tickivl_gate(joint *s)
{
    if (!s->tis_w || s->tiJ)
        return; /* off, or on by tick_ivl=on */
    /* auto at coarse ties: the observed requests' median duration
     * (joint_tick0.c's tick0_fine) at least tick_ivl_from ticks */
    s->ti_ratio = s->t0ratio;
    if (s->t0ratio >= s->p.tick_ivl_from) {
        s->tiJ = s->tiSpan;
        s->ti_state = 2;
    } else {
        uint32_t span = s->tiSpan;
        joint_tickivl_free(s);
        s->tiSpan = span;
        s->ti_state = 1;
    }
}

void joint_tickivl_add(joint *s, uint32_t di, uint32_t j)
{
    double *h = joint_hist_span(s, di, s->tis_b[s->tis_off[j]], s->tis_b[s->tis_off[j + 1] - 1]);
    const uint32_t e0 = s->tis_off[j], e1 = s->tis_off[j + 1];
    for (uint32_t e = e0; e < e1; e++)
        h[s->tis_b[e]] += s->tis_w[e];
    uint32_t lo = s->tis_b[e0], hi = s->tis_b[e1 - 1];
    if (lo < s->hlo[di])
        s->hlo[di] = lo;
    if (hi > s->hhi[di])
        s->hhi[di] = hi;
}

void joint_tickivl_reach(const joint *s, size_t *lo, size_t *hi)
{
    if (!s->tiJ) {
        *lo = 1;
        *hi = 0;
        return;
    }
    *lo = s->tibin[1];
    *hi = s->tibin[s->tiJ];
}

void joint_tickivl_fix(const joint *s, const double *hv, double tot, double *lf, double *em,
                       size_t s0, size_t s1)
{
    if (!s->tiJ)
        return;
    const double beta = s->p.floor;
    const uint32_t nb = s->nb;
    for (uint32_t j = 1; j <= s->tiJ; j++) {
        double p = 0;
        for (uint32_t e = s->tis_off[j]; e < s->tis_off[j + 1]; e++) {
            uint32_t b = s->tis_b[e];
            double v = b >= s0 && b <= s1 ? hv[b] : 0.0;
            p += ((1 - beta) * (tot > 0 ? v / tot : 0) + beta / nb) * s->tiw_w[e];
        }
        uint32_t bj = s->tibin[j];
        double lnew = log(p * M_LN10 * (double)j);
        double pold = exp(lf[bj]) * s->p.bin;
        *em += pold * (lnew - lf[bj]);
        lf[bj] = lnew;
    }
}

int joint_tickivl_meta(const joint *s, pb_result *res)
{
    if (s->ti_state == 0)
        return PB_OK;
    const char *mode = s->p.tick_ivl ? s->p.tick_ivl : "auto";
    return pb_result_meta(res, "tick_ivl=%s tick_ivl_ticks=%u tick_ivl_rule=%s "
                          "tick_ivl_duration_ticks=%.3g tick_ivl_from=%.3g",
                          s->ti_state == 2 ? "on" : "off", s->tiSpan,
                          !strcmp(mode, "on") ? "forced" : !s->coarse ? "few_ties"
                                                                       : "coarse_ties",
                          s->ti_ratio, s->p.tick_ivl_from);
}
