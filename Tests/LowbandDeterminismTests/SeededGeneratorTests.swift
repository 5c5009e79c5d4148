import LowbandDeterminism
import Testing

@Suite struct SeededGeneratorTests {
    @Test func sameSeedSameSequence() {
        var a = SeededGenerator(seed: 42)
        var b = SeededGenerator(seed: 42)
        #expect((0 ..< 1_000).map { _ in a.next() } == (0 ..< 1_000).map { _ in b.next() })
    }

    @Test func knownFirstValuesPinTheAlgorithm() {
        // xoshiro256** seeded through SplitMix64: a change of algorithm would silently change
        // every recorded run, so the first outputs of seed 0 are pinned here.
        var generator = SeededGenerator(seed: 0)
        let first = (0 ..< 3).map { _ in generator.next() }
        var again = SeededGenerator(seed: 0)
        #expect(first == (0 ..< 3).map { _ in again.next() })
        #expect(first == [0x99EC_5F36_CB75_F2B4, 0xBF6E_1F78_4956_452A, 0x1A5F_849D_4933_E6E0])
    }

    @Test func differentSeedsDiffer() {
        var a = SeededGenerator(seed: 1)
        var b = SeededGenerator(seed: 2)
        #expect((0 ..< 8).map { _ in a.next() } != (0 ..< 8).map { _ in b.next() })
    }

    @Test func derivedStreamsAreIndependentAndStable() {
        let root = SeededGenerator(seed: 7)
        var up = root.derived(3, 0)
        var down = root.derived(3, 1)
        var upAgain = SeededGenerator(seed: 7).derived(3, 0)
        let upValues = (0 ..< 16).map { _ in up.next() }
        #expect(upValues == (0 ..< 16).map { _ in upAgain.next() })
        #expect(upValues != (0 ..< 16).map { _ in down.next() })
    }

    @Test func outputIsRoughlyUniform() {
        var generator = SeededGenerator(seed: 9)
        var buckets = [Int](repeating: 0, count: 16)
        for _ in 0 ..< 160_000 { buckets[Int(generator.next() >> 60)] += 1 }
        // Each bucket expects 10_000; six standard deviations is about ±580.
        #expect(buckets.allSatisfy { abs($0 - 10_000) < 600 }, "\(buckets)")
    }
}
