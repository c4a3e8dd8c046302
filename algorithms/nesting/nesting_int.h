/*
 * nesting_int.h - internal steps of nesting.c shared with the sliding-window
 * driver (nesting_window.c).  Not for programs.
 *
 * A window run cuts the trace into segments.  Each segment is a view
 * [base, end) of the messages; the pairs it "owns" are those whose return
 * message index lies in [own_lo, own_hi).  Pairs returning before own_lo
 * were chosen by an earlier segment (fpar gives their parents); pairs
 * returning at or after own_hi are left to a later segment.
 */
#ifndef NESTING_INT_H
#define NESTING_INT_H

#include "nesting.h"
#include "pb_hash.h"

#define NONE NESTING_NONE

/* ------------------------------------------------------------------ */
/* The state of a run, shared by nesting.c (steps 1-3) and nesting_paths.c
 * (step 4). */

#define PEN_TAB 64


/* An open call into some node: what the candidate scan needs, kept
 * together so the scan touches one cache line per few entries. */
typedef struct oent {
    pb_ns call_ts;
    uint32_t pair;   /* NONE once the call has returned (a dead slot) */
    uint32_t msg;    /* the call's message index */
    uint32_t up;     /* live slot: itself; dead slot: a slot further left
                        (union-find towards the last live slot <= here) */
    uint32_t fw;     /* Fenwick tree over the live flags */
} oent;

/* The open calls into one node, in the order they were sent (slots 1..n;
 * slot 0 is a sentinel), so that the candidates of a child, the open calls
 * sent before it, are a prefix found by binary search, and its last
 * max_candidates are read from the end of that prefix without a scan of
 * the rest (issue 29: a deep chain through two nodes keeps half its calls
 * open at each).  Returned calls are marked dead and skipped through `up`;
 * the Fenwick tree counts the live ones of a prefix; the array is
 * compacted once the dead outnumber the live. */
typedef struct oset {
    oent *a;
    uint32_t n, cap, live;
} oset;

/* scoreboard triple -> histogram number */
typedef struct sbkey {
    uint32_t a, b, c, h; /* a == NONE: empty slot */
} sbkey;

struct nesting {
    pb_trace_view v;
    nesting_params p;
    uint32_t nnodes;

    uint32_t npairs, paircap;
    uint32_t *call, *ret;   /* message indices, pairs in return order */
    uint32_t *pair_of_msg;  /* [v.n]: pair of a matched message, or NONE */

    uint32_t *cand_off;     /* [npairs+1] */
    uint32_t *cand;         /* candidate parents (pair numbers) */
    size_t ncand, candcap;

    uint32_t *parent, *first_child, *next_sib;
    double *share;          /* [npairs]: the chosen parent's share of the
                               scores of all candidates (1 without a
                               choice); min_confidence (docs/nesting.md) */

    sbkey *sbt;
    size_t sbcap;           /* slots, power of two */
    uint32_t nhist, histcap;
    double *sb;             /* [nhist * bins] */
    double log_lowest, inv_log_base;

    double pen[3][PEN_TAB];  /* (1 + c)^-x, ^-y, ^-z */

    /* counters for the result metadata */
    size_t calls, returns, others, unmatched_calls, unmatched_returns;
    size_t repeated, with_cands, cycles;
    size_t no_callid;       /* calls without a call id while callids=1 */
    size_t same_tick_cands; /* candidates with the child's ts, earlier in the file */
    size_t capped, capped_max; /* owned calls whose candidates max_candidates
                                  cut, and the most one of them had */
    uint32_t *selbuf;       /* scratch of the cut */
    size_t selcap;
    size_t own_cands, own_same_tick; /* the same two of the pairs scored
                                        here (all of them for the whole
                                        trace; the owned ones of a segment) */

    /* sliding-window segments (nesting_int.h): only pairs whose return
     * index is in [own_lo, own_hi) are scored and chosen; earlier ones take
     * the parent fpar gives; whole trace: 0, UINT32_MAX, NULL */
    uint32_t own_lo, own_hi;
    const uint32_t *fpar;
    const double *fshare;    /* with fpar: the share earlier windows gave
                                their pairs (by return message), or NULL */
    int seg_mode;            /* 0 whole trace, 1 scoreboard only, 2 choose */
    int sorted;              /* the view's rows are in time order (sweep) */
};

static inline const pb_msg *nesting_cmsg(const nesting *s, uint32_t pair)
{
    return &s->v.msgs[s->call[pair]];
}

static inline const pb_msg *nesting_rmsg(const nesting *s, uint32_t pair)
{
    return &s->v.msgs[s->ret[pair]];
}

/* The scoreboard histogram of triple (a, b, c), created when `create`
 * (then *rc = PB_ENOMEM, or PB_ERANGE past the scoreboard's limit, when it
 * cannot be); NESTING_NONE when absent. */
uint32_t nesting_sb_find(nesting *s, uint32_t a, uint32_t b, uint32_t c,
                         int create, int *rc);

/* Step 3 (nesting_choose.c): choose the parent (and its share) of every
 * pair with candidates that this run owns; pairs an earlier window chose
 * take s->fpar's.  PB_OK or PB_ENOMEM. */
int nesting_choose(nesting *s);

/* With a skew window two pairs can be each other's candidates: open every
 * cycle of parent links at its earliest call (counted in s->cycles).
 * PB_OK or PB_ENOMEM. */
int nesting_break_cycles(nesting *s);

/* fpar value: the parent is not in this segment's view (or unknown) */
#define NESTING_OUTSIDE (UINT32_MAX - 1)

typedef struct nesting_seg {
    uint32_t own_lo, own_hi;  /* view message indices */
    const uint32_t *fpar;     /* [view n]: for the return message of a pair
                                 returning before own_lo, the view index of
                                 its parent's return message, NESTING_NONE
                                 (root) or NESTING_OUTSIDE; borrowed */
    int mode;                 /* 1: add the owned pairs' candidates to the
                                 scoreboard; 2: choose the owned pairs'
                                 parents with it */
    nesting *sb;              /* the scoreboard carrier (nesting_sb_new);
                                 lent to the segment during init only */
    const uint32_t *rcall;    /* [view n] or NULL: for a return message, the
                                 view index of its call (the pairer's
                                 pairing, restricted to the view), else
                                 NESTING_NONE; NULL = pair in the segment */
    const double *fshare;     /* [view n] or NULL: beside fpar, the share
                                 (nesting_pair_share) of that pair's choice */
} nesting_seg;

/* The chosen parent's share of the candidates' scores for pair i (1 for a
 * root or a pair with one candidate). */
double nesting_pair_share(const nesting *s, uint32_t i);

/* Call/return pairing over a whole trace read once in file order (the
 * sliding window's step 1): the FIFO of 5.1.1.1 per (sender, receiver,
 * callid) key, as nesting_init pairs without a skew window, except that a
 * call sent more than `horizon` before a return is never its partner
 * (dropped, counted as expired), so memory follows the calls of the last
 * horizon, not the trace. */
typedef struct nesting_pairer nesting_pairer;

/* callids: as the parameter (0 = ignore them).  horizon > 0.  PB_OK or
 * PB_ENOMEM. */
int nesting_pairer_new(nesting_pairer **out, int callids, pb_ns horizon);

/* Feed message g (0, 1, ... in file order; rows in time order).  For a
 * return, *call = the g of its call, or NESTING_NONE; *more = 1 when
 * another call of the key stays queued (a repeated-key match, where FIFO
 * guesses).  PB_OK or PB_ENOMEM. */
int nesting_pairer_add(nesting_pairer *p, const pb_msg *m, uint32_t g,
                       uint32_t *call, int *more);

/* Calls dropped unpaired so far because no return took them within the
 * horizon. */
size_t nesting_pairer_expired(const nesting_pairer *p);

/* NULL-safe. */
void nesting_pairer_close(nesting_pairer *p);

/* Steps 1-2 (mode 1) or 1-3 (mode 2) of nesting_init on one segment.
 * Same returns as nesting_init. */
int nesting_init_seg(nesting **out, const pb_trace_view *v,
                     const nesting_params *params, const nesting_seg *seg,
                     pb_error *err);

/* An empty scoreboard carrier (free with nesting_close).  PB_OK or
 * PB_ENOMEM. */
int nesting_sb_new(nesting **out, const nesting_params *params);

/* Smooth the carrier's scoreboard if params->smooth.  PB_OK or an error. */
int nesting_sb_smooth(nesting *sb, pb_error *err);

/* Histograms in the carrier. */
uint32_t nesting_sb_nhist(const nesting *sb);

typedef struct nesting_seg_counts_t {
    size_t with_cands, cands, same_tick_cands; /* of the owned pairs (mode 1) */
    size_t capped, capped_max;
} nesting_seg_counts_t;

/* Counters of a segment. */
void nesting_seg_counts(const nesting *s, nesting_seg_counts_t *c);

/* The warning when max_candidates cut some calls' candidates (whole trace
 * and windows alike).  Returns PB_OK or PB_ENOMEM. */
int nesting_warn_capped(pb_result *res, size_t capped, size_t capped_max, int max_cand);

/* Path building state kept across segments (instance numbers, memo,
 * per-pattern statistics). */
typedef struct nesting_pctx nesting_pctx;

/* PB_OK or PB_ENOMEM. */
int nesting_pctx_new(nesting_pctx **out);

/* Step 4 for the roots a mode-2 segment owns: aggregate into res->patterns;
 * inst_of_msg (view-indexed, may be NULL) gets the instance id of every
 * message of a new path, and then pid_of_msg / conf_of_msg (view-indexed)
 * its parent message's id (PB_NO_PARENT for none) and confidence, as
 * whole-trace nesting writes them; *roots counts the paths.  PB_OK or
 * PB_ENOMEM. */
int nesting_seg_paths(nesting *s, nesting_pctx *pc, pb_result *res,
                      uint32_t *inst_of_msg, uint64_t *pid_of_msg,
                      double *conf_of_msg, size_t *roots);

/* Pattern index of instance i (1-based), NESTING_NONE if none. */
uint32_t nesting_pctx_pattern(const nesting_pctx *pc, uint32_t instance);

/* Forget the patterns of instances 1 .. upto (nesting_pctx_pattern then
 * says NESTING_NONE for them): memory for the instances of the current
 * window only. */
void nesting_pctx_forget(nesting_pctx *pc, size_t upto);

/* Instances built so far. */
size_t nesting_pctx_instances(const nesting_pctx *pc);

/* The scoreboard counters nesting reports after the pairing counters, as
 * metadata, the same in whole-trace and window mode: calls_without_callid,
 * same_tick_candidates, candidate_nestings, nested_pairs, mean_parallelism
 * (Table 1's measure: candidates per nested pair), histograms.  Returns
 * PB_OK or PB_ENOMEM. */
int nesting_meta_counts(pb_result *res, size_t no_callid, size_t same_tick,
                        size_t cands, size_t with_cands, unsigned nhist);

/* With min_confidence > 0, the metadata line "min_confidence=X
 * abstained=N" (N = res->nabstain), the same in both modes; else nothing.
 * Returns PB_OK or PB_ENOMEM. */
int nesting_meta_abstained(pb_result *res, double min_confidence);

/* The warning for calls without a call id under callids=1 (has_column: the
 * trace has a callid column at all).  Returns PB_OK or PB_ENOMEM. */
int nesting_warn_no_callid(pb_result *res, size_t no_callid, size_t calls,
                           int has_column, size_t repeated);

/* Rank res's patterns, write the dot text and report (when res != NULL),
 * and free pc.  PB_OK or PB_ENOMEM. */
int nesting_pctx_finish(nesting_pctx *pc, const nesting_params *params, pb_result *res);

#endif
