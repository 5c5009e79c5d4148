package import Foundation

/// Byte captures committed under Tests/Recordings, used as golden files.
///
/// A capture is re-recorded by running the tests with `LOWBAND_RECORD=1`, which writes the
/// current bytes instead of comparing (then review the diff before committing it).
package enum RecordedStreams {
    package static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Recordings")

    package static func load(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// Writes `bytes` as the capture `name` when `LOWBAND_RECORD=1`; returns whether it did.
    @discardableResult
    package static func recordIfAsked(_ name: String, _ bytes: [UInt8]) throws -> Bool {
        guard ProcessInfo.processInfo.environment["LOWBAND_RECORD"] == "1" else { return false }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(bytes).write(to: directory.appendingPathComponent(name))
        return true
    }
}
