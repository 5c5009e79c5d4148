import Foundation

/// Finds a program the way a shell does: a name with a `/` is a path, any other is looked up
/// on `PATH`.
package enum ExecutableSearch {
    package struct NotFound: Error, CustomStringConvertible {
        package var description: String
    }

    package static func resolve(_ name: String) throws(NotFound) -> String {
        let files = FileManager.default
        if name.contains("/") {
            guard files.fileExists(atPath: name) else { throw NotFound(description: "cannot start \(name): no such file") }
            guard files.isExecutableFile(atPath: name) else { throw NotFound(description: "cannot start \(name): not executable") }
            return name
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            if files.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw NotFound(description: "cannot start \(name): not found on PATH")
    }
}
