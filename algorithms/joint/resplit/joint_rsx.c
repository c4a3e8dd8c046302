/*
 * joint_rsx.c - joint: an upper bound of the estimate of one side of an
 * exchange in the re-split's local search (a call co of request q's list
 * taken out, a call ci of the same link put in), from q's record without a
 * walk, so the exchange is left out when the bound already fails the
 * prune test (speed only, the same results; docs/joint/speed_late.md,
 * "Exchanges bounded from the record").
 *
 * Made only when q's walk takes the lean steps (joint_walk_lean: no learned
 * parallel calls, no late call's timer, no late-response gap, no
 * open-ended requests, the direct tables built), none of the loss-serial,
 * late-count, thread or one-signature terms is on, and every call of the
 * list is a call of q's service (as joint_rsbound.c's).  Then a step's
 * term is logf_of(key of the cell (trigger's link, output's link),
 * output time - trigger's return) with the trigger the latest return
 * (by (time, pair), the walk's order) received by the output's time that
 * is not the step's own call's, or the arrival when there is none or it
 * is earlier (a request whose call was lost: the keys' means).  So with
 * the list's returns sorted (the record's r), every step's new term is
 * computed exactly:
 *  - co's own step is taken out: its term from the record's partial sums;
 *  - a step whose trigger was co, or that ci's return may trigger (sent at
 *    or after ci's return, ci's key later than its trigger's), gets its
 *    new trigger (the latest return by its time other than co and itself,
 *    or ci when later) and its exact term; every other step keeps its
 *    trigger and term;
 *  - ci's own step: its trigger the same way, its exact term;
 *  - the response: as a step, unless it is stamped before the latest
 *    output before or after the change (the late rule, joint_late.c):
 *    then at most the largest term of its column (joint_rsb_colmax);
 *  - the counts: co and ci of one link, the same counts;
 *  - the durations term: co taken out from between the whole calls on
 *    either side, ci put in between its neighbours (joint_corr_term; a
 *    term the record has, from its partial sums).
 * The order of first calls (added to the pair's value) is at most 0 (as
 * joint_rsbound.c).  The estimate is the walk's value up to the rounding
 * of two sums; the bound gets 1e-9 of the magnitudes for that and its own
 * rounding, and the search leaves the exchange out only when the sum of
 * both sides' bounds fails joint_prunable's test with twice its tolerance
 * (joint_search.c, as for the single moves).
 */
#include "joint_int.h"
#include "joint_rs.h"
#include <math.h>

#define NONE JOINT_NONE

int joint_rsx_test_off = 0;        /* tests: 1 no bound (every exchange estimated) */
int joint_rsx_test_check = 0;      /* tests: 1 the estimates made as well, compared */
size_t joint_rsx_test_bad = 0;     /* tests: bounds found below their estimate */
size_t joint_rsx_test_used = 0;    /* tests: bounds made (pairs of sides) */
size_t joint_rsx_test_skipped = 0; /* tests: exchanges left out by a bound */
double joint_rsx_test_bias = 0;    /* tests: nats added to every bound (negative: wrong) */
double joint_rsx_test_gap = 0;     /* tests: the largest bound - estimate seen (no late rule) */

static inline int rsx_tkey_gt(pb_ns ar, uint32_t ai, pb_ns br, uint32_t bi)
{
    return ar > br || (ar == br && ai > bi);
}

int joint_rsx_test_nostop = 0; /* tests: 1 every step from the first scanned (rsx_stop off) */
size_t joint_rsx_test_stops = 0; /* tests: scans ended early by rsx_stop */
int joint_rsx_test_stopwrong = 0; /* tests: 1 the stop blind to ci (wrong, on purpose) */

/* rsx_stop: does no step from i to the end have the trigger co (ro: co
 * returns at ror) or one ci's return (ri: at rir) is later than?  The
 * least trigger from step i on is (smr[i], smi[i]) (joint_model.c): when
 * it is above co's, no later trigger is co's; when ci's is not above it,
 * ci's is above none.  Steps past it keep their trigger and their term */
int joint_rsx_stop(const joint_wrec *ref, uint32_t i, int ro, pb_ns ror, uint32_t co, int ri,
                   pb_ns rir, uint32_t ci)
{
    if (joint_rsx_test_nostop)
        return 0;
    if (ro && !rsx_tkey_gt(ref->smr[i], ref->smi[i], ror, co))
        return 0;
    if (ri && !joint_rsx_test_stopwrong && rsx_tkey_gt(rir, ci, ref->smr[i], ref->smi[i]))
        return 0;
    joint_rsx_test_stops++;
    return 1;
}

/* the exact term of a step with output time t, output column ol, own call
 * self (NONE: the response) in q's list with co out and ci in; 0 and the
 * term, or 1 (a trigger of another service: no bound) */
static int rsx_term(const joint *s, uint32_t q, const joint_wrec *ref, pb_ns t, uint32_t ol,
                    uint32_t self, uint32_t co, uint32_t ci, size_t dbase, uint32_t no1,
                    double *tv)
{
    const jpair *qq = &s->pr[q];
    const uint32_t b = qq->callee;
    const int noarr = qq->call == NONE;
    const pb_ns arr = noarr ? INT64_MIN : qq->cr;
    /* the returns received by t: a prefix of the record's sorted ones */
    uint32_t lo = 0, hi = ref->nr;
    while (lo < hi) {
        uint32_t md = lo + (hi - lo) / 2;
        if (s->pr[ref->r[md]].rr <= t)
            lo = md + 1;
        else
            hi = md;
    }
    uint32_t tg = NONE;
    for (uint32_t j = lo; j-- > 0;)
        if (ref->r[j] != co && ref->r[j] != self) {
            tg = ref->r[j];
            break;
        }
    const jpair *pi = &s->pr[ci];
    if (pi->ret != NONE && ci != self && pi->rr <= t &&
        (tg == NONE || rsx_tkey_gt(pi->rr, ci, s->pr[tg].rr, tg)))
        tg = ci;
    pb_ns tt = tg == NONE ? arr : s->pr[tg].rr;
    if (tg != NONE && tt < arr)
        tt = arr, tg = NONE;
    uint32_t tl = 0;
    if (tg != NONE) {
        uint32_t L = s->pr[tg].link;
        if (s->link_src[L] != b)
            return 1;
        tl = 1 + s->link_local[L];
    }
    const uint32_t di = s->dk_key[dbase + (size_t)tl * no1 + ol];
    if (noarr && tg == NONE) {
        *tv = di == NONE ? s->bg - log(1e6) : s->kmean[di];
        return 0;
    }
    pb_ns d = t - tt;
    if (d < 0)
        d = 0;
    *tv = logf_of(s, di, d);
    return 0;
}

/* the place of call c in the record's list (in call order, ties by pair), or
 * where it would go when not in it */
static uint32_t rsx_place(const joint *s, const joint_wrec *ref, uint32_t c)
{
    const jpair *pc = &s->pr[c];
    uint32_t lo = 0, hi = ref->n;
    while (lo < hi) {
        uint32_t md = lo + (hi - lo) / 2;
        const jpair *y = &s->pr[ref->k[md]];
        if (y->cs < pc->cs || (y->cs == pc->cs && ref->k[md] < c))
            lo = md + 1;
        else
            hi = md;
    }
    return lo;
}

/* rsx_open: q's walk takes the lean walk's steps (the bound's terms)
 * though it is not lean only because re-pairing leaves requests
 * open-ended (qend): every other rule walk_lean drops is off for q's
 * service (joint_model.c's walk_is_lean, whose other tests these are), and
 * the walk's one test of qend is whether q's response is open-ended (its
 * return may move: joint_ret_movable), which the bound reads the same way
 * (open_end below, as joint_rsbound.c's).  Test hook: 1 the bound refuses
 * such requests, as before */
int joint_rsx_test_noopen = 0;
size_t joint_rsx_test_open = 0; /* tests: the bound's look-ups for such requests */
double joint_rsx_test_openbias = 0; /* tests: nats added to those requests' bounds (negative: wrong) */
size_t joint_rsx_test_openmade = 0; /* tests: bounds made for them */

/* 1 (lean), 2 (rsx_open) or 0 (no bound) */
static int rsx_walk_ok(const joint *s, uint32_t q)
{
    if (joint_walk_lean(s, q))
        return 1;
    if (joint_rsx_test_noopen || !s->p.walk_lean || !s->qend || s->npflag || !s->dk_off)
        return 0;
    const uint32_t b = s->pr[q].callee;
    if ((s->la_timer && s->la_timer[b]) || (s->late_gap && s->late_gap[b] >= 0))
        return 0;
    joint_rsx_test_open++;
    return 2;
}

static inline int rsx_whole(const joint *s, uint32_t c)
{
    return s->pr[c].call != NONE && s->pr[c].ret != NONE;
}

int joint_rsx_swap(joint *s, struct joint_rsb **R, uint32_t q, const joint_wrec *ref, uint32_t co,
                   uint32_t ci, int pure, double *ub)
{
    if (joint_rsx_test_off || joint_walk_test_force != 0)
        return 0;
    const jpair *qq = &s->pr[q], *po = &s->pr[co], *pi = &s->pr[ci];
    const uint32_t b = qq->callee, ein = qq->link;
    const int how = s->dk_off ? rsx_walk_ok(s, q) : 0;
    if (!how || s->lser_on || s->lc_on ||
        (s->p.thread_soft > 0 && s->thr && joint_thread_weighs(s, q)) ||
        (s->os_ein && s->os_ein[ein]) || !ref->valid || ref->q != q || ref->ncnt == 0 ||
        po->link != pi->link || s->link_src[po->link] != b)
        return 0;
    const uint32_t nout = s->out_off[b + 1] - s->out_off[b], no1 = nout + 1, n = ref->n;
    if (ref->ncnt != nout || n == 0)
        return 0;
    /* co's place in the list */
    uint32_t jo = rsx_place(s, ref, co);
    if (jo >= n || ref->k[jo] != co)
        return 0;
    const size_t dbase = s->dk_off[joint_kin(s, ein)];
    /* the walk's (lean: qend NULL; rsx_open: q's return may move) */
    const int open_end = (s->qend && joint_ret_movable(s, q)) || qq->ret == NONE;
    double v = ref->end + ref->ct, mag = 1.0 + fabs(ref->end) + fabs(ref->ct);
    /* co's own step out */
    {
        double old = ref->sum[jo + 1] - ref->sum[jo];
        v -= old;
        mag += fabs(old);
    }
    /* the response stamped before the latest output, before or after */
    const int late = !open_end && (ref->mx[n] > qq->rs || (pi->call != NONE && pi->cs > qq->rs));
    if (late) {
        double w = 0;
        if (!joint_rsb_colmax(s, R, q, nout, &w))
            return 0;
        double old = ref->end - ref->sum[n];
        if (w > old)
            v += w - old;
        mag += fabs(w) + fabs(old);
    }
    /* the steps whose trigger may change: sent at or after the earlier of
     * co's and ci's returns */
    const int ro = po->ret != NONE, ri = pi->ret != NONE;
    if (ro || ri) {
        pb_ns t0 = ro && ri ? (po->rr < pi->rr ? po->rr : pi->rr) : ro ? po->rr : pi->rr;
        uint32_t lo = 0, hi = n;
        while (lo < hi) {
            uint32_t md = lo + (hi - lo) / 2;
            if (s->pr[ref->k[md]].cs < t0)
                lo = md + 1;
            else
                hi = md;
        }
        for (uint32_t i = lo; i <= n; i++) {
            /* rsx_stop (speed only): no step from i on has co as its
             * trigger, nor one earlier than ci's return (the least
             * trigger from i on, the record's smr/smi): none changes,
             * their terms are the record's */
            if (joint_rsx_stop(ref, i, ro, po->rr, co, ri, pi->rr, ci)) {
                /* the steps left keep their terms; a call of another
                 * service among them still refuses the bound, as the
                 * scan did (the same bounds made; pure: the list has
                 * none) */
                for (uint32_t j = i; !pure && j < n; j++) {
                    const jpair *px = &s->pr[ref->k[j]];
                    if (ref->k[j] != co && px->call != NONE && s->link_src[px->link] != b)
                        return 0;
                }
                break;
            }
            if (i == n && (open_end || late))
                break;
            pb_ns t;
            uint32_t ol, self;
            if (i < n) {
                const uint32_t x = ref->k[i];
                const jpair *px = &s->pr[x];
                if (x == co || px->call == NONE)
                    continue;
                if (s->link_src[px->link] != b)
                    return 0;
                t = px->cs;
                ol = s->link_local[px->link];
                self = x;
            } else {
                t = qq->rs;
                ol = nout;
                self = NONE;
            }
            const int was_co = ro && ref->tki[i] == co && ref->tkr[i] == po->rr;
            const int by_ci = ri && pi->rr <= t && rsx_tkey_gt(pi->rr, ci, ref->tkr[i], ref->tki[i]);
            if (!was_co && !by_ci)
                continue; /* the same trigger: the same term */
            double w;
            if (rsx_term(s, q, ref, t, ol, self, co, ci, dbase, no1, &w))
                return 0;
            double old = (i < n ? ref->sum[i + 1] : ref->end) - ref->sum[i];
            v += w - old;
            mag += fabs(w) + fabs(old);
        }
    }
    /* ci's own step */
    if (pi->call != NONE) {
        double w;
        if (rsx_term(s, q, ref, pi->cs, s->link_local[pi->link], ci, co, ci, dbase, no1, &w))
            return 0;
        v += w;
        mag += fabs(w);
    }
    /* the durations term: a whole call's term in the record (with the whole
     * call before it) is the difference of the record's partial sums */
    if (s->corr_on && (!s->corr_svc || s->corr_svc[b])) {
        const double *cp = ref->cp;
        v += cp[n];
        mag += fabs(cp[n]);
        uint32_t px = NONE, xi = NONE; /* co's whole neighbours (x's place) */
        double t0 = 0;
        if (rsx_whole(s, co)) {
            for (uint32_t i = jo; i-- > 0;)
                if (rsx_whole(s, ref->k[i])) {
                    px = ref->k[i];
                    break;
                }
            for (uint32_t i = jo + 1; i < n; i++)
                if (rsx_whole(s, ref->k[i])) {
                    xi = i;
                    break;
                }
            double t1 = px != NONE ? cp[jo + 1] - cp[jo] : 0;
            double t2 = xi != NONE ? cp[xi + 1] - cp[xi] : 0;
            t0 = px != NONE && xi != NONE ? joint_corr_term(s, ein, px, ref->k[xi]) : 0;
            v += t0 - t1 - t2;
            mag += fabs(t1) + fabs(t2) + fabs(t0) + fabs(cp[jo]) + fabs(cp[jo + 1]) +
                   (xi != NONE ? fabs(cp[xi]) + fabs(cp[xi + 1]) : 0);
        }
        if (rsx_whole(s, ci)) {
            uint32_t at = rsx_place(s, ref, ci), p = NONE, x = NONE, xj = NONE;
            for (uint32_t i = at; i-- > 0;)
                if (ref->k[i] != co && rsx_whole(s, ref->k[i])) {
                    p = ref->k[i];
                    break;
                }
            for (uint32_t i = at; i < n; i++)
                if (ref->k[i] != co && rsx_whole(s, ref->k[i])) {
                    x = ref->k[i];
                    xj = i;
                    break;
                }
            double t1 = p != NONE ? joint_corr_term(s, ein, p, ci) : 0;
            double t2 = x != NONE ? joint_corr_term(s, ein, ci, x) : 0;
            double tpx = 0;
            if (p != NONE && x != NONE) {
                /* p, x neighbours in the list without co: x's term in the
                 * record, or (co whole between them) the one found above */
                if (rsx_whole(s, co) && p == px && xj == xi) {
                    tpx = t0;
                } else {
                    tpx = cp[xj + 1] - cp[xj];
                    mag += fabs(cp[xj]) + fabs(cp[xj + 1]);
                }
            }
            v += t1 + t2 - tpx;
            mag += fabs(t1) + fabs(t2) + fabs(tpx);
        }
    }
    if (isnan(v))
        return 0;
    *ub = v + 1e-9 * mag + joint_rsx_test_bias;
    if (how == 2) { /* tests: rsx_open's bounds */
        joint_rsx_test_openmade++;
        *ub += joint_rsx_test_openbias;
    }
    return 1;
}
