#!/usr/bin/env python3
"""Measures a `lowband proxy` process holding many concurrent connections.

Usage: scripts/proxy-connections.py LOWBAND [--profile NAME] [--count N] [--bytes B]

Starts an echo server (this script, loopback), `LOWBAND proxy --upstream` in front of it, opens
COUNT client connections through the proxy, does a BYTES round trip on each while all are open,
then closes them. Prints the proxy's resident memory (VmRSS) and open file descriptors idle, with
every connection open, and after they closed. Wall-clock figures are reported, never asserted.
"""
import argparse
import asyncio
import os
import re
import subprocess
import sys


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


def descriptors(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


async def echo(reader, writer):
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except ConnectionError:
        pass
    finally:
        writer.close()


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("lowband")
    parser.add_argument("--profile", default="perfect")
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--bytes", type=int, default=1000)
    options = parser.parse_args()

    upstream = await asyncio.start_server(echo, "127.0.0.1", 0, backlog=4096)
    upstream_port = upstream.sockets[0].getsockname()[1]
    proxy = subprocess.Popen(
        [options.lowband, "proxy", "--listen", "127.0.0.1:0", "--upstream", f"127.0.0.1:{upstream_port}", "--profile", options.profile, "--no-api"],
        stderr=subprocess.PIPE, text=True)
    port = None
    while port is None:
        line = proxy.stderr.readline()
        if not line:
            sys.exit("the proxy exited before listening")
        match = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
        if match:
            port = int(match.group(1))
    # Status lines (two per connection) must not fill the pipe and block the proxy.
    drain = asyncio.get_running_loop().run_in_executor(None, lambda: [None for _ in proxy.stderr])

    idle = (rss_kib(proxy.pid), descriptors(proxy.pid))
    connections = []
    for _ in range(options.count):
        connections.append(await asyncio.open_connection("127.0.0.1", port))
    payload = bytes(range(256)) * (options.bytes // 256 + 1)
    payload = payload[:options.bytes]

    async def round_trip(reader, writer):
        writer.write(payload)
        await writer.drain()
        return await reader.readexactly(len(payload)) == payload

    intact = sum(await asyncio.gather(*(round_trip(r, w) for r, w in connections)))
    loaded = (rss_kib(proxy.pid), descriptors(proxy.pid))
    for _, writer in connections:
        writer.close()
    await asyncio.gather(*(w.wait_closed() for _, w in connections), return_exceptions=True)
    after = loaded
    for _ in range(100):
        await asyncio.sleep(0.1)
        after = (rss_kib(proxy.pid), descriptors(proxy.pid))
        if after[1] == idle[1]:
            break

    print(f"profile {options.profile}, {options.count} connections, {intact} round trips of {options.bytes} B intact")
    print(f"idle:      RSS {idle[0] / 1024:.1f} MiB, {idle[1]} descriptors")
    print(f"all open:  RSS {loaded[0] / 1024:.1f} MiB, {loaded[1]} descriptors "
          f"({(loaded[0] - idle[0]) / options.count:.1f} KiB per connection)")
    print(f"closed:    RSS {after[0] / 1024:.1f} MiB, {after[1]} descriptors")
    proxy.terminate()
    proxy.wait()
    await drain
    upstream.close()
    return 0 if intact == options.count and after[1] == idle[1] else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
