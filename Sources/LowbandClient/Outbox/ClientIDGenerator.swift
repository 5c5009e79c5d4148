public import LowbandDeterminism

/// Client ids for sends: the `n`-th id is a pure function of the seed and `n`.
///
/// The count `n` lives in the cache and moves forward in the same transaction that stores the
/// task, so a restarted client never hands out an id twice and a seeded run replays the same
/// ids. Ids are positive 63-bit values (readable in SQL); 0 is never used.
///
/// Two installs must not share a seed: their ids would collide and the server would take one
/// install's message for a retry of the other's. The composition root derives the seed per
/// install.
public struct ClientIDGenerator: Sendable {
    private let root: SeededGenerator
    private static let label: UInt64 = 0xC11E_17ED

    /// Ids drawn from `generator`; derive it per install (see above).
    public init(generator: SeededGenerator) {
        self.root = generator
    }

    /// The `number`-th client id: positive, never 0, the same for the same seed and number.
    public func clientID(number: Int64) -> UInt64 {
        var stream = root.derived(Self.label, UInt64(bitPattern: number))
        while true {
            let value = stream.next() & UInt64(Int64.max)
            if value != 0 { return value }
        }
    }
}
