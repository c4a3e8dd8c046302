/*
 * joint_pwin.c - joint without call ids: the choice between the free and
 * the held search (pair_order=auto) made on a window of the trace
 * (`pair_window`, docs/joint/speed.md "Speed, fourteenth wave: the
 * free/held choice on a window").
 *
 * pair_order=auto runs two whole searches (free, held) and keeps one (the
 * likelihood, the busy test, busy_space; parallel_check_bb's early run
 * stands in for the held search where the free one dropped a learned
 * parallel call).  With pair_window=W the two searches and that choice
 * run first on a window of about W requests cut from the middle of the
 * trace at quiet points (no request open: every call of a root node --
 * a node that sends calls and receives none -- answered), and only the
 * chosen search then runs on the whole trace.  The window's verdict is
 * taken only where it is firm, else both searches run on the whole trace
 * as before (metadata pair_window= says which, on what window, why):
 *
 *   - the trace holds at least 2 W requests (f = requests / window's
 *     requests >= 2) and quiet points bound a window of W to N/2 requests;
 *   - the likelihood: D (held minus free, nats, each under its own refit)
 *     above JOINT_PWIN_FIRM margins (JOINT_RESTART_MARGIN) or below minus
 *     that: D grows with the requests, so a verdict by that much on the
 *     window holds on the whole; in between, undecided;
 *   - the busy test and busy_space (joint_pick.c, joint_space.c): their z
 *     grow as the square root of the calls, so a service not serialising
 *     on the window whose z times sqrt(f) would pass the threshold (or
 *     with too few calls to be tested on the window but enough on the
 *     whole) leaves the verdict undecided; where serialising services
 *     hold the verdict, their share of the changed pairs must lie clear
 *     of one half (JOINT_PWIN_SHARE);
 *   - the held search kept as parallel_check_bb's early run (without
 *     learned parallel calls) runs so on the whole trace.
 */
#include "joint_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define JOINT_PWIN_FIRM 1.0   /* margins (JOINT_RESTART_MARGIN) the window's D must clear */
#define JOINT_PWIN_SHARE 0.15 /* serialising share of changed pairs: clear of 1/2 by this */

int joint_pwin_cut(const pb_trace_view *v, uint32_t want, joint_pwin *w)
{
    memset(w, 0, sizeof *w);
    uint32_t nn = (uint32_t)pb_strtab_count(v->nodes);
    unsigned char *role = calloc((size_t)nn + 1, 1); /* 1 sends calls, 2 receives calls */
    if (!role)
        return PB_ENOMEM;
    for (size_t i = 0; i < v->n; i++) {
        const pb_msg *m = &v->msgs[i];
        if (m->type != PB_TYPE_CALL || m->src >= nn || m->dst >= nn)
            continue;
        role[m->src] |= 1;
        role[m->dst] |= 2;
    }
    /* open requests before each message; quiet points: none open */
    uint32_t n = 0;
    for (size_t i = 0; i < v->n; i++) {
        const pb_msg *m = &v->msgs[i];
        n += m->type == PB_TYPE_CALL && m->src < nn && role[m->src] == 1;
    }
    w->roots = n;
    w->reason = "window_off";
    if (!want || n == 0) {
        w->reason = n ? "window_off" : "no_requests";
        free(role);
        return PB_OK;
    }
    if (n < 2 * (uint64_t)want) {
        w->reason = "trace_small";
        free(role);
        return PB_OK;
    }
    uint32_t start = (n - want) / 2, seen = 0;
    long open = 0;
    size_t lo = v->n, hi = v->n;
    uint32_t lo_roots = 0;
    for (size_t i = 0; i < v->n; i++) {
        const pb_msg *m = &v->msgs[i];
        if (open <= 0) { /* quiet point before message i */
            if (seen <= start) {
                lo = i;
                lo_roots = seen;
            } else if (lo < v->n && seen - lo_roots >= want) {
                hi = i;
                break;
            }
        }
        if (m->type == PB_TYPE_CALL && m->src < nn && role[m->src] == 1) {
            open++;
            seen++;
        } else if (m->type == PB_TYPE_RETURN && m->dst < nn && role[m->dst] == 1) {
            open--;
        }
    }
    free(role);
    if (lo < v->n && hi == v->n && open <= 0 && seen - lo_roots >= want)
        hi = v->n;
    else if (lo >= v->n || hi >= v->n) {
        w->reason = "no_quiet_point";
        return PB_OK; /* lo = hi = 0: no window */
    }
    w->lo = lo;
    w->hi = hi;
    w->wroots = seen - lo_roots;
    if (2 * (uint64_t)w->wroots > n) {
        w->reason = "no_quiet_point"; /* the least window past half the trace */
        w->lo = w->hi = 0;
        w->wroots = 0;
        return PB_OK;
    }
    w->reason = "cut";
    return PB_OK;
}

int joint_pwin_kind(const joint *k)
{
    if (!k || !k->pord_chosen)
        return 0;
    if (k->pord_chosen == 1)
        return 1;
    return k->ser_bb == 3 ? 3 : 2;
}

void joint_pwin_judge(const joint *wk, joint_pwin *w)
{
    double f = w->wroots ? (double)w->roots / w->wroots : 0, rf = sqrt(f);
    w->window_kind = joint_pwin_kind(wk);
    w->decision = 0;
    if (!w->window_kind) {
        w->reason = "window_one_search";
        return;
    }
    w->d = wk->pord_ll[1] - wk->pord_ll[0];
    double firm = JOINT_PWIN_FIRM * JOINT_RESTART_MARGIN;
    int busy_held = wk->pick_sum[2] > 0 && !(w->d > JOINT_RESTART_MARGIN);
    if (!busy_held && fabs(w->d) <= firm + (w->d > 0 ? JOINT_RESTART_MARGIN : 0)) {
        w->reason = "likelihood_close";
        return;
    }
    if (wk->pick_stat) {
        double sum0 = wk->pick_sum[0], sum1 = wk->pick_sum[1];
        for (uint32_t v = 0; v < wk->nnodes; v++) {
            const double *x = wk->pick_stat + JOINT_PICK_NSTAT * (size_t)v;
            if (x[6] > 0 || x[5] <= 0 || x[12] > 0) /* serialising already, decides
                                                       nothing, or re-entered (busy_reentry) */
                continue;
            int few = x[0] < JOINT_PICK_MIN && x[0] * f >= JOINT_PICK_MIN;
            if (x[4] * rf < -JOINT_PICK_Z || (few && x[0] > 0)) {
                w->reason = "busy_test_close";
                return;
            }
            if (wk->p.busy_space && !wk->coarse && x[7] > 0 && x[11] * rf < -JOINT_SPACE_Z) {
                w->reason = "busy_space_close";
                return;
            }
        }
        if (sum1 > 0 && sum0 > 0 && fabs(sum1 / sum0 - 0.5) < JOINT_PWIN_SHARE) {
            w->reason = "busy_share_close";
            return;
        }
    }
    w->decision = w->window_kind;
    w->reason = "window";
}

/* the two searches and their choice on a
 * window of the trace; pw says whether that choice is firm */
int joint_pwin_window(const pb_trace_view *v, const joint_params *params, joint_pwin *pw,
                      pb_error *err)
{
    int rc = joint_pwin_cut(v, (uint32_t)params->pair_window, pw);
    pw->on = 1;
    if (rc != PB_OK)
        return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
    if (strcmp(pw->reason, "cut"))
        return PB_OK;
    pb_trace_view sv = *v;
    sv.msgs = v->msgs + pw->lo;
    sv.obs = v->obs ? v->obs + pw->lo : NULL;
    sv.n = pw->hi - pw->lo;
    joint_params pp = *params;
    pp.pair_window = 0;
    pp.pair_window_check = 0;
    joint *wk = NULL;
    rc = joint_search_choose(&wk, &sv, &pp, err);
    if (rc != PB_OK)
        return rc;
    joint_pwin_judge(wk, pw);
    joint_close(wk);
    return PB_OK;
}

/* pair_window decided: the chosen search only (free, held, or held
 * without learned parallel calls: parallel_check_bb's early run), then
 * parallel_check_bb as after the two searches */
int joint_pwin_one(joint **out, const pb_trace_view *v, const joint_params *params,
                   const joint_params *ph, const joint_pwin *pw, pb_error *err,
                   const unsigned char *force)
{
    int held = pw->decision >= 2;
    joint_params pk = held ? *ph : *params;
    if (pw->decision == 3)
        pk.parallel = 1;
    joint *k = NULL;
    int rc = joint_search_one(&k, v, &pk, err, held, force);
    if (rc != PB_OK)
        return rc;
    double lo = 0;
    rc = joint_order_score(k, &lo);
    if (rc != PB_OK) {
        joint_close(k);
        return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
    }
    k->pord_chosen = held ? 2 : 1;
    k->pord_ll[0] = k->pord_ll[1] = k->pord_ll[2] = k->pord_ll[3] = NAN;
    k->pord_ll[held] = joint_loglik(k);
    k->pord_ll[2 + held] = lo;
    k->pwin = *pw;
    if (pw->decision == 3) {
        k->ser_bb = 3;
        k->ser_ll[1] = joint_loglik(k);
    }
    if (joint_bbserial_wanted(k)) {
        joint_params pp = pk;
        pp.parallel = 1;
        joint *w = NULL, *k2 = NULL;
        rc = joint_search_one(&w, v, &pp, err, held, force);
        if (rc != PB_OK) {
            joint_close(k);
            return rc;
        }
        rc = joint_bbserial_pick(k, w, &k2);
        if (rc != PB_OK) {
            joint_close(k);
            joint_close(w);
            return pb_error_set(err, rc, NULL, 0, 0, "joint: out of memory");
        }
        joint_close(k2 == w ? k : w);
        k = k2;
    }
    *out = k;
    return PB_OK;
}

static const char *kind_name(int k)
{
    return k == 1 ? "free" : k == 2 ? "held" : k == 3 ? "held_serial" : "none";
}

int joint_pwin_meta(const joint *s, pb_result *res)
{
    const joint_pwin *w = &s->pwin;
    if (!w->on)
        return PB_OK;
    char chk[96] = "";
    if (w->full_kind)
        snprintf(chk, sizeof chk, " full=%s agree=%d", kind_name(w->full_kind),
                 w->full_kind == w->window_kind);
    return pb_result_meta(res, "pair_window=%s reason=%s requests=%u window_requests=%u "
                               "window_messages=%zu window_first=%zu window_chose=%s "
                               "window_d=%.3f%s",
                          w->decision ? "decided" : "fallback", w->reason, w->roots, w->wroots,
                          w->hi - w->lo, w->lo, kind_name(w->window_kind), w->d, chk);
}
