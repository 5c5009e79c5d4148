import Foundation
import LowbandProfiles
public import LowbandShaper

/// Finds the repository's `profiles/` from wherever the harness runs: the benchmark plugin
/// (whose working directory and executable live elsewhere), `swift test`, or a copied binary.
public enum PushBenchProfiles {
    /// This file's path when it was compiled; the repository root is found above it.
    private static let sourceFile = #filePath

    /// The nearest directory above this source file holding both `Package.swift` and
    /// `profiles/`; nil when the sources are no longer where they were compiled.
    public static var repositoryRoot: String? {
        var directory = (sourceFile as NSString).deletingLastPathComponent
        while directory.count > 1 {
            let manifest = (directory as NSString).appendingPathComponent("Package.swift")
            let profiles = (directory as NSString).appendingPathComponent("profiles")
            if FileManager.default.fileExists(atPath: manifest), isDirectory(profiles) {
                return directory
            }
            directory = (directory as NSString).deletingLastPathComponent
        }
        return nil
    }

    /// Where profiles are looked up, first hit wins: `LOWBAND_PROFILES` when set (so a user can
    /// point the benchmark at other figures), then the repository's `profiles/`, then the
    /// loader's usual places (working directory, above the executable).
    public static func searchPath() -> [String] {
        let usual = ProfileDirectory.searchPath()
        let repository = repositoryRoot.map { [($0 as NSString).appendingPathComponent("profiles")] } ?? []
        let overridden = ProcessInfo.processInfo.environment[ProfileDirectory.environmentVariable] != nil
        var result: [String] = []
        for directory in overridden ? usual + repository : repository + usual where !result.contains(directory) {
            result.append(directory)
        }
        return result
    }

    /// Loads `profiles/<name>.yaml` through the shaper's profile loader (or a file, when `name`
    /// is a path).
    ///
    /// - Throws: ``PushBenchError`` `.profileNotFound` carrying the loader's reason, which lists
    ///   the directories searched and the names that exist.
    public static func load(_ name: String) throws(PushBenchError) -> NetworkProfile {
        do {
            return try NetworkProfile.load(named: name, searchPath: searchPath())
        } catch {
            throw PushBenchError(.profileNotFound, "cannot load profile '\(name)': \(error)")
        }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }
}
