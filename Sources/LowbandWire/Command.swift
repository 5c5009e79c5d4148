/// A command code: what a frame asks for or carries.
///
/// A request and its reply share the command code; the reply has the response flag set.
/// Pushes have codes of their own. Codes are a struct, not an enum, so a peer that knows more
/// commands than we do is described rather than crashing a switch.
public struct Command: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Liveness probe (``Ping`` / ``Pong``).
    public static let ping = Command(rawValue: 0x0001)
    /// Log in and sync (``LoginRequest`` / ``LoginReply``).
    public static let login = Command(rawValue: 0x0002)
    /// A page of history (``HistoryRequest`` / ``HistoryReply``).
    public static let history = Command(rawValue: 0x0003)
    /// Send a message (``SendMessageRequest`` / ``SendMessageReply``).
    public static let sendMessage = Command(rawValue: 0x0004)
    /// Mark a chat read (``MarkReadRequest`` / ``Ack``).
    public static let markRead = Command(rawValue: 0x0005)
    /// Upload a piece of an attachment (``UploadChunkRequest`` / ``UploadChunkReply``).
    public static let uploadChunk = Command(rawValue: 0x0006)
    /// Ask where an upload stands (``UploadStatusRequest`` / ``UploadChunkReply``).
    public static let uploadStatus = Command(rawValue: 0x0007)

    /// Push: a new message (``NewMessagePush``).
    public static let pushNewMessage = Command(rawValue: 0x0101)
    /// Push: a contact changed (``ContactChangedPush``).
    public static let pushContactChanged = Command(rawValue: 0x0102)
    /// Push: someone read a chat (``ReadReceiptPush``).
    public static let pushReadReceipt = Command(rawValue: 0x0103)

    /// Every command of this protocol version, with its name.
    public static let catalogue: [Command: String] = [
        .ping: "ping", .login: "login", .history: "history", .sendMessage: "sendMessage",
        .markRead: "markRead", .uploadChunk: "uploadChunk", .uploadStatus: "uploadStatus",
        .pushNewMessage: "pushNewMessage",
        .pushContactChanged: "pushContactChanged", .pushReadReceipt: "pushReadReceipt",
    ]

    /// The command's name, or its code in hex when it is not in the catalogue.
    public var name: String {
        Command.catalogue[self] ?? "0x" + String(rawValue, radix: 16, uppercase: false)
    }

    public var description: String { name }

    /// Whether the command is a server push (codes 0x0100 and up).
    public var isPush: Bool { rawValue >= 0x0100 }
}
