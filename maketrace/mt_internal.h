/*
 * mt_internal.h - the compiled form of a maketrace config, shared by the
 * parser (mt_config.c) and the generator (mt_gen.c).  Not a public API.
 */
#ifndef MT_INTERNAL_H
#define MT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "mt.h"
#include "pb_strtab.h"

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
    long line;
    mt_nodes to;          /* CALL, SEND: the callee / receiver */
    mt_delay d, r;        /* before the call / message; before the return */
    pb_ns wait;           /* WAIT */
    int32_t wait_node;    /* WAIT: only at this node (-1: anywhere) */
    uint32_t nkids;       /* body (CALL, SEND, SEQ), branches (PAR, CHOOSE) */
    struct mt_op **kids;
    double *kcum;         /* CHOOSE: cumulative branch weights */
} mt_op;

/* One line of an explicit interleaving. */
typedef struct mt_iline {
    uint32_t label;       /* path label index within the tracelet */
    int type;             /* pb_msg_type */
    uint32_t src, dst;
    mt_delay d;
    int32_t pair;         /* RETURN: index of the call line */
    long line;
} mt_iline;

typedef struct mt_tracelet {
    char *name;
    long line;
    mt_nodes root;        /* tree mode: the node that starts the path */
    mt_op *body;          /* tree mode: a SEQ */
    int interleave;
    mt_iline *il;         /* interleave mode */
    uint32_t nil, nlabels;
    double weight;
    int instances;        /* 0: member of the shared pool */
    int has_think;
    pb_ns think_lo, think_hi;
    uint32_t maxmsgs;     /* upper bound on messages per path */
    int advances;         /* some delay, wait or think can be > 0 */
} mt_tracelet;

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
    char **defs;          /* the -D strings, for the metadata */
    size_t ndefs;
    pb_ns pool_think_lo, pool_think_hi;
};

#endif
