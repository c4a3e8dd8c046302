/*
 * conv_output.c - what the convolution algorithm hands out: its graph as a
 * report (Figure 9 as text) and as dot, the graph's root-to-leaf chains as
 * path-view patterns, and a warning for every cap that cut the graph.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "conv_int.h"
#include "pb_time.h"

/* Output */

static void fmt_delay(const cv_ctx *c, int64_t lag, char *buf)
{
    pb_seconds_format(lag * c->mu, buf);
}

static double mean_delay(const cv_ctx *c, const cv_vertex *x)
{
    double s = 0, w = 0;
    for (uint32_t i = 0; i < x->ndelays; i++) {
        s += (double)x->delays[i].lag * (double)x->delays[i].count;
        w += (double)x->delays[i].count;
    }
    return w > 0 ? pb_ns_to_sec(c->mu) * s / w : NAN;
}

static int report_edge(pb_strbuf *r, const cv_ctx *c, uint32_t y)
{
    const cv_vertex *x = &c->vx[y];
    int rc = 0;
    for (uint32_t d = 1; d < x->depth; d++)
        rc |= pb_strbuf_puts(r, "  ");
    rc |= pb_strbuf_printf(r, "%s -> %s  count=%llu", node_name(c, c->vx[x->parent].node),
                           node_name(c, x->node), (unsigned long long)x->count);
    if (x->ndelays) {
        rc |= pb_strbuf_puts(r, "  delays=");
        for (uint32_t i = 0; i < x->ndelays; i++) {
            char b[PB_SECONDS_BUF];
            fmt_delay(c, x->delays[i].lag, b);
            rc |= pb_strbuf_printf(r, "%s%s(%llu)", i ? "," : "", b,
                                   (unsigned long long)x->delays[i].count);
        }
    }
    rc |= pb_strbuf_putc(r, '\n');
    return rc;
}

static int dot_string(pb_strbuf *d, const char *s)
{
    int rc = pb_strbuf_putc(d, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            rc |= pb_strbuf_putc(d, '\\');
        rc |= pb_strbuf_putc(d, *s);
    }
    return rc | pb_strbuf_putc(d, '"');
}

/* Report (Figure 9 as text), dot, and the root-to-leaf chains. */
int conv_emit(cv_ctx *c, pb_result *res)
{
    pb_strbuf *r = &res->report, *d = &res->dot;
    int rc = 0;
    char mub[PB_SECONDS_BUF], lb[PB_SECONDS_BUF];
    pb_seconds_format(c->mu, mub);
    pb_seconds_format(c->L * c->mu, lb);
    rc |= pb_strbuf_printf(r, "# convolution graph: mu=%s s, lag bound %lld quanta = %s s (%s), "
                              "mode=%s, %u vertices%s\n",
                           mub, (long long)c->L, lb, c->lag_source, c->p->mode, c->nvx,
                           c->truncated ? " (truncated)" : "");
    rc |= pb_strbuf_puts(r, "# each line: SRC -> DST  count=MESSAGES  delays=SECONDS(MESSAGES),... "
                            "by declining frequency\n");
    rc |= pb_strbuf_puts(d, "digraph convolution {\n  node [shape=ellipse];\n");
    for (uint32_t i = 0; i < c->nvx && !rc; i++) {
        const cv_vertex *x = &c->vx[i];
        rc |= pb_strbuf_printf(d, "  v%u [label=", i);
        rc |= dot_string(d, node_name(c, x->node));
        rc |= pb_strbuf_puts(d, "];\n");
        if (x->parent == PB_PTREE_NONE) {
            rc |= pb_strbuf_printf(r, "root %s\n", node_name(c, x->node));
            continue;
        }
        rc |= report_edge(r, c, i);
        rc |= pb_strbuf_printf(d, "  v%u -> v%u [label=\"%llu", x->parent, i,
                               (unsigned long long)x->count);
        for (uint32_t k = 0; k < x->ndelays; k++) {
            char b[PB_SECONDS_BUF];
            fmt_delay(c, x->delays[k].lag, b);
            rc |= pb_strbuf_printf(d, "\\n%s s", b);
        }
        rc |= pb_strbuf_puts(d, "\"];\n");
    }
    rc |= pb_strbuf_puts(d, "}\n");
    if (rc)
        return oom(c);

    /* root-to-leaf chains */
    pb_ptree t = {0};
    pb_strbuf text = {0};
    uint32_t *chain = malloc(((size_t)CONV_HARD_DEPTH + 2) * sizeof *chain);
    uint32_t *order = malloc(((size_t)CONV_HARD_DEPTH + 2) * sizeof *order);
    double *lat = malloc(((size_t)CONV_HARD_DEPTH + 2) * sizeof *lat);
    double *pos = malloc(((size_t)CONV_HARD_DEPTH + 2) * sizeof *pos);
    if (!chain || !order || !lat || !pos)
        rc = PB_ENOMEM;
    uint64_t npaths = 0;
    for (uint32_t i = 0; i < c->nvx && !rc; i++) {
        const cv_vertex *leaf = &c->vx[i];
        if (leaf->parent == PB_PTREE_NONE || leaf->first_child != PB_PTREE_NONE)
            continue;
        uint32_t n = 0;
        for (uint32_t u = i; u != PB_PTREE_NONE; u = c->vx[u].parent)
            chain[n++] = u;
        for (uint32_t a = 0, b = n - 1; a < b; a++, b--) {
            uint32_t tmp = chain[a];
            chain[a] = chain[b];
            chain[b] = tmp;
        }
        pb_ptree_reset(&t);
        uint32_t prev = PB_PTREE_NONE;
        for (uint32_t k = 0; k < n && !rc; k++)
            rc = pb_ptree_add(&t, prev, c->vx[chain[k]].node, &prev);
        pb_strbuf_reset(&text);
        if (!rc)
            rc = pb_ptree_canonical(&t, c->tv->nodes, &text, order);
        if (rc)
            break;
        /* node latency of chain node k: the delay before it sends the
         * next message of the chain (the spike delays of the next edge,
         * weighted by their counts); unknown at the root and the leaf */
        double total = 0;
        for (uint32_t k = 0; k < n; k++) {
            double l = k + 1 < n ? mean_delay(c, &c->vx[chain[k + 1]]) : NAN;
            lat[k] = l;
            if (!isnan(l))
                total += l;
        }
        for (uint32_t k = 0; k < n; k++)
            pos[order[k]] = lat[k];
        /* count instances of equal weight and equal statistics: one add of
         * weight `count` gives the same sums as `count` adds of weight 1 */
        pb_pattern *e;
        double w = (double)leaf->count;
        rc = pb_pattab_add(res->patterns, pb_strbuf_str(&text), n, w, total, pos,
                           NULL, &e);
        if (rc)
            break;
        e->count += leaf->count - 1;
        e->max_prob = 1;
        npaths++;
    }
    pb_ptree_free(&t);
    pb_strbuf_free(&text);
    free(chain);
    free(order);
    free(lat);
    free(pos);
    if (rc == PB_ENOMEM)
        return oom(c);
    if (rc)
        return pb_error_set(c->err, rc, NULL, 0, 0,
                            "convolution: internal error building path patterns");
    return pb_result_meta(res, "paths=%llu", (unsigned long long)npaths) ? oom(c) : PB_OK;
}

/* Every cap or stop that changed the graph, as a warning for stderr with
 * the option that moves it. */
int conv_cap_warnings(cv_ctx *c, pb_result *res)
{
    int rc = PB_OK;
    if (c->vertex_capped)
        rc |= pb_result_warn(res, "the graph reached max_vertices=%d vertices and was "
                                  "cut there: %llu edges were not followed, so paths "
                                  "are missing (raise -s max_vertices=N, or prune with "
                                  "a larger -s min_count=N, now %d, or a larger mu)",
                             c->p->max_vertices, (unsigned long long)c->vertex_capped,
                             c->p->min_count);
    if (c->hard_depth)
        rc |= pb_result_warn(res, "%llu paths stopped at the hard limit of %d edges "
                                  "(filter_depth is off; give -s filter_depth=1)",
                             (unsigned long long)c->hard_depth, CONV_HARD_DEPTH);
    if (c->depth_stopped)
        rc |= pb_result_warn(res, "%llu paths stopped at max_depth=%d edges (the "
                                  "depth filter of 5.2.3; raise -s max_depth=N, at "
                                  "most %d, or give -s filter_depth=0)",
                             (unsigned long long)c->depth_stopped, c->p->max_depth,
                             CONV_HARD_DEPTH);
    return rc ? oom(c) : PB_OK;
}
