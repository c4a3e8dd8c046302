/*
 * score.h - the scorer: reading result files and comparing them with the
 * truth of a trace (DESIGN.md "Scoring"; docs/metrics.md defines every
 * number).
 */
#ifndef SCORE_H
#define SCORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pb_error.h"
#include "pb_result.h"
#include "pb_trace.h"
#include "tv.h"

/* ------------------------------------------------------------------ */
/* Result files (format: pb_result.h) */

typedef struct score_pattern {
    char *text;          /* canonical text (the file's text, canonicalized) */
    uint32_t nnodes;
    uint32_t rank;       /* as written in the file */
    uint64_t count;      /* raw instance count */
    double score;        /* NAN when empty */
    double total_latency, mean_latency;  /* seconds, NAN when empty */
    double *node_lat;    /* [nnodes], canonical positions, NAN = unknown */
    double *edge_delay;  /* [nnodes] */
    long line;           /* line of its row */
} score_pattern;

typedef struct score_assign {
    uint64_t id;         /* message id */
    uint64_t instance;   /* instance id, unique within the file (unused in
                            score_result.abstain) */
    size_t pattern;      /* index into score_result.pats (unused in
                            score_result.abstain) */
    long line;
    uint64_t parent;     /* the `parent` column: id of the message that
                            caused this one, PB_NO_PARENT when empty or
                            absent */
    double confidence;   /* the `confidence` column, in [0, 1]; NAN when
                            empty or absent */
} score_assign;

typedef struct score_result {
    char *file;          /* name it was read from */
    char *algo, *view, *trace;  /* from the metadata; NULL when absent */
    score_pattern *pats;
    size_t npats;
    score_assign *assign;
    size_t nassign;
    score_assign *abstain; /* abstentions: rows with an empty instance (the
                            message left unattached), in file order */
    size_t nabstain;
    int has_assign;      /* the file has an assignment table */
    int has_parent;      /* its header has a parent column */
    int has_conf;        /* its header has a confidence column */
    int has_fp;          /* a "# fingerprint:" line was read into fp */
    pb_fingerprint fp;   /* of the trace the result was inferred from */
    char **trace_meta;   /* "# trace: LINE" metadata, LINE only */
    size_t ntrace_meta;
} score_result;

/* Read a result file (path; "-" = stdin).  *out is owned by the caller
 * (score_result_close).  Pattern texts are canonicalized, and their
 * per-node lists moved to canonical positions.  The file must end with its
 * "# end patterns=P assignments=A" line and P and A must match the tables
 * (A counts abstentions too; a cut file is refused); no message may belong
 * to two instances or be both attached and abstained, and no rank may
 * have more instances in the assignment table than its count.  The
 * optional parent and confidence columns are read into score_assign; an
 * abstention (empty instance and rank) goes to r->abstain and must have
 * an empty parent; a message may not be its own parent.
 * Returns PB_OK, PB_EIO, or PB_EPARSE / PB_EDUP / PB_ENOENT with err naming
 * file, line and what was expected (for a malformed pattern also the
 * character position in it). */
int score_result_read(const char *path, score_result **out, pb_error *err);

/* Same on an open stream (not closed); name is used in messages. */
int score_result_read_fp(FILE *fp, const char *name, score_result **out,
                         pb_error *err);

/* Free.  NULL-safe. */
void score_result_close(score_result *r);

/* Check that result r was inferred from `truth` (the trace itself, a
 * skewed copy of it, or a copy the sniffer thinned): the "generator=" and
 * "params:" metadata lines of the two must agree where both have them, and
 * r's fingerprint must equal truth's unless r's trace metadata has sniffer
 * lines saying messages went from truth's count to r's.  A result without
 * a fingerprint is only checked by its metadata.  truth_name names the
 * trace in messages.  Returns PB_OK or PB_EINVAL with err saying which
 * trace the result came from and what was expected. */
int score_check_trace(const score_result *r, const pb_trace *truth,
                      const char *truth_name, pb_error *err);

/* ------------------------------------------------------------------ */
/* Scoring */

typedef enum score_rank_by { SCORE_RANK_COUNT = 0, SCORE_RANK_SCORE } score_rank_by;

#define SCORE_MAX_TOL 8
#define SCORE_REL_BINS 7  /* bins of the reliability table */

typedef struct score_opts {
    uint64_t min_instances;   /* M (7.5.7): drop inferred patterns with
                                 count < M; 0 or 1 keeps all */
    score_rank_by rank_by;    /* how inferred patterns are ranked for top-N */
    size_t topn;              /* N of the top-N columns */
    double tol[SCORE_MAX_TOL];/* tolerances, percent; tol[0] goes in the row */
    size_t ntol;
    int tol_true_count;       /* compare a missing pattern's true count
                                 (else its inferred count or score) with
                                 the N-th inferred one */
    size_t text_top;          /* score_write_text: at most this many
                                 pattern lines (0 = all) */
    uint64_t ci_seed;         /* seed of the bootstrap interval's
                                 gsl_rng_mt19937 (default 1) */
    size_t ci_reps;           /* bootstrap replicates (default 2000; 0: no
                                 interval) */
} score_opts;

/* One point of the precision-coverage curve: the result as it would be
 * with -s min_confidence=X (rows whose confidence is below X abstained). */
typedef struct score_cov_point {
    double min_confidence;    /* X */
    double coverage;          /* (msgs_right + msgs_wrong) / messages */
    double precision;         /* msgs_right / (msgs_right + msgs_wrong), NAN
                                 when nothing is attached */
    size_t right, wrong, unattached;
    size_t req_correct, req_orphaned, req_misstitched;
} score_cov_point;

/* Defaults: M 0, rank by count, N 10, tolerance 2%, inferred count,
 * bootstrap seed 1 with 2000 replicates. */
void score_opts_default(score_opts *o);

/* One pattern of the union of true and inferred (kept) patterns. */
typedef struct score_entry {
    const char *text;        /* borrowed from the truth or the result */
    uint64_t true_count;     /* 0 when not a true pattern */
    uint64_t inf_count;      /* 0 when not inferred (or dropped by M) */
    double inf_score;
    size_t true_pos, inf_pos;/* 0-based positions in the rankings, or
                                SIZE_MAX */
    int is_true, is_inferred;
    double lat_err_max;      /* max relative node latency error, or NAN */
} score_entry;

typedef struct score_report {
    const char *algo, *view;  /* borrowed from the result */
    score_opts opts;
    size_t true_patterns, inferred_patterns, pattern_fp, pattern_fn;
    size_t dropped_patterns;  /* inferred patterns removed by M */
    uint64_t true_instances, inferred_instances, instances_matched;
    uint64_t instance_fp, instance_fn;
    double instance_fp_rate, instance_fn_rate;  /* NAN when 0/0 */
    int has_messages;         /* message level and exact accuracy known */
    size_t messages, messages_wrong, instances_exact;
    double message_error_rate, exact_accuracy;  /* NAN when unknown */
    size_t instances_set;     /* true instances whose messages are exactly
                                 those of one kept inferred instance */
    double set_accuracy;      /* instances_set / true instances, NAN when
                                 unknown (as exact_accuracy) */
    /* TraceWeaver's end-to-end measure (score_tw_compute); NAN and zero
     * counts until it is computed, or when the result ascribes no messages
     * or the truth has no scored node */
    double tw_accuracy;
    size_t tw_requests, tw_right, tw_nodes, tw_skipped_nodes;
    /* scored against the survivors' truth (tv_build_kept, score --kept):
     * the true instances are those with a surviving message, the
     * columns above judge what survived; intact instances lost nothing */
    int has_kept;
    size_t lost_messages;     /* messages of true instances not kept */
    size_t intact_instances, intact_exact;
    double intact_exact_accuracy;  /* intact_exact / intact_instances, NAN
                                      when 0/0 or without a kept mask */
    size_t latency_nodes;
    double latency_error_median, latency_error_max;  /* NAN when no node */
    /* per-request end-to-end latency, truth against inferred instances
     * (score_latency_compute; vPath Figure 11): Kolmogorov-Smirnov
     * distance and the two medians in seconds; NAN until computed, or
     * without an assignment table */
    double latency_ks, latency_true_median, latency_inferred_median;
    /* the failure split (docs/metrics.md "The failure split"), with
     * has_messages: per request (true instance) correct / orphaned only /
     * mis-stitched, per message attached right / wrong / unattached */
    size_t req_correct, req_orphaned, req_misstitched;
    double correct_rate, orphaned_rate, misstitched_rate; /* over true
                                                             instances */
    size_t msgs_right, msgs_wrong, msgs_unattached;
    size_t msgs_abstained;    /* messages of true instances the result
                                 lists as abstentions (part of unattached) */
    double exact_ci_low, exact_ci_high;  /* 95 % bootstrap interval of
                                            exact_accuracy over requests;
                                            NAN when unknown */
    /* precision-coverage, when the result has a confidence column */
    int has_conf;
    double coverage_p99, coverage_p999;  /* largest coverage at precision
                                            >= 0.99 / 0.999 over every
                                            min_confidence; NAN without
                                            confidences */
    score_cov_point *cov;     /* the curve, by increasing min_confidence
                                 (thinned: see score_write_coverage) */
    size_t ncov;
    /* the reliability table (score_write_reliability): per bin of stated
     * confidence [score_rel_edges[b], score_rel_edges[b+1]) (the last bin
     * closed), the rows of true instances' messages with a confidence,
     * how many of them are right (their inferred instance's owner is their
     * true instance: docs/metrics.md "The failure split"), and the sum of
     * their confidences; all with no abstention */
    size_t rel_rows[SCORE_REL_BINS], rel_right[SCORE_REL_BINS];
    double rel_csum[SCORE_REL_BINS];
    /* link accuracy (score_links_compute), when the result has parents */
    int has_links;
    size_t links_right, links_scored;
    double link_accuracy;     /* links_right / links_scored, NAN unknown */
    /* the assumption meters of the truth trace (metrics/assume.h), filled
     * by the caller; NAN when the trace lacks thread / sthread */
    double immediacy, thread_pattern;
    score_entry *entries;     /* true patterns first (in true rank order),
                                 then inferred-only ones (in inferred order) */
    size_t nentries;
    size_t *true_rank, *inf_rank;  /* entry indices in ranking order */
    size_t ntrue_rank, ninf_rank;
} score_report;

/* The end-to-end latency distribution of the requests of r (its inferred
 * instances, over the messages of trace t) against that of t's true path
 * instances: fills rep->latency_ks and the two medians (docs/metrics.md).
 * Returns PB_OK or PB_ENOMEM. */
int score_latency_compute(score_report *rep, const pb_trace *t,
                          const score_result *r, pb_error *err);

/* Kolmogorov-Smirnov distance between two sorted samples: the largest gap
 * between their empirical distribution functions; NAN when one is empty. */
double score_ks_distance(const double *a, size_t na, const double *b, size_t nb);

/* Compare result r with the truth tv (built in r's view).  *out is owned by
 * the caller (score_report_close); it borrows strings from tv and r, which
 * must outlive it.  Returns PB_OK; PB_ENOENT when the result names a
 * message id the truth trace lacks (err names the result file and line);
 * PB_ENOMEM. */
int score_compute(const tv_truth *tv, const score_result *r,
                  const score_opts *o, score_report **out, pb_error *err);

/* TraceWeaver's end-to-end accuracy (docs/metrics.md "tw_accuracy"), as
 * the artifact's GetGroundTruth and AccuracyEndToEnd count it: only nodes
 * that make calls and receive calls from exactly one caller node are
 * scored; at a scored node, each incoming call's entry for an endpoint
 * (callee) is the latest outgoing call to it ascribed to the same
 * inferred instance (none if none), its true entry the first call to it
 * of the same path (none if none); a request (path label) is right when
 * every entry of every incoming call of it at every scored node is right.
 * t: the truth trace (with truth columns) rep was computed against; r the
 * result.  Fills rep->tw_*; leaves tw_accuracy NAN when r ascribes no
 * messages or no request reaches a scored node.  Inferred instances of
 * patterns dropped by rep->opts.min_instances count as not ascribed.
 * Returns PB_OK, PB_EINVAL (t has no path column), PB_ENOMEM. */
int score_tw_compute(score_report *rep, const pb_trace *t,
                     const score_result *r, pb_error *err);

/* Link accuracy (docs/metrics.md "Link accuracy"): the share of the
 * messages of tv's true instances whose parent in the result is their
 * true parent (their cause in t when it is in the same path, else none;
 * with a kept mask, the nearest surviving cause).  A message not attached
 * (absent, abstained, or of a pattern dropped by -m) is never right.
 * Fills rep->has_links, links_*, link_accuracy; leaves them empty (NAN)
 * when r has no parent column.  t: the truth trace tv was built from.
 * Returns PB_OK, PB_ENOENT (a parent id the trace lacks; err names the
 * result file and line), PB_EINVAL (t has no truth), PB_ENOMEM. */
int score_links_compute(score_report *rep, const pb_trace *t,
                        const tv_truth *tv, const score_result *r,
                        pb_error *err);

/* The precision-coverage curve as CSV with a header: min_confidence,
 * coverage, precision, msgs_right, msgs_wrong, msgs_unattached,
 * requests_correct, requests_orphaned, requests_misstitched; one row per
 * point of rep->cov.  Writes only the header when the result has no
 * confidence column. */
void score_write_coverage(FILE *fp, const score_report *rep);

/* The bins of the reliability table: SCORE_REL_BINS + 1 edges, 0 .. 1. */
extern const double score_rel_edges[SCORE_REL_BINS + 1];

/* The reliability table as CSV with a header: conf_low, conf_high, rows,
 * mean_confidence, right, fraction_right (of the bin), rows_at_or_above,
 * fraction_right_at_or_above (every row with a confidence of at least
 * conf_low), calibrated (1 when fraction_right_at_or_above >= conf_low, 0
 * when not, empty without rows); one row per bin of score_rel_edges.
 * Writes only the header when the result has no confidence column. */
void score_write_reliability(FILE *fp, const score_report *rep);

/* The messages of truth that survive in `kept`, a lossy copy of it (a
 * sniffer's output, the trace the result was inferred from), for
 * tv_build_kept: *mask (owned by the caller, free()) has one byte per
 * truth->msgs entry, 1 when a message with its id is in kept.  Checks that
 * kept is that copy: every id of kept is in truth, with the same sender,
 * receiver and type.  kept_name names kept in messages.  Returns PB_OK;
 * PB_ENOENT / PB_EINVAL with err naming kept and the message id and what
 * was expected; PB_ENOMEM. */
int score_kept_mask(const pb_trace *truth, const pb_trace *kept,
                    const char *kept_name, unsigned char **mask, pb_error *err);

/* Free a report (not the truth or result it borrows from).  NULL-safe. */
void score_report_close(score_report *rep);

/* True top-N patterns missing from the inferred top N (Figure 17), and
 * how many of them remain with tolerance tol percent. */
void score_topn(const score_report *rep, size_t n, double tol,
                size_t *missing, size_t *missing_tol);

/* Write the CSV header line / the row (columns: docs/metrics.md).  The
 * row's top-N columns use opts.topn and the first tolerance. */
void score_write_header(FILE *fp, const score_report *rep);
void score_write_row(FILE *fp, const score_report *rep);

/* Write the top-N curve for N = 1 .. max(true patterns, 1) as CSV with a
 * header: n, missing, fn_rate, then missing_tT, fn_rate_tT per
 * tolerance. */
void score_write_curve(FILE *fp, const score_report *rep);

/* Readable text form of the report. */
void score_write_text(FILE *fp, const score_report *rep);

#endif
