/// When a link stops reading because its far side does not take what it is sent.
///
/// Unsent bytes are those handed to the link and not yet written to the socket (the kernel's own
/// send buffer is not counted). Once they exceed ``highWaterMark`` the link stops reading —
/// frames already read wait, none are delivered, the socket is not read — until they drop
/// below ``lowWaterMark``. The mark is checked after each frame sent, so one frame (at most one
/// maximum payload) may overshoot it.
public struct OutboundLimits: Sendable, Hashable {
    /// Unsent bytes above which the link stops reading (default 1 MiB).
    public var highWaterMark: Int
    /// Unsent bytes below which it reads again (default 512 KiB; at most the high mark).
    public var lowWaterMark: Int

    /// Limits of `highWaterMark` (at least 1) and `lowWaterMark` (clamped to 0 ... the high mark).
    public init(highWaterMark: Int = 1 << 20, lowWaterMark: Int = 512 << 10) {
        self.highWaterMark = max(1, highWaterMark)
        self.lowWaterMark = max(0, min(lowWaterMark, self.highWaterMark))
    }
}

/// A link that can stop reading and says how much it has not yet written: what a server needs
/// to keep a client that does not read from making it buffer without bound.
///
/// Call everything on the link's scheduler. The delegate hears of crossings of the outbound
/// limit through ``FrameLinkDelegate/link(_:didCrossOutboundLimit:)``.
package protocol FlowControlledFrameLink: FrameLink {
    /// Bytes sent and not yet written to the socket.
    var queuedOutboundBytes: Int { get }
    /// Bytes written to the socket so far: it grows while the far side takes what it is sent.
    var outboundBytesWritten: Int { get }
    /// Whether unsent bytes went over the high water mark and have not yet dropped below the
    /// low one (the link is not reading meanwhile).
    var isOverOutboundLimit: Bool { get }
    /// Whether frames are held back: over the outbound limit, or held by ``holdReading()``.
    var isReadingHeld: Bool { get }
    /// Stops delivering frames and reading the socket until ``releaseReading()``.
    func holdReading()
    /// Undoes ``holdReading()``; frames that waited are delivered now, in order, unless the
    /// link is still over its outbound limit.
    func releaseReading()
}
