/*
 * joint_latesend.c - joint: how long after a request's end its late
 * calls are *sent* (docs/joint/model.md, "Calls that outlive their request",
 * "The send side of late calls").
 *
 * The late-call test (joint_late.c) learns one gap g per service from
 * the orphans' stretch, how far their return came after the end of a
 * request that began before they were sent.  A stretch mixes two kinds
 * of lateness: a call sent inside its request whose return comes after
 * the response (a reactive front end; a call the service stopped
 * waiting for: a timed-out attempt before a retry, a fire-and-forget
 * call), and a call sent after the response (work handed on after
 * answering).  Only the second needs candidates that ended before the
 * call was sent.  Widening every call's candidates by the stretch g
 * gives, at a service whose orphans were all sent inside a request and
 * returned milliseconds later, each of its calls every request that
 * ended up to g before it was sent: on retries after a 6 ms timeout
 * (g = 10 ms) joint with call ids fell to 21.7 % exact where the strict
 * send side gives 73 %.
 *
 * The send gap is learned from the same orphans the test counted near
 * (stretch <= g): their send lag is how far the call was sent after the
 * latest end of a request that began before it (0 when sent inside
 * one).  The send gap is the smallest of the test's gaps at least the
 * largest such lag, 0 when every one was sent inside a request; it is
 * at most g, since a lag never exceeds its stretch.
 */
#include "joint_int.h"

pb_ns joint_late_send_gap(const pb_ns *lag, const pb_ns *sig, uint32_t n, pb_ns g,
                          const pb_ns *gaps, int ngaps)
{
    pb_ns mx = 0;
    for (uint32_t j = 0; j < n; j++)
        if (sig[j] <= g && lag[j] > mx)
            mx = lag[j];
    if (mx == 0)
        return 0;
    for (int i = 0; i < ngaps; i++)
        if (gaps[i] >= mx)
            return gaps[i] < g ? gaps[i] : g;
    return g;
}



/*
 * Which requests a call gets.  The model has no term for a call that
 * outlives the request it is put in: a call's return after the response
 * scores nothing there.  So a call that some request encloses (it has
 * strict candidates), given also the requests it was merely sent in, is
 * moved for free into a request that ended before its return; on the
 * retry audit (a 6 ms timeout, 10 % of the calls late) 310 of 720 calls
 * that returned inside their request went wrong that way.  That
 * relaxation of the return side is worth it only where a call returning
 * after a request's end is mostly a late call of that request, not
 * chance: where most of the test's near orphans are more than chance
 * explains (joint_late_excess >= 1/2: TrainTicket's gateway, 6 near
 * orphans at chance 0.18, excess 0.82, three late calls with a wrong
 * strict candidate; the retry service, 71 near at chance 0.75, excess
 * 0.25).  Or, per link, where most of the link's calls are orphans
 * (their share at least 1/2: a call of that link that returns after a
 * request's end is more likely late than not; the api's fire-and-forget
 * calls to its logger, 0.88, where the excess says nothing: that service
 * passed by its sends).  Elsewhere it is kept for the orphans, the calls
 * the test was about.  The send side, requests that ended at most the send gap before
 * the call was sent, is open to every call (a call sent on after its
 * response may lie inside an overlapping request: its only strict
 * candidate, a wrong one).
 */
double joint_late_excess(double near, double n, double chance)
{
    if (!(near > 0))
        return 0;
    double x = (near - n * chance) / near;
    return x < 0 ? 0 : x;
}

int joint_late_cand(const joint *s, size_t strict, pb_ns qe, pb_ns cs, pb_ns rr, pb_ns lg,
                    pb_ns ls, int all)
{
    if (!s->p.late_split)
        return qe + lg >= cs;
    if (strict == 0 && !all && s->late_hold)
        return 0; /* held as a root during the search (joint_lateattach.c) */
    if (strict == 0 || all)
        return qe + ls >= cs;
    return qe >= rr || (qe < cs && qe + ls >= cs);
}
