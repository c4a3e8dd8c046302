/*
 * joint_busyheld.c - joint without call ids: the busy test's verdict
 * checked link by link (busy_links; docs/joint/shapes_late.md "The busy
 * test at a many-worker service with heavy-tailed delays (h254)"; issue 28).
 *
 * Why.  The busy test (joint_pick.c) finds a service serialising when its
 * calls, summed over all its outgoing links, land busy on their callees
 * far less often than copies of the free solution predict (each delay
 * drawn independently from that solution's own delays of its key).  A
 * service that keeps its requests in order spaces ALL its calls, so the
 * deficit is on every link it calls.  At a many-worker service calling a
 * heavy-tailed callee (maketrace's heavytail app at twice the load: api
 * calls db, whose answers take 0.5, 5 or 50 ms, and cache) the deficit is
 * on the heavy-tailed link alone: both solutions pair that link wrongly,
 * their durations mix the long calls (open through the whole window, so
 * not counted busy) with the short ones, and every copy drawn from them
 * lands busy there more often than the trace (s54: api -> db 65 % real
 * against 79 % in the copies, api -> cache 21 % against 19 %).  Copies of
 * the held solution are short there alike (z -6.2 to -7.5 on s54-58), so
 * the held copy cannot tell the two apart; the links can.
 *
 * The rule (busy_links=1).  A service the busy test finds serialising
 * spaces every call it makes, so each of its links should fall short of
 * the copies by about the service's own ratio R (its real busy landings
 * over the copies' prediction, all links summed).  Per outgoing link with
 * at least JOINT_PICK_MIN calls, the test's statistic is taken against the
 * copies' share times R; a link that lands busy more than that (z >
 * JOINT_BLINK_Z = 1.96) shows the deficit is not the service's: the
 * verdict is withdrawn (its changed pairs then vote for nothing).  A
 * service with one such link is unchanged.  On the eBPF capture the two
 * links of the Go service are within z +-0.5 of R (both short on their
 * own: z -3.7 and -4.4), and its verdict stands.  The copies are the
 * test's own (same seeds, drawn again here, only where a verdict is to be
 * checked).  busy_links=2 (a measurement, not a rule: it does not help):
 * the verdict stands only when the real landings fall short of copies of
 * the HELD solution too.  Metadata: a withdrawn service's busy_service=
 * line says serialising=no and gives as calls, busy, copy_calls,
 * copy_busy and z those of the link that withdrew it and its z against R
 * (=1), or the service's against the held copies (=2).
 *
 * Off by default: at a bounded thread pool that the held search suits
 * (models pool s1 x2 1 ms) one of the service's links also lands busy as
 * the copies predict, and withdrawing the verdict costs 14 requests; the
 * audits (docs/joint/shapes_late.md) show 8 model rows down.
 */
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>

/* busy_links=1: a link lands busy more than its service's deficit
 * predicts above this z (two-sided 0.05) */
#define JOINT_BLINK_Z 1.96

int joint_busyheld(const joint *a, const joint *b, const pb_ns *win,
                   const unsigned char *serves, double *st, double *sum)
{
    uint32_t nl = a->nlinks, nn = a->nnodes;
    int mode = a->p.busy_links;
    const joint *c = mode == 2 ? b : a; /* the solution the copies are drawn from */
    if (mode == 2 && (a == b || b->nlinks != nl))
        return PB_OK;
    int any = 0;
    for (uint32_t v = 0; v < nn; v++)
        any |= st[JOINT_PICK_NSTAT * (size_t)v + 6] == 1;
    if (!any)
        return PB_OK;
    /* per link: real calls, busy; copies' calls, busy */
    double *rn = calloc(4 * ((size_t)nl + 1), sizeof *rn);
    double *tn = calloc(2 * ((size_t)nl + 1), sizeof *tn);
    int rc = rn && tn ? PB_OK : PB_ENOMEM;
    double *rb = rn ? rn + nl + 1 : NULL, *cn = rn ? rn + 2 * ((size_t)nl + 1) : NULL;
    double *cb = rn ? rn + 3 * ((size_t)nl + 1) : NULL, *tb = tn ? tn + nl + 1 : NULL;
    if (rc == PB_OK)
        rc = joint_pick_busy_of(a, NULL, NULL, NULL, win, rn, rb);
    for (int r = 0; rc == PB_OK && r < JOINT_PICK_SIMS; r++) {
        pb_trace *t = NULL;
        rc = joint_selfcal_copy((joint *)c, (uint32_t)a->p.conf_seed + JOINT_PICK_SEED + (uint32_t)r,
                                &t);
        if (rc == PB_OK)
            rc = joint_pick_busy_of(c, t, NULL, NULL, win, tn, tb);
        pb_trace_close(t);
        for (uint32_t l = 0; rc == PB_OK && l < nl; l++) {
            cn[l] += tn[l];
            cb[l] += tb[l];
        }
    }
    for (uint32_t v = 0; rc == PB_OK && v < nn; v++) {
        double *x = st + JOINT_PICK_NSTAT * (size_t)v;
        if (!serves[v] || x[6] != 1)
            continue;
        double n[4] = {0, 0, 0, 0}; /* the service's real calls, busy; copies' */
        for (uint32_t l = 0; l < nl; l++)
            if (a->link_src[l] == v)
                n[0] += rn[l], n[1] += rb[l], n[2] += cn[l], n[3] += cb[l];
        double z = 0, w[4] = {0, 0, 0, 0};
        if (mode == 2) {
            z = joint_pick_z(n[0], n[1], n[2], n[3]);
            memcpy(w, n, sizeof w);
            if (z < -JOINT_PICK_Z)
                continue;
        } else {
            /* the service's deficit: real landings over the copies' share */
            double ratio = n[0] > 0 && n[3] > 0 ? n[1] / (n[0] * n[3] / n[2]) : 1;
            z = -1e300;
            for (uint32_t l = 0; l < nl; l++) {
                if (a->link_src[l] != v || rn[l] < JOINT_PICK_MIN || cn[l] <= 0)
                    continue;
                /* the link against the copies' share times that deficit */
                double zl = joint_pick_z(rn[l], rb[l], cn[l], cb[l] * ratio);
                if (zl > z) {
                    z = zl;
                    w[0] = rn[l], w[1] = rb[l], w[2] = cn[l], w[3] = cb[l];
                }
            }
            if (!(z > JOINT_BLINK_Z))
                continue;
        }
        /* withdrawn: its busy_service= line shows the deciding counts */
        memcpy(x, w, sizeof w);
        x[4] = z;
        x[6] = 0;
        sum[1] -= x[5];
    }
    free(rn);
    free(tn);
    return rc;
}
