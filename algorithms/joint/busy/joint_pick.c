/*
 * joint_pick.c - joint without call ids: do services serialise their work
 * more than the model's independent delays allow?  (docs/joint/search.md, "Order
 * of answers, without call ids", the busy test.)
 *
 * With pair_order=auto joint runs a free search and one that holds the
 * order of answers and calls, and keeps the held one when the model finds
 * it likelier.  Where the model is wrong in a way that matters to order
 * the likelihood is the wrong judge: a Go service whose goroutines queue
 * behind each other (the DeepTrace eBPF capture) keeps its requests in
 * order, its delays are heavy-tailed and correlated within a request and
 * between neighbours, and the free search, scored by independent delays,
 * exchanges calls between requests of a burst; the held one is 12 points
 * more accurate and 31 nats less likely.
 *
 * The check needs no pairing.  Per link, a call *lands busy* when it
 * arrives at its callee (receive stamp, callee's clock) while another call
 * of the link is open there (received, not yet answered): from the counts
 * of calls received and returns sent alone, whoever was paired with whom.
 * The self-calibration's copy of the trace made from the free solution
 * (joint_selfcal_copy: real arrivals of the roots, the same calls, every
 * delay drawn independently from the solution's own of its key) is what
 * the model predicts; JOINT_PICK_SIMS copies (seeds conf_seed +
 * JOINT_PICK_SEED, + 1, ...: not the self-calibration's, whose copy's own
 * inference runs this test again, and a copy of a copy drawn with the same
 * seed repeats its draws: one such copy of the 1 %-loss hotel-like trace
 * had 66 % of one link's calls busy against 25 %)
 * give each link's predicted share of busy landings.  Per service S (as a
 * caller, over all its outgoing links): z = (B - N pi) / sqrt(N pi (1 -
 * pi) (1 + N / M)) with N calls, B of them busy, pi the share busy of the
 * copies' M calls (the second term: pi's own spread).  A service
 * whose calls land busy far less often than independent delays predict
 * (z < -JOINT_PICK_Z, one-sided p < 0.0005, at least JOINT_PICK_MIN calls)
 * *serialises* its work: it spaces its calls as a queue does, and keeps its
 * requests in order.
 *
 * Which search to keep: the held one, when the pairs the two solutions
 * assign differently lie mostly (more than half) at serialising services
 * -- a pair whose parent differs counts at its caller (the service whose
 * request it is ascribed to), a pair whose return differs at its callee
 * (the service whose answers it orders).  A serialising service where the
 * two solutions agree (a service that never has two calls open: its order
 * is not in question) decides nothing.
 */
#include "joint_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

#define NONE JOINT_NONE

typedef struct bev {
    uint32_t l;
    pb_ns t;
    int up; /* 1: a call received, 0: a return sent */
} bev;

static int cmp_bev(const void *a, const void *b)
{
    const bev *x = a, *y = b;
    if (x->l != y->l)
        return x->l < y->l ? -1 : 1;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->up - y->up; /* at one instant the return first */
}

int joint_pick_busy(uint32_t nl, const uint32_t *lk, const pb_ns *cr, const pb_ns *rs,
                    uint32_t np, const pb_ns *win, double *calls, double *busy)
{
    bev *e = malloc((2 * (size_t)np + 1) * sizeof *e);
    long *val = malloc((2 * (size_t)np + 2) * sizeof *val);
    /* the window's least open count by a monotone queue (joint_busywin.c) */
    uint32_t *dq = win && !joint_pick_test_scan ? malloc((2 * (size_t)np + 2) * sizeof *dq) : NULL;
    if (!e || !val || (win && !joint_pick_test_scan && !dq)) {
        free(e);
        free(val);
        free(dq);
        return PB_ENOMEM;
    }
    uint32_t dh = 0, dt = 0, lo = 0; /* the queue dq[dh..dt), the window's first event */
    uint32_t m = 0;
    for (uint32_t p = 0; p < np; p++)
        if (cr[p] != PB_TS_NONE && rs[p] != PB_TS_NONE && lk[p] < nl) {
            e[m++] = (bev){lk[p], cr[p], 1};
            e[m++] = (bev){lk[p], rs[p], 0};
        }
    pb_sort(e, m, sizeof *e, cmp_bev);
    for (uint32_t l = 0; l < nl; l++)
        calls[l] = busy[l] = 0;
    /* val[i]: calls of e[i]'s link open just before e[i] */
    uint32_t first = 0;
    for (uint32_t i = 0; i < m; i++) {
        if (i == 0 || e[i].l != e[i - 1].l) {
            first = i;
            val[i] = 0;
            dh = dt = 0;
            lo = i;
        }
        if (dq) { /* val[i] enters the queue (its values increase from the head) */
            while (dt > dh && val[dq[dt - 1]] >= val[i])
                dt--;
            dq[dt++] = i;
        }
        long after = e[i].up ? val[i] + 1 : (val[i] > 0 ? val[i] - 1 : 0);
        val[i + 1] = after;
        if (!e[i].up)
            continue;
        uint32_t l = e[i].l;
        calls[l]++;
        /* the least open count since win[l] before (0 before the link's
         * first message): a call open all that time is not counted */
        long least = val[i];
        if (dq) {
            least = joint_busywin_least(e[i].t, win[l], i, first, &lo, &e[0].t, sizeof *e, val, dq,
                                        &dh, dt);
        } else if (win) {
            uint32_t j = i, steps = 0;
            for (; j > first && steps < JOINT_PICK_SCAN; j--, steps++) {
                if (val[j] < least)
                    least = val[j];
                if (e[j - 1].t < e[i].t - win[l])
                    break;
            }
            if (j == first && val[first] < least)
                least = val[first];
        } else {
            least = 0;
        }
        busy[l] += val[i] - least >= 1;
    }
    free(e);
    free(val);
    free(dq);
    return PB_OK;
}

static int cmp_ns(const void *x, const void *y)
{
    pb_ns a = *(const pb_ns *)x, b = *(const pb_ns *)y;
    return a < b ? -1 : a > b;
}

/* per link, JOINT_PICK_WIN times the median duration of its whole pairs
 * paired first in, first out on the callee's clock (k-th call received to
 * k-th return sent): the window of joint_pick_busy.  PB_OK or PB_ENOMEM */
static int windows(const joint *s, pb_ns *win)
{
    uint32_t nl = s->nlinks;
    pb_ns *a = malloc(((size_t)s->npairs + 1) * sizeof *a);
    pb_ns *b = malloc(((size_t)s->npairs + 1) * sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        return PB_ENOMEM;
    }
    for (uint32_t l = 0; l < nl; l++) {
        uint32_t m = 0;
        for (uint32_t i = s->bylink_off[l]; i < s->bylink_off[l + 1]; i++) {
            const jpair *x = &s->pr[s->bylink[i]];
            if (x->call == NONE || x->ret == NONE)
                continue;
            a[m] = x->cr;
            b[m++] = x->rs;
        }
        pb_sort(a, m, sizeof *a, cmp_ns);
        pb_sort(b, m, sizeof *b, cmp_ns);
        for (uint32_t k = 0; k < m; k++)
            a[k] = b[k] - a[k];
        pb_sort(a, m, sizeof *a, cmp_ns);
        pb_ns med = m ? a[m / 2] : 0;
        win[l] = med > 0 ? JOINT_PICK_WIN * med : 1;
    }
    free(a);
    free(b);
    return PB_OK;
}

/* A copy made as a trace (pair p's call and return have ids 2p+1, 2p+2):
 * each pair's call received (or sent, where not received) into cr[p] and
 * its return sent into rs[p]; ids outside the np pairs are left out. */
void joint_pick_copy_stamps(const pb_trace *t, uint32_t np, pb_ns *cr, pb_ns *rs)
{
    pb_trace_view v = pb_trace_view_of(t);
    for (size_t i = 0; i < v.n; i++) {
        uint64_t id = v.msgs[i].id;
        if (id == 0 || (id - 1) / 2 >= np)
            continue;
        uint32_t p = (uint32_t)((id - 1) / 2);
        if (id % 2)
            cr[p] = v.msgs[i].recv_ts != PB_TS_NONE ? v.msgs[i].recv_ts : v.msgs[i].ts;
        else
            rs[p] = v.msgs[i].ts;
    }
}

/* busy landings per link of s's trace (its whole pairs), or of the copy t
 * made from s (t non-NULL: pair p's call and return have ids 2p+1, 2p+2);
 * joint_rules.h */
int joint_pick_busy_of(const joint *s, const pb_trace *t, const pb_ns *scr, const pb_ns *srs,
                   const pb_ns *win, double *calls, double *busy)
{
    uint32_t np = s->npairs;
    uint32_t *lk = malloc(((size_t)np + 1) * sizeof *lk);
    pb_ns *cr = malloc(((size_t)np + 1) * sizeof *cr), *rs = malloc(((size_t)np + 1) * sizeof *rs);
    int rc = lk && cr && rs ? PB_OK : PB_ENOMEM;
    for (uint32_t p = 0; rc == PB_OK && p < np; p++) {
        lk[p] = s->pr[p].link;
        cr[p] = scr ? scr[p] : !t && s->pr[p].call != NONE ? s->pr[p].cr : PB_TS_NONE;
        rs[p] = srs ? srs[p] : !t && s->pr[p].ret != NONE ? s->pr[p].rs : PB_TS_NONE;
    }
    if (rc == PB_OK && t)
        joint_pick_copy_stamps(t, np, cr, rs);
    if (rc == PB_OK)
        rc = joint_pick_busy(s->nlinks, lk, cr, rs, np, win, calls, busy);
    free(lk);
    free(cr);
    free(rs);
    return rc;
}

double joint_pick_z(double n, double b, double m, double mb)
{
    double pi = m > 0 ? mb / m : 0;
    if (n <= 0 || pi <= 0 || pi >= 1)
        return 0;
    return (b - n * pi) / sqrt(n * pi * (1 - pi) * (1 + n / m));
}

int joint_pick(joint *a, const joint *b, double **stat, double *sum, int *held)
{
    uint32_t nl = a->nlinks, nn = a->nnodes;
    double *rn = calloc((size_t)nl + 1, sizeof *rn), *rb = calloc((size_t)nl + 1, sizeof *rb);
    double *tn = calloc((size_t)nl + 1, sizeof *tn), *tb = calloc((size_t)nl + 1, sizeof *tb);
    double *st = calloc(JOINT_PICK_NSTAT * ((size_t)nn + 1), sizeof *st);
    unsigned char *serves = calloc((size_t)nn + 1, 1);
    *stat = NULL;
    int lik_held = *held; /* the likelihood keeps the held search already */
    *held = 0;
    sum[0] = sum[1] = sum[2] = 0;
    pb_ns *win = malloc(((size_t)nl + 1) * sizeof *win);
    pb_ns *sw = calloc((size_t)nn + 1, sizeof *sw);
    double *sp = calloc(4 * ((size_t)nn + 1), sizeof *sp); /* joint_space.c */
    double *ar = calloc(2 * ((size_t)nn + 1), sizeof *ar); /* busy_arr (joint_busyarr.c) */
    int rc = rn && rb && tn && tb && st && serves && win && sw && sp && ar ? PB_OK : PB_ENOMEM;
    if (rc == PB_OK)
        rc = windows(a, win);
    if (rc == PB_OK)
        rc = joint_pick_busy_of(a, NULL, NULL, NULL, win, rn, rb);
    for (uint32_t l = 0; rc == PB_OK && l < nl; l++) {
        double *x = st + JOINT_PICK_NSTAT * (size_t)a->link_src[l];
        x[0] += rn[l];
        x[1] += rb[l];
        serves[a->link_dst[l]] = 1;
    }
    /* the spacing of sends (joint_space.c); not where many messages share
     * a stamp (coarse ties): a gap of no tick says nothing of the spacing
     * below a tick, and the copies' whole-tick draws bias it */
    if (rc == PB_OK && a->p.busy_space && !a->coarse)
        rc = joint_space_of(a, NULL, serves, sw, sp, sp + nn);
    /* busy_skip_same: where the two solutions assign every pair alike the
     * verdict is "free" whatever the copies say (held needs a changed pair,
     * busy_space and busy_partial a changed pair at the service), so the
     * copies are not drawn (exact: only the busy_service lines go) */
    int same = a->p.busy_skip_same && a->npairs == b->npairs;
    for (uint32_t p = 0; same && p < a->npairs; p++)
        same = a->par[p] == b->par[p] && a->pr[p].call == b->pr[p].call &&
               a->pr[p].ret == b->pr[p].ret;
    if (same)
        sum[2] = -1; /* copies skipped: joint_pick_meta says so */
    /* the pairs the two solutions assign differently, by service */
    for (uint32_t p = 0; rc == PB_OK && p < a->npairs && p < b->npairs; p++) {
        if (a->par[p] != b->par[p] || a->pr[p].call != b->pr[p].call) {
            st[JOINT_PICK_NSTAT * (size_t)a->pr[p].caller + 5]++;
            sum[0]++;
        }
        if (a->pr[p].ret != b->pr[p].ret) {
            st[JOINT_PICK_NSTAT * (size_t)a->pr[p].callee + 5]++;
            sum[0]++;
        }
    }
    /* busy_arr (joint_busyarr.c): 1 checks every verdict, 2 only those of
     * services the held search rewrites most of (their counts are drawn
     * only where one is) */
    int arr = 0;
    for (uint32_t v = 0; rc == PB_OK && !same && a->p.busy_arr && v < nn && !arr; v++) {
        const double *x = st + JOINT_PICK_NSTAT * (size_t)v;
        arr = serves[v] && joint_busyarr_asks(a->p.busy_arr, x[0], x[5]);
    }
    /* what independent delays predict: copies of the free solution (more
     * where a verdict depends on their own spread: joint_busymore.c) */
    /* busy_copy_lean: the copies from one set-up, as stamps (joint_selfcal.c) */
    joint_simset *zs = NULL;
    pb_ns *ccr = NULL, *ccs = NULL, *crs = NULL;
    if (rc == PB_OK && !same && a->p.busy_copy_lean) {
        rc = joint_simset_new(a, &zs);
        ccr = malloc(3 * ((size_t)a->npairs + 1) * sizeof *ccr);
        ccs = ccr ? ccr + a->npairs + 1 : NULL;
        crs = ccr ? ccr + 2 * ((size_t)a->npairs + 1) : NULL;
        if (rc == PB_OK && !ccr)
            rc = PB_ENOMEM;
    }
    for (int r = 0; rc == PB_OK && !same && r < JOINT_PICK_MAXSIMS; r++) {
        if (r >= JOINT_PICK_SIMS) {
            int more = 0;
            for (uint32_t v = 0; a->p.busy_more && v < nn && !more; v++) {
                const double *x = st + JOINT_PICK_NSTAT * (size_t)v;
                more = serves[v] && joint_pick_want_more(x[0], x[1], x[2], x[3]);
            }
            if (!more)
                break;
            sum[2]++;
        }
        pb_trace *t = NULL;
        uint32_t seed = (uint32_t)a->p.conf_seed + JOINT_PICK_SEED + (uint32_t)r;
        if (zs) {
            rc = joint_simset_draw(zs, seed, ccr, ccs, crs);
            if (rc == PB_OK)
                rc = joint_pick_busy_of(a, NULL, ccr, crs, win, tn, tb);
            if (rc == PB_OK && arr) /* joint_busyarr.c */
                rc = joint_busyarr_add(a, ccr, crs, win, seed, ar, ar + nn);
            if (rc == PB_OK && a->p.busy_space && !a->coarse)
                rc = joint_space_of_stamps(a, ccs, crs, serves, sw, sp + 2 * (size_t)nn,
                                           sp + 3 * (size_t)nn);
        } else {
            rc = joint_selfcal_copy(a, seed, &t);
            if (rc == PB_OK)
                rc = joint_pick_busy_of(a, t, NULL, NULL, win, tn, tb);
            if (rc == PB_OK && arr) /* joint_busyarr.c */
                rc = joint_busyarr_add_trace(a, t, win, seed, ar, ar + nn);
            if (rc == PB_OK && a->p.busy_space && !a->coarse)
                rc = joint_space_of(a, t, serves, sw, sp + 2 * (size_t)nn, sp + 3 * (size_t)nn);
        }
        pb_trace_close(t);
        for (uint32_t l = 0; rc == PB_OK && l < nl; l++) {
            double *x = st + JOINT_PICK_NSTAT * (size_t)a->link_src[l];
            x[2] += tn[l];
            x[3] += tb[l];
        }
    }
    joint_simset_free(zs);
    free(ccr);
    /* busy_reentry (joint_reentry.c): services their own requests re-enter */
    unsigned char *re = NULL;
    if (rc == PB_OK && a->p.busy_reentry)
        re = joint_reentry_marks(a, &rc);
    for (uint32_t v = 0; rc == PB_OK && v < nn; v++) {
        double *x = st + JOINT_PICK_NSTAT * (size_t)v;
        x[4] = joint_pick_z(x[0], x[1], x[2], x[3]);
        if (!serves[v]) /* not a service (the clients): not tested */
            memset(x, 0, JOINT_PICK_NSTAT * sizeof *x);
        x[6] = serves[v] && x[0] >= JOINT_PICK_MIN && x[4] < -JOINT_PICK_Z;
        for (int k = 0; k < 4; k++)
            x[7 + k] = sp[k * (size_t)nn + v];
        x[11] = joint_pick_z(x[7], x[8], x[9], x[10]);
        if (re && re[v] && (x[6] || x[11] < -JOINT_SPACE_Z)) { /* cannot keep its order */
            x[6] = 0;
            x[12] = 1;
        }
        /* busy_arr: the caller's spacing alone */
        if (arr && x[6] && joint_busyarr_asks(a->p.busy_arr, x[0], x[5])) {
            x[14] = ar[v];
            x[15] = ar[nn + v];
            x[16] = joint_busyarr_z(ar[v], ar[nn + v], x[2], x[3]);
            x[13] = 1 + (x[16] >= -JOINT_PICK_Z);
            if (x[13] == 2)
                x[6] = 0;
        }
        if (x[6])
            sum[1] += x[5];
    }
    if (rc == PB_OK && a->p.busy_links) /* joint_busyheld.c: every link short */
        rc = joint_busyheld(a, b, win, serves, st, sum);
    if (rc == PB_OK) {
        *held = sum[0] > 0 && 2 * sum[1] > sum[0];
        /* busy_space (joint_space.c): where the busy test and the likelihood
         * keep the free search, services whose sends are spaced far more
         * than the copies' serialise too; only when that keeps the held
         * search (otherwise the verdict and its lines are the busy test's,
         * byte for byte) */
        double more = 0;
        for (uint32_t v = 0; !*held && !lik_held && a->p.busy_space && v < nn; v++) {
            const double *x = st + JOINT_PICK_NSTAT * (size_t)v;
            if (serves[v] && !x[6] && !x[12] && x[11] < -JOINT_SPACE_Z)
                more += x[5];
        }
        if (more > 0 && 2 * (sum[1] + more) > sum[0]) {
            *held = 1;
            sum[1] += more;
            for (uint32_t v = 0; v < nn; v++) {
                double *x = st + JOINT_PICK_NSTAT * (size_t)v;
                if (serves[v] && !x[6] && !x[12] && x[11] < -JOINT_SPACE_Z)
                    x[6] = 2; /* serialising by the spacing of its sends */
            }
        }
        *stat = st;
    } else {
        free(st);
    }
    free(rn);
    free(rb);
    free(tn);
    free(tb);
    free(serves);
    free(re);
    free(win);
    free(sw);
    free(sp);
    free(ar);
    return rc;
}

int joint_pick_meta(const joint *s, pb_result *res)
{
    if (!s->pick_stat)
        return PB_OK;
    char more[96] = "";
    if (s->pick_sum[3] > 0) /* only then: other outputs as before, byte for byte */
        snprintf(more, sizeof more, " busy_copies=%.0f", JOINT_PICK_SIMS + s->pick_sum[3]);
    else if (s->pick_sum[3] < 0) /* busy_skip_same: no copy drawn */
        snprintf(more, sizeof more, " busy_copies=0 skipped=same_solutions");
    int spaced = 0; /* services found serialising by busy_space alone */
    for (uint32_t v = 0; v < s->nnodes; v++)
        spaced += s->pick_stat[JOINT_PICK_NSTAT * (size_t)v + 6] == 2;
    if (spaced) /* likewise */
        snprintf(more + strlen(more), sizeof more - strlen(more), " busy_space=%d", spaced);
    int rc = pb_result_meta(res, "busy_test=on changed_pairs=%.0f at_serialising=%.0f "
                                 "held=%s chosen_by=%s%s",
                            s->pick_sum[0], s->pick_sum[1], s->pick_sum[2] > 0 ? "yes" : "no",
                            s->pord_chosen == 2 && s->pick_sum[2] > 0 &&
                                    s->pord_ll[1] <= s->pord_ll[0] + JOINT_RESTART_MARGIN
                                ? "busy_test"
                                : "likelihood",
                            more);
    for (uint32_t v = 0; rc == PB_OK && v < s->nnodes; v++) {
        const double *x = s->pick_stat + JOINT_PICK_NSTAT * (size_t)v;
        if (spaced && x[7] > 0) /* only where the spacing decided (joint_space.c) */
            rc = pb_result_meta(res, "busy_spacing=%s gaps=%.0f short=%.0f copy_gaps=%.0f "
                                     "copy_short=%.0f z=%.2f serialising=%s",
                                pb_strtab_str(s->v.nodes, v), x[7], x[8], x[9], x[10], x[11],
                                x[6] == 2 ? "yes" : "no");
        if (rc != PB_OK)
            break;
        if (x[0] <= 0 || x[2] <= 0)
            continue;
        rc = pb_result_meta(res, "busy_service=%s calls=%.0f busy=%.0f copy_calls=%.0f "
                                 "copy_busy=%.0f z=%.2f serialising=%s changed_pairs=%.0f%s",
                            pb_strtab_str(s->v.nodes, v), x[0], x[1], x[2], x[3], x[4],
                            x[6] > 0 ? "yes" : "no", x[5],
                            x[12] > 0 ? " reentered=yes" : "");
        if (rc == PB_OK && x[13] > 0) /* busy_arr (joint_busyarr.c) */
            rc = pb_result_meta(res, "busy_arr=%s arrival_calls=%.0f arrival_busy=%.0f "
                                     "copy_calls=%.0f copy_busy=%.0f z=%.2f verdict=%s",
                                pb_strtab_str(s->v.nodes, v), x[14], x[15], x[2], x[3], x[16],
                                x[13] == 2 ? "withdrawn" : "kept");
    }
    return rc;
}
