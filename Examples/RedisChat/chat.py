#!/usr/bin/env python3
"""A two-device chat over Redis pub/sub (redis-py) that tells Lowband what it did.

alice PUBLISHes --messages messages to one channel, --interval apart; bob is SUBSCRIBEd to it.
Each connects through its own proxy when Lowband gives one (LOWBAND_PROXY_ALICE,
LOWBAND_PROXY_BOB: `--upstream alice=HOST:PORT --upstream bob=HOST:PORT`), else LOWBAND_PROXY,
and both post their events (JSON lines, docs/APP-EVENTS.md) to LOWBAND_EVENTS:

  connected / disconnected   each device's session (bob: subscribed, or its connection failed)
  sent                       alice is about to PUBLISH
  acked                      the server answered the PUBLISH (Redis has the message)
  received                   bob's subscription delivered it (the id is the payload)

Redis pub/sub delivers a message to the subscribers connected at that moment and keeps nothing:
a subscriber whose connection dies misses what is published until it has subscribed again. That
is the network's doing, and Lowband names the fault and proves it.

--drop-after-reconnect SECONDS plants an app bug instead: after a reconnect, bob's app throws
away what arrives for that long (as a client that discards updates while it "resyncs" would).
The network delivered those messages; Lowband says no fault touched them.

Exits 0 once alice is done and bob has stayed --linger seconds more: whether a promise broke
is Lowband's verdict, from the events.
"""
import argparse
import os
import sys
import threading
import time

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry


# The events poster the examples share (Examples/lowband_events.py).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lowband_events import Events  # noqa: E402

# One channel per run: seeds side by side share the server.
CHANNEL = f"lowband:{os.environ.get('LOWBAND_SEED', '0')}-{os.getpid()}:c-1"


def address_of(name):
    address = os.environ.get(f"LOWBAND_PROXY_{name.upper()}") or os.environ["LOWBAND_PROXY"]
    host, port = address.rsplit(":", 1)
    return host, int(port)


def client(name):
    """A client with no retries of its own: a dead connection is the app's to notice."""
    host, port = address_of(name)
    return redis.Redis(host=host, port=port, socket_connect_timeout=5, socket_timeout=10, retry=Retry(NoBackoff(), 0), retry_on_error=[])


def bob(events, stop, ready, drop_after_reconnect):
    """bob's subscription. redis-py connects again by itself when its connection fails, and
    subscribes anew on the same PubSub before it raises the error to us: we keep reading from that
    PubSub. (A first version made a new client instead and left the old one, connected again and
    subscribed, to be collected: the messages Redis delivered to it were lost, and Lowband said,
    rightly, that no fault touched them and bob's app did not show them.)"""
    reconnected_at = None
    pubsub = None
    while not stop.is_set():
        try:
            if pubsub is None:
                pubsub = client("bob").pubsub(ignore_subscribe_messages=False)
                pubsub.subscribe(CHANNEL)
            message = pubsub.get_message(timeout=0.05)
            if message is None:
                continue
            if message["type"] == "subscribe":
                events.post("bob", "connected")
                ready.set()
                continue
            if message["type"] != "message":
                continue
            if drop_after_reconnect and reconnected_at is not None and time.monotonic() - reconnected_at < drop_after_reconnect:
                continue  # the planted bug: what arrives while "resyncing" is thrown away
            events.post("bob", "received", message["data"].decode())
        except (redis.ConnectionError, redis.TimeoutError, OSError):
            events.post("bob", "disconnected")
            reconnected_at = time.monotonic()
            time.sleep(0.05)
    if pubsub is not None:
        pubsub.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=20)
    parser.add_argument("--interval", type=float, default=0.1)
    parser.add_argument("--linger", type=float, default=3.0)
    parser.add_argument("--drop-after-reconnect", type=float, default=0.0)
    options = parser.parse_args()
    events = Events(os.environ["LOWBAND_EVENTS"])
    stop = threading.Event()
    ready = threading.Event()
    listener = threading.Thread(target=bob, args=(events, stop, ready, options.drop_after_reconnect), daemon=True)
    listener.start()
    ready.wait(timeout=10)
    publisher = None
    for number in range(1, options.messages + 1):
        message = f"m-{number}"
        while publisher is None:
            try:
                publisher = client("alice")
                publisher.ping()
                events.post("alice", "connected")
            except (redis.ConnectionError, redis.TimeoutError, OSError):
                publisher = None
                time.sleep(0.05)
        events.post("alice", "sent", message)
        try:
            publisher.publish(CHANNEL, message)
            events.post("alice", "acked", message)
        except (redis.ConnectionError, redis.TimeoutError, OSError):
            events.post("alice", "disconnected")
            publisher = None
        time.sleep(options.interval)
    time.sleep(options.linger)
    stop.set()
    listener.join(timeout=5)
    events.close()


if __name__ == "__main__":
    main()
