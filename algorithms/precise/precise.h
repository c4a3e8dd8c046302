/*
 * precise.h - what the precise, non-statistical path tracers share
 * (algorithms/precise/, docs/precise.md): vPath as its paper defines it
 * (Tak et al., ATC'09, 2.3 and 3.3; `infer --algo vpath -s
 * variant=paper`) and BorderPatrol's path rules (Koskinen and Jannotti,
 * EuroSys'08, 5.5; `infer --algo borderpatrol`).
 *
 * Both decide, for every message, the path instance it belongs to and the
 * message whose receipt made its sender send it (its cause).  pr_emit
 * renders that decision through the truth views (metrics/tv.h), so the
 * patterns and their per-node (per-tier) latencies follow exactly the
 * definitions the scorer applies to the truth, in the call or the message
 * view.  Messages an algorithm flags (it saw one of its assumptions
 * violated where it placed them) make their instances flagged: the report
 * lists them, and the metadata counts them.
 */
#ifndef PRECISE_H
#define PRECISE_H

#include <stddef.h>
#include <stdint.h>

#include "pb_error.h"
#include "pb_result.h"
#include "pb_trace.h"
#include "tv.h"

#define PR_NONE UINT32_MAX

/* Render per-message decisions of view v as instances in res (view: call
 * or message; res->view is set to its name).  inst[i]: the instance label
 * of message i (PB_ID_NONE: in none); cause[i]: the index of its cause in
 * v (PR_NONE: none; a cause in another instance is ignored).  Causes must
 * not form a cycle, and in the call view each return's causes must lead
 * back to its own call (the algorithms build them so).  flag (may be
 * NULL): flag[i] != 0 marks message i as placed where an assumption was
 * seen to fail; every instance holding a flagged message is listed in the
 * report as "flagged instance N" and counted as flagged_instances= in the
 * metadata.  Returns PB_OK, PB_ENOMEM, or PB_EPARSE when the decisions are
 * inconsistent (a bug; err names the message). */
int pr_emit(const pb_trace_view *v, const uint64_t *inst, const uint32_t *cause,
            const uint8_t *flag, tv_view view, pb_result *res, pb_error *err);

/* Parse a view option ("call" or "message").  Returns PB_OK or PB_EINVAL
 * (err names the option and what was expected). */
int pr_view_parse(const char *s, tv_view *out, pb_error *err);

/* vPath as the paper defines it (vpath_paper.c): run on v with the given
 * pairing of calls and returns (callids: allowed to use the callid column)
 * and view.  Returns PB_OK or an error. */
int pr_vpath_paper(const pb_trace_view *v, int callids, const char *view,
                   pb_result *res, pb_error *err);

#endif
