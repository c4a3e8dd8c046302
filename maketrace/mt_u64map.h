/*
 * mt_u64map.h - a small open-addressing map from 64-bit keys to 32-bit
 * values, for the config checks and the engines' per-pair state: a table
 * indexed by node x node (or label x node) grows with the square of the
 * config, a map with what the config uses (hostile round 18).
 */
#ifndef MT_U64MAP_H
#define MT_U64MAP_H

#include <stdint.h>
#include <stdlib.h>

#include "pb_hash.h"

typedef struct mt_u64map {
    uint64_t *k;
    uint32_t *v;      /* UINT32_MAX: empty slot */
    size_t cap, n;    /* cap: a power of two, or 0 */
} mt_u64map;

static inline void mt_u64map_free(mt_u64map *m)
{
    free(m->k);
    free(m->v);
    m->k = NULL;
    m->v = NULL;
    m->cap = m->n = 0;
}

/* The slot of key (its value UINT32_MAX when absent), or NULL when the
 * map is empty. */
static inline uint32_t *mt_u64map_slot(const mt_u64map *m, uint64_t key)
{
    if (!m->cap)
        return NULL;
    size_t i = (size_t)pb_mix64(key) & (m->cap - 1);
    while (m->v[i] != UINT32_MAX && m->k[i] != key)
        i = (i + 1) & (m->cap - 1);
    return &m->v[i];
}

/* The value of key, or UINT32_MAX when absent. */
static inline uint32_t mt_u64map_get(const mt_u64map *m, uint64_t key)
{
    const uint32_t *s = mt_u64map_slot(m, key);
    return s ? *s : UINT32_MAX;
}

/* The value of key; when absent, inserts val and returns it (*added = 1).
 * UINT32_MAX on out of memory. */
static inline uint32_t mt_u64map_put(mt_u64map *m, uint64_t key, uint32_t val, int *added)
{
    *added = 0;
    if (2 * (m->n + 1) > m->cap) {
        size_t nc = m->cap ? 2 * m->cap : 16;
        uint64_t *nk = malloc(nc * sizeof *nk);
        uint32_t *nv = malloc(nc * sizeof *nv);
        if (!nk || !nv) {
            free(nk);
            free(nv);
            return UINT32_MAX;
        }
        for (size_t i = 0; i < nc; i++)
            nv[i] = UINT32_MAX;
        for (size_t i = 0; i < m->cap; i++)
            if (m->v[i] != UINT32_MAX) {
                size_t j = (size_t)pb_mix64(m->k[i]) & (nc - 1);
                while (nv[j] != UINT32_MAX)
                    j = (j + 1) & (nc - 1);
                nk[j] = m->k[i];
                nv[j] = m->v[i];
            }
        free(m->k);
        free(m->v);
        m->k = nk;
        m->v = nv;
        m->cap = nc;
    }
    size_t i = (size_t)pb_mix64(key) & (m->cap - 1);
    while (m->v[i] != UINT32_MAX && m->k[i] != key)
        i = (i + 1) & (m->cap - 1);
    if (m->v[i] == UINT32_MAX) {
        m->k[i] = key;
        m->v[i] = val;
        m->n++;
        *added = 1;
    }
    return m->v[i];
}

#endif
