import Foundation
import LowbandProcess
import LowbandTestSupport
import Testing

/// The live page as a screenshot shows it: at load and after a profile switch through the API,
/// headless Chromium renders it in a 1280×900 window; the PNGs are decoded (Python's zlib and
/// struct) and must be that size, not blank, and painted with the page's own style (the dark
/// top bar, the green "link up" badge, the styled Switch and Outage buttons: no browser-default
/// controls); the page as served and Chromium's DOM after its scripts ran name the profile
/// before and after, its figures (rate, queue) and the link's queue against the profile's.
/// Meanwhile a bulk download fills the link: its queue never holds more than the profile's
/// queue and a piece, and what the proxy holds beyond it is reported apart.
@Suite(.timeLimit(.minutes(3))) struct LivePageScreenshotTests {
    static let driver = LivePageDriver.prelude + #"""
        import json, socket, struct, subprocess, sys, threading, time, urllib.request, urllib.error, zlib
        lowband, chromium, work = sys.argv[1:4]

        def decode(path):
            # A PNG's pixels, rows of RGB(A) bytes: chunks, inflate, then undo each row's filter.
            data = open(path, "rb").read()
            if data[:8] != b"\x89PNG\r\n\x1a\n": raise SystemExit(path + " is not a PNG")
            pos, idat = 8, b""
            while pos < len(data):
                length, kind = struct.unpack(">I4s", data[pos:pos + 8])
                body = data[pos + 8:pos + 8 + length]
                if kind == b"IHDR": width, height, depth, colour = struct.unpack(">IIBB", body[:10])
                if kind == b"IDAT": idat += body
                pos += 12 + length
            if depth != 8 or colour not in (2, 6): raise SystemExit(f"unexpected PNG format {depth}/{colour}")
            bpp = 3 if colour == 2 else 4
            raw, stride = zlib.decompress(idat), width * bpp
            rows, previous = [], bytearray(stride)
            for r in range(height):
                kind, line = raw[r * (stride + 1)], bytearray(raw[r * (stride + 1) + 1:(r + 1) * (stride + 1)])
                if kind == 1:
                    for i in range(bpp, stride): line[i] = (line[i] + line[i - bpp]) & 255
                elif kind == 2:
                    line = bytearray((a + b) & 255 for a, b in zip(line, previous))
                elif kind == 3:
                    for i in range(stride): line[i] = (line[i] + ((line[i - bpp] if i >= bpp else 0) + previous[i]) // 2) & 255
                elif kind == 4:
                    for i in range(stride):
                        a = line[i - bpp] if i >= bpp else 0; b = previous[i]; c = previous[i - bpp] if i >= bpp else 0
                        p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                        line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
                rows.append(bytes(line)); previous = line
            colours = {}
            for row in rows[::2]:
                for x in range(0, stride, 2 * bpp):
                    key = row[x:x + 3].hex(); colours[key] = colours.get(key, 0) + 1
            return {"width": width, "height": height, "colours": colours, "top_left": rows[5][15:18].hex(), "digest": zlib.crc32(b"".join(rows))}

        # The origin: a bulk download, as fast as the proxy reads it.
        origin = socket.socket(); origin.bind(("127.0.0.1", 0)); origin.listen(4)
        def serve():
            conn, _ = origin.accept()
            try:
                while True: conn.sendall(b"x" * 65536)
            except OSError:
                pass
        threading.Thread(target=serve, daemon=True).start()
        proxy, listen, page, api = start_proxy(lowband, "--upstream", f"127.0.0.1:{origin.getsockname()[1]}", "--profile", "edge", "--seed", "7")
        def app():
            s = socket.create_connection(("127.0.0.1", listen))
            while s.recv(65536): pass
        threading.Thread(target=app, daemon=True).start()

        def get(path):
            return json.load(urllib.request.urlopen(api + path))
        def served():
            return urllib.request.urlopen(page).read().decode()
        def chrome(*arguments):
            return subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                                   "--hide-scrollbars", f"--user-data-dir={work}/chromium-profile", *arguments, page],
                                  capture_output=True, text=True, timeout=90)
        def shoot(name):
            path = f"{work}/{name}.png"
            chrome(f"--screenshot={path}", "--window-size=1280,900")
            return decode(path)
        def dom():
            # After the scripts ran: the virtual time budget lets their first fetches finish.
            return chrome("--virtual-time-budget=4000", "--window-size=1280,900", "--dump-dom").stdout

        result = {"queue_samples": [], "held_samples": []}
        try:
            # The download fills the link's queue: wait until it is (most of) full, then sample it.
            until(lambda: get("/proxies/lowband/connections")["link"].get("queued_downstream_bytes", 0) > 20000)
            for _ in range(40):
                link = get("/proxies/lowband/connections")["link"]
                result["queue_samples"].append(link["queued_downstream_bytes"]); result["held_samples"].append(link["held_bytes"])
                time.sleep(0.05)
            result["link"] = link
            try: urllib.request.urlopen(api + "/record"); result["record_status"] = 200
            except urllib.error.HTTPError as e: result["record_status"] = e.code
            result["served_at_load"] = served()
            result["load"] = shoot("load")
            result["dom_at_load"] = dom()
            post(api, "/proxies/lowband/profile", {"profile": "3g", "seed": 9}).read()
            until(lambda: get("/proxies/lowband")["profile"] == "3g")
            result["served_after_switch"] = served()
            result["switched"] = shoot("switched")
            result["dom_after_switch"] = dom()
        finally:
            proxy.terminate(); proxy.wait(timeout=30)
        print(json.dumps(result))
        """#

    @Test func screenshotsAtLoadAndAfterASwitchShowTheLinkAndItsProfile() async throws {
        let chromium = try #require(Chromium.executable, "no Chromium: run scripts/setup.sh")
        let directory = try TemporaryDirectory(prefix: "lowband-live-screenshots")
        let run = try await ExternalProcess.run("/usr/bin/env", ["python3", "-c", Self.driver, LowbandBinary.path, chromium, directory.url.path])
        try #require(run.status == 0, "\(run.stdoutText)\(run.stderrText)")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(run.stdoutText.utf8)) as? [String: Any], "\(run.stdoutText)")

        // The link's queue holds what edge's 30 KB queue holds, a piece over at most; the
        // download's surplus is held by the proxy and said apart.
        let queue = result["queue_samples"] as? [Int] ?? []
        let held = result["held_samples"] as? [Int] ?? []
        #expect(!queue.isEmpty && queue.allSatisfy { $0 <= 30_000 + 1_500 }, "\(queue)")
        #expect(zip(queue, held).allSatisfy { $0 <= $1 }, "\(queue) \(held)")
        let link = try #require(result["link"] as? [String: Any])
        let downlink = try #require(link["downlink"] as? [String: Any], "\(link)")
        #expect(downlink["rate"] as? String == "150 kbit/s" && downlink["queue"] as? String == "30 KB" && downlink["queue_bytes"] as? Int == 30_000, "\(downlink)")

        // At load, as served: the badge, the profile, its figures, the queue against it, no record control.
        let atLoad = try #require(result["served_at_load"] as? String)
        #expect(atLoad.contains(#"<span id="link" class="badge up">link up</span>"#), "\(atLoad)")
        #expect(atLoad.contains(#"<span id="profile" class="profile">edge, seed 7</span>"#))
        #expect(atLoad.contains(#"<td id="down-rate">150 kbit/s</td>"#) && atLoad.contains(#"<td id="down-delay">200 ms</td>"#))
        #expect(atLoad.contains(#"<td id="down-loss">1%</td>"#) && atLoad.contains(#"<td id="down-queue-limit">30 KB</td>"#))
        #expect(atLoad.contains(#"<td id="up-rate">60 kbit/s</td>"#))
        #expect(atLoad.range(of: #"<span id="down-queue">[0-9.]+ of 30 KB</span>"#, options: .regularExpression) != nil, "\(atLoad)")
        #expect(atLoad.contains("held by the proxy: "))
        #expect(result["record_status"] as? Int == 404)
        #expect(!atLoad.contains(#"id="record""#), "no record runs: no record control")
        // …and after the scripts ran: the same, and what only the script writes.
        let domAtLoad = try #require(result["dom_at_load"] as? String)
        #expect(domAtLoad.contains(#"<span id="profile" class="profile">edge, seed 7</span>"#), "\(domAtLoad)")
        #expect(domAtLoad.range(of: #"<span id="legend-down">downlink [0-9.]+ (k|M)?bit/s \(last 1 s\)</span>"#, options: .regularExpression) != nil, "\(domAtLoad)")
        #expect(domAtLoad.contains(#"class="rate down""#), "the chart draws edge's downlink rate")
        #expect(!domAtLoad.contains(#"id="record""#))

        // After the switch to 3g, seed 9: served and in the DOM.
        let after = try #require(result["served_after_switch"] as? String)
        #expect(after.contains(#"<span id="profile" class="profile">3g, seed 9</span>"#), "\(after)")
        #expect(after.contains(#"<td id="down-queue-limit">64 KB</td>"#), "\(after)")
        #expect(after.contains(#"<option selected>3g</option>"#))
        let domAfter = try #require(result["dom_after_switch"] as? String)
        #expect(domAfter.contains(#"<span id="profile" class="profile">3g, seed 9</span>"#), "\(domAfter)")
        #expect(domAfter.contains(#"<span id="profile-name">3g</span>"#))

        // The screenshots: 1280×900, not blank, in the page's own colours, and not the same picture.
        for name in ["load", "switched"] {
            let image = try #require(result[name] as? [String: Any], "\(name)")
            #expect(image["width"] as? Int == 1280 && image["height"] as? Int == 900, "\(name): \(image["width"] ?? "?")×\(image["height"] ?? "?")")
            let colours = image["colours"] as? [String: Int] ?? [:]
            #expect(colours.count > 20, "\(name): \(colours.count) colours: blank?")
            #expect(image["top_left"] as? String == "22272e", "\(name): the top bar is dark")
            for (colour, what) in [("f2f4f7", "the page's grey"), ("d9f2df", "the 'link up' badge"), ("0b5cab", "the Switch button"), ("b3261e", "the Outage button")] {
                #expect((colours[colour] ?? 0) > 10, "\(name): no \(what) (#\(colour))")
            }
        }
        let load = result["load"] as? [String: Any], switched = result["switched"] as? [String: Any]
        #expect(load?["digest"] as? Int != switched?["digest"] as? Int, "the switch changed the picture")
    }

    /// The record's switch is offered only when `--record` was given, and then it works.
    @Test func theRecordSwitchIsOfferedOnlyWithARecordAndWorks() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-live-record")
        let driver = LivePageDriver.prelude + #"""
            import json, sys, urllib.request
            lowband, record = sys.argv[1:3]
            proxy, _, page, api = start_proxy(lowband, "--upstream", "127.0.0.1:9", "--profile", "edge", "--record", record)
            result = {}
            try:
                result["before"] = urllib.request.urlopen(page).read().decode()
                answer = post(api, "/record", {"paused": True}, {"X-Lowband-Token": page.split("token=")[1]})
                result["status"] = answer.status; result["answer"] = json.load(answer)
                result["after"] = urllib.request.urlopen(page).read().decode()
            finally:
                proxy.terminate(); proxy.wait(timeout=30)
            print(json.dumps(result))
            """#
        let run = try await ExternalProcess.run("/usr/bin/env", ["python3", "-c", driver, LowbandBinary.path, directory.file("record")])
        try #require(run.status == 0, "\(run.stdoutText)\(run.stderrText)")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(run.stdoutText.utf8)) as? [String: Any], "\(run.stdoutText)")
        let before = try #require(result["before"] as? String)
        #expect(before.contains(#"<span id="record-state" class="dot on">recording</span><button id="record" type="button" class="button">Pause record</button>"#), "\(before)")
        #expect(result["status"] as? Int == 200)
        #expect((result["answer"] as? [String: Any])?["paused"] as? Bool == true, "\(result)")
        let after = try #require(result["after"] as? String)
        #expect(after.contains(#"<span id="record-state" class="dot off">record paused</span><button id="record" type="button" class="button">Resume record</button>"#), "\(after)")
    }
}
