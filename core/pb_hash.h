/*
 * pb_hash.h - the 64-bit mixing function the library's hash tables and
 * fingerprints share.
 */
#ifndef PB_HASH_H
#define PB_HASH_H

#include <stdint.h>

/* The MurmurHash3 64-bit finaliser: every output bit depends on every input
 * bit, so the low bits of the result index a power-of-two open-addressing
 * table well.  Pure (no state); returns the mixed value.  The constants are
 * part of the fingerprints written into result files: never change them. */
static inline uint64_t pb_mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

#endif
