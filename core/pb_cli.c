#include "pb_cli.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pb_version.h"

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

/* Flags that collect one value per use (pb_cli_next's twice_check leaves
 * them alone; --set and --define are checked per NAME). */
static const char *const repeatable[] = {"name", "node", "port", "sniffer"};

static const pb_cli_opt builtin[] = {
    {PB_CLI_HELP, 'h', "help", NULL, "this help"},
    {PB_CLI_VERSION, 0, "version", NULL, "print the version (and git commit) and exit"},
    {PB_CLI_LIST, 0, "list-options", NULL, NULL},
    {0, 0, NULL, NULL, NULL}};

void pb_cli_version(FILE *fp, const char *prog)
{
    fprintf(fp, "%s (pathbench) %s\n", prog, pb_version_full());
}

int pb_cli_answer(int c, const pb_cli *cli, const pb_option *const *params,
                  void (*usage)(FILE *fp, const pb_cli *cli))
{
    errno = 0;
    switch (c) {
    case PB_CLI_HELP: usage(stdout, cli); break;
    case PB_CLI_VERSION: pb_cli_version(stdout, cli->prog); break;
    case PB_CLI_LIST: pb_cli_list(stdout, cli, params); break;
    default: return 0;
    }
    /* a full disk or a closed stdout: said, and the exit status says so
     * (the answer was not given), as for every other output */
    if (fflush(stdout) != 0 || ferror(stdout)) {
        int e = errno ? errno : EIO;
        fprintf(stderr, "%s: (stdout): write error: %s\n", cli->prog, strerror(e));
        return 2;
    }
    return 1;
}

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

/* One value given on the command line: its NAME ('_'-joined, the
 * parameter's spelling) and the flag as typed, both owned. */
typedef struct {
    char *name;
    char *value;
    char *typed;
} seen_val;

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

/* Note on stderr when NAME (flag o with argument a) was given before
 * with another value; remember it.  A failed allocation only skips the
 * check (the value itself is used as ever). */
static void twice_check(pb_cli *cli, const pb_cli_opt *o, const char *a)
{
    if (!o->arg || !a)
        return;
    for (size_t i = 0; i < sizeof repeatable / sizeof *repeatable; i++)
        if (!strcmp(o->name, repeatable[i]))
            return;
    const char *value = a, *nm = o->name;
    size_t nl = strlen(o->name);
    int kv = !strcmp(o->name, "set") || !strcmp(o->name, "define");
    if (kv) {
        const char *eq = strchr(a, '=');
        if (eq) {
            nm = a;
            nl = (size_t)(eq - a);
            value = eq + 1;
        } else {
            nm = "seed"; /* "-s N": the old spelling of --seed N */
            nl = 4;
        }
    }
    char *name = dup_n(nm, nl);
    if (!name)
        return;
    for (char *c = name; *c; c++)
        if (*c == '-')
            *c = '_';
    /* an old name and the name it stands for are one name */
    for (const pb_option *al = cli->names; al && al->name; al++)
        if (al->type == PB_OPT_ALIAS && al->def && !strcmp(al->name, name)) {
            char *cn = dup_n(al->def, strlen(al->def));
            free(name);
            if (!(name = cn))
                return;
            break;
        }
    size_t tl = strlen(o->name) + strlen(a) + 8;
    char *typed = malloc(tl);
    if (!typed) {
        free(name);
        return;
    }
    if (kv)
        snprintf(typed, tl, "-%c %s", o->short_name ? o->short_name : 's', a);
    else
        snprintf(typed, tl, "--%s %s", o->name, a);
    seen_val *sv = cli->seen;
    for (size_t i = 0; i < cli->nseen; i++)
        if (!strcmp(sv[i].name, name)) {
            if (strcmp(sv[i].value, value))
                fprintf(stderr, "%s: warning: %s given twice (%s, then %s); the last "
                        "one is used\n", cli->prog, name, sv[i].typed, typed);
            free(sv[i].value);
            free(sv[i].typed);
            sv[i].value = dup_n(value, strlen(value));
            sv[i].typed = typed;
            free(name);
            if (!sv[i].value)
                sv[i].value = dup_n("", 0);
            return;
        }
    if (cli->nseen == cli->capseen) {
        size_t nc = cli->capseen ? 2 * cli->capseen : 8;
        seen_val *g = realloc(cli->seen, nc * sizeof *g);
        if (!g) {
            free(name);
            free(typed);
            return;
        }
        cli->seen = g;
        cli->capseen = nc;
        sv = g;
    }
    sv[cli->nseen].name = name;
    sv[cli->nseen].value = dup_n(value, strlen(value));
    sv[cli->nseen].typed = typed;
    if (!sv[cli->nseen].value) {
        free(name);
        free(typed);
        return;
    }
    cli->nseen++;
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
    /* a file flag given "" would fail late and without a name: refused
     * here, naming the flag (issue 29) */
    if (o->arg && optarg && !*optarg &&
        (!strcmp(o->arg, "FILE") || !strcmp(o->arg, "TRACE"))) {
        pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                     "option --%s needs a file name, got an empty one", o->name);
        return PB_CLI_BAD;
    }
    twice_check(cli, o, optarg);
    *arg = optarg;
    return o->id;
}

/* NAME of "NAME=VALUE" is `name` ('-' read as '_'); its value then */
static const char *kv_named(const char *kv, const char *name)
{
    const char *k = kv;
    for (; *name && *k && *k != '='; k++, name++)
        if (*k != *name && !(*k == '-' && *name == '_'))
            return NULL;
    return !*name && *k == '=' ? k + 1 : NULL;
}

void pb_cli_sets_twice(const char *prog, const pb_option *table,
                       const char *const *sets, size_t nsets)
{
    for (const pb_option *al = table; al && al->name; al++) {
        if (al->type != PB_OPT_ALIAS || !al->def)
            continue;
        const char *pv = NULL, *pkv = NULL;
        int pold = 0;
        for (size_t i = 0; i < nsets; i++) {
            const char *v = kv_named(sets[i], al->name);
            int old = v != NULL;
            if (!v && !(v = kv_named(sets[i], al->def)))
                continue;
            if (pv && old != pold && strcmp(pv, v))
                fprintf(stderr, "%s: warning: %s given twice (-s %s, then -s %s); "
                        "the last one is used\n", prog, al->def, pkv, sets[i]);
            pv = v;
            pkv = sets[i];
            pold = old;
        }
    }
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
            if (p->type != PB_OPT_ALIAS)
                fprintf(fp, "param %s %s\n", p->name, pb_opt_type_name(p->type));
}

/* "rank-by" -> "rank_by" */
static void underscored(const char *name, char *out, size_t n)
{
    size_t i = 0;
    for (; name[i] && i + 1 < n; i++)
        out[i] = name[i] == '-' ? '_' : name[i];
    out[i] = '\0';
}

int pb_cli_param_flag(const pb_cli *cli, const int *ids, size_t nids,
                      const char *kv, const char **value, pb_error *err)
{
    char name[64], u[64], known[512];
    size_t kl = 0;
    known[0] = '\0';
    *value = pb_cli_kv_split(kv, name, sizeof name);
    for (const pb_cli_opt *o = cli->opts; o && o->name; o++) {
        size_t i = 0;
        while (i < nids && ids[i] != o->id)
            i++;
        if (i == nids)
            continue;
        underscored(o->name, u, sizeof u);
        if (*value && !strcmp(u, name))
            return o->id;
        if (kl < sizeof known)
            kl += (size_t)snprintf(known + kl, sizeof known - kl, "%s%s", kl ? ", " : "", u);
    }
    if (!*value)
        pb_error_set(err, PB_EINVAL, NULL, 0, 0, "-s %s: expected NAME=VALUE with NAME "
                     "one of: %s", kv, known);
    else
        pb_error_set(err, PB_EINVAL, NULL, 0, 0, "-s %s: no parameter \"%s\"; expected "
                     "one of: %s", kv, name, known);
    *value = NULL;
    return 0;
}

void pb_cli_free(pb_cli *cli)
{
    if (!cli)
        return;
    free(cli->longopts);
    cli->longopts = NULL;
    seen_val *sv = cli->seen;
    for (size_t i = 0; i < cli->nseen; i++) {
        free(sv[i].name);
        free(sv[i].value);
        free(sv[i].typed);
    }
    free(cli->seen);
    cli->seen = NULL;
    cli->nseen = cli->capseen = 0;
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

/* Output files (pb_out_*): core/pb_out.c */
