/* joint_test.h - what the joint unit tests share: joint's option defaults,
 * one message added to a trace under the next id (next_id: set it to 1 at
 * the start of a trace) and a random trace of one service with two callers
 * and two callees. */
#ifndef JOINT_TEST_H
#define JOINT_TEST_H

#include "joint.h"
#include "pb_trace.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <gsl/gsl_rng.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint64_t next_id;

/* joint's parameters at their defaults (the option table's) */
static inline joint_params defaults(void)
{
    joint_params p;
    pb_error err;
    memset(&p, 0, sizeof p);
    if (pb_opt_defaults(joint_options, &p, &err) != PB_OK)
        printf("FAIL defaults: %s\n", err.msg);
    return p;
}

/* one message at ts, no receipt stamp, no truth */
static inline void msg(pb_trace *t, pb_ns ts, const char *src, const char *dst,
                       pb_msg_type type, uint64_t callid)
{
    if (pb_trace_add(t, next_id++, ts, PB_TS_NONE, src, dst, type, callid, PB_ID_NONE,
                     PB_ID_NONE) != PB_OK)
        printf("FAIL add: out of memory\n");
}

/* a factor exp(+-0.15) from a golden-ratio sequence: the hand traces'
 * delays, irregular but the same on every run */
static inline double joint_test_jit(int k)
{
    double u = 0.618034 * k - floor(0.618034 * k) - 0.5;
    return exp(0.3 * u);
}

/* The X>F>C trace of the loss tests (no call ids): request r (0 <= r <
 * nreq) starts at 3 ms x r with X's call of F; F calls C once (even r) or
 * four times (odd r), each call about 100 us after the last input and
 * answered about 1 ms later, and answers X about 100 us after its last
 * return.  lost_call(r) / lost_ret(r) (either may be NULL: nothing lost)
 * leave out X's call / F's answer of request r.  call_of[r] / ret_of[r]
 * get the ids of those two messages (0: lost).  Returns the sorted trace
 * (the caller frees it with pb_trace_free), NULL when out of memory. */
static inline pb_trace *joint_test_xfc_trace(int nreq, int (*lost_call)(int r),
                                             int (*lost_ret)(int r), uint64_t *call_of,
                                             uint64_t *ret_of)
{
    pb_trace *t;
    if (pb_trace_new(&t) != PB_OK)
        return NULL;
    next_id = 1;
    int k = 0;
    for (int r = 0; r < nreq; r++) {
        pb_ns now = (pb_ns)((3000.0 * r) * 1000.0);
        call_of[r] = 0;
        if (!(lost_call && lost_call(r))) {
            call_of[r] = next_id;
            msg(t, now, "X", "F", PB_TYPE_CALL, PB_ID_NONE);
        }
        for (int c = 0; c < (r % 2 ? 4 : 1); c++) {
            now += (pb_ns)((100.0 * joint_test_jit(k++)) * 1000.0);
            msg(t, now, "F", "C", PB_TYPE_CALL, PB_ID_NONE);
            now += (pb_ns)((1000.0 * joint_test_jit(k++)) * 1000.0);
            msg(t, now, "C", "F", PB_TYPE_RETURN, PB_ID_NONE);
        }
        now += (pb_ns)((100.0 * joint_test_jit(k++)) * 1000.0);
        ret_of[r] = 0;
        if (lost_ret && lost_ret(r))
            continue;
        ret_of[r] = next_id;
        msg(t, now, "F", "X", PB_TYPE_RETURN, PB_ID_NONE);
    }
    pb_trace_sort(t);
    return t;
}

/* the first pair, at index `after` or later, whose call message has this
 * timestamp and source; JOINT_NONE when none (half pairs whose call was
 * lost are passed over) */
static inline uint32_t pair_at_from(const joint *s, const pb_trace *t, pb_ns ts,
                                    const char *src, uint32_t after)
{
    uint32_t n;
    if (!pb_strtab_find(t->names->nodes, src, strlen(src), &n))
        return JOINT_NONE;
    for (uint32_t i = after; i < joint_npairs(s); i++) {
        if (joint_pair_call(s, i) == JOINT_NONE)
            continue;
        const pb_msg *m = &t->msgs[joint_pair_call(s, i)];
        if (m->ts == ts && m->src == n)
            return i;
    }
    return JOINT_NONE;
}

/* pair_at_from from the first pair */
static inline uint32_t pair_at(const joint *s, const pb_trace *t, pb_ns ts, const char *src)
{
    return pair_at_from(s, t, ts, src, 0);
}

/* 40 requests X -> B, one a second: B calls C 1 ms after the arrival, C
 * answers 7 ms later and B 20 us after that; in every fourth request C's
 * return is stamped 10 us after B's answer (a reactive front end whose
 * calls outlive their request; test_joint_late.c, test_joint_latecount.c).
 * Sorted; the caller closes it. */
static inline pb_trace *late_front_trace(void)
{
    const pb_ns ms = 1000000, us = 1000;
    pb_trace *t;
    pb_trace_new(&t);
    next_id = 1;
    uint64_t cid = 1;
    for (int k = 0; k < 40; k++) {
        pb_ns t0 = (pb_ns)k * 1000 * ms;
        uint64_t a = cid++, c = cid++;
        pb_ns ret = t0 + 8 * ms + (k % 4 == 0 ? 30 * us : 0), ans = t0 + 8 * ms + 20 * us;
        msg(t, t0, "X", "B", PB_TYPE_CALL, a);
        msg(t, t0 + 1 * ms, "B", "C", PB_TYPE_CALL, c);
        msg(t, ret, "C", "B", PB_TYPE_RETURN, c);
        msg(t, ans, "B", "X", PB_TYPE_RETURN, a);
    }
    pb_trace_sort(t);
    return t;
}

/* stamps of random_fanout_trace rounded down to this (0: none) */
static pb_ns joint_test_tick;

static inline void msg_rounded(pb_trace *t, pb_ns ts, const char *src, const char *dst,
                               pb_msg_type type, uint64_t callid)
{
    if (joint_test_tick)
        ts -= ts % joint_test_tick;
    msg(t, ts, src, dst, type, callid);
}

/* pairs of a and b (two solutions of one trace) that differ in parent or
 * in return; npairs + 1 when they pair the messages differently */
/* four A -> B calls at 0, 100, 200, 300 us answered at 1000, 1050, 1300,
 * 1310 us, no call ids, rows in time order (test_joint_order,
 * test_joint_order_jitter); NULL when out of memory */
static inline pb_trace *joint_test_four_calls(void)
{
    pb_trace *t;
    if (pb_trace_new(&t) != PB_OK)
        return NULL;
    next_id = 1;
    const pb_ns c[4] = {0, 100, 200, 300}, r[4] = {1000, 1050, 1300, 1310};
    int i = 0, j = 0;
    while (i < 4 || j < 4) { /* rows in time order */
        if (i < 4 && c[i] * 1000LL <= r[j] * 1000LL)
            msg(t, c[i++] * 1000LL, "A", "B", PB_TYPE_CALL, PB_ID_NONE);
        else
            msg(t, r[j++] * 1000LL, "B", "A", PB_TYPE_RETURN, PB_ID_NONE);
    }
    return t;
}

static inline long joint_test_pairs_differ(joint *a, joint *b)
{
    if (joint_npairs(a) != joint_npairs(b))
        return 1 + (long)joint_npairs(a);
    long diff = 0;
    for (uint32_t i = 0; i < joint_npairs(a); i++)
        diff += joint_pair_parent(a, i) != joint_pair_parent(b, i) ||
                joint_pair_return(a, i) != joint_pair_return(b, i);
    return diff;
}

/* nq requests into B from X (70 %) or Y, arrivals gap_us microseconds apart
 * on average; each makes 1 to maxc calls of C or D, 30 % of them alongside
 * the one before, the rest after its return; 3 % of the returns lost; call
 * ids only when ids.  Stamps rounded down to joint_test_tick.  The trace
 * (caller frees it with pb_trace_close), or NULL when out of memory */
static inline pb_trace *random_fanout_trace(gsl_rng *g, int ids, int nq, int gap_us, int maxc)
{
    const pb_ns us = 1000;
    pb_trace *t;
    if (pb_trace_new(&t) != PB_OK)
        return NULL;
    next_id = 1;
    uint64_t cid = 1;
    pb_ns t0 = 0;
    for (int q = 0; q < nq; q++) {
        t0 += (pb_ns)gsl_ran_exponential(g, (double)(gap_us * us)) + 1;
        const char *from = gsl_rng_uniform(g) < 0.3 ? "Y" : "X";
        uint64_t x = cid++;
        msg_rounded(t, t0, from, "B", PB_TYPE_CALL, ids ? x : PB_ID_NONE);
        pb_ns now = t0 + 20 * us + (pb_ns)gsl_rng_uniform_int(g, 80 * us), end = now;
        int nc = 1 + (int)gsl_rng_uniform_int(g, (unsigned long)maxc);
        for (int c = 0; c < nc; c++) {
            uint64_t k = cid++;
            const char *to = gsl_rng_uniform(g) < 0.5 ? "C" : "D";
            pb_ns d = 50 * us + (pb_ns)gsl_ran_exponential(g, (double)(200 * us));
            msg_rounded(t, now, "B", to, PB_TYPE_CALL, ids ? k : PB_ID_NONE);
            if (gsl_rng_uniform(g) > 0.03)
                msg_rounded(t, now + d, to, "B", PB_TYPE_RETURN, ids ? k : PB_ID_NONE);
            if (now + d > end)
                end = now + d;
            /* the next call after this one's return, or alongside it */
            now = gsl_rng_uniform(g) < 0.3 ? now + 10 * us : now + d + 15 * us;
        }
        if (now > end)
            end = now;
        msg_rounded(t, end + 30 * us + (pb_ns)gsl_rng_uniform_int(g, 50 * us), "B", from,
                    PB_TYPE_RETURN, ids ? x : PB_ID_NONE);
    }
    pb_trace_sort(t);
    return t;
}

/* random_fanout_trace(g, ids, nq, gap_us, maxc) from a mt19937 seeded
 * with rng_seed, stamps rounded down to tick (sets joint_test_tick: the
 * caller resets it to 0 after its cases).  The trace (caller frees it
 * with pb_trace_close), or NULL when out of memory */
static inline pb_trace *joint_test_seeded_trace(unsigned long rng_seed, pb_ns tick, int ids,
                                                int nq, int gap_us, int maxc)
{
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    if (!g)
        return NULL;
    gsl_rng_set(g, rng_seed);
    joint_test_tick = tick;
    pb_trace *t = random_fanout_trace(g, ids, nq, gap_us, maxc);
    gsl_rng_free(g);
    return t;
}

/* the random case the same-result tests share: random_fanout_trace from a
 * mt19937 seeded with rng_seed; every third seed with 1 ms stamps, even
 * seeds larger requests (50 of up to 14 calls, 1.5 ms apart), odd seeds
 * nq_small requests of up to 7 calls, 0.3 ms apart.  Sets
 * joint_test_tick (the caller resets it to 0 after its cases).  The trace
 * (caller frees it with pb_trace_close), or NULL when out of memory */
static inline pb_trace *joint_test_case_trace(unsigned long rng_seed, int seed, int ids,
                                              int nq_small)
{
    int big = seed % 2 == 0;
    return joint_test_seeded_trace(rng_seed, seed % 3 == 0 ? 1000 * 1000 : 0, ids,
                                   big ? 50 : nq_small, big ? 1500 : 300, big ? 14 : 7);
}

/* p[0] and p[1] both joint's defaults with callids = ids and, unless po
 * is NULL, pair_order = po; the caller then sets the one parameter the
 * two solves differ in */
static inline void joint_test_params_two(joint_params p[2], int ids, const char *po)
{
    for (int i = 0; i < 2; i++) {
        p[i] = defaults();
        p[i].callids = ids;
        if (po)
            p[i].pair_order = po;
    }
}

/* joint_init of v with p: the solved state (the caller closes it with
 * joint_close), or NULL with a FAIL line printed */
static inline joint *joint_test_init(const pb_trace_view *v, joint_params p)
{
    joint *s = NULL;
    pb_error err;
    if (joint_init(&s, v, &p, &err) != PB_OK) {
        printf("FAIL joint_init: %s\n", err.msg);
        return NULL;
    }
    return s;
}

/* solve t twice, with p[0] and with p[1]; s[0] and s[1] get the solved
 * states (the caller closes both with joint_close).  Returns 0, or -1
 * with both NULL and a FAIL line printed when either solve fails */
static inline int joint_test_solve_two(pb_trace *t, const joint_params p[2], joint *s[2])
{
    pb_trace_view v = pb_trace_view_of(t);
    s[0] = s[1] = NULL;
    for (int i = 0; i < 2; i++) {
        if (!(s[i] = joint_test_init(&v, p[i]))) {
            joint_close(s[0]);
            s[0] = s[1] = NULL;
            return -1;
        }
    }
    return 0;
}

/* 1 when the two solutions' log-likelihoods are the same bits */
static inline int joint_test_ll_same(joint *a, joint *b)
{
    double la = joint_loglik(a), lb = joint_loglik(b);
    return !memcmp(&la, &lb, sizeof la);
}

/* joint_test_solve_two, then how many pairs of s[0] and s[1] differ
 * (joint_test_pairs_differ) and in *llsame whether their log-likelihoods
 * are the same bits.  The caller reads what it counts from s[] and closes
 * both (joint_test_close_two).  Returns -1 (s[] both NULL) when a solve
 * fails */
static inline long joint_test_compare_two(pb_trace *t, const joint_params p[2], joint *s[2],
                                          int *llsame)
{
    if (joint_test_solve_two(t, p, s))
        return -1;
    *llsame = joint_test_ll_same(s[0], s[1]);
    return joint_test_pairs_differ(s[0], s[1]);
}

/* An exact bound under test (its lane's joint_XXX_test_off and counters
 * skipped / used / bad): what the runs with the bound on added to the
 * counters, and how many cases' work counters differed */
typedef struct joint_test_bound {
    int *off;
    const size_t *c_skipped, *c_used, *c_bad;
    size_t skipped, used, bad;
    int counts_differ;
} joint_test_bound;

/* around one run: the bound off (on = 0) or on; the counters' growth
 * while on is added to b (snap: the caller's 3 counters' values) */
static inline void joint_test_bound_begin(joint_test_bound *b, int on, size_t snap[3])
{
    *b->off = !on;
    snap[0] = *b->c_skipped;
    snap[1] = *b->c_used;
    snap[2] = *b->c_bad;
}

static inline void joint_test_bound_end(joint_test_bound *b, int on, const size_t snap[3])
{
    *b->off = 0;
    if (on) {
        b->skipped += *b->c_skipped - snap[0];
        b->used += *b->c_used - snap[1];
        b->bad += *b->c_bad - snap[2];
    }
}

#ifdef JOINT_INT_H /* reads the work counters: for tests that include it */
/* t solved without the bound, then with it (joint_test_params_two(ids,
 * po)); *llsame as joint_test_compare_two's; b->counts_differ bumped when
 * the estimate counters differ.  Returns how many pairs differ, -1 when a
 * solve fails */
static inline long joint_test_bound_compare(pb_trace *t, int ids, const char *po, int *llsame,
                                            joint_test_bound *b)
{
    joint_params p[2];
    joint_test_params_two(p, ids, po);
    pb_trace_view v = pb_trace_view_of(t);
    joint *s[2] = {NULL, NULL};
    for (int i = 0; i < 2; i++) {
        size_t snap[3];
        joint_test_bound_begin(b, i == 1, snap);
        s[i] = joint_test_init(&v, p[i]);
        joint_test_bound_end(b, i == 1, snap);
        if (!s[i]) {
            joint_close(s[0]);
            return -1;
        }
    }
    *llsame = joint_test_ll_same(s[0], s[1]);
    long diff = joint_test_pairs_differ(s[0], s[1]);
    if (s[0]->est_evals != s[1]->est_evals || s[0]->est_pruned != s[1]->est_pruned ||
        s[0]->ordb_est != s[1]->ordb_est)
        b->counts_differ++;
    joint_close(s[0]);
    joint_close(s[1]);
    return diff;
}
#endif

static inline void joint_test_close_two(joint *s[2])
{
    joint_close(s[0]);
    joint_close(s[1]);
}

/* what the tests of the greedy round's costs count over their cases:
 * costs that differ between the two ways, and costs compared */
typedef struct {
    long cdiff;
    size_t ncost;
} joint_test_costs;

/* the cases of a same-results test: seeds 1 to nseed, each twice (k 0
 * and 1); trace(seed, k) makes a case's trace (NULL: out of memory) and
 * compare(t, seed, k, &llsame, ctx) solves it two ways, returning how many
 * pairs differ (-1: failure) with *llsame as joint_test_compare_two's */
typedef struct {
    int nseed;
    const char *kname[2]; /* k as the line of a differing case names it */
    pb_trace *(*trace)(int seed, int k);
    long (*compare)(pb_trace *t, int seed, int k, int *llsame, void *ctx);
} joint_test_cases;

/* run every case of c (ctx passed to its compare); prints a "# seed ..."
 * line for each case whose results differ unless quiet (set it while a
 * fault is put in on purpose).  Returns how many cases differ, -1 when a
 * trace cannot be made; resets joint_test_tick to 0 */
static inline int joint_test_differing(const joint_test_cases *c, void *ctx, int quiet)
{
    int bad = 0;
    for (int seed = 1; seed <= c->nseed && bad >= 0; seed++)
        for (int k = 0; k < 2; k++) {
            pb_trace *t = c->trace(seed, k);
            if (!t) {
                bad = -1;
                break;
            }
            int llsame = 1;
            long d = c->compare(t, seed, k, &llsame, ctx);
            if (d != 0 || !llsame) {
                if (!quiet)
                    printf("# seed %d %s: %ld pairs differ, log-likelihood %s\n", seed,
                           c->kname[k], d, llsame ? "same" : "differs");
                bad++;
            }
            pb_trace_close(t);
        }
    joint_test_tick = 0;
    return bad;
}

#endif
