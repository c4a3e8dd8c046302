/*
 * pb_mem.c - growing arrays (pb_mem.h).
 */
#include "pb_mem.h"
#include "pb_error.h"

#include <stdlib.h>
#include <string.h>

int pb_grow_parallel(size_t *cap, size_t need, size_t first, size_t n,
                     void *const arrps[], const size_t elsz[])
{
    if (need <= *cap)
        return PB_OK;
    size_t nc = *cap ? *cap : (first ? first : 1);
    while (nc < need) {
        if (nc > SIZE_MAX / 2)
            return PB_ENOMEM;
        nc *= 2;
    }
    for (size_t i = 0; i < n; i++)
        if (elsz[i] && nc > SIZE_MAX / elsz[i])
            return PB_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        void *old;
        memcpy(&old, arrps[i], sizeof old);
        void *a = realloc(old, nc * elsz[i]);
        if (!a)
            return PB_ENOMEM;
        memcpy(arrps[i], &a, sizeof a);
    }
    *cap = nc;
    return PB_OK;
}

int pb_grow(void *arrp, size_t elsz, size_t *cap, size_t need, size_t first)
{
    void *const arrps[1] = {arrp};
    return pb_grow_parallel(cap, need, first, 1, arrps, &elsz);
}

int pb_grow32(void *arrp, size_t elsz, uint32_t *cap, uint32_t need, uint32_t first)
{
    if (need <= *cap)
        return PB_OK;
    size_t nc = *cap ? *cap : (first ? first : 1);
    while (nc < need)
        nc *= 2;
    if (nc > UINT32_MAX)
        return PB_ENOMEM;
    size_t c = *cap;
    int rc = pb_grow(arrp, elsz, &c, need, first);
    if (rc == PB_OK)
        *cap = (uint32_t)c;
    return rc;
}
