import LowbandWire

/// Which wire dictionary one link of a `Connection` agreed at login, and the checks that follow
/// from it: a sans-I/O struct, so the rules are tested without a link.
///
/// The login offers ``offered``; its reply names one of them or none; from then on every frame
/// the client sends names the agreed dictionary (the encoder compresses with it when it pays),
/// and every frame it receives may name only that one. A reply naming a dictionary the client
/// did not offer, or a frame naming one that was not agreed, is a protocol error that closes the
/// link. A new link starts over (``reset()``).
struct DictionaryAgreement: Sendable {
    /// What the login on this link offered.
    private(set) var offered: [WireDictionary.ID] = []
    /// What its reply agreed; nil before the reply and when none was agreed.
    private(set) var agreed: WireDictionary.ID?

    /// The login `request` is about to go out on a new link.
    mutating func loginSent(_ request: LoginRequest) {
        offered = request.compressionDictionaries.compactMap(WireDictionary.ID.init(wire:))
        agreed = nil
    }

    /// The login's successful reply arrived: agrees what it names, or fails when it names a
    /// dictionary the login did not offer.
    mutating func loginReplied(_ reply: LoginReply) -> ClientError? {
        guard let named = reply.compressionDictionary else {
            agreed = nil
            return nil
        }
        guard let id = WireDictionary.ID(wire: named), offered.contains(id) else {
            return ClientError(.malformedReply, "the login reply names wire dictionary \(named), which this client did not offer (it offered \(Self.list(offered)))")
        }
        agreed = id
        return nil
    }

    /// The reason to close the link when `frame` came compressed with a dictionary this link did
    /// not agree; nil when it is fine.
    func refusal(of frame: Frame) -> ClientError? {
        guard let used = frame.compressionDictionary, used != agreed else { return nil }
        return ClientError(.malformedReply, "a \(frame.command) frame #\(frame.sequence) came compressed with wire dictionary \(used), but this link agreed \(agreed.map { "dictionary \($0)" } ?? "none") at login")
    }

    /// `frame`, named to be compressed with the agreed dictionary.
    func stamped(_ frame: Frame) -> Frame {
        var frame = frame
        frame.compressionDictionary = agreed
        return frame
    }

    /// The link is gone: nothing is offered or agreed until the next login.
    mutating func reset() {
        offered = []
        agreed = nil
    }

    private static func list(_ ids: [WireDictionary.ID]) -> String {
        ids.isEmpty ? "none" : ids.map(\.description).joined(separator: ", ")
    }
}
