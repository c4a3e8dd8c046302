/* libFuzzer target: the trace reader (CSV through libcsv and the plain
 * splitter, and the Project 5 format) must return an error or messages for
 * any bytes, never crash, and load into memory the same messages it
 * streams. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "pb_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    FILE *fp = fmemopen((void *)data, size, "r");
    if (!fp)
        return 0;
    pb_reader_opts o;
    pb_reader_opts_default(&o);
    o.allow_unsorted = data[0] & 1;
    o.allow_negative_ts = data[0] & 2;
    o.ignore_unknown_columns = data[0] & 4;
    pb_reader *r;
    pb_error err;
    if (pb_reader_open_fp(&r, fp, "fuzz", NULL, &o, &err) == PB_OK) {
        pb_msg m;
        pb_obs ob;
        pb_truth t;
        char *out = NULL;
        size_t len = 0;
        FILE *w = open_memstream(&out, &len);
        pb_writer *wr = NULL;
        if (w)
            pb_writer_open(&wr, w, "out", pb_reader_columns(r), pb_reader_names(r), &err);
        while (pb_reader_next_obs(r, &m, &ob, &t, &err) == 1)
            if (wr)
                pb_writer_write_obs(wr, &m, &ob, &t);
        pb_writer_close(wr, &err);
        if (w)
            fclose(w);
        free(out);
        pb_reader_close(r);
    }
    fclose(fp);
    return 0;
}
