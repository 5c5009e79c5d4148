/// The scenarios `lowband run` knows, by the name a user types.
package enum ScenarioName: String, CaseIterable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// Messages pushed to an open chat; time until each is visible.
    case pushToVisible = "push-to-visible"
    /// A cold start triggered by a push: notification-only then fetch, versus content in the push.
    case launchByPush = "launch-by-push"
    /// Messages sent while offline, then the network returns: delivered exactly once, drain time.
    case offlineBurst = "offline-burst"
    /// A reader scrolls up through a long chat: stalls, pages from cache or server, bytes.
    case scrollHistory = "scroll-history"
    /// A conversation across periodic blackouts: reconnects and delivery delays.
    case subway
    /// K clients chatting in groups through one shaped link.
    case crowd
    /// A phone in a pocket: rare messages, heartbeats between; energy per idle hour, late pushes.
    case pocket

    package var description: String { rawValue }

    /// One line for `lowband run --help` and error messages.
    package var summary: String {
        switch self {
        case .pushToVisible: "messages pushed to an open chat, time until each is visible"
        case .launchByPush: "cold start by a push: notification then fetch vs content in the push"
        case .offlineBurst: "messages sent offline, then the network returns: exactly once, drain time"
        case .scrollHistory: "a reader scrolls up a long chat: stalls, cache vs server pages, bytes"
        case .subway: "a conversation across periodic blackouts: reconnects, delivery delays"
        case .crowd: "K clients chatting in groups through one shaped link"
        case .pocket: "a phone in a pocket: rare messages, heartbeats between; energy per idle hour, late pushes"
        }
    }

    /// The fewest client engines the scenario can run with.
    package var minimumClients: Int {
        self == .crowd ? 2 : 1
    }

    /// How long a run lasts when `--duration` is not given. Subway needs several outage cycles
    /// (the first blackout starts at 30 s, one every 2 minutes), pocket an hour of rare
    /// messages (one every 5–15 minutes), the others about a minute.
    package var defaultDuration: Duration {
        switch self {
        case .subway: .seconds(300)
        case .pocket: .seconds(3600)
        default: .seconds(60)
        }
    }

    /// Parses a scenario name.
    ///
    /// - Throws: ``ScenarioError`` `unknownScenario`, listing the valid names.
    package init(parsing text: String) throws(ScenarioError) {
        guard let name = ScenarioName(rawValue: text) else {
            let names = ScenarioName.allCases.map(\.rawValue).joined(separator: ", ")
            throw ScenarioError(.unknownScenario, "unknown scenario '\(text)'; valid scenarios: \(names)")
        }
        self = name
    }
}
