public import NIOCore
import LowbandMessagePack

/// The answer to a request in an older wire version: an error response that the old peer can
/// read, because it is written in that version's own layout.
///
/// Version 1 peers are refused rather than served (docs/PROTOCOL.md, "Versions"): the frame
/// decoder rejects their first header with `unsupportedVersion`, and ``VersionRefusalHandler``
/// sends this frame before the connection closes. Both versions share the 12-byte header, so
/// a v1 client reads a `response|error` frame for its request with the ``ErrorReply`` code 426.
public enum VersionRefusal {
    /// The code of the refusal: the HTTP status "upgrade required".
    public static let code = ErrorReply.Code(rawValue: 426)

    /// The frame's bytes, or nil when `header` is not a request of a version this build can
    /// answer in (version 1).
    public static func frame(answering header: FrameHeader) -> ByteBuffer? {
        guard header.version == WireFormat.v1.rawValue, header.flags.isDisjoint(with: [.response, .push]) else { return nil }
        let reply = ErrorReply(code: code, text: "this server speaks wire version \(WireFormat.current.rawValue) only; wire version \(header.version) is no longer served: update the client")
        // The catalogue's Codable conformances write v1's named layout when not told otherwise.
        guard let payload = try? MessagePackEncoder().encode(reply) else { return nil }
        var out = ByteBuffer()
        out.writeRepeatingByte(0, count: FrameHeader.size)
        out.writeBytes(payload)
        let answer = FrameHeader(version: header.version, flags: [.response, .error], command: header.command, sequence: header.sequence, payloadLength: UInt32(payload.count))
        answer.set(in: &out, at: 0)
        return out
    }
}

/// Sends ``VersionRefusal`` for a request whose version the decoder refused, then passes the
/// error on (so the connection closes once the answer is written).
///
/// Sits between the frame decoder and the frame encoder: it writes bytes, not frames.
public final class VersionRefusalHandler: ChannelInboundHandler {
    public typealias InboundIn = Frame
    public typealias InboundOut = Frame

    /// A handler; add one per channel.
    public init() {}

    public func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let wireError = error as? WireError, wireError.code == .unsupportedVersion,
              let header = wireError.header, let answer = VersionRefusal.frame(answering: header)
        else {
            context.fireErrorCaught(error)
            return
        }
        let pending = NIOLoopBound((context: context, error: error), eventLoop: context.eventLoop)
        context.writeAndFlush(NIOAny(answer)).whenComplete { _ in
            pending.value.context.fireErrorCaught(pending.value.error)
        }
    }
}

@available(*, unavailable)
extension VersionRefusalHandler: Sendable {}
