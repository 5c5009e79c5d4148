import Foundation
import LowbandShaper

/// The directories where profiles are looked up by name, before the shipped ones
/// (``ShippedProfiles``).
///
/// In order: each directory in the environment variable `LOWBAND_PROFILES` (colon-separated),
/// then `./profiles`. Only directories that exist are kept, each once. The shipped profiles are
/// compiled into the library, so nothing walks the file system looking for them.
public enum ProfileDirectory {
    /// The environment variable naming extra profile directories, colon-separated.
    public static let environmentVariable = "LOWBAND_PROFILES"

    /// The search path for the given process facts; pure apart from checking which directories exist.
    public static func searchPath(environment: [String: String], currentDirectory: String) -> [String] {
        var candidates: [String] = []
        if let variable = environment[environmentVariable] {
            for entry in variable.split(separator: ":", omittingEmptySubsequences: true) {
                candidates.append(absolute(String(entry), from: currentDirectory))
            }
        }
        candidates.append(absolute("profiles", from: currentDirectory))
        var result: [String] = []
        for candidate in candidates where isDirectory(candidate) && !result.contains(candidate) {
            result.append(candidate)
        }
        return result
    }

    /// The search path of this process: its environment and working directory.
    public static func searchPath() -> [String] {
        searchPath(environment: ProcessInfo.processInfo.environment, currentDirectory: FileManager.default.currentDirectoryPath)
    }

    private static func absolute(_ path: String, from directory: String) -> String {
        let joined = path.hasPrefix("/") ? path : (directory as NSString).appendingPathComponent(path)
        return (joined as NSString).standardizingPath
    }

    private static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }
}
