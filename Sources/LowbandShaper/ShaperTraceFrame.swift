/// Where a shaper sits on its owner's timeline and connection numbering, so its trace keeps one
/// time base and one numbering when the owner switches shapers.
///
/// A shaper counts time from its own start and numbers connections from 0 in opening order
/// (``ConnectionID``). Its owner — the proxy's state machine, on sockets and in memory — counts
/// time from its own start and numbers connections from 1 in accept order, and a profile or seed
/// switch starts a new shaper mid-run that opens the connections still open again, in order.
/// A frame maps the shaper's instants and ids to the owner's; `FramedTraceSink` applies it to
/// every event before it reaches a trace. A shaper that traces must number its connections as
/// ``ConnectionID`` says (from 0, one more per `open`), as ``NetworkShaper`` does.
public struct ShaperTraceFrame: Hashable, Sendable {
    /// The owner's instant at which the shaper's time zero lies.
    public var origin: ShaperInstant
    /// The owner's numbers of the connections the shaper opens first, in that order: the ones a
    /// switch carries over.
    public var carried: [Int]
    /// The owner's number of the first connection opened after ``carried``; each later one is one
    /// more.
    public var firstNew: Int

    /// A frame whose shaper starts at the owner's `origin`, reopening the owner's connections
    /// `carried` first; its new connections are numbered from `firstNew`.
    public init(origin: ShaperInstant, carried: [Int] = [], firstNew: Int) {
        self.origin = origin
        self.carried = carried
        self.firstNew = firstNew
    }

    /// A shaper that starts with its owner: time as is, connections numbered from 1.
    public static let start = ShaperTraceFrame(origin: .zero, firstNew: 1)

    /// The owner's number of the shaper's connection `id`.
    public func number(of id: ConnectionID) -> Int {
        id.index < carried.count ? carried[id.index] : firstNew + (id.index - carried.count)
    }

    /// `event` on the owner's timeline, its connection the owner's number.
    public func place(_ event: ShaperEvent) -> ShaperEvent {
        var placed = event
        let (time, overflow) = event.time.nanoseconds.addingReportingOverflow(origin.nanoseconds)
        placed.time = ShaperInstant(nanoseconds: overflow ? .max : time)
        placed.connection = event.connection.map { ConnectionID(index: number(of: $0)) }
        return placed
    }
}

/// Hands each shaper decision to `sink` placed by `frame` (see ``ShaperTraceFrame``).
package struct FramedTraceSink: ShaperTraceSink {
    package let frame: ShaperTraceFrame
    package let sink: any ShaperTraceSink

    package init(_ sink: any ShaperTraceSink, frame: ShaperTraceFrame) {
        self.frame = frame
        self.sink = sink
    }

    package func record(_ event: ShaperEvent) {
        sink.record(frame.place(event))
    }
}
