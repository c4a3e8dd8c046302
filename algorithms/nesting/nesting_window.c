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
 * Calls and returns are paired once for the whole stream, as each row is
 * read (nesting_pairer: the FIFO of 5.1.1.1 per key, call ids or not), and
 * a segment takes the pairs whose call and return it holds; so pairing
 * does not depend on where the windows fall.  A call that no return took
 * within two windows is dropped (expired_calls).
 * With a window longer than the longest call pair this is whole-trace
 * nesting, choice for choice, and so are the metadata counters
 * (tests/sh/test_nesting_window.sh checks it on every shipped config, with
 * and without call ids).  A call open longer than the look-ahead does not
 * find its return: it and its return count as unmatched (metadata and a
 * warning).
 *
 * Memory: the messages are read through a buffer that holds one segment
 * (nesting_window_stream reads a file twice with pb_reader; standard input
 * is read once, the parsed messages spooled in binary to a temporary file
 * that pass 2 reads), so memory follows the window, not the trace; infer
 * spools the assignment table to a temporary file (pb_result_spool_assign)
 * as the windows close.  Pass 1 also checks message ids for duplicates
 * within two windows and measures the timestamp tick, streaming.
 */
#include "pb_files.h"
#include "nesting.h"
#include "nesting_int.h"
#include "callview_paths.h"
#include "pb_mem.h"
#include "pb_pattab.h"
#include "pb_tick.h"
#include "pb_tmp.h"

#include <math.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

#define NONE NESTING_NONE

/* Where messages come from: a view in memory, a streaming reader, or the
 * binary spool pass 1 wrote while reading standard input. */
typedef struct wsrc {
    const pb_trace_view *v;   /* or NULL */
    size_t vpos;
    pb_reader *r;
    FILE *fp;                 /* the file the reader reads (rewound for pass 2) */
    FILE *spool;              /* stdin: pass 1 writes every message here ... */
    int from_spool;           /* ... and pass 2 reads them back */
    int passes;               /* rewinds so far */
    const char *name;
    pb_names *names;
    pb_reader_opts ropts;
} wsrc;

/* Message ids of the current and the previous window, with the line of
 * each, for the duplicate check while streaming: appended to an array per
 * window, and put in a hash set only when a row's id is not above every id
 * before it (ids that only grow, as maketrace writes them, never need
 * one). */
typedef struct ident {
    uint64_t id;
    long line;                /* 0: empty slot */
} ident;

typedef struct idset2 {
    ident *a[2];              /* [cur] this window's rows, [!cur] the one before */
    size_t n[2], acap[2];
    ident *h[2];              /* hash sets over a[.][0 .. hn[.]) */
    size_t hcap[2], hn[2];
    int cur;
    uint64_t k;               /* window of a[cur] */
    uint64_t maxid;           /* largest id so far */
    int started;
} idset2;

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
    size_t *fpar;
    uint32_t *gcall;     /* for a return: the global index of its call
                            (the pairer's), or NONE */
    uint32_t *inst;
    uint32_t *ipat;      /* the pattern of that instance (the path context
                            forgets instances once their window closes) */
    double *fshare;      /* beside fpar: the share of that pair's choice */
    uint64_t *pid;       /* the parent message id each message was given
                            (PB_NO_PARENT) ... */
    double *pconf;       /* ... and its confidence */
    size_t gbase, bn, bcap;
    int eof;
    pb_ns t0, last_ts;
    size_t total;
    pb_fingerprint fp;
    uint64_t *nh;        /* the fingerprint's hashes of the first nhn node
                            names (each name hashed once, not per window) */
    uint32_t nhn, nhcap;
    uint32_t *tally;     /* per pattern index, this window */
    size_t tallycap;
    uint32_t *touched;   /* the pattern indices tallied this window */
    size_t touchcap;
    size_t calls, returns, others;
    size_t pairs, long_calls, with_cands, cands, same_tick, roots, segments, peak;
    size_t capped, capped_max; /* calls max_candidates cut */
    size_t repeated, no_callid;
    nesting_pairer *pr;  /* the pairing of the current pass */
    size_t expired;
    pb_tick_acc tick;    /* pass 1 */
    int check_ids;       /* streaming: duplicate ids within two windows */
    idset2 ids;
} wstate;

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

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
    if (s->from_spool) {
        if (fread(m, sizeof *m, 1, s->spool) == 1) {
            *got = 1;
            return PB_OK;
        }
        if (ferror(s->spool))
            return pb_error_set(err, PB_EIO, NULL, 0, 0,
                                "nesting: window=...: reading back the temporary copy "
                                "of %s failed", s->name);
        return PB_OK;
    }
    int rc = pb_reader_next(s->r, m, NULL, err);
    if (rc < 0)
        return rc;
    *got = rc == 1;
    if (*got && s->spool && fwrite(m, sizeof *m, 1, s->spool) != 1)
        return pb_error_set(err, PB_EIO, NULL, 0, 0,
                            "nesting: window=...: writing the temporary copy of %s "
                            "for the second pass failed (disk full? set TMPDIR)",
                            s->name);
    return PB_OK;
}

static int src_rewind(wsrc *s, pb_error *err)
{
    if (s->passes++ == 0)
        return PB_OK; /* the first pass starts where the source is */
    if (s->v) {
        s->vpos = 0;
        return PB_OK;
    }
    if (s->spool) {
        /* stdin was read once; pass 2 reads the parsed messages back */
        if (fflush(s->spool) != 0 || fseek(s->spool, 0, SEEK_SET) != 0)
            return pb_error_set(err, PB_EIO, NULL, 0, 0,
                                "nesting: window=...: writing the temporary copy of %s "
                                "for the second pass failed (disk full? set TMPDIR)",
                                s->name);
        s->from_spool = 1;
        return PB_OK;
    }
    pb_reader_close(s->r);
    s->r = NULL;
    if (fseek(s->fp, 0, SEEK_SET) != 0)
        return pb_error_set(err, PB_EIO, s->name, 0, 0, "cannot rewind for the second pass");
    return pb_reader_open_fp(&s->r, s->fp, s->name, s->names, &s->ropts, err);
}

static void idset2_free(idset2 *d)
{
    for (int i = 0; i < 2; i++) {
        free(d->a[i]);
        free(d->h[i]);
    }
}

static size_t id_slot(const ident *e, size_t cap, uint64_t id)
{
    size_t j = (size_t)pb_mix64(id) & (cap - 1);
    while (e[j].line && e[j].id != id)
        j = (j + 1) & (cap - 1);
    return j;
}

/* Empty generation g. */
static void idgen_clear(idset2 *d, int g)
{
    d->n[g] = 0;
    if (d->hn[g])
        memset(d->h[g], 0, d->hcap[g] * sizeof *d->h[g]);
    d->hn[g] = 0;
}

/* Bring generation g's hash set up to date with its array. */
static int idgen_index(idset2 *d, int g)
{
    if (d->n[g] * 2 > d->hcap[g]) {
        size_t nc = d->hcap[g] ? d->hcap[g] : 1024;
        while (d->n[g] * 2 > nc)
            nc *= 2;
        ident *ne = calloc(nc, sizeof *ne);
        if (!ne)
            return PB_ENOMEM;
        free(d->h[g]);
        d->h[g] = ne;
        d->hcap[g] = nc;
        d->hn[g] = 0;
    }
    for (; d->hn[g] < d->n[g]; d->hn[g]++) {
        const ident *x = &d->a[g][d->hn[g]];
        d->h[g][id_slot(d->h[g], d->hcap[g], x->id)] = *x;
    }
    return PB_OK;
}

/* Message m (the reader's last row) against the ids of its window and
 * the window before: a duplicate is an error naming both lines.  Memory:
 * the ids of two windows. */
static int check_id(wstate *w, const pb_msg *m, pb_error *err)
{
    idset2 *d = &w->ids;
    const uint64_t k = ((uint64_t)m->ts - (uint64_t)w->t0) / (uint64_t)w->p->window;
    const long line = pb_reader_line(w->src->r);
    if (!d->started || k != d->k) {
        /* a new window: the current ids become the previous ones (or, past
         * a gap of whole windows, both are emptied) */
        if (d->started && k == d->k + 1)
            d->cur = !d->cur;
        else
            idgen_clear(d, !d->cur);
        idgen_clear(d, d->cur);
        d->k = k;
    }
    if (d->started && m->id <= d->maxid) {
        /* not above every id before: look it up */
        for (int g = 0; g < 2; g++) {
            if (!d->n[g])
                continue;
            if (idgen_index(d, g) != PB_OK)
                return pb_error_set(err, PB_ENOMEM, NULL, 0, 0,
                                    "nesting: out of memory checking message ids");
            const ident *e = &d->h[g][id_slot(d->h[g], d->hcap[g], m->id)];
            if (e->line)
                return pb_error_set(err, PB_EDUP, w->src->name, line, 0,
                                    "duplicate message id %llu (first on line %ld); "
                                    "expected unique ids (window=...: ids are checked "
                                    "against the rows of the same and the previous "
                                    "window)",
                                    (unsigned long long)m->id, e->line);
        }
    }
    if (!d->started || m->id > d->maxid)
        d->maxid = m->id;
    d->started = 1;
    int c = d->cur;
    if (pb_grow(&d->a[c], sizeof *d->a[c], &d->acap[c], d->n[c] + 1, 1024) != PB_OK)
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0,
                            "nesting: out of memory checking message ids");
    d->a[c][d->n[c]++] = (ident){m->id, line > 0 ? line : 1};
    return PB_OK;
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
        uint32_t *g = f ? realloc(w->gcall, nc * sizeof *g) : NULL;
        if (g)
            w->gcall = g;
        uint32_t *in = g ? realloc(w->inst, nc * sizeof *in) : NULL;
        if (in)
            w->inst = in;
        uint32_t *ip = in ? realloc(w->ipat, nc * sizeof *ip) : NULL;
        if (ip)
            w->ipat = ip;
        double *fs = ip ? realloc(w->fshare, nc * sizeof *fs) : NULL;
        if (fs)
            w->fshare = fs;
        uint64_t *pd = fs ? realloc(w->pid, nc * sizeof *pd) : NULL;
        if (pd)
            w->pid = pd;
        double *pc = pd ? realloc(w->pconf, nc * sizeof *pc) : NULL;
        if (!pc)
            return pb_error_set(err, PB_ENOMEM, NULL, 0, 0,
                                "nesting: out of memory buffering a window of %zu messages",
                                w->bn);
        w->pconf = pc;
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
    int more, rc2;
    uint32_t c;
    if ((rc2 = nesting_pairer_add(w->pr, m, (uint32_t)g, &c, &more)) != PB_OK)
        return pb_error_set(err, rc2, NULL, 0, 0, "nesting: out of memory pairing calls");
    w->fpar[w->bn] = GOUT;
    w->gcall[w->bn] = c;
    w->inst[w->bn] = 0;
    w->ipat[w->bn] = NONE;
    w->fshare[w->bn] = 1.0;
    w->pid[w->bn] = PB_NO_PARENT;
    w->pconf[w->bn] = NAN;
    w->bn++;
    if (mode == 1) {
        w->total++;
        w->calls += m->type == PB_TYPE_CALL;
        w->returns += m->type == PB_TYPE_RETURN;
        w->others += m->type != PB_TYPE_CALL && m->type != PB_TYPE_RETURN;
        w->no_callid += m->type == PB_TYPE_CALL && w->p->callids && m->callid == PB_ID_NONE;
        w->repeated += c != NONE && more;
        pb_tick_acc_add(&w->tick, m);
        if (w->check_ids && (rc2 = check_id(w, m, err)) != PB_OK)
            return rc2;
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
                rc = pb_result_assign_link(w->res, w->buf[i].id, w->inst[i], w->ipat[i],
                                           w->pid[i], w->pconf[i]);
        pb_fingerprint f;
        uint32_t nn = pb_strtab_count(w->nodes);
        if (rc == PB_OK && nn > w->nhn &&
            (rc = pb_grow32(&w->nh, sizeof *w->nh, &w->nhcap, nn, 64)) == PB_OK) {
            pb_fingerprint_names(w->nodes, w->nhn, nn, w->nh);
            w->nhn = nn;
        }
        if (rc == PB_OK) {
            pb_fingerprint_hashed(w->buf, k, w->nh, w->nhn, &f);
            w->fp.messages += f.messages;
            w->fp.ids += f.ids;
        }
    }
    memmove(w->buf, w->buf + k, (w->bn - k) * sizeof *w->buf);
    memmove(w->fpar, w->fpar + k, (w->bn - k) * sizeof *w->fpar);
    memmove(w->gcall, w->gcall + k, (w->bn - k) * sizeof *w->gcall);
    memmove(w->inst, w->inst + k, (w->bn - k) * sizeof *w->inst);
    memmove(w->ipat, w->ipat + k, (w->bn - k) * sizeof *w->ipat);
    memmove(w->fshare, w->fshare + k, (w->bn - k) * sizeof *w->fshare);
    memmove(w->pid, w->pid + k, (w->bn - k) * sizeof *w->pid);
    memmove(w->pconf, w->pconf + k, (w->bn - k) * sizeof *w->pconf);
    w->bn -= k;
    w->gbase += k;
    return rc;
}

static int seg_run(wstate *w, int mode, size_t base, size_t own_lo, size_t own_hi,
                   size_t end, size_t *ovl, double wstart, pb_error *err)
{
    const size_t off = base - w->gbase, vn = end - base;
    const pb_msg *msgs = w->buf + off;
    /* nesting reads no observed column (thread, conn ...): obs NULL */
    pb_trace_view sub = {msgs, vn, w->nodes, w->columns, NULL};
    uint32_t *rel = NULL, *rcall = malloc((vn ? vn : 1) * sizeof *rcall);
    *ovl = own_hi;
    if (!rcall)
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    /* the pairs of the stream whose call and return are both here */
    for (size_t i = 0; i < vn; i++) {
        uint32_t g = w->gcall[off + i];
        rcall[i] = g == NONE || g < base ? NONE : (uint32_t)(g - base);
    }
    if (mode == 2) {
        rel = malloc((vn ? vn : 1) * sizeof *rel);
        if (!rel) {
            free(rcall);
            return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
        }
        for (size_t i = 0; i < vn; i++) {
            size_t g = w->fpar[off + i];
            rel[i] = g == GNONE ? NONE : g == GOUT || g < base ? NESTING_OUTSIDE
                                                               : (uint32_t)(g - base);
        }
    }
    nesting_seg seg = {(uint32_t)(own_lo - base), (uint32_t)(own_hi - base), rel, mode,
                       w->sb, rcall, mode == 2 ? w->fshare + off : NULL};
    nesting *s;
    int rc = nesting_init_seg(&s, &sub, w->p, &seg, err);
    free(rcall);
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
    if (mode == 1) {
        w->with_cands += cnt.with_cands;
        w->cands += cnt.cands;
        w->same_tick += cnt.same_tick_cands;
        w->capped += cnt.capped;
        if (cnt.capped_max > w->capped_max)
            w->capped_max = cnt.capped_max;
    }
    if (mode == 2) {
        /* the parents chosen here, for the overlap of the next windows */
        for (uint32_t q = 0; q < np; q++) {
            size_t r = base + nesting_pair_return(s, q);
            if (r >= own_hi)
                continue;
            uint32_t par = nesting_pair_parent(s, q);
            w->fpar[r - w->gbase] = par == NONE ? GNONE : base + nesting_pair_return(s, par);
            w->fshare[r - w->gbase] = nesting_pair_share(s, q);
        }
        size_t before = nesting_pctx_instances(w->pc);
        uint32_t *inst = NULL;
        if (!w->res->skip_assign && !(inst = calloc(vn ? vn : 1, sizeof *inst)))
            rc = PB_ENOMEM;
        if (rc == PB_OK)
            rc = nesting_seg_paths(s, w->pc, w->res, inst, inst ? w->pid + off : NULL,
                                   inst ? w->pconf + off : NULL, &w->roots);
        for (size_t i = 0; inst && i < vn; i++)
            if (inst[i]) {
                w->inst[off + i] = inst[i];
                w->ipat[off + i] = nesting_pctx_pattern(w->pc, inst[i]);
            }
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
            /* the patterns this window's instances have (touched), in
             * index order: O(instances log instances) a window, not
             * O(patterns) (a trace of many patterns cut into many windows
             * was quadratic) */
            size_t nt = 0;
            if (rc == PB_OK && pb_grow(&w->touched, sizeof *w->touched, &w->touchcap,
                                       after - before, 64) != PB_OK)
                rc = PB_ENOMEM;
            for (size_t i = before + 1; rc == PB_OK && i <= after; i++) {
                uint32_t k = nesting_pctx_pattern(w->pc, (uint32_t)i);
                if (!w->tally[k]++)
                    w->touched[nt++] = k;
            }
            if (nt > 1)
                pb_sort(w->touched, nt, sizeof *w->touched, cmp_u32);
            for (size_t j = 0; j < nt; j++) {
                uint32_t k = w->touched[j];
                const pb_pattern *pat = pb_pattab_by_index(w->res->patterns, k);
                if (rc == PB_OK &&
                    fprintf(w->pw, "%.9g,\"%s\",%u\n", wstart, pat->text, w->tally[k]) < 0)
                    rc = PB_EIO;
                w->tally[k] = 0;
            }
        }
        /* the new instances' patterns are in ipat and the tally: the path
         * context forgets them (memory follows the window) */
        nesting_pctx_forget(w->pc, after);
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
    /* the same pairing in both passes: a call no return took within two
     * windows is dropped (a saturated horizon for huge windows) */
    nesting_pairer_close(w->pr);
    w->pr = NULL;
    if ((rc = nesting_pairer_new(&w->pr, w->p->callids, W > INT64_MAX / 2 ? INT64_MAX : 2 * W)) !=
        PB_OK)
        return pb_error_set(err, rc, NULL, 0, 0, "nesting: out of memory");
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
    if (mode == 1)
        w->expired = nesting_pairer_expired(w->pr);
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
    w.check_ids = src->r != NULL; /* a loaded trace was checked whole */
    res->min_confidence = p->min_confidence;
    pb_tick_acc_init(&w.tick);
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
        /* the counters of whole-trace nesting (nesting_paths.c), in its
         * order, then the window's own */
        nesting_meta_abstained(res, p->min_confidence);
        cvp_meta_pairing(res, w.calls, w.returns, w.others, w.pairs,
                         w.calls - w.pairs, w.returns - w.pairs, w.repeated);
        nesting_meta_counts(res, w.no_callid, w.same_tick, w.cands, w.with_cands,
                            nesting_sb_nhist(w.sb));
        pb_result_meta(res, "cycles_broken=0");
        pb_result_meta(res, "paths=%zu", w.roots);
        pb_result_meta(res, "patterns=%zu", pb_pattab_count(res->patterns));
        pb_result_meta(res, "windows=%zu", w.segments);
        pb_result_meta(res, "window_buffer_peak=%zu", w.peak);
        rc = pb_result_meta(res, "expired_calls=%zu", w.expired);
    }
    if (rc == PB_OK && w.capped)
        rc = nesting_warn_capped(res, w.capped, w.capped_max, w.p->max_cand);
    if (rc == PB_OK && w.no_callid)
        rc = nesting_warn_no_callid(res, w.no_callid, w.calls,
                                    (columns & PB_COL_CALLID) != 0, w.repeated);
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
    if (rc == PB_OK && w.expired)
        rc = pb_result_warn(res, "window=%.9gs: %zu calls had no return within two "
                                 "windows and were dropped unpaired (expired_calls; "
                                 "counted in unmatched_calls): whole-trace nesting would "
                                 "pair such a call with a later return of its key (sender, "
                                 "receiver%s), if one came, so the result may differ there",
                            pb_ns_to_sec(p->window), w.expired,
                            p->callids ? ", call id" : "");
    if (rc != PB_OK)
        pb_error_set(err, rc, NULL, 0, 0, "nesting: out of memory");
    if (info) {
        info->messages = w.total;
        info->fp = w.fp;
        pb_tick_acc_result(&w.tick, &info->tick);
    }
out:;
    int rc2 = nesting_pctx_finish(w.pc, p, rc == PB_OK ? res : NULL);
    if (rc == PB_OK && rc2 != PB_OK)
        rc = pb_error_set(err, rc2, NULL, 0, 0, "nesting: out of memory drawing");
    nesting_close(w.sb);
    free(w.buf);
    free(w.fpar);
    free(w.fshare);
    free(w.pid);
    free(w.pconf);
    free(w.nh);
    free(w.gcall);
    free(w.inst);
    free(w.ipat);
    nesting_pairer_close(w.pr);
    idset2_free(&w.ids);
    free(w.tally);
    free(w.touched);
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
    if (!is_stdin && !(src.fp = pb_files_open(path, err)))
        rc = err->code;
    /* a named input that cannot be read twice (a FIFO, <(...), a
     * character device) is spooled as stdin is, not refused at the
     * second pass ("cannot rewind") */
    int once = is_stdin || (src.fp && lseek(fileno(src.fp), 0, SEEK_CUR) < 0);
    if (rc == PB_OK && once) {
        /* read once: pass 1 spools the parsed messages (64 bytes each) to
         * an unlinked file in TMPDIR, which pass 2 reads back */
        if (is_stdin)
            src.fp = stdin;
        if (!(src.spool = pb_tmpfile("window")))
            rc = pb_error_set(err, PB_EIO, NULL, 0, 0,
                              "nesting: window=...: cannot create a temporary file "
                              "in TMPDIR for the second pass over %s",
                              is_stdin ? "stdin" : src.name);
        else
            setvbuf(src.spool, NULL, _IOFBF, 1 << 20);
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
    if (src.fp && src.fp != stdin)
        fclose(src.fp);
    if (src.spool)
        fclose(src.spool);
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
