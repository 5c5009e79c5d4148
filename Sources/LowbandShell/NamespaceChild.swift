import CLowbandNamespace
import Glibc

/// A command running in its own user, network, mount and PID namespace, started without root
/// (CLowbandNamespace does the part that must follow the clone), its TAP device in our hands.
package struct NamespaceChild: Sendable {
    /// The host PID of the namespace's init; its exit status is the command's.
    package let pid: Int32
    /// The TAP device: one Ethernet frame per read or write, non-blocking.
    package let tapDescriptor: Int32
    /// Closing it ends the namespace (init exits, the kernel kills what is left).
    package let lifelineDescriptor: Int32

    /// Starts `path` with `arguments` (argv[0] first) and `environment` (NAME=value) in new
    /// namespaces whose TAP has `mtu`; /etc/resolv.conf inside is `resolvConf` when given.
    package static func spawn(path: String, arguments: [String], environment: [String], mtu: Int, resolvConf: String?) throws(ShellError) -> NamespaceChild {
        // Every byte the child reads is allocated here, before the clone.
        let argv = CStringArray(arguments)
        let envp = CStringArray(environment)
        defer {
            argv.free()
            envp.free()
        }
        var child = lowband_ns_child()
        var failure = lowband_ns_error()
        let outcome: Int32 = path.withCString { pathPointer in
            ShellNetwork.tapName.withCString { tapPointer in
                withOptionalCString(resolvConf) { resolvPointer in
                    var config = lowband_ns_config()
                    config.path = pathPointer
                    config.argv = UnsafePointer(argv.pointer)
                    config.envp = UnsafePointer(envp.pointer)
                    config.resolv_conf = resolvPointer
                    config.tap_name = tapPointer
                    config.mtu = Int32(mtu)
                    config.address = inet_addr(ShellNetwork.address)
                    config.netmask = inet_addr(ShellNetwork.netmask)
                    config.gateway = inet_addr(ShellNetwork.host)
                    return lowband_ns_spawn(&config, &child, &failure)
                }
            }
        }
        let step = withUnsafeBytes(of: failure.step) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
        let reason = String(cString: strerror(failure.error))
        switch Int(outcome) {
        case Int(LOWBAND_NS_OK.rawValue):
            return NamespaceChild(pid: child.pid, tapDescriptor: child.tap_fd, lifelineDescriptor: child.lifeline_fd)
        case Int(LOWBAND_NS_NO_USER_NAMESPACE.rawValue):
            throw ShellError(.noUserNamespace, "cannot create a user namespace (\(step): \(reason)); enable unprivileged user namespaces: sysctl -w kernel.unprivileged_userns_clone=1 (Debian, Ubuntu) and sysctl -w user.max_user_namespaces=15000, or run where a container allows them")
        case Int(LOWBAND_NS_EXEC_FAILED.rawValue):
            let code: ShellError.Code = failure.error == ENOENT ? .commandNotFound : .notExecutable
            throw ShellError(code, "\(arguments.first ?? path): cannot execute \(path): \(reason)")
        case Int(LOWBAND_NS_SETUP_FAILED.rawValue):
            let hint = failure.error == ENOENT && step.contains("/dev/net/tun") ? " (the TUN/TAP driver is missing: modprobe tun, or give a container /dev/net/tun)" : ""
            throw ShellError(.setup, "setting up the shell's namespace: \(step): \(reason)\(hint)")
        default:
            throw ShellError(.system, "starting the shell: \(step): \(reason)")
        }
    }
}

/// A NULL-ended array of C strings, owned until ``free()``.
private struct CStringArray {
    let pointer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>

    init(_ strings: [String]) {
        pointer = .allocate(capacity: strings.count + 1)
        for (index, string) in strings.enumerated() { pointer[index] = strdup(string) }
        pointer[strings.count] = nil
    }

    func free() {
        var index = 0
        while let string = pointer[index] {
            Glibc.free(string)
            index += 1
        }
        pointer.deallocate()
    }
}

private func withOptionalCString<Result>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> Result) -> Result {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}
