/*
 * pb_mem.h - growing arrays: the one doubling rule the library's growable
 * arrays share.
 */
#ifndef PB_MEM_H
#define PB_MEM_H

#include <stddef.h>
#include <stdint.h>

/* Make the array whose pointer is at `arrp` (a T ** passed as void *; the
 * array is owned by the caller and may be NULL when *cap is 0) hold at
 * least `need` elements of `elsz` bytes.  When need <= *cap nothing
 * changes; otherwise the capacity starts at *cap (or at `first` when *cap
 * is 0, which must be > 0) and doubles until it reaches need, the array is
 * reallocated (contents kept, new elements uninitialised) and *cap set.
 * Returns PB_OK, or PB_ENOMEM when the allocation fails or the size would
 * overflow; then the array and *cap are unchanged. */
int pb_grow(void *arrp, size_t elsz, size_t *cap, size_t need, size_t first);

/* pb_grow for a uint32_t capacity: the same rule, and PB_ENOMEM also when
 * the new capacity would not fit in 32 bits. */
int pb_grow32(void *arrp, size_t elsz, uint32_t *cap, uint32_t need, uint32_t first);

/* pb_grow for n parallel arrays that share one capacity *cap: arrps[i] is
 * the address of the i-th array's pointer (a T ** passed as void *), and
 * elsz[i] its element size.  The new capacity follows pb_grow's rule and
 * every array is reallocated to it.  Returns PB_OK (*cap is then the new
 * capacity), or PB_ENOMEM: *cap is unchanged and every array still holds
 * at least *cap elements (those reallocated before the failure hold more);
 * the caller owns them all as before. */
int pb_grow_parallel(size_t *cap, size_t need, size_t first, size_t n,
                     void *const arrps[], const size_t elsz[]);

#endif
