/* Pivot Tracing queries (metrics/pq.h): hand-worked answers, the
 * happened-before join (First against MostRecent, parallel branches),
 * parent links against the approximation, Table 3's selection push, and
 * errors that name the column of the query text. */
#include "pbtest.h"
#include "pq.h"
#include "score.h"

#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <string.h>

typedef struct fixture {
    pb_trace *t;
    uint64_t *req;
    int64_t *par;
} fixture;

static size_t idx_of(const pb_trace *t, uint64_t id)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->msgs[i].id == id)
            return i;
    return SIZE_MAX;
}

/* request and parent arrays from the truth columns */
static void from_truth(fixture *f)
{
    f->req = malloc(f->t->n * sizeof *f->req);
    f->par = malloc(f->t->n * sizeof *f->par);
    for (size_t i = 0; i < f->t->n; i++) {
        f->req[i] = f->t->truth[i].path;
        f->par[i] = f->t->truth[i].cause == PB_ID_NONE
                        ? -1
                        : (int64_t)idx_of(f->t, f->t->truth[i].cause);
    }
}

static void fixture_free(fixture *f)
{
    pb_trace_close(f->t);
    free(f->req);
    free(f->par);
}

/* one read: client -> FE -> DN and back; size on the FE -> DN call */
static void add_read(pb_trace *t, uint64_t *id, double t0, const char *client,
                     uint64_t path, uint32_t size)
{
    uint64_t a = ++*id, b = ++*id, c = ++*id, d = ++*id;
    pb_ns s = (pb_ns)(t0 * 1e9);
    pb_trace_add(t, a, s, s + 1000, client, "FE", PB_TYPE_CALL, a, path, PB_ID_NONE);
    pb_trace_add(t, b, s + 2000, s + 3000, "FE", "DN", PB_TYPE_CALL, b, path, a);
    pb_trace_obs(t)[t->n - 1].size = size;
    pb_trace_add(t, c, s + 4000, s + 5000, "DN", "FE", PB_TYPE_RETURN, b, path, b);
    pb_trace_add(t, d, s + 6000, s + 7000, "FE", client, PB_TYPE_RETURN, a, path, c);
}

static pq_answer *eval(const char *text, fixture *f, int with_parent)
{
    pq_query *q;
    pb_error err;
    if (pq_parse(text, "query", 1, &q, &err) != PB_OK) {
        printf("parse error: %s:%ld:%ld: %s\n", err.file, err.line, err.column, err.msg);
        return NULL;
    }
    pq_causal c = {f->req, with_parent ? f->par : NULL, NULL, NULL};
    pq_answer *a = NULL;
    if (pq_eval(q, f->t, &c, &a, &err) != PB_OK)
        printf("eval error: %s\n", err.msg);
    pq_close(q);
    return a;
}

static const char q_bytes[] =
    "From r In Recv[host=DN, type=call]\n"
    "Join c In First(Send) On c -> r\n"
    "GroupBy c.host\n"
    "Select c.host, SUM(r.size)";

/* two clients, reads of 4, 64 and 4 MB: sums per client by hand; a result
 * that moves C1's second read to C2 has TV 4/72, largest relative error
 * 0.5 (C1: 8 -> 4), the same top group (C2) */
TEST(bytes_per_client)
{
    fixture f = {0};
    pb_trace_new(&f.t);
    pb_trace *t = f.t;
    uint64_t id = 0;
    add_read(t, &id, 1.0, "C1", 1, 4000000);
    add_read(t, &id, 2.0, "C2", 2, 64000000);
    add_read(t, &id, 3.0, "C1", 3, 4000000);
    from_truth(&f);
    pq_answer *a = eval(q_bytes, &f, 1);
    CHECK(a != NULL);
    if (!a)
        return;
    CHECK_INT(a->ngroups, 2);
    CHECK_STR(a->keys[0], "C1");
    CHECK_STR(a->keys[1], "C2");
    CHECK(a->vals[0] == 8000000);
    CHECK(a->vals[1] == 64000000);
    CHECK_STR(a->colnames[1], "SUM(r.size)");
    /* the result: message 10 (C1's third read, FE -> DN) gets the parent
     * of C2's request (message 5) and its request */
    fixture g = f;
    g.req = malloc(t->n * sizeof *g.req);
    g.par = malloc(t->n * sizeof *g.par);
    memcpy(g.req, f.req, t->n * sizeof *g.req);
    memcpy(g.par, f.par, t->n * sizeof *g.par);
    size_t m10 = idx_of(t, 10), m5 = idx_of(t, 5);
    g.par[m10] = (int64_t)m5;
    g.req[m10] = 2;
    pq_answer *b = eval(q_bytes, &g, 1);
    CHECK(b != NULL);
    if (b) {
        CHECK(b->vals[0] == 4000000);
        CHECK(b->vals[1] == 68000000);
        pq_diff d;
        pq_compare(a, b, &d);
        CHECK_NEAR(d.tv, 4.0 / 72.0, 1e-12);
        CHECK_NEAR(d.max_rel, 0.5, 1e-12);
        CHECK_INT(d.top_same, 1);
        pq_compare(a, a, &d);
        CHECK_NEAR(d.tv, 0, 0);
        CHECK_NEAR(d.max_rel, 0, 0);
    }
    /* without parent links the approximation gives the truth's answer on
     * the truth (no parallel calls here) */
    pq_answer *c = eval(q_bytes, &f, 0);
    CHECK(c && c->ngroups == 2 && c->vals[0] == 8000000 && c->vals[1] == 64000000);
    pq_answer_close(a);
    pq_answer_close(b);
    pq_answer_close(c);
    free(g.req);
    free(g.par);
    fixture_free(&f);
}

/* one chain A1 -> A2 -> B: A sends to X, X answers A, A sends to B.
 * First(Send[host=A]) before B's receipt is the first send (id 1),
 * MostRecent the last (id 3, the send of B's own message); FirstN 2 and
 * MostRecentN 2 take both ends. */
TEST(first_and_most_recent)
{
    fixture f = {0};
    pb_trace_new(&f.t);
    pb_trace *t = f.t;
    pb_trace_add(t, 1, 1000, 2000, "A", "X", PB_TYPE_MSG, PB_ID_NONE, 1, PB_ID_NONE);
    pb_trace_add(t, 2, 3000, 4000, "X", "A", PB_TYPE_MSG, PB_ID_NONE, 1, 1);
    pb_trace_add(t, 3, 5000, 6000, "A", "B", PB_TYPE_MSG, PB_ID_NONE, 1, 2);
    from_truth(&f);
    pq_answer *a = eval("From b In Recv[host=B] Join a In First(Send[host=A]) "
                        "On a -> b Select a.id", &f, 1);
    CHECK(a && a->ngroups == 1 && !strcmp(a->keys[0], "1") && a->vals[0] == 1);
    pq_answer_close(a);
    a = eval("From b In Recv[host=B] Join a In MostRecent(Send[host=A]) "
             "On a -> b Select a.id", &f, 1);
    CHECK(a && a->ngroups == 1 && !strcmp(a->keys[0], "3"));
    pq_answer_close(a);
    a = eval("From b In Recv[host=B] Join a In Send[host=A] On a -> b "
             "Select a.id", &f, 1);
    CHECK(a && a->ngroups == 2);
    pq_answer_close(a);
    a = eval("From b In Recv[host=B] Join a In MostRecentN(Send, 2) On a -> b "
             "Select a.id", &f, 1);
    CHECK(a && a->ngroups == 2 && !strcmp(a->keys[0], "2") && !strcmp(a->keys[1], "3"));
    pq_answer_close(a);
    a = eval("From b In Recv[host=B] Join a In FirstN(Send, 2) On a -> b "
             "Select a.id", &f, 1);
    CHECK(a && a->ngroups == 2 && !strcmp(a->keys[0], "1") && !strcmp(a->keys[1], "2"));
    pq_answer_close(a);
    /* chained joins: B's receipt, then X's receipt before it, then A's
     * first send before that */
    a = eval("From b In Recv[host=B] Join x In Recv[host=X] On x -> b "
             "Join a In First(Send) On a -> x Select a.host, x.peer, Count", &f, 1);
    CHECK(a && a->ngroups == 1 && !strcmp(a->keys[0], "A") && a->vals[0] == 1);
    pq_answer_close(a);
    fixture_free(&f);
}

/* parallel branches: B calls C and D; nothing at C happened before D */
TEST(parallel_branches_not_joined)
{
    fixture f = {0};
    pb_trace_new(&f.t);
    pb_trace *t = f.t;
    pb_trace_add(t, 1, 1000, 2000, "A", "B", PB_TYPE_CALL, 1, 1, PB_ID_NONE);
    pb_trace_add(t, 2, 3000, 4000, "B", "C", PB_TYPE_CALL, 2, 1, 1);
    pb_trace_add(t, 3, 3500, 5000, "B", "D", PB_TYPE_CALL, 3, 1, 1);
    from_truth(&f);
    const char *q = "From d In Recv[host=D] Join c In Recv[host=C] On c -> d Select Count";
    pq_answer *a = eval(q, &f, 1);
    CHECK(a && a->ngroups == 1 && a->vals[0] == 0 ? 1 : a && a->ngroups == 0);
    CHECK(a && a->tuples == 0);
    pq_answer_close(a);
    /* the approximation joins them (same request, earlier): said in the
     * docs, and why parent links matter */
    a = eval(q, &f, 0);
    CHECK(a && a->tuples == 1);
    pq_answer_close(a);
    /* but B's receipt of A's call precedes both */
    a = eval("From d In Recv[host=D] Join b In Recv[host=B] On b -> d Select Count", &f, 1);
    CHECK(a && a->tuples == 1);
    pq_answer_close(a);
    fixture_free(&f);
}

/* nreq random serial chains over hosts A-D (and E), each message caused
 * by the one before it in its request; sizes below maxsize */
static void random_chains(fixture *f, gsl_rng *rng, int nreq, int maxlen,
                          pb_ns latency, pb_ns step, unsigned long maxsize)
{
    static const char *hosts[] = {"A", "B", "C", "D"};
    pb_trace_new(&f->t);
    pb_trace *t = f->t;
    uint64_t id = 0;
    pb_ns now = 1000;
    for (int r = 0; r < nreq; r++) {
        int len = 1 + (int)gsl_rng_uniform_int(rng, (unsigned long)maxlen);
        uint64_t prev = PB_ID_NONE;
        const char *at = hosts[gsl_rng_uniform_int(rng, 4)];
        for (int k = 0; k < len; k++) {
            const char *to = hosts[gsl_rng_uniform_int(rng, 4)];
            if (!strcmp(to, at))
                to = "E";
            ++id;
            pb_trace_add(t, id, now, now + latency, at, to,
                         k % 2 ? PB_TYPE_RETURN : PB_TYPE_CALL, PB_ID_NONE,
                         (uint64_t)r + 1, prev);
            pb_trace_obs(t)[t->n - 1].size = (uint32_t)gsl_rng_uniform_int(rng, maxsize);
            prev = id;
            at = to;
            now += step;
        }
    }
    from_truth(f);
}

/* random serial chains (no parallel calls): parent links and the
 * approximation give the same answers; the selection push of Table 3
 * changes no answer */
TEST(serial_chains_and_rewrites)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 7);
    static const char *queries[] = {
        "From x In Recv Join y In First(Send) On y -> x GroupBy y.host, x.host Select y.host, x.host, Count",
        "From x In Recv[type=call] Join y In MostRecent(Recv) On y -> x GroupBy y.peer Select y.peer, SUM(x.size), MAX(x.size)",
        "From x In Send Join y In Recv On y -> x Where y.host = \"B\" And x.size > 100 GroupBy x.host Select x.host, Count",
        "From x In Event Join y In Send On y -> x Where y.host != x.host GroupBy x.event Select x.event, AVERAGE(y.size)",
    };
    for (int trial = 0; trial < 20; trial++) {
        fixture f = {0};
        random_chains(&f, rng, 6, 6, 500, 1000, 1000);
        pb_trace *t = f.t;
        for (size_t qi = 0; qi < sizeof queries / sizeof queries[0]; qi++) {
            pq_answer *a = eval(queries[qi], &f, 1), *b = eval(queries[qi], &f, 0);
            CHECK(a && b);
            if (!a || !b)
                break;
            pq_diff d;
            pq_compare(a, b, &d);
            CHECK_NEAR(d.tv, 0, 0);
            CHECK_NEAR(d.max_rel, 0, 0);
            pq_query *q;
            pb_error err;
            CHECK_INT(pq_parse(queries[qi], "q", 1, &q, &err), PB_OK);
            CHECK_INT(pq_push_selection(q), PB_OK);
            pq_causal c = {f.req, f.par, NULL, NULL};
            pq_answer *p = NULL;
            CHECK_INT(pq_eval(q, t, &c, &p, &err), PB_OK);
            CHECK(p && p->ngroups == a->ngroups);
            for (size_t g = 0; p && g < a->ngroups * a->nvals; g++)
                CHECK(a->vals[g] == p->vals[g] || (isnan(a->vals[g]) && isnan(p->vals[g])));
            pq_answer_close(p);
            pq_close(q);
            pq_answer_close(a);
            pq_answer_close(b);
        }
        fixture_free(&f);
    }
    gsl_rng_free(rng);
}

/* a query whose unfiltered joins multiply: refused past the bound on the
 * work with PB_ERANGE and a message, never a cut answer; under the bound
 * the same answer as without one */
TEST(join_work_is_bounded)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 3);
    fixture f = {0};
    random_chains(&f, rng, 4, 40, 500, 1000, 1000);
    const char *text = "From a In Event Join b In Event On b -> a Join c In "
                       "Event On c -> b Join d In Event On d -> c Select Count";
    pq_query *q;
    pb_error err;
    CHECK_INT(pq_parse(text, "q", 1, &q, &err), PB_OK);
    pq_causal c = {f.req, f.par, NULL, NULL};
    pq_answer *a = NULL, *b = NULL;
    CHECK_INT(pq_eval(q, f.t, &c, &a, &err), PB_OK);
    CHECK_INT(pq_eval_max(q, f.t, &c, 1000, &b, &err), PB_ERANGE);
    CHECK(b == NULL);
    CHECK(strstr(err.msg, "was stopped") && strstr(err.msg, "temporal filter"));
    c.parent = NULL; /* the approximation is bounded the same way */
    CHECK_INT(pq_eval_max(q, f.t, &c, 1000, &b, &err), PB_ERANGE);
    c.parent = f.par;
    CHECK_INT(pq_eval_max(q, f.t, &c, 100000000, &b, &err), PB_OK);
    CHECK(a && b && a->tuples == b->tuples && a->tuples > 1000);
    pq_answer_close(a);
    pq_answer_close(b);
    pq_close(q);
    fixture_free(&f);
    gsl_rng_free(rng);
}

/* tmpl with its '@' replaced by ins */
static void subst(char *out, size_t n, const char *tmpl, const char *ins)
{
    const char *at = strchr(tmpl, '@');
    snprintf(out, n, "%.*s%s%s", (int)(at - tmpl), tmpl, ins, at + 1);
}

/* Table 3's aggregation rules and Pivot Tracing's partial aggregation
 * (4, "Tuple Aggregation"): aggregating each host's From events on their
 * own and combining the partial answers (Count and Sum add, Min and Max
 * take the least and greatest) gives the answer of the whole query.  The
 * per-host queries are the same text with host=H added to the From
 * tracepoint. */
TEST(partial_aggregation_combines)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 11);
    static const char *hosts[] = {"A", "B", "C", "D"};
    static const char *tmpl[] = {
        "From x In Recv@ Join y In First(Send) On y -> x GroupBy y.host Select y.host, Count, SUM(x.size), MIN(x.size), MAX(x.size)",
        "From x In Send@ Join y In MostRecent(Recv) On y -> x GroupBy y.peer, x.type Select y.peer, x.type, Count, SUM(y.size)",
        "From x In Recv@ Join y In Send On y -> x Select Count, MAX(y.size)",
    };
    for (int trial = 0; trial < 10; trial++) {
        fixture f = {0};
        random_chains(&f, rng, 8, 7, 400, 700, 5000);
        for (size_t qi = 0; qi < sizeof tmpl / sizeof tmpl[0]; qi++) {
            char text[512];
            subst(text, sizeof text, tmpl[qi], "");
            pq_answer *whole = eval(text, &f, 1);
            CHECK(whole != NULL);
            if (!whole)
                break;
            /* the partial answers, combined by key */
            size_t nk = whole->nkeys, nv = whole->nvals;
            double *comb = calloc(whole->ngroups * nv + 1, sizeof *comb);
            int *seen = calloc(whole->ngroups + 1, sizeof *seen);
            int extra = 0;
            for (int h = 0; h < 5; h++) {
                char filt[32];
                snprintf(filt, sizeof filt, "[host=%s]", h < 4 ? hosts[h] : "E");
                subst(text, sizeof text, tmpl[qi], filt);
                pq_answer *part = eval(text, &f, 1);
                CHECK(part != NULL);
                for (size_t g = 0; part && g < part->ngroups; g++) {
                    size_t w = SIZE_MAX;
                    for (size_t x = 0; x < whole->ngroups && w == SIZE_MAX; x++) {
                        int same = 1;
                        for (size_t k = 0; k < nk; k++)
                            same &= !strcmp(part->keys[g * nk + k], whole->keys[x * nk + k]);
                        if (same)
                            w = x;
                    }
                    if (w == SIZE_MAX) {
                        extra = 1;
                        continue;
                    }
                    for (size_t v = 0; v < nv; v++) {
                        double pv = part->vals[g * nv + v], *cv = &comb[w * nv + v];
                        const char *cn = whole->colnames[nk + v];
                        if (isnan(pv))
                            continue;
                        if (!strncmp(cn, "MIN", 3))
                            *cv = seen[w] ? fmin(*cv, pv) : pv;
                        else if (!strncmp(cn, "MAX", 3))
                            *cv = seen[w] ? fmax(*cv, pv) : pv;
                        else
                            *cv += pv;
                    }
                    seen[w] = 1;
                }
                pq_answer_close(part);
            }
            CHECK(!extra);
            for (size_t x = 0; x < whole->ngroups; x++)
                for (size_t v = 0; v < nv; v++) {
                    double a = whole->vals[x * nv + v], b = comb[x * nv + v];
                    if (!(a == b || (isnan(a) && !seen[x])))
                        PBT_FAIL("query %zu group %zu value %zu: whole %g, combined %g", qi, x, v, a, b);
                }
            free(comb);
            free(seen);
            pq_answer_close(whole);
        }
        fixture_free(&f);
    }
    gsl_rng_free(rng);
}

static void bad(const char *text, long col, const char *want)
{
    pq_query *q = NULL;
    pb_error err;
    int rc = pq_parse(text, "query", 1, &q, &err);
    if (rc != PB_EPARSE) {
        PBT_FAIL("%s: parsed", text);
        pq_close(q);
        return;
    }
    if (err.column != col || !strstr(err.msg, want))
        PBT_FAIL("%s: got %ld: %s; want %ld: %s", text, err.column, err.msg, col, want);
}

TEST(bad_queries_name_the_column)
{
    bad("Frm x In Recv Select Count", 1, "expected \"From\"");
    bad("From x Ni Recv Select Count", 8, "expected \"In\"");
    bad("From x In Rcv Select Count", 11, "tracepoint");
    bad("From x In Recv[hots=A] Select Count", 16, "unknown field");
    bad("From x In Recv Select y.host", 23, "unknown variable");
    bad("From x In Recv Select SUM(x.host)", 23, "numeric field");
    bad("From x In Recv GroupBy x.host Select x.peer, Count", 38, "not in GroupBy");
    bad("From x In Recv Join y In Send On x -> y Select Count", 34, "joined variable");
    bad("From x In Recv Where x.size > \"big\" Select Count", 22, "is a number");
    bad("From x In Recv Select Count extra", 29, "end of the query");
    bad("From x In Recv Where x.host = \"A Select Count", 31, "unterminated");
    bad("From x In Join y In Send On y -> x Select Count", 11, "tracepoint");
    bad("From x In Recv Join y In FirstN(Send) On y -> x Select Count", 37, "\",\"");
}

/* A query cut short names the place right after its last word, also
 * through the list reader (which appends a newline to each query): before,
 * a one-line --query said "--query:2:1", a line that is not there. */
TEST(bad_query_end_is_after_the_text)
{
    static const struct { const char *text; long line, col; } c[] = {
        {"From x In", 1, 10},
        {"From x In Recv[host=DB  ", 1, 23},
        {"From x In\nRecv Select\n\n", 2, 12},
        {"From x In Recv Select Count\n\n# c\nFrom y In\n\n", 4, 10},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        pq_query **qs = NULL;
        size_t n = 0;
        pb_error err;
        int rc = pq_parse_list(c[i].text, "q", &qs, &n, &err);
        if (rc != PB_EPARSE)
            PBT_FAIL("%zu: parsed", i);
        else if (err.line != c[i].line || err.column != c[i].col ||
                 !strstr(err.msg, "the end of the query"))
            PBT_FAIL("%zu: got %ld:%ld: %s; want %ld:%ld", i, err.line,
                     err.column, err.msg, c[i].line, c[i].col);
        pq_list_close(qs, n);
    }
}

TEST(query_lists)
{
    pq_query **qs;
    size_t n;
    pb_error err;
    const char *text = "# two queries\nQ1: From x In Recv\n  GroupBy x.host Select x.host, Count\n\n"
                       "Q2: From x In Send Select Count;\n";
    CHECK_INT(pq_parse_list(text, "qs", &qs, &n, &err), PB_OK);
    CHECK_INT(n, 2);
    if (n == 2) {
        CHECK_STR(pq_name(qs[0]), "Q1");
        CHECK_STR(pq_text(qs[0]), "From x In Recv GroupBy x.host Select x.host, Count");
        CHECK_STR(pq_name(qs[1]), "Q2");
    }
    pq_list_close(qs, n);
    CHECK_INT(pq_parse_list("Q1: From x In Recv Select Count\n\nFrom x In Recv Selec Count\n",
                            "qs", &qs, &n, &err), PB_EPARSE);
    CHECK_INT(err.line, 3);
    CHECK_INT(err.column, 16);
}

/* vPath Figure 11's measure: KS distance worked by hand */
TEST(ks_distance)
{
    const double a[] = {1, 2, 3}, b[] = {2, 3, 4}, c[] = {10, 11};
    CHECK_NEAR(score_ks_distance(a, 3, b, 3), 1.0 / 3.0, 1e-12);
    CHECK_NEAR(score_ks_distance(a, 3, a, 3), 0, 0);
    CHECK_NEAR(score_ks_distance(a, 3, c, 2), 1, 0);
    /* ties across the samples: {1,1,2} vs {1,2,2}: at 1, 2/3 vs 1/3 */
    const double d[] = {1, 1, 2}, e[] = {1, 2, 2};
    CHECK_NEAR(score_ks_distance(d, 3, e, 3), 1.0 / 3.0, 1e-12);
    CHECK(isnan(score_ks_distance(a, 3, b, 0)));
}

int main(void)
{
    RUN(ks_distance);
    RUN(bytes_per_client);
    RUN(first_and_most_recent);
    RUN(parallel_branches_not_joined);
    RUN(serial_chains_and_rewrites);
    RUN(partial_aggregation_combines);
    RUN(bad_queries_name_the_column);
    RUN(bad_query_end_is_after_the_text);
    RUN(query_lists);
    RUN(join_work_is_bounded);
    return pbtest_exit();
}
