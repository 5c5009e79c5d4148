import Glibc

/// Finds a command as a shell would: a name with a slash as is, otherwise the first
/// executable file of that name in PATH's directories.
package enum CommandSearch {
    /// The path to execute for `command`, or the error a shell would give (127, 126).
    package static func resolve(_ command: String, path: String?) throws(ShellError) -> String {
        if command.isEmpty { throw ShellError(.commandNotFound, "the command is empty") }
        if command.contains("/") {
            guard isFile(command) else { throw ShellError(.commandNotFound, "\(command): no such file") }
            guard access(command, X_OK) == 0 else { throw ShellError(.notExecutable, "\(command): not executable (permission denied)") }
            return command
        }
        let directories = (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false)
        var found: String?
        for directory in directories {
            let candidate = (directory.isEmpty ? "." : String(directory)) + "/" + command
            guard isFile(candidate) else { continue }
            if access(candidate, X_OK) == 0 { return candidate }
            found = found ?? candidate
        }
        if let found { throw ShellError(.notExecutable, "\(command): \(found) is not executable (permission denied)") }
        throw ShellError(.commandNotFound, "\(command): command not found (searched PATH)")
    }

    private static func isFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }
}
