/*
 * pq.h - Pivot Tracing's queries (SOSP'15, 3, Table 1) over message
 * traces: what users compute from paths, asked of the truth and of an
 * inferred result alike, so that the error of the *answer* can be scored
 * (docs/metrics.md "Queries" has the grammar and Q1-Q7 rewritten in it).
 *
 * Events: every message of the trace gives two, its send (at src, time ts,
 * sender's clock) and its receipt (at dst, time recv_ts, or ts when the
 * receipt was not observed).  Exported values per event: host, peer,
 * event ("send" / "recv"), type, time (seconds), latency (a call's events:
 * its return's receipt minus its send, both on the caller's clock, the
 * return found by call id; empty without call ids), attr, size, id.
 *
 * Happened-before (x -> y): within one request, x causally precedes y.
 * With parent links (the truth's `cause`, a result's `parent`): the
 * message of x is a proper ancestor of y's message, or x is the send and y
 * the receipt of one message.  Without parent links (pq_causal.parent
 * NULL): the approximation "same request, x earlier than y" (times compared
 * as written, each on its own host's clock; for a receipt, its own send is
 * always earlier), applied to the truth and the result alike.
 */
#ifndef PQ_H
#define PQ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pb_error.h"
#include "pb_trace.h"

typedef struct pq_query pq_query;

/* Parse one query.  text: the query (NUL-terminated); name: what errors
 * call it (a file name, or "query"); line0: the line of text's first
 * character in that file (1 for a query on the command line).  Errors give
 * the line and column in the text and what was expected.  *out is owned by
 * the caller (pq_close).  Returns PB_OK, PB_EPARSE or PB_ENOMEM. */
int pq_parse(const char *text, const char *name, long line0, pq_query **out,
             pb_error *err);

/* A query's name ("Q3" for "Q3: From ..."), or "" when it has none. */
const char *pq_name(const pq_query *q);

/* The query as canonical text (one line), for output.  Owned by q. */
const char *pq_text(const pq_query *q);

/* Rewrite q as Pivot Tracing's optimizer does (Table 3): every conjunct of
 * Where that names one variable whose source has no temporal filter moves
 * into that source's filter, so it is applied before the join.  The answer
 * must not change (a property test checks it).  Returns PB_OK or
 * PB_ENOMEM. */
int pq_push_selection(pq_query *q);

/* Free.  NULL-safe. */
void pq_close(pq_query *q);

/* Whether the trace (its PB_COL_* columns; named trace in the message) has
 * the columns q's fields read: size, attr, and call ids for latency.  A
 * field without its column is empty on every event, and the answers of
 * the truth and of any result are then both empty and scored as equal.
 * Returns PB_OK, or PB_EINVAL naming the query's line and column where
 * the field is first named. */
int pq_check_fields(const pq_query *q, unsigned columns, const char *trace, pb_error *err);

/* Parse a list of queries from a file (or "-" for stdin): queries are
 * separated by blank lines or ';', '#' starts a comment line.  *out is an
 * array of *n queries owned by the caller (pq_list_close).  Returns PB_OK,
 * PB_EIO, PB_EPARSE (naming file, line, column) or PB_ENOMEM. */
int pq_parse_file(const char *path, pq_query ***out, size_t *n, pb_error *err);

/* Parse a list of queries from text (as pq_parse_file); name for errors. */
int pq_parse_list(const char *text, const char *name, pq_query ***out,
                  size_t *n, pb_error *err);

/* Free a list from pq_parse_file / pq_parse_list.  NULL-safe. */
void pq_list_close(pq_query **qs, size_t n);

/* The request structure an answer is computed over, parallel to
 * trace->msgs: request[i] is the request (path instance) of message i, or
 * PB_ID_NONE when unattached; parent[i] the index of the message that
 * caused message i, or -1 (a root, or unknown); parent NULL means no
 * parent links (the approximation). */
typedef struct pq_causal {
    const uint64_t *request;
    const int64_t *parent;
    /* optional, for error messages: the file the parent links were read
     * from and, per message, the line of its row there (0: none); both
     * may be NULL */
    const char *file;
    const long *line;
} pq_causal;

/* A grouped answer: ngroups rows of nkeys key texts and nvals values. */
typedef struct pq_answer {
    size_t ngroups, nkeys, nvals;
    char **keys;          /* [ngroups * nkeys], owned */
    double *vals;         /* [ngroups * nvals]; NAN = no value (AVERAGE,
                             MIN, MAX of nothing) */
    char **colnames;      /* [nkeys + nvals], owned */
    uint64_t tuples;      /* joined tuples that passed Where */
} pq_answer;

/* Evaluate q over trace t (its msgs and names) under the request
 * structure c.  Groups come out sorted by their key texts.  Parent links
 * that form a cycle are an error.  *out is owned by the caller
 * (pq_answer_close).  Returns PB_OK, PB_EINVAL (cycle; err names the
 * message id) or PB_ENOMEM. */
int pq_eval(const pq_query *q, const pb_trace *t, const pq_causal *c,
            pq_answer **out, pb_error *err);

/* pq_eval with a bound on the work: the joins may look at most max_steps
 * events (pq_eval: 2e9, about 16 CPU s); past it the evaluation stops and
 * returns PB_ERANGE (err says so and how to bound the query), never a cut
 * answer.  Each Join without a temporal filter multiplies the work by the
 * events before its bound event. */
int pq_eval_max(const pq_query *q, const pb_trace *t, const pq_causal *c,
                uint64_t max_steps, pq_answer **out, pb_error *err);

/* Free.  NULL-safe. */
void pq_answer_close(pq_answer *a);

/* How far answer b (from a result) is from answer a (from the truth),
 * on the first value column: the total-variation distance between the two
 * answers normalized to sum 1 (0.5 * sum |a_g/A - b_g/B| over the union of
 * groups, on absolute values; 0 when both are empty), the largest relative
 * error of a group (|b_g - a_g| / |a_g|, a group missing on one side
 * counting as 0; INFINITY when a_g = 0 and b_g != 0), and whether the top
 * group (largest value, ties to the smallest key) is the same. */
typedef struct pq_diff {
    double tv;
    double max_rel;
    int top_same;
    size_t top_a, top_b;  /* group index in a / b, or SIZE_MAX when empty */
} pq_diff;

void pq_compare(const pq_answer *a, const pq_answer *b, pq_diff *out);

/* Print both answers side by side as text (groups of either side, the
 * truth's value, the result's value).  Returns PB_OK or PB_EIO. */
int pq_answer_print_pair(FILE *fp, const pq_answer *a, const pq_answer *b);

#endif
