#!/usr/bin/env python3
"""Throughput and round-trip time on loopback: direct, through socat, through `lowband proxy`
on the perfect profile, measured in one run, interleaved round by round (issue 13 compares them).

usage: Benchmarks/relay/proxy_vs_socat.py LOWBAND [--rounds N] [--size MIB] [--echoes N] [--csv FILE]
(needs socat: scripts/setup.sh installs it). Prints one line per relay and round: MB/s for an
upload of MIB MiB (256), RTT p50/p90 of N (3000) 1-byte echoes. With --csv, writes rows in
Lowband's CSV schema (docs/BENCHMARKS.md), suite `relay`: `<relay>/upload throughput MB/s` (one
sample per round), `<relay>/echo rtt us` (every echo of every round) and, for socat and the proxy,
`<relay>/echo added_rtt_p50|added_rtt_p99 us` over the direct connection's. scripts/bench.sh
--suite relay runs it and adds the ratio to socat and its target (Benchmarks/Figures/RelayFigures).
"""
import argparse, csv, datetime, math, platform, shutil
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

def latency(port, n):
    """n round trips of one byte, in microseconds, after 200 to warm up."""
    c = socket.create_connection(("127.0.0.1", port)); c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    c.sendall(b"E"); samples = []
    for _ in range(200): c.sendall(b"a"); c.recv(1)
    for _ in range(n):
        t0 = time.perf_counter(); c.sendall(b"a"); c.recv(1); samples.append((time.perf_counter() - t0) * 1e6)
    c.close()
    return samples

def nearest_rank(values, p):
    """The nearest-rank percentile, as Lowband's RunMetric computes it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p * len(ordered)) - 1)]

def row(benchmark, metric, unit, values, environment):
    ordered = sorted(values)
    stats = [nearest_rank(ordered, 0.5), nearest_rank(ordered, 0.9), nearest_rank(ordered, 0.99), ordered[0], ordered[-1]]
    return ["relay", benchmark, metric, unit] + [repr(round(v, 4)) for v in stats] + [len(values)] + environment

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p

parser = argparse.ArgumentParser(description="lowband proxy (perfect profile) against socat on loopback")
parser.add_argument("lowband", help="the lowband binary (a release build for figures)")
parser.add_argument("--rounds", type=int, default=5)
parser.add_argument("--size", type=int, default=256, help="MiB per upload")
parser.add_argument("--echoes", type=int, default=3000)
parser.add_argument("--csv", help="write the rows in Lowband's CSV schema to this file")
args = parser.parse_args()
if args.rounds < 1 or args.size < 1 or args.echoes < 1:
    parser.error("--rounds, --size and --echoes must be at least 1")

for program, hint in [("socat", "scripts/setup.sh installs it"), (args.lowband, "build it: swift build -c release --product lowband")]:
    if shutil.which(program) is None:
        sys.exit(f"proxy_vs_socat: cannot run {program}: not found or not executable ({hint})")

holder, ready = [], threading.Event()
threading.Thread(target=server, args=(holder, ready), daemon=True).start(); ready.wait(); up = holder[0]
sp = free_port(); lp = free_port()
relays = [("direct", up), ("socat", sp), ("lowband-perfect", lp)]
throughputs = {name: [] for name, _ in relays}; rtts = {name: [] for name, _ in relays}
children = []
try:
    # Both relays are stopped whatever happens below, so none outlives the script.
    children.append(subprocess.Popen(["socat", f"TCP-LISTEN:{sp},bind=127.0.0.1,reuseaddr,fork", f"TCP:127.0.0.1:{up}"]))
    children.append(subprocess.Popen([args.lowband, "proxy", "--listen", f"127.0.0.1:{lp}", "--upstream", f"127.0.0.1:{up}", "--profile", "perfect", "--api", "127.0.0.1:0"], stderr=subprocess.DEVNULL))
    deadline = time.monotonic() + 10
    for name, port in relays:
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close(); break
            except OSError:
                if time.monotonic() > deadline: sys.exit(f"proxy_vs_socat: {name} is not listening on 127.0.0.1:{port} after 10 s")
                time.sleep(0.05)
    for rnd in range(args.rounds):
        for name, port in relays:
            mbps = throughput(port, args.size << 20); samples = latency(port, args.echoes)
            throughputs[name].append(mbps); rtts[name] += samples
            print(f"round {rnd} {name:15s} throughput {mbps:8.1f} MB/s   rtt p50 {nearest_rank(samples, 0.5):6.1f} us  p90 {nearest_rank(samples, 0.9):6.1f} us", flush=True)
finally:
    for child in children:
        child.send_signal(signal.SIGINT)
    for child in children:
        try:
            child.wait(5)
        except subprocess.TimeoutExpired:
            child.kill()

if args.csv:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip()
    environment = [commit, "", platform.node(), datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")]
    rows = []
    for name, _ in relays:
        rows.append(row(f"{name}/upload", "throughput", "MB/s", throughputs[name], environment))
        rows.append(row(f"{name}/echo", "rtt", "us", rtts[name], environment))
        if name != "direct":
            for p, metric in [(0.5, "added_rtt_p50"), (0.99, "added_rtt_p99")]:
                added = nearest_rank(rtts[name], p) - nearest_rank(rtts["direct"], p)
                rows.append(row(f"{name}/echo", metric, "us", [added], environment))
    with open(args.csv, "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["suite", "benchmark", "metric", "unit", "p50", "p90", "p99", "min", "max", "samples", "commit", "swift_version", "host", "timestamp"])
        writer.writerows(rows)
    print(f"proxy_vs_socat: wrote {len(rows)} rows to {args.csv}")
