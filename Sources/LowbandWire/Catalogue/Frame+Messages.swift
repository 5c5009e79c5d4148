public import LowbandMessagePack

// Frames carry the catalogue in wire format v2, written and read by the generated fast path;
// the Codable conformances with `WireFormat.v2` are the reference it is tested against.

extension Frame {
    /// A request frame carrying `message`.
    public static func request<M: WireRequest>(_ message: M, sequence: UInt32) throws -> Frame {
        Frame(command: M.command, sequence: sequence, payload: try message.messagePackBytes())
    }

    /// The response to the request with `sequence`.
    public static func response<M: WireMessage>(_ message: M, sequence: UInt32) throws -> Frame {
        Frame(flags: .response, command: M.command, sequence: sequence, payload: try message.messagePackBytes())
    }

    /// The response to `request`: its command and sequence, whatever the reply type's own
    /// command (`uploadStatus` is answered with an ``UploadChunkReply``).
    public static func response<M: WireMessage>(_ message: M, answering request: Frame) throws -> Frame {
        Frame(flags: .response, command: request.command, sequence: request.sequence, payload: try message.messagePackBytes())
    }

    /// An error response to a request of `command` with `sequence`.
    public static func error(_ reply: ErrorReply, command: Command, sequence: UInt32) throws -> Frame {
        Frame(flags: [.response, .error], command: command, sequence: sequence, payload: try reply.messagePackBytes())
    }

    /// A server push; `sequence` is the server's push counter.
    public static func push<M: WirePush>(_ message: M, sequence: UInt32) throws -> Frame {
        Frame(flags: .push, command: M.command, sequence: sequence, payload: try message.messagePackBytes())
    }

    /// Decodes the payload as `type`, turning codec errors into `.malformedPayload`.
    public func decode<M: MessagePackFastCodable>(_ type: M.Type) throws(WireError) -> M {
        do {
            return try M(messagePackBytes: payload)
        } catch {
            throw WireError(.malformedPayload, "\(command) payload is not a valid \(M.self): \(error)")
        }
    }
}
