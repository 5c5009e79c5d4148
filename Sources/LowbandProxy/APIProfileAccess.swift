import Foundation
import LowbandProfiles
import LowbandShaper

/// Which profiles a control API request may load: names looked up on the profile search path,
/// and `.yaml`/`.yml` files under directories the operator allowed (`--api-profile-dir`).
///
/// A request never makes the proxy read another file: a path outside those directories is
/// refused before anything is opened, symbolic links and `..` resolved first.
public struct APIProfileAccess: Sendable, Hashable {
    /// Directories whose profile files (and those of their subdirectories) requests may name.
    public var directories: [String]

    /// Access to the profile files in `directories` (none: names only).
    public init(directories: [String] = []) {
        self.directories = directories
    }

    /// Whether a request may load `requested`: a profile name, or a file under an allowed
    /// directory.
    public func allows(_ requested: String) -> Bool {
        guard NetworkProfile.isPath(requested) else { return !requested.isEmpty }
        guard requested.hasSuffix(".yaml") || requested.hasSuffix(".yml") else { return false }
        let file = Self.resolved(requested)
        return directories.contains { directory in
            let root = Self.resolved(directory)
            return file.hasPrefix(root.hasSuffix("/") ? root : root + "/")
        }
    }

    /// The absolute path with `.`/`..` and symbolic links resolved.
    private static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
