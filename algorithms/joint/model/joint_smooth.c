/*
 * joint_smooth.c - Gaussian smoothing of a sparse histogram, bit for bit
 * gsl_filter_gaussian with GSL_FILTER_END_PADZERO (docs/joint/speed.md, "Speed").
 *
 * What GSL computes (filter/gaussian.c and movstat/apply.c of GSL 2.x):
 * the kernel g[0..K) comes from gsl_filter_gaussian_kernel (called here
 * too, so it is the same array); the input is padded with H = K / 2 zeros
 * on each side, and output i is the sum, started at 0.0 and taken in
 * window order, of xpad[i - H + m] * g[K - 1 - m] for m = 0 .. K-1, that
 * is of x[j] * g[H + i - j] for j = i-H .. i+H ascending (out-of-range j
 * being padding zeros).  A histogram of delays has most of its bins empty,
 * so here each filled bin j, in ascending order, adds its products to the
 * outputs it reaches: every output receives the same nonzero products in
 * the same order, and the zero products it no longer receives never
 * changed its sum.  The product and the sum are two statements, so that
 * they are two roundings as in GSL (a compiler contracts them into one
 * fused multiply-add at most within one expression in C11 mode).
 */
#include "joint_smooth.h"

#include <gsl/gsl_filter.h>
#include <gsl/gsl_vector.h>
#include <stdlib.h>
#include <string.h>

/* kernels kept: a refit smooths many keys, and those whose width is the
 * least allowed (bw_min) or the most share one kernel (speed only: the
 * same array gsl_filter_gaussian_kernel gives) */
#define JOINT_SMOOTH_KEEP 8

struct joint_smooth {
    size_t n, kmax;
    double *kern;      /* the kernel of (alpha, K) below: one of keep[] */
    double alpha;      /* its width; 0: none computed yet */
    size_t K;          /* its length (odd) */
    size_t *fill;      /* the filled bins of the current input */
    double *keep[JOINT_SMOOTH_KEEP]; /* kernels computed, kmax each */
    double kalpha[JOINT_SMOOTH_KEEP]; /* their widths (0: none) */
    size_t kK[JOINT_SMOOTH_KEEP];
    unsigned next;     /* the slot computed next */
};

pb_status joint_smooth_init(size_t n, size_t kmax, joint_smooth **out)
{
    *out = NULL;
    if (n == 0 || kmax == 0)
        return PB_EINVAL;
    joint_smooth *w = calloc(1, sizeof *w);
    if (!w)
        return PB_ENOMEM;
    w->n = n;
    w->kmax = kmax;
    w->keep[0] = malloc(kmax * sizeof *w->keep[0]);
    w->kern = w->keep[0];
    w->fill = malloc(n * sizeof *w->fill);
    if (!w->kern || !w->fill) {
        joint_smooth_close(w);
        return PB_ENOMEM;
    }
    *out = w;
    return PB_OK;
}

void joint_smooth_close(joint_smooth *w)
{
    if (!w)
        return;
    for (int i = 0; i < JOINT_SMOOTH_KEEP; i++)
        free(w->keep[i]);
    free(w->fill);
    free(w);
}

/* the kernel of (alpha, Kodd) in w->kern.  PB_OK or PB_EINVAL */
static pb_status smooth_kernel(joint_smooth *w, double alpha, size_t Kodd)
{
    if (w->K == Kodd && w->alpha == alpha)
        return PB_OK;
    for (unsigned i = 0; i < JOINT_SMOOTH_KEEP; i++)
        if (w->keep[i] && w->kK[i] == Kodd && w->kalpha[i] == alpha) {
            w->kern = w->keep[i];
            w->K = Kodd;
            w->alpha = alpha;
            return PB_OK;
        }
    /* computed into the next slot (one failed allocation: slot 0's) */
    unsigned i = w->next;
    w->next = (w->next + 1) % JOINT_SMOOTH_KEEP;
    if (!w->keep[i])
        w->keep[i] = malloc(w->kmax * sizeof *w->keep[i]);
    if (!w->keep[i])
        i = 0;
    w->kalpha[i] = 0; /* not valid until computed */
    gsl_vector_view kv = gsl_vector_view_array(w->keep[i], Kodd);
    w->kern = w->keep[i];
    w->K = 0;
    w->alpha = 0;
    if (gsl_filter_gaussian_kernel(alpha, 0, 1, &kv.vector) != GSL_SUCCESS)
        return PB_EINVAL;
    w->kK[i] = Kodd;
    w->kalpha[i] = alpha;
    w->K = Kodd;
    w->alpha = alpha;
    return PB_OK;
}

/* each filled bin w->fill[0..nf) of x, ascending, adds its products to
 * the outputs it reaches (y there already +0) */
static void smooth_add(const joint_smooth *w, size_t nf, const double *x, double *y, size_t n)
{
    const size_t H = w->K / 2;
    const double *g = w->kern;
    for (size_t f = 0; f < nf; f++) {
        const size_t j = w->fill[f];
        const double xj = x[j];
        const size_t lo = j > H ? j - H : 0, hi = j + H < n ? j + H : n - 1;
        /* output i takes x[j] * g[H + i - j] */
        const double *gi = g + (H + lo - j);
        for (size_t i = lo; i <= hi; i++) {
            double p = xj * gi[i - lo];
            y[i] += p;
        }
    }
}

pb_status joint_smooth_gaussian(joint_smooth *w, double alpha, size_t K, const double *x,
                                double *y, size_t n)
{
    const size_t H = K / 2, Kodd = 2 * H + 1;
    if (!(alpha > 0) || K == 0 || Kodd > w->kmax || n == 0 || n > w->n)
        return PB_EINVAL;
    if (smooth_kernel(w, alpha, Kodd) != PB_OK)
        return PB_EINVAL;
    size_t nf = 0;
    for (size_t j = 0; j < n; j++)
        if (x[j] != 0)
            w->fill[nf++] = j;
    memset(y, 0, n * sizeof *y);
    smooth_add(w, nf, x, y, n);
    return PB_OK;
}

pb_status joint_smooth_gaussian_range(joint_smooth *w, double alpha, size_t K, const double *x,
                                      size_t xlo, size_t xhi, double *y, size_t n,
                                      size_t *ylo, size_t *yhi)
{
    const size_t H = K / 2, Kodd = 2 * H + 1;
    if (!(alpha > 0) || K == 0 || Kodd > w->kmax || n == 0 || n > w->n || xlo > xhi ||
        xhi >= n)
        return PB_EINVAL;
    if (smooth_kernel(w, alpha, Kodd) != PB_OK)
        return PB_EINVAL;
    size_t nf = 0;
    for (size_t j = xlo; j <= xhi; j++)
        if (x[j] != 0)
            w->fill[nf++] = j;
    const size_t lo = xlo > H ? xlo - H : 0, hi = xhi + H < n ? xhi + H : n - 1;
    memset(y + lo, 0, (hi - lo + 1) * sizeof *y);
    smooth_add(w, nf, x, y, n);
    *ylo = lo;
    *yhi = hi;
    return PB_OK;
}
