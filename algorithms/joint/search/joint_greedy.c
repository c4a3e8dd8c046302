/*
 * joint_greedy.c - joint: the greedy round's cost of a call in a candidate
 * request in one pass (`greedy_cut`; speed only, the same results; issue
 * 28, docs/joint/speed_middle.md, "Speed, ninth wave").
 */
#include "joint_int.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE

/* ------------------------------------------------------------------ */
/* The greedy round's cost in one pass (`greedy_cut`; speed only, the
 * same numbers as edge_cost and the count loop of joint_search.c).
 *
 * The cost of giving call p to request q is the trigger term (the
 * latest return of q's other calls received by the time p was sent,
 * that is no learned parallel sibling of p, else q's arrival) minus the
 * marginal count term.  q's calls are sorted by call time; when every
 * pair's return comes after its call (joint_greedy_prep checks it each
 * round), no call sent after p can be p's trigger, so the trigger search
 * stops at the first such call and only the count goes on.  The
 * direct-table cell of each kid (joint_par_skip) is computed from the
 * request's row, found once per (p, q).  Every comparison and every
 * floating-point operation is edge_cost's, in the same order. */

/* subtracted from the call time where the trigger search stops: 0; a
 * unit test raises it to show that stopping earlier changes results */
pb_ns joint_greedy_test_shift = 0;

void joint_greedy_prep(joint *s)
{
    s->greedy_mono = 0;
    if (!s->p.greedy_cut)
        return;
    for (uint32_t p = 0; p < s->npairs; p++) {
        const jpair *x = &s->pr[p];
        if (x->ret != NONE && x->rr < x->cs) /* (a lost call's cs is its rr) */
            return;
    }
    s->greedy_mono = 1;
}

void joint_greedy_trig(const joint *s, uint32_t p, uint32_t q, pb_ns *ttp, uint32_t *trigp,
                       uint32_t *cntp)
{
    if (s->gs && joint_greedy_test_shift == 0 &&
        joint_gsort_trig((joint *)s, p, q, ttp, trigp, cntp))
        return; /* greedy_sorted (joint_gsort.c): the same numbers */
    const jpair *pp = &s->pr[p], *qq = &s->pr[q];
    const kvec *k = &s->kids[q];
    const uint32_t l = pp->link, ein = qq->link;
    const uint32_t n = k->n;
    const uint32_t *a = k->a;
    uint32_t cnt = 0, i = 0, trig = 0;
    pb_ns tt = qq->call == NONE ? INT64_MIN : qq->cr;
    if (pp->call != NONE) {
        const pb_ns cs = pp->cs;
        /* the row of q's link in the direct tables, and p's column */
        const joint_dk_row d = joint_dk_row_of(s, ein, l);
        const int mono = s->greedy_mono;
        const pb_ns stop = cs - joint_greedy_test_shift; /* cs, but in the test */
        for (; i < n; i++) {
            const uint32_t ai = a[i];
            const jpair *c = &s->pr[ai];
            cnt += ai != p && c->link == l;
            if (mono && c->cs > stop)
                break; /* it and every later call return after p was sent */
            if (ai == p || c->ret == NONE || c->rr > cs || c->rr < tt)
                continue;
            if (s->npar && joint_par_skip_row(s, &d, ein, c->link, l))
                continue;
            if (c->rr > tt || (c->rr == tt && trig != 0)) {
                tt = c->rr;
                trig = 1 + c->link;
            }
        }
        /* the count over the rest */
        for (uint32_t j = i < n ? i + 1 : n; j < n; j++)
            cnt += a[j] != p && s->pr[a[j]].link == l;
    } else {
        for (; i < n; i++)
            cnt += a[i] != p && s->pr[a[i]].link == l;
    }
    *ttp = tt;
    *trigp = trig;
    *cntp = cnt;
}

double joint_greedy_cost(const joint *s, uint32_t p, uint32_t q)
{
    pb_ns tt;
    uint32_t trig, cnt;
    joint_greedy_trig(s, p, q, &tt, &trig, &cnt);
    return joint_greedy_tail(s, p, q, tt, trig, cnt);
}

/* ------------------------------------------------------------------ */
/* Greedy rounds under a frozen model (`greedy_cut`; speed only, the same
 * results).  Between two greedy rounds of one joint_solve_rounds without
 * a refit (the re-pairing's solve with open ends, step 4 (c)) nothing
 * changes but the parents the rounds themselves set: the model, the
 * pairs, their times and the candidates are those of the round before.
 * A call's costs read only its candidates' kid lists beside those, so a
 * call evaluated after the last change of every one of its candidates'
 * lists would choose as it chose then, when it was put where it chose
 * (a move of its own changes the two lists, so it is looked at again):
 * it is left as it is.  Ticks order the evaluations and the changes; a
 * new joint_solve_rounds or a refit (fit_gen) makes every earlier
 * evaluation void. */

struct joint_gfrz {
    uint64_t *peval, *qchg; /* per pair: tick of its last evaluation / of
                               the last change of its kid list */
    uint64_t tick, valid;   /* evaluations after valid count */
    uint32_t fit, n;
    int have;               /* a round ran in this joint_solve_rounds */
    uint64_t solves;        /* joint_solve_rounds started (greedy_tcache) */
};

void joint_greedy_solve_start(joint *s)
{
    if (s->gfrz) {
        s->gfrz->have = 0;
        s->gfrz->solves++;
    }
}

const uint64_t *joint_greedy_ticks(const joint *s, const uint64_t **tick, uint64_t *solves)
{
    *solves = s->gfrz ? s->gfrz->solves : 0;
    *tick = s->gfrz ? &s->gfrz->tick : NULL;
    return s->gfrz && s->gfrz->n >= s->npairs ? s->gfrz->qchg : NULL;
}

int joint_greedy_round_start(joint *s)
{
    if (!s->p.greedy_cut)
        return PB_OK;
    struct joint_gfrz *g = s->gfrz;
    if (!g) {
        if (!(g = calloc(1, sizeof *g)))
            return PB_ENOMEM;
        s->gfrz = g;
    }
    if (g->n < s->npairs) {
        uint64_t *a = realloc(g->peval, (size_t)s->npairs * sizeof *a);
        if (!a)
            return PB_ENOMEM;
        g->peval = a;
        uint64_t *b = realloc(g->qchg, (size_t)s->npairs * sizeof *b);
        if (!b)
            return PB_ENOMEM;
        g->qchg = b;
        memset(g->peval + g->n, 0, (size_t)(s->npairs - g->n) * sizeof *a);
        memset(g->qchg + g->n, 0, (size_t)(s->npairs - g->n) * sizeof *b);
        g->n = s->npairs;
        g->have = 0;
    }
    if (!g->have || g->fit != s->fit_gen)
        g->valid = g->tick; /* every earlier evaluation is void */
    g->have = 1;
    g->fit = s->fit_gen;
    return PB_OK;
}

/* 0; a unit test sets it to skip every call evaluated in this model
 * whatever changed since (to show that the comparison can fail) */
int joint_greedy_test_stale = 0;

int joint_greedy_unchanged(joint *s, uint32_t p)
{
    const struct joint_gfrz *g = s->gfrz;
    if (!g || !s->p.greedy_cut)
        return 0;
    uint64_t e = g->peval[p];
    if (e <= g->valid)
        return 0;
    for (uint32_t j = s->cand_off[p]; j < s->cand_off[p + 1] && !joint_greedy_test_stale; j++)
        if (g->qchg[s->cand[j]] >= e)
            return 0;
    s->greedy_skipped++;
    return 1;
}

void joint_greedy_evaluated(joint *s, uint32_t p)
{
    struct joint_gfrz *g = s->gfrz;
    if (g && s->p.greedy_cut)
        g->peval[p] = ++g->tick;
}

void joint_greedy_moved(joint *s, uint32_t from, uint32_t to)
{
    struct joint_gfrz *g = s->gfrz;
    if (!g || !s->p.greedy_cut)
        return;
    ++g->tick;
    if (from != NONE)
        g->qchg[from] = g->tick;
    if (to != NONE)
        g->qchg[to] = g->tick;
}

void joint_greedy_free(joint *s)
{
    if (!s->gfrz)
        return;
    free(s->gfrz->peval);
    free(s->gfrz->qchg);
    free(s->gfrz);
    s->gfrz = NULL;
}
