import Logging
import LowbandFixtures
import LowbandServer
import LowbandTestSupport
import LowbandWire
import NIOCore
import NIOPosix
import ServiceLifecycle
import Testing

/// `MessengerSocketServer` as a swift-service-lifecycle `Service` in the user's own group.
@Suite(.timeLimit(.minutes(5))) struct ServerServiceTests {
    let loop = MultiThreadedEventLoopGroup.singleton.any()

    @Test func theGroupsGracefulShutdownClosesThePortAndTheConnectionsButKeepsTheData() async throws {
        let world = MessengerWorld(seed: 3, shape: .init(users: 3, chatsPerUser: 2, messagesPerChat: 2))
        let server = try await MessengerSocketServer.start(world: world)
        let client = try await LoopClient.connect(port: server.port, loop: loop)
        let token = try #require(world.user(1)?.token)
        #expect(try await client.call(LoginRequest(token: token, lastSync: 0)).userID == 1)
        let group = ServiceGroup(configuration: .init(services: [server], logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })))

        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            await group.triggerGracefulShutdown()
            try await tasks.next()
        }
        _ = try await client.closed()
        await #expect(throws: (any Error).self, "the port is closed") {
            try await LoopClient.connect(port: server.port, loop: loop)
        }

        // The data stayed: a restart serves the same users.
        try await server.restart()
        let again = try await LoopClient.connect(port: server.port, loop: loop)
        #expect(try await again.call(LoginRequest(token: token, lastSync: 0)).userID == 1)
        try await again.close()
        try await server.stop()
    }
}
