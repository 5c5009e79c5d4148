import LowbandProxyCore
import NIOCore
import NIOPosix
import Synchronization

/// A minimal HTTP/1.1 origin on loopback for the front-door tests: every request gets the body
/// its path calls for (200, `Connection: close`), and the request line it came with is kept, so
/// a test sees what a proxy forwarded.
final class HTTPTestServer: Sendable {
    let server: TestPeers.Server
    private let seen: RequestLog

    var port: Int { server.port }
    /// The request lines received, in order.
    var requestLines: [String] { seen.lines.withLock { $0 } }

    private init(server: TestPeers.Server, seen: RequestLog) {
        self.server = server
        self.seen = seen
    }

    /// A resource: its content type and bytes.
    typealias Resource = (type: String, body: [UInt8])

    static func start(body: [UInt8]) async throws -> HTTPTestServer {
        try await start { _ in ("text/html", body) }
    }

    /// An origin answering each path (`/index.html`, without the query) with `route(path)`.
    static func start(route: @escaping @Sendable (String) -> Resource) async throws -> HTTPTestServer {
        let seen = RequestLog()
        let server = try await TestPeers.server { _ in Responder(route: route, log: seen) }
        return HTTPTestServer(server: server, seen: seen)
    }

    func close() async { await server.close() }

    private final class RequestLog: Sendable {
        let lines = Mutex<[String]>([])
    }

    private final class Responder: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        private let route: @Sendable (String) -> Resource
        private let log: RequestLog
        private var head: [UInt8] = []
        private var answered = false

        init(route: @escaping @Sendable (String) -> Resource, log: RequestLog) {
            self.route = route
            self.log = log
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !answered else { return }
            head += Array(unwrapInboundIn(data).readableBytesView)
            guard let end = HTTPProxyHandshake.headerEnd(in: head) else { return }
            answered = true
            let text = String(decoding: head[..<end], as: UTF8.self)
            let line = String(text.split(separator: "\r\n", maxSplits: 1).first ?? "")
            log.lines.withLock { $0.append(line) }
            let isHead = text.hasPrefix("HEAD ")
            let target = line.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
            let resource = route(String(target.prefix { $0 != "?" }))
            var response = ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Type: \(resource.type)\r\nContent-Length: \(resource.body.count)\r\nConnection: close\r\n\r\n")
            if !isHead { response.writeBytes(resource.body) }
            context.writeAndFlush(wrapOutboundOut(response)).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
        }
    }
}
