/*
 * joint_scz.c - conf_copy_share_z: a smaller calibration copy paid for by
 * its own noise (docs/joint/speed_w34.md, "A smaller copy paid for by its
 * own noise (h284)").
 *
 * conf_copy_share (joint_scopy.c) lets the result's calibration copy hold
 * a share of the pairs below the default's: fewer instructions, but a
 * noisier map, and noise upwards is over-confidence (h238, h267: new OVER
 * bins on held-out application shapes).  The map's block values are
 * shares right of w / m requests (conf_copy_events, joint_cfev.c); the
 * default copy's has a standard error se, a copy holding a share f of its
 * pairs se / sqrt f.  Taking the smaller copy's map at its Wilson lower
 * bound z = k (1 - sqrt f) of its own standard errors makes the chance it
 * lies k default standard errors (or fewer) above the truth no more than
 * the default copy's: P(p + N(0, se^2 / f) - z se / sqrt f > p + k se) =
 * P(N(0, 1) > k sqrt f + z) = P(N(0, 1) > k).  So with conf_copy_share_z = k
 * the events map's z is max(conf_copy_events_z, k (1 - sqrt f)), f the
 * copy's pairs over the pairs the default copy would hold (1 where the
 * trace is small enough that both copies hold it whole: then nothing
 * moves).  Confidences only: every path is the search's.
 */
#include "joint_int.h"

#include <math.h>

void joint_scz_note(joint *s, size_t full, size_t got)
{
    if (s->p.scp_cal && full > 0 && got < full) {
        double f = (double)got / (double)full;
        if (f < s->p.scz_f)
            s->p.scz_f = f;
    }
}

double joint_scz_z(const joint *s, double z)
{
    const joint_params *p = &s->p;
    if (p->conf_copy_share_z <= 0 || p->conf_copy_se || !p->scp_cal || p->scz_f <= 0 ||
        p->scz_f >= 1)
        return z;
    double z2 = joint_sczfpc_z(s, p->conf_copy_share_z, p->scz_f); /* joint_sczfpc.c */
    return z2 > z ? z2 : z;
}

uint32_t joint_scz_min(const joint *s)
{
    const joint_params *p = &s->p;
    if (p->conf_copy_share_z <= 0 || !p->scp_cal || p->scz_f <= 0 || p->scz_f >= 1)
        return JOINT_SELFCAL_MIN;
    uint32_t m = (uint32_t)ceil(JOINT_SELFCAL_MIN * p->scz_f);
    return m < 1 ? 1 : m;
}

int joint_scz_meta(const joint *s, pb_result *res)
{
    const joint_params *p = &s->p;
    if (p->conf_copy_share_z <= 0 || !s->scal_done)
        return PB_OK;
    double f = p->scz_f > 0 ? p->scz_f : 1; /* 0: no result's calibration ran */
    double z = f < 1 ? joint_sczfpc_z(s, p->conf_copy_share_z, f) : 0; /* joint_sczfpc.c */
    if (z < p->conf_copy_events_z)
        z = p->conf_copy_events_z;
    return pb_result_meta(res, "conf_copy_share_z=%g copy_share_f=%.4f events_z=%g (the smaller "
                          "calibration copy's map at its lower bound, its extra noise paid for)",
                          p->conf_copy_share_z, f < 1 ? f : 1.0, f < 1 ? z : p->conf_copy_events_z) == PB_OK
               ? joint_sczfpc_meta(s, res) /* joint_sczfpc.c */
               : PB_ENOMEM;
}
