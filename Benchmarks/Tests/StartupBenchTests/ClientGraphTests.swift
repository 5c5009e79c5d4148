import LowbandClient
import LowbandDeterminism
import StartupBench
import Testing

@Suite struct ClientGraphTests {
    static let modules: Set<String> = ["LowbandClient", "StartupBench"]

    @Test func handAndSwinjectBuildTheSameGraph() throws {
        let inputs = try ClientGraphInputs.inMemory()
        let hand = ObjectGraphShape(of: ClientGraph.wiredByHand(inputs), modules: Self.modules)
        let container = ObjectGraphShape(of: ClientGraph.wiredBySwinject(inputs).root, modules: Self.modules)
        #expect(hand == container, "hand:\n\(hand)\n\ncontainer:\n\(container)")
    }

    @Test func theGraphHoldsOneOfEachServiceSharedByItsDependents() throws {
        let shape = ObjectGraphShape(of: ClientGraph.wiredBySwinject(try ClientGraphInputs.inMemory()).root, modules: Self.modules)
        let counts = Dictionary(uniqueKeysWithValues: shape.typeCounts.map { ($0.type, $0.count) })
        for service in ["ClientLog", "CacheDatabase", "MessageStore", "SyncStore", "OutboxStore", "Connection", "Outbox", "HistoryService", "ChatScreenModel"] {
            #expect(counts["LowbandClient.\(service)"] == 1, "\(service): \(counts)")
        }
        // One log, one connection and one writer, each reached from every service that uses it.
        #expect(Set(targets(of: "log", in: shape)).count == 1)
        #expect(targets(of: "log", in: shape).count == 4)  // graph, connection, outbox, history
        #expect(Set(targets(of: "sender", in: shape)).count == 1)
        #expect(shape.nodes[targets(of: "sender", in: shape)[0]] == "LowbandClient.Connection")
        #expect(Set(targets(of: "writer", in: shape)).count == 1)
        // Property injection: the connection and the outbox report to the root.
        #expect(targets(of: "observer.some", in: shape) == [0, 0])
    }

    @Test func bothWiringsDrawTheEnginesSeededStreams() throws {
        // Same seed, same derivations: the n-th client id matches the engine's own.
        let configuration = ClientConfiguration(token: "t", databasePath: ":memory:", seed: 42)
        let engine = try ClientEngine(configuration: configuration, connector: OfflineConnector(), scheduler: VirtualScheduler(), workClock: ManualWorkClock())
        let expected = try engine.outbox.store.enqueueMessage(chatID: 1, text: "hi")
        let hand = ClientGraph.wiredByHand(try ClientGraphInputs.inMemory(seed: 42))
        let container = ClientGraph.wiredBySwinject(try ClientGraphInputs.inMemory(seed: 42)).root
        #expect(try hand.outbox.store.enqueueMessage(chatID: 1, text: "hi") == expected)
        #expect(try container.outbox.store.enqueueMessage(chatID: 1, text: "hi") == expected)
        #expect(expected.first?.clientID != nil)
        let other = ClientGraph.wiredByHand(try ClientGraphInputs.inMemory(seed: 43))
        #expect(try other.outbox.store.enqueueMessage(chatID: 1, text: "hi") != expected)
    }

    @Test func aGraphWithAnExtraLogHasAnotherShape() throws {
        let inputs = try ClientGraphInputs.inMemory()
        let graph = ClientGraph.wiredByHand(inputs)
        let split = ClientGraph(
            log: graph.log, database: graph.database, messages: graph.messages, sync: graph.sync, connection: graph.connection,
            outbox: graph.outbox, history: HistoryService(store: graph.messages, sender: graph.connection, scheduler: inputs.scheduler, log: ClientLog()),
            screen: graph.screen)
        #expect(ObjectGraphShape(of: split, modules: Self.modules) != ObjectGraphShape(of: ClientGraph.wiredByHand(inputs), modules: Self.modules))
    }

    @Test func theContainerScopeResolvesTheRootOnce() throws {
        let container = ClientGraph.makeContainer(try ClientGraphInputs.inMemory())
        let first = try #require(container.resolve(ClientGraph.self))
        #expect(container.resolve(ClientGraph.self) === first)
        #expect(container.resolve(Connection.self) === first.connection)
    }

    /// The objects that properties ending in `.name` (or named `name`) point at.
    private func targets(of name: String, in shape: ObjectGraphShape) -> [Int] {
        shape.edges.filter { $0.path == name || $0.path.hasSuffix("." + name) }.map(\.to)
    }
}
