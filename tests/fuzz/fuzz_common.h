/*
 * fuzz_common.h - what several libFuzzer targets share: writing the bytes
 * to a file, one importer run over the bytes (imp_add_buffer, imp_finish,
 * pb_trace_write and the stats summary) and a small fixed trace with its
 * truth.  Not a target itself (run.sh builds only fuzz_*.c).
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "imp.h"
#include "pb_trace.h"

/* write size bytes of data to path (created or truncated); 0, or -1 when
 * the file cannot be written whole */
static inline int fuzz_write_file(const char *path, const void *data, size_t size)
{
    FILE *fp = fopen(path, "wb");
    if (!fp)
        return -1;
    size_t w = size ? fwrite(data, 1, size, fp) : 0;
    return fclose(fp) == 0 && w == size ? 0 : -1;
}

/* import the bytes under the file name `name` with opts; when accepted,
 * write the trace and the stats summary (to nowhere).  Errors are fine */
static inline void fuzz_import(const imp_opts *opts, const uint8_t *data, size_t size,
                               const char *name)
{
    imp_importer *im = NULL;
    pb_error err;
    if (imp_init(&im, opts, &err) != PB_OK)
        return;
    pb_trace *t = NULL;
    if (imp_add_buffer(im, (const char *)data, size, name, &err) == PB_OK &&
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
}

/* two requests with their truth: A -> B -> C and back, then a one-way
 * message B -> D (stamps 1 ms apart, receipts 1 ms after the sends).  The
 * trace (caller frees it with pb_trace_close), or NULL when out of
 * memory */
static inline pb_trace *fuzz_small_trace(void)
{
    pb_trace *t;
    if (pb_trace_new(&t) != PB_OK)
        return NULL;
    const pb_ns ms = 1000000;
    pb_trace_add(t, 1, 0, ms, "A", "B", PB_TYPE_CALL, 1, 1, PB_ID_NONE);
    pb_trace_add(t, 2, 2 * ms, 3 * ms, "B", "C", PB_TYPE_CALL, 2, 1, 1);
    pb_trace_add(t, 3, 5 * ms, 6 * ms, "C", "B", PB_TYPE_RETURN, 2, 1, 2);
    pb_trace_add(t, 4, 8 * ms, 9 * ms, "B", "A", PB_TYPE_RETURN, 1, 1, 3);
    pb_trace_add(t, 5, 10 * ms, 11 * ms, "A", "B", PB_TYPE_MSG, PB_ID_NONE, 2,
                 PB_ID_NONE);
    pb_trace_add(t, 6, 12 * ms, 13 * ms, "B", "D", PB_TYPE_MSG, PB_ID_NONE, 2, 5);
    return t;
}

#endif
