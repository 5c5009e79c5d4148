import CLibFuzzer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts libFuzzer from a target's `main.swift`.
///
/// SwiftPM links executables with their entry point renamed (`--defsym main=<module>_main`), so
/// a target cannot leave `main` to libFuzzer as a C fuzzer would; it calls libFuzzer's driver
/// instead, which reads the usual flags (`-runs=`, `-max_total_time=`, corpus directories).
public enum FuzzDriver {
    public static func run(_ target: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, target))
    }
}
