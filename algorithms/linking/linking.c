/*
 * linking.c - WAP5 message linking (WWW'06, section 5.1), step 3 and the
 * outputs: path instances built from each root message, aggregated into
 * message-view patterns; per-node and network latency (5.2); dot trees in
 * the style of Figures 10-14; the pb_algo descriptor.
 *
 * Instances of one root are enumerated by re-running a deterministic build
 * with a different "flip" vector over its try-both decisions: a run takes
 * the default choice at every try-both decision beyond the given prefix,
 * and each later decision it made is then flipped in turn.  Every run is
 * one distinct instance, so a root costs (instances x tree size), with no
 * copying of partial trees.
 */
#include "linking.h"
#include "pb_mem.h"
#include "pb_algo.h"
#include "pb_ptree.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_histogram.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pb_sort.h"

#define LINK_MAX_K 24
/* Try-both instances in a whole run: past this many, roots get no more
 * try-both decisions (each instance costs ~0.1 ms and a few kB, and 2^k
 * per root at k = 24 would run for hours); link_capped_roots counts the
 * roots concerned and a warning line says so. */
#define LINK_MAX_INSTANCES 50000

const pb_option link_options[] = {
    {"spont_window", PB_OPT_DURATION, offsetof(link_params, x), "2s", 1e-9, 1e6,
     "WAP5's window x: a message with no arrival at its sender within it is "
     "spontaneous (WAP5 5.1 step 1; 2 s for Coral and CoDeeN)"},
    {"spont_factor", PB_OPT_DOUBLE, offsetof(link_params, y), "4", 0, 1e3,
     "WAP5's spontaneity factor y: the spontaneous option weighs as a delay of "
     "y*d (WAP5 5.1 step 2)"},
    {"k", PB_OPT_INT, offsetof(link_params, k), "4", 0, LINK_MAX_K,
     "try-both decisions per tree: at most 2^k instances per root "
     "(WAP5 5.1 step 3; the paper names no value); cost grows as 2^k: past "
     "50000 instances in a run, further roots get no try-both (a warning "
     "says so)"},
    {"band", PB_OPT_DOUBLE, offsetof(link_params, band), "0.15", 0, 0.5,
     "a link with |p-0.5| <= band is try-both (\"near 0.5\", 5.1 step 3)"},
    {"max_parents", PB_OPT_INT, offsetof(link_params, max_parents), "32", 1,
     1e6, "candidate parents kept per message, the latest ones (bounds "
     "memory; not in the paper)"},
    {"prune", PB_OPT_DOUBLE, offsetof(link_params, prune), "1e-4", 1e-300,
     0.999999, "candidates weighing less than prune x the spontaneous "
     "option are ignored (speed; not in the paper)"},
    {"min_link", PB_OPT_DOUBLE, offsetof(link_params, min_link), "1e-3", 0,
     0.01, "links less likely than this are not kept (their factor 1-p is "
     "~1; the most likely cause is always kept; not in the paper)"},
    {"max_tree", PB_OPT_INT, offsetof(link_params, max_tree), "128", 1,
     1e7, "messages per path instance; a larger tree is built once without "
     "try-both and cut, each cut-off subtree a root of its own "
     "(link_truncated counts them; not in the paper)"},
    {"dmin", PB_OPT_DURATION, offsetof(link_params, dmin), "1us", 1e-9, 1e3,
     "floor on the average causal delay d of a node pair"},
    {"hist", PB_OPT_BOOL, offsetof(link_params, hist), "0", PB_OPT_NORANGE,
     "node-delay histograms of the top patterns in the report (5.2)"},
    {"hist_bins", PB_OPT_INT, offsetof(link_params, hist_bins), "30", 1, 10000,
     "histogram bins, log-spaced"},
    {"hist_min", PB_OPT_DURATION, offsetof(link_params, hist_min), "10us",
     1e-9, 1e6, "lower edge of the first histogram bin"},
    {"hist_max", PB_OPT_DURATION, offsetof(link_params, hist_max), "0", 0,
     1e6, "upper edge of the last histogram bin (0 = x)"},
    {"dot_top", PB_OPT_INT, offsetof(link_params, dot_top), "10", 0, 1e6,
     "patterns drawn as dot timelines (--dot), best ranked first"},
    {"report_top", PB_OPT_INT, offsetof(link_params, report_top), "10", 0,
     1e6, "patterns whose node-delay histograms go in the report"},
    {"untraced", PB_OPT_STRING, offsetof(link_params, untraced), "",
     PB_OPT_NORANGE, "comma-separated nodes to treat as untraced (WAP5 5.1 "
     "nil timestamps): receive times at them are ignored"},
    {"entry", PB_OPT_STRING, offsetof(link_params, entry), "",
     PB_OPT_NORANGE, "comma-separated entry nodes (e.g. a load generator): "
     "every message they send starts a request (spontaneous); not in the paper"},
    {"assign_margin", PB_OPT_DOUBLE, offsetof(link_params, assign_margin), "10",
     0, 1e12, "k > 0: a message stays in its k = 0 tree unless an instance of "
     "the same root is this many times as probable; 0 = the most probable "
     "instance of any root (docs/linking.md)"},
    {"min_confidence", PB_OPT_DOUBLE, offsetof(link_params, min_confidence), "0", 0, 1,
     "abstain on (leave unattached) every message whose confidence is below this: "
     "the probability, in the model, of its instance's root being spontaneous times "
     "that of every link from the root down to it (docs/linking.md); 0 = attach all"},
    /* old names (one meaning per name: x and y are nesting's exponents) */
    {"x", PB_OPT_ALIAS, 0, "spont_window", PB_OPT_NORANGE, NULL},
    {"y", PB_OPT_ALIAS, 0, "spont_factor", PB_OPT_NORANGE, NULL},
    {NULL, PB_OPT_INT, 0, NULL, PB_OPT_NORANGE, NULL}};

/* ------------------------------------------------------------------ */
/* Canonical text cache: instances built in the same order (same names,
 * same parent links) have the same canonical text and positions, so
 * pb_ptree_canonical runs once per distinct build shape. */

typedef struct sigent {
    uint64_t h;
    size_t off;      /* into arena: 2*nn u32 signature, then nn u32 order */
    uint32_t nn;
    char *text;      /* NULL = empty slot */
} sigent;

typedef struct sigcache {
    sigent *ents;
    size_t cap, n;
    uint32_t *arena;
    size_t alen, acap;
} sigcache;

#define SIGCACHE_MAX_ARENA ((size_t)64 << 20) /* u32 words */

static void sigcache_free(sigcache *c)
{
    for (size_t i = 0; i < c->cap; i++)
        free(c->ents[i].text);
    free(c->ents);
    free(c->arena);
}

/* ------------------------------------------------------------------ */

typedef struct builder {
    const pb_msg *m;
    const link_graph *g;
    const link_params *p;
    pb_result *res;
    const pb_strtab *names;
    size_t n;
    uint32_t *stamp;     /* [n] epoch a message was last decided in */
    float *mass;         /* [n] excluded probability so far, -1 = included */
    uint32_t epoch;
    /* the instance under construction: tree node 0 is the root's sender,
     * node i >= 1 the message tmsg[i] */
    uint32_t *tmsg, *tpar, *order;
    double *tconf;       /* per tree node: the root's spontaneity times the
                            probabilities of the links down to it */
    pb_ns *maxchild;
    double *node_lat, *edge;
    size_t tcap;
    uint32_t tn;
    double prob;
    int truncated;
    int kbudget;         /* try-both decisions allowed in this run */
    int record_cuts;     /* a partition run (see do_root): claim messages
                            and remember those cut off by max_tree */
    uint32_t *cuts;      /* roots of cut-off subtrees, FIFO */
    uint8_t *owned;      /* [n] in the instance of an all-default run: the
                            k = 0 partition; such runs never take an owned
                            message again (only cycles would) */
    size_t ncuts, cuthead, cutcap;
    uint8_t flips[LINK_MAX_K + 1];
    pb_ptree tree;
    pb_strbuf text;
    sigcache cache;
    uint32_t *sig;
    /* the assignment (docs/linking.md "Which instance a message goes to"):
     * prim_*: the instance of the k = 0 partition holding the message (its
     * root's all-default tree); best_*: an instance of the same root at
     * least assign_margin times as probable, or, while the message has no
     * partition tree yet (and with assign_margin 0), the most probable
     * instance seen */
    float *best_p;
    uint64_t *best_inst;
    uint32_t *best_pat;
    uint32_t *best_par;  /* the message's parent in that instance
                            (UINT32_MAX: its root) ... */
    float *best_conf;    /* ... and its tconf there */
    float *prim_p;
    uint32_t *prim_inst, *prim_pat, *prim_root;
    uint32_t *prim_par;
    float *prim_conf;
    int primary;         /* the instance being emitted is a partition tree */
    uint32_t cur_root;
    uint64_t nmoved;     /* messages given to a same-root alternative */
    uint64_t ninst, nroots, ntb, ntrunc, ncutroots, ncycleroots;
    uint64_t ncapped;    /* roots denied try-both by LINK_MAX_INSTANCES */
    /* histograms: per pattern index, per position */
    gsl_histogram ***hist;
    size_t nhist;
    double *ranges;
} builder;

static int tree_reserve(builder *b, size_t need)
{
    /* sig holds two entries a message */
    void *const arrs[] = {&b->tmsg, &b->tpar, &b->order, &b->maxchild,
                          &b->node_lat, &b->edge, &b->sig, &b->tconf};
    const size_t sz[] = {sizeof *b->tmsg, sizeof *b->tpar, sizeof *b->order,
                         sizeof *b->maxchild, sizeof *b->node_lat, sizeof *b->edge,
                         2 * sizeof *b->sig, sizeof *b->tconf};
    return pb_grow_parallel(&b->tcap, need, 64, 8, arrs, sz);
}

static int tree_push(builder *b, uint32_t msg, uint32_t par, double conf)
{
    if (tree_reserve(b, (size_t)b->tn + 1) != PB_OK)
        return PB_ENOMEM;
    b->tmsg[b->tn] = msg;
    b->tpar[b->tn] = par;
    b->tconf[b->tn] = conf;
    b->tn++;
    return PB_OK;
}

/* One instance of `root`: try-both decision j (j < k) takes the default
 * choice unless flips[j].  Returns the number of try-both decisions made
 * within the budget (>= 0) or PB_ENOMEM. */
static int run(builder *b, uint32_t root)
{
    const link_graph *g = b->g;
    const link_params *p = b->p;
    if (++b->epoch == 0) { /* wrapped: forget every old stamp */
        memset(b->stamp, 0, b->n * sizeof *b->stamp);
        b->epoch = 1;
    }
    uint32_t ep = b->epoch;
    b->tn = 0;
    b->truncated = 0;
    if (tree_push(b, UINT32_MAX, UINT32_MAX, 1) != PB_OK ||
        tree_push(b, root, 0, g->p_spont[root]) != PB_OK)
        return PB_ENOMEM;
    b->stamp[root] = ep;
    b->mass[root] = -1;
    if (b->record_cuts)
        b->owned[root] = 1;
    double prob = g->p_spont[root];
    int used = 0;
    size_t limit = (size_t)p->max_tree + 1;
    for (uint32_t qi = 1; qi < b->tn; qi++) {
        uint32_t mm = b->tmsg[qi];
        for (uint32_t l = g->child_off[mm]; l < g->child_off[mm + 1]; l++) {
            uint32_t c = g->child[l];
            double pl = g->child_p[l], q = 0;
            if (b->stamp[c] == ep) {
                if (b->mass[c] < 0)
                    continue; /* already in this instance */
                q = b->mass[c];
            }
            /* chain rule: given that the links already left out did not
             * cause c, this one did with probability pl / (1 - q) */
            double pc = q < 1 - 1e-12 ? pl / (1 - q) : 1;
            if (pc > 1)
                pc = 1;
            int am = g->argmax[c] == mm;
            int follow = am || pc > 0.5;
            int tb = am ? pc < 0.5 + p->band : fabs(pc - 0.5) <= p->band;
            if (tb && used < b->kbudget) {
                if (b->flips[used])
                    follow = !follow;
                used++;
            }
            if (follow && b->tn >= limit) {
                /* c's subtree is left to a tree of its own: never again
                 * in this run */
                b->stamp[c] = ep;
                b->mass[c] = -1;
                b->truncated = 1;
                if (b->record_cuts) {
                    if (pb_grow(&b->cuts, sizeof *b->cuts, &b->cutcap, b->ncuts + 1, 256) != PB_OK)
                        return PB_ENOMEM;
                    b->cuts[b->ncuts++] = c;
                }
                continue;
            }
            if (follow && b->record_cuts && b->owned[c]) {
                b->stamp[c] = ep;
                b->mass[c] = -1;
                continue;
            }
            b->stamp[c] = ep;
            if (follow) {
                prob *= pc;
                b->mass[c] = -1;
                if (b->record_cuts)
                    b->owned[c] = 1;
                if (tree_push(b, c, qi, b->tconf[qi] * pc) != PB_OK)
                    return PB_ENOMEM;
            } else {
                prob *= 1 - pc;
                b->mass[c] = (float)(q + pl);
            }
        }
    }
    b->prob = prob;
    return used;
}

/* Canonical text and positions of the current tree, through the cache.
 * *text and b->order are valid until the next call. */
static int canonical(builder *b, const char **text)
{
    uint32_t tn = b->tn;
    b->sig[0] = b->m[b->tmsg[1]].src;
    b->sig[1] = UINT32_MAX;
    for (uint32_t i = 1; i < tn; i++) {
        b->sig[2 * i] = b->m[b->tmsg[i]].dst;
        b->sig[2 * i + 1] = b->tpar[i];
    }
    size_t slen = 2 * (size_t)tn;
    uint64_t h = pb_hash_bytes(b->sig, slen * sizeof *b->sig);
    sigcache *c = &b->cache;
    size_t j = 0;
    if (c->cap) {
        j = (size_t)h & (c->cap - 1);
        while (c->ents[j].text) {
            sigent *e = &c->ents[j];
            if (e->h == h && e->nn == tn &&
                !memcmp(c->arena + e->off, b->sig, slen * sizeof *b->sig)) {
                memcpy(b->order, c->arena + e->off + slen, tn * sizeof *b->order);
                *text = e->text;
                return PB_OK;
            }
            j = (j + 1) & (c->cap - 1);
        }
    }
    pb_ptree_reset(&b->tree);
    for (uint32_t i = 0; i < tn; i++) {
        uint32_t name = i == 0 ? b->m[b->tmsg[1]].src : b->m[b->tmsg[i]].dst;
        if (pb_ptree_add(&b->tree, i == 0 ? PB_PTREE_NONE : b->tpar[i], name,
                         NULL) != PB_OK)
            return PB_ENOMEM;
    }
    pb_strbuf_reset(&b->text);
    int rc = pb_ptree_canonical(&b->tree, b->names, &b->text, b->order);
    if (rc != PB_OK)
        return rc;
    *text = pb_strbuf_str(&b->text);
    if (c->alen + 3 * (size_t)tn > SIGCACHE_MAX_ARENA)
        return PB_OK; /* cache full: still correct, only slower */
    if ((c->n + 1) * 2 > c->cap) {
        size_t nc = c->cap ? c->cap * 2 : 1024;
        sigent *ne = calloc(nc, sizeof *ne);
        if (!ne)
            return PB_ENOMEM;
        for (size_t i = 0; i < c->cap; i++) {
            if (!c->ents[i].text)
                continue;
            size_t k = (size_t)c->ents[i].h & (nc - 1);
            while (ne[k].text)
                k = (k + 1) & (nc - 1);
            ne[k] = c->ents[i];
        }
        free(c->ents);
        c->ents = ne;
        c->cap = nc;
        j = (size_t)h & (nc - 1);
        while (c->ents[j].text)
            j = (j + 1) & (nc - 1);
    }
    if (pb_grow(&c->arena, sizeof *c->arena, &c->acap, c->alen + 3 * (size_t)tn, 4096) != PB_OK)
        return PB_ENOMEM;
    char *dup = strdup(*text);
    if (!dup)
        return PB_ENOMEM;
    sigent *e = &c->ents[j];
    e->h = h;
    e->nn = tn;
    e->off = c->alen;
    e->text = dup;
    memcpy(c->arena + c->alen, b->sig, slen * sizeof *b->sig);
    memcpy(c->arena + c->alen + slen, b->order, tn * sizeof *b->order);
    c->alen += 3 * (size_t)tn;
    c->n++;
    return PB_OK;
}

static int hist_add(builder *b, const pb_pattern *pat)
{
    if (pat->index >= b->nhist) {
        size_t nh = b->nhist ? b->nhist * 2 : 256;
        while (nh <= pat->index)
            nh *= 2;
        gsl_histogram ***a = realloc(b->hist, nh * sizeof *a);
        if (!a)
            return PB_ENOMEM;
        memset(a + b->nhist, 0, (nh - b->nhist) * sizeof *a);
        b->hist = a;
        b->nhist = nh;
    }
    gsl_histogram **hs = b->hist[pat->index];
    size_t nb = (size_t)b->p->hist_bins;
    if (!hs) {
        hs = calloc(pat->nnodes, sizeof *hs);
        if (!hs)
            return PB_ENOMEM;
        b->hist[pat->index] = hs;
    }
    for (uint32_t i = 1; i < b->tn; i++) {
        uint32_t pos = b->order[i];
        double v = b->node_lat[pos];
        if (isnan(v))
            continue;
        if (!hs[pos]) {
            hs[pos] = gsl_histogram_alloc(nb);
            if (!hs[pos] || gsl_histogram_set_ranges(hs[pos], b->ranges, nb + 1))
                return PB_ENOMEM;
        }
        /* out-of-range delays are counted in the end bins */
        if (v < b->ranges[0])
            v = b->ranges[0];
        if (v >= b->ranges[nb])
            v = 0.5 * (b->ranges[nb - 1] + b->ranges[nb]);
        gsl_histogram_accumulate(hs[pos], v, b->prob);
    }
    return PB_OK;
}

/* Aggregate the current instance and remember it for its messages. */
static int emit(builder *b)
{
    const char *text;
    int rc = canonical(b, &text);
    if (rc != PB_OK)
        return rc;
    uint32_t tn = b->tn;
    const pb_msg *m = b->m;
    for (uint32_t i = 0; i < tn; i++) {
        b->maxchild[i] = INT64_MIN;
        b->node_lat[i] = b->edge[i] = NAN;
    }
    const pb_msg *r = &m[b->tmsg[1]];
    pb_ns last = r->recv_ts != PB_TS_NONE ? r->recv_ts : r->ts;
    for (uint32_t i = 2; i < tn; i++) {
        const pb_msg *x = &m[b->tmsg[i]];
        if (x->ts > b->maxchild[b->tpar[i]])
            b->maxchild[b->tpar[i]] = x->ts;
        pb_ns t = x->recv_ts != PB_TS_NONE ? x->recv_ts : x->ts;
        if (t > last)
            last = t;
    }
    for (uint32_t i = 1; i < tn; i++) {
        const pb_msg *x = &m[b->tmsg[i]];
        uint32_t pos = b->order[i];
        if (x->recv_ts != PB_TS_NONE) {
            b->edge[pos] = pb_ns_to_sec(x->recv_ts - x->ts);
            if (b->maxchild[i] != INT64_MIN)
                b->node_lat[pos] = pb_ns_to_sec(b->maxchild[i] - x->recv_ts);
        }
    }
    pb_pattern *pat;
    rc = pb_pattab_add(b->res->patterns, text, tn, b->prob,
                       pb_ns_to_sec(last - r->ts), b->node_lat, b->edge, &pat);
    if (rc != PB_OK)
        return rc;
    uint64_t id = ++b->ninst;
    const double margin = b->p->assign_margin;
    const float fp = (float)b->prob;
    for (uint32_t i = 1; i < tn; i++) {
        uint32_t x = b->tmsg[i];
        uint32_t par = i > 1 ? b->tmsg[b->tpar[i]] : UINT32_MAX;
        float conf = (float)b->tconf[i];
        if (margin > 0 && b->primary) {
            b->prim_p[x] = fp;
            b->prim_inst[x] = (uint32_t)id;
            b->prim_pat[x] = pat->index;
            b->prim_root[x] = b->cur_root;
            b->prim_par[x] = par;
            b->prim_conf[x] = conf;
            b->best_p[x] = -1; /* forget instances seen before it */
            b->best_inst[x] = 0;
            continue;
        }
        if (margin > 0 && b->prim_root[x] != UINT32_MAX &&
            (b->prim_root[x] != b->cur_root || !(b->prob >= margin * b->prim_p[x])))
            continue;
        if (fp > b->best_p[x]) {
            b->best_p[x] = fp;
            b->best_inst[x] = id;
            b->best_pat[x] = pat->index;
            b->best_par[x] = par;
            b->best_conf[x] = conf;
        }
    }
    b->ntrunc += (uint64_t)b->truncated;
    if (b->p->hist)
        return hist_add(b, pat);
    return PB_OK;
}

/* Every instance of `root` whose decisions before position L are fixed by
 * flips[0..L) (flips[L..] are 0 on entry and on return). */
static int explore(builder *b, uint32_t root, int L)
{
    int used = run(b, root);
    if (used < 0)
        return used;
    int rc = emit(b);
    if (rc != PB_OK)
        return rc;
    b->ntb += (uint64_t)(used > L ? used - L : 0);
    for (int j = L; j < used && b->ninst < LINK_MAX_INSTANCES; j++) {
        b->flips[j] = 1;
        rc = explore(b, root, j + 1);
        b->flips[j] = 0;
        if (rc != PB_OK)
            return rc;
    }
    return PB_OK;
}

/* All instances of one root.  The first run takes every default choice;
 * if that tree outgrows max_tree it is kept as the only instance (no
 * try-both: 2^k copies of a runaway tree would be the whole cost).
 * partition: the root starts a tree of the k = 0 partition (spontaneity is
 * its most likely cause, or it was cut off or sits on a cycle); its first
 * run then claims its messages (owned) and queues the subtrees it cut off
 * as roots of their own. */
static int do_root(builder *b, uint32_t root, int budget, int partition)
{
    if (budget > 0 && b->ninst >= LINK_MAX_INSTANCES) {
        budget = 0;
        b->ncapped++;
    }
    b->kbudget = budget;
    b->record_cuts = partition;
    b->cur_root = root;
    int used = run(b, root);
    b->record_cuts = 0;
    if (used < 0)
        return used;
    b->primary = partition;
    int rc = emit(b);
    b->primary = 0;
    if (rc != PB_OK || b->truncated)
        return rc;
    b->ntb += (uint64_t)used;
    for (int j = 0; j < used && b->ninst < LINK_MAX_INSTANCES; j++) {
        b->flips[j] = 1;
        rc = explore(b, root, j + 1);
        b->flips[j] = 0;
        if (rc != PB_OK)
            return rc;
    }
    return PB_OK;
}

/* A root: spontaneity is the most likely cause, or (with try-both
 * decisions allowed) at least "near 0.5". */
static int is_root(const link_graph *g, const link_params *p, size_t r)
{
    return g->argmax[r] == LINK_SPONT ||
           (p->k > 0 && g->p_spont[r] >= 0.5 - p->band);
}

static void builder_free(builder *b)
{
    free(b->stamp);
    free(b->mass);
    free(b->tmsg);
    free(b->tpar);
    free(b->tconf);
    free(b->order);
    free(b->maxchild);
    free(b->node_lat);
    free(b->edge);
    free(b->sig);
    free(b->cuts);
    free(b->owned);
    pb_ptree_free(&b->tree);
    pb_strbuf_free(&b->text);
    sigcache_free(&b->cache);
    free(b->best_p);
    free(b->best_inst);
    free(b->best_pat);
    free(b->best_par);
    free(b->best_conf);
    free(b->prim_par);
    free(b->prim_conf);
    free(b->prim_p);
    free(b->prim_inst);
    free(b->prim_pat);
    free(b->prim_root);
    for (size_t i = 0; i < b->nhist; i++) {
        if (!b->hist[i])
            continue;
        const pb_pattern *e = pb_pattab_by_index(b->res->patterns, (uint32_t)i);
        for (uint32_t k = 0; e && k < e->nnodes; k++)
            gsl_histogram_free(b->hist[i][k]);
        free(b->hist[i]);
    }
    free(b->hist);
    free(b->ranges);
}

/* ------------------------------------------------------------------ */
/* node pairs: network latency and clock offsets (5.2) */

typedef struct pairkey {
    uint64_t key;
    uint32_t id;
} pairkey;

static int cmp_pairkey(const void *a, const void *b)
{
    const pairkey *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key;
}

static uint32_t pair_find(const pairkey *pk, size_t n, uint32_t src, uint32_t dst)
{
    uint64_t key = (uint64_t)src << 32 | dst;
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (pk[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && pk[lo].key == key ? pk[lo].id : UINT32_MAX;
}

static double pair_mean(const link_graph *g, uint32_t id)
{
    return g->pair_netn[id] ? g->pair_netsum[id] / (double)g->pair_netn[id] : NAN;
}

/* Clock offset of dst relative to src (dst's clock minus src's) under
 * symmetric delays: half the difference of the mean one-way latencies in
 * the two directions; NAN unless both directions have both timestamps. */
static double pair_offset(const link_graph *g, const pairkey *pk, uint32_t id)
{
    uint32_t back = pair_find(pk, g->npairs, g->pair_dst[id], g->pair_src[id]);
    if (back == UINT32_MAX || !g->pair_netn[id] || !g->pair_netn[back])
        return NAN;
    return 0.5 * (pair_mean(g, id) - pair_mean(g, back));
}

static const char *node_name(const pb_strtab *names, uint32_t i)
{
    const char *s = pb_strtab_str(names, i);
    return s ? s : "?";
}

static void put_sec(pb_strbuf *o, double v)
{
    if (!isnan(v))
        pb_strbuf_printf(o, "%.9g", v);
}

/* Pairs are written in the byte order of their node names, not of node
 * indices, which follow first appearance in the file: the output must not
 * depend on the order of the input rows. */
typedef struct pair_by_name {
    const char *src, *dst;
    uint32_t id;
} pair_by_name;

static int cmp_pair_by_name(const void *a, const void *b)
{
    const pair_by_name *x = a, *y = b;
    int c = strcmp(x->src, y->src);
    return c ? c : strcmp(x->dst, y->dst);
}

static int write_pairs(const link_graph *g, const pairkey *pk,
                       const pb_strtab *names, pb_result *res)
{
    pb_strbuf *o = &res->report;
    pair_by_name *order = malloc((g->npairs ? g->npairs : 1) * sizeof *order);
    if (!order)
        return PB_ENOMEM;
    for (size_t q = 0; q < g->npairs; q++) {
        uint32_t id = pk[q].id;
        order[q] = (pair_by_name){node_name(names, g->pair_src[id]),
                                  node_name(names, g->pair_dst[id]), id};
    }
    pb_sort(order, g->npairs, sizeof *order, cmp_pair_by_name);
    int rc = PB_OK;
    pb_strbuf_puts(o, "# node pairs: d = average causal delay (1/lambda); "
                      "net = recv_ts - ts; offset = dst clock - src clock "
                      "assuming symmetric delays; oneway = net - offset\n");
    pb_strbuf_puts(o, "src,dst,d_samples,d_s,net_messages,net_mean_s,"
                      "net_min_s,offset_s,oneway_s\n");
    for (size_t q = 0; q < g->npairs && rc == PB_OK; q++) {
        uint32_t id = order[q].id;
        double mean = pair_mean(g, id), off = pair_offset(g, pk, id);
        pb_strbuf_printf(o, "%s,%s,%llu,", node_name(names, g->pair_src[id]),
                         node_name(names, g->pair_dst[id]),
                         (unsigned long long)g->pair_dn[id]);
        put_sec(o, g->pair_d[id]);
        pb_strbuf_printf(o, ",%llu,", (unsigned long long)g->pair_netn[id]);
        put_sec(o, mean);
        pb_strbuf_putc(o, ',');
        put_sec(o, g->pair_netmin[id]);
        pb_strbuf_putc(o, ',');
        put_sec(o, off);
        pb_strbuf_putc(o, ',');
        put_sec(o, isnan(off) ? NAN : mean - off);
        if (pb_strbuf_putc(o, '\n') != PB_OK)
            rc = PB_ENOMEM;
        /* both directions observed: one meta line per pair, src < dst by name */
        else if (!isnan(off) && strcmp(order[q].src, order[q].dst) < 0 &&
                 pb_result_meta(res, "link_clock_offset=%s>%s offset_s=%.9g "
                                "oneway_s=%.9g messages=%llu",
                                order[q].src, order[q].dst, off, mean - off,
                                (unsigned long long)g->pair_netn[id]) != PB_OK)
            rc = PB_ENOMEM;
    }
    free(order);
    return rc;
}

/* ------------------------------------------------------------------ */
/* dot timelines (Figures 10-14): boxes are node visits labelled with their
 * mean delay, arrows messages labelled with their mean one-way latency
 * (clock offset removed where both directions were seen); a visit whose
 * receipt was never timed is a diamond, as for untraced nodes. */

static void dot_str(pb_strbuf *o, const char *s)
{
    pb_strbuf_putc(o, '"');
    for (; *s; s++) {
        if (*s == '\n') {
            pb_strbuf_puts(o, "\\n");
            continue;
        }
        if (*s == '"' || *s == '\\')
            pb_strbuf_putc(o, '\\');
        pb_strbuf_putc(o, *s);
    }
    pb_strbuf_putc(o, '"');
}

static int write_dot(const link_graph *g, const pairkey *pk,
                     const pb_strtab *names, const link_params *p,
                     pb_result *res)
{
    pb_strtab *local = NULL;
    pb_ptree t = {0};
    pb_strbuf lab = {0};
    pb_error e;
    int rc = pb_strtab_init(&local);
    size_t np = pb_pattab_count(res->patterns);
    for (size_t r = 0; rc == PB_OK && r < np && r < (size_t)p->dot_top; r++) {
        const pb_pattern *pat = pb_pattab_get(res->patterns, r);
        rc = pb_ptree_parse(pat->text, strlen(pat->text), local, &t, &e);
        if (rc != PB_OK || t.n != pat->nnodes)
            break;
        pb_strbuf *o = &res->dot;
        pb_strbuf_printf(o, "digraph \"pattern%zu\" {\n  rankdir=LR;\n  label=", r + 1);
        pb_strbuf_reset(&lab);
        pb_strbuf_printf(&lab, "#%zu %s  count=%llu expected=%.3f max_p=%.3f "
                         "(delays in ms)", r + 1, pat->text,
                         (unsigned long long)pat->count, pat->score,
                         pat->max_prob);
        dot_str(o, pb_strbuf_str(&lab));
        pb_strbuf_puts(o, ";\n  node [shape=box];\n");
        for (uint32_t i = 0; i < t.n; i++) {
            const char *nm = node_name(local, t.nodes[i].name);
            pb_strbuf_reset(&lab);
            pb_strbuf_puts(&lab, nm);
            if (pat->node_wsum[i] > 0)
                pb_strbuf_printf(&lab, "\n%.3f", 1e3 * pat->node_sum[i] / pat->node_wsum[i]);
            pb_strbuf_printf(o, "  n%u [label=", i);
            dot_str(o, pb_strbuf_str(&lab));
            if (i > 0 && pat->edge_wsum[i] <= 0)
                pb_strbuf_puts(o, ", shape=diamond");
            pb_strbuf_puts(o, "];\n");
            if (i == 0)
                continue;
            uint32_t par = t.nodes[i].parent;
            pb_strbuf_printf(o, "  n%u -> n%u", par, i);
            if (pat->edge_wsum[i] > 0) {
                double lat = pat->edge_sum[i] / pat->edge_wsum[i];
                uint32_t s, d;
                const char *ps = node_name(local, t.nodes[par].name);
                if (pb_strtab_find(names, ps, strlen(ps), &s) &&
                    pb_strtab_find(names, nm, strlen(nm), &d)) {
                    uint32_t id = pair_find(pk, g->npairs, s, d);
                    double off = id == UINT32_MAX ? NAN : pair_offset(g, pk, id);
                    if (!isnan(off))
                        lat -= off;
                }
                pb_strbuf_printf(o, " [label=\"%.3f\"]", 1e3 * lat);
            }
            pb_strbuf_puts(o, ";\n");
        }
        if (pb_strbuf_puts(o, "}\n") != PB_OK)
            rc = PB_ENOMEM;
    }
    pb_ptree_free(&t);
    pb_strbuf_free(&lab);
    pb_strtab_close(local);
    return rc == PB_EPARSE ? PB_EINVAL : rc;
}

static int write_hist(builder *b)
{
    pb_strbuf *o = &b->res->report;
    pb_strbuf_puts(o, "# node-delay histograms (WAP5 5.2), probability-"
                      "weighted: rank,position,node,bin_lo_s,bin_hi_s,weight\n");
    pb_strbuf_puts(o, "rank,position,node,bin_lo_s,bin_hi_s,weight\n");
    pb_strtab *local = NULL;
    pb_ptree t = {0};
    pb_error e;
    int rc = pb_strtab_init(&local);
    size_t np = pb_pattab_count(b->res->patterns);
    for (size_t r = 0; rc == PB_OK && r < np && r < (size_t)b->p->report_top; r++) {
        const pb_pattern *pat = pb_pattab_get(b->res->patterns, r);
        if (pat->index >= b->nhist || !b->hist[pat->index])
            continue;
        if (pb_ptree_parse(pat->text, strlen(pat->text), local, &t, &e) != PB_OK)
            break;
        for (uint32_t i = 0; i < pat->nnodes && i < t.n; i++) {
            gsl_histogram *h = b->hist[pat->index][i];
            for (size_t k = 0; h && k < h->n; k++) {
                if (h->bin[k] <= 0)
                    continue;
                pb_strbuf_printf(o, "%zu,%u,%s,%.9g,%.9g,%.9g\n", r + 1, i,
                                 node_name(local, t.nodes[i].name),
                                 h->range[k], h->range[k + 1], h->bin[k]);
            }
        }
    }
    pb_ptree_free(&t);
    pb_strtab_close(local);
    return rc;
}

int link_build_paths(const pb_trace_view *v, const link_graph *g,
                     const link_params *p, pb_result *res, pb_error *err)
{
    if (v->n != g->n)
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "linking: the link graph has %zu messages, the "
                            "trace %zu", g->n, v->n);
    if (p->k < 0 || p->k > LINK_MAX_K || p->max_tree < 1 || p->band < 0 ||
        (p->hist && (p->hist_bins < 1 || p->hist_min <= 0)))
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "linking: need 0 <= k <= %d, max_tree >= 1, band "
                            ">= 0, hist_bins >= 1, hist_min > 0", LINK_MAX_K);
    pb_ns hmax = p->hist_max > 0 ? p->hist_max : p->x;
    if (p->hist && hmax <= p->hist_min)
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "linking: hist_max (or x) must exceed hist_min");
    builder b;
    memset(&b, 0, sizeof b);
    b.m = v->msgs;
    b.g = g;
    b.p = p;
    b.res = res;
    b.names = v->nodes;
    b.n = v->n;
    size_t n1 = v->n ? v->n : 1;
    b.stamp = calloc(n1, sizeof *b.stamp);
    b.mass = malloc(n1 * sizeof *b.mass);
    b.best_p = malloc(n1 * sizeof *b.best_p);
    b.best_inst = calloc(n1, sizeof *b.best_inst);
    b.best_pat = malloc(n1 * sizeof *b.best_pat);
    b.best_par = malloc(n1 * sizeof *b.best_par);
    b.best_conf = malloc(n1 * sizeof *b.best_conf);
    b.owned = calloc(n1, 1);
    if (p->assign_margin > 0) {
        b.prim_p = malloc(n1 * sizeof *b.prim_p);
        b.prim_inst = calloc(n1, sizeof *b.prim_inst);
        b.prim_pat = malloc(n1 * sizeof *b.prim_pat);
        b.prim_root = malloc(n1 * sizeof *b.prim_root);
        b.prim_par = malloc(n1 * sizeof *b.prim_par);
        b.prim_conf = malloc(n1 * sizeof *b.prim_conf);
    }
    pairkey *pk = malloc((g->npairs ? g->npairs : 1) * sizeof *pk);
    int rc = PB_ENOMEM;
    if (!b.stamp || !b.mass || !b.best_p || !b.best_inst || !b.best_pat ||
        !b.best_par || !b.best_conf || !b.owned || !pk ||
        (p->assign_margin > 0 && (!b.prim_p || !b.prim_inst || !b.prim_pat ||
                                  !b.prim_root || !b.prim_par || !b.prim_conf)))
        goto done;
    for (size_t i = 0; i < v->n; i++)
        b.best_p[i] = -1;
    if (b.prim_root)
        memset(b.prim_root, 0xff, v->n * sizeof *b.prim_root);
    if (p->hist) {
        size_t nb = (size_t)p->hist_bins;
        b.ranges = malloc((nb + 1) * sizeof *b.ranges);
        if (!b.ranges)
            goto done;
        double lo = log(pb_ns_to_sec(p->hist_min)), hi = log(pb_ns_to_sec(hmax));
        for (size_t i = 0; i <= nb; i++)
            b.ranges[i] = exp(lo + (hi - lo) * (double)i / (double)nb);
    }
    /* GSL's default handler aborts; the library must return errors */
    gsl_error_handler_t *old_handler = gsl_set_error_handler_off();
    rc = PB_OK;
    /* Second pass: a message no instance reached sits on a cycle of most
     * likely causes (possible only when apparent latencies around it sum
     * below zero: bad clocks or bad data); it starts a tree of its own so
     * that every message is ascribed somewhere. */
    for (int pass = 0; pass < 2; pass++)
        for (size_t r = 0; r < v->n && rc == PB_OK; r++) {
            if (pass == 0 ? !is_root(g, p, r) : b.owned[r] != 0)
                continue;
            if (pass == 0)
                b.nroots++;
            else
                b.ncycleroots++;
            rc = do_root(&b, (uint32_t)r, pass == 0 ? p->k : 0,
                         pass == 1 || g->argmax[r] == LINK_SPONT);
            /* subtrees cut off by max_tree, in cut order */
            while (rc == PB_OK && b.cuthead < b.ncuts) {
                uint32_t c = b.cuts[b.cuthead++];
                if (b.cuthead == b.ncuts)
                    b.cuthead = b.ncuts = 0;
                if (g->argmax[c] == LINK_SPONT)
                    continue; /* a partition root already or later */
                b.ncutroots++;
                rc = do_root(&b, c, 0, 1);
            }
        }
    gsl_set_error_handler(old_handler);
    if (rc != PB_OK)
        goto done;

    /* the most probable instance of each message, in trace order */
    uint64_t unassigned = 0;
    if (v->n && res->assign_cap < res->nassign + v->n) {
        pb_assign *a = realloc(res->assign, (res->nassign + v->n) * sizeof *a);
        if (!a) {
            rc = PB_ENOMEM;
            goto done;
        }
        res->assign = a;
        res->assign_cap = res->nassign + v->n;
    }
    res->min_confidence = p->min_confidence;
    for (size_t i = 0; i < v->n; i++) {
        uint64_t inst = b.best_inst[i];
        uint32_t pat = b.best_pat[i], par = inst ? b.best_par[i] : UINT32_MAX;
        double conf = inst ? (double)b.best_conf[i] : NAN;
        if (inst && b.prim_inst && b.prim_inst[i])
            b.nmoved++;
        else if (!inst && b.prim_inst && b.prim_inst[i]) {
            inst = b.prim_inst[i];
            pat = b.prim_pat[i];
            par = b.prim_par[i];
            conf = (double)b.prim_conf[i];
        }
        if (!inst) {
            unassigned++;
            continue;
        }
        if (conf > 1)
            conf = 1;
        if ((rc = pb_result_assign_link(res, v->msgs[i].id, inst, pat,
                                        par == UINT32_MAX ? PB_NO_PARENT : v->msgs[par].id,
                                        conf)) != PB_OK)
            goto done;
    }
    if (p->min_confidence > 0) {
        char nb[PB_NUM_BUF];
        if ((rc = pb_result_meta(res, "min_confidence=%s abstained=%zu",
                                 pb_num_format(p->min_confidence, nb), res->nabstain)) != PB_OK)
            goto done;
    }

    for (size_t q = 0; q < g->npairs; q++) {
        pk[q].key = (uint64_t)g->pair_src[q] << 32 | g->pair_dst[q];
        pk[q].id = (uint32_t)q;
    }
    pb_sort(pk, g->npairs, sizeof *pk, cmp_pairkey);
    pb_pattab_rank(res->patterns, res->rank_by);
    rc = PB_ENOMEM;
    if (pb_result_meta(res, "link_roots=%llu link_instances=%llu "
                       "link_tryboth=%llu link_truncated=%llu link_cut_roots=%llu "
                       "link_cycle_roots=%llu "
                       "link_links=%zu "
                       "link_unassigned=%llu link_spontaneous=%llu "
                       "link_no_recv_ts=%llu link_pairs=%zu link_entry=%llu "
                       "link_assign_moved=%llu",
                       (unsigned long long)b.nroots, (unsigned long long)b.ninst,
                       (unsigned long long)b.ntb, (unsigned long long)b.ntrunc,
                       (unsigned long long)b.ncutroots,
                       (unsigned long long)b.ncycleroots, g->nlinks, (unsigned long long)unassigned,
                       (unsigned long long)g->nspont_only,
                       (unsigned long long)g->nnil, g->npairs,
                       (unsigned long long)g->nentry,
                       (unsigned long long)b.nmoved) != PB_OK)
        goto done;
    if (b.ncapped &&
        (pb_result_meta(res, "link_capped_roots=%llu", (unsigned long long)b.ncapped) != PB_OK ||
         pb_result_warn(res, "%llu roots got no try-both decisions after %d "
                        "instances in all (a cap on the work of k=%d); expected a "
                        "smaller k for this trace", (unsigned long long)b.ncapped,
                        LINK_MAX_INSTANCES, p->k) != PB_OK))
        goto done;
    pb_strbuf_printf(&res->report,
                     "# WAP5 message linking: %zu messages, %llu roots, %llu "
                     "instances, %zu patterns, %zu candidate links\n",
                     v->n, (unsigned long long)b.nroots,
                     (unsigned long long)b.ninst,
                     pb_pattab_count(res->patterns), g->nlinks);
    if ((rc = write_pairs(g, pk, v->nodes, res)) != PB_OK)
        goto done;
    if (p->hist && (rc = write_hist(&b)) != PB_OK)
        goto done;
    rc = write_dot(g, pk, v->nodes, p, res);
done:
    free(pk);
    builder_free(&b);
    if (rc == PB_OK)
        return PB_OK;
    if (rc == PB_EINVAL)
        return pb_error_set(err, rc, NULL, 0, 0,
                            "linking: a node name makes a pattern that does "
                            "not parse back");
    return pb_error_set(err, rc, NULL, 0, 0,
                        "linking: out of memory building path instances");
}

/* ------------------------------------------------------------------ */

/* A copy of the messages with the receive times at the untraced nodes
 * blanked, as the reconciled trace of a partly traced system has them. */
static int blank_untraced(const pb_trace_view *v, const char *list,
                          pb_msg **out, pb_error *err)
{
    uint8_t *flag;
    int rc = link_node_flags(v, list, "untraced", &flag, err);
    if (rc != PB_OK)
        return rc;
    uint32_t nn = pb_strtab_count(v->nodes);
    pb_msg *m = malloc((v->n ? v->n : 1) * sizeof *m);
    if (!m) {
        free(flag);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    memcpy(m, v->msgs, v->n * sizeof *m);
    for (size_t i = 0; i < v->n; i++)
        if (m[i].dst < nn && flag[m[i].dst])
            m[i].recv_ts = PB_TS_NONE;
    free(flag);
    *out = m;
    return PB_OK;
}

static int linking_run(const pb_trace_view *trace, const void *params,
                       pb_result *res, pb_error *err)
{
    const link_params *p = params;
    pb_trace_view v = *trace;
    pb_msg *copy = NULL;
    int rc;
    if (p->untraced && *p->untraced) {
        if ((rc = blank_untraced(trace, p->untraced, &copy, err)) != PB_OK)
            return rc;
        v.msgs = copy;
    }
    link_graph *g;
    rc = link_graph_build(&v, p, &g, err);
    if (rc == PB_OK) {
        rc = link_build_paths(&v, g, p, res, err);
        link_graph_close(g);
    }
    free(copy);
    return rc;
}

const pb_algo pb_algo_linking = {
    "linking", "message",
    "message linking (WAP5, WWW'06 section 5.1): needs ts and recv_ts, "
    "no call/return marks",
    link_options, sizeof(link_params), linking_run, NULL};
