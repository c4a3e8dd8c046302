/* pb_sort / pb_search (core/pb_sort.h): an empty array held as NULL is
 * neither sorted nor searched (qsort and bsearch would be handed NULL,
 * which the sanitizer build stops on), and a non-empty one is sorted and
 * searched as qsort and bsearch do. */
#include "pbtest.h"
#include "pb_sort.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

TEST(empty_arrays_held_as_null)
{
    int *none = NULL;
    int key = 3;
    pb_sort(none, 0, sizeof *none, cmp_int);
    CHECK(pb_search(&key, none, 0, sizeof *none, cmp_int) == NULL);
    int one[1] = {7};
    pb_sort(one, 1, sizeof *one, cmp_int);
    CHECK_INT(one[0], 7);
}

TEST(sorts_and_finds_like_the_c_library)
{
    int a[7] = {5, -2, 9, 0, 5, 3, -7};
    pb_sort(a, 7, sizeof *a, cmp_int);
    int want[7] = {-7, -2, 0, 3, 5, 5, 9};
    for (int i = 0; i < 7; i++)
        CHECK_INT(a[i], want[i]);
    int key = 3, miss = 4;
    const int *hit = pb_search(&key, a, 7, sizeof *a, cmp_int);
    CHECK(hit == &a[3]);
    CHECK(pb_search(&miss, a, 7, sizeof *a, cmp_int) == NULL);
}

/* an element keyed by k (many ties), its first position in pos, and a
 * payload that makes it larger than pb_msort's 64-byte hold when big */
typedef struct {
    int k;
    uint32_t pos;
    char pad[72];
} big_el;

static int cmp_big(const void *a, const void *b)
{
    int x = ((const big_el *)a)->k, y = ((const big_el *)b)->k;
    return (x > y) - (x < y); /* ties left to the sort: stability shows */
}

typedef struct {
    int k;
    uint32_t pos;
} small_el;

static int cmp_small(const void *a, const void *b)
{
    int x = ((const small_el *)a)->k, y = ((const small_el *)b)->k;
    return (x > y) - (x < y);
}

/* pb_sort is stable (pb_msort.h): equal keys keep their input order, for
 * lengths around the insertion runs, past the stack scratch (malloc) and
 * for elements larger than its hold buffer; the sorted keys are a
 * permutation of the input (checked against the positions) */
TEST(stable_at_every_length_and_size)
{
    uint64_t x = 88172645463325252ull;
    static const size_t lens[] = {2, 3, 7, 8, 9, 15, 16, 17, 31, 64, 65, 200, 257, 1000, 5000};
    for (size_t li = 0; li < sizeof lens / sizeof *lens; li++) {
        size_t n = lens[li];
        small_el *a = malloc(n * sizeof *a);
        big_el *b = malloc(n * sizeof *b);
        unsigned char *seen = calloc(n, 1);
        CHECK(a && b && seen);
        if (!a || !b || !seen)
            return;
        for (size_t i = 0; i < n; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            a[i].k = b[i].k = (int)(x % (n / 3 + 1)); /* ties on purpose */
            a[i].pos = b[i].pos = (uint32_t)i;
            memset(b[i].pad, (int)(i & 0xff), sizeof b[i].pad);
        }
        pb_sort(a, n, sizeof *a, cmp_small);
        pb_sort(b, n, sizeof *b, cmp_big);
        int ok = 1;
        for (size_t i = 0; i < n; i++) {
            if (i > 0 && (a[i - 1].k > a[i].k || (a[i - 1].k == a[i].k && a[i - 1].pos > a[i].pos)))
                ok = 0;
            if (i > 0 && (b[i - 1].k > b[i].k || (b[i - 1].k == b[i].k && b[i - 1].pos > b[i].pos)))
                ok = 0;
            if (a[i].pos != b[i].pos || b[i].pad[71] != (char)(b[i].pos & 0xff) || seen[a[i].pos]++)
                ok = 0;
        }
        CHECK(ok);
        free(a);
        free(b);
        free(seen);
    }
}

int main(void)
{
    RUN(empty_arrays_held_as_null);
    RUN(sorts_and_finds_like_the_c_library);
    RUN(stable_at_every_length_and_size);
    return pbtest_exit();
}
