/* par_tie (joint_partie.c, docs/joint/model.md "Ties in one tick in the
 * parallel-call counts (h283)"): at whole-millisecond stamps a return and
 * the next call's send in one tick count as neither overlap nor separate.
 * Hand-worked: 40 requests X -> B, 10 ms apart, each B -> C at +1 ms
 * answered at +3 ms and B -> D sent at +3 ms (the same tick) answered at
 * +5 ms, given call ids.  The only call pair of a request is (C, D), tied:
 * with par_tie=0 (main) the cell (C, D) holds 40 separate pairs and no
 * overlap; with par_tie=1 it holds neither and the 40 pairs are counted
 * as tied.  Second: on random traces with 1 ms stamps and par_tie=1 the
 * sweep (joint_par_sweep_min 0) counts what the pairs count, bit for bit. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"
#include "joint_rules.h"
#include <stdlib.h>

static pb_trace *tied_trace(void)
{
    pb_trace *t;
    if (pb_trace_new(&t) != PB_OK)
        return NULL;
    next_id = 1;
    const pb_ns ms = 1000 * 1000;
    uint64_t cid = 1;
    for (int q = 0; q < 40; q++) {
        pb_ns t0 = (pb_ns)q * 10 * ms;
        uint64_t x = cid++, c = cid++, d = cid++;
        msg(t, t0, "X", "B", PB_TYPE_CALL, x);
        msg(t, t0 + 1 * ms, "B", "C", PB_TYPE_CALL, c);
        msg(t, t0 + 3 * ms, "C", "B", PB_TYPE_RETURN, c);
        msg(t, t0 + 3 * ms, "B", "D", PB_TYPE_CALL, d);
        msg(t, t0 + 5 * ms, "D", "B", PB_TYPE_RETURN, d);
        msg(t, t0 + 6 * ms, "B", "X", PB_TYPE_RETURN, x);
    }
    pb_trace_sort(t);
    return t;
}

static void sums(const joint *s, double *ov, double *se)
{
    *ov = *se = 0;
    for (size_t h = 0; h < s->npar; h++) {
        *ov += s->pov[h];
        *se += s->pse[h];
    }
}

TEST(a_tie_in_one_tick_counts_as_neither)
{
    pb_trace *t = tied_trace();
    CHECK(t != NULL);
    if (!t)
        return;
    pb_trace_view v = pb_trace_view_of(t);
    for (int on = 0; on < 2; on++) {
        joint_params p = defaults();
        p.callids = 1;
        p.par_tie = on;
        joint *s = joint_test_init(&v, p);
        CHECK(s != NULL);
        if (!s)
            break;
        double ov, se;
        sums(s, &ov, &se);
        printf("# par_tie=%d: overlaps %.0f separate %.0f tied %zu tick %lld\n", on, ov, se,
               s->par_ties, (long long)joint_partie_tick(s));
        CHECK(ov == 0);
        if (on) {
            CHECK(se == 0);
            CHECK(s->par_ties >= 40);
            CHECK(joint_partie_tick(s) == 1000 * 1000);
        } else {
            CHECK(se == 40);
            CHECK(s->par_ties == 0);
        }
        joint_close(s);
    }
    pb_trace_close(t);
}

TEST(the_sweep_counts_what_the_pairs_count_with_par_tie)
{
    int bad = 0;
    size_t swept = 0, ties = 0;
    for (int seed = 3; seed <= 12; seed += 3) /* seed % 3 == 0: 1 ms stamps */
        for (int ids = 0; ids < 2; ids++) {
            pb_trace *t = joint_test_case_trace((unsigned long)(1310 * seed + ids), seed, ids, 120);
            CHECK(t != NULL);
            if (!t)
                break;
            pb_trace_view v = pb_trace_view_of(t);
            joint_params p = defaults();
            p.callids = ids;
            p.par_tie = 1;
            joint *s[2];
            joint_par_sweep_min = UINT32_MAX;
            s[0] = joint_test_init(&v, p);
            joint_par_sweep_min = 0;
            s[1] = joint_test_init(&v, p);
            joint_par_sweep_min = 64;
            CHECK(s[0] && s[1]);
            if (s[0] && s[1]) {
                long d = joint_test_pairs_differ(s[0], s[1]);
                d += s[0]->npar != s[1]->npar;
                if (!d && s[0]->npar)
                    d += memcmp(s[0]->pov, s[1]->pov, s[0]->npar * sizeof(double)) ||
                         memcmp(s[0]->pse, s[1]->pse, s[0]->npar * sizeof(double)) ||
                         memcmp(s[0]->pflag, s[1]->pflag, s[0]->npar);
                d += s[0]->par_ties != s[1]->par_ties;
                if (d) {
                    printf("# seed %d ids %d: %ld differences\n", seed, ids, d);
                    bad++;
                }
                swept += s[1]->par_sweeps;
                ties += s[1]->par_ties;
            }
            joint_close(s[0]);
            joint_close(s[1]);
            pb_trace_close(t);
        }
    joint_test_tick = 0;
    printf("# %zu requests swept, %zu tied pairs\n", swept, ties);
    CHECK_INT(bad, 0);
    CHECK(swept > 100);
    CHECK(ties > 0);
}

int main(void)
{
    RUN(a_tie_in_one_tick_counts_as_neither);
    RUN(the_sweep_counts_what_the_pairs_count_with_par_tie);
    return pbtest_exit();
}
