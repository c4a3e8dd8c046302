/* joint's subtick rule (joint_subtick.c), by hand.
 *
 * One request in one 1 ms tick, rows in the order of events:
 *   X>A call, A>B call, B>A return, A>X return.
 * Read forwards nothing contradicts the calls.  Read backwards:
 *   A>X return first: link X>A has no open call and its call comes later
 *     (a contradiction of the link, counted for its callee A);
 *   B>A return: likewise on A>B (counted for B);
 *   A>B call: A (which receives calls) has answered all it received (its
 *     answer was read first) and the call to A comes later (a
 *     contradiction of the service A).
 * So forward 0, backward 3: A twice, B once.  Rows out of order (the
 * return of A>B before its call) give a forward contradiction on A>B.
 * Spreading: four rows at 1 ms and one at 2 ms on a 1 ms tick go to
 * 1 ms + 125001, 375001, 625001, 875001 ns and 2 ms + 500001 ns; a
 * recv_ts equal to the ts moves with it, one in a later tick stays at the
 * start of that tick.
 * Per service (joint_subsvc.c): the counts of endpoints' pairs (gw>api 0
 * forward / 240 backward, api>db 7 / 194, api>search 29 / 49, api>auth
 * 0 / 78): only api-search fails (29 > 0.05 x 49); api and search are in
 * one failing pair each, but three passing pairs vouch for api, none for
 * search: search is put out, the others kept on their own evidence, the
 * client (no pair) on the pooled counts (7 forward, 512 backward).  The
 * spread with A put out: X>A at 1 ms + 125001, B>A at + 625001 (the
 * places of rows 0 and 2 of four), A's call then its return at the end of
 * the tick (+ 999997, + 999999); the receipts of calls to A and of A's
 * call stay at the tick's start, B's return to A moves with its send. */
#include "pbtest.h"
#include "joint.h"
#include "joint_int.h"
#include "joint_test.h"

#include <stdlib.h>

static const pb_ns MS = 1000000;

static uint32_t node(const pb_trace *t, const char *name)
{
    uint32_t n = UINT32_MAX;
    pb_strtab_find(t->names->nodes, name, strlen(name), &n);
    return n;
}

TEST(subtick_counts_by_hand)
{
    pb_trace *t;
    pb_trace_new(&t);
    next_id = 1;
    msg(t, MS, "X", "A", PB_TYPE_CALL, PB_ID_NONE);
    msg(t, MS, "A", "B", PB_TYPE_CALL, PB_ID_NONE);
    msg(t, MS, "B", "A", PB_TYPE_RETURN, PB_ID_NONE);
    msg(t, MS, "A", "X", PB_TYPE_RETURN, PB_ID_NONE);
    pb_trace_view v = pb_trace_view_of(t);
    joint_subtick st;
    memset(&st, 0, sizeof st);
    CHECK_INT(joint_subtick_test(&v, &st), PB_OK);
    CHECK_INT((int)st.runs, 1);
    CHECK_INT((int)st.fwd, 0);
    CHECK_INT((int)st.bwd, 3);
    CHECK_INT((int)st.svc_bwd[node(t, "A")], 2);
    CHECK_INT((int)st.svc_bwd[node(t, "B")], 1);
    CHECK_INT((int)st.svc_bwd[node(t, "X")], 0);
    free(st.svc_fwd);
    free(st.svc_bwd);
    joint_subsvc_free(&st);
    pb_trace_close(t);

    /* the return of A>B written before its call */
    pb_trace_new(&t);
    next_id = 1;
    msg(t, MS, "X", "A", PB_TYPE_CALL, PB_ID_NONE);
    msg(t, MS, "B", "A", PB_TYPE_RETURN, PB_ID_NONE);
    msg(t, MS, "A", "B", PB_TYPE_CALL, PB_ID_NONE);
    msg(t, MS, "A", "X", PB_TYPE_RETURN, PB_ID_NONE);
    v = pb_trace_view_of(t);
    memset(&st, 0, sizeof st);
    CHECK_INT(joint_subtick_test(&v, &st), PB_OK);
    CHECK_INT((int)st.fwd, 1);
    CHECK_INT((int)st.svc_fwd[node(t, "B")], 1);
    free(st.svc_fwd);
    free(st.svc_bwd);
    joint_subsvc_free(&st);
    pb_trace_close(t);

    /* rows in separate ticks: no run, nothing counted */
    pb_trace_new(&t);
    next_id = 1;
    msg(t, MS, "X", "A", PB_TYPE_CALL, PB_ID_NONE);
    msg(t, 2 * MS, "A", "X", PB_TYPE_RETURN, PB_ID_NONE);
    v = pb_trace_view_of(t);
    memset(&st, 0, sizeof st);
    CHECK_INT(joint_subtick_test(&v, &st), PB_OK);
    CHECK_INT((int)(st.runs + st.fwd + st.bwd), 0);
    free(st.svc_fwd);
    free(st.svc_bwd);
    joint_subsvc_free(&st);
    pb_trace_close(t);
}

TEST(subtick_decision)
{
    CHECK(joint_subtick_passes(0, 20, 0.05));
    CHECK(!joint_subtick_passes(0, 19, 0.05)); /* too little evidence */
    CHECK(joint_subtick_passes(1, 20, 0.05));
    CHECK(!joint_subtick_passes(2, 20, 0.05));
    CHECK(!joint_subtick_passes(100, 100, 0.05)); /* a random order */
}

TEST(subtick_spread_by_hand)
{
    pb_msg m[5];
    memset(m, 0, sizeof m);
    for (int i = 0; i < 4; i++)
        m[i].ts = m[i].recv_ts = MS;
    m[1].recv_ts = PB_TS_NONE;
    m[2].recv_ts = 3 * MS; /* received in another tick */
    m[4].ts = m[4].recv_ts = 2 * MS;
    pb_msg *c = NULL;
    CHECK_INT(joint_subtick_spread(m, 5, MS, &c), PB_OK);
    CHECK(c != NULL);
    CHECK(c[0].ts == MS + 125001 && c[0].recv_ts == MS + 125001);
    CHECK(c[1].ts == MS + 375001 && c[1].recv_ts == PB_TS_NONE);
    CHECK(c[2].ts == MS + 625001 && c[2].recv_ts == 3 * MS);
    CHECK(c[3].ts == MS + 875001);
    CHECK(c[4].ts == 2 * MS + 500001 && c[4].recv_ts == c[4].ts);
    CHECK(m[0].ts == MS); /* the input is left alone */
    free(c);
    /* more rows than ns in a tick: still strictly increasing */
    pb_msg w[12];
    memset(w, 0, sizeof w);
    for (int i = 0; i < 12; i++)
        w[i].ts = w[i].recv_ts = 10;
    CHECK_INT(joint_subtick_spread(w, 12, 10, &c), PB_OK);
    for (int i = 1; i < 12; i++)
        CHECK(c[i].ts > c[i - 1].ts);
    free(c);
}

TEST(subtick_prepare_modes)
{
    /* not coarse (ns stamps, no ties): nothing runs under auto */
    pb_trace *t;
    pb_trace_new(&t);
    next_id = 1;
    msg(t, 1001, "X", "A", PB_TYPE_CALL, PB_ID_NONE);
    msg(t, 2003, "A", "X", PB_TYPE_RETURN, PB_ID_NONE);
    pb_trace_view v = pb_trace_view_of(t);
    joint_params p = defaults();
    joint_subtick *st = NULL;
    pb_msg *sp = NULL;
    CHECK_INT(joint_subtick_prepare(&v, &p, &st, &sp), PB_OK);
    CHECK(st == NULL && sp == NULL);
    pb_trace_close(t);
    /* one tied request at 1 ms: coarse, but too little evidence under auto;
     * on spreads it anyway; off does nothing */
    pb_trace_new(&t);
    next_id = 1;
    msg(t, MS, "X", "A", PB_TYPE_CALL, PB_ID_NONE);
    msg(t, MS, "A", "B", PB_TYPE_CALL, PB_ID_NONE);
    msg(t, MS, "B", "A", PB_TYPE_RETURN, PB_ID_NONE);
    msg(t, MS, "A", "X", PB_TYPE_RETURN, PB_ID_NONE);
    v = pb_trace_view_of(t);
    CHECK_INT(joint_subtick_prepare(&v, &p, &st, &sp), PB_OK);
    CHECK(st != NULL && !st->spread && sp == NULL);
    joint_subtick_free(st);
    p.subtick = "on";
    CHECK_INT(joint_subtick_prepare(&v, &p, &st, &sp), PB_OK);
    CHECK(st != NULL && st->spread && sp != NULL);
    CHECK(sp && sp[3].ts == MS + 875001);
    joint_subtick_free(st);
    free(sp);
    p.subtick = "off";
    CHECK_INT(joint_subtick_prepare(&v, &p, &st, &sp), PB_OK);
    CHECK(st == NULL && sp == NULL);
    pb_trace_close(t);
}

TEST(subsvc_decide_by_hand)
{
    pb_trace *t;
    pb_trace_new(&t);
    next_id = 1;
    const char *nm[] = {"client", "gw", "api", "db", "search", "auth"};
    for (int i = 0; i < 6; i++)
        msg(t, MS * (i + 1), nm[i], nm[(i + 1) % 6], PB_TYPE_CALL, PB_ID_NONE);
    pb_trace_view v = pb_trace_view_of(t);
    uint32_t gw = node(t, "gw"), api = node(t, "api"), db = node(t, "db");
    uint32_t se = node(t, "search"), au = node(t, "auth"), cl = node(t, "client");
    joint_subtick st;
    memset(&st, 0, sizeof st);
    st.nnodes = (uint32_t)pb_strtab_count(v.nodes);
    struct { uint32_t a, b; int f, bw; } pr[] = {
        {gw, api, 0, 240}, {api, db, 7, 194}, {api, se, 29, 49}, {api, au, 0, 78}};
    for (int i = 0; i < 4; i++) {
        for (int k = 0; k < pr[i].f; k++)
            CHECK_INT(joint_subsvc_note(&st, pr[i].a, pr[i].b, 1), PB_OK);
        for (int k = 0; k < pr[i].bw; k++)
            CHECK_INT(joint_subsvc_note(&st, pr[i].b, pr[i].a, 2), PB_OK);
    }
    CHECK_INT(joint_subsvc_decide(&st, &v, 0.05), PB_OK);
    CHECK_INT(st.svc_how[se], 3);
    CHECK_INT(st.svc_how[api], 1);
    CHECK_INT(st.svc_how[db], 1);
    CHECK_INT(st.svc_how[au], 1);
    CHECK_INT(st.svc_how[gw], 1);
    CHECK_INT(st.svc_how[cl], 2);
    CHECK_INT((int)st.pool_fwd, 7);
    CHECK_INT((int)st.pool_bwd, 512);
    CHECK_INT((int)st.nsend, 6);
    CHECK_INT((int)st.nspread, 5);
    CHECK_INT((int)st.svc_f[se], 29); /* its counts when put out */
    /* every pair forward as often as backward: nothing kept spread */
    joint_subsvc_free(&st);
    memset(&st, 0, sizeof st);
    st.nnodes = (uint32_t)pb_strtab_count(v.nodes);
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 30; k++) {
            CHECK_INT(joint_subsvc_note(&st, pr[i].a, pr[i].b, 1), PB_OK);
            CHECK_INT(joint_subsvc_note(&st, pr[i].a, pr[i].b, 2), PB_OK);
        }
    CHECK_INT(joint_subsvc_decide(&st, &v, 0.05), PB_OK);
    CHECK_INT((int)st.nspread, 0);
    /* no forward contradiction: every service spread */
    joint_subsvc_free(&st);
    memset(&st, 0, sizeof st);
    st.nnodes = (uint32_t)pb_strtab_count(v.nodes);
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 30; k++)
            CHECK_INT(joint_subsvc_note(&st, pr[i].a, pr[i].b, 2), PB_OK);
    CHECK_INT(joint_subsvc_decide(&st, &v, 0.05), PB_OK);
    CHECK_INT((int)st.nspread, 6);
    joint_subsvc_free(&st);
    pb_trace_close(t);
}

/* subtick_blame by hand: a chain client > l8 > l9 > l10 > l11 > l12 whose
 * l10, l11 and l12 write their rows out of order (the counts of
 * joint_apps_deep, maketrace seed 2, 1 ms, those three shuffled).  l11
 * fails with both neighbours and is put out; l12 (a leaf) is then left
 * without pairs; l10 shows 6 forward contradictions against l9, under
 * subtick_share x 314, so the pair passes and l10 was kept and spread.
 * With subtick_blame l10 (it failed a pair with l11 put out, still shows
 * forward contradictions, no clean pair vouches for it) is put out too;
 * l9 (clean pair with l8) stays.  On the endpoints counts api failed a
 * pair with search put out and shows 7 forward against db, but its clean
 * pairs with gw and auth vouch for it: kept with the rule on too. */
TEST(subsvc_blame_by_hand)
{
    pb_trace *t;
    pb_trace_new(&t);
    next_id = 1;
    const char *nm[] = {"client", "l8", "l9", "l10", "l11", "l12"};
    for (int i = 0; i < 6; i++)
        msg(t, MS * (i + 1), nm[i], nm[(i + 1) % 6], PB_TYPE_CALL, PB_ID_NONE);
    pb_trace_view v = pb_trace_view_of(t);
    uint32_t l8 = node(t, "l8"), l9 = node(t, "l9"), l10 = node(t, "l10");
    uint32_t l11 = node(t, "l11"), l12 = node(t, "l12");
    struct { uint32_t a, b; int f, bw; } pr[] = {
        {l8, l9, 0, 298}, {l9, l10, 6, 314}, {l10, l11, 225, 239}, {l11, l12, 176, 169}};
    for (int blame = 0; blame < 2; blame++) {
        joint_subtick st;
        memset(&st, 0, sizeof st);
        st.nnodes = (uint32_t)pb_strtab_count(v.nodes);
        st.blame = blame;
        for (int i = 0; i < 4; i++) {
            for (int k = 0; k < pr[i].f; k++)
                CHECK_INT(joint_subsvc_note(&st, pr[i].a, pr[i].b, 1), PB_OK);
            for (int k = 0; k < pr[i].bw; k++)
                CHECK_INT(joint_subsvc_note(&st, pr[i].b, pr[i].a, 2), PB_OK);
        }
        CHECK_INT(joint_subsvc_decide(&st, &v, 0.05), PB_OK);
        CHECK_INT(st.svc_how[l11], 3);
        CHECK_INT(st.svc_how[l10], blame ? 5 : 1);
        CHECK_INT((int)st.nblamed, blame);
        CHECK_INT(st.svc_how[l9], 1);
        CHECK_INT(st.svc_how[l8], 1);
        CHECK_INT(st.svc_how[l12], 2); /* no pair left: the pooled verdict */
        CHECK_INT((int)st.svc_f[l10], blame ? 6 : 6);
        CHECK_INT((int)st.pool_fwd, blame ? 0 : 6);
        joint_subsvc_free(&st);
    }
    pb_trace_close(t);
    /* the endpoints counts: the hub api is vouched for by its clean pairs */
    pb_trace_new(&t);
    next_id = 1;
    const char *en[] = {"client", "gw", "api", "db", "search", "auth"};
    for (int i = 0; i < 6; i++)
        msg(t, MS * (i + 1), en[i], en[(i + 1) % 6], PB_TYPE_CALL, PB_ID_NONE);
    v = pb_trace_view_of(t);
    uint32_t gw = node(t, "gw"), api = node(t, "api"), db = node(t, "db");
    uint32_t se = node(t, "search"), au = node(t, "auth");
    struct { uint32_t a, b; int f, bw; } pe[] = {
        {gw, api, 0, 240}, {api, db, 7, 194}, {api, se, 29, 49}, {api, au, 0, 78}};
    joint_subtick st;
    memset(&st, 0, sizeof st);
    st.nnodes = (uint32_t)pb_strtab_count(v.nodes);
    st.blame = 1;
    for (int i = 0; i < 4; i++) {
        for (int k = 0; k < pe[i].f; k++)
            CHECK_INT(joint_subsvc_note(&st, pe[i].a, pe[i].b, 1), PB_OK);
        for (int k = 0; k < pe[i].bw; k++)
            CHECK_INT(joint_subsvc_note(&st, pe[i].b, pe[i].a, 2), PB_OK);
    }
    CHECK_INT(joint_subsvc_decide(&st, &v, 0.05), PB_OK);
    CHECK_INT(st.svc_how[se], 3);
    CHECK_INT(st.svc_how[api], 1);
    CHECK_INT(st.svc_how[db], 1);
    CHECK_INT((int)st.nblamed, 0);
    joint_subsvc_free(&st);
    pb_trace_close(t);
}

TEST(subsvc_spread_by_hand)
{
    pb_trace *t;
    pb_trace_new(&t);
    next_id = 1;
    msg(t, MS, "X", "A", PB_TYPE_CALL, PB_ID_NONE);
    msg(t, MS, "A", "B", PB_TYPE_CALL, PB_ID_NONE);
    msg(t, MS, "B", "A", PB_TYPE_RETURN, PB_ID_NONE);
    msg(t, MS, "A", "X", PB_TYPE_RETURN, PB_ID_NONE);
    pb_trace_view v = pb_trace_view_of(t);
    pb_msg w[4];
    for (int i = 0; i < 4; i++) {
        w[i] = v.msgs[i];
        w[i].recv_ts = w[i].ts;
    }
    joint_subtick st;
    memset(&st, 0, sizeof st);
    st.nnodes = (uint32_t)pb_strtab_count(v.nodes);
    st.tick = MS;
    unsigned char how[8] = {0};
    how[node(t, "X")] = 1;
    how[node(t, "B")] = 2;
    how[node(t, "A")] = 3;
    st.svc_how = how;
    pb_msg *c = NULL;
    CHECK_INT(joint_subsvc_spread(&st, w, 4, &c), PB_OK);
    CHECK(c != NULL);
    if (c) {
        CHECK(c[0].src == node(t, "X") && c[0].ts == MS + 125001 && c[0].recv_ts == MS);
        CHECK(c[1].src == node(t, "B") && c[1].ts == MS + 625001 && c[1].recv_ts == MS + 625001);
        CHECK(c[2].src == node(t, "A") && c[2].type == PB_TYPE_CALL && c[2].ts == MS + 999997 &&
              c[2].recv_ts == MS);
        CHECK(c[3].src == node(t, "A") && c[3].type == PB_TYPE_RETURN && c[3].ts == MS + 999999 &&
              c[3].recv_ts == MS);
    }
    free(c);
    pb_trace_close(t);
}

int main(void)
{
    RUN(subtick_counts_by_hand);
    RUN(subtick_decision);
    RUN(subtick_spread_by_hand);
    RUN(subtick_prepare_modes);
    RUN(subsvc_decide_by_hand);
    RUN(subsvc_spread_by_hand);
    RUN(subsvc_blame_by_hand);
    return pbtest_exit();
}
