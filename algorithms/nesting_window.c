/*
 * nesting_window.c - sliding-window nesting (seed 000, section 8: "a
 * sliding window version of the nesting algorithm that processes all
 * messages within a time window into path pattern instances, before
 * processing messages in the next (overlapping) time window").
 *
 * The trace is cut into windows of `window` ns (from the first timestamp).
 * Window k owns the call pairs whose return lies in it.  Its segment (the
 * view nesting.c works on) starts at the earliest call still open when
 * window k begins (the overlap) and ends one window after window k (the
 * look-ahead, so every call open at an owned return finds its own return
 * when it lasts at most one window).  Two passes over the segments:
 *   1. every segment adds its owned pairs' candidate nestings to one
 *      scoreboard (smoothed once at the end if asked);
 *   2. every segment chooses its owned pairs' parents with the complete
 *      scoreboard, taking the parents earlier windows chose for the pairs in
 *      its overlap (so the child penalties count the same children), and
 *      builds the paths whose root returns in the window.
 * With a window longer than the longest call this is whole-trace nesting,
 * choice for choice (tests/sh/test_nesting_window.sh checks it on every
 * shipped config).  A call open longer than the window does not find its
 * return: it and its return count as unmatched (metadata and a warning).
 *
 * Memory: this version works on the trace in memory (infer loads it), so
 * it bounds the per-segment tables (pairs, candidates, open sets) by the
 * window, not the trace itself; see docs/nesting.md "Sliding window".
 */
#include "nesting.h"
#include "nesting_int.h"
#include "pb_pattab.h"

#include <stdlib.h>
#include <string.h>

#define NONE NESTING_NONE

typedef struct wstate {
    const pb_trace_view *v;
    const nesting_params *p;
    nesting *sb;
    nesting_pctx *pc;
    pb_result *res;
    FILE *pw;
    uint32_t *fpar_g;    /* [n] by return message: parent's return (global) */
    uint32_t *fcall_g;   /* [n] by return message: its call, as paired then */
    uint32_t *inst_g;    /* [n] instance of a message, 0 = none */
    uint32_t *tally;     /* per pattern index, this window */
    size_t tallycap;
    size_t pairs, long_calls, with_cands, forced_missing, roots, segments;
} wstate;

static int seg_run(wstate *w, int mode, size_t base, size_t own_lo, size_t own_hi,
                   size_t end, size_t *ovl, double wstart, pb_error *err)
{
    const pb_trace_view *v = w->v;
    pb_trace_view sub = {v->msgs + base, end - base, v->nodes, v->columns};
    uint32_t *rel = NULL, *inst = NULL;
    size_t vn = end - base;
    if (mode == 2) {
        rel = malloc((vn ? vn : 1) * sizeof *rel);
        if (!rel)
            return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
        for (size_t i = 0; i < vn; i++) {
            uint32_t g = w->fpar_g[base + i];
            rel[i] = g == NONE ? NONE : g == NESTING_OUTSIDE || g < base ? NESTING_OUTSIDE
                                                                        : (uint32_t)(g - base);
        }
    }
    nesting_seg seg = {(uint32_t)(own_lo - base), (uint32_t)(own_hi - base), rel, mode, w->sb};
    nesting *s;
    int rc = nesting_init_seg(&s, &sub, w->p, &seg, err);
    if (rc != PB_OK) {
        free(rel);
        return rc;
    }
    uint32_t np = nesting_npairs(s);
    size_t o = own_hi;
    for (uint32_t q = 0; q < np; q++) {
        size_t c = base + nesting_pair_call(s, q), r = base + nesting_pair_return(s, q);
        if (c < own_hi && r >= own_hi && c < o)
            o = c;
        if (r >= own_lo && r < own_hi && mode == 1) {
            w->pairs++;
            if (v->msgs[r].ts - v->msgs[c].ts > w->p->window)
                w->long_calls++;
        }
    }
    *ovl = o;
    nesting_seg_counts_t cnt;
    nesting_seg_counts(s, &cnt);
    if (mode == 1)
        w->with_cands += cnt.with_cands;
    if (mode == 2) {
        /* a pair of the overlap must be the pair the window that chose
         * its parent saw; FIFO pairing without call ids can differ */
        for (uint32_t q = 0; q < np; q++) {
            size_t c = base + nesting_pair_call(s, q), r = base + nesting_pair_return(s, q);
            if (r < own_lo && w->fcall_g[r] != NONE && w->fcall_g[r] != c)
                w->forced_missing++;
        }
        /* the parents chosen here, for the overlap of the next windows */
        for (uint32_t q = 0; q < np; q++) {
            size_t r = base + nesting_pair_return(s, q);
            if (r >= own_hi)
                continue;
            uint32_t par = nesting_pair_parent(s, q);
            w->fcall_g[r] = (uint32_t)(base + nesting_pair_call(s, q));
            w->fpar_g[r] = par == NONE ? NONE : (uint32_t)(base + nesting_pair_return(s, par));
        }
        size_t before = nesting_pctx_instances(w->pc);
        if (!w->res->skip_assign && !(inst = calloc(vn ? vn : 1, sizeof *inst)))
            rc = PB_ENOMEM;
        if (rc == PB_OK)
            rc = nesting_seg_paths(s, w->pc, w->res, inst, &w->roots);
        for (size_t i = 0; inst && i < vn; i++)
            if (inst[i])
                w->inst_g[base + i] = inst[i];
        size_t after = nesting_pctx_instances(w->pc);
        if (rc == PB_OK && w->pw && after > before) {
            size_t npat = pb_pattab_count(w->res->patterns);
            if (npat > w->tallycap) {
                uint32_t *t = realloc(w->tally, npat * 2 * sizeof *t);
                if (!t) {
                    rc = PB_ENOMEM;
                } else {
                    memset(t + w->tallycap, 0, (npat * 2 - w->tallycap) * sizeof *t);
                    w->tally = t;
                    w->tallycap = npat * 2;
                }
            }
            for (size_t i = before + 1; rc == PB_OK && i <= after; i++)
                w->tally[nesting_pctx_pattern(w->pc, (uint32_t)i)]++;
            for (size_t k = 0; rc == PB_OK && k < npat; k++) {
                if (!w->tally[k])
                    continue;
                const pb_pattern *pat = pb_pattab_by_index(w->res->patterns, (uint32_t)k);
                fprintf(w->pw, "%.9g,\"%s\",%u\n", wstart, pat->text, w->tally[k]);
                w->tally[k] = 0;
            }
        }
    }
    free(inst);
    free(rel);
    nesting_close(s);
    if (rc != PB_OK)
        return pb_error_set(err, rc, NULL, 0, 0, "nesting: out of memory in window mode");
    return PB_OK;
}

/* One pass over all windows. */
static int pass(wstate *w, int mode, pb_error *err)
{
    const pb_msg *m = w->v->msgs;
    const size_t n = w->v->n;
    const pb_ns W = w->p->window, t0 = n ? m[0].ts : 0;
    size_t base = 0, lo = 0, hi = 0, end = 0;
    while (lo < n) {
        pb_ns k = (m[lo].ts - t0) / W;
        pb_ns lim = t0 + (k + 1) * W, look = lim + W;
        while (hi < n && m[hi].ts < lim)
            hi++;
        if (end < hi)
            end = hi;
        while (end < n && m[end].ts <= look)
            end++;
        size_t ovl = hi;
        int rc = seg_run(w, mode, base, lo, hi, end, &ovl, pb_ns_to_sec(k * W), err);
        if (rc != PB_OK)
            return rc;
        if (mode == 1)
            w->segments++;
        base = ovl;
        lo = hi;
    }
    return PB_OK;
}

int nesting_window_run(const pb_trace_view *v, const nesting_params *p,
                       pb_result *res, FILE *per_window, pb_error *err)
{
    if (p->window <= 0)
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0, "nesting: window must be > 0");
    if (p->skew_window > 0)
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "nesting: window=... needs skew_window=0 (the sliding "
                            "window relies on calls coming before their returns)");
    if (v->n >= UINT32_MAX - 1)
        return pb_error_set(err, PB_ERANGE, NULL, 0, 0,
                            "nesting: %zu messages; at most %u are supported", v->n,
                            UINT32_MAX - 2);
    size_t calls = 0, returns = 0, others = 0;
    for (size_t i = 0; i < v->n; i++) {
        if (i && v->msgs[i].ts < v->msgs[i - 1].ts)
            return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                                "nesting: window=...: message %zu is earlier than the "
                                "one before; expected rows in time order", i + 1);
        calls += v->msgs[i].type == PB_TYPE_CALL;
        returns += v->msgs[i].type == PB_TYPE_RETURN;
        others += v->msgs[i].type != PB_TYPE_CALL && v->msgs[i].type != PB_TYPE_RETURN;
    }
    if (v->n > 0 && calls + returns == 0)
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "nesting: the trace has no call or return messages; "
                            "the nesting algorithm needs RPC call/return marks "
                            "(the type column)");
    wstate w;
    memset(&w, 0, sizeof w);
    w.v = v;
    w.p = p;
    w.res = res;
    w.pw = per_window;
    int rc = nesting_sb_new(&w.sb, p);
    if (rc == PB_OK)
        rc = nesting_pctx_new(&w.pc);
    if (rc == PB_OK) {
        w.fpar_g = malloc((v->n ? v->n : 1) * sizeof *w.fpar_g);
        w.inst_g = calloc(v->n ? v->n : 1, sizeof *w.inst_g);
        w.fcall_g = malloc((v->n ? v->n : 1) * sizeof *w.fcall_g);
        if (!w.fpar_g || !w.inst_g || !w.fcall_g)
            rc = PB_ENOMEM;
    }
    if (rc != PB_OK) {
        pb_error_set(err, rc, NULL, 0, 0, "nesting: out of memory");
        goto out;
    }
    for (size_t i = 0; i < v->n; i++)
        w.fpar_g[i] = NESTING_OUTSIDE, w.fcall_g[i] = NONE;
    if (per_window)
        fputs("window_start_s,pattern,count\n", per_window);
    if ((rc = pass(&w, 1, err)) != PB_OK || (rc = nesting_sb_smooth(w.sb, err)) != PB_OK ||
        (rc = pass(&w, 2, err)) != PB_OK)
        goto out;
    for (size_t i = 0; !res->skip_assign && i < v->n && rc == PB_OK; i++)
        if (w.inst_g[i])
            rc = pb_result_assign(res, v->msgs[i].id, w.inst_g[i],
                                  nesting_pctx_pattern(w.pc, w.inst_g[i]));
    if (rc == PB_OK) {
        pb_result_meta(res, "calls=%zu", calls);
        pb_result_meta(res, "returns=%zu", returns);
        pb_result_meta(res, "other_messages=%zu", others);
        pb_result_meta(res, "call_pairs=%zu", w.pairs);
        pb_result_meta(res, "unmatched_calls=%zu", calls - w.pairs);
        pb_result_meta(res, "unmatched_returns=%zu", returns - w.pairs);
        pb_result_meta(res, "nested_pairs=%zu", w.with_cands);
        pb_result_meta(res, "histograms=%u", nesting_sb_nhist(w.sb));
        pb_result_meta(res, "windows=%zu", w.segments);
        pb_result_meta(res, "paths=%zu", w.roots);
        rc = pb_result_meta(res, "patterns=%zu", pb_pattab_count(res->patterns));
    }
    if (rc == PB_OK && w.long_calls)
        rc = pb_result_warn(res, "window=%.9gs: %zu calls lasted longer than the window "
                                 "(paired anyway, since a window looks one window ahead): "
                                 "their candidates and the overlap of the next window can "
                                 "miss calls, so the result may differ from whole-trace "
                                 "nesting; a window longer than the longest call gives "
                                 "exactly whole-trace nesting",
                            pb_ns_to_sec(p->window), w.long_calls);
    if (rc == PB_OK && returns > w.pairs) {
        char wb[64];
        snprintf(wb, sizeof wb, "%.9g", pb_ns_to_sec(p->window));
        rc = pb_result_warn(res, "window=%ss: %zu returns found no open call within the "
                                 "window before them (a call open longer than the window, "
                                 "or a return without a call); both sides counted as "
                                 "unmatched, as whole-trace nesting does for returns "
                                 "without a call", wb, returns - w.pairs);
    }
    if (rc == PB_OK && w.forced_missing)
        rc = pb_result_warn(res, "window: %zu pairs of an overlap were paired differently "
                                 "than in the window that chose their parents (FIFO "
                                 "pairing without call ids, 5.1.1.1): the result may "
                                 "differ from whole-trace nesting there",
                            w.forced_missing);
    if (rc != PB_OK)
        pb_error_set(err, rc, NULL, 0, 0, "nesting: out of memory");
out:;
    int rc2 = nesting_pctx_finish(w.pc, p, rc == PB_OK ? res : NULL);
    if (rc == PB_OK && rc2 != PB_OK)
        rc = pb_error_set(err, rc2, NULL, 0, 0, "nesting: out of memory drawing");
    nesting_close(w.sb);
    free(w.fpar_g);
    free(w.fcall_g);
    free(w.inst_g);
    free(w.tally);
    return rc;
}
