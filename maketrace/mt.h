/*
 * mt.h - maketrace, the tracelet-based trace generator of seed 000, 7.1.1.
 *
 * A config file (language: docs/maketrace.md) declares tracelets: templates
 * of RPC calls (nesting), one-way messages, serial and parallel children,
 * weighted choices of node or of sub-sequence, extra fixed delays,
 * explicit interleavings of several paths, services with K workers (FIFO
 * queues) and joins of calls from several callers.  The generator runs many
 * instances of them in parallel, each looping think -> path -> think, and
 * streams the merged messages in timestamp order with their truth.
 *
 * Memory is independent of the trace length: without workers and joins
 * each instance materializes only its current path and a heap merges the
 * instances (O(running instances x path length)); with them an event heap
 * runs every loop together and holds what is in flight (mt_sim.c).
 */
#ifndef MT_H
#define MT_H

#include <stddef.h>
#include <stdint.h>

#include "pb_error.h"
#include "pb_opt.h"
#include "pb_strbuf.h"
#include "pb_time.h"
#include "pb_trace.h"

/* Global settings (every one can be set in the file as `name = value` and
 * overridden with -D name=value).  Filled from mt_options. */
typedef struct mt_settings {
    int seed;              /* gsl_rng_mt19937 seed */
    pb_ns duration;        /* length limit by time (0 = none) */
    int messages;          /* length limit by message count (0 = none) */
    pb_ns net_delay;       /* mean network delay: recv_ts = ts + delay */
    pb_ns net_sd;          /* its standard deviation */
    const char *call_delay;/* default "MEAN[,SD]" before a call */
    const char *ret_delay; /* default before a return */
    const char *msg_delay; /* default before a one-way message */
    double sd_scale;       /* multiplies every configured delay sd */
    pb_ns delay_sd;        /* if >= 0, replaces every delay sd */
    int instances;         /* parallel instances of the shared pool */
    const char *think;     /* "LO..HI" uniform think time of the pool */
    double instances_scale;/* multiplies every instance count */
    double think_scale;    /* multiplies every think time */
    /* execution and connection models (docs/maketrace.md "Threads and
     * connections"); at their defaults the output is the one of a config
     * without them, byte for byte */
    int observed;          /* 1: write thread, sthread, conn */
    const char *exec;      /* default model of every server node ("" = pool) */
    double handoff;        /* default hand-off probability (pool, dispatcher) */
    int threads;           /* default threads of an event-driven node */
    int batch;             /* default inputs one read takes (1 = isolation) */
    int stages;            /* default stages of a SEDA node */
    pb_ns read_cost;       /* time one read costs an event-driven thread */
    const char *conn;      /* default connection model ("" = new per call) */
    int conns;             /* default connections of a persistent link */
} mt_settings;

/* The option table of mt_settings (name, default, range, help). */
extern const pb_option mt_options[];

typedef struct mt_config mt_config;

/* Parse a config.  text: the whole file (len bytes, need not be
 * NUL-terminated); display_name: used in error messages.  defs: ndefs
 * strings "name=value" from -D, which override the file (a builtin setting,
 * a `let` variable, or TRACELET.weight / .instances / .think); a -D that
 * names nothing is an error.  On success *out is owned by the caller
 * (mt_config_close).  Returns PB_OK, PB_EPARSE / PB_EINVAL (err has file,
 * line, column and what was expected), PB_ENOMEM. */
int mt_config_parse(const char *text, size_t len, const char *display_name,
                    const char *const *defs, size_t ndefs, mt_config **out,
                    pb_error *err);

/* Same, reading the file at path.  Returns also PB_EIO. */
int mt_config_load(const char *path, const char *const *defs, size_t ndefs,
                   mt_config **out, pb_error *err);

/* Free a config.  NULL-safe. */
void mt_config_close(mt_config *cfg);

/* The effective global settings (after -D).  Owned by cfg.  The seed may
 * be changed through this pointer before mt_gen_init. */
mt_settings *mt_config_settings(mt_config *cfg);

/* Number of tracelets, and the name / weight / instances (0 = shared
 * pool) / think range of tracelet i (after -D and the scale settings). */
size_t mt_config_ntracelets(const mt_config *cfg);
const char *mt_config_tracelet_name(const mt_config *cfg, size_t i);
double mt_config_tracelet_weight(const mt_config *cfg, size_t i);
int mt_config_tracelet_instances(const mt_config *cfg, size_t i);
void mt_config_tracelet_think(const mt_config *cfg, size_t i, pb_ns *lo,
                              pb_ns *hi);

/* 1 when the config uses an execution or connection model (or sets
 * observed = 1): the trace then has the columns thread, sthread and conn. */
int mt_config_observed(const mt_config *cfg);

/* Append "name=value ..." for every setting, every -D and every tracelet
 * override, for the "# params:" metadata line.  Returns PB_OK or
 * PB_ENOMEM. */
int mt_config_describe(const mt_config *cfg, pb_strbuf *out);

/* The optional observable columns (PB_COL_ATTR, PB_COL_SIZE, ...) that
 * traces of cfg carry beyond PB_COL_ALL: a writer opened with
 * PB_COL_ALL | mt_config_columns(cfg) writes them.  0 for a config that
 * uses none (its output is then byte-identical to a plain config's). */
unsigned mt_config_columns(const mt_config *cfg);

/* ------------------------------------------------------------------ */

typedef struct mt_gen mt_gen;

/* Per-tracelet counters of what the generator produced (paths that were
 * emitted; paths cut by a length limit are not counted). */
typedef struct mt_tracelet_stats {
    uint64_t paths;        /* path instances emitted */
    uint64_t messages;
    double busy_sum;       /* sum of path durations, seconds (first send to
                              last receive) */
    double think_sum;      /* sum of the think times drawn before them */
} mt_tracelet_stats;

/* Start generating.  cfg must outlive the generator; names: the bundle node
 * names are interned into (borrowed).  Returns PB_OK, PB_EINVAL (no length
 * limit), PB_ENOMEM. */
int mt_gen_init(mt_gen **out, const mt_config *cfg, pb_names *names,
                pb_error *err);

/* Next message in timestamp order, ids 0, 1, 2, ... in output order,
 * callids and path ids numbered 1, 2, ... in order of first appearance.
 * Returns 1 with *msg and *truth filled, 0 at the end, or PB_ENOMEM. */
int mt_gen_next(mt_gen *g, pb_msg *msg, pb_truth *truth);

/* Same, also giving the message's observed columns (thread, sthread and
 * conn with models, attr and size with labels; PB_OBS_NONE otherwise) in
 * *obs (may be NULL). */
int mt_gen_next_obs(mt_gen *g, pb_msg *msg, pb_obs *obs, pb_truth *truth);

/* Counters of tracelet i so far (i < mt_config_ntracelets). */
const mt_tracelet_stats *mt_gen_stats(const mt_gen *g, size_t i);

/* Mean per-node parallelism of the messages produced so far, the p of the
 * nesting algorithm's O(mp) cost (seed 000, 5.1.2 and Table 1): for each
 * call B -> C sent while some call into B is open (sent, not yet
 * returned), the number of such open calls, averaged over those calls.
 * Uses send timestamps.  *ncalls (may be NULL) gets how many calls were
 * averaged.  0 when there were none. */
double mt_gen_parallelism(const mt_gen *g, uint64_t *ncalls);

/* Free.  NULL-safe. */
void mt_gen_close(mt_gen *g);

/* Convenience: generate everything into w (metadata lines naming the
 * generator, config, seed and parameters first).  config_name goes into the
 * metadata.  If gen_out is non-NULL the generator is handed back (for its
 * stats; caller closes it), else closed.  keep (may be NULL) gets a copy
 * of every message and its truth (node and label indices of `names`).
 * Returns PB_OK or an error with
 * err filled. */
int mt_generate(const mt_config *cfg, const char *config_name, pb_writer *w,
                pb_names *names, mt_gen **gen_out, pb_trace *keep, pb_error *err);

#endif
