/*
 * imp_gzcheck.c - the integrity check of gzip data (imp_int.h).
 *
 * libarchive decompresses gzip without comparing the CRC-32 and length
 * each gzip member ends with, so a damaged .gz file would be read as if
 * it were whole (a flipped byte inside a stored block becomes a new node
 * name).  The importer therefore runs the compressed bytes through zlib as
 * well, which checks both; xz, zstd and bzip2 data are checked by their
 * own libraries inside libarchive.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "imp_int.h"

/* GZ_TRAIL: after the last member, bytes that start no member: zero
 * bytes (padding to a block) are taken; any other byte is damage. */
enum { GZ_UNKNOWN, GZ_IN_MEMBER, GZ_BETWEEN, GZ_NOT_GZIP, GZ_DONE, GZ_BAD, GZ_TRAIL };

struct imp_gzcheck {
    int state;
    int z_ready;
    unsigned char head[2];
    size_t nhead;
    z_stream z;
    char why[256];
    void (*tap)(void *ctx, const unsigned char *p, size_t n);
    void *tap_ctx;
    int tap_lost; /* inflate stopped other than for damage */
    uint64_t fed;                    /* bytes fed before the current chunk */
    const unsigned char *chunk;      /* the current chunk's first byte */
    int64_t trail_at;                /* the first trailing byte not gzip, or -1 */
};

imp_gzcheck *imp_gzcheck_new(void)
{
    imp_gzcheck *g = calloc(1, sizeof(imp_gzcheck));
    if (g)
        g->trail_at = -1;
    return g;
}

int64_t imp_gzcheck_trail_at(const imp_gzcheck *g)
{
    return g && g->state == GZ_BAD ? g->trail_at : -1;
}

void imp_gzcheck_free(imp_gzcheck *g)
{
    if (!g)
        return;
    if (g->z_ready)
        inflateEnd(&g->z);
    free(g);
}

void imp_gzcheck_tap(imp_gzcheck *g,
                     void (*tap)(void *ctx, const unsigned char *p, size_t n),
                     void *ctx)
{
    if (g) {
        g->tap = tap;
        g->tap_ctx = ctx;
    }
}

int imp_gzcheck_tap_lost(const imp_gzcheck *g)
{
    return g && g->tap_lost ? -1 : 0;
}

int imp_gzcheck_seen(const imp_gzcheck *g)
{
    return g && (g->state == GZ_IN_MEMBER || g->state == GZ_BETWEEN ||
                 g->state == GZ_TRAIL || g->state == GZ_BAD);
}

const char *imp_gzcheck_why(const imp_gzcheck *g)
{
    return g && g->state == GZ_BAD ? g->why : NULL;
}

/* Bytes after the last member: zeros (padding, as gzip(1) takes them)
 * pass; anything else was ignored without a word (gzip(1) warns
 * "trailing garbage ignored" and exits 2): a second file appended, or a
 * damaged member header, whose bytes would be lost.  Now refused. */
static int trail(imp_gzcheck *g, const unsigned char *p, size_t n)
{
    g->state = GZ_TRAIL;
    for (size_t i = 0; i < n; i++)
        if (p[i]) {
            g->state = GZ_BAD;
            g->trail_at = (int64_t)(g->fed + (uint64_t)(p + i - g->chunk));
            /* where, in the compressed file's bytes (from 0): the one
             * place a binary file can be pointed at */
            snprintf(g->why, sizeof g->why, "the gzip data are followed, at byte "
                     "%llu of the file, by bytes that are not gzip (trailing "
                     "garbage: two files joined, or a damaged member header?); "
                     "expected the file to end where the gzip data end",
                     (unsigned long long)(g->fed + (uint64_t)(p + i - g->chunk)));
            return -1;
        }
    return 0;
}

/* Inflate p[0..n) of the current member, output thrown away (after the
 * tap, if any, has seen it).  base: p[0]'s place in the file's bytes. */
static int inflate_some(imp_gzcheck *g, const unsigned char *p, size_t n,
                        uint64_t base)
{
    unsigned char out[16384];
    g->z.next_in = (unsigned char *)(uintptr_t)p;
    g->z.avail_in = (uInt)n;
    while (g->z.avail_in > 0 && g->state == GZ_IN_MEMBER) {
        g->z.next_out = out;
        g->z.avail_out = sizeof out;
        int r = inflate(&g->z, Z_NO_FLUSH);
        if (g->tap && (r == Z_OK || r == Z_STREAM_END) && g->z.avail_out < sizeof out)
            g->tap(g->tap_ctx, out, sizeof out - g->z.avail_out);
        if (r == Z_STREAM_END) {
            g->state = GZ_BETWEEN;
            if (g->z.avail_in > 0) {
                /* another member follows, or trailing bytes (trail) */
                if (g->z.next_in[0] != 0x1f)
                    return trail(g, g->z.next_in, g->z.avail_in);
                inflateReset(&g->z);
                g->state = GZ_IN_MEMBER;
            }
        } else if (r == Z_DATA_ERROR || r == Z_NEED_DICT) {
            g->state = GZ_BAD;
            /* where zlib stopped, in the file's bytes: the same wherever
             * the reads fall (a file, a pipe), so the message is too */
            snprintf(g->why, sizeof g->why, "gzip data do not pass their "
                     "integrity check (%s): the file is damaged (found at "
                     "byte %llu of the file)",
                     g->z.msg ? g->z.msg : "corrupt data",
                     (unsigned long long)(base + (uint64_t)(g->z.next_in - p)));
            return -1;
        } else if (r != Z_OK) {
            g->state = GZ_DONE; /* out of memory: not checked */
            g->tap_lost = 1;
            break;
        }
    }
    return 0;
}

int imp_gzcheck_end(imp_gzcheck *g)
{
    if (!g || g->state == GZ_BAD)
        return g ? -1 : 0;
    if (g->state == GZ_IN_MEMBER) {
        g->state = GZ_BAD;
        snprintf(g->why, sizeof g->why, "gzip data end in the middle of a "
                 "member: the file is truncated");
        return -1;
    }
    return 0;
}

static int feed_chunk(imp_gzcheck *g, const unsigned char *p, size_t n);

int imp_gzcheck_feed(imp_gzcheck *g, const void *data, size_t n)
{
    if (!g)
        return 0;
    g->chunk = data;
    int rc = feed_chunk(g, data, n);
    g->fed += n;
    return rc;
}

static int feed_chunk(imp_gzcheck *g, const unsigned char *p, size_t n)
{
    if (!n || g->state == GZ_NOT_GZIP || g->state == GZ_DONE)
        return 0;
    if (g->state == GZ_BAD)
        return -1;
    if (g->state == GZ_TRAIL)
        return trail(g, p, n);
    if (g->state == GZ_UNKNOWN) {
        while (g->nhead < 2 && n) {
            g->head[g->nhead++] = *p++;
            n--;
        }
        if (g->nhead < 2)
            return 0;
        if (g->head[0] != 0x1f || g->head[1] != 0x8b) {
            g->state = GZ_NOT_GZIP;
            return 0;
        }
        memset(&g->z, 0, sizeof g->z);
        if (inflateInit2(&g->z, 16 + MAX_WBITS) != Z_OK) {
            g->state = GZ_DONE;
            return 0;
        }
        g->z_ready = 1;
        g->state = GZ_IN_MEMBER;
        if (inflate_some(g, g->head, 2, 0) != 0)
            return -1;
    }
    if (g->state == GZ_BETWEEN) {
        if (p[0] != 0x1f)
            return trail(g, p, n);
        inflateReset(&g->z);
        g->state = GZ_IN_MEMBER;
    }
    return inflate_some(g, p, n, g->fed + (uint64_t)(p - g->chunk));
}
