import Foundation
import LowbandBasics
import LowbandProxy
import LowbandShaper
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// `lowband shell --api`, on one event-loop thread: the shell's own `GET /stats` (JSON), `GET
/// /metrics` (Prometheus text) and `POST /outage`, and the proxy's routes for its one link
/// (``ShellRoutes``): switch profile or seed, outage and handover, toxics, the record, app
/// events, the live page, and `GET /proxies/shell/events` (the link's decisions as chunked JSON
/// lines, at most ``maximumEventStreams`` at once). Bodies over ``maximumBodyBytes`` are refused
/// (413). Browsers are refused unless they carry the page's token, as the proxy's API refuses
/// them (a page on another site must not switch the link).
package final class ShellAPI: Sendable {
    /// A request body over this many bytes is refused with 413 (the proxy's cap).
    static let maximumBodyBytes = 1024 * 1024
    /// Event streams served at once; one more gets 503.
    static let maximumEventStreams = 8

    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    /// The port it listens on (the one chosen when 0 was asked for).
    package let port: Int

    private init(group: MultiThreadedEventLoopGroup, channel: any Channel, port: Int) {
        self.group = group
        self.channel = channel
        self.port = port
    }

    /// Listens on `host`:`port` (0: any free port) serving `observer`'s link, its decisions
    /// from `tap`, and what `options` offers.
    package static func start(host: String, port: Int, observer: ShellObserver, tap: ShellEventTap, options: ShellAPIOptions) async throws(ShellError) -> ShellAPI {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let routes = ShellRoutes(observer: observer, options: options)
        let streams = StreamCount()
        do {
            let channel = try await ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                        try channel.pipeline.syncOperations.addHandler(ShellAPIHandler(routes: routes, tap: tap, streams: streams))
                    }
                }
                .bind(host: host, port: port).get()
            return ShellAPI(group: group, channel: channel, port: channel.localAddress?.port ?? port)
        } catch {
            try? await group.shutdownGracefully()
            throw ShellError(.system, "--api: cannot listen on \(host):\(port): \(error)")
        }
    }

    /// Stops listening and ends the thread.
    package func stop() async {
        try? await channel.close()
        try? await group.shutdownGracefully()
    }
}

/// The event streams open now.
private final class StreamCount: Sendable {
    let open = Mutex(0)
}

/// Where an event stream is: the next event to read, lines sent and allowed (its event loop's only).
private final class StreamProgress {
    var next: Int
    var sent = 0
    let limit: Int

    init(next: Int, limit: Int) {
        self.next = next
        self.limit = limit
    }
}

/// One API connection: a request's head, then the answer when its end arrives.
private final class ShellAPIHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let routes: ShellRoutes
    private let tap: ShellEventTap
    private let streams: StreamCount
    private var observer: ShellObserver { routes.observer }
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var bodyTooLarge = false
    private var streaming: RepeatedTask?

    init(routes: ShellRoutes, tap: ShellEventTap, streams: StreamCount) {
        self.routes = routes
        self.tap = tap
        self.streams = streams
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            head = request
            body = []
            bodyTooLarge = false
        case .body(let buffer):
            if body.count + buffer.readableBytes > ShellAPI.maximumBodyBytes {
                bodyTooLarge = true
            } else {
                body += buffer.readableBytesView
            }
        case .end:
            guard let request = head else { return }
            head = nil
            respond(to: request, context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopStreaming()
        context.fireChannelInactive()
    }

    /// `POST /outage`: `{"seconds": 5}` or `{"seconds": 2, "kind": "handover"}`, as the proxy's
    /// API takes it (0 < seconds ≤ 3600); the answer, or the error line.
    private func outage() -> (HTTPResponseStatus, String) {
        if bodyTooLarge { return (.payloadTooLarge, "the body of POST /outage is over \(ShellAPI.maximumBodyBytes) bytes\n") }
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            return (.badRequest, "POST /outage takes a JSON object: {\"seconds\": 5} or {\"seconds\": 2, \"kind\": \"handover\"}\n")
        }
        if let unknown = object.keys.sorted().first(where: { !["seconds", "kind"].contains($0) }) {
            return (.badRequest, "unknown key '\(unknown)' in the body of POST /outage (it takes seconds and kind)\n")
        }
        guard let seconds = (object["seconds"] as? NSNumber)?.doubleValue else {
            return (.badRequest, "missing required field: seconds (a number) in the body of POST /outage\n")
        }
        guard seconds.isFinite, seconds > 0, seconds <= 3600 else {
            return (.badRequest, "seconds must be more than 0 and at most 3600 in the body of POST /outage, not \(seconds)\n")
        }
        let kindName = object["kind"] as? String ?? "outage"
        let kind: OutageProfile.Kind
        switch kindName {
        case "outage": kind = .blackout
        case "handover": kind = .handover
        default: return (.badRequest, "kind must be 'outage' or 'handover' in the body of POST /outage, not '\(kindName)'\n")
        }
        observer.send(.outage(kind, .nanoseconds(Int64((seconds * 1e9).rounded()))))
        return (.ok, "{\"outage\":\(JSONString.quoted(kindName)),\"seconds\":\(seconds)}\n")
    }

    private func respond(to request: HTTPRequestHead, context: ChannelHandlerContext) {
        let parts = request.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts.first.map(String.init) ?? request.uri
        var query: [String: String] = [:]
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                query[String(kv[0]).removingPercentEncoding ?? String(kv[0])] = kv.count == 2 ? (String(kv[1]).removingPercentEncoding ?? String(kv[1])) : ""
            }
        }
        // A browser only with the page's token: no page of another site may switch the link.
        if request.headers.first(name: "user-agent")?.hasPrefix("Mozilla/") == true, !BrowserGate.admits(request, token: routes.options.pageToken) {
            return send(.forbidden, "application/json", Array(#"{"error":"browsers are served only the live page and its calls, with the token `lowband shell` printed","status":403}"#.utf8), request, context)
        }
        let segments = path.split(separator: "/").map { String($0).removingPercentEncoding ?? String($0) }
        switch (request.method, path) {
        case (.GET, "/stats"):
            return send(.ok, "application/json", Array(observer.snapshot.json.utf8), request, context)
        case (.GET, "/metrics"):
            return send(.ok, "text/plain; version=0.0.4; charset=utf-8", Array(observer.snapshot.metrics.utf8), request, context)
        case (.POST, "/outage"):
            let (answer, text) = outage()
            return send(answer, answer == .ok ? "application/json" : "text/plain", Array(text.utf8), request, context)
        case (_, "/stats"), (_, "/metrics"):
            return send(.methodNotAllowed, "text/plain", Array("only GET\n".utf8), request, context)
        case (_, "/outage"):
            return send(.methodNotAllowed, "text/plain", Array("only POST\n".utf8), request, context)
        case (.GET, "/proxies/\(ShellRoutes.linkName)/events"):
            return stream(request, limit: query["limit"], context: context)
        default:
            break
        }
        if bodyTooLarge {
            return send(.payloadTooLarge, "application/json", Array(#"{"error":"request body larger than \#(ShellAPI.maximumBodyBytes) bytes","status":413}"#.utf8), request, context)
        }
        let answer = routes.respond(method: request.method.rawValue, segments: segments, query: query, body: body)
        send(HTTPResponseStatus(statusCode: answer.status), answer.type, answer.body, request, context)
    }

    private func send(_ status: HTTPResponseStatus, _ type: String, _ body: [UInt8], _ request: HTTPRequestHead, _ context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        if status != .noContent {
            headers.add(name: "Content-Type", value: type)
            headers.add(name: "Content-Length", value: String(body.count))
        }
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: status, headers: headers))), promise: nil)
        if status != .noContent {
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        }
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
    }

    /// `GET /proxies/shell/events[?limit=N]`: the link's decisions from now on, as JSON lines
    /// in a chunked answer, read from the tap every 100 ms until the client goes or `limit`
    /// lines were sent.
    private func stream(_ request: HTTPRequestHead, limit text: String?, context: ChannelHandlerContext) {
        var limit = Int.max
        if let text {
            guard let value = Int(text), value > 0 else {
                return send(.badRequest, "application/json", Array(#"{"error":"limit must be a positive integer (got '\#(text)')","status":400}"#.utf8), request, context)
            }
            limit = value
        }
        let admitted = streams.open.withLock { open in
            guard open < ShellAPI.maximumEventStreams else { return false }
            open += 1
            return true
        }
        guard admitted else {
            let message = #"{"error":"too many event streams: at most \#(ShellAPI.maximumEventStreams) are served at once; close one first","status":503}"#
            return send(.serviceUnavailable, "application/json", Array(message.utf8), request, context)
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/x-ndjson")
        headers.add(name: "Transfer-Encoding", value: "chunked")
        context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: .ok, headers: headers))), promise: nil)
        let progress = StreamProgress(next: tap.end, limit: limit)
        let bound = NIOLoopBound((context: context, handler: self, progress: progress), eventLoop: context.eventLoop)
        let tap = self.tap
        streaming = context.eventLoop.scheduleRepeatedTask(initialDelay: .zero, delay: .milliseconds(100)) { _ in
            let (context, handler, progress) = bound.value
            let read = tap.lines(from: progress.next)
            progress.next = read.next
            let lines = read.lines.prefix(progress.limit - progress.sent)
            progress.sent += lines.count
            if !lines.isEmpty {
                context.writeAndFlush(handler.wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: lines.map { $0 + "\n" }.joined())))), promise: nil)
            }
            if progress.sent >= progress.limit {
                handler.stopStreaming()
                context.writeAndFlush(handler.wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.context.close(promise: nil) }
            }
        }
    }

    private func stopStreaming() {
        guard let task = streaming else { return }
        task.cancel()
        streaming = nil
        streams.open.withLock { $0 -= 1 }
    }
}
