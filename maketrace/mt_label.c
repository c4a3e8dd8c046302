/*
 * mt_label.c - what a protocol-aware observer sees of a message: `label`
 * lines give the messages of a link an attribute (the `attr` column) and
 * a payload size drawn per message (the `size` column):
 *
 *   label SRC -> DST [type=call|return|msg] [attr=TEXT] [size=N|LO..HI]
 *
 * SRC and DST are node names, NAME* (a prefix) or * (any).  The first line
 * that matches a message labels it.  Sizes come from a generator of their
 * own (seeded from the config's seed), so a config's delays, choices and
 * order are the same with and without labels; a config without label
 * lines writes neither column (byte-identical to before).
 */
#include "mt_label.h"

#include <stdlib.h>
#include <string.h>

#include "mt_parse.h"

typedef struct mt_label {
    const char *src, *dst;   /* arena text; "" = any */
    int src_prefix, dst_prefix;
    int type;                /* pb_msg_type, or -1 = any */
    const char *attr;        /* NULL = no attr */
    int64_t size_lo, size_hi; /* -1 = no size */
} mt_label;

/* "64KiB", "4MB", "100": bytes below 2^32 - 1 */
static int parse_bytes(const char *s, size_t n, int64_t *out)
{
    static const struct { const char *u; int64_t m; } units[] = {
        {"GiB", 1LL << 30}, {"MiB", 1LL << 20}, {"KiB", 1LL << 10},
        {"GB", 1000000000LL}, {"MB", 1000000LL}, {"kB", 1000LL}, {"B", 1}};
    size_t digits = 0;
    while (digits < n && s[digits] >= '0' && s[digits] <= '9')
        digits++;
    if (!digits || digits > 12)
        return 0;
    int64_t v = 0;
    for (size_t i = 0; i < digits; i++)
        v = v * 10 + (s[i] - '0');
    int64_t m = 1;
    if (digits < n) {
        m = 0;
        for (size_t u = 0; u < sizeof units / sizeof units[0]; u++)
            if (strlen(units[u].u) == n - digits && !memcmp(s + digits, units[u].u, n - digits))
                m = units[u].m;
        if (!m)
            return 0;
    }
    if (v > (int64_t)(PB_SIZE_NONE - 1) / m)
        return 0;
    *out = v * m;
    return *out < (int64_t)PB_SIZE_NONE;
}

static void node_pattern(mt_config *c, const char *s, const char **out, int *prefix)
{
    size_t n = strlen(s);
    *prefix = n && s[n - 1] == '*';
    *out = *prefix ? mt_astrndup(c, s, n - 1) : s;
}

int mt_parse_label(parser *p)
{
    mt_config *c = p->c;
    tok *k = next(p); /* "label" */
    tok *ts = next(p), *arrow = next(p), *td = next(p);
    char b[64];
    if (ts->kind != T_WORD)
        return PERR(p, ts, "expected SRC (a node, NAME* or *) after label, got %s",
                    mt_tok_desc(ts, b, sizeof b));
    if (!is_word(arrow, "->"))
        return PERR(p, arrow, "expected \"->\" after label %.*s, got %s", (int)ts->len,
                    ts->s, mt_tok_desc(arrow, b, sizeof b));
    if (td->kind != T_WORD)
        return PERR(p, td, "expected DST (a node, NAME* or *) after \"->\", got %s",
                    mt_tok_desc(td, b, sizeof b));
    if (c->nlabels >= 4096)
        return PERR(p, k, "more than 4096 label lines; expected fewer");
    mt_label *l = mt_aalloc(c, sizeof *l);
    char *src, *dst;
    int rc;
    if (!l)
        return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
    if ((rc = mt_expand(p, ts, &src)) != PB_OK || (rc = mt_expand(p, td, &dst)) != PB_OK)
        return rc;
    node_pattern(c, !strcmp(src, "*") ? "*" : src, &l->src, &l->src_prefix);
    node_pattern(c, !strcmp(dst, "*") ? "*" : dst, &l->dst, &l->dst_prefix);
    if (!l->src || !l->dst)
        return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
    l->type = -1;
    l->size_lo = l->size_hi = -1;
    int seen_type = 0, seen_attr = 0, seen_size = 0;
    while (peek(p)->kind == T_WORD) {
        tok *a = next(p);
        char *av;
        if ((rc = mt_expand(p, a, &av)) != PB_OK)
            return rc;
        if (!strncmp(av, "type=", 5)) {
            if (seen_type++)
                return PERR(p, a, "type= given twice; expected it once");
            const char *v = av + 5;
            l->type = !strcmp(v, "call") ? PB_TYPE_CALL
                      : !strcmp(v, "return") ? PB_TYPE_RETURN
                      : !strcmp(v, "msg") ? PB_TYPE_MSG : -2;
            if (l->type == -2)
                return PERR(p, a, "expected type=call, type=return or type=msg, got \"%s\"", av);
        } else if (!strncmp(av, "attr=", 5)) {
            if (seen_attr++)
                return PERR(p, a, "attr= given twice; expected it once");
            if (!av[5])
                return PERR(p, a, "expected attr=TEXT with some text");
            l->attr = av + 5;
        } else if (!strncmp(av, "size=", 5)) {
            if (seen_size++)
                return PERR(p, a, "size= given twice; expected it once");
            const char *v = av + 5, *dots = strstr(v, "..");
            int ok = dots ? parse_bytes(v, (size_t)(dots - v), &l->size_lo) &&
                                parse_bytes(dots + 2, strlen(dots + 2), &l->size_hi)
                          : parse_bytes(v, strlen(v), &l->size_lo);
            if (!dots)
                l->size_hi = l->size_lo;
            if (!ok || l->size_hi < l->size_lo)
                return PERR(p, a, "expected size=BYTES or size=LO..HI (LO <= HI, below "
                            "4 GiB; units B, kB, MB, GB, KiB, MiB, GiB), got \"%s\"", av);
        } else {
            return PERR(p, a, "unknown attribute \"%s\"; expected type=, attr= or size=", av);
        }
    }
    if (!seen_attr && !seen_size)
        return PERR(p, k, "label %s -> %s gives neither attr= nor size=; expected at "
                    "least one", src, dst);
    struct mt_label **nl = realloc(c->labels, (c->nlabels + 1) * sizeof *nl);
    if (!nl)
        return pb_error_set(p->err, PB_ENOMEM, p->file, 0, 0, "out of memory");
    c->labels = nl;
    c->labels[c->nlabels++] = l;
    return PB_OK;
}

unsigned mt_label_columns(const mt_config *c)
{
    unsigned cols = 0;
    for (size_t i = 0; i < c->nlabels; i++) {
        if (c->labels[i]->attr)
            cols |= PB_COL_ATTR;
        if (c->labels[i]->size_lo >= 0)
            cols |= PB_COL_SIZE;
    }
    return cols;
}

unsigned mt_config_columns(const mt_config *c)
{
    return mt_label_columns(c) | (c->models ? PB_COL_THREAD | PB_COL_STHREAD | PB_COL_CONN : 0u);
}

static int match(const char *pat, int prefix, const char *name)
{
    if (!pat[0] && prefix)
        return 1;
    return prefix ? !strncmp(name, pat, strlen(pat)) : !strcmp(name, pat);
}

int mt_label_apply(const mt_config *c, gsl_rng *rng, pb_names *names, const pb_msg *m,
                   pb_obs *o)
{
    o->attr = 0;
    o->size = PB_SIZE_NONE;
    const char *src = pb_strtab_str(names->nodes, m->src);
    const char *dst = pb_strtab_str(names->nodes, m->dst);
    for (size_t i = 0; i < c->nlabels; i++) {
        const mt_label *l = c->labels[i];
        if ((l->type >= 0 && l->type != m->type) || !match(l->src, l->src_prefix, src) ||
            !match(l->dst, l->dst_prefix, dst))
            continue;
        if (l->attr && pb_obs_label(names, l->attr, strlen(l->attr), &o->attr) != PB_OK)
            return PB_ENOMEM;
        if (l->size_lo >= 0)
            o->size = (uint32_t)(l->size_lo +
                                 (l->size_hi > l->size_lo
                                      ? (int64_t)gsl_rng_uniform_int(
                                            rng, (unsigned long)(l->size_hi - l->size_lo + 1))
                                      : 0));
        return PB_OK;
    }
    return PB_OK;
}
