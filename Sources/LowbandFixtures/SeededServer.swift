public import LowbandDeterminism
public import LowbandServer
public import LowbandTransport
public import LowbandTransportSockets
package import LowbandWire
public import NIOCore

/// Servers whose data is a seeded ``MessengerWorld``: the world is made here and handed to the
/// server as its own data (`ServerSnapshot`), so the server knows no fixtures.
extension ServerCore {
    /// A server in memory whose data is `world`'s, its clock starting at
    /// `configuration.epoch` (the world's times are before it).
    public init(world: MessengerWorld, configuration: ServerConfiguration = ServerConfiguration()) {
        self.init(configuration: configuration, snapshot: ServerSnapshot(world: world, epoch: configuration.epoch))
    }
}

extension MessengerServer {
    /// A server on `scheduler` whose data is `world`'s.
    public convenience init(world: MessengerWorld, configuration: ServerConfiguration = ServerConfiguration(), scheduler: any Scheduler) {
        self.init(core: ServerCore(world: world, configuration: configuration), scheduler: scheduler)
    }
}

extension MessengerSocketServer {
    /// Starts a server whose data is `world`'s on `eventLoop` and listens; the other
    /// parameters are those of `start(core:listener:eventLoop:onEvent:acceptor:)`.
    public static func start(
        world: MessengerWorld,
        configuration: ServerConfiguration = ServerConfiguration(),
        listener: SocketFrameListener.Configuration = SocketFrameListener.Configuration(),
        eventLoop: (any EventLoop)? = nil,
        onEvent: (@Sendable (ServerEvent) -> Void)? = nil,
        acceptor: (@Sendable (MessengerServer) -> any FrameLinkAcceptor)? = nil
    ) async throws -> MessengerSocketServer {
        try await start(
            core: ServerCore(world: world, configuration: configuration), listener: listener, eventLoop: eventLoop, onEvent: onEvent, acceptor: acceptor)
    }
}

extension ServerSnapshot {
    /// The data of a freshly seeded `world` whose clock starts at `epoch`: chats changed last
    /// with their newest message (a day before the epoch when empty).
    package init(world: MessengerWorld, epoch: ServerTime) {
        let chats = world.chats.map { chat in
            let updatedAt = chat.messages.last?.sentAt ?? epoch - 86_400_000
            return StoredChat(
                id: chat.id, kind: chat.kind, title: chat.title, memberIDs: chat.memberIDs, messages: chat.messages,
                updatedAt: updatedAt, readUpTo: chat.readUpTo, readUpdatedAt: chat.memberIDs.map { _ in updatedAt }
            )
        }
        self.init(users: world.users.map(StoredUser.init), chats: chats, uploads: [], clock: epoch)
    }
}

extension StoredUser {
    /// The record of a seeded world's `user`.
    package init(_ user: MessengerWorld.User) {
        self.init(
            id: user.id, token: user.token, name: user.name, phone: user.phone, avatar: user.avatar, status: user.status,
            profileUpdatedAt: user.profileUpdatedAt, settings: user.settings, contactIDs: user.contactIDs
        )
    }
}
