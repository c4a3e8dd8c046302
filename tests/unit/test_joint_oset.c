/* The set of calls a request makes, scored as one signature per incoming
 * endpoint (joint_oset.c; docs/joint/model.md "The set of calls a request
 * makes"), hand-worked. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint.h"
#include "joint_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MS 1000000LL

/* Service F, called by X, serves two request types through one endpoint:
 * A calls P and Q, B calls R and S.  20 requests of each type alone (one
 * a second, A at 0, 1, .., 19 s and B at 100, .., 119 s), then 4 pairs
 * of an A and a B request arriving in the same millisecond (200, .., 203
 * s): whole-millisecond stamps, every call sent 1 ms after the arrivals,
 * every return 1 ms later, both answers 1 ms after that.  The delays
 * cannot tell the two requests of a pair apart, nor can the per-link
 * counts: {P, Q} + {R, S} and {P, R} + {Q, S} give each link one call in
 * one request and none in the other.  Only the set decides.  The rows of
 * a pair are written R, P, S, Q (rot: rotated by rot) so that the order
 * of rows mixes the types; names come from nm (renamed nodes). */
static pb_trace *two_types(int rot, const char *const nm[6])
{
    pb_trace *t;
    pb_trace_new(&t);
    next_id = 1;
    uint64_t cid = 1;
    const char *X = nm[0], *F = nm[1];
    for (int ty = 0; ty < 2; ty++)
        for (int i = 0; i < 20; i++) {
            pb_ns a = (ty ? 100 : 0) * 1000 * MS + (pb_ns)i * 1000 * MS;
            const char *c1 = nm[ty ? 4 : 2], *c2 = nm[ty ? 5 : 3];
            uint64_t q = cid++, k1 = cid++, k2 = cid++;
            msg(t, a, X, F, PB_TYPE_CALL, q);
            msg(t, a + MS, F, c1, PB_TYPE_CALL, k1);
            msg(t, a + MS, F, c2, PB_TYPE_CALL, k2);
            msg(t, a + 2 * MS, c1, F, PB_TYPE_RETURN, k1);
            msg(t, a + 2 * MS, c2, F, PB_TYPE_RETURN, k2);
            msg(t, a + 3 * MS, F, X, PB_TYPE_RETURN, q);
        }
    for (int i = 0; i < 4; i++) {
        pb_ns a = 200 * 1000 * MS + (pb_ns)i * 1000 * MS;
        uint64_t qa = cid++, qb = cid++, k[4] = {cid, cid + 1, cid + 2, cid + 3};
        cid += 4;
        /* rows R, P, S, Q: k[0] -> P, k[1] -> Q (request qa), k[2] -> R,
         * k[3] -> S (qb) */
        const int ord[4] = {2, 0, 3, 1};
        const char *dst[4] = {nm[2], nm[3], nm[4], nm[5]};
        msg(t, a, X, F, PB_TYPE_CALL, (rot & 1) ? qb : qa);
        msg(t, a, X, F, PB_TYPE_CALL, (rot & 1) ? qa : qb);
        for (int j = 0; j < 4; j++) {
            int c = ord[(j + rot) % 4];
            msg(t, a + MS, F, dst[c], PB_TYPE_CALL, k[c]);
        }
        for (int j = 0; j < 4; j++) {
            int c = ord[(j + rot) % 4];
            msg(t, a + 2 * MS, dst[c], F, PB_TYPE_RETURN, k[c]);
        }
        msg(t, a + 3 * MS, F, X, PB_TYPE_RETURN, qa);
        msg(t, a + 3 * MS, F, X, PB_TYPE_RETURN, qb);
    }
    pb_trace_sort(t);
    return t;
}

/* the pairs of the calls of F into c1 and c2 of the i-th mixed pair (at
 * 200 + i s) share a parent, and those into c1 and c3 do not */
static int pair_right(const joint *s, const pb_trace *t, int i, const char *c1, const char *c2,
                      const char *c3)
{
    pb_ns a = 200 * 1000 * MS + (pb_ns)i * 1000 * MS + MS;
    uint32_t n1, n2, n3;
    if (!pb_strtab_find(t->names->nodes, c1, strlen(c1), &n1) ||
        !pb_strtab_find(t->names->nodes, c2, strlen(c2), &n2) ||
        !pb_strtab_find(t->names->nodes, c3, strlen(c3), &n3))
        return 0;
    uint32_t p1 = JOINT_NONE, p2 = JOINT_NONE, p3 = JOINT_NONE;
    for (uint32_t q = 0; q < joint_npairs(s); q++) {
        if (joint_pair_call(s, q) == JOINT_NONE)
            continue;
        const pb_msg *m = &t->msgs[joint_pair_call(s, q)];
        if (m->ts != a)
            continue;
        if (m->dst == n1)
            p1 = joint_pair_parent(s, q);
        if (m->dst == n2)
            p2 = joint_pair_parent(s, q);
        if (m->dst == n3)
            p3 = joint_pair_parent(s, q);
    }
    return p1 != JOINT_NONE && p1 == p2 && p1 != p3;
}

static int right_pairs(const joint *s, const pb_trace *t, const char *const nm[6])
{
    int r = 0;
    for (int i = 0; i < 4; i++)
        r += pair_right(s, t, i, nm[2], nm[3], nm[4]) && pair_right(s, t, i, nm[4], nm[5], nm[2]);
    return r;
}

static const char *const names0[6] = {"X", "F", "P", "Q", "R", "S"};
static const char *const names1[6] = {"zz", "aa", "mm", "bb", "yy", "cc"};

/* With the right assignment the signatures of X>F are {P, Q} (24
 * requests) and {R, S} (24), N = 48.  Each link has one call in 24
 * requests and none in 24: P(1) = P(0) = (24 + 0.1) / (48 + 1.6) =
 * 24.1 / 49.6 (alpha 0.1, counts 0..15), so P0({P, Q}) = (24.1 / 49.6)^4
 * = 0.055735 and P({P, Q}) = (24 + 1 P0) / (48 + 1) = 0.490933 (prior 1):
 * log -0.711447 against the per-link product's log P0 = -2.887116.  A
 * mixed set {P, R} was never seen: log(1 / 49) + log P0 = -6.778936.
 * out_sets=auto turns the term on at X>F (held-out gain about 2.3 nats a
 * request) and puts every call of the four mixed pairs with its type;
 * out_sets=off (the tree before) cannot tell the sets apart and gets some
 * of them wrong.  Rows rotated and nodes renamed change none of it. */
TEST(out_sets_by_hand)
{
    pb_error err;
    for (int variant = 0; variant < 3; variant++) {
        const char *const *nm = variant == 2 ? names1 : names0;
        pb_trace *t = two_types(variant == 1 ? 1 : 0, nm);
        pb_trace_view v = pb_trace_view_of(t);
        int right[2] = {0, 0};
        for (int on = 0; on < 2; on++) {
            joint_params p = defaults();
            p.out_sets = on ? "auto" : "off";
            joint *s;
            CHECK_INT(joint_init(&s, &v, &p, &err), PB_OK);
            right[on] = right_pairs(s, t, nm);
            if (!on) {
                CHECK(s->os_ein == NULL);
                CHECK_INT((int)s->os_nmeta, 0);
                joint_close(s);
                continue;
            }
            CHECK(s->os_ein != NULL);
            uint32_t q = pair_at(s, t, 0, nm[0]);
            CHECK(q != JOINT_NONE);
            if (!s->os_ein || q == JOINT_NONE) {
                joint_close(s);
                continue;
            }
            uint32_t ein = s->pr[q].link, b = s->pr[q].callee;
            CHECK_INT(s->os_ein[ein], 1);
            CHECK_INT((int)(s->out_off[b + 1] - s->out_off[b]), 4);
            /* the signatures by hand: link order is the service's own */
            uint32_t c[4] = {0, 0, 0, 0};
            for (uint32_t i = 0; i < s->kids[q].n; i++)
                c[s->link_local[s->pr[s->kids[q].a[i]].link]]++;
            double vset = 0, p0 = log(pow(24.1 / 49.6, 4));
            CHECK_INT(joint_os_walk(s, ein, c, 4, 0, &vset), PB_OK);
            CHECK_NEAR(vset, log((24 + exp(p0)) / 49.0), 1e-9);
            CHECK_NEAR(vset, -0.711447, 1e-6);
            CHECK_NEAR(p0, -2.887116, 1e-6);
            /* a mixed set: one call of the request's own type moved to a
             * link of the other type (still two calls) */
            uint32_t mix[4] = {c[0], c[1], c[2], c[3]}, i1 = 0, i0 = 0;
            while (i1 < 3 && !c[i1])
                i1++;
            while (i0 < 3 && c[i0])
                i0++;
            mix[i1] = 0;
            mix[i0] = 1;
            double vmix = 0;
            CHECK_INT(joint_os_walk(s, ein, mix, 4, 0, &vmix), PB_OK);
            CHECK_NEAR(vmix, log(1.0 / 49) + p0, 1e-9);
            CHECK_NEAR(vmix, -6.778936, 1e-6);
            /* the request's likelihood holds the term in place of the
             * per-link product */
            double with = joint_req_ll(s, q);
            s->os_ein[ein] = 0;
            double without = joint_req_ll(s, q);
            s->os_ein[ein] = 1;
            CHECK_NEAR(with - without, vset - p0, 1e-9);
            joint_close(s);
        }
        printf("# variant %d: mixed pairs right %d (out_sets=off) %d (auto) of 4\n", variant,
               right[0], right[1]);
        CHECK_INT(right[1], 4);
        CHECK(right[0] < 4);
        pb_trace_close(t);
    }
}

/* bad values of out_sets are refused with what was expected */
TEST(out_sets_bad_value)
{
    pb_trace *t = two_types(0, names0);
    pb_trace_view v = pb_trace_view_of(t);
    joint_params p = defaults();
    p.out_sets = "sometimes";
    joint *s = NULL;
    pb_error err;
    CHECK_INT(joint_init(&s, &v, &p, &err), PB_EINVAL);
    CHECK(strstr(err.msg, "out_sets") != NULL);
    pb_trace_close(t);
}

int main(void)
{
    RUN(out_sets_by_hand);
    RUN(out_sets_bad_value);
    return pbtest_exit();
}
