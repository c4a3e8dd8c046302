#include "pb_ptree.h"

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
    if (t->n == t->cap) {
        uint32_t nc = t->cap ? t->cap * 2 : 16;
        pb_ptree_node *nn = realloc(t->nodes, nc * sizeof *nn);
        if (!nn)
            return PB_ENOMEM;
        t->nodes = nn;
        t->cap = nc;
    }
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

/* Canonical text of the subtree under node i (the node's own name, then
 * its sorted children), built bottom-up.  Each subtree's text is a
 * separate allocation; sizes are small (patterns have tens of nodes). */
typedef struct sub {
    char *text;
    size_t len;
    uint32_t node;
} sub;

static int cmp_sub(const void *a, const void *b)
{
    const sub *x = a, *y = b;
    size_t m = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->text, y->text, m);
    if (c)
        return c;
    if (x->len != y->len)
        return x->len < y->len ? -1 : 1;
    /* identical sibling subtrees keep their insertion order, so canonical
     * positions do not depend on how qsort treats equal keys */
    return x->node < y->node ? -1 : x->node > y->node;
}

/* Builds texts for all nodes; children sorted order is recorded in
 * sorted_children (per node: a malloc'd array of node indices). */
static int build(const pb_ptree *t, const pb_strtab *names, uint32_t i,
                 sub *texts, uint32_t **sorted_children)
{
    pb_strbuf b = {0};
    const char *nm = pb_strtab_str(names, t->nodes[i].name);
    if (!nm)
        nm = "?";
    if (pb_ptree_escape(&b, nm, strlen(nm)) != PB_OK)
        goto nomem;
    uint32_t nc = pb_ptree_nchildren(t, i);
    if (nc) {
        sub *kids = malloc(nc * sizeof *kids);
        uint32_t *order = malloc(nc * sizeof *order);
        if (!kids || !order) {
            free(kids);
            free(order);
            goto nomem;
        }
        uint32_t k = 0;
        for (uint32_t c = t->nodes[i].first_child; c != PB_PTREE_NONE;
             c = t->nodes[c].next_sibling) {
            int rc = build(t, names, c, texts, sorted_children);
            if (rc != PB_OK) {
                free(kids);
                free(order);
                pb_strbuf_free(&b);
                return rc;
            }
            kids[k++] = texts[c];
        }
        qsort(kids, nc, sizeof *kids, cmp_sub);
        int bad = pb_strbuf_putc(&b, '[');
        for (k = 0; k < nc && !bad; k++) {
            if (k)
                bad |= pb_strbuf_putc(&b, ',');
            bad |= pb_strbuf_append(&b, kids[k].text, kids[k].len);
            order[k] = kids[k].node;
        }
        bad |= pb_strbuf_putc(&b, ']');
        free(kids);
        sorted_children[i] = order;
        if (bad)
            goto nomem;
    }
    texts[i].len = b.len;
    texts[i].text = pb_strbuf_take(&b);
    texts[i].node = i;
    return texts[i].text ? PB_OK : PB_ENOMEM;
nomem:
    pb_strbuf_free(&b);
    return PB_ENOMEM;
}

static void walk_order(const pb_ptree *t, uint32_t i, uint32_t **sorted_children,
                       uint32_t *order, uint32_t *pos)
{
    order[i] = (*pos)++;
    uint32_t nc = pb_ptree_nchildren(t, i);
    for (uint32_t k = 0; k < nc; k++)
        walk_order(t, sorted_children[i][k], sorted_children, order, pos);
}

int pb_ptree_canonical(const pb_ptree *t, const pb_strtab *names,
                       pb_strbuf *out, uint32_t *order)
{
    if (t->n < 2 || pb_ptree_nchildren(t, 0) != 1)
        return PB_EINVAL;
    sub *texts = calloc(t->n, sizeof *texts);
    uint32_t **sorted = calloc(t->n, sizeof *sorted);
    int rc = PB_ENOMEM;
    if (!texts || !sorted)
        goto done;
    uint32_t child = t->nodes[0].first_child;
    rc = build(t, names, child, texts, sorted);
    if (rc != PB_OK)
        goto done;
    const char *root = pb_strtab_str(names, t->nodes[0].name);
    if (!root)
        root = "?";
    if (pb_ptree_escape(out, root, strlen(root)) != PB_OK ||
        pb_strbuf_putc(out, '>') != PB_OK ||
        pb_strbuf_append(out, texts[child].text, texts[child].len) != PB_OK) {
        rc = PB_ENOMEM;
        goto done;
    }
    if (order) {
        uint32_t pos = 1;
        order[0] = 0;
        walk_order(t, child, sorted, order, &pos);
    }
    rc = PB_OK;
done:
    if (texts)
        for (uint32_t i = 0; i < t->n; i++)
            free(texts[i].text);
    if (sorted)
        for (uint32_t i = 0; i < t->n; i++)
            free(sorted[i]);
    free(texts);
    free(sorted);
    return rc;
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

static int parse_child(parser *p, uint32_t parent, int depth)
{
    if (depth > 10000)
        return perr(p, "less deeply nested brackets");
    uint32_t name, idx;
    int rc = parse_name(p, &name);
    if (rc != PB_OK)
        return rc;
    if ((rc = pb_ptree_add(p->t, parent, name, &idx)) != PB_OK)
        return rc;
    if (p->pos < p->len && p->s[p->pos] == '[') {
        p->pos++;
        for (;;) {
            if ((rc = parse_child(p, idx, depth + 1)) != PB_OK)
                return rc;
            if (p->pos < p->len && p->s[p->pos] == ',') {
                p->pos++;
                continue;
            }
            if (p->pos < p->len && p->s[p->pos] == ']') {
                p->pos++;
                break;
            }
            return perr(p, "',' or ']'");
        }
    }
    return PB_OK;
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
        rc = parse_child(&p, 0, 0);
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
