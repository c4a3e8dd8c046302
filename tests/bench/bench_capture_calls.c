/*
 * bench_capture_calls.c - what one intercepted call costs (docs/capture.md,
 * "What capture costs"): a loopback TCP connection, N rounds of a small
 * send on one end and its recv on the other, in one thread; prints
 * ns per call (wall and CPU).  Run once plainly and once under
 * LD_PRELOAD=libpbcapture.so (tests/bench/bench_capture.sh): the
 * difference is the interposer's cost per event.
 *
 *   bench_capture_calls [ROUNDS [BYTES]]
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    long rounds = argc > 1 ? strtol(argv[1], NULL, 10) : 200000;
    long bytes = argc > 2 ? strtol(argv[2], NULL, 10) : 100;
    if (rounds < 1 || bytes < 1 || bytes > 65536) {
        fprintf(stderr, "usage: bench_capture_calls [ROUNDS [BYTES<=65536]]\n");
        return 2;
    }
    int ls = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t al = sizeof a;
    if (ls < 0 || bind(ls, (struct sockaddr *)&a, sizeof a) || listen(ls, 1) ||
        getsockname(ls, (struct sockaddr *)&a, &al)) {
        perror("bench_capture_calls: listen");
        return 1;
    }
    int c = socket(AF_INET, SOCK_STREAM, 0);
    if (c < 0 || connect(c, (struct sockaddr *)&a, sizeof a)) {
        perror("bench_capture_calls: connect");
        return 1;
    }
    int s = accept(ls, NULL, NULL);
    if (s < 0) {
        perror("bench_capture_calls: accept");
        return 1;
    }
    int one = 1;
    setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    char *buf = calloc(1, (size_t)bytes);
    if (!buf)
        return 1;
    double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
    for (long i = 0; i < rounds; i++) {
        if (send(c, buf, (size_t)bytes, 0) != bytes) {
            perror("bench_capture_calls: send");
            return 1;
        }
        for (long got = 0; got < bytes;) {
            ssize_t r = recv(s, buf, (size_t)(bytes - got), 0);
            if (r <= 0) {
                perror("bench_capture_calls: recv");
                return 1;
            }
            got += r;
        }
    }
    double w1 = now(CLOCK_MONOTONIC), c1 = now(CLOCK_PROCESS_CPUTIME_ID);
    printf("calls=%ld bytes=%ld wall_ns_per_call=%.0f cpu_ns_per_call=%.0f\n", 2 * rounds,
           bytes, (w1 - w0) / (2.0 * rounds), (c1 - c0) / (2.0 * rounds));
    close(c);
    close(s);
    close(ls);
    free(buf);
    return 0;
}
