/*
 * sniff.h - lossy capture (seed 000 sections 6.2.1 and 7.5.5): capture
 * boxes with a peak capture rate and a finite queue, independent random
 * loss and Gilbert-Elliott bursty loss, each box covering a set of nodes.
 *
 * Model of one sniffer, per message it sees (src or dst in its node set),
 * in trace order:
 *   1. independent loss: lost with probability `loss`;
 *   2. Gilbert-Elliott: lost with probability ge-loss-bad / ge-loss-good
 *      by the current state, then the state moves good->bad with
 *      probability ge-p, bad->good with ge-r (starting good);
 *   3. queue: the message arrives at its ts; the box captures one message
 *      every 1/rate seconds, first come first served, and holds at most
 *      `queue` messages (the one being captured included); a message that
 *      arrives to a full box is dropped.  A capture finishing exactly at an
 *      arrival frees its place first.
 * Every draw of steps 1-2 is made for every message the sniffer sees,
 * whatever happens to it, so the random stream does not depend on the rate
 * (the --target-drop search relies on that).  A message is kept if any
 * sniffer that sees it keeps it; one no sniffer covers is dropped
 * ("uncovered").
 */
#ifndef SNIFF_H
#define SNIFF_H

#include <stddef.h>
#include <stdint.h>

#include "pb_error.h"
#include "pb_opt.h"
#include "pb_trace.h"

/* Parameters of one sniffer (defaults in sniff_options). */
typedef struct sniff_params {
    double rate;         /* peak capture rate, messages/s; 0 = unbounded */
    int queue;           /* most messages held (paper 7.5.5: 64) */
    double loss;         /* independent loss probability */
    double ge_p;         /* Gilbert-Elliott P(good -> bad) per message */
    double ge_r;         /* P(bad -> good) per message */
    double ge_loss_bad;  /* loss probability in the bad state */
    double ge_loss_good; /* loss probability in the good state */
    int seed;            /* seed of this sniffer's generator */
} sniff_params;

/* The option table: names rate, queue, loss, ge-p, ge-r, ge-loss-bad,
 * ge-loss-good, seed; ends with a NULL name. */
extern const pb_option sniff_options[];

typedef struct sniff_stats {
    uint64_t messages;   /* decided */
    uint64_t kept;
    uint64_t dropped;    /* = messages - kept = the next four summed */
    uint64_t uncovered;  /* no sniffer sees it */
    uint64_t random;     /* independent loss (at the first sniffer seeing it) */
    uint64_t burst;      /* Gilbert-Elliott loss */
    uint64_t queue;      /* queue overflow */
} sniff_stats;

typedef struct sniff_model sniff_model;

/* A model with no sniffers.  names: the bundle message node indices refer
 * to (borrowed; sniff_add interns its node names into it).  Returns PB_OK
 * or PB_ENOMEM. */
int sniff_init(sniff_model **out, pb_names *names);

/* Free.  NULL-safe. */
void sniff_close(sniff_model *m);

/* Add a sniffer covering the comma-separated node list `nodes` (NULL or
 * "*" = every node) with parameters p (copied).  where names the argument
 * in errors.  Returns PB_OK, PB_EINVAL (empty list or name, parameters out
 * of range: err says which) or PB_ENOMEM. */
int sniff_add(sniff_model *m, const char *nodes, const sniff_params *p,
              const char *where, pb_error *err);

/* Number of sniffers. */
size_t sniff_count(const sniff_model *m);

/* Set the capture rate of every sniffer (0 = unbounded). */
void sniff_set_rate(sniff_model *m, double rate);

/* Start over: empty queues, generators re-seeded, states good, statistics
 * zero. */
void sniff_reset(sniff_model *m);

/* Decide one message (in trace order): 1 = keep, 0 = drop, -1 = out of
 * memory (a capture queue's ring grows as it fills, up to its length).
 * Updates the statistics; never changes the message. */
int sniff_decide(sniff_model *m, const pb_msg *msg);

/* Statistics since the last reset. */
void sniff_stats_get(const sniff_model *m, sniff_stats *out);

/* Drop rate dropped / messages (0 for no messages). */
double sniff_drop_rate(const sniff_stats *s);

/* The i-th node named in a sniffer list that no decided message used;
 * NULL past the last. */
const char *sniff_unseen(const sniff_model *m, size_t i);

/* The same as a walk: the next such node from position (*box, *j) on
 * (start at 0, 0), which moves past it; NULL at the end.  A whole walk is
 * linear in the lists (sniff_unseen(m, i) for i = 0, 1, ... is quadratic). */
const char *sniff_unseen_next(const sniff_model *m, size_t *box, size_t *j);

/* ------------------------------------------------------------------ */
/* Spool: the trace kept on disk (an unlinked temporary file in $TMPDIR or
 * /tmp), so that the statistics can go in the metadata before the first
 * row and the rate search can replay the trace, in memory independent of
 * its length. */

typedef struct sniff_spool sniff_spool;

/* Create an empty spool in *out (the caller closes it).  Returns PB_OK,
 * PB_ENOMEM or PB_EIO (err names the directory). */
int sniff_spool_open(sniff_spool **out, pb_error *err);
/* Append one message, its observed columns and its truth (o may be NULL:
 * PB_OBS_NONE; t may be NULL: no truth); all are copied.  The observed
 * columns go to a file of their own, made at the first o given (pass NULL
 * for a trace without those columns: it costs nothing then).  Returns
 * PB_OK, PB_EIO (disk full) or PB_ENOMEM. */
int sniff_spool_add(sniff_spool *s, const pb_msg *m, const pb_obs *o, const pb_truth *t);
/* Back to the first record (also ends writing).  Returns PB_OK or PB_EIO. */
int sniff_spool_rewind(sniff_spool *s);
/* Read the next record into *m, *o and *t (o and t may be NULL).  Returns
 * 1 with a record, 0 at the end, PB_EIO. */
int sniff_spool_next(sniff_spool *s, pb_msg *m, pb_obs *o, pb_truth *t);
/* Number of records added. */
size_t sniff_spool_size(const sniff_spool *s);
/* Free the spool and its file.  NULL-safe. */
void sniff_spool_close(sniff_spool *s);

/* Reset the model, decide every spooled message, fill *out.  Returns PB_OK,
 * PB_EIO (the spool) or PB_ENOMEM (a capture queue). */
int sniff_replay(sniff_model *m, sniff_spool *s, sniff_stats *out);

/* Find the smallest capture rate (same for every sniffer) at which the
 * drop rate of the spooled trace is at most target: doubling to bracket,
 * from the mean message rate, then interpolation and bisection on the rate
 * until the bracket is within 1e-6 relative (the
 * drop rate falls as the rate rises); rates below 1e-6 messages/s are not
 * tried (1e-6 is returned when it already meets the target).  Deterministic.  *rate_out gets the
 * rate found; the model is left at it.  Returns PB_OK, PB_EINVAL (target
 * outside [0,1], or unreachable: even an unbounded rate drops more; err
 * says how much), PB_EIO. */
int sniff_target_rate(sniff_model *m, sniff_spool *s, double target,
                      double *rate_out, pb_error *err);

#endif
