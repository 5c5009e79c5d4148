import Foundation
import LowbandProcess
import LowbandTestSupport
import Testing

/// The live page (`/ui?token=…`) as a user meets it: `lowband proxy` prints its address, headless
/// Chromium opens it, a connection carrying a steady download appears, "Outage now" darkens the
/// link and the connection's lane and the download stalls, then it resumes; the API still refuses
/// a browser without the token. Chromium is driven over its DevTools pipe by a Python script
/// (the standard library only), which also plays the origin and the app.
@Suite(.timeLimit(.minutes(2))) struct LivePageTests {
    static let driver = LivePageDriver.prelude + #"""
        import json, os, socket, subprocess, sys, threading, time, urllib.request, urllib.error
        lowband, chromium, work = sys.argv[1:4]
        result = {}

        # The origin: 1,000 bytes every 50 ms to whoever connects, for a minute.
        origin = socket.socket(); origin.bind(("127.0.0.1", 0)); origin.listen(4)
        def serve():
            conn, _ = origin.accept()
            try:
                for _ in range(1200):
                    conn.sendall(b"x" * 1000); time.sleep(0.05)
            except OSError:
                pass
        threading.Thread(target=serve, daemon=True).start()

        proxy, listen, page, api = start_proxy(lowband, "--upstream", f"127.0.0.1:{origin.getsockname()[1]}", "--profile", "perfect")
        result["page"] = page

        # The app: reads the download through the proxy and counts it.
        received = [0]
        def app():
            s = socket.create_connection(("127.0.0.1", listen))
            while True:
                data = s.recv(65536)
                if not data: break
                received[0] += len(data)
        threading.Thread(target=app, daemon=True).start()

        # A browser without the token is refused; with it, served.
        def status(path, headers):
            try: return urllib.request.urlopen(urllib.request.Request(api + path, headers=headers)).status
            except urllib.error.HTTPError as e: return e.code
        mozilla = {"User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/120"}
        token = page.split("token=")[1]
        result["browser_without_token"] = status("/proxies", mozilla)
        result["browser_with_token"] = status("/proxies", {**mozilla, "X-Lowband-Token": token})
        result["browser_wrong_token"] = status("/proxies", {**mozilla, "X-Lowband-Token": "0" * 32})
        result["page_without_token"] = status("/ui", {})
        result["cross_site_with_token"] = status("/proxies", {**mozilla, "X-Lowband-Token": token, "Origin": "http://evil.example"})

        # Chromium over its DevTools pipe: commands on fd 3, answers on fd 4, NUL-separated JSON.
        to_chrome, chrome_in = os.pipe(); chrome_out, from_chrome = os.pipe()
        def wire():
            os.dup2(to_chrome, 3); os.dup2(from_chrome, 4)
        chrome = subprocess.Popen([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                                   "--remote-debugging-pipe", f"--user-data-dir={work}/chromium-profile", "about:blank"],
                                  pass_fds=(3, 4), preexec_fn=wire, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome); os.close(from_chrome)
        counter = [0]; buffer = [b""]
        def send(method, params=None, session=None):
            counter[0] += 1
            message = {"id": counter[0], "method": method, "params": params or {}}
            if session: message["sessionId"] = session
            os.write(chrome_in, json.dumps(message).encode() + b"\0")
            while True:
                while b"\0" in buffer[0]:
                    raw, buffer[0] = buffer[0].split(b"\0", 1)
                    answer = json.loads(raw)
                    if answer.get("id") == counter[0]:
                        if "error" in answer: raise RuntimeError(f"{method}: {answer['error']}")
                        return answer["result"]
                chunk = os.read(chrome_out, 1 << 16)
                if not chunk: raise RuntimeError("Chromium closed its pipe")
                buffer[0] += chunk
        target = send("Target.createTarget", {"url": page})["targetId"]
        session = send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        def js(expression):
            answer = send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True}, session)
            return answer["result"].get("value")
        def until(expression, seconds=20):
            deadline = time.time() + seconds
            while time.time() < deadline:
                value = js(expression)
                if value: return value
                time.sleep(0.1)
            raise RuntimeError("timed out waiting for: " + expression)
        try:
            until('document.querySelector(\'tr[data-number="1"]\') !== null')
            result["row"] = js('document.querySelector(\'tr[data-number="1"]\').textContent')
            result["badge_before"] = js('document.getElementById("link").textContent')
            first = received[0]; time.sleep(0.6); result["flowing"] = received[0] > first
            js('document.getElementById("outage-seconds").value = "6"; document.getElementById("outage").click(); true')
            until('document.getElementById("link").classList.contains("down") && document.querySelector(\'.lane[data-number="1"]\').classList.contains("dark")')
            result["badge_during"] = js('document.getElementById("link").textContent')
            result["queue"] = js('document.getElementById("down-queue").textContent')
            time.sleep(0.3)
            held = received[0]; time.sleep(2.0); result["stalled"] = [held, received[0]]
            result["outage_drawn"] = js('document.querySelectorAll(".lane.link rect.outage").length')
            until('document.getElementById("link").classList.contains("up")', 15)
            resumed = received[0]; time.sleep(0.6); result["resumed"] = received[0] > resumed
            result["lane_after"] = js('document.querySelector(\'.lane[data-number="1"]\').className')
            result["status_line"] = js('document.getElementById("status").textContent')
            result["page_fetch_without_token"] = js('fetch("/proxies").then((r) => r.status)')
            # A toxic through the form, then the seed switched, then the connection reset.
            js('document.getElementById("toxic-name").value = "slow"; document.getElementById("toxic-attributes").value = \'{"latency": 300}\'; document.getElementById("add-toxic").requestSubmit(); true')
            result["toxic_row"] = until('Array.from(document.querySelectorAll("#toxics tbody tr")).map((r) => r.textContent).filter((t) => t.startsWith("slow")).join("|")')
            js('document.getElementById("seed").value = "9"; document.getElementById("switch").requestSubmit(); true')
            result["profile_after"] = until('document.getElementById("profile").textContent.endsWith("seed 9") && document.getElementById("profile").textContent')
            js('document.querySelector(\'button[data-reset="1"]\').click(); true')
            until('document.querySelector(\'tr[data-number="1"]\') === null')
            result["api_connections_after_reset"] = json.load(urllib.request.urlopen(api + "/proxies/lowband/connections"))["connections"]
            # Switched to 3g through the form: the header shows the device's radio, and the API
            # says the same.
            result["radio_before"] = js('document.getElementById("radio").textContent')
            js('document.getElementById("profiles").value = "3g"; document.getElementById("switch").requestSubmit(); true')
            result["radio"] = until('document.getElementById("radio").textContent.startsWith("radio ") && document.getElementById("radio").textContent')
            result["api_link"] = json.load(urllib.request.urlopen(api + "/proxies/lowband/connections"))["link"]
        finally:
            chrome.kill(); proxy.terminate(); proxy.wait(timeout=30)
        print(json.dumps(result))
        """#

    @Test func aBrowserWithTheTokenSeesAConnectionAndForcesAnOutage() async throws {
        let browser = try #require(Chromium.executable, "no Chromium: run scripts/setup.sh")
        let directory = try TemporaryDirectory(prefix: "lowband-live-page")
        let run = try await ExternalProcess.run("/usr/bin/env", ["python3", "-c", Self.driver, LowbandBinary.path, browser, directory.url.path])
        try #require(run.status == 0, "\(run.stdoutText)\(run.stderrText)")
        let parsed = try JSONSerialization.jsonObject(with: Data(run.stdoutText.utf8))
        let result = try #require(parsed as? [String: Any], "\(run.stdoutText)")
        #expect((result["page"] as? String)?.contains("/ui?token=") == true)
        #expect(result["browser_without_token"] as? Int == 403)
        #expect(result["browser_wrong_token"] as? Int == 403)
        #expect(result["cross_site_with_token"] as? Int == 403)
        #expect(result["page_without_token"] as? Int == 403)
        #expect(result["browser_with_token"] as? Int == 200)
        #expect((result["row"] as? String)?.contains("open") == true, "\(result)")
        #expect(result["badge_before"] as? String == "link up")
        #expect(result["flowing"] as? Bool == true)
        #expect((result["badge_during"] as? String)?.hasPrefix("outage until") == true, "\(result)")
        // Nothing arrives while the link is down: the app's count stands still for 2 s.
        let stalled = result["stalled"] as? [Int] ?? []
        #expect(stalled.count == 2 && stalled[0] == stalled[1], "\(stalled)")
        #expect((result["outage_drawn"] as? Int ?? 0) >= 1)
        // The link's queue against perfect's 1 MB.
        #expect((result["queue"] as? String)?.hasSuffix(" of 1 MB") == true, "\(result)")
        #expect(result["resumed"] as? Bool == true)
        #expect(result["lane_after"] as? String == "lane")
        #expect(result["page_fetch_without_token"] as? Int == 403)
        #expect((result["status_line"] as? String)?.contains("outage: POST /proxies/lowband/outage → done") == true, "\(result)")
        #expect((result["toxic_row"] as? String)?.hasPrefix("slowlatencydownstream1") == true, "\(result)")
        #expect(result["profile_after"] as? String == "perfect, seed 9", "\(result)")
        // Reset: gone from the page and from the proxy.
        #expect((result["api_connections_after_reset"] as? [Any])?.isEmpty == true, "\(result)")
        // The radio: nothing on perfect; on 3g the radio starts in CELL_DCH (5 s there) and has
        // drawn 0.8 W since the switch.
        #expect(result["radio_before"] as? String == "", "\(result)")
        let radio = try #require(result["radio"] as? String, "\(result)")
        #expect(radio.hasPrefix("radio CELL_DCH, ") && radio.hasSuffix(" J"), "\(radio)")
        let link = try #require(result["api_link"] as? [String: Any], "\(result)")
        #expect(link["radio_state"] as? String == "CELL_DCH" || link["radio_state"] as? String == "CELL_FACH", "\(link)")
        #expect((link["radio_joules"] as? Double ?? -1) >= 0, "\(link)")
    }
}
