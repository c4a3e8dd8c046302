/*
 * sniffer - lossy capture of a trace (seed 000 sections 6.2.1, 7.5.5): a
 * capture box with a peak rate and a finite queue, random and bursty loss,
 * several boxes each covering some nodes.  Kept rows pass unchanged.
 *
 *   sniffer --rate 500 [--queue 64] [TRACE] > lossy.csv
 *   sniffer --target-drop 0.01 TRACE > lossy.csv
 *   sniffer --sniffer 'WS1,WS2' --sniffer 'DB;rate=300;queue=16' TRACE
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb_opt.h"
#include "pb_strbuf.h"
#include "pb_trace.h"
#include "sniff.h"

static const char *prog = "sniffer";

static void usage(FILE *fp)
{
    fprintf(fp,
            "usage: %s [options] [TRACE]\n"
            "Drop messages as a lossy packet capture would.  Reads TRACE or stdin,\n"
            "writes the kept rows unchanged (and in order) to stdout; prints the\n"
            "drop count and rate on stderr and in a metadata line.\n\n"
            "  -r, --rate R           peak capture rate, messages/s (0 = unbounded)\n"
            "  -q, --queue K          capture queue, messages (default 64)\n"
            "  -p, --loss P           independent loss probability\n"
            "      --ge-p P --ge-r R --ge-loss-bad B --ge-loss-good G\n"
            "                         Gilbert-Elliott bursty loss (off while ge-p is 0)\n"
            "  -s, --seed N           seed of the loss generators (default 1)\n"
            "      --sniffer 'NODES[;NAME=VALUE...]'\n"
            "                         a capture box seeing every message sent or\n"
            "                         received by one of NODES (comma-separated);\n"
            "                         NAME=VALUE override the options above for it.\n"
            "                         Repeatable; a message is kept if any box that\n"
            "                         sees it keeps it; none given = one box, all nodes\n"
            "      --target-drop R    search the capture rate (all boxes) giving drop\n"
            "                         rate R (the smallest rate with drop rate <= R)\n"
            "      --ignore-unknown-columns\n"
            "  -o, --output FILE      output file (default stdout)\n"
            "      --quiet            no summary on stderr\n"
            "  -h, --help             this help\n\n"
            "Parameters:\n",
            prog);
    pb_opt_help(fp, sniff_options, "  ");
}

static int set_param(sniff_params *p, const char *name, const char *value)
{
    pb_error err;
    if (pb_opt_set(sniff_options, p, name, value, &err) != PB_OK) {
        fprintf(stderr, "%s: --%s %s: %s\n", prog, name, value, err.msg);
        return 0;
    }
    return 1;
}

/* "NODES[;NAME=VALUE...]" on top of the global parameters. */
static int parse_sniffer(char *text, const sniff_params *global, sniff_params *p,
                         char **nodes)
{
    *p = *global;
    char *semi = strchr(text, ';');
    if (semi)
        *semi = '\0';
    *nodes = text;
    while (semi) {
        char *kv = semi + 1;
        semi = strchr(kv, ';');
        if (semi)
            *semi = '\0';
        if (!*kv)
            continue;
        pb_error err;
        if (pb_opt_set_kv(sniff_options, p, kv, &err) != PB_OK) {
            fprintf(stderr, "%s: --sniffer %s: %s\n", prog, *nodes, err.msg);
            return 0;
        }
    }
    return 1;
}

#define FAIL(code)          \
    do {                    \
        status = (code);    \
        goto done;          \
    } while (0)

int main(int argc, char **argv)
{
    int status = 0;
    sniff_params global;
    pb_error err;
    pb_error_clear(&err);
    /* everything freed at done:, so every exit path is leak-free */
    char **sniffer_args = NULL, **node_lists = NULL;
    sniff_params *params = NULL;
    pb_names *names = NULL;
    sniff_model *model = NULL;
    pb_reader *r = NULL;
    sniff_spool *spool = NULL;
    pb_writer *w = NULL;
    FILE *out = stdout;
    pb_strbuf line = {0};
    size_t nsniff = 0, nbox;
    const char *out_path = NULL, *target_text = NULL;
    int quiet = 0, rc;
    double target = -1, found = 0;
    sniff_stats st;
    pb_msg m;
    pb_truth t;
    const char *name;

    if (pb_opt_defaults(sniff_options, &global, &err) != PB_OK) {
        pb_error_print(stderr, prog, &err);
        FAIL(1);
    }
    sniffer_args = calloc((size_t)argc + 1, sizeof *sniffer_args);
    if (!sniffer_args) {
        fprintf(stderr, "%s: out of memory\n", prog);
        FAIL(1);
    }
    pb_reader_opts ropts;
    pb_reader_opts_default(&ropts);
    /* duplicate ids are an error here too (8 bytes a message while ids
     * increase); causes may dangle: the input may be sniffed already */
    ropts.allow_dangling_causes = 1;
    ropts.allow_negative_ts = 1; /* a skewed trace may carry them */
    enum { OPT_GEP = 256, OPT_GER, OPT_GEB, OPT_GEG, OPT_SNIFFER, OPT_TARGET,
           OPT_IGNORE, OPT_QUIET };
    static const struct option longopts[] = {
        {"rate", required_argument, NULL, 'r'},
        {"queue", required_argument, NULL, 'q'},
        {"loss", required_argument, NULL, 'p'},
        {"ge-p", required_argument, NULL, OPT_GEP},
        {"ge-r", required_argument, NULL, OPT_GER},
        {"ge-loss-bad", required_argument, NULL, OPT_GEB},
        {"ge-loss-good", required_argument, NULL, OPT_GEG},
        {"seed", required_argument, NULL, 's'},
        {"sniffer", required_argument, NULL, OPT_SNIFFER},
        {"target-drop", required_argument, NULL, OPT_TARGET},
        {"ignore-unknown-columns", no_argument, NULL, OPT_IGNORE},
        {"output", required_argument, NULL, 'o'},
        {"quiet", no_argument, NULL, OPT_QUIET},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    int c, ok = 1;
    while ((c = getopt_long(argc, argv, "r:q:p:s:o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'r': ok = set_param(&global, "rate", optarg); break;
        case 'q': ok = set_param(&global, "queue", optarg); break;
        case 'p': ok = set_param(&global, "loss", optarg); break;
        case OPT_GEP: ok = set_param(&global, "ge-p", optarg); break;
        case OPT_GER: ok = set_param(&global, "ge-r", optarg); break;
        case OPT_GEB: ok = set_param(&global, "ge-loss-bad", optarg); break;
        case OPT_GEG: ok = set_param(&global, "ge-loss-good", optarg); break;
        case 's': ok = set_param(&global, "seed", optarg); break;
        case OPT_SNIFFER: sniffer_args[nsniff++] = optarg; break;
        case OPT_TARGET: target_text = optarg; break;
        case OPT_IGNORE: ropts.ignore_unknown_columns = 1; break;
        case 'o': out_path = optarg; break;
        case OPT_QUIET: quiet = 1; break;
        case 'h': usage(stdout); FAIL(0);
        default: usage(stderr); FAIL(2);
        }
        if (!ok)
            FAIL(2);
    }
    if (optind + 1 < argc) {
        fprintf(stderr, "%s: expected at most one trace file, got %d\n", prog,
                argc - optind);
        FAIL(2);
    }
    if (target_text) {
        char *end;
        target = strtod(target_text, &end);
        if (!*target_text || *end || !(target >= 0 && target <= 1)) {
            fprintf(stderr, "%s: --target-drop %s: expected a drop rate in "
                            "[0, 1] (0.01 = 1%%)\n", prog, target_text);
            FAIL(2);
        }
    }
    const char *in_path = optind < argc ? argv[optind] : "-";

    nbox = nsniff ? nsniff : 1;
    params = calloc(nbox, sizeof *params);
    node_lists = calloc(nbox, sizeof *node_lists);
    if (!params || !node_lists || pb_names_init(&names) != PB_OK ||
        sniff_init(&model, names) != PB_OK) {
        fprintf(stderr, "%s: out of memory\n", prog);
        FAIL(1);
    }
    if (nsniff == 0) {
        params[0] = global;
        if (sniff_add(model, NULL, &params[0], "sniffer", &err) != PB_OK) {
            pb_error_print(stderr, prog, &err);
            FAIL(2);
        }
    }
    for (size_t i = 0; i < nsniff; i++) {
        if (!parse_sniffer(sniffer_args[i], &global, &params[i], &node_lists[i]))
            FAIL(2);
        if (sniff_add(model, node_lists[i], &params[i], "--sniffer", &err) != PB_OK) {
            pb_error_print(stderr, prog, &err);
            FAIL(2);
        }
    }

    if (pb_reader_open(&r, in_path, names, &ropts, &err) != PB_OK) {
        r = NULL;
        pb_error_print(stderr, prog, &err);
        FAIL(1);
    }
    /* Pass 1: keep the trace on disk, so the drop count can go into the
     * metadata, which precedes the rows. */
    if (sniff_spool_open(&spool, &err) != PB_OK) {
        spool = NULL;
        pb_error_print(stderr, prog, &err);
        FAIL(1);
    }
    while ((rc = pb_reader_next(r, &m, &t, &err)) == 1)
        if (sniff_spool_add(spool, &m, &t) != PB_OK) {
            fprintf(stderr, "%s: cannot write the temporary copy of the trace "
                            "(disk full? set TMPDIR)\n", prog);
            FAIL(1);
        }
    if (rc < 0) {
        pb_error_print(stderr, prog, &err);
        FAIL(1);
    }
    if (target >= 0) {
        if (sniff_target_rate(model, spool, target, &found, &err) != PB_OK) {
            pb_error_print(stderr, prog, &err);
            FAIL(1);
        }
        for (size_t i = 0; i < nbox; i++)
            params[i].rate = found;
    }
    if (sniff_replay(model, spool, &st) != PB_OK) {
        fprintf(stderr, "%s: cannot read the temporary copy of the trace\n", prog);
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
    if (pb_writer_open(&w, out, out_path ? out_path : "(stdout)",
                       pb_reader_columns(r), names, &err) != PB_OK) {
        w = NULL;
        pb_error_print(stderr, prog, &err);
        FAIL(1);
    }
    for (size_t i = 0; i < pb_reader_meta_count(r); i++)
        pb_writer_meta(w, pb_reader_meta(r, i));
    for (size_t i = 0; i < nbox; i++) {
        pb_strbuf_reset(&line);
        pb_strbuf_printf(&line, "sniffer: box=%zu nodes=%s ", i + 1,
                         node_lists[i] ? node_lists[i] : "*");
        pb_opt_describe(sniff_options, &params[i], &line);
        pb_writer_meta(w, pb_strbuf_str(&line));
    }
    if (target >= 0) {
        pb_strbuf_reset(&line);
        pb_strbuf_printf(&line, "sniffer: target-drop=%.17g found rate=%.17g",
                         target, found);
        pb_writer_meta(w, pb_strbuf_str(&line));
    }
    pb_strbuf_reset(&line);
    pb_strbuf_printf(&line,
                     "sniffer: messages=%llu kept=%llu dropped=%llu "
                     "drop_rate=%.6f queue_drops=%llu random_drops=%llu "
                     "burst_drops=%llu uncovered=%llu",
                     (unsigned long long)st.messages, (unsigned long long)st.kept,
                     (unsigned long long)st.dropped, sniff_drop_rate(&st),
                     (unsigned long long)st.queue, (unsigned long long)st.random,
                     (unsigned long long)st.burst, (unsigned long long)st.uncovered);
    pb_writer_meta(w, pb_strbuf_str(&line));

    /* Pass 2: the same decisions again (same seed, same order), writing. */
    sniff_reset(model);
    if (sniff_spool_rewind(spool) != PB_OK) {
        fprintf(stderr, "%s: cannot read the temporary copy of the trace\n", prog);
        FAIL(1);
    }
    while ((rc = sniff_spool_next(spool, &m, &t)) == 1)
        if (sniff_decide(model, &m) && pb_writer_write(w, &m, &t) != PB_OK)
            break;
    if (rc < 0) {
        fprintf(stderr, "%s: cannot read the temporary copy of the trace\n", prog);
        FAIL(1);
    }
    rc = pb_writer_close(w, &err);
    w = NULL;
    if (rc != PB_OK) {
        pb_error_print(stderr, prog, &err);
        FAIL(1);
    }
    if (out != stdout) {
        FILE *o = out;
        out = stdout;
        if (fclose(o) != 0) {
            fprintf(stderr, "%s: %s: write error\n", prog, out_path);
            FAIL(1);
        }
    }
    for (size_t i = 0; (name = sniff_unseen(model, i)) != NULL; i++)
        fprintf(stderr, "%s: warning: node \"%s\" of --sniffer does not appear "
                        "in the trace\n", prog, name);
    if (!quiet) {
        if (target >= 0)
            fprintf(stderr, "%s: capture rate %.6g messages/s gives drop rate "
                            "<= %g\n", prog, found, target);
        fprintf(stderr, "%s: dropped %llu of %llu messages (drop rate %.6f): "
                        "queue %llu, random %llu, burst %llu, uncovered %llu\n",
                prog, (unsigned long long)st.dropped,
                (unsigned long long)st.messages, sniff_drop_rate(&st),
                (unsigned long long)st.queue, (unsigned long long)st.random,
                (unsigned long long)st.burst, (unsigned long long)st.uncovered);
    }
done:
    if (w)
        pb_writer_close(w, NULL);
    if (out != stdout)
        fclose(out);
    pb_strbuf_free(&line);
    sniff_spool_close(spool);
    pb_reader_close(r);
    sniff_close(model);
    pb_names_close(names);
    free(params);
    free(node_lists);
    free(sniffer_args);
    return status;
}
