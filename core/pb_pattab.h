/*
 * pb_pattab.h - aggregation of path instances into patterns:
 * canonical pattern text -> count, score and per-node statistics.
 *
 * Per-node statistics are stored by canonical pre-order position (see
 * pb_ptree_canonical's `order`), so instances of one pattern line up even
 * when their trees were built in different child orders.  Two statistics
 * per position:
 *   node  - latency spent at the node (its "mean latency" in Figure 8);
 *   edge  - delay on the edge into the node (Figure 8: from the parent's
 *           entry; WAP5: network latency of the message).
 * Algorithms document which meaning they give each.
 */
#ifndef PB_PATTAB_H
#define PB_PATTAB_H

#include <stddef.h>
#include <stdint.h>

typedef struct pb_pattern {
    char *text;           /* canonical pattern text, owned */
    uint32_t nnodes;      /* tree nodes (positions) */
    uint32_t index;       /* insertion order, stable across ranking */
    uint32_t rank;        /* 1-based after pb_pattab_rank, else 0 */
    uint64_t count;       /* raw instance count */
    double score;         /* sum of instance weights (expected count for
                             linking; equals count for unit weights) */
    double max_prob;      /* largest single instance weight */
    double latency_sum;   /* weighted sum of instance total latency, s */
    double latency_sumsq;
    double *node_sum, *node_sumsq;  /* [nnodes], weighted, seconds */
    double *edge_sum, *edge_sumsq;  /* [nnodes], weighted, seconds */
    double *node_wsum, *edge_wsum;  /* [nnodes], weight of samples present */
} pb_pattern;

typedef struct pb_pattab pb_pattab;

int pb_pattab_init(pb_pattab **out);
void pb_pattab_close(pb_pattab *t); /* NULL-safe */

/* Add one instance of the pattern `text` (canonical) with `nnodes`
 * positions and weight w (1 for a counted instance; a probability for
 * linking).  total_latency in seconds (NAN = unknown).  node_lat and
 * edge_delay: arrays of nnodes seconds in canonical positions, or NULL;
 * NAN entries are skipped.  *out (may be NULL) receives the entry, owned by
 * the table.  Returns PB_OK, PB_ENOMEM, or PB_EINVAL (same text seen before
 * with a different nnodes). */
int pb_pattab_add(pb_pattab *t, const char *text, uint32_t nnodes, double w,
                  double total_latency, const double *node_lat,
                  const double *edge_delay, pb_pattern **out);

/* Look a pattern up by text; NULL if absent. */
pb_pattern *pb_pattab_find(const pb_pattab *t, const char *text);

size_t pb_pattab_count(const pb_pattab *t);

/* Entry i in current order (insertion order until ranked). */
pb_pattern *pb_pattab_get(const pb_pattab *t, size_t i);

/* Entry by insertion index (pb_pattern.index). */
pb_pattern *pb_pattab_by_index(const pb_pattab *t, uint32_t index);

typedef enum pb_rank_by {
    PB_RANK_COUNT = 0,     /* raw count, then score */
    PB_RANK_SCORE,         /* score (expected count), then count */
    PB_RANK_LATENCY,       /* total latency (sum over instances) */
    PB_RANK_SCORE_PER_COUNT,  /* WAP5 6.6: expectation / count */
    PB_RANK_SCORE_PER_SQRT    /* WAP5 6.6: expectation / sqrt(count) */
} pb_rank_by;

/* Sort entries (descending; ties by text, byte order) and set rank. */
void pb_pattab_rank(pb_pattab *t, pb_rank_by by);

/* Parse "count", "score", "latency", "score-per-count", "score-per-sqrt".
 * Returns PB_OK or PB_EINVAL. */
int pb_rank_by_parse(const char *s, pb_rank_by *out);

#endif
