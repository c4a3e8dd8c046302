/*
 * joint_thrmove.c - thread_soft_pick=7 (h245; docs/joint/shapes_late.md
 * "The term's moves against the misses it mends (h245)"; issue 28).
 *
 * Why.  thread_soft_pick=6 (joint_thrtest.c) keeps the term's solution S
 * when the thread test's misses in S and in the other solution T (the
 * term fitted, muted) outweigh the delays' log-likelihood ratio.  On the
 * pool of experiments/joint_models_pool.conf at twice its load rounded to
 * 1 ms (seed 1) S mends T's 7 misses (7 -> 0 of 1,594 answers; 45 nats)
 * against 8.1 nats of delays, and is still 2 requests worse: to mend 7
 * answers S moved 79 calls to other parents, most of them at 1 ms ties on
 * links the thread says nothing about.  Where the term gains (seda, work
 * stealing, the pool at its load) S moves 2.8-5.4 calls per mended miss:
 * each mended answer is a swap of two visits and their calls.
 *
 * The rule.  As pick=6, and where S is kept only by the thread test (the
 * model without the term does not find S likelier by more than
 * JOINT_RESTART_MARGIN), S is kept only when the calls whose parent
 * differs between S and T are at most R times the misses S mends (T's
 * misses less S's).  R (thread_soft_moves=0, the default) is learned from
 * the trace: twice the mean number of calls in a visit the term weighs
 * (the visit's own call and every call below it, in S), what a clean mend
 * moves (two visits swapped with their calls); thread_soft_moves>0 gives
 * R.  The rest of the moves are the search's noise, which the thread's
 * evidence does not speak for.  Metadata
 * thread_soft_moves= with the counts.  O(n) more than pick=6.
 */
#include "joint_int.h"

#include <stdlib.h>

/* calls (by message) whose parent call differs between s and t; -1 out of memory */
static double moved_calls(const joint *s, const joint *t)
{
    size_t n = s->v.n;
    uint32_t *pc = malloc((n + 1) * sizeof *pc);
    if (!pc)
        return -1;
    for (size_t i = 0; i < n; i++)
        pc[i] = JOINT_NONE;
    for (uint32_t q = 0; q < t->npairs; q++) {
        uint32_t c = t->pr[q].call, p = t->par ? t->par[q] : JOINT_NONE;
        if (c != JOINT_NONE && c < n)
            pc[c] = p == JOINT_NONE ? JOINT_NONE - 1 : t->pr[p].call;
    }
    double m = 0;
    for (uint32_t q = 0; q < s->npairs; q++) {
        uint32_t c = s->pr[q].call, p = s->par ? s->par[q] : JOINT_NONE;
        if (c == JOINT_NONE || c >= n)
            continue;
        uint32_t ps = p == JOINT_NONE ? JOINT_NONE - 1 : s->pr[p].call;
        if (pc[c] != ps)
            m++;
    }
    free(pc);
    return m;
}

/* twice the mean number of calls in a visit the term weighs in s (its own
 * call and every call below it): what a clean mend moves (two visits
 * swapped with their calls); 0 where none is weighed */
static double swap_size(const joint *s)
{
    double visits = 0, calls = 0;
    for (uint32_t q = 0; q < s->npairs; q++) {
        if (s->pr[q].call == JOINT_NONE)
            continue;
        uint32_t a = q;
        for (int d = 0; d < 64 && a != JOINT_NONE; d++) {
            if (joint_thread_weighs(s, a)) {
                calls++;
                visits += a == q;
            }
            a = s->par ? s->par[a] : JOINT_NONE;
        }
    }
    return visits > 0 ? 2 * calls / visits : 0;
}

int joint_thrmove_ok(double moved, double mended, double ratio)
{
    return mended > 0 && moved >= 0 && moved <= ratio * mended;
}

int joint_thrmove_pick(joint *s, joint *t, double ls, double lt)
{
    int with = joint_thrtest_pick(s, t, ls, lt); /* pick=6's test (joint_thrtest.c) */
    int both = !with && s->p.thread_soft_mendfirst > 0 && s->thrho[4] > JOINT_RESTART_MARGIN;
    if ((!with && !both) || ls > lt + JOINT_RESTART_MARGIN)
        return with; /* pick=3 keeps S too: nothing to check (thread_soft_mendfirst: the
                        moves decide both ways where G alone is over the margin, h274) */
    double cs[3], ct[3];
    if (joint_thread_count(s, s, cs) != PB_OK || joint_thread_count(t, s, ct) != PB_OK)
        return 0; /* out of memory: pick=3's answer (S not likelier by the margin) */
    double moved = moved_calls(s, t), mended = ct[1] - cs[1];
    double r = s->p.thread_soft_moves > 0 ? s->p.thread_soft_moves : swap_size(s);
    int ok = joint_thrmove_ok(moved, mended, r);
    s->thrmove[0] = t->thrmove[0] = ok ? 2 : 1;
    s->thrmove[1] = t->thrmove[1] = moved;
    s->thrmove[2] = t->thrmove[2] = mended;
    s->thrmove[3] = t->thrmove[3] = r;
    return ok;
}

int joint_thrmove_meta(const joint *s, pb_result *res)
{
    if (!(s->thrmove[0] > 0))
        return PB_OK;
    return pb_result_meta(res, "thread_soft_moves=%s ratio=%.2f moved_calls=%.0f mended_misses=%.0f "
                          "kept=%s", s->p.thread_soft_moves > 0 ? "given" : "swap_size",
                          s->thrmove[3], s->thrmove[1], s->thrmove[2],
                          s->thrmove[0] > 1 ? "with_term" : "without_term");
}
