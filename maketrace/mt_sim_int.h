/*
 * mt_sim_int.h - internals shared by the event-ordered maketrace engine
 * (mt_sim.c: paths, frames, the event heap, the API) and its execution and
 * connection models (mt_sim_models.c: workers, dispatchers, event loops,
 * SEDA stages, connections).  Not installed.
 */
#ifndef MT_SIM_INT_H
#define MT_SIM_INT_H

#include "mt_internal.h"

typedef struct smsg {
    pb_ns ts, recv;
    uint64_t gid, callid;
    uint32_t src, dst;   /* config node indices */
    int32_t cause, pair; /* indices in the path's buffer, or -1 */
    uint32_t label;
    uint8_t type;
    uint64_t sthr, rthr; /* with models: sending / receiving thread (TH) */
    uint32_t conn;       /* with models: connection number + 1 on its link */
    uint32_t pseq;       /* a call on a pipelined connection: its place in
                            the connection's queue (cstate.hseq counts) */
} smsg;

typedef struct spath {
    struct spath *prev, *next;  /* all paths alive (not yet freed) */
    uint32_t tr;
    uint32_t inst;
    smsg *buf;
    uint32_t n, cap;
    uint32_t emitted;     /* messages written or skipped */
    uint64_t *pathid;     /* per label */
    uint32_t nlabels;
    uint32_t *jarr;       /* per join group: parts arrived so far */
    int64_t live;         /* frames alive + messages in flight */
    int complete, dropped, queued_done;
    pb_ns t0, first, end, think;
} spath;

enum { F_ROOT, F_SEQ, F_BRANCH, F_CALL, F_SEND };

typedef struct frame {
    spath *path;
    struct frame *up;     /* SEQ, BRANCH: the parent; CALL: the caller */
    const mt_op *const *ops;
    const mt_op *op;      /* CALL: the call (its ret delay) */
    uint32_t nops, i;
    uint32_t node;
    int kind;
    pb_ns t;              /* this thread's clock */
    int32_t cause;        /* last message it received, or -1 */
    pb_ns crt;            /* when that message was received */
    int32_t callmsg;      /* CALL: the call being served */
    int32_t held;         /* CALL: node whose worker it holds, or -1 */
    uint32_t branch;      /* BRANCH: index among the par's branches */
    /* while suspended at a par: */
    uint32_t par_left, par_best;
    pb_ns par_maxt, par_crt;
    int32_t par_cause, par_start;
    int par_changed;
    /* with models: */
    struct frame *job;    /* the frame of the served call (or root, or
                             one-way block) this thread of execution is part of */
    uint64_t thr;         /* job frames: the thread running it now (TH) */
    uint32_t frag;        /* job frames: inputs processed (SEDA stages) */
    double slow;          /* CALL: the served call's slowdown (1: none):
                             every delay its block draws at this node and
                             its return's delay are multiplied by it */
} frame;

enum { EV_SEND, EV_RECV, EV_FREE };

typedef struct ev {
    pb_ns t;
    uint64_t seq;
    spath *path;
    frame *fr;            /* CALL send/recv: the caller; RETURN: the caller to resume */
    const mt_op *op;      /* CALL, MSG: the statement (its block) */
    int32_t msg;
    int32_t held;         /* RETURN: the worker it releases (node), or -1 */
    uint8_t kind;
    uint32_t fnode, fid;  /* EV_FREE: the node, thread or stage thread id */
    uint32_t fstage;      /* EV_FREE: 0 event thread, else SEDA stage + 1 */
} ev;

/* A call waiting for (or given) a worker. */
typedef struct job {
    spath *path;
    frame *caller;
    const mt_op *op;
    int32_t msg;
    int block;            /* run the block (not a join's earlier part) */
    uint32_t wid1;        /* models: worker id + 1 it must run on (a call
                             read in a batch), or 0: the lowest free */
} job;

typedef struct wqueue {
    job *v;
    size_t head, n, cap;
    int busy;
} wqueue;

/* Thread identities (models): kind, stage, id packed in 64 bits. */
#define TH(kind, stage, id) (((uint64_t)(kind) << 56) | ((uint64_t)(stage) << 32) | (uint32_t)(id))
#define TH_KIND(t) ((int)((t) >> 56))
#define TH_STAGE(t) ((uint32_t)(((t) >> 32) & 0xffffff))
#define TH_ID(t) ((uint32_t)(t))
enum { TH_W = 1, TH_D, TH_E, TH_S, TH_C, TH_M, TH_X };

/* Lowest-free id allocator: ids below `next` not in the heap are in use. */
typedef struct idalloc {
    uint32_t *h;
    size_t n, cap;
    uint32_t next, inuse;
} idalloc;

enum { IN_CALL, IN_RET, IN_MSG };

/* An input waiting for an event-driven node's thread. */
typedef struct input {
    int kind;
    job j;                /* IN_CALL */
    spath *path;
    frame *fr;            /* IN_RET: the frame to resume */
    const mt_op *op;      /* IN_MSG: the statement */
    int32_t msg;
} input;

/* Per config node, with models. */
typedef struct nstate {
    idalloc ids;          /* pool, dispatcher: worker ids */
    idalloc *sids;        /* seda: per stage */
    uint8_t *tbusy;       /* event: per thread */
    input *q;             /* event: inputs in arrival order */
    size_t qh, qn, qcap;
    uint32_t mnext;       /* one-way blocks at a pool node: thread ids */
    wqueue *backlog;      /* bounded pool with batch > 1: per worker id,
                             the calls it read with its last read */
    uint32_t nbacklog;
} nstate;

/* A call outstanding on a pipelined connection (its reply may wait). */
typedef struct pend {
    spath *path;
    int32_t call;
    int ready;
    ev e;                 /* ready: the reply's send, held back */
} pend;

typedef struct cstate {
    pend *v;
    size_t h, n, cap;     /* n: calls outstanding */
    uint32_t hseq;        /* pipelined: the pseq of the call at the head
                             (the queue's pops so far, mod 2^32) */
    uint32_t hpos;        /* its place in lstate.heap */
} cstate;

/* Per (caller, callee) pair of config nodes, with models. */
typedef struct lstate {
    uint32_t next;        /* new: connections opened so far */
    idalloc ids;          /* pool: connections in use */
    ev *wait;             /* pool: calls waiting for a connection */
    size_t wh, wn, wcap;
    cstate *c;            /* pipelined, multiplexed: per connection */
    int nc;               /* entries of c */
    uint32_t *heap;       /* the connections used so far (0 .. nheap-1),
                             a min-heap by (calls outstanding, number):
                             the choice of a connection was a scan of all
                             conns=K, K up to 10^6, for every call */
    uint32_t nheap;
} lstate;

typedef struct outref {
    spath *path;
    uint32_t idx;
} outref;

struct mt_sim {
    const mt_config *cfg;
    gsl_rng *rng;
    const uint32_t *nodemap;
    mt_acct *acct;
    ev *heap;
    size_t nheap, heapcap;
    uint64_t seq;
    wqueue *wq;           /* per config node */
    outref *out;          /* ring of sent messages, in send order */
    size_t ohead, on, ocap;
    spath *paths;         /* list of paths alive */
    spath **done;         /* paths whose live count reached 0 */
    size_t ndone, donecap;
    frame *freef;         /* free list of frames */
    void **chunks;        /* frame chunks, freed at close */
    size_t nchunks, chunkcap;
    uint32_t *pool;
    double *pool_cum;
    uint32_t npool;
    uint64_t committed;
    int stop, finished, oom;
    int32_t *lastrecv;    /* interleave scratch */
    /* with models: */
    pb_names *names;      /* labels are interned here */
    nstate *ns;           /* per config node */
    lstate **lsv;         /* per (src, dst) pair that calls, made at its
                             first call (an n x n table before hostile
                             round 18: 8,000 nodes took 500 MB) */
    size_t nls, lscap;
    mt_u64map lsmap;      /* src << 32 | dst -> index in lsv */
    uint64_t cur_thr;     /* the thread running now: sender of new messages */
    int frag_on;          /* a fragment runs: track its last send */
    pb_ns frag_end;
    pb_ns now;            /* time of the event being processed */
};

/* mt_sim.c: containers, ids, paths and frames (each O(1) or O(log events
 * in flight); memory errors set s->oom) */
uint32_t mts_id_take(mt_sim *s, idalloc *a);
void mts_id_give(mt_sim *s, idalloc *a, uint32_t id);
job mts_wq_pop(wqueue *q);
void mts_wq_push(mt_sim *s, wqueue *q, job j);
void mts_pend_push(mt_sim *s, cstate *c, spath *p, int32_t call);
void mts_wait_push(mt_sim *s, lstate *l, const ev *e);
lstate *mts_ls(mt_sim *s, uint32_t src, uint32_t dst);
void mts_in_push(mt_sim *s, nstate *n, input in);
void mts_mark_done(mt_sim *s, spath *p);
void mts_resume(mt_sim *s, frame *f, int32_t msg, pb_ns t);
void mts_start_job(mt_sim *s, const job *j, pb_ns t, int32_t held);
void mts_start_msg(mt_sim *s, spath *p, const mt_op *op, int32_t msg, pb_ns t, uint64_t thr);
void mts_ev_push(mt_sim *s, ev e);
ev mts_ev_pop(mt_sim *s);
void mts_out_push(mt_sim *s, spath *p, uint32_t idx);
void mts_drain_done(mt_sim *s);
void mts_stop_all(mt_sim *s);

/* mt_sim_models.c: take the next event and run it; 0 when none is left */
int mts_step(mt_sim *s);

#endif
