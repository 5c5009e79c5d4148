import LowbandDeterminism

/// The soak's settings and its seeded chaos: which client dies when, when the server and the
/// proxy are killed, and how long each stays down.
///
/// Times are offsets from the soak's start on the wall clock: a soak runs real processes over
/// real sockets. The seed fixes every choice, not the interleaving the kernel picks.
package struct SoakPlan {
    package var clients: Int
    package var messages: Int
    package var seed: UInt64
    package var profile: String
    /// Mean time between two client kills (each 0.5–1.5× this, seeded).
    package var clientKillEvery: Duration
    package var serverKills: Int
    /// Mean time between two server kills (each 0.8–1.2× this after the previous, seeded).
    package var serverKillEvery: Duration
    package var proxyRestarts: Int
    /// Give up when the clients have not all finished by then.
    package var deadline: Duration

    package init(
        clients: Int, messages: Int, seed: UInt64, profile: String, clientKillEvery: Duration, serverKills: Int, serverKillEvery: Duration,
        proxyRestarts: Int, deadline: Duration
    ) {
        self.clients = clients
        self.messages = messages
        self.seed = seed
        self.profile = profile
        self.clientKillEvery = clientKillEvery
        self.serverKills = serverKills
        self.serverKillEvery = serverKillEvery
        self.proxyRestarts = proxyRestarts
        self.deadline = deadline
    }

    /// The seeded draws of a soak, one stream per kind of decision.
    package struct Chaos {
        private var clientKills: SeededGenerator
        private var victims: SeededGenerator
        private var downtimes: SeededGenerator
        package let serverKillTimes: [Duration]
        package let proxyRestartTimes: [Duration]

        package init(plan: SoakPlan) {
            let root = SeededGenerator(seed: plan.seed)
            clientKills = root.derived(1)
            victims = root.derived(2)
            downtimes = root.derived(3)
            var faults = root.derived(4)
            var time = Duration.zero
            var serverTimes: [Duration] = []
            for _ in 0 ..< plan.serverKills {
                time += plan.serverKillEvery * Self.uniform(&faults, 0.8, 1.2)
                serverTimes.append(time)
            }
            serverKillTimes = serverTimes
            // Proxy restarts fall between server kills, so the two never mask each other.
            proxyRestartTimes = (0 ..< plan.proxyRestarts).map { index in
                plan.serverKillEvery * (Double(index) + 0.5) * Self.uniform(&faults, 0.9, 1.1)
            }
        }

        /// The wait until the next client kill.
        package mutating func nextClientKill(every mean: Duration) -> Duration {
            mean * Self.uniform(&clientKills, 0.5, 1.5)
        }

        /// One of `count` candidates.
        package mutating func victim(of count: Int) -> Int {
            Int(victims.next() % UInt64(count))
        }

        /// How long a killed process stays down before it is started again.
        package mutating func downtime(_ low: Double, _ high: Double) -> Duration {
            .seconds(1) * Self.uniform(&downtimes, low, high)
        }

        private static func uniform(_ generator: inout SeededGenerator, _ low: Double, _ high: Double) -> Double {
            low + (high - low) * Double(generator.next() >> 11) / Double(1 << 53)
        }
    }
}
