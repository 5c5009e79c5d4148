#!/usr/bin/env python3
"""A two-device chat over MQTT (paho-mqtt) that tells Lowband what it did.

alice publishes --messages messages to chat/c-1 with --qos; bob is subscribed with the same QoS.
Each connects through the proxy Lowband gives in LOWBAND_PROXY_ALICE / LOWBAND_PROXY_BOB when
there is one per device (`--upstream alice=HOST:PORT --upstream bob=HOST:PORT`: each device its
own link, and the verdicts say what the network did on each), else in LOWBAND_PROXY; both post
their events (JSON lines, docs/APP-EVENTS.md) to LOWBAND_EVENTS:

  connected / disconnected   each device's session (naming the chat makes it a member)
  sent                       alice called publish()
  acked                      paho says the publish is done (QoS 1: the broker's PUBACK;
                             QoS 0: the bytes were written to the socket)
  received                   bob's on_message, with the id carried in the payload

Both sessions are persistent (clean_session=False, one client id per run), as a messenger's
push channel would be. The script exits 0 once alice's messages are all acknowledged (or
--ack-wait passes) and bob has stayed --linger seconds more: whether a promise broke is
Lowband's verdict, from the events.
"""
import argparse
import json
import os
import sys
import threading
import time

import paho.mqtt.client as mqtt


# The events poster the examples share (Examples/lowband_events.py).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lowband_events import Events  # noqa: E402

# One topic per run, for the same reason as the client ids: seeds side by side share the broker.
TOPIC = f"lowband/{os.environ.get('LOWBAND_SEED', '0')}-{os.getpid()}/chat/c-1"


def proxy_of(name):
    """The device's own proxy if Lowband gave one, else the shared one, as (host, port)."""
    address = os.environ.get(f"LOWBAND_PROXY_{name.upper()}") or os.environ["LOWBAND_PROXY"]
    host, port = address.rsplit(":", 1)
    return host, int(port)


def device(name, events, on_message=None):
    # One client id per run: seeds run side by side against one broker, and a broker ends the
    # older session of a client id that connects twice.
    client_id = f"lowband-{name}-{os.environ.get('LOWBAND_SEED', '0')}-{os.getpid()}"
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=False)
    client.reconnect_delay_set(min_delay=0.2, max_delay=2)
    state = {"connected": False}

    def on_connect(client, userdata, flags, reason, properties):
        if reason.is_failure:
            return
        state["connected"] = True
        events.post(name, "connected")
        if on_message is not None:
            client.subscribe(TOPIC, qos=userdata)

    def on_disconnect(client, userdata, flags, reason, properties):
        if state["connected"]:
            state["connected"] = False
            events.post(name, "disconnected")

    client.on_connect = on_connect
    client.on_disconnect = on_disconnect
    if on_message is not None:
        client.on_message = on_message
    host, port = proxy_of(name)
    client.connect_async(host, port, keepalive=5)
    client.loop_start()
    return client, state


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--qos", type=int, choices=[0, 1], default=1)
    parser.add_argument("--messages", type=int, default=20)
    parser.add_argument("--interval", type=float, default=0.25, help="seconds between alice's messages")
    parser.add_argument("--linger", type=float, default=8, help="seconds bob stays after the last acknowledgement")
    parser.add_argument("--ack-wait", type=float, default=15, help="seconds alice waits for outstanding acknowledgements")
    parser.add_argument("--size", type=int, default=0, help="bytes of padding per message (a photo rather than a line of text)")
    parser.add_argument("--deadline", type=float, default=60, help="seconds before the script gives up waiting")
    args = parser.parse_args()

    events = Events(os.environ["LOWBAND_EVENTS"])
    started = time.monotonic()

    def on_message(client, userdata, message):
        try:
            body = json.loads(message.payload)
        except ValueError:
            return
        events.post("bob", "received", body["id"])

    bob, bob_state = device("bob", events, on_message)
    bob.user_data_set(args.qos)
    while not bob_state["connected"] and time.monotonic() - started < args.deadline:
        time.sleep(0.05)

    alice, alice_state = device("alice", events)
    acked = set()
    lock = threading.Lock()
    ids = {}

    def on_publish(client, userdata, mid, reason, properties):
        with lock:
            message = ids.get(mid)
            if message is not None and message not in acked:
                acked.add(message)
                events.post("alice", "acked", message)

    alice.on_publish = on_publish
    while not alice_state["connected"] and time.monotonic() - started < args.deadline:
        time.sleep(0.05)

    for index in range(1, args.messages + 1):
        message = f"m-{index}"
        events.post("alice", "sent", message)
        with lock:
            info = alice.publish(TOPIC, json.dumps({"id": message, "text": f"hello {index}", "padding": "x" * args.size}), qos=args.qos)
            ids[info.mid] = message
        time.sleep(args.interval)

    published = time.monotonic()
    while time.monotonic() - started < args.deadline and time.monotonic() - published < args.ack_wait:
        with lock:
            done = len(acked) == args.messages
        if done:
            break
        time.sleep(0.05)
    last_ack = time.monotonic()
    while time.monotonic() - last_ack < args.linger and time.monotonic() - started < args.deadline:
        time.sleep(0.1)

    for client in (alice, bob):
        client.loop_stop()
        client.disconnect()
    events.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
