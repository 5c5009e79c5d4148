/// Why `lowband shell` could not run its command, with the exit status it stands for.
package struct ShellError: Error, CustomStringConvertible, Sendable {
    /// What went wrong; extensible, so a new case breaks no caller.
    package struct Code: Hashable, Sendable {
        package let name: String
        /// The kernel gives no unprivileged user namespace (a sysctl off, a container without them).
        package static let noUserNamespace = Code(name: "no-user-namespace")
        /// The command is not on PATH (or the file does not exist).
        package static let commandNotFound = Code(name: "command-not-found")
        /// The command exists but cannot be executed.
        package static let notExecutable = Code(name: "not-executable")
        /// A step of setting up the namespace or its network failed.
        package static let setup = Code(name: "setup")
        /// A system call of the Lowband process failed.
        package static let system = Code(name: "system")
    }

    package let code: Code
    /// One line saying what was wrong, where, and what to do.
    package let message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The shell's exit status for it: 127 not found, 126 not executable (as POSIX shells), 2
    /// no user namespaces, 1 otherwise.
    package var exitStatus: Int32 {
        switch code {
        case .commandNotFound: 127
        case .notExecutable: 126
        case .noUserNamespace: 2
        default: 1
        }
    }

    package var description: String { message }
}
