/* pb_sort / pb_search (core/pb_sort.h): an empty array held as NULL is
 * neither sorted nor searched (qsort and bsearch would be handed NULL,
 * which the sanitizer build stops on), and a non-empty one is sorted and
 * searched as qsort and bsearch do. */
#include "pbtest.h"
#include "pb_sort.h"

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

int main(void)
{
    RUN(empty_arrays_held_as_null);
    RUN(sorts_and_finds_like_the_c_library);
    return pbtest_exit();
}
