/*
 * joint_simulate.c - joint: the self-calibration's copy of the trace, made
 * from the solution with its truth known (docs/joint/confidence.md,
 * "Allowances for model error").  What the copy keeps and draws, and how
 * the calibration map is fitted on it, is described at the top of
 * joint_selfcal.c, which runs joint on the copy; here: the orphans' misses
 * (joint_sc_orphan_misses), the copy itself (joint_sc_simulate,
 * joint_selfcal_copy) and the copies sharing one set-up (joint_simset_*).
 */
#include "joint_int.h"

#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

#define NONE JOINT_NONE
#define JOINT_SELFCAL_NEAR 32  /* requests on each side an orphan's miss is measured against */
#define JOINT_SELFCAL_PAIRS 10000 /* pairs simulated at most (a window of the trace) */

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
    joint_simshape *shape;  /* conf_sim_shape: delays by request size (joint_simshape.c); NULL: off */
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
            if (rc == PB_OK && x->shape)
                rc = joint_simshape_add(x->shape, id, joint_simshape_size(s, q), d);
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
    if (rc == PB_OK && x->shape)
        rc = joint_simshape_finish(x->shape, x->off, x->dl);
    free(ki);
    free(dv);
    free(tv);
    free(own);
    return rc;
}

/* a delay for (ein, trigger, output) drawn from the solution's; `real`
 * when the key has none; owner: 2 c for call c, 2 q + 1 for q's response
 * (conf_sim_block: a key correlated in time is drawn in blocks) */
static pb_ns draw(sim *x, uint32_t ein, uint32_t tg, uint32_t outl, pb_ns real, uint32_t owner,
                  uint32_t kq)
{
    uint32_t i = joint_hmap_get(&x->map, skey(x->s, ein, tg, outl));
    if (i == NONE || x->off[i + 1] == x->off[i])
        return real < 0 ? 0 : real;
    pb_ns bd;
    if (x->blk && joint_simblk_draw(x->blk, owner, i, &bd))
        return bd;
    /* conf_sim_shape: from the requests of kq's size (joint_simshape.c) */
    if (x->shape && joint_simshape_draw(x->shape, i, joint_simshape_size(x->s, kq), x->r, &bd))
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
            pb_ns t = base + draw(x, ein, tg, s->pr[c].link, real, 2 * c, kq);
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
        pb_ns t = base + draw(x, ein, tg, s->nlinks, real, 2 * q + 1, kq);
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
int joint_sc_orphan_misses(const joint *s, double *esc, uint32_t **moff, pb_ns **early,
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

int joint_sc_simulate(joint *s, uint32_t seed, const double *esc, const uint32_t *moff,
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
    /* conf_sim_shape: only the calibration's copies (joint_selfcal.c sets
     * simshape_on), not those other rules decide by */
    joint_simshape shp;
    memset(&shp, 0, sizeof shp);
    shp.minn = s->p.conf_sim_shape > 0 ? (size_t)s->p.conf_sim_shape : 0;
    shp.ks = s->p.conf_sim_shape_ks;
    x.shape = s->simshape_on && s->p.conf_sim_shape > 0 ? &shp : NULL;
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
    if (x.shape) {
        s->simshape_rec[0] = (double)shp.keys;
        s->simshape_rec[1] = (double)shp.keys_on;
        s->simshape_rec[2] = (double)shp.draws;
        s->simshape_rec[3] = (double)shp.draws_plain;
    }
    joint_simshape_free(&shp);
    free(x.off);
    free(x.dl);
    free(x.map.k);
    free(x.map.v);
    if (x.r)
        gsl_rng_free(x.r);
    return rc;
}

int joint_selfcal_copy(joint *s, uint32_t seed, pb_trace **out)
{
    *out = NULL;
    double *esc = malloc(((size_t)s->nnodes + 1) * sizeof *esc);
    uint32_t *moff = NULL;
    pb_ns *early = NULL, *late = NULL;
    int rc = esc ? joint_sc_orphan_misses(s, esc, &moff, &early, &late) : PB_ENOMEM;
    if (rc == PB_OK)
        rc = joint_sc_simulate(s, seed, esc, moff, early, late, s->p.conf_sim_pairs, NULL, NULL, 0, NULL, out);
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
    int rc = z->esc ? joint_sc_orphan_misses(s, z->esc, &z->moff, &z->early, &z->late) : PB_ENOMEM;
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
