/*
 * pbcapture_preload.c - libpbcapture.so, loaded with LD_PRELOAD by
 * bin/pbcapture: records every socket event of a dynamically linked
 * program as WAP5 (seed 001, 4) and BorderPatrol (seed 002, 5.1) did, by
 * interposing on the C library (docs/capture.md).
 *
 * Events: accept, connect, the read family (read, recv, recvfrom,
 * recvmsg, readv), the write family (write, send, sendto, sendmsg,
 * writev), end of stream, close and dup; on TCP sockets (IPv4 and IPv6)
 * only.  Each is one text line in DIR/PID.TID.events, written by the
 * thread that made the call:
 *
 *   TS_NS PID TID FD OP BYTES LOCAL REMOTE PAYLOAD_HEX
 *
 * The hot path takes no lock and allocates nothing: a thread formats into
 * its own buffer (allocated once, when the thread makes its first event)
 * and writes it out with the raw write system call when it fills, when
 * the thread ends and when the process exits.  What the program sees is
 * unchanged: every call is passed to the C library's own function with
 * its arguments, and its result and errno are returned as they were.
 *
 * Environment: PBCAPTURE_DIR (required: where event files go),
 * PBCAPTURE_NAME (the process's node name; default its command name),
 * PBCAPTURE_PAYLOAD (bytes of payload kept per event, default 1024,
 * at most 65536; a connection that carried the HTTP/2 client preface keeps
 * up to 256 KiB per event, see fd_h2).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))
#define MAXFD 65536
#define BUFSZ (1 << 20)

/* per descriptor: 0 unknown, 1 TCP socket, 2 something else */
static _Atomic unsigned char fd_kind[MAXFD];

/* per descriptor: its 4-tuple as text, asked of the kernel (getsockname,
 * getpeername) at its first event and kept until the descriptor changes
 * (socket, accept, connect, close, dup onto it, fclose).  st is
 * EPOCH << 2 | state (0 empty, 1 being filled, 2 held); forgetting moves
 * the epoch on, so a fill or a copy that overlapped it does not count. */
typedef struct fd_addr {
    _Atomic unsigned st;
    char local[56], remote[56];
} fd_addr;
static fd_addr fd_addrs[MAXFD];

/* per descriptor: 1 once the HTTP/2 client preface crossed it.  HTTP/2
 * needs every byte of a stream (a header block cut by the payload cap
 * leaves the HPACK state of the rest of the connection unknowable, and one
 * read often holds many frames), so such a connection's events keep up to
 * H2_KEEP bytes whatever --payload says. */
#define H2_KEEP (256 * 1024)
static _Atomic unsigned char fd_h2[MAXFD];
static const char h2_preface[] = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

static void addr_forget(int fd)
{
    if (fd < 0 || fd >= MAXFD)
        return;
    atomic_store_explicit(&fd_h2[fd], 0, memory_order_relaxed);
    unsigned st = atomic_load(&fd_addrs[fd].st);
    while (!atomic_compare_exchange_weak(&fd_addrs[fd].st, &st, ((st >> 2) + 1) << 2))
        ;
}

typedef ssize_t (*read_fn)(int, void *, size_t);
typedef ssize_t (*write_fn)(int, const void *, size_t);
typedef ssize_t (*recv_fn)(int, void *, size_t, int);
typedef ssize_t (*send_fn)(int, const void *, size_t, int);
typedef ssize_t (*recvfrom_fn)(int, void *, size_t, int, struct sockaddr *, socklen_t *);
typedef ssize_t (*sendto_fn)(int, const void *, size_t, int, const struct sockaddr *, socklen_t);
typedef ssize_t (*recvmsg_fn)(int, struct msghdr *, int);
typedef ssize_t (*sendmsg_fn)(int, const struct msghdr *, int);
typedef ssize_t (*readv_fn)(int, const struct iovec *, int);
typedef ssize_t (*writev_fn)(int, const struct iovec *, int);
typedef int (*accept_fn)(int, struct sockaddr *, socklen_t *);
typedef int (*accept4_fn)(int, struct sockaddr *, socklen_t *, int);
typedef int (*connect_fn)(int, const struct sockaddr *, socklen_t);
typedef int (*close_fn)(int);
typedef int (*socket_fn)(int, int, int);
typedef int (*dup_fn)(int);
typedef int (*dup2_fn)(int, int);
typedef int (*dup3_fn)(int, int, int);
typedef int (*fclose_fn)(FILE *);

static struct {
    read_fn read;
    write_fn write;
    recv_fn recv;
    send_fn send;
    recvfrom_fn recvfrom;
    sendto_fn sendto;
    recvmsg_fn recvmsg;
    sendmsg_fn sendmsg;
    readv_fn readv;
    writev_fn writev;
    accept_fn accept;
    accept4_fn accept4;
    connect_fn connect;
    close_fn close;
    socket_fn socket;
    dup_fn dup;
    dup2_fn dup2;
    dup3_fn dup3;
    fclose_fn fclose;
} real;

static char g_dir[512];
static char g_name[128];
static size_t g_payload = 1024;
static int g_on;          /* PBCAPTURE_DIR set and usable */
static pid_t g_pid;

typedef struct tbuf {
    struct tbuf *next;    /* registry of every thread's buffer */
    struct tbuf *free_next; /* the free list: buffers of ended threads */
    _Atomic int in_use;
    pid_t tid;
    int fd;               /* its event file, -1 until the first flush */
    size_t len;
    _Atomic int busy;     /* being filled (by its thread) */
    char data[];
} tbuf;

static _Atomic(tbuf *) g_bufs;
/* buffers of threads that ended, for new threads (a thread-per-request
 * server starts thousands): taken and given back under a spin lock, at
 * thread start and end only, never on the hot path */
static tbuf *g_free;
static atomic_flag g_free_lock = ATOMIC_FLAG_INIT;
static __thread tbuf *t_buf;
static __thread int t_inside;  /* our own calls are not events */
static pthread_key_t g_key;

static void raw_write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = syscall(SYS_write, fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return;
        }
        p += w;
        n -= (size_t)w;
    }
}

static void flush_buf(tbuf *b)
{
    if (!b->len)
        return;
    if (b->fd < 0) {
        char path[700];
        snprintf(path, sizeof path, "%s/%d.%d.events", g_dir, (int)g_pid, (int)b->tid);
        b->fd = (int)syscall(SYS_openat, AT_FDCWD, path,
                             O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (b->fd < 0) {
            b->len = 0;
            return;
        }
        char head[400];
        int hl = snprintf(head, sizeof head,
                          "# pbcapture 1 pid=%d tid=%d name=%s clock=CLOCK_REALTIME payload=%zu\n",
                          (int)g_pid, (int)b->tid, g_name, g_payload);
        raw_write_all(b->fd, head, (size_t)hl);
    }
    raw_write_all(b->fd, b->data, b->len);
    b->len = 0;
}

static void thread_done(void *p)
{
    tbuf *b = p;
    /* the buffer, what it holds and its open file pass to the next thread
     * that starts (every line names its thread): a thread-per-request
     * server would otherwise open, write and close a file per request */
    if (b && b == t_buf) {
        atomic_store(&b->busy, 1);
        t_buf = NULL;
        while (atomic_flag_test_and_set(&g_free_lock))
            ;
        b->free_next = g_free;
        g_free = b;
        atomic_store(&b->in_use, 0);
        atomic_flag_clear(&g_free_lock);
        atomic_store(&b->busy, 0);
    }
}

static tbuf *my_buf(void)
{
    if (t_buf)
        return t_buf;
    tbuf *b = NULL;
    while (atomic_flag_test_and_set(&g_free_lock))
        ;
    if (g_free) {
        b = g_free;
        g_free = b->free_next;
    }
    atomic_flag_clear(&g_free_lock);
    if (b) {
        /* already in the registry, with its last thread's events and file */
        b->tid = (pid_t)syscall(SYS_gettid);
        atomic_store(&b->in_use, 1);
        t_buf = b;
        pthread_setspecific(g_key, b);
        return b;
    }
    b = mmap(NULL, sizeof *b + BUFSZ, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (b == MAP_FAILED)
        return NULL;
    b->tid = (pid_t)syscall(SYS_gettid);
    b->fd = -1;
    b->len = 0;
    atomic_store(&b->busy, 0);
    atomic_store(&b->in_use, 1);
    tbuf *head = atomic_load(&g_bufs);
    do {
        b->next = head;
    } while (!atomic_compare_exchange_weak(&g_bufs, &head, b));
    t_buf = b;
    pthread_setspecific(g_key, b);
    return b;
}

static void addr_text(const struct sockaddr_storage *ss, char *out, size_t n)
{
    char ip[INET6_ADDRSTRLEN + 1] = "?";
    unsigned port = 0;
    if (ss->ss_family == AF_INET) {
        const struct sockaddr_in *a = (const void *)ss;
        inet_ntop(AF_INET, &a->sin_addr, ip, sizeof ip);
        port = ntohs(a->sin_port);
        snprintf(out, n, "%s:%u", ip, port);
    } else if (ss->ss_family == AF_INET6) {
        const struct sockaddr_in6 *a = (const void *)ss;
        inet_ntop(AF_INET6, &a->sin6_addr, ip, sizeof ip);
        port = ntohs(a->sin6_port);
        snprintf(out, n, "[%s]:%u", ip, port);
    } else {
        snprintf(out, n, "-");
    }
}

/* fd's local and remote address as text (each 56 bytes); from the cache
 * when it holds them, else from the kernel (and then cached, unless the
 * peer is not known yet).  0 when fd is not an IPv4 / IPv6 socket. */
static int fd_tuple(int fd, char *local, char *remote)
{
    fd_addr *c = &fd_addrs[fd];
    unsigned st = atomic_load(&c->st);
    if ((st & 3) == 2) {
        memcpy(local, c->local, sizeof c->local);
        memcpy(remote, c->remote, sizeof c->remote);
        if (atomic_load(&c->st) == st)
            return 1;
    }
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    if (getsockname(fd, (struct sockaddr *)&ss, &sl) != 0 ||
        (ss.ss_family != AF_INET && ss.ss_family != AF_INET6))
        return 0;
    addr_text(&ss, local, 56);
    sl = sizeof ss;
    int peer = getpeername(fd, (struct sockaddr *)&ss, &sl) == 0;
    if (peer)
        addr_text(&ss, remote, 56);
    else
        strcpy(remote, "-");
    /* cache a connected socket's tuple: take the empty slot, fill it, and
     * hold it unless it was forgotten meanwhile */
    st = atomic_load(&c->st);
    if (peer && (st & 3) == 0 && atomic_compare_exchange_strong(&c->st, &st, st | 1)) {
        memcpy(c->local, local, sizeof c->local);
        memcpy(c->remote, remote, sizeof c->remote);
        unsigned filling = st | 1;
        atomic_compare_exchange_strong(&c->st, &filling, st | 2);
    }
    return 1;
}

/* Is fd a TCP socket?  Asked of the kernel once per descriptor. */
static int is_tcp(int fd)
{
    if (fd < 0 || fd >= MAXFD)
        return 0;
    unsigned char k = atomic_load_explicit(&fd_kind[fd], memory_order_relaxed);
    if (k)
        return k == 1;
    int saved = errno;
    int type = 0;
    socklen_t tl = sizeof type;
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    k = 2;
    if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &tl) == 0 && type == SOCK_STREAM &&
        getsockname(fd, (struct sockaddr *)&ss, &sl) == 0 &&
        (ss.ss_family == AF_INET || ss.ss_family == AF_INET6))
        k = 1;
    atomic_store_explicit(&fd_kind[fd], k, memory_order_relaxed);
    errno = saved;
    return k == 1;
}

static const char hexd[] = "0123456789abcdef";

/* v in decimal and a space at o; the end */
static char *put_int(char *o, long long v)
{
    char t[24];
    int n = 0;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do {
        t[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *o++ = '-';
    while (n)
        *o++ = t[--n];
    *o++ = ' ';
    return o;
}

/* s and a space at o; the end */
static char *put_str(char *o, const char *s)
{
    while (*s)
        *o++ = *s++;
    *o++ = ' ';
    return o;
}

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* one event line; payload from a flat buffer or an iovec array.  A send is
 * stamped before the call (when the bytes leave the program), a receive
 * after it (when they have arrived): a stamp taken after a send could come
 * after the peer's receipt, if the thread is descheduled between the two. */
static void record_at(long long stamp, int fd, const char *op, ssize_t bytes,
                      const void *data, const struct iovec *iov, int iovcnt)
{
    if (!g_on || t_inside)
        return;
    t_inside = 1;
    int saved = errno;
    tbuf *b = my_buf();
    if (!b) {
        t_inside = 0;
        errno = saved;
        return;
    }
    atomic_store(&b->busy, 1);
    size_t keep = bytes > 0 ? (size_t)bytes : 0;
    size_t cap = g_payload;
    if (fd >= 0 && fd < MAXFD) {
        const size_t pn = sizeof h2_preface - 1;
        const void *first = data ? data : iov && iovcnt > 0 ? iov[0].iov_base : NULL;
        size_t flen = data ? keep : iov && iovcnt > 0 ? iov[0].iov_len : 0;
        if (atomic_load_explicit(&fd_h2[fd], memory_order_relaxed))
            cap = H2_KEEP;
        else if (first && keep >= pn && flen >= pn && memcmp(first, h2_preface, pn) == 0) {
            atomic_store_explicit(&fd_h2[fd], 1, memory_order_relaxed);
            cap = H2_KEEP;
        }
    }
    if (keep > cap)
        keep = cap;
    if (b->len + 2 * keep + 512 > BUFSZ)
        flush_buf(b);
    if (!stamp)
        stamp = now_ns();
    char local[56], remote[56];
    if (!fd_tuple(fd, local, remote)) {
        /* no longer a socket: its number was reused behind our back */
        atomic_store_explicit(&fd_kind[fd], 2, memory_order_relaxed);
        atomic_store(&b->busy, 0);
        errno = saved;
        t_inside = 0;
        return;
    }
    /* "TS PID TID FD OP BYTES LOCAL REMOTE ", by hand: snprintf was a
     * third of an event's cost */
    char *o = b->data + b->len;
    o = put_int(o, stamp);
    o = put_int(o, g_pid);
    o = put_int(o, b->tid);
    o = put_int(o, fd);
    o = put_str(o, op);
    o = put_int(o, bytes);
    o = put_str(o, local);
    o = put_str(o, remote);
    size_t left = keep;
    if (data) {
        const unsigned char *p = data;
        for (size_t i = 0; i < left; i++) {
            *o++ = hexd[p[i] >> 4];
            *o++ = hexd[p[i] & 15];
        }
    } else if (iov) {
        for (int v = 0; v < iovcnt && left; v++) {
            const unsigned char *p = iov[v].iov_base;
            size_t take = iov[v].iov_len < left ? iov[v].iov_len : left;
            for (size_t i = 0; i < take; i++) {
                *o++ = hexd[p[i] >> 4];
                *o++ = hexd[p[i] & 15];
            }
            left -= take;
        }
    }
    if (!keep)
        *o++ = '-';
    *o++ = '\n';
    b->len = (size_t)(o - b->data);
    atomic_store(&b->busy, 0);
    errno = saved;
    t_inside = 0;
}

static void record(int fd, const char *op, ssize_t bytes, const void *data,
                   const struct iovec *iov, int iovcnt)
{
    record_at(0, fd, op, bytes, data, iov, iovcnt);
}

static void flush_all(void)
{
    for (tbuf *b = atomic_load(&g_bufs); b; b = b->next)
        if (!atomic_load(&b->busy))
            flush_buf(b);
}

static void after_fork_child(void)
{
    /* the parent flushes what its buffers hold: drop the copies */
    g_pid = (pid_t)syscall(SYS_getpid);
    tbuf *mine = t_buf;
    atomic_store(&g_bufs, NULL);
    g_free = NULL;
    atomic_flag_clear(&g_free_lock);
    t_buf = NULL;
    if (mine)
        munmap(mine, sizeof *mine + BUFSZ);
}

#define RESOLVE(name)                                                       \
    do {                                                                    \
        real.name = (void *)dlsym(RTLD_NEXT, #name);                        \
        if (!real.name) {                                                   \
            char m[160];                                                    \
            int l = snprintf(m, sizeof m, "pbcapture: could not interpose %s " \
                             "(not in the C library this program uses)\n", #name); \
            raw_write_all(2, m, (size_t)l);                                 \
        }                                                                   \
    } while (0)

__attribute__((constructor)) static void pbcapture_init(void)
{
    RESOLVE(read); RESOLVE(write); RESOLVE(recv); RESOLVE(send);
    RESOLVE(recvfrom); RESOLVE(sendto); RESOLVE(recvmsg); RESOLVE(sendmsg);
    RESOLVE(readv); RESOLVE(writev); RESOLVE(accept); RESOLVE(accept4);
    RESOLVE(connect); RESOLVE(close); RESOLVE(socket); RESOLVE(dup); RESOLVE(dup2);
    RESOLVE(dup3); RESOLVE(fclose);
    g_pid = (pid_t)syscall(SYS_getpid);
    const char *d = getenv("PBCAPTURE_DIR");
    if (!d || !*d || strlen(d) >= sizeof g_dir)
        return;
    strcpy(g_dir, d);
    const char *nm = getenv("PBCAPTURE_NAME");
    if (nm && *nm) {
        snprintf(g_name, sizeof g_name, "%s", nm);
    } else {
        int f = (int)syscall(SYS_openat, AT_FDCWD, "/proc/self/comm", O_RDONLY | O_CLOEXEC);
        ssize_t r = f >= 0 ? syscall(SYS_read, f, g_name, sizeof g_name - 1) : -1;
        if (f >= 0)
            syscall(SYS_close, f);
        g_name[r > 0 ? r : 0] = 0;
        char *nl = strchr(g_name, '\n');
        if (nl)
            *nl = 0;
        if (!g_name[0])
            strcpy(g_name, "process");
    }
    for (char *c = g_name; *c; c++)
        if (*c == ' ' || *c == '\t' || *c == '\n')
            *c = '_';
    const char *pl = getenv("PBCAPTURE_PAYLOAD");
    if (pl && *pl) {
        long v = strtol(pl, NULL, 10);
        if (v >= 0 && v <= 65536)
            g_payload = (size_t)v;
    }
    pthread_key_create(&g_key, thread_done);
    pthread_atfork(NULL, NULL, after_fork_child);
    g_on = 1;
}

__attribute__((destructor)) static void pbcapture_fini(void)
{
    if (g_on)
        flush_all();
}

/* ---- the interposed functions ---- */

/* a process that leaves with _exit (a forked child, often) runs no
 * destructor: flush first */
typedef void (*exit_fn)(int);

EXPORT void _exit(int status)
{
    if (g_on)
        flush_all();
    exit_fn f = (exit_fn)dlsym(RTLD_NEXT, "_exit");
    if (f)
        f(status);
    syscall(SYS_exit_group, status);
    for (;;)
        ;
}

EXPORT void _Exit(int status)
{
    _exit(status);
}

#define XFER(call, fd, op, data, iov, cnt)                                  \
    long long t0 = op[0] == 's' && g_on && !t_inside ? now_ns() : 0;       \
    ssize_t r = call;                                                       \
    if (g_on && !t_inside && is_tcp(fd)) {                                  \
        if (r > 0)                                                          \
            record_at(t0, fd, op, r, data, iov, cnt);                       \
        else if (r == 0 && op[0] == 'r')                                    \
            record(fd, "eof", 0, NULL, NULL, 0);                            \
    }                                                                       \
    return r

EXPORT ssize_t read(int fd, void *buf, size_t n)
{
    if (!real.read) pbcapture_init();
    XFER(real.read(fd, buf, n), fd, "recv", buf, NULL, 0);
}

EXPORT ssize_t write(int fd, const void *buf, size_t n)
{
    if (!real.write) pbcapture_init();
    XFER(real.write(fd, buf, n), fd, "send", buf, NULL, 0);
}

EXPORT ssize_t recv(int fd, void *buf, size_t n, int flags)
{
    ssize_t r = real.recv(fd, buf, n, flags);
    /* a peek reads nothing off the stream */
    if (g_on && !t_inside && !(flags & MSG_PEEK) && is_tcp(fd)) {
        if (r > 0)
            record(fd, "recv", r, buf, NULL, 0);
        else if (r == 0)
            record(fd, "eof", 0, NULL, NULL, 0);
    }
    return r;
}

EXPORT ssize_t send(int fd, const void *buf, size_t n, int flags)
{
    XFER(real.send(fd, buf, n, flags), fd, "send", buf, NULL, 0);
}

EXPORT ssize_t recvfrom(int fd, void *buf, size_t n, int flags, struct sockaddr *a,
                        socklen_t *al)
{
    ssize_t r = real.recvfrom(fd, buf, n, flags, a, al);
    if (g_on && !t_inside && !(flags & MSG_PEEK) && is_tcp(fd)) {
        if (r > 0)
            record(fd, "recv", r, buf, NULL, 0);
        else if (r == 0)
            record(fd, "eof", 0, NULL, NULL, 0);
    }
    return r;
}

EXPORT ssize_t sendto(int fd, const void *buf, size_t n, int flags,
                      const struct sockaddr *a, socklen_t al)
{
    XFER(real.sendto(fd, buf, n, flags, a, al), fd, "send", buf, NULL, 0);
}

EXPORT ssize_t recvmsg(int fd, struct msghdr *m, int flags)
{
    ssize_t r = real.recvmsg(fd, m, flags);
    if (g_on && !t_inside && !(flags & MSG_PEEK) && is_tcp(fd)) {
        if (r > 0)
            record(fd, "recv", r, NULL, m->msg_iov, (int)m->msg_iovlen);
        else if (r == 0)
            record(fd, "eof", 0, NULL, NULL, 0);
    }
    return r;
}

EXPORT ssize_t sendmsg(int fd, const struct msghdr *m, int flags)
{
    XFER(real.sendmsg(fd, m, flags), fd, "send", NULL, m->msg_iov, (int)m->msg_iovlen);
}

EXPORT ssize_t readv(int fd, const struct iovec *iov, int cnt)
{
    XFER(real.readv(fd, iov, cnt), fd, "recv", NULL, iov, cnt);
}

EXPORT ssize_t writev(int fd, const struct iovec *iov, int cnt)
{
    XFER(real.writev(fd, iov, cnt), fd, "send", NULL, iov, cnt);
}

static void new_fd(int fd, const char *op)
{
    if (fd < 0 || fd >= MAXFD)
        return;
    addr_forget(fd);
    atomic_store_explicit(&fd_kind[fd], 0, memory_order_relaxed);
    if (g_on && !t_inside && is_tcp(fd))
        record(fd, op, 0, NULL, NULL, 0);
}

/* a new socket: its number may have been a file's, closed by the C
 * library's own close (fclose), which is not interposed */
EXPORT int socket(int domain, int type, int proto)
{
    if (!real.socket) pbcapture_init();
    int r = real.socket(domain, type, proto);
    if (r >= 0 && r < MAXFD) {
        addr_forget(r);
        atomic_store_explicit(&fd_kind[r], 0, memory_order_relaxed);
    }
    return r;
}

EXPORT int accept(int fd, struct sockaddr *a, socklen_t *al)
{
    int r = real.accept(fd, a, al);
    int saved = errno;
    new_fd(r, "accept");
    errno = saved;
    return r;
}

EXPORT int accept4(int fd, struct sockaddr *a, socklen_t *al, int flags)
{
    int r = real.accept4(fd, a, al, flags);
    int saved = errno;
    new_fd(r, "accept");
    errno = saved;
    return r;
}

EXPORT int connect(int fd, const struct sockaddr *a, socklen_t al)
{
    int r = real.connect(fd, a, al);
    int saved = errno;
    /* a non-blocking connect is under way (EINPROGRESS): the socket is
     * connected when it first moves data; record it now all the same */
    if ((r == 0 || errno == EINPROGRESS) && fd >= 0 && fd < MAXFD) {
        addr_forget(fd);
        atomic_store_explicit(&fd_kind[fd], 0, memory_order_relaxed);
        if (g_on && !t_inside && is_tcp(fd))
            record(fd, "connect", 0, NULL, NULL, 0);
    }
    errno = saved;
    return r;
}

/* fd is about to be closed: its close event, and forget what was known */
static void closing(int fd)
{
    if (g_on && !t_inside && fd >= 0 && fd < MAXFD &&
        atomic_load_explicit(&fd_kind[fd], memory_order_relaxed) == 1)
        record(fd, "close", 0, NULL, NULL, 0);
    if (fd >= 0 && fd < MAXFD) {
        addr_forget(fd);
        atomic_store_explicit(&fd_kind[fd], 0, memory_order_relaxed);
    }
}

EXPORT int close(int fd)
{
    if (!real.close) pbcapture_init();
    closing(fd);
    return real.close(fd);
}

/* a stream over a socket (fdopen) closes its descriptor inside the C
 * library, past close(): forget what was known of it */
EXPORT int fclose(FILE *f)
{
    if (!real.fclose) pbcapture_init();
    closing(f ? fileno(f) : -1);
    return real.fclose(f);
}

/* close_range and closefrom close many descriptors inside the C library
 * (glibc 2.34 on): forget every one of them, as close() does, without an
 * event each (a program closing its descriptors wholesale is past its
 * traffic).  Resolved quietly: a C library without them cannot be called
 * for them.  With CLOSE_RANGE_CLOEXEC nothing is closed, so nothing is
 * forgotten. */
typedef int (*close_range_fn)(unsigned int, unsigned int, int);
typedef void (*closefrom_fn)(int);

static void forget_range(unsigned int first, unsigned int last)
{
    if (first >= MAXFD)
        return;
    if (last >= MAXFD)
        last = MAXFD - 1;
    for (unsigned int fd = first; fd <= last; fd++) {
        addr_forget((int)fd);
        atomic_store_explicit(&fd_kind[fd], 0, memory_order_relaxed);
    }
}

EXPORT int close_range(unsigned int first, unsigned int last, int flags)
{
    close_range_fn f = (close_range_fn)dlsym(RTLD_NEXT, "close_range");
    int r;
#ifdef SYS_close_range
    r = f ? f(first, last, flags) : (int)syscall(SYS_close_range, first, last, flags);
#else
    if (!f) {
        errno = ENOSYS;
        return -1;
    }
    r = f(first, last, flags);
#endif
    if (r == 0 && !(flags & CLOSE_RANGE_CLOEXEC)) {
        int saved = errno;
        forget_range(first, last);
        errno = saved;
    }
    return r;
}

EXPORT void closefrom(int lowfd)
{
    closefrom_fn f = (closefrom_fn)dlsym(RTLD_NEXT, "closefrom");
    int saved = errno;
    forget_range(lowfd < 0 ? 0u : (unsigned int)lowfd, MAXFD - 1);
    errno = saved;
    if (f)
        f(lowfd);
#ifdef SYS_close_range
    else
        syscall(SYS_close_range, (unsigned int)(lowfd < 0 ? 0 : lowfd), ~0u, 0);
#endif
}

static void dup_record(int oldfd, int newfd)
{
    if (newfd < 0 || newfd >= MAXFD || oldfd < 0 || oldfd >= MAXFD)
        return;
    addr_forget(newfd);
    atomic_store_explicit(&fd_kind[newfd],
                          atomic_load_explicit(&fd_kind[oldfd], memory_order_relaxed),
                          memory_order_relaxed);
    atomic_store_explicit(&fd_h2[newfd],
                          atomic_load_explicit(&fd_h2[oldfd], memory_order_relaxed),
                          memory_order_relaxed);
    if (g_on && !t_inside && is_tcp(newfd)) {
        char op[32];
        snprintf(op, sizeof op, "dup:%d", oldfd);
        record(newfd, op, 0, NULL, NULL, 0);
    }
}

EXPORT int dup(int fd)
{
    int r = real.dup(fd);
    int saved = errno;
    dup_record(fd, r);
    errno = saved;
    return r;
}

EXPORT int dup2(int fd, int fd2)
{
    int r = real.dup2(fd, fd2);
    int saved = errno;
    if (r >= 0 && r != fd)
        dup_record(fd, r);
    errno = saved;
    return r;
}

EXPORT int dup3(int fd, int fd2, int flags)
{
    int r = real.dup3(fd, fd2, flags);
    int saved = errno;
    if (r >= 0)
        dup_record(fd, r);
    errno = saved;
    return r;
}
