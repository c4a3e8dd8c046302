#include "pb_strtab.h"
#include "pb_error.h"

#include <stdlib.h>
#include <string.h>

/* Strings live in fixed-size arena blocks that never move, so pointers stay
 * valid as the table grows. */
typedef struct arena_block {
    struct arena_block *next;
    size_t used, cap;
    char data[];
} arena_block;

struct pb_strtab {
    uint32_t count, cap_entries;
    const char **strs;  /* index -> string */
    uint32_t *lens;
    uint32_t *slots;    /* hash slots: index+1, 0 = empty */
    uint64_t *slot_hash;
    size_t nslots;      /* power of two */
    arena_block *arena;
};

uint64_t pb_hash_bytes(const void *p, size_t len)
{
    const unsigned char *s = p;
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < len; i++) {
        h ^= s[i];
        h *= 1099511628211ULL;
    }
    /* final mix so that low bits depend on all input bits */
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

int pb_strtab_init(pb_strtab **out)
{
    pb_strtab *t = calloc(1, sizeof *t);
    if (!t)
        return PB_ENOMEM;
    t->nslots = 64;
    t->slots = calloc(t->nslots, sizeof *t->slots);
    t->slot_hash = calloc(t->nslots, sizeof *t->slot_hash);
    if (!t->slots || !t->slot_hash) {
        pb_strtab_close(t);
        return PB_ENOMEM;
    }
    *out = t;
    return PB_OK;
}

void pb_strtab_close(pb_strtab *t)
{
    if (!t)
        return;
    arena_block *b = t->arena;
    while (b) {
        arena_block *n = b->next;
        free(b);
        b = n;
    }
    free(t->strs);
    free(t->lens);
    free(t->slots);
    free(t->slot_hash);
    free(t);
}

static char *arena_alloc(pb_strtab *t, size_t n)
{
    arena_block *b = t->arena;
    if (!b || b->cap - b->used < n) {
        size_t cap = n > 65536 ? n : 65536;
        arena_block *nb = malloc(sizeof *nb + cap);
        if (!nb)
            return NULL;
        nb->next = b;
        nb->used = 0;
        nb->cap = cap;
        t->arena = nb;
        b = nb;
    }
    char *p = b->data + b->used;
    b->used += n;
    return p;
}

static int grow_slots(pb_strtab *t)
{
    size_t ns = t->nslots * 2;
    uint32_t *slots = calloc(ns, sizeof *slots);
    uint64_t *hashes = calloc(ns, sizeof *hashes);
    if (!slots || !hashes) {
        free(slots);
        free(hashes);
        return PB_ENOMEM;
    }
    for (size_t i = 0; i < t->nslots; i++) {
        if (!t->slots[i])
            continue;
        size_t j = t->slot_hash[i] & (ns - 1);
        while (slots[j])
            j = (j + 1) & (ns - 1);
        slots[j] = t->slots[i];
        hashes[j] = t->slot_hash[i];
    }
    free(t->slots);
    free(t->slot_hash);
    t->slots = slots;
    t->slot_hash = hashes;
    t->nslots = ns;
    return PB_OK;
}

static size_t probe(const pb_strtab *t, const char *s, size_t len, uint64_t h,
                    int *found)
{
    size_t j = h & (t->nslots - 1);
    while (t->slots[j]) {
        uint32_t idx = t->slots[j] - 1;
        if (t->slot_hash[j] == h && t->lens[idx] == len &&
            memcmp(t->strs[idx], s, len) == 0) {
            *found = 1;
            return j;
        }
        j = (j + 1) & (t->nslots - 1);
    }
    *found = 0;
    return j;
}

int pb_strtab_find(const pb_strtab *t, const char *s, size_t len,
                   uint32_t *index)
{
    int found;
    size_t j = probe(t, s, len, pb_hash_bytes(s, len), &found);
    if (found && index)
        *index = t->slots[j] - 1;
    return found;
}

int pb_strtab_intern(pb_strtab *t, const char *s, size_t len, uint32_t *index)
{
    uint64_t h = pb_hash_bytes(s, len);
    int found;
    size_t j = probe(t, s, len, h, &found);
    if (found) {
        *index = t->slots[j] - 1;
        return PB_OK;
    }
    if ((size_t)(t->count + 1) * 2 > t->nslots) {
        if (grow_slots(t) != PB_OK)
            return PB_ENOMEM;
        j = probe(t, s, len, h, &found);
    }
    if (t->count == t->cap_entries) {
        uint32_t nc = t->cap_entries ? t->cap_entries * 2 : 64;
        const char **strs = realloc(t->strs, nc * sizeof *strs);
        if (!strs)
            return PB_ENOMEM;
        t->strs = strs;
        uint32_t *lens = realloc(t->lens, nc * sizeof *lens);
        if (!lens)
            return PB_ENOMEM;
        t->lens = lens;
        t->cap_entries = nc;
    }
    char *copy = arena_alloc(t, len + 1);
    if (!copy)
        return PB_ENOMEM;
    memcpy(copy, s, len);
    copy[len] = '\0';
    t->strs[t->count] = copy;
    t->lens[t->count] = (uint32_t)len;
    t->slots[j] = t->count + 1;
    t->slot_hash[j] = h;
    *index = t->count++;
    return PB_OK;
}

const char *pb_strtab_str(const pb_strtab *t, uint32_t index)
{
    if (!t || index >= t->count)
        return NULL;
    return t->strs[index];
}

size_t pb_strtab_len(const pb_strtab *t, uint32_t index)
{
    if (!t || index >= t->count)
        return 0;
    return t->lens[index];
}

uint32_t pb_strtab_count(const pb_strtab *t)
{
    return t ? t->count : 0;
}
