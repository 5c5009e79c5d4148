import CLowbandCountedRegion

/// One operation run inside `lowband_counted_region`, the C function valgrind's callgrind is
/// told to count and to dump a profile after: outside callgrind, just a call.
enum CountedRegion {
    /// The symbol to give callgrind's `--toggle-collect` and `--dump-after`.
    static let symbol = "lowband_counted_region"

    /// Calls `body` once inside the region. What `body` throws is rethrown after the region.
    static func run(_ body: () throws -> Void) throws {
        var failure: (any Error)?
        withoutActuallyEscaping(body) { body in
            // Made before the region, so making it is not counted.
            var call: () -> Void = {
                do { try body() } catch { failure = error }
            }
            withUnsafeMutablePointer(to: &call) { pointer in
                lowband_counted_region({ context in context?.assumingMemoryBound(to: (() -> Void).self).pointee() }, pointer)
            }
        }
        if let failure { throw failure }
    }
}
