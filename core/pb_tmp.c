#define _GNU_SOURCE /* mkostemp, O_CLOEXEC */
#include "pb_tmp.h"

#include <fcntl.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

FILE *pb_tmpfile(const char *tag)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    if (!tag)
        tag = "spool";
    size_t n = strlen(dir) + strlen(tag) + 32;
    char *p = malloc(n);
    if (!p)
        return NULL;
    snprintf(p, n, "%s/pathbench-%s-XXXXXX", dir, tag);
    int fd = mkostemp(p, O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        free(p);
        errno = e;
        return NULL;
    }
    unlink(p);
    free(p);
    FILE *fp = fdopen(fd, "w+b");
    if (!fp) {
        int e = errno;
        close(fd);
        errno = e;
    }
    return fp;
}
