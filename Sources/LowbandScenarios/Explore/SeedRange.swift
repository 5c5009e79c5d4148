/// The seeds an exploration runs: `--seeds 1..1000` or `--seeds 7`, optionally one shard of
/// them (`--shard 2/4`: the 2nd, 6th, 10th… seed), so a CI matrix spreads a sweep over machines.
package struct SeedSelection: Sendable, Hashable {
    /// The seeds, inclusive, before sharding.
    package var range: ClosedRange<UInt64>
    /// 1-based shard index and the number of shards.
    package var shard: (index: Int, count: Int)

    package static func == (lhs: SeedSelection, rhs: SeedSelection) -> Bool {
        lhs.range == rhs.range && lhs.shard == rhs.shard
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(range)
        hasher.combine(shard.index)
        hasher.combine(shard.count)
    }

    /// A selection of `range`, all of it by default (shard 1 of 1).
    package init(range: ClosedRange<UInt64>, shard: (index: Int, count: Int) = (1, 1)) {
        self.range = range
        self.shard = shard
    }

    /// The most seeds one exploration may list.
    package static let maximumSeeds: UInt64 = 10_000_000

    /// `A..B` (inclusive) or one seed `N`.
    ///
    /// - Throws: ``ScenarioError`` `invalidOptions` saying what is wrong.
    package static func parse(seeds text: String) throws(ScenarioError) -> ClosedRange<UInt64> {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 1, let seed = UInt64(text) { return seed ... seed }
        guard parts.count == 3, parts[1].isEmpty, let low = UInt64(parts[0]), let high = UInt64(parts[2]) else {
            throw ScenarioError(.invalidOptions, "--seeds '\(text)' is not a seed or a range such as 1..1000")
        }
        guard low <= high else {
            throw ScenarioError(.invalidOptions, "--seeds \(text) is empty: the first seed is after the last (try \(high)..\(low))")
        }
        guard high - low < maximumSeeds else {
            throw ScenarioError(.invalidOptions, "--seeds \(text) lists more than \(maximumSeeds) seeds")
        }
        return low ... high
    }

    /// `i/n` with 1 ≤ i ≤ n.
    package static func parse(shard text: String) throws(ScenarioError) -> (index: Int, count: Int) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw ScenarioError(.invalidOptions, "--shard '\(text)' is not of the form i/n (for example 2/4)")
        }
        guard count >= 1, index >= 1, index <= count else {
            throw ScenarioError(.invalidOptions, "--shard \(text): i must be from 1 to n (got \(index) of \(count))")
        }
        return (index, count)
    }

    /// The seeds of this shard, in order.
    package var seeds: [UInt64] {
        var result: [UInt64] = []
        var seed = range.lowerBound
        var position = 0
        while true {
            if position % shard.count == shard.index - 1 { result.append(seed) }
            if seed == range.upperBound { break }
            seed += 1
            position += 1
        }
        return result
    }
}
