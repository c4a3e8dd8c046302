/* The field's baselines (fcfs, arrival, vpath, wap5tw) on a hand-worked
 * three-request trace where every one of them (and each variant) answers
 * differently, so a swap of two baselines fails here.  The numbers are
 * worked out in the comments; docs/baselines.md has the rules.
 *
 * Client C calls S three times; S serves each by calling D1, then D2.
 * Times in ms, every clock the same (ts == recv_ts):
 *   R1 [0, 30]:  a1 D1 [10, 12]   b1 D2 [20, 22]
 *   R2 [1, 31]:  a2 D1 [3, 25]    b2 D2 [26, 28]
 *   R3 [2, 32]:  a3 D1 [5, 7]     b3 D2 [8, 9]
 * fcfs: D1 calls by start a2 a3 a1 go to R1 R2 R3; D2 b3 b1 b2 likewise.
 * arrival: D1 as fcfs; their ends (25, 7, 12) argsort to [1, 2, 0], so
 *   request i gets D2 call [b3 b1 b2][argsort[i]]: R1 b1, R2 b2, R3 b3;
 *   the intended rank order [2, 0, 1] gives R1 b2, R2 b3, R3 b1.
 * vpath: the register holds R3 from 2 on; a2, a3 start -> R3; a3 ends
 *   (its thread: R3) -> R3; b3 -> R3; a1 -> R3; a1 ends (thread R1) -> R1;
 *   b1 -> R1; a2 ends (R2) -> R2; b2 -> R2.  Without threads each return
 *   restores the latest-started active request, R3: everything to R3.
 *   clean: each call to its thread's request: all right.
 * wap5tw: D1 delays to the nearest earlier request (R3): 1, 3, 8, mean 4,
 *   window 16; a2 looks at R3, R2, R1 (all used up), takes R3; a3 and a1
 *   find none.  D2: delays 6, 18, 24, mean 16; b3 takes R3, uses up all.
 *   mark=chosen: a3 takes R2 (nearest left), a1 R1; b1 R2, b2 R1.
 */
#include "pbtest.h"
#include "pb_algo.h"

#include <stdlib.h>

#define MS(x) ((pb_ns)((x) * 1000000LL))

enum { A1, A2, A3, B1, B2, B3, NOUT };

static pb_trace *make_trace(int threads)
{
    pb_trace *t;
    if (pb_trace_new(&t) != PB_OK)
        return NULL;
    struct { const char *d; int req; double s, e; } rpc[] = {
        {"S", 1, 0, 30}, {"S", 2, 1, 31}, {"S", 3, 2, 32},
        {"D1", 1, 10, 12}, {"D1", 2, 3, 25}, {"D1", 3, 5, 7},
        {"D2", 1, 20, 22}, {"D2", 2, 26, 28}, {"D2", 3, 8, 9}};
    uint64_t id = 1;
    for (int k = 0; k < 9; k++) {
        const char *src = k < 3 ? "C" : "S";
        /* message ids: 10*k+1 call, 10*k+2 return */
        id = 10 * (uint64_t)k + 1;
        if (pb_trace_add(t, id, MS(rpc[k].s), MS(rpc[k].s), src, rpc[k].d,
                         PB_TYPE_CALL, (uint64_t)k + 100, (uint64_t)rpc[k].req,
                         k < 3 ? PB_ID_NONE : 10 * (uint64_t)(rpc[k].req - 1) + 1) ||
            pb_trace_add(t, id + 1, MS(rpc[k].e), MS(rpc[k].e), rpc[k].d, src,
                         PB_TYPE_RETURN, (uint64_t)k + 100, (uint64_t)rpc[k].req, id))
            return NULL;
        if (threads) {
            /* S's worker for request r is "w<r>": it serves the call and
             * receives the returns of the calls it makes */
            char w[8];
            snprintf(w, sizeof w, "w%d", rpc[k].req);
            uint32_t ti;
            if (pb_strtab_intern(t->names->labels, w, 2, &ti) != PB_OK)
                return NULL;
            pb_trace_obs(t)[t->n - (k < 3 ? 2 : 1)].thread = ti + 1;
        }
    }
    if (threads)
        t->columns |= PB_COL_THREAD;
    if (pb_trace_sort(t) != PB_OK)
        return NULL;
    return t;
}

/* Run algo with "name=value" settings; fill got[out call] with the request
 * (1..3) whose instance holds it, 0 when none does. */
static int run(const char *algo, const char *set1, const char *set2, int threads,
               int got[NOUT])
{
    const pb_algo *a = pb_algo_find(algo);
    if (!a)
        return -1;
    pb_trace *t = make_trace(threads);
    if (!t)
        return -1;
    pb_error err;
    void *p = calloc(1, a->params_size);
    pb_result res;
    int rc = pb_opt_defaults(a->options, p, &err);
    if (rc == PB_OK && set1)
        rc = pb_opt_set_kv(a->options, p, set1, &err);
    if (rc == PB_OK && set2)
        rc = pb_opt_set_kv(a->options, p, set2, &err);
    int inited = 0;
    if (rc == PB_OK)
        rc = pb_result_init(&res, a->name, a->view);
    if (rc == PB_OK) {
        inited = 1;
        pb_trace_view v = pb_trace_view_of(t);
        rc = a->run(&v, p, &res, &err);
        if (rc != PB_OK)
            printf("# %s\n", err.msg);
    }
    if (rc == PB_OK) {
        /* message id -> instance */
        uint32_t inst[128];
        for (int i = 0; i < 128; i++)
            inst[i] = UINT32_MAX;
        for (size_t i = 0; i < res.nassign; i++)
            if (res.assign[i].id < 128)
                inst[res.assign[i].id] = res.assign[i].instance;
        for (int o = 0; o < NOUT; o++) {
            uint32_t io = inst[10 * (o + 3) + 1];
            got[o] = 0;
            for (int r = 0; r < 3; r++)
                if (io != UINT32_MAX && inst[10 * r + 1] == io)
                    got[o] = r + 1;
        }
    }
    if (inited)
        pb_result_free(&res);
    free(p);
    pb_trace_close(t);
    return rc;
}

static void expect(const char *algo, const char *s1, const char *s2, int threads,
                   const int want[NOUT])
{
    int got[NOUT];
    CHECK_INT(run(algo, s1, s2, threads, got), PB_OK);
    int same = 1;
    for (int o = 0; o < NOUT; o++)
        same &= got[o] == want[o];
    if (!same)
        PBT_FAIL("%s %s %s: a1..b3 went to requests %d %d %d %d %d %d, expected "
                 "%d %d %d %d %d %d", algo, s1 ? s1 : "", s2 ? s2 : "", got[0],
                 got[1], got[2], got[3], got[4], got[5], want[0], want[1],
                 want[2], want[3], want[4], want[5]);
}

/*                         a1 a2 a3 b1 b2 b3 */
TEST(fcfs_by_start)
{
    static const int w[NOUT] = {3, 1, 2, 2, 3, 1};
    expect("fcfs", NULL, NULL, 1, w);
}

TEST(arrival_argsort_as_written)
{
    static const int w[NOUT] = {3, 1, 2, 1, 2, 3};
    expect("arrival", NULL, NULL, 1, w);
}

TEST(arrival_intended_rank)
{
    static const int w[NOUT] = {3, 1, 2, 3, 1, 2};
    expect("arrival", "order=intended", NULL, 1, w);
}

TEST(vpath_register_with_threads)
{
    static const int w[NOUT] = {3, 3, 3, 1, 2, 3};
    expect("vpath", NULL, NULL, 1, w);
}

TEST(vpath_without_threads_guesses)
{
    static const int w[NOUT] = {3, 3, 3, 3, 3, 3};
    expect("vpath", NULL, NULL, 0, w);
}

TEST(vpath_clean_follows_threads)
{
    static const int w[NOUT] = {1, 2, 3, 1, 2, 3};
    expect("vpath", "variant=clean", NULL, 1, w);
}

TEST(wap5tw_examined_used_up)
{
    static const int w[NOUT] = {0, 3, 0, 0, 0, 3};
    expect("wap5tw", NULL, NULL, 1, w);
}

TEST(wap5tw_mark_chosen)
{
    static const int w[NOUT] = {1, 3, 2, 2, 1, 3};
    expect("wap5tw", "mark=chosen", NULL, 1, w);
}

/* a window of a quarter mean delay (1 ms on D1, 4 ms on D2): a2's only
 * candidate R3 is exactly at the window's edge (gap 1), where its density
 * equals the "Spontaneous" candidate's (R1, 3 ms back, is older than the
 * window): the artifact's stable sort puts Spontaneous last, so it wins.
 * a3 and a1 have nothing within 1 ms; b3's nearest request R3 is 6 ms
 * back.  Without the Spontaneous candidate a2 goes to R3. */
TEST(wap5tw_small_window_edge)
{
    static const int w[NOUT] = {0, 0, 0, 0, 0, 0}, ws[NOUT] = {0, 3, 0, 0, 0, 0};
    expect("wap5tw", "window=0.25", NULL, 1, w);
    expect("wap5tw", "window=0.25", "spontaneous=0", 1, ws);
}

/* the thread column is ignored by the others: same answers without it */
TEST(threads_only_for_vpath)
{
    static const int f[NOUT] = {3, 1, 2, 2, 3, 1}, a[NOUT] = {3, 1, 2, 1, 2, 3},
                     w[NOUT] = {0, 3, 0, 0, 0, 3};
    expect("fcfs", NULL, NULL, 0, f);
    expect("arrival", NULL, NULL, 0, a);
    expect("wap5tw", NULL, NULL, 0, w);
}

TEST(bad_option_values)
{
    int got[NOUT];
    CHECK(run("arrival", "order=sideways", NULL, 1, got) == PB_EINVAL);
    CHECK(run("vpath", "variant=x", NULL, 1, got) == PB_EINVAL);
    CHECK(run("wap5tw", "mark=x", NULL, 1, got) == PB_EINVAL);
    CHECK(run("fcfs", "multi_caller=x", NULL, 1, got) == PB_EINVAL);
}

int main(void)
{
    RUN(fcfs_by_start);
    RUN(arrival_argsort_as_written);
    RUN(arrival_intended_rank);
    RUN(vpath_register_with_threads);
    RUN(vpath_without_threads_guesses);
    RUN(vpath_clean_follows_threads);
    RUN(wap5tw_examined_used_up);
    RUN(wap5tw_mark_chosen);
    RUN(wap5tw_small_window_edge);
    RUN(threads_only_for_vpath);
    RUN(bad_option_values);
    return pbtest_exit();
}
