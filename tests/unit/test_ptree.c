/* Pattern trees: canonical text, escaping, parsing, canonical positions. */
#include "pbtest.h"
#include "pb_ptree.h"

#include <stdlib.h>

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

int main(void)
{
    RUN(canonical_sorts_children);
    RUN(same_pattern_same_string);
    RUN(escapes_round_trip);
    RUN(parse_errors_name_position);
    RUN(message_view_rpc_chain);
    return pbtest_exit();
}
