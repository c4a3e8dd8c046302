/*
 * joint_tieorder.c - joint without call ids: crossed calls and the order
 * of answers (option order_cross; docs/joint/loss_late.md, "The eBPF
 * capture: crossed calls and the order of answers (h210)").
 *
 * The order of answers' term (joint_order.c, pair_order) scores each two
 * consecutive calls of a link by the callee's reads: the later-read one
 * answered first is an overtake (log rho), else kept (log (1 - rho)) when
 * in question.  Two calls that crossed on the way -- the caller sent y
 * before x, the callee read x before y -- have no first arrival: the
 * caller's order and the callee's disagree, so either answer order
 * overtakes one of them.  With order_cross on such a pair is not in
 * question: neither pairing of their answers pays the term, and the
 * durations and the rest of the model decide.  The test compares stamps
 * of one clock each (the two sends on the caller's, the two reads on the
 * callee's).
 */
#include "joint_int.h"

int joint_tieorder_crossed(const joint *s, uint32_t x, uint32_t y)
{
    return s->p.order_cross && s->pr[y].cs < s->pr[x].cs;
}
