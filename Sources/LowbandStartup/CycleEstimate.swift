/// Cycles estimated from callgrind's cache simulation (`--cache-sim=yes`), by the formula iai and
/// iai-callgrind use, from Itamar Turner-Trauring's "Consistent benchmarking in CI"
/// (https://pythonspeed.com/articles/consistent-benchmarking-in-ci/):
///
///     RAM hits = ILmr + DLmr + DLmw                       (last-level misses)
///     L3 hits  = I1mr + D1mr + D1mw − RAM hits            (first-level misses served below)
///     L1 hits  = Ir + Dr + Dw − L3 hits − RAM hits
///     cycles  ≈ L1 hits + 5 · L3 hits + 35 · RAM hits
///
/// An estimate of a simulated cache (the host's sizes, as valgrind reads them from `cpuid`), as
/// deterministic as the instruction count on one machine; not the cycles a CPU would take.
package enum CycleEstimate {
    /// The events the formula reads.
    package static let events = ["Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw"]

    /// The estimate from summed event counts; nil when the cache simulation's events are absent.
    package static func cycles(_ counts: [String: Int]) -> Int? {
        guard events.allSatisfy({ counts[$0] != nil }) else { return nil }
        let count = { (name: String) in counts[name] ?? 0 }
        let ram = count("ILmr") + count("DLmr") + count("DLmw")
        let third = count("I1mr") + count("D1mr") + count("D1mw") - ram
        let first = count("Ir") + count("Dr") + count("Dw") - third - ram
        return first + 5 * third + 35 * ram
    }
}
