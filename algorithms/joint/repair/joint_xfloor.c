/*
 * joint_xfloor.c - the exchanges' top re-split bounded by what the
 * exchange must gain (`swap_floor`, speed only, the same results;
 * docs/joint/audits.md "Speed on the application shapes").
 *
 * An exchange of returns (step 5, joint_repair.c try_exchange) tried at
 * depth D is kept when its gain g = xsum + V - before exceeds the best
 * gain so far (1e-9 at first), where V is the best re-split of the two
 * requests above the exchanged levels (the top) and xsum, before are
 * known before V is computed.  So only a V above
 *
 *     floor = best + before - xsum (+ the margin of deeper exchanges)
 *
 * can change the decision; the top's re-split (best_split) starts its
 * pruning and its branch and bound from that floor instead of from the
 * current split's value.  Every split above the floor is still scored
 * (the same value, bit for bit), so whenever V is above the floor it is
 * found exactly and with the same split; when it is not, what the
 * re-split returns is below the floor as V is, and the exchange is
 * turned down as before.  The floor is lowered by JOINT_PRUNE_TOL of the
 * magnitudes, so that the floating-point sum g of a V below it is below
 * the best gain too.  Only the exchanges themselves use it (never the
 * evaluation of joint_pair_shares, which needs every gain).
 *
 * At the last depth, when the top is at most one request (cheap: often
 * none, the exchanged requests being roots), the top is scored first and
 * the exchanged level gets the floor instead: no deeper depth reads its
 * value.  An exchange whose top then cannot hold its kids still counts
 * the exchanged level's capped re-split (resplit_capped), as before.
 */
#include "joint_int.h"

#include <math.h>
#include <stdlib.h>

double joint_xfloor(const joint *s, double best, double xsum, double before, double margin)
{
    if (!s->p.swap_floor)
        return -INFINITY;
    double f = best + before - xsum + margin;
    if (!isfinite(f) || !isfinite(best) || !isfinite(before) || !isfinite(xsum))
        return -INFINITY;
    return f - JOINT_PRUNE_TOL * (1.0 + fabs(best) + fabs(before) + fabs(xsum) + fabs(margin)) +
           joint_xfloor_test_bias;
}

void joint_xfloor_set(joint *s, double best, double xsum, double before, double margin)
{
    s->xfloor = joint_xfloor(s, best, xsum, before, margin);
    s->xfloor_on = s->xfloor > -INFINITY;
}

/* Under a floor the re-split of two requests goes by the pruned path,
 * and so by the branch and bound where that is usable (3 shared calls or
 * more, joint_bnb_usable), whatever the two requests' size: without a
 * floor the small ones are walked split by split (cheaper than the
 * bounds' set-up when every split can win), but with one most splits
 * cannot reach it.  From 3 shared calls (instructions, media seed 1 x1
 * ns black box: 3.926 G base; 3.859 G with the floor alone; routed from
 * 1, 2, 3, 4 shared calls 3.658, 3.658, 3.653, 3.661 G) */
#define JOINT_XFLOOR_ROUTE 3

int joint_xfloor_route(const joint *s, uint32_t m)
{
    return s->xfloor_on && m >= JOINT_XFLOOR_ROUTE;
}

/* swap_memo: within one pass of exchanges (joint_swap_pass) the model is
 * fixed, and between two exchanges applied nothing changes (returns,
 * parents, kids, times), so each request's own log-likelihood as it
 * stands (the exchanges' "before" values, joint_req_ll) is the same number
 * every time: kept from the first time, and the values of the requests an
 * exchange applied touches dropped (joint_xmemo_drop) */
int joint_xmemo_begin(joint *s)
{
    s->xmemo = NULL;
    if (!s->p.swap_memo)
        return PB_OK;
    s->xmemo = malloc(((size_t)s->npairs + 1) * sizeof *s->xmemo);
    if (!s->xmemo)
        return PB_ENOMEM;
    joint_xmemo_clear(s);
    return PB_OK;
}

void joint_xmemo_clear(joint *s)
{
    if (s->xmemo && !joint_xmemo_test_stale)
        for (uint32_t q = 0; q < s->npairs; q++)
            s->xmemo[q] = NAN;
}

uint32_t joint_xchg_touched(const joint *s, const uint32_t *x, const uint32_t *y, uint32_t d,
                            uint32_t *out)
{
    uint32_t n = 0;
    for (uint32_t l = 0; l <= d; l++)
        for (int side = 0; side < 2; side++) {
            uint32_t q = side ? y[l] : x[l];
            if (q == JOINT_NONE)
                continue;
            out[n++] = q;
            if (l == d && s->par[q] != JOINT_NONE)
                out[n++] = s->par[q];
        }
    return n;
}

void joint_xmemo_drop(joint *s, const uint32_t *q, uint32_t n)
{
    if (!s->xmemo || joint_xmemo_test_stale)
        return;
    for (uint32_t i = 0; i < n; i++)
        s->xmemo[q[i]] = NAN;
}

void joint_xmemo_end(joint *s)
{
    free(s->xmemo);
    s->xmemo = NULL;
}

double joint_xmemo_ll(joint *s, uint32_t q)
{
    if (!s->xmemo)
        return joint_req_ll(s, q);
    if (isnan(s->xmemo[q]))
        s->xmemo[q] = joint_req_ll(s, q);
    return s->xmemo[q];
}

int joint_xmemo_test_stale = 0;

double joint_xfloor_test_bias = 0;
