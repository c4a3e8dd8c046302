/*
 * mt_lex.c - the maketrace config language, lower half: the settings
 * table, the config's arena, the lexer, $variable expansion, value parsers
 * (delays, ranges, weights, node choices) and the setting and let lines.
 * The statements and tracelets are parsed in mt_config.c.
 */
#include "mt_parse.h"
#include "pb_opt.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Settings */

#define S_OFF(f) offsetof(mt_settings, f)

const pb_option mt_options[] = {
    {"seed", PB_OPT_INT, S_OFF(seed), "1", 0, 2147483647.0,
     "seed of the gsl_rng_mt19937 generator (-s overrides)"},
    {"duration", PB_OPT_DURATION, S_OFF(duration), "0", 0, 1e9,
     "length limit: only whole paths that end by this time (0 = none; 7.2: 500s)"},
    {"messages", PB_OPT_INT, S_OFF(messages), "0", 0, 2147483647.0,
     "length limit: at most this many messages, whole paths only (0 = none)"},
    {"net_delay", PB_OPT_DURATION, S_OFF(net_delay), "0", 0, 1e6,
     "mean network delay: recv_ts = ts + delay"},
    {"net_sd", PB_OPT_DURATION, S_OFF(net_sd), "0", 0, 1e6,
     "standard deviation of the network delay (Gaussian, clipped at 0)"},
    {"call_delay", PB_OPT_STRING, S_OFF(call_delay), "50ms,5ms", PB_OPT_NORANGE,
     "default Gaussian delay MEAN,SD before a call (7.5.6: mean 50 ms)"},
    {"ret_delay", PB_OPT_STRING, S_OFF(ret_delay), "10ms,1ms", PB_OPT_NORANGE,
     "default Gaussian delay MEAN,SD before a return (7.5.6: mean 10 ms)"},
    {"msg_delay", PB_OPT_STRING, S_OFF(msg_delay), "50ms,5ms", PB_OPT_NORANGE,
     "default Gaussian delay MEAN,SD before a one-way message"},
    {"sd_scale", PB_OPT_DOUBLE, S_OFF(sd_scale), "1", 0, 1e6,
     "multiplies every delay standard deviation (7.5.4 delay variation)"},
    {"delay_sd", PB_OPT_DURATION, S_OFF(delay_sd), "-1s", -1, 1e6,
     "if >= 0, replaces every delay standard deviation (7.5.4)"},
    {"instances", PB_OPT_INT, S_OFF(instances), "1", 1, 1000000.0,
     "parallel instances of the shared pool (7.1.1 parallelism)"},
    {"think", PB_OPT_STRING, S_OFF(think), "0", PB_OPT_NORANGE,
     "uniform think time LO..HI between a pool instance's paths (7.1.1)"},
    {"instances_scale", PB_OPT_DOUBLE, S_OFF(instances_scale), "1", 1e-9, 1e7,
     "multiplies every instance count (sweeps of parallelism, 7.5.3)"},
    {"think_scale", PB_OPT_DOUBLE, S_OFF(think_scale), "1", 0, 1e7,
     "multiplies every think time"},
    /* MT_NOPT_BASE: the settings above are described in every "# params:"
     * line; the model settings below only when the config uses a model */
    {"observed", PB_OPT_INT, S_OFF(observed), "0", 0, 1,
     "1: write the observable columns thread, sthread, conn (on with any model)"},
    {"exec", PB_OPT_STRING, S_OFF(exec), "", PB_OPT_NORANGE,
     "execution model of every server node without model=: pool, dispatcher, event, seda"},
    {"handoff", PB_OPT_DOUBLE, S_OFF(handoff), "0", 0, 1,
     "probability that a continuation after a return runs on another worker (pool, dispatcher)"},
    {"threads", PB_OPT_INT, S_OFF(threads), "1", 1, 1000000.0,
     "threads of an event-driven node (exec=event)"},
    {"batch", PB_OPT_INT, S_OFF(batch), "1", 1, 1000000.0,
     "inputs one read of an event-driven thread takes (1: event isolation)"},
    {"stages", PB_OPT_INT, S_OFF(stages), "2", 1, 1000.0,
     "stages of a SEDA node (exec=seda)"},
    {"read_cost", PB_OPT_DURATION, S_OFF(read_cost), "0", 0, 1e6,
     "time one read costs an event-driven thread"},
    {"conn", PB_OPT_STRING, S_OFF(conn), "", PB_OPT_NORANGE,
     "connection model of every link without a link line: new, pool, pipelined, multiplexed"},
    {"conns", PB_OPT_INT, S_OFF(conns), "1", 1, 1000000.0,
     "connections of a pool, pipelined or multiplexed link"},
    {NULL, 0, 0, NULL, 0, 0, NULL}};

/* ------------------------------------------------------------------ */
/* Arena: everything a config owns lives here and goes in one free. */

void *mt_aalloc(mt_config *c, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    mt_arena *a = c->arena;
    if (!a || a->cap - a->used < n) {
        size_t cap = n > 32768 ? n : 32768;
        a = malloc(sizeof *a + cap);
        if (!a)
            return NULL;
        a->next = c->arena;
        a->used = 0;
        a->cap = cap;
        c->arena = a;
    }
    void *p = (char *)a->data + a->used;
    a->used += n;
    memset(p, 0, n);
    return p;
}

char *mt_astrndup(mt_config *c, const char *s, size_t n)
{
    char *p = mt_aalloc(c, n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

/* ------------------------------------------------------------------ */
/* Lexer */

int mt_perr_at(parser *p, long line, long col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = pb_error_vset(p->err, PB_EPARSE, p->file, line, col, fmt, ap);
    va_end(ap);
    return rc;
}

const char *mt_tok_desc(const tok *t, char *buf, size_t n)
{
    switch (t->kind) {
    case T_LBRACE: return "\"{\"";
    case T_RBRACE: return "\"}\"";
    case T_NL: return "end of line";
    case T_EOF: return "end of file";
    default:
        snprintf(buf, n, "\"%.*s\"", (int)(t->len > 40 ? 40 : t->len), t->s);
        return buf;
    }
}

int mt_lex(parser *p, const char *text, size_t len)
{
    size_t cap = 256, n = 0;
    tok *t = malloc(cap * sizeof *t);
    if (!t)
        return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
    long line = 1;
    size_t bol = 0;
    size_t i = 0;
    for (;;) {
        if (n + 1 >= cap) {
            cap *= 2;
            tok *nt = realloc(t, cap * sizeof *t);
            if (!nt) {
                free(t);
                return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
            }
            t = nt;
        }
        while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r'))
            i++;
        tok *k = &t[n];
        k->line = line;
        k->col = (long)(i - bol) + 1;
        k->s = text + i;
        k->len = 0;
        if (i >= len) {
            k->kind = T_EOF;
            n++;
            break;
        }
        char ch = text[i];
        if (ch == '#') {
            while (i < len && text[i] != '\n')
                i++;
            continue;
        }
        if (ch == '\0') {
            long col = k->col;
            free(t);
            return mt_perr_at(p, line, col, "unexpected NUL byte; expected text");
        }
        if (ch == '\n' || ch == ';') {
            k->kind = T_NL;
            k->len = 1;
            i++;
            if (ch == '\n') {
                line++;
                bol = i;
            }
        } else if (ch == '{' || ch == '}') {
            k->kind = ch == '{' ? T_LBRACE : T_RBRACE;
            k->len = 1;
            i++;
        } else {
            k->kind = T_WORD;
            while (i < len && !strchr(" \t\r\n;{}#", text[i]) && text[i] != '\0') {
                /* ${name} stays inside the word */
                if (text[i] == '$' && i + 1 < len && text[i + 1] == '{') {
                    i += 2;
                    while (i < len && (isalnum((unsigned char)text[i]) || text[i] == '_'))
                        i++;
                    if (i < len && text[i] == '}')
                        i++;
                    continue;
                }
                i++;
            }
            k->len = (size_t)(text + i - k->s);
        }
        n++;
    }
    p->t = t;
    p->nt = n;
    p->i = 0;
    return PB_OK;
}

/* ------------------------------------------------------------------ */
/* Variables */

static const mt_var *mt_find_var(const mt_config *c, const char *s, size_t n)
{
    uint32_t i;
    if (c->varidx && pb_strtab_find(c->varidx, s, n, &i) && i < c->nvars)
        return &c->vars[i];
    return NULL;
}

static int is_ident_char(char ch)
{
    return isalnum((unsigned char)ch) || ch == '_';
}

/* Text [s, s+n) with $name and ${name} replaced; located at (line, col). */
static int mt_expand_text(parser *p, const char *s, size_t n, long line, long col,
                       char **out)
{
    if (!memchr(s, '$', n)) {
        *out = mt_astrndup(p->c, s, n);
        return *out ? PB_OK : pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
    }
    pb_strbuf b = {0};
    size_t i = 0;
    while (i < n) {
        if (s[i] != '$') {
            pb_strbuf_putc(&b, s[i++]);
            continue;
        }
        size_t at = i++;
        int brace = i < n && s[i] == '{';
        if (brace)
            i++;
        size_t st = i;
        while (i < n && is_ident_char(s[i]))
            i++;
        size_t en = i;
        if (brace) {
            if (i >= n || s[i] != '}') {
                pb_strbuf_free(&b);
                return mt_perr_at(p, line, col + (long)at,
                               "expected \"}\" to close \"${\" of a variable reference");
            }
            i++;
        }
        if (en == st) {
            pb_strbuf_free(&b);
            return mt_perr_at(p, line, col + (long)at,
                           "expected a variable name after \"$\"");
        }
        const mt_var *v = mt_find_var(p->c, s + st, en - st);
        if (!v) {
            pb_strbuf_free(&b);
            return mt_perr_at(p, line, col + (long)at,
                           "undefined variable \"$%.*s\"; expected one defined "
                           "earlier with \"let %.*s = VALUE\"",
                           (int)(en - st), s + st, (int)(en - st), s + st);
        }
        size_t vl = strlen(v->value);
        int too_long = b.len + vl + (n - i) > MT_MAX_VALUE;
        if (too_long || p->expanded + b.len + vl > MT_MAX_EXPANDED) {
            pb_strbuf_free(&b);
            return mt_perr_at(p, line, col + (long)at,
                           "expanding \"$%.*s\" makes %s longer than %u bytes; "
                           "expected shorter values (a let that repeats another "
                           "variable twice doubles it)", (int)(en - st), s + st,
                           too_long ? "the value" : "all expanded values together",
                           too_long ? MT_MAX_VALUE : MT_MAX_EXPANDED);
        }
        if (pb_strbuf_append(&b, v->value, vl) != PB_OK) {
            pb_strbuf_free(&b);
            return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
        }
    }
    p->expanded += b.len;
    *out = mt_astrndup(p->c, pb_strbuf_str(&b), b.len);
    pb_strbuf_free(&b);
    return *out ? PB_OK : pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
}

int mt_expand(parser *p, const tok *k, char **out)
{
    return mt_expand_text(p, k->s, k->len, k->line, k->col, out);
}

mt_def *mt_find_def(parser *p, const char *name)
{
    mt_def *found = NULL;
    for (size_t i = 0; i < p->ndefs; i++)
        if (!strcmp(p->defs[i].name, name))
            found = &p->defs[i]; /* the last -D of a name wins */
    if (found)
        for (size_t i = 0; i < p->ndefs; i++)
            if (!strcmp(p->defs[i].name, name))
                p->defs[i].used = 1;
    return found;
}

/* ------------------------------------------------------------------ */
/* Values */

/* "MEAN[,SD]", both non-negative durations. */
int mt_parse_delay(const char *v, mt_delay *d, char *why, size_t nwhy)
{
    const char *comma = strchr(v, ',');
    char a[64], b[64];
    size_t la = comma ? (size_t)(comma - v) : strlen(v);
    if (la == 0 || la >= sizeof a || (comma && strlen(comma + 1) >= sizeof b)) {
        snprintf(why, nwhy, "expected a delay MEAN or MEAN,SD such as 50ms,5ms, got \"%s\"", v);
        return PB_EINVAL;
    }
    memcpy(a, v, la);
    a[la] = '\0';
    pb_ns m, s = 0;
    if (pb_duration_parse(a, &m) != PB_OK || m < 0) {
        snprintf(why, nwhy, "expected a non-negative mean delay such as 50ms, got \"%s\"%s", a,
                 pb_duration_hint(a));
        return PB_EINVAL;
    }
    if (comma) {
        strcpy(b, comma + 1);
        if (pb_duration_parse(b, &s) != PB_OK || s < 0) {
            snprintf(why, nwhy, "expected a non-negative standard deviation such as 5ms after \",\", got \"%s\"%s",
                     b, pb_duration_hint(b));
            return PB_EINVAL;
        }
    }
    d->mean = m;
    d->sd = s;
    d->set = 1;
    return PB_OK;
}

/* "LO..HI" or "X": 0 <= LO <= HI. */
int mt_parse_range(const char *v, pb_ns *lo, pb_ns *hi, char *why, size_t nwhy)
{
    const char *dots = strstr(v, "..");
    char a[64];
    size_t la = dots ? (size_t)(dots - v) : strlen(v);
    if (la == 0 || la >= sizeof a) {
        snprintf(why, nwhy, "expected a time range LO..HI such as 100ms..2s, got \"%s\"", v);
        return PB_EINVAL;
    }
    memcpy(a, v, la);
    a[la] = '\0';
    pb_ns l, h;
    if (pb_duration_parse(a, &l) != PB_OK || l < 0) {
        snprintf(why, nwhy, "expected a non-negative duration before \"..\", got \"%s\"%s", a,
                 pb_duration_hint(a));
        return PB_EINVAL;
    }
    h = l;
    if (dots && (pb_duration_parse(dots + 2, &h) != PB_OK || h < 0)) {
        snprintf(why, nwhy, "expected a non-negative duration after \"..\", got \"%s\"%s",
                 dots + 2, pb_duration_hint(dots + 2));
        return PB_EINVAL;
    }
    if (h < l) {
        snprintf(why, nwhy, "expected LO <= HI in the range \"%s\"", v);
        return PB_EINVAL;
    }
    *lo = l;
    *hi = h;
    return PB_OK;
}

int mt_parse_weight(const char *v, double *w)
{
    double x;
    /* weights are relative and summed: a cap keeps any sum of them
     * finite (three weights of 1e308 summed to inf, and every draw then
     * took the last one); decimal only, an underflow is 0, as every
     * number (pb_number_parse: strtod alone took weight=0x10 as 16) */
    if (pb_number_parse(v, strlen(v), &x) != PB_OK || x < 0 || x > MT_WEIGHT_MAX)
        return PB_EINVAL;
    *w = x;
    return PB_OK;
}

int mt_parse_count(const char *v, int *n)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (!*v || *end || errno || !pb_opt_integer(v) || x < 1 || x > 1000000)
        return PB_EINVAL;
    *n = (int)x;
    return PB_OK;
}

static int valid_node_name(const char *s, size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (strchr("|:=,$>[]\\\"'", s[i]))
            return 0;
    return 1;
}

/* "NAME" or "NAME:W|NAME:W|..." at token k (text already expanded). */
int mt_parse_nodes(parser *p, const tok *k, const char *v, mt_nodes *out,
                       int allow_choice)
{
    uint32_t cnt = 1;
    for (const char *q = v; *q; q++)
        cnt += *q == '|';
    if (cnt > 1 && !allow_choice)
        return PERR(p, k, "expected a single node name here, got the choice \"%s\"", v);
    out->n = cnt;
    out->node = mt_aalloc(p->c, cnt * sizeof *out->node);
    out->cum = mt_aalloc(p->c, cnt * sizeof *out->cum);
    if (!out->node || !out->cum)
        return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
    const char *q = v;
    double total = 0;
    for (uint32_t i = 0; i < cnt; i++) {
        const char *e = strchr(q, '|');
        size_t l = e ? (size_t)(e - q) : strlen(q);
        const char *colon = memchr(q, ':', l);
        size_t ln = colon ? (size_t)(colon - q) : l;
        double w = 1;
        if (!valid_node_name(q, ln))
            return PERR(p, k, "expected a node name (not empty, none of | : = , $ > [ ] \\ quotes) "
                        "in \"%s\", got \"%.*s\"", v, (int)ln, q);
        if (colon) {
            char wb[64];
            size_t lw = l - ln - 1;
            if (lw == 0 || lw >= sizeof wb)
                return PERR(p, k, "expected a weight after \":\" in \"%s\"", v);
            memcpy(wb, colon + 1, lw);
            wb[lw] = '\0';
            if (mt_parse_weight(wb, &w) != PB_OK)
                return PERR(p, k, "expected a number from 0 to 1e15 as the weight of "
                            "node %.*s, got \"%s\"", (int)ln, q, wb);
        }
        uint32_t idx;
        if (pb_strtab_intern(p->c->nodes, q, ln, &idx) != PB_OK)
            return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
        total += w;
        out->node[i] = idx;
        out->cum[i] = total;
        q = e ? e + 1 : q + l;
    }
    if (!(total > 0))
        return PERR(p, k, "expected at least one positive weight in \"%s\"", v);
    return PB_OK;
}

/* ------------------------------------------------------------------ */
/* Settings and variables */

int mt_option_index(const char *name)
{
    for (int i = 0; mt_options[i].name; i++)
        if (!strcmp(mt_options[i].name, name))
            return i;
    return -1;
}

/* Check the string-valued settings that have a syntax of their own. */
static int check_setting_text(const char *name, const char *v, char *why, size_t nwhy)
{
    if (!strcmp(name, "call_delay") || !strcmp(name, "ret_delay") ||
        !strcmp(name, "msg_delay")) {
        mt_delay d;
        return mt_parse_delay(v, &d, why, nwhy);
    }
    if (!strcmp(name, "think")) {
        pb_ns lo, hi;
        return mt_parse_range(v, &lo, &hi, why, nwhy);
    }
    return PB_OK;
}

int mt_set_setting(parser *p, const char *name, const char *value,
                       const char *file, long line, long col)
{
    pb_error e;
    pb_error_clear(&e);
    char why[PB_ERROR_MSG_MAX];
    int rc = check_setting_text(name, value, why, sizeof why);
    if (rc != PB_OK)
        return pb_error_set(p->err, PB_EINVAL, file, line, col, "setting %s: %s", name, why);
    rc = pb_opt_set(mt_options, &p->c->s, name, value, &e);
    if (rc != PB_OK)
        return pb_error_set(p->err, rc == PB_ENOENT ? PB_EPARSE : PB_EINVAL, file,
                            line, col, "%s", e.msg);
    return PB_OK;
}

/* NAME=VALUE as one token, or NAME = VALUE, or NAME= VALUE, NAME =VALUE. */
static int mt_parse_assign(parser *p, tok **name_tok, size_t *name_len,
                        tok **val_tok, char **value)
{
    tok *k = next(p);
    *name_tok = k;
    const char *eq = memchr(k->s, '=', k->len);
    if (eq) {
        *name_len = (size_t)(eq - k->s);
        size_t rest = k->len - *name_len - 1;
        if (rest) {
            *val_tok = k;
            return mt_expand_text(p, eq + 1, rest, k->line, k->col + (long)*name_len + 1, value);
        }
    } else {
        *name_len = k->len;
        tok *e = peek(p);
        if (e->kind != T_WORD || e->s[0] != '=') {
            char b[64];
            return PERR(p, e, "expected \"=\" after \"%.*s\", got %s", (int)k->len,
                        k->s, mt_tok_desc(e, b, sizeof b));
        }
        next(p);
        if (e->len > 1) {
            *val_tok = e;
            return mt_expand_text(p, e->s + 1, e->len - 1, e->line, e->col + 1, value);
        }
    }
    tok *v = peek(p);
    if (v->kind != T_WORD) {
        char b[64];
        return PERR(p, v, "expected a value after \"=\", got %s", mt_tok_desc(v, b, sizeof b));
    }
    next(p);
    *val_tok = v;
    return mt_expand(p, v, value);
}

int mt_expect_eol(parser *p, const char *after)
{
    tok *k = peek(p);
    if (k->kind == T_NL || k->kind == T_EOF)
        return PB_OK;
    char b[64];
    return PERR(p, k, "expected end of line after %s, got %s", after, mt_tok_desc(k, b, sizeof b));
}

int mt_valid_ident(const char *s, size_t n)
{
    if (n == 0 || isdigit((unsigned char)s[0]))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!is_ident_char(s[i]))
            return 0;
    return 1;
}

int mt_parse_setting_line(parser *p)
{
    tok *nt, *vt;
    size_t nl;
    char *value;
    int rc = mt_parse_assign(p, &nt, &nl, &vt, &value);
    if (rc != PB_OK)
        return rc;
    char name[128];
    if (nl == 0 || nl >= sizeof name)
        return PERR(p, nt, "expected a setting name before \"=\"");
    memcpy(name, nt->s, nl);
    name[nl] = '\0';
    int oi = mt_option_index(name);
    if (oi < 0) {
        pb_strbuf b = {0};
        for (int i = 0; mt_options[i].name; i++)
            pb_strbuf_printf(&b, "%s%s", i ? ", " : "", mt_options[i].name);
        rc = PERR(p, nt, "unknown setting \"%s\"; expected one of: %s "
                  "(or \"let %s = VALUE\" for a variable)", name, pb_strbuf_str(&b), name);
        pb_strbuf_free(&b);
        return rc;
    }
    if (p->set_line && p->set_line[oi])
        return PERR(p, nt, "setting \"%s\" is given twice (first at line %ld); "
                    "expected each setting once", name, p->set_line[oi]);
    if (p->set_line)
        p->set_line[oi] = nt->line;
    if (!p->locked[oi]) {
        rc = mt_set_setting(p, name, value, p->file, vt->line, vt->col);
        if (rc != PB_OK)
            return rc;
    }
    return mt_expect_eol(p, "the setting's value");
}

int mt_parse_let(parser *p)
{
    next(p); /* let */
    tok *nt, *vt;
    size_t nl;
    char *value;
    if (peek(p)->kind != T_WORD)
        return PERR(p, peek(p), "expected a variable name after \"let\"");
    int rc = mt_parse_assign(p, &nt, &nl, &vt, &value);
    if (rc != PB_OK)
        return rc;
    if (!mt_valid_ident(nt->s, nl))
        return PERR(p, nt, "expected a variable name (letters, digits, _) after \"let\", got \"%.*s\"",
                    (int)nl, nt->s);
    char *name = mt_astrndup(p->c, nt->s, nl);
    if (!name)
        return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
    if (mt_option_index(name) >= 0)
        return PERR(p, nt, "\"%s\" is a setting, not a variable; expected \"%s = VALUE\" without let",
                    name, name);
    if (mt_find_var(p->c, name, nl))
        return PERR(p, nt, "variable \"%s\" is defined twice; expected each let name once", name);
    mt_def *d = mt_find_def(p, name);
    if (d) {
        value = mt_astrndup(p->c, d->value, strlen(d->value));
        if (!value)
            return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
    }
    mt_config *c = p->c;
    if (c->nvars == c->varcap) {
        size_t cap = c->varcap ? 2 * c->varcap : 16;
        mt_var *nv = realloc(c->vars, cap * sizeof *nv);
        if (!nv)
            return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
        c->vars = nv;
        c->varcap = cap;
    }
    uint32_t vi;
    if ((!c->varidx && pb_strtab_init(&c->varidx) != PB_OK) ||
        pb_strtab_intern(c->varidx, name, nl, &vi) != PB_OK || vi != c->nvars)
        return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
    c->vars[c->nvars].name = name;
    c->vars[c->nvars].value = value;
    c->nvars++;
    return mt_expect_eol(p, "the variable's value");
}

