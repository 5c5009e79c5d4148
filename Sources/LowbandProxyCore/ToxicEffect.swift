/// A toxic's attributes checked and converted to units the stages work in.
enum ToxicEffect: Hashable {
    case latency(latency: Duration, jitter: Duration)
    /// 0 bytes per second means unlimited, as in toxiproxy.
    case bandwidth(bytesPerSecond: Int64)
    case slowClose(delay: Duration)
    /// nil: data is dropped but the connection never closes.
    case timeout(after: Duration?)
    case resetPeer(after: Duration)
    case slicer(averageSize: Int, sizeVariation: Int, delay: Duration)
    case limitData(bytes: Int64)

    /// The largest time attribute accepted: about 11.5 days in milliseconds.
    static let maximumMilliseconds: Int64 = 1_000_000_000
    /// The largest size attribute accepted (1 TB).
    static let maximumSize: Int64 = 1_000_000_000_000

    init(_ toxic: Toxic) throws(ProxyError) {
        func value(_ key: String, maximum: Int64) throws(ProxyError) -> Int64 {
            let number = toxic.attributes[key] ?? 0
            guard number >= 0, number <= maximum else {
                throw ProxyError(
                    .invalidAttribute,
                    "toxic '\(toxic.name)': attribute \(key) must be 0...\(maximum), not \(number)"
                )
            }
            return number
        }
        func milliseconds(_ key: String) throws(ProxyError) -> Duration {
            .milliseconds(try value(key, maximum: Self.maximumMilliseconds))
        }
        guard toxic.toxicity.isFinite, (0 ... 1).contains(toxic.toxicity) else {
            throw ProxyError(.invalidAttribute, "toxic '\(toxic.name)': toxicity must be 0...1, not \(toxic.toxicity)")
        }
        switch toxic.type {
        case .latency:
            self = .latency(latency: try milliseconds("latency"), jitter: try milliseconds("jitter"))
        case .bandwidth:
            self = .bandwidth(bytesPerSecond: try value("rate", maximum: Self.maximumSize / 1000) * 1000)
        case .slowClose:
            self = .slowClose(delay: try milliseconds("delay"))
        case .timeout:
            let after = try milliseconds("timeout")
            self = .timeout(after: after == .zero ? nil : after)
        case .resetPeer:
            self = .resetPeer(after: try milliseconds("timeout"))
        case .slicer:
            let average = try value("average_size", maximum: Int64(Int32.max))
            let variation = try value("size_variation", maximum: Int64(Int32.max))
            guard average >= 1, variation < average else {
                throw ProxyError(
                    .invalidAttribute,
                    "toxic '\(toxic.name)': slicer needs average_size >= 1 and size_variation < average_size (got \(average), \(variation))"
                )
            }
            let delay = try value("delay", maximum: Self.maximumMilliseconds * 1000)
            self = .slicer(averageSize: Int(average), sizeVariation: Int(variation), delay: .microseconds(delay))
        case .limitData:
            self = .limitData(bytes: try value("bytes", maximum: Self.maximumSize))
        default:
            let known = ToxicType.all.map(\.rawValue).joined(separator: ", ")
            throw ProxyError(.invalidToxicType, "invalid toxic type '\(toxic.type.rawValue)'; known types: \(known)")
        }
    }
}
