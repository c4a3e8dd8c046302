/*
 * joint_selfcal.c - joint: self-calibration of the confidence
 * (docs/joint/confidence.md, "Allowances for model error").
 *
 * A call's share (joint_conf.c) is a posterior over a neighbourhood of the
 * solution under the fitted model.  It misses what lies outside the
 * neighbourhood (three requests whose calls crossed, a search that stopped
 * short) and cannot see how the search and the pairing behave on this
 * trace's structure and load.  So the trace is made again with a known
 * truth, and the same inference is run on it:
 *
 *   - every request of the solution keeps its calls (the same tree), its
 *     root keeps its real arrival, every pair keeps its real network
 *     delays (call sent -> received, return sent -> received) and its
 *     lost halves; every output's delay from its trigger (the model's:
 *     the arrival or the latest return of the request, learned parallel
 *     siblings skipped) is drawn, with replacement, from the delays the
 *     solution has under the same key (incoming endpoint, trigger,
 *     output); a response is sent no earlier than its request's last
 *     return (conf_sim_async: of the returns the solution's response
 *     waited for, joint_calibasync.c); stamps are cut to the trace's tick.  Draws come from a
 *     seeded GSL generator (conf_seed): same trace, same numbers.
 *     Only the trees of a window of the trace's time around its middle
 *     root: conf_sim_share of the pairs, at least conf_sim_pairs, at most
 *     JOINT_SELFCAL_PAIRS (the load kept, the cost bounded).
 *   - escapes: a service with orphans (calls no request of it contains)
 *     shows that its calls can leave their request's interval; in the
 *     simulation each of its calls does so at its orphan rate, by the
 *     miss of one of its orphans (orphan_misses).
 *   - joint is run on that trace with the same options (call ids where
 *     the real pairs had them; without them only the search pair_order=auto
 *     kept on the real trace) and its confidences computed as for the
 *     real trace; a simulated pair is right when its inferred parent is
 *     its parent in the simulation (and, without call ids, its return its
 *     own), a row when its pair and every pair above it are.
 *   - per link of the row's call, pool-adjacent-violators fits a monotone
 *     map from stated confidence to the fraction of rows right, each
 *     block's value taken as (right + 1) / (rows + 2) and made monotone
 *     downwards; the top block must hold a wrong row (pooled with the one
 *     below while it holds none); a link with fewer than JOINT_SELFCAL_MIN
 *     rows uses the map of all links together.
 *   - the doubt ratio: the real rows' mean doubt (1 - confidence) over the
 *     simulated rows', per link (at least 1): how much harder the real
 *     trace is than its simulation.  A real row's confidence c becomes
 *     min(c, 1 - ratio (1 - map(c))) (map(c): the value of the last block
 *     whose least stated confidence is at most c).
 *   - a row whose every pair up to its root has one candidate (a share of
 *     1), was paired by call id and is a call of a service without
 *     orphans is left alone, in the fit and in the trace: there each simulated
 *     parent is the only candidate, so the simulation cannot be wrong and
 *     says nothing about it.
 *
 * The cost is a second inference, on a window of the trace (a quarter of
 * it by default).
 */
#include "joint_int.h"

#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

#define NONE JOINT_NONE
#define JOINT_SELFCAL_NEAR 32  /* requests on each side an orphan's miss is measured against */
#define JOINT_SELFCAL_PAIRS 10000 /* pairs simulated at most (a window of the trace) */
#define JOINT_SELFCAL_THIN 30  /* conf_sims_auto: copy rows a band of stated confidence needs */
#define JOINT_SELFCAL_LOSS2 10 /* conf_sim_loss: lost halves from which two copies are pooled */

typedef struct sim {
    joint *s;
    const uint32_t *trig, *rtrig;
    hmap map;               /* key -> index into off */
    uint32_t *off;
    pb_ns *dl;
    gsl_rng *r;
    pb_ns *cs, *cr, *rs, *rr;
    pb_ns *nc, *nr;         /* per pair: the network delays of its call, its return */
    unsigned char *vis;     /* 1: being simulated, 2: done */
    pb_ns *lt;              /* per pair: escapes late by this (0: not) */
    const double *esc;      /* per service: its calls' rate of escapes (orphans / calls) */
    const uint32_t *moff;   /* per service: its orphans' misses in early[], late[] */
    const pb_ns *early, *late;
    uint32_t blkseed;       /* conf_sim_block: the copy's seed */
    size_t escaped;
    joint_simblk *blk;      /* conf_sim_block: block draws (joint_simblock.c), NULL: off */
    const uint32_t *perm;   /* conf_copy_shuffle: q makes perm[q]'s calls (joint_cfshuf.c); NULL: its own */
} sim;
#define KQ(x, q) ((x)->perm ? (x)->perm[q] : (q))

/* the trigger of q's response as the model scores it: the latest return
 * of its calls received by its response and not before its arrival, not of
 * a learned parallel sibling; NONE: the arrival */
static uint32_t resp_trigger(const joint *s, uint32_t q)
{
    const kvec *k = &s->kids[q];
    pb_ns t = s->pr[q].rs, arr = s->pr[q].call == NONE ? INT64_MIN : s->pr[q].cr, bt = 0;
    uint32_t best = NONE;
    for (uint32_t i = 0; i < k->n; i++) {
        uint32_t x = k->a[i];
        const jpair *p = &s->pr[x];
        if (p->ret == NONE || p->rr > t || p->rr < arr ||
            joint_par_skip(s, s->pr[q].link, p->link, s->nlinks))
            continue;
        if (best == NONE || p->rr > bt || (p->rr == bt && x > best)) {
            best = x;
            bt = p->rr;
        }
    }
    return best;
}

static uint64_t skey(const joint *s, uint32_t ein, uint32_t tg, uint32_t outl)
{
    return dkey(ein, tg == NONE ? 0 : 1 + s->pr[tg].link, outl);
}

/* *a (uint32_t) and *b (pb_ns) grown to nc entries; -1 when out of
 * memory (each array still valid, the caller's to free) */
static int grow2(void **a, void **b, size_t nc)
{
    uint32_t *x = realloc(*a, nc * sizeof *x);
    if (x)
        *a = x;
    pb_ns *y = x ? realloc(*b, nc * sizeof *y) : NULL;
    if (y)
        *b = y;
    return x && y ? 0 : -1;
}

/* the solution's delays per key (x->map, x->off, x->dl).  PB_OK or
 * PB_ENOMEM */
static int collect_delays(sim *x)
{
    joint *s = x->s;
    size_t n = 0, cap = 0;
    uint32_t *ki = NULL, *own = NULL;
    pb_ns *dv = NULL, *tv = NULL;
    int rc = PB_OK;
    for (uint32_t q = 0; q < s->npairs && rc == PB_OK; q++) {
        if (s->pr[q].call == NONE)
            continue; /* its arrival is not known */
        const kvec *k = &s->kids[q];
        uint32_t ein = s->pr[q].link;
        for (uint32_t i = 0; i <= k->n && rc == PB_OK; i++) {
            uint32_t c = i < k->n ? k->a[i] : NONE, tg, outl;
            pb_ns t;
            if (c != NONE) {
                if (s->pr[c].call == NONE)
                    continue;
                tg = x->trig[c];
                outl = s->pr[c].link;
                t = s->pr[c].cs;
            } else {
                if (s->pr[q].ret == NONE)
                    continue;
                tg = x->rtrig[q];
                outl = s->nlinks;
                t = s->pr[q].rs;
            }
            pb_ns d = t - (tg == NONE ? s->pr[q].cr : s->pr[tg].rr);
            if (d < 0)
                d = 0;
            uint64_t key = skey(s, ein, tg, outl);
            uint32_t id = joint_hmap_get(&x->map, key);
            if (id == NONE) {
                id = (uint32_t)x->map.n;
                rc = joint_hmap_put(&x->map, key, id);
            }
            if (rc == PB_OK && n == cap) {
                size_t nc = cap ? 2 * cap : 1024;
                /* conf_sim_block: the outputs' times and owners too */
                if (grow2((void **)&ki, (void **)&dv, nc) ||
                    (x->blk && grow2((void **)&own, (void **)&tv, nc)))
                    rc = PB_ENOMEM;
                else
                    cap = nc;
            }
            if (rc == PB_OK) {
                if (x->blk) {
                    tv[n] = t;
                    own[n] = c != NONE ? 2 * c : 2 * q + 1;
                }
                ki[n] = id;
                dv[n++] = d;
            }
        }
    }
    size_t nk = x->map.n;
    x->off = rc == PB_OK ? calloc(nk + 2, sizeof *x->off) : NULL;
    x->dl = rc == PB_OK ? malloc((n + 1) * sizeof *x->dl) : NULL;
    if (rc == PB_OK && (!x->off || !x->dl))
        rc = PB_ENOMEM;
    if (rc == PB_OK) {
        for (size_t i = 0; i < n; i++)
            x->off[ki[i] + 2]++;
        for (size_t j = 2; j < nk + 2; j++)
            x->off[j] += x->off[j - 1];
        /* a stable counting sort: each key's delays in walk order */
        for (size_t i = 0; i < n; i++)
            x->dl[x->off[ki[i] + 1]++] = dv[i];
    }
    if (rc == PB_OK && x->blk) {
        rc = joint_simblk_build(x->blk, s, (uint32_t)nk, n, ki, dv, tv, own,
                                (uint32_t)s->p.conf_sim_block, x->blkseed);
        if (rc != PB_OK)
            x->blk = NULL;
    }
    free(ki);
    free(dv);
    free(tv);
    free(own);
    return rc;
}

/* a delay for (ein, trigger, output) drawn from the solution's; `real`
 * when the key has none; owner: 2 c for call c, 2 q + 1 for q's response
 * (conf_sim_block: a key correlated in time is drawn in blocks) */
static pb_ns draw(sim *x, uint32_t ein, uint32_t tg, uint32_t outl, pb_ns real, uint32_t owner)
{
    uint32_t i = joint_hmap_get(&x->map, skey(x->s, ein, tg, outl));
    if (i == NONE || x->off[i + 1] == x->off[i])
        return real < 0 ? 0 : real;
    pb_ns bd;
    if (x->blk && joint_simblk_draw(x->blk, owner, i, &bd))
        return bd;
    unsigned long n = x->off[i + 1] - x->off[i];
    return x->dl[x->off[i] + gsl_rng_uniform_int(x->r, n)];
}

/* one request being simulated: its next call to make, the latest return
 * so far, whether its call `i` is being simulated below it */
typedef struct sframe {
    uint32_t q, i;
    pb_ns last;
    int below;
} sframe;

/* start request q arriving at arr on its service's clock (pushed on st) */
static void sim_enter(sim *x, sframe *st, uint32_t *top, uint32_t q, pb_ns arr)
{
    const kvec *k = &x->s->kids[KQ(x, q)];
    x->vis[q] = 1;
    x->cr[q] = arr;
    for (uint32_t i = 0; i < k->n; i++)
        x->lt[k->a[i]] = 0;
    st[(*top)++] = (sframe){q, 0, arr, 0};
}

/* request root arriving at arr: its calls, their requests, their returns
 * and its response, depth first with an explicit stack st (room for
 * every pair) */
static void sim_tree(sim *x, sframe *st, uint32_t root, pb_ns arr)
{
    joint *s = x->s;
    uint32_t top = 0;
    sim_enter(x, st, &top, root, arr);
    while (top) {
        sframe *f = &st[top - 1];
        uint32_t q = f->q, kq = KQ(x, q); /* kq: whose calls q makes */
        const kvec *k = &s->kids[kq];
        uint32_t ein = s->pr[q].link;
        pb_ns a = x->cr[q];
        if (f->below) { /* call i's request is done: its return */
            uint32_t c = k->a[f->i];
            x->rr[c] = x->rs[c] + x->nr[c];
            if (x->rr[c] > f->last && !x->lt[c] && joint_sim_waits(s, kq, c))
                f->last = x->rr[c]; /* conf_sim_async: joint_calibasync.c */
            f->below = 0;
            f->i++;
            continue;
        }
        if (f->i < k->n) {
            uint32_t c = k->a[f->i];
            if (x->vis[c]) { /* a cycle: cut later by the output */
                f->i++;
                continue;
            }
            /* escapes: a call that, as the service's orphans did, leaves
             * its request's interval (by one of their misses); lt: late */
            uint32_t svc = s->pr[q].callee, nm = x->moff[svc + 1] - x->moff[svc];
            pb_ns early = 0;
            if (nm && gsl_rng_uniform(x->r) < x->esc[svc]) {
                uint32_t j = x->moff[svc] + (uint32_t)gsl_rng_uniform_int(x->r, nm);
                early = x->early[j];
                x->lt[c] = x->late[j];
                x->escaped++;
            }
            uint32_t tg = x->trig[c];
            if (tg != NONE && x->vis[tg] != 2)
                tg = NONE;
            pb_ns base = tg == NONE ? a : x->rr[tg];
            pb_ns real = s->pr[c].cs - (tg == NONE ? s->pr[kq].cr : s->pr[tg].rr);
            pb_ns t = base + draw(x, ein, tg, s->pr[c].link, real, 2 * c);
            x->cs[c] = t < a ? a : t;
            if (early > 0)
                x->cs[c] = a - early;
            f->below = 1;
            sim_enter(x, st, &top, c, x->cs[c] + x->nc[c]);
            continue;
        }
        /* every call made: the response */
        x->vis[q] = 2;
        uint32_t tg = x->rtrig[kq];
        if (tg != NONE && x->vis[tg] != 2)
            tg = NONE;
        pb_ns base = tg == NONE ? a : x->rr[tg];
        pb_ns real = s->pr[kq].rs - (tg == NONE ? s->pr[kq].cr : s->pr[tg].rr);
        pb_ns t = base + draw(x, ein, tg, s->nlinks, real, 2 * q + 1);
        x->rs[q] = t < f->last ? f->last : t;
        for (uint32_t i = 0; i < k->n; i++) {
            uint32_t c = k->a[i];
            if (x->lt[c] > 0 && x->rr[c] < x->rs[q] + x->lt[c])
                x->rr[c] = x->rs[q] + x->lt[c];
        }
        top--;
    }
}

static pb_ns cut(pb_ns t, pb_ns tick)
{
    if (tick <= 1)
        return t;
    pb_ns r = t % tick;
    return t - (r < 0 ? r + tick : r);
}

/* the roots whose trees are simulated: all of them when their trees hold
 * at most the budget (conf_sim_share of the pairs, at least floor_pairs:
 * conf_sim_pairs, or conf_copy_pairs for the calibration's own copy; at
 * most JOINT_SELFCAL_PAIRS), else the roots of a window of the trace's
 * time around its middle root that holds at most that many (the load
 * kept, the cost bounded).  NULL with *rc = PB_ENOMEM when out of
 * memory */
static unsigned char *pick_roots(const joint *s, int floor_pairs, int *rc)
{
    size_t budget = JOINT_SELFCAL_PAIRS;
    uint32_t n = s->npairs, nr = 0;
    unsigned char *pick = calloc((size_t)n + 1, 1);
    uint32_t *size = calloc((size_t)n + 1, sizeof *size);
    insort *r = malloc(((size_t)n + 1) * sizeof *r);
    if (!pick || !size || !r) {
        free(pick);
        free(size);
        free(r);
        *rc = PB_ENOMEM;
        return NULL;
    }
    for (uint32_t q = 0; q < n; q++) {
        uint32_t j = q, st = 0;
        while (s->par[j] != NONE && st++ < n)
            j = s->par[j];
        if (s->par[j] == NONE)
            size[j]++;
    }
    size_t total = 0;
    for (uint32_t q = 0; q < n; q++)
        if (s->par[q] == NONE) {
            r[nr++] = (insort){s->pr[q].cr, q};
            total += size[q];
        }
    /* a share of the trace's pairs (conf_sim_share), at least
     * conf_sim_pairs, at most JOINT_SELFCAL_PAIRS */
    double want = s->p.conf_sim_share * (double)total;
    if (want < (double)floor_pairs)
        want = (double)floor_pairs;
    if (want < (double)budget)
        budget = (size_t)want;
    budget = joint_scopy_budget((joint *)s, budget, total, floor_pairs); /* conf_copy_share, _stage (joint_scopy.c) */
    if (total <= budget) {
        for (uint32_t i = 0; i < nr; i++)
            pick[r[i].p] = 1;
    } else {
        pb_sort(r, nr, sizeof *r, joint_cmp_insort);
        uint32_t a = nr / 2, z = nr / 2; /* the window r[a..z) */
        size_t got = 0;
        for (int grow = 1; grow;) {
            grow = 0;
            if (z < nr && got + size[r[z].p] <= budget) {
                got += size[r[z++].p];
                grow = 1;
            }
            if (a > 0 && got + size[r[a - 1].p] <= budget) {
                got += size[r[--a].p];
                grow = 1;
            }
        }
        for (uint32_t i = a; i < z; i++)
            pick[r[i].p] = 1;
    }
    free(size);
    free(r);
    return pick;
}

/* the simulated trace into *out (owned by the caller).  PB_OK or
 * PB_ENOMEM */
/* The candidate test (a call inside its request's interval on its
 * service's clock) is what a share of 1 rests on.  A service's orphans
 * (calls of a service that serves requests, no request of it containing
 * them) show that its calls can leave their request's interval.  Per
 * service: esc[a] = orphans / calls (the rate at which its calls escape
 * in the simulation), and for each orphan how far it lies outside the
 * request of its service that comes nearest to containing it (among the
 * JOINT_SELFCAL_NEAR latest to arrive by its call and as many after):
 * early (its call sent before the request arrived) and late (its return
 * received after the request answered), into early[], late[] from
 * moff[a] to moff[a + 1].  PB_OK or PB_ENOMEM */
static int orphan_misses(const joint *s, double *esc, uint32_t **moff, pb_ns **early,
                         pb_ns **late)
{
    uint32_t n = s->npairs, nn = s->nnodes;
    unsigned char *serves = calloc((size_t)nn + 1, 1);
    double *calls = calloc((size_t)nn + 1, sizeof *calls);
    uint32_t *off = calloc((size_t)nn + 2, sizeof *off), *roff = calloc((size_t)nn + 2, sizeof *roff);
    insort *rq = malloc(((size_t)n + 1) * sizeof *rq);
    *moff = off;
    *early = malloc(((size_t)n + 1) * sizeof **early);
    *late = malloc(((size_t)n + 1) * sizeof **late);
    int rc = serves && calls && off && roff && rq && *early && *late ? PB_OK : PB_ENOMEM;
    for (uint32_t a = 0; rc == PB_OK && a <= nn; a++)
        esc[a] = 0;
    for (uint32_t l = 0; rc == PB_OK && l < s->nlinks; l++)
        serves[s->link_dst[l]] = 1;
    /* orphans per service first (divided by its calls below) */
    size_t any = 0;
    for (uint32_t p = 0; rc == PB_OK && p < n; p++) {
        uint32_t a = s->pr[p].caller;
        if (serves[a])
            calls[a]++;
        if (!serves[a] || s->par[p] != NONE)
            continue;
        esc[a]++;
        any++;
    }
    /* the requests of each service with orphans by arrival: rq[roff[a] ..
     * roff[a + 1]) */
    for (uint32_t q = 0; rc == PB_OK && any && q < n; q++)
        roff[s->pr[q].callee + 2] += esc[s->pr[q].callee] > 0;
    for (uint32_t a = 0; rc == PB_OK && a <= nn; a++)
        roff[a + 1] += roff[a];
    for (uint32_t q = 0; rc == PB_OK && any && q < n; q++)
        if (esc[s->pr[q].callee] > 0)
            rq[roff[s->pr[q].callee + 1]++] = (insort){s->pr[q].cr, q};
    for (uint32_t a = 0; rc == PB_OK && a < nn; a++)
        if (roff[a + 1] - roff[a] > 1)
            pb_sort(rq + roff[a], roff[a + 1] - roff[a], sizeof *rq, joint_cmp_insort);
    uint32_t m = 0;
    /* the orphans by service (pair order within one): ob[ooff[a] ..
     * ooff[a + 1]) */
    uint32_t *ooff = calloc((size_t)nn + 2, sizeof *ooff);
    uint32_t *ob = malloc((any + 1) * sizeof *ob);
    if (rc == PB_OK && (!ooff || !ob))
        rc = PB_ENOMEM;
    for (uint32_t p = 0; rc == PB_OK && p < n; p++)
        if (serves[s->pr[p].caller] && s->par[p] == NONE)
            ooff[s->pr[p].caller + 2]++;
    for (uint32_t a = 0; rc == PB_OK && a <= nn; a++)
        ooff[a + 1] += ooff[a];
    for (uint32_t p = 0; rc == PB_OK && p < n; p++)
        if (serves[s->pr[p].caller] && s->par[p] == NONE)
            ob[ooff[s->pr[p].caller + 1]++] = p;
    for (uint32_t a = 0; rc == PB_OK && a < nn; a++) {
        off[a] = m;
        for (uint32_t o = ooff[a]; o < ooff[a + 1]; o++) {
            uint32_t p = ob[o];
            /* the requests of a around p's call */
            uint32_t lo = roff[a], hi = roff[a + 1], b = lo, e = hi;
            while (e > b) {
                uint32_t mid = b + (e - b) / 2;
                if (rq[mid].t <= s->pr[p].cs)
                    b = mid + 1;
                else
                    e = mid;
            }
            uint32_t from = b - lo > JOINT_SELFCAL_NEAR ? b - JOINT_SELFCAL_NEAR : lo;
            uint32_t to = hi - b > JOINT_SELFCAL_NEAR ? b + JOINT_SELFCAL_NEAR : hi;
            pb_ns be = 0, bl = 0;
            int found = 0;
            for (uint32_t j = from; j < to; j++) {
                const jpair *q = &s->pr[rq[j].p];
                if (q->call == NONE || q->ret == NONE || rq[j].p == p)
                    continue;
                pb_ns ea = q->cr > s->pr[p].cs ? q->cr - s->pr[p].cs : 0;
                pb_ns la = s->pr[p].ret != NONE && s->pr[p].rr > q->rs ? s->pr[p].rr - q->rs : 0;
                if (!found || ea + la < be + bl) {
                    be = ea;
                    bl = la;
                    found = 1;
                }
            }
            if (found && be + bl > 0) {
                (*early)[m] = be;
                (*late)[m++] = bl;
            }
        }
        esc[a] = calls[a] > 0 ? esc[a] / calls[a] : 0;
    }
    off[nn] = m;
    free(ooff);
    free(ob);
    free(serves);
    free(calls);
    free(roff);
    free(rq);
    return rc;
}

/* the set-up of a copy of x->s's solution (x->s and x->blk set): the
 * triggers (trig, trig2, rtrig; tmp: room for a request's calls), the
 * stamps x->cs .. x->rr (the solution's) and x->nc, x->nr in tb (7 (n + 1)
 * entries), the delays per key (collect_delays).  No draw.  PB_OK or
 * PB_ENOMEM */
static int sim_prepare(sim *x, uint32_t *trig, uint32_t *trig2, uint32_t *rtrig, uint32_t *tmp,
                       pb_ns *tb)
{
    joint *s = x->s;
    uint32_t n = s->npairs;
    joint_conf_triggers(s, trig, trig2, tmp);
    for (uint32_t q = 0; q < n; q++)
        rtrig[q] = resp_trigger(s, q);
    x->trig = trig;
    x->rtrig = rtrig;
    x->cs = tb;
    x->cr = tb + n + 1;
    x->rs = tb + 2 * ((size_t)n + 1);
    x->rr = tb + 3 * ((size_t)n + 1);
    x->nc = tb + 4 * ((size_t)n + 1);
    x->nr = tb + 5 * ((size_t)n + 1);
    for (uint32_t p = 0; p < n; p++) {
        x->cs[p] = s->pr[p].cs;
        x->cr[p] = s->pr[p].cr;
        x->rs[p] = s->pr[p].rs;
        x->rr[p] = s->pr[p].rr;
    }
    return collect_delays(x);
}

/* pb_trace_add for the copy, its nodes named by the real trace's node
 * indexes: each name interned once, on first use (nmap: real node -> the
 * copy's, NONE until then), so the copy's nodes are numbered in the order
 * pb_trace_add would number them and the trace is the same byte for
 * byte.  PB_OK or PB_ENOMEM */
static int sim_add(pb_trace *t, const joint *s, uint32_t *nmap, uint64_t id, pb_ns ts,
                   pb_ns recv_ts, uint32_t src, uint32_t dst, pb_msg_type type, uint64_t callid)
{
    uint32_t nd[2] = {src, dst};
    for (int i = 0; i < 2; i++)
        if (nmap[nd[i]] == NONE) {
            const char *nm = pb_strtab_str(s->v.nodes, nd[i]);
            if (pb_strtab_intern(t->names->nodes, nm, strlen(nm), &nmap[nd[i]]) != PB_OK)
                return PB_ENOMEM;
        }
    pb_msg m;
    memset(&m, 0, sizeof m);
    m.id = id;
    m.ts = ts;
    m.recv_ts = recv_ts;
    m.callid = callid;
    m.type = (uint8_t)type;
    m.src = nmap[src];
    m.dst = nmap[dst];
    pb_truth tr = {PB_ID_NONE, PB_ID_NONE};
    return pb_trace_append(t, &m, &tr);
}

static int simulate(joint *s, uint32_t seed, const double *esc, const uint32_t *moff,
                    const pb_ns *early, const pb_ns *late, int floor_pairs, const double *drop,
                    const unsigned char *rest, int block, uint32_t *cpar, pb_trace **out)
{
    joint_simblk blk;
    memset(&blk, 0, sizeof blk);
    *out = NULL;
    uint32_t n = s->npairs, maxk = 1;
    for (uint32_t q = 0; q < n; q++)
        if (s->kids[q].n + 1 > maxk)
            maxk = s->kids[q].n + 1;
    sim x;
    memset(&x, 0, sizeof x);
    x.s = s;
    uint32_t *trig = malloc(((size_t)n + 1) * sizeof *trig);
    uint32_t *trig2 = malloc(((size_t)n + 1) * sizeof *trig2);
    uint32_t *rtrig = malloc(((size_t)n + 1) * sizeof *rtrig);
    uint32_t *tmp = malloc((size_t)maxk * sizeof *tmp);
    pb_ns *tb = malloc(7 * ((size_t)n + 1) * sizeof *tb);
    x.vis = calloc((size_t)n + 1, 1);
    x.lt = calloc((size_t)n + 1, sizeof *x.lt);
    x.r = gsl_rng_alloc(gsl_rng_mt19937);
    x.esc = esc;
    x.moff = moff;
    x.early = early;
    x.late = late;
    /* conf_sim_block: only the calibration's own copy (block), so the
     * copies that decide rules are the ones before */
    x.blk = block && s->p.conf_sim_block > 0 ? &blk : NULL;
    x.blkseed = seed;
    int rc = trig && trig2 && rtrig && tmp && tb && x.vis && x.lt && x.r ? PB_OK : PB_ENOMEM;
    pb_trace *t = NULL;
    if (rc == PB_OK) {
        gsl_rng_set(x.r, seed);
        rc = sim_prepare(&x, trig, trig2, rtrig, tmp, tb);
    }
    /* conf_sim_loss (joint_calibloss.c): the lost halves made again, and
     * the halves the copy loses, from a generator of their own */
    pb_ns *arr = tb ? tb + 6 * ((size_t)n + 1) : NULL;
    gsl_rng *lr = rc == PB_OK && drop ? gsl_rng_alloc(gsl_rng_mt19937) : NULL;
    if (rc == PB_OK && drop && !lr)
        rc = PB_ENOMEM;
    if (lr)
        gsl_rng_set(lr, seed ^ 0x5bd1e995u);
    if (rc == PB_OK)
        rc = joint_sim_restore(s, lr, drop ? rest : NULL, x.nc, x.nr, arr);
    unsigned char *pick = rc == PB_OK ? pick_roots(s, floor_pairs, &rc) : NULL;
    if (rc == PB_OK) /* conf_copy_margin (joint_scedge.c) */
        rc = joint_sce_mark(s, pick);
    sframe *st = rc == PB_OK ? malloc(((size_t)n + 1) * sizeof *st) : NULL;
    if (rc == PB_OK && !st)
        rc = PB_ENOMEM;
    /* conf_copy_shuffle (joint_cfshuf.c): cpar, the copy's truth */
    uint32_t *perm = rc == PB_OK && cpar ? malloc(((size_t)n + 1) * sizeof *perm) : NULL;
    if (rc == PB_OK && cpar)
        rc = perm ? joint_cf_shuffle(s, seed, perm, cpar) : PB_ENOMEM;
    x.perm = perm;
    for (uint32_t q = 0; rc == PB_OK && q < n; q++)
        if (pick[q] && !x.vis[q])
            sim_tree(&x, st, q, arr[q]);
    free(perm);
    free(st);
    free(pick);
    if (rc == PB_OK)
        rc = pb_trace_new(&t);
    const pb_msg *m = s->v.msgs;
    uint32_t *nmap = rc == PB_OK ? malloc(((size_t)s->nnodes + 1) * sizeof *nmap) : NULL;
    if (rc == PB_OK && !nmap)
        rc = PB_ENOMEM;
    for (uint32_t a = 0; rc == PB_OK && a <= s->nnodes; a++)
        nmap[a] = NONE;
    for (uint32_t p = 0; rc == PB_OK && p < n; p++) {
        if (x.vis[p] != 2)
            continue; /* outside the window (or in a cycle) */
        const jpair *a = &s->pr[p];
        uint32_t src = a->caller, dst = a->callee;
        int dc = lr ? joint_sim_drop(s, lr, drop, rest, p, 0) : 0;
        int dr = lr ? joint_sim_drop(s, lr, drop, rest, p, 1) : 0;
        s->sloss_dropped += (size_t)(dc + dr);
        /* a lost half made again (conf_sim_loss) is stamped as its other half */
        int rs_ = drop && (rest[p] & 3);
        uint32_t mc = a->call != NONE ? a->call : a->ret, mr = a->ret != NONE ? a->ret : a->call;
        if ((a->call != NONE || rs_) && !dc)
            rc = sim_add(t, s, nmap, 2 * (uint64_t)p + 1, cut(x.cs[p], s->tick),
                         m[mc].recv_ts == PB_TS_NONE ? PB_TS_NONE : cut(x.cr[p], s->tick), src,
                         dst, PB_TYPE_CALL,
                         m[mc].callid == PB_ID_NONE ? PB_ID_NONE : (uint64_t)p + 1);
        if (rc == PB_OK && (a->ret != NONE || rs_) && !dr)
            rc = sim_add(t, s, nmap, 2 * (uint64_t)p + 2, cut(x.rs[p], s->tick),
                         m[mr].recv_ts == PB_TS_NONE ? PB_TS_NONE : cut(x.rr[p], s->tick), dst,
                         src, PB_TYPE_RETURN,
                         m[mr].callid == PB_ID_NONE ? PB_ID_NONE : (uint64_t)p + 1);
    }
    free(nmap);
    if (rc == PB_OK)
        rc = pb_trace_sort(t);
    if (rc == PB_OK) {
        t->columns = s->v.columns & ~(unsigned)PB_COL_TRUTH;
        *out = t;
    } else {
        pb_trace_close(t);
    }
    if (lr)
        gsl_rng_free(lr);
    free(trig);
    free(trig2);
    free(rtrig);
    free(tmp);
    free(tb);
    free(x.vis);
    free(x.lt);
    s->scal_escaped = x.escaped;
    if (x.blk) {
        s->sblk_keys[0] = blk.keys_tested;
        s->sblk_keys[1] = blk.keys_on;
        s->sblk_keys[2] += blk.draws;
        joint_simblk_free(&blk);
    }
    free(x.off);
    free(x.dl);
    free(x.map.k);
    free(x.map.v);
    if (x.r)
        gsl_rng_free(x.r);
    return rc;
}

/* do service a's calls leave their request's interval?  Its orphans in
 * the solution (esc), or (conf_late_construct) the late-call test passed
 * for it: late_attach may have placed every orphan, leaving none, while
 * a call a neighbour's request encloses may still be one that outlived
 * its own (joint_calibconstr.c) */
static int escapes_of(const joint *s, uint32_t a, const double *esc)
{
    return esc[a] > 0 || joint_late_construct(s, a);
}

/* is pair p's share of 1 right by construction in a simulation?  (its
 * pair and its parent's were made by call id, and nothing was doubted:
 * then the simulated parent is the only candidate, and so the truth) */
static int by_construction(const joint *s, uint32_t p, double share, int escapes,
                           const unsigned char *rest)
{
    if (share < 1 || s->free_ret[p] || escapes)
        return 0;
    /* conf_sim_loss: a half pair away from the trace's ends on a link
     * without call ids is the pairing's guess of where the loss was
     * (joint_calibloss.c), not a construction */
    if (rest && (rest[p] & 5))
        return 0;
    /* conf_anchor: a root that lost its call is right for the scorer only
     * where its request's first surviving message is in its tree, which
     * the search decided (joint_anchor.c) */
    if (s->p.conf_anchor && s->par[p] == NONE && s->pr[p].call == NONE &&
        s->v.msgs[s->pr[p].ret].callid != PB_ID_NONE)
        return 0;
    /* a share of exactly 1 with several candidates is a rounding (every
     * alternative 37 nats or more worse), not a construction */
    if (s->par[p] != NONE && s->cand_off[p + 1] - s->cand_off[p] > 1)
        return 0;
    return s->par[p] == NONE || !s->free_ret[s->par[p]];
}

/* conf_sib_learn on one copy s2 (stated confidences cf2, right rows
 * ok2, rows right by construction ex2, each row's link lk2): the copy's
 * request trees dealt into two halves (every other root, in pair order),
 * the self-calibration's maps fitted to each half (ratio 1) and applied
 * to the rows of the other (held out: a map fitted to the rows it is
 * judged on favours them), then joint_sibstr_copy compares the copy's
 * coverage with and without the cap and checks its calibration without
 * it.  PB_OK or PB_ENOMEM */
static int copy_cap_test(joint *s, joint *s2, const double *cf2, const unsigned char *ok2,
                         const unsigned char *ex2, const uint32_t *lk2)
{
    uint32_t n2 = s2->npairs, nl = s->nlinks;
    joint_spt *q = malloc(((size_t)n2 + 1) * sizeof *q);
    double *lo = malloc(2 * ((size_t)n2 + 1) * sizeof *lo);
    double *val = malloc(2 * ((size_t)n2 + 1) * sizeof *val);
    double *w = malloc(((size_t)n2 + 1) * sizeof *w), *kk = malloc(((size_t)n2 + 1) * sizeof *kk);
    uint32_t *cls_off = malloc(2 * ((size_t)nl + 2) * sizeof *cls_off);
    double *m2 = malloc(((size_t)n2 + 1) * sizeof *m2);
    uint32_t *ord = malloc(((size_t)n2 + 1) * sizeof *ord);
    unsigned char *half = malloc((size_t)n2 + 1);
    int rc = q && lo && val && w && kk && cls_off && m2 && ord && half ? PB_OK : PB_ENOMEM;
    uint32_t roots = 0;
    for (uint32_t p = 0; rc == PB_OK && p < n2; p++)
        ord[p] = s2->par[p] == NONE ? roots++ : NONE;
    for (uint32_t p = 0; rc == PB_OK && p < n2; p++) {
        uint32_t j = p, steps = 0;
        while (s2->par[j] != NONE && steps++ < n2)
            j = s2->par[j];
        half[p] = ord[j] == NONE ? 0 : (unsigned char)(ord[j] & 1);
        m2[p] = cf2[p];
    }
    for (int h = 0; rc == PB_OK && h < 2; h++) {
        uint32_t nq = 0;
        for (uint32_t p = 0; p < n2; p++)
            if (!ex2[p] && half[p] == h)
                q[nq++] = (joint_spt){cf2[p], lk2[p], ok2[p]};
        if (!nq)
            continue;
        joint_fit_maps(q, nq, nl, lo, val, w, kk, cls_off, &rc);
        for (uint32_t p = 0; rc == PB_OK && p < n2; p++) {
            if (ex2[p] || half[p] == h)
                continue;
            uint32_t l = lk2[p], a = cls_off[2 * l], z = cls_off[2 * l + 1];
            if (z == a) {
                a = cls_off[2 * nl];
                z = cls_off[2 * nl + 1];
            }
            double v = joint_map_at(lo + a, val + a, z - a, cf2[p]);
            if (s->p.conf_order)
                v = joint_conf_order(v, cf2[p]);
            if (v < m2[p])
                m2[p] = v;
        }
    }
    if (rc == PB_OK)
        rc = joint_sibstr_copy(s, s2, cf2, m2, ok2, ex2);
    free(q);
    free(lo);
    free(val);
    free(w);
    free(kk);
    free(cls_off);
    free(m2);
    free(ord);
    free(half);
    return rc;
}

/* conf_sims_auto: the band of stated confidence c ([0.5, 0.8), [0.8,
 * 0.9), [0.9, 0.95), [0.95, 0.99): 0..3), -1 outside them */
static int band_of(double c)
{
    return c < 0.5 || c >= 0.99 ? -1 : c < 0.8 ? 0 : c < 0.9 ? 1 : c < 0.95 ? 2 : 3;
}

/* conf_sims_auto (docs/joint/confidence.md, "Calibration, twenty-second
 * wave"): can the copy's rows pts[0..np) test the levels the real rows
 * are stated at?  A real row not right by construction (exr) stated in a
 * doubted band (band_of) takes the map of its link where the link has
 * JOINT_SELFCAL_MIN copy rows, else the map of all links; where that
 * class holds fewer than JOINT_SELFCAL_THIN copy rows in the row's band
 * the map's value there is pooled from other levels (pool-adjacent-
 * violators joins a handful of rows to the block above), so the copy's
 * draw, not the trace, decides the row's confidence: the row is thin.
 * s->scal_thin: real rows judged, thin rows.  PB_OK or PB_ENOMEM */
static int sims_thin(joint *s, const joint_spt *pts, uint32_t np, const double *conf,
                     const unsigned char *exr)
{
    uint32_t n = s->npairs, nl = s->nlinks;
    uint32_t *cnt = calloc(4 * ((size_t)nl + 1), sizeof *cnt);
    uint32_t *lrows = calloc((size_t)nl + 1, sizeof *lrows);
    if (!cnt || !lrows) {
        free(cnt);
        free(lrows);
        return PB_ENOMEM;
    }
    for (uint32_t i = 0; i < np; i++) {
        int b = band_of(pts[i].c);
        lrows[pts[i].cls]++;
        if (b >= 0) {
            cnt[4 * (size_t)pts[i].cls + (size_t)b]++;
            cnt[4 * (size_t)nl + (size_t)b]++;
        }
    }
    double rows = 0, thin = 0;
    for (uint32_t p = 0; p < n; p++) {
        if (exr[p])
            continue;
        rows++;
        int b = band_of(conf[p]);
        if (b < 0)
            continue;
        uint32_t l = s->pr[p].link;
        if (lrows[l] < JOINT_SELFCAL_MIN)
            l = nl;
        thin += cnt[4 * (size_t)l + (size_t)b] < JOINT_SELFCAL_THIN;
    }
    s->scal_thin[0] = rows;
    s->scal_thin[1] = thin;
    free(cnt);
    free(lrows);
    return PB_OK;
}

/* one simulation (seed): its rows' stated confidences and whether each
 * is right appended to *pts (*np of *cap), its statistics added to
 * s->scal_stat.  PB_OK or PB_ENOMEM */
static int sim_points(joint *s, uint32_t seed, const double *esc, const uint32_t *moff,
                      const pb_ns *early, const pb_ns *late, const double *drop,
                      const unsigned char *rest, int (*shares)(joint *, double *), joint_spt **pts,
                      uint32_t *np, size_t *cap, int block)
{
    pb_trace *t = NULL;
    /* conf_copy_pairs: the calibration's own copy may be smaller than the
     * other copies (whose window the busy test's verdict rests on) */
    int floor_pairs = s->p.conf_copy_pairs > 0 ? s->p.conf_copy_pairs : s->p.conf_sim_pairs;
    /* conf_sim_whole: a small trace is copied whole (docs/joint/confidence.md,
     * "The copy as large as a small trace") */
    if (s->p.conf_sim_whole > 0 && s->npairs <= (uint32_t)s->p.conf_sim_whole &&
        floor_pairs < (int)s->npairs) {
        floor_pairs = (int)s->npairs;
        s->scal_whole = 1;
    }
    /* conf_copy_shuffle: only the copy of the confidences the result
     * carries (joint_cfshuf.c); cpar its truth */
    uint32_t *cpar = s->p.conf_copy_shuffle && s->p.cft_final
                         ? malloc(((size_t)s->npairs + 1) * sizeof *cpar)
                         : NULL;
    int rc = s->p.conf_copy_shuffle && s->p.cft_final && !cpar ? PB_ENOMEM : PB_OK;
    if (rc == PB_OK)
        rc = simulate(s, seed, esc, moff, early, late, floor_pairs, drop, rest, block, cpar, &t);
    const uint32_t *tpar = cpar ? cpar : s->par; /* the copy's truth parents */
    joint *s2 = NULL;
    double *sh2 = NULL;
    pb_msg *spc = NULL; /* conf_copy_tick: the copy's spread rows (joint_cftick.c) */
    if (rc == PB_OK) {
        joint_params p2;
        joint_copy_params(s, &p2);
        joint_simfast_params(s, &p2); /* conf_copy_repair .. (joint_simfast.c) */
        joint_scw_params(s, &p2); /* conf_copy_warm (joint_scwarm.c) */
        pb_error err;
        rc = joint_cf_copy_init(s, t, &p2, &s2, &spc, &err); /* conf_copy_tick (joint_cftick.c) */
        if (rc != PB_OK && rc != PB_ENOMEM)
            rc = PB_ENOMEM; /* cannot fail on a trace it made; say so as memory */
        if (rc == PB_OK)
            s->sfast_restart = s2->restart; /* conf_copy_start (joint_simfast.c) */
        if (rc == PB_OK)
            joint_scw_count(s, s2); /* conf_copy_warm (joint_scwarm.c) */
        joint_unpc_count(s, rc == PB_OK && rest ? s2 : NULL); /* unp_copy (joint_unpcopy.c) */
    }
    if (rc == PB_OK) {
        sh2 = malloc(((size_t)s2->npairs + 1) * sizeof *sh2);
        rc = sh2 ? PB_OK : PB_ENOMEM;
    }
    if (rc == PB_OK && *np + (size_t)s2->npairs + 1 > *cap) {
        size_t nc = *np + (size_t)s2->npairs + 1;
        joint_spt *g = realloc(*pts, nc * sizeof *g);
        if (g) {
            *pts = g;
            *cap = nc;
        } else {
            rc = PB_ENOMEM;
        }
    }
    if (rc == PB_OK) {
        s->scal_sel_real += s2->select_real;
        rc = shares(s2, sh2);
    }
    /* rows: each pair's confidence (the product) and whether it and every
     * pair above it is right, and exempt */
    uint32_t n2 = s2 ? s2->npairs : 0;
    double *cf2 = NULL;
    unsigned char *ok2 = NULL, *ex2 = NULL, *rest2 = NULL;
    /* conf_sim_loss: the copy's half pairs away from its ends are its
     * pairing's guesses too (joint_calibloss.c) */
    if (rc == PB_OK && rest) {
        double *rt2 = malloc(((size_t)s2->nlinks + 1) * sizeof *rt2);
        rest2 = malloc((size_t)n2 + 1);
        if (!rt2 || !rest2 || joint_sim_loss_rates(s2, rt2, rest2) < 0)
            rc = PB_ENOMEM;
        free(rt2);
        /* the copy's own loss, by the same estimator (metadata) */
        s->sloss_copy[0] += s2->sloss_known_id;
        s->sloss_copy[1] += s2->sloss_lc_id;
        s->sloss_copy[2] += s2->sloss_nid;
    }
    if (rc == PB_OK) {
        cf2 = malloc(((size_t)n2 + 1) * sizeof *cf2);
        ok2 = malloc((size_t)n2 + 1);
        ex2 = malloc((size_t)n2 + 1);
        rc = cf2 && ok2 && ex2 ? PB_OK : PB_ENOMEM;
        if (rc == PB_OK)
            rc = joint_conf_product(s2, sh2, cf2);
        for (uint32_t p = 0; rc == PB_OK && p < n2; p++) {
            const jpair *a = &s2->pr[p];
            uint32_t q2 = s2->par[p];
            uint64_t ic = a->call != NONE ? s2->v.msgs[a->call].id : PB_ID_NONE;
            uint64_t ir = a->ret != NONE ? s2->v.msgs[a->ret].id : PB_ID_NONE;
            uint32_t i = (uint32_t)(((ic != PB_ID_NONE ? ic : ir) - 1) / 2);
            ex2[p] = (unsigned char)by_construction(s2, p, sh2[p],
                                                    escapes_of(s, s->pr[i].caller, esc), rest2);
            int ok = ic == PB_ID_NONE || ir == PB_ID_NONE || (ic - 1) / 2 == (ir - 1) / 2;
            if (q2 == NONE) {
                ok = ok && tpar[i] == NONE;
            } else {
                const jpair *b = &s2->pr[q2];
                uint64_t jc = b->call != NONE ? s2->v.msgs[b->call].id : s2->v.msgs[b->ret].id;
                ok = ok && tpar[i] == (uint32_t)((jc - 1) / 2);
            }
            ok2[p] = (unsigned char)ok;
        }
        if (rc == PB_OK)
            rc = joint_and_down(s2, ok2);
        /* conf_sim_loss_ids: a root whose tree holds a doubted row
         * (joint_anchor.c) */
        size_t tt2 = 0;
        if (rc == PB_OK)
            rc = joint_anchor_trees(s2, ex2, &tt2);
        if (rc == PB_OK)
            rc = joint_and_down(s2, ex2);
        /* conf_anchor: and right for the scorer (joint_anchor.c) */
        if (rc == PB_OK && s->p.conf_anchor) {
            uint32_t *ro = malloc(((size_t)n2 + 1) * sizeof *ro);
            for (uint32_t p = 0; ro && p < n2; p++) {
                const jpair *a = &s2->pr[p];
                uint64_t ic = a->call != NONE ? s2->v.msgs[a->call].id : PB_ID_NONE;
                uint64_t ir = a->ret != NONE ? s2->v.msgs[a->ret].id : PB_ID_NONE;
                ro[p] = (uint32_t)(((ic != PB_ID_NONE ? ic : ir) - 1) / 2);
            }
            /* the copy's true requests are cpar's trees (conf_copy_shuffle):
             * joint_anchor_ok reads them from s->par, restored at once */
            uint32_t *spar = s->par;
            s->par = (uint32_t *)tpar;
            rc = ro ? joint_anchor_ok(s, s2, ro, ok2, s->p.conf_sim_loss_ids && s->sloss_pid > 0,
                                      &s->anch_turned)
                    : PB_ENOMEM;
            s->par = spar;
            free(ro);
        }
    }
    /* the simulated rows: stated confidence and right or not, by link */
    uint32_t nl = s->nlinks;
    uint32_t *lk2 = NULL;
    if (rc == PB_OK && s->p.conf_siblings && s->p.conf_sib_learn && !s->p.cfr_plain) {
        lk2 = malloc(((size_t)n2 + 1) * sizeof *lk2);
        if (!lk2)
            rc = PB_ENOMEM;
    }
    /* conf_sim_loss_calls: the rows near a call the trace lost, left out
     * of the fit and of the cap's test as the rows right by construction
     * are (joint_calibloss.c) */
    if (rc == PB_OK && rest && s->p.conf_sim_loss_calls && s->sloss_lc_id > 0) {
        uint32_t *ro = malloc(((size_t)n2 + 1) * sizeof *ro);
        unsigned char *zone = malloc((size_t)n2 + 1);
        for (uint32_t p = 0; ro && p < n2; p++) {
            const jpair *a = &s2->pr[p];
            uint64_t ic = a->call != NONE ? s2->v.msgs[a->call].id : PB_ID_NONE;
            uint64_t ir = a->ret != NONE ? s2->v.msgs[a->ret].id : PB_ID_NONE;
            ro[p] = (uint32_t)(((ic != PB_ID_NONE ? ic : ir) - 1) / 2);
        }
        rc = ro && zone ? joint_sim_orphan_zone(s, s2, ro, rest, zone, &s->sloss_zone)
                        : PB_ENOMEM;
        for (uint32_t p = 0; rc == PB_OK && p < n2; p++)
            ex2[p] |= zone[p];
        free(ro);
        free(zone);
    }
    for (uint32_t p = 0; rc == PB_OK && p < n2; p++) {
        const jpair *a = &s2->pr[p];
        uint64_t ic = a->call != NONE ? s2->v.msgs[a->call].id : PB_ID_NONE;
        uint64_t ir = a->ret != NONE ? s2->v.msgs[a->ret].id : PB_ID_NONE;
        uint32_t i = (uint32_t)(((ic != PB_ID_NONE ? ic : ir) - 1) / 2);
        if (!ex2[p] && joint_sce_skip(s, i)) /* conf_copy_margin: not counted, nor in the */
            ex2[p] = 1;                       /* cap's test (joint_scedge.c) */
        if (ex2[p])
            continue;
        int ok = ok2[p];
        double stated = cf2[p];
        for (int z = 0; z < 2; z++) { /* the call's link, all links */
            double *st = s->scal_stat + JOINT_SCAL_NSTAT * (size_t)(z ? nl : s->pr[i].link);
            st[0]++;
            st[1] += ok;
            st[4] += 1 - stated;
        }
        (*pts)[(*np)++] = (joint_spt){stated, s->pr[i].link, (unsigned char)ok};
        joint_cfr_row(s, s->pr[i].link, stated, tpar[i] == s->par[i]); /* conf_ratio_copy=2 */
        joint_cfa_row(s, s2, p, s->pr[i].link, ok, stated); /* conf_alike (joint_cfalike.c) */
        if (lk2)
            lk2[p] = s->pr[i].link;
    }
    /* conf_sib_learn: does the cap raise the copy's coverage
     * (joint_sibstr.c) */
    if (rc == PB_OK && lk2)
        rc = copy_cap_test(s, s2, cf2, ok2, ex2, lk2);
    free(lk2);
    free(cf2);
    free(ok2);
    free(ex2);
    free(rest2);
    free(sh2);
    joint_sce_free(s); /* conf_copy_margin (joint_scedge.c) */
    joint_close(s2);
    free(spc);
    free(cpar);
    pb_trace_close(t);
    return rc;
}


int joint_lt_only_rows(const joint *s, const double *esc)
{
    /* every link whose trust is read holds a real row that is not right
     * by construction whatever its share (by_construction's own tests: an
     * escape, a return paired freely, a parent among several candidates),
     * so the link takes a map of its own wherever it has one */
    uint32_t nl = s->nlinks;
    unsigned char *k = calloc((size_t)nl + 1, 1);
    if (!k)
        return 0;
    for (uint32_t p = 0; p < s->npairs; p++)
        if (escapes_of(s, s->pr[p].caller, esc) || s->free_ret[p] ||
            (s->par[p] != NONE && s->cand_off[p + 1] - s->cand_off[p] > 1))
            k[s->pr[p].link] |= 1;
    int ok = 1;
    for (uint32_t p = 0; p < s->npairs && ok; p++)
        ok = !joint_lt_judged(s, p) || k[s->pr[p].link];
    free(k);
    return ok;
}

int joint_selfcal(joint *s, const double *share, double *conf,
                  int (*shares)(joint *, double *))
{
    uint32_t n = s->npairs;
    free(s->scal_stat);
    s->scal_stat = calloc(JOINT_SCAL_NSTAT * ((size_t)s->nlinks + 1), sizeof *s->scal_stat);
    if (!s->scal_stat)
        return PB_ENOMEM;
    memset(s->sib_cov, 0, sizeof s->sib_cov);
    memset(s->sib_dreal, 0, sizeof s->sib_dreal);
    memset(s->sib_dsim, 0, sizeof s->sib_dsim);
    memset(s->sib_crows, 0, sizeof s->sib_crows);
    memset(s->sib_cright, 0, sizeof s->sib_cright);
    if (!n)
        return PB_OK;
    if (joint_cfr_begin(s) != PB_OK) /* conf_ratio_copy (joint_cfratio.c) */
        return PB_ENOMEM;
    double *esc = malloc(((size_t)s->nnodes + 1) * sizeof *esc);
    uint32_t *moff = NULL;
    pb_ns *early = NULL, *late = NULL;
    int rc = esc ? orphan_misses(s, esc, &moff, &early, &late) : PB_ENOMEM;
    /* late_trust's trust alone (share NULL; joint_latetrust.c): only where
     * every placement it judges is a row no construction exempts */
    if (rc == PB_OK && !share && !joint_lt_only_rows(s, esc)) {
        joint_cfr_end(s);
        free(esc);
        free(moff);
        free(early);
        free(late);
        return JOINT_LT_FULL;
    }
    joint_spt *pts = NULL;
    uint32_t np = 0, nl = s->nlinks;
    size_t cap = 0;
    joint_cfmin cfm; /* conf_ratio_min (joint_cfmin.c) */
    joint_cfmin_init(&cfm);
    s->p.cfm_lowered = 0;
    /* conf_sim_loss: the loss the solution did not notice (joint_calibloss.c) */
    double *drop = rc == PB_OK ? malloc(((size_t)nl + 1) * sizeof *drop) : NULL;
    unsigned char *rest = rc == PB_OK ? malloc((size_t)n + 1) : NULL;
    s->sloss_dropped = 0;
    s->sloss_copy[0] = s->sloss_copy[1] = s->sloss_copy[2] = 0;
    s->sloss_zone = 0;
    s->anch_turned = s->anch_roots = 0;
    if (rc == PB_OK && (!drop || !rest))
        rc = PB_ENOMEM;
    int lossy = rc == PB_OK ? joint_sim_loss_rates(s, drop, rest) : 0;
    if (lossy < 0)
        rc = PB_ENOMEM;
    /* several simulations pooled (conf_sims), seeds conf_seed, + 1, ...;
     * where the copy loses halves at random places and the trace shows at
     * least JOINT_SELFCAL_LOSS2 lost halves, at least two: one draw of
     * where the losses fall moves the copy's accuracy too much (eBPF at 2 %
     * loss as a black box, 43 halves: rows the fit left at 0.5 or more 142
     * with seed 1, 1,087 with seed 2, 938 pooled; joint_calibloss.c).
     * With a few halves where they fall moves little and a second copy
     * adds only its own noise (eBPF with skewed clocks, 2 halves left
     * unpaired: every row below 0.5 with two copies, 69 % of the messages
     * kept at 0.5 with one, 92 % right) */
    int nsims = s->p.conf_sims;
    if (lossy > 0 && nsims < 2 && s->sloss_known >= JOINT_SELFCAL_LOSS2)
        nsims = 2;
    /* conf_sim_loss_ids: the same with call ids (TrainTicket 10:45 at 2 %
     * loss: the rows wrong at 0.99 are one request's subtree of 17 after
     * one lost call; whether a copy's draw makes such a subtree moves its
     * map at 1 from 0.987 to 0.996 between seeds) */
    if (lossy > 0 && nsims < 2 && s->sloss_known_id >= JOINT_SELFCAL_LOSS2)
        nsims = 2;
    s->sloss_sims = lossy > 0 ? nsims : 0;
    /* conf_sim_block_pool: one copy more, its delays drawn in blocks
     * (joint_simblock.c), pooled with the independent ones */
    int pool = s->p.conf_sim_block > 0 && s->p.conf_sim_block_pool;
    s->sblk_keys[2] = 0;
    s->p.scw_share = share; /* conf_copy_warm_min (joint_scwarm.c) */
    for (int r = 0; rc == PB_OK && r < nsims + pool; r++)
        rc = sim_points(s, (uint32_t)s->p.conf_seed + (uint32_t)r, esc, moff, early, late,
                        lossy > 0 ? drop : NULL, lossy > 0 ? rest : NULL, shares, &pts, &np,
                        &cap, !pool || r == nsims);
    /* conf_ratio_copy=1 (joint_cfratio.c): a copy without the shuffle for
     * the doubt ratio's copy side only (no map, no cap test, its counters
     * out of the metadata) */
    if (rc == PB_OK && joint_cfr_plain_wanted(s)) {
        size_t ns = JOINT_SCAL_NSTAT * ((size_t)nl + 1);
        double *before = malloc(ns * sizeof *before);
        joint_spt *pp = NULL;
        uint32_t npp = 0;
        size_t capp = 0;
        rc = before ? PB_OK : PB_ENOMEM;
        if (rc == PB_OK) {
            memcpy(before, s->scal_stat, ns * sizeof *before);
            int sf = s->sfast_restart, sr = s->scal_sel_real, ct = s->p.cft_copies,
                cs = s->p.cft_spread;
            size_t se = s->scal_escaped, at = s->anch_turned, sz = s->sloss_zone, sk[3];
            double sl[3];
            memcpy(sk, s->sblk_keys, sizeof sk);
            memcpy(sl, s->sloss_copy, sizeof sl);
            s->p.cfr_plain = 1;
            s->p.conf_copy_shuffle = 0;
            /* conf_ratio_share: a smaller window for this copy */
            double ssh = s->p.conf_sim_share;
            int scp = s->p.conf_copy_pairs, ssp = s->p.conf_sim_pairs;
            s->p.conf_sim_share *= s->p.conf_ratio_share;
            s->p.conf_copy_pairs =
                (int)((scp > 0 ? scp : ssp) * s->p.conf_ratio_share + 0.5);
            if (s->p.conf_copy_pairs < 1)
                s->p.conf_copy_pairs = 1;
            rc = sim_points(s, (uint32_t)s->p.conf_seed, esc, moff, early, late,
                            lossy > 0 ? drop : NULL, lossy > 0 ? rest : NULL, shares, &pp, &npp,
                            &capp, !pool);
            s->p.conf_sim_share = ssh;
            s->p.conf_copy_pairs = scp;
            s->p.conf_copy_shuffle = 1;
            s->p.cfr_plain = 0;
            if (rc == PB_OK)
                joint_cfr_take_plain(s, before, JOINT_SCAL_NSTAT);
            if (rc == PB_OK)
                rc = joint_cfmin_fit(s, pp, npp, &cfm); /* conf_ratio_min=1 */
            s->sfast_restart = sf;
            s->scal_sel_real = sr;
            s->p.cft_copies = ct;
            s->p.cft_spread = cs;
            s->scal_escaped = se;
            s->anch_turned = at;
            s->sloss_zone = sz;
            memcpy(s->sblk_keys, sk, sizeof sk);
            memcpy(s->sloss_copy, sl, sizeof sl);
        }
        free(before);
        free(pp);
    }
    s->p.scw_share = NULL;
    /* the real rows exempt where every pair up to the root is */
    unsigned char *exr = rc == PB_OK && share ? malloc((size_t)n + 1) : NULL;
    if (rc == PB_OK && share && !exr)
        rc = PB_ENOMEM;
    for (uint32_t p = 0; rc == PB_OK && share && p < n; p++) {
        exr[p] = (unsigned char)by_construction(s, p, share[p],
                                                escapes_of(s, s->pr[p].caller, esc),
                                                lossy > 0 ? rest : NULL);
        /* conf_anchor: the roots it took out (metadata) */
        s->anch_roots += s->p.conf_anchor && s->par[p] == NONE && s->pr[p].call == NONE &&
                         s->v.msgs[s->pr[p].ret].callid != PB_ID_NONE;
    }
    s->sloss_trees = 0;
    if (rc == PB_OK && share)
        rc = joint_anchor_trees(s, exr, &s->sloss_trees);
    if (rc == PB_OK && share)
        rc = joint_and_down(s, exr);
    /* kept for the siblings cap (joint_calib.c): a row right by
     * construction is not lowered there either */
    if (share) {
        free(s->conf_exempt);
        s->conf_exempt = rc == PB_OK ? malloc((size_t)n + 1) : NULL;
        if (s->conf_exempt)
            memcpy(s->conf_exempt, exr, (size_t)n);
    }
    /* the real trace's doubt against the simulation's, per link and for
     * all links: how much harder the real trace is than its simulation */
    for (uint32_t p = 0; rc == PB_OK && share && p < n; p++) {
        if (exr[p])
            continue;
        for (int z = 0; z < 2; z++) {
            double *st = s->scal_stat + JOINT_SCAL_NSTAT * (size_t)(z ? nl : s->pr[p].link);
            st[5]++;
            st[6] += 1 - conf[p];
        }
    }
    /* conf_sims_auto: one copy more where the first one cannot test the
     * levels the real rows are stated at (sims_thin) */
    s->scal_auto = nsims + pool;
    s->scal_thin[0] = s->scal_thin[1] = 0;
    if (rc == PB_OK && share && s->p.conf_sims_auto && nsims == 1 && !pool) {
        rc = sims_thin(s, pts, np, conf, exr);
        if (rc == PB_OK && s->scal_thin[0] > 0 &&
            s->scal_thin[1] >= s->p.conf_sims_thin * s->scal_thin[0]) {
            rc = sim_points(s, (uint32_t)s->p.conf_seed + 1, esc, moff, early, late,
                            lossy > 0 ? drop : NULL, lossy > 0 ? rest : NULL, shares, &pts, &np,
                            &cap, 1);
            s->scal_auto = 2;
        }
    }
    /* conf_copy_events_second (joint_cfev2.c): the rows as they stand, for
     * a second fit with one copy more */
    double *conf0 = NULL, *first = NULL;
    unsigned char *stk = NULL;
    if (rc == PB_OK && share)
        rc = joint_cfev2_begin(s, conf, n, s->scal_auto, &conf0, &stk);
    int pass = 0;
fit_again:; /* conf_copy_events_second: once more, with the second copy pooled */
    double *lo = NULL, *val = NULL, *w = NULL, *kk = NULL;
    uint32_t *cls_off = NULL;
    if (rc == PB_OK) {
        lo = malloc(2 * ((size_t)np + 1) * sizeof *lo);
        val = malloc(2 * ((size_t)np + 1) * sizeof *val);
        w = malloc(((size_t)np + 1) * sizeof *w);
        kk = malloc(((size_t)np + 1) * sizeof *kk);
        cls_off = malloc(2 * ((size_t)nl + 2) * sizeof *cls_off);
        rc = lo && val && w && kk && cls_off ? PB_OK : PB_ENOMEM;
    }
    if (rc == PB_OK)
        joint_fit_maps(pts, np, nl, lo, val, w, kk, cls_off, &rc);
    if (rc == PB_OK && share && !pass)
        joint_sibstr_real(s, conf, exr);
    for (uint32_t l = 0; rc == PB_OK && l <= nl; l++) {
        double *st = s->scal_stat + JOINT_SCAL_NSTAT * (size_t)l;
        double crows = st[0], cdoubt = st[4];
        joint_cfr_copy_side(s, l, &crows, &cdoubt); /* conf_ratio_copy (joint_cfratio.c) */
        double r = ((st[6] + 1) / (st[5] + 1)) / ((cdoubt + 1) / (crows + 1));
        double r2 = joint_cfmin_ratio(s, r, st); /* conf_ratio_min=2 */
        s->p.cfm_lowered += r2 > r && r2 > 1;
        r = r2;
        st[7] = r > 1 ? r : 1;
        if (l == nl && s->p.cfr_stat)
            s->p.cfr_ratio = st[7];
    }
    /* conf_thin_own: a thin link's own map too (joint_cfthin.c) */
    joint_cfthin thin;
    memset(&thin, 0, sizeof thin);
    s->p.cfn_lowered = 0;
    if (rc == PB_OK)
        rc = joint_cfthin_fit(s, pts, np, nl, cls_off, &thin);
    joint_cfse cse; /* conf_copy_se (joint_cfse.c) */
    memset(&cse, 0, sizeof cse);
    if (rc == PB_OK && !pass)
        rc = joint_cfev2_save(s); /* conf_copy_events_second (joint_cfev2.c) */
    if (rc == PB_OK)
        rc = joint_cfse_fit(s, pts, np, nl, &cse);
    /* late_trust's trust alone: a map of its own wherever the link has one
     * (the rows it judges are not exempt: joint_lt_only_rows) */
    for (uint32_t l = 0; rc == PB_OK && !share && np && l < nl; l++)
        if (cls_off[2 * l + 1] != cls_off[2 * l])
            s->scal_stat[JOINT_SCAL_NSTAT * (size_t)l + 3] = 1;
    for (uint32_t p = 0; rc == PB_OK && share && np && p < n; p++) {
        if (exr[p])
            continue;
        uint32_t l = s->pr[p].link, a = cls_off[2 * l], z = cls_off[2 * l + 1];
        double *st = s->scal_stat + JOINT_SCAL_NSTAT * (size_t)l, r;
        if (z == a) {
            a = cls_off[2 * nl];
            z = cls_off[2 * nl + 1];
            r = s->scal_stat[JOINT_SCAL_NSTAT * (size_t)nl + 7];
        } else {
            st[3] = 1; /* a map of its own */
            r = st[7];
        }
        double e = (1 - joint_map_at(lo + a, val + a, z - a, conf[p])) * r;
        double eo = (1 - joint_cfthin_at(&thin, l, conf[p])) * r; /* conf_thin_own */
        if (eo > e) {
            e = eo;
            s->p.cfn_lowered++;
        }
        double em = (1 - joint_cfmin_at(&cfm, l, conf[p])) * r; /* conf_ratio_min=1 */
        if (em > e) {
            e = em;
            s->p.cfm_lowered++;
        }
        double es = (1 - joint_cfse_at(&cse, l, conf[p])) * r; /* conf_copy_se */
        joint_cfev2_row(s, stk, p, conf[p], e, es); /* conf_copy_events_second (joint_cfev2.c) */
        if (es > e) {
            e = es;
            s->p.cse_lowered++;
        }
        double v = e < 1 ? 1 - e : 0;
        if (s->p.conf_order)
            v = joint_conf_order(v, conf[p]);
        if (v < conf[p]) {
            conf[p] = v;
            st[2]++;
        }
    }
    /* conf_copy_events_second (joint_cfev2.c): one copy more, pooled, and
     * the maps fitted again on the rows as they were */
    if (rc == PB_OK && share && !pass && joint_cfev2_again(s, conf, conf0, n, &first)) {
        joint_cfthin_free(&thin);
        joint_cfse_free(&cse);
        free(lo);
        free(val);
        free(w);
        free(kk);
        free(cls_off);
        rc = sim_points(s, (uint32_t)s->p.conf_seed + 1, esc, moff, early, late,
                        lossy > 0 ? drop : NULL, lossy > 0 ? rest : NULL, shares, &pts, &np,
                        &cap, 1);
        if (rc == PB_OK)
            rc = joint_cfev2_merge(s);
        pass = 1;
        goto fit_again;
    }
    if (rc == PB_OK && pass)
        joint_cfev2_keep(conf, first, stk, n); /* conf_copy_events_second: not at stake */
    free(conf0);
    free(first);
    free(stk);
    joint_cfev2_end(s);
    free(drop);
    free(moff);
    free(early);
    free(late);
    if (rc == PB_OK && share && s->p.scp_state) /* conf_copy_stage (joint_scopy.c) */
        joint_scopy_check(s, pts, np, exr, &rc);
    if (rc == PB_OK) {
        s->scal_sim = (double)np;
        s->scal_done = 1;
    }
    joint_cfthin_free(&thin);
    joint_cfse_free(&cse);
    joint_cfmin_free(&cfm);
    joint_cfr_end(s);
    free(lo);
    free(val);
    free(w);
    free(kk);
    free(cls_off);
    free(pts);
    free(esc);
    free(exr);
    free(rest);
    return rc;
}

int joint_selfcal_copy(joint *s, uint32_t seed, pb_trace **out)
{
    *out = NULL;
    double *esc = malloc(((size_t)s->nnodes + 1) * sizeof *esc);
    uint32_t *moff = NULL;
    pb_ns *early = NULL, *late = NULL;
    int rc = esc ? orphan_misses(s, esc, &moff, &early, &late) : PB_ENOMEM;
    if (rc == PB_OK)
        rc = simulate(s, seed, esc, moff, early, late, s->p.conf_sim_pairs, NULL, NULL, 0, NULL, out);
    joint_sce_free(s); /* conf_copy_margin: counts only in sim_points (joint_scedge.c) */
    free(esc);
    free(moff);
    free(early);
    free(late);
    return rc;
}

/* busy_copy_lean: the busy test's copies of one solution share their
 * set-up (what simulate computes before its first draw depends on the
 * solution alone) and are read as stamps, not made into traces */
struct joint_simset {
    sim x;
    double *esc;
    uint32_t *moff, *trig, *tmp; /* trig: trig, trig2, rtrig (3 (n + 1)) */
    pb_ns *early, *late, *tb;    /* tb: simulate's 7 (n + 1), then the solution's
                                    stamps (4 (n + 1)) each draw starts from */
    unsigned char *pick;
    sframe *st;
};

void joint_simset_free(joint_simset *z)
{
    if (!z)
        return;
    free(z->esc);
    free(z->moff);
    free(z->early);
    free(z->late);
    free(z->trig);
    free(z->tmp);
    free(z->tb);
    free(z->pick);
    free(z->st);
    free(z->x.vis);
    free(z->x.lt);
    free(z->x.off);
    free(z->x.dl);
    free(z->x.map.k);
    free(z->x.map.v);
    if (z->x.r)
        gsl_rng_free(z->x.r);
    free(z);
}

int joint_simset_new(joint *s, joint_simset **out)
{
    *out = NULL;
    joint_simset *z = calloc(1, sizeof *z);
    if (!z)
        return PB_ENOMEM;
    uint32_t n = s->npairs, maxk = 1;
    size_t n1 = (size_t)n + 1;
    for (uint32_t q = 0; q < n; q++)
        if (s->kids[q].n + 1 > maxk)
            maxk = s->kids[q].n + 1;
    sim *x = &z->x;
    x->s = s;
    z->esc = malloc(((size_t)s->nnodes + 1) * sizeof *z->esc);
    int rc = z->esc ? orphan_misses(s, z->esc, &z->moff, &z->early, &z->late) : PB_ENOMEM;
    z->trig = malloc(3 * n1 * sizeof *z->trig);
    z->tmp = malloc((size_t)maxk * sizeof *z->tmp);
    z->tb = malloc(11 * n1 * sizeof *z->tb);
    z->st = malloc(n1 * sizeof *z->st);
    x->vis = malloc(n1);
    x->lt = malloc(n1 * sizeof *x->lt);
    x->r = gsl_rng_alloc(gsl_rng_mt19937);
    if (rc == PB_OK && !(z->trig && z->tmp && z->tb && z->st && x->vis && x->lt && x->r))
        rc = PB_ENOMEM;
    if (rc == PB_OK) {
        x->esc = z->esc;
        x->moff = z->moff;
        x->early = z->early;
        x->late = z->late;
        rc = sim_prepare(x, z->trig, z->trig + n1, z->trig + 2 * n1, z->tmp, z->tb);
    }
    if (rc == PB_OK)
        rc = joint_sim_restore(s, NULL, NULL, x->nc, x->nr, z->tb + 6 * n1);
    if (rc == PB_OK)
        z->pick = pick_roots(s, s->p.conf_sim_pairs, &rc);
    if (rc == PB_OK)
        memcpy(z->tb + 7 * n1, z->tb, 4 * n1 * sizeof *z->tb);
    if (rc != PB_OK) {
        joint_simset_free(z);
        return rc;
    }
    *out = z;
    return PB_OK;
}

int joint_simset_draw(joint_simset *z, uint32_t seed, pb_ns *cr, pb_ns *cs, pb_ns *rs)
{
    sim *x = &z->x;
    joint *s = x->s;
    uint32_t n = s->npairs;
    /* as simulate with no loss and no blocks: the same draws in the same
     * order from the same seed */
    gsl_rng_set(x->r, seed);
    memcpy(z->tb, z->tb + 7 * ((size_t)n + 1), 4 * ((size_t)n + 1) * sizeof *z->tb);
    memset(x->vis, 0, (size_t)n + 1);
    memset(x->lt, 0, ((size_t)n + 1) * sizeof *x->lt);
    x->escaped = 0;
    for (uint32_t q = 0; q < n; q++)
        if (z->pick[q] && !x->vis[q])
            sim_tree(x, z->st, q, z->tb[6 * ((size_t)n + 1) + q]);
    /* the stamps the copy's trace would hold (simulate's output) */
    const pb_msg *m = s->v.msgs;
    for (uint32_t p = 0; p < n; p++) {
        const jpair *a = &s->pr[p];
        cr[p] = cs[p] = rs[p] = PB_TS_NONE;
        if (x->vis[p] != 2)
            continue;
        if (a->call != NONE) {
            cs[p] = cut(x->cs[p], s->tick);
            cr[p] = m[a->call].recv_ts == PB_TS_NONE ? cs[p] : cut(x->cr[p], s->tick);
        }
        if (a->ret != NONE)
            rs[p] = cut(x->rs[p], s->tick);
    }
    s->scal_escaped = x->escaped;
    /* busy_copy_lean=2 (tests only): a wrong copy, the receive of every
     * second call lost, so the test sees the option matter */
    for (uint32_t p = 1; s->p.busy_copy_lean == 2 && p < n; p += 2)
        cr[p] = PB_TS_NONE;
    return PB_OK;
}
