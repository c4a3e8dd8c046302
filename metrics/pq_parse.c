/*
 * pq_parse.c - the query text (docs/metrics.md "Queries"):
 *
 *   query  := [NAME ':'] 'From' VAR 'In' srcs
 *             { 'Join' VAR 'In' tsrc 'On' VAR '->' VAR }
 *             [ 'Where' cond { 'And' cond } ]
 *             [ 'GroupBy' ref { ',' ref } ]
 *             'Select' sel { ',' sel }
 *   srcs   := src { ',' src }                (a union)
 *   tsrc   := srcs | TEMP '(' srcs [ ',' INT ] ')'
 *   TEMP   := First | FirstN | MostRecent | MostRecentN
 *   src    := ('Send' | 'Recv' | 'Event') [ '[' filt { ',' filt } ']' ]
 *   filt   := FIELD op literal
 *   cond   := operand op operand             (operand: ref or literal)
 *   ref    := VAR '.' FIELD
 *   sel    := ref | AGG '(' ref ')' | 'Count' [ '(' ')' ]
 *   AGG    := Sum | Average | Avg | Min | Max
 *   op     := '=' | '==' | '!=' | '<' | '<=' | '>' | '>='
 *
 * Keywords are case-insensitive; a literal is a number, a quoted string or
 * a bare word; a text literal ending in '*' matches by prefix.
 */
#include "pq_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pb_files.h"
#include "pb_opt.h"
#include "pb_strbuf.h"

const char *const pq_field_names[PQ_NFIELDS] = {
    "host", "peer", "event", "type", "time", "latency", "attr", "size", "id"};

int pq_field_is_num(int field)
{
    return field == PQ_F_TIME || field == PQ_F_LATENCY || field == PQ_F_SIZE ||
           field == PQ_F_ID;
}

enum tok_kind { T_END, T_WORD, T_NUM, T_STR, T_PUNCT };

typedef struct parser {
    const char *s;
    size_t pos;
    const char *name;
    long line0;
    pb_error *err;
    int failed;
    /* current token */
    int kind;
    size_t tpos, tlen;
    char punct[3];
    pq_query *q;
} parser;

static void where_is(const parser *p, size_t pos, long *line, long *col)
{
    long l = p->line0, c = 1;
    for (size_t i = 0; i < pos && p->s[i]; i++) {
        if (p->s[i] == '\n') {
            l++;
            c = 1;
        } else {
            c++;
        }
    }
    *line = l;
    *col = c;
}

/* field f named at pos: remember its first place */
static void field_used(parser *p, int f, size_t pos)
{
    if (f >= 0 && f < PQ_NFIELDS && !p->q->fline[f])
        where_is(p, pos, &p->q->fline[f], &p->q->fcol[f]);
}

static void tok_show(const parser *p, char *buf, size_t n)
{
    if (p->kind == T_END) {
        snprintf(buf, n, "the end of the query");
        return;
    }
    size_t l = p->tlen > 30 ? 30 : p->tlen;
    snprintf(buf, n, "\"%.*s%s\"", (int)l, p->s + p->tpos,
             p->tlen > 30 ? "..." : "");
}

static void fail_at(parser *p, size_t pos, const char *fmt, ...)
{
    if (p->failed)
        return;
    p->failed = 1;
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    long line, col;
    where_is(p, pos, &line, &col);
    pb_error_set(p->err, PB_EPARSE, p->name, line, col, "%s", msg);
}

/* "expected WHAT, got TOKEN" at the current token */
static void expected(parser *p, const char *what)
{
    char got[64];
    tok_show(p, got, sizeof got);
    fail_at(p, p->tpos, "expected %s, got %s", what, got);
}

static int is_bare(int c)
{
    return c && !isspace((unsigned char)c) && !strchr(",[]()=!<>;:\"'", c);
}

static void next(parser *p)
{
    if (p->failed) {
        p->kind = T_END;
        return;
    }
    const char *s = p->s;
    while (s[p->pos] && isspace((unsigned char)s[p->pos]))
        p->pos++;
    p->tpos = p->pos;
    char c = s[p->pos];
    if (!c) {
        /* the end is where the text ends, not past the newline the query
         * list appends (else "--query:2:1" for a one-line query) */
        while (p->tpos > 0 && isspace((unsigned char)s[p->tpos - 1]))
            p->tpos--;
        p->kind = T_END;
        p->tlen = 0;
        return;
    }
    if (c == '"' || c == '\'') {
        size_t i = p->pos + 1;
        while (s[i] && s[i] != c)
            i++;
        if (!s[i]) {
            p->kind = T_END;
            fail_at(p, p->pos, "unterminated string: expected a closing %c", c);
            return;
        }
        p->kind = T_STR;
        p->tlen = i + 1 - p->pos;
        p->pos = i + 1;
        return;
    }
    if (strchr(",[]()=;:", c) || c == '!' || c == '<' || c == '>' ||
        (c == '-' && s[p->pos + 1] == '>')) {
        size_t l = 1;
        if ((c == '!' || c == '<' || c == '>' || c == '=') && s[p->pos + 1] == '=')
            l = 2;
        if (c == '-')
            l = 2;
        if (c == '!' && l == 1) {
            p->kind = T_END;
            fail_at(p, p->pos, "expected \"!=\", got \"!\"");
            return;
        }
        p->kind = T_PUNCT;
        memcpy(p->punct, s + p->pos, l);
        p->punct[l] = 0;
        p->tlen = l;
        p->pos += l;
        return;
    }
    /* a word or a number: stop at '.' only between a variable and a field,
     * which the caller asks for with next_ref */
    size_t i = p->pos;
    while (is_bare(s[i]) && !(s[i] == '-' && s[i + 1] == '>'))
        i++;
    p->tlen = i - p->pos;
    p->pos = i;
    char buf[64];
    size_t l = p->tlen < sizeof buf - 1 ? p->tlen : sizeof buf - 1;
    memcpy(buf, s + p->tpos, l);
    buf[l] = 0;
    /* a number as every program reads one (pb_number_parse): decimal
     * (strtod alone took "0x2" as 2), an underflow (1e-400) is 0 */
    double v;
    p->kind = (l == p->tlen && pb_number_parse(buf, l, &v) == PB_OK) ? T_NUM : T_WORD;
}

static int is_word(const parser *p, const char *kw)
{
    return p->kind == T_WORD && strlen(kw) == p->tlen &&
           !strncasecmp(p->s + p->tpos, kw, p->tlen);
}

static int is_punct(const parser *p, const char *pu)
{
    return p->kind == T_PUNCT && !strcmp(p->punct, pu);
}

static int expect_word(parser *p, const char *kw)
{
    if (!is_word(p, kw)) {
        char what[48];
        snprintf(what, sizeof what, "\"%s\"", kw);
        expected(p, what);
        return 0;
    }
    next(p);
    return 1;
}

static int expect_punct(parser *p, const char *pu)
{
    if (!is_punct(p, pu)) {
        char what[48];
        snprintf(what, sizeof what, "\"%s\"", pu);
        expected(p, what);
        return 0;
    }
    next(p);
    return 1;
}

static char *tok_dup(const parser *p)
{
    const char *s = p->s + p->tpos;
    size_t l = p->tlen;
    if (p->kind == T_STR) {
        s++;
        l -= 2;
    }
    char *d = malloc(l + 1);
    if (d) {
        memcpy(d, s, l);
        d[l] = 0;
    }
    return d;
}

static int field_of(const char *s, size_t l)
{
    for (int f = 0; f < PQ_NFIELDS; f++)
        if (strlen(pq_field_names[f]) == l && !strncasecmp(pq_field_names[f], s, l))
            return f;
    return -1;
}

static const char field_list[] =
    "host, peer, event, type, time, latency, attr, size or id";

static int var_of(const pq_query *q, const char *s, size_t l)
{
    for (int v = 0; v < q->nvars; v++)
        if (strlen(q->vars[v].name) == l && !strncmp(q->vars[v].name, s, l))
            return v;
    return -1;
}

static int reserved(const parser *p)
{
    static const char *kw[] = {"From", "In", "Join", "On", "Where", "And",
                               "GroupBy", "Select", NULL};
    for (int i = 0; kw[i]; i++)
        if (is_word(p, kw[i]))
            return 1;
    return 0;
}

/* A word "VAR.FIELD" (the tokenizer keeps the dot inside words). */
static int parse_ref(parser *p, int *var, int *field)
{
    if (p->kind != T_WORD) {
        expected(p, "VARIABLE.FIELD");
        return 0;
    }
    const char *s = p->s + p->tpos;
    const char *dot = memchr(s, '.', p->tlen);
    if (!dot) {
        expected(p, "VARIABLE.FIELD");
        return 0;
    }
    int v = var_of(p->q, s, (size_t)(dot - s));
    if (v < 0) {
        fail_at(p, p->tpos, "unknown variable \"%.*s\"; expected one bound by From or Join",
                (int)(dot - s), s);
        return 0;
    }
    int f = field_of(dot + 1, p->tlen - (size_t)(dot + 1 - s));
    if (f < 0) {
        fail_at(p, p->tpos + (size_t)(dot + 1 - s),
                "unknown field \"%.*s\"; expected %s",
                (int)(p->tlen - (size_t)(dot + 1 - s)), dot + 1, field_list);
        return 0;
    }
    *var = v;
    *field = f;
    field_used(p, f, p->tpos + (size_t)(dot + 1 - s));
    next(p);
    return 1;
}

static int parse_op(parser *p, int *op)
{
    static const struct { const char *t; int op; } ops[] = {
        {"=", PQ_EQ}, {"==", PQ_EQ}, {"!=", PQ_NE}, {"<", PQ_LT},
        {"<=", PQ_LE}, {">", PQ_GT}, {">=", PQ_GE}};
    if (p->kind == T_PUNCT)
        for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
            if (!strcmp(p->punct, ops[i].t)) {
                *op = ops[i].op;
                next(p);
                return 1;
            }
    expected(p, "a comparison (=, !=, <, <=, >, >=)");
    return 0;
}

static int parse_literal(parser *p, pq_operand *o)
{
    o->var = -1;
    if (p->kind == T_NUM) {
        o->is_num = 1;
        char buf[64];
        size_t l = p->tlen < 63 ? p->tlen : 63;
        memcpy(buf, p->s + p->tpos, l);
        buf[l] = 0;
        if (pb_number_parse(buf, l, &o->num) != PB_OK)
            o->num = 0; /* not reached: the lexer checked it */
        if (l == p->tlen && strspn(buf, "0123456789") == l) {
            errno = 0;
            unsigned long long u = strtoull(buf, NULL, 10);
            if (!errno) {
                o->is_int = 1;
                o->u = (uint64_t)u;
            }
        }
    } else if (p->kind == T_STR || (p->kind == T_WORD && !reserved(p))) {
        o->str = tok_dup(p);
        if (!o->str) {
            fail_at(p, p->tpos, "out of memory");
            return 0;
        }
        size_t l = strlen(o->str);
        if (l && o->str[l - 1] == '*') {
            o->prefix = 1;
            o->str[l - 1] = 0;
        }
    } else {
        expected(p, "a number, a quoted string or a word");
        return 0;
    }
    next(p);
    return 1;
}

/* a literal compared with a field must be of its kind */
static int check_kinds(parser *p, size_t pos, const pq_cond *c, int lfield)
{
    const pq_operand *lit = c->r.var == -1 ? &c->r : c->l.var == -1 ? &c->l : NULL;
    if (!lit)
        return 1;
    if (pq_field_is_num(lfield) && !lit->is_num) {
        fail_at(p, pos, "field %s is a number; expected a number written in decimal, got \"%s\"",
                pq_field_names[lfield], lit->str);
        return 0;
    }
    if (!pq_field_is_num(lfield) && (c->op != PQ_EQ && c->op != PQ_NE) &&
        !lit->is_num) {
        /* text order is allowed: byte order */
    }
    return 1;
}

static int parse_source(parser *p, pq_source *src)
{
    if (is_word(p, "Send"))
        src->kind = PQ_SEND;
    else if (is_word(p, "Recv") || is_word(p, "Receive"))
        src->kind = PQ_RECV;
    else if (is_word(p, "Event"))
        src->kind = PQ_ANY;
    else {
        expected(p, "a tracepoint (Send, Recv or Event)");
        return 0;
    }
    next(p);
    if (!is_punct(p, "["))
        return 1;
    next(p);
    for (;;) {
        if (p->kind != T_WORD) {
            expected(p, "a field name");
            return 0;
        }
        int f = field_of(p->s + p->tpos, p->tlen);
        if (f < 0) {
            fail_at(p, p->tpos, "unknown field \"%.*s\"; expected %s",
                    (int)p->tlen, p->s + p->tpos, field_list);
            return 0;
        }
        size_t fpos = p->tpos;
        field_used(p, f, fpos);
        next(p);
        pq_cond c;
        memset(&c, 0, sizeof c);
        c.l.var = -2;
        c.l.field = f;
        if (!parse_op(p, &c.op) || !parse_literal(p, &c.r)) {
            free(c.r.str);
            return 0;
        }
        pq_cond *nf = realloc(src->f, (src->nf + 1) * sizeof *nf);
        if (!nf) {
            free(c.r.str);
            fail_at(p, fpos, "out of memory");
            return 0;
        }
        src->f = nf;
        src->f[src->nf++] = c;
        if (!check_kinds(p, fpos, &c, f))
            return 0;
        if (is_punct(p, "]")) {
            next(p);
            return 1;
        }
        if (!expect_punct(p, ","))
            return 0;
    }
}

static int parse_sources(parser *p, pq_var *v, int allow_more)
{
    for (;;) {
        pq_source *ns = realloc(v->src, (v->nsrc + 1) * sizeof *ns);
        if (!ns) {
            fail_at(p, p->tpos, "out of memory");
            return 0;
        }
        v->src = ns;
        memset(&v->src[v->nsrc], 0, sizeof *ns);
        v->nsrc++;
        if (!parse_source(p, &v->src[v->nsrc - 1]))
            return 0;
        /* inside FirstN(...) a ',' followed by a number is the N */
        if (!is_punct(p, ","))
            return 1;
        size_t save_pos = p->pos, save_tpos = p->tpos;
        next(p);
        if (p->kind == T_NUM || !allow_more) {
            /* give the ',' back */
            p->pos = save_pos;
            p->tpos = save_tpos;
            p->kind = T_PUNCT;
            strcpy(p->punct, ",");
            p->tlen = 1;
            return 1;
        }
        if (!(is_word(p, "Send") || is_word(p, "Recv") ||
              is_word(p, "Receive") || is_word(p, "Event"))) {
            /* the From list ends here: a ',' then something else */
            expected(p, "a tracepoint (Send, Recv or Event) after ','");
            return 0;
        }
    }
}

static int new_var(parser *p, pq_var **out)
{
    if (p->kind != T_WORD || reserved(p) || memchr(p->s + p->tpos, '.', p->tlen) ||
        !isalpha((unsigned char)p->s[p->tpos])) {
        expected(p, "a variable name (a letter, then letters, digits or '_')");
        return 0;
    }
    if (var_of(p->q, p->s + p->tpos, p->tlen) >= 0) {
        fail_at(p, p->tpos, "variable \"%.*s\" is already bound; expected a new name",
                (int)p->tlen, p->s + p->tpos);
        return 0;
    }
    if (p->q->nvars >= PQ_MAXVARS) {
        fail_at(p, p->tpos, "too many variables: at most %d", PQ_MAXVARS);
        return 0;
    }
    pq_var *v = &p->q->vars[p->q->nvars];
    memset(v, 0, sizeof *v);
    v->name = tok_dup(p);
    if (!v->name) {
        fail_at(p, p->tpos, "out of memory");
        return 0;
    }
    v->before = -1;
    p->q->nvars++;
    next(p);
    *out = v;
    return 1;
}

static int parse_join(parser *p)
{
    pq_var *v;
    if (!new_var(p, &v) || !expect_word(p, "In"))
        return 0;
    static const struct { const char *kw; int t; } temps[] = {
        {"First", PQ_FIRST}, {"MostRecent", PQ_MOSTRECENT},
        {"FirstN", PQ_FIRSTN}, {"MostRecentN", PQ_MOSTRECENTN}};
    v->temporal = PQ_ALL;
    for (size_t i = 0; i < 4; i++)
        if (is_word(p, temps[i].kw))
            v->temporal = temps[i].t;
    if (v->temporal != PQ_ALL) {
        next(p);
        if (!expect_punct(p, "(") || !parse_sources(p, v, 1))
            return 0;
        if (v->temporal == PQ_FIRSTN || v->temporal == PQ_MOSTRECENTN) {
            if (!expect_punct(p, ","))
                return 0;
            char buf[32];
            size_t l = p->tlen < 31 ? p->tlen : 31;
            memcpy(buf, p->s + p->tpos, l);
            buf[l] = 0;
            char *end;
            long n = p->kind == T_NUM ? strtol(buf, &end, 10) : 0;
            if (p->kind != T_NUM || *end || n < 1 || n > 1000000) {
                expected(p, "N, a whole number from 1 to 1000000");
                return 0;
            }
            v->n = n;
            next(p);
        }
        if (!expect_punct(p, ")"))
            return 0;
    } else if (!parse_sources(p, v, 1)) {
        return 0;
    }
    if (!expect_word(p, "On"))
        return 0;
    if (p->kind != T_WORD || strlen(v->name) != p->tlen ||
        strncmp(v->name, p->s + p->tpos, p->tlen)) {
        char what[120];
        snprintf(what, sizeof what,
                 "the joined variable \"%s\" (On %s -> EARLIER_VARIABLE)", v->name,
                 v->name);
        expected(p, what);
        return 0;
    }
    next(p);
    if (!expect_punct(p, "->"))
        return 0;
    int b = p->kind == T_WORD ? var_of(p->q, p->s + p->tpos, p->tlen) : -1;
    if (b < 0 || b == p->q->nvars - 1) {
        expected(p, "a variable bound before this Join");
        return 0;
    }
    v->before = b;
    next(p);
    return 1;
}

static int parse_operand(parser *p, pq_operand *o)
{
    if (p->kind == T_WORD && memchr(p->s + p->tpos, '.', p->tlen) &&
        var_of(p->q, p->s + p->tpos,
               (size_t)((const char *)memchr(p->s + p->tpos, '.', p->tlen) -
                        (p->s + p->tpos))) >= 0)
        return parse_ref(p, &o->var, &o->field);
    return parse_literal(p, o);
}

static int parse_where(parser *p)
{
    for (;;) {
        pq_cond c;
        memset(&c, 0, sizeof c);
        size_t pos = p->tpos;
        if (!parse_operand(p, &c.l) || !parse_op(p, &c.op) ||
            !parse_operand(p, &c.r)) {
            free(c.l.str);
            free(c.r.str);
            return 0;
        }
        pq_cond *nc = realloc(p->q->conds, (p->q->nconds + 1) * sizeof *nc);
        if (!nc) {
            free(c.l.str);
            free(c.r.str);
            fail_at(p, pos, "out of memory");
            return 0;
        }
        p->q->conds = nc;
        p->q->conds[p->q->nconds++] = c;
        if (c.l.var < 0 && c.r.var < 0) {
            fail_at(p, pos, "a condition compares two literals; expected a VARIABLE.FIELD on one side");
            return 0;
        }
        if (c.l.var >= 0 && c.r.var >= 0 &&
            pq_field_is_num(c.l.field) != pq_field_is_num(c.r.field)) {
            fail_at(p, pos, "%s is %s but %s is %s; expected fields of one kind",
                    pq_field_names[c.l.field],
                    pq_field_is_num(c.l.field) ? "a number" : "text",
                    pq_field_names[c.r.field],
                    pq_field_is_num(c.r.field) ? "a number" : "text");
            return 0;
        }
        if (!check_kinds(p, pos, &c, c.l.var >= 0 ? c.l.field : c.r.field))
            return 0;
        if (!is_word(p, "And"))
            return 1;
        next(p);
    }
}

static int parse_select(parser *p)
{
    pq_query *q = p->q;
    int naggs = 0;
    for (;;) {
        pq_sel s;
        memset(&s, 0, sizeof s);
        size_t pos = p->tpos;
        static const struct { const char *kw; int agg; } aggs[] = {
            {"Sum", PQ_SUM}, {"Average", PQ_AVG}, {"Avg", PQ_AVG},
            {"Min", PQ_MIN}, {"Max", PQ_MAX}};
        if (is_word(p, "Count")) {
            s.agg = PQ_COUNT;
            next(p);
            if (is_punct(p, "(")) {
                next(p);
                if (!expect_punct(p, ")"))
                    return 0;
            }
        } else {
            for (size_t i = 0; i < sizeof aggs / sizeof aggs[0]; i++)
                if (is_word(p, aggs[i].kw))
                    s.agg = aggs[i].agg;
            if (s.agg) {
                next(p);
                if (!expect_punct(p, "(") || !parse_ref(p, &s.var, &s.field) ||
                    !expect_punct(p, ")"))
                    return 0;
                if (!pq_field_is_num(s.field)) {
                    fail_at(p, pos, "%s is text; expected a numeric field "
                            "(time, latency, size, id) to aggregate",
                            pq_field_names[s.field]);
                    return 0;
                }
            } else {
                if (!parse_ref(p, &s.var, &s.field))
                    return 0;
                int found = 0;
                for (int g = 0; g < q->ngroups; g++)
                    if (q->gvar[g] == s.var && q->gfield[g] == s.field)
                        found = 1;
                if (!found && q->ngroups) {
                    fail_at(p, pos, "%s.%s is not in GroupBy; expected a "
                            "GroupBy field or an aggregate",
                            q->vars[s.var].name, pq_field_names[s.field]);
                    return 0;
                }
            }
        }
        if (s.agg)
            naggs++;
        pq_sel *ns = realloc(q->sels, (q->nsels + 1) * sizeof *ns);
        if (!ns) {
            fail_at(p, pos, "out of memory");
            return 0;
        }
        q->sels = ns;
        q->sels[q->nsels++] = s;
        if (!is_punct(p, ","))
            break;
        next(p);
    }
    if (naggs && !q->ngroups) {
        /* fields beside aggregates without GroupBy: group by those fields */
        for (size_t i = 0; i < q->nsels; i++) {
            if (q->sels[i].agg)
                continue;
            if (q->ngroups >= PQ_MAXKEYS) {
                fail_at(p, p->tpos, "too many selected fields: at most %d", PQ_MAXKEYS);
                return 0;
            }
            q->gvar[q->ngroups] = q->sels[i].var;
            q->gfield[q->ngroups++] = q->sels[i].field;
        }
    }
    if (!naggs) {
        /* Select of plain fields: the answer counts each distinct tuple */
        if (q->ngroups) {
            fail_at(p, p->tpos, "GroupBy without an aggregate; expected Count, "
                    "Sum, Average, Min or Max in Select");
            return 0;
        }
        for (size_t i = 0; i < q->nsels; i++) {
            if (q->ngroups >= PQ_MAXKEYS) {
                fail_at(p, p->tpos, "too many selected fields: at most %d", PQ_MAXKEYS);
                return 0;
            }
            q->gvar[q->ngroups] = q->sels[i].var;
            q->gfield[q->ngroups++] = q->sels[i].field;
        }
        q->implicit_count = 1;
    }
    return 1;
}

static void free_operand(pq_operand *o) { free(o->str); }

void pq_close(pq_query *q)
{
    if (!q)
        return;
    for (int v = 0; v < q->nvars; v++) {
        free(q->vars[v].name);
        for (size_t s = 0; s < q->vars[v].nsrc; s++) {
            for (size_t f = 0; f < q->vars[v].src[s].nf; f++)
                free_operand(&q->vars[v].src[s].f[f].r);
            free(q->vars[v].src[s].f);
        }
        free(q->vars[v].src);
    }
    for (size_t c = 0; c < q->nconds; c++) {
        free_operand(&q->conds[c].l);
        free_operand(&q->conds[c].r);
    }
    free(q->conds);
    free(q->sels);
    free(q->name);
    free(q->text);
    free(q->src);
    free(q);
}

const char *pq_name(const pq_query *q) { return q->name ? q->name : ""; }
const char *pq_text(const pq_query *q) { return q->text ? q->text : ""; }

static int make_text(pq_query *q, const char *s, size_t from, size_t to)
{
    /* one line: runs of white space become one space */
    q->text = malloc(to - from + 1);
    if (!q->text)
        return PB_ENOMEM;
    size_t o = 0;
    int sp = 0;
    for (size_t i = from; i < to; i++) {
        if (isspace((unsigned char)s[i])) {
            sp = o > 0;
            continue;
        }
        if (sp)
            q->text[o++] = ' ';
        sp = 0;
        q->text[o++] = s[i];
    }
    q->text[o] = 0;
    return PB_OK;
}

int pq_parse(const char *text, const char *name, long line0, pq_query **out,
             pb_error *err)
{
    *out = NULL;
    parser p;
    memset(&p, 0, sizeof p);
    p.s = text;
    p.name = name ? name : "query";
    p.line0 = line0 > 0 ? line0 : 1;
    p.err = err;
    p.q = calloc(1, sizeof *p.q);
    if (p.q && !(p.q->src = strdup(p.name))) {
        free(p.q);
        p.q = NULL;
    }
    if (!p.q)
        return pb_error_set(err, PB_ENOMEM, p.name, 0, 0, "out of memory");
    pq_query *q = p.q;
    next(&p);
    /* NAME ':' */
    if (p.kind == T_WORD && !reserved(&p)) {
        size_t save = p.pos;
        char *nm = tok_dup(&p);
        size_t npos = p.tpos;
        next(&p);
        if (is_punct(&p, ":")) {
            q->name = nm;
            next(&p);
        } else {
            free(nm);
            p.pos = npos;
            (void)save;
            next(&p);
        }
    }
    size_t start = p.tpos;
    if (!expect_word(&p, "From"))
        goto fail;
    pq_var *v;
    if (!new_var(&p, &v) || !expect_word(&p, "In") || !parse_sources(&p, v, 1))
        goto fail;
    while (is_word(&p, "Join")) {
        next(&p);
        if (!parse_join(&p))
            goto fail;
    }
    if (is_word(&p, "Where")) {
        next(&p);
        if (!parse_where(&p))
            goto fail;
    }
    if (is_word(&p, "GroupBy")) {
        next(&p);
        for (;;) {
            if (q->ngroups >= PQ_MAXKEYS) {
                fail_at(&p, p.tpos, "too many GroupBy fields: at most %d", PQ_MAXKEYS);
                goto fail;
            }
            if (!parse_ref(&p, &q->gvar[q->ngroups], &q->gfield[q->ngroups]))
                goto fail;
            q->ngroups++;
            if (!is_punct(&p, ","))
                break;
            next(&p);
        }
    }
    if (!expect_word(&p, "Select") || !parse_select(&p))
        goto fail;
    if (p.kind != T_END) {
        expected(&p, "the end of the query (or Where, GroupBy, Select in that order)");
        goto fail;
    }
    if (make_text(q, text, start, strlen(text)) != PB_OK) {
        pb_error_set(err, PB_ENOMEM, p.name, 0, 0, "out of memory");
        pq_close(q);
        return PB_ENOMEM;
    }
    *out = q;
    return PB_OK;
fail:
    pq_close(q);
    return p.err && p.err->code ? p.err->code : PB_EPARSE;
}

/* ---------------------------------------------------------------- */
/* lists */

void pq_list_close(pq_query **qs, size_t n)
{
    if (!qs)
        return;
    for (size_t i = 0; i < n; i++)
        pq_close(qs[i]);
    free(qs);
}

int pq_parse_list(const char *text, const char *name, pq_query ***out,
                  size_t *n, pb_error *err)
{
    *out = NULL;
    *n = 0;
    pq_query **qs = NULL;
    size_t nq = 0;
    pb_strbuf cur = {0};
    long line = 1, first_line = 0;
    const char *s = text;
    int rc = PB_OK;
    for (;;) {
        const char *e = strchr(s, '\n');
        size_t l = e ? (size_t)(e - s) : strlen(s);
        size_t i = 0;
        while (i < l && isspace((unsigned char)s[i]))
            i++;
        int blank = i == l;
        int comment = !blank && s[i] == '#';
        const char *semi = blank || comment ? NULL : memchr(s, ';', l);
        if (!blank && !comment) {
            if (!first_line)
                first_line = line;
            size_t take = semi ? (size_t)(semi - s) : l;
            if (pb_strbuf_append(&cur, s, take) != PB_OK ||
                pb_strbuf_putc(&cur, '\n') != PB_OK) {
                rc = pb_error_set(err, PB_ENOMEM, name, 0, 0, "out of memory");
                break;
            }
            if (semi) {
                size_t rest = l - take - 1;
                size_t k = 0;
                while (k < rest && isspace((unsigned char)semi[1 + k]))
                    k++;
                if (k < rest) {
                    rc = pb_error_set(err, PB_EPARSE, name, line,
                                      (long)(semi - s) + 2 + (long)k,
                                      "text after ';'; expected the next query on its own line");
                    break;
                }
            }
        }
        int end_query = blank || semi || !e;
        if (end_query && cur.len) {
            pq_query *q;
            rc = pq_parse(pb_strbuf_str(&cur), name, first_line, &q, err);
            if (rc != PB_OK)
                break;
            pq_query **nqs = realloc(qs, (nq + 1) * sizeof *nqs);
            if (!nqs) {
                pq_close(q);
                rc = pb_error_set(err, PB_ENOMEM, name, 0, 0, "out of memory");
                break;
            }
            qs = nqs;
            qs[nq++] = q;
            pb_strbuf_reset(&cur);
            first_line = 0;
        }
        if (!e)
            break;
        s = e + 1;
        line++;
    }
    pb_strbuf_free(&cur);
    if (rc == PB_OK && !nq)
        rc = pb_error_set(err, PB_EPARSE, name, 1, 1,
                          "no query; expected \"From VARIABLE In ...\"");
    if (rc != PB_OK) {
        pq_list_close(qs, nq);
        return rc;
    }
    *out = qs;
    *n = nq;
    return PB_OK;
}

int pq_parse_file(const char *path, pq_query ***out, size_t *n, pb_error *err)
{
    *out = NULL;
    *n = 0;
    int is_stdin = !strcmp(path, "-");
    /* checked against the run's outputs (pb_files.h), close-on-exec */
    const char *name = is_stdin ? "(stdin)" : path;
    FILE *fp = pb_files_open(path, err);
    if (!fp)
        return err->code;
    pb_strbuf b = {0};
    char buf[4096];
    size_t got;
    int rc = PB_OK;
    while ((got = fread(buf, 1, sizeof buf, fp)) > 0) {
        const char *nul = memchr(buf, 0, got);
        if (nul) {
            /* named by its line and column, as every reader names one */
            long ln = 1, col = 1;
            for (size_t i = 0; i < b.len; i++, col++)
                if (b.s[i] == '\n')
                    ln++, col = 0;
            for (const char *q = buf; q < nul; q++, col++)
                if (*q == '\n')
                    ln++, col = 0;
            rc = pb_error_set(err, PB_EPARSE, name, ln, col,
                              "a NUL byte; expected query text");
            break;
        }
        if (b.len + got > (1u << 20)) {
            rc = pb_error_set(err, PB_EPARSE, name, 0, 0,
                              "more than 1 MiB of queries; expected a query file");
            break;
        }
        if (pb_strbuf_append(&b, buf, got) != PB_OK) {
            rc = pb_error_set(err, PB_ENOMEM, name, 0, 0, "out of memory");
            break;
        }
    }
    if (rc == PB_OK && ferror(fp))
        rc = pb_error_set(err, PB_EIO, name, 0, 0, "read error: %s", strerror(errno));
    if (!is_stdin)
        fclose(fp);
    /* a UTF-8 byte-order mark (Notepad, PowerShell): skipped, as every
     * reader skips it (it was read as part of "From") */
    size_t bom = b.len >= 3 && !memcmp(b.s, "\xEF\xBB\xBF", 3) ? 3 : 0;
    if (rc == PB_OK)
        rc = pq_parse_list(b.len ? pb_strbuf_str(&b) + bom : "", name, out, n, err);
    pb_strbuf_free(&b);
    return rc;
}

/* ---------------------------------------------------------------- */
/* Table 3: push selection toward the source */

int pq_push_selection(pq_query *q)
{
    size_t keep = 0;
    for (size_t i = 0; i < q->nconds; i++) {
        pq_cond c = q->conds[i];
        int var = -1;
        const pq_operand *lit = NULL;
        int field = 0, op = c.op;
        if (c.l.var >= 0 && c.r.var < 0) {
            var = c.l.var;
            field = c.l.field;
            lit = &c.r;
        } else if (c.r.var >= 0 && c.l.var < 0) {
            var = c.r.var;
            field = c.r.field;
            lit = &c.l;
            /* literal op field  ==  field op' literal */
            static const int flip[] = {PQ_EQ, PQ_NE, PQ_GT, PQ_GE, PQ_LT, PQ_LE};
            op = flip[c.op];
        }
        if (var < 0 || q->vars[var].temporal != PQ_ALL) {
            q->conds[keep++] = c;
            continue;
        }
        pq_var *v = &q->vars[var];
        for (size_t s = 0; s < v->nsrc; s++) {
            pq_cond f;
            memset(&f, 0, sizeof f);
            f.l.var = -2;
            f.l.field = field;
            f.op = op;
            f.r = *lit;
            f.r.var = -1;
            if (lit->str && !(f.r.str = strdup(lit->str)))
                return PB_ENOMEM;
            pq_cond *nf = realloc(v->src[s].f, (v->src[s].nf + 1) * sizeof *nf);
            if (!nf) {
                free(f.r.str);
                return PB_ENOMEM;
            }
            v->src[s].f = nf;
            v->src[s].f[v->src[s].nf++] = f;
        }
        free(c.l.str);
        free(c.r.str);
    }
    q->nconds = keep;
    return PB_OK;
}

int pq_check_fields(const pq_query *q, unsigned columns, const char *trace, pb_error *err)
{
    /* a field read from a column the trace has not: empty on every event,
     * so each comparison is false and each aggregate skips it, on the
     * truth and on every result alike -- both answers empty, scored as
     * equal (tv_distance 0, top_same 1) whatever the result */
    static const struct { int field; unsigned col; const char *what; } need[] = {
        {PQ_F_SIZE, PB_COL_SIZE, "no size column"},
        {PQ_F_ATTR, PB_COL_ATTR, "no attr column"},
        {PQ_F_LATENCY, PB_COL_CALLID, "no callid column, by which a call's latency finds "
                                      "its return"},
    };
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
        int f = need[i].field;
        if (!q->fline[f] || (columns & need[i].col))
            continue;
        return pb_error_set(err, PB_EINVAL, q->src ? q->src : "query", q->fline[f], q->fcol[f],
                            "field %s: the trace %s has %s, so %s is empty on every "
                            "event and both answers would be empty (scored as equal, "
                            "whatever the result); expected a field the trace carries",
                            pq_field_names[f], trace ? trace : "", need[i].what,
                            pq_field_names[f]);
    }
    return PB_OK;
}
