package import LowbandTransport
package import LowbandWire
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opens TCP connections to a frame server and hands each over as a `SocketFrameLink`: the
/// client's side of the socket transport.
///
/// Connections live on the ``scheduler``'s event loop; `connect` is called there and its
/// completion runs there. Failures are `LowbandTransport/TransportError`s: `.connectionRefused`,
/// `.connectTimeout` (after ``Configuration/connectTimeout``) or `.connectFailed`.
package final class SocketFrameConnector: FrameConnector, Sendable {
    /// Where to connect and how to frame.
    package struct Configuration: Sendable {
        /// The server's address: a literal IPv4 or IPv6 address or a host name.
        package var host: String
        /// The server's TCP port.
        package var port: Int
        /// How long a connection attempt may take before it fails with `.connectTimeout`.
        package var connectTimeout: Duration
        /// The framing limits and compression of every link.
        package var frame: FrameConfiguration

        /// A configuration for `port` on the IPv4 loopback by default, with a 10 s connect timeout.
        package init(host: String = "127.0.0.1", port: Int, connectTimeout: Duration = .seconds(10), frame: FrameConfiguration = FrameConfiguration()) {
            self.host = host
            self.port = port
            self.connectTimeout = connectTimeout
            self.frame = frame
        }
    }

    /// The event loop and clock of the connector and its links.
    package let scheduler: EventLoopScheduler
    /// Where it connects and how it frames.
    package let configuration: Configuration

    /// A connector on `scheduler`'s loop.
    package init(scheduler: EventLoopScheduler, configuration: Configuration) {
        self.scheduler = scheduler
        self.configuration = configuration
    }

    /// A connector to `host:port` on `scheduler`'s loop with the default timeout and framing.
    package convenience init(scheduler: EventLoopScheduler, host: String = "127.0.0.1", port: Int) {
        self.init(scheduler: scheduler, configuration: Configuration(host: host, port: port))
    }

    package func connect(_ completion: @escaping (Result<any FrameLink, any Error>) -> Void) {
        let loop = scheduler.eventLoop
        loop.preconditionInEventLoop()
        let scheduler = self.scheduler
        let configuration = self.configuration
        let done = NIOLoopBound(completion, eventLoop: loop)
        let made = NIOLoopBoundBox(SocketFrameLink?.none, eventLoop: loop)
        ClientBootstrap(group: loop)
            .connectTimeout(TimeAmount(configuration.connectTimeout))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    made.value = try SocketFrameLink.install(on: channel, scheduler: scheduler, configuration: configuration.frame)
                }
            }
            .connect(host: configuration.host, port: configuration.port)
            .whenComplete { result in
                switch result {
                case .success(let channel):
                    if let link = made.value {
                        done.value(.success(link))
                    } else {
                        channel.close(promise: nil)
                        done.value(.failure(TransportError(.connectFailed, "connected to \(configuration.host):\(configuration.port) but the link was not set up")))
                    }
                case .failure(let error):
                    done.value(.failure(Self.transportError(error, configuration: configuration)))
                }
            }
    }

    static func transportError(_ error: any Error, configuration: Configuration) -> TransportError {
        let address = "\(configuration.host):\(configuration.port)"
        if case ChannelError.connectTimeout = error {
            return TransportError(.connectTimeout, "connecting to \(address) timed out after \(configuration.connectTimeout)")
        }
        if let connection = error as? NIOConnectionError {
            let refused = connection.connectionErrors.contains { attempt in
                (attempt.error as? IOError)?.errnoCode == ECONNREFUSED
            }
            if refused {
                return TransportError(.connectionRefused, "connection to \(address) refused: is the server running?")
            }
        }
        if let io = error as? IOError, io.errnoCode == ECONNREFUSED {
            return TransportError(.connectionRefused, "connection to \(address) refused: is the server running?")
        }
        return TransportError(.connectFailed, "cannot connect to \(address): \(error)")
    }
}
