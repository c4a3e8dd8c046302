/*
 * skewer - add per-node clock offset and drift to a trace, remove them
 * (--deskew), or estimate pairwise offsets from a trace with both
 * timestamps (--estimate).  Seed 000 section 7.5.6; seed 001 section 5.2.
 *
 *   skewer -n WS2=+30ms,+50ppm [options] [TRACE] > skewed.csv
 *   skewer --deskew -n WS2=+30ms,+50ppm skewed.csv > back.csv
 *   skewer --estimate real.csv > offsets.spec; skewer --deskew -f offsets.spec real.csv
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb_cli.h"
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
    {"max_window", PB_OPT_INT, offsetof(skewer_params, max_window), "2097152",
     1, 2147483647.0, "most rows held for re-sorting before giving up"},
    {"allow_negative", PB_OPT_BOOL, offsetof(skewer_params, allow_negative), "no",
     PB_OPT_NORANGE, "write timestamps that skewing makes negative (else an error)"},
    {"round", PB_OPT_DURATION, offsetof(skewer_params, round), "0", 0, 1e6,
     "round every timestamp down to a multiple of this tick after the clocks "
     "(a coarse clock, e.g. 1ms; 0 = off); rows keep their order"},
    {NULL, PB_OPT_INT, 0, NULL, PB_OPT_NORANGE, NULL}};

enum {
    O_NODE = 1, O_SPEC, O_ROFF, O_RDRIFT, O_SET, O_SEED, O_REF, O_DESKEW,
    O_ESTIMATE, O_REFNODE, O_PRINT, O_WINDOW, O_NEG, O_IGNORE, O_OUTPUT,
    O_VERBOSE, O_ROUND, O_QUIET
};
static const pb_cli_opt cli_opts[] = {
    {O_NODE, 'n', "node", "NODE=OFFSET[,DRIFT]",
     "clock of NODE: OFFSET a signed duration with a\n"
     "unit (+30ms, -1.5ms, 250us), DRIFT in ppm (+50ppm,\n"
     "-3.5ppm, 800ppb); NODE \"*\" = every node not named.\n"
     "Repeatable."},
    {O_SPEC, 'f', "spec", "FILE", "clocks from a file, one NODE=OFFSET[,DRIFT] a line\n"
                                  "('#' comments); what --estimate writes"},
    {O_ROFF, 0, "random-offset", "normal:SD|uniform:MAX", "offsets of unnamed nodes"},
    {O_RDRIFT, 0, "random-drift", "normal:SD|uniform:MAX", "drifts of unnamed nodes (ppm)"},
    {O_SET, 's', "set", "NAME=VALUE", "set a parameter (below; repeatable)"},
    {O_SEED, 0, "seed", "N", "the same as --set seed=N"},
    {O_REF, 0, "ref", "TIME", "the same as --set ref=TIME"},
    {O_DESKEW, 'd', "deskew", NULL, "remove the given clocks instead of adding them"},
    {O_ESTIMATE, 'e', "estimate", NULL, "estimate offsets from ts/recv_ts (symmetric delay)\n"
                                        "and print them as a spec for --deskew -f"},
    {O_REFNODE, 0, "ref-node", "NODE", "--estimate relative to NODE (default: the node\n"
                                       "with the most timed messages)"},
    {O_PRINT, 0, "print-spec", "FILE", "write the clock every node got (spec format)"},
    {O_WINDOW, 0, "max-window", "ROWS", "the same as --set max_window=ROWS"},
    {O_NEG, 0, "allow-negative", NULL, "the same as --set allow_negative=yes"},
    {O_ROUND, 0, "round", "TICK", "the same as --set round=TICK: round every timestamp\n"
                                  "down to a multiple of TICK (1ms: a trace stamped in\n"
                                  "whole milliseconds); rows that tie keep their order"},
    {O_IGNORE, 0, "ignore-unknown-columns", NULL, "skip columns pathbench does not know"},
    {O_OUTPUT, 'o', "output", "FILE", "output file (default stdout)"},
    {O_VERBOSE, 'v', "verbose", NULL, "statistics on stderr"},
    {O_QUIET, 'q', "quiet", NULL, "no notes on stderr (warnings and errors stay)"},
    {0, 0, NULL, NULL, NULL}};

static void usage(FILE *fp, const pb_cli *cli)
{
    fprintf(fp,
            "usage: %s [options] [TRACE]\n"
            "Add per-node clock error to a trace (ts moves by the sender's clock,\n"
            "recv_ts by the receiver's), remove it, or estimate it.  Reads TRACE or\n"
            "stdin, writes the trace re-sorted by the new ts to stdout.\n\n",
            prog);
    pb_cli_help(fp, cli);
    fprintf(fp, "\nParameters (-s NAME=VALUE):\n");
    pb_opt_help(fp, skewer_options, "  ");
}

#define FAIL(code)          \
    do {                    \
        status = (code);    \
        goto done;          \
    } while (0)

/* The clock every node of the trace got, in the spec format. */
static void print_spec_file(FILE *fp, const skew_spec *spec,
                            const pb_strtab *nodes, const char *in_path)
{
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
    pb_out *outf = NULL, *specf = NULL;
    pb_cli cli = {0};
    pb_strbuf sb = {0};
    skew_stats st;
    const char *name;
    const char *out_path = NULL, *print_spec = NULL, *ref_node = NULL, *spec_path = NULL,
               *roff = NULL, *rdrift = NULL;
    int deskew = 0, estimate = 0, verbose = 0, nclocks = 0, quiet = 0;

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
    if (pb_cli_init(&cli, prog, cli_opts, argc, argv, &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        FAIL(2);
    }
    int c;
    const char *optarg;
    const pb_option *const tabs[2] = {skewer_options, NULL};
    while ((c = pb_cli_next(&cli, &optarg, &err)) != PB_CLI_END) {
        int answered = pb_cli_answer(c, &cli, tabs, usage);
        if (answered)
            FAIL(answered - 1);

        switch (c) {
        case O_NODE:
            if (skew_spec_add(spec, optarg, "--node", 0, &err) != PB_OK) {
                pb_error_print(stderr, prog, &err);
                FAIL(2);
            }
            nclocks++;
            break;
        case O_SPEC:
            if (skew_spec_load(spec, optarg, &err) != PB_OK) {
                pb_error_print(stderr, prog, &err);
                FAIL(2);
            }
            spec_path = optarg;
            nclocks++;
            break;
        case O_ROFF: roff = optarg; break;
        case O_RDRIFT: rdrift = optarg; break;
        case O_SET: if (!pb_cli_set_kv(prog, skewer_options, &par, optarg)) FAIL(2); break;
        case O_SEED: if (!pb_cli_set_param(prog, skewer_options, &par, "seed", optarg, "--seed")) FAIL(2); break;
        case O_REF: if (!pb_cli_set_param(prog, skewer_options, &par, "ref", optarg, "--ref")) FAIL(2); break;
        case O_WINDOW: if (!pb_cli_set_param(prog, skewer_options, &par, "max_window", optarg, "--max-window")) FAIL(2); break;
        case O_NEG: par.allow_negative = 1; break;
        case O_ROUND: if (!pb_cli_set_param(prog, skewer_options, &par, "round", optarg, "--round")) FAIL(2); break;
        case O_DESKEW: deskew = 1; break;
        case O_ESTIMATE: estimate = 1; break;
        case O_REFNODE: ref_node = optarg; break;
        case O_PRINT: print_spec = optarg; break;
        case O_IGNORE: ropts.ignore_unknown_columns = 1; break;
        case O_OUTPUT: out_path = optarg; break;
        case O_VERBOSE: verbose = 1; break;
        case O_QUIET: quiet = 1; break;
        default: FAIL(pb_cli_usage_error(prog, &err));
        }
    }
    int optind = pb_cli_optind(&cli);
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

    /* outputs opened before the work; none may be an input */
    const char *inputs[2] = {in_path, spec_path};
    if (pb_out_open(&outf, out_path, inputs, 2, &err) != PB_OK ||
        (print_spec && pb_out_open(&specf, print_spec, inputs, 2, &err) != PB_OK)) {
        pb_error_print(stderr, prog, &err);
        FAIL(1);
    }
    out = pb_out_fp(outf);
    if (pb_reader_open(&r, in_path, NULL, &ropts, &err) != PB_OK) {
        r = NULL;
        pb_error_print(stderr, prog, &err);
        FAIL(1);
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
        goto commit;
    }

    if (pb_writer_open(&w, out, pb_out_name(outf),
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
    {
        /* one walk (linear); the first 10 by name, the rest counted */
        size_t upos = 0, nu = 0;
        while ((name = skew_stream_unseen_next(s, &upos)) != NULL)
            if (nu++ < 10)
                fprintf(stderr, "%s: warning: node \"%s\" of the clock spec does not "
                                "appear in the trace\n", prog, name);
        if (nu > 10)
            fprintf(stderr, "%s: warning: %zu more nodes of the clock spec do not appear "
                            "in the trace (%zu in all; the first 10 named above)\n", prog,
                    nu - 10, nu);
    }
    if (st.messages && !st.changed && !quiet)
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
    if (specf)
        print_spec_file(pb_out_fp(specf), spec, pb_reader_names(r)->nodes, in_path);
commit:
    for (int i = 0; i < 2; i++) {
        pb_out *o = i ? specf : outf;
        if (i)
            specf = NULL;
        else
            outf = NULL;
        if (pb_out_commit(o, &err) != PB_OK) {
            pb_error_print(stderr, prog, &err);
            FAIL(1);
        }
    }
done:
    if (w)
        pb_writer_close(w, NULL);
    pb_out_abort(outf);
    pb_out_abort(specf);
    pb_cli_free(&cli);
    pb_strbuf_free(&sb);
    skew_stream_close(s);
    skew_estimate_close(e);
    if (r) {
        long rl, rc0;
        size_t nr = pb_reader_rounded(r, &rl, &rc0);
        pb_rounded_print(stderr, prog, pb_reader_name(r), nr, rl, rc0);
    }
    pb_reader_close(r);
    skew_spec_close(spec);
    return status;
}
