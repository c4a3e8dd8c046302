/*
 * joint_thread.c - the receiving-thread column as evidence: visits bound to
 * a thread (thread_bound; docs/joint/shapes.md "Visits bound to a thread
 * (h187)"; issue 28).
 *
 * Why.  A tracer that names the thread receiving each message (the `thread`
 * column: maketrace's, the eBPF capture's) says, for a service S, which of
 * S's threads received each request into S and which received each answer
 * to S's own calls.  In a pool of blocking workers a visit runs on one
 * worker from its request to its response, and the answer to a call goes
 * back to the worker that sent it: among S's visits open when the answer
 * arrives, the one it belongs to runs on that thread.  On
 * experiments/joint_models_mesh.conf at twice its load (fe = four workers)
 * the black box put fe's calls on another request's fe visit; the thread
 * names the right one.  Where threads move (goroutines over OS threads, an
 * event loop of several threads) an answer arrives on any thread, and the
 * column says nothing: vpath reading the eBPF capture's threads gets 0.3 %.
 *
 * The test (per service, pairing-free in the answers: only the answers'
 * threads and the service's visits as currently paired; tested again at
 * every pass that makes the candidates, a service once bound staying
 * bound).  For each answer r to
 * one of S's calls, received at t on thread h: it is a *miss* when no visit
 * of S open at t (request received <= t <= response sent, S's clock) runs
 * on h.  By chance -- threads drawn independently of the visits, with the
 * frequencies S's visits have -- the answer misses with probability 1 -
 * (sum of the frequencies of the distinct threads of the open visits).  S's
 * visits are bound to a thread when the misses are at most thread_ratio
 * (0.1) of what chance gives, and chance gives at least thread_expect (10)
 * of them (so one thread, or few threads busy at once, never pass: the
 * column could not tell visits apart there anyway).  Answers with more than
 * JOINT_THR_OPEN visits open are not counted (cost).
 *
 * Which pairs.  thread_bound=2 (the default) counts and filters only pairs
 * made by call id (the answer's pair and the visit's interval are the
 * trace's): with call ids no audit row fell (models3's 84 ids rows: 54
 * up).  thread_bound=1 also uses pairs made without call ids, where they
 * are the search's guess: the mesh's black box gains (x2 53 -> 76 %), but
 * a pool at twice its load falls (up to 14 of 797 requests), so it is off.
 *
 * The rule.  At a bound service, a call whose answer was received on a
 * known thread keeps only the candidate visits on that thread (a visit
 * whose request was lost, or of unknown thread, stays); when none is on
 * it, every candidate stays (counted, said on stderr).  The candidates are
 * made again after every re-pairing of answers, so without call ids the
 * filter follows the pairing.  Metadata: thread_service= per tested
 * service (answers, misses, chance's, bound yes/no), thread_bound= the
 * candidates dropped and the calls left as they were.  A trace without the
 * column (or a service not bound) is untouched.
 */
#include "joint_int.h"
#include "pb_sort.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define JOINT_THR_OPEN 256 /* answers with more visits open are not counted */
#define JOINT_THR_MIN 20   /* answers a service needs to be tested */

struct joint_thr {
    uint32_t nn;
    size_t *n;        /* per service: answers counted */
    size_t *miss;     /* of them, on no open visit's thread */
    size_t *tmiss;    /* thread_bound_starts: of them, on no visit's thread open in the answer's tick (joint_busythr.c) */
    double *expect;   /* misses chance gives */
    unsigned char *bound;
    int any;          /* some service bound */
    int done;         /* no service left to test (no thread column, or every one bound) */
    size_t dropped;   /* candidates the threads put out (the last pass) */
    size_t kept_all;  /* calls with no candidate on their thread (the last pass) */
    size_t kept_ever; /* the most such calls over the passes */
    /* thread_soft: per service the rate (misses over chance's, the least
     * over the passes; 2: none yet) and whether the term is on; per
     * service its visits' threads (fth[fo[a]..fo[a+1]), sorted) with each
     * one's mismatch term (ftm, for the service's rate) */
    double *m;
    unsigned char *son;
    int soft_any;
    int muted;        /* thread_soft_pick: the term left out of the walks (joint_thrpick.c) */
    uint32_t *fo, *fth;
    double *ff, *ftm;
    double *cap;      /* thread_soft_cap: per service the cap on a mismatch's cost (0: none) */
    double rt[5];     /* thread_soft_pick=6 (joint_thrtest.c): set, misses and chance's here and in the other solution */
    double *zb;       /* thread_soft_z: per service the most Poisson sds its misses fell under chance's, over the passes */
    double *zt;       /* thread_bound_starts: zs with ends in the start's tick not open (joint_busythr.c) */
    double *zs;       /* thread_soft_z: per service the most sds its visits' starts kept off open visits' threads under chance's */
    double st_level;  /* thread_soft_starts' level (joint_thrstart.c) */
    unsigned char *st_only; /* thread_soft_starts_end's search: the services it may weigh (joint_thrsend.c), or NULL */
};

/* thread_soft_starts' level at service a: 0 where thread_soft_starts_end's
 * search leaves a to the rate alone */
static inline double st_level(const struct joint_thr *t, uint32_t a)
{
    return t->st_only && !t->st_only[a] ? 0 : t->st_level;
}

static inline uint32_t thr_of(const joint *s, uint32_t msg)
{
    return msg == JOINT_NONE ? 0 : pb_obs_thread(s->v.obs, msg);
}

/* may pair p take part?  thread_bound=2: only a pair made by call id (its
 * return cannot move, its visit's interval is the trace's) */
static inline int by_id(const joint *s, uint32_t p)
{
    return s->p.thread_bound != 2 || !s->free_ret || !s->free_ret[p];
}

/* pair p made by call id (its return cannot move) */
static inline int made_by_id(const joint *s, uint32_t p)
{
    return !s->free_ret || !s->free_ret[p];
}

/* may pair p take part in the test?  thread_soft counts every pair */
static inline int in_test(const joint *s, uint32_t p)
{
    return s->p.thread_soft > 0 || by_id(s, p);
}

void joint_thread_free(joint *s)
{
    struct joint_thr *t = s->thr;
    free(s->thrse_svc); /* thread_soft_starts_end's record (joint_thrsend.c) */
    s->thrse_svc = NULL;
    if (!t)
        return;
    free(t->st_only);
    free(t->n);
    free(t->miss);
    free(t->tmiss);
    free(t->expect);
    free(t->bound);
    free(t->m);
    free(t->son);
    free(t->fo);
    free(t->fth);
    free(t->ff);
    free(t->ftm);
    free(t->cap);
    free(t->zb);
    free(t->zs);
    free(t->zt);
    free(t);
    s->thr = NULL;
}

/* a visit's start or an answer's receipt at service a (pair p) */
typedef struct tev {
    uint32_t a, p;
    pb_ns t;
} tev;

static int cmp_tev(const void *x, const void *y)
{
    const tev *u = x, *v = y;
    if (u->a != v->a)
        return u->a < v->a ? -1 : 1;
    if (u->t != v->t)
        return u->t < v->t ? -1 : 1;
    return u->p < v->p ? -1 : u->p > v->p;
}

/* thread_bound_starts (joint_busythr.c): ord[0..k) the visits (indices in
 * in) of one service by thread, then start; 1 where a visit on thread h is
 * open at some moment of tr's tick (start tick <= tr's <= end tick; within
 * a coarse tick the stamps' order is the rows'), looking at the last four
 * visits on h started by then (a worker's visits follow one another) */
typedef struct thri {
    uint32_t h, i; /* a visit's thread, its index in in */
} thri;

static int cmp_thri(const void *x, const void *y)
{
    const thri *u = x, *v = y;
    if (u->h != v->h)
        return u->h < v->h ? -1 : 1;
    return u->i < v->i ? -1 : u->i > v->i;
}

static int tick_hit(const joint *s, const tev *in, const thri *ord, uint32_t k, uint32_t h,
                    pb_ns tr, pb_ns tk)
{
    uint32_t lo = 0, hi = k; /* first with (thread, start tick) > (h, tr's tick) */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (ord[mid].h < h || (ord[mid].h == h && in[ord[mid].i].t / tk <= tr / tk))
            lo = mid + 1;
        else
            hi = mid;
    }
    for (uint32_t j = lo, b = 0; j > 0 && b < 4; j--, b++) {
        const uint32_t q = in[ord[j - 1].i].p;
        if (ord[j - 1].h != h)
            break;
        if (req_end(s, q) / tk >= tr / tk)
            return 1;
    }
    return 0;
}

/* the test, on the pairs as they are: fills t per service not yet bound */
static int thread_test(joint *s, struct joint_thr *t)
{
    uint32_t n = s->npairs, nn = s->nnodes;
    uint32_t hmax = 0;
    for (size_t i = 0; i < s->v.n; i++)
        if (pb_obs_thread(s->v.obs, i) > hmax)
            hmax = pb_obs_thread(s->v.obs, i);
    if (hmax == 0) {
        t->done = 1; /* no thread column (or every field empty) */
        return PB_OK;
    }
    /* visits (by service served, start) and answers (by service called
     * from, receipt), each on a known thread */
    tev *in = malloc(((size_t)n + 1) * sizeof *in);
    tev *out = malloc(((size_t)n + 1) * sizeof *out);
    uint32_t *open = malloc(((size_t)n + 1) * sizeof *open);
    double *freq = calloc((size_t)hmax + 1, sizeof *freq);
    size_t *seen = calloc((size_t)hmax + 1, sizeof *seen); /* stamp: the answer's number */
    thri *ord = s->p.thread_bound_starts > 0 ? malloc(((size_t)n + 1) * sizeof *ord) : NULL;
    int rc = PB_OK;
    if (!in || !out || !open || !freq || !seen || (s->p.thread_bound_starts > 0 && !ord)) {
        rc = PB_ENOMEM;
        goto done;
    }
    uint32_t ni = 0, no = 0;
    for (uint32_t p = 0; p < n; p++) {
        const jpair *x = &s->pr[p];
        if (!in_test(s, p))
            continue; /* thread_bound=2: pairs made by call id only */
        if (thr_of(s, x->call))
            in[ni++] = (tev){x->callee, p, req_start(s, p)};
        if (thr_of(s, x->ret))
            out[no++] = (tev){x->caller, p, x->rr};
    }
    pb_sort(in, ni, sizeof *in, cmp_tev);
    pb_sort(out, no, sizeof *out, cmp_tev);
    size_t stamp = 0;
    for (uint32_t a = 0, i0 = 0, i1 = 0, o0 = 0, o1 = 0; a < nn; a++, i0 = i1, o0 = o1) {
        while (i1 < ni && in[i1].a == a)
            i1++;
        while (o1 < no && out[o1].a == a)
            o1++;
        if (t->bound[a] || i1 - i0 < 2 || o1 - o0 < JOINT_THR_MIN)
            continue; /* a bound service keeps the statistics that bound it */
        t->n[a] = t->miss[a] = 0;
        t->expect[a] = 0;
        for (uint32_t i = i0; i < i1; i++)
            freq[thr_of(s, s->pr[in[i].p].call)] += 1.0 / (double)(i1 - i0);
        uint32_t ip = i0, nopen = 0;
        const pb_ns tk = joint_busythr_tick(s);
        if (ord) {
            for (uint32_t i = i0; i < i1; i++)
                ord[i - i0] = (thri){thr_of(s, s->pr[in[i].p].call), i};
            pb_sort(ord, i1 - i0, sizeof *ord, cmp_thri);
            t->tmiss[a] = 0;
        }
        for (uint32_t o = o0; o < o1; o++) {
            const pb_ns tr = out[o].t;
            const uint32_t h = thr_of(s, s->pr[out[o].p].ret);
            while (ip < i1 && in[ip].t <= tr)
                open[nopen++] = in[ip++].p;
            uint32_t keep = 0;
            for (uint32_t j = 0; j < nopen; j++)
                if (req_end(s, open[j]) >= tr)
                    open[keep++] = open[j];
            nopen = keep;
            if (nopen == 0 || nopen > JOINT_THR_OPEN)
                continue;
            stamp++;
            int hit = 0;
            double chance = 0;
            for (uint32_t j = 0; j < nopen; j++) {
                uint32_t u = thr_of(s, s->pr[open[j]].call);
                hit |= u == h;
                if (seen[u] != stamp) {
                    seen[u] = stamp;
                    chance += freq[u];
                }
            }
            t->n[a]++;
            t->miss[a] += !hit;
            if (ord && !hit)
                t->tmiss[a] += !tick_hit(s, in, ord, i1 - i0, h, tr, tk);
            t->expect[a] += chance < 1 ? 1 - chance : 0;
        }
        if (t->zs && (s->p.thread_soft_z > 0 || t->st_level > 0 || s->p.thread_soft_starts_end > 0 ||
                      s->p.thread_bound_starts > 0)) {
            /* thread_soft_z: does a visit start on a thread an open visit
             * holds (a worker owned by its visit keeps new visits off) */
            double hit = 0, chance = 0, hit2 = 0, chance2 = 0;
            uint32_t nop = 0;
            for (uint32_t i = i0; i < i1; i++) {
                const pb_ns t0 = in[i].t;
                uint32_t keep = 0;
                for (uint32_t j = 0; j < nop; j++)
                    if (req_end(s, open[j]) >= t0)
                        open[keep++] = open[j];
                nop = keep;
                if (nop > 0 && nop <= JOINT_THR_OPEN) {
                    stamp++;
                    const uint32_t h = thr_of(s, s->pr[in[i].p].call);
                    int on = 0;
                    double c = 0;
                    for (uint32_t j = 0; j < nop; j++) {
                        uint32_t u = thr_of(s, s->pr[open[j]].call);
                        on |= u == h;
                        if (seen[u] != stamp) {
                            seen[u] = stamp;
                            c += freq[u];
                        }
                    }
                    hit += on;
                    chance += c < 1 ? c : 1;
                    if (s->p.thread_bound_starts > 0) {
                        /* thread_bound_starts: a visit ending in the
                         * start's own tick (a worker's next visit taken
                         * as the last ends; within a coarse tick the
                         * stamps' order is the rows', not the events')
                         * is not open */
                        stamp++;
                        on = 0;
                        c = 0;
                        for (uint32_t j = 0; j < nop; j++) {
                            if (req_end(s, open[j]) / tk <= t0 / tk)
                                continue;
                            uint32_t u = thr_of(s, s->pr[open[j]].call);
                            on |= u == h;
                            if (seen[u] != stamp) {
                                seen[u] = stamp;
                                c += freq[u];
                            }
                        }
                        hit2 += on;
                        chance2 += c < 1 ? c : 1;
                    }
                }
                open[nop++] = in[i].p;
            }
            double z = chance > 0 ? (chance - hit) / sqrt(chance) : 0;
            if (z > t->zs[a])
                t->zs[a] = z;
            z = chance2 > 0 ? (chance2 - hit2) / sqrt(chance2) : 0;
            if (s->p.thread_bound_starts > 0 && z > t->zt[a])
                t->zt[a] = z;
        }
        for (uint32_t i = i0; i < i1; i++)
            freq[thr_of(s, s->pr[in[i].p].call)] = 0;
        t->bound[a] = t->n[a] >= JOINT_THR_MIN && t->expect[a] >= s->p.thread_expect &&
                      (double)t->miss[a] <= s->p.thread_ratio * t->expect[a];
        if (!t->bound[a] && t->zt) /* thread_bound_starts (joint_busythr.c) */
            t->bound[a] = (unsigned char)joint_busythr_bind(s, t->n[a], t->tmiss[a], t->expect[a],
                                                            t->zt[a], JOINT_THR_MIN);
        t->any |= t->bound[a];
        if (t->m && t->n[a] >= JOINT_THR_MIN && t->expect[a] >= s->p.thread_expect) {
            /* thread_soft: an answer leaves its visit's thread at rate m,
             * then lands on a thread drawn as chance draws (missing every
             * open visit with chance's probability): misses ~ m x chance's
             * (half a miss where none was seen) */
            double m = ((double)t->miss[a] > 0.5 ? (double)t->miss[a] : 0.5) / t->expect[a];
            if (m < t->m[a])
                t->m[a] = m;
            double z = ((double)t->expect[a] - (double)t->miss[a]) / sqrt(t->expect[a]);
            if (z > t->zb[a])
                t->zb[a] = z; /* thread_soft_z (joint_thrbar.c) */
        }
    }
done:
    free(in);
    free(out);
    free(open);
    free(freq);
    free(seen);
    free(ord);
    return rc;
}

/* thread_soft: per service its visits' threads and their frequencies
 * (the requests into it: the same whatever the pairing) */
typedef struct athr {
    uint32_t a, h;
} athr;

static int cmp_athr(const void *x, const void *y)
{
    const athr *u = x, *v = y;
    if (u->a != v->a)
        return u->a < v->a ? -1 : 1;
    return u->h < v->h ? -1 : u->h > v->h;
}

static int soft_init(const joint *s, struct joint_thr *t)
{
    uint32_t n = s->npairs, nn = t->nn, k = 0;
    t->m = malloc(((size_t)nn + 1) * sizeof *t->m);
    t->son = calloc((size_t)nn + 1, 1);
    t->cap = calloc((size_t)nn + 1, sizeof *t->cap);
    t->zb = malloc(((size_t)nn + 1) * sizeof *t->zb);
    t->zs = malloc(((size_t)nn + 1) * sizeof *t->zs);
    t->zt = malloc(((size_t)nn + 1) * sizeof *t->zt);
    t->fo = calloc((size_t)nn + 2, sizeof *t->fo);
    athr *v = malloc(((size_t)n + 1) * sizeof *v);
    if (!t->m || !t->son || !t->fo || !t->cap || !t->zb || !t->zs || !t->zt || !v) {
        free(v);
        return PB_ENOMEM;
    }
    for (uint32_t a = 0; a <= nn; a++)
        t->m[a] = 2, t->zb[a] = t->zs[a] = t->zt[a] = -INFINITY;
    for (uint32_t p = 0; p < n; p++) {
        uint32_t h = thr_of(s, s->pr[p].call);
        if (h && s->pr[p].callee < nn)
            v[k++] = (athr){s->pr[p].callee, h};
    }
    pb_sort(v, k, sizeof *v, cmp_athr);
    uint32_t d = 0;
    for (uint32_t i = 0; i < k; i++)
        d += i == 0 || cmp_athr(&v[i - 1], &v[i]) != 0;
    t->fth = malloc(((size_t)d + 1) * sizeof *t->fth);
    t->ff = malloc(((size_t)d + 1) * sizeof *t->ff);
    t->ftm = calloc((size_t)d + 1, sizeof *t->ftm);
    if (!t->fth || !t->ff || !t->ftm) {
        free(v);
        return PB_ENOMEM;
    }
    uint32_t *cnt = t->fo + 1; /* per service its visits, first */
    for (uint32_t i = 0; i < k; i++)
        cnt[v[i].a]++;
    d = 0;
    for (uint32_t i = 0; i < k; i++) {
        if (i == 0 || cmp_athr(&v[i - 1], &v[i]) != 0) {
            t->fth[d] = v[i].h;
            t->ff[d++] = 0;
        }
        t->ff[d - 1] += 1.0 / (double)cnt[v[i].a];
    }
    /* fo: offsets of each service's distinct threads */
    for (uint32_t a = 0; a <= nn; a++)
        t->fo[a] = 0;
    for (uint32_t i = 0, j = 0; i < k; i++)
        if (i == 0 || cmp_athr(&v[i - 1], &v[i]) != 0)
            t->fo[v[i].a + 1]++, j++;
    for (uint32_t a = 0; a < nn + 1; a++)
        t->fo[a + 1] += t->fo[a];
    free(v);
    return PB_OK;
}

/* thread_soft: the services whose rate is at most thread_soft, and each
 * of their threads' mismatch term, log(m / (m + (1 - m) / f)): the
 * answer's thread h under its parent's thread u, against a parent on h,
 * when an answer stays on its visit's thread with probability 1 - m and
 * else is drawn with the visits' frequencies f */
static int cmp_dbl(const void *x, const void *y)
{
    double u = *(const double *)x, v = *(const double *)y;
    return u < v ? -1 : u > v;
}

/* thread_soft_cap (h209): per weighed service b, the delay model's median
 * margin over b's calls made without call ids that have two candidate
 * parents or more: the greedy cost (joint_greedy_cost, the call's delay and
 * count terms under the current fit) of its second best candidate less its
 * best's.  cap[b] = that median (0: none measured, no cap).  PB_OK or
 * PB_ENOMEM */
static int soft_caps(const joint *s, const struct joint_thr *t, double *cap)
{
    uint32_t n = s->npairs, nn = t->nn;
    size_t *cnt = calloc((size_t)nn + 2, sizeof *cnt);
    double *mg = malloc(((size_t)n + 1) * sizeof *mg);
    uint32_t *svc = malloc(((size_t)n + 1) * sizeof *svc);
    if (!cnt || !mg || !svc) {
        free(cnt);
        free(mg);
        free(svc);
        return PB_ENOMEM;
    }
    size_t k = 0;
    for (uint32_t p = 0; p < n; p++) {
        uint32_t b = s->pr[p].caller, j0 = s->cand_off[p], j1 = s->cand_off[p + 1];
        if (b >= nn || !t->son[b] || j1 - j0 < 2 || made_by_id(s, p))
            continue;
        double c1 = INFINITY, c2 = INFINITY;
        for (uint32_t j = j0; j < j1; j++) {
            double c = joint_greedy_cost(s, p, s->cand[j]);
            if (c < c1) {
                c2 = c1;
                c1 = c;
            } else if (c < c2) {
                c2 = c;
            }
        }
        if (isfinite(c2 - c1)) {
            mg[k] = c2 - c1;
            svc[k++] = b;
        }
    }
    /* grouped by service: counting sort */
    for (size_t i = 0; i < k; i++)
        cnt[svc[i] + 1]++;
    for (uint32_t a = 0; a < nn; a++)
        cnt[a + 1] += cnt[a];
    double *by = malloc((k + 1) * sizeof *by);
    if (!by) {
        free(cnt);
        free(mg);
        free(svc);
        return PB_ENOMEM;
    }
    size_t *fill = calloc((size_t)nn + 1, sizeof *fill);
    if (!fill) {
        free(by);
        free(cnt);
        free(mg);
        free(svc);
        return PB_ENOMEM;
    }
    for (size_t i = 0; i < k; i++)
        by[cnt[svc[i]] + fill[svc[i]]++] = mg[i];
    for (uint32_t a = 0; a < nn; a++) {
        size_t m = cnt[a + 1] - cnt[a];
        cap[a] = 0;
        if (m == 0)
            continue;
        pb_sort(by + cnt[a], m, sizeof *by, cmp_dbl);
        cap[a] = by[cnt[a] + m / 2];
    }
    free(fill);
    free(by);
    free(cnt);
    free(mg);
    free(svc);
    return PB_OK;
}

static void soft_terms(const joint *s, struct joint_thr *t)
{
    t->soft_any = 0;
    for (uint32_t a = 0; a < t->nn; a++) {
        double m = t->m[a];
        t->son[a] = m <= s->p.thread_soft || joint_thrbar_on(s, m, t->zb[a], t->zs[a]) ||
                    joint_thrstart_on(s, st_level(t, a), m, t->zs[a]); /* thread_soft_starts (joint_thrstart.c) */
        t->soft_any |= t->son[a];
        if (!t->son[a])
            continue;
        if (!joint_thrbar_on(s, m, t->zb[a], t->zs[a]))
            m = joint_thrstart_rate(s, st_level(t, a), m, t->zs[a]); /* the bar's rate where the starts alone weigh it */
        if (m < s->p.thread_soft_floor)
            m = s->p.thread_soft_floor; /* thread_soft_floor: a cap on the term (h204) */
        for (uint32_t j = t->fo[a]; j < t->fo[a + 1]; j++)
            t->ftm[j] = log(m) - log(m + (1 - m) / t->ff[j]);
    }
    if (t->soft_any && s->p.thread_soft_cap > 0) {
        /* before the first fit (no kid lists, no densities) the delays
         * decide nothing yet: the term waits (every mismatch 0) */
        const int fitted = s->kids && s->fit_gen > 0;
        double *cap = calloc((size_t)t->nn + 1, sizeof *cap);
        if (cap && !fitted)
            for (uint32_t a = 0; a < t->nn; a++)
                for (uint32_t j = t->fo[a]; t->son[a] && j < t->fo[a + 1]; j++)
                    t->ftm[j] = 0;
        if (cap && fitted && soft_caps(s, t, cap) == PB_OK) /* out of memory: uncapped */
            for (uint32_t a = 0; a < t->nn; a++) {
                t->cap[a] = cap[a] * s->p.thread_soft_cap;
                for (uint32_t j = t->fo[a]; t->son[a] && cap[a] > 0 && j < t->fo[a + 1]; j++)
                    if (t->ftm[j] < -t->cap[a])
                        t->ftm[j] = -t->cap[a];
            }
        free(cap);
    }
}

double joint_thread_kid(const joint *s, uint32_t q, uint32_t p)
{
    return joint_thread_ll(s, q, &p, 1);
}

double joint_thread_ll(const joint *s, uint32_t q, const uint32_t *k, uint32_t n)
{
    const struct joint_thr *t = s->thr;
    if (!t || !t->soft_any || t->muted)
        return 0;
    const jpair *x = &s->pr[q];
    const uint32_t b = x->callee, u = thr_of(s, x->call);
    if (!u || b >= t->nn || !t->son[b])
        return 0;
    const int qid = made_by_id(s, q);
    double sum = 0;
    for (uint32_t i = 0; i < n; i++) {
        const jpair *c = &s->pr[k[i]];
        const uint32_t h = thr_of(s, c->ret);
        if (!h || h == u || c->caller != b || (qid && made_by_id(s, k[i])))
            continue; /* nothing known, on its thread, or left to the filter */
        uint32_t lo = t->fo[b], hi = t->fo[b + 1];
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (t->fth[mid] < h)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < t->fo[b + 1] && t->fth[lo] == h)
            sum += t->ftm[lo]; /* a thread no visit ran on: no parent could match */
    }
    return sum;
}

int joint_thread_apply(joint *s)
{
    if ((!s->p.thread_bound && !(s->p.thread_soft > 0)) || !s->cand_off ||
        !(s->v.columns & PB_COL_THREAD))
        return PB_OK;
    struct joint_thr *t = s->thr;
    if (!t) {
        uint32_t nn = s->nnodes;
        t = s->thr = calloc(1, sizeof *t);
        if (!t)
            return PB_ENOMEM;
        t->nn = nn;
        t->muted = s->p.thread_soft_pick < 0; /* thread_soft_pick=4's search without the term */
        t->n = calloc((size_t)nn + 1, sizeof *t->n);
        t->miss = calloc((size_t)nn + 1, sizeof *t->miss);
        t->tmiss = calloc((size_t)nn + 1, sizeof *t->tmiss);
        t->expect = calloc((size_t)nn + 1, sizeof *t->expect);
        t->bound = calloc((size_t)nn + 1, 1);
        if (!t->n || !t->miss || !t->tmiss || !t->expect || !t->bound)
            return PB_ENOMEM;
        t->st_level = s->p.thread_soft_starts;
        if (s->p.thrse_only) { /* thread_soft_starts_end's search (joint_thrsend.c) */
            t->st_only = malloc((size_t)nn + 1);
            if (!t->st_only)
                return PB_ENOMEM;
            memcpy(t->st_only, s->p.thrse_only, (size_t)nn);
            t->st_only[nn] = 0;
        }
        if (s->p.thread_soft > 0) {
            int rc = soft_init(s, t);
            if (rc != PB_OK)
                return rc;
        }
    }
    /* tested again on every pass's pairing (without call ids the first,
     * first in first out, can put a bound service's answers outside their
     * visits: mesh x2 fe 1,702 misses against chance's 1,196, after the
     * search 263 against 522); a service once bound stays bound */
    if (!t->done) {
        int rc = thread_test(s, t);
        if (rc != PB_OK)
            return rc;
        if (t->m)
            soft_terms(s, t);
    }
    if (!t->any || !s->p.thread_bound)
        return PB_OK;
    uint32_t n = s->npairs, w = 0;
    t->dropped = t->kept_all = 0;
    for (uint32_t p = 0; p < n; p++) {
        const jpair *x = &s->pr[p];
        uint32_t j0 = s->cand_off[p], j1 = s->cand_off[p + 1];
        s->cand_off[p] = w;
        const uint32_t h = t->bound[x->caller] && by_id(s, p) ? thr_of(s, x->ret) : 0;
        uint32_t keep = 0;
        if (h)
            for (uint32_t j = j0; j < j1; j++) {
                uint32_t q = s->cand[j], u = by_id(s, q) ? thr_of(s, s->pr[q].call) : 0;
                keep += !u || u == h;
            }
        if (!h || !keep || keep == j1 - j0) {
            memmove(s->cand + w, s->cand + j0, (size_t)(j1 - j0) * sizeof *s->cand);
            w += j1 - j0;
            t->kept_all += h && j1 > j0 && !keep;
        } else {
            for (uint32_t j = j0; j < j1; j++) {
                uint32_t q = s->cand[j], u = by_id(s, q) ? thr_of(s, s->pr[q].call) : 0;
                if (!u || u == h)
                    s->cand[w++] = s->cand[j];
            }
            t->dropped += (j1 - j0) - keep;
        }
    }
    s->cand_off[n] = w;
    joint_cand_recount(s);
    if (t->kept_all > t->kept_ever)
        t->kept_ever = t->kept_all;
    return PB_OK;
}

int joint_thread_mute(joint *s, int mute)
{
    struct joint_thr *t = s->thr;
    if (!t)
        return 0;
    t->muted = mute;
    return t->soft_any;
}

int joint_thread_meta(const joint *s, pb_result *res)
{
    const struct joint_thr *t = s->thr;
    int rc = joint_thrpick_meta(s, res); /* thread_soft_pick (joint_thrpick.c) */
    if (rc == PB_OK)
        rc = joint_thrmove_meta(s, res); /* thread_soft_pick=7 (joint_thrmove.c) */
    if (rc == PB_OK && t && t->rt[0] > 0) /* thread_soft_pick=6 (joint_thrtest.c) */
        rc = pb_result_meta(res, "thread_soft_rate_test=%s misses_with_term=%.0f chance_with_term=%.1f "
                            "misses_without_term=%.0f chance_without_term=%.1f",
                            t->rt[0] <= 1 ? "without_term"
                            : s->thrmove[0] == 1 ? "with_term_overruled_by_moves" /* pick=7 */
                                                 : "with_term",
                            t->rt[1], t->rt[2], t->rt[3], t->rt[4]);
    if (!t || rc != PB_OK)
        return rc;
    for (uint32_t a = 0; a < t->nn && rc == PB_OK; a++)
        if (t->n[a] >= JOINT_THR_MIN)
            rc = pb_result_meta(res, "thread_service=%s answers=%zu misses=%zu "
                                "chance_misses=%.1f bound=%s",
                                pb_strtab_str(s->v.nodes, a), t->n[a], t->miss[a], t->expect[a],
                                t->bound[a] ? "yes" : "no");
    for (uint32_t a = 0; t->zt && a < t->nn && rc == PB_OK; a++)
        if (s->p.thread_bound_starts > 0 && t->n[a] >= JOINT_THR_MIN &&
            t->expect[a] < s->p.thread_expect)
            rc = joint_busythr_meta(s, res, pb_strtab_str(s->v.nodes, a), t->n[a], t->tmiss[a],
                                    t->expect[a], t->zt[a], t->bound[a]);
    for (uint32_t a = 0; t->m && a < t->nn && rc == PB_OK; a++)
        if (t->son[a])
            rc = t->cap[a] > 0
                     ? pb_result_meta(res, "thread_soft=%s miss_rate=%.4f threads=%u cap=%.3f",
                                      pb_strtab_str(s->v.nodes, a), t->m[a],
                                      t->fo[a + 1] - t->fo[a], t->cap[a])
                     : pb_result_meta(res, "thread_soft=%s miss_rate=%.4f threads=%u",
                                      pb_strtab_str(s->v.nodes, a), t->m[a],
                                      t->fo[a + 1] - t->fo[a]);
    for (uint32_t a = 0; t->m && a < t->nn && rc == PB_OK; a++)
        if (t->m[a] <= 1)
            rc = joint_thrbar_meta(s, res, pb_strtab_str(s->v.nodes, a), t->m[a], t->zb[a], t->zs[a]);
    for (uint32_t a = 0; t->m && a < t->nn && rc == PB_OK; a++)
        if (!joint_thrbar_on(s, t->m[a], t->zb[a], t->zs[a]))
            rc = joint_thrstart_meta(s, res, pb_strtab_str(s->v.nodes, a), st_level(t, a), t->m[a],
                                     t->zs[a]);
    if (rc == PB_OK && t->any && s->p.thread_bound) {
        rc = pb_result_meta(res, "thread_bound=on candidates_dropped=%zu kept_all=%zu",
                            t->dropped, t->kept_all);
        if (rc == PB_OK && t->kept_ever)
            pb_result_warn(res, "up to %zu calls of services bound to a thread had no candidate "
                           "visit on their answer's thread; every candidate kept "
                           "(thread_bound)", t->kept_ever);
    }
    return rc;
}

/* thread_soft_pick=5 (joint_thrwarm.c, h217): some pair made without a
 * call id (else the term is 0 on every pair: nothing to search again) */
int joint_thread_free_any(const joint *s)
{
    for (uint32_t p = 0; s->free_ret && p < s->npairs; p++)
        if (s->free_ret[p])
            return 1;
    return 0;
}

/* thread_soft: can the term weigh visit q's walk at all (else
 * joint_thread_ll is 0 for q whatever its calls; joint_rsbound.c, h225) */
int joint_thread_weighs(const joint *s, uint32_t q)
{
    const struct joint_thr *t = s->thr;
    if (!t || !t->soft_any || t->muted)
        return 0;
    const jpair *x = &s->pr[q];
    return thr_of(s, x->call) != 0 && x->callee < t->nn && t->son[x->callee];
}

/* thread_soft_pick=6 (joint_thrtest.c, h233): the answers counted, their
 * misses and chance's misses, summed over the services the term weighs
 * (as weighed by w's fit: w may be s), counted again on s's current
 * pairing; s's test state is left as it was.  0 where nothing is weighed. */
int joint_thread_count(joint *s, const joint *w, double out[3])
{
    out[0] = out[1] = out[2] = 0;
    struct joint_thr *t = s->thr;
    const struct joint_thr *tw = w->thr;
    if (!t || !tw || !tw->son || !tw->soft_any || t->nn != tw->nn || !t->m)
        return PB_OK;
    const size_t nn = (size_t)t->nn + 1;
    size_t *n0 = malloc(nn * sizeof *n0), *k0 = malloc(nn * sizeof *k0);
    double *e0 = malloc(nn * sizeof *e0), *m0 = malloc(nn * sizeof *m0);
    double *z0 = malloc(nn * sizeof *z0), *y0 = malloc(nn * sizeof *y0); /* thread_soft_z's records, kept as m is */
    double *x0 = malloc(nn * sizeof *x0); /* thread_bound_starts' (joint_busythr.c) */
    unsigned char *b0 = malloc(nn);
    int rc = PB_ENOMEM;
    if (n0 && k0 && e0 && m0 && z0 && y0 && x0 && b0) {
        memcpy(n0, t->n, nn * sizeof *n0);
        memcpy(k0, t->miss, nn * sizeof *k0);
        memcpy(e0, t->expect, nn * sizeof *e0);
        memcpy(m0, t->m, nn * sizeof *m0);
        memcpy(z0, t->zb, nn * sizeof *z0);
        memcpy(y0, t->zs, nn * sizeof *y0);
        if (t->zt)
            memcpy(x0, t->zt, nn * sizeof *x0);
        memcpy(b0, t->bound, nn);
        const int any = t->any, done = t->done;
        memset(t->bound, 0, nn);
        for (uint32_t a = 0; a < t->nn; a++)
            t->n[a] = t->miss[a] = 0, t->expect[a] = 0;
        rc = thread_test(s, t);
        for (uint32_t a = 0; rc == PB_OK && a < t->nn; a++)
            if (tw->son[a]) {
                out[0] += (double)t->n[a];
                out[1] += (double)t->miss[a];
                out[2] += t->expect[a];
            }
        memcpy(t->n, n0, nn * sizeof *n0);
        memcpy(t->miss, k0, nn * sizeof *k0);
        memcpy(t->expect, e0, nn * sizeof *e0);
        memcpy(t->m, m0, nn * sizeof *m0);
        memcpy(t->zb, z0, nn * sizeof *z0);
        memcpy(t->zs, y0, nn * sizeof *y0);
        if (t->zt)
            memcpy(t->zt, x0, nn * sizeof *x0);
        memcpy(t->bound, b0, nn);
        t->any = any;
        t->done = done;
    }
    free(n0);
    free(k0);
    free(e0);
    free(m0);
    free(z0);
    free(y0);
    free(x0);
    free(b0);
    return rc;
}

/* thread_soft_pick=6: the record joint_thread_meta prints */
void joint_thread_rt(joint *s, const double rt[5])
{
    if (s->thr)
        memcpy(s->thr->rt, rt, sizeof s->thr->rt);
}

/* thread_soft_starts_end (joint_thrsend.c): out[0] 1 where the term weighs
 * service a, out[1] its rate (the least over the passes; 2 none), out[2]
 * its starts' most sds (-inf none); 0 where nothing is measured */
int joint_thread_svc(const joint *s, uint32_t a, double out[3])
{
    const struct joint_thr *t = s->thr;
    out[0] = 0, out[1] = 2, out[2] = -INFINITY;
    if (!t || !t->m || a >= t->nn)
        return 0;
    out[0] = t->son[a];
    out[1] = t->m[a];
    out[2] = t->zs[a];
    return 1;
}

/* thread_soft_pick=6's record (joint_thread_rt's) */
void joint_thread_rt_get(const joint *s, double rt[5])
{
    for (int i = 0; i < 5; i++)
        rt[i] = s->thr ? s->thr->rt[i] : 0;
}
