/*
 * pb_trace.h - the message trace of DESIGN.md: reading (streaming, CSV
 * through libcsv, or the Project 5 whitespace format), writing, and an
 * in-memory trace for algorithms.
 *
 * Truth (`path`, `cause`) travels in a separate pb_truth record, never in
 * pb_msg, so an algorithm handed a pb_trace_view cannot reach it.
 */
#ifndef PB_TRACE_H
#define PB_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pb_error.h"
#include "pb_strtab.h"
#include "pb_time.h"

#define PB_ID_NONE UINT64_MAX

/* Labels (callid, path): opaque strings in files.  A canonical decimal
 * integer below 2^63 is stored as its value; anything else is interned in
 * pb_names.labels and stored as index | PB_LABEL_STRING. */
#define PB_LABEL_STRING (1ULL << 63)

typedef enum pb_msg_type {
    PB_TYPE_MSG = 0,
    PB_TYPE_CALL = 1,
    PB_TYPE_RETURN = 2
} pb_msg_type;

/* One message, as an algorithm sees it.  48 bytes (PB_MSG_BYTES): the
 * optional observed columns (thread, sthread, conn, attr, size) are not
 * here but in a pb_obs side array, allocated only for a trace that has
 * them (pb_trace.obs, pb_trace_view.obs; read them with pb_obs_thread and
 * its siblings below). */
typedef struct pb_msg {
    uint64_t id;      /* unique message id */
    pb_ns ts;         /* send time, sender's clock */
    pb_ns recv_ts;    /* receive time, receiver's clock, or PB_TS_NONE */
    uint64_t callid;  /* label pairing call and return, or PB_ID_NONE */
    uint32_t src;     /* node index in pb_names.nodes */
    uint32_t dst;
    uint8_t type;     /* pb_msg_type */
} pb_msg;

/* The size of pb_msg, checked at compile time (core/pb_trace.c) and by
 * test_trace_io: what reading a trace costs per message without the
 * optional columns. */
#define PB_MSG_BYTES 48

/* pb_obs.size when unknown (the column is absent or the field empty). */
#define PB_SIZE_NONE UINT32_MAX

/* The optional observed columns of one message (20 bytes), kept apart
 * from pb_msg so that a trace without them does not pay for them.  An
 * absent array (NULL) means every message has the values of PB_OBS_NONE. */
typedef struct pb_obs {
    uint32_t thread;  /* column `thread`: the thread of dst that received the
                         message (served the call, or received the return),
                         as index + 1 of its text in pb_names.labels; 0 =
                         unknown */
    uint32_t sthread; /* column `sthread`: the thread of src that sent it;
                         same encoding as thread */
    uint32_t conn;    /* column `conn`: the connection it travels on (a call
                         and its return share one; ids may be reused); same
                         encoding as thread */
    uint32_t attr;    /* column `attr`: what a protocol-aware observer sees
                         (operation, URL class); same encoding as thread */
    uint32_t size;    /* column `size`: payload bytes, or PB_SIZE_NONE */
} pb_obs;

/* The values of a message whose columns are absent or empty. */
#define PB_OBS_NONE ((pb_obs){0, 0, 0, 0, PB_SIZE_NONE})

/* Accessors: message i's observed values in a side array parallel to the
 * messages (pb_trace.obs or pb_trace_view.obs), which may be NULL (then 0,
 * or PB_SIZE_NONE for size). */
static inline uint32_t pb_obs_thread(const pb_obs *o, size_t i)
{
    return o ? o[i].thread : 0;
}
static inline uint32_t pb_obs_sthread(const pb_obs *o, size_t i)
{
    return o ? o[i].sthread : 0;
}
static inline uint32_t pb_obs_conn(const pb_obs *o, size_t i)
{
    return o ? o[i].conn : 0;
}
static inline uint32_t pb_obs_attr(const pb_obs *o, size_t i)
{
    return o ? o[i].attr : 0;
}
static inline uint32_t pb_obs_size(const pb_obs *o, size_t i)
{
    return o ? o[i].size : PB_SIZE_NONE;
}
/* All five of message i (PB_OBS_NONE when o is NULL). */
static inline pb_obs pb_obs_get(const pb_obs *o, size_t i)
{
    return o ? o[i] : PB_OBS_NONE;
}
/* 1 when *o holds some known value (differs from PB_OBS_NONE). */
static inline int pb_obs_known(const pb_obs *o)
{
    return o->thread || o->sthread || o->conn || o->attr ||
           o->size != PB_SIZE_NONE;
}

/* Ground truth of one message. */
typedef struct pb_truth {
    uint64_t path;    /* label of the path instance, or PB_ID_NONE */
    uint64_t cause;   /* id of the causing message, or PB_ID_NONE */
} pb_truth;

/* Interned names shared by readers, traces and writers. */
typedef struct pb_names {
    pb_strtab *nodes;   /* node names -> uint32 */
    pb_strtab *labels;  /* non-numeric callid / path strings */
} pb_names;

/* Create / free a names bundle.  pb_names_close is NULL-safe. */
int pb_names_init(pb_names **out);
void pb_names_close(pb_names *names);

/* Turn label text into its uint64 form (interning when not numeric); empty
 * text gives PB_ID_NONE.  Returns PB_OK or PB_ENOMEM. */
int pb_label_parse(pb_names *names, const char *s, size_t len, uint64_t *out);

/* Write a label's text into buf (size n); PB_ID_NONE gives "".  Returns the
 * length written (truncated to n-1). */
size_t pb_label_format(const pb_names *names, uint64_t label, char *buf,
                       size_t n);

/* Column set: which columns a file has / a writer writes. */
enum {
    PB_COL_ID = 1u << 0,
    PB_COL_TS = 1u << 1,
    PB_COL_RECV_TS = 1u << 2,
    PB_COL_SRC = 1u << 3,
    PB_COL_DST = 1u << 4,
    PB_COL_TYPE = 1u << 5,
    PB_COL_CALLID = 1u << 6,
    PB_COL_PATH = 1u << 7,
    PB_COL_CAUSE = 1u << 8,
    PB_COL_THREAD = 1u << 9,  /* optional observable columns: not in
                                 PB_COL_ALL (the nine columns every
                                 generator writes) */
    PB_COL_STHREAD = 1u << 10,
    PB_COL_CONN = 1u << 11,
    PB_COL_ATTR = 1u << 12,
    PB_COL_SIZE = 1u << 13,
    PB_COL_OBSERVED = PB_COL_THREAD | PB_COL_STHREAD | PB_COL_CONN |
                      PB_COL_ATTR | PB_COL_SIZE,
    PB_COL_REQUIRED = PB_COL_TS | PB_COL_SRC | PB_COL_DST,
    PB_COL_TRUTH = PB_COL_PATH | PB_COL_CAUSE,
    PB_COL_ALL = 0x1ff
};

/* Text of a message's thread label (pb_obs.thread), or "" when unknown.
 * Serves every label column stored as index + 1 (thread, sthread, conn,
 * attr). */
const char *pb_thread_name(const pb_names *names, uint32_t thread);

/* Intern label text for the thread / sthread / conn / attr columns: sets
 * *out to index + 1 in names->labels, or 0 for empty text.  Returns PB_OK or
 * PB_ENOMEM. */
int pb_obs_label(pb_names *names, const char *s, size_t len, uint32_t *out);

/* Name of one PB_COL_* bit ("recv_ts"), or NULL. */
const char *pb_column_name(unsigned col);

typedef enum pb_format {
    PB_FORMAT_AUTO = 0, /* CSV if the first data line has a comma */
    PB_FORMAT_CSV = 1,
    PB_FORMAT_P5 = 2    /* "timestamp operation sender rcvr ID" (seed 000, 6.5) */
} pb_format;

typedef struct pb_reader_opts {
    pb_format format;
    int ignore_unknown_columns; /* else an unknown column is an error */
    int allow_unsorted;         /* else a row earlier than the one before is an error */
    int allow_negative_ts;      /* else a negative timestamp is an error */
    int allow_empty;            /* else a file with no messages is an error */
    int check_ids;              /* duplicate ids and dangling causes are errors;
                                   costs ~16 bytes per message while reading */
    int allow_dangling_causes;  /* with check_ids: a cause naming no message of
                                   the trace is accepted (a lossy trace: the
                                   sniffer dropped the cause); duplicate ids
                                   are still errors */
} pb_reader_opts;

/* Defaults: AUTO format, strict everything, check_ids on. */
void pb_reader_opts_default(pb_reader_opts *opts);

typedef struct pb_reader pb_reader;

/* Open a streaming reader on path ("-" or NULL = stdin).  names: the bundle
 * to intern into (borrowed, must outlive the reader), or NULL for the reader
 * to own one (see pb_reader_names).  opts may be NULL for defaults.  Reads
 * the metadata lines and the header before returning.
 * Returns PB_OK, PB_EIO, PB_EPARSE (bad header), PB_ENOMEM. */
int pb_reader_open(pb_reader **out, const char *path, pb_names *names,
                   const pb_reader_opts *opts, pb_error *err);

/* Same on an open stream (not closed by the reader); display_name is used in
 * error messages. */
int pb_reader_open_fp(pb_reader **out, FILE *fp, const char *display_name,
                      pb_names *names, const pb_reader_opts *opts,
                      pb_error *err);

/* Next message in file order.  truth may be NULL.  Returns 1 with *msg
 * filled, 0 at end of input, or a negative pb_status with err filled (file,
 * line, field number and what was expected).  After an error the reader
 * stays in error. */
int pb_reader_next(pb_reader *r, pb_msg *msg, pb_truth *truth, pb_error *err);

/* Same, also giving the message's optional observed columns in *obs (may
 * be NULL; PB_OBS_NONE for columns the file lacks).  A program that copies
 * messages from a reader to a writer passes obs on to pb_writer_write_obs,
 * or the copy loses those columns. */
int pb_reader_next_obs(pb_reader *r, pb_msg *msg, pb_obs *obs,
                       pb_truth *truth, pb_error *err);

/* The columns present in the input (PB_COL_* bits). */
unsigned pb_reader_columns(const pb_reader *r);

/* Metadata lines ("# key=value ..." before the header), without the leading
 * "#" and one following space.  Owned by the reader. */
size_t pb_reader_meta_count(const pb_reader *r);
const char *pb_reader_meta(const pb_reader *r, size_t i);

/* The names bundle the reader interns into (owned by the reader unless one
 * was passed to open). */
pb_names *pb_reader_names(pb_reader *r);

/* The input's name as errors give it ("(stdin)" for stdin).  Owned by the
 * reader. */
const char *pb_reader_name(const pb_reader *r);

/* Line number of the last message returned (1-based), for diagnostics. */
long pb_reader_line(const pb_reader *r);

/* Number of messages returned so far. */
size_t pb_reader_count(const pb_reader *r);

/* How many times read so far had digits past the nanosecond (a tenth
 * decimal or later that is not 0) and were read rounded to the nearest
 * nanosecond; *line and *col (either may be NULL) get the first one's
 * place, 0 when there is none.  The library does not print: a program
 * says it (pb_rounded_note). */
size_t pb_reader_rounded(const pb_reader *r, long *line, long *col);

/* For programs, as pb_error_print: when n > 0 times of `file` ("-" or
 * NULL: stdin) were read rounded to the nanosecond, the first at line:col,
 * print "prog: file:line:col: note: ..." on fp (a program says it even
 * when quiet: the rounding changed what it read).  Returns n. */
size_t pb_rounded_print(FILE *fp, const char *prog, const char *file, size_t n,
                        long line, long col);

/* Free the reader (and its names bundle if it owns it).  NULL-safe. */
void pb_reader_close(pb_reader *r);

/* ------------------------------------------------------------------ */
/* Writer */

typedef struct pb_writer pb_writer;

/* Start writing a trace to fp (not closed by the writer).  columns: which
 * columns to write (PB_COL_REQUIRED always included); names: for node and
 * label text (borrowed).  Nothing is written until the first message, the
 * first pb_writer_meta, or close. */
int pb_writer_open(pb_writer **out, FILE *fp, const char *display_name,
                   unsigned columns, const pb_names *names, pb_error *err);

/* Add a metadata line (written as "# line"; a line break inside it is
 * written as the two characters \\n or \\r, so it stays one line).  Only
 * before the first message.  Returns PB_OK, PB_ESTATE or PB_ENOMEM. */
int pb_writer_meta(pb_writer *w, const char *line);

/* Write one message.  truth may be NULL (truth columns then empty).
 * Returns PB_OK or PB_EIO. */
int pb_writer_write(pb_writer *w, const pb_msg *msg, const pb_truth *truth);

/* Same with the message's optional observed columns (obs may be NULL:
 * written as unknown, as by pb_writer_write).  Returns PB_OK or PB_EIO. */
int pb_writer_write_obs(pb_writer *w, const pb_msg *msg, const pb_obs *obs,
                        const pb_truth *truth);

/* Flush everything (writing the header if no message came) and free the
 * writer; does not close fp.  Returns PB_OK or PB_EIO.  NULL-safe. */
int pb_writer_close(pb_writer *w, pb_error *err);

/* ------------------------------------------------------------------ */
/* In-memory trace */

typedef struct pb_trace {
    pb_msg *msgs;       /* sorted by (ts, file order) */
    size_t n;
    size_t cap;         /* allocated entries of msgs (and truth) */
    pb_truth *truth;    /* parallel to msgs, or NULL */
    pb_obs *obs;        /* optional observed columns, parallel to msgs (cap
                           entries), or NULL when no message has a known
                           value (read with pb_obs_thread ...; owned) */
    pb_names *names;    /* owned */
    unsigned columns;   /* columns present in the source */
    char **meta;        /* metadata lines, owned */
    size_t nmeta;
    char *source;       /* file name it came from */
    size_t nrounded;    /* times read rounded to the ns (pb_reader_rounded) */
    long rounded_line, rounded_col; /* the first of them */
} pb_trace;

/* What an algorithm may see: no truth. */
typedef struct pb_trace_view {
    const pb_msg *msgs;
    size_t n;
    const pb_strtab *nodes;
    unsigned columns;   /* columns present (truth bits cleared) */
    const pb_obs *obs;  /* optional observed columns parallel to msgs, or
                           NULL (every message PB_OBS_NONE); borrowed.  A
                           view built by hand over a copy of messages must
                           copy (or offset) these with them */
} pb_trace_view;

/* For code that copies messages of a view into a view of its own (a
 * subset, a renumbered copy): room for n messages (at least 1) in one
 * block that free() releases, with room for their observed columns after
 * them when with_obs (pass v->obs != NULL), *obs pointing there (else
 * NULL).  Set the new view's obs to *obs.  Returns NULL when out of
 * memory. */
pb_msg *pb_msgs_alloc(size_t n, int with_obs, pb_obs **obs);

/* Copy message i of v to dst[k], and its observed columns to obs[k] when
 * obs is non-NULL. */
static inline void pb_view_copy(pb_msg *dst, pb_obs *obs, size_t k,
                                const pb_trace_view *v, size_t i)
{
    dst[k] = v->msgs[i];
    if (obs)
        obs[k] = pb_obs_get(v->obs, i);
}

/* Read a whole trace into memory.  with_truth: keep the truth columns (else
 * they are parsed, checked and dropped; a cause naming no message of the
 * trace is then accepted, as in a lossy trace).  With opts->allow_unsorted the rows
 * are re-sorted by (ts, id) as pb_trace_sort does; otherwise out-of-order rows are an
 * error.  Returns PB_OK or the reader's error. */
int pb_trace_load(const char *path, const pb_reader_opts *opts, int with_truth,
                  pb_trace **out, pb_error *err);

/* Empty trace with its own names bundle, for building in code. */
int pb_trace_new(pb_trace **out);

/* Append a message (and truth, which may be NULL).  The caller keeps the
 * order; call pb_trace_sort afterwards if unsure. */
int pb_trace_append(pb_trace *t, const pb_msg *msg, const pb_truth *truth);

/* Same with the message's optional observed columns (obs may be NULL for
 * PB_OBS_NONE).  The side array t->obs is allocated at the first obs with
 * a known value (earlier messages get PB_OBS_NONE).  Returns PB_OK or
 * PB_ENOMEM. */
int pb_trace_append_obs(pb_trace *t, const pb_msg *msg, const pb_obs *obs,
                        const pb_truth *truth);

/* The side array of observed columns, allocated (every message so far
 * PB_OBS_NONE) if the trace has none yet, for code that sets them after
 * appending: pb_trace_obs(t)[i].thread = ... for i < t->n.  Owned by t;
 * valid until the next append or sort.  Returns NULL only when out of
 * memory. */
pb_obs *pb_trace_obs(pb_trace *t);

/* Convenience for tests and generators: append a message naming nodes by
 * string.  recv_ts may be PB_TS_NONE; callid/path/cause PB_ID_NONE. */
int pb_trace_add(pb_trace *t, uint64_t id, pb_ns ts, pb_ns recv_ts,
                 const char *src, const char *dst, pb_msg_type type,
                 uint64_t callid, uint64_t path, uint64_t cause);

/* Sort by (ts, id), truth and observed columns with their messages; rows
 * equal in both keep their order.  Returns PB_OK
 * or PB_ENOMEM. */
int pb_trace_sort(pb_trace *t);

/* Add a metadata line (copied; a line break inside it becomes the two
 * characters \\n or \\r).  Returns PB_OK or PB_ENOMEM. */
int pb_trace_add_meta(pb_trace *t, const char *line);

/* Write the whole trace (its metadata, then rows) with the given columns;
 * columns 0 means t->columns. */
int pb_trace_write(const pb_trace *t, FILE *fp, unsigned columns,
                   pb_error *err);

/* The algorithm view of t. */
pb_trace_view pb_trace_view_of(const pb_trace *t);

/* Free.  NULL-safe. */
void pb_trace_close(pb_trace *t);

/* Type names "call", "return", "msg". */
const char *pb_type_name(int type);

#endif
