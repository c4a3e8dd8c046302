/*
 * conv_int.h - internal pieces of the convolution algorithm, shared by its
 * three files.  Not for programs.
 *
 *   convolution.c  parameters, automatic mu and lag bound, the run, the
 *                  option table
 *   conv_paths.c   FindPathsFromRoot / ProcessNode / FindCausedMessages
 *                  (Figure 6) and the spontaneous-sender test for roots
 *   conv_output.c  the graph as report and dot, its root-to-leaf chains as
 *                  path patterns, and the warnings of caps that cut it
 *
 * The signal processing (signals, bounded cross-correlation, spikes) is
 * conv_xcorr.h.
 */
#ifndef CONV_INT_H
#define CONV_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "conv_xcorr.h"
#include "pb_algo.h"
#include "pb_mem.h"
#include "pb_ptree.h"
#include "pb_strbuf.h"

typedef struct conv_params {
    pb_ns mu;               /* 0 = automatic */
    double N, S;
    const char *v;
    const char *root;
    int min_count;
    int max_depth;
    int filter_count, filter_depth, filter_cycle, filter_negative,
        filter_chance;
    int cycle_repeats;
    int spike_passes;
    const char *lag_bound;
    const char *mode;
    const char *match;
    int sparse;
    int fft_size;
    double spont_frac;
    const char *root_rule;
    int max_vertices;
} conv_params;

/* Lag bound found automatically is never below this many quanta: a spike
 * needs enough lags around it for mean and deviation to mean something
 * (a lone spike among W lags stands sqrt(W - 1) deviations high). */
#define CONV_AUTO_FLOOR 256
/* Lags per level of the automatic lag-bound search. */
#define CONV_AUTO_LAGS 256
/* Above level 0, a spike counts only this many quanta from zero or more, so
 * that the bound it gives is at most 50% above its delay. */
#define CONV_AUTO_MINLAG 4
/* Hard limit on path length whatever the filters say, so that switching
 * every filter off cannot recurse without end. */
#define CONV_HARD_DEPTH 256

typedef struct ixlist {
    size_t *ix; /* message indices, in time order */
    size_t n, cap;
} ixlist;

typedef struct cv_delay {
    int64_t lag;     /* quanta */
    uint64_t count;  /* messages matched at this delay */
} cv_delay;

typedef struct cv_vertex {
    uint32_t node;
    uint32_t parent;       /* PB_PTREE_NONE for a root */
    uint32_t first_child, last_child, next_sibling;
    uint32_t depth;        /* edges from the root */
    uint64_t count;        /* messages on the edge into this vertex */
    cv_delay *delays;      /* by declining count; none on a root's edges */
    uint32_t ndelays;
} cv_vertex;

/* One destination found by FindCausedMessages. */
typedef struct cv_group {
    uint32_t dst;
    ixlist msgs;
    cv_delay *delays;
    uint32_t ndelays;
} cv_group;

typedef struct cv_ctx {
    const pb_trace_view *tv;
    const conv_params *p;
    pb_error *err;
    pb_ns t0, mu, v;
    int v_auto;            /* v=spike: match over each spike's width */
    int64_t S, L, lo, hi;
    const char *lag_source;
    uint32_t nnodes;
    int64_t *bin;          /* quantum of each message */
    ixlist *out, *in;      /* per node */
    conv_signal *outsig;   /* per node, built on first use */
    double *outmax;        /* per node: largest value of its out signal */
    unsigned char *outsig_ok;
    conv_xcorr *xc;
    double *C;
    conv_spike *spikes;
    size_t spike_cap;
    int64_t *binbuf;
    size_t binbuf_cap;
    conv_signal s1;
    uint64_t *dcount;      /* per node scratch, kept zero */
    cv_vertex *vx;
    uint32_t nvx, vxcap;
    int truncated;
    uint64_t vertex_capped;  /* edges not added: max_vertices reached */
    uint64_t hard_depth;     /* paths stopped at CONV_HARD_DEPTH edges */
    uint64_t chance_dropped, count_dropped, cycle_dropped, depth_stopped;
    uint64_t pair_matches;  /* FindCausedMessages calls matched by pairs */
    uint64_t spikes_pruned;  /* spikes that could not reach min_count */
} cv_ctx;

/* ------------------------------------------------------------------ */
/* Small helpers used by every part */

static inline int ix_push(ixlist *l, size_t i)
{
    if (pb_grow(&l->ix, sizeof *l->ix, &l->cap, l->n + 1, 16) != PB_OK)
        return PB_ENOMEM;
    l->ix[l->n++] = i;
    return PB_OK;
}

static inline void ix_free(ixlist *l)
{
    free(l->ix);
    l->ix = NULL;
    l->n = l->cap = 0;
}

static inline int oom(cv_ctx *c)
{
    return pb_error_set(c->err, PB_ENOMEM, NULL, 0, 0,
                        "convolution: out of memory");
}

static inline const char *node_name(const cv_ctx *c, uint32_t node)
{
    const char *s = pb_strtab_str(c->tv->nodes, node);
    return s ? s : "?";
}

/* ------------------------------------------------------------------ */
/* conv_paths.c */

/* FindPathsFromRoot(i) of Figure 6: adds a root vertex for node i to c's
 * graph and grows the tree below it through ProcessNode, dropping the root
 * again if nothing hangs below it.  The vertices (and the delay arrays they
 * own) belong to c and are freed by its owner.  Returns PB_OK, or a
 * negative status with c->err filled (out of memory, internal error). */
int conv_find_paths_from_root(cv_ctx *c, uint32_t i);

/* Whether node j sends spontaneously: it receives nothing, or at least
 * spont_frac of what it sends is not explained by any spike of the
 * correlation of everything it receives with everything it sends.  *yes
 * gets 1 or 0, *frac the unexplained fraction (-1 for a node that sends
 * nothing).  Returns PB_OK, or a negative status with c->err filled. */
int conv_is_spontaneous(cv_ctx *c, uint32_t j, int *yes, double *frac);

/* ------------------------------------------------------------------ */
/* conv_output.c */

/* Writes c's graph into res: the report (Figure 9 as text), the dot graph,
 * one path pattern per root-to-leaf chain (count = messages on its last
 * edge) and the "paths=" metadata.  c is not changed.  Returns PB_OK, or
 * a negative status with c->err filled. */
int conv_emit(cv_ctx *c, pb_result *res);

/* Adds to res one warning for every cap or stop that changed the graph
 * (max_vertices, the hard depth limit, max_depth), naming the option that
 * moves it.  Returns PB_OK, or PB_ENOMEM with c->err filled. */
int conv_cap_warnings(cv_ctx *c, pb_result *res);

#endif
