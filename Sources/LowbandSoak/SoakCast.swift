import LowbandDeterminism
package import LowbandFixtures

/// Who writes where in a soak: one client process per user, each with its chat, its share of
/// the messages and its own cache file.
///
/// Writers prefer group chats, so several processes write into one chat and the audit's order
/// check compares interleavings, not one sender with itself.
package struct SoakCast {
    package struct Writer {
        /// 0-based; the client's files and message texts carry it.
        package var index: Int
        package var userID: Int64
        package var token: String
        package var chatID: Int64
        /// How many messages this client stores in all, across its restarts.
        package var messages: Int
        /// The engine's seed (client ids, jitter) for every start of this client.
        package var seed: UInt64

        /// `c07`: the prefix of this writer's message texts and file names.
        package var label: String {
            let digits = String(index)
            return "c" + String(repeating: "0", count: max(0, 2 - digits.count)) + digits
        }
    }

    package let writers: [Writer]

    /// The world's shape for `clients` writers: one user each, small histories.
    package static func shape(clients: Int) -> MessengerWorld.Shape {
        MessengerWorld.Shape(users: max(2, clients), chatsPerUser: 4, messagesPerChat: 10)
    }

    /// Spreads `messages` over `clients` writers of `world` (user `i + 1` is writer `i`).
    package init(world: MessengerWorld, clients: Int, messages: Int, seed: UInt64) {
        var generator = SeededGenerator(seed: seed).derived(0x50AC)
        var writers: [Writer] = []
        for index in 0 ..< clients {
            let user = world.users[index]
            let chats = world.chats(of: user.id)
            let groups = chats.filter { $0.kind == .group }
            let pool = groups.isEmpty ? chats : groups
            let chat = pool[Int(generator.next() % UInt64(pool.count))]
            let share = messages / clients + (index < messages % clients ? 1 : 0)
            writers.append(Writer(index: index, userID: user.id, token: user.token, chatID: chat.id, messages: share, seed: generator.next() | 1))
        }
        self.writers = writers
    }
}
