/*
 * joint_repair.c - joint without call ids: exchanges of returns between
 * calls of one link and the re-pairing with open-ended requests
 * (docs/joint/search.md, "The search", steps 4-5).
 */
#include "joint_int.h"
#include "pb_mem.h"
#include "pb_hash.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

#define NONE JOINT_NONE

/* ------------------------------------------------------------------ */
/* 6. without call ids: which return answers which call */

void joint_swap_ret(joint *s, uint32_t a, uint32_t b)
{
    jpair *x = &s->pr[a], *y = &s->pr[b];
    uint32_t r = x->ret;
    pb_ns rs = x->rs, rr = x->rr;
    x->ret = y->ret;
    x->rs = y->rs;
    x->rr = y->rr;
    y->ret = r;
    y->rs = rs;
    y->rr = rr;
}

static inline int inside(const joint *s, uint32_t k, uint32_t a)
{
    return s->pr[k].cs + s->p.slack >= s->pr[a].cr && s->pr[k].rr <= s->pr[a].rs + s->p.slack;
}

/* the kids of a and b sorted into set (either), fa (a only) and fb (b
 * only); 0, or -1 when some kid fits neither or too many fit both
 * (counted in resplit_capped) */
static int split_lists(joint *s, uint32_t a, uint32_t b, uint32_t *set, uint32_t *m,
                       uint32_t *fa, uint32_t *na, uint32_t *fb, uint32_t *nb)
{
    const kvec *ka = &s->kids[a], *kb = &s->kids[b];
    *m = *na = *nb = 0;
    uint32_t i = 0, j = 0;
    while (i < ka->n || j < kb->n) {
        int from1 = j >= kb->n || (i < ka->n && (s->pr[ka->a[i]].cs < s->pr[kb->a[j]].cs ||
                                                 (s->pr[ka->a[i]].cs == s->pr[kb->a[j]].cs &&
                                                  ka->a[i] < kb->a[j])));
        uint32_t k = from1 ? ka->a[i++] : kb->a[j++];
        int ia = inside(s, k, a), ib = inside(s, k, b);
        if (ia && ib) {
            if (*m >= JOINT_RESPLIT_MAX) {
                s->resplit_capped++;
                return -1;
            }
            set[(*m)++] = k;
        } else if (ia) {
            fa[(*na)++] = k;
        } else if (ib) {
            fb[(*nb)++] = k;
        } else {
            return -1;
        }
    }
    return 0;
}

/* best split of the kids of a and b between them (returns exchanged
 * already); -INFINITY when some kid fits neither or too many fit both.
 * The split is left in *mask over s->rsbuf's shared list. */
static double best_split(joint *s, uint32_t a, uint32_t b, uint32_t *set, uint32_t *m,
                         uint32_t *fa, uint32_t *na, uint32_t *fb, uint32_t *nb,
                         uint32_t *e1, uint32_t *e2, uint32_t *mask)
{
    const kvec *ka = &s->kids[a], *kb = &s->kids[b];
    if (split_lists(s, a, b, set, m, fa, na, fb, nb))
        return -INFINITY;
    /* every split scored in the order of joint_gray_mask, each walk
     * resumed from the split before (the same numbers: joint_search.c's
     * re-split), then chosen in mask order */
    if (!s->wr && !(s->wr = calloc(4, sizeof *s->wr)))
        return -INFINITY;
    s->wr[0].valid = s->wr[1].valid = s->wr[2].valid = s->wr[3].valid = 0;
    /* pruned (and bounded when it can) where splits are many and long,
     * and under swap_floor's floor (joint_xfloor.c) wherever it could
     * leave splits out */
    const int prune = s->p.prune && ((ka->n + kb->n >= JOINT_PRUNE_N &&
                                      ((size_t)(ka->n + kb->n) << *m) >= JOINT_PRUNE_MIN) ||
                                     joint_xfloor_route(s, *m));
    const int resume = ka->n + kb->n >= JOINT_RESUME_MIN || prune;
    double val[1u << JOINT_RESPLIT_MAX], bsf = s->xfloor_on ? s->xfloor : -INFINITY;
    /* with `resplit_prune`: the current split first (each shared call where it
     * is), then a split whose estimate is below the best so far is left
     * out (-INFINITY: it cannot be the first best in mask order) */
    uint32_t cur = 0;
    for (uint32_t t = 0; t < *m; t++)
        cur |= (uint32_t)(s->par[set[t]] == b) << t;
    /* by branch and bound when it can (`swap_bound`, joint_bnb.c: every
     * split it leaves out is below the current one's value, so the first
     * best in mask order is the same; scored without the order term, as
     * here), where the splits would be estimated: for smaller requests
     * the bounds' set-up costs more than the fresh walks (hotel load 100
     * black box: 2.290 -> 2.318 G instructions) */
    const int bnb = s->p.swap_bound && prune &&
                    joint_bnb_usable(s, a, b, fa, *na, fb, *nb, set, *m);
    if (bnb) {
        s->bnb_no_order = 1;
        int rc = joint_bnb_resplit(s, a, b, fa, *na, fb, *nb, set, *m, cur, val);
        s->bnb_no_order = 0;
        if (rc != PB_OK)
            return -INFINITY;
    }
    for (uint32_t y = 0; !bnb && y <= (1u << *m); y++) {
        uint32_t x = y == 0 ? cur : joint_gray_mask(y - 1, *m);
        if (prune) {
            if (y > 0 && x == cur)
                continue;
            if (y > 0) {
                double e = INFINITY;
                const joint_wrec *ref = s->wr + s->wref;
                if (ref[0].valid && ref[1].valid && ref[0].q == a && ref[1].q == b) {
                    uint32_t n1 = joint_resplit_list(s, fa, *na, set, *m, x, 0, e1);
                    uint32_t n2 = joint_resplit_list(s, fb, *nb, set, *m, x, 1, e2);
                    double l1 = 0, l2 = 0;
                    int h = 0;
                    if (joint_req_walk_estimate(s, a, e1, n1, &ref[0], &l1, &h) != PB_OK ||
                        joint_req_walk_estimate(s, b, e2, n2, &ref[1], &l2, &h) != PB_OK)
                        return -INFINITY;
                    s->est_evals++;
                    e = l1 + l2;
                }
                if (joint_prunable(s, e, bsf)) {
                    val[x] = -INFINITY;
                    continue;
                }
            }
        } else if (y == 0) {
            continue; /* without pruning: every split in the Gray order */
        }
        uint32_t n1 = joint_resplit_list(s, fa, *na, set, *m, x, 0, e1);
        uint32_t n2 = joint_resplit_list(s, fb, *nb, set, *m, x, 1, e2);
        double l1 = 0, l2 = 0;
        joint_wrec *ref = s->wr + s->wref, *out = s->wr + (2 - s->wref);
        if (resume ? joint_req_walk_resume(s, a, e1, n1, &ref[0], &out[0], &l1) != PB_OK ||
                         joint_req_walk_resume(s, b, e2, n2, &ref[1], &out[1], &l2) != PB_OK
                   : joint_req_walk(s, a, e1, n1, 0, &l1) != PB_OK ||
                         joint_req_walk(s, b, e2, n2, 0, &l2) != PB_OK)
            return -INFINITY;
        val[x] = l1 + l2;
        if (val[x] > bsf)
            bsf = val[x];
        s->wref = 2 - s->wref;
    }
    double best = -INFINITY;
    for (uint32_t x = 0; x < (1u << *m); x++)
        if (val[x] > best) {
            best = val[x];
            *mask = x;
        }
    return best;
}

/* An exchange of returns between two calls a and b of one link changes
 * which of their parents (requests of the caller) each return is an input
 * of; when those parents were also paired without call ids, the exchange
 * can go on upwards: the parents exchange their responses too, then the
 * grandparents, and so on.  That swaps what two requests did after a point
 * (every later event), which the pair alone cannot: a request's later
 * calls follow the return within microseconds whichever return it gets,
 * so only the whole exchange changes the likelihood, through the callee's
 * response delays and the durations of the calls that go together. */

#define XMAX 4 /* levels of an exchange (call pairs, parents, grandparents, ...) */
/* nats an exchange that goes past the call pairs must gain: without it,
 * exchanging two requests' whole futures to win a fraction of a nat on
 * one response delay undoes more right pairings than it makes (multi-tier
 * without call ids: 68.9 % exact instead of 70.1 %) */
#define XMARGIN 1.0

typedef struct xlevel {
    uint32_t *set, *fa, *fb, *e1, *e2; /* best_split's lists */
    uint32_t m, na, nb, mask, cap;
} xlevel;

static int xlevel_room(xlevel *L, uint32_t need)
{
    if (need <= L->cap)
        return PB_OK;
    uint32_t nc = L->cap ? L->cap : 16;
    while (nc < need)
        nc *= 2;
    uint32_t *b = realloc(L->set, (size_t)nc * 5 * sizeof *b);
    if (!b)
        return PB_ENOMEM;
    L->set = b;
    L->fa = b + nc;
    L->fb = b + 2 * (size_t)nc;
    L->e1 = b + 3 * (size_t)nc;
    L->e2 = b + 4 * (size_t)nc;
    L->cap = nc;
    return PB_OK;
}

int joint_psmemo_test_wrong = 0;

/* request q's log-likelihood as it stands: joint_req_ll, or with
 * conf_pair_memo inside joint_pair_shares its value kept from the first
 * time (s->ps_memo; NaN: not yet).  There nothing changes between the
 * exchanges it scores (each is undone before the next: the same returns,
 * parents and model), so a request's walk is the same number every time */
static double req_ll_now(joint *s, uint32_t q)
{
    if (!s->ps_memo)
        return joint_req_ll(s, q);
    if (isnan(s->ps_memo[q]))
        s->ps_memo[q] = joint_req_ll(s, q);
    return s->ps_memo[q];
}

/* the requests x and y (either may be NONE, or both the same) with their
 * kids re-split between them: the best log-likelihood of the two, the
 * split left in L; -INFINITY when some kid fits neither */
static double level_value(joint *s, uint32_t x, uint32_t y, xlevel *L, int *rc)
{
    L->m = L->na = L->nb = 0;
    if (x == NONE || x == y) {
        x = y;
        y = NONE;
    }
    if (x == NONE)
        return 0;
    if (y == NONE) {
        const kvec *k = &s->kids[x];
        for (uint32_t i = 0; i < k->n; i++)
            if (!inside(s, k->a[i], x))
                return -INFINITY;
        /* (the test's wrong memo: this walk is of swapped returns) */
        return joint_psmemo_test_wrong ? req_ll_now(s, x) : joint_req_ll(s, x);
    }
    uint32_t need = s->kids[x].n + s->kids[y].n + 1;
    if ((*rc = xlevel_room(L, need)) != PB_OK)
        return -INFINITY;
    return best_split(s, x, y, L->set, &L->m, L->fa, &L->na, L->fb, &L->nb, L->e1, L->e2,
                      &L->mask);
}

/* level_value through swap_level_memo's table (joint_xm.c): keyed by the
 * two requests, whether their own returns are exchanged (own) and which
 * two of their calls have theirs exchanged (kx, ky; NONE: none) */
static double level_kept(joint *s, uint32_t x, uint32_t y, uint32_t kx, uint32_t ky,
                         uint32_t own, xlevel *L, int *rc)
{
    /* kx NONE: the exchanged level of depth 1, keyed by the exchange's own
     * two calls, tried once a pass: never asked for again, not kept; nor
     * a level no other exchange can reach (keep 0, try_exchange) */
    if (x == NONE || y == NONE || x == y)
        return level_value(s, x, y, L, rc);
    double v;
    if (joint_xm_get(s, x, y, kx, ky, own, &v)) {
        L->m = L->na = L->nb = 0; /* nothing reads the split of a scoring */
        return v;
    }
    size_t c[JOINT_XM_NCOUNT];
    joint_xm_counts(s, c);
    const int w = s->wref;
    v = level_value(s, x, y, L, rc);
    if (*rc == PB_OK)
        *rc = joint_xm_put(s, x, y, kx, ky, own, v, c, s->wref != w);
    return v;
}

/* level_kept where the level may be kept, else level_value (inline: the
 * test costs nothing where the memo is off or cannot serve) */
static inline double level_maybe(joint *s, uint32_t x, uint32_t y, uint32_t kx, uint32_t ky,
                                 uint32_t own, int keep, xlevel *L, int *rc)
{
    if (keep && kx != NONE && s->xm_on && x != NONE && y != NONE && x != y)
        return level_kept(s, x, y, kx, ky, own, L, rc);
    return level_value(s, x, y, L, rc);
}

/* level_value at the top of an exchange (depth D, the levels below
 * exchanged): when the top is one request whose two calls X[D - 1],
 * Y[D - 1] had their returns exchanged, within a pass where nothing else
 * changes between exchanges (swap_memo's pass, or conf_pair_memo's
 * scoring), walked from the request's record (joint_xwalk.c: the same
 * number, a fan-out's thousands of calls not walked again each time) */
static double top_value(joint *s, const uint32_t *X, const uint32_t *Y, uint32_t D, xlevel *L,
                        int below, int *rc)
{
    if (D > 0 && X[D] != NONE && X[D] == Y[D] && (s->xmemo || s->ps_memo) &&
        !joint_psmemo_test_wrong) {
        double v = 0;
        int done = 0;
        if ((*rc = joint_xwalk_top(s, X[D], X[D - 1], Y[D - 1], &v, &done)) != PB_OK)
            return -INFINITY;
        if (done) {
            L->m = L->na = L->nb = 0; /* as level_value leaves a single request */
            return v;
        }
    }
    return level_maybe(s, X[D], Y[D], D > 0 ? X[D - 1] : NONE, D > 0 ? Y[D - 1] : NONE, 0,
                       below || D >= 2, L, rc);
}

/* what level_value counts without scoring (swap_floor: an exchange
 * whose last depth cannot gain still counts the re-split it would have
 * capped, resplit_capped) */
static void level_count(joint *s, uint32_t x, uint32_t y, xlevel *L, int *rc)
{
    if (x == NONE || y == NONE || x == y)
        return;
    if ((*rc = xlevel_room(L, s->kids[x].n + s->kids[y].n + 1)) != PB_OK)
        return;
    (void)split_lists(s, x, y, L->set, &L->m, L->fa, &L->na, L->fb, &L->nb);
}

static int level_apply(joint *s, uint32_t x, uint32_t y, const xlevel *L)
{
    if (x == NONE || y == NONE || x == y)
        return PB_OK;
    int rc = PB_OK;
    for (uint32_t t = 0; t < L->na && rc == PB_OK; t++)
        rc = joint_set_parent(s, L->fa[t], x);
    for (uint32_t t = 0; t < L->nb && rc == PB_OK; t++)
        rc = joint_set_parent(s, L->fb[t], y);
    for (uint32_t t = 0; t < L->m && rc == PB_OK; t++)
        rc = joint_set_parent(s, L->set[t], (L->mask >> t) & 1u ? y : x);
    return rc;
}

static int well_formed(const joint *s, uint32_t a)
{
    const jpair *x = &s->pr[a];
    return x->rs >= x->cr && x->rr >= x->cs;
}

static double ll_of(joint *s, uint32_t x, uint32_t y)
{
    double v = x != NONE ? req_ll_now(s, x) : 0;
    if (y != NONE && y != x)
        v += req_ll_now(s, y);
    return v;
}

/* ll_of through swap_memo's memo (joint_xfloor.c; the same sums) */
static double ll_memo(joint *s, uint32_t x, uint32_t y)
{
    double v = x != NONE ? joint_xmemo_ll(s, x) : 0;
    if (y != NONE && y != x)
        v += joint_xmemo_ll(s, y);
    return v;
}

/* Try the exchanges of a's and b's returns that go up D = 1 .. n levels;
 * keep the best that raises the likelihood of every request touched */
static int try_exchange(joint *s, uint32_t a, uint32_t b, xlevel *lv, size_t *swaps,
                        double *gain)
{
    if (gain)
        *gain = -INFINITY;
    uint32_t X[XMAX + 1], Y[XMAX + 1], n = 0;
    X[0] = a;
    Y[0] = b;
    for (;;) {
        uint32_t x = X[n], y = Y[n], seen = 0;
        for (uint32_t L = 0; L < n; L++) /* a service calling itself: stop */
            seen |= X[L] == x || X[L] == y || Y[L] == x || Y[L] == y;
        if (x == NONE || y == NONE || x == y || seen || !joint_ret_movable(s, x) || !joint_ret_movable(s, y) ||
            n == XMAX)
            break;
        n++;
        X[n] = s->par[x];
        Y[n] = s->par[y];
    }
    if (n > 0) /* the top may not be one of the exchanged requests either */
        for (uint32_t L = 0; L < n; L++)
            if (X[L] == X[n] || X[L] == Y[n] || Y[L] == X[n] || Y[L] == Y[n]) {
                n = L;
                break;
            }
    if (n == 0)
        return PB_OK;
    int rc = PB_OK;
    /* swap_level_memo (joint_xm.c): a level of this exchange is asked for
     * by another only along the same path: an exchange below (a and b
     * both make calls) or one above (the exchange of X[j], Y[j], j >= 1:
     * its exchanged levels from depth 3 on, its tops from depth 2 on
     * here); else it is not kept (the same on both sides of a sharing) */
    const int below = s->xm_on && s->kids[a].n > 0 && s->kids[b].n > 0;
    double before[XMAX + 1];
    for (uint32_t L = 0; L <= n; L++)
        before[L] = gain ? ll_of(s, X[L], Y[L]) : ll_memo(s, X[L], Y[L]);
    double best = gain ? -INFINITY : 1e-9;
    uint32_t bestD = 0, nsw = 0;
    /* a level's value once exchanged does not depend on the levels above
     * it, so each depth adds one exchanged level and a new top */
    double xsum = 0;
    for (uint32_t D = 1; D <= n && rc == PB_OK; D++) {
        if (s->rord) /* the order of answers (pair_order) */
            xsum += joint_rord_swap_delta(s, X[D - 1], Y[D - 1], NULL);
        joint_swap_ret(s, X[D - 1], Y[D - 1]);
        nsw = D;
        if (!well_formed(s, X[D - 1]) || !well_formed(s, Y[D - 1]))
            break;
        /* swap_floor (joint_xfloor.c; never when evaluating, gain): at
         * the last depth with a top of at most one request (cheap) the top
         * first, and the exchanged level only above what the exchange must
         * gain; else the exchanged level exactly (every deeper depth adds
         * to it) and the top only above its floor */
        const double margin = D > 1 ? XMARGIN : 0;
        const int last = !gain && s->p.swap_floor && D == n &&
                         (X[D] == NONE || Y[D] == NONE || X[D] == Y[D]);
        double top = 0;
        if (last) {
            top = top_value(s, X, Y, D, &lv[D], below, &rc);
            if (rc == PB_OK && top == -INFINITY)
                level_count(s, X[D - 1], Y[D - 1], &lv[D - 1], &rc);
            if (rc != PB_OK || top == -INFINITY)
                break; /* no gain at this depth, and it is the last */
            joint_xfloor_set(s, best, xsum + top, before[D - 1] + before[D], margin);
        }
        double xv = level_maybe(s, X[D - 1], Y[D - 1], D > 1 ? X[D - 2] : NONE,
                                D > 1 ? Y[D - 2] : NONE, 1, below || D >= 3, &lv[D - 1], &rc);
        s->xfloor_on = 0;
        if (rc != PB_OK || xv == -INFINITY)
            break; /* and so every deeper exchange */
        xsum += xv - before[D - 1];
        if (!last) {
            if (!gain)
                joint_xfloor_set(s, best, xsum, before[D], margin);
            top = top_value(s, X, Y, D, &lv[D], below, &rc);
            s->xfloor_on = 0;
        }
        double g = xsum + top - before[D];
        if (D > 1)
            g -= XMARGIN;
        if (g > best) {
            best = g;
            bestD = D;
        }
    }
    for (uint32_t L = nsw; L-- > 0;)
        joint_swap_ret(s, X[L], Y[L]);
    if (gain) { /* evaluate only (joint_pair_shares) */
        *gain = best;
        return rc;
    }
    if (rc != PB_OK || !bestD)
        return rc;
    for (uint32_t L = 0; L < bestD; L++)
        joint_swap_ret(s, X[L], Y[L]);
    for (uint32_t L = 0; L <= bestD && rc == PB_OK; L++) {
        if (level_value(s, X[L], Y[L], &lv[L], &rc) == -INFINITY && rc == PB_OK)
            rc = PB_ERANGE; /* cannot happen: it was feasible a moment ago */
        if (rc == PB_OK)
            rc = level_apply(s, X[L], Y[L], &lv[L]);
    }
    for (uint32_t L = 0; L < bestD; L++) {
        s->pair_of_msg[s->pr[X[L]].ret] = X[L];
        s->pair_of_msg[s->pr[Y[L]].ret] = Y[L];
    }
    uint32_t touched[2 * XMAX + 4];
    uint32_t nt = joint_xchg_touched(s, X, Y, bestD, touched);
    joint_xmemo_drop(s, touched, nt);      /* swap_memo: requests changed */
    joint_xwalk_drop(s, touched, nt);      /* and their records (joint_xwalk.c) */
    joint_resolve_swapped(s, touched, nt); /* resolve_local (joint_resolve.c) */
    joint_xm_touched(s, touched, nt);      /* swap_level_memo: their levels dropped */
    (*swaps)++;
    return rc;
}

/* Returns were paired first in, first out on each link (then re-paired).
 * Try exchanging the returns of two overlapping calls of one link, with
 * their parents' and further ancestors' returns (try_exchange). */
int joint_swap_pass(joint *s, size_t *swaps)
{
    xlevel lv[XMAX + 1];
    memset(lv, 0, sizeof lv);
    int rc = s->rord ? joint_rord_fit(s) : PB_OK;
    if (rc == PB_OK)
        rc = joint_xmemo_begin(s); /* swap_memo (joint_xfloor.c) */
    if (rc == PB_OK)
        rc = joint_xm_begin(s); /* swap_level_memo (joint_xm.c) */
    joint_xwalk_drop(s, NULL, 0);  /* a record lives within one pass */
    for (uint32_t l = 0; l < s->nlinks && rc == PB_OK; l++) {
        uint32_t b0 = s->bylink_off[l], b1 = s->bylink_off[l + 1];
        for (uint32_t i = b0; i < b1 && rc == PB_OK; i++) {
            uint32_t a = s->bylink[i];
            if (!joint_ret_movable(s, a))
                continue;
            for (uint32_t j = i + 1; j < b1 && j < i + 1 + JOINT_SWAP_WINDOW && rc == PB_OK; j++) {
                uint32_t b = s->bylink[j];
                if (!joint_ret_movable(s, b))
                    continue;
                if (s->pr[b].cr > s->pr[a].rs)
                    break; /* later calls do not overlap this one */
                rc = try_exchange(s, a, b, lv, swaps, NULL);
            }
        }
    }
    joint_xmemo_end(s);
    joint_xm_end(s);
    joint_xwalk_drop(s, NULL, 0);
    for (int L = 0; L <= XMAX; L++)
        free(lv[L].set);
    return rc;
}

int joint_pair_shares(joint *s, double *share)
{
    xlevel lv[XMAX + 1];
    memset(lv, 0, sizeof lv);
    int rc = PB_OK;
    /* conf_pair_memo: each request's own walk once (req_ll_now) */
    if (s->p.conf_pair_memo) {
        s->ps_memo = malloc(((size_t)s->npairs + 1) * sizeof *s->ps_memo);
        if (!s->ps_memo)
            return PB_ENOMEM;
        for (uint32_t q = 0; q < s->npairs; q++)
            s->ps_memo[q] = NAN;
    }
    size_t none = 0;
    joint_xwalk_drop(s, NULL, 0); /* a record lives within this scoring */
    if ((rc = joint_xm_begin(s)) != PB_OK) { /* swap_level_memo (joint_xm.c) */
        free(s->ps_memo);
        s->ps_memo = NULL;
        return rc;
    }
    for (uint32_t p = 0; p < s->npairs; p++)
        share[p] = 0; /* sum of exp(gain) first */
    for (uint32_t l = 0; l < s->nlinks && rc == PB_OK; l++) {
        uint32_t b0 = s->bylink_off[l], b1 = s->bylink_off[l + 1];
        for (uint32_t i = b0; i < b1 && rc == PB_OK; i++) {
            uint32_t a = s->bylink[i];
            if (!joint_ret_movable(s, a))
                continue;
            for (uint32_t j = i + 1; j < b1 && j < i + 1 + JOINT_SWAP_WINDOW && rc == PB_OK; j++) {
                uint32_t b = s->bylink[j];
                if (!joint_ret_movable(s, b))
                    continue;
                if (s->pr[b].cr > s->pr[a].rs)
                    break;
                double g = -INFINITY;
                rc = try_exchange(s, a, b, lv, &none, &g);
                double e = g > 700 ? INFINITY : exp(g);
                share[a] += e;
                share[b] += e;
            }
        }
    }
    for (uint32_t p = 0; p < s->npairs; p++)
        share[p] = 1.0 / (1.0 + share[p]);
    for (int L = 0; L <= XMAX; L++)
        free(lv[L].set);
    free(s->ps_memo);
    s->ps_memo = NULL;
    joint_xm_end(s);
    joint_xwalk_drop(s, NULL, 0);
    return rc;
}

/* after returns moved: new candidate lists; a parent that no longer
 * contains its call gives it up to the first candidate that does */
int joint_recandidate(joint *s)
{
    int rc = joint_find_candidates(s);
    for (uint32_t p = 0; p < s->npairs && rc == PB_OK; p++) {
        uint32_t q = s->par[p], keep = NONE;
        for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1]; j++)
            if (s->cand[j] == q)
                keep = q;
        if (keep == NONE && s->cand_off[p + 1] > s->cand_off[p])
            keep = s->cand[s->cand_off[p]];
        rc = joint_set_parent(s, p, keep);
    }
    return rc;
}

/* ------------------------------------------------------------------ */
/* 7. without call ids: re-pairing with open-ended requests
 *
 * A pair (call A->B, return B->A) is a request served by B.  Choosing
 * which return answers a call is choosing which of B's requests a response
 * belongs to, so the returns are re-paired the way calls are assigned:
 * first the calls are re-split with every request of a free pair left
 * open-ended (its interval may reach the latest return of its link it
 * could have, and its response is left out of the likelihood), then each
 * return of the link, in order on B's clock, goes to the open call whose
 * request it can end (all that request's calls returned before it) with
 * the most likely response delay from that request's latest input. */

/* the free pairs of link l: calls by arrival (C) and returns by send time
 * (R), both on the callee's clock; returns the count */
static uint32_t link_events(const joint *s, uint32_t l, insort *C, insort *R)
{
    uint32_t nc = 0;
    for (uint32_t i = s->bylink_off[l]; i < s->bylink_off[l + 1]; i++) {
        uint32_t p = s->bylink[i];
        if (!joint_ret_movable(s, p))
            continue;
        C[nc] = (insort){s->pr[p].cr, p};
        R[nc] = (insort){s->pr[p].rs, p};
        nc++;
    }
    if (nc > 1) {
        pb_sort(C, nc, sizeof *C, joint_cmp_insort);
        pb_sort(R, nc, sizeof *R, joint_cmp_insort);
    }
    return nc;
}

/* every free pair's latest possible end: the return that closes its busy
 * period on the callee's clock (every call that arrived by then has been
 * answered), at most JOINT_SWAP_WINDOW returns after its current one */
static int loose_ends(joint *s)
{
    uint32_t n = s->npairs;
    pb_ns *qe = malloc(((size_t)n + 1) * sizeof *qe);
    if (qe)
        for (uint32_t p = 0; p < n; p++)
            qe[p] = req_end(s, p);
    s->qend = qe;
    insort *C = malloc(((size_t)n + 1) * sizeof *C), *R = malloc(((size_t)n + 1) * sizeof *R);
    uint32_t *pos = malloc(((size_t)n + 1) * sizeof *pos);
    uint32_t *nxt = malloc(((size_t)n + 1) * sizeof *nxt);
    int rc = PB_OK;
    if (!s->qend || !C || !R || !pos || !nxt) {
        rc = PB_ENOMEM;
        goto done;
    }
    for (uint32_t l = 0; l < s->nlinks; l++) {
        uint32_t nc = link_events(s, l, C, R);
        if (nc < 2)
            continue;
        for (uint32_t k = 0; k < nc; k++)
            pos[R[k].p] = k;
        uint32_t i = 0;
        for (uint32_t k = 0; k < nc; k++) {
            while (i < nc && C[i].t <= R[k].t)
                i++;
            nxt[k] = i <= k + 1; /* busy period over after return k */
        }
        uint32_t last = nc - 1;
        for (uint32_t k = nc; k-- > 0;) {
            if (nxt[k])
                last = k;
            nxt[k] = last;
        }
        uint32_t j = 0;
        for (i = 0; i < nc; i++) {
            while (j < nc && R[j].t < C[i].t)
                j++;
            if (j >= nc)
                break;
            uint32_t p = C[i].p, e = nxt[j], cap = pos[p] + JOINT_SWAP_WINDOW;
            if (cap > nc - 1)
                cap = nc - 1;
            if (e > cap)
                e = cap;
            if (R[e].t > s->qend[p])
                s->qend[p] = R[e].t;
        }
    }
done:
    free(C);
    free(R);
    free(pos);
    free(nxt);
    return rc;
}

/* cost of return k (sent at t on the callee's clock, received at rr) as
 * the response of free pair c with its current calls; INFINITY when it
 * cannot be (a call of c returns after it, or it arrives before c left) */
double joint_response_cost(joint *s, uint32_t c, pb_ns t, pb_ns rr)
{
    return joint_response_cost_relaxed(s, c, t, rr, 0);
}

double joint_response_cost_relaxed(joint *s, uint32_t c, pb_ns t, pb_ns rr, int relaxed)
{
    const jpair *cc = &s->pr[c];
    const pb_ns w = s->p.slack;
    if (rr + w < cc->cs || t + w < cc->cr)
        return INFINITY;
    const kvec *k = &s->kids[c];
    pb_ns tt = cc->cr;
    uint32_t trig = 0;
    for (uint32_t i = 0; i < k->n; i++) {
        const jpair *x = &s->pr[k->a[i]];
        if (x->ret == NONE)
            continue;
        if (x->rr > t + w) {
            if (relaxed)
                continue;
            return INFINITY;
        }
        if (x->rr >= tt && x->rr <= t) {
            tt = x->rr;
            trig = 1 + x->link;
        }
    }
    uint32_t di = joint_key_get(s, cc->link, trig, s->nlinks);
    return -logf_of(s, di, t - tt);
}

/* give every return of each link to a call, in order of the returns on
 * the callee's clock: a call whose latest possible end this return is
 * takes it; else the open call with the least response cost; when none
 * can take it, the earliest open call (first in, first out) */
static int repair_pairs(joint *s, size_t *moved)
{
    uint32_t n = s->npairs;
    insort *C = malloc(((size_t)n + 1) * sizeof *C), *R = malloc(((size_t)n + 1) * sizeof *R);
    uint32_t *open = malloc(((size_t)n + 1) * sizeof *open);
    uint32_t *to = malloc(((size_t)n + 1) * sizeof *to);
    uint32_t *rm = malloc(((size_t)n + 1) * sizeof *rm);
    uint32_t *dem = malloc(((size_t)n + 1) * sizeof *dem);
    pb_ns *rsv = malloc(((size_t)n + 1) * sizeof *rsv), *rrv = malloc(((size_t)n + 1) * sizeof *rrv);
    uint32_t *ord = NULL;
    joint_xcost xc = {0};
    /* with the order of answers (pair_order): who was answered in the
     * greedy, and every pair's answer time in the pairing so far */
    unsigned char *ans = s->rord ? calloc((size_t)n + 1, 1) : NULL;
    pb_ns *rst = s->rord ? malloc(((size_t)n + 1) * sizeof *rst) : NULL;
    int rc = PB_OK;
    if (!C || !R || !open || !to || !rm || !dem || !rsv || !rrv || (s->rord && (!ans || !rst))) {
        rc = PB_ENOMEM;
        goto done;
    }
    for (uint32_t p = 0; rst && p < n; p++)
        rst[p] = s->pr[p].rs;
    /* links bottom up: a link after every link out of its callee (so a
     * request's calls are re-paired before its response); cycles and
     * more than 4096 links: in link order */
    ord = malloc(((size_t)s->nlinks + 1) * sizeof *ord);
    unsigned char *done = calloc((size_t)s->nlinks + 1, 1);
    if (!ord || !done) {
        free(ord);
        free(done);
        rc = PB_ENOMEM;
        goto done;
    }
    uint32_t no = 0;
    for (int progress = 1; progress && s->nlinks <= 4096 && no < s->nlinks;) {
        progress = 0;
        for (uint32_t l = 0; l < s->nlinks; l++) {
            if (done[l])
                continue;
            uint32_t b = s->link_dst[l], ok = 1;
            for (uint32_t o = s->out_off[b]; o < s->out_off[b + 1] && ok; o++)
                ok = done[s->out_links[o]] || s->out_links[o] == l;
            if (ok) {
                done[l] = 1;
                ord[no++] = l;
                progress = 1;
            }
        }
    }
    for (uint32_t l = 0; l < s->nlinks; l++)
        if (!done[l])
            ord[no++] = l;
    free(done);
    for (uint32_t li = 0; li < s->nlinks; li++) {
        uint32_t l = ord[li];
        uint32_t nc = link_events(s, l, C, R), ndem = 0;
        if (nc < 2)
            continue;
        for (uint32_t k = 0; k < nc; k++) {
            const jpair *x = &s->pr[R[k].p];
            rm[k] = x->ret;
            rsv[k] = x->rs;
            rrv[k] = x->rr;
        }
        /* under loss: which calls keep no return (joint_reunp.c) */
        if (s->p.reunp == 1 && s->halves_call && !(s->fifo_link && s->fifo_link[l])) {
            rc = joint_reunp_link(s, l, C, nc, rsv, rrv, dem, &ndem);
            if (rc != PB_OK)
                goto done;
        }
        uint32_t ci = 0, nopen = 0;
        if (s->p.repair_pick) { /* the same picks, by heaps (joint_rpick.c) */
            rc = joint_rpick_greedy(s, C, nc, rsv, rrv, to, ans);
            if (rc != PB_OK)
                goto done;
        }
        for (uint32_t k = 0; k < nc && !s->p.repair_pick; k++) {
            pb_ns t = rsv[k];
            while (ci < nc && C[ci].t <= t)
                open[nopen++] = C[ci++].p;
            if (nopen == 0)
                open[nopen++] = C[ci++].p; /* a return stamped before its call */
            uint32_t pick = NONE;
            for (uint32_t j = 0; j < nopen && pick == NONE; j++)
                if (s->qend[open[j]] <= t)
                    pick = j; /* its last chance */
            if (pick == NONE) {
                double best = INFINITY;
                for (uint32_t j = 0; j < nopen; j++) {
                    double v = joint_response_cost(s, open[j], t, rrv[k]);
                    if (ans)
                        v -= joint_rord_pick(s, open[j], t, ans);
                    if (v < best) {
                        best = v;
                        pick = j;
                    }
                }
            }
            if (pick == NONE)
                pick = 0;
            to[open[pick]] = k;
            if (ans)
                ans[open[pick]] = 1;
            memmove(open + pick, open + pick + 1, (size_t)(nopen - pick - 1) * sizeof *open);
            nopen--;
        }
        /* then exchange the returns of two nearby calls while that makes
         * both responses (and, with pair_order, the order of the link's
         * answers: rst holds the answer times of the pairing so far) more
         * likely together */
        if (rst)
            for (uint32_t i = 0; i < nc; i++)
                rst[C[i].p] = rsv[to[C[i].p]];
        /* the costs are pure within these passes (nothing but `to`
         * changes): the current costs and the exchanges' kept
         * (joint_xcost_*: the same numbers) */
        if ((rc = joint_xcost_begin(&xc, nc)) != PB_OK)
            goto done;
        for (uint32_t i = 0; i < nc; i++) {
            uint32_t c = C[i].p, k = to[c];
            xc.cur[i] = joint_response_cost(s, c, rsv[k], rrv[k]);
        }
        for (int pass = 0; pass < 4; pass++) {
            size_t ex = 0;
            for (uint32_t i = 0; i < nc; i++)
                for (uint32_t j = i + 1; j < nc && j <= i + JOINT_SWAP_WINDOW; j++) {
                    uint32_t c1 = C[i].p, c2 = C[j].p, k1 = to[c1], k2 = to[c2];
                    double cur = xc.cur[i] + xc.cur[j];
                    double alt;
                    if (!joint_xcost_get(&xc, i, j, &alt)) {
                        alt = joint_rinf_alt(s, c1, c2, k1, k2, rsv, rrv);
                        joint_xcost_put(&xc, i, j, alt);
                    }
                    if (joint_rinf_reject(s, alt))
                        continue; /* repair_inf_skip (joint_rinf.c) */
                    if (rst && !joint_ordbound_swap_skip(s, c1, c2, alt, cur))
                        alt -= joint_rord_swap_delta(s, c1, c2, rst);
                    if (alt < cur - 1e-9) {
                        to[c1] = k2;
                        to[c2] = k1;
                        if (rst) {
                            rst[c1] = rsv[k2];
                            rst[c2] = rsv[k1];
                        }
                        joint_xcost_changed(&xc, i);
                        joint_xcost_changed(&xc, j);
                        xc.cur[i] = joint_response_cost(s, c1, rsv[k2], rrv[k2]);
                        xc.cur[j] = joint_response_cost(s, c2, rsv[k1], rrv[k1]);
                        ex++;
                    }
                }
            if (!ex)
                break;
        }
        for (uint32_t i = 0; i < nc; i++) {
            uint32_t c = C[i].p, k = to[c];
            jpair *x = &s->pr[c];
            if (x->ret != rm[k])
                (*moved)++;
            x->ret = rm[k];
            x->rs = rsv[k];
            x->rr = rrv[k];
            s->pair_of_msg[rm[k]] = c;
            s->free_ret[c] = 1;
        }
        for (uint32_t i = 0; i < ndem; i++) { /* left without a return: a half call */
            jpair *x = &s->pr[dem[i]];
            x->ret = NONE;
            x->rs = x->cr;
            x->rr = x->cs;
            s->free_ret[dem[i]] = 0;
            (*moved)++;
        }
        if (rst)
            for (uint32_t i = 0; i < nc; i++)
                rst[C[i].p] = s->pr[C[i].p].rs;
    }
done:
    joint_xcost_free(&xc);
    free(ord);
    free(C);
    free(R);
    free(open);
    free(to);
    free(rm);
    free(dem);
    free(rsv);
    free(rrv);
    free(ans);
    free(rst);
    return rc;
}

/* match rounds and local-search passes; refit: refit the model before
 * each (not while requests are open-ended: their responses are unknown) */
static int solve(joint *s, int refit)
{
    joint_rpinc_kind(s, !refit); /* repair_incr (joint_rpinc.c) */
    int passes = refit || s->p.passes < 2 ? s->p.passes : 2;
    /* repair_open_passes (speed, off): the open-ended solve with fewer
     * local-search passes; its greedy rounds and every other solve as
     * always */
    if (!refit && s->p.repair_open_passes >= 0 && s->p.repair_open_passes < passes) {
        passes = s->p.repair_open_passes;
        s->rop_solves++;
    }
    int rc = joint_solve_rounds(s, refit, passes);
    joint_rpinc_kind(s, -1);
    return rc;
}

/* the rest of re-pairing round r from its closed solve's refit on: open
 * the ends, re-split, re-pair, close the ends; *moved: returns re-paired */
static int round_rest(joint *s, size_t *moved)
{
    int rc = loose_ends(s);
    if (rc == PB_OK)
        rc = joint_recandidate(s);
    if (rc == PB_OK)
        rc = solve(s, 0);
    if (rc == PB_OK && s->rord)
        rc = joint_rord_fit(s);
    if (rc == PB_OK)
        rc = repair_pairs(s, moved);
    free(s->qend);
    s->qend = NULL;
    if (rc == PB_OK)
        rc = joint_recandidate(s);
    s->repaired += *moved;
    return rc;
}

/* rounds r0.. (rest: round r0 from its refit on, sv_cut's resume); the
 * search may pause after a round's closed solve and refit (sv_cut,
 * joint_svcut.c: s->sv_paused set, the round noted) */
int joint_repair_rounds_from(joint *s, int r0, int rest)
{
    int rc = PB_OK;
    for (int r = r0; rc == PB_OK && r < s->p.repair; r++) {
        size_t moved = 0;
        if (!rest || r != r0) {
            rc = solve(s, 1);
            if (rc == PB_OK)
                rc = joint_refit(s); /* joint_search.c: refit_skip_same */
            if (rc == PB_OK && joint_svc_round(s, r))
                return PB_OK; /* sv_cut: paused here, joint_svc_resume goes on */
        }
        if (rc == PB_OK)
            rc = round_rest(s, &moved);
        if (!moved)
            break;
    }
    joint_rpinc_rounds_end(s); /* repair_incr 1-2: its state dropped */
    return rc;
}

/* the re-pairing rounds (`repair`), each: solve, fit, open the ends,
 * re-split, re-pair, close the ends */
int joint_repair_rounds(joint *s)
{
    size_t nfree = 0;
    for (uint32_t p = 0; p < s->npairs; p++)
        nfree += s->free_ret[p];
    s->corr_on = nfree && s->p.corr;
    if (s->corr_on && joint_corr_init(s) != PB_OK)
        return PB_ENOMEM;
    if (nfree && joint_fifo_test(s) != PB_OK)
        return PB_ENOMEM;
    if (nfree && s->pord_hold && joint_rord_init(s) != PB_OK)
        return PB_ENOMEM;
    if (!nfree || s->p.repair <= 0)
        return PB_OK;
    int rc = joint_rpinc_start(s); /* repair_incr (joint_rpinc.c) */
    if (rc != PB_OK) {
        joint_rpinc_rounds_end(s);
        return rc;
    }
    return joint_repair_rounds_from(s, 0, 0);
}
