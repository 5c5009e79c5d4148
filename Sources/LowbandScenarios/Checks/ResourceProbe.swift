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

    /// One measurement of one or three sizes; its readings are consecutive from `first`.
    private enum Gauge {
        case one(first: Int, measure: () -> Int?)
        /// Three sizes of one client read in one call: reaching a client's objects costs more
        /// than reading them (every second, 100 clients: a few percent of a crowd hour when each
        /// size was a closure of its own, and still 5 % when one closure reached the engine
        /// through weak references). The client is not retained: the probe reads it while it
        /// lives, as a weak reference would, and its deinit says when it went
        /// (``clientGone(gauge:)``), so a killed app's engine and cache go when the app goes.
        case client(first: Int, Unmanaged<ScenarioClient>)
        /// A client that went: nothing to measure any more.
        case gone
    }

    private var gauges: [Gauge] = []
    private var all: [Reading] = []

    /// Watches `measure` (nil: nothing to measure any more) against `cap`.
    func watch(_ name: String, client: Int? = nil, cap: Int, _ measure: @escaping () -> Int?) {
        gauges.append(.one(first: all.count, measure: measure))
        all.append(Reading(name: name, client: client, cap: cap, peak: 0, peakAt: .zero))
    }

    /// Watches the three capped sizes of `client` (``ScenarioClient/cappedSizes``), each against
    /// its own cap; the readings are the same as three ``watch(_:client:cap:_:)`` calls in this
    /// order.
    func watch(_ client: ScenarioClient, _ names: (String, String, String), caps: (Int, Int, Int)) {
        client.probe = (self, gauges.count)
        gauges.append(.client(first: all.count, Unmanaged.passUnretained(client)))
        all.append(Reading(name: names.0, client: client.index, cap: caps.0, peak: 0, peakAt: .zero))
        all.append(Reading(name: names.1, client: client.index, cap: caps.1, peak: 0, peakAt: .zero))
        all.append(Reading(name: names.2, client: client.index, cap: caps.2, peak: 0, peakAt: .zero))
    }

    func sample(at time: Duration) {
        for gauge in gauges {
            switch gauge {
            case .one(let first, let measure):
                note(measure(), first, at: time)
            case .client(let first, let client):
                let (a, b, c) = client.takeUnretainedValue().cappedSizes
                note(a, first, at: time)
                note(b, first + 1, at: time)
                note(c, first + 2, at: time)
            case .gone:
                break
            }
        }
    }

    /// The client read by gauge `gauge` is going (its deinit): it is read no more.
    func clientGone(gauge: Int) {
        gauges[gauge] = .gone
    }

    private func note(_ value: Int?, _ index: Int, at time: Duration) {
        guard let value, value > all[index].peak else { return }
        all[index].peak = value
        all[index].peakAt = time
    }

    var readings: [Reading] { all }
}
