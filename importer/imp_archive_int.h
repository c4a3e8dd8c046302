/*
 * imp_archive_int.h - what imp_archive.c and imp_archive_tail.c share: a
 * file's bytes on their way to libarchive (source) and the checks of what
 * follows compressed data.
 */
#ifndef IMP_ARCHIVE_INT_H
#define IMP_ARCHIVE_INT_H

#include <archive.h>
#include <stdint.h>
#include <stdio.h>

#include "imp_int.h"

/* A zip's end-of-central-directory record (22 bytes) and its comment
 * (at most 65535) end the file: the bytes a source keeps */
#define ZIP_TAIL (22 + 65535)

/* The last ZIP_TAIL bytes of a stream (a ring: at is where the next byte
 * goes), so that a zip cut inside its central directory is seen
 * (zip_complete). */
typedef struct tail_ring {
    uint64_t total; /* bytes seen so far */
    size_t at;
    unsigned char b[ZIP_TAIL];
} tail_ring;

/* A file's bytes for libarchive, through the gzip check on their way; the
 * last ZIP_TAIL bytes of the file kept (raw) and, for a .gz, the last
 * ZIP_TAIL bytes once decompressed (plain, from the gzip check's inflate):
 * a zip's end record is looked for in the one that holds the zip. */
typedef struct source {
    int fd;
    imp_gzcheck *gz;
    tail_ring raw, plain;
    /* input that cannot be read twice (a pipe) in a compression other
     * than gzip (xz, zstd, bzip2, ...): its raw bytes are kept in an
     * anonymous file of $TMPDIR as they are read, so that a zip inside
     * can be decompressed a second time and its end record checked
     * (zip_tail_again); spool_errno: why no copy could be kept */
    int unseekable;
    FILE *spool;
    int spool_errno;
    unsigned char head[2]; /* a gzip's first two decompressed bytes */
    size_t nhead;
    unsigned char magic[6]; /* the first raw bytes, until there are 6 */
    size_t nmagic;
    /* the gzip check met bytes that are not gzip after the gzip data: the
     * reader was handed the data up to them, then an end (cut), so that
     * where the read-ahead falls (inside a member, after the archive)
     * never changes what is read or said; drain_gz says it */
    int cut;
    char buf[1 << 16];
} source;

/* libarchive's read callback of a source (imp_archive.c); a = NULL reads
 * on after the reader is done (the checks of what follows) */
la_ssize_t imp_source_read(struct archive *a, void *data, const void **out);

/* imp_archive_tail.c: the input s read again from its first byte (from a
 * pipe, the copy kept as it was read) through a new reader of every
 * filter and the raw format, not yet opened: *fdp the descriptor to open
 * it on, *out the reader (the caller frees it).  0, -1 when no reader
 * could be made, -2 when the input cannot be read again. */
int imp_source_reread(source *s, int *fdp, struct archive **out);

/* After the reader's end of a file (s) read through a: bytes after bzip2,
 * lz4, lzma or lzip data other than zero padding refused at their byte
 * offset.  last: the tar's last member, or NULL for one compressed
 * document.  PB_OK, or the error (imp_fail). */
int imp_drain_other(imp_importer *im, struct archive *a, source *s,
                    const char *display, const char *last, pb_error *err);

/* The same for an archive member mem[0..len) decompressed by a (read to
 * its end), named full in messages. */
int imp_member_trail(imp_importer *im, struct archive *a, const void *mem, size_t len,
                     const char *full, pb_error *err);

#endif
