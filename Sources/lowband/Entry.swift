import Dispatch
import LowbandCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs `lowband` with ``Lowband/runReportingOneLine(_:)``: errors are one line, bad arguments exit 1.
///
/// A synchronous main, not `async`: a command that must run without Swift's concurrency runtime
/// (`lowband codecs count`, under valgrind, which crashes once an async main starts a thread)
/// runs here on the main thread; every other command runs as an async main would, on the main
/// actor with the main queue drained, and exits the process when it is done.
@main
enum Entry {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let status = Lowband.runWithoutConcurrency(arguments) { exit(status) }
        Task { @MainActor in
            exit(await Lowband.runReportingOneLine(arguments))
        }
        dispatchMain()
    }
}
