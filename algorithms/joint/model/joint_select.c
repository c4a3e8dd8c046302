/*
 * joint_select.c - joint: which signals each service obeys, learned from
 * the trace (docs/joint/model.md, "Signals chosen per service"; issue 28).
 *
 * Per service, by held-out likelihood over the requests paired beyond
 * doubt (by call id; without call ids, alone on their link while they
 * lasted), with the calls the first assignment (step 1 of the search)
 * gives them, before the search; two folds (alternate requests of each
 * incoming endpoint, in pair order):
 *
 *   caller     its delay densities (and learned parallel calls) and its
 *              call-count distributions keyed by the incoming endpoint
 *              (caller, service), or pooled over all its callers (one
 *              choice for the two: chosen apart, keyed densities with
 *              pooled counts lost 2.3 points of exact accuracy on
 *              multitier, where either alone gained);
 *   counts     the call counts scored, or flat (the count term scores 0:
 *              how many calls a request makes says nothing);
 *   durations  without call ids, the durations of consecutive calls
 *              scored (joint_corr.c) or not, by an exchange test (below).
 *
 * Each fold's model is fitted (joint_fit) from the other fold's requests
 * and scores this fold's, once with every service keyed and once with
 * every service of several callers pooled; a request's log-likelihood
 * splits into its delays, its counts and its durations, each depending
 * only on its own part of the model, so the two fits give every
 * combination.  The default (keyed, counts on, durations as joint had
 * them: on without call ids, off with them) is left only for an
 * alternative whose held-out gain, summed over the requests, exceeds
 * JOINT_SEL_MIN nats, JOINT_SEL_PER_REQ nats per held-out request and
 * JOINT_SEL_Z standard errors of that sum (the per-request gains'
 * spread): a paired test, so that a few lucky requests do not switch a
 * signal, and an effect size below which a switch cannot move a call.
 */
#include "joint_int.h"
#include "pb_mem.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

#define NONE JOINT_NONE

/* per service: held-out sums (n, sum, sum of squares) of each gain */
struct sel_one {
    uint32_t callers;  /* incoming links */
    double n;          /* held-out requests */
    double g[5];       /* sums: 0 pooled - keyed delays, 1 pooled - keyed counts, 2 counts
                          (chosen counts - flat), 3 durations (the term), 4 caller (0 + 1) */
    double g2q, g4q;   /* sums of squares of 2 and 4 (the others were never read: h250) */
    /* counts - flat, keyed and pooled: sum, sum of squares -- held apart
     * while joint_select tests (cfa, 4 doubles a node), not kept (h250) */
    double x[3];       /* durations, exchange test: pairs, sum, sum of squares */
    unsigned char pooled, cpooled, counts, durations, tested;
};

/* The table (s->sel): an entry for each service with callers only -- no
 * other is read (the metadata lists those, a request's callee has one),
 * and on a trace of many nodes most may have none (h262: 104 bytes for
 * every node were 42 MB at 200 k pairs).  A service without callers keeps
 * the defaults (caller keyed, counts and durations as s->cnt_flat and
 * s->corr_svc say).  Read-only once joint_select has made it, so the
 * searches sharing a choice (select_share, joint_fitfast.c) hold the one
 * table, counted, not copies of it. */
struct joint_sel {
    uint32_t refs;     /* holders (joint_sel_hold / joint_sel_release) */
    uint32_t nn, nc;   /* services, entries */
    uint32_t *at;      /* nn + 1: service b's entry, or NONE */
    struct sel_one one[]; /* nc + 1 */
};

/* an empty table for s's services: the entries of those with callers,
 * their callers counted; NULL out of memory */
static struct joint_sel *sel_make(const joint *s)
{
    uint32_t nn = s->nnodes, nc = 0;
    uint32_t *at = calloc((size_t)nn + 1, sizeof *at);
    if (!at)
        return NULL;
    for (uint32_t e = 0; e < s->nlinks; e++)
        at[s->link_dst[e]]++;
    for (uint32_t b = 0; b < nn; b++)
        nc += at[b] > 0;
    struct joint_sel *t = calloc(1, sizeof *t + ((size_t)nc + 1) * sizeof(struct sel_one));
    if (!t) {
        free(at);
        return NULL;
    }
    t->refs = 1;
    t->nn = nn;
    t->nc = nc;
    t->at = at;
    nc = 0;
    for (uint32_t b = 0; b < nn; b++) {
        if (at[b]) {
            t->one[nc].callers = at[b];
            at[b] = nc++;
        } else
            at[b] = NONE;
    }
    at[nn] = NONE;
    return t;
}

/* service b's entry, NULL when it has none (no callers) */
static inline struct sel_one *sel_of(const struct joint_sel *t, uint32_t b)
{
    return t && b < t->nn && t->at[b] != NONE ? (struct sel_one *)&t->one[t->at[b]] : NULL;
}

struct joint_sel *joint_sel_hold(struct joint_sel *t)
{
    if (t)
        t->refs++;
    return t;
}

size_t joint_select_bytes(const joint *s, uint32_t *entries, uint32_t *holders)
{
    const struct joint_sel *t = s->sel;
    *entries = t ? t->nc : 0;
    *holders = t ? t->refs : 0;
    return t ? sizeof *t + ((size_t)t->nc + 1) * sizeof(struct sel_one) +
                   ((size_t)t->nn + 1) * sizeof *t->at
             : 0;
}

void joint_sel_release(struct joint_sel *t)
{
    if (!t || --t->refs)
        return;
    free(t->at);
    free(t);
}

/* sort the calls k[0..n) by call time (insertion sort: n is small) */
static void sort_calls(const joint *s, uint32_t *k, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        uint32_t v = k[i], j = i;
        while (j > 0 && (s->pr[k[j - 1]].cs > s->pr[v].cs ||
                         (s->pr[k[j - 1]].cs == s->pr[v].cs && k[j - 1] > v))) {
            k[j] = k[j - 1];
            j--;
        }
        k[j] = v;
    }
}

/* The duration term's exchange test for two held-out requests a, b of one
 * incoming link: how much likelier the term finds their own calls than
 * the two with their first common-link calls exchanged (0 when they have
 * no such call).  A correlation that only follows the load of the moment
 * (two requests served at the same time are slow together) scores both
 * alike and tells requests apart no better than chance; one that follows
 * the request (a search returning many hotels keeps every call long)
 * does.  buf holds both lists.  PB_OK or PB_ENOMEM */
static int exchange_gain(joint *s, uint32_t a, uint32_t b, uint32_t **buf, size_t *cap,
                         double *gain, int *done)
{
    const kvec *ka = &s->kids[a], *kb = &s->kids[b];
    *gain = 0;
    *done = 0;
    uint32_t pa = NONE, pb = NONE;
    for (uint32_t i = 0; i < ka->n && pa == NONE; i++) {
        const jpair *x = &s->pr[ka->a[i]];
        if (x->call == NONE || x->ret == NONE)
            continue;
        for (uint32_t j = 0; j < kb->n; j++)
            if (s->pr[kb->a[j]].link == x->link && s->pr[kb->a[j]].ret != NONE &&
                s->pr[kb->a[j]].call != NONE) {
                pa = ka->a[i];
                pb = kb->a[j];
                break;
            }
    }
    if (pa == NONE || ka->n + kb->n < 3)
        return PB_OK;
    size_t need = (size_t)ka->n + kb->n + 2;
    if (need > *cap) {
        uint32_t *nb = realloc(*buf, need * sizeof *nb);
        if (!nb)
            return PB_ENOMEM;
        *buf = nb;
        *cap = need;
    }
    uint32_t *xa = *buf, *xb = *buf + ka->n;
    for (uint32_t i = 0; i < ka->n; i++)
        xa[i] = ka->a[i] == pa ? pb : ka->a[i];
    for (uint32_t j = 0; j < kb->n; j++)
        xb[j] = kb->a[j] == pb ? pa : kb->a[j];
    sort_calls(s, xa, ka->n);
    sort_calls(s, xb, kb->n);
    uint32_t ea = s->pr[a].link, eb = s->pr[b].link;
    *gain = joint_corr_ll(s, ea, ka->a, ka->n) + joint_corr_ll(s, eb, kb->a, kb->n) -
            joint_corr_ll(s, ea, xa, ka->n) - joint_corr_ll(s, eb, xb, kb->n);
    *done = 1;
    return PB_OK;
}

/* the standard error of a sum v of n per-request gains (sum of squares
 * v2): sqrt(n) times their spread */
static double se(double n, double v, double v2)
{
    if (n < 2)
        return 0;
    double m = v / n, var = v2 / n - m * m;
    return var > 0 ? sqrt(n * var) : 0;
}

/* is the alternative's gain (sum v, sum of squares v2 over n requests)
 * beyond the margin? */
static int beyond(double n, double v, double v2)
{
    if (n < 2 || !(v > JOINT_SEL_MIN) || !(v > JOINT_SEL_PER_REQ * n))
        return 0;
    return v > JOINT_SEL_Z * se(n, v, v2);
}

double joint_select_link_requests(const joint *s, uint32_t ein)
{
    if (s->pool_nq && s->kein && s->kein[ein] == ein && s->pool_nq[ein] > 0)
        return s->pool_nq[ein];
    return s->bylink_off[ein + 1] - s->bylink_off[ein];
}

/* pool the densities of the services with dens[b] set and the counts of
 * those with cnts[b] set (NULL: none) over their callers: each in link
 * uses its service's first in link's keys and count cells */
static int set_pool(joint *s, const unsigned char *dens, const unsigned char *cnts)
{
    uint32_t nl = s->nlinks;
    int any = 0;
    for (uint32_t e = 0; e < nl && dens; e++)
        any |= dens[s->link_dst[e]];
    if (!s->cnt_off0) {
        s->cnt_off0 = malloc(((size_t)nl + 1) * sizeof *s->cnt_off0);
        if (!s->cnt_off0)
            return PB_ENOMEM;
        memcpy(s->cnt_off0, s->cnt_off, ((size_t)nl + 1) * sizeof *s->cnt_off);
    }
    uint32_t *rep = malloc(((size_t)s->nnodes + 1) * sizeof *rep);
    if (!rep)
        return PB_ENOMEM;
    for (uint32_t b = 0; b < s->nnodes; b++)
        rep[b] = NONE;
    for (uint32_t e = 0; e < nl; e++)
        if (rep[s->link_dst[e]] == NONE)
            rep[s->link_dst[e]] = e;
    if (any && !s->kein) {
        /* calloc: kein[nl] is never set, but greedy_tcache compares the
         * whole array (joint_tcache.c same_inputs) */
        s->kein = calloc((size_t)nl + 1, sizeof *s->kein);
        s->pool_nq = calloc((size_t)nl + 1, sizeof *s->pool_nq);
        if (!s->kein || !s->pool_nq) {
            free(rep);
            return PB_ENOMEM;
        }
    }
    if (!any) {
        free(s->kein);
        free(s->pool_nq);
        s->kein = NULL;
        s->pool_nq = NULL;
    }
    if (s->pool_nq)
        memset(s->pool_nq, 0, ((size_t)nl + 1) * sizeof *s->pool_nq);
    for (uint32_t e = 0; e < nl; e++) {
        uint32_t b = s->link_dst[e], r = rep[b];
        if (s->kein) {
            s->kein[e] = dens && dens[b] ? r : e;
            s->pool_nq[s->kein[e]] += s->bylink_off[e + 1] - s->bylink_off[e];
        }
        s->cnt_off[e] = cnts && cnts[b] ? s->cnt_off0[r] : s->cnt_off0[e];
    }
    free(rep);
    return PB_OK;
}

/* the count term of request q (its link's cells, as walk_rest adds it) */
static double count_part(const joint *s, uint32_t q)
{
    const jpair *qq = &s->pr[q];
    uint32_t b = qq->callee, no = s->out_off[b + 1] - s->out_off[b];
    if (!no)
        return 0;
    uint32_t *c = s->ccount;
    const kvec *k = &s->kids[q];
    for (uint32_t i = 0; i < k->n; i++) {
        uint32_t l = s->pr[k->a[i]].link;
        if (s->link_src[l] == b)
            c[s->link_local[l]]++;
    }
    double v = 0;
    size_t base = s->cnt_off[qq->link];
    for (uint32_t j = 0; j < no; j++) {
        uint32_t cj = c[j] > JOINT_KMAX ? JOINT_KMAX : c[j];
        v += s->cntlp[base + (size_t)j * (JOINT_KMAX + 1) + cj];
        c[j] = 0;
    }
    return v;
}

/* drop the duration term's state (joint_repair_rounds or joint_select_corr
 * sets it up afresh) */
static void corr_drop(joint *s)
{
    free(s->sure);
    free(s->cdur);
    free(s->cldur);
    joint_corr_drop_dir(s); /* pairs_share: kept for the next (joint_corr.c) */
    free(s->cst);
    free(s->cpar);
    free(s->corrmap.k);
    free(s->corrmap.v);
    memset(&s->corrmap, 0, sizeof s->corrmap);
    s->sure = NULL;
    s->cdur = NULL;
    s->cldur = NULL;
    s->cdir = NULL;
    s->cst = s->cpar = NULL;
    s->ncorr = 0;
    s->corr_any = 0;
    s->corr_on = 0;
}

/* forget every density and count the held-out fits made: the search
 * starts from the state it had without them (no key, no parallel-call
 * entry, no cached density, zero counts and order rates), so that a
 * service left keyed is searched exactly as before */
static void model_reset(joint *s)
{
    free(s->keymap.k);
    free(s->keymap.v);
    memset(&s->keymap, 0, sizeof s->keymap);
    free(s->parmap.k);
    free(s->parmap.v);
    memset(&s->parmap, 0, sizeof s->parmap);
    s->nkeys = 0;
    s->npar = 0;
    s->npflag = 0; /* no cell, no learned parallel calls (walk_lean) */
    s->npever = 0; /* parallel_check_bb: the entries are made again */
    s->hraw_valid = 0;
    if (s->dk_off) {
        size_t dtot = 0;
        for (uint32_t e = 0; e < s->nlinks; e++) {
            uint32_t b = s->link_dst[e];
            size_t no1 = (size_t)(s->out_off[b + 1] - s->out_off[b]) + 1;
            dtot += no1 * no1;
        }
        for (size_t i = 0; i <= dtot; i++)
            s->dk_key[i] = s->dk_par[i] = NONE;
    }
    size_t nc = (size_t)s->cnt_off0[s->nlinks] + 1;
    memset(s->cnt, 0, nc * sizeof *s->cnt);
    memset(s->cntlp, 0, nc * sizeof *s->cntlp);
    joint_lc_reset(s, 1);
    size_t nl = (size_t)s->nlinks + 1;
    memset(s->ord_inv, 0, nl * sizeof *s->ord_inv);
    memset(s->ord_keep, 0, nl * sizeof *s->ord_keep);
    memset(s->ord_n, 0, nl * sizeof *s->ord_n);
    memset(s->ord_k, 0, nl * sizeof *s->ord_k);
}

/* The self-calibration's copy (selfcal_select; s->p.sel_from is the real
 * trace's search): take the real trace's choice per service, matched by
 * name, instead of the four held-out fits.  The copy is drawn from the
 * model the real trace fitted under that choice, so its own fits would
 * mostly test the choice against data made by it.  What the copy keeps
 * of its own: pooling only where the copy's service has several callers
 * (the rule of the fits), durations only where the copy has free returns
 * (corr_default); a service the real trace did not test keeps the
 * defaults.  Leaves the state the fits leave (pools set, model reset, the
 * fit generation moved on).  1: done (rc in *rc), 0: not applicable. */
int joint_select_test_flip;

static int take_real(joint *s, int *rc)
{
    const joint *r = s->p.sel_from;
    if (!r || !s->p.selfcal_select || !r->sel || !r->v.nodes)
        return 0;
    uint32_t n = s->npairs, nn = s->nnodes;
    size_t nfree = 0;
    for (uint32_t p = 0; p < n; p++)
        nfree += s->free_ret[p];
    int corr_default = nfree && s->p.corr;
    s->sel = sel_make(s);
    s->cnt_flat = calloc((size_t)nn + 1, 1);
    s->corr_svc = calloc((size_t)nn + 1, 1);
    unsigned char *dp = calloc((size_t)nn + 1, 1), *cp = calloc((size_t)nn + 1, 1);
    *rc = s->sel && s->cnt_flat && s->corr_svc && dp && cp ? PB_OK : PB_ENOMEM;
    for (uint32_t b = 0; *rc == PB_OK && b < nn; b++) {
        struct sel_one none = {0}, *x = sel_of(s->sel, b);
        if (!x) /* no callers: the same choices, not kept */
            x = &none;
        x->counts = 1;
        x->durations = (unsigned char)corr_default;
        const char *nm = pb_strtab_str(s->v.nodes, b);
        uint32_t rb;
        const struct sel_one *y = NULL;
        if (nm && pb_strtab_find(r->v.nodes, nm, strlen(nm), &rb) && rb < r->nnodes &&
            (y = sel_of(r->sel, rb)) && y->tested) {
            int pool = x->callers > 1 && !s->allowed;
            x->pooled = (unsigned char)(pool && y->pooled);
            x->cpooled = (unsigned char)(pool && y->cpooled);
            x->counts = joint_select_test_flip ? !y->counts : y->counts;
            x->durations = (unsigned char)(corr_default && y->durations);
        }
        s->corr_svc[b] = x->durations;
        s->cnt_flat[b] = !x->counts;
        dp[b] = x->pooled;
        cp[b] = x->cpooled;
    }
    if (*rc == PB_OK)
        *rc = set_pool(s, dp, cp);
    if (*rc == PB_OK) {
        model_reset(s);
        s->fit_gen++;
        s->select_real = 1;
    }
    free(dp);
    free(cp);
    corr_drop(s);
    return 1;
}

int joint_select(joint *s)
{
    uint32_t n = s->npairs, nn = s->nnodes;
    /* the other search's choice for the same input (select_share,
     * joint_fitfast.c): the state its fits and reset leave behind */
    uint64_t fp[2];
    uint32_t gen0 = s->fit_gen, sfits = 0;
    {
        int trc = PB_OK;
        if (take_real(s, &trc))
            return trc;
    }
    {
        unsigned char *sd = NULL, *sc = NULL;
        int hit = joint_selshare_take(s, sizeof(struct sel_one), fp, &sd, &sc, &sfits);
        if (hit < 0)
            return PB_ENOMEM;
        if (hit) {
            int rc = set_pool(s, sd, sc);
            free(sd);
            free(sc);
            if (rc == PB_OK) {
                model_reset(s);
                s->fit_gen += sfits;
                s->select_shared = 1;
            }
            corr_drop(s);
            return rc;
        }
    }
    int mode = !s->p.callers || !strcmp(s->p.callers, "auto") ? 2
               : !strcmp(s->p.callers, "pooled")             ? 1
                                                             : 0;
    size_t nfree = 0;
    for (uint32_t p = 0; p < n; p++)
        nfree += s->free_ret[p];
    int corr_default = nfree && s->p.corr;
    s->sel = sel_make(s);
    s->cnt_flat = calloc((size_t)nn + 1, 1);
    s->corr_svc = calloc((size_t)nn + 1, 1);
    unsigned char *pool = calloc((size_t)nn + 1, 1), *only = malloc((size_t)n + 1);
    unsigned char *fold = malloc((size_t)n + 1);
    double *part = malloc(((size_t)n + 1) * 4 * sizeof *part); /* keyed delays, keyed counts,
                                                                  pooled delays, pooled counts */
    double *dterm = calloc((size_t)n + 1, sizeof *dterm);
    uint32_t *cnt = calloc((size_t)s->nlinks + 1, sizeof *cnt);
    uint32_t *last = malloc(((size_t)s->nlinks + 1) * sizeof *last), *xbuf = NULL;
    double *cfa = calloc(4 * ((size_t)nn + 1), sizeof *cfa); /* counts - flat per node */
    size_t xcap = 0;
    int rc = s->sel && s->cnt_flat && s->corr_svc && pool && only && fold && part && dterm && cnt &&
                     last && cfa ? PB_OK : PB_ENOMEM;
    if (rc != PB_OK)
        goto done;
    for (uint32_t b = 0; b < nn; b++) {
        struct sel_one *x = sel_of(s->sel, b);
        if (x) {
            x->counts = 1;
            x->durations = (unsigned char)corr_default;
        }
        s->corr_svc[b] = (unsigned char)corr_default;
        /* pooling needs the direct key tables' layout per service alike:
         * always; the call graph's allowed cells are per caller: keyed */
        pool[b] = x && x->callers > 1 && !s->allowed;
    }
    /* the requests paired beyond doubt (by call id, or without call ids
     * alone on their link while they lasted: joint_corr_init's rule),
     * with the calls the first assignment gave them; alternating folds */
    if (!s->sure && (rc = joint_corr_init(s)) != PB_OK)
        goto done;
    for (uint32_t q = 0; q < n; q++) {
        fold[q] = 2;
        if (s->pr[q].call == NONE || s->pr[q].ret == NONE || !s->sure[q])
            continue;
        /* alternate per incoming link: each caller's requests fall in
         * both folds whatever the order in which the callers take turns */
        fold[q] = (unsigned char)(cnt[s->pr[q].link]++ & 1);
        sel_of(s->sel, s->pr[q].callee)->n++; /* a callee: it has callers */
    }
    /* two fits per fold: every service keyed, every service of several
     * callers pooled; the duration term fitted in both (from the fold's
     * requests beyond doubt) */
    s->corr_on = s->p.corr;
    unsigned char *keep_csvc = s->corr_svc; /* scored for every service while testing */
    s->corr_svc = NULL;
    for (int cfg = 0; cfg < 2 && rc == PB_OK; cfg++) {
        rc = set_pool(s, cfg ? pool : NULL, cfg ? pool : NULL);
        for (int f = 0; f < 2 && rc == PB_OK; f++) {
            for (uint32_t q = 0; q < n; q++)
                only[q] = fold[q] == 1 - f;
            rc = joint_fit(s, only);
            if (!cfg && s->corr_on)
                for (uint32_t e = 0; e < s->nlinks; e++)
                    last[e] = NONE;
            for (uint32_t q = 0; q < n && rc == PB_OK; q++) {
                if (fold[q] != f)
                    continue;
                if (!cfg && s->corr_on) {
                    /* the exchange test with the previous held-out request
                     * of its link (pair order) */
                    uint32_t e = s->pr[q].link;
                    double gx = 0;
                    int ok = 0;
                    if (last[e] != NONE)
                        rc = exchange_gain(s, last[e], q, &xbuf, &xcap, &gx, &ok);
                    if (ok) {
                        double *xs = sel_of(s->sel, s->pr[q].callee)->x;
                        xs[0]++;
                        xs[1] += gx;
                        xs[2] += gx * gx;
                    }
                    last[e] = q;
                }
                double tot = joint_req_ll(s, q), c = count_part(s, q);
                double d = s->corr_on ? joint_corr_ll(s, s->pr[q].link, s->kids[q].a,
                                                      s->kids[q].n) : 0;
                part[4 * (size_t)q + 2 * cfg] = tot - c - d;
                part[4 * (size_t)q + 2 * cfg + 1] = c;
                if (!cfg)
                    dterm[q] = d;
            }
        }
    }
    s->corr_svc = keep_csvc;
    if (rc != PB_OK)
        goto done;
    /* the gains per service */
    for (uint32_t q = 0; q < n; q++) {
        if (fold[q] == 2)
            continue;
        struct sel_one *x = sel_of(s->sel, s->pr[q].callee);
        uint32_t b = s->pr[q].callee, no = s->out_off[b + 1] - s->out_off[b];
        const double *pp = part + 4 * (size_t)q;
        double flat = -(double)no * log(JOINT_KMAX + 1.0);
        double v[5] = {pp[2] - pp[0], pp[3] - pp[1], 0, dterm[q], pp[2] - pp[0] + pp[3] - pp[1]};
        for (int i = 0; i < 5; i++) {
            x->g[i] += v[i];
            if (i == 4)
                x->g4q += v[i] * v[i];
        }
        for (int c = 0; c < 2; c++) {
            double w = pp[2 * c + 1] - flat;
            cfa[4 * (size_t)b + 2 * c] += w;
            cfa[4 * (size_t)b + 2 * c + 1] += w * w;
        }
    }
    for (uint32_t b = 0; b < nn; b++) {
        /* no callers: the defaults, through the same tests, not kept */
        struct sel_one none = {0}, *x = sel_of(s->sel, b);
        if (!x) {
            x = &none;
            x->counts = 1;
            x->durations = (unsigned char)corr_default;
        }
        x->tested = x->n > 0;
        /* one choice for the key family: the densities and the counts
         * together (chosen apart, keyed densities with pooled counts lost
         * 2.3 points on multitier) */
        if (pool[b]) {
            x->pooled = mode == 1 || (mode == 2 && beyond(x->n, x->g[4], x->g4q));
            x->cpooled = x->pooled;
        }
        int c = x->cpooled;
        const double *cf = cfa + 4 * (size_t)b + 2 * c;
        x->g[2] = cf[0];
        x->g2q = cf[1];
        /* counts: flat only when flat is the better by the margin */
        x->counts = !beyond(x->n, -cf[0], cf[1]);
        /* durations: away from the default only by the margin */
        if (s->p.corr)
            x->durations = corr_default && !beyond(x->x[0], -x->x[1], x->x[2]);
        s->corr_svc[b] = x->durations;
        s->cnt_flat[b] = !x->counts;
    }
    {
        unsigned char *dp = calloc((size_t)nn + 1, 1), *cp = calloc((size_t)nn + 1, 1);
        if (!dp || !cp) {
            free(dp);
            free(cp);
            rc = PB_ENOMEM;
            goto done;
        }
        for (uint32_t b = 0; b < nn; b++) {
            const struct sel_one *x = sel_of(s->sel, b);
            dp[b] = x ? x->pooled : 0;
            cp[b] = x ? x->cpooled : 0;
        }
        rc = set_pool(s, dp, cp);
        if (rc == PB_OK)
            rc = joint_selshare_put(s, sizeof(struct sel_one), fp, dp, cp, s->fit_gen - gen0);
        free(dp);
        free(cp);
    }
    if (rc == PB_OK)
        model_reset(s);
done:
    corr_drop(s);
    free(pool);
    free(only);
    free(fold);
    free(part);
    free(dterm);
    free(cnt);
    free(last);
    free(xbuf);
    free(cfa);
    return rc;
}

double joint_select_heldout(const joint *s, uint32_t b)
{
    const struct sel_one *x = sel_of(s->sel, b);
    return x ? x->n : 0;
}

void joint_select_fit_hook(joint *s)
{
    if (!s->cnt_flat)
        return;
    for (uint32_t e = 0; e < s->nlinks; e++) {
        uint32_t b = s->link_dst[e];
        if (!s->cnt_flat[b])
            continue;
        size_t no = s->out_off[b + 1] - s->out_off[b];
        for (size_t i = 0; i < no * (JOINT_KMAX + 1); i++)
            if (s->cntlp[s->cnt_off[e] + i] > JOINT_FORBID)
                s->cntlp[s->cnt_off[e] + i] = 0;
    }
}

typedef struct named {
    const char *name;
    uint32_t node;
} named;

static int cmp_named(const void *x, const void *y)
{
    const named *a = x, *b = y;
    return strcmp(a->name, b->name);
}

void joint_select_meta(const joint *s, pb_result *res)
{
    if (!s->sel)
        return;
    named *byname = malloc(((size_t)s->nnodes + 1) * sizeof *byname);
    if (!byname)
        return;
    for (uint32_t a = 0; a < s->nnodes; a++)
        byname[a] = (named){pb_strtab_str(s->v.nodes, a), a};
    pb_sort(byname, s->nnodes, sizeof *byname, cmp_named);
    for (uint32_t i = 0; i < s->nnodes; i++) {
        uint32_t b = byname[i].node;
        const struct sel_one *x = sel_of(s->sel, b);
        if (!x || !x->callers)
            continue;
        pb_result_meta(res, "signal_service=%s callers=%u caller=%s counts=%s durations=%s "
                       "heldout_requests=%.0f heldout_nats_caller=%.2f se_caller=%.2f "
                       "heldout_nats_caller_delays=%.2f heldout_nats_caller_counts=%.2f "
                       "heldout_nats_counts=%.2f se_counts=%.2f heldout_nats_durations=%.2f "
                       "exchanged_pairs=%.0f heldout_nats_durations_exchange=%.2f "
                       "se_durations_exchange=%.2f",
                       byname[i].name, x->callers, x->pooled ? "pooled" : "keyed",
                       x->counts ? "on" : "off", x->durations ? "on" : "off", x->n,
                       x->g[4], se(x->n, x->g[4], x->g4q), x->g[0], x->g[1],
                       x->g[2], se(x->n, x->g[2], x->g2q), x->g[3], x->x[0],
                       x->x[1], se(x->x[0], x->x[1], x->x[2]));
    }
    free(byname);
}

void joint_select_free(joint *s)
{
    free(s->kein);
    free(s->cnt_off0);
    free(s->pool_nq);
    joint_sel_release(s->sel);
    free(s->cnt_flat);
    free(s->corr_svc);
    s->kein = s->cnt_off0 = NULL;
    s->pool_nq = NULL;
    s->sel = NULL;
    s->cnt_flat = s->corr_svc = NULL;
}

int joint_signals(const joint *s, const char *name, int out[4], double gain[4])
{
    uint32_t b;
    if (!s->sel || !pb_strtab_find(s->v.nodes, name, strlen(name), &b) || b >= s->nnodes)
        return PB_EINVAL;
    const struct sel_one *x = sel_of(s->sel, b);
    if (!x) { /* no callers: the defaults its choices keep */
        out[0] = out[1] = 0;
        out[2] = s->cnt_flat ? !s->cnt_flat[b] : 1;
        out[3] = s->corr_svc ? s->corr_svc[b] : 0;
        gain[0] = gain[1] = gain[2] = gain[3] = 0;
        return PB_OK;
    }
    out[0] = x->pooled;
    out[1] = x->cpooled;
    out[2] = x->counts;
    out[3] = x->durations;
    gain[0] = x->g[0];
    gain[1] = x->g[1];
    gain[2] = x->g[2];
    gain[3] = x->x[1];
    return PB_OK;
}
