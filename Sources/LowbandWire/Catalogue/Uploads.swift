public import Foundation

/// One piece of a resumable attachment upload. The server stores pieces in order: a piece
/// must start at the offset the server has acknowledged; anything else is answered with the
/// acknowledged offset so the client resumes from there.
public struct UploadChunkRequest: WireRequest {
    public typealias Reply = UploadChunkReply
    public static let command = Command.uploadChunk
    /// Chosen by the client (e.g. from its attachment id); the same id resumes the same upload.
    public var uploadID: String
    /// Where the piece starts in the file; must be the offset the server acknowledged.
    public var offset: Int64
    /// The whole file's size in bytes.
    public var totalSize: Int64
    /// The bytes, sent as MessagePack bin.
    public var data: Data

    /// The piece `data` of upload `uploadID`, starting at `offset`.
    public init(uploadID: String, offset: Int64, totalSize: Int64, data: Data) {
        self.uploadID = uploadID
        self.offset = offset
        self.totalSize = totalSize
        self.data = data
    }
}

/// Where an upload stands: the answer to an ``UploadChunkRequest`` or ``UploadStatusRequest``.
public struct UploadChunkReply: WireMessage {
    public static let command = Command.uploadChunk
    /// The upload it describes.
    public var uploadID: String
    /// Bytes the server holds, counted from the start: where the next piece begins.
    public var acknowledgedOffset: Int64
    /// True once all `totalSize` bytes are stored; `url` is then where the attachment lives.
    public var complete: Bool
    /// Where the attachment lives, once `complete`.
    public var url: String?

    /// A reply; `url` defaults to none (not complete).
    public init(uploadID: String, acknowledgedOffset: Int64, complete: Bool, url: String? = nil) {
        self.uploadID = uploadID
        self.acknowledgedOffset = acknowledgedOffset
        self.complete = complete
        self.url = url
    }
}

/// Asks how much of an upload the server holds, to resume it after a restart.
public struct UploadStatusRequest: WireRequest {
    public typealias Reply = UploadChunkReply
    public static let command = Command.uploadStatus
    /// The upload to ask about.
    public var uploadID: String
    /// A request for the state of `uploadID`.
    public init(uploadID: String) { self.uploadID = uploadID }
}
