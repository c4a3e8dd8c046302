/*
 * fuzz_capture - libFuzzer target for the capture readers behind
 * importtrace's folders of pbcapture event files and pcap files
 * (importer/imp_capture*.c): the bytes, split at the first "\n\f\n", are
 * written as one or two event files of a folder (two observers of one
 * connection), or, when they start with a pcap or pcapng magic number, as
 * one pcap file; the folder or file is loaded and the trace written.
 * Errors are fine; crashes, leaks, hangs and undefined behaviour are not.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "imp_capture.h"
#include "fuzz_common.h"
#include "pb_files.h"
#include "pb_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64], ev1[96], ev2[96], pcap[96];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/fuzz_capture.%ld", (long)getpid());
        mkdir(dir, 0700);
        snprintf(ev1, sizeof ev1, "%s/1.1.events", dir);
        snprintf(ev2, sizeof ev2, "%s/2.2.events", dir);
        snprintf(pcap, sizeof pcap, "%s.pcap", dir);
    }
    unlink(ev1);
    unlink(ev2);
    unlink(pcap);
    static const uint8_t magic[][4] = {{0xd4, 0xc3, 0xb2, 0xa1},
                                       {0xa1, 0xb2, 0xc3, 0xd4},
                                       {0x4d, 0x3c, 0xb2, 0xa1},
                                       {0x0a, 0x0d, 0x0d, 0x0a}};
    const char *path = dir;
    int is_pcap = 0;
    for (size_t k = 0; k < 4 && size >= 4; k++)
        is_pcap |= !memcmp(data, magic[k], 4);
    if (is_pcap) {
        if (fuzz_write_file(pcap, data, size) != 0)
            return 0;
        path = pcap;
    } else {
        size_t cut = size;
        for (size_t i = 0; i + 3 <= size; i++)
            if (data[i] == '\n' && data[i + 1] == '\f' && data[i + 2] == '\n') {
                cut = i + 1;
                break;
            }
        if (fuzz_write_file(ev1, data, cut) != 0 ||
            (cut < size && fuzz_write_file(ev2, data + cut + 2, size - cut - 2) != 0))
            return 0;
    }
    pb_files_reset();
    imp_capture_opts opts;
    memset(&opts, 0, sizeof opts);
    pb_trace *t = NULL;
    imp_capture_stats st;
    pb_error err;
    const char *paths[1] = {path};
    if (imp_capture_load(paths, 1, &opts, &t, &st, &err) == PB_OK) {
        FILE *fp = fopen("/dev/null", "w");
        if (fp) {
            pb_trace_write(t, fp, 0, &err);
            fclose(fp);
        }
    }
    pb_trace_close(t);
    return 0;
}
