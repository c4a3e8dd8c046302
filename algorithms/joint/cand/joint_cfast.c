/*
 * joint_cfast.c - joint: a call's capped candidate parents taken from the
 * two ends directly, not cut from the full list (`cand_fast`, default 1;
 * speed only, the same candidates in the same order; docs/joint/scale.md,
 * "The overlap input's growth: the candidate lists (h240)").
 *
 * With the max-tree of cand_sweep (joint_csweep.c) a call's candidates
 * are the positions (requests of the caller's service in the order they
 * began) below ip whose end e passes two thresholds (not e + w + lw < cs,
 * and e + w >= rr; both monotone in e).  joint_find_candidates took them
 * all and cand_ends (joint_candends.c) kept max_candidates of them: half
 * the latest-started (the last in order, the tie run at the boundary by
 * start cut by a window turned by the call's rank) and the rest the
 * earliest-ending of the others (the tie run by end likewise).  Where
 * every request stays open (the overlap input: N requests open at once)
 * every call took O(N) of them, quadratic in N, to keep k.  Here:
 *  (1) the latest-started: the passing positions from the right (the
 *      tree walked right to left) until the half and the boundary's start
 *      run are seen: O((k + run) log n);
 *  (2) the earliest-ending of the others: the service's positions sorted
 *      once by (end, position), a Fenwick tree of those begun; from the
 *      first passing end upwards, begun ones in order, those chosen in
 *      (1) skipped, until the need-th and its end's run are seen;
 *  (3) the count of passing positions (the list's length, for
 *      capped_max) from the Fenwick tree.
 * The picks are those cand_ends makes on the full list (the same window
 * arithmetic on the same indices), returned in the order of open.  Used
 * only where the list is longer than the cap, the call is not a
 * candidate of itself, and cand_group could not use the full list (the
 * next call differs in send or receipt).
 */
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

#define EMPTY INT64_MIN

int joint_cfast_test_wrong = 0;

static int cmp_ent(const void *x, const void *y)
{
    const joint_cf_ent *a = x, *b = y;
    if (a->e != b->e)
        return a->e < b->e ? -1 : 1;
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

void joint_cfast_free(joint_cfast *f)
{
    free(f->ord);
    free(f->rank);
    free(f->fw);
    free(f->mark);
    free(f->tmp);
    memset(f, 0, sizeof *f);
}

int joint_cfast_init(const joint *s, joint_cfast *f, const insort *in, uint32_t n)
{
    if (n + 1 > f->cap) {
        uint32_t c = n + 1;
        joint_cf_ent *o = realloc(f->ord, (size_t)c * sizeof *o);
        if (!o)
            return PB_ENOMEM;
        f->ord = o;
        uint32_t *r = realloc(f->rank, (size_t)c * sizeof *r);
        if (!r)
            return PB_ENOMEM;
        f->rank = r;
        uint32_t *w = realloc(f->fw, ((size_t)c + 1) * sizeof *w);
        if (!w)
            return PB_ENOMEM;
        f->fw = w;
        uint32_t *m = realloc(f->mark, (size_t)c * sizeof *m);
        if (!m)
            return PB_ENOMEM;
        f->mark = m;
        memset(f->mark, 0, (size_t)c * sizeof *m);
        f->stamp = 0;
        uint32_t *t = realloc(f->tmp, 3 * (size_t)c * sizeof *t);
        if (!t)
            return PB_ENOMEM;
        f->tmp = t;
        f->cap = c;
    }
    for (uint32_t i = 0; i < n; i++)
        f->ord[i] = (joint_cf_ent){req_end(s, in[i].p), i};
    f->in = in;
    pb_sort(f->ord, n, sizeof *f->ord, cmp_ent);
    for (uint32_t i = 0; i < n; i++)
        f->rank[f->ord[i].pos] = i;
    memset(f->fw, 0, ((size_t)n + 1) * sizeof *f->fw);
    f->n = n;
    f->lg = 1;
    while (f->lg * 2 <= n)
        f->lg *= 2;
    return PB_OK;
}

void joint_cfast_begin(joint_cfast *f, uint32_t pos)
{
    for (uint32_t i = f->rank[pos] + 1; i <= f->n; i += i & -i)
        f->fw[i]++;
}

/* begun ones among sorted indices [0, k) */
static uint32_t prefix(const joint_cfast *f, uint32_t k)
{
    uint32_t s = 0;
    for (uint32_t i = k; i > 0; i -= i & -i)
        s += f->fw[i];
    return s;
}

/* the sorted index of the m-th (0-based) begun one */
static uint32_t kth(const joint_cfast *f, uint32_t m)
{
    uint32_t i = 0, left = m + 1;
    for (uint32_t b = f->lg; b; b /= 2)
        if (i + b <= f->n && f->fw[i + b] < left) {
            i += b;
            left -= f->fw[i];
        }
    return i; /* 1-based i + 1, as 0-based i */
}

static inline int passes(pb_ns e, pb_ns w, pb_ns lw, pb_ns cs, pb_ns rr)
{
    if (e == EMPTY)
        return 0;
    return !(e + w + lw < cs) && e + w >= rr;
}

int joint_cfast_pick(const joint *s, const joint_ctree *t, joint_cfast *f, pb_ns w, pb_ns lw,
                     pb_ns cs, pb_ns rr, size_t kmax, size_t rot, uint32_t *out, size_t *gotp)
{
    /* (3) the list's length: begun positions from the first passing end */
    uint32_t lo = 0, hi = f->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (passes(f->ord[mid].e, w, lw, cs, rr))
            hi = mid;
        else
            lo = mid + 1;
    }
    const uint32_t first = lo, before = prefix(f, first);
    const size_t got = prefix(f, f->n) - before;
    *gotp = got;
    if (got <= kmax || kmax == 0)
        return 0; /* the caller takes the list itself */
    /* (1) from the right: R[m] the position of list index got - 1 - m */
    uint32_t *R = f->tmp, nR = 0, *pick = f->tmp + f->cap, np = 0;
    const size_t half = kmax - kmax / 2;
    pb_ns tk = 0;
    {
        uint32_t stack[64], ns = 0;
        if (passes(t->mx[1], w, lw, cs, rr))
            stack[ns++] = 1;
        while (ns) {
            uint32_t i = stack[--ns];
            if (i >= t->size) {
                uint32_t pos = i - t->size;
                pb_ns st = req_start(s, f->in[pos].p);
                if (nR >= half && st != tk)
                    break; /* past the boundary's run */
                R[nR++] = pos;
                if (nR == half)
                    tk = st;
                continue;
            }
            /* left below the right: the right comes out first */
            if (passes(t->mx[2 * i], w, lw, cs, rr))
                stack[ns++] = 2 * i;
            if (passes(t->mx[2 * i + 1], w, lw, cs, rr))
                stack[ns++] = 2 * i + 1;
        }
    }
    /* list indices: x = got - 1 - m for R[m]; the boundary's run [xlo, xhi) */
    {
        size_t xb = got - half; /* its index */
        size_t xhi = xb + 1, xlo = xb;
        while (xhi < got && req_start(s, f->in[R[got - 1 - xhi]].p) == tk)
            xhi++;
        while (xlo > 0 && got - xlo < nR && req_start(s, f->in[R[got - xlo]].p) == tk)
            xlo--;
        size_t g = xhi - xlo, need = half - (got - xhi);
        for (size_t j = 0; j < need; j++)
            pick[np++] = R[got - 1 - (xlo + (rot + j) % g)];
        for (size_t x = xhi; x < got; x++)
            pick[np++] = R[got - 1 - x];
    }
    if (++f->stamp == 0) {
        memset(f->mark, 0, (size_t)f->cap * sizeof *f->mark);
        f->stamp = 1;
    }
    for (uint32_t j = 0; j < np; j++)
        f->mark[pick[j]] = f->stamp;
    /* (2) the earliest-ending of the others, from the first passing end */
    if (np < kmax) {
        size_t need = kmax - np, seen = 0;
        uint32_t *grp = f->tmp + 2 * (size_t)f->cap, ng = 0;
        pb_ns te = 0;
        size_t nstrict = np; /* picks before te's run start here */
        for (uint32_t m = before; m < before + got; m++) {
            uint32_t k = kth(f, m);
            uint32_t pos = f->ord[k].pos;
            if (f->mark[pos] == f->stamp)
                continue;
            pb_ns e = f->ord[k].e;
            if (seen >= need && e != te)
                break;
            if (seen < need) {
                seen++;
                if (seen == need)
                    te = e;
            }
            if (seen < need || e != te)
                pick[np++] = pos; /* below te (te is not known yet: fixed below) */
            else
                grp[ng++] = pos;
        }
        /* those taken before te was known with end te belong to its run */
        size_t w2 = nstrict;
        uint32_t ng0 = ng;
        for (size_t j = nstrict; j < np; j++) {
            pb_ns e = f->ord[f->rank[pick[j]]].e;
            if (e < te)
                pick[w2++] = pick[j];
            else
                grp[ng++] = pick[j];
        }
        np = w2;
        if (ng > ng0) /* the run in the order of open */
            pb_sort(grp, ng, sizeof *grp, cmp_u32);
        size_t left = kmax - np;
        for (size_t j = 0; j < left; j++)
            pick[np++] = grp[(rot + j + (size_t)joint_cfast_test_wrong) % ng];
    }
    pb_sort(pick, np, sizeof *pick, cmp_u32);
    memcpy(out, pick, np * sizeof *out);
    return 1;
}
