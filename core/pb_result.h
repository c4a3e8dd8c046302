/*
 * pb_result.h - what an inference algorithm produces, and the result file
 * that carries it to the scorer.
 *
 * Result file (text, one file per run):
 *
 *   # pathbench-result 1
 *   # algo=nesting view=call trace=t.csv messages=123
 *   # params: x=2 y=0 ...          (the algorithm's option values)
 *   # ...                           (more "# key=value" lines: counters)
 *   # table=patterns
 *   rank,pattern,count,score,max_prob,total_latency,mean_latency,node_latency,edge_delay
 *   1,A>B[C],10,10,1,1.5,0.15,0.1;0.05;0.02,;0.01;0.02
 *   # table=assignment               (only when messages were ascribed)
 *   id,instance,rank
 *   17,3,1
 *   # end patterns=1 assignments=1   (always the last line)
 *
 * pattern is canonical text (CSV-quoted when needed); count is the raw
 * instance count; score the expected count (linking) or the count; times
 * are seconds; node_latency and edge_delay are ';'-separated weighted means
 * per canonical pre-order position (empty where unknown); meanings per view:
 * README "Result files".  In the assignment table, `instance` is an id
 * unique within the file and `rank` the rank of that instance's pattern.
 * The end line counts the rows of both tables, so that a reader can tell a
 * whole file from a cut one.  `infer` also writes a "# fingerprint:
 * messages=N ids=HEX" line (pb_fingerprint) so that the scorer can tell
 * whether the truth trace is the one the result was inferred from.
 */
#ifndef PB_RESULT_H
#define PB_RESULT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pb_error.h"
#include "pb_pattab.h"
#include "pb_strbuf.h"
#include "pb_trace.h"

/* 16 bytes: one per ascribed message, so it is kept small. */
typedef struct pb_assign {
    uint64_t id;        /* message id */
    uint32_t instance;  /* path instance id */
    uint32_t pattern;   /* pb_pattern.index of the instance's pattern */
} pb_assign;

typedef struct pb_result {
    const char *algo;    /* static string, e.g. "nesting" */
    const char *view;    /* "call", "message" or "path" */
    pb_pattab *patterns; /* owned */
    pb_rank_by rank_by;  /* how the writer ranks patterns */
    pb_assign *assign;   /* owned; may be empty */
    size_t nassign, assign_cap;
    pb_strbuf meta;      /* extra metadata, "key=value" lines joined by '\n' */
    pb_strbuf dot;       /* optional Graphviz text */
    pb_strbuf report;    /* optional human-readable text (e.g. Figure 9) */
    int skip_assign;     /* set by the caller when the assignment table will
                            not be written (infer --no-assign): algorithms
                            may then leave pb_result_assign out and save
                            its memory (24 bytes a message) */
    FILE *assign_spool;  /* owned, or NULL: with pb_result_spool_assign the
                            assignment rows go to this temporary file (in
                            the order added) instead of memory; `assign`
                            stays empty, nassign counts them */
} pb_result;

/* Initialize an empty result (allocates the pattern table).  Returns PB_OK
 * or PB_ENOMEM. */
int pb_result_init(pb_result *r, const char *algo, const char *view);

/* Keep the assignment table in a temporary file from now on (call before
 * the first pb_result_assign): memory then does not grow with the trace
 * (sliding-window nesting).  pb_result_write reads it back.  Returns PB_OK
 * or PB_EIO (no temporary file). */
int pb_result_spool_assign(pb_result *r);

/* Free everything the result owns.  NULL-safe; safe after a failed init. */
void pb_result_free(pb_result *r);

/* Record that message msg_id belongs to instance `instance` whose pattern
 * has pb_pattern.index `pattern`.  Returns PB_OK, PB_ENOMEM, or PB_ERANGE
 * when instance does not fit in 32 bits. */
int pb_result_assign(pb_result *r, uint64_t msg_id, uint64_t instance,
                     uint32_t pattern);

/* Append one "key=value" metadata line (printf-style). */
int pb_result_meta(pb_result *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* A trace's fingerprint: its message count and an order-independent
 * 64-bit hash of its messages' ids, sender and receiver names and types
 * (a sum over messages, so a shuffled trace has the same fingerprint, and
 * so does a skewed copy: timestamps do not enter). */
typedef struct pb_fingerprint {
    uint64_t messages;
    uint64_t ids;
} pb_fingerprint;

/* Fingerprint of msgs[0..n), whose node indices name entries of nodes.
 * Returns PB_OK or PB_ENOMEM. */
int pb_fingerprint_of(const pb_msg *msgs, size_t n, const pb_strtab *nodes,
                      pb_fingerprint *out);

/* Format as "fingerprint: messages=N ids=HHHHHHHHHHHHHHHH" into buf (size
 * n, 64 bytes are enough).  Returns buf. */
char *pb_fingerprint_format(const pb_fingerprint *fp, char *buf, size_t n);

/* Parse the text after "fingerprint:" (leading spaces allowed).  Returns
 * PB_OK or PB_EPARSE. */
int pb_fingerprint_parse(const char *s, pb_fingerprint *out);

/* Append a warning for the user (a cap, a fallback or a guess that changed
 * the result) as the metadata line "warning: ALGO: text" (printf-style);
 * the library never prints, infer copies such lines to stderr.  Returns
 * PB_OK or PB_ENOMEM. */
int pb_result_warn(pb_result *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Rank the patterns (by r->rank_by) and write the result file.  head:
 * metadata lines written first after the version line (without "# "), e.g.
 * "algo=... view=... trace=...", "params: ...".  with_assign: write the
 * assignment table when there is one.  Ends with the "# end" line.
 * Returns PB_OK or PB_EIO. */
int pb_result_write(FILE *fp, pb_result *r, const char *const *head,
                    size_t nhead, int with_assign, pb_error *err);

#endif
