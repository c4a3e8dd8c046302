/*
 * joint_lserial.c - calls sent while another call of the same request is
 * still out, as a term of the model under loss with call ids
 * (loss_serial; docs/joint/loss.md, "Loss with call ids: a request's
 * calls one at a time"; issue 28, "Robust to loss").
 *
 * The walk scores each output by its delay from its trigger (the latest
 * return before it); nothing in it says whether the request had another
 * call out when it sent the output.  Without loss every output's true
 * trigger is there and the delays keep each request's chain of calls in
 * place.  When a return is lost, its request's next call has no trigger
 * left in it, and the search gives that call (and the chain after it) to
 * a neighbour that received some return just before -- even when the
 * neighbour has a call of its own out at that moment.  Counted against
 * the truth (evaluation only) on OnlineBoutique and the synthetic class
 * with call ids at 2 % loss: the front end never sends a call while
 * another call of its request is out (0 of about 4,400 consecutive calls
 * per trace), yet most of the calls an untouched request wrongly holds
 * (49 of 56, 88 of 91 on two draws) overlap one of its own.
 *
 * So, per outgoing link l, a Bernoulli: is an output on l sent while an
 * earlier call of its request (whose return is known) has not returned?
 * Its rate is learned at each refit from the current solution (counts
 * over every request's calls, (k + 1/2) / (n + 1), at most 1/2), and each output adds
 * log p or log (1 - p) to its request's walk (walk_rest, walk_rest_est:
 * O(calls)).  A link whose calls genuinely overlap learns a high rate and
 * costs nothing; a serial one makes a stacked call cost about log of its
 * rate.  Used only where uncross is (half pairs, every pair by call id),
 * so a trace that lost nothing is scored as before, byte for byte.
 *
 * Without loss (loss_serial=3|4, with call ids): the same term, but only on
 * the links a test on the solution calls serial -- the outputs that
 * overlap an earlier call of their request are at most a quarter of what
 * the requests' busy fractions (the share of each request's interval
 * during which one of its calls is out) would give if calls were
 * ascribed without regard to order, with a binomial z under -3; other
 * links (parallel fan-outs, asynchronous calls) are not priced.  3 prices
 * a serial link at the learned rate, 4 as if none of its outputs
 * overlapped (docs/joint/loss.md, "Without loss").
 *
 * loss_serial=7|8 (joint_lser_wanted, joint_lser_choose[_x]): the term
 * only guides a second search, whose solution is kept when the model
 * without the term prefers it: 7 in sample by 10 nats, 8 (the default)
 * cross-fitted over two halves of units of requests, on both halves and
 * by a paired z over the units or a sign test over the walks that changed
 * (docs/joint/loss.md, "Decided per trace"); 8 runs the second search
 * only where the gate passes (lser_gate: "The second search gated").
 */
#include "joint_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE

/* is the term used on this trace: the option, half pairs (loss_serial=1),
 * every pair by call id */
/* loss_serial=7 runs as 1 (the term under loss only); without loss the
 * check (joint_lser_choose) then decides whether a second search at 4 is
 * kept */
static int lser_mode(const joint *s)
{
    if (s->lser_bb) /* bb_serial (joint_bbser.c): without call ids */
        return s->p.bb_serial;
    return s->p.loss_serial >= 7 ? 1 : s->p.loss_serial;
}

static int lser_applies(const joint *s)
{
    /* 2: with call ids whether or not a message was lost (measured, not a
     * default); 3, 4: as 1 under loss, and without loss on the links the
     * serial test (joint_lser_fit) calls one at a time */
    if (s->lser_bb) /* bb_serial (joint_bbser.c), decided just before */
        return 1;
    return lser_mode(s) && (lser_mode(s) >= 2 || s->halves_call + s->halves_ret) &&
           !joint_any_free(s);
}

/* the fraction of request q's own interval (its call received .. its
 * return sent) during which one of its calls k[0..n) is out: where a call
 * sent at a random moment of q would land on one of q's own calls, the
 * overlap rate the serial test expects if calls were ascribed to requests
 * without regard to their order.  -1 when q's interval is unknown */
static double lser_busy(const joint *s, uint32_t q, const uint32_t *k, uint32_t n)
{
    const jpair *p = &s->pr[q];
    if (p->call == NONE || p->ret == NONE || p->rs <= p->cr)
        return -1;
    pb_ns busy = 0, a = INT64_MIN, b = INT64_MIN; /* the union, interval by interval */
    for (uint32_t i = 0; i < n; i++) {
        const jpair *o = &s->pr[k[i]];
        if (o->call == NONE || o->ret == NONE)
            continue;
        pb_ns x = o->cs < p->cr ? p->cr : o->cs, y = o->rr > p->rs ? p->rs : o->rr;
        if (y <= x)
            continue;
        if (x > b) {
            busy += b - a;
            a = x;
            b = y;
        } else if (y > b) {
            b = y;
        }
    }
    busy += b - a; /* 0 when no interval */
    return (double)busy / (double)(p->rs - p->cr);
}

/* the overlap of each output of k[0..n) (sorted by call time): f(l, ov)
 * for every output on link l with an earlier call whose return is known */
#define LSER_SCAN(s, k, n, BODY)                                                   \
    do {                                                                           \
        pb_ns mr_ = INT64_MIN;                                                     \
        for (uint32_t i_ = 0; i_ < (n); i_++) {                                    \
            const jpair *o_ = &(s)->pr[(k)[i_]];                                   \
            if (o_->call == NONE)                                                  \
                continue;                                                          \
            if (mr_ != INT64_MIN) {                                                \
                uint32_t l = o_->link;                                             \
                int ov = mr_ > o_->cs;                                             \
                BODY;                                                              \
            }                                                                      \
            if (o_->ret != NONE && o_->rr > mr_)                                   \
                mr_ = o_->rr;                                                      \
        }                                                                          \
    } while (0)

/* the counts of the serial test and of the rate over the requests walked
 * (only): per link k[2l] outputs with an earlier call of their request
 * (return known), k[2l+1] of them overlapping one, p0[l] the busy
 * fractions summed (when test) */
static void lser_count(const joint *s, const unsigned char *only, int test, double *k,
                       double *p0)
{
    memset(k, 0, (size_t)2 * s->nlinks * sizeof *k);
    memset(p0, 0, (size_t)s->nlinks * sizeof *p0);
    for (uint32_t q = 0; q < s->npairs; q++) {
        if (only && !only[q])
            continue;
        double bq = test ? lser_busy(s, q, s->kids[q].a, s->kids[q].n) : 0;
        LSER_SCAN(s, s->kids[q].a, s->kids[q].n, {
            k[2 * l] += 1;
            k[2 * l + 1] += ov;
            p0[l] += bq < 0 ? 1 : bq; /* unknown interval: expect overlap (no evidence) */
        });
    }
}

/* the serial test (loss_serial=3|4|7, without loss): the link's
 * overlapping outputs far under what its requests' busy fractions would
 * give if its calls were ascribed without regard to order -- at most a
 * quarter of the expected count, and a binomial z under -3 (normal
 * approximation), over at least 20 outputs (a parallel fan-out overlaps
 * as often as chance or more).  *tested: 1 when it had 20 outputs */
static int lser_is_serial(const double *k, const double *p0, uint32_t l, int *tested,
                          double bound)
{
    double n = k[2 * l], e = p0[l], z = 0;
    *tested = n >= 20;
    if (n >= 20 && e > 0 && e < n) {
        z = (k[2 * l + 1] - e) / sqrt(e * (1 - e / n));
        /* bound: 1/4, or loss_serial_under's wider one (joint_lserunder.c) */
        return k[2 * l + 1] <= bound * e && z < -3;
    }
    return 0;
}

int joint_lser_fit(joint *s, const unsigned char *only)
{
    if (!s->lser_on) {
        if (!s->lser_checked)
            s->lser_bb = joint_bbser_applies(s); /* bb_serial (joint_bbser.c) */
        if (s->lser_checked || !(s->lser_checked = 1, lser_applies(s)))
            return PB_OK;
        s->lser_lp = calloc((size_t)2 * s->nlinks + 2, sizeof *s->lser_lp);
        s->lser_k = calloc((size_t)2 * s->nlinks + 2, sizeof *s->lser_k);
        s->lser_p0 = calloc((size_t)s->nlinks + 1, sizeof *s->lser_p0);
        if (!s->lser_lp || !s->lser_k || !s->lser_p0)
            return PB_ENOMEM;
        s->lser_on = 1;
    }
    double *k = s->lser_k; /* per link: outputs counted, of them overlapping */
    double *p0 = s->lser_p0; /* per link: the busy fractions summed (serial test) */
    /* loss_serial=3|4 without loss: the test decides which links are priced */
    int test = lser_mode(s) >= 3 && !(s->halves_call + s->halves_ret);
    lser_count(s, only, test, k, p0);
    s->lser_tested = s->lser_serial = 0;
    for (uint32_t l = 0; l < s->nlinks; l++) {
        /* at most one half: a rate above it (learned from a start that
         * stacks calls, e.g. two requests' chains interleaved by rank)
         * would reward stacking; at one half the term is neutral, and it
         * only ever prices a link the solution shows mostly one at a time */
        double p = (k[2 * l + 1] + 0.5) / (k[2 * l] + 1.0);
        if (p > 0.5)
            p = 0.5;
        if (test) {
            int tested = 0,
                ser = lser_is_serial(k, p0, l, &tested, joint_lserunder_bound(s));
            s->lser_tested += tested;
            s->lser_serial += ser;
            if (!ser) {
                s->lser_lp[2 * l] = s->lser_lp[2 * l + 1] = 0;
                continue;
            }
            /* 4: the rate as if none of the link's outputs overlapped.  The
             * learned rate counts the stacks the search already made (OB
             * 06:35: 8 % learned, truth 0), which lowers the price of the
             * next one; the test has said the link is serial, so a stack
             * is priced as the first overlap in n + 1 outputs would be */
            if (lser_mode(s) == 4)
                p = 0.5 / (k[2 * l] + 1);
        }
        s->lser_lp[2 * l] = log(1 - p);
        s->lser_lp[2 * l + 1] = log(p);
    }
    s->lser_fits++;
    return PB_OK;
}

/* ------------------------------------------------------------------ */
/* loss_serial=7: the serial term without loss decided per trace.
 *
 * loss_serial=4 gains where the search stacks a neighbour's calls onto a
 * request whose own call is out (OnlineBoutique with call ids, the
 * synthetic repeat class), and loses where the link's calls genuinely
 * overlap now and then (retried calls: about 1 in 6, under a quarter of
 * the busy fractions, so the test calls the link serial) and on a serial
 * truth it does not help (heavytail: both solutions without a single
 * overlapping call, the term changed the search's path).  So the term
 * only guides a second search: its solution is kept when the model
 * without the term (delays, counts, durations; each solution under its
 * own refit) finds it likelier by more than JOINT_RESTART_MARGIN nats --
 * the term found a solution the model prefers and the term-free search
 * could not reach.  Where the term's solution is bought against the
 * model (the retries' overlaps pushed apart) it is dropped.  Tried and
 * dropped: a copy of the trace inferred with and without the term
 * (as reunp=2), from either search's solution (docs/joint/loss.md).
 * Only where the term could act: call ids on every pair, no half pair,
 * and the serial test calls some link of the solution serial. */

/* the top-level request of pair q under par (q itself in a cycle) */
static uint32_t lser_root(const uint32_t *par, uint32_t q, uint32_t n)
{
    uint32_t j = q, steps = 0;
    while (par[j] != NONE && steps++ < n)
        j = par[j];
    return par[j] == NONE ? j : q;
}

/* the serial links of s's solution (the test of loss_serial=3|4): ser[l]
 * 1 when serial; the number of them, or -1 without memory */
int joint_lser_serial_links(joint *s, unsigned char *ser)
{
    double *k = calloc((size_t)2 * s->nlinks + 2, sizeof *k);
    double *p0 = calloc((size_t)s->nlinks + 1, sizeof *p0);
    int n = 0;
    s->lsu_links = 0; /* loss_serial_under's record: this solution's test */
    if (k && p0) {
        lser_count(s, NULL, 1, k, p0);
        for (uint32_t l = 0; l < s->nlinks; l++) {
            int tested = 0;
            ser[l] = (unsigned char)lser_is_serial(k, p0, l, &tested, joint_lserunder_bound(s));
            n += ser[l];
            /* loss_serial_under (joint_lserunder.c): serial by the wider bound alone */
            if (ser[l] && !lser_is_serial(k, p0, l, &tested, 0.25))
                joint_lserunder_note(s, k[2 * l + 1] / p0[l]);
        }
    } else {
        n = -1;
    }
    free(k);
    free(p0);
    return n;
}

/* the stacks of s's solution: st[o] = 1 for each output o on a serial
 * link (ser) sent while an earlier call of its request (return known) is
 * out -- what the term prices and the term-free search left.  *nout: the
 * outputs on serial links with an earlier call (the test's n) */
size_t joint_lser_stacks(const joint *s, const unsigned char *ser, unsigned char *st,
                         size_t *nout)
{
    size_t k = 0, n = 0;
    memset(st, 0, (size_t)s->npairs + 1);
    for (uint32_t q = 0; q < s->npairs; q++) {
        const uint32_t *a = s->kids[q].a;
        uint32_t na = s->kids[q].n;
        pb_ns mr = INT64_MIN;
        for (uint32_t i = 0; i < na; i++) {
            const jpair *o = &s->pr[a[i]];
            if (o->call == NONE)
                continue;
            if (mr != INT64_MIN && ser[o->link]) {
                n++;
                if (mr > o->cs) {
                    st[a[i]] = 1;
                    k++;
                }
            }
            if (o->ret != NONE && o->rr > mr)
                mr = o->rr;
        }
    }
    *nout = n;
    return k;
}

/* loss_serial=8's gate: the share of s's top-level requests with a call
 * on a serial link that hold a stacked call there (sent while an earlier
 * call of the request is out).  The term prices only those stacks, and
 * only the stacks' requests can gain from it on principle: a request with
 * none in either solution has the same term under both, so where its
 * calls move, the term changed the search's path, not the objective
 * (h122's heavytail; test_joint_tiecross's dispatch trace at 1 ms with
 * subtick=off: 32 of 503 requests stacked, yet 114 units differ, 87 of
 * them without a stack, and the term-free model, flattened by the ties,
 * prefers them: likelier and wrong).  So the second search runs only
 * where at least loss_serial_gate of the requests hold a stack.  Records
 * the counts in s; 1 when it passes, 0 not, -1 without memory */
static int lser_gate(joint *s, const unsigned char *ser)
{
    uint32_t n = s->npairs;
    unsigned char *st = malloc((size_t)n + 1), *rq = calloc((size_t)n + 1, 1);
    if (!st || !rq) {
        free(st);
        free(rq);
        return -1;
    }
    size_t nout = 0;
    joint_lser_stacks(s, ser, st, &nout);
    for (uint32_t q = 0; q < n; q++) {
        if (s->par[q] == NONE || !ser[s->pr[q].link])
            continue;
        uint32_t r = lser_root(s->par, q, n);
        rq[r] |= (unsigned char)(1 | (st[q] ? 2 : 0));
    }
    size_t req = 0, stk = 0;
    for (uint32_t q = 0; q < n; q++) {
        req += rq[q] != 0;
        stk += (rq[q] & 2) != 0;
    }
    free(st);
    free(rq);
    s->lser_g_req = req;
    s->lser_g_stacked = stk;
    int pass = req > 0 && (double)stk >= s->p.loss_serial_gate * (double)req;
    s->lser_gate = pass ? 1 : 2;
    return pass;
}

int joint_lser_wanted(joint *s)
{
    if (s->p.bb_serial == 7) { /* without call ids (joint_bbser.c); else as below */
        int n = joint_bbser_wanted(s);
        if (n != 0)
            return n;
    }
    if ((s->p.loss_serial != 7 && s->p.loss_serial != 8) || s->halves_call + s->halves_ret || joint_any_free(s))
        return 0;
    unsigned char *ser = calloc((size_t)s->nlinks + 1, 1);
    int n = ser ? joint_lser_serial_links(s, ser) : -1;
    if (n > 0 && s->p.loss_serial == 8) {
        int g = lser_gate(s, ser);
        n = g < 0 ? -1 : g ? n : 0;
    }
    free(ser);
    return n;
}

/* joint_loglik of s without the term */
static double lser_loglik(joint *s)
{
    int on = s->lser_on;
    s->lser_on = 0;
    double v = joint_loglik(s);
    s->lser_on = on;
    return v;
}

/* where the term prices links a test calls serial without loss (3, 4: the
 * second search of 7|8) it only guides the search; a choice between two
 * whole solutions inside that search (the tie test's start against the
 * search, tie_cross's restored moves) is the model's without it.  With the
 * term in, the rank start -- which stacks calls where ties hide the order
 * -- pays the term for every stack, and the tie test's per-move gain
 * crossed its level on that alone (test_joint_tiecross's dispatch trace at
 * 1 ms, subtick=off: 1.91 nats per move term-free, 2.70 with the term;
 * the term's search then kept the search, within-tick moves the tie test
 * exists to refuse, and the cross-fitted check, which cannot refute them
 * either, took it: exact 0.336 -> 0.318) */
double joint_lser_choice_ll(joint *s)
{
    if (s->lser_on && lser_mode(s) >= 3 && !(s->halves_call + s->halves_ret))
        return lser_loglik(s);
    return joint_loglik(s);
}

int joint_lser_choose(joint *s, joint *t, int nser)
{
    double l0 = lser_loglik(s), l1 = lser_loglik(t);
    int take = l1 > l0 + JOINT_RESTART_MARGIN;
    joint *k = take ? t : s;
    if (take)
        joint_reunp_adopt(t, s); /* the records of every choice before */
    k->lser_ck = take ? 2 : 1;
    k->lser_ck_links = (size_t)nser;
    k->lser_ck_ll[0] = l0;
    k->lser_ck_ll[1] = l1;
    return take;
}

/* loss_serial=8: the one-sided 95 % point of the normal, for the paired
 * z of the per-request cross-fitted gains (a named level, not a margin in
 * nats: it does not grow or shrink with the trace) */
#define JOINT_LSER_XZ 1.6449

/* the cross-fitted log-likelihood of x's solution without the term, per
 * pair into per[] and per half into h2[2]; x refitted to all after */
static int lser_xll(joint *x, const unsigned char *half, unsigned char *only, double *per,
                    double h2[2])
{
    int on = x->lser_on;
    x->lser_on = 0;
    double tot = 0;
    int rc = joint_ux_heldout(x, half, only, &tot, per);
    x->lser_on = on;
    if (rc == PB_OK)
        rc = joint_fit(x, NULL);
    h2[0] = h2[1] = 0;
    if (rc == PB_OK)
        for (uint32_t q = 0; q < x->npairs; q++)
            h2[half[q]] += per[q];
    return rc;
}

static uint32_t lser_find(uint32_t *u, uint32_t x)
{
    while (u[x] != x) {
        u[x] = u[u[x]];
        x = u[x];
    }
    return x;
}

/* the units of the comparison: the requests of s's and t's solutions
 * joined wherever a pair sits in one request of each (a call one search
 * gave to a neighbour joins the two), so that a unit holds the same pairs
 * under both solutions.  grp[q] the unit's ordinal (in pair order of its
 * first pair), half[q] its parity: the two solutions are cross-fitted on
 * the same halves, and no call that moved between them straddles two.
 * Dealing s's top-level requests alone (as uncross_check) would put two
 * neighbours that exchanged calls in opposite halves, so each half's
 * gain would hold one side of every exchange. */
static void lser_units(uint32_t n, const uint32_t *par0, const uint32_t *par1,
                       unsigned char *half, uint32_t *u, uint32_t *grp)
{
    for (uint32_t q = 0; q < n; q++)
        u[q] = q;
    for (uint32_t q = 0; q < n; q++) {
        uint32_t a = lser_find(u, q);
        uint32_t b = lser_find(u, lser_root(par0, q, n));
        if (a != b)
            u[a > b ? a : b] = a > b ? b : a;
        a = lser_find(u, q);
        b = lser_find(u, lser_root(par1, q, n));
        if (a != b)
            u[a > b ? a : b] = a > b ? b : a;
    }
    uint32_t k = 0;
    for (uint32_t q = 0; q < n; q++)
        grp[q] = NONE;
    for (uint32_t q = 0; q < n; q++) {
        uint32_t r = lser_find(u, q);
        if (grp[r] == NONE)
            grp[r] = k++;
        grp[q] = grp[r];
    }
    for (uint32_t q = 0; q < n; q++)
        half[q] = (unsigned char)(grp[q] & 1);
}

/* the outcome of the cross-fitted comparison: per half the held-out
 * log-likelihoods of the first (a) and second (b) solution, the units'
 * paired z, the changed walks, those the second made likelier, the sign z */
typedef struct {
    double a[2], b[2], z, sz;
    size_t nw, nwg;
} lser_xres;

/* the cross-fitted comparison of two solutions: par0 (x0's, term-free)
 * and par1 (x1's, the term's search).  x0 == x1 (loss_serial_win: one
 * solution searched in place): x holds par1 on entry and par0 on return,
 * each scored under its own term setting (x->lser_on as on entry for
 * par1, off for par0, as the two searches of the whole second search
 * were) and refitted after.  PB_OK or PB_ENOMEM */
static int lser_xcmp(joint *x0, joint *x1, const uint32_t *par0, const uint32_t *par1,
                     lser_xres *r)
{
    uint32_t n = x0->npairs;
    unsigned char *half = malloc((size_t)n + 1), *only = malloc((size_t)n + 1);
    uint32_t *tmp = malloc(((size_t)n + 1) * sizeof *tmp);
    uint32_t *grp = malloc(((size_t)n + 1) * sizeof *grp);
    double *p0 = malloc(((size_t)n + 1) * sizeof *p0), *p1 = malloc(((size_t)n + 1) * sizeof *p1);
    double *g = calloc((size_t)n + 1, sizeof *g);
    unsigned char *chg = calloc((size_t)n + 1, 1);
    memset(r, 0, sizeof *r);
    int rc = half && only && tmp && grp && p0 && p1 && g && chg && x1->npairs == n ? PB_OK
                                                                                  : PB_ENOMEM;
    if (rc == PB_OK) {
        lser_units(n, par0, par1, half, tmp, grp);
        rc = lser_xll(x1, half, only, p1, r->b);
    }
    if (rc == PB_OK && x0 == x1) {
        x0->lser_on = 0;
        rc = joint_ux_set_all(x0, par0);
    }
    if (rc == PB_OK)
        rc = lser_xll(x0, half, only, p0, r->a);
    uint32_t ng = 0;
    if (rc == PB_OK) {
        /* paired over the units: each one's pairs' gain */
        for (uint32_t q = 0; q < n; q++) {
            uint32_t u = grp[q] == NONE ? 0 : grp[q];
            g[u] += p1[q] - p0[q];
            if (u + 1 > ng)
                ng = u + 1;
        }
        double sum = 0, ss = 0;
        for (uint32_t u = 0; u < ng; u++) {
            sum += g[u];
            ss += g[u] * g[u];
        }
        double var = ng > 1 ? (ss - sum * sum / ng) / (ng - 1) : 0;
        r->z = var > 0 ? sum / sqrt(var * ng) : 0;
        /* the sign test over the walks that changed (a pair whose calls
         * differ between the two solutions): the units' z is diluted where
         * one giant unit holds the whole gain (pool x2 ns: one unit of 170
         * differs, +13,249 nats, z 1.01), so the units are split at the
         * moved calls -- each changed walk an item, gained or not, one-sided
         * at the same level (normal approximation, continuity corrected).
         * A move takes a call from one walk to another, so where the model
         * is indifferent the two sides gain and lose alike.  A walk
         * changed where a call's parent differs (the calls of a walk are
         * kept sorted, so equal sets are equal walks) */
        for (uint32_t p = 0; p < n; p++)
            if (par0[p] != par1[p]) {
                if (par0[p] != NONE)
                    chg[par0[p]] = 1;
                if (par1[p] != NONE)
                    chg[par1[p]] = 1;
            }
        for (uint32_t q = 0; q < n; q++)
            if (chg[q]) {
                r->nw++;
                r->nwg += p1[q] > p0[q];
            }
        r->sz = r->nw ? (2.0 * (double)r->nwg - (double)r->nw - 1) / sqrt((double)r->nw) : 0;
    }
    free(half);
    free(only);
    free(tmp);
    free(grp);
    free(p0);
    free(p1);
    free(g);
    free(chg);
    return rc;
}

/* the kept solution k records the check (and the gate, from s) */
static void lser_xrecord(joint *k, const joint *s, const lser_xres *r, int take, int nser)
{
    k->lser_ck = take ? 2 : 1;
    k->lser_ck_x = 1;
    k->lser_ck_links = (size_t)nser;
    k->lser_ck_ll[0] = r->a[0] + r->a[1];
    k->lser_ck_ll[1] = r->b[0] + r->b[1];
    k->lser_ck_h[0] = r->b[0] - r->a[0];
    k->lser_ck_h[1] = r->b[1] - r->a[1];
    k->lser_ck_z = r->z;
    k->lser_ck_walks = r->nw;
    k->lser_ck_wgain = r->nwg;
    k->lser_ck_sz = r->sz;
    k->lser_gate = s->lser_gate;
    k->lser_g_req = s->lser_g_req;
    k->lser_g_stacked = s->lser_g_stacked;
}

/* the rule: likelier on both halves, and the units' z or the sign z past
 * the one-sided 5 % point */
static int lser_xtake(const lser_xres *r)
{
    return r->b[0] > r->a[0] && r->b[1] > r->a[1] &&
           (r->z > JOINT_LSER_XZ || r->sz > JOINT_LSER_XZ);
}

int joint_lser_choose_x(joint *s, joint *t, int nser)
{
    lser_xres r;
    if (lser_xcmp(s, t, s->par, t->par, &r) != PB_OK)
        return -1;
    int take = lser_xtake(&r);
    joint *k = take ? t : s;
    if (take)
        joint_reunp_adopt(t, s);
    lser_xrecord(k, s, &r, take, nser);
    return take;
}

int joint_lser_choose_w(joint *s, const uint32_t *par0, int nser)
{
    uint32_t n = s->npairs;
    uint32_t *par1 = malloc(((size_t)n + 1) * sizeof *par1);
    if (!par1)
        return -1;
    memcpy(par1, s->par, (size_t)n * sizeof *par1);
    int on = s->lser_on;
    lser_xres r;
    int rc = lser_xcmp(s, s, par0, par1, &r), take = rc == PB_OK && lser_xtake(&r);
    if (rc == PB_OK && take) { /* the term's solution back, refitted with the term */
        s->lser_on = on;
        rc = joint_ux_set_all(s, par1);
        if (rc == PB_OK)
            rc = joint_fit(s, NULL);
    }
    free(par1);
    if (rc != PB_OK)
        return -1;
    lser_xrecord(s, s, &r, take, nser);
    return take;
}

double joint_lser_ll(const joint *s, const uint32_t *k, uint32_t n)
{
    double v = 0;
    LSER_SCAN(s, k, n, { v += s->lser_lp[2 * l + ov]; });
    return v;
}

int joint_lser_greedy_on(const joint *s)
{
    /* 2: only where the serial test prices links (without loss) */
    return s->lser_on && s->p.loss_serial_greedy &&
           !(s->p.loss_serial_greedy == 2 && (lser_mode(s) < 3 || s->halves_call + s->halves_ret));
}

double joint_lser_greedy(const joint *s, uint32_t p, uint32_t q)
{
    /* the term of q's calls with call p among them, less without it (as
     * LSER_SCAN: calls in call-time order, p put before the first call
     * sent after it), as a cost: p's own overlap and the overlaps p's
     * return makes for q's later calls */
    const jpair *pp = &s->pr[p];
    if (!joint_lser_greedy_on(s) || pp->call == NONE)
        return 0;
    const kvec *k = &s->kids[q];
    const double *lp = s->lser_lp;
    double with = 0, without = 0;
    pb_ns mw = INT64_MIN, mo = INT64_MIN;
    int in = 0;
    for (uint32_t i = 0; i <= k->n; i++) {
        const jpair *o = i < k->n ? &s->pr[k->a[i]] : NULL;
        if (o && (k->a[i] == p || o->call == NONE))
            continue;
        if (!in && (!o || o->cs > pp->cs)) {
            if (mw != INT64_MIN)
                with += lp[2 * pp->link + (mw > pp->cs)];
            if (pp->ret != NONE && pp->rr > mw)
                mw = pp->rr;
            in = 1;
        }
        if (!o)
            break;
        if (mw != INT64_MIN)
            with += lp[2 * o->link + (mw > o->cs)];
        if (mo != INT64_MIN)
            without += lp[2 * o->link + (mo > o->cs)];
        if (o->ret != NONE && o->rr > mw)
            mw = o->rr;
        if (o->ret != NONE && o->rr > mo)
            mo = o->rr;
    }
    return -(with - without);
}

int joint_lser_meta(const joint *s, pb_result *res)
{
    if (s->lser_gate) { /* loss_serial=8: why the second search ran or not */
        if (joint_lserunder_meta(s, res) != PB_OK) /* loss_serial_under (joint_lserunder.c) */
            return PB_ENOMEM;
        int rc = pb_result_meta(res, "loss_serial_gate=%s share=%.4f level=%.4f "
                                "stacked_requests=%zu requests=%zu",
                                s->lser_gate == 1 ? "ran" : "skipped",
                                s->lser_g_req ? (double)s->lser_g_stacked / (double)s->lser_g_req : 0,
                                s->p.loss_serial_gate, s->lser_g_stacked, s->lser_g_req);
        if (rc != PB_OK)
            return rc;
    }
    if (s->lsw_on) { /* loss_serial_win (joint_lserwin.c): the window searched */
        int rc = pb_result_meta(res, "loss_serial_window=%d window_requests=%zu "
                                "window_calls=%zu moves=%zu rounds=%d cycle_at=%d passes=%d",
                                s->p.loss_serial_win, s->lsw_win, s->lsw_calls, s->lsw_moves,
                                s->lsw_rounds, s->lsw_cycle, s->lsw_passes);
        if (rc != PB_OK)
            return rc;
    }
    if (s->lser_ck) { /* loss_serial=7: the check (before the term's own line) */
        int rc = s->lser_ck_x
            ? pb_result_meta(res, "loss_serial_check=crossfit serial_links=%zu "
                             "heldout_without=%.3f heldout_with=%.3f gain_half0=%.3f "
                             "gain_half1=%.3f z=%.3f walks_changed=%zu walks_gained=%zu "
                             "sign_z=%.3f z_min=%.4f chosen=%s", s->lser_ck_links,
                             s->lser_ck_ll[0], s->lser_ck_ll[1], s->lser_ck_h[0],
                             s->lser_ck_h[1], s->lser_ck_z, s->lser_ck_walks,
                             s->lser_ck_wgain, s->lser_ck_sz, JOINT_LSER_XZ,
                             s->lser_ck == 2 ? "with" : "without")
            : pb_result_meta(res, "loss_serial_check=loglik serial_links=%zu "
                                "ll_without=%.3f ll_with=%.3f chosen=%s", s->lser_ck_links,
                                s->lser_ck_ll[0], s->lser_ck_ll[1],
                                s->lser_ck == 2 ? "with" : "without");
        if (rc != PB_OK)
            return rc;
    }
    if (joint_bbser_meta(s, res) != PB_OK) /* bb_serial (joint_bbser.c) */
        return PB_ENOMEM;
    if (!s->lser_on)
        return PB_OK;
    /* the links learned serial: overlapping outputs under 1 % of at least 20 */
    uint32_t ser = 0, capd = 0;
    double tot = 0, ovl = 0;
    for (uint32_t l = 0; l < s->nlinks; l++) {
        double n = s->lser_k[2 * l], o = s->lser_k[2 * l + 1];
        tot += n;
        ovl += o;
        ser += n >= 20 && o < 0.01 * n;
        capd += (o + 0.5) / (n + 1.0) > 0.5; /* priced at 1/2: neutral */
    }
    if (lser_mode(s) >= 3 && !(s->halves_call + s->halves_ret))
        return pb_result_meta(res, "loss_serial=test links_tested=%zu links_priced=%zu "
                              "outputs=%.0f overlapping=%.0f fits=%zu", s->lser_tested,
                              s->lser_serial, tot, ovl, s->lser_fits);
    return pb_result_meta(res, "loss_serial=on serial_links=%u capped_links=%u outputs=%.0f "
                          "overlapping=%.0f fits=%zu", ser, capd, tot, ovl, s->lser_fits);
}

void joint_lser_free(joint *s)
{
    free(s->lser_lp);
    free(s->lser_k);
    free(s->lser_p0);
    s->lser_lp = s->lser_k = s->lser_p0 = NULL;
}
