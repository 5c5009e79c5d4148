"""Posts an app's events to Lowband (docs/APP-EVENTS.md): JSON lines to the URL in
LOWBAND_EVENTS, in order, from a background thread so a slow control API never blocks the app's
own network loop. The example apps import it; an app of yours can copy it as it is."""
import json
import sys
import threading
import urllib.request


class Events:
    """One poster per app: `post(device, kind, message=None, chat="c-1")`, then `close()`."""

    def __init__(self, url):
        self.url = url
        self.lock = threading.Condition()
        self.queue = []
        self.closed = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def post(self, device, kind, message=None, chat="c-1"):
        event = {"device": device, "kind": kind, "chat": chat}
        if message is not None:
            event["message"] = message
        with self.lock:
            self.queue.append(event)
            self.lock.notify()

    def _run(self):
        while True:
            with self.lock:
                while not self.queue and not self.closed:
                    self.lock.wait()
                if not self.queue and self.closed:
                    return
                batch, self.queue = self.queue, []
            body = "".join(json.dumps(e) + "\n" for e in batch).encode()
            request = urllib.request.Request(self.url, data=body, method="POST", headers={"Content-Type": "application/x-ndjson"})
            try:
                urllib.request.urlopen(request, timeout=5).read()
            except Exception as error:  # the verdict will lack these events; say so
                print(f"lowband_events: could not post {len(batch)} event(s): {error}", file=sys.stderr)

    def close(self):
        with self.lock:
            self.closed = True
            self.lock.notify()
        self.thread.join(timeout=10)
