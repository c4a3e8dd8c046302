/*
 * test_assume.c - the assumption meters (metrics/assume.h) on a small
 * hand-written trace whose every count is worked out below.
 */
#include <math.h>
#include <stdlib.h>

#include "assume.h"
#include "pbtest.h"

#define MS(x) ((pb_ns)((x) * 1000000.0))

typedef struct row {
    int id;
    double ts;
    const char *s, *d;
    int type;
    int callid, path, cause; /* cause -1: none */
    const char *thr, *sthr;
} row;

/* Client threads C:c0, C:c1 send two requests to A, whose one event-loop
 * thread A:t0 reads both (at 1 and 2 ms) before it acts, like a read
 * without isolation; A's second reply leaves from A:t1.
 *
 *   0  1ms C->A call 1 (path 1)                 recv A:t0
 *   1  2ms C->A call 2 (path 2)                 recv A:t0
 *   2  3ms A->B call 3, cause 0, sent by A:t0   recv B:w0
 *   3  4ms A->B call 4, cause 1, sent by A:t0   recv B:w1
 *   4  5ms B->A return 3, cause 2, by B:w0      recv A:t0
 *   5  6ms B->A return 4, cause 3, by B:w1      recv A:t1
 *   6  7ms A->C return 1, cause 4, by A:t0      recv C:c0
 *   7  8ms A->C return 2, cause 5, by A:t1      recv C:c1
 *
 * Immediacy, over the six messages with a cause: 2 is sent by A:t0, whose
 * latest receipt is 1 (not its cause 0): not immediate; 3 (latest of A:t0
 * is 1 = cause), 4 (B:w0 got 2), 5 (B:w1 got 3), 6 (A:t0 got 4 at 5 ms),
 * 7 (A:t1 got 5) are: 5 of 6.
 *
 * Thread pattern, over the four visits (calls with their reply): call 1
 * at A: nested call 2 and reply 6 both from A:t0 (one thread), but A:t0
 * also sends 3, of visit 1, inside [1 ms, 7 ms]: not exclusive.  Call 2 at
 * A: nested call 3 from A:t0, reply 7 from A:t1: two threads.  Calls 3 and
 * 4 at B: leaves, each reply alone on its thread in its interval.  So
 * thread_pattern = 2/4, one_thread = 3/4. */
static const row rows[] = {
    {0, 1, "C", "A", PB_TYPE_CALL, 1, 1, -1, "A:t0", "C:c0"},
    {1, 2, "C", "A", PB_TYPE_CALL, 2, 2, -1, "A:t0", "C:c1"},
    {2, 3, "A", "B", PB_TYPE_CALL, 3, 1, 0, "B:w0", "A:t0"},
    {3, 4, "A", "B", PB_TYPE_CALL, 4, 2, 1, "B:w1", "A:t0"},
    {4, 5, "B", "A", PB_TYPE_RETURN, 3, 1, 2, "A:t0", "B:w0"},
    {5, 6, "B", "A", PB_TYPE_RETURN, 4, 2, 3, "A:t1", "B:w1"},
    {6, 7, "A", "C", PB_TYPE_RETURN, 1, 1, 4, "C:c0", "A:t0"},
    {7, 8, "A", "C", PB_TYPE_RETURN, 2, 2, 5, "C:c1", "A:t1"},
};

static pb_trace *build(int with_threads, int rename)
{
    pb_trace *t = NULL;
    if (pb_trace_new(&t) != PB_OK)
        return NULL;
    size_t n = sizeof rows / sizeof *rows;
    for (size_t i = 0; i < n; i++) {
        const row *r = &rows[i];
        if (pb_trace_add(t, (uint64_t)r->id, MS(r->ts), MS(r->ts), r->s, r->d,
                         (pb_msg_type)r->type, (uint64_t)r->callid, (uint64_t)r->path,
                         r->cause < 0 ? PB_ID_NONE : (uint64_t)r->cause) != PB_OK)
            return NULL;
        if (!with_threads)
            continue;
        char a[32], b[32];
        snprintf(a, sizeof a, "%s%s", rename ? "x-" : "", r->thr);
        snprintf(b, sizeof b, "%s%s", rename ? "x-" : "", r->sthr);
        pb_obs *m = pb_trace_obs(t);
        if (!m)
            return NULL;
        m += t->n - 1;
        if (pb_obs_label(t->names, a, strlen(a), &m->thread) != PB_OK ||
            pb_obs_label(t->names, b, strlen(b), &m->sthread) != PB_OK)
            return NULL;
    }
    t->columns = PB_COL_ALL | (with_threads ? PB_COL_THREAD | PB_COL_STHREAD : 0u);
    return t;
}

TEST(hand_worked)
{
    for (int rename = 0; rename < 2; rename++) {
        pb_trace *t = build(1, rename);
        CHECK(t != NULL);
        if (!t)
            return;
        assume_meters m;
        pb_error err;
        CHECK_INT(assume_compute(t, &m, &err), PB_OK);
        CHECK_INT(m.imm_n, 6);
        CHECK_INT(m.imm_ok, 5);
        CHECK_NEAR(m.immediacy, 5.0 / 6.0, 1e-12);
        CHECK_INT(m.tp_n, 4);
        CHECK_INT(m.tp_ok, 2);
        CHECK_INT(m.ot_ok, 3);
        CHECK_NEAR(m.thread_pattern, 0.5, 1e-12);
        CHECK_NEAR(m.one_thread, 0.75, 1e-12);
        pb_trace_close(t);
    }
}

/* One thread per visit, nothing shared: both meters 1. */
TEST(dedicated_threads)
{
    pb_trace *t = build(1, 0);
    CHECK(t != NULL);
    if (!t)
        return;
    /* give call 2's visit its own thread A:t1 for its nested call (msg 3),
     * and let msg 1 be received by A:t1: then A:t0 serves only visit 1 */
    uint32_t t1;
    CHECK_INT(pb_obs_label(t->names, "A:t1", 4, &t1), PB_OK);
    pb_trace_obs(t)[1].thread = t1;
    pb_trace_obs(t)[3].sthread = t1;
    assume_meters m;
    pb_error err;
    CHECK_INT(assume_compute(t, &m, &err), PB_OK);
    CHECK_NEAR(m.immediacy, 1.0, 1e-12);
    CHECK_NEAR(m.thread_pattern, 1.0, 1e-12);
    pb_trace_close(t);
}

TEST(no_thread_columns)
{
    pb_trace *t = build(0, 0);
    CHECK(t != NULL);
    if (!t)
        return;
    assume_meters m;
    pb_error err;
    CHECK_INT(assume_compute(t, &m, &err), PB_OK);
    CHECK(isnan(m.immediacy));
    CHECK(isnan(m.thread_pattern));
    CHECK_INT(m.imm_n, 0);
    pb_trace_close(t);
}

int main(void)
{
    RUN(hand_worked);
    RUN(dedicated_threads);
    RUN(no_thread_columns);
    return pbtest_exit();
}
