/* joint's tie_sets rule (joint_tieset.c), by hand.
 *
 * A trace X>F>P with call ids: 20 requests, 10 ms apart, each F call
 * makes two calls to P.  The pairs come from the ids; the two solutions
 * the tie test compares are written by hand as parent arrays:
 *   search: every P call under its own request (all 20 on the set {P: 2});
 *   start: the second P call of requests 0, 2, 4 under requests 1, 3, 5
 *   (those six off the set: 1 and 3 calls), o = 6, r = 0, p = 1/64 <
 *   0.05: refuted.  Two such moves only: o = 4, p = 1/16: not refuted.
 * The reverse (the search breaks the sets the start keeps): o = 0, r = 6.
 * A request whose return the start lost is no request of the test (left
 * out of use[]): requests 0 and 1 out, o = 4.  A start that moves so many
 * calls that its mode ({P: 1}, or no majority) is not the search's: no
 * endpoint is used and nothing is counted.  A request that truly makes a
 * third call (a repeated call, in both solutions) is off the set in both:
 * not counted. */
#include "pbtest.h"
#include "joint.h"
#include "joint_int.h"
#include "joint_test.h"

#include <stdlib.h>

#define NREQ 20
static const pb_ns MS = 1000000;

/* request r: X>F call, F>P call, P>F return, F>P call, P>F return, F>X
 * return, 1 ms apart from r x 10 ms; extra: request 7 makes a third call */
static pb_trace *sets_trace(int extra)
{
    pb_trace *t;
    pb_trace_new(&t);
    next_id = 1;
    uint64_t id = 1;
    for (int r = 0; r < NREQ; r++) {
        pb_ns b = (pb_ns)r * 10 * MS;
        uint64_t top = id++;
        msg(t, b, "X", "F", PB_TYPE_CALL, top);
        int nc = extra && r == 7 ? 3 : 2;
        for (int k = 0; k < nc; k++) {
            msg(t, b + (2 * k + 1) * MS / 4, "F", "P", PB_TYPE_CALL, id);
            msg(t, b + (2 * k + 2) * MS / 4, "P", "F", PB_TYPE_RETURN, id);
            id++;
        }
        msg(t, b + 2 * MS, "F", "X", PB_TYPE_RETURN, top);
    }
    pb_trace_sort(t);
    return t;
}

typedef struct fix {
    pb_trace *t;
    joint *s;
    uint32_t top[NREQ];       /* the X>F pair of request r */
    uint32_t kid[NREQ][3];    /* its F>P pairs, in call order */
    uint32_t nkid[NREQ];
    uint32_t *search, *start;
    unsigned char *use;
} fix;

static int fix_open(fix *f, int extra)
{
    memset(f, 0, sizeof *f);
    f->t = sets_trace(extra);
    pb_trace_view v = pb_trace_view_of(f->t);
    joint_params p = defaults();
    pb_error err;
    if (joint_init(&f->s, &v, &p, &err) != PB_OK)
        return -1;
    joint *s = f->s;
    uint32_t n = s->npairs;
    f->search = malloc(n * sizeof *f->search);
    f->start = malloc(n * sizeof *f->start);
    f->use = malloc(n);
    for (uint32_t q = 0; q < n; q++) {
        int r = (int)(s->pr[q].cs / (10 * MS));
        const char *src = pb_strtab_str(s->v.nodes, s->pr[q].caller);
        if (src[0] == 'X')
            f->top[r] = q;
        else
            f->kid[r][f->nkid[r]++] = q; /* pairs in call order */
        f->use[q] = 1;
    }
    for (int r = 0; r < NREQ; r++) {
        f->search[f->top[r]] = f->start[f->top[r]] = JOINT_NONE;
        for (uint32_t k = 0; k < f->nkid[r]; k++)
            f->search[f->kid[r][k]] = f->start[f->kid[r][k]] = f->top[r];
    }
    return 0;
}

static void fix_close(fix *f)
{
    joint_close(f->s);
    pb_trace_close(f->t);
    free(f->search);
    free(f->start);
    free(f->use);
}

/* the second P call of request a under request b in parents par */
static void move(fix *f, uint32_t *par, int a, int b)
{
    par[f->kid[a][1]] = f->top[b];
}

static void count(fix *f, size_t *eps, size_t *o, size_t *r)
{
    size_t reqs;
    CHECK_INT(joint_tieset_count(f->s, f->start, f->search, f->use, eps, &reqs, o, r), PB_OK);
}

TEST(tieset_sign_test_by_hand)
{
    fix f;
    CHECK_INT(fix_open(&f, 0), 0);
    size_t eps, o, r;
    count(&f, &eps, &o, &r);
    CHECK_INT((int)o, 0); /* the same sets: nothing to count */
    CHECK_INT((int)r, 0);
    move(&f, f.start, 0, 1);
    move(&f, f.start, 2, 3);
    count(&f, &eps, &o, &r);
    CHECK_INT((int)eps, 1); /* X>F (P's requests make no calls) */
    CHECK_INT((int)o, 4);
    CHECK_INT((int)r, 0);
    CHECK(!joint_tieorph_refutes(o, r)); /* p = 1/16 */
    move(&f, f.start, 4, 5);
    count(&f, &eps, &o, &r);
    CHECK_INT((int)o, 6);
    CHECK_INT((int)r, 0);
    CHECK(joint_tieorph_refutes(o, r)); /* p = 1/64 */
    /* the reverse: the search breaks the sets */
    CHECK_INT(joint_tieset_count(f.s, f.search, f.start, f.use, &eps, &(size_t){0}, &o, &r),
              PB_OK);
    CHECK_INT((int)o, 0);
    CHECK_INT((int)r, 6);
    CHECK(!joint_tieorph_refutes(o, r));
    /* requests 0 and 1 lost their return in the start: not requests of the test */
    f.use[f.top[0]] = f.use[f.top[1]] = 0;
    count(&f, &eps, &o, &r);
    CHECK_INT((int)o, 4);
    f.use[f.top[0]] = f.use[f.top[1]] = 1;
    /* the start's mode is no longer the search's (8 moves: 16 of 20 off) */
    for (int a = 6; a < 16; a += 2)
        move(&f, f.start, a, a + 1);
    count(&f, &eps, &o, &r);
    CHECK_INT((int)eps, 0);
    CHECK_INT((int)o, 0);
    CHECK_INT((int)r, 0);
    fix_close(&f);
}

TEST(tieset_repeated_call_not_counted)
{
    fix f;
    CHECK_INT(fix_open(&f, 1), 0);
    CHECK_INT((int)f.nkid[7], 3);
    size_t eps, o, r;
    count(&f, &eps, &o, &r);
    CHECK_INT((int)eps, 1);
    CHECK_INT((int)o, 0); /* request 7 is off {P: 2} in both */
    CHECK_INT((int)r, 0);
    /* a start that puts request 7's third call under request 8 brings 7 onto
     * the set and takes 8 off it: one each way, nothing in either direction */
    f.start[f.kid[7][2]] = f.top[8];
    count(&f, &eps, &o, &r);
    CHECK_INT((int)o, 1); /* 8: off in the start, on in the search */
    CHECK_INT((int)r, 1); /* 7: on in the start, off in the search */
    fix_close(&f);
}

/* tie_sets=2: the sign test's level shared among the tie test's moves.  o = 10,
 * r = 0: p = 2^-10 = 0.000977 (joint_ticks 2 workers 1 ms with ids, seed 6:
 * the start right): refuted by tie_sets=1's 0.05, not against 587 moves (level
 * 0.05 / 587 = 8.5e-5); o = 20, r = 0 (p = 9.5e-7) is.  Against one move the
 * level is tie_sets=1's; o <= r never refutes; no move counts as one. */
TEST(tieset_weighs_the_moves)
{
    CHECK(joint_tieorph_refutes(10, 0));
    CHECK(!joint_tieset_weighs(10, 0, 0.05, 587));
    CHECK(joint_tieset_weighs(20, 0, 0.05, 587));
    CHECK(joint_tieset_weighs(6, 0, 0.05, 1));  /* p = 1/64 */
    CHECK(!joint_tieset_weighs(4, 0, 0.05, 1)); /* p = 1/16 */
    CHECK(joint_tieset_weighs(6, 0, 0.05, 0));
    CHECK(!joint_tieset_weighs(5, 5, 1.0, 1));
    CHECK(!joint_tieset_weighs(0, 9, 1.0, 1));
    /* the level is the option's: a looser one refutes the 10 against 587 */
    CHECK(joint_tieset_weighs(10, 0, 0.6, 587));
}

int main(void)
{
    RUN(tieset_sign_test_by_hand);
    RUN(tieset_weighs_the_moves);
    RUN(tieset_repeated_call_not_counted);
    return pbtest_exit();
}
