/* Pattern trees: canonical text, escaping, parsing, canonical positions. */
#include "pbtest.h"
#include "pb_ptree.h"

#include <pthread.h>
#include <stdlib.h>
#include "pb_sort.h"

static uint32_t nm(pb_strtab *t, const char *s)
{
    uint32_t i;
    pb_strtab_intern(t, s, strlen(s), &i);
    return i;
}

TEST(canonical_sorts_children)
{
    pb_strtab *names;
    pb_strtab_init(&names);
    pb_ptree t = {0};
    uint32_t a, b, d, c;
    pb_ptree_add(&t, PB_PTREE_NONE, nm(names, "A"), &a);
    pb_ptree_add(&t, a, nm(names, "B"), &b);
    pb_ptree_add(&t, b, nm(names, "D"), &d);
    pb_ptree_add(&t, b, nm(names, "C"), &c);
    pb_ptree_add(&t, d, nm(names, "E"), NULL);
    pb_strbuf s = {0};
    uint32_t order[5];
    CHECK_INT(pb_ptree_canonical(&t, names, &s, order), PB_OK);
    CHECK_STR(pb_strbuf_str(&s), "A>B[C,D[E]]");
    /* pre-order positions: A0 B1 C2 D3 E4; tree nodes were A,B,D,C,E */
    CHECK_INT(order[0], 0);
    CHECK_INT(order[1], 1);
    CHECK_INT(order[2], 3);
    CHECK_INT(order[3], 2);
    CHECK_INT(order[4], 4);
    pb_strbuf_free(&s);
    pb_ptree_free(&t);
    pb_strtab_close(names);
}

TEST(same_pattern_same_string)
{
    pb_strbuf a = {0}, b = {0};
    CHECK_INT(pb_pattern_canonicalize("A>B[D[E],C]", 11, &a, NULL), PB_OK);
    CHECK_INT(pb_pattern_canonicalize("A>B[C,D[E]]", 11, &b, NULL), PB_OK);
    CHECK_STR(pb_strbuf_str(&a), pb_strbuf_str(&b));
    pb_strbuf_free(&a);
    pb_strbuf_free(&b);
}

TEST(escapes_round_trip)
{
    pb_strtab *names;
    pb_strtab_init(&names);
    pb_ptree t = {0};
    uint32_t r, x;
    pb_ptree_add(&t, PB_PTREE_NONE, nm(names, "a>b"), &r);
    pb_ptree_add(&t, r, nm(names, "c,[d]\\"), &x);
    pb_strbuf s = {0};
    CHECK_INT(pb_ptree_canonical(&t, names, &s, NULL), PB_OK);
    CHECK_STR(pb_strbuf_str(&s), "a\\>b>c\\,\\[d\\]\\\\");
    pb_ptree t2 = {0};
    CHECK_INT(pb_ptree_parse(s.s, s.len, names, &t2, NULL), PB_OK);
    CHECK_INT(t2.n, 2);
    CHECK_STR(pb_strtab_str(names, t2.nodes[1].name), "c,[d]\\");
    CHECK_INT(pb_pattern_size(s.s), 2);
    pb_strbuf_free(&s);
    pb_ptree_free(&t);
    pb_ptree_free(&t2);
    pb_strtab_close(names);
}

TEST(parse_errors_name_position)
{
    pb_strtab *names;
    pb_strtab_init(&names);
    pb_ptree t = {0};
    pb_error err;
    const char *bad[] = {"A", "A>", "A>B[", "A>B[C", "A>B]", "A>B[C,]", ">B", "A>B[C]x"};
    long col[] = {2, 3, 5, 6, 4, 7, 1, 7};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pb_error_clear(&err);
        CHECK_INT(pb_ptree_parse(bad[i], strlen(bad[i]), names, &t, &err), PB_EPARSE);
        CHECK_INT(err.column, col[i]);
        CHECK(strstr(err.msg, "expected") != NULL);
    }
    pb_ptree_free(&t);
    pb_strtab_close(names);
}

TEST(message_view_rpc_chain)
{
    pb_strbuf s = {0};
    CHECK_INT(pb_pattern_canonicalize("A>B[C[B[A]]]", 12, &s, NULL), PB_OK);
    CHECK_STR(pb_strbuf_str(&s), "A>B[C[B[A]]]");
    CHECK_INT(pb_pattern_size(s.s), 5);
    pb_strbuf_free(&s);
}

/* ---- oracle: the recursive canonicalizer the iterative one replaced ---- */
typedef struct rsub {
    char *text;
    size_t len;
    uint32_t node;
} rsub;

static int rcmp(const void *a, const void *b)
{
    const rsub *x = a, *y = b;
    size_t m = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->text, y->text, m);
    if (c)
        return c;
    if (x->len != y->len)
        return x->len < y->len ? -1 : 1;
    return x->node < y->node ? -1 : x->node > y->node;
}

/* Text of the subtree under i; sorted children into kids[i] (malloc'd). */
static rsub ref_build(const pb_ptree *t, const pb_strtab *names, uint32_t i,
                      uint32_t **kids)
{
    pb_strbuf b = {0};
    const char *n = pb_strtab_str(names, t->nodes[i].name);
    pb_ptree_escape(&b, n, strlen(n));
    uint32_t nc = pb_ptree_nchildren(t, i);
    if (nc) {
        rsub *v = malloc(nc * sizeof *v);
        uint32_t k = 0;
        for (uint32_t c = t->nodes[i].first_child; c != PB_PTREE_NONE; c = t->nodes[c].next_sibling)
            v[k++] = ref_build(t, names, c, kids);
        pb_sort(v, nc, sizeof *v, rcmp);
        kids[i] = malloc(nc * sizeof **kids);
        pb_strbuf_putc(&b, '[');
        for (k = 0; k < nc; k++) {
            if (k)
                pb_strbuf_putc(&b, ',');
            pb_strbuf_append(&b, v[k].text, v[k].len);
            kids[i][k] = v[k].node;
            free(v[k].text);
        }
        pb_strbuf_putc(&b, ']');
        free(v);
    }
    rsub r = {NULL, b.len, i};
    r.text = pb_strbuf_take(&b);
    return r;
}

static void ref_order(const pb_ptree *t, uint32_t i, uint32_t **kids, uint32_t *order,
                      uint32_t *pos)
{
    order[i] = (*pos)++;
    uint32_t nc = pb_ptree_nchildren(t, i);
    for (uint32_t k = 0; k < nc; k++)
        ref_order(t, kids[i][k], kids, order, pos);
}

/* Random trees (names that are prefixes of each other, escapes, repeated
 * identical subtrees): the iterative canonical text and positions equal the
 * recursive oracle's, and parsing the text gives the text back. */
TEST(canonical_agrees_with_recursive_oracle)
{
    static const char *const pool[] = {"A", "AB", "A[", "B", "B,", "\\", "x>y", "A]", "Z", "AA"};
    pb_strtab *names;
    pb_strtab_init(&names);
    uint64_t rng = 12345;
    int bad = 0;
    for (int round = 0; round < 3000 && bad < 3; round++) {
        pb_ptree t = {0};
        uint32_t root;
        pb_ptree_add(&t, PB_PTREE_NONE, nm(names, "R"), &root);
        pb_ptree_add(&t, root, nm(names, pool[round % 10]), NULL);
        uint32_t n = 2 + (uint32_t)(round % 40);
        while (t.n < n) {
            rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
            uint32_t parent = 1 + (uint32_t)((rng >> 33) % (t.n - 1));
            /* a small alphabet in some rounds: many identical subtrees */
            uint32_t k = (uint32_t)((rng >> 20) % (round % 3 ? 10 : 2));
            pb_ptree_add(&t, parent, nm(names, pool[k]), NULL);
        }
        pb_strbuf got = {0};
        uint32_t *order = malloc(t.n * sizeof *order), *rorder = malloc(t.n * sizeof *rorder);
        uint32_t **kids = calloc(t.n, sizeof *kids);
        CHECK_INT(pb_ptree_canonical(&t, names, &got, order), PB_OK);
        rsub r = ref_build(&t, names, 1, kids);
        pb_strbuf want = {0};
        pb_strbuf_puts(&want, "R>");
        pb_strbuf_append(&want, r.text, r.len);
        uint32_t pos = 1;
        rorder[0] = 0;
        ref_order(&t, 1, kids, rorder, &pos);
        if (strcmp(pb_strbuf_str(&got), pb_strbuf_str(&want)) ||
            memcmp(order, rorder, t.n * sizeof *order)) {
            PBT_FAIL("round %d: got %s, oracle %s", round, pb_strbuf_str(&got),
                     pb_strbuf_str(&want));
            bad++;
        }
        pb_strbuf again = {0};
        pb_error err;
        CHECK_INT(pb_pattern_canonicalize(got.s, got.len, &again, &err), PB_OK);
        CHECK(!strcmp(pb_strbuf_str(&again), pb_strbuf_str(&got)));
        for (uint32_t i = 0; i < t.n; i++)
            free(kids[i]);
        free(kids);
        free(r.text);
        free(order);
        free(rorder);
        pb_strbuf_free(&got);
        pb_strbuf_free(&want);
        pb_strbuf_free(&again);
        pb_ptree_free(&t);
    }
    pb_strtab_close(names);
}

/* A chain 200,000 nodes deep and a node with 100,000 children, on a thread
 * with a 256 kB stack: building, printing, parsing and comparing them must
 * not recurse (issue 16.1). */
static void *deep_work(void *arg)
{
    int *ok = arg;
    pb_strtab *names;
    pb_strtab_init(&names);
    pb_ptree t = {0};
    uint32_t prev;
    pb_ptree_add(&t, PB_PTREE_NONE, nm(names, "R"), &prev);
    for (int i = 0; i < 200000; i++)
        pb_ptree_add(&t, prev, nm(names, i % 2 ? "B" : "A"), &prev);
    pb_strbuf s = {0};
    uint32_t *order = malloc(t.n * sizeof *order);
    *ok = pb_ptree_canonical(&t, names, &s, order) == PB_OK &&
          s.len == 2 + 200000 + 2 * 199999 && order[t.n - 1] == t.n - 1 &&
          !strncmp(pb_strbuf_str(&s), "R>A[B[A[", 8);
    pb_strbuf back = {0};
    pb_error err;
    *ok = *ok && pb_pattern_canonicalize(s.s, s.len, &back, &err) == PB_OK &&
          back.len == s.len && !memcmp(back.s, s.s, s.len) &&
          pb_pattern_size(s.s) == t.n;
    /* wide: 100,000 children, half A[B] and half A (comparisons over
     * many equal and prefix-related subtrees) */
    pb_ptree w = {0};
    uint32_t r, top;
    pb_ptree_add(&w, PB_PTREE_NONE, nm(names, "R"), &r);
    pb_ptree_add(&w, r, nm(names, "T"), &top);
    for (int i = 0; i < 100000; i++) {
        uint32_t c;
        pb_ptree_add(&w, top, nm(names, "A"), &c);
        if (i % 2)
            pb_ptree_add(&w, c, nm(names, "B"), NULL);
    }
    pb_strbuf ws = {0};
    *ok = *ok && pb_ptree_canonical(&w, names, &ws, NULL) == PB_OK &&
          !strncmp(pb_strbuf_str(&ws), "R>T[A,A,", 8) &&
          strstr(pb_strbuf_str(&ws), "A,A[B]") != NULL;
    pb_strbuf_free(&ws);
    pb_ptree_free(&w);
    pb_strbuf_free(&back);
    pb_strbuf_free(&s);
    free(order);
    pb_ptree_free(&t);
    pb_strtab_close(names);
    return NULL;
}

TEST(deep_and_wide_on_a_small_stack)
{
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setstacksize(&a, 256 * 1024);
    pthread_t th;
    int ok = 0;
    CHECK_INT(pthread_create(&th, &a, deep_work, &ok), 0);
    pthread_join(th, NULL);
    pthread_attr_destroy(&a);
    CHECK(ok);
}

int main(void)
{
    RUN(canonical_sorts_children);
    RUN(canonical_agrees_with_recursive_oracle);
    RUN(deep_and_wide_on_a_small_stack);
    RUN(same_pattern_same_string);
    RUN(escapes_round_trip);
    RUN(parse_errors_name_position);
    RUN(message_view_rpc_chain);
    return pbtest_exit();
}
