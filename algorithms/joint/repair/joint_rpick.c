/*
 * joint_rpick.c - the re-pairing's greedy pick without scoring every open
 * call (`repair_pick`, default 1; speed only, the very same pick;
 * docs/joint/speed_w21.md, "Speed, twenty-first wave (h168)").
 *
 * repair_pairs (joint_repair.c) gives the returns of a link to its calls
 * in the order the returns were sent: to the first open call (in call
 * order) whose latest possible end (s->qend) is this return; else to the
 * open call with the least response cost (joint_response_cost, less the
 * order of answers' term with pair_order), the first in call order among
 * equals; else, when no cost is finite, to the first open call.  Scoring
 * every open call for every return is quadratic when many calls are open
 * at once: one very deep request, where every call is sent before any
 * return (N = 8,000 spans: ~1,000 open calls a link).
 *
 * Both tests are thresholds in the return's time t, and t only grows
 * along the loop; nothing the loop reads changes within a link (s->pr,
 * s->qend and the kids are written after it):
 *  - a call is at its last chance from the first return with t >= qend:
 *    from then on until taken.  A heap by qend brings calls to a heap by
 *    call order, whose least untaken call is the first pick.
 *  - a call's cost is INFINITY while t + slack < its arrival (cr) or one
 *    of its calls returns after t + slack (joint_response_cost's first two
 *    tests on the call's side), i.e. while t + slack < E, E the latest of
 *    cr and its calls' returns.  An infinite cost is never the least
 *    (v < best fails for INFINITY and NaN alike), so only calls with
 *    t + slack >= E can be picked by cost; a heap by E brings them to a
 *    list kept in call order, scored in that order (the same values in the
 *    same order as the full scan restricted to them: the same pick).
 * The fallback is the first untaken open call (a pointer).  In the deep
 * request only the calls whose own calls have all returned are scored:
 * O(log n) a return instead of O(open calls).  Where every open call can
 * take every return the list is all of them and the cost is the scan's.
 */
#include "joint_int.h"
#include "pb_sort.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE

typedef struct hent {
    pb_ns key;
    uint32_t i; /* position in C */
} hent;

static int hless(const hent *a, const hent *b)
{
    return a->key < b->key || (a->key == b->key && a->i < b->i);
}

static void hpush(hent *h, uint32_t *n, hent e)
{
    uint32_t j = (*n)++;
    while (j > 0) {
        uint32_t p = (j - 1) / 2;
        if (!hless(&e, &h[p]))
            break;
        h[j] = h[p];
        j = p;
    }
    h[j] = e;
}

static hent hpop(hent *h, uint32_t *n)
{
    hent top = h[0], e = h[--*n];
    uint32_t j = 0, m = *n;
    for (;;) {
        uint32_t c = 2 * j + 1;
        if (c >= m)
            break;
        if (c + 1 < m && hless(&h[c + 1], &h[c]))
            c++;
        if (!hless(&h[c], &e))
            break;
        h[j] = h[c];
        j = c;
    }
    if (m)
        h[j] = e;
    return top;
}

/* first position in the sorted a[0..n) holding x or more */
static uint32_t lower(const uint32_t *a, uint32_t n, uint32_t x)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t m = lo + (hi - lo) / 2;
        if (a[m] < x)
            lo = m + 1;
        else
            hi = m;
    }
    return lo;
}

/* ---- repair_bucket: the stable open calls by density bin ----
 *
 * A call is stable from the return k with t >= E (every call of its own
 * returned by t: tt = E and the density key `di` fixed, as
 * joint_response_cost finds them) and cs <= min(rr of returns k..) + slack
 * (its cost is never INFINITY by its send time again).  Its cost is then
 * -logf_of(di, t - E) = log(max(d, dmin)) - logf[di, bin(d)], d = t - E:
 * in one bin it grows with d (the Jacobian), so the least cost of a bin
 * is at its latest E.  The stable calls of a link are kept by (key, E,
 * call order) in a Fenwick tree of present positions; for a return at t
 * the bins of a key are visited in increasing lower bound
 * log(max(edge, dmin)) - logf[bin] (static within the link: the densities
 * do not change in the greedy), the present calls of a bin from the
 * latest E down, each scored with the very same functions as the scan;
 * a bin, and then the key, stops when the bound less the largest order
 * term (joint_rord_pick_max; 0 when off, log-probabilities otherwise) is
 * strictly above the best by a margin (1e-9 relative: log's rounding).
 * Ties: the least value, then the first call in call order -- what the
 * scan's strict < keeps.  Bins are dbin's (nondecreasing in d); their
 * integer edges are found with dbin itself.  Below RB_MIN stable calls
 * they are scored one by one (the structure costs more than it saves).
 * With the order term on, a bin is scanned class by class (joint_rpk.c:
 * a lower bound of each call's order-term cost), each class stopping at
 * cost + its bound above the best. */
#define RB_MIN 32

typedef struct rbent {
    uint32_t key;
    pb_ns e;
    uint32_t i;
} rbent;

static int rbent_cmp(const void *x, const void *y)
{
    const rbent *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    if (a->e != b->e)
        return a->e < b->e ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

typedef struct rbk {
    uint32_t n, ng, top;    /* positions, key groups, Fenwick's top power of 2 */
    uint32_t *gp, *posof;   /* position -> C index and back */
    pb_ns *ge;              /* E by position (ascending in a group) */
    uint32_t *fw;           /* Fenwick tree of present positions (1-based) */
    uint32_t *g0, *gkey, *gof; /* group g: positions [g0[g], g0[g+1]), its key; gof by C index */
    uint32_t *bord;         /* per group: bins by bound (nb each, lazily) */
    double *bsb;            /* their bounds */
    unsigned char *bdone;   /* per group: bord set */
    pb_ns *edge;            /* least d of each bin, nb + 1 (lazily) */
    uint32_t *sl, *slpos, nsl; /* present stable calls, unordered */
    int mut;                /* repair_bucket=3: the tests' wrong bucket head */
    /* the order term's class bound (joint_rpk.c): when on, the
     * present calls also by class, a Fenwick tree each */
    int ncls;               /* 0: off (one class, fw) */
    uint32_t *cf[RPK_NCLS], ccount[RPK_NCLS];
    unsigned char *cls;     /* by C index: its class while present */
    double lbq[RPK_NCLS];   /* each class's lower bound of the order term's cost */
} rbk;

static void fwt_add(uint32_t *fw, uint32_t n, uint32_t pos, int d)
{
    for (uint32_t x = pos + 1; x <= n; x += x & (0u - x))
        fw[x] += (uint32_t)d;
}

static uint32_t fwt_sum(const uint32_t *fw, uint32_t pos) /* present in [0, pos] */
{
    uint32_t v = 0;
    for (uint32_t x = pos + 1; x > 0; x -= x & (0u - x))
        v += fw[x];
    return v;
}

/* the highest present position <= pos, or NONE */
static uint32_t fwt_pred(const uint32_t *fw, uint32_t n, uint32_t top, uint32_t pos)
{
    uint32_t k = fwt_sum(fw, pos);
    if (!k)
        return NONE;
    uint32_t at = 0;
    for (uint32_t st = top; st; st >>= 1)
        if (at + st <= n && fw[at + st] < k) {
            at += st;
            k -= fw[at];
        }
    return at; /* 1-based at + 1, less one */
}

static void fw_add(rbk *b, uint32_t pos, int d)
{
    fwt_add(b->fw, b->n, pos, d);
}

static uint32_t fw_sum(const rbk *b, uint32_t pos)
{
    return fwt_sum(b->fw, pos);
}

static uint32_t fw_pred(const rbk *b, uint32_t pos)
{
    return fwt_pred(b->fw, b->n, b->top, pos);
}

/* the least integer d >= 0 with dbin(d) >= bin (dbin nondecreasing) */
static pb_ns bin_edge(const joint *s, uint32_t bin)
{
    if (dbin(s, 0) >= bin)
        return 0;
    double g = pow(10.0, 1.0 + (double)bin * s->p.bin);
    pb_ns hi = g > 9e18 ? (pb_ns)9e18 : (pb_ns)g, lo;
    if (hi < 1)
        hi = 1;
    if (dbin(s, hi) >= bin) {
        pb_ns st = 1;
        lo = hi - st;
        while (lo > 0 && dbin(s, lo) >= bin) {
            hi = lo;
            st *= 2;
            lo = hi - st;
        }
        if (lo < 0)
            lo = 0;
    } else {
        pb_ns st = 1;
        lo = hi;
        hi = lo + st;
        while (dbin(s, hi) < bin) {
            lo = hi;
            st *= 2;
            hi = lo + st;
        }
    }
    while (hi - lo > 1) { /* dbin(lo) < bin <= dbin(hi) */
        pb_ns m = lo + (hi - lo) / 2;
        if (dbin(s, m) >= bin)
            hi = m;
        else
            lo = m;
    }
    return hi;
}

typedef struct sbent {
    double v;
    uint32_t b;
} sbent;

static int sbent_cmp(const void *x, const void *y)
{
    const sbent *a = x, *b = y;
    if (a->v != b->v)
        return a->v < b->v ? -1 : 1; /* no NaN: bounds of finite logf or +INF */
    return a->b < b->b ? -1 : a->b > b->b;
}

static void rb_free(rbk *b)
{
    free(b->gp);
    free(b->posof);
    free(b->ge);
    free(b->fw);
    free(b->g0);
    free(b->gkey);
    free(b->gof);
    free(b->bord);
    free(b->bsb);
    free(b->bdone);
    free(b->edge);
    free(b->sl);
    free(b->slpos);
    for (int q = 0; q < RPK_NCLS; q++)
        free(b->cf[q]);
    free(b->cls);
}

/* the groups by key for the calls C[0..nc) of link l with their E */
static int rb_init(rbk *b, joint *s, const insort *C, uint32_t nc, const pb_ns *E)
{
    memset(b, 0, sizeof *b);
    b->n = nc;
    b->mut = s->p.repair_bucket == 3;
    rbent *t = malloc(((size_t)nc + 1) * sizeof *t);
    b->gp = malloc(((size_t)nc + 1) * sizeof *b->gp);
    b->posof = malloc(((size_t)nc + 1) * sizeof *b->posof);
    b->ge = malloc(((size_t)nc + 1) * sizeof *b->ge);
    b->fw = calloc((size_t)nc + 2, sizeof *b->fw);
    b->g0 = malloc(((size_t)nc + 2) * sizeof *b->g0);
    b->gkey = malloc(((size_t)nc + 1) * sizeof *b->gkey);
    b->gof = malloc(((size_t)nc + 1) * sizeof *b->gof);
    b->bdone = calloc((size_t)nc + 1, 1);
    b->sl = malloc(((size_t)nc + 1) * sizeof *b->sl);
    b->slpos = malloc(((size_t)nc + 1) * sizeof *b->slpos);
    if (!t || !b->gp || !b->posof || !b->ge || !b->fw || !b->g0 || !b->gkey || !b->gof ||
        !b->bdone || !b->sl || !b->slpos) {
        free(t);
        return PB_ENOMEM;
    }
    for (uint32_t i = 0; i < nc; i++)
        b->slpos[i] = NONE;
    for (uint32_t i = 0; i < nc; i++) {
        /* joint_response_cost's trigger with every call of its own
         * returned by t (t >= E) */
        uint32_t c = C[i].p, trig = 0;
        const jpair *cc = &s->pr[c];
        const kvec *k = &s->kids[c];
        pb_ns tt = cc->cr;
        for (uint32_t j = 0; j < k->n; j++) {
            const jpair *x = &s->pr[k->a[j]];
            if (x->ret != NONE && x->rr >= tt) {
                tt = x->rr;
                trig = 1 + x->link;
            }
        }
        t[i] = (rbent){joint_key_get(s, cc->link, trig, s->nlinks), E[i], i};
    }
    pb_sort(t, nc, sizeof *t, rbent_cmp);
    for (uint32_t p = 0; p < nc; p++) {
        b->gp[p] = t[p].i;
        b->posof[t[p].i] = p;
        b->ge[p] = t[p].e;
        if (p == 0 || t[p].key != t[p - 1].key) {
            b->g0[b->ng] = p;
            b->gkey[b->ng++] = t[p].key;
        }
        b->gof[t[p].i] = b->ng - 1;
    }
    b->g0[b->ng] = nc;
    free(t);
    for (b->top = 1; b->top * 2 <= nc; b->top *= 2)
        ;
    return PB_OK;
}

/* the classes on: a tree each (PB_ENOMEM) */
static int rb_classes(rbk *b, const rpk *k)
{
    b->ncls = RPK_NCLS;
    for (int q = 0; q < RPK_NCLS; q++) {
        b->cf[q] = calloc((size_t)b->n + 2, sizeof *b->cf[q]);
        if (!b->cf[q])
            return PB_ENOMEM;
        b->lbq[q] = k->lbq[q];
    }
    b->cls = calloc((size_t)b->n + 1, 1);
    return b->cls ? PB_OK : PB_ENOMEM;
}

/* present call i into class q (with the classes on) */
static void rb_put(rbk *b, uint32_t i, unsigned q)
{
    fw_add(b, b->posof[i], 1);
    if (b->ncls) {
        b->cls[i] = (unsigned char)q;
        fwt_add(b->cf[q], b->n, b->posof[i], 1);
        b->ccount[q]++;
    }
    b->slpos[i] = b->nsl;
    b->sl[b->nsl++] = i;
}

/* present call i moved to class q */
static void rb_reclass(rbk *b, uint32_t i, unsigned q)
{
    unsigned o = b->cls[i];
    if (o == q)
        return;
    fwt_add(b->cf[o], b->n, b->posof[i], -1);
    b->ccount[o]--;
    b->cls[i] = (unsigned char)q;
    fwt_add(b->cf[q], b->n, b->posof[i], 1);
    b->ccount[q]++;
}

static void rb_take(rbk *b, uint32_t i)
{
    fw_add(b, b->posof[i], -1);
    if (b->ncls) {
        unsigned o = b->cls[i];
        fwt_add(b->cf[o], b->n, b->posof[i], -1);
        b->ccount[o]--;
    }
    uint32_t at = b->slpos[i], last = b->sl[--b->nsl];
    b->sl[at] = last;
    b->slpos[last] = at;
    b->slpos[i] = NONE;
}

/* the first position in [lo, hi) with E > x */
static uint32_t rb_after(const rbk *b, uint32_t lo, uint32_t hi, pb_ns x)
{
    while (lo < hi) {
        uint32_t m = lo + (hi - lo) / 2;
        if (b->ge[m] <= x)
            lo = m + 1;
        else
            hi = m;
    }
    return lo;
}

static int rb_bins(rbk *b, const joint *s, uint32_t g)
{
    uint32_t nb = s->nb;
    if (!b->bord) {
        b->bord = malloc(((size_t)b->ng * nb + 1) * sizeof *b->bord);
        b->bsb = malloc(((size_t)b->ng * nb + 1) * sizeof *b->bsb);
        b->edge = malloc(((size_t)nb + 2) * sizeof *b->edge);
        if (!b->bord || !b->bsb || !b->edge)
            return PB_ENOMEM;
        for (uint32_t k = 0; k < nb; k++)
            b->edge[k] = k ? bin_edge(s, k) : 0;
        b->edge[nb] = -1; /* no upper edge */
    }
    sbent *e = malloc(((size_t)nb + 1) * sizeof *e);
    if (!e)
        return PB_ENOMEM;
    uint32_t key = b->gkey[g];
    for (uint32_t k = 0; k < nb; k++) {
        double lo = (double)b->edge[k] < s->dmin ? s->dmin : (double)b->edge[k];
        double v = log(lo) - joint_lf_at(s, key, k);
        e[k] = (sbent){v == v ? v : -INFINITY, k}; /* NaN: never cut */
    }
    pb_sort(e, nb, sizeof *e, sbent_cmp);
    for (uint32_t k = 0; k < nb; k++) {
        b->bord[(size_t)g * nb + k] = e[k].b;
        b->bsb[(size_t)g * nb + k] = e[k].v;
    }
    free(e);
    b->bdone[g] = 1;
    return PB_OK;
}

static int rb_far(double bound, double u, double best)
{
    return bound - u > best + 1e-9 * (1.0 + fabs(best));
}

/* score one candidate: the least value, then the first in call order */
static void rb_take_min(double v, uint32_t i, double *best, uint32_t *pick)
{
    if (v < *best || (*pick != NONE && v == *best && i < *pick)) {
        *best = v;
        *pick = i;
    }
}

/* the best stable call for the return at t (received at rr): *best and
 * *pick updated as the scan would */
static int rb_best(rbk *b, joint *s, const insort *C, pb_ns t, pb_ns rr, double u,
                   const unsigned char *ans, double *best, uint32_t *pick)
{
    if (b->nsl < RB_MIN && s->p.repair_bucket == 1) {
        for (uint32_t j = 0; j < b->nsl; j++) {
            uint32_t i = b->sl[j], c = C[i].p;
            double v = joint_response_cost(s, c, t, rr);
            if (ans)
                v -= joint_rord_pick(s, c, t, ans);
            rb_take_min(v, i, best, pick);
        }
        return PB_OK;
    }
    for (uint32_t g = 0; g < b->ng && b->nsl; g++) {
        uint32_t g0 = b->g0[g], g1 = b->g0[g + 1], key = b->gkey[g];
        uint32_t nbk = key == NONE ? 1 : s->nb;
        if (key != NONE && !b->bdone[g] && rb_bins(b, s, g) != PB_OK)
            return PB_ENOMEM;
        for (uint32_t r = 0; r < nbk; r++) {
            uint32_t bin = key == NONE ? 0 : b->bord[(size_t)g * s->nb + r];
            double bound = key == NONE ? -INFINITY : b->bsb[(size_t)g * s->nb + r];
            if (rb_far(bound, u, *best))
                break;
            /* d = t - E in [lo edge, hi edge) */
            pb_ns dlo = key == NONE ? 0 : b->edge[bin];
            pb_ns dhi = key == NONE || bin + 1 >= s->nb ? -1 : b->edge[bin + 1];
            uint32_t phi = rb_after(b, g0, g1, t - dlo); /* E <= t - dlo below */
            uint32_t plo = dhi < 0 ? g0 : rb_after(b, g0, phi, t - dhi);
            if (phi <= plo)
                continue;
            if (b->mut) { /* the bin's oldest call alone: wrong, for the tests */
                for (uint32_t p = plo; p < phi; p++) {
                    if (fw_sum(b, p) == (p ? fw_sum(b, p - 1) : 0))
                        continue;
                    uint32_t i = b->gp[p], c = C[i].p;
                    double v = joint_response_cost(s, c, t, rr);
                    if (ans)
                        v -= joint_rord_pick(s, c, t, ans);
                    rb_take_min(v, i, best, pick);
                    break;
                }
                continue;
            }
            if (b->ncls) { /* class by class: the bin's rest costs more */
                for (int q = 0; q < b->ncls; q++) {
                    const uint32_t *cf = b->cf[q];
                    double lb = b->lbq[q];
                    if (!b->ccount[q] || rb_far(bound, -lb, *best))
                        continue;
                    for (uint32_t p = fwt_pred(cf, b->n, b->top, phi - 1); p != NONE && p >= plo;
                         p = p ? fwt_pred(cf, b->n, b->top, p - 1) : NONE) {
                        uint32_t i = b->gp[p], c = C[i].p;
                        double cost = joint_response_cost(s, c, t, rr);
                        joint_rpick_test_scored++;
                        if (rb_far(cost, -lb, *best))
                            break;
                        rb_take_min(cost - joint_rord_pick(s, c, t, ans), i, best, pick);
                    }
                }
                continue;
            }
            for (uint32_t p = fw_pred(b, phi - 1); p != NONE && p >= plo;
                 p = p ? fw_pred(b, p - 1) : NONE) {
                uint32_t i = b->gp[p], c = C[i].p;
                double cost = joint_response_cost(s, c, t, rr);
                joint_rpick_test_scored++;
                if (rb_far(cost, u, *best))
                    break; /* the rest of the bin costs more */
                double v = cost;
                if (ans)
                    v -= joint_rord_pick(s, c, t, ans);
                rb_take_min(v, i, best, pick);
            }
        }
    }
    return PB_OK;
}

static int hent_cmp(const void *x, const void *y)
{
    const hent *a = x, *b = y;
    return hless(a, b) ? -1 : hless(b, a);
}

/* the C index of pair p (pmap: (pair, index) by pair), or NONE */
static uint32_t pmap_find(const hent *m, uint32_t n, uint32_t p)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (m[mid].key < (pb_ns)p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && m[lo].key == (pb_ns)p ? m[lo].i : NONE;
}

/* the classes' breakpoints: nx by C index, a heap of (next, index) */
typedef struct rkh {
    hent *h;
    pb_ns *nx;
    uint32_t n, cap;
    int fail;
} rkh;

/* call i's class at t; a new next breakpoint into the heap */
static unsigned rk_class(const joint *s, const rpk *k, const insort *C, uint32_t i, pb_ns t,
                         const unsigned char *ans, rkh *r)
{
    pb_ns next;
    unsigned q = joint_rpk_class(s, k, C[i].p, t, ans, &next);
    if (next != r->nx[i] && next != INT64_MAX) {
        if (r->n == r->cap) {
            uint32_t cap = r->cap * 2 + 16;
            hent *h = realloc(r->h, (size_t)cap * sizeof *h);
            if (!h) {
                r->fail = 1;
                return q;
            }
            r->h = h;
            r->cap = cap;
        }
        hpush(r->h, &r->n, (hent){next, i});
    }
    r->nx[i] = next;
    return q;
}

int joint_rpick_greedy(joint *s, const insort *C, uint32_t nc, const pb_ns *rsv,
                       const pb_ns *rrv, uint32_t *to, unsigned char *ans)
{
    const pb_ns w = s->p.slack;
    hent *hq = malloc(((size_t)nc + 1) * sizeof *hq);  /* open, by qend */
    hent *hd = malloc(((size_t)nc + 1) * sizeof *hd);  /* at their last chance */
    hent *he = malloc(((size_t)nc + 1) * sizeof *he);  /* open, by E */
    uint32_t *el = malloc(((size_t)nc + 1) * sizeof *el); /* scored, call order */
    pb_ns *E = malloc(((size_t)nc + 1) * sizeof *E);
    unsigned char *taken = calloc((size_t)nc + 1, 1);
    /* repair_bucket: calls on their way to the stable buckets (by E, then
     * by cs - slack against the least rr of the returns left) */
    const int bk = s->p.repair_bucket != 0 && nc > 0;
    hent *hs = bk ? malloc(((size_t)nc + 1) * sizeof *hs) : NULL;
    hent *hc = bk ? malloc(((size_t)nc + 1) * sizeof *hc) : NULL;
    pb_ns *sm = bk ? malloc(((size_t)nc + 1) * sizeof *sm) : NULL;
    unsigned char *gone = bk ? calloc((size_t)nc + 1, 1) : NULL; /* in the buckets */
    rbk b;
    memset(&b, 0, sizeof b);
    /* the order term's classes (joint_rpk.c): C index by pair, the
     * calls' next breakpoints and a heap of them */
    rpk kq;
    kq.on = 0;
    hent *pmap = NULL;
    rkh rh = {NULL, NULL, 0, 0, 0};
    double u = 0;
    uint32_t ns = 0, nhc = 0, ndead = 0;
    int rc = PB_OK;
    if (!hq || !hd || !he || !el || !E || !taken || (bk && (!hs || !hc || !sm || !gone))) {
        rc = PB_ENOMEM;
        goto done;
    }
    for (uint32_t i = 0; i < nc; i++) {
        uint32_t c = C[i].p;
        pb_ns e = s->pr[c].cr;
        const kvec *k = &s->kids[c];
        for (uint32_t j = 0; j < k->n; j++) {
            const jpair *x = &s->pr[k->a[j]];
            if (x->ret != NONE && x->rr > e)
                e = x->rr;
        }
        E[i] = e;
    }
    if (bk) {
        if ((rc = rb_init(&b, s, C, nc, E)) != PB_OK)
            goto done;
        for (uint32_t k = nc; k-- > 0;)
            sm[k] = k + 1 < nc && sm[k + 1] < rrv[k] ? sm[k + 1] : rrv[k];
        if (ans)
            u = joint_rord_pick_max(s, s->pr[C[0].p].link);
        if (ans && nc >= 2 && joint_rpk_init(s, C, nc, &kq)) {
            pmap = malloc(((size_t)nc + 1) * sizeof *pmap);
            rh.nx = malloc(((size_t)nc + 1) * sizeof *rh.nx);
            if (!pmap || !rh.nx || (rc = rb_classes(&b, &kq)) != PB_OK) {
                rc = PB_ENOMEM;
                goto done;
            }
            for (uint32_t i = 0; i < nc; i++) {
                pmap[i] = (hent){(pb_ns)C[i].p, i};
                rh.nx[i] = INT64_MAX;
            }
            pb_sort(pmap, nc, sizeof *pmap, hent_cmp);
        }
    }
    uint32_t nq = 0, nd = 0, ne = 0, nel = 0, ci = 0, nopen = 0, first = 0;
    for (uint32_t k = 0; k < nc; k++) {
        pb_ns t = rsv[k];
        while (ci < nc && (C[ci].t <= t || nopen == 0)) {
            /* opened (the second test: a return stamped before its call) */
            hpush(hq, &nq, (hent){s->qend[C[ci].p], ci});
            hpush(he, &ne, (hent){E[ci], ci});
            ci++;
            nopen++;
        }
        while (nq && hq[0].key <= t) {
            hent x = hpop(hq, &nq);
            hpush(hd, &nd, (hent){0, x.i});
        }
        while (ne && he[0].key <= t + w) {
            hent x = hpop(he, &ne);
            if (taken[x.i])
                continue;
            uint32_t at = lower(el, nel, x.i);
            memmove(el + at + 1, el + at, (size_t)(nel - at) * sizeof *el);
            el[at] = x.i;
            nel++;
            if (bk)
                hpush(hs, &ns, x);
        }
        while (bk && ns && hs[0].key <= t) { /* t >= E: tt and the key fixed */
            hent x = hpop(hs, &ns);
            if (!taken[x.i])
                hpush(hc, &nhc, (hent){s->pr[C[x.i].p].cs - w, x.i});
        }
        while (bk && nhc && hc[0].key <= sm[k]) { /* finite by cs from now on */
            hent x = hpop(hc, &nhc);
            if (taken[x.i])
                continue;
            /* left in el, skipped, and dropped in one sweep once half of
             * el (taking the oldest first one by one moved all of el
             * each time: quadratic) */
            gone[x.i] = 1;
            ndead++;
            rb_put(&b, x.i, b.ncls ? rk_class(s, &kq, C, x.i, t, ans, &rh) : 0);
            if (rh.fail) {
                rc = PB_ENOMEM;
                goto done;
            }
        }
        while (b.ncls && rh.n && rh.h[0].key <= t) { /* a class may rise */
            hent x = hpop(rh.h, &rh.n);
            if (b.slpos[x.i] == NONE || rh.nx[x.i] != x.key)
                continue;
            rb_reclass(&b, x.i, rk_class(s, &kq, C, x.i, t, ans, &rh));
            if (rh.fail) {
                rc = PB_ENOMEM;
                goto done;
            }
        }
        if (bk && ndead * 2 > nel) {
            uint32_t m = 0;
            for (uint32_t j = 0; j < nel; j++)
                if (!gone[el[j]])
                    el[m++] = el[j];
            nel = m;
            ndead = 0;
        }
        while (nd && taken[hd[0].i])
            (void)hpop(hd, &nd);
        uint32_t pick = NONE;
        if (nd) {
            pick = hd[0].i; /* its last chance */
        } else {
            double best = INFINITY;
            for (uint32_t j = 0; j < nel; j++) {
                if (bk && gone[el[j]])
                    continue;
                uint32_t c = C[el[j]].p;
                double v = joint_response_cost(s, c, t, rrv[k]);
                if (ans)
                    v -= joint_rord_pick(s, c, t, ans);
                if (v < best) {
                    best = v;
                    pick = el[j];
                }
            }
            if (bk && b.nsl && (rc = rb_best(&b, s, C, t, rrv[k], u, ans, &best, &pick)) != PB_OK)
                goto done;
        }
        if (pick == NONE) {
            while (taken[first])
                first++;
            pick = first;
        }
        uint32_t c = C[pick].p;
        to[c] = k;
        if (ans)
            ans[c] = 1;
        taken[pick] = 1;
        nopen--;
        if (bk && b.slpos[pick] != NONE)
            rb_take(&b, pick);
        if (b.ncls) { /* its neighbours' penalties may fall: class them again */
            uint32_t nbr[2];
            double li, lk;
            if (joint_rord_pick_parts(s, c, &nbr[0], &nbr[1], &li, &lk))
                for (int j = 0; j < 2; j++) {
                    uint32_t i = nbr[j] == NONE ? NONE : pmap_find(pmap, nc, nbr[j]);
                    if (i == NONE || b.slpos[i] == NONE)
                        continue;
                    rb_reclass(&b, i, rk_class(s, &kq, C, i, t, ans, &rh));
                    if (rh.fail) {
                        rc = PB_ENOMEM;
                        goto done;
                    }
                }
        }
        uint32_t at = lower(el, nel, pick);
        if (at < nel && el[at] == pick) {
            memmove(el + at, el + at + 1, (size_t)(nel - at - 1) * sizeof *el);
            nel--;
            ndead -= bk && gone[pick];
        }
    }
done:
    free(hq);
    free(hd);
    free(he);
    free(el);
    free(E);
    free(taken);
    free(hs);
    free(hc);
    free(sm);
    free(gone);
    free(pmap);
    free(rh.h);
    free(rh.nx);
    rb_free(&b);
    return rc;
}
