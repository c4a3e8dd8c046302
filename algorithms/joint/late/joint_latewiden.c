/*
 * joint_latewiden.c - joint: late_widen_z, whether a late service's every
 * call gets the widened candidates, decided with the excess's own error
 * (docs/joint/shapes_late.md, "widen=all with the chance count's error
 * (h294)").
 *
 * A service that passes the late-call test (joint_late.c) gives its calls
 * requests that ended before their return.  joint_latesend.c gives that
 * widening to every call of the service (widen=all) when the excess, the
 * share of the test's near orphans that chance does not explain, (k - m) /
 * k with k near orphans and m = sum of their chances, is at least 1/2: a
 * call that returns after a request's end is then more likely a late call
 * of that request than not.  Else only the orphans get it (widen=orphans).
 * The excess is an estimate: the chance count m is the mean of a
 * Poisson-binomial count with variance v = sum p (1 - p).  On hedge x1
 * at 1 ms with call ids (models2) the excess straddles 1/2 from seed to
 * seed (0.39-0.55, 157 near orphans at seed 60: its standard error about
 * 0.04), and where it lands at or above 1/2 (seeds 55, 60, 61) every index
 * and kv call is given requests that had already answered: 31-34 % exact
 * against 79-84 % on the other ten seeds.
 *
 * The rule (late_widen_z = z > 0): widen=all only when the excess holds
 * with the chance count z standard errors up, (k - m - z sqrt v) / k >=
 * 1/2: the data must show that more than half of the near orphans are late
 * calls, not merely estimate it.  z = 1.645 is the one-sided 95 % point.
 * TrainTicket's gateway (6 near orphans at chance 0.18: excess 0.82, its
 * bound 0.56) keeps widen=all.  0 (the default): the excess alone, as
 * before.  Metadata, where z > 0: late_widen=SERVICE excess= excess_low=
 * z= widen=all|orphans (late_stat[11]: the bound).
 */
#include "joint_int.h"
#include <math.h>

double joint_late_widen_low(double near, double m, double var, double z)
{
    if (!(near > 0))
        return 0;
    double x = (near - m - z * sqrt(var > 0 ? var : 0)) / near;
    return x < 0 ? 0 : x;
}

int joint_late_widen(joint *s, uint32_t a, double near, double n, double chance, double var,
                     double excess)
{
    double *st = s->late_stat + JOINT_LATE_NSTAT * (size_t)a;
    if (!(s->p.late_widen_z > 0)) {
        st[11] = excess;
        return excess >= 0.5;
    }
    st[11] = joint_late_widen_low(near, n * chance, var, s->p.late_widen_z);
    return st[11] >= 0.5;
}

void joint_late_widen_meta(const joint *s, pb_result *res)
{
    if (!(s->p.late_widen_z > 0) || !s->late_stat || !s->late_gap || !s->p.late_split)
        return;
    for (uint32_t a = 0; a < s->nnodes; a++) {
        const double *st = s->late_stat + JOINT_LATE_NSTAT * (size_t)a;
        if (st[0] > 0 && s->late_gap[a] >= 0)
            pb_result_meta(res, "late_widen=%s excess=%.3f excess_low=%.3f z=%g widen=%s",
                           pb_strtab_str(s->v.nodes, a), st[6], st[11], s->p.late_widen_z,
                           st[7] > 0 ? "all" : "orphans");
    }
}
