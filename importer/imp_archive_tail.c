/*
 * imp_archive_tail.c - what follows compressed data.  libarchive's readers
 * of bzip2, lz4, lzma and lzip stop at the end of their data and never
 * look at what follows, so a second file joined on was dropped without a
 * word (gzip's trailing bytes are found by the gzip check, imp_gzcheck.c;
 * xz's and zstd's by their own readers).  Split from imp_archive.c.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "imp_archive_int.h"

/* Compressions whose libarchive reader stops at the end of its data and
 * never looks at what follows (bzip2, lz4, lzma, lzip): bytes joined on
 * after it (a second file, `cat a.json.bz2 b.json > x.json.bz2`) were
 * dropped without a word, where gzip's are refused (drain_gz) and xz's and
 * zstd's are refused by their own readers. */
static int stops_at_end(int code)
{
    return code == ARCHIVE_FILTER_BZIP2 || code == ARCHIVE_FILTER_LZ4 ||
           code == ARCHIVE_FILTER_LZMA || code == ARCHIVE_FILTER_LZIP;
}

/* The first byte other than zero in fd from offset at to its end: its
 * offset, -1 when none, -2 on a read error (errno set). */
static int64_t nonzero_from(int fd, int64_t at)
{
    unsigned char buf[1 << 16];
    for (;;) {
        ssize_t n = pread(fd, buf, sizeof buf, (off_t)at);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -2;
        if (!n)
            return -1;
        for (ssize_t i = 0; i < n; i++)
            if (buf[i])
                return at + i;
        at += n;
    }
}

/* The input s read again from its first byte (from a pipe, the copy kept
 * as it was read) through a new reader of every filter and the raw
 * format, not yet opened: *fdp the descriptor to open it on, *out the
 * reader (the caller frees it).  0, -1 when no reader could be made, -2
 * when the input cannot be read again. */
int imp_source_reread(source *s, int *fdp, struct archive **out)
{
    int fd = s->fd;
    if (lseek(fd, 0, SEEK_SET) != 0) {
        if (!s->spool || fflush(s->spool) != 0 ||
            lseek(fd = fileno(s->spool), 0, SEEK_SET) != 0)
            return -2;
    }
    struct archive *b = archive_read_new();
    if (!b)
        return -1;
    archive_read_support_filter_all(b);
    archive_read_support_format_raw(b);
    *fdp = fd;
    *out = b;
    return 0;
}

/* Where the compressed data of s end, by a second decompression from the
 * file's start (a tar's reader stops at its end marker, before the
 * decompressor has met its data's end); from a pipe, from the copy kept
 * as it was read.  *fdp: the descriptor read (the file or the copy).
 * Returns the offset, -2 when the input cannot be read again, -1 on a
 * read error. */
static int64_t data_end_again(source *s, int *fdp)
{
    const void *out;
    while (s->unseekable && imp_source_read(NULL, s, &out) > 0)
        ; /* the rest of the pipe into the copy */
    int fd;
    struct archive *b;
    int rr = imp_source_reread(s, &fd, &b);
    if (rr != 0)
        return rr;
    *fdp = fd;
    struct archive_entry *e;
    int64_t end = -1;
    if (archive_read_open_fd(b, fd, 1 << 16) == ARCHIVE_OK &&
        archive_read_next_header(b, &e) == ARCHIVE_OK) {
        const void *blk;
        size_t n;
        la_int64_t off;
        int x;
        while ((x = archive_read_data_block(b, &blk, &n, &off)) == ARCHIVE_OK)
            ;
        if (x == ARCHIVE_EOF)
            end = archive_filter_bytes(b, -1);
    }
    archive_read_free(b);
    return end;
}

/* After the reader's end of a file in one of the compressions above:
 * bytes after its data other than zero padding are refused at their byte
 * offset in the file, as drain_gz does for gzip.  last: the tar's last
 * member, or NULL for one compressed document (read to its end, so the
 * reader's own count of bytes used is where its data end; a tar is
 * decompressed a second time, its cost linear).  Linear in the bytes. */
int imp_drain_other(imp_importer *im, struct archive *a, source *s,
                    const char *display, const char *last, pb_error *err)
{
    int nf = archive_filter_count(a);
    if (!s || imp_gzcheck_seen(s->gz) || nf < 2 ||
        !stops_at_end(archive_filter_code(a, nf - 2)))
        return PB_OK;
    const char *fname = archive_filter_name(a, nf - 2);
    int64_t end, bad = -1;
    /* lz4's reader takes 4 bytes after a frame as the next frame's magic
     * number, used up when they are not one: its count of bytes used is
     * then 4 past its data's end, and those 4 are where trailing bytes
     * begin (w4, kept before the tail moves on) */
    unsigned char w4[4];
    int have_w4 = 0;
    if (!last) {
        end = archive_filter_bytes(a, -1);
        /* bytes the reader read ahead past the end: in the tail kept */
        const tail_ring *r = &s->raw;
        uint64_t len = r->total < ZIP_TAIL ? r->total : ZIP_TAIL;
        size_t start = r->total < ZIP_TAIL ? 0 : r->at;
#define RING_AT(q) r->b[(start + ((q) - (r->total - len))) % ZIP_TAIL]
        if (end >= 4 && (uint64_t)end <= r->total && (uint64_t)end - 4 + len >= r->total) {
            for (int i = 0; i < 4; i++)
                w4[i] = RING_AT((uint64_t)end - 4 + (uint64_t)i);
            have_w4 = 1;
        }
        for (uint64_t q = (uint64_t)end; bad < 0 && q < r->total; q++)
            if (q + len >= r->total && RING_AT(q))
                bad = (int64_t)q;
#undef RING_AT
        const void *out;
        la_ssize_t n = 0;
        errno = 0;
        while (bad < 0 && (n = imp_source_read(NULL, s, &out)) > 0)
            for (la_ssize_t i = 0; i < n; i++)
                if (s->buf[i]) {
                    bad = (int64_t)(s->raw.total - (uint64_t)n) + i;
                    break;
                }
        if (bad < 0 && n < 0)
            return imp_fail(im, err, PB_EIO, display, 0, 0, "cannot read: %s",
                            strerror(errno ? errno : EIO));
    } else {
        int fd = -1;
        errno = 0;
        end = data_end_again(s, &fd);
        if (end == -2)
            return PB_OK; /* a pipe without a copy: as before (docs) */
        if (end >= 0)
            bad = nonzero_from(fd, end);
        if (end >= 4 && pread(fd, w4, 4, (off_t)(end - 4)) == 4)
            have_w4 = 1;
        if (end < 0 || bad == -2)
            return imp_fail(im, err, PB_EIO, display, 0, 0, "cannot read: %s",
                            strerror(errno ? errno : EIO));
    }
    if (bad < 0)
        return PB_OK;
    if (archive_filter_code(a, nf - 2) == ARCHIVE_FILTER_LZ4 && have_w4) {
        end -= 4;
        for (int i = 0; i < 4; i++)
            if (w4[i]) {
                bad = end + i;
                break;
            }
    }
    char after[300] = "";
    if (last)
        snprintf(after, sizeof after, "after the tar archive's end (its last "
                 "member \"%.200s\"): ", last);
    return imp_fail(im, err, PB_EPARSE, display, 0, 0,
                    "cannot read: %sthe %s data end at byte %lld of the file and "
                    "are followed, at byte %lld, by bytes that are not %s "
                    "(trailing garbage: two files joined, or a damaged stream "
                    "header?); expected the file to end where the %s data end "
                    "(zero padding allowed)",
                    after, fname, (long long)end, (long long)bad, fname, fname);
}

int imp_member_trail(imp_importer *im, struct archive *a, const void *mem, size_t len,
                     const char *full, pb_error *err)
{
    int rc = PB_OK;
    int nf = archive_filter_count(a);
    if (nf >= 2 && stops_at_end(archive_filter_code(a, nf - 2))) {
        int64_t end = archive_filter_bytes(a, -1), bad = end;
        const unsigned char *mb = (const unsigned char *)mem;
        while (bad >= 0 && (uint64_t)bad < len && !mb[bad])
            bad++;
        /* lz4: 4 bytes past its data's end used up (imp_drain_other) */
        if (bad >= 0 && (uint64_t)bad < len && end >= 4 &&
            archive_filter_code(a, nf - 2) == ARCHIVE_FILTER_LZ4)
            for (int64_t q = (end -= 4); q < end + 4; q++)
                if (mb[q]) {
                    bad = q;
                    break;
                }
        if (bad >= 0 && (uint64_t)bad < len) {
            const char *fn = archive_filter_name(a, nf - 2);
            rc = imp_fail(im, err, PB_EPARSE, full, 0, 0,
                          "cannot read: the %s data end at byte %lld of the member "
                          "and are followed, at byte %lld, by bytes that are not %s "
                          "(trailing garbage: two files joined, or a damaged stream "
                          "header?); expected the member to end where the %s data "
                          "end (zero padding allowed)",
                          fn, (long long)end, (long long)bad, fn, fn);
        }
    }
    return rc;
}
