/*
 * joint_thrstart.c - thread_soft_starts (h302; docs/joint/shapes_w36.md
 * "The thread bar from the visits' starts alone (h302)"; issue 28,
 * held-out mesh s61 x2 1 ms black box).
 *
 * Why.  thread_soft weighs a service's receiving thread only where its
 * rate m -- the thread test's answers on no open visit's thread over
 * chance's, the least over the passes -- is at most 0.5.  The answers are
 * counted against the visits of the current pairing.  In the mesh of
 * experiments/joint_models_mesh.conf at twice its load rounded to 1 ms, the
 * frontend `fe` (a pool of four workers between two sidecar proxies, a
 * third of whose calls overtake one another) is bound under the truth (0
 * misses of chance's 324.8), but every pass without the term pairs its
 * calls and returns so that its answers miss *more* often than chance's
 * (1,007-1,283 against 874-1,004): no pass can bring the rate under the bar
 * and the term never fires (22.0 % on seed 61).  The dev seeds' 51-56 %
 * came from one pass that opens every visit at once: 0 misses of chance's
 * 17.5, just over thread_expect = 10, so m = 0.03 (seed 61's same pass:
 * chance's 8.4, not counted).
 *
 * The evidence the pairing cannot hide.  h295's starts test
 * (joint_thrbar.c): at each visit start, is the new visit's thread one an
 * open visit of the service holds?  A worker owned by its visit keeps new
 * visits off it.  It needs the visits' extents, not their answers: on
 * mesh s61 x2 1 ms black box fe's starts keep off by 13.4 sds on every
 * pass (12.9 under the truth), the proxies (event loops) by -0.2-2.3,
 * cart (bound) 20.4.
 *
 * The rule (thread_soft_starts=Z, default 0: off).  A service over the
 * rate's bar whose starts keep off open visits' threads by at least Z sds
 * on some pass (the most over the passes) is weighed, its term at the bar's
 * rate (min(m, thread_soft)): how often its answers leave their visit's
 * thread is not measured where the pairing is wrong, so the term is the
 * weakest the rate's bar admits.  thread_soft_pick's rate test and moves
 * check still judge the term's solution.  Metadata thread_soft_starts=
 * for every service measured over the bar (with the option on).
 *
 * The level is passed in (joint_thread.c's st_level): thread_soft_starts,
 * or 0 for a service thread_soft_starts_end's search leaves to the rate
 * alone (joint_thrsend.c, h308).
 */
#include "joint_int.h"

#include <math.h>

int joint_thrstart_on(const joint *s, double level, double m, double zs)
{
    return level > 0 && m > s->p.thread_soft && isfinite(zs) && zs >= level;
}

double joint_thrstart_rate(const joint *s, double level, double m, double zs)
{
    return joint_thrstart_on(s, level, m, zs) && m > s->p.thread_soft ? s->p.thread_soft : m;
}

int joint_thrstart_meta(const joint *s, pb_result *res, const char *svc, double level, double m,
                        double zs)
{
    if (!(level > 0) || m <= s->p.thread_soft || !isfinite(zs))
        return PB_OK;
    return pb_result_meta(res, "thread_soft_starts=%s weighed=%s miss_rate=%.4f z_starts=%.2f "
                          "level=%.2f term_rate=%.4f", svc,
                          joint_thrstart_on(s, level, m, zs) ? "yes" : "no", m, zs,
                          level, joint_thrstart_rate(s, level, m, zs));
}
