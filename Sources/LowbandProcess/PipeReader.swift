import Foundation
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Reads a child's stdout and stderr on a thread of its own until both end, then waits there for
/// the child's exit without reaping it (swift-subprocess reaps): so a child never blocks on a
/// full pipe and its status is known when it exits, however busy the Swift concurrency pool is.
enum PipeReader {
    /// A pipe whose ends are closed on exec: another program started meanwhile must not inherit
    /// the write end (its reader would then never see the end).
    struct Pipe {
        let readEnd: FileDescriptor
        let writeEnd: FileDescriptor

        init() throws {
            do {
                (readEnd, writeEnd) = try FileDescriptor.pipe(options: .closeOnExec)
            } catch {
                throw ChildProcess.Failure(description: "ChildProcess: cannot make a pipe: \(error)")
            }
        }
    }

    /// Starts the thread; it owns (and closes) the read ends. Without pipes (output goes to a
    /// file) it only waits for the exit.
    static func start(pid: Int32, stdout: FileDescriptor?, stderr: FileDescriptor?, shared: ChildProcess.Shared) {
        shared.state.withLock { $0.readerStarted = true }
        let descriptors = (stdout?.rawValue ?? -1, stderr?.rawValue ?? -1)
        let thread = Thread {
            if descriptors.0 >= 0 || descriptors.1 >= 0 {
                drain(stdout: descriptors.0, stderr: descriptors.1, shared: shared)
            }
            let exit = waitForExit(pid)
            shared.report { state in
                if state.exit == nil, let exit { state.exit = exit }
            }
        }
        thread.name = "lowband-child-\(pid)"
        // Reading and waiting need little stack.
        thread.stackSize = 256 * 1024
        thread.start()
    }

    /// Reads both pipes until both end, reporting what arrives as it arrives.
    private static func drain(stdout: Int32, stderr: Int32, shared: ChildProcess.Shared) {
        var polled = [pollfd(fd: stdout, events: Int16(POLLIN), revents: 0), pollfd(fd: stderr, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while polled.contains(where: { $0.fd >= 0 }) {
            if poll(&polled, nfds_t(polled.count), -1) < 0 {
                if errno == EINTR { continue }
                break
            }
            for index in polled.indices where polled[index].fd >= 0 && polled[index].revents != 0 {
                let fd = polled[index].fd
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR || errno == EAGAIN { continue }
                if count <= 0 {
                    close(fd)
                    polled[index].fd = -1
                    if index == 0 { shared.report { $0.endStdout() } }
                    continue
                }
                buffer.withUnsafeBytes { bytes in
                    let chunk = UnsafeRawBufferPointer(rebasing: bytes[..<count])
                    if index == 0 {
                        shared.report { $0.receiveStdout(chunk) }
                    } else {
                        shared.state.withLock { $0.receiveStderr(chunk) }
                    }
                }
            }
        }
        // A poll that failed for good leaves descriptors open: close them and end both outputs.
        for entry in polled where entry.fd >= 0 { close(entry.fd) }
        shared.report { state in
            if !state.stdoutEnded { state.endStdout() }
            state.outputEnded = true
        }
    }

    /// The child's exit status (code, or 128 + signal) once it exits, without reaping it; nil
    /// when swift-subprocess reaped it first (its own report then says it).
    private static func waitForExit(_ pid: Int32) -> Int32? {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 {
            if errno != EINTR { return nil }
        }
        let status = info._sifields._sigchld.si_status
        return info.si_code == CLD_EXITED ? status : 128 + status
    }
}
