#include "pb_ptree.h"
#include "pb_mem.h"

#include <stdlib.h>
#include <string.h>

void pb_ptree_reset(pb_ptree *t) { t->n = 0; }

void pb_ptree_free(pb_ptree *t)
{
    free(t->nodes);
    t->nodes = NULL;
    t->n = t->cap = 0;
}

int pb_ptree_add(pb_ptree *t, uint32_t parent, uint32_t name, uint32_t *idx)
{
    if (parent == PB_PTREE_NONE ? t->n != 0 : parent >= t->n)
        return PB_EINVAL;
    if (pb_grow32(&t->nodes, sizeof *t->nodes, &t->cap, t->n + 1, 16) != PB_OK)
        return PB_ENOMEM;
    uint32_t i = t->n++;
    pb_ptree_node *nd = &t->nodes[i];
    nd->name = name;
    nd->parent = parent;
    nd->first_child = nd->last_child = nd->next_sibling = PB_PTREE_NONE;
    if (parent != PB_PTREE_NONE) {
        pb_ptree_node *p = &t->nodes[parent];
        if (p->last_child == PB_PTREE_NONE)
            p->first_child = i;
        else
            t->nodes[p->last_child].next_sibling = i;
        p->last_child = i;
    }
    if (idx)
        *idx = i;
    return PB_OK;
}

uint32_t pb_ptree_nchildren(const pb_ptree *t, uint32_t i)
{
    uint32_t k = 0;
    for (uint32_t c = t->nodes[i].first_child; c != PB_PTREE_NONE;
         c = t->nodes[c].next_sibling)
        k++;
    return k;
}

static int is_special(char c)
{
    return c == '>' || c == '[' || c == ']' || c == ',' || c == '\\';
}

int pb_ptree_escape(pb_strbuf *out, const char *name, size_t len)
{
    size_t start = 0;
    for (size_t i = 0; i < len; i++) {
        if (!is_special(name[i]))
            continue;
        if (pb_strbuf_append(out, name + start, i - start) != PB_OK ||
            pb_strbuf_putc(out, '\\') != PB_OK)
            return PB_ENOMEM;
        start = i;
    }
    return pb_strbuf_append(out, name + start, len - start);
}

/* Canonical text without recursion and without a copy per subtree (a
 * chain of depth D would cost O(D^2) bytes that way): every node's escaped
 * name is stored once, each node's children are sorted bottom-up (children
 * have larger indices than their parent, so a pass from the last node to
 * the first sees every subtree sorted before it is compared), and two
 * subtrees are compared by generating their texts lazily, chunk by chunk,
 * with explicit stacks.  A comparison stops at the first differing byte. */
typedef struct gen {
    uint32_t *node;   /* frame stack: node */
    uint32_t *k;      /* 0: name not emitted; j >= 1: j - 1 children done */
    size_t sp;
    const char *p;    /* current chunk */
    size_t n;
} gen;

typedef struct canon {
    const pb_ptree *t;
    pb_strbuf esc;    /* escaped names, node after node */
    size_t *eoff;     /* [n + 1] offsets into esc */
    uint32_t *kids;   /* children of each node, sorted, contiguous */
    uint32_t *koff;   /* [n + 1] offsets into kids */
    uint32_t *tmp;    /* merge buffer [n] */
    gen a, b;
} canon;

static void gen_start(gen *g, uint32_t u)
{
    g->sp = 1;
    g->node[0] = u;
    g->k[0] = 0;
    g->n = 0;
}

/* Next chunk of the subtree's text into g->p / g->n; 0 at its end. */
static int gen_next(const canon *c, gen *g)
{
    while (g->sp) {
        size_t top = g->sp - 1;
        uint32_t u = g->node[top], k = g->k[top];
        uint32_t nk = c->koff[u + 1] - c->koff[u];
        if (k == 0) {
            g->k[top] = 1;
            g->p = c->esc.s + c->eoff[u];
            g->n = c->eoff[u + 1] - c->eoff[u];
            if (g->n)
                return 1;
            continue;
        }
        uint32_t done = k - 1;
        if (nk == 0) {
            g->sp--;
            continue;
        }
        if (done == nk) {
            g->sp--;
            g->p = "]";
            g->n = 1;
            return 1;
        }
        g->k[top] = k + 1;
        g->node[g->sp] = c->kids[c->koff[u] + done];
        g->k[g->sp] = 0;
        g->sp++;
        g->p = done ? "," : "[";
        g->n = 1;
        return 1;
    }
    g->n = 0;
    return 0;
}

/* Byte order of the canonical texts of subtrees x and y (shorter first on
 * a common prefix), as memcmp-then-length would order the two strings. */
static int cmp_subtrees(canon *c, uint32_t x, uint32_t y)
{
    gen *a = &c->a, *b = &c->b;
    gen_start(a, x);
    gen_start(b, y);
    int ma = gen_next(c, a), mb = gen_next(c, b);
    while (ma && mb) {
        size_t m = a->n < b->n ? a->n : b->n;
        int d = memcmp(a->p, b->p, m);
        if (d)
            return d;
        a->p += m;
        a->n -= m;
        b->p += m;
        b->n -= m;
        if (!a->n)
            ma = gen_next(c, a);
        if (!b->n)
            mb = gen_next(c, b);
    }
    return ma - mb;
}

/* Stable bottom-up merge sort of v[0..n) by subtree text: identical
 * sibling subtrees keep their insertion order, so canonical positions do
 * not depend on the sort. */
static void sort_kids(canon *c, uint32_t *v, uint32_t n)
{
    uint32_t *src = v, *dst = c->tmp;
    for (uint32_t w = 1; w < n; w *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * w) {
            uint32_t mid = lo + w < n ? lo + w : n;
            uint32_t hi = lo + 2 * w < n ? lo + 2 * w : n;
            uint32_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi)
                dst[o++] = cmp_subtrees(c, src[j], src[i]) < 0 ? src[j++] : src[i++];
            while (i < mid)
                dst[o++] = src[i++];
            while (j < hi)
                dst[o++] = src[j++];
        }
        uint32_t *x = src;
        src = dst;
        dst = x;
    }
    if (src != v)
        memcpy(v, src, n * sizeof *v);
}

/* the arrays are one block, eoff first (canon_build) */
static void canon_free(canon *c)
{
    pb_strbuf_free(&c->esc);
    free(c->eoff);
}

static int canon_build(canon *c, const pb_ptree *t, const pb_strtab *names)
{
    memset(c, 0, sizeof *c);
    c->t = t;
    size_t n = t->n;
    /* one block for every array (one request's tree each: nine
     * allocations a tree were a fifth of the canonical text's cost):
     * eoff [n + 1], then koff [n + 1], kids, tmp and the two generators'
     * stacks [max(n, 1)] each */
    size_t m = n ? n : 1;
    c->eoff = malloc((n + 1) * sizeof *c->eoff + (n + 1 + 6 * m) * sizeof(uint32_t));
    if (!c->eoff)
        return PB_ENOMEM;
    uint32_t *u = (uint32_t *)(void *)(c->eoff + n + 1);
    c->koff = u;
    memset(c->koff, 0, (n + 1) * sizeof *c->koff);
    u += n + 1;
    c->kids = u;
    c->tmp = u + m;
    c->a.node = u + 2 * m;
    c->a.k = u + 3 * m;
    c->b.node = u + 4 * m;
    c->b.k = u + 5 * m;
    /* escaped names; reserve so that c->esc.s is never NULL */
    if (pb_strbuf_append(&c->esc, "", 0) != PB_OK)
        return PB_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        c->eoff[i] = c->esc.len;
        const char *nm = pb_strtab_str(names, t->nodes[i].name);
        if (!nm)
            nm = "?";
        if (pb_ptree_escape(&c->esc, nm, strlen(nm)) != PB_OK)
            return PB_ENOMEM;
    }
    c->eoff[n] = c->esc.len;
    /* children in insertion order, contiguous per node */
    for (size_t i = 0; i < n; i++)
        if (t->nodes[i].parent != PB_PTREE_NONE)
            c->koff[t->nodes[i].parent + 1]++;
    for (size_t i = 0; i < n; i++)
        c->koff[i + 1] += c->koff[i];
    for (size_t i = 0; i < n; i++) {
        uint32_t k = c->koff[i];
        for (uint32_t ch = t->nodes[i].first_child; ch != PB_PTREE_NONE;
             ch = t->nodes[ch].next_sibling)
            c->kids[k++] = ch;
    }
    /* children have larger indices than their parents (pb_ptree_add) */
    for (size_t i = n; i-- > 0;) {
        uint32_t nk = c->koff[i + 1] - c->koff[i];
        if (nk > 1)
            sort_kids(c, c->kids + c->koff[i], nk);
    }
    return PB_OK;
}

int pb_ptree_canonical(const pb_ptree *t, const pb_strtab *names,
                       pb_strbuf *out, uint32_t *order)
{
    if (t->n < 2 || pb_ptree_nchildren(t, 0) != 1)
        return PB_EINVAL;
    canon c;
    int rc = canon_build(&c, t, names);
    if (rc != PB_OK) {
        canon_free(&c);
        return rc;
    }
    uint32_t child = t->nodes[0].first_child;
    rc = pb_strbuf_append(out, c.esc.s + c.eoff[0], c.eoff[1] - c.eoff[0]);
    if (rc == PB_OK)
        rc = pb_strbuf_putc(out, '>');
    gen_start(&c.a, child);
    while (rc == PB_OK && gen_next(&c, &c.a))
        rc = pb_strbuf_append(out, c.a.p, c.a.n);
    if (rc == PB_OK && order) {
        /* canonical pre-order positions: explicit stack, children pushed
         * in reverse sorted order */
        uint32_t *st = c.a.node, sp = 0, pos = 1;
        order[0] = 0;
        st[sp++] = child;
        while (sp) {
            uint32_t u = st[--sp];
            order[u] = pos++;
            for (uint32_t k = c.koff[u + 1]; k-- > c.koff[u];)
                st[sp++] = c.kids[k];
        }
    }
    canon_free(&c);
    return rc == PB_OK ? PB_OK : PB_ENOMEM;
}

/* ------------------------------------------------------------------ */
/* parsing */

typedef struct parser {
    const char *s;
    size_t len, pos;
    pb_strtab *names;
    pb_ptree *t;
    pb_error *err;
    pb_strbuf name;
} parser;

static int perr(parser *p, const char *expected)
{
    char got[16];
    if (p->pos >= p->len)
        snprintf(got, sizeof got, "end of text");
    else
        snprintf(got, sizeof got, "'%c'", p->s[p->pos]);
    return pb_error_set(p->err, PB_EPARSE, NULL, 0, (long)p->pos + 1,
                        "malformed pattern at character %zu: expected %s, got %s",
                        p->pos + 1, expected, got);
}

static int parse_name(parser *p, uint32_t *idx)
{
    pb_strbuf_reset(&p->name);
    size_t start = p->pos;
    while (p->pos < p->len) {
        char c = p->s[p->pos];
        if (c == '\\') {
            if (p->pos + 1 >= p->len)
                return perr(p, "a character after '\\'");
            if (pb_strbuf_putc(&p->name, p->s[p->pos + 1]) != PB_OK)
                return PB_ENOMEM;
            p->pos += 2;
            continue;
        }
        if (is_special(c))
            break;
        if (pb_strbuf_putc(&p->name, c) != PB_OK)
            return PB_ENOMEM;
        p->pos++;
    }
    if (p->pos == start)
        return perr(p, "a node name");
    return pb_strtab_intern(p->names, pb_strbuf_str(&p->name), p->name.len, idx);
}

/* The root's one child and everything under it, without recursion: the
 * open brackets are the chain of parents in the tree itself. */
static int parse_body(parser *p)
{
    uint32_t parent = 0; /* the root */
    for (;;) {
        uint32_t name, idx;
        int rc = parse_name(p, &name);
        if (rc != PB_OK)
            return rc;
        if ((rc = pb_ptree_add(p->t, parent, name, &idx)) != PB_OK)
            return rc;
        if (p->pos < p->len && p->s[p->pos] == '[') {
            p->pos++;
            parent = idx; /* its first child comes next */
            continue;
        }
        /* a child is complete: close brackets until a ',' opens a sibling */
        for (;;) {
            if (parent == 0)
                return PB_OK; /* the root's single child is complete */
            if (p->pos < p->len && p->s[p->pos] == ',') {
                p->pos++;
                break;
            }
            if (p->pos < p->len && p->s[p->pos] == ']') {
                p->pos++;
                parent = p->t->nodes[parent].parent;
                continue;
            }
            return perr(p, "',' or ']'");
        }
    }
}

int pb_ptree_parse(const char *text, size_t len, pb_strtab *names, pb_ptree *t,
                   pb_error *err)
{
    parser p = {text, len, 0, names, t, err, {0}};
    pb_ptree_reset(t);
    uint32_t root;
    int rc = parse_name(&p, &root);
    if (rc == PB_OK)
        rc = pb_ptree_add(t, PB_PTREE_NONE, root, NULL);
    if (rc == PB_OK && (p.pos >= p.len || p.s[p.pos] != '>'))
        rc = perr(&p, "'>' after the root node");
    if (rc == PB_OK) {
        p.pos++;
        rc = parse_body(&p);
    }
    if (rc == PB_OK && p.pos != p.len)
        rc = perr(&p, "end of pattern");
    pb_strbuf_free(&p.name);
    return rc;
}

int pb_pattern_canonicalize(const char *text, size_t len, pb_strbuf *out,
                            pb_error *err)
{
    pb_strtab *names;
    if (pb_strtab_init(&names) != PB_OK)
        return PB_ENOMEM;
    pb_ptree t = {0};
    int rc = pb_ptree_parse(text, len, names, &t, err);
    if (rc == PB_OK)
        rc = pb_ptree_canonical(&t, names, out, NULL);
    pb_ptree_free(&t);
    pb_strtab_close(names);
    return rc;
}

uint32_t pb_pattern_size(const char *text)
{
    uint32_t n = 0;
    int in_name = 0;
    for (const char *c = text; *c; c++) {
        if (*c == '\\') {
            if (!c[1])
                return 0;
            c++;
            if (!in_name) {
                n++;
                in_name = 1;
            }
            continue;
        }
        if (is_special(*c)) {
            in_name = 0;
        } else if (!in_name) {
            n++;
            in_name = 1;
        }
    }
    return n;
}
