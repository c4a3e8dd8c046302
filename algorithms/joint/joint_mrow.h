/*
 * joint_mrow.h - joint: each density key's histogram (hist) and log
 * density (logf) held by range in a pool, not as whole rows of nb bins
 * (memory only, the same numbers; docs/joint/scale.md "Density rows by
 * range (h243)").  Included at the end of joint_int.h.
 *
 * A key's row is a room of n cells for bins [lo, lo + n) in its pool
 * (s->hist or s->logf), the cell of bin b at pool[bz + b]; every bin
 * outside the room reads the row's constant c (hist: 0; logf: the
 * empty-bin value lz, or bg for a key of no delay).  Every reader reads a
 * bin through joint_hist_at / joint_lf_at (or a dense copy of the row,
 * joint_lf_dense), so a bin reads the same whatever the room.  The pool
 * begins with nb unused cells, so bz = (the room's first cell) - lo is
 * never below 0 and pool + bz is inside the pool.
 */
#ifndef JOINT_MROW_H
#define JOINT_MROW_H

#include "joint_int.h"

typedef struct joint_mrow {
    size_t bz;      /* the pool's cell of bin 0 (only [lo, lo + n) are the row's) */
    uint32_t lo, n; /* the room: bins [lo, lo + n) (n 0: none) */
    double c;       /* every bin outside the room */
} joint_mrow;

/* bin b of a row in its pool */
static inline __attribute__((always_inline)) double joint_mrow_get(const joint_mrow *r,
                                                                    const double *pool,
                                                                    uint32_t b)
{
    return b - r->lo < r->n ? pool[r->bz + b] : r->c;
}

/* the one accessor of each table: bin b of key k */
static inline __attribute__((always_inline)) double joint_hist_at(const joint *s, uint32_t k,
                                                                   uint32_t b)
{
    return joint_mrow_get(&s->hrow[k], s->hist, b);
}

static inline __attribute__((always_inline)) double joint_lf_at(const joint *s, uint32_t k,
                                                                 uint32_t b)
{
    return joint_mrow_get(&s->lrow[k], s->logf, b);
}

/* key k's logf row as nb doubles (a scratch of the joint's: valid until
 * the next call) */
const double *joint_lf_dense(const joint *s, uint32_t k);

/* the per-key rows' room to cap keys (joint_model.c's growth, key_room).
 * PB_OK or PB_ENOMEM */
int joint_mrow_keys(joint *s, uint32_t cap);
/* a new key k: no count (its room, if any, cleared); its density row as
 * it was (the refit that made the key sets it before any read) */
void joint_mrow_newkey(joint *s, uint32_t k);
/* hist's row of key k grown to hold bins [a, b] (a <= b < nb), its
 * counts kept; returns pool + bz (cells a..b writable until the next
 * growth).  On ENOMEM: a scratch of nb doubles and joint_mrow_failed(s)
 * nonzero (the caller returns PB_ENOMEM) */
double *joint_hist_span(joint *s, uint32_t k, uint32_t a, uint32_t b);
void joint_mrow_hgrow(joint *s, uint32_t k, uint32_t a, uint32_t b); /* the slow path */
static inline int joint_mrow_failed(const joint *s)
{
    return s->mpool && *(const int *)(const void *)s->mpool; /* its first field */
}

/* bin b of key k's hist, to add to */
static inline __attribute__((always_inline)) double *joint_hist_cell(joint *s, uint32_t k,
                                                                      uint32_t b)
{
    const joint_mrow *r = &s->hrow[k];
    if (b - r->lo < r->n)
        return s->hist + r->bz + b;
    return joint_hist_span(s, k, b, b) + b;
}

/* joint_fit's clearing: every key's counts set to 0 (hlo/hhi: their
 * filled bins); the pool laid out afresh when most of it is old rooms */
void joint_mrow_hclear(joint *s);
/* key k's hist row copied into a dense scratch of nb doubles, zero
 * outside its filled bins [hlo, hhi] (joint_mrow_hdense_done puts the
 * zeros back) */
const double *joint_mrow_hdense(joint *s, uint32_t k);
void joint_mrow_hdense_done(joint *s, uint32_t k);
/* a dense scratch of nb doubles holding lz (the empty bin's value) for a
 * refit to write one row into; joint_lf_put stores bins [a, b] of it as
 * key k's row (c outside), then puts lz back there.  PB_OK or PB_ENOMEM */
double *joint_mrow_lfbuf(joint *s, double lz);
int joint_lf_put(joint *s, uint32_t k, uint32_t a, uint32_t b, double c);
/* the same, the row trimmed of its leading and trailing bins equal (bit
 * for bit) to c, every bin of the scratch put back to lz */
int joint_lf_put_trim(joint *s, uint32_t k, double c);
/* after a refit: the logf pool laid out afresh when most of it is old
 * rooms.  PB_OK or PB_ENOMEM */
int joint_mrow_lcompact(joint *s);
/* cells the two pools hold (tests, stderr-free) */
size_t joint_mrow_cells(const joint *s, int which);
/* tests: every key's logf row, densely (out: nkeys x nb); the bins of
 * keys [k0, k1) that differ (bit for bit) from rows (dense, from key
 * k0); bin b's cell of key k's logf row when the room holds it, else
 * NULL; the rooms of every row dropped (each is laid out again by the
 * next refit or count) */
void joint_mrow_lf_rows(const joint *s, double *out);
long joint_mrow_lf_diff(const joint *s, uint32_t k0, uint32_t k1, const double *rows);
int joint_mrow_lf_same(const joint *a, const joint *b);
double *joint_lf_cell(joint *s, uint32_t k, uint32_t b);
void joint_mrow_test_drop(joint *s);
/* test hook: nonzero makes joint_lf_at's constant wrong outside a row's
 * room (lz read as lz + 1): results must then differ */
extern int joint_mrow_test_wrongc;

#endif
