#!/usr/bin/env python3
"""tiny.py - hand-made HTTP/1.1 exchanges with known bytes and known order,
for the capture tests (tests/sh/test_capture.sh; docs/capture.md).

  tiny.py server PORTFILE        serve on 127.0.0.1 (port written to PORTFILE)
                                 until a request for /quit
  tiny.py client PORT            one keep-alive connection: GET /one, then
                                 GET /two and GET /three pipelined in one write;
                                 prints the three bodies
  tiny.py forker PORT            forks: the child makes one request, the parent
                                 another (after the child's)
  tiny.py threads PORT N         N threads, one request each
  tiny.py quit PORT              ask the server to stop

Every request carries traceparent 00-<trace>-<span>-01 with a trace id made
from its path, so the truth is known in advance.  Standard library only;
the server stops by itself after 60 seconds.
"""
import os
import signal
import socket
import sys
import threading


def trace_for(path):
    """the path's bytes in hex, padded with zeros: known in advance"""
    return path.strip("/").encode().hex().ljust(32, "0")[:32]


def req(path):
    return ("GET %s HTTP/1.1\r\nHost: t\r\ntraceparent: 00-%s-00000000000000aa-01\r\n\r\n"
            % (path, trace_for(path))).encode()


def read_msg(f):
    """one response from a buffered socket file: (status, body)"""
    status = f.readline().decode().strip()
    n = 0
    chunked = False
    while True:
        ln = f.readline().decode()
        if ln in ("\r\n", ""):
            break
        k, _, v = ln.partition(":")
        if k.lower() == "content-length":
            n = int(v)
        if k.lower() == "transfer-encoding" and "chunked" in v:
            chunked = True
    if chunked:
        body = b""
        while True:
            size = int(f.readline().strip(), 16)
            if size == 0:
                f.readline()
                break
            body += f.read(size)
            f.readline()
        return status, body
    return status, f.read(n)


def server(portfile):
    signal.alarm(60)
    signal.signal(signal.SIGALRM, lambda *a: sys.exit(0))
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", 0))
    ls.listen(64)
    with open(portfile + ".tmp", "w") as f:
        f.write(str(ls.getsockname()[1]))
    os.rename(portfile + ".tmp", portfile)
    stop = threading.Event()

    def conn(c):
        f = c.makefile("rb")
        while True:
            line = f.readline().decode()
            if not line:
                break
            path = line.split()[1]
            while f.readline() not in (b"\r\n", b""):
                pass
            if path == "/three":
                # a chunked answer
                c.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                          b"4\r\nbody\r\n6\r\n three\r\n0\r\n\r\n")
            else:
                body = ("body %s" % path).encode()
                c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
            if path == "/quit":
                stop.set()
                break
        c.close()
    ls.settimeout(0.2)
    while not stop.is_set():
        try:
            c, _ = ls.accept()
        except socket.timeout:
            continue
        threading.Thread(target=conn, args=(c,), daemon=True).start()
    sys.exit(0)


def one(port, path):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(req(path))
    st, body = read_msg(s.makefile("rb"))
    s.close()
    return body


def client(port):
    s = socket.create_connection(("127.0.0.1", port))
    f = s.makefile("rb")
    s.sendall(req("/one"))
    print(read_msg(f)[1].decode())
    s.sendall(req("/two") + req("/three"))  # pipelined: one write
    print(read_msg(f)[1].decode())
    print(read_msg(f)[1].decode())
    s.close()


def main():
    cmd = sys.argv[1]
    if cmd == "server":
        server(sys.argv[2])
    elif cmd == "client":
        client(int(sys.argv[2]))
    elif cmd == "forker":
        port = int(sys.argv[2])
        pid = os.fork()
        if pid == 0:
            print(one(port, "/child").decode(), flush=True)
            os._exit(0)
        os.waitpid(pid, 0)
        print(one(port, "/parent").decode())
    elif cmd == "threads":
        port, n = int(sys.argv[2]), int(sys.argv[3])
        out = [None] * n
        ths = [threading.Thread(target=lambda i=i: out.__setitem__(i, one(port, "/t%d" % i)))
               for i in range(n)]
        for t in ths:
            t.start()
        for t in ths:
            t.join()
        print(" ".join(b.decode() for b in out))
    elif cmd == "quit":
        one(int(sys.argv[2]), "/quit")


if __name__ == "__main__":
    main()
