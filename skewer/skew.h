/*
 * skew.h - per-node clock error (offset and drift) applied to, or removed
 * from, a message trace; and Paxson-style offset estimation from traces that
 * carry both a send and a receive timestamp (seed 000 section 7.5.6, seed
 * 001 section 5.2).
 *
 * Clock model.  Node N's clock reads, at true time t,
 *
 *     C_N(t) = t + offset_N + round(drift_N * (t - ref))
 *
 * with drift in parts per 10^12 (1 ppm = 10^6), rounding half away from
 * zero, and ref a reference time common to all nodes (default 0).  C_N is
 * non-decreasing for |drift| <= 10%, so it can be inverted by search:
 * skew_clock_invert(y) is the smallest t with C_N(t) >= y, and
 * invert(apply(t)) == t for every t unless the clock runs slow (negative
 * drift) and t is one of the instants where the slow clock repeats a
 * nanosecond (one in 10^6 / |drift_ppm| nanoseconds).  Skewing reports how
 * many timestamps fell on such instants.
 *
 * A timestamp belongs to the clock of the node that took it: ts is the
 * sender's, recv_ts the receiver's.
 */
#ifndef SKEW_H
#define SKEW_H

#include <stddef.h>
#include <stdint.h>

#include "pb_error.h"
#include "pb_strbuf.h"
#include "pb_trace.h"

/* Largest accepted |drift|: 10% (in parts per 10^12). */
#define SKEW_DRIFT_MAX 100000000000LL
#define SKEW_PPT_PER_PPM 1000000LL

/* One node's clock error. */
typedef struct skew_clock {
    pb_ns offset;       /* constant offset, ns (positive = clock runs ahead) */
    int64_t drift_ppt;  /* rate error, parts per 10^12 (positive = fast) */
} skew_clock;

/* Local reading of true time t: *out = C(t).  Returns PB_OK or PB_ERANGE
 * when the result does not fit in int64 nanoseconds. */
int skew_clock_apply(const skew_clock *c, pb_ns ref, pb_ns t, pb_ns *out);

/* Inverse: *out = the smallest t with C(t) >= y.  Returns PB_OK or
 * PB_ERANGE. */
int skew_clock_invert(const skew_clock *c, pb_ns ref, pb_ns y, pb_ns *out);

/* Parse a drift "+50ppm", "-3.25ppm", "800ppb" or a bare number (ppm) into
 * parts per 10^12.  At most 6 decimals of ppm are kept exactly.  Returns
 * PB_OK, PB_EPARSE (malformed) or PB_ERANGE (|drift| over 10%). */
int skew_drift_parse(const char *s, int64_t *out_ppt);

/* Write a drift as "+50ppm" / "-0.000001ppm" (shortest exact text) into
 * buf of at least 40 bytes.  Returns buf. */
char *skew_drift_format(int64_t ppt, char *buf);

/* Write an offset in its shortest exact signed unit form ("+30ms",
 * "-1.5ms", "+0s") into buf (at least PB_SECONDS_BUF + 2
 * bytes).  Returns buf. */
char *skew_offset_format(pb_ns off, char *buf);

/* ------------------------------------------------------------------ */
/* Specifications: which node gets which clock. */

typedef enum skew_dist_kind {
    SKEW_DIST_NONE = 0,
    SKEW_DIST_NORMAL = 1,  /* N(0, sd), redrawn outside +-6 sd */
    SKEW_DIST_UNIFORM = 2  /* uniform on [-max, +max] */
} skew_dist_kind;

typedef struct skew_spec skew_spec;

/* Empty spec (every node exact, ref 0).  Returns PB_OK or PB_ENOMEM. */
int skew_spec_init(skew_spec **out);

/* Free.  NULL-safe. */
void skew_spec_close(skew_spec *s);

/* Add one node clock from text "NODE=OFFSET[,DRIFT]" (OFFSET a signed
 * duration such as +30ms, DRIFT as skew_drift_parse; NODE "*" = every
 * node not named otherwise).  where: what to call the text in errors (e.g.
 * "--node" or "spec.txt"); line: its line number or 0.  Returns PB_OK,
 * PB_EPARSE / PB_ERANGE (err says which part is wrong), PB_EDUP (node named
 * twice) or PB_ENOMEM. */
int skew_spec_add(skew_spec *s, const char *text, const char *where, long line,
                  pb_error *err);

/* Add every "NODE=OFFSET[,DRIFT]" line of a file (blank lines and lines
 * starting with '#' are skipped).  Errors name the file and line.  Returns
 * as skew_spec_add, or PB_EIO. */
int skew_spec_load(skew_spec *s, const char *path, pb_error *err);

/* Draw clocks at random for nodes not named: offset_dist "normal:SD" or
 * "uniform:MAX" (durations), drift_dist "normal:SD" or "uniform:MAX" (drift
 * text); either may be NULL.  Each node's draw comes from a gsl_rng_mt19937
 * seeded with a mix of seed and the node's name, so a node's clock depends
 * only on (seed, name, distributions), never on the order nodes appear in:
 * de-skewing with the same arguments inverts it.  Returns PB_OK, PB_EPARSE
 * (malformed distribution, err names the argument), PB_EINVAL (random
 * together with a "*" clock). */
int skew_spec_set_random(skew_spec *s, const char *offset_dist,
                         const char *drift_dist, unsigned long seed,
                         pb_error *err);

/* Set / get the reference time of the drift (default 0). */
void skew_spec_set_ref(skew_spec *s, pb_ns ref);
pb_ns skew_spec_ref(const skew_spec *s);

/* Round every timestamp down to a multiple of tick after the clocks are
 * applied or removed (a coarse clock, e.g. 1 ms; 0 = off, the default).
 * Rounding keeps the input order of rows that end up with the same ts,
 * also when de-skewing, so an effect never moves before its cause. */
void skew_spec_set_round(skew_spec *s, pb_ns tick);
pb_ns skew_spec_round(const skew_spec *s);

/* The clock of the node with this name (named, '*', random or exact).
 * Returns PB_OK or PB_ENOMEM. */
int skew_spec_clock(const skew_spec *s, const char *node, skew_clock *out);

/* Number of named nodes, and the i-th name (not "*"). */
size_t skew_spec_count(const skew_spec *s);
const char *skew_spec_name(const skew_spec *s, size_t i);

/* Append a one-line description ("WS2=+0.030000000s,+50ppm *=... ref=...
 * random-offset=... seed=...") to out.  Returns PB_OK or PB_ENOMEM. */
int skew_spec_describe(const skew_spec *s, pb_strbuf *out);

/* ------------------------------------------------------------------ */
/* Streaming skew / de-skew with a bounded re-sort window. */

typedef struct skew_stats {
    size_t messages;       /* rows pushed */
    size_t max_window;     /* most rows held at once for re-sorting */
    size_t not_invertible; /* timestamps a slow clock maps onto a repeated ns */
    size_t unknown_nodes;  /* named nodes never seen (see skew_stream_unseen) */
    pb_ns max_shift;       /* largest |new ts - old ts| (clocks only) */
    size_t changed;        /* rows whose ts or recv_ts changed */
} skew_stats;

typedef struct skew_stream skew_stream;

/* Start a stream.  deskew: 0 = apply the clocks (input ts are true times),
 * 1 = remove them (input ts are local clock readings).  names: the bundle
 * the messages' node indices refer to (borrowed).  max_window: most rows
 * that may wait for re-sorting (0 = 2^21); allow_negative: else a
 * timestamp that becomes negative is an error.  source: input name for
 * errors.  The spec is borrowed and must outlive the stream.
 * Returns PB_OK or PB_ENOMEM. */
int skew_stream_init(skew_stream **out, const skew_spec *spec, int deskew,
                     pb_names *names, size_t max_window, int allow_negative,
                     const char *source, pb_error *err);

/* Push one message read from the input (rows must come sorted by ts: the
 * reader checks that).  line: input line for errors.  After the push, rows
 * whose place in the output is settled can be taken with skew_stream_pop.
 * Returns PB_OK; PB_ERANGE (a timestamp would overflow, or become negative
 * without allow_negative: err names line, column and node); PB_EORDER (the
 * re-sort window is full: err says how to raise it); PB_ENOMEM. */
int skew_stream_push(skew_stream *s, const pb_msg *m, const pb_truth *t,
                     long line, pb_error *err);

/* Same with the message's observed columns (o may be NULL: PB_OBS_NONE),
 * carried unchanged to skew_stream_pop_obs. */
int skew_stream_push_obs(skew_stream *s, const pb_msg *m, const pb_obs *o,
                         const pb_truth *t, long line, pb_error *err);

/* Mark the end of input: every held row becomes ready. */
void skew_stream_finish(skew_stream *s);

/* Take the next ready row in output order: by new ts, ties in input order
 * when skewing or rounding, by id and then input order when de-skewing
 * without rounding (see skew.c).
 * Returns 1 with *m / *t filled (t may be NULL), or 0 when nothing is ready, or
 * PB_EORDER if a row would come out earlier than the one before (the bound
 * that decides when rows are ready has failed; never expected). */
int skew_stream_pop(skew_stream *s, pb_msg *m, pb_truth *t);

/* Same, also giving the row's observed columns in *o (may be NULL). */
int skew_stream_pop_obs(skew_stream *s, pb_msg *m, pb_obs *o, pb_truth *t);

/* Statistics so far. */
void skew_stream_stats(const skew_stream *s, skew_stats *out);

/* The i-th named node of the spec that no pushed message used, for the
 * "unknown node" warning; NULL when i is past the last.  Valid after
 * skew_stream_finish. */
const char *skew_stream_unseen(const skew_stream *s, size_t i);

/* The same as a walk: the next named node no pushed message used, from
 * spec position *pos on (start at 0); *pos moves past it.  NULL at the end.
 * A whole walk is linear in the spec (skew_stream_unseen(s, i) for i = 0,
 * 1, ... is quadratic). */
const char *skew_stream_unseen_next(const skew_stream *s, size_t *pos);

/* Free.  NULL-safe. */
void skew_stream_close(skew_stream *s);

/* Run a whole trace: every message of r through a stream to w (already
 * opened, metadata added), then finish.  Returns as skew_stream_push, or
 * the reader's / writer's error. */
int skew_run(pb_reader *r, pb_writer *w, const skew_spec *spec, int deskew,
             size_t max_window, int allow_negative, skew_stats *stats,
             skew_stream **keep, pb_error *err);

/* ------------------------------------------------------------------ */
/* Offset estimation (Paxson / WAP5 5.2). */

typedef struct skew_estimate skew_estimate;

/* Start an estimator over node indices of names (borrowed). */
int skew_estimate_init(skew_estimate **out, pb_names *names);

/* Feed one message; rows without recv_ts are ignored.  Returns PB_OK or
 * PB_ENOMEM. */
int skew_estimate_add(skew_estimate *e, const pb_msg *m);

/* Solve: pick the reference node (ref_node, or NULL for the node with the
 * most timed messages, ties to the smaller name), then walk outward over
 * pairs seen in both directions, breadth first, giving each node the
 * offset of its parent plus (min d_pb - min d_bp) / 2.  Writes a spec that
 * skew_spec_load reads (with '#' comments naming the pairs used, and
 * "no clock information" for every node that could not be reached and
 * every pair whose messages all have ts == recv_ts) to out; pairs without
 * clock information are not walked over.  When no node besides the
 * reference gets an offset, the reference's own line is a comment too.  Returns PB_OK, PB_ENOENT
 * (ref_node unknown, or no node has a timed message both ways) or
 * PB_ENOMEM. */
int skew_estimate_write(skew_estimate *e, const char *ref_node, pb_strbuf *out,
                        pb_error *err);

/* What the last skew_estimate_write could not know, for the user: lines
 * ending in '\n' ("no clock information ..."), "" when everything was
 * estimated.  Owned by e. */
const char *skew_estimate_warnings(const skew_estimate *e);

/* After skew_estimate_write: the number of nodes given an offset besides
 * the reference; *noinfo (may be NULL) the number left without one. */
size_t skew_estimate_count(const skew_estimate *e, size_t *noinfo);

/* Estimated offset of node b relative to node a from the pair's minimum
 * one-way delays; returns 1 and fills *out, or 0 if the pair lacks one
 * direction or every message between them has ts == recv_ts (no clock
 * information). */
int skew_estimate_pair(const skew_estimate *e, uint32_t a, uint32_t b,
                       pb_ns *out);

/* Free.  NULL-safe. */
void skew_estimate_close(skew_estimate *e);

#endif
