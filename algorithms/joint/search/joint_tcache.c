/*
 * joint_tcache.c - joint: the greedy round's trigger search kept per
 * candidate slot across the rounds of one search (`greedy_tcache`; speed
 * only, the same results; docs/joint/speed.md, "Speed, sixteenth wave").
 *
 * The greedy round's cost of call p in candidate request q
 * (joint_greedy_cost) has two parts: the trigger (the latest return of
 * q's other calls received by p's send that is no learned parallel
 * sibling of p, else q's arrival) and the count of q's other calls on p's
 * link; then the density of the delay from the trigger and the marginal
 * count term.  The first part reads only q's kid list, the pairs' times,
 * the candidates, the call order test (greedy_mono), the caller pooling
 * (kein) and the parallel flags (pflag); the refit before each greedy
 * round changes the densities and the count table, rarely those.  Within
 * one joint_solve_rounds the pairs, their times and the candidates do not
 * change (greedy_cut relies on the same), and a kid list changes only by
 * the rounds' own moves (joint_greedy_moved ticks them).  So the parts of
 * slot j, computed at a tick after q's last change in this search, under
 * the same flags, pooling and order test, are those a new scan would find:
 * kept, and only the second part is computed again (joint_greedy_tail, the
 * same operations in the same order: the same bits).
 */
#include "joint_int.h"

#include <stdlib.h>
#include <math.h>
#include <string.h>

int joint_tcache_test_stale = 0;

/* greedy_tcache=2 keeps the slots up to this many candidate slots (24
 * bytes each: 24 MB), so that the 2 M-message row's peak (about 2.8 M
 * slots) stays as it was */
#define JOINT_TCACHE_AUTO_SLOTS ((size_t)1 << 20)

/* the trigger parts are kept in this search (greedy_tcache 1, or 2 and
 * few enough slots; the candidates, so ncand, are fixed within a
 * joint_solve_rounds, and a new one voids every kept slot) */
static int tcache_on(const joint *s)
{
    return s->p.greedy_cut &&
           (s->p.greedy_tcache == 1 ||
            (s->p.greedy_tcache == 2 && s->ncand <= JOINT_TCACHE_AUTO_SLOTS));
}

struct joint_tcache {
    uint64_t *at;         /* per slot: tick + 1 of the computation (0: none) */
    pb_ns *tt;
    uint32_t *trig, *cnt;
    /* tcache_delay: per slot the log of the clamped delay from the trigger
     * (call p's send less tt) and its bin, as logf_of finds them; the
     * delay is the slot's while the slot is kept, and what else they read
     * (dmin, the bins) is checked below */
    double *ld;
    uint32_t *bin;
    /* tcache_delay: per slot the delay ld and bin were made from
     * (INT64_MIN: none): a slot made again (a new search, its request
     * changed) whose delay is the same keeps them (the same bits: they
     * read the delay and the bins alone, and a change of the bins voids
     * every one below) */
    pb_ns *dd;
    double dmin, ibin, pbin;
    uint32_t nb;
    size_t cap;
    const uint64_t *qchg, *tick; /* joint_greedy_ticks, this round */
    uint64_t valid;       /* slots computed at or before it are void */
    uint64_t solves;      /* joint_solve_rounds of the kept slots */
    /* what the parts read besides the kid lists, as when kept */
    unsigned char *pf;
    uint32_t npf, pfcap;
    uint32_t *kein, nkein;
    int has_kein, mono;
};

static int same_inputs(const joint *s, const struct joint_tcache *c)
{
    if (c->mono != s->greedy_mono || c->npf != s->npar || c->has_kein != (s->kein != NULL))
        return 0;
    if (c->dmin != s->dmin || c->ibin != s->ibin || c->pbin != s->p.bin || c->nb != s->nb)
        return 0; /* tcache_delay: the bins changed */
    if (s->npar && memcmp(c->pf, s->pflag, s->npar) != 0)
        return 0;
    if (s->kein && (c->nkein != s->nlinks + 1 ||
                    memcmp(c->kein, s->kein, ((size_t)s->nlinks + 1) * sizeof *c->kein) != 0))
        return 0;
    return 1;
}

int joint_tcache_round_start(joint *s)
{
    if (!tcache_on(s))
        return PB_OK;
    struct joint_tcache *c = s->tcache;
    if (!c) {
        if (!(c = calloc(1, sizeof *c)))
            return PB_ENOMEM;
        s->tcache = c;
    }
    uint64_t solves;
    c->qchg = joint_greedy_ticks(s, &c->tick, &solves);
    if (!c->qchg || !c->tick)
        return PB_OK; /* nothing kept: joint_tcache_cost scans */
    const uint64_t now = *c->tick;
    if (c->cap < s->ncand) {
        size_t n = s->ncand;
        uint64_t *a = realloc(c->at, n * sizeof *a);
        if (!a)
            return PB_ENOMEM;
        c->at = a;
        pb_ns *t = realloc(c->tt, n * sizeof *t);
        if (!t)
            return PB_ENOMEM;
        c->tt = t;
        uint32_t *g = realloc(c->trig, n * sizeof *g);
        if (!g)
            return PB_ENOMEM;
        c->trig = g;
        uint32_t *k = realloc(c->cnt, n * sizeof *k);
        if (!k)
            return PB_ENOMEM;
        c->cnt = k;
        if (s->p.tcache_delay) {
            double *ld = realloc(c->ld, n * sizeof *ld);
            if (!ld)
                return PB_ENOMEM;
            c->ld = ld;
            uint32_t *b = realloc(c->bin, n * sizeof *b);
            if (!b)
                return PB_ENOMEM;
            c->bin = b;
            pb_ns *e = realloc(c->dd, n * sizeof *e);
            if (!e)
                return PB_ENOMEM;
            c->dd = e;
            for (size_t i = c->cap; i < n; i++)
                e[i] = INT64_MIN;
        }
        memset(c->at + c->cap, 0, (n - c->cap) * sizeof *c->at);
        c->cap = n;
    }
    if (joint_tcache_test_stale || (solves == c->solves && same_inputs(s, c)))
        return PB_OK;
    /* a new search, or the flags changed: every kept slot is void */
    c->valid = now + 2; /* a slot computed at tick now or before */
    if (c->dd && (c->dmin != s->dmin || c->ibin != s->ibin || c->pbin != s->p.bin ||
                  c->nb != s->nb))
        for (size_t i = 0; i < c->cap; i++)
            c->dd[i] = INT64_MIN; /* the bins changed: no delay's parts kept */
    c->solves = solves;
    c->mono = s->greedy_mono;
    c->dmin = s->dmin;
    c->ibin = s->ibin;
    c->pbin = s->p.bin;
    c->nb = s->nb;
    if (s->npar > c->pfcap) {
        unsigned char *f = realloc(c->pf, s->npar);
        if (!f)
            return PB_ENOMEM;
        c->pf = f;
        c->pfcap = s->npar;
    }
    if (s->npar)
        memcpy(c->pf, s->pflag, s->npar);
    c->npf = s->npar;
    c->has_kein = s->kein != NULL;
    if (s->kein) {
        if (c->nkein != s->nlinks + 1) {
            uint32_t *k = realloc(c->kein, ((size_t)s->nlinks + 1) * sizeof *k);
            if (!k)
                return PB_ENOMEM;
            c->kein = k;
            c->nkein = s->nlinks + 1;
        }
        memcpy(c->kein, s->kein, ((size_t)s->nlinks + 1) * sizeof *c->kein);
    }
    return PB_OK;
}

/* tcache_delay: the log ld of call p's delay from the trigger time tt
 * (clamped at dmin) and its bin, as logf_of finds them (through the same
 * cache when there is one, so that it holds what it held) */
static inline __attribute__((always_inline)) void delay_parts(const joint *s, uint32_t p, pb_ns tt, double *ld, uint32_t *bin)
{
    const pb_ns d = s->pr[p].cs - tt;
    joint_logc *lc = s->logc;
    if (lc) {
        uint32_t h = (uint32_t)(((uint64_t)d * 0x9E3779B97F4A7C15ull) >> (64 - JOINT_LOGC_BITS));
        if (lc->d[h] != d) {
            lc->d[h] = d;
            lc->ld[h] = log((double)d < s->dmin ? s->dmin : (double)d);
            lc->bin[h] = dbin_ln(s, d, lc->ld[h]);
        }
        *ld = lc->ld[h];
        *bin = lc->bin[h];
        return;
    }
    *ld = log((double)d < s->dmin ? s->dmin : (double)d);
    *bin = dbin_ln(s, d, *ld);
}

/* joint_greedy_tail with the delay's log and bin given (logf_of's
 * operations on them, in the same order: the same bits) */
static inline __attribute__((always_inline)) double tail_kept(const joint *s, uint32_t p, uint32_t q, uint32_t di,
                               uint32_t trig, uint32_t cnt, double ld, uint32_t bin)
{
    const jpair *pp = &s->pr[p], *qq = &s->pr[q];
    const uint32_t l = pp->link, ein = qq->link;
    double ec = 0;
    if (pp->call != JOINT_NONE) {
        if (qq->call == JOINT_NONE && trig == 0)
            ec = di == JOINT_NONE ? -(s->bg - log(1e6)) : -s->kmean[di];
        else
            ec = -(di == JOINT_NONE ? s->bg - ld : joint_lf_at(s, di, bin) - ld);
    }
    size_t base = s->cnt_off[ein] + (size_t)s->link_local[l] * (JOINT_KMAX + 1);
    uint32_t c = cnt + 1 > JOINT_KMAX ? JOINT_KMAX : cnt + 1;
    return ec - (s->cntlp[base + c] - s->cntlp[base + c - 1]);
}

/* 0; a unit test sets it to 1: every slot made again computes its delay's
 * parts; 2: a slot made again keeps them whatever its delay (wrong: the
 * tests must catch it).  joint_tcache_dd_kept: the parts kept so */
int joint_tcache_test_dd = 0;
unsigned long joint_tcache_dd_kept = 0;

/* 0; a unit test sets it: the kept delay parts are read off by one bin */
int joint_tcache_test_delay = 0;

double joint_tcache_cost(joint *s, uint32_t p, uint32_t j)
{
    const uint32_t q = s->cand[j];
    struct joint_tcache *c = s->tcache;
    if (!c || !c->qchg || !tcache_on(s) || joint_greedy_test_shift != 0)
        return joint_greedy_cost(s, p, q);
    const uint64_t at = c->at[j];
    /* kept: computed after this search's void and after q's last change
     * (at is the tick of the computation + 2) */
    const int hit = at > c->valid && (joint_tcache_test_stale || at > c->qchg[q] + 1);
    if (hit) {
        s->tcache_hits++;
    } else {
        joint_greedy_trig(s, p, q, &c->tt[j], &c->trig[j], &c->cnt[j]);
        c->at[j] = *c->tick + 2;
    }
    const jpair *pp = &s->pr[p];
    const uint32_t l = pp->link, ein = s->pr[q].link;
    const int kd = s->p.tcache_delay && c->ld && c->dd;
    if (!kd)
        return joint_greedy_tail(s, p, q, c->tt[j], c->trig[j], c->cnt[j]);
    const uint32_t di = pp->call != JOINT_NONE ? joint_key_get(s, ein, c->trig[j], l) : JOINT_NONE;
    if (!hit) {
        if (pp->call != JOINT_NONE && !(s->pr[q].call == JOINT_NONE && c->trig[j] == 0)) {
            /* the slot's delay as before: its parts as before (no log) */
            const pb_ns d = pp->cs - c->tt[j];
            if (joint_tcache_test_dd == 2 ? c->dd[j] == INT64_MIN
                                          : d == INT64_MIN || d != c->dd[j] || joint_tcache_test_dd) {
                delay_parts(s, p, c->tt[j], &c->ld[j], &c->bin[j]);
                c->dd[j] = d;
            } else {
                joint_tcache_dd_kept++;
            }
        } else { /* no delay is read */
            c->ld[j] = 0;
            c->bin[j] = 0;
            c->dd[j] = INT64_MIN;
        }
    }
    return tail_kept(s, p, q, di, c->trig[j], c->cnt[j], c->ld[j],
                     c->bin[j] + (uint32_t)(hit && joint_tcache_test_delay && c->bin[j] + 1 < s->nb));
}

void joint_tcache_free(joint *s)
{
    struct joint_tcache *c = s->tcache;
    if (!c)
        return;
    free(c->at);
    free(c->tt);
    free(c->trig);
    free(c->cnt);
    free(c->ld);
    free(c->dd);
    free(c->bin);
    free(c->pf);
    free(c->kein);
    free(c);
    s->tcache = NULL;
}
