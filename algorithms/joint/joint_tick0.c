/*
 * joint_tick0.c - joint: delays stamped zero ticks, scored as the interval
 * they stand for (docs/joint.md, "Execution models
 * (experiments/joint_models.sh)").
 *
 * When the stamps are whole ticks (pb_tick_info.tick > 20 ns), a delay
 * stamped 0 lies anywhere in [0, tick): its likelihood is the probability
 * of that interval, P0 = the fitted density's mass below one tick.  The
 * densities are histograms of log10 delay, and every zero-tick delay is
 * clamped to one point (dmin = tick / 2), so the smoothed histogram puts
 * their whole mass in a spike a few bins wide: read as a density at tick/2
 * times the tick it claims about ten times the mass the zero-tick delays
 * have.  An event loop that reads the next request in the same microsecond
 * as it sends a call of the previous one makes that call look like a
 * zero-tick call of the next request; the spike rewards it, the refit
 * sharpens it, and the search settles in it (experiments/
 * joint_models_mixed.conf at 1 us: 13 points lost against the unrounded
 * trace, every wrong call's parent at zero ticks, no true one).
 *
 * Two corrections, both learned from the trace:
 * - the spike's bin is set so that a zero-tick delay scores exactly P0 per
 *   tick, in the units of every other delay (density of log10 delay per
 *   decade, the 1/(d ln 10) Jacobian with ln 10 dropped): lf[b0] - ln(dmin)
 *   = ln(P0 ln 10 / tick).  Only that bin changes (no delay of whole ticks
 *   but 0 falls in it);
 * - P0 is at most what the clean requests (no ambiguous call could be
 *   theirs: their delays are observed, not chosen) show: the share of
 *   zero-tick delays of the key among them, (z + 1/2) / (n + 1) (the mean
 *   of Jeffreys' Beta posterior).  A solution that makes more zero-tick
 *   delays than the unambiguous requests show has chosen them.  Keys the
 *   clean requests never show are not capped.  (The 97.5 % upper bound of
 *   that share instead left 19 of 25 wrong calls at zero ticks on a
 *   held-out seed: 95.2 against 98.6 % exact.)
 * Only where ties are rare (pb_tick_info.coarse_ties = 0: at most 1 % of
 * the messages share a stamp): there the delays are many ticks long, their
 * densities smooth, and the zero-tick bin is the one point mass.  Where
 * ties are common (whole milliseconds on sub-millisecond services) every
 * delay is a few ticks and each whole tick is such a spike; correcting the
 * zero-tick one alone biases the model toward one-tick delays
 * (OnlineBoutique 17:00 at 1 ms as a black box: 53.6 -> 48.0 % exact), and
 * the tie test (joint_quant.c) is what governs there.  With stamps finer
 * than 20 ns nothing changes.
 */
#include "joint_int.h"
#include <math.h>
#include <stdlib.h>

static int tick0_on(const joint *s)
{
    return s->p.tick0 && s->tick > 20 && !s->coarse && dbin(s, 0) < dbin(s, s->tick);
}

int joint_tick0_learn(joint *s)
{
    if (!tick0_on(s) || !s->clean)
        return PB_OK;
    int rc = joint_fit(s, s->clean);
    if (rc != PB_OK)
        return rc;
    uint32_t b0 = dbin(s, 0);
    free(s->t0cap);
    s->t0cap = malloc(((size_t)s->nkeys + 1) * sizeof *s->t0cap);
    if (!s->t0cap)
        return PB_ENOMEM;
    s->t0cap_n = s->nkeys;
    s->t0_clean[0] = s->t0_clean[1] = 0;
    for (uint32_t k = 0; k < s->nkeys; k++) {
        double z = s->hist[(size_t)k * s->nb + b0], n = s->kstat[3 * (size_t)k];
        s->t0cap[k] = n > 0 ? (z + 0.5) / (n + 1) : -1;
        s->t0_clean[0] += z;
        s->t0_clean[1] += n;
    }
    s->hraw_valid = 0; /* the next fit smooths every key again, now capped */
    return PB_OK;
}

void joint_tick0_fix(const joint *s, uint32_t k, const double *hv, double tot, double *lf,
                     double *em)
{
    if (!tick0_on(s))
        return;
    const uint32_t nb = s->nb;
    uint32_t b0 = dbin(s, 0), bt = dbin(s, s->tick);
    const double beta = s->p.floor;
    double p0 = 0;
    for (uint32_t b = 0; b < bt; b++)
        p0 += (1 - beta) * (tot > 0 ? hv[b] / tot : 0) + beta / nb;
    if (s->t0cap && k < s->t0cap_n && s->t0cap[k] >= 0 && p0 > s->t0cap[k])
        p0 = s->t0cap[k];
    double lnew = log(p0 * M_LN10 * s->dmin / (double)s->tick);
    double pold = exp(lf[b0]) * s->p.bin;
    *em += pold * (lnew - lf[b0]);
    lf[b0] = lnew;
}

int joint_tick0_meta(const joint *s, pb_result *res)
{
    if (!tick0_on(s))
        return PB_OK;
    /* the last fit's raw counts: delays stamped zero ticks, of all delays */
    uint32_t b0 = dbin(s, 0);
    double z = 0, n = 0;
    for (uint32_t k = 0; k < s->nkeys; k++) {
        z += s->hist[(size_t)k * s->nb + b0];
        n += s->kstat[3 * (size_t)k];
    }
    return pb_result_meta(res, "tick0=on tick_ns=%lld zero_tick_delays=%.0f delays=%.0f "
                          "clean_zero_tick_delays=%.0f clean_delays=%.0f capped_keys=%u",
                          (long long)s->tick, z, n, s->t0_clean[0], s->t0_clean[1],
                          s->t0cap ? s->t0cap_n : 0);
}
