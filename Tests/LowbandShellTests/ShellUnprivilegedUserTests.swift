import Foundation
import LowbandProcess
import LowbandTestSupport
import Testing

/// `lowband shell` run by a real unprivileged user, as the shell is meant to be: the other suites
/// run as whatever user runs the tests (root on CI, where the namespace's root is a nested user
/// namespace of root's). Only root can become another user, so this suite runs only as root with
/// `runuser`; it makes the throwaway user `lowband-nobody` when missing.
@Suite(.tags(.wallClock), .enabled(if: UnprivilegedUser.available, UnprivilegedUser.why)) struct ShellUnprivilegedUserTests {
    @Test func anUnprivilegedUsersCurlFetchesFromTheHostsLoopbackAcrossTheLink() async throws {
        let user = try await UnprivilegedUser.ensure()
        // The binary where the user may read and run it (the build folder may not be).
        let directory = try TemporaryDirectory(prefix: "lowband-shell-user")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        let binary = directory.file("lowband")
        try FileManager.default.copyItem(atPath: LowbandBinary.path, toPath: binary)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: binary)
        let site = directory.file("site")
        try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: false)
        try "hello, unprivileged\n".write(toFile: "\(site)/hello.txt", atomically: true, encoding: .utf8)
        let server = try await ChildProcess("python3", ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", site])
        defer { server.send(SIGTERM) }
        let port = try await ShellCommandTests.port(from: server)
        let result = try await ExternalProcess.run("runuser", [
            "-u", UnprivilegedUser.name, "--", "env", "HOME=\(user.home)", "PATH=/usr/local/bin:/usr/bin:/bin",
            binary, "shell", "--profile", "edge", "--seed", "3", "--",
            "sh", "-c", "id -u; cat /proc/self/uid_map; curl -sS --max-time 60 http://$LOWBAND_HOST:\(port)/hello.txt",
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        let lines = result.stdoutText.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        // Root inside, and that root is the unprivileged user outside: the only uid mapped.
        #expect(lines == ["0", "0 \(user.uid) 1", "hello, unprivileged"])
        #expect(result.stderrText.contains("lowband shell: edge, seed 3: up "), "\(result.stderrText)")
    }
}

/// The throwaway user the suite runs the shell as.
enum UnprivilegedUser {
    static let name = "lowband-nobody"

    /// Root, `runuser` and `useradd` present, and user namespaces allowed.
    static let available: Bool = getuid() == 0
        && FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser")
        && FileManager.default.isExecutableFile(atPath: "/usr/sbin/useradd")
        && UserNamespaces.available

    static let why: Comment = "needs root (to become another user), /usr/sbin/runuser and useradd, and user namespaces"

    /// The user's uid and home, made first (`useradd -m`) when missing.
    static func ensure() async throws -> (uid: Int, home: String) {
        if try await entry() == nil {
            let made = try await ExternalProcess.run("/usr/sbin/useradd", ["-m", name])
            // Another run may have made it in between (status 9: the name is taken).
            try #require(made.status == 0 || made.status == 9, "useradd -m \(name): \(made.stderrText)")
        }
        let fields = try #require(try await entry(), "no passwd entry for \(name) after useradd")
        return fields
    }

    private static func entry() async throws -> (uid: Int, home: String)? {
        let result = try await ExternalProcess.run("getent", ["passwd", name])
        guard result.status == 0 else { return nil }
        let fields = result.stdoutText.trimmingCharacters(in: .newlines).split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count >= 7, let uid = Int(fields[2]) else { return nil }
        return (uid, String(fields[5]))
    }
}
