/*
 * pb_ptree.h - path patterns: rooted trees of node visits and their
 * canonical text form (DESIGN.md "Path patterns").
 *
 *   tree     := NODE '>' NODE children?
 *   child    := NODE children?
 *   children := '[' child (',' child)* ']'
 *
 * Children are sorted by their own canonical text (byte order), so two
 * trees are the same pattern exactly when their strings are equal.  Node
 * names containing any of  > [ ] , \  are escaped with a backslash.
 *
 * A tree's root is the first sender; it must have exactly one child.  Tree
 * node names are indices into a pb_strtab the caller supplies.
 */
#ifndef PB_PTREE_H
#define PB_PTREE_H

#include <stddef.h>
#include <stdint.h>

#include "pb_error.h"
#include "pb_strbuf.h"
#include "pb_strtab.h"

#define PB_PTREE_NONE UINT32_MAX

typedef struct pb_ptree_node {
    uint32_t name;         /* index in the caller's pb_strtab */
    uint32_t parent;       /* PB_PTREE_NONE for the root */
    uint32_t first_child;  /* PB_PTREE_NONE if a leaf */
    uint32_t last_child;
    uint32_t next_sibling; /* in insertion order */
} pb_ptree_node;

/* A tree.  Zero-initialize (or pb_ptree_reset) before use; free with
 * pb_ptree_free.  Node 0 is the root once added. */
typedef struct pb_ptree {
    pb_ptree_node *nodes;
    uint32_t n, cap;
} pb_ptree;

/* Remove all nodes, keeping memory. */
void pb_ptree_reset(pb_ptree *t);
void pb_ptree_free(pb_ptree *t);

/* Add a node named `name` under `parent` (PB_PTREE_NONE for the root, which
 * must be the first node).  Stores its index in *idx (may be NULL).
 * Returns PB_OK, PB_ENOMEM, or PB_EINVAL (bad parent, second root). */
int pb_ptree_add(pb_ptree *t, uint32_t parent, uint32_t name, uint32_t *idx);

/* Number of children of node i. */
uint32_t pb_ptree_nchildren(const pb_ptree *t, uint32_t i);

/* Append the canonical text of t to out.  names: the table the node names
 * index.  order: if non-NULL, an array of t->n entries that receives, for
 * each tree node, its position in the canonical pre-order walk (root = 0,
 * then its child, then that child's children in sorted order, ...), so
 * that per-node statistics can be stored in canonical positions.
 * Identical sibling subtrees keep their insertion order (add children in
 * time order to line up repeated children across instances).
 * Returns PB_OK, PB_ENOMEM, or PB_EINVAL (empty tree, or a root without
 * exactly one child). */
int pb_ptree_canonical(const pb_ptree *t, const pb_strtab *names,
                       pb_strbuf *out, uint32_t *order);

/* Parse canonical (or any well-formed, unsorted) text into t (reset
 * first), interning names into `names`.  The nodes of t come out in the
 * text's pre-order.  On a syntax error returns PB_EPARSE with err->column
 * the 1-based character position and a message saying what was expected;
 * err->file/line are left for the caller to fill. */
int pb_ptree_parse(const char *text, size_t len, pb_strtab *names, pb_ptree *t,
                   pb_error *err);

/* Append a node name to out with the pattern escapes applied. */
int pb_ptree_escape(pb_strbuf *out, const char *name, size_t len);

/* Canonicalize pattern text (parse, then print canonically) into out.
 * Returns as pb_ptree_parse / pb_ptree_canonical. */
int pb_pattern_canonicalize(const char *text, size_t len, pb_strbuf *out,
                            pb_error *err);

/* Number of node visits (tree nodes) in pattern text, or 0 if malformed. */
uint32_t pb_pattern_size(const char *text);

#endif
