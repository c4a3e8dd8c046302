/*
 * nesting_choose.c - step 3 of the nesting algorithm (seed 000, Figure 4,
 * 5.1.1.3): every call pair's parent among its candidates, the scoreboard
 * value times the three child penalties, ties to the earliest call; the
 * share of that choice (min_confidence); and, with a skew window, the
 * cycles the parent links may close.  Split from nesting.c along this seam
 * (nesting_int.h).
 *
 * Costs: the overlapping-child count of the penalty is O(log) a candidate
 * whatever the input (docs/nesting.md, "Costs"): a binary search over the
 * returns of the candidate's children without a skew window, and with one
 * a persistent count tree over their calls' times; the walk over the
 * siblings it replaces (nesting_params.overlap_walk = 1) is kept as the
 * reference the tests compare with, and for views out of time order.
 */
#include "nesting.h"
#include "pb_mem.h"
#include "pb_hash.h"
#include "nesting_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

#define cmsg nesting_cmsg
#define rmsg nesting_rmsg

/* (1 + c)^-e, from a table for small counts */
static inline double pen(const nesting *s, int which, uint32_t c, double e)
{
    if (!c || e == 0)
        return 1.0;
    return c < PEN_TAB ? s->pen[which][c] : pow(1.0 + c, -e);
}

/* The three child penalties of 5.1.1.3 as one factor.  A count c enters as
 * (1 + c)^-e: no children yet means no penalty, and the first conflicting
 * child already divides the score (by 4 for x = 2). */
/* Children counts of a parent by callee, for the same-child penalty: an
 * open-addressing table keyed by (parent pair, callee node), only built
 * when y != 0. */
typedef struct kidcount {
    uint64_t key;    /* pair << 32 | dst, plus 1; 0 = empty slot */
    uint32_t n;
} kidcount;

static kidcount *kid_find(kidcount *t, size_t cap, uint32_t q, uint32_t dst)
{
    uint64_t key = ((uint64_t)q << 32 | dst) + 1;
    size_t j = (size_t)pb_mix64(key) & (cap - 1);
    while (t[j].key && t[j].key != key)
        j = (j + 1) & (cap - 1);
    return &t[j];
}

/* Count of (q, dst), 0 when absent. */
static uint32_t kid_get(kidcount *t, size_t cap, uint32_t q, uint32_t dst)
{
    return kid_find(t, cap, q, dst)->n;
}

/* One more child of q calling dst (at most one per pair: the table, twice
 * the pairs, never fills). */
static void kid_add(kidcount *t, size_t cap, uint32_t q, uint32_t dst)
{
    kidcount *e = kid_find(t, cap, q, dst);
    e->key = ((uint64_t)q << 32 | dst) + 1;
    e->n++;
}

/* The children of each parent so far, in the order they were given
 * (children come in return order, so their returns increase), for the
 * overlap count of penalty() without a walk over the siblings.  They are
 * kept in one pool (kid): parent q's chunk starts at off[q] (NONE until
 * its first child) and is a power of two 2^j >= 2 long, its count first,
 * then room for 2^j - 1 child pair numbers; a full chunk moves to one twice
 * as long and its old place goes to a free list of its length, which the
 * next chunk of that length takes.  So a parent costs 8 bytes (one child),
 * not a pointer, a count and a block of its own (about 40 bytes with the
 * allocator's header: 22 MB on a 2 M-message trace, README speed rows).
 * off is the parent's first_child array, lent while the parents are
 * chosen (no mode reads the sibling lists; kret_links builds them after).
 * Mode 1 compares rows (no skew window, same_tick), mode 2 times (no skew
 * window, same_tick=0, rows in time order), where zc[q] counts the
 * children of q that returned at the tick of its last child's return and
 * were called at that tick too.  Mode 3 (a skew window, rows in time
 * order) compares times too, but a child's call may come after its own
 * return, so the overlapping siblings (returned after c's call -- a suffix
 * of q's children -- and called before c's return) are not a suffix: a
 * short suffix is scanned, a long one counted through a persistent segment
 * tree over the ranks of the calls' times (root[q][j]: the first j
 * children of q), built for a parent the first time one of its suffixes is
 * long. */
typedef struct pstnode {
    uint32_t l, r, cnt;  /* node 0: the empty tree */
} pstnode;

typedef struct kidrets {
    int mode;          /* 0: walk the sibling list instead */
    uint32_t *off;     /* [npairs]: q's chunk in kid, or NONE */
    uint32_t *kid;     /* the pool of chunks */
    size_t nkid, kidcap;
    uint32_t freel[32]; /* [j]: a free chunk 2^j long (its first word: the
                           next one), or NONE */
    uint32_t *zc;
    /* mode 3 */
    uint32_t scan_max;   /* suffixes up to this long are scanned */
    uint32_t n;          /* ranks 0..n-1 (one per pair) */
    pb_ns *cts;          /* [n]: the pairs' call times, sorted; NULL until
                            the first tree */
    uint32_t *crank;     /* [n]: a pair's rank in cts (ties by pair) */
    uint32_t **root;     /* [npairs]: per parent, NULL until built; as long
                            as its chunk */
    pstnode *pool;
    size_t npool, poolcap;
} kidrets;

/* The length of the chunk of a parent with n >= 1 children (and of its
 * tree's root array): the least power of two above n. */
static size_t kret_size(uint32_t n)
{
    size_t c = 2;
    while (c <= n)
        c *= 2;
    return c;
}

/* q's children so far (kr->mode != 0) */
static inline uint32_t kret_n(const kidrets *kr, uint32_t q)
{
    return kr->off[q] == NONE ? 0 : kr->kid[kr->off[q]];
}

/* A chunk 2^j long: from the free list, else from the end of the pool.
 * NONE when out of memory (the pool's offsets are 32 bits: it holds at
 * most 4 words a pair, live chunks being at most twice their count and
 * children, free ones at most as long as the live ones). */
static uint32_t kret_chunk(kidrets *kr, unsigned j)
{
    uint32_t o = kr->freel[j];
    if (o != NONE) {
        kr->freel[j] = kr->kid[o];
        return o;
    }
    size_t len = (size_t)1 << j;
    if (kr->nkid + len >= UINT32_MAX ||
        pb_grow(&kr->kid, sizeof *kr->kid, &kr->kidcap, kr->nkid + len, 4096) != PB_OK)
        return NONE;
    o = (uint32_t)kr->nkid;
    kr->nkid += len;
    return o;
}

typedef struct tspair {
    pb_ns ts;
    uint32_t pair;
} tspair;

static int cmp_tspair(const void *a, const void *b)
{
    const tspair *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->pair < y->pair ? -1 : x->pair > y->pair;
}

/* The ranks of every pair's call time (once).  PB_OK or PB_ENOMEM. */
static int pst_ranks(const nesting *s, kidrets *kr)
{
    if (kr->cts)
        return PB_OK;
    uint32_t n = s->npairs;
    tspair *a = malloc((n ? n : 1) * sizeof *a);
    kr->cts = malloc((n ? n : 1) * sizeof *kr->cts);
    kr->crank = malloc((n ? n : 1) * sizeof *kr->crank);
    kr->pool = malloc(1024 * sizeof *kr->pool);
    if (!a || !kr->cts || !kr->crank || !kr->pool) {
        free(a);
        free(kr->cts);
        free(kr->crank);
        free(kr->pool);
        kr->cts = NULL;
        kr->crank = NULL;
        kr->pool = NULL;
        return PB_ENOMEM;
    }
    for (uint32_t i = 0; i < n; i++)
        a[i] = (tspair){cmsg(s, i)->ts, i};
    pb_sort(a, n, sizeof *a, cmp_tspair);
    for (uint32_t i = 0; i < n; i++) {
        kr->cts[i] = a[i].ts;
        kr->crank[a[i].pair] = i;
    }
    free(a);
    kr->n = n;
    kr->pool[0] = (pstnode){0, 0, 0};
    kr->npool = 1;
    kr->poolcap = 1024;
    return PB_OK;
}

/* The tree `prev` plus rank x: a new root (path copying, O(log n) nodes),
 * or 0 when out of memory (*rc = PB_ENOMEM). */
static uint32_t pst_insert(kidrets *kr, uint32_t prev, uint32_t x, int *rc)
{
    size_t need = kr->npool + 34;
    if (need > UINT32_MAX ||
        pb_grow(&kr->pool, sizeof *kr->pool, &kr->poolcap, need, 1024) != PB_OK) {
        *rc = PB_ENOMEM;
        return 0;
    }
    uint32_t lo = 0, hi = kr->n, root = (uint32_t)kr->npool++, cur = root, old = prev;
    for (;;) {
        kr->pool[cur] = kr->pool[old];
        kr->pool[cur].cnt++;
        if (hi - lo <= 1)
            break;
        uint32_t mid = lo + (hi - lo) / 2, nx = (uint32_t)kr->npool++;
        if (x < mid) {
            old = kr->pool[old].l;
            kr->pool[cur].l = nx;
            hi = mid;
        } else {
            old = kr->pool[old].r;
            kr->pool[cur].r = nx;
            lo = mid;
        }
        cur = nx;
    }
    return root;
}

/* Ranks below t in the tree at node. */
static uint32_t pst_count(const kidrets *kr, uint32_t node, uint32_t t)
{
    uint32_t lo = 0, hi = kr->n, c = 0;
    while (node && t > lo) {
        if (t >= hi)
            return c + kr->pool[node].cnt;
        uint32_t mid = lo + (hi - lo) / 2;
        if (t <= mid) {
            node = kr->pool[node].l;
            hi = mid;
        } else {
            c += kr->pool[kr->pool[node].l].cnt;
            node = kr->pool[node].r;
            lo = mid;
        }
    }
    return c;
}

/* Build the versions of parent q's tree over its ca children so far.
 * PB_OK or PB_ENOMEM. */
static int pst_build(const nesting *s, kidrets *kr, uint32_t q, uint32_t ca)
{
    int rc = pst_ranks(s, kr);
    if (rc != PB_OK)
        return rc;
    uint32_t *v = malloc(kret_size(ca) * sizeof *v);
    if (!v)
        return PB_ENOMEM;
    const uint32_t *kid = kr->kid + kr->off[q] + 1;
    v[0] = 0;
    for (uint32_t j = 0; j < ca && rc == PB_OK; j++)
        v[j + 1] = pst_insert(kr, v[j], kr->crank[kid[j]], &rc);
    if (rc != PB_OK) {
        free(v);
        return rc;
    }
    kr->root[q] = v;
    return PB_OK;
}

/* Child c given to parent q.  PB_OK or PB_ENOMEM. */
static int kret_add(const nesting *s, kidrets *kr, uint32_t q, uint32_t c)
{
    uint32_t o = kr->off[q], n = o == NONE ? 0 : kr->kid[o];
    if (o == NONE || ((n + 1) & n) == 0) {
        /* no chunk, or a full one (2^j long, 2^j - 1 children): one twice
         * as long */
        size_t len = kret_size(n + 1);
        unsigned j = 0;
        while (((size_t)1 << j) < len)
            j++;
        uint32_t no = kret_chunk(kr, j);
        if (no == NONE)
            return PB_ENOMEM;
        if (o != NONE) {
            memcpy(kr->kid + no, kr->kid + o, ((size_t)n + 1) * sizeof *kr->kid);
            kr->kid[o] = kr->freel[j - 1];
            kr->freel[j - 1] = o;
        } else {
            kr->kid[no] = 0;
        }
        kr->off[q] = o = no;
        if (kr->mode == 3 && kr->root[q]) {
            uint32_t *a = realloc(kr->root[q], len * sizeof *a);
            if (!a)
                return PB_ENOMEM;
            kr->root[q] = a;
        }
    }
    uint32_t *kid = kr->kid + o + 1;
    if (kr->mode == 2) {
        pb_ns t = rmsg(s, c)->ts;
        uint32_t zero = cmsg(s, c)->ts == t;
        kr->zc[q] = n > 0 && rmsg(s, kid[n - 1])->ts == t ? kr->zc[q] + zero : zero;
    }
    kid[n] = c;
    kr->kid[o] = n + 1;
    if (kr->mode == 3 && kr->root[q]) {
        int rc = PB_OK;
        kr->root[q][n + 1] = pst_insert(kr, kr->root[q][n], kr->crank[c], &rc);
        return rc;
    }
    return PB_OK;
}

/* The sibling lists (first_child, next_sib: newest child first, as a
 * walk adds them) from the chunks, whose offsets first_child held. */
static void kret_links(nesting *s, const kidrets *kr)
{
    for (uint32_t c = 0; c < s->npairs; c++)
        s->next_sib[c] = NONE;
    for (uint32_t q = 0; q < s->npairs; q++) {
        uint32_t o = s->first_child[q], prev = NONE;
        if (o == NONE)
            continue;
        for (uint32_t j = 0; j < kr->kid[o]; j++) {
            uint32_t c = kr->kid[o + 1 + j];
            s->next_sib[c] = prev;
            prev = c;
        }
        s->first_child[q] = prev;
    }
}

static void kret_free(kidrets *kr, uint32_t npairs)
{
    for (uint32_t i = 0; kr->root && i < npairs; i++)
        free(kr->root[i]);
    free(kr->kid);
    free(kr->zc);
    free(kr->root);
    free(kr->cts);
    free(kr->crank);
    free(kr->pool);
}

/* The three child penalties of 5.1.1.3 as one factor.  ca: children of q
 * so far; cs: those calling the same node as c.  The overlapping children
 * are found without a scan of all of q's children (that was quadratic in
 * the number of children of a parent): the list holds them newest first,
 * so their returns come in decreasing order, and the ones that return
 * after c's call (the only ones that can overlap c) are a prefix.  Without
 * a skew window (kr->mode 1, 2) that prefix is counted by a binary search,
 * with one (mode 3) found by one and its calls before c's return counted
 * in the tree, so K children of one parent, all open at once, cost
 * O(K log K), not K^2.  *rc: PB_ENOMEM when building a tree failed. */
static double penalty(const nesting *s, uint32_t q, uint32_t c,
                      const pb_msg *cm, const pb_msg *rm, uint32_t ca,
                      uint32_t cs, kidrets *kr, int *rc)
{
    uint32_t co = 0;
    /* without a skew window the file order is the order of events, also
     * between rows stamped at the same tick */
    const int by_row = s->p.skew_window == 0 && s->p.same_tick;
    if (s->p.x != 0 && kr->mode) {
        /* a child k given before c returned before it (pairs come in
         * return order) and was called before its own return (no skew
         * window), so by rows it overlaps c exactly when ret[k] >
         * call[c]: a suffix of q's children; by times when its return is
         * after c's call and its call before c's return, i.e. the
         * returns after c's call less those called and returned at c's
         * return tick (zero long, the last ones given) */
        const uint32_t *r = ca ? kr->kid + kr->off[q] + 1 : NULL; /* child pairs */
        uint32_t lo = 0, hi = ca;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (kr->mode == 1 ? s->ret[r[mid]] > s->call[c] : rmsg(s, r[mid])->ts > cm->ts)
                hi = mid;
            else
                lo = mid + 1;
        }
        co = ca - lo;
        if (kr->mode == 2 && co && rmsg(s, r[ca - 1])->ts == rm->ts)
            co -= kr->zc[q];
        if (kr->mode == 3 && co) {
            /* with a skew window a child may be called after its return
             * (and after c's): of the suffix, count the calls before
             * c's return */
            if (co <= kr->scan_max && !kr->root[q]) {
                co = 0;
                for (uint32_t j = lo; j < ca; j++)
                    co += cmsg(s, r[j])->ts < rm->ts;
            } else if (kr->root[q] || (*rc = pst_build(s, kr, q, ca)) == PB_OK) {
                /* t: the pairs called before c's return */
                uint32_t tlo = 0, thi = kr->n;
                while (tlo < thi) {
                    uint32_t mid = tlo + (thi - tlo) / 2;
                    if (kr->cts[mid] < rm->ts)
                        tlo = mid + 1;
                    else
                        thi = mid;
                }
                co = pst_count(kr, kr->root[q][ca], tlo) -
                     pst_count(kr, kr->root[q][lo], tlo);
            }
        }
    } else if (s->p.x != 0)
        for (uint32_t k = s->first_child[q]; k != NONE; k = s->next_sib[k]) {
            if (by_row) {
                if (s->ret[k] <= s->call[c])
                    break;
                co += s->call[k] < s->ret[c];
            } else {
                if (rmsg(s, k)->ts <= cm->ts)
                    break;
                co += cmsg(s, k)->ts < rm->ts;
            }
        }
    return pen(s, 0, co, s->p.x) * pen(s, 1, cs, s->p.y) * pen(s, 2, ca, s->p.z);
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* c's parent is q: the links, and the children's record the penalty
 * counts with (kr->mode != 0) or nkids and the sibling list.  PB_OK or
 * PB_ENOMEM. */
static int give_child(nesting *s, kidrets *kr, uint32_t *nkids, uint32_t q, uint32_t c)
{
    if (kr->mode) {
        int rc = kret_add(s, kr, q, c);
        if (rc != PB_OK)
            return rc;
    } else {
        s->next_sib[c] = s->first_child[q];
        s->first_child[q] = c;
        nkids[q]++;
    }
    s->parent[c] = q;
    return PB_OK;
}

int nesting_choose(nesting *s)
{
    double *vbuf = NULL;
    size_t vcap = 0;
    const size_t bins = (size_t)s->p.bins;
    const int penalize = s->p.x != 0 || s->p.y != 0 || s->p.z != 0;
    int rc = PB_OK;
    uint32_t *nkids = NULL;
    /* the children per parent, for the overlap count (penalty) */
    kidrets kr = {0};
    for (unsigned j = 0; j < 32; j++)
        kr.freel[j] = NONE;
    if (s->p.x != 0 && s->p.overlap_walk != 1 &&
        (s->p.skew_window == 0 ? s->p.same_tick || s->sorted : s->sorted)) {
        kr.mode = s->p.skew_window > 0 ? 3 : s->p.same_tick ? 1 : 2;
        kr.off = s->first_child;
        if (kr.mode == 2)
            kr.zc = calloc(s->npairs ? s->npairs : 1, sizeof *kr.zc);
        if (kr.mode == 3)
            kr.root = calloc(s->npairs ? s->npairs : 1, sizeof *kr.root);
        kr.scan_max = s->p.overlap_walk == 2 ? 0 : 32;
    }
    size_t kcap = 0;
    kidcount *kc = NULL;
    if (penalize && s->p.y != 0) {
        kcap = 16;
        while (kcap < 2 * (size_t)s->npairs)
            kcap *= 2;
        kc = calloc(kcap, sizeof *kc);
    }
    if (!kr.mode)
        nkids = calloc(s->npairs ? s->npairs : 1, sizeof *nkids);
    if ((!kr.mode && !nkids) || (penalize && s->p.y != 0 && !kc) ||
        (kr.mode == 2 && !kr.zc) || (kr.mode == 3 && !kr.root)) {
        free(nkids);
        free(kc);
        kret_free(&kr, 0);
        return PB_ENOMEM;
    }
    for (uint32_t c = 0; c < s->npairs; c++) {
        s->first_child[c] = s->next_sib[c] = s->parent[c] = NONE;
    }
    for (uint32_t c = 0; c < s->npairs; c++) {
        uint32_t k0 = s->cand_off[c], k1 = s->cand_off[c + 1];
        if (s->ret[c] >= s->own_hi)
            break; /* a later window chooses these */
        const pb_msg *cm = cmsg(s, c), *rm = rmsg(s, c);
        if (s->ret[c] < s->own_lo) {
            /* chosen by an earlier window: take that choice, so the
             * penalties of the pairs chosen here count the same children */
            uint32_t pr = s->fpar ? s->fpar[s->ret[c]] : NONE;
            if (pr >= s->v.n)
                continue;
            if (s->share && s->fshare)
                s->share[c] = s->fshare[s->ret[c]];
            uint32_t q = s->pair_of_msg[pr];
            if (q == NONE || s->ret[q] != pr)
                continue; /* its call is before this view: an old path */
            if ((rc = give_child(s, &kr, nkids, q, c)) != PB_OK)
                break;
            if (kc)
                kid_add(kc, kcap, q, cm->dst);
            continue;
        }
        if (k0 == k1)
            continue;
        uint32_t best = NONE, last_a = NONE, h = NONE;
        double bestv = -1.0, sumv = 0;
        size_t nv = 0;
        if (k1 - k0 == 1) /* no choice to make (the common case) */
            best = s->cand[k0];
        for (uint32_t k = k1 - k0 == 1 ? k1 : k0; k < k1; k++) {
            uint32_t q = s->cand[k];
            const pb_msg *pm = cmsg(s, q);
            if (pm->src != last_a) {
                h = nesting_sb_find(s, pm->src, cm->src, cm->dst, 0, &rc);
                last_a = pm->src;
            }
            double v = h == NONE ? 0.0 : s->sb[(size_t)h * bins + nesting_bin(s, cm->ts - pm->ts)];
            if (penalize) {
                v *= penalty(s, q, c, cm, rm, kr.mode ? kret_n(&kr, q) : nkids[q],
                             kc ? kid_get(kc, kcap, q, cm->dst) : 0, &kr, &rc);
                if (rc != PB_OK)
                    break;
            }
            /* ties go to the earliest parent */
            if (v > bestv || (v == bestv && s->call[q] < s->call[best])) {
                bestv = v;
                best = q;
            }
            if (s->share) {
                if (nv == vcap) {
                    size_t nc = vcap ? 2 * vcap : 64;
                    double *t = realloc(vbuf, nc * sizeof *t);
                    if (!t) {
                        rc = PB_ENOMEM;
                        break;
                    }
                    vbuf = t;
                    vcap = nc;
                }
                vbuf[nv++] = v;
            }
        }
        /* summed in increasing order, so that the sum does not depend on
         * the order the candidates were listed in (window mode lists them
         * in another) */
        if (nv > 1)
            pb_sort(vbuf, nv, sizeof *vbuf, cmp_dbl);
        for (size_t i = 0; i < nv; i++)
            sumv += vbuf[i];
        nv = 0;
        /* the confidence of the choice: the winner's share of the scores
         * (all zero: an even share) */
        if (s->share)
            s->share[c] = k1 - k0 == 1 ? 1.0
                          : sumv > 0 ? bestv / sumv : 1.0 / (double)(k1 - k0);
        if (rc != PB_OK)
            break;
        if ((rc = give_child(s, &kr, nkids, best, c)) != PB_OK)
            break;
        if (kc)
            kid_add(kc, kcap, best, cm->dst);
    }
    if (kr.mode)
        kret_links(s, &kr);
    kret_free(&kr, s->npairs);
    free(nkids);
    free(kc);
    free(vbuf);
    return rc;
}

static void detach(nesting *s, uint32_t c)
{
    uint32_t p = s->parent[c];
    uint32_t *link = &s->first_child[p];
    while (*link != NONE && *link != c)
        link = &s->next_sib[*link];
    if (*link == c)
        *link = s->next_sib[c];
    s->next_sib[c] = NONE;
    s->parent[c] = NONE;
}

/* With a skew window two pairs can be each other's candidates, so the
 * parent links may close a cycle; each cycle is opened at its earliest
 * call, which then roots a path. */
int nesting_break_cycles(nesting *s)
{
    uint8_t *st = calloc(s->npairs ? s->npairs : 1, 1);
    uint32_t *stack = malloc((s->npairs ? s->npairs : 1) * sizeof *stack);
    if (!st || !stack) {
        free(st);
        free(stack);
        return PB_ENOMEM;
    }
    for (uint32_t i = 0; i < s->npairs; i++) {
        if (st[i])
            continue;
        uint32_t len = 0, j = i;
        while (j != NONE && st[j] == 0) {
            st[j] = 1;
            stack[len++] = j;
            j = s->parent[j];
        }
        if (j != NONE && st[j] == 1) {
            uint32_t k = len;
            while (stack[k - 1] != j)
                k--;
            uint32_t first = j;
            for (uint32_t m = k - 1; m < len; m++)
                if (s->call[stack[m]] < s->call[first])
                    first = stack[m];
            detach(s, first);
            s->cycles++;
        }
        for (uint32_t m = 0; m < len; m++)
            st[stack[m]] = 2;
    }
    free(st);
    free(stack);
    return PB_OK;
}

