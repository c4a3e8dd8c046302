/* bench_trace_io FILE: load a trace into memory (with and without truth)
 * and write it back to /dev/null; print messages per second by wall clock
 * and by CPU time (user + system of this process: on a loaded machine the
 * wall rate understates, so hold the CPU rate against the goal) and bytes
 * per message of the in-memory trace. */
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

/* user + system CPU seconds of this process so far */
static double cpu(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

static long maxrss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static void row(const char *what, size_t n, double wall, double cpus)
{
    printf("%-20s %10zu msgs %7.3f s wall %7.3f s cpu %8.2f M msgs/s wall %8.2f M msgs/s cpu",
           what, n, wall, cpus, wall > 0 ? (double)n / wall / 1e6 : 0.0,
           cpus > 0 ? (double)n / cpus / 1e6 : 0.0);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: bench_trace_io TRACE.csv\n");
        return 2;
    }
    pb_error err;
    long rss0 = maxrss_kb();
    double t0 = now(), c0 = cpu();
    pb_trace *t;
    if (pb_trace_load(argv[1], NULL, 0, &t, &err) != PB_OK) {
        pb_error_print(stderr, "bench_trace_io", &err);
        return 1;
    }
    double t1 = now(), c1 = cpu();
    long rss1 = maxrss_kb();
    row("read (no truth)", t->n, t1 - t0, c1 - c0);
    /* pb_msg, plus the side array of observed columns when the file has
     * them (thread, sthread, conn, attr, size: pb_obs) */
    printf("  %5.1f bytes/msg resident (%zu in the array", (double)(rss1 - rss0) * 1024.0 /
           (double)t->n, sizeof(pb_msg));
    if (t->obs)
        printf(", %zu more in the observed columns' array", sizeof(pb_obs));
    printf(")\n");
    FILE *null = fopen("/dev/null", "w");
    if (!null) {
        perror("bench_trace_io: /dev/null");
        return 1;
    }
    double t2 = now(), c2 = cpu();
    if (pb_trace_write(t, null, 0, &err) != PB_OK) {
        pb_error_print(stderr, "bench_trace_io", &err);
        return 1;
    }
    double t3 = now(), c3 = cpu();
    fclose(null);
    row("write", t->n, t3 - t2, c3 - c2);
    printf("\n");
    size_t n = t->n;
    pb_trace_close(t);
    double t4 = now(), c4 = cpu();
    if (pb_trace_load(argv[1], NULL, 1, &t, &err) != PB_OK) {
        pb_error_print(stderr, "bench_trace_io", &err);
        return 1;
    }
    double t5 = now(), c5 = cpu();
    row("read (with truth)", n, t5 - t4, c5 - c4);
    printf("\n");
    pb_trace_close(t);
    return 0;
}
