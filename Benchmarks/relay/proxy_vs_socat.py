#!/usr/bin/env python3
"""Throughput and round-trip time on loopback: direct, through socat, through `lowband proxy`
on the perfect profile, measured in one run (the issue's speed target compares them).

usage: Benchmarks/relay/proxy_vs_socat.py .build/release/lowband   (needs: apt-get install socat)
Prints one line per relay and round: MB/s for a 256 MiB upload, RTT p50/p90 of 1-byte echoes.
"""
import socket, threading, time, subprocess, sys, statistics, os, signal

def server(port_holder, ready):
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0)); s.listen(16); port_holder.append(s.getsockname()[1]); ready.set()
    while True:
        c, _ = s.accept()
        threading.Thread(target=handle, args=(c,), daemon=True).start()

def handle(c):
    c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    mode = c.recv(1)
    if mode == b"T":
        total = 0
        while True:
            d = c.recv(1 << 20)
            if not d: break
            total += len(d)
        c.sendall(str(total).encode()); c.close()
    else:
        while True:
            d = c.recv(64)
            if not d: break
            c.sendall(d)
        c.close()

def throughput(port, size=256 << 20):
    c = socket.create_connection(("127.0.0.1", port)); c.sendall(b"T")
    chunk = b"x" * (1 << 20); t0 = time.perf_counter()
    for _ in range(size >> 20): c.sendall(chunk)
    c.shutdown(socket.SHUT_WR); got = int(c.recv(64)); t1 = time.perf_counter(); c.close()
    assert got == size, got
    return size / (t1 - t0) / 1e6

def latency(port, n=3000):
    c = socket.create_connection(("127.0.0.1", port)); c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    c.sendall(b"E"); samples = []
    for _ in range(200): c.sendall(b"a"); c.recv(1)
    for _ in range(n):
        t0 = time.perf_counter(); c.sendall(b"a"); c.recv(1); samples.append(time.perf_counter() - t0)
    c.close(); samples.sort()
    return samples[len(samples)//2] * 1e6, samples[int(len(samples)*0.9)] * 1e6

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p

holder, ready = [], threading.Event()
threading.Thread(target=server, args=(holder, ready), daemon=True).start(); ready.wait(); up = holder[0]
sp = free_port(); lp = free_port()
socat = subprocess.Popen(["socat", f"TCP-LISTEN:{sp},bind=127.0.0.1,reuseaddr,fork", f"TCP:127.0.0.1:{up}"])
lb = subprocess.Popen([sys.argv[1], "proxy", "--listen", f"127.0.0.1:{lp}", "--upstream", f"127.0.0.1:{up}", "--profile", "perfect", "--api", "127.0.0.1:0"], stderr=subprocess.DEVNULL)
time.sleep(1.0)
try:
    for rnd in range(2):
        for name, port in [("direct", up), ("socat", sp), ("lowband", lp)]:
            mbps = throughput(port); p50, p90 = latency(port)
            print(f"round {rnd} {name:8s} throughput {mbps:8.1f} MB/s   rtt p50 {p50:6.1f} us  p90 {p90:6.1f} us", flush=True)
finally:
    socat.terminate(); lb.send_signal(signal.SIGINT); lb.wait(5)
