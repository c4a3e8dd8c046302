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
#include <stdio.h>

#include "imp.h"
#include "pb_trace.h"

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
    imp_importer *im = NULL;
    pb_error err;
    if (imp_init(&im, &opts, &err) != PB_OK)
        return 0;
    pb_trace *t = NULL;
    if (imp_add_buffer(im, (const char *)data, size, "fuzz.json", &err) ==
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
