import Foundation

/// Where profiles are looked up by name.
///
/// In order: each directory in the environment variable `LOWBAND_PROFILES` (colon-separated),
/// then `./profiles`, then the first `profiles` directory found walking up from the directory of
/// the running executable — so `.build/debug/lowband` finds the repository's `profiles/` from
/// anywhere. Only directories that exist are kept, each once.
public enum ProfileDirectory {
    public static let environmentVariable = "LOWBAND_PROFILES"

    /// The search path for the given process facts; pure apart from checking which directories exist.
    public static func searchPath(environment: [String: String], currentDirectory: String, executablePath: String?) -> [String] {
        var candidates: [String] = []
        if let variable = environment[environmentVariable] {
            for entry in variable.split(separator: ":", omittingEmptySubsequences: true) {
                candidates.append(absolute(String(entry), from: currentDirectory))
            }
        }
        candidates.append(absolute("profiles", from: currentDirectory))
        if let executablePath {
            var directory = (absolute(executablePath, from: currentDirectory) as NSString).deletingLastPathComponent
            while !directory.isEmpty {
                let candidate = (directory as NSString).appendingPathComponent("profiles")
                if isDirectory(candidate) {
                    candidates.append(candidate)
                    break
                }
                let parent = (directory as NSString).deletingLastPathComponent
                if parent == directory { break }
                directory = parent
            }
        }
        var result: [String] = []
        for candidate in candidates where isDirectory(candidate) && !result.contains(candidate) {
            result.append(candidate)
        }
        return result
    }

    /// The search path of this process: its environment, working directory and executable.
    public static func searchPath() -> [String] {
        let executable = Bundle.main.executableURL?.resolvingSymlinksInPath().path
        return searchPath(
            environment: ProcessInfo.processInfo.environment,
            currentDirectory: FileManager.default.currentDirectoryPath,
            executablePath: executable
        )
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
