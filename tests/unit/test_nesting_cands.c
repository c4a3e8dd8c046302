/* The candidate parents of nesting (docs/nesting.md, "What it does", step
 * 2, and the max_candidates cap) and the parents chosen among them (step
 * 4: scoreboard times the three child penalties) against brute-force
 * references written from their definitions, on random traces, on deep
 * chains through two nodes and on many parallel children of one parent
 * (issue 29's follow-up): the sweep reads the open calls of a node as an
 * ordered set with an index and the overlap penalty counts by binary
 * search, and both must give exactly what the definitions name, whatever
 * the depth, the cap, the skew window, ties and call ids. */
#include "pbtest.h"
#include "nesting.h"
#include "nesting_test.h"
#include "pb_algo.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include "pb_sort.h"

static const char *const NAMES[] = {"A", "B", "C", "D"};

/* One RPC from src into dst over [a, b] (ticks), and below it up to two
 * calls of dst (possibly overlapping, possibly at the same tick). */
static void rpc(evs *e, gsl_rng *r, int nn, int src, int dst, pb_ns a, pb_ns b,
                int depth, uint64_t *cid, int drop_pct)
{
    uint64_t id = (*cid)++;
    uint64_t c = gsl_rng_uniform_int(r, 10) == 0 ? PB_ID_NONE
                 : gsl_rng_uniform_int(r, 10) == 0 ? 7 : id; /* missing, repeated */
    push(e, (ev){a, gsl_rng_get(r), src, dst, PB_TYPE_CALL, c});
    if ((int)gsl_rng_uniform_int(r, 100) >= drop_pct)
        push(e, (ev){b, gsl_rng_get(r), dst, src, PB_TYPE_RETURN, c});
    if (depth <= 0 || b - a < 2)
        return;
    int k = (int)gsl_rng_uniform_int(r, 3);
    for (int i = 0; i < k; i++) {
        pb_ns x = a + (pb_ns)gsl_rng_uniform_int(r, (unsigned long)(b - a));
        pb_ns y = x + (pb_ns)gsl_rng_uniform_int(r, (unsigned long)(b - x + 1));
        int to = (int)gsl_rng_uniform_int(r, (unsigned long)nn);
        rpc(e, r, nn, dst, to, x, y, depth - 1, cid, drop_pct);
    }
}

/* A chain A->B->A->B ... `depth` calls deep from tick t0, returns in
 * reverse order (the hostile input of issue 29). */
static void chain(evs *e, pb_ns t0, int depth, uint64_t *cid)
{
    for (int i = 0; i < depth; i++)
        push(e, (ev){t0 + i, 0, i % 2, 1 - i % 2, PB_TYPE_CALL, *cid + (uint64_t)i});
    for (int i = depth - 1; i >= 0; i--)
        push(e, (ev){t0 + 2 * depth - i, 0, 1 - i % 2, i % 2, PB_TYPE_RETURN,
                     *cid + (uint64_t)i});
    *cid += (uint64_t)depth;
}

static pb_trace *build(evs *e, int sorted, gsl_rng *r)
{
    if (sorted)
        pb_sort(e->a, e->n, sizeof *e->a, cmp_ev);
    else /* a view built by hand out of time order: a few swaps */
        for (size_t i = 0; i + 1 < e->n; i += 1 + gsl_rng_uniform_int(r, 5)) {
            ev t = e->a[i];
            e->a[i] = e->a[i + 1];
            e->a[i + 1] = t;
        }
    pb_trace *t = NULL;
    if (pb_trace_new(&t) != PB_OK)
        return NULL;
    for (size_t i = 0; i < e->n; i++)
        if (pb_trace_add(t, i + 1, e->a[i].ts * 1000000LL, PB_TS_NONE, NAMES[e->a[i].src],
                         NAMES[e->a[i].dst], e->a[i].type, e->a[i].callid, PB_ID_NONE,
                         PB_ID_NONE) != PB_OK) {
            pb_trace_close(t);
            return NULL;
        }
    return t;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static const nesting *by_call;

static int cmp_call(const void *a, const void *b)
{
    uint32_t x = nesting_pair_call(by_call, *(const uint32_t *)a);
    uint32_t y = nesting_pair_call(by_call, *(const uint32_t *)b);
    return x < y ? -1 : x > y;
}

/* The candidates of pair c by their definition, straight from the pairs
 * nesting found: pair q is open at c when its call was read before c's
 * return was handled (with a skew window w: sent no later than w after
 * it) and it has not returned (with w: returned more than w before c's
 * return); it is a candidate when it calls c's sender and was sent before
 * c (ts < c's ts + w; with w = 0 and same_tick, also at c's ts and earlier
 * in the file); the cap keeps the max_cand sent last.  Returns the number
 * before the cap; out[] gets the kept ones sorted. */
static size_t brute(const nesting *s, const pb_trace_view *v, const nesting_params *p,
                    uint32_t c, uint32_t *out, size_t *nout)
{
    uint32_t np = nesting_npairs(s);
    const pb_msg *m = v->msgs;
    uint32_t cc = nesting_pair_call(s, c), cr = nesting_pair_return(s, c);
    pb_ns w = p->skew_window;
    size_t added = w == 0 ? cr : v->n;
    if (w > 0)
        for (size_t i = 0; i < v->n; i++)
            if (m[i].ts - w > m[cr].ts) {
                added = i;
                break;
            }
    size_t n = 0;
    for (uint32_t q = 0; q < np; q++) {
        uint32_t qc = nesting_pair_call(s, q), qr = nesting_pair_return(s, q);
        if (q == c || qc >= added || m[qc].dst != m[cc].src)
            continue;
        if (q < c && (w == 0 || m[qr].ts + w <= m[cr].ts))
            continue; /* returned */
        if (!(m[qc].ts < m[cc].ts + w ||
              (w == 0 && p->same_tick && m[qc].ts == m[cc].ts && qc < cc)))
            continue;
        out[n++] = q;
    }
    size_t got = n;
    if (n > (size_t)p->max_cand) {
        /* keep the max_cand with the largest call index */
        by_call = s;
        pb_sort(out, n, sizeof *out, cmp_call);
        memmove(out, out + (n - (size_t)p->max_cand), (size_t)p->max_cand * sizeof *out);
        n = (size_t)p->max_cand;
    }
    pb_sort(out, n, sizeof *out, cmp_u32);
    *nout = n;
    return got;
}

static double pw(uint32_t c, double e)
{
    return c == 0 || e == 0 ? 1.0 : pow(1.0 + c, -e);
}

/* The parent step 4 of docs/nesting.md chooses for pair c among its
 * candidates cand[0..n), given the parents nesting chose for the pairs
 * before it: the scoreboard value times (1 + overlapping)^-x (1 +
 * same-callee)^-y (1 + any)^-z over the children given to that candidate
 * so far (overlapping by row order without a skew window and with
 * same_tick, else by time), the highest wins, ties to the earliest call. */
static uint32_t brute_choice(const nesting *s, const pb_trace_view *v,
                             const nesting_params *p, uint32_t c,
                             const uint32_t *cand, size_t n)
{
    if (n == 0)
        return NESTING_NONE;
    if (n == 1)
        return cand[0];
    const pb_msg *m = v->msgs;
    uint32_t cc = nesting_pair_call(s, c), cr = nesting_pair_return(s, c);
    const int by_row = p->skew_window == 0 && p->same_tick;
    uint32_t best = NESTING_NONE;
    double bestv = -1.0;
    for (size_t i = 0; i < n; i++) {
        uint32_t q = cand[i], qc = nesting_pair_call(s, q);
        uint32_t co = 0, cs = 0, ca = 0;
        for (uint32_t k = 0; k < c; k++) {
            if (nesting_pair_parent(s, k) != q)
                continue;
            uint32_t kc = nesting_pair_call(s, k), kr = nesting_pair_return(s, k);
            ca++;
            cs += m[kc].dst == m[cc].dst;
            co += by_row ? kc < cr && cc < kr : m[kc].ts < m[cr].ts && m[cc].ts < m[kr].ts;
        }
        double val = nesting_scoreboard(s, m[qc].src, m[cc].src, m[cc].dst, m[cc].ts - m[qc].ts);
        if (p->x != 0 || p->y != 0 || p->z != 0)
            val *= pw(co, p->x) * pw(cs, p->y) * pw(ca, p->z);
        if (val > bestv || (val == bestv && qc < nesting_pair_call(s, best))) {
            bestv = val;
            best = q;
        }
    }
    return best;
}

/* nesting's candidates of every pair against brute(), and (without a skew
 * window, which may break cycles afterwards; on small traces) its choice
 * against brute_choice(); returns the number of pairs whose candidates the
 * cap cut (for the metadata check). */
static size_t compare(const pb_trace *t, const nesting_params *p, const char *what)
{
    pb_error err;
    pb_trace_view v = pb_trace_view_of(t);
    nesting *s = NULL;
    if (nesting_init(&s, &v, p, &err) != PB_OK) {
        PBT_FAIL("%s: nesting_init: %s", what, err.msg);
        return 0;
    }
    uint32_t np = nesting_npairs(s);
    uint32_t *want = malloc((np + 1) * sizeof *want), *have = malloc((np + 1) * sizeof *have);
    size_t capped = 0, bad = 0;
    for (uint32_t c = 0; c < np && want && have && bad < 3; c++) {
        size_t nw = 0;
        if (brute(s, &v, p, c, want, &nw) > nw)
            capped++;
        uint32_t nh = nesting_pair_ncandidates(s, c);
        for (uint32_t k = 0; k < nh && k <= np; k++)
            have[k] = nesting_pair_candidate(s, c, k);
        /* listed in sending order */
        for (uint32_t k = 1; k < nh && k <= np; k++)
            if (nesting_pair_call(s, have[k - 1]) >= nesting_pair_call(s, have[k])) {
                PBT_FAIL("%s: pair %u: candidates not in sending order", what, c);
                bad++;
                break;
            }
        if (nh <= np)
            pb_sort(have, nh, sizeof *have, cmp_u32);
        if (nh != nw || memcmp(have, want, nw * sizeof *want)) {
            PBT_FAIL("%s: pair %u: %u candidates, the definition gives %zu%s", what, c, nh, nw,
                     nh == nw ? " (other pairs)" : "");
            bad++;
        } else if (p->skew_window == 0 && np <= 400) {
            uint32_t bc = brute_choice(s, &v, p, c, want, nw);
            if (bc != nesting_pair_parent(s, c)) {
                PBT_FAIL("%s: pair %u: parent %u, the definition gives %u", what, c,
                         nesting_pair_parent(s, c), bc);
                bad++;
            }
        }
    }
    CHECK(want && have);
    free(want);
    free(have);
    nesting_close(s);
    return capped;
}

/* The capped_calls counter of a whole run. */
static long capped_meta(const pb_trace *t, const nesting_params *p)
{
    pb_error err;
    pb_result res;
    pb_trace_view v = pb_trace_view_of(t);
    pb_result_init(&res, "nesting", "call");
    long n = 0;
    if (pb_algo_nesting.run(&v, p, &res, &err) != PB_OK) {
        printf("# run: %s\n", err.msg);
        n = -1;
    } else {
        const char *m = strstr(pb_strbuf_str(&res.meta), "capped_calls=");
        n = m ? atol(m + strlen("capped_calls=")) : 0;
    }
    pb_result_free(&res);
    return n;
}

TEST(random_traces)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 29);
    for (int round = 0; round < 60; round++) {
        evs e = {0};
        uint64_t cid = 100;
        int nn = 2 + round % 2;
        int roots = 5 + (int)gsl_rng_uniform_int(r, 20);
        for (int i = 0; i < roots; i++) {
            pb_ns a = (pb_ns)gsl_rng_uniform_int(r, 60);
            rpc(&e, r, nn, (int)gsl_rng_uniform_int(r, (unsigned long)nn),
                (int)gsl_rng_uniform_int(r, (unsigned long)nn), a,
                a + 1 + (pb_ns)gsl_rng_uniform_int(r, 40), 5, &cid, round % 3 ? 0 : 10);
        }
        if (round % 4 == 0)
            chain(&e, (pb_ns)gsl_rng_uniform_int(r, 30), 20 + round, &cid);
        int sorted = round % 10 != 9;
        pb_trace *t = build(&e, sorted, r);
        free(e.a);
        if (!t) {
            PBT_FAIL("building the trace");
            break;
        }
        static const int caps[] = {1024, 1, 2, 3, 5};
        for (int k = 0; k < 5; k++) {
            nesting_params p = defaults();
            p.max_cand = caps[k];
            p.same_tick = (round + k) % 3 != 0;
            p.callids = (round + k) % 5 != 0;
            /* a skew window only on views in time order: the sweep's
             * window arithmetic reads the trace in order */
            p.skew_window = sorted && k % 2 ? (pb_ns)(1 + round % 3) * 1000000LL : 0;
            if (k == 2 || k == 4) { /* the other two penalties */
                p.y = 1;
                p.z = 0.5;
            }
            if (round % 7 == 3)
                p.x = 0;
            char what[96];
            snprintf(what, sizeof what, "round %d cap %d w %lld tick %d", round, p.max_cand,
                     (long long)p.skew_window, p.same_tick);
            size_t capped = compare(t, &p, what);
            long meta = capped_meta(t, &p);
            if (meta != (long)capped)
                PBT_FAIL("%s: capped_calls=%ld, the definition gives %zu", what, meta, capped);
        }
        pb_trace_close(t);
    }
    gsl_rng_free(r);
}

/* Deep chains through two nodes, the case that was quadratic: every call's
 * candidates are the calls open at its sender (half the chain above it),
 * cut to the cap; below and above the cap, with and without call ids. */
TEST(deep_chain_two_nodes)
{
    static const int depths[] = {2, 3, 50, 301, 1200};
    static const int caps[] = {1, 7, 64, 1024};
    for (int d = 0; d < 5; d++) {
        evs e = {0};
        uint64_t cid = 1;
        chain(&e, 0, depths[d], &cid);
        pb_trace *t = build(&e, 1, NULL);
        free(e.a);
        if (!t) {
            PBT_FAIL("building the chain");
            return;
        }
        for (int k = 0; k < 4; k++)
            for (int ids = 0; ids < 2; ids++) {
                nesting_params p = defaults();
                p.max_cand = caps[k];
                p.callids = ids;
                char what[64];
                snprintf(what, sizeof what, "chain %d cap %d callids %d", depths[d], caps[k], ids);
                size_t capped = compare(t, &p, what);
                CHECK(capped_meta(t, &p) == (long)capped);
                if (!ids)
                    continue; /* FIFO pairs the chain's calls otherwise */
                /* the pair at level i (its call sent i-th) has the
                 * ceil(i / 2) calls into its sender above it as
                 * candidates; the cap cuts every one with more */
                size_t want = 0;
                for (int i = 0; i < depths[d]; i++)
                    want += (i + 1) / 2 > caps[k];
                if (capped != want)
                    PBT_FAIL("%s: %zu calls capped, expected %zu", what, capped, want);
            }
        pb_trace_close(t);
    }
}

/* K calls of B into C, all open at once, while two calls into B are open
 * (A->B and D->B): every child has two candidates, and the overlap penalty
 * of each counts the siblings given before it (the case that was
 * quadratic in K); sequential children too, and both with 1 ms ticks. */
TEST(parallel_children)
{
    for (int variant = 0; variant < 4; variant++) {
        evs e = {0};
        const int K = 300;
        uint64_t cid = 10;
        push(&e, (ev){0, 0, 0, 1, PB_TYPE_CALL, 1});       /* A->B */
        push(&e, (ev){1, 1, 3, 1, PB_TYPE_CALL, 2});       /* D->B */
        for (int i = 0; i < K; i++) {
            pb_ns a = variant & 1 ? 10 + i / 7 : 10 + 3 * (pb_ns)i;
            pb_ns b = variant & 1 ? 10 + K / 7 + 5 + i / 5 : a + 1 + (i % 3);
            push(&e, (ev){a, 10 + (unsigned long)i, 1, 2, PB_TYPE_CALL, cid + (uint64_t)i});
            push(&e, (ev){b, 10 + (unsigned long)(K + i), 2, 1, PB_TYPE_RETURN, cid + (uint64_t)i});
        }
        push(&e, (ev){5000, 0, 1, 3, PB_TYPE_RETURN, 2});
        push(&e, (ev){5001, 0, 1, 0, PB_TYPE_RETURN, 1});
        pb_trace *t = build(&e, 1, NULL);
        free(e.a);
        if (!t) {
            PBT_FAIL("building the trace");
            return;
        }
        nesting_params p = defaults();
        p.same_tick = variant < 2;
        if (variant == 3) {
            p.y = 1;
            p.z = 1;
        }
        char what[64];
        snprintf(what, sizeof what, "parallel children, variant %d", variant);
        compare(t, &p, what);
        pb_trace_close(t);
    }
}

int main(void)
{
    RUN(random_traces);
    RUN(deep_chain_two_nodes);
    RUN(parallel_children);
    return pbtest_exit();
}
