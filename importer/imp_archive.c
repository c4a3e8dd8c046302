/*
 * imp_archive.c - paths: a file (plain or compressed JSON, or a tar
 * archive, told apart by content through libarchive), a folder (walked
 * recursively, entries in byte order of name at every level), or "-" for
 * stdin.  Every file is read whole into one buffer and parsed from memory
 * (imp_json.c).  Members of an archive are read in the same order as the
 * unpacked folder would be (path components compared one by one), so an
 * archive and its unpacked folder give the same trace.
 */
#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "imp_int.h"
#include "imp_archive_int.h"
#include "pb_files.h"
#include "pb_mem.h"
#include "pb_sort.h"
#include "pb_strtab.h"
#include "pb_tmp.h"

/* Folders nested deeper than this are refused (a symlink loop, or a path
 * no file system holds). */
#define MAX_DEPTH 256

typedef struct tally {
    size_t files;    /* JSON documents read */
    size_t folders;  /* subfolders walked */
    size_t archives; /* tar archives opened */
} tally;

static int ends_with(const char *s, const char *suf)
{
    size_t l = strlen(s), m = strlen(suf);
    return l > m && !strcmp(s + l - m, suf);
}

/* A JSON or CSV file by its name: *.json, *.jsonl or *.csv, plain or
 * compressed. */
static int json_name(const char *n)
{
    static const char *const suf[] = {
        ".json", ".jsonl", ".json.gz", ".json.xz", ".json.zst", ".json.bz2",
        ".jsonl.gz", ".jsonl.xz", ".jsonl.zst", ".jsonl.bz2", ".csv",
        ".csv.gz", ".csv.xz", ".csv.zst", ".csv.bz2"};
    for (size_t i = 0; i < sizeof suf / sizeof *suf; i++)
        if (ends_with(n, suf[i]))
            return 1;
    return 0;
}

static int archive_name(const char *n)
{
    static const char *const suf[] = {".tar", ".tar.gz", ".tgz", ".tar.xz",
                                      ".txz", ".tar.zst", ".tar.bz2", ".zip"};
    for (size_t i = 0; i < sizeof suf / sizeof *suf; i++)
        if (ends_with(n, suf[i]))
            return 1;
    return 0;
}

static struct archive *new_reader(void)
{
    struct archive *a = archive_read_new();
    if (!a)
        return NULL;
    archive_read_support_filter_all(a);
    archive_read_support_format_tar(a);
    /* zip archives of traces (a browser's or a CI job's download) are read
     * as tar archives are: members in path order */
    archive_read_support_format_zip(a);
    archive_read_support_format_raw(a);
    return a;
}

/* The gzip check of the file being read (read_file), or NULL: when it
 * found the damage, libarchive's gzip reader, whose input then stops,
 * says "truncated gzip input" over it -- a CRC or a flipped byte named
 * as a cut file; why() says the check's words instead. */
static _Thread_local const imp_gzcheck *cur_gz;
/* The file being read (read_file), for read_fail; NULL while a member is
 * decompressed from memory (unpack_member). */
static _Thread_local struct source *cur_src;
static _Thread_local const char *cur_display;
/* The first raw bytes of that file (imp_source_read), for why(). */
static _Thread_local unsigned char cur_first[6];
static _Thread_local size_t cur_nfirst;

/* Why libarchive failed, never its bare "error". */
static const char *why(struct archive *a, const char *dflt)
{
    const char *g = imp_gzcheck_why(cur_gz);
    if (g)
        return g;
    const char *w = archive_error_string(a);
    if (!w || !*w || !strcmp(w, "error") || !strcmp(w, "Error"))
        return dflt;
    /* lzma's old format ("lzma alone", .lzma) has no magic number:
     * libarchive takes any file whose first 13 bytes could be its header
     * for one -- a pcap or JSON file whose first bytes were zeroed (a
     * capture cut by a crash) -- and then says "the xz/lzma data is
     * damaged"; a file that does not start as xz does is said to be that
     * guess */
    if (strstr(w, "Lzma") && cur_nfirst >= 6 && memcmp(cur_first, "\xFD" "7zXZ\0", 6)) {
        static _Thread_local char lz[512];
        snprintf(lz, sizeof lz, "its first bytes were taken for the header of "
                 "lzma data (the old .lzma format, which has no magic number) "
                 "and it does not decompress (%.80s): a damaged or truncated .lzma "
                 "file, or "
                 "a file whose first bytes are damaged; expected JSON, CSV, a "
                 "packet capture, or one of them compressed or archived", w);
        return lz;
    }
    /* libarchive's words for a cut or damaged compressed stream name the
     * library, not what happened ("Lzma library error:  No progress is
     * possible" for an .xz cut short): said in plain words after them */
    static const struct {
        const char *has, *means;
    } plain[] = {
        {"No progress is possible", "the xz data ends before its end marker or is "
                                    "damaged (a truncated or corrupt file?); expected "
                                    "a complete .xz file"},
        {"Lzma library error", "the xz/lzma data is damaged (a corrupt or truncated "
                               "file?); expected a complete .xz file"},
        {"ZIP decompression failed", "a zip member's compressed data is damaged or cut "
                                     "short (a truncated file?); expected a complete "
                                     "zip archive"},
        {"bzip2", "the bzip2 data is damaged or cut short (a truncated file?); "
                  "expected a complete .bz2 file"},
        {"Damaged", "the archive or its compression is damaged or cut short (a "
                    "truncated file?)"},
    };
    static _Thread_local char buf[512];
    for (size_t i = 0; i < sizeof plain / sizeof *plain; i++)
        if (strstr(w, plain[i].has)) {
            size_t l = strlen(w);
            while (l && (w[l - 1] == ' ' || w[l - 1] == '.'))
                l--;
            snprintf(buf, sizeof buf, "%.*s: %s", (int)(l > 200 ? 200 : l), w, plain[i].means);
            return buf;
        }
    return w;
}

/* "1 GiB", "512 MiB", "1000 bytes": a size for messages. */
static void size_text(size_t n, char *buf, size_t len)
{
    if (n >= ((size_t)1 << 30) && n % ((size_t)1 << 30) == 0)
        snprintf(buf, len, "%zu GiB", n >> 30);
    else if (n >= ((size_t)1 << 20) && n % ((size_t)1 << 20) == 0)
        snprintf(buf, len, "%zu MiB", n >> 20);
    else
        snprintf(buf, len, "%zu bytes", n);
}

static size_t max_doc(const imp_importer *im)
{
    return im->opts.max_document ? im->opts.max_document : IMP_MAX_DOCUMENT;
}

static int too_big(imp_importer *im, const char *name, const char *how,
                   pb_error *err)
{
    char cap[32];
    size_text(max_doc(im), cap, sizeof cap);
    return imp_fail(im, err, PB_ERANGE, name, 0, 0,
                    "%s more than %s; expected a document of at most %s "
                    "(importtrace --max-document SIZE raises the cap)",
                    how, cap, cap);
}

static int read_fail(imp_importer *im, struct archive *a, const char *name,
                     const char *dflt, pb_error *err);

/* A document read into memory: leading white space counted, not kept. */
typedef struct doc {
    char *buf;
    size_t len;
    long line0, col0; /* lines, then bytes of white space dropped */
} doc;

static int ws_byte(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* What a packet capture starting with p[0..4) is (its magic number, either
 * byte order), else NULL. */
static const char *capture_magic(const char *b)
{
    const unsigned char *p = (const unsigned char *)b;
    if (!memcmp(p, "\xd4\xc3\xb2\xa1", 4) || !memcmp(p, "\xa1\xb2\xc3\xd4", 4))
        return "pcap, microsecond stamps";
    if (!memcmp(p, "\x4d\x3c\xb2\xa1", 4) || !memcmp(p, "\xa1\xb2\x3c\x4d", 4))
        return "pcap, nanosecond stamps";
    if (!memcmp(p, "\x0a\x0d\x0d\x0a", 4))
        return "pcapng";
    return NULL;
}

/* How much of a text document is looked at for a CSV header's first line
 * before it is refused (a header is far shorter). */
#define CSV_PEEK ((size_t)1 << 16)

/* A document of text whose first line is line[0..len): 0 when it has a
 * comma (a span CSV's header, read as CSV), else 1 with err set: what it
 * is not, and how a table separated otherwise is named. */
static int not_csv_header(imp_importer *im, const char *name, const char *line,
                          size_t len, const doc *d, pb_error *err)
{
    size_t ctl = 0;
    while (ctl < len && ((unsigned char)line[ctl] >= 0x20 || line[ctl] == '\t' ||
                         line[ctl] == '\r'))
        ctl++;
    if (ctl < len) {
        /* a control byte on the first line: binary data, not a table */
        imp_fail(im, err, PB_EPARSE, name, d->line0 + 1, d->col0 + 1 + (long)ctl,
                 "found byte 0x%02x after '%c' (binary data: an archive or "
                 "compression format importtrace does not read?); expected "
                 "a JSON document: '{' (Jaeger, OTLP) or '[' (Zipkin), a span "
                 "CSV's header, or a tar or zip archive of them",
                 (unsigned char)line[ctl], line[0]);
        return 1;
    }
    if (len >= 12 && !memcmp(line, "# generator=", 12)) {
        /* a pathbench message trace's first line (importtrace's own
         * output, piped back or left in the folder it read) */
        imp_fail(im, err, PB_EPARSE, name, d->line0 + 1, d->col0 + 1,
                 "a pathbench message trace (the output of importtrace, "
                 "maketrace or sniffer: \"%.40s\"), not a span table; "
                 "expected spans (a trace is read by infer and score as it "
                 "is; an output written into the folder being imported is "
                 "read back by the next import)", line);
        return 1;
    }
    if (memchr(line, ',', len))
        return 0;
    size_t show = len;
    while (show && (line[show - 1] == '\r' || line[show - 1] == ' '))
        show--;
    const char *sep = memchr(line, '\t', len)  ? " (fields separated by tabs?)"
                      : memchr(line, ';', len) ? " (fields separated by ';'?)"
                                               : "";
    imp_fail(im, err, PB_EPARSE, name, d->line0 + 1, d->col0 + 1,
             "found '%c': text \"%.*s%s\"%s; expected a JSON document: "
             "'{' (Jaeger, OTLP) or '[' (Zipkin), or a span CSV's header "
             "(comma-separated column names)",
             line[0], (int)(show > 40 ? 40 : show), line,
             show > 40 ? "..." : "", sep);
    return 1;
}

/* The current entry's data, whole, into d->buf (grown as data arrives,
 * never past the cap; hint: the size a tar header announces, trusted only
 * up to the cap and never allocated ahead).  json: the entry is a
 * document: white space before its first value is counted, not buffered,
 * and its first byte must open a JSON value ('{' or '['), which is looked
 * at as soon as it arrives. */
static int read_entry(imp_importer *im, struct archive *a, const char *name,
                      int64_t hint, int json, doc *d, pb_error *err)
{
    const size_t max = max_doc(im);
    memset(d, 0, sizeof *d);
    if (hint > 0 && (uint64_t)hint > max) {
        /* named by the archive's own format (a zip said "tar header") */
        int fmt = archive_format(a) & ARCHIVE_FORMAT_BASE_MASK;
        return too_big(im, name,
                       fmt == ARCHIVE_FORMAT_ZIP   ? "its zip header announces"
                       : fmt == ARCHIVE_FORMAT_TAR ? "its tar header announces"
                                                   : "its archive header announces",
                       err);
    }
    /* the size a header announces (under 1 MiB) is the buffer's size,
     * smaller or larger than the 64 KiB taken when it is not known */
    size_t cap = 1u << 16, n = 0, total = 0;
    if (hint > 0 && (size_t)hint + 1 < (1u << 20))
        cap = (size_t)hint + 1;
    int lead = json, pending = 0;
    char *b = malloc(cap);
    if (!b)
        return imp_fail(im, err, PB_ENOMEM, name, 0, 0, "out of memory");
    for (;;) {
        if (n == cap) {
            size_t nc = cap * 2;
            if (nc > max + 1)
                nc = max + 1;
            char *nb = nc > cap ? realloc(b, nc) : NULL;
            if (!nb) {
                free(b);
                return imp_fail(im, err, PB_ENOMEM, name, 0, 0,
                                "out of memory reading %zu bytes of it", n);
            }
            b = nb;
            cap = nc;
        }
        la_ssize_t r = archive_read_data(a, b + n, cap - n);
        if (r == 0)
            break;
        if (r < 0) {
            free(b);
            return read_fail(im, a, name, "corrupt data (a damaged or "
                                          "truncated file?)", err);
        }
        total += (size_t)r;
        if (total > max) {
            free(b);
            return too_big(im, name, json ? "holds" : "(compressed) holds", err);
        }
        if (pending) {
            /* text that may be a span CSV's header: wait for its end */
            n += (size_t)r;
            const char *nl = memchr(b, '\n', n);
            if (!nl && n < CSV_PEEK)
                continue;
            pending = 0;
            if (not_csv_header(im, name, b, nl ? (size_t)(nl - b) : n, d, err)) {
                free(b);
                return err->code;
            }
            continue;
        }
        if (!lead) {
            n += (size_t)r;
            continue;
        }
        size_t i = n, end = n + (size_t)r;
        const char *pcap = total == (size_t)r && end >= 4 ? capture_magic(b) : NULL;
        if (pcap) {
            /* a packet capture met where a document was expected: from
             * stdin, compressed, or in an archive (the capture reader
             * takes a plain file by name) -- said as what it is, by its
             * magic number, never by the file's name */
            int nf = archive_filter_count(a);
            int fmt = archive_format(a) & ARCHIVE_FORMAT_BASE_MASK;
            char how[96] = "";
            if (nf > 1)
                snprintf(how, sizeof how, " compressed with %s", archive_filter_name(a, 0));
            if (fmt == ARCHIVE_FORMAT_TAR || fmt == ARCHIVE_FORMAT_ZIP)
                snprintf(how + strlen(how), sizeof how - strlen(how),
                         " in a%s archive", fmt == ARCHIVE_FORMAT_ZIP ? " zip" : " tar");
            free(b);
            return imp_fail(im, err, PB_EPARSE, name, 1, 1,
                            "found a packet capture (%s)%s; importtrace reads "
                            "packet captures only as uncompressed files named "
                            "on its command line (not from standard input, "
                            "compressed or archived): expected a JSON document "
                            "or a span CSV here, or the capture decompressed "
                            "first (e.g. gunzip -k) and named", pcap, how);
        }
        if (total == (size_t)r && end >= 3 && !memcmp(b, "\xEF\xBB\xBF", 3)) {
            i = 3; /* a UTF-8 byte-order mark */
            d->col0 += 3;
        }
        for (; i < end && ws_byte(b[i]); i++) {
            if (b[i] == '\n') {
                d->line0++;
                d->col0 = 0;
            } else {
                d->col0++;
            }
        }
        if (i == end)
            continue; /* white space only so far: nothing kept */
        unsigned char c = (unsigned char)b[i];
        /* a span CSV starts with its header: text, looked at once whole */
        int text = c >= 0x20 && c < 0x7f && c != '{' && c != '[';
        int csv_ok = (im->opts.format == IMP_FORMAT_CSV ||
                      (im->opts.format == IMP_FORMAT_AUTO && name && strstr(name, ".csv"))) &&
                     text;
        if (text && !csv_ok && im->opts.format == IMP_FORMAT_AUTO) {
            /* any other name (stdin, *.txt, an archive member): a span CSV
             * when its first line has a comma, as imp_csv_sniff decides */
            memmove(b, b + i, end - i);
            n = end - i;
            lead = 0;
            pending = 1;
            const char *nl = memchr(b, '\n', n);
            if (nl || n >= CSV_PEEK) {
                pending = 0;
                if (not_csv_header(im, name, b, nl ? (size_t)(nl - b) : n, d, err)) {
                    free(b);
                    return err->code;
                }
            }
            continue;
        }
        if (c != '{' && c != '[' && !csv_ok) {
            char found[16];
            if (c >= 0x20 && c < 0x7f)
                snprintf(found, sizeof found, "'%c'", c);
            else
                snprintf(found, sizeof found, "byte 0x%02x", c);
            /* a file's first bytes: UTF-16 (a byte-order mark, NUL bytes
             * between the characters) is named as such */
            const char *h16 = end - i >= 4 ? pb_text_hint(b + i, end - i) : "";
            int utf16 = h16[0] == 'U';
            free(b);
            return imp_fail(im, err, PB_EPARSE, name, d->line0 + 1, d->col0 + 1,
                            "found %s%s%s%s; expected a JSON document: '{' (Jaeger, "
                            "OTLP) or '[' (Zipkin), or a span CSV's header", found,
                            utf16 ? " (" : "", utf16 ? h16 : "", utf16 ? ")" : "");
        }
        memmove(b, b + i, end - i);
        n = end - i;
        lead = 0;
    }
    if (pending && not_csv_header(im, name, b, n, d, err)) {
        free(b);
        return err->code;
    }
    /* held until the members are in folder order: no more than the data
     * (100,000 members of 230 bytes each held 64 KiB: 6.5 GB of address
     * space, 500 MB resident, for 23 MB of JSON) */
    if (cap > n + 1) {
        char *nb = realloc(b, n + 1);
        if (nb)
            b = nb;
    }
    d->buf = b;
    d->len = n;
    return PB_OK;
}

static int parse_named(imp_importer *im, const char *name, const doc *d,
                       pb_error *err)
{
    uint32_t file;
    if (imp_add_file_name(im, name, &file) != PB_OK)
        return imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    return imp_parse_buffer_at(im, d->buf ? d->buf : "", d->len, file, d->line0,
                               d->col0, err);
}

/* Compare paths component by component ("a/x" before "a.json"), which is
 * the order a folder walk in name order gives. */
static int cmp_path(const char *a, const char *b)
{
    for (;;) {
        size_t la = strcspn(a, "/"), lb = strcspn(b, "/");
        size_t l = la < lb ? la : lb;
        int c = memcmp(a, b, l);
        if (c)
            return c;
        if (la != lb)
            return la < lb ? -1 : 1;
        if (!a[la] || !b[lb])
            return (a[la] != 0) - (b[lb] != 0);
        a += la + 1;
        b += lb + 1;
    }
}

/* A member held until the members are in folder order.  A hard link
 * shares the data of the member it links to (own: the index, in reading
 * order, of the member that owns the buffer; the buffer is freed when the
 * last member sharing it is parsed): before, each link held a copy, so
 * an archive of one large member and many links took links x its size
 * (and found its target by a scan of every member before it: quadratic).
 * nested: the member is an archive itself, read where its name falls, as
 * the unpacked folder's walk reads it. */
typedef struct member {
    char *name;
    doc d;
    size_t own;
    int nested;
    int replaced; /* a later member has its name: not read */
} member;

/* A member's name as unpacking it writes it: "." components and empty
 * ones (a leading "./", "a//b") dropped, into b.  "./a.json" and
 * "a.json" are one file once unpacked. */
static int member_key(pb_strbuf *b, const char *path)
{
    pb_strbuf_reset(b);
    int rc = PB_OK;
    const char *p = path;
    while (rc == PB_OK && *p) {
        size_t l = strcspn(p, "/");
        if (l && !(l == 1 && p[0] == '.')) {
            if (pb_strbuf_str(b)[0])
                rc = pb_strbuf_putc(b, '/');
            for (size_t k = 0; rc == PB_OK && k < l; k++)
                rc = pb_strbuf_putc(b, p[k]);
        }
        p += l + (p[l] == '/');
    }
    return rc;
}

/* Member n has the name (member_key) of member last[ni] before it: it
 * replaces that one, as unpacking the archive does (tar -r / -u append a
 * newer copy under the same name; a zip may list a name twice).  Before,
 * every copy was read: the archive gave another trace than its unpacked
 * folder, without a word.  Counted (replaced_member, said even with -q). */
static void replace_member(imp_importer *im, member *ms, size_t *last, uint32_t ni,
                           size_t n, const char *label)
{
    ms[last[ni]].replaced = 1;
    last[ni] = n;
    imp_count_at(im, IMP_C_REPLACED_MEMBER, label, NULL);
}

static int cmp_member(const void *x, const void *y)
{
    return cmp_path(((const member *)x)->name, ((const member *)y)->name);
}

/* A member that is itself compressed JSON (full: its name in messages):
 * decompress it from memory, under the same cap. */
static int unpack_member(imp_importer *im, member *m, const char *full,
                         pb_error *err)
{
    struct archive *a = archive_read_new();
    if (!a)
        return imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    archive_read_support_filter_all(a);
    archive_read_support_format_raw(a);
    struct archive_entry *e;
    int rc = PB_OK;
    imp_gzcheck *gz = imp_gzcheck_new();
    if (gz && (imp_gzcheck_feed(gz, m->d.buf, m->d.len) != 0 ||
               imp_gzcheck_end(gz) != 0)) {
        rc = imp_fail(im, err, PB_EIO, full, 0, 0, "cannot read: %s",
                      imp_gzcheck_why(gz));
        imp_gzcheck_free(gz);
        archive_read_free(a);
        return rc;
    }
    imp_gzcheck_free(gz);
    if (archive_read_open_memory(a, m->d.buf, m->d.len) != ARCHIVE_OK ||
        archive_read_next_header(a, &e) != ARCHIVE_OK) {
        rc = imp_fail(im, err, PB_EIO, full, 0, 0, "cannot decompress: %s",
                      why(a, "not in a known compression format"));
    } else {
        doc d;
        struct source *outer = cur_src;
        cur_src = NULL; /* a failure here is this member's, not the file's */
        rc = read_entry(im, a, full, 0, 1, &d, err);
        cur_src = outer;
        /* a member in a compression whose reader stops at its data's end
         * (imp_archive_tail.c): bytes after them other than zero padding */
        if (rc == PB_OK && (rc = imp_member_trail(im, a, m->d.buf, m->d.len, full, err)) != PB_OK)
            free(d.buf);
        if (rc == PB_OK) {
            free(m->d.buf);
            m->d = d;
        }
    }
    archive_read_free(a);
    return rc;
}

/* Keep p[0..n) in the ring: one copy of each byte (the last ZIP_TAIL only). */
static void ring_add(void *ctx, const unsigned char *p, size_t n)
{
    tail_ring *r = ctx;
    size_t k = n > ZIP_TAIL ? ZIP_TAIL : n;
    const unsigned char *from = p + n - k;
    size_t first = ZIP_TAIL - r->at < k ? ZIP_TAIL - r->at : k;
    memcpy(r->b + r->at, from, first);
    memcpy(r->b, from + first, k - first);
    r->at = (r->at + k) % ZIP_TAIL;
    r->total += (uint64_t)n;
}


/* The gzip check's decompressed bytes: the tail kept (plain), the first
 * two too (a gzip inside the gzip is decompressed a second time) */
static void plain_tap(void *ctx, const unsigned char *p, size_t n)
{
    source *s = ctx;
    for (size_t i = 0; i < n && s->nhead < 2; i++)
        s->head[s->nhead++] = p[i];
    ring_add(&s->plain, p, n);
}

/* Whether a stream starting with p[0..6) is in a compression other than
 * gzip that libarchive reads (xz, lzma, zstd, bzip2, lz4, lzip, compress),
 * or a gzip inside a gzip (s: its first decompressed bytes; not known
 * yet counts): those are decompressed a second time to check a zip
 * inside. */
static int other_compression(const source *s, const unsigned char *p)
{
    if (p[0] == 0x1F && p[1] == 0x8B)
        return s->nhead < 2 || (s->head[0] == 0x1F && s->head[1] == 0x8B);
    return !memcmp(p, "\xFD" "7zXZ\0", 6) || !memcmp(p, "\x28\xB5\x2F\xFD", 4) ||
           !memcmp(p, "BZh", 3) || !memcmp(p, "\x04\x22\x4D\x18", 4) ||
           !memcmp(p, "LZIP", 4) || !memcmp(p, "\x1F\x9D", 2) ||
           !memcmp(p, "\x5D\0\0", 3);
}

/* The raw bytes p[0..n) read from an input that cannot be read twice:
 * kept (see source) when it is in another compression than gzip.  A copy
 * that cannot be written is dropped; the zip check then says why. */
static void spool_add(source *s, const unsigned char *p, size_t n)
{
    if (!s->unseekable || s->spool_errno || !n)
        return;
    if (!s->spool) { /* undecided: the first 6 bytes decide */
        size_t k = 6 - s->nmagic < n ? 6 - s->nmagic : n;
        memcpy(s->magic + s->nmagic, p, k);
        s->nmagic += k;
        if (s->nmagic < 6)
            return; /* every byte so far is in magic */
        if (!other_compression(s, s->magic)) {
            s->unseekable = 0; /* gzip or plain: checked without a copy */
            return;
        }
        errno = 0;
        if (!(s->spool = pb_tmpfile("zipcheck"))) {
            s->spool_errno = errno ? errno : EIO;
            return;
        }
        if (fwrite(s->magic, 1, 6, s->spool) != 6) {
            s->spool_errno = errno ? errno : EIO;
            fclose(s->spool);
            s->spool = NULL;
            return;
        }
        p += k;
        n -= k;
    }
    if (s->spool && fwrite(p, 1, n, s->spool) != n) {
        s->spool_errno = errno ? errno : EIO;
        fclose(s->spool);
        s->spool = NULL;
    }
}

la_ssize_t imp_source_read(struct archive *a, void *data, const void **out)
{
    source *s = data;
    *out = s->buf;
    if (s->cut)
        return 0;
    for (;;) {
        ssize_t n = read(s->fd, s->buf, sizeof s->buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            if (a)
                archive_set_error(a, errno, "read error: %s", strerror(errno));
            return -1;
        }
        int64_t at;
        if (n > 0 && imp_gzcheck_feed(s->gz, s->buf, (size_t)n) != 0 &&
            (at = imp_gzcheck_trail_at(s->gz)) >= (int64_t)s->raw.total &&
            at <= (int64_t)(s->raw.total + (uint64_t)n)) {
            /* trailing bytes: the gzip data before them are read on */
            s->cut = 1;
            n = (ssize_t)(at - (int64_t)s->raw.total);
        } else if ((n > 0 && imp_gzcheck_why(s->gz)) ||
                   (n == 0 && imp_gzcheck_end(s->gz) != 0)) {
            if (a)
                archive_set_error(a, EILSEQ, "%s",
                                  imp_gzcheck_why(s->gz));
            return -1;
        }
        for (ssize_t i = 0; i < n && cur_nfirst < sizeof cur_first; i++)
            cur_first[cur_nfirst++] = (unsigned char)s->buf[i];
        spool_add(s, (const unsigned char *)s->buf, (size_t)n);
        ring_add(&s->raw, (const unsigned char *)s->buf, (size_t)n);
        return n;
    }
}

static unsigned le16(const unsigned char *p) { return p[0] | (unsigned)p[1] << 8; }
static uint32_t le32(const unsigned char *p)
{
    return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Whether the stream whose tail r holds ends with a zip's
 * end-of-central-directory record: taken when the central directory it
 * names ends where it starts, or when its comment ends the stream.
 * Returns 1 when found, 0 when not, -1 out of memory. */
/* The member count the last record ring_has_eocd found gives (its
 * "total entries"), or -1 (none found, or 0xFFFF: a zip64 archive, whose
 * count is in another record). */
static _Thread_local long eocd_entries = -1;

static int ring_has_eocd(const tail_ring *r)
{
    eocd_entries = -1;
    size_t len = r->total < ZIP_TAIL ? (size_t)r->total : ZIP_TAIL;
    unsigned char *t = malloc(len ? len : 1);
    if (!t)
        return -1;
    /* the ring in order: its oldest byte is at `at` once it is full */
    size_t start = r->total < ZIP_TAIL ? 0 : r->at;
    if (!start)
        memcpy(t, r->b, len);
    else {
        memcpy(t, r->b + start, ZIP_TAIL - start);
        memcpy(t + (ZIP_TAIL - start), r->b, start);
    }
    int found = 0;
    for (size_t p = len >= 22 ? len - 22 + 1 : 0; p-- > 0 && !found;) {
        if (memcmp(t + p, "PK\x05\x06", 4))
            continue;
        uint64_t at = r->total - (len - p); /* the record's place in the stream */
        uint32_t cd_size = le32(t + p + 12), cd_off = le32(t + p + 16);
        found = (uint64_t)cd_off + cd_size == at || p + 22 + le16(t + p + 20) == len;
        if (found && le16(t + p + 10) != 0xFFFF)
            eocd_entries = (long)le16(t + p + 10);
    }
    free(t);
    return found;
}

/* A compressed zip other than a single .gz (xz, zstd, bzip2, a .gz of a
 * .gz): decompressed a second time from the file's start by a raw reader,
 * its tail kept; from a pipe, from the copy kept as it was read (source).
 * Returns 1/0 as ring_has_eocd, -1 on a read error (errno set), -2 when
 * the input cannot be read again (a pipe without a copy). */
static int zip_tail_again(source *s, tail_ring *r)
{
    int fd;
    struct archive *b;
    int rr = imp_source_reread(s, &fd, &b);
    if (rr != 0)
        return rr;
    struct archive_entry *e;
    int rc = -1;
    memset(r, 0, sizeof *r);
    if (archive_read_open_fd(b, fd, 1 << 16) == ARCHIVE_OK &&
        archive_read_next_header(b, &e) == ARCHIVE_OK) {
        const void *blk;
        size_t n;
        la_int64_t off;
        int x;
        while ((x = archive_read_data_block(b, &blk, &n, &off)) == ARCHIVE_OK)
            ring_add(r, blk, n);
        if (x == ARCHIVE_EOF)
            rc = ring_has_eocd(r);
    }
    if (rc < 0 && !errno)
        errno = archive_errno(b) > 0 ? archive_errno(b) : EIO;
    archive_read_free(b);
    return rc;
}

/* Once libarchive's streaming zip reader said "end" (it stops at the
 * central directory, the list of members after the last one): read the
 * rest of the file and look for the end-of-central-directory record that
 * ends every zip.  Without it the file was cut inside its central
 * directory (or later), which the reader never sees.  Looked for in the
 * file's own tail (a zip as it is), in its decompressed tail (a zip inside
 * one .gz, from the gzip check), or in a second decompression (other
 * compressions; a pipe cannot be read twice: -2).  Returns 1 when found,
 * 0 when not, -1 on a read error. */
static int zip_complete(source *s, struct archive *a)
{
    const void *out;
    la_ssize_t n;
    errno = 0;
    while ((n = imp_source_read(NULL, s, &out)) > 0)
        ;
    if (n < 0)
        return -1;
    int nf = archive_filter_count(a);
    if (nf == 1)
        return ring_has_eocd(&s->raw);
    if (nf == 2 && archive_filter_code(a, 0) == ARCHIVE_FILTER_GZIP &&
        !imp_gzcheck_tap_lost(s->gz))
        return ring_has_eocd(&s->plain);
    tail_ring *r = malloc(sizeof *r);
    if (!r)
        return -1;
    int rc = zip_tail_again(s, r);
    free(r);
    return rc;
}

/* The rest of a gzip file, read through the gzip check once the reader is
 * done with it.  libarchive stops reading at a tar archive's end marker,
 * and a plain .gz a read-ahead past its data's end: bytes after that (a
 * second file joined on after long zero padding) were never looked at and
 * were passed without a word.  last: the archive's last member, or NULL
 * for a plain file.  Linear in the bytes left. */
static int drain_gz(imp_importer *im, source *s, const char *display,
                    const char *last, pb_error *err)
{
    if (!imp_gzcheck_seen(s->gz))
        return PB_OK;
    const void *out;
    la_ssize_t n;
    errno = 0;
    while ((n = imp_source_read(NULL, s, &out)) > 0)
        ;
    const char *w = imp_gzcheck_why(s->gz);
    if (!w && n == 0)
        return PB_OK;
    if (!w)
        return imp_fail(im, err, PB_EIO, display, 0, 0, "cannot read: %s",
                        strerror(errno ? errno : EIO));
    if (last)
        return imp_fail(im, err, PB_EPARSE, display, 0, 0,
                        "cannot read: after the tar archive's end (its last "
                        "member \"%s\"): %s", last, w);
    return imp_fail(im, err, PB_EPARSE, display, 0, 0, "cannot read: %s", w);
}


/* libarchive failed reading name (the file, or a member of it).  When the
 * file is gzip, the rest of it is read through the gzip check first: the
 * check can find the damage only at the gzip member's end (its CRC), after
 * the tar reader has choked on the damaged data ("Damaged tar archive"),
 * and the read-ahead decides which member is being read when it does.  So
 * damage the check finds is said of the file, with its byte offset --
 * the same wherever the reads fall; else libarchive's words (why). */
static int read_fail(imp_importer *im, struct archive *a, const char *name,
                     const char *dflt, pb_error *err)
{
    source *s = cur_src;
    if (s && imp_gzcheck_seen(s->gz) && !imp_gzcheck_why(s->gz)) {
        const void *out;
        while (imp_source_read(NULL, s, &out) > 0)
            ;
    }
    const char *g = s ? imp_gzcheck_why(s->gz) : NULL;
    if (g)
        return imp_fail(im, err, PB_EIO, cur_display, 0, 0, "cannot read: %s", g);
    return imp_fail(im, err, PB_EIO, name, 0, 0, "cannot read: %s", why(a, dflt));
}

/* DISPLAY:PATH, a member's name in messages, into b (reset first): a
 * control byte of PATH (a newline, an escape) as \xHH, so that a name in
 * an archive can neither split an error's line nor drive the terminal.
 * Returns as pb_strbuf. */
static int member_label(pb_strbuf *b, const char *display, const char *path)
{
    pb_strbuf_reset(b);
    int rc = pb_strbuf_printf(b, "%s:", display);
    for (const unsigned char *p = (const unsigned char *)path; rc == PB_OK && *p; p++)
        rc = *p < 0x20 || *p == 0x7f ? pb_strbuf_printf(b, "\\x%02x", *p)
                                     : pb_strbuf_putc(b, (char)*p);
    return rc;
}

/* The same for a name alone, into buf[len] (cut to fit). */
static void plain_name(char *buf, size_t len, const char *path)
{
    size_t k = 0;
    for (const unsigned char *p = (const unsigned char *)path; *p && k + 5 < len; p++)
        k += (size_t)(*p < 0x20 || *p == 0x7f ? snprintf(buf + k, len - k, "\\x%02x", *p)
                                               : snprintf(buf + k, len - k, "%c", *p));
    buf[k < len ? k : len - 1] = 0;
}

/* Archives inside an archive are read (as the unpacked folder's walk
 * reads them) down to this depth; deeper is refused (an archive that
 * holds itself, a zip quine, would never end). */
#define NEST_MAX 8

static int read_opened(imp_importer *im, struct archive *a, source *src,
                       const unsigned char *mem, size_t memlen,
                       const char *display, int depth, tally *t, pb_error *err);

/* Whether the zip in mem[0..len) (compressed when a has more than one
 * filter: decompressed a second time, from memory) ends with its
 * end-of-central-directory record: 1 / 0 as ring_has_eocd, -1 out of
 * memory or unreadable. */
static int zip_complete_mem(struct archive *a, const unsigned char *mem, size_t len)
{
    tail_ring *r = calloc(1, sizeof *r);
    if (!r)
        return -1;
    int rc = -1;
    if (archive_filter_count(a) == 1) {
        ring_add(r, mem, len);
        rc = ring_has_eocd(r);
    } else {
        struct archive *b = archive_read_new();
        struct archive_entry *e;
        if (b) {
            archive_read_support_filter_all(b);
            archive_read_support_format_raw(b);
            if (archive_read_open_memory(b, mem, len) == ARCHIVE_OK &&
                archive_read_next_header(b, &e) == ARCHIVE_OK) {
                const void *blk;
                size_t n;
                la_int64_t off;
                int x;
                while ((x = archive_read_data_block(b, &blk, &n, &off)) == ARCHIVE_OK)
                    ring_add(r, blk, n);
                if (x == ARCHIVE_EOF)
                    rc = ring_has_eocd(r);
            }
            archive_read_free(b);
        }
    }
    free(r);
    if (rc < 0)
        errno = EIO;
    return rc;
}

/* A member that is an archive (or a compressed file named as one), full
 * its name in messages: read from memory as read_file reads a file, its
 * members where its name falls in the outer archive's order. */
static int read_nested(imp_importer *im, const member *m, const char *full,
                       int depth, tally *t, pb_error *err)
{
    if (depth >= NEST_MAX)
        return imp_fail(im, err, PB_ERANGE, full, 0, 0,
                        "archives nested more than %d deep (an archive that "
                        "holds itself?); expected at most %d archives one "
                        "inside another", NEST_MAX, NEST_MAX);
    imp_gzcheck *gz = imp_gzcheck_new();
    if (!gz)
        return imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    if (imp_gzcheck_feed(gz, m->d.buf, m->d.len) != 0 || imp_gzcheck_end(gz) != 0) {
        int rc = imp_fail(im, err, PB_EIO, full, 0, 0, "cannot read: %s",
                          imp_gzcheck_why(gz));
        imp_gzcheck_free(gz);
        return rc;
    }
    imp_gzcheck_free(gz);
    struct archive *a = new_reader();
    if (!a)
        return imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    /* a failure here is this member's, not the outer file's */
    struct source *outer = cur_src;
    const imp_gzcheck *outer_gz = cur_gz;
    const char *outer_display = cur_display;
    unsigned char outer_first[sizeof cur_first];
    size_t outer_nfirst = cur_nfirst;
    memcpy(outer_first, cur_first, sizeof cur_first);
    cur_src = NULL;
    cur_gz = NULL;
    cur_display = full;
    cur_nfirst = m->d.len < sizeof cur_first ? m->d.len : sizeof cur_first;
    if (cur_nfirst)
        memcpy(cur_first, m->d.buf, cur_nfirst);
    int rc;
    if (!m->d.len) {
        /* an empty file named as an archive: an empty document, as the
         * folder's walk reads it */
        static const doc empty = {NULL, 0, 0, 0};
        rc = parse_named(im, full, &empty, err);
        t->files++;
    } else if (archive_read_open_memory(a, m->d.buf, m->d.len) != ARCHIVE_OK) {
        rc = imp_fail(im, err, PB_EIO, full, 0, 0, "cannot open: %s",
                      why(a, "not a readable file"));
    } else {
        rc = read_opened(im, a, NULL, (const unsigned char *)m->d.buf, m->d.len,
                         full, depth + 1, t, err);
    }
    archive_read_free(a);
    cur_src = outer;
    cur_gz = outer_gz;
    cur_display = outer_display;
    cur_nfirst = outer_nfirst;
    memcpy(cur_first, outer_first, sizeof cur_first);
    return rc;
}

/* The JSON members of a tar archive, in path order.  A hard link is read
 * as the member it links to, as the unpacked folder would be; a member
 * that is an archive is read where its name falls (depth: how many
 * archives this one is in).  src: the file being read, or NULL for an
 * archive in memory (mem[0..memlen): a member of another). */
static int read_tar(imp_importer *im, struct archive *a, source *src,
                    const unsigned char *mem, size_t memlen,
                    struct archive_entry *e, const char *display, int depth,
                    tally *t, pb_error *err)
{
    member *ms = NULL;
    size_t n = 0, cap = 0, rcap = 0;
    size_t *refs = NULL;     /* per member in reading order: members sharing its buffer */
    /* per distinct member name (member_key): its last member so far, which
     * unpacking keeps (tar -r / -u append a newer copy under the same
     * name; before, every copy was read) */
    size_t *first_of = NULL;
    size_t nfirst = 0, fcap = 0;
    pb_strtab *names = NULL;
    int rc = PB_OK, r = ARCHIVE_OK;
    if (pb_strtab_init(&names) != PB_OK)
        return imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    pb_strbuf full = {0}, key = {0};
    /* where the last member's data ends (where it starts + the data in
     * 512-byte blocks): a tar ends with two zero blocks
     * after it; without them the archive was cut at a member boundary,
     * and reading on would silently lose the members after the cut */
    int64_t last_end = -1;
    long nentries = 0; /* every entry met, for a zip's count (below) */
    char last_name[256] = "";
    for (; r == ARCHIVE_OK || r == ARCHIVE_WARN; r = archive_read_next_header(a, &e)) {
        const char *path = archive_entry_pathname(e);
        nentries++;
        /* the stream read so far ends where this member's data starts
         * (after its header and any pax / GNU long-name headers) */
        int64_t ds = archive_filter_bytes(a, 0), sz = archive_entry_size(e);
        if (ds >= 0 && sz >= 0)
            last_end = ds + (sz + 511) / 512 * 512;
        plain_name(last_name, sizeof last_name, path ? path : "?");
        const char *hard = archive_entry_hardlink(e);
        if (member_label(&full, display, path ? path : "?") != PB_OK) {
            rc = imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
            break;
        }
        if (archive_entry_filetype(e) == AE_IFDIR)
            continue;
        int nested = path && !json_name(path) && archive_name(path);
        if (!path || (!json_name(path) && !nested) ||
            (!hard && archive_entry_filetype(e) != AE_IFREG)) {
            imp_count_at(im, IMP_C_SKIPPED_FILES, pb_strbuf_str(&full), NULL);
            continue;
        }
        if (pb_grow(&ms, sizeof *ms, &cap, n + 1, 64) != PB_OK ||
            pb_grow(&refs, sizeof *refs, &rcap, n + 1, 64) != PB_OK) {
            rc = imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
            break;
        }
        member *m = &ms[n];
        memset(m, 0, sizeof *m);
        m->own = n;
        m->nested = nested;
        refs[n] = 0;
        m->name = strdup(path);
        uint32_t ni = 0;
        if (!m->name || member_key(&key, path) != PB_OK ||
            pb_strtab_intern(names, pb_strbuf_str(&key), strlen(pb_strbuf_str(&key)),
                             &ni) != PB_OK ||
            (ni == nfirst &&
             pb_grow(&first_of, sizeof *first_of, &fcap, nfirst + 1, 64) != PB_OK)) {
            free(m->name);
            rc = imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
            break;
        }
        int new_name = ni == nfirst;
        if (hard) {
            /* the data is the earlier member's, shared, not copied */
            uint32_t hi;
            if (member_key(&key, hard) != PB_OK) {
                free(m->name);
                rc = imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
                break;
            }
            if (!pb_strtab_find(names, pb_strbuf_str(&key), strlen(pb_strbuf_str(&key)),
                                &hi) || hi >= nfirst) {
                char hn[256];
                plain_name(hn, sizeof hn, hard);
                rc = imp_fail(im, err, PB_EPARSE, pb_strbuf_str(&full), 0, 0,
                              "a hard link to \"%s\", which is not a JSON "
                              "member read before it; expected a link to "
                              "an earlier *.json or *.jsonl member", hn);
                free(m->name);
                break;
            }
            const member *k = &ms[first_of[hi]];
            m->d = k->d;
            m->own = k->own;
            m->nested = k->nested;
            refs[m->own]++;
            if (new_name)
                first_of[nfirst++] = n;
            else
                replace_member(im, ms, first_of, ni, n, pb_strbuf_str(&full));
            n++;
            continue;
        }
        int plain = ends_with(path, ".json") || ends_with(path, ".jsonl") ||
                    ends_with(path, ".csv");
        rc = read_entry(im, a, pb_strbuf_str(&full),
                        archive_entry_size_is_set(e) ? archive_entry_size(e) : 0,
                        plain, &m->d, err);
        if (rc != PB_OK) {
            free(m->name);
            break;
        }
        refs[n] = 1;
        if (new_name)
            first_of[nfirst++] = n;
        else
            replace_member(im, ms, first_of, ni, n, pb_strbuf_str(&full));
        n++;
        if (!plain && !nested &&
            (rc = unpack_member(im, m, pb_strbuf_str(&full), err)) != PB_OK)
            break;
    }
    if (rc == PB_OK && r != ARCHIVE_EOF)
        rc = read_fail(im, a, display, "a damaged or truncated archive", err);
    if (rc == PB_OK && r == ARCHIVE_EOF && last_end >= 0 &&
        (archive_format(a) & ARCHIVE_FORMAT_BASE_MASK) == ARCHIVE_FORMAT_TAR &&
        archive_filter_bytes(a, 0) < last_end + 1024)
        rc = imp_fail(im, err, PB_EPARSE, display, 0, 0,
                      "the tar archive ends after the member \"%s\" without its "
                      "end marker (two 512-byte zero blocks): cut short at a member "
                      "boundary, so members after it may be lost; expected a "
                      "complete archive", last_name);
    /* a zip cut inside its central directory (after its last member):
     * libarchive's streaming reader stops where that directory starts */
    int zc;
    if (rc == PB_OK && r == ARCHIVE_EOF && (src || mem) &&
        (archive_format(a) & ARCHIVE_FORMAT_BASE_MASK) == ARCHIVE_FORMAT_ZIP &&
        (zc = src ? zip_complete(src, a) : zip_complete_mem(a, mem, memlen)) != 1)
        rc = zc == -2 ? imp_fail(im, err, PB_EINVAL, display, 0, 0,
                                 "a zip archive inside %s compression read from "
                                 "a pipe: its end-of-central-directory record "
                                 "(whether members were cut off) cannot be "
                                 "checked without reading it twice%s%s%s; expected "
                                 "it as a file, or a .zip or .zip.gz",
                                 archive_filter_name(a, 0),
                                 src->spool_errno ? " (no copy could be kept in "
                                                    "$TMPDIR: " : "",
                                 src->spool_errno ? strerror(src->spool_errno) : "",
                                 src->spool_errno ? ")" : "")
           : zc < 0 ? imp_fail(im, err, PB_EIO, display, 0, 0,
                               "cannot read the rest of the zip archive: %s",
                               strerror(errno ? errno : EIO))
                    : imp_fail(im, err, PB_EPARSE, display, 0, 0,
                               "the zip archive ends without its end-of-central-"
                               "directory record (read up to the member \"%s\"): "
                               "cut short inside or after its list of members, so "
                               "members may be lost; expected a complete archive",
                               last_name);
    /* the members a zip's streaming reader meets are its local headers;
     * the central directory is what unzip lists: a member deleted or
     * replaced by rewriting only the directory (its old data left in
     * place), or data that is not a member, makes them differ, and the
     * members read would not be the archive's */
    if (rc == PB_OK && r == ARCHIVE_EOF && (src || mem) &&
        (archive_format(a) & ARCHIVE_FORMAT_BASE_MASK) == ARCHIVE_FORMAT_ZIP &&
        eocd_entries >= 0 && eocd_entries != nentries)
        rc = imp_fail(im, err, PB_EPARSE, display, 0, 0,
                      "the zip archive's central directory lists %ld member%s, but "
                      "%ld member%s were found in its data (members deleted or "
                      "replaced without the archive being rewritten?); expected "
                      "an archive whose members are the ones it lists (e.g. "
                      "rewritten by zip -FF, or unpacked and packed again)",
                      eocd_entries, eocd_entries == 1 ? "" : "s", nentries,
                      nentries == 1 ? "" : "s");
    if (rc == PB_OK && r == ARCHIVE_EOF && src)
        rc = drain_gz(im, src, display, last_name, err);
    if (rc == PB_OK && r == ARCHIVE_EOF && src)
        rc = imp_drain_other(im, a, src, display, last_name[0] ? last_name : "?", err);
    if (rc == PB_OK && !n)
        rc = imp_fail(im, err, PB_EIO, display, 0, 0,
                      "archive holds no JSON or CSV files; expected members "
                      "named *.json, *.jsonl or *.csv (plain or compressed)");
    if (rc == PB_OK)
        pb_sort(ms, n, sizeof *ms, cmp_member);
    for (size_t i = 0; i < n; i++) {
        if (rc == PB_OK && !ms[i].replaced) {
            if (member_label(&full, display, ms[i].name) != PB_OK)
                rc = imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
            else if (ms[i].nested)
                rc = read_nested(im, &ms[i], pb_strbuf_str(&full), depth, t, err);
            else {
                rc = parse_named(im, pb_strbuf_str(&full), &ms[i].d, err);
                t->files++;
            }
        }
        free(ms[i].name);
        /* each buffer is freed once the last member sharing it is parsed */
        if (refs[ms[i].own]-- == 1)
            free(ms[i].d.buf);
    }
    free(ms);
    free(refs);
    free(first_of);
    pb_strtab_close(names);
    pb_strbuf_free(&full);
    pb_strbuf_free(&key);
    t->archives++;
    return rc;
}

/* An archive reader opened on a file (src) or on memory (mem[0..memlen),
 * an archive inside an archive): its first entry decides what it is --
 * plain or compressed JSON (the raw format), a tar or zip archive, or
 * nothing. */
static int read_opened(imp_importer *im, struct archive *a, source *src,
                       const unsigned char *mem, size_t memlen,
                       const char *display, int depth, tally *t, pb_error *err)
{
    static const doc empty = {NULL, 0, 0, 0};
    struct archive_entry *e = NULL;
    int r = archive_read_next_header(a, &e);
    int rc;
    if (r == ARCHIVE_EOF && archive_filter_bytes(a, -1) > 0) {
        /* bytes, but no member: a tar end marker (NUL bytes) */
        rc = imp_fail(im, err, PB_EPARSE, display, 1, 1,
                      "found only NUL bytes (read as %s: an empty archive); "
                      "expected a JSON document or a tar archive of them",
                      archive_format_name(a) ? archive_format_name(a) : "tar");
    } else if (r == ARCHIVE_EOF) {
        /* nothing at all: an empty document */
        rc = parse_named(im, display, &empty, err);
        t->files++;
    } else if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
        rc = read_fail(im, a, display, "a damaged file, or not in a known "
                                       "compression or archive format", err);
    } else if (archive_format(a) == ARCHIVE_FORMAT_RAW) {
        doc d;
        rc = read_entry(im, a, display, 0, 1, &d, err);
        if (rc == PB_OK && src &&
            ((rc = drain_gz(im, src, display, NULL, err)) != PB_OK ||
             (rc = imp_drain_other(im, a, src, display, NULL, err)) != PB_OK))
            free(d.buf);
        else if (rc == PB_OK) {
            rc = parse_named(im, display, &d, err);
            free(d.buf);
            t->files++;
        }
    } else {
        rc = read_tar(im, a, src, mem, memlen, e, display, depth, t, err);
    }
    return rc;
}


/* The end of read_file, whichever way it ends: the reader, the gzip check,
 * the spool and the file (not stdin) closed. */
static void source_close(struct archive *a, source *src, int fd, int is_stdin)
{
    archive_read_free(a);
    cur_gz = NULL;
    cur_src = NULL;
    imp_gzcheck_free(src->gz);
    if (src->spool)
        fclose(src->spool);
    free(src);
    if (!is_stdin)
        close(fd);
}

/* One file (or stdin for "-"): JSON, compressed JSON or a tar archive. */
static int read_file(imp_importer *im, const char *path, tally *t,
                     pb_error *err)
{
    int is_stdin = !strcmp(path, "-");
    const char *display = is_stdin ? "(stdin)" : path;
    static const doc empty = {NULL, 0, 0, 0};
    /* opened here: checked against the run's outputs, close-on-exec */
    int fd = pb_files_open_fd(path, err);
    if (fd < 0) {
        im->failed = 1;
        return err->code;
    }
    struct archive *a = new_reader();
    source *src = malloc(sizeof *src);
    if (!a || !src || !(src->gz = imp_gzcheck_new())) {
        if (!is_stdin)
            close(fd);
        if (a)
            archive_read_free(a);
        free(src);
        return imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    src->fd = fd;
    src->spool = NULL;
    src->spool_errno = 0;
    src->unseekable = lseek(fd, 0, SEEK_CUR) < 0;
    src->raw.total = src->plain.total = 0;
    src->raw.at = src->plain.at = 0;
    src->nhead = src->nmagic = 0;
    src->cut = 0;
    imp_gzcheck_tap(src->gz, plain_tap, src);
    cur_gz = src->gz;
    cur_src = src;
    cur_display = display;
    cur_nfirst = 0;
    int r = archive_read_open(a, src, NULL, imp_source_read, NULL);
    if (r != ARCHIVE_OK) {
        const char *w = archive_error_string(a);
        int e = archive_errno(a), rc;
        if (imp_gzcheck_why(src->gz))
            /* damage the gzip check found in the first read: said as
             * when it is found later ("cannot read"), wherever reads fall */
            rc = read_fail(im, a, display, "", err);
        else if (w && (strstr(w, "Empty input") ||
                       strstr(w, "Unrecognized archive format")))
            /* the raw format takes any byte, so only an empty stream is
             * refused: an empty document */
            rc = parse_named(im, display, &empty, err);
        else
            rc = imp_fail(im, err, PB_EIO, display, 0, 0, "cannot open: %s",
                          e > 0 && e != EILSEQ && e != EINVAL
                              ? strerror(e)
                              : why(a, "not a readable file"));
        source_close(a, src, fd, is_stdin);
        return rc;
    }
    int rc = read_opened(im, a, src, NULL, 0, display, 0, t, err);
    source_close(a, src, fd, is_stdin);
    return rc;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The folders on the path from the top of a walk, by device and inode. */
typedef struct chain {
    dev_t dev;
    ino_t ino;
    const char *path;
    const struct chain *up;
} chain;

/* A folder, recursively: entries in byte order of name; subfolders walked
 * where their name falls.  up: the folders it is in (a folder met again on
 * that chain is a symbolic link loop, refused naming the link). */
static int walk_dir(imp_importer *im, const char *path, const chain *up,
                    int depth, tally *t, pb_error *err)
{
    if (depth > MAX_DEPTH)
        return imp_fail(im, err, PB_ERANGE, path, 0, 0,
                        "folders nested more than %d deep (a symbolic link "
                        "loop?); expected a folder tree of JSON files",
                        MAX_DEPTH);
    DIR *d = opendir(path);
    if (!d)
        return imp_fail(im, err, PB_EIO, path, 0, 0,
                        "cannot open folder: %s", strerror(errno));
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = PB_OK;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        if (pb_grow(&names, sizeof *names, &cap, n + 1, 64) != PB_OK) {
            rc = PB_ENOMEM;
            break;
        }
        if (!(names[n] = strdup(de->d_name))) {
            rc = PB_ENOMEM;
            break;
        }
        n++;
    }
    closedir(d);
    if (rc != PB_OK)
        rc = imp_fail(im, err, rc, NULL, 0, 0, "out of memory");
    if (names)
        pb_sort(names, n, sizeof *names, cmp_str);
    pb_strbuf full = {0};
    size_t pl = strlen(path);
    for (size_t i = 0; i < n && rc == PB_OK; i++) {
        pb_strbuf_reset(&full);
        if (pb_strbuf_printf(&full, "%s%s%s", path,
                             pl && path[pl - 1] == '/' ? "" : "/",
                             names[i]) != PB_OK) {
            rc = imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
            break;
        }
        const char *fp = pb_strbuf_str(&full);
        struct stat sb;
        if (stat(fp, &sb)) {
            imp_count_at(im, IMP_C_SKIPPED_FILES, fp, NULL);
        } else if (S_ISDIR(sb.st_mode)) {
            const chain *c = up;
            while (c && !(c->dev == sb.st_dev && c->ino == sb.st_ino))
                c = c->up;
            if (c) {
                rc = imp_fail(im, err, PB_EINVAL, fp, 0, 0,
                              "leads back to %s, a folder it is in (a "
                              "symbolic link loop); expected a folder tree "
                              "without loops", c->path);
                break;
            }
            chain here = {sb.st_dev, sb.st_ino, fp, up};
            t->folders++;
            rc = walk_dir(im, fp, &here, depth + 1, t, err);
        } else if (S_ISREG(sb.st_mode) &&
                   (json_name(names[i]) || archive_name(names[i]))) {
            rc = read_file(im, fp, t, err);
        } else {
            imp_count_at(im, IMP_C_SKIPPED_FILES, fp, NULL);
        }
    }
    pb_strbuf_free(&full);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return rc;
}

int imp_add_path(imp_importer *im, const char *path, pb_error *err)
{
    if (im->failed || im->finished)
        return pb_error_set(err, PB_ESTATE, path, 0, 0,
                            "importer already failed or finished");
    tally t = {0, 0, 0};
    struct stat sb;
    int rc, dir = strcmp(path, "-") && !stat(path, &sb) && S_ISDIR(sb.st_mode);
    if (dir) {
        chain top = {sb.st_dev, sb.st_ino, path, NULL};
        rc = walk_dir(im, path, &top, 0, &t, err);
        if (rc == PB_OK && !t.files)
            rc = imp_fail(im, err, PB_EIO, path, 0, 0,
                          "folder holds no JSON or CSV files, in it or its "
                          "subfolders; expected *.json, *.jsonl or *.csv "
                          "files (plain or .gz/.xz/.zst/.bz2) or tar or zip "
                          "archives of them");
    } else {
        rc = read_file(im, path, &t, err);
    }
    if (rc != PB_OK)
        return rc;
    pb_strbuf *s = &im->sources;
    rc = pb_strbuf_printf(s, "%zu file%s from %s", t.files,
                          t.files == 1 ? "" : "s",
                          strcmp(path, "-") ? path : "(stdin)");
    if (rc == PB_OK && (t.folders || t.archives)) {
        rc = pb_strbuf_puts(s, " (");
        if (rc == PB_OK && t.folders)
            rc = pb_strbuf_printf(s, "%zu subfolder%s", t.folders,
                                  t.folders == 1 ? "" : "s");
        if (rc == PB_OK && t.archives)
            rc = pb_strbuf_printf(s, "%s%zu tar archive%s",
                                  t.folders ? ", " : "", t.archives,
                                  t.archives == 1 ? "" : "s");
        if (rc == PB_OK)
            rc = pb_strbuf_putc(s, ')');
    }
    if (rc == PB_OK)
        rc = pb_strbuf_putc(s, '\n');
    if (rc != PB_OK)
        return imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    return PB_OK;
}
