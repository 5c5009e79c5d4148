import Foundation
package import Testing

/// Whether this machine lets an unprivileged process make a user and network namespace (as
/// `unshare -Urn true` checks): `lowband shell` and `explore --shell` need it, and so do their
/// tests (`.enabled(if: UserNamespaces.available, UserNamespaces.why)`).
package enum UserNamespaces {
    package static let available: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["-Urn", "true"]
        do {
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus == 0
        } catch {
            return false
        }
    }()

    package static let why: Comment = "needs unprivileged user namespaces (`unshare -Urn true` fails here: sysctl kernel.unprivileged_userns_clone=1 / user.max_user_namespaces)"
}
