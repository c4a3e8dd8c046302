/*
 * joint_align.c - pairing the calls and returns of one link without call
 * ids, robust to lost messages (docs/joint/shapes.md "Robustness").
 *
 * First in, first out pairs the i-th return of a link with the i-th call.
 * One lost return shifts every later pair by one call (until a lost call
 * shifts it back), so one lost message spoils the pairs, and then the
 * requests, of a whole stretch of the trace.  Here the pairs keep the
 * order of first in, first out, but any call or return may stay unpaired:
 * a dynamic program over (returns decided, calls decided) finds the
 * alignment of least cost, where a pair costs -log p(duration) under the
 * link's own duration histogram (log10 bins, smoothed, mixed with a
 * uniform floor) and an unpaired message costs AL_SKIP nats.  A shifted
 * stretch pays the floor cost at each of its pairs, so the shift is cut
 * where the lost message was.  The histogram is learned from two starts,
 * last-in-first-out pairs (which a lost message does not shift, but
 * which are wrong where requests overlap on the link) and first-in-
 * first-out pairs (the reverse); from each, align, refit the histogram
 * from the alignment's pairs and align again; the alignment of least
 * cost is kept.  A return is tried
 * against a window of the last calls before it, twice the longest
 * first-in-first-out queue of the link plus AL_KMIN (at most AL_KMAX), so
 * that it holds the call first in, first out would take (window_cut
 * counts the returns for which it does not).  Cost O(returns x window).
 */
#include "joint_align.h"
#include "joint_albin.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pb_error.h"

#define AL_SKIP JOINT_ALIGN_SKIP /* nats for a message left unpaired (its partner lost) */
#define AL_BW 0.05      /* width of a duration bin, decades */
#define AL_NB JOINT_ALIGN_NB /* bins from 1 ns to 10^14 ns */
#define AL_FLOOR 1e-3   /* weight of the uniform background */
#define AL_KMIN 16      /* least window of candidate calls */
#define AL_KMAX 1024    /* largest window */
#define AL_REFITS 1     /* refits of the histogram from the alignment (more did not help) */
#define AL_NONE 0xFFFFu

/* floor(log10(d) / AL_BW), clipped to the bins, by the table of the
 * bins' least durations (joint_albin.h: the same bins as log10's, without
 * a log10 per cell) */
static int al_bin(pb_ns d)
{
    int lo = 0, hi = AL_NB - 1; /* the bin: the largest b with edge(b) <= d */
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (JOINT_ALBIN_EDGE[mid - 1] <= d)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* al_bin(d) from b, a bin near it (the next cell's: the walk moves a bin
 * or two at a time) */
static inline int al_bin_near(pb_ns d, int b)
{
    while (b + 1 < AL_NB && JOINT_ALBIN_EDGE[b] <= d)
        b++;
    while (b > 0 && JOINT_ALBIN_EDGE[b - 1] > d)
        b--;
    return b;
}

/* cost[b] = -log p(bin b) from the counts h (Gaussian smoothing of 1.5
 * bins, uniform floor) */
static void al_fit(const double *h, double *cost)
{
    double sm[AL_NB], tot = 0, w[11];
    /* the kernel's 11 weights once per fit, not once per bin (the same
     * exp of the same arguments: the same bits; 5 % of TrainTicket's
     * instructions went to these exps) */
    for (int k = -5; k <= 5; k++)
        w[k + 5] = exp(-0.5 * (k / 1.5) * (k / 1.5));
    for (int b = 0; b < AL_NB; b++) {
        double v = 0;
        for (int k = -5; k <= 5; k++)
            if (b + k >= 0 && b + k < AL_NB)
                v += h[b + k] * w[k + 5];
        sm[b] = v;
        tot += v;
    }
    for (int b = 0; b < AL_NB; b++) {
        double p = tot > 0 ? (1 - AL_FLOOR) * sm[b] / tot + AL_FLOOR / AL_NB
                           : 1.0 / AL_NB;
        cost[b] = -log(p);
    }
}

typedef struct al_state {
    size_t nc, nr, K;
    const pb_ns *ct, *rt;
    size_t *hi, *lo, *fold;     /* per return */
    uint16_t *choice;           /* per return, K+1 states: AL_NONE = the
                                   return unpaired, else the predecessor
                                   state's offset from lo */
    double *pv, *nv;            /* two columns, K+2 states */
    int32_t *pair_of_ret;       /* call index, or -1 */
    const pb_ns *ca;            /* per call: its send time on the caller's
                                   clock (NULL: no nesting term) */
    const pb_ns *sa;            /* per return: the caller's last idle start
                                   before the return reached it */
    double pen;                 /* nats for a pair that spans an idle start */
    pb_ns early;                /* a return may precede its call by this */
} al_state;

/* does the pair (call i, return j) span a moment when its caller served
 * no request (so the call and the return cannot be of one request)? */
static int al_cross(const al_state *a, size_t i, size_t j)
{
    return a->ca && a->sa[j] > a->ca[i];
}

/* One alignment under the costs; fills pair_of_ret and returns its cost. */
static double al_run(al_state *a, const double *cost)
{
    size_t K = a->K;
    size_t plo = 0, phi = 0;
    a->pv[0] = 0;
    for (size_t j = 0; j < a->nr; j++) {
        size_t lo = a->lo[j], hi = a->hi[j];
        /* fold the previous states below lo into lo: their calls up to lo
         * can pair with no later return */
        double best = HUGE_VAL;
        size_t from = lo;
        size_t top = phi < lo ? phi : lo;
        for (size_t i = plo; i <= top; i++) {
            double v = a->pv[i - plo] + AL_SKIP * (double)(lo - i);
            if (v < best) {
                best = v;
                from = i;
            }
        }
        a->fold[j] = from;
        /* pf over [lo, max(phi, lo)]: pf(lo) = best, else pv */
        size_t pfhi = phi > lo ? phi : lo;
        /* run: min over i' < i of pf(i') - SKIP * i' (ties to the latest
         * state: fewest calls left unpaired), at state runarg */
        double run = HUGE_VAL;
        size_t runarg = lo;
        uint16_t *ch = a->choice + j * (K + 1);
        int bin = -1; /* the last cell's bin (al_bin_near) */
        for (size_t i = lo; i <= hi; i++) {
            double pfi = i == lo ? best : (i <= pfhi ? a->pv[i - plo] : HUGE_VAL);
            double sk = pfi + AL_SKIP;
            double mt = HUGE_VAL;
            if (i > lo && run < HUGE_VAL) {
                pb_ns d = a->rt[j] - a->ct[i - 1];
                bin = bin < 0 ? al_bin(d) : al_bin_near(d, bin);
                mt = run + AL_SKIP * (double)(i - 1) + cost[bin] +
                     (al_cross(a, i - 1, j) ? a->pen : 0);
            }
            if (mt <= sk) {
                a->nv[i - lo] = mt;
                ch[i - lo] = (uint16_t)(runarg - lo);
            } else {
                a->nv[i - lo] = sk;
                ch[i - lo] = AL_NONE;
            }
            double cand = pfi - AL_SKIP * (double)i;
            if (cand <= run && cand < HUGE_VAL) {
                run = cand;
                runarg = i;
            }
        }
        double *sw = a->pv;
        a->pv = a->nv;
        a->nv = sw;
        plo = lo;
        phi = hi;
    }
    /* the calls after the last state stay unpaired */
    double best = HUGE_VAL;
    size_t bi = plo;
    for (size_t i = plo; i <= phi; i++) {
        double v = a->pv[i - plo] + AL_SKIP * (double)(a->nc - i);
        if (v < best) {
            best = v;
            bi = i;
        }
    }
    size_t i = bi;
    for (size_t j = a->nr; j-- > 0;) {
        uint16_t c = a->choice[j * (K + 1) + (i - a->lo[j])];
        a->pair_of_ret[j] = -1;
        if (c != AL_NONE) {
            a->pair_of_ret[j] = (int32_t)(i - 1);
            i = a->lo[j] + c;
        }
        if (i == a->lo[j])
            i = a->fold[j];
    }
    return best;
}

/* the cost of the pairs in pair_of_ret under the histogram of their own
 * durations, with AL_SKIP for every message left unpaired */
static double al_score(const al_state *a, double *cost)
{
    double h[AL_NB];
    memset(h, 0, sizeof h);
    size_t paired = 0;
    for (size_t j = 0; j < a->nr; j++)
        if (a->pair_of_ret[j] >= 0 && a->rt[j] - a->ct[a->pair_of_ret[j]] >= 0)
            h[al_bin(a->rt[j] - a->ct[a->pair_of_ret[j]])] += 1;
    al_fit(h, cost);
    double c = 0;
    for (size_t j = 0; j < a->nr; j++)
        if (a->pair_of_ret[j] >= 0) {
            c += cost[al_bin(a->rt[j] - a->ct[a->pair_of_ret[j]])];
            paired++;
        }
    return c + AL_SKIP * (double)(a->nc + a->nr - 2 * paired);
}

/* fit from the alignment's pairs, align again; returns the cost */
static double al_refit(al_state *a, double *cost)
{
    double h[AL_NB];
    memset(h, 0, sizeof h);
    for (size_t j = 0; j < a->nr; j++)
        if (a->pair_of_ret[j] >= 0 && a->rt[j] - a->ct[a->pair_of_ret[j]] >= 0)
            h[al_bin(a->rt[j] - a->ct[a->pair_of_ret[j]])] += 1;
    al_fit(h, cost);
    return al_run(a, cost);
}

/* the crossing pairs of pair_of_ret (0 without a nesting term) */
static size_t al_crossings(const al_state *a)
{
    size_t x = 0;
    for (size_t j = 0; a->ca && j < a->nr; j++) {
        int32_t i = a->pair_of_ret[j];
        /* a return before its call (first in, first out shifted past a
         * lost call) counts as well */
        if (i >= 0 && (al_cross(a, (size_t)i, j) || a->ct[i] > a->rt[j] + a->early))
            x++;
    }
    return x;
}

/* al_score plus the nesting term */
static double al_score_nest(const al_state *a, double *cost)
{
    return al_score(a, cost) + a->pen * (double)al_crossings(a);
}

int joint_align_bin(pb_ns d)
{
    return al_bin(d);
}

void joint_align_cost(const double *h, double *cost)
{
    al_fit(h, cost);
}

int joint_align_link(const pb_ns *ev_t, const uint32_t *ev_msg,
                     const unsigned char *ev_call, size_t n, pb_ns early,
                     uint64_t *pairs, size_t *np, joint_align_stats *st)
{
    return joint_align_link_nest(ev_t, ev_msg, ev_call, n, early, NULL, pairs, np, st, NULL);
}

int joint_align_link_nest(const pb_ns *ev_t, const uint32_t *ev_msg,
                          const unsigned char *ev_call, size_t n, pb_ns early,
                          const joint_align_nest *nest, uint64_t *pairs, size_t *np,
                          joint_align_stats *st, joint_align_info *info)
{
    size_t nc = 0, nr = 0;
    for (size_t e = 0; e < n; e++) {
        if (ev_call[e])
            nc++;
        else
            nr++;
    }
    if (info)
        memset(info, 0, sizeof *info);
    if (info) {
        info->calls = nc;
        info->returns = nr;
    }
    if (st)
        st->links++;
    if (nc == 0 || nr == 0) {
        if (st)
            st->skipped += n;
        return PB_OK;
    }
    int use_nest = nest && nest->pen > 0 && nest->idle && nest->nidle > 0 && nest->ta;
    al_state a;
    memset(&a, 0, sizeof a);
    a.nc = nc;
    a.nr = nr;
    a.early = early;
    pb_ns *ct = malloc(nc * sizeof *ct), *rt = malloc(nr * sizeof *rt);
    uint32_t *cm = malloc(nc * sizeof *cm), *rm = malloc(nr * sizeof *rm);
    pb_ns *ca = use_nest ? malloc(nc * sizeof *ca) : NULL;
    pb_ns *sa = use_nest ? malloc(nr * sizeof *sa) : NULL;
    size_t *stack = malloc(nc * sizeof *stack);
    a.hi = malloc(nr * sizeof *a.hi);
    a.lo = malloc(nr * sizeof *a.lo);
    a.fold = malloc(nr * sizeof *a.fold);
    a.pair_of_ret = malloc(nr * sizeof *a.pair_of_ret);
    int32_t *keep = malloc(nr * sizeof *keep);
    int32_t *first = malloc(nr * sizeof *first);
    int rc = PB_ENOMEM;
    if (!ct || !rt || !cm || !rm || !stack || !a.hi || !a.lo || !a.fold || !a.pair_of_ret ||
        !keep || !first || (use_nest && (!ca || !sa)))
        goto out;
    /* the returns' windows, the longest first-in-first-out queue, and the
     * last-in-first-out durations */
    double h[AL_NB], cost[AL_NB];
    memset(h, 0, sizeof h);
    size_t ic = 0, ir = 0, sp = 0, maxq = 0;
    for (size_t e = 0; e < n; e++) {
        if (ev_call[e]) {
            ct[ic] = ev_t[e];
            cm[ic] = ev_msg[e];
            if (use_nest)
                ca[ic] = nest->ta[e];
            stack[sp++] = ic++;
        } else {
            rt[ir] = ev_t[e];
            rm[ir] = ev_msg[e];
            if (use_nest) {
                /* the caller's last idle start before the return reached it */
                size_t lo = 0, hi = nest->nidle;
                while (lo < hi) {
                    size_t mid = lo + (hi - lo) / 2;
                    if (nest->idle[mid] < nest->ta[e])
                        lo = mid + 1;
                    else
                        hi = mid;
                }
                sa[ir] = lo > 0 ? nest->idle[lo - 1] : PB_TS_NONE;
            }
            if (sp > 0) {
                pb_ns d = ev_t[e] - ct[stack[--sp]];
                if (d >= 0)
                    h[al_bin(d)] += 1;
            }
            size_t q = ic > ir ? ic - ir : 0;
            if (q > maxq)
                maxq = q;
            if (st && q > 1 && nc != nr)
                st->ambiguous++;
            ir++;
        }
    }
    if (use_nest) {
        a.ca = ca;
        a.sa = sa;
        a.pen = nest->pen;
    }
    if (nc == nr) {
        /* as many calls as returns: the i-th call with the i-th return,
         * both in time order, unless the nesting test below finds pairs
         * that span an idle moment of their caller */
        for (size_t j = 0; j < nr; j++)
            a.pair_of_ret[j] = (int32_t)j;
        if (st)
            st->fifo_kept++;
    }
    size_t K = 2 * maxq + AL_KMIN;
    if (K > AL_KMAX)
        K = AL_KMAX;
    a.K = K;
    a.ct = ct;
    a.rt = rt;
    size_t c = 0, lo = 0;
    for (size_t j = 0; j < nr; j++) {
        while (c < nc && ct[c] <= rt[j] + early)
            c++;
        a.hi[j] = c;
        if (c > lo + K)
            lo = c - K;
        a.lo[j] = lo;
        /* the call first in, first out would pair with it is out of reach */
        if (st && nc != nr && j < lo)
            st->window_cut++;
    }
    size_t cross0 = 0;
    if (nc == nr) {
        cross0 = al_crossings(&a);
        if (cross0 == 0)
            goto emit;
    }
    a.choice = malloc(nr * (K + 1) * sizeof *a.choice);
    a.pv = malloc((K + 2) * sizeof *a.pv);
    a.nv = malloc((K + 2) * sizeof *a.nv);
    if (!a.choice || !a.pv || !a.nv)
        goto out;
    if (nc != nr) {
        /* the alignment without the nesting term, as before (its result
         * is the first pairing the nesting test looks at) */
        double pen = a.pen;
        const pb_ns *sca = a.ca;
        a.ca = NULL;
        a.pen = 0;
        /* start from the last-in-first-out durations (not shifted by a lost
         * message), align, refit from the alignment's pairs, align again */
        al_fit(h, cost);
        al_run(&a, cost);
        for (int it = 0; it < AL_REFITS; it++)
            al_refit(&a, cost);
        /* where requests overlap on the link, last-in-first-out durations are
         * too short and the alignment can settle on a shift of its own: keep
         * it only if it explains the link better than first in, first out
         * (each scored under the histogram of its own pairs) */
        double c_al = al_score(&a, cost);
        memcpy(keep, a.pair_of_ret, nr * sizeof *keep);
        for (size_t j = 0; j < nr; j++)
            a.pair_of_ret[j] = j < nc ? (int32_t)j : -1;
        double c_fifo = al_score(&a, cost);
        if (nest && nest->fifo_start) {
            /* the second start (align_starts=2): first in, first out's
             * durations, aligned and refitted the same way.  Where arrivals
             * are nearly periodic, a lost call lets the start above settle
             * on the whole link shifted by one (every pair about a period
             * long, as consistent as the truth under a histogram of its own
             * pairs); from here the alignment finds the one stretch that
             * lost a partner.  Kept when it is cheaper and spans no more
             * idle moments of the caller than the first (the nesting
             * test's crossings: from first in, first out's durations the
             * alignment can also settle on a shift of its own, cheaper
             * under its own histogram but crossing hundreds of idle
             * moments, hotel-like at 2 % loss) */
            size_t x_al = 0, x_f2 = 0;
            if (sca) { /* the nesting test's crossings of both */
                int32_t *cur = a.pair_of_ret;
                a.ca = sca;
                a.pair_of_ret = keep;
                x_al = al_crossings(&a);
                a.pair_of_ret = cur;
                a.ca = NULL;
            }
            al_refit(&a, cost);
            for (int it = 0; it < AL_REFITS; it++)
                al_refit(&a, cost);
            double c_f2 = al_score(&a, cost);
            if (sca) {
                a.ca = sca;
                x_f2 = al_crossings(&a);
                a.ca = NULL;
            }
            if (c_f2 < c_al && x_f2 <= x_al) {
                memcpy(keep, a.pair_of_ret, nr * sizeof *keep);
                c_al = c_f2;
                if (st)
                    st->fifo_start_kept++;
            }
            for (size_t j = 0; j < nr; j++)
                a.pair_of_ret[j] = j < nc ? (int32_t)j : -1;
        }
        if (c_al <= c_fifo)
            memcpy(a.pair_of_ret, keep, nr * sizeof *keep);
        else if (st)
            st->fifo_kept++;
        a.ca = sca;
        a.pen = pen;
        cross0 = al_crossings(&a);
    }
    if (info)
        info->cross_first = info->cross_kept = cross0;
    if (cross0 > 0) {
        /* the nesting test: the first pairing has pairs that span an idle
         * moment of their caller.  Align again with a penalty for every
         * such pair, from the durations of the first pairing's pairs that
         * do not span one, refit, align again; keep the result if it
         * explains the link better, nesting term included */
        memcpy(first, a.pair_of_ret, nr * sizeof *first);
        double c_first = al_score_nest(&a, cost);
        memset(h, 0, sizeof h);
        for (size_t j = 0; j < nr; j++) {
            int32_t i = a.pair_of_ret[j];
            if (i >= 0 && !al_cross(&a, (size_t)i, j) && rt[j] - ct[i] >= 0)
                h[al_bin(rt[j] - ct[i])] += 1;
        }
        al_fit(h, cost);
        al_run(&a, cost);
        for (int it = 0; it < AL_REFITS; it++)
            al_refit(&a, cost);
        double c_nest = al_score_nest(&a, cost);
        size_t cross1 = al_crossings(&a);
        if (c_nest < c_first) {
            if (info) {
                info->realigned = 1;
                info->cross_kept = cross1;
            }
            if (st)
                st->nest_realigned++;
        } else {
            memcpy(a.pair_of_ret, first, nr * sizeof *first);
        }
        if (info) {
            info->cost_first = c_first;
            info->cost_nest = c_nest;
            info->cross_nest = cross1;
        }
        if (st)
            st->nest_tested++;
    }
emit:;
    size_t paired = 0;
    for (size_t j = 0; j < nr; j++)
        if (a.pair_of_ret[j] >= 0) {
            pairs[(*np)++] = ((uint64_t)cm[a.pair_of_ret[j]] << 32) | rm[j];
            paired++;
        }
    if (st)
        st->skipped += n - 2 * paired;
    rc = PB_OK;
out:
    free(ct);
    free(rt);
    free(cm);
    free(rm);
    free(ca);
    free(sa);
    free(stack);
    free(a.hi);
    free(a.lo);
    free(a.fold);
    free(a.pair_of_ret);
    free(keep);
    free(first);
    free(a.choice);
    free(a.pv);
    free(a.nv);
    return rc;
}
