/* joint_select's per-service table (docs/joint/scale.md, "The metadata
 * text to a temporary file (h262)"): on N pairs of nodes that share
 * nothing (n_i calls m_i; 2N nodes, N with a caller) the table holds an
 * entry for each of the N services with callers and a 4-byte index slot
 * for every node -- not an entry for every node (main: 104 bytes each);
 * the searches that share a choice (select_share) hold the one table,
 * counted (test_joint_fitfast checks they choose the same).  A service without callers reads the defaults
 * (counts scored, durations as joint_select set them).  Counted by the
 * table's own debug count (joint_select_bytes), not resident memory. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

static pb_trace *pairs_trace(int n)
{
    pb_trace *t;
    if (pb_trace_new(&t) != PB_OK)
        return NULL;
    next_id = 1;
    char a[32], b[32];
    for (int i = 1; i <= n; i++) {
        pb_ns ts = (pb_ns)i * 1000000;
        snprintf(a, sizeof a, "n%d", i);
        snprintf(b, sizeof b, "m%d", i);
        msg(t, ts, a, b, PB_TYPE_CALL, PB_ID_NONE);
        msg(t, ts + 500000, b, a, PB_TYPE_RETURN, PB_ID_NONE);
    }
    pb_trace_sort(t);
    return t;
}

static size_t table_bytes(int n, uint32_t *entries, uint32_t *holders, int *defaults_ok)
{
    pb_trace *t = pairs_trace(n);
    size_t bytes = 0;
    *entries = *holders = 0;
    *defaults_ok = 0;
    if (!t)
        return 0;
    pb_trace_view v = pb_trace_view_of(t);
    joint *s = joint_test_init(&v, defaults());
    if (s) {
        bytes = joint_select_bytes(s, entries, holders);
        int o[4], om[4];
        double g[4], gm[4];
        /* n1 has no caller: the defaults; m1 has one: its own entry */
        *defaults_ok = joint_signals(s, "n1", o, g) == PB_OK && o[0] == 0 && o[1] == 0 &&
                       o[2] == 1 && g[0] == 0 && g[3] == 0 &&
                       joint_signals(s, "m1", om, gm) == PB_OK && om[0] == 0;
        joint_close(s);
    }
    pb_trace_close(t);
    return bytes;
}

TEST(table_holds_services_with_callers_only)
{
    uint32_t e1, h1, e2, h2;
    int d1, d2;
    size_t b1 = table_bytes(300, &e1, &h1, &d1), b2 = table_bytes(600, &e2, &h2, &d2);
    printf("# 300 pairs: %zu bytes, %u entries, %u holders; 600 pairs: %zu bytes, %u entries, "
           "%u holders\n", b1, e1, h1, b2, e2, h2);
    CHECK_INT(e1, 300);
    CHECK_INT(e2, 600);
    CHECK(d1 && d2);
    /* 300 more services with callers and 600 more nodes: an entry (at most
     * 112 bytes) each and an index slot (4 bytes) a node */
    CHECK(b2 > b1 && b2 - b1 <= 300 * 112 + 600 * 4);
    CHECK(b1 < 2 * 300 * 60); /* under 60 bytes a node (main: 104) */
    /* held by the state alone once joint_init is done (select_share's
     * holder let go): counted, so freed once */
    CHECK_INT(h1, 1);
    CHECK_INT(h2, 1);
}

int main(void)
{
    RUN(table_holds_services_with_callers_only);
    return pbtest_failures != 0;
}
