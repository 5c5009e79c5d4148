import Foundation

/// Finds a program the way a shell does: a name with a `/` is a path, any other is looked up
/// on `PATH`.
package enum ExecutableSearch {
    /// Why there is no program to start.
    package struct NotFound: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// The path of the program `name`.
    ///
    /// - Throws: ``NotFound`` naming what is missing: the file, its execute permission, or a
    ///   program of that name on `PATH`.
    package static func resolve(_ name: String) throws(NotFound) -> String {
        if name.contains("/") {
            guard FileManager.default.fileExists(atPath: name) else { throw NotFound(description: "cannot start \(name): no such file") }
            guard isExecutableFile(name) else { throw NotFound(description: "cannot start \(name): not an executable file") }
            return name
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            if isExecutableFile(candidate) { return candidate }
        }
        throw NotFound(description: "cannot start \(name): not found on PATH")
    }

    /// The path of the program `name`, or nil when there is none (``resolve(_:)`` says why).
    package static func which(_ name: String) -> String? {
        try? resolve(name)
    }

    private static func isExecutableFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            && !isDirectory.boolValue
            && FileManager.default.isExecutableFile(atPath: path)
    }
}
