public import LowbandWire

extension ServerCore {
    /// The most dictionary ids a login may offer: there are only 15 ids a header can carry.
    public static let maximumDictionaryOffers = 16

    /// The wire dictionary `session` agreed at login, which every frame to and from it may be
    /// compressed with; nil before login, or when none was agreed (plain LZ4).
    public func compressionDictionary(of session: SessionID) -> WireDictionary.ID? {
        sessions[session]?.dictionary
    }

    /// The dictionary a login on `session` offering `offered` agrees: the one the session already
    /// agreed (a connection never changes its dictionary), else the highest offered id this
    /// server has (`ServerConfiguration/frame`'s dictionaries), else none. Ids this build does
    /// not know are ignored, so a newer client falls back to what both have.
    func chooseDictionary(offered: [Int64], session: SessionID) throws(ErrorReply) -> WireDictionary.ID? {
        guard offered.count <= Self.maximumDictionaryOffers else {
            throw ErrorReply(.badRequest, "the login offers \(offered.count) compression dictionaries; at most \(Self.maximumDictionaryOffers) ids exist: offer the ids of the dictionaries the client has")
        }
        if let agreed = sessions[session]?.dictionary { return agreed }
        let mine = configuration.frame.compression.dictionaries.map(\.id)
        return offered.compactMap(WireDictionary.ID.init(wire:)).filter(mine.contains).max()
    }

    /// Refuses a frame compressed with a dictionary the session did not agree: a client names
    /// only the dictionary its login reply named.
    func dictionaryRefusal(_ frame: Frame, session: SessionID) -> ErrorReply? {
        guard let used = frame.compressionDictionary else { return nil }
        let agreed = sessions[session]?.dictionary
        guard used != agreed else { return nil }
        let state = agreed.map { "agreed wire dictionary \($0)" } ?? (sessions[session]?.userID == nil ? "has not logged in, so agreed no dictionary" : "agreed no dictionary")
        return ErrorReply(.badRequest, "the \(frame.command) request #\(frame.sequence) is compressed with wire dictionary \(used), but this connection \(state): compress only with the dictionary the login reply names (compressionDictionary), or with plain LZ4")
    }

    /// `outbound` with each frame set to be compressed with its session's dictionary.
    func stamped(_ outbound: [Outbound]) -> [Outbound] {
        outbound.map { item in
            var item = item
            item.frame.compressionDictionary = sessions[item.session]?.dictionary
            return item
        }
    }
}
