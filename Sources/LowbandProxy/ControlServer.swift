public import LowbandAppEvents
import Foundation
import LowbandProxyCore
public import NIOCore
import NIOHTTP1
public import NIOPosix
import ServiceLifecycle
import Synchronization

/// The HTTP/JSON control API, compatible with toxiproxy's (v2), serving a ``ProxyRegistry``.
///
/// Existing toxiproxy clients work unchanged against it; see docs/PROXY.md for the routes and
/// the Lowband additions (profiles, seeds, event streams). Request bodies are capped
/// (``Configuration/maximumBodyBytes``, 413 beyond), so are event streams
/// (``Configuration/maximumEventStreams``, 503 beyond); malformed HTTP gets 400 and a close.
/// Requests load profiles only as ``Configuration/profiles`` allows.
public final class ControlServer: Sendable {
    /// Where the API listens, and its limits.
    public struct Configuration: Sendable {
        /// Where the API listens; toxiproxy's default is 8474.
        public var listen: ProxyEndpoint
        /// A request body over this many bytes is refused with 413.
        public var maximumBodyBytes: Int
        /// `GET /proxies/{proxy}/events` streams served at once, over all proxies; one more is
        /// refused with 503.
        public var maximumEventStreams: Int
        /// The profiles `POST /proxies/{proxy}/profile` may load.
        public var profiles: APIProfileAccess
        /// What `GET /version` reports.
        public var version: String
        /// Receives what the API keeps out of its answers (why a profile was refused); one line
        /// each.
        public var log: @Sendable (String) -> Void
        /// Where `POST /events` puts an app's events; nil (the default): the API takes none.
        public var events: AppEventLog?
        /// The live page's token (`GET /ui?token=…`): browsers, which the API otherwise refuses
        /// (as toxiproxy does, against cross-site requests), are served when they carry it in
        /// the `X-Lowband-Token` header (the page does). Nil (the default): no page, browsers refused.
        public var pageToken: String?
        /// Pauses and resumes the session's record (`GET|POST /record`); nil: no record runs.
        public var record: RecordSwitch?

        /// The defaults: 127.0.0.1:8474, 1 MiB bodies, 32 event streams, profile names only.
        public init(
            listen: ProxyEndpoint = ProxyEndpoint(host: "127.0.0.1", port: 8474),
            maximumBodyBytes: Int = 1024 * 1024,
            maximumEventStreams: Int = 32,
            profiles: APIProfileAccess = APIProfileAccess(),
            version: String = "lowband-0.1.0",
            log: @escaping @Sendable (String) -> Void = { _ in },
            events: AppEventLog? = nil,
            pageToken: String? = nil,
            record: RecordSwitch? = nil
        ) {
            self.events = events
            self.pageToken = pageToken
            self.record = record
            self.listen = listen
            self.maximumBodyBytes = maximumBodyBytes
            self.maximumEventStreams = maximumEventStreams
            self.profiles = profiles
            self.version = version
            self.log = log
        }
    }

    private typealias Connection = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>

    private enum State {
        case idle
        case bound(any Channel)
        case running
    }

    /// A fresh token for the live page (``Configuration/pageToken``): 128 random bits in hex.
    public static func makePageToken() -> String { BrowserGate.makeToken() }

    /// The proxies the API manages.
    public let registry: ProxyRegistry
    /// The settings the API was made with.
    public let configuration: Configuration
    private let group: any EventLoopGroup
    private let state = Mutex(State.idle)
    private let address = Mutex<SocketAddress?>(nil)
    /// Every accepted connection, served from its accept to its close.
    private let connections: ServedConnections<HTTPServerRequestPart, HTTPServerResponsePart>

    /// An API for `registry`'s proxies on `group`; it listens from ``start()``.
    public init(
        registry: ProxyRegistry,
        configuration: Configuration = Configuration(),
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.registry = registry
        self.configuration = configuration
        self.group = group
        let api = ControlAPI(
            registry: registry, version: configuration.version, profiles: configuration.profiles, log: configuration.log, events: configuration.events,
            pageToken: configuration.pageToken, record: configuration.record)
        let limits = Limits(body: configuration.maximumBodyBytes, eventStreams: configuration.maximumEventStreams)
        connections = ServedConnections { connection in
            await Self.serve(connection, api: api, limits: limits)
        }
    }

    /// The bound address once ``start()`` or ``run()`` has bound it.
    public var listeningAddress: SocketAddress? { address.withLock { $0 } }

    /// Binds the API's socket and returns its address; connections are served from then on,
    /// until ``run()`` ends.
    ///
    /// - Throws: `ProxyError` with code `listenFailed` when the address cannot be bound.
    @discardableResult
    public func start() async throws -> SocketAddress {
        if let bound = listeningAddress { return bound }
        let listen = configuration.listen
        let connections = connections
        let listener: any Channel
        do {
            // The classic child initializer rather than the async `bind`: each connection is handed
            // to its own serving task as it is accepted (``ServedConnections`` says why).
            listener = try await ServerBootstrap(group: group)
                .serverChannelOption(.backlog, value: 64)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                        let connection = try Connection(
                            wrappingChannelSynchronously: channel,
                            configuration: .init(isOutboundHalfClosureEnabled: true)
                        )
                        connections.admit(connection)
                    }
                }
                .bind(host: listen.host, port: listen.port).get()
        } catch {
            throw ProxyError(.listenFailed, "cannot listen on \(listen) for the control API: \(ProxyEngine.describe(error))")
        }
        let bound = listener.localAddress
        let kept = state.withLock { state in
            guard case .idle = state else { return false }
            state = .bound(listener)
            return true
        }
        guard kept, let bound else {
            try? await listener.close()
            throw ProxyError(.listenFailed, "the control API on \(listen) is already started")
        }
        address.withLock { $0 = bound }
        return bound
    }

    /// Serves requests until its `ServiceGroup` shuts down gracefully or the task is cancelled,
    /// then closes the socket and every connection, and stops every proxy of the registry.
    public func run() async throws {
        try await start()
        let listener: (any Channel)? = state.withLock { state in
            guard case .bound(let listener) = state else { return nil }
            state = .running
            return listener
        }
        guard let listener else {
            throw ProxyError(.listenFailed, "the control API on \(configuration.listen) is already running")
        }
        // A graceful shutdown or a cancellation closes the listener, which ends the wait.
        await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                try? await listener.closeFuture.get()
            } onCancel: {
                listener.close(promise: nil)
            }
        } onGracefulShutdown: {
            listener.close(promise: nil)
        }
        await connections.stop()
        await registry.stopAll()
    }

    // MARK: Serving one connection

    /// The caps every connection's requests are held to, and the event streams being served.
    private final class Limits: Sendable {
        let body: Int
        let eventStreams: Int
        private let streaming = Mutex(0)

        init(body: Int, eventStreams: Int) {
            self.body = body
            self.eventStreams = eventStreams
        }

        /// Takes an event-stream slot; false when all are taken.
        func startStream() -> Bool {
            streaming.withLock { count in
                guard count < eventStreams else { return false }
                count += 1
                return true
            }
        }

        func endStream() {
            streaming.withLock { $0 -= 1 }
        }
    }

    private static func serve(_ connection: Connection, api: ControlAPI, limits: Limits) async {
        let maximumBodyBytes = limits.body
        do {
            try await connection.executeThenClose { inbound, outbound in
                var head: HTTPRequestHead?
                var body: [UInt8] = []
                var iterator = inbound.makeAsyncIterator()
                while let part = try await iterator.next() {
                    switch part {
                    case .head(let requestHead):
                        head = requestHead
                        body = []
                        let declared = requestHead.headers.first(name: "content-length").flatMap { Int($0) } ?? 0
                        if declared > maximumBodyBytes {
                            try await refuseLargeBody(requestHead, limit: maximumBodyBytes, inbound: &iterator, outbound)
                            return
                        }
                        if requestHead.headers.first(name: "expect")?.lowercased() == "100-continue" {
                            // curl asks before sending a body over 1 KiB; Go's server answers at once.
                            try await outbound.write(.head(HTTPResponseHead(version: requestHead.version, status: .continue)))
                        }
                    case .body(let buffer):
                        guard let requestHead = head else { continue }
                        if body.count + buffer.readableBytes > maximumBodyBytes {
                            try await refuseLargeBody(requestHead, limit: maximumBodyBytes, inbound: &iterator, outbound)
                            return
                        }
                        body += buffer.readableBytesView
                    case .end:
                        guard let requestHead = head else { continue }
                        head = nil
                        let keepAlive = requestHead.isKeepAlive
                        if requestHead.headers.first(name: "user-agent")?.hasPrefix("Mozilla/") == true, !BrowserGate.admits(requestHead, token: api.pageToken) {
                            // As toxiproxy: browsers are refused, so a web page cannot drive the
                            // API; only the live page, which carries the process's token, is served.
                            let words = api.pageToken == nil
                                ? "User agent not allowed"
                                : "User agent not allowed: a browser needs the live page's token (lowband proxy prints its /ui?token=… address at start)"
                            try await reply(.error(ProxyError(.init(name: "forbidden", httpStatus: 403), words)), to: requestHead, keepAlive: keepAlive, outbound)
                        } else {
                            let response = await api.respond(to: request(requestHead, body: body))
                            if case .events(let proxy, let limit) = response {
                                guard limits.startStream() else {
                                    let error = ProxyError(.tooManyEventStreams, "too many event streams: at most \(limits.eventStreams) are served at once; close one first")
                                    try await reply(.error(error), to: requestHead, keepAlive: keepAlive, outbound)
                                    if !keepAlive { return }
                                    continue
                                }
                                defer { limits.endStream() }
                                try await streamEvents(of: proxy, limit: limit, to: requestHead, closed: connection.channel.closeFuture, outbound)
                                return
                            }
                            try await reply(response, to: requestHead, keepAlive: keepAlive, outbound)
                        }
                        if !keepAlive { return }
                    }
                }
            }
        } catch {
            // The client went away or sent something NIO's HTTP decoder answered with 400;
            // either way the connection is closed and there is nobody left to tell.
        }
    }

    private static func request(_ head: HTTPRequestHead, body: [UInt8]) -> ControlRequest {
        let parts = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts.first.map(String.init) ?? "/"
        let segments = path.split(separator: "/").map { String($0).removingPercentEncoding ?? String($0) }
        var query: [String: String] = [:]
        if parts.count > 1 {
            for pair in parts[1].split(separator: "&") {
                let keyValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let key = String(keyValue[0]).removingPercentEncoding ?? String(keyValue[0])
                let value = keyValue.count > 1 ? (String(keyValue[1]).removingPercentEncoding ?? String(keyValue[1])) : ""
                query[key] = value
            }
        }
        return ControlRequest(method: head.method.rawValue, segments: segments, query: query, body: body)
    }

    /// Answers 413, sends FIN, then reads and discards what the client still sends (at most
    /// 16 MiB) so that closing does not reset the connection before the client read the answer.
    private static func refuseLargeBody(
        _ head: HTTPRequestHead, limit: Int,
        inbound iterator: inout NIOAsyncChannelInboundStream<HTTPServerRequestPart>.AsyncIterator,
        _ outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>
    ) async throws {
        let error = ProxyError(.bodyTooLarge, "request body larger than \(limit) bytes")
        try await reply(.error(error), to: head, keepAlive: false, outbound)
        outbound.finish()
        var discarded = 0
        while discarded < 16 * 1024 * 1024, let part = try await iterator.next() {
            if case .body(let buffer) = part { discarded += buffer.readableBytes }
        }
    }

    private static func reply(
        _ response: ControlResponse, to head: HTTPRequestHead, keepAlive: Bool,
        _ outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>
    ) async throws {
        var headers = HTTPHeaders()
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        switch response {
        case .noContent:
            try await outbound.write(.head(HTTPResponseHead(version: head.version, status: .noContent, headers: headers)))
            try await outbound.write(.end(nil))
        case .json(let status, let body):
            try await write(body, status: status, contentType: "application/json", headers, to: head, outbound)
        case .text(let status, let contentType, let body):
            try await write(body, status: status, contentType: contentType, headers, to: head, outbound)
        case .events:
            break
        }
    }

    /// A whole body with its length.
    private static func write(
        _ body: [UInt8], status: Int, contentType: String, _ headers: HTTPHeaders, to head: HTTPRequestHead,
        _ outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>
    ) async throws {
        var headers = headers
        headers.add(name: "Content-Type", value: contentType)
        headers.add(name: "Content-Length", value: String(body.count))
        let responseHead = HTTPResponseHead(version: head.version, status: HTTPResponseStatus(statusCode: status), headers: headers)
        try await outbound.write(.head(responseHead))
        try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body))))
        try await outbound.write(.end(nil))
    }

    /// Streams the proxy's events, one JSON line each, until `limit`, the client leaves, the
    /// proxy is deleted or the server stops. A client that leaves ends the stream at once, not
    /// at the next event, so it frees its slot even on a quiet proxy.
    private static func streamEvents(
        of proxy: ShapingProxy, limit: Int?, to head: HTTPRequestHead, closed: EventLoopFuture<Void>,
        _ outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>
    ) async throws {
        let events = proxy.events()
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/x-ndjson")
        headers.add(name: "Connection", value: "close")
        try await outbound.write(.head(HTTPResponseHead(version: head.version, status: .ok, headers: headers)))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // `closed` cannot be cancelled, so wait on a promise that cancelling completes.
                let gone = closed.eventLoop.makePromise(of: Void.self)
                closed.cascade(to: gone)
                await withTaskCancellationHandler {
                    try? await gone.futureResult.get()
                } onCancel: {
                    gone.succeed(())
                }
            }
            group.addTask {
                var sent = 0
                for await event in events {
                    try await outbound.write(.body(.byteBuffer(ByteBuffer(string: event.jsonLine + "\n"))))
                    sent += 1
                    if let limit, sent >= limit { break }
                }
                try await outbound.write(.end(nil))
            }
            try await group.next()
            group.cancelAll()
        }
    }
}
