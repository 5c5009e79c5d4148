public import LowbandShaper
public import LowbandWire

/// Taken before a push, outside the measured time: the screen was idle and the proxy had
/// delivered this many bytes to the client.
public struct PushTicket: Hashable, Sendable {
    /// The number of the push this ticket is for (1, 2, …), part of its text.
    public var number: Int
    var downstreamBytesBefore: Int
}

/// One push that became visible: the measured part, before the wire bytes are read.
public struct VisiblePush: Hashable, Sendable {
    /// The message as the server stored and pushed it.
    public var message: Message
    /// The text of the row the chat screen shows for it.
    public var shownText: String?
    /// From the server's loop, just before it composed the push and wrote it to its socket,
    /// to the row entering the screen's list on the client's loop (one monotonic clock).
    public var pushToVisible: Duration
    /// From the decoded frame reaching the engine to the row entering the list: decoding the
    /// payload, the SQLite transaction and the screen queue's turn. The rest of
    /// ``pushToVisible`` is the server's write, the proxy and link, the socket read and
    /// the LZ4 decompression.
    public var clientShare: Duration?
    var ticket: PushTicket
}

/// One complete sample of push-to-visible.
public struct PushSample: Hashable, Sendable {
    public var push: VisiblePush
    /// The push frame's bytes delivered by the proxy to the client (header included).
    public var frameBytes: Int
    /// The physical floor and the median the profile implies for a frame of ``frameBytes`` on
    /// the harness's profile.
    public var floor: PhysicalFloor

    public var message: Message { push.message }
    public var pushToVisible: Duration { push.pushToVisible }

    /// ``pushToVisible`` over the median the profile implies; nil on a link with no delay and no
    /// rate limit.
    public var medianRatio: Double? { floor.ratioToMedian(of: push.pushToVisible) }
}
