/*
 * joint_late.c - joint: calls that outlive the request they belong to
 * (docs/joint/model.md, "Calls that outlive their request").
 *
 * The candidate test wants a call inside its parent's interval on the
 * caller's clock: sent after the request arrived, its return received
 * before the response left.  Real services break it two ways: a reactive
 * front end stamps its response a few microseconds before the return it
 * waited for (TrainTicket's gateway), and a service sends work on after
 * it has answered (TrainTicket's food service calls delivery up to 2 ms
 * after its response).  Such a call has no candidate and becomes a root,
 * and its request loses it.
 *
 * Which services do that is learned per service from the calls without a
 * candidate (orphans).  Under the null hypothesis that they start
 * requests of their own, an orphan of duration D is sent at a time
 * unrelated to the service's requests, and its return comes at most g
 * after the end of a request that began before it was sent (its
 * "stretch" sigma <= g) only when it was sent in [start, end + g - D] of
 * some request: a share pi(g, D) of the service's time line.  The number
 * of orphans with sigma <= g is then Poisson-binomial with the orphans'
 * pi; the test is its upper tail, at the gaps g in {1 us, 10 us, ...,
 * 1 s} (the least p-value, Bonferroni over the 7 gaps at the 1 % level).
 * A call that returns microseconds after a response while lasting most
 * of the request is far stronger evidence than one merely sent while a
 * request was open (what a call of its own does as often as the service
 * is busy).  An orphan counts only when no request could end after its
 * return even with its latest possible end (a request paired by time:
 * the end of its busy period on its link), so that a pairing by time
 * that ended a request too early is no evidence.
 *
 * A service that passes gives each of its calls every request it was
 * sent in, or sent at most g after (the strict candidates are among
 * them); the model chooses among them as among any.  The metadata says,
 * per service with orphans, what was tested and chosen.
 */
#include "joint_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

#define NONE JOINT_NONE

/* the gaps tried after a response: 1 us .. 1 s by decades */
static const pb_ns late_gaps[JOINT_LATE_NGAPS] = {1000,     10000,     100000,   1000000,
                                                  10000000, 100000000, 1000000000};

typedef struct ivl {
    pb_ns a, b;
} ivl;

static int cmp_ivl(const void *x, const void *y)
{
    const ivl *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    return p->b < q->b ? -1 : p->b > q->b;
}

/* Each pair's latest possible end for the test: its response where it
 * was paired by call id; where it was paired by time (its return may
 * move: joint_ret_movable), the end of its busy period on its link (the
 * first return after which every call that arrived on the link has been
 * answered), the latest return the re-pairing could give it.  A call
 * that lies outside every request only because the pairing by time
 * ended a request too early is no evidence of calls outliving their
 * request.  PB_OK or PB_ENOMEM */
typedef struct lev {
    pb_ns t;
    int d;          /* +1 arrival, -1 return */
    uint32_t q;
} lev;

static int cmp_lev(const void *x, const void *y)
{
    const lev *a = x, *b = y;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    if (a->d != b->d)
        return a->d > b->d ? -1 : 1; /* arrivals first: the period goes on */
    return a->q < b->q ? -1 : a->q > b->q;
}

static int latest_ends(const joint *s, pb_ns *oend)
{
    uint32_t n = s->npairs, nl = s->nlinks;
    for (uint32_t q = 0; q < n; q++)
        oend[q] = req_end(s, q);
    uint32_t *off = calloc((size_t)nl + 2, sizeof *off);
    lev *ev = malloc(2 * ((size_t)n + 1) * sizeof *ev);
    uint32_t *by = malloc(((size_t)n + 1) * sizeof *by), *per = malloc(((size_t)n + 1) * sizeof *per);
    int rc = off && ev && by && per ? PB_OK : PB_ENOMEM;
    if (rc == PB_OK) {
        for (uint32_t q = 0; q < n; q++)
            off[s->pr[q].link + 2]++;
        for (uint32_t l = 0; l < nl; l++)
            off[l + 2] += off[l + 1];
        for (uint32_t q = 0; q < n; q++)
            by[off[s->pr[q].link + 1]++] = q;
        for (uint32_t l = 0; l < nl; l++) {
            size_t ne = 0;
            int any = 0;
            for (uint32_t i = off[l]; i < off[l + 1]; i++) {
                uint32_t q = by[i];
                const jpair *x = &s->pr[q];
                if (x->call == NONE || x->ret == NONE)
                    continue;
                any |= s->free_ret[q];
                ev[ne++] = (lev){x->cr, 1, q};
                ev[ne++] = (lev){x->rs, -1, q};
            }
            if (!any)
                continue;
            pb_sort(ev, ne, sizeof *ev, cmp_lev);
            long open = 0;
            uint32_t np = 0;
            for (size_t i = 0; i < ne; i++) {
                if (ev[i].d > 0) {
                    open++;
                    per[np++] = ev[i].q;
                    continue;
                }
                if (--open > 0)
                    continue;
                for (uint32_t j = 0; j < np; j++)
                    if (s->free_ret[per[j]] && ev[i].t > oend[per[j]])
                        oend[per[j]] = ev[i].t;
                np = 0;
            }
        }
    }
    free(off);
    free(ev);
    free(by);
    free(per);
    return rc;
}

/* the share of [t0, t1] inside the union of the intervals iv[0..ni)
 * (sorted by start): the service's busy share */
/* The length of [t0, t1] covered by the union of [start, end + ext] over the
 * ni (start, end) pairs of iv sorted by start (a pair whose interval is
 * empty left out): the late-call test's chance that a call of duration D,
 * sent at a uniform time, returns within g of a request's end (ext = g - D);
 * joint_lateexties.c takes the same chance for its tied calls. */
double joint_late_cover(const pb_ns *iv, uint32_t ni, pb_ns ext, pb_ns t0, pb_ns t1)
{
    double cov = 0;
    pb_ns clo = 0, chi = 0;
    int open = 0;
    for (uint32_t i = 0; i < ni; i++) {
        pb_ns lo = iv[2 * i], hi = iv[2 * i + 1] + ext;
        if (hi < lo)
            continue;
        if (open && lo <= chi) {
            if (hi > chi)
                chi = hi;
            continue;
        }
        if (open) {
            pb_ns cl = clo < t0 ? t0 : clo, ch = chi > t1 ? t1 : chi;
            cov += ch > cl ? (double)(ch - cl) : 0;
        }
        clo = lo;
        chi = hi;
        open = 1;
    }
    if (open) {
        pb_ns cl = clo < t0 ? t0 : clo, ch = chi > t1 ? t1 : chi;
        cov += ch > cl ? (double)(ch - cl) : 0;
    }
    return cov;
}

static double busy_share(const ivl *iv, uint32_t ni, pb_ns t0, pb_ns t1)
{
    double cov = 0;
    pb_ns clo = 0, chi = 0;
    int open = 0;
    for (uint32_t i = 0; i <= ni; i++) {
        if (i < ni && open && iv[i].a <= chi) {
            if (iv[i].b > chi)
                chi = iv[i].b;
            continue;
        }
        if (open) {
            pb_ns cl = clo < t0 ? t0 : clo, ch = chi > t1 ? t1 : chi;
            cov += ch > cl ? (double)(ch - cl) : 0;
        }
        if (i < ni) {
            clo = iv[i].a;
            chi = iv[i].b;
            open = 1;
        }
    }
    return t1 > t0 ? cov / (double)(t1 - t0) : 0;
}

/* P(X >= k) for X the number of successes of independent trials with
 * probabilities pr[0..n) (the Poisson-binomial distribution, by its
 * recursion over the trials; w: n + 1 doubles of scratch) */
static double pbinom_upper(const double *pr, uint32_t n, uint32_t k, double *w)
{
    if (k == 0)
        return 1.0;
    memset(w, 0, ((size_t)n + 1) * sizeof *w);
    w[0] = 1.0;
    for (uint32_t i = 0; i < n; i++) {
        double p = pr[i] < 0 ? 0 : pr[i] > 1 ? 1 : pr[i];
        for (uint32_t j = i + 1; j > 0; j--)
            w[j] = w[j] * (1 - p) + w[j - 1] * p;
        w[0] *= 1 - p;
    }
    double t = 0;
    for (uint32_t j = k; j <= n; j++)
        t += w[j];
    return t > 1 ? 1 : t;
}

int joint_late_test(joint *s)
{
    uint32_t nn = s->nnodes, n = s->npairs;
    free(s->late_gap);
    free(s->late_sgap);
    free(s->late_lshare);
    free(s->late_stat);
    free(s->lte_stat); /* late_ends (joint_lateends.c) */
    s->lte_stat = NULL;
    s->late_lshare = NULL;
    s->late_gap = NULL;
    s->late_sgap = NULL;
    s->late_stat = NULL;
    if (!s->p.late_calls)
        return PB_OK;
    s->late_gap = malloc(((size_t)nn + 1) * sizeof *s->late_gap);
    s->late_sgap = malloc(((size_t)nn + 1) * sizeof *s->late_sgap);
    pb_ns *olag = malloc(((size_t)n + 1) * sizeof *olag);
    uint32_t *lcalls = s->p.late_split ? calloc((size_t)s->nlinks + 1, sizeof *lcalls) : NULL;
    if (s->p.late_split)
        s->late_lshare = calloc((size_t)s->nlinks + 1, sizeof *s->late_lshare);
    unsigned char *oin = malloc((size_t)n + 1);
    s->late_stat = calloc(JOINT_LATE_NSTAT * ((size_t)nn + 1), sizeof *s->late_stat);
    uint32_t *nin = calloc((size_t)nn + 1, sizeof *nin), *norph = calloc((size_t)nn + 1, sizeof *norph);
    ivl *iv = malloc(((size_t)n + 1) * sizeof *iv), *lt = malloc(((size_t)n + 1) * sizeof *lt);
    pb_ns *ocs = malloc(((size_t)n + 1) * sizeof *ocs), *osig = malloc(((size_t)n + 1) * sizeof *osig);
    pb_ns *odur = malloc(((size_t)n + 1) * sizeof *odur), *oend = malloc(((size_t)n + 1) * sizeof *oend);
    pb_ns *pmx = malloc(((size_t)n + 1) * sizeof *pmx);
    double *pr = malloc(((size_t)n + 1) * sizeof *pr), *w = malloc(((size_t)n + 2) * sizeof *w);
    int rc = s->late_gap && s->late_sgap && olag && oin && s->late_stat &&
                     (!s->p.late_split || (lcalls && s->late_lshare)) && nin && norph && iv &&
                     lt && ocs && osig && odur && oend && pmx && pr && w
                 ? PB_OK
                 : PB_ENOMEM;
    if (rc == PB_OK)
        rc = latest_ends(s, oend);
    if (rc == PB_OK && s->late_lshare)
        rc = joint_late_learn(s); /* late_tie_learn (joint_latelearn.c) */
    if (rc != PB_OK)
        goto done;
    for (uint32_t a = 0; a < nn; a++)
        s->late_gap[a] = s->late_sgap[a] = -1;
    s->late_tied = 0;
    s->late_tied_w = 0;
    for (uint32_t q = 0; q < n; q++) {
        nin[s->pr[q].callee]++;
        if (s->pr[q].call != NONE && s->cand_off[q + 1] == s->cand_off[q])
            norph[s->pr[q].caller]++;
        if (s->late_lshare && s->pr[q].call != NONE) {
            /* per link: the share of its calls that are orphans
             * (joint_latesend.c) */
            lcalls[s->pr[q].link]++;
            double wq = joint_late_tie_weight(s, q); /* joint_latetie.c */
            s->late_lshare[s->pr[q].link] += wq;
            if (wq > 0 && wq < 1) {
                s->late_tied++;
                s->late_tied_w += wq;
            }
        }
    }
    for (uint32_t l = 0; s->late_lshare && l < s->nlinks; l++)
        s->late_lshare[l] = lcalls[l] ? s->late_lshare[l] / lcalls[l] : 0;
    int any = 0;
    for (uint32_t a = 0; a < nn; a++) {
        if (!nin[a] || !norph[a])
            continue;
        /* the service's requests by start (own ends, and the latest ends
         * of latest_ends) and its time line: from the first to the last
         * of them and of its calls */
        uint32_t ni = 0, nl = 0;
        pb_ns t0 = INT64_MAX, t1 = INT64_MIN;
        for (uint32_t q = 0; q < n; q++) {
            const jpair *x = &s->pr[q];
            if (x->callee == a) {
                lt[nl++] = (ivl){req_start(s, q), oend[q]};
                /* a half pair's interval is a guess (its lost end may lie
                 * anywhere within the longest request of its link): it
                 * counts only as a request that could still end after an
                 * orphan (lt), not in the time line's coverage nor in how
                 * near an orphan came (iv), which loss would otherwise
                 * inflate and fail the test (TrainTicket 09:00 at 2 %
                 * loss; docs/joint/audits.md, "Loss with call ids") */
                if (x->call == NONE || x->ret == NONE)
                    continue;
                iv[ni++] = (ivl){req_start(s, q), req_end(s, q)};
                t0 = iv[ni - 1].a < t0 ? iv[ni - 1].a : t0;
                t1 = iv[ni - 1].b > t1 ? iv[ni - 1].b : t1;
            }
            if (x->caller == a && x->call != NONE) {
                t0 = x->cs < t0 ? x->cs : t0;
                t1 = x->cs > t1 ? x->cs : t1;
            }
        }
        pb_sort(iv, ni, sizeof *iv, cmp_ivl);
        pb_sort(lt, nl, sizeof *lt, cmp_ivl);
        /* prefix maxima of the ends: the latest end among the requests
         * that began by a time */
        for (uint32_t i = 1; i < nl; i++) {
            if (lt[i].b < lt[i - 1].b)
                lt[i].b = lt[i - 1].b;
        }
        for (uint32_t i = 0; i < ni; i++) /* and of the own ends */
            pmx[i] = i && pmx[i - 1] > iv[i].b ? pmx[i - 1] : iv[i].b;
        /* the orphans that count, each with how far its return came after
         * the latest end of a request that began before it was sent
         * (sigma) and its duration */
        uint32_t no = 0;
        for (uint32_t q = 0; q < n; q++) {
            const jpair *x = &s->pr[q];
            if (x->caller != a || x->call == NONE || s->cand_off[q + 1] != s->cand_off[q])
                continue;
            uint32_t lo = 0, hi = ni;
            while (lo < hi) {
                uint32_t mid = lo + (hi - lo) / 2;
                if (iv[mid].a <= x->cs)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            uint32_t lo2 = 0, hi2 = nl;
            while (lo2 < hi2) {
                uint32_t mid = lo2 + (hi2 - lo2) / 2;
                if (lt[mid].a <= x->cs)
                    lo2 = mid + 1;
                else
                    hi2 = mid;
            }
            if (lo2 > 0 && lt[lo2 - 1].b >= x->rr)
                continue; /* a request paired by time could still end after it */
            ocs[no] = x->cs;
            osig[no] = lo > 0 ? x->rr - pmx[lo - 1] : INT64_MAX;
            olag[no] = lo > 0 && x->cs > pmx[lo - 1] ? x->cs - pmx[lo - 1] : 0;
            oin[no] = lo > 0 && x->cs <= pmx[lo - 1];
            odur[no++] = x->rr > x->cs ? x->rr - x->cs : 0;
        }
        /* at most JOINT_LATE_WORK orphan x request steps per gap: every
         * m-th orphan when there are more */
        uint32_t step = 1;
        while ((double)no / step * (double)ni > JOINT_LATE_WORK)
            step++;
        uint32_t nu = 0;
        for (uint32_t j = 0; j < no; j += step) {
            ocs[nu] = ocs[j];
            osig[nu] = osig[j];
            olag[nu] = olag[j];
            oin[nu] = oin[j];
            odur[nu++] = odur[j];
        }
        double span = (double)(t1 - t0);
        double best = 2, bk = 0, bc = 0, bv = 0;
        pb_ns bg = 0;
        for (int gi = 0; gi < JOINT_LATE_NGAPS && span > 0 && nu > 0; gi++) {
            pb_ns g = late_gaps[gi];
            /* near: the return came at most g after the end of a request
             * that began before the call was sent; by chance (a call of
             * its own, sent at a uniform time with its duration D): the
             * share of the time line in the union of [start, end + g - D] */
            uint32_t k = 0;
            double mean = 0, var = 0;
            for (uint32_t j = 0; j < nu; j++) {
                k += osig[j] <= g;
                pr[j] = joint_late_cover((const pb_ns *)iv, ni, g - odur[j], t0, t1) / span;
                mean += pr[j];
                var += pr[j] * (1 - pr[j]);
            }
            double pv = pbinom_upper(pr, nu, k, w);
            if (pv < best) {
                best = pv;
                bg = g;
                bk = k;
                bc = mean / nu;
                bv = var;
            }
        }
        /* with late_split, also the orphans sent while a request was open
         * against the service's busy share (joint_latesend.c) */
        double pin = 2, busy = 0;
        uint32_t kin = 0;
        if (s->p.late_split && span > 0 && nu > 0) {
            busy = busy_share(iv, ni, t0, t1);
            for (uint32_t j = 0; j < nu; j++) {
                kin += oin[j];
                pr[j] = busy;
            }
            pin = pbinom_upper(pr, nu, kin, w);
        }
        const double level = JOINT_LATE_ALPHA / (JOINT_LATE_NGAPS + (s->p.late_split != 0));
        double *st = s->late_stat + JOINT_LATE_NSTAT * (size_t)a;
        st[8] = kin;
        st[9] = busy;
        st[10] = pin > 1 ? 1 : pin;
        st[0] = nu;
        st[1] = bk;
        st[2] = bc;
        st[3] = (double)bg;
        st[4] = best > 1 ? 1 : best;
        if (best < level || pin < level) {
            const pb_ns bnear = bg; /* the gap the near orphans were counted at */
            /* passed only by the sends: gap 0, the requests they were
             * sent in */
            if (!(best < level))
                bg = 0;
            st[3] = (double)bg;
            s->late_gap[a] = bg;
            s->late_sgap[a] = s->p.late_split ? joint_late_send_gap(olag, osig, nu, bg, late_gaps,
                                                                   JOINT_LATE_NGAPS)
                                             : bg;
            st[5] = (double)s->late_sgap[a];
            st[6] = joint_late_excess(bk, nu, bc);
            /* late_excess_ties (joint_lateexties.c): the calls tied at
             * their request's end counted by their chance of being
             * orphans */
            double tk = 0, tm = 0, tv = 0;
            double tw = joint_late_ties_sums(s, a, (const pb_ns *)iv, ni, pmx, t0, t1, bnear,
                                             step, &tk, &tm, &tv);
            double wnear = bk, wm = nu * bc, wv = bv;
            if (tw > 0) {
                st[12] = tw;
                st[13] = tk;
                st[14] = tm;
                st[15] = st[6];
                wnear += tk;
                wm += tm;
                wv += tv;
                st[6] = joint_late_excess(wnear, 1, wm);
            }
            /* late_widen_z (joint_latewiden.c): the excess with the chance
             * count's own error */
            st[7] = !s->p.late_split || joint_late_widen(s, a, wnear, 1, wm, wv, st[6]);
            any = 1;
        }
    }
    /* conf_sim_late: the copy takes the real trace's verdict (joint_simlate.c) */
    int taken = joint_sim_late_take(s, &any);
    if (!any) {
        /* nothing widened: the candidates stay as they are */
        free(s->late_gap);
        free(s->late_sgap);
        free(s->late_lshare);
        s->late_gap = NULL;
        s->late_sgap = NULL;
        s->late_lshare = NULL;
    } else if (lcalls && !taken) {
        rc = joint_late_chance(s, lcalls); /* late_chance (joint_lchance.c) */
        if (rc == PB_OK)
            rc = joint_late_ends(s, lcalls); /* late_ends (joint_lateends.c) */
    }
done:
    free(lcalls);
    free(olag);
    free(oin);
    free(nin);
    free(norph);
    free(iv);
    free(lt);
    free(ocs);
    free(osig);
    free(odur);
    free(oend);
    free(pmx);
    free(pr);
    free(w);
    return rc;
}

uint32_t joint_late_resp_trigger(const joint *s, uint32_t b, const uint32_t *r, uint32_t nr,
                                 pb_ns t)
{
    pb_ns g = s->late_gap && s->late_gap[b] > 0 ? s->late_gap[b] : 0;
    uint32_t j = nr;
    while (j > 0 && s->pr[r[j - 1]].rr > t + g)
        j--;
    /* r is sorted by time received: the latest one that qualifies */
    for (; j > 0; j--) {
        const jpair *x = &s->pr[r[j - 1]];
        if (x->rr <= t || x->cs <= t)
            return r[j - 1];
    }
    return NONE;
}
