/// A push frame's payload, decoded by its command: typed dispatch for pushes, as
/// ``WireRequest/Reply`` is for replies.
public enum ServerPush: Hashable, Sendable {
    /// A ``NewMessagePush``.
    case newMessage(NewMessagePush)
    /// A ``ContactChangedPush``.
    case contactChanged(ContactChangedPush)
    /// A ``ReadReceiptPush``.
    case readReceipt(ReadReceiptPush)

    /// The push `frame` carries, or nil when its command is not a push of this catalogue (a
    /// newer server's, which the caller may log and drop).
    ///
    /// - Throws: ``WireError`` `.malformedPayload` when the payload is not the command's type.
    public init?(_ frame: Frame) throws(WireError) {
        switch frame.command {
        case NewMessagePush.command: self = .newMessage(try frame.decode(NewMessagePush.self))
        case ContactChangedPush.command: self = .contactChanged(try frame.decode(ContactChangedPush.self))
        case ReadReceiptPush.command: self = .readReceipt(try frame.decode(ReadReceiptPush.self))
        default: return nil
        }
    }
}
