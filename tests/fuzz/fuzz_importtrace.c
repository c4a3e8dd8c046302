/*
 * fuzz_importtrace - libFuzzer target for the importer: any bytes go through
 * imp_add_buffer, imp_finish and pb_trace_write.  Errors are fine; crashes,
 * leaks, hangs and undefined behaviour are not.
 */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"
#include "imp.h"

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
    fuzz_import(&opts, data, size, name);
    return 0;
}
