package import Foundation
import LowbandProcess

/// Headless Chromium as the tests drive it: one isolated profile directory per run, output
/// collected, every wait bounded. The report tests read Lowband's HTML through it, the proxy
/// tests load pages through the proxy's front doors with it.
package struct Chromium: Sendable {
    /// The browser found in PATH (Debian names it `chromium`), nil when none is installed.
    package static let executable: String? = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]
        .lazy.compactMap(ExternalProcess.which).first

    package struct Output: Sendable {
        package var status: Int32
        package var stdout: String
        package var stderr: String
    }

    package let executable: String
    package let workDirectory: URL

    package init(executable: String, workDirectory: URL) {
        self.executable = executable
        self.workDirectory = workDirectory
    }

    /// Loads `page` and returns the DOM as Chromium serialises it after parsing and running it
    /// (after the page's load event); `arguments` go before the page (a proxy, a window size).
    package func dumpDOM(of page: URL, arguments: [String] = []) async throws -> Output {
        try await run(arguments + ["--dump-dom", page.absoluteString])
    }

    /// Renders `page` in a `width`×`height` window and writes a PNG of the viewport to `image`.
    package func screenshot(of page: URL, to image: URL, width: Int, height: Int) async throws -> Output {
        try await run(["--screenshot=\(image.path)", "--window-size=\(width),\(height)", "--hide-scrollbars", page.absoluteString])
    }

    private func run(_ arguments: [String]) async throws -> Output {
        // Root in a container cannot use Chromium's sandbox; the pages are our own.
        let common = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
            "--disable-extensions", "--user-data-dir=\(workDirectory.appendingPathComponent("chromium-profile").path)",
        ]
        let child = try await ChildProcess(executable, common + arguments)
        var lines: [String] = []
        while let line = try await child.nextLine(timeout: .seconds(120)) { lines.append(line) }
        let status = try await child.exitStatus(timeout: .seconds(120))
        return Output(status: status, stdout: lines.joined(separator: "\n"), stderr: child.stderrText)
    }
}
