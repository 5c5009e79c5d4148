import Foundation
package import LowbandProcess

/// Finds executables that SwiftPM built into the same directory as the running tests.
package enum BuiltProducts {
    /// The path of the product `executableName` (e.g. `lowband`), found by walking up from the
    /// test binary's location (`.build/<triple>/debug/lowband`).
    ///
    /// `swift test` builds every product first. When none is found, the result is the path where
    /// it was expected, so running it fails with a message
    /// naming it.
    package static func path(of executableName: String) -> String {
        let starts = startDirectories()
        for start in starts {
            var directory = start
            while true {
                let candidate = directory.appendingPathComponent(executableName).path
                if ExternalProcess.which(candidate) != nil { return candidate }
                let parent = directory.deletingLastPathComponent()
                if parent.path == directory.path { break }
                directory = parent
            }
        }
        let expected = (starts.first ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            .appendingPathComponent(executableName).path
        return expected
    }

    private static func startDirectories() -> [URL] {
        var urls: [URL] = []
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        if let argument = CommandLine.arguments.first {
            urls.append(URL(fileURLWithPath: argument, relativeTo: current).standardizedFileURL.deletingLastPathComponent())
        }
        if let executable = Bundle.main.executableURL {
            urls.append(executable.deletingLastPathComponent())
        }
        urls.append(Bundle.main.bundleURL)
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            urls.append(bundle.bundleURL.deletingLastPathComponent())
        }
        return urls
    }
}

/// The `lowband` binary SwiftPM built for these tests, the one way tests run it: to its end
/// (``run(_:stdin:environment:)``) or kept running (``start(_:environment:)``).
package enum LowbandBinary {
    /// Where the binary is (``BuiltProducts/path(of:)``), for a test that hands it to another
    /// program (a Python script, `lowband startup`).
    package static var path: String { BuiltProducts.path(of: "lowband") }

    /// Runs `lowband` with `arguments` and waits for it to exit.
    package static func run(_ arguments: [String], stdin: [UInt8] = [], environment: [String: String]? = nil) async throws -> ExternalProcess.Result {
        try await ExternalProcess.run(path, arguments, stdin: stdin, environment: environment)
    }

    /// Starts `lowband` with `arguments`, read line by line and stopped with signals.
    package static func start(_ arguments: [String], environment: [String: String]? = nil) async throws -> ChildProcess {
        try await ChildProcess(path, arguments, environment: environment)
    }
}
