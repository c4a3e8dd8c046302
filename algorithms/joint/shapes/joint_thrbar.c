/*
 * joint_thrbar.c - thread_soft_z (h295; docs/joint/shapes_late.md "The
 * thread bar from the trace's evidence (h295)"; issue 28, held-out pool
 * rows).
 *
 * Why.  thread_soft weighs a service's receiving thread only where its rate
 * m -- the thread test's misses (answers on no open visit's thread) over
 * chance's, the least over the passes -- is at most the fixed bar 0.5.  The
 * rate's worth as evidence is not its size alone: pool's frontend (three
 * workers, handoff 0.3) misses at 0.68-0.70 of chance's under the truth's
 * pairing and the term mends 5-9 points of its requests, yet whether it is
 * weighed was the least-over-passes noise (0.44 on dev seed 1: on; 0.68 on
 * seed 60: off).  Raising the bar to 0.8 weighed recur's tree too (an event
 * loop of two threads: 0.87-0.88 under the truth, 0.75 the least over the
 * passes), where its misses fall under chance's by only 2.5-2.7 standard
 * deviations, and lost 0.1-1.0 points there.
 *
 * What tells them apart in the trace.  Not the rate, nor its significance:
 * the answers' z, (e - misses) / sqrt(e) with e chance's misses (at most
 * Poisson's variance), is 3.4-4.3 at recur's tree (hurt) and 3.7-6.3 at
 * pool's frontend (helped).  The visits' starts: a worker owned by its
 * visit keeps new visits off its thread, an event loop's thread takes
 * them while its visits are open.  At each visit start (in the current
 * solution) the test asks whether the new visit's thread is one an open
 * visit of the service started on; chance's count is the sum over starts
 * of the open threads' visit frequencies (at most 1).  Pool's frontend:
 * starts keep off by 5.8-14.5 sds; recur's tree 0.5-0.6, event's web 1.1,
 * the mesh's proxies -0.2-0.6; work stealing's orders (weighed: gains) 9.9.
 *
 * The rule.  A service whose rate is over thread_soft is weighed all the
 * same where, on some pass (the most over the passes, as the rate is the
 * least), both its answers' misses and its starts' collisions fall under
 * chance's by at least thread_soft_z sds: its threads are owned by its
 * visits and its answers come back to them beyond the sample's noise.
 * The term's strength still follows the rate m (its mismatch cost log(m)
 * - log(m + (1 - m) / f) goes to 0 as m goes to 1).  Default 0: the rate's
 * bar alone.  Metadata thread_soft_bar= (with the option on): each service
 * measured over thread_soft, its rate, both z and whether it is weighed.
 */
#include "joint_int.h"

#include <math.h>

int joint_thrbar_on(const joint *s, double m, double z, double zs)
{
    return s->p.thread_soft_z > 0 && m <= 1 && z >= s->p.thread_soft_z && zs >= s->p.thread_soft_z;
}

int joint_thrbar_meta(const joint *s, pb_result *res, const char *svc, double m, double z, double zs)
{
    if (!(s->p.thread_soft_z > 0) || m <= s->p.thread_soft || m > 1 || !isfinite(z))
        return PB_OK;
    return pb_result_meta(res, "thread_soft_bar=%s weighed=%s miss_rate=%.4f z=%.2f z_starts=%.2f level=%.2f",
                          svc, joint_thrbar_on(s, m, z, zs) ? "yes" : "no", m, z, zs, s->p.thread_soft_z);
}
