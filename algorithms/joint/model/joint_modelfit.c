/*
 * joint_modelfit.c - joint: the model's fit from the current assignment
 * (every delay density, the call counts, the order of service) and the
 * whole trace's log-likelihood; split from joint_model.c, which keeps the
 * walks of one request (docs/joint/model.md, "The model").
 */
#include "joint_int.h"
#include "pb_mem.h"
#include "pb_hash.h"
#include "joint_smooth.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

#define NONE JOINT_NONE

/* Refit every density and the call-count model from the assignment. */
/* first call of link l among the calls k[0..n) (sorted by call time), or
 * NONE */
static uint32_t first_of(const joint *s, const uint32_t *k, uint32_t n, uint32_t l)
{
    for (uint32_t i = 0; i < n; i++)
        if (s->pr[k[i]].link == l && s->pr[k[i]].call != NONE)
            return k[i];
    return NONE;
}

/* time of the input that triggered call p in request q whose calls are
 * k[0..n): the latest return of another of them received before p was
 * sent, else q's arrival */
static pb_ns trig_time(const joint *s, uint32_t q, const uint32_t *k, uint32_t n, uint32_t p)
{
    pb_ns tt = s->pr[q].cr, cs = s->pr[p].cs;
    for (uint32_t i = 0; i < n; i++) {
        const jpair *c = &s->pr[k[i]];
        if (k[i] != p && c->ret != NONE && c->rr <= cs && c->rr > tt)
            tt = c->rr;
    }
    return tt;
}

typedef struct ordent {
    pb_ns trig;
    uint32_t q, first;
} ordent;

static int cmp_ordent(const void *x, const void *y)
{
    const ordent *a = x, *b = y;
    if (a->trig != b->trig)
        return a->trig < b->trig ? -1 : 1;
    return a->q < b->q ? -1 : a->q > b->q;
}

/* Order of service: per outgoing link, how often two requests whose first
 * calls of that link were triggered one after the other (by arrivals or
 * returns) make those calls in the other order.  log rho (inverted) and
 * log (1 - rho) per link. */
int joint_fit_order(joint *s)
{
    ordent *e = malloc(((size_t)s->npairs + 1) * sizeof *e);
    if (!e)
        return PB_ENOMEM;
    for (uint32_t l = 0; l < s->nlinks; l++) {
        uint32_t n = 0;
        for (uint32_t i = s->bylink_off[l]; i < s->bylink_off[l + 1]; i++) {
            uint32_t p = s->bylink[i], q = s->par[p];
            if (q == NONE || s->pr[p].call == NONE)
                continue;
            if (first_of(s, s->kids[q].a, s->kids[q].n, l) != p)
                continue;
            e[n++] = (ordent){trig_time(s, q, s->kids[q].a, s->kids[q].n, p), q, p};
        }
        if (n > 1)
            pb_sort(e, n, sizeof *e, cmp_ordent);
        double inv = 0, tot = 0;
        for (uint32_t i = 1; i < n; i++) {
            /* only where the order is a question: the second trigger came
             * before the first call was sent */
            if (e[i].trig > s->pr[e[i - 1].first].cs)
                continue;
            tot++;
            inv += s->pr[e[i].first].cs < s->pr[e[i - 1].first].cs;
        }
        s->ord_n[l] = tot;
        s->ord_k[l] = inv;
        double rho = (inv + 1) / (tot + 2);
        /* a service shown to answer in arrival order: the rate is its
         * overtaking rate, which no assignment can bias */
        const double *sv = s->svc_ord ? s->svc_ord + 3 * (size_t)s->link_src[l] : NULL;
        if (sv && sv[0] < JOINT_ORDER_ALPHA)
            rho = (sv[2] + 1) / (sv[1] + 2);
        s->ord_inv[l] = log(rho);
        s->ord_keep[l] = log(1 - rho);
    }
    free(e);
    return PB_OK;
}

/* log-probability of the order of the first calls of every link made by
 * two requests, given the order of their triggers */
double joint_order_ll(const joint *cs, uint32_t q1, const uint32_t *k1, uint32_t n1,
                       uint32_t q2, const uint32_t *k2, uint32_t n2)
{
    /* each link's first call of either list found in one pass over each
     * (the stamps' epochs: ord_ep for the first list, ord_ep + 1 for the
     * second); the terms added in the order of the first list's first
     * calls, as a search of each list for every call would add them */
    joint *s = (joint *)cs;
    if (s->ord_ep >= UINT32_MAX - 2) {
        memset(s->ord_st1, 0, ((size_t)s->nlinks + 1) * sizeof *s->ord_st1);
        memset(s->ord_st2, 0, ((size_t)s->nlinks + 1) * sizeof *s->ord_st2);
        s->ord_ep = 0;
    }
    const uint32_t e1 = s->ord_ep + 1, e2 = s->ord_ep + 2;
    s->ord_ep += 2;
    for (uint32_t i = 0; i < n2; i++) {
        uint32_t p = k2[i], l = s->pr[p].link;
        if (s->pr[p].call != NONE && s->ord_st2[l] != e2) {
            s->ord_st2[l] = e2;
            s->ord_first[l] = p;
        }
    }
    double v = 0;
    for (uint32_t i = 0; i < n1; i++) {
        uint32_t f1 = k1[i], l = s->pr[f1].link;
        if (s->ord_on && !s->ord_on[l])
            continue;
        if (s->pr[f1].call == NONE || s->ord_st1[l] == e1)
            continue; /* not the first call of its link in k1 */
        s->ord_st1[l] = e1;
        if (s->ord_st2[l] != e2)
            continue;
        uint32_t f2 = s->ord_first[l];
        /* the order matters only when both triggers came before both
         * calls (and they differ); a trigger is no earlier than its
         * request's arrival, so a later arrival rules it out first, then
         * each trigger in turn */
        pb_ns c1 = s->pr[f1].cs, c2 = s->pr[f2].cs, cmin = c1 < c2 ? c1 : c2;
        if (s->pr[q1].cr > cmin || s->pr[q2].cr > cmin)
            continue;
        pb_ns t1 = trig_time(s, q1, k1, n1, f1);
        if (t1 > cmin)
            continue;
        pb_ns t2 = trig_time(s, q2, k2, n2, f2);
        if (t1 == t2 || t2 > cmin)
            continue;
        int b = c1 < c2 || (c1 == c2 && f1 < f2);
        v += b == (t1 < t2) ? s->ord_keep[l] : s->ord_inv[l];
    }
    return v;
}

/* what follows a refit's densities: the durations term's fit, the order
 * of service (not when order_same: its rates are those of the same
 * assignment already), the call counts' log-probabilities.  PB_OK or
 * PB_ENOMEM */
static int fit_tail(joint *s, int order_same)
{
    joint_corr_finish(s);
    if (s->order_active && !order_same) {
        int rc = joint_fit_order(s);
        if (rc != PB_OK)
            return rc;
    }
    /* call counts: P(k) = (n_k + alpha) / (N + alpha (K+1)) */
    const double al = s->p.alpha;
    for (uint32_t e = 0; e < s->nlinks; e++) {
        uint32_t b = s->link_dst[e];
        uint32_t no = s->out_off[b + 1] - s->out_off[b];
        for (uint32_t j = 0; j < no; j++) {
            size_t base = s->cnt_off[e] + (size_t)j * (JOINT_KMAX + 1);
            double N = 0;
            for (int c = 0; c <= JOINT_KMAX; c++)
                N += s->cnt[base + c];
            int ok = !s->allowed || s->allowed[s->cnt_off[e] / (JOINT_KMAX + 1) + j];
            for (int c = 0; c <= JOINT_KMAX; c++) {
                double v = (s->cnt[base + c] + al) / (N + al * (JOINT_KMAX + 1));
                s->cntlp[base + c] = (!ok && c > 0) ? JOINT_FORBID : log(v);
            }
        }
    }
    joint_lc_fit(s); /* joint_latecount.c */
    joint_select_fit_hook(s);
    joint_os_fit(s); /* the set of calls, after the per-link terms (joint_oset.c) */
    return PB_OK;
}

int joint_fit(joint *s, const unsigned char *only)
{
    /* fit_fast: a request that reads what it read at the last refit adds
     * what it added then (joint_fitfast.c) */
    const int ffw = s->p.fit_fast && !only;
    s->rounds_fresh = 0; /* joint_refit (joint_search.c): a fit since the search */
    if (joint_lser_fit(s, only) != PB_OK) /* loss_serial (joint_lserial.c) */
        return PB_ENOMEM;
    if (s->p.fit_fast && joint_ff_fit_start(s, only) != PB_OK)
        return PB_ENOMEM;
    if (ffw && joint_ff_unchanged(s)) {
        /* every request reads what it read at the last full refit, in the
         * same epoch: the histograms, sums, parallel-call and call counts,
         * flags and densities it would make are the ones held; the rest
         * is made as always */
        int rc = joint_ff_corr_again(s);
        if (rc != PB_OK)
            return rc;
        s->fit_gen++;
        return fit_tail(s, joint_ff_order_same(s));
    }
    /* hist holds the last fit's raw counts (never the smoothed ones):
     * only their bins need clearing */
    joint_mrow_hclear(s); /* each row's [hlo, hhi] (joint_mrow.c) */
    for (uint32_t k = 0; k < s->nkeys; k++) {
        s->hlo[k] = s->nb;
        s->hhi[k] = 0;
        s->kstat[3 * k] = s->kstat[3 * k + 1] = s->kstat[3 * k + 2] = 0;
    }
    memset(s->cnt, 0, (size_t)s->cnt_off[s->nlinks] * sizeof *s->cnt);
    joint_lc_reset(s, 0);
    joint_os_reset(s); /* joint_oset.c */
    joint_corr_reset(s);
    joint_tick0_reset(s);
    for (uint32_t h = 0; h < s->npar; h++)
        s->pov[h] = s->pse[h] = 0;
    for (uint32_t q = 0; q < s->npairs; q++) {
        if (only && !only[q])
            continue;
        int rc = ffw ? joint_ff_walk(s, q)
                     : joint_req_walk(s, q, s->kids[q].a, s->kids[q].n, 1, NULL);
        if (rc != PB_OK)
            return rc;
    }
    /* parallel calls: a return is no trigger of an output that was sent
     * before it in more than a fraction `parallel` of the requests making
     * both, if at least a tenth of the requests of its link (and 5) make
     * both: a rare combination is a wrong assignment, not a structure */
    uint32_t npf = 0;
    for (size_t i = 0; i < s->parmap.cap; i++) {
        uint32_t h = s->parmap.v[i];
        if (h == NONE)
            continue;
        uint32_t ein = (uint32_t)(s->parmap.k[i] >> 42);
        double nq = s->kein ? joint_select_link_requests(s, ein)
                            : s->bylink_off[ein + 1] - s->bylink_off[ein];
        double tot = s->pov[h] + s->pse[h];
        s->pflag[h] = tot >= 5 && tot >= 0.1 * nq && s->pov[h] > s->p.parallel * tot;
        npf += s->pflag[h];
    }
    s->npflag = npf; /* walk_lean (joint_model.c) */
    if (joint_bbserial_note(s) != PB_OK)
        return PB_ENOMEM;
    if (s->p.fit_fast)
        joint_ff_pflag_seen(s, ffw); /* a changed pflag: the records are stale */
    /* densities: histogram smoothed by a Gaussian kernel whose width
     * follows Silverman's rule on the log delays (gsl_filter_gaussian's
     * numbers, computed from the filled bins only: joint_smooth.c), mixed
     * with a uniform background */
    const uint32_t nb = s->nb;
    joint_smooth *sm = NULL;
    double *y = malloc(nb * sizeof *y);
    if (!y || joint_smooth_init(nb, 2 * (size_t)nb - 1, &sm) != PB_OK) {
        free(y);
        return PB_ENOMEM;
    }
    const double beta = s->p.floor;
    /* a key whose raw histogram and sums are those of the last fit keeps
     * its density (the same inputs give the same smoothing): most keys
     * between two refits of a search that moved a few calls */
    if (s->nkeys > s->hraw_cap) {
        uint32_t *lo = realloc(s->rlo, (size_t)s->nkeys * sizeof *lo);
        if (lo)
            s->rlo = lo;
        uint32_t *hi = lo ? realloc(s->rhi, (size_t)s->nkeys * sizeof *hi) : NULL;
        if (!hi) {
            joint_smooth_close(sm);
            free(y);
            return PB_ENOMEM;
        }
        s->rhi = hi;
        s->hraw_cap = s->nkeys;
    }
    /* the memo's rows, each key's filled bins only (joint_memraw.c) */
    if (joint_mr_begin(s) != PB_OK || (s->p.fit_fast && joint_ff_begin(s) != PB_OK)) {
        joint_smooth_close(sm);
        free(y);
        return PB_ENOMEM;
    }
    for (uint32_t k = 0; k < s->nkeys; k++) {
        /* h + b: bin b of the key's counts for b in [hlo, hhi] (joint_mrow.c) */
        const double *h = s->hist ? s->hist + s->hrow[k].bz : NULL;
        /* both are zero outside their filled ranges: the same ranges and
         * the same counts in them are the same histograms (the memo's
         * row: the three sums, then the counts of bins rlo..rhi) */
        const uint32_t lo = s->hlo[k], hi = s->hhi[k];
        const size_t w = lo <= hi ? (size_t)(hi - lo + 1) : 0;
        const double *old = k < s->hraw_valid ? joint_mr_row(s, k) : NULL;
        if (old && s->rlo[k] == lo && s->rhi[k] == hi &&
            (!w || !memcmp(old + 3, h + lo, w * sizeof *h)) &&
            !memcmp(old, s->kstat + 3 * (size_t)k, 3 * sizeof *old))
            continue;
        double *raw = joint_mr_put(s, k, 3 + w);
        if (!raw) {
            joint_smooth_close(sm);
            free(y);
            return PB_ENOMEM;
        }
        if (w)
            memcpy(raw + 3, h + lo, w * sizeof *h);
        s->rlo[k] = lo;
        s->rhi[k] = hi;
        memcpy(raw, s->kstat + 3 * (size_t)k, 3 * sizeof *raw);
        if (s->p.fit_fast) { /* joint_fitfast.c: the same numbers */
            int rc = joint_ff_density(s, k, sm, y);
            if (rc != PB_OK) {
                joint_smooth_close(sm);
                free(y);
                return rc;
            }
            continue;
        }
        double n = s->kstat[3 * k];
        if (n <= 0) {
            s->kmean[k] = s->bg - log(1e6);
            if (joint_lf_put(s, k, 1, 0, s->bg) != PB_OK) { /* bg at every bin */
                joint_smooth_close(sm);
                free(y);
                return PB_ENOMEM;
            }
            continue;
        }
        /* dense rows (joint_mrow.c): the counts' copy, a scratch for the
         * density (stored trimmed of its ends equal to lz) */
        h = joint_mrow_hdense(s, k);
        const double pz0 = (1 - beta) * 0.0 + beta / nb, lz0 = log(pz0 / s->p.bin);
        double *lf = joint_mrow_lfbuf(s, lz0);
        double mean = s->kstat[3 * k + 1] / n;
        double bwb = joint_key_bandwidth(s, k, n);
        /* the density's histogram: the raw one, or its smoothing in y
         * (hist keeps the raw counts) */
        const double *hv = h;
        double tot = 0;
        for (uint32_t b = lo; b <= hi && w; b++)
            tot += h[b]; /* the bins outside add +0: the same sum */
        if (bwb > 0.05) {
            size_t K = 2 * (size_t)ceil(3 * bwb) + 1;
            if (K > 2 * (size_t)nb - 1)
                K = 2 * (size_t)nb - 1;
            int rc = joint_smooth_gaussian(sm, (double)(K - 1) / (2 * bwb), K, h, y, nb);
            if (rc != PB_OK) {
                joint_mrow_hdense_done(s, k);
                joint_smooth_close(sm);
                free(y);
                return rc;
            }
            double t2 = 0;
            for (uint32_t b = 0; b < nb; b++) {
                double v = y[b];
                y[b] = v > 0 ? v : 0;
                t2 += y[b];
            }
            tot = t2;
            hv = y;
        }
        /* an empty bin has the background alone: its log once (the same
         * number as computing it at every such bin) */
        const double pz = (1 - beta) * 0.0 + beta / nb, lz = log(pz / s->p.bin);
        double em = joint_density_bins(s, hv, tot, beta, nb, pz, lz, 0, nb - 1, lf, 0);
        joint_tick0_fix(s, k, hv, tot, lf, &em, 0, nb - 1); /* whole ticks (joint_tick0.c) */
        s->kmean[k] = em - mean * M_LN10;
        joint_mrow_hdense_done(s, k);
        if (joint_lf_put_trim(s, k, lz) != PB_OK) {
            joint_smooth_close(sm);
            free(y);
            return PB_ENOMEM;
        }
    }
    if (joint_mrow_lcompact(s) != PB_OK) { /* old rooms (joint_mrow.c) */
        joint_smooth_close(sm);
        free(y);
        return PB_ENOMEM;
    }
    s->hraw_valid = s->nkeys;
    s->fit_gen++; /* the densities changed: joint_bnb.c's bounds are recomputed */
    joint_smooth_close(sm);
    free(y);
    int rc0 = fit_tail(s, 0);
    if (s->p.fit_fast)
        joint_ff_order_done(s, !only);
    return rc0;
}

double joint_loglik(const joint *cs)
{
    joint *s = (joint *)cs;
    double t = 0;
    for (uint32_t q = 0; q < s->npairs; q++)
        t += joint_req_ll(s, q);
    return t;
}
