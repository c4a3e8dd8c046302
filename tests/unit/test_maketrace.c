/*
 * test_maketrace.c - the tracelet generator: properties of every shipped
 * config, statistics against the configured means, overrides, and one test
 * per bad config input checking its located message.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mt.h"
#include "pbtest.h"
#include "pb_strbuf.h"
#include "pb_sort.h"

typedef struct gen_out {
    pb_msg *m;
    pb_truth *t;
    size_t n, cap;
    pb_names *names;
    mt_config *cfg;
    mt_gen *g;
} gen_out;

static void gen_free(gen_out *o)
{
    free(o->m);
    free(o->t);
    mt_gen_close(o->g);
    mt_config_close(o->cfg);
    pb_names_close(o->names);
    memset(o, 0, sizeof *o);
}

static int gen_run(gen_out *o, pb_error *e)
{
    int rc;
    if ((rc = pb_names_init(&o->names)) != PB_OK)
        return rc;
    if ((rc = mt_gen_init(&o->g, o->cfg, o->names, e)) != PB_OK)
        return rc;
    for (;;) {
        if (o->n == o->cap) {
            o->cap = o->cap ? 2 * o->cap : 1024;
            o->m = realloc(o->m, o->cap * sizeof *o->m);
            o->t = realloc(o->t, o->cap * sizeof *o->t);
            if (!o->m || !o->t)
                return PB_ENOMEM;
        }
        rc = mt_gen_next(o->g, &o->m[o->n], &o->t[o->n]);
        if (rc < 0)
            return rc;
        if (rc == 0)
            return PB_OK;
        o->n++;
    }
}

static int gen_text(gen_out *o, const char *text, const char *const *defs, size_t nd,
                    pb_error *e)
{
    memset(o, 0, sizeof *o);
    int rc = mt_config_parse(text, strlen(text), "test.conf", defs, nd, &o->cfg, e);
    return rc != PB_OK ? rc : gen_run(o, e);
}

static int gen_file(gen_out *o, const char *path, const char *const *defs, size_t nd,
                    pb_error *e)
{
    memset(o, 0, sizeof *o);
    int rc = mt_config_load(path, defs, nd, &o->cfg, e);
    return rc != PB_OK ? rc : gen_run(o, e);
}

static const char *node(const gen_out *o, uint32_t i)
{
    return pb_strtab_str(o->names->nodes, i);
}

/* The structural properties every generated trace must have.  Returns the
 * number of violations (the first few are reported). */
static int check_props(const gen_out *o, const char *what)
{
    int bad = 0;
#define VIOL(...)                                                     \
    do {                                                              \
        if (bad++ < 5)                                                \
            PBT_FAIL(__VA_ARGS__);                                    \
    } while (0)
    uint64_t maxcall = 0, maxpath = 0;
    for (size_t i = 0; i < o->n; i++) {
        if (o->m[i].callid != PB_ID_NONE && o->m[i].callid > maxcall)
            maxcall = o->m[i].callid;
        if (o->t[i].path > maxpath)
            maxpath = o->t[i].path;
    }
    int64_t *callat = malloc((maxcall + 1) * sizeof *callat);
    int *nret = calloc(maxcall + 1, sizeof *nret);
    int *roots = calloc(maxpath + 1, sizeof *roots);
    size_t *first = malloc((maxpath + 1) * sizeof *first);
    for (uint64_t c = 0; c <= maxcall; c++)
        callat[c] = -1;
    for (uint64_t p = 0; p <= maxpath; p++)
        first[p] = SIZE_MAX;
    for (size_t i = 0; i < o->n; i++) {
        const pb_msg *m = &o->m[i];
        const pb_truth *t = &o->t[i];
        if (m->id != i)
            VIOL("%s: message %zu has id %llu", what, i, (unsigned long long)m->id);
        if (i && m->ts < o->m[i - 1].ts)
            VIOL("%s: message %zu out of ts order", what, i);
        if (m->recv_ts < m->ts)
            VIOL("%s: message %zu received before sent", what, i);
        if (m->src == m->dst)
            VIOL("%s: message %zu sent to itself", what, i);
        if (t->path == PB_ID_NONE || t->path == 0) {
            VIOL("%s: message %zu has no path", what, i);
            continue;
        }
        if (first[t->path] == SIZE_MAX)
            first[t->path] = i;
        if (t->cause == PB_ID_NONE) {
            roots[t->path]++;
            if (first[t->path] != i)
                VIOL("%s: message %zu has no cause but is not its path's first", what, i);
        } else {
            if (t->cause >= i) {
                VIOL("%s: cause %llu of message %zu does not precede it", what,
                     (unsigned long long)t->cause, i);
            } else {
                const pb_msg *c = &o->m[t->cause];
                if (o->t[t->cause].path != t->path)
                    VIOL("%s: cause of message %zu is in another path", what, i);
                if (c->dst != m->src)
                    VIOL("%s: cause of message %zu was not received by its sender", what, i);
                if (c->recv_ts > m->ts)
                    VIOL("%s: message %zu sent before its cause arrived", what, i);
            }
        }
        if (m->type == PB_TYPE_CALL) {
            if (m->callid == PB_ID_NONE || callat[m->callid] >= 0)
                VIOL("%s: call %zu has no or a reused callid", what, i);
            else
                callat[m->callid] = (int64_t)i;
        } else if (m->type == PB_TYPE_RETURN) {
            if (m->callid == PB_ID_NONE || callat[m->callid] < 0) {
                VIOL("%s: return %zu has no earlier call", what, i);
            } else {
                const pb_msg *c = &o->m[callat[m->callid]];
                nret[m->callid]++;
                if (c->src != m->dst || c->dst != m->src ||
                    o->t[callat[m->callid]].path != t->path)
                    VIOL("%s: return %zu does not mirror its call", what, i);
            }
        } else if (m->callid != PB_ID_NONE) {
            VIOL("%s: one-way message %zu has a callid", what, i);
        }
    }
    for (uint64_t c = 1; c <= maxcall; c++)
        if (callat[c] >= 0 && nret[c] != 1)
            VIOL("%s: call with callid %llu has %d returns", what, (unsigned long long)c, nret[c]);
    for (uint64_t p = 1; p <= maxpath; p++)
        if (roots[p] != 1)
            VIOL("%s: path %llu has %d roots", what, (unsigned long long)p, roots[p]);
    free(callat);
    free(nret);
    free(roots);
    free(first);
#undef VIOL
    return bad;
}

/* Per path: number of messages, first ts, last receive. */
typedef struct pathinfo {
    uint32_t n;
    pb_ns start, end;
} pathinfo;

static pathinfo *paths_of(const gen_out *o, uint64_t *np)
{
    uint64_t maxp = 0;
    for (size_t i = 0; i < o->n; i++)
        if (o->t[i].path > maxp)
            maxp = o->t[i].path;
    pathinfo *p = calloc(maxp + 1, sizeof *p);
    for (size_t i = 0; i < o->n; i++) {
        pathinfo *q = &p[o->t[i].path];
        if (!q->n++)
            q->start = o->m[i].ts;
        if (o->m[i].recv_ts > q->end)
            q->end = o->m[i].recv_ts;
    }
    *np = maxp;
    return p;
}

/* ------------------------------------------------------------------ */

typedef struct shipped {
    const char *file;
    int sizes[4][3];    /* per tracelet (config order): path sizes, 0-ended */
    const char *first;  /* the setting that delays each path's first message */
} shipped;

static const shipped configs[] = {
    {"multitier.conf", {{4}, {8, 10}, {14}, {2}}, "call_delay"},
    {"multitier-delay.conf", {{4}, {8, 10}, {14}, {2}}, "call_delay"},
    {"children-parallel.conf", {{6}}, "call_delay"},
    {"children-0-2.conf", {{6}, {2}}, "call_delay"},
    {"children-d-cc.conf", {{6}, {4}}, "call_delay"},
    {"penalty-breaker.conf", {{6}, {8}, {2}}, "call_delay"},
    {"freeform.conf", {{3}, {2}, {4}}, "msg_delay"},
    {"tiny.conf", {{0}}, NULL},
};

static void config_path(char *buf, size_t n, const char *file)
{
    const char *root = getenv("PB_ROOT");
    snprintf(buf, n, "%s/maketrace/configs/%s", root ? root : ".", file);
}

TEST(test_maketrace_shipped_properties)
{
    for (size_t c = 0; c < sizeof configs / sizeof *configs; c++) {
        char path[1024];
        config_path(path, sizeof path, configs[c].file);
        gen_out o;
        pb_error e;
        pb_error_clear(&e);
        int rc = gen_file(&o, path, NULL, 0, &e);
        if (rc != PB_OK) {
            PBT_FAIL("%s: %s", configs[c].file, e.msg);
            gen_free(&o);
            continue;
        }
        CHECK(o.n > 0);
        CHECK_INT(check_props(&o, configs[c].file), 0);
        gen_free(&o);
    }
}

TEST(test_maketrace_shipped_weights)
{
    for (size_t c = 0; c < sizeof configs / sizeof *configs; c++) {
        if (!configs[c].sizes[0][0])
            continue;
        char path[1024];
        config_path(path, sizeof path, configs[c].file);
        gen_out o;
        pb_error e;
        if (gen_file(&o, path, NULL, 0, &e) != PB_OK) {
            PBT_FAIL("%s: %s", configs[c].file, e.msg);
            gen_free(&o);
            continue;
        }
        uint64_t np;
        pathinfo *p = paths_of(&o, &np);
        size_t ntr = mt_config_ntracelets(o.cfg);
        uint64_t count[4] = {0}, total = 0;
        double wsum = 0;
        for (size_t i = 0; i < ntr; i++)
            wsum += mt_config_tracelet_weight(o.cfg, i);
        for (uint64_t k = 1; k <= np; k++) {
            int found = 0;
            for (size_t i = 0; i < ntr && !found; i++)
                for (int j = 0; j < 3 && configs[c].sizes[i][j]; j++)
                    if ((uint32_t)configs[c].sizes[i][j] == p[k].n) {
                        count[i]++;
                        found = 1;
                        break;
                    }
            if (!found)
                PBT_FAIL("%s: path %llu has %u messages, no tracelet makes that",
                         configs[c].file, (unsigned long long)k, p[k].n);
            total++;
        }
        for (size_t i = 0; i < ntr; i++) {
            /* the generator's own counters agree with the trace */
            CHECK_INT(mt_gen_stats(o.g, i)->paths, count[i]);
            double pr = mt_config_tracelet_weight(o.cfg, i) / wsum;
            double mean = (double)total * pr, sd = sqrt((double)total * pr * (1 - pr));
            if (fabs((double)count[i] - mean) > 4.5 * sd + 1)
                PBT_FAIL("%s: tracelet %s made %llu of %llu paths, expected %.0f +- %.0f",
                         configs[c].file, mt_config_tracelet_name(o.cfg, i),
                         (unsigned long long)count[i], (unsigned long long)total, mean, 4.5 * sd);
        }
        free(p);
        gen_free(&o);
    }
}

/* Every shipped config (all pool tracelets): each of the N instances
 * cycles think -> first-call delay -> path, so over the duration T
 *   sum over paths (think + delay + busy) = N T  (up to one cycle per
 * instance at the end).  The trace gives busy; with think and delay at
 * their configured means the left side must come to N T.  The generator's
 * own mean think time must match the configured one too. */
TEST(test_maketrace_shipped_instances_think)
{
    for (size_t c = 0; c < sizeof configs / sizeof *configs; c++) {
        if (!configs[c].sizes[0][0])
            continue;
        char path[1024];
        config_path(path, sizeof path, configs[c].file);
        gen_out o;
        pb_error e;
        if (gen_file(&o, path, NULL, 0, &e) != PB_OK) {
            PBT_FAIL("%s: %s", configs[c].file, e.msg);
            gen_free(&o);
            continue;
        }
        mt_settings *s = mt_config_settings(o.cfg);
        pb_ns lo, hi, d0;
        mt_config_tracelet_think(o.cfg, 0, &lo, &hi);
        char mean[64];
        snprintf(mean, sizeof mean, "%s",
                 !strcmp(configs[c].first, "call_delay") ? s->call_delay : s->msg_delay);
        mean[strcspn(mean, ",")] = '\0';
        CHECK_INT(pb_duration_parse(mean, &d0), PB_OK);
        uint64_t np;
        pathinfo *p = paths_of(&o, &np);
        double sum = 0;
        for (uint64_t k = 1; k <= np; k++)
            sum += pb_ns_to_sec(p[k].end - p[k].start);
        double think = pb_ns_to_sec(lo + hi) / 2;
        sum += (double)np * (think + pb_ns_to_sec(d0));
        double T = pb_ns_to_sec(s->duration);
        double n_est = sum / T;
        if (fabs(n_est - s->instances) > 0.02 * s->instances)
            PBT_FAIL("%s: the trace shows %.3f instances, configured %d", configs[c].file, n_est,
                     s->instances);
        double tsum = 0, tn = 0;
        for (size_t i = 0; i < mt_config_ntracelets(o.cfg); i++) {
            tsum += mt_gen_stats(o.g, i)->think_sum;
            tn += (double)mt_gen_stats(o.g, i)->paths;
        }
        double sd = pb_ns_to_sec(hi - lo) / sqrt(12.0) / sqrt(tn);
        if (fabs(tsum / tn - think) > 4.5 * sd)
            PBT_FAIL("%s: mean think %.6f s, configured %.6f s", configs[c].file, tsum / tn, think);
        free(p);
        gen_free(&o);
    }
}

/* multitier at its defaults: about 200,000 messages over 500 s (Table 1). */
TEST(test_maketrace_multitier_size)
{
    static const char *const files[] = {"multitier.conf", "multitier-delay.conf"};
    for (int f = 0; f < 2; f++) {
        char path[1024];
        config_path(path, sizeof path, files[f]);
        gen_out o;
        pb_error e;
        if (gen_file(&o, path, NULL, 0, &e) != PB_OK) {
            PBT_FAIL("%s: %s", files[f], e.msg);
            gen_free(&o);
            continue;
        }
        CHECK(o.n > 180000 && o.n < 220000);
        CHECK(o.m[o.n - 1].ts > 499 * PB_NS_PER_SEC);
        CHECK(o.m[o.n - 1].recv_ts <= 500 * PB_NS_PER_SEC);
        gen_free(&o);
    }
}

/* The added-delay trace waits 200 ms at WS2 between AUTH's return and the
 * call to AP1/AP2, and nowhere else. */
TEST(test_maketrace_added_delay)
{
    static const char *const files[] = {"multitier.conf", "multitier-delay.conf"};
    for (int f = 0; f < 2; f++) {
        char path[1024];
        config_path(path, sizeof path, files[f]);
        gen_out o;
        pb_error e;
        if (gen_file(&o, path, NULL, 0, &e) != PB_OK) {
            PBT_FAIL("%s: %s", files[f], e.msg);
            gen_free(&o);
            continue;
        }
        size_t n1 = 0, n2 = 0, long1 = 0, long2 = 0;
        for (size_t i = 0; i < o.n; i++) {
            const pb_msg *m = &o.m[i];
            if (m->type != PB_TYPE_CALL || o.t[i].cause == PB_ID_NONE)
                continue;
            const pb_msg *c = &o.m[o.t[i].cause];
            if (strcmp(node(&o, c->src), "AUTH") || strncmp(node(&o, m->dst), "AP", 2))
                continue;
            pb_ns gap = m->ts - c->recv_ts;
            if (!strcmp(node(&o, m->src), "WS2")) {
                n2++;
                long2 += gap >= 200000000;
            } else {
                n1++;
                long1 += gap >= 200000000;
            }
        }
        CHECK(n1 > 1000 && n2 > 1000);
        CHECK_INT(long1, 0);
        CHECK_INT(long2, f == 0 ? 0 : n2);
        gen_free(&o);
    }
}

/* The pathological cases produce the hard situation of 7.5.2: most A -> B
 * calls are open at B while another path's A -> B call is; in
 * children-parallel the two B -> C calls overlap. */
TEST(test_maketrace_pathological_overlap)
{
    static const char *const files[] = {"children-parallel.conf", "children-0-2.conf",
                                        "children-d-cc.conf", "penalty-breaker.conf"};
    for (int f = 0; f < 4; f++) {
        char path[1024];
        config_path(path, sizeof path, files[f]);
        gen_out o;
        pb_error e;
        if (gen_file(&o, path, NULL, 0, &e) != PB_OK) {
            PBT_FAIL("%s: %s", files[f], e.msg);
            gen_free(&o);
            continue;
        }
        /* open A -> B calls, swept in ts order */
        size_t open = 0, calls = 0, overlapped = 0;
        uint64_t maxcall = 0;
        for (size_t i = 0; i < o.n; i++)
            if (o.m[i].callid != PB_ID_NONE && o.m[i].callid > maxcall)
                maxcall = o.m[i].callid;
        char *isab = calloc(maxcall + 1, 1), *hit = calloc(maxcall + 1, 1);
        uint64_t *openlist = calloc(maxcall + 1, sizeof *openlist);
        for (size_t i = 0; i < o.n; i++) {
            const pb_msg *m = &o.m[i];
            int ab = m->type == PB_TYPE_CALL && !strcmp(node(&o, m->src), "A");
            if (ab) {
                isab[m->callid] = 1;
                calls++;
                if (open) {
                    hit[m->callid] = 1;
                    for (size_t k = 0; k < open; k++)
                        hit[openlist[k]] = 1;
                }
                openlist[open++] = m->callid;
            } else if (m->type == PB_TYPE_RETURN && isab[m->callid]) {
                for (size_t k = 0; k < open; k++)
                    if (openlist[k] == m->callid) {
                        openlist[k] = openlist[--open];
                        break;
                    }
            }
        }
        for (uint64_t c = 1; c <= maxcall; c++)
            overlapped += hit[c];
        if (!(calls > 1000 && overlapped * 2 > calls))
            PBT_FAIL("%s: only %zu of %zu A->B calls overlap another", files[f], overlapped, calls);
        free(isab);
        free(hit);
        free(openlist);
        if (f == 0) {
            /* both B -> C calls of a path are out before either returns */
            size_t paths = 0, par = 0;
            uint64_t np;
            pathinfo *p = paths_of(&o, &np);
            int *seen = calloc(np + 1, sizeof *seen);
            int *ret = calloc(np + 1, sizeof *ret);
            for (size_t i = 0; i < o.n; i++) {
                const pb_msg *m = &o.m[i];
                uint64_t q = o.t[i].path;
                if (m->type == PB_TYPE_CALL && !strcmp(node(&o, m->dst), "C")) {
                    if (++seen[q] == 2 && !ret[q])
                        par++;
                } else if (m->type == PB_TYPE_RETURN && !strcmp(node(&o, m->src), "C")) {
                    ret[q]++;
                }
            }
            for (uint64_t q = 1; q <= np; q++)
                paths += seen[q] == 2;
            CHECK(paths > 1000);
            if (par * 10 < paths * 9)
                PBT_FAIL("only %zu of %zu paths have overlapping C calls", par, paths);
            free(seen);
            free(ret);
            free(p);
        }
        gen_free(&o);
    }
}

/* field by field: pb_msg has padding */
static int same(const gen_out *a, const gen_out *b)
{
    if (a->n != b->n)
        return 0;
    for (size_t i = 0; i < a->n; i++) {
        const pb_msg *x = &a->m[i], *y = &b->m[i];
        if (x->id != y->id || x->ts != y->ts || x->recv_ts != y->recv_ts ||
            x->callid != y->callid || x->src != y->src || x->dst != y->dst ||
            x->type != y->type || a->t[i].path != b->t[i].path ||
            a->t[i].cause != b->t[i].cause)
            return 0;
    }
    return 1;
}

TEST(test_maketrace_seed)
{
    static const char *text =
        "messages = 3000\ninstances = 5\nthink = 0..50ms\n"
        "tracelet t from A { call B|C { call D:2|E:1 } }\n";
    gen_out a, b, c;
    pb_error e;
    const char *d2[] = {"seed=2"};
    CHECK_INT(gen_text(&a, text, NULL, 0, &e), PB_OK);
    CHECK_INT(gen_text(&b, text, NULL, 0, &e), PB_OK);
    CHECK_INT(gen_text(&c, text, d2, 1, &e), PB_OK);
    CHECK(a.n == b.n && a.n > 2900);
    CHECK(a.n == b.n && same(&a, &b));
    CHECK(a.n != c.n || !same(&a, &c));
    CHECK_INT(check_props(&c, "seed 2"), 0);
    gen_free(&a);
    gen_free(&b);
    gen_free(&c);
}

static int cmp_ns(const void *x, const void *y)
{
    pb_ns a = *(const pb_ns *)x, b = *(const pb_ns *)y;
    return a < b ? -1 : a > b;
}

/* With zero-variance delays a path takes exactly 60 ms, so the trace shows
 * the think times and the number of instances directly. */
static void check_instances_think(const char *text, int n_inst, double lo, double hi)
{
    gen_out o;
    pb_error e;
    if (gen_text(&o, text, NULL, 0, &e) != PB_OK) {
        PBT_FAIL("%s", e.msg);
        gen_free(&o);
        return;
    }
    CHECK_INT(check_props(&o, "instances"), 0);
    uint64_t np;
    pathinfo *p = paths_of(&o, &np);
    /* concurrency: sweep path starts and ends */
    pb_ns *ev = malloc(2 * np * sizeof *ev);
    double busy = 0;
    for (uint64_t k = 1; k <= np; k++) {
        CHECK_INT(p[k].end - p[k].start, 60000000);
        ev[2 * (k - 1)] = p[k].start * 2 + 1;  /* starts after ends at ties */
        ev[2 * (k - 1) + 1] = p[k].end * 2;
        busy += pb_ns_to_sec(p[k].end - p[k].start);
    }
    pb_sort(ev, 2 * np, sizeof *ev, cmp_ns);
    int cur = 0, maxc = 0;
    for (uint64_t k = 0; k < 2 * np; k++) {
        cur += (ev[k] & 1) ? 1 : -1;
        if (cur > maxc)
            maxc = cur;
    }
    CHECK_INT(maxc, n_inst);
    /* expected busy fraction per instance: 60 ms / (60 ms + mean think) */
    double T = pb_ns_to_sec(o.m[o.n - 1].recv_ts);
    double mean_think = (lo + hi) / 2;
    double expect = n_inst * 0.060 / (0.060 + mean_think);
    CHECK_NEAR(busy / T, expect, 0.03 * expect);
    if (n_inst == 1) {
        /* consecutive paths of the one instance: gap = think (the first
         * call has no delay) */
        double sum = 0, mn = 1e9, mx = -1;
        for (uint64_t k = 2; k <= np; k++) {
            double g = pb_ns_to_sec(p[k].start - p[k - 1].end);
            sum += g;
            mn = g < mn ? g : mn;
            mx = g > mx ? g : mx;
        }
        double m = sum / (double)(np - 1);
        double sd = (hi - lo) / sqrt(12.0) / sqrt((double)(np - 1));
        CHECK_NEAR(m, mean_think, 4.5 * sd + 1e-9);
        CHECK(mn >= lo - 1e-9 && mx <= hi + 1e-9);
        CHECK(mn < lo + 0.1 * (hi - lo) && mx > hi - 0.1 * (hi - lo));
    }
    free(ev);
    free(p);
    gen_free(&o);
}

TEST(test_maketrace_think_time)
{
    check_instances_think("duration = 200s\n"
                          "tracelet t from A instances=1 think=100ms..300ms {\n"
                          "  call B delay=0 ret=10ms,0 { call C delay=20ms ret=30ms }\n}\n",
                          1, 0.1, 0.3);
}

TEST(test_maketrace_instances)
{
    check_instances_think("duration = 100s\ninstances = 7\nthink = 0..100ms\n"
                          "tracelet t from A { call B delay=0 ret=10ms,0 { call C delay=20ms ret=30ms } }\n"
                          "tracelet u from A weight=2 { call D delay=0 ret=60ms }\n",
                          7, 0, 0.1);
    /* instances_scale multiplies */
    check_instances_think("duration = 100s\ninstances = 2\nthink = 0..100ms\ninstances_scale = 2.5\n"
                          "tracelet t from A { call B delay=0 ret=60ms,0 }\n",
                          5, 0, 0.1);
}

TEST(test_maketrace_limits)
{
    gen_out o;
    pb_error e;
    CHECK_INT(gen_text(&o, "messages = 1000\ninstances = 3\n"
                           "tracelet t from A { call B { call C; call C } }\n", NULL, 0, &e), PB_OK);
    CHECK(o.n <= 1000 && o.n > 1000 - 3 * 6);
    CHECK_INT(o.n % 6, 0);
    CHECK_INT(check_props(&o, "messages"), 0);
    gen_free(&o);
    CHECK_INT(gen_text(&o, "duration = 10s\ninstances = 3\nthink = 0..10ms\n"
                           "tracelet t from A { call B { call C; call C } }\n", NULL, 0, &e), PB_OK);
    CHECK(o.m[o.n - 1].recv_ts <= 10 * PB_NS_PER_SEC);
    CHECK(o.m[o.n - 1].ts > 9 * PB_NS_PER_SEC);
    CHECK_INT(o.n % 6, 0);
    gen_free(&o);
}

/* absurd times saturate instead of overflowing (UBSan watches this), and
 * a message whose time reached the saturation point is refused (PB_ERANGE),
 * not written with the clamped stamp (test_hostile13 block 1) */
TEST(test_maketrace_huge_times)
{
    gen_out o;
    pb_error e;
    const char *d[] = {"sd_scale=1000000", "think_scale=10000000", "think=0..9000000000s"};
    CHECK_INT(gen_text(&o, "messages = 60\ninstances = 2\n"
                           "tracelet t from A { call B delay=1000000000s,1000000000s { wait 3000000000s; "
                           "call C delay=9000000000s ret=9000000000s } }\n", d, 3, &e), PB_ERANGE);
    CHECK(o.n < 60);
    gen_free(&o);
}

TEST(test_maketrace_net_delay)
{
    gen_out o;
    pb_error e;
    CHECK_INT(gen_text(&o, "messages = 500\nnet_delay = 3ms\n"
                           "tracelet t from A { call B { send C { send D } } }\n", NULL, 0, &e), PB_OK);
    for (size_t i = 0; i < o.n; i++)
        if (o.m[i].recv_ts - o.m[i].ts != 3000000) {
            PBT_FAIL("message %zu: recv_ts - ts = %lld", i, (long long)(o.m[i].recv_ts - o.m[i].ts));
            break;
        }
    CHECK_INT(check_props(&o, "net"), 0);
    gen_free(&o);
    /* default: recv_ts = ts; net_sd makes them differ */
    const char *d[] = {"net_delay=1ms", "net_sd=1ms"};
    CHECK_INT(gen_text(&o, "messages = 500\ntracelet t from A { call B }\n", NULL, 0, &e), PB_OK);
    CHECK(o.m[3].recv_ts == o.m[3].ts);
    gen_free(&o);
    CHECK_INT(gen_text(&o, "messages = 500\ntracelet t from A { call B }\n", d, 2, &e), PB_OK);
    CHECK(o.m[3].recv_ts != o.m[3].ts + 1000000 && o.m[3].recv_ts >= o.m[3].ts);
    CHECK_INT(check_props(&o, "net_sd"), 0);
    gen_free(&o);
}

/* An explicit interleaving comes out in the written order, one path per
 * label, with causes and callids as written. */
TEST(test_maketrace_interleave)
{
    gen_out o;
    pb_error e;
    CHECK_INT(gen_text(&o, "messages = 8\ncall_delay = 50ms\nret_delay = 10ms\nmsg_delay = 10ms\n"
                           "tracelet i interleave think=1s instances=1 {\n"
                           "  p call X -> Y\n  q call X -> Y\n  p msg Y -> Z\n"
                           "  q return Y -> X\n  p return Y -> X\n}\n", NULL, 0, &e), PB_OK);
    CHECK_INT(o.n, 5);
    if (o.n == 5) {
        static const char *const src[] = {"X", "X", "Y", "Y", "Y"};
        static const char *const dst[] = {"Y", "Y", "Z", "X", "X"};
        static const uint64_t path[] = {1, 2, 1, 2, 1};
        static const uint64_t cause[] = {PB_ID_NONE, PB_ID_NONE, 0, 1, 0};
        static const uint64_t callid[] = {1, 2, PB_ID_NONE, 2, 1};
        for (int i = 0; i < 5; i++) {
            CHECK_STR(node(&o, o.m[i].src), src[i]);
            CHECK_STR(node(&o, o.m[i].dst), dst[i]);
            CHECK_INT(o.t[i].path, path[i]);
            CHECK_INT(o.t[i].cause, cause[i]);
            CHECK_INT(o.m[i].callid, callid[i]);
        }
        CHECK_INT(o.m[0].ts, 1050000000);
        CHECK_INT(o.m[4].ts - o.m[3].ts, 10000000);
    }
    CHECK_INT(check_props(&o, "interleave"), 0);
    gen_free(&o);
}

/* call ... async (fire and forget), hand-worked: A calls B; B calls C
 * async 1 ms after the arrival (C answers 5 ms later), then 2 ms after
 * that send calls D (answers 1 ms later), then answers A 1 ms after D's
 * return.  B goes on at C's send: D is sent at +3 ms, caused by A's call
 * (C's return causes nothing), B answers at +5 ms, caused by D's return,
 * and C's return arrives at +6 ms, after B's answer.  The path is whole
 * (6 messages, C's return included). */
TEST(test_maketrace_async)
{
    gen_out o;
    pb_error e;
    CHECK_INT(gen_text(&o, "messages = 6\n"
                           "tracelet t from A { call B delay=0 ret=1ms { call C async delay=1ms ret=5ms; "
                           "wait 2ms; call D delay=0 ret=1ms } }\n",
                       NULL, 0, &e), PB_OK);
    CHECK_INT(o.n, 6);
    if (o.n == 6) {
        /* by time: A>B 0, B>C 1, B>D 3, D>B 4, B>A 5, C>B 6 (ms) */
        pb_ns want[6] = {0, 1000000, 3000000, 4000000, 5000000, 6000000};
        const char *src[6] = {"A", "B", "B", "D", "B", "C"};
        for (int i = 0; i < 6; i++) {
            CHECK_INT(o.m[i].ts, want[i]);
            CHECK_STR(node(&o, o.m[i].src), src[i]);
        }
        CHECK_INT(o.m[5].type, PB_TYPE_RETURN);
        CHECK_INT(o.m[5].callid, o.m[1].callid);
        CHECK_INT(o.t[2].cause, 0); /* D: caused by A's call, not C's return */
        CHECK_INT(o.t[4].cause, 3); /* B's answer: by D's return */
        CHECK_INT(o.t[5].cause, 1); /* C's return: by B's call to C */
    }
    gen_free(&o);
}

/* par joins on the latest return; choose follows its weights; wait only at
 * the named node. */
TEST(test_maketrace_constructs)
{
    gen_out o;
    pb_error e;
    CHECK_INT(gen_text(&o, "messages = 1\n"
                           "tracelet t from A { call B delay=0 ret=0 { par { call C delay=1ms ret=5ms; "
                           "call D delay=2ms ret=1ms }; send E delay=0 } }\n",
                       NULL, 0, &e), PB_OK);
    CHECK_INT(o.n, 0); /* a path of 7 does not fit in 1 */
    gen_free(&o);
    CHECK_INT(gen_text(&o, "messages = 7\n"
                           "tracelet t from A { call B delay=0 ret=0 { par { call C delay=1ms ret=5ms; "
                           "call D delay=2ms ret=1ms }; send E delay=0 } }\n",
                       NULL, 0, &e), PB_OK);
    CHECK_INT(o.n, 7);
    if (o.n == 7) {
        /* C returns at +6 ms, D at +3 ms: E is caused by C's return */
        CHECK_STR(node(&o, o.m[5].dst), "E");
        CHECK_STR(node(&o, o.m[o.t[5].cause].src), "C");
        CHECK_INT(o.m[5].ts, 6000000);
        CHECK_INT(o.t[6].cause, o.t[5].cause); /* send does not change B's cause */
    }
    gen_free(&o);
    CHECK_INT(gen_text(&o, "messages = 20000\n"
                           "tracelet t from A { call B { choose { 3 { call C } 1 { } 0 { call D } } } }\n",
                       NULL, 0, &e), PB_OK);
    size_t c = 0, paths = 0, d = 0;
    for (size_t i = 0; i < o.n; i++) {
        if (o.m[i].type != PB_TYPE_CALL)
            continue;
        const char *dn = node(&o, o.m[i].dst);
        c += !strcmp(dn, "C");
        d += !strcmp(dn, "D");
        paths += !strcmp(dn, "B");
    }
    CHECK_INT(d, 0);
    CHECK_NEAR((double)c / (double)paths, 0.75, 4.5 * sqrt(0.75 * 0.25 / (double)paths));
    gen_free(&o);
    CHECK_INT(gen_text(&o, "messages = 4000\n"
                           "tracelet t from A { call B:1|X:1 delay=0 ret=0 { wait 70ms at X } }\n",
                       NULL, 0, &e), PB_OK);
    for (size_t i = 0; i + 1 < o.n; i += 2) {
        pb_ns want = !strcmp(node(&o, o.m[i].dst), "X") ? 70000000 : 0;
        if (o.m[i + 1].ts - o.m[i].ts != want) {
            PBT_FAIL("path at %zu: %lld ns at %s", i, (long long)(o.m[i + 1].ts - o.m[i].ts),
                     node(&o, o.m[i].dst));
            break;
        }
    }
    gen_free(&o);
}

TEST(test_maketrace_defines)
{
    static const char *text =
        "messages = 100\nlet N = B\ntracelet t from A weight=1 { call $N }\n"
        "tracelet u from A weight=1 { call C }\n";
    const char *d[] = {"messages=10", "N=Q", "u.weight=0"};
    gen_out o;
    pb_error e;
    CHECK_INT(gen_text(&o, text, d, 3, &e), PB_OK);
    CHECK_INT(o.n, 10);
    for (size_t i = 0; i < o.n; i++)
        CHECK(!strcmp(node(&o, o.m[i].dst), "Q") || !strcmp(node(&o, o.m[i].src), "Q"));
    gen_free(&o);
    const char *d2[] = {"t.instances=3", "t.think=1s"};
    CHECK_INT(gen_text(&o, text, d2, 2, &e), PB_OK);
    CHECK_INT(mt_config_tracelet_instances(o.cfg, 0), 3);
    pb_ns lo, hi;
    mt_config_tracelet_think(o.cfg, 0, &lo, &hi);
    CHECK_INT(lo, PB_NS_PER_SEC);
    gen_free(&o);
    /* sd settings reach every delay */
    const char *d3[] = {"delay_sd=0", "messages=200"};
    CHECK_INT(gen_text(&o, "call_delay = 10ms,3ms\nret_delay = 2ms,1ms\n"
                           "tracelet t from A instances=1 { call B }\n", d3, 2, &e), PB_OK);
    for (size_t i = 0; i + 1 < o.n; i += 2)
        CHECK_INT(o.m[i + 1].ts - o.m[i].ts, 2000000);
    gen_free(&o);
    /* the describe line names the overrides */
    CHECK_INT(gen_text(&o, text, d, 3, &e), PB_OK);
    pb_strbuf b = {0};
    mt_config_describe(o.cfg, &b);
    CHECK(strstr(pb_strbuf_str(&b), "messages=10 ") != NULL);
    CHECK(strstr(pb_strbuf_str(&b), "$N=Q") != NULL);
    CHECK(strstr(pb_strbuf_str(&b), "u.weight=0") != NULL);
    pb_strbuf_free(&b);
    gen_free(&o);
}

/* ------------------------------------------------------------------ */
/* Bad input: each gives the expected line and says what was expected. */

typedef struct bad {
    const char *text;
    const char *def;    /* one -D, or NULL */
    long line;          /* expected err.line (0: not located in the file) */
    const char *msg;    /* expected substring of err.msg */
} bad;

static const bad bads[] = {
    {"foo = 1\n", NULL, 1, "unknown setting \"foo\""},
    {"duration = abc\n", NULL, 1, "option duration: expected a duration"},
    {"messages = -3\n", NULL, 1, "option messages"},
    {"call_delay = 5ms,x\n", NULL, 1, "setting call_delay: expected a non-negative standard deviation"},
    {"ret_delay = ,\n", NULL, 1, "setting ret_delay: expected a delay MEAN"},
    {"think = 2s..1s\n", NULL, 1, "expected LO <= HI"},
    {"seed 5\n", NULL, 1, "expected \"=\" after \"seed\""},
    {"seed = 1 2\n", NULL, 1, "expected end of line after the setting's value"},
    {"seed =\n", NULL, 1, "expected a value after \"=\""},
    {"\n\nlet x = 1\nlet x = 2\n", NULL, 4, "variable \"x\" is defined twice"},
    {"let seed = 3\n", NULL, 1, "\"seed\" is a setting, not a variable"},
    {"let 9x = 3\n", NULL, 1, "expected a variable name"},
    {"messages = 5\ntracelet t from $X { call B }\n", NULL, 2, "undefined variable \"$X\""},
    {"let a = 1\nmessages = ${a\n", NULL, 2, "expected \"}\" to close \"${\""},
    {"messages = 5\ntracelet t { call B }\n", NULL, 2, "expected \"from NODE\""},
    {"messages = 5\ntracelet t from A { call B }\ntracelet t from A { call B }\n", NULL, 3,
     "tracelet \"t\" is defined twice"},
    {"messages = 5\ntracelet t from A\n{ call B }\n", NULL, 2, "expected \"{\" after the tracelet header"},
    {"messages = 5\ntracelet t from A {\n  call B {\n    call C\n", NULL, 5,
     "expected \"}\" to close the \"{\" of line 3"},
    {"messages = 5\ntracelet t from A {\n  jump B\n}\n", NULL, 3, "unknown statement \"jump\""},
    {"messages = 5\ntracelet t from A {\n  call\n}\n", NULL, 3, "expected a node"},
    {"messages = 5\ntracelet t from A {\n  call B:x\n}\n", NULL, 3, "expected a number from 0 to 1e15 as the weight"},
    {"messages = 5\ntracelet t from A {\n  call |B\n}\n", NULL, 3, "expected a node name"},
    {"messages = 5\ntracelet t from A {\n  call B:0|C:0\n}\n", NULL, 3, "expected at least one positive weight"},
    {"messages = 5\ntracelet t from A {\n  call B foo=1\n}\n", NULL, 3, "unknown attribute \"foo=1\""},
    {"messages = 5\ntracelet t from A {\n  send B ret=1ms\n}\n", NULL, 3, "unknown attribute \"ret=1ms\""},
    {"messages = 5\ntracelet t from A {\n  send B async\n}\n", NULL, 3, "unknown attribute \"async\""},
    {"messages = 5\ntracelet t from A {\n  call B async async\n}\n", NULL, 3, "\"async\" is given twice"},
    {"messages = 5\ntracelet t from A {\n  call B async\n  call C\n}\n", NULL, 2, "several roots"},
    {"messages = 5\nservice B workers=1\ntracelet t from A {\n  call B { call C async }\n}\n", NULL, 4,
     "not supported with services"},
    {"messages = 5\ntracelet t from A {\n  call B delay=-5ms\n}\n", NULL, 3, "expected a non-negative mean delay"},
    {"messages = 5\ntracelet t from A {\n  call B { par { } }\n}\n", NULL, 3, "par needs at least one branch"},
    {"messages = 5\ntracelet t from A {\n  call B { choose { x { call C } } }\n}\n", NULL, 3,
     "expected a branch weight"},
    {"messages = 5\ntracelet t from A {\n  call B { choose { 0 { call C } } }\n}\n", NULL, 3,
     "choose needs at least one branch with a positive weight"},
    {"messages = 5\ntracelet t from A {\n  call B { wait soon }\n}\n", NULL, 3, "expected a non-negative duration"},
    {"messages = 5\ntracelet t from A {\n  call B { wait 1s at B|C }\n}\n", NULL, 3,
     "expected a single node name"},
    {"messages = 5\ntracelet t from A {\n  call B call C\n}\n", NULL, 3, "unknown attribute \"call\""},
    {"messages = 5\ntracelet t from A {\n  call B } x\n", NULL, 3, "expected end of line after the tracelet"},
    {"messages = 5\ntracelet t from A {\n  send B\n  send C\n}\n", NULL, 2, "several roots"},
    {"messages = 5\ntracelet t from A {\n  par { call B; call C }\n}\n", NULL, 2, "several roots"},
    {"messages = 5\ntracelet t from A {\n  wait 1s\n}\n", NULL, 2, "sends no message"},
    {"messages = 5\ntracelet t from A weight=x { call B }\n", NULL, 2, "expected weight=W"},
    {"messages = 5\ntracelet t from A instances=0 { call B }\n", NULL, 2, "expected instances=N"},
    {"messages = 5\ntracelet t from A think=1s { call B }\n", NULL, 2, "think= needs instances="},
    {"messages = 5\ntracelet t from A color=red { call B }\n", NULL, 2, "unknown attribute \"color\""},
    {"messages = 5\ntracelet t from A interleave {\n p call A -> B\n}\n", NULL, 2, "expected no \"from\""},
    {"messages = 5\ntracelet t interleave {\n p send A -> B\n}\n", NULL, 3, "expected call, return or msg"},
    {"messages = 5\ntracelet t interleave {\n p call A B\n}\n", NULL, 3, "expected \"->\" between"},
    {"messages = 5\ntracelet t interleave {\n p call A ->\n}\n", NULL, 3, "expected a receiver node"},
    {"messages = 5\ntracelet t interleave {\n p msg A -> A\n}\n", NULL, 3, "other than the sender"},
    {"messages = 5\ntracelet t interleave {\n p call A -> B\n p return B -> C\n}\n", NULL, 4,
     "has no open call C -> B"},
    {"messages = 5\ntracelet t interleave {\n p call A -> B\n p return B -> A\n p return B -> A\n}\n",
     NULL, 5, "has no open call"},
    {"messages = 5\ntracelet t interleave {\n p call A -> B\n p msg B -> C\n}\n", NULL, 3, "has no return"},
    {"messages = 5\ntracelet t interleave {\n p msg A -> B\n p msg C -> D\n}\n", NULL, 4,
     "node C sends in path p before receiving anything in it"},
    {"messages = 5\ntracelet t interleave {\n}\n", NULL, 2, "has no messages"},
    {"messages = 5\n", NULL, 0, "no tracelet"},
    {"messages = 5\n{\n", NULL, 2, "expected a setting (name = value), let, label or tracelet"},
    {"messages = 5\ntracelet t from A weight=0 { call B }\n", NULL, 0, "every tracelet of the shared pool has weight 0"},
    {"messages = 5\ntracelet t from A { call B }\n", "nosuch=1", 0, "nosuch: no setting"},
    {"messages = 5\ntracelet t from A { call B }\n", "seed=abc", 0, "option seed: expected an integer"},
    {"messages = 5\ntracelet t from A { call B }\n", "t.instances=0", 0, "expected instances=N"},
    {"messages = 5\ntracelet t from A { call B }\n", "noeq", 0, "noeq: expected name=value"},
    {"messages = 5\ntracelet t from A { call B }\n", "think=1s..", 0, "setting think: expected a non-negative duration after"},
};

TEST(test_maketrace_bad_config)
{
    for (size_t i = 0; i < sizeof bads / sizeof *bads; i++) {
        mt_config *c = NULL;
        pb_error e;
        pb_error_clear(&e);
        const char *defs[1] = {bads[i].def};
        int rc = mt_config_parse(bads[i].text, strlen(bads[i].text), "bad.conf", defs,
                                 bads[i].def ? 1 : 0, &c, &e);
        if (rc == PB_OK) {
            PBT_FAIL("case %zu (%s) was accepted", i, bads[i].msg);
            mt_config_close(c);
            continue;
        }
        if (e.line != bads[i].line || !strstr(e.msg, bads[i].msg))
            PBT_FAIL("case %zu: got %s:%ld:%ld: %s; expected line %ld and \"%s\"", i, e.file, e.line,
                     e.column, e.msg, bads[i].line, bads[i].msg);
        if (bads[i].def ? strcmp(e.file, "-s") : strcmp(e.file, "bad.conf"))
            PBT_FAIL("case %zu: error names file \"%s\"", i, e.file);
    }
}

/* Issue 16.3: "let" expansion is capped, whatever the shape of the
 * doubling (two references, three, through ${}), with a located error. */
TEST(test_maketrace_let_expansion_capped)
{
    for (int sh = 0; sh < 3; sh++) {
        pb_strbuf b = {0};
        pb_strbuf_puts(&b, "let v0 = abcdefgh\n");
        for (int i = 1; i <= 41; i++) {
            char prev[16], line[96];
            snprintf(prev, sizeof prev, "v%d", i - 1);
            pb_strbuf_printf(&b, "let v%d = ", i);
            if (sh == 0)
                snprintf(line, sizeof line, "$%s$%s", prev, prev);
            else if (sh == 1)
                snprintf(line, sizeof line, "${%s}x${%s}", prev, prev);
            else
                snprintf(line, sizeof line, "$%s-$%s-$%s", prev, prev, prev);
            pb_strbuf_printf(&b, "%s\n", line);
        }
        pb_strbuf_puts(&b, "messages = 5\ntracelet t from A { call B }\n");
        mt_config *c = NULL;
        pb_error e;
        pb_error_clear(&e);
        int rc = mt_config_parse(pb_strbuf_str(&b), b.len, "bomb.conf", NULL, 0, &c, &e);
        CHECK_INT(rc, PB_EPARSE);
        if (rc == PB_OK)
            mt_config_close(c);
        CHECK(e.line > 1 && e.line < 20 && e.column > 0);
        CHECK(strstr(e.msg, "longer than 65536 bytes") != NULL);
        pb_strbuf_free(&b);
    }
    /* many modest values: the total is capped too */
    pb_strbuf b = {0};
    pb_strbuf_puts(&b, "let v0 = abcdefgh\n");
    for (int i = 1; i <= 12; i++)
        pb_strbuf_printf(&b, "let v%d = $v%d$v%d\n", i, i - 1, i - 1);
    for (int j = 0; j < 1000; j++)
        pb_strbuf_printf(&b, "let w%d = $v12\n", j);
    pb_strbuf_puts(&b, "messages = 5\ntracelet t from A { call B }\n");
    mt_config *c = NULL;
    pb_error e;
    int rc = mt_config_parse(pb_strbuf_str(&b), b.len, "many.conf", NULL, 0, &c, &e);
    CHECK_INT(rc, PB_EPARSE);
    if (rc == PB_OK)
        mt_config_close(c);
    CHECK(strstr(e.msg, "all expanded values together") != NULL);
    pb_strbuf_free(&b);
}

/* Issue 16.14: a long token is quoted short; the message ends with what
 * was expected. */
TEST(test_maketrace_long_token_quoted_short)
{
    pb_strbuf b = {0};
    pb_strbuf_puts(&b, "duration = ");
    for (int i = 0; i < 3000; i++)
        pb_strbuf_putc(&b, 'x');
    pb_strbuf_puts(&b, "\n");
    mt_config *c = NULL;
    pb_error e;
    int rc = mt_config_parse(pb_strbuf_str(&b), b.len, "long.conf", NULL, 0, &c, &e);
    CHECK(rc != PB_OK);
    if (rc == PB_OK)
        mt_config_close(c);
    CHECK(strlen(e.msg) < 300);
    CHECK(strstr(e.msg, "expected a duration") != NULL);
    CHECK(strstr(e.msg, "xxx...") != NULL);
    pb_strbuf_free(&b);
}

/* errors found when generation starts */
TEST(test_maketrace_bad_generation)
{
    static const struct {
        const char *text, *msg;
    } cases[] = {
        {"tracelet t from A { call B }\n", "no length limit"},
        {"duration = 1s\ncall_delay = 0\nret_delay = 0\ntracelet t from A { call B }\n", "takes no time"},
    };
    for (size_t i = 0; i < 2; i++) {
        gen_out o;
        pb_error e;
        pb_error_clear(&e);
        int rc = gen_text(&o, cases[i].text, NULL, 0, &e);
        if (rc == PB_OK || !strstr(e.msg, cases[i].msg))
            PBT_FAIL("case %zu: rc %d, message \"%s\", expected \"%s\"", i, rc, e.msg, cases[i].msg);
        gen_free(&o);
    }
    /* the column points into the line */
    mt_config *c = NULL;
    pb_error e;
    const char *t = "messages = 5\ntracelet t from A {\n  call B delay=x\n}\n";
    CHECK(mt_config_parse(t, strlen(t), "x.conf", NULL, 0, &c, &e) != PB_OK);
    CHECK_INT(e.line, 3);
    CHECK_INT(e.column, 10);
    /* NUL byte */
    const char nul[] = "seed = 1\n\0\n";
    CHECK(mt_config_parse(nul, sizeof nul - 1, "x.conf", NULL, 0, &c, &e) != PB_OK);
    CHECK_INT(e.line, 2);
    CHECK(strstr(e.msg, "NUL") != NULL);
    /* a missing file */
    CHECK_INT(mt_config_load("/nonexistent/x.conf", NULL, 0, &c, &e), PB_EIO);
    CHECK(strstr(e.msg, "cannot open config") != NULL);
}

/* p of the nesting algorithm: one instance nests exactly one open call
 * under each nested call; two overlapping paths give 2 at times. */
TEST(test_maketrace_parallelism)
{
    gen_out o;
    pb_error e;
    uint64_t nc;
    CHECK_INT(gen_text(&o, "messages = 600\ntracelet t from A instances=1 { call B { call C; call D } }\n",
                       NULL, 0, &e), PB_OK);
    CHECK_NEAR(mt_gen_parallelism(o.g, &nc), 1.0, 1e-12);
    CHECK_INT(nc, 200);
    gen_free(&o);
    CHECK_INT(gen_text(&o, "messages = 600\nnet_delay = 0\n"
                           "tracelet t interleave instances=1 think=1s {\n"
                           "  p call A -> B\n  q call A -> B\n  p call B -> C\n  p return C -> B\n"
                           "  p return B -> A\n  q call B -> D\n  q return D -> B\n  q return B -> A\n}\n",
                       NULL, 0, &e), PB_OK);
    /* B -> C sees two open calls into B, B -> D one */
    CHECK_NEAR(mt_gen_parallelism(o.g, &nc), 1.5, 1e-12);
    gen_free(&o);
    /* more instances, more parallelism */
    double p1, p2;
    CHECK_INT(gen_text(&o, "messages = 20000\ninstances = 2\ntracelet t from A { call B { call C } }\n",
                       NULL, 0, &e), PB_OK);
    p1 = mt_gen_parallelism(o.g, NULL);
    gen_free(&o);
    CHECK_INT(gen_text(&o, "messages = 20000\ninstances = 20\ntracelet t from A { call B { call C } }\n",
                       NULL, 0, &e), PB_OK);
    p2 = mt_gen_parallelism(o.g, NULL);
    gen_free(&o);
    CHECK(p1 > 1.0 && p2 > 5 * (p1 - 1) + 1);
}

/* A long stream with many instances stays in ts order and stops at the
 * message limit (memory is measured by the benchmark, not here). */
TEST(test_maketrace_streaming)
{
    pb_names *names;
    mt_config *c;
    mt_gen *g;
    pb_error e;
    const char *t = "messages = 1000000\ninstances = 50\nthink = 0..10ms\n"
                    "tracelet t from A { call B { call C; call D } }\n";
    CHECK_INT(pb_names_init(&names), PB_OK);
    CHECK_INT(mt_config_parse(t, strlen(t), "s.conf", NULL, 0, &c, &e), PB_OK);
    CHECK_INT(mt_gen_init(&g, c, names, &e), PB_OK);
    pb_msg m;
    pb_truth tr;
    size_t n = 0;
    pb_ns last = 0;
    int ok = 1;
    while (mt_gen_next(g, &m, &tr) == 1) {
        ok &= m.ts >= last;
        last = m.ts;
        n++;
    }
    CHECK(ok);
    CHECK(n > 999990 && n <= 1000000);
    mt_gen_close(g);
    mt_config_close(c);
    pb_names_close(names);
}

int main(void)
{
    RUN(test_maketrace_shipped_properties);
    RUN(test_maketrace_shipped_weights);
    RUN(test_maketrace_shipped_instances_think);
    RUN(test_maketrace_multitier_size);
    RUN(test_maketrace_added_delay);
    RUN(test_maketrace_pathological_overlap);
    RUN(test_maketrace_seed);
    RUN(test_maketrace_think_time);
    RUN(test_maketrace_instances);
    RUN(test_maketrace_limits);
    RUN(test_maketrace_huge_times);
    RUN(test_maketrace_net_delay);
    RUN(test_maketrace_interleave);
    RUN(test_maketrace_async);
    RUN(test_maketrace_constructs);
    RUN(test_maketrace_defines);
    RUN(test_maketrace_bad_config);
    RUN(test_maketrace_let_expansion_capped);
    RUN(test_maketrace_long_token_quoted_short);
    RUN(test_maketrace_bad_generation);
    RUN(test_maketrace_parallelism);
    RUN(test_maketrace_streaming);
    return pbtest_exit();
}
