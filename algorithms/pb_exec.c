/*
 * pb_exec.c - run an external algorithm and check what it returns
 * (pb_exec.h).  POSIX: fork, exec /bin/sh -c, wait4 for the child's CPU
 * time.  Never prints.
 */
#define _GNU_SOURCE /* mkostemp, close_range */
#include "pb_exec.h"

#include "pb_version.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pb_strbuf.h"
#include "pb_time.h"
#include "score.h"
#include "pb_sort.h"

#define ERR_KEEP 65536 /* bytes of the command's stderr kept (its tail) */

void pb_exec_run_free(pb_exec_run *run)
{
    if (!run)
        return;
    if (run->out_path) {
        unlink(run->out_path);
        free(run->out_path);
    }
    free(run->err_text);
    memset(run, 0, sizeof *run);
}

static char *tmp_file(const char *tag, int *fd)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    size_t n = strlen(dir) + strlen(tag) + 32;
    char *p = malloc(n);
    if (!p)
        return NULL;
    snprintf(p, n, "%s/pathbench-exec-%s-XXXXXX", dir, tag);
    *fd = mkostemp(p, O_CLOEXEC);
    if (*fd < 0) {
        free(p);
        return NULL;
    }
    return p;
}

static char *read_tail(const char *path, size_t keep)
{
    FILE *fp = fopen(path, "rbe");
    if (!fp)
        return NULL;
    long size = 0;
    if (fseek(fp, 0, SEEK_END) == 0)
        size = ftell(fp);
    if (size < 0)
        size = 0;
    long from = (size_t)size > keep ? size - (long)keep : 0;
    fseek(fp, from, SEEK_SET);
    char *b = malloc((size_t)(size - from) + 1);
    if (!b) {
        fclose(fp);
        return NULL;
    }
    size_t got = fread(b, 1, (size_t)(size - from), fp);
    b[got] = '\0';
    fclose(fp);
    return b;
}

/* The file behind fd reached cap bytes (a write past it failed). */
static int file_at_cap(int fd, size_t cap)
{
    struct stat st;
    return fd >= 0 && fstat(fd, &st) == 0 && (uint64_t)st.st_size >= (uint64_t)cap;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void pb_exec_limits_default(pb_exec_limits *lim)
{
    lim->timeout = (pb_ns)3600 * 1000000000;
    lim->max_output = (size_t)4 << 30;
}

int pb_exec_start(const char *command, const pb_trace *t,
                  const char *const *params, size_t nparams,
                  const pb_exec_limits *limp, pb_exec_run *run, pb_error *err)
{
    pb_exec_limits lim;
    if (limp)
        lim = *limp;
    else
        pb_exec_limits_default(&lim);
    memset(run, 0, sizeof *run);
    run->exit_status = -1;
    for (size_t i = 0; i < nparams; i++) {
        const char *eq = strchr(params[i], '=');
        int ok = eq && eq > params[i];
        for (const char *c = params[i]; ok && c < eq; c++)
            ok = isalnum((unsigned char)*c) || *c == '_';
        if (!ok)
            return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                                "parameter \"%s\" for exec: expected NAME=VALUE "
                                "with NAME of letters, digits and _", params[i]);
    }
    int fin = -1, fout = -1, ferr = -1;
    char *in_path = tmp_file("in", &fin);
    char *err_path = tmp_file("err", &ferr);
    run->out_path = tmp_file("out", &fout);
    int rc = PB_EIO;
    if (!in_path || !err_path || !run->out_path) {
        rc = pb_error_set(err, PB_EIO, NULL, 0, 0,
                          "cannot create temporary files for exec: %s",
                          strerror(errno));
        goto out;
    }
    /* the trace as an algorithm sees it: no truth columns */
    {
        FILE *fp = fdopen(fin, "w+b");
        if (!fp) {
            rc = pb_error_set(err, PB_EIO, in_path, 0, 0, "cannot write: %s",
                              strerror(errno));
            goto out;
        }
        fin = -1;
        rc = pb_trace_write(t, fp, t->columns & ~(unsigned)PB_COL_TRUTH, err);
        if (rc == PB_OK && fflush(fp) != 0)
            rc = pb_error_set(err, PB_EIO, in_path, 0, 0, "write error");
        uint64_t h = 1469598103934665603ULL;
        if (rc == PB_OK) {
            rewind(fp);
            int ch;
            while ((ch = getc(fp)) != EOF) {
                h = (h ^ (uint64_t)(unsigned char)ch) * 1099511628211ULL;
                run->input_bytes++;
            }
        }
        run->input_fnv = h;
        fclose(fp);
        if (rc != PB_OK)
            goto out;
    }
    pb_strbuf all = {0};
    for (size_t i = 0; i < nparams; i++)
        if (pb_strbuf_printf(&all, "%s%s", i ? " " : "", params[i]) != PB_OK) {
            pb_strbuf_free(&all);
            rc = pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
            goto out;
        }
    double w0 = now_s();
    pid_t pid = fork();
    if (pid < 0) {
        pb_strbuf_free(&all);
        rc = pb_error_set(err, PB_EIO, NULL, 0, 0, "cannot start \"%s\": fork: %s",
                          command, strerror(errno));
        goto out;
    }
    if (pid == 0) {
        int i0 = open(in_path, O_RDONLY);
        if (i0 < 0 || dup2(i0, 0) < 0 || dup2(fout, 1) < 0 || dup2(ferr, 2) < 0)
            _exit(126);
        /* the command gets stdin, stdout and stderr, nothing else of
         * infer's: every other descriptor is close-on-exec already; close
         * whatever a library may have opened without it */
        if (close_range(3, ~0U, 0) != 0)
            for (int fd = 3; fd < 65536; fd++)
                close(fd);
        for (size_t i = 0; i < nparams; i++) {
            const char *eq = strchr(params[i], '=');
            char name[256];
            snprintf(name, sizeof name, "PB_PARAM_%.*s", (int)(eq - params[i]),
                     params[i]);
            setenv(name, eq + 1, 1);
        }
        setenv("PB_PARAMS", pb_strbuf_str(&all), 1);
        if (lim.max_output) {
            /* a file past the cap: SIGXFSZ, reported by the parent */
            struct rlimit rl = {(rlim_t)lim.max_output, (rlim_t)lim.max_output};
            setrlimit(RLIMIT_FSIZE, &rl);
        }
        execl("/bin/sh", "sh", "-c", command, (char *)NULL);
        _exit(127);
    }
    pb_strbuf_free(&all);
    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    /* wait, up to the time limit (polled: no signal handler to install) */
    for (long nap = 1000000;;) {
        pid_t w = wait4(pid, &status, lim.timeout ? WNOHANG : 0, &ru);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR) {
            rc = pb_error_set(err, PB_EIO, NULL, 0, 0, "waiting for \"%s\": %s",
                              command, strerror(errno));
            goto out;
        }
        if (w == 0 && lim.timeout && (now_s() - w0) * 1e9 >= (double)lim.timeout) {
            kill(pid, SIGKILL);
            run->timed_out = 1;
            while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
                ;
            break;
        }
        if (w == 0) {
            struct timespec ts = {0, nap};
            nanosleep(&ts, NULL);
            if (nap < 50000000)
                nap *= 2;
        }
    }
    run->wall_s = now_s() - w0;
    run->cpu_s = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
                 (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
    run->err_text = read_tail(err_path, ERR_KEEP);
    if (!run->err_text)
        run->err_text = calloc(1, 1);
    if (run->timed_out) {
        char d[PB_DURATION_BUF];
        rc = pb_error_set(err, PB_EIO, NULL, 0, 0,
                          "external algorithm \"%s\" ran past the time limit "
                          "(%s) and was killed; raise it with --exec-timeout "
                          "DURATION", command, pb_duration_format(lim.timeout, d));
    } else if ((WIFSIGNALED(status) && WTERMSIG(status) == SIGXFSZ) ||
               (lim.max_output && file_at_cap(fout, lim.max_output))) {
        run->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
        if (!run->signal)
            run->exit_status = WEXITSTATUS(status);
        rc = pb_error_set(err, PB_EIO, NULL, 0, 0,
                          "external algorithm \"%s\" wrote a file past the size "
                          "limit (%zu bytes: its output, its standard error or a "
                          "file of its own) and was stopped; raise it with "
                          "--exec-max-output SIZE", command, lim.max_output);
    } else if (WIFSIGNALED(status)) {
        run->signal = WTERMSIG(status);
        rc = pb_error_set(err, PB_EIO, NULL, 0, 0,
                          "external algorithm \"%s\" was killed by signal %d",
                          command, run->signal);
    } else {
        run->exit_status = WEXITSTATUS(status);
        if (run->exit_status == 0)
            rc = PB_OK;
        else
            rc = pb_error_set(err, PB_EIO, NULL, 0, 0,
                              "external algorithm \"%s\" exited with status %d%s",
                              command, run->exit_status,
                              run->exit_status == 127 ? " (command not found?)" : "");
    }
out:
    if (fin >= 0)
        close(fin);
    if (fout >= 0)
        close(fout);
    if (ferr >= 0)
        close(ferr);
    if (in_path) {
        unlink(in_path);
        free(in_path);
    }
    if (err_path) {
        unlink(err_path);
        free(err_path);
    }
    return rc;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int pb_exec_finish(const char *command, const pb_trace *t,
                   const char *trace_name, const pb_exec_run *run, FILE *fp,
                   pb_error *err)
{
    char shown[96];
    snprintf(shown, sizeof shown, "output of exec:%.80s", command);
    score_result *r = NULL;
    int rc = score_result_read(run->out_path, &r, err);
    if (rc != PB_OK) {
        snprintf(err->file, sizeof err->file, "%s", shown);
        return rc;
    }
    if (!r->view || (strcmp(r->view, "call") && strcmp(r->view, "message") &&
                     strcmp(r->view, "path"))) {
        rc = pb_error_set(err, PB_EPARSE, shown, 0, 0,
                          "view \"%s\" in the metadata; expected a line like "
                          "\"# algo=NAME view=call\" (call, message or path)",
                          r->view ? r->view : "(none)");
        score_result_close(r);
        return rc;
    }
    /* every ascribed message must be one of the trace's */
    uint64_t *ids = malloc((t->n ? t->n : 1) * sizeof *ids);
    if (!ids) {
        score_result_close(r);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    for (size_t i = 0; i < t->n; i++)
        ids[i] = t->msgs[i].id;
    pb_sort(ids, t->n, sizeof *ids, cmp_u64);
    /* (abstentions and parents too) */
    for (size_t i = 0; i < r->nassign + r->nabstain && rc == PB_OK; i++) {
        const score_assign *a = i < r->nassign ? &r->assign[i]
                                               : &r->abstain[i - r->nassign];
        for (int k = 0; k < 2; k++) {
            uint64_t id = k ? a->parent : a->id;
            if (k && id == PB_NO_PARENT)
                continue;
            if (!pb_search(&id, ids, t->n, sizeof *ids, cmp_u64)) {
                rc = pb_error_set(err, PB_ENOENT, shown, a->line, 0,
                                  "%s %llu is not in the trace; expected "
                                  "the ids of the trace it was given",
                                  k ? "parent id" : "message id",
                                  (unsigned long long)id);
                break;
            }
        }
    }
    free(ids);
    /* the name: its own algo=, else the command's first word */
    char name[128];
    if (r->algo && *r->algo) {
        snprintf(name, sizeof name, "%s", r->algo);
    } else {
        const char *c = command;
        while (*c == ' ')
            c++;
        size_t l = strcspn(c, " \t");
        const char *s = c;
        for (const char *q = c; q < c + l; q++)
            if (*q == '/')
                s = q + 1;
        snprintf(name, sizeof name, "%.*s", (int)(c + l - s), s);
    }
    for (char *q = name; *q; q++)
        if (*q == ' ' || *q == '\t' || *q == '=')
            *q = '_';
    char view[16];
    snprintf(view, sizeof view, "%s", r->view);
    score_result_close(r);
    if (rc != PB_OK)
        return rc;

    FILE *in = fopen(run->out_path, "rbe");
    if (!in)
        return pb_error_set(err, PB_EIO, shown, 0, 0, "cannot read it back");
    fprintf(fp, "# pathbench-result 1\n");
    fprintf(fp, "# algo=exec:%s view=%s trace=%s messages=%zu\n", name, view,
            trace_name, t->n);
    fprintf(fp, "# exec: command=");
    for (const char *q = command; *q; q++)
        fputc(*q == '\n' || *q == '\r' ? ' ' : *q, fp);
    fprintf(fp, "\n# exec_status=%d cpu_exec_s=%.3f wall_exec_s=%.3f "
                "input_fnv1a64=%016llx input_bytes=%zu\n",
            run->exit_status, run->cpu_s, run->wall_s,
            (unsigned long long)run->input_fnv, run->input_bytes);
    /* the trace's fingerprint, as infer writes it for every algorithm */
    pb_fingerprint fpr;
    char fpline[96];
    if (pb_fingerprint_of(t->msgs, t->n, t->names->nodes, &fpr) == PB_OK) {
        pb_fingerprint_format(&fpr, fpline, sizeof fpline);
        fprintf(fp, "# %s\n", fpline);
    }
    /* which pathbench ran it, as infer records for every algorithm */
    fprintf(fp, "# program=infer version=%s commit=%s\n", pb_version(),
            pb_version_commit()[0] ? pb_version_commit() : "none");
    /* the trace's own metadata, as infer carries it for every algorithm
     * (score reads a sniffed copy's "sniffer: messages=A kept=B" there) */
    for (size_t i = 0; i < t->nmeta; i++) {
        fputs("# trace: ", fp);
        for (const char *q = t->meta[i]; *q; q++)
            fputc(*q == '\n' || *q == '\r' ? ' ' : *q, fp);
        fputc('\n', fp);
    }
    char buf[8192];
    int first = 1, bol = 1;
    while (fgets(buf, sizeof buf, in)) {
        size_t l = strlen(buf);
        if (first && bol && !strncmp(buf, "# pathbench-result", 18)) {
            /* its version line: ours is above */
            while (l && buf[l - 1] != '\n' && fgets(buf, sizeof buf, in))
                l = strlen(buf);
            first = 0;
            continue;
        }
        first = 0;
        if (bol && !strncmp(buf, "# fingerprint:", 14)) {
            /* its own: ours (above) is the one score checks */
            while (l && buf[l - 1] != '\n' && fgets(buf, sizeof buf, in))
                l = strlen(buf);
            continue;
        }
        fputs(buf, fp);
        bol = l && buf[l - 1] == '\n';
    }
    fclose(in);
    if (!bol)
        fputc('\n', fp);
    if (ferror(fp))
        return pb_error_set(err, PB_EIO, NULL, 0, 0, "write error");
    return PB_OK;
}
