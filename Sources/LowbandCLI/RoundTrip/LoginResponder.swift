import LowbandWire
import NIOCore

/// Answers every login request with one prepared reply payload; anything else gets an error reply.
///
/// The stand-in server of `lowband roundtrip` until the in-process messenger server exists.
final class LoginResponder: ChannelInboundHandler {
    typealias InboundIn = Frame
    typealias OutboundOut = Frame

    private let replyPayload: [UInt8]

    init(replyPayload: [UInt8]) {
        self.replyPayload = replyPayload
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let request = unwrapInboundIn(data)
        let response: Frame
        if request.command == .login, request.flags.isEmpty {
            response = Frame(flags: .response, command: .login, sequence: request.sequence, payload: replyPayload)
        } else {
            let reply = ErrorReply(code: .unsupportedCommand, text: "this responder answers login requests only, not \(request.command)")
            guard let frame = try? Frame.error(reply, command: request.command, sequence: request.sequence) else { return }
            response = frame
        }
        context.writeAndFlush(wrapOutboundOut(response), promise: nil)
    }
}
