/* A service in tick order at whole-tick stamps (joint_tickx.c, tick_fifo;
 * docs/joint/ticks_rows.md "A service in tick order: its calls in tick order"),
 * by hand on a joint state with service F (node 1, called by the client,
 * node 0) calling E (node 2) once per request; ticks of 1 ms.
 *   - the test: F's requests q0..q3 arrive in ticks 0, 0, 1, 3 and are
 *     answered in ticks 1, 2, 2, 3: q2 is in question (q1, of an earlier
 *     tick, is answered in tick 2 >= 1) and not overtaken (2 is not after
 *     2); q3 is not in question (every earlier one answered by tick 2);
 *     q2 answered in tick 1 instead: overtaken (q1 answers after it);
 *   - the assignment: E's calls p4..p7 sent in ticks 0, 1, 1, 3 and
 *     returned in 1, 1, 2, 3, given crossed (q0 <- p5, q1 <- p4): tick
 *     order gives q0 <- p4, q1 <- p5 (the requests by (arrival, answer),
 *     the calls by (send, return)), q2 <- p6 and q3 <- p7 stay; two
 *     calls moved;
 *   - a link called more often than the service is (5 calls for 4
 *     requests) is skipped;
 *   - the whole rule: four requests cannot pass the test, nothing moves;
 *     nothing runs where the subtick test did not decline (rows it
 *     spread or did not look at), or with tick_fifo=0. */
#include "pbtest.h"
#include "joint.h"
#include "joint_int.h"

#include <stdlib.h>
#include <string.h>

#define MS 1000000

static joint s; /* zeroed: only the fields the rule reads are set */
static jpair pr[8];
static uint32_t par[8], cand_off[9], lsrc[2] = {0, 1}, ldst[2] = {1, 2};
static uint32_t bylink[8] = {0, 1, 2, 3, 4, 5, 6, 7}, bylink_off[3] = {0, 4, 8};
static kvec kids[8];
static uint32_t kid_a[8][4];

static void setup(void)
{
    memset(&s, 0, sizeof s);
    memset(kids, 0, sizeof kids);
    /* F's requests: (arrival tick, answer tick) */
    const int arr[4] = {0, 0, 1, 3}, ans[4] = {1, 2, 2, 3};
    for (int q = 0; q < 4; q++)
        pr[q] = (jpair){.cs = arr[q] * MS, .cr = arr[q] * MS + 10, .rs = ans[q] * MS + 500,
                        .rr = ans[q] * MS + 510, .call = (uint32_t)(2 * q),
                        .ret = (uint32_t)(2 * q + 1), .caller = 0, .callee = 1, .link = 0};
    /* E's calls: (send tick, return tick) */
    const int snd[4] = {0, 1, 1, 3}, ret[4] = {1, 1, 2, 3};
    for (int i = 0; i < 4; i++)
        pr[4 + i] = (jpair){.cs = snd[i] * MS + 100, .cr = snd[i] * MS + 110,
                            .rs = ret[i] * MS + 200, .rr = ret[i] * MS + 210,
                            .call = (uint32_t)(8 + 2 * i), .ret = (uint32_t)(9 + 2 * i),
                            .caller = 1, .callee = 2, .link = 1};
    /* every call's candidates: the four requests (none cut) */
    for (int p = 0; p <= 8; p++)
        cand_off[p] = p < 4 ? 0 : (uint32_t)(4 * (p - 4));
    cand_off[8] = 16;
    static uint32_t cands[16];
    for (int i = 0; i < 16; i++)
        cands[i] = (uint32_t)(i % 4);
    s.cand = cands;
    s.cand_off = cand_off;
    for (int q = 0; q < 8; q++) {
        kids[q].a = kid_a[q];
        kids[q].cap = 4;
        par[q] = JOINT_NONE;
    }
    s.npairs = 8;
    s.nnodes = 3;
    s.nlinks = 2;
    s.pr = pr;
    s.par = par;
    s.kids = kids;
    s.link_src = lsrc;
    s.link_dst = ldst;
    s.bylink = bylink;
    s.bylink_off = bylink_off;
    s.tick = MS;
    s.coarse = 1;
    s.p.tick_fifo = 1;
    s.p.subtick_declined = 1;
    /* crossed: q0 <- p5, q1 <- p4; q2 <- p6, q3 <- p7 */
    joint_set_parent(&s, 5, 0);
    joint_set_parent(&s, 4, 1);
    joint_set_parent(&s, 6, 2);
    joint_set_parent(&s, 7, 3);
}

TEST(test_by_hand)
{
    setup();
    double n = -1, k = -1;
    double pv = joint_tickx_test(&s, 1, &n, &k);
    CHECK(n == 1 && k == 0);
    CHECK(pv > 0.9); /* one request: no evidence either way */
    pr[2].rs = 1 * MS + 500; /* q2 answered in tick 1: q1 answers after it */
    pv = joint_tickx_test(&s, 1, &n, &k);
    CHECK(n == 1 && k == 1);
    CHECK(joint_tickx_test(&s, 0, &n, &k) == 1.0 && n == 0); /* the client: no request */
}

TEST(assignment_by_hand)
{
    setup();
    /* four requests cannot pass the test (hundreds are needed): the
     * service's step alone, then the whole rule's gates */
    CHECK(joint_tickx_service(&s, 1) == PB_OK);
    CHECK(s.tickx_moved == 2 && s.tickx_kept == 0 && s.tickx_links == 1);
    CHECK(par[4] == 0 && par[5] == 1 && par[6] == 2 && par[7] == 3);
    /* again: in tick order already, nothing moves */
    s.tickx_moved = 0;
    CHECK(joint_tickx_service(&s, 1) == PB_OK && s.tickx_moved == 0);
    /* F>E listed with five pairs for F's four requests (3..7): the
     * ranks do not line up, the link is skipped */
    setup();
    bylink_off[1] = 3;
    CHECK(joint_tickx_service(&s, 1) == PB_OK);
    CHECK(s.tickx_links_skipped == 1 && s.tickx_moved == 0);
    bylink_off[1] = 4;
    /* the whole rule: the test does not pass on four requests, nothing
     * moves; gates: subtick not declined, or tick_fifo=0, nothing runs */
    setup();
    CHECK(joint_tickx_order(&s) == PB_OK && s.tickx_moved == 0 && s.tickx);
    CHECK(s.tickx[4 * 1 + 1] == 1 && s.tickx[4 * 1 + 3] == 0);
    CHECK(par[5] == 0 && par[4] == 1);
    free(s.tickx);
    setup();
    s.p.subtick_declined = 0;
    CHECK(joint_tickx_order(&s) == PB_OK && !s.tickx);
    s.p.subtick_declined = 1;
    s.p.tick_fifo = 0;
    CHECK(joint_tickx_order(&s) == PB_OK && !s.tickx);
}

int main(void)
{
    RUN(test_by_hand);
    RUN(assignment_by_hand);
    return pbtest_exit();
}
