import Foundation
import LowbandBasics
import LowbandShaper
import NIOCore
import NIOHTTP1
import NIOPosix

/// `lowband shell --api`: `GET /stats` (JSON) and `GET /metrics` (Prometheus text) of the
/// shell's link, and `POST /outage` (the proxy's body), on one event-loop thread. Bodies over
/// 4 KB are refused (413); other paths get 404, other methods 405. The proxy's toxiproxy-compatible API
/// manages proxies by name, which a shell does not have; its `/metrics` naming
/// (`lowband_…_total`) and its one-process-per-scrape snapshots are followed.
package final class ShellAPI: Sendable {
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    /// The port it listens on (the one chosen when 0 was asked for).
    package let port: Int

    /// Listens on `host`:`port` (0: any free port) serving `observer`'s snapshots.
    package init(host: String, port: Int, observer: ShellObserver) throws(ShellError) {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            channel = try ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                        try channel.pipeline.syncOperations.addHandler(ShellAPIHandler(observer: observer))
                    }
                }
                .bind(host: host, port: port).wait()
        } catch {
            try? group.syncShutdownGracefully()
            throw ShellError(.system, "--api: cannot listen on \(host):\(port): \(error)")
        }
        self.group = group
        self.port = channel.localAddress?.port ?? port
    }

    /// Stops listening and ends the thread.
    package func stop() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }
}

/// One API connection: a request's head, then the answer when its end arrives.
private final class ShellAPIHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// A request body over this many bytes is refused with 413.
    static let maximumBodyBytes = 4096

    private let observer: ShellObserver
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var bodyTooLarge = false

    init(observer: ShellObserver) {
        self.observer = observer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            head = request
            body = []
            bodyTooLarge = false
        case .body(let buffer):
            if body.count + buffer.readableBytes > Self.maximumBodyBytes {
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

    /// `POST /outage`: `{"seconds": 5}` or `{"seconds": 2, "kind": "handover"}`, as the proxy's
    /// API takes it (0 < seconds ≤ 3600); the answer, or the error line.
    private func outage() -> (HTTPResponseStatus, String) {
        if bodyTooLarge { return (.payloadTooLarge, "the body of POST /outage is over \(Self.maximumBodyBytes) bytes\n") }
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
        let path = request.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? request.uri
        let (status, type, body): (HTTPResponseStatus, String, String)
        switch (request.method, path) {
        case (.GET, "/stats"):
            (status, type, body) = (.ok, "application/json", observer.snapshot.json)
        case (.GET, "/metrics"):
            (status, type, body) = (.ok, "text/plain; version=0.0.4; charset=utf-8", observer.snapshot.metrics)
        case (.POST, "/outage"):
            let (answer, text) = outage()
            (status, type, body) = (answer, answer == .ok ? "application/json" : "text/plain", text)
        case (_, "/stats"), (_, "/metrics"):
            (status, type, body) = (.methodNotAllowed, "text/plain", "only GET\n")
        case (_, "/outage"):
            (status, type, body) = (.methodNotAllowed, "text/plain", "only POST\n")
        default:
            (status, type, body) = (.notFound, "text/plain", "lowband shell serves GET /stats, GET /metrics and POST /outage\n")
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: type)
        headers.add(name: "Content-Length", value: String(body.utf8.count))
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: body)))), promise: nil)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
    }
}
