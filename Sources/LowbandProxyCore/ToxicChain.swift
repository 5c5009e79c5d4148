import LowbandDeterminism
import LowbandShaper

/// The toxics of one direction of one connection, in the order they were added; what leaves
/// the last stage goes on to the shaper.
struct ToxicChain {
    private(set) var stages: [ToxicStage] = []
    private var ready: [ToxicOutput] = []

    var isEmpty: Bool { stages.isEmpty }

    var nextWakeup: ShaperInstant? {
        stages.compactMap(\.nextWakeup).min()
    }

    mutating func append(_ stage: ToxicStage) {
        stages.append(stage)
    }

    /// Takes an item from the source at `time`.
    mutating func ingest(_ item: ToxicItem, at time: ShaperInstant, random: inout SeededGenerator) {
        if stages.isEmpty {
            ready.append(.item(item))
        } else {
            stages[0].ingest(item, at: time, random: &random)
        }
    }

    /// Moves everything due by `now` through the stages; returns what left the last one.
    mutating func advance(to now: ShaperInstant, random: inout SeededGenerator) -> [ToxicOutput] {
        for index in stages.indices {
            var outputs: [ToxicStage.Scheduled] = []
            stages[index].due(by: now) { outputs.append($0) }
            for output in outputs {
                forward(output, from: index, random: &random)
            }
        }
        defer { ready.removeAll(keepingCapacity: true) }
        return ready
    }

    mutating func update(named name: String, effect: ToxicEffect, active: Bool, at now: ShaperInstant) {
        for index in stages.indices where stages[index].name == name {
            stages[index].update(effect: effect, active: active, at: now)
        }
    }

    /// Removes a stage, handing what it held to the next one at `now`.
    mutating func remove(named name: String, at now: ShaperInstant, random: inout SeededGenerator) {
        guard let index = stages.firstIndex(where: { $0.name == name }) else { return }
        var outputs: [ToxicStage.Scheduled] = []
        stages[index].flush(at: now) { outputs.append($0) }
        stages.remove(at: index)
        for output in outputs {
            forward(output, from: index - 1, random: &random)
        }
    }

    private mutating func forward(_ output: ToxicStage.Scheduled, from index: Int, random: inout SeededGenerator) {
        switch output.output {
        case .reset:
            ready.append(.reset)
        case .item(let item):
            if index + 1 < stages.count {
                stages[index + 1].ingest(item, at: output.at, random: &random)
            } else {
                ready.append(.item(item))
            }
        }
    }
}
