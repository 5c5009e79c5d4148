import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Counts the user-space instructions the calling thread retires, read from the CPU's own
/// performance counter (Linux `perf_event_open`).
///
/// Work is counted, not timed: the count of a computation barely changes between runs or with
/// machine load, so ratios of counts can gate tests where durations cannot.
struct InstructionCounter: ~Copyable {
    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    private let descriptor: Int32

    /// Whether this machine lets the tests count instructions (some VMs hide the CPU's counters).
    static var isAvailable: Bool {
        do {
            _ = try InstructionCounter()
            return true
        } catch {
            return false
        }
    }

    /// Opens a counter for the calling thread, or says why the machine does not offer one.
    init() throws(Unavailable) {
        #if os(Linux) && canImport(Glibc)
            let perfEventOpen: Int
            #if arch(x86_64)
                perfEventOpen = 298
            #elseif arch(arm64)
                perfEventOpen = 241
            #else
                throw Unavailable(description: "no perf_event_open system call number for this architecture")
            #endif
            // struct perf_event_attr in its first published size (PERF_ATTR_SIZE_VER0).
            var attributes = [UInt8](repeating: 0, count: 64)
            func set<T: FixedWidthInteger>(_ value: T, at offset: Int) {
                withUnsafeBytes(of: value.littleEndian) { attributes.replaceSubrange(offset ..< offset + MemoryLayout<T>.size, with: $0) }
            }
            set(UInt32(0), at: 0) // type: PERF_TYPE_HARDWARE
            set(UInt32(64), at: 4) // size
            set(UInt64(1), at: 8) // config: PERF_COUNT_HW_INSTRUCTIONS
            set(UInt64(1 << 5 | 1 << 6), at: 40) // flags: exclude_kernel, exclude_hv; enabled from the start
            // syscall(2) is variadic, which Swift cannot import; its integer arguments are passed
            // exactly as a fixed-argument call passes them on x86-64 and arm64 Linux.
            typealias Syscall = @convention(c) (Int, UnsafeRawPointer, Int32, Int32, Int32, UInt) -> Int
            guard let symbol = dlsym(nil, "syscall") else {
                throw Unavailable(description: "syscall(2) not found")
            }
            let syscall = unsafeBitCast(symbol, to: Syscall.self)
            // pid 0, cpu -1: this thread, on whichever CPU it runs.
            let result = attributes.withUnsafeBytes { syscall(perfEventOpen, $0.baseAddress!, 0, -1, -1, 0) }
            guard result >= 0 else {
                let reason = String(cString: strerror(errno))
                throw Unavailable(description: """
                    the CPU instruction counter is not available (perf_event_open: \(reason); \
                    kernel.perf_event_paranoid is \(Self.paranoidLevel)). Allow it for this user with \
                    `sysctl kernel.perf_event_paranoid=2`, or run on a machine (or VM) that exposes its CPU counters.
                    """)
            }
            descriptor = Int32(result)
        #else
            throw Unavailable(description: "instruction counting uses Linux perf_event_open")
        #endif
    }

    deinit {
        #if canImport(Glibc)
            close(descriptor)
        #endif
    }

    /// The instructions retired so far by this thread since the counter was opened (0 if the
    /// counter cannot be read).
    var count: UInt64 {
        var value: UInt64 = 0
        #if canImport(Glibc)
            guard read(descriptor, &value, MemoryLayout<UInt64>.size) == MemoryLayout<UInt64>.size else { return 0 }
        #endif
        return value
    }

    /// Runs `body` and returns its result with the instructions it took.
    func measure<T>(_ body: () throws -> T) rethrows -> (result: T, instructions: UInt64) {
        let before = count
        let result = try body()
        return (result, count - before)
    }

    private static var paranoidLevel: String {
        let text = try? String(contentsOfFile: "/proc/sys/kernel/perf_event_paranoid", encoding: .utf8)
        return text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown"
    }
}
