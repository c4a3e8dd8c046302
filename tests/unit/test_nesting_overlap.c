/* The overlap penalty of nesting's step 3 (docs/nesting.md, "Costs"): the
 * fast counts of a candidate's children that overlap the child -- a binary
 * search without a skew window, a persistent count tree with one -- must
 * give byte for byte the result of the reference walk over the siblings
 * (nesting_params.overlap_walk = 1), on random traces built to stress
 * them: many children of one parent open at once (runs longer than the
 * scan limit, so the tree is used), pairs whose call is stamped after
 * their return (inside the skew window), zero-length pairs, calls and
 * returns at the same tick in either file order, two callers open at once
 * (every child has several candidates), lost returns, repeated call ids.
 * overlap_walk = 2 uses the tree even for the shortest runs. */
#include "pbtest.h"
#include "nesting.h"
#include "nesting_test.h"
#include "pb_algo.h"

#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include "pb_sort.h"

static const char *const NAMES[] = {"A", "B", "C", "D", "E"};
enum { A, B, C, D, E };

/* One RPC src -> dst called at a, returned at b (b < a: the caller's clock
 * runs fast, the call is stamped after the return), the return lost with
 * probability lost_pct %. */
static void rpc(evs *e, gsl_rng *r, int src, int dst, pb_ns a, pb_ns b, uint64_t *cid,
                int lost_pct)
{
    uint64_t id = (*cid)++;
    uint64_t c = gsl_rng_uniform_int(r, 20) == 0 ? PB_ID_NONE
                 : gsl_rng_uniform_int(r, 20) == 0 ? 7 : id; /* missing, repeated */
    push(e, (ev){a, gsl_rng_get(r), src, dst, PB_TYPE_CALL, c});
    if ((int)gsl_rng_uniform_int(r, 100) >= lost_pct)
        push(e, (ev){b, gsl_rng_get(r), dst, src, PB_TYPE_RETURN, c});
}

/* A burst: caller -> B over [t0, t0 + len], and k calls of B into C or D
 * inside it (some sticking out by up to the skew, some zero long, some
 * called after their return, many at the same ticks). */
static void burst(evs *e, gsl_rng *r, pb_ns t0, pb_ns len, int k, pb_ns skew,
                  uint64_t *cid, int lost_pct)
{
    int caller = (int)gsl_rng_uniform_int(r, 3);
    caller = caller == 0 ? A : caller == 1 ? D : E;
    rpc(e, r, caller, B, t0, t0 + len, cid, lost_pct / 2);
    for (int i = 0; i < k; i++) {
        pb_ns a = t0 + (pb_ns)gsl_rng_uniform_int(r, (unsigned long)len + 1);
        pb_ns b;
        switch (gsl_rng_uniform_int(r, 5)) {
        case 0: /* zero long */
            b = a;
            break;
        case 1: /* called after its return, within the skew */
            b = a - (pb_ns)gsl_rng_uniform_int(r, (unsigned long)skew + 1);
            break;
        case 2: /* short */
            b = a + 1 + (pb_ns)gsl_rng_uniform_int(r, 3);
            break;
        default: /* open long: the parallel children of the hostile case */
            b = t0 + len - (pb_ns)gsl_rng_uniform_int(r, (unsigned long)len / 4 + 1);
            if (b < a)
                b = a;
            break;
        }
        int to = gsl_rng_uniform_int(r, 4) ? C : D;
        rpc(e, r, B, to, a, b, cid, lost_pct);
    }
}

static pb_trace *build(evs *e)
{
    pb_sort(e->a, e->n, sizeof *e->a, cmp_ev);
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

/* The whole result file of a run (patterns, metadata, the assignment with
 * parents and confidences), or NULL on an error (printed). */
static char *run_text(const pb_trace *t, const nesting_params *p, size_t *len)
{
    pb_error err;
    pb_result res;
    pb_trace_view v = pb_trace_view_of(t);
    pb_result_init(&res, "nesting", "call");
    char *buf = NULL;
    *len = 0;
    if (pb_algo_nesting.run(&v, p, &res, &err) != PB_OK) {
        printf("# run: %s\n", err.msg);
        pb_result_free(&res);
        return NULL;
    }
    FILE *fp = open_memstream(&buf, len);
    const char *head[] = {"algo=nesting view=call"};
    int rc = fp ? pb_result_write(fp, &res, head, 1, 1, &err) : PB_ENOMEM;
    if (fp)
        fclose(fp);
    pb_result_free(&res);
    if (rc != PB_OK) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* The chosen parents (before any cycle is broken: nesting_init's) of every
 * pair under p, as one array, or NULL. */
static uint32_t *parents(const pb_trace *t, const nesting_params *p, uint32_t *np)
{
    pb_error err;
    pb_trace_view v = pb_trace_view_of(t);
    nesting *s = NULL;
    *np = 0;
    if (nesting_init(&s, &v, p, &err) != PB_OK)
        return NULL;
    *np = nesting_npairs(s);
    uint32_t *a = malloc((*np + 1) * sizeof *a);
    for (uint32_t i = 0; a && i < *np; i++)
        a[i] = nesting_pair_parent(s, i);
    nesting_close(s);
    return a;
}

/* Every run of trace t under p must equal the walk's, byte for byte. */
static void same_as_walk(const pb_trace *t, nesting_params p, const char *what)
{
    size_t lw, lf;
    p.overlap_walk = 1;
    char *walk = run_text(t, &p, &lw);
    uint32_t nw, nf;
    uint32_t *pw = parents(t, &p, &nw);
    if (!walk || !pw) {
        PBT_FAIL("%s: the reference run failed", what);
        free(walk);
        free(pw);
        return;
    }
    for (int mode = 0; mode <= 2; mode += 2) {
        p.overlap_walk = mode;
        char *fast = run_text(t, &p, &lf);
        uint32_t *pf = parents(t, &p, &nf);
        if (!fast || !pf) {
            PBT_FAIL("%s overlap_walk=%d: the run failed", what, mode);
        } else if (lf != lw || memcmp(fast, walk, lw)) {
            size_t i = 0;
            while (i < lw && i < lf && fast[i] == walk[i])
                i++;
            PBT_FAIL("%s overlap_walk=%d: the result differs from the walk's at byte %zu",
                     what, mode, i);
        } else if (nf != nw || memcmp(pf, pw, nw * sizeof *pw)) {
            PBT_FAIL("%s overlap_walk=%d: the chosen parents differ from the walk's", what,
                     mode);
        }
        free(fast);
        free(pf);
    }
    free(walk);
    free(pw);
}

TEST(random_skewed_traces)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 49);
    for (int round = 0; round < 40; round++) {
        evs e = {0};
        uint64_t cid = 100;
        pb_ns skew = 1 + (pb_ns)gsl_rng_uniform_int(r, 4);
        int bursts = 2 + (int)gsl_rng_uniform_int(r, 5);
        for (int i = 0; i < bursts; i++) {
            /* overlapping bursts: two or more callers of B open at once */
            pb_ns t0 = (pb_ns)gsl_rng_uniform_int(r, 40);
            pb_ns len = 5 + (pb_ns)gsl_rng_uniform_int(r, 60);
            int k = round % 4 == 0 ? 60 + (int)gsl_rng_uniform_int(r, 140)
                                   : (int)gsl_rng_uniform_int(r, 50);
            burst(&e, r, t0, len, k, skew, &cid, round % 3 ? 0 : 10);
        }
        pb_trace *t = build(&e);
        free(e.a);
        if (!t) {
            PBT_FAIL("building the trace");
            break;
        }
        for (int k = 0; k < 6; k++) {
            nesting_params p = defaults();
            /* skew windows of one tick and more, and none */
            p.skew_window = k == 5 ? 0 : (pb_ns)(k % 3 + 1) * skew * 1000000LL;
            p.same_tick = (round + k) % 3 != 0;
            p.callids = (round + k) % 4 != 0;
            p.x = k == 4 ? 0.5 : 2;
            if (k == 1 || k == 3) {
                p.y = 1;
                p.z = 0.5;
            }
            if (k == 2)
                p.smooth = 1;
            if (k == 3)
                p.max_cand = 2;
            if (round % 5 == 1)
                p.min_confidence = 0.3;
            char what[96];
            snprintf(what, sizeof what, "round %d w %lld tick %d callids %d", round,
                     (long long)p.skew_window, p.same_tick, p.callids);
            same_as_walk(t, p, what);
        }
        pb_trace_close(t);
    }
    gsl_rng_free(r);
}

/* The hostile case of tests/bench/bench_hostile.sh ("parallel"), small:
 * B makes K calls into C, all open at once, while A->B and D->B are open;
 * the children's calls all come before their returns, or (variant 1) every
 * other one is stamped after its return, or (variant 2) all share a few
 * ticks. */
TEST(parallel_children_skewed)
{
    for (int variant = 0; variant < 3; variant++) {
        evs e = {0};
        const int K = 400;
        push(&e, (ev){0, 0, A, B, PB_TYPE_CALL, 1});
        push(&e, (ev){1, 1, D, B, PB_TYPE_CALL, 2});
        for (int i = 0; i < K; i++) {
            pb_ns a = variant == 2 ? 10 + i % 3 : 10 + (pb_ns)i;
            pb_ns b = variant == 1 && i % 2 ? a - 1 : variant == 2 ? 12 : 10 + K + (pb_ns)i;
            push(&e, (ev){a, 10 + (unsigned long)i, B, C, PB_TYPE_CALL, 10 + (uint64_t)i});
            push(&e, (ev){b, 10 + (unsigned long)(K + i), C, B, PB_TYPE_RETURN,
                          10 + (uint64_t)i});
        }
        push(&e, (ev){5000, 0, B, D, PB_TYPE_RETURN, 2});
        push(&e, (ev){5001, 0, B, A, PB_TYPE_RETURN, 1});
        pb_trace *t = build(&e);
        free(e.a);
        if (!t) {
            PBT_FAIL("building the trace");
            return;
        }
        for (int w = 0; w < 3; w++) {
            nesting_params p = defaults();
            p.skew_window = (pb_ns)w * 1000000LL;
            char what[64];
            snprintf(what, sizeof what, "parallel variant %d w %d", variant, w);
            same_as_walk(t, p, what);
            p.same_tick = 0;
            same_as_walk(t, p, what);
        }
        pb_trace_close(t);
    }
}

/* A trace naming many more nodes than it has call pairs (one-way messages
 * between 600 other nodes among the RPCs): the sweep then indexes its open
 * sets by the nodes the pairs name, not by the node table (what keeps a
 * window segment's cost to its own messages).  The candidates and parents
 * must be those of the same RPCs without the extra nodes, and sliding
 * windows longer than every call must give whole-trace nesting's result
 * byte for byte (as docs/nesting.md says), with the windows' segments
 * indexed the same way -- also when a window holds one-way messages only
 * (the extra rows run on after the last RPC), which once stopped the run
 * with "the trace has no call or return messages". */
TEST(many_nodes)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 4949);
    static const char *const NN[] = {"A", "B", "C", "D", "E"};
    for (int round = 0; round < 8; round++) {
        evs e = {0};
        uint64_t cid = 100;
        for (int i = 0; i < 3; i++)
            burst(&e, r, (pb_ns)gsl_rng_uniform_int(r, 200), 5 + (pb_ns)gsl_rng_uniform_int(r, 30),
                  (int)gsl_rng_uniform_int(r, 30), 2, &cid, 0);
        pb_sort(e.a, e.n, sizeof *e.a, cmp_ev);
        pb_trace *t[2] = {NULL, NULL};
        for (int with = 0; with < 2; with++) {
            if (pb_trace_new(&t[with]) != PB_OK)
                break;
            /* the extra nodes are named first, so they take low numbers */
            for (int k = 0; with && k < 600; k++) {
                char a[16], b[16];
                snprintf(a, sizeof a, "X%d", k);
                snprintf(b, sizeof b, "Y%d", k);
                pb_ns ts = (pb_ns)k * 400 / 600;
                if (pb_trace_add(t[with], 100000 + (uint64_t)k, ts * 1000000LL - 1, PB_TS_NONE, a,
                                 b, PB_TYPE_MSG, PB_ID_NONE, PB_ID_NONE, PB_ID_NONE) != PB_OK)
                    break;
            }
            for (size_t i = 0; i < e.n; i++)
                if (pb_trace_add(t[with], i + 1, e.a[i].ts * 1000000LL, PB_TS_NONE,
                                 NN[e.a[i].src], NN[e.a[i].dst], e.a[i].type, e.a[i].callid,
                                 PB_ID_NONE, PB_ID_NONE) != PB_OK)
                    break;
            if (pb_trace_sort(t[with]) != PB_OK)
                break;
        }
        free(e.a);
        if (!t[0] || !t[1]) {
            PBT_FAIL("building the traces");
            pb_trace_close(t[0]);
            pb_trace_close(t[1]);
            break;
        }
        nesting_params p = defaults();
        p.same_tick = round % 2;
        p.y = round % 3 == 0;
        /* the candidates and parents of every pair, with and without the
         * extra nodes (the pairs are the same, numbered alike) */
        nesting *s[2] = {NULL, NULL};
        pb_error err;
        for (int with = 0; with < 2; with++) {
            pb_trace_view v = pb_trace_view_of(t[with]);
            if (nesting_init(&s[with], &v, &p, &err) != PB_OK)
                PBT_FAIL("round %d: nesting_init: %s", round, err.msg);
        }
        if (s[0] && s[1]) {
            uint32_t np = nesting_npairs(s[0]);
            CHECK(np == nesting_npairs(s[1]));
            for (uint32_t q = 0; q < np && q < nesting_npairs(s[1]); q++) {
                uint32_t nc = nesting_pair_ncandidates(s[0], q);
                int same = nc == nesting_pair_ncandidates(s[1], q) &&
                           nesting_pair_parent(s[0], q) == nesting_pair_parent(s[1], q);
                /* candidates by their call's ts (the message numbers differ) */
                for (uint32_t k = 0; same && k < nc; k++)
                    same = t[0]->msgs[nesting_pair_call(s[0], nesting_pair_candidate(s[0], q, k))].ts ==
                           t[1]->msgs[nesting_pair_call(s[1], nesting_pair_candidate(s[1], q, k))].ts;
                if (!same) {
                    PBT_FAIL("round %d: pair %u: other candidates or parent with 1,200 more nodes",
                             round, q);
                    break;
                }
            }
        }
        nesting_close(s[0]);
        nesting_close(s[1]);
        /* windows of 50 ticks (every call is shorter) against the whole */
        size_t lw, lx;
        char *whole = run_text(t[1], &p, &lw);
        p.window = 50 * 1000000LL;
        char *win = run_text(t[1], &p, &lx);
        /* the window adds its own metadata line; compare the rest */
        if (!whole || !win) {
            PBT_FAIL("round %d: a run failed", round);
        } else {
            const char *a = strstr(whole, "\nid,"), *b = strstr(win, "\nid,");
            if (!a || !b || strcmp(a, b))
                PBT_FAIL("round %d: windowed nesting's assignment differs from the whole trace's",
                         round);
            a = strstr(whole, "pattern,");
            b = strstr(win, "pattern,");
            if (!a || !b || strncmp(a, b, (size_t)(strstr(a, "\nid,") - a)))
                PBT_FAIL("round %d: windowed nesting's patterns differ from the whole trace's",
                         round);
        }
        free(whole);
        free(win);
        pb_trace_close(t[0]);
        pb_trace_close(t[1]);
    }
    gsl_rng_free(r);
}

int main(void)
{
    RUN(random_skewed_traces);
    RUN(parallel_children_skewed);
    RUN(many_nodes);
    return pbtest_exit();
}
