/* bench_trace_io FILE: load a trace into memory (with and without truth)
 * and write it back to /dev/null; print messages per second and bytes per
 * message of the in-memory trace. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "pb_trace.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long maxrss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: bench_trace_io TRACE.csv\n");
        return 2;
    }
    pb_error err;
    long rss0 = maxrss_kb();
    double t0 = now();
    pb_trace *t;
    if (pb_trace_load(argv[1], NULL, 0, &t, &err) != PB_OK) {
        pb_error_print(stderr, "bench_trace_io", &err);
        return 1;
    }
    double t1 = now();
    long rss1 = maxrss_kb();
    printf("%-28s %10zu msgs %7.3f s %8.2f M msgs/s  %5.1f bytes/msg resident (%zu in the array)\n",
           "read (no truth)", t->n, t1 - t0, (double)t->n / (t1 - t0) / 1e6,
           (double)(rss1 - rss0) * 1024.0 / (double)t->n, sizeof(pb_msg));
    FILE *null = fopen("/dev/null", "w");
    double t2 = now();
    if (pb_trace_write(t, null, 0, &err) != PB_OK) {
        pb_error_print(stderr, "bench_trace_io", &err);
        return 1;
    }
    double t3 = now();
    fclose(null);
    printf("%-28s %10zu msgs %7.3f s %8.2f M msgs/s\n", "write", t->n, t3 - t2,
           (double)t->n / (t3 - t2) / 1e6);
    size_t n = t->n;
    pb_trace_close(t);
    double t4 = now();
    if (pb_trace_load(argv[1], NULL, 1, &t, &err) != PB_OK) {
        pb_error_print(stderr, "bench_trace_io", &err);
        return 1;
    }
    double t5 = now();
    printf("%-28s %10zu msgs %7.3f s %8.2f M msgs/s\n", "read (with truth)", n,
           t5 - t4, (double)n / (t5 - t4) / 1e6);
    pb_trace_close(t);
    return 0;
}
