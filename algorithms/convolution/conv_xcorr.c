#include "conv_xcorr.h"
#include "pb_mem.h"

#include <fftw3.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A block is summed directly when its pairs of nonzero quanta cost less
 * than this many times M log2 M, the rough price of its two transforms
 * (measured with tests/bench/bench_convolution.sh: a multiply-add on a
 * sparse pair is about as dear as one butterfly unit). */
#define CONV_DIRECT_FACTOR 1.0

/* Correlation values are rounded to multiples of 2^-20: FFT rounding
 * (about 1e-12 here) then almost never moves a value across a spike
 * threshold, so the blocked, exact and direct paths make the same calls. */
#define CONV_GRID 1048576.0

struct conv_xcorr {
    conv_xcorr_cfg cfg;
    size_t W;
    int64_t M;        /* FFT size */
    int64_t B;        /* blocked: quanta of a per block */
    size_t nc;        /* complex outputs, M/2 + 1 */
    double *ra, *rb;  /* real inputs, kept all zero between uses */
    fftw_complex *fa, *fb, *acc;  /* acc aliases fa in exact mode */
    double *cdir;     /* blocked: directly summed lags */
    fftw_plan pa, pb, pinv;
    /* exact mode: spectra of recent second signals with copies of those
     * signals.  The search correlates many signals with the outputs of a
     * few nodes, so most second transforms are found here.  At most
     * CONV_KEEP_BYTES of spectra; the least recently used goes first. */
    struct conv_kept {
        conv_signal sig;
        fftw_complex *spec;
        uint64_t used;
    } *kept;
    size_t nkept, maxkept;
    uint64_t clock;
    conv_xcorr_stats stats;
};

/* memory for kept spectra in exact mode (16 bytes per quantum each) */
#define CONV_KEEP_BYTES ((size_t)256 << 20)

void conv_signal_reset(conv_signal *s) { s->n = 0; }

void conv_signal_free(conv_signal *s)
{
    if (!s)
        return;
    free(s->bin);
    free(s->val);
    s->bin = NULL;
    s->val = NULL;
    s->n = s->cap = 0;
}

static int signal_reserve(conv_signal *s, size_t need)
{
    void *const arrs[] = {&s->bin, &s->val};
    const size_t sz[] = {sizeof *s->bin, sizeof *s->val};
    return pb_grow_parallel(&s->cap, need, 64, 2, arrs, sz);
    return PB_OK;
}

int conv_signal_push(conv_signal *s, int64_t bin, double val)
{
    if (bin < 0 || !(val > 0) || (s->n && bin <= s->bin[s->n - 1]))
        return PB_EINVAL;
    if (signal_reserve(s, s->n + 1) != PB_OK)
        return PB_ENOMEM;
    s->bin[s->n] = bin;
    s->val[s->n] = val;
    s->n++;
    return PB_OK;
}

int conv_signal_from_bins(conv_signal *s, const int64_t *bins, size_t n)
{
    s->n = 0;
    /* the distinct quanta are at most n: reserve once */
    if (signal_reserve(s, n ? n : 1) != PB_OK)
        return PB_ENOMEM;
    size_t i = 0;
    while (i < n) {
        if (bins[i] < 0 || (i && bins[i] < bins[i - 1]))
            return PB_EINVAL;
        size_t j = i + 1;
        while (j < n && bins[j] == bins[i])
            j++;
        s->bin[s->n] = bins[i];
        s->val[s->n] = sqrt((double)(j - i));
        s->n++;
        i = j;
    }
    return PB_OK;
}

/* Smallest 2^a 3^b 5^c >= n: FFTW is fast on these, and they waste less
 * memory than powers of two alone. */
static int64_t good_size(int64_t n)
{
    int64_t best = INT64_MAX;
    for (int64_t p2 = 1; p2 < INT64_MAX / 2; p2 *= 2) {
        for (int64_t p3 = p2; ; p3 *= 3) {
            int64_t p5 = p3;
            while (p5 < n)
                p5 *= 5;
            if (p5 < best)
                best = p5;
            if (p3 >= n || p3 > INT64_MAX / 3)
                break;
        }
        if (p2 >= n)
            break;
    }
    return best;
}

void conv_xcorr_close(conv_xcorr *x)
{
    if (!x)
        return;
    if (x->pa)
        fftw_destroy_plan(x->pa);
    if (x->pb)
        fftw_destroy_plan(x->pb);
    if (x->pinv)
        fftw_destroy_plan(x->pinv);
    fftw_free(x->ra);
    fftw_free(x->rb);
    fftw_free(x->fa);
    fftw_free(x->fb);
    for (size_t i = 0; i < x->nkept; i++) {
        fftw_free(x->kept[i].spec);
        conv_signal_free(&x->kept[i].sig);
    }
    free(x->kept);
    if (x->acc != x->fa)
        fftw_free(x->acc);
    free(x->cdir);
    free(x);
}

int conv_xcorr_init(conv_xcorr **out, const conv_xcorr_cfg *cfg, pb_error *err)
{
    *out = NULL;
    if (cfg->lo > cfg->hi)
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "correlation window: lowest lag %lld above highest %lld",
                            (long long)cfg->lo, (long long)cfg->hi);
    if (cfg->nquanta < 1)
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "correlation: the signals need at least one quantum");
    if (cfg->hi - cfg->lo >= CONV_FFT_MAX / 2)
        return pb_error_set(err, PB_ERANGE, NULL, 0, 0,
                            "lag window of %lld quanta is too wide (at most %lld): "
                            "lower the lag bound or raise the quantum mu",
                            (long long)(cfg->hi - cfg->lo + 1),
                            (long long)(CONV_FFT_MAX / 2 - 1));
    conv_xcorr *x = calloc(1, sizeof *x);
    if (!x)
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    x->cfg = *cfg;
    x->W = (size_t)(cfg->hi - cfg->lo + 1);
    int64_t W = (int64_t)x->W;
    if (cfg->mode == CONV_EXACT) {
        if (cfg->nquanta > CONV_FFT_MAX / 2) {
            free(x);
            return pb_error_set(err, PB_ERANGE, NULL, 0, 0,
                                "exact mode needs an FFT of 2 x %lld quanta, more "
                                "than the limit of %lld: use mode=blocked or a larger mu",
                                (long long)cfg->nquanta, (long long)CONV_FFT_MAX);
        }
        x->M = good_size(2 * cfg->nquanta - 1 > 2 ? 2 * cfg->nquanta - 1 : 2);
    } else {
        if (cfg->fft_size) {
            if (cfg->fft_size < W + 1 || cfg->fft_size > CONV_FFT_MAX) {
                free(x);
                return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                                    "FFT size %lld must be between the lag window "
                                    "+ 1 (%lld) and %lld",
                                    (long long)cfg->fft_size, (long long)(W + 1),
                                    (long long)CONV_FFT_MAX);
            }
            x->M = cfg->fft_size;
        } else {
            int64_t m = 16;
            while (m < 2 * W)
                m *= 2;
            x->M = m;
        }
        x->B = x->M - W + 1;
    }
    x->nc = (size_t)(x->M / 2 + 1);
    x->ra = fftw_alloc_real((size_t)x->M);
    x->rb = fftw_alloc_real((size_t)x->M);
    x->fa = fftw_alloc_complex(x->nc);
    x->fb = fftw_alloc_complex(x->nc);
    x->acc = cfg->mode == CONV_EXACT ? x->fa : fftw_alloc_complex(x->nc);
    x->cdir = calloc(x->W, sizeof *x->cdir);
    if (cfg->mode == CONV_EXACT) {
        size_t per = x->nc * sizeof(fftw_complex);
        x->maxkept = CONV_KEEP_BYTES / per;
        if (x->maxkept > 64)
            x->maxkept = 64;
        if (x->maxkept)
            x->kept = calloc(x->maxkept, sizeof *x->kept);
    }
    if (!x->ra || !x->rb || !x->fa || !x->fb || !x->acc || !x->cdir ||
        (x->maxkept && !x->kept)) {
        conv_xcorr_close(x);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0,
                            "out of memory for an FFT of size %lld", (long long)x->M);
    }
    memset(x->ra, 0, (size_t)x->M * sizeof *x->ra);
    memset(x->rb, 0, (size_t)x->M * sizeof *x->rb);
    /* ESTIMATE: planning is instant and picks the same algorithm on every
     * run, so results do not depend on timing measurements. */
    x->pa = fftw_plan_dft_r2c_1d((int)x->M, x->ra, x->fa, FFTW_ESTIMATE);
    x->pb = fftw_plan_dft_r2c_1d((int)x->M, x->rb, x->fb, FFTW_ESTIMATE);
    x->pinv = fftw_plan_dft_c2r_1d((int)x->M, x->acc, x->ra, FFTW_ESTIMATE);
    if (!x->pa || !x->pb || !x->pinv) {
        conv_xcorr_close(x);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0,
                            "FFTW could not plan a transform of size %lld",
                            (long long)x->M);
    }
    *out = x;
    return PB_OK;
}

size_t conv_xcorr_width(const conv_xcorr *x) { return x->W; }

int64_t conv_xcorr_fft_size(const conv_xcorr *x) { return x->M; }

const conv_xcorr_stats *conv_xcorr_get_stats(const conv_xcorr *x)
{
    return &x->stats;
}

static int in_range(const conv_signal *s, int64_t S)
{
    return s->n == 0 || (s->bin[0] >= 0 && s->bin[s->n - 1] < S);
}

/* acc[k] += conj(fa[k]) * fb[k]: the spectrum of the correlation */
static void accumulate(fftw_complex *acc, const fftw_complex *fa,
                       const fftw_complex *fb, size_t nc)
{
    for (size_t k = 0; k < nc; k++) {
        double ar = fa[k][0], ai = fa[k][1], br = fb[k][0], bi = fb[k][1];
        acc[k][0] += ar * br + ai * bi;
        acc[k][1] += ar * bi - ai * br;
    }
}

static void finish(double *C, size_t W)
{
    for (size_t k = 0; k < W; k++) {
        double v = C[k] < 0.5 ? 0.0 : C[k];
        C[k] = nearbyint(v * CONV_GRID) / CONV_GRID;
    }
}

static int same_signal(const conv_signal *a, const conv_signal *b)
{
    return a->n == b->n &&
           (a->n == 0 || (memcmp(a->bin, b->bin, a->n * sizeof *a->bin) == 0 &&
                          memcmp(a->val, b->val, a->n * sizeof *a->val) == 0));
}

/* The spectrum of b: a kept one, or computed into fb and kept (evicting
 * the least recently used).  Keeping is best effort: out of memory, the
 * spectrum in fb serves and nothing is kept. */
static const fftw_complex *spectrum_of_b(conv_xcorr *x, const conv_signal *b)
{
    x->clock++;
    for (size_t i = 0; i < x->nkept; i++)
        if (same_signal(b, &x->kept[i].sig)) {
            x->kept[i].used = x->clock;
            x->stats.spectra_reused++;
            return (const fftw_complex *)x->kept[i].spec;
        }
    for (size_t j = 0; j < b->n; j++)
        x->rb[b->bin[j]] = b->val[j];
    fftw_execute(x->pb);
    for (size_t j = 0; j < b->n; j++)
        x->rb[b->bin[j]] = 0;
    if (!x->maxkept)
        return (const fftw_complex *)x->fb;
    struct conv_kept *e;
    if (x->nkept < x->maxkept) {
        e = &x->kept[x->nkept];
        e->spec = fftw_alloc_complex(x->nc);
        if (!e->spec)
            return (const fftw_complex *)x->fb;
        e->sig = (conv_signal){0};
        x->nkept++;
    } else {
        e = &x->kept[0];
        for (size_t i = 1; i < x->nkept; i++)
            if (x->kept[i].used < e->used)
                e = &x->kept[i];
    }
    e->sig.n = 0;
    e->used = 0; /* an entry left half filled is never matched: n is 0 */
    if (signal_reserve(&e->sig, b->n ? b->n : 1) != PB_OK)
        return (const fftw_complex *)x->fb;
    if (b->n) {
        memcpy(e->sig.bin, b->bin, b->n * sizeof *b->bin);
        memcpy(e->sig.val, b->val, b->n * sizeof *b->val);
    }
    memcpy(e->spec, x->fb, x->nc * sizeof *e->spec);
    e->sig.n = b->n;
    e->used = x->clock;
    return (const fftw_complex *)x->fb;
}

static void run_exact(conv_xcorr *x, const conv_signal *a, const conv_signal *b,
                      double *C)
{
    const fftw_complex *fb = spectrum_of_b(x, b);
    for (size_t i = 0; i < a->n; i++)
        x->ra[a->bin[i]] = a->val[i];
    fftw_execute(x->pa);
    for (size_t k = 0; k < x->nc; k++) {
        double ar = x->fa[k][0], ai = x->fa[k][1];
        double br = fb[k][0], bi = fb[k][1];
        x->fa[k][0] = ar * br + ai * bi;
        x->fa[k][1] = ar * bi - ai * br;
    }
    fftw_execute(x->pinv); /* fa -> ra, overwriting a */
    int64_t S = x->cfg.nquanta, M = x->M;
    for (size_t k = 0; k < x->W; k++) {
        int64_t d = x->cfg.lo + (int64_t)k;
        if (d <= -S || d >= S)
            C[k] = 0; /* no overlap at all */
        else
            C[k] = x->ra[d >= 0 ? d : M + d] / (double)M;
    }
    memset(x->ra, 0, (size_t)M * sizeof *x->ra);
}

static void run_blocked(conv_xcorr *x, const conv_signal *a,
                        const conv_signal *b, double *C)
{
    const int64_t lo = x->cfg.lo, hi = x->cfg.hi, M = x->M, Bq = x->B;
    const double fft_cost = CONV_DIRECT_FACTOR * (double)M * log2((double)M);
    int any_fft = 0;
    memset(x->acc, 0, x->nc * sizeof *x->acc);
    memset(x->cdir, 0, x->W * sizeof *x->cdir);
    size_t ia = 0, jb = 0;
    while (ia < a->n) {
        int64_t q = a->bin[ia] / Bq;
        int64_t qend = (q + 1) * Bq;
        size_t ia_end = ia;
        while (ia_end < a->n && a->bin[ia_end] < qend)
            ia_end++;
        /* b quanta any of this block's lags can reach */
        int64_t seg0 = q * Bq + lo, seg1 = seg0 + M;
        while (jb < b->n && b->bin[jb] < seg0)
            jb++;
        size_t jb_end = jb;
        while (jb_end < b->n && b->bin[jb_end] < seg1)
            jb_end++;
        size_t na = ia_end - ia, nb = jb_end - jb;
        if (nb == 0) {
            x->stats.skipped_blocks++;
        } else if (x->cfg.sparse && (double)na * (double)nb <= fft_cost) {
            x->stats.direct_blocks++;
            size_t j0 = jb;
            for (size_t i = ia; i < ia_end; i++) {
                int64_t t = a->bin[i];
                while (j0 < jb_end && b->bin[j0] < t + lo)
                    j0++;
                double va = a->val[i];
                for (size_t j = j0; j < jb_end && b->bin[j] <= t + hi; j++) {
                    x->cdir[b->bin[j] - t - lo] += va * b->val[j];
                    x->stats.direct_pairs++;
                }
            }
        } else {
            x->stats.fft_blocks++;
            for (size_t i = ia; i < ia_end; i++)
                x->ra[a->bin[i] - q * Bq] = a->val[i];
            for (size_t j = jb; j < jb_end; j++)
                x->rb[b->bin[j] - seg0] = b->val[j];
            fftw_execute(x->pa);
            fftw_execute(x->pb);
            accumulate(x->acc, x->fa, x->fb, x->nc);
            /* r2c keeps its input, so only the written quanta need clearing */
            for (size_t i = ia; i < ia_end; i++)
                x->ra[a->bin[i] - q * Bq] = 0;
            for (size_t j = jb; j < jb_end; j++)
                x->rb[b->bin[j] - seg0] = 0;
            any_fft = 1;
        }
        ia = ia_end;
    }
    if (any_fft) {
        fftw_execute(x->pinv); /* acc -> ra */
        for (size_t k = 0; k < x->W; k++)
            C[k] = x->ra[k] / (double)M + x->cdir[k];
        memset(x->ra, 0, (size_t)M * sizeof *x->ra);
    } else {
        memcpy(C, x->cdir, x->W * sizeof *C);
    }
}

int conv_xcorr_run(conv_xcorr *x, const conv_signal *a, const conv_signal *b,
                   double *C)
{
    if (!in_range(a, x->cfg.nquanta) || !in_range(b, x->cfg.nquanta))
        return PB_EINVAL;
    x->stats.calls++;
    if (x->cfg.mode == CONV_EXACT)
        run_exact(x, a, b, C);
    else
        run_blocked(x, a, b, C);
    finish(C, x->W);
    return PB_OK;
}

/* Regions and spikes for thresholds tn (spike) and ts (valley); marks the
 * lags of every spike's run in excl when excl is non-NULL. */
static size_t scan_spikes(const double *C, size_t W, int64_t lo, double tn,
                          double ts, conv_spike *out, size_t cap,
                          unsigned char *excl)
{
    size_t found = 0, k = 0;
    while (k < W) {
        if (C[k] < ts) {
            k++;
            continue;
        }
        size_t best = k, start = k;
        while (k < W && C[k] >= ts) {
            if (C[k] > C[best])
                best = k;
            k++;
        }
        if (C[best] >= tn) {
            if (found < cap) {
                out[found].lag = lo + (int64_t)best;
                out[found].value = C[best];
                out[found].first = lo + (int64_t)start;
                out[found].last = lo + (int64_t)k - 1;
            }
            found++;
            if (excl)
                memset(excl + start, 1, k - start);
        }
    }
    return found;
}

/* mean and population sd of C over the lags not excluded; 0 if too few */
static int moments(const double *C, size_t W, const unsigned char *excl,
                   double *mean, double *sd)
{
    double sum = 0;
    size_t n = 0;
    for (size_t k = 0; k < W; k++)
        if (!excl || !excl[k]) {
            sum += C[k];
            n++;
        }
    if (n < 2)
        return 0;
    double m = sum / (double)n, ss = 0;
    for (size_t k = 0; k < W; k++)
        if (!excl || !excl[k])
            ss += (C[k] - m) * (C[k] - m);
    *mean = m;
    *sd = sqrt(ss / (double)n);
    return 1;
}

size_t conv_find_spikes(const double *C, size_t W, int64_t lo, double N,
                        double S, conv_spike *out, size_t cap)
{
    return conv_find_spikes_clipped(C, W, lo, N, S, 1, out, cap);
}

size_t conv_find_spikes_clipped(const double *C, size_t W, int64_t lo,
                                double N, double S, int passes,
                                conv_spike *out, size_t cap)
{
    double mean, sd;
    if (W == 0 || !moments(C, W, NULL, &mean, &sd) || !(sd > 0))
        return 0;
    unsigned char *excl = passes > 1 ? calloc(W, 1) : NULL;
    if (!excl)
        passes = 1;
    size_t found = 0;
    for (int pass = 1; ; pass++) {
        if (excl)
            memset(excl, 0, W);
        found = scan_spikes(C, W, lo, mean + N * sd, mean + S * sd, out, cap,
                            pass < passes ? excl : NULL);
        if (pass >= passes || found == 0)
            break;
        double m2, s2;
        if (!moments(C, W, excl, &m2, &s2) || !(s2 > 0) ||
            (m2 == mean && s2 == sd))
            break;
        mean = m2;
        sd = s2;
    }
    free(excl);
    return found;
}
