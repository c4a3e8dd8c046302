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
 *   id,instance,rank,parent,confidence   (parent, confidence optional)
 *   17,3,1,12,0.97
 *   18,,,,0.41                       (an abstention: left unattached)
 *   # end patterns=1 assignments=1   (always the last line)
 *
 * pattern is canonical text (CSV-quoted when needed); count is the raw
 * instance count; score the expected count (linking) or the count; times
 * are seconds; node_latency and edge_delay are ';'-separated weighted means
 * per canonical pre-order position (empty where unknown); meanings per view:
 * README "Result files".  In the assignment table, `instance` is an id
 * unique within the file and `rank` the rank of that instance's pattern.
 * The optional `parent` column holds the id of the message that caused
 * this one (the trace's `cause`: the message whose receipt by this
 * message's sender triggered it), empty when the message is a root or the
 * algorithm does not know; `confidence` is a number in [0, 1] (how sure
 * the algorithm is of the row's attachment; its meaning is the
 * algorithm's, docs), empty when unknown.  An *abstention* is a row with
 * an empty `instance` and an empty `rank` (and an empty `parent`): the
 * algorithm leaves the message unattached, and score counts it as
 * orphaned, never as right.  The end line's assignment count counts
 * abstentions too.  Files without the two columns are read as before.
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

/* 16 bytes: one per ascribed message, so it is kept small (parents and
 * confidences, when an algorithm gives them, live in parallel arrays). */
typedef struct pb_assign {
    uint64_t id;        /* message id */
    uint32_t instance;  /* path instance id; PB_ABSTAIN: left unattached */
    uint32_t pattern;   /* pb_pattern.index of the instance's pattern
                           (UINT32_MAX for an abstention) */
} pb_assign;

/* pb_assign.instance of an abstention (instance ids are below it). */
#define PB_ABSTAIN UINT32_MAX
/* "no parent": the message is a root, or its parent is unknown. */
#define PB_NO_PARENT UINT64_MAX

typedef struct pb_result {
    const char *algo;    /* static string, e.g. "nesting" */
    const char *view;    /* "call", "message" or "path" */
    pb_pattab *patterns; /* owned */
    pb_rank_by rank_by;  /* how the writer ranks patterns */
    pb_assign *assign;   /* owned; may be empty */
    size_t nassign, assign_cap;
    pb_strbuf meta;      /* extra metadata, "key=value" lines joined by '\n'
                            (with meta_spool: only the "warning: " lines) */
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
    uint64_t *parent;    /* owned, or NULL until the first row with links:
                            parent[i] of assign[i] (PB_NO_PARENT: none) */
    double *conf;        /* owned, or NULL: conf[i] of assign[i] (NAN:
                            unknown) */
    size_t link_cap;     /* capacity of parent and conf */
    int has_parent;      /* write the parent column (set by
                            pb_result_assign_link) */
    int has_conf;        /* write the confidence column (set when a row
                            gets a confidence) */
    double min_confidence; /* > 0: pb_result_assign_link turns a row whose
                              confidence is below it into an abstention
                              (the algorithm's -s min_confidence) */
    size_t nabstain;     /* abstentions among the nassign rows */
    FILE *meta_spool;    /* owned, or NULL: with pb_result_spool_meta the
                            metadata text goes to this temporary file (the
                            bytes `meta` would hold, in the order added)
                            and `meta` keeps only its "warning: " lines */
    size_t meta_spooled; /* bytes written to meta_spool */
} pb_result;

/* Initialize an empty result (allocates the pattern table).  Returns PB_OK
 * or PB_ENOMEM. */
int pb_result_init(pb_result *r, const char *algo, const char *view);

/* Keep the assignment table in a temporary file from now on (call before
 * the first pb_result_assign): memory then does not grow with the trace
 * (sliding-window nesting).  pb_result_write reads it back.  Returns PB_OK
 * or PB_EIO (no temporary file). */
int pb_result_spool_assign(pb_result *r);

/* Keep the metadata text in a temporary file from now on (the lines
 * already added move there first): an algorithm whose metadata grows with
 * the trace (a line per service or link) then does not hold it in memory
 * beside its own state.  pb_result_write copies it back, the same lines in
 * the same order.  From then on r->meta holds only the metadata's lines
 * that begin with "warning: " (pb_result_warn's, for the caller to show),
 * joined by '\n' as before.  Calling it again does nothing.  Returns PB_OK,
 * or PB_EIO (no temporary file: the text stays in memory, nothing else
 * changes) or PB_ENOMEM. */
int pb_result_spool_meta(pb_result *r);

/* Free everything the result owns.  NULL-safe; safe after a failed init. */
void pb_result_free(pb_result *r);

/* Record that message msg_id belongs to instance `instance` whose pattern
 * has pb_pattern.index `pattern`.  Returns PB_OK, PB_ENOMEM, PB_EIO
 * (spool), or PB_ERANGE when instance is not below PB_ABSTAIN. */
int pb_result_assign(pb_result *r, uint64_t msg_id, uint64_t instance,
                     uint32_t pattern);

/* Same, with what the algorithm knows of the link: `parent` is the id of
 * the message that caused msg_id (PB_NO_PARENT: a root, or unknown) and
 * `confidence` how sure the algorithm is of this attachment, in [0, 1]
 * (NAN: unknown; kept to 6 decimals, the value written and compared
 * with min_confidence).  The first call makes the result write the parent
 * column (so an algorithm that knows parents calls it for every row, roots
 * included); a confidence makes it write the confidence column.  A row
 * whose confidence is below r->min_confidence is recorded as an abstention
 * instead (pb_result_abstain, keeping the confidence).  Returns as
 * pb_result_assign, or PB_EINVAL for a confidence outside [0, 1]. */
int pb_result_assign_link(pb_result *r, uint64_t msg_id, uint64_t instance,
                          uint32_t pattern, uint64_t parent, double confidence);

/* Leave message msg_id unattached (an abstention: written with an empty
 * instance, rank and parent; score counts it as orphaned, never as right).
 * confidence: that of the attachment the algorithm declined, or NAN.
 * Returns PB_OK, PB_ENOMEM, PB_EIO (spool), PB_EINVAL (confidence outside
 * [0, 1]). */
int pb_result_abstain(pb_result *r, uint64_t msg_id, double confidence);

/* Append one "key=value" metadata line (printf-style).  Returns PB_OK,
 * PB_ENOMEM, or PB_EIO (writing the spool of pb_result_spool_meta). */
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

/* The per-name hashes a fingerprint is made of: nh[k] for the node names
 * k = first .. nn-1 of nodes (nh has room for nn; the caller owns it), so
 * a caller fingerprinting many pieces of one trace (sliding windows)
 * hashes each name once, not once a piece. */
void pb_fingerprint_names(const pb_strtab *nodes, uint32_t first, uint32_t nn, uint64_t *nh);

/* Fingerprint of msgs[0..n) from the name hashes nh[0..nn) that
 * pb_fingerprint_names made: the same as pb_fingerprint_of.  Fingerprints
 * of pieces add up (messages and ids summed) to the whole's. */
void pb_fingerprint_hashed(const pb_msg *msgs, size_t n, const uint64_t *nh, uint32_t nn,
                           pb_fingerprint *out);

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
