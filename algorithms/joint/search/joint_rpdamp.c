/*
 * joint_rpdamp.c - greedy_damp (speed, changes results; off): within one
 * solve's greedy rounds, a call does not move back to the request it had
 * two rounds before (docs/joint/speed_late.md, "Speed, twenty-fourth wave
 * (h197)").
 *
 * The greedy rounds move each call to its cheapest candidate, the others
 * fixed; a call's cost leaves out what its move does to its siblings'
 * (their triggers), so the rounds cycle: on OnlineBoutique 17:00 as a
 * black box half to four fifths of a later round's moves put a call back
 * where it was two rounds before, and every solve runs all its rounds.
 * Each cycling call marks both requests changed, so the re-splits after
 * find every large request changed.  Here such a move back is refused
 * (the call stays); other moves as always.
 */
#include "joint_int.h"
#include <stdlib.h>
#include <string.h>

/* as greedy round `it` of a solve starts: the parents two rounds back
 * (gd_prev[1]) and one round back (gd_prev[0]) */
int joint_gdamp_round(joint *s, int it)
{
    int rc = joint_gcyc_round(s, it); /* greedy_cycle (joint_rpcyc.c) */
    if (rc != PB_OK || !s->p.greedy_damp)
        return rc;
    size_t n = (size_t)s->npairs + 1;
    if (s->gd_n < n) {
        free(s->gd_prev[0]);
        free(s->gd_prev[1]);
        s->gd_prev[0] = malloc(n * sizeof *s->gd_prev[0]);
        s->gd_prev[1] = malloc(n * sizeof *s->gd_prev[1]);
        s->gd_n = n;
        if (!s->gd_prev[0] || !s->gd_prev[1]) {
            joint_gdamp_free(s);
            return PB_ENOMEM;
        }
    }
    uint32_t *t = s->gd_prev[1];
    s->gd_prev[1] = s->gd_prev[0];
    s->gd_prev[0] = t;
    memcpy(s->gd_prev[0], s->par, (size_t)s->npairs * sizeof *s->par);
    s->gd_it = it;
    if (s->p.greedy_damp >= 3) /* the round's likelihood before it, its model */
        s->gd_ll = joint_loglik(s);
    return PB_OK;
}

int joint_gdamp_veto(joint *s, uint32_t p, uint32_t best)
{
    if (s->p.greedy_check && joint_gchk_veto(s, p, best))
        return 1; /* greedy_check (joint_rpchk.c) */
    if (s->p.greedy_damp != 1 || s->gd_it < 1 || !s->gd_prev[1])
        return 0;
    /* back to where it was two rounds before, having moved since */
    if (best != s->gd_prev[1][p] || s->gd_prev[0][p] == best || s->par[p] == best)
        return 0;
    s->gd_vetoed++;
    return 1;
}

/* greedy_damp=2: after greedy round it (>= 1), 1 when at least half its
 * moves put a call back where it was two rounds before (the solve's
 * rounds then stop) */
int joint_gdamp_stop(joint *s, int it)
{
    int rc = PB_OK; /* greedy_cycle (joint_rpcyc.c; its moves cannot fail) */
    if (joint_gcyc_stop(s, it, &rc))
        return 1;
    if (s->p.greedy_damp >= 3 && s->gd_prev[0]) {
        /* 3: the rounds stop after a round that did not raise the
         * likelihood under its model; 4: and the solution before it is
         * set again (out of every request first, then in: no list grows
         * past a length it held, so nothing allocates) */
        if (joint_loglik(s) > s->gd_ll + 1e-9)
            return 0;
        s->gd_vetoed++;
        if (s->p.greedy_damp == 4) {
            const uint32_t *a = s->gd_prev[0];
            for (uint32_t p = 0; p < s->npairs && rc == PB_OK; p++)
                if (s->par[p] != a[p]) {
                    joint_greedy_moved(s, s->par[p], a[p]);
                    rc = joint_set_parent(s, p, JOINT_NONE);
                }
            for (uint32_t p = 0; p < s->npairs && rc == PB_OK; p++)
                if (s->par[p] != a[p])
                    rc = joint_set_parent(s, p, a[p]);
        }
        return 1;
    }
    if (s->p.greedy_damp != 2 || it < 1 || !s->gd_prev[1])
        return 0;
    size_t moved = 0, back = 0;
    for (uint32_t p = 0; p < s->npairs; p++)
        if (s->par[p] != s->gd_prev[0][p]) {
            moved++;
            back += s->par[p] == s->gd_prev[1][p];
        }
    if (!moved || 2 * back < moved)
        return 0;
    s->gd_vetoed++;
    return 1;
}

void joint_gdamp_free(joint *s)
{
    joint_gcyc_free(s); /* greedy_cycle (joint_rpcyc.c) */
    joint_gchk_free(s); /* greedy_check (joint_rpchk.c) */
    free(s->gd_prev[0]);
    free(s->gd_prev[1]);
    s->gd_prev[0] = s->gd_prev[1] = NULL;
    s->gd_n = 0;
}

int joint_gdamp_meta(const joint *s, pb_result *res)
{
    int rc = joint_gchk_meta(s, res); /* greedy_check (joint_rpchk.c) */
    if (rc == PB_OK)
        rc = joint_gcyc_meta(s, res); /* greedy_cycle (joint_rpcyc.c) */
    if (rc != PB_OK)
        return rc;
    if (!s->p.greedy_damp)
        return PB_OK;
    return pb_result_meta(res, "greedy_damp=%d moves_refused=%zu", s->p.greedy_damp,
                          s->gd_vetoed);
}
