/*
 * test_precise.c - vpath's paper variant (algorithms/precise/) on small
 * simulated systems: a client sends requests to node A, which serves each
 * with 1-3 sequential calls to node B (a pool of workers).  A runs one of
 * the threading models of the papers (vPath 2.4, BorderPatrol 4):
 *   pool        a worker per request, the lowest free id (ids reused)
 *   dispatcher  thread d receives, two workers serve in arrival order (a
 *               request waits for a free worker)
 *   handoff     pool, but after a return the continuation runs on another
 *               thread with probability 0.3
 *   loop1/loop2 every step of every request on one of T event threads
 * Properties: pool and dispatcher are rebuilt exactly with no violation
 * (the paper's claim); in every model, every request the variant gets
 * wrong has a message in an instance it flagged (it is never silently
 * wrong); borderpatrol by thread is exact on pool and gets every request
 * wrong with the dispatcher (a hidden work queue, its section 4).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb_algo.h"
#include "pb_trace.h"
#include "pbtest.h"

enum { POOL, DISPATCHER, HANDOFF, LOOP1, LOOP2, NMODELS };
static const char *const model_name[] = {"pool", "dispatcher", "handoff", "loop1", "loop2"};

#define NREQ 40
#define MAXMSG (NREQ * 8)

static uint64_t lcg;
static unsigned rnd(unsigned n)
{
    lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)((lcg >> 33) % n);
}

typedef struct sim {
    pb_trace *t;
    uint64_t next_id;
} sim;

static void label(pb_trace *t, const char *s, uint32_t *out)
{
    if (pb_obs_label(t->names, s, strlen(s), out) != PB_OK)
        *out = 0;
}

static uint64_t add(sim *s, pb_ns ts, pb_ns rts, const char *src, const char *dst,
                    int type, int path, uint64_t cause, const char *th, const char *sth,
                    const char *conn)
{
    uint64_t id = ++s->next_id;
    if (pb_trace_add(s->t, id, ts, rts, src, dst, type, PB_ID_NONE, (uint64_t)path,
                     cause) != PB_OK)
        return id;
    pb_obs *m = pb_trace_obs(s->t);
    if (!m)
        return id;
    m += s->t->n - 1;
    label(s->t, th, &m->thread);
    label(s->t, sth, &m->sthread);
    label(s->t, conn, &m->conn);
    return id;
}

/* Build one system's trace. */
static pb_trace *simulate(int model, uint64_t seed)
{
    sim s = {NULL, 0};
    if (pb_trace_new(&s.t) != PB_OK)
        return NULL;
    s.t->columns = PB_COL_ALL | PB_COL_THREAD | PB_COL_STHREAD | PB_COL_CONN;
    lcg = seed * 7919 + (uint64_t)model;
    pb_ns wfree[64] = {0};       /* A's workers: busy until */
    pb_ns bfree[64] = {0};       /* B's workers */
    pb_ns arrive = 1000;
    char conn[32], bth[32];
    for (int i = 0; i < NREQ; i++) {
        arrive += 50 + rnd(300);
        int k = 1 + (int)rnd(3);
        pb_ns start = arrive;
        int w = 0;
        if (model == DISPATCHER) {
            w = wfree[0] <= wfree[1] ? 0 : 1;   /* the first free worker */
            if (wfree[w] > start)
                start = wfree[w];
        } else {
            while (wfree[w] > arrive)
                w++;                            /* the lowest free worker */
        }
        /* the request's steps: receipt, k calls, the reply */
        char cur[32];
        if (model == LOOP1 || model == LOOP2)
            snprintf(cur, sizeof cur, "e%u", rnd(model == LOOP1 ? 1 : 2));
        else
            snprintf(cur, sizeof cur, "w%d", w);
        snprintf(conn, sizeof conn, "c%d", i);
        const char *recv_th = model == DISPATCHER ? "d" : cur;
        uint64_t in = add(&s, arrive - 10, arrive, "client", "A", PB_TYPE_CALL, i + 1,
                          PB_ID_NONE, recv_th, "u", conn);
        uint64_t last = in;
        pb_ns tnow = start + 20 + rnd(50);
        for (int j = 0; j < k; j++) {
            int b = 0;
            while (bfree[b] > tnow + 10)
                b++;
            snprintf(bth, sizeof bth, "b%d", b);
            char bconn[32];
            snprintf(bconn, sizeof bconn, "r%d.%d", i, j);
            uint64_t c = add(&s, tnow, tnow + 10, "A", "B", PB_TYPE_CALL, i + 1, last, bth,
                             cur, bconn);
            pb_ns done = tnow + 10 + 100 + rnd(300);
            bfree[b] = done + 1;
            /* the continuation's thread */
            char nxt[32];
            strcpy(nxt, cur);
            if (model == HANDOFF && rnd(10) < 3)
                snprintf(nxt, sizeof nxt, "h%u", rnd(4));
            else if (model == LOOP1 || model == LOOP2)
                snprintf(nxt, sizeof nxt, "e%u", rnd(model == LOOP1 ? 1 : 2));
            last = add(&s, done, done + 10, "B", "A", PB_TYPE_RETURN, i + 1, c, nxt, bth,
                       bconn);
            strcpy(cur, nxt);
            tnow = done + 10 + 20 + rnd(80);
        }
        add(&s, tnow, tnow + 10, "A", "client", PB_TYPE_RETURN, i + 1, last, "u", cur,
            conn);
        wfree[w] = tnow + 1;
    }
    if (pb_trace_sort(s.t) != PB_OK) {
        pb_trace_close(s.t);
        return NULL;
    }
    return s.t;
}

/* Run algo on t; count requests wrong and wrong without a flag. */
static int check(pb_trace *t, const char *algo, const char *set, int *wrong, int *unflagged,
                 char *meta, size_t metasz)
{
    const pb_algo *a = pb_algo_find(algo);
    pb_error err;
    void *p = calloc(1, a->params_size);
    pb_result res;
    int rc = pb_opt_defaults(a->options, p, &err);
    if (rc == PB_OK && set)
        rc = pb_opt_set_kv(a->options, p, set, &err);
    if (rc == PB_OK)
        rc = pb_result_init(&res, a->name, a->view);
    if (rc != PB_OK) {
        free(p);
        return rc;
    }
    pb_trace_view v = pb_trace_view_of(t);
    rc = a->run(&v, p, &res, &err);
    if (rc == PB_OK) {
        static uint32_t inst[MAXMSG + 1], size[MAXMSG + 1];
        static uint8_t flagged[MAXMSG + 1];
        memset(size, 0, sizeof size);
        memset(flagged, 0, sizeof flagged);
        for (int i = 0; i <= MAXMSG; i++)
            inst[i] = UINT32_MAX;
        for (size_t i = 0; i < res.nassign; i++) {
            inst[res.assign[i].id] = res.assign[i].instance;
            size[res.assign[i].instance]++;
        }
        for (const char *r = pb_strbuf_str(&res.report); (r = strstr(r, "flagged instance "));) {
            r += 17;
            unsigned long f = strtoul(r, NULL, 10);
            if (f <= MAXMSG)
                flagged[f] = 1;
        }
        *wrong = *unflagged = 0;
        for (int q = 1; q <= NREQ; q++) {
            uint32_t first = UINT32_MAX, n = 0;
            int ok = 1, fl = 0;
            for (size_t i = 0; i < t->n; i++) {
                if (t->truth[i].path != (uint64_t)q)
                    continue;
                uint32_t in = inst[t->msgs[i].id];
                n++;
                if (in != UINT32_MAX && flagged[in])
                    fl = 1;
                if (first == UINT32_MAX)
                    first = in;
                if (in != first || in == UINT32_MAX)
                    ok = 0;
            }
            if (ok && size[first] != n)
                ok = 0;
            if (!ok) {
                (*wrong)++;
                *unflagged += !fl;
            }
        }
        snprintf(meta, metasz, "%s", pb_strbuf_str(&res.meta));
    } else {
        printf("# %s\n", err.msg);
    }
    pb_result_free(&res);
    free(p);
    return rc;
}

static int meta_count(const char *meta, const char *key)
{
    const char *k = strstr(meta, key);
    return k ? atoi(k + strlen(key)) : -1;
}

TEST(vpath_paper_models)
{
    for (int model = 0; model < NMODELS; model++) {
        int total_wrong = 0;
        for (uint64_t seed = 1; seed <= 4; seed++) {
            pb_trace *t = simulate(model, seed);
            CHECK(t != NULL);
            if (!t)
                return;
            int wrong = -1, unf = -1;
            char meta[4096];
            CHECK_INT(check(t, "vpath", "variant=paper", &wrong, &unf, meta, sizeof meta),
                      PB_OK);
            if (unf)
                PBT_FAIL("%s seed %llu: %d wrong requests, %d of them unflagged",
                         model_name[model], (unsigned long long)seed, wrong, unf);
            if (model == POOL || model == DISPATCHER) {
                if (wrong)
                    PBT_FAIL("%s seed %llu: %d requests wrong, expected none",
                             model_name[model], (unsigned long long)seed, wrong);
                CHECK_INT(meta_count(meta, "violation_send_outside="), 0);
                CHECK_INT(meta_count(meta, "violation_handoff="), 0);
                CHECK_INT(meta_count(meta, "violation_dispatcher_send="), 0);
                if (model == POOL)
                    CHECK_INT(meta_count(meta, "violation_two_intervals="), 0);
                /* borderpatrol: exact with pool workers; a dispatcher hands
                 * each request to a worker through a queue it cannot see
                 * (its 4, "Workqueue"), so every call then starts a
                 * request of its own */
                int bw = -1, bu = -1;
                CHECK_INT(check(t, "borderpatrol", NULL, &bw, &bu, meta, sizeof meta), PB_OK);
                CHECK_INT(bw, model == POOL ? 0 : NREQ);
            }
            total_wrong += wrong;
            pb_trace_close(t);
        }
        /* the models that break the thread pattern do break it here */
        if (model >= HANDOFF && total_wrong == 0)
            PBT_FAIL("%s: no request wrong in 4 seeds: the model is too easy",
                     model_name[model]);
    }
}

int main(void)
{
    RUN(vpath_paper_models);
    return pbtest_exit();
}
