/*
 * imp_int.h - what the importer's source files share (not public).
 *
 * imp.c          the importer object, counters, errors, storing one span
 * imp_json.c     a document in memory: top-level values, streamed by element
 * imp_jaeger.c   one Jaeger trace object
 * imp_zipkin.c   one Zipkin v2 span
 * imp_otlp.c     one OTLP/JSON resourceSpans element
 * imp_csv.c      a span table (CSV): column mapping, pod names, times
 * imp_archive.c  paths: files, folders of folders, compressed files, tars
 * imp_build.c    imp_finish: span trees -> RPCs -> causes -> the trace
 * imp_export.c   inferred instances back out as Jaeger JSON
 * imp_ebpf.c     a syscall-level capture (DeepTrace's eBPF spans) -> the
 *                capture path's per-connection segments (imp_capture_int.h),
 *                which frames, pairs and counts them as it does pbcapture
 *                events and packets (docs/capture.md)
 */
#ifndef IMP_INT_H
#define IMP_INT_H

#include <jansson.h>
#include <stdint.h>

#include "imp.h"
#include "pb_strtab.h"

#define IMP_NONE UINT32_MAX
/* microseconds whose nanoseconds a trace file can hold (PB_TS_MAX) */
#define IMP_US_MAX (PB_TS_MAX / 1000)

enum { IMP_K_INTERNAL = 0, IMP_K_CLIENT = 1, IMP_K_SERVER = 2 };
enum { IMP_SRC_JAEGER = 0, IMP_SRC_ZIPKIN = 1, IMP_SRC_OTLP = 2, IMP_SRC_CSV = 3 };

typedef struct imp_span {
    uint32_t trace;  /* index in im->traceids */
    uint32_t sid;    /* index in im->sids */
    uint32_t psid;   /* parent's span id, or IMP_NONE */
    uint32_t svc;    /* node index */
    uint32_t peer;   /* node of peer.service / remoteEndpoint, or IMP_NONE */
    uint32_t file;   /* index in im->files */
    uint32_t op;     /* operation name: label index + 1 (pb_obs_label), 0 */
    uint32_t pos_a;  /* data[a] / [a] / resourceSpans[a] / CSV line; IMP_NONE */
    uint32_t pos_b;  /* .spans[b] / [b] / .scopeSpans[b] */
    uint32_t pos_c;  /* OTLP: .spans[c] */
    uint8_t kind;    /* IMP_K_* */
    uint8_t src;     /* IMP_SRC_*: the format, for messages */
    uint8_t has_ref; /* named a parent (even if it is missing) */
    uint8_t untagged; /* no kind given at all */
    uint8_t no_dur;  /* no duration given (end = start; missing_duration) */
    uint8_t no_start; /* a Zipkin fragment without timestamp: start 0, end
                       * its duration (imp_merge_fragments) */
    uint32_t rawsid; /* the span id as written when that was not its
                      * canonical hex spelling (imp_hex_id), index in
                      * im->rawids; IMP_NONE when written canonically */
    pb_ns start, end;
} imp_span;

/* One observed send or receipt of one HTTP message at a socket in an eBPF
 * capture (imp_ebpf.c), before connections are resolved.  The local
 * endpoint is the observing process's side of the connection. */
typedef struct imp_event {
    uint32_t proc;       /* observing process (tgid) */
    int64_t tid;         /* OS thread (the capture's "pid") */
    pb_ns t;             /* the syscall's time on the host's clock */
    uint32_t lip, rip;   /* local, remote IPv4 address */
    uint16_t lport, rport;
    uint8_t send;        /* 1: the process sent it (egress); 0: received */
    uint8_t request;     /* 1: an HTTP request; 0: a response */
    uint8_t has_seq;     /* seq is known */
    uint32_t seq;        /* stream position of its first byte (TCP seq) */
    uint64_t bytes;      /* bytes moved (exit_seq - enter_seq, else the
                            payload's length) */
    uint64_t poff;       /* payload: into the capture's byte arena */
    uint32_t plen;
} imp_event;

/* the eBPF reader's own counters (entries of the JSON; what the capture
 * path counts is its own, imp_capture_stats) */
enum { IMP_EVC_ENTRIES, IMP_EVC_SKIPPED_DNS, IMP_EVC_SKIPPED_OTHER, IMP_EVN };

struct cap;

struct imp_importer {
    imp_opts opts;
    int failed, finished;
    unsigned formats_seen; /* bit 1 jaeger, bit 2 zipkin, bit 4 otlp, 8 the
                              eBPF capture, 16 span CSV */
    pb_trace *trace;       /* the output; nodes and labels intern here */
    pb_strtab *sids, *traceids;
    pb_strtab *rawids; /* ids as written, when not canonical (imp_hex_id) */
    /* per traceids / sids index: the first spelling read of that id in
     * rawids, IMP_NONE when it was the canonical one; labels print it, so
     * an id written one way throughout keeps its label */
    uint32_t *tshow, *sshow;
    size_t captshow, capsshow;
    char **files;
    size_t nfiles, capfiles;
    imp_span *spans;
    size_t nspans, capspans;
    imp_stats st;
    pb_strbuf sources; /* "N files from PATH ..." lines */
    uint32_t node_client, node_unknown;
    imp_event *evs;    /* syscall captures (imp_ebpf.c) */
    size_t nev, capev;
    struct cap *cap;   /* their segments and payload bytes */
    size_t evc[IMP_EVN];
    char *ev_first[IMP_EVN]; /* where each counter was first hit */
    pb_strbuf ev_summary;
    struct imp_csv_map *csv; /* parsed opts.csv_map, or NULL */
    pb_strtab *pods;         /* span CSV: pod names shortened */
    pb_strtab *podsvcs;      /* ... and the services they became */
    uint32_t *pod_svc;       /* pod index -> index in podsvcs */
    size_t cappods;
    pb_strbuf podtext;       /* stats.pods */
    /* span CSV, for the time-unit check: the map in use */
    int csv_nezha;           /* Nezha's own layout (no --csv-map) */
    int csv_unit_given;      /* --csv-map named unit= */
    int64_t csv_unit;        /* ns per unit of the start column */
    const char *csv_start_col; /* its header name (not owned) */
    pb_strbuf unit_warn;     /* stats.time_unit_warning */
    pb_strbuf answer_warn;   /* stats.answer_warning */
    pb_strbuf client_warn;   /* stats.client_warning */
    pb_strbuf unit_meta;     /* " time_unit_suspect=..." for the metadata */
};

/* The time-unit check shared by every span format (imp.c): when the start
 * times of a file, read in the unit its format names, lie wholly in the
 * wall-clock window divided by 1000, 1e6 or 1e9, the file's unit is that
 * much coarser than the format says; fills im->unit_warn (one message,
 * the first such file) and im->unit_meta.  Nothing is rescaled.  Returns
 * PB_OK or PB_ENOMEM. */
int imp_check_units(imp_importer *im);

/* The --csv-map a user of the CSV format in use should give to read its
 * times as `unit` ("us"), appended to out.  Returns PB_OK / PB_ENOMEM. */
int imp_csv_suggest_map(const imp_importer *im, const char *unit,
                        pb_strbuf *out);

/* One DeepTrace document's "spans" array (imp_ebpf.c).  Returns PB_OK or
 * an error naming the entry. */
int imp_ebpf_spans(imp_importer *im, json_t *spans, uint32_t file, pb_error *err);

/* imp_finish for a syscall capture (imp_ebpf.c): its events to the
 * capture path's segments, then cap_build. */
int imp_events_finish(imp_importer *im, pb_trace **out, pb_error *err);

/* Free what the syscall capture holds (imp_close). */
void imp_events_free(imp_importer *im);

/* Count one occurrence of events counter c at entry `entry` of file. */
void imp_ev_count(imp_importer *im, int c, uint32_t file, uint32_t entry);

/* What a span holds once its format is stripped off.  Times: either
 * microsecond JSON numbers (start, duration; Jaeger and Zipkin) or, with
 * ns set, nanoseconds already checked (start_ns, end_ns; OTLP). */
typedef struct imp_raw_span {
    const char *trace_id, *span_id, *parent_id; /* parent may be NULL */
    const char *service, *peer;                 /* peer may be NULL */
    const char *operation;                      /* may be NULL */
    int kind, untagged;
    json_t *start, *duration; /* duration may be NULL */
    int ns, has_end;
    int64_t start_ns, end_ns;
} imp_raw_span;

/* The canonical spelling of a hex trace or span id (Jaeger, Zipkin, OTLP:
 * the same id from two exporters gets one label): lower case; a span id
 * and a trace id of up to 16 digits padded with leading zeros to 16, a
 * trace id of 17-32 digits to 32, and a 32-digit trace id whose first 16
 * digits are 0 shortened to its last 16 (as Jaeger prints a 64-bit trace
 * id).  "ABC" and "0000000000000abc" are one id.  An id that is not hex,
 * is longer than 32 digits or does not fit buf (n >= 33 needed) is left
 * as it is.  Returns buf or id. */
const char *imp_hex_id(const char *id, char *buf, size_t n, int trace);

/* The id of traceids index i (trace != 0) or sids index i as first
 * written (labels, messages, the order of requests). */
const char *imp_id_show(const imp_importer *im, int trace, uint32_t i);

/* Mark the importer failed and fill err.  Returns code. */
int imp_fail(imp_importer *im, pb_error *err, int code, const char *file,
             long line, long col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;

/* "data[0].spans[3]" etc. for messages. */
void imp_span_where(const imp_span *s, char *buf, size_t n);

/* Count one occurrence of counter c, keeping the first place. */
void imp_count_at(imp_importer *im, int c, const char *file, const char *where);
void imp_count_span(imp_importer *im, int c, const imp_span *s);

/* A fresh span slot (not yet counted; store_span commits it), or NULL. */
imp_span *imp_new_span(imp_importer *im);

/* Check r and commit the slot s.  Returns PB_OK or an error (err filled). */
int imp_store_span(imp_importer *im, imp_span *s, const imp_raw_span *r,
                   pb_error *err);

/* IMP_K_* of a kind string ("client", "SERVER", ...); NULL = internal. */
int imp_kind_of(const char *k);
/* 1 when k (NULL: none) is a span kind name imp_kind_of knows. */
int imp_kind_known(const char *k);

/* Register an input name; *idx its index.  Returns PB_OK / PB_ENOMEM. */
int imp_add_file_name(imp_importer *im, const char *name, uint32_t *idx);

/* A whole number as JSON exporters write one: an integer, a real without
 * a fraction within +-9e18 (when reals is 1), or a string of decimal
 * digits with an optional '-' (protobuf's JSON mapping writes int64 and
 * fixed64 fields as strings: Zipkin's "timestamp": "1000", OTLP's
 * "startTimeUnixNano").  Returns 1 and *out when it is within [lo, hi],
 * else 0.  One reader for every JSON time, so that a form one format
 * takes is never refused by another. */
int imp_json_whole(const json_t *v, int reals, int64_t lo, int64_t hi, int64_t *out);

/* A JSON number of microseconds (Jaeger, Zipkin): imp_json_whole with
 * reals and the whole int64 range.  Returns 1 and *out, or 0. */
int imp_json_us(const json_t *v, int64_t *out);

/* The string value of obj[key], or NULL. */
const char *imp_json_str(const json_t *obj, const char *key);
/* The attributes (OTLP) and tags (Jaeger) that name a client span's callee
 * when peer.service is absent, in this order (NULL-ended; imp.c). */
extern const char *const imp_peer_keys[];

/* Per-element handlers (the document scanner calls these). */
int imp_jaeger_trace(imp_importer *im, json_t *t, uint32_t file, uint32_t tk,
                     pb_error *err);
int imp_zipkin_span(imp_importer *im, json_t *js, uint32_t file, uint32_t a,
                    uint32_t b, pb_error *err);
int imp_otlp_resource(imp_importer *im, json_t *rs, uint32_t file,
                      uint32_t ri, pb_error *err);

/* Parse a column mapping ("trace=COL,...") into a new map (*out, freed by
 * imp_csv_map_free).  Returns PB_OK, PB_EINVAL (err says what), PB_ENOMEM. */
int imp_csv_map_parse(const char *spec, struct imp_csv_map **out,
                      pb_error *err);
void imp_csv_map_free(struct imp_csv_map *m);

/* Does this buffer look like a CSV span table (first line a header with a
 * comma, not JSON)? */
int imp_csv_sniff(const char *data, size_t len);

/* 1 when the data's first byte past a byte-order mark and white space is
 * not '{' or '[' (text, to be read as a span CSV when the name says
 * *.csv); 0 otherwise. */
int imp_csv_text(const char *data, size_t len);

/* Read a span CSV buffer registered as file `file`; line0 lines (blank,
 * dropped before the buffer) precede it in the file, for line numbers. */
int imp_csv_buffer(imp_importer *im, const char *data, size_t len,
                   uint32_t file, long line0, pb_error *err);

/* The integrity check of gzip data (imp_gzcheck.c), fed the compressed
 * bytes of a file or member as they are read; anything that does not
 * start like gzip passes unchecked. */
typedef struct imp_gzcheck imp_gzcheck;
imp_gzcheck *imp_gzcheck_new(void); /* NULL when out of memory */
/* Returns 0, or -1 once the data are known to be damaged. */
int imp_gzcheck_feed(imp_gzcheck *g, const void *data, size_t n);
/* At the end of the data: -1 when damaged or cut in the middle. */
int imp_gzcheck_end(imp_gzcheck *g);
/* What was wrong (after -1), else NULL. */
const char *imp_gzcheck_why(const imp_gzcheck *g);
/* 1 when the data started as gzip (the check is running or has run). */
int imp_gzcheck_seen(const imp_gzcheck *g);
/* When the check failed on bytes after the gzip data (trailing garbage):
 * the file offset of the first such byte, else -1.  The bytes before it
 * are whole gzip data (and zero padding), which a reader may still take. */
int64_t imp_gzcheck_trail_at(const imp_gzcheck *g);
/* Hand every decompressed byte to tap(ctx, bytes, n) as well (a zip inside
 * a .gz is checked for its end record from them).  Returns -1 when some
 * bytes could not be decompressed other than for damage (out of memory),
 * so the tap did not see them all; else 0. */
void imp_gzcheck_tap(imp_gzcheck *g,
                     void (*tap)(void *ctx, const unsigned char *p, size_t n),
                     void *ctx);
int imp_gzcheck_tap_lost(const imp_gzcheck *g);
void imp_gzcheck_free(imp_gzcheck *g); /* NULL-safe */

/* Parse one document buffer already registered as file `file`. */
int imp_parse_buffer(imp_importer *im, const char *data, size_t len,
                     uint32_t file, pb_error *err);

/* The same for a buffer whose leading white space was dropped: line0
 * lines and then col0 bytes came before data[0] (for messages). */
int imp_parse_buffer_at(imp_importer *im, const char *data, size_t len,
                        uint32_t file, long line0, long col0, pb_error *err);

#endif
