/*
 * joint_rsbound.c - joint: an upper bound of the estimate of a request
 * given one more call, so the local search of two large requests leaves
 * out a single move without walking the request that gains the call (speed
 * only, the same results; docs/joint/speed_late.md, "Re-split moves
 * bounded").
 *
 * In the local search (joint_search.c, resplit), a single move of call c
 * from request A to request B is estimated as A without c (kept per call:
 * resplit_memo) plus B with c (walked from B's record every time), and
 * left out when the sum is below the best value by JOINT_PRUNE_TOL of the
 * magnitudes (joint_prunable): on OnlineBoutique as a black box nearly
 * every such estimate is, by 16 to 64 nats.  Here B with c is bounded from
 * B's record (its list is B's, c is not in it) in O(B's calls) without a
 * walk, when the density keys have their direct tables (dk), B's service
 * sends no late call's timer (la_timer), its set of calls is not one
 * signature, and none of the loss-serial, late-count or thread terms is
 * on; else no bound (the move is estimated as before).  Every kid of B and
 * c are calls of B's service (a call's candidates are requests of its
 * caller: joint_find_candidates), so every trigger is a cell of B's
 * tables.
 *
 * Adding c to B's list changes the value of B's walk only through:
 *  - c's own step (when its call was seen): at most the largest term of
 *    any trigger (every cell of c's output link, dk table) at any delay,
 *    the background's at the least delay, and (B's call lost) the keys'
 *    means;
 *  - a step of B's output at time t >= c's return: its trigger is the
 *    latest return received by t that is not its own call's (nor, with
 *    learned parallel calls, a parallel sibling's); with c's return among
 *    them it is c or the same as before (then the same term), and c only
 *    when c's (time, pair) is later than the recorded trigger's.  Such a step's term is at most the larger of its old term
 *    and the largest term of the cell (trigger c's link, its output) at
 *    any delay.  Earlier steps take the same returns: the same terms;
 *  - the response: as such a step; when it is, or c would make it, a
 *    response stamped before the latest output, or its service has a
 *    late-response gap (joint_late_resp_trigger: a return of the list or
 *    the arrival), at most the larger of its old term and the largest term
 *    of its column (any trigger, any delay);
 *  - the count of c's link: exactly one more (the record keeps the
 *    counts);
 *  - the durations term: c between the whole calls before and after it
 *    (p, x): T(p, c) + T(c, x) - T(p, x) (joint_corr_term), when c is
 *    whole; nothing else changes;
 *  - the order of first calls (added to the pair's estimate) is at most 0.
 * A cell's largest term at any delay is the largest over its bins of the
 * bin's log density less the log of the bin's lower edge taken a little
 * low (as joint_bnb.c bounds a step), per key once per fit.  Every other
 * term is the record's.  The estimate is the walk's value up to the
 * rounding of two sums (joint_req_walk_estimate), and the bound gets a
 * margin of 1e-9 of the magnitudes for that and its own rounding.
 *
 * The move is left out when the bound plus A's estimate passes
 * joint_prunable's test with twice its tolerance: the estimate then passes
 * it too (it is no larger, and the tolerance grows by less than the gap),
 * and so does order_bound's test (joint_ordbound.c), so the counts the
 * metadata shows (resplit_estimated, resplit_pruned, order_bound_skipped)
 * are counted as the estimate would have been.
 */
#include "joint_int.h"
#include "joint_rs.h"
#include <math.h>
#include <stdlib.h>

#define NONE JOINT_NONE

/* the column cache's slots (a power of two) */
#define RSB_COLS 1024

struct joint_rsb {
    double *kmx;    /* per key: the largest logf_of over every delay */
    uint32_t *kgen; /* the fit (fit_gen + 1) kmx[k] is of; 0: none */
    uint32_t cap;
    double dmin, le0; /* le0: rsb_ln_edge(0) for that least delay */
    double *le, lebin; /* rsb_ln_edge of every bin, for lenb bins of width lebin */
    uint32_t lenb;
    /* per dk column (cell of trigger 0 plus the output, twice that plus
     * noarr), its largest cell over every trigger, for fit colg - 1 */
    size_t colk[RSB_COLS];
    uint32_t colg[RSB_COLS];
    double colv[RSB_COLS];
};

int joint_rsb_test_off = 0;    /* tests: 1 no bound (every move estimated) */
int joint_rsb_test_check = 0;  /* tests: 1 the estimate made as well, compared */
size_t joint_rsb_test_bad = 0; /* tests: bounds found below their estimate */
size_t joint_rsb_test_used = 0; /* tests: bounds made */
size_t joint_rsb_test_skipped = 0; /* tests: moves left out by a bound */
double joint_rsb_test_bias = 0; /* tests: nats added to every bound (negative: wrong) */

void joint_rsb_free(struct joint_rsb *R)
{
    if (!R)
        return;
    free(R->kmx);
    free(R->kgen);
    free(R->le);
    free(R);
}

/* ln of bin b's lower edge (bin 0: the least delay), a little low (the
 * same edge as joint_bnb.c's) */
static double rsb_ln_edge(const joint *s, uint32_t b)
{
    double v = b == 0 ? log(s->dmin) : M_LN10 * (1.0 + (double)b * s->p.bin);
    return v - 1e-9 * (1.0 + fabs(v));
}

/* the largest term of key k at any delay, or NAN (no room) */
static double rsb_key_max(joint *s, struct joint_rsb *R, uint32_t k)
{
    if (k >= R->cap) {
        uint32_t nc = R->cap ? R->cap : 64;
        while (nc <= k)
            nc *= 2;
        double *a = realloc(R->kmx, (size_t)nc * sizeof *a);
        if (!a)
            return NAN;
        R->kmx = a;
        uint32_t *g = realloc(R->kgen, (size_t)nc * sizeof *g);
        if (!g)
            return NAN;
        for (uint32_t i = R->cap; i < nc; i++)
            g[i] = 0;
        R->kgen = g;
        R->cap = nc;
    }
    if (R->kgen[k] != s->fit_gen + 1) {
        if (R->lenb != s->nb || R->lebin != s->p.bin) {
            /* the edges once (the same numbers: they read dmin, the bin
             * width and b only) */
            double *a = realloc(R->le, (size_t)s->nb * sizeof *a);
            if (!a)
                return NAN;
            R->le = a;
            for (uint32_t b = 0; b < s->nb; b++)
                a[b] = rsb_ln_edge(s, b);
            R->lenb = s->nb;
            R->lebin = s->p.bin;
        }
        const double *lf = joint_lf_dense(s, k), *le = R->le;
        double mx = -INFINITY;
        for (uint32_t b = 0; b < s->nb; b++) {
            double v = lf[b] - le[b];
            if (v > mx || isnan(v))
                mx = isnan(v) ? INFINITY : v; /* a NaN bounds nothing */
        }
        R->kmx[k] = mx;
        R->kgen[k] = s->fit_gen + 1;
    }
    return R->kmx[k];
}

/* the largest term of the dk cell at any delay (and, noarr, the keys'
 * means of a request whose call was lost), or NAN */
static double rsb_cell_max(joint *s, struct joint_rsb *R, size_t cell, int noarr)
{
    const uint32_t di = s->dk_key[cell];
    double v = s->bg - R->le0; /* no key: the background at the least delay */
    if (di != NONE) {
        double w = rsb_key_max(s, R, di);
        if (isnan(w))
            return NAN;
        v = w > v ? w : v;
    }
    if (noarr) {
        double w = di == NONE ? s->bg - log(1e6) : s->kmean[di];
        v = w > v || isnan(w) ? (isnan(w) ? INFINITY : w) : v;
    }
    return v;
}

/* the largest term of the dk column of output ol (every trigger), kept
 * per fit, or NAN */
static double rsb_col_max(joint *s, struct joint_rsb *R, size_t dbase, uint32_t nout,
                          uint32_t no1, uint32_t ol, int noarr)
{
    const size_t ck = (dbase + ol) * 2 + (size_t)noarr;
    const uint32_t h = (uint32_t)((ck * 0x9E3779B97F4A7C15ull) >> 54) & (RSB_COLS - 1);
    if (R->colg[h] == s->fit_gen + 1 && R->colk[h] == ck)
        return R->colv[h];
    double m = -INFINITY;
    for (uint32_t tl = 0; tl <= nout; tl++) {
        double w = rsb_cell_max(s, R, dbase + (size_t)tl * no1 + ol, noarr);
        if (isnan(w))
            return NAN;
        m = w > m ? w : m;
    }
    R->colk[h] = ck;
    R->colv[h] = m;
    R->colg[h] = s->fit_gen + 1;
    return m;
}

static inline int rsb_tkey_gt(pb_ns ar, uint32_t ai, pb_ns br, uint32_t bi)
{
    return ar > br || (ar == br && ai > bi);
}

/* the cache made (at the first use) and fresh for the fit's least delay;
 * NULL: no room */
static struct joint_rsb *rsb_ready(joint *s, struct joint_rsb **Rp)
{
    if (!*Rp && !(*Rp = calloc(1, sizeof **Rp)))
        return NULL;
    struct joint_rsb *R = *Rp;
    if (R->dmin != s->dmin || R->le0 == 0) {
        R->dmin = s->dmin;
        R->le0 = rsb_ln_edge(s, 0);
        R->lenb = 0; /* the edges again */
        for (uint32_t h = 0; h < RSB_COLS; h++)
            R->colg[h] = 0;
        for (uint32_t k = 0; k < R->cap; k++)
            R->kgen[k] = 0;
    }
    return R;
}

int joint_rsb_colmax(joint *s, struct joint_rsb **Rp, uint32_t q, uint32_t ol, double *w)
{
    struct joint_rsb *R = rsb_ready(s, Rp);
    if (!R)
        return 0;
    const jpair *qq = &s->pr[q];
    const uint32_t b = qq->callee, nout = s->out_off[b + 1] - s->out_off[b];
    const size_t dbase = s->dk_off[joint_kin(s, qq->link)];
    double v = rsb_col_max(s, R, dbase, nout, nout + 1, ol, qq->call == NONE);
    if (isnan(v))
        return 0;
    *w = v;
    return 1;
}

int joint_rsb_test_nostop = 0;     /* tests: 1 every step from c's return scanned (rsb_stop off) */
size_t joint_rsb_test_stops = 0;   /* tests: scans ended early by rsb_stop */
int joint_rsb_test_stopwrong = 0;  /* tests: 1 the stop reads the step's own trigger (wrong) */
double joint_rsb_test_sum = 0;     /* tests: the sum of every bound made */

int joint_rsb_add(joint *s, struct joint_rsb **Rp, uint32_t q, const joint_wrec *ref,
                  uint32_t c, int pure, double *ub)
{
    if (joint_rsb_test_off || joint_walk_test_force != 0)
        return 0;
    const jpair *qq = &s->pr[q], *pc = &s->pr[c];
    const uint32_t b = qq->callee, ein = qq->link;
    if (!s->dk_off || (s->la_timer && s->la_timer[b]) || s->lser_on || s->lc_on ||
        (s->p.thread_soft > 0 && s->thr && joint_thread_weighs(s, q)) ||
        (s->os_ein && s->os_ein[ein]) || !ref->valid || ref->q != q || ref->ncnt == 0)
        return 0;
    const uint32_t lc = pc->link;
    if (s->link_src[lc] != b)
        return 0;
    struct joint_rsb *R = rsb_ready(s, Rp);
    if (!R)
        return 0; /* no room: estimated as before */
    const uint32_t nout = s->out_off[b + 1] - s->out_off[b], no1 = nout + 1;
    if (ref->ncnt != nout)
        return 0;
    const size_t dbase = s->dk_off[joint_kin(s, ein)];
    const uint32_t olc = s->link_local[lc], tlc = 1 + olc, n = ref->n;
    const int noarr = qq->call == NONE;
    const int open_end = (s->qend && joint_ret_movable(s, q)) || qq->ret == NONE;
    double v = ref->end + ref->ct, mag = 1.0 + fabs(ref->end) + fabs(ref->ct);
    /* the response stamped before the latest output, before or with c
     * (joint_late_resp_trigger: a return of the list, or the arrival):
     * at most the largest term of its column */
    const int late = !open_end && (ref->mx[n] > qq->rs || (pc->call != NONE && pc->cs > qq->rs) ||
                                   (s->late_gap && s->late_gap[b] >= 0));
    if (late) {
        double w = rsb_col_max(s, R, dbase, nout, no1, nout, noarr);
        if (isnan(w))
            return 0;
        double old = ref->end - ref->sum[n];
        if (w > old)
            v += w - old;
        mag += fabs(w) + fabs(old);
    }
    /* c's own step */
    if (pc->call != NONE) {
        double m = rsb_col_max(s, R, dbase, nout, no1, olc, noarr);
        if (isnan(m))
            return 0;
        v += m;
        mag += fabs(m);
    }
    /* the steps that may take c's return as their trigger */
    if (pc->ret != NONE) {
        /* the first step whose output is sent at c's return or later (the
         * record's list is in call order) */
        uint32_t lo = 0, hi = n;
        while (lo < hi) {
            uint32_t md = lo + (hi - lo) / 2;
            if (s->pr[ref->k[md]].cs < pc->rr)
                lo = md + 1;
            else
                hi = md;
        }
        for (uint32_t i = lo; i <= n; i++) {
            /* rsb_stop (speed only): no step from i on has a trigger
             * below c's return (the record's least trigger from i on,
             * smr/smi): every one of them keeps its trigger and term.
             * A call of another service among them still refuses the
             * bound, as the scan did (pure: the list has none) */
            if (!joint_rsb_test_nostop &&
                (joint_rsb_test_stopwrong ? rsb_tkey_gt(ref->tkr[i], ref->tki[i], pc->rr, c)
                                          : rsb_tkey_gt(ref->smr[i], ref->smi[i], pc->rr, c))) {
                joint_rsb_test_stops++;
                for (uint32_t j = i; pure <= 0 && j < n; j++) {
                    const jpair *x = &s->pr[ref->k[j]];
                    if (x->call != NONE && x->cs >= pc->rr && s->link_src[x->link] != b)
                        return 0;
                }
                break;
            }
            if (i == n && (open_end || late))
                break; /* (the late response bounded above) */
            uint32_t ol;
            if (i < n) {
                const jpair *x = &s->pr[ref->k[i]];
                if (x->call == NONE)
                    continue; /* no output: no term */
                if (x->cs < pc->rr)
                    continue; /* (ties of call time before the search's place) */
                if (s->link_src[x->link] != b)
                    return 0;
                ol = s->link_local[x->link];
            } else {
                if (qq->rs < pc->rr)
                    break;
                ol = nout;
            }
            if (!rsb_tkey_gt(pc->rr, c, ref->tkr[i], ref->tki[i]))
                continue; /* its trigger is later than c's return: the same */
            double old = (i < n ? ref->sum[i + 1] : ref->end) - ref->sum[i];
            double w = rsb_cell_max(s, R, dbase + (size_t)tlc * no1 + ol, 0);
            if (isnan(w))
                return 0;
            if (w > old)
                v += w - old;
            mag += fabs(w) + fabs(old);
        }
    }
    /* the count of c's link: one more */
    {
        const double *lp = s->cntlp + s->cnt_off[ein] + (size_t)olc * (JOINT_KMAX + 1);
        uint32_t o = ref->cnt[olc], w = o + 1;
        o = o > JOINT_KMAX ? JOINT_KMAX : o;
        w = w > JOINT_KMAX ? JOINT_KMAX : w;
        v += lp[w] - lp[o];
        mag += fabs(lp[w]) + fabs(lp[o]);
    }
    /* the durations term */
    if (s->corr_on && (!s->corr_svc || s->corr_svc[b])) {
        v += ref->cp[n];
        mag += fabs(ref->cp[n]);
        if (pc->call != NONE && pc->ret != NONE) {
            /* c's place in the record's list (in call order), then the
             * whole calls on either side */
            uint32_t p = NONE, x = NONE, lo = 0, hi = n;
            while (lo < hi) {
                uint32_t md = lo + (hi - lo) / 2;
                const jpair *y = &s->pr[ref->k[md]];
                if (y->cs < pc->cs || (y->cs == pc->cs && ref->k[md] < c))
                    lo = md + 1;
                else
                    hi = md;
            }
            for (uint32_t i = lo; i-- > 0;)
                if (s->pr[ref->k[i]].call != NONE && s->pr[ref->k[i]].ret != NONE) {
                    p = ref->k[i];
                    break;
                }
            for (uint32_t i = lo; i < n; i++)
                if (s->pr[ref->k[i]].call != NONE && s->pr[ref->k[i]].ret != NONE) {
                    x = ref->k[i];
                    break;
                }
            double t1 = p != NONE ? joint_corr_term(s, ein, p, c) : 0;
            double t2 = x != NONE ? joint_corr_term(s, ein, c, x) : 0;
            double t0 = p != NONE && x != NONE ? joint_corr_term(s, ein, p, x) : 0;
            v += t1 + t2 - t0;
            mag += fabs(t1) + fabs(t2) + fabs(t0);
        }
    }
    if (isnan(v))
        return 0;
    *ub = v + 1e-9 * mag + joint_rsb_test_bias;
    joint_rsb_test_used++;
    joint_rsb_test_sum += *ub;
    return 1;
}
