/*
 * joint_oset.c - joint: the set of outputs a request makes, per incoming
 * endpoint (docs/joint/model.md, "The set of calls a request makes"; issue 28).
 *
 * The call-count term (joint_model.c) scores each outgoing link of a
 * request on its own: P(c_1) P(c_2) ... P(c_m), the counts of each link
 * learned per incoming endpoint.  Two request types through one endpoint
 * that make disjoint sets of calls ({text, uniqueid, movieid, user,
 * rating} and {moviereview, castinfo} at the media application's nginx)
 * are then barely told apart: a compose request with an extra moviereview
 * call costs log P(1) - log P(0) on that link, about 0.3 nats at a 4 : 3
 * mix, so with whole-millisecond stamps, where the delays hardly decide,
 * calls land in requests of the other type (counted against the truth,
 * evaluation only: 70 distinct sets at nginx where the truth has 2).
 *
 * The term: per incoming endpoint (its count cells: pooled callers share
 * them), the signature of a request = its vector of call counts over the
 * service's outgoing links (each capped at JOINT_KMAX), with
 *
 *   P(sig) = (N(sig) + beta P0(sig)) / (N + beta),
 *
 * N(sig) the requests of the endpoint with that signature in the current
 * assignment, N all of them, P0 the product of the per-link count
 * probabilities (the old term) and beta = `out_sets_prior` (a Dirichlet
 * process's concentration: a signature never seen costs log beta/(N +
 * beta) on top of P0).  Where it is on it replaces the per-link product
 * (so it is a distribution over signatures, every log-probability at most
 * 0).  Learned at every refit like the counts (and recorded for fit_fast).
 *
 * Where it is on (`out_sets=auto`, the default): per incoming endpoint of
 * a service with at least two outgoing links and scored counts, by
 * held-out likelihood over the requests with a call and a return (paired
 * by call id where the trace has them) with the calls the first
 * assignment gives them, two folds (alternate requests of the endpoint):
 * each fold's signatures scored under the other fold's fit, P(sig) against
 * P0(sig); on when the summed gain exceeds JOINT_SEL_MIN nats,
 * JOINT_SEL_PER_REQ nats per held-out request and JOINT_SEL_Z standard
 * errors of the sum (the criterion of joint_select.c).  `on`: every such
 * endpoint; `off`: none (every output as before).
 *
 * The exact re-split's branch and bound (joint_bnb.c) bounds the count
 * term link by link; where the term is on it takes instead the term's
 * largest value over every signature (os_bound: the likeliest seen one,
 * or an unseen one with each link's likeliest count), so its bounds stay
 * bounds and it chooses what scoring every split chooses.  Metadata: one out_sets= line
 * per tested endpoint.
 */
#include "joint_int.h"
#include "pb_hash.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE
#define K1 (JOINT_KMAX + 1)

/* per tested incoming link: held-out requests, gain, its square, on */
#define OS_NB 7 /* the concentrations tried: 1, 4, 16, .., 4^(OS_NB - 1) */
#define OS_MIN_REQ 30 /* held-out requests an endpoint needs (joint_corr.c's least
                         sample for a correlation) */
struct os_test {
    double n, g[OS_NB], g2[OS_NB], sets;
    double u, u2; /* against flat counts (each link uniform over 0..JOINT_KMAX) */
    int tested, best;
};

static uint64_t sig_hash(size_t base, const uint32_t *c, uint32_t no)
{
    uint64_t h = 0x9e3779b97f4a7c15ull ^ ((uint64_t)base * 0xff51afd7ed558ccdull);
    for (uint32_t j = 0; j < no; j++) {
        uint32_t cj = c[j] > JOINT_KMAX ? JOINT_KMAX : c[j];
        h = (h ^ cj) * 0x100000001b3ull;
        h ^= h >> 29;
    }
    return h;
}

/* the entry of signature c[0..no) of count cells base, or NONE */
static uint32_t sig_find(const joint *s, size_t base, const uint32_t *c, uint32_t no,
                         uint64_t h)
{
    uint32_t e = joint_hmap_get(&s->os_map, h);
    if (e == NONE || s->os_base[e] != base)
        return NONE;
    const unsigned char *v = s->os_vals + s->os_voff[e];
    for (uint32_t j = 0; j < no; j++)
        if (v[j] != (c[j] > JOINT_KMAX ? JOINT_KMAX : c[j]))
            return NONE;
    return e;
}

static int sig_add(joint *s, uint32_t ein, size_t base, const uint32_t *c, uint32_t no,
                   uint64_t h, uint32_t *out)
{
    if (s->os_n == s->os_cap) {
        uint32_t nc = s->os_cap ? 2 * s->os_cap : 64;
        size_t *b = realloc(s->os_base, nc * sizeof *b);
        if (!b)
            return PB_ENOMEM;
        s->os_base = b;
        size_t *vo = realloc(s->os_voff, nc * sizeof *vo);
        if (!vo)
            return PB_ENOMEM;
        s->os_voff = vo;
        uint32_t *ee = realloc(s->os_e, nc * sizeof *ee);
        if (!ee)
            return PB_ENOMEM;
        s->os_e = ee;
        double *d = realloc(s->os_cnt, nc * sizeof *d);
        if (!d)
            return PB_ENOMEM;
        s->os_cnt = d;
        d = realloc(s->os_lp, nc * sizeof *d);
        if (!d)
            return PB_ENOMEM;
        s->os_lp = d;
        s->os_cap = nc;
    }
    if (s->os_vn + no > s->os_vcap) {
        size_t nc = s->os_vcap ? 2 * s->os_vcap : 256;
        while (nc < s->os_vn + no)
            nc *= 2;
        unsigned char *v = realloc(s->os_vals, nc);
        if (!v)
            return PB_ENOMEM;
        s->os_vals = v;
        s->os_vcap = nc;
    }
    uint32_t e = s->os_n;
    if (joint_hmap_put(&s->os_map, h, e) != PB_OK)
        return PB_ENOMEM;
    s->os_n++;
    s->os_base[e] = base;
    s->os_e[e] = ein;
    s->os_voff[e] = s->os_vn;
    for (uint32_t j = 0; j < no; j++)
        s->os_vals[s->os_vn + j] = (unsigned char)(c[j] > JOINT_KMAX ? JOINT_KMAX : c[j]);
    s->os_vn += no;
    s->os_cnt[e] = 0;
    s->os_lp[e] = 0;
    *out = e;
    return PB_OK;
}

/* log P0: the per-link count term of c[0..no) at cells base */
static double p0_of(const joint *s, size_t base, const uint32_t *c, uint32_t no)
{
    double v = 0;
    for (uint32_t j = 0; j < no; j++) {
        uint32_t cj = c[j] > JOINT_KMAX ? JOINT_KMAX : c[j];
        v += s->cntlp[base + (size_t)j * K1 + cj];
    }
    return v;
}

int joint_os_walk(joint *s, uint32_t ein, const uint32_t *c, uint32_t no, int mode, double *v)
{
    const size_t base = s->cnt_off[ein];
    const uint64_t h = sig_hash(base, c, no);
    uint32_t e = sig_find(s, base, c, no, h);
    if (mode == 1) {
        if (e == NONE && sig_add(s, ein, base, c, no, h, &e) != PB_OK)
            return PB_ENOMEM;
        s->os_cnt[e] += 1.0;
        if (s->fflog) /* fit_fast: the entry after the late-count cells */
            joint_ff_log(s, 2, (uint32_t)(s->os_fbase + e), 0, 0);
    }
    if (e != NONE && e < s->os_nlp)
        *v = s->os_lp[e];
    else
        *v = s->os_unseen[ein] + p0_of(s, base, c, no);
    return PB_OK;
}

void joint_os_replay(joint *s, uint32_t a)
{
    s->os_cnt[a - s->os_fbase] += 1.0;
}

void joint_os_reset(joint *s)
{
    if (!s->os_ein)
        return;
    for (uint32_t e = 0; e < s->os_n; e++)
        s->os_cnt[e] = 0;
}

void joint_os_fit(joint *s)
{
    if (!s->os_ein)
        return;
    for (uint32_t e = 0; e < s->nlinks; e++) {
        if (!s->os_ein[e])
            continue;
        const double beta = s->os_beta[e];
        const size_t base = s->cnt_off[e];
        double N = 0;
        for (int c = 0; c < K1; c++)
            N += s->cnt[base + c];
        s->os_unseen[e] = log(beta) - log(N + beta);
        s->os_tot[e] = N;
        /* the bound: an unseen signature's largest value (each link's
         * largest count term) ... */
        const uint32_t b = s->link_dst[e], no = s->out_off[b + 1] - s->out_off[b];
        double mx = 0;
        for (uint32_t j = 0; j < no; j++) {
            double w = -INFINITY;
            for (int c = 0; c < K1; c++)
                w = s->cntlp[base + (size_t)j * K1 + c] > w ? s->cntlp[base + (size_t)j * K1 + c]
                                                            : w;
            mx += w;
        }
        s->os_bound[e] = s->os_unseen[e] + mx;
    }
    uint32_t *c = s->os_c;
    for (uint32_t x = 0; x < s->os_n; x++) {
        /* the endpoint (any of those sharing the cells: the same N) */
        const size_t base = s->os_base[x];
        const uint32_t ein = s->os_e[x];
        const uint32_t b = s->link_dst[ein], no = s->out_off[b + 1] - s->out_off[b];
        const unsigned char *v = s->os_vals + s->os_voff[x];
        for (uint32_t j = 0; j < no; j++)
            c[j] = v[j];
        const double p0 = p0_of(s, base, c, no);
        const double beta = s->os_beta[ein];
        s->os_lp[x] = log((s->os_cnt[x] + beta * exp(p0)) / (s->os_tot[ein] + beta));
    }
    /* ... or a seen one's (every in link sharing the entry's cells) */
    for (uint32_t x = 0; x < s->os_n; x++)
        for (uint32_t e = 0; e < s->nlinks; e++)
            if (s->os_ein[e] && s->cnt_off[e] == s->os_base[x] && s->os_lp[x] > s->os_bound[e])
                s->os_bound[e] = s->os_lp[x];
    s->os_nlp = s->os_n;
}

/* the standard error of a sum v of n gains (sum of squares v2) */
static double os_se(double n, double v, double v2)
{
    if (n < 2)
        return 0;
    double m = v / n, var = v2 / n - m * m;
    return var > 0 ? sqrt(n * var) : 0;
}

/* joint_select.c's margin: the summed held-out gain beyond JOINT_SEL_MIN
 * nats, JOINT_SEL_PER_REQ a request and JOINT_SEL_Z standard errors */
static int joint_os_beyond(double n, double v, double v2)
{
    if (n < 2 || !(v > JOINT_SEL_MIN) || !(v > JOINT_SEL_PER_REQ * n))
        return 0;
    return v > JOINT_SEL_Z * os_se(n, v, v2);
}

/* the counts of request q's calls per outgoing link of its service into
 * c[0..no) */
static void req_counts(const joint *s, uint32_t q, uint32_t *c, uint32_t no)
{
    const uint32_t b = s->pr[q].callee;
    for (uint32_t j = 0; j < no; j++)
        c[j] = 0;
    const kvec *k = &s->kids[q];
    for (uint32_t i = 0; i < k->n; i++) {
        uint32_t l = s->pr[k->a[i]].link;
        if (s->link_src[l] == b)
            c[s->link_local[l]]++;
    }
}

static void hmap_drop(hmap *h)
{
    free(h->k);
    free(h->v);
    memset(h, 0, sizeof *h);
}

void joint_os_free(joint *s)
{
    free(s->os_ein);
    free(s->os_svc);
    hmap_drop(&s->os_map);
    free(s->os_base);
    free(s->os_voff);
    free(s->os_e);
    free(s->os_vals);
    free(s->os_cnt);
    free(s->os_lp);
    free(s->os_unseen);
    free(s->os_tot);
    free(s->os_bound);
    free(s->os_beta);
    free(s->os_c);
    for (uint32_t i = 0; i < s->os_nmeta; i++)
        free(s->os_meta[i]);
    free(s->os_meta);
    s->os_ein = s->os_svc = NULL;
    s->os_base = s->os_voff = NULL;
    s->os_e = s->os_c = NULL;
    s->os_vals = NULL;
    s->os_cnt = s->os_lp = s->os_unseen = s->os_tot = s->os_bound = s->os_beta = NULL;
    s->os_meta = NULL;
    s->os_n = s->os_cap = s->os_nlp = s->os_nmeta = 0;
    s->os_vn = s->os_vcap = 0;
}

/* the self-calibration's copy (s->p.sel_from, selfcal_select): the real
 * trace's choice for the link of the same caller and service names (0
 * when the real trace has no such link or left it off) */
static int real_choice(const joint *s, uint32_t e)
{
    const joint *r = s->p.sel_from;
    if (!r->os_ein)
        return 0;
    const char *a = pb_strtab_str(s->v.nodes, s->link_src[e]);
    const char *b = pb_strtab_str(s->v.nodes, s->link_dst[e]);
    for (uint32_t l = 0; a && b && l < r->nlinks; l++) {
        const char *ra = pb_strtab_str(r->v.nodes, r->link_src[l]);
        const char *rb = pb_strtab_str(r->v.nodes, r->link_dst[l]);
        if (ra && rb && !strcmp(a, ra) && !strcmp(b, rb))
            return r->os_ein[l];
    }
    return 0;
}

int joint_os_select(joint *s)
{
    joint_os_free(s);
    const char *m = s->p.out_sets ? s->p.out_sets : "auto";
    if (!strcmp(m, "off") || s->allowed)
        return PB_OK;
    const int force = !strcmp(m, "on");
    /* the self-calibration's copy takes the real trace's choice (as
     * joint_select does with selfcal_select): its own test would test the
     * choice on data drawn from the model fitted under it */
    const int copy = s->p.sel_from && s->p.selfcal_select;
    const uint32_t nl = s->nlinks, n = s->npairs;
    uint32_t maxout = 1;
    for (uint32_t a = 0; a < s->nnodes; a++)
        if (s->out_off[a + 1] - s->out_off[a] > maxout)
            maxout = s->out_off[a + 1] - s->out_off[a];
    /* the representative in link of every count-cell base (pooled callers
     * share their cells): the first in link with that base */
    uint32_t *rep = malloc(((size_t)nl + 1) * sizeof *rep);
    unsigned char *cand = calloc((size_t)nl + 1, 1), *fold = malloc((size_t)n + 1);
    uint32_t *alt = calloc((size_t)nl + 1, sizeof *alt), *c = malloc((size_t)maxout * sizeof *c);
    struct os_test *t = calloc((size_t)nl + 1, sizeof *t);
    const size_t ncell = s->cnt_off[nl];
    double *mc = calloc(2 * ncell + 1, sizeof *mc);
    double *sc = NULL;
    size_t scn = 0, scap = 0;
    hmap sm = {0};
    unsigned char *wasflat = NULL;
    int rc = rep && cand && fold && alt && c && t && mc ? PB_OK : PB_ENOMEM;
    int any = 0, ids = 0;
    for (uint32_t e = 0; rc == PB_OK && e < nl; e++) {
        const uint32_t b = s->link_dst[e], no = s->out_off[b + 1] - s->out_off[b];
        rep[e] = e;
        for (uint32_t f = 0; f < e; f++)
            if (s->link_dst[f] == b && s->cnt_off[f] == s->cnt_off[e]) {
                rep[e] = f;
                break;
            }
        /* flat counts (joint_select) rule the term out, unless that choice
         * rested on fewer held-out requests than this test needs: then the
         * term must also beat the flat counts (below) */
        const int flat = s->cnt_flat && s->cnt_flat[b];
        cand[e] = no >= 2 && (!flat || joint_select_heldout(s, b) < OS_MIN_REQ);
        any |= cand[e];
    }
    if (rc != PB_OK || !any)
        goto done;
    for (uint32_t q = 0; q < n; q++)
        ids |= s->pr[q].call != NONE && s->pr[q].ret != NONE && !s->free_ret[q];
    /* the held-out requests: a call and a return (paired by call id where
     * the trace has them), alternate folds per in link */
    for (uint32_t q = 0; q < n; q++) {
        const jpair *x = &s->pr[q];
        fold[q] = 2;
        if (x->call == NONE || x->ret == NONE || (ids && s->free_ret[q]) || !cand[x->link])
            continue;
        fold[q] = (unsigned char)(alt[x->link]++ & 1);
    }
    /* each fold's counts: per link and per signature */
    for (uint32_t q = 0; q < n && rc == PB_OK; q++) {
        if (fold[q] == 2)
            continue;
        const uint32_t ein = s->pr[q].link, b = s->pr[q].callee;
        const uint32_t no = s->out_off[b + 1] - s->out_off[b];
        const size_t base = s->cnt_off[ein];
        req_counts(s, q, c, no);
        for (uint32_t j = 0; j < no; j++)
            mc[fold[q] * ncell + base + (size_t)j * K1 + (c[j] > JOINT_KMAX ? JOINT_KMAX : c[j])] +=
                1.0;
        uint64_t h = sig_hash(base, c, no) ^ (fold[q] ? 0x5bd1e9955bd1e995ull : 0);
        uint32_t x = joint_hmap_get(&sm, h);
        if (x == NONE) {
            if (scn == scap) {
                size_t nc = scap ? 2 * scap : 64;
                double *d = realloc(sc, nc * sizeof *d);
                if (!d) {
                    rc = PB_ENOMEM;
                    break;
                }
                sc = d;
                scap = nc;
            }
            x = (uint32_t)scn;
            sc[scn++] = 0;
            if (joint_hmap_put(&sm, h, x) != PB_OK) {
                rc = PB_ENOMEM;
                break;
            }
            t[rep[ein]].sets += 1; /* distinct signatures (both folds) */
        }
        sc[x] += 1.0;
    }
    /* each held-out request's gain: log P(sig) - log P0(sig), the other
     * fold's fit */
    const double al = s->p.alpha, fixed = s->p.out_sets_prior;
    for (uint32_t q = 0; q < n && rc == PB_OK; q++) {
        if (fold[q] == 2)
            continue;
        const uint32_t ein = s->pr[q].link, b = s->pr[q].callee;
        const uint32_t no = s->out_off[b + 1] - s->out_off[b], g = 1 - fold[q];
        const size_t base = s->cnt_off[ein];
        const double *M = mc + g * ncell + base;
        double N = 0;
        for (int k = 0; k < K1; k++)
            N += M[k];
        req_counts(s, q, c, no);
        double p0 = 0;
        for (uint32_t j = 0; j < no; j++) {
            uint32_t cj = c[j] > JOINT_KMAX ? JOINT_KMAX : c[j];
            p0 += log((M[(size_t)j * K1 + cj] + al) / (N + al * K1));
        }
        uint32_t x = joint_hmap_get(&sm, sig_hash(base, c, no) ^ (g ? 0x5bd1e9955bd1e995ull : 0));
        double ns = x == NONE ? 0 : sc[x];
        struct os_test *r = &t[rep[ein]];
        r->tested = 1;
        r->n += 1;
        for (int k = 0; k < OS_NB; k++) {
            const double beta = fixed > 0 ? fixed : pow(4.0, k);
            double v = log((ns + beta * exp(p0)) / (N + beta)) - p0;
            r->g[k] += v;
            r->g2[k] += v * v;
            if (k == (fixed > 0 ? 0 : OS_NB)) { /* the fixed prior's, against flat */
                double u = v + p0 + (double)no * log((double)K1);
                r->u += u;
                r->u2 += u * u;
            }
        }
    }
    if (rc != PB_OK)
        goto done;
    /* the choice, per count-cell base */
    uint32_t non = 0, nt = 0;
    s->os_ein = calloc((size_t)nl + 1, 1);
    s->os_svc = calloc((size_t)s->nnodes + 1, 1);
    s->os_beta = calloc((size_t)nl + 1, sizeof *s->os_beta);
    if (!s->os_ein || !s->os_svc || !s->os_beta) {
        rc = PB_ENOMEM;
        goto done;
    }
    for (uint32_t e = 0; e < nl; e++) {
        if (!cand[e])
            continue;
        struct os_test *r = &t[rep[e]];
        /* the concentration of the largest held-out gain (or the fixed one) */
        int kb = 0;
        for (int k = 1; k < OS_NB && !(fixed > 0); k++)
            if (r->g[k] > r->g[kb])
                kb = k;
        r->best = kb;
        s->os_beta[e] = fixed > 0 ? fixed : pow(4.0, kb);
        const int flat = s->cnt_flat && s->cnt_flat[s->link_dst[e]];
        int on = force || (r->tested && r->n >= OS_MIN_REQ &&
                           joint_os_beyond(r->n, r->g[kb], r->g2[kb]) &&
                           r->g[kb] >= s->p.out_sets_min * r->n);
        if (on && flat && !force)
            on = fixed > 0 && joint_os_beyond(r->n, r->u, r->u2);
        if (copy) /* the self-calibration's copy: the real trace's choice */
            on = real_choice(s, e);
        s->os_ein[e] = (unsigned char)on;
        s->os_svc[s->link_dst[e]] |= (unsigned char)on;
        non += on;
        nt += rep[e] == e;
    }
    /* a service whose counts joint_select made flat on too few requests
     * and where the term is on: its counts scored again (under the term) */
    wasflat = calloc((size_t)s->nnodes + 1, 1);
    if (!wasflat) {
        rc = PB_ENOMEM;
        goto done;
    }
    for (uint32_t e = 0; e < nl; e++)
        if (s->os_ein[e] && s->cnt_flat && s->cnt_flat[s->link_dst[e]]) {
            s->cnt_flat[s->link_dst[e]] = 0;
            wasflat[s->link_dst[e]] = 1;
        }
    s->os_meta = calloc((size_t)nt + 1, sizeof *s->os_meta);
    if (!s->os_meta) {
        rc = PB_ENOMEM;
        goto done;
    }
    for (uint32_t e = 0; e < nl; e++) {
        if (!cand[e] || rep[e] != e)
            continue;
        const struct os_test *r = &t[e];
        uint32_t callers = 0;
        for (uint32_t f = 0; f < nl; f++)
            callers += cand[f] && rep[f] == e;
        char buf[512];
        snprintf(buf, sizeof buf,
                 "out_sets=%s>%s%s requests=%.0f sets=%.0f prior=%g heldout_nats=%.3f se=%.3f "
                 "on=%d%s",
                 callers > 1 ? "*" : pb_strtab_str(s->v.nodes, s->link_src[e]),
                 pb_strtab_str(s->v.nodes, s->link_dst[e]), callers > 1 ? " pooled=1" : "",
                 r->n, r->sets, s->os_beta[e], r->g[r->best],
                 os_se(r->n, r->g[r->best], r->g2[r->best]), s->os_ein[e],
                 s->cnt_flat && s->cnt_flat[s->link_dst[e]] ? " counts=flat"
                 : wasflat[s->link_dst[e]]                 ? " counts=restored"
                                                           : "");
        size_t len = strlen(buf) + 1;
        s->os_meta[s->os_nmeta] = malloc(len);
        if (!s->os_meta[s->os_nmeta]) {
            rc = PB_ENOMEM;
            goto done;
        }
        memcpy(s->os_meta[s->os_nmeta], buf, len);
        s->os_nmeta++;
    }
    if (!non) {
        /* off everywhere: the walks are as before (the lines stay) */
        free(s->os_ein);
        free(s->os_svc);
        free(s->os_beta);
        s->os_ein = s->os_svc = NULL;
        s->os_beta = NULL;
        goto done;
    }
    s->os_unseen = calloc((size_t)nl + 1, sizeof *s->os_unseen);
    s->os_tot = calloc((size_t)nl + 1, sizeof *s->os_tot);
    s->os_bound = calloc((size_t)nl + 1, sizeof *s->os_bound);
    s->os_c = calloc((size_t)maxout + 1, sizeof *s->os_c);
    if (!s->os_unseen || !s->os_tot || !s->os_bound || !s->os_c) {
        rc = PB_ENOMEM;
        goto done;
    }
    s->os_fbase = s->cnt_off[nl] + (size_t)nl * (JOINT_LC_C + 1) * (JOINT_LC_C + 1) + 1;
done:
    hmap_drop(&sm);
    free(wasflat);
    free(sc);
    free(rep);
    free(cand);
    free(fold);
    free(alt);
    free(c);
    free(t);
    free(mc);
    return rc;
}

void joint_os_meta(const joint *s, pb_result *res)
{
    for (uint32_t i = 0; i < s->os_nmeta; i++)
        pb_result_meta(res, "%s", s->os_meta[i]);
}
