/*
 * pb_mem.c - growing arrays (pb_mem.h).
 */
#include "pb_mem.h"
#include "pb_error.h"

#include <stdlib.h>
#include <string.h>

int pb_grow(void *arrp, size_t elsz, size_t *cap, size_t need, size_t first)
{
    if (need <= *cap)
        return PB_OK;
    size_t nc = *cap ? *cap : (first ? first : 1);
    while (nc < need) {
        if (nc > SIZE_MAX / 2)
            return PB_ENOMEM;
        nc *= 2;
    }
    if (elsz && nc > SIZE_MAX / elsz)
        return PB_ENOMEM;
    void *old;
    memcpy(&old, arrp, sizeof old);
    void *a = realloc(old, nc * elsz);
    if (!a)
        return PB_ENOMEM;
    memcpy(arrp, &a, sizeof a);
    *cap = nc;
    return PB_OK;
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
