/*
 * joint_serial.c - joint: learned parallel calls checked by a search
 * without them, with call ids (docs/joint.md, "Learned parallel calls
 * checked with call ids", issue 28).
 *
 * The option `parallel` learns, per service and pair of outgoing links,
 * that a call's return is no trigger of a later output when, over the
 * requests making both, the output was sent before the return in most
 * of them.  It is learned from the current solution, so a wrong
 * assignment can teach it: when requests pile up (a slow service, a
 * fault minute), the search may stack the calls of requests that just got
 * their answer onto a request still waiting for its own call; the two
 * links then look parallel, the learned flag takes the true trigger (the
 * answer just received) away from those calls, and the solution holds
 * itself in place.
 *
 * With call ids the pairs are fixed, so a second search is a plain
 * comparison: when the search ended with at least one learned parallel
 * call, the same search runs again with parallel=1 (no learned parallel
 * calls) and its solution is kept when the model, refitted on each
 * solution, finds it likelier by more than JOINT_RESTART_MARGIN nats.
 * A trace whose search learns no parallel call runs once, as before
 * (byte for byte).  Metadata: parallel_check=on learned_parallel=N
 * chosen=learned|without log_likelihood_learned= log_likelihood_without=.
 */
#include "joint_int.h"

uint32_t joint_serial_flags(const joint *s)
{
    uint32_t n = 0;
    for (uint32_t h = 0; h < s->npar; h++)
        n += s->pflag[h] != 0;
    return n;
}

joint *joint_serial_pick(joint *a, joint *b)
{
    double la = joint_loglik(a), lb = joint_loglik(b);
    joint *keep = lb > la + JOINT_RESTART_MARGIN ? b : a;
    keep->ser_state = keep == b ? 2 : 1;
    keep->ser_flags = joint_serial_flags(a);
    keep->ser_ll[0] = la;
    keep->ser_ll[1] = lb;
    return keep;
}

int joint_serial_meta(const joint *s, pb_result *res)
{
    if (!s->ser_state)
        return PB_OK;
    return pb_result_meta(res,
                          "parallel_check=on learned_parallel=%u chosen=%s "
                          "log_likelihood_learned=%.3f log_likelihood_without=%.3f",
                          (unsigned)s->ser_flags, s->ser_state == 2 ? "without" : "learned",
                          s->ser_ll[0], s->ser_ll[1]);
}
