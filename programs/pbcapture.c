/*
 * pbcapture - run a program under library interposition and record every
 * socket event it makes (docs/capture.md): what WAP5 (seed 001, 4) and
 * BorderPatrol (seed 002, 5.1) observed.  `importtrace --capture DIR` turns
 * the events into a trace.
 *
 *   pbcapture -o DIR [--name NAME] [--payload N] -- COMMAND [ARGS...]
 */
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pb_cli.h"

static const char *prog = "pbcapture";

#ifndef PB_LIBDIR
#define PB_LIBDIR "/usr/local/lib/pathbench"
#endif

enum { O_OUTPUT = 1, O_NAME, O_PAYLOAD, O_LIB };
static const pb_cli_opt cli_opts[] = {
    {O_OUTPUT, 'o', "output", "DIR", "folder for the event files (made if missing;\n"
                                     "one file per process and thread)"},
    {O_NAME, 0, "name", "NAME", "node name of the processes started (default:\n"
                                "each process's command name)"},
    {O_PAYLOAD, 0, "payload", "N", "bytes of payload kept per event (default 1024,\n"
                                   "at most 65536)"},
    {O_LIB, 0, "library", "FILE", "the interposition library (default:\n"
                                  "libpbcapture.so beside this program, in its\n"
                                  "source tree's build folder, then\n" PB_LIBDIR ")"},
    {0, 0, NULL, NULL, NULL}};

static void usage(FILE *fp, const pb_cli *cli)
{
    fprintf(fp,
            "usage: %s -o DIR [options] -- COMMAND [ARGS...]\n"
            "Run COMMAND with libpbcapture.so preloaded: every accept, connect,\n"
            "read, write, close and dup on a TCP socket, by every process and\n"
            "thread it starts, is written to DIR (docs/capture.md).  Programs that\n"
            "bypass the C library (Go, static binaries) cannot be seen this way.\n\n",
            prog);
    pb_cli_help(fp, cli);
}

/* the program's path as execvp would find it */
static int resolve(const char *cmd, char *out, size_t n)
{
    if (strchr(cmd, '/')) {
        snprintf(out, n, "%s", cmd);
        return access(out, X_OK) == 0;
    }
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/bin:/bin";
    while (*path) {
        const char *e = strchr(path, ':');
        size_t l = e ? (size_t)(e - path) : strlen(path);
        snprintf(out, n, "%.*s/%s", (int)l, l ? path : ".", cmd);
        if (access(out, X_OK) == 0)
            return 1;
        path += l + (e ? 1 : 0);
    }
    return 0;
}

/* 1: an ELF file without a program interpreter (statically linked);
 * 0: dynamic, a script, or unknown */
static int is_static_elf(const char *path)
{
    FILE *f = fopen(path, "rbe");
    if (!f)
        return 0;
    Elf64_Ehdr h;
    int st = 0;
    if (fread(&h, sizeof h, 1, f) == 1 && !memcmp(h.e_ident, ELFMAG, SELFMAG) &&
        h.e_ident[EI_CLASS] == ELFCLASS64 && h.e_phentsize == sizeof(Elf64_Phdr)) {
        st = 1;
        for (int i = 0; i < h.e_phnum && i < 256; i++) {
            Elf64_Phdr ph;
            if (fseek(f, (long)(h.e_phoff + (Elf64_Off)i * sizeof ph), SEEK_SET) != 0 ||
                fread(&ph, sizeof ph, 1, f) != 1)
                break;
            if (ph.p_type == PT_INTERP)
                st = 0;
        }
    }
    fclose(f);
    return st;
}

static int mkdirs(const char *dir)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s", dir);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            if (mkdir(p, 0755) != 0 && errno != EEXIST)
                return -1;
            *s = '/';
        }
    return mkdir(p, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

int main(int argc, char **argv)
{
    const char *dir = NULL, *name = NULL, *payload = NULL, *lib = NULL;
    pb_error err;
    pb_error_clear(&err);
    pb_cli cli;
    if (pb_cli_init(&cli, prog, cli_opts, argc, argv, &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        return 2;
    }
    int c;
    const char *arg;
    while ((c = pb_cli_next(&cli, &arg, &err)) != PB_CLI_END) {
        int answered = pb_cli_answer(c, &cli, NULL, usage);
        if (answered)
            { pb_cli_free(&cli); return answered - 1; }

        switch (c) {
        case O_OUTPUT: dir = arg; break;
        case O_NAME: name = arg; break;
        case O_PAYLOAD: payload = arg; break;
        case O_LIB: lib = arg; break;
        default: pb_cli_free(&cli); return pb_cli_usage_error(prog, &err);
        }
    }
    int optind = pb_cli_optind(&cli);
    pb_cli_free(&cli);
    if (!dir || !*dir) {
        fprintf(stderr, "%s: -o DIR is required (where the event files go)\n", prog);
        return 2;
    }
    if (optind >= argc) {
        fprintf(stderr, "%s: expected a command after --\n", prog);
        return 2;
    }
    if (payload) {
        char *end;
        errno = 0;
        long v = strtol(payload, &end, 10);
        if (errno || *end || !pb_opt_integer(payload) || v < 0 || v > 65536) {
            fprintf(stderr, "%s: --payload: \"%s\"; expected bytes from 0 to 65536%s\n",
                    prog, payload, pb_integer_hint(payload));
            return 2;
        }
    }
    char libpath[PATH_MAX];
    if (lib) {
        snprintf(libpath, sizeof libpath, "%s", lib);
    } else {
        char self[PATH_MAX - 32];
        ssize_t l = readlink("/proc/self/exe", self, sizeof self - 1);
        self[l > 0 ? l : 0] = 0;
        char *slash = strrchr(self, '/');
        if (slash)
            *slash = 0;
        /* beside the program, in the build folder of a source tree
         * (bin/../build, build/asan/bin/..), or installed */
        static const char *const where[] = {"", "/../build", "/..", "/../lib/pathbench"};
        libpath[0] = 0;
        for (size_t i = 0; i < sizeof where / sizeof where[0]; i++) {
            snprintf(libpath, sizeof libpath, "%s%s/libpbcapture.so", self, where[i]);
            if (access(libpath, R_OK) == 0)
                break;
            libpath[0] = 0;
        }
        if (!libpath[0])
            snprintf(libpath, sizeof libpath, "%s/libpbcapture.so", PB_LIBDIR);
    }
    if (access(libpath, R_OK) != 0) {
        fprintf(stderr, "%s: %s: cannot read the interposition library (%s); "
                        "expected libpbcapture.so (make builds it beside the programs)\n",
                prog, libpath, strerror(errno));
        return 1;
    }
    char abs[PATH_MAX];
    if (!realpath(libpath, abs)) {
        fprintf(stderr, "%s: %s: %s\n", prog, libpath, strerror(errno));
        return 1;
    }
    if (mkdirs(dir) != 0) {
        fprintf(stderr, "%s: -o %s: cannot create the folder: %s\n", prog, dir,
                strerror(errno));
        return 1;
    }
    char absdir[PATH_MAX];
    if (!realpath(dir, absdir)) {
        fprintf(stderr, "%s: -o %s: %s\n", prog, dir, strerror(errno));
        return 1;
    }
    /* mkdir's EEXIST also means "a file of that name": the event files
     * would then go nowhere, and the capture be lost without a word */
    struct stat dst;
    if (stat(absdir, &dst) != 0 || !S_ISDIR(dst.st_mode)) {
        fprintf(stderr, "%s: -o %s: not a folder (a file of that name exists); "
                        "expected a folder for the event files\n", prog, dir);
        return 1;
    }
    if (access(absdir, W_OK | X_OK) != 0) {
        fprintf(stderr, "%s: -o %s: cannot write there (%s); expected a folder "
                        "the command may write its event files to\n", prog, dir,
                strerror(errno));
        return 1;
    }
    char exe[PATH_MAX];
    if (!resolve(argv[optind], exe, sizeof exe)) {
        fprintf(stderr, "%s: %s: no such program\n", prog, argv[optind]);
        return 127;
    }
    if (is_static_elf(exe))
        fprintf(stderr, "%s: warning: %s is statically linked: library interposition "
                        "sees none of its calls (docs/capture.md); capture packets instead\n",
                prog, exe);
    /* keep what the user preloads already, after ours */
    const char *old = getenv("LD_PRELOAD");
    char pre[2 * PATH_MAX];
    if (old && *old)
        snprintf(pre, sizeof pre, "%s:%s", abs, old);
    else
        snprintf(pre, sizeof pre, "%s", abs);
    if (setenv("LD_PRELOAD", pre, 1) != 0 || setenv("PBCAPTURE_DIR", absdir, 1) != 0 ||
        (name && setenv("PBCAPTURE_NAME", name, 1) != 0) ||
        (payload && setenv("PBCAPTURE_PAYLOAD", payload, 1) != 0)) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return 1;
    }
    execv(exe, argv + optind);
    fprintf(stderr, "%s: %s: cannot run: %s\n", prog, exe, strerror(errno));
    return 127;
}
