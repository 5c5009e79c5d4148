/// What the live page tests' Python drivers share, put before each driver's own lines: starting
/// `lowband proxy` (its API on a free port) and reading its listen port and live page address
/// from what it prints, POSTing JSON to the control API, and waiting for a condition.
enum LivePageDriver {
    /// Defines `start_proxy(lowband, *arguments)` → `(proxy, listen, page, api)`,
    /// `post(api, path, body, headers={})` → the answer, and `until(condition, seconds=30)`.
    static let prelude = #"""
        import json, subprocess, threading, time, urllib.request

        def start_proxy(lowband, *arguments):
            # The proxy's stderr names its port and its live page (with the token); it is read to
            # the end afterwards, so the proxy never blocks on a full pipe.
            proxy = subprocess.Popen([lowband, "proxy", "--listen", "127.0.0.1:0", "--api", "127.0.0.1:0", *arguments],
                                     stderr=subprocess.PIPE, text=True)
            listen = page = None
            while page is None:
                line = proxy.stderr.readline()
                if not line: raise SystemExit("lowband proxy ended before printing its live page")
                if "listening on" in line and line.startswith("proxy lowband"): listen = int(line.split("listening on ")[1].split(" ")[0].rsplit(":", 1)[1])
                if line.startswith("live page: "): page = line[len("live page: "):].strip()
            threading.Thread(target=lambda: [None for _ in proxy.stderr], daemon=True).start()
            return proxy, listen, page, page.split("/ui?")[0]

        def post(api, path, body, headers={}):
            return urllib.request.urlopen(urllib.request.Request(api + path, data=json.dumps(body).encode(), method="POST",
                                                                 headers={"Content-Type": "application/json", **headers}))

        def until(condition, seconds=30):
            deadline = time.time() + seconds
            while time.time() < deadline:
                value = condition()
                if value: return value
                time.sleep(0.05)
            raise SystemExit("timed out waiting")

        """#
}
