#include "pb_cli.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The one meaning of every short letter, in every program (DEVELOPING.md,
 * "Command-line convention").  A program may leave a letter out; it may not
 * give it to another long name. */
static const struct {
    char letter;
    const char *name;
} registry[] = {
    {'a', "algo"},          /* infer */
    {'c', "callid"},        /* importtrace */
    {'d', "deskew"},        /* skewer */
    {'D', "define"},        /* old spelling of --set (maketrace) */
    {'e', "estimate"},      /* skewer */
    {'f', "spec"},          /* skewer: a clock spec FILE */
    {'h', "help"},          /* all */
    {'m', "min-instances"}, /* score */
    {'n', "node"},          /* skewer */
    {'o', "output"},        /* all that write a file */
    {'p', "loss"},          /* sniffer */
    {'q', "quiet"},         /* all with a summary on stderr */
    {'r', "rate"},          /* sniffer */
    {'s', "set"},           /* all with parameters: NAME=VALUE */
    {'t', "tolerance"},     /* score */
    {'T', "truth"},         /* score */
    {'v', "verbose"},       /* all with optional statistics */
};

static const pb_cli_opt builtin[] = {
    {PB_CLI_HELP, 'h', "help", NULL, "this help"},
    {PB_CLI_LIST, 0, "list-options", NULL, NULL},
    {0, 0, NULL, NULL, NULL}};

static int check_entry(const pb_cli_opt *o, pb_error *err)
{
    if (strchr(o->name, '_'))
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "flag --%s: long flags join words with '-', "
                            "parameters with '_'; expected --%s without '_'",
                            o->name, o->name);
    if (!o->short_name)
        return PB_OK;
    for (size_t i = 0; i < sizeof registry / sizeof *registry; i++)
        if (registry[i].letter == o->short_name) {
            if (!strcmp(registry[i].name, o->name))
                return PB_OK;
            return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                                "flag --%s: -%c means --%s in every program; "
                                "expected another letter or none",
                                o->name, o->short_name, registry[i].name);
        }
    return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                        "flag --%s: short letter -%c is not in the registry "
                        "of core/pb_cli.c; expected one registered there",
                        o->name, o->short_name);
}

int pb_cli_init(pb_cli *cli, const char *prog, const pb_cli_opt *table,
                int argc, char **argv, pb_error *err)
{
    memset(cli, 0, sizeof *cli);
    cli->prog = prog;
    cli->opts = table;
    cli->argc = argc;
    cli->argv = argv;
    size_t n = 0;
    for (const pb_cli_opt *o = table; o && o->name; o++)
        n++;
    if (n + 2 > PB_CLI_MAXOPTS)
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "%s: %zu flags; expected at most %d", prog, n,
                            PB_CLI_MAXOPTS - 2);
    struct option *lo = calloc(n + 3, sizeof *lo);
    if (!lo)
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    cli->longopts = lo;
    size_t k = 0, ns = 0;
    cli->shorts[ns++] = ':'; /* report a missing argument as ':' */
    for (int pass = 0; pass < 2; pass++) {
        for (const pb_cli_opt *o = pass ? builtin : table; o && o->name; o++) {
            int rc = check_entry(o, err);
            if (rc == PB_OK)
                for (size_t j = 0; j < k && rc == PB_OK; j++)
                    if (!strcmp(lo[j].name, o->name))
                        rc = pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                                          "flag --%s declared twice", o->name);
            if (rc == PB_OK && o->short_name && memchr(cli->shorts, o->short_name, ns))
                rc = pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                                  "short flag -%c declared twice", o->short_name);
            if (rc != PB_OK) {
                pb_cli_free(cli);
                return rc;
            }
            lo[k].name = o->name;
            /* an argument named "[=X]" is optional (long form only) */
            lo[k].has_arg = !o->arg               ? no_argument
                            : o->arg[0] == '['    ? optional_argument
                                                  : required_argument;
            lo[k].flag = NULL;
            lo[k].val = 1000 + (int)k;
            k++;
            if (o->short_name) {
                cli->shorts[ns++] = o->short_name;
                if (o->arg)
                    cli->shorts[ns++] = ':';
            }
        }
    }
    cli->shorts[ns] = '\0';
    optind = 1;
    opterr = 0;
    return PB_OK;
}

/* The table entry behind getopt's return value. */
static const pb_cli_opt *entry_of(const pb_cli *cli, int c)
{
    int k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (const pb_cli_opt *o = pass ? builtin : cli->opts; o && o->name; o++, k++)
            if (c == 1000 + k || (c > 0 && c < 256 && c == o->short_name))
                return o;
    return NULL;
}

int pb_cli_next(pb_cli *cli, const char **arg, pb_error *err)
{
    *arg = NULL;
    int c = getopt_long(cli->argc, cli->argv, cli->shorts,
                        (const struct option *)cli->longopts, NULL);
    if (c == -1)
        return PB_CLI_END;
    if (c == '?' || c == ':') {
        const char *bad = cli->argv[optind - 1];
        if (c == ':')
            pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                         "option %s needs a value", bad);
        else if (optopt && (optopt < 1000))
            pb_error_set(err, PB_EINVAL, NULL, 0, 0, "unknown option -%c", optopt);
        else
            pb_error_set(err, PB_EINVAL, NULL, 0, 0, "unknown option %s", bad);
        return PB_CLI_BAD;
    }
    const pb_cli_opt *o = entry_of(cli, c);
    if (!o) {
        pb_error_set(err, PB_EINVAL, NULL, 0, 0, "unknown option");
        return PB_CLI_BAD;
    }
    *arg = optarg;
    return o->id;
}

int pb_cli_optind(const pb_cli *cli)
{
    (void)cli;
    return optind;
}

void pb_cli_help(FILE *fp, const pb_cli *cli)
{
    for (int pass = 0; pass < 2; pass++)
        for (const pb_cli_opt *o = pass ? builtin : cli->opts; o && o->name; o++) {
            if (!o->help)
                continue;
            char left[96];
            int n;
            if (o->short_name)
                n = snprintf(left, sizeof left, "  -%c, --%s%s%s", o->short_name,
                             o->name, o->arg ? " " : "", o->arg ? o->arg : "");
            else
                n = snprintf(left, sizeof left, "      --%s%s%s", o->name,
                             o->arg && o->arg[0] != '[' ? " " : "",
                             o->arg ? o->arg : "");
            const char *h = o->help;
            fputs(left, fp);
            if (n > 24) {
                fputc('\n', fp);
                n = 0;
            }
            for (int first = 1; first || *h; first = 0) {
                const char *nl = strchr(h, '\n');
                int l = nl ? (int)(nl - h) : (int)strlen(h);
                fprintf(fp, "%*s%.*s\n", first ? 25 - n : 25, "", l, h);
                h += l + (nl != NULL);
            }
        }
}

void pb_cli_list(FILE *fp, const pb_cli *cli, const pb_option *const *params)
{
    for (int pass = 0; pass < 2; pass++)
        for (const pb_cli_opt *o = pass ? builtin : cli->opts; o && o->name; o++) {
            char s[3] = {'-', o->short_name, '\0'};
            fprintf(fp, "flag %s --%s%s%s\n", o->short_name ? s : "-", o->name,
                    o->arg ? " " : "", o->arg ? o->arg : "");
        }
    for (size_t t = 0; params && params[t]; t++)
        for (const pb_option *p = params[t]; p->name; p++)
            fprintf(fp, "param %s %s\n", p->name, pb_opt_type_name(p->type));
}

void pb_cli_free(pb_cli *cli)
{
    if (!cli)
        return;
    free(cli->longopts);
    cli->longopts = NULL;
}

const char *pb_cli_kv_split(const char *kv, char *name, size_t n)
{
    const char *eq = strchr(kv, '=');
    if (n)
        name[0] = '\0';
    if (!eq)
        return NULL;
    size_t l = (size_t)(eq - kv);
    if (n) {
        if (l >= n)
            l = n - 1;
        memcpy(name, kv, l);
        name[l] = '\0';
    }
    return eq + 1;
}

static int set_param(const char *prog, const pb_option *table, void *params,
                     const char *name, const char *value, const char *flag,
                     const char *kv_text)
{
    pb_error err;
    if (pb_opt_set(table, params, name, value, &err) != PB_OK) {
        /* name the flag as typed: "--queue 0", "-s queue=0" */
        fprintf(stderr, "%s: %s%s%s: %s (try %s --help)\n", prog,
                flag ? flag : "-s ", flag ? " " : "", flag ? value : kv_text, err.msg,
                prog);
        return 0;
    }
    return 1;
}

int pb_cli_set_param(const char *prog, const pb_option *table, void *params,
                     const char *name, const char *value, const char *flag)
{
    return set_param(prog, table, params, name, value, flag, NULL);
}

int pb_cli_set_kv(const char *prog, const pb_option *table, void *params,
                  const char *kv)
{
    char name[64];
    const char *value = pb_cli_kv_split(kv, name, sizeof name);
    if (!value)
        return set_param(prog, table, params, "seed", kv, NULL, kv);
    return set_param(prog, table, params, name, value, NULL, kv);
}

int pb_cli_usage_error(const char *prog, const pb_error *err)
{
    char b[PB_ERROR_MSG_MAX + PB_ERROR_FILE_MAX + 64];
    fprintf(stderr, "%s: %s (try %s --help)\n", prog,
            pb_error_format(err, b, sizeof b), prog);
    return 2;
}

/* ---------------------------------------------------------------- */
/* Output files */

struct pb_out {
    FILE *fp;
    char *path;  /* NULL for stdout */
    char *tmp;   /* temporary file renamed into place, or NULL */
};

FILE *pb_out_fp(const pb_out *o) { return o->fp; }

const char *pb_out_name(const pb_out *o) { return o->path ? o->path : "(stdout)"; }

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
    struct stat st, ls;
    int exists = stat(path, &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) {
        free(o);
        return pb_error_set(err, PB_EINVAL, path, 0, 0,
                            "is a folder; expected an output file name");
    }
    for (size_t i = 0; exists && i < ninputs; i++) {
        struct stat is;
        if (!inputs[i] || !strcmp(inputs[i], "-") || stat(inputs[i], &is) != 0)
            continue;
        if (is.st_dev == st.st_dev && is.st_ino == st.st_ino) {
            free(o);
            return pb_error_set(err, PB_EINVAL, path, 0, 0,
                                "is also an input (%s); expected an output "
                                "that is not read by this run", inputs[i]);
        }
    }
    o->path = strdup(path);
    if (!o->path) {
        free(o);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    int direct = exists && (!S_ISREG(st.st_mode) ||
                            (lstat(path, &ls) == 0 && S_ISLNK(ls.st_mode)));
    if (direct) {
        /* a device, a pipe or a symbolic link: written where it points */
        o->fp = fopen(path, "w");
        if (!o->fp) {
            int e = errno;
            free(o->path);
            free(o);
            return pb_error_set(err, PB_EIO, path, 0, 0,
                                "cannot open for writing: %s", strerror(e));
        }
        *out = o;
        return PB_OK;
    }
    if (exists && access(path, W_OK) != 0) {
        /* a file the user made read-only stays protected, as with fopen */
        int e = errno;
        free(o->path);
        free(o);
        return pb_error_set(err, PB_EIO, path, 0, 0, "cannot open for writing: %s",
                            strerror(e));
    }
    size_t l = strlen(path);
    o->tmp = malloc(l + 16);
    if (!o->tmp) {
        free(o->path);
        free(o);
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    }
    /* PATH.tmpXXXXXX: same folder, so the rename is atomic */
    memcpy(o->tmp, path, l);
    memcpy(o->tmp + l, ".tmpXXXXXX", 11);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        int e = errno;
        free(o->tmp);
        free(o->path);
        free(o);
        return pb_error_set(err, PB_EIO, path, 0, 0,
                            "cannot create the output: %s", strerror(e));
    }
    mode_t um = umask(0);
    umask(um);
    if (fchmod(fd, (exists ? st.st_mode : 0666) & 0777 & ~um) != 0) {
        /* the mode is a nicety; the data is what matters */
    }
    o->fp = fdopen(fd, "w");
    if (!o->fp) {
        int e = errno;
        close(fd);
        unlink(o->tmp);
        free(o->tmp);
        free(o->path);
        free(o);
        return pb_error_set(err, PB_EIO, path, 0, 0, "cannot open for writing: %s",
                            strerror(e));
    }
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
    } else if (o->tmp && rename(o->tmp, o->path) != 0) {
        e = errno;
        rc = pb_error_set(err, PB_EIO, o->path, 0, 0, "cannot rename %s into place: %s",
                          o->tmp, strerror(e));
        unlink(o->tmp);
    }
    free(o->tmp);
    free(o->path);
    free(o);
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
    free(o->tmp);
    free(o->path);
    free(o);
}
