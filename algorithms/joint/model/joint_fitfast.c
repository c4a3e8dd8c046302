/*
 * joint_fitfast.c - joint: the fixed costs of a refit (issue 28, goal
 * "fast everywhere"; docs/joint/speed_middle.md, "Speed, ninth wave: fixed costs").
 * Speed only, the same results: every number joint_fit makes with
 * `fit_fast=1` is bit for bit the one it makes with `fit_fast=0`.
 *
 * A refit recomputes the density of every key whose raw histogram changed
 * (joint_model.c): the histogram smoothed over all nb = 550 bins, clipped,
 * summed, and each bin's log density and its share of the expected log
 * density taken in bin order.  On a deep trace of few requests (a
 * TrainTicket minute: 63 requests, 143 keys, 65 refits) most of a key's
 * 550 bins are out of reach of its few delays, and those bins only ever
 * hold the background: lz = log(pz / bin), pz = floor / nb.  Here a key's
 * density is computed over the bins its smoothed histogram reaches (the
 * filled range widened by the kernel's half window,
 * joint_smooth_gaussian_range); outside them
 *
 *   - the smoothed histogram is +0, so the clip leaves it +0 and the sum
 *     of the bins is the same (s + (+0) = s; the sum starts at +0);
 *   - the log density is lz: a key's row is written only where it may
 *     differ from lz (the bins the row's last density reached, kept per
 *     key in flo/fhi; a row never written here counts as reaching every
 *     bin);
 *   - the expected log density adds pz * lz once per bin, in bin order:
 *     before the first reached bin that prefix is z[first], tabulated once
 *     by the same additions from 0; after the last reached bin the
 *     additions are made one by one as before (a sum of equal terms is
 *     not their count times the term in floating point).
 */
#include "joint_int.h"
#include "joint_smooth.h"
#include "pb_hash.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct joint_ff {
    uint32_t cap;      /* keys flo/fhi hold */
    uint32_t known;    /* keys whose row's reach is recorded (the others: every bin) */
    uint32_t *flo, *fhi; /* per key: its logf row differs from lz only in [flo, fhi]
                            (flo > fhi: nowhere) */
    double pz, lz;     /* an empty bin's probability and log density */
    double *z;         /* z[j]: pz * lz added j times from 0, in order (nb + 1) */
    joint_smooth *sm;  /* the smoothing's workspace, kept from refit to refit (its
                          kernels with it) */
    /* the refit's walks replayed (below) */
    uint32_t epoch;    /* records of another epoch are stale */
    struct ffrec *rec; /* per request (npairs), or NULL */
    struct ffent *log; /* the walk being recorded: its contributions */
    uint32_t nlog, logcap;
    unsigned char *pf; /* pflag as the walks of the last refit saw it */
    uint32_t npf, pfcap;
    size_t bytes;      /* held by the records */
    size_t replayed, walked; /* effort counters */
    size_t skipped;    /* refits whose walks were all the last ones (counter) */
    uint32_t unrec;    /* requests of this refit left without a record */
    uint32_t clean_epoch, clean_nkeys; /* the last full refit recorded every request:
                                          its epoch and keys (clean_epoch 0: not) */
    int order_fresh;   /* that refit fitted the order rates (order_active) */
};

/* one contribution of a walk to the fit: kind 0 an output's delay (key a,
 * bin b, log10 delay x), 1 a parallel-call count (entry a, overlap b), 2
 * a call-count cell a */
typedef struct ffent {
    uint32_t kind_a; /* kind << 30 | a */
    uint32_t b;
    double x;
} ffent;

/* the record's pairs and ffents follow one another from an aligned block */
_Static_assert(sizeof(jpair) % _Alignof(ffent) == 0 && sizeof(ffent) % _Alignof(ffent) == 0 &&
                   _Alignof(jpair) <= _Alignof(ffent) && sizeof(jpair) % _Alignof(jpair) == 0,
               "joint_fitfast: record layout needs aligned entries");

/* a request's recorded walk: what it read (its pair and its calls' pairs,
 * byte for byte, and whether its end was open) and what it added */
typedef struct ffrec {
    uint32_t epoch, n, nent, cap; /* cap: bytes of buf */
    unsigned char *buf; /* jpair q, n jpairs, nent ffents, n call ids; NULL: none */
    unsigned char open_end;
} ffrec;

void joint_ff_free(joint *s)
{
    if (!s->ff)
        return;
    if (s->ff->rec)
        for (uint32_t q = 0; q < s->npairs; q++)
            free(s->ff->rec[q].buf);
    free(s->ff->rec);
    free(s->ff->log);
    free(s->ff->pf);
    joint_smooth_close(s->ff->sm);
    free(s->ff->flo);
    free(s->ff->fhi);
    free(s->ff->z);
    free(s->ff);
    s->ff = NULL;
}

int joint_ff_begin(joint *s)
{
    const uint32_t nb = s->nb;
    if (!s->ff) {
        joint_ff *f = calloc(1, sizeof *f);
        if (!f)
            return PB_ENOMEM;
        s->ff = f;
        f->z = malloc(((size_t)nb + 1) * sizeof *f->z);
        if (!f->z || joint_smooth_init(nb, 2 * (size_t)nb - 1, &f->sm) != PB_OK)
            return PB_ENOMEM;
        const double beta = s->p.floor;
        /* the same expressions as joint_fit's */
        const double pz = (1 - beta) * 0.0 + beta / nb, lz = log(pz / s->p.bin);
        f->pz = pz;
        f->lz = lz;
        f->epoch = 1;
        double em = 0;
        f->z[0] = em;
        for (uint32_t b = 0; b < nb; b++) {
            em += pz * lz;
            f->z[b + 1] = em;
        }
    }
    joint_ff *f = s->ff;
    if (s->nkeys > f->cap) {
        uint32_t nc = f->cap ? f->cap : 64;
        while (nc < s->nkeys)
            nc *= 2;
        uint32_t *a = realloc(f->flo, (size_t)nc * sizeof *a);
        if (!a)
            return PB_ENOMEM;
        f->flo = a;
        a = realloc(f->fhi, (size_t)nc * sizeof *a);
        if (!a)
            return PB_ENOMEM;
        f->fhi = a;
        f->cap = nc;
    }
    /* joint_select's model reset (no key kept) leaves the rows where they
     * were: with fit_fast the per-key arrays keep their room (keycap,
     * joint_model.c) and only grow, so every row keeps its values and its
     * reach (without keycap they were re-allocated from one row up and
     * only the first rows kept) */
    /* keys never fitted here: their rows may differ from lz anywhere */
    for (uint32_t k = f->known; k < s->nkeys; k++) {
        f->flo[k] = 0;
        f->fhi[k] = nb - 1;
    }
    if (s->nkeys > f->known)
        f->known = s->nkeys;
    return PB_OK;
}

/* row k now reaches [a, b] (a > b: no bin): lz elsewhere (joint_mrow.c
 * stores the row so, from the scratch row the density was written to) */
static int ff_reach(joint *s, uint32_t k, uint32_t a, uint32_t b)
{
    joint_ff *f = s->ff;
    f->flo[k] = a;
    f->fhi[k] = b;
    return joint_lf_put(s, k, a, b, f->lz);
}

static int ff_body(joint *s, uint32_t k, const double *h, double *lf, uint32_t lo, uint32_t hi,
                   size_t w, double beta, double n, joint_smooth *sm, double *y);

int joint_ff_density(joint *s, uint32_t k, joint_smooth *sm_fit, double *y)
{
    joint_ff *f = s->ff;
    joint_smooth *sm = f->sm; /* the refit's own (sm_fit) would forget its kernels */
    (void)sm_fit;
    const uint32_t nb = s->nb;
    /* the key's rows dense (joint_mrow.c): hist's a copy (zero outside
     * its filled bins), logf's a scratch holding lz */
    const uint32_t lo = s->hlo[k], hi = s->hhi[k];
    const size_t w = lo <= hi ? (size_t)(hi - lo + 1) : 0;
    const double beta = s->p.floor;
    double n = s->kstat[3 * k];
    if (n <= 0) {
        s->kmean[k] = s->bg - log(1e6);
        f->flo[k] = 0;
        f->fhi[k] = nb - 1;
        return joint_lf_put(s, k, 1, 0, s->bg); /* bg at every bin */
    }
    const double *h = joint_mrow_hdense(s, k);
    double *lf = joint_mrow_lfbuf(s, f->lz);
    int rc = ff_body(s, k, h, lf, lo, hi, w, beta, n, sm, y);
    joint_mrow_hdense_done(s, k);
    return rc;
}

/* joint_ff_density's key of delays: h its dense counts, lf the scratch */
static int ff_body(joint *s, uint32_t k, const double *h, double *lf, uint32_t lo, uint32_t hi,
                   size_t w, double beta, double n, joint_smooth *sm, double *y)
{
    joint_ff *f = s->ff;
    const uint32_t nb = s->nb;
    double mean = s->kstat[3 * k + 1] / n;
    double bwb = joint_key_bandwidth(s, k, n);
    const double *hv = h;
    double tot = 0;
    for (uint32_t b = lo; b <= hi && w; b++)
        tot += h[b];
    /* hv is +0 outside [s0, s1] (s0 > s1: everywhere) */
    size_t s0 = w ? lo : 1, s1 = w ? hi : 0;
    if (bwb > 0.05) {
        size_t K = 2 * (size_t)ceil(3 * bwb) + 1;
        if (K > 2 * (size_t)nb - 1)
            K = 2 * (size_t)nb - 1;
        if (w) {
            int rc = joint_smooth_gaussian_range(sm, (double)(K - 1) / (2 * bwb), K, h, lo, hi,
                                                 y, nb, &s0, &s1);
            if (rc != PB_OK)
                return rc;
        }
        double t2 = 0;
        for (size_t b = s0; b <= s1 && s0 <= s1; b++) {
            double v = y[b];
            y[b] = v > 0 ? v : 0;
            t2 += y[b];
        }
        tot = t2;
        hv = y;
    }
    const double pz = f->pz, lz = f->lz;
    /* the whole-tick rules' bins (joint_tick0.c) are written too: the
     * range covers them, +0 where it grew (joint_fit's hv is +0 there) */
    size_t r0, r1;
    joint_tick0_reach(s, &r0, &r1);
    if (r0 <= r1) {
        size_t n0 = s0 <= s1 && s0 < r0 ? s0 : r0, n1 = s0 <= s1 && s1 > r1 ? s1 : r1;
        if (hv == y)
            for (size_t b = n0; b <= n1; b++)
                if (s0 > s1 || b < s0 || b > s1)
                    y[b] = 0.0;
        s0 = n0;
        s1 = n1;
    }
    if (s0 > s1) {
        s->kmean[k] = f->z[nb] - mean * M_LN10;
        return ff_reach(s, k, 1, 0);
    }
    double em = joint_density_bins(s, hv, tot, beta, nb, pz, lz, s0, s1, lf, f->z[s0]);
    for (size_t b = s1 + 1; b < nb; b++)
        em += pz * lz;
    joint_tick0_fix(s, k, hv, tot, lf, &em, s0, s1); /* whole ticks (joint_tick0.c) */
    s->kmean[k] = em - mean * M_LN10;
    return ff_reach(s, k, (uint32_t)s0, (uint32_t)s1);
}

/* ------------------------------------------------------------------ */
/* joint_select's held-out fits shared by the two searches (select_share)
 *
 * Without call ids joint_init runs two searches (free and held,
 * pair_order=auto), each from the trace: the same pairs, candidates,
 * late-call test and first assignment, so joint_select's four held-out
 * fits see the same input twice and choose the same signals.  The first
 * search leaves its choice here with a fingerprint of everything
 * joint_select reads (every pair's stamps, messages, nodes and link, the
 * pairs made by time, each request's calls, the candidates and the
 * late-call gaps); the second takes it when its fingerprint is the same
 * (two independent 64-bit hashes) and does not fit again.  The state the
 * search then starts from is the one the fits leave behind (joint_select
 * resets the model after them). */
struct joint_selshare {
    int set;                  /* a choice is held */
    uint64_t fp[2];           /* its fingerprint */
    uint32_t nn, fits;        /* services; joint_fit calls it made */
    struct joint_sel *sel;    /* the chosen table, held (joint_sel_hold: one table,
                                 not a copy; entries of sel_size bytes) */
    size_t sel_size;
    unsigned char *cnt_flat, *corr_svc, *dens, *cnts; /* nn + 1 each */
    size_t hits;              /* times it was taken */
    uint32_t keyroom;         /* key_room: the first search's per-key room (joint_keyroom.c) */
    joint_pshare *pairs;      /* pairs_share: the first search's pairing (joint_pshare.c) */
    joint *park;              /* pairs_share: its caches (joint_bufshare.c), or NULL */
};

joint **joint_selshare_park(joint_selshare *c)
{
    return c ? &c->park : NULL;
}

joint_pshare **joint_selshare_pairs(joint_selshare *c)
{
    return c ? &c->pairs : NULL;
}

uint32_t joint_selshare_keyroom(const joint_selshare *c)
{
    return c ? c->keyroom : 0;
}

void joint_selshare_set_keyroom(joint_selshare *c, uint32_t room)
{
    if (c)
        c->keyroom = room;
}

joint_selshare *joint_selshare_new(void)
{
    return calloc(1, sizeof(joint_selshare));
}

void joint_selshare_free(joint_selshare *c)
{
    if (!c)
        return;
    joint_pshare_free(c->pairs);
    joint_bufshare_release(c->park);
    joint_sel_release(c->sel);
    free(c->cnt_flat);
    free(c->corr_svc);
    free(c->dens);
    free(c->cnts);
    free(c);
}

static inline void fp_add(uint64_t h[2], uint64_t x)
{
    h[0] = pb_mix64(h[0] ^ x) + 0x9e3779b97f4a7c15ULL;
    h[1] = pb_mix64(h[1] + x * 0xff51afd7ed558ccdULL) ^ 0xc4ceb9fe1a85ec53ULL;
}

/* the fingerprint of joint_select's input */
static void sel_fingerprint(const joint *s, uint64_t h[2])
{
    h[0] = 0x243f6a8885a308d3ULL;
    h[1] = 0x13198a2e03707344ULL;
    fp_add(h, s->npairs);
    fp_add(h, s->nnodes);
    fp_add(h, s->nlinks);
    fp_add(h, (uint64_t)s->tick);
    for (uint32_t q = 0; q < s->npairs; q++) {
        const jpair *x = &s->pr[q];
        fp_add(h, (uint64_t)x->cs);
        fp_add(h, (uint64_t)x->cr);
        fp_add(h, (uint64_t)x->rs);
        fp_add(h, (uint64_t)x->rr);
        fp_add(h, ((uint64_t)x->call << 32) | x->ret);
        fp_add(h, ((uint64_t)x->caller << 32) | x->callee);
        fp_add(h, ((uint64_t)x->link << 8) | (s->free_ret ? s->free_ret[q] : 2));
        const kvec *k = &s->kids[q];
        fp_add(h, k->n);
        for (uint32_t i = 0; i < k->n; i++)
            fp_add(h, k->a[i]);
        fp_add(h, s->cand_off[q + 1] - s->cand_off[q]);
        for (uint32_t j = s->cand_off[q]; j < s->cand_off[q + 1]; j++)
            fp_add(h, s->cand[j]);
    }
    fp_add(h, s->late_gap != NULL);
    for (uint32_t b = 0; s->late_gap && b < s->nnodes; b++)
        fp_add(h, (uint64_t)s->late_gap[b]);
    for (uint32_t b = 0; s->late_sgap && b < s->nnodes; b++)
        fp_add(h, (uint64_t)s->late_sgap[b]);
    fp_add(h, s->allowed != NULL);
    fp_add(h, s->qend != NULL);
}

int joint_selshare_take(joint *s, size_t sel_size, uint64_t h[2], unsigned char **dens,
                        unsigned char **cnts, uint32_t *fits)
{
    joint_selshare *c = s->selshare;
    *dens = *cnts = NULL;
    h[0] = h[1] = 0;
    if (!c || !s->p.select_share)
        return 0;
    sel_fingerprint(s, h);
    if (!c->set || c->nn != s->nnodes || c->sel_size != sel_size)
        return 0;
    if (h[0] != c->fp[0] || h[1] != c->fp[1])
        return 0;
    size_t nn = (size_t)s->nnodes + 1;
    unsigned char *cf = malloc(nn), *cs = malloc(nn), *d = malloc(nn), *p = malloc(nn);
    if (!cf || !cs || !d || !p) {
        free(cf);
        free(cs);
        free(d);
        free(p);
        return -1;
    }
    memcpy(cf, c->cnt_flat, nn);
    memcpy(cs, c->corr_svc, nn);
    memcpy(d, c->dens, nn);
    memcpy(p, c->cnts, nn);
    s->sel = joint_sel_hold(c->sel); /* read-only once made: shared */
    s->cnt_flat = cf;
    s->corr_svc = cs;
    *dens = d;
    *cnts = p;
    *fits = c->fits;
    c->hits++;
    return 1;
}

int joint_selshare_put(joint *s, size_t sel_size, const uint64_t h[2],
                       const unsigned char *dens, const unsigned char *cnts, uint32_t fits)
{
    joint_selshare *c = s->selshare;
    if (!c || c->set || !s->p.select_share)
        return PB_OK;
    size_t nn = (size_t)s->nnodes + 1;
    c->cnt_flat = malloc(nn);
    c->corr_svc = malloc(nn);
    c->dens = malloc(nn);
    c->cnts = malloc(nn);
    if (!s->sel || !c->cnt_flat || !c->corr_svc || !c->dens || !c->cnts)
        return PB_OK; /* nothing held: the second search fits again */
    c->sel = joint_sel_hold(s->sel); /* read-only from here on: shared */
    memcpy(c->cnt_flat, s->cnt_flat, nn);
    memcpy(c->corr_svc, s->corr_svc, nn);
    memcpy(c->dens, dens, nn);
    memcpy(c->cnts, cnts, nn);
    c->nn = s->nnodes;
    c->sel_size = sel_size;
    c->fits = fits;
    c->fp[0] = h[0];
    c->fp[1] = h[1];
    c->set = 1;
    return PB_OK;
}

/* ------------------------------------------------------------------ */
/* the refit's walks replayed (fit_fast)
 *
 * A refit walks every request (joint_req_walk, mode 1) to add each
 * output's delay to its key's histogram and sums, the parallel-call
 * counts and the call counts; between two refits of a search most
 * requests keep their calls.  A request's walk reads its pair and its
 * calls' pairs (stamps, messages, link), whether its end is open, the
 * learned parallel calls (pflag), the density keys of its link and the
 * count cells of its link (both change only when joint_select pools
 * services or resets the model); it is recorded (what it read, byte for
 * byte, and what it added, in order), and a later refit whose request
 * reads the same adds the recorded contributions in the same order
 * instead of walking: the same additions, so the same sums.  Every record
 * becomes stale (a new epoch) when a learned parallel call changed, when
 * a fit is made from part of the requests (joint_select's folds,
 * conf_heldout) and after the model was reset.  The durations term
 * (joint_corr_add) is always computed afresh.  Records are kept up to
 * JOINT_FF_BYTES in all, their index included, and only on traces whose
 * index takes at most a quarter of that (196,000 requests): a fixed cost
 * per refit is what matters on a small trace, while a large one (the 2 M
 * message multi-tier row: a million requests) would pay the memory for
 * little (requests beyond the budget are walked as before). */
#define JOINT_FF_BYTES ((size_t)24 << 20)

int joint_ff_test_stale = 0;

int joint_ff_fit_start(joint *s, const unsigned char *only)
{
    int rc = joint_ff_begin(s);
    if (rc != PB_OK)
        return rc;
    joint_ff *f = s->ff;
    if (only || s->hraw_valid == 0 || s->nkeys == 0) {
        f->epoch++;
        f->npf = 0;
    }
    if (!f->rec && !only && ((size_t)s->npairs + 1) * sizeof *f->rec <= JOINT_FF_BYTES / 4) {
        f->rec = calloc((size_t)s->npairs + 1, sizeof *f->rec);
        if (!f->rec)
            return PB_ENOMEM;
        f->bytes = ((size_t)s->npairs + 1) * sizeof *f->rec;
    }
    return PB_OK;
}

void joint_ff_pflag_seen(joint *s, int full)
{
    joint_ff *f = s->ff;
    if (!f)
        return;
    f->clean_epoch = 0;
    int changed = 0;
    for (uint32_t h = 0; h < s->npar && !changed; h++)
        changed = s->pflag[h] != (h < f->npf ? f->pf[h] : 0);
    if (changed)
        f->epoch++;
    if (s->npar > f->pfcap) {
        unsigned char *a = realloc(f->pf, s->npar);
        if (!a) {
            f->epoch++; /* nothing remembered: nothing kept */
            f->npf = 0;
            return;
        }
        f->pf = a;
        f->pfcap = s->npar;
    }
    if (s->npar)
        memcpy(f->pf, s->pflag, s->npar);
    f->npf = s->npar;
    /* a full refit that recorded every request, its flags unchanged */
    if (full && f->rec && !f->unrec && !changed) {
        f->clean_epoch = f->epoch;
        f->clean_nkeys = s->nkeys;
    }
}

void joint_ff_log(joint *s, uint32_t kind, uint32_t a, uint32_t b, double x)
{
    joint_ff *f = s->ff;
    if (a > 0x3fffffffu) {
        f->nlog = UINT32_MAX; /* beyond the record's index: not kept */
        s->fflog = 0;
        return;
    }
    if (f->nlog == f->logcap) {
        uint32_t nc = f->logcap ? 2 * f->logcap : 64;
        ffent *e = realloc(f->log, (size_t)nc * sizeof *e);
        if (!e) {
            f->nlog = UINT32_MAX; /* this record is not kept */
            s->fflog = 0;
            return;
        }
        f->log = e;
        f->logcap = nc;
    }
    f->log[f->nlog++] = (ffent){kind << 30 | a, b, x};
}

/* does request q read what its record says it read (and is the record of
 * this epoch)?  Its ffents then follow the record's jpairs */
static int rec_valid(const joint *s, const ffrec *r, uint32_t q)
{
    const joint_ff *f = s->ff;
    const kvec *kv = &s->kids[q];
    const uint32_t n = kv->n, *k = kv->a;
    const jpair *qq = &s->pr[q];
    if (!r || !r->buf || r->epoch != f->epoch || r->n != n)
        return 0;
    const unsigned open_end = (s->qend && joint_ret_movable(s, q)) || qq->ret == JOINT_NONE;
    if (r->open_end != open_end)
        return 0;
    if (joint_ff_test_stale)
        return 1; /* test hook: what it read not compared */
    if (memcmp(r->buf, qq, sizeof *qq))
        return 0;
    /* the calls' ids after the (8-aligned) pairs and ffents */
    const unsigned char *ids = r->buf + sizeof *qq + (size_t)n * sizeof(jpair) +
                               (size_t)r->nent * sizeof(ffent);
    if (n && memcmp(ids, k, (size_t)n * sizeof *k))
        return 0;
    const unsigned char *kp = r->buf + sizeof *qq;
    for (uint32_t i = 0; i < n; i++)
        if (memcmp(kp + (size_t)i * sizeof(jpair), &s->pr[k[i]], sizeof(jpair)))
            return 0;
    return 1;
}

int joint_ff_unchanged(joint *s)
{
    joint_ff *f = s->ff;
    if (!f || !f->rec || !f->clean_epoch || f->clean_epoch != f->epoch || !s->nkeys ||
        s->nkeys != f->clean_nkeys || joint_ff_test_stale)
        return 0;
    for (uint32_t q = 0; q < s->npairs; q++)
        if (!rec_valid(s, &f->rec[q], q))
            return 0;
    f->skipped++;
    f->replayed += s->npairs;
    return 1;
}

void joint_ff_order_done(joint *s, int full)
{
    joint_ff *f = s->ff;
    if (f)
        f->order_fresh = full && f->clean_epoch && f->clean_epoch == f->epoch &&
                         s->order_active;
}

int joint_ff_order_same(const joint *s)
{
    /* joint_ff_unchanged held: the assignment is the one of the last full
     * refit; the order rates read nothing else but the order test's
     * per-service rates (fixed before any fit) and are written only by
     * joint_fit_order (and zeroed by the model reset, which unchanged
     * rules out) */
    return s->ff && s->ff->order_fresh && s->order_active;
}

int joint_ff_corr_again(joint *s)
{
    joint_corr_reset(s);
    for (uint32_t q = 0; q < s->npairs; q++) {
        const jpair *qq = &s->pr[q];
        if (s->corr_on && (!s->corr_svc || s->corr_svc[qq->callee]) &&
            joint_corr_add(s, q, qq->link, s->kids[q].a, s->kids[q].n) != PB_OK)
            return PB_ENOMEM;
    }
    return PB_OK;
}

int joint_ff_walk(joint *s, uint32_t q)
{
    joint_ff *f = s->ff;
    const kvec *kv = &s->kids[q];
    const uint32_t n = kv->n, *k = kv->a;
    const jpair *qq = &s->pr[q];
    const unsigned open_end = (s->qend && joint_ret_movable(s, q)) || qq->ret == JOINT_NONE;
    ffrec *r = f->rec ? &f->rec[q] : NULL;
    if (q == 0)
        f->unrec = 0;
    if (rec_valid(s, r, q)) {
        {
            /* jpair q, n jpairs (56 bytes each: 8-aligned), then the ffents */
            const ffent *e = (const ffent *)(const void *)(r->buf + sizeof *qq +
                                                           (size_t)n * sizeof(jpair));
            for (uint32_t i = 0; i < r->nent; i++) {
                const uint32_t kind = e[i].kind_a >> 30, a = e[i].kind_a & 0x3fffffffu;
                if (kind == 0 || kind == 3) {
                    /* kind 3: a delay of b whole ticks spread over its
                     * interval (joint_tickivl.c) */
                    const uint32_t bn = kind == 3 ? s->tibin[e[i].b] : e[i].b;
                    const double x = e[i].x;
                    if (kind == 3) {
                        joint_tickivl_add(s, a, e[i].b);
                    } else {
                        *joint_hist_cell(s, a, bn) += 1.0;
                        if (bn < s->hlo[a])
                            s->hlo[a] = bn;
                        if (bn > s->hhi[a])
                            s->hhi[a] = bn;
                    }
                    if (joint_mrow_failed(s))
                        return PB_ENOMEM; /* a row's growth (joint_mrow.c) */
                    s->kstat[3 * a] += 1;
                    s->kstat[3 * a + 1] += x;
                    s->kstat[3 * a + 2] += x * x;
                    if (s->t0obs && joint_tick0_count(s, q, a, bn) != PB_OK)
                        return PB_ENOMEM; /* as the walk counts them (joint_tick0.c) */
                } else if (kind == 1) {
                    /* overlaps, separate pairs (par_pairs, par_sweep) */
                    s->pov[a] += e[i].b;
                    s->pse[a] += e[i].x;
                } else if (s->os_ein && a >= s->os_fbase) {
                    joint_os_replay(s, a); /* joint_oset.c */
                } else if (s->lc_on && a >= s->lc_base) {
                    joint_lc_replay(s, a); /* joint_latecount.c */
                } else {
                    s->cnt[a] += 1.0;
                }
            }
            const uint32_t b = qq->callee;
            if (s->corr_on && (!s->corr_svc || s->corr_svc[b]) &&
                joint_corr_add(s, q, qq->link, k, n) != PB_OK)
                return PB_ENOMEM;
            f->replayed++;
            return PB_OK;
        }
    }
    /* walk it, recording what it adds */
    f->nlog = 0;
    s->fflog = r != NULL && f->bytes < JOINT_FF_BYTES;
    int rc = joint_req_walk(s, q, k, n, 1, NULL);
    int keep = s->fflog && f->nlog != UINT32_MAX;
    s->fflog = 0;
    f->walked++;
    if (rc != PB_OK || !r)
        return rc;
    r->epoch = 0;
    f->unrec++; /* until kept below */
    if (!keep)
        return PB_OK;
    size_t need = sizeof *qq + (size_t)n * (sizeof *k + sizeof(jpair)) +
                  (size_t)f->nlog * sizeof(ffent);
    if (need > r->cap) {
        if (need > UINT32_MAX)
            return PB_OK; /* not kept */
        unsigned char *nbuf = realloc(r->buf, need);
        if (!nbuf)
            return PB_OK; /* not kept */
        f->bytes += need - r->cap;
        r->buf = nbuf;
        r->cap = (uint32_t)need;
    }
    /* jpair q, n jpairs, nent ffents (all 8-aligned: malloc's block, 56-
     * and 16-byte entries), the n call ids last */
    unsigned char *p = r->buf;
    memcpy(p, qq, sizeof *qq);
    p += sizeof *qq;
    for (uint32_t i = 0; i < n; i++, p += sizeof(jpair))
        memcpy(p, &s->pr[k[i]], sizeof(jpair));
    if (f->nlog)
        memcpy(p, f->log, (size_t)f->nlog * sizeof(ffent));
    p += (size_t)f->nlog * sizeof(ffent);
    if (n)
        memcpy(p, k, (size_t)n * sizeof *k);
    r->n = n;
    r->nent = f->nlog;
    r->open_end = (unsigned char)open_end;
    r->epoch = f->epoch;
    f->unrec--;
    return PB_OK;
}

void joint_ff_counts(const joint *s, size_t *replayed, size_t *walked, size_t *skipped)
{
    *replayed = s->ff ? s->ff->replayed : 0;
    *walked = s->ff ? s->ff->walked : 0;
    *skipped = s->ff ? s->ff->skipped : 0;
}
