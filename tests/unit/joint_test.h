/* joint_test.h - what the joint unit tests share: joint's option defaults
 * and one message added to a trace under the next id (next_id: set it to 1
 * at the start of a trace). */
#ifndef JOINT_TEST_H
#define JOINT_TEST_H

#include "joint.h"
#include "pb_trace.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint64_t next_id;

/* joint's parameters at their defaults (the option table's) */
static inline joint_params defaults(void)
{
    joint_params p;
    pb_error err;
    memset(&p, 0, sizeof p);
    if (pb_opt_defaults(joint_options, &p, &err) != PB_OK)
        printf("FAIL defaults: %s\n", err.msg);
    return p;
}

/* one message at ts, no receipt stamp, no truth */
static inline void msg(pb_trace *t, pb_ns ts, const char *src, const char *dst,
                       pb_msg_type type, uint64_t callid)
{
    if (pb_trace_add(t, next_id++, ts, PB_TS_NONE, src, dst, type, callid, PB_ID_NONE,
                     PB_ID_NONE) != PB_OK)
        printf("FAIL add: out of memory\n");
}

#endif
