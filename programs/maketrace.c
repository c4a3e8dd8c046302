/*
 * maketrace - the tracelet-based trace generator (seed 000, 7.1.1).
 *
 *   maketrace CONFIG [-s SEED] [-D name=value ...] [-o FILE] [--parse-only]
 *             [--stats] [--help]
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt.h"
#include "pb_trace.h"

static const char *prog = "maketrace";

static void usage(FILE *fp)
{
    fprintf(fp,
            "usage: %s CONFIG [-s SEED] [-D name=value ...] [-o FILE] [--parse-only]\n"
            "       [--stats]\n"
            "Generate a message trace with truth (path, cause) from a tracelet config\n"
            "(language: docs/maketrace.md).  Writes CSV to stdout unless -o is given.\n\n"
            "  -s, --seed SEED        seed (overrides the config's seed setting)\n"
            "  -D, --define N=V       override a setting, a let variable, or\n"
            "                         TRACELET.weight / .instances / .think (repeatable)\n"
            "  -o, --output FILE      write the trace here\n"
            "      --parse-only       check the config and the overrides, generate nothing\n"
            "      --stats            print per-tracelet counts to stderr at the end\n"
            "  -h, --help             this help\n\n"
            "settings (config: name = value; command line: -D name=value):\n",
            prog);
    pb_opt_help(fp, mt_options, "  ");
}

int main(int argc, char **argv)
{
    const char *out_path = NULL, *seed_text = NULL;
    int parse_only = 0, want_stats = 0;
    const char **defs = calloc((size_t)argc + 1, sizeof *defs);
    size_t ndefs = 0;
    enum { OPT_PARSE = 256, OPT_STATS };
    static const struct option longopts[] = {
        {"seed", required_argument, NULL, 's'},
        {"define", required_argument, NULL, 'D'},
        {"output", required_argument, NULL, 'o'},
        {"parse-only", no_argument, NULL, OPT_PARSE},
        {"stats", no_argument, NULL, OPT_STATS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    if (!defs) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return 1;
    }
    int c;
    while ((c = getopt_long(argc, argv, "s:D:o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 's': seed_text = optarg; break;
        case 'D': defs[ndefs++] = optarg; break;
        case 'o': out_path = optarg; break;
        case OPT_PARSE: parse_only = 1; break;
        case OPT_STATS: want_stats = 1; break;
        case 'h': usage(stdout); free(defs); return 0;
        default: usage(stderr); free(defs); return 2;
        }
    }
    if (optind + 1 != argc) {
        fprintf(stderr, "%s: expected exactly one CONFIG file, got %d (try --help)\n",
                prog, argc - optind);
        free(defs);
        return 2;
    }
    const char *config_path = argv[optind];
    pb_error err;
    pb_error_clear(&err);
    mt_config *cfg = NULL;
    int rc = mt_config_load(config_path, defs, ndefs, &cfg, &err);
    free(defs);
    if (rc != PB_OK) {
        pb_error_print(stderr, prog, &err);
        return 1;
    }
    mt_settings *s = mt_config_settings(cfg);
    if (seed_text) {
        char *end;
        errno = 0;
        long v = strtol(seed_text, &end, 10);
        if (!*seed_text || *end || errno || v < 0 || v > 2147483647L) {
            fprintf(stderr, "%s: -s: expected a seed in 0..2147483647, got \"%s\"\n",
                    prog, seed_text);
            mt_config_close(cfg);
            return 2;
        }
        s->seed = (int)v;
    }
    if (parse_only) {
        if (s->duration == 0 && s->messages == 0) {
            fprintf(stderr, "%s: %s: no length limit; expected duration = TIME or "
                            "messages = N (in the config or with -D)\n", prog, config_path);
            mt_config_close(cfg);
            return 1;
        }
        fprintf(stderr, "%s: %s: %zu tracelets, config ok\n", prog, config_path,
                mt_config_ntracelets(cfg));
        mt_config_close(cfg);
        return 0;
    }
    FILE *fp = stdout;
    if (out_path && !(fp = fopen(out_path, "w"))) {
        fprintf(stderr, "%s: %s: cannot open for writing: %s\n", prog, out_path,
                strerror(errno));
        mt_config_close(cfg);
        return 1;
    }
    pb_names *names = NULL;
    pb_writer *w = NULL;
    mt_gen *g = NULL;
    const char *base = strrchr(config_path, '/');
    base = base ? base + 1 : config_path;
    if (pb_names_init(&names) != PB_OK) {
        fprintf(stderr, "%s: out of memory\n", prog);
        rc = PB_ENOMEM;
    } else if ((rc = pb_writer_open(&w, fp, out_path ? out_path : "(stdout)", PB_COL_ALL,
                                    names, &err)) == PB_OK) {
        rc = mt_generate(cfg, base, w, names, want_stats ? &g : NULL, &err);
        int rc2 = pb_writer_close(w, rc == PB_OK ? &err : NULL);
        if (rc == PB_OK)
            rc = rc2;
    }
    if (rc != PB_OK && err.code != PB_OK)
        pb_error_print(stderr, prog, &err);
    if (fp != stdout && fclose(fp) != 0 && rc == PB_OK) {
        fprintf(stderr, "%s: %s: write error: %s\n", prog, out_path, strerror(errno));
        rc = PB_EIO;
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
        uint64_t nc;
        double par = mt_gen_parallelism(g, &nc);
        fprintf(stderr, "mean per-node parallelism %.3f (over %llu nested calls)\n", par,
                (unsigned long long)nc);
    }
    mt_gen_close(g);
    pb_names_close(names);
    mt_config_close(cfg);
    return rc == PB_OK ? 0 : 1;
}
