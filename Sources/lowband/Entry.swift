import LowbandCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs `lowband` with ``Lowband/runReportingOneLine(_:)``: errors are one line, bad arguments exit 1.
@main
enum Entry {
    static func main() async {
        exit(await Lowband.runReportingOneLine(Array(CommandLine.arguments.dropFirst())))
    }
}
