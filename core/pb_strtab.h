/*
 * pb_strtab.h - string interning: each distinct string gets a small dense
 * integer (0, 1, 2, ... in order of first appearance).
 *
 * Used for node names, non-numeric call ids and path ids.  Strings are
 * copied into the table's own arena; pointers returned by pb_strtab_str()
 * stay valid until pb_strtab_close().
 */
#ifndef PB_STRTAB_H
#define PB_STRTAB_H

#include <stddef.h>
#include <stdint.h>

typedef struct pb_strtab pb_strtab;

/* Create an empty table in *out.  Returns PB_OK or PB_ENOMEM. */
int pb_strtab_init(pb_strtab **out);

/* Free the table and every string in it.  NULL-safe. */
void pb_strtab_close(pb_strtab *t);

/* Intern s (len bytes, need not be NUL-terminated).  Stores the index in
 * *index.  Returns PB_OK, or PB_ENOMEM (table unchanged). */
int pb_strtab_intern(pb_strtab *t, const char *s, size_t len, uint32_t *index);

/* Look s up without inserting.  Returns 1 and sets *index when found, else
 * 0. */
int pb_strtab_find(const pb_strtab *t, const char *s, size_t len,
                   uint32_t *index);

/* The NUL-terminated string with this index, or NULL if out of range.  The
 * pointer is owned by the table. */
const char *pb_strtab_str(const pb_strtab *t, uint32_t index);

/* Length of the string with this index (0 if out of range). */
size_t pb_strtab_len(const pb_strtab *t, uint32_t index);

/* Number of distinct strings. */
uint32_t pb_strtab_count(const pb_strtab *t);

/* 64-bit FNV-1a hash, exported because other tables use the same hash. */
uint64_t pb_hash_bytes(const void *p, size_t len);

#endif
