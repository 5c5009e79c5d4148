import LowbandBasics
import LowbandShaper

extension ShellSnapshot {
    /// `GET /stats`: one JSON object, keys in a fixed order, drop causes sorted.
    package var json: String {
        func lane(_ direction: Direction) -> String {
            let lane = statistics[direction]
            let causes = lane.dropped.keys.sorted().map { "\(JSONString.quoted($0)):\(lane.dropped[$0]!)" }.joined(separator: ",")
            return "{\"offered_frames\":\(lane.offeredFrames),\"offered_bytes\":\(lane.offeredBytes),"
                + "\"delivered_frames\":\(lane.deliveredFrames),\"delivered_bytes\":\(lane.deliveredBytes),"
                + "\"dropped_frames\":\(lane.droppedFrames),\"dropped\":{\(causes)},\"queued_bytes\":\(queuedBytes[direction == .upstream ? 0 : 1])}"
        }
        let radioText = radio.map { "{\"state\":\(JSONString.quoted($0.state)),\"promotions\":\($0.promotions)}" } ?? "null"
        return "{\"profile\":\(JSONString.quoted(profile)),\"seed\":\(seed),\"elapsed_s\":\(elapsed),\"running\":\(running),"
            + "\"upstream\":\(lane(.upstream)),\"downstream\":\(lane(.downstream)),\"radio\":\(radioText)}\n"
    }

    /// `GET /metrics`: the Prometheus text format (0.0.4), families and samples in a fixed order.
    package var metrics: String {
        var text = ""
        func family(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: String)]) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
            for sample in samples { text += "\(name){\(sample.labels)} \(sample.value)\n" }
        }
        let base = "profile=\(JSONString.quoted(profile)),seed=\"\(seed)\""
        func perDirection(_ value: (ShellStatistics.Lane, Int) -> Int) -> [(labels: String, value: String)] {
            Direction.allCases.map { direction in
                ("direction=\"\(direction.rawValue)\",\(base)", String(value(statistics[direction], direction == .upstream ? 0 : 1)))
            }
        }
        family("lowband_shell_delivered_bytes_total", "counter", "IP bytes the link delivered, by direction.", perDirection { lane, _ in lane.deliveredBytes })
        family("lowband_shell_delivered_frames_total", "counter", "Frames the link delivered, by direction.", perDirection { lane, _ in lane.deliveredFrames })
        var drops: [(labels: String, value: String)] = []
        for direction in Direction.allCases {
            let lane = statistics[direction]
            for cause in lane.dropped.keys.sorted() {
                drops.append(("cause=\(JSONString.quoted(cause)),direction=\"\(direction.rawValue)\",\(base)", String(lane.dropped[cause]!)))
            }
        }
        family("lowband_shell_dropped_frames_total", "counter", "Frames dropped, by cause (loss, queue-full, over-mtu, link-down, in-flight-cap, tap-write) and direction.", drops)
        family("lowband_shell_offered_bytes_total", "counter", "IP bytes offered to the link, by direction.", perDirection { lane, _ in lane.offeredBytes })
        family("lowband_shell_offered_frames_total", "counter", "Frames offered to the link, by direction.", perDirection { lane, _ in lane.offeredFrames })
        family("lowband_shell_queued_bytes", "gauge", "Bytes waiting for or crossing the direction's bottleneck now.", perDirection { _, index in queuedBytes[index] })
        family("lowband_shell_running", "gauge", "1 while the command runs.", [(base, running ? "1" : "0")])
        return text
    }
}
