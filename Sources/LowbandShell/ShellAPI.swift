import NIOCore
import NIOHTTP1
import NIOPosix

/// `lowband shell --api`: `GET /stats` (JSON) and `GET /metrics` (Prometheus text) of the
/// shell's link, on one event-loop thread. Request bodies are discarded unread, not kept;
/// anything but GET of those two paths gets 404 or 405. The proxy's toxiproxy-compatible API
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

    private let observer: ShellObserver
    private var head: HTTPRequestHead?

    init(observer: ShellObserver) {
        self.observer = observer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            head = request
        case .body:
            break
        case .end:
            guard let request = head else { return }
            head = nil
            respond(to: request, context: context)
        }
    }

    private func respond(to request: HTTPRequestHead, context: ChannelHandlerContext) {
        let path = request.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? request.uri
        let (status, type, body): (HTTPResponseStatus, String, String)
        switch (request.method, path) {
        case (.GET, "/stats"):
            (status, type, body) = (.ok, "application/json", observer.snapshot.json)
        case (.GET, "/metrics"):
            (status, type, body) = (.ok, "text/plain; version=0.0.4; charset=utf-8", observer.snapshot.metrics)
        case (_, "/stats"), (_, "/metrics"):
            (status, type, body) = (.methodNotAllowed, "text/plain", "only GET\n")
        default:
            (status, type, body) = (.notFound, "text/plain", "lowband shell serves GET /stats and GET /metrics\n")
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
