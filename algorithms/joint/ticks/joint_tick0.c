/*
 * joint_tick0.c - joint: delays stamped zero ticks, scored as the interval
 * they stand for (docs/joint/audits.md, "Execution models
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
 * - P0 is at most what the observed delays show: those of requests whose
 *   delays are not chosen by the search, clean (no ambiguous call could be
 *   theirs) and paired beyond doubt (by call id, or alone on their link
 *   from call to return, on the callee's clock).  Per key and fit, the
 *   share of zero-tick delays among them, (z + 1/2) / (n + 1) (the mean of
 *   Jeffreys' Beta posterior); a key without observed delays takes the
 *   share over every key (as uncapped, it kept the spike: the mixed config
 *   at 1 us as a black box 89.5 -> 84.7 % exact).  A solution that makes more zero-tick delays than the
 *   unambiguous requests show has chosen them.  (The 97.5 % upper bound of
 *   that share instead left 19 of 25 wrong calls at zero ticks on a
 *   held-out seed: 95.2 against 98.6 % exact.  Counting per fit, not once
 *   before the search, keeps the count under whatever keys the fit uses:
 *   services whose callers are pooled (joint_select.c) key their delays
 *   by service, and a cap learned once under the link keys missed them.)
 * Only where ties are rare (pb_tick_info.coarse_ties = 0: at most 1 % of
 * the messages share a stamp): there the delays are many ticks long, their
 * densities smooth, and the zero-tick bin is the one point mass.  Where
 * ties are common (whole milliseconds on sub-millisecond services) every
 * delay is a few ticks and each whole tick is such a spike; correcting the
 * zero-tick one alone biases the model toward one-tick delays
 * (OnlineBoutique 17:00 at 1 ms as a black box: 53.6 -> 48.0 % exact), and
 * the tie test (joint_quant.c) is what governs there.  Where ties are
 * common only because the load is high (1 us stamps at twice a config's
 * load: 1.1 % of the messages tied) the delays are still hundreds of
 * ticks, and the rule is what they need: the gate (tick0_fine) runs it
 * when the observed requests' median duration is at least 1 / (10^bin - 1)
 * ticks (21.2 at bin = 0.02 decades), where consecutive whole ticks share
 * one density bin and the zero-tick spike is again the only one (metadata
 * tick0_coarse=fine_tick|off, tick0_duration_ticks=, tick0_fine_from=).
 * With stamps finer than 20 ns nothing changes.
 */
#include "joint_int.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

/* whole-tick stamps the rule can apply to (ties rare, or common with a
 * tick fine against the delays: joint_tick0_learn) */
static int tick0_may(const joint *s)
{
    return s->p.tick0 && s->tick > 20 && dbin(s, 0) < dbin(s, s->tick);
}

static int tick0_on(const joint *s)
{
    return tick0_may(s) && (!s->coarse || s->t0fine || s->tiJ);
}

static int cmp_ns(const void *a, const void *b)
{
    pb_ns x = *(const pb_ns *)a, y = *(const pb_ns *)b;
    return (x > y) - (x < y);
}

/* coarse ties: is the tick fine against the delays?  The median duration
 * (call received to return sent, on the callee's clock) of the observed
 * requests, in ticks, against 1 / (10^bin - 1): from there on two
 * consecutive whole ticks fall into one density bin, so whole ticks
 * leave no spikes in the smoothed densities but the zero-tick one.  The
 * durations bound the delays inside them from above; the gate errs on
 * the side of keeping the rule off.  Sets t0ratio, t0need, t0fine. */
static int tick0_fine(joint *s)
{
    uint32_t n = s->npairs, m = 0;
    s->t0need = 1.0 / (pow(10.0, s->p.bin) - 1.0);
    s->t0ratio = -1;
    s->t0fine = 0;
    pb_ns *d = malloc(((size_t)n + 1) * sizeof *d);
    if (!d)
        return PB_ENOMEM;
    for (uint32_t p = 0; p < n; p++)
        if (s->t0obs[p] && s->pr[p].rs >= s->pr[p].cr)
            d[m++] = s->pr[p].rs - s->pr[p].cr;
    if (m > 0) {
        pb_sort(d, m, sizeof *d, cmp_ns);
        double med = m % 2 ? (double)d[m / 2] : 0.5 * ((double)d[m / 2 - 1] + (double)d[m / 2]);
        s->t0ratio = med / (double)s->tick;
        s->t0fine = s->t0ratio >= s->t0need;
    }
    free(d);
    return PB_OK;
}

int joint_tick0_setup(joint *s)
{
    /* fit_fast replays the walks' counts and computes the rule's bins in
     * its ranged densities (joint_fitfast.c): it runs with the rule */
    return joint_tickivl_setup(s);
}

int joint_tick0_learn(joint *s)
{
    if (!tick0_may(s) || !s->clean)
        return PB_OK;
    uint32_t n = s->npairs;
    free(s->t0obs);
    s->t0obs = malloc((size_t)n + 1);
    insort *e = malloc(((size_t)2 * n + 1) * sizeof *e);
    if (!s->t0obs || !e) {
        free(e);
        return PB_ENOMEM;
    }
    for (uint32_t p = 0; p < n; p++)
        s->t0obs[p] = s->clean[p] && s->pr[p].call != JOINT_NONE && s->pr[p].ret != JOINT_NONE &&
                      !s->free_ret[p];
    /* without a call id: alone on its link from its call to its return
     * (no other call arrived, no other return left; callee's clock) */
    for (uint32_t l = 0; l < s->nlinks; l++) {
        uint32_t ne = 0;
        for (uint32_t i = s->bylink_off[l]; i < s->bylink_off[l + 1]; i++) {
            uint32_t p = s->bylink[i];
            if (!s->free_ret[p] || s->pr[p].call == JOINT_NONE || s->pr[p].ret == JOINT_NONE)
                continue;
            e[ne++] = (insort){s->pr[p].cr, 2 * p};
            e[ne++] = (insort){s->pr[p].rs, 2 * p + 1};
        }
        if (ne > 1)
            pb_sort(e, ne, sizeof *e, joint_cmp_insort);
        uint32_t open = 0;
        for (uint32_t i = 0; i < ne; i++) {
            uint32_t p = e[i].p / 2;
            if (e[i].p % 2 == 0) {
                /* a tie with a neighbour's stamp is doubt too */
                int alone = open == 0 && i + 1 < ne && e[i + 1].p == 2 * p + 1 &&
                            (i == 0 || e[i - 1].t < e[i].t) &&
                            (i + 2 >= ne || e[i + 2].t > e[i + 1].t);
                s->t0obs[p] = s->clean[p] && alone;
                open++;
            } else if (open > 0) {
                open--;
            }
        }
    }
    free(e);
    if (s->coarse) {
        if (tick0_fine(s) != PB_OK)
            return PB_ENOMEM;
        joint_tickivl_gate(s); /* whole-tick intervals (joint_tickivl.c) */
        if (!s->t0fine && !s->tiJ) { /* as before: the tie test governs */
            free(s->t0obs);
            s->t0obs = NULL;
        }
    }
    return PB_OK;
}

void joint_tick0_reset(joint *s)
{
    if (s->t0c)
        memset(s->t0c, 0, (size_t)s->t0c_cap * 2 * sizeof *s->t0c);
}

int joint_tick0_count(joint *s, uint32_t q, uint32_t di, uint32_t bn)
{
    if (!s->t0obs[q])
        return PB_OK;
    if (di >= s->t0c_cap) {
        uint32_t cap = s->t0c_cap ? s->t0c_cap : 64;
        while (cap <= di)
            cap *= 2;
        double *a = realloc(s->t0c, (size_t)cap * 2 * sizeof *a);
        if (!a)
            return PB_ENOMEM;
        memset(a + (size_t)s->t0c_cap * 2, 0, (size_t)(cap - s->t0c_cap) * 2 * sizeof *a);
        s->t0c = a;
        s->t0c_cap = cap;
    }
    s->t0c[2 * (size_t)di] += bn == dbin(s, 0);
    s->t0c[2 * (size_t)di + 1] += 1;
    return PB_OK;
}

void joint_tick0_reach(const joint *s, size_t *lo, size_t *hi)
{
    joint_tickivl_reach(s, lo, hi);
    if (tick0_on(s)) {
        size_t b0 = dbin(s, 0);
        if (*lo > *hi)
            *lo = *hi = b0;
        else if (b0 < *lo)
            *lo = b0;
        else if (b0 > *hi)
            *hi = b0;
    }
}

void joint_tick0_fix(const joint *s, uint32_t k, const double *hv, double tot, double *lf,
                     double *em, size_t s0, size_t s1)
{
    if (!tick0_on(s)) {
        joint_tickivl_fix(s, hv, tot, lf, em, s0, s1); /* 1..tiJ ticks (joint_tickivl.c) */
        return;
    }
    const uint32_t nb = s->nb;
    uint32_t b0 = dbin(s, 0), bt = dbin(s, s->tick);
    const double beta = s->p.floor;
    double p0 = 0;
    for (uint32_t b = 0; b < bt; b++) {
        double v = b >= s0 && b <= s1 ? hv[b] : 0.0; /* +0 outside [s0, s1] */
        p0 += (1 - beta) * (tot > 0 ? v / tot : 0) + beta / nb;
    }
    if (s->t0obs) {
        /* the key's observed share, or every key's where it has none */
        double z = 0, n = 0;
        if (k < s->t0c_cap && s->t0c[2 * (size_t)k + 1] > 0) {
            z = s->t0c[2 * (size_t)k];
            n = s->t0c[2 * (size_t)k + 1];
        } else {
            for (uint32_t j = 0; j < s->t0c_cap; j++) {
                z += s->t0c[2 * (size_t)j];
                n += s->t0c[2 * (size_t)j + 1];
            }
        }
        double cap = (z + 0.5) / (n + 1);
        if (p0 > cap)
            p0 = cap;
    }
    double lnew = log(p0 * M_LN10 * s->dmin / (double)s->tick);
    double pold = exp(lf[b0]) * s->p.bin;
    *em += pold * (lnew - lf[b0]);
    lf[b0] = lnew;
    joint_tickivl_fix(s, hv, tot, lf, em, s0, s1); /* 1..tiJ ticks (joint_tickivl.c) */
}

int joint_tick0_meta(const joint *s, pb_result *res)
{
    if (s->coarse && tick0_may(s) && s->clean) {
        int rc = pb_result_meta(res, "tick0_coarse=%s tick0_duration_ticks=%.3g "
                                "tick0_fine_from=%.3g",
                                s->t0fine ? "fine_tick" : "off", s->t0ratio, s->t0need);
        if (rc != PB_OK)
            return rc;
    }
    if (!tick0_on(s))
        return PB_OK;
    /* the last fit's raw counts: delays stamped zero ticks, of all delays;
     * of the observed ones */
    uint32_t b0 = dbin(s, 0);
    double z = 0, n = 0, oz = 0, on = 0;
    for (uint32_t k = 0; k < s->nkeys; k++) {
        z += joint_hist_at(s, k, b0);
        n += s->kstat[3 * (size_t)k];
    }
    for (uint32_t k = 0; s->t0c && k < s->t0c_cap; k++) {
        oz += s->t0c[2 * (size_t)k];
        on += s->t0c[2 * (size_t)k + 1];
    }
    size_t obs = 0;
    for (uint32_t p = 0; s->t0obs && p < s->npairs; p++)
        obs += s->t0obs[p];
    return pb_result_meta(res, "tick0=on tick_ns=%lld zero_tick_delays=%.0f delays=%.0f "
                          "observed_requests=%zu observed_zero_tick_delays=%.0f "
                          "observed_delays=%.0f fit_fast=%s",
                          (long long)s->tick, z, n, obs, oz, on,
                          s->p.fit_fast ? "on" : "off");
}
