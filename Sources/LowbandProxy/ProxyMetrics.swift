import LowbandProxyCore
import LowbandShaper
import Prometheus

/// `GET /metrics`: every proxy's counters in the Prometheus text format (version 0.0.4).
///
/// The byte counters have toxiproxy's names and labels (`toxiproxy_proxy_received_bytes_total`
/// and `toxiproxy_proxy_sent_bytes_total` with `direction`, `listener`, `proxy`, `upstream`), so
/// dashboards and scripts written for toxiproxy ≥ 2.4 read Lowband unchanged; the rest are
/// Lowband's own, prefixed `lowband_proxy_`. Each scrape builds a fresh registry from a snapshot
/// of the statistics: nothing is kept between scrapes, and a deleted proxy disappears.
enum ProxyMetrics {
    /// One proxy at the moment of the scrape.
    struct Sample: Sendable {
        var description: ProxyDescription
        var statistics: ProxyStatistics
        /// What the link's radio did so far; nil when its profile has no radio model.
        var radio: RadioStatistics? = nil
    }

    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// The exposition of `samples`: families sorted by name, samples by their labels.
    static func exposition(_ samples: [Sample]) -> [UInt8] {
        let registry = PrometheusCollectorRegistry()
        for sample in samples {
            record(sample, in: registry)
        }
        return sorted(registry.emitToBuffer())
    }

    /// The registry writes families in its dictionary's order, which changes from process to
    /// process; families by name and samples by their text make equal states read equal.
    static func sorted(_ exposition: [UInt8]) -> [UInt8] {
        var families: [(help: String, type: String, samples: [String])] = []
        for line in String(decoding: exposition, as: UTF8.self).split(separator: "\n") {
            if line.hasPrefix("# HELP ") {
                families.append((String(line), "", []))
            } else if line.hasPrefix("# TYPE "), !families.isEmpty {
                families[families.count - 1].type = String(line)
            } else if !families.isEmpty {
                families[families.count - 1].samples.append(String(line))
            }
        }
        var text = ""
        for family in families.sorted(by: { $0.help < $1.help }) {
            text += family.help + "\n" + family.type + "\n"
            for sample in family.samples.sorted() { text += sample + "\n" }
        }
        return Array(text.utf8)
    }

    private static func record(_ sample: Sample, in registry: PrometheusCollectorRegistry) {
        let name = sample.description.name
        let statistics = sample.statistics
        let proxy = [("proxy", name)]
        let endpoints = [("listener", sample.description.listen), ("proxy", name), ("upstream", sample.description.upstream)]

        for direction in Direction.allCases {
            let labels = [("direction", direction.rawValue)] + endpoints
            let received = direction == .upstream ? statistics.receivedUpstreamBytes : statistics.receivedDownstreamBytes
            let sent = direction == .upstream ? statistics.upstreamBytes : statistics.downstreamBytes
            counter("toxiproxy_proxy_received_bytes_total", labels, "Bytes read from the side a direction starts at.", received, registry)
            counter("toxiproxy_proxy_sent_bytes_total", labels, "Bytes delivered to the side a direction ends at.", sent, registry)
            let dropped = direction == .upstream ? statistics.droppedUpstreamBytes : statistics.droppedDownstreamBytes
            counter(
                "lowband_proxy_dropped_bytes_total", [("direction", direction.rawValue), ("proxy", name)],
                "Bytes read and then discarded: swallowed by a toxic, or held when a reset or close ended their connection.", dropped, registry)
        }
        gauge("lowband_proxy_enabled", proxy, "1 while the proxy listens, 0 while it is disabled.", sample.description.enabled ? 1 : 0, registry)
        gauge(
            "lowband_proxy_info", proxy + [("profile", sample.description.profile), ("seed", String(sample.description.seed))],
            "The proxy's link profile and seed; always 1.", 1, registry
        )
        counter("lowband_proxy_connections_accepted_total", proxy, "Client connections accepted.", statistics.acceptedConnections, registry)
        gauge("lowband_proxy_connections_open", proxy, "Client connections open now.", Double(statistics.openConnections), registry)
        counter("lowband_proxy_connections_refused_total", proxy, "Connections whose upstream could not be reached.", statistics.refusedConnections, registry)
        counter("lowband_proxy_connections_reset_total", proxy, "Connections reset by the link or a toxic.", statistics.resetConnections, registry)
        gauge("lowband_proxy_buffered_bytes", proxy, "Bytes read and not yet taken by the kernel on the far side (queue depth).", Double(statistics.bufferedBytes), registry)
        gauge("lowband_proxy_buffered_bytes_peak", proxy, "The most lowband_proxy_buffered_bytes has been.", Double(statistics.peakBufferedBytes), registry)
        counter("lowband_proxy_dns_lookups_total", proxy, "Names looked up on the device's network (the profile's dns).", statistics.dnsLookups, registry)
        counter("lowband_proxy_dns_failures_total", proxy, "Lookups that failed as the profile's dns.failure says.", statistics.dnsFailures, registry)
        counter("lowband_proxy_loss_stalls_total", proxy, "Pieces the link lost, each stalling a connection for a retransmission timeout.", statistics.lossStalls, registry)
        let stallSeconds = Double(statistics.lossStallTime.nanosecondsClamped) / 1e9
        registry.makeCounter(descriptor: descriptor("lowband_proxy_loss_stall_seconds_total", "The loss stalls' retransmission timeouts added up."), labels: proxy)
            .increment(by: stallSeconds)
        if let radio = sample.radio { record(radio, proxy: proxy, in: registry) }
        // Every kind the link has started, sorted: the dictionary's order never reaches the text.
        for (kind, count) in statistics.outages.sorted(by: { $0.key < $1.key }) {
            counter("lowband_proxy_outages_total", proxy + [("kind", kind)], "Outage windows that began, by kind (a handover inside a blackout is two).", count, registry)
        }
    }

    /// The device's radio (docs/SHAPER.md, "Radio states and energy"): seconds in each state
    /// and promoting, promotions, and the energy when the profile gives powers.
    private static func record(_ radio: RadioStatistics, proxy: [(String, String)], in registry: PrometheusCollectorRegistry) {
        let seconds = descriptor("lowband_proxy_radio_seconds_total", "Seconds the device's radio spent in each state of the profile's radio model, and promoting.")
        for state in radio.secondsInState {
            registry.makeCounter(descriptor: seconds, labels: proxy + [("state", state.name)]).increment(by: state.seconds)
        }
        registry.makeCounter(descriptor: seconds, labels: proxy + [("state", "promoting")]).increment(by: radio.promotingSeconds)
        counter("lowband_proxy_radio_promotions_total", proxy, "Times the radio was promoted back to its top state.", radio.promotions, registry)
        if let joules = radio.joules {
            registry.makeCounter(descriptor: descriptor("lowband_proxy_radio_energy_joules_total", "Energy the radio drew above the phone's idle power, by the profile's powers."), labels: proxy)
                .increment(by: joules)
        }
    }

    private static func counter(_ name: String, _ labels: [(String, String)], _ help: String, _ value: Int, _ registry: PrometheusCollectorRegistry) {
        registry.makeCounter(descriptor: descriptor(name, help), labels: labels).increment(by: Int64(value))
    }

    private static func gauge(_ name: String, _ labels: [(String, String)], _ help: String, _ value: Double, _ registry: PrometheusCollectorRegistry) {
        registry.makeGauge(descriptor: descriptor(name, help), labels: labels).set(value)
    }

    /// The library builds names from parts; ours are written whole, so the whole name is the
    /// descriptor's base name.
    private static func descriptor(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }
}
