/*
 * fuzz_importtrace - libFuzzer target for the importer: any bytes go through
 * imp_add_buffer, imp_finish and pb_trace_write.  Errors are fine; crashes,
 * leaks, hangs and undefined behaviour are not.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "imp.h"
#include "pb_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    imp_opts opts;
    imp_opts_default(&opts);
    /* vary the options with the input so both paths get explored */
    opts.callid = (int)(size & 1);
    opts.format = (imp_format)((size >> 1) % 4); /* auto, jaeger, zipkin, otlp */
    /* a name ending in .csv lets auto detection take the span-table
     * reader (the CSV path was never reached with "fuzz.json") */
    const char *name = (size >> 3) & 1 ? "fuzz.csv" : "fuzz.json";
    imp_importer *im = NULL;
    pb_error err;
    if (imp_init(&im, &opts, &err) != PB_OK)
        return 0;
    pb_trace *t = NULL;
    if (imp_add_buffer(im, (const char *)data, size, name, &err) ==
            PB_OK &&
        imp_finish(im, &t, &err) == PB_OK) {
        FILE *fp = fopen("/dev/null", "w");
        if (fp) {
            pb_trace_write(t, fp, 0, &err);
            fclose(fp);
        }
        pb_strbuf s = {0};
        imp_stats_summary(imp_get_stats(im), &s);
        pb_strbuf_free(&s);
    }
    pb_trace_close(t);
    imp_close(im);
    return 0;
}
