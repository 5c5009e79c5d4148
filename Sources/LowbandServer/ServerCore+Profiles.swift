public import LowbandWire

extension ServerCore {
    /// Changes a user's status line (a profile change) and returns the pushes to send: a
    /// `LowbandWire/ContactChangedPush` to every logged-in session of every user who has them
    /// as a contact. The change also shows in those users' next delta login.
    public mutating func updateStatus(of userID: Int64, to status: String?, at now: Duration) throws(ErrorReply) -> [Outbound] {
        guard user(userID) != nil else { throw ErrorReply(.notFound, "there is no user \(userID)") }
        if let status, status.utf8.count > configuration.limits.textBytes {
            throw ErrorReply(.payloadTooLarge, "a status is at most \(configuration.limits.textBytes) bytes")
        }
        let index = Int(userID - 1)
        var profile = users[index].profile
        profile.status = status
        profile.profileUpdatedAt = clock.stamp(at: now)
        try commit(.profile(profile))
        users[index].profile = profile
        let outbound = pushes(ContactChangedPush(contact: users[index].profile.contact), to: users[index].contactOf)
        statistics.pushes += outbound.count
        return outbound
    }

    /// Changes a user's settings (as another device of theirs would); the next delta login
    /// returns them.
    public mutating func updateSettings(of userID: Int64, at now: Duration, _ change: (inout Settings) -> Void) throws(ErrorReply) {
        guard user(userID) != nil else { throw ErrorReply(.notFound, "there is no user \(userID)") }
        let index = Int(userID - 1)
        var profile = users[index].profile
        change(&profile.settings)
        profile.settings.updatedAt = clock.stamp(at: now)
        try commit(.profile(profile))
        users[index].profile = profile
    }

    /// The server time at the scheduler's `now` (what a ping would answer).
    public func serverTime(at now: Duration) -> ServerTime {
        clock.reading(at: now)
    }

    /// The token `userID` logs in with.
    public func token(of userID: Int64) -> String? {
        user(userID)?.profile.token
    }
}
