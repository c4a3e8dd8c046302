/*
 * joint_xtail.c - the record's remaining terms of an exchange's walk
 * added in O(log n), bit for bit (`swap_tail_tree`, speed only, the same
 * results; docs/joint/speed.md "Wide requests: the exchange's tail").
 *
 * joint_xwalk.c scores an exchange of two returns of one request q from
 * q's record; once the walk is back in step with the record, the exact
 * walk adds the record's remaining terms t_j .. t_{e-1} to its sum one by
 * one, in order (the fresh walk's very additions): O(n) an exchange,
 * O(n^2) a pass for a request of n calls (a fan-out of one request).
 *
 * Why that sum can be had in O(log n) without changing a bit: inside one
 * binade (|S| in [2^(E-1), 2^E)) the doubles are the integer multiples of
 * g = 2^(E-53).  If S is such a multiple and the exact S + t lies inside
 * the binade, the nearest double to S + t is S + g round(t / g), where
 * round is to the nearest integer -- unless t / g is exactly half-way
 * between two integers (then round-to-even looks at S).  So while every
 * partial sum stays inside the binade (strictly: |V| in [2^52 + 1,
 * 2^53 - 1] in units of g, which keeps the exact S + t inside it) and no
 * term is a tie, the sequential sum is s0 + g (u_j + ... + u_{i-1}) with
 * integers u_z = round(t_z / g): a prefix sum.  A segment tree over the
 * record's u (per binade met; each node its sum, the least and greatest
 * of its prefix sums, saturated at +-2^60, and whether a tie is in it)
 * finds the first term where the sum would leave the binade (or a tie):
 * that step is added as a double, exactly as the walk does, and the
 * search goes on in the new binade.  A sum that changes binade more than
 * XT_HOPS times is added one by one from there.
 *
 * A tail shorter than XT_SHORT terms is added one by one (a descent of a
 * tree a binade costs more); a record's trees are built only once its
 * longer tails added one by one exceed XT_WARM record lengths (the plain
 * additions are cheaper for the few exchanges most requests see); they
 * are dropped with the record.
 */
#include "joint_int.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define XT_SAT ((int64_t)1 << 60)
#define XT_BIG ((int64_t)1 << 55) /* |u| capped: past the binade's width */
#define XT_TREES 48               /* binades kept a record (never replaced) */
#define XT_HOPS 64
#define XT_WARM 4
#define XT_SHORT 256 /* shorter tails one by one: a descent a binade costs more */

typedef struct xtree {
    int E;             /* the binade (frexp's exponent); INT32_MIN: none */
    uint32_t size;     /* leaves (a power of two) */
    int64_t *sum, *mn, *mx;
    unsigned char *tie;
} xtree;

struct joint_xtail {
    const joint_wrec *rf; /* the record the trees are of */
    uint32_t m;           /* its terms (rf->n + 1) */
    size_t plain;         /* terms added one by one on it */
    xtree t[XT_TREES];
    int next;             /* trees in use */
    size_t used;          /* tail sums by the trees (metadata) */
};

joint_xtail *joint_xtail_new(void)
{
    joint_xtail *x = calloc(1, sizeof *x);
    if (x)
        for (int i = 0; i < XT_TREES; i++)
            x->t[i].E = INT32_MIN;
    return x;
}

void joint_xtail_reset(joint_xtail *x)
{
    if (!x)
        return;
    x->rf = NULL;
    x->plain = 0;
    x->next = 0;
    for (int i = 0; i < XT_TREES; i++)
        x->t[i].E = INT32_MIN;
}

void joint_xtail_free(joint_xtail *x)
{
    if (!x)
        return;
    for (int i = 0; i < XT_TREES; i++) {
        free(x->t[i].sum);
        free(x->t[i].mn);
        free(x->t[i].mx);
        free(x->t[i].tie);
    }
    free(x);
}

size_t joint_xtail_used(const joint_xtail *x)
{
    return x ? x->used : 0;
}

static inline int64_t sat(int64_t v)
{
    return v > XT_SAT ? XT_SAT : v < -XT_SAT ? -XT_SAT : v;
}

/* u = round(t / g) with g = 2^(E - 53), and whether t / g is a tie */
static int64_t units(double t, int E, unsigned char *tie)
{
    *tie = 0;
    if (!isfinite(t))
        return t > 0 ? XT_BIG : -XT_BIG; /* leaves any binade */
    double v = ldexp(t, 53 - E);         /* exact: a power of two */
    if (v >= (double)XT_BIG)
        return XT_BIG;
    if (v <= -(double)XT_BIG)
        return -XT_BIG;
    double f = floor(v), fr = v - f; /* exact below 2^55 */
    if (fr == 0.5) {
        *tie = 1;
        return (int64_t)f;
    }
    return (int64_t)f + (fr > 0.5);
}

static int tree_build(xtree *tr, const double *term, uint32_t m, int E)
{
    uint32_t size = 1;
    while (size < m)
        size *= 2;
    if (size != tr->size || !tr->sum) {
        free(tr->sum);
        free(tr->mn);
        free(tr->mx);
        free(tr->tie);
        tr->sum = malloc(2 * (size_t)size * sizeof *tr->sum);
        tr->mn = malloc(2 * (size_t)size * sizeof *tr->mn);
        tr->mx = malloc(2 * (size_t)size * sizeof *tr->mx);
        tr->tie = malloc(2 * (size_t)size);
        tr->size = size;
        if (!tr->sum || !tr->mn || !tr->mx || !tr->tie) {
            free(tr->sum);
            free(tr->mn);
            free(tr->mx);
            free(tr->tie);
            tr->sum = tr->mn = tr->mx = NULL;
            tr->tie = NULL;
            tr->size = 0;
            tr->E = INT32_MIN;
            return PB_ENOMEM;
        }
    }
    for (uint32_t i = 0; i < size; i++) {
        uint32_t v = size + i;
        unsigned char ti = 0;
        int64_t u = i < m ? units(term[i], E, &ti) : 0;
        tr->sum[v] = tr->mn[v] = tr->mx[v] = u;
        tr->tie[v] = ti;
    }
    for (uint32_t v = size - 1; v >= 1; v--) {
        uint32_t l = 2 * v, r = l + 1;
        tr->sum[v] = sat(tr->sum[l] + tr->sum[r]);
        int64_t a = sat(tr->sum[l] + tr->mn[r]), b = sat(tr->sum[l] + tr->mx[r]);
        tr->mn[v] = tr->mn[l] < a ? tr->mn[l] : a;
        tr->mx[v] = tr->mx[l] > b ? tr->mx[l] : b;
        tr->tie[v] = tr->tie[l] | tr->tie[r];
    }
    tr->E = E;
    return PB_OK;
}

/* does node v's run, from the value V, leave [lo, hi] (or hold a tie)? */
static inline int leaves(const xtree *tr, uint32_t v, int64_t V, int64_t lo, int64_t hi)
{
    return tr->tie[v] || V + tr->mn[v] < lo || V + tr->mx[v] > hi;
}

/* from leaf index z with value V (units): the first index i in [z, e)
 * whose step leaves [lo, hi] or is a tie (e when none); *Vp the value
 * before that step */
static uint32_t tree_run(const xtree *tr, uint32_t z, uint32_t e, int64_t *Vp, int64_t lo,
                         int64_t hi)
{
    int64_t V = *Vp;
    uint32_t right[64], nr = 0, hit = 0;
    uint32_t l = z + tr->size, r = e + tr->size; /* [l, r) */
    int found = 0;
    while (l < r && !found) {
        if (l & 1) {
            if (leaves(tr, l, V, lo, hi)) {
                hit = l;
                found = 1;
                break;
            }
            V += tr->sum[l];
            l++;
        }
        if (r & 1)
            right[nr++] = --r;
        l >>= 1;
        r >>= 1;
    }
    for (uint32_t k = nr; !found && k-- > 0;) {
        if (leaves(tr, right[k], V, lo, hi)) {
            hit = right[k];
            found = 1;
            break;
        }
        V += tr->sum[right[k]];
    }
    if (!found) {
        *Vp = V;
        return e;
    }
    while (hit < tr->size) { /* down to the first leaf that leaves */
        uint32_t c = 2 * hit;
        if (leaves(tr, c, V, lo, hi)) {
            hit = c;
        } else {
            V += tr->sum[c];
            hit = c + 1;
        }
    }
    *Vp = V;
    return hit - tr->size;
}

static xtree *tree_of(joint_xtail *x, const joint_wrec *rf, int E)
{
    for (int i = 0; i < XT_TREES; i++)
        if (x->t[i].E == E)
            return &x->t[i];
    if (x->next == XT_TREES) /* that many binades: added one by one */
        return NULL;
    xtree *tr = &x->t[x->next++];
    if (tree_build(tr, rf->term, x->m, E) != PB_OK)
        return NULL;
    return tr;
}

double joint_xtail_sum(joint_xtail *x, const joint_wrec *rf, uint32_t j, uint32_t e, double s0)
{
    double S = s0;
    uint32_t z = j;
    if (x && x->rf != rf) { /* another record (or none yet) */
        joint_xtail_reset(x);
        x->rf = rf;
        x->m = rf->n + 1;
    }
    if (!x || e > x->m || e - j < XT_SHORT || x->plain < (size_t)XT_WARM * x->m) {
        for (; z < e; z++)
            S += rf->term[z];
        if (x && e - j >= XT_SHORT)
            x->plain += e - j;
        return S;
    }
    int hops = 0;
    while (z < e) {
        int E = 0;
        /* (a subnormal sum's doubles are not the multiples of g) */
        if (!isfinite(S) || fabs(S) < 0x1p-1000 || hops > XT_HOPS)
            break;
        (void)frexp(S, &E);
        xtree *tr = tree_of(x, rf, E);
        if (!tr)
            break;
        const int64_t top = ((int64_t)1 << 53) - 1, bot = ((int64_t)1 << 52) + 1;
        const int64_t lo = S < 0 ? -top : bot, hi = S < 0 ? -bot : top;
        int64_t V = (int64_t)ldexp(S, 53 - E); /* exact: S is a multiple of g */
        z = tree_run(tr, z, e, &V, lo, hi);
        S = ldexp((double)V, E - 53); /* exact: |V| < 2^53 */
        if (z < e) {                   /* the step that leaves: as the walk adds it */
            S += rf->term[z];
            z++;
            hops++;
        }
    }
    for (; z < e; z++)
        S += rf->term[z];
    x->used++;
    return S;
}
