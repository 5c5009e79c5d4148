import Foundation
import LowbandBasics
public import LowbandShaper

extension NetworkProfile {
    /// Reads the profile file at `path`; its name is the file name without `.yaml`/`.yml`.
    ///
    /// A `trace:` path in it is resolved against the file's directory.
    /// - Throws: `ProfileError` naming the file, the key and the reason.
    public init(contentsOf path: String) throws(ProfileError) {
        let data = try BoundedFileRead.read(path, maximumBytes: BoundedFileRead.maximumProfileBytes, what: "profile")
        let directory = (path as NSString).deletingLastPathComponent
        try self.init(yaml: String(decoding: data, as: UTF8.self), name: Self.name(ofFile: path), file: path, directory: directory.isEmpty ? "." : directory)
    }

    /// Parses profile YAML held in memory; `file` is only used in error messages, `directory`
    /// resolves relative `trace:` paths.
    public init(yaml: String, name: String, file: String = "<yaml>", directory: String = ".") throws(ProfileError) {
        var parser = ProfileParser(file: file, directory: directory)
        self = try parser.parse(yaml: yaml, name: name)
    }

    /// Loads a profile by name from the first directory of `searchPath` that has it, then from
    /// the shipped ones (``ShippedProfiles``), or from a file when `nameOrPath` is one (it
    /// contains `/` or ends in `.yaml`/`.yml`).
    ///
    /// - Throws: `ProfileError` — `profileNotFound` lists the names that do exist.
    public static func load(named nameOrPath: String, searchPath: [String] = ProfileDirectory.searchPath()) throws(ProfileError) -> NetworkProfile {
        if isPath(nameOrPath) {
            return try NetworkProfile(contentsOf: nameOrPath)
        }
        for directory in searchPath {
            for suffix in [".yaml", ".yml"] {
                let candidate = "\(directory)/\(nameOrPath)\(suffix)"
                if FileManager.default.fileExists(atPath: candidate) {
                    return try NetworkProfile(contentsOf: candidate)
                }
            }
        }
        if let shipped = try ShippedProfiles.profile(named: nameOrPath) {
            return shipped
        }
        let known = available(in: searchPath).map(\.name)
        let looked = searchPath.isEmpty ? "the shipped profiles" : "\(searchPath.joined(separator: ", ")) and the shipped profiles"
        let guess = NearestName.suggestion(for: nameOrPath, among: known).map { "; did you mean '\($0)'?" } ?? ""
        throw ProfileError(
            .profileNotFound, file: nameOrPath, reason: "no profile named '\(nameOrPath)'\(guess) (looked in \(looked)); known profiles: \(known.joined(separator: ", "))")
    }

    /// The profile files on `searchPath` and the shipped profiles, sorted by name; a name in an
    /// earlier directory hides the same name in later ones and in the shipped set. The files
    /// are not parsed.
    public static func available(in searchPath: [String] = ProfileDirectory.searchPath()) -> [ProfileFile] {
        var found: [ProfileFile] = []
        for directory in searchPath {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            for entry in entries.sorted() where entry.hasSuffix(".yaml") || entry.hasSuffix(".yml") {
                let name = Self.name(ofFile: entry)
                if !found.contains(where: { $0.name == name }) {
                    found.append(ProfileFile(name: name, path: "\(directory)/\(entry)"))
                }
            }
        }
        for name in ShippedProfiles.names where !found.contains(where: { $0.name == name }) {
            found.append(ProfileFile(name: name, path: ShippedProfiles.file(of: name), isShipped: true))
        }
        return found.sorted { $0.name < $1.name }
    }

    /// True when `text` names a file rather than a profile on the search path.
    public static func isPath(_ text: String) -> Bool {
        text.contains("/") || text.hasSuffix(".yaml") || text.hasSuffix(".yml")
    }

    private static func name(ofFile path: String) -> String {
        var name = Substring(path.split(separator: "/").last ?? Substring(path))
        for suffix in [".yaml", ".yml"] where name.hasSuffix(suffix) {
            name = name.dropLast(suffix.count)
        }
        return String(name)
    }
}

/// A profile file found on the search path, or a shipped profile.
public struct ProfileFile: Sendable, Hashable {
    /// The profile's name: the file name without `.yaml`.
    public var name: String
    /// The file's path; `<shipped>/NAME.yaml` for a shipped profile.
    public var path: String
    /// Compiled into the library (``ShippedProfiles``), not read from a directory.
    public var isShipped: Bool

    /// A profile file `name` at `path`.
    package init(name: String, path: String, isShipped: Bool = false) {
        self.name = name
        self.path = path
        self.isShipped = isShipped
    }
}

extension ProfileFile {
    /// Parses the profile, from its file or from the library.
    public func load() throws(ProfileError) -> NetworkProfile {
        if isShipped, let profile = try ShippedProfiles.profile(named: name) {
            return profile
        }
        return try NetworkProfile(contentsOf: path)
    }
}
