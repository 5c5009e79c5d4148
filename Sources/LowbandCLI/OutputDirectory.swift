#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The output folder of a command that writes files, made ready before the command starts, so
/// an unwritable `--out` is refused in words before a minute of work instead of after it.
enum OutputDirectory {
    /// Creates `path` and its missing parents, then checks the folder can be written into.
    ///
    /// - Throws: `CommandIO.IOError` naming the folder, `option` and the system's reason, e.g.
    ///   `cannot create the output folder /proc/x (--out): No such file or directory`.
    static func prepare(_ path: String, option: String) throws {
        guard !path.isEmpty else { throw CommandIO.IOError(description: "\(option) is empty: give a folder") }
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + component
            switch kind(of: prefix) {
            case .directory:
                continue
            case .other:
                throw CommandIO.IOError(description: "cannot create the output folder \(path) (\(option)): \(prefix) exists and is not a folder")
            case .missing:
                if mkdir(prefix, 0o755) != 0, errno != EEXIST {
                    throw CommandIO.IOError(description: "cannot create the output folder \(path) (\(option)): \(prefix): \(reason())")
                }
            }
        }
        guard access(path, W_OK | X_OK) == 0 else {
            throw CommandIO.IOError(description: "cannot write into the output folder \(path) (\(option)): \(reason())")
        }
    }

    /// `base` when it holds no earlier results (no `marker` file in it), else the first of
    /// `base-2`, `base-3`, … that holds none: a command run again without `--out` (a printed
    /// reproduce or shrunk command) writes beside the evidence, never over it.
    static func fresh(_ base: String, marker: String) -> String {
        var candidate = base
        var number = 1
        while kind(of: "\(candidate)/\(marker)") != .missing, number < 10_000 {
            number += 1
            candidate = "\(base)-\(number)"
        }
        return candidate
    }

    /// Refuses an `option` folder that holds another command's results (its `marker` file),
    /// unless `force`: one line saying which file and what to do.
    static func refuseEarlier(_ path: String, marker: String, what: String, option: String, force: Bool) throws {
        guard !force, kind(of: "\(path)/\(marker)") != .missing else { return }
        throw CommandIO.IOError(description: "\(option) \(path) holds \(what) (\(path)/\(marker)); give another folder, or --force to write over it")
    }

    private enum Kind { case directory, other, missing }

    private static func kind(of path: String) -> Kind {
        var status = stat()
        guard stat(path, &status) == 0 else { return .missing }
        return (status.st_mode & S_IFMT) == S_IFDIR ? .directory : .other
    }

    private static func reason() -> String {
        SystemErrorText.errno()
    }
}
