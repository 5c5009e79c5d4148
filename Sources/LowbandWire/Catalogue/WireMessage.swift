public import LowbandMessagePack

/// A message of the catalogue: a Codable payload tied to its command code.
public protocol WireMessage: Codable, Hashable, Sendable, MessagePackFastCodable {
    /// The command code frames of this message carry.
    static var command: Command { get }
}

/// A request whose answer has the type `Reply` (same command, response flag set).
public protocol WireRequest: WireMessage {
    /// The type of the server's answer to this request.
    associatedtype Reply: WireMessage
}

/// A message the server sends unasked.
public protocol WirePush: WireMessage {}

/// Milliseconds since the Unix epoch, as the server's clock counts them.
public typealias ServerTime = Int64
