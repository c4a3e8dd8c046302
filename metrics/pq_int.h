/*
 * pq_int.h - what pq_parse.c and pq_eval.c share: the parsed query.
 */
#ifndef PQ_INT_H
#define PQ_INT_H

#include "pq.h"

#define PQ_MAXVARS 8
#define PQ_MAXKEYS 8

enum pq_field {
    PQ_F_HOST, PQ_F_PEER, PQ_F_EVENT, PQ_F_TYPE, PQ_F_TIME, PQ_F_LATENCY,
    PQ_F_ATTR, PQ_F_SIZE, PQ_F_ID, PQ_NFIELDS
};

enum pq_op { PQ_EQ, PQ_NE, PQ_LT, PQ_LE, PQ_GT, PQ_GE };

enum pq_kind { PQ_SEND = 0, PQ_RECV = 1, PQ_ANY = 2 };

enum pq_temporal { PQ_ALL, PQ_FIRST, PQ_MOSTRECENT, PQ_FIRSTN, PQ_MOSTRECENTN };

enum pq_agg { PQ_NONE, PQ_COUNT, PQ_SUM, PQ_AVG, PQ_MIN, PQ_MAX };

/* A literal or a field of a variable. */
typedef struct pq_operand {
    int var;        /* -1 for a literal */
    int field;
    int is_num;     /* literal: number (num) or text (str) */
    double num;
    char *str;
    int prefix;     /* text literal ended in '*': prefix match (= and !=) */
    int is_int;     /* literal: a whole number written in digits that fits u */
    uint64_t u;     /* its exact value (ids above 2^53 compare exactly) */
} pq_operand;

/* lhs op rhs; in a source filter lhs is a field of the event itself
 * (var = -2). */
typedef struct pq_cond {
    pq_operand l, r;
    int op;
} pq_cond;

typedef struct pq_source {
    int kind;       /* pq_kind */
    pq_cond *f;     /* filters, all must hold */
    size_t nf;
} pq_source;

typedef struct pq_var {
    char *name;
    pq_source *src; /* union of sources */
    size_t nsrc;
    int temporal;   /* pq_temporal */
    long n;         /* for FIRSTN / MOSTRECENTN */
    int before;     /* Join: index of the bound variable this one happened
                       before; -1 for the From variable */
} pq_var;

typedef struct pq_sel {
    int agg;        /* pq_agg; PQ_NONE = a group field */
    int var, field; /* unused for COUNT */
} pq_sel;

struct pq_query {
    char *name;
    char *text;
    pq_var vars[PQ_MAXVARS];
    int nvars;
    pq_cond *conds;
    size_t nconds;
    int gvar[PQ_MAXKEYS], gfield[PQ_MAXKEYS];
    int ngroups;
    pq_sel *sels;
    size_t nsels;
    int implicit_count; /* Select had no aggregate: count the tuples */
    /* where each field is first named (line, column in src; line 0:
     * never), so that a field the trace lacks is named there
     * (pq_check_fields) */
    long fline[PQ_NFIELDS], fcol[PQ_NFIELDS];
    char *src;
};

extern const char *const pq_field_names[PQ_NFIELDS];

/* Field values are numbers for time, latency, size and id. */
int pq_field_is_num(int field);

#endif
