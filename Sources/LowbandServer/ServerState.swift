import Foundation
import LowbandBasics
import LowbandWire

/// A user as the server holds them.
struct UserState: Sendable {
    var profile: StoredUser
    /// Chats the user is in, ascending.
    var chatIDs: [Int64]
    /// Users who have this one in their address book, ascending.
    var contactOf: [Int64]
    /// Sessions logged in as this user, ascending.
    var sessions: [SessionID] = []
    /// Unfinished uploads.
    var activeUploads = 0
}

/// A chat as the server holds it: the same record a store keeps.
typealias ChatState = StoredChat

extension StoredChat {
    func memberIndex(_ userID: Int64) -> Int? {
        var low = 0
        var high = memberIDs.count
        while low < high {
            let middle = (low + high) / 2
            if memberIDs[middle] < userID { low = middle + 1 } else { high = middle }
        }
        return low < memberIDs.count && memberIDs[low] == userID ? low : nil
    }

    /// The index of the first message whose id is at least `id` (the message count if none).
    func firstIndex(atLeast id: Int64) -> Int {
        var low = 0
        var high = messages.count
        while low < high {
            let middle = (low + high) / 2
            if messages[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return low
    }

    func messageIndex(_ id: Int64) -> Int? {
        let index = firstIndex(atLeast: id)
        return index < messages.count && messages[index].id == id ? index : nil
    }

    /// Messages after the member's read position that others sent.
    func unreadCount(member index: Int) -> Int {
        let userID = memberIDs[index]
        let start = firstIndex(atLeast: readUpTo[index] + 1)
        return messages[start...].count { $0.senderID != userID }
    }

    /// When this chat last changed as `member index` sees it.
    func updatedAt(member index: Int) -> ServerTime {
        max(updatedAt, readUpdatedAt[index])
    }
}

/// A sent message's place, for idempotent retries.
struct MessageReference: Sendable {
    var chatID: Int64
    var index: Int
}

struct ClientMessageKey: Hashable, Sendable {
    var userID: Int64
    var clientID: UInt64
}

struct UploadKey: Hashable, Sendable {
    var userID: Int64
    var uploadID: String
}

/// An attachment upload: how much is held (the bytes are in the core's ``UploadStorage``).
struct UploadState: Sendable {
    /// Names the bytes in the upload storage.
    var number: Int64
    var totalSize: Int64
    var acknowledgedOffset: Int64 = 0
    /// FNV-1a of the bytes held.
    var checksum = FNV1a()
    var url: String?
    var complete: Bool { url != nil }

    init(number: Int64, totalSize: Int64) {
        self.number = number
        self.totalSize = totalSize
    }

    init(_ record: StoredUploadRecord) {
        number = record.number
        totalSize = record.totalSize
        acknowledgedOffset = record.acknowledgedOffset
        checksum = FNV1a(value: record.checksum)
        url = record.url
    }

    func record(_ key: UploadKey) -> StoredUploadRecord {
        StoredUploadRecord(
            userID: key.userID, uploadID: key.uploadID, number: number, totalSize: totalSize,
            acknowledgedOffset: acknowledgedOffset, checksum: checksum.value, url: url
        )
    }
}

/// A connection's state: who it is logged in as, and its push counter.
struct SessionState: Sendable {
    var userID: Int64?
    var pushSequence: UInt32 = 0
    /// The wire dictionary agreed at login; frames both ways may be compressed with it.
    var dictionary: WireDictionary.ID?
}

/// An upload as the server holds it, for tests and tools.
public struct StoredUpload: Hashable, Sendable {
    /// The id the client chose for the upload.
    public var uploadID: String
    /// The size the client announced, in bytes.
    public var totalSize: Int64
    /// The bytes held, in order; their count is the acknowledged offset.
    public var data: [UInt8]
    /// Where the finished attachment lives; nil until complete.
    public var url: String?
    /// FNV-1a (64-bit) of `data`, checked against the stored bytes when the upload finished.
    public var checksum: UInt64
}

/// A message as it comes in, from a session's request or a post, before it is checked.
struct MessageDraft: Sendable {
    var text: String
    var attachments: [Attachment]
    /// The sender's id for retries; nil for a post that never retries.
    var clientID: UInt64?
    var chatID: Int64
    var senderID: Int64
}
