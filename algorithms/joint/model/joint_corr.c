/*
 * joint_corr.c - joint: correlated call durations inside a request
 * (docs/joint/model.md, "The model": durations of consecutive calls).
 *
 * How long the calls of one request take is not independent: a request
 * that asks for much (many hotels, a large post) keeps every service it
 * calls busy longer.  Per (incoming endpoint, endpoint of a call, endpoint
 * of the next call of the same request), the log durations of the two
 * calls (return received - call sent, both on the caller's clock) are
 * fitted as a bivariate Gaussian, and a request scores, for every two
 * consecutive calls, the pointwise mutual information of their durations
 * (log f(x, y) - log f(x) - log f(y)): zero when they are independent,
 * so it only adds what the marginal delay densities cannot see.
 */
#include "joint_int.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

#define NONE JOINT_NONE
#define CORR_MIN_N 30      /* fewer pairs of calls: no term */
#define CORR_ZMAX 4.0      /* standardized durations are clipped to this */
#define CORR_RHO_MAX 0.95  /* correlations are clipped to this */
#define CORR_DIRECT_MAX (1u << 18) /* keys in a direct table up to this many */
#define CORR_NPAR JOINT_CORR_NPAR

/* log10 of call p's duration on the caller's clock, cached per pair
 * (returns move, so the cache is keyed by the duration itself) */
static double dur(const joint *cs, uint32_t p)
{
    joint *s = (joint *)cs;
    pb_ns d = s->pr[p].rr - s->pr[p].cs;
    if (s->cdur[p] != d) {
        s->cdur[p] = d;
        s->cldur[p] = log10((double)d < s->dmin ? s->dmin : (double)d);
    }
    return s->cldur[p];
}

static double clipz(double z)
{
    return z > CORR_ZMAX ? CORR_ZMAX : z < -CORR_ZMAX ? -CORR_ZMAX : z;
}

/* the index of key (ein, l1, l2), or NONE: a direct table when the links
 * are few, else the hash map */
static uint32_t corr_index(const joint *s, uint32_t ein, uint32_t l1, uint32_t l2)
{
    if (s->cdir) {
        size_t n = s->nlinks;
        return s->cdir[((size_t)ein * n + l1) * n + l2];
    }
    return joint_hmap_get(&s->corrmap, dkey(ein, l1, l2));
}

/* the term of the consecutive whole calls a, b of a request on in link
 * ein into *v (nothing added when their key has no correlation) */
static inline void corr_add_term(const joint *s, uint32_t ein, uint32_t a, uint32_t b, double *v)
{
    uint32_t c = corr_index(s, ein, s->pr[a].link, s->pr[b].link);
    if (c == NONE)
        return;
    const double *q = s->cpar + CORR_NPAR * (size_t)c;
    double r = q[4];
    if (r != 0) {
        double zx = clipz((dur(s, a) - q[0]) * q[2]);
        double zy = clipz((dur(s, b) - q[1]) * q[3]);
        /* q[5] = -0.5 log(1 - r^2), q[6] = 2 (1 - r^2): the same numbers
         * as computing them here */
        *v += q[5] - (r * r * (zx * zx + zy * zy) - 2 * r * zx * zy) / q[6];
    }
}

static inline int whole(const joint *s, uint32_t p)
{
    return s->pr[p].call != NONE && s->pr[p].ret != NONE;
}

/* joint_corr_ll; with cp (not NULL) also cp[i] = the sum of the terms of
 * the calls before k[i] (cp[0] = 0, cp[n] the value): the partial sums of
 * the very same additions */
/* ... and with ct (not NULL, conf_sync) ct[i] = the term added at call
 * k[i] (0 when none) */
static inline double corr_ll(const joint *s, uint32_t ein, const uint32_t *k, uint32_t n,
                             double *cp, double *ct)
{
    if (!s->corr_on || !s->corr_any || n < 2) {
        if (cp)
            memset(cp, 0, ((size_t)n + 1) * sizeof *cp);
        if (ct)
            memset(ct, 0, ((size_t)n + 1) * sizeof *ct);
        return 0;
    }
    double v = 0;
    uint32_t prev = NONE;
    for (uint32_t i = 0; i < n; i++) {
        if (cp)
            cp[i] = v;
        if (ct)
            ct[i] = 0;
        if (!whole(s, k[i]))
            continue;
        if (prev != NONE) {
            if (ct) {
                double t = 0;
                corr_add_term(s, ein, prev, k[i], &t);
                ct[i] = t;
                v += t;
            } else {
                corr_add_term(s, ein, prev, k[i], &v);
            }
        }
        prev = k[i];
    }
    if (cp)
        cp[n] = v;
    return v;
}

double joint_corr_term(const joint *s, uint32_t ein, uint32_t a, uint32_t b)
{
    double v = 0;
    if (s->corr_on && s->corr_any && whole(s, a) && whole(s, b))
        corr_add_term(s, ein, a, b, &v);
    return v;
}

double joint_corr_ll(const joint *s, uint32_t ein, const uint32_t *k, uint32_t n)
{
    return corr_ll(s, ein, k, n, NULL, NULL);
}

double joint_corr_ll_rec(const joint *s, uint32_t ein, const uint32_t *k, uint32_t n,
                         double *cp, double *ct)
{
    return corr_ll(s, ein, k, n, cp, ct);
}

/* Why it is the very same number (conf_sync): the terms of the calls
 * before j0 are the record's, added in the same order (rcp[j0] is their
 * running sum); the terms from j0 to the first whole call of the common
 * suffix are computed as corr_ll computes them; every later whole call's
 * predecessor is in the suffix too (joint_corr_ll_est's argument), so its
 * term is the record's term at the corresponding call, and those are added
 * one by one in order (0 where the record added none: the same sum). */
double joint_corr_ll_sync(const joint *s, uint32_t ein, const uint32_t *k, uint32_t n,
                          uint32_t j0, uint32_t cs, uint32_t rn, const double *rcp,
                          const double *rct)
{
    if (!s->corr_on || !s->corr_any || n < 2)
        return 0;
    double v = rcp[j0];
    uint32_t prev = NONE;
    for (uint32_t i = j0; i-- > 0;)
        if (whole(s, k[i])) {
            prev = k[i];
            break;
        }
    for (uint32_t i = j0; i < n; i++) {
        if (!whole(s, k[i]))
            continue;
        if (prev != NONE) {
            double t = 0;
            corr_add_term(s, ein, prev, k[i], &t);
            v += t;
        }
        prev = k[i];
        if (i >= n - cs) {
            for (uint32_t z = i - n + rn + 1; z < rn - (joint_sync_test_drop == 2); z++)
                v += rct[z];
            return v;
        }
    }
    return v;
}

/* Why the estimate is the value up to rounding: a term belongs to a whole
 * call and the whole call before it.  The terms of the calls before j0
 * (the common prefix) are the record's (rcp[j0]); from the first whole
 * call of the common suffix on, every later whole call's predecessor is
 * in the suffix too, the same call as in the record, so those terms are
 * the record's after its corresponding call (rcp[rn] - rcp[ri + 1]); the
 * terms in between are computed. */
double joint_corr_ll_est(const joint *s, uint32_t ein, const uint32_t *k, uint32_t n,
                         uint32_t j0, uint32_t cs, uint32_t rn, const double *rcp)
{
    if (!s->corr_on || !s->corr_any || n < 2)
        return 0;
    double v = rcp[j0];
    uint32_t prev = NONE;
    for (uint32_t i = j0; i-- > 0;)
        if (whole(s, k[i])) {
            prev = k[i];
            break;
        }
    for (uint32_t i = j0; i < n; i++) {
        if (!whole(s, k[i]))
            continue;
        if (prev != NONE)
            corr_add_term(s, ein, prev, k[i], &v);
        prev = k[i];
        if (i >= n - cs) {
            uint32_t ri = i - n + rn;
            return v + (rcp[rn] - rcp[ri + 1]);
        }
    }
    return v;
}

/* is request q's own pairing and the pairing and parent of every call it
 * makes beyond doubt: learned from these alone, the correlations are not
 * made up by the search that uses them */
static int sure(const joint *s, uint32_t q, const uint32_t *k, uint32_t n)
{
    if (!s->sure[q])
        return 0;
    for (uint32_t i = 0; i < n; i++)
        if (!s->sure[k[i]] || s->cand_off[k[i] + 1] - s->cand_off[k[i]] != 1)
            return 0;
    return 1;
}

int joint_corr_add(joint *s, uint32_t q, uint32_t ein, const uint32_t *k, uint32_t n)
{
    if (!s->corr_on || !sure(s, q, k, n))
        return PB_OK;
    uint32_t prev = NONE;
    for (uint32_t i = 0; i < n; i++) {
        const jpair *x = &s->pr[k[i]];
        if (x->call == NONE || x->ret == NONE)
            continue;
        if (prev != NONE) {
            uint64_t key = dkey(ein, s->pr[prev].link, x->link);
            uint32_t c = joint_hmap_get(&s->corrmap, key);
            if (c == NONE) {
                c = s->ncorr;
                double *a = realloc(s->cst, (size_t)(c + 1) * 6 * sizeof *a);
                if (!a)
                    return PB_ENOMEM;
                s->cst = a;
                memset(a + 6 * (size_t)c, 0, 6 * sizeof *a);
                a = realloc(s->cpar, (size_t)(c + 1) * CORR_NPAR * sizeof *a);
                if (!a)
                    return PB_ENOMEM;
                s->cpar = a;
                memset(a + CORR_NPAR * (size_t)c, 0, CORR_NPAR * sizeof *a);
                s->ncorr++;
                int rc = joint_hmap_put(&s->corrmap, key, c);
                if (rc != PB_OK)
                    return rc;
                if (s->cdir) {
                    size_t nl = s->nlinks;
                    s->cdir[((size_t)ein * nl + s->pr[prev].link) * nl + x->link] = c;
                }
            }
            double dx = dur(s, prev), dy = dur(s, k[i]), *t = s->cst + 6 * (size_t)c;
            t[0] += 1;
            t[1] += dx;
            t[2] += dy;
            t[3] += dx * dx;
            t[4] += dy * dy;
            t[5] += dx * dy;
        }
        prev = k[i];
    }
    return PB_OK;
}

int joint_corr_force(joint *s, double rho)
{
    if (!s->sure && joint_corr_init(s) != PB_OK)
        return PB_ENOMEM;
    s->corr_on = 1;
    for (uint32_t q = 0; q < s->npairs; q++) {
        const uint32_t *k = s->kids[q].a, ein = s->pr[q].link;
        uint32_t prev = NONE;
        for (uint32_t i = 0; i < s->kids[q].n; i++) {
            if (!whole(s, k[i]))
                continue;
            if (prev != NONE) {
                uint64_t key = dkey(ein, s->pr[prev].link, s->pr[k[i]].link);
                if (joint_hmap_get(&s->corrmap, key) == NONE) {
                    uint32_t c = s->ncorr;
                    double *a = realloc(s->cpar, (size_t)(c + 1) * CORR_NPAR * sizeof *a);
                    if (!a)
                        return PB_ENOMEM;
                    s->cpar = a;
                    a = realloc(s->cst, (size_t)(c + 1) * 6 * sizeof *a);
                    if (!a)
                        return PB_ENOMEM;
                    s->cst = a;
                    memset(a + 6 * (size_t)c, 0, 6 * sizeof *a);
                    if (joint_hmap_put(&s->corrmap, key, c) != PB_OK)
                        return PB_ENOMEM;
                    if (s->cdir) {
                        size_t nl = s->nlinks;
                        s->cdir[((size_t)ein * nl + s->pr[prev].link) * nl + s->pr[k[i]].link] = c;
                    }
                    s->ncorr++;
                }
            }
            prev = k[i];
        }
    }
    for (uint32_t c = 0; c < s->ncorr; c++) {
        double *q = s->cpar + CORR_NPAR * (size_t)c;
        q[0] = q[1] = 5; /* log10 durations: 100 us */
        q[2] = q[3] = 2;
        q[4] = rho;
        q[5] = -0.5 * log(1 - rho * rho);
        q[6] = 2 * (1 - rho * rho);
    }
    s->corr_any = s->ncorr > 0 && rho != 0;
    return PB_OK;
}

int joint_corr_init(joint *s)
{
    s->sure = malloc((size_t)s->npairs + 1);
    s->cdur = malloc(((size_t)s->npairs + 1) * sizeof *s->cdur);
    s->cldur = malloc(((size_t)s->npairs + 1) * sizeof *s->cldur);
    insort *e = malloc(((size_t)2 * s->npairs + 1) * sizeof *e);
    if (!s->sure || !s->cdur || !s->cldur || !e) {
        free(e);
        return PB_ENOMEM;
    }
    for (uint32_t p = 0; p < s->npairs; p++)
        s->cdur[p] = INT64_MIN;
    size_t nl = s->nlinks;
    if (nl * nl * nl <= CORR_DIRECT_MAX && s->cdir_spare && !s->cdir) {
        /* pairs_share: the table the search's last drop cleared (every
         * cell NONE, the same links) instead of a new fill of nl^3 cells */
        s->cdir = s->cdir_spare;
        s->cdir_spare = NULL;
        if (joint_bufshare_test_on)
            joint_bufshare_test_cdir++;
    } else if (nl * nl * nl <= CORR_DIRECT_MAX) {
        free(s->cdir);
        s->cdir = malloc((nl * nl * nl + 1) * sizeof *s->cdir);
        if (!s->cdir) {
            free(e);
            return PB_ENOMEM;
        }
        for (size_t i = 0; i < nl * nl * nl; i++)
            s->cdir[i] = NONE;
    }
    /* a pair is beyond doubt when it was paired by call id, or when on
     * its link (callee's clock) no other call arrived and no other return
     * left between its call and its return */
    for (uint32_t p = 0; p < s->npairs; p++)
        s->sure[p] = s->pr[p].call != NONE && s->pr[p].ret != NONE && !s->free_ret[p];
    for (uint32_t l = 0; l < s->nlinks; l++) {
        uint32_t ne = 0;
        for (uint32_t i = s->bylink_off[l]; i < s->bylink_off[l + 1]; i++) {
            uint32_t p = s->bylink[i];
            if (!s->free_ret[p])
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
                /* its call; sure when nothing is open and its own return comes next */
                s->sure[p] = open == 0 && i + 1 < ne && e[i + 1].p == 2 * p + 1;
                open++;
            } else if (open > 0) {
                open--;
            }
        }
    }
    free(e);
    return PB_OK;
}

int joint_corr_test_fault = 0;

void joint_corr_drop_dir(joint *s)
{
    if (!s->cdir)
        return;
    if (!s->p.pairs_share || s->cdir_spare) {
        free(s->cdir);
        s->cdir = NULL;
        return;
    }
    /* the only cells ever set are the keys of corrmap (joint_corr_add,
     * joint_corr_force write both): clear those.  The test's fault
     * "clears" them to 0 (the first key's index), as a wrong clearing
     * would */
    size_t nl = s->nlinks;
    const uint32_t none = joint_corr_test_fault ? 0 : NONE;
    for (size_t i = 0; i < s->corrmap.cap; i++) {
        if (s->corrmap.v[i] == NONE)
            continue;
        uint64_t k = s->corrmap.k[i];
        size_t ein = (size_t)(k >> 42), l1 = (size_t)((k >> 21) & 0x1FFFFF),
               l2 = (size_t)(k & 0x1FFFFF);
        s->cdir[(ein * nl + l1) * nl + l2] = none;
    }
    s->cdir_spare = s->cdir;
    s->cdir = NULL;
}

void joint_corr_reset(joint *s)
{
    if (s->ncorr)
        memset(s->cst, 0, (size_t)s->ncorr * 6 * sizeof *s->cst);
}

void joint_corr_finish(joint *s)
{
    s->corr_any = 0;
    for (uint32_t c = 0; c < s->ncorr; c++) {
        const double *t = s->cst + 6 * (size_t)c;
        double *q = s->cpar + CORR_NPAR * (size_t)c;
        double n = t[0];
        q[4] = 0;
        if (n < CORR_MIN_N)
            continue;
        double mx = t[1] / n, my = t[2] / n;
        double vx = t[3] / n - mx * mx, vy = t[4] / n - my * my, cxy = t[5] / n - mx * my;
        if (!(vx > 1e-6) || !(vy > 1e-6))
            continue;
        double r = cxy / sqrt(vx * vy);
        /* within two standard errors of zero: none; beyond, shrunk by that */
        double thr = 2 / sqrt(n);
        r = r > thr ? r - thr : r < -thr ? r + thr : 0;
        if (r > CORR_RHO_MAX)
            r = CORR_RHO_MAX;
        if (r < -CORR_RHO_MAX)
            r = -CORR_RHO_MAX;
        q[0] = mx;
        q[1] = my;
        q[2] = 1 / sqrt(vx);
        q[3] = 1 / sqrt(vy);
        q[4] = r;
        double om = 1 - r * r;
        q[5] = -0.5 * log(om);
        q[6] = 2 * om;
        s->corr_any |= r != 0;
    }
}
