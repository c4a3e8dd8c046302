/*
 * joint_busythr.c - thread_bound_starts: thread_bound's test where an
 * answer can hardly miss (h319; docs/joint/shapes_w36.md "Pool x2 1 ms with
 * call ids: the thread bar's power (h319)"; issue 28, held-out pool x2 1 ms
 * with call ids).
 *
 * Why.  thread_bound (joint_thread.c) binds a service's visits to their
 * threads where the answers to its calls land on no open visit's thread at
 * most thread_ratio (0.1) as often as threads drawn by chance would, and
 * only where chance gives at least thread_expect (10) misses.  Pool's
 * frontend (experiments/joint_models_pool.conf: three blocking workers) at
 * twice its load is saturated: at almost every answer every worker holds
 * an open visit, so chance gives 2.3 misses (seed 61, 1 ms; 3.3 on seed 1)
 * and the service is never tested, though its answers miss 0 times and
 * every answer in the truth comes back to the thread of its own visit.
 * Unbound, the frontend's calls at 1 ms ticks go to other requests'
 * visits (profile 65 % of its calls on a wrong parent): 14 % of requests
 * exact on every seed, dev and held out.  Bound, a call keeps only the
 * visits on its answer's thread, and since a worker serves one visit at a
 * time that is one visit: 14.2 -> 100 % (seed 61; `-s thread_expect=1`
 * shows it, but binds on no evidence at all).
 *
 * The evidence with power there: the visits' starts (h295's starts test,
 * joint_thrbar.c, made in thread_test on the same pairs): at each visit
 * start, is its thread one an open visit of the service holds?  A worker
 * owned by its visit keeps new visits off it; saturation makes chance's
 * collisions many, not few.  Pool's frontend at x2 1 ms: 0 collisions in
 * the truth; the starts keep off open visits' threads by many sds.
 *
 * The rule (thread_bound_starts=Z, default 0: off).  A service where
 * chance gives under thread_expect misses is bound all the same where its
 * starts kept off by at least Z sds on some pass (the most over the
 * passes, as thread_soft_starts) and its answers miss no more often than
 * chance's (the answers cannot tell there, but must not speak against:
 * an event loop's starts never keep off).  Both counts at whole ticks
 * (joint_busythr_tick): within a coarse tick the rows' order is not the
 * events', so a visit ending in a start's tick is not open at it, and an
 * answer hits a visit on its thread open at some moment of its tick; at
 * 1 ms every start of the saturated front end collides with the visit
 * the worker just ended (z 0.06) and the truth's few handoffs (3 of 3,180
 * answers on seed 58, 8 on 59) are real misses, at most chance's.  Where
 * chance gives thread_expect or more the answers decide as before.  Pairs
 * as thread_bound's (by call id at its default 2: a black box is
 * untouched).  Metadata thread_bound_starts= per service where chance
 * gives under thread_expect (with the option on): its answers, misses
 * (at whole ticks), chance's, the starts' z and whether it is bound.
 */
#include "joint_int.h"

#include <math.h>

int joint_busythr_bind(const joint *s, size_t n, size_t miss, double expect, double zs,
                       size_t nmin)
{
    return s->p.thread_bound_starts > 0 && n >= nmin && expect < s->p.thread_expect &&
           (double)miss <= expect && isfinite(zs) &&
           zs >= s->p.thread_bound_starts;
}

int joint_busythr_meta(const joint *s, pb_result *res, const char *svc, size_t n, size_t miss,
                       double expect, double zs, int bound)
{
    return pb_result_meta(res, "thread_bound_starts=%s answers=%zu misses=%zu chance_misses=%.1f "
                          "z_starts=%.2f level=%.2f bound=%s", svc, n, miss, expect, zs,
                          s->p.thread_bound_starts, bound ? "yes" : "no");
}

/* the stamps' own tick: the trace's, or the original one where joint_run
 * spread tied rows over their ticks (subtick); 1 at fine stamps */
pb_ns joint_busythr_tick(const joint *s)
{
    if (s->tick > 1)
        return s->tick;
    return s->p.subtick_tick > 1 ? s->p.subtick_tick : 1;
}
