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
 * Memory: the messages are read through a buffer that holds one segment
 * (nesting_window_stream reads the file twice with pb_reader; stdin is
 * first copied to a temporary file), so memory follows the window, not the
 * trace; infer spools the assignment table to a temporary file
 * (pb_result_spool_assign) as the windows close.
 */
#include "nesting.h"
#include "nesting_int.h"
#include "pb_pattab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE NESTING_NONE

/* Where messages come from: a view in memory or a streaming reader. */
typedef struct wsrc {
    const pb_trace_view *v;   /* or NULL */
    size_t vpos;
    pb_reader *r;
    FILE *fp;                 /* the file the reader reads (rewound for pass 2) */
    const char *name;
    pb_names *names;
    pb_reader_opts ropts;
} wsrc;

typedef struct wstate {
    const nesting_params *p;
    wsrc *src;
    const pb_strtab *nodes;
    unsigned columns;
    nesting *sb;
    nesting_pctx *pc;
    pb_result *res;
    FILE *pw;
    /* the buffer: messages [gbase, gbase + bn) of the trace, and beside
     * each, for the return of a pair chosen by an earlier window, its
     * parent's return and its call (global indices), and its instance */
    pb_msg *buf;
    size_t *fpar, *fcall;
    uint32_t *inst;
    size_t gbase, bn, bcap;
    int eof;
    pb_ns t0, last_ts;
    size_t total;
    pb_fingerprint fp;
    uint32_t *tally;     /* per pattern index, this window */
    size_t tallycap;
    size_t calls, returns, others;
    size_t pairs, long_calls, with_cands, forced_missing, roots, segments, peak;
} wstate;

#define GNONE ((size_t)-1)
#define GOUT ((size_t)-2)

static int src_next(wsrc *s, pb_msg *m, pb_error *err, int *got)
{
    *got = 0;
    if (s->v) {
        if (s->vpos >= s->v->n)
            return PB_OK;
        *m = s->v->msgs[s->vpos++];
        *got = 1;
        return PB_OK;
    }
    int rc = pb_reader_next(s->r, m, NULL, err);
    if (rc < 0)
        return rc;
    *got = rc == 1;
    return PB_OK;
}

static int src_rewind(wsrc *s, pb_error *err)
{
    if (s->v) {
        s->vpos = 0;
        return PB_OK;
    }
    pb_reader_close(s->r);
    s->r = NULL;
    if (fseek(s->fp, 0, SEEK_SET) != 0)
        return pb_error_set(err, PB_EIO, s->name, 0, 0, "cannot rewind for the second pass");
    return pb_reader_open_fp(&s->r, s->fp, s->name, s->names, &s->ropts, err);
}

/* Read one more message into the buffer; *got = 0 at the end. */
static int fill1(wstate *w, int mode, int *got, pb_error *err)
{
    if (w->eof) {
        *got = 0;
        return PB_OK;
    }
    if (w->bn == w->bcap) {
        size_t nc = w->bcap ? w->bcap * 2 : 4096;
        pb_msg *a = realloc(w->buf, nc * sizeof *a);
        if (a)
            w->buf = a;
        size_t *f = a ? realloc(w->fpar, nc * sizeof *f) : NULL;
        if (f)
            w->fpar = f;
        size_t *g = f ? realloc(w->fcall, nc * sizeof *g) : NULL;
        if (g)
            w->fcall = g;
        uint32_t *in = g ? realloc(w->inst, nc * sizeof *in) : NULL;
        if (!in)
            return pb_error_set(err, PB_ENOMEM, NULL, 0, 0,
                                "nesting: out of memory buffering a window of %zu messages",
                                w->bn);
        w->inst = in;
        w->bcap = nc;
        if (nc > w->peak)
            w->peak = nc;
    }
    pb_msg *m = &w->buf[w->bn];
    int rc = src_next(w->src, m, err, got);
    if (rc != PB_OK)
        return rc;
    if (!*got) {
        w->eof = 1;
        return PB_OK;
    }
    size_t g = w->gbase + w->bn;
    if (g == 0)
        w->t0 = m->ts;
    else if (m->ts < w->last_ts)
        return pb_error_set(err, PB_EINVAL, w->src->r ? w->src->name : NULL,
                            w->src->r ? pb_reader_line(w->src->r) : 0, 0,
                            "nesting: window=...: message %zu is earlier than the one "
                            "before; expected rows in time order (sort the trace first)",
                            g + 1);
    if (g >= (size_t)UINT32_MAX - 2)
        return pb_error_set(err, PB_ERANGE, NULL, 0, 0,
                            "nesting: more than %u messages", UINT32_MAX - 2);
    w->last_ts = m->ts;
    w->fpar[w->bn] = GOUT;
    w->fcall[w->bn] = GNONE;
    w->inst[w->bn] = 0;
    w->bn++;
    if (mode == 1) {
        w->total++;
        w->calls += m->type == PB_TYPE_CALL;
        w->returns += m->type == PB_TYPE_RETURN;
        w->others += m->type != PB_TYPE_CALL && m->type != PB_TYPE_RETURN;
    }
    return PB_OK;
}

/* Message g (global index) is in the buffer, reading as needed; 0 past the
 * end of the trace. */
static int have(wstate *w, int mode, size_t g, int *ok, pb_error *err)
{
    *ok = 1;
    while (g >= w->gbase + w->bn) {
        int got, rc = fill1(w, mode, &got, err);
        if (rc != PB_OK)
            return rc;
        if (!got) {
            *ok = 0;
            return PB_OK;
        }
    }
    return PB_OK;
}

/* Drop the messages before global index g: pass 2 writes their rows of the
 * assignment table (final by then: their paths were all built) and adds
 * them to the fingerprint. */
static int drop(wstate *w, int mode, size_t g)
{
    size_t k = g - w->gbase;
    if (k > w->bn)
        k = w->bn;
    if (!k)
        return PB_OK;
    int rc = PB_OK;
    if (mode == 2) {
        for (size_t i = 0; i < k && rc == PB_OK && !w->res->skip_assign; i++)
            if (w->inst[i])
                rc = pb_result_assign(w->res, w->buf[i].id, w->inst[i],
                                      nesting_pctx_pattern(w->pc, w->inst[i]));
        pb_fingerprint f;
        if (rc == PB_OK && (rc = pb_fingerprint_of(w->buf, k, w->nodes, &f)) == PB_OK) {
            w->fp.messages += f.messages;
            w->fp.ids += f.ids;
        }
    }
    memmove(w->buf, w->buf + k, (w->bn - k) * sizeof *w->buf);
    memmove(w->fpar, w->fpar + k, (w->bn - k) * sizeof *w->fpar);
    memmove(w->fcall, w->fcall + k, (w->bn - k) * sizeof *w->fcall);
    memmove(w->inst, w->inst + k, (w->bn - k) * sizeof *w->inst);
    w->bn -= k;
    w->gbase += k;
    return rc;
}

static int seg_run(wstate *w, int mode, size_t base, size_t own_lo, size_t own_hi,
                   size_t end, size_t *ovl, double wstart, pb_error *err)
{
    const size_t off = base - w->gbase, vn = end - base;
    const pb_msg *msgs = w->buf + off;
    pb_trace_view sub = {msgs, vn, w->nodes, w->columns};
    uint32_t *rel = NULL;
    *ovl = own_hi;
    if (mode == 2) {
        rel = malloc((vn ? vn : 1) * sizeof *rel);
        if (!rel)
            return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
        for (size_t i = 0; i < vn; i++) {
            size_t g = w->fpar[off + i];
            rel[i] = g == GNONE ? NONE : g == GOUT || g < base ? NESTING_OUTSIDE
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
            if (msgs[r - base].ts - msgs[c - base].ts > w->p->window)
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
            if (r < own_lo && w->fcall[r - w->gbase] != GNONE && w->fcall[r - w->gbase] != c)
                w->forced_missing++;
        }
        /* the parents chosen here, for the overlap of the next windows */
        for (uint32_t q = 0; q < np; q++) {
            size_t r = base + nesting_pair_return(s, q);
            if (r >= own_hi)
                continue;
            uint32_t par = nesting_pair_parent(s, q);
            w->fcall[r - w->gbase] = base + nesting_pair_call(s, q);
            w->fpar[r - w->gbase] = par == NONE ? GNONE : base + nesting_pair_return(s, par);
        }
        size_t before = nesting_pctx_instances(w->pc);
        uint32_t *inst = NULL;
        if (!w->res->skip_assign && !(inst = calloc(vn ? vn : 1, sizeof *inst)))
            rc = PB_ENOMEM;
        if (rc == PB_OK)
            rc = nesting_seg_paths(s, w->pc, w->res, inst, &w->roots);
        for (size_t i = 0; inst && i < vn; i++)
            if (inst[i])
                w->inst[off + i] = inst[i];
        free(inst);
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
                if (fprintf(w->pw, "%.9g,\"%s\",%u\n", wstart, pat->text, w->tally[k]) < 0)
                    rc = PB_EIO;
                w->tally[k] = 0;
            }
        }
    }
    free(rel);
    nesting_close(s);
    if (rc == PB_EIO)
        return pb_error_set(err, rc, NULL, 0, 0, "nesting: writing the per-window counts failed");
    if (rc != PB_OK)
        return pb_error_set(err, rc, NULL, 0, 0, "nesting: out of memory in window mode");
    return PB_OK;
}

/* One pass over all windows. */
static int pass(wstate *w, int mode, pb_error *err)
{
    const pb_ns W = w->p->window;
    size_t base = 0, lo = 0, hi = 0, end = 0;
    int ok, rc;
    w->gbase = w->bn = 0;
    w->eof = 0;
    if ((rc = src_rewind(w->src, err)) != PB_OK)
        return rc;
    for (;;) {
        if ((rc = have(w, mode, lo, &ok, err)) != PB_OK)
            return rc;
        if (!ok)
            break;
        /* window k starts at t0 + k W; unsigned arithmetic and saturation
         * so that no timestamp (negative ones, ones near INT64_MAX) can
         * overflow: a saturated bound takes every remaining message */
        const uint64_t diff = (uint64_t)w->buf[lo - w->gbase].ts - (uint64_t)w->t0;
        const uint64_t k = diff / (uint64_t)W;
        const pb_ns start = (pb_ns)((uint64_t)w->t0 + k * (uint64_t)W);
        const int sat1 = start > INT64_MAX - W, sat2 = sat1 || start + W > INT64_MAX - W;
        const pb_ns lim = sat1 ? INT64_MAX : start + W, look = sat2 ? INT64_MAX : lim + W;
        for (;;) {
            if ((rc = have(w, mode, hi, &ok, err)) != PB_OK)
                return rc;
            if (!ok || (!sat1 && w->buf[hi - w->gbase].ts >= lim))
                break;
            hi++;
        }
        if (end < hi)
            end = hi;
        for (;;) {
            if ((rc = have(w, mode, end, &ok, err)) != PB_OK)
                return rc;
            if (!ok || (!sat2 && w->buf[end - w->gbase].ts > look))
                break;
            end++;
        }
        size_t ovl = hi;
        if ((rc = seg_run(w, mode, base, lo, hi, end, &ovl, (double)k * pb_ns_to_sec(W),
                          err)) != PB_OK)
            return rc;
        if (mode == 1)
            w->segments++;
        base = ovl;
        lo = hi;
        if ((rc = drop(w, mode, base)) != PB_OK)
            break;
    }
    if (rc == PB_OK)
        rc = drop(w, mode, w->gbase + w->bn);
    if (rc == PB_EIO)
        return pb_error_set(err, rc, NULL, 0, 0,
                            "nesting: writing the spooled assignment table failed "
                            "(disk full? set TMPDIR)");
    if (rc != PB_OK)
        return pb_error_set(err, rc, NULL, 0, 0, "nesting: out of memory");
    return PB_OK;
}

static int run(wsrc *src, const pb_strtab *nodes, unsigned columns,
               const nesting_params *p, pb_result *res, FILE *per_window,
               nesting_window_info *info, pb_error *err)
{
    if (p->window <= 0)
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0, "nesting: window must be > 0");
    if (p->skew_window > 0)
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "nesting: window=... needs skew_window=0 (the sliding "
                            "window relies on calls coming before their returns)");
    wstate w;
    memset(&w, 0, sizeof w);
    w.p = p;
    w.src = src;
    w.nodes = nodes;
    w.columns = columns;
    w.res = res;
    w.pw = per_window;
    int rc = nesting_sb_new(&w.sb, p);
    if (rc == PB_OK)
        rc = nesting_pctx_new(&w.pc);
    if (rc != PB_OK) {
        pb_error_set(err, rc, NULL, 0, 0, "nesting: out of memory");
        goto out;
    }
    if ((rc = pass(&w, 1, err)) != PB_OK)
        goto out;
    if (w.total > 0 && w.calls + w.returns == 0) {
        rc = pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                          "nesting: the trace has no call or return messages; "
                          "the nesting algorithm needs RPC call/return marks "
                          "(the type column)");
        goto out;
    }
    if (per_window && fputs("window_start_s,pattern,count\n", per_window) < 0) {
        rc = pb_error_set(err, PB_EIO, NULL, 0, 0, "nesting: writing the per-window counts failed");
        goto out;
    }
    if ((rc = nesting_sb_smooth(w.sb, err)) != PB_OK || (rc = pass(&w, 2, err)) != PB_OK)
        goto out;
    if (rc == PB_OK) {
        pb_result_meta(res, "calls=%zu", w.calls);
        pb_result_meta(res, "returns=%zu", w.returns);
        pb_result_meta(res, "other_messages=%zu", w.others);
        pb_result_meta(res, "call_pairs=%zu", w.pairs);
        pb_result_meta(res, "unmatched_calls=%zu", w.calls - w.pairs);
        pb_result_meta(res, "unmatched_returns=%zu", w.returns - w.pairs);
        pb_result_meta(res, "nested_pairs=%zu", w.with_cands);
        pb_result_meta(res, "histograms=%u", nesting_sb_nhist(w.sb));
        pb_result_meta(res, "windows=%zu", w.segments);
        pb_result_meta(res, "window_buffer_peak=%zu", w.peak);
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
    if (rc == PB_OK && w.returns > w.pairs)
        rc = pb_result_warn(res, "window=%.9gs: %zu returns found no open call within the "
                                 "window before them (a call open longer than the window, "
                                 "or a return without a call); both sides counted as "
                                 "unmatched, as whole-trace nesting does for returns "
                                 "without a call", pb_ns_to_sec(p->window),
                            w.returns - w.pairs);
    if (rc == PB_OK && w.forced_missing)
        rc = pb_result_warn(res, "window: %zu pairs of an overlap were paired differently "
                                 "than in the window that chose their parents (FIFO "
                                 "pairing without call ids, 5.1.1.1): the result may "
                                 "differ from whole-trace nesting there",
                            w.forced_missing);
    if (rc != PB_OK)
        pb_error_set(err, rc, NULL, 0, 0, "nesting: out of memory");
    if (info) {
        info->messages = w.total;
        info->fp = w.fp;
    }
out:;
    int rc2 = nesting_pctx_finish(w.pc, p, rc == PB_OK ? res : NULL);
    if (rc == PB_OK && rc2 != PB_OK)
        rc = pb_error_set(err, rc2, NULL, 0, 0, "nesting: out of memory drawing");
    nesting_close(w.sb);
    free(w.buf);
    free(w.fpar);
    free(w.fcall);
    free(w.inst);
    free(w.tally);
    return rc;
}

int nesting_window_run(const pb_trace_view *v, const nesting_params *params,
                       pb_result *res, FILE *per_window, pb_error *err)
{
    wsrc src;
    memset(&src, 0, sizeof src);
    src.v = v;
    return run(&src, v->nodes, v->columns, params, res, per_window, NULL, err);
}

int nesting_window_stream(const char *path, const pb_reader_opts *ropts,
                          const nesting_params *params, pb_result *res,
                          FILE *per_window, nesting_window_info *info, pb_error *err)
{
    wsrc src;
    memset(&src, 0, sizeof src);
    src.ropts = *ropts;
    src.ropts.check_ids = 0;   /* 16 bytes a message: not in bounded memory */
    int rc = pb_names_init(&src.names);
    if (rc != PB_OK)
        return pb_error_set(err, rc, NULL, 0, 0, "out of memory");
    int is_stdin = !path || !strcmp(path, "-");
    src.name = is_stdin ? "<stdin>" : path;
    if (is_stdin) {
        /* two passes: stdin is copied to a temporary file first */
        src.fp = tmpfile();
        char b[65536];
        size_t k;
        if (!src.fp)
            rc = pb_error_set(err, PB_EIO, NULL, 0, 0,
                              "nesting: window=...: cannot create a temporary file "
                              "for stdin (needed for the second pass)");
        while (rc == PB_OK && (k = fread(b, 1, sizeof b, stdin)) > 0)
            if (fwrite(b, 1, k, src.fp) != k)
                rc = pb_error_set(err, PB_EIO, NULL, 0, 0,
                                  "nesting: window=...: writing the temporary copy of "
                                  "stdin failed (disk full?)");
        if (rc == PB_OK && ferror(stdin))
            rc = pb_error_set(err, PB_EIO, "<stdin>", 0, 0, "read error");
        if (rc == PB_OK && (fflush(src.fp) != 0 || fseek(src.fp, 0, SEEK_SET) != 0))
            rc = pb_error_set(err, PB_EIO, NULL, 0, 0,
                              "nesting: window=...: writing the temporary copy of "
                              "stdin failed (disk full?)");
    } else if (!(src.fp = fopen(path, "rb"))) {
        rc = pb_error_set(err, PB_EIO, path, 0, 0, "cannot open");
    }
    if (rc == PB_OK && (rc = pb_reader_open_fp(&src.r, src.fp, src.name, src.names,
                                               &src.ropts, err)) == PB_OK) {
        unsigned cols = pb_reader_columns(src.r) & ~(unsigned)PB_COL_TRUTH;
        if (info) {
            info->nmeta = pb_reader_meta_count(src.r);
            info->meta = calloc(info->nmeta ? info->nmeta : 1, sizeof *info->meta);
            for (size_t i = 0; info->meta && i < info->nmeta; i++)
                info->meta[i] = strdup(pb_reader_meta(src.r, i));
        }
        rc = run(&src, src.names->nodes, cols, params, res, per_window, info, err);
    }
    pb_reader_close(src.r);
    if (src.fp)
        fclose(src.fp);
    if (info)
        info->names = src.names;
    else
        pb_names_close(src.names);
    return rc;
}

void nesting_window_info_free(nesting_window_info *info)
{
    if (!info)
        return;
    for (size_t i = 0; info->meta && i < info->nmeta; i++)
        free(info->meta[i]);
    free(info->meta);
    pb_names_close(info->names);
    memset(info, 0, sizeof *info);
}
