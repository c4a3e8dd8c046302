/*
 * joint_smooth.h - Gaussian smoothing of a sparse histogram for joint's
 * delay densities (docs/joint/speed.md, "Speed"): bit for bit the output of
 * GSL's gsl_filter_gaussian with zero padding, at a cost proportional to
 * the filled bins times the window instead of every bin times the window.
 */
#ifndef JOINT_SMOOTH_H
#define JOINT_SMOOTH_H

#include <stddef.h>

#include "pb_error.h"

/* Workspace of joint_smooth_gaussian: the kernel (kept while the width
 * does not change) and the list of filled bins. */
typedef struct joint_smooth joint_smooth;

/* Allocate a workspace for histograms of up to n bins and windows of up
 * to kmax samples (n, kmax >= 1).  *out receives it (NULL on failure);
 * free it with joint_smooth_close.  Returns PB_OK, PB_EINVAL (n or kmax
 * 0) or PB_ENOMEM. */
pb_status joint_smooth_init(size_t n, size_t kmax, joint_smooth **out);

/* Free a workspace; NULL is allowed. */
void joint_smooth_close(joint_smooth *w);

/* Smooth x[0..n) into y[0..n) (n at most the workspace's; x and y do not
 * overlap) with GSL's normalised Gaussian kernel of K samples (an even K
 * is rounded up to the next odd number, as gsl_filter_gaussian_alloc
 * does; at most the workspace's kmax after rounding) spanning alpha
 * standard deviations on each side.  y is exactly what
 * gsl_filter_gaussian(GSL_FILTER_END_PADZERO, alpha, 0, x, y, ws) gives
 * with ws = gsl_filter_gaussian_alloc(K): every output is the sum of the
 * products of its window in GSL's order, leaving out the products of
 * empty (zero) bins, which cannot change such a sum (it starts at +0 and
 * so never becomes -0, and s + (+-0) = s for every other s); bins no
 * filled bin reaches get +0, as in GSL.  The caller owns x and y.
 * Returns PB_OK, or PB_EINVAL (alpha not positive, n or K too large or
 * zero; y untouched). */
pb_status joint_smooth_gaussian(joint_smooth *w, double alpha, size_t K, const double *x,
                                double *y, size_t n);

/* The same smoothing when x is known to be zero outside [xlo, xhi]
 * (xlo <= xhi < n): only the filled bins of that range are looked for,
 * and only the outputs they can reach, [*ylo, *yhi] = [xlo - H, xhi + H]
 * clipped to [0, n) with H = K / 2 after rounding K up to an odd number,
 * are written (y elsewhere is left as it was: the caller takes it as +0).
 * Within [*ylo, *yhi] y is bit for bit joint_smooth_gaussian's.  Returns
 * PB_OK, or PB_EINVAL as joint_smooth_gaussian (also for xlo > xhi or
 * xhi >= n; y and the range untouched). */
pb_status joint_smooth_gaussian_range(joint_smooth *w, double alpha, size_t K, const double *x,
                                      size_t xlo, size_t xhi, double *y, size_t n,
                                      size_t *ylo, size_t *yhi);

#endif
