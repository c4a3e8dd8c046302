/*
 * fuzz_archive - libFuzzer target for the importer's paths (imp_archive.c):
 * the bytes are written to a file named as a tar, compressed tar, zip or
 * compressed JSON (by the input's size) and read through imp_add_path, as
 * importtrace reads a file: libarchive, the gzip check, the zip end
 * record, members in folder order, hard links, archives inside archives.
 * (fuzz_importtrace gives the bytes to imp_add_buffer, which never meets
 * an archive.)  Errors are fine; crashes, leaks, hangs and undefined
 * behaviour are not.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "imp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = {"fuzz.tar", "fuzz.tar.gz", "fuzz.zip",
                                        "fuzz.json.gz", "fuzz.tar.xz", "fuzz.csv"};
    char path[64];
    snprintf(path, sizeof path, "fuzz-archive-%ld-%s", (long)getpid(),
             names[size % (sizeof names / sizeof *names)]);
    if (fuzz_write_file(path, data, size) != 0)
        return 0;
    imp_opts opts;
    imp_opts_default(&opts);
    opts.callid = (int)((size >> 3) & 1);
    /* a small cap, so that a bomb is refused quickly */
    opts.max_document = (size_t)1 << 22;
    imp_importer *im = NULL;
    pb_error err;
    if (imp_init(&im, &opts, &err) == PB_OK) {
        pb_trace *t = NULL;
        if (imp_add_path(im, path, &err) == PB_OK && imp_finish(im, &t, &err) == PB_OK) {
            FILE *fp = fopen("/dev/null", "w");
            if (fp) {
                pb_trace_write(t, fp, 0, &err);
                fclose(fp);
            }
        }
        pb_trace_close(t);
        imp_close(im);
    }
    unlink(path);
    return 0;
}
