/// The device's radio as a ladder of power states (3GPP RRC): data moves only in the top
/// state; after its inactivity timer a state drops to the next one down, until the bottom; the
/// next transfer (or connect) first waits for the promotion from the state the radio is in back
/// to the top. Each state draws its power, so a run knows its radio-on time, its promotions and
/// its energy.
///
/// 3G (Qian et al., IMC 2010): CELL_DCH → (5 s) CELL_FACH → (12 s) IDLE, promotions 1.5 s from
/// FACH and 2 s from IDLE. LTE (Huang et al., MobiSys 2012): RRC_CONNECTED continuous reception
/// → (100 ms) DRX tail → (11.5 s) RRC_IDLE, promotion 260 ms. A profile's `wakeup` (idle, delay)
/// is the two-state ladder without power figures.
public struct RadioProfile: Sendable, Hashable {
    /// One power state.
    public struct State: Sendable, Hashable {
        /// Its name, as the standard calls it (`CELL_DCH`, `RRC_IDLE`).
        public var name: String
        /// The power it draws, milliwatts (above the phone's base); nil when not known.
        public var milliwatts: Double?
        /// How long without traffic before the radio drops to the next state down; nil for the
        /// bottom state, where it stays.
        public var demoteAfter: Duration?
        /// The promotion from this state to the top (drawn uniformly from the range for each);
        /// zero for the top state.
        public var promotion: ClosedRange<Duration>
        /// The small transfers this state carries itself, without a promotion (3G's CELL_FACH
        /// on its shared channel); nil when every transfer is promoted to the top.
        public var carries: Carried?

        /// A state drawing `milliwatts`, dropping after `demoteAfter`, promoted in `promotion`,
        /// carrying `carries` itself.
        public init(name: String, milliwatts: Double?, demoteAfter: Duration?, promotion: ClosedRange<Duration> = .zero ... .zero, carries: Carried? = nil) {
            self.name = name
            self.milliwatts = milliwatts
            self.demoteAfter = demoteAfter
            self.promotion = promotion
            self.carries = carries
        }
    }

    /// The most bytes waiting on a direction that a state sends without a promotion: past
    /// them the radio is promoted to the top (3G's RLC buffer thresholds).
    public struct Carried: Sendable, Hashable {
        /// Bytes waiting to go up (the device's uplink) that the state still sends itself.
        public var uplink: Int
        /// Bytes waiting to come down that the state still sends itself.
        public var downlink: Int

        /// Thresholds of `uplink` and `downlink` bytes.
        public init(uplink: Int, downlink: Int) {
            self.uplink = uplink
            self.downlink = downlink
        }

        /// The threshold of `direction` (upstream is the device's uplink).
        public func bytes(_ direction: Direction) -> Int {
            direction == .upstream ? uplink : downlink
        }
    }

    /// The states from the top (data moves) down to the bottom (where the radio rests).
    public var states: [State]
    /// The power drawn while promoting, milliwatts; nil: the top state's.
    public var promotionMilliwatts: Double?

    /// A ladder of `states`, top first.
    public init(states: [State], promotionMilliwatts: Double? = nil) {
        self.states = states
        self.promotionMilliwatts = promotionMilliwatts
    }

    /// The two-state radio a profile's `wakeup` describes: awake, and asleep after `idle`,
    /// taking `delay` to wake; no power figures.
    public init(wakeUp: WakeUpProfile) {
        states = [
            State(name: "awake", milliwatts: nil, demoteAfter: wakeUp.idle),
            State(name: "asleep", milliwatts: nil, demoteAfter: nil, promotion: wakeUp.delay),
        ]
        promotionMilliwatts = nil
    }

    /// Whether every state (and the promotion) has a power figure: energy can be reported.
    public var knowsPower: Bool {
        states.allSatisfy { $0.milliwatts != nil }
    }

    /// The longest promotion of any state.
    public var longestPromotion: Duration {
        states.map(\.promotion.upperBound).max() ?? .zero
    }
}

/// What the radio did over a run: time in each state, promotions, energy.
public struct RadioStatistics: Sendable, Hashable {
    /// Seconds spent in each state, in the profile's order (top first), promotions apart.
    public var secondsInState: [(name: String, seconds: Double)]
    /// Seconds spent promoting.
    public var promotingSeconds: Double
    /// Promotions (wake-ups) so far.
    public var promotions: Int
    /// Energy drawn, joules; nil when the profile gives no power figures.
    public var joules: Double?
    /// The state the radio is in at the moment the figures were taken, or `promoting`.
    public var state: String

    /// Seconds in any state but the bottom one, promotions included: the radio was on.
    public var onSeconds: Double {
        secondsInState.dropLast().reduce(promotingSeconds) { $0 + $1.seconds }
    }

    public static func == (lhs: RadioStatistics, rhs: RadioStatistics) -> Bool {
        lhs.secondsInState.map(\.name) == rhs.secondsInState.map(\.name) && lhs.secondsInState.map(\.seconds) == rhs.secondsInState.map(\.seconds)
            && lhs.promotingSeconds == rhs.promotingSeconds && lhs.promotions == rhs.promotions && lhs.joules == rhs.joules && lhs.state == rhs.state
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(promotions)
        hasher.combine(promotingSeconds)
    }
}
