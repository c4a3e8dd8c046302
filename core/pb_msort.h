/*
 * pb_msort.h - the stable merge sort behind pb_sort (core/pb_sort.h).
 *
 * glibc's qsort is a stable merge sort (msort.c) called through a
 * function pointer, with a malloc for any array past 1 KiB: on the small
 * arrays joint sorts thousands of times per trace (TrainTicket: 3,600
 * sorts, 15 % of the instructions) the calls dominate.  This one is
 * inlined at each call site, so the comparator is a direct call the
 * compiler may inline and the element copies have a constant size:
 * insertion sort on runs of PB_MSORT_RUN, then bottom-up merges taking
 * from the left run on ties.  Both are stable, so for a comparator that
 * is a consistent order (every one in the project: ties broken by index
 * or equal elements alike) the result is the one stable order, the same
 * array glibc's qsort leaves.  Speed only.
 */
#ifndef PB_MSORT_H
#define PB_MSORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PB_MSORT_RUN 8     /* insertion-sorted run length */
#define PB_MSORT_STACK 2048 /* bytes of scratch on the stack; malloc beyond */
#define PB_MSORT_MAX_BYTES ((size_t)1 << 20) /* pb_sort leaves larger arrays to qsort */

/* merge the sorted runs a[0..n1) and a[n1..n1+n2) (elements of `size`
 * bytes) into out, the left run first on ties */
static inline __attribute__((always_inline)) void
pb_msort_merge(const char *a, size_t n1, size_t n2, size_t size, char *out,
               int (*cmp)(const void *, const void *))
{
    const char *b = a + n1 * size;
    while (n1 > 0 && n2 > 0) {
        if (cmp(a, b) <= 0) {
            memcpy(out, a, size);
            a += size;
            n1--;
        } else {
            memcpy(out, b, size);
            b += size;
            n2--;
        }
        out += size;
    }
    if (n1)
        memcpy(out, a, n1 * size);
    if (n2)
        memcpy(out, b, n2 * size);
}

/* Sort n >= 2 elements of `size` bytes at base with cmp, stably.  Returns
 * 0, or -1 when no scratch could be had (nothing moved: the caller sorts
 * another way). */
static inline __attribute__((always_inline)) int
pb_msort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    char *a = base;
    /* runs by insertion: an element moves left past greater ones only */
    _Alignas(max_align_t) char one[64];
    char *hold = size <= sizeof one ? one : NULL;
    if (!hold && n > 1 && !(hold = malloc(size)))
        return -1;
    for (size_t r = 0; r < n; r += PB_MSORT_RUN) {
        size_t e = r + PB_MSORT_RUN < n ? r + PB_MSORT_RUN : n;
        for (size_t i = r + 1; i < e; i++) {
            size_t j = i;
            if (cmp(a + (j - 1) * size, a + i * size) <= 0)
                continue;
            memcpy(hold, a + i * size, size);
            do {
                memcpy(a + j * size, a + (j - 1) * size, size);
                j--;
            } while (j > r && cmp(a + (j - 1) * size, hold) > 0);
            memcpy(a + j * size, hold, size);
        }
    }
    if (hold != one)
        free(hold);
    if (n <= PB_MSORT_RUN)
        return 0;
    _Alignas(max_align_t) char stack[PB_MSORT_STACK];
    char *tmp = n * size <= sizeof stack ? stack : NULL;
    if (!tmp && (n > SIZE_MAX / size || !(tmp = malloc(n * size))))
        return -1; /* the runs are sorted: still a permutation of the input */
    char *src = a, *dst = tmp;
    for (size_t w = PB_MSORT_RUN; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t n1 = w < n - lo ? w : n - lo;
            size_t n2 = n - lo - n1 < w ? n - lo - n1 : w;
            pb_msort_merge(src + lo * size, n1, n2, size, dst + lo * size, cmp);
        }
        char *t = src;
        src = dst;
        dst = t;
    }
    if (src != a)
        memcpy(a, src, n * size);
    if (tmp != stack)
        free(tmp);
    return 0;
}

#endif
