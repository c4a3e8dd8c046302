/*
 * convolution.c - the convolution algorithm of Project 5 (seed 000, section
 * 5.2, Figure 6), with a correlation bounded to lags 0..L (conv_xcorr.h).
 *
 * FindPathsFromRoot / ProcessNode / FindCausedMessages as in Figure 6; the
 * output graph is a tree of vertices (a node may appear several times).
 * Children of one vertex that go to the same node are merged into one edge
 * carrying every delay found for it, ordered by declining frequency
 * (Figure 9), and the recursion continues with the union of their
 * messages.  The output is the graph (report, dot) and its root-to-leaf
 * chains as path-view patterns.  No message is ascribed to an instance.
 *
 * This file: parameters, automatic mu and lag bound, the run and the option
 * table; the search is conv_paths.c, the output conv_output.c, what they
 * share conv_int.h.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "conv_int.h"
#include "conv_mu.h"
#include "pb_tick.h"
#include "pb_sort.h"

/* ------------------------------------------------------------------ */
/* Lag bound */

/* The automatic lag bound: a search over scales.  Level k looks at the
 * trace in quanta of 2^k mu and correlates, for every node, everything it
 * receives with everything it sends over CONV_AUTO_LAGS lags, so level k
 * sees delays up to CONV_AUTO_LAGS 2^k mu.  A spike in the lower half of
 * level k's window lies where level k - 1 already looked more finely, so
 * only level 0 and the upper halves count.  The bound is the largest delay
 * any counted spike shows plus two of its quanta (for the binning), never
 * below CONV_AUTO_FLOOR quanta.  Levels stop when the window reaches a
 * quarter of the trace. */
static int auto_lag_bound(cv_ctx *c, int64_t *L)
{
    int64_t best = CONV_AUTO_FLOOR;
    int64_t *bins = NULL;
    size_t bcap = 0;
    conv_signal a = {0}, b = {0};
    conv_spike sp[CONV_AUTO_LAGS];
    double C[CONV_AUTO_LAGS];
    int rc = PB_OK;
    for (int64_t f = 1; !rc; f *= 2) {
        int64_t Sk = (c->S + f - 1) / f;
        if (f > 1 && CONV_AUTO_LAGS * 4 > Sk)
            break;
        conv_xcorr_cfg cfg = {0, CONV_AUTO_LAGS - 1, Sk, CONV_BLOCKED, 1, 0};
        conv_xcorr *xc = NULL;
        rc = conv_xcorr_init(&xc, &cfg, c->err);
        for (uint32_t j = 0; j < c->nnodes && !rc; j++) {
            const ixlist *l[2] = {&c->in[j], &c->out[j]};
            conv_signal *s[2] = {&a, &b};
            if (!l[0]->n || !l[1]->n)
                continue;
            for (int h = 0; h < 2 && !rc; h++) {
                if (l[h]->n > bcap) {
                    int64_t *nb = realloc(bins, l[h]->n * sizeof *nb);
                    if (!nb) {
                        rc = oom(c);
                        break;
                    }
                    bins = nb;
                    bcap = l[h]->n;
                }
                for (size_t i = 0; i < l[h]->n; i++)
                    bins[i] = c->bin[l[h]->ix[i]] / f;
                if (conv_signal_from_bins(s[h], bins, l[h]->n))
                    rc = oom(c);
            }
            if (rc || conv_xcorr_run(xc, &a, &b, C))
                break;
            size_t n = conv_find_spikes(C, CONV_AUTO_LAGS, 0, c->p->N, c->p->S, sp,
                                        CONV_AUTO_LAGS);
            for (size_t i = 0; i < n && i < CONV_AUTO_LAGS; i++)
                if ((f == 1 || sp[i].lag >= CONV_AUTO_MINLAG) &&
                    (sp[i].lag + 2) * f > best)
                    best = (sp[i].lag + 2) * f;
        }
        conv_xcorr_close(xc);
        if (f > c->S)
            break;
    }
    conv_signal_free(&a);
    conv_signal_free(&b);
    free(bins);
    if (!rc)
        *L = best;
    return rc;
}

/* ------------------------------------------------------------------ */

static int parse_params(cv_ctx *c, const conv_params *p, int64_t *user_L,
                        int *full, conv_mode *mode)
{
    pb_error *err = c->err;
    if (p->S > p->N)
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "option S (%g) must not exceed N (%g): the valley "
                            "between spikes lies below the spike threshold", p->S, p->N);
    if (!p->v || !strcmp(p->v, "auto")) {
        c->v = c->mu;
    } else if (!strcmp(p->v, "spike")) {
        c->v = c->mu;
        c->v_auto = 1;
    } else if (pb_duration_parse(p->v, &c->v) != PB_OK || c->v < 0) {
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "option v: expected \"auto\", \"spike\" or a duration >= 0 such as "
                            "10ms, got \"%s\"%s", p->v, pb_duration_hint(p->v));
    }
    *user_L = -1;
    *full = 0;
    if (!p->lag_bound || !strcmp(p->lag_bound, "auto")) {
    } else if (!strcmp(p->lag_bound, "full")) {
        *full = 1;
    } else {
        pb_ns d;
        if (pb_duration_parse(p->lag_bound, &d) != PB_OK || d <= 0)
            return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                                "option lag_bound: expected \"auto\", \"full\" or a "
                                "positive duration such as 2s, got \"%s\"%s", p->lag_bound,
                                pb_duration_hint(p->lag_bound));
        *user_L = (d + c->mu - 1) / c->mu;
    }
    if (p->match && strcmp(p->match, "auto") && strcmp(p->match, "spike") &&
        strcmp(p->match, "pairs"))
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "option match: expected \"auto\", \"spike\" or \"pairs\", "
                            "got \"%s\"", p->match);
    if (p->root_rule && strcmp(p->root_rule, "auto") && strcmp(p->root_rule, "senders") &&
        strcmp(p->root_rule, "spontaneous"))
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "option root_rule: expected \"auto\", \"senders\" or "
                            "\"spontaneous\", got \"%s\"", p->root_rule);
    if (!p->mode || !strcmp(p->mode, "blocked"))
        *mode = CONV_BLOCKED;
    else if (!strcmp(p->mode, "exact"))
        *mode = CONV_EXACT;
    else
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "option mode: expected \"blocked\" or \"exact\", got \"%s\"",
                            p->mode);
    return PB_OK;
}

static void ctx_free(cv_ctx *c)
{
    for (uint32_t j = 0; c->out && j < c->nnodes; j++) {
        ix_free(&c->out[j]);
        ix_free(&c->in[j]);
        conv_signal_free(&c->outsig[j]);
    }
    free(c->out);
    free(c->in);
    free(c->outsig);
    free(c->outsig_ok);
    free(c->outmax);
    free(c->bin);
    free(c->dcount);
    conv_xcorr_close(c->xc);
    free(c->C);
    free(c->spikes);
    free(c->binbuf);
    conv_signal_free(&c->s1);
    for (uint32_t i = 0; i < c->nvx; i++)
        free(c->vx[i].delays);
    free(c->vx);
}

static int cmp_ts_idx(const void *x, const void *y, const pb_msg *m)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    if (m[a].ts != m[b].ts)
        return m[a].ts < m[b].ts ? -1 : 1;
    return (a > b) - (a < b);
}

/* merge sort of message indices by (ts, index); only used when the view
 * is not already in time order */
static void sort_by_ts(size_t *ix, size_t *tmp, size_t n, const pb_msg *m)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    sort_by_ts(ix, tmp, h, m);
    sort_by_ts(ix + h, tmp, n - h, m);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = cmp_ts_idx(&ix[i], &ix[j], m) <= 0 ? ix[i++] : ix[j++];
    while (i < h)
        tmp[k++] = ix[i++];
    while (j < n)
        tmp[k++] = ix[j++];
    memcpy(ix, tmp, n * sizeof *ix);
}

typedef struct root_name {
    const char *name;
    uint32_t node;
} root_name;

static int cmp_root_name(const void *a, const void *b)
{
    return strcmp(((const root_name *)a)->name, ((const root_name *)b)->name);
}

static int convolution_run(const pb_trace_view *tv, const void *params,
                           pb_result *res, pb_error *err)
{
    const conv_params *p = params;
    cv_ctx c;
    memset(&c, 0, sizeof c);
    c.tv = tv;
    c.p = p;
    c.err = err;
    pb_strbuf mu_why = {0};
    int mu_auto = p->mu <= 0;
    int rc;
    c.mu = p->mu;
    if (mu_auto && (rc = conv_auto_mu(tv, &c.mu, &mu_why)) != PB_OK) {
        pb_strbuf_free(&mu_why);
        return oom(&c);
    }
    if (mu_auto) {
        char mb[PB_SECONDS_BUF];
        pb_seconds_format(c.mu, mb);
        rc = pb_result_meta(res, "mu_source=auto mu_auto=%s mu_why: %s", mb,
                            pb_strbuf_str(&mu_why));
        pb_strbuf_free(&mu_why);
        if (rc)
            return oom(&c);
    } else if (pb_result_meta(res, "mu_source=user")) {
        return oom(&c);
    }
    int64_t user_L = -1;
    int full = 0;
    conv_mode mode = CONV_BLOCKED;
    rc = parse_params(&c, p, &user_L, &full, &mode);
    if (rc)
        return rc;
    res->rank_by = PB_RANK_COUNT;
    if (tv->n == 0) {
        pb_strbuf_puts(&res->report, "# convolution graph: empty trace\n");
        pb_strbuf_puts(&res->dot, "digraph convolution {\n}\n");
        return PB_OK;
    }
    c.nnodes = pb_strtab_count(tv->nodes);
    const pb_msg *m = tv->msgs;
    size_t *ord = malloc(tv->n * sizeof *ord);
    c.bin = malloc(tv->n * sizeof *c.bin);
    c.out = calloc(c.nnodes ? c.nnodes : 1, sizeof *c.out);
    c.in = calloc(c.nnodes ? c.nnodes : 1, sizeof *c.in);
    c.outsig = calloc(c.nnodes ? c.nnodes : 1, sizeof *c.outsig);
    c.outsig_ok = calloc(c.nnodes ? c.nnodes : 1, 1);
    c.outmax = calloc(c.nnodes ? c.nnodes : 1, sizeof *c.outmax);
    c.dcount = calloc(c.nnodes ? c.nnodes : 1, sizeof *c.dcount);
    if (!ord || !c.bin || !c.out || !c.in || !c.outsig || !c.outsig_ok || !c.outmax || !c.dcount) {
        free(ord);
        rc = oom(&c);
        goto done;
    }
    int sorted = 1;
    pb_ns t0 = m[0].ts, t1 = m[0].ts;
    for (size_t i = 0; i < tv->n; i++) {
        ord[i] = i;
        if (i && m[i].ts < m[i - 1].ts)
            sorted = 0;
        if (m[i].ts < t0)
            t0 = m[i].ts;
        if (m[i].ts > t1)
            t1 = m[i].ts;
        if (m[i].src >= c.nnodes || m[i].dst >= c.nnodes) {
            free(ord);
            rc = pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                              "convolution: message %zu names a node outside the "
                              "trace's node table", i);
            goto done;
        }
    }
    if (!sorted) {
        size_t *tmp = malloc(tv->n * sizeof *tmp);
        if (!tmp) {
            free(ord);
            rc = oom(&c);
            goto done;
        }
        sort_by_ts(ord, tmp, tv->n, m);
        free(tmp);
    }
    c.t0 = t0;
    /* (t1 - t0) can overflow int64 only for absurd timestamps */
    if (t1 - t0 < 0 || (t1 - t0) / c.mu >= INT64_MAX / 4) {
        free(ord);
        rc = pb_error_set(err, PB_ERANGE, NULL, 0, 0,
                          "convolution: the trace spans too many quanta; raise mu");
        goto done;
    }
    c.S = (t1 - t0) / c.mu + 1;
    if (mode == CONV_EXACT && c.S > CONV_FFT_MAX / 2) {
        free(ord);
        rc = pb_error_set(err, PB_ERANGE, NULL, 0, 0,
                          "convolution: exact mode needs an FFT of 2 x %lld quanta, more "
                          "than the limit of %lld: use mode=blocked or a larger mu",
                          (long long)c.S, (long long)CONV_FFT_MAX);
        goto done;
    }
    for (size_t k = 0; k < tv->n; k++) {
        size_t i = ord[k];
        c.bin[i] = (m[i].ts - t0) / c.mu;
        if (ix_push(&c.out[m[i].src], i) || ix_push(&c.in[m[i].dst], i)) {
            free(ord);
            rc = oom(&c);
            goto done;
        }
    }
    free(ord);

    /* the lag bound */
    if (full) {
        c.L = c.S - 1 > 0 ? c.S - 1 : 1;
        c.lag_source = "full";
    } else if (user_L > 0) {
        c.L = user_L;
        c.lag_source = "user";
    } else {
        rc = auto_lag_bound(&c, &c.L);
        if (rc)
            goto done;
        c.lag_source = "auto";
    }
    /* lags past the trace's length hold nothing and would only dilute the
     * spike statistics */
    if (c.L > c.S - 1)
        c.L = c.S - 1 > 0 ? c.S - 1 : 1;
    c.hi = c.L;
    c.lo = p->filter_negative ? 0 : -c.L;
    conv_xcorr_cfg cfg = {c.lo, c.hi, c.S, mode, p->sparse, p->fft_size};
    rc = conv_xcorr_init(&c.xc, &cfg, err);
    if (rc)
        goto done;
    c.C = malloc(conv_xcorr_width(c.xc) * sizeof *c.C);
    if (!c.C) {
        rc = oom(&c);
        goto done;
    }

    /* roots */
    pb_strbuf roots = {0};
    const char *root_rule = "given";
    if (p->root && *p->root) {
        uint32_t r;
        if (!pb_strtab_find(tv->nodes, p->root, strlen(p->root), &r) ||
            (!c.out[r].n && !c.in[r].n)) {
            rc = pb_error_set(err, PB_ENOENT, NULL, 0, 0,
                              "option root: node \"%s\" does not occur in the trace",
                              p->root);
            goto done;
        }
        pb_strbuf_puts(&roots, p->root);
        rc = conv_find_paths_from_root(&c, r);
    } else {
        /* decide every root first, so the decision does not depend on
         * the graph built so far, then grow from each in name order */
        uint32_t *rl = malloc((c.nnodes ? c.nnodes : 1) * sizeof *rl);
        uint32_t nr = 0;
        if (!rl) {
            rc = oom(&c);
            goto done;
        }
        /* when no node qualifies (strictly periodic traffic can explain
         * everything), the least explained sender is the root */
        uint32_t best = UINT32_MAX;
        double best_frac = -1;
        /* Root rule.  On a message trace (no call or return: mail relays,
         * the e-mail trace of 7.5.7) a path starts where a message enters
         * the system, at a node that only sends; a relay that both receives
         * and sends is never a root, however little of its output the
         * correlation explains (at small quanta it explains little, and
         * relays as roots give frequent false paths such as MX>MBOX).  On
         * RPC traces clients receive their returns, so the spontaneous
         * rule applies.  Either way, if no node qualifies the least
         * explained sender is the root.  root_rule=senders|spontaneous
         * forces one rule (auto: by the kind of trace). */
        int msg_trace = 1;
        if (p->root_rule && !strcmp(p->root_rule, "senders"))
            msg_trace = 1;
        else if (p->root_rule && !strcmp(p->root_rule, "spontaneous"))
            msg_trace = 0;
        else
            for (size_t k = 0; k < tv->n && msg_trace; k++)
                msg_trace = tv->msgs[k].type != PB_TYPE_CALL &&
                            tv->msgs[k].type != PB_TYPE_RETURN;
        root_rule = msg_trace ? "senders" : "spontaneous";
        for (uint32_t j = 0; j < c.nnodes && !rc; j++) {
            int yes;
            double frac;
            rc = conv_is_spontaneous(&c, j, &yes, &frac);
            if (msg_trace && c.in[j].n)
                yes = 0;
            if (!rc && yes)
                rl[nr++] = j;
            if (!rc && frac >= 0 &&
                (frac > best_frac ||
                 (frac == best_frac &&
                  strcmp(node_name(&c, j), node_name(&c, best)) < 0))) {
                best = j;
                best_frac = frac;
            }
        }
        if (!rc && nr == 0 && best != UINT32_MAX)
            rl[nr++] = best;
        /* name order by a sort, not insertion (quadratic when every
         * client of many is a root); node names are distinct, so the order
         * is the same */
        root_name *rn = nr ? malloc(nr * sizeof *rn) : NULL;
        if (nr && !rn) {
            free(rl);
            rc = oom(&c);
            goto done;
        }
        for (uint32_t a = 0; a < nr; a++)
            rn[a] = (root_name){node_name(&c, rl[a]), rl[a]};
        pb_sort(rn, nr, sizeof *rn, cmp_root_name);
        for (uint32_t a = 0; a < nr; a++)
            rl[a] = rn[a].node;
        free(rn);
        for (uint32_t a = 0; a < nr && !rc; a++) {
            pb_strbuf_printf(&roots, "%s%s", a ? "," : "", node_name(&c, rl[a]));
            rc = conv_find_paths_from_root(&c, rl[a]);
        }
        free(rl);
    }
    if (rc) {
        pb_strbuf_free(&roots);
        goto done;
    }
    const conv_xcorr_stats *st = conv_xcorr_get_stats(c.xc);
    char mub[PB_SECONDS_BUF], lb[PB_SECONDS_BUF], vb[PB_SECONDS_BUF];
    pb_seconds_format(c.mu, mub);
    pb_seconds_format(c.L * c.mu, lb);
    pb_seconds_format(c.v, vb);
    if (pb_result_meta(res, "mu=%s quanta=%lld lag_bound=%lld lag_bound_s=%s lag_source=%s "
                            "v=%s mode=%s fft_size=%lld",
                       mub, (long long)c.S, (long long)c.L, lb, c.lag_source, vb,
                       mode == CONV_EXACT ? "exact" : "blocked",
                       (long long)conv_xcorr_fft_size(c.xc)) ||
        pb_result_meta(res, "roots=%s root_rule=%s", pb_strbuf_str(&roots), root_rule) ||
        pb_result_meta(res, "vertices=%u truncated=%d correlations=%llu fft_blocks=%llu "
                            "direct_blocks=%llu skipped_blocks=%llu pair_matches=%llu",
                       c.nvx, c.truncated, (unsigned long long)st->calls,
                       (unsigned long long)st->fft_blocks,
                       (unsigned long long)st->direct_blocks,
                       (unsigned long long)st->skipped_blocks,
                       (unsigned long long)c.pair_matches) ||
        pb_result_meta(res, "dropped_count=%llu dropped_chance=%llu dropped_cycle=%llu "
                            "stopped_depth=%llu pruned_spikes=%llu",
                       (unsigned long long)c.count_dropped,
                       (unsigned long long)c.chance_dropped,
                       (unsigned long long)c.cycle_dropped,
                       (unsigned long long)c.depth_stopped,
                       (unsigned long long)c.spikes_pruned)) {
        pb_strbuf_free(&roots);
        rc = oom(&c);
        goto done;
    }
    pb_strbuf_free(&roots);
    rc = conv_cap_warnings(&c, res);
    if (!rc)
        rc = conv_emit(&c, res);
done:
    ctx_free(&c);
    return rc;
}

static const pb_option convolution_options[] = {
    {"mu", PB_OPT_DURATION, offsetof(conv_params, mu), "0", 0, 1e9,
     "time quantum mu (5.2.1); 0 = automatic: 8 median hop delays, at most 10ms "
     "(docs/convolution.md); Table 1 used 10ms"},
    {"N", PB_OPT_DOUBLE, offsetof(conv_params, N), "4", 0, 1e6,
     "a spike peaks at least N standard deviations above the mean (5.2)"},
    {"S", PB_OPT_DOUBLE, offsetof(conv_params, S), "3", 0, 1e6,
     "spikes are separated by a point below S standard deviations (5.2), S <= N"},
    {"spike_passes", PB_OPT_INT, offsetof(conv_params, spike_passes), "1", 1, 10,
     "spike test passes; above 1, mean and sd again without the spikes found"},
    {"v", PB_OPT_STRING, offsetof(conv_params, v), "auto", PB_OPT_NORANGE,
     "delay tolerance v (5.2.2): a duration; auto = mu; spike = each spike's width"},
    {"root", PB_OPT_STRING, offsetof(conv_params, root), "", PB_OPT_NORANGE,
     "root node of FindPathsFromRoot; empty = chosen by root_rule"},
    {"root_rule", PB_OPT_STRING, offsetof(conv_params, root_rule), "auto", PB_OPT_NORANGE,
     "without root: senders (nodes that only send), spontaneous (spont_frac of what "
     "a node sends unexplained), or auto (senders on message traces, else spontaneous)"},
    {"spont_frac", PB_OPT_DOUBLE, offsetof(conv_params, spont_frac), "0.25", 0, 1,
     "root_rule=spontaneous: a node is a root if this fraction of what it sends is unexplained"},
    {"min_count", PB_OPT_INT, offsetof(conv_params, min_count), "10", 1, 2e9,
     "filter_count: edges, and delays of an edge, with fewer messages are dropped (5.2.3)"},
    {"filter_count", PB_OPT_BOOL, offsetof(conv_params, filter_count), "1", PB_OPT_NORANGE,
     "drop low-frequency paths: edges below min_count messages (5.2.3)"},
    {"max_depth", PB_OPT_INT, offsetof(conv_params, max_depth), "16", 1, CONV_HARD_DEPTH,
     "filter_depth: paths stop after this many edges (5.2.3)"},
    {"filter_depth", PB_OPT_BOOL, offsetof(conv_params, filter_depth), "1", PB_OPT_NORANGE,
     "stop paths at max_depth edges (5.2.3); off, paths run to 256 edges and "
     "the cost is up to max_vertices x 256 nodes of pattern text (every "
     "filter off: ~30 s and ~1 GB on a few thousand messages)"},
    {"filter_cycle", PB_OPT_BOOL, offsetof(conv_params, filter_cycle), "1", PB_OPT_NORANGE,
     "do not follow an edge again at the same delay (within v) on one path (5.2.3)"},
    {"cycle_repeats", PB_OPT_INT, offsetof(conv_params, cycle_repeats), "1", 1, CONV_HARD_DEPTH,
     "filter_cycle: times an edge may recur at the same delay on one path"},
    {"filter_negative", PB_OPT_BOOL, offsetof(conv_params, filter_negative), "1", PB_OPT_NORANGE,
     "ignore spikes at negative delays (5.2.3); off: lags -L..L"},
    {"filter_chance", PB_OPT_BOOL, offsetof(conv_params, filter_chance), "1", PB_OPT_NORANGE,
     "drop a destination whose matches are within N sd of chance coincidences"},
    {"lag_bound", PB_OPT_STRING, offsetof(conv_params, lag_bound), "auto", PB_OPT_NORANGE,
     "largest causal delay L: a duration, auto (found from the trace) or full"},
    {"mode", PB_OPT_STRING, offsetof(conv_params, mode), "blocked", PB_OPT_NORANGE,
     "blocked (overlap-add, time S log L) or exact (whole-signal FFT, S log S)"},
    {"match", PB_OPT_STRING, offsetof(conv_params, match), "auto", PB_OPT_NORANGE,
     "FindCausedMessages by spike (merge per spike), pairs, or auto (cheaper one)"},
    {"sparse", PB_OPT_BOOL, offsetof(conv_params, sparse), "1", PB_OPT_NORANGE,
     "blocked mode: sum sparse blocks directly instead of by FFT"},
    {"fft_size", PB_OPT_INT, offsetof(conv_params, fft_size), "0", 0, (double)CONV_FFT_MAX,
     "blocked mode: FFT size per block; 0 = smallest power of two >= 2(L+1)"},
    {"max_vertices", PB_OPT_INT, offsetof(conv_params, max_vertices), "100000", 1, 1e8,
     "stop growing the graph at this many vertices (then truncated=1 and a warning)"},
    {NULL, PB_OPT_INT, 0, NULL, PB_OPT_NORANGE, NULL}};

const pb_algo pb_algo_convolution = {
    "convolution", "path", "convolution algorithm (Project 5, SOSP'03 section 5.2)",
    convolution_options, sizeof(conv_params), convolution_run, NULL};
