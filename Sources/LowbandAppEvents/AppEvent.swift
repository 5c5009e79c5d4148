/// One thing an app says it did, as a JSON line: `{"device":"alice","kind":"sent","message":"m-17","chat":"c-1"}`
/// (docs/APP-EVENTS.md). Lowband stamps it with its own clock when it arrives, so the app needs
/// no clock in common with it; `t` is the app's own time, kept for the record only.
public struct AppEvent: Sendable, Hashable {
    /// What the app did.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Comparable {
        /// The user sent `message` into `chat` (the app handed it to its network code).
        case sent
        /// The server confirmed `message` (the app's own acknowledgement).
        case acked
        /// `message` of `chat` reached this device.
        case received
        /// `message` of `chat` became visible on this device's screen.
        case shown
        /// `message` of `chat` is in this device's local store.
        case stored
        /// The device has a working session (naming `chat` makes it a member of that chat).
        case connected
        /// The device's session ended.
        case disconnected

        /// Kinds that must name a message.
        public var needsMessage: Bool {
            switch self {
            case .sent, .acked, .received, .shown, .stored: true
            case .connected, .disconnected: false
            }
        }

        public static func < (lhs: Kind, rhs: Kind) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }

        /// `sent, acked, …`: the kinds in words, for errors.
        public static var known: String { allCases.map(\.rawValue).joined(separator: ", ") }
    }

    /// The device that did it (`alice`, `phone-2`).
    public var device: String
    /// What it did.
    public var kind: Kind
    /// The app's id of the message, for the message kinds.
    public var message: String?
    /// The app's id of the chat, where known.
    public var chat: String?
    /// The app's own time in milliseconds, if it gave one (not used for judging).
    public var appMilliseconds: Double?
    /// When Lowband received it, on the session's clock.
    public var arrival: Duration

    /// An event with every field given.
    public init(device: String, kind: Kind, message: String? = nil, chat: String? = nil, appMilliseconds: Double? = nil, arrival: Duration) {
        self.device = device
        self.kind = kind
        self.message = message
        self.chat = chat
        self.appMilliseconds = appMilliseconds
        self.arrival = arrival
    }

    /// Seconds since the session started.
    public var seconds: Double {
        Double(arrival.components.seconds) + Double(arrival.components.attoseconds) / 1e18
    }
}
