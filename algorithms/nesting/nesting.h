/*
 * nesting.h - the nesting algorithm of Project 5 (seed 000, section 5.1,
 * Figure 4): call pairs, candidate nestings, the scoreboard, parent choice
 * with the three child penalties, and call paths aggregated into call-view
 * patterns.
 *
 * `infer --algo nesting` runs it through pb_algo_nesting (pb_algo.h).  The
 * step-by-step API below exists so tests can look inside (call pairs, the
 * chosen parents, scoreboard values); programs should use the pb_algo.
 */
#ifndef NESTING_H
#define NESTING_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pb_error.h"
#include "pb_opt.h"
#include "pb_result.h"
#include "pb_tick.h"
#include "pb_trace.h"

#define NESTING_NONE UINT32_MAX

/* Parameters (names in the option table in brackets; defaults are the
 * paper's where it gives one). */
typedef struct nesting_params {
    double base;         /* [hist_base] bin width ratio, 1.05 */
    int bins;            /* [hist_bins] number of bins, 340 */
    pb_ns lowest;        /* [hist_lowest] lower edge of bin 1, 1 ms */
    double x, y, z;      /* [x] [y] [z] penalty exponents: overlapping,
                            same-destination, any child; 2, 0, 0 */
    pb_ns skew_window;   /* [skew_window] timestamp tolerance (7.5.6), 0 */
    int smooth;          /* [smooth] Gaussian smoothing of the scoreboard */
    double smooth_width; /* [smooth_width] its standard deviation, bins */
    int callids;         /* [callids] use call ids (else FIFO for all) */
    int top;             /* [top] patterns drawn in dot / report; 0 = all */
    int max_cand;        /* [max_candidates] candidate parents one call may
                            have: the latest-sent kept, 1024 */
    int same_tick;       /* [same_tick] with skew_window 0, a call with the
                            same ts as the child's call, earlier in the
                            file, is a candidate parent (default 1; 0 =
                            strictly earlier only, Figure 4) */
    pb_ns window;        /* [window] sliding-window nesting (nesting_window.c);
                            0 = whole trace */
    double min_confidence; /* [min_confidence] abstain on messages whose
                              path confidence is below it; 0 = none */
    int overlap_walk;    /* not an option (left 0 by nesting_params_defaults;
                            for tests): how step 3 counts a candidate's
                            children that overlap the child.  0: by binary
                            search (no skew window) or through a persistent
                            count tree (skew window; short runs scanned),
                            O(log) a candidate; 1: the walk over the
                            siblings, newest first (the reference, O(K) a
                            candidate with K children); 2: as 0, but the
                            count tree even for the shortest runs.  Every
                            value chooses the same parents. */
} nesting_params;

/* The option table over nesting_params. */
extern const pb_option nesting_options[];

/* nesting_params_defaults: fill *p with every parameter's default from
 * nesting_options (the same values `infer --algo nesting` starts from).
 * Returns PB_OK, or an error from the option table (err says which). */
int nesting_params_defaults(nesting_params *p, pb_error *err);

typedef struct nesting nesting;

/* Steps 1-3 of Figure 4 on a truth-free view: find call pairs (FIFO per
 * (sender, receiver, callid) key), list candidate parents, fill the
 * scoreboard (smoothed if asked) and choose each pair's parent.  params
 * must be valid (as set through nesting_options).  The view must stay alive
 * and unchanged until nesting_close; its rows should be in time order (as
 * every trace reader gives them: a view built out of order gets the same
 * candidates, found by a scan of every open call, O(open) a pair instead of
 * O(log open + max_candidates)).  *out is owned by the caller.
 * Returns PB_OK, PB_ENOMEM, PB_EINVAL (no type column: the algorithm needs
 * call/return marks; bad parameters) or PB_ERANGE (trace too large for
 * 32-bit indices). */
int nesting_init(nesting **out, const pb_trace_view *v,
                 const nesting_params *params, pb_error *err);

/* Free everything.  NULL-safe. */
void nesting_close(nesting *s);

/* Number of call pairs, numbered 0.. in the order of their return
 * messages. */
uint32_t nesting_npairs(const nesting *s);

/* Message indices (into the view) of pair i's call and return. */
uint32_t nesting_pair_call(const nesting *s, uint32_t i);
uint32_t nesting_pair_return(const nesting *s, uint32_t i);

/* The chosen parent pair of pair i, or NESTING_NONE for a path root. */
uint32_t nesting_pair_parent(const nesting *s, uint32_t i);

/* Number of candidate parents of pair i (0 = it roots a path). */
uint32_t nesting_pair_ncandidates(const nesting *s, uint32_t i);

/* Candidate parent k (0 .. nesting_pair_ncandidates - 1) of pair i, a pair
 * number; the candidates are listed in the order their calls were sent.
 * NESTING_NONE when i or k is out of range. */
uint32_t nesting_pair_candidate(const nesting *s, uint32_t i, uint32_t k);

/* Scoreboard value (after smoothing, if on) for nesting a B->C call at
 * delay `delta` after an A->B call; 0 when the triple never occurred. */
double nesting_scoreboard(const nesting *s, uint32_t a, uint32_t b,
                          uint32_t c, pb_ns delta);

/* Histogram bin of a delay (0 .. bins-1). */
uint32_t nesting_bin(const nesting *s, pb_ns delta);

/* Step 4: build the call paths, aggregate them into res->patterns (call
 * view; node latency = own processing time, edge delay = call delay from
 * the parent's call, total latency = root call duration; seconds), ascribe
 * every message of a path to its instance, add the metadata counters and
 * write the Figure 8 dot text and a text report for the top patterns.
 * Call once.  It frees the pair tables on the way (memory), so afterwards
 * the pair accessors above return NESTING_NONE (ncandidates 0).  Returns
 * PB_OK or PB_ENOMEM. */
int nesting_paths(nesting *s, pb_result *res, pb_error *err);

/* Sliding-window nesting (docs/nesting.md "Sliding window"): the trace cut
 * into windows of params->window (> 0), parents chosen with the scoreboard
 * of the whole trace, paths built window by window.  Fills res as
 * pb_algo_nesting does.  per_window: if not NULL, a CSV of instance counts
 * per window and pattern is written to it (window_start_s,pattern,count).
 * Equal to nesting_init + nesting_paths when the window is longer than the
 * longest call.  Returns PB_OK, PB_EINVAL (skew_window > 0, rows out of
 * time order), PB_ENOMEM, PB_EIO (writing per_window). */
int nesting_window_run(const pb_trace_view *v, const nesting_params *params,
                       pb_result *res, FILE *per_window, pb_error *err);

/* What nesting_window_stream learnt about the trace it read. */
typedef struct nesting_window_info {
    size_t messages;      /* rows read */
    pb_fingerprint fp;    /* the trace's fingerprint (pb_result.h) */
    char **meta;          /* the trace's metadata lines, nmeta of them */
    size_t nmeta;
    pb_names *names;      /* node names of the trace */
    pb_tick_info tick;    /* timestamp tick and ties (pb_tick.h), streaming */
} nesting_window_info;

/* Free what info holds.  NULL-safe. */
void nesting_window_info_free(nesting_window_info *info);

/* The same as nesting_window_run, reading the trace at path ("-" = stdin)
 * twice with pb_reader instead of from memory: memory follows the window
 * (plus the assignment table unless res->skip_assign).  stdin is read once:
 * the parsed messages go to an unlinked temporary file in TMPDIR for the
 * second pass.  Rows must be in time order; message ids are checked for
 * duplicates within two windows (PB_EDUP naming both lines).  info
 * (may be NULL) gets the message count, fingerprint, metadata and names;
 * free it with nesting_window_info_free.  Returns as nesting_window_run,
 * or the reader's error (file, line, field). */
int nesting_window_stream(const char *path, const pb_reader_opts *ropts,
                          const nesting_params *params, pb_result *res,
                          FILE *per_window, nesting_window_info *info, pb_error *err);

#endif
