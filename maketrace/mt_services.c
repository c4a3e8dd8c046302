/*
 * mt_services.c - the maketrace config language: service and link
 * statements (execution and connection models), their checks once the
 * whole config is read (models per node, held locks without cycles).
 * Split from mt_config.c along its sections; the language is documented
 * for users in docs/maketrace.md.
 */
#include "mt_label.h"
#include "pb_files.h"
#include "pb_opt.h"
#include "mt_parse.h"
#include "mt_u64map.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Services: service NODE workers=K */

static mt_service *find_service(mt_config *c, uint32_t node)
{
    for (size_t i = 0; i < c->nsvc; i++)
        if (c->svc[i].node == node)
            return &c->svc[i];
    return NULL;
}

static int add_service(parser *p, uint32_t node, int workers, long line, long col)
{
    mt_config *c = p->c;
    if (c->nsvc == c->svccap) {
        size_t cap = c->svccap ? 2 * c->svccap : 8;
        mt_service *ns = realloc(c->svc, cap * sizeof *ns);
        if (!ns)
            return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
        c->svc = ns;
        c->svccap = cap;
    }
    mt_service *s = &c->svc[c->nsvc++];
    s->node = node;
    s->workers = workers;
    s->line = line;
    s->col = col;
    return PB_OK;
}

static int exec_model(const char *v)
{
    if (!strcmp(v, "pool"))
        return MT_EXEC_POOL;
    if (!strcmp(v, "dispatcher"))
        return MT_EXEC_DISPATCHER;
    if (!strcmp(v, "event"))
        return MT_EXEC_EVENT;
    if (!strcmp(v, "seda"))
        return MT_EXEC_SEDA;
    return 0;
}

static int conn_model(const char *v)
{
    if (!strcmp(v, "new"))
        return MT_CONN_NEW;
    if (!strcmp(v, "pool"))
        return MT_CONN_POOL;
    if (!strcmp(v, "pipelined"))
        return MT_CONN_PIPELINED;
    if (!strcmp(v, "multiplexed"))
        return MT_CONN_MUX;
    return 0;
}

const char *const mt_exec_names[] = {"", "pool", "dispatcher", "event", "seda"};
const char *const mt_conn_names[] = {"", "new", "pool", "pipelined", "multiplexed"};

/* One service attribute NAME=VALUE (from the file or from -s
 * NODE.NAME=VALUE) into sv.  Returns PB_OK, or PB_EINVAL with why filled
 * (what was expected). */
static int service_attr(mt_service *sv, const char *name, const char *v, char *why, size_t nwhy)
{
    double d;
    if (!strcmp(name, "workers")) {
        if (mt_parse_count(v, &sv->workers) != PB_OK)
            goto count;
    } else if (!strcmp(name, "model")) {
        if (!(sv->model = exec_model(v))) {
            snprintf(why, nwhy, "model=pool, dispatcher, event or seda, got \"%s\"", v);
            return PB_EINVAL;
        }
    } else if (!strcmp(name, "threads")) {
        if (mt_parse_count(v, &sv->threads) != PB_OK)
            goto count;
    } else if (!strcmp(name, "batch")) {
        if (mt_parse_count(v, &sv->batch) != PB_OK)
            goto count;
    } else if (!strcmp(name, "stages")) {
        if (mt_parse_count(v, &sv->stages) != PB_OK || sv->stages > 1000) {
            /* (it said "in 1..1000000" of a number past 1000) */
            snprintf(why, nwhy, "stages=K with K an integer in 1..1000, got \"%s\"%s", v,
                     pb_integer_hint(v));
            return PB_EINVAL;
        }
    } else if (!strcmp(name, "handoff")) {
        /* decimal only, an underflow is 0 (pb_number_parse) */
        if (pb_number_parse(v, strlen(v), &d) != PB_OK || !(d >= 0 && d <= 1)) {
            snprintf(why, nwhy, "handoff=P with P a probability in 0..1, got \"%s\"", v);
            return PB_EINVAL;
        }
        sv->handoff = d;
    } else if (!strcmp(name, "read_cost")) {
        if (pb_duration_parse(v, &sv->read_cost) != PB_OK || sv->read_cost < 0) {
            snprintf(why, nwhy, "read_cost=DURATION (e.g. 50us), got \"%s\"%s", v,
                     pb_duration_hint(v));
            return PB_EINVAL;
        }
    } else if (!strcmp(name, "slow")) {
        /* decimal only, an underflow is 0 (pb_number_parse) */
        if (pb_number_parse(v, strlen(v), &d) != PB_OK || !(d >= 0 && d <= 3)) {
            snprintf(why, nwhy, "slow=S with S the SD of the log slowdown in 0..3, got \"%s\"",
                     v);
            return PB_EINVAL;
        }
        sv->slow = d;
    } else {
        snprintf(why, nwhy, "workers=K, model=M, threads=T, handoff=P, batch=B, stages=S, "
                 "read_cost=D or slow=S, got \"%s\"", name);
        return PB_EINVAL;
    }
    return PB_OK;
count:
    snprintf(why, nwhy, "%s=K with K an integer in 1..1000000, got \"%s\"%s", name, v,
             pb_integer_hint(v));
    return PB_EINVAL;
}

int mt_cfg_parse_service(parser *p)
{
    tok *kw = next(p);
    char b[64];
    tok *nk = peek(p);
    if (nk->kind != T_WORD)
        return PERR(p, nk, "expected a node name after \"service\", got %s",
                    mt_tok_desc(nk, b, sizeof b));
    next(p);
    char *v;
    mt_nodes nd;
    int rc;
    if ((rc = mt_expand(p, nk, &v)) != PB_OK || (rc = mt_parse_nodes(p, nk, v, &nd, 0)) != PB_OK)
        return rc;
    mt_service *prev = find_service(p->c, nd.node[0]);
    if (prev)
        return PERR(p, nk, "service %s is declared twice (first at line %ld); expected one "
                    "service line per node", v, prev->line);
    mt_service sv = {0};
    sv.handoff = -1;
    sv.read_cost = -1;
    sv.slow = -1;
    char why[256];
    while (peek(p)->kind == T_WORD) {
        tok *a = next(p);
        char *av;
        if ((rc = mt_expand(p, a, &av)) != PB_OK)
            return rc;
        char *eq = strchr(av, '=');
        if (!eq)
            return PERR(p, a, "service %s: unknown attribute \"%s\"; expected workers=K, "
                        "model=M, threads=T, handoff=P, batch=B, stages=S, read_cost=D or slow=S",
                        v, av);
        *eq = '\0';
        if (service_attr(&sv, av, eq + 1, why, sizeof why) != PB_OK)
            return PERR(p, a, "service %s: expected %s", v, why);
    }
    static const char *const fields[] = {"workers", "model", "threads", "handoff",
                                         "batch", "stages", "read_cost", "slow"};
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
        char dn[300];
        snprintf(dn, sizeof dn, "%s.%s", v, fields[i]);
        mt_def *d = mt_find_def(p, dn);
        if (d && service_attr(&sv, fields[i], d->value, why, sizeof why) != PB_OK)
            return pb_error_set(p->err, PB_EINVAL, "-s", 0, 0, "%s=%s: expected %s", dn,
                                d->value, why);
    }
    if (!sv.workers && !sv.model && sv.slow < 0)
        return PERR(p, kw, "service %s: expected workers=K (how many calls it serves at once), "
                    "model=M (pool, dispatcher, event, seda) or slow=S", v);
    if (sv.workers && (sv.model == MT_EXEC_EVENT || sv.model == MT_EXEC_SEDA))
        return PERR(p, kw, "service %s: workers=K bounds a pool or a dispatcher's workers; "
                    "expected threads=T for model=%s", v, mt_exec_names[sv.model]);
    if ((rc = add_service(p, nd.node[0], sv.workers, kw->line, kw->col)) != PB_OK)
        return rc;
    mt_service *s = &p->c->svc[p->c->nsvc - 1];
    *s = sv;
    s->node = nd.node[0];
    s->line = kw->line;
    s->col = kw->col;
    return mt_expect_eol(p, "the service's attributes");
}

/* link SRC -> DST conn=M [conns=K] */
int mt_cfg_parse_link(parser *p)
{
    tok *kw = next(p);
    tok *w[3];
    char b[64];
    for (int j = 0; j < 3; j++) {
        w[j] = peek(p);
        if (w[j]->kind != T_WORD || (j == 1 && !is_word(w[j], "->")))
            return PERR(p, w[j], "expected link SRC -> DST conn=MODEL [conns=K], got %s",
                        mt_tok_desc(w[j], b, sizeof b));
        next(p);
    }
    mt_link lk = {0};
    lk.line = kw->line;
    int rc;
    for (int j = 0; j < 3; j += 2) {
        char *v;
        mt_nodes nd;
        if ((rc = mt_expand(p, w[j], &v)) != PB_OK ||
            (rc = mt_parse_nodes(p, w[j], v, &nd, 0)) != PB_OK)
            return rc;
        if (nd.n != 1)
            return PERR(p, w[j], "link: expected one node name, got \"%s\"", v);
        if (j == 0)
            lk.src = nd.node[0];
        else
            lk.dst = nd.node[0];
    }
    while (peek(p)->kind == T_WORD) {
        tok *a = next(p);
        char *av;
        if ((rc = mt_expand(p, a, &av)) != PB_OK)
            return rc;
        if (!strncmp(av, "conn=", 5)) {
            if (!(lk.model = conn_model(av + 5)))
                return PERR(p, a, "link: expected conn=new, pool, pipelined or multiplexed, "
                            "got \"%s\"", av);
        } else if (!strncmp(av, "conns=", 6)) {
            if (mt_parse_count(av + 6, &lk.conns) != PB_OK)
                return PERR(p, a, "link: expected conns=K with K an integer in 1..1000000, "
                            "got \"%s\"%s", av, pb_integer_hint(av + 6));
        } else {
            return PERR(p, a, "link: unknown attribute \"%s\"; expected conn=MODEL or conns=K",
                        av);
        }
    }
    if (!lk.model)
        return PERR(p, kw, "link: expected conn=new, pool, pipelined or multiplexed");
    mt_config *c = p->c;
    /* hashed: a scan of the links before was quadratic in link lines */
    int added;
    uint32_t li = mt_u64map_put(&c->linkmap, (uint64_t)lk.src << 32 | lk.dst,
                                (uint32_t)c->nlinks, &added);
    if (li == UINT32_MAX)
        return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
    if (!added)
        return PERR(p, kw, "link %s -> %s is declared twice (first at line %ld)",
                    pb_strtab_str(c->nodes, lk.src), pb_strtab_str(c->nodes, lk.dst),
                    c->links[li].line);
    if (c->nlinks == c->linkcap) {
        size_t cap = c->linkcap ? 2 * c->linkcap : 8;
        mt_link *nl = realloc(c->links, cap * sizeof *nl);
        if (!nl)
            return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
        c->links = nl;
        c->linkcap = cap;
    }
    c->links[c->nlinks++] = lk;
    return mt_expect_eol(p, "the link's attributes");
}

/* The per-node execution models and per-pair connection models, when the
 * config uses any (else nothing changes: byte-identical output). */
int mt_cfg_finish_models(parser *p)
{
    mt_config *c = p->c;
    const mt_settings *st = &c->s;
    int gexec = 0, gconn = 0;
    if (st->exec && *st->exec && !(gexec = exec_model(st->exec)))
        return pb_error_set(p->err, PB_EINVAL, c->file, 0, 0, "exec = %s: expected pool, "
                            "dispatcher, event or seda", st->exec);
    if (st->conn && *st->conn && !(gconn = conn_model(st->conn)))
        return pb_error_set(p->err, PB_EINVAL, c->file, 0, 0, "conn = %s: expected new, pool, "
                            "pipelined or multiplexed", st->conn);
    int any = st->observed || gexec || gconn || st->handoff > 0 || st->threads != 1 ||
              st->batch != 1 || st->stages != 2 || st->read_cost != 0 || st->conns != 1 ||
              c->nlinks > 0;
    for (size_t i = 0; i < c->nsvc; i++) {
        const mt_service *sv = &c->svc[i];
        if (sv->model || sv->threads || sv->batch || sv->stages || sv->handoff >= 0 ||
            sv->read_cost >= 0)
            any = 1;
    }
    if (!any)
        return PB_OK;
    c->models = 1;
    c->event_engine = 1;
    size_t n = pb_strtab_count(c->nodes);
    c->exec = mt_aalloc(c, (n ? n : 1) * sizeof *c->exec);
    if (!c->exec)
        return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
    for (size_t x = 0; x < n; x++) {
        mt_exec *e = &c->exec[x];
        const mt_service *sv = find_service(c, (uint32_t)x);
        e->model = sv && sv->model ? sv->model : gexec ? gexec : MT_EXEC_POOL;
        e->threads = sv && sv->threads ? sv->threads : st->threads;
        e->batch = sv && sv->batch ? sv->batch : st->batch;
        e->stages = sv && sv->stages ? sv->stages : st->stages;
        e->handoff = sv && sv->handoff >= 0 ? sv->handoff : st->handoff;
        e->read_cost = sv && sv->read_cost >= 0 ? sv->read_cost : st->read_cost;
        if (e->batch > 1 && e->handoff > 0 && e->model == MT_EXEC_POOL)
            return mt_perr_at(p, sv ? sv->line : 0, sv ? sv->col : 0, "node %s: batch=%d with "
                              "handoff=%g; expected one of them (a batch is served by the "
                              "worker that read it)", pb_strtab_str(c->nodes, (uint32_t)x),
                              e->batch, e->handoff);
        if (sv && sv->workers && (e->model == MT_EXEC_EVENT || e->model == MT_EXEC_SEDA))
            return mt_perr_at(p, sv->line, sv->col, "service %s: workers=K bounds a pool or a "
                              "dispatcher's workers; expected threads=T for model=%s",
                              pb_strtab_str(c->nodes, (uint32_t)x), mt_exec_names[e->model]);
    }
    /* pairs without a link line: the settings (mt_conn_of; it was an
     * n x n table: 8,000 nodes took 500 MB) */
    c->conn_model_dflt = gconn ? gconn : MT_CONN_NEW;
    c->conn_count_dflt = st->conns;
    return PB_OK;
}

int mt_config_observed(const mt_config *c) { return c->models; }

/* The walk of the worker-cycle check (hostile round 18): the held set had
 * a copy of the block walked per bounded callee of a node choice, so
 * nested choices walked it 2^depth times (28 nested "call A|B" took 3.4 s,
 * 40 hours), and the edges were an n x n matrix searched once per service
 * (cubic in the config's nodes).  Now a choice's block is walked once
 * holding every bounded callee of the choice (the edges from each held
 * node do not depend on the others held, so the edge set is the union of
 * the per-callee walks, the same), the edges are a hashed list, and the
 * cycles are Tarjan's strongly connected components: linear. */
typedef struct hwalk {
    const mt_config *c;
    uint32_t *held, nheld;
    unsigned char *inheld;  /* per node: in held */
    mt_u64map edges;        /* u << 32 | v -> edge index */
    uint64_t *ev;
    size_t ne, ecap;
    int oom;
} hwalk;

static void add_edge(hwalk *w, uint32_t u, uint32_t v)
{
    int added;
    uint64_t key = (uint64_t)u << 32 | v;
    if (mt_u64map_put(&w->edges, key, (uint32_t)w->ne, &added) == UINT32_MAX) {
        w->oom = 1;
        return;
    }
    if (!added)
        return;
    if (w->ne == w->ecap) {
        size_t nc = w->ecap ? 2 * w->ecap : 64;
        uint64_t *x = realloc(w->ev, nc * sizeof *x);
        if (!x) {
            w->oom = 1;
            return;
        }
        w->ev = x;
        w->ecap = nc;
    }
    w->ev[w->ne++] = key;
}

/* Walk a tracelet's calls holding the bounded services whose worker the
 * path holds (a worker is held from the start of a call's block until its
 * return is sent); record held -> called edges. */
static void hold_walk(hwalk *w, const mt_op *op)
{
    const mt_config *c = w->c;
    uint32_t pushed = 0;
    if (op->kind == MT_OP_CALL) {
        for (uint32_t k = 0; k < op->to.n; k++) {
            uint32_t y = op->to.node[k];
            if (!c->workers[y])
                continue;
            for (uint32_t h = 0; h < w->nheld; h++)
                add_edge(w, w->held[h], y);
        }
        for (uint32_t k = 0; k < op->to.n; k++) {
            uint32_t y = op->to.node[k];
            if (c->workers[y] && !w->inheld[y]) {
                w->inheld[y] = 1;
                w->held[w->nheld++] = y;
                pushed++;
            }
        }
    }
    for (uint32_t i = 0; i < op->nkids && !w->oom; i++)
        hold_walk(w, op->kids[i]);
    while (pushed--)
        w->inheld[w->held[--w->nheld]] = 0;
}

/* oncyc[x] = 1 when node x reaches itself through the edges (Tarjan's
 * components, iterative).  PB_OK or PB_ENOMEM. */
static int cycle_nodes(const hwalk *w, size_t n, unsigned char *oncyc)
{
    size_t *off = calloc(n + 1, sizeof *off);
    uint32_t *adj = malloc((w->ne ? w->ne : 1) * sizeof *adj);
    uint32_t *idx = malloc((n ? n : 1) * sizeof *idx), *low = malloc((n ? n : 1) * sizeof *low);
    uint32_t *stk = malloc((n ? n : 1) * sizeof *stk), *cs = malloc((n ? n : 1) * sizeof *cs);
    size_t *it = malloc((n ? n : 1) * sizeof *it);
    unsigned char *on = calloc(n ? n : 1, 1);
    int rc = PB_OK;
    if (!off || !adj || !idx || !low || !stk || !cs || !it || !on) {
        rc = PB_ENOMEM;
        goto out;
    }
    for (size_t e = 0; e < w->ne; e++)
        off[(w->ev[e] >> 32) + 1]++;
    for (size_t x = 0; x < n; x++)
        off[x + 1] += off[x];
    for (size_t x = 0; x < n; x++)
        it[x] = off[x];
    for (size_t e = 0; e < w->ne; e++)
        adj[it[w->ev[e] >> 32]++] = (uint32_t)w->ev[e];
    for (size_t x = 0; x < n; x++) {
        idx[x] = UINT32_MAX;
        oncyc[x] = 0;
    }
    for (size_t e = 0; e < w->ne; e++)
        if ((w->ev[e] >> 32) == (uint32_t)w->ev[e])
            oncyc[w->ev[e] >> 32] = 1; /* a self loop */
    uint32_t counter = 0;
    size_t sp = 0, cp = 0;
    for (size_t r = 0; r < n; r++) {
        if (idx[r] != UINT32_MAX || off[r] == off[r + 1])
            continue;
        cs[cp++] = (uint32_t)r;
        idx[r] = low[r] = counter++;
        it[r] = off[r];
        stk[sp++] = (uint32_t)r;
        on[r] = 1;
        while (cp) {
            uint32_t u = cs[cp - 1];
            if (it[u] < off[u + 1]) {
                uint32_t v = adj[it[u]++];
                if (idx[v] == UINT32_MAX) {
                    idx[v] = low[v] = counter++;
                    it[v] = off[v];
                    stk[sp++] = v;
                    on[v] = 1;
                    cs[cp++] = v;
                } else if (on[v] && idx[v] < low[u]) {
                    low[u] = idx[v];
                }
                continue;
            }
            cp--;
            if (cp && low[u] < low[cs[cp - 1]])
                low[cs[cp - 1]] = low[u];
            if (low[u] == idx[u]) {
                size_t top = sp;
                do
                    on[stk[--sp]] = 0;
                while (stk[sp] != u);
                if (top - sp > 1)
                    for (size_t q = sp; q < top; q++)
                        oncyc[stk[q]] = 1;
            }
        }
    }
out:
    free(off);
    free(adj);
    free(idx);
    free(low);
    free(stk);
    free(cs);
    free(it);
    free(on);
    return rc;
}

/* The per-node worker table, and the check that no path can wait for a
 * worker that it (or another path waiting on it) holds. */
int mt_cfg_finish_services(parser *p)
{
    mt_config *c = p->c;
    if (!c->nsvc)
        return PB_OK;
    c->event_engine = 1;
    size_t n = pb_strtab_count(c->nodes);
    c->workers = mt_aalloc(c, n * sizeof *c->workers);
    hwalk w = {0};
    w.c = c;
    unsigned char *oncyc = NULL;
    w.held = malloc((n + 1) * sizeof *w.held);
    w.inheld = calloc(n + 1, 1);
    int rc = PB_OK;
    if (!c->workers || !w.held || !w.inheld) {
        rc = pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < c->nsvc; i++)
        c->workers[c->svc[i].node] = c->svc[i].workers;
    for (size_t i = 0; i < c->nsvc; i++)
        if (c->svc[i].slow > 0 && !c->slow) {
            /* only when some service has a slowdown: every other config
             * draws exactly the numbers it drew before */
            c->slow = mt_aalloc(c, n * sizeof *c->slow);
            if (!c->slow) {
                rc = pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
                goto out;
            }
            for (size_t x = 0; x < n; x++)
                c->slow[x] = 0;
        }
    if (c->slow)
        for (size_t i = 0; i < c->nsvc; i++)
            c->slow[c->svc[i].node] = c->svc[i].slow > 0 ? c->svc[i].slow : 0;
    int bounded = 0;
    for (size_t i = 0; i < c->nsvc; i++)
        bounded |= c->svc[i].workers > 0;
    if (!bounded)
        goto out; /* only models: no queue for a worker */
    for (size_t i = 0; i < c->ntr && !w.oom; i++)
        if (!c->tr[i].interleave)
            hold_walk(&w, c->tr[i].body);
    if (w.oom || !(oncyc = malloc(n ? n : 1)) || cycle_nodes(&w, n, oncyc) != PB_OK) {
        rc = pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < c->nsvc; i++) {
        uint32_t x = c->svc[i].node;
        if (oncyc[x]) {
            rc = mt_perr_at(p, c->svc[i].line, c->svc[i].col,
                            "service %s (workers=%d): a path holding one of its workers can "
                            "call it again, directly or through other services with workers, "
                            "so the calls could wait for each other forever; expected no "
                            "cycle of calls through services with workers",
                            pb_strtab_str(c->nodes, x), c->svc[i].workers);
            goto out;
        }
    }
out:
    free(w.held);
    free(w.inheld);
    free(w.ev);
    mt_u64map_free(&w.edges);
    free(oncyc);
    return rc;
}

