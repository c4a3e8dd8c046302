#!/usr/bin/env python3
"""hotel.py - a live test system for capture (docs/capture.md "The test
system"): a handful of HTTP/1.1 services on loopback with a hotel-like call
graph, in one of three execution models, and an open-loop load generator.

  frontend -> search -> geo, then rate          (sequential calls)
  frontend -> reservation || profile            (parallel calls)
  reservation -> db, profile -> db              (a fan-in: db has two callers)

Models (the seeds' argument turns on them):
  thread  a thread per request: the thread that reads a request makes its
          calls and writes its reply (vPath's assumption holds);
  pool    a pool of worker threads: the accepting thread hands the request
          to the pool, and after every call returns the rest of the work is
          handed back to the pool, so another worker may continue it and
          write the reply (vPath's assumption breaks);
  event   one thread per service running an event loop (asyncio): every
          request of a service is served by that one thread, interleaved.

Every service has its own loopback address (127.0.0.2, .3, ...) and binds
its outgoing connections to it, so a packet capture tells services apart by
address.  W3C traceparent headers are propagated: the trace id is the
truth.  Every call uses a new connection.  Python standard library only;
everything is bounded in time and stops by itself.

  python3 testbed/hotel.py run --model thread --rate 20 --duration 5 \
      [--pbcapture BIN/pbcapture --capture DIR] [--pcap FILE]
prints "sent=N ok=M" and, with --names, the address of each service.
"""
import argparse
import asyncio
import os
import queue
import random
import signal
import socket
import subprocess
import sys
import threading
import time

GRAPH = {
    "frontend": [("seq", ["search"]), ("par", ["reservation", "profile"])],
    "search": [("seq", ["geo"]), ("seq", ["rate"])],
    "reservation": [("seq", ["db"])],
    "profile": [("seq", ["db"])],
    "geo": [], "rate": [], "db": [],
}
ORDER = ["db", "geo", "rate", "reservation", "profile", "search", "frontend"]
WORK = {"frontend": 0.0005, "search": 0.0005, "geo": 0.001, "rate": 0.002,
        "reservation": 0.0015, "profile": 0.001, "db": 0.001}
DEADLINE = 120  # no service lives longer than this (seconds)


def new_span():
    return "%016x" % random.getrandbits(64)


def read_request(sock):
    """Read one HTTP/1.1 message (headers, Content-Length body)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            return None, None
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for ln in lines[1:]:
        k, _, v = ln.partition(":")
        headers[k.strip().lower()] = v.strip()
    n = int(headers.get("content-length", "0"))
    while len(rest) < n:
        chunk = sock.recv(4096)
        if not chunk:
            break
        rest += chunk
    return lines[0], headers


def call(src_ip, addr, path, trace):
    """One downstream call on a new connection bound to our address."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(10)
    s.bind((src_ip, 0))
    s.connect(addr)
    tp = "00-%s-%s-01" % (trace, new_span())
    req = ("GET %s HTTP/1.1\r\nHost: %s:%d\r\ntraceparent: %s\r\n"
           "Connection: close\r\n\r\n" % (path, addr[0], addr[1], tp))
    s.sendall(req.encode())
    status, headers = read_request(s)
    s.close()
    return status


def call_parallel(src_ip, targets, trace):
    """Parallel calls made by one thread: all sent, then all replies read."""
    socks = []
    for addr, path in targets:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.settimeout(10)
        s.bind((src_ip, 0))
        s.connect(addr)
        tp = "00-%s-%s-01" % (trace, new_span())
        req = ("GET %s HTTP/1.1\r\nHost: %s:%d\r\ntraceparent: %s\r\n"
               "Connection: close\r\n\r\n" % (path, addr[0], addr[1], tp))
        s.sendall(req.encode())
        socks.append(s)
    for s in socks:
        read_request(s)
        s.close()


def reply(sock, name):
    body = ("ok %s\n" % name).encode()
    sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n"
                 % len(body) + body)


def trace_of(headers):
    tp = headers.get("traceparent", "")
    parts = tp.split("-")
    return parts[1] if len(parts) == 4 else "%032x" % random.getrandbits(128)


# ---- thread per request ------------------------------------------------

def serve_thread(name, ip, lsock, down):
    def handle(c):
        with c:
            line, headers = read_request(c)
            if line is None:
                return
            trace = trace_of(headers)
            time.sleep(WORK[name])
            for kind, targets in GRAPH[name]:
                if kind == "seq":
                    for t in targets:
                        call(ip, down[t], "/" + t, trace)
                else:
                    # parallel calls from this same thread: every request
                    # sent, then every reply read (helper threads would
                    # send them, and vPath's assumption would not hold)
                    call_parallel(ip, [(down[t], "/" + t) for t in targets], trace)
            reply(c, name)
    while True:
        c, _ = lsock.accept()
        threading.Thread(target=handle, args=(c,), daemon=True).start()


# ---- pool with hand-offs -------------------------------------------------

def serve_pool(name, ip, lsock, down, workers=4):
    work = queue.Queue()

    def worker():
        while True:
            fn = work.get()
            fn()

    for _ in range(workers):
        threading.Thread(target=worker, daemon=True).start()

    def steps(c, trace):
        """the request as a list of steps; each runs on some worker and
        hands the next to the pool"""
        plan = []
        for kind, targets in GRAPH[name]:
            if kind == "seq":
                plan += [("one", t) for t in targets]
            else:
                plan.append(("par", targets))

        def run(i):
            if i == len(plan):
                reply(c, name)
                c.close()
                return
            kind, what = plan[i]
            if kind == "one":
                call(ip, down[what], "/" + what, trace)
                work.put(lambda: run(i + 1))
            else:
                left = [len(what)]
                lock = threading.Lock()

                def branch(t):
                    call(ip, down[t], "/" + t, trace)
                    with lock:
                        left[0] -= 1
                        last = left[0] == 0
                    if last:
                        work.put(lambda: run(i + 1))
                for t in what:
                    work.put(lambda t=t: branch(t))
        time.sleep(WORK[name])
        run(0)

    while True:
        c, _ = lsock.accept()
        line, headers = read_request(c)
        if line is None:
            c.close()
            continue
        trace = trace_of(headers)
        work.put(lambda c=c, trace=trace: steps(c, trace))


# ---- event loop ----------------------------------------------------------

def serve_event(name, ip, lsock, down):
    async def acall(addr, path, trace):
        r, w = await asyncio.open_connection(addr[0], addr[1], local_addr=(ip, 0))
        tp = "00-%s-%s-01" % (trace, new_span())
        w.write(("GET %s HTTP/1.1\r\nHost: %s:%d\r\ntraceparent: %s\r\n"
                 "Connection: close\r\n\r\n" % (path, addr[0], addr[1], tp)).encode())
        await w.drain()
        head = await r.readuntil(b"\r\n\r\n")
        n = 0
        for ln in head.decode("latin-1").split("\r\n"):
            if ln.lower().startswith("content-length:"):
                n = int(ln.split(":")[1])
        if n:
            await r.readexactly(n)
        w.close()

    async def handle(r, w):
        try:
            head = await r.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, ConnectionError):
            w.close()
            return
        headers = {}
        for ln in head.decode("latin-1").split("\r\n")[1:]:
            k, _, v = ln.partition(":")
            headers[k.strip().lower()] = v.strip()
        trace = trace_of(headers)
        await asyncio.sleep(WORK[name])
        for kind, targets in GRAPH[name]:
            if kind == "seq":
                for t in targets:
                    await acall(down[t], "/" + t, trace)
            else:
                await asyncio.gather(*[acall(down[t], "/" + t, trace) for t in targets])
        body = ("ok %s\n" % name).encode()
        w.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n"
                % len(body) + body)
        await w.drain()
        w.close()

    async def main():
        srv = await asyncio.start_server(handle, sock=lsock)
        async with srv:
            await srv.serve_forever()
    asyncio.run(main())


def serve(args):
    signal.alarm(DEADLINE)
    # a clean exit on SIGTERM, so that a capture library flushes its buffers
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
    signal.signal(signal.SIGALRM, lambda *a: sys.exit(0))
    down = {}
    for d in (args.down or "").split(","):
        if d:
            k, _, v = d.partition("=")
            h, _, p = v.rpartition(":")
            down[k] = (h, int(p))
    lsock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    lsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lsock.bind((args.ip, 0))
    lsock.listen(256)
    print(lsock.getsockname()[1], flush=True)
    {"thread": serve_thread, "pool": serve_pool, "event": serve_event}[args.model](
        args.name, args.ip, lsock, down)


# ---- the load generator and the orchestrator -------------------------------

def load(addr, ip, rate, duration, seed):
    """Open loop: Poisson arrivals at `rate` per second for `duration`."""
    rng = random.Random(seed)
    sent = [0]
    ok = [0]
    lat = []
    lock = threading.Lock()

    def one(trace):
        t0 = time.perf_counter()
        try:
            st = call(ip, addr, "/hotels", trace)
            if st and " 200 " in st:
                with lock:
                    ok[0] += 1
                    lat.append(time.perf_counter() - t0)
        except OSError:
            pass
    threads = []
    t0 = time.time()
    t = t0
    while True:
        t += rng.expovariate(rate)
        if t - t0 >= duration:
            break
        time.sleep(max(0.0, t - time.time()))
        th = threading.Thread(target=one, args=("%032x" % rng.getrandbits(128),), daemon=True)
        th.start()
        threads.append(th)
        sent[0] += 1
    for th in threads:
        th.join(timeout=max(0.1, 10 - (time.time() - t)))
    load.latencies = sorted(lat)
    return sent[0], ok[0]


def pct(xs, p):
    return 1000 * xs[min(len(xs) - 1, int(p / 100.0 * len(xs)))] if xs else float("nan")


def summary(sent, ok):
    xs = getattr(load, "latencies", [])
    return "sent=%d ok=%d p50_ms=%.2f p90_ms=%.2f p99_ms=%.2f" % (
        sent, ok, pct(xs, 50), pct(xs, 90), pct(xs, 99))


def run(args):
    procs = []
    addrs = {}
    ips = {n: "127.0.0.%d" % (i + 2) for i, n in enumerate(ORDER)}
    ips["client"] = "127.0.0.%d" % (len(ORDER) + 2)
    here = os.path.abspath(__file__)
    tcpdump = None
    try:
        if args.pcap:
            tcpdump = subprocess.Popen(
                ["tcpdump", "-i", "lo", "-U", "-s", "0", "-w", args.pcap, "tcp and net 127.0.0.0/8"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(1.0)
        for n in ORDER:
            down = ",".join("%s=%s:%d" % (t, addrs[t][0], addrs[t][1])
                            for kind, ts in GRAPH[n] for t in ts)
            cmd = [sys.executable, here, "serve", "--name", n, "--ip", ips[n],
                   "--model", args.model, "--down", down]
            if args.capture:
                cmd = [args.pbcapture, "-o", args.capture, "--name", n, "--"] + cmd
            p = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
            procs.append(p)
            line = p.stdout.readline()
            if not line.strip():
                raise SystemExit("hotel.py: service %s did not start" % n)
            addrs[n] = (ips[n], int(line))
        if args.capture:
            # the load generator is a process of its own, captured too
            cmd = [args.pbcapture, "-o", args.capture, "--name", "client", "--",
                   sys.executable, here, "load", "--addr", "%s:%d" % addrs["frontend"],
                   "--ip", ips["client"], "--rate", str(args.rate),
                   "--duration", str(args.duration), "--seed", str(args.seed)]
            out = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, timeout=DEADLINE)
            print(out.stdout.strip())
        else:
            s, o = load(addrs["frontend"], ips["client"], args.rate, args.duration, args.seed)
            print(summary(s, o))
        if args.names:
            for n in ORDER + ["client"]:
                print("name %s=%s" % (ips[n], n))
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()
        if tcpdump:
            time.sleep(0.5)
            tcpdump.send_signal(signal.SIGINT)
            try:
                tcpdump.wait(timeout=5)
            except subprocess.TimeoutExpired:
                tcpdump.kill()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("serve")
    s.add_argument("--name", required=True)
    s.add_argument("--ip", required=True)
    s.add_argument("--model", choices=["thread", "pool", "event"], required=True)
    s.add_argument("--down", default="")
    l = sub.add_parser("load")
    l.add_argument("--addr", required=True)
    l.add_argument("--ip", required=True)
    l.add_argument("--rate", type=float, required=True)
    l.add_argument("--duration", type=float, required=True)
    l.add_argument("--seed", type=int, default=1)
    r = sub.add_parser("run")
    r.add_argument("--model", choices=["thread", "pool", "event"], default="thread")
    r.add_argument("--rate", type=float, default=20)
    r.add_argument("--duration", type=float, default=5)
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--capture", help="pbcapture output folder")
    r.add_argument("--pbcapture", default="pbcapture")
    r.add_argument("--pcap", help="write a packet capture (tcpdump on lo)")
    r.add_argument("--names", action="store_true", help="print each service's address")
    a = ap.parse_args()
    if a.cmd == "serve":
        serve(a)
    elif a.cmd == "load":
        signal.alarm(DEADLINE)
        h, _, p = a.addr.rpartition(":")
        s_, o_ = load((h, int(p)), a.ip, a.rate, a.duration, a.seed)
        print(summary(s_, o_))
    else:
        if a.rate <= 0 or a.duration <= 0 or a.duration > 60:
            raise SystemExit("hotel.py: --rate > 0 and 0 < --duration <= 60 seconds")
        run(a)


if __name__ == "__main__":
    main()
