/*
 * mt_config.c - the maketrace config language: lexer, parser, static
 * checks and the settings table.  The language is documented for users in
 * docs/maketrace.md.
 */
#include "mt_internal.h"

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
    {NULL, 0, 0, NULL, 0, 0, NULL}};

/* ------------------------------------------------------------------ */
/* Arena: everything a config owns lives here and goes in one free. */

typedef struct mt_arena {
    struct mt_arena *next;
    size_t used, cap;
    max_align_t data[];
} mt_arena;

static void *aalloc(mt_config *c, size_t n)
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

static char *astrndup(mt_config *c, const char *s, size_t n)
{
    char *p = aalloc(c, n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

/* ------------------------------------------------------------------ */
/* Lexer */

enum { T_WORD, T_LBRACE, T_RBRACE, T_NL, T_EOF };

typedef struct tok {
    int kind;
    long line, col;
    const char *s;
    size_t len;
} tok;

typedef struct mt_def {
    char *name, *value;
    int used;
} mt_def;

typedef struct parser {
    mt_config *c;
    const char *file;
    tok *t;
    size_t nt, i;
    pb_error *err;
    mt_def *defs;
    size_t ndefs;
    unsigned char *locked;  /* per mt_options entry: set by -D */
    size_t expanded;        /* bytes produced by $variable expansion so far */
} parser;

/* Caps on $variable expansion: "let b = $a$a" doubles a value, so 40 such
 * lines would otherwise reach terabytes. */
#define MT_MAX_VALUE (64u * 1024)            /* one expanded value */
#define MT_MAX_EXPANDED (16u * 1024 * 1024)  /* all expansions of a config */

static int perr_at(parser *p, long line, long col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static int perr_at(parser *p, long line, long col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = pb_error_vset(p->err, PB_EPARSE, p->file, line, col, fmt, ap);
    va_end(ap);
    return rc;
}

#define PERR(p, tk, ...) perr_at((p), (tk)->line, (tk)->col, __VA_ARGS__)

static const char *tok_desc(const tok *t, char *buf, size_t n)
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

static int lex(parser *p, const char *text, size_t len)
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
            return perr_at(p, line, col, "unexpected NUL byte; expected text");
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

static tok *peek(parser *p) { return &p->t[p->i]; }
static tok *next(parser *p)
{
    tok *k = &p->t[p->i];
    if (k->kind != T_EOF)
        p->i++;
    return k;
}
static void skip_nl(parser *p)
{
    while (peek(p)->kind == T_NL)
        p->i++;
}
static int is_word(const tok *k, const char *w)
{
    return k->kind == T_WORD && k->len == strlen(w) && !memcmp(k->s, w, k->len);
}

/* ------------------------------------------------------------------ */
/* Variables */

static const mt_var *find_var(const mt_config *c, const char *s, size_t n)
{
    for (size_t i = 0; i < c->nvars; i++)
        if (strlen(c->vars[i].name) == n && !memcmp(c->vars[i].name, s, n))
            return &c->vars[i];
    return NULL;
}

static int is_ident_char(char ch)
{
    return isalnum((unsigned char)ch) || ch == '_';
}

/* Text [s, s+n) with $name and ${name} replaced; located at (line, col). */
static int expand_text(parser *p, const char *s, size_t n, long line, long col,
                       char **out)
{
    if (!memchr(s, '$', n)) {
        *out = astrndup(p->c, s, n);
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
                return perr_at(p, line, col + (long)at,
                               "expected \"}\" to close \"${\" of a variable reference");
            }
            i++;
        }
        if (en == st) {
            pb_strbuf_free(&b);
            return perr_at(p, line, col + (long)at,
                           "expected a variable name after \"$\"");
        }
        const mt_var *v = find_var(p->c, s + st, en - st);
        if (!v) {
            pb_strbuf_free(&b);
            return perr_at(p, line, col + (long)at,
                           "undefined variable \"$%.*s\"; expected one defined "
                           "earlier with \"let %.*s = VALUE\"",
                           (int)(en - st), s + st, (int)(en - st), s + st);
        }
        size_t vl = strlen(v->value);
        int too_long = b.len + vl + (n - i) > MT_MAX_VALUE;
        if (too_long || p->expanded + b.len + vl > MT_MAX_EXPANDED) {
            pb_strbuf_free(&b);
            return perr_at(p, line, col + (long)at,
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
    *out = astrndup(p->c, pb_strbuf_str(&b), b.len);
    pb_strbuf_free(&b);
    return *out ? PB_OK : pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
}

static int expand(parser *p, const tok *k, char **out)
{
    return expand_text(p, k->s, k->len, k->line, k->col, out);
}

static mt_def *find_def(parser *p, const char *name)
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
static int parse_delay(const char *v, mt_delay *d, char *why, size_t nwhy)
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
        snprintf(why, nwhy, "expected a non-negative mean delay such as 50ms, got \"%s\"", a);
        return PB_EINVAL;
    }
    if (comma) {
        strcpy(b, comma + 1);
        if (pb_duration_parse(b, &s) != PB_OK || s < 0) {
            snprintf(why, nwhy, "expected a non-negative standard deviation such as 5ms after \",\", got \"%s\"", b);
            return PB_EINVAL;
        }
    }
    d->mean = m;
    d->sd = s;
    d->set = 1;
    return PB_OK;
}

/* "LO..HI" or "X": 0 <= LO <= HI. */
static int parse_range(const char *v, pb_ns *lo, pb_ns *hi, char *why, size_t nwhy)
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
        snprintf(why, nwhy, "expected a non-negative duration before \"..\", got \"%s\"", a);
        return PB_EINVAL;
    }
    h = l;
    if (dots && (pb_duration_parse(dots + 2, &h) != PB_OK || h < 0)) {
        snprintf(why, nwhy, "expected a non-negative duration after \"..\", got \"%s\"", dots + 2);
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

static int parse_weight(const char *v, double *w)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (!*v || *end || errno || !isfinite(x) || x < 0)
        return PB_EINVAL;
    *w = x;
    return PB_OK;
}

static int parse_count(const char *v, int *n)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (!*v || *end || errno || x < 1 || x > 1000000)
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
static int parse_nodes(parser *p, const tok *k, const char *v, mt_nodes *out,
                       int allow_choice)
{
    uint32_t cnt = 1;
    for (const char *q = v; *q; q++)
        cnt += *q == '|';
    if (cnt > 1 && !allow_choice)
        return PERR(p, k, "expected a single node name here, got the choice \"%s\"", v);
    out->n = cnt;
    out->node = aalloc(p->c, cnt * sizeof *out->node);
    out->cum = aalloc(p->c, cnt * sizeof *out->cum);
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
            if (parse_weight(wb, &w) != PB_OK)
                return PERR(p, k, "expected a non-negative number as the weight of "
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

static int option_index(const char *name)
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
        return parse_delay(v, &d, why, nwhy);
    }
    if (!strcmp(name, "think")) {
        pb_ns lo, hi;
        return parse_range(v, &lo, &hi, why, nwhy);
    }
    return PB_OK;
}

static int set_setting(parser *p, const char *name, const char *value,
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
static int parse_assign(parser *p, tok **name_tok, size_t *name_len,
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
            return expand_text(p, eq + 1, rest, k->line, k->col + (long)*name_len + 1, value);
        }
    } else {
        *name_len = k->len;
        tok *e = peek(p);
        if (e->kind != T_WORD || e->s[0] != '=') {
            char b[64];
            return PERR(p, e, "expected \"=\" after \"%.*s\", got %s", (int)k->len,
                        k->s, tok_desc(e, b, sizeof b));
        }
        next(p);
        if (e->len > 1) {
            *val_tok = e;
            return expand_text(p, e->s + 1, e->len - 1, e->line, e->col + 1, value);
        }
    }
    tok *v = peek(p);
    if (v->kind != T_WORD) {
        char b[64];
        return PERR(p, v, "expected a value after \"=\", got %s", tok_desc(v, b, sizeof b));
    }
    next(p);
    *val_tok = v;
    return expand(p, v, value);
}

static int expect_eol(parser *p, const char *after)
{
    tok *k = peek(p);
    if (k->kind == T_NL || k->kind == T_EOF)
        return PB_OK;
    char b[64];
    return PERR(p, k, "expected end of line after %s, got %s", after, tok_desc(k, b, sizeof b));
}

static int valid_ident(const char *s, size_t n)
{
    if (n == 0 || isdigit((unsigned char)s[0]))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!is_ident_char(s[i]))
            return 0;
    return 1;
}

static int parse_setting_line(parser *p)
{
    tok *nt, *vt;
    size_t nl;
    char *value;
    int rc = parse_assign(p, &nt, &nl, &vt, &value);
    if (rc != PB_OK)
        return rc;
    char name[128];
    if (nl == 0 || nl >= sizeof name)
        return PERR(p, nt, "expected a setting name before \"=\"");
    memcpy(name, nt->s, nl);
    name[nl] = '\0';
    int oi = option_index(name);
    if (oi < 0) {
        pb_strbuf b = {0};
        for (int i = 0; mt_options[i].name; i++)
            pb_strbuf_printf(&b, "%s%s", i ? ", " : "", mt_options[i].name);
        rc = PERR(p, nt, "unknown setting \"%s\"; expected one of: %s "
                  "(or \"let %s = VALUE\" for a variable)", name, pb_strbuf_str(&b), name);
        pb_strbuf_free(&b);
        return rc;
    }
    if (!p->locked[oi]) {
        rc = set_setting(p, name, value, p->file, vt->line, vt->col);
        if (rc != PB_OK)
            return rc;
    }
    return expect_eol(p, "the setting's value");
}

static int parse_let(parser *p)
{
    next(p); /* let */
    tok *nt, *vt;
    size_t nl;
    char *value;
    if (peek(p)->kind != T_WORD)
        return PERR(p, peek(p), "expected a variable name after \"let\"");
    int rc = parse_assign(p, &nt, &nl, &vt, &value);
    if (rc != PB_OK)
        return rc;
    if (!valid_ident(nt->s, nl))
        return PERR(p, nt, "expected a variable name (letters, digits, _) after \"let\", got \"%.*s\"",
                    (int)nl, nt->s);
    char *name = astrndup(p->c, nt->s, nl);
    if (!name)
        return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
    if (option_index(name) >= 0)
        return PERR(p, nt, "\"%s\" is a setting, not a variable; expected \"%s = VALUE\" without let",
                    name, name);
    if (find_var(p->c, name, nl))
        return PERR(p, nt, "variable \"%s\" is defined twice; expected each let name once", name);
    mt_def *d = find_def(p, name);
    if (d) {
        value = astrndup(p->c, d->value, strlen(d->value));
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
    c->vars[c->nvars].name = name;
    c->vars[c->nvars].value = value;
    c->nvars++;
    return expect_eol(p, "the variable's value");
}

/* ------------------------------------------------------------------ */
/* Tracelet bodies */

typedef struct opvec {
    mt_op **v;
    uint32_t n, cap;
} opvec;

static int opvec_push(parser *p, opvec *o, mt_op *op)
{
    if (o->n == o->cap) {
        uint32_t cap = o->cap ? 2 * o->cap : 8;
        mt_op **nv = realloc(o->v, cap * sizeof *nv);
        if (!nv)
            return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
        o->v = nv;
        o->cap = cap;
    }
    o->v[o->n++] = op;
    return PB_OK;
}

static int opvec_finish(parser *p, opvec *o, mt_op *op)
{
    op->nkids = o->n;
    op->kids = aalloc(p->c, (o->n ? o->n : 1) * sizeof *op->kids);
    if (!op->kids) {
        free(o->v);
        return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
    }
    if (o->n)
        memcpy(op->kids, o->v, o->n * sizeof *op->kids);
    free(o->v);
    o->v = NULL;
    return PB_OK;
}

static mt_op *new_op(parser *p, int kind, long line)
{
    mt_op *op = aalloc(p->c, sizeof *op);
    if (op) {
        op->kind = kind;
        op->line = line;
        op->wait_node = -1;
    }
    return op;
}

static int parse_stmt(parser *p, mt_op **out, int depth);

/* After "{": statements up to the matching "}" (consumed). */
static int parse_block(parser *p, const tok *open, mt_op *op, int depth)
{
    opvec o = {0};
    for (;;) {
        skip_nl(p);
        tok *k = peek(p);
        if (k->kind == T_RBRACE) {
            next(p);
            return opvec_finish(p, &o, op);
        }
        if (k->kind == T_EOF) {
            free(o.v);
            return PERR(p, k, "expected \"}\" to close the \"{\" of line %ld", open->line);
        }
        mt_op *s = NULL;
        int rc = parse_stmt(p, &s, depth + 1);
        if (rc == PB_OK)
            rc = opvec_push(p, &o, s);
        if (rc != PB_OK) {
            free(o.v);
            return rc;
        }
        tok *e = peek(p);
        if (e->kind != T_NL && e->kind != T_RBRACE) {
            char b[64];
            free(o.v);
            return PERR(p, e, "expected end of statement (new line, \";\" or \"}\"), got %s",
                        tok_desc(e, b, sizeof b));
        }
    }
}

static int expect_lbrace(parser *p, const char *what, tok **open)
{
    tok *k = peek(p);
    if (k->kind != T_LBRACE) {
        char b[64];
        return PERR(p, k, "expected \"{\" after %s, got %s", what, tok_desc(k, b, sizeof b));
    }
    *open = next(p);
    return PB_OK;
}

static int parse_stmt(parser *p, mt_op **out, int depth)
{
    tok *k = next(p);
    char b[64];
    if (depth > 200)
        return PERR(p, k, "blocks nested too deep (more than 200 levels)");
    if (k->kind != T_WORD)
        return PERR(p, k, "expected a statement (call, send, par, seq, choose, wait), got %s",
                    tok_desc(k, b, sizeof b));
    int kind;
    if (is_word(k, "call"))
        kind = MT_OP_CALL;
    else if (is_word(k, "send"))
        kind = MT_OP_SEND;
    else if (is_word(k, "par"))
        kind = MT_OP_PAR;
    else if (is_word(k, "seq"))
        kind = MT_OP_SEQ;
    else if (is_word(k, "choose"))
        kind = MT_OP_CHOOSE;
    else if (is_word(k, "wait"))
        kind = MT_OP_WAIT;
    else
        return PERR(p, k, "unknown statement %s; expected call, send, par, seq, choose or wait",
                    tok_desc(k, b, sizeof b));
    mt_op *op = new_op(p, kind, k->line);
    if (!op)
        return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
    *out = op;
    int rc;
    tok *open;
    switch (kind) {
    case MT_OP_CALL:
    case MT_OP_SEND: {
        tok *nk = peek(p);
        if (nk->kind != T_WORD)
            return PERR(p, nk, "expected a node (NAME or NAME:W|NAME:W...) after %s, got %s",
                        kind == MT_OP_CALL ? "call" : "send", tok_desc(nk, b, sizeof b));
        next(p);
        char *v;
        if ((rc = expand(p, nk, &v)) != PB_OK ||
            (rc = parse_nodes(p, nk, v, &op->to, 1)) != PB_OK)
            return rc;
        while (peek(p)->kind == T_WORD) {
            tok *a = next(p);
            char *av;
            if ((rc = expand(p, a, &av)) != PB_OK)
                return rc;
            mt_delay *d = NULL;
            if (!strncmp(av, "delay=", 6))
                d = &op->d;
            else if (!strncmp(av, "ret=", 4) && kind == MT_OP_CALL)
                d = &op->r;
            if (!d)
                return PERR(p, a, "unknown attribute \"%s\"; expected %s", av,
                            kind == MT_OP_CALL ? "delay=MEAN,SD, ret=MEAN,SD or \"{\""
                                               : "delay=MEAN,SD or \"{\"");
            char why[PB_ERROR_MSG_MAX];
            if (parse_delay(strchr(av, '=') + 1, d, why, sizeof why) != PB_OK)
                return PERR(p, a, "%s", why);
        }
        if (peek(p)->kind == T_LBRACE) {
            open = next(p);
            return parse_block(p, open, op, depth);
        }
        op->nkids = 0;
        return PB_OK;
    }
    case MT_OP_SEQ:
    case MT_OP_PAR:
        if ((rc = expect_lbrace(p, kind == MT_OP_PAR ? "par" : "seq", &open)) != PB_OK ||
            (rc = parse_block(p, open, op, depth)) != PB_OK)
            return rc;
        if (kind == MT_OP_PAR && op->nkids == 0)
            return PERR(p, k, "par needs at least one branch; expected statements inside its braces");
        return PB_OK;
    case MT_OP_CHOOSE: {
        if ((rc = expect_lbrace(p, "choose", &open)) != PB_OK)
            return rc;
        opvec o = {0};
        double total = 0;
        double *w = NULL;
        for (;;) {
            skip_nl(p);
            tok *wk = peek(p);
            if (wk->kind == T_RBRACE) {
                next(p);
                break;
            }
            double x;
            char *wv = NULL;
            if (wk->kind != T_WORD || expand(p, wk, &wv) != PB_OK ||
                parse_weight(wv, &x) != PB_OK) {
                free(o.v);
                free(w);
                if (wk->kind == T_EOF)
                    return PERR(p, wk, "expected \"}\" to close the \"{\" of line %ld", open->line);
                return PERR(p, wk, "expected a branch weight (a non-negative number) "
                            "followed by \"{\" inside choose, got %s", tok_desc(wk, b, sizeof b));
            }
            next(p);
            tok *bo;
            mt_op *br = new_op(p, MT_OP_SEQ, wk->line);
            if (!br || (rc = expect_lbrace(p, "a choose weight", &bo)) != PB_OK ||
                (rc = parse_block(p, bo, br, depth + 1)) != PB_OK ||
                (rc = opvec_push(p, &o, br)) != PB_OK) {
                free(o.v);
                free(w);
                return br ? rc : pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
            }
            double *nw = realloc(w, o.n * sizeof *nw);
            if (!nw) {
                free(o.v);
                free(w);
                return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
            }
            w = nw;
            total += x;
            w[o.n - 1] = total;
        }
        if (o.n == 0 || !(total > 0)) {
            free(o.v);
            free(w);
            return PERR(p, k, "choose needs at least one branch with a positive weight");
        }
        op->kcum = aalloc(p->c, o.n * sizeof *op->kcum);
        if (!op->kcum) {
            free(o.v);
            free(w);
            return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
        }
        memcpy(op->kcum, w, o.n * sizeof *w);
        free(w);
        return opvec_finish(p, &o, op);
    }
    case MT_OP_WAIT: {
        tok *dk = peek(p);
        char *dv;
        if (dk->kind != T_WORD)
            return PERR(p, dk, "expected a duration after wait, got %s", tok_desc(dk, b, sizeof b));
        next(p);
        if ((rc = expand(p, dk, &dv)) != PB_OK)
            return rc;
        if (pb_duration_parse(dv, &op->wait) != PB_OK || op->wait < 0)
            return PERR(p, dk, "expected a non-negative duration such as 200ms after wait, got \"%s\"", dv);
        if (is_word(peek(p), "at")) {
            next(p);
            tok *nk = peek(p);
            if (nk->kind != T_WORD)
                return PERR(p, nk, "expected a node name after \"at\", got %s", tok_desc(nk, b, sizeof b));
            next(p);
            char *nv;
            mt_nodes nn;
            if ((rc = expand(p, nk, &nv)) != PB_OK ||
                (rc = parse_nodes(p, nk, nv, &nn, 0)) != PB_OK)
                return rc;
            op->wait_node = (int32_t)nn.node[0];
        }
        return PB_OK;
    }
    }
    return PB_OK;
}

/* ------------------------------------------------------------------ */
/* Interleavings: LABEL call|return|msg SRC -> DST [delay=MEAN,SD] */

static int parse_interleave(parser *p, mt_tracelet *tr, const tok *open)
{
    size_t cap = 16, n = 0;
    mt_iline *il = malloc(cap * sizeof *il);
    char **labels = NULL;
    uint32_t nlabels = 0;
    int rc = PB_OK;
    char b[64];
    if (!il)
        return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
    for (;;) {
        skip_nl(p);
        tok *k = peek(p);
        if (k->kind == T_RBRACE) {
            next(p);
            break;
        }
        if (k->kind != T_WORD) {
            rc = k->kind == T_EOF
                     ? PERR(p, k, "expected \"}\" to close the \"{\" of line %ld", open->line)
                     : PERR(p, k, "expected a message line LABEL call|return|msg SRC -> DST, got %s",
                            tok_desc(k, b, sizeof b));
            goto out;
        }
        if (n == cap) {
            cap *= 2;
            mt_iline *ni = realloc(il, cap * sizeof *ni);
            if (!ni) {
                rc = pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
                goto out;
            }
            il = ni;
        }
        mt_iline *l = &il[n];
        memset(l, 0, sizeof *l);
        l->line = k->line;
        l->pair = -1;
        tok *w[5];
        for (int j = 0; j < 5; j++) {
            w[j] = peek(p);
            static const char *const what[] = {"a path label", "call, return or msg",
                                               "a sender node", "\"->\" between sender and receiver",
                                               "a receiver node"};
            if (w[j]->kind != T_WORD ||
                (j == 1 && !is_word(w[j], "call") && !is_word(w[j], "return") &&
                 !is_word(w[j], "msg")) ||
                (j == 3 && !is_word(w[j], "->"))) {
                rc = PERR(p, w[j], "expected %s (message line LABEL call|return|msg SRC -> DST), got %s",
                          what[j], tok_desc(w[j], b, sizeof b));
                goto out;
            }
            next(p);
        }
        char *lab, *src, *dst;
        if ((rc = expand(p, w[0], &lab)) != PB_OK || (rc = expand(p, w[2], &src)) != PB_OK ||
            (rc = expand(p, w[4], &dst)) != PB_OK)
            goto out;
        if (is_word(w[1], "call"))
            l->type = PB_TYPE_CALL;
        else if (is_word(w[1], "return"))
            l->type = PB_TYPE_RETURN;
        else if (is_word(w[1], "msg"))
            l->type = PB_TYPE_MSG;
        else {
            rc = PERR(p, w[1], "expected call, return or msg, got %s", tok_desc(w[1], b, sizeof b));
            goto out;
        }
        if (!is_word(w[3], "->")) {
            rc = PERR(p, w[3], "expected \"->\" between sender and receiver, got %s",
                      tok_desc(w[3], b, sizeof b));
            goto out;
        }
        mt_nodes ns, nd;
        if ((rc = parse_nodes(p, w[2], src, &ns, 0)) != PB_OK ||
            (rc = parse_nodes(p, w[4], dst, &nd, 0)) != PB_OK)
            goto out;
        l->src = ns.node[0];
        l->dst = nd.node[0];
        if (l->src == l->dst) {
            rc = PERR(p, w[4], "expected a receiver other than the sender \"%s\"", src);
            goto out;
        }
        uint32_t li;
        for (li = 0; li < nlabels; li++)
            if (!strcmp(labels[li], lab))
                break;
        if (li == nlabels) {
            char **nl = realloc(labels, (nlabels + 1) * sizeof *nl);
            if (!nl) {
                rc = pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
                goto out;
            }
            labels = nl;
            labels[nlabels++] = lab;
        }
        l->label = li;
        while (peek(p)->kind == T_WORD) {
            tok *a = next(p);
            char *av;
            char why[PB_ERROR_MSG_MAX];
            if ((rc = expand(p, a, &av)) != PB_OK)
                goto out;
            if (strncmp(av, "delay=", 6)) {
                rc = PERR(p, a, "unknown attribute \"%s\"; expected delay=MEAN,SD", av);
                goto out;
            }
            if (parse_delay(av + 6, &l->d, why, sizeof why) != PB_OK) {
                rc = PERR(p, a, "%s", why);
                goto out;
            }
        }
        /* Static checks: each path is one tree, calls pair with returns. */
        int first = 1, received = 0;
        for (size_t j = 0; j < n; j++) {
            if (il[j].label != li)
                continue;
            first = 0;
            if (il[j].dst == l->src)
                received = 1;
        }
        if (!first && !received) {
            rc = PERR(p, w[2], "node %s sends in path %s before receiving anything in it; "
                      "expected each path to have one first message, and later senders "
                      "to have received a message of the path", src, lab);
            goto out;
        }
        if (l->type == PB_TYPE_RETURN) {
            for (size_t j = n; j-- > 0;) {
                if (il[j].label != li || il[j].type != PB_TYPE_CALL ||
                    il[j].src != l->dst || il[j].dst != l->src)
                    continue;
                int taken = 0;
                for (size_t q = j + 1; q < n; q++)
                    if (il[q].pair == (int32_t)j)
                        taken = 1;
                if (!taken) {
                    l->pair = (int32_t)j;
                    break;
                }
            }
            if (l->pair < 0) {
                rc = PERR(p, w[1], "return %s -> %s in path %s has no open call %s -> %s before it; "
                          "expected a matching call line earlier", src, dst, lab, dst, src);
                goto out;
            }
        }
        n++;
        tok *e = peek(p);
        if (e->kind != T_NL && e->kind != T_RBRACE) {
            rc = PERR(p, e, "expected end of line, got %s", tok_desc(e, b, sizeof b));
            goto out;
        }
    }
    for (size_t j = 0; j < n; j++) {
        if (il[j].type != PB_TYPE_CALL)
            continue;
        int paired = 0;
        for (size_t q = j + 1; q < n; q++)
            if (il[q].pair == (int32_t)j)
                paired = 1;
        if (!paired) {
            rc = perr_at(p, il[j].line, 0, "call in path %s has no return; expected a "
                         "matching return line before the \"}\" of line %ld",
                         labels[il[j].label], open->line);
            goto out;
        }
    }
    if (n == 0) {
        rc = PERR(p, open, "interleave tracelet %s has no messages; expected message lines", tr->name);
        goto out;
    }
    tr->il = aalloc(p->c, n * sizeof *il);
    if (!tr->il) {
        rc = pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
        goto out;
    }
    memcpy(tr->il, il, n * sizeof *il);
    tr->nil = (uint32_t)n;
    tr->nlabels = nlabels;
out:
    free(il);
    free(labels);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Static checks of a tree tracelet */

/* Walk the ops tracking whether the current node has received a message of
 * the path (has) and how many messages were sent without one (roots). */
static void root_walk(const mt_op *op, int *has, uint32_t *roots, uint64_t *maxmsgs)
{
    switch (op->kind) {
    case MT_OP_CALL: {
        if (!*has)
            (*roots)++;
        int h = 1;
        uint32_t r = 0;
        uint64_t m = 0;
        for (uint32_t i = 0; i < op->nkids; i++)
            root_walk(op->kids[i], &h, &r, &m);
        *maxmsgs += 2 + m;
        *has = 1;
        return;
    }
    case MT_OP_SEND: {
        if (!*has)
            (*roots)++;
        int h = 1;
        uint32_t r = 0;
        uint64_t m = 0;
        for (uint32_t i = 0; i < op->nkids; i++)
            root_walk(op->kids[i], &h, &r, &m);
        *maxmsgs += 1 + m;
        return;
    }
    case MT_OP_SEQ:
        for (uint32_t i = 0; i < op->nkids; i++)
            root_walk(op->kids[i], has, roots, maxmsgs);
        return;
    case MT_OP_PAR: {
        int any = *has;
        uint32_t r = 0;
        for (uint32_t i = 0; i < op->nkids; i++) {
            int h = *has;
            root_walk(op->kids[i], &h, &r, maxmsgs);
            any |= h;
        }
        *roots += r;
        *has = any;
        return;
    }
    case MT_OP_CHOOSE: {
        int all = 1;
        uint32_t rmax = 0;
        uint64_t mmax = 0;
        for (uint32_t i = 0; i < op->nkids; i++) {
            int h = *has;
            uint32_t r = 0;
            uint64_t m = 0;
            root_walk(op->kids[i], &h, &r, &m);
            all &= h;
            if (r > rmax)
                rmax = r;
            if (m > mmax)
                mmax = m;
        }
        *roots += rmax;
        *maxmsgs += mmax;
        *has = all;
        return;
    }
    default:
        return;
    }
}

/* v * f in ns, kept within [0, INT64_MAX / 4] so that no scale overflows. */
static pb_ns scale_ns(pb_ns v, double f)
{
    double x = (double)v * f;
    if (!(x > 0))
        return 0;
    if (x >= (double)(INT64_MAX / 4))
        return INT64_MAX / 4;
    return (pb_ns)llround(x);
}

static void fill_delays(mt_op *op, const mt_delay *dc, const mt_delay *dr,
                        const mt_delay *dm, const mt_settings *s, int *adv)
{
    mt_delay *ds[2] = {&op->d, &op->r};
    if (op->kind == MT_OP_CALL || op->kind == MT_OP_SEND) {
        if (!op->d.set)
            op->d = op->kind == MT_OP_CALL ? *dc : *dm;
        if (op->kind == MT_OP_CALL && !op->r.set)
            op->r = *dr;
        for (int i = 0; i < (op->kind == MT_OP_CALL ? 2 : 1); i++) {
            ds[i]->sd = s->delay_sd >= 0 ? s->delay_sd
                                         : scale_ns(ds[i]->sd, s->sd_scale);
            if (ds[i]->mean > 0 || ds[i]->sd > 0)
                *adv = 1;
        }
    }
    if (op->kind == MT_OP_WAIT && op->wait > 0)
        *adv = 1;
    for (uint32_t i = 0; i < op->nkids; i++)
        fill_delays(op->kids[i], dc, dr, dm, s, adv);
}

/* ------------------------------------------------------------------ */
/* Tracelets */

static int apply_tracelet_field(parser *p, mt_tracelet *tr, const char *field,
                                const char *v, const char *file, long line, long col)
{
    char why[PB_ERROR_MSG_MAX];
    if (!strcmp(field, "weight")) {
        if (parse_weight(v, &tr->weight) != PB_OK)
            return pb_error_set(p->err, PB_EPARSE, file, line, col,
                                "tracelet %s: expected weight=W with W a non-negative number, got \"%s\"",
                                tr->name, v);
    } else if (!strcmp(field, "instances")) {
        if (parse_count(v, &tr->instances) != PB_OK)
            return pb_error_set(p->err, PB_EPARSE, file, line, col,
                                "tracelet %s: expected instances=N with N an integer in 1..1000000, got \"%s\"",
                                tr->name, v);
    } else if (!strcmp(field, "think")) {
        if (parse_range(v, &tr->think_lo, &tr->think_hi, why, sizeof why) != PB_OK)
            return pb_error_set(p->err, PB_EPARSE, file, line, col, "tracelet %s: think: %s",
                                tr->name, why);
        tr->has_think = 1;
    } else {
        return pb_error_set(p->err, PB_EPARSE, file, line, col,
                            "tracelet %s: unknown attribute \"%s\"; expected from NODE, "
                            "interleave, weight=W, instances=N or think=LO..HI",
                            tr->name, field);
    }
    return PB_OK;
}

static int parse_tracelet(parser *p)
{
    tok *kw = next(p);
    char b[64];
    tok *nk = peek(p);
    if (nk->kind != T_WORD || !valid_ident(nk->s, nk->len))
        return PERR(p, nk, "expected a tracelet name (letters, digits, _) after \"tracelet\", got %s",
                    tok_desc(nk, b, sizeof b));
    next(p);
    mt_config *c = p->c;
    for (size_t i = 0; i < c->ntr; i++)
        if (strlen(c->tr[i].name) == nk->len && !memcmp(c->tr[i].name, nk->s, nk->len))
            return PERR(p, nk, "tracelet \"%.*s\" is defined twice (first at line %ld); "
                        "expected unique names", (int)nk->len, nk->s, c->tr[i].line);
    if (c->ntr == c->trcap) {
        size_t cap = c->trcap ? 2 * c->trcap : 8;
        mt_tracelet *nt = realloc(c->tr, cap * sizeof *nt);
        if (!nt)
            return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
        c->tr = nt;
        c->trcap = cap;
    }
    mt_tracelet *tr = &c->tr[c->ntr];
    memset(tr, 0, sizeof *tr);
    tr->name = astrndup(c, nk->s, nk->len);
    if (!tr->name)
        return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
    tr->line = kw->line;
    tr->weight = 1;
    int has_from = 0;
    int rc;
    for (;;) {
        tok *a = peek(p);
        if (a->kind != T_WORD)
            break;
        next(p);
        if (is_word(a, "interleave")) {
            tr->interleave = 1;
            continue;
        }
        if (is_word(a, "from")) {
            tok *fk = peek(p);
            if (fk->kind != T_WORD)
                return PERR(p, fk, "expected a node after \"from\", got %s", tok_desc(fk, b, sizeof b));
            next(p);
            char *v;
            if ((rc = expand(p, fk, &v)) != PB_OK || (rc = parse_nodes(p, fk, v, &tr->root, 1)) != PB_OK)
                return rc;
            has_from = 1;
            continue;
        }
        char *av;
        if ((rc = expand(p, a, &av)) != PB_OK)
            return rc;
        char *eq = strchr(av, '=');
        if (!eq)
            return PERR(p, a, "tracelet %s: unknown attribute \"%s\"; expected from NODE, "
                        "interleave, weight=W, instances=N, think=LO..HI or \"{\"", tr->name, av);
        *eq = '\0';
        if ((rc = apply_tracelet_field(p, tr, av, eq + 1, p->file, a->line, a->col)) != PB_OK)
            return rc;
    }
    if (tr->interleave && has_from)
        return PERR(p, kw, "tracelet %s: an interleave tracelet names its senders on each line; "
                    "expected no \"from\"", tr->name);
    if (!tr->interleave && !has_from)
        return PERR(p, kw, "tracelet %s: expected \"from NODE\" naming the node that starts its paths "
                    "(or \"interleave\")", tr->name);
    static const char *const fields[] = {"weight", "instances", "think"};
    for (int f = 0; f < 3; f++) {
        char dn[256];
        snprintf(dn, sizeof dn, "%s.%s", tr->name, fields[f]);
        mt_def *d = find_def(p, dn);
        if (d && (rc = apply_tracelet_field(p, tr, fields[f], d->value, "-D", 0, 0)) != PB_OK)
            return rc;
    }
    tok *open;
    if ((rc = expect_lbrace(p, "the tracelet header", &open)) != PB_OK)
        return rc;
    c->ntr++; /* from here on the tracelet is owned by the config */
    if (tr->interleave) {
        if ((rc = parse_interleave(p, tr, open)) != PB_OK)
            return rc;
    } else {
        tr->body = new_op(p, MT_OP_SEQ, open->line);
        if (!tr->body)
            return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
        if ((rc = parse_block(p, open, tr->body, 0)) != PB_OK)
            return rc;
        int has = 0;
        uint32_t roots = 0;
        uint64_t maxm = 0;
        root_walk(tr->body, &has, &roots, &maxm);
        if (maxm == 0)
            return PERR(p, kw, "tracelet %s sends no message; expected at least one call or send",
                        tr->name);
        if (roots > 1)
            return PERR(p, kw, "tracelet %s: its first node may send more than one message "
                        "before receiving one, so a path would have several roots; expected "
                        "one first message (wrap the rest in that call's or send's braces)",
                        tr->name);
        if (maxm > 1000000)
            return PERR(p, kw, "tracelet %s: a path may have %llu messages; expected at most 1000000",
                        tr->name, (unsigned long long)maxm);
        tr->maxmsgs = (uint32_t)maxm;
    }
    return expect_eol(p, "the tracelet's \"}\"");
}

/* ------------------------------------------------------------------ */

static int finish(parser *p)
{
    mt_config *c = p->c;
    mt_settings *s = &c->s;
    if (c->ntr == 0)
        return perr_at(p, 0, 0, "no tracelet; expected at least one \"tracelet NAME from NODE { ... }\"");
    mt_delay dc, dr, dm;
    char why[PB_ERROR_MSG_MAX];
    /* the texts were checked when set */
    parse_delay(s->call_delay, &dc, why, sizeof why);
    parse_delay(s->ret_delay, &dr, why, sizeof why);
    parse_delay(s->msg_delay, &dm, why, sizeof why);
    parse_range(s->think, &c->pool_think_lo, &c->pool_think_hi, why, sizeof why);
    c->pool_think_lo = scale_ns(c->pool_think_lo, s->think_scale);
    c->pool_think_hi = scale_ns(c->pool_think_hi, s->think_scale);
    s->instances = (int)fmin(1e6, fmax(1.0, (double)llround(s->instances * s->instances_scale)));
    int netadv = s->net_delay > 0 || s->net_sd > 0;
    for (size_t i = 0; i < c->ntr; i++) {
        mt_tracelet *tr = &c->tr[i];
        int adv = netadv;
        if (tr->interleave) {
            tr->maxmsgs = tr->nil;
            for (uint32_t j = 0; j < tr->nil; j++) {
                mt_delay *d = &tr->il[j].d;
                if (!d->set)
                    *d = tr->il[j].type == PB_TYPE_CALL ? dc : tr->il[j].type == PB_TYPE_RETURN ? dr : dm;
                d->sd = s->delay_sd >= 0 ? s->delay_sd : scale_ns(d->sd, s->sd_scale);
                if (d->mean > 0 || d->sd > 0)
                    adv = 1;
            }
        } else {
            fill_delays(tr->body, &dc, &dr, &dm, s, &adv);
        }
        if (tr->instances > 0) {
            tr->instances = (int)fmin(1e6, fmax(1.0, (double)llround(tr->instances * s->instances_scale)));
            if (!tr->has_think) {
                tr->think_lo = c->pool_think_lo;
                tr->think_hi = c->pool_think_hi;
            } else {
                tr->think_lo = scale_ns(tr->think_lo, s->think_scale);
                tr->think_hi = scale_ns(tr->think_hi, s->think_scale);
            }
        } else {
            if (tr->has_think)
                return perr_at(p, tr->line, 0, "tracelet %s: think= needs instances= (a tracelet "
                               "without instances= runs in the shared pool, whose think time is "
                               "the \"think\" setting)", tr->name);
            tr->think_lo = c->pool_think_lo;
            tr->think_hi = c->pool_think_hi;
        }
        if (tr->think_hi > 0)
            adv = 1;
        tr->advances = adv;
    }
    int pool_w = 0, pool_n = 0;
    for (size_t i = 0; i < c->ntr; i++)
        if (c->tr[i].instances == 0) {
            pool_n++;
            pool_w |= c->tr[i].weight > 0;
        }
    if (pool_n && !pool_w)
        return perr_at(p, 0, 0, "every tracelet of the shared pool has weight 0; expected at "
                       "least one positive weight");
    for (size_t i = 0; i < p->ndefs; i++)
        if (!p->defs[i].used) {
            pb_strbuf b = {0};
            for (int j = 0; mt_options[j].name; j++)
                pb_strbuf_printf(&b, "%s%s", j ? ", " : "", mt_options[j].name);
            int rc = pb_error_set(p->err, PB_EINVAL, "-D", 0, 0,
                                  "-D %s: no setting, variable (let) or tracelet field "
                                  "(TRACELET.weight, .instances, .think) of that name; settings are: %s",
                                  p->defs[i].name, pb_strbuf_str(&b));
            pb_strbuf_free(&b);
            return rc;
        }
    return PB_OK;
}

int mt_config_parse(const char *text, size_t len, const char *display_name,
                    const char *const *defs, size_t ndefs, mt_config **out,
                    pb_error *err)
{
    *out = NULL;
    mt_config *c = calloc(1, sizeof *c);
    if (!c)
        return pb_error_set(err, PB_ENOMEM, display_name, 0, 0, "out of memory");
    parser p;
    memset(&p, 0, sizeof p);
    p.c = c;
    p.err = err;
    int rc;
    c->file = strdup(display_name ? display_name : "(config)");
    p.file = c->file;
    size_t nopt = 0;
    while (mt_options[nopt].name)
        nopt++;
    p.locked = calloc(nopt, 1);
    p.defs = calloc(ndefs ? ndefs : 1, sizeof *p.defs);
    c->defs = calloc(ndefs ? ndefs : 1, sizeof *c->defs);
    if (!c->file || !p.locked || !p.defs || !c->defs ||
        pb_strtab_init(&c->nodes) != PB_OK) {
        rc = pb_error_set(err, PB_ENOMEM, display_name, 0, 0, "out of memory");
        goto fail;
    }
    if ((rc = pb_opt_defaults(mt_options, &c->s, err)) != PB_OK)
        goto fail;
    for (size_t i = 0; i < ndefs; i++) {
        const char *eq = strchr(defs[i], '=');
        if (!eq || eq == defs[i]) {
            rc = pb_error_set(err, PB_EINVAL, "-D", 0, 0, "-D %s: expected name=value", defs[i]);
            goto fail;
        }
        c->defs[c->ndefs++] = astrndup(c, defs[i], strlen(defs[i]));
        p.defs[i].name = astrndup(c, defs[i], (size_t)(eq - defs[i]));
        p.defs[i].value = astrndup(c, eq + 1, strlen(eq + 1));
        if (!c->defs[i] || !p.defs[i].name || !p.defs[i].value) {
            rc = pb_error_set(err, PB_ENOMEM, display_name, 0, 0, "out of memory");
            goto fail;
        }
        int oi = option_index(p.defs[i].name);
        if (oi >= 0) {
            if ((rc = set_setting(&p, p.defs[i].name, p.defs[i].value, "-D", 0, 0)) != PB_OK)
                goto fail;
            p.locked[oi] = 1;
            p.defs[i].used = 1;
        }
    }
    p.ndefs = ndefs;
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        long ln = 1;
        const char *bol = text;
        for (const char *q = text; q < nul; q++)
            if (*q == '\n') {
                ln++;
                bol = q + 1;
            }
        rc = perr_at(&p, ln, (long)(nul - bol) + 1,
                     "a NUL byte; expected text (a binary or corrupt file?)");
        goto fail;
    }
    size_t bom = len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
    if (bom) {
        /* a UTF-8 byte-order mark: skip it (columns of line 1 count from
         * after it) */
        text += bom;
        len -= bom;
    }
    if ((rc = lex(&p, text, len)) != PB_OK)
        goto fail;
    for (;;) {
        skip_nl(&p);
        tok *k = peek(&p);
        if (k->kind == T_EOF)
            break;
        if (is_word(k, "tracelet"))
            rc = parse_tracelet(&p);
        else if (is_word(k, "let"))
            rc = parse_let(&p);
        else if (k->kind == T_WORD)
            rc = parse_setting_line(&p);
        else {
            char b[64];
            rc = PERR(&p, k, "expected a setting (name = value), let or tracelet, got %s",
                      tok_desc(k, b, sizeof b));
        }
        if (rc != PB_OK)
            goto fail;
    }
    if ((rc = finish(&p)) != PB_OK)
        goto fail;
    free(p.t);
    free(p.locked);
    free(p.defs);
    *out = c;
    return PB_OK;
fail:
    free(p.t);
    free(p.locked);
    free(p.defs);
    mt_config_close(c);
    return rc;
}

int mt_config_load(const char *path, const char *const *defs, size_t ndefs,
                   mt_config **out, pb_error *err)
{
    *out = NULL;
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return pb_error_set(err, PB_EIO, path, 0, 0, "cannot open config: %s", strerror(errno));
    pb_strbuf b = {0};
    char buf[8192];
    size_t n;
    int rc = PB_OK;
    while ((n = fread(buf, 1, sizeof buf, fp)) > 0)
        if (pb_strbuf_append(&b, buf, n) != PB_OK) {
            rc = pb_error_set(err, PB_ENOMEM, path, 0, 0, "out of memory");
            break;
        }
    if (rc == PB_OK && ferror(fp))
        rc = pb_error_set(err, PB_EIO, path, 0, 0, "cannot read config: %s", strerror(errno));
    fclose(fp);
    if (rc == PB_OK)
        rc = mt_config_parse(pb_strbuf_str(&b), b.len, path, defs, ndefs, out, err);
    pb_strbuf_free(&b);
    return rc;
}

void mt_config_close(mt_config *c)
{
    if (!c)
        return;
    mt_arena *a = c->arena;
    while (a) {
        mt_arena *nx = a->next;
        free(a);
        a = nx;
    }
    pb_strtab_close(c->nodes);
    free(c->tr);
    free(c->vars);
    free(c->defs);
    free(c->file);
    free(c);
}

mt_settings *mt_config_settings(mt_config *c) { return &c->s; }
size_t mt_config_ntracelets(const mt_config *c) { return c->ntr; }
const char *mt_config_tracelet_name(const mt_config *c, size_t i) { return c->tr[i].name; }
double mt_config_tracelet_weight(const mt_config *c, size_t i) { return c->tr[i].weight; }
int mt_config_tracelet_instances(const mt_config *c, size_t i) { return c->tr[i].instances; }

void mt_config_tracelet_think(const mt_config *c, size_t i, pb_ns *lo, pb_ns *hi)
{
    *lo = c->tr[i].think_lo;
    *hi = c->tr[i].think_hi;
}

int mt_config_describe(const mt_config *c, pb_strbuf *out)
{
    int rc = pb_opt_describe(mt_options, &c->s, out);
    for (size_t i = 0; i < c->nvars && rc == PB_OK; i++)
        rc = pb_strbuf_printf(out, " $%s=%s", c->vars[i].name, c->vars[i].value);
    for (size_t i = 0; i < c->ntr && rc == PB_OK; i++) {
        const mt_tracelet *tr = &c->tr[i];
        char lo[PB_DURATION_BUF], hi[PB_DURATION_BUF], wb[PB_NUM_BUF];
        pb_duration_format(tr->think_lo, lo);
        pb_duration_format(tr->think_hi, hi);
        rc = pb_strbuf_printf(out, " %s.weight=%s %s.instances=%d %s.think=%s..%s",
                              tr->name, pb_num_format(tr->weight, wb), tr->name,
                              tr->instances, tr->name, lo, hi);
    }
    return rc;
}
