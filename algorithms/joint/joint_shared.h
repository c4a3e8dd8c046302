/* joint_shared.h - joint's shared helpers: the functions and small types
 * the state's files (joint.c, joint_cand.c, joint_model.c, joint_search.c,
 * joint_repair.c, joint_paths.c) and the rules share.  Split from
 * joint_int.h, which includes it after struct joint; include joint_int.h,
 * not this file. */
#ifndef JOINT_SHARED_H
#define JOINT_SHARED_H

#ifndef JOINT_INT_H
#error "include joint_int.h, not joint_shared.h"
#endif

/* an event time and its pair, sorted by joint_cmp_insort (time, then pair) */
typedef struct insort {
    pb_ns t;
    uint32_t p;
} insort;

/* joint_xcost.c: the re-pairing's exchange passes' response costs kept
 * (speed only): cur[i] the cost of the link's i-th call with its current
 * return; alt[i * JOINT_SWAP_WINDOW + j - i - 1] the cost of exchanging
 * the returns of calls i and j (i < j <= i + JOINT_SWAP_WINDOW), valid
 * while gen[] of it is g.  Zero-initialised; joint_xcost_free frees it */
typedef struct joint_xcost {
    double *cur, *alt;
    uint32_t *gen, g, n, cap;
} joint_xcost;
/* joint_xcost.c: room for a link of nc calls (nc >= 2), every kept
 * exchange voided; cur[0..nc) is the caller's to fill.  PB_OK or
 * PB_ENOMEM (x unchanged but for what was grown) */
int joint_xcost_begin(joint_xcost *x, uint32_t nc);
/* joint_xcost.c: 1 and *alt the kept cost of exchanging calls i < j (j
 * at most JOINT_SWAP_WINDOW after i); 0 when none is kept */
int joint_xcost_get(const joint_xcost *x, uint32_t i, uint32_t j, double *alt);
/* joint_xcost.c: keep alt as the cost of exchanging calls i < j */
void joint_xcost_put(joint_xcost *x, uint32_t i, uint32_t j, double alt);
/* joint_xcost.c: call i's return changed: every kept exchange with it
 * voided (cur[i] is the caller's to update) */
void joint_xcost_changed(joint_xcost *x, uint32_t i);
/* joint_xcost.c: free what x holds and zero it (NULL-safe members) */
void joint_xcost_free(joint_xcost *x);
/* joint_xcost.c: 0; a unit test sets it (a change no longer voids the
 * kept exchanges, on purpose) */
extern int joint_xcost_test_stale;

/* The time span [*a, *b] of a pair whose call c and return r are messages
 * of m (either may be JOINT_NONE, not both): the earlier stamp first
 * (stamps may be out of order under skew).  Shared by the windows of
 * unp_win, unp_busy and held_local. */
static inline void joint_pair_span(const pb_msg *m, uint32_t c, uint32_t r, pb_ns *a, pb_ns *b)
{
    pb_ns x = c != JOINT_NONE ? m[c].ts : m[r].ts, y = r != JOINT_NONE ? m[r].ts : m[c].ts;
    *a = x < y ? x : y;
    *b = x < y ? y : x;
}

/* Is request q among call p's candidate parents?  O(candidates of p).
 * Returns 1 or 0. */
static inline int joint_has_cand(const joint *s, uint32_t p, uint32_t q)
{
    for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++)
        if (s->cand[j] == q)
            return 1;
    return 0;
}

/* key k's smoothing bandwidth in bins (n > 0 delays): Silverman's rule
 * on the log-delays' spread (kstat: count, sum, sum of squares), at least
 * bw_min, at most 100; the density fit and fit_fast's range fit share it
 * so both give the same bits */
static inline double joint_key_bandwidth(const joint *s, uint32_t k, double n)
{
    double mean = s->kstat[3 * k + 1] / n;
    double var = s->kstat[3 * k + 2] / n - mean * mean;
    double sd = var > 0 ? sqrt(var) : 0;
    double bwb = 0.9 * sd * pow(n, -0.2) / s->p.bin;
    if (bwb < s->p.bw_min)
        bwb = s->p.bw_min;
    if (bwb > 100)
        bwb = 100;
    return bwb;
}

/* the log density of bins [b0, b1] of a key (hv: its histogram, raw or
 * smoothed, summing to tot; beta: the floor's share; pz, lz: an empty
 * bin's probability and log density) written to lf; returns em plus each
 * bin's p log p added in bin order (the density fit and fit_fast's range
 * fit share it so both give the same bits) */
static inline double joint_density_bins(const joint *s, const double *hv, double tot, double beta,
                                        uint32_t nb, double pz, double lz, size_t b0, size_t b1,
                                        double *lf, double em)
{
    for (size_t b = b0; b <= b1; b++) {
        if (hv[b] == 0) {
            em += pz * lz;
            lf[b] = lz;
            continue;
        }
        double pb = (1 - beta) * (tot > 0 ? hv[b] / tot : 0) + beta / nb;
        /* density of log10 delay per unit: per bin / bin width; the
         * 1/(d ln 10) Jacobian is applied by logf_of (ln 10 dropped: the
         * same for every alternative) */
        double l = log(pb / s->p.bin);
        em += pb * l;
        lf[b] = l;
    }
    return em;
}

static inline uint64_t dkey(uint32_t ein, uint32_t trig, uint32_t outl)
{
    return ((uint64_t)ein << 42) | ((uint64_t)trig << 21) | outl;
}

/* dbin of a delay whose clamped log10 is x (as dbin computes it) */
static inline uint32_t dbin_x(const joint *s, double x)
{
    double b = (x - 1.0) / s->p.bin;
    if (!(b > 0))
        return 0;
    if (b >= (double)(s->nb - 1))
        return s->nb - 1;
    return (uint32_t)b;
}

static inline uint32_t dbin(const joint *s, pb_ns d)
{
    double x = log10((double)d < s->dmin ? s->dmin : (double)d);
    double b = (x - 1.0) / s->p.bin;
    if (!(b > 0))
        return 0;
    if (b >= (double)(s->nb - 1))
        return s->nb - 1;
    return (uint32_t)b;
}

/* dbin from the natural log ld of the clamped delay dd, without a second
 * logarithm: ld / ln 10 differs from log10(dd) by a few units in the last
 * place, so away from a bin edge (by far more than that error) it gives
 * the same bin; near an edge dbin decides.  Same bins as dbin, always. */
static inline uint32_t dbin_ln(const joint *s, pb_ns d, double ld)
{
    if (!(s->ibin > 0))
        return dbin(s, d);
    double b = (ld * 0.43429448190325182765 - 1.0) * s->ibin;
    double eps = 1e-9 * (1.0 + fabs(b)), top = (double)(s->nb - 1);
    if (b < 1.0 - eps)
        return 0; /* bin 0 whether b is just below 1 or below 0 */
    if (b > top + eps)
        return s->nb - 1;
    if (b > top - eps)
        return dbin(s, d);
    uint32_t i = (uint32_t)b;
    double fr = b - (double)i;
    if (fr < eps || 1.0 - fr < eps)
        return dbin(s, d); /* near an edge: the exact rule decides */
    return i;
}

/* A direct-mapped cache of log(delay) and the delay's bin (speed only: the
 * same numbers as computing them): the walks of one request score the same
 * delays again and again. */
#define JOINT_LOGC_BITS 13
typedef struct joint_logc {
    pb_ns d[1u << JOINT_LOGC_BITS];
    double ld[1u << JOINT_LOGC_BITS];
    uint32_t bin[1u << JOINT_LOGC_BITS];
} joint_logc;

/* log density of delay d (ns) for density key k (JOINT_NONE: background) */
static inline __attribute__((always_inline)) double logf_of(const joint *s, uint32_t k, pb_ns d)
{
    joint_logc *c = s->logc;
    if (c) {
        uint32_t h = (uint32_t)(((uint64_t)d * 0x9E3779B97F4A7C15ull) >> (64 - JOINT_LOGC_BITS));
        if (c->d[h] != d) {
            c->d[h] = d;
            c->ld[h] = log((double)d < s->dmin ? s->dmin : (double)d);
            c->bin[h] = dbin_ln(s, d, c->ld[h]);
        }
        if (k == JOINT_NONE)
            return s->bg - c->ld[h];
        return joint_lf_at(s, k, c->bin[h]) - c->ld[h];
    }
    double ld = log((double)d < s->dmin ? s->dmin : (double)d);
    if (k == JOINT_NONE)
        return s->bg - ld;
    return joint_lf_at(s, k, dbin_ln(s, d, ld)) - ld;
}

/* the earliest time request q may have begun on its own clock: its
 * arrival; a request whose call was lost may have lasted as long as the
 * longest whole one of its link */
static inline pb_ns req_start(const joint *s, uint32_t q)
{
    const jpair *x = &s->pr[q];
    if (x->call == JOINT_NONE && x->ret != JOINT_NONE && s->p.halves)
        return x->rs - s->hmax[x->link];
    return x->cr;
}

/* the latest time request q may end on its own clock: its response; open
 * while returns are re-paired; a request whose response was lost may
 * last as long as the longest whole one of its link */
static inline pb_ns req_end(const joint *s, uint32_t q)
{
    const jpair *x = &s->pr[q];
    if (s->qend)
        return s->qend[q];
    if (x->ret == JOINT_NONE && x->call != JOINT_NONE && s->p.halves)
        return x->cr + s->hmax[x->link];
    return x->rs;
}

/* hash map: the value of key k, or JOINT_NONE */
uint32_t joint_hmap_get(const hmap *h, uint64_t k);

/* the in link whose density keys a request of in link ein uses: ein
 * itself, or its service's representative when the service's callers are
 * pooled (joint_select.c) */
static inline uint32_t joint_kin(const joint *s, uint32_t ein)
{
    return s->kein ? s->kein[ein] : ein;
}

/* the cell of (ein, trig, outl) in the direct tables (trig 0: arrival,
 * 1 + L: return of link L; outl: a link, or nlinks: the response), or
 * SIZE_MAX when there are none or the key is not one of ein's callee */
static inline size_t joint_dk_cell(const joint *s, uint32_t ein, uint32_t trig, uint32_t outl)
{
    if (!s->dk_off)
        return SIZE_MAX;
    ein = joint_kin(s, ein);
    uint32_t b = s->link_dst[ein], no = s->out_off[b + 1] - s->out_off[b], tl, ol;
    if (trig == 0)
        tl = 0;
    else if (s->link_src[trig - 1] == b)
        tl = 1 + s->link_local[trig - 1];
    else
        return SIZE_MAX;
    if (outl == s->nlinks)
        ol = no;
    else if (s->link_src[outl] == b)
        ol = s->link_local[outl];
    else
        return SIZE_MAX;
    return (size_t)s->dk_off[ein] + (size_t)tl * (no + 1) + ol;
}

/* is the return of link L no trigger of output outl in a request of link
 * ein (the two overlap: learned parallel calls)? */
static inline int joint_par_skip(const joint *s, uint32_t ein, uint32_t L, uint32_t outl)
{
    if (!s->npar)
        return 0;
    size_t c = joint_dk_cell(s, ein, 1 + L, outl);
    uint32_t h = c != SIZE_MAX ? s->dk_par[c]
                               : joint_hmap_get(&s->parmap, dkey(joint_kin(s, ein), 1 + L, outl));
    return h != JOINT_NONE && s->pflag[h];
}

/* the direct tables seen from a request of link ein and its output link
 * l (s->nlinks: the response): the request's service b, the columns of a
 * row no1, the row block dbase and l's column ol (JOINT_NONE when l has
 * none, and always without tables or learned parallel calls) */
typedef struct {
    uint32_t b, no1, ol;
    size_t dbase;
} joint_dk_row;

static inline joint_dk_row joint_dk_row_of(const joint *s, uint32_t ein, uint32_t l)
{
    joint_dk_row d = {0, 0, JOINT_NONE, 0};
    if (s->npar && s->dk_off) {
        const uint32_t kin = joint_kin(s, ein);
        d.b = s->link_dst[kin];
        d.no1 = s->out_off[d.b + 1] - s->out_off[d.b] + 1;
        d.dbase = s->dk_off[kin];
        d.ol = l == s->nlinks            ? d.no1 - 1
               : s->link_src[l] == d.b ? s->link_local[l]
                                         : JOINT_NONE;
    }
    return d;
}

/* joint_par_skip(s, ein, L, l) with the cell read from d (joint_dk_row_of
 * (s, ein, l)) when it has one */
static inline int joint_par_skip_row(const joint *s, const joint_dk_row *d, uint32_t ein,
                                     uint32_t L, uint32_t l)
{
    if (d->ol != JOINT_NONE && s->link_src[L] == d->b) {
        uint32_t h = s->dk_par[d->dbase + (size_t)(1 + s->link_local[L]) * d->no1 + d->ol];
        return h != JOINT_NONE && s->pflag[h];
    }
    return joint_par_skip(s, ein, L, l);
}

/* the density key of (ein, trig, outl), or JOINT_NONE */
static inline uint32_t joint_key_get(const joint *s, uint32_t ein, uint32_t trig, uint32_t outl)
{
    size_t c = joint_dk_cell(s, ein, trig, outl);
    return c != SIZE_MAX ? s->dk_key[c]
                         : joint_hmap_get(&s->keymap, dkey(joint_kin(s, ein), trig, outl));
}

/* joint_greedy_cost from joint_greedy_trig's parts under the current
 * densities: the same operations in the same order (the same bits) */
static inline double joint_greedy_tail(const joint *s, uint32_t p, uint32_t q, pb_ns tt,
                                       uint32_t trig, uint32_t cnt)
{
    const jpair *pp = &s->pr[p], *qq = &s->pr[q];
    const uint32_t l = pp->link, ein = qq->link;
    double ec = 0;
    if (pp->call != JOINT_NONE) {
        uint32_t di = joint_key_get(s, ein, trig, l);
        if (qq->call == JOINT_NONE && trig == 0)
            ec = di == JOINT_NONE ? -(s->bg - log(1e6)) : -s->kmean[di];
        else
            ec = -logf_of(s, di, pp->cs - tt);
    }
    size_t base = s->cnt_off[ein] + (size_t)s->link_local[l] * (JOINT_KMAX + 1);
    uint32_t c = cnt + 1 > JOINT_KMAX ? JOINT_KMAX : cnt + 1;
    return ec - (s->cntlp[base + c] - s->cntlp[base + c - 1]);
}

/* qsort comparator of insort: by time, then pair number */
int joint_cmp_insort(const void *x, const void *y);

/* hash map: set key k to v (grows the map).  PB_OK or PB_ENOMEM */
int joint_hmap_put(hmap *h, uint64_t k, uint32_t v);
/* make q (or JOINT_NONE) the parent of call p, updating the kid lists.
 * PB_OK or PB_ENOMEM */
int joint_set_parent(joint *s, uint32_t p, uint32_t q);

/* joint_idle.c.  The nesting test's idle starts (joint_align.h): per
 * service x < nn, on its own clock, the moments its count of open requests
 * (calls it received less answers it sent, never below zero; a call counts
 * before an answer at the same time) fell to zero at an answer it sent.  A
 * call open longer than 4 times the service's 90th percentile of
 * last-in-first-out durations counts as one whose answer was lost and is
 * dropped from the count (no idle start at that moment); an answer that
 * finds no open call (its call was lost) drops the idle starts of the 90th
 * percentile duration before it.  Both only at a service that shows a lost
 * message (an answer without an open call, or a call never answered);
 * elsewhere the plain count.  On PB_OK *idle
 * (ascending per service) and *off (nn + 2 entries; service x's starts are
 * (*idle)[(*off)[x] .. (*off)[x + 1])) are the caller's to free; on
 * PB_ENOMEM whatever of them is not NULL is the caller's to free too. */
int joint_idle_starts(const pb_msg *m, size_t n, uint32_t nn, pb_ns **idle, size_t **off);

/* joint_cand.c.  Pair calls with returns (fills s->pr, s->pair_of_msg);
 * PB_OK or PB_ENOMEM */
int joint_find_pairs(joint *s);
/* the links (caller, callee) of the pairs and the per-service tables;
 * PB_OK, PB_ENOMEM or PB_ERANGE-like failure when there are too many */
int joint_find_links(joint *s);
/* candidate parents of every call (s->cand_off, s->cand) from the current
 * request intervals; PB_OK or PB_ENOMEM */
int joint_find_candidates(joint *s);

/* joint_candends.c: keep kmax of the got candidates c (in the order of
 * open) when the cap cuts: half the latest-started, the rest the
 * earliest-ending of the others; ties at the last place of either end by
 * a window turned by rot (the call's rank).  c[0..kmax) on return, in
 * the order of open.  PB_OK, or PB_ENOMEM (c unchanged). */
int joint_cand_ends(const joint *s, uint32_t *c, size_t got, size_t kmax, size_t rot);

/* joint_model.c.  Walk request q with kids k[0..n): mode 0 sets *ll to its
 * log-likelihood, mode 1 adds its outputs to the densities and counts.
 * PB_OK or PB_ENOMEM */
int joint_req_walk(joint *s, uint32_t q, const uint32_t *k, uint32_t n, int mode,
                   double *ll);
/* A recorded walk (speed only): request q's kid list k[0..n), its sorted
 * returns and the state before each of its steps 0..n (the sum so far, the returns taken,
 * the latest output time seen), for joint_req_walk_resume.  valid: 0
 * until a walk is recorded; a record holds only while the model and the
 * pairs' times stay as they were (the caller drops it when they change) */
typedef struct joint_wrec {
    uint32_t *k, *rp, n, q, cap;
    uint32_t *r, nr;        /* its returns as the walk sorted them */
    double *sum;
    pb_ns *mx;
    double end;             /* the sum after the last step (before the counts and
                               the durations: walk_rest) */
    /* per step: its trigger as (time received, pair) of the return, (INT64_MIN, 0)
     * for the arrival, (INT64_MAX, NONE) for a step without an output; and the
     * least of these over the steps from it to the end (joint_prune.c) */
    pb_ns *tkr, *smr;
    uint32_t *tki, *smi;
    /* the terms after the steps (walk_rest), for the estimates: cp[0..n]
     * the durations term's partial sums (joint_corr_ll_rec), cnt[0..ncnt)
     * the list's calls per outgoing link of the service (cntcap: room) */
    double *cp, ct;         /* ct: the count term's value */
    uint32_t *cnt, ncnt, cntcap;
    uint32_t mask;          /* the re-split's split the list is (when has_mask) */
    int has_mask;
    int valid;
    /* conf_sync (joint_conf.c): with want_term set before the walk, term[i]
     * is the term step i added to the sum (0 when it added none); NULL and
     * unused otherwise (joint_wrec_room grows it only with want_term) */
    double *term;
    double *cterm;          /* ... and cterm[i] the durations term's term at call i */
    int want_term;
} joint_wrec;
/* make room in w for a list of n.  PB_OK or PB_ENOMEM */
int joint_wrec_room(joint_wrec *w, uint32_t n);
/* free w's arrays (NULL-safe on a zeroed record) */
void joint_wrec_free(joint_wrec *w);
/* mode 0 of joint_req_walk, the very same number, resumed from the
 * record ref (of the same request, or NULL) at the first step whose
 * inputs the change of list can touch; the walk is recorded in out (not
 * ref).  PB_OK or PB_ENOMEM */
int joint_req_walk_resume(joint *s, uint32_t q, const uint32_t *k, uint32_t n,
                          const joint_wrec *ref, joint_wrec *out, double *ll);
/* An estimate of mode 0 of joint_req_walk for list k[0..n) of request q
 * from the record ref (valid, of q): the walk resumed as
 * joint_req_walk_resume does, stopped at the first step from which the
 * record's remaining steps are provably the same terms (the same outputs,
 * the same latest output time, and every later trigger of the record a
 * return later than every return of a call in one list and not the
 * other), the record's sum of those steps added; the counts and the
 * durations (walk_rest) from the record's (walk_rest_est: O(calls
 * changed)).  Equal to the exact walk but for
 * the rounding of the sums (a few units in the last place of the terms'
 * magnitudes): for pruning only (joint_prune.c).  *synced: the walk
 * stopped early.  PB_OK or PB_ENOMEM */
int joint_req_walk_estimate(joint *s, uint32_t q, const uint32_t *k, uint32_t n,
                            const joint_wrec *ref, double *est, int *synced);
/* the same, told that k and the record's list agree on their first j0 and
 * their last cs calls (j0 + cs at most either length; fewer than they
 * agree on is right too, only slower).  PB_OK or PB_ENOMEM */
int joint_req_walk_estimate_at(joint *s, uint32_t q, const uint32_t *k, uint32_t n,
                               const joint_wrec *ref, uint32_t j0, uint32_t cs, double *est,
                               int *synced);
/* conf_sync (speed only, the same results; joint_conf.c): mode 0 of
 * joint_req_walk for list k[0..n) of request q, the very same number,
 * from the record ref (valid, of q, recorded with want_term): the walk
 * resumed and stopped where joint_req_walk_estimate stops, the record's
 * remaining terms then added one by one in its order (the same terms the
 * walk would add: see joint_req_walk_estimate), and what follows the
 * steps (counts, durations) computed in full.  Nothing is recorded.
 * *synced: the walk stopped early.  PB_OK or PB_ENOMEM */
int joint_req_walk_synced(joint *s, uint32_t q, const uint32_t *k, uint32_t n,
                          const joint_wrec *ref, double *ll, int *synced);
/* joint_req_walk_synced with the record's list agreeing with k on its
 * first j0 and last cs calls given; same_ids: the two lists are the same
 * calls and only the returns of k[j0] and k[n - 1 - cs] were exchanged
 * (joint_xwalk.c); rbuf (same_ids only, or NULL): a copy of ref->r,
 * used to walk and left as it was.  The same number as joint_req_walk.
 * PB_OK or PB_ENOMEM */
int joint_req_walk_synced_at(joint *s, uint32_t q, const uint32_t *k, uint32_t n,
                             const joint_wrec *ref, uint32_t j0, uint32_t cs, int same_ids,
                             uint32_t *rbuf, double *ll, int *synced);
/* joint_xwalk.c: request q's log-likelihood (joint_req_ll, the same
 * number; -INFINITY when one of its calls is outside its interval, as
 * joint_repair.c's level_value) with the returns of its calls a and b
 * exchanged (already, in s->pr) and nothing else changed since q's record
 * was made, walked from that record (made here, from q as it stood before
 * the exchange, when there is none for q).  *done 0: not done (q has
 * fewer than joint_xwalk_min calls, or a, b are not both q's calls): the
 * caller walks q afresh.  The caller drops the record (joint_xwalk_drop)
 * whenever q changes otherwise.  PB_OK or PB_ENOMEM */
int joint_xwalk_top(joint *s, uint32_t q, uint32_t a, uint32_t b, double *ll, int *done);
/* swap_tail_tree (joint_xtail.c): the sequential sum s0 + term[j] + ...
 * + term[e - 1] of record rf's terms (each added to the running sum in
 * order, rounded to nearest, as the walk adds them), bit for bit; from
 * rf's trees in O(log n) a change of binade once rf has added XT_WARM of
 * its lengths one by one (before: one by one).  x NULL: one by one */
typedef struct joint_xtail joint_xtail;
double joint_xtail_sum(joint_xtail *x, const joint_wrec *rf, uint32_t j, uint32_t e, double s0);
/* a tail summer with no trees (NULL: no memory) */
joint_xtail *joint_xtail_new(void);
/* drop its trees (the record changed) */
void joint_xtail_reset(joint_xtail *x);
/* free it (NULL-safe) */
void joint_xtail_free(joint_xtail *x);
/* tail sums made from trees (metadata swap_tail_sums) */
size_t joint_xtail_used(const joint_xtail *x);
/* the xwalk record's tail summer (joint_xwalk.c; NULL when none) */
joint_xtail *joint_xwalk_tail(joint *s);
/* joint_repair.c: exchange the returns of calls a and b (ret, rs, rr) */
void joint_swap_ret(joint *s, uint32_t a, uint32_t b);
/* drop the record if it is of one of q[0..n) (q NULL: in any case) */
void joint_xwalk_drop(joint *s, const uint32_t *q, uint32_t n);
/* free the record (joint_close) */
void joint_xwalk_free(joint *s);
/* exchanges scored from a record (metadata swap_top_resumed) */
size_t joint_xwalk_used(const joint *s);
/* the least calls a request needs for its record (64; a test hook) */
extern uint32_t joint_xwalk_min;
/* swap_resume (joint_model.c xresume_at): how many exchanges walked from a
 * record resumed later than at their first middle step (a count for the
 * tests; results are the same) */
size_t joint_xwalk_resumed(const joint *s);
/* test hook (joint_model.c): 1, joint_req_walk_synced skips the record's
 * last step term; 2, the durations term's last (joint_corr_ll_sync): a
 * wrong shortcut on purpose; 0 otherwise */
extern int joint_sync_test_drop;
/* walk_lean test hook (joint_model.c walk_is_lean): 1 takes the lean steps
 * whatever the state (a wrong selection), 0 the state's choice */
extern int joint_walk_test_force;
/* may a split whose estimate (joint_req_walk_estimate, summed) is est be
 * left out when only a value above bound matters?  Counts it
 * (joint_search.c) */
int joint_prunable(joint *s, double est, double bound);
/* added to every estimate before pruning (joint_search.c): 0; a unit test
 * sets it to show that a wrong estimate changes results (test hook only) */
extern double joint_prune_test_bias;
/* joint_bnb.c: may the exhaustive re-split of q1, q2 (fixed calls f1, f2,
 * shared calls set[0..m)) go by branch and bound (`resplit_bound`, no
 * durations term on either service, every list in call order)?  1 or 0 */
int joint_bnb_usable(const joint *s, uint32_t q1, uint32_t q2, const uint32_t *f1,
                     uint32_t n1, const uint32_t *f2, uint32_t n2, const uint32_t *set,
                     uint32_t m);
/* joint_bnb.c: val[mask] for every split of the exhaustive re-split: its
 * value (the same number as scoring it afresh), or -INFINITY for a split
 * an upper bound showed below a scored one's (so never chosen: the current
 * split cur counts with its 1e-9 bonus).  PB_OK or PB_ENOMEM */
int joint_bnb_resplit(joint *s, uint32_t q1, uint32_t q2, const uint32_t *f1, uint32_t n1,
                      const uint32_t *f2, uint32_t n2, const uint32_t *set, uint32_t m,
                      uint32_t cur, double *val);
/* joint_bnb.c: free s->bnb (NULL-safe) */
void joint_bnb_free(joint *s);
/* joint_greedy.c: before a greedy round: may the trigger search stop at
 * the first call sent after the call placed (greedy_cut, and every
 * pair's return follows its call) */
void joint_greedy_prep(joint *s);
/* joint_greedy.c: the greedy round's cost of giving call p to request q
 * (edge_cost minus the marginal count term of joint_search.c, the very
 * same number) */
double joint_greedy_cost(const joint *s, uint32_t p, uint32_t q);
/* joint_greedy.c: the parts of joint_greedy_cost that read q's kid list,
 * the pairs' times and the parallel flags but not the densities: the
 * trigger's time *tt and link code *trig (0: the arrival) and the count
 * *cnt of q's other calls on p's link */
void joint_greedy_trig(const joint *s, uint32_t p, uint32_t q, pb_ns *tt, uint32_t *trig,
                       uint32_t *cnt);
/* joint_greedy.c (greedy_cut): per request, the tick of the last change
 * of its kid list by the greedy rounds (NULL: none kept; valid until the
 * next joint_greedy_round_start); in *tick where the current tick is
 * kept (NULL: none), in *solves how many joint_solve_rounds have started */
const uint64_t *joint_greedy_ticks(const joint *s, const uint64_t **tick, uint64_t *solves);
/* joint_tcache.c (greedy_tcache): a greedy round starts, after
 * joint_greedy_round_start (the trigger parts kept from earlier rounds of
 * this joint_solve_rounds stay valid unless the parallel flags, the
 * caller pooling or the call order test changed).  PB_OK or PB_ENOMEM */
int joint_tcache_round_start(joint *s);
/* joint_tcache.c: joint_greedy_cost(s, p, s->cand[j]) (the same bits),
 * the trigger parts taken from the last evaluation of the slot when the
 * request's kid list has not changed since (joint_greedy_moved) */
double joint_tcache_cost(joint *s, uint32_t p, uint32_t j);
/* joint_tcache.c: 0; a unit test sets it (the kept parts used whatever
 * changed since, to show that the comparison can fail) */
extern int joint_tcache_test_stale;
/* joint_tcache.c: free s->tcache (NULL-safe) */
void joint_tcache_free(joint *s);
/* joint_greedy.c: 0; a unit test raises it (the trigger search then stops
 * that much too early) to show the comparison can fail */
extern pb_ns joint_greedy_test_shift;
/* joint_greedy.c: 0; a unit test sets it (every call evaluated under the
 * current model left as it is, whatever changed since) */
extern int joint_greedy_test_stale;
/* joint_greedy.c: a joint_solve_rounds starts (the greedy rounds before
 * it say nothing of its own) */
void joint_greedy_solve_start(joint *s);
/* joint_greedy.c: a greedy round starts; the evaluations of the rounds
 * before are void unless they ran in this joint_solve_rounds under this
 * fit.  PB_OK or PB_ENOMEM */
int joint_greedy_round_start(joint *s);
/* joint_greedy.c: 1 when call p was evaluated (under this model) after
 * the last change of every one of its candidates' kid lists: it would
 * choose as it did (counted in greedy_skipped) */
int joint_greedy_unchanged(joint *s, uint32_t p);
/* joint_greedy.c: call p was evaluated now */
void joint_greedy_evaluated(joint *s, uint32_t p);
/* joint_greedy.c: a call moved from request `from` to `to` (either may be
 * JOINT_NONE) */
void joint_greedy_moved(joint *s, uint32_t from, uint32_t to);
/* joint_greedy.c: free s->gfrz (NULL-safe) */
void joint_greedy_free(joint *s);
/* joint_lsdirty.c (ls_dirty_solve): a solve's re-split passes start
 * (the marks of earlier solves' passes cleared when the option is on) */
void joint_lsdirty_solve_start(joint *s);
/* joint_lsdirty.c: a re-split pass of joint_solve_rounds starts (the
 * test's deliberately wrong variant clears the marks here too) */
void joint_lsdirty_pass_start(joint *s);
/* joint_lsdirty.c: the metadata line (none with the option off); PB_OK or
 * pb_result_meta's error */
int joint_lsdirty_meta(const joint *s, pb_result *res);
/* joint_lsdirty.c: a kept re-split marked requests q1 and q2 */
void joint_lsdirty_marked(joint *s, uint32_t q1, uint32_t q2);
/* joint_lsdirty.c: free s->lsd_old and s->lso_mark (NULL-safe) */
void joint_lsdirty_free(joint *s);
/* joint_lsmargin.c (ls_margin): a fingerprint of what the re-split of q1 and
 * q2 reads of the two requests (their pairs, ends, calls, shared set) */
uint64_t joint_lsmg_fp(const joint *s, uint32_t q1, uint32_t q2, const uint32_t *set,
                       uint32_t m, uint32_t cur, const uint32_t *f1, uint32_t n1,
                       const uint32_t *f2, uint32_t n2);
/* joint_lsmargin.c (ls_margin): 1 when the re-split of q1 and q2 may be left
 * out (same fingerprint and kind of solve as a recorded kept split whose
 * margin is at least ls_margin), else 0 */
int joint_lsmg_skip(joint *s, uint32_t q1, uint32_t q2, uint64_t fp);
/* joint_lsmargin.c (ls_margin): record a kept split's margin (nats) for the
 * pair; PB_OK or PB_ENOMEM */
int joint_lsmg_note(joint *s, uint32_t q1, uint32_t q2, uint64_t fp, double margin);
/* Shared by ls_margin and rs_confirm (joint_lsmargin.c): a 64-bit running
 * hash step (equality only); a call's fingerprint (index, return, its two
 * times) mixed into h; the unordered pair key of two requests; the entry
 * of key k in a growable array of entries of esz bytes (*e, *n used, *cap)
 * indexed by h: found, or appended (the array may move: *e is updated),
 * its index in *out.  PB_OK or PB_ENOMEM (nothing lost: *e stays valid) */
uint64_t joint_ls_mix(uint64_t h, uint64_t x);
uint64_t joint_ls_mix_call(const joint *s, uint64_t h, uint32_t p);
uint64_t joint_ls_pair_key(uint32_t q1, uint32_t q2);
/* frees the key and value arrays of the n indexes idx (not idx itself) */
void joint_ls_index_free(hmap *idx, int n);
int joint_ls_slot(hmap *h, uint64_t k, void **e, uint32_t *n, uint32_t *cap, size_t esz,
                  uint32_t *out);
/* joint_lsmargin.c, for tests only: the re-splits ls_margin would leave out
 * are made anyway and those that move a call counted (lsmg_flips) */
extern int joint_lsmg_test_verify;
/* joint_lsmargin.c: free s->lsmg (NULL-safe) */
void joint_lsmg_free(joint *s);
/* joint_lsmargin.c: the metadata line (only with the option on) */
int joint_lsmg_meta(const joint *s, pb_result *res);
/* joint_lsdirty.c (ls_open_fresh): the re-split passes of a solve start;
 * refit: the solve refits between them.  Without refits (and the option
 * on) the requests its passes change are recorded.  PB_OK, or PB_ENOMEM */
int joint_lsopen_begin(joint *s, int refit);
/* joint_lsdirty.c (ls_open_fresh): 1 when a later pass of a solve without
 * refits may leave out the re-split of q1 and q2 (neither changed by this
 * solve's passes: the first pass found their split under the same model),
 * else 0 */
int joint_lsopen_skip(joint *s, uint32_t q1, uint32_t q2);
/* joint_lsdirty.c (ls_open_fresh): the solve's passes ended */
void joint_lsopen_end(joint *s);
/* joint_lsdirty.c, for tests only: ls_open_fresh's skips in solves that
 * refit between their passes too (wrong: there the refit can change a
 * split) */
extern int joint_lsopen_test_refit;
/* joint_lsdirty.c, for tests only: also clear the marks at every later
 * pass (the later passes then visit nothing) */
extern int joint_lsdirty_test_every_pass;
/* joint_lsmemo.c (resplit_memo): a local search starts (earlier estimates
 * void); PB_ENOMEM or PB_OK */
int joint_lsmemo_begin(joint *s);
/* joint_lsmemo.c: request q's kid list changed */
void joint_lsmemo_touch(joint *s, uint32_t q);
/* joint_lsmemo.c: 1 and *v the estimate of request q without call p made
 * in this local search since q last changed, else 0 */
int joint_lsmemo_get(joint *s, uint32_t q, uint32_t p, double *v);
/* joint_lsmemo.c: keep v as the estimate of request q without call p;
 * PB_ENOMEM or PB_OK */
int joint_lsmemo_put(joint *s, uint32_t q, uint32_t p, double v);
/* joint_lsmemo.c: free s->lsm (NULL-safe) */
void joint_lsmemo_free(joint *s);
/* set bits of x (no libgcc call: the build has no popcnt instruction) */
static inline uint32_t joint_bits32(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

/* bits 0..m-1 of y in reverse order (bit m-1 becomes bit 0), m <= 32:
 * the value of the loop x |= ((y >> (m - 1 - t)) & 1) << t over t < m,
 * by swapping halves (test_joint_wcache.c compares the two) */
static inline uint32_t joint_rev_bits(uint32_t y, uint32_t m)
{
    if (m == 0)
        return 0;
    y = ((y >> 1) & 0x55555555u) | ((y & 0x55555555u) << 1);
    y = ((y >> 2) & 0x33333333u) | ((y & 0x33333333u) << 2);
    y = ((y >> 4) & 0x0f0f0f0fu) | ((y & 0x0f0f0f0fu) << 4);
    y = ((y >> 8) & 0x00ff00ffu) | ((y & 0x00ff00ffu) << 8);
    y = (y >> 16) | (y << 16);
    return y >> (32 - m);
}
/* joint_gsort.c (greedy_sorted): a greedy round starts (earlier entries
 * void; nothing kept or used unless the option and greedy_cut are on);
 * PB_ENOMEM or PB_OK */
int joint_gsort_round_start(joint *s);
/* joint_gsort.c: the greedy round ends (nothing used until the next) */
void joint_gsort_round_end(joint *s);
/* joint_gsort.c: request q's kid list changed */
void joint_gsort_touch(joint *s, uint32_t q);
/* joint_gsort.c: 1 and joint_greedy_trig's parts (the same numbers) from
 * q's sorted returns, in a greedy round when q has at least JOINT_GS_MIN
 * calls; else 0 (outputs untouched) */
int joint_gsort_trig(joint *s, uint32_t p, uint32_t q, pb_ns *tt, uint32_t *trig,
                     uint32_t *cnt);
/* joint_gsort.c: free s->gs (NULL-safe) */
void joint_gsort_free(joint *s);
/* joint_gsort.c: 0; a unit test sets it (one round's sorted returns kept
 * into the next and after changes) */
extern int joint_gsort_test_stale;
/* joint_vcache.c: a local search starts (earlier values void);
 * PB_ENOMEM or PB_OK */
int joint_vcache_begin(joint *s);
/* joint_vcache.c: the local search ends (nothing kept or used until the
 * next begins) */
void joint_vcache_end(joint *s);
/* joint_vcache.c: joint_req_walk(s, q, k, n, 0, ll), its value taken from
 * an earlier walk of q with the same list in this local search when one
 * is kept (the same bits), else walked and kept.  PB_ENOMEM or PB_OK */
int joint_vcache_walk(joint *s, uint32_t q, const uint32_t *k, uint32_t n, double *ll);
/* joint_vcache.c: free s->vc (NULL-safe) */
void joint_vcache_free(joint *s);
/* joint_corr.c (pairs_share): s->cdir given back with only its set cells
 * cleared, kept in s->cdir_spare for the next joint_corr_init of s (the
 * same links, so the same size); with pairs_share=0 freed.  s->cdir NULL
 * after */
void joint_corr_drop_dir(joint *s);
/* joint_corr.c: 0; a unit test sets it (a drop clears the set cells to 0,
 * not NONE, as a wrong clearing would) */
extern int joint_corr_test_fault;
/* joint_bufshare.c (pairs_share): s's vcache, wcache and gsort (what the
 * holder of s->selshare lacks) moved there when s's search is done; NULL
 * selshare or pairs_share=0: nothing */
void joint_bufshare_park(joint *s);
/* joint_bufshare.c: the caches s lacks taken from its selshare's holder
 * (each cache's begin calls it before allocating its own) */
void joint_bufshare_take(joint *s);
/* joint_bufshare.c: the holder h's caches and h freed (NULL-safe) */
void joint_bufshare_release(joint *h);
/* joint_bufshare.c: 0; a unit test sets _on, then counts caches taken
 * and cleared cdir tables reused (joint_corr.c) */
extern int joint_bufshare_test_on;
extern long joint_bufshare_test_taken, joint_bufshare_test_cdir;
/* joint_fitfast.c: the caches' holder slot of c (NULL when c is NULL) */
joint **joint_selshare_park(struct joint_selshare *c);
/* joint_vcache.c: 0; a unit test sets them (off: no value kept; stale:
 * the values of one local search kept into the next, on purpose) */
extern int joint_vcache_test_off, joint_vcache_test_stale;
/* joint_wcache.c (resplit_wcache): a local search starts (earlier records
 * void; nothing kept or used unless the option is on); PB_ENOMEM or PB_OK */
int joint_wcache_begin(joint *s);
/* joint_wcache.c: the local search ends (nothing kept or used until the
 * next begins) */
void joint_wcache_end(joint *s);
/* joint_wcache.c: *hit 1 and out, *ll the record and value of the fresh
 * walk of request q with the list k[0..n) made earlier in this local
 * search, else *hit 0 (out untouched).  PB_ENOMEM or PB_OK */
int joint_wcache_get(joint *s, uint32_t q, const uint32_t *k, uint32_t n, joint_wrec *out,
                     double *ll, int *hit);
/* joint_wcache.c: keep w (a fresh walk of request q, value ll) for this
 * local search, when one runs; PB_ENOMEM or PB_OK */
int joint_wcache_put(joint *s, uint32_t q, const joint_wrec *w, double ll);
/* joint_wcache.c: free s->wc (NULL-safe) */
void joint_wcache_free(joint *s);
/* joint_wcache.c: 0; a unit test sets it (the records of one local search
 * kept into the next, across the refit between them) */
extern int joint_wcache_test_stale;
/* joint_lsmemo.c: 0; a unit test sets it (the kept estimates made wrong
 * by this many nats) */
extern double joint_lsmemo_test_bias;
/* joint_lsmemo.c: 0; a unit test sets it (a change of a kid list no
 * longer voids the kept estimates) */
extern int joint_lsmemo_test_stale;
/* added to every bound (joint_bnb.c): 0; a unit test lowers it to show
 * that a bound below the true values changes results (test hook only) */
extern double joint_bnb_test_bias;
/* joint_bnb.c, for tests only: bnb_row_keep never keeps a row */
extern int joint_bnb_test_rowkeep;
/* swap_floor (joint_xfloor.c): the value the top re-split of an exchange
 * tried at depth D must exceed to matter (best gain so far, the top's
 * value before, the exchanged levels' change xsum, the depth's margin),
 * lowered by JOINT_PRUNE_TOL of the magnitudes; -INFINITY when off or not
 * finite */
double joint_xfloor(const joint *s, double best, double xsum, double before, double margin);
/* joint_xfloor's floor into s->xfloor, s->xfloor_on set when it is finite
 * (the caller clears xfloor_on after the re-split) */
void joint_xfloor_set(joint *s, double best, double xsum, double before, double margin);
/* under a floor, does a re-split of m shared calls go by the pruned (and
 * bounded) path whatever the requests' size (joint_xfloor.c)? */
int joint_xfloor_route(const joint *s, uint32_t m);
/* swap_memo (joint_xfloor.c): within one pass of exchanges, request q's
 * joint_req_ll kept from the first time; begin (PB_OK or PB_ENOMEM),
 * clear (every value), drop (after an exchange is applied), end */
int joint_xmemo_begin(joint *s);
void joint_xmemo_clear(joint *s);
/* The requests an exchange applied up to depth d touches (x[0..d], y[0..d]
 * the requests of its levels, JOINT_NONE left out, and the top two's
 * parents: a request's walk reads its own call and return, its kids and
 * theirs), into out (room for 2d + 4; repeats possible); their count.
 * O(d), not O(requests), so an exchange applied at every try stays
 * linear. */
uint32_t joint_xchg_touched(const joint *s, const uint32_t *x, const uint32_t *y, uint32_t d,
                            uint32_t *out);
/* after an exchange applied: the values of the n requests q[] it touched
 * (joint_xchg_touched) dropped */
void joint_xmemo_drop(joint *s, const uint32_t *q, uint32_t n);
void joint_xmemo_end(joint *s);
double joint_xmemo_ll(joint *s, uint32_t q);
/* tests only: the memo never cleared (stale values on purpose change results) */
extern int joint_xmemo_test_stale;
/* tests only: added to the floor (a floor too high on purpose changes results) */
extern double joint_xfloor_test_bias;
/* test hooks of bnb_step_keys (each step bound leaves out the latest return
 * received by its output) and bnb_count_masks (the calls placed before the
 * first free one not counted): both make bounds wrong on purpose; 0 in use */
extern int joint_bnb_test_keys, joint_bnb_test_masks;
/* the y-th split of m shared calls in the Gray code of the reversed
 * bits: each differs from the one before in one call, most often the
 * latest (bit m - 1), so that walks resumed from the one before resume
 * late */
static inline uint32_t joint_gray_mask(uint32_t y, uint32_t m)
{
    uint32_t g = y ^ (y >> 1), mask = 0;
    for (uint32_t t = 0; t < m; t++)
        mask |= ((g >> t) & 1u) << (m - 1 - t);
    return mask;
}
/* log-likelihood of request q with its current kids */
double joint_req_ll(joint *s, uint32_t q);
/* log-probability of the order of service of two requests' first calls
 * (0 when the order term is off or not in question) */
double joint_order_ll(const joint *cs, uint32_t q1, const uint32_t *k1, uint32_t n1,
                      uint32_t q2, const uint32_t *k2, uint32_t n2);
/* refit densities and counts from the current assignment (requests with
 * only[q] == 0 are skipped when only is not NULL).  PB_OK or PB_ENOMEM */
int joint_fit(joint *s, const unsigned char *only);
/* the order statistics (ord_n, ord_k, ord_inv, ord_keep) of every link from
 * the current assignment.  PB_OK or PB_ENOMEM */
int joint_fit_order(joint *s);

/* joint_search.c.  One reassignment round (greedy or flow); *changed
 * counts the calls that moved.  PB_OK or PB_ENOMEM */
int joint_match_round(joint *s, int *changed);
/* the kids of one side of a re-split (fixed kids fx[0..nf) merged with
 * the shared calls set[0..m) whose bit in mask equals side), sorted by call
 * time into out; returns how many */
uint32_t joint_resplit_list(const joint *s, const uint32_t *fx, uint32_t nf,
                            const uint32_t *set, uint32_t m, uint32_t mask, uint32_t side,
                            uint32_t *out);
/* free the re-split's merged lists (joint_close) */
void joint_resplit_free(joint *s);
/* passes of the exact re-split; *changed counts moves.  PB_OK or PB_ENOMEM */
int joint_local_search(joint *s, int *changed);
/* Steps 2-3 once: up to `iters` reassignment rounds (stopping when nothing
 * moves), then up to `passes` re-split passes (stopping likewise), the
 * model refitted before each when refit is set (else kept frozen).
 * PB_OK or PB_ENOMEM */
int joint_solve_rounds(joint *s, int refit, int passes);
/* joint_rinf.c (repair_inf_skip): the re-pairing's exchange of returns k1
 * (of call c1) and k2 (of c2, the later call of the two), its cost alt =
 * cost(c1, k2) + cost(c2, k1) as repair_pairs adds them, with the first
 * term left out where the second is infinite (the sum is then infinite
 * or NaN, and the exchange rejected either way); rsv / rrv are the
 * link's return times (sent, received).  Reads, never writes, the state */
double joint_rinf_alt(joint *s, uint32_t c1, uint32_t c2, uint32_t k1, uint32_t k2,
                      const pb_ns *rsv, const pb_ns *rrv);
/* 1 when the exchange with cost alt (joint_rinf_alt) is rejected without
 * the order-of-answers term (repair_inf_skip; counted in rinf_skipped) */
int joint_rinf_reject(joint *s, double alt);
/* test hook: > 0 also rejects exchanges whose second cost is above this
 * many nats (an inexact cut, to show the unit test catches one); 0 */
extern double joint_rinf_test_inexact;
/* joint_fit(s, NULL), left out (refit_skip_same, its fit_gen moved on)
 * where the last step was a joint_solve_rounds that ended with a refit and
 * a round or pass that moved nothing, and the refit would take its
 * unchanged path (joint_ff_unchanged): the model is that refit's.  Called
 * after joint_solve_rounds with only read-only steps between (any
 * joint_fit clears rounds_fresh, and so does this).  PB_OK or PB_ENOMEM */
int joint_refit(joint *s);

/* joint_corr.c.  The log-likelihood term of the durations of the
 * consecutive whole calls k[0..n) (sorted by call time) of a request on
 * incoming link ein (0 when the term is off or not fitted) */
double joint_corr_ll(const joint *s, uint32_t ein, const uint32_t *k, uint32_t n);
/* the same number, and cp[0..n]: cp[i] the sum of the terms of the calls
 * before k[i] (a walk record's, joint_req_walk_resume); with ct (not NULL)
 * ct[i] the term added at k[i], 0 when none (conf_sync) */
double joint_corr_ll_rec(const joint *s, uint32_t ein, const uint32_t *k, uint32_t n,
                         double *cp, double *ct);
/* conf_sync: joint_corr_ll of k[0..n), the very same number, from a record
 * of the list rk[0..rn) (its cp and ct: rcp, rct) that agrees with it on
 * its first j0 and its last cs calls */
double joint_corr_ll_sync(const joint *s, uint32_t ein, const uint32_t *k, uint32_t n,
                          uint32_t j0, uint32_t cs, uint32_t rn, const double *rcp,
                          const double *rct);
/* joint_corr_ll of k[0..n), up to the rounding of the sums, from a record
 * of the list rk[0..rn) (its cp: rcp) that agrees with it on its first j0
 * and its last cs calls (j0 + cs <= n, rn): O(calls in between), for the
 * re-split's estimates (joint_req_walk_estimate) */
/* the durations term's term of call b following call a in a request of
 * in link ein (0 when either is not whole or the key has no correlation):
 * the number joint_corr_ll adds for them (joint_bnb.c's bound) */
double joint_corr_term(const joint *s, uint32_t ein, uint32_t a, uint32_t b);
double joint_corr_ll_est(const joint *s, uint32_t ein, const uint32_t *k, uint32_t n,
                         uint32_t j0, uint32_t cs, uint32_t rn, const double *rcp);
/* add those calls' durations to the fit.  PB_OK or PB_ENOMEM */
int joint_corr_add(joint *s, uint32_t q, uint32_t ein, const uint32_t *k, uint32_t n);
/* mark the pairs beyond doubt (s->sure), whose requests the fit uses.
 * PB_OK or PB_ENOMEM */
int joint_corr_init(joint *s);
/* test hook: the durations term on, with a key for every two consecutive
 * whole calls of the current assignment, each correlated by rho (about
 * standardized log durations of mean 5 and deviation 0.5); until the next
 * fit.  PB_OK or PB_ENOMEM */
int joint_corr_force(joint *s, double rho);
/* clear the sums before a refit; fit from the sums after it */
void joint_corr_reset(joint *s);
void joint_corr_finish(joint *s);

/* Test hook (tests only, 0 otherwise): the self-calibration's copy takes
 * the real trace's choice with each service's counts flipped, so that a
 * test can show a wrong choice changes the copy's search. */
extern int joint_select_test_flip;

/* joint_select.c.  Which signals each service obeys, learned from the
 * trace by held-out likelihood (docs/joint/model.md, "Signals chosen per
 * service"): its delay densities and call counts keyed by caller or
 * pooled over its callers, its call counts scored or flat, the durations
 * of its consecutive calls scored or not.  Two folds over the requests
 * beyond doubt; sets s->kein, s->cnt_flat, s->corr_svc.  Runs before the
 * search.  PB_OK or PB_ENOMEM */
int joint_select(joint *s);
/* end of joint_fit: the count term of services whose counts are flat
 * scores 0 */
void joint_select_fit_hook(joint *s);

/* joint_fitfast.c (fit_fast: speed only, the same numbers).  The refit's
 * state for the nkeys keys (call before a refit's densities).  PB_OK or
 * PB_ENOMEM */
typedef struct joint_ff joint_ff;
int joint_ff_begin(joint *s);
/* key k's logf row and kmean from its raw histogram and sums, bit for bit
 * joint_fit's own loop, over the bins the smoothing reaches only; sm the
 * fit's smoothing workspace, y nb doubles of scratch.  PB_OK or
 * PB_EINVAL / PB_ENOMEM (the smoothing's) */
struct joint_smooth;
int joint_ff_density(joint *s, uint32_t k, struct joint_smooth *sm, double *y);
/* free the state (NULL-safe on s->ff) */
void joint_ff_free(joint *s);
/* a refit's start (before its walks; only: its part of the requests, or
 * NULL): joint_ff_begin, and the records made stale when the fit is
 * partial or the model was reset.  PB_OK or PB_ENOMEM */
int joint_ff_fit_start(joint *s, const unsigned char *only);
/* after the refit's pflag (full: a fit of every request): stale records
 * when a learned parallel call changed */
void joint_ff_pflag_seen(joint *s, int full);
/* at a full refit's start, after joint_ff_fit_start: 1 when the last refit
 * was full, in this epoch, recorded every request, with these keys, and
 * every request reads what it read then (nothing a walk adds can differ),
 * else 0 */
int joint_ff_unchanged(joint *s);
/* after a refit's order of service (full: of every request): its rates
 * are those of the assignment its records hold (when the refit recorded
 * every request) */
void joint_ff_order_done(joint *s, int full);
/* in a refit joint_ff_unchanged let skip: 1 when the order rates held
 * were fitted on the same assignment (its last full refit fitted them),
 * so they need not be fitted again */
int joint_ff_order_same(const joint *s);
/* the durations term's sums made again (joint_corr_reset, joint_corr_add
 * of every request as the walks add it), for a refit joint_ff_unchanged
 * let skip its walks.  PB_OK or PB_ENOMEM */
int joint_ff_corr_again(joint *s);
/* request q's part of a full refit: its recorded contributions added
 * again when it reads what it read then, else joint_req_walk (mode 1),
 * recorded.  PB_OK or PB_ENOMEM */
int joint_ff_walk(joint *s, uint32_t q);
/* the recording walk's contribution (kind 0 delay: key a, bin b, log10
 * delay x; 1 parallel count: entry a, overlap b; 2 count cell a) */
void joint_ff_log(joint *s, uint32_t kind, uint32_t a, uint32_t b, double x);
/* test hook (tests/unit/test_joint_fitfast.c): nonzero replays a record
 * of the same epoch and count of calls without comparing what it read:
 * the results must then differ */
extern int joint_ff_test_stale;
/* requests with at least this many calls count their parallel calls by a
 * sweep (joint_model.c par_sweep: O(n log n)) instead of pair by pair
 * (O(n^2)); the same counts.  A test hook: 0 sweeps every request */
extern uint32_t joint_par_sweep_min;
/* effort counters: requests replayed (or found unchanged) and walked by
 * the full refits, refits whose walks were all skipped */
void joint_ff_counts(const joint *s, size_t *replayed, size_t *walked, size_t *skipped);
/* joint_select's choice shared by joint_init's two searches
 * (select_share).  new: an empty holder (NULL: out of memory, nothing is
 * shared); free: NULL-safe. */
typedef struct joint_selshare joint_selshare;
joint_selshare *joint_selshare_new(void);
void joint_selshare_free(joint_selshare *c);
/* key_room (joint_keyroom.c): the per-key room the first search ended
 * with, kept for the later ones (NULL-safe: 0, nothing kept) */
uint32_t joint_selshare_keyroom(const joint_selshare *c);
void joint_selshare_set_keyroom(joint_selshare *c, uint32_t room);
/* joint_keyroom.c (key_room): the per-key arrays (and joint_fit's raw
 * copies) given room for cap keys at once, under fit_fast, when cap is
 * more than they hold; capacities only.  PB_OK or PB_ENOMEM */
int joint_keyroom_reserve(joint *s, uint32_t cap);
/* the room a new search starts with: the real trace's search's for the
 * self-calibration's copy (p.sel_from), else what share keeps (0: none) */
uint32_t joint_keyroom_hint(const joint *s, const joint_selshare *share);
/* joint_pshare.c (pairs_share): joint_find_pairs' result kept by the
 * first search without call ids for a later one of the same trace view
 * and options.  joint_pshare_find: in place of joint_find_pairs(s)
 * (s->pair_of_msg allocated), taking or leaving the pairing in share's
 * slot (share NULL or the option off: joint_find_pairs alone).  PB_OK,
 * PB_ENOMEM or joint_find_pairs' error.  free: NULL-safe */
typedef struct joint_pshare joint_pshare;
int joint_pshare_find(joint *s, joint_selshare *share);
void joint_pshare_free(joint_pshare *c);
/* share's slot for it (NULL when share is NULL) */
joint_pshare **joint_selshare_pairs(joint_selshare *c);
/* test hook (tests/unit/test_joint_keyroom.c): nonzero exchanges two
 * free returns of one link in a pairing taken, as a wrong copy would */
extern int joint_pshare_test_fault;
/* test hook (tests/unit/test_joint_keyroom.c): nonzero fills the room
 * joint_keyroom_reserve gives with 0xff bytes (NaN doubles), so that a
 * row read before it is written shows */
extern int joint_keyroom_test_poison;
/* ll_share (joint_llshare.c): l0[0], l0[1] = joint_loglik of a (the free
 * search) and b (the held one); lo[0], lo[1] their joint_order_score, each
 * from the l0 just computed (ll_share 1) or computed again (0): the same
 * bits.  PB_OK or PB_ENOMEM */
int joint_llshare_scores(joint *a, joint *b, double l0[2], double lo[2]);
/* test hook (tests/unit/test_joint_llshare.c): nonzero scores a from b's
 * log-likelihood, as a value taken from the wrong search would */
extern int joint_llshare_test_wrong;
/* At joint_select's start: h gets the fingerprint of its input (0 when
 * s->selshare is NULL or select_share off); when the holder has a choice
 * of the same fingerprint, s->sel gets the holder's table (held, shared
 * read-only: joint_sel_hold; entries of sel_size bytes), s->cnt_flat and
 * s->corr_svc get copies, *dens and *cnts the pooled services
 * (malloc'd, the caller frees them), *fits the joint_fit calls it took:
 * returns 1; 0 when not; -1 out of memory (nothing set). */
int joint_selshare_take(joint *s, size_t sel_size, uint64_t h[2], unsigned char **dens,
                        unsigned char **cnts, uint32_t *fits);
/* At joint_select's end: the holder (if any, and empty) keeps the choice
 * and the fingerprint h taken at the start.  PB_OK (a failed copy keeps
 * nothing) */
int joint_selshare_put(joint *s, size_t sel_size, const uint64_t h[2],
                       const unsigned char *dens, const unsigned char *cnts, uint32_t fits);
/* the requests of in link ein and of every link pooled with it */
double joint_select_link_requests(const joint *s, uint32_t ein);
/* the held-out requests joint_select's choices for service b rested on
 * (0 when it did not test b) */
double joint_select_heldout(const joint *s, uint32_t b);
/* the choices per service into the result metadata (sorted by name) */
void joint_select_meta(const joint *s, pb_result *res);
/* free the selection's state (joint_close) */
void joint_select_free(joint *s);

/* cand_sweep (joint_csweep.c): a max-tree over a service's requests in
 * the order they began, keyed by their ends, for joint_find_candidates */
typedef struct joint_ctree {
    pb_ns *mx;   /* 2 size entries: mx[1] the root, leaves from mx[size] */
    size_t cap;  /* entries allocated */
    uint32_t size;
} joint_ctree;
/* make t empty for n positions (every end absent); PB_OK or PB_ENOMEM */
int joint_csweep_init(joint_ctree *t, uint32_t n);
/* position pos (< the n of init) holds a request ending at end */
void joint_csweep_set(joint_ctree *t, uint32_t pos, pb_ns end);
/* the positions whose end e passes joint_find_candidates' two tests at a
 * call sent at cs and answered at rr (not e + w + lw < cs, and e + w >=
 * rr), in increasing order, into out (room for every position); returns
 * how many */
uint32_t joint_csweep_query(const joint_ctree *t, pb_ns w, pb_ns lw, pb_ns cs, pb_ns rr,
                            uint32_t *out);
void joint_csweep_free(joint_ctree *t);
/* the scan's list length above which a call's candidates come from the
 * tree (tests set it to 0 to use the tree everywhere) */
extern uint32_t joint_csweep_min;
/* tests only: the tree's second test one tick short (must be caught) */
extern int joint_csweep_test_wrong;

/* tests only (joint_model.c, swap_ties): the run r[p1, p2), sorted by
 * (rr, pair) with u's and v's rr exchanged, sorted by the current keys by
 * moving only u and v; *p1p, *p2p the positions touched.  1, or 0 (u or v
 * not where the old keys place them; r may be partly moved) */
int joint_ties_resort_test(const joint *s, uint32_t *r, uint32_t p1, uint32_t p2, uint32_t u,
                           uint32_t v, uint32_t *p1p, uint32_t *p2p);

/* repair_pick (joint_rpick.c): repair_pairs' greedy for one link, the
 * calls C[0..nc) by arrival, the returns' send / receipt times rsv, rrv in
 * order sent: to[call] = the return's index, the very same picks as the
 * scan of every open call (ans: pair_order's answered flags, or NULL).
 * PB_OK or PB_ENOMEM (nothing of s written) */
int joint_rpick_greedy(joint *s, const insort *C, uint32_t nc, const pb_ns *rsv,
                       const pb_ns *rrv, uint32_t *to, unsigned char *ans);

/* cand_group (joint_cgroup.c): calls of one caller in a row with the same
 * send and return receipt share their candidate list while the tree is
 * unchanged; the list is kept once and cut per call (the cut of
 * joint_cand_ends, the same result) */
typedef struct joint_cgroup {
    uint32_t *list;      /* the group's candidates in the order of open */
    size_t n, cap;
    uint32_t *ord, *inv; /* positions by (end, position); inv: position -> index */
    pb_ns *oe;           /* the ends in that order */
    size_t ocap;
    size_t lo, hi;       /* the latest-started half's tie group at its boundary */
    size_t kmax;
    uint32_t a;
    pb_ns cs, rr;
    uint64_t gen;        /* the tree's changes when the list was kept */
    int valid, prepped;
} joint_cgroup;
/* forget the group (its memory kept) */
void joint_cgroup_reset(joint_cgroup *g);
void joint_cgroup_free(joint_cgroup *g);
/* keep c[0..got) (got > kmax) as the group of caller a's calls sent at cs,
 * answered at rr, with the tree at change count gen; PB_OK or PB_ENOMEM */
int joint_cgroup_keep(joint_cgroup *g, const uint32_t *c, size_t got, uint32_t a, pb_ns cs,
                      pb_ns rr, uint64_t gen, size_t kmax);
/* 1 when a call (a, cs, rr) at tree change count gen has the group's list */
int joint_cgroup_hit(const joint_cgroup *g, uint32_t a, pb_ns cs, pb_ns rr, uint64_t gen,
                     size_t kmax);
/* the group's list cut to its kmax for a call of rank rot, into out (room
 * for kmax): what joint_cand_ends gives on the full list; PB_OK or
 * PB_ENOMEM */
int joint_cgroup_cut(const joint *s, joint_cgroup *g, size_t rot, uint32_t *out);

#endif
