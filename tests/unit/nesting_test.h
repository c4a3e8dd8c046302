/* nesting_test.h - what the nesting unit tests that build random traces
 * share: nesting's option defaults and a growable list of events (one
 * message each) sorted by time, ties in the order they were made. */
#ifndef NESTING_TEST_H
#define NESTING_TEST_H

#include "nesting.h"
#include "pb_trace.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* nesting's parameters at their defaults (the option table's) */
static inline nesting_params defaults(void)
{
    nesting_params p;
    pb_error err;
    if (nesting_params_defaults(&p, &err) != PB_OK)
        printf("FAIL defaults: %s\n", err.msg);
    return p;
}

typedef struct ev {
    pb_ns ts;
    unsigned long order; /* tie-break among equal ts (the file order) */
    int src, dst;
    pb_msg_type type;
    uint64_t callid;
} ev;

typedef struct evs {
    ev *a;
    size_t n, cap;
} evs;

/* Appends x to e (grown as needed; the caller frees e->a); exits the test
 * on out of memory. */
static inline void push(evs *e, ev x)
{
    if (e->n == e->cap) {
        e->cap = e->cap ? 2 * e->cap : 256;
        e->a = realloc(e->a, e->cap * sizeof *e->a);
        if (!e->a) {
            printf("FAIL push: out of memory\n");
            exit(1);
        }
    }
    e->a[e->n++] = x;
}

/* qsort order of events: by time, then by the order they were made */
static inline int cmp_ev(const void *a, const void *b)
{
    const ev *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

#endif
