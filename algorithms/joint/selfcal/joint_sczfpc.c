/*
 * joint_sczfpc.c - conf_copy_share_fpc: conf_copy_share_z's bound with the
 * finite-population correction (docs/joint/speed_w34.md, "The smaller
 * copy's bound when the default copy is the whole trace (h292)").
 *
 * conf_copy_share_z (joint_scz.c) takes the smaller copy's map z = k (1 -
 * sqrt f) of its own standard errors down, so that it lies k of the
 * default copy's standard errors above the truth no more often than the
 * default copy's map.  That compares the two copies' noise as samples of
 * an unbounded population: se_default / se_small = sqrt f.  But a copy is
 * drawn from the trace's own requests, N pairs: a copy of n pairs has a
 * sampling standard error sigma sqrt((1 - n / N) / n) about the trace's
 * share (the finite-population correction).  Where the default copy holds
 * the whole trace (n_d = N: a trace under the copy's floor of pairs,
 * conf_sim_pairs) its sampling noise is nothing, and every rare pattern of
 * the trace is in its map; the smaller copy's is not.  With the
 * correction the ratio is
 *     r = se_d / se_s = sqrt((n_s / n_d) (1 - n_d / N) / (1 - n_s / N))
 * and the same argument (P(N(0, 1) > z + k r) = P(N(0, 1) > k)) gives
 * z = k (1 - r): k itself where the default copy is the whole trace,
 * k (1 - sqrt f) again where the trace is much larger than both copies.
 * The smallest r over the result's copies is kept (the largest z).
 * Confidences only: every path is the search's.
 */
#include "joint_int.h"

#include <math.h>

void joint_sczfpc_note(joint *s, size_t full, size_t got, size_t total)
{
    joint_params *p = &s->p;
    if (!p->conf_copy_share_fpc || !p->scp_cal || !full || got >= full || !total)
        return;
    double ns = (double)got / (double)total, nd = (double)full / (double)total;
    if (nd > 1)
        nd = 1;
    double r = ns < 1 ? sqrt(((double)got / (double)full) * (1 - nd) / (1 - ns)) : 1;
    if (p->sczfpc_r < 0 || r < p->sczfpc_r)
        p->sczfpc_r = r;
    if (p->sczfpc_r < 0 || nd > p->sczfpc_nd)
        p->sczfpc_nd = nd;
}

double joint_sczfpc_z(const joint *s, double k, double f)
{
    const joint_params *p = &s->p;
    if (!p->conf_copy_share_fpc || p->sczfpc_r < 0)
        return k * (1 - sqrt(f));
    return k * (1 - p->sczfpc_r);
}

int joint_sczfpc_meta(const joint *s, pb_result *res)
{
    const joint_params *p = &s->p;
    if (!p->conf_copy_share_fpc || p->conf_copy_share_z <= 0 || !s->scal_done)
        return PB_OK;
    return pb_result_meta(res, "conf_copy_share_fpc=%d default_copy_share_of_trace=%.4f "
                          "se_ratio=%.4f (conf_copy_share_z's bound with the finite-population "
                          "correction: z = k (1 - se_ratio); -1: no smaller copy)",
                          p->conf_copy_share_fpc, p->sczfpc_r < 0 ? 1.0 : p->sczfpc_nd,
                          p->sczfpc_r);
}
