/*
 * imp.h - import Jaeger, Zipkin v2 or OpenTelemetry (OTLP/JSON) traces into a
 * message trace with truth (DESIGN.md, "The message trace").  Inputs may be
 * files, folders of folders, compressed files and tar archives (libarchive).
 *
 * Every RPC of the span tree becomes a call (sent at the client span's
 * start, received at the server span's start) and a return (sent at the
 * server span's end, received at the client span's end).  Nodes are
 * services; a request entering a server span with no client span above it
 * is a call from the node "client", while a client-kind root span makes its
 * own service the spontaneous sender.  Truth: path = trace id, cause from the span tree.  Every
 * irregularity of real data (one-sided RPCs, missing parents, disagreeing
 * clocks, intra-service spans, ...) is handled by a documented rule and
 * counted in imp_stats; see docs/importer.md.
 *
 * Use: imp_init, then imp_add_path / imp_add_buffer for each input, then
 * imp_finish for the merged trace (all requests interleaved, sorted by ts).
 */
#ifndef IMP_H
#define IMP_H

#include <stddef.h>

#include "pb_error.h"
#include "pb_strbuf.h"
#include "pb_trace.h"

typedef enum imp_format {
    IMP_FORMAT_AUTO = 0,   /* by the shape of each document */
    IMP_FORMAT_JAEGER = 1, /* {"data":[{"traceID","spans","processes"}]} */
    IMP_FORMAT_ZIPKIN = 2, /* [span, ...] or [[span, ...], ...] (API v2) */
    IMP_FORMAT_OTLP = 3,   /* {"resourceSpans":[...]} (OTLP/JSON), one
                              document or one request object per line */
    IMP_FORMAT_EBPF = 4,   /* {"spans":[{"req":{...},"resp":{...}}]}: a
                              syscall-level capture of request/response
                              pairs (DeepTrace's eBPF agent) */
    IMP_FORMAT_CSV = 5     /* a span table, one span a row (imp_csv.c) */
} imp_format;

/* Thread emulations for span data (docs/importer.md, "Threads"). */
typedef enum imp_thread {
    IMP_THREAD_NONE = 0,   /* no thread column */
    IMP_THREAD_ORACLE = 1, /* thread = "TRACEID:SPANID" of the span that
                              handled the message at its receiver: one label
                              per visit, never reused (the truth's identity) */
    IMP_THREAD_POOL = 2,   /* a pool per service: each visit takes the lowest
                              free worker id ("w0", "w1", ...) for its span's
                              lifetime; thread and sthread */
    IMP_THREAD_LOOP = 3,   /* one event-loop thread per service ("loop") */
    IMP_THREAD_RANDOM = 4  /* each receipt and send on one of `threads`
                              threads of its service ("t0"...), drawn from a
                              GSL generator seeded with `seed` */
} imp_thread;

typedef struct imp_opts {
    imp_format format;
    int callid; /* fill callid ("TRACEID:SPANID" of the RPC); else empty */
    int thread; /* imp_thread: how to fill thread (and sthread).  Spans
                   carry no threads: every mode but none is an emulation,
                   named in the trace's metadata (# emulated=...) */
    unsigned threads;    /* IMP_THREAD_RANDOM: threads per service */
    unsigned long seed;  /* IMP_THREAD_RANDOM: GSL seed */
    const char *request_id; /* eBPF captures (--request-header): the header
                               whose value is the truth's path (NULL:
                               X-Request-Id; "traceparent" takes its trace
                               id) */
    int attr;   /* fill attr with the RPC's operation name (span CSV) */
    /* span CSV column mapping ("trace=TraceID,span=SpanID,...,unit=ns";
     * docs/importer.md); NULL = recognise Nezha's layout by its header.
     * Not copied: must outlive the importer. */
    const char *csv_map;
    size_t max_document; /* bytes one document (a file, a member, once
                            decompressed) may hold; 0 = IMP_MAX_DOCUMENT */
} imp_opts;

/* The default cap on one document's size once decompressed: 1 GiB.  A
 * document is read into memory whole; the cap keeps a small compressed
 * file (or a tar header that lies) from claiming any amount of memory. */
#define IMP_MAX_DOCUMENT ((size_t)1 << 30)

/* What the importer met, each counted; see imp_counter_help. */
typedef enum imp_counter {
    IMP_C_FILES,
    IMP_C_TRACES,
    IMP_C_SPANS,
    IMP_C_RPCS,
    IMP_C_MESSAGES,
    IMP_C_REQUESTS,
    IMP_C_SERVER_ONLY,
    IMP_C_CLIENT_ONLY,
    IMP_C_CALLEE_NOT_SERVER,
    IMP_C_MULTI_CALLEE,
    IMP_C_MISSING_PARENT,
    IMP_C_PARENT_CYCLE,
    IMP_C_EXTRA_ROOT,
    IMP_C_CLOCK_CALL,
    IMP_C_CLOCK_RETURN,
    IMP_C_INTRA_RPC,
    IMP_C_INTERNAL_SPAN,
    IMP_C_MULTI_PROCESS,
    IMP_C_NEGATIVE_DURATION,
    IMP_C_MISSING_DURATION,
    IMP_C_DUPLICATE_SPAN,
    IMP_C_SHARED_SPAN,
    IMP_C_FOLLOWS_FROM,
    IMP_C_SEVERAL_REFS,
    IMP_C_EARLY_CHILD,
    IMP_C_LATE_CHILD,
    IMP_C_CLIENT_ROOT,
    IMP_C_ROOT_FANOUT,
    IMP_C_NO_KIND_RPC,
    IMP_C_SKIPPED_FILES,
    IMP_C_KIND_CLIENT,
    IMP_C_KIND_TWO_SERVICES,
    IMP_C_KIND_OTHER,
    IMP_C_REPEATED_SPAN,
    IMP_C_NO_TIMESTAMP,
    IMP_C_ZIPKIN_FRAGMENT,
    IMP_C_CROSS_TRACE_REF,
    IMP_C_REPLACED_MEMBER, /* and after: in the metadata only when met */
    IMP_NCOUNTERS
} imp_counter;

typedef struct imp_stats {
    size_t count[IMP_NCOUNTERS];
    /* where each counter was first hit ("FILE: data[0].spans[3]"), or
     * NULL; owned by the importer */
    char *first[IMP_NCOUNTERS];
    /* one line per imp_add_path: how many files were read from where
     * ("3 files from traces/ (2 folders)"); owned by the importer, may be
     * NULL */
    const char *sources;
    /* span CSV: "SERVICE <- POD POD ...\n" lines, one per service whose pod
     * names were shortened; owned by the importer, may be NULL */
    const char *pods;
    /* after imp_finish: one warning (no newline) when a file's start times
     * look like an epoch in a unit 1000x, 1e6x or 1e9x coarser than its
     * format names (docs/importer.md, "Time units"), else NULL; owned by
     * the importer */
    const char *time_unit_warning;
    /* Jaeger query answers that hold traces and "errors" beside them (a
     * partial answer: the traces the query could not fetch are missing):
     * one warning (no newline) on the first such document, else NULL;
     * owned by the importer */
    const char *answer_warning;
    /* after imp_finish: one warning (no newline) when a service named
     * "client" is entered by an RPC and the node requests come from was
     * renamed (docs/importer.md), else NULL; owned by the importer */
    const char *client_warning;
} imp_stats;

typedef struct imp_importer imp_importer;

/* Defaults: AUTO format, no callid, no thread, no attr, no CSV map. */
void imp_opts_default(imp_opts *opts);

/* Create an importer.  opts may be NULL for defaults.
 * Returns PB_OK, PB_EINVAL (a bad csv_map: err says which key or value),
 * or PB_ENOMEM. */
int imp_init(imp_importer **out, const imp_opts *opts, pb_error *err);

/* Read one input: a JSON file or a span CSV (plain or compressed: gzip,
 * xz, zstd, bzip2; a CSV is told from JSON by its first line, a header
 * holding a comma, or by IMP_FORMAT_CSV;
 * read through libarchive), a tar archive (plain or compressed; its JSON
 * and CSV members in name order), a folder (recursively, entries in byte
 * order of name at every level: JSON and CSV files, compressed or not,
 * archives and subfolders; other entries are counted as skipped), or "-"
 * for stdin.
 * A file may hold several JSON documents one after the other (JSON Lines).
 * A folder reached again through a symbolic link (a loop) is refused.
 * Every document is checked before it is buffered: its first byte past
 * white space must open a JSON value, and it may hold at most
 * opts.max_document bytes once decompressed (PB_ERANGE, naming the file or
 * archive member).
 * Returns PB_OK; PB_EIO (cannot open or read, or a folder holding no JSON),
 * PB_EPARSE (malformed JSON, with line and column, or a document that is not
 * Jaeger / Zipkin / OTLP: the message names the JSON element and what was
 * expected), PB_ENOENT (a span
 * names a process that is not in "processes"), PB_ERANGE (a timestamp that
 * does not fit), PB_ENOMEM.  After an error the importer only accepts
 * imp_close (other calls return PB_ESTATE). */
int imp_add_path(imp_importer *im, const char *path, pb_error *err);

/* Same on a document in memory (len bytes, need not be NUL-terminated;
 * uncompressed JSON, one or more top-level values); name is used in
 * messages.  The big arrays ("data", "resourceSpans", a Zipkin list) are
 * parsed one element at a time, so memory holds one trace's JSON tree at a
 * time.  Returns as imp_add_path. */
int imp_add_buffer(imp_importer *im, const char *data, size_t len,
                   const char *name, pb_error *err);

/* Build the trace from everything added: messages sorted by ts; within one
 * ts a cause before its effect, then requests in order of their root
 * span's start (then trace id), each request's RPCs depth-first; ids 1..n
 * in that order, truth columns filled, metadata lines
 * describing the import and its counters.  *out is the caller's (free with
 * pb_trace_close).  Call once.  Returns PB_OK, PB_EPARSE (no spans at all),
 * PB_ESTATE (after an error or a second call), PB_ENOMEM. */
int imp_finish(imp_importer *im, pb_trace **out, pb_error *err);

/* The counters so far (final after imp_finish).  Owned by the importer. */
const imp_stats *imp_get_stats(const imp_importer *im);

/* Short name of a counter ("server_only"), used in the metadata line. */
const char *imp_counter_name(int c);

/* One-line explanation of a counter and of what was done about it. */
const char *imp_counter_help(int c);

/* Append a human summary (one line per non-zero counter, with where it was
 * first seen) to out.  Returns PB_OK or PB_ENOMEM. */
int imp_stats_summary(const imp_stats *st, pb_strbuf *out);

/* After imp_finish of a syscall capture: its summary (one line per
 * non-zero counter, with where it was first seen), or NULL for span
 * input.  Owned by the importer. */
const char *imp_events_summary(const imp_importer *im);

/* Free the importer.  NULL-safe. */
void imp_close(imp_importer *im);

#endif
