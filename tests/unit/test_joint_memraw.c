/* joint_memraw.c (docs/joint/scale.md, "Memory per key (h227)"):
 * joint_fit's memo of each key's raw histogram holds the key's filled
 * bins only.  On random fan-out traces with and without call ids (the
 * cases of joint_test_case_trace), after the search: a refit through the
 * memo and a refit with the memo emptied (every key fitted afresh) give
 * every density row and key mean to the bit; the memo holds far fewer
 * doubles than a whole row per key (nb + 3); and a kept density that its
 * counts do not give (the test's fault) is seen by the same comparison. */
#include "pbtest.h"
#include "joint_test.h"
#include "joint_int.h"

/* refit s through the memo, then afresh; how many doubles of the density
 * rows and key means differ (-1: out of memory).  fault: key 0's density
 * raised by one nat at its first filled bin after the first refit (the
 * memo then keeps a row its counts do not give) */
static long memo_vs_fresh(joint *s, int fault)
{
    const size_t nb = s->nb, nk = s->nkeys;
    if (joint_fit(s, NULL) != PB_OK)
        return -1;
    if (fault && nk) {
        double *c = joint_lf_cell(s, 0, s->hlo[0] < nb ? s->hlo[0] : 0);
        if (c)
            *c += 1.0;
    }
    if (joint_fit(s, NULL) != PB_OK)
        return -1;
    double *lf = malloc((nk * nb + 1) * sizeof *lf), *km = malloc((nk + 1) * sizeof *km);
    if (!lf || !km) {
        free(lf);
        free(km);
        return -1;
    }
    joint_mrow_lf_rows(s, lf);
    memcpy(km, s->kmean, nk * sizeof *km);
    s->hraw_valid = 0;
    long d = -1;
    if (joint_fit(s, NULL) == PB_OK) {
        d = 0;
        d += joint_mrow_lf_diff(s, 0, (uint32_t)nk, lf);
        for (size_t i = 0; i < nk; i++)
            d += memcmp(&km[i], &s->kmean[i], sizeof *km) != 0;
    }
    free(lf);
    free(km);
    return d;
}

TEST(memo_same_densities_and_small)
{
    long bad = 0, bad_fault = 0;
    int cases = 0, faulty = 0;
    size_t used = 0, whole = 0;
    for (int fault = 0; fault < 2; fault++)
        for (int seed = 1; seed <= 8; seed++)
            for (int ids = 0; ids < 2; ids++) {
                pb_trace *t = joint_test_case_trace((unsigned long)(7919 * seed + ids), seed, ids, 40);
                CHECK(t != NULL);
                if (!t)
                    continue;
                pb_trace_view v = pb_trace_view_of(t);
                joint_params p = defaults();
                p.callids = ids;
                joint *s = joint_test_init(&v, p);
                CHECK(s != NULL);
                if (s) {
                    if (!fault) {
                        used += joint_mr_used(s);
                        whole += (size_t)s->nkeys * (s->nb + 3);
                    }
                    long d = memo_vs_fresh(s, fault);
                    CHECK(d >= 0);
                    if (fault) {
                        bad_fault += d > 0;
                        faulty++;
                    } else {
                        if (d)
                            printf("# seed %d ids %d: %ld doubles differ\n", seed, ids, d);
                        bad += d != 0;
                        cases++;
                    }
                    joint_close(s);
                }
                pb_trace_close(t);
                joint_test_tick = 0;
            }
    printf("# %d cases, %ld differ; the memo held %zu doubles, whole rows %zu; "
           "with a lying memo %ld of %d differ\n", cases, bad, used, whole, bad_fault, faulty);
    CHECK_INT(cases, 16);
    CHECK_INT((int)bad, 0);
    CHECK(used > 0 && used * 4 < whole);
    CHECK(bad_fault >= 8);
}

int main(void)
{
    RUN(memo_same_densities_and_small);
    return pbtest_exit();
}
