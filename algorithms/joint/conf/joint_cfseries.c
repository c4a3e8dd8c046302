/*
 * joint_cfseries.c - conf_series: a call's share also counts the moves of
 * a whole series of alike calls, each shifted by one request
 * (docs/joint/confidence_late.md, "A series of calls shifted by one
 * request (h248)").
 *
 * joint_call_shares scores the neighbours of the solution in which one
 * call (or one chain of calls) is elsewhere.  A series of calls of one
 * link each put one request off (request A's call in B, B's in C, C's in
 * D, ...) is invisible there: moving A's call back leaves B without its
 * call of the link and costs the count term, while the state with every
 * call of the series moved back at once may fit as well as the solution.
 * For call p (link L) in request q0 with another candidate q this rule
 * scores such series through p:
 *   - p moves from q0 to q (the plain move, already counted);
 *   - forward: q0, having lost p, takes a call f1 of L from a request F1
 *     that may hold it (q0 is one of f1's candidates); F1 takes f2 from F2;
 *     ... up to conf_series_len calls;
 *   - backward: q, having gained p, gives a call b1 of L to one of b1's
 *     candidates B1; B1 gives b2 to B2; ... up to conf_series_len calls.
 * Each step takes the call (and request) that costs least, greedily; no
 * request twice.  A series with j steps backward and k forward changes
 * the log-likelihood by back(j) + fwd(k) (the two sides touch other
 * requests), and every (j, k) but (0, 0) is one more alternative of p:
 * p's alternatives gain (sum_j e^back(j)) (sum_k e^fwd(k)) - e^(back(0) +
 * fwd(0)).  Only the calls whose share is conf_series_min or more are
 * tried (the series can only lower a share; the others are doubted
 * already).  Confidences only: the assignment is not touched.  Runs on
 * the self-calibration copy too (joint_call_shares runs there), so the
 * calibration maps see the same shares.
 */
#include "joint_int.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE

struct joint_cfs {
    uint32_t *inv_off, *inv; /* per request q: the calls that have q as a candidate */
    uint32_t *mark;          /* per request: the stamp of the series holding it */
    uint32_t stamp;
    uint32_t *la, *lb;       /* lists, room for the largest request + 1 */
    double *fwd, *back;      /* the series' log-likelihood changes, len + 1 each */
    uint32_t *qord;          /* a call's other candidates, cheapest plain move first */
    double *qkey;
    joint_cfs_ll fn;         /* the walk */
    void *ctx;
    size_t walks;            /* walks for the current call */
    double cyc;              /* conf_series_cycle: the rotations' e^d, this candidate */
};

/* request q with kids k[0..n) walked, counted against the call's budget */
static int walk(joint *s, joint_cfs *c, uint32_t q, const uint32_t *k, uint32_t n, double *v)
{
    c->walks++;
    return c->fn(s, c->ctx, q, k, n, v);
}

static int spent(const joint *s, const joint_cfs *c)
{
    return s->p.conf_series_walks > 0 && c->walks >= (size_t)s->p.conf_series_walks;
}

void joint_cfs_free(joint_cfs *c)
{
    if (!c)
        return;
    free(c->inv_off);
    free(c->inv);
    free(c->mark);
    free(c->la);
    free(c->lb);
    free(c->fwd);
    free(c->back);
    free(c->qord);
    free(c->qkey);
    free(c);
}

joint_cfs *joint_cfs_init(joint *s, int *rc)
{
    *rc = PB_OK;
    if (!s->p.conf_series)
        return NULL;
    uint32_t n = s->npairs, maxk = 1, len = (uint32_t)s->p.conf_series_len;
    for (uint32_t q = 0; q < n; q++)
        if (s->kids[q].n + 2 > maxk)
            maxk = s->kids[q].n + 2;
    joint_cfs *c = calloc(1, sizeof *c);
    if (!c) {
        *rc = PB_ENOMEM;
        return NULL;
    }
    size_t nc = s->cand_off[n];
    c->inv_off = calloc((size_t)n + 2, sizeof *c->inv_off);
    c->inv = malloc((nc + 1) * sizeof *c->inv);
    c->mark = calloc((size_t)n + 1, sizeof *c->mark);
    c->la = malloc((size_t)maxk * sizeof *c->la);
    c->lb = malloc((size_t)maxk * sizeof *c->lb);
    c->fwd = malloc(((size_t)len + 1) * sizeof *c->fwd);
    c->back = malloc(((size_t)len + 1) * sizeof *c->back);
    uint32_t mc = 1;
    for (uint32_t p = 0; p < n; p++)
        if (s->cand_off[p + 1] - s->cand_off[p] > mc)
            mc = s->cand_off[p + 1] - s->cand_off[p];
    c->qord = malloc((size_t)mc * sizeof *c->qord);
    c->qkey = malloc((size_t)mc * sizeof *c->qkey);
    if (!c->qord || !c->qkey || !c->inv_off || !c->inv || !c->mark || !c->la || !c->lb || !c->fwd || !c->back) {
        joint_cfs_free(c);
        *rc = PB_ENOMEM;
        return NULL;
    }
    for (uint32_t p = 0; p < n; p++)
        for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++)
            c->inv_off[s->cand[j] + 1]++;
    for (uint32_t q = 0; q < n; q++)
        c->inv_off[q + 1] += c->inv_off[q];
    uint32_t *fill = malloc(((size_t)n + 1) * sizeof *fill);
    if (!fill) {
        joint_cfs_free(c);
        *rc = PB_ENOMEM;
        return NULL;
    }
    memcpy(fill, c->inv_off, (size_t)n * sizeof *fill);
    for (uint32_t p = 0; p < n; p++)
        for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++)
            c->inv[fill[s->cand[j]]++] = p;
    free(fill);
    s->p.cfs_tried = s->p.cfs_series = s->p.cfs_lowered = 0;
    return c;
}

static double sum_exp(const double *d, uint32_t n)
{
    double t = 0;
    for (uint32_t i = 0; i < n; i++)
        t += d[i] > 700 ? INFINITY : exp(d[i]);
    return t;
}

/* the forward side of p (link L) leaving q0: fwd[0..*nf) */
static int forward(joint *s, joint_cfs *c, uint32_t p, uint32_t q, uint32_t st,
                   const double *rll, uint32_t *nf)
{
    uint32_t L = s->pr[p].link, R = s->par[p], y = p, len = (uint32_t)s->p.conf_series_len;
    int any = s->p.conf_series == 2;
    double J = 0, v;
    const kvec *kr = &s->kids[R];
    uint32_t m = joint_conf_edit_list(s, kr->a, kr->n, p, NONE, c->la);
    int rc = walk(s, c, R, c->la, m, &v);
    if (rc != PB_OK)
        return rc;
    c->fwd[0] = v - rll[R];
    c->mark[R] = st;
    *nf = 1;
    for (uint32_t k = 1; k <= len && !spent(s, c); k++) {
        double best = -INFINITY, ba = 0, bb = 0;
        uint32_t bf = NONE;
        for (uint32_t i = c->inv_off[R]; i < c->inv_off[R + 1] && !spent(s, c); i++) {
            uint32_t f = c->inv[i], F = s->par[f];
            if ((any ? 0 : s->pr[f].link != L) || F == NONE || F == R)
                continue;
            if (F == q && k >= 2 && s->p.conf_series_cycle) {
                /* the series closes on itself: q, which takes p, gives f
                 * to R (a rotation; with k = 1 the exchange, counted) */
                double a, b;
                m = joint_conf_edit_list(s, kr->a, kr->n, y, f, c->la);
                if ((rc = walk(s, c, R, c->la, m, &a)) != PB_OK)
                    return rc;
                const kvec *kq = &s->kids[q];
                m = joint_conf_edit_list(s, kq->a, kq->n, f, p, c->lb);
                if ((rc = walk(s, c, q, c->lb, m, &b)) != PB_OK)
                    return rc;
                double d = J + (a - rll[R]) + (b - rll[q]);
                c->cyc += d > 700 ? INFINITY : exp(d);
                continue;
            }
            if (c->mark[F] == st)
                continue;
            /* R without y, with f; F without f */
            double a, b;
            m = joint_conf_edit_list(s, kr->a, kr->n, y, f, c->la);
            if ((rc = walk(s, c, R, c->la, m, &a)) != PB_OK)
                return rc;
            const kvec *kf = &s->kids[F];
            m = joint_conf_edit_list(s, kf->a, kf->n, f, NONE, c->lb);
            if ((rc = walk(s, c, F, c->lb, m, &b)) != PB_OK)
                return rc;
            if (a - rll[R] + b - rll[F] > best) {
                best = a - rll[R] + b - rll[F];
                bf = f;
                ba = a;
                bb = b;
            }
        }
        if (bf == NONE)
            break;
        uint32_t F = s->par[bf];
        c->fwd[k] = J + (ba - rll[R]) + (bb - rll[F]);
        J += ba - rll[R];
        c->mark[F] = st;
        R = F;
        y = bf;
        kr = &s->kids[R];
        *nf = k + 1;
    }
    return PB_OK;
}

/* the backward side of p (link L) joining q: back[0..*nb); requests
 * stamped st (the forward side's) or sb (this side's) are taken */
static int backward(joint *s, joint_cfs *c, uint32_t p, uint32_t q, uint32_t st, uint32_t sb,
                    const double *rll, uint32_t *nb)
{
    uint32_t L = s->pr[p].link, B = q, x = p, len = (uint32_t)s->p.conf_series_len;
    int any = s->p.conf_series == 2;
    double I = 0, v;
    const kvec *kb = &s->kids[B];
    uint32_t m = joint_conf_edit_list(s, kb->a, kb->n, NONE, p, c->la);
    int rc = walk(s, c, B, c->la, m, &v);
    if (rc != PB_OK)
        return rc;
    c->back[0] = v - rll[B];
    c->mark[B] = sb;
    *nb = 1;
    for (uint32_t j = 1; j <= len && !spent(s, c); j++) {
        double best = -INFINITY, ba = 0, bt = 0;
        uint32_t bc = NONE, bT = NONE;
        for (uint32_t i = 0; i < kb->n && !spent(s, c); i++) {
            uint32_t b = kb->a[i];
            if ((any ? 0 : s->pr[b].link != L) || s->cand_off[b + 1] - s->cand_off[b] < 2)
                continue;
            /* B with x, without b */
            double a;
            m = joint_conf_edit_list(s, kb->a, kb->n, b, x, c->la);
            if ((rc = walk(s, c, B, c->la, m, &a)) != PB_OK)
                return rc;
            for (uint32_t t = s->cand_off[b]; t < s->cand_off[b + 1] && !spent(s, c); t++) {
                uint32_t T = s->cand[t];
                if (T == B || c->mark[T] == st || c->mark[T] == sb)
                    continue;
                const kvec *kt = &s->kids[T];
                double w;
                m = joint_conf_edit_list(s, kt->a, kt->n, NONE, b, c->lb);
                if ((rc = walk(s, c, T, c->lb, m, &w)) != PB_OK)
                    return rc;
                if (a - rll[B] + w - rll[T] > best) {
                    best = a - rll[B] + w - rll[T];
                    bc = b;
                    bT = T;
                    ba = a;
                    bt = w;
                }
            }
        }
        if (bc == NONE)
            break;
        c->back[j] = I + (ba - rll[B]) + (bt - rll[bT]);
        I += ba - rll[B];
        c->mark[bT] = sb;
        B = bT;
        x = bc;
        kb = &s->kids[B];
        *nb = j + 1;
    }
    return PB_OK;
}

int joint_cfs_shares(joint *s, joint_cfs *c, const double *rll, joint_cfs_ll ll, void *ctx,
                     const double *single, double *chainw)
{
    if (!c)
        return PB_OK;
    uint32_t n = s->npairs;
    int rc = PB_OK;
    c->fn = ll;
    c->ctx = ctx;
    for (uint32_t p = 0; p < n && rc == PB_OK; p++) {
        uint32_t q0 = s->par[p];
        if (q0 == NONE || s->cand_off[p + 1] - s->cand_off[p] < 2)
            continue;
        double alt = single[p] + chainw[p];
        if (1.0 / (1.0 + alt) < s->p.conf_series_min)
            continue;
        s->p.cfs_tried++;
        c->walks = 0;
        double add = 0;
        /* the candidates by their plain move's cost, cheapest first (the
         * budget goes to the likeliest series) */
        uint32_t nq = 0;
        for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1] && rc == PB_OK; j++) {
            uint32_t q = s->cand[j];
            if (q == q0)
                continue;
            const kvec *kq = &s->kids[q];
            uint32_t m = joint_conf_edit_list(s, kq->a, kq->n, NONE, p, c->la);
            double v = 0;
            rc = walk(s, c, q, c->la, m, &v);
            uint32_t i = nq++;
            while (i > 0 && c->qkey[i - 1] < v - rll[q]) {
                c->qord[i] = c->qord[i - 1];
                c->qkey[i] = c->qkey[i - 1];
                i--;
            }
            c->qord[i] = q;
            c->qkey[i] = v - rll[q];
        }
        if (rc != PB_OK)
            break;
        c->walks = 0;
        for (uint32_t j = 0; j < nq && !spent(s, c); j++) {
            uint32_t q = c->qord[j];
            /* the forward side keeps off q (the backward side starts there) */
            uint32_t st = ++c->stamp, nf = 0, nb = 0;
            c->mark[q] = st;
            c->cyc = 0;
            if ((rc = forward(s, c, p, q, st, rll, &nf)) != PB_OK)
                break;
            add += c->cyc; /* conf_series_cycle */
            uint32_t sb = ++c->stamp;
            c->mark[q] = 0;
            if ((rc = backward(s, c, p, q, st, sb, rll, &nb)) != PB_OK)
                break;
            if (nb < 2 && nf < 2)
                continue;
            double sf = sum_exp(c->fwd, nf), sbk = sum_exp(c->back, nb);
            double plain = c->back[0] + c->fwd[0];
            double x = sbk * sf - (plain > 700 ? INFINITY : exp(plain));
            if (isnan(x))
                add = INFINITY;
            else if (x > 0)
                add += x;
        }
        if (rc != PB_OK)
            break;
        if (add > 0) {
            s->p.cfs_series++;
            double before_s = 1.0 / (1.0 + alt), after_s = 1.0 / (1.0 + alt + add);
            s->p.cfs_lowered += before_s - after_s > 0.001;
            chainw[p] += add;
        }
    }
    return rc;
}

int joint_cfs_meta(const joint *s, pb_result *res)
{
    if (!s->p.conf_series)
        return PB_OK;
    return pb_result_meta(res, "conf_series=%d len=%d min=%g calls_tried=%zu "
                          "calls_with_series=%zu shares_lowered=%zu (a series of calls of one "
                          "link each shifted by one request counted among a call's "
                          "alternatives)",
                          s->p.conf_series, s->p.conf_series_len, s->p.conf_series_min,
                          s->p.cfs_tried, s->p.cfs_series, s->p.cfs_lowered);
}
