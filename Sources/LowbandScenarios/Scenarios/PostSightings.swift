/// Pairs a server post's completion with a client's sighting of the posted message, whichever
/// comes first.
///
/// A scenario learns which message a post made from the post's completion, which hops back
/// from the server's loop to the run's; the push crosses the proxy to the engine's loop at the
/// same time. On sockets and a fast link the row (or the push) can be there first: on `perfect`
/// a third of push-to-visible's samples were dropped, subway counted visible messages as
/// undelivered and launch-by-push let a launch time out after 120 s, because the sighting found
/// no post to match. A sighting of a message no completion has named is kept while a post is
/// in flight (every row shown meanwhile, at most `limit`) and matched when the completion
/// comes; with nothing in flight none is kept.
struct PostSightings<Key: Hashable, Sighting> {
    private var inFlight = 0
    private var early: [Key: Sighting] = [:]
    /// The most sightings kept at once.
    let limit: Int

    init(limit: Int = 4_096) {
        self.limit = limit
    }

    /// A post was sent; its completion is to come.
    mutating func willPost() {
        inFlight += 1
    }

    /// A post's completion: the message it made (`key`; nil when it failed). Returns that
    /// message's sighting if one came first.
    mutating func didPost(_ key: Key?) -> Sighting? {
        inFlight = max(0, inFlight - 1)
        let sighting = key.flatMap { early.removeValue(forKey: $0) }
        if inFlight == 0 { early.removeAll() }
        return sighting
    }

    /// A message seen before any completion named it.
    mutating func sawUnposted(_ key: Key, _ sighting: Sighting) {
        guard inFlight > 0, early.count < limit else { return }
        early[key] = sighting
    }
}
