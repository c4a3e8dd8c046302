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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "imp_int.h"
#include "pb_mem.h"

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
                                      ".txz", ".tar.zst", ".tar.bz2"};
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
    archive_read_support_format_raw(a);
    return a;
}

/* The current entry's data, whole, into a new buffer (*buf, *len). */
static int read_entry(imp_importer *im, struct archive *a, const char *name,
                      int64_t hint, char **buf, size_t *len, pb_error *err)
{
    size_t cap = hint > 0 ? (size_t)hint + 1 : 1u << 16, n = 0;
    char *b = malloc(cap);
    if (!b)
        return imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    for (;;) {
        if (n == cap) {
            size_t nc = cap * 2;
            char *nb = nc > cap ? realloc(b, nc) : NULL;
            if (!nb) {
                free(b);
                return imp_fail(im, err, PB_ENOMEM, name, 0, 0,
                                "out of memory reading the file");
            }
            b = nb;
            cap = nc;
        }
        la_ssize_t r = archive_read_data(a, b + n, cap - n);
        if (r == 0)
            break;
        if (r < 0) {
            free(b);
            return imp_fail(im, err, PB_EIO, name, 0, 0, "cannot read: %s",
                            archive_error_string(a) ? archive_error_string(a)
                                                    : "read error");
        }
        n += (size_t)r;
    }
    *buf = b;
    *len = n;
    return PB_OK;
}

static int parse_named(imp_importer *im, const char *name, const char *buf,
                       size_t len, pb_error *err)
{
    uint32_t file;
    if (imp_add_file_name(im, name, &file) != PB_OK)
        return imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    return imp_parse_buffer(im, buf, len, file, err);
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

typedef struct member {
    char *name;
    char *buf;
    size_t len;
} member;

static int cmp_member(const void *x, const void *y)
{
    return cmp_path(((const member *)x)->name, ((const member *)y)->name);
}

/* A member that is itself compressed JSON: decompress it from memory. */
static int unpack_member(imp_importer *im, member *m, pb_error *err)
{
    struct archive *a = archive_read_new();
    if (!a)
        return imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    archive_read_support_filter_all(a);
    archive_read_support_format_raw(a);
    struct archive_entry *e;
    int rc = PB_OK;
    if (archive_read_open_memory(a, m->buf, m->len) != ARCHIVE_OK ||
        archive_read_next_header(a, &e) != ARCHIVE_OK) {
        rc = imp_fail(im, err, PB_EIO, m->name, 0, 0, "cannot decompress: %s",
                      archive_error_string(a) ? archive_error_string(a)
                                              : "unknown format");
    } else {
        char *buf;
        size_t len;
        rc = read_entry(im, a, m->name, 0, &buf, &len, err);
        if (rc == PB_OK) {
            free(m->buf);
            m->buf = buf;
            m->len = len;
        }
    }
    archive_read_free(a);
    return rc;
}

/* The JSON members of a tar archive, in path order. */
static int read_tar(imp_importer *im, struct archive *a,
                    struct archive_entry *e, const char *display, tally *t,
                    pb_error *err)
{
    member *ms = NULL;
    size_t n = 0, cap = 0;
    int rc = PB_OK, r = ARCHIVE_OK;
    pb_strbuf full = {0};
    for (; r == ARCHIVE_OK || r == ARCHIVE_WARN; r = archive_read_next_header(a, &e)) {
        const char *path = archive_entry_pathname(e);
        pb_strbuf_reset(&full);
        if (pb_strbuf_printf(&full, "%s:%s", display, path ? path : "?") != PB_OK) {
            rc = imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
            break;
        }
        if (archive_entry_filetype(e) == AE_IFDIR)
            continue;
        if (!path || archive_entry_filetype(e) != AE_IFREG ||
            !json_name(path)) {
            imp_count_at(im, IMP_C_SKIPPED_FILES, pb_strbuf_str(&full), NULL);
            continue;
        }
        if (pb_grow(&ms, sizeof *ms, &cap, n + 1, 64) != PB_OK) {
            rc = imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
            break;
        }
        member *m = &ms[n];
        m->name = strdup(path);
        if (!m->name) {
            rc = imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
            break;
        }
        rc = read_entry(im, a, pb_strbuf_str(&full),
                        archive_entry_size_is_set(e) ? archive_entry_size(e) : 0,
                        &m->buf, &m->len, err);
        if (rc != PB_OK) {
            free(m->name);
            break;
        }
        n++;
        if (!ends_with(path, ".json") && !ends_with(path, ".jsonl") &&
            !ends_with(path, ".csv") && (rc = unpack_member(im, m, err)) != PB_OK)
            break;
    }
    if (rc == PB_OK && r != ARCHIVE_EOF)
        rc = imp_fail(im, err, PB_EIO, display, 0, 0, "cannot read: %s",
                      archive_error_string(a) ? archive_error_string(a)
                                              : "archive error");
    if (rc == PB_OK && !n)
        rc = imp_fail(im, err, PB_EIO, display, 0, 0,
                      "archive holds no JSON files; expected members named "
                      "*.json or *.jsonl (plain or compressed)");
    if (rc == PB_OK)
        qsort(ms, n, sizeof *ms, cmp_member);
    for (size_t i = 0; i < n; i++) {
        if (rc == PB_OK) {
            pb_strbuf_reset(&full);
            if (pb_strbuf_printf(&full, "%s:%s", display, ms[i].name) != PB_OK)
                rc = imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
            else
                rc = parse_named(im, pb_strbuf_str(&full), ms[i].buf,
                                 ms[i].len, err);
            t->files++;
        }
        free(ms[i].name);
        free(ms[i].buf); /* each member's text is freed once parsed */
    }
    free(ms);
    pb_strbuf_free(&full);
    t->archives++;
    return rc;
}

/* One file (or stdin for "-"): JSON, compressed JSON or a tar archive. */
static int read_file(imp_importer *im, const char *path, tally *t,
                     pb_error *err)
{
    int is_stdin = !strcmp(path, "-");
    const char *display = is_stdin ? "(stdin)" : path;
    struct archive *a = new_reader();
    if (!a)
        return imp_fail(im, err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    int r = is_stdin ? archive_read_open_fd(a, 0, 1 << 16)
                     : archive_read_open_filename(a, path, 1 << 16);
    if (r != ARCHIVE_OK) {
        const char *why = archive_error_string(a);
        int e = archive_errno(a), rc;
        if (why && (strstr(why, "Empty input") ||
                    strstr(why, "Unrecognized archive format")))
            /* the raw format takes any byte, so only an empty stream is
             * refused: an empty document */
            rc = parse_named(im, display, "", 0, err);
        else
            rc = imp_fail(im, err, PB_EIO, display, 0, 0, "cannot open: %s",
                          e > 0 && e != EILSEQ && e != EINVAL ? strerror(e)
                          : why ? why : "error");
        archive_read_free(a);
        return rc;
    }
    struct archive_entry *e = NULL;
    r = archive_read_next_header(a, &e);
    int rc;
    if (r == ARCHIVE_EOF) {
        /* nothing at all: an empty document */
        rc = parse_named(im, display, "", 0, err);
        t->files++;
    } else if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
        rc = imp_fail(im, err, PB_EIO, display, 0, 0, "cannot read: %s",
                      archive_error_string(a) ? archive_error_string(a)
                                              : "unknown format");
    } else if (archive_format(a) == ARCHIVE_FORMAT_RAW) {
        char *buf;
        size_t len;
        rc = read_entry(im, a, display, 0, &buf, &len, err);
        if (rc == PB_OK) {
            rc = parse_named(im, display, buf, len, err);
            free(buf);
            t->files++;
        }
    } else {
        rc = read_tar(im, a, e, display, t, err);
    }
    archive_read_free(a);
    return rc;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A folder, recursively: entries in byte order of name; subfolders walked
 * where their name falls. */
static int walk_dir(imp_importer *im, const char *path, int depth, tally *t,
                    pb_error *err)
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
        qsort(names, n, sizeof *names, cmp_str);
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
            t->folders++;
            rc = walk_dir(im, fp, depth + 1, t, err);
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
        rc = walk_dir(im, path, 0, &t, err);
        if (rc == PB_OK && !t.files)
            rc = imp_fail(im, err, PB_EIO, path, 0, 0,
                          "folder holds no JSON files, in it or its "
                          "subfolders; expected *.json or *.jsonl files "
                          "(plain or .gz/.xz/.zst/.bz2) or tar archives of "
                          "them");
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
