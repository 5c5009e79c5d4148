/// Samples the sizes that have caps (queues, buffers, requests in flight) during a run, and
/// keeps each one's peak for the `resource_bounds` check.
final class ResourceProbe {
    struct Reading: Hashable {
        var name: String
        var client: Int?
        var cap: Int
        var peak: Int
        var peakAt: Duration
    }

    private struct Gauge {
        var reading: Reading
        var measure: () -> Int?
    }

    private var gauges: [Gauge] = []

    /// Watches `measure` (nil: nothing to measure any more) against `cap`.
    func watch(_ name: String, client: Int? = nil, cap: Int, _ measure: @escaping () -> Int?) {
        gauges.append(Gauge(reading: Reading(name: name, client: client, cap: cap, peak: 0, peakAt: .zero), measure: measure))
    }

    func sample(at time: Duration) {
        for index in gauges.indices {
            guard let value = gauges[index].measure(), value > gauges[index].reading.peak else { continue }
            gauges[index].reading.peak = value
            gauges[index].reading.peakAt = time
        }
    }

    var readings: [Reading] { gauges.map(\.reading) }
}
