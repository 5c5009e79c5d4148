/// What every figure of a run means, in words for the report's glossary (`#glossary`) and
/// docs/RUN.md.
enum MetricGlossary {
    /// The meaning of the scenario metric `name`, or nil for a name this version does not know.
    static func meaning(of name: String) -> String? {
        switch name {
        case "push_to_visible": "from the server sending a push to the message entering the open chat's visible list (push-to-visible)"
        case "pushes": "push-to-visible: messages the server pushed to the readers' open chats; pocket: messages the partners wrote to the phones"
        case "pushes_by_push": "pocket: messages visible after their push reached the phone on a live connection"
        case "pushes_late": "pocket: messages that reached the phone only by the sync after a reconnect — their push went into a flow the network had forgotten (a NAT timeout longer than the heartbeat), or the link was down"
        case "push_delay": "pocket: from the partner writing a message to it being visible on the phone"
        case "dead_flow_notice": "pocket: seconds from the network forgetting a flow silently (a NAT timeout, a new address) to the engine giving the link up"
        case "bytes_per_message": "push-to-visible: downlink bytes per message a reader saw, its push frame's header and payload as they travelled (compressed with the wire dictionary the session agreed, or plain LZ4; docs/PROTOCOL.md, \"Compression dictionaries\")"
        case "delivery_delay": "subway: for a rider's own message, until the server's acknowledgement reached the rider; for the partner's, until it was visible on the rider's screen, by push or after a reconnect (the breakdown counts the partner's only: its deliveries to the rider). crowd: from the sender storing a message to each other member's engine holding it, by its push or by a later login's delta sync (the deliveries the breakdown counts)"
        case "reconnects": "times a client connected again after losing its connection"
        case "reconnects.fault": "sessions lost while an injected fault cut the client (or everyone) off, reset its connection or stopped the server or app, in the stretch before (the engine's heartbeat interval and timeout)"
        case "reconnects.outage": "sessions lost while a blackout of the profile or the scenario was in force in the stretch before (the engine's heartbeat interval and timeout)"
        case "reconnects.handover": "sessions lost while a handover of the profile was in force in the stretch before (the engine's heartbeat interval and timeout)"
        case "reconnects.reset": "sessions lost because the network reset the client's connection in the stretch before (the engine's heartbeat interval and timeout)"
        case "reconnects.loss-stall": "sessions lost while a retransmission timeout held the client's connection in the stretch before (the engine's heartbeat interval and timeout), with no outage, reset or fault then"
        case "reconnects.other": "sessions lost with none of the causes above: the engine's own doing, or a cause the model does not have"
        case "radio.on_time": "seconds the device's radio was out of its lowest power state (promoting, active or in a tail), as the profile's radio states play out (docs/SHAPER.md, \"Radio states and energy\")"
        case "radio.promotions": "times the radio had to be promoted from a lower power state before data could move (each costs the state's promotion delay)"
        case "radio.promoting": "seconds spent promoting"
        case "energy.total": "energy the radio drew over the run, joules, from the profile's power per state (above the phone's idle power); a virtual run's clients share one device link, so one radio: this is that radio's, not each phone's"
        case "energy.per_message": "energy.total over the messages stored during the run (each counted once, however many members it reached), joules per message"
        case "energy.per_delivery": "energy.total over the deliveries the breakdown counts (a message to each member that got it), joules per delivery"
        case "energy.per_hour": "energy.total scaled to an hour of this run, joules, of the one radio the run's clients share; for a run without messages, the cost of an idle hour (heartbeats, keepalives)"
        case "disconnects": "times a client lost its connection (a dead link found by heartbeat, a reset, a kill)"
        case "outages": "outages during the run, counted as defined under outage below"
        case "messages": "subway: messages written by riders and partners; crowd: messages the server acknowledged"
        case "undelivered": "subway: messages written but, when the run ended, neither acknowledged to the rider (own) nor visible on the rider's screen (partner's) — in flight or held back by a blackout, not lost (the acknowledged_lost promise checks loss)"
        case "delivered": "offline-burst: messages stored offline that the server stored at least once"
        case "duplicates": "offline-burst: extra copies of a message on the server or in the sender's cache (0 when every message arrived exactly once)"
        case "lost": "offline-burst: messages stored offline that are neither on the server nor still in the outbox"
        case "pending": "offline-burst: messages still waiting in an outbox when the run ended (neither delivered nor lost; a short run ends mid-burst)"
        case "outbox_drain": "offline-burst: from the network coming back to the client's outbox being empty, one sample per client and cycle"
        case "launch_notify_then_fetch": "launch-by-push, notification then fetch: from the server sending the message to it being visible after a cold start that connects and logs in first"
        case "launch_content_push": "launch-by-push, content push: from the server sending the message to it being visible after a cold start that shows it from the push"
        case "launch_gap": "launch-by-push: p50 of notification-then-fetch minus p50 of content push — what carrying the content in the push saves"
        case "launches_missed": "launch-by-push: launches whose message was not visible when the next launch was due"
        case "scroll_stall": "scroll-history: how long the reader waited at the top of the list for the next page, one sample per wait"
        case "pages": "scroll-history: history pages the screen loaded"
        case "pages_from_cache": "scroll-history: pages read from the client's cache"
        case "pages_from_server": "scroll-history: pages that needed a history request to the server"
        case "history_bytes": "scroll-history: bytes of the history replies received"
        case "readers_finished": "scroll-history: readers that reached the first message of the chat"
        case "bytes_up": "bytes the shaped link delivered from clients to the server"
        case "bytes_down": "bytes the shaped link delivered from the server to clients"
        default: name.hasPrefix("radio.state.") ? "seconds the radio spent in the state \(name.dropFirst("radio.state.".count)) (docs/SHAPER.md)" : nil
        }
    }

    /// Terms the report uses besides metric names, in reading order.
    static let terms: [(term: String, meaning: String)] = [
        ("p50, p90, p99", "nearest-rank percentiles: the sample at or below which 50 %, 90 %, 99 % of the samples lie; max is the largest"),
        ("samples", "how many values a figure summarises; a count measured once has one sample"),
        ("floor", "the physical floor of one push on the profile: the least one-way delay the profile allows (the delay less its jitter where that is bounded) plus the push's bytes at the downlink's bottleneck rate; no sample can be below it"),
        ("median", "the time the profile implies for the median push: the delay plus the median of its jitter plus the push's bytes at the bottleneck rate"),
        ("p50 / median", "the measured median over the profile's median: 1× is as fast as the network itself; above it is what the client and the queues added"),
        ("below floor", "samples faster than the floor: always 0 unless the measurement or the network model is wrong"),
        ("outage", Outages.definition),
        ("disconnect, reconnect", "a client losing its connection, and connecting again"),
        ("stage.<name>", "the time of delivered messages split into stages (results.csv and breakdown.csv); each stage is explained under “Where the time went”"),
        ("invariant.<name>", "broken promises of that kind (results.csv); each promise is explained in the Promises table"),
    ]

    /// The glossary section: the terms, then every metric of `records` in first-seen order.
    static func section(_ records: [RunRecord]) -> String {
        var seen: Set<String> = []
        let names = records.flatMap { $0.metrics.map(\.name) }.filter { seen.insert($0).inserted }
        var html = "<section id=\"glossary\"><h2>Glossary</h2><dl class=\"glossary\">"
        for (term, meaning) in terms {
            html += "<dt>\(HTMLEscaping.escape(term))</dt><dd>\(HTMLEscaping.escape(meaning))</dd>"
        }
        for name in names {
            let meaning = meaning(of: name) ?? "reported by the scenario; no description in this version of lowband"
            html += "<dt id=\"metric-\(HTMLEscaping.slug(name))\"><code>\(HTMLEscaping.escape(name))</code></dt><dd>\(HTMLEscaping.escape(meaning))</dd>"
        }
        return html + "</dl></section>"
    }
}
