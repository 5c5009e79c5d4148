import Foundation
package import LowbandReports
package import LowbandRunReport

/// `lowband run --compression-dictionary both`: each profile runs twice in one command, its
/// engines first as clients without dictionaries (plain LZ4), then offering the shipped wire
/// dictionary, and the two are set side by side as ratios measured in that one command.
package enum DictionaryComparison {
    /// The record label of `profile`'s run with or without the dictionary.
    package static func label(_ profile: String, dictionary: Bool) -> String {
        profile + (dictionary ? dictionarySuffix : plainSuffix)
    }

    static let plainSuffix = "-plain-lz4"
    static let dictionarySuffix = "-dictionary"

    /// Each profile run both ways, in the order of the plain runs.
    package static func pairs(_ records: [RunRecord]) -> [(profile: String, plain: RunRecord, dictionary: RunRecord)] {
        records.compactMap { plain in
            guard plain.profile.hasSuffix(plainSuffix) else { return nil }
            let profile = String(plain.profile.dropLast(plainSuffix.count))
            guard let dictionary = records.first(where: { $0.profile == label(profile, dictionary: true) }) else { return nil }
            return (profile, plain, dictionary)
        }
    }

    /// The figures set side by side: the bytes each delivered message cost, and the p50 of the
    /// scenario's latency metric (its first in ms), with the dictionary over without it.
    struct Figure {
        var metric: String
        var unit: String
        var plain: Double
        var dictionary: Double
        var ratio: Double { plain == 0 ? .nan : dictionary / plain }
    }

    static func figures(plain: RunRecord, dictionary: RunRecord) -> [Figure] {
        var figures: [Figure] = []
        if let before = plain.metric(named: "bytes_per_message")?.summary?.p50,
           let after = dictionary.metric(named: "bytes_per_message")?.summary?.p50 {
            figures.append(Figure(metric: "bytes_per_message", unit: "bytes", plain: before, dictionary: after))
        }
        if let latency = plain.metrics.first(where: { $0.unit == "ms" && !$0.values.isEmpty }),
           let before = latency.summary?.p50, let after = dictionary.metric(named: latency.name)?.summary?.p50 {
            figures.append(Figure(metric: "\(latency.name)_p50", unit: "ms", plain: before, dictionary: after))
        }
        return figures
    }

    /// `<metric>_dictionary_vs_plain` rows (unit `x`, benchmark `<profile>`) for every pair.
    package static func rows(for records: [RunRecord], environment: RunEnvironment) -> [BenchmarkRow] {
        pairs(records).flatMap { pair in
            figures(plain: pair.plain, dictionary: pair.dictionary).filter { $0.ratio.isFinite }.map { figure in
                BenchmarkRow(
                    suite: "run.\(pair.plain.scenario)", benchmark: pair.profile, metric: "\(figure.metric)_dictionary_vs_plain", unit: "x",
                    samples: [figure.ratio], environment: environment)
            }
        }
    }

    /// The pairs as a table: each figure without and with the dictionary, and their ratio; empty
    /// when no profile ran both ways.
    package static func table(_ records: [RunRecord]) -> String {
        var table = TextTable(
            headers: ["profile", "metric", "unit", "plain LZ4", "dictionary", "ratio"],
            alignments: [.left, .left, .left, .right, .right, .right])
        for pair in pairs(records) {
            for figure in figures(plain: pair.plain, dictionary: pair.dictionary) {
                table.rows.append([
                    pair.profile, figure.metric, figure.unit, RunOutputs.number(figure.plain), RunOutputs.number(figure.dictionary),
                    figure.ratio.isFinite ? String(format: "%.3f", figure.ratio) : "-",
                ])
            }
        }
        return table.rows.isEmpty ? "" : table.rendered()
    }
}
