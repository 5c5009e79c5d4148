#!/usr/bin/env python3
"""CPU time per one-byte echo of each relay, interleaved in rounds.

    python3 Benchmarks/relay/cpu_per_echo.py --echoes 20000 --rounds 3 socat .build/release/lowband [OTHER_LOWBAND ...]

Each relay (`socat`, or a lowband binary run as `lowband proxy --profile perfect`) sits between
one client and a threaded Python echo server on 127.0.0.1; the client sends one byte and waits
for it, `--echoes` times over one connection (after 500 warm-up echoes). The relay's CPU time
(user + system, all threads) is read from /proc/PID/stat before and after. Printed per round and
relay: the round trip's p50 and p99 and the relay's CPU microseconds per echo (user and system
apart); at the end, per relay, the medians over the rounds. Linux only. On a machine other work
loads, `chrt -f 50 python3 …` runs the relays, the client and the server (all inherit it) ahead
of that work, which steadies the figures.
"""
import argparse, os, socket, statistics, subprocess, sys, threading, time


def handle(c):
    c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    while True:
        d = c.recv(64)
        if not d:
            break
        c.sendall(d)


def echo_server():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(16)

    def serve():
        while True:
            c, _ = s.accept()
            threading.Thread(target=handle, args=(c,), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    return s.getsockname()[1]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) / os.sysconf("SC_CLK_TCK"), int(fields[12]) / os.sysconf("SC_CLK_TCK")


def measure(relay, upstream, echoes):
    port = free_port()
    if relay == "socat":
        command = ["socat", f"TCP-LISTEN:{port},bind=127.0.0.1,reuseaddr", f"TCP:127.0.0.1:{upstream}"]
    else:
        command = [relay, "proxy", "--listen", f"127.0.0.1:{port}", "--upstream", f"127.0.0.1:{upstream}", "--profile", "perfect"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        client = None
        for _ in range(600):
            try:
                client = socket.create_connection(("127.0.0.1", port))
                break
            except OSError:
                time.sleep(0.1)
        if client is None:
            sys.exit(f"{relay}: never listened on 127.0.0.1:{port}")
        client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for _ in range(500):
            client.sendall(b"a")
            client.recv(1)
        before = cpu_seconds(process.pid)
        times = []
        for _ in range(echoes):
            start = time.perf_counter()
            client.sendall(b"a")
            client.recv(1)
            times.append(time.perf_counter() - start)
        after = cpu_seconds(process.pid)
        client.close()
    finally:
        process.terminate()
        process.wait()
    times.sort()
    user, system = ((a - b) / echoes * 1e6 for a, b in zip(after, before))
    return times[len(times) // 2] * 1e6, times[min(len(times) - 1, (len(times) * 99) // 100)] * 1e6, user, system


parser = argparse.ArgumentParser(description="CPU per one-byte echo of socat and lowband proxy (perfect)")
parser.add_argument("relays", nargs="+", help="`socat` or a lowband binary")
parser.add_argument("--echoes", type=int, default=20000)
parser.add_argument("--rounds", type=int, default=3)
arguments = parser.parse_args()
if arguments.echoes < 1 or arguments.rounds < 1:
    sys.exit("--echoes and --rounds must be at least 1")
upstream = echo_server()
rows = {relay: [] for relay in arguments.relays}
for round in range(1, arguments.rounds + 1):
    for relay in arguments.relays:
        p50, p99, user, system = measure(relay, upstream, arguments.echoes)
        rows[relay].append((p50, p99, user + system, user, system))
        print(f"round {round} {relay}: {arguments.echoes} echoes, p50 {p50:.1f} us, p99 {p99:.1f} us, cpu {user + system:.1f} us/echo (user {user:.1f}, system {system:.1f})", flush=True)
for relay, measured in rows.items():
    p50, p99, cpu, user, system = (statistics.median(column) for column in zip(*measured))
    print(f"median of {len(measured)} rounds, {relay}: p50 {p50:.1f} us, p99 {p99:.1f} us, cpu {cpu:.1f} us/echo (user {user:.1f}, system {system:.1f})")
