/*
 * fuzz_compare - libFuzzer target for compare's reader and statistics
 * (metrics/pstat_table.c): any bytes are written to a temporary file and
 * read as side A, a fixed small table as side B, and the rows computed
 * (paired seeds, the verdicts, a bootstrap of a few replicates).  Errors
 * are fine; crashes, leaks, hangs and undefined behaviour are not.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "pb_files.h"
#include "pstat.h"
#include "pstat_table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path_a[64], path_b[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!path_a[0]) {
        snprintf(path_a, sizeof path_a, "/tmp/fuzz_compare_a.%ld.csv", (long)getpid());
        snprintf(path_b, sizeof path_b, "/tmp/fuzz_compare_b.%ld.csv", (long)getpid());
        static const char b[] = "point,metric,seed,value,better\n"
                                "p1,acc,1,0.5,higher\np1,acc,2,0.6,higher\n"
                                "p1,cpu_s,1,2,lower\np2,acc,1,1,higher\n";
        if (fuzz_write_file(path_b, b, sizeof b - 1) != 0)
            return 0;
    }
    if (fuzz_write_file(path_a, data, size) != 0)
        return 0;
    pb_files_reset();
    pstat_table *t = NULL;
    pb_error err;
    if (pstat_table_init(&t) != PB_OK)
        return 0;
    if (pstat_table_read(t, 0, path_a, &err) == PB_OK &&
        pstat_table_read(t, 1, path_b, &err) == PB_OK) {
        pstat_opts o;
        pstat_opts_default(&o);
        o.boot_reps = (int)(size % 3) * 10;
        if (pstat_table_compute(t, &o, &err) == PB_OK)
            for (size_t i = 0; i < pstat_table_nrows(t); i++)
                (void)pstat_table_row(t, i);
    }
    pstat_table_close(t);
    unlink(path_a);
    return 0;
}
