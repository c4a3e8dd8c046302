/*
 * maketrace - the tracelet-based trace generator (seed 000, 7.1.1).
 *
 *   maketrace [--seed SEED] [-s name=value ...] [-o FILE] [--parse-only]
 *             [--stats] [--help] CONFIG
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assume.h"
#include "mt.h"
#include "pb_cli.h"
#include "pb_trace.h"

static const char *prog = "maketrace";

enum { O_SET = 1, O_DEFINE, O_SEED, O_OUTPUT, O_PARSE, O_STATS, O_QUIET };
static const pb_cli_opt cli_opts[] = {
    {O_SET, 's', "set", "NAME=VALUE",
     "override a setting, a let variable, or TRACELET.weight /\n"
     ".instances / .think (repeatable; the last of a name wins: a warning)"},
    {O_DEFINE, 'D', "define", "NAME=VALUE", "old spelling of --set"},
    {O_SEED, 0, "seed", "SEED", "the same as --set seed=SEED"},
    {O_OUTPUT, 'o', "output", "FILE", "write the trace here (default stdout)"},
    {O_PARSE, 0, "parse-only", NULL, "check the config and the overrides, generate nothing"},
    {O_STATS, 0, "stats", NULL, "print per-tracelet counts to stderr at the end"},
    {O_QUIET, 'q', "quiet", NULL, "no notes on stderr (errors stay)"},
    {0, 0, NULL, NULL, NULL}};

static void usage(FILE *fp, const pb_cli *cli)
{
    fprintf(fp,
            "usage: %s [options] CONFIG\n"
            "Generate a message trace with truth (path, cause) from a tracelet config\n"
            "(language: docs/maketrace.md).  Writes CSV to stdout unless -o is given.\n\n",
            prog);
    pb_cli_help(fp, cli);
    fprintf(fp, "\nsettings (config: name = value; command line: -s name=value):\n");
    pb_opt_help(fp, mt_options, "  ");
}

/* A CONFIG given by bare name ("multitier.conf", or "multitier") that is
 * not a file here is looked up beside the program: the installed configs
 * (BINDIR/../share/pathbench/configs) and the tree's (bin/../maketrace/
 * configs).  Returns the path to use: `name` itself, or buf. */
static const char *find_config(const char *name, char *buf, size_t n)
{
    if (strchr(name, '/') || access(name, F_OK) == 0)
        return name;
    char exe[PATH_MAX];
    ssize_t l = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (l <= 0)
        return name;
    exe[l] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return name;
    *slash = '\0'; /* the program's folder */
    const char *dirs[] = {"../share/pathbench/configs", "../maketrace/configs"};
    const size_t nl = strlen(name);
    const int has_ext = nl > 5 && !strcmp(name + nl - 5, ".conf");
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        int w = snprintf(buf, n, "%s/%s/%s%s", exe, dirs[i], name, has_ext ? "" : ".conf");
        if (w > 0 && (size_t)w < n && access(buf, R_OK) == 0)
            return buf;
    }
    return name;
}

/* "-s 3" (no NAME=): the old spelling of --seed 3, kept for one release. */
static int bare_number(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    const char *out_path = NULL;
    int parse_only = 0, want_stats = 0, quiet = 0;
    /* each override as NAME=VALUE text; seeds are formatted into seedbuf */
    const char **defs = calloc((size_t)argc + 1, sizeof *defs);
    char *seedbuf = calloc((size_t)argc + 1, 24);
    size_t ndefs = 0, nseed = 0;
    pb_error err;
    pb_error_clear(&err);
    pb_cli cli;
    if (!defs || !seedbuf) {
        fprintf(stderr, "%s: out of memory\n", prog);
        free(defs);
        free(seedbuf);
        return 1;
    }
/* every exit before the config is loaded frees the same things */
#define BAIL(code)          \
    do {                    \
        pb_cli_free(&cli);  \
        free(defs);         \
        free(seedbuf);      \
        return (code);      \
    } while (0)
    if (pb_cli_init(&cli, prog, cli_opts, argc, argv, &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        BAIL(2);
    }
    int c;
    const char *arg;
    const pb_option *const tabs[2] = {mt_options, NULL};
    while ((c = pb_cli_next(&cli, &arg, &err)) != PB_CLI_END) {
        int answered = pb_cli_answer(c, &cli, tabs, usage);
        if (answered)
            BAIL(answered - 1);

        switch (c) {
        case O_SET:
        case O_DEFINE:
        case O_SEED: {
            if (c != O_SEED && !(c == O_SET && bare_number(arg))) {
                defs[ndefs++] = arg;
                break;
            }
            /* --seed SEED, or -s SEED */
            char *b = seedbuf + 24 * nseed++;
            if (!bare_number(arg) || strlen(arg) > 10) {
                fprintf(stderr, "%s: --seed: expected a seed in 0..2147483647, "
                                "got \"%s\"\n", prog, arg);
                BAIL(2);
            }
            snprintf(b, 24, "seed=%s", arg);
            defs[ndefs++] = b;
            break;
        }
        case O_OUTPUT: out_path = arg; break;
        case O_PARSE: parse_only = 1; break;
        case O_STATS: want_stats = 1; break;
        case O_QUIET: quiet = 1; break;
        default: pb_cli_usage_error(prog, &err); BAIL(2);
        }
    }
    int optind = pb_cli_optind(&cli);
    if (optind + 1 != argc) {
        fprintf(stderr, "%s: expected exactly one CONFIG file, got %d (try --help)\n",
                prog, argc - optind);
        BAIL(2);
    }
    pb_cli_free(&cli);
    /* old parameter spellings: net-delay = net_delay */
    char **owned = calloc(ndefs + 1, sizeof *owned);
    size_t nowned = 0;
    if (!owned) {
        fprintf(stderr, "%s: out of memory\n", prog);
        BAIL(1);
    }
    for (size_t i = 0; i < ndefs; i++) {
        const char *eq = strchr(defs[i], '=');
        if (!eq || !memchr(defs[i], '-', (size_t)(eq - defs[i])))
            continue;
        char name[64];
        size_t l = (size_t)(eq - defs[i]);
        if (l >= sizeof name)
            continue;
        memcpy(name, defs[i], l);
        name[l] = '\0';
        const pb_option *o = pb_opt_find(mt_options, name);
        if (!o)
            continue;
        char *fixed = malloc(strlen(o->name) + strlen(eq) + 1);
        if (!fixed)
            continue;
        sprintf(fixed, "%s%s", o->name, eq);
        defs[i] = owned[nowned++] = fixed;
    }
    char found[PATH_MAX + 64];
    const char *config_path = find_config(argv[optind], found, sizeof found);
    mt_config *cfg = NULL;
    int rc = mt_config_load(config_path, defs, ndefs, &cfg, &err);
    free(defs);
    free(seedbuf);
    for (size_t i = 0; i < nowned; i++)
        free(owned[i]);
    free(owned);
    if (rc != PB_OK) {
        pb_error_print(stderr, prog, &err);
        /* a bad override is bad usage; a bad config is bad input */
        return !strcmp(err.file, "-s") ? 2 : 1;
    }
    mt_settings *s = mt_config_settings(cfg);
    if (parse_only) {
        if (s->duration == 0 && s->messages == 0) {
            fprintf(stderr, "%s: %s: no length limit; expected duration = TIME or "
                            "messages = N (in the config or with -D)\n", prog, config_path);
            mt_config_close(cfg);
            return 1;
        }
        if (!quiet)
            fprintf(stderr, "%s: %s: %zu tracelets, config ok\n", prog, config_path,
                mt_config_ntracelets(cfg));
        mt_config_close(cfg);
        return 0;
    }
    pb_out *out = NULL;
    if (pb_out_open(&out, out_path, &config_path, 1, &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        mt_config_close(cfg);
        return 1;
    }
    FILE *fp = pb_out_fp(out);
    pb_names *names = NULL;
    pb_writer *w = NULL;
    mt_gen *g = NULL;
    pb_trace *keep = NULL;
    if (want_stats && mt_config_observed(cfg) && pb_trace_new(&keep) != PB_OK) {
        fprintf(stderr, "%s: out of memory\n", prog);
        pb_out_abort(out);
        mt_config_close(cfg);
        return 1;
    }
    const char *base = strrchr(config_path, '/');
    base = base ? base + 1 : config_path;
    if (pb_names_init(&names) != PB_OK) {
        fprintf(stderr, "%s: out of memory\n", prog);
        rc = PB_ENOMEM;
    } else if ((rc = pb_writer_open(&w, fp, pb_out_name(out),
                                    PB_COL_ALL | mt_config_columns(cfg), names, &err)) == PB_OK) {
        rc = mt_generate(cfg, base, w, names, want_stats ? &g : NULL, keep, &err);
        int rc2 = pb_writer_close(w, rc == PB_OK ? &err : NULL);
        if (rc == PB_OK)
            rc = rc2;
    }
    if (rc != PB_OK && err.code != PB_OK)
        pb_error_print(stderr, prog, &err);
    if (rc == PB_OK) {
        if ((rc = pb_out_commit(out, &err)) != PB_OK)
            pb_error_print(stderr, prog, &err);
    } else {
        pb_out_abort(out);
    }
    if (rc == PB_OK && g) {
        uint64_t tm = 0, tp = 0;
        fprintf(stderr, "%-20s %10s %12s %12s %12s\n", "tracelet", "paths", "messages",
                "mean_busy_s", "mean_think_s");
        for (size_t i = 0; i < mt_config_ntracelets(cfg); i++) {
            const mt_tracelet_stats *st = mt_gen_stats(g, i);
            double np = st->paths ? (double)st->paths : 1.0;
            fprintf(stderr, "%-20s %10llu %12llu %12.6f %12.6f\n", mt_config_tracelet_name(cfg, i),
                    (unsigned long long)st->paths, (unsigned long long)st->messages,
                    st->busy_sum / np, st->think_sum / np);
            tm += st->messages;
            tp += st->paths;
        }
        fprintf(stderr, "%-20s %10llu %12llu\n", "total", (unsigned long long)tp,
                (unsigned long long)tm);
        if (keep) {
            /* the assumption meters (metrics/assume.h), before the last line */
            keep->columns = PB_COL_ALL | PB_COL_THREAD | PB_COL_STHREAD | PB_COL_CONN;
            assume_meters am;
            if (assume_compute(keep, &am, &err) != PB_OK) {
                pb_error_print(stderr, prog, &err);
                rc = PB_ENOMEM;
            } else {
                fprintf(stderr, "immediacy %.4f (%zu of %zu sent messages caused by the latest "
                                "receipt of their thread)\n",
                        am.immediacy, am.imm_ok, am.imm_n);
                fprintf(stderr, "thread_pattern %.4f (%zu of %zu visits; sent by one thread: "
                                "%.4f)\n",
                        am.thread_pattern, am.tp_ok, am.tp_n, am.one_thread);
            }
        }
        uint64_t nc;
        double par = mt_gen_parallelism(g, &nc);
        fprintf(stderr, "mean per-node parallelism %.3f (over %llu nested calls)\n", par,
                (unsigned long long)nc);
    }
    mt_gen_close(g);
    pb_trace_close(keep);
    pb_names_close(names);
    mt_config_close(cfg);
    return rc == PB_OK ? 0 : 1;
}
