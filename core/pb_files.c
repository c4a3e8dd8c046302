/*
 * pb_files.c - every file one run reads and writes (pb_files.h).
 */
#define _GNU_SOURCE /* O_CLOEXEC, mkostemp, realpath */
#include "pb_files.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pb_mem.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

typedef struct ent {
    int out;          /* 1 an output, 0 an input */
    int has_id;       /* input: the file; output: the file it replaces */
    dev_t dev;
    ino_t ino;
    int has_tmp;      /* output: the file written (temporary or device) */
    dev_t tdev;
    ino_t tino;
    char *name;       /* as given, for messages */
    char *target;     /* output: the path replaced (links followed), or NULL */
    long id;          /* output: its handle for pb_files_output_drop */
} ent;

static ent *files;
static size_t nfiles, capfiles;
static long last_id;

void pb_files_reset(void)
{
    for (size_t i = 0; i < nfiles; i++) {
        free(files[i].name);
        free(files[i].target);
    }
    free(files);
    files = NULL;
    nfiles = capfiles = 0;
}

/* A file whose reading and writing can lose nothing: a character device
 * (/dev/null, a terminal). */
static int harmless(const struct stat *st) { return S_ISCHR(st->st_mode); }

static ent *add(int out, const char *name, pb_error *err)
{
    if (pb_grow(&files, sizeof *files, &capfiles, nfiles + 1, 8) != PB_OK) {
        pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
        return NULL;
    }
    ent *e = &files[nfiles];
    memset(e, 0, sizeof *e);
    e->out = out;
    if (!(e->name = strdup(name && *name ? name : "?"))) {
        pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
        return NULL;
    }
    nfiles++;
    return e;
}

/* The output among the run's files that st is, or NULL. */
static const ent *output_of(const struct stat *st)
{
    for (size_t i = 0; i < nfiles; i++) {
        const ent *e = &files[i];
        if (!e->out)
            continue;
        if ((e->has_id && e->dev == st->st_dev && e->ino == st->st_ino) ||
            (e->has_tmp && e->tdev == st->st_dev && e->tino == st->st_ino))
            return e;
    }
    return NULL;
}

int pb_files_input_fd(int fd, const char *name, pb_error *err)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || harmless(&st))
        return PB_OK;
    if (S_ISDIR(st.st_mode))
        /* read(2) would fail with EISDIR, said as a bare "read error" */
        return pb_error_set(err, PB_EINVAL, name, 0, 0,
                            "is a folder; expected a file to read");
    const ent *o = output_of(&st);
    if (o)
        return pb_error_set(err, PB_EINVAL, name, 0, 0,
                            "is also an output of this run (%s), which would "
                            "replace it; expected an input this run does not "
                            "write", o->name);
    for (size_t i = 0; i < nfiles; i++)
        if (!files[i].out && files[i].has_id && files[i].dev == st.st_dev &&
            files[i].ino == st.st_ino)
            return PB_OK; /* read before (a second pass) */
    ent *e = add(0, name, err);
    if (!e)
        return PB_ENOMEM;
    e->has_id = 1;
    e->dev = st.st_dev;
    e->ino = st.st_ino;
    return PB_OK;
}

int pb_files_open_fd(const char *path, pb_error *err)
{
    if (!path || !*path) {
        pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                     "an empty file name; expected the name of a file to "
                     "read (\"-\" for stdin)");
        return -1;
    }
    if (!strcmp(path, "-"))
        return pb_files_input_fd(0, "(stdin)", err) == PB_OK ? 0 : -1;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        pb_error_set(err, PB_EIO, path, 0, 0, "cannot open: %s", strerror(errno));
        return -1;
    }
    if (pb_files_input_fd(fd, path, err) != PB_OK) {
        close(fd);
        return -1;
    }
    return fd;
}

FILE *pb_files_open(const char *path, pb_error *err)
{
    int fd = pb_files_open_fd(path, err);
    if (fd < 0)
        return NULL;
    if (fd == 0)
        return stdin;
    FILE *fp = fdopen(fd, "rb");
    if (!fp) {
        close(fd);
        pb_error_set(err, PB_ENOMEM, path, 0, 0, "out of memory");
    }
    return fp;
}

int pb_files_getline(FILE *fp, char **buf, size_t *cap, size_t max, size_t *len)
{
    size_t n = 0;
    *len = 0;
    for (;;) {
        if (n + 2 > *cap) {
            size_t nc = *cap ? 2 * *cap : 256;
            char *nb = realloc(*buf, nc);
            if (!nb)
                return PB_ENOMEM;
            *buf = nb;
            *cap = nc;
        }
        if (n >= max) {
            (*buf)[n] = '\0';
            *len = n;
            return PB_ERANGE;
        }
        int c = getc(fp);
        if (c == EOF) {
            (*buf)[n] = '\0';
            *len = n;
            if (ferror(fp))
                return PB_EIO;
            return n > 0;
        }
        (*buf)[n++] = (char)c;
        /* a UTF-8 byte-order mark (Notepad, PowerShell) before a line:
         * dropped, as the trace, result and config readers drop it, so
         * that no reader takes it for part of the first word */
        if (n == 3 && !memcmp(*buf, "\xEF\xBB\xBF", 3))
            n = 0;
        if (c == '\n' || c == '\0') {
            (*buf)[n] = '\0';
            *len = n;
            return 1;
        }
    }
}

/* ------------------------------------------------------------------ */
/* outputs */

/* The path a new output at `path` will be: symbolic links followed (a
 * link to a file that does not exist yet names where it will be), the
 * folder made absolute.  malloc'd, or NULL when out of memory. */
static char *new_target(const char *path)
{
    char cur[PATH_MAX], link[PATH_MAX];
    if (strlen(path) >= sizeof cur)
        return strdup(path);
    strcpy(cur, path);
    for (int hops = 0; hops < 40; hops++) {
        struct stat ls;
        if (lstat(cur, &ls) != 0 || !S_ISLNK(ls.st_mode))
            break;
        ssize_t k = readlink(cur, link, sizeof link - 1);
        if (k < 0)
            break;
        link[k] = '\0';
        if (link[0] == '/') {
            strcpy(cur, link);
        } else {
            char *slash = strrchr(cur, '/');
            size_t dl = slash ? (size_t)(slash - cur) + 1 : 0;
            if (dl + (size_t)k >= sizeof cur)
                break;
            memcpy(cur + dl, link, (size_t)k + 1);
        }
    }
    /* the folder, absolute; the name as it is */
    char *slash = strrchr(cur, '/');
    const char *base = slash ? slash + 1 : cur;
    char dir[PATH_MAX];
    if (slash == cur)
        strcpy(dir, "/");
    else if (slash)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - cur), cur);
    else
        strcpy(dir, ".");
    char *rd = realpath(dir, NULL);
    if (!rd || !*base || !strcmp(base, ".") || !strcmp(base, "..")) {
        free(rd);
        return strdup(cur); /* creating it will fail and say why */
    }
    size_t n = strlen(rd) + strlen(base) + 2;
    char *t = malloc(n);
    if (t)
        snprintf(t, n, "%s%s%s", rd, strcmp(rd, "/") ? "/" : "", base);
    free(rd);
    return t;
}

/* A name for messages: "standard input" for stdin. */
static const char *shown(const char *name)
{
    return strcmp(name, "(stdin)") && strcmp(name, "-") ? name : "standard input";
}

static int same(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

int pb_files_output_check(const char *path, const char *const *inputs,
                          size_t ninputs, char **target, int *is_stdout,
                          pb_error *err)
{
    *target = NULL;
    *is_stdout = 0;
    if (!*path)
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "an empty output file name; expected a file name "
                            "(\"-\" for stdout)");
    struct stat st;
    int exists = stat(path, &st) == 0;
    if (exists && S_ISDIR(st.st_mode))
        return pb_error_set(err, PB_EINVAL, path, 0, 0,
                            "is a folder; expected an output file name");
    if (exists && !harmless(&st)) {
        /* the same file as an input: on the command line, stdin, or read
         * already */
        for (size_t i = 0; i < ninputs; i++) {
            struct stat is;
            if (!inputs[i] || !*inputs[i])
                continue;
            if (!strcmp(inputs[i], "-") ? fstat(0, &is) != 0
                                        : stat(inputs[i], &is) != 0)
                continue;
            if (same(&is, &st))
                return pb_error_set(err, PB_EINVAL, path, 0, 0,
                                    "is also an input (%s); expected an output "
                                    "that is not read by this run",
                                    shown(inputs[i]));
        }
        for (size_t i = 0; i < nfiles; i++)
            if (!files[i].out && files[i].has_id && files[i].dev == st.st_dev &&
                files[i].ino == st.st_ino)
                return pb_error_set(err, PB_EINVAL, path, 0, 0,
                                    "is also an input (%s); expected an output "
                                    "that is not read by this run",
                                    shown(files[i].name));
        const ent *o = output_of(&st);
        if (o)
            return pb_error_set(err, PB_EINVAL, path, 0, 0,
                                "is also another output of this run (%s); "
                                "expected a different file for each output",
                                o->name);
        struct stat so;
        if (fstat(1, &so) == 0 && same(&so, &st)) {
            *is_stdout = 1; /* /dev/stdout, or the file stdout goes to */
            return PB_OK;
        }
    }
    if (exists && !S_ISREG(st.st_mode))
        return PB_OK; /* a device or a pipe: written directly */
    char *t = exists ? realpath(path, NULL) : new_target(path);
    if (!t) {
        if (exists)
            return pb_error_set(err, PB_EIO, path, 0, 0, "cannot resolve: %s",
                                strerror(errno));
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    for (size_t i = 0; i < nfiles; i++)
        if (files[i].out && files[i].target && !strcmp(files[i].target, t)) {
            pb_error_set(err, PB_EINVAL, path, 0, 0,
                         "is also another output of this run (%s); expected "
                         "a different file for each output", files[i].name);
            free(t);
            return PB_EINVAL;
        }
    *target = t;
    return PB_OK;
}

int pb_files_output_add(const char *path, const char *target, int fd,
                        long *id, pb_error *err)
{
    ent *e = add(1, path, err);
    if (!e)
        return PB_ENOMEM;
    e->id = *id = ++last_id;
    struct stat st;
    if (target && !(e->target = strdup(target))) {
        nfiles--;
        free(e->name);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    if (target && stat(target, &st) == 0 && !harmless(&st)) {
        e->has_id = 1;
        e->dev = st.st_dev;
        e->ino = st.st_ino;
    }
    if (fd >= 0 && fstat(fd, &st) == 0 && !harmless(&st)) {
        e->has_tmp = 1;
        e->tdev = st.st_dev;
        e->tino = st.st_ino;
    }
    return PB_OK;
}

void pb_files_output_drop(long id)
{
    for (size_t i = 0; i < nfiles; i++)
        if (files[i].out && files[i].id == id) {
            free(files[i].name);
            free(files[i].target);
            memmove(&files[i], &files[i + 1], (nfiles - i - 1) * sizeof *files);
            nfiles--;
            return;
        }
}

int pb_size_parse(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    if (!s || *s < '0' || *s > '9')
        return PB_EPARSE;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || errno)
        return PB_EPARSE;
    int shift = 0;
    switch (*end) {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    case 't': case 'T': shift = 40; end++; break;
    default: break;
    }
    if (*end == 'B' || *end == 'b')
        end++;
    if (*end || !v || v > ((unsigned long long)SIZE_MAX >> shift))
        return PB_EPARSE;
    *out = (size_t)(v << shift);
    return PB_OK;
}
