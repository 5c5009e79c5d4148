import LowbandDeterminism
import LowbandShaper
import Testing

@testable import LowbandProxyCore

/// Each toxic as a pure stage on virtual time: what leaves, and when.
@Suite struct ToxicChainTests {
    private func ms(_ value: Int64) -> ShaperInstant { ShaperInstant(nanoseconds: value * 1_000_000) }

    private func chain(_ toxics: Toxic...) throws -> ToxicChain {
        var chain = ToxicChain()
        for toxic in toxics {
            chain.append(ToxicStage(name: toxic.name, effect: try ToxicEffect(toxic.validated()), active: true, at: .zero))
        }
        return chain
    }

    /// Runs the chain to `end` in 1 ms steps, recording what leaves and when (ms).
    private func run(_ chain: inout ToxicChain, to end: Int64, random: inout SeededGenerator) -> [(Int64, ToxicOutput)] {
        var outputs: [(Int64, ToxicOutput)] = []
        for time in 0...end {
            for output in chain.advance(to: ms(time), random: &random) {
                outputs.append((time, output))
            }
        }
        return outputs
    }

    @Test func latencyDelaysEachChunkInOrder() throws {
        var chain = try chain(Toxic(type: .latency, attributes: ["latency": 100]))
        var random = SeededGenerator(seed: 1)
        chain.ingest(.pass(10), at: .zero, random: &random)
        chain.ingest(.pass(20), at: ms(30), random: &random)
        chain.ingest(.end, at: ms(40), random: &random)
        let outputs = run(&chain, to: 200, random: &random)
        #expect(outputs.map(\.0) == [100, 130, 130])
        #expect(outputs.map(\.1) == [.item(.pass(10)), .item(.pass(20)), .item(.end)])
    }

    @Test func jitterStaysInRangeAndNeverReorders() throws {
        var chain = try chain(Toxic(type: .latency, attributes: ["latency": 100, "jitter": 50]))
        var random = SeededGenerator(seed: 7)
        for index in 0..<50 { chain.ingest(.pass(index + 1), at: ms(Int64(index)), random: &random) }
        let outputs = run(&chain, to: 400, random: &random)
        #expect(outputs.map(\.1) == (0..<50).map { .item(.pass($0 + 1)) })
        #expect(zip(outputs, outputs.dropFirst()).allSatisfy { $0.0 <= $1.0 })
        #expect(outputs.enumerated().allSatisfy { index, output in output.0 >= Int64(index) + 50 && output.0 <= Int64(index) + 150 + 50 })
    }

    @Test func bandwidthReleasesAtTheRate() throws {
        // 1 KB/s = 1000 bytes per second: 500 bytes take 500 ms, the next 500 another 500 ms.
        var chain = try chain(Toxic(type: .bandwidth, attributes: ["rate": 1]))
        var random = SeededGenerator(seed: 1)
        chain.ingest(.pass(500), at: .zero, random: &random)
        chain.ingest(.pass(500), at: ms(100), random: &random)
        let outputs = run(&chain, to: 1200, random: &random)
        // Pieces of 100 ms of data (100 bytes) leave every 100 ms.
        #expect(outputs.map(\.0) == [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000])
        #expect(outputs.reduce(0) { if case .item(.pass(let n)) = $1.1 { $0 + n } else { $0 } } == 1000)
    }

    @Test func slicerCutsChunksIntoSmallPiecesSpacedByItsDelay() throws {
        var chain = try chain(Toxic(type: .slicer, attributes: ["average_size": 10, "size_variation": 0, "delay": 2000]))
        var random = SeededGenerator(seed: 1)
        chain.ingest(.pass(100), at: .zero, random: &random)
        let outputs = run(&chain, to: 100, random: &random)
        let sizes = outputs.compactMap { if case .item(.pass(let n)) = $0.1 { n } else { nil } }
        #expect(sizes.reduce(0, +) == 100)
        #expect(sizes.allSatisfy { $0 <= 10 })
        #expect(outputs.map(\.0) == sizes.indices.map { Int64($0 * 2) })
    }

    @Test func limitDataPassesTheLimitThenCloses() throws {
        var chain = try chain(Toxic(type: .limitData, attributes: ["bytes": 100]))
        var random = SeededGenerator(seed: 1)
        chain.ingest(.pass(60), at: .zero, random: &random)
        chain.ingest(.pass(60), at: ms(1), random: &random)
        chain.ingest(.pass(5), at: ms(2), random: &random)
        let outputs = run(&chain, to: 5, random: &random).map(\.1)
        #expect(outputs == [.item(.pass(60)), .item(.pass(40)), .item(.drop(20)), .item(.close), .item(.drop(5))])
    }

    @Test func timeoutDropsEverythingAndClosesAfterItsTime() throws {
        var chain = try chain(Toxic(type: .timeout, attributes: ["timeout": 50]))
        var random = SeededGenerator(seed: 1)
        chain.ingest(.pass(10), at: ms(10), random: &random)
        let outputs = run(&chain, to: 100, random: &random)
        #expect(outputs.map(\.0) == [10, 50])
        #expect(outputs.map(\.1) == [.item(.drop(10)), .item(.close)])
    }

    @Test func timeoutZeroNeverCloses() throws {
        var chain = try chain(Toxic(type: .timeout, attributes: ["timeout": 0]))
        var random = SeededGenerator(seed: 1)
        chain.ingest(.pass(10), at: ms(10), random: &random)
        #expect(run(&chain, to: 1000, random: &random).map(\.1) == [.item(.drop(10))])
        #expect(chain.nextWakeup == nil)
    }

    @Test func resetPeerResetsAfterItsTimeoutOnceDataArrives() throws {
        var chain = try chain(Toxic(type: .resetPeer, attributes: ["timeout": 100]))
        var random = SeededGenerator(seed: 1)
        #expect(run(&chain, to: 50, random: &random).isEmpty)
        chain.ingest(.pass(10), at: ms(60), random: &random)
        let outputs = run(&chain, to: 300, random: &random)
        #expect(outputs.map(\.0) == [60, 160])
        #expect(outputs.map(\.1) == [.item(.drop(10)), .reset])
    }

    @Test func slowCloseDelaysOnlyTheEnd() throws {
        var chain = try chain(Toxic(type: .slowClose, attributes: ["delay": 200]))
        var random = SeededGenerator(seed: 1)
        chain.ingest(.pass(10), at: ms(5), random: &random)
        chain.ingest(.end, at: ms(10), random: &random)
        let outputs = run(&chain, to: 300, random: &random)
        #expect(outputs.map(\.0) == [5, 210])
        #expect(outputs.map(\.1) == [.item(.pass(10)), .item(.end)])
    }

    @Test func stagesComposeInOrder() throws {
        // 1 KB/s then 100 ms: 100 bytes leave the bandwidth stage at 100 ms, the latency at 200 ms.
        var chain = try chain(Toxic(type: .bandwidth, attributes: ["rate": 1]), Toxic(type: .latency, attributes: ["latency": 100]))
        var random = SeededGenerator(seed: 1)
        chain.ingest(.pass(100), at: .zero, random: &random)
        #expect(run(&chain, to: 300, random: &random).map(\.0) == [200])
    }

    @Test func removingAStageHandsOnWhatItHeld() throws {
        var chain = try chain(Toxic(name: "slow", type: .latency, attributes: ["latency": 1000]))
        var random = SeededGenerator(seed: 1)
        chain.ingest(.pass(10), at: .zero, random: &random)
        #expect(chain.advance(to: ms(10), random: &random).isEmpty)
        chain.remove(named: "slow", at: ms(20), random: &random)
        #expect(chain.advance(to: ms(20), random: &random) == [.item(.pass(10))])
        #expect(chain.isEmpty)
    }

    @Test func removingATimeoutClosesTheConnectionAsToxiproxyDoes() throws {
        var chain = try chain(Toxic(name: "hole", type: .timeout, attributes: ["timeout": 0]))
        var random = SeededGenerator(seed: 1)
        chain.remove(named: "hole", at: ms(20), random: &random)
        #expect(chain.advance(to: ms(20), random: &random) == [.item(.close)])
    }

    @Test func invalidAttributesAreRejected() throws {
        #expect(throws: ProxyError.self) { try Toxic(type: .latency, attributes: ["latency": -1]).validated() }
        #expect(throws: ProxyError.self) { try Toxic(type: .slicer, attributes: ["average_size": 0]).validated() }
        #expect(throws: ProxyError.self) { try Toxic(type: ToxicType(rawValue: "nope")).validated() }
        #expect(try Toxic(type: .latency).validated().attributes == ["latency": 0, "jitter": 0])
        #expect(Toxic(type: .bandwidth, stream: .upstream).name == "bandwidth_upstream")
    }
}
