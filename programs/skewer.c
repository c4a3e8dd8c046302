/*
 * skewer - add per-node clock offset and drift to a trace, remove them
 * (--deskew), or estimate pairwise offsets from a trace with both
 * timestamps (--estimate).  Seed 000 section 7.5.6; seed 001 section 5.2.
 *
 *   skewer -n WS2=+30ms,+50ppm [options] [TRACE] > skewed.csv
 *   skewer --deskew -n WS2=+30ms,+50ppm skewed.csv > back.csv
 *   skewer --estimate real.csv > offsets.spec; skewer --deskew -f offsets.spec real.csv
 */
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb_opt.h"
#include "pb_strbuf.h"
#include "pb_trace.h"
#include "skew.h"

static const char *prog = "skewer";

typedef struct skewer_params {
    int seed;
    pb_ns ref;
    int max_window;
    int allow_negative;
    pb_ns round;
} skewer_params;

static const pb_option skewer_options[] = {
    {"seed", PB_OPT_INT, offsetof(skewer_params, seed), "1", 0, 2147483647.0,
     "seed of the random per-node clocks (--random-offset/--random-drift)"},
    {"ref", PB_OPT_DURATION, offsetof(skewer_params, ref), "0", PB_OPT_NORANGE,
     "reference time of the drift: a clock with drift D reads offset + D*(t-ref)"},
    {"max-window", PB_OPT_INT, offsetof(skewer_params, max_window), "2097152",
     1, 2147483647.0, "most rows held for re-sorting before giving up"},
    {"allow-negative", PB_OPT_BOOL, offsetof(skewer_params, allow_negative), "no",
     PB_OPT_NORANGE, "write timestamps that skewing makes negative (else an error)"},
    {"round", PB_OPT_DURATION, offsetof(skewer_params, round), "0", 0, 1e6,
     "round every timestamp down to a multiple of this tick after the clocks "
     "(a coarse clock, e.g. 1ms; 0 = off); rows keep their order"},
    {NULL, PB_OPT_INT, 0, NULL, PB_OPT_NORANGE, NULL}};

static void usage(FILE *fp)
{
    fprintf(fp,
            "usage: %s [options] [TRACE]\n"
            "Add per-node clock error to a trace (ts moves by the sender's clock,\n"
            "recv_ts by the receiver's), remove it, or estimate it.  Reads TRACE or\n"
            "stdin, writes the trace re-sorted by the new ts to stdout.\n\n"
            "  -n, --node NODE=OFFSET[,DRIFT]  clock of NODE: OFFSET a signed duration\n"
            "                         (+30ms, -1.5ms, 250us), DRIFT in ppm (+50ppm,\n"
            "                         -3.5ppm, 800ppb); NODE \"*\" = every node not named.\n"
            "                         Repeatable.\n"
            "  -f, --spec FILE        clocks from a file, one NODE=OFFSET[,DRIFT] a line\n"
            "                         ('#' comments); what --estimate writes\n"
            "      --random-offset normal:SD|uniform:MAX   offsets of unnamed nodes\n"
            "      --random-drift normal:SD|uniform:MAX    drifts of unnamed nodes (ppm)\n"
            "  -s, --seed N           seed of the random clocks (default 1)\n"
            "      --ref TIME         drift reference time (default 0; for traces in\n"
            "                         epoch seconds give a time near their start)\n"
            "  -d, --deskew           remove the given clocks instead of adding them\n"
            "  -e, --estimate         estimate offsets from ts/recv_ts (symmetric delay)\n"
            "                         and print them as a spec for --deskew -f\n"
            "      --ref-node NODE    --estimate relative to NODE (default: the node\n"
            "                         with the most timed messages)\n"
            "      --print-spec FILE  write the clock every node got (spec format)\n"
            "      --max-window ROWS  most rows held for re-sorting (default 2097152)\n"
            "      --allow-negative   write timestamps that become negative\n"
            "      --round TICK       round every timestamp down to a multiple of TICK\n"
            "                         (1ms: a trace stamped in whole milliseconds);\n"
            "                         rows that tie keep their input order\n"
            "      --ignore-unknown-columns\n"
            "  -o, --output FILE      output file (default stdout)\n"
            "  -v, --verbose          statistics on stderr\n"
            "  -h, --help             this help\n\n"
            "Parameters:\n",
            prog);
    pb_opt_help(fp, skewer_options, "  ");
}

static int set_param(skewer_params *p, const char *name, const char *value)
{
    pb_error err;
    if (pb_opt_set(skewer_options, p, name, value, &err) != PB_OK) {
        fprintf(stderr, "%s: --%s: %s\n", prog, name, err.msg);
        return 0;
    }
    return 1;
}

#define FAIL(code)          \
    do {                    \
        status = (code);    \
        goto done;          \
    } while (0)

/* The clock every node of the trace got, in the spec format. */
static int print_spec_file(const char *path, const skew_spec *spec,
                           const pb_strtab *nodes, const char *in_path)
{
    FILE *fp = fopen(path, "w");
    if (!fp) {
        fprintf(stderr, "%s: %s: cannot open for writing\n", prog, path);
        return 0;
    }
    fprintf(fp, "# skewer: the clock of every node of %s\n", in_path);
    char ob[PB_SECONDS_BUF + 4], db[40];
    for (uint32_t i = 0; i < pb_strtab_count(nodes); i++) {
        skew_clock ck;
        skew_spec_clock(spec, pb_strtab_str(nodes, i), &ck);
        fprintf(fp, "%s=%s", pb_strtab_str(nodes, i),
                skew_offset_format(ck.offset, ob));
        if (ck.drift_ppt)
            fprintf(fp, ",%s", skew_drift_format(ck.drift_ppt, db));
        fputc('\n', fp);
    }
    if (fclose(fp) != 0) {
        fprintf(stderr, "%s: %s: write error\n", prog, path);
        return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    int status = 0, rc;
    skewer_params par;
    pb_error err;
    pb_error_clear(&err);
    /* everything freed at done:, so every exit path is leak-free */
    skew_spec *spec = NULL;
    pb_reader *r = NULL;
    pb_writer *w = NULL;
    skew_stream *s = NULL;
    skew_estimate *e = NULL;
    FILE *out = stdout;
    pb_strbuf sb = {0};
    skew_stats st;
    const char *name;
    const char *out_path = NULL, *print_spec = NULL, *ref_node = NULL,
               *roff = NULL, *rdrift = NULL;
    int deskew = 0, estimate = 0, verbose = 0, nclocks = 0;

    if (pb_opt_defaults(skewer_options, &par, &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        FAIL(1);
    }
    if (skew_spec_init(&spec) != PB_OK) {
        spec = NULL;
        fprintf(stderr, "%s: out of memory\n", prog);
        FAIL(1);
    }
    pb_reader_opts ropts;
    pb_reader_opts_default(&ropts);
    /* duplicate ids are an error here too (8 bytes a message while ids
     * increase); causes may dangle: the input may be a sniffed trace */
    ropts.allow_dangling_causes = 1;
    ropts.allow_negative_ts = 1;  /* a skewed trace may carry them */
    enum { OPT_ROFF = 256, OPT_RDRIFT, OPT_REF, OPT_REFNODE, OPT_PRINT,
           OPT_WINDOW, OPT_NEG, OPT_IGNORE, OPT_ROUND };
    static const struct option longopts[] = {
        {"node", required_argument, NULL, 'n'},
        {"spec", required_argument, NULL, 'f'},
        {"random-offset", required_argument, NULL, OPT_ROFF},
        {"random-drift", required_argument, NULL, OPT_RDRIFT},
        {"seed", required_argument, NULL, 's'},
        {"ref", required_argument, NULL, OPT_REF},
        {"deskew", no_argument, NULL, 'd'},
        {"estimate", no_argument, NULL, 'e'},
        {"ref-node", required_argument, NULL, OPT_REFNODE},
        {"print-spec", required_argument, NULL, OPT_PRINT},
        {"max-window", required_argument, NULL, OPT_WINDOW},
        {"allow-negative", no_argument, NULL, OPT_NEG},
        {"round", required_argument, NULL, OPT_ROUND},
        {"ignore-unknown-columns", no_argument, NULL, OPT_IGNORE},
        {"output", required_argument, NULL, 'o'},
        {"verbose", no_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "n:f:s:deo:vh", longopts, NULL)) != -1) {
        switch (c) {
        case 'n':
            if (skew_spec_add(spec, optarg, "--node", 0, &err) != PB_OK) {
                pb_error_print(stderr, prog, &err);
                FAIL(2);
            }
            nclocks++;
            break;
        case 'f':
            if (skew_spec_load(spec, optarg, &err) != PB_OK) {
                pb_error_print(stderr, prog, &err);
                FAIL(2);
            }
            nclocks++;
            break;
        case OPT_ROFF: roff = optarg; break;
        case OPT_RDRIFT: rdrift = optarg; break;
        case 's': if (!set_param(&par, "seed", optarg)) FAIL(2); break;
        case OPT_REF: if (!set_param(&par, "ref", optarg)) FAIL(2); break;
        case OPT_WINDOW: if (!set_param(&par, "max-window", optarg)) FAIL(2); break;
        case OPT_NEG: par.allow_negative = 1; break;
        case OPT_ROUND: if (!set_param(&par, "round", optarg)) FAIL(2); break;
        case 'd': deskew = 1; break;
        case 'e': estimate = 1; break;
        case OPT_REFNODE: ref_node = optarg; break;
        case OPT_PRINT: print_spec = optarg; break;
        case OPT_IGNORE: ropts.ignore_unknown_columns = 1; break;
        case 'o': out_path = optarg; break;
        case 'v': verbose = 1; break;
        case 'h': usage(stdout); FAIL(0);
        default: usage(stderr); FAIL(2);
        }
    }
    if (optind + 1 < argc) {
        fprintf(stderr, "%s: expected at most one trace file, got %d\n", prog,
                argc - optind);
        FAIL(2);
    }
    if (estimate && (deskew || nclocks || roff || rdrift)) {
        fprintf(stderr, "%s: --estimate reads offsets from the trace; it takes "
                        "no --deskew, --node, --spec or --random-*\n", prog);
        FAIL(2);
    }
    if ((roff || rdrift) &&
        skew_spec_set_random(spec, roff, rdrift, (unsigned long)par.seed, &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        FAIL(2);
    }
    skew_spec_set_ref(spec, par.ref);
    skew_spec_set_round(spec, par.round);
    const char *in_path = optind < argc ? argv[optind] : "-";

    if (pb_reader_open(&r, in_path, NULL, &ropts, &err) != PB_OK) {
        r = NULL;
        pb_error_print(stderr, prog, &err);
        FAIL(1);
    }
    if (out_path && strcmp(out_path, "-")) {
        out = fopen(out_path, "w");
        if (!out) {
            out = stdout;
            fprintf(stderr, "%s: %s: cannot open for writing\n", prog, out_path);
            FAIL(1);
        }
    }
    if (estimate) {
        if (skew_estimate_init(&e, pb_reader_names(r)) != PB_OK) {
            e = NULL;
            fprintf(stderr, "%s: out of memory\n", prog);
            FAIL(1);
        }
        pb_msg m;
        while ((rc = pb_reader_next(r, &m, NULL, &err)) == 1)
            if (skew_estimate_add(e, &m) != PB_OK) {
                fprintf(stderr, "%s: out of memory\n", prog);
                FAIL(1);
            }
        if (rc < 0) {
            pb_error_print(stderr, prog, &err);
            FAIL(1);
        }
        if (skew_estimate_write(e, ref_node, &sb, &err) != PB_OK) {
            pb_error_print(stderr, prog, &err);
            FAIL(1);
        }
        fputs(pb_strbuf_str(&sb), out);
        for (const char *wl = skew_estimate_warnings(e); *wl;) {
            const char *nl = strchr(wl, '\n');
            int len = nl ? (int)(nl - wl) : (int)strlen(wl);
            fprintf(stderr, "%s: --estimate: %.*s\n", prog, len, wl);
            wl += len + (nl ? 1 : 0);
        }
        if (fflush(out) != 0) {
            fprintf(stderr, "%s: write error\n", prog);
            FAIL(1);
        }
        FAIL(0);
    }

    if (pb_writer_open(&w, out, out_path ? out_path : "(stdout)",
                       pb_reader_columns(r), pb_reader_names(r), &err) != PB_OK) {
        w = NULL;
        pb_error_print(stderr, prog, &err);
        FAIL(1);
    }
    for (size_t i = 0; i < pb_reader_meta_count(r); i++)
        pb_writer_meta(w, pb_reader_meta(r, i));
    pb_strbuf_printf(&sb, "skewer: %s ", deskew ? "deskew" : "skew");
    skew_spec_describe(spec, &sb);
    pb_writer_meta(w, pb_strbuf_str(&sb));

    rc = skew_run(r, w, spec, deskew, (size_t)par.max_window, par.allow_negative,
                  &st, &s, &err);
    if (rc != PB_OK) {
        pb_error_print(stderr, prog, &err);
        FAIL(1);
    }
    rc = pb_writer_close(w, &err);
    w = NULL;
    if (rc != PB_OK) {
        pb_error_print(stderr, prog, &err);
        FAIL(1);
    }
    for (size_t i = 0; (name = skew_stream_unseen(s, i)) != NULL; i++)
        fprintf(stderr, "%s: warning: node \"%s\" of the clock spec does not "
                        "appear in the trace\n", prog, name);
    if (st.messages && !st.changed)
        fprintf(stderr, "%s: %s changed no timestamp of the %zu messages (every "
                        "clock of the spec is exact%s)\n", prog,
                deskew ? "--deskew" : "skewing", st.messages,
                par.round ? " and every timestamp already a multiple of --round" : "");
    if (st.not_invertible)
        fprintf(stderr, "%s: warning: %zu timestamps fall where a slow clock "
                        "(negative drift) repeats a nanosecond; --deskew gives "
                        "them back 1 ns early\n", prog, st.not_invertible);
    if (verbose) {
        char a[PB_SECONDS_BUF];
        pb_seconds_format(st.max_shift, a);
        fprintf(stderr, "%s: %zu messages, largest shift %s s, re-sort window "
                        "held at most %zu rows\n", prog, st.messages, a,
                st.max_window);
    }
    if (print_spec &&
        !print_spec_file(print_spec, spec, pb_reader_names(r)->nodes, in_path))
        FAIL(1);
done:
    if (w)
        pb_writer_close(w, NULL);
    if (out != stdout && fclose(out) != 0 && status == 0) {
        fprintf(stderr, "%s: %s: write error\n", prog, out_path);
        status = 1;
    }
    pb_strbuf_free(&sb);
    skew_stream_close(s);
    skew_estimate_close(e);
    pb_reader_close(r);
    skew_spec_close(spec);
    return status;
}
