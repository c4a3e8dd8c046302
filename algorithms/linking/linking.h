/*
 * linking.h - the message linking algorithm of WAP5 (WWW'06, section 5.1),
 * split into its steps so that unit tests can reach each one.
 *
 *   steps 1-2  link_graph_build: average causal delay per node pair within
 *              the window x, candidate parents of every message weighted
 *              exp(-lambda * delay) plus the spontaneous option at y * d,
 *              normalized; then inverted to possible children.
 *   step 3     link_build_paths: path instances from each root message with
 *              probably-true / probably-false / try-both links (at most k
 *              try-both decisions per tree), aggregated into message-view
 *              patterns, each message ascribed to its most probable
 *              instance, per-pair network latency and clock offset, dot
 *              trees and the optional node-delay histograms.
 *
 * The algorithm reads ts (sender's clock) and recv_ts (receiver's clock)
 * only; call/return marks and call ids are never looked at.
 * docs/linking.md describes the parameters and the choices made where the
 * paper is silent.
 */
#ifndef LINKING_H
#define LINKING_H

#include <stddef.h>
#include <stdint.h>

#include "pb_error.h"
#include "pb_opt.h"
#include "pb_result.h"
#include "pb_time.h"
#include "pb_trace.h"

/* Parameters (the option table link_options gives names and defaults). */
typedef struct link_params {
    pb_ns x;          /* window for causal delays (paper: x, 2 s) */
    double y;         /* spontaneity factor (paper: y, 4) */
    int k;            /* try-both decisions per tree (paper: k) */
    double band;      /* |p - 0.5| <= band counts as "near 0.5" */
    int max_parents;  /* candidate parents kept per message (latest first) */
    double prune;     /* skip candidates lighter than prune * spont weight */
    double min_link;  /* links below this probability are not stored */
    int max_tree;     /* messages per path instance before it is cut */
    pb_ns dmin;       /* floor on the average causal delay d */
    int hist;         /* node-delay histograms in the report (5.2) */
    int hist_bins;
    pb_ns hist_min;   /* first bin edge (bins are log-spaced) */
    pb_ns hist_max;   /* last bin edge; 0 = the window x */
    int dot_top;      /* patterns drawn in the dot output */
    int report_top;   /* patterns whose histograms go in the report */
    const char *untraced; /* comma-separated nodes treated as untraced:
                             recv_ts of messages into them is ignored */
    const char *entry;    /* comma-separated entry nodes: every message
                             they send is spontaneous (starts a request) */
    double assign_margin; /* k > 0: a message leaves the tree of the k = 0
                             partition only for an instance of the same
                             root at least this many times as probable */
    double min_confidence; /* abstain on messages whose path probability
                              (docs/linking.md) is below it; 0 = none */
} link_params;

/* The option table of link_params, with the papers' defaults. */
extern const pb_option link_options[];

#define LINK_SPONT UINT32_MAX /* argmax value: spontaneous is most likely */

/* Possible-children graph of step 2 (Figure 8) plus per-pair statistics. */
typedef struct link_graph {
    size_t n;              /* messages */
    float *p_spont;        /* [n] probability that the message is spontaneous */
    uint32_t *argmax;      /* [n] most likely parent, or LINK_SPONT */
    uint32_t *child_off;   /* [n+1] children of message i: child_off[i].. */
    uint32_t *child;       /* [nlinks] child message index */
    float *child_p;        /* [nlinks] link probability */
    size_t nlinks;
    /* node pairs (src -> dst) seen in the trace */
    size_t npairs;
    uint32_t *pair_src, *pair_dst;
    double *pair_d;        /* average causal delay, s (NAN: no sample) */
    uint64_t *pair_dn;     /* samples in that average */
    uint64_t *pair_netn;   /* messages with both timestamps */
    double *pair_netsum;   /* sum of recv_ts - ts, s */
    double *pair_netmin;   /* min of recv_ts - ts, s (NAN if none) */
    /* counters */
    uint64_t nspont_only;  /* messages with no candidate parent */
    uint64_t nentry;       /* messages sent by entry nodes (spontaneous) */
    uint64_t nnil;         /* messages with no recv_ts */
} link_graph;

/* Steps 1 and 2 on a trace view (sorted by ts, as loaded).  On success
 * *out is owned by the caller (link_graph_close).  Returns PB_OK,
 * PB_ENOMEM, PB_ERANGE (more than 2^32-2 messages or links), PB_EINVAL
 * (bad parameters). */
int link_graph_build(const pb_trace_view *v, const link_params *p,
                     link_graph **out, pb_error *err);

/* A graph from explicit parent lists (tests, Figure 4): message i has
 * parents par[par_off[i] .. par_off[i+1]) with probabilities par_p[...] and
 * spontaneous probability p_spont[i].  The most likely cause is the largest
 * probability (ties: the earlier in the list, and a parent before the
 * spontaneous option).  Arrays are copied.  Returns PB_OK, PB_ENOMEM,
 * PB_EINVAL (a parent index out of range). */
int link_graph_from_parents(size_t n, const uint32_t *par_off,
                            const uint32_t *par, const float *par_p,
                            const float *p_spont, link_graph **out,
                            pb_error *err);

/* Flags of the nodes named in list (comma-separated names of v's node
 * table), for the option `opt` ("untraced", "entry").  *out: calloc'ed
 * array of one byte per node, owned by the caller.  Returns PB_OK,
 * PB_EINVAL (a name that is no node of the trace: err names it and the
 * option) or PB_ENOMEM. */
int link_node_flags(const pb_trace_view *v, const char *list, const char *opt,
                    uint8_t **out, pb_error *err);

/* Free a graph.  NULL-safe. */
void link_graph_close(link_graph *g);

/* Probability of the link parent -> child (0 if there is none). */
double link_graph_prob(const link_graph *g, uint32_t parent, uint32_t child);

/* Average causal delay d (seconds) of the node pair src -> dst, NAN if the
 * pair has no sample or does not occur. */
double link_graph_delay(const link_graph *g, uint32_t src, uint32_t dst);

/* Step 3 and the outputs: fills res (patterns, assignment, meta lines,
 * dot text, report).  v must be the view g was built from (or one with the
 * same messages).  res->rank_by decides the order of dot trees and report.
 * Returns PB_OK, PB_ENOMEM, PB_EINVAL. */
int link_build_paths(const pb_trace_view *v, const link_graph *g,
                     const link_params *p, pb_result *res, pb_error *err);

#endif
