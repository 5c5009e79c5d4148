package import LowbandShaper

/// Every format's ``AirCost`` on each profile, for the median and the largest payload (by that
/// format's own bytes).
package struct AirCostTable: Sendable {
    /// One format on one profile.
    package struct Entry: Sendable {
        /// The profile's name.
        package var profile: String
        /// The format.
        package var format: CodecFormat
        /// The median payload's bytes and cost.
        package var median: (bytes: Int, cost: AirCost?)
        /// The largest payload's bytes and cost.
        package var largest: (bytes: Int, cost: AirCost?)
    }

    /// Profile-major, formats in the comparison's order.
    package let entries: [Entry]
    /// The profiles, in the order given.
    package let profiles: [String]

    /// The costs of `comparison`'s payloads on each of `profiles`.
    package init(_ comparison: CodecComparison, profiles: [NetworkProfile]) {
        self.profiles = profiles.map(\.name)
        var entries: [Entry] = []
        var cache: [String: AirCost?] = [:]
        for profile in profiles {
            func cost(_ bytes: Int) -> AirCost? {
                let key = "\(profile.name) \(bytes)"
                if let known = cache[key] { return known }
                let computed = AirCost(bytes: bytes, profile: profile)
                cache[key] = computed
                return computed
            }
            for format in comparison.formats {
                let sizes = comparison.sizes(format).sorted()
                guard let largest = sizes.last else { continue }
                // The lower median: a payload that exists, not an average of two.
                let median = Int(sizes[(sizes.count - 1) / 2])
                entries.append(Entry(profile: profile.name, format: format, median: (median, cost(median)), largest: (Int(largest), cost(Int(largest)))))
            }
        }
        self.entries = entries
    }

    /// The entries of `profile`.
    package func entries(_ profile: String) -> [Entry] {
        entries.filter { $0.profile == profile }
    }
}
