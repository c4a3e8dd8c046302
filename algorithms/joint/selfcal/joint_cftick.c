/*
 * joint_cftick.c - joint: the self-calibration's copy stamped and spread
 * as the real trace was (conf_copy_tick; docs/joint/confidence_late.md, "The
 * copy at the trace's own tick, spread as the trace was (h201)"; issue 28).
 *
 * Why.  At coarse stamps whose tied rows are in the order of events,
 * joint_run spreads each tick's rows over it (subtick, joint_subtick.c)
 * and the search sees the spread stamps: their tick is then a nanosecond
 * or so, not the trace's.  The copy (joint_selfcal.c) cuts its stamps to
 * that tick, so it is made at full resolution: every delay exact, every
 * trigger's return before its call by its true gap, no tie at all.  The
 * real rows' spread stamps are only their order within a tick; the
 * copy's are the truth.  The copy is the easier inference, its map too
 * kind: hotel load 25 rounded to 10 ms as a black box, [0.9, 0.95) 124
 * rows stated 0.930, 54.0 % right; joint_apps_shortlong.conf at 1 ms with
 * call ids, seed 1 [0.99, 0.999) 1,146 rows, 94.4 %.
 *
 * The rule.  Where the real trace was spread (subtick_tick set), the
 * calibration's copy is cut to the trace's own tick (subtick_tick), its
 * tied rows kept in the order of its exact times (the order of events, as
 * the real trace's rows were shown), then spread by the same test as the
 * real trace (joint_subtick_prepare, as joint_run does) before its
 * inference.  Only the copy of the confidences the result carries: the
 * copies that decide rules (busy test, reunp, pick) are untouched, and so
 * is the copy late_trust reads to undo late placements (with it,
 * joint_apps_retry.conf seed 3 at 1 ms with call ids moved one request);
 * where late_trust computed the confidences and the rule applies, they are
 * computed again for the result (joint_cf_final_conf).  So every instance
 * and parent is unchanged; confidences only.
 */
#include "joint_int.h"
#include "joint_rules.h"
#include "pb_sort.h"
#include <stdlib.h>
#include <string.h>

typedef struct {
    pb_ns cut, ts;
    size_t idx;
} cft_key;

static int cmp_key(const void *x, const void *y)
{
    const cft_key *a = x, *b = y;
    if (a->cut != b->cut)
        return a->cut < b->cut ? -1 : 1;
    if (a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static pb_ns cft_cut(pb_ns t, pb_ns tick)
{
    pb_ns r = t % tick;
    return t - (r < 0 ? r + tick : r);
}

/* t's stamps cut to tick, its rows by (cut stamp, exact stamp, row).
 * PB_OK or PB_ENOMEM */
static int cut_trace(pb_trace *t, pb_ns tick)
{
    size_t n = t->n;
    if (!n)
        return PB_OK;
    cft_key *k = malloc(n * sizeof *k);
    pb_msg *nm = malloc(n * sizeof *nm);
    pb_truth *nt = t->truth ? malloc(n * sizeof *nt) : NULL;
    if (!k || !nm || (t->truth && !nt)) {
        free(k);
        free(nm);
        free(nt);
        return PB_ENOMEM;
    }
    for (size_t i = 0; i < n; i++)
        k[i] = (cft_key){cft_cut(t->msgs[i].ts, tick), t->msgs[i].ts, i};
    pb_sort(k, n, sizeof *k, cmp_key);
    for (size_t i = 0; i < n; i++) {
        nm[i] = t->msgs[k[i].idx];
        nm[i].ts = k[i].cut;
        if (nm[i].recv_ts != PB_TS_NONE)
            nm[i].recv_ts = cft_cut(nm[i].recv_ts, tick);
        if (nt)
            nt[i] = t->truth[k[i].idx];
    }
    memcpy(t->msgs, nm, n * sizeof *nm);
    if (nt)
        memcpy(t->truth, nt, n * sizeof *nt);
    free(k);
    free(nm);
    free(nt);
    return PB_OK;
}

int joint_cf_copy_init(joint *s, pb_trace *t, joint_params *p2, joint **s2,
                       pb_msg **spread, pb_error *err)
{
    *spread = NULL;
    pb_ns tick = s->p.subtick_tick;
    pb_trace_view v2;
    if (!s->p.conf_copy_tick || tick <= 1 || !s->p.cft_final) {
        v2 = pb_trace_view_of(t);
        return joint_init(s2, &v2, p2, err);
    }
    int rc = cut_trace(t, tick);
    if (rc != PB_OK)
        return rc;
    v2 = pb_trace_view_of(t);
    /* as joint_run: the test on the copy's own rows, from the options
     * before any spread */
    joint_params p3 = *p2;
    p3.subtick_tick = 0;
    p3.subtick_partial = 0;
    joint_subtick *st = NULL;
    rc = joint_subtick_prepare(&v2, &p3, &st, spread);
    if (rc != PB_OK) {
        joint_subtick_free(st);
        free(*spread);
        *spread = NULL;
        return rc;
    }
    s->p.cft_copies++;
    s->p.cft_spread += *spread != NULL;
    if (*spread) {
        v2.msgs = *spread;
        p2->subtick_tick = st->tick;
        p2->subtick_partial = st->partial;
    } else {
        p2->subtick_tick = 0;
        p2->subtick_partial = 0;
    }
    p2->subtick_declined = st && !*spread && st->fwd >= JOINT_SUBTICK_MIN &&
                           (double)st->fwd > p2->subtick_share * (double)st->bwd;
    rc = joint_init(s2, &v2, p2, err);
    if (rc != PB_OK) {
        joint_subtick_free(st);
        free(*spread);
        *spread = NULL;
        return rc;
    }
    (*s2)->subtick = st;
    return PB_OK;
}

int joint_cf_final_conf(joint *s, double *conf)
{
    /* late_trust's confidences (the same solution) serve where this rule
     * would not change them */
    if (s->lt_conf && !(s->p.conf_copy_tick && s->p.subtick_tick > 1 && s->p.conf_selfcal) &&
        !((s->p.conf_copy_shuffle || s->p.conf_thin_own) && s->p.conf_selfcal)) {
        /* conf_copy_shuffle, conf_thin_ratio: joint_cfshuf.c, joint_cfthin.c */
        memcpy(conf, s->lt_conf, ((size_t)s->npairs + 1) * sizeof *conf);
        return PB_OK;
    }
    s->p.cft_final = 1;
    int rc = joint_confidence(s, conf);
    s->p.cft_final = 0;
    return rc;
}
