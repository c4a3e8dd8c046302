/*
 * joint_lserunder.c - loss_serial_under: the serial test's bound on a
 * link's overlaps, wider than the quarter (off by default; h312,
 * docs/joint/shapes_w36.md "Pool s61 x2 with call ids: the serial test
 * counts the search's own stacks").
 *
 * The serial test (joint_lserial.c, lser_is_serial) calls a link serial
 * where its outputs that overlap an earlier call of their request are at
 * most a quarter of what the requests' busy fractions would give if calls
 * were ascribed without regard to order (chance's count), and z < -3.  It
 * is made on the term-free solution, so the stacks that solution made are
 * counted against the link.  Pool s61 x2 with call ids (a front end of
 * three saturated workers): the term-free search shifts frontend>profile
 * calls one or two requests on (945 of 1,590), which stacks 853 of 1,547
 * profile outputs and 154 of 795 reservation outputs (truth: 0 and 0);
 * reservation's overlaps are then 0.272 of chance's (z -32), profile's
 * 0.771 (z -14), neither at most 1/4, so no link with a stack is called
 * serial and loss_serial=8's gate sees none (share 0).  A parallel
 * fan-out overlaps as often as chance or more (ratio about 1); a link far
 * under chance (z < -3) whose ratio is still above 1/4 is either a serial
 * link the solution stacks or a link whose calls now and then genuinely
 * overlap (retries, about 1 in 6).  The bound here, where larger than
 * 1/4, admits such links to the test: the gate then counts their stacks,
 * and the second search prices them; the cross-fitted check
 * (joint_lser_choose_x / _w) still decides which solution is kept, so a
 * genuine overlap (retry) is kept where the model without the term
 * prefers it.  Decided from the trace's counts; nothing per service.
 */
#include "joint_int.h"

double joint_lserunder_bound(const joint *s)
{
    return s->p.loss_serial_under > 0.25 ? s->p.loss_serial_under : 0.25;
}

void joint_lserunder_note(joint *s, double ratio)
{
    if (s->lsu_links == 0 || ratio < s->lsu_ratio)
        s->lsu_ratio = ratio;
    s->lsu_links++;
}

int joint_lserunder_meta(const joint *s, pb_result *res)
{
    if (s->p.loss_serial_under <= 0.25)
        return PB_OK;
    return pb_result_meta(res, "loss_serial_under=%.4f links_under=%zu lowest_ratio=%.4f",
                          s->p.loss_serial_under, s->lsu_links,
                          s->lsu_links ? s->lsu_ratio : 0.0);
}
