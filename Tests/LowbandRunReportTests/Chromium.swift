import Foundation
import LowbandProcess
import LowbandTestSupport

/// Headless Chromium as the tests drive it: one isolated profile directory per run, output
/// collected, every wait bounded.
struct Chromium {
    /// The browser found in PATH (Debian names it `chromium`), nil when none is installed.
    static let executable: String? = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]
        .lazy.compactMap(ExternalProcess.which).first

    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    let executable: String
    let workDirectory: URL

    /// Loads `page` and returns the DOM as Chromium serialises it after parsing and running it.
    func dumpDOM(of page: URL) async throws -> Output {
        try await run(["--dump-dom", page.absoluteString])
    }

    /// Renders `page` in a `width`×`height` window and writes a PNG of the viewport to `image`.
    func screenshot(of page: URL, to image: URL, width: Int, height: Int) async throws -> Output {
        try await run(["--screenshot=\(image.path)", "--window-size=\(width),\(height)", "--hide-scrollbars", page.absoluteString])
    }

    private func run(_ arguments: [String]) async throws -> Output {
        // Root in a container cannot use Chromium's sandbox; the page is our own file.
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
