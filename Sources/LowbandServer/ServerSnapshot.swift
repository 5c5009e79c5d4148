package import LowbandWire

/// A server's whole data at one moment: what a store seeds itself with and what it loads back.
///
/// A fresh server's is made from seed data (`LowbandFixtures` makes one of a seeded world); a
/// restarted one is what its store read back. ``ServerCore`` is built from either the same way.
package struct ServerSnapshot: Sendable, Hashable {
    /// Ascending ids from 1.
    package var users: [StoredUser]
    /// Ascending ids from 1.
    package var chats: [StoredChat]
    /// Uploads begun and not dropped, by user then upload id.
    package var uploads: [StoredUploadRecord]
    /// The latest server time handed out (a change's stamp or a login's sync point); the
    /// restored clock starts there, so time never goes back across a restart.
    package var clock: ServerTime

    package init(users: [StoredUser], chats: [StoredChat], uploads: [StoredUploadRecord], clock: ServerTime) {
        self.users = users
        self.chats = chats
        self.uploads = uploads
        self.clock = clock
    }
}

/// A user's profile, settings and address book, as a store holds them: the server's own record,
/// filled from the seed data at first start and changed by the server after.
package struct StoredUser: Sendable, Hashable {
    /// From 1.
    package var id: Int64
    /// The login token.
    package var token: String
    package var name: String
    package var phone: String
    package var avatar: String?
    package var status: String?
    /// When the profile (name, avatar, status) last changed.
    package var profileUpdatedAt: ServerTime
    package var settings: Settings
    /// Other users in the address book, ascending.
    package var contactIDs: [Int64]

    package init(
        id: Int64, token: String, name: String, phone: String, avatar: String?, status: String?,
        profileUpdatedAt: ServerTime, settings: Settings, contactIDs: [Int64]
    ) {
        self.id = id
        self.token = token
        self.name = name
        self.phone = phone
        self.avatar = avatar
        self.status = status
        self.profileUpdatedAt = profileUpdatedAt
        self.settings = settings
        self.contactIDs = contactIDs
    }

    /// The user as a contact in someone else's address book.
    package var contact: Contact {
        Contact(id: id, name: name, phone: phone, avatar: avatar, status: status, updatedAt: profileUpdatedAt)
    }
}

/// A chat with its members' read positions, as a store holds it.
package struct StoredChat: Sendable, Hashable {
    package var id: Int64
    package var kind: Chat.Kind
    /// A group's title; nil for a direct chat.
    package var title: String?
    /// Ascending.
    package var memberIDs: [Int64]
    /// Oldest first; ids ascend.
    package var messages: [Message]
    /// When the shared content (a new message) last changed.
    package var updatedAt: ServerTime
    /// Per member (same order as `memberIDs`): newest message read, and when that changed.
    package var readUpTo: [Int64]
    package var readUpdatedAt: [ServerTime]

    package init(
        id: Int64, kind: Chat.Kind, title: String?, memberIDs: [Int64], messages: [Message],
        updatedAt: ServerTime, readUpTo: [Int64], readUpdatedAt: [ServerTime]
    ) {
        self.id = id
        self.kind = kind
        self.title = title
        self.memberIDs = memberIDs
        self.messages = messages
        self.updatedAt = updatedAt
        self.readUpTo = readUpTo
        self.readUpdatedAt = readUpdatedAt
    }
}

/// An upload's record: everything but its bytes, which live in an ``UploadStorage``.
package struct StoredUploadRecord: Sendable, Hashable {
    package var userID: Int64
    package var uploadID: String
    /// Names the upload's bytes in the storage; unique, increasing in the order uploads began.
    package var number: Int64
    package var totalSize: Int64
    /// Bytes held (and acknowledged).
    package var acknowledgedOffset: Int64
    /// FNV-1a (64-bit) of the bytes held.
    package var checksum: UInt64
    /// Where the finished attachment lives; nil until complete.
    package var url: String?

    package init(userID: Int64, uploadID: String, number: Int64, totalSize: Int64, acknowledgedOffset: Int64, checksum: UInt64, url: String?) {
        self.userID = userID
        self.uploadID = uploadID
        self.number = number
        self.totalSize = totalSize
        self.acknowledgedOffset = acknowledgedOffset
        self.checksum = checksum
        self.url = url
    }

    package var complete: Bool { url != nil }
}
