/* The joint algorithm on the classes of issue 28, hand-worked: a
 * one-worker service stamped in whole milliseconds (a delay stamped 0
 * is not a near-zero delay); the order of service learned per service
 * and reported; a repeated call; a lost call in the middle of a link. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint.h"
#include "pb_algo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MS 1000000LL

/* One request from X into B: arrival at t0, B calls C at t0 + c, C
 * returns at t0 + c + r, B answers `a` after that. */
static void ms_request(pb_trace *t, pb_ns t0, pb_ns c, pb_ns r, pb_ns a_, uint64_t *cid)
{
    uint64_t a = (*cid)++, k = (*cid)++;
    msg(t, t0, "X", "B", PB_TYPE_CALL, a);
    msg(t, t0 + c, "B", "C", PB_TYPE_CALL, k);
    msg(t, t0 + c + r, "C", "B", PB_TYPE_RETURN, k);
    msg(t, t0 + c + r + a_, "B", "X", PB_TYPE_RETURN, a);
}

/* B has one worker and the trace is stamped in whole milliseconds.
 * Forty requests alone teach the delays: arrival -> call and return ->
 * answer are each stamped 0, 1 or 2 ms, in a quarter, half and a quarter
 * of them.  Then q1 arrives at T and calls C at T+1 (the return stamped
 * T+1), answering at T+2; q2 arrives at T+1 and, once the worker is free,
 * calls C at T+2, answering at T+3.  Both calls lie inside both requests.
 * The true split has four delays of 1 ms (log-likelihood 4 ln(1/2) +
 * 4 ln(1/1ms) up to the common terms).  The exchanged one gives q2 the
 * call at T+1 (arrival -> call 0, return -> answer 2 ms) and q1 the call
 * at T+2 (2 ms, then 0).  Measured from a clamp of 10 ns, each delay
 * stamped 0 has a density (with the 1/delay of the log scale) 11.5 nats
 * above a 1 ms one, so the exchanged split won by about 20 nats; taken
 * as half a tick (a delay stamped 0 lies in [0, 1 ms)) it scores
 * 4 ln(1/4) + 2 ln(1/0.5ms) + 2 ln(1/2ms), 4 ln 2 = 2.8 nats below the
 * true split. */
TEST(ms_ticks_zero_delay_is_half_a_tick)
{
    pb_trace *t;
    pb_trace_new(&t);
    next_id = 1;
    uint64_t cid = 1;
    static const int q4[4] = {0, 1, 1, 2};
    for (int k = 0; k < 40; k++)
        ms_request(t, (pb_ns)k * 1000 * MS, q4[k % 4] * MS, (k % 3 == 0) * MS,
                   q4[(k / 4) % 4] * MS, &cid);
    pb_ns T = 50000 * MS;
    ms_request(t, T, 1 * MS, 0, 1 * MS, &cid);
    ms_request(t, T + 1 * MS, 1 * MS, 0, 1 * MS, &cid);
    pb_trace_sort(t);
    pb_trace_view v = pb_trace_view_of(t);
    joint_params p = defaults();
    pb_error err;
    joint *s;
    CHECK_INT(joint_init(&s, &v, &p, &err), PB_OK);
    uint32_t q1 = pair_at(s, t, T, "X"), q2 = pair_at(s, t, T + 1 * MS, "X");
    uint32_t c1 = pair_at(s, t, T + 1 * MS, "B"), c2 = pair_at(s, t, T + 2 * MS, "B");
    CHECK(q1 != JOINT_NONE && q2 != JOINT_NONE && c1 != JOINT_NONE && c2 != JOINT_NONE);
    CHECK_INT(joint_pair_ncandidates(s, c1), 2);
    CHECK_INT(joint_pair_ncandidates(s, c2), 2);
    CHECK_INT(joint_pair_parent(s, c1), q1);
    CHECK_INT(joint_pair_parent(s, c2), q2);
    CHECK_INT(joint_tick(s), 1 * MS);
    joint_close(s);
    pb_trace_close(t);
}

/* B has one worker, stamps are whole milliseconds, and requests come in
 * overlapping pairs: qa arrives at t, qb at t+g while qa is served; qb's
 * call waits for the worker.  Per pair (qa: arrival -> call da, return ->
 * answer ra; qb: db, rb; C answers at once):
 *   T1 (2,0 | g 1 | 4,2), T2 (4,2 | g 4 | 2,0), T3 (3,1 | g 1 | 3,1),
 * cycled T1 T1 T2 T2 T3, 400 pairs.  Arrival -> call is 2, 3 or 4 ms in
 * 40, 20 and 40 % of the requests, return -> answer 0, 1, 2 ms likewise.
 * In a T3 pair both calls (T+3, T+4) lie inside both requests, and the
 * delays prefer the exchange: it gives q1 (4, 0) and q2 (2, 2), 4 ln 0.4
 * against 4 ln 0.2 for the truth's (3, 1) and (3, 1), 2.8 nats (2.9 with
 * the 1/delay of the log scale).  Only the order of service says the
 * first arrival's call is the first call.  B answered every one of its
 * 250 overlapping pairs in arrival order: the order test (no more than
 * 2 % overtaken, one-sided binomial at the 1 % level: 0.98^250 = 0.006)
 * switches the term on for B's endpoint, whose inversion rate is then
 * about 1/252 (-5.5 nats for the exchange), and the truth wins.  With
 * order=off the search takes the exchange in every T3 pair. */
static pb_trace *fifo_pairs(pb_ns *t3)
{
    pb_trace *t;
    pb_trace_new(&t);
    next_id = 1;
    uint64_t cid = 1;
    static const int ty[5][5] = {{2, 0, 1, 4, 2}, {2, 0, 1, 4, 2}, {4, 2, 4, 2, 0},
                                 {4, 2, 4, 2, 0}, {3, 1, 1, 3, 1}};
    for (int k = 0; k < 400; k++) {
        const int *y = ty[k % 5];
        pb_ns t0 = (pb_ns)k * 1000 * MS;
        ms_request(t, t0, y[0] * MS, 0, y[1] * MS, &cid);
        ms_request(t, t0 + y[2] * MS, y[3] * MS, 0, y[4] * MS, &cid);
        if (k % 5 == 4)
            *t3 = t0;
    }
    pb_trace_sort(t);
    return t;
}

TEST(one_worker_order_decides)
{
    pb_ns T = 0;
    pb_trace *t = fifo_pairs(&T);
    pb_trace_view v = pb_trace_view_of(t);
    pb_error err;
    joint *s;
    for (int mode = 0; mode < 2; mode++) {
        joint_params p = defaults();
        p.order = mode ? "auto" : "off";
        /* the order term alone: the rows of this hand-made trace (written
         * request by request) would rule the exchange out by themselves
         * (tie_rows, joint_rowtie.c) */
        p.tie_rows = 0;
        CHECK_INT(joint_init(&s, &v, &p, &err), PB_OK);
        /* every T3 pair: right with the learned order, exchanged without */
        int right = 0, wrong = 0;
        for (pb_ns t0 = 4 * 1000 * MS; t0 <= T; t0 += 5 * 1000 * MS) {
            uint32_t q1 = pair_at(s, t, t0, "X"), q2 = pair_at(s, t, t0 + 1 * MS, "X");
            uint32_t c1 = pair_at(s, t, t0 + 3 * MS, "B"), c2 = pair_at(s, t, t0 + 4 * MS, "B");
            CHECK(q1 != JOINT_NONE && q2 != JOINT_NONE && c1 != JOINT_NONE && c2 != JOINT_NONE);
            right += joint_pair_parent(s, c1) == q1 && joint_pair_parent(s, c2) == q2;
            wrong += joint_pair_parent(s, c1) == q2 && joint_pair_parent(s, c2) == q1;
        }
        CHECK_INT(right + wrong, 80);
        CHECK_INT(mode ? right : wrong, 80);
        joint_close(s);
    }
    pb_trace_close(t);
}

/* A lost call in the middle of a link, without call ids: X sends B a
 * request every 4 ms; B calls C 1 ms after each arrival, C answers after
 * 1 ms (even requests) or 4.5 ms (odd ones: the call overlaps the next
 * request's), B answers 1 ms after C's return.  The call B -> C of
 * request 21 (of 40) was lost; its return (at 89.5 ms) is still there.
 * First in, first out on the link (align=0) gives every later return the
 * call before it; the in-order alignment (the default) leaves the orphan
 * return unpaired (pairing it with request 22's call instead would make
 * that call 0.5 ms long, never seen), and every request but the one that
 * lost its call keeps its own C call, paired with its own return. */
TEST(lost_call_mid_link_costs_one_request)
{
    pb_trace *t;
    pb_trace_new(&t);
    next_id = 1;
    const int N = 40, LOST = 21;
    for (int k = 0; k < N; k++) {
        pb_ns t0 = (pb_ns)k * 4 * MS, d = (k % 2 ? 45 : 10) * MS / 10;
        msg(t, t0, "X", "B", PB_TYPE_CALL, PB_ID_NONE);
        if (k != LOST)
            msg(t, t0 + 1 * MS, "B", "C", PB_TYPE_CALL, PB_ID_NONE);
        msg(t, t0 + 1 * MS + d, "C", "B", PB_TYPE_RETURN, PB_ID_NONE);
        msg(t, t0 + 2 * MS + d, "B", "X", PB_TYPE_RETURN, PB_ID_NONE);
    }
    pb_trace_sort(t);
    pb_trace_view v = pb_trace_view_of(t);
    pb_error err;
    joint *s;
    for (int align = 0; align < 2; align++) {
        joint_params p = defaults();
        p.align = align;
        CHECK_INT(joint_init(&s, &v, &p, &err), PB_OK);
        int right = 0;
        for (int k = 0; k < N; k++) {
            if (k == LOST)
                continue;
            pb_ns t0 = (pb_ns)k * 4 * MS, d = (k % 2 ? 45 : 10) * MS / 10;
            uint32_t q = pair_at(s, t, t0, "X"), c = pair_at(s, t, t0 + 1 * MS, "B");
            CHECK(q != JOINT_NONE && c != JOINT_NONE);
            uint32_t r = joint_pair_return(s, c);
            right += joint_pair_parent(s, c) == q && r != JOINT_NONE &&
                     t->msgs[r].ts == t0 + 1 * MS + d;
        }
        if (align)
            CHECK_INT(right, N - 1);
        else
            CHECK(right < N - 5);
        joint_close(s);
    }
    pb_trace_close(t);
}

/* One worker, no call ids, whole milliseconds.  X sends B requests; B
 * serves them one at a time in arrival order: request k starts when it
 * has arrived and k-1 has been answered, B calls C a_k ms after the start,
 * C answers r_k ms later, B answers b_k ms after that (a, r, b cycle
 * through 0-1, 1-3 and 0-1 ms at co-prime periods, 3 ms on average;
 * arrivals 0-9 ms apart, 3.75 ms on average, so many requests wait).  N = 400 requests (lost: request LOST's call to
 * C is missing, its return is there).  Returns the trace; dep[k] is
 * request k's answer time, arr[k] its arrival. */
#define FN 400
static pb_trace *one_worker_bb(int lost, pb_ns *arr, pb_ns *dep, pb_ns *ccall)
{
    pb_trace *t;
    pb_trace_new(&t);
    next_id = 1;
    static const int gap[8] = {0, 2, 8, 1, 6, 0, 9, 4};
    pb_ns at = 0, free_at = 0;
    for (int k = 0; k < FN; k++) {
        at += gap[k % 8] * MS;
        pb_ns st = at > free_at ? at : free_at;
        pb_ns a = (k % 2) * MS, r = (1 + k % 3) * MS, b = ((k / 5) % 2) * MS;
        arr[k] = at;
        ccall[k] = st + a;
        dep[k] = st + a + r + b;
        free_at = dep[k];
        msg(t, at, "X", "B", PB_TYPE_CALL, PB_ID_NONE);
        if (k != lost)
            msg(t, st + a, "B", "C", PB_TYPE_CALL, PB_ID_NONE);
        msg(t, st + a + r, "C", "B", PB_TYPE_RETURN, PB_ID_NONE);
        msg(t, dep[k], "B", "X", PB_TYPE_RETURN, PB_ID_NONE);
    }
    pb_trace_sort(t);
    return t;
}

/* requests of one_worker_bb whose pair X -> B has its own answer and
 * whose C call (sent at ccall, the first call B sent then) went to it */
static int one_worker_right(const joint *s, const pb_trace *t, const pb_ns *arr,
                            const pb_ns *dep, const pb_ns *ccall, int lost)
{
    int right = 0;
    for (int k = 0; k < FN; k++) {
        if (k == lost)
            continue;
        /* the k-th call of X at its arrival: pairs are numbered in the
         * order of their call messages, ties in trace order */
        uint32_t q = JOINT_NONE, c = JOINT_NONE;
        int seen_q = 0, seen_c = 0, kq = 0, kc = 0;
        for (int j = 0; j < k; j++) {
            kq += arr[j] == arr[k];
            kc += j != lost && ccall[j] == ccall[k];
        }
        for (uint32_t i = 0; i < joint_npairs(s); i++) {
            uint32_t m = joint_pair_call(s, i);
            if (m == JOINT_NONE)
                continue;
            const pb_msg *x = &t->msgs[m];
            const char *src = pb_strtab_str(t->names->nodes, x->src);
            if (x->ts == arr[k] && !strcmp(src, "X") && seen_q++ == kq)
                q = i;
            if (x->ts == ccall[k] && !strcmp(src, "B") && seen_c++ == kc)
                c = i;
        }
        if (q == JOINT_NONE || c == JOINT_NONE)
            continue;
        uint32_t rq = joint_pair_return(s, q);
        right += rq != JOINT_NONE && t->msgs[rq].ts == dep[k] && joint_pair_parent(s, c) == q;
    }
    return right;
}

/* Without the first-in-first-out test (fifo=0) the re-pairing and the
 * exchanges move returns between B's waiting requests (their response
 * delays from the latest input, 0 or 1 ms, say little, and the exchanges
 * follow them); with it, B's link passes (busy starts' service times,
 * counted from the previous answer, are distributed like idle starts',
 * and B makes one call in every service interval) and every request keeps
 * its own answer and its own call (measured: 348 of 400 right with
 * fifo=0, 400 with the test).  Without the test, a search that holds the
 * order of answers and calls (pair_order=on) gets all 400 too, but the
 * model prefers the free one's (pair_order=auto keeps it; docs/joint/search.md,
 * "Order of answers").  The stamps are whole milliseconds, so the tie test
 * (joint_quant.c) runs: it also gets all 400 with fifo=0 (the moves stay
 * within a tick and buy little), so the two controls run without it. */
TEST(one_worker_black_box_keeps_fifo)
{
    static pb_ns arr[FN], dep[FN], cc[FN];
    pb_trace *t = one_worker_bb(-1, arr, dep, cc);
    pb_trace_view v = pb_trace_view_of(t);
    pb_error err;
    joint *s;
    int right[3];
    for (int f = 0; f < 3; f++) {
        joint_params p = defaults();
        p.fifo = f == 1;
        p.pair_order = f == 2 ? "on" : "off";
        p.tie_test = f == 1; /* the controls without the tie test (it rescues them too) */
        CHECK_INT(joint_init(&s, &v, &p, &err), PB_OK);
        right[f] = one_worker_right(s, t, arr, dep, cc, -1);
        joint_close(s);
    }
    printf("one worker: right %d (fifo=0 pair_order=off) %d (fifo=1) %d (fifo=0 "
           "pair_order=on) of %d\n", right[0], right[1], right[2], FN);
    CHECK_INT(right[1], FN);
    CHECK(right[0] < FN);
    CHECK_INT(right[2], FN); /* the search holding the order of answers and calls */
    pb_trace_close(t);
}

/* The same link with B's call to C of request 200 lost: the in-order
 * alignment leaves C's orphan return unpaired, the link still passes the
 * test, and every other request stays right (without the test the
 * re-pairing moves returns around the gap as well: 347 of 399). */
TEST(one_worker_black_box_lost_call)
{
    static pb_ns arr[FN], dep[FN], cc[FN];
    const int lost = 200;
    pb_trace *t = one_worker_bb(lost, arr, dep, cc);
    pb_trace_view v = pb_trace_view_of(t);
    pb_error err;
    joint *s;
    int right[3];
    for (int f = 0; f < 3; f++) {
        joint_params p = defaults();
        p.fifo = f == 1;
        p.pair_order = f == 2 ? "on" : "off";
        p.tie_test = f == 1; /* the controls without the tie test (it rescues them too) */
        CHECK_INT(joint_init(&s, &v, &p, &err), PB_OK);
        right[f] = one_worker_right(s, t, arr, dep, cc, lost);
        joint_close(s);
    }
    printf("one worker, lost call: right %d (fifo=0 pair_order=off) %d (fifo=1) %d (fifo=0 "
           "pair_order=on) of %d\n", right[0], right[1], right[2], FN - 1);
    CHECK_INT(right[1], FN - 1);
    CHECK(right[0] < FN - 1);
    CHECK_INT(right[2], FN - 1);
    pb_trace_close(t);
}

int main(void)
{
    RUN(ms_ticks_zero_delay_is_half_a_tick);
    RUN(one_worker_order_decides);
    RUN(lost_call_mid_link_costs_one_request);
    RUN(one_worker_black_box_keeps_fifo);
    RUN(one_worker_black_box_lost_call);
    return pbtest_exit();
}
