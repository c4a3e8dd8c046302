/*
 * joint_reunp.c - without call ids, under loss: the re-pairing of a link
 * also decides which of its calls stay without a return (docs/joint/loss.md,
 * "Which calls keep no return: decided by the re-pairing").
 *
 * The alignment (joint_align.c) decides how many calls of a link lost
 * their return and which ones, by an in-order model of the link's
 * durations.  On a link whose callee answers far out of arrival order
 * (a front end serving requests in parallel) that choice is nearly
 * random, and the re-pairing (joint_repair.c) must give every other call
 * a return: a call whose return was truly lost takes another call's
 * return when its latest possible end comes, that call takes the next
 * one's, and the shift runs on until it meets the call the alignment
 * left without a return.  One lost return costs a chain of requests that
 * lost nothing.
 *
 * Here (`-s reunp=1`, default off), on a link whose callee calls on (a
 * leaf's response cost is its duration alone, which the alignment already
 * weighed), before the re-pairing's greedy, each call of the link the
 * alignment left without a return (a half call) is weighed against the
 * full calls received near it (the JOINT_REUNP_NEAR calls before and
 * after it on the callee's clock): the link's greedy pairing is run with
 * the two calls' roles exchanged (the full call left without a return,
 * the half call in the pairing), and the exchange is kept when the
 * pairing's summed response cost (-log density of each return's delay
 * from its call's trigger, the re-pairing's own cost) falls by more than
 * the likelihood-ratio margin (uncross_min, 1.92 nats: 95 %).  The count
 * of calls without a return stays the alignment's; only which ones
 * changes.  Work: per half call 2 x JOINT_REUNP_NEAR greedy runs, each
 * started from the unchanged run's open calls where the earlier of the two
 * calls arrives (rebuilt from the oldest call then open) and stopped where
 * it meets the unchanged run again (same open calls at the same return);
 * a link's steps and rebuilds are capped at JOINT_REUNP_WORK per call of
 * the link (s->reunp_capped counts the half calls not weighed, said on
 * stderr), so the work is linear in the link's calls.  Without loss no
 * link has a half call: nothing runs.
 */
#include "joint_int.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

#define NONE JOINT_NONE
#define RU_INF 50.0 /* nats for a return no open call can send (cost INFINITY) */

/* the re-pairing's greedy over calls C[0..nc) (sorted by receipt) and the
 * returns R[0..nr) (sent at rsv, received at rrv, in send order): total
 * cost; to[k] = index into C of return k's call.  From step k0 with the
 * open list open[0..*nopen) and the next call ci: the caller passes the
 * state.  stop: the unchanged run's open-set signatures per step (or
 * NULL); at a step where the signature and size agree, the run stops and
 * *resync = that step.  *steps counts the steps run. */
typedef struct ru_run {
    uint64_t *sig;  /* per step: signature of the open set before the pick */
    uint32_t *nop;  /* per step: its size */
    double *cum;    /* per step: cost of the steps before it */
    uint32_t *ci;   /* per step: calls drawn before it */
    uint32_t *step; /* per pair: the step that gave it a return, or NONE */
    uint32_t *lo;   /* per step: draw index of the oldest call open after it */
    uint32_t *dix;  /* per pair: its draw index */
} ru_run;

static uint64_t ru_mix(uint32_t p)
{
    uint64_t x = (uint64_t)p * 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    return x * 0xBF58476D1CE4E5B9ull;
}

/* the re-pairing's cost of return t (received at rr) as the response of
 * c (joint_response_cost), except that a call of c returning after t does
 * not forbid it: that call is taken to be another request's.  The search
 * gave the calls their requests while the half calls' ends were open, so
 * a call left without a return has absorbed calls of its neighbours (the
 * hand-worked test: a one-call request holds its neighbour's fourth call,
 * which returns after its own answer); the strict cost would then keep
 * every exchange out.  Nothing is charged for the call set aside (a charge
 * of 2 or 5 nats kept the hand-worked case wrong). */
static double ru_cost(joint *s, uint32_t c, pb_ns t, pb_ns rr)
{
    return joint_response_cost_relaxed(s, c, t, rr, 1);
}

static double ru_greedy(joint *s, const insort *C, uint32_t nc, const pb_ns *rsv,
                        const pb_ns *rrv, uint32_t nr, uint32_t *open, uint32_t nopen,
                        uint32_t ci, uint32_t k0, ru_run *rec, const ru_run *ref,
                        uint32_t *resync, size_t *steps)
{
    double tot = 0;
    uint64_t sig = 0;
    for (uint32_t j = 0; j < nopen; j++)
        sig += ru_mix(open[j]);
    *resync = nr;
    for (uint32_t k = k0; k < nr; k++) {
        pb_ns t = rsv[k];
        if (rec)
            rec->ci[k] = ci;
        while (ci < nc && C[ci].t <= t) {
            sig += ru_mix(C[ci].p);
            if (rec)
                rec->dix[C[ci].p] = ci;
            open[nopen++] = C[ci++].p;
        }
        if (nopen == 0 && ci < nc) {
            sig += ru_mix(C[ci].p);
            if (rec)
                rec->dix[C[ci].p] = ci;
            open[nopen++] = C[ci++].p;
        }
        if (rec) {
            rec->sig[k] = sig;
            rec->nop[k] = nopen;
            rec->cum[k] = tot;
        }
        if (ref && k > k0 && ref->sig[k] == sig && ref->nop[k] == nopen) {
            *resync = k;
            return tot;
        }
        (*steps)++;
        if (nopen == 0) {
            if (rec)
                rec->lo[k] = ci;
            continue;
        }
        uint32_t pick = NONE;
        double cost = 0;
        for (uint32_t j = 0; j < nopen && pick == NONE; j++)
            if (s->qend[open[j]] <= t) {
                pick = j;
                cost = ru_cost(s, open[j], t, rrv[k]);
            }
        if (pick == NONE) {
            cost = INFINITY;
            for (uint32_t j = 0; j < nopen; j++) {
                double v = ru_cost(s, open[j], t, rrv[k]);
                if (v < cost) {
                    cost = v;
                    pick = j;
                }
            }
        }
        if (pick == NONE)
            pick = 0;
        tot += isfinite(cost) ? cost : RU_INF;
        if (rec)
            rec->step[open[pick]] = k;
        sig -= ru_mix(open[pick]);
        memmove(open + pick, open + pick + 1, (size_t)(nopen - pick - 1) * sizeof *open);
        nopen--;
        if (rec)
            rec->lo[k] = nopen ? rec->dix[open[0]] : ci;
    }
    if (rec)
        rec->cum[nr] = tot;
    return tot;
}

static int ru_cmp(const void *a, const void *b)
{
    const insort *x = a, *y = b;
    return x->t < y->t ? -1 : x->t > y->t ? 1 : x->p < y->p ? -1 : x->p > y->p;
}

int joint_reunp_link(joint *s, uint32_t l, insort *C, uint32_t nc, const pb_ns *rsv,
                     const pb_ns *rrv, uint32_t *demoted, uint32_t *ndemoted)
{
    *ndemoted = 0;
    /* only where the callee calls on: a leaf's response cost is its
     * duration alone, the signal the alignment already weighed */
    uint32_t b = s->link_dst[l];
    if (s->out_off[b + 1] == s->out_off[b])
        return PB_OK;
    /* the link's half calls that the re-pairing could pair */
    uint32_t nh = 0;
    for (uint32_t i = s->bylink_off[l]; i < s->bylink_off[l + 1]; i++) {
        const jpair *x = &s->pr[s->bylink[i]];
        nh += x->ret == NONE && x->call != NONE &&
              (!s->p.callids || s->v.msgs[x->call].callid == PB_ID_NONE);
    }
    if (!nh || nc < 2)
        return PB_OK;
    uint32_t na = nc + nh;
    insort *A = malloc((size_t)na * sizeof *A), *W = calloc((size_t)na, sizeof *W);
    unsigned char *in = calloc((size_t)na, 1); /* per entry of A: in the pairing */
    uint32_t *open = malloc(((size_t)na + 1) * sizeof *open);
    ru_run base = {malloc(((size_t)nc + 1) * sizeof(uint64_t)),
                   malloc(((size_t)nc + 1) * sizeof(uint32_t)),
                   malloc(((size_t)nc + 1) * sizeof(double)),
                   malloc(((size_t)nc + 1) * sizeof(uint32_t)),
                   malloc(((size_t)s->npairs + 1) * sizeof(uint32_t)),
                   malloc(((size_t)nc + 1) * sizeof(uint32_t)),
                   malloc(((size_t)s->npairs + 1) * sizeof(uint32_t))};
    int rc = PB_OK;
    if (!A || !W || !in || !open || !base.sig || !base.nop || !base.cum || !base.ci ||
        !base.step || !base.lo || !base.dix) {
        rc = PB_ENOMEM;
        goto done;
    }
    uint32_t m = 0;
    for (uint32_t i = 0; i < nc; i++)
        A[m++] = C[i];
    for (uint32_t i = s->bylink_off[l]; i < s->bylink_off[l + 1]; i++) {
        uint32_t p = s->bylink[i];
        const jpair *x = &s->pr[p];
        if (x->ret == NONE && x->call != NONE &&
            (!s->p.callids || s->v.msgs[x->call].callid == PB_ID_NONE))
            A[m++] = (insort){x->cr, p};
    }
    for (uint32_t i = 0; i < nc; i++)
        in[i] = 1;
    /* A sorted by receipt; `in` follows the entries */
    {
        unsigned char *tag = calloc(s->npairs + 1, 1);
        if (!tag) {
            rc = PB_ENOMEM;
            goto done;
        }
        for (uint32_t i = 0; i < nc; i++)
            tag[A[i].p] = 1;
        pb_sort(A, na, sizeof *A, ru_cmp);
        for (uint32_t i = 0; i < na; i++)
            in[i] = tag[A[i].p];
        free(tag);
    }
    size_t budget = (size_t)JOINT_REUNP_WORK * na, steps = 0;
    uint32_t resync;
#define RU_BUILD(dst, cnt)                                                        \
    do {                                                                          \
        cnt = 0;                                                                  \
        for (uint32_t q = 0; q < na; q++)                                         \
            if (in[q])                                                            \
                dst[cnt++] = A[q];                                                \
    } while (0)
    uint32_t nw;
    RU_BUILD(W, nw);
    for (uint32_t q = 0; q < na; q++)
        base.step[A[q].p] = NONE;
    (void)ru_greedy(s, W, nw, rsv, rrv, nc, open, 0, 0, 0, &base, NULL, &resync,
                            &steps);
    for (uint32_t hi = 0; hi < na; hi++) {
        if (in[hi])
            continue;
        if (steps > budget) {
            s->reunp_capped++;
            continue;
        }
        uint32_t lo = hi > JOINT_REUNP_NEAR ? hi - JOINT_REUNP_NEAR : 0;
        uint32_t up = hi + JOINT_REUNP_NEAR < na ? hi + JOINT_REUNP_NEAR : na - 1;
        double best = -s->p.uncross_min;
        uint32_t by = NONE;
        for (uint32_t yi = lo; yi <= up; yi++) {
            if (!in[yi])
                continue;
            in[hi] = 1;
            in[yi] = 0;
            RU_BUILD(W, nw);
            in[hi] = 0;
            in[yi] = 1;
            /* the run is unchanged until the earlier of the two calls opens */
            pb_ns t0 = A[hi].t < A[yi].t ? A[hi].t : A[yi].t;
            uint32_t k0 = 0;
            while (k0 < nc && rsv[k0] < t0)
                k0++;
            /* the unchanged run's open calls at step k0 (none of the two is
             * open yet, so the calls drawn before it are the same) */
            uint32_t nopen = 0, ci = k0 < nc ? base.ci[k0] : nw;
            /* from the oldest call still open after step k0 - 1 (the open
             * list keeps the order of the draws) */
            uint32_t q0 = k0 > 0 ? base.lo[k0 - 1] : 0;
            for (uint32_t q = q0; q < ci && q < nw; q++)
                if (base.step[W[q].p] == NONE || base.step[W[q].p] >= k0)
                    open[nopen++] = W[q].p;
            steps += ci > q0 ? ci - q0 : 0;
            double c = ru_greedy(s, W, nw, rsv, rrv, nc, open, nopen, ci, k0, NULL, &base,
                                 &resync, &steps);
            double d = c - (base.cum[resync] - base.cum[k0]);
            if (d < best) {
                best = d;
                by = yi;
            }
        }
        if (by != NONE) {
            in[hi] = 1;
            in[by] = 0;
            s->reunp_moved++;
            RU_BUILD(W, nw);
            for (uint32_t q = 0; q < na; q++)
                base.step[A[q].p] = NONE;
            (void)ru_greedy(s, W, nw, rsv, rrv, nc, open, 0, 0, 0, &base, NULL, &resync,
                             &steps);
        }
    }
    {
        /* the full calls now left without a return; C: the calls in the pairing */
        unsigned char *was = calloc(s->npairs + 1, 1);
        if (!was) {
            rc = PB_ENOMEM;
            goto done;
        }
        for (uint32_t i = 0; i < nc; i++)
            was[C[i].p] = 1;
        for (uint32_t q = 0; q < na; q++)
            if (!in[q] && was[A[q].p])
                demoted[(*ndemoted)++] = A[q].p;
        free(was);
        if (*ndemoted) {
            uint32_t k = 0;
            for (uint32_t q = 0; q < na; q++)
                if (in[q])
                    C[k++] = A[q];
        }
    }
#undef RU_BUILD
done:
    free(A);
    free(W);
    free(in);
    free(open);
    free(base.sig);
    free(base.nop);
    free(base.cum);
    free(base.ci);
    free(base.step);
    free(base.lo);
    free(base.dix);
    return rc;
}
