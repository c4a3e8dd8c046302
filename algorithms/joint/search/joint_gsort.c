/*
 * joint_gsort.c - joint: the greedy round's cost of a call in a large
 * candidate request from the request's returns sorted by time received
 * (`greedy_sorted`; speed only, the same results; issue 28, "Speed,
 * eleventh wave (local search)" in docs/joint.md).
 *
 * The greedy round (joint_search.c greedy_round, joint_greedy_cost) gives
 * each call p the candidate request q of least cost: the trigger term (the
 * latest return of q's other calls received by the time p was sent that
 * is no learned parallel sibling of p and is later than q's arrival, ties
 * to the latest call; else the arrival) minus the marginal count term (q's
 * other calls of p's link).  joint_greedy_cost finds both by a scan of q's
 * calls, up to 27 on OnlineBoutique's front end, for every candidate of
 * every call.  Within one greedy round the pairs' times and the model are
 * fixed and only kid lists change (joint_set_parent), so for a request of
 * at least JOINT_GS_MIN calls this keeps, per round, its returns sorted by
 * (time received, place in the kid list) and its calls per link; the
 * trigger is then the first return from the latest one received by p's
 * call time downwards that is not p, not a skipped sibling, and later than
 * the arrival (a return at or before the arrival ends the search: the
 * arrival), and the count is the link's count less p when p is q's.  That
 * is the scan's answer: the scan keeps the latest time received, ties to
 * the later call in the list, among the same returns.  A change of the
 * request's list (joint_set_parent) makes it be sorted again; nothing is
 * used outside a greedy round.  Requests are kept in JOINT_GS_SLOTS slots,
 * request q in slot q mod JOINT_GS_SLOTS (a later request takes the slot
 * over): a bounded memory on any trace; the round visits calls in call
 * order, so their candidates are recent requests.  The same trigger, key and count give the
 * same floating-point operations as the scan, so the cost is the same
 * bits (test_joint_gsort.c).
 */
#include "joint_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE

struct gs_ent {
    uint64_t round;     /* the round it was made in (0: void) */
    uint32_t q;         /* its request */
    uint32_t nr, nl, cap;
    uint32_t *r;        /* [cap] the kids with a return, by (rr, place) */
    uint32_t *lk, *lc;  /* [cap] the links of the kids and their counts */
};

struct joint_gsort {
    uint64_t round;     /* the greedy round running (0: none) */
    uint64_t next;      /* rounds begun */
    struct gs_ent e[JOINT_GS_SLOTS];
    uint32_t *tmp;      /* [tcap] places while sorting */
    uint32_t tcap;
};

int joint_gsort_test_stale = 0;

int joint_gsort_round_start(joint *s)
{
    if (!s->p.greedy_sorted || !s->p.greedy_cut)
        return PB_OK;
    if (!s->gs)
        joint_bufshare_take(s); /* pairs_share: the free search's (joint_bufshare.c) */
    if (!s->gs && !(s->gs = calloc(1, sizeof *s->gs)))
        return PB_ENOMEM;
    struct joint_gsort *g = s->gs;
    /* the test's stale entries: one round's kept into the next */
    if (!(joint_gsort_test_stale && g->next))
        g->next++;
    g->round = g->next;
    return PB_OK;
}

void joint_gsort_round_end(joint *s)
{
    if (s->gs)
        s->gs->round = 0;
}

void joint_gsort_touch(joint *s, uint32_t q)
{
    struct joint_gsort *g = s->gs;
    if (g && g->e[q % JOINT_GS_SLOTS].q == q && !joint_gsort_test_stale)
        g->e[q % JOINT_GS_SLOTS].round = 0;
}

/* the entry of request q for this round, made if need be; NULL when q is
 * too small or memory ran out (then the scan decides) */
static struct gs_ent *entry(joint *s, struct joint_gsort *g, uint32_t q)
{
    const kvec *k = &s->kids[q];
    if (k->n < JOINT_GS_MIN)
        return NULL;
    struct gs_ent *x = &g->e[q % JOINT_GS_SLOTS];
    if (x->round == g->round && x->q == q)
        return x;
    x->round = 0; /* void until made in full */
    const uint32_t n = k->n;
    if (n > x->cap) {
        uint32_t nc = x->cap ? x->cap : 32;
        while (nc < n)
            nc *= 2;
        uint32_t *a = realloc(x->r, (size_t)nc * 3 * sizeof *a);
        if (!a)
            return NULL;
        x->r = a;
        x->lk = a + nc;
        x->lc = a + 2 * (size_t)nc;
        x->cap = nc;
    }
    if (n > g->tcap) {
        uint32_t *t = realloc(g->tmp, (size_t)n * sizeof *t);
        if (!t)
            return NULL;
        g->tmp = t;
        g->tcap = n;
    }
    /* the places of the kids with a return, by (rr, place): insertion */
    uint32_t *pl = g->tmp, nr = 0, nl = 0;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t a = k->a[i], l = s->pr[a].link;
        uint32_t j;
        for (j = 0; j < nl && x->lk[j] != l; j++)
            ;
        if (j == nl) {
            x->lk[nl] = l;
            x->lc[nl++] = 0;
        }
        x->lc[j]++;
        if (s->pr[a].ret == NONE)
            continue;
        const pb_ns rr = s->pr[a].rr;
        uint32_t t = nr++;
        while (t > 0 && s->pr[k->a[pl[t - 1]]].rr > rr) {
            pl[t] = pl[t - 1];
            t--;
        }
        pl[t] = i;
    }
    for (uint32_t i = 0; i < nr; i++)
        x->r[i] = k->a[pl[i]];
    x->nr = nr;
    x->nl = nl;
    x->q = q;
    x->round = g->round;
    return x;
}

int joint_gsort_trig(joint *s, uint32_t p, uint32_t q, pb_ns *ttp, uint32_t *trigp,
                     uint32_t *cntp)
{
    struct joint_gsort *g = s->gs;
    if (!g || !g->round)
        return 0;
    struct gs_ent *x = entry(s, g, q);
    if (!x)
        return 0;
    const jpair *pp = &s->pr[p], *qq = &s->pr[q];
    const uint32_t l = pp->link, ein = qq->link;
    uint32_t cnt = 0;
    for (uint32_t j = 0; j < x->nl; j++)
        if (x->lk[j] == l) {
            cnt = x->lc[j] - (s->par[p] == q);
            break;
        }
    const pb_ns t0 = qq->call == NONE ? INT64_MIN : qq->cr;
    pb_ns tt = t0;
    uint32_t trig = 0;
    if (pp->call != NONE) {
        const pb_ns cs = pp->cs;
        const joint_dk_row d = joint_dk_row_of(s, ein, l);
        /* the returns received by cs: r[0..hi) */
        uint32_t lo = 0, hi = x->nr;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (s->pr[x->r[mid]].rr <= cs)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (uint32_t i = lo; i-- > 0;) {
            const uint32_t ai = x->r[i];
            const jpair *c = &s->pr[ai];
            if (c->rr <= t0)
                break; /* this and every earlier: the arrival */
            if (ai == p)
                continue;
            if (s->npar && joint_par_skip_row(s, &d, ein, c->link, l))
                continue;
            tt = c->rr;
            trig = 1 + c->link;
            break;
        }
    }
    *ttp = tt;
    *trigp = trig;
    *cntp = cnt;
    return 1;
}

void joint_gsort_free(joint *s)
{
    struct joint_gsort *g = s->gs;
    if (!g)
        return;
    for (uint32_t i = 0; i < JOINT_GS_SLOTS; i++)
        free(g->e[i].r);
    free(g->tmp);
    free(g);
    s->gs = NULL;
}
