/*
 * mt_parse.h - the maketrace config parser's internals, shared by the
 * lexer and value parsers (mt_lex.c) and the statement parser
 * (mt_config.c).  Not a public API.
 */
#ifndef MT_PARSE_H
#define MT_PARSE_H

#include <stddef.h>
#include <string.h>

#include "mt_internal.h"

/* Arena: everything a config owns lives here and goes in one free. */
typedef struct mt_arena {
    struct mt_arena *next;
    size_t used, cap;
    max_align_t data[];
} mt_arena;

/* Tokens of the line-oriented language. */
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
    unsigned char *locked;  /* per mt_options entry: set by -s/-D */
    long *set_line;         /* per mt_options entry: the config line that
                               set it (a second one is an error), or 0 */
    size_t expanded;        /* bytes produced by $variable expansion so far */
} parser;

/* Caps on $variable expansion: "let b = $a$a" doubles a value, so 40 such
 * lines would otherwise reach terabytes. */
#define MT_MAX_VALUE (64u * 1024)            /* one expanded value */
#define MT_MAX_EXPANDED (16u * 1024 * 1024)  /* all expansions of a config */

static inline tok *peek(parser *p) { return &p->t[p->i]; }
static inline tok *next(parser *p)
{
    tok *k = &p->t[p->i];
    if (k->kind != T_EOF)
        p->i++;
    return k;
}
static inline void skip_nl(parser *p)
{
    while (peek(p)->kind == T_NL)
        p->i++;
}
static inline int is_word(const tok *k, const char *w)
{
    return k->kind == T_WORD && k->len == strlen(w) && !memcmp(k->s, w, k->len);
}

/* Zeroed memory of n bytes owned by c's arena (freed with the config), or
 * NULL when out of memory. */
void *mt_aalloc(mt_config *c, size_t n);

/* A NUL-terminated copy of s[0..n) in c's arena, or NULL. */
char *mt_astrndup(mt_config *c, const char *s, size_t n);

/* Fill p->err with a PB_EPARSE error at (line, col) of the config; returns
 * PB_EPARSE. */
int mt_perr_at(parser *p, long line, long col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* mt_perr_at at token tk. */
#define PERR(p, tk, ...) mt_perr_at((p), (tk)->line, (tk)->col, __VA_ARGS__)

/* A printable description of token t ("\"{\"", "end of line", the quoted
 * word); buf (n bytes) may hold it.  Returns buf or a static string. */
const char *mt_tok_desc(const tok *t, char *buf, size_t n);

/* Split text[0..len) into tokens (p->t, p->nt, owned by p).  Returns PB_OK,
 * PB_EPARSE (a NUL byte) or PB_ENOMEM. */
int mt_lex(parser *p, const char *text, size_t len);

/* Token k with $name / ${name} replaced by the variables' values; *out is
 * arena memory.  Returns PB_OK, PB_EPARSE (undefined variable, a cap) or
 * PB_ENOMEM. */
int mt_expand(parser *p, const tok *k, char **out);

/* The last -D of that name (all of them marked used), or NULL. */
mt_def *mt_find_def(parser *p, const char *name);

/* "MEAN[,SD]" into *d; "LO..HI" (or one value) into *lo, *hi; a
 * non-negative weight; a count in 1..1000000.  Return PB_OK or PB_EINVAL
 * (parse_delay, parse_range: why gets what was expected). */
int mt_parse_delay(const char *v, mt_delay *d, char *why, size_t nwhy);
int mt_parse_range(const char *v, pb_ns *lo, pb_ns *hi, char *why, size_t nwhy);
/* A weight: a finite number from 0 to MT_WEIGHT_MAX (relative; summed
 * with the others of its choice, so the cap keeps every sum finite).
 * Returns PB_OK or PB_EINVAL. */
#define MT_WEIGHT_MAX 1e15
int mt_parse_weight(const char *v, double *w);
int mt_parse_count(const char *v, int *n);

/* "NAME" or "NAME:W|NAME:W|..." (already expanded, at token k) into *out,
 * interning the names into the config's node table; a choice is an error
 * unless allow_choice.  Returns PB_OK, PB_EPARSE or PB_ENOMEM. */
int mt_parse_nodes(parser *p, const tok *k, const char *v, mt_nodes *out,
                   int allow_choice);

/* Index of a setting in mt_options, or -1. */
int mt_option_index(const char *name);

/* Set a setting from text, located at file:line:col for errors.  Returns
 * PB_OK, PB_EPARSE or PB_EINVAL. */
int mt_set_setting(parser *p, const char *name, const char *value,
                   const char *file, long line, long col);

/* PB_OK at the end of a line (or file), else PB_EPARSE naming what came
 * after `after`. */
int mt_expect_eol(parser *p, const char *after);

/* 1 if s[0..n) is an identifier (letters, digits, _; no leading digit). */
int mt_valid_ident(const char *s, size_t n);

/* A top-level "name = value" line, and a "let NAME = VALUE" line.  Return
 * PB_OK, PB_EPARSE, PB_EINVAL or PB_ENOMEM. */
int mt_parse_setting_line(parser *p);
int mt_parse_let(parser *p);

/* Service and link statements (mt_services.c).  Each parses one statement
 * of the current line into p's config, or checks the whole config once it
 * is read; PB_OK, else an error code with the message set in p. */
int mt_cfg_parse_service(parser *p);
int mt_cfg_parse_link(parser *p);
int mt_cfg_finish_services(parser *p);
int mt_cfg_finish_models(parser *p);
/* names of MT_EXEC_* and MT_CONN_* for messages and describe */
extern const char *const mt_exec_names[];
extern const char *const mt_conn_names[];

#endif
