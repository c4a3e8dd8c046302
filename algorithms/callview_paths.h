/*
 * callview_paths.h - the call-view path building that the nesting and joint
 * algorithms share (internal to algorithms/).  Given the parent each call
 * pair chose, an algorithm walks one path from its root pair down: this
 * module keeps the tree being built (tree node -> pair), the own time of
 * each node (the call's interval minus the union of its children's calls,
 * each clipped to the parent's interval), and records the finished tree as
 * one instance of a call-view pattern in a pb_result.  Which pairs are
 * children, in which order, and on which clocks their times are read stay
 * with each algorithm.
 */
#ifndef CALLVIEW_PATHS_H
#define CALLVIEW_PATHS_H

#include "pb_error.h"
#include "pb_ptree.h"
#include "pb_result.h"
#include "pb_strbuf.h"
#include "pb_time.h"

#include <stddef.h>
#include <stdint.h>

/* Path-building state, reused from one path to the next.  Zero-initialise
 * before first use; release with cvp_free.  Arrays are indexed by tree node
 * (tpair, stack, town) or by canonical position (order maps tree node ->
 * position; own, edge, incl are by position), all of capacity `cap`. */
typedef struct cvp_ctx {
    pb_ptree tree;               /* node 0 = root caller, 1 = root pair's callee */
    uint32_t *tpair;             /* pair of each tree node (node 0: CVP_NONE) */
    uint32_t *order;             /* canonical position of each tree node */
    uint32_t *stack;             /* tree nodes still to visit */
    uint32_t sp;                 /* entries on the stack */
    double *own, *edge, *incl;   /* seconds, by canonical position */
    double *town;                /* own time by tree node, seconds */
    uint32_t cap;
    pb_strbuf text;              /* scratch for the canonical text */
    uint32_t *inst_pat;          /* pattern index of each recorded instance
                                    after inst_base: inst_pat[i] is that of
                                    instance inst_base + i + 1 */
    size_t ninst, instcap;
    size_t inst_base;            /* instances forgotten (cvp_forget) */
} cvp_ctx;

#define CVP_NONE UINT32_MAX

/* The assignment table with links (pb_result_assign_link), messages in
 * trace order: message i of pair q = pair_of_msg[i] (skipped when CVP_NONE
 * or inst[q] is 0) goes to instance inst[q] with parent message index
 * parent_msg[i] (CVP_NONE: a root) and confidence conf[q] (NULL: unknown).
 * Returns PB_OK, PB_ENOMEM, PB_EIO. */
int cvp_assign_links(const cvp_ctx *x, pb_result *res, const pb_msg *msgs,
                     size_t n, const uint32_t *pair_of_msg, const uint32_t *inst,
                     const uint32_t *parent_msg, const double *conf);

/* The cause of each message of a set of call pairs, as the trace's truth
 * defines it (the message whose receipt by the sender triggered it, the
 * latest where several came back): the call of pair c is caused by the
 * latest return of a sibling (a child of c's parent pair) received before
 * it was sent (rtime(k), row(k)) < (ts(call c), row(call c)) whose call
 * was made before c's (so a return stamped back before its own call, or a
 * later sibling's, is never a cause: no cycle), else by its parent's call
 * (none for a root pair); the return of c by the latest
 * return of c's children received before it was sent, else by c's own
 * call.  rtime is a return's recv_ts, or its ts when unknown (a call or
 * return CVP_NONE: a half pair, that message lost; joint keeps them).  npairs
 * pairs with call[q], ret[q] message indices and parent[q] (CVP_NONE: a
 * root); out_parent[n] is filled with message indices or CVP_NONE (for
 * messages of no pair too).  Returns PB_OK or PB_ENOMEM. */
int cvp_causes(const pb_msg *msgs, size_t n, uint32_t npairs,
               const uint32_t *call, const uint32_t *ret, const uint32_t *parent,
               uint32_t *out_parent);

/* Forget the pattern index of instances 1 .. upto (upto <= x->ninst), so
 * that a caller that numbers instances as it goes (sliding-window nesting)
 * keeps memory for the recent ones only; cvp_assign must not be asked
 * about them afterwards. */
void cvp_forget(cvp_ctx *x, size_t upto);

/* Make every per-node array of x hold at least n entries (capacity doubles
 * from 16).  Contents up to the old capacity are kept.  Returns PB_OK or
 * PB_ENOMEM (x stays valid; arrays already grown keep their new size). */
int cvp_reserve(cvp_ctx *x, uint32_t n);

/* Start a new path: empties the tree and adds node 0 (`caller`, the root
 * call's sender) and node 1 (`callee`, pair `root`), and puts node 1 on the
 * stack.  Returns PB_OK or PB_ENOMEM. */
int cvp_begin(cvp_ctx *x, uint32_t caller, uint32_t callee, uint32_t root);

/* Pop the next tree node to visit into *tn (its pair into *pair).  Returns 1
 * when a node was popped, 0 when the walk is over. */
int cvp_next(cvp_ctx *x, uint32_t *tn, uint32_t *pair);

/* Add pair `pair` (callee node name `callee`) as the next child of tree node
 * `tn` and put it on the stack.  Children must be added in the order the
 * algorithm wants them to take canonical positions.  Returns PB_OK or
 * PB_ENOMEM. */
int cvp_child(cvp_ctx *x, uint32_t tn, uint32_t callee, uint32_t pair);

/* Union of children's calls inside a parent call [a, b]: begin with the
 * parent's interval, add each child's interval in order of start (each is
 * clipped to [a, b]; empty ones count nothing), read the covered time. */
typedef struct cvp_cover {
    pb_ns a, b, covered, cur_a, cur_b;
    int open;
} cvp_cover;

/* Start covering inside [a, b].  No allocation; cannot fail. */
void cvp_cover_begin(cvp_cover *c, pb_ns a, pb_ns b);

/* Add the child call [ka, kb], clipped to the parent's interval.  Children
 * must come sorted by start.  Cannot fail. */
void cvp_cover_add(cvp_cover *c, pb_ns ka, pb_ns kb);

/* Time inside [a, b] covered by the children added so far, in ns. */
pb_ns cvp_cover_total(const cvp_cover *c);

/* Record the finished tree as one instance of its call-view pattern.  Before
 * the call, x->order must hold the canonical positions of the tree nodes
 * (pb_ptree_canonical), `text` the canonical text (borrowed, not kept), and
 * x->incl / x->edge the whole-call latency and the delay from the parent's
 * call at positions of nodes 1..n-1 (NaN where there is none); this fills
 * x->own from x->town and position 0 with NaN, adds the instance to
 * res->patterns (total latency = the root call's), appends the pattern's
 * index to x->inst_pat, and when `inst` is not NULL, sets inst[pair] to the
 * instance number (1-based) for every pair of the tree.  *pat (not NULL) is
 * the pattern, owned by res.  Returns PB_OK or PB_ENOMEM. */
int cvp_record(cvp_ctx *x, pb_result *res, const char *text, uint32_t *inst,
               pb_pattern **pat);

/* The pairing counters every call-view algorithm reports, as metadata in
 * one order: calls, returns, other_messages, call_pairs, unmatched_calls,
 * unmatched_returns, repeated_key_matches.  Returns PB_OK or PB_ENOMEM. */
int cvp_meta_pairing(pb_result *res, size_t calls, size_t returns, size_t others,
                     size_t pairs, size_t unmatched_calls, size_t unmatched_returns,
                     size_t repeated);

/* Write the assignment table in trace order (so it diffs well): for each
 * message i of msgs[0..n) whose pair q = pair_of_msg[i] (CVP_NONE: none)
 * has an instance inst[q] != 0 (as set by cvp_record), assign the message
 * to that instance and its pattern.  Nothing is kept.  Returns PB_OK or
 * PB_ENOMEM. */
int cvp_assign(const cvp_ctx *x, pb_result *res, const pb_msg *msgs, size_t n,
               const uint32_t *pair_of_msg, const uint32_t *inst);

/* Free every array of x and zero it.  NULL-safe. */
void cvp_free(cvp_ctx *x);

#endif
