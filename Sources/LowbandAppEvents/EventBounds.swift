import LowbandBasics
public import LowbandShaper

/// How long the event checker gives an app before a missing message or an unanswered send
/// counts as a broken promise (docs/APP-EVENTS.md, "Bounds"): the network's worst delivery on
/// the profile (`NetworkProfile.worstDelivery`, the same figure `lowband run`'s
/// bounds start from) plus what an app needs to notice a dead link and come back. Printed with
/// every verdict; `--bound settle=5s` overrides one.
public struct EventBounds: Sendable, Hashable, CustomStringConvertible {
    /// A member connected this long after a message was acknowledged must have it.
    public var settle: Duration
    /// A send must be acknowledged within this much time in which its device was connected and
    /// the link delivered.
    public var liveness: Duration

    /// What an app gets on top of the network to notice a dead link and reconnect (a keep-alive
    /// or two, a back-off) before a missing message counts.
    public static let appAllowance: Duration = .seconds(30)

    /// The bounds of `profile`.
    public init(profile: NetworkProfile) {
        // Whole milliseconds, so the printed bound reads as it is used.
        let network = Duration.milliseconds((profile.worstDelivery.milliseconds).rounded(.up))
        settle = network + Self.appAllowance
        liveness = network + Self.appAllowance
    }

    /// Bounds with both figures given.
    public init(settle: Duration, liveness: Duration) {
        self.settle = settle
        self.liveness = liveness
    }

    /// The names `--bound` takes.
    public static let names = ["settle", "liveness"]

    /// Applies `NAME=DURATION` (`settle=5s`).
    ///
    /// - Throws: ``BoundError`` naming the unknown bound or the bad duration.
    public mutating func apply(_ text: String) throws(BoundError) {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { throw BoundError(description: "--bound \(text): expected NAME=DURATION, e.g. settle=5s") }
        let value: Duration
        do {
            value = try DurationText.parse(parts[1])
        } catch {
            throw BoundError(description: "--bound \(text): \(error)")
        }
        switch parts[0] {
        case "settle": settle = value
        case "liveness": liveness = value
        default: throw BoundError(description: "--bound \(text): unknown bound '\(parts[0])'; known bounds: \(Self.names.joined(separator: ", "))")
        }
    }

    /// A bad `--bound`.
    public struct BoundError: Error, Sendable, CustomStringConvertible {
        /// What was wrong with it.
        public var description: String
    }

    /// `settle 41.2 s, liveness 41.2 s`.
    public var description: String {
        "settle \(DurationText.format(settle)), liveness \(DurationText.format(liveness))"
    }
}
