/*
 * joint_unpcert.c - joint without call ids, under loss: unp_lite's free
 * first search kept only where a statement about it says the held search
 * could not have won (`unp_cert`, default 0 = off; docs/joint/loss_w36.md,
 * "A certificate for unp_lite's free first search (h299)").
 *
 * unp_lite=4 (joint_unplite.c) runs the free search alone as the first
 * search of unpaired=1's rule and then the default's second search and its
 * pieces.  Where the default's first search keeps the free solution, the
 * free search alone is that solution and unp_lite=4 gives the default's
 * output; where it keeps the held one, unp_lite loses requests (h293).
 * unp_cert states, from the free search alone, when the held search could
 * win; there the free search is dropped and the default's path runs.
 *
 * unp_cert=1 (a measurement, output the default's): on the default's path
 * the first search's verdict is recorded, and a free search alone is run
 * beside it for the statistics below (so the statistics can be set against
 * the verdict).  unp_cert=2 (with unp_lite 4-9): the rule.
 *
 * The statistics of a free solution f: q, the consecutive pairs of calls in
 * question over every link (held_skip's count, joint_heldskip.c); par, its
 * learned parallel calls (kept or dropped); ll and lo, its log-likelihood
 * and with the order terms (the pair_order line's log_likelihood_free and
 * with_order_free); pen = (ll - lo) / q, the order terms' cost per pair in
 * question; ser, the services the busy test finds serialising on f's own
 * copies.
 *
 * Metadata (joint_ucert_meta): unp_cert mode= first=free|held|- ll_free=
 * ll_held= busy_held= q= par= pen= ser= kept=
 */
#include "joint_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* f's statistics into st[0..5]: q, par, ll, lo, pen, ser; PB_OK or PB_ENOMEM */
int joint_ucert_stats(joint *f, double st[6])
{
    memset(st, 0, 6 * sizeof *st);
    double q = joint_heldskip_in_question(f);
    if (q < 0)
        return PB_ENOMEM;
    st[0] = q;
    st[1] = (double)joint_serial_flags(f) + joint_bbserial_ever(f);
    st[2] = joint_loglik(f);
    double lo = 0;
    int rc = f->p.ll_share ? joint_order_score_at(f, st[2], &lo) : joint_order_score(f, &lo);
    if (rc != PB_OK)
        return PB_ENOMEM;
    st[3] = lo;
    st[4] = q > 0 ? (st[2] - lo) / q : 0;
    if (f->p.busy_test) {
        double *ps = NULL, sum[3] = {0, 0, 0};
        int held = 0, keep_same = f->p.busy_skip_same;
        f->p.busy_skip_same = 0;
        rc = joint_pick(f, f, &ps, sum, &held);
        f->p.busy_skip_same = keep_same;
        if (rc != PB_OK)
            return PB_ENOMEM;
        int n = 0;
        for (uint32_t v = 0; v < f->nnodes; v++) {
            const double *x = ps + JOINT_PICK_NSTAT * (size_t)v;
            n += x[6] > 0 || (f->p.busy_space && !f->coarse && x[11] < -JOINT_SPACE_Z);
        }
        free(ps);
        st[5] = n;
    }
    return PB_OK;
}

/* unp_cert=1: the default's first search s (its verdict), and a free search
 * alone beside it for the statistics; rec[12] */
int joint_ucert_measure(const joint *s, const pb_trace_view *v, const joint_params *params,
                       pb_error *err, double rec[12])
{
    memset(rec, 0, 12 * sizeof *rec);
    if (params->unp_cert != 1 || params->unpaired != 1 || params->sel_from)
        return PB_OK;
    rec[0] = 1;
    rec[1] = s->pord_chosen; /* 1 free, 2 held, 0 one search */
    rec[2] = s->pord_ll[0];
    rec[3] = s->pord_ll[1];
    rec[4] = s->pick_sum[2];
    joint_params pl = *params;
    pl.unp_cert = 0;
    joint *f = NULL;
    int rc = joint_search_one(&f, v, &pl, err, 0, NULL);
    if (rc != PB_OK)
        return rc;
    if (f->sv_paused && (rc = joint_sv_resume(f)) != PB_OK) {
        joint_close(f);
        return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
    }
    rc = joint_ucert_stats(f, rec + 5);
    rec[11] = -1;
    joint_close(f);
    return rc != PB_OK ? pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory") : PB_OK;
}

int joint_ucert_meta(const joint *s, pb_result *res)
{
    const double *r = s->ucert_rec;
    if (!s->p.unp_cert || r[0] == 0)
        return PB_OK;
    return pb_result_meta(res,
                          "unp_cert mode=%.0f first=%s ll_free=%.3f ll_held=%.3f busy_held=%.0f "
                          "q=%.0f par=%.0f ll=%.3f lo=%.3f pen=%.4f ser=%.0f kept=%s",
                          r[0], r[1] == 1 ? "free" : r[1] == 2 ? "held" : "-", r[2], r[3], r[4],
                          r[5], r[6], r[7], r[8], r[9], r[10],
                          r[11] < 0 ? "-" : r[11] == 1 ? "lite" : r[11] == 2 ? "default" : "default_second");
}

/* unp_cert=2: the rule on unp_lite's free search f (force: the messages its
 * pairing leaves unpaired); 1 the held search could win, 0 f kept, < 0 out
 * of memory */
int joint_ucert_held(joint *f, const unsigned char *force, double rec[12])
{
    (void)force;
    memset(rec, 0, 12 * sizeof *rec);
    rec[0] = f->p.unp_cert;
    if (joint_ucert_stats(f, rec + 5) != PB_OK)
        return -1;
    int held = rec[6] > 0 || rec[10] > 0;
    rec[11] = held ? 2 : 1;
    if (!held) { /* the verdict stated: free, as the default's first search records it
                  * (the calibration copies search free alone, joint_copyparams.c);
                  * the held search's scores unknown */
        f->pord_chosen = 1;
        f->pord_ll[0] = rec[7];
        f->pord_ll[2] = rec[8];
        f->pord_ll[1] = f->pord_ll[3] = NAN;
    }
    return held;
}

/* unp_cert=3: after unp_lite's second search t, where t (or, for a
 * window, the window's own search) kept the held solution, the held search alone on the trace as the free search f saw it,
 * and the two compared as the default's first search compares them (each
 * one's log-likelihood under its own refit, JOINT_RESTART_MARGIN nats);
 * *again = 1 where the held one would be kept (the default's path runs) */
int joint_ucert_second(joint *f, const joint *t, const pb_trace_view *v,
                       const joint_params *params, pb_error *err, double rec[12], int *again)
{
    *again = 0;
    if (t->pord_chosen != 2 && t->ucert_win != 2) /* whole, or the window's own choice */
        return PB_OK;
    joint_params ph = *params;
    ph.order = "on";
    ph.unp_cert = 0;
    ph.unp_lite = 0;
    joint *b = NULL;
    int rc = joint_search_one(&b, v, &ph, err, 1, NULL);
    if (rc != PB_OK)
        return rc;
    if (b->sv_paused && (rc = joint_sv_resume(b)) != PB_OK) {
        joint_close(b);
        return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
    }
    rec[2] = joint_loglik(f);
    rec[3] = joint_loglik(b);
    joint_close(b);
    rec[1] = rec[3] > rec[2] + JOINT_RESTART_MARGIN ? 2 : 1; /* the verdict, by likelihood */
    *again = rec[1] == 2;
    rec[11] = *again ? 3 : 1;
    return PB_OK;
}
