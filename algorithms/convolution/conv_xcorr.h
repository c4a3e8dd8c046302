/*
 * conv_xcorr.h - the signal-processing half of the convolution algorithm
 * (seed 000, section 5.2): discretized message signals, their linear
 * cross-correlation over a bounded window of lags, and spike detection.
 *
 * A signal is sparse: the quanta that hold messages, each with the value
 * sqrt(number of messages in that quantum) (section 5.2.1).  Quanta are
 * numbered 0 .. S-1 from the start of the trace.
 *
 * The correlation is C(d) = sum_t a(t) * b(t + d) for lags d in [lo, hi]:
 * with a = the signal of the messages entering a node and b = the signal of
 * the messages it sends, a spike at d > 0 says "b repeats a, d quanta later".
 *
 * Two ways to compute it, which agree to within floating-point rounding:
 *   exact   - the paper's: one zero-padded FFT of the whole signals (size
 *             >= 2S), then the window is read off.  Time S log S, memory S.
 *   blocked - overlap-add over blocks of a: each block of B quanta is
 *             correlated with the stretch of b it can reach (B + W - 1
 *             quanta, W = hi - lo + 1) by an FFT of size M = B + W - 1, and
 *             the products are summed in the frequency domain, so one
 *             inverse transform serves the whole signal.  Blocks where a is
 *             zero are skipped; with `sparse` on, a block whose message pairs
 *             are fewer than the FFT's cost is summed directly instead.
 *             Time S log W (at most), memory W.
 * FFTW plans are made once per conv_xcorr (FFTW_ESTIMATE, so the same input
 * gives the same bits on every run) and reused for every block and call.
 */
#ifndef CONV_XCORR_H
#define CONV_XCORR_H

#include <stddef.h>
#include <stdint.h>

#include "pb_error.h"

/* A sparse discretized signal.  bin[] strictly increasing, val[] > 0. */
typedef struct conv_signal {
    int64_t *bin;
    double *val;
    size_t n, cap;
} conv_signal;

/* Empty the signal, keeping its memory. */
void conv_signal_reset(conv_signal *s);

/* Free the signal's arrays (the struct itself is the caller's).  NULL-safe. */
void conv_signal_free(conv_signal *s);

/* Build s (reset first) from quantum numbers bins[0..n-1], which must be
 * non-decreasing: each distinct quantum gets sqrt(its multiplicity).
 * Returns PB_OK, PB_ENOMEM, or PB_EINVAL (bins not sorted or negative). */
int conv_signal_from_bins(conv_signal *s, const int64_t *bins, size_t n);

/* Append one quantum with its value (quanta must come in increasing order).
 * For building signals by hand (tests).  Returns PB_OK, PB_ENOMEM, or
 * PB_EINVAL (out of order, negative, or value <= 0). */
int conv_signal_push(conv_signal *s, int64_t bin, double val);

typedef enum conv_mode {
    CONV_BLOCKED = 0,
    CONV_EXACT = 1
} conv_mode;

typedef struct conv_xcorr_cfg {
    int64_t lo, hi;    /* lag window, lo <= hi, in quanta */
    int64_t nquanta;   /* S: signals live in [0, S) */
    conv_mode mode;
    int sparse;        /* blocked mode: direct sums for sparse blocks */
    int64_t fft_size;  /* blocked mode: FFT size M; 0 = automatic (a power
                          of two >= 2W); must be >= W + 1 */
} conv_xcorr_cfg;

/* Counters of the work done, for metadata and benchmarks. */
typedef struct conv_xcorr_stats {
    uint64_t calls;        /* correlations computed */
    uint64_t fft_blocks;   /* blocks done by FFT */
    uint64_t direct_blocks;/* blocks summed directly */
    uint64_t skipped_blocks; /* blocks skipped: b had nothing in reach */
    uint64_t direct_pairs; /* message-quantum pairs summed directly */
    uint64_t spectra_reused; /* exact: second transforms found kept */
} conv_xcorr_stats;

typedef struct conv_xcorr conv_xcorr;

/* Largest FFT size accepted, so a bad parameter gets an error instead of an
 * allocation of many gigabytes: at most about 1.3 GB of buffers, plus 256 MB
 * of kept spectra in exact mode (blocked:
 * two real inputs and three half spectra; exact: two and two). */
#define CONV_FFT_MAX (INT64_C(1) << 25)

/* Make a correlator for cfg: allocates the FFT buffers and plans.  Returns
 * PB_OK, PB_EINVAL (bad window or sizes; err says which), PB_ERANGE (the
 * FFT would exceed CONV_FFT_MAX: err says how to shrink it), PB_ENOMEM. */
int conv_xcorr_init(conv_xcorr **out, const conv_xcorr_cfg *cfg, pb_error *err);

/* Free the correlator and its plans.  NULL-safe. */
void conv_xcorr_close(conv_xcorr *x);

/* Number of lags W = hi - lo + 1. */
size_t conv_xcorr_width(const conv_xcorr *x);

/* The FFT size in use (M). */
int64_t conv_xcorr_fft_size(const conv_xcorr *x);

/* C[k] = sum_t a(t) b(t + lo + k), k = 0 .. W-1.  C is the caller's array
 * of W doubles.  Values below 0.5 are set to exactly 0: every true nonzero
 * value is at least 1 (bins hold sqrt(count) >= 1), so this removes FFT
 * rounding noise and nothing else.  Bins outside [0, S) are an error.
 * Returns PB_OK or PB_EINVAL. */
int conv_xcorr_run(conv_xcorr *x, const conv_signal *a, const conv_signal *b,
                   double *C);

/* Work counters since init. */
const conv_xcorr_stats *conv_xcorr_get_stats(const conv_xcorr *x);

/* A spike of a correlation: its lag (quanta) and height. */
typedef struct conv_spike {
    int64_t lag;      /* where the largest point is */
    double value;     /* its height */
    int64_t first, last; /* the run of lags at least m + S*sd around it */
} conv_spike;

/* Spikes of C[0..W-1] (lags lo .. lo+W-1), section 5.2: with m and sd the
 * mean and (population) standard deviation of C, a spike is a run of
 * consecutive lags all at least m + S*sd whose largest point is at least
 * m + N*sd; the largest point (the first, on ties) stands for it, so two
 * spikes always have a point below m + S*sd between them.  A constant C has
 * no spikes.  Writes at most cap spikes to out in increasing lag order and
 * returns how many there are in all (call again with a larger out if more). */
size_t conv_find_spikes(const double *C, size_t W, int64_t lo, double N,
                        double S, conv_spike *out, size_t cap);

/* The same with sigma clipping: after each pass the mean and deviation are
 * taken again without the lags of the spikes found (their runs above S sd),
 * and the spikes found again over all lags, up to `passes` passes (1 = the
 * paper's test, as conv_find_spikes).  Smaller spikes next to large ones
 * then show.  Returns as conv_find_spikes. */
size_t conv_find_spikes_clipped(const double *C, size_t W, int64_t lo,
                                double N, double S, int passes,
                                conv_spike *out, size_t cap);

#endif
