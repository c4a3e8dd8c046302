/*
 * score_query.h - `score --query`: Pivot Tracing queries (pq.h) answered
 * over the truth and over results, and the answer error (docs/metrics.md
 * "Queries").
 */
#ifndef SCORE_QUERY_H
#define SCORE_QUERY_H

#include <stddef.h>
#include <stdio.h>

#include "pb_error.h"
#include "pb_trace.h"
#include "pq.h"
#include "score.h"

/* The truth side: the trace's requests (path) and cause links, and the
 * truth's answers, computed once per query and mode and kept. */
typedef struct score_query_truth score_query_truth;

/* Prepare the truth side of trace t (loaded with its truth; borrowed, must
 * outlive the returned object) for nqueries queries.  A cause naming no
 * message of t counts as no parent.  Returns PB_OK or PB_ENOMEM. */
int score_query_truth_init(const pb_trace *t, size_t nqueries,
                           score_query_truth **out, pb_error *err);

/* Free.  NULL-safe. */
void score_query_truth_close(score_query_truth *s);

/* One query against one result. */
typedef struct score_query_row {
    const pq_answer *truth;   /* owned by the score_query_truth */
    pq_answer *result;        /* owned by the row (score_query_rows_free) */
    int hb_parent;            /* 1: along parent links; 0: approximation */
    pq_diff diff;
} score_query_row;

/* Answer queries qs[0..nq) over result r, filling rows[0..nq).  Every
 * message id of r must be in the trace.  A result
 * with a parent column is judged along parent links, against the truth's
 * cause links; one without, under the approximation for both.  Returns
 * PB_OK, PB_EINVAL (an id or a parent naming no message, or a cycle) or PB_ENOMEM;
 * on error the rows filled so far are still freed by
 * score_query_rows_free. */
int score_query_run(score_query_truth *s, pq_query *const *qs, size_t nq,
                    const score_result *r, score_query_row *rows,
                    pb_error *err);

/* Free the result answers of rows[0..n).  NULL-safe. */
void score_query_rows_free(score_query_row *rows, size_t n);

/* CSV: the header line, and one row per (result, query). */
void score_query_write_header(FILE *fp);
void score_query_write_row(FILE *fp, const score_result *r, const pq_query *q,
                           const score_query_row *row);

/* Readable: both answers side by side, then the three numbers. */
void score_query_write_text(FILE *fp, const score_result *r, const pq_query *q,
                            const score_query_row *row);

#endif
