/*
 * mt_internal.h - the compiled form of a maketrace config, shared by the
 * parser (mt_config.c) and the generator (mt_gen.c).  Not a public API.
 */
#ifndef MT_INTERNAL_H
#define MT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "mt.h"
#include "pb_strtab.h"
#include "mt_u64map.h"

/* A Gaussian delay; `set` is 0 while the statement gave none (the
 * call_delay / ret_delay / msg_delay setting fills it in at the end). */
typedef struct mt_delay {
    pb_ns mean, sd;
    int set;
} mt_delay;

/* A weighted choice among config nodes (indices in mt_config.nodes). */
typedef struct mt_nodes {
    uint32_t n;
    uint32_t *node;
    double *cum;          /* cumulative weights, cum[n-1] = total */
} mt_nodes;

enum { MT_OP_CALL, MT_OP_SEND, MT_OP_SEQ, MT_OP_PAR, MT_OP_CHOOSE, MT_OP_WAIT };

typedef struct mt_op {
    int kind;
    long line, col;       /* where the statement starts */
    mt_nodes to;          /* CALL, SEND: the callee / receiver */
    mt_delay d, r;        /* before the call / message; before the return */
    pb_ns wait;           /* WAIT */
    int32_t wait_node;    /* WAIT: only at this node (-1: anywhere) */
    uint32_t nkids;       /* body (CALL, SEND, SEQ), branches (PAR, CHOOSE) */
    struct mt_op **kids;
    double *kcum;         /* CHOOSE: cumulative branch weights */
    const char *join_name;/* CALL: join=NAME as written, else NULL */
    int32_t join;         /* CALL: join group index in its tracelet, or -1 */
    int async;            /* CALL: the caller goes on at the send (fire and
                             forget); its return causes nothing */
} mt_op;

/* One line of an explicit interleaving. */
typedef struct mt_iline {
    uint32_t label;       /* path label index within the tracelet */
    int type;             /* pb_msg_type */
    uint32_t src, dst;
    mt_delay d;
    int32_t pair;         /* RETURN: index of the call line */
    long line;
    uint32_t sslot, dslot;/* (label, src), (label, dst): index of the pair
                             among the tracelet's (mt_tracelet.nslots) */
} mt_iline;

typedef struct mt_tracelet {
    char *name;
    long line;
    mt_nodes root;        /* tree mode: the node that starts the path */
    mt_op *body;          /* tree mode: a SEQ */
    int interleave;
    mt_iline *il;         /* interleave mode */
    uint32_t nil, nlabels;
    uint32_t nslots;      /* distinct (label, node) pairs of the lines */
    double weight;
    int instances;        /* 0: member of the shared pool */
    int has_think;
    pb_ns think_lo, think_hi;
    uint32_t maxmsgs;     /* upper bound on messages per path */
    int advances;         /* some delay, wait or think can be > 0 */
    uint32_t njoins;      /* tree mode: join groups (join=NAME) */
    uint32_t *join_parts; /* per join group: how many calls name it */
} mt_tracelet;

/* Execution models of a server node (docs/maketrace.md "Threads and
 * connections"). */
enum { MT_EXEC_POOL = 1, MT_EXEC_DISPATCHER, MT_EXEC_EVENT, MT_EXEC_SEDA };
/* Connection models of a link. */
enum { MT_CONN_NEW = 1, MT_CONN_POOL, MT_CONN_PIPELINED, MT_CONN_MUX };

/* The number of mt_options entries described in every "# params:" line;
 * the model settings after them only when the config uses a model. */
#define MT_NOPT_BASE 14

/* A `service NODE [workers=K] [model=M] ...` statement; a field left out
 * is 0 (-1 for handoff) and takes the global setting. */
typedef struct mt_service {
    uint32_t node;        /* config node index */
    int workers;          /* K >= 1, or 0: unlimited */
    int model;            /* MT_EXEC_*, or 0 */
    int threads, batch, stages;
    double handoff;       /* -1: not given */
    pb_ns read_cost;      /* -1: not given */
    double slow;          /* SD of log of the per-request slowdown, 0: none
                             (-1: not given) */
    long line, col;       /* where it was declared (0: only from -s) */
} mt_service;

/* The resolved execution model of one config node. */
typedef struct mt_exec {
    int model;            /* MT_EXEC_* */
    int threads, batch, stages;
    double handoff;
    pb_ns read_cost;
} mt_exec;

/* A `link SRC -> DST conn=M [conns=K]` statement. */
typedef struct mt_link {
    uint32_t src, dst;
    int model;            /* MT_CONN_* */
    int conns;
    long line;
} mt_link;

typedef struct mt_var {
    char *name, *value;
} mt_var;

struct mt_config {
    char *file;
    mt_settings s;
    struct mt_arena *arena;
    pb_strtab *nodes;     /* config node names */
    mt_tracelet *tr;
    size_t ntr, trcap;
    mt_var *vars;
    size_t nvars, varcap;
    pb_strtab *varidx;    /* var name -> its index in vars (a look-up per
                           * $name was a scan: quadratic in the lets) */
    char **defs;          /* the -D strings, for the metadata */
    size_t ndefs;
    pb_ns pool_think_lo, pool_think_hi;
    mt_service *svc;      /* services with a bounded number of workers */
    size_t nsvc, svccap;
    int *workers;         /* per config node: workers, 0 = unlimited (after
                             finish; NULL if no service has a bound) */
    double *slow;         /* per config node: SD of the log of a served
                             call's slowdown, 0 = none (after finish; NULL
                             if no service has one) */
    mt_link *links;       /* link lines */
    size_t nlinks, linkcap;
    int models;           /* some execution or connection model is used (or
                             observed = 1): thread, sthread, conn are written */
    mt_exec *exec;        /* per config node (after finish; NULL unless
                             models) */
    int conn_model_dflt;  /* a pair without a link line: MT_CONN_* (0 unless
                             models); see mt_conn_of */
    int conn_count_dflt;
    mt_u64map linkmap;    /* src << 32 | dst -> its link line (an n x n
                             table before hostile round 18) */
    long async_line;      /* line of the first `call ... async` (0: none;
                             only the whole-path engine, mt_gen.c, has it) */
    int event_engine;     /* some service has workers or some call a join:
                             generate with the event-ordered engine
                             (mt_sim.c) instead of whole paths (mt_gen.c) */
    struct mt_label **labels; /* `label` lines (mt_label.c), in order */
    size_t nlabels;
};

/* Shared by the two engines (mt_gen.c). */

/* a + b, saturating at INT64_MAX / 4 (absurd configs give late paths,
 * never overflow). */
pb_ns mt_tadd(pb_ns a, pb_ns b);
/* A Gaussian delay sample, clipped to [0, INT64_MAX / 4]. */
pb_ns mt_sample(gsl_rng *rng, const mt_delay *d);
/* A network delay (net_delay, net_sd). */
pb_ns mt_net(gsl_rng *rng, const mt_settings *s);
/* An index in 0..n-1 drawn by the cumulative weights cum. */
uint32_t mt_pick_index(gsl_rng *rng, const double *cum, uint32_t n);

/* What the output side counts, shared by both engines: ids, callids, path
 * ids, the open-calls parallelism and the per-tracelet stats. */
typedef struct mt_acct {
    uint64_t next_id, next_callid, next_path;
    uint32_t *open;       /* per pb node: calls into it not yet returned */
    double par_sum;
    uint64_t par_n;
    mt_tracelet_stats *stats;
} mt_acct;

/* The event-ordered engine (mt_sim.c), used when some service has a
 * bounded number of workers or some call is part of a join: paths are
 * coupled in time, so every loop advances together in one event queue. */
typedef struct mt_sim mt_sim;

/* Start it.  rng (borrowed) is seeded; nodemap maps config nodes to pb
 * nodes (borrowed); acct (borrowed) gets the counts.  Returns PB_OK or
 * PB_ENOMEM. */
int mt_sim_init(mt_sim **out, const mt_config *cfg, gsl_rng *rng,
                const uint32_t *nodemap, mt_acct *acct);

/* With models: the names bundle that thread and connection labels are
 * interned into (borrowed).  Call before the first mt_sim_next. */
void mt_sim_set_names(mt_sim *s, pb_names *names);

/* Next message in timestamp order (as mt_gen_next).  Returns 1, 0 at the
 * end, or PB_ENOMEM. */
int mt_sim_next(mt_sim *s, pb_msg *msg, pb_obs *obs, pb_truth *truth);

/* Free.  NULL-safe. */
void mt_sim_close(mt_sim *s);

/* The connection model of calls src -> dst (MT_CONN_*; models only) and
 * *count, its connections: the pair's link line, else the settings. */
static inline int mt_conn_of(const mt_config *c, uint32_t src, uint32_t dst, int *count)
{
    uint32_t i = mt_u64map_get(&c->linkmap, (uint64_t)src << 32 | dst);
    if (i == UINT32_MAX) {
        *count = c->conn_count_dflt;
        return c->conn_model_dflt;
    }
    *count = c->links[i].conns ? c->links[i].conns : c->conn_count_dflt;
    return c->links[i].model;
}

#endif
