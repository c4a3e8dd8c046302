/*
 * joint_model.c - joint: the likelihood (triggers, delay densities per
 * (incoming endpoint, trigger, output), call counts, order of service) and
 * the walks of one request that score it; the fit is joint_modelfit.c
 * (docs/joint/model.md, "The model").
 */
#include "joint_int.h"
#include "joint_rules.h"
#include "joint_rs.h"
#include "pb_mem.h"
#include "pb_hash.h"
#include "joint_smooth.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

#define NONE JOINT_NONE

/* ------------------------------------------------------------------ */
/* 3. the model */

/* s->scratch holds at least n entries (grown by doubling; its contents are
 * not kept).  PB_OK or PB_ENOMEM */
static inline int scratch_reserve(joint *s, uint32_t n)
{
    if (n <= s->scratchcap)
        return PB_OK;
    uint32_t nc = s->scratchcap ? s->scratchcap : 16;
    while (nc < n)
        nc *= 2;
    uint32_t *a = realloc(s->scratch, (size_t)nc * sizeof *a);
    if (!a)
        return PB_ENOMEM;
    s->scratch = a;
    s->scratchcap = nc;
    return PB_OK;
}

/* the returns of k[0..n) (lost ones left out) sorted by (time received,
 * pair) into s->scratch; *nr their count.  When rp0 > 0, the first rp0 of
 * them are known: p0[0..rp0), every return received by mx0 (and only
 * those); the others are sorted after them.  PB_OK or PB_ENOMEM */
/* inlined in each caller: joint_req_walk gets the plain walk back */
static inline __attribute__((always_inline)) int walk_returns(joint *s, const uint32_t *k, uint32_t n, const uint32_t *p0,
                        uint32_t rp0, pb_ns mx0, uint32_t *nrp)
{
    /* returns sorted by return time (insertion sort: n is small) */
    if (scratch_reserve(s, n) != PB_OK)
        return PB_ENOMEM;
    uint32_t *r = s->scratch, nr = rp0;
    if (rp0)
        memcpy(r, p0, (size_t)rp0 * sizeof *r);
    for (uint32_t i = 0; i < n; i++) {
        if (s->pr[k[i]].ret == NONE)
            continue; /* its return was lost: no input */
        if (rp0 && s->pr[k[i]].rr <= mx0)
            continue; /* among the known ones */
        uint32_t j = nr++;
        while (j > rp0 && (s->pr[r[j - 1]].rr > s->pr[k[i]].rr ||
                         (s->pr[r[j - 1]].rr == s->pr[k[i]].rr && r[j - 1] > k[i]))) {
            r[j] = r[j - 1];
            j--;
        }
        r[j] = k[i];
    }
    *nrp = nr;
    return PB_OK;
}

/* The steps of the walk of request q with kids k[0..n) (step i < n: the
 * output k[i], step n: the response), returns r[0..nr) as walk_returns
 * sorts them, from step i0 on with the state before it: the sum so far,
 * the returns taken (rp; the latest two are r[rp - 1], r[rp - 2]) and the
 * latest output time seen (mx).  rec, when not NULL, gets the state
 * before every step from i0 to n (its arrays hold n + 1).  *sump: the sum
 * after the last step.  PB_OK or PB_ENOMEM (mode 1) */
/* An estimating walk's stop (joint_req_walk_estimate): from step `from` on
 * (the common suffix of the two lists), the record's step j = i + ref->n - n
 * makes the same output; when the latest output time is the same there and
 * every trigger of the record from step j on is later than (dr, di), the
 * latest return of a call in one list and not the other (anyd: there is
 * one), the record's remaining steps are the same terms. */
typedef struct wsync {
    const joint_wrec *ref;
    uint32_t from, di;
    pb_ns dr;
    int anyd, hit;
    int exact;              /* conf_sync: add the record's terms one by one */
    joint_xtail *tail;      /* swap_tail_tree (joint_xtail.c): with exact, that same
                               sum from the record's trees (NULL: one by one) */
} wsync;

int joint_sync_test_drop = 0;

static inline int tkey_gt(pb_ns ar, uint32_t ai, pb_ns br, uint32_t bi)
{
    return ar > br || (ar == br && ai > bi);
}

/* walk_lean: whether the walk of request q may drop the checks of the
 * rules that cannot fire on it (walk_steps' lean): no learned parallel
 * calls (npflag: no return is skipped as a sibling's, so the trigger is the
 * latest other return, as without them), no late call's send as a trigger
 * of q's service (la_timer), no late response's own trigger there
 * (late_gap), no open-ended requests of re-pairing (qend), and the direct
 * key tables built (dk_off).  Read at every walk, not cached: the fit
 * learns parallel calls and the rules set their arrays as the run goes
 * on, so the choice always follows the state the walk reads.  Test hook:
 * joint_walk_test_force 1 takes the lean steps whatever the state (a
 * wrong selection the tests must catch), 0 the state's choice */
int joint_walk_test_force = 0;

static inline int walk_is_lean(const joint *s, uint32_t q)
{
    if (!s->p.walk_lean)
        return 0;
    if (joint_walk_test_force == 1)
        return s->dk_off != NULL;
    const uint32_t b = s->pr[q].callee;
    return !s->npflag && !s->qend && s->dk_off && (!s->la_timer || !s->la_timer[b]) &&
           (!s->late_gap || s->late_gap[b] < 0);
}

int joint_walk_lean(const joint *s, uint32_t q)
{
    return walk_is_lean(s, q);
}

static inline __attribute__((always_inline)) int walk_steps(joint *s, uint32_t q, const uint32_t *k, uint32_t n, const uint32_t *r,
                      uint32_t nr, int mode, uint32_t i0, double sum, uint32_t rp, pb_ns mx,
                      joint_wrec *rec, const int terms, wsync *sy, const int lean,
                      double *sump)
{
    /* lean (a constant at every call, walk_lean): the rules whose checks
     * it drops cannot fire on this walk (walk_is_lean), so the steps are
     * the very same terms without those checks */
    /* terms (a constant at every call: no cost to the walks without it):
     * rec->term[] is filled (conf_sync) */
    const jpair *qq = &s->pr[q];
    /* the density keys of its link (of its service, when the service's
     * callers are pooled: joint_select.c) */
    uint32_t ein = joint_kin(s, qq->link), b = qq->callee;
    /* its call was lost: no arrival; an output the arrival triggered
     * scores the expected log density of its key (and is not learned) */
    int noarr = qq->call == NONE;
    pb_ns arr = noarr ? INT64_MIN : qq->cr;
    /* latest two returns taken */
    uint32_t last = rp >= 1 ? r[rp - 1] : NONE, prev = rp >= 2 ? r[rp - 2] : NONE;
    /* open-ended (re-pairing): the response is not known yet */
    int open_end = lean ? qq->ret == NONE
                        : (s->qend && joint_ret_movable(s, q)) || qq->ret == NONE;
    /* the direct key table of this request's link (joint_dk_cell, its
     * terms computed once): cells base + tl * no1 + ol */
    const uint32_t nout = s->out_off[b + 1] - s->out_off[b], no1 = nout + 1;
    const size_t dbase = lean || s->dk_off ? s->dk_off[ein] : 0;
    for (uint32_t i = i0; i <= n; i++) {
        if (rec) {
            rec->sum[i] = sum;
            rec->rp[i] = rp;
            rec->mx[i] = mx;
            rec->tkr[i] = INT64_MAX;
            rec->tki[i] = NONE;
            if (terms)
                rec->term[i] = 0;
        }
        if (i == n && open_end)
            break;
        if (i < n && s->pr[k[i]].call == NONE)
            continue; /* its call was lost: no output */
        pb_ns t = i < n ? s->pr[k[i]].cs : qq->rs;
        if (sy && i >= sy->from) {
            /* the rest is the record's (wsync) */
            const joint_wrec *rf = sy->ref;
            uint32_t j = i + rf->n - n;
            pb_ns m1 = mx > t ? mx : t, m2 = rf->mx[j] > t ? rf->mx[j] : t;
            if (m1 == m2 && (!sy->anyd || tkey_gt(rf->smr[j], rf->smi[j], sy->dr, sy->di))) {
                if (sy->exact) {
                    /* the same terms in the same order: the same sum */
                    uint32_t e = rf->n + 1 - (joint_sync_test_drop == 1);
                    if (sy->tail) /* the same sum, bit for bit (joint_xtail.c) */
                        sum = joint_xtail_sum(sy->tail, rf, j, e, sum);
                    else
                        for (uint32_t z = j; z < e; z++)
                            sum += rf->term[z];
                } else {
                    sum += rf->end - rf->sum[j];
                }
                sy->hit = 1;
                break;
            }
        }
        uint32_t self = i < n ? k[i] : NONE;
        if (t > mx)
            mx = t;
        if (sy && s->p.swap_ties && nr - rp > 16 && s->pr[r[rp + 16]].rr <= t) {
            /* swap_ties: a long run of returns taken at once (an exchange
             * resumed at the response of a request with N calls) by a
             * binary search; the same two latest as the loop below */
            uint32_t lo = rp + 17, hi = nr;
            while (lo < hi) {
                uint32_t m = lo + (hi - lo) / 2;
                if (s->pr[r[m]].rr <= t)
                    lo = m + 1;
                else
                    hi = m;
            }
            prev = r[lo - 2];
            last = r[lo - 1];
            rp = lo;
        }
        while (rp < nr && s->pr[r[rp]].rr <= t) {
            prev = last;
            last = r[rp++];
        }
        uint32_t outl0 = i < n ? s->pr[k[i]].link : s->nlinks;
        /* the output's column in the direct tables, or NONE */
        uint32_t ol = !lean && !s->dk_off ? NONE : outl0 == s->nlinks ? nout
                      : s->link_src[outl0] == b ? s->link_local[outl0] : NONE;
        uint32_t tg = last == self ? prev : last;
        if (!lean && s->npar && i < n) {
            /* the latest earlier return that is no parallel sibling
             * (joint_par_skip, its cell computed here when it has one) */
            tg = NONE;
            for (uint32_t j = rp; j-- > 0;) {
                if (r[j] == self)
                    continue;
                uint32_t L = s->pr[r[j]].link, h;
                int skip;
                if (ol != NONE && s->link_src[L] == b) {
                    h = s->dk_par[dbase + (size_t)(1 + s->link_local[L]) * no1 + ol];
                    skip = h != NONE && s->pflag[h];
                } else {
                    skip = joint_par_skip(s, ein, L, outl0);
                }
                if (!skip) {
                    tg = r[j];
                    break;
                }
            }
        }
        const int timer = !lean && s->la_timer && s->la_timer[b] && !open_end;
        if (i == n && (t < mx || (!lean && s->late_gap && s->late_gap[b] >= 0 && !timer)))
            tg = joint_late_resp_trigger(s, b, r, nr, t); /* joint_late.c */
        pb_ns tt = tg == NONE ? arr : s->pr[tg].rr;
        if (tg != NONE && tt < arr)
            tt = arr, tg = NONE;
        uint32_t trig = tg == NONE ? 0 : 1 + s->pr[tg].link;
        if (timer) {
            /* the send of a call that outlives the request, when later
             * than the trigger (joint_lateattach.c) */
            uint32_t tm = joint_la_timer_of(s, q, k, i, t);
            if (tm != NONE && s->pr[tm].cs > tt && !(noarr && tg == NONE)) {
                tg = tm;
                tt = s->pr[tm].cs;
                trig = 1 + s->nlinks + s->pr[tm].link;
            }
        }
        uint32_t outl = outl0;
        if (rec) {
            rec->tkr[i] = tg == NONE || trig > s->nlinks ? INT64_MIN : s->pr[tg].rr;
            rec->tki[i] = tg == NONE ? 0 : tg;
        }
        /* no arrival and no trigger: tt is INT64_MIN and d unused */
        pb_ns d = noarr && tg == NONE ? 0 : t - tt;
        if (d < 0)
            d = 0; /* a response stamped before its trigger (joint_late.c) */
        uint32_t di;
        size_t cell = SIZE_MAX;
        if (lean || s->dk_off) {
            /* a late call's send (trig > nlinks: joint_lateattach.c) has no cell */
            uint32_t tl = trig == 0 ? 0 : trig > s->nlinks ? NONE : s->link_src[trig - 1] == b
                                              ? 1 + s->link_local[trig - 1] : NONE;
            if (tl != NONE && ol != NONE)
                cell = dbase + (size_t)tl * no1 + ol;
        }
        di = cell != SIZE_MAX ? s->dk_key[cell]
                              : joint_hmap_get(&s->keymap, dkey(ein, trig, outl));
        if (mode == 0) {
            double tv = noarr && tg == NONE ? (di == NONE ? s->bg - log(1e6) : s->kmean[di])
                                            : logf_of(s, di, d);
            sum += tv;
            if (terms)
                rec->term[i] = tv; /* conf_sync */
        } else if (noarr && tg == NONE) {
            /* mode 1: no arrival and no trigger, nothing learned */
        } else {
            if (di == NONE) {
                di = s->nkeys;
                /* the per-key arrays hold the next power of two of nkeys
                 * keys: they grow when nkeys reaches one (one key more at
                 * a time copied them all, every time); with fit_fast they
                 * keep their room when the model is reset (joint_select),
                 * and grow only beyond it (keycap) */
                if (s->p.fit_fast ? di >= s->keycap : (di & (di - 1)) == 0) {
                    size_t cap = di ? 2 * (size_t)di : 1;
                    /* hist and logf: rows by range (joint_mrow.c) */
                    if (joint_mrow_keys(s, (uint32_t)cap) != PB_OK)
                        return PB_ENOMEM;
                    double *km = realloc(s->kmean, cap * sizeof *km);
                    if (!km)
                        return PB_ENOMEM;
                    s->kmean = km;
                    double *st = realloc(s->kstat, cap * 3 * sizeof *st);
                    if (!st)
                        return PB_ENOMEM;
                    s->kstat = st;
                    uint32_t *lo = realloc(s->hlo, cap * sizeof *lo);
                    if (!lo)
                        return PB_ENOMEM;
                    s->hlo = lo;
                    uint32_t *hi = realloc(s->hhi, cap * sizeof *hi);
                    if (!hi)
                        return PB_ENOMEM;
                    s->hhi = hi;
                    s->keycap = (uint32_t)cap;
                }
                joint_mrow_newkey(s, di); /* no count, no density yet */
                s->hlo[di] = s->nb;
                s->hhi[di] = 0;
                s->kmean[di] = s->bg - log(1e6);
                double *st = s->kstat;
                st[3 * di] = st[3 * di + 1] = st[3 * di + 2] = 0;
                s->nkeys++;
                int rc = joint_hmap_put(&s->keymap, dkey(ein, trig, outl), di);
                if (rc != PB_OK)
                    return rc;
                if (cell != SIZE_MAX)
                    s->dk_key[cell] = di;
            }
            /* one logarithm for the bin and the sums (dbin's own) */
            double x = log10((double)d < s->dmin ? s->dmin : (double)d);
            uint32_t bn = dbin_x(s, x);
            /* a delay of 1..tiJ whole ticks: spread over its interval
             * (joint_tickivl.c) */
            uint32_t tj = s->tiJ && d > 0 && d % s->tick == 0 && d / s->tick <= s->tiJ
                              ? (uint32_t)(d / s->tick) : 0;
            if (tj) {
                joint_tickivl_add(s, di, tj);
            } else {
                *joint_hist_cell(s, di, bn) += 1.0;
                if (bn < s->hlo[di])
                    s->hlo[di] = bn;
                if (bn > s->hhi[di])
                    s->hhi[di] = bn;
            }
            if (joint_mrow_failed(s))
                return PB_ENOMEM; /* a row's growth (joint_mrow.c) */
            s->kstat[3 * di] += 1;
            s->kstat[3 * di + 1] += x;
            s->kstat[3 * di + 2] += x * x;
            if (s->t0obs && joint_tick0_count(s, q, di, bn) != PB_OK)
                return PB_ENOMEM; /* zero-tick delays observed (joint_tick0.c) */
            if (s->fflog) /* fit_fast: the refit's walk recorded (joint_fitfast.c) */
                joint_ff_log(s, tj ? 3 : 0, di, tj ? tj : bn, x);
        }
    }
    *sump = sum;
    return PB_OK;
}

/* the parallel-call counts' cell of (ein, c's link lc, o's link lo),
 * created (zero) the first time; PB_OK or PB_ENOMEM */
static int par_cell(joint *s, uint32_t ein, uint32_t lc, uint32_t lo, uint32_t *hp)
{
    uint64_t key = dkey(joint_kin(s, ein), 1 + lc, lo);
    size_t pc = joint_dk_cell(s, ein, 1 + lc, lo);
    uint32_t h = pc != SIZE_MAX ? s->dk_par[pc] : joint_hmap_get(&s->parmap, key);
    if (h == NONE) {
        if (s->npar == s->parcap) {
            uint32_t nc = s->parcap ? 2 * s->parcap : 64;
            double *a = realloc(s->pov, nc * sizeof *a);
            if (!a)
                return PB_ENOMEM;
            s->pov = a;
            a = realloc(s->pse, nc * sizeof *a);
            if (!a)
                return PB_ENOMEM;
            s->pse = a;
            unsigned char *f = realloc(s->pflag, nc);
            if (!f)
                return PB_ENOMEM;
            s->pflag = f;
            s->parcap = nc;
        }
        h = s->npar;
        s->pov[h] = s->pse[h] = 0;
        s->pflag[h] = 0;
        int rc = joint_hmap_put(&s->parmap, key, h);
        if (rc != PB_OK)
            return rc;
        if (pc != SIZE_MAX)
            s->dk_par[pc] = h;
        s->npar++;
    }
    *hp = h;
    return PB_OK;
}

/* the parallel-call counts of one request, pair by pair (O(n^2)): for
 * calls c before o in k (c sent strictly first, c's return known), c's
 * return after o is sent counts as an overlap of (c's link, o's link),
 * else as a separate pair.  PB_OK or PB_ENOMEM */
static int par_pairs(joint *s, uint32_t ein, const uint32_t *k, uint32_t n)
{
    const pb_ns tt = joint_partie_tick(s); /* par_tie (joint_partie.c), 0 off */
    for (uint32_t i = 0; i < n; i++) {
        const jpair *o = &s->pr[k[i]];
        if (o->call == NONE)
            continue;
        for (uint32_t j = 0; j < i; j++) { /* k is sorted by call time */
            const jpair *c = &s->pr[k[j]];
            if (c->ret == NONE || c->call == NONE || c->cs >= o->cs)
                continue;
            uint32_t h;
            int rc = par_cell(s, ein, c->link, o->link, &h);
            if (rc != PB_OK)
                return rc;
            if (tt && joint_partie_same(c->rr, o->cs, tt)) {
                s->par_ties++; /* tied in one tick: neither */
                continue;
            }
            int ov = c->rr > o->cs;
            s->pov[h] += ov;
            s->pse[h] += !ov;
            s->par_adds++;
            if (s->fflog)
                joint_ff_log(s, 1, h, (uint32_t)ov, !ov);
        }
    }
    return PB_OK;
}

uint32_t joint_par_sweep_min = 64;

/* a min-heap of the returns of the calls sent so far that come after the
 * last call sent: (return time, local link) */
typedef struct {
    pb_ns t;
    uint32_t l;
} par_ev;

static void par_heap_push(par_ev *hp, uint32_t *nh, par_ev e)
{
    uint32_t i = (*nh)++;
    while (i && hp[(i - 1) / 2].t > e.t) {
        hp[i] = hp[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    hp[i] = e;
}

static par_ev par_heap_pop(par_ev *hp, uint32_t *nh)
{
    par_ev top = hp[0], e = hp[--*nh];
    uint32_t i = 0, m = *nh;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= m)
            break;
        if (c + 1 < m && hp[c + 1].t < hp[c].t)
            c++;
        if (hp[c].t >= e.t)
            break;
        hp[i] = hp[c];
        i = c;
    }
    if (m)
        hp[i] = e;
    return top;
}

/* par_pairs' counts in O(n log n + n L) time and O(n + L^2) memory, L the
 * request's links: a sweep over the calls in k's order; before call o
 * (sent at x) every call c sent before x is in (each link's count), and
 * the heap holds the returns of those after x (each link's overlaps: a
 * return at or before x leaves the heap for good, x only grows).  The
 * counts are integers, so adding them per (c's link, o's link) instead of
 * pair by pair gives the same doubles; cells are created in par_pairs'
 * order (per o, c's links in the order of their first call) and each
 * logged once (joint_ff_log: overlaps, separate pairs).  Returns 1 when
 * it does not apply (k not sorted by call time, more than 256 links):
 * par_pairs then counts; else PB_OK or PB_ENOMEM */
static int par_sweep(joint *s, uint32_t ein, const uint32_t *k, uint32_t n)
{
    enum { LMAX = 256 };
    pb_ns last = 0;
    int any = 0;
    for (uint32_t i = 0; i < n; i++) {
        const jpair *o = &s->pr[k[i]];
        if (o->call == NONE)
            continue;
        if (any && o->cs < last)
            return 1; /* par_pairs' "c sent first" is not a prefix */
        last = o->cs;
        any = 1;
    }
    uint32_t lk[LMAX], nl = 0;
    uint32_t *loc = malloc((size_t)n * sizeof *loc);
    par_ev *hp = malloc((size_t)n * sizeof *hp);
    if (!loc || !hp) {
        free(loc);
        free(hp);
        return PB_ENOMEM;
    }
    for (uint32_t i = 0; i < n; i++) {
        const jpair *o = &s->pr[k[i]];
        uint32_t j = 0;
        while (j < nl && lk[j] != o->link)
            j++;
        if (j == nl) {
            if (nl == LMAX) {
                free(loc);
                free(hp);
                return 1;
            }
            lk[nl++] = o->link;
        }
        loc[i] = j;
    }
    /* per local link: calls in (ord: in the order of their first call),
     * their returns after x; per (c's, o's) local link: the counts and
     * the cell */
    uint32_t in[LMAX] = {0}, act[LMAX] = {0}, ord[LMAX], nord = 0, nh = 0;
    double *ov = calloc((size_t)nl * nl * 2, sizeof *ov);
    uint32_t *cell = malloc((size_t)nl * nl * sizeof *cell);
    uint32_t *touch = malloc((size_t)nl * nl * sizeof *touch), ntouch = 0;
    int rc = ov && cell && touch ? PB_OK : PB_ENOMEM;
    /* par_tie (joint_partie.c): per link, the calls in whose return is at
     * or after the start b of x's tick (heap hb) and at or after its end
     * (heap hT); those between are tied with x.  b only grows with x */
    const pb_ns tt = joint_partie_tick(s);
    uint32_t cb[LMAX] = {0}, cT[LMAX] = {0}, nb = 0, nT = 0;
    par_ev *hb = NULL, *hT = NULL;
    unsigned char *made = NULL;
    if (tt && rc == PB_OK) {
        hb = malloc((size_t)n * sizeof *hb);
        hT = malloc((size_t)n * sizeof *hT);
        made = calloc((size_t)nl * nl, 1);
        if (!hb || !hT || !made)
            rc = PB_ENOMEM;
    }
    for (uint32_t i = 0, p = 0; i < n && rc == PB_OK; i++) {
        const jpair *o = &s->pr[k[i]];
        if (o->call == NONE)
            continue;
        const pb_ns x = o->cs;
        const pb_ns b0 = tt ? (x / tt - (x % tt != 0 && x < 0)) * tt : 0;
        for (; p < i; p++) { /* the calls sent before x (k sorted) */
            const jpair *c = &s->pr[k[p]];
            if (c->call == NONE)
                continue;
            if (c->cs >= x)
                break;
            if (c->ret == NONE)
                continue;
            uint32_t l = loc[p];
            if (!in[l]++)
                ord[nord++] = l;
            if (tt) {
                if (c->rr >= b0) {
                    cb[l]++;
                    par_heap_push(hb, &nb, (par_ev){c->rr, l});
                }
                if (c->rr >= b0 + tt) {
                    cT[l]++;
                    par_heap_push(hT, &nT, (par_ev){c->rr, l});
                }
            } else if (c->rr > x) {
                act[l]++;
                par_heap_push(hp, &nh, (par_ev){c->rr, l});
            }
        }
        while (nh && hp[0].t <= x)
            act[par_heap_pop(hp, &nh).l]--;
        if (tt) {
            while (nb && hb[0].t < b0)
                cb[par_heap_pop(hb, &nb).l]--;
            while (nT && hT[0].t < b0 + tt)
                cT[par_heap_pop(hT, &nT).l]--;
        }
        for (uint32_t r = 0; r < nord && rc == PB_OK; r++) {
            uint32_t l = ord[r];
            size_t e = (size_t)l * nl + loc[i];
            if (tt) {
                if (!made[e]) {
                    made[e] = 1;
                    rc = par_cell(s, ein, lk[l], o->link, &cell[e]);
                    touch[ntouch++] = (uint32_t)e;
                }
                ov[2 * e] += cT[l];
                ov[2 * e + 1] += in[l] - cb[l];
                s->par_ties += cb[l] - cT[l];
                continue;
            }
            if (ov[2 * e] == 0 && ov[2 * e + 1] == 0) {
                rc = par_cell(s, ein, lk[l], o->link, &cell[e]);
                touch[ntouch++] = (uint32_t)e;
            }
            ov[2 * e] += act[l];
            ov[2 * e + 1] += in[l] - act[l];
        }
    }
    for (uint32_t r = 0; r < ntouch && rc == PB_OK; r++) {
        size_t e = touch[r];
        uint32_t h = cell[e];
        s->pov[h] += ov[2 * e];
        s->pse[h] += ov[2 * e + 1];
        s->par_adds++;
        /* the overlaps in parts that fit the record's 32 bits */
        for (double v = ov[2 * e], se = ov[2 * e + 1]; s->fflog; se = 0) {
            uint32_t part = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
            joint_ff_log(s, 1, h, part, se);
            v -= part;
            if (v == 0)
                break;
        }
    }
    if (rc == PB_OK)
        s->par_sweeps++;
    free(loc);
    free(hp);
    free(ov);
    free(cell);
    free(touch);
    free(hb);
    free(hT);
    free(made);
    return rc;
}

/* what follows the steps of a walk (joint_req_walk): in mode 1 the
 * parallel-call statistics; the call counts and the durations of
 * consecutive calls (added to *sump in mode 0).  PB_OK or PB_ENOMEM */
/* sref (conf_sync, mode 0, rec NULL): the durations term from that record,
 * whose list agrees with k on its first j0 and last cs calls
 * (joint_corr_ll_sync: the same number) */
/* same_list (joint_xwalk.c): k is sref's list (the same calls, only
 * returns exchanged), so the calls per outgoing link are sref's counts */
static inline __attribute__((always_inline)) int walk_rest(joint *s, uint32_t q, const uint32_t *k, uint32_t n, int mode,
                     double *sump, joint_wrec *rec, const joint_wrec *sref, uint32_t j0,
                     uint32_t cs, int same_list)
{
    const jpair *qq = &s->pr[q];
    uint32_t ein = qq->link, b = qq->callee;
    double sum = *sump;
    /* parallel calls: for every two calls c, o of the request, c sent
     * first, does c's return come after o is sent (overlap)?  Many calls
     * sorted by call time: the same counts by a sweep (par_sweep) */
    if (mode == 1 && s->p.parallel < 1) {
        int rc = n >= joint_par_sweep_min ? par_sweep(s, ein, k, n) : 1;
        if (rc == 1)
            rc = par_pairs(s, ein, k, n);
        if (rc != PB_OK)
            return rc;
    }
    /* call counts per outgoing link of this service */
    uint32_t no = s->out_off[b + 1] - s->out_off[b];
    if (rec) {
        /* the record keeps the counts (the estimates start from them) */
        if (no > rec->cntcap) {
            uint32_t *a = realloc(rec->cnt, (size_t)no * sizeof *a);
            if (!a)
                return PB_ENOMEM;
            rec->cnt = a;
            rec->cntcap = no;
        }
        rec->ncnt = no;
    }
    double ct = 0;
    if (no) {
        uint32_t *c = s->ccount;
        if (same_list && sref->ncnt == no)
            memcpy(c, sref->cnt, (size_t)no * sizeof *c);
        else
            for (uint32_t i = 0; i < n; i++) {
                uint32_t l = s->pr[k[i]].link;
                if (s->link_src[l] == b)
                    c[s->link_local[l]]++;
            }
        size_t base = s->cnt_off[ein];
        /* the set of calls as one signature (joint_oset.c): replaces the
         * per-link terms */
        const int os = s->os_ein && s->os_ein[ein];
        double ot = 0;
        if (os && joint_os_walk(s, ein, c, no, mode, &ot) != PB_OK)
            return PB_ENOMEM;
        for (uint32_t j = 0; j < no; j++) {
            uint32_t cj = c[j] > JOINT_KMAX ? JOINT_KMAX : c[j];
            if (mode == 0) {
                if (!os)
                    sum += s->cntlp[base + (size_t)j * (JOINT_KMAX + 1) + cj];
            } else {
                s->cnt[base + (size_t)j * (JOINT_KMAX + 1) + cj] += 1.0;
                if (s->fflog)
                    joint_ff_log(s, 2, (uint32_t)(base + (size_t)j * (JOINT_KMAX + 1) + cj), 0, 0);
            }
            if (rec) {
                rec->cnt[j] = c[j];
                ct += s->cntlp[base + (size_t)j * (JOINT_KMAX + 1) + cj];
            }
            c[j] = 0;
        }
        if (os) {
            if (mode == 0)
                sum += ot;
            ct = ot;
        }
    }
    if (rec)
        rec->ct = ct;
    if (s->lc_on && joint_lc_walk(s, q, k, n, mode, &sum) != PB_OK) /* joint_latecount.c */
        return PB_ENOMEM;
    if (s->lser_on && mode == 0) /* loss_serial (joint_lserial.c; learned in joint_fit) */
        sum += joint_lser_ll(s, k, n);
    if (s->p.thread_soft > 0 && s->thr && mode == 0) /* thread_soft (joint_thread.c) */
        sum += joint_thread_ll(s, q, k, n);
    if (s->corr_on && (!s->corr_svc || s->corr_svc[b])) {
        if (mode == 0)
            sum += rec    ? joint_corr_ll_rec(s, ein, k, n, rec->cp,
                                              rec->want_term ? rec->cterm : NULL)
                   : sref ? joint_corr_ll_sync(s, ein, k, n, j0, cs, sref->n, sref->cp,
                                               sref->cterm)
                          : joint_corr_ll(s, ein, k, n);
        else if (joint_corr_add(s, q, ein, k, n) != PB_OK)
            return PB_ENOMEM;
    }
    *sump = sum;
    return PB_OK;
}

/* walk_rest's value (mode 0) for the list k[0..n) that agrees with the
 * record ref's list on its first j0 and last cs calls, up to the rounding
 * of the sums, in O(calls in between + outgoing links): the counts are
 * the record's with the two middles' calls taken out and put in, the
 * durations term from the record's partial sums (joint_corr_ll_est) */
static inline __attribute__((always_inline)) void walk_rest_est(joint *s, uint32_t q, const uint32_t *k, uint32_t n,
                                                                 const joint_wrec *ref, uint32_t j0, uint32_t cs,
                                                                 double *sump)
{
    const jpair *qq = &s->pr[q];
    uint32_t ein = qq->link, b = qq->callee;
    double sum = *sump;
    uint32_t no = s->out_off[b + 1] - s->out_off[b];
    if (no && s->os_ein && s->os_ein[ein]) {
        /* the set of calls (joint_oset.c): in full, O(n + links) */
        uint32_t *c = s->ccount;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t l = s->pr[k[i]].link;
            if (s->link_src[l] == b)
                c[s->link_local[l]]++;
        }
        double ot = 0;
        (void)joint_os_walk(s, ein, c, no, 0, &ot);
        for (uint32_t j = 0; j < no; j++)
            c[j] = 0;
        sum += ot;
    } else if (no) {
        /* the net change of each link's count (unsigned: wraps), then
         * each changed link's term once */
        uint32_t *c = s->ccount;
        const size_t base = s->cnt_off[ein];
        for (uint32_t i = j0; i < ref->n - cs; i++) {
            uint32_t l = s->pr[ref->k[i]].link;
            if (s->link_src[l] == b)
                c[s->link_local[l]]--;
        }
        for (uint32_t i = j0; i < n - cs; i++) {
            uint32_t l = s->pr[k[i]].link;
            if (s->link_src[l] == b)
                c[s->link_local[l]]++;
        }
        double ct = ref->ct;
        for (int side = 0; side < 2; side++) {
            const uint32_t *a = side ? ref->k : k;
            uint32_t e = side ? ref->n - cs : n - cs;
            for (uint32_t i = j0; i < e; i++) {
                uint32_t l = s->pr[a[i]].link;
                if (s->link_src[l] != b)
                    continue;
                uint32_t j = s->link_local[l];
                if (c[j] == 0)
                    continue;
                uint32_t o = ref->cnt[j], w = o + c[j];
                o = o > JOINT_KMAX ? JOINT_KMAX : o;
                w = w > JOINT_KMAX ? JOINT_KMAX : w;
                const double *lp = s->cntlp + base + (size_t)j * (JOINT_KMAX + 1);
                ct += lp[w] - lp[o];
                c[j] = 0;
            }
        }
        sum += ct;
    } else {
        sum += ref->ct;
    }
    if (s->lc_on) /* in full: O(n) (joint_latecount.c) */
        (void)joint_lc_walk(s, q, k, n, 0, &sum);
    if (s->lser_on) /* in full: O(n) (joint_lserial.c) */
        sum += joint_lser_ll(s, k, n);
    if (s->p.thread_soft > 0 && s->thr) /* thread_soft: in full, O(n) (joint_thread.c) */
        sum += joint_thread_ll(s, q, k, n);
    if (s->corr_on && (!s->corr_svc || s->corr_svc[b]))
        sum += joint_corr_ll_est(s, ein, k, n, j0, cs, ref->n, ref->cp);
    *sump = sum;
}

/* joint_req_walk's body for one mode: mode is a constant at both calls
 * (walk_mode, h189), so each copy is compiled without the other mode's
 * branches and terms: the search's likelihood walks (mode 0) carry no
 * learning code, the refit's walks (mode 1: joint_fit, fit_fast's
 * joint_ff_walk, every request at every refit of a trace too large for
 * fit_fast's records, such as the 2 M message row) no scoring code.  The
 * same statements in the same order: the same numbers */
static inline __attribute__((always_inline)) int req_walk_mode(joint *s, uint32_t q,
                                                               const uint32_t *k, uint32_t n,
                                                               const int mode, double *ll)
{
    if (ll)
        *ll = 0;
    uint32_t nr = 0;
    double sum = 0;
    int rc = walk_returns(s, k, n, NULL, 0, 0, &nr);
    if (rc == PB_OK)
        rc = walk_is_lean(s, q) ? walk_steps(s, q, k, n, s->scratch, nr, mode, 0, 0.0, 0, INT64_MIN,
                                          NULL, 0, NULL, 1, &sum)
                             : walk_steps(s, q, k, n, s->scratch, nr, mode, 0, 0.0, 0, INT64_MIN,
                                          NULL, 0, NULL, 0, &sum);
    if (rc == PB_OK)
        rc = walk_rest(s, q, k, n, mode, &sum, NULL, NULL, 0, 0, 0);
    if (rc == PB_OK && ll)
        *ll = sum;
    return rc;
}

/* The events of request q with the kids in k[0..n) (sorted by call time):
 * for every output, its trigger and delay.  mode 0: return the
 * log-likelihood; mode 1: add every output to the density histograms
 * (creating keys) and the call counts to the count table (every caller
 * passes 0 or 1; any other value is taken as 1, as the steps did). */
int joint_req_walk(joint *s, uint32_t q, const uint32_t *k, uint32_t n, int mode,
                   double *ll)
{
    return mode == 0 ? req_walk_mode(s, q, k, n, 0, ll) : req_walk_mode(s, q, k, n, 1, ll);
}

int joint_wrec_room(joint_wrec *w, uint32_t n)
{
    if (n + 1 <= w->cap)
        return PB_OK;
    uint32_t nc = w->cap ? w->cap : 32;
    while (nc < n + 1)
        nc *= 2;
    /* every array grows to nc; a failure part-way leaves cap untouched and
     * each array at least cap long */
#define WREC_GROW(f)                                              \
    do {                                                          \
        void *q_ = realloc(w->f, (size_t)nc * sizeof *w->f);      \
        if (!q_)                                                  \
            return PB_ENOMEM;                                     \
        w->f = q_;                                                \
    } while (0)
    WREC_GROW(sum);
    WREC_GROW(mx);
    WREC_GROW(rp);
    WREC_GROW(k);
    WREC_GROW(r);
    WREC_GROW(tki);
    WREC_GROW(smi);
    WREC_GROW(tkr);
    WREC_GROW(smr);
    WREC_GROW(cp);
    if (w->want_term) {
        WREC_GROW(term);
        WREC_GROW(cterm);
    }
#undef WREC_GROW
    w->cap = nc;
    return PB_OK;
}

void joint_wrec_free(joint_wrec *w)
{
    free(w->sum);
    free(w->mx);
    free(w->rp);
    free(w->k);
    free(w->r);
    free(w->tkr);
    free(w->tki);
    free(w->smr);
    free(w->smi);
    free(w->cp);
    free(w->cnt);
    free(w->term);
    free(w->cterm);
    memset(w, 0, sizeof *w);
}

/* Why resuming gives the very same number: the walk of k'[0..n') equals
 * that of the recorded list k[0..n) on every step before i when the two
 * lists make the same outputs there (i <= j, their common prefix) and
 * take the same returns there: the returns received by the latest output
 * time mx[i] before step i.  The returns of the two lists differ only in
 * calls of k[j..) and k'[j..); if all of those returns come after mx[i],
 * the returns taken before step i, the two latest of them and the sum
 * (the same terms added in the same order) are those of the record. */
int joint_req_walk_resume(joint *s, uint32_t q, const uint32_t *k, uint32_t n,
                          const joint_wrec *ref, joint_wrec *out, double *ll)
{
    *ll = 0;
    uint32_t nr = 0;
    const int fresh = !ref || !ref->valid || ref->q != q;
    int rc, hit = 0;
    if (fresh && s->wc && !out->want_term &&
        (rc = joint_wcache_get(s, q, k, n, out, ll, &hit)) != PB_OK)
        return rc; /* resplit_wcache (joint_wcache.c) */
    if (hit)
        return PB_OK;
    rc = joint_wrec_room(out, n);
    if (rc != PB_OK)
        return rc;
    uint32_t i0 = 0;
    if (!fresh) {
        uint32_t j = 0, m = ref->n < n ? ref->n : n;
        while (j < m && ref->k[j] == k[j])
            j++;
        pb_ns lo = INT64_MAX;
        for (uint32_t i = j; i < ref->n; i++)
            if (s->pr[ref->k[i]].ret != NONE && s->pr[ref->k[i]].rr < lo)
                lo = s->pr[ref->k[i]].rr;
        for (uint32_t i = j; i < n; i++)
            if (s->pr[k[i]].ret != NONE && s->pr[k[i]].rr < lo)
                lo = s->pr[k[i]].rr;
        i0 = j;
        while (i0 > 0 && ref->mx[i0] >= lo)
            i0--;
        if (out->want_term)
            i0 = 0; /* conf_sync: every term walked (the same sum from step 0) */
        if (i0 > 0) {
            memcpy(out->sum, ref->sum, (size_t)i0 * sizeof *out->sum);
            memcpy(out->rp, ref->rp, (size_t)i0 * sizeof *out->rp);
            memcpy(out->mx, ref->mx, (size_t)i0 * sizeof *out->mx);
            memcpy(out->tkr, ref->tkr, (size_t)i0 * sizeof *out->tkr);
            memcpy(out->tki, ref->tki, (size_t)i0 * sizeof *out->tki);
        }
    }
    /* the returns taken before step i0 are the record's first ones */
    rc = i0 > 0 ? walk_returns(s, k, n, ref->r, ref->rp[i0], ref->mx[i0], &nr)
                : walk_returns(s, k, n, NULL, 0, 0, &nr);
    if (rc != PB_OK)
        return rc;
    double sum = 0;
    /* the record's state before step i0 (none before step 0) */
    const double s0 = i0 > 0 ? ref->sum[i0] : 0.0;
    const uint32_t rp0 = i0 > 0 ? ref->rp[i0] : 0;
    const pb_ns mx0 = i0 > 0 ? ref->mx[i0] : INT64_MIN;
    if (out->want_term) /* conf_sync: every step's term (i0 is 0) */
        rc = walk_steps(s, q, k, n, s->scratch, nr, 0, 0, 0.0, 0, INT64_MIN, out, 1, NULL, 0,
                        &sum);
    else if (walk_is_lean(s, q))
        rc = walk_steps(s, q, k, n, s->scratch, nr, 0, i0, s0, rp0, mx0, out, 0, NULL, 1, &sum);
    else
        rc = walk_steps(s, q, k, n, s->scratch, nr, 0, i0, s0, rp0, mx0, out, 0, NULL, 0, &sum);
    out->end = sum;
    /* the least trigger from each step on (joint_req_walk_estimate) */
    pb_ns mr = INT64_MAX;
    uint32_t mi = NONE;
    for (uint32_t i = n + 1; i-- > 0;) {
        if (tkey_gt(mr, mi, out->tkr[i], out->tki[i])) {
            mr = out->tkr[i];
            mi = out->tki[i];
        }
        out->smr[i] = mr;
        out->smi[i] = mi;
    }
    if (rc == PB_OK)
        rc = walk_rest(s, q, k, n, 0, &sum, out, NULL, 0, 0, 0);
    if (rc != PB_OK)
        return rc;
    if (n) /* a request with no calls may come with k == NULL */
        memcpy(out->k, k, (size_t)n * sizeof *k);
    if (nr)
        memcpy(out->r, s->scratch, (size_t)nr * sizeof *out->r);
    out->nr = nr;
    out->n = n;
    out->q = q;
    out->has_mask = 0;
    out->valid = 1;
    *ll = sum;
    if (fresh && s->wc && !out->want_term)
        return joint_wcache_put(s, q, out, sum); /* resplit_wcache */
    return PB_OK;
}

/* Why the estimate's stop is right (joint_req_walk_estimate): the two
 * lists differ only in their middles (between the common prefix and the
 * common suffix), so their returns differ only in the middles' returns D,
 * all earlier than (dr, di).  At a step i of the common suffix, with the
 * record's step j making the same output o at the same latest output time,
 * both walks have taken the returns received by then, which differ only
 * in D.  The record's trigger x of o is the latest return taken that is
 * neither o itself nor a learned parallel sibling of o (or the arrival);
 * when x is later than every return of D, x is in both lists, and a
 * later candidate of the new walk would be one of the record's too (only
 * D differs, and D is earlier): so o's trigger, delay and term are the
 * record's.  As the later steps make the same outputs, the same holds for
 * each of them when every trigger of the record from j on is later than
 * D (smr, smi: the least of them).  Only the rounding of the two sums
 * differs.  A term added to a step must depend only on the step's output,
 * its trigger and the request (or this stop must also compare what else
 * it depends on); a term added after the steps (walk_rest) must be added
 * to walk_rest_est too (in full, or updated from the record). */
int joint_req_walk_estimate(joint *s, uint32_t q, const uint32_t *k, uint32_t n,
                            const joint_wrec *ref, double *est, int *synced)
{
    uint32_t j0 = 0, m = ref->n < n ? ref->n : n, cs = 0;
    while (j0 < m && ref->k[j0] == k[j0])
        j0++;
    while (cs < n - j0 && cs < ref->n - j0 && k[n - 1 - cs] == ref->k[ref->n - 1 - cs])
        cs++;
    return joint_req_walk_estimate_at(s, q, k, n, ref, j0, cs, est, synced);
}

/* the steps of the walk of k[0..n) from the record ref (its list agrees
 * with k on its first j0 and last cs calls), stopped where the record's
 * remaining steps are the same terms (wsync; exact: those terms added one
 * by one, else the record's sum of them); *sump: the sum after the steps,
 * *hit: stopped early.  PB_OK or PB_ENOMEM */
/* swap_ties: the run r[p1, p2) sorted by the record's keys (u's and v's
 * times exchanged since) sorted again by the current keys, moving only u
 * and v.  The keys (time received, pair) are a strict order, so the
 * sorted run is unique: the insertion sort's result, in O(log run + the
 * distance each moves) instead of O(run) (N returns at one stamp: the run
 * is all of them, and the two do not move).  Step one moves u to its
 * place among the others with v at its old key (that array is sorted by
 * those keys), step two moves v among the rest (now sorted).  *p1p, *p2p:
 * the positions touched (the caller puts them back); 0 when u or v is not
 * where the record's keys place it (the caller sorts the run) */
/* the place of (kr, ki) in r[p1, p2) without its element at position a
 * (the one being moved): the real index it goes before, with r[a] still
 * in; keys are the current ones but v's the old one (u's current time)
 * when `old` */
static uint32_t ties_find(const joint *s, const uint32_t *r, uint32_t p1, uint32_t p2, uint32_t a,
                          pb_ns kr, uint32_t ki, uint32_t v, pb_ns vold, int old)
{
    uint32_t lo = 0, hi = p2 - p1 - 1; /* positions without a */
    while (lo < hi) {
        uint32_t m = lo + (hi - lo) / 2, ri = p1 + m, x;
        if (ri >= a)
            ri++;
        x = r[ri];
        pb_ns xr = x == v && old ? vold : s->pr[x].rr;
        if (tkey_gt(kr, ki, xr, x))
            lo = m + 1;
        else
            hi = m;
    }
    uint32_t b = p1 + lo;
    return b >= a ? b + 1 : b;
}

/* move r[a] to be just before position b (b counted with r[a] still in:
 * b in [p1, p2], b != a, a + 1) */
static void ties_move(uint32_t *r, uint32_t a, uint32_t b, uint32_t *mn, uint32_t *mx)
{
    uint32_t x = r[a];
    if (b > a) {
        memmove(r + a, r + a + 1, (size_t)(b - 1 - a) * sizeof *r);
        r[b - 1] = x;
        if (b > *mx)
            *mx = b;
    } else {
        memmove(r + b + 1, r + b, (size_t)(a - b) * sizeof *r);
        r[b] = x;
        if (a + 1 > *mx)
            *mx = a + 1;
    }
    if ((a < b ? a : b) < *mn)
        *mn = a < b ? a : b;
}

/* the first position in r[p1, p2) (sorted by the record's keys: u's and
 * v's times exchanged) whose record key is (kr, ki) or later */
static uint32_t ties_old_at(const joint *s, const uint32_t *r, uint32_t p1, uint32_t p2,
                            uint32_t u, uint32_t v, pb_ns kr, uint32_t ki)
{
    const jpair *pu = &s->pr[u], *pv = &s->pr[v];
    uint32_t lo = p1, hi = p2;
    while (lo < hi) {
        uint32_t m = lo + (hi - lo) / 2, x = r[m];
        pb_ns xr = x == u ? pv->rr : x == v ? pu->rr : s->pr[x].rr;
        if (tkey_gt(kr, ki, xr, x))
            lo = m + 1;
        else
            hi = m;
    }
    return lo;
}

static int ties_resort(const joint *s, uint32_t *r, uint32_t p1, uint32_t p2, uint32_t u,
                       uint32_t v, uint32_t *p1p, uint32_t *p2p)
{
    const jpair *pu = &s->pr[u], *pv = &s->pr[v];
    /* where the record put them: u by (pv->rr, u), v by (pu->rr, v) */
    uint32_t au = ties_old_at(s, r, p1, p2, u, v, pv->rr, u);
    uint32_t av = ties_old_at(s, r, p1, p2, u, v, pu->rr, v);
    if (au >= p2 || av >= p2 || r[au] != u || r[av] != v)
        return 0;
    uint32_t mn = UINT32_MAX, mx = 0;
    /* step one: u by its current key among the others (v at its old key) */
    uint32_t b = ties_find(s, r, p1, p2, au, pu->rr, u, v, pu->rr, 1);
    if (b != au && b != au + 1) {
        ties_move(r, au, b, &mn, &mx);
        if (au < av && av < b) /* v shifted by u's move */
            av--;
        else if (b <= av && av < au)
            av++;
    }
    if (r[av] != v)
        return 0; /* cannot happen */
    /* step two: v by its current key among the rest (all current) */
    b = ties_find(s, r, p1, p2, av, pv->rr, v, v, 0, 0);
    if (b != av && b != av + 1)
        ties_move(r, av, b, &mn, &mx);
    *p1p = mn == UINT32_MAX ? p1 : mn;
    *p2p = mn == UINT32_MAX ? p1 : mx;
    return 1;
}

int joint_ties_resort_test(const joint *s, uint32_t *r, uint32_t p1, uint32_t p2, uint32_t u,
                           uint32_t v, uint32_t *p1p, uint32_t *p2p)
{
    return ties_resort(s, r, p1, p2, u, v, p1p, p2p);
}

/* the returns of the record ref's list with the returns of its calls u
 * and v exchanged since (nothing else changed), sorted as walk_returns
 * sorts them, into r (room for ref->nr; copied from ref->r unless
 * in_place: r holds ref->r already): the record's order but in the run
 * [*p1, *p2) of returns received from the earlier of the two times to the
 * later (the only ones whose order can change), re-sorted there.  1, or 0
 * when u or v has no return (the caller merges the lists) */
static int swapped_returns(const joint *s, const joint_wrec *ref, uint32_t u, uint32_t v,
                           uint32_t *r, int in_place, uint32_t *p1p, uint32_t *p2p)
{
    const jpair *pu = &s->pr[u], *pv = &s->pr[v];
    if (pu->ret == NONE || pv->ret == NONE)
        return 0;
    pb_ns t1 = pu->rr < pv->rr ? pu->rr : pv->rr, t2 = pu->rr < pv->rr ? pv->rr : pu->rr;
    const uint32_t *o = ref->r, nr = ref->nr;
    /* the record's time of a return: u's and v's are each other's now */
#define OLD_RR(x) ((x) == u ? pv->rr : (x) == v ? pu->rr : s->pr[x].rr)
    uint32_t lo = 0, hi = nr; /* first received at t1 or later */
    while (lo < hi) {
        uint32_t m = lo + (hi - lo) / 2;
        if (OLD_RR(o[m]) < t1)
            lo = m + 1;
        else
            hi = m;
    }
    uint32_t p1 = lo;
    hi = nr; /* first received after t2 */
    while (lo < hi) {
        uint32_t m = lo + (hi - lo) / 2;
        if (OLD_RR(o[m]) <= t2)
            lo = m + 1;
        else
            hi = m;
    }
#undef OLD_RR
    uint32_t p2 = lo;
    if (!in_place)
        memcpy(r, o, (size_t)nr * sizeof *r);
    if (s->p.swap_ties && p2 - p1 > 8 && ties_resort(s, r, p1, p2, u, v, p1p, p2p))
        return 1; /* swap_ties: only u and v moved */
    *p1p = p1;
    *p2p = p2;
    /* the run [p1, p2) holds the same returns now: sorted again by
     * (time received, pair), insertion (it is short: the returns between
     * two overlapping calls' returns) */
    for (uint32_t i = p1 + 1; i < p2; i++) {
        uint32_t x = r[i], j = i;
        while (j > p1 && tkey_gt(s->pr[r[j - 1]].rr, r[j - 1], s->pr[x].rr, x)) {
            r[j] = r[j - 1];
            j--;
        }
        r[j] = x;
    }
    return 1;
}

/* same_ids (joint_xwalk.c, swap_resume): where the walk of the record's
 * list with the returns of its calls u and v exchanged must resume.  Only
 * u's and v's returns differ (the same calls, the same set of times), and
 * both are received at t1, the earlier of their times, or later.  A step
 * before which every output was sent before t1 (the record's mx[i] < t1;
 * its own time is mx[i + 1]) has taken only returns received before t1:
 * the record's first returns, the same calls at the same times, so every
 * such step is the record's step, term for term (its output is the same
 * call of the same list).  The walk resumes at the last step i with
 * mx[i] < t1 (mx does not decrease: a binary search), from the record's
 * state there (sum, rp, mx: the same terms added in the same order, so
 * the same sum bit for bit); the returns it has taken, rp[i] of them, all
 * precede t1, inside the run swapped_returns leaves in the record's order.
 * i0: where the caller resumes (at the first middle step or before);
 * returns the later of the two.  In a deep request every call is sent
 * before any return comes back: the walk was O(calls) per exchange, now
 * O(log calls) to find the response step.  Without a return on u or v
 * (the caller merges the lists instead): i0. */
static uint32_t xresume_at(joint *s, const joint_wrec *ref, uint32_t u, uint32_t v,
                           uint32_t n, uint32_t i0)
{
    const jpair *pu = &s->pr[u], *pv = &s->pr[v];
    if (!s->p.swap_resume || pu->ret == NONE || pv->ret == NONE || ref->n != n)
        return i0;
    const pb_ns t1 = pu->rr < pv->rr ? pu->rr : pv->rr;
    if (ref->mx[i0] >= t1)
        return i0;
    uint32_t lo = i0, hi = n; /* mx[lo] < t1 */
    while (lo < hi) {
        uint32_t m = lo + (hi - lo + 1) / 2;
        if (ref->mx[m] < t1)
            lo = m;
        else
            hi = m - 1;
    }
    s->xresumed += lo > i0;
    return lo;
}

/* same_ids (joint_xwalk.c): the middles are the same calls whose returns
 * were exchanged, so a return's (time, pair) key differs between the
 * record and now; the stop then also waits for every trigger to be
 * later in time than the middles' latest return (di NONE: no tie passes).
 * rbuf (with same_ids, or NULL): a copy of ref->r the returns are put in
 * order in (and put back after the walk), not copied for each walk */
static inline __attribute__((always_inline)) int walk_from_ref(joint *s, uint32_t q, const uint32_t *k, uint32_t n,
                         const joint_wrec *ref, uint32_t j0, uint32_t cs, int exact,
                         int same_ids, uint32_t *rbuf, joint_xtail *tail, double *sump,
                         int *hit)
{
    *sump = 0;
    *hit = 0;
    /* the middles' returns: the earliest (where the walk must resume) and
     * the latest (which every later trigger must follow) */
    pb_ns lo = INT64_MAX;
    wsync sy = {ref, n - cs, 0, INT64_MIN, 0, 0, exact, tail};
    for (int side = 0; side < 2; side++) {
        const uint32_t *a = side ? ref->k : k;
        uint32_t e = side ? ref->n - cs : n - cs;
        for (uint32_t i = j0; i < e; i++) {
            const jpair *x = &s->pr[a[i]];
            if (x->ret == NONE)
                continue;
            if (x->rr < lo)
                lo = x->rr;
            if (!sy.anyd || tkey_gt(x->rr, a[i], sy.dr, sy.di)) {
                sy.dr = x->rr;
                sy.di = a[i];
                sy.anyd = 1;
            }
        }
    }
    if (same_ids && sy.anyd)
        sy.di = NONE;
    uint32_t i0 = j0;
    while (i0 > 0 && ref->mx[i0] >= lo)
        i0--;
    if (same_ids)
        i0 = xresume_at(s, ref, k[j0], k[n - 1 - cs], n, i0);
    /* the returns: the record's without those of its middle (marked in
     * s->stamp with an epoch of their own), merged with those of the new
     * middle, sorted as walk_returns sorts them (by time received, then
     * pair); the first ref->rp[i0] are the record's (all earlier than lo) */
    if (scratch_reserve(s, n) != PB_OK)
        return PB_ENOMEM;
    uint32_t *r = s->scratch, nr = 0, na = 0, *add = r + n - (n - cs - j0);
    uint32_t *rw = s->scratch, p1 = 0, p2 = 0; /* the list walked; rbuf's run */
    int put_back = 0;
    if (same_ids && swapped_returns(s, ref, k[j0], k[n - 1 - cs], rbuf ? rbuf : r, rbuf != NULL,
                                    &p1, &p2)) {
        nr = ref->nr;
        if (rbuf) {
            rw = rbuf;
            put_back = 1;
        }
        goto walk;
    }
    const uint32_t ep = ++s->epoch;
    /* nrem: the record's middle returns, every one after its first i1
     * returns (each received at lo or later, those by mx[i0] < lo) */
    uint32_t nrem = 0;
    for (uint32_t i = j0; i < ref->n - cs; i++) {
        s->stamp[ref->k[i]] = ep;
        nrem += s->pr[ref->k[i]].ret != NONE;
    }
    /* the new middle's returns, sorted, at the end of the scratch (the
     * merge writes at most n - (its size) before them) */
    for (uint32_t i = j0; i < n - cs; i++) {
        if (s->pr[k[i]].ret == NONE)
            continue;
        uint32_t j = na++;
        while (j > 0 && tkey_gt(s->pr[add[j - 1]].rr, add[j - 1], s->pr[k[i]].rr, k[i])) {
            add[j] = add[j - 1];
            j--;
        }
        add[j] = k[i];
    }
    uint32_t i1 = i0 > 0 ? ref->rp[i0] : 0, a = 0;
    memcpy(r, ref->r, (size_t)i1 * sizeof *r);
    nr = i1;
    uint32_t i = i1;
    /* rs_merge_tail (speed only): once every new return is placed and
     * every middle one passed, the rest is the record's, copied whole (the
     * loop would copy it element by element: the same list) */
    for (; i < ref->nr && (a < na || nrem > 0); i++) {
        uint32_t x = ref->r[i];
        if (s->stamp[x] == ep) {
            nrem--;
            continue;
        }
        while (a < na && tkey_gt(s->pr[x].rr, x, s->pr[add[a]].rr, add[a]))
            r[nr++] = add[a++];
        r[nr++] = x;
    }
    if (i < ref->nr) {
        memcpy(r + nr, ref->r + i, (size_t)(ref->nr - i) * sizeof *r);
        nr += ref->nr - i;
    }
    while (a < na)
        r[nr++] = add[a++];
    s->epoch++; /* no stamp holds the current epoch (match_link) */
walk:;
    int rc = PB_OK;
    double sum = 0;
    /* a late call's send as a trigger (joint_lateattach.c): a step that
     * took one records no trigger (rec->tkr INT64_MIN), so the stop waits
     * until after the record's last such step; from there the two walks
     * take the same late sends unless a call of the middles outlives q:
     * then no stop */
    /* (no late-call timers at all: joint_la_timer_may's own first test,
     * without the call) */
    wsync *syp = s->la_timer && joint_la_timer_may(s, q, k + j0, n - cs - j0, ref->k + j0,
                                                   ref->n - cs - j0)
                     ? NULL
                     : &sy;
    /* the record's state before step i0 (none before step 0) */
    const double s0 = i0 > 0 ? ref->sum[i0] : 0.0;
    const uint32_t rp0 = i0 > 0 ? ref->rp[i0] : 0;
    const pb_ns mx0 = i0 > 0 ? ref->mx[i0] : INT64_MIN;
    if (walk_is_lean(s, q))
        rc = walk_steps(s, q, k, n, rw, nr, 0, i0, s0, rp0, mx0, NULL, 0, syp, 1, &sum);
    else
        rc = walk_steps(s, q, k, n, rw, nr, 0, i0, s0, rp0, mx0, NULL, 0, syp, 0, &sum);
    if (put_back && p2 > p1) /* rbuf is ref->r again */
        memcpy(rbuf + p1, ref->r + p1, (size_t)(p2 - p1) * sizeof *rbuf);
    if (rc != PB_OK)
        return rc;
    *sump = sum;
    *hit = syp ? sy.hit : 0;
    return PB_OK;
}

int joint_req_walk_estimate_at(joint *s, uint32_t q, const uint32_t *k, uint32_t n,
                               const joint_wrec *ref, uint32_t j0, uint32_t cs, double *est,
                               int *synced)
{
    double sum = 0;
    *est = 0;
    int rc = walk_from_ref(s, q, k, n, ref, j0, cs, 0, 0, NULL, NULL, &sum, synced);
    if (rc != PB_OK)
        return rc;
    walk_rest_est(s, q, k, n, ref, j0, cs, &sum);
    *est = sum;
    return PB_OK;
}

/* Why it is the very same number as joint_req_walk (conf_sync): the steps
 * before the stop are joint_req_walk_resume's (from the same state, over
 * the same sorted returns: the record's without its middle's, merged with
 * the new middle's, which is the list walk_returns sorts); from the stop
 * on, each step makes the record's output with the record's trigger and
 * delay (joint_req_walk_estimate's argument), and a step's term depends
 * only on those and the request, so it is the record's term, bit for bit;
 * adding them one by one in step order is what the walk does.  What
 * follows the steps is walk_rest in full, as joint_req_walk computes it. */
int joint_req_walk_synced(joint *s, uint32_t q, const uint32_t *k, uint32_t n,
                          const joint_wrec *ref, double *ll, int *synced)
{
    uint32_t j0 = 0, m = ref->n < n ? ref->n : n, cs = 0;
    while (j0 < m && ref->k[j0] == k[j0])
        j0++;
    while (cs < n - j0 && cs < ref->n - j0 && k[n - 1 - cs] == ref->k[ref->n - 1 - cs])
        cs++;
    return joint_req_walk_synced_at(s, q, k, n, ref, j0, cs, 0, NULL, ll, synced);
}

int joint_req_walk_synced_at(joint *s, uint32_t q, const uint32_t *k, uint32_t n,
                             const joint_wrec *ref, uint32_t j0, uint32_t cs, int same_ids,
                             uint32_t *rbuf, double *ll, int *synced)
{
    double sum = 0;
    *ll = 0;
    int rc = walk_from_ref(s, q, k, n, ref, j0, cs, 1, same_ids, rbuf,
                           same_ids && s->p.swap_tail_tree && s->xwalk ? joint_xwalk_tail(s) : NULL,
                           &sum, synced);
    if (rc == PB_OK)
        rc = walk_rest(s, q, k, n, 0, &sum, NULL, ref, j0, cs, same_ids);
    if (rc == PB_OK)
        *ll = sum;
    return rc;
}

double joint_req_ll(joint *s, uint32_t q)
{
    double ll = 0;
    if (joint_req_walk(s, q, s->kids[q].a, s->kids[q].n, 0, &ll) != PB_OK)
        return -INFINITY;
    return ll;
}

