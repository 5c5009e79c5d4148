import Foundation
import LowbandProcess
import LowbandTestSupport
import Testing

/// The live page's first view is rendered by the server: the page as served, before any script
/// has fetched anything (what a screenshot at load shows), holds the proxy's real profile and
/// seed, the link's state (up, then the outage forced through the API, and until when), its
/// queues against the profile's, and no record control when no record runs; headless
/// Chromium's DOM after load agrees.
@Suite(.timeLimit(.minutes(2))) struct LivePageFirstViewTests {
    static let driver = LivePageDriver.prelude + #"""
        import json, subprocess, sys, urllib.request
        lowband, chromium, work = sys.argv[1:4]
        proxy, _, page, api = start_proxy(lowband, "--upstream", "127.0.0.1:9", "--profile", "edge", "--seed", "7")
        def served():
            # The page as the server rendered it, before any script ran.
            return urllib.request.urlopen(page).read().decode()
        def dom():
            return subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                   f"--user-data-dir={work}/profile", "--dump-dom", page],
                                  capture_output=True, text=True, timeout=60).stdout
        result = {}
        try:
            result["at_load"] = served()
            result["browser"] = dom()
            post(api, "/proxies/lowband/outage", {"seconds": 60}).read()
            result["during_outage"] = served()
        finally:
            proxy.terminate(); proxy.wait(timeout=30)
        print(json.dumps(result))
        """#

    @Test func aBrowserBeforeItsScriptsSeesTheLinkAsItIs() async throws {
        let chromium = try #require(Chromium.executable, "no Chromium: run scripts/setup.sh")
        let directory = try TemporaryDirectory(prefix: "lowband-live-first-view")
        let run = try await ExternalProcess.run("/usr/bin/env", ["python3", "-c", Self.driver, LowbandBinary.path, chromium, directory.url.path])
        try #require(run.status == 0, "\(run.stdoutText)\(run.stderrText)")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(run.stdoutText.utf8)) as? [String: String], "\(run.stdoutText)")
        let atLoad = try #require(result["at_load"])
        #expect(atLoad.contains(#"<span id="profile" class="profile">edge, seed 7</span>"#), "\(atLoad)")
        #expect(atLoad.contains(#"<span id="link" class="badge up">link up</span>"#))
        #expect(atLoad.contains(#"<select id="proxy"><option selected>lowband</option></select>"#), "\(atLoad)")
        #expect(atLoad.contains(#"<span id="down-queue">0 of 30 KB</span>"#) && atLoad.contains(#"<span id="up-queue">0 of 30 KB</span>"#), "\(atLoad)")
        #expect(!atLoad.contains(#"id="record""#), "no record runs, so no record control is offered")
        // Chromium, its scripts run, shows the same.
        let browser = try #require(result["browser"])
        #expect(browser.contains(#"<span id="profile" class="profile">edge, seed 7</span>"#), "\(browser)")
        #expect(!browser.contains(#"id="record""#))
        let during = try #require(result["during_outage"])
        #expect(during.contains(#"<span id="link" class="badge down">outage until "#), "\(during)")
    }
}
