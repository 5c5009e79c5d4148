package import LowbandWire

/// Where a server's data lives beyond its memory: the core keeps its working copy in memory and
/// hands every change here *before* it answers or pushes anything, so an acknowledged change is
/// stored when the client hears of it.
///
/// ``MemoryServerStore`` (the default, and what `lowband run` and virtual time use) keeps
/// nothing beyond the core's memory. The SQLite store of `lowband server --data`
/// (`LowbandServerStore`) commits each change in its own transaction.
package protocol ServerStore: Sendable {
    /// Makes `change` durable; returns once it is. A throw means it was not stored: the core
    /// then refuses the request (500) and keeps its memory as it was.
    func commit(_ change: ServerChange) throws(ServerStoreError)
}

/// One change to a server's data, with everything a store needs to record it.
package enum ServerChange: Sendable, Hashable {
    /// A new message. It also moves the chat's `updatedAt` and its sender's read position to
    /// the message (both at `sentAt`), and, when it has a `clientID`, is the idempotency record
    /// of (sender, clientID).
    case message(Message)
    /// A member's read position moved forward.
    case read(chatID: Int64, userID: Int64, upTo: Int64, at: ServerTime)
    /// A user's profile or settings changed.
    case profile(StoredUser)
    /// A login reply handed out this sync point: a restarted server's clock starts after it.
    case syncPoint(ServerTime)
    /// An upload began or grew, or finished (its bytes are already in the upload storage).
    case upload(StoredUploadRecord)
    /// An upload was dropped (its bytes did not match what was received).
    case uploadDropped(userID: Int64, uploadID: String)
}

/// The store of a server that keeps its data only in memory: the data ends with the process.
package struct MemoryServerStore: ServerStore {
    package init() {}
    package func commit(_ change: ServerChange) throws(ServerStoreError) {}
}

/// Why a server's data could not be stored, opened or read back.
package struct ServerStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure; extensible.
    package struct Code: Hashable, Sendable, RawRepresentable {
        package var rawValue: String
        package init(rawValue: String) { self.rawValue = rawValue }

        /// The data directory or a file in it cannot be created, opened, read or written.
        package static let io = Code(rawValue: "io")
        /// The stored data is not what this server writes (corrupt, edited, or a newer schema).
        package static let unreadable = Code(rawValue: "unreadable")
        /// The stored data was seeded differently from what the command line asks for.
        package static let mismatch = Code(rawValue: "mismatch")
    }

    /// What kind of failure this is.
    package var code: Code
    /// What went wrong, where, and what to do.
    package var message: String

    /// An error of `code` saying `message`.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { message }
}
