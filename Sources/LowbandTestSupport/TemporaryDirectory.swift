public import Foundation

/// A fresh directory under the system's temporary directory, removed with everything in it
/// when the value is released: the one way Lowband's tests get a place for files.
///
/// ```swift
/// let directory = try TemporaryDirectory(prefix: "lowband-run")
/// let csv = directory.file("results.csv")
/// ```
public final class TemporaryDirectory: Sendable {
    /// The directory's absolute path.
    public let path: String

    /// Makes the directory `<system temporary directory>/<prefix>-<UUID>`.
    public init(prefix: String = "lowband-test") throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the directory (the file need not exist).
    public func file(_ name: String) -> String { "\(path)/\(name)" }

    /// The URL of the directory.
    public var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// The names in the directory, sorted.
    public func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
