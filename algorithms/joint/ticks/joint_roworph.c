/*
 * joint_roworph.c - joint: on rows shown to be the order of events and
 * spread over their ticks (subtick), a start that leaves calls without a
 * parent is refuted by the sign test alone (tie_orphans_rows;
 * docs/joint/ticks.md, "Calls the start leaves without a parent, on rows
 * in event order").
 *
 * tie_orphans (joint_tieorph.c) refutes the start the tie test would keep
 * when the start leaves significantly more calls without any parent than
 * the search (a sign test), but only when the search is also likelier than
 * the start (each under its own refit).  That condition was set at whole-
 * tick stamps whose rows were not read (deep at 1 ms: the search less
 * likely and worse).  Where subtick spread the rows (its check found them
 * in the order of events, joint_subtick.c), the stamps the likelihoods are
 * computed on are the spread positions, estimates made by the rows'
 * count within a tick; at 10 ms on services of a millisecond they are
 * most of what the model sees, and the two likelihoods say little about
 * which solution is right: the event and mixed execution models as black
 * boxes at 10 ms have the start leave 87-503 calls without a parent
 * against 0-10 (p below 1e-26) while the search is the less likely (-2.9
 * to -0.04 nats a move), and the search is the right one there by 13-51
 * points.  An orphan, on the other hand, is a fact of the rows: every call
 * a service sends is sent for a request it serves, the rows are in the
 * order of events, so a call the start's pairing of returns leaves outside
 * every request of its service means that pairing closed a request before
 * the call was sent.  Rule: where the rows were spread (subtick's check
 * passed), the tie test's tie_orphans decision is the sign test alone.
 * Where the check declined (rows of no order, e.g. shuffled within each
 * tick), at stamps not coarse, with call ids (the tie test does not run on
 * spread rows with ids) or where the tie test keeps the search, nothing
 * changes.  The self-calibration's copy (joint_selfcal.c) runs the rule
 * only where it decided the real trace's tie test (refuted a start the
 * search was not likelier than): elsewhere the copy's search is the one
 * the real trace's was, and its confidences stay what they were (async at
 * 10 ms, seed 1: the same links, but the copy with the rule stated 0.97 on
 * calls 87 % right).  Metadata, where the rule applies and the tie test
 * would keep the start: tie_orphans_rows=on search_likelier=yes|no
 * refuted=yes|no.
 */
#include "joint_int.h"

int joint_roworph_applies(const joint *s)
{
    /* every service's rows spread (a partial spread, joint_subsvc.c, leaves
     * rows of no order whose orphans say nothing) */
    return s->p.tie_orphans_rows && s->p.subtick_tick > 0 && !s->p.subtick_partial;
}

int joint_roworph_refutes(int applies, size_t start_only, size_t search_only, double ll_start,
                          double ll_search)
{
    if (applies)
        return joint_tieorph_refutes(start_only, search_only);
    return joint_tieorph_keeps_search(start_only, search_only, ll_start, ll_search);
}

int joint_roworph_decided(const joint *s)
{
    return s->orph_on && s->orph_refuted && joint_roworph_applies(s) &&
           !(s->quant_ll[1] > s->quant_ll[0]);
}

int joint_roworph_meta(const joint *s, pb_result *res)
{
    if (!s->orph_on || !joint_roworph_applies(s))
        return PB_OK;
    return pb_result_meta(res, "tie_orphans_rows=on search_likelier=%s refuted=%s",
                          s->quant_ll[1] > s->quant_ll[0] ? "yes" : "no",
                          s->orph_refuted ? "yes" : "no");
}
