/* bench_maketrace CMD [ARG...]: run a command (stdout to /dev/null unless
 * it writes a file itself) and print "wall_s user_s sys_s maxrss_kb" of the child
 * on one line, so benchmark scripts need no /usr/bin/time. */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_maketrace CMD [ARG...]\n");
        return 2;
    }
    double t0 = now();
    pid_t pid = fork();
    if (pid < 0) {
        perror("bench_maketrace: fork");
        return 1;
    }
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout))
            _exit(127);
        execvp(argv[1], argv + 1);
        perror("bench_maketrace: exec");
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0) {
        perror("bench_maketrace: wait4");
        return 1;
    }
    double t1 = now();
    printf("%.3f %.3f %.3f %ld\n", t1 - t0,
           (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6,
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6, ru.ru_maxrss);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
