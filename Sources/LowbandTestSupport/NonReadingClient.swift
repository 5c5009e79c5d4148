package import LowbandWire
package import NIOCore
import NIOPosix

/// A raw TCP client that sends frames and never reads a byte: the slow reader of the server's
/// back-pressure tests (it logs in, pipelines requests, and lets the replies pile up).
///
/// Reading is off (`autoRead` false), so whatever the server sends stays in the kernel's
/// buffers; what this side sends beyond what the server takes waits in this process.
package final class NonReadingClient: Sendable {
    package let channel: any Channel
    private let encoder = FrameEncoder()

    private init(channel: any Channel) {
        self.channel = channel
    }

    /// Connects to `host`:`port` from `loop`, with reading off.
    package static func connect(port: Int, host: String = "127.0.0.1", loop: any EventLoop) async throws -> NonReadingClient {
        let channel = try await ClientBootstrap(group: loop)
            .channelOption(.autoRead, value: false)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connect(host: host, port: port)
            .get()
        return NonReadingClient(channel: channel)
    }

    /// Encodes `frames` into one buffer and writes it without waiting for it to be taken.
    package func send(_ frames: [Frame]) async throws {
        var buffer = channel.allocator.buffer(capacity: frames.count * 32)
        for frame in frames {
            try encoder.write(frame, to: &buffer)
        }
        let channel = self.channel
        let bytes = buffer
        try await channel.eventLoop.submit {
            channel.writeAndFlush(bytes, promise: nil)
        }.get()
    }

    /// Writes `frame` `count` times over (encoded once; the server does not mind repeated
    /// sequence numbers, and this side never reads the replies anyway).
    package func send(repeating frame: Frame, count: Int) async throws {
        let one = try encoder.bytes(of: frame)
        var buffer = channel.allocator.buffer(capacity: one.readableBytes * count)
        for _ in 0 ..< count {
            buffer.writeImmutableBuffer(one)
        }
        let channel = self.channel
        let bytes = buffer
        try await channel.eventLoop.submit {
            channel.writeAndFlush(bytes, promise: nil)
        }.get()
    }

    /// Whether the connection is still open, as far as this side knows.
    package var isActive: Bool { channel.isActive }

    /// Closes the connection; errors (it may be closed already) are ignored.
    package func close() async {
        try? await channel.close()
    }
}
