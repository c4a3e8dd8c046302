/*
 * pb_out.c - output files (pb_out_*, declared in pb_cli.h): opened before
 * the work, checked against every file of the run (pb_files.h), written
 * through a temporary file beside the file they replace -- the target of
 * a symbolic link, /dev/stdin's file -- and renamed into place only when
 * every write succeeded.  Devices and pipes are written directly; the
 * run's own standard output (-o /dev/stdout) is used as it is.
 */
#define _GNU_SOURCE /* mkostemp, O_CLOEXEC */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pb_cli.h"
#include "pb_files.h"

#include <signal.h>

/* ------------------------------------------------------------------ */
/* A run killed while writing (Ctrl-C, a time limit's SIGTERM, a file size
 * limit's SIGXFSZ, a closed pipe's SIGPIPE) removes its temporary files:
 * the old outputs stay as they were and no TARGET.tmpXXXXXX is left
 * behind.  Handlers are installed only for signals whose action is still
 * the default (an ignored SIGINT under nohup stays ignored, a program's
 * own handler is kept); after the clean-up the signal is raised again
 * with its default action, so the run ends as it would have. */
enum { LIVE_MAX = 32 };
static char *volatile live[LIVE_MAX]; /* temporary files being written */
static pid_t live_pid;                /* the process that made them */
static int caught;                    /* handlers installed */
static const int live_sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE,
                                SIGXFSZ, SIGXCPU};

static void live_handler(int sig)
{
    int e = errno;
    if (getpid() == live_pid) /* not a child between fork and exec */
        for (int i = 0; i < LIVE_MAX; i++)
            if (live[i])
                unlink(live[i]);
    errno = e;
    /* the live signals stay blocked while this runs (sa_mask), so a second
     * one (timeout signals the process and then its group) cannot end the
     * run before the files are gone; now the default action, and the
     * signal raised again ends the run as it would have */
    signal(sig, SIG_DFL);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, sig);
    raise(sig);
    sigprocmask(SIG_UNBLOCK, &one, NULL);
}

static void live_block(sigset_t *old)
{
    sigset_t all;
    sigemptyset(&all);
    for (size_t k = 0; k < sizeof live_sigs / sizeof *live_sigs; k++)
        sigaddset(&all, live_sigs[k]);
    sigprocmask(SIG_BLOCK, &all, old);
}

/* Note tmp as being written (a full table only loses the clean-up).  The
 * caller holds the signals blocked (live_block) from before the file is
 * made until after this, so a signal in between cannot leave it behind. */
static void live_add(char *tmp)
{
    if (!caught) {
        caught = 1;
        live_pid = getpid();
        for (size_t k = 0; k < sizeof live_sigs / sizeof *live_sigs; k++) {
            struct sigaction cur, sa;
            if (sigaction(live_sigs[k], NULL, &cur) != 0 ||
                (cur.sa_flags & SA_SIGINFO) || cur.sa_handler != SIG_DFL)
                continue;
            memset(&sa, 0, sizeof sa);
            sa.sa_handler = live_handler;
            sigemptyset(&sa.sa_mask);
            for (size_t j = 0; j < sizeof live_sigs / sizeof *live_sigs; j++)
                sigaddset(&sa.sa_mask, live_sigs[j]);
            sa.sa_flags = 0;
            sigaction(live_sigs[k], &sa, NULL);
        }
    }
    for (int i = 0; i < LIVE_MAX; i++)
        if (!live[i]) {
            live[i] = tmp;
            break;
        }
}

static void live_drop(const char *tmp)
{
    if (!tmp)
        return;
    sigset_t old;
    live_block(&old);
    for (int i = 0; i < LIVE_MAX; i++)
        if (live[i] == tmp)
            live[i] = NULL;
    sigprocmask(SIG_SETMASK, &old, NULL);
}

struct pb_out {
    FILE *fp;
    char *path;   /* as given; NULL for stdout */
    char *target; /* the file the temporary file replaces, or NULL */
    char *tmp;    /* temporary file renamed onto target, or NULL */
    long id;      /* in the run's list of files (pb_files.h), or 0 */
};

FILE *pb_out_fp(const pb_out *o) { return o->fp; }

const char *pb_out_name(const pb_out *o) { return o->path ? o->path : "(stdout)"; }

static void out_free(pb_out *o)
{
    free(o->tmp);
    free(o->target);
    free(o->path);
    free(o);
}

/* Fail with err as set (or with the reason in errno): the partly made
 * output is removed. */
static int out_fail(pb_out *o, int fd, int rc)
{
    if (o->fp && o->fp != stdout)
        fclose(o->fp);
    else if (fd >= 0)
        close(fd);
    if (o->tmp)
        unlink(o->tmp);
    live_drop(o->tmp);
    if (o->id)
        pb_files_output_drop(o->id);
    out_free(o);
    return rc;
}

int pb_out_open(pb_out **out, const char *path, const char *const *inputs,
                size_t ninputs, pb_error *err)
{
    *out = NULL;
    pb_out *o = calloc(1, sizeof *o);
    if (!o)
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    if (!path || !strcmp(path, "-")) {
        o->fp = stdout;
        *out = o;
        return PB_OK;
    }
    int is_stdout = 0, rc;
    rc = pb_files_output_check(path, inputs, ninputs, &o->target, &is_stdout, err);
    if (rc != PB_OK)
        return out_fail(o, -1, rc);
    if (!(o->path = strdup(path)))
        return out_fail(o, -1, pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory"));
    if (is_stdout) {
        o->fp = stdout;
        if ((rc = pb_files_output_add(path, NULL, 1, &o->id, err)) != PB_OK)
            return out_fail(o, -1, rc);
        *out = o;
        return PB_OK;
    }
    int fd = -1;
    if (!o->target) {
        /* a device or a pipe: written where it is, nothing to truncate */
        fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0)
            return out_fail(o, -1, pb_error_set(err, PB_EIO, path, 0, 0,
                                                "cannot open for writing: %s",
                                                strerror(errno)));
    } else {
        struct stat st;
        int exists = stat(o->target, &st) == 0;
        if (exists && access(o->target, W_OK) != 0)
            /* a file the user made read-only stays protected, as with fopen */
            return out_fail(o, -1, pb_error_set(err, PB_EIO, path, 0, 0,
                                                "cannot open for writing: %s",
                                                strerror(errno)));
        size_t l = strlen(o->target);
        if (!(o->tmp = malloc(l + 16)))
            return out_fail(o, -1, pb_error_set(err, PB_ENOMEM, NULL, 0, 0,
                                                "out of memory"));
        /* TARGET.tmpXXXXXX: same folder as the file replaced, so the
         * rename is atomic (and a link to it stays a link) */
        memcpy(o->tmp, o->target, l);
        memcpy(o->tmp + l, ".tmpXXXXXX", 11);
        sigset_t old_mask;
        live_block(&old_mask);
        fd = mkostemp(o->tmp, O_CLOEXEC);
        int e = errno;
        if (fd >= 0)
            live_add(o->tmp);
        sigprocmask(SIG_SETMASK, &old_mask, NULL); /* a pending signal lands here */
        if (fd < 0) {
            free(o->tmp);
            o->tmp = NULL;
            return out_fail(o, -1, pb_error_set(err, PB_EIO, path, 0, 0,
                                                "cannot create the output: %s",
                                                strerror(e)));
        }
        mode_t um = umask(0);
        umask(um);
        if (fchmod(fd, (exists ? st.st_mode : 0666) & 0777 & ~um) != 0) {
            /* the mode is a nicety; the data is what matters */
        }
    }
    if ((rc = pb_files_output_add(path, o->target, fd, &o->id, err)) != PB_OK)
        return out_fail(o, fd, rc);
    if (!(o->fp = fdopen(fd, "w")))
        return out_fail(o, fd, pb_error_set(err, PB_EIO, path, 0, 0,
                                            "cannot open for writing: %s",
                                            strerror(errno)));
    *out = o;
    return PB_OK;
}

int pb_out_commit(pb_out *o, pb_error *err)
{
    if (!o)
        return PB_OK;
    int bad = fflush(o->fp) != 0 || ferror(o->fp);
    int e = errno;
    if (o->fp != stdout) {
        if (fclose(o->fp) != 0 && !bad) {
            bad = 1;
            e = errno;
        }
    }
    int rc = PB_OK;
    if (bad) {
        rc = pb_error_set(err, PB_EIO, pb_out_name(o), 0, 0,
                          "write error: %s%s", e ? strerror(e) : "failed",
                          o->tmp ? "; the old file, if any, is left as it was" : "");
        if (o->tmp)
            unlink(o->tmp);
    } else if (o->tmp && rename(o->tmp, o->target) != 0) {
        e = errno;
        rc = pb_error_set(err, PB_EIO, o->path, 0, 0, "cannot rename %s into place: %s",
                          o->tmp, strerror(e));
        unlink(o->tmp);
    }
    live_drop(o->tmp);
    out_free(o);
    return rc;
}

void pb_out_abort(pb_out *o)
{
    if (!o)
        return;
    if (o->fp != stdout)
        fclose(o->fp);
    if (o->tmp)
        unlink(o->tmp);
    live_drop(o->tmp);
    if (o->id)
        pb_files_output_drop(o->id);
    out_free(o);
}
