/*
 * joint_int.h - the state of the joint algorithm, shared by joint.c (the
 * model and the search) and joint_paths.c (the output).  Not a public
 * interface.
 */
#ifndef JOINT_INT_H
#define JOINT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "joint.h"
#include "joint_align.h"

#define JOINT_KMAX 15          /* call counts at or above this share a cell */
#define JOINT_MAX_LINKS (1u << 20)
#define JOINT_SCALE 1000.0     /* flow cost units per nat */
#define JOINT_CMAX 1e6         /* cost clip, units */
#define JOINT_RESPLIT_MAX 8   /* shared calls re-split exhaustively (2^n splits) */
#define JOINT_SWAP_WINDOW 8    /* later calls of a link tried for a return exchange */
#define JOINT_FORBID (-1e4)    /* log-probability of a call the call graph forbids */

/* One call pair.  cs: call sent (caller's clock); cr: call received
 * (callee's clock); rs: return sent (callee's clock); rr: return received
 * (caller's clock).  A missing receive time is taken from the send. */
/* A half pair (call or ret JOINT_NONE: the other message was lost) has
 * the missing end's times copied from the known one. */
typedef struct jpair {
    pb_ns cs, cr, rs, rr;
    uint32_t call, ret;     /* message indices */
    uint32_t caller, callee, link;
} jpair;

typedef struct kvec {
    uint32_t *a;
    uint32_t n, cap;
} kvec;

typedef struct hmap {
    uint64_t *k;
    uint32_t *v;            /* JOINT_NONE: empty */
    size_t n, cap;
} hmap;

struct joint {
    pb_trace_view v;
    joint_params p;
    uint32_t nnodes, npairs;
    jpair *pr;
    uint32_t *pair_of_msg;
    uint32_t *cand_off, *cand;
    size_t ncand, candcap;
    uint32_t *par;          /* chosen parent, or JOINT_NONE */
    kvec *kids;             /* calls ascribed to each request, by call time */

    /* links */
    hmap linkmap;
    uint32_t nlinks, *link_src, *link_dst;
    uint32_t *out_off, *out_links, *link_local;
    uint32_t *bylink_off, *bylink;

    /* model */
    uint32_t nb;            /* density bins */
    double bg;              /* log density of the background (per decade) */
    hmap keymap;            /* (in link, trigger, out) -> density */
    uint32_t nkeys;
    double *hist, *logf, *kstat;
    uint32_t *cnt_off;      /* per in link: offset into cnt (cells x KMAX+1) */
    double *cnt, *cntlp;
    unsigned char *allowed; /* call graph: per (in link, out link) cell, or NULL */

    /* scratch */
    uint32_t *scratch, scratchcap, *edit, editcap, *ccount;
    uint32_t *stamp, epoch, *loc, *loc2, *rqlist, *uf, *comp_cnt, *comp_ord;
    uint32_t *cbuf, *rbuf, *chbuf;

    hmap seen;              /* request pairs re-split in this pass */
    uint32_t *rsbuf, rscap, *dirty, pass_id;
    int use_flow;
    unsigned char *free_ret; /* pair made without a call id: its return may move */
    size_t ret_swaps, resplit_capped;
    pb_ns *qend;            /* re-pairing: latest possible end of each request, or NULL */
    size_t repaired;
    double *kmean;          /* per density key: expected log density */
    pb_ns *hmax;            /* per link: longest whole request (callee's clock) */        /* returns moved by the re-pairing */
    double *ord_inv, *ord_keep; /* per link: log P(inverted), log P(in order) */
    unsigned char *clean;   /* requests no ambiguous call could belong to */
    size_t nclean;

    /* counters */
    size_t halves_call, halves_ret;
    joint_align_stats align; /* pairing without call ids (joint_align.c) */
    size_t calls, returns, others, unmatched_calls, unmatched_returns, repeated;
    size_t ambiguous, nested, flows, flow_failures, largest, moves, swaps, changes;
    int rounds, lpasses;
};

#endif
