/*
 * fuzz_ebpf - libFuzzer target for the eBPF syscall-capture reader and the
 * capture path behind it (HTTP/1.1 framing, lining up the views of a
 * stream by TCP sequence numbers, pairing, causes): any bytes go through
 * imp_add_buffer with --format ebpf, imp_finish and pb_trace_write.  The
 * importer's own target (fuzz_importtrace) never reaches this reader: it
 * takes only the span formats.  Errors are fine; crashes, leaks, hangs and
 * undefined behaviour are not.
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
    opts.format = IMP_FORMAT_EBPF;
    /* the request header naming the truth: the default (X-Request-Id for
     * eBPF) or the W3C traceparent, by one bit of the input */
    if (size & 1)
        opts.request_id = "traceparent";
    fuzz_import(&opts, data, size, "fuzz.json");
    return 0;
}
