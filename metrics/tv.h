/*
 * tv.h - truth views: the true path instances of a trace with truth
 * columns, rendered as pattern trees in one of the three views of
 * DESIGN.md ("Path patterns"), with per-node statistics.
 *
 * The views (docs/metrics.md has the full definitions):
 *   call     an edge is an RPC (call and return together; a free-form msg
 *            is a one-way call without return).  The parent of an edge is
 *            the call its sender was serving when it sent it, found by
 *            walking `cause`.  Each top-level call (one served by nobody)
 *            is one instance.
 *   message  an edge is a message; the tree node entered by m hangs under
 *            the tree node entered by cause(m).  Each message without a
 *            cause (in its path) starts one instance.
 *   path     the root-to-leaf chains of the message view, one instance
 *            each.
 *
 * A cause that names a message of another path (or none) is treated as
 * absent; messages with an empty `path` belong to no instance.
 *
 * Per-node statistics are stored in canonical pre-order positions (see
 * pb_ptree_canonical), in seconds, NAN where undefined; the algorithms use
 * the same definitions so that the scorer can compare them.
 */
#ifndef TV_H
#define TV_H

#include <stddef.h>
#include <stdint.h>

#include "pb_error.h"
#include "pb_pattab.h"
#include "pb_trace.h"

typedef enum tv_view { TV_CALL = 0, TV_MESSAGE = 1, TV_PATH = 2 } tv_view;

#define TV_NONE SIZE_MAX

/* One true path instance in a view. */
typedef struct tv_instance {
    uint64_t path;      /* path label its messages carry */
    uint64_t root_id;   /* id of the message that starts it */
    uint32_t pattern;   /* pb_pattern.index in tv_truth.patterns */
    uint32_t nnodes;    /* tree nodes = canonical positions */
    size_t msg_off;     /* its message ids: msg_ids[msg_off .. +nmsg), */
    size_t nmsg;        /* ascending; nmsg is 0 in the path view */
    size_t stat_off;    /* node_lat / edge_delay [stat_off .. +nnodes) */
    double total;       /* total latency, seconds, or NAN */
    size_t nlost;       /* tv_build_kept: its messages that were lost (its
                           statistics are then NAN); 0 otherwise */
} tv_instance;

typedef struct tv_truth {
    tv_view view;
    tv_instance *inst;      /* in order of their first message */
    size_t ninst;
    uint64_t *msg_ids;
    size_t nmsg_ids;
    double *node_lat;       /* per instance, canonical positions */
    double *edge_delay;
    size_t nstat;
    pb_pattab *patterns;    /* true patterns: counts and per-position sums
                               over their instances (unit weights); in
                               insertion order (first instance first) */
    /* message id -> instance, sorted by id, one entry per trace message */
    uint64_t *lk_id;
    size_t *lk_inst;        /* TV_NONE: in no instance of this view (or,
                               with a kept mask, lost) */
    size_t nlk;
    int has_kept;           /* built by tv_build_kept with a mask */
    size_t inst_gone;       /* with a mask: true instances all of whose
                               messages were lost (not in inst) */
    size_t msg_lost;        /* with a mask: messages of true instances lost */
} tv_truth;

/* Build the true instances of trace t (which must carry truth: loaded
 * with with_truth=1, or built with pb_trace_add) in the given view.  The
 * pattern texts use t->names->nodes.  *out is owned by the caller (free
 * with tv_close).  Returns PB_OK; PB_EINVAL (no truth columns); PB_EDUP
 * (duplicate message id); PB_ENOENT (a cause naming no message); PB_EPARSE
 * (inconsistent truth: a cause cycle, or in the call view a return that
 * answers no call, answers a call twice, or disagrees with its call's
 * nodes or callid; err names the message ids); PB_ENOMEM. */
int tv_build(const pb_trace *t, tv_view view, tv_truth **out, pb_error *err);

/* The survivors' truth: the true instances of t as far as the messages
 * with kept[i] != 0 (i indexes t->msgs; NULL = all, as tv_build) show
 * them, for scoring a result inferred from a lossy copy of t (a sniffer's
 * output).  A tree edge (call view: an RPC, its call and its return;
 * message view: a message) is present when one of its messages survived;
 * the present descendants of an edge with no survivor hang under its
 * nearest present ancestor (the root edge of an instance always stays, so
 * an instance stays one tree).  Instances hold only surviving messages;
 * instances with none are left out (counted in inst_gone); a damaged
 * instance (nlost > 0) has NAN statistics.  Lost messages map to TV_NONE
 * in tv_lookup.  Not for the path view (PB_EINVAL).  Otherwise returns as
 * tv_build. */
int tv_build_kept(const pb_trace *t, tv_view view, const unsigned char *kept,
                  tv_truth **out, pb_error *err);

/* Free a truth view.  NULL-safe. */
void tv_close(tv_truth *tv);

/* Look message `id` up.  Returns 1 if the trace has it (*inst = its
 * instance index, or TV_NONE when it belongs to no instance of the view,
 * always so in the path view), 0 if the trace has no such message. */
int tv_lookup(const tv_truth *tv, uint64_t id, size_t *inst);

/* "call", "message", "path". */
const char *tv_view_name(tv_view v);

/* Parse a view name.  Returns PB_OK or PB_EINVAL. */
int tv_view_parse(const char *s, tv_view *out);

/* The natural view of a trace: TV_CALL when any message is a call or a
 * return, else TV_MESSAGE. */
tv_view tv_default_view(const pb_trace *t);

#endif
