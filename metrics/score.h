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
    uint64_t instance;   /* instance id, unique within the file */
    size_t pattern;      /* index into score_result.pats */
    long line;
} score_assign;

typedef struct score_result {
    char *file;          /* name it was read from */
    char *algo, *view, *trace;  /* from the metadata; NULL when absent */
    score_pattern *pats;
    size_t npats;
    score_assign *assign;
    size_t nassign;
    int has_assign;      /* the file has an assignment table */
} score_result;

/* Read a result file (path; "-" = stdin).  *out is owned by the caller
 * (score_result_close).  Pattern texts are canonicalized, and their
 * per-node lists moved to canonical positions.  Returns PB_OK, PB_EIO, or
 * PB_EPARSE / PB_EDUP / PB_ENOENT with err naming file, line and what was
 * expected (for a malformed pattern also the character position in it). */
int score_result_read(const char *path, score_result **out, pb_error *err);

/* Same on an open stream (not closed); name is used in messages. */
int score_result_read_fp(FILE *fp, const char *name, score_result **out,
                         pb_error *err);

/* Free.  NULL-safe. */
void score_result_close(score_result *r);

/* ------------------------------------------------------------------ */
/* Scoring */

typedef enum score_rank_by { SCORE_RANK_COUNT = 0, SCORE_RANK_SCORE } score_rank_by;

#define SCORE_MAX_TOL 8

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
} score_opts;

/* Defaults: M 0, rank by count, N 10, tolerance 2%, inferred count. */
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
    size_t latency_nodes;
    double latency_error_median, latency_error_max;  /* NAN when no node */
    score_entry *entries;     /* true patterns first (in true rank order),
                                 then inferred-only ones (in inferred order) */
    size_t nentries;
    size_t *true_rank, *inf_rank;  /* entry indices in ranking order */
    size_t ntrue_rank, ninf_rank;
} score_report;

/* Compare result r with the truth tv (built in r's view).  *out is owned by
 * the caller (score_report_close); it borrows strings from tv and r, which
 * must outlive it.  Returns PB_OK; PB_ENOENT when the result names a
 * message id the truth trace lacks (err names the result file and line);
 * PB_ENOMEM. */
int score_compute(const tv_truth *tv, const score_result *r,
                  const score_opts *o, score_report **out, pb_error *err);

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
