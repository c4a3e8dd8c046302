/*
 * pb_sort.h - qsort and bsearch for arrays that may be empty.
 *
 * The C library declares qsort's and bsearch's array argument non-null
 * even when the count is 0, so an empty array held as NULL (as every
 * pb_grow array starts) is undefined behaviour there, and the sanitizer
 * build stops on it.  Every sort and binary search in the project goes
 * through these two (tests/sh/test_sort_calls.sh checks it).
 */
#ifndef PB_SORT_H
#define PB_SORT_H

#include <stddef.h>
#include <stdlib.h>
#include "pb_msort.h"

/* Sort the n elements of `size` bytes at `base` with `cmp`, stably (by
 * pb_msort, inlined here: pb_msort.h says why; qsort for an array past
 * PB_MSORT_MAX_BYTES, or when pb_msort finds no scratch memory).  base may be NULL when n is 0; nothing happens when
 * n < 2.  The caller owns the array. */
static inline __attribute__((always_inline)) void pb_sort(void *base, size_t n, size_t size,
                                                          int (*cmp)(const void *, const void *))
{
    /* a large array: glibc's qsort (the same stable order), which sorts
     * pointers to large elements and moves each element once; the inlined
     * merge copies whole elements at every level (the 2 M-message row was
     * 2 % slower with it) */
    if (n > 1 && (n > PB_MSORT_MAX_BYTES / size || pb_msort(base, n, size, cmp) != 0))
        qsort(base, n, size, cmp);
}

/* Find `key` among the n sorted elements of `size` bytes at `base`, as
 * bsearch does.  base may be NULL when n is 0.  Returns a pointer to a
 * matching element (any one of several equal ones), or NULL when there is
 * none or n is 0. */
static inline void *pb_search(const void *key, const void *base, size_t n, size_t size,
                              int (*cmp)(const void *, const void *))
{
    return n ? bsearch(key, base, n, size, cmp) : NULL;
}

#endif
