/*
 * pbtest.h - a minimal unit test harness.  Each TEST is a function; main
 * calls RUN for each.  A test prints "PASS name" or "FAIL name: where: what"
 * (tests/run.sh counts those lines); main returns pbtest_exit().
 */
#ifndef PBTEST_H
#define PBTEST_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int pbtest_failed_now, pbtest_failures;

#define TEST(name) static void name(void)

#define RUN(name)                                                          \
    do {                                                                   \
        pbtest_failed_now = 0;                                             \
        name();                                                            \
        if (pbtest_failed_now)                                             \
            pbtest_failures++;                                             \
        else                                                               \
            printf("PASS %s\n", #name);                                    \
        fflush(stdout);                                                    \
    } while (0)

#define PBT_FAIL(...)                                                      \
    do {                                                                   \
        printf("FAIL %s: %s:%d: ", __func__, __FILE__, __LINE__);          \
        printf(__VA_ARGS__);                                               \
        printf("\n");                                                      \
        pbtest_failed_now = 1;                                             \
    } while (0)

#define CHECK(cond)                                                        \
    do {                                                                   \
        if (!(cond))                                                       \
            PBT_FAIL("check failed: %s", #cond);                           \
    } while (0)

#define CHECK_INT(a, b)                                                    \
    do {                                                                   \
        long long pbt_a = (long long)(a), pbt_b = (long long)(b);          \
        if (pbt_a != pbt_b)                                                \
            PBT_FAIL("%s == %lld, expected %s == %lld", #a, pbt_a, #b,     \
                     pbt_b);                                               \
    } while (0)

#define CHECK_STR(a, b)                                                    \
    do {                                                                   \
        const char *pbt_a = (a), *pbt_b = (b);                             \
        if (!pbt_a || !pbt_b || strcmp(pbt_a, pbt_b))                      \
            PBT_FAIL("%s == \"%s\", expected \"%s\"", #a,                  \
                     pbt_a ? pbt_a : "(null)", pbt_b ? pbt_b : "(null)");  \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                              \
    do {                                                                   \
        double pbt_a = (a), pbt_b = (b);                                   \
        if (!(fabs(pbt_a - pbt_b) <= (tol)))                               \
            PBT_FAIL("%s == %.12g, expected %.12g +- %g", #a, pbt_a,       \
                     pbt_b, (double)(tol));                                \
    } while (0)

static inline int pbtest_exit(void) { return pbtest_failures ? 1 : 0; }

#endif
